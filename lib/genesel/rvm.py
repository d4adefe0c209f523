"""Relevance vector machine (RVM) classification by fast marginal-likelihood maximisation.

M. E. Tipping, *Sparse Bayesian Learning and the Relevance Vector Machine*, JMLR 1, 2001 (model, Sec. 2 and 4:
Bernoulli likelihood, Laplace approximation found by IRLS); M. E. Tipping, A. C. Faul, *Fast Marginal Likelihood
Maximisation for Sparse Bayesian Models*, AISTATS 2003 (the constructive algorithm, Sec. 4); used in M. Tan,
*Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*, MSc
thesis, UBC 2006, §3.3.2 (RVM on a kernel of the samples) and §4.4 (RVM on the genes: feature weighting).

Model: P(y = 1 | x) = σ(Σ_m w_m φ_m(x)), prior w_m ~ N(0, 1/α_m) with one precision α_m per basis function.
The basis functions are either a kernel centred on the training samples, φ_j(x) = k(x, x_j) (``kernel=...``), or
the genes themselves, φ_g(x) = x_g (``kernel=None``; a large α_g prunes gene g, so the fit selects genes), plus an
optional constant (bias) basis function.

Laplace approximation (Tipping 2001 Sec. 4): for fixed α the posterior mode w* maximises
Σ_i log p(t_i|w) − ½ wᵀAw (Newton/IRLS); with B = diag(σ_i(1 − σ_i)) at the mode, Σ = (ΦᵀBΦ + A)⁻¹, the
marginal likelihood is that of a Gaussian model with noise covariance B⁻¹ and pseudo-targets t̂ = Φw* + B⁻¹(t − σ).
The fast algorithm (Tipping & Faul Eqs. 19–22 for the sparsity and quality factors, Sec. 4 for add / re-estimate /
delete) works on this Gaussian model: with C = B⁻¹ + Φ_A A⁻¹ Φ_Aᵀ,

    S_m = φ_mᵀ C⁻¹ φ_m,   Q_m = φ_mᵀ C⁻¹ t̂,
    s_m = α_m S_m / (α_m − S_m), q_m = α_m Q_m / (α_m − S_m)  (m in the model; s = S, q = Q otherwise),

and the optimal α_m is s_m² / (q_m² − s_m) if q_m² > s_m, else ∞ (pruned). Each iteration takes the single action
(add, re-estimate or delete one basis function) with the largest gain in the log marginal likelihood, then recomputes
the mode. C is never formed: by the Woodbury identity C⁻¹ = B − BΦ_A Σ Φ_Aᵀ B, so all S_m, Q_m cost O(n·M·|A|)
time and O(n·M) memory for M candidate basis functions — with thousands of genes and tens of samples nothing of
size M × M or n × n × M is built. Basis vectors are scaled to unit length internally (as in Tipping's SparseBayes)
and the weights are mapped back.

Prediction uses the plug-in probability σ(φ(x)ᵀw*) as in Tipping 2001. ``tests/test_rvm.py`` checks the solution
against a direct n × n implementation (``tests/naive/rvm.py``): the reported evidence equals the directly computed
Laplace evidence, the solution is a fixed point of the direct updates, and Tipping's original re-estimation reaches no
higher evidence.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import _num_samples, check_is_fitted, validate_data

from genesel._core.gram import gram
from genesel._core.threads import blas_threads_for
from genesel._core.validation import check_binary_fit, check_expression_data

_SINGLE_THREAD_MAX_N = 512
__all__ = ["RVM", "rvm_posterior_mode"]

_KERNELS = ("linear", "rbf", "poly", "precomputed", None)


def _sigmoid(f):
    return 0.5 * (1.0 + np.tanh(0.5 * f))


def _loglik(t, f):
    # Σ t log σ(f) + (1−t) log(1−σ(f)), stable
    return float(-(np.logaddexp(0.0, -f) * t + np.logaddexp(0.0, f) * (1.0 - t)).sum())


def rvm_posterior_mode(Phi, t, alpha, w0=None, max_iter=100):
    """Posterior mode of the Bernoulli model with prior N(0, diag(1/alpha)) by damped Newton (IRLS).

    Returns (w, upper Cholesky factor U of the Hessian ΦᵀBΦ + A at the mode, f = Φw, log p(t|w) − ½wᵀAw).
    """
    M = Phi.shape[1]
    w = np.zeros(M) if w0 is None else w0.copy()
    f = Phi @ w
    obj = _loglik(t, f) - 0.5 * np.sum(alpha * w * w)
    for _ in range(max_iter):
        s = _sigmoid(f)
        g = Phi.T @ (t - s) - alpha * w
        beta = s * (1.0 - s)
        H = (Phi.T * beta) @ Phi
        H[np.diag_indices_from(H)] += alpha
        U, _ = cho_factor(H, lower=False)
        step = cho_solve((U, False), g)
        dec = g @ step
        if dec < 1e-14 * max(1.0, abs(obj)):
            # within rounding of the mode, where the objective cannot resolve progress: a last full Newton
            # step (quadratic convergence makes it exact to machine precision), no line search
            w = w + step
            f = Phi @ w
            obj = _loglik(t, f) - 0.5 * np.sum(alpha * w * w)
            break
        lr = 1.0
        while lr > 1e-10:
            wn = w + lr * step
            fn = Phi @ wn
            on = _loglik(t, fn) - 0.5 * np.sum(alpha * wn * wn)
            if on >= obj + 1e-4 * lr * dec:
                break
            lr *= 0.5
        if on < obj:
            break
        w, f, obj = wn, fn, on
    s = _sigmoid(f)
    beta = s * (1.0 - s)
    H = (Phi.T * beta) @ Phi
    H[np.diag_indices_from(H)] += alpha
    U = np.linalg.cholesky(H).T
    return w, U, f, obj


class RVM(ClassifierMixin, BaseEstimator):
    """Sparse Bayesian (relevance vector machine) classifier, binary, with the fast marginal-likelihood algorithm.

    Parameters
    ----------
    kernel : {"linear", "rbf", "poly", "precomputed"} or None, default="linear"
        Basis functions k(·, x_j) centred on the training samples; ``None`` uses the genes themselves as basis
        functions (feature weighting, thesis §4.4): ``support_`` then marks the selected genes and
        ``relevances_`` gives each gene's prior precision-derived relevance.
    gamma, degree, coef0 : kernel parameters as in ``sklearn.metrics.pairwise.pairwise_kernels``.
    bias : bool, default=True
        Add a constant basis function (itself subject to pruning, as in Tipping 2001).
    max_iter : int, default=2000
        Maximum number of add / re-estimate / delete steps.
    tol : float, default=1e-3
        Convergence: no basis function can be added or deleted and every re-estimate changes log α by < tol.

    Attributes
    ----------
    classes_, active_ (indices of the retained basis functions; the bias, if kept, is index ``n_basis``),
    alpha_ (their precisions), coef_active_ (their weights, original scale), sigma_ (posterior covariance of those
    weights), log_marginal_likelihood_ (Laplace approximation), n_iter_, converged_, relevance_vectors_ (kernel
    models: indices of the training samples kept), and for ``kernel=None``: coef_ (one weight per gene, 0 if
    pruned), support_ (bool mask of kept genes), relevances_ (1/α per gene, 0 if pruned), intercept_.
    """

    def __init__(self, kernel="linear", gamma=None, degree=3, coef0=1.0, bias=True, max_iter=2000, tol=1e-3):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
        self.max_iter = max_iter
        self.tol = tol

    # ------------------------------------------------------------------ basis
    def _kernel(self, X, Z):
        return gram(X, Z, self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
                    blas=True)

    def _basis(self, X, fit):
        if self.kernel is None:
            P = X
        elif fit:
            P = self._kernel(X, X)
        else:
            P = X if self.kernel == "precomputed" else self._kernel(X, self.X_fit_)
        if self.bias:
            P = np.column_stack([P, np.ones(P.shape[0])])
        return P

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        """Fit on expression data ``X`` (samples × genes; n × n Gram matrix if kernel="precomputed"), binary y."""
        # tiny n × n / n × d BLAS calls: OpenBLAS threads only add overhead (and thrash a loaded machine)
        with blas_threads_for(_num_samples(X), _SINGLE_THREAD_MAX_N):
            return self._fit(X, y)

    def _fit(self, X, y):
        if self.kernel not in _KERNELS:
            raise ValueError(f"RVM: kernel must be one of {_KERNELS}, got {self.kernel!r}")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"RVM: max_iter must be a positive integer, got {self.max_iter!r}")
        if not isinstance(self.tol, numbers.Real) or self.tol <= 0:
            raise ValueError(f"RVM: tol must be a positive number, got {self.tol!r}")
        X, y_pm, self.classes_ = check_binary_fit(self, X, y, min_samples=2)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"RVM: kernel='precomputed' needs a square Gram matrix, got shape {X.shape}")
        t = (y_pm > 0).astype(float)
        Phi = self._basis(X, fit=True)
        norms = np.sqrt(np.einsum("ij,ij->j", Phi, Phi))
        usable = norms > 1e-12 * max(norms.max(), 1e-300)
        scale = np.where(usable, norms, 1.0)
        Phin = Phi / scale[None, :]
        self._fit_normalised(Phin, t, usable)
        self.n_basis_ = Phi.shape[1] - int(self.bias)
        self.coef_active_ = self._w / scale[self.active_]
        self.sigma_ = self._Sigma / np.outer(scale[self.active_], scale[self.active_])
        alpha_orig = self.alpha_ * scale[self.active_] ** 2  # precision of the weight on the unscaled basis
        self.alpha_ = alpha_orig
        self._set_public(X, alpha_orig)
        del self._w, self._Sigma
        return self

    def _fit_normalised(self, Phi, t, usable):
        n, M = Phi.shape
        active = np.zeros(0, dtype=np.int64)
        alpha = np.zeros(0)
        w = np.zeros(0)
        Phi2 = Phi * Phi
        converged = False
        it = 0
        for it in range(1, self.max_iter + 1):
            PA = Phi[:, active]
            if active.size:
                w, U, f, _ = rvm_posterior_mode(PA, t, alpha, w0=w)
            else:
                f = np.zeros(n)
            s = _sigmoid(f)
            beta = np.maximum(s * (1.0 - s), 1e-12)
            that = f + (t - s) / beta
            S = beta @ Phi2
            Q = (beta * that) @ Phi
            if active.size:
                G = (PA * beta[:, None]).T @ Phi  # Φ_AᵀBΦ, |A| × M
                Z = solve_triangular(U, G, trans="T", lower=False, check_finite=False)  # U⁻ᵀ Φ_AᵀBΦ
                zt = solve_triangular(U, PA.T @ (beta * that), trans="T", lower=False, check_finite=False)
                S = S - np.einsum("ij,ij->j", Z, Z)
                Q = Q - Z.T @ zt
            s_ = S.copy()
            q_ = Q.copy()
            in_model = np.zeros(M, dtype=bool)
            in_model[active] = True
            a_full = np.full(M, np.inf)
            a_full[active] = alpha
            Sa, Qa = S[active], Q[active]
            denom = alpha - Sa
            s_[active] = alpha * Sa / denom
            q_[active] = alpha * Qa / denom
            theta = q_**2 - s_
            gain = np.full(M, -np.inf)
            # additions
            add = (~in_model) & (theta > 0) & usable
            gain[add] = 0.5 * ((Q[add] ** 2 - S[add]) / S[add] + np.log(S[add] / Q[add] ** 2))
            # re-estimations
            re = in_model & (theta > 0)
            new_alpha = np.where(theta > 0, s_**2 / np.where(theta > 0, theta, 1.0), np.inf)
            dinv = 1.0 / new_alpha[re] - 1.0 / a_full[re]
            with np.errstate(divide="ignore", invalid="ignore"):
                gre = 0.5 * (Q[re] ** 2 / (S[re] + 1.0 / dinv) - np.log1p(S[re] * dinv))
            gain[re] = np.where(dinv == 0, 0.0, gre)
            # deletions (keep at least one basis function)
            dele = in_model & (theta <= 0)
            if active.size > 1:
                gain[dele] = 0.5 * (Q[dele] ** 2 / (S[dele] - a_full[dele]) - np.log1p(-S[dele] / a_full[dele]))
            dlog = np.abs(np.log(new_alpha[re] / a_full[re])) if re.any() else np.zeros(0)
            if not add.any() and not (dele.any() and active.size > 1) and (dlog.size == 0 or dlog.max() < self.tol):
                converged = True
                break
            m = int(np.argmax(gain))
            if not np.isfinite(gain[m]):
                converged = True
                break
            if add[m]:
                active = np.append(active, m)
                alpha = np.append(alpha, s_[m] ** 2 / theta[m])
                w = np.append(w, 0.0)
            elif re[m]:
                alpha[np.flatnonzero(active == m)[0]] = new_alpha[m]
            else:
                k = np.flatnonzero(active == m)[0]
                active = np.delete(active, k)
                alpha = np.delete(alpha, k)
                w = np.delete(w, k)
        # final posterior at the returned α
        order = np.argsort(active)
        active, alpha, w = active[order], alpha[order], w[order]
        PA = Phi[:, active]
        w, U, f, obj = rvm_posterior_mode(PA, t, alpha, w0=w)
        Uinv = solve_triangular(U, np.eye(U.shape[0]), lower=False)
        self._Sigma = Uinv @ Uinv.T
        self._w = w
        self.active_ = active
        self.alpha_ = alpha
        # Laplace evidence: log p(t|w*) − ½ w*ᵀAw* + ½ Σ log α − log|U|
        self.log_marginal_likelihood_ = float(obj + 0.5 * np.sum(np.log(alpha)) - np.sum(np.log(np.diag(U))))
        self.n_iter_ = it
        self.converged_ = converged

    def _set_public(self, X, alpha):
        nb = self.n_basis_
        is_bias = self.active_ == nb
        self.intercept_ = float(self.coef_active_[is_bias].sum()) if self.bias else 0.0
        idx = self.active_[~is_bias]
        wk = self.coef_active_[~is_bias]
        if self.kernel is None:
            coef = np.zeros(nb)
            coef[idx] = wk
            rel = np.zeros(nb)
            rel[idx] = 1.0 / alpha[~is_bias]
            self.coef_ = coef
            self.support_ = coef != 0.0
            self.relevances_ = rel
            self.feature_importances_ = np.abs(coef)
        else:
            self.relevance_vectors_ = idx
            self.dual_coef_ = wk
            self.X_fit_ = X[idx] if self.kernel != "precomputed" else None

    # ------------------------------------------------------------------ predict
    def decision_function(self, X):
        """Latent score φ(x)ᵀw* (log-odds of classes_[1])."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, ensure_all_finite=False)
        X = check_expression_data(X, name="X", allow_constant=True, min_samples=1)
        if self.kernel is None:
            return X @ self.coef_ + self.intercept_
        if self.kernel == "precomputed":
            Kx = X[:, self.relevance_vectors_]
        else:
            Kx = self._kernel(X, self.X_fit_) if self.relevance_vectors_.size else np.zeros((X.shape[0], 0))
        return Kx @ self.dual_coef_ + self.intercept_

    def predict_proba(self, X):
        """Class probabilities (n, 2): σ(φ(x)ᵀw*) for classes_[1]."""
        p1 = _sigmoid(self.decision_function(X))
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X):
        """Class labels (original labels)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
