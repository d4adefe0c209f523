"""Benchmark: full one-gene-per-step SVM-RFE ranking, genesel.rfe.SVMRFE vs sklearn RFE(SVC(kernel="linear")).

Guyon et al. (2002) SVM-RFE on the Leukemia training set (38 x 7129) and on Singh's prostate data (102 x 12600),
after the paper's preprocessing (log, per-sample then per-gene standardisation). Both implementations remove one
gene per step down to a single gene (``n_features_to_select=1``), in the same process, and the rankings are
compared. sklearn's SVC runs at tol=1e-9: at its default tol=1e-3 the solver error reorders the ranking (the
issue's warning), so agreement is only meaningful at a tight tolerance.

Exact ties in the criterion w_i^2 (genes whose preprocessed columns are identical, e.g. floored at the same
intensity in all but one sample) are broken arbitrarily by either solver; the check reports the number of
positions that differ and asserts that they are confined to genes with duplicated columns.

Usage: python benchmarks/bench_svm_rfe.py [--datasets golub singh] [--C 1.0] [--skip-sklearn]
"""

from __future__ import annotations

import argparse

import numpy as np

from _common import add_data_arguments, best_of, load_split, record, recorded, use_mirror


def load(name):
    """The training part (every sample when there is no predefined split) after Guyon's preprocessing."""
    Xtr, ytr, _, _ = load_split(name, split="predefined" if name == "golub" else "all", preprocess="guyon")
    return Xtr, ytr


def duplicated_columns(X):
    """Mask of genes whose column equals (to 1e-12) another gene's column up to sign."""
    Z = np.round(X * np.sign(X[:1] + (X[:1] == 0)), 12)
    _, inv, counts = np.unique(Z, axis=1, return_inverse=True, return_counts=True)
    return counts[inv.ravel()] > 1


def run(name, C, skip_sklearn):
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVC

    from genesel.rfe import SVMRFE

    X, y = load(name)
    print(f"\n== {name}: {X.shape[0]} samples x {X.shape[1]} genes, C={C}, one gene per step ==")
    SVMRFE(n_features_to_select=1, C=C).fit(X[:, :50], y)  # numba compile outside the timing
    ours, t_ours, c_ours = best_of(lambda: SVMRFE(n_features_to_select=1, step=1, C=C, tol=1e-8).fit(X, y), 3)
    print(f"genesel SVMRFE : {t_ours:8.2f} s wall, {c_ours:8.2f} s CPU (best of 3)  "
          f"({ours.n_iter_} SMO iterations over "
          f"{X.shape[1]} solves)")
    case = f"SVM-RFE, one gene per step, {name} {X.shape[0]} x {X.shape[1]}"
    if skip_sklearn:
        record(case, genesel=f"{c_ours:.2f} s CPU ({t_ours:.2f} s wall)", genesel_cpu_s=c_ours, genesel_wall_s=t_ours)
        return {"dataset": name, "genesel_s": t_ours, "genesel_cpu_s": c_ours}
    ref, t_ref, c_ref = best_of(lambda: RFE(SVC(kernel="linear", C=C, tol=1e-9), n_features_to_select=1,
                                            step=1).fit(X, y), 1)
    print(f"sklearn RFE    : {t_ref:8.2f} s wall, {c_ref:8.2f} s CPU")
    # CPU time is the robust ratio on a shared machine (wall time includes waiting for the CPU)
    print(f"speed-up       : {t_ref / t_ours:8.1f} x wall, {c_ref / c_ours:8.1f} x CPU")
    diff = ours.ranking_ != ref.ranking_
    dup = duplicated_columns(X)
    top = 100
    same_top = len(set(ours.feature_order_[:top]) & set(np.argsort(ref.ranking_)[:top]))
    print(f"rankings       : {diff.sum()} of {X.shape[1]} positions differ "
          f"({np.sum(diff & ~dup)} outside tied duplicate genes); top-{top} overlap {same_top}/{top}")
    # Exact ties (duplicated columns) are broken arbitrarily; near-ties (criteria equal to ~1e-9, e.g. genes
    # floored in all but one or two samples) can flip with solver rounding. Singh (measured once, 2026-11-22):
    # 1274 positions differ, all but one among duplicated genes, top-100 identical. Allow 0.1 % of positions.
    assert same_top == top, "the top genes differ"
    assert np.sum(diff & ~dup) <= max(1, X.shape[1] // 1000), "rankings differ outside (near-)ties"
    record(case, genesel=f"{c_ours:.2f} s CPU ({t_ours:.2f} s wall)",
           alternative=f"sklearn RFE(SVC(kernel='linear'), step=1): {c_ref:.1f} s CPU ({t_ref:.1f} s wall)",
           ratio=f"{c_ref / c_ours:.0f}× CPU ({t_ref / t_ours:.0f}× wall)", target="≥ 50× CPU",
           met=c_ref / c_ours >= 50,
           note=f"{diff.sum()} of {X.shape[1]} ranking positions differ ({np.sum(diff & ~dup)} outside tied duplicate "
                f"genes); top {top} identical", genesel_cpu_s=c_ours, genesel_wall_s=t_ours, other_cpu_s=c_ref,
           other_wall_s=t_ref, ratio_cpu=c_ref / c_ours, ratio_wall=t_ref / t_ours)
    return {"dataset": name, "genesel_s": t_ours, "sklearn_s": t_ref, "ratio": t_ref / t_ours,
            "cpu_ratio": c_ref / c_ours, "n_diff": int(diff.sum())}


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["golub", "singh"])
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--skip-sklearn", action="store_true", help="time genesel only")
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    rows = [run(name, args.C, args.skip_sklearn) for name in args.datasets]
    print()
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
