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
* The numba kernels (:mod:`genesel._alma_kernels`) keep ``theta_k = T(w_k)`` instead of ``w_k``. Since T and T^-1 are
  positively homogeneous of degree 1 and ``||T^-1(theta)||_q = ||theta||_p``, Figure 1's update is exactly
  ``theta' = theta_k + eta_k y_t x^_t``, ``theta_{k+1} = theta' / ||theta'||_p``, ``w_{k+1} = T^-1(theta_{k+1})``
  (one power per component per update). The literal Figure 1 (T, add, T^-1, q-normalise) is the plain-Python twin in
  ``tests/naive/alma.py`` and the tests check the two agree.
* The division by ``||theta'||_p`` is applied lazily (as a scale factor in the next update's pass), and
  ``|theta_i|^(p-1)`` uses :func:`genesel._core.fastmath.pow_pos`, a branch-free power that vectorises (relative
  error ~1e-14 against the C library's pow).
* Active block (p != 2): a column whose ``|theta_i|^p`` is below ``2^-53 / f`` of ``||theta||_p^p`` changes the
  p-norm by less than one rounding unit and ``w . x`` by less than ~1e-15 (Hoelder), so it is left out of w (set
  to 0) until it grows past that level; such columns are still updated every step (an exact test per column
  moves them into the block, which only grows). The kernel keeps the block first by swapping columns of its
  private copy of the data and reports w in the caller's column order; the final w is computed on all columns.
  Trajectories (updates, cycles) equal the dense computation's and weights agree to ~1e-15 (tested).
  On Singh's prostate data (12600 genes, p = ln f = 9.4) the block ends at roughly half the genes.
* ALMA_2 with more genes than twice the samples runs in the dual (``_alma_kernels.alma2_dual_core``): with
  ``w = sum_t a_t x^_t`` and the Gram matrix of the normalised rows, a check costs O(1) and an update O(m), so a fit
  costs about one Gram matrix (one BLAS call). Same steps and weights as the primal kernel to rounding (tested).
* Early stop: once a whole sweep over the training set makes no update, neither w_k nor k changes any more, so all
  remaining cycles would be no-ops; the kernel stops there (``converged_ = True``). This is exact, not a heuristic.
* The order of the examples is drawn outside the kernel (``random_state``): one random permutation of the
  training set, swept ``n_cycles`` times (the paper's "random permutations of the training set"). With
  ``shuffle=False`` the order of the rows as given is used (e.g. a permuted training order from
  :func:`genesel.experiments.permutedtraining_orders`).
* If an update cancels w exactly (``w'_k = 0``, possible with one feature), ``w_{k+1} = 0`` (Figure 1 leaves
  0/0 undefined).
* A sample whose (restricted) expression vector is all zero has no p-normalised instance; it is skipped during
  training (it cannot move w) and gets decision value 0 (predicted as the +1 class, ``sign(0) = +1`` as in
  section 2).
* Labels: the larger of the two labels (``classes_[1]``) is the +1 class, as everywhere in genesel.
* K >= 3 classes: one-vs-rest. ALMA is binary (Gentile 2003 treats two classes; its margins and Theorem 1 are about
  one hyperplane), and one hyperplane per class against the rest is its natural multi-class form: problem k
  labels class k +1 and the others -1, on all the training samples, with the one training order (so the K runs are
  exactly the estimators scikit-learn's ``OneVsRestClassifier(ALMA(...))`` fits, tested), sharing the normalised
  rows and, for ALMA_2 in the dual, the Gram matrix (:func:`run_alma_ovr`). The decision is the class of the largest
  normalised margin ``w_k . x / ||x||_p`` (``decision_function`` of shape (n, K)). ALMA-FS and ALMA_x-RFE select on
  the K problems together, stage by stage (:func:`elimination_path_ovr`): ALMA-FS keeps the *union* of the K sets
  Eq. 1 keeps (every problem keeps the share of its q-norm mass that Eq. 1 guarantees it), ALMA_x-RFE halves by the
  *summed* dual-norm mass ``sum_k |w_ki|^q`` (:func:`ovr_weight_mass`; for p = 2 the summed squared weights of
  multi-class SVM-RFE). ``coef_`` is then (K, n_features) and ``gamma_``, ``n_updates_`` (ALMA), ``n_cycles_``
  and ``converged_`` hold one value per problem. A fit costs about K binary fits (measured on Khan's 4-class SRBCT
  data in the report of issue 38).
* No preprocessing and no bias: hyperplanes pass through the origin, as in the paper.
"""

from __future__ import annotations

import math
import numbers
import time

import numpy as np
from sklearn.base import _fit_context
from sklearn.pipeline import Pipeline
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel import _alma_kernels as _ak
from genesel._core.base import BinaryClassifier
from genesel._core.linalg import row_pnorms
from genesel._core.multiclass import check_classifier_fit, ovr_signs
from genesel._core.params import N_FEATURES, POSITIVE_INT, StrOptions, real
from genesel._core.selector import SelectorBase
from genesel._core.threads import single_blas_thread
from genesel._core.units import pow2_exponent
from genesel._core.validation import kernel_array, warn_degenerate, warn_if_one_class, zero_ignored_genes
from genesel.filters import SignalToNoiseSelector

__all__ = [
    "ALMA",
    "ALMAFS",
    "ALMARFE",
    "make_corr_pipeline",
    "link_T",
    "link_T_inv",
    "pnorm_margin",
    "resolve_p",
    "theorem1_update_bound",
    "fs_cut",
    "c_alpha",
    "run_alma",
    "decision_values",
    "elimination_path",
    "elimination_path_ovr",
    "run_alma_ovr",
    "ovr_weight_mass",
    "rfe_multi",
    "training_order",
    "check_alpha",
    "check_cycles",
    "warm_up",
]


# ----------------------------------------------------------------------------------------------------------------
# the numba kernels (genesel._alma_kernels) on arrays prepared here
# ----------------------------------------------------------------------------------------------------------------


def _alma_kernel(Xn, y, order, p, alpha, n_cycles, truncate=True, inplace=False, with_active=False):
    """ALMA_p on p-normalised rows (see :func:`genesel._alma_kernels.alma_core`); ``Xn`` is copied unless ``inplace``.

    Returns ``(w, k, n_updates, cycles_run, converged)``, plus the final size of the active block if
    ``with_active``."""
    Xn = Xn if inplace else np.array(Xn, dtype=np.float64, order="C", copy=True)
    out = _ak.alma_core(Xn, np.asarray(y, dtype=np.float64), np.asarray(order, dtype=np.int64), float(p),
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
    xn = row_pnorms(kernel_array(X), p)
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


def check_alpha(alpha):
    if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or not (0.0 < alpha <= 1.0):
        raise ValueError(f"alpha must be a number in (0, 1] (approximation parameter of ALMA_p), got {alpha!r}")
    return float(alpha)


def check_cycles(n_cycles):
    if not isinstance(n_cycles, numbers.Integral) or isinstance(n_cycles, bool) or n_cycles < 1:
        raise ValueError(f"n_cycles must be a positive integer (sweeps over the training set), got {n_cycles!r}")
    return int(n_cycles)


def training_order(n, shuffle, random_state):
    if shuffle:
        return check_random_state(random_state).permutation(n).astype(np.int64)
    return np.arange(n, dtype=np.int64)


def _alma2_dual(X, norms, y, order, alpha, n_cycles, G=None):
    """ALMA_2 through the Gram matrix of the normalised rows (:func:`genesel._alma_kernels.alma2_dual_core`); returns
    the kernel tuple.

    ``G`` optionally passes the Gram matrix ``X X^T`` already computed."""
    inv = np.where(norms > 0, 1.0 / np.where(norms > 0, norms, 1.0), 0.0)
    K = (X @ X.T if G is None else G) * inv[:, None] * inv[None, :]
    a, k, n_upd, cyc, conv = _ak.alma2_dual_core(np.ascontiguousarray(K), np.asarray(y, dtype=np.float64),
                                              np.asarray(order, dtype=np.int64), float(alpha), int(n_cycles))
    w = (a * inv) @ X  # w = sum_t a_t x_t / ||x_t||_2
    return w, k, n_upd, cyc, conv


def _prepare(X, p, order):
    """What every run of ALMA_p on the rows of X shares, whatever the labels: ``(G, norms, Xn, order)`` with the
    Gram matrix G (ALMA_2 in the dual, more genes than twice the samples; else None), the row p-norms, the
    p-normalised rows Xn (primal; else None) and the training order without the all-zero rows."""
    dual = p == 2.0 and X.shape[1] > 2 * X.shape[0]
    with np.errstate(over="ignore", invalid="ignore"), single_blas_thread():
        G = X @ X.T if dual else None  # an overflowing Gram matrix sends us to the primal below
        norms = np.sqrt(np.diag(G)) if dual else None  # the row 2-norms come with the Gram matrix
    if norms is None or not np.all(np.isfinite(norms)):
        norms = row_pnorms(kernel_array(X), p)  # scaled: no overflow whatever the magnitudes
    nz = norms > 0
    order = order[nz[order]]
    if dual and np.all(np.isfinite(G)):
        return G, norms, None, order
    return None, norms, X / np.where(nz, norms, 1.0)[:, None], order


def _run_prepared(X, prep, y, p, alpha, n_cycles, inplace):
    G, norms, Xn, order = prep
    if G is not None:
        w, k, n_upd, cyc, conv = _alma2_dual(X, norms, y, order, alpha, n_cycles, G=G)
    else:
        w, k, n_upd, cyc, conv = _alma_kernel(Xn, y, order, p, alpha, n_cycles, inplace=inplace)
    gamma = math.sqrt(8.0 * (p - 1.0)) / (alpha * math.sqrt(k))
    return w, gamma, int(n_upd), int(cyc), bool(conv)


#: the last runs of :func:`run_alma` on many genes, found again by their inputs (see there)
_RUNS: list = []
_RUNS_KEPT = 6
#: runs on fewer genes than this are not kept (cheap to repeat)
_RUNS_MIN_GENES = 1000


def run_alma(X, y, p, alpha, n_cycles, order):
    """Normalise the rows of X by their p-norm and run the kernel. X: C-contiguous float64, y: float64 +-1.

    ALMA_2 with more genes than twice the samples runs in the dual (Gram matrix, O(m) per step instead of O(f)).

    The last six runs on 1000 genes or more (one elimination path's, about twice its matrix in memory) are kept and
    returned again (copies) for the same inputs (X compared value for value, y, p, alpha, n_cycles and the order):
    the kernel is deterministic, so this is the same result. A ranking method of the leaderboard fits ALMA_ln on
    every gene twice per training part and alpha, as the first stage of ALMA_ln-RFE and as the classifier on "all
    genes" (the same matrix, order and seed), the costliest run of both (issue 41).
    """
    X = np.asarray(X)
    key = None
    if X.ndim == 2 and X.shape[1] >= _RUNS_MIN_GENES:
        key = (float(p), float(alpha), int(n_cycles), np.asarray(order, dtype=np.int64).tobytes(),
               np.asarray(y, dtype=np.float64).tobytes(), X.shape, X.dtype.str)
        for i, (k, Xk, res) in enumerate(_RUNS):
            if k == key and np.array_equal(Xk, X):
                _RUNS.append(_RUNS.pop(i))  # most recently used last
                return (res[0].copy(), *res[1:])
    res = _run_prepared(X, _prepare(X, p, order), y, p, alpha, n_cycles, inplace=True)
    if key is not None:
        _RUNS.append((key, np.array(X, copy=True), (res[0].copy(), *res[1:])))
        del _RUNS[: max(0, len(_RUNS) - _RUNS_KEPT)]
    return res


def run_alma_ovr(X, Y, p, alpha, n_cycles, order):
    """ALMA_p on each one-vs-rest problem: row k of ``Y`` (K, m) holds problem k's labels (+1 for class k, -1 for the
    rest). The normalisation (and for ALMA_2 in the dual the Gram matrix) is computed once for the K problems;
    problem k gives exactly ``run_alma(X, Y[k], ...)``, the k-th estimator of scikit-learn's
    ``OneVsRestClassifier(ALMA(...))`` (tested). Returns ``(W (K, f), gammas, n_updates, cycles, converged)``, the
    last four arrays (K,)."""
    prep = _prepare(X, p, order)
    runs = [_run_prepared(X, prep, Y[k], p, alpha, n_cycles, inplace=False) for k in range(Y.shape[0])]
    return (np.array([r[0] for r in runs]), np.array([r[1] for r in runs]),
            np.array([r[2] for r in runs], dtype=np.int64), np.array([r[3] for r in runs], dtype=np.int64),
            np.array([r[4] for r in runs], dtype=bool))


def ovr_weight_mass(W, p):
    """The multi-class elimination criterion of ALMA_x-RFE: gene i's dual-norm mass summed over the K problems,
    ``sum_k |w_ki|^q`` (q = p/(p-1); each ``||w_k||_q = 1``, so every problem brings the same total mass 1). For
    p = 2 the summed squared weights of the one-vs-rest hyperplanes, the multi-class SVM-RFE criterion; for one
    problem the order of |w_i|, Gentile's criterion."""
    return np.sum(np.abs(np.asarray(W, dtype=float)) ** _dual(p), axis=0)


def decision_values(X, w, p):
    """``w . x / ||x||_p`` for every row (0 for an all-zero row); ``w`` of shape (K, f) gives (n, K), one column
    per one-vs-rest problem (each the value of ``w[k]`` alone, bit for bit)."""
    X = kernel_array(X)
    norms = row_pnorms(X, p)
    if np.ndim(w) == 2:
        safe = np.where(norms > 0, norms, 1.0)
        return np.column_stack([np.where(norms > 0, (X @ wk) / safe, 0.0) for wk in w])
    raw = X @ w
    return np.where(norms > 0, raw / np.where(norms > 0, norms, 1.0), 0.0)


def elimination_path(X, y, *, alpha, n_cycles, order, rule, p_mode, n_target=1, first=None):
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
            w, gamma, n_upd, cyc, conv = run_alma(Xc, y, p, alpha, n_cycles, order)
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


def elimination_path_ovr(X, Y, *, alpha, n_cycles, order, rule, p_mode, n_target=1):
    """:func:`elimination_path` for K >= 3 classes, one-vs-rest: every stage runs ALMA_p (p = max(2, ln f) for
    "ln") on each of the K problems (rows of ``Y``, +-1) restricted to the f surviving genes, with one shared
    training order. Rule "fs" (ALMA-FS) keeps the union of the K sets that Eq. 1 keeps, each with its own problem's
    margin: every problem's hyperplane keeps at least ``1 - (c(alpha) gamma_k)^q`` of its q-norm mass on F, the
    guarantee behind Eq. 1, which a cut on summed masses would not give any one problem. Rule "halve" (ALMA_x-RFE)
    keeps the ``max(floor(f/2), n_target)`` genes of largest summed mass ``sum_k |w_ki|^q`` (:func:`ovr_weight_mass`).

    Returns ``(F, W, p, gammas, stages, elim_stage)`` as :func:`elimination_path`, with W (K, |F|) and the per-stage
    ``gamma``, ``n_updates``, ``n_cycles`` and ``converged`` arrays over the K problems."""
    n = X.shape[1]
    F = np.arange(n)
    elim_stage = np.full(n, -1, dtype=np.int64)
    stages = []
    Xc = X
    while True:
        f = F.size
        p = resolve_p(p_mode, f)
        W, gam, n_upd, cyc, conv = run_alma_ovr(Xc, Y, p, alpha, n_cycles, order)
        if rule == "fs":
            keep = np.unique(np.concatenate([fs_cut(W[k], p, c_alpha(alpha) * gam[k]) for k in range(W.shape[0])]))
        else:
            f_star = max(f // 2, n_target)
            if f_star >= f:
                keep = np.arange(f)
            else:
                keep = np.sort(np.argsort(-ovr_weight_mass(W, p), kind="stable")[:f_star])
        stages.append(dict(n_features=f, p=p, gamma=gam, n_updates=n_upd, n_cycles=cyc, converged=conv,
                           n_kept=int(keep.size)))
        if keep.size >= f:
            return F, W, p, gam, stages, elim_stage
        mask = np.ones(f, dtype=bool)
        mask[keep] = False
        elim_stage[F[mask]] = len(stages) - 1
        F = F[keep]
        Xc = np.ascontiguousarray(X[:, F])


# ----------------------------------------------------------------------------------------------------------------
# Estimators
# ----------------------------------------------------------------------------------------------------------------


#: ALMA warns when the centre of the training samples is farther from the origin than this many times their spread
_FAR_FROM_ORIGIN = 4.0


#: the constraints every ALMA estimator shares
_COMMON = {"alpha": [real(0, 1, "right")], "n_cycles": [POSITIVE_INT], "shuffle": ["boolean"],
           "random_state": ["random_state"]}
_P = [real(2, None, "left"), StrOptions({"ln"})]


class _ALMABase(BinaryClassifier):
    _multi_class = True  # K >= 3 classes: one-vs-rest (module docstring)

    def _validate_common(self, X, y):
        """(X, labels, order): labels +-1 (m,) for two classes, (K, m) one row of +-1 per one-vs-rest problem for
        K >= 3 (``classes_`` order); one training order for every problem."""
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, min_samples=2)
        self._warn_if_far_from_origin(X)
        self._alpha = check_alpha(self.alpha)
        self._cycles = check_cycles(self.n_cycles)
        order = training_order(X.shape[0], self.shuffle, self.random_state)
        if self.classes_.size > 2:
            return X, ovr_signs(y_enc, self.classes_.size), order
        return X, y_enc.astype(np.float64), order

    def decision_function(self, X):
        """Normalised margin ``w . x / ||x||_p`` on the selected genes: (n,) positive for ``classes_[1]`` with two
        classes; (n, K) with K >= 3, column k the margin of the class-k-against-the-rest hyperplane."""
        check_is_fitted(self, "coef_")
        X = zero_ignored_genes(self, validate_data(self, X, dtype=np.float64, order="C", reset=False))
        sup = self._support_idx
        if self.coef_.shape[0] > 1:
            return decision_values(X[:, sup], self.coef_[:, sup], self.p_)
        return decision_values(X[:, sup], self.coef_[0, sup], self.p_)

    def predict(self, X):
        """``classes_[1]`` where the margin is >= 0 (sign(0) = +1, Gentile 2003 section 2); with K >= 3 classes the
        class of the largest one-vs-rest margin (the first on a tie, e.g. an all-zero sample: every margin 0)."""
        d = self.decision_function(X)
        if d.ndim == 2:
            return self.classes_[np.argmax(d, axis=1)]
        return self.classes_[(d >= 0).astype(int)]

    def _warn_if_far_from_origin(self, X):
        """ALMA's hyperplanes pass through the origin. Samples whose centre lies far from it against their spread
        (e.g. log intensities: every gene near 2-4, sd near 0.5) are then separated with tiny normalised margins:
        on log-transformed Golub, Alon and Singh data ALMA_2's test error is 2-5 times that on centred genes (raw
        intensities, whose spread is comparable to their level, are not affected). Said, not silent."""
        k = pow2_exponent(X)  # exact rescaling: no overflow of the squares
        Xs = np.ldexp(X, k)
        centre = float(np.linalg.norm(Xs.mean(0)))
        spread = float(np.sqrt(np.sum(Xs.var(0))))
        if spread > 0 and centre > _FAR_FROM_ORIGIN * spread:
            warn_degenerate(type(self).__name__, f"the training samples lie far from the origin (their centre is "
                            f"{centre / spread:.1f} times their spread away)", "ALMA's hyperplane passes through the "
                            "origin (no bias, Gentile 2003 section 2), so it separates such samples with tiny "
                            "normalised margins and may generalise poorly (uncentred genes, e.g. log intensities)",
                            "centre or standardise the genes first (genesel.preprocessing.GeneStandardizer)",
                            stacklevel=4)

    def _warn_if_one_class(self, X, y_pm1):
        """A degenerate end state is said, not left silent: one class predicted for every training sample, or a
        fit no better than the majority class on its own training data (K >= 3: of the one-vs-rest decision)."""
        sup = self._support_idx
        if self.coef_.shape[0] > 1:  # y_pm1: (K, m)
            y_idx = np.argmax(y_pm1, axis=0)
            y_pm1 = y_idx  # compared with the predicted class index below
            pred = np.argmax(decision_values(np.ascontiguousarray(X[:, sup]), self.coef_[:, sup], self.p_), axis=1)
            majority = np.bincount(y_idx).max() / y_idx.size
        else:
            d = decision_values(np.ascontiguousarray(X[:, sup]), self.coef_[0, sup], self.p_)
            pred = np.where(d >= 0, 1.0, -1.0)
            majority = max(np.mean(y_pm1 > 0), np.mean(y_pm1 < 0))
        cause = ("ALMA's hyperplane passes through the origin (no bias, Gentile 2003 section 2), and genes far from 0 "
                 "against their spread (uncentred data, e.g. raw or log intensities) leave no such hyperplane "
                 "between the classes")
        remedy = "centre or standardise the genes first (genesel.preprocessing.GeneStandardizer)"
        labels = self.classes_[pred] if self.coef_.shape[0] > 1 else self.classes_[(pred > 0).astype(int)]
        if warn_if_one_class(self, labels, y_pm1, cause, remedy, stacklevel=4):
            return
        if np.mean(pred == y_pm1) <= majority:
            warn_degenerate(type(self).__name__, f"the fitted model classifies {np.mean(pred == y_pm1):.0%} of its "
                            f"own training samples correctly, no better than the majority class ({majority:.0%})",
                            cause, remedy, stacklevel=4)


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
    coef_ : ndarray (1, n_features)    final weight vector w_k (||w_k||_q = 1); (K, n_features) for K >= 3 classes
    intercept_ : ndarray (1,)          always 0 (hyperplanes through the origin); (K,) for K >= 3
    gamma_ : float                     final margin gamma = gamma_k (an upper bound on the true margin)
    p_ : float                         norm actually used
    n_updates_ : int                   number of updates (k - 1)
    n_cycles_ : int                    sweeps actually run
    converged_ : bool                  True if the last sweep made no update
    classes_ : ndarray (2,) or (K,)

    With K >= 3 classes ALMA runs one-vs-rest (module docstring): ``gamma_``, ``n_updates_``, ``n_cycles_`` and
    ``converged_`` are then arrays (K,), one entry per class-against-the-rest problem, and ``decision_function``
    is (n, K).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import ALMA
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> alma = ALMA(p=2, alpha=0.9, random_state=0).fit(X[::2], y[::2])
    >>> alma.converged_, alma.n_updates_, alma.coef_.shape
    (True, 11, (1, 100))
    >>> print(f"margin {alma.gamma_:.3f}, test accuracy {alma.score(X[1::2], y[1::2]):.2f}")
    margin 0.907, test accuracy 0.90
    """

    _parameter_constraints = {"p": _P, **_COMMON}

    def __init__(self, *, p=2, alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.p = p
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y, order = self._validate_common(X, y)
        p = resolve_p(self.p, X.shape[1])
        if y.ndim == 2:  # K >= 3 classes: one-vs-rest
            w, gamma, n_upd, cyc, conv = run_alma_ovr(X, y, p, self._alpha, self._cycles, order)
            self.coef_ = w
            self.intercept_ = np.zeros(w.shape[0])
        else:
            w, gamma, n_upd, cyc, conv = run_alma(X, y, p, self._alpha, self._cycles, order)
            self.coef_ = w[None, :]
            self.intercept_ = np.zeros(1)
        self.gamma_ = gamma
        self.p_ = p
        self.n_updates_ = n_upd
        self.n_cycles_ = cyc
        self.converged_ = conv
        self._support_idx = np.arange(X.shape[1])
        self._warn_if_one_class(X, y)
        return self


class _ALMASelectorBase(SelectorBase, _ALMABase):
    _multi_class = True  # K >= 3 classes: one-vs-rest, selecting on the K problems together
    def _fit_path(self, X, y, order, *, rule, p_mode, n_target=1):
        t0 = time.perf_counter()
        path = elimination_path_ovr if y.ndim == 2 else elimination_path
        F, w, p, gamma, stages, elim = path(X, y, alpha=self._alpha, n_cycles=self._cycles, order=order, rule=rule,
                                            p_mode=p_mode, n_target=n_target)
        n = X.shape[1]
        coef = np.zeros((y.shape[0] if y.ndim == 2 else 1, n))
        coef[:, F] = w
        self.coef_ = coef
        self.intercept_ = np.zeros(coef.shape[0])
        self.support_ = np.zeros(n, dtype=bool)
        self.support_[F] = True
        n_st = len(stages)
        # ranking_: 1 = selected; features removed in the last eliminating stage get 2, the stage before 3, ...
        self.ranking_ = np.where(elim < 0, 1, n_st - elim).astype(np.int64)
        self.n_features_ = int(F.size)
        self.p_ = p
        self.gamma_ = gamma
        self.stages_ = stages
        self.n_updates_ = int(sum(np.sum(s["n_updates"]) for s in stages))
        self.converged_ = stages[-1]["converged"]
        self.fit_time_ = time.perf_counter() - t0
        self._support_idx = F
        self._warn_if_one_class(X, y)
        return self

    def _subset_order(self):
        return np.argsort(self.ranking_, kind="stable")  # the genes of every stage before those it eliminated

    def _visited_sizes(self):
        return [st["n_features"] for st in self.stages_]


class ALMAFS(_ALMASelectorBase):
    """ALMA-FS(alpha), Gentile (2003) Figure 2: backward elimination that picks the number of genes itself.

    Each stage runs ALMA_p with ``p = max(2, ln f)`` on the f surviving genes and keeps the smallest set of largest
    weights holding ``1 - (c(alpha) gamma)^q`` of ``||w||_q^q`` (c(alpha) = alpha (1 - alpha)); stops when no gene
    is dropped. A classifier (the final stage's ALMA_p on the selected genes) and a selector (``transform``).

    Attributes: ``support_``, ``ranking_`` (1 = selected, 2 = dropped at the last eliminating stage, ...),
    ``n_features_``, ``coef_`` (1, n_features_in_; zero off the support), ``gamma_``, ``p_`` (final stage),
    ``stages_`` (list of dicts: n_features, p, gamma, n_updates, n_cycles, converged, n_kept), ``n_updates_``
    (over all stages), ``fit_time_`` (seconds).

    K >= 3 classes: every stage runs the K one-vs-rest problems and keeps the union of the K sets Eq. 1 keeps
    (:func:`elimination_path_ovr`: each problem keeps the mass Eq. 1 guarantees it); ``coef_`` is (K, n_features_in_),
    ``gamma_`` and ``converged_`` and the stages' ``gamma``, ``n_updates``, ``n_cycles``, ``converged`` hold one
    value per problem, ``n_updates_`` sums them all.

    Parameters
    ----------
    alpha : float in (0, 1], default 0.9
        Approximation parameter of ALMA_p (Gentile 2003, Figure 1): every stage's ALMA_p is an alpha-approximation
        of the maximal margin hyperplane; it also sets c(alpha) = alpha (1 - alpha) of Eq. 1.
    n_cycles : int >= 1, default 50
        Maximal number of sweeps over the training set of each stage's ALMA_p (50 or 100 in Gentile 2003,
        section 5); a stage stops early after a sweep without update.
    shuffle : bool, default True
        Sweep a random permutation of the training set (drawn from ``random_state``) instead of the given order.
    random_state : int, RandomState or None, default None
        Seed of the sweep order (only used with ``shuffle=True``).

    Attributes
    ----------
    support_ : ndarray of bool (n_features_in_,)
        The selected genes (those of the final stage).
    ranking_ : ndarray of int (n_features_in_,)
        1 = selected, 2 = dropped at the last eliminating stage, 3 = at the stage before, ...
    n_features_ : int
        Number of selected genes.
    coef_ : ndarray (1, n_features_in_) or (K, n_features_in_)
        Final stage's weight vector(s) w (||w||_q = 1), zero off the support; one row per class for K >= 3.
    intercept_ : ndarray (1,) or (K,)
        Always 0 (hyperplanes through the origin).
    gamma_ : float or ndarray (K,)
        Final stage's margin gamma_k (one per one-vs-rest problem for K >= 3).
    p_ : float
        Norm used by the final stage's ALMA_p.
    stages_ : list of dict
        One dict per stage: ``n_features``, ``p``, ``gamma``, ``n_updates``, ``n_cycles``, ``converged``,
        ``n_kept``.
    n_updates_ : int
        Updates over all stages (and all one-vs-rest problems).
    converged_ : bool or ndarray (K,)
        True if the final stage's last sweep made no update.
    fit_time_ : float
        Seconds taken by the elimination path.
    classes_ : ndarray (2,) or (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import ALMAFS
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> fs = ALMAFS(alpha=0.9, random_state=0).fit(X[::2], y[::2])  # picks the number of genes itself
    >>> fs.n_features_, np.flatnonzero(fs.support_).tolist()
    (6, [0, 1, 2, 3, 15, 86])
    >>> [stage["n_features"] for stage in fs.stages_]
    [100, 15, 9, 7, 6]
    >>> fs.score(X[1::2], y[1::2])
    0.85
    """

    _parameter_constraints = dict(_COMMON)

    def __init__(self, *, alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y, order = self._validate_common(X, y)
        return self._fit_path(X, y, order, rule="fs", p_mode="ln")


class ALMARFE(_ALMASelectorBase):
    """ALMA_ln-RFE(n_f) (``p="ln"``) or ALMA_2-RFE(n_f) (``p=2``), Gentile (2003) section 4.

    Figure 2 with Eq. 1 replaced by ``f* = max(floor(f/2), n_f)``: halve the genes by |w_i| at each stage until
    ``n_features_to_select`` remain (a count, or a fraction of the genes); the final ALMA_p is trained on them
    (p = max(2, ln n_f) for "ln"). Asking for more genes than there are keeps all of them (genesel's rule for every
    selector). ``subset(size)`` gives the genes of every stage (one of the ``n_features`` of ``stages_``). Attributes
    as :class:`ALMAFS`.

    K >= 3 classes: every stage runs the K one-vs-rest problems and halves by the summed dual-norm mass
    ``sum_k |w_ki|^q`` (:func:`ovr_weight_mass`; p = 2: the summed squared weights, the multi-class SVM-RFE
    criterion); attributes as :class:`ALMAFS` with K classes.

    Parameters
    ----------
    n_features_to_select : int >= 1 or float in (0, 1), default 20
        n_f of ALMA_x-RFE(n_f) (Gentile 2003, section 4): genes to keep, a count or a fraction of the genes; more
        than there are keeps all of them.
    p : float >= 2 or "ln", default "ln"
        Norm of each stage's ALMA_p (Figure 1): ``"ln"`` is ``max(2, ln f)`` on the f surviving genes
        (ALMA_ln-RFE), ``2`` the additive ALMA_2-RFE.
    alpha : float in (0, 1], default 0.9
        Approximation parameter of ALMA_p (Gentile 2003, Figure 1): every stage's ALMA_p is an alpha-approximation
        of the maximal margin hyperplane; it also sets c(alpha) = alpha (1 - alpha) of Eq. 1.
    n_cycles : int >= 1, default 50
        Maximal number of sweeps over the training set of each stage's ALMA_p (50 or 100 in Gentile 2003,
        section 5); a stage stops early after a sweep without update.
    shuffle : bool, default True
        Sweep a random permutation of the training set (drawn from ``random_state``) instead of the given order.
    random_state : int, RandomState or None, default None
        Seed of the sweep order (only used with ``shuffle=True``).

    Attributes
    ----------
    support_ : ndarray of bool (n_features_in_,)
        The selected genes (those of the final stage).
    ranking_ : ndarray of int (n_features_in_,)
        1 = selected, 2 = dropped at the last eliminating stage, 3 = at the stage before, ...
    n_features_ : int
        Number of selected genes.
    coef_ : ndarray (1, n_features_in_) or (K, n_features_in_)
        Final stage's weight vector(s) w (||w||_q = 1), zero off the support; one row per class for K >= 3.
    intercept_ : ndarray (1,) or (K,)
        Always 0 (hyperplanes through the origin).
    gamma_ : float or ndarray (K,)
        Final stage's margin gamma_k (one per one-vs-rest problem for K >= 3).
    p_ : float
        Norm used by the final stage's ALMA_p.
    stages_ : list of dict
        One dict per stage: ``n_features``, ``p``, ``gamma``, ``n_updates``, ``n_cycles``, ``converged``,
        ``n_kept``.
    n_updates_ : int
        Updates over all stages (and all one-vs-rest problems).
    converged_ : bool or ndarray (K,)
        True if the final stage's last sweep made no update.
    fit_time_ : float
        Seconds taken by the elimination path.
    classes_ : ndarray (2,) or (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from genesel import ALMARFE
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> rfe = ALMARFE(n_features_to_select=4, p=2, random_state=0).fit(X, y)
    >>> np.flatnonzero(rfe.support_).tolist(), [s["n_features"] for s in rfe.stages_]
    ([0, 2, 23, 74], [100, 50, 25, 12, 6, 4])
    >>> scores = cross_val_score(ALMARFE(n_features_to_select=4, p=2, random_state=0), X, y, cv=5)
    >>> print(f"{scores.mean():.2f}")                               # ALMARFE is a classifier too
    0.85
    """

    _parameter_constraints = {"n_features_to_select": N_FEATURES[:2], "p": _P, **_COMMON}

    def __init__(self, *, n_features_to_select=20, p="ln", alpha=0.9, n_cycles=50, shuffle=True, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.p = p
        self.alpha = alpha
        self.n_cycles = n_cycles
        self.shuffle = shuffle
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y, order = self._validate_common(X, y)
        return self._fit_path(X, y, order, rule="halve", p_mode=self.p, n_target=self._n_select(X.shape[1], None))


def make_corr_pipeline(n_features_to_select=20, p=2, alpha=0.9, n_cycles=50, shuffle=True, random_state=None,
                       balanced=True):
    """ALMA_2-CORR (``p=2``) or ALMA_ln-CORR (``p="ln"``: ALMA_{ln f} on the f selected genes) as a Pipeline.

    K >= 3 classes: ALMA runs one-vs-rest; the pipeline takes K classes when its ``corr`` step does
    (:class:`genesel.filters.SignalToNoiseSelector`). A one-vs-rest signal-to-noise ranking with the K rankings
    combined is ``genesel.OneVsRestSelector(SignalToNoiseSelector(balanced=balanced), n_features_to_select=...)``
    in the ``corr`` step's place.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from genesel import make_corr_pipeline
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> pipe = make_corr_pipeline(n_features_to_select=4, p=2, random_state=0)
    >>> [name for name, _ in pipe.steps]
    ['corr', 'alma']
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.88
    """
    return Pipeline([
        ("corr", SignalToNoiseSelector(n_features_to_select=n_features_to_select, balanced=balanced)),
        ("alma", ALMA(p=p, alpha=alpha, n_cycles=n_cycles, shuffle=shuffle, random_state=random_state)),
    ])


# ----------------------------------------------------------------------------------------------------------------
# Functional API: the runs shared between the algorithms of one split (used to build Gentile's Table 1 without
# repeating identical ALMA runs; see genesel.papers.gentile2003)
# ----------------------------------------------------------------------------------------------------------------


def rfe_multi(X, y, targets, *, p_mode, alpha, n_cycles, order, first=None):
    """ALMA_x-RFE for several n_f at once (the halving paths coincide until they branch).

    Returns ``{n_f: (F, w, p)}``. ``first`` optionally gives the (w, gamma) of ALMA on all columns (shared with
    ALMA-FS and the "all genes" row).
    """
    out = {}

    def rec(F, tg, pre):
        f = F.size
        p = resolve_p(p_mode, f)
        if pre is None:
            w = run_alma(np.ascontiguousarray(X[:, F]), y, p, alpha, n_cycles, order)[0]
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


def warm_up():
    """Compile (or load from numba's cache) every kernel once per process, so timings exclude the JIT."""
    global _WARM
    if _WARM:
        return
    X = np.array([[1.0, -2.0, 0.5], [-1.0, 1.0, 2.0], [0.3, 0.2, -1.0]])
    y = np.array([1.0, -1.0, 1.0])
    order = np.arange(3, dtype=np.int64)
    for p in (2.0, 3.0):
        Xn = X / row_pnorms(X, p)[:, None]
        _alma_kernel(Xn, y, order, p, 0.5, 2)
    _alma2_dual(X, row_pnorms(X, 2.0), y, order, 0.5, 2)
    _WARM = True
