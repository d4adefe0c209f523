"""The hard-margin (C = inf) SVM on samples no hyperplane separates: the solver stops where its iterate proves it
(genesel._core.smo.separation_refuted) instead of running its dual, which is unbounded there, to max_iter.

References independent of the solver: scipy's linear program (HiGHS) decides separability
(genesel.papers.guyon2002.linearly_separable), and the margin of a separable problem is 1 / ||w*|| of its hard-margin
solution (sklearn's SVC at a large C, checked against the LP)."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from genesel._core import smo
from genesel.forward import forward_path
from genesel.papers.guyon2002 import linearly_separable
from genesel.rfe import SVMRFE
from genesel.svm import LinearSVM, solve_svm_dual
from naive import svm as naive_svm


def _overlapping(n, d, seed):
    """Two classes drawn from the same distribution: with d << n no hyperplane separates them (the LP checks)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return X, y


def _separable(n, d, margin, seed):
    """Separable by the plane x_0 = 0 with every sample at least ``margin`` (relative to the data's unit spread)
    from it, and one sample of each class exactly there: the hard-margin margin is ``margin`` or larger."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X[:, 0] = y * (margin + np.abs(X[:, 0]))
    X[0, 0], X[1, 0] = margin, -margin
    return X, y


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_non_separable_hard_margin_stops_with_the_certificate(d, seed):
    X, y = _overlapping(40, d, seed)
    assert not linearly_separable(X, y)
    K = X @ X.T
    res = solve_svm_dual(K, y, np.inf, max_iter=10_000_000)
    assert np.isinf(res["gap"]) and not res["converged"]
    assert res["n_iter"] < 1_000_000  # before: every such solve ran to max_iter (10^7)
    # the certificate itself: ||w(a)|| / sum(a) bounds the margin of any separating plane, and is below the floor
    a = res["alpha"]
    w = (a * y) @ X
    spread = np.sqrt(np.max(np.sum((X - X.mean(0)) ** 2, axis=1)))
    assert np.linalg.norm(w) / a.sum() < smo.MARGIN_FLOOR * spread


@pytest.mark.parametrize("seed", range(4))
def test_the_twin_reaches_the_same_verdict(seed):
    """The plain-Python twin (the bound from the matrix, the gradient recomputed exactly) stops with the same verdict;
    not at the same iteration: with the dual variables growing without bound the two paths part by rounding (one
    gene: the twin's cost grows with the iterations, which two or three genes need by the 10^5)."""
    X, y = _overlapping(40, 1, seed)
    K = X @ X.T
    spread = np.sqrt(np.max(np.sum((X - X.mean(0)) ** 2, axis=1)))
    a_twin, _, it_twin, gap_twin = naive_svm.smo(K, y, np.inf, np.zeros(y.size), 1e-6, 10_000_000)
    assert np.isinf(gap_twin) and it_twin < 1_000_000
    assert np.linalg.norm((a_twin * y) @ X) / a_twin.sum() < smo.MARGIN_FLOOR * spread


@pytest.mark.parametrize("margin", [1e-1, 1e-2, 1e-3])
@pytest.mark.parametrize("seed", range(3))
def test_separable_hard_margin_still_converges_to_the_maximal_margin(margin, seed):
    """Separable samples, some with small margins: the test never fires (the bound it rests on holds at every
    iterate) and the solution is the hard-margin SVM: its plane separates every sample with y f(x) >= 1 and weak
    duality certifies it (the primal 1/2 ||w||^2 of that feasible plane exceeds the dual objective by less than
    1e-6 of it); sklearn's SVC at C = 1e8 gives the same plane to 1e-3 (it stops less tight: y f(x) down to 0.9995)."""
    X, y = _separable(30, 3, margin, seed)
    assert linearly_separable(X, y)
    K = X @ X.T
    res = solve_svm_dual(K, y, np.inf, tol=1e-9)
    assert res["converged"] and np.isfinite(res["gap"])
    a = res["alpha"]
    w = (a * y) @ X
    assert np.min(y * (X @ w - res["rho"])) >= 1 - 1e-6
    primal, dual = 0.5 * w @ w, a.sum() - 0.5 * w @ w
    assert primal - dual <= 1e-6 * primal
    ref = SVC(kernel="linear", C=1e8, tol=1e-9).fit(X, y)
    np.testing.assert_allclose(w, ref.coef_[0], rtol=1e-3)
    assert 1 / np.linalg.norm(w) >= margin * (1 - 1e-6)  # the margin found is at least the planted one


def test_the_bound_holds_at_every_iterate_of_a_separable_solve():
    """separation_refuted rests on sum(a) <= ||w*|| ||w(a)|| for every feasible a of a separable problem: checked
    on the iterates of a solve run in short pieces (brute force)."""
    X, y = _separable(30, 3, 1e-2, 0)
    K = X @ X.T
    w_star = (solve_svm_dual(K, y, np.inf, tol=1e-10)["alpha"] * y) @ X
    a = np.zeros(y.size)
    G = smo.gradient(K, y, a)
    spread2 = smo.centred_spread2(K)
    for _ in range(200):
        it, gap = smo.smo(K, y, np.inf, a, G, 1e-10, 5)
        if a.sum() > 0:
            assert a.sum() <= np.linalg.norm(w_star) * np.linalg.norm((a * y) @ X) * (1 + 1e-9)
            assert not smo.separation_refuted(y, a, G, spread2)
        if gap < 1e-10:
            break


def test_centred_spread_is_the_largest_distance_from_the_mean():
    X = np.random.default_rng(0).normal(size=(12, 5)) + 1e3
    assert smo.centred_spread2(X @ X.T) == pytest.approx(np.max(np.sum((X - X.mean(0)) ** 2, axis=1)), rel=1e-6)


def test_svm_rfe_marks_exactly_the_stages_no_hyperplane_separates():
    """SVM-RFE at C = inf down to one gene on samples separable on many genes but not on few: stage_converged_ is
    False exactly at the stages whose genes the LP finds not separable, with a warning naming the cause."""
    rng = np.random.default_rng(5)
    n, d = 40, 60
    y = np.where(np.arange(n) % 2 == 0, 1, 0)
    X = rng.normal(size=(n, d))
    X[:, :3] += 0.8 * y[:, None]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sel = SVMRFE(n_features_to_select=1, step=1, C=np.inf).fit(X, y)
    sizes = sel.subset_sizes_
    order = sel.feature_order_
    separable = np.array([linearly_separable(X[:, order[:k]], y) for k in sizes])
    assert separable[0] and not separable[-1]  # the case is the one meant
    np.testing.assert_array_equal(sel.stage_converged_, separable)
    assert any(issubclass(w.category, ConvergenceWarning) and "hard-margin dual is unbounded" in str(w.message)
               for w in caught)


def test_forward_path_and_linear_svm_name_the_cause():
    X, y = _overlapping(40, 2, 1)
    with pytest.warns(ConvergenceWarning, match=r"hard-margin dual is unbounded: no hyperplane separates"):
        path = forward_path(X, y, np.array([0, 1]), C=np.inf)
    assert len(path.loo_errors) == 2
    with pytest.warns(ConvergenceWarning, match=r"hard-margin dual is unbounded.*use a finite C"):
        LinearSVM(C=np.inf).fit(X, y)


def test_newton_smo_of_msvm_rfe_stops_with_the_certificate_too():
    """MSVM-RFE's solver runs SMO in chunks shorter than smo's test interval: it tests between them (and its
    plain-Python twin alike)."""
    from genesel._core.newton import newton_smo
    from naive import newton as naive_newton

    X, y = _overlapping(40, 1, 3)
    K = X @ X.T
    n = y.size
    a = np.zeros(n)
    G = smo.gradient(K, y, a)
    F, L = np.empty(n, dtype=np.int64), np.empty((n, n))
    it, gap, _ = newton_smo(K, y, np.inf, a, G, 1e-8, 10_000_000, F, L, -1, 10)
    assert np.isinf(gap) and it < 1_000_000
    _, it_twin, gap_twin = naive_newton.newton_smo(K, y, np.inf, np.zeros(n), 1e-8, 10_000_000, 10)
    assert np.isinf(gap_twin) and it_twin < 1_000_000
