"""Diagonal linear discriminant analysis (DLDA): Dudoit, Fridlyand & Speed (2002), "Comparison of discrimination
methods for the classification of tumors using gene expression data", JASA 97:77-87, Section 2.2.

The maximum-likelihood discriminant rule for K classes whose densities are multivariate normal with a common
*diagonal* covariance matrix Σ = diag(σ_1², ..., σ_p²) assigns a sample x to the class k that minimises

    Σ_j (x_j - μ_kj)² / σ_j²                                                   (Dudoit et al. 2002, Sec. 2.2.2)

with the class means μ_kj and the pooled within-class variances σ_j² estimated from the training samples,

    σ̂_j² = Σ_k Σ_{i in class k} (x_ij - x̄_kj)² / (n - K),

and, with class priors π_k (their "sample Bayes rule"), maximises the discriminant

    δ_k(x) = -½ Σ_j (x_j - x̄_kj)² / σ̂_j² + log π_k,

the log of π_k times the normal density up to terms common to every class. ``priors="uniform"`` is Dudoit's DLDA
(the ML rule, equal priors; the "DLDA" of Díaz-Uriarte & Alvarez de Andrés 2006's Table 2), ``"empirical"`` takes
π_k as the class shares of the training samples. ``predict_proba`` is the posterior of that model, softmax(δ);
``decision_function`` is δ (n, K), or for two classes δ_1 - δ_0 (the log posterior odds of ``classes_[1]``).

Why genesel writes its own: scikit-learn has no DLDA. ``GaussianNB`` estimates one variance per class and gene
(diagonal *quadratic* discriminant analysis, Dudoit's DQDA), ``LinearDiscriminantAnalysis`` a full pooled covariance
(singular for p > n, and another rule when regularised), ``NearestCentroid`` without shrinkage standardises no
gene. DLDA is a few lines of numpy on top of those estimates; the tests compare it with a brute-force evaluation of
the formulas above and with ``LinearDiscriminantAnalysis`` on data whose pooled within-class covariance is exactly
diagonal (where the two rules coincide up to LDA's biased variance, a factor n / (n - K)).

Data-relative units: each gene is centred on its training mean and scaled by a power of two (exact,
:mod:`genesel._core.units`) before anything is squared, so data near 1e-300 or 1e300 give the model of scale 1.
A gene constant in the training samples has no spread and no weight (it cannot separate classes); a gene constant
within every class but not across them has its pooled variance floored at ``var_smoothing`` times its total
variance (a near-perfect separator keeps a large, finite weight).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.base import BinaryClassifier
from genesel._core.multiclass import check_classifier_fit
from genesel._core.params import NON_NEGATIVE, StrOptions
from genesel._core.units import pow2_exponent
from genesel._core.validation import warn_if_one_class

__all__ = ["DLDA"]


class DLDA(BinaryClassifier):
    """Diagonal linear discriminant analysis (Dudoit, Fridlyand & Speed 2002, Sec. 2.2; module docstring): the
    normal-model discriminant rule with class means and one pooled within-class variance per gene, for two or more
    classes.

    Parameters
    ----------
    priors : "uniform", "empirical" or array-like of shape (n_classes,), default "uniform"
        The class priors π_k: equal (Dudoit's ML rule, DLDA), the class shares of the training samples, or given
        (in ``classes_`` order; positive, summing to 1).
    var_smoothing : float, default 1e-9
        Floor of each gene's pooled within-class variance, relative to its total variance in the training samples.

    Attributes
    ----------
    classes_ : the class labels (sorted)
    means_ : ndarray (n_classes, n_features_in_), the class means x̄_kj in the units of X
    var_ : ndarray (n_features_in_,), the pooled within-class variances σ̂_j² (n - K denominator) in the units of X
        (0 for a gene constant in the training samples; inf or 0 where the units of X cannot hold it)
    priors_ : ndarray (n_classes,), the priors used
    constant_genes_ : indices of the genes constant in the training samples (they have no weight)

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import DLDA
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(30, 20)), np.repeat([0, 1, 2], 10)      # 30 samples x 20 genes, 3 classes
    >>> X[:, :3] += 3.0 * np.eye(3)[y]                                  # gene k is up in class k
    >>> clf = DLDA().fit(X, y)
    >>> clf.decision_function(X).shape, int((clf.predict(X) == y).sum())
    ((30, 3), 29)
    >>> f"{clf.predict_proba(X[:1]).sum():.2f}"
    '1.00'
    """

    _multi_class = True
    _parameter_constraints = {"priors": [StrOptions({"uniform", "empirical"}), "array-like"],
                              "var_smoothing": [NON_NEGATIVE]}

    def __init__(self, *, priors="uniform", var_smoothing=1e-9):
        self.priors = priors
        self.var_smoothing = var_smoothing

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Class means, pooled per-gene variances and priors from (X, y); at least one class with two samples."""
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=2)
        K = self.classes_.size
        idx = y_enc if K > 2 else (y_enc > 0).astype(np.int64)
        n, d = X.shape
        counts = np.bincount(idx, minlength=K)
        if n - K < 1:
            raise ValueError(f"DLDA: {n} samples of {K} classes leave no degree of freedom for the pooled variances "
                             f"(n - K = {n - K}); use more samples")
        # data-relative units: centre each gene, scale it by a power of two (exact)
        centre = X.mean(axis=0)
        Z = X - centre
        exp2 = pow2_exponent(Z, axis=0)
        Z = np.ldexp(Z, exp2[None, :])
        M = np.zeros((K, d))
        np.add.at(M, idx, Z)
        M /= counts[:, None]
        R = Z - M[idx]
        pooled = np.einsum("ij,ij->j", R, R) / (n - K)
        total = np.einsum("ij,ij->j", Z, Z) / max(n - 1, 1)
        var = np.maximum(pooled, float(self.var_smoothing) * total)
        self._weights = np.where(var > 0, 1.0 / np.where(var > 0, var, 1.0), 0.0)
        self._centre, self._exp2, self._means = centre, exp2, M
        self.priors_ = self._check_priors(counts)
        self._log_priors = np.log(self.priors_)
        with np.errstate(over="ignore", under="ignore"):
            self.means_ = centre + np.ldexp(M, -exp2[None, :])
            self.var_ = np.ldexp(var, -2 * exp2)
        self.constant_genes_ = np.flatnonzero(total == 0)
        self.n_constant_genes_ = int(self.constant_genes_.size)
        train_pred = self.classes_[np.argmax(self._delta(Z), axis=1)]
        warn_if_one_class(self, train_pred, self.classes_[idx], "the class means differ too little against the "
                          "pooled variances (or the priors are very unequal)", "check that the genes carry class "
                          "information, or use priors='uniform'")
        return self

    def _check_priors(self, counts):
        K = counts.size
        if isinstance(self.priors, str):
            return np.full(K, 1.0 / K) if self.priors == "uniform" else counts / counts.sum()
        p = np.asarray(self.priors, dtype=np.float64).ravel()
        if p.size != K or not np.all(np.isfinite(p)) or np.any(p <= 0) or abs(p.sum() - 1.0) > 1e-8:
            raise ValueError(f"DLDA: priors must be {K} positive numbers summing to 1 (one per class of "
                             f"{self.classes_.tolist()}, in that order); got {p.tolist()}")
        return p

    def _delta(self, Z):
        """δ_k for data already in the fitted units (n, K)."""
        # Σ_j w_j (z_j - m_kj)² = Σ w z² - 2 z·(w m_k) + Σ w m_k²; computed directly (n x K x d is small) to keep
        # the cancellation of the expanded form out of near-identical classes
        D = np.stack([np.einsum("ij,ij,j->i", Z - m, Z - m, self._weights) for m in self._means], axis=1)
        return -0.5 * D + self._log_priors[None, :]

    def _units(self, X):
        check_is_fitted(self, "_means")
        X = validate_data(self, X, dtype=np.float64, reset=False, ensure_all_finite=True)
        return np.ldexp(X - self._centre, self._exp2[None, :])

    def log_posterior(self, X):
        """log P(class k | x) under the fitted model (n, K)."""
        D = self._delta(self._units(X))
        D -= D.max(axis=1, keepdims=True)
        return D - np.log(np.exp(D).sum(axis=1, keepdims=True))

    def decision_function(self, X):
        """δ_k(x) (n, K), the class of the largest predicted; for two classes (n,) δ_1 - δ_0, positive for
        ``classes_[1]`` (the log posterior odds)."""
        D = self._delta(self._units(X))
        return D[:, 1] - D[:, 0] if self.classes_.size == 2 else D

    def predict_proba(self, X):
        """The posterior class probabilities softmax(δ) (n, K), columns in ``classes_`` order."""
        return np.exp(self.log_posterior(X))

    def predict_log_proba(self, X):
        return self.log_posterior(X)
