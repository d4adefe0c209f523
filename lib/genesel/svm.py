"""Support vector machines trained in the dual on a precomputed Gram matrix (numba SMO).

Guyon, Weston, Barnhill & Vapnik (2002), *Gene Selection for Cancer Classification using Support Vector
Machines*, Machine Learning 46, section 3 (Eq. 4-5 and the SVM box: soft-margin linear SVM with bias).

The C-SVM dual is solved by the numba SMO solver of :mod:`genesel._core.smo` (second-order working-set selection
as in LIBSVM, so solutions, biases and predictions agree with ``sklearn.svm.SVC`` at a tight tolerance; shared with
SVM-RFE and the other SVM-based wrappers). This module holds the scikit-learn estimators and re-exports the
functional API (``solve_svm_dual``, ``dual_objective``, ``kkt_violation``).

Microarray data have far fewer samples than genes (n << d), so everything is done on the n x n Gram matrix:
``LinearSVM`` trains on ``K = X X^T`` and recovers ``w = X^T (a * y)``. ``fit(X, y, alpha0=...)`` takes a warm
start (any feasible point), which is what makes recursive feature elimination cheap (``genesel.rfe``).

``C=np.inf`` gives the hard-margin SVM (only meaningful on separable data, which n << d microarray data nearly
always are; on non-separable data the dual is unbounded and SMO stops at ``max_iter`` with a warning). The Gram
products are computed by a small numba kernel rather than BLAS: on these tiny matrices OpenBLAS threads only
add overhead and stall badly when the machine is loaded.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.gram import gram, linear_gram
from genesel._core.smo import dual_objective, kkt_violation
from genesel._core.smo import solve_dual as solve_svm_dual
from genesel._core.validation import check_binary_fit

__all__ = ["LinearSVM", "KernelSVM", "solve_svm_dual", "dual_objective", "kkt_violation"]

# ----------------------------------------------------------------------------------------------------------------
# estimators
# ----------------------------------------------------------------------------------------------------------------


class _DualSVMBase(ClassifierMixin, BaseEstimator):
    """Shared fit/predict for the dual SVMs (binary; classes_[1] is the positive class, as in sklearn)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self):
        if not isinstance(self.C, numbers.Real) or not self.C > 0:
            raise ValueError(f"C must be a positive number (np.inf for a hard margin), got {self.C!r}")
        if not isinstance(self.tol, numbers.Real) or not self.tol > 0:
            raise ValueError(f"tol must be a positive number, got {self.tol!r}")
        if self.max_iter is not None and (not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1):
            raise ValueError(f"max_iter must be a positive int or None, got {self.max_iter!r}")

    def _validate_fit_data(self, X, y):
        X, y_pm1, self.classes_ = check_binary_fit(self, X, y)
        return X, y_pm1.astype(np.float64)

    def _solve(self, K, y_pm1, alpha0):
        if alpha0 is not None:
            alpha0 = np.asarray(alpha0, dtype=float)
        res = solve_svm_dual(K, y_pm1, self.C, tol=self.tol, max_iter=self.max_iter, alpha0=alpha0)
        if not res["converged"]:
            import warnings

            from sklearn.exceptions import ConvergenceWarning

            warnings.warn(
                f"SMO stopped after {res['n_iter']} iterations with KKT gap {res['gap']:.3g} > tol={self.tol}; "
                "increase max_iter (or use a finite C on non-separable data)",
                ConvergenceWarning,
                stacklevel=3,
            )
        alpha = res["alpha"]
        self.alpha_ = alpha
        self.support_ = np.flatnonzero(alpha > 0)
        self.dual_coef_ = (alpha * y_pm1)[self.support_][None, :]
        self.intercept_ = np.array([-res["rho"]])
        self.n_iter_ = res["n_iter"]
        self.objective_ = res["objective"]
        self.n_support_ = np.array(
            [np.sum(y_pm1[self.support_] < 0), np.sum(y_pm1[self.support_] > 0)], dtype=np.int32
        )
        return res

    def predict(self, X):
        d = self.decision_function(X)
        return np.where(d > 0, self.classes_[1], self.classes_[0])


class LinearSVM(_DualSVMBase):
    """Linear soft-/hard-margin SVM with bias, solved in the dual on the sample Gram matrix ``X X^T``.

    Parameters
    ----------
    C : float, default 1.0
        Box constraint; ``np.inf`` (or a very large value) gives the hard-margin SVM of Guyon et al. (2002).
    tol : float, default 1e-6
        Stopping tolerance on the KKT gap (LIBSVM's ``eps``; sklearn's ``SVC`` default is 1e-3).
    max_iter : int or None
        SMO iteration cap (None: 10 million).

    ``fit(X, y, alpha0=None)`` accepts a warm start (a feasible dual vector for the same samples).
    Attributes: ``classes_``, ``coef_`` (1, n_features), ``intercept_`` (1,), ``dual_coef_`` (1, n_SV) = a_i y_i,
    ``support_``, ``support_vectors_``, ``alpha_`` (n_samples,), ``n_iter_``, ``objective_``.
    """

    def __init__(self, C=1.0, tol=1e-6, max_iter=None):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y, alpha0=None):
        self._check_params()
        X, y_pm1 = self._validate_fit_data(X, y)
        K = linear_gram(X)
        self._solve(K, y_pm1, alpha0)
        self.support_vectors_ = X[self.support_]
        self.coef_ = linear_gram(self.dual_coef_, self.support_vectors_.T)  # (1, n_SV) @ (n_SV, d), BLAS-free
        return self

    def decision_function(self, X):
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return linear_gram(X, self.coef_)[:, 0] + self.intercept_[0]


class KernelSVM(_DualSVMBase):
    """Binary C-SVM with a linear, polynomial or RBF kernel (same numba SMO solver as ``LinearSVM``).

    Kernels follow scikit-learn's ``SVC``: ``linear`` x.x', ``poly`` (gamma x.x' + coef0)^degree,
    ``rbf`` exp(-gamma |x - x'|^2); ``gamma="scale"`` is 1 / (n_features * X.var()), ``"auto"`` 1 / n_features.
    """

    def __init__(self, kernel="rbf", C=1.0, degree=3, gamma="scale", coef0=0.0, tol=1e-6, max_iter=None):
        self.kernel = kernel
        self.C = C
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter

    def _gamma_value(self, X):
        if self.gamma == "scale":
            v = X.var()
            return 1.0 / (X.shape[1] * v) if v > 0 else 1.0
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        if isinstance(self.gamma, numbers.Real) and self.gamma > 0:
            return float(self.gamma)
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive number, got {self.gamma!r}")

    def _kernel(self, A, B):
        return gram(A, B, self.kernel, degree=self.degree, gamma=self._gamma_, coef0=self.coef0)

    def fit(self, X, y, alpha0=None):
        self._check_params()
        if self.kernel not in ("linear", "poly", "rbf"):
            raise ValueError(f"kernel must be 'linear', 'poly' or 'rbf', got {self.kernel!r}")
        X, y_pm1 = self._validate_fit_data(X, y)
        self._gamma_ = self._gamma_value(X)
        K = self._kernel(X, X)
        self._solve(K, y_pm1, alpha0)
        self.support_vectors_ = X[self.support_]
        if self.kernel == "linear":
            self.coef_ = self.dual_coef_ @ self.support_vectors_
        return self

    def decision_function(self, X):
        check_is_fitted(self, "dual_coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._kernel(X, self.support_vectors_) @ self.dual_coef_[0] + self.intercept_[0]
