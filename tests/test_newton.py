"""genesel._core.newton: the carried Cholesky factor against numpy, the Newton step against its bordered-KKT twin,
and the Newton/SMO solver against scikit-learn's SVC (an independent LIBSVM) and against a cold solve."""

import numpy as np
import pytest
from sklearn.svm import SVC

from genesel._core import newton, smo
from genesel.svm import dual_objective, kkt_violation, solve_svm_dual
from naive import linalg as naive_linalg
from naive import newton as naive_newton
from naive import svm as naive_svm


def _problem(n, d, seed):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 3 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d))
    X[:, 0] += 1.5 * y
    return X, y


def _spd(m, seed):
    A = np.random.default_rng(seed).normal(size=(m, m + 3))
    return A @ A.T


def _free_factor(seed, F):
    """A problem, its free block Q_FF and the factor free_cholesky writes for it."""
    X, y = _problem(25, 40, seed=seed)
    K = X @ X.T
    F = np.array(F, dtype=np.int64)
    L = np.zeros((25, 25))
    assert newton.free_cholesky(K, y, F, F.size, L)
    return X, y, K, F, L, (np.outer(y, y) * K)[np.ix_(F, F)]


def test_free_cholesky_matches_numpy():
    X, y, K, F, L, Q = _free_factor(1, [0, 3, 4, 9, 17, 24])
    np.testing.assert_allclose(L[:6, :6], np.tril(np.linalg.cholesky(Q)), rtol=1e-12, atol=1e-12)
    # a singular block (two identical samples) is refused
    X[4] = X[3]
    assert not newton.free_cholesky(X @ X.T, y, F, F.size, L)


def test_kkt_solve_is_the_bordered_system_against_numpy():
    X, y, K, F, L, Q = _free_factor(3, [1, 2, 5, 8, 13, 21])
    r = np.random.default_rng(4).normal(size=F.size)
    u, w = r.copy(), y[F].copy()
    yu, yw = smo.kkt_solve(L, F.size, y, F, u, w)
    np.testing.assert_allclose(u, np.linalg.solve(Q, r), rtol=1e-9)
    np.testing.assert_allclose(w, np.linalg.solve(Q, y[F]), rtol=1e-9)
    assert yu == pytest.approx(y[F] @ u, rel=1e-12) and yw == pytest.approx(y[F] @ w, rel=1e-12) and yw > 0


@pytest.mark.parametrize("polish", [False, True])
def test_warm_solve_matches_the_twins_polish_then_smo(polish):
    """smo.warm_solve (every elimination stage's solve): Newton polish on the free set, then SMO, as the twins."""
    X, y = _problem(30, 500, seed=7)
    C = 0.05
    K = X @ X.T
    start = solve_svm_dual(K, y, C, tol=1e-12)["alpha"]
    K2 = K - np.outer(X[:, 3], X[:, 3])  # one gene removed: the old optimum is a feasible warm start
    a = start.copy()
    G, it, gap = smo.warm_solve(K2, y, C, a, polish, 1e-10, 10**7)
    ref = start.copy()
    if polish:
        ref, _ = naive_svm.newton_step(K2, y, C, ref, naive_svm.gradient(K2, y, ref))
    ref, _, it0, gap0 = naive_svm.smo(K2, y, C, ref, 1e-10, 10**7)
    assert gap < 1e-10 and gap0 < 1e-10
    np.testing.assert_allclose(a, ref, atol=1e-8)
    np.testing.assert_allclose(G, smo.gradient(K2, y, a), atol=1e-9)  # the returned gradient is the final one
    assert dual_objective(K2, y, a) == pytest.approx(dual_objective(K2, y, ref), rel=1e-10)


def test_free_set_lists_the_strictly_interior_multipliers():
    F = np.empty(6, dtype=np.int64)
    m = newton.free_set(np.array([0.0, 0.5, 1.0, 1e-12, 1.0 - 1e-12, 0.0]), 1.0, F)
    assert F[:m].tolist() == [1, 3, 4]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chol_downdate_matches_refactoring(seed):
    m = 12
    A = _spd(m, seed)
    rng = np.random.default_rng(seed + 10)
    L = np.zeros((20, 20))
    L[:m, :m] = np.linalg.cholesky(A)
    v = 0.3 * rng.normal(size=m) * np.sqrt(np.diag(A))
    v *= 0.9 / np.sqrt(v @ np.linalg.solve(A, v)) if v @ np.linalg.solve(A, v) >= 1 else 1.0  # keep A - vv^T PD
    ref = naive_linalg.chol_rank1(L[:m, :m].copy(), v, -1.0)
    assert newton.chol_downdate(L, m, v.copy())
    np.testing.assert_allclose(L[:m, :m], ref, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(L[:m, :m] @ L[:m, :m].T, A - np.outer(v, v), rtol=1e-9, atol=1e-9)


def test_chol_downdate_refuses_an_indefinite_result():
    A = _spd(5, 3)
    L = np.linalg.cholesky(A)
    v = np.linalg.cholesky(A)[:, 0] * 1.01  # A - v v^T has a negative direction
    assert naive_linalg.chol_rank1(L.copy(), v, -1.0) is None
    assert not newton.chol_downdate(L.copy(), 5, v.copy())


@pytest.mark.parametrize("C,gene", [(0.05, -1), (0.05, 0), (np.inf, -1), (3e-4, -1)])
def test_newton_solve_matches_bordered_kkt_twin(C, gene):
    X, y = _problem(30, 800, seed=12)
    K = X @ X.T
    opt = solve_svm_dual(K, y, C, tol=1e-12)["alpha"]
    K2 = K - np.outer(X[:, gene], X[:, gene])  # remove a gene, start from the old optimum
    F = np.empty(30, dtype=np.int64)
    m = newton.free_set(opt, C, F)
    L = np.zeros((30, 30))
    assert newton.free_cholesky(K2, y, F, m, L)
    a, G = opt.copy(), smo.gradient(K2, y, opt)
    taken = newton.newton_solve(K2, y, C, a, G, F, m, L)
    a_twin, taken_twin = naive_svm.newton_step(K2, y, C, opt, naive_svm.gradient(K2, y, opt))
    assert taken == taken_twin
    np.testing.assert_allclose(a, a_twin, atol=1e-9)
    np.testing.assert_allclose(G, smo.gradient(K2, y, a), atol=1e-8)  # the incremental gradient is right
    assert dual_objective(K2, y, a) <= dual_objective(K2, y, opt) + 1e-12


@pytest.mark.parametrize("n,d,C", [(40, 300, 1.0), (60, 8, 0.1), (50, 20, 10.0)])
def test_newton_smo_from_zero_matches_sklearn(n, d, C):
    X, y = _problem(n, d, seed=n + d)
    K = X @ X.T
    a, G = np.zeros(n), -np.ones(n)
    F, L = np.zeros(n, dtype=np.int64), np.zeros((n, n))
    it, gap, mf = newton.newton_smo(K, y, C, a, G, 1e-10, 10**7, F, L, -1, 10)
    assert gap < 1e-10
    ref = SVC(kernel="precomputed", C=C, tol=1e-12).fit(K, y)
    a_ref = np.zeros(n)
    a_ref[ref.support_] = np.abs(ref.dual_coef_[0])
    assert dual_objective(K, y, a) == pytest.approx(dual_objective(K, y, a_ref), rel=1e-8, abs=1e-10)
    np.testing.assert_allclose(a, a_ref, atol=1e-5 * max(1.0, C))
    a_twin, _, gap_twin = naive_newton.newton_smo(K, y, C, np.zeros(n), 1e-10, 10**7, 10)
    assert gap_twin < 1e-10
    np.testing.assert_allclose(a, a_twin, atol=1e-7 * max(1.0, C))


def test_carried_factor_after_downdates_lands_on_the_optimum():
    """RFE's use: solve, remove noise genes (downdating K, G and the factor), warm start: Newton lands on the new
    optimum without SMO iterations and equals a cold solve."""
    X, y = _problem(30, 600, seed=5)
    C = 0.05
    K = X @ X.T
    a, G = np.zeros(30), -np.ones(30)
    F, L = np.zeros(30, dtype=np.int64), np.zeros((30, 30))
    it, gap, mf = newton.newton_smo(K, y, C, a, G, 1e-12, 10**7, F, L, -1, 10)
    assert mf > 0 and gap < 1e-12
    for g in (599, 598, 597):  # noise genes: the free set does not change
        x = X[:, g]
        K = K - np.outer(x, x)
        G -= y * x * np.sum(y * a * x)
        v = y[F[:mf]] * x[F[:mf]]
        assert newton.chol_downdate(L, mf, v)
    np.testing.assert_allclose(G, smo.gradient(K, y, a), atol=1e-10)
    it, gap, mf2 = newton.newton_smo(K, y, C, a, G, 1e-12, 10**7, F, L, mf, 10)
    assert it == 0 and gap < 1e-12 and mf2 == mf
    cold = solve_svm_dual(K, y, C, tol=1e-12)
    assert kkt_violation(K, y, a, C)[0] < 1e-10
    assert dual_objective(K, y, a) == pytest.approx(cold["objective"], rel=1e-11)
