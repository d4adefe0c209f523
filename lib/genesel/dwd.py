"""Distance-weighted discrimination (DWD) solved in the span of the samples.

J. S. Marron, M. J. Todd, J. Ahn, *Distance-Weighted Discrimination*, JASA 102(480), 2007 (technical report
Marron & Todd 2002); as used in M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection
Methods With Gene Expression Data*, MSc thesis, UBC 2006, section 3.2.

Problem (thesis §3.2; Marron et al. Sec. 2.2):

    min_{r, w, b, ξ}  Σ_i 1/r_i + C Σ_i ξ_i   s.t.  r_i = y_i(x_iᵀw + b) + ξ_i,  r ≥ 0,  ξ ≥ 0,  ‖w‖ ≤ 1.

The thesis writes wᵀw = 1; Marron & Todd's SOCP uses the convex relaxation ‖w‖ ≤ 1, which is tight whenever the
classes are not hopelessly overlapping, and is what we solve.

Solver (ours, exact): eliminating ξ gives, for a margin m_i = y_i(x_iᵀw + b), the per-sample loss::

    V(m) = 1/m  if m ≥ 1/√C,   2√C − C·m  otherwise

(minimising 1/(m + ξ) + Cξ over ξ ≥ 0; this is the generalised-DWD loss of Wang & Zou 2018 with q = 1), a convex,
continuously differentiable, decreasing function. Only inner products enter, and projecting w on the span of the
samples keeps every margin while not increasing ‖w‖, so w = Σ_i β_i φ(x_i). With the Gram matrix K = VΛVᵀ and
L = V Λ^{1/2} (n × rank) the problem becomes min Σ V(y_i(L_i u + b)) subject to ‖u‖ ≤ 1 in at most n dimensions
(w = Σ β_i φ(x_i), β = V Λ^{-1/2} u, ‖w‖ = ‖u‖), so the cost is one n × n eigendecomposition plus Newton steps in
n + 1 unknowns — thousands of genes cost only the Gram matrix. The ball constraint is handled through its Lagrange
multiplier μ: for fixed μ the smooth convex problem min Σ V + μ/2‖u‖² is solved by damped Newton, and μ ≥ 0 is
found by a safeguarded Newton iteration on 1/‖u(μ)‖ = 1 (as in trust-region subproblems); μ = 0 when the
unconstrained optimum already lies inside the ball. ``tests/test_dwd.py`` checks the solution against a direct
SLSQP solve of the original constrained problem.

Units (ours): scaling the data by a leaves w unchanged and scales b and the margins by a when C is scaled by
1/a². The solver works in the feature space scaled by a power of two (exact) that puts the median distance between
opposite-class samples in [1, 2), where its tolerances were set, and reports everything in the units of X; so
``C="auto"`` gives the same w on data scaled by 1e-300, 0.01 or 1e200. Newton steps that find no decrease (every
margin on the linear branch of V, no curvature in b: this used to end at w = 0, b = 0) are retried with
Levenberg-Marquardt damping. A fit ending at a constant decision function raises ``ValueError``; one predicting a
single class warns (``DegenerateModelWarning``).

Offsets (ours): with the linear or RBF kernel DWD is translation-invariant (the bias absorbs a shift), so data that
sit further from the origin than ~1000 spreads (:data:`genesel._core.units.OFFSET_RATIO`) are centred before the
Gram matrix, which otherwise loses the differences between samples to rounding (at 1e4 spreads the smallest
eigenvalues drop below the solver's cut-off: a one-class model); ``intercept_`` stays that of ``X @ coef_``. The
polynomial kernel is not translation-invariant: there a ``DegenerateModelWarning`` names the offset and the remedy.
Data of ordinary offset are untouched.

Default penalty (Marron et al. Sec. 2.2 / the DWD software): ``C = 100 / d_t²`` where d_t is the median of the
Euclidean distances between training samples of opposite classes (computed in the kernel's feature space).

K >= 3 classes: one against the rest. Multiclass DWD as one optimisation (Huang, Liu, Du, Perou, Hayes, Todd &
Marron, *Multiclass Distance-Weighted Discrimination*, JCGS 22(4), 2013) couples K discriminant functions through a
sum-to-zero constraint and is a different second-order cone program, not implemented here; we fit K binary DWDs,
class c against the others, each with its own default C (``estimators_``), at K times the cost of one binary fit
(each a Gram matrix of the samples and Newton steps in at most n + 1 unknowns). Every binary direction has
‖w_c‖ ≤ 1, so the K decision values w_cᵀφ(x) + b_c are signed distances on one scale: ``decision_function`` is
(n, K) and ``predict`` the class of the largest (the one-vs-rest rule).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context

from genesel._core.base import BinaryClassifier
from genesel._core.gram import gram
from genesel._core.params import POSITIVE, StrOptions, integer, real
from genesel._core.threads import few_samples_one_blas_thread
from genesel._core.units import (OFFSET_RATIO, far_offset_centre, in_x_units, offset_message, offset_ratio,
                                 scale_pow2, unit_row_exponent)
from genesel._core.validation import (check_classification_fit, warn_degenerate, warn_if_one_class,
                                      zero_ignored_genes)

_SINGLE_THREAD_MAX_N = 512
__all__ = ["DWD", "dwd_loss", "default_dwd_C"]

_KERNELS = ("linear", "rbf", "poly", "precomputed")


def dwd_loss(margins, C):
    """Per-sample DWD loss V(m) = min_{ξ≥0} 1/(m+ξ) + Cξ (see the module docstring)."""
    m = np.asarray(margins, dtype=float)
    sc = np.sqrt(C)
    thr = 1.0 / sc
    return np.where(m >= thr, 1.0 / np.maximum(m, thr), 2.0 * sc - C * m)


def _loss_derivs(m, C):
    sc = np.sqrt(C)
    thr = 1.0 / sc
    right = m >= thr
    mm = np.where(right, m, 1.0)
    v = np.where(right, 1.0 / mm, 2.0 * sc - C * m)
    d1 = np.where(right, -1.0 / mm**2, -C)
    d2 = np.where(right, 2.0 / mm**3, 0.0)
    return v, d1, d2


def _median_opposite_distance(K, y):
    """Median distance (in the feature space of the Gram matrix K) between samples of opposite classes."""
    diag = np.diag(K)
    pos, neg = y > 0, y < 0
    d2 = diag[pos][:, None] + diag[neg][None, :] - 2.0 * K[np.ix_(pos, neg)]
    return float(np.median(np.sqrt(np.maximum(d2, 0.0))))


def default_dwd_C(K, y):
    """Marron–Todd default C = 100 / (median distance between opposite-class samples)², from a Gram matrix."""
    med = _median_opposite_distance(K, y)
    if not np.isfinite(med) or med <= 0:
        raise ValueError("DWD: the two classes have coinciding samples (median distance 0); set C explicitly")
    return 100.0 / med**2


def _solve_penalised(A, C, mu, z0, max_newton=200, tol=1e-12):
    """Newton on F(z) = Σ V(A z) + μ/2 ‖z[:-1]‖²; A = diag(y)[L, 1]. Returns z and the final Hessian.

    Where every margin lies on the linear branch of V (a start at z = 0 with C large against the data) the
    Hessian has no curvature in the bias and the Newton step is enormous; when no step length down to 1e-14 of it
    lowers F, the step is recomputed with Levenberg-Marquardt damping H + λI (λ raised tenfold per failure, lowered
    again after a success) instead of giving up at the start, which used to return w = 0, b = 0.
    """
    r = A.shape[1] - 1
    reg = np.ones(r + 1)
    reg[-1] = 0.0
    z = z0.copy()

    def F(zz):
        return dwd_loss(A @ zz, C).sum() + 0.5 * mu * zz[:-1] @ zz[:-1]

    fz = F(z)
    H = None
    damp = 0.0
    n_fail = 0
    for _ in range(max_newton):
        m = A @ z
        _, d1, d2 = _loss_derivs(m, C)
        g = A.T @ d1 + mu * reg * z
        H = (A.T * d2) @ A + np.diag(mu * reg)
        scale = np.trace(H) / (r + 1)
        jitter = 1e-12 * (scale + 1.0)
        Hd = H.copy()
        Hd[np.diag_indices_from(Hd)] += jitter + damp
        H[np.diag_indices_from(H)] += jitter
        try:
            step = -np.linalg.solve(Hd, g)
        except np.linalg.LinAlgError:
            step = -g
        dec = -g @ step
        if dec < 0:  # not a descent direction (numerically singular H): fall back to the gradient
            step, dec = -g, g @ g
        small = np.max(np.abs(step)) <= tol * (1.0 + np.max(np.abs(z)))
        if damp == 0.0 and (dec <= 1e-6 * tol * max(1.0, abs(fz)) or small):
            z = z + step  # within rounding of the optimum: take the full (tiny) Newton step
            break
        t = 1.0
        while True:
            znew = z + t * step
            fnew = F(znew)
            if fnew <= fz - 1e-4 * t * dec or t < 1e-14:
                break
            t *= 0.5
        if fnew > fz + 1e-14 * abs(fz) or (fnew >= fz and damp > 0.0):
            if dec <= 1e-12 * max(1.0, abs(fz)):
                break  # the predicted decrease is at rounding level: converged
            # no decrease along this step: damp it (towards a short gradient step) and try again
            n_fail += 1
            if n_fail > 60 or not np.isfinite(scale):
                break
            damp = max(10.0 * damp, 1e-8 * (scale + 1e-300), 1e-300)
            continue
        n_fail = 0
        damp = damp / 100.0 if damp > 1e-10 * scale else 0.0
        z, fz = znew, fnew
    return z, H


def _solve_dwd(L, y, C, tol=1e-10, max_outer=100):
    """min Σ V(y_i(L_i u + b)) s.t. ‖u‖ ≤ 1. Returns u, b, μ."""
    n, r = L.shape
    A = np.column_stack([L, np.ones(n)]) * y[:, None]
    z = np.zeros(r + 1)

    def solve(mu, z0):
        return _solve_penalised(A, C, mu, z0)

    def unorm(zz):
        return float(np.linalg.norm(zz[:-1]))

    mu = C * float(np.linalg.norm(L.T @ y)) + 1e-300  # ≈ the multiplier giving ‖u‖ ≈ 1 in the linear regime
    z, H = solve(mu, z)
    lo, hi = None, None  # ‖u(lo)‖ > 1 ≥ ‖u(hi)‖  (‖u(μ)‖ decreases in μ)
    for _ in range(200):
        if unorm(z) > 1.0:
            lo = mu
            if hi is not None:
                break
            mu *= 4.0
        else:
            hi = mu
            if lo is not None:
                break
            if mu < 1e-14:
                break
            mu /= 4.0
        z, H = solve(mu, z)
    if lo is None:  # the unconstrained optimum lies inside the ball
        z, H = solve(0.0, z)
        if unorm(z) <= 1.0 + 1e-9:
            return z[:-1], z[-1], 0.0
        lo = 0.0
    # safeguarded Newton on φ(μ) = 1/‖u(μ)‖ − 1 (increasing, nearly linear in μ)
    zs = {}
    for _ in range(max_outer):
        nu = unorm(z)
        if abs(nu - 1.0) < tol:
            break
        zs[mu] = z
        rhs = np.zeros(r + 1)
        rhs[:-1] = z[:-1]
        dz = -np.linalg.solve(H, rhs)
        dnu = z[:-1] @ dz[:-1] / nu
        phi, dphi = 1.0 / nu - 1.0, -dnu / nu**2
        if nu > 1.0:
            lo = max(lo, mu)
        else:
            hi = min(hi, mu)
        cand = mu - phi / dphi if dphi > 0 else np.nan
        if not (np.isfinite(cand) and lo < cand < hi):
            cand = np.sqrt(lo * hi) if lo > 0 else 0.5 * hi
        mu = cand
        z, H = solve(mu, z)
    nu = unorm(z)
    if nu > 1.0:  # polish: scale onto the sphere (changes the objective by O(tol))
        z = z.copy()
        z[:-1] /= nu
    return z[:-1], z[-1], mu


class DWD(BinaryClassifier):
    """Distance-weighted discrimination (Marron & Todd), binary, linear or kernel; one against the rest for K >= 3
    classes (module docstring).

    Parameters
    ----------
    C : float or "auto", default="auto"
        Penalty on the slacks ξ. ``"auto"`` is Marron & Todd's default 100 / d_t², d_t the median distance between
        training samples of opposite classes (in the kernel's feature space).
    kernel : {"linear", "rbf", "poly", "precomputed"}, default="linear"
        The thesis uses the linear kernel for all data sets (§3.4). Only ``"linear"`` exposes ``coef_``.
    gamma, degree, coef0 : kernel parameters as in ``sklearn.metrics.pairwise.pairwise_kernels``
        (rbf: exp(−γ‖x−z‖²), poly: (γ xᵀz + coef0)^degree; ``gamma=None`` means 1 / n_genes).
    tol : float, default=1e-10
        Tolerance on ‖w‖ = 1 when the norm constraint is active.

    Attributes
    ----------
    classes_, C_ (the penalty used), dual_coef_ (β, w = Σ β_i φ(x_i)), intercept_, coef_ (linear kernel only),
    objective_ (Σ 1/r_i + C Σ ξ_i at the solution), norm_multiplier_ (μ of ‖w‖ ≤ 1), margins_ (y_i f(x_i) on the
    training data). K >= 3 classes: ``estimators_`` (the K binary DWDs, ``classes_[c]`` as +1 against the rest),
    ``C_`` (K,), ``coef_`` (K, n_genes, linear kernel), ``intercept_`` (K,), and ``decision_function`` of shape
    (n, K).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import DWD
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> dwd = DWD().fit(X[::2], y[::2])                             # C="auto": Marron & Todd's 100 / d_t^2
    >>> print(f"C = {dwd.C_:.4f}, |w| = {np.linalg.norm(dwd.coef_):.2f}")
    C = 0.4328, |w| = 1.00
    >>> dwd.score(X[1::2], y[1::2]), dwd.predict(X[1:6:2]).tolist()
    (0.85, [1, 1, -1])
    """

    _multi_class = True  # one against the rest for K >= 3 (predict and tags from BinaryClassifier)

    _parameter_constraints = {
        "C": [StrOptions({"auto"}), POSITIVE], "kernel": [StrOptions(set(_KERNELS))], "gamma": [POSITIVE, None],
        "degree": [integer(0, None, "left")], "coef0": [real(None, None, "neither")], "tol": [POSITIVE],
    }

    def __init__(self, *, C="auto", kernel="linear", gamma=None, degree=3, coef0=1.0, tol=1e-10):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol

    def _kernel(self, X, Z):
        return gram(X, Z, self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
                    blas=True)

    @_fit_context(prefer_skip_nested_validation=True)
    @few_samples_one_blas_thread(_SINGLE_THREAD_MAX_N)
    def fit(self, X, y):
        """Fit on expression data ``X`` (samples × genes, or a precomputed n × n Gram matrix) and labels ``y`` (two
        classes, or K >= 3: one DWD per class against the rest)."""
        X, y_index, self.classes_ = check_classification_fit(
            self, X, y, min_samples=2, constant=None if self.kernel == "precomputed" else "zero")
        if self.classes_.size > 2:
            return self._fit_one_vs_rest(X, y_index)
        self.estimators_ = None
        y_pm = np.where(y_index == 1, 1.0, -1.0)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"DWD: kernel='precomputed' needs a square Gram matrix, got shape {X.shape}")
        # data-relative units: the feature space is scaled by a = 2^e (exact) so that the median distance between
        # opposite-class samples lies in [1, 2); the problem with C / a² there is the problem with C here (the
        # margins scale by a, w is unchanged: see the class docstring), and the solver's constants stay in range
        # offsets (translation-invariant models: the linear kernel with its bias, rbf): data further from the
        # origin than ~1000 spreads are centred first, which leaves the model and spares the Gram matrix the
        # rounding that cancels the differences between samples (data of ordinary offset: untouched)
        self._centre = None
        if self.kernel == "linear":
            e0 = unit_row_exponent(X)
            Xs = scale_pow2(X, e0)
            x_mean = far_offset_centre(Xs)
            if x_mean is not None:
                Xs = Xs - x_mean
                self._centre = in_x_units(x_mean, -e0)
            K = Xs @ Xs.T
        else:
            e0, Xs = 0, X
            if self.kernel in ("rbf", "poly"):
                Xu = scale_pow2(X, unit_row_exponent(X))
                if self.kernel == "rbf" and far_offset_centre(Xu) is not None:
                    self._centre = in_x_units(far_offset_centre(Xu), -unit_row_exponent(X))
                    Xs = X - self._centre
                elif self.kernel == "poly" and offset_ratio(Xu) > OFFSET_RATIO:
                    warn_degenerate("DWD", "the polynomial kernel is not translation-invariant",
                                    f"{offset_message(offset_ratio(Xu))}, so its values differ between samples only "
                                    "in their last digits", "centre the genes first (e.g. "
                                    "genesel.preprocessing.GeneStandardizer) or use kernel='rbf' or 'linear'",
                                    stacklevel=4)
            K = self._kernel(Xs, Xs)
        K = 0.5 * (K + K.T)
        if not np.all(np.isfinite(K)):
            raise ValueError(f"DWD: the {self.kernel} kernel matrix of X is not finite (overflow); rescale X or "
                             "choose kernel parameters (gamma, coef0, degree) suited to its scale")
        dt = _median_opposite_distance(K, y_pm)
        e1 = 1 - int(np.frexp(dt)[1]) if np.isfinite(dt) and dt > 0 else 0
        K = np.ldexp(K, 2 * e1)
        e = e0 + e1  # feature space scaled by 2^e
        if isinstance(self.C, str):
            Cs = default_dwd_C(K, y_pm)
        else:
            with np.errstate(over="ignore", under="ignore"):
                Cs = float(np.ldexp(float(self.C), -2 * e))
            if not (0 < Cs < np.inf):
                raise ValueError(f"DWD: C={self.C:g} is {'negligible' if Cs == 0 else 'overwhelming'} at the scale "
                                 "of X (C times the squared median distance between the classes under- or "
                                 "overflows); use C='auto' or standardise the genes")
        evals, evecs = np.linalg.eigh(K)
        keep = evals > 1e-10 * max(evals.max(), 1e-300)
        evals, evecs = evals[keep], evecs[:, keep]
        L = evecs * np.sqrt(evals)[None, :]
        u, b, mu = _solve_dwd(L, y_pm, Cs, tol=self.tol)
        beta = evecs @ (u / np.sqrt(evals))  # w = Σ β_i φ'(x_i) in the scaled feature space
        fs = K @ beta + b
        if not np.linalg.norm(u) > 1e-12 or np.ptp(fs) <= 1e-12 * max(1.0, abs(b)):
            raise ValueError(
                "DWD: the fit ended at a constant decision function (w = 0): the two classes cannot be told apart "
                "in the kernel's feature space (coinciding samples, or a kernel that maps every sample to the same "
                "point, e.g. an RBF gamma far too large for the scale of X); check X and the kernel parameters"
            )
        with np.errstate(over="ignore", under="ignore"):
            self.C_ = float(np.ldexp(Cs, 2 * e))
            self.dual_coef_ = np.ldexp(beta, e)
            self.intercept_ = float(np.ldexp(b, -e))
            self.norm_multiplier_ = float(np.ldexp(mu, e))
            self.margins_ = np.ldexp(y_pm * fs, -e)
            self.objective_ = float(np.ldexp(dwd_loss(y_pm * fs, Cs).sum(), e))
        self._b_centred = self.intercept_
        if self.kernel == "linear":
            self.coef_ = np.ldexp(Xs.T @ beta, e1)  # w = Σ β_i 2^e x_i = 2^e1 Xs^T β (‖w‖ ≤ 1, no overflow)
            if self._centre is not None:  # the bias of x . coef_ in the units of X: (b - 2^e1 w . mu) / 2^e
                with np.errstate(over="ignore", under="ignore"):
                    self.intercept_ = float(np.ldexp(b - np.ldexp(self.coef_ @ x_mean, e1), -e))
        else:
            self.X_fit_ = X
            self._X_fit_c = Xs
        warn_if_one_class(self, self.classes_[(self.margins_ * y_pm > 0).astype(int)], y,
                          "the classes overlap so much that the bias alone decides",
                          "check that the genes carry class information (or pass a larger C)")
        return self

    def _fit_one_vs_rest(self, X, y_index):
        """K binary DWDs, class c (+1) against the rest (-1), with this estimator's parameters (module docstring)."""
        K = self.classes_.size
        self.estimators_ = [DWD(**self.get_params()).fit(X, np.where(y_index == c, 1, -1)) for c in range(K)]
        self.C_ = np.array([e.C_ for e in self.estimators_])
        self.intercept_ = np.array([e.intercept_ for e in self.estimators_])
        if self.kernel == "linear":
            self.coef_ = np.array([e.coef_ for e in self.estimators_])
        return self

    def decision_function(self, X):
        """Signed score f(x) = wᵀφ(x) + b; positive means classes_[1]. K >= 3 classes: the K one-against-the-rest
        scores, shape (n, K)."""
        X = self._check_predict_input(X)
        if self.estimators_ is not None:
            return np.column_stack([e.decision_function(X) for e in self.estimators_])
        centre = getattr(self, "_centre", None)
        if self.kernel == "linear":
            if centre is not None:
                return (X - centre) @ self.coef_ + self._b_centred
            return X @ self.coef_ + self.intercept_
        if self.kernel == "precomputed":
            return X @ self.dual_coef_ + self.intercept_
        Xz = zero_ignored_genes(self, X)
        Kx = self._kernel(Xz if centre is None else Xz - centre, self._X_fit_c)
        return Kx @ self.dual_coef_ + self.intercept_

