"""Sparse multinomial logistic regression (SMLR) by bound optimisation.

B. Krishnapuram, L. Carin, M. A. T. Figueiredo, A. J. Hartemink, *Sparse Multinomial Logistic Regression: Fast
Algorithms and Generalization Bounds*, IEEE TPAMI 27(6), 2005; used as a classifier and as a gene-weighting method
in M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression
Data*, MSc thesis, UBC 2006, sections 3.3.2 and 4.4.

Model (Krishnapuram et al. Eq. 1): P(y = j | x) = exp(w_jᵀx + b_j) / Σ_k exp(w_kᵀx + b_k). With a Laplacian prior
p(w) ∝ exp(−λ‖w‖₁) the MAP estimate maximises

    L(w) = Σ_i log P(y_i | x_i) − λ ‖w‖₁                                                   (Eq. 6)

(the bias b is not penalised). Bound optimisation (Sec. III-A, III-C): the Hessian of the log-likelihood is bounded
below by −B (Böhning's bound); for a *single* coordinate w_kj the second derivative
−Σ_i p_ij(1 − p_ij) x_ik² is never below −¼ Σ_i x_ik², so the surrogate that replaces the curvature by this bound is a
minorizer of L and its maximiser in that coordinate is the soft-threshold step (Eq. 13, the component-wise update)

    w_kj ← soft(w_kj + g_kj / c_k, λ / c_k),  g_kj = Σ_i x_ik (1[y_i = j] − p_ij),  c_k = ¼ Σ_i x_ik²,

which never decreases L (monotone MM); cycling over all coordinates converges to the global optimum of the concave
objective. (For m = 2 classes, ¼ is exactly the diagonal of Krishnapuram's bound ½(1 − 1/m)·XᵀX; for m > 2 the
coordinate-wise bound ¼ is tighter than the diagonal of the block bound and equally valid.)

Parametrisation: for two classes we use one weight vector (the other class fixed at zero, as in the paper), so
SMLR is l1-penalised logistic regression. For m > 2 classes we keep all m weight vectors: the l1 penalty makes the
optimum unique, and it is the parametrisation of scikit-learn's multinomial ``LogisticRegression``. In both cases
the optimum equals that of ``sklearn.linear_model.LogisticRegression(l1_ratio=1, solver="saga", C=1/lam)``, whose
objective is ‖w‖₁ + C·Σ log-loss with an unpenalised intercept (``tests/test_smlr.py`` checks this).

Units: ``lam`` is in the units of X (scaling X by a is the problem with lam scaled by a); ``lam_scale="max"`` is
scale-free. The fit runs on the basis times a power of two (exact), and columns far from 0 against their spread
are centred (the unpenalised bias absorbs it), so raw intensities no longer make the coordinate steps crawl. A fit
whose weights are all zero (lam at or above lambda_max) warns (``DegenerateModelWarning``), one stopped at
``max_iter`` warns (``ConvergenceWarning``).

Implementation: the coordinate sweep is a numba kernel (``_smlr_sweep``; plain-Python twin in
``tests/naive/smlr.py``). Sweeps over the non-zero (active) coordinates alternate with full sweeps, and the
iteration stops when the largest violation of the optimality (subgradient) conditions is below ``tol``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.gram import gram
from genesel._core.params import POSITIVE, POSITIVE_INT, StrOptions, integer, real
from genesel._core.threads import few_samples_one_blas_thread
from genesel._core.units import pow2_exponent
from genesel._core.validation import (check_expression_data, ignore_constant_genes, mean_std, warn_degenerate,
                                      warn_if_one_class, zero_ignored_genes)

_SINGLE_THREAD_MAX_N = 512
#: lam below this fraction of lambda_max is no prior at all (below the rounding of the gradient it is compared with)
_NEGLIGIBLE_LAM = 1e-12
__all__ = ["SMLR", "smlr_objective"]


@njit(cache=True)
def _coordinate_objective(X, Y, eta, k, j, delta, K):
    """The negative log-likelihood after moving the linear predictor of class j by ``delta`` times gene k (k = -1:
    the bias), from the current ``eta``: sum_i (log-partition_i - eta_i,y_i) (binary: softplus(eta) - y eta)."""
    n = eta.shape[0]
    total = 0.0
    for i in range(n):
        xik = 1.0 if k < 0 else X[i, k]
        if K == 1:
            e = eta[i, 0] + delta * xik
            sp = e + np.log1p(np.exp(-e)) if e > 0.0 else np.log1p(np.exp(e))
            total += sp - Y[i, 0] * e
        else:
            mx = -np.inf
            for jj in range(K):
                e = eta[i, jj] + (delta * xik if jj == j else 0.0)
                if e > mx:
                    mx = e
            s = 0.0
            ey = 0.0
            for jj in range(K):
                e = eta[i, jj] + (delta * xik if jj == j else 0.0)
                s += np.exp(e - mx)
                ey += Y[i, jj] * e
            total += mx + np.log(s) - ey
    return total


@njit(cache=True)
def _soft(z, t):
    if z > t:
        return z - t
    if z < -t:
        return z + t
    return 0.0


@njit(cache=True)
def _smlr_sweep(X, Y, W, b, eta, lse, lam, curv, order, fit_intercept):
    """One pass of component-wise updates (in place).

    X (n, d), Y (n, K) 0/1 targets, W (d, K) weights, b (K,) bias, eta (n, K) = X W + b, lse (n,) log-partition.
    K == 1 means the binary model P(y=1|x) = sigmoid(eta). ``order`` lists the feature indices to visit.
    Returns the largest change of the linear predictor, max |Δw|·sqrt(Σ x²) (a scale-free step size).

    Each coordinate's update is the better of two candidates of its one-dimensional objective (the negative
    log-likelihood plus lam |w|, every other coordinate fixed): the bound-optimisation step of Krishnapuram et al.
    (Eq. 13, curvature bound c = ¼ Σ x²), which never increases the objective, and the proximal Newton step with the
    coordinate's own curvature h = Σ p (1 − p) x² ≤ c. Near a separating solution p (1 − p) is small and the bound
    step crawls (thousands of sweeps); the Newton step is taken when it lowers the objective more, so every update
    still decreases it at least as much as Eq. 13 does, and the fixed point, the optimum, is the same.

    The class probabilities enter every coordinate's gradient but change only when a weight does: they are kept
    (``P``) and recomputed after each update, from the same ``eta`` and ``lse`` and by the same expressions as
    computing them afresh.
    """
    n, K = Y.shape
    P = np.empty((n, K))
    for i in range(n):
        for j in range(K):
            if K == 1:
                P[i, 0] = 1.0 / (1.0 + np.exp(-eta[i, 0]))
            else:
                P[i, j] = np.exp(eta[i, j] - lse[i])
    biggest = 0.0
    for kk in range(order.shape[0] + (1 if fit_intercept else 0)):
        is_bias = kk == order.shape[0]
        k = -1 if is_bias else order[kk]
        c = 0.25 * n if is_bias else curv[k]
        if c <= 0.0:
            continue
        for j in range(K):
            g = 0.0
            h = 0.0
            for i in range(n):
                xik = 1.0 if is_bias else X[i, k]
                g += xik * (Y[i, j] - P[i, j])
                h += P[i, j] * (1.0 - P[i, j]) * xik * xik
            old = b[j] if is_bias else W[k, j]
            pen = 0.0 if is_bias else lam
            new = _soft(old + g / c, pen / c)  # Eq. 13
            if h > 0.0 and h < c:
                newton = _soft(old + g / h, pen / h)
                if newton != new:
                    f_bound = _coordinate_objective(X, Y, eta, k, j, new - old, K) + pen * abs(new)
                    f_newton = _coordinate_objective(X, Y, eta, k, j, newton - old, K) + pen * abs(newton)
                    if f_newton < f_bound:
                        new = newton
            delta = new - old
            if is_bias:
                b[j] = new
            else:
                W[k, j] = new
            if delta != 0.0:
                step = abs(delta) * np.sqrt(c * 4.0)
                if step > biggest:
                    biggest = step
                for i in range(n):
                    xik = 1.0 if is_bias else X[i, k]
                    eta[i, j] += delta * xik
                if K == 1:
                    for i in range(n):
                        P[i, 0] = 1.0 / (1.0 + np.exp(-eta[i, 0]))
                else:
                    for i in range(n):
                        mx = eta[i, 0]
                        for jj in range(1, K):
                            if eta[i, jj] > mx:
                                mx = eta[i, jj]
                        s = 0.0
                        for jj in range(K):
                            s += np.exp(eta[i, jj] - mx)
                        lse[i] = mx + np.log(s)
                        for jj in range(K):
                            P[i, jj] = np.exp(eta[i, jj] - lse[i])
    return biggest


@njit(cache=True)
def _smlr_active_sweeps(X, Y, W, b, eta, lse, lam, curv, active, fit_intercept, max_sweeps, stop):
    """Sweeps of :func:`_smlr_sweep` over the active genes ``active`` until one moves the linear predictor by less
    than ``stop`` (or ``max_sweeps`` are done); returns the number of sweeps. The loop of the fit's active-set
    phase, compiled, because its sweeps are short (a few genes) and were called from Python by the hundred
    thousand per leaderboard fold."""
    done = 0
    while done < max_sweeps:
        step = _smlr_sweep(X, Y, W, b, eta, lse, lam, curv, active, fit_intercept)
        done += 1
        if step < stop:
            break
    return done


def _log_partition(eta):
    mx = eta.max(axis=1)
    return mx + np.log(np.exp(eta - mx[:, None]).sum(axis=1))


def _probabilities(eta):
    """Class probabilities (n, m) from the linear predictors (n, K); K == 1 is the binary model."""
    if eta.shape[1] == 1:
        with np.errstate(over="ignore"):  # exp(-eta) = inf for eta < -709: p1 = 0, as it should
            p1 = 1.0 / (1.0 + np.exp(-eta[:, 0]))
        return np.column_stack([1.0 - p1, p1])
    return np.exp(eta - _log_partition(eta)[:, None])


def smlr_objective(X, y_index, coef, intercept, lam):
    """Penalised negative log-likelihood Σ_i −log P(y_i|x_i) + λ‖w‖₁ (SMLR minimises this; Eq. 6 negated).

    ``y_index`` holds class indices 0..m−1; ``coef`` is (K, d) and ``intercept`` (K,), K = 1 for the binary model.
    """
    coef = np.atleast_2d(coef)
    eta = X @ coef.T + np.asarray(intercept)[None, :]
    if coef.shape[0] == 1:
        f = eta[:, 0]
        s = np.where(np.asarray(y_index) == 1, 1.0, -1.0)
        nll = np.logaddexp(0.0, -s * f).sum()
    else:
        nll = (_log_partition(eta) - eta[np.arange(eta.shape[0]), y_index]).sum()
    return float(nll + lam * np.abs(coef).sum())


class SMLR(ClassifierMixin, BaseEstimator):
    """Sparse multinomial logistic regression with a Laplacian prior (Krishnapuram et al. 2005).

    Maximises Σ_i log P(y_i | x_i) − lam·‖w‖₁ by component-wise bound optimisation (see the module docstring).
    Binary and multiclass. Many genes get exactly zero weight; ``support_`` marks the genes kept and
    ``feature_importances_`` their largest absolute weight over the classes.

    Parameters
    ----------
    lam : float, default=1.0
        Weight λ > 0 of the Laplacian prior (larger → sparser). Equivalent to ``C = 1/lam`` in scikit-learn's
        l1 ``LogisticRegression``.
    lam_scale : {"absolute", "max"}, default="absolute"
        ``"max"``: the prior weight used is ``lam × λ_max``, where λ_max = max_kj |∂ log-lik / ∂w_kj| at w = 0
        (with the bias at its null-model value) is the smallest λ whose solution has no non-zero weight; so
        ``lam`` in (0, 1) is a scale-free fraction (as ``lambda_min_ratio`` in glmnet), handy for grids.
    kernel : None or {"linear", "rbf", "poly"}, default=None
        ``None``: the genes are the basis functions (feature weighting, thesis §4.4; ``support_`` marks the genes
        kept). Otherwise the basis functions are k(·, x_j) centred on the training samples (Krishnapuram et al.
        Sec. II, as used for the classifier comparison of thesis §3.4); ``coef_`` then weighs training samples.
    gamma, degree, coef0 : kernel parameters as in ``sklearn.metrics.pairwise.pairwise_kernels``.
    fit_intercept : bool, default=True
        Fit an unpenalised bias per class.
    max_iter : int, default=20000
        Maximum number of coordinate sweeps (full plus active-set sweeps).
    tol : float, default=1e-7
        Stop when the largest violation of the optimality conditions, relative to ``max(1, lam)``, is below tol,
        both measured with the genes in units where the largest |x| lies in [0.5, 1) (the same test at every scale).

    Attributes
    ----------
    classes_, lam_ (the prior weight used), coef_ (K × n_genes, or K × n_train_samples with a kernel; K = 1 for two
    classes), intercept_ (K,), n_iter_, converged_, objective_,
    support_ (bool mask of the basis functions — genes, or training samples with a kernel — with a non-zero
    weight), feature_importances_.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import SMLR
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> smlr = SMLR(lam=0.3, lam_scale="max").fit(X[::2], y[::2])   # 0.3 x the weight that keeps no gene
    >>> smlr.converged_, np.flatnonzero(smlr.support_).tolist()
    (True, [0, 1, 2, 3])
    >>> smlr.score(X[1::2], y[1::2])
    0.9
    >>> smlr.predict_proba(X[1:6:2]).round(2).tolist()
    [[0.6, 0.4], [0.52, 0.48], [0.49, 0.51]]
    """

    _parameter_constraints = {
        "lam": [POSITIVE], "lam_scale": [StrOptions({"absolute", "max"})],
        "kernel": [StrOptions({"linear", "rbf", "poly"}), None], "gamma": [POSITIVE, None],
        "degree": [integer(0, None, "left")], "coef0": [real(None, None, "neither")], "fit_intercept": ["boolean"],
        "max_iter": [POSITIVE_INT], "tol": [POSITIVE],
    }

    def __init__(self, *, lam=1.0, lam_scale="absolute", kernel=None, gamma=None, degree=3, coef0=1.0,
                 fit_intercept=True, max_iter=20000, tol=1e-7):
        self.lam = lam
        self.lam_scale = lam_scale
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _basis(self, X):
        if self.kernel is None:
            return X
        return gram(X, self.X_fit_, self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
                    blas=True)

    @_fit_context(prefer_skip_nested_validation=True)
    @few_samples_one_blas_thread(_SINGLE_THREAD_MAX_N)
    def fit(self, X, y):
        """Fit on expression data ``X`` (samples × genes) and class labels ``y`` (two or more classes)."""
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2, ensure_all_finite=False)
        X = check_expression_data(X, name="X", allow_constant=True)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        m = self.classes_.size
        if m < 2:
            raise ValueError(
                f"SMLR: y holds a single class ({self.classes_.tolist()}); a classifier needs at least two classes "
                "in its training data (use stratified splits for small folds)"
            )
        X = ignore_constant_genes(self, X)  # ignored for the fit: set to 0 (module genesel._core.validation)
        if self.kernel is not None:
            self.X_fit_ = X
            X = self._basis(X)
        # data-relative units (exact): the basis B is multiplied by 2^e so that max |B| lies in [0.5, 1); then
        # w' = w / 2^e and the prior weight is lam' = lam 2^e (the same problem, bit for bit on ordinary data),
        # and the curvature bounds sum(B^2) / 4 neither overflow nor underflow at any scale of X
        e = pow2_exponent(X)
        self._basis_exp = e
        X = np.ldexp(X, e)
        # the bias is not penalised, so subtracting a constant c from a column changes only the bias
        # (eta = (B - c) w + b' with b = b' - c.w): columns far from 0 against their spread (raw intensities) are
        # centred, which keeps their curvature bound sum(B^2) / 4 from dwarfing the curvature that matters (the
        # coordinate steps used to crawl and stop at max_iter); columns of centred data (|mean| <= sd, e.g.
        # standardised genes) are left exactly as they are
        center = np.zeros(X.shape[1])
        if self.fit_intercept:
            mu, sd = mean_std(X)
            far = np.abs(mu) > sd
            center[far] = mu[far]
            X = X - center if far.any() else X
        n, d = X.shape
        K = 1 if m == 2 else m
        Y = np.zeros((n, K))
        if K == 1:
            Y[:, 0] = y_index == 1
        else:
            Y[np.arange(n), y_index] = 1.0
        W = np.zeros((d, K))
        b = np.zeros(K)
        if self.fit_intercept:  # start the bias at the unpenalised maximum-likelihood value of the null model
            freq = np.clip(Y.mean(axis=0), 1e-12, None)
            b = np.log(freq / (1.0 - freq)) if K == 1 else np.log(freq) - np.log(freq).mean()
        eta = np.tile(b, (n, 1))
        lse = _log_partition(eta) if K > 1 else np.zeros(n)
        curv = 0.25 * np.einsum("ij,ij->j", X, X)
        P0 = _probabilities(eta)
        lam_max = float(np.abs(X.T @ (Y - (P0[:, 1:2] if K == 1 else P0))).max()) if d else 0.0  # scaled units
        if self.lam_scale == "max":
            lam = float(self.lam) * max(lam_max, 1e-300)
        else:
            with np.errstate(over="ignore", under="ignore"):
                lam = float(np.ldexp(float(self.lam), e))
        with np.errstate(over="ignore", under="ignore"):
            self.lam_ = float(np.ldexp(lam, -e))
        all_idx = np.arange(d, dtype=np.int64)
        # the optimality test in the fit's own units (max |x| in [0.5, 1)), so that it stops at the same point at
        # every scale of X: on a separable problem with a negligible lam (no finite optimum) the stopping point is
        # all that decides the model
        scale = max(1.0, lam)
        n_iter, converged = 0, False
        while n_iter < self.max_iter:
            _smlr_sweep(X, Y, W, b, eta, lse, lam, curv, all_idx, self.fit_intercept)
            n_iter += 1
            viol = self._kkt_violation(X, Y, W, b, lam, self.fit_intercept) / scale
            if viol < self.tol:
                converged = True
                break
            active = np.flatnonzero(np.any(W != 0.0, axis=1)).astype(np.int64)
            # inner loop on the active set until the step sizes are small
            if n_iter < self.max_iter and active.size:
                n_iter += _smlr_active_sweeps(X, Y, W, b, eta, lse, lam, curv, active, self.fit_intercept,
                                              self.max_iter - n_iter, 0.1 * self.tol * scale)
        self._coef_scaled = W.T.copy()
        with np.errstate(over="ignore", under="ignore"):
            self.coef_ = np.ldexp(self._coef_scaled, e)
        b_centred = b
        if self.fit_intercept:
            b = b - self._coef_scaled @ center  # the bias of the uncentred basis
        # multiclass biases are unpenalised and defined only up to a common shift: report them centred
        self.intercept_ = (b - b.mean() if K > 1 else b.copy()) if self.fit_intercept else np.zeros(K)
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.objective_ = smlr_objective(X, y_index, self._coef_scaled,
                                         (b_centred - b_centred.mean() if K > 1 else b_centred)
                                         if self.fit_intercept else self.intercept_, lam)
        if not converged:
            import warnings

            from sklearn.exceptions import ConvergenceWarning

            warnings.warn(f"SMLR: stopped at max_iter={self.max_iter} sweeps before the optimality conditions held "
                          f"to tol={self.tol:g}; the weights are not the optimum: raise max_iter or standardise the "
                          "genes", ConvergenceWarning, stacklevel=3)
        self.support_ = np.any(self._coef_scaled != 0.0, axis=0)
        self.feature_importances_ = np.abs(self.coef_).max(axis=0)
        what = "gene" if self.kernel is None else "basis function"
        if d and not self.support_.any():
            with np.errstate(over="ignore", under="ignore"):
                lmx = float(np.ldexp(lam_max, -e))
            if self.lam_scale == "max":
                cause = (f"lam={self.lam:g} is a fraction of lambda_max = {lmx:.3g} (the smallest prior weight that "
                         f"removes every {what} for these data) of at least 1")
            else:
                cause = (f"lam={self.lam:g} is at or above lambda_max = {lmx:.3g}, the smallest prior weight that "
                         f"removes every {what} for these data (lam is in the units of X)")
            warn_degenerate("SMLR", "every weight is zero, so the model predicts from the intercept alone", cause,
                            "use a smaller lam, or lam_scale='max' with lam in (0, 1) (a scale-free fraction)")
        elif K == 1:
            pred = self.classes_[(X @ self._coef_scaled[0] + b_centred[0] > 0).astype(int)]
            warn_if_one_class(self, pred, self.classes_[y_index],
                              f"the weights kept by lam={self.lam:g} are too small to overturn the bias",
                              "use a smaller lam (or lam_scale='max' with a smaller fraction)")
        if self.support_.any() and lam < _NEGLIGIBLE_LAM * lam_max:
            eta_fit = X @ self._coef_scaled.T + b_centred[None, :]
            pred = (eta_fit[:, 0] > 0).astype(int) if K == 1 else np.argmax(eta_fit, axis=1)
            if np.array_equal(pred, y_index):  # separable: the likelihood has no finite maximum
                with np.errstate(over="ignore", under="ignore"):
                    lmx = float(np.ldexp(lam_max, -e))
                warn_degenerate("SMLR",
                                f"lam={self.lam_:.3g} is negligible at the scale of X (lambda_max = {lmx:.3g})",
                                "the training classes are separable, so without a prior the weights grow without "
                                "bound and the fit stops wherever its optimality test first holds",
                                "raise lam, or use lam_scale='max' with lam a fraction of lambda_max")
        return self

    @staticmethod
    def _kkt_violation(X, Y, W, b, lam, fit_intercept, e=0):
        """Largest violation of the optimality conditions in the units of the original basis (X, W and lam are
        in units scaled by 2^e, 2^-e and 2^e)."""
        eta = X @ W + b[None, :]
        P = _probabilities(eta)
        R = Y - (P[:, 1:2] if W.shape[1] == 1 else P)
        G = X.T @ R  # gradient of the log-likelihood
        nz = W != 0.0
        v = np.where(nz, np.abs(G - lam * np.sign(W)), np.maximum(np.abs(G) - lam, 0.0))
        with np.errstate(over="ignore", under="ignore"):
            out = float(np.ldexp(v.max(), -e)) if v.size else 0.0
        if fit_intercept:
            out = max(out, float(np.abs(R.sum(axis=0)).max()))
        return out

    def decision_function(self, X):
        """Linear predictors: (n,) for two classes (log-odds of classes_[1]), else (n, m)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, ensure_all_finite=False)
        X = zero_ignored_genes(self, check_expression_data(X, name="X", allow_constant=True, min_samples=1))
        eta = np.ldexp(self._basis(X), self._basis_exp) @ self._coef_scaled.T + self.intercept_[None, :]
        return eta[:, 0] if eta.shape[1] == 1 else eta

    def predict_proba(self, X):
        """Class probabilities (n, m); rows sum to one."""
        eta = self.decision_function(X)
        return _probabilities(eta[:, None] if eta.ndim == 1 else eta)

    def predict(self, X):
        """Most probable class label (original labels)."""
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
