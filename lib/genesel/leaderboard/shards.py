"""``genesel shards``: compute the leaderboard's cells, and carry the finished ones between machines
(:mod:`genesel.experiments.shards`).

``genesel shards export [--board binary] [--datasets alon golub] [--cache DIR] [--out DIR]`` writes, per data set,
the cells of notebook 06's full run (its cross-validation grid, and the .632+ grid where the data set has one) that
the cache holds: ``<out>/<data set>.cv.cells.xz`` and ``<data set>.boot.cells.xz`` (default ``out``:
``figures/cells/<board>``, where a full run computed over several machines keeps them until its last pass).
``genesel shards export --papers`` writes the cells of every other grid the cache holds (the papers' notebooks, whose
cells only the notebook knows), one file per grid function: ``<out>/<module.function>.cells.xz`` (default ``out``:
``figures/cells/papers``); only the cells this code computes under their stored key, and none of a user's file
(its path names this machine).
``genesel shards import PATH... [--cache DIR]`` (files or folders) writes their cells into the cache under its own
key, each only if this code computes the key it was exported under: a cell of other code is left out (stale) and
its grid recomputes it. ``genesel shards compute [--board binary] [--datasets ...] [--jobs N] [--cache DIR]``
computes the full run's cells into the cache, data set by data set (the cross-validation grid, the .632+ grid, and
Exercise 3's "another seed" grid),
skipping those already there: a run spread over sessions or machines is this command, interrupted and restarted as
often as needed, then ``export``. Several processes may share one cache (one per core, say): each cell is claimed
before it is computed, and a dead process's claims are taken over. ``--cache`` defaults to ``GENESEL_CACHE_DIR`` or
``runs/cache``, as the notebooks'.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

__all__ = ["compute", "export", "export_papers", "main"]

_SUFFIX = ".cells.xz"


def export(board: str, datasets, cache_dir, out_dir, seed: int = 0) -> list[dict]:
    """One row per data set and grid: cells exported and cells of the full run not in the cache."""
    from genesel.experiments.shards import export_cells
    from genesel.leaderboard.status import grid_functions, run_cells

    rows = []
    for d in datasets:
        grids = run_cells("full", [d], None, seed, board)
        for grid, func in grid_functions():
            if not grids.get(grid):
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


def export_papers(cache_dir, out_dir) -> list[dict]:
    """One row per grid function of the cache other than the leaderboard's: cells exported, stale cells left out."""
    from genesel.experiments.shards import cached_functions, export_cached, grid_function, names_no_file
    from genesel.leaderboard.status import grid_functions

    board = {f"{f.__module__}.{f.__qualname__}" for _, f in grid_functions()}
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    rows = []
    for name in cached_functions(cache_dir):
        if name in board:
            continue
        path = Path(out_dir) / f"{name}{_SUFFIX}"
        tmp = path.with_name(path.name + ".new")
        got = export_cached(cache_dir, grid_function(name), tmp, note=f"{name}: the cells of a papers' notebook run",
                            keep=names_no_file)  # a user's file: its path is this machine's, not for a shard
        if got["exported"]:
            tmp.replace(path)
        else:
            tmp.unlink(missing_ok=True)
        rows.append(dict(func=name, exported=got["exported"], stale=got["stale"], skipped=got["skipped"],
                         file=str(path) if got["exported"] else ""))
    return rows


def compute(board: str, datasets, cache_dir, *, n_jobs: int = 1, seed: int = 0, progress: bool = True,
            echo=print) -> list[dict]:
    """Compute notebook 06's full-run cells of ``datasets`` on ``board`` into ``cache_dir`` (what is cached is read,
    not recomputed), one data set at a time: its cross-validation grid, its .632+ grid, Exercise 3's grid. A failing
    cell does not stop the run (``on_error="finish"``): the others are computed and cached, and the row of its grid
    names it. One row per data set and grid: cells, cells cached before and after, failures, wall seconds."""
    import time

    from genesel.experiments.grid import GridCellsFailed, cached_records, cell_key, run_grid
    from genesel.leaderboard.status import GRID_TITLES, grid_functions, run_cells

    rows = []
    for d in datasets:
        grids = run_cells("full", [d], None, seed, board)
        for grid, func in grid_functions():
            cells = grids.get(grid)
            if not cells:
                continue
            keys = [cell_key(func, c) for c in cells]
            before = len(cached_records(func, keys, cache_dir))
            t0, failed = time.perf_counter(), []
            if before < len(cells):
                try:
                    run_grid(cells, func, cache_dir=cache_dir, n_jobs=n_jobs, on_error="finish", progress=progress,
                             desc=f"{board} {d} {GRID_TITLES[grid]}")
                except GridCellsFailed as exc:
                    failed = [f"{c.get('method')}, {json.dumps(c, sort_keys=True, default=str)}: {f!r}"
                              for c, f in exc.failures]
            row = dict(dataset=d, grid=grid, cells=len(cells), cached_before=before,
                       cached_after=len(cached_records(func, keys, cache_dir)), failed=failed,
                       seconds=time.perf_counter() - t0)
            echo(f"{d:20s} {grid:4s} {row['cached_after']:6d} of {row['cells']:6d} cells cached "
                 f"({row['cached_after'] - before} new, {len(failed)} failed) in {row['seconds']:.0f} s")
            for f in failed:
                echo(f"    failed: {f}")
            rows.append(row)
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
    ex.add_argument("--papers", action="store_true",
                    help="instead: the cells of every other grid in the cache (the papers' notebooks), one file per "
                         "grid function (default out: figures/cells/papers)")
    co = sub.add_parser("compute", help="compute the full run's cells into the cache, data set by data set "
                                        "(resumable; processes may share a cache)")
    co.add_argument("--board", default="binary", choices=["binary", "multiclass"])
    co.add_argument("--datasets", nargs="*", default=None, help="in this order (default: every data set of the board)")
    co.add_argument("--cache", default=None, help="the cache to fill (default: $GENESEL_CACHE_DIR or runs/cache)")
    co.add_argument("--jobs", type=int, default=1, help="worker processes of this command (default 1)")
    co.add_argument("--seed", type=int, default=0)
    co.add_argument("--quiet", action="store_true", help="no progress bar (one line per data set and grid only)")
    im = sub.add_parser("import", help="write the cells of shards (files or folders) into the cache")
    im.add_argument("paths", nargs="+", help="shard files or folders of them (e.g. figures/cells/binary)")
    im.add_argument("--cache", default=None, help="the cache to write into (default: $GENESEL_CACHE_DIR or runs/cache)")
    a = ap.parse_args(argv)
    cache = Path(a.cache) if a.cache else default_cache_dir()
    if a.what == "export":
        root = Path(__file__).resolve().parents[3]  # the clone (lib/genesel/leaderboard/shards.py), else here
        root = root if (root / "pyproject.toml").exists() else Path.cwd()
        if a.papers:
            out = Path(a.out) if a.out else root / "figures" / "cells" / "papers"
            for r in export_papers(cache, out):
                print(f"{r['func']:55s} {r['exported']:6d} cells ({r['stale']} stale and {r['skipped']} of users' "
                      f"files, left out)  {r['file']}")
            return 0
        out = Path(a.out) if a.out else root / "figures" / "cells" / a.board
        for r in export(a.board, a.datasets or board_sets(a.board), cache, out, a.seed):
            print(f"{r['dataset']:20s} {r['grid']:4s} {r['exported']:6d} of {r['of']:6d} cells  {r['file']}")
        return 0
    if a.what == "compute":
        rows = compute(a.board, a.datasets or board_sets(a.board), cache, n_jobs=a.jobs, seed=a.seed,
                       progress=not a.quiet)
        return 1 if any(r["failed"] for r in rows) else 0
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
