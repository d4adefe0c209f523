"""The CPU seconds a run's cells recorded, against the same cells timed again now: how far a loaded machine's clocks
overstate a leaderboard run's cost (figures/README.md: the 0.2.0 rerun's cells were computed by two or three
processes on 2 cores, each with two OpenBLAS threads until 2026-11-30 16:12).

A cell's recorded cost is ``time.process_time`` inside the cell, around its method (:func:`genesel.leaderboard.cells.
cv_cell`). CPU time counts only the cycles the process got, but oversubscribed cores still inflate it: caches and
the memory bus are shared, OpenBLAS threads spin while they wait for each other, and turbo clocks drop. How much is
an empirical question, so this script measures it: it takes repeat 0, outer folds ``0 .. --folds - 1`` of every
method of a board on ``--sets`` (the same cell dicts notebook 06's full run makes, :func:`genesel.leaderboard.status.
run_cells`), reads what the cache recorded for each (``--cache``; a cell this code keys differently, i.e. computed
by other code, is not read), and runs the same cells again with this checkout's code, no cache, in two
single-threaded processes side by side (the load of a notebook run with ``n_jobs=2`` on 2 cores;
:mod:`_time_cells`, which compiles every method's numba kernels on a tiny task first so that no timed cell pays for
them). The cells are dealt to the two processes by their recorded cost, largest first, each to the process with the
least so far.

Printed: per method the recorded and the new CPU seconds over the sample and their ratio; over the whole sample
(the sum of recorded over the sum of new) the factor by which the recorded clocks overstate; and per data set the
same. Run it on an otherwise idle machine: the load average at the start and the end is recorded with the result
(``benchmarks/results/bench_cell_clocks.json``).

``python benchmarks/bench_cell_clocks.py --cache DIR [--board binary|multiclass] [--sets NAME ...] [--folds 1]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, record, recorded, use_mirror  # noqa: E402
from _time_cells import run_side_by_side  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: a sample of each board small enough to time in minutes and spread over the sizes of its sets
DEFAULT_SETS = {"binary": ["alon", "golub", "gordon"], "multiclass": ["khan", "sorlie", "christensen"]}


def sample_cells(board: str, sets: list, folds: int) -> list:
    """Repeat 0, outer folds ``0 .. folds - 1`` of every method of ``board`` on ``sets``: the full run's own cells."""
    from genesel.leaderboard.status import run_cells

    return [c for c in run_cells("full", sets, None, 0, board)["cv"] if c["repeat"] == 0 and c["fold"] < folds]


def recorded_cpu(cells: list, cache) -> list:
    """The CPU seconds ``cache`` recorded for each cell (None: not in the cache under this code's key)."""
    from genesel.experiments.grid import cell_key
    from genesel.leaderboard.cells import cv_cell
    from genesel.leaderboard.status import read_costs

    keys = [cell_key(cv_cell, c) for c in cells]
    costs = read_costs(cv_cell, keys, cache)
    return [costs[k][0] if k in costs else None for k in keys]


def deal(cells: list, costs: list, n: int = 2) -> list:
    """``cells`` dealt to ``n`` processes by cost, largest first, each to the least loaded so far."""
    parts, loads = [[] for _ in range(n)], [0.0] * n
    for i in sorted(range(len(cells)), key=lambda i: -(costs[i] or 0.0)):
        j = loads.index(min(loads))
        parts[j].append(cells[i])
        loads[j] += costs[i] or 0.0
    return parts


def time_again(parts: list, workdir: Path) -> dict:
    """{(data set, method, fold): CPU seconds now} of the cells of ``parts``, one single-threaded process per part,
    side by side (:func:`_time_cells.run_side_by_side`)."""
    got = run_side_by_side({f"part{i}": (ROOT, part) for i, part in enumerate(parts)}, workdir)
    return {k: r["cpu_seconds"] for rows in got.values() for k, r in rows.items()}


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--board", default="binary", choices=["binary", "multiclass"])
    ap.add_argument("--cache", default=None, help="the run's cell cache (default: GENESEL_CACHE_DIR or runs/cache)")
    ap.add_argument("--sets", nargs="*", default=None, help="default: " + "; ".join(
        f"{b}: {' '.join(s)}" for b, s in DEFAULT_SETS.items()))
    ap.add_argument("--folds", type=int, default=1, help="outer folds of repeat 0 per method and set")
    args = ap.parse_args(argv)
    use_mirror(args)
    import pandas as pd

    from genesel.experiments.grid import default_cache_dir

    cache = Path(args.cache) if args.cache else default_cache_dir()
    sets = args.sets or DEFAULT_SETS[args.board]
    cells = sample_cells(args.board, sets, args.folds)
    was = recorded_cpu(cells, cache)
    have = [(c, w) for c, w in zip(cells, was) if w is not None]
    missing = len(cells) - len(have)
    if not have:
        raise SystemExit(f"none of the {len(cells)} sampled cells is in {cache} under this code's keys")
    print(f"{len(have)} cells of the {args.board} board recorded in the cache ({missing} not there: not timed); "
          f"timing them again in 2 processes ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="genesel-clocks-") as tmp:
        now = time_again(deal([c for c, _ in have], [w for _, w in have]), Path(tmp))
    rows = [dict(dataset=c["dataset"], method=c["method"], recorded=w, now=now.get((c["dataset"], c["method"],
                                                                                    c["fold"])))
            for c, w in have]
    t = pd.DataFrame(rows).dropna(subset=["now"])
    t = t[(t["recorded"] > 0) | (t["now"] > 0)]  # a method binary by construction does nothing on K classes
    by_method = t.groupby("method")[["recorded", "now"]].sum()
    by_method["recorded / now"] = by_method["recorded"] / by_method["now"]
    by_method = by_method.sort_values("recorded", ascending=False)
    by_set = t.groupby("dataset")[["recorded", "now"]].sum()
    by_set["recorded / now"] = by_set["recorded"] / by_set["now"]
    factor = t["recorded"].sum() / t["now"].sum()
    print("per method (CPU s over the sample):\n" + by_method.round(2).to_string())
    print("\nper data set:\n" + by_set.round(2).to_string())
    lo, hi = by_method["recorded / now"].quantile([0.25, 0.75])
    print(f"\nrecorded / now over the {len(t)} cells: {factor:.2f}x (methods' interquartile range {lo:.2f}-{hi:.2f}x)")
    record(f"recorded cell clocks against the same cells timed again, {args.board} board, {len(t)} cells "
           f"({', '.join(sets)}; repeat 0, {args.folds} outer fold(s) of every method)",
           genesel=f"{t['now'].sum():.1f} CPU s now", alternative=f"recorded: {t['recorded'].sum():.1f} CPU s",
           ratio=f"{factor:.2f}x (recorded / now)", recorded_cpu_s=float(t["recorded"].sum()),
           now_cpu_s=float(t["now"].sum()), factor=float(factor), methods_q25=float(lo), methods_q75=float(hi))
    return {"tables": {"per method": by_method.round(3).reset_index().to_dict(orient="records"),
                       "per data set": by_set.round(3).reset_index().to_dict(orient="records")}}


if __name__ == "__main__":
    main()
