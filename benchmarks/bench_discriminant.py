"""Benchmark: diagonal linear discriminant analysis, genesel.DLDA vs the scikit-learn tools a user would pick instead.

scikit-learn has no DLDA (Dudoit, Fridlyand & Speed 2002); a user reaches for ``GaussianNB`` (one variance per class
and gene: Dudoit's DQDA) or ``LinearDiscriminantAnalysis`` (a full pooled covariance, shrunk to be invertible when
genes outnumber samples). On the 5 outer folds of Khan's SRBCT (63 samples x 2308 genes, 4 classes; each fold's
genes standardised on its training part), timed in the same run: the fit and prediction of each, and its test
error summed over the folds (the three are different rules; their errors are reported, not required to agree).

Usage: python benchmarks/bench_discriminant.py [--dataset khan] [--repeats 3]
"""

from __future__ import annotations

import argparse

import numpy as np

from _common import add_data_arguments, best_of, recorded, report_ratio, use_mirror


def folds(name, seed=0):
    """The 5 stratified outer folds of ``name``, each standardised on its training part."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.preprocessing import StandardScaler

    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    X, y = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.y)
    out = []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y):
        sc = StandardScaler().fit(X[tr])
        out.append((sc.transform(X[tr]), y[tr], sc.transform(X[te]), y[te]))
    return out


def errors(make, parts):
    return int(sum(np.sum(make().fit(a, b).predict(c) != d) for a, b, c, d in parts))


@recorded
def main():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB

    from genesel import DLDA

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="khan")
    ap.add_argument("--repeats", type=int, default=3)
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    parts = folds(args.dataset)
    n = sum(d.size for *_, d in parts)
    ours, w0, c0 = best_of(lambda: errors(DLDA, parts), args.repeats)
    lda = lambda: LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")  # noqa: E731
    # the shrunk LDA estimates a genes x genes covariance per fold (tens of seconds on SRBCT): timed once
    for label, make, reps in (("GaussianNB (DQDA)", GaussianNB, args.repeats),
                              ("LDA (lsqr, Ledoit-Wolf shrinkage)", lda, 1)):
        theirs, w1, c1 = best_of(lambda make=make: errors(make, parts), reps)
        print(f"test errors over the 5 folds: DLDA {ours} of {n}, {label} {theirs} of {n}")
        report_ratio(f"{args.dataset}, 5 outer folds, fit + predict", (w0, c0), (w1, c1), "DLDA", other=label,
                     note=f"test errors over the folds: DLDA {ours} of {n}, {label} {theirs} of {n}")


if __name__ == "__main__":
    main()
