"""CPU seconds per outer fold of every leaderboard method, and the full run's CPU time estimated from them.

One full-mode cell per method (:func:`genesel.leaderboard.cells.cv_cell`: outer fold 0 of repeat 0 of 5-fold CV,
5 inner folds, the full grids) on a mid-sized data set (default: Golub's leukemia, 72 x 7129), timed by the cell
itself (``time.process_time``, one BLAS thread; numba kernels are warmed up first so that compilation is not
counted). The full run's CPU time is then estimated as

    sum over data sets d and methods m of  cpu(m) x (n_d d_d) / (n_0 d_0) x 50 folds
    + the .632+ cells: 201 per (method, data set) for the 8 methods and 3 data sets compared with Díaz-Uriarte 2006,

i.e. the measured cost scaled by the size of the expression matrix (samples x genes) relative to the benchmark's
set: a rough model (some methods grow faster than linearly in the samples, GP-ARD for one), stated as such. The
three most expensive methods are named, and the share of each in the estimate printed: where one method dominates,
that is the one to make faster.

``python benchmarks/bench_leaderboard.py [--dataset golub] [--methods NAME ...]``

``--from-cache DIR`` times nothing: it reads the cells of a full run already in the cache ``DIR`` (notebook 06's
``runs/cache``) and takes, per method, the mean CPU seconds of its done outer folds on the data set (50 per method
once the data set is finished: steadier than one fold), then makes the same estimate. Beside each measured cost it
prints the notebook's estimate for the same data set (:func:`genesel.leaderboard.cost.cell_cpu_seconds`, read from
the committed full run ``figures/leaderboard_results.csv``): where they part, the committed run is out of date for
that method (rerun it, or commit the new run's results).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, record, recorded, use_mirror  # noqa: E402


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--dataset", default="golub")
    ap.add_argument("--methods", nargs="*", default=None)
    ap.add_argument("--from-cache", default=None, help="read the costs of a full run's done cells from this cache")
    args = ap.parse_args(argv)
    use_mirror(args)
    import pandas as pd

    from genesel.leaderboard import catalogue as K
    from genesel.leaderboard.cells import DU2006_METHODS, DU2006_VIEWS, MODES, binary_expression_sets, cv_cell, load

    full = MODES["full"]
    methods = args.methods or K.method_names()
    rows = []
    if args.from_cache:
        from genesel.leaderboard.status import status

        st = status(args.from_cache, "full", datasets=[args.dataset], methods=methods)
        done = st[(st["grid"] == "cv") & st["done"]]
        for m in methods:
            d = done[done["method"] == m]
            if len(d):
                rows.append(dict(method=m, cpu_per_fold=float(d["cpu"].mean()), wall=float("nan"), size=len(d),
                                 errors="(folds read)"))
        methods = []
    else:  # warm-up: every kernel compiled (or loaded from numba's cache) before timing
        for m in methods:
            cv_cell("alon", m, 0, 0, 3, 3, seed=0, quick=True, max_genes=60)
    for m in methods:
        t0 = time.perf_counter()
        r = cv_cell(args.dataset, m, 0, 0, full["n_folds"], full["inner_k"], seed=0, quick=False)
        rows.append(dict(method=m, cpu_per_fold=r["cpu_seconds"], wall=time.perf_counter() - t0, size=r["size"],
                         errors=f"{r['errors']}/{r['n_test']}"))
        print(f"{m:32s} {r['cpu_seconds']:8.2f} CPU s  ({rows[-1]['wall']:.1f} s wall)", flush=True)
    t = pd.DataFrame(rows).set_index("method")
    base = load(args.dataset)
    ref = base.X.shape[0] * base.X.shape[1]
    sets = binary_expression_sets()
    scale = {d: load(d).X.shape[0] * load(d).X.shape[1] / ref for d in sets}
    folds = full["n_repeats"] * full["n_folds"]
    cv = {m: t.loc[m, "cpu_per_fold"] * folds * sum(scale.values()) for m in t.index}
    boot_sets = [d for d in DU2006_VIEWS]
    boot_scale = sum((load(d, DU2006_VIEWS[d]).X.size / ref) for d in boot_sets)
    boot = {m: t.loc[m, "cpu_per_fold"] * (full["n_boot"] + 1) * boot_scale for m in DU2006_METHODS if m in t.index}
    total = pd.Series(cv).add(pd.Series(boot), fill_value=0.0).sort_values(ascending=False)
    print(f"\nCPU seconds per outer fold on {args.dataset} {base.X.shape} (full grids, 5 inner folds):")
    print(t.sort_values("cpu_per_fold", ascending=False).round(2).to_string())
    print(f"\nfull run estimate ({len(sets)} data sets x {len(t)} methods x {folds} outer folds, sizes scaled by "
          f"samples x genes; .632+: {full['n_boot'] + 1} cells x {len(boot)} methods x {len(boot_sets)} data sets):")
    share = 100 * total / total.sum()
    for m in total.index[:5]:
        print(f"  {m:32s} {total[m] / 3600:8.1f} CPU h  ({share[m]:.0f} %)")
    print(f"  total: {total.sum() / 3600:.1f} CPU hours, about {total.sum() / 7200:.1f} h wall on 2 idle cores; "
          f"cross-validation {sum(cv.values()) / 3600:.1f} h, .632+ {sum(boot.values()) / 3600:.1f} h")
    print("  three most expensive: " + ", ".join(total.index[:3]))
    record(f"notebook 06's full run, estimated from one outer fold per method on {args.dataset}",
           genesel=f"{total.sum() / 3600:.1f} CPU hours (cross-validation {sum(cv.values()) / 3600:.1f}, .632+ "
                   f"{sum(boot.values()) / 3600:.1f}); about {total.sum() / 7200:.1f} h wall on 2 idle cores",
           note="most expensive: " + ", ".join(f"{m} {share[m]:.0f} %" for m in total.index[:3]),
           cpu_hours=total.sum() / 3600)
    from genesel.leaderboard.cost import cell_cpu_seconds

    n, g = base.X.shape
    t["notebook's estimate"] = [cell_cpu_seconds(m, n, g, full["inner_k"], False)[0] for m in t.index]
    t["measured / estimate"] = t["cpu_per_fold"] / t["notebook's estimate"]
    print("\nmeasured against the notebook's estimate from the committed run (genesel.leaderboard.cost):")
    print(t[["cpu_per_fold", "notebook's estimate", "measured / estimate"]].sort_values(
        "cpu_per_fold", ascending=False).round(3).to_string())
    table = [{"method": m, "CPU s per outer fold": round(float(r["cpu_per_fold"]), 3),
              "notebook's estimate": round(float(r["notebook's estimate"]), 3), "signature size": r["size"],
              "errors": r["errors"]} for m, r in t.sort_values("cpu_per_fold", ascending=False).iterrows()]
    return {"tables": {f"CPU seconds per outer fold on {args.dataset} (full grids)": table}}


if __name__ == "__main__":
    main()
