"""Support vector machines trained in the dual on a precomputed Gram matrix (numba SMO).

Guyon, Weston, Barnhill & Vapnik (2002), *Gene Selection for Cancer Classification using Support Vector
Machines*, Machine Learning 46, section 3 (Eq. 4-5 and the SVM box: soft-margin linear SVM with bias).

The C-SVM dual (Vapnik 1998; Cortes & Vapnik 1995)

    min_a  1/2 a^T Q a - e^T a     s.t.  0 <= a_i <= C,  y^T a = 0,      Q_ij = y_i y_j K_ij

is solved by sequential minimal optimisation with the second-order working-set selection of Fan, Chen & Lin
(2005, JMLR 6, "WSS 2"), the rule LIBSVM (and hence ``sklearn.svm.SVC``) uses. The stopping rule is the same
maximal-violating-pair gap  m(a) - M(a) < tol,  and the bias is computed as LIBSVM does (average of y_i G_i over
free vectors, otherwise the midpoint of the feasible interval), so the solution, bias and predictions agree with
``SVC(kernel="linear", C=C)`` when both are run to a tight tolerance.

Microarray data have far fewer samples than genes (n << d), so everything is done on the n x n Gram matrix:
``LinearSVM`` trains on ``K = X X^T`` and recovers ``w = X^T (a * y)``. The solver takes a warm start ``a0``
(any feasible point), which is what makes recursive feature elimination cheap (``genesel.rfe``): removing genes
changes K but not the constraints, so the previous solution stays feasible and only a few SMO steps are needed.

For warm starts ``_newton_step`` additionally solves the KKT system on the current free set exactly (a Cholesky
of Q_FF, step clipped to the box, taken only if it lowers the objective); when the set of free vectors did not
change - the usual case after removing one gene - this lands on the optimum and SMO only certifies it.

``C=np.inf`` gives the hard-margin SVM (only meaningful on separable data, which n << d microarray data nearly
always are; on non-separable data the dual is unbounded and SMO stops at ``max_iter`` with a warning). The Gram
products are computed by a small numba kernel rather than BLAS: on these tiny matrices OpenBLAS threads only
add overhead and stall badly when the machine is loaded.
"""

from __future__ import annotations

import numbers

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["LinearSVM", "KernelSVM", "solve_svm_dual", "dual_objective", "kkt_violation", "kernel_matrix"]

_TAU = 1e-12  # LIBSVM's guard for non-positive curvature a_ij


# ----------------------------------------------------------------------------------------------------------------
# numba kernels (plain-Python twins in tests/naive/svm.py)
# ----------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def _gradient(K, y, alpha):
    """G = Q alpha - e with Q_ij = y_i y_j K_ij."""
    n = K.shape[0]
    G = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(n):
            if alpha[j] != 0.0:
                s += y[j] * alpha[j] * K[i, j]
        G[i] = y[i] * s - 1.0
    return G


@njit(cache=True)
def _smo(K, y, C, alpha, G, tol, max_iter):
    """SMO with WSS2 on the Gram matrix K. ``alpha`` (feasible) and ``G`` (its gradient) are updated in place.

    Returns ``(n_iter, gap)`` where ``gap = m(alpha) - M(alpha)`` at exit; the solution is tol-optimal when
    ``gap < tol``.
    """
    n = K.shape[0]
    it = 0
    gap = np.inf
    while True:
        # i = argmax_{t in I_up} -y_t G_t
        gmax = -np.inf
        i = -1
        for t in range(n):
            if y[t] > 0:
                if alpha[t] < C:
                    v = -G[t]
                    if v >= gmax:
                        gmax = v
                        i = t
            else:
                if alpha[t] > 0.0:
                    v = G[t]
                    if v >= gmax:
                        gmax = v
                        i = t
        # j: second-order choice among I_low with -y_t G_t < -y_i G_i; also track max_{I_low} y_t G_t
        gmax2 = -np.inf
        j = -1
        obj_min = np.inf
        for t in range(n):
            in_low = (alpha[t] > 0.0) if y[t] > 0 else (alpha[t] < C)
            if not in_low:
                continue
            ygt = y[t] * G[t]
            if ygt >= gmax2:
                gmax2 = ygt
            if i < 0:
                continue
            b = gmax + ygt
            if b > 0.0:
                a = K[i, i] + K[t, t] - 2.0 * K[i, t]
                if a <= 0.0:
                    a = _TAU
                obj = -(b * b) / a
                if obj <= obj_min:
                    obj_min = obj
                    j = t
        gap = gmax + gmax2
        if i < 0 or j < 0 or gap < tol or it >= max_iter:
            break
        it += 1
        # move a_i += y_i s, a_j -= y_j s (keeps y^T a = 0), s = b / a clipped to the box
        a = K[i, i] + K[j, j] - 2.0 * K[i, j]
        if a <= 0.0:
            a = _TAU
        b = -y[i] * G[i] + y[j] * G[j]
        s = b / a
        lim_i = (C - alpha[i]) if y[i] > 0 else alpha[i]
        lim_j = alpha[j] if y[j] > 0 else (C - alpha[j])
        hit_i = False
        hit_j = False
        if lim_i <= s:
            s = lim_i
            hit_i = True
        if lim_j <= s:
            s = lim_j
            hit_j = True
            hit_i = lim_i <= s
        if s <= 0.0:
            # degenerate pair (cannot move); should not happen for a violating pair with positive room
            break
        new_i = alpha[i] + y[i] * s
        new_j = alpha[j] - y[j] * s
        if hit_i:
            new_i = C if y[i] > 0 else 0.0
        if hit_j:
            new_j = 0.0 if y[j] > 0 else C
        alpha[i] = new_i
        alpha[j] = new_j
        for k in range(n):
            G[k] += y[k] * s * (K[k, i] - K[k, j])
    return it, gap


@njit(cache=True)
def _rho(y, C, alpha, G):
    """LIBSVM's threshold rho (decision = sum a_i y_i K(x_i, x) - rho)."""
    n = y.shape[0]
    ub = np.inf
    lb = -np.inf
    s = 0.0
    nfree = 0
    for t in range(n):
        yg = y[t] * G[t]
        if alpha[t] >= C:
            if y[t] < 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        elif alpha[t] <= 0.0:
            if y[t] > 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        else:
            nfree += 1
            s += yg
    if nfree > 0:
        return s / nfree
    return 0.5 * (ub + lb)


@njit(cache=True)
def _newton_step(K, y, C, alpha, G):
    """One Newton step on the free set: the exact minimiser of the dual over the face where the bounded variables
    stay at their bounds, clipped to the box. ``alpha`` and ``G`` are updated in place.

    With F the free set (0 < a_i < C) and B the rest, the optimum on that face solves
        Q_FF a_F + b y_F = e_F - Q_FB a_B,     y_F^T a_F = -y_B^T a_B,
    done here with a hand-written Cholesky of Q_FF (no LAPACK threads). The step a_F -> a_F + t d, t in (0, 1],
    stops at the box and is taken only if it lowers the objective; if Q_FF is (numerically) singular nothing is
    done. This is an accelerator for warm starts (RFE: removing a gene rarely changes which vectors are free, so
    the step lands on the new optimum); SMO still certifies the result. Returns True if a step was taken.
    """
    n = K.shape[0]
    F = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        if alpha[i] > 0.0 and alpha[i] < C:
            F[m] = i
            m += 1
    if m == 0:
        return False
    L = np.empty((m, m))
    dmax = 0.0
    for p in range(m):
        for q in range(p + 1):
            L[p, q] = y[F[p]] * y[F[q]] * K[F[p], F[q]]
        if L[p, p] > dmax:
            dmax = L[p, p]
    # Cholesky (lower), in place
    for p in range(m):
        for q in range(p + 1):
            acc = L[p, q]
            for r in range(q):
                acc -= L[p, r] * L[q, r]
            if p == q:
                if acc <= 1e-10 * dmax:
                    return False
                L[p, p] = np.sqrt(acc)
            else:
                L[p, q] = acc / L[q, q]
    # right-hand sides: r = e_F - Q_FB a_B (via G: Q a = G + e), v = y_F
    rhs = np.empty(m)
    v = np.empty(m)
    for p in range(m):
        i = F[p]
        acc = 0.0
        for q in range(m):
            j = F[q]
            acc += y[j] * alpha[j] * K[i, j]
        rhs[p] = 1.0 - (G[i] + 1.0 - y[i] * acc)
        v[p] = y[i]
    h = 0.0
    for i in range(n):
        if not (alpha[i] > 0.0 and alpha[i] < C):
            h -= y[i] * alpha[i]
    # solve L L^T u = rhs and L L^T w = v
    for vec in (rhs, v):
        for p in range(m):
            acc = vec[p]
            for r in range(p):
                acc -= L[p, r] * vec[r]
            vec[p] = acc / L[p, p]
        for p in range(m - 1, -1, -1):
            acc = vec[p]
            for r in range(p + 1, m):
                acc -= L[r, p] * vec[r]
            vec[p] = acc / L[p, p]
    yu = 0.0
    yv = 0.0
    for p in range(m):
        yu += y[F[p]] * rhs[p]
        yv += y[F[p]] * v[p]
    if yv <= 0.0:
        return False
    b = (yu - h) / yv
    d = np.empty(m)
    t = 1.0
    for p in range(m):
        i = F[p]
        d[p] = rhs[p] - b * v[p] - alpha[i]
        if d[p] < 0.0:
            lim = alpha[i] / (-d[p])
            if lim < t:
                t = lim
        elif d[p] > 0.0:
            lim = (C - alpha[i]) / d[p]
            if lim < t:
                t = lim
    # objective change t g.d + t^2/2 d^T Q d must be negative
    gd = 0.0
    dqd = 0.0
    for p in range(m):
        i = F[p]
        gd += G[i] * d[p]
        acc = 0.0
        for q in range(m):
            j = F[q]
            acc += y[i] * y[j] * K[i, j] * d[q]
        dqd += d[p] * acc
    if not (t > 0.0) or not (t * gd + 0.5 * t * t * dqd < 0.0):
        return False
    for p in range(m):
        i = F[p]
        step = t * d[p]
        new = alpha[i] + step
        if new <= 0.0 or (d[p] < 0.0 and alpha[i] / (-d[p]) == t):
            new = 0.0
        elif new >= C or (d[p] > 0.0 and (C - alpha[i]) / d[p] == t):
            new = C
        step = new - alpha[i]
        alpha[i] = new
        if step != 0.0:
            for k in range(n):
                G[k] += y[k] * y[i] * K[k, i] * step
    return True


@njit(cache=True)
def _dot_matrix(A, B, symmetric):
    """A B^T for row-major A (m x d) and B (p x d) without BLAS (its threads stall under load on small problems).

    ``symmetric``: A is B, compute the upper triangle only."""
    m, d = A.shape
    p = B.shape[0]
    out = np.empty((m, p))
    for i in range(m):
        j0 = i if symmetric else 0
        for j in range(j0, p):
            acc = 0.0
            for k in range(d):
                acc += A[i, k] * B[j, k]
            out[i, j] = acc
            if symmetric:
                out[j, i] = acc
    return out


def _gram(A, B=None):
    A = np.ascontiguousarray(A, dtype=np.float64)
    if B is None:
        return _dot_matrix(A, A, True)
    return _dot_matrix(A, np.ascontiguousarray(B, dtype=np.float64), False)


# ----------------------------------------------------------------------------------------------------------------
# functional API
# ----------------------------------------------------------------------------------------------------------------


def _as_pm1_float(y):
    y = np.ascontiguousarray(y, dtype=np.float64)
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("labels y for the SVM dual must be in {-1, +1}; map them with genesel.validation.to_pm1")
    return y


def solve_svm_dual(K, y, C=1.0, *, tol=1e-6, max_iter=None, alpha0=None):
    """Solve the C-SVM dual on a precomputed Gram matrix.

    Parameters
    ----------
    K : (n, n) symmetric positive semi-definite Gram matrix.
    y : (n,) labels in {-1, +1}.
    C : box constraint (``np.inf`` for the hard margin).
    tol : stopping tolerance on the maximal-violating-pair gap (LIBSVM's ``eps``).
    max_iter : SMO iteration cap (default ``max(10_000_000, 100 n)``).
    alpha0 : warm start; must be feasible (0 <= a <= C, y^T a = 0), e.g. a previous solution for the same
        samples and C.

    Returns
    -------
    dict with ``alpha`` (n,), ``rho`` (decision = sum a_i y_i K(x_i, x) - rho), ``n_iter``, ``gap``,
    ``converged`` and ``objective`` (dual objective 1/2 a^T Q a - e^T a).
    """
    K = np.ascontiguousarray(K, dtype=np.float64)
    n = K.shape[0]
    if K.ndim != 2 or K.shape[1] != n:
        raise ValueError(f"K must be a square Gram matrix, got shape {K.shape}")
    y = _as_pm1_float(y)
    if y.shape[0] != n:
        raise ValueError(f"shape mismatch: K is {n} x {n} but y has {y.shape[0]} labels")
    C = float(C)
    if not C > 0:
        raise ValueError(f"C must be > 0 (np.inf for a hard margin), got {C}")
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)
    if alpha0 is None:
        alpha = np.zeros(n)
    else:
        alpha = np.array(alpha0, dtype=np.float64, copy=True)
        if alpha.shape != (n,):
            raise ValueError(f"alpha0 must have shape ({n},), got {alpha.shape}")
        if np.any(alpha < 0) or np.any(alpha > C) or abs(alpha @ y) > 1e-8 * max(1.0, alpha.sum()):
            raise ValueError("alpha0 is not feasible for the SVM dual (need 0 <= alpha <= C and y @ alpha == 0)")
    G = _gradient(K, y, alpha)
    n_iter, gap = _smo(K, y, C, alpha, G, float(tol), int(max_iter))
    rho = _rho(y, C, alpha, G)
    obj = 0.5 * float(alpha @ (G - 1.0))  # 1/2 a^T Q a - e^T a = 1/2 a^T (G + e) - e^T a
    return {
        "alpha": alpha,
        "rho": float(rho),
        "n_iter": int(n_iter),
        "gap": float(gap),
        "converged": bool(gap < tol),
        "objective": obj,
        "gradient": G,
    }


def dual_objective(K, y, alpha):
    """1/2 a^T Q a - e^T a for Q_ij = y_i y_j K_ij (the quantity the solver minimises)."""
    c = np.asarray(alpha) * np.asarray(y, dtype=float)
    return 0.5 * float(c @ np.asarray(K) @ c) - float(np.sum(alpha))


def kkt_violation(K, y, alpha, C):
    """Maximal-violating-pair gap m(a) - M(a) (<= tol at a tol-optimal point) and the equality residual."""
    y = np.asarray(y, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    G = y * (np.asarray(K) @ (alpha * y)) - 1.0
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    m = np.max(-y[up] * G[up]) if up.any() else -np.inf
    M = np.min(-y[low] * G[low]) if low.any() else np.inf
    return float(m - M), float(abs(alpha @ y))


# ----------------------------------------------------------------------------------------------------------------
# kernels
# ----------------------------------------------------------------------------------------------------------------


def kernel_matrix(A, B, kernel="linear", *, degree=3, gamma=1.0, coef0=0.0):
    """k(a, b) for all rows of A and B: linear a.b, poly (gamma a.b + coef0)^degree, rbf exp(-gamma |a-b|^2)."""
    AB = _gram(A) if B is A else _gram(A, B)
    if kernel == "linear":
        return AB
    if kernel == "poly":
        return (gamma * AB + coef0) ** degree
    if kernel == "rbf":
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * AB
        np.maximum(sq, 0.0, out=sq)
        return np.exp(-gamma * sq)
    raise ValueError(f"kernel must be 'linear', 'poly' or 'rbf', got {kernel!r}")


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
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=False)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                f"{type(self).__name__} needs two classes in y, got one class only {classes.tolist()}; "
                "with small folds use stratified splits"
            )
        if y_type != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {y_type}. "
                f"({type(self).__name__} is a binary classifier; build a two-class task, e.g. one class against "
                "the rest, first.)"
            )
        self.classes_ = classes
        y_pm1 = np.where(y == classes[1], 1.0, -1.0)
        return X, y_pm1

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
        K = _gram(X)
        self._solve(K, y_pm1, alpha0)
        self.support_vectors_ = X[self.support_]
        self.coef_ = _gram(self.dual_coef_, self.support_vectors_.T)  # (1, n_SV) @ (n_SV, d), BLAS-free
        return self

    def decision_function(self, X):
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return _gram(X, self.coef_)[:, 0] + self.intercept_[0]


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
        return kernel_matrix(A, B, self.kernel, degree=self.degree, gamma=self._gamma_, coef0=self.coef0)

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
