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
(add, re-estimate or delete one basis function) with the largest gain in the log marginal likelihood (Tipping &
Faul Eqs. 27–29 for the three gains), then recomputes the mode.

Implementation: the numba kernels in :mod:`genesel._rvm_kernels` (C is never formed, the Cholesky factor of the
posterior Hessian is carried from one action to the next; see that module). Basis vectors are scaled to unit length
internally (as in Tipping's SparseBayes) and the weights are mapped back.

Safeguards the papers leave open. For the Bernoulli likelihood the Gaussian model moves with the mode, so a step
whose predicted gain is positive can lose evidence, and the loop can then alternate for ever (seen on Leukemia and
prostate folds; the C++ SparseBayes port runs into its iteration limit on some of them too):
(1) a re-estimation of α_m that reverses the previous one without shrinking it (|Δ log α_m| ≥ 0.9 of the last
step) three times in a row has its log-α step halved, and halved again at each further such reversal;
(2) the loop is deterministic, so when it comes back, before an addition or deletion, to a model it has been in
before (the same basis set with the same evidence to 1e-9) it would go round the same cycle of models for ever (e.g.
add φ_m, delete φ_m, ...; or delete φ_a, add φ_b, delete φ_b, add φ_a, ...): the Laplace evidences of the models on
the cycle are known, so it goes on to the best of them and there blocks the step that leaves it.
Every other step is the plain Tipping–Faul step, so fits that converged without them are unchanged (checked on the
training parts of 5-fold splits of 20 binary expression data sets, linear kernel and genes: 193 of 200 fits
identical; the other 7 had run into max_iter before and now converge, 6 of them at a higher evidence). (3) A fit
that ends as a constant predictor (no basis function but the bias, or one class predicted for
every training sample) warns, naming the cause and the remedy, and reports ``converged_=False``; one that reaches
``max_iter`` warns with a ``ConvergenceWarning``.

Units (issue: no result may depend on the units of X where the model allows). Internally X is divided by a power of
two near its largest value (exact in floating point; no overflow or underflow at ×1e±300), and with a bias the
linear and polynomial kernels and the gene basis (``kernel=None``) work on X centred on its training mean: the bias
absorbs the offset (polynomials of degree ≤ p stay polynomials of degree ≤ p under a shift), so the functions the
model can express are the same, but the prior no longer depends on where the origin of the measurements lies (on
uncentred data every linear-kernel column is nearly the constant vector and the evidence then keeps one
near-constant column: a one-class predictor). The RBF kernel is computed on the centred data too (it is
translation-invariant, so the model is unchanged and the distances lose no digits), and ``gamma=None`` means
1 / (n_features · Var X) as scikit-learn's "scale". On already centred data (e.g. after per-gene standardisation on
the training part) centring changes nothing but rounding. A precomputed kernel is used as given.

Prediction uses the plug-in probability σ(φ(x)ᵀw*) as in Tipping 2001.

K >= 3 classes: one against the rest. Tipping 2001 (Sec. 4) writes the multi-class likelihood as a product of K
sigmoids or a softmax but fits binary models in his experiments, and the constructive algorithm of Tipping & Faul is
derived for one weight vector per prior precision; the multinomial RVM with precisions shared by the classes
(Damoulas & Girolami 2008) is another algorithm (an EM over auxiliary variables), not implemented here. So
``RVM`` fits K binary RVMs, class c against the others, each with its own precisions (``estimators_``): K times the
cost of one binary fit. ``decision_function`` is (n, K), the K latent scores φ(x)ᵀw*_c; ``predict`` the class of the
largest; ``predict_proba`` the K plug-in probabilities σ(φ(x)ᵀw*_c) normalised to sum to one (scikit-learn's
``OneVsRestClassifier`` rule). With the genes as basis functions a gene is kept when any class's model keeps it.
``tests/test_rvm.py`` checks the numba kernel against its plain-Python twin (``tests/naive/rvm.py``, the vectorised
implementation this module had before) and the solution against a direct n × n implementation: the reported
evidence equals the directly computed Laplace evidence, the solution is a fixed point of the direct updates, and
Tipping's original re-estimation reaches no higher evidence.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from genesel import _rvm_kernels as _rk
from genesel._core.base import BinaryClassifier
from genesel._core.gram import gram
from genesel._core.linalg import normalise_rows
from genesel._core.params import POSITIVE, POSITIVE_INT, StrOptions, integer, real
from genesel._core.threads import few_samples_one_blas_thread
from genesel._core.units import offset_message, offset_ratio, scale_pow2, unit_row_exponent
from genesel._core.validation import check_classification_fit, kernel_array, warn_degenerate, zero_ignored_genes

_SINGLE_THREAD_MAX_N = 512
__all__ = ["RVM", "rvm_posterior_mode"]


def rvm_posterior_mode(Phi, t, alpha, w0=None, max_iter=100):
    """Posterior mode of the Bernoulli model with prior N(0, diag(1/alpha)) by damped Newton (IRLS).

    Returns (w, upper Cholesky factor U of the Hessian ΦᵀBΦ + A at the mode, f = Φw, log p(t|w) − ½wᵀAw).
    """
    Phi = np.asarray(Phi, dtype=np.float64)
    k = Phi.shape[1]
    PA = np.ascontiguousarray(Phi.T)
    n = Phi.shape[0]
    w = np.zeros(k) if w0 is None else np.array(w0, dtype=np.float64)
    f = np.empty(n)
    L = np.zeros((k, k))
    obj = _rk.posterior_mode(PA, k, (np.asarray(t) > 0).astype(np.float64), np.asarray(alpha, dtype=np.float64), w, f,
                          L, np.empty((k, k)), False, int(max_iter), np.empty((k, n)), np.empty((5, n)),
                          np.empty((4, k)), 0.0)[0]
    if not np.isfinite(obj):
        raise np.linalg.LinAlgError("rvm_posterior_mode: the Hessian is not numerically positive definite")
    return w, L.T.copy(), f, float(obj)


# -------------------------------------------------------------------------------------------------------- estimator
class RVM(BinaryClassifier):
    """Sparse Bayesian (relevance vector machine) classifier with the fast marginal-likelihood algorithm: binary,
    and one against the rest for K >= 3 classes (module docstring).

    Parameters
    ----------
    kernel : {"linear", "rbf", "poly", "precomputed"} or None, default="linear"
        Basis functions k(·, x_j) centred on the training samples; ``None`` uses the genes themselves as basis
        functions (feature weighting, thesis §4.4): ``support_`` then marks the selected genes and
        ``relevances_`` gives each gene's prior precision-derived relevance. With ``bias=True`` the linear and
        polynomial kernels and the genes are taken relative to the training mean (see ``center_``), so an offset in
        X changes nothing (the RBF kernel does not depend on it anyway).
    gamma, degree, coef0 : kernel parameters as in ``sklearn.metrics.pairwise.pairwise_kernels``; ``gamma=None``
        means 1 / (n_features · Var X) (scikit-learn's "scale": scale-free; 1 / n_features on standardised data).
    bias : bool, default=True
        Add a constant basis function (itself subject to pruning, as in Tipping 2001).
    max_iter : int, default=2000
        Maximum number of add / re-estimate / delete steps (a ``ConvergenceWarning`` if reached).
    tol : float, default=1e-3
        Convergence: no basis function can be added or deleted and every re-estimate changes log α by < tol.

    Attributes
    ----------
    classes_, active_ (indices of the retained basis functions; the bias, if kept, is index ``n_basis_``),
    alpha_ (their precisions), coef_active_ (their weights), sigma_ (posterior covariance of those weights), all in
    the units of the basis functions (they scale with powers of X's unit and can over- or underflow for data beyond
    about 1e±75; the fit and the predictions work in data-relative units and are unaffected),
    log_marginal_likelihood_ (Laplace approximation; unit-free), n_iter_, converged_ (False if ``max_iter`` was
    reached or the fit is a constant predictor), center_ (the training mean subtracted before the kernel or the gene
    basis, or None), relevance_vectors_ (kernel models: indices of the training samples kept), dual_coef_ (their
    weights on k(x − center_, x_j − center_)), and for ``kernel=None``: coef_ (one weight per gene, 0 if pruned),
    support_ (bool mask of kept genes), relevances_ (1/α per gene, 0 if pruned), intercept_ (decision function
    X @ coef_ + intercept_).

    K >= 3 classes (one against the rest): ``estimators_`` (the K binary RVMs, class ``classes_[c]`` as +1 against
    the rest), ``log_marginal_likelihood_``, ``n_iter_`` and ``converged_`` per class (arrays of length K),
    ``decision_function`` (n, K); for ``kernel=None`` also ``coef_`` (K, n_genes), ``intercept_`` (K,),
    ``relevances_`` (K, n_genes), ``support_`` (genes kept by any class's model) and ``feature_importances_`` (the
    largest |weight| over the classes).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import RVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> rvm = RVM(kernel="linear").fit(X[::2], y[::2])
    >>> rvm.converged_, rvm.relevance_vectors_.tolist()             # the training samples kept
    (True, [7, 14, 19])
    >>> rvm.score(X[1::2], y[1::2])
    0.75
    >>> genes = RVM(kernel=None).fit(X, y)                          # the genes as basis functions
    >>> np.flatnonzero(genes.support_).tolist()
    [0, 1, 2, 3, 81]
    """

    _multi_class = True  # one against the rest for K >= 3 (predict and tags from BinaryClassifier)

    _parameter_constraints = {
        "kernel": [StrOptions({"linear", "rbf", "poly", "precomputed"}), None], "gamma": [POSITIVE, None],
        "degree": [integer(0, None, "left")], "coef0": [real(None, None, "neither")], "bias": ["boolean"],
        "max_iter": [POSITIVE_INT], "tol": [POSITIVE],
    }

    def __init__(self, *, kernel="linear", gamma=None, degree=3, coef0=1.0, bias=True, max_iter=2000, tol=1e-3):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
        self.max_iter = max_iter
        self.tol = tol

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    @few_samples_one_blas_thread(_SINGLE_THREAD_MAX_N)
    def fit(self, X, y):
        """Fit on expression data ``X`` (samples × genes; n × n Gram matrix if kernel="precomputed") and labels y
        (two classes, or K >= 3: one RVM per class against the rest)."""
        X, y_index, self.classes_ = check_classification_fit(
            self, X, y, min_samples=2, constant=None if self.kernel == "precomputed" else "zero")
        if self.classes_.size > 2:
            return self._fit_one_vs_rest(X, y_index)
        self.estimators_ = None
        y_pm = np.where(y_index == 1, 1, -1).astype(np.int64)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"RVM: kernel='precomputed' needs a square Gram matrix, got shape {X.shape}")
        t = (y_pm > 0).astype(float)
        PhiT, usable, Xs, self._scale, self._mu_s, self._gamma_s = self._design(X)
        self.center_ = None if self._mu_s is None else self._mu_s * self._scale
        norms = normalise_rows(PhiT)
        usable &= norms > 0
        if self.kernel is not None:
            # a kernel column that is zero to rounding (a sample at the centre) cannot be a basis function
            kn = norms[: X.shape[0]]
            usable[: X.shape[0]] &= kn > 1e-12 * kn.max()
        active, alpha, w, Sigma, f, logev, n_iter, status = _rk.fast_rvm(
            PhiT, t, usable, int(self.max_iter), float(self.tol), _rk.MAX_NEWTON, _rk.DAMP_RATIO, _rk.DAMP_AFTER)
        if status == _rk.STATUS_NUMERICAL:
            raise ValueError(
                "RVM: the fit broke down numerically (a posterior Hessian lost positive definiteness); the basis "
                "functions are probably near-duplicates at this data scale: standardise the genes or drop duplicated "
                "ones")
        self.n_basis_ = PhiT.shape[0] - int(self.bias)
        self.active_ = active
        self.log_marginal_likelihood_ = float(logev)
        self.n_iter_ = int(n_iter)
        self._set_public(X, Xs, active, alpha, w, Sigma, norms)
        self.converged_ = status == _rk.STATUS_CONVERGED
        if status == _rk.STATUS_MAX_ITER:
            warnings.warn(
                f"RVM: stopped after max_iter={self.max_iter} add/delete/re-estimate steps before the marginal "
                "likelihood converged; the model may not be a local optimum: raise max_iter (or tol)",
                ConvergenceWarning, stacklevel=3)
        self._check_degenerate(f, X, Xs)
        return self

    def _fit_one_vs_rest(self, X, y_index):
        """K binary RVMs, class c (+1) against the rest (-1), with this estimator's parameters (module docstring)."""
        K = self.classes_.size
        self.estimators_ = [RVM(**self.get_params()).fit(X, np.where(y_index == c, 1, -1)) for c in range(K)]
        est = self.estimators_
        self.log_marginal_likelihood_ = np.array([e.log_marginal_likelihood_ for e in est])
        self.n_iter_ = np.array([e.n_iter_ for e in est], dtype=np.int64)
        self.converged_ = np.array([e.converged_ for e in est], dtype=bool)
        self.n_basis_ = est[0].n_basis_
        self.center_ = est[0].center_
        if self.kernel is None:
            self.coef_ = np.array([e.coef_ for e in est])
            self.intercept_ = np.array([e.intercept_ for e in est])
            self.relevances_ = np.array([e.relevances_ for e in est])
            self.support_ = np.any(self.coef_ != 0.0, axis=0)
            self.feature_importances_ = np.abs(self.coef_).max(axis=0)
        return self

    # ------------------------------------------------------------------ basis in data-relative units
    def _design(self, X):
        """The basis, one vector per row (kernel columns or genes, then the bias), in data-relative units and not
        yet normalised: (PhiT, usable, Xs, s, μ_s, gamma_s) with Xs = X / s − μ_s the scaled (centred) data (None for
        kernel=None and "precomputed"), s a power of two near max |X|, μ_s the scaled training mean or None, gamma_s
        the kernel's gamma for Xs."""
        n = X.shape[0]
        if self.kernel == "precomputed":
            K, Xs, s, mu, gamma_s = X, None, 1.0, None, None
        else:
            centre = self.kernel == "rbf" or (self.bias and self.kernel in ("linear", "poly", None))
            Xs, mu, s, _, _ = _rk.scale_centre(kernel_array(X), centre, self.kernel is None)
            mu = mu if centre else None
            if self.kernel is None:  # genes that are zero (constant, when centred) get norm 0: never usable
                PhiT = np.vstack([Xs, np.ones((1, n))]) if self.bias else Xs
                return PhiT, np.ones(PhiT.shape[0], dtype=bool), None, s, mu, None
            gamma_s = self._gamma_scaled(Xs, s) if self.kernel in ("rbf", "poly") else None
            K = self._kernel_scaled(Xs, None, gamma_s)
        self._check_kernel_matrix(K)
        # row j of PhiT is column j of K (K is symmetric on the training samples)
        PhiT = np.empty((n + int(self.bias), n))
        PhiT[:n] = K.T
        if self.bias:
            PhiT[n] = 1.0
        return PhiT, np.ones(PhiT.shape[0], dtype=bool), Xs, s, mu, gamma_s

    def _gamma_scaled(self, Xs, s):
        """gamma for the scaled data Xs = X / s: gamma · s², or 1 / (n_features · Var Xs) for gamma=None."""
        if self.gamma is None:
            v = float(np.var(Xs))
            return 1.0 / (Xs.shape[1] * v) if v > 0 else 1.0 / Xs.shape[1]
        with np.errstate(over="ignore", under="ignore"):
            g = float(self.gamma) * s * s
        if not 0 < g < np.inf:
            raise ValueError(
                f"RVM: gamma={self.gamma} is out of range for data whose values reach about {s:.3g} (gamma × scale² "
                f"= {g:.3g}): the kernel would be constant or the identity; use gamma=None (1 / (n_features · Var X)) "
                "or give gamma in the units of the data")
        return g

    def _kernel_scaled(self, A, B, gamma_s):
        if self.kernel == "linear":
            return gram(A, B, "linear", blas=True)
        return gram(A, B, self.kernel, gamma=gamma_s, degree=self.degree, coef0=self.coef0, blas=True)

    def _check_kernel_matrix(self, K):
        if not np.all(np.isfinite(K)):
            raise ValueError(
                f"RVM: the {self.kernel!r} kernel matrix has infinite or NaN entries (degree={self.degree}, "
                f"coef0={self.coef0}, gamma={self.gamma}); lower the degree or gamma, or standardise the genes")
        n = K.shape[0]
        if n < 2 or self.kernel in ("linear", "precomputed"):
            return
        if self.kernel == "rbf" and K[~np.eye(n, dtype=bool)].max() < 1e-12:
            raise ValueError(
                f"RVM: the rbf kernel matrix is the identity to machine precision (gamma={self.gamma}): each basis "
                "function vanishes away from its own sample, so the model cannot generalise; lower gamma (gamma=None "
                "is 1 / (n_features · Var X))")
        if np.ptp(K) <= 1e-12 * np.abs(K).max():
            raise ValueError(
                f"RVM: the {self.kernel!r} kernel matrix is constant to machine precision (gamma={self.gamma}): the "
                "basis functions cannot tell the samples apart; raise gamma (gamma=None is 1 / (n_features · Var X))")

    def _units(self, M):
        """Per basis vector: the factor from the internal (data-relative) basis to the basis in the units of X."""
        u = {None: self._scale, "linear": self._scale * self._scale}.get(self.kernel, 1.0)
        unit = np.full(M, u)
        if self.bias:
            unit[-1] = 1.0
        return unit

    def _basis(self, X):
        """The n × M basis matrix in the units of X as the fitted model sees training data X (kernel columns or
        genes, then the bias): ``decision_function(X) == _basis(X)[:, active_] @ coef_active_`` (tests)."""
        check_is_fitted(self)
        X = np.ascontiguousarray(X, dtype=np.float64)
        PhiT = self._design(X)[0]
        with np.errstate(over="ignore", under="ignore"):
            return PhiT.T * self._units(PhiT.shape[0])

    # ------------------------------------------------------------------ results in the units of X
    def _set_public(self, X, Xs, active, alpha, w, Sigma, norms):
        nb = self.n_basis_
        is_bias = active == nb if self.bias else np.zeros(active.size, dtype=bool)
        raw = norms[active] * self._units(norms.size)[active]  # norms of the basis vectors in the units of X
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            self.coef_active_ = w / raw
            self.alpha_ = alpha * raw * raw
            self.sigma_ = Sigma / np.outer(raw, raw)
        # prediction works in data-relative units: weights on the internal basis before normalisation
        wn = w / norms[active]
        self._b = float(wn[is_bias].sum()) if self.bias else 0.0
        idx = active[~is_bias]
        wk = wn[~is_bias]
        if self.kernel is None:
            self._w_genes = np.zeros(nb)
            self._w_genes[idx] = wk
            with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
                self.coef_ = self._w_genes / self._scale
                self.relevances_ = np.zeros(nb)
                self.relevances_[idx] = 1.0 / self.alpha_[~is_bias]
            self.support_ = self._w_genes != 0.0
            self.feature_importances_ = np.abs(self.coef_)
            self.intercept_ = self._b - (float(self._mu_s[idx] @ wk) if self._mu_s is not None else 0.0)
            return
        self.intercept_ = self._b
        self.relevance_vectors_ = idx
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            self.dual_coef_ = self.coef_active_[~is_bias]
        self._w_rv = wk
        if self.kernel == "precomputed":
            self.X_fit_ = None
            return
        self.X_fit_ = X[idx]
        if self.kernel == "linear":
            # primal weights on the scaled, centred genes: f(x) = (x / s − μ_s) · v + b
            self._primal = Xs[idx].T @ wk
        else:
            self._Xs_rv = Xs[idx]

    def _check_degenerate(self, f, X, Xs):
        one_class = bool(np.all(f > 0) or np.all(f <= 0))
        only_bias = self.active_.size == 0 or (self.bias and np.all(self.active_ == self.n_basis_))
        if not (one_class or only_bias):
            return
        self.converged_ = False
        kept = ("no basis function at all" if self.active_.size == 0 else
                "only the bias" if only_bias else f"{self.active_.size} basis function(s)")
        cause, remedy = self._degenerate_cause(X, Xs)
        warn_degenerate("RVM", f"a constant predictor: the evidence kept {kept}, and the model predicts one class "
                        f"({self.classes_[int(f[0] > 0)]}) for every training sample", cause, remedy, stacklevel=3)

    def _degenerate_cause(self, X, Xs):
        """(cause, remedy) of a constant predictor: the one of the known causes that applies."""
        n = X.shape[0]
        if self.kernel == "rbf" and Xs is not None and n > 1:
            K = self._kernel_scaled(Xs, None, self._gamma_s)
            off = K[~np.eye(n, dtype=bool)]
            g = f"gamma={self.gamma!r}" + (" (1 / (n_features * Var X))" if self.gamma is None else "")
            if off.min() > 0.99:
                return (f"the RBF kernel is nearly flat (every k(x, x') > 0.99): {g} is small for the distances "
                        "between the samples", "pass a larger gamma (or gamma=None)")
            if off.max() < 0.01:
                return (f"the RBF kernel is nearly diagonal (every k(x, x') < 0.01): {g} is large for the distances "
                        "between the samples", "pass a smaller gamma (or gamma=None)")
        if not self.bias and self.kernel in (None, "linear", "poly"):
            ratio = offset_ratio(scale_pow2(X, unit_row_exponent(X)))
            if ratio > 1.0:
                return (f"bias=False on data that are not centred ({offset_message(ratio)}): without a bias every "
                        "function of the model is tied to the origin", "use bias=True (the default; it centres the "
                        "genes) or centre the genes first (genesel.preprocessing.GeneStandardizer)")
        what = "gene" if self.kernel is None else "kernel basis function"
        return (f"no {what} explained the labels better than the class frequencies: the data carry no signal this "
                "model can use", "check the labels and that the genes carry class information")

    # ------------------------------------------------------------------ predict
    def _decision_internal(self, X):
        if self.kernel == "precomputed":
            return X[:, self.relevance_vectors_] @ self.dual_coef_ + self.intercept_
        Xs = X * (1.0 / self._scale)
        if self._mu_s is not None:
            Xs -= self._mu_s
        if self.kernel is None:
            return Xs @ self._w_genes + self._b
        if self.kernel == "linear":
            return Xs @ self._primal + self._b
        if self.relevance_vectors_.size == 0:
            return np.full(X.shape[0], self._b)
        return self._kernel_scaled(Xs, self._Xs_rv, self._gamma_s) @ self._w_rv + self._b

    def decision_function(self, X):
        """Latent score φ(x)ᵀw* (log-odds of classes_[1]), shape (n,); K >= 3 classes: the K one-against-the-rest
        scores, shape (n, K)."""
        X = self._check_predict_input(X)
        if self.estimators_ is not None:
            return np.column_stack([e.decision_function(X) for e in self.estimators_])
        return self._decision_internal(X if self.kernel == "precomputed" else zero_ignored_genes(self, X))

    def predict_proba(self, X):
        """Class probabilities (n, K): σ(φ(x)ᵀw*) for classes_[1] of two; for K >= 3 the K one-against-the-rest
        probabilities σ(φ(x)ᵀw*_c) normalised to sum to one."""
        d = self.decision_function(X)
        if d.ndim == 2:  # normalised in log space: every σ(f_c) may underflow
            log_p = -np.logaddexp(0.0, -d)
            return np.exp(log_p - np.logaddexp.reduce(log_p, axis=1, keepdims=True))
        p1 = 0.5 * (1.0 + np.tanh(0.5 * d))
        return np.column_stack([1.0 - p1, p1])

