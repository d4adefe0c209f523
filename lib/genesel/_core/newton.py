"""Newton steps on the SVM dual's free set with a Cholesky factor that is carried between solves.

The C-SVM dual (see :mod:`genesel._core.smo`) restricted to the face where the bounded multipliers stay at their
bounds is an equality-constrained quadratic: with F the free set (0 < a_i < C), Q_FF = D_y K_FF D_y and G the
gradient Q a - e, the optimum on that face is a_F + d with

    G_F + Q_FF d + b y_F = 0,    y_F^T d = 0,

i.e. d = -(u + b w) with Q_FF u = G_F, Q_FF w = y_F and b = -(y_F^T u) / (y_F^T w) (Karush-Kuhn-Tucker conditions
of the face; the same system :func:`genesel._core.smo.newton_step` solves). With the lower Cholesky factor L of
Q_FF each Newton step costs O(|F|^2).

Recursive elimination changes the Gram matrix by a rank one term per removed gene, K <- K - x x^T, so Q_FF <-
Q_FF - v v^T with v = (y_i x_i)_{i in F}: :func:`chol_downdate` updates L in O(|F|^2) (the classical rank-one
downdate by hyperbolic rotations, :func:`genesel._core.linalg.chol_rank1`; Golub & Van Loan, *Matrix Computations*,
4th ed., §6.5.4) instead of refactoring
in O(|F|^3). :func:`newton_smo` alternates such steps with chunks of SMO (the solver still certifies every result
with the maximal-violating-pair gap), so a warm start whose free set changed also gets a Newton step on its new free
set. Plain-Python twins in ``tests/naive/newton.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from genesel._core.linalg import chol_rank1
from genesel._core.smo import (_CHECK_EVERY, _PIVOT, box_step, centred_spread2, free_cholesky, free_set, kkt_solve,
                               separation_refuted, smo, take_step)

__all__ = ["free_set", "free_cholesky", "chol_downdate", "newton_solve", "newton_smo"]


@njit(cache=True)
def chol_downdate(L, m, v):
    """Replace L[:m, :m] by the Cholesky factor of L L^T - v v^T (``v`` is overwritten): the hyperbolic rotation of
    :func:`genesel._core.linalg.chol_rank1`. Returns False if the downdated matrix is not (numerically) positive
    definite (a new squared pivot below _PIVOT of the old one); L is then undefined."""
    return chol_rank1(L, m, v, -1.0, np.int64(0), _PIVOT)  # typed: see tests/test_jit_signatures.py


@njit(cache=True)
def newton_solve(K, y, C, alpha, G, F, m, L):
    """The Newton step on the free set F[:m] with the Cholesky factor L of Q_FF, clipped to the box and taken only
    if it lowers the dual objective. ``alpha`` and ``G`` are updated in place; returns True if a step was taken."""
    u = np.empty(m)
    w = np.empty(m)
    for p in range(m):
        u[p] = G[F[p]]
        w[p] = y[F[p]]
    yu, yw = kkt_solve(L, m, y, F, u, w)
    if not yw > 0.0:
        return False
    b = -yu / yw
    d = np.empty(m)
    for p in range(m):
        d[p] = -(u[p] + b * w[p])
    t = box_step(alpha, C, F, m, d)
    # objective change t g.d + t^2/2 d^T Q_FF d, with d^T Q_FF d = |L^T d|^2
    gd = 0.0
    dqd = 0.0
    for p in range(m):
        gd += G[F[p]] * d[p]
        acc = 0.0
        for r in range(p, m):
            acc += L[r, p] * d[r]
        dqd += acc * acc
    if not (t > 0.0) or not (t * gd + 0.5 * t * t * dqd < 0.0):
        return False
    take_step(K, y, C, alpha, G, F, m, d, t)
    return True


@njit(cache=True)
def newton_smo(K, y, C, alpha, G, tol, max_iter, F, L, m_factor, chunk):
    """Solve the dual from a feasible warm start by Newton steps on the free set and chunks of SMO.

    ``F[:m_factor]`` with factor ``L`` is a carried Cholesky factor of Q_FF (``m_factor`` < 0: none): it is used
    when the current free set equals F[:m_factor], and refactored otherwise. After each SMO chunk of ``chunk``
    iterations that did not converge, a Newton step on the new free set is tried. On return F, L hold the factor of
    the last free set a Newton step was attempted on (or ``m_factor`` is -1). Returns (n_iter, gap, m_factor); with
    ``C = inf`` the gap is ``inf`` when the classes proved not separable (:func:`genesel._core.smo.separation_refuted`,
    tested every 256 iterations over the chunks).
    """
    n = K.shape[0]
    Fc = np.empty(n, dtype=np.int64)
    total = 0
    gap = np.inf
    hard = C == np.inf
    spread2 = -1.0
    next_check = _CHECK_EVERY
    while True:
        m = free_set(alpha, C, Fc)
        if m > 0:
            same = m == m_factor
            if same:
                for p in range(m):
                    if Fc[p] != F[p]:
                        same = False
                        break
            if not same:
                for p in range(m):
                    F[p] = Fc[p]
                m_factor = m if free_cholesky(K, y, F, m, L) else -1
            if m_factor == m:
                newton_solve(K, y, C, alpha, G, F, m, L)
        budget = min(chunk, max_iter - total)
        it, gap = smo(K, y, C, alpha, G, tol, budget)
        total += it
        if gap < tol or total >= max_iter or it < budget:
            return total, gap, m_factor
        if hard and total >= next_check:  # the chunks are shorter than smo's own test interval: test here
            next_check = total + _CHECK_EVERY
            if spread2 < 0.0:
                spread2 = centred_spread2(K)
            if separation_refuted(y, alpha, G, spread2):
                return total, np.inf, m_factor
