"""The small dense linear algebra of genesel's numba solvers, written once: Cholesky factorisation, triangular solves,
rank-one updates and downdates of a Cholesky factor, and row norms that neither overflow nor underflow.

Used by the SVM dual solvers (:mod:`genesel._core.smo`, :mod:`genesel._core.newton`: the factor of Q_FF on the
free set, carried across gene removals), the relevance vector machine (:mod:`genesel._rvm_kernels`: the factor of
the posterior Hessian, carried across the add / re-estimate / delete steps of Tipping & Faul 2003) and ALMA
(:mod:`genesel.alma`: the p-norms of the instances, Gentile 2003 Figure 1). The matrices are the n x n blocks of a
few dozen samples: hand-written loops, no LAPACK and no BLAS threads.

Conventions. Factors are lower triangular, ``A = L L^T``, held in the leading ``k x k`` block of a larger work
array (the solvers grow and shrink that block in place); only its lower triangle is read.

* :func:`cholesky` is the column-oriented (Cholesky-Banachiewicz/Crout) factorisation, Golub & Van Loan, *Matrix
  Computations*, 4th ed., Algorithm 4.2.1: ``L_jj = sqrt(A_jj - sum_{p<j} L_jp^2)``,
  ``L_ij = (A_ij - sum_{p<j} L_ip L_jp) / L_jj``; every entry is the same sum in the same order whichever loop order
  computes it, so the SVM solver's row-oriented factor and the RVM's column-oriented one were already the same
  numbers. A pivot that is not above ``min_pivot`` refuses the matrix (``False``).
* :func:`forward_solve` / :func:`backward_solve` solve ``L x = b`` / ``L^T x = b`` (Golub & Van Loan Algorithms
  3.1.1 and 3.1.2, row-oriented); ``out`` may be ``b`` itself; :func:`chol_solve` is both, in place.
* :func:`chol_rank1` replaces L by the factor of ``L L^T + sign v v^T`` by Givens (update) or hyperbolic (downdate)
  rotations, one column at a time (Golub & Van Loan §6.5.4): SVM-RFE's ``K <- K - x x^T`` on the free block and the
  RVM's re-estimation of one prior precision are the same rotation with the sign and the start column as arguments.
* :func:`row_pnorms` and :func:`normalise_rows` divide each row by its largest |x| before summing, so ``|x|^p``
  cannot overflow or underflow (ALMA's instance norms and the RVM's unit-length basis vectors).

Plain-Python twins in ``tests/naive/linalg.py``. Not public API.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["cholesky", "forward_solve", "backward_solve", "chol_solve", "chol_rank1", "chol_update_diag",
           "row_pnorms", "normalise_rows"]


@njit(cache=True)
def cholesky(A, k, L, min_pivot):
    """Lower Cholesky factor of the leading k x k block of A (lower triangle read), written into L[:k, :k] with its
    strict upper triangle zeroed. ``L`` may be ``A`` (in place). Returns False (L then undefined) as soon as a pivot
    ``A_jj - sum_p L_jp^2`` is not above ``min_pivot`` (NaN included)."""
    for j in range(k):
        s = A[j, j]
        for p in range(j):
            s -= L[j, p] * L[j, p]
        if not s > min_pivot:
            return False
        d = math.sqrt(s)
        L[j, j] = d
        for i in range(j + 1, k):
            s = A[i, j]
            for p in range(j):
                s -= L[i, p] * L[j, p]
            L[i, j] = s / d
        for i in range(j + 1, k):
            L[j, i] = 0.0
    return True


@njit(cache=True)
def forward_solve(L, k, b, out):
    """out = L^-1 b (first k entries; L lower triangular). ``out`` may be ``b``."""
    for i in range(k):
        s = b[i]
        for p in range(i):
            s -= L[i, p] * out[p]
        out[i] = s / L[i, i]


@njit(cache=True)
def backward_solve(L, k, b, out):
    """out = L^-T b (first k entries; L lower triangular). ``out`` may be ``b``."""
    for i in range(k - 1, -1, -1):
        s = b[i]
        for p in range(i + 1, k):
            s -= L[p, i] * out[p]
        out[i] = s / L[i, i]


@njit(cache=True)
def chol_solve(L, k, b):
    """Solve L L^T x = b in place (the first k entries of b)."""
    forward_solve(L, k, b, b)
    backward_solve(L, k, b, b)


@njit(cache=True)
def chol_rank1(L, k, v, sign, start, min_ratio):
    """In place: L[:k, :k] <- the Cholesky factor of L L^T + sign v v^T (``sign`` = +1.0 update, -1.0 downdate), by
    one rotation per column from column ``start`` on (``v`` must be zero before it; ``v`` is overwritten).

    Returns False (L then undefined) if a new squared pivot is not above ``min_ratio`` times the old one (NaN
    included): the downdated matrix is not (numerically) positive definite."""
    for p in range(start, k):
        lpp = L[p, p]
        r2 = lpp * lpp + sign * v[p] * v[p]
        lim = min_ratio * lpp * lpp if min_ratio > 0.0 else 0.0
        if not r2 > lim:
            return False
        r = math.sqrt(r2)
        c = r / lpp
        s = v[p] / lpp
        L[p, p] = r
        for i in range(p + 1, k):
            L[i, p] = (L[i, p] + sign * s * v[i]) / c
            v[i] = c * v[i] - s * L[i, p]
    return True


@njit(cache=True)
def chol_update_diag(L, k, j, delta):
    """In place: L <- chol(L L^T + delta e_j e_j^T) (update for delta > 0, downdate for delta < 0). False on
    failure (the result would not be positive definite)."""
    sign = 1.0 if delta > 0.0 else -1.0
    x = np.zeros(k)
    x[j] = math.sqrt(abs(delta))
    return chol_rank1(L, k, x, sign, j, 0.0)


@njit(cache=True)
def _row_scale(X, t, p):
    """(m, s) for row t of X: m = max |x|, s = sum (|x| / m)^p (0, 0 for a zero row); the p-norm is m s^(1/p)."""
    f = X.shape[1]
    mx = 0.0
    for i in range(f):
        a = abs(X[t, i])
        if a > mx:
            mx = a
    if mx == 0.0:
        return 0.0, 0.0
    s = 0.0
    if p == 2.0:
        for i in range(f):
            v = X[t, i] / mx
            s += v * v
    else:
        for i in range(f):
            a = abs(X[t, i]) / mx
            if a > 0.0:
                s += a**p
    return mx, s


@njit(cache=True)
def row_pnorms(X, p):
    """p-norm of every row of X (0 for a zero row), computed without overflow or underflow."""
    m = X.shape[0]
    out = np.zeros(m)
    for t in range(m):
        mx, s = _row_scale(X, t, p)
        if mx == 0.0:
            continue
        out[t] = mx * math.sqrt(s) if p == 2.0 else mx * s ** (1.0 / p)
    return out


@njit(cache=True)
def normalise_rows(X):
    """Scale every row of X to unit Euclidean length in place (rows of zeros stay zero); returns the row norms
    (:func:`row_pnorms` with p = 2)."""
    M, n = X.shape
    norms = np.zeros(M)
    for m in range(M):
        mx, ss = _row_scale(X, m, 2.0)
        if mx == 0.0:
            continue
        r = math.sqrt(ss)
        norms[m] = mx * r
        for i in range(n):
            X[m, i] = (X[m, i] / mx) / r
    return norms
