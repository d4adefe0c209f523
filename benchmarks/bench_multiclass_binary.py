"""Benchmark: K classes for the methods that are binary by construction (issue 38), on Khan's SRBCT data.

Data: ``khan`` (63 samples x 2308 genes, four small round blue cell tumour classes: 8 BL, 23 EWS, 12 NB, 20 RMS),
all samples, preprocessed by :func:`genesel.datasets.recommended_preprocessing` (the same for every method).

For each estimator (ALMA_2, ALMA_ln, ALMA-FS, ALMA_2-RFE and ALMA_ln-RFE to 20 genes, the sample-compression,
Occam and PAC-Bayes stump conjunctions, AdaBoost with stumps one-vs-rest and SAMME, OneVsRestSelector around the
signal-to-noise filter), best of ``--repeats`` fits, wall and CPU seconds:

1. genesel's four-class fit;
2. the tool a user would otherwise pick for it: scikit-learn's ``OneVsRestClassifier`` around genesel's two-class
   estimator (the same K problems and, except for the selectors and SAMME, the same model: genesel shares one
   presort of the genes between the stump learners' problems and one Gram matrix between ALMA_2's), and for SAMME
   scikit-learn's ``AdaBoostClassifier`` with depth-1 trees;
3. the binary cost: the mean fit time of the four one-vs-rest problems fitted one by one with two classes, so
   "four-class / binary" reads as the price of K classes against one binary problem of the same size.

Usage: ``python benchmarks/bench_multiclass_binary.py [--repeats 3] [--mirror DIR]``. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import AdaBoostClassifier
from sklearn.multiclass import OneVsRestClassifier
from sklearn.tree import DecisionTreeClassifier

from _common import add_data_arguments, best_of, load_split, recorded, use_mirror


def _estimators():
    import genesel
    from genesel import stumps as S

    return [
        ("ALMA_2", genesel.ALMA(p=2, random_state=0), True),
        ("ALMA_ln", genesel.ALMA(p="ln", random_state=0), True),
        ("ALMA-FS", genesel.ALMAFS(random_state=0), False),
        ("ALMA_2-RFE (20)", genesel.ALMARFE(n_features_to_select=20, p=2, random_state=0), False),
        ("ALMA_ln-RFE (20)", genesel.ALMARFE(n_features_to_select=20, p="ln", random_state=0), False),
        ("SC stumps", S.SampleCompressionStumps(), True),
        ("Occam stumps", S.OccamStumps(), True),
        ("PAC-Bayes stumps", S.PACBayesStumps(), True),
        ("AdaBoost stumps (ovr, 200)", S.AdaBoostStumps(n_estimators=200), True),
        ("AdaBoost stumps (samme, 200)", S.AdaBoostStumps(n_estimators=200, multi_class="samme"), False),
        ("OneVsRestSelector(S2N)", genesel.OneVsRestSelector(genesel.SignalToNoiseSelector()), False),
    ]


@recorded
def main(argv=None):
    parser = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    use_mirror(args)
    warnings.simplefilter("ignore")
    from genesel._core.threads import single_blas_thread
    from genesel.alma import warm_up as alma_warm
    from genesel.stumps import warm_up as stumps_warm

    X, y, _, _ = load_split("khan", split="all")
    K = np.unique(y).size
    alma_warm()
    stumps_warm()
    rows = []
    with single_blas_thread():
        for name, est, ovr_same in _estimators():
            clone(est).fit(X[:, :64], y)  # warm-up (numba cache)
            _, w4, c4 = best_of(lambda: clone(est).fit(X, y), args.repeats)  # noqa: B023
            if "samme" in name:
                other = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=200, random_state=0)
                oname = "sklearn AdaBoostClassifier"
            elif "Selector" in name:
                other, oname = None, ""
            else:
                sub = clone(est)
                if hasattr(sub, "delta"):
                    sub.set_params(delta=sub.delta / K)
                other, oname = OneVsRestClassifier(sub), "OneVsRestClassifier" + ("" if ovr_same else " (other model)")
            wo = co = np.nan
            if other is not None:
                _, wo, co = best_of(lambda: clone(other).fit(X, y), args.repeats)  # noqa: B023
            sub = clone(est.estimator) if "Selector" in name else clone(est)
            cb = []
            for k in range(K):
                _, _, c = best_of(lambda: clone(sub).fit(X, (y == k).astype(int)), args.repeats)  # noqa: B023
                cb.append(c)
            rows.append((name, w4, c4, oname, wo, co, float(np.mean(cb))))
    print(f"Khan SRBCT, {X.shape[0]} samples x {X.shape[1]} genes, {K} classes; best of {args.repeats}; one BLAS "
          "thread\n")
    print("| estimator | 4 classes (s CPU) | binary, one problem (s CPU) | 4 classes / binary | other tool | "
          "other (s CPU) |")
    print("|---|---:|---:|---:|---|---:|")
    for name, _w4, c4, oname, _wo, co, cb in rows:
        print(f"| {name} | {c4:.3f} | {cb:.3f} | {c4 / cb:.1f} | {oname or '-'} | "
              f"{'-' if np.isnan(co) else f'{co:.3f}'} |")


if __name__ == "__main__":
    main()
