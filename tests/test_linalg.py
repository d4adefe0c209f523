"""genesel._core.linalg: the Cholesky factor, the triangular solves, the rank-one rotations and the scaled row norms
against their plain-Python twins (tests/naive/linalg.py), numpy and scipy."""

import numpy as np
import pytest
from scipy.linalg import solve_triangular

from genesel._core import linalg, newton
from naive import linalg as naive


def _spd(m, seed, extra=3):
    A = np.random.default_rng(seed).normal(size=(m, m + extra))
    return A @ A.T


# ---------------------------------------------------------------------------------------------------- Cholesky
@pytest.mark.parametrize("m,seed", [(1, 0), (5, 1), (17, 2)])
def test_cholesky_matches_twin_and_numpy(m, seed):
    A = _spd(m, seed)
    L = np.full((m + 4, m + 4), np.nan)  # a larger work array: only the leading block is written
    assert linalg.cholesky(A, m, L, 0.0)
    np.testing.assert_allclose(L[:m, :m], naive.cholesky(A.tolist()), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(L[:m, :m], np.linalg.cholesky(A), rtol=1e-12, atol=1e-12)
    assert np.all(np.triu(L[:m, :m], 1) == 0.0)  # the strict upper triangle is cleared


def test_cholesky_in_place_is_the_same_factor():
    A = _spd(9, 4)
    L = np.empty((9, 9))
    assert linalg.cholesky(A, 9, L, 0.0)
    B = A.copy()
    assert linalg.cholesky(B, 9, B, 0.0)  # L aliases A
    np.testing.assert_array_equal(B, L)


def test_cholesky_refuses_a_pivot_at_or_below_the_threshold():
    X = np.random.default_rng(5).normal(size=(6, 3))
    A = X @ X.T  # rank 3
    assert naive.cholesky(A.tolist(), 1e-9 * A.max()) is None
    assert not linalg.cholesky(A, 6, np.empty((6, 6)), 1e-9 * A.max())
    B = _spd(4, 6)
    smallest = np.min(np.diag(naive.cholesky(B.tolist()))) ** 2  # the smallest pivot
    assert linalg.cholesky(B, 4, np.empty((4, 4)), 0.99 * smallest)
    assert not linalg.cholesky(B, 4, np.empty((4, 4)), 1.01 * smallest)
    assert not linalg.cholesky(np.full((2, 2), np.nan), 2, np.empty((2, 2)), 0.0)  # NaN is no pivot


# ---------------------------------------------------------------------------------------------------- solves
@pytest.mark.parametrize("seed", [0, 1])
def test_triangular_solves_match_twins_and_scipy(seed):
    m = 11
    rng = np.random.default_rng(seed)
    L = np.linalg.cholesky(_spd(m, seed))
    W = np.zeros((m + 2, m + 2))
    W[:m, :m] = L
    b = rng.normal(size=m)
    out = np.empty(m)
    linalg.forward_solve(W, m, b, out)
    np.testing.assert_allclose(out, naive.forward_solve(L.tolist(), b.tolist()), rtol=1e-12)
    np.testing.assert_allclose(out, solve_triangular(L, b, lower=True), rtol=1e-12)
    linalg.backward_solve(W, m, b, out)
    np.testing.assert_allclose(out, naive.backward_solve(L.tolist(), b.tolist()), rtol=1e-12)
    np.testing.assert_allclose(out, solve_triangular(L.T, b, lower=False), rtol=1e-12)
    x = b.copy()
    linalg.chol_solve(W, m, x)  # in place: forward then backward
    np.testing.assert_allclose(L @ L.T @ x, b, rtol=1e-9, atol=1e-12)
    y = b.copy()
    linalg.forward_solve(W, m, y, y)
    linalg.backward_solve(W, m, y, y)
    np.testing.assert_array_equal(x, y)


# ---------------------------------------------------------------------------------------------------- rank one
@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("start", [0, 4])
def test_chol_rank1_matches_refactoring(sign, start):
    m = 10
    A = _spd(m, 7)
    rng = np.random.default_rng(8)
    v = 0.3 * rng.normal(size=m) * np.sqrt(np.diag(A))
    v[:start] = 0.0
    if sign < 0:  # keep A - v v^T positive definite
        q = v @ np.linalg.solve(A, v)
        v *= 0.9 / np.sqrt(q) if q >= 1 else 1.0
    L = np.zeros((m + 3, m + 3))
    L[:m, :m] = np.linalg.cholesky(A)
    ref = naive.chol_rank1(L[:m, :m].copy(), v, sign)
    assert linalg.chol_rank1(L, m, v.copy(), sign, start, 0.0)
    np.testing.assert_allclose(L[:m, :m], ref, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(L[:m, :m] @ L[:m, :m].T, A + sign * np.outer(v, v), rtol=1e-9, atol=1e-9)


def test_chol_rank1_refuses_an_indefinite_downdate():
    A = _spd(5, 3)
    L = np.linalg.cholesky(A)
    v = L[:, 0] * 1.01  # A - v v^T has a negative direction
    assert naive.chol_rank1(L.copy(), v, -1.0) is None
    assert not linalg.chol_rank1(L.copy(), 5, v.copy(), -1.0, 0, 0.0)


def test_svm_downdate_is_the_rotation_with_the_solver_pivot():
    """newton.chol_downdate is chol_rank1(sign=-1, start=0, min_ratio=_PIVOT), bit for bit."""
    A = _spd(8, 9)
    v = 0.2 * np.random.default_rng(1).normal(size=8)
    L1, L2 = np.linalg.cholesky(A), np.linalg.cholesky(A)
    assert newton.chol_downdate(L1, 8, v.copy())
    assert linalg.chol_rank1(L2, 8, v.copy(), -1.0, 0, newton._PIVOT)
    np.testing.assert_array_equal(L1, L2)
    # a downdate leaving a squared pivot below _PIVOT of its old value is refused (the rule without a ratio
    # accepts it); one leaving exactly 0 is refused by both
    L = np.array([[3.0]])
    w = np.array([3.0 * np.sqrt(1 - 0.5 * newton._PIVOT)])
    assert not newton.chol_downdate(L.copy(), 1, w.copy())
    assert linalg.chol_rank1(L.copy(), 1, w.copy(), -1.0, 0, 0.0)
    assert not linalg.chol_rank1(L.copy(), 1, np.array([3.0]), -1.0, 0, 0.0)


@pytest.mark.parametrize("delta", [0.7, -0.3, 5.0])
def test_chol_update_diag(delta):
    rng = np.random.default_rng(1)
    A = rng.normal(size=(6, 6))
    H = A @ A.T + 6 * np.eye(6)
    L = np.linalg.cholesky(H)
    for j in (0, 3, 5):
        Lj = L.copy()
        assert linalg.chol_update_diag(Lj, 6, j, delta)
        H2 = H.copy()
        H2[j, j] += delta
        np.testing.assert_allclose(np.tril(Lj), np.linalg.cholesky(H2), rtol=1e-12, atol=1e-12)
    Lj = L.copy()
    assert not linalg.chol_update_diag(Lj, 6, 2, -H[2, 2] - 1.0)  # would leave H indefinite


# ---------------------------------------------------------------------------------------------------- row norms
@pytest.mark.parametrize("p", [2.0, 2.7, 4.0])
def test_row_pnorms_vs_naive(p):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 9)) * 100
    X[2] = 0.0
    np.testing.assert_allclose(linalg.row_pnorms(X, p), naive.row_pnorms(X, p), rtol=1e-13)
    np.testing.assert_allclose(linalg.row_pnorms(X, p)[[0, 1]], np.linalg.norm(X[[0, 1]], ord=p, axis=1), rtol=1e-13)


@pytest.mark.parametrize("p", [2.0, 3.0])
def test_row_pnorms_do_not_overflow_or_underflow(p):
    x = np.random.default_rng(4).normal(size=(1, 7))
    ref = np.linalg.norm(x, ord=p, axis=1)
    for scale in (1e200, 1e-300):
        np.testing.assert_allclose(linalg.row_pnorms(x * scale, p), ref * scale, rtol=1e-13)


def test_normalise_rows():
    rng = np.random.default_rng(0)
    P = np.vstack([rng.normal(size=(3, 4)) * 1e200, np.zeros((1, 4)), rng.normal(size=(1, 4)) * 1e-300])
    ref = naive.row_pnorms(P, 2.0)
    Pn = P.copy()
    norms = linalg.normalise_rows(Pn)
    np.testing.assert_allclose(norms, ref, rtol=1e-14)
    np.testing.assert_array_equal(norms, linalg.row_pnorms(P, 2.0))
    np.testing.assert_allclose(np.linalg.norm(Pn, axis=1), [1, 1, 1, 0, 1], rtol=1e-14)
