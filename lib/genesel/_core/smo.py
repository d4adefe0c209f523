"""The C-SVM dual solver shared by every SVM-based method in genesel (numba SMO + Newton steps on a Gram matrix).

Used by :mod:`genesel.svm` (LinearSVM, KernelSVM), :mod:`genesel.rfe` (SVM-RFE's warm-started solves after each
Gram downdate) and the l2-AROM / MSVM-RFE wrappers. Nothing here knows about genes, papers or data sets.

The C-SVM dual (Vapnik 1998; Cortes & Vapnik 1995)

    min_a  1/2 a^T Q a - e^T a     s.t.  0 <= a_i <= C,  y^T a = 0,      Q_ij = y_i y_j K_ij

is solved by sequential minimal optimisation with the second-order working-set selection of Fan, Chen & Lin
(2005, JMLR 6, "WSS 2"), the rule LIBSVM (and hence ``sklearn.svm.SVC``) uses. The stopping rule is the same
maximal-violating-pair gap  m(a) - M(a) < tol,  and the bias is computed as LIBSVM does (average of y_i G_i over
free vectors, otherwise the midpoint of the feasible interval), so the solution, bias and predictions agree with
``SVC(kernel="linear", C=C)`` when both are run to a tight tolerance.

The solver takes a warm start ``alpha0`` (any feasible point): when only K changes (genes removed or rescaled)
the constraints do not, so the previous solution stays feasible and a few SMO steps finish the job.
:func:`newton_step` additionally solves the KKT system on the current free set exactly (a Cholesky of Q_FF, step
clipped to the box, taken only if it lowers the objective); when the set of free vectors did not change this lands
on the optimum and SMO only certifies it. Kernels (plain-Python twins in ``tests/naive/svm.py``): :func:`gradient`,
:func:`smo`, :func:`rho`, :func:`newton_step` (built on :func:`free_set`, :func:`free_cholesky`, :func:`box_step`,
:func:`take_step`, also used by :mod:`genesel._core.newton`, and the Cholesky solve of
:mod:`genesel._core.linalg`); :func:`warm_solve` is the polish-then-SMO sequence of every warm-started solve in
the elimination loops; the entry point is :func:`solve_dual`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from genesel._core.linalg import chol_solve, cholesky

__all__ = ["gradient", "smo", "centred_spread2", "separation_refuted", "MARGIN_FLOOR", "UNBOUNDED_DUAL",
           "rho", "free_set", "free_cholesky", "kkt_solve", "box_step", "take_step",
           "newton_step", "warm_solve", "solve_dual", "dual_objective", "kkt_violation", "as_pm1_float"]

_TAU = 1e-12  # LIBSVM's guard for non-positive curvature a_ij
#: Hard margin (C = inf): a solve stops, returning the gap ``inf``, once its iterate proves that no hyperplane
#: separates the classes by more than this fraction of the samples' spread (:func:`separation_refuted`).
MARGIN_FLOOR = 1e-6
_CHECK_EVERY = 256  # SMO iterations between two such tests (each O(n); the spread, O(n^2), once per solve)
_PIVOT = 1e-10  # relative size below which a Cholesky pivot counts as zero (Q_FF numerically singular)


# ----------------------------------------------------------------------------------------------------------------
# numba kernels (plain-Python twins in tests/naive/svm.py)
# ----------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def gradient(K, y, alpha):
    """G = Q alpha - e with Q_ij = y_i y_j K_ij."""
    n = K.shape[0]
    G = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(n):
            if alpha[j] != 0.0:
                s += y[j] * alpha[j] * K[i, j]
        G[i] = y[i] * s - 1.0
    return G


@njit(cache=True)
def centred_spread2(K):
    """The largest squared distance of a sample from the samples' mean, from their Gram matrix:
    max_i K_ii - 2 mean_j K_ij + mean K (the scale of the data, wherever they sit)."""
    n = K.shape[0]
    total = 0.0
    best = 0.0
    rows = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += K[i, j]
        rows[i] = s / n
        total += s
    total /= n * n
    for i in range(n):
        v = K[i, i] - 2.0 * rows[i] + total
        if v > best:
            best = v
    return best


@njit(cache=True)
def separation_refuted(y, alpha, G, spread2):
    """True when the feasible dual point ``alpha`` (G its gradient) proves that no hyperplane separates the two
    classes with a margin above :data:`MARGIN_FLOOR` times ``sqrt(spread2)`` (:func:`centred_spread2`).

    Why: if (w*, b*) separates with y_i (w*.x_i + b*) >= 1 (margin 1 / ||w*||), every a >= 0 with y^T a = 0 gives
    sum_i a_i <= sum_i a_i y_i (w*.x_i + b*) = w*.w(a) <= ||w*|| ||w(a)||, with w(a) = sum_i a_i y_i x_i, so
    ||w(a)|| / sum_i a_i bounds the margin from above; ||w(a)||^2 = a^T Q a = sum_i a_i (G_i + 1). On data that no
    hyperplane separates the hard-margin dual is unbounded: SMO's iterates grow without end and this ratio falls
    towards 0 (measured: below 1e-6 of the spread within 10^3-10^4 iterations, where the stop at ``max_iter`` took
    10^7), while a separable problem keeps it at or above its margin. A margin below 1e-6 of the samples' spread is
    also below the precision of any expression measurement."""
    sa = 0.0
    w2 = 0.0
    for i in range(alpha.shape[0]):
        sa += alpha[i]
        w2 += alpha[i] * (G[i] + 1.0)
    return sa > 0.0 and w2 < (MARGIN_FLOOR * MARGIN_FLOOR * spread2) * sa * sa


@njit(cache=True)
def smo(K, y, C, alpha, G, tol, max_iter):
    """SMO with WSS2 on the Gram matrix K. ``alpha`` (feasible) and ``G`` (its gradient) are updated in place.

    Returns ``(n_iter, gap)`` where ``gap = m(alpha) - M(alpha)`` at exit; the solution is tol-optimal when
    ``gap < tol``. With ``C = inf`` (hard margin) the solve also stops, returning ``gap = inf``, when its iterate
    proves the classes are not separable (:func:`separation_refuted`, tested every 256 iterations): the dual is then
    unbounded and no ``max_iter`` would converge.
    """
    n = K.shape[0]
    it = 0
    gap = np.inf
    hard = C == np.inf
    spread2 = -1.0
    while True:
        # i = argmax_{t in I_up} -y_t G_t
        gmax = -np.inf
        i = -1
        for t in range(n):
            if y[t] > 0:
                if alpha[t] < C:
                    v = -G[t]
                    if v >= gmax:
                        gmax = v
                        i = t
            else:
                if alpha[t] > 0.0:
                    v = G[t]
                    if v >= gmax:
                        gmax = v
                        i = t
        # j: second-order choice among I_low with -y_t G_t < -y_i G_i; also track max_{I_low} y_t G_t
        gmax2 = -np.inf
        j = -1
        obj_min = np.inf
        for t in range(n):
            in_low = (alpha[t] > 0.0) if y[t] > 0 else (alpha[t] < C)
            if not in_low:
                continue
            ygt = y[t] * G[t]
            if ygt >= gmax2:
                gmax2 = ygt
            if i < 0:
                continue
            b = gmax + ygt
            if b > 0.0:
                a = K[i, i] + K[t, t] - 2.0 * K[i, t]
                if a <= 0.0:
                    a = _TAU
                obj = -(b * b) / a
                if obj <= obj_min:
                    obj_min = obj
                    j = t
        gap = gmax + gmax2
        if i < 0 or j < 0 or gap < tol or it >= max_iter:
            break
        if hard and it > 0 and it % _CHECK_EVERY == 0:
            if spread2 < 0.0:
                spread2 = centred_spread2(K)
            if separation_refuted(y, alpha, G, spread2):
                gap = np.inf
                break
        it += 1
        # move a_i += y_i s, a_j -= y_j s (keeps y^T a = 0), s = b / a clipped to the box
        a = K[i, i] + K[j, j] - 2.0 * K[i, j]
        if a <= 0.0:
            a = _TAU
        b = -y[i] * G[i] + y[j] * G[j]
        s = b / a
        lim_i = (C - alpha[i]) if y[i] > 0 else alpha[i]
        lim_j = alpha[j] if y[j] > 0 else (C - alpha[j])
        hit_i = False
        hit_j = False
        if lim_i <= s:
            s = lim_i
            hit_i = True
        if lim_j <= s:
            s = lim_j
            hit_j = True
            hit_i = lim_i <= s
        if s <= 0.0:
            # degenerate pair (cannot move); should not happen for a violating pair with positive room
            break
        new_i = alpha[i] + y[i] * s
        new_j = alpha[j] - y[j] * s
        if hit_i:
            new_i = C if y[i] > 0 else 0.0
        if hit_j:
            new_j = 0.0 if y[j] > 0 else C
        alpha[i] = new_i
        alpha[j] = new_j
        for k in range(n):
            G[k] += y[k] * s * (K[k, i] - K[k, j])
    return it, gap


@njit(cache=True)
def rho(y, C, alpha, G):
    """LIBSVM's threshold rho (decision = sum a_i y_i K(x_i, x) - rho)."""
    n = y.shape[0]
    ub = np.inf
    lb = -np.inf
    s = 0.0
    nfree = 0
    for t in range(n):
        yg = y[t] * G[t]
        if alpha[t] >= C:
            if y[t] < 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        elif alpha[t] <= 0.0:
            if y[t] > 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        else:
            nfree += 1
            s += yg
    if nfree > 0:
        return s / nfree
    return 0.5 * (ub + lb)


@njit(cache=True)
def free_set(alpha, C, F):
    """Write the indices i with 0 < alpha_i < C (the free set) into F, ascending; return their number."""
    m = 0
    for i in range(alpha.shape[0]):
        if alpha[i] > 0.0 and alpha[i] < C:
            F[m] = i
            m += 1
    return m


@njit(cache=True)
def free_cholesky(K, y, F, m, L):
    """Lower Cholesky factor of Q_FF (Q_ij = y_i y_j K_ij) for the first m indices of F, written into L[:m, :m]
    (:func:`genesel._core.linalg.cholesky`, no LAPACK threads). Returns False (L undefined) if a pivot is not above
    _PIVOT of the largest diagonal entry."""
    dmax = 0.0
    for p in range(m):
        for q in range(p + 1):
            L[p, q] = y[F[p]] * y[F[q]] * K[F[p], F[q]]
        if L[p, p] > dmax:
            dmax = L[p, p]
    return cholesky(L, m, L, _PIVOT * dmax)


@njit(cache=True)
def kkt_solve(L, m, y, F, u, w):
    """The two solves of the Newton step's bordered KKT system on the free set F[:m]: u <- Q_FF^-1 u and
    w <- Q_FF^-1 w in place (L L^T = Q_FF); returns (y_F . u, y_F . w), from which the multiplier of y^T a = 0
    follows. Used by :func:`newton_step` and :func:`genesel._core.newton.newton_solve`."""
    chol_solve(L, m, u)
    chol_solve(L, m, w)
    yu = 0.0
    yw = 0.0
    for p in range(m):
        yu += y[F[p]] * u[p]
        yw += y[F[p]] * w[p]
    return yu, yw


@njit(cache=True)
def box_step(alpha, C, F, m, d):
    """The largest t in (0, 1] with alpha_F + t d inside the box [0, C] (the Newton step's clipping)."""
    t = 1.0
    for p in range(m):
        i = F[p]
        if d[p] < 0.0:
            lim = alpha[i] / (-d[p])
            if lim < t:
                t = lim
        elif d[p] > 0.0:
            lim = (C - alpha[i]) / d[p]
            if lim < t:
                t = lim
    return t


@njit(cache=True)
def take_step(K, y, C, alpha, G, F, m, d, t):
    """alpha_F += t d, landing exactly on a bound where the step was clipped there, and G updated with it."""
    n = K.shape[0]
    for p in range(m):
        i = F[p]
        step = t * d[p]
        new = alpha[i] + step
        if new <= 0.0 or (d[p] < 0.0 and alpha[i] / (-d[p]) == t):
            new = 0.0
        elif new >= C or (d[p] > 0.0 and (C - alpha[i]) / d[p] == t):
            new = C
        step = new - alpha[i]
        alpha[i] = new
        if step != 0.0:
            for k in range(n):
                G[k] += y[k] * y[i] * K[k, i] * step


@njit(cache=True)
def newton_step(K, y, C, alpha, G):
    """One Newton step on the free set: the exact minimiser of the dual over the face where the bounded variables
    stay at their bounds, clipped to the box. ``alpha`` and ``G`` are updated in place.

    With F the free set (0 < a_i < C) and B the rest, the optimum on that face solves
        Q_FF a_F + b y_F = e_F - Q_FB a_B,     y_F^T a_F = -y_B^T a_B,
    done here with a hand-written Cholesky of Q_FF (no LAPACK threads). The step a_F -> a_F + t d, t in (0, 1],
    stops at the box and is taken only if it lowers the objective; if Q_FF is (numerically) singular nothing is
    done. This is an accelerator for warm starts (RFE: removing a gene rarely changes which vectors are free, so
    the step lands on the new optimum); SMO still certifies the result. Returns True if a step was taken.
    """
    n = K.shape[0]
    F = np.empty(n, dtype=np.int64)
    m = free_set(alpha, C, F)
    if m == 0:
        return False
    L = np.empty((m, m))
    if not free_cholesky(K, y, F, m, L):
        return False
    # right-hand sides: r = e_F - Q_FB a_B (via G: Q a = G + e), v = y_F
    rhs = np.empty(m)
    v = np.empty(m)
    for p in range(m):
        i = F[p]
        acc = 0.0
        for q in range(m):
            j = F[q]
            acc += y[j] * alpha[j] * K[i, j]
        rhs[p] = 1.0 - (G[i] + 1.0 - y[i] * acc)
        v[p] = y[i]
    h = 0.0
    for i in range(n):
        if not (alpha[i] > 0.0 and alpha[i] < C):
            h -= y[i] * alpha[i]
    yu, yv = kkt_solve(L, m, y, F, rhs, v)  # rhs <- Q_FF^-1 rhs, v <- Q_FF^-1 y_F
    if yv <= 0.0:
        return False
    b = (yu - h) / yv
    d = np.empty(m)
    for p in range(m):
        d[p] = rhs[p] - b * v[p] - alpha[F[p]]
    t = box_step(alpha, C, F, m, d)
    # objective change t g.d + t^2/2 d^T Q d must be negative
    gd = 0.0
    dqd = 0.0
    for p in range(m):
        i = F[p]
        gd += G[i] * d[p]
        acc = 0.0
        for q in range(m):
            j = F[q]
            acc += y[i] * y[j] * K[i, j] * d[q]
        dqd += d[p] * acc
    if not (t > 0.0) or not (t * gd + 0.5 * t * t * dqd < 0.0):
        return False
    take_step(K, y, C, alpha, G, F, m, d, t)
    return True


@njit(cache=True, inline="always")  # inlined: callers keep the speed of their own loop
def warm_solve(K, y, C, alpha, polish, tol, max_iter):
    """Solve the dual from the feasible warm start ``alpha`` (updated in place): with ``polish``, first one
    :func:`newton_step` on the free set (after which the gradient is recomputed exactly, the step's update being
    incremental), then :func:`smo` to the tolerance. Returns ``(G, n_iter, gap)`` with G the final gradient. The
    solve of every stage of SVM-RFE, l2-AROM and the forward selection (polish from the second stage on)."""
    G = gradient(K, y, alpha)
    if polish and newton_step(K, y, C, alpha, G):
        G = gradient(K, y, alpha)
    it, gap = smo(K, y, C, alpha, G, tol, max_iter)
    return G, it, gap


#: The cause a warning names where a solve returned the gap ``inf`` (:func:`smo`).
UNBOUNDED_DUAL = ("the hard-margin dual is unbounded: no hyperplane separates the training classes (none with a "
                  f"margin above {MARGIN_FLOOR:g} of the samples' spread)")


def as_pm1_float(y):
    y = np.ascontiguousarray(y, dtype=np.float64)
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("labels y for the SVM dual must be in {-1, +1}; map them with genesel._core.validation.to_pm1")
    return y


# A warm start y^T a may be off 0 by rounding: every SMO step keeps y^T a exact in exact arithmetic, but after
# millions of steps with large dual variables (hard margin near non-separability) the float sum drifts. Drifts up
# to this fraction of sum(a) are rounding and are repaired; larger ones mean a wrong alpha0 and are refused.
_EQUALITY_DRIFT = 1e-6


def restore_equality(alpha, y, max_drift=_EQUALITY_DRIFT):
    """Return ``alpha`` (modified in place) with y^T alpha = 0 restored after rounding drift, or raise if the
    drift exceeds ``max_drift`` * sum(alpha) (``None``: any drift is repaired; for a solver's own previous
    solution on the same labels, whose every violation is rounding).

    The residual r = y^T a is removed from the class that carries the excess by scaling that class's
    multipliers down by the factor 1 - |r| / (its sum) (that sum is at least |r|, so the factor is in [0, 1)):
    the box 0 <= a <= C is kept and zero stays zero. Any feasible point is a valid warm start of the convex dual,
    so the optimum reached does not depend on the repair.
    """
    r = float(alpha @ y)
    total = float(alpha.sum())
    if abs(r) <= 1e-8 * max(1.0, total):
        return alpha
    if max_drift is not None and abs(r) > max_drift * max(1.0, total):
        raise ValueError(
            "alpha0 is not feasible for the SVM dual (need 0 <= alpha <= C and y @ alpha == 0; "
            f"y @ alpha = {r:.3g} for sum(alpha) = {total:.3g})")
    side = y > 0 if r > 0 else y < 0  # the class whose multipliers sum to more
    alpha[side] *= 1.0 - abs(r) / float(alpha[side].sum())
    return alpha


def solve_dual(K, y, C=1.0, *, tol=1e-6, max_iter=None, alpha0=None):
    """Solve the C-SVM dual on a precomputed Gram matrix.

    Parameters
    ----------
    K : (n, n) symmetric positive semi-definite Gram matrix.
    y : (n,) labels in {-1, +1}.
    C : box constraint (``np.inf`` for the hard margin).
    tol : stopping tolerance on the maximal-violating-pair gap (LIBSVM's ``eps``).
    max_iter : SMO iteration cap (default ``max(10_000_000, 100 n)``).
    alpha0 : warm start; must be feasible (0 <= a <= C, y^T a = 0), e.g. a previous solution for the same
        samples and C. A rounding drift of y^T a (up to 1e-6 of sum(a)) is repaired, a larger one refused.

    Returns
    -------
    dict with ``alpha`` (n,), ``rho`` (decision = sum a_i y_i K(x_i, x) - rho), ``n_iter``, ``gap``,
    ``converged`` and ``objective`` (dual objective 1/2 a^T Q a - e^T a).
    """
    K = np.ascontiguousarray(K, dtype=np.float64)
    n = K.shape[0]
    if K.ndim != 2 or K.shape[1] != n:
        raise ValueError(f"K must be a square Gram matrix, got shape {K.shape}")
    y = as_pm1_float(y)
    if y.shape[0] != n:
        raise ValueError(f"shape mismatch: K is {n} x {n} but y has {y.shape[0]} labels")
    C = float(C)
    if not C > 0:
        raise ValueError(f"C must be > 0 (np.inf for a hard margin), got {C}")
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)
    if alpha0 is None:
        alpha = np.zeros(n)
    else:
        alpha = np.array(alpha0, dtype=np.float64, copy=True)
        if alpha.shape != (n,):
            raise ValueError(f"alpha0 must have shape ({n},), got {alpha.shape}")
        if np.any(alpha < 0) or np.any(alpha > C):
            raise ValueError("alpha0 is not feasible for the SVM dual (need 0 <= alpha <= C and y @ alpha == 0)")
        alpha = restore_equality(alpha, y)
    G = gradient(K, y, alpha)
    n_iter, gap = smo(K, y, C, alpha, G, float(tol), int(max_iter))
    b = rho(y, C, alpha, G)
    obj = 0.5 * float(alpha @ (G - 1.0))  # 1/2 a^T Q a - e^T a = 1/2 a^T (G + e) - e^T a
    return {
        "alpha": alpha,
        "rho": float(b),
        "n_iter": int(n_iter),
        "gap": float(gap),
        "converged": bool(gap < tol),
        "objective": obj,
        "gradient": G,
    }


def dual_objective(K, y, alpha):
    """1/2 a^T Q a - e^T a for Q_ij = y_i y_j K_ij (the quantity the solver minimises)."""
    c = np.asarray(alpha) * np.asarray(y, dtype=float)
    return 0.5 * float(c @ np.asarray(K) @ c) - float(np.sum(alpha))


def kkt_violation(K, y, alpha, C):
    """Maximal-violating-pair gap m(a) - M(a) (<= tol at a tol-optimal point) and the equality residual."""
    y = np.asarray(y, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    G = y * (np.asarray(K) @ (alpha * y)) - 1.0
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    m = np.max(-y[up] * G[up]) if up.any() else -np.inf
    M = np.min(-y[low] * G[low]) if low.any() else np.inf
    return float(m - M), float(abs(alpha @ y))
