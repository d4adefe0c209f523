"""Benchmark: the leaderboard's "SVM-RFE (1 gene/step) + SVM" ranker (issue 41), today's ``genesel.rfe`` against
the code before its anchors and candidate pool, in the same process, on real training parts: CPU seconds per fit
and whether the whole elimination order is the same, bit for bit.

What is fitted is the catalogue's ranker (:mod:`genesel.leaderboard.catalogue`): ``SVMRFE(n_features_to_select=1,
step=1, C=rfe_C / d)`` with rfe_C in (1, 100), d the number of genes, on standardised genes (the data set's
recommended preprocessing fitted on the training part, constant genes dropped, as
:func:`genesel.leaderboard.protocol.prepare` does). The training parts are those of a seeded stratified 5-fold
outer split (``--parts`` of them per data set; :func:`bench_rfe_speed.training_parts`). The previous code is read
from git (``--base``, default the commit this work started from) into a temporary module; both run with one BLAS
thread, each fit timed once, old and new in turn (CPU seconds: the machine may be shared, so compare the ratios of
one run). Reported per fit: both CPU times, their ratio, the number of gene evaluations of each, and the number of
positions where the two ``feature_order_`` differ (0: the same elimination order; the new code's lazy argmin is
exact, so any difference would be a defect, not rounding).

Usage: python benchmarks/bench_svmrfe_onestep.py [--datasets chowdary gordon borovecki golub alon] [--parts 2]
[--base REV]
"""

from __future__ import annotations

import argparse

import numpy as np

from _common import add_data_arguments, record, recorded, use_mirror
from bench_rfe_speed import old_module, timed, training_parts

#: the commit before the anchors and the candidate pool of the one-gene SVM-RFE
BASE = "b9aaa83"


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["chowdary", "gordon", "borovecki", "golub", "alon"])
    ap.add_argument("--parts", type=int, default=2, help="outer training parts per data set")
    ap.add_argument("--base", default=BASE, help="git revision of the previous code")
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    from threadpoolctl import threadpool_limits

    from genesel.rfe import SVMRFE

    old_rfe = old_module(args.base, "genesel/rfe.py", "genesel_base_rfe_onestep")
    rows = []
    with threadpool_limits(1):
        for name in args.datasets:
            for label, X, y in training_parts(name, args.parts, False):
                d = X.shape[1]
                if not rows:  # numba compilation (or cache loading) outside the timing
                    for cls in (SVMRFE, old_rfe.SVMRFE):
                        cls(n_features_to_select=1, step=1).fit(X[:, :64], y)
                for rfe_C in (1.0, 100.0):
                    kw = {"n_features_to_select": 1, "step": 1, "C": rfe_C / d}
                    new, c_new = timed(lambda kw=kw, X=X, y=y: SVMRFE(**kw).fit(X, y))
                    old, c_old = timed(lambda kw=kw, X=X, y=y: old_rfe.SVMRFE(**kw).fit(X, y))
                    n_diff = int(np.sum(new.feature_order_ != old.feature_order_))
                    print(f"C={rfe_C:g}/d {label:20s} {X.shape[0]:4d} x {d:6d}: {c_old:6.2f} s -> {c_new:6.2f} s CPU "
                          f"({c_old / c_new:4.2f}x); evaluations {old.n_weight_evaluations_:,} -> "
                          f"{new.n_weight_evaluations_:,} (+{new.n_anchor_refreshes_:,} anchor distances); "
                          f"order {'identical' if n_diff == 0 else f'DIFFERS at {n_diff} positions'}", flush=True)
                    rows.append({"part": label, "rfe_C": rfe_C, "n": X.shape[0], "genes": d, "old_cpu_s": c_old,
                                 "new_cpu_s": c_new, "ratio_cpu": c_old / c_new,
                                 "old_evaluations": old.n_weight_evaluations_,
                                 "new_evaluations": new.n_weight_evaluations_,
                                 "new_anchor_distances": new.n_anchor_refreshes_, "positions_differ": n_diff})
    for name in args.datasets:
        rs = [r for r in rows if r["part"].startswith(name + " ")]
        old_s, new_s = sum(r["old_cpu_s"] for r in rs), sum(r["new_cpu_s"] for r in rs)
        print(f"{name}: {old_s:.1f} s -> {new_s:.1f} s CPU over {len(rs)} fits ({old_s / new_s:.2f}x)")
    old_s, new_s = sum(r["old_cpu_s"] for r in rows), sum(r["new_cpu_s"] for r in rows)
    same = sum(r["positions_differ"] == 0 for r in rows)
    print(f"all: {old_s:.1f} s -> {new_s:.1f} s CPU over {len(rows)} fits ({old_s / new_s:.2f}x); elimination order "
          f"identical in {same} of {len(rows)}")
    record(f"SVM-RFE one gene per step, C = 1/d and 100/d, {len(rows)} training parts of {', '.join(args.datasets)}",
           genesel=f"{new_s:.1f} s CPU", alternative=f"the code of {args.base}: {old_s:.1f} s CPU",
           ratio=f"{old_s / new_s:.2f}× CPU", target="faster, the same elimination order bit for bit",
           met=bool(old_s > new_s and same == len(rows)),
           note=f"elimination order identical in {same} of {len(rows)} fits",
           genesel_cpu_s=new_s, other_cpu_s=old_s, ratio_cpu=old_s / new_s, identical=same, fits=len(rows))
    return {"tables": {"fits": rows}}


if __name__ == "__main__":
    main()
