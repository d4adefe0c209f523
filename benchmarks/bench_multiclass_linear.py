"""Benchmark: K classes for the SVMs, the rankings built on them, the filters, Golub's voting and the forests (issue
38), on Khan's SRBCT data.

Data: ``khan`` (63 samples x 2308 genes, four small round blue cell tumour classes: 8 BL, 23 EWS, 12 NB, 20 RMS),
all samples, preprocessed by :func:`genesel.datasets.recommended_preprocessing` (the same for every method).

For each estimator, best of ``--repeats`` fits, CPU seconds, one BLAS thread:

1. genesel's four-class fit;
2. the binary cost: the mean fit time of the four one-vs-rest problems (class k against the rest) fitted one by one
   with two classes, so "four-class / binary" reads as the price of K classes against one binary problem of the
   same size;
3. the tool a user would otherwise pick, where there is one: scikit-learn's ``OneVsRestClassifier(SVC)`` (LIBSVM,
   the same machines), ``RFE`` over it (the same SVM-RFE ranking, refitted from scratch at every stage), ``SelectKBest``
   with ``f_classif``, ``RandomForestClassifier`` (500 trees, the same forest statistically).

Usage: ``python benchmarks/bench_multiclass_linear.py [--repeats 3] [--mirror DIR]``. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import RFE, SelectKBest, f_classif
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

from _common import add_data_arguments, best_of, load_split, recorded, use_mirror


def _estimators():
    import genesel

    svc = OneVsRestClassifier(SVC(kernel="linear", C=1.0))
    return [
        ("LinearSVM", genesel.LinearSVM(), svc, "OneVsRestClassifier(SVC linear)"),
        ("KernelSVM (rbf)", genesel.KernelSVM(), OneVsRestClassifier(SVC(C=1.0)), "OneVsRestClassifier(SVC rbf)"),
        ("SVMRFE (halving, to 8 genes)", genesel.SVMRFE(n_features_to_select=8, step="halving"),
         RFE(_OvRLinearSVC(), n_features_to_select=8, step=0.5), "RFE(one-vs-rest SVC), step 0.5"),
        ("SVMRFE (one gene per step, to 1)", genesel.SVMRFE(n_features_to_select=1, step=1), None, ""),
        ("MSVMRFE (defaults)", genesel.MSVMRFE(random_state=0), None, ""),
        ("L2AROM", genesel.L2AROM(), None, ""),
        ("FisherSelector (BSS/WSS)", genesel.FisherSelector(), None, ""),
        ("ANOVASelector", genesel.ANOVASelector(), SelectKBest(f_classif, k=50), "SelectKBest(f_classif)"),
        ("KruskalWallisSelector", genesel.KruskalWallisSelector(), None, ""),
        ("SignalToNoiseSelector (one vs rest)", genesel.SignalToNoiseSelector(), None, ""),
        ("GolubVoting (one vs rest)", genesel.GolubVoting(), None, ""),
        ("SmallForestClassifier (500)", genesel.SmallForestClassifier(random_state=0),
         RandomForestClassifier(n_estimators=500, random_state=0), "RandomForestClassifier (500)"),
        ("RFBackwardSelector (2000/1000)", genesel.RFBackwardSelector(random_state=0), None, ""),
    ]


class _OvRLinearSVC(OneVsRestClassifier):
    """One linear SVC per class with ``coef_`` (K, d), so scikit-learn's RFE ranks by sum_k w_k^2."""

    def __init__(self, estimator=None, n_jobs=None, verbose=0):
        super().__init__(estimator if estimator is not None else SVC(kernel="linear"), n_jobs=n_jobs,
                         verbose=verbose)

    @property
    def coef_(self):
        return np.vstack([e.coef_ for e in self.estimators_])


@recorded
def main(argv=None):
    parser = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    use_mirror(args)
    warnings.simplefilter("ignore")
    from genesel._core.threads import single_blas_thread

    X, y, _, _ = load_split("khan", split="all")
    K = np.unique(y).size
    rows = []
    with single_blas_thread():
        for name, est, other, oname in _estimators():
            clone(est).fit(X[:, :64], y)  # warm-up (numba cache)
            _, _, c4 = best_of(lambda: clone(est).fit(X, y), args.repeats)  # noqa: B023
            cb = [best_of(lambda: clone(est).fit(X, (y == k).astype(int)), args.repeats)[2] for k in range(K)]  # noqa: B023
            co = np.nan
            if other is not None:
                _, _, co = best_of(lambda: clone(other).fit(X, y), args.repeats)  # noqa: B023
            rows.append((name, c4, float(np.mean(cb)), oname, co))
    print(f"Khan SRBCT, {X.shape[0]} samples x {X.shape[1]} genes, {K} classes; best of {args.repeats}; one BLAS "
          "thread\n")
    print("| estimator | 4 classes (s CPU) | binary, one problem (s CPU) | 4 classes / binary | other tool | "
          "other (s CPU) |")
    print("|---|---:|---:|---:|---|---:|")
    for name, c4, cb, oname, co in rows:
        print(f"| {name} | {c4:.3f} | {cb:.3f} | {c4 / cb:.1f} | {oname or '-'} | "
              f"{'-' if np.isnan(co) else f'{co:.3f}'} |")


if __name__ == "__main__":
    main()
