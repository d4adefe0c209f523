"""Time leaderboard cells with whatever ``genesel`` is first on the path (this checkout's, or an older commit's
worktree put first by ``PYTHONPATH``): ``python _time_cells.py CELLS.json OUT.json``.

CELLS.json holds a list of ``cv_cell`` keyword dicts. Every method is run once on a tiny task first (Colon, 60
genes, quick grids), so that numba's compilation (or loading of its cache) is not timed. Each cell is then run
without any cache and its own CPU seconds (``cpu_seconds``: ``time.process_time`` inside the cell) are written,
with its errors, after every cell (atomically), so an interrupted run keeps what it timed. A cell the code cannot
run (a method it does not have) is written with ``cpu_seconds`` None and the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def main(cells_path: str, out_path: str) -> None:
    import genesel
    from genesel.leaderboard.cells import cv_cell

    cells = json.load(open(cells_path))
    out = {"genesel": getattr(genesel, "__version__", "?"), "path": os.path.dirname(genesel.__file__), "cells": []}
    for m in dict.fromkeys(c["method"] for c in cells):
        try:
            cv_cell("alon", m, 0, 0, 3, 3, seed=0, quick=True, max_genes=60)
        except Exception:  # noqa: BLE001 - a method this code does not know is reported with its cells below
            pass
    for c in cells:
        try:
            r = cv_cell(**c)
            row = dict(c, cpu_seconds=r.get("cpu_seconds"), errors=r.get("errors"), why=r.get("not_applicable"))
        except Exception as exc:  # noqa: BLE001
            row = dict(c, cpu_seconds=None, errors=None, why=f"{type(exc).__name__}: {exc}"[:300])
        out["cells"].append(row)
        tmp = out_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f)
        os.replace(tmp, out_path)
        print(f"{c['dataset']:20s} {c['method']:32s} {row['cpu_seconds']}", flush=True)


def run_side_by_side(jobs: dict, workdir: Path) -> dict:
    """Time several lists of cells at once, one single-threaded process each (this script), side by side on the same
    cores: ``jobs`` {name: (code root whose ``lib`` goes first on PYTHONPATH, cells)}; returns {name: {(data set,
    method, fold): row}}. A process that fails raises, naming its log in ``workdir``."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               GENESEL_PROGRESS="none")
    procs = {}
    for name, (root, cells) in jobs.items():
        (workdir / f"{name}.cells.json").write_text(json.dumps(cells))
        log = open(workdir / f"{name}.log", "w")
        e = dict(env, PYTHONPATH=os.pathsep.join([str(Path(root) / "lib"), str(root)]))
        procs[name] = (subprocess.Popen([sys.executable, __file__, str(workdir / f"{name}.cells.json"),
                                         str(workdir / f"{name}.json")], env=e, stdout=log,
                                        stderr=subprocess.STDOUT, cwd=root), log)
    for name, (p, log) in procs.items():
        if p.wait():
            raise RuntimeError(f"timing {name} failed: see {workdir / (name + '.log')}")
        log.close()
    return {name: {(r["dataset"], r["method"], r["fold"]): r
                   for r in json.loads((workdir / f"{name}.json").read_text())["cells"]} for name in jobs}


if __name__ == "__main__":
    main(*sys.argv[1:3])
