"""The multi-class board's lasso logistic regression: glmnet along a path against 0.2.0's saga (issue 41).

0.2.0's "multinomial L1 logistic regression" was scikit-learn's saga, each C of the inner grid fitted from zero
(``tol=1e-3``, ``max_iter=2000``): 40,408 CPU s, 43 % of the multi-class board's committed cost, and its fits ended
far from the optimum (:mod:`genesel.leaderboard.lasso_logistic`). It is now glmnet, one path per training part for
the five C. Two measurements:

1. ``--against REV`` (a commit with the saga code, e.g. the 0.3.0 bump 1bbab55): the first ``--folds`` outer folds of
   repeat 0 on every multi-class set, timed by this checkout and by REV's code in two single-threaded processes side
   by side (:mod:`_time_cells`, no cache): CPU seconds per cell and their ratio, errors and signature sizes of both.
2. ``--full``: the method's whole cross-validation grid (10 repeats x 5 outer folds, inner 5-fold CV) on every set,
   into the cell cache (``--cache``; the very cells of notebook 06's full run, so they are not computed again),
   against the committed 0.2.0 results (``figures/leaderboard_multiclass_results.csv``): the mean errors per repeat
   with Welch's two-sample t-test over the 10 repeats (the same protocol and folds; a p-value above 0.05 is "no
   difference shown", not "the same"), the balanced errors, the signature sizes and the CPU per fold (the committed
   one from another machine's clock).

``python benchmarks/bench_lasso_logistic.py --against 1bbab55 [--folds 1] [--full] [--sets khan su]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, record, recorded, use_mirror  # noqa: E402
from bench_per_study import time_both  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
METHOD = "multinomial L1 logistic regression"


def same_run(args, sets) -> list:
    from genesel.leaderboard.cells import MODES, outer_folds

    full = MODES["full"]
    cells = [dict(dataset=d, method=METHOD, repeat=0, fold=f, n_folds=outer_folds(d, full["n_folds"]),
                  inner_k=full["inner_k"], seed=0, quick=False) for d in sets for f in range(args.folds)]
    with tempfile.TemporaryDirectory(prefix="genesel-lasso-") as tmp:
        now, old = time_both(cells, args.against, Path(tmp))
    rows = []
    for k in sorted(now):
        a, b = now[k], old.get(k, {})
        rows.append({"data set": k[0], "fold": k[2], "CPU s saga (" + args.against + ")": round(b["cpu_seconds"], 2),
                     "CPU s glmnet (now)": round(a["cpu_seconds"], 2),
                     "ratio": round(b["cpu_seconds"] / a["cpu_seconds"], 1),
                     "test errors saga / glmnet": f"{b['errors']} / {a['errors']}"})
    import pandas as pd

    t = pd.DataFrame(rows)
    print(t.to_string(index=False))
    tot_old, tot_now = t.iloc[:, 2].sum(), t.iloc[:, 3].sum()
    print(f"\nall cells: saga {tot_old:.1f} CPU s, glmnet {tot_now:.1f} CPU s: {tot_old / tot_now:.1f}x")
    record(f"{METHOD}, {len(t)} leaderboard cells (first outer fold(s) of every multi-class set), same run",
           genesel=f"{tot_now:.1f} CPU s", alternative=f"saga ({args.against}): {tot_old:.1f} CPU s",
           ratio=f"{tot_old / tot_now:.1f}x CPU", target="none (issue 41: the board's largest cost)", met=None)
    return rows


def full_grid(args, sets) -> list:
    import numpy as np
    import pandas as pd
    from scipy.stats import ttest_ind_from_stats

    from genesel.experiments.grid import default_cache_dir, run_grid
    from genesel.leaderboard.cells import cv_cell
    from genesel.leaderboard.status import run_cells

    cache = Path(args.cache) if args.cache else default_cache_dir()
    committed = pd.read_csv(ROOT / "figures" / "leaderboard_multiclass_results.csv").set_index(["dataset", "method"])
    rows = []
    for d in sets:
        cells = [c for c in run_cells("full", [d], None, 0, "multiclass")["cv"] if c["method"] == METHOD]
        r = run_grid(cells, cv_cell, cache_dir=cache, n_jobs=args.n_jobs, desc=f"{d} {METHOD}")
        per_repeat = r.groupby("repeat")["errors"].sum()
        n = int(r.groupby("repeat")["n_test"].sum().iloc[0])
        old = committed.loc[(d, METHOD)]
        t = ttest_ind_from_stats(per_repeat.mean(), per_repeat.std(ddof=1), len(per_repeat),
                                 old["errors_per_repeat"], old["errors_per_repeat_sd"], int(old["n_repeats"]),
                                 equal_var=False)
        rows.append({"data set": d, "samples": n,
                     "errors per repeat 0.2.0 saga":
                         f"{old['errors_per_repeat']:.1f} (sd {old['errors_per_repeat_sd']:.2f})",
                     "now glmnet": f"{per_repeat.mean():.1f} (sd {per_repeat.std(ddof=1):.2f})",
                     "Welch p": round(float(t.pvalue), 3) if np.isfinite(t.pvalue) else None,
                     "genes 0.2.0": round(float(old["size"]), 1), "genes now": round(float(r["size"].mean()), 1),
                     "CPU s / fold 0.2.0": round(float(old["cpu_per_fold"]), 1),
                     "CPU s / fold now": round(float(r["cpu_seconds"].mean()), 2)})
    t = pd.DataFrame(rows)
    print(t.to_string(index=False))
    return rows


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--against", default=None, help="a commit with the saga code, timed side by side")
    ap.add_argument("--folds", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="the method's whole grid against the committed 0.2.0 run")
    ap.add_argument("--cache", default=None)
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--sets", nargs="*", default=None)
    args = ap.parse_args(argv)
    use_mirror(args)
    from genesel.leaderboard.cells import board_sets

    sets = args.sets or board_sets("multiclass")
    tables = {}
    if args.against:
        tables["first outer folds, same run"] = same_run(args, sets)
    if args.full:
        tables["the whole cross-validation grid against the committed 0.2.0 run"] = full_grid(args, sets)
    return {"tables": tables}


if __name__ == "__main__":
    main()
