"""The lasso-penalised logistic regression of the leaderboard, two-class or multinomial, solved by glmnet along a
path of penalties (Friedman, Hastie & Tibshirani 2010, "Regularization paths for generalized linear models via
coordinate descent", J. Stat. Softw. 33(1)), through the python-glmnet wrapper of its Fortran code.

The problem is scikit-learn's ``LogisticRegression(penalty="l1", C=C)``: over the weights W (K x p; one row for
two classes) and the unpenalised intercepts b, minimise

    C sum_i -log softmax(W x_i + b)[y_i] + sum_kj |W_kj|                  (K >= 3 classes, Friedman 2010 Eq. 21)
    C sum_i log(1 + exp(-s_i (w . x_i + b))) + sum_j |w_j|               (two classes, s_i = +-1)

which is glmnet's ``(1/n) sum_i loss_i + lambda ||W||_1`` (``alpha = 1``, no standardisation, the "ungrouped"
multinomial lasso) at ``lambda = 1 / (C n)``. glmnet solves it by cyclic coordinate descent on a quadratic
approximation of the log-likelihood, warm-started along a decreasing sequence of lambdas from ``lambda_max`` (the
smallest lambda at which every weight is 0: ``max_jk |sum_i (x_ij - mean_j)(Y_ik - mean_k)| / n``, Y the classes
one-hot); the solution at a lambda is read off the path.

Why glmnet and not scikit-learn's ``saga`` (the only scikit-learn solver of the multinomial lasso), measured on the
multi-class board's first outer training parts (Khan, Sorlie, Su, Nakayama, Christensen) at the board's five C:
saga at the 0.2.0 settings (``tol=1e-3``, stopped on the relative change of the weights) ended far from the optimum,
its largest violation of the optimality conditions 0.02-2.6 (0 at the optimum; glmnet 4e-5-2e-3), its objective up
to 1.9 times the optimum's, and its "signatures" of 24-19,932 genes where the optimum keeps 11-93; each saga fit
cost 0.2-35 CPU s, glmnet's whole path of the five 0.1-2.2 s. ``tests/leaderboard/test_lasso_logistic.py`` checks the
solutions against the optimality conditions and against scipy's L-BFGS-B on the same objective (the weights split
into positive and negative parts). The converged lasso is not the better classifier: over the board's whole
cross-validation grid it errs more than 0.2.0's early-stopped saga on four of the five sets (Sorlie 10.7 -> 16.8
errors per repeat, Nakayama 21.3 -> 28.2; ``benchmarks/bench_lasso_logistic.py``), saga's small weights on thousands
of genes being closer to a ridge fit than to the lasso its name promised.

A lambda the path does not reach (glmnet stops a path whose fitted probabilities come within 1e-5 of 0 or 1, or
whose passes over the data exceed ``max_iter``) is not served silently: the fit keeps the last solution reached and
warns (``ConvergenceWarning``) naming the C it could not reach.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["LassoLogistic", "lambda_max"]


def lambda_max(X, y) -> float:
    """glmnet's ``lambda_max`` for the lasso logistic regression with an intercept (Friedman 2010, Section 2.5):
    ``max_jk |sum_i (x_ij - mean_j)(Y_ik - mean_k)| / n``, Y the classes one-hot. At any larger lambda every weight
    is 0; just below it one is not (``C = 1 / (lambda_max n)`` is the same boundary on scikit-learn's scale)."""
    X = np.asarray(X, dtype=np.float64)
    _, yi = np.unique(np.asarray(y), return_inverse=True)
    Y = np.eye(int(yi.max()) + 1)[yi]
    return float(np.max(np.abs((X - X.mean(axis=0)).T @ (Y - Y.mean(axis=0)))) / X.shape[0])


class LassoLogistic(ClassifierMixin, BaseEstimator):
    """Lasso-penalised logistic regression (two-class, or multinomial for K >= 3 classes) with scikit-learn's inverse
    penalty ``C``, solved by glmnet along a path of penalties (module docstring; Friedman et al. 2010).

    Parameters
    ----------
    C : float, default=1.0
        Inverse penalty, as scikit-learn's ``LogisticRegression``: the loss summed over the samples times ``C``
        plus the sum of the weights' absolute values (glmnet's ``lambda = 1 / (C n)``).
    path_C : tuple of float, default=()
        Further values of C whose penalties are put on the same path. The path is ``n_lambda`` penalties spaced
        geometrically from ``lambda_max`` down to the smallest requested one, with every requested penalty
        inserted: a fit at C with ``path_C`` holding a grid gives the very numbers :meth:`fit_grid` gives that C.
    n_lambda : int, default=100
        Penalties on the path between ``lambda_max`` and the smallest requested one (glmnet's default count).
    tol : float, default=1e-9
        glmnet's convergence threshold of its coordinate descent (``thresh``).
    max_iter : int, default=100000
        glmnet's limit on the passes over the data, summed over the path (``maxit``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights: one row, for ``classes_[1]``, with two classes; one row per class otherwise.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The intercepts.
    lambda_ : float
        glmnet's penalty of this fit, ``1 / (C n)``.
    lambda_max_ : float
        The smallest penalty at which every weight is 0 (:func:`lambda_max`).
    lambda_reached_ : float
        The penalty whose solution the fit holds: ``lambda_`` unless the path stopped before it (then a
        ``ConvergenceWarning`` said so).
    n_features_in_ : int
        The number of genes seen in ``fit``.
    """

    def __init__(self, *, C: float = 1.0, path_C: tuple = (), n_lambda: int = 100, tol: float = 1e-9,
                 max_iter: int = 100000):
        self.C = C
        self.path_C = path_C
        self.n_lambda = n_lambda
        self.tol = tol
        self.max_iter = max_iter

    def _check_params(self, Cs):
        for c in Cs:
            if not (np.isfinite(c) and c > 0):
                raise ValueError(f"LassoLogistic: C must be a positive number, got {c!r}")
        if int(self.n_lambda) < 2:
            raise ValueError(f"LassoLogistic: n_lambda must be at least 2, got {self.n_lambda!r}")
        if not (self.tol > 0):
            raise ValueError(f"LassoLogistic: tol must be positive, got {self.tol!r}")
        if int(self.max_iter) < 1:
            raise ValueError(f"LassoLogistic: max_iter must be at least 1, got {self.max_iter!r}")

    def fit(self, X, y):
        """Fit the path through ``C`` and ``path_C``; keep the solution at ``C``."""
        return self._fit_path(X, y, [self.C])[0]

    def fit_grid(self, X, y, settings) -> list:
        """One fitted copy per setting of ``settings`` (dicts holding ``C``), all read off one glmnet path through
        their C, this estimator's C and ``path_C``: each is the fit :meth:`fit` gives at that C when ``path_C``
        holds the same values."""
        return self._fit_path(X, y, [float(dict(s)["C"]) for s in settings])

    def _fit_path(self, X, y, wanted) -> list:
        import glmnet  # python-glmnet: the Fortran solver

        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(f"LassoLogistic needs at least 2 classes in the training data, got {classes.size}")
        Cs = sorted({float(c) for c in [self.C, *self.path_C, *wanted]}, reverse=True)
        self._check_params(Cs)
        n = X.shape[0]
        lam_max = lambda_max(X, y)
        lams = np.array([1.0 / (c * n) for c in Cs])  # increasing C: decreasing lambda
        path = np.geomspace(lam_max, lams[-1], int(self.n_lambda)) if lams[-1] < lam_max else np.empty(0)
        path = np.unique(np.concatenate([path, lams]))[::-1]
        solver = glmnet.LogitNet(alpha=1.0, standardize=False, fit_intercept=True, lambda_path=path, n_splits=0,
                                 tol=float(self.tol), max_iter=int(self.max_iter))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            solver.fit(X, y)
        reached = int(solver.n_lambda_)
        for w in caught:  # glmnet's own warnings are the truncation named below; anything else passes on
            if not issubclass(w.category, RuntimeWarning):
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        out = []
        for c in wanted:
            lam = 1.0 / (c * n)
            k = int(np.flatnonzero(path == lam)[0])
            if k >= reached:
                warnings.warn(f"LassoLogistic: glmnet's path stopped at lambda = {path[reached - 1]:.4g} (C = "
                              f"{1.0 / (path[reached - 1] * n):.4g}) before C = {c:g} (lambda = {lam:.4g}): the "
                              "fitted probabilities came within 1e-5 of 0 or 1, or max_iter passes were spent; the "
                              "fit keeps the last solution reached", ConvergenceWarning, stacklevel=3)
                k = reached - 1
            est = self if len(wanted) == 1 and c == self.C else self.__class__(**self.get_params())
            est.set_params(C=c)
            est.classes_ = classes
            est.coef_ = np.ascontiguousarray(solver.coef_path_[:, :, k])
            est.intercept_ = np.ascontiguousarray(solver.intercept_path_[:, k])
            est.lambda_, est.lambda_max_, est.lambda_reached_ = lam, lam_max, float(path[k])
            est.n_features_in_ = X.shape[1]
            out.append(est)
        return out

    def decision_function(self, X):
        """``X W^T + b``: shape (n,) with two classes (positive for ``classes_[1]``), (n, K) otherwise."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        S = X @ self.coef_.T + self.intercept_
        return S.ravel() if self.coef_.shape[0] == 1 else S

    def predict_proba(self, X):
        """The model's class probabilities (the logistic, or the softmax of the K decision values)."""
        S = self.decision_function(X)
        if S.ndim == 1:
            p = 1.0 / (1.0 + np.exp(-S))
            return np.column_stack([1.0 - p, p])
        S = S - S.max(axis=1, keepdims=True)
        P = np.exp(S)
        return P / P.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class of the largest decision value."""
        S = self.decision_function(X)
        return self.classes_[(S > 0).astype(int)] if S.ndim == 1 else self.classes_[np.argmax(S, axis=1)]
