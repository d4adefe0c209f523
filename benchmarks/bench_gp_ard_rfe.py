"""GP-ARD-RFE and MSVM-RFE (Tan 2006, chapter 5): genesel against the same algorithms on scikit-learn.

Data: Colon (``load_dataset("alon")``), all 62 samples, raw values standardised per gene (the thesis' preprocessing,
see :mod:`genesel.papers.tan2006_ch45`).

1. **GP-ARD-RFE** (Figure 5.7): k-fold GP-ARD fits, normalised ARD averaging and the L/T rules
   (:func:`genesel.gp_ard_select.ard_rfe_round`), halving to 2^p genes. genesel: :class:`GPARDRFE` (its GP is
   :class:`genesel.gp.GaussianProcessClassifier`, Laplace, one ARD value per gene). The alternative runs the *same*
   rounds with scikit-learn's ``GaussianProcessClassifier`` and an anisotropic RBF kernel (ARD value = 1 / length
   scale²), one optimiser start each. sklearn's gradient materialises n x n x d arrays, so both run on a reduced
   problem (``--genes`` highest-variance genes, ``--folds`` folds, p = ``--p``), measured in the same run; the full
   problem (2000 genes, 10 folds, p = 8) is then timed for genesel; for sklearn one fit per visited gene count
   (2000, 1024, 512) is timed on one fold and multiplied by the 10 folds, labelled as an extrapolation.
2. **MSVM-RFE** (Figure 5.1), one gene per step, t = 10 SVMs per step: genesel :class:`MSVMRFE` (shared numba SMO,
   one Gram matrix with downdates, warm starts) against the same loop on ``sklearn.svm.SVC(kernel="linear")``
   refitted at every step. Both run on the top ``--msvm-genes`` genes and on all 2000 genes, both measured.

Run: ``python benchmarks/bench_gp_ard_rfe.py [--genes 200] [--folds 5] [--p 5] [--msvm-genes 300]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _common import add_data_arguments, best_of, record, recorded, report_ratio, use_mirror


def _colon():
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    X = ds.X
    return (X - X.mean(0)) / X.std(0), ds.y


def _sk_gp_ard(X, y, seed):
    from sklearn.gaussian_process import GaussianProcessClassifier
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel

    d = X.shape[1]
    ls0 = np.sqrt(np.sum(np.var(X, axis=0)))  # genesel's start: l_m = 1 / total variance
    k = ConstantKernel(1.0, (1e-5, 1e5)) * RBF(np.full(d, ls0), (1e-3, 1e6))
    gp = GaussianProcessClassifier(k, n_restarts_optimizer=0, random_state=seed).fit(X, y)
    return 1.0 / gp.kernel_.k2.length_scale ** 2


def sklearn_gp_ard_rfe(X, y, n_folds, p, seed):
    """GP-ARD-RFE's elimination (Figure 5.7) with sklearn's GPC as the ARD fitter; returns the 2^p survivors."""
    from genesel._core.resampling import resampling_masks
    from genesel.gp_ard_select import ard_rfe_round, halving_sizes

    masks = resampling_masks(np.where(y > 0, 1, -1), n_folds, 1, np.random.RandomState(seed))
    sizes = halving_sizes(X.shape[1], p)
    C = np.arange(X.shape[1])
    for r in range(len(sizes) - 1):
        theta = np.array([_sk_gp_ard(X[np.ix_(m, C)], y[m], seed) for m in masks])
        C = np.sort(C[ard_rfe_round(theta, sizes[r + 1])["survivors"]])
    return C


def msvm_sklearn(X, y, n_folds, seed):
    """MSVM-RFE one gene per step with sklearn SVC refitted for every SVM of every step; returns the ranking."""
    from sklearn.svm import SVC

    from genesel._core.resampling import resampling_masks
    from genesel.msvm_rfe import msvm_criterion

    masks = resampling_masks(np.where(y > 0, 1, -1), n_folds, 1, np.random.RandomState(seed))
    surv = list(range(X.shape[1]))
    elim = []
    while len(surv) > 1:
        W = np.array([SVC(kernel="linear", C=1.0, tol=1e-6).fit(X[np.ix_(m, surv)], y[m]).coef_[0] for m in masks])
        e = int(np.argmin(msvm_criterion(W)))
        elim.append(surv.pop(e))
    return elim[::-1] + surv


def _bench_gp(args, A, y, Ar):
    from genesel.gp_ard_select import GPARDRFE

    print(f"== GP-ARD-RFE, reduced problem: Colon 62 samples, {args.genes} genes (largest class-mean gap), "
          f"{args.folds} folds, down to 2^{args.p} genes, one optimiser start per fit ==")
    est = GPARDRFE(n_folds=args.folds, p=args.p, n_restarts=0, max_iter=200, random_state=0)
    GPARDRFE(n_folds=2, p=1, n_restarts=0, max_iter=5, random_state=0).fit(Ar[:, :8], y)  # warm-up
    ours, w1, c1 = best_of(lambda: est.fit(Ar, y).subset(2 ** args.p), 1)
    t0, c0 = time.perf_counter(), time.process_time()
    theirs = sklearn_gp_ard_rfe(Ar, y, args.folds, args.p, 0)
    w2, c2 = time.perf_counter() - t0, time.process_time() - c0
    report_ratio("GP-ARD-RFE (reduced, measured)", (w1, c1), (w2, c2),
                 other="sklearn GaussianProcessClassifier (anisotropic RBF), same rounds")
    common = len(set(ours.tolist()) & set(theirs.tolist()))
    print(f"  survivors in common: {common} of {2 ** args.p} (the two GPs differ in their bias and noise terms "
          "and stop at different optima, so the sets agree only in part)")
    if not args.skip_full:
        full = GPARDRFE(n_folds=10, p=8, n_restarts=0, max_iter=200, random_state=0)
        _, w3, c3 = best_of(lambda: full.fit(A, y), 1)
        # sklearn on the full problem: one fit per visited size on the first fold's training part (the genes of
        # largest class-mean gap), CPU measured; the 10 folds x rounds are that time x 10 per size
        mask = full.train_masks_[0]
        per_size = {}
        for size in full.sizes_[:-1]:
            g = np.sort(np.argsort(-np.abs(A[y > 0].mean(0) - A[y < 0].mean(0)), kind="stable")[:size])
            c0 = time.process_time()
            _sk_gp_ard(A[np.ix_(mask, g)], y[mask], 0)
            per_size[size] = time.process_time() - c0
        sk_full = 10 * sum(per_size.values())
        print(f"GP-ARD-RFE (full: 2000 genes, 10 folds, p = 8): genesel {w3:.1f} s wall / {c3:.1f} s CPU "
              "measured; sklearn one fit per size measured "
              f"({', '.join(f'{k} genes {v:.1f} s' for k, v in per_size.items())} "
              f"CPU) x 10 folds = {sk_full:.0f} s CPU EXTRAPOLATED -> {sk_full / c3:.0f}x CPU")
        record("GP-ARD-RFE (full: 2000 genes, 10 folds, p = 8)", genesel=f"{c3:.1f} s CPU ({w3:.1f} s wall), measured",
               alternative=f"sklearn GaussianProcessClassifier: {sk_full:.0f} s CPU, extrapolated from one measured "
                           "fit per visited size x 10 folds",
               ratio=f"{sk_full / c3:.0f}× CPU (extrapolated)", target="≥ 50× CPU", met=sk_full / c3 >= 50,
               genesel_cpu_s=c3, genesel_wall_s=w3, other_cpu_s_extrapolated=sk_full, ratio_cpu=sk_full / c3)


def _bench_msvm(args, A, y, top):
    from genesel.msvm_rfe import MSVMRFE

    print("\n== MSVM-RFE, one gene per step, 10 SVMs per step (Colon, 62 samples) ==")
    m = args.msvm_genes
    Am = A[:, top[:m]] if m <= args.genes else A[:, :m]
    MSVMRFE(n_folds=10, random_state=0).fit(Am[:, :20], y)  # warm-up
    _, w1, c1 = best_of(lambda: MSVMRFE(n_folds=10, random_state=0, n_features_to_select=1).fit(Am, y), 3)
    r_sk, w2, c2 = best_of(lambda: msvm_sklearn(Am, y, 10, 0), 1)
    r_ge = MSVMRFE(n_folds=10, random_state=0, n_features_to_select=1).fit(Am, y).feature_order_
    report_ratio(f"MSVM-RFE ({m} genes, measured)", (w1, c1), (w2, c2), other="the same loop on SVC(kernel='linear')")
    print(f"  same top 10: {len(set(r_ge[:10].tolist()) & set(r_sk[:10]))} of 10 genes")
    # the full problem, both measured (sklearn's loop: 1999 steps x 10 SVC fits, about a minute)
    full_ge, w3, c3 = best_of(lambda: MSVMRFE(n_folds=10, random_state=0, n_features_to_select=1).fit(A, y), 3)
    full_sk, w4, c4 = best_of(lambda: msvm_sklearn(A, y, 10, 0), 1)
    report_ratio(f"MSVM-RFE (full: {A.shape[1]} genes, measured)", (w3, c3), (w4, c4),
                 other="the same loop on SVC(kernel='linear')", target=50)
    order = full_ge.feature_order_
    print("  same genes in the top k: " + ", ".join(
        f"k={k}: {len(set(order[:k].tolist()) & set(full_sk[:k]))}" for k in (1, 5, 10, 50, 100)))


@recorded
def main():
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--genes", type=int, default=200)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--p", type=int, default=5)
    ap.add_argument("--msvm-genes", type=int, default=300)
    ap.add_argument("--skip-full", action="store_true",
                    help="do not time genesel's full GP-ARD-RFE (10 folds, 2000 genes)")
    ap.add_argument("--skip-gp", action="store_true", help="run only the MSVM-RFE part")
    args = ap.parse_args()
    use_mirror(args)
    from threadpoolctl import threadpool_limits

    warnings.simplefilter("ignore")
    A, y = _colon()
    top = np.sort(np.argsort(-np.abs(A[y > 0].mean(0) - A[y < 0].mean(0)), kind="stable")[: args.genes])
    Ar = A[:, top]
    with threadpool_limits(1):
        if not args.skip_gp:
            _bench_gp(args, A, y, Ar)
        _bench_msvm(args, A, y, top)


if __name__ == "__main__":
    main()
