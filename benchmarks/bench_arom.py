"""Benchmark: l2-AROM to convergence, genesel.arom.L2AROM vs the loop of scikit-learn SVC fits a user would write.

Weston et al. (2003) l2-AROM as on the slides of Helleputte & Dupont (2009): w_0 = 1, train a linear SVM on the
rescaled data X * w_k, w_{k+1} = w_k * w_bar, until the surviving genes and their weights stop changing. Run on
each prostate study of the paper with all its genes (Singh 102 x 12600, Welsh 34 x 12600, Chandran primary
83 x 12558, Chandran metastasis 43 x 12558), every sample, after the data layer's recommended preprocessing (log,
per-gene standardisation).

The alternative is the straightforward implementation of the slides with scikit-learn: a loop of
``SVC(kernel="linear", C=C, tol=svc_tol).fit(X * w, y)``, ``w <- w * svc.coef_[0]``, genes whose rescaled column
falls below 1e-8 of the largest set to exactly 0 (the same rule as genesel, so both reach the same fixed point),
the same stopping rule. Both run in the same process; the signatures are compared: the genes active at
convergence, and the first s genes of the complete order (active genes by final weight, then the genes that left,
latest first) for s = 5 ... 1000. The SVC tolerance matters: at its default (1e-3) the solver error changes which
genes leave when, so the signatures are only comparable at a tight tolerance (``--svc-tol``, default 1e-6; the
first lines of output say whether the signatures agree).

Usage: python benchmarks/bench_arom.py [--datasets singh welsh chandran_primary chandran_metastasis] [--C 1000]
       [--svc-tol 1e-6] [--repeats 3] [--skip-sklearn]
"""

from __future__ import annotations

import argparse

import numpy as np

from _common import add_data_arguments, best_of, load_split, recorded, report_ratio, use_mirror

SIZES = (5, 10, 20, 50, 100, 200, 500, 1000)
UNDERFLOW = 1e-8


def sklearn_arom(X, y, C, tol, svc_tol, max_iter=500):
    """The slides' iteration with scikit-learn's SVC, written as a user would (the whole matrix at every fit).

    Returns (final weights, exit iteration per gene (-1: active), |w| at exit, iterations)."""
    from sklearn.svm import SVC

    n, d = X.shape
    xnorm = np.linalg.norm(X, axis=0)
    w = np.ones(d)
    exit_it = np.full(d, -1)
    exit_w = np.zeros(d)
    k = 0
    while k < max_iter:
        svc = SVC(kernel="linear", C=C, tol=svc_tol).fit(X * w, y)
        wbar = svc.coef_[0]
        new = w * wbar
        k += 1
        alive = exit_it < 0
        mag = np.abs(new) * xnorm
        gone = alive & (mag < UNDERFLOW * mag[alive].max())
        keep = alive & ~gone
        change = np.max(np.abs(wbar[keep] - 1.0))
        exit_it[gone] = k
        exit_w[gone] = np.abs(new[gone])
        new[~keep] = 0.0
        w = new
        if not gone.any() and change < tol:
            break
    return w, exit_it, exit_w, k


def order_of(w, exit_it, exit_w):
    """Best first: active genes by decreasing |w|, then later exits first, by decreasing |w| at exit."""
    d = w.size
    it = np.where(exit_it < 0, exit_it.max() + 1, exit_it)
    key_w = np.where(exit_it < 0, np.abs(w), exit_w)
    return np.lexsort((np.arange(d), -key_w, -it))


def run(name, C, tol, svc_tol, repeats, skip_sklearn, default_threads):
    from genesel.arom import L2AROM

    X, y, _, _ = load_split(name, split="all", preprocess="recommended")
    print(f"\n== {name}: {X.shape[0]} samples x {X.shape[1]} genes, C={C:g}, tol={tol:g} ==")
    L2AROM(C=C).fit(X[:, :200], y)  # numba compile outside the timing
    ours, t_ours, c_ours = best_of(lambda: L2AROM(C=C, tol=tol).fit(X, y), repeats)
    print(f"genesel L2AROM (one BLAS thread): {t_ours:8.3f} s wall, {c_ours:8.3f} s CPU (best of {repeats}); "
          f"{ours.n_iter_} iterations, "
          f"{ours.n_active_} genes active at convergence; active genes per iteration {ours.active_path_.tolist()}")
    row = {"dataset": name, "n": X.shape[0], "d": X.shape[1], "iterations": ours.n_iter_, "active": ours.n_active_,
           "genesel_wall": t_ours, "genesel_cpu": c_ours}
    if skip_sklearn:
        return row
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # as genesel: one BLAS thread (LIBSVM's kernel rows are BLAS dot products)
        (w, exit_it, exit_w, k), t_ref, c_ref = best_of(lambda: sklearn_arom(X, y, C, tol, svc_tol), 1)
    print(f"sklearn SVC loop, 1 BLAS thread      : {t_ref:8.3f} s wall, {c_ref:8.3f} s CPU; {k} iterations, "
          f"{int(np.sum(exit_it < 0))} genes active (SVC tol={svc_tol:g})")
    report_ratio("speed-up, both on one BLAS thread   ", (t_ours, c_ours), (t_ref, c_ref),
                 other="loop of sklearn SVC (one BLAS thread)", target=30)
    row.update(sklearn_wall=t_ref, sklearn_cpu=c_ref, wall_ratio=t_ref / t_ours, cpu_ratio=c_ref / c_ours)
    if default_threads:
        _, t_def, c_def = best_of(lambda: sklearn_arom(X, y, C, tol, svc_tol), 1)
        print(f"sklearn SVC loop, default BLAS threads: {t_def:8.3f} s wall, {c_def:8.3f} s CPU")
        report_ratio("speed-up vs default threads          ", (t_ours, c_ours), (t_def, c_def),
                     other="loop of sklearn SVC (default BLAS threads)")
        row.update(default_threads_wall_ratio=t_def / t_ours, default_threads_cpu_ratio=c_def / c_ours)
    ref_order = order_of(w, exit_it, exit_w)
    same_active = set(np.flatnonzero(exit_it < 0)) == set(np.flatnonzero(ours.exit_iteration_ < 0))
    same = {s: set(ours.feature_order_[:s]) == set(ref_order[:s]) for s in SIZES if s <= X.shape[1]}
    n_exit_diff = int(np.sum(exit_it != ours.exit_iteration_))
    print(f"signatures     : active set {'identical' if same_active else 'DIFFERENT'}; top-s identical for "
          f"s = {[s for s, v in same.items() if v]}, different for {[s for s, v in same.items() if not v]}; "
          f"{n_exit_diff} genes leave at a different iteration")
    row.update(same_active=same_active, same_signatures=all(same.values()), exit_diff=n_exit_diff)
    return row


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["singh", "welsh", "chandran_primary", "chandran_metastasis"])
    ap.add_argument("--C", type=float, default=1e3)
    ap.add_argument("--tol", type=float, default=1e-6, help="l2-AROM stopping tolerance (both implementations)")
    ap.add_argument("--svc-tol", type=float, default=1e-6, help="tolerance of scikit-learn's SVC")
    ap.add_argument("--repeats", type=int, default=3, help="genesel timings: best of this many runs")
    ap.add_argument("--skip-sklearn", action="store_true", help="time genesel only")
    ap.add_argument("--default-threads", action="store_true",
                    help="also time the scikit-learn loop with BLAS's default threads (slow on a loaded machine)")
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    rows = [run(n, args.C, args.tol, args.svc_tol, args.repeats, args.skip_sklearn, args.default_threads)
            for n in args.datasets]
    import pandas as pd

    print("\n" + pd.DataFrame(rows).to_string(index=False, float_format=lambda v: f"{v:.3g}"))


if __name__ == "__main__":
    main()
