"""ALMA_p and the ALMA-based gene selection family (ALMA-FS, ALMA_ln-RFE, ALMA_2-RFE, x-CORR).

Gentile, C. (2003). *Fast Feature Selection from Microarray Expression Data via Multiplicative Large Margin
Algorithms*. NIPS 16, pp. 121-128.

* Figure 1 (section 3): ``ALMA_p(S, alpha)``, the approximate large margin algorithm w.r.t. norm p >= 2 with dual
  norm q = p/(p-1). Instances are normalised by their p-norm, ``x^ = x / ||x||_p``; start with ``w_1 = 0, k = 1``;
  for each example in turn set

      gamma_k = sqrt(8 (p-1)) / (alpha sqrt(k)),      eta_k = sqrt(2 / (p-1)) / sqrt(k),

  and if ``y_t w_k . x^_t <= (1 - alpha) gamma_k`` update

      w'_k = T^-1( T(w_k) + eta_k y_t x^_t ),     w_{k+1} = w'_k / ||w'_k||_q,     k <- k + 1,

  where ``T = grad 1/2 ||.||_q^2`` and ``T^-1 = grad 1/2 ||.||_p^2`` are the p-norm link functions
  (Grove, Littlestone & Schuurmans 2001; both are the identity for p = 2). The output is the last ``w_k`` and the
  margin ``gamma = gamma_k``. Training sweeps over the training set several times (50 or 100 cycles in the paper).
* Theorem 1 (from Gentile 2001, JMLR 2): on data separable with p-norm margin gamma*, the number of updates is at
  most ``2 (p-1) / gamma*^2 (2/alpha - 1)^2 + 8/alpha - 4`` and ``gamma_k >= gamma >= gamma*`` throughout.
  :func:`theorem1_update_bound` evaluates it.
* Figure 2 (section 4): ``ALMA-FS(S, alpha)``. Repeat: ``p = max{2, ln f}`` for the f current features, run
  ``ALMA_p`` on S restricted to F, sort ``|w_i|`` decreasingly and keep the smallest ``f*`` such that
  ``sum_{j <= f*} |w_(j)|^q >= 1 - (c(alpha) gamma)^q`` (Eq. 1) with ``c(alpha) = alpha (1 - alpha)``; until F no
  longer shrinks.  ``ALMA_ln-RFE(S, n_f)`` replaces Eq. 1 by ``f* = max{floor(f/2), n_f}``; ``ALMA_2-RFE`` is the
  same halving with p = 2 (a fast approximation of SVM-RFE).
* Section 5: ``ALMA_2-CORR`` and ``ALMA_ln-CORR`` rank genes by Golub's correlation (signal-to-noise) criterion
  and train ALMA_2 or ALMA_{ln f} on the f top genes.

Implementation notes
--------------------
* The numba kernel keeps ``theta_k = T(w_k)`` instead of ``w_k``. Since T and T^-1 are positively homogeneous of
  degree 1 and ``||T^-1(theta)||_q = ||theta||_p``, Figure 1's update is exactly ``theta' = theta_k + eta_k y_t
  x^_t``, ``theta_{k+1} = theta' / ||theta'||_p``, ``w_{k+1} = T^-1(theta_{k+1})`` (one power per component per
  update). The literal Figure 1 (T, add, T^-1, q-normalise) is the plain-Python twin in ``tests/naive/alma.py``
  and the tests check the two agree.
* The division by ``||theta'||_p`` is applied lazily (as a scale factor in the next update's pass), and
  ``|theta_i|^(p-1)`` uses :func:`genesel.fastmath.pow_pos`, a branch-free power that vectorises (relative
  error ~1e-14 against the C library's pow).
* Active block (p != 2): a column whose ``|theta_i|^p`` is below ``2^-53 / f`` of ``||theta||_p^p`` changes the
  p-norm by less than one rounding unit and ``w . x`` by less than ~1e-15 (Hoelder), so it is left out of w (set
  to 0) until it grows past that level; such columns are still updated every step (an exact test per column
  moves them into the block, which only grows). The kernel keeps the block first by swapping columns of its
  private copy of the data and reports w in the caller's column order; the final w is computed on all columns.
  Trajectories (updates, cycles) equal the dense computation's and weights agree to ~1e-15 (tested).
  On Singh's prostate data (12600 genes, p = ln f = 9.4) the block ends at roughly half the genes.
* ALMA_2 with more genes than twice the samples runs in the dual (``_alma2_dual_core``): with ``w = sum_t a_t
  x^_t`` and the Gram matrix of the normalised rows, a check costs O(1) and an update O(m), so a fit costs about
  one Gram matrix (one BLAS call). Same steps and weights as the primal kernel to rounding (tested).
* Early stop: once a whole sweep over the training set makes no update, neither w_k nor k changes any more, so all
  remaining cycles would be no-ops; the kernel stops there (``converged_ = True``). This is exact, not a heuristic.
* The order of the examples is drawn outside the kernel (``random_state``): one random permutation of the
  training set, swept ``n_cycles`` times (the paper's "random permutations of the training set"). With
  ``shuffle=False`` the order of the rows as given is used (e.g. a permuted training order from
  :func:`genesel.experiments.permuted_training_orders`).
* If an update cancels w exactly (``w'_k = 0``, possible with one feature), ``w_{k+1} = 0`` (Figure 1 leaves
  0/0 undefined).
* A sample whose (restricted) expression vector is all zero has no p-normalised instance; it is skipped during
  training (it cannot move w) and gets decision value 0 (predicted as the +1 class, ``sign(0) = +1`` as in
  section 2).
* Labels: the larger of the two labels (``classes_[1]``) is the +1 class, as everywhere in genesel.
* No preprocessing and no bias: hyperplanes pass through the origin, as in the paper.
"""

from __future__ import annotations

import math
import numbers
import time

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.pipeline import Pipeline
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel.fastmath import dot, pow_pos
from genesel.threads import single_blas_thread
from genesel.validation import to_pm1

__all__ = [
    "ALMA",
    "ALMAFS",
    "ALMARFE",
    "CorrelationSelector",
    "make_corr_pipeline",
    "link_T",
    "link_T_inv",
    "pnorm_margin",
    "resolve_p",
    "theorem1_update_bound",
    "fs_cut",
    "c_alpha",
    "table1_split",
    "TABLE1_ALGORITHMS",
    "TABLE1_PROTOCOL",
    "table1_cell",
    "paper_table1",
    "table1_best_alpha",
    "table1_wilcoxon",
    "gene_selection_frequency",
]


# ----------------------------------------------------------------------------------------------------------------
# numba kernels (plain-Python twins in tests/naive/alma.py)
# ----------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def _row_pnorms(X, p):
    """p-norm of every row of X (scaled by the row's max |x| so that |x|^p cannot overflow)."""
    m, f = X.shape
    out = np.zeros(m)
    for t in range(m):
        mx = 0.0
        for i in range(f):
            a = abs(X[t, i])
            if a > mx:
                mx = a
        if mx == 0.0:
            continue
        s = 0.0
        if p == 2.0:
            for i in range(f):
                v = X[t, i] / mx
                s += v * v
            out[t] = mx * math.sqrt(s)
        else:
            for i in range(f):
                a = abs(X[t, i]) / mx
                if a > 0.0:
                    s += a**p
            out[t] = mx * s ** (1.0 / p)
    return out


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _swap_columns(Xn, theta, perm, i, j):
    """Exchange columns i and j of Xn (and of theta, perm)."""
    if i == j:
        return
    for r in range(Xn.shape[0]):
        v = Xn[r, i]
        Xn[r, i] = Xn[r, j]
        Xn[r, j] = v
    v = theta[i]
    theta[i] = theta[j]
    theta[j] = v
    pi = perm[i]
    perm[i] = perm[j]
    perm[j] = pi


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _axpy_detect(theta, xt, sc, c, lo, hi, tha):
    """theta[lo:hi] = sc theta + c x; returns how many |theta_i| now exceed ``tha``."""
    cnt = 0
    for i in range(lo, hi):
        v = theta[i] * sc + c * xt[i]
        theta[i] = v
        cnt += abs(v) > tha
    return cnt


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _active_update(theta, xt, wr, sc, c, n, e, is2):
    """On the active block [0, n): theta = sc theta + c x, wr = sign(theta) |theta|^e (e = p - 1)."""
    if is2:
        for i in range(n):
            v = theta[i] * sc + c * xt[i]
            theta[i] = v
            wr[i] = v
    else:
        for i in range(n):
            v = theta[i] * sc + c * xt[i]
            theta[i] = v
            ap = pow_pos(abs(v), e)
            wr[i] = ap if v >= 0.0 else -ap


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _link_block(theta, wr, lo, hi, e, is2):
    """wr[lo:hi] = sign(theta) |theta|^e (theta unchanged)."""
    for i in range(lo, hi):
        v = theta[i]
        ap = abs(v) if is2 else pow_pos(abs(v), e)
        wr[i] = ap if v >= 0.0 else -ap


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _alma_core(Xn, y, order, p, alpha, n_cycles, truncate):
    """ALMA_p (Figure 1) on p-normalised rows ``Xn``, sweeping ``order`` up to ``n_cycles`` times.

    ``Xn`` is permuted in place (columns; ``perm`` maps positions back to columns). Returns
    ``(w, k, n_updates, cycles_run, converged)`` with w in the original column order; the final margin is
    gamma_k with this k. See the module docstring (implementation notes) for the bookkeeping.
    """
    m, f = Xn.shape
    theta = np.zeros(f)  # T(w_k) before the pending scale ``sc``: T(w_k) = sc * theta
    wr = np.zeros(f)  # w_k = wsc * wr on the active block [0, n_act)
    perm = np.arange(f)
    is2 = p == 2.0
    e = p - 1.0
    # active block: columns whose |theta_i|^p may exceed 2^-53 / f of ||theta||_p^p (see the notes)
    c_f = (2.0**-53 / f) ** (1.0 / p) if truncate and not is2 else 0.0
    n_act = f if c_f == 0.0 else 0
    sc = 1.0
    wsc = 0.0
    fresh = True  # theta = 0 (start, or after an update cancelled w exactly)
    k = 1
    n_updates = 0
    cycles_run = 0
    converged = False
    cg = math.sqrt(8.0 * e) / alpha
    ce = math.sqrt(2.0 / e)
    thr = 1.0 - alpha
    for _c in range(n_cycles):
        cycles_run += 1
        updated = False
        for j in range(order.shape[0]):
            t = order[j]
            xt = Xn[t]
            sqk = math.sqrt(k)
            marg = y[t] * (wsc * dot(wr, xt, n_act)) if not fresh else 0.0
            if marg > thr * (cg / sqk):
                continue
            c = y[t] * ce / sqk
            n_old = n_act
            if n_act < f:
                # lower bound on ||T(w_k) + c x||_p (= |c| from theta = 0; else >= 1 - |c|)
                nlb = abs(c) if fresh else 1.0 - abs(c)
                tha = c_f * nlb if nlb > 0.0 else 0.0
                if _axpy_detect(theta, xt, sc, c, n_act, f, tha) > 0:
                    for i in range(n_act, f):
                        if abs(theta[i]) > tha:
                            _swap_columns(Xn, theta, perm, i, n_act)
                            n_act += 1
            _active_update(theta, xt, wr, sc, c, n_old, e, is2)
            _link_block(theta, wr, n_old, n_act, e, is2)  # columns that just entered: theta is up to date
            s = dot(wr, theta, n_act)  # ||theta'||_p^p  (sum |theta_i|^(p-1) |theta_i|)
            k += 1
            n_updates += 1
            updated = True
            if s == 0.0:  # w' = 0 exactly (possible with one feature): restart from w = 0
                for i in range(f):
                    theta[i] = 0.0
                    wr[i] = 0.0
                sc = 1.0
                wsc = 0.0
                fresh = True
                continue
            nrm = s ** (1.0 / p)
            sc = 1.0 / nrm  # theta_{k+1} = theta' / ||theta'||_p, applied lazily in the next update
            wsc = nrm / s  # w_{k+1} = T^-1(theta_{k+1}) = wr / nrm^(p-1)
            fresh = False
        if not updated:
            converged = True
            break
    w = np.zeros(f)
    if not fresh:
        for i in range(f):
            v = theta[i] * sc
            a = abs(v)
            wi = a if is2 else pow_pos(a, e)
            w[perm[i]] = wi if v >= 0.0 else -wi
    return w, k, n_updates, cycles_run, converged, n_act


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _alma2_dual_core(K, y, order, alpha, n_cycles):
    """ALMA_2 (Figure 1 with p = 2) in the dual: ``w_k = sum_t a_t x^_t`` with K the Gram matrix of the
    normalised rows ``x^_t``. Keeps ``g = K a`` (``g_s = w_k . x^_s``), so a check costs O(1) and an update
    O(m): ``a_t += eta_k y_t``, ``g += eta_k y_t K[t]``, then both are divided by ``||w'||_2 = sqrt(a . g)``; g is
    recomputed from a every 64 updates so rounding cannot drift. Same steps as :func:`_alma_core` with p = 2.

    Returns ``(a, k, n_updates, cycles_run, converged)``.
    """
    m = K.shape[0]
    a = np.zeros(m)
    g = np.zeros(m)
    k = 1
    n_updates = 0
    cycles_run = 0
    converged = False
    cg = math.sqrt(8.0) / alpha
    ce = math.sqrt(2.0)
    thr = 1.0 - alpha
    for _c in range(n_cycles):
        cycles_run += 1
        updated = False
        for j in range(order.shape[0]):
            t = order[j]
            sqk = math.sqrt(k)
            if y[t] * g[t] > thr * (cg / sqk):
                continue
            c = y[t] * ce / sqk
            a[t] += c
            k += 1
            n_updates += 1
            updated = True
            if n_updates % 64 == 0:
                for s in range(m):
                    g[s] = dot(K[s], a, m)
            else:
                Kt = K[t]
                for s in range(m):
                    g[s] += c * Kt[s]
            n2 = dot(a, g, m)
            if n2 <= 0.0:  # w' = 0 exactly: restart from w = 0
                for s in range(m):
                    a[s] = 0.0
                    g[s] = 0.0
                continue
            inv = 1.0 / math.sqrt(n2)
            for s in range(m):
                a[s] *= inv
                g[s] *= inv
        if not updated:
            converged = True
            break
    return a, k, n_updates, cycles_run, converged


def _alma_kernel(Xn, y, order, p, alpha, n_cycles, truncate=True, inplace=False, with_active=False):
    """ALMA_p on p-normalised rows (see :func:`_alma_core`); ``Xn`` is copied unless ``inplace``.

    Returns ``(w, k, n_updates, cycles_run, converged)``, plus the final size of the active block if
    ``with_active``."""
    Xn = Xn if inplace else np.array(Xn, dtype=np.float64, order="C", copy=True)
    out = _alma_core(Xn, np.asarray(y, dtype=np.float64), np.asarray(order, dtype=np.int64), float(p),
                     float(alpha), int(n_cycles), bool(truncate))
    return out if with_active else out[:5]


# ----------------------------------------------------------------------------------------------------------------
# Link functions, margins, bounds (public helpers; plain numpy)
# ----------------------------------------------------------------------------------------------------------------


def _check_p(p, name="p"):
    if isinstance(p, str):
        if p != "ln":
            raise ValueError(f"{name} must be a number >= 2 or the string 'ln' (p = max(2, ln f)), got {p!r}")
        return p
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or not np.isfinite(p) or p < 2:
        raise ValueError(f"{name} must be a finite number >= 2 or 'ln', got {p!r}")
    return float(p)


def resolve_p(p, n_features: int) -> float:
    """The norm actually used: ``p`` itself, or ``max(2, ln f)`` for ``p == "ln"`` (paper's footnote 4)."""
    p = _check_p(p)
    if p == "ln":
        return max(2.0, math.log(n_features)) if n_features > 0 else 2.0
    return p


def _dual(p: float) -> float:
    return p / (p - 1.0)


def _grad_half_sq_norm(v, r):
    """Gradient of 1/2 ||v||_r^2: sign(v_i) |v_i|^(r-1) / ||v||_r^(r-2) (0 at v = 0)."""
    v = np.asarray(v, dtype=float)
    nrm = np.linalg.norm(v, ord=r) if v.size else 0.0
    if nrm == 0.0:
        return np.zeros_like(v)
    u = v / nrm  # homogeneity: grad(v) = nrm * grad(u) with ||u||_r = 1
    return nrm * np.sign(u) * np.abs(u) ** (r - 1.0)


def link_T(w, p):
    """The link function T = grad 1/2 ||w||_q^2 of ALMA_p (q = p/(p-1)); identity for p = 2."""
    p = resolve_p(p, np.size(w))
    return _grad_half_sq_norm(w, _dual(p))


def link_T_inv(theta, p):
    """The inverse link T^-1 = grad 1/2 ||theta||_p^2; ``link_T_inv(link_T(w, p), p) == w``."""
    p = resolve_p(p, np.size(theta))
    return _grad_half_sq_norm(theta, p)


def pnorm_margin(w, X, y, p):
    """Normalised p-norm margins ``y_t w . x_t / (||w||_q ||x_t||_p)`` of every example (section 2)."""
    X = np.asarray(X, dtype=float)
    p = resolve_p(p, X.shape[1])
    xn = _row_pnorms(np.ascontiguousarray(X), p)
    wq = np.linalg.norm(np.asarray(w, dtype=float), ord=_dual(p))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.asarray(y) * (X @ w) / (xn * wq)
    return np.where(xn > 0, out, 0.0)


def theorem1_update_bound(p, alpha, gamma_star):
    """Theorem 1: at most ``2 (p-1)/gamma*^2 (2/alpha - 1)^2 + 8/alpha - 4`` updates on separable data."""
    return 2.0 * (p - 1.0) / gamma_star**2 * (2.0 / alpha - 1.0) ** 2 + 8.0 / alpha - 4.0


def c_alpha(alpha):
    """The paper's c(alpha) = alpha (1 - alpha) used by ALMA-FS (section 4)."""
    return alpha * (1.0 - alpha)


def fs_cut(w, p, c_gamma):
    """ALMA-FS rule (Eq. 1): indices of the f* largest |w_i|, f* the smallest count with
    ``sum_{j<=f*} |w_(j)|^q >= 1 - c_gamma^q`` (computed relative to ``||w||_q^q``, which is 1 up to rounding).

    At least one feature is kept (when ``c_gamma >= 1`` the rule would keep none). Ties in |w| are broken by
    column index (stable sort). Returns the kept column indices in increasing order.
    """
    w = np.asarray(w, dtype=float)
    q = _dual(p)
    order = np.argsort(-np.abs(w), kind="stable")
    mass = np.abs(w[order]) ** q
    total = mass.sum()
    thresh = (1.0 - c_gamma**q) * total
    if thresh <= 0.0 or total == 0.0:
        f_star = 1
    else:
        cs = np.cumsum(mass)
        f_star = int(np.searchsorted(cs, thresh, side="left")) + 1
        f_star = min(max(f_star, 1), w.size)
    return np.sort(order[:f_star])


# ----------------------------------------------------------------------------------------------------------------
# Fitting helpers
# ----------------------------------------------------------------------------------------------------------------


def _check_alpha(alpha):
    if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or not (0.0 < alpha <= 1.0):
        raise ValueError(f"alpha must be a number in (0, 1] (approximation parameter of ALMA_p), got {alpha!r}")
    return float(alpha)


def _check_cycles(n_cycles):
    if not isinstance(n_cycles, numbers.Integral) or isinstance(n_cycles, bool) or n_cycles < 1:
        raise ValueError(f"n_cycles must be a positive integer (sweeps over the training set), got {n_cycles!r}")
    return int(n_cycles)


def _check_binary_target(y):
    check_classification_targets(y)
    y_type = type_of_target(y, input_name="y")
    if y_type != "binary":
        raise ValueError(f"Only binary classification is supported. The type of the target is {y_type}. "
                         "The methods of Gentile (2003) are binary: build a two-class task first (e.g. one class "
                         "against the rest)")


def _training_order(n, shuffle, random_state):
    if shuffle:
        return check_random_state(random_state).permutation(n).astype(np.int64)
    return np.arange(n, dtype=np.int64)


def _alma2_dual(X, norms, y, order, alpha, n_cycles, G=None):
    """ALMA_2 through the Gram matrix of the normalised rows (:func:`_alma2_dual_core`); returns the kernel tuple.

    ``G`` optionally passes the Gram matrix ``X X^T`` already computed."""
    inv = np.where(norms > 0, 1.0 / np.where(norms > 0, norms, 1.0), 0.0)
    K = (X @ X.T if G is None else G) * inv[:, None] * inv[None, :]
    a, k, n_upd, cyc, conv = _alma2_dual_core(np.ascontiguousarray(K), np.asarray(y, dtype=np.float64),
                                              np.asarray(order, dtype=np.int64), float(alpha), int(n_cycles))
    w = (a * inv) @ X  # w = sum_t a_t x_t / ||x_t||_2
    return w, k, n_upd, cyc, conv


def _alma_run(X, y, p, alpha, n_cycles, order):
    """Normalise the rows of X by their p-norm and run the kernel. X: C-contiguous float64, y: float64 +-1.

    ALMA_2 with more genes than twice the samples runs in the dual (Gram matrix, O(m) per step instead of O(f)).
    """
    dual = p == 2.0 and X.shape[1] > 2 * X.shape[0]
    with np.errstate(over="ignore", invalid="ignore"), single_blas_thread():
        G = X @ X.T if dual else None  # an overflowing Gram matrix sends us to the primal below
        norms = np.sqrt(np.diag(G)) if dual else None  # the row 2-norms come with the Gram matrix
    if norms is None or not np.all(np.isfinite(norms)):
        norms = _row_pnorms(X, p)  # scaled: no overflow whatever the magnitudes
    nz = norms > 0
    order = order[nz[order]]
    if dual and np.all(np.isfinite(G)):
        w, k, n_upd, cyc, conv = _alma2_dual(X, norms, y, order, alpha, n_cycles, G=G)
    else:
        Xn = X / np.where(nz, norms, 1.0)[:, None]
        w, k, n_upd, cyc, conv = _alma_kernel(Xn, y, order, p, alpha, n_cycles, inplace=True)
    gamma = math.sqrt(8.0 * (p - 1.0)) / (alpha * math.sqrt(k))
    return w, gamma, int(n_upd), int(cyc), bool(conv)


def _decision(X, w, p):
    X = np.ascontiguousarray(X, dtype=np.float64)
    norms = _row_pnorms(X, p)
    raw = X @ w
    return np.where(norms > 0, raw / np.where(norms > 0, norms, 1.0), 0.0)


def _elimination_path(X, y, *, alpha, n_cycles, order, rule, p_mode, n_target=1, first=None):
    """Run the repeat-until loop of Figure 2 (rule "fs") or the halving RFE variant (rule "halve").

    Returns (F, w, p, gamma, stages, elim_stage) with F the surviving column indices (increasing), w, p and gamma
    ALMA's weights on F, norm and final margin from the last stage (the one that no longer shrank F), ``stages``
    a list of per-stage dicts and
    ``elim_stage[i]`` the stage at which column i was removed (-1 if it survived). ``first`` optionally gives
    the first stage's weights (ALMA on all columns with the same order and p), computed elsewhere.
    """
    n = X.shape[1]
    F = np.arange(n)
    elim_stage = np.full(n, -1, dtype=np.int64)
    stages = []
    Xc = X
    while True:
        f = F.size
        p = resolve_p(p_mode, f)
        if first is not None and f == n:
            w, gamma, n_upd, cyc, conv = first
        else:
            w, gamma, n_upd, cyc, conv = _alma_run(Xc, y, p, alpha, n_cycles, order)
        if rule == "fs":
            keep = fs_cut(w, p, c_alpha(alpha) * gamma)
        else:
            f_star = max(f // 2, n_target)
            if f_star >= f:
                keep = np.arange(f)
            else:
                keep = np.sort(np.argsort(-np.abs(w), kind="stable")[:f_star])
        stages.append(dict(n_features=f, p=p, gamma=gamma, n_updates=n_upd, n_cycles=cyc, converged=conv,
                           n_kept=int(keep.size)))
        if keep.size >= f:
            return F, w, p, gamma, stages, elim_stage
        mask = np.ones(f, dtype=bool)
        mask[keep] = False
        elim_stage[F[mask]] = len(stages) - 1
        F = F[keep]
        Xc = np.ascontiguousarray(X[:, F])


# ----------------------------------------------------------------------------------------------------------------
# Estimators
# ----------------------------------------------------------------------------------------------------------------


class _ALMABase(ClassifierMixin, BaseEstimator):
    def _validate_common(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", ensure_min_samples=2)
        _check_binary_target(y)
        y_pm1, classes = to_pm1(y)
        self.classes_ = classes
        self._alpha = _check_alpha(self.alpha)
        self._cycles = _check_cycles(self.n_cycles)
        order = _training_order(X.shape[0], self.shuffle, self.random_state)
        return X, y_pm1.astype(np.float64), order

    def decision_function(self, X):
        """Normalised margin ``w . x / ||x||_p`` on the selected genes (positive means ``classes_[1]``)."""
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        sup = self._support_idx
        return _decision(X[:, sup], self.coef_[0, sup], self.p_)

    def predict(self, X):
        d = self.decision_function(X)
        return self.classes_[(d >= 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class ALMA(_ALMABase):
    """ALMA_p(alpha), Gentile (2003) Figure 1: approximate maximal p-norm margin hyperplane through the origin.

    Parameters
    ----------
    p : float >= 2 or "ln"
        Norm of the instances (weights use the dual norm q = p/(p-1)). ``"ln"`` means ``max(2, ln f)`` for the f
        features seen in ``fit`` (the multiplicative, Winnow-like regime); ``p = 2`` is the additive, SVM-like
        ALMA_2.
    alpha : float in (0, 1]
        Approximation parameter: on separable data the output is an alpha-approximation of the maximal margin
        hyperplane (margin >= (1 - alpha) gamma*). The paper uses alpha in {0.5, ..., 0.9}.
    n_cycles : int
        Maximal number of sweeps over the training set (50 or 100 in the paper); stops early, exactly, after a
        sweep without update.
    shuffle : bool
        Sweep a random permutation of the training set (drawn from ``random_state``) instead of the given order.
    random_state : int, RandomState or None

    Attributes
    ----------
    coef_ : ndarray (1, n_features)    final weight vector w_k (||w_k||_q = 1)
    intercept_ : ndarray (1,)          always 0 (hyperplanes through the origin)
    gamma_ : float                     final margin gamma = gamma_k (an upper bound on the true margin)
    p_ : float                         norm actually used
    n_updates_ : int                   number of updates (k - 1)
    n_cycles_ : int                    sweeps actually run
    converged_ : bool                  True if the last sweep made no update
    classes_ : ndarray (2,)
    """

    def __init__(self, p=2, alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.p = p
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y):
        _check_p(self.p)
        X, y, order = self._validate_common(X, y)
        p = resolve_p(self.p, X.shape[1])
        w, gamma, n_upd, cyc, conv = _alma_run(X, y, p, self._alpha, self._cycles, order)
        self.coef_ = w[None, :]
        self.intercept_ = np.zeros(1)
        self.gamma_ = gamma
        self.p_ = p
        self.n_updates_ = n_upd
        self.n_cycles_ = cyc
        self.converged_ = conv
        self._support_idx = np.arange(X.shape[1])
        return self


class _ALMASelectorBase(SelectorMixin, _ALMABase):
    def _fit_path(self, X, y, order, *, rule, p_mode, n_target=1):
        t0 = time.perf_counter()
        F, w, p, gamma, stages, elim = _elimination_path(X, y, alpha=self._alpha, n_cycles=self._cycles,
                                                        order=order, rule=rule, p_mode=p_mode, n_target=n_target)
        n = X.shape[1]
        coef = np.zeros(n)
        coef[F] = w
        self.coef_ = coef[None, :]
        self.intercept_ = np.zeros(1)
        self.support_ = np.zeros(n, dtype=bool)
        self.support_[F] = True
        n_st = len(stages)
        # ranking_: 1 = selected; features removed in the last eliminating stage get 2, the stage before 3, ...
        self.ranking_ = np.where(elim < 0, 1, n_st - elim).astype(np.int64)
        self.n_features_ = int(F.size)
        self.p_ = p
        self.gamma_ = gamma
        self.stages_ = stages
        self.n_updates_ = int(sum(s["n_updates"] for s in stages))
        self.converged_ = stages[-1]["converged"]
        self.fit_time_ = time.perf_counter() - t0
        self._support_idx = F
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_


class ALMAFS(_ALMASelectorBase):
    """ALMA-FS(alpha), Gentile (2003) Figure 2: backward elimination that picks the number of genes itself.

    Each stage runs ALMA_p with ``p = max(2, ln f)`` on the f surviving genes and keeps the smallest set of largest
    weights holding ``1 - (c(alpha) gamma)^q`` of ``||w||_q^q`` (c(alpha) = alpha (1 - alpha)); stops when no gene
    is dropped. A classifier (the final stage's ALMA_p on the selected genes) and a selector (``transform``).

    Attributes: ``support_``, ``ranking_`` (1 = selected, 2 = dropped at the last eliminating stage, ...),
    ``n_features_``, ``coef_`` (1, n_features_in_; zero off the support), ``gamma_``, ``p_`` (final stage),
    ``stages_`` (list of dicts: n_features, p, gamma, n_updates, n_cycles, converged, n_kept), ``n_updates_``
    (over all stages), ``fit_time_`` (seconds).
    """

    def __init__(self, alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y):
        X, y, order = self._validate_common(X, y)
        return self._fit_path(X, y, order, rule="fs", p_mode="ln")


class ALMARFE(_ALMASelectorBase):
    """ALMA_ln-RFE(n_f) (``p="ln"``) or ALMA_2-RFE(n_f) (``p=2``), Gentile (2003) section 4.

    Figure 2 with Eq. 1 replaced by ``f* = max(floor(f/2), n_f)``: halve the genes by |w_i| at each stage until
    ``n_features_to_select`` remain; the final ALMA_p is trained on them (p = max(2, ln n_f) for "ln").
    Attributes as :class:`ALMAFS`.
    """

    def __init__(self, n_features_to_select=20, p="ln", alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.p = p
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y):
        _check_p(self.p)
        nf = self.n_features_to_select
        if not isinstance(nf, numbers.Integral) or isinstance(nf, bool) or nf < 1:
            raise ValueError(f"n_features_to_select must be a positive integer, got {nf!r}")
        X, y, order = self._validate_common(X, y)
        return self._fit_path(X, y, order, rule="halve", p_mode=self.p, n_target=min(int(nf), X.shape[1]))


def _golub_scores(X, y_pm1):
    """Golub's correlation P(g) = (mu+ - mu-)/(sd+ + sd-) via genesel.filters.signal_to_noise (class +1 positive)."""
    from genesel.filters import signal_to_noise

    return np.asarray(signal_to_noise(X, y_pm1), dtype=float)


def _corr_top(scores, n, balanced):
    """Top-n genes by Golub's correlation. ``balanced``: n/2 most positive and n/2 most negative (Golub 1999)."""
    f = scores.size
    n = min(n, f)
    s = np.where(np.isnan(scores), 0.0, scores)
    if not balanced:
        return np.sort(np.argsort(-np.abs(s), kind="stable")[:n])
    n_pos = (n + 1) // 2
    pos = np.argsort(-s, kind="stable")[:n_pos]
    rest = np.setdiff1d(np.arange(f), pos)
    neg = rest[np.argsort(s[rest], kind="stable")[: n - n_pos]]
    return np.sort(np.concatenate([pos, neg]))


class CorrelationSelector(SelectorMixin, BaseEstimator):
    """Golub et al. (1999) correlation filter, the "CORR" gene selection of Gentile (2003) section 5.

    Scores ``P(g) = (mu_+ - mu_-)/(sigma_+ + sigma_-)`` (``genesel.filters.signal_to_noise``) and keeps
    ``n_features_to_select`` genes: half with the largest and half with the most negative P (``balanced=True``,
    Golub's choice) or the largest |P| (``balanced=False``). Attributes ``scores_``, ``support_``, ``ranking_``
    (1 = best).
    """

    def __init__(self, n_features_to_select=20, balanced=True):
        self.n_features_to_select = n_features_to_select
        self.balanced = balanced

    def fit(self, X, y):
        nf = self.n_features_to_select
        if not isinstance(nf, numbers.Integral) or isinstance(nf, bool) or nf < 1:
            raise ValueError(f"n_features_to_select must be a positive integer, got {nf!r}")
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", ensure_min_samples=2)
        _check_binary_target(y)
        y_pm1, self.classes_ = to_pm1(y)
        self.scores_ = _golub_scores(X, y_pm1)
        sel = _corr_top(self.scores_, int(nf), self.balanced)
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[sel] = True
        key = np.abs(np.where(np.isnan(self.scores_), 0.0, self.scores_))
        rank = np.empty(X.shape[1], dtype=np.int64)
        rank[np.argsort(-key, kind="stable")] = np.arange(1, X.shape[1] + 1)
        self.ranking_ = rank
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_


def make_corr_pipeline(n_features_to_select=20, p=2, alpha=0.9, n_cycles=50, shuffle=True, random_state=None,
                       balanced=True):
    """ALMA_2-CORR (``p=2``) or ALMA_ln-CORR (``p="ln"``: ALMA_{ln f} on the f selected genes) as a Pipeline."""
    return Pipeline([
        ("corr", CorrelationSelector(n_features_to_select=n_features_to_select, balanced=balanced)),
        ("alma", ALMA(p=p, alpha=alpha, n_cycles=n_cycles, shuffle=shuffle, random_state=random_state)),
    ])


# ----------------------------------------------------------------------------------------------------------------
# Table 1 of the paper: one (data set, split, alpha) cell, all five algorithms, all gene counts
# ----------------------------------------------------------------------------------------------------------------

#: The five algorithms of Table 1 (column names as printed in the paper).
TABLE1_ALGORITHMS = ("2-RFE", "2-CORR", "ln-RFE", "FS", "ln-CORR")

#: Table 1 protocol per data set: (genesel data set, n_train or None for the predefined split, cycles).
TABLE1_PROTOCOL = {
    "Leukemia": ("golub", None, 100),
    "Colon": ("alon", 50, 50),
    "Breast": ("west", 40, 50),
    "Prostate": ("singh", 101, 100),
    "Lymphoma": ("alizadeh", 60, 50),
}


def _test_errors(X_te, y_te, F, w, p):
    if y_te.size == 0:
        return 0
    d = _decision(X_te[:, F], w, p)
    pred = np.where(d >= 0, 1, -1)
    return int(np.sum(pred != y_te))


def _rfe_multi(X, y, targets, *, p_mode, alpha, n_cycles, order, first=None):
    """ALMA_x-RFE for several n_f at once (the halving paths coincide until they branch).

    Returns ``{n_f: (F, w, p)}``. ``first`` optionally gives the (w, gamma) of ALMA on all columns (shared with
    ALMA-FS and the "all genes" row).
    """
    out = {}

    def rec(F, tg, pre):
        f = F.size
        p = resolve_p(p_mode, f)
        if pre is None:
            w = _alma_run(np.ascontiguousarray(X[:, F]), y, p, alpha, n_cycles, order)[0]
        else:
            w = pre
        deep = [t for t in tg if t <= f // 2]
        for t in tg:
            if t >= f:
                out[t] = (F, w, p)
        srt = np.argsort(-np.abs(w), kind="stable")
        if deep:
            rec(F[np.sort(srt[: f // 2])], deep, None)
        for t in tg:
            if f // 2 < t < f:
                rec(F[np.sort(srt[:t])], [t], None)

    rec(np.arange(X.shape[1]), sorted(set(int(t) for t in targets)), first)
    return out


_WARM = False


def _warm_up():
    """Compile (or load from numba's cache) every kernel once per process, so timings exclude the JIT."""
    global _WARM
    if _WARM:
        return
    X = np.array([[1.0, -2.0, 0.5], [-1.0, 1.0, 2.0], [0.3, 0.2, -1.0]])
    y = np.array([1.0, -1.0, 1.0])
    order = np.arange(3, dtype=np.int64)
    for p in (2.0, 3.0):
        Xn = X / _row_pnorms(X, p)[:, None]
        _alma_kernel(Xn, y, order, p, 0.5, 2)
    _alma2_dual(X, _row_pnorms(X, 2.0), y, order, 0.5, 2)
    _WARM = True


def table1_split(X_train, y_train, X_test, y_test, *, alpha, n_cycles, gene_counts=(20, 40, 60, 100, 200),
                 shuffle_seed=None, balanced=True):
    """All Table 1 entries for one training/test split and one alpha (Gentile 2003, section 5).

    Runs ALMA-FS; ALMA_ln-RFE and ALMA_2-RFE to each count in ``gene_counts`` and to ALMA-FS's own count;
    ALMA_2-CORR and ALMA_ln-CORR on the same counts; and ALMA_2 / ALMA_ln on all genes. Shares the identical
    runs (ALMA_ln on all genes is ALMA-FS's and ALMA_ln-RFE's first stage, ALMA_2 on all genes is ALMA_2-RFE's;
    the halving paths of different n_f coincide until they branch). The training order is the row order of
    ``X_train`` (``shuffle_seed=None``) or a permutation drawn from ``shuffle_seed``.

    Returns a list of dicts: ``algorithm``, ``genes`` (the row label: a count, ``"FS"`` or ``"all"``),
    ``n_genes`` (genes actually used), ``n_errors``, ``n_test``, ``error``; ALMA-FS's dict also has
    ``selected`` (column indices), ``fs_seconds`` (wall time of the ALMA-FS run) and ``fs_stages``.
    """
    _warm_up()
    Xtr = np.ascontiguousarray(X_train, dtype=np.float64)
    Xte = np.ascontiguousarray(X_test, dtype=np.float64)
    ytr = check_binary_labels_pm1(y_train)
    yte = np.asarray(y_test).astype(np.int64)
    a = _check_alpha(alpha)
    cyc = _check_cycles(n_cycles)
    n = Xtr.shape[1]
    order = _training_order(Xtr.shape[0], shuffle_seed is not None, shuffle_seed)
    yf = ytr.astype(np.float64)
    rows = []

    def add(alg, genes, F, w, p, **extra):
        ne = _test_errors(Xte, yte, F, w, p)
        rows.append(dict(algorithm=alg, genes=str(genes), n_genes=int(F.size), n_errors=ne, n_test=int(yte.size),
                         error=ne / max(yte.size, 1), **extra))

    # ALMA_ln and ALMA_2 on all genes (shared first stages)
    p_ln = resolve_p("ln", n)
    allF = np.arange(n)
    t0 = time.perf_counter()
    first_ln = _alma_run(Xtr, yf, p_ln, a, cyc, order)
    w_ln = first_ln[0]
    t_first = time.perf_counter() - t0
    w_2 = _alma_run(Xtr, yf, 2.0, a, cyc, order)[0]

    # ALMA-FS (its first stage is w_ln: rerun cheaply through the shared path)
    t0 = time.perf_counter()
    F_fs, w_fs, p_fs, _, stages, _ = _elimination_path(Xtr, yf, alpha=a, n_cycles=cyc, order=order, rule="fs",
                                                        p_mode="ln", first=first_ln)
    fs_seconds = time.perf_counter() - t0 + t_first
    n_fs = int(F_fs.size)
    add("FS", "FS", F_fs, w_fs, p_fs, selected=F_fs.tolist(), fs_seconds=fs_seconds, fs_stages=len(stages))

    counts = sorted(set(int(c) for c in gene_counts if c < n))
    targets = sorted(set(counts) | ({n_fs} if n_fs < n else set()))
    tag = {c: ([str(c)] if c in counts else []) + (["FS"] if c == n_fs and n_fs < n else []) for c in targets}

    for alg, p_mode, first in (("ln-RFE", "ln", w_ln), ("2-RFE", 2.0, w_2)):
        res = _rfe_multi(Xtr, yf, targets, p_mode=p_mode, alpha=a, n_cycles=cyc, order=order, first=first)
        for c in targets:
            F, w, p = res[c]
            for g in tag[c]:
                add(alg, g, F, w, p)
    scores = _golub_scores(Xtr, ytr)
    for c in targets:
        F = _corr_top(scores, c, balanced)
        Xc = np.ascontiguousarray(Xtr[:, F])
        for alg, p_mode in (("2-CORR", 2.0), ("ln-CORR", "ln")):
            p = resolve_p(p_mode, c)
            w = _alma_run(Xc, yf, p, a, cyc, order)[0]
            for g in tag[c]:
                add(alg, g, F, w, p)
    for alg, w, p in (("2-RFE", w_2, 2.0), ("2-CORR", w_2, 2.0), ("ln-RFE", w_ln, p_ln), ("ln-CORR", w_ln, p_ln)):
        add(alg, "all", allF, w, p)
    return rows


def check_binary_labels_pm1(y):
    """Labels as int64 in {-1, +1} (the larger label is +1); a clear error otherwise."""
    return to_pm1(np.asarray(y))[0]


def table1_cell(dataset, split, alpha, n_cycles, seed=0, n_train=None, gene_counts=(20, 40, 60, 100, 200)):
    """Grid cell for :func:`genesel.experiments.run_grid`: split number ``split`` of the Table 1 protocol.

    ``n_train=None`` uses the data set's predefined split with a random permutation of the training order
    (Leukemia); otherwise ``random_splits(y, n_train, ., seed)`` (training order random as well). Returns the
    rows of :func:`table1_split`.
    """
    from genesel.datasets import load_dataset
    from genesel.experiments import permuted_training_orders, random_splits

    ds = load_dataset(dataset)
    if n_train is None:
        tr, te = permuted_training_orders(ds.train_idx, ds.test_idx, split + 1, seed)[split]
    else:
        tr, te = random_splits(ds.y, n_train, split + 1, seed)[split]
    return table1_split(ds.X[tr], ds.y[tr], ds.X[te], ds.y[te], alpha=alpha, n_cycles=n_cycles,
                        gene_counts=tuple(gene_counts))


# ----------------------------------------------------------------------------------------------------------------
# The paper's Table 1, as far as the garbled text allows
# ----------------------------------------------------------------------------------------------------------------

#: Table 1 as extracted from the paper's PDF (lines joined by "|"), verbatim from
#: papers/000_14d0507d51981c4d.fulltext.txt between "# GENES" and the following paragraph.
_PAPER_TABLE1_TEXT = (
    '# GENES|12.7%|—|LEUKEMIA|COLON|CANCER|BREAST|PROSTATE|LYMPHOMA|20|26.5|40|60|100|200|ALL|20|22.6|40|'
    '60|100|200|ALL|20|38.5|40|60|100|200|ALL|20|30.8|40|60|100|200|ALL|20|30.8|40|60|100|200|ALL|9.5%|2-'
    'RFE|5.8%|—|6.7%|8.9%|9.0%|7.2%|3.5%|2-CORR|ln-RFE|FS|5.9%|3.3%|—|—|—|3.0%|5.0%|3.0%|—|4.3%|3.2%|—|2.'
    '5%|4.0%|—|3.0%|3.1%|—|3.5%|—|3.3%|15.4%|— 17.0% 13.1%|—|—|— 15.4% 12.1%|14.4%|— 14.8% 12.0% '
    '14.2%|13.7%|— 14.3% 12.6%|13.9%|— 13.2% 12.4%|— 13.0% 13.3%|13.0%|6.1%|— 11.5% '
    '10.3%|—|—|—|6.5%|9.9%|— 10.7%|7.5%|9.9%|— 10.1%|9.8%|13.1%|— 10.4%|14.6%|— 11.9%|9.6%|15.8%|— 15.8% '
    '10.0%|8.4%|11.5%|7.8%|—|—|—|—|9.5%|8.1%|—|9.4%|10.2%|8.5%|8.1% 10.3%|—|6.9%|9.3% '
    '10.2%|—|8.4%|—|9.8%|9.9%|10.0%|— 10.0% 10.4%|— 10.1%|9.9%|12.6%|—|—|—|10.5%|7.4%|7.9%|9.5%|6.8%|7.4%'
    '|8.2%|6.0%|6.6%|6.3%|5.6%|7.4%|5.5%|7.2%|7.2%|8.1%|—|—|—|—|—|ln-CORR|3.7%|—|3.6%|2.9%|2.9%|4.5%|3.3%'
    '|14.8%|—|14.0%|13.6%|13.1%|13.2%|13.3%|5.5%|—|6.5%|8.5%|10.4%|14.5%|10.0%|10.4%|—|8.0%|7.7%|6.5%|7.2'
    '%|10.4%|12.3%|—|10.2%|9.2%|8.3%|7.7%|5.5%|'
)

_T1_DATASETS = ("Leukemia", "Colon", "Breast", "Prostate", "Lymphoma")
_T1_ROWS = ("20", "FS", "40", "60", "100", "200", "all")


#: Values of the four garbled blocks that can still be read with confidence (see paper_table1's docstring).
_T1_READINGS = {
    # "all" row: ALMA_2 on all genes appears twice (2-RFE = 2-CORR), next to ln-RFE = ln-CORR's "all" value
    ("Colon", "all", "2-RFE"): 13.0, ("Colon", "all", "2-CORR"): 13.0,
    ("Breast", "all", "2-RFE"): 15.8, ("Breast", "all", "2-CORR"): 15.8,
    ("Prostate", "all", "2-RFE"): 10.0, ("Prostate", "all", "2-CORR"): 10.0,
    ("Lymphoma", "all", "2-RFE"): 7.2, ("Lymphoma", "all", "2-CORR"): 7.2,
    # ALMA-FS at its own gene count: the value next to the row's three dashes
    ("Colon", "FS", "FS"): 12.7, ("Breast", "FS", "FS"): 6.5, ("Lymphoma", "FS", "FS"): 8.1,
}


def _pct(tok):
    tok = tok.strip()
    return None if tok in ("—", "") else float(tok.rstrip("%"))


def paper_table1(text=None):
    """Gentile (2003) Table 1 parsed from the extracted text (default: the verbatim copy in this module).

    Returns a DataFrame with ``dataset``, ``genes`` (row label), ``algorithm``, ``paper_error`` (percent; NaN if
    not recoverable or "—" in the paper), ``paper_fs_genes`` (ALMA-FS's average gene count of that data set) and
    ``status``: ``"clean"`` (a column printed in one piece: ln-CORR everywhere, 2-RFE on Leukemia),
    ``"identity"`` (the "all" row of ln-RFE / 2-CORR equals ln-CORR / 2-RFE: the same ALMA run on all genes),
    ``"reading"`` (Leukemia's 2-CORR/ln-RFE/FS block, whose three values per row are in a consistent order except
    for the place of "—"), or ``"garbled"`` (Colon, Breast, Prostate and Lymphoma's 2-RFE, 2-CORR, ln-RFE and FS
    columns: their values are interleaved across rows and columns in the text, and only the set of printed
    numbers is known; it is given in ``garbled_values``, pooled over the four data sets).

    Readings beyond the clean columns (status ``"reading"``): the "all" row of every data set (ALMA_2 on all genes
    is printed twice, as 2-RFE and 2-CORR, next to ln-RFE's value, which equals ln-CORR's), and ALMA-FS's own
    entry for Colon (12.7%, printed at the top of the table), Breast (6.5%) and Lymphoma (8.1%), the single value
    beside the row's dashes. Prostate's ALMA-FS value cannot be told apart.
    """
    import pandas as pd

    raw = (text if text is not None else _PAPER_TABLE1_TEXT).split("|")
    toks = [t.strip() for t in raw if t.strip()]
    i_rows = toks.index("20")
    row_labels = toks[i_rows:i_rows + 35]
    fs_genes = {d: float(row_labels[7 * j + 1]) for j, d in enumerate(_T1_DATASETS)}
    i_lncorr = toks.index("ln-CORR")
    lncorr = [_pct(t) for t in toks[i_lncorr + 1:i_lncorr + 36]]
    i_rfe = toks.index("2-RFE")
    leuk_rfe = [_pct(t) for t in toks[i_rfe + 1:i_rfe + 8]]
    i_fs = toks.index("FS", i_rfe)
    block = toks[i_fs + 1:i_fs + 22]
    leuk = {}
    for r, lab in enumerate(_T1_ROWS):
        vals = [_pct(t) for t in block[3 * r:3 * r + 3]]
        nums = [v for v in vals if v is not None]
        leuk[lab] = ({"FS": nums[0]} if lab == "FS" else {"2-CORR": nums[0], "ln-RFE": nums[1] if len(nums) > 1 else None})
    # everything else between Leukemia's block and the ln-CORR header: the four garbled blocks
    rest = []
    for t in toks[i_fs + 22:i_lncorr] + toks[1:toks.index("LEUKEMIA")]:
        rest.extend(t.split())
    garbled = " ".join(t for t in rest if t.endswith("%"))
    rows = []
    for j, d in enumerate(_T1_DATASETS):
        for r, lab in enumerate(_T1_ROWS):
            for alg in TABLE1_ALGORITHMS:
                val, status = None, "garbled"
                if alg == "ln-CORR":
                    val, status = lncorr[7 * j + r], "clean"
                elif alg == "ln-RFE" and lab == "all":
                    val, status = lncorr[7 * j + 6], "identity"
                elif d == "Leukemia":
                    if alg == "2-RFE":
                        val, status = leuk_rfe[r], "clean"
                    elif alg == "2-CORR" and lab == "all":
                        val, status = leuk_rfe[6], "identity"
                    elif alg == "FS":
                        val, status = (leuk["FS"]["FS"], "reading") if lab == "FS" else (None, "clean")
                    elif lab != "FS":
                        val, status = leuk[lab].get(alg), "reading"
                    else:
                        status = "clean"
                if (d, lab, alg) in _T1_READINGS:
                    val, status = _T1_READINGS[d, lab, alg], "reading"
                if lab == "FS" and alg != "FS" and status != "garbled":
                    val = None  # printed as "—": only ALMA-FS has a row at its own gene count
                if lab != "FS" and alg == "FS":
                    val, status = None, ("clean" if d == "Leukemia" else status)
                rows.append(dict(dataset=d, genes=lab, algorithm=alg,
                                 paper_error=np.nan if val is None else val,
                                 paper_fs_genes=fs_genes[d], status=status,
                                 garbled_values=garbled if status == "garbled" else ""))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------------------------
# Summaries of a Table 1 grid (used by notebooks/02_gentile2003_alma.ipynb)
# ----------------------------------------------------------------------------------------------------------------


def table1_best_alpha(res):
    """Best alpha per (dataset, genes, algorithm), as in the paper: the alpha with the lowest mean test error.

    ``res``: the tidy frame of :func:`table1_cell` rows (columns dataset, split, alpha, algorithm, genes, error,
    n_genes, ...). Returns one row per (dataset, genes, algorithm) with ``alpha`` (best), ``error`` (mean, in
    percent), ``sd`` (percent), ``n_genes`` (mean) and ``n_splits``. Ties go to the smaller alpha.
    """
    import pandas as pd

    g = res.groupby(["dataset", "genes", "algorithm", "alpha"], sort=True)
    agg = g.agg(error=("error", "mean"), sd=("error", "std"), n_genes=("n_genes", "mean"),
                n_splits=("error", "size")).reset_index()
    agg["error"] *= 100.0
    agg["sd"] *= 100.0
    best = agg.sort_values(["dataset", "genes", "algorithm", "error", "alpha"]).groupby(
        ["dataset", "genes", "algorithm"], sort=False).head(1)
    return pd.DataFrame(best).reset_index(drop=True)


def table1_wilcoxon(res, best, pairs=(("ln-RFE", "2-RFE"), ("ln-CORR", "2-CORR"), ("FS", "ln-RFE"),
                                      ("FS", "2-RFE"), ("ln-RFE", "ln-CORR"))):
    """Wilcoxon signed-rank tests between algorithms on the same splits (each at its best alpha, from ``best``).

    For FS the comparison row is its own gene count ("FS"), where the others were run with FS's count on the same
    split. Returns dataset, genes, a, b, mean error difference a - b (percent), n_splits, and the two-sided p-value
    of ``scipy.stats.wilcoxon`` (``zero_method="zsplit"``; p = 1 when all differences are zero).
    """
    import pandas as pd
    from scipy.stats import wilcoxon

    key = best.set_index(["dataset", "genes", "algorithm"])["alpha"]
    idx = res.set_index(["dataset", "genes", "algorithm", "alpha"]).sort_index()
    out = []
    for (d, genes), _ in best.groupby(["dataset", "genes"]):
        for a, b in pairs:
            if (d, genes, a) not in key.index or (d, genes, b) not in key.index:
                continue
            ra = idx.loc[(d, genes, a, key[d, genes, a])].set_index("split")["error"]
            rb = idx.loc[(d, genes, b, key[d, genes, b])].set_index("split")["error"]
            common = ra.index.intersection(rb.index)
            diff = (ra[common] - rb[common]).to_numpy()
            if diff.size == 0:
                continue
            if np.all(diff == 0):
                pval = 1.0
            else:
                pval = float(wilcoxon(diff, zero_method="zsplit").pvalue)
            out.append(dict(dataset=d, genes=genes, a=a, b=b, diff=100.0 * diff.mean(), n_splits=int(diff.size),
                            p_value=pval))
    return pd.DataFrame(out)


def gene_selection_frequency(res, dataset, gene_ids=None, top=10):
    """How often each gene is selected by ALMA-FS over the runs of ``dataset`` (the paper's footnote 5).

    Returns the ``top`` genes: column index, gene id (if given), count and fraction of the ALMA-FS runs.
    """
    import pandas as pd

    fs = res[(res["dataset"] == dataset) & (res["algorithm"] == "FS")]
    counts: dict[int, int] = {}
    for sel in fs["selected"]:
        for j in sel:
            counts[int(j)] = counts.get(int(j), 0) + 1
    n = max(len(fs), 1)
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return pd.DataFrame([dict(gene=j, gene_id=(str(gene_ids[j]) if gene_ids is not None else str(j)), count=c,
                              fraction=c / n) for j, c in items])
