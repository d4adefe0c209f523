"""The cost model of the full protocols on a cluster, from what a full run recorded in the cache.

Every cached cell records the seconds it took (wall, and CPU where recorded). This script reads a cache folder
(default ``runs/cache``, what ``make full`` filled), groups the cells by grid function, and prints per grid: cells,
CPU seconds per cell (mean and largest), total CPU seconds, and the wall time the grid would take on W single-core
workers: ``max(total / W, largest cell) x (1 + overhead)``, with the dask overhead per task measured by
``benchmarks/bench_grid.py`` (below 1 % with batching). A notebook's grids run one after the other, so its time is
the sum over its grids. ``python benchmarks/cost_model.py [--cache runs/cache] [--workers 2 100]``.

Seconds recorded under load (a shared machine) overstate the cost: where only wall seconds are recorded, the model
says so.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = {"guyon2002": "01", "gentile2003": "02", "helleputte2009": "03", "shah2012": "04", "tan2006_ch3": "05a",
            "tan2006_ch45": "05b/05c", "datasets_overview": "00", "leaderboard": "06"}


def read_costs(cache: Path):
    """{function: [(cpu or wall seconds, had cpu)]} over every cell record under ``cache``."""
    from genesel._core.store import RecordError, read_record

    out = defaultdict(list)
    for folder in sorted(p for p in cache.iterdir() if p.is_dir()):
        for rec_path in folder.glob("*.rec"):
            if rec_path.name == "costs.rec":
                continue
            try:
                rec = read_record(rec_path, kind="cell")
            except (RecordError, OSError):
                continue
            cpu = rec.get("cpu_seconds")
            out[rec.get("func", folder.name)].append((float(cpu if cpu is not None else rec.get("seconds", 0.0)),
                                                      cpu is not None))
    return out


def model(costs, workers, overhead=0.01):
    rows = []
    for func, vals in sorted(costs.items()):
        secs = [v for v, _ in vals]
        total = sum(secs)
        mod = func.split(".")[-2] if "." in func else func
        row = {"notebook": NOTEBOOK.get(mod, "?"), "grid": func.removeprefix("genesel.papers."), "cells": len(secs),
               "cpu_per_cell": total / len(secs), "largest_cell": max(secs), "total_cpu": total,
               "cpu_recorded": all(c for _, c in vals)}
        for w in workers:
            row[f"wall_{w}"] = max(total / w, max(secs)) * (1 + overhead)
        rows.append(row)
    return rows


def _fmt(s):
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=str(ROOT / "runs" / "cache"))
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 100])
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    if not cache.is_dir():
        sys.exit(f"no cache folder {cache}: run `make full` first (or pass --cache)")
    rows = model(read_costs(cache), args.workers)
    head = ["notebook", "grid", "cells", "CPU s/cell", "largest cell", "total CPU"] + \
        [f"on {w} cores" for w in args.workers]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    by_nb = defaultdict(lambda: defaultdict(float))
    for r in rows:
        note = "" if r["cpu_recorded"] else " (wall)"
        print(f"| {r['notebook']} | `{r['grid']}` | {r['cells']} | {r['cpu_per_cell']:.2f}{note} | "
              f"{r['largest_cell']:.1f} s | {_fmt(r['total_cpu'])} | " +
              " | ".join(_fmt(r[f"wall_{w}"]) for w in args.workers) + " |")
        for k in ["total_cpu"] + [f"wall_{w}" for w in args.workers]:
            by_nb[r["notebook"]][k] += r[k]
    print()
    for nb, v in sorted(by_nb.items()):
        print(f"notebook {nb}: {_fmt(v['total_cpu'])} CPU; " +
              ", ".join(f"{_fmt(v[f'wall_{w}'])} on {w} cores" for w in args.workers))


if __name__ == "__main__":
    main()
