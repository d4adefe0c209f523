"""``genesel shards``: carry the leaderboard's finished cells between machines (:mod:`genesel.experiments.shards`).

``genesel shards export [--board binary] [--datasets alon golub] [--cache DIR] [--out DIR]`` writes, per data set,
the cells of notebook 06's full run (its cross-validation grid, and the .632+ grid where the data set has one) that
the cache holds: ``<out>/<data set>.cv.cells.xz`` and ``<data set>.boot.cells.xz`` (default ``out``:
``figures/cells/<board>``, where a full run computed over several machines keeps them until its last pass).
``genesel shards import PATH... [--cache DIR]`` (files or folders) writes their cells into the cache under its own
key, each only if this code computes the key it was exported under: a cell of other code is left out (stale) and
its grid recomputes it. ``--cache`` defaults to ``GENESEL_CACHE_DIR`` or ``runs/cache``, as the notebooks'.
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["export", "main"]

_SUFFIX = ".cells.xz"


def export(board: str, datasets, cache_dir, out_dir, seed: int = 0) -> list[dict]:
    """One row per data set and grid: cells exported and cells of the full run not in the cache."""
    from genesel.experiments.shards import export_cells
    from genesel.leaderboard.cells import boot_cell, cv_cell
    from genesel.leaderboard.status import run_cells

    rows = []
    for d in datasets:
        grids = run_cells("full", [d], None, seed, board)
        for grid, func in (("cv", cv_cell), ("boot", boot_cell)):
            if not grids[grid]:
                continue
            path = Path(out_dir) / f"{d}.{grid}{_SUFFIX}"
            tmp = path.with_name(path.name + ".new")
            got = export_cells(cache_dir, func, grids[grid], tmp,
                               note=f"notebook 06, full run, {board} board, {d}, {grid} grid, seed {seed}")
            if got["exported"]:
                tmp.replace(path)
            else:
                tmp.unlink(missing_ok=True)
            rows.append(dict(dataset=d, grid=grid, exported=got["exported"], of=len(grids[grid]),
                             file=str(path) if got["exported"] else ""))
    return rows


def _paths(items) -> list[Path]:
    out = []
    for p in map(Path, items):
        out += sorted(p.glob(f"*{_SUFFIX}")) if p.is_dir() else [p]
    return out


def main(argv=None) -> int:
    from genesel.experiments.grid import default_cache_dir
    from genesel.experiments.shards import ShardError, import_shard
    from genesel.leaderboard.cells import board_sets

    ap = argparse.ArgumentParser(prog="genesel shards", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    ex = sub.add_parser("export", help="the cache's finished cells of notebook 06's full run, one file per data set")
    ex.add_argument("--board", default="binary", choices=["binary", "multiclass"])
    ex.add_argument("--datasets", nargs="*", default=None, help="default: every data set of the board")
    ex.add_argument("--cache", default=None, help="the cache to read (default: $GENESEL_CACHE_DIR or runs/cache)")
    ex.add_argument("--out", default=None, help="default: figures/cells/<board>")
    ex.add_argument("--seed", type=int, default=0)
    im = sub.add_parser("import", help="write the cells of shards (files or folders) into the cache")
    im.add_argument("paths", nargs="+", help="shard files or folders of them (e.g. figures/cells/binary)")
    im.add_argument("--cache", default=None, help="the cache to write into (default: $GENESEL_CACHE_DIR or runs/cache)")
    a = ap.parse_args(argv)
    cache = Path(a.cache) if a.cache else default_cache_dir()
    if a.what == "export":
        root = Path(__file__).resolve().parents[3]  # the clone (lib/genesel/leaderboard/shards.py), else here
        root = root if (root / "pyproject.toml").exists() else Path.cwd()
        out = Path(a.out) if a.out else root / "figures" / "cells" / a.board
        for r in export(a.board, a.datasets or board_sets(a.board), cache, out, a.seed):
            print(f"{r['dataset']:20s} {r['grid']:4s} {r['exported']:6d} of {r['of']:6d} cells  {r['file']}")
        return 0
    status = 0
    for p in _paths(a.paths):
        try:
            c = import_shard(p, cache)
        except (ShardError, OSError) as exc:
            print(f"genesel shards: {exc}")
            status = 1
            continue
        print(f"{p}: {c['imported']} imported, {c['present']} already in the cache, {c['stale']} stale (other "
              f"code or version: recomputed when their grid runs)")
    return status
