"""l2-AROM and its partially supervised variant PS-l2-AROM: gene selection by iterative rescaling of a linear SVM.

Weston, Elisseeff, Schölkopf & Tipping (2003), *Use of the zero-norm with linear models and kernel methods*, JMLR 3,
1439-1461 (the AROM algorithms, "approximation of the zero-norm minimisation"): the NP-hard problem

    min_w ||w||_0   subject to  y_i (w . x_i + b) >= 1

is approximated by  min_w sum_j ln(eps + |w_j|)  (0 < eps << 1) under the same constraints, which leads to the
l2-AROM iteration (the slides of Helleputte & Dupont 2009, "l2-AROM method"; * is the component-wise product):

    w_0 = (1, ..., 1);  repeat:  train the linear SVM  min ||w||^2  s.t.  y_i (w . (x_i * w_k) + b) >= 1,
                                 let w_bar be its solution,  w_{k+1} = w_k * w_bar.

Helleputte & Dupont (ICML 2009), *Partially supervised feature selection with regularized linear models*, and the
2009 slides "Feature selection by transfer learning with linear regularized models" ("Partially Supervised AROM",
"PS-l2-AROM method"): a prior relevance vector beta > 0 (beta_j = 1 where nothing is known, larger = more relevant a
priori) weights the penalty,  min_w sum_j (1 / beta_j) ln(eps + |w_j|),  and the iteration becomes

    w_0 = beta;  w_{k+1} = w_k * w_bar * beta.

``prior=None`` is plain l2-AROM (beta = 1; ``prior=np.ones(d)`` gives the identical result, tested).

Why it sparsifies. The SVM on the rescaled data x * w_k has weights w_bar = w_k * (X^T (a * y)) (a the dual
solution), so a gene's new scaling is w_{k+1,j} = w_{k,j}^2 (x_j . (a * y)) beta_j: genes the margin does not need
shrink doubly exponentially, while at a fixed point every surviving gene has w_bar_j = 1 / beta_j. Each step keeps
the previous solution feasible (w = 1 / beta on the survivors reproduces the previous margins), so the iteration
never loses separability on separable data.

Implementation (n samples << d genes). The SVM is solved in the dual (:func:`genesel._core.smo`) on the n x n
rescaled linear kernel  K_k = X diag(w_k^2) X^T, recomputed at every iteration from the surviving genes only (one
BLAS product, one thread) and warm-started from the previous dual solution (the constraints do not involve K, so it
stays feasible; a Newton step on the free set usually lands on the new optimum). A gene leaves the computation when
its rescaled column has underflowed, |w_{k,j}| ||x_j|| < 1e-8 max_h |w_{k,h}| ||x_h||: its contribution to K is
then below 1e-16 relative, i.e. below double-precision rounding, and it cannot come back (it would need
|w_bar_j| > 1 from a weight 10^8 times smaller than the largest).

One departure from the literal iteration, invisible on separable data: when m_k = max_j |w_bar_j beta_j| < 1 the
iterate is divided by it, w_{k+1} = w_k * w_bar * beta / min(1, m_k). With a hard margin the global scale of w_k
does not matter (w_k -> c w_k gives w_bar -> w_bar / c and the same model), so the genes, their order and the model
are unchanged (tested against the literal iteration); and since w_k only ever grows by it, the dual variables stay
at most as large as in the literal iteration (sum_i a_i = ||w_bar||^2), so a large finite C stays a hard margin
wherever it is one for the literal iteration. With a soft margin on classes that overlap, the literal iteration
shrinks every weight to 0 (the penalty sum ln|w_j| is unbounded below once margin violations are allowed); the
division keeps the genes competing instead. The iteration stops when no gene left in the last step and every
survivor's relative change |w_bar_j beta_j / min(1, m_k) - 1| is below ``tol``; at that point the SVM on the
rescaled data gives every active gene the same w_bar_j beta_j (1 in the literal iteration).

More than two classes (K > 2): one shared rescaling of K one-vs-rest SVMs. The multi-class zero-norm problem asks for
the fewest genes used by *any* of the K machines, min ||(||W_j||)_j||_0 with W_j = (w_1j, ..., w_Kj) the weights of
gene j in the K machines, subject to every machine's margin constraints y_ki (w_k . x_i + b_k) >= 1 (machine k:
class k against the rest). Following the binary derivation step by step, its approximation is sum_j ln(eps + ||W_j||):
a gene pays once however many machines use it. Rescaling every machine's data by the same z_k (x -> x * z_k) and
training the K linear SVMs on it gives W = z_k * Wbar (Wbar_k the weights of machine k on the rescaled data), and the
update that plays the role of w_{k+1} = w_k * w_bar is

    z_{k+1} = z_k * rms_k(Wbar_k) * beta,   rms_k(Wbar_k)_j = sqrt((1/K) sum_k Wbar_kj^2),

so a gene survives if it helps some machine, and the genes the margins of all K machines can do without shrink doubly
exponentially, as in the binary iteration; at a fixed point every surviving gene has rms_k(Wbar_kj) beta_j = 1. The
root mean square makes two classes the binary iteration exactly (their two one-vs-rest machines are one machine up to
sign, so rms = |w_bar|); genesel still runs two classes as the binary algorithm, bit for bit as before. This form is
genesel's: derived here by the same steps as the binary l2-AROM, not taken from a published multi-class variant
(Weston et al. 2003 treat multi-class problems with the zero-norm, but their multi-class text was not available to
check against). The division by min(1, m_k), the stopping rule, the underflow test and the order of the genes are
those of the binary iteration applied to rms_k(Wbar_k) beta. The K machines share one rescaled Gram matrix per
iteration (one product, K warm-started SMO solves), so an iteration costs about K times the binary solves and one
Gram matrix; ``coef_`` is (K, n_features) and ``intercept_`` (K,).

A signature of exactly s genes. l2-AROM converges to few genes (at most about the number of support vectors), often
fewer than a requested signature size. Every gene therefore gets a place in one complete order, best first:

1. the genes still active at the end, by decreasing final |w_K| (the last iterate, prior included; proportional to
   |coef_ * prior|, so for plain l2-AROM the order of |coef_|);
2. then the genes that left, the latest first; among genes that left at the same iteration, by decreasing |w| in
   the iterate in which they underflowed (ties: lower column index first).

``n_features_to_select=s`` selects the first s genes of that order (``feature_order_``); ``None`` selects the genes
active at convergence. When s is at most the number of active genes this is "the s largest final weights"; beyond
it the order is the elimination order of the iteration, as in recursive feature elimination. One fit therefore
gives signatures of every size (``feature_order_[:s]``).
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning

from genesel._core.params import N_FEATURES, POSITIVE, POSITIVE_INT, POSITIVE_OR_INF
from genesel._core.selector import SelectorBase
from genesel._core.smo import rho, warm_solve
from genesel._core.threads import single_blas_thread
from genesel._core.units import (far_offset_centre, in_x_units, negligible_C_message, pow2_exponent, scale_pow2,
                                 unit_row_exponent)
from genesel._core.multiclass import check_classifier_fit, ovr_signs

__all__ = ["L2AROM", "arom_path", "check_prior", "UNDERFLOW"]

#: A gene leaves the computation when |w_j| ||x_j|| < UNDERFLOW * max_h |w_h| ||x_h|| (its share of K < 1e-16).
UNDERFLOW = 1e-8

_SMO_TOL = 1e-9  # KKT gap of every SVM solve (margin units); well below any useful outer tol

#: the iteration runs in the units of X while its rescaled data lie within 2^-40 .. 2^40 (1e-12 .. 1e12), and
#: is brought back into that range (exactly, by a power of two) otherwise: beyond it the SVM's dual variables
#: (~ 1 / |x|^2) and the warm start carried from one iteration to the next lose their meaning
_ORDINARY_EXP = 40


def check_prior(prior, n_features, *, name="prior"):
    """The relevance vector beta as a float array of length ``n_features`` (None: all ones).

    Refuses a wrong length, non-finite values and entries <= 0 with a message saying what to pass.
    """
    if prior is None:
        return np.ones(n_features)
    try:
        beta = np.asarray(prior, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be None or an array of {n_features} positive numbers, got {prior!r:.80}") from exc
    if beta.ndim != 1 or beta.shape[0] != n_features:
        raise ValueError(
            f"{name} has shape {beta.shape} but X has {n_features} genes: pass one relevance value per gene, in the "
            "column order of X (1 where nothing is known, larger = more relevant a priori); if the prior comes from "
            "another study, align the two on their shared probe IDs first (genesel.datasets.align_studies)"
        )
    if not np.all(np.isfinite(beta)):
        raise ValueError(f"{name} contains NaN or infinite values; use 1 for genes with no prior knowledge")
    if np.any(beta <= 0):
        bad = np.flatnonzero(beta <= 0)
        raise ValueError(
            f"{name} has {bad.size} entries <= 0 (first at genes {bad[:5].tolist()}); relevance values must be "
            "positive (1 = no prior knowledge, > 1 = favoured, between 0 and 1 = disfavoured); to exclude a gene, "
            "drop its column"
        )
    return beta


@njit(cache=True)
def _rescale(wbar, z, beta, xnorm, alive, v, exit_weight, underflow, unit):
    """One PS-l2-AROM update, in place, over the active entries of the compacted arrays.

    v = z * wbar (the SVM's weights in the original space); m = max |wbar beta|; z <- z * wbar * beta / min(unit, m);
    genes with |z| xnorm < underflow * max |z| xnorm leave (``alive`` cleared, ``z`` set to 0, |z| kept in
    ``exit_weight``). Returns (m, change, n_left) with change = max |wbar beta / min(unit, m) - 1| over the genes
    that stay. ``unit`` is 1 in the units of X, or the power of two that 1 becomes in data-relative units (see
    :func:`arom_path`). Plain-Python twin: ``tests/naive/arom.py::_update``.
    """
    c = z.shape[0]
    m = 0.0
    for t in range(c):
        if alive[t]:
            r = abs(wbar[t] * beta[t])
            if r > m:
                m = r
    if not m > 0.0:
        return m, np.inf, 0
    top = 0.0
    for t in range(c):
        if alive[t]:
            v[t] = z[t] * wbar[t]
            r = wbar[t] * beta[t]
            r = r / m if m < unit else r / unit
            z[t] = z[t] * r
            a = abs(z[t]) * xnorm[t]
            if a > top:
                top = a
        else:
            v[t] = 0.0
    thr = underflow * top
    change = 0.0
    n_left = 0
    for t in range(c):
        if alive[t]:
            if abs(z[t]) * xnorm[t] < thr:
                alive[t] = False
                exit_weight[t] = abs(z[t])
                z[t] = 0.0
                n_left += 1
            else:
                r = wbar[t] * beta[t]
                r = r / m if m < unit else r / unit
                dev = abs(r - 1.0)
                if dev > change:
                    change = dev
    return m, change, n_left


def arom_path(X, y, prior=None, *, C=1e3, tol=1e-6, max_iter=500, smo_tol=_SMO_TOL, smo_max_iter=None):
    """Run (PS-)l2-AROM on ``X`` (samples x genes, float64) and ``y`` in {-1, +1} until convergence or ``max_iter``;
    ``y`` of shape (K, n) (the {-1, +1} labels of K one-vs-rest machines) runs the multi-class form of the module
    docstring, and ``coef``, ``intercept`` and ``alpha`` then have a leading axis of K.

    Returns a dict: ``scaling`` (d,) the last iterate w_K (0 for genes that left), ``coef`` (d,) the weights of the
    last SVM in the original feature space (w_{K-1} * w_bar; decision x . coef + intercept), ``intercept``,
    ``alpha`` (n,) its dual solution, ``exit_iteration`` (d,) the iteration at which each gene left (-1: active at
    the end), ``exit_weight`` (d,) |w| in the iterate in which it underflowed, ``order`` (d,) all genes best first
    (see the module doc), ``n_active`` (list) active genes before each iteration, ``n_iter``, ``converged``,
    ``change`` (the last max |w_bar beta / min(1, m) - 1|), ``smo_gaps`` (KKT gap of each SVM solve).

    The genes are kept in compacted arrays (genes x samples); genes that left stay in them with weight 0 until
    fewer than 3/4 of the rows are active, when the arrays are compacted again (one gather instead of one per
    iteration).

    Data-relative units: the iteration runs on X' = 2^k X (k from :func:`genesel._core.units.unit_row_exponent`)
    with the iterate stored as z' = 2^e z, so that the rescaled data X' z' = 2^j X z (j = k + e) stay within
    2^-40 .. 2^40 (``_ORDINARY_EXP``); the SVM on them is the same problem with C' = C / 4^j (its weights are
    w_bar / 2^j, its dual variables alpha / 4^j, its bias the same) and the update divides by min(2^-j, m') instead
    of min(1, m). k and e are 0 on data of ordinary scale, which therefore get the literal iteration's numbers bit
    for bit; data near 1e-300 or 1e300 no longer overflow or underflow. e changes (exactly, by a power of two; the
    next SVM then starts afresh) only when the rescaled data leave that range. Everything returned is in the units
    of X (``scaling``, ``coef``, ``alpha``, ``exit_weight`` can be 0 or inf where those units cannot hold them);
    ``order`` is computed in the internal units. Data further from the origin than ~1000 spreads are centred
    first (:data:`genesel._core.units.OFFSET_RATIO`; every SVM has a bias, so the iteration does not depend on
    the origin); ``intercept`` is that of ``x . coef`` in the units of X. With a hard margin the model does not
    depend on the units; a finite C that is negligible at the scale of X (C' underflows) is a ``ValueError``.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    yf = np.ascontiguousarray(y, dtype=np.float64)
    Y = yf if yf.ndim == 2 else None  # (M, n): the one-vs-rest machines of K classes (module docstring)
    n, d = X.shape
    beta = check_prior(prior, d)
    if smo_max_iter is None:
        smo_max_iter = max(10_000_000, 100 * n)
    kx = unit_row_exponent(X, safe=_ORDINARY_EXP)  # X' = 2^kx X (0 on data of ordinary scale)
    Xu = scale_pow2(X, kx)
    # every SVM of the iteration has a bias, which absorbs a shift of the (rescaled) genes: the iteration is
    # translation-invariant, and data far from the origin are centred (X' = 2^k2 (2^k1 X - mean), kx = k1 + k2)
    k1 = unit_row_exponent(X)
    x_mean, k2 = far_offset_centre(scale_pow2(X, k1)), 0
    if x_mean is not None:
        Xu = scale_pow2(X, k1) - x_mean
        k2 = unit_row_exponent(Xu, safe=_ORDINARY_EXP)
        Xu = scale_pow2(Xu, k2)
        kx = k1 + k2
    Xc = np.ascontiguousarray(Xu.T)  # compacted data, genes x samples
    idx = np.arange(d)  # global column of each compacted row
    xc = np.sqrt(np.einsum("ij,ij->i", Xc, Xc))
    zc = beta.copy()
    bc = beta.copy()
    alive = np.ones(d, dtype=np.bool_)
    vc = np.zeros(d)
    ewc = np.zeros(d)
    buf = np.empty_like(Xc)
    n_alive = d
    alpha = np.zeros(n) if Y is None else np.zeros((Y.shape[0], n))
    Vc = None if Y is None else np.zeros((Y.shape[0], d))  # each machine's weights in the original space
    z = np.zeros(d)
    coef = np.zeros(d) if Y is None else np.zeros((Y.shape[0], d))
    exit_it = np.full(d, -1, dtype=np.int64)
    exit_w = np.zeros(d)  # in the internal units of the iteration the gene left in (for the order)
    exit_e = np.zeros(d, dtype=np.int64)  # that iteration's e
    n_active, gaps = [], []
    converged = False
    change = np.inf
    b = 0.0
    k = 0
    e = 0  # z' = 2^e z
    j = kx  # X' z' = 2^j X z
    cold = False
    with single_blas_thread():
        while k < max_iter:
            n_active.append(int(n_alive))
            Xs = np.multiply(Xc, zc[:, None], out=buf[: idx.size])  # rescaled data, genes x samples
            K = Xs.T @ Xs
            Cj = float(in_x_units(C, -2 * j))
            if not Cj > 0:
                raise ValueError(negligible_C_message("L2AROM", C, K, 2 * j))
            if Y is None:
                G, _, gap = warm_solve(K, yf, Cj, alpha, k > 0 and not cold, smo_tol, smo_max_iter)
                cold = False
                gaps.append(float(gap))
                b = -rho(yf, Cj, alpha, G)
                wbar = Xs @ (alpha * yf)
            else:  # K machines on the one rescaled Gram matrix; the update takes the RMS of their weights
                Wbar = np.empty((Y.shape[0], idx.size))
                b = np.empty(Y.shape[0])
                worst = 0.0
                for c in range(Y.shape[0]):
                    G, _, gap = warm_solve(K, Y[c], Cj, alpha[c], k > 0 and not cold, smo_tol, smo_max_iter)
                    worst = max(worst, float(gap))
                    b[c] = -rho(Y[c], Cj, alpha[c], G)
                    Wbar[c] = Xs @ (alpha[c] * Y[c])
                cold = False
                gaps.append(worst)
                np.multiply(Wbar, zc[None, :], out=Vc)
                wbar = np.sqrt(np.mean(Wbar * Wbar, axis=0))
            was = alive.copy()
            m, change, n_left = _rescale(wbar, zc, bc, xc, alive, vc, ewc, UNDERFLOW, float(np.ldexp(1.0, -j)))
            k += 1
            if not m > 0:
                raise ValueError(
                    "l2-AROM: every gene's weight is zero after the SVM step (the genes carry no information that "
                    "separates the classes, e.g. all columns constant); check the data"
                )
            if n_left:
                left = was & ~alive
                exit_it[idx[left]] = k
                exit_w[idx[left]] = ewc[left]
                exit_e[idx[left]] = e
                n_alive -= n_left
                if n_alive < 0.75 * idx.size:
                    Xc, idx, zc, bc, xc, vc, ewc = (a[alive] for a in (Xc, idx, zc, bc, xc, vc, ewc))
                    if Vc is not None:
                        Vc = np.ascontiguousarray(Vc[:, alive])
                    alive = np.ones(idx.size, dtype=np.bool_)
            elif change < tol:
                converged = True
                break
            # keep the rescaled data of order 1: z' -> 2^de z' (exact) when its largest column leaves 2^+-400
            de = _renormalise(zc * xc, j)
            if de:
                zc = np.ldexp(zc, de)
                e += de
                j += de
                alpha[:] = 0.0  # the data changed scale by 2^(j - old j) from the last SVM: start it afresh
                cold = True
    z[idx] = in_x_units(zc, -e)
    if Y is None:
        coef[idx] = in_x_units(vc, kx)  # v' = z' w_bar' = 2^(e - j) v = 2^-kx v
        coef[exit_it >= 0] = 0.0
    else:
        coef[:, idx] = in_x_units(Vc, kx)
        coef[:, exit_it >= 0] = 0.0
    z[exit_it >= 0] = 0.0
    zi = np.zeros(d)
    zi[idx] = zc
    zi[exit_it >= 0] = 0.0
    order = _feature_order(zi, exit_it, exit_w)
    if x_mean is not None and Y is not None:  # one bias per machine
        vi = np.zeros((Y.shape[0], d))
        vi[:, idx] = Vc
        vi[:, exit_it >= 0] = 0.0
        b = b - vi @ scale_pow2(x_mean, k2)
    elif x_mean is not None:  # the bias of x . coef in the units of X: b - w' . (2^k2 mean)
        vi = np.zeros(d)
        vi[idx] = vc
        vi[exit_it >= 0] = 0.0
        b = b - float(vi @ scale_pow2(x_mean, k2))
    return dict(scaling=z, coef=coef, intercept=float(b) if Y is None else np.asarray(b, dtype=float),
                alpha=in_x_units(alpha, 2 * j), exit_iteration=exit_it,
                exit_weight=in_x_units(exit_w, -exit_e), order=order, n_active=n_active, n_iter=k,
                converged=converged, change=change, smo_gaps=gaps)


def _renormalise(colnorms, j):
    """The exponent de by which :func:`arom_path` rescales its iterate: 0 while the largest rescaled column norm
    lies within 2^-40 .. 2^40 (always, on data of ordinary scale); otherwise back to the units of X (de = -j,
    the rescaled data X' z' = X z) if that is within the range, else to a largest norm in [0.5, 1)."""
    k = pow2_exponent(colnorms)
    if abs(k) <= _ORDINARY_EXP:
        return 0
    return -j if abs(k + j) <= _ORDINARY_EXP else k


def _feature_order(z, exit_it, exit_w):
    """All genes best first: active ones by decreasing |z|, then by decreasing exit iteration and exit weight."""
    d = z.shape[0]
    idx = np.arange(d)
    active = exit_it < 0
    # lexsort: last key is primary. Active genes get exit iteration +inf (represented by max + 1).
    it = np.where(active, exit_it.max(initial=0) + 1, exit_it)
    w = np.where(active, np.abs(z), exit_w)
    return np.lexsort((idx, -w, -it)).astype(np.int64)


class L2AROM(SelectorBase):
    """l2-AROM gene selection (Weston et al. 2003), with an optional prior relevance vector (PS-l2-AROM, Helleputte
    & Dupont 2009); with K > 2 classes one rescaling shared by K one-vs-rest SVMs (module docstring).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1) or None, default None
        Signature size s: the first s genes of ``feature_order_`` (a float is a fraction of the genes; more genes
        than there are selects them all, as every selector in genesel). None: the genes still active when the
        iteration has converged. See the module doc for how exactly s genes are chosen.
    prior : None or array of shape (n_features,), default None
        Relevance vector beta > 0 in the column order of X: 1 = no prior knowledge, larger = more relevant a priori.
        None is plain l2-AROM (identical to ``np.ones(n_features)``).
    C : float, default 1000.0
        Box constraint of every SVM solve. The paper's SVM has a hard margin; a large C gives the same solution on
        separable data (microarray data with n << d nearly always are) while staying defined on data that are not.
        ``np.inf`` is the hard margin itself (only for separable data). C is in the units of X (scaling X by a acts
        like scaling C by a^2): on data near 1e200 C=1e3 is the hard margin; one so small against the scale of X
        that C * max |x|^2 underflows raises ``ValueError`` (raise C or standardise the genes).
    max_iter : int, default 500
        Cap on the number of rescaling iterations (a ``ConvergenceWarning`` is issued if it is reached).
    tol : float, default 1e-6
        Convergence: no gene left in the last iteration and the relative change of every active gene's scaling,
        max_j |w_bar_j beta_j / min(1, m_k) - 1|, is below tol (see the module doc).

    Attributes
    ----------
    coef_ : (n_features,) weights of the last SVM in the original feature space (0 for genes that left); the linear
        model is ``X @ coef_ + intercept_``. (K, n_features) with K > 2 classes: one row per one-vs-rest machine.
    intercept_ : float; (K,) with K > 2 classes.
    scaling_ : (n_features,) the final iterate w_K (prior included; proportional to ``coef_ * prior`` on the
        active genes).
    feature_order_ : (n_features,) all genes, best first.
    ranking_ : (n_features,) 1 for the selected genes, then 2, 3, ... along ``feature_order_``.
    support_ : (n_features,) bool mask of the s selected genes.   n_features_ : s.
    n_active_ : genes active at the end.   active_path_ : active genes before each iteration (non-increasing).
    exit_iteration_ : (n_features,) iteration at which each gene left the computation (-1: active at the end).
    n_iter_ : iterations run.   converged_ : whether the stopping rule was met within ``max_iter``.
    classes_ : the class labels (two: classes_[1] is the +1 class of the SVM; K > 2: row k of ``coef_`` is the
        machine of classes_[k] against the rest).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import L2AROM, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> arom = L2AROM(n_features_to_select=4).fit(X, y)
    >>> np.flatnonzero(arom.support_).tolist(), arom.converged_, arom.n_active_
    ([1, 2, 3, 20], True, 5)
    >>> prior = np.where(np.arange(100) < 10, 2.0, 1.0)             # PS-l2-AROM: genes 0-9 favoured a priori
    >>> np.flatnonzero(L2AROM(n_features_to_select=4, prior=prior).fit(X, y).support_).tolist()
    [0, 2, 3, 8]
    >>> pipe = make_pipeline(L2AROM(n_features_to_select=4), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.88
    """

    _parameter_constraints = {"n_features_to_select": N_FEATURES, "prior": ["array-like", None],
                              "C": [POSITIVE_OR_INF], "max_iter": [POSITIVE_INT], "tol": [POSITIVE]}
    _multi_class = True  # K > 2 classes: one rescaling of K one-vs-rest SVMs (module docstring)

    def __init__(self, *, n_features_to_select=None, prior=None, C=1e3, max_iter=500, tol=1e-6):
        self.n_features_to_select = n_features_to_select
        self.prior = prior
        self.C = C
        self.max_iter = max_iter
        self.tol = tol

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, min_samples=2)
        n, d = X.shape
        beta = check_prior(self.prior, d)
        # binary: the SVM of the paper; K > 2 classes: the K one-vs-rest machines (module docstring)
        y_fit = ovr_signs(y_enc, self.classes_.size) if self.classes_.size > 2 else y_enc
        res = arom_path(X, y_fit, beta, C=float(self.C), tol=float(self.tol), max_iter=int(self.max_iter))
        if max(res["smo_gaps"]) >= _SMO_TOL:
            warnings.warn(
                f"L2AROM: an SVM solve stopped before convergence (KKT gap {max(res['smo_gaps']):.3g}); with a hard "
                "margin (C=inf) the data may not be separable: use a finite C",
                ConvergenceWarning, stacklevel=2,
            )
        if not res["converged"]:
            warnings.warn(
                f"L2AROM: not converged after max_iter={self.max_iter} iterations (largest relative weight change "
                f"{res['change']:.3g} > tol={self.tol}, {int(np.sum(res['exit_iteration'] < 0))} genes active); "
                "increase max_iter or tol",
                ConvergenceWarning, stacklevel=2,
            )
        self.coef_ = res["coef"]
        self.intercept_ = res["intercept"]
        self.scaling_ = res["scaling"]
        self.exit_iteration_ = res["exit_iteration"]
        self.feature_order_ = res["order"]
        self.active_path_ = np.asarray(res["n_active"], dtype=np.int64)
        self.n_active_ = int(np.sum(res["exit_iteration"] < 0))
        self.n_iter_ = int(res["n_iter"])
        self.converged_ = bool(res["converged"])
        s = self._n_select(d, self.n_active_)  # None: the genes still active
        support = np.zeros(d, dtype=bool)
        support[self.feature_order_[:s]] = True
        ranking = np.empty(d, dtype=np.int64)
        ranking[self.feature_order_] = np.maximum(1, np.arange(d) - s + 2)
        self.support_ = support
        self.ranking_ = ranking
        self.n_features_ = int(s)
        return self

    def signature(self, size):
        """Column indices (ascending) of the signature of ``size`` genes: the first ``size`` of ``feature_order_``
        (:meth:`subset`, under the name of Helleputte & Dupont 2009)."""
        return self.subset(size)
