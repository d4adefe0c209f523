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

Units. ``C`` (and a numeric ``gamma``) are in the units of X, as in scikit-learn; the computation runs on X times a
power of two (exact) with C and gamma converted, so Gram matrices of data near 1e200 or 1e-300 no longer overflow
or underflow, and results on data of ordinary scale are bit for bit the unscaled ones. The hard-margin SVM and the
RBF SVM with ``gamma="scale"`` are scale-free. Degenerate fits are not silent: a C so small against the scale of
X that the decision values drown in rounding raises ``ValueError`` (naming C and the remedy); a model that predicts
one class for every training sample warns (``DegenerateModelWarning``, naming C or gamma).

More than two classes: one against the rest. With K > 2 classes both SVMs train K binary machines, machine k
separating ``classes_[k]`` (+1) from all other samples (-1), on the same C and kernel; ``decision_function`` is
(n, K) (column k: machine k's decision value) and ``predict`` its arg max, the one-vs-rest rule (Vapnik 1998,
*Statistical Learning Theory*; Rifkin & Klautau 2004, *In defense of one-vs-all classification*, JMLR 5:101,
who show it as accurate as the other reductions and the joint multi-class SVMs when the binary machines are
regularised SVMs; Ramaswamy et al. 2001, PNAS 98:15149, used it on 14 tumour types). Why one-vs-rest rather than
LIBSVM's one-vs-one: (i) the K machines share the samples, so one n x n Gram matrix serves all of them (with d >> n
its computation, O(n^2 d), is most of the cost; the K solves are on n x n) where one-vs-one trains K(K - 1)/2
machines on pairs of classes; (ii) the gene rankings built on these SVMs (SVM-RFE, MSVM-RFE, l2-AROM) need one
weight vector per class over all samples, which one-vs-rest gives (``coef_`` is (K, d), as scikit-learn's
``LinearSVC``); (iii) its decision values are the machines' own, with no vote to break ties. Two classes are the
binary SVM exactly as before (one machine, bit for bit). The binary SVMs have no ``predict_proba``, nor do their
multi-class forms.

``C=np.inf`` gives the hard-margin SVM (only meaningful on separable data, which n << d microarray data nearly
always are; on non-separable data the dual is unbounded, and SMO stops as soon as its iterate proves that no
hyperplane separates the classes, :func:`genesel._core.smo.separation_refuted`, with a warning naming it). The Gram
products are computed by a small numba kernel rather than BLAS: on these tiny matrices OpenBLAS threads only
add overhead and stall badly when the machine is loaded.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.base import BinaryClassifier
from genesel._core.gram import gram, linear_gram
from genesel._core.params import POSITIVE, POSITIVE_INT, POSITIVE_OR_INF, StrOptions, integer, real
from genesel._core.smo import UNBOUNDED_DUAL, dual_objective, kkt_violation
from genesel._core.smo import solve_dual as solve_svm_dual
from genesel._core.units import (OFFSET_RATIO, far_offset_centre, in_x_units, log10_scale, log_scale_str,
                                 negligible_C_message, offset_message, offset_ratio, scale_pow2, unit_row_exponent)
from genesel._core.multiclass import check_classifier_fit, ovr_signs
from genesel._core.validation import warn_degenerate, warn_if_one_class, zero_ignored_genes

__all__ = ["LinearSVM", "KernelSVM", "solve_svm_dual", "dual_objective", "kkt_violation"]

# ----------------------------------------------------------------------------------------------------------------
# estimators
# ----------------------------------------------------------------------------------------------------------------


class _DualSVMBase(BinaryClassifier):
    """Shared fit/predict for the dual SVMs (binary: classes_[1] is the positive class, as in sklearn; K > 2
    classes: K one-vs-rest machines on one Gram matrix, every fitted array with one row per class).

    Units: the solver runs on X' = 2^k X (exact; k puts the longest sample at norm in [0.5, 1)), where the
    linear kernel's box is C' = C / 4^k (the same problem: scaling x by a and C by 1/a^2 leaves the decision
    function unchanged) and the RBF / polynomial kernels use gamma' = gamma / 4^k (the same kernel values). On
    data of ordinary scale this is the unscaled computation bit for bit; at 1e200 or 1e-300 the Gram matrix no
    longer overflows or underflows. Dual attributes (``alpha_``, ``dual_coef_``) are reported in the units of X.

    Offsets: where the model is translation-invariant (the linear kernel with its bias, the RBF kernel) and the
    data sit further from the origin than ~1000 spreads (:data:`genesel._core.units.OFFSET_RATIO`), the solver
    runs on X' = 2^k2 (2^k1 X - mean) instead: the same model, without the rounding that otherwise cancels the
    differences between samples in the Gram matrix (at 1e8 spreads, every digit). ``intercept_`` of a linear model
    is still that of ``X @ coef_``; predictions are computed on centred data. Data of ordinary offset are not
    touched (bit for bit the computation without it).
    """

    _multi_class = True  # K > 2 classes: one machine per class against the rest (module docstring)

    def _relative_units(self, X, centre):
        """X in data-relative units (see the class docstring): returns (X', k) with X' = 2^k X, or 2^k2 (2^k1 X -
        mean) where ``centre`` and the offset is far (k = k1 + k2); records what :meth:`_to_units` needs."""
        k1 = unit_row_exponent(X)
        Xs = scale_pow2(X, k1)
        mu = far_offset_centre(Xs) if centre else None
        k2 = 0
        if mu is not None:
            Xc = Xs - mu
            k2 = unit_row_exponent(Xc, safe=0)
            Xs = scale_pow2(Xc, k2)
        self._x_exp1, self._x_centre, self._x_exp2 = k1, mu, k2
        self._x_exp = k1 + k2
        return Xs, k1 + k2

    def _to_units(self, X):
        """New data in the units of the fit (:meth:`_relative_units`)."""
        Xs = scale_pow2(X, self._x_exp1)
        if self._x_centre is not None:
            Xs = scale_pow2(Xs - self._x_centre, self._x_exp2)
        return Xs

    def _validate_fit_data(self, X, y):
        """X and the labels of the dual: {-1., +1.} (n,) for two classes (``classes_[1]`` is +1), or the K
        one-vs-rest label rows (K, n) for K > 2 classes."""
        X, y_enc, self.classes_ = check_classifier_fit(
            self, X, y, constant=None if getattr(self, "kernel", None) == "precomputed" else "zero")
        if self.classes_.size == 2:
            return X, y_enc.astype(np.float64)
        return X, ovr_signs(y_enc, self.classes_.size)

    def _dual(self, K, y_pm1, alpha0, C_scaled, exp2, alpha0_exp2, who, what=""):
        """One C-SVM dual on the scaled Gram matrix (see :meth:`_solve`): the solution, refused when it overflows,
        with a ``ConvergenceWarning`` when SMO stopped at ``max_iter``; ``what`` names the machine in messages."""
        if alpha0 is not None:
            alpha0 = in_x_units(np.asarray(alpha0, dtype=float), alpha0_exp2 - exp2)
        with np.errstate(over="ignore", invalid="ignore"):
            res = solve_svm_dual(K, y_pm1, C_scaled, tol=self.tol, max_iter=self.max_iter, alpha0=alpha0)
        if not (np.all(np.isfinite(res["alpha"])) and np.isfinite(res["rho"]) and np.isfinite(res["objective"])):
            raise ValueError(
                f"{who}: the SVM's dual solution{what} overflows: the kernel matrix is numerically singular at the "
                f"scale of X (its entries reach {float(np.max(np.abs(K))) if K.size else 0.0:.3g}, and with "
                f"C={self.C:g} the dual variables grow without bound); use a finite C, standardise the genes "
                "(genesel.preprocessing.GeneStandardizer), or for the polynomial kernel a smaller degree or gamma")
        if not res["converged"]:
            import warnings

            from sklearn.exceptions import ConvergenceWarning

            warnings.warn(
                (f"SMO{what} stopped after {res['n_iter']} iterations: {UNBOUNDED_DUAL}; use "
                 "a finite C" if np.isinf(res["gap"]) else
                 f"SMO{what} stopped after {res['n_iter']} iterations with KKT gap {res['gap']:.3g} > tol={self.tol}; "
                 "increase max_iter (or use a finite C on non-separable data)"),
                ConvergenceWarning,
                stacklevel=4,
            )
        return res

    def _solve(self, K, y_pm1, alpha0, C_scaled, exp2, alpha0_exp2=0, who=None):
        """Solve on the scaled Gram matrix K (C_scaled = C / 2^exp2); ``alpha0`` is in units of 2^alpha0_exp2
        times the units of X; ``who`` names the estimator in messages."""
        who = who or type(self).__name__
        if not C_scaled > 0:
            raise ValueError(negligible_C_message(who, self.C, K, exp2))
        if y_pm1.ndim == 2:
            return self._solve_ovr(K, y_pm1, alpha0, C_scaled, exp2, alpha0_exp2, who)
        res = self._dual(K, y_pm1, alpha0, C_scaled, exp2, alpha0_exp2, who)
        alpha = res["alpha"]
        # decision values on the training samples: sum_j a_j y_j K_ij - rho = y_i (G_i + 1) - rho
        f_train = y_pm1 * (res["gradient"] + 1.0) - res["rho"]
        _check_decision_spread(who, self.C, K, exp2, f_train, res["rho"])
        cause, remedy = self._one_class_cause(K, exp2)
        warn_if_one_class(who, np.where(f_train > 0, self.classes_[1], self.classes_[0]),
                          np.where(y_pm1 > 0, self.classes_[1], self.classes_[0]), cause, remedy, stacklevel=4)
        self._alpha_scaled = alpha
        self._exp2 = int(exp2)
        self.alpha_ = in_x_units(alpha, exp2)
        self.support_ = np.flatnonzero(alpha > 0)
        self._dual_coef_scaled = (alpha * y_pm1)[self.support_][None, :]
        self.dual_coef_ = in_x_units(self._dual_coef_scaled, exp2)
        self.intercept_ = np.array([-res["rho"]])
        self.n_iter_ = res["n_iter"]
        self.objective_ = float(in_x_units(res["objective"], exp2))
        self.n_support_ = np.array(
            [np.sum(y_pm1[self.support_] < 0), np.sum(y_pm1[self.support_] > 0)], dtype=np.int32
        )
        return res

    def _solve_ovr(self, K, Y, alpha0, C_scaled, exp2, alpha0_exp2, who):
        """The K one-vs-rest duals on one scaled Gram matrix (``Y``: their {-1, +1} label rows, (K, n); ``alpha0``:
        a warm start per machine, (K, n), or None). Row k of every fitted array is the machine of ``classes_[k]``
        against the rest; ``support_`` is the union of their support vectors."""
        nc, n = Y.shape
        if alpha0 is not None:
            alpha0 = np.asarray(alpha0, dtype=float)
            if alpha0.shape != (nc, n):
                raise ValueError(f"{who}: alpha0 of a {nc}-class fit is one warm start per class, shape ({nc}, {n}); "
                                 f"got {alpha0.shape}")
        alpha = np.zeros((nc, n))
        rhos = np.zeros(nc)
        n_iter = np.zeros(nc, dtype=np.int64)
        objective = np.zeros(nc)
        F = np.zeros((nc, n))  # decision values on the training samples
        for k in range(nc):
            lab = self.classes_[k].item() if isinstance(self.classes_[k], np.generic) else self.classes_[k]
            what = f" (class {lab!r} against the rest)"
            res = self._dual(K, Y[k], None if alpha0 is None else alpha0[k], C_scaled, exp2, alpha0_exp2, who, what)
            F[k] = Y[k] * (res["gradient"] + 1.0) - res["rho"]
            _check_decision_spread(who + what, self.C, K, exp2, F[k], res["rho"])
            alpha[k], rhos[k], n_iter[k], objective[k] = res["alpha"], res["rho"], res["n_iter"], res["objective"]
        y_index = np.argmax(Y, axis=0)
        cause, remedy = self._one_class_cause(K, exp2)
        warn_if_one_class(who, self.classes_[np.argmax(F, axis=0)], self.classes_[y_index], cause, remedy,
                          stacklevel=4)
        self._alpha_scaled = alpha
        self._exp2 = int(exp2)
        self.alpha_ = in_x_units(alpha, exp2)
        self.support_ = np.flatnonzero(np.any(alpha > 0, axis=0))
        self._dual_coef_scaled = (alpha * Y)[:, self.support_]
        self.dual_coef_ = in_x_units(self._dual_coef_scaled, exp2)
        self.intercept_ = -rhos
        self.n_iter_ = n_iter
        self.objective_ = in_x_units(objective, exp2)
        self.n_support_ = np.bincount(y_index[self.support_], minlength=nc).astype(np.int32)
        return None

    def _one_class_cause(self, K, exp2):
        t = log_scale_str(self.C, K, exp2)
        if log10_scale(self.C, K, exp2) < -1:
            return (f"C={self.C:g} is small against the scale of X (C * max k(x, x) = {t}), so the margin term is "
                    "weak and the bias alone decides",
                    "raise C or standardise the genes (genesel.preprocessing.GeneStandardizer)")
        return (f"at C={self.C:g} (C * max k(x, x) = {t}) the training classes are not separated",
                "check that the genes carry class information, or try a larger C")


def _check_decision_spread(who, C, K, exp2, f_train, rho):
    """Refuse a decision function that is constant up to rounding on the training samples *and* near 0, where
    the predicted classes would be the signs of rounding noise. A constant decision function clearly away from 0
    (decision values are in margin units, +-1 on the margin) is the honest optimum of a fit whose genes do not
    beat the bias (e.g. w = 0 on one uninformative gene): it predicts one class, and ``warn_if_one_class`` says so.
    """
    spread = float(np.ptp(f_train)) if f_train.size else 0.0
    if spread > 1e-12 * max(1.0, abs(rho)):
        return
    if f_train.size and abs(float(np.mean(f_train))) > 1e-6:
        return
    if K.size and np.ptp(K) == 0:
        cause = "all training samples are identical (the Gram matrix is constant)"
        remedy = "check X: the samples must differ"
    else:
        cause = (f"C={C:g} is negligible at the scale of X (C * max k(x, x) = {log_scale_str(C, K, exp2)}): every "
                 "sample is a bounded support vector and the margin term drowns in rounding")
        remedy = "raise C or standardise the genes (genesel.preprocessing.GeneStandardizer)"
    raise ValueError(f"{who}: the decision values of the fitted SVM do not vary across the training samples "
                     f"(spread {spread:.2g}), so its predictions would be rounding noise: {cause}; {remedy}")


class LinearSVM(_DualSVMBase):
    """Linear soft-/hard-margin SVM with bias, solved in the dual on the sample Gram matrix ``X X^T``.

    ``fit(X, y, alpha0=None)`` accepts a warm start (a feasible dual vector for the same samples; (K, n_samples),
    one per machine, with K > 2 classes).
    Attributes: ``classes_``, ``coef_`` (1, n_features), ``intercept_`` (1,), ``dual_coef_`` (1, n_SV) = a_i y_i,
    ``support_``, ``support_vectors_``, ``alpha_`` (n_samples,), ``n_iter_``, ``objective_``. With K > 2 classes
    (one-vs-rest, module docstring) ``coef_`` is (K, n_features), ``intercept_`` (K,), ``alpha_`` (K, n_samples),
    ``dual_coef_`` (K, n_SV) over the union of the machines' support vectors (``support_``), ``n_iter_`` and
    ``objective_`` (K,), ``n_support_`` the support vectors of each class, and ``decision_function`` (n, K). The
    model is computed in data-relative units (see ``_DualSVMBase``); ``alpha_``, ``dual_coef_`` and ``objective_``
    are reported in the units of X and can under- or overflow for data near 1e-300 or 1e200, ``coef_`` and the
    predictions do not.

    Parameters
    ----------
    C : float, default 1.0
        Box constraint; ``np.inf`` (or a very large value) gives the hard-margin SVM of Guyon et al. (2002).
        C is in the units of X (scaling X by a acts like scaling C by a^2): with C small against the scale of X
        (C * max |x|^2 far below 1) every sample becomes a bounded support vector; a fit whose decision values
        are then constant up to rounding raises ``ValueError``, one that predicts a single class warns
        (``DegenerateModelWarning``).
    tol : float, default 1e-6
        Stopping tolerance on the KKT gap (LIBSVM's ``eps``; sklearn's ``SVC`` default is 1e-3).
    max_iter : int or None, default None
        SMO iteration cap (None: 10 million).

    Attributes
    ----------
    classes_ : ndarray (2,) or (K,)
        Class labels.
    coef_ : ndarray (1, n_features) or (K, n_features)
        Primal weights w = sum_i a_i y_i x_i.
    intercept_ : ndarray (1,) or (K,)
        Bias b.
    alpha_ : ndarray (n_samples,) or (K, n_samples)
        Dual variables a_i (in the units of X).
    dual_coef_ : ndarray (1, n_SV) or (K, n_SV)
        a_i y_i of the support vectors.
    support_ : ndarray of int
        Indices of the support vectors (of any machine for K > 2).
    support_vectors_ : ndarray (n_SV, n_features)
        The support vectors.
    n_support_ : ndarray of int (2,) or (K,)
        Support vectors of each class.
    n_iter_ : int or ndarray (K,)
        SMO iterations.
    objective_ : float or ndarray (K,)
        Dual objective at the solution (in the units of X).
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> svm = LinearSVM(C=1.0).fit(X[::2], y[::2])                  # train on every other sample
    >>> svm.coef_.shape, len(svm.support_), svm.classes_.tolist()
    ((1, 100), 18, [-1, 1])
    >>> sorted(np.argsort(-np.abs(svm.coef_[0]))[:3].tolist())     # the three largest weights
    [0, 2, 3]
    >>> svm.predict(X[1:6:2]).tolist(), svm.score(X[1::2], y[1::2])  # the other samples
    ([1, 1, -1], 0.85)
    """

    _parameter_constraints = {"C": [POSITIVE_OR_INF], "tol": [POSITIVE], "max_iter": [POSITIVE_INT, None]}

    def __init__(self, *, C=1.0, tol=1e-6, max_iter=None):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, alpha0=None):
        return self._fit(X, y, alpha0)

    def _fit(self, X, y, alpha0=None, alpha0_exp2=0, who=None):
        X, y_pm1 = self._validate_fit_data(X, y)
        Xs, k = self._relative_units(X, centre=True)
        K = linear_gram(Xs)
        self._solve(K, y_pm1, alpha0, in_x_units(float(self.C), -2 * k), 2 * k, alpha0_exp2, who)
        self.support_vectors_ = X[self.support_]
        # (1, n_SV) @ (n_SV, d), BLAS-free; in scaled units w' = w / 2^k
        self._coef_scaled = linear_gram(self._dual_coef_scaled, Xs[self.support_].T)
        self.coef_ = in_x_units(self._coef_scaled, k)
        if self.classes_.size > 2:  # one row per class (one-vs-rest)
            self._b_units = self.intercept_.copy()
            if self._x_centre is not None:
                self.intercept_ = self.intercept_ - self._coef_scaled @ scale_pow2(self._x_centre, self._x_exp2)
            return self
        self._b_units = float(self.intercept_[0])
        if self._x_centre is not None:  # the bias of x . coef_ in the units of X: b' - w' . (2^k2 mean)
            self.intercept_ = self.intercept_ - float(self._coef_scaled[0] @ scale_pow2(self._x_centre, self._x_exp2))
        return self

    def decision_function(self, X):
        """Decision values: (n,) for two classes (positive for ``classes_[1]``), (n, K) for K > 2 classes (column k:
        the machine of ``classes_[k]`` against the rest; ``predict`` takes the arg max)."""
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.classes_.size > 2:
            return linear_gram(self._to_units(X), self._coef_scaled) + self._b_units
        return linear_gram(self._to_units(X), self._coef_scaled)[:, 0] + self._b_units


class KernelSVM(_DualSVMBase):
    """C-SVM with a linear, polynomial or RBF kernel (same numba SMO solver as ``LinearSVM``): binary, or one
    against the rest for K > 2 classes (module docstring; fitted arrays then have one row per class, and
    ``decision_function`` is (n, K); with ``kernel="precomputed"`` ``dual_coef_full_`` is (K, n_train)).

    Kernels follow scikit-learn's ``SVC``: ``linear`` x.x', ``poly`` (gamma x.x' + coef0)^degree,
    ``rbf`` exp(-gamma |x - x'|^2); ``"auto"`` is 1 / n_features. ``kernel="precomputed"`` takes Gram matrices
    instead of expression data, as ``SVC`` does: ``fit(K, y)`` with ``K`` the (n_train, n_train) kernel of the
    training samples, ``decision_function(K_test)`` / ``predict(K_test)`` with the (n_test, n_train) kernel between
    test and training samples. It is the one way to train an SVM on a Gram matrix a protocol builds itself (e.g. one
    Gram matrix accumulated over nested gene subsets, or shared by several C): the solver sees that matrix exactly
    (no rescaling), and the decision values are ``K_test @ (alpha * y) + intercept_`` over all training samples
    (``dual_coef_full_``). ``gamma="scale"`` is 1 / (sum of the gene
    variances), so that the mean of gamma |x - x'|^2 over pairs of samples is 2: on centred genes (e.g.
    standardised ones) that is scikit-learn's 1 / (n_features * X.var()); unlike it, it does not depend on the genes'
    means (sklearn's X.var() over all entries grows with the differences between gene means, e.g. raw intensities,
    and made the kernel flat), as the RBF kernel itself does not.
    The computation runs in data-relative units as ``LinearSVM``'s (``_gamma_`` is reported in the units of X).

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly", "precomputed"}, default "rbf"
        Kernel k(x, x') (scikit-learn's ``SVC`` forms above); ``"precomputed"``: ``fit`` takes a Gram matrix.
    C : float > 0 or np.inf, default 1.0
        Box constraint 0 <= alpha_i <= C of the dual (Cortes & Vapnik 1995; ``np.inf``: hard margin).
    degree : int >= 0, default 3
        Degree of the polynomial kernel (``"poly"`` only).
    gamma : {"scale", "auto"} or float > 0, default "scale"
        Kernel coefficient of ``"rbf"`` and ``"poly"``: ``"scale"`` is 1 / (sum of the gene variances),
        ``"auto"`` 1 / n_features.
    coef0 : float, default 0.0
        Offset of the polynomial kernel (``"poly"`` only).
    tol : float > 0, default 1e-6
        Stopping tolerance on the KKT gap (LIBSVM's ``eps``).
    max_iter : int >= 1 or None, default None
        SMO iteration cap (None: 10 million).

    Attributes
    ----------
    classes_ : ndarray (2,) or (K,)
        Class labels.
    alpha_ : ndarray (n_samples,) or (K, n_samples)
        Dual variables alpha_i (in the units of X).
    support_ : ndarray of int
        Indices of the support vectors (alpha_i > 0; K > 2: of any machine).
    support_vectors_ : ndarray (n_SV, n_features)
        The support vectors; (0, 0) with ``kernel="precomputed"``.
    dual_coef_ : ndarray (1, n_SV) or (K, n_SV)
        alpha_i y_i of the support vectors.
    dual_coef_full_ : ndarray (n_train,) or (K, n_train)
        alpha_i y_i of every training sample (``kernel="precomputed"`` only).
    coef_ : ndarray (1, n_features) or (K, n_features)
        Primal weights (``kernel="linear"`` only).
    intercept_ : ndarray (1,) or (K,)
        Bias b of the decision function.
    n_support_ : ndarray of int (2,) or (K,)
        Support vectors of each class.
    n_iter_ : int or ndarray (K,)
        SMO iterations.
    objective_ : float or ndarray (K,)
        Dual objective at the solution (in the units of X).
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of features (genes, or training samples with ``kernel="precomputed"``) seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from genesel import KernelSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> svm = KernelSVM(kernel="rbf", C=10.0).fit(X, y)
    >>> svm.n_support_.tolist(), svm.score(X, y)
    ([20, 20], 1.0)
    >>> scores = cross_val_score(KernelSVM(kernel="rbf", C=10.0), X, y, cv=5)
    >>> print(f"{scores.mean():.2f}")
    0.95

    A Gram matrix of one's own (here the linear kernel) takes the place of the expression data:

    >>> K = X @ X.T
    >>> svm = KernelSVM(kernel="precomputed").fit(K[::2, ::2], y[::2])      # train x train
    >>> svm.score(K[1::2, ::2], y[1::2])                                    # test x train
    0.85
    """

    _parameter_constraints = {
        "kernel": [StrOptions({"linear", "poly", "rbf", "precomputed"})], "C": [POSITIVE_OR_INF],
        "degree": [integer(0, None, "left")], "gamma": [StrOptions({"scale", "auto"}), POSITIVE],
        "coef0": [real(None, None, "neither")], "tol": [POSITIVE], "max_iter": [POSITIVE_INT, None],
    }

    def __init__(self, *, kernel="rbf", C=1.0, degree=3, gamma="scale", coef0=0.0, tol=1e-6, max_iter=None):
        self.kernel = kernel
        self.C = C
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter

    def _gamma_value(self, Xs, k):
        """gamma in the units of the scaled data Xs = 2^k X."""
        if self.gamma == "scale":
            v = float(np.sum(Xs.var(axis=0)))  # the sum of the gene variances: translation invariant per gene
            return 1.0 / v if v > 0 else 1.0
        if self.gamma == "auto":
            return in_x_units(1.0 / Xs.shape[1], -2 * k)
        return in_x_units(float(self.gamma), -2 * k)

    def _kernel(self, A, B):
        return gram(A, B, self.kernel, degree=self.degree, gamma=self._gamma_scaled, coef0=self.coef0)

    def _one_class_cause(self, K, exp2):
        if self.kernel == "rbf" and K.shape[0] > 1:
            off = K[~np.eye(K.shape[0], dtype=bool)]
            g = f"gamma={self.gamma!r} ({self._gamma_:.3g} in the units of X)"
            if off.min() > 0.99:
                return (f"the RBF kernel is nearly flat (every k(x, x') > 0.99): {g} is small for the distances "
                        "between the samples", "pass a larger gamma (or gamma='scale')")
            if off.max() < 0.01:
                return (f"the RBF kernel is nearly diagonal (every k(x, x') < 0.01): {g} is large for the distances "
                        "between the samples", "pass a smaller gamma (or gamma='scale')")
            return (f"at C={self.C:g} and {g} the training classes are not separated",
                    "try a larger C, or a gamma suited to the distances between the samples (gamma='scale')")
        return super()._one_class_cause(K, exp2)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, alpha0=None):
        X, y_pm1 = self._validate_fit_data(X, y)
        if self.kernel == "precomputed":
            return self._fit_precomputed(X, y_pm1, alpha0)
        Xs, k = self._relative_units(X, centre=self.kernel in ("linear", "rbf"))  # translation-invariant models
        if self.kernel == "poly":
            self._warn_offset(Xs)
        self._gamma_scaled = float(self._gamma_value(Xs, k))
        self._gamma_ = float(in_x_units(self._gamma_scaled, 2 * k))
        K = self._kernel(Xs, Xs)
        exp2 = 2 * k if self.kernel == "linear" else 0  # rbf / poly: same kernel values, same C
        self._solve(K, y_pm1, alpha0, in_x_units(float(self.C), -exp2), exp2)
        self.support_vectors_ = X[self.support_]
        self._sv_scaled = Xs[self.support_]
        multi = self.classes_.size > 2
        self._b_units = self.intercept_.copy() if multi else float(self.intercept_[0])
        if self.kernel == "linear":
            w = self._dual_coef_scaled @ self._sv_scaled
            self.coef_ = in_x_units(w, k)
            if self._x_centre is not None and multi:  # one bias per class (one-vs-rest)
                self.intercept_ = self.intercept_ - w @ scale_pow2(self._x_centre, self._x_exp2)
            elif self._x_centre is not None:  # the bias of x . coef_ in the units of X
                self.intercept_ = self.intercept_ - float(w[0] @ scale_pow2(self._x_centre, self._x_exp2))
        return self

    def _warn_offset(self, Xs):
        """The polynomial kernel (gamma x.x' + coef0)^degree is not translation-invariant: far from the origin it
        compares the samples only in the last digits of its values, and centring would change the model, so it
        says so instead."""
        r = offset_ratio(Xs)
        if r > OFFSET_RATIO:
            warn_degenerate(type(self).__name__, "the polynomial kernel is not translation-invariant",
                            f"{offset_message(r)}, so its values differ between samples only in their last digits",
                            "centre the genes first (e.g. genesel.preprocessing.GeneStandardizer) or use "
                            "kernel='rbf' (translation-invariant)", stacklevel=4)

    def _fit_precomputed(self, K, y_pm1, alpha0):
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"KernelSVM(kernel='precomputed'): fit takes the square Gram matrix of the training "
                             f"samples, got shape {K.shape}")
        if not np.allclose(K, K.T, rtol=1e-10, atol=0.0):
            raise ValueError("KernelSVM(kernel='precomputed'): the Gram matrix is not symmetric; pass K(x_i, x_j) "
                             "of the training samples with themselves")
        self._x_exp = self._x_exp1 = self._x_exp2 = 0
        self._x_centre = None
        self._gamma_scaled = self._gamma_ = None
        self._solve(K, y_pm1, alpha0, float(self.C), 0)  # the matrix as given: no rescaling, C as given
        self.dual_coef_full_ = self._alpha_scaled * y_pm1  # alpha_i y_i over every training sample (K rows: K > 2)
        self.support_vectors_ = np.empty((0, 0))
        return self

    def decision_function(self, X):
        """Decision values: (n,) for two classes (positive for ``classes_[1]``), (n, K) for K > 2 classes (column k:
        the machine of ``classes_[k]`` against the rest; ``predict`` takes the arg max)."""
        check_is_fitted(self, "dual_coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.kernel == "precomputed":
            if self.classes_.size > 2:
                return X @ self.dual_coef_full_.T + self.intercept_
            return X @ self.dual_coef_full_ + self.intercept_[0]
        Kx = self._kernel(self._to_units(zero_ignored_genes(self, X)), self._sv_scaled)
        if self.classes_.size > 2:
            return Kx @ self._dual_coef_scaled.T + self._b_units
        return Kx @ self._dual_coef_scaled[0] + self._b_units
