"""Benchmark: the multi-class Laplace GP (three or more classes), today's code against ``--base``, in the same run.

Every evidence evaluation of a K-class GP fit (:func:`genesel.gp._mc_laplace`, R&W Alg. 3.3 and 5.2) runs a few
Newton steps, and each step forms, per class, E_c = D_c½ (I + D_c½ K D_c½)⁻¹ D_c½ from the Cholesky factor of the
bracket; at a few hundred samples and a few genes these O(n³) factors are the whole cost of a fit. The code before
formed each E_c by solving against the identity (R&W: solving L Lᵀ X = D½, about 2n³ multiply-adds, through
scipy's wrappers); today's takes the inverse from the factor with LAPACK's potri (about 2n³/3) and drops one
triangular solve per class from the evidence gradient (:mod:`genesel.gp`, ``_mc_factors``).

Cases, each fitted once by the code of ``--base`` (:mod:`genesel.gp` and :mod:`genesel.gp_ard_select` read with
``git show``, ``benchmarks/bench_gp_ard_speed.py``'s loader) and once by today's, one BLAS thread, alternating:

* ``GaussianProcessClassifier(random_state=0)`` on scikit-learn's own classifier-check data (``make_blobs``, 300
  samples, 2 features, 3 classes, standardised): the estimator contract test fits it three times;
* ``GPARDFS(random_state=0)`` on iris (150 x 4, 3 classes): the contract's positive-data check;
* the multi-class board's "GP-ARD-FS + GP" cell on the first outer training part of ``--sets`` (default Su,
  Christensen and Nakayama, the board's three costliest GP-ARD-FS sets: ``GPARDFS(n_folds=5, n_restarts=0)`` and the
  final ARD GP, the cell's preprocessing, seed and ``n_folds``: 5, or the smallest class of the part).

Printed per case: CPU and wall seconds of both, their ratio, the fitted log evidences (they differ by rounding
only if both fits took the same path: L-BFGS-B's path can part where rounding moves a step), the selected genes
and the test errors.

``python benchmarks/bench_gp_multiclass.py [--base REV] [--sets su christensen nakayama] [--no-sets]``
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, best_of, record_change, record_total, recorded, use_mirror  # noqa: E402
from bench_gp_ard_speed import old_modules, outer_part  # noqa: E402


def _timed(fn):
    """(result, CPU s, wall s) of one call, one BLAS thread, warnings silenced."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, wall, cpu = best_of(fn, 1)
        return out, cpu, wall


def _blobs():
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler

    X, y = make_blobs(n_samples=300, random_state=0)
    return StandardScaler().fit_transform(X), y


def _iris():
    from sklearn.datasets import load_iris

    return load_iris(return_X_y=True)


def _compare(label, run_old, run_new, describe):
    """Fit old and new (old first), print both, record the ratio; ``describe(fitted)`` -> text of the result."""
    old, c_old, w_old = _timed(run_old)
    new, c_new, w_new = _timed(run_new)
    d_old, d_new = describe(old), describe(new)
    same = d_old == d_new
    print(f"{label}: base {c_old:.1f} s CPU ({w_old:.1f} s wall) -> now {c_new:.1f} s CPU ({w_new:.1f} s wall), "
          f"{c_old / c_new:.2f}x CPU\n    base: {d_old}\n    now:  {d_new}")
    record_change(label, (c_old, w_old), (c_new, w_new),
                  note="same result" if same else f"base: {d_old}; now: {d_new}")
    return c_old, c_new


def _gp_text(g):
    return (f"log evidence {g.log_marginal_likelihood_:.9f}, {g.n_iter_} iterations, "
            f"relevances {np.array2string(g.relevances_, precision=4)}")


def _fs_text(s):
    return f"genes {np.flatnonzero(s.support_).tolist()}, fold fits' iterations {np.ravel(s.fold_n_iter_).tolist()}"


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="1335c4b", help="the code to compare with (default: before the change)")
    ap.add_argument("--sets", nargs="*", default=["su", "christensen", "nakayama"])
    ap.add_argument("--no-sets", action="store_true", help="only the two small cases")
    add_data_arguments(ap)
    args = ap.parse_args(argv)
    use_mirror(args)
    from genesel import GPARDFS, GaussianProcessClassifier

    gp_old, sel_old = old_modules(args.base)
    totals = []
    X, y = _blobs()
    totals.append(_compare("GaussianProcessClassifier(random_state=0), 300 x 2 blobs, 3 classes",
                           lambda: gp_old.GaussianProcessClassifier(random_state=0).fit(X, y),
                           lambda: GaussianProcessClassifier(random_state=0).fit(X, y), _gp_text))
    X, y = _iris()
    totals.append(_compare("GPARDFS(random_state=0), iris 150 x 4, 3 classes",
                           lambda: sel_old.GPARDFS(random_state=0).fit(X, y),
                           lambda: GPARDFS(random_state=0).fit(X, y), _fs_text))
    for name in [] if args.no_sets else args.sets:
        Xa, ya, Xb, yb, seed = outer_part(name)

        k = min(5, int(np.unique(ya, return_counts=True)[1].min()))  # the protocol's n_folds on this part

        def cell(gp_mod, sel_mod, Xa=Xa, ya=ya, Xb=Xb, yb=yb, seed=seed, k=k):
            sel = sel_mod.GPARDFS(n_folds=k, n_restarts=0, random_state=seed).fit(Xa, ya)
            g = np.flatnonzero(sel.support_)
            clf = gp_mod.GaussianProcessClassifier(ard=True, n_restarts=0, random_state=seed).fit(Xa[:, g], ya)
            return sel, clf, int(np.sum(clf.predict(Xb[:, g]) != yb))

        totals.append(_compare(
            f"GP-ARD-FS + GP cell, {name} outer part 0 ({Xa.shape[0]} x {Xa.shape[1]}, {np.unique(ya).size} classes)",
            lambda: cell(gp_old, sel_old),
            lambda: cell(sys.modules["genesel.gp"], sys.modules["genesel.gp_ard_select"]),
            lambda r, m=yb.size: f"{_fs_text(r[0])}; final GP log evidence {r[1].log_marginal_likelihood_:.6f}; "
                                 f"test errors {r[2]} of {m}"))
    record_total(totals)


if __name__ == "__main__":
    main()
