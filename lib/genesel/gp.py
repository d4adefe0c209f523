"""Binary Gaussian-process classification with ARD (Tan 2006, MSc thesis, §3.3.1 and §4.3).

Covariance (Tan 2006, Eq. 3.8)::

    k(x_i, x_j) = v0 · exp(−½ Σ_m l_m (x_i^m − x_j^m)²) + v1 + v2 · δ_ij

with ``l_m`` the ARD variables (inverse squared length scales, one per gene; a single shared ``l`` when
``ard=False``), ``v0`` the signal variance, ``v1`` the bias variance and ``v2`` the latent noise ("jitter")
variance.  All hyper-parameters are fitted by maximising the approximate log evidence ``log p(y | X, θ)`` over
their logarithms (type-II maximum likelihood, thesis "Model adaptation") with scipy's L-BFGS-B from several
seeded starting points, keeping the best.

Approximations (equation and algorithm numbers from Rasmussen & Williams, *Gaussian Processes for Machine
Learning*, 2006):

* ``approximation="laplace"`` — Newton mode finding (Alg. 3.1, with step halving), predictions (Alg. 3.2) and the
  evidence gradient including the implicit term through the mode (Alg. 5.1).  Logistic (Eq. 3.12 of the thesis)
  or probit (Eq. 3.11) likelihood.
* ``approximation="ep"`` — sequential expectation propagation with the probit likelihood (Alg. 3.5, marginal
  moments Eq. 3.58, log evidence Eq. 3.65 in a form that is stable for vanishing site precisions), predictions
  (Alg. 3.6) and the evidence gradient Eq. 5.27.  EP needs closed-form tilted moments, so it only offers the
  probit link.

Units.  The ARD values are inverse squared lengths in the units of X.  The fit multiplies the centred genes by a
power of two (exact) that brings their root-mean-square standard deviation near 1, and keeps the start value and
the box of ``l`` in those data-relative units, so that the fit is the same whatever the units of X (raw
intensities near 1e4 used to start next to the box's edge; data scaled by 1e8 or 1e-300 ended with every
relevance at a bound and one class predicted, silently).  Genes with variances near 1 (standardised data) are
computed unscaled, bit for bit.

The flat model.  With v0 → 0 the covariance ignores X and the evidence tends to that of coin flips, −n log 2; near
it (Laplace, K → 0; R&W Eq. 3.32 expanded to first order in K) log p(y | X) ≈ −n log 2 + (1/8) Σ_{i≠j} y_i y_j K_ij
(logistic), so every gradient is v0 times the alignment of the covariance with the labels.  On wide data with
little signal (e.g. 10 informative genes among 8,192 or more, or 4 among 2,000) the start's covariance is mostly
white noise, its alignment is negative, and the first L-BFGS-B steps send v0 to its lower bound, where the
gradients fall below L-BFGS-B's absolute tolerances: the optimiser used to stop there, at log evidence −n log 2,
predicting near chance, silently.  That point is no maximum when some ARD values make samples of a class more alike
than samples of different classes, so a run that ends with v0 <= 1e-3 is resumed (same objective, same
parameterisation, same iteration budget ``max_iter``) without tolerances until v0 exceeds 0.1, then with the usual
ones.  Runs that never get there (the thesis' data sets: Colon, Leukemia, Prostate) are computed exactly as before.
A fit that still ends flat, or flat in effect (every training sample's latent mean within ±0.1 of 0:
``_FLAT_LATENT``), or with every relevance at a bound of its box, or predicting one class for every training sample,
warns (``DegenerateModelWarning``, naming cause and remedy).  Type-II maximum likelihood over
thousands of ARD values on a few dozen samples overfits (thesis §4.3 after Qi et al.): once out of the flat model
the evidence can prefer a few genes that suffice to separate the training samples, noise genes among them.

Cost.  The evidence gradient with respect to *thousands* of ARD parameters never materialises an n × n × d array.
Every gradient in both approximations has the form ∂ log Z / ∂θ_j = Σ_ij M_ij (∂K/∂θ_j)_ij for one symmetric n × n
matrix M.  With ∂K/∂l_m = −½ v0 E ∘ D_m (E the exponential part, D_m[i, j] = (x_i^m − x_j^m)²) and M̃ = M ∘ E,

    Σ_ij M̃_ij (x_im − x_jm)² = 2 Σ_i (M̃ 1)_i x_im² − 2 Σ_i x_im (M̃ X)_im

for all m at once: two matrix products, O(n²d) time and O(n² + nd) memory (:func:`_ard_contract`).  The training
covariance's distances come from one symmetric rank-k product Z Zᵀ with Z = X diag(√l) (BLAS syrk, half the
multiplications of the general product, :func:`_scaled_sqdist`), so one evaluation of the evidence and its gradient
costs about 3n²d multiply-adds: measured with one thread (``benchmarks/bench_gp_ard_speed.py --evaluations``, loaded
2-core machine) 11.5 ms at n = 66, d = 22,283 and 50 ms at 90 × 55,000, 1.22-1.27 times less CPU than with the
general product, the same evidence and gradient to rounding (relative differences below 3e-15).

Iterations.  In the log hyper-parameters (the code before this one) the evidence maximisation on thousands of genes
was long: the gradient of a relevance with respect to log l_m is l_m ∂ log Z/∂l_m, which vanishes as l_m falls, so
after a few hundred iterations L-BFGS-B was still pushing thousands of irrelevant genes slowly towards log l = −∞
(the order of the genes beyond the first ten kept changing) and most fits on 1,000 genes or more stopped at the
default cap of 200 iterations (392 of 765 fits of the leaderboard's GP-ARD cells met the convergence test; Chowdary's
66 × 22,283 fold fits needed 1,000-1,700 iterations at full cost). Under ARD the optimiser's variables for the
relevances are now the shifted logarithms u_m = log(l_m + ε), ε = 10 / Σ gene variances (ten times the default
start; :class:`_ArdVariables`): logarithmic where a relevance is large, linear where it is small, so a relevance the
evidence keeps pushing down reaches the lower bound of its box (1e-12, unchanged) in finitely many steps and stays
there as an active bound of L-BFGS-B, with a gradient (l_m + ε) ∂ log Z/∂l_m that does not vanish. Relevances frozen
on that bound (gradient pointing out of the box) leave the working set: an evaluation costs O(n² × free genes), and
after a few dozen iterations only a few dozen genes of a wide array are free. The model, the box and the evidence
are the old ones; only the path of the optimiser changes, and with it, the evidence being multimodal, which local
maximum it reaches. Convergence is L-BFGS-B's own test (relative reduction of −log Z below 2.2e-9 per iteration or
projected gradient below 1e-5, scipy's defaults, as before) met with the exact gradient of every frozen relevance
pointing out of its box within 1e-5 (otherwise those are released and the run continues; the iterations count
towards ``max_iter``). Most genes end on the lower bound with the same relevance; ``relevance_gradients_`` (∂ log Z
/ ∂l at the fit) orders them. Measured on the leaderboard's first outer training part, 5-fold fits, one start, one
thread (``benchmarks/check_gp_ard_convergence.py``, ``bench_gp_ard_speed.py``): Chowdary's fold fits converge in
167-408 iterations (1.0-1.7 s CPU; before: capped at 200 in 3.5 s, or 1,009-1,541 iterations and 18-26 s to
converge), Gravier's in 458-1,467 (1.0-2.8 s), Alon's and Golub's within 421; the log evidence was higher than the old
code's converged one on 9 of these 12 fits (by up to 4.5 nats), within 0.01 on one, lower on two (0.08 and 0.29
nats). A fit that stops at ``max_iter`` warns (``ConvergenceWarning``) and records ``optimizer_converged_ = False``.

Separable training folds. With thousands of genes and a few dozen samples some genes separate the training samples,
and the evidence then need not have a maximum at finite hyper-parameters: it rises with v0 (v1 and v2 on their lower
bounds) while the relevances recruit more genes. Measured on a 90 x 55,000 fold fit of ``benchmarks/bench_wide.py``'s
problem (GP-ARD-RFE's first round, ``n_restarts=2``): from the default start the run ends at a maximum inside the box
(v0 = 4.2e3, log Z = -12.11, converged in 153 iterations); from the two perturbed starts the runs reached v0's upper
bound 1e5 with ∂ log Z / ∂ log v0 = 0.13-0.16 > 0 and then climbed on it: L-BFGS-B met its test on the face, the KKT
check released 5 to 1,168 frozen relevances, again and again, and the evidence rose to -8.0 at the 2,000-iteration
cap (-7.5 after 2,435 evaluations of a 30,000-iteration run, still rising). With the box widened to v0 <= 1e10 the
default start's run, too, climbed to v0 = 6.5e9 and log Z = -5.6 (capped, still rising). At the capped run's
relevances the evidence along v0 alone peaks just beyond the box (v0 x 10: -7.83; x 100: -8.21), and it falls along
v0 -> infinity with l -> 0 at fixed v0 l (the linear-kernel limit: -8.63 at x 10), so the climb is the separable
regime, not a degenerate parameterisation: such a run's end point and evidence are set by where the box ends, not by
the model. A run that ends with v0 on its upper bound and ∂ log Z / ∂ log v0 > 1e-5 (L-BFGS-B's projected-gradient
tolerance) is recorded in ``restart_v0_at_bound_``; it converged if the KKT conditions of the box held there (a
maximum over the box, on its face), and a winner that did not warns that the evidence has no maximum inside v0's box.
The restarts still choose the highest evidence. Stopping such runs where they reach the bound was tried
(``_STOP_ON_V0_BOUND``, off): when L-BFGS-B's test holds there and the KKT check of the frozen relevances fails, the
run would end, not converged, instead of releasing them and climbing on the face. On that fold the two perturbed runs
then end after 225 and 241 iterations (5.1 and 7.6 s CPU instead of 7.7 and 10.4 s at the cap), with log Z = -11.73
and -11.91 against the default start's maximum -12.11, and their 12 largest ARD values hold 4 and 4 of the 10
informative genes (the default start's: 5; the capped winner's: 2); ``GPARDRFE(random_state=0)`` on 100 x 55,000 takes
341 s of CPU instead of 549. But the stop is no optimality test (neither the evidence's first-order conditions nor the
box's KKT conditions hold where it ends), and on separable real folds it stops fits that the climb brings to a maximum
over the box: with it, 25 of West's 37 and 20 of Subramanian's 42 default fits
(``benchmarks/check_gp_ard_convergence.py``) end on v0's bound not converged; with the climb, 37 of 37 and 41 of 42
converge (within 1,112 and 1,872 iterations; one capped at 2,000, which converges at 2,885 iterations, and the
default cap is 5,000 since: the same fits bit for bit up to the old cap, since L-BFGS-B's path does not depend on it).

Overheads and start points (issue 41, measured 2026-11-28 on the 90 x 55,000 fold fits of ``benchmarks/bench_wide.py``'s
problem, one BLAS thread, loaded 2-core machine). Two costs outside the model were removed without changing a number:
scipy converts the bounds of every L-BFGS-B call element by element in Python (0.3 s per call at 55,000 variables,
and a run makes several calls: the flat model, the working set, the KKT check), so :func:`_lbfgsb` drives scipy's own
routine with the bounds as arrays (the same iterates, evaluations and end point bit for bit; tested against
:func:`scipy.optimize.minimize`); and the Laplace posterior calls LAPACK's potrf, potrs and trtrs directly
(:func:`_chol`, :func:`_cho_solve`, :func:`_tri_solve`: the same factors bit for bit), whose scipy.linalg wrappers
cost about a third of an evaluation once only a few dozen genes are free; and an evaluation transforms only the free
relevances from the optimiser's variables (all 55,000 cost as much as the posterior). The first-round fold fit with
its three starts: 30.0 -> 22.5 s CPU side by side (3,500 evaluations at 90 x 4,096: 4.2 -> 3.6 s); the same theta_,
evidences and ARD gradients bit for bit. A start point for the first run can be given (``fit(X, y, theta_start=...)``):
GP-ARD-RFE starts each round's fold fit from the same fold's fit of the round before
(:class:`genesel.gp_ard_select.GPARDRFE`). Tried and not kept: starting the ARD run from the maximum of the isotropic
evidence (one shared relevance, the ``ard=False`` model: 40 iterations, 2.3 s): on that fold it is the flat model
itself (v0 = 1e-5, log Z = -n log 2: one length scale over 55,000 genes, 10 of them informative, aligns with noise),
and the ARD run started there stops at once, flat (log Z -62.38, none of the 10 informative genes among its 12 largest
ARD values), where the default start reaches log Z = -12.11 with 5 of them.
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.sparse
import scipy.special
from numba import njit
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.base import BinaryClassifier
from genesel._core.params import POSITIVE, POSITIVE_INT, NON_NEGATIVE, StrOptions, integer
from genesel._core.threads import blas_threads_for
from genesel._core.units import pow2_exponent
from genesel._core.validation import (check_classification_fit, check_expression_data, warn_degenerate,
                                      warn_if_one_class)

__all__ = ["GaussianProcessClassifier"]

_LOG_2PI = math.log(2.0 * math.pi)
# Box constraints on the log hyper-parameters (natural scale in the comments); generous, they only keep the
# optimiser away from numerically meaningless regions.
_BOUNDS = {
    "v0": (math.log(1e-5), math.log(1e5)),
    "l": (math.log(1e-12), math.log(1e6)),
    "v1": (math.log(1e-6), math.log(1e5)),
    "v2": (math.log(1e-6), math.log(1e3)),
}
#: The flat model: v0 at most 1e-3, so the prior sd of the X-dependent part of the latent function is at most 0.03
#: (on the scale of the link, where f = ±1 moves a class probability by about a quarter): the covariance all but
#: ignores X and the evidence is that of fair coin flips, log p(y) = −n log 2, up to terms of first order in v0
#: (plus what v1's bias explains).  Near it (Laplace, K → 0)
#:     log p(y | X) ≈ −n log 2 + ½ ∇ᵀK∇ − ½ tr(W K) = −n log 2 + (1/8) Σ_{i≠j} y_i y_j K_ij    (logistic: ∇ = y/2,
#: W = I/4; probit and EP alike), so the evidence and every gradient are v0 times the alignment of the covariance
#: with the labels: when the alignment of the start is negative (many genes, little signal) the first L-BFGS-B
#: steps send v0 to its bound 1e-5, where the gradients fall below L-BFGS-B's absolute tolerances (EP's shrink
#: further as v2 grows: with K = v2 I the EP evidence is −n log 2 for any v2).  ``_optimise`` resumes a run that
#: ends there; it counts as having left once v0 exceeds 0.1 (``_FLAT_EXIT``), where those tolerances mean what they
#: mean at the start.
_FLAT_V0 = 1e-3
_FLAT_EXIT = math.log(0.1)
#: Flat in effect: every training sample's latent mean within ±0.1 of 0 (class probabilities within 0.025 of one
#: half, logistic; 0.04, probit). With thousands of genes the evidence can settle just above the flat model (v0 of
#: 0.001-0.1, one short length scale): the covariance is then v0 times the identity plus the bias, each training
#: sample explains only itself, the evidence stays within a hundredth of a nat of −n log 2, and a new sample, far
#: from every training sample, is predicted from the bias alone: one class for all (49 of 50 outer folds of the GP
#: on all 7,129 genes of West's breast tumours, 26 of them without a word).
_FLAT_LATENT = 0.1
#: Flat by the evidence: the fitted model is more probable than the flat model (coin flips, log evidence −n log K)
#: by a Bayes factor below e (1 nat; Jeffreys' "not worth more than a bare mention", Kass & Raftery 1995, JASA 90:773).
#: On noise the evidence can settle there with latent means just beyond ±0.1 (30 samples of 3 classes and 2 noise
#: genes: −32.946 against −32.958, one relevance 49, a training accuracy of 80 % on labels unrelated to X).
_FLAT_EVIDENCE = 1.0
_NEWTON_MAX_ITER = 100
_NEWTON_TOL = 1e-10
_EP_MAX_SWEEPS = 200
_EP_TOL = 1e-9
_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite.hermgauss(64)
# Up to this many training samples the BLAS calls work on n × n or n × d blocks small enough that OpenBLAS threads
# cost far more than they bring (×10–30 slower measured on a loaded 2-core machine at n = 38 and n = 300): the
# fit and predictions run single-threaded.
_SINGLE_THREAD_MAX_N = 2000


# ---------------------------------------------------------------------------------------------------------------
# Covariance (thesis Eq. 3.8) and the O(n²d) ARD contraction
# ---------------------------------------------------------------------------------------------------------------
def _row_sqdist(Z):
    """D[i, j] = ||z_i − z_j||² of the rows of Z, from Z Zᵀ (one symmetric rank-k update, BLAS syrk): a 1ᵀ + 1 aᵀ
    − 2 Z Zᵀ with a = diag(Z Zᵀ), rounding below 0 clipped and the diagonal exactly 0."""
    G = Z @ Z.T
    a = np.diag(G).copy()
    D = a[:, None] + a[None, :] - 2.0 * G
    np.maximum(D, 0.0, out=D)
    np.fill_diagonal(D, 0.0)
    return D


def _scaled_sqdist(A, B, l, A_sq=None):
    """S[i, j] = Σ_m l_m (A_im − B_jm)² via one matrix product (A and B centred by the caller; ``A_sq`` = A ∘ A
    when available).

    Training covariance (B is A, one l per gene): with Z = A diag(√l), S = a 1ᵀ + 1 aᵀ − 2 Z Zᵀ, a = diag(Z Zᵀ).
    ``Z @ Z.T`` is one symmetric rank-k update (BLAS syrk: numpy recognises the product of an array with its own
    transpose): half the multiplications of the general product (A diag l) Aᵀ, and no separate pass for a."""
    if B is A and np.ndim(l) == 1:
        return _row_sqdist(A * np.sqrt(l))
    Al = A * l
    a = A_sq @ l if A_sq is not None and np.ndim(l) == 1 else np.einsum("ij,ij->i", Al, A)
    b = a if B is A else np.einsum("ij,ij->i", B * l, B)
    S = a[:, None] + b[None, :] - 2.0 * (Al @ B.T)
    np.maximum(S, 0.0, out=S)
    if B is A:
        np.fill_diagonal(S, 0.0)
    return S


def _ard_contract(Mt, X):
    """c_m = Σ_ij Mt_ij (X_im − X_jm)² for all columns m at once, Mt symmetric; O(n²d) time, O(nd) memory.

    c_m = 2 Σ_i r_i X_im² − 2 Σ_ij Mt_ij X_im X_jm (r = Mt 1) = Σ_i X_im (Λ X)_im with the "Laplacian"
    Λ = 2 (diag(r) − Mt): one n × n by n × d product and a column-wise dot product.
    """
    lap = -2.0 * Mt
    lap[np.diag_indices_from(lap)] += 2.0 * Mt.sum(axis=1)
    return np.einsum("im,im->m", X, lap @ X)


def _unit_sd_exponent(Xc):
    """k such that the genes of 2^k Xc (centred, non-constant ones) have a root-mean-square sd in [0.71, 1.41);
    computed without squaring raw values (any scale of Xc)."""
    k1 = pow2_exponent(Xc)
    var = np.var(np.ldexp(Xc, k1), axis=0)
    var = var[var > 0]
    if not var.size:
        return k1
    return int(k1 - round(0.5 * math.log2(float(np.mean(var)))))


class _Layout:
    """Positions of the log hyper-parameters in θ = [log v0, log l (d or 1), log v1?, log v2?]."""

    def __init__(self, n_l, has_v1, has_v2):
        self.n_l = n_l
        self.has_v1 = has_v1
        self.has_v2 = has_v2
        self.size = 1 + n_l + int(has_v1) + int(has_v2)
        self.i_v1 = 1 + n_l if has_v1 else None
        self.i_v2 = 1 + n_l + int(has_v1) if has_v2 else None

    def unpack(self, theta):
        v0 = math.exp(theta[0])
        l = np.exp(theta[1 : 1 + self.n_l])
        v1 = math.exp(theta[self.i_v1]) if self.has_v1 else 0.0
        v2 = math.exp(theta[self.i_v2]) if self.has_v2 else 0.0
        return v0, l, v1, v2

    def bounds(self):
        b = [_BOUNDS["v0"]] + [_BOUNDS["l"]] * self.n_l
        if self.has_v1:
            b.append(_BOUNDS["v1"])
        if self.has_v2:
            b.append(_BOUNDS["v2"])
        return b


def _at_flat_model(theta):
    """Whether v0 = exp(θ[0]) is at most ``_FLAT_V0``: the covariance all but ignores X, the flat model."""
    return bool(theta[0] <= math.log(_FLAT_V0))


def _kernel(theta, layout, X, Xsq=None):
    v0, l, v1, v2 = layout.unpack(theta)
    S = _scaled_sqdist(X, X, l if layout.n_l > 1 else l[0], Xsq)
    E = np.exp(-0.5 * S)
    K = v0 * E
    if v1:
        K += v1
    if v2:
        K[np.diag_indices_from(K)] += v2
    return K, E, S


def _theta_gradient(M, theta, layout, X, E, S):
    """∂ log Z / ∂θ_j = Σ_ij M_ij (∂K/∂θ_j)_ij for every log hyper-parameter, M symmetric."""
    v0, l, v1, v2 = layout.unpack(theta)
    grad = np.empty(layout.size)
    Mt = M * E
    grad[0] = v0 * Mt.sum()
    if layout.n_l > 1:
        grad[1 : 1 + layout.n_l] = -0.5 * v0 * l * _ard_contract(Mt, X)
    else:  # shared l: ∂K/∂log l = −½ v0 E ∘ S (S already scaled by l)
        grad[1] = -0.5 * v0 * np.sum(Mt * S)
    if layout.has_v1:
        grad[layout.i_v1] = v1 * M.sum()
    if layout.has_v2:
        grad[layout.i_v2] = v2 * np.trace(M)
    return grad


# ---------------------------------------------------------------------------------------------------------------
# Likelihoods: log p(y|f) summed, and its first three derivatives in f (y in {−1, +1})
# ---------------------------------------------------------------------------------------------------------------
def _logistic_derivs(y, f):
    yf = y * f
    loglik = -np.sum(np.logaddexp(0.0, -yf))
    pi = scipy.special.expit(f)
    t = 0.5 * (y + 1.0)
    g = t - pi
    w = pi * (1.0 - pi)  # −∂² log p
    d3 = -w * (1.0 - 2.0 * pi)
    return loglik, g, w, d3


def _probit_derivs(y, f):
    z = y * f
    logcdf = scipy.special.log_ndtr(z)
    r = np.exp(-0.5 * z * z - 0.5 * _LOG_2PI - logcdf)  # N(z)/Φ(z)
    g = y * r
    rp = -z * r - r * r  # dr/dz = ∂² log p / ∂f²
    d3 = y * (-r - z * rp - 2.0 * r * rp)
    return np.sum(logcdf), g, -rp, d3


_LIKELIHOODS = {"logistic": _logistic_derivs, "probit": _probit_derivs}


# ---------------------------------------------------------------------------------------------------------------
# Laplace approximation (R&W Alg. 3.1 and 5.1)
# ---------------------------------------------------------------------------------------------------------------
def _chol(B):
    """Lower Cholesky factor of B: LAPACK's potrf as ``scipy.linalg.cholesky(B, lower=True)`` calls it (the same
    factor bit for bit) without its Python wrapper, which cost about a third of an evaluation of the evidence of a
    GP-ARD fit once only a few dozen genes are free (n = 90: the thousands of iterations on v0's upper bound,
    module docstring, "Separable training folds")."""
    c, info = _POTRF(B, lower=1, clean=1)
    if info > 0:
        raise np.linalg.LinAlgError(f"{info}-th leading minor of the array is not positive definite")
    if info < 0:
        raise ValueError(f"LAPACK potrf: illegal value in argument {-info}")
    return c


def _cho_solve(L, b):
    """B⁻¹ b from the lower factor L of B (``scipy.linalg.cho_solve((L, True), b)``: LAPACK potrs)."""
    x, info = _POTRS(L, b, lower=1)
    if info != 0:
        raise ValueError(f"LAPACK potrs: illegal value in argument {-info}")
    return x


def _tri_solve(L, B):
    """L⁻¹ B, L lower triangular in Fortran order (``scipy.linalg.solve_triangular(L, B, lower=True)``: LAPACK
    trtrs)."""
    x, info = _TRTRS(L, B, lower=1)
    if info > 0:
        raise np.linalg.LinAlgError(f"singular matrix: resolution failed at diagonal {info - 1}")
    if info < 0:
        raise ValueError(f"LAPACK trtrs: illegal value in argument {-info}")
    return x


_POTRF, _POTRS, _TRTRS, _POTRI = (scipy.linalg.lapack.dpotrf, scipy.linalg.lapack.dpotrs, scipy.linalg.lapack.dtrtrs,
                                   scipy.linalg.lapack.dpotri)


@njit(cache=True)
def _scaled_mirror(low, sd):
    """D½ A D½ for the symmetric A whose lower triangle ``low`` holds (LAPACK's potri output), both triangles
    filled: out_ij = out_ji = sd_i A_ij sd_j."""
    n = low.shape[0]
    out = np.empty((n, n))
    for j in range(n):
        for i in range(j, n):
            v = sd[i] * low[i, j] * sd[j]
            out[i, j] = v
            out[j, i] = v
    return out


def _scaled_inverse(L, sd):
    """D½ B⁻¹ D½ from the lower Cholesky factor L of B (LAPACK potri: L⁻¹ by trtri, then L⁻ᵀL⁻¹ by lauum, about
    2n³/3 multiply-adds where solving B X = D½ with potrs takes 2n³)."""
    inv, info = _POTRI(L, lower=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK potri: info {info}")
    return _scaled_mirror(inv, sd)


def _laplace(K, y, link, need_grad, a0=None):
    """Mode, log evidence and (optionally) the symmetric M of the evidence gradient (Alg. 3.1/5.1).

    ``a0`` (optional) warm-starts Newton at f = K a0, e.g. the previous mode during evidence maximisation; the
    mode is unique (log-concave likelihood), so only the number of Newton steps changes.
    """
    derivs = _LIKELIHOODS[link]
    n = y.shape[0]
    a = np.zeros(n)
    f = np.zeros(n)
    loglik, g, w, _ = derivs(y, f)
    psi = loglik
    if a0 is not None:
        f0 = K @ a0
        loglik0, g0, w0, _ = derivs(y, f0)
        psi0 = loglik0 - 0.5 * a0 @ f0
        if np.isfinite(psi0) and psi0 > psi:
            a, f, psi, g, w = a0.copy(), f0, psi0, g0, w0
    for _ in range(_NEWTON_MAX_ITER):
        sw = np.sqrt(w)
        B = np.eye(n) + sw[:, None] * K * sw[None, :]
        L = _chol(B)
        b = w * f + g
        c = _cho_solve(L, sw * (K @ b))
        da = b - sw * c - a
        step = 1.0
        while True:  # step halving keeps Ψ(f) = log p(y|f) − ½ fᵀK⁻¹f non-decreasing
            a_new = a + step * da
            f_new = K @ a_new
            loglik_new, g_new, w_new, _ = derivs(y, f_new)
            psi_new = loglik_new - 0.5 * a_new @ f_new
            if psi_new >= psi - 1e-12 * abs(psi) or step < 1e-10:
                break
            step *= 0.5
        improvement = psi_new - psi
        a, f, psi, g, w = a_new, f_new, psi_new, g_new, w_new
        if improvement < _NEWTON_TOL:
            break
    loglik, g, w, d3 = derivs(y, f)
    sw = np.sqrt(w)
    B = np.eye(n) + sw[:, None] * K * sw[None, :]
    L = _chol(B)
    log_z = -0.5 * a @ f + loglik - np.sum(np.log(np.diag(L)))
    state = {"f": f, "alpha": g, "sqrt_w": sw, "L": L}
    if not need_grad:
        return log_z, None, state
    # R = W½ (I + W½KW½)⁻¹ W½ (from L by potri, :func:`_scaled_inverse`: a third of the arithmetic of solving
    # L Lᵀ X = W½);  C = L⁻¹(W½K)
    R = _scaled_inverse(L, sw)
    C = _tri_solve(L, sw[:, None] * K)
    # s2 = ∂ log Z / ∂f̂ = −½ diag(Σ) ∂W/∂f̂ = +½ diag(Σ) ∂³log p (W = −∂²log p; R&W print the sign of the
    # W-derivative, GPML's infLaplace and sklearn agree with this one)
    s2 = 0.5 * (np.diag(K) - np.einsum("ij,ij->j", C, C)) * d3
    # explicit part ½(aaᵀ − R); implicit part s2ᵀ(I − KR)(∂K/∂θ)∇log p = uᵀ(∂K/∂θ)g with u = (I − RK)s2
    u = s2 - R @ (K @ s2)
    M = 0.5 * (np.outer(g, g) - R) + 0.5 * (np.outer(u, g) + np.outer(g, u))
    return log_z, M, state


# ---------------------------------------------------------------------------------------------------------------
# Multi-class Laplace approximation, softmax likelihood (Williams & Barber 1998; R&W §3.5, Alg. 3.3, 3.4, 5.2)
# ---------------------------------------------------------------------------------------------------------------
def _softmax(F):
    """log Σ_c exp F_ic (n,) and the class probabilities π (n × C), stable."""
    mx = F.max(axis=1)
    lse = mx + np.log(np.exp(F - mx[:, None]).sum(axis=1))
    return lse, np.exp(F - lse[:, None])


def _mc_factors(K, P):
    """The factors of one multi-class Newton step / evidence at class probabilities P (n × C), K the covariance
    shared by the C latent functions: per class the lower Cholesky factor L_c of B_c = I + D_c½ K D_c½ and
    E_c = D_c½ B_c⁻¹ D_c½ (D_c = diag(π_c)), and the Cholesky factor of Σ_c E_c (R&W Alg. 3.3, lines 5-8).

    B_c⁻¹ comes from L_c by LAPACK's potri (:func:`_scaled_inverse`) rather than by solving L_c L_cᵀ X = D_c½ as
    R&W write it: a third of the arithmetic of the step's largest part, the same matrix to rounding (tested against
    the dense inverse of K + D_c⁻¹). Measured: ``benchmarks/bench_gp_multiclass.py``."""
    n, C = P.shape
    diag = np.diag_indices(n)
    Ls, Es = [], []
    Esum = np.zeros((n, n))
    for c in range(C):
        sd = np.sqrt(P[:, c])
        B = sd[:, None] * K * sd[None, :]
        B[diag] += 1.0
        L = _chol(B)
        E = _scaled_inverse(L, sd)
        Esum += E
        Es.append(E)
        Ls.append(L)
    return Ls, Es, _chol(Esum)


def _mc_newton_direction(K, Y, F, P, Es, Msum):
    """a of the Newton step f_new = (K⁻¹ + W)⁻¹ b = K a, b = W f + y − π, W = D − ΠΠᵀ (R&W Alg. 3.3, lines 9-11):
    c = E K b, a = b − c + E R (Σ_c E_c)⁻¹ Rᵀ c, with R the stacked identities (Rᵀ sums over the classes)."""
    WF = P * F - P * np.sum(P * F, axis=1, keepdims=True)
    B = WF + Y - P
    KB = K @ B
    Cm = np.column_stack([Es[c] @ KB[:, c] for c in range(Y.shape[1])])
    s = _cho_solve(Msum, Cm.sum(axis=1))
    return B - Cm + np.column_stack([Es[c] @ s for c in range(Y.shape[1])])


def _mc_laplace(K, Y, need_grad, a0=None):
    """Multi-class Laplace (softmax likelihood, C independent latent functions with the same covariance K): mode
    by Newton's method with step halving (R&W Alg. 3.3), log evidence (Eq. 3.44) and optionally the symmetric
    n × n matrix M with ∂ log q(y|X) / ∂θ = Σ_ij M_ij (∂K/∂θ)_ij for every hyper-parameter θ of the shared K
    (R&W Alg. 5.2; explicit and implicit terms, summed over the classes because the C blocks of the prior
    covariance share θ).

    Y is the n × C one-hot target matrix. ``a0`` (n × C) warm-starts Newton at F = K a0; the mode is unique (the
    softmax log-likelihood is concave), so only the number of Newton steps changes.
    """
    n, C = Y.shape
    A = np.zeros((n, C))
    F = np.zeros((n, C))

    def psi_of(Aa, Ff):
        lse, _ = _softmax(Ff)
        return float(np.sum(Y * Ff) - np.sum(lse) - 0.5 * np.sum(Aa * Ff))

    psi = psi_of(A, F)
    if a0 is not None:
        F0 = K @ a0
        psi0 = psi_of(a0, F0)
        if np.isfinite(psi0) and psi0 > psi:
            A, F, psi = a0.copy(), F0, psi0
    for _ in range(_NEWTON_MAX_ITER):
        _, P = _softmax(F)
        _, Es, Msum = _mc_factors(K, P)
        dA = _mc_newton_direction(K, Y, F, P, Es, Msum) - A
        step = 1.0
        while True:  # step halving keeps Ψ(f) = log p(y|f) − ½ fᵀK⁻¹f non-decreasing
            A_new = A + step * dA
            F_new = K @ A_new
            psi_new = psi_of(A_new, F_new)
            if psi_new >= psi - 1e-12 * abs(psi) or step < 1e-10:
                break
            step *= 0.5
        improvement = psi_new - psi
        A, F, psi = A_new, F_new, psi_new
        if improvement < _NEWTON_TOL:
            break
    lse, P = _softmax(F)
    Ls, Es, Msum = _mc_factors(K, P)
    G = Y - P  # ∇ log p(y|f); equals K⁻¹ f at the mode
    log_z = (-0.5 * np.sum(A * F) + np.sum(Y * F) - np.sum(lse)
             - sum(np.sum(np.log(np.diag(L))) for L in Ls) - np.sum(np.log(np.diag(Msum))))
    state = {"f": F, "alpha": A, "grad": G, "E": Es, "M": Msum}
    if not need_grad:
        return log_z, None, state
    # R = (K + W⁻¹)⁻¹ = E − E R (Σ E_c)⁻¹ Rᵀ E; the explicit term needs the sum of its diagonal blocks
    # R_cc = E_c − E_c (Σ E)⁻¹ E_c = E_c − W_cᵀ W_c with W_c = Msum⁻¹ E_c (one triangular solve for all classes;
    # Σ_c W_cᵀ W_c is one symmetric product of the classes' W_c stacked)
    Wall = _tri_solve(Msum, np.hstack(Es))
    Wv = np.vstack([Wall[:, c * n:(c + 1) * n] for c in range(C)])
    Rsum = Es[0].copy()
    for c in range(1, C):
        Rsum += Es[c]
    Rsum -= Wv.T @ Wv
    # per-sample C × C blocks of the posterior covariance Σ = (K⁻¹ + W)⁻¹ = K − K R K:
    # Σ_i[c, c'] = δ_cc' (K − K E_c K)_ii + (K E_c (Σ E)⁻¹ E_c' K)_ii, with V_c = Msum⁻¹ E_c K and
    # (K E_c K)_ii = Σ_k K_ki (E_c K)_ki (K symmetric)
    EK = [E @ K for E in Es]
    Vall = _tri_solve(Msum, np.hstack(EK))
    V = [Vall[:, c * n:(c + 1) * n] for c in range(C)]
    S = np.empty((n, C, C))
    kdiag = np.diag(K)
    for c in range(C):
        for c2 in range(c + 1):
            S[:, c, c2] = S[:, c2, c] = np.einsum("ki,ki->i", V[c], V[c2])
        S[:, c, c] += kdiag - np.einsum("ki,ki->i", K, EK[c])
    # implicit term: s2 = ∂ log q / ∂f̂ = −½ tr(Σ_i ∂W_i/∂f̂_i^e) with W_i = diag(π_i) − π_i π_iᵀ:
    # s2_ie = −½ π_e [S_ee − Σ_c S_cc π_c − 2 (S π)_e + 2 πᵀ S π]
    Sd = np.einsum("icc->ic", S)
    Sp = np.einsum("icd,id->ic", S, P)
    pSp = np.einsum("ic,ic->i", P, Sp)
    s2 = -0.5 * P * (Sd - np.sum(Sd * P, axis=1, keepdims=True) - 2.0 * Sp + 2.0 * pSp[:, None])
    # ∂f̂/∂θ = (I + KW)⁻¹ ∂K (y − π); its weight u = (I + WK)⁻¹ s2 = s2 − R K s2
    KS2 = K @ s2
    T = np.column_stack([Es[c] @ KS2[:, c] for c in range(C)])
    w = _cho_solve(Msum, T.sum(axis=1))
    U = s2 - (T - np.column_stack([Es[c] @ w for c in range(C)]))
    M = 0.5 * (G @ G.T - Rsum) + 0.5 * (U @ G.T + G @ U.T)
    return log_z, M, state

def _mc_predict(Ks, kxx, G, Es, Msum):
    """Predictive mean (m × C) and covariance (m × C × C) of the C latent functions at m test points (R&W Alg. 3.4,
    lines 4-9): μ_c = k*ᵀ(y_c − π_c), Σ_cc' = δ_cc' (k(x*, x*) − k*ᵀ E_c k*) + k*ᵀ E_c (Σ E)⁻¹ E_c' k*."""
    m, C = Ks.shape[0], G.shape[1]
    mean = Ks @ G
    cov = np.zeros((m, C, C))
    Bs = []
    for c in range(C):
        KE = Ks @ Es[c]
        Bs.append(scipy.linalg.solve_triangular(Msum, KE.T, lower=True, check_finite=False))
        cov[:, c, c] = kxx - np.einsum("ij,ij->i", KE, Ks)
    for c in range(C):
        for c2 in range(c + 1):
            v = np.einsum("ki,ki->i", Bs[c], Bs[c2])
            cov[:, c, c2] += v
            if c2 != c:
                cov[:, c2, c] = cov[:, c, c2]
    return mean, cov


#: the points of the predictive average of the softmax: 2^11 − 1 Sobol points (unscrambled, without the origin)
#: mapped to N(0, I) and their mirror images (antithetic pairs): deterministic, no seed, error about 1e-4
_QMC_LOG2 = 11
_QMC_CACHE = {}


def _qmc_normal(C):
    if C not in _QMC_CACHE:
        import scipy.stats

        u = scipy.stats.qmc.Sobol(d=C, scramble=False).random_base2(_QMC_LOG2)[1:]
        z = scipy.special.ndtri(u)
        _QMC_CACHE[C] = np.vstack([z, -z])
    return _QMC_CACHE[C]


def _mc_log_proba(mean, cov):
    """log E[softmax_c(f)] for f ~ N(mean_i, cov_i), every row i (R&W Alg. 3.4 averages the softmax over samples
    of the predictive Gaussian; here over fixed quasi-random points, :func:`_qmc_normal`), in log space."""
    m, C = mean.shape
    Z = _qmc_normal(C)
    S = Z.shape[0]
    w, V = np.linalg.eigh(cov)
    root = V * np.sqrt(np.clip(w, 0.0, None))[:, None, :]  # cov_i = root_i root_iᵀ (PSD up to rounding)
    out = np.empty((m, C))
    step = max(1, 2_000_000 // (S * C))
    for i0 in range(0, m, step):
        i1 = min(m, i0 + step)
        Fs = mean[i0:i1, None, :] + np.einsum("sk,ick->isc", Z, root[i0:i1])
        log_p = Fs - scipy.special.logsumexp(Fs, axis=2, keepdims=True)
        out[i0:i1] = scipy.special.logsumexp(log_p, axis=1) - math.log(S)
    return out

# ---------------------------------------------------------------------------------------------------------------
# Expectation propagation, probit likelihood (R&W Alg. 3.5)
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def _norm_ratio(z):
    """N(z)/Φ(z), stable for very negative z (asymptotic series of the Mills ratio below −20)."""
    if z < -20.0:
        iz2 = 1.0 / (z * z)
        return -z / (1.0 - iz2 + 3.0 * iz2 * iz2 - 15.0 * iz2 * iz2 * iz2 + 105.0 * iz2 * iz2 * iz2 * iz2)
    pdf = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    cdf = 0.5 * math.erfc(-z / math.sqrt(2.0))
    return pdf / cdf


@njit(cache=True)
def _ep_sweep(Sigma, mu, nu_t, tau_t, y):
    """One sequential EP sweep over the sites (R&W Alg. 3.5, inner loop), updating all arrays in place.

    Cavity (Eq. 3.56), probit tilted moments (Eq. 3.58), site update (Eq. 3.59) and the rank-one update of the
    posterior covariance Σ ← Σ − Δτ̃/(1 + Δτ̃ Σ_ii) s_i s_iᵀ, μ = Σ ν̃ (updated in O(n)).  Returns the largest relative
    change of a
    site parameter, max_i max(|Δτ̃_i| / (1 + τ̃_i), |Δν̃_i| / (1 + |ν̃_i|)), for the convergence test.
    """
    n = y.shape[0]
    si = np.empty(n)
    delta = 0.0
    for i in range(n):
        s_ii = Sigma[i, i]
        tau_c = 1.0 / s_ii - tau_t[i]
        nu_c = mu[i] / s_ii - nu_t[i]
        var_c = 1.0 / tau_c
        mu_c = nu_c * var_c
        denom = math.sqrt(1.0 + var_c)
        z = y[i] * mu_c / denom
        r = _norm_ratio(z)
        mu_hat = mu_c + y[i] * var_c * r / denom
        var_hat = var_c - var_c * var_c * r / (1.0 + var_c) * (z + r)
        tau_new = 1.0 / var_hat - tau_c
        if tau_new < 0.0:  # cannot happen for the log-concave probit except through round-off
            tau_new = 0.0
        dtau = tau_new - tau_t[i]
        tau_t[i] = tau_new
        nu_new = mu_hat / var_hat - nu_c
        change = max(abs(dtau) / (1.0 + tau_new), abs(nu_new - nu_t[i]) / (1.0 + abs(nu_new)))
        if change > delta:
            delta = change
        dnu = nu_new - nu_t[i]
        nu_t[i] = nu_new
        for k in range(n):
            si[k] = Sigma[k, i]
        coef = dtau / (1.0 + dtau * s_ii)
        # μ_new = Σ_new ν̃_new with Σ_new = Σ − coef s sᵀ and sᵀν̃_old = μ_i: an O(n) update
        mu_i = mu[i]
        gain = dnu * (1.0 - coef * s_ii) - coef * mu_i
        for k in range(n):
            mu[k] += gain * si[k]
        for k in range(n):
            ck = coef * si[k]
            for j in range(n):
                Sigma[k, j] -= ck * si[j]
    return delta


def _ep_refresh(K, nu_t, tau_t):
    """Recompute Σ = K − K S½ B⁻¹ S½ K, μ = Σ ν̃ from the site parameters (end of an Alg. 3.5 sweep)."""
    n = K.shape[0]
    ss = np.sqrt(tau_t)
    B = np.eye(n) + ss[:, None] * K * ss[None, :]
    L = scipy.linalg.cholesky(B, lower=True, check_finite=False)
    V = scipy.linalg.solve_triangular(L, ss[:, None] * K, lower=True, check_finite=False)
    Sigma = K - V.T @ V
    mu = Sigma @ nu_t
    return Sigma, mu, L, ss


def _ep_log_z(y, Sigma, mu, nu_t, tau_t, L):
    """Log evidence Eq. 3.65, rewritten with site precisions so that τ̃_i → 0 is harmless."""
    d = np.diag(Sigma)
    tau_c = 1.0 / d - tau_t
    nu_c = mu / d - nu_t
    mu_c = nu_c / tau_c
    z = y * mu_c / np.sqrt(1.0 + 1.0 / tau_c)
    quad = (tau_c * mu_c * mu_c * tau_t - 2.0 * nu_c * nu_t - nu_t * nu_t) / (tau_t + tau_c)
    return (
        np.sum(scipy.special.log_ndtr(z))
        + 0.5 * np.sum(np.log1p(tau_t / tau_c))
        - np.sum(np.log(np.diag(L)))
        + 0.5 * nu_t @ mu
        + 0.5 * np.sum(quad)
    )


def _ep(K, y, need_grad, sites=None):
    """EP fixed point, log evidence and (optionally) the symmetric M of the gradient Eq. 5.27.

    ``sites`` (optional) = (ν̃, τ̃) warm-starts the sweeps, e.g. from the previous evaluation during evidence
    maximisation.  Sweeps continue until no site parameter changes by more than 1e-9 (relative) in a sweep; the
    posterior is recomputed from the sites (Cholesky of B = I + S½KS½) every 10 sweeps and at the end, which
    bounds the round-off of the rank-one updates.  The EP log evidence is stationary in the site parameters at the
    fixed point, so the residual site error enters log Z only at second order.
    """
    n = y.shape[0]
    nu_t = np.zeros(n)
    tau_t = np.zeros(n)
    Sigma = K.copy()
    mu = np.zeros(n)
    if sites is not None:
        try:
            nu_w, tau_w = sites[0].copy(), sites[1].copy()
            Sigma_w, mu_w, L_w, _ = _ep_refresh(K, nu_w, tau_w)
            if np.all(np.diag(Sigma_w) > 0) and np.all(1.0 / np.diag(Sigma_w) - tau_w > 0):
                nu_t, tau_t, Sigma, mu, L = nu_w, tau_w, Sigma_w, mu_w, L_w
        except (np.linalg.LinAlgError, ValueError):
            pass
    delta = np.inf
    sweep = 0
    for sweep in range(1, _EP_MAX_SWEEPS + 1):
        delta = _ep_sweep(Sigma, mu, nu_t, tau_t, y)
        if delta < _EP_TOL:
            break
        if sweep % 10 == 0:
            Sigma, mu, L, ss = _ep_refresh(K, nu_t, tau_t)
    Sigma, mu, L, ss = _ep_refresh(K, nu_t, tau_t)
    log_z = _ep_log_z(y, Sigma, mu, nu_t, tau_t, L)
    # b = (I − S½B⁻¹S½K)ν̃ is the predictive weight vector (Alg. 3.6) and enters the gradient Eq. 5.27
    b = nu_t - ss * scipy.linalg.cho_solve((L, True), ss * (K @ nu_t), check_finite=False)
    state = {"f": mu, "alpha": b, "sqrt_w": ss, "L": L, "tau_tilde": tau_t, "nu_tilde": nu_t, "Sigma": Sigma,
             "ep_converged": bool(delta < _EP_TOL), "ep_sweeps": sweep, "ep_delta": float(delta)}
    if not need_grad:
        return log_z, None, state
    R = _scaled_inverse(L, ss)  # S̃½ B⁻¹ S̃½ from the factor (potri)
    M = 0.5 * (np.outer(b, b) - R)
    return log_z, M, state


# ---------------------------------------------------------------------------------------------------------------
# The optimiser's variables: log hyper-parameters, or shifted logs of the ARD values with a working set
# ---------------------------------------------------------------------------------------------------------------
#: L-BFGS-B's projected-gradient tolerance (scipy's default ``gtol``), also the KKT tolerance of frozen relevances
_PGTOL = 1e-5
#: ε of the ARD variables u = log(l + ε), as a multiple of the default start 1 / Σ gene variances
_ARD_SHIFT = 10.0
#: True: stop a run on v0's upper bound when the evidence rises beyond it and the KKT check of the frozen relevances
#: fails, reported as not converged (module docstring, "Separable training folds": 1.6x less CPU for GPARDRFE() on
#: 100 x 55,000, but no optimality test, and fits that would have converged on the face stop). Off: the frozen
#: relevances are released and the run climbs on the face of the box to a maximum over the box or to ``max_iter``.
_STOP_ON_V0_BOUND = False


def _scipy_has_c_lbfgsb():
    """Whether scipy's L-BFGS-B is the C translation (scipy >= 1.15) whose reverse-communication routine
    ``setulb`` :func:`_lbfgsb` drives; older versions go through :func:`scipy.optimize.minimize`."""
    try:
        major, minor = (int(v) for v in scipy.__version__.split(".")[:2])
        from scipy.optimize import _lbfgsb  # noqa: F401
    except (ImportError, ValueError):
        return False
    return (major, minor) >= (1, 15)


_C_LBFGSB = _scipy_has_c_lbfgsb()


def _lbfgsb(fun, x0, lb, ub, maxiter, callback=None, ftol=2.220446049250313e-09, gtol=_PGTOL, maxcor=10,
            maxls=20, maxfun=15000):
    """``scipy.optimize.minimize(fun, x0, jac=True, method="L-BFGS-B", bounds=Bounds(lb, ub), callback=callback,
    options=dict(maxiter=maxiter, ftol=ftol, gtol=gtol))``, the same iterates and the same evaluations bit for bit
    (scipy's own L-BFGS-B routine ``setulb`` driven as ``scipy.optimize._lbfgsb_py._minimize_lbfgsb`` drives it:
    one evaluation of ``fun`` at the start, cached at a repeated point, the callback called with a copy of every
    new iterate, a ``StopIteration`` in it ending the run with ``success`` False), but with the bounds set up as
    arrays: scipy converts the bounds of every call element by element in Python (``old_bound_to_new``, the
    ``nbd`` loop), 0.1-0.2 s per call at 55,000 genes, about a quarter of the CPU of a GP-ARD start on 90 x 55,000
    (cProfile), because :meth:`GaussianProcessClassifier._optimise` restarts L-BFGS-B several times per start (the
    flat model, the working set, the KKT check). Why not scipy's: only this set-up differs; scipy before 1.15
    (Fortran ``setulb``, another signature) uses :func:`scipy.optimize.minimize` itself, and so does any scipy whose
    private routine fails the bit-for-bit check against it of :func:`_direct_lbfgsb_agrees` (once per process).
    Tested against it (``tests/test_gp.py``)."""
    x0 = np.asarray(x0, dtype=float).ravel()
    lb, ub = np.asarray(lb, dtype=float), np.asarray(ub, dtype=float)
    if _C_LBFGSB and _direct_lbfgsb_agrees():
        return _lbfgsb_direct(fun, x0, lb, ub, maxiter, callback, ftol, gtol, maxcor, maxls, maxfun)
    return _lbfgsb_scipy(fun, x0, lb, ub, maxiter, callback, ftol, gtol, maxcor, maxls, maxfun)


def _lbfgsb_scipy(fun, x0, lb, ub, maxiter, callback, ftol, gtol, maxcor, maxls, maxfun):
    """:func:`_lbfgsb` through :func:`scipy.optimize.minimize` (the reference; scipy before 1.15, or a scipy whose
    private routine no longer agrees with it)."""
    cb = None
    if callback is not None:
        def cb(xk):
            return callback(xk)
    return scipy.optimize.minimize(fun, x0, jac=True, method="L-BFGS-B", bounds=scipy.optimize.Bounds(lb, ub),
                                   callback=cb, options={"maxiter": maxiter, "ftol": ftol, "gtol": gtol,
                                                         "maxcor": maxcor, "maxls": maxls, "maxfun": maxfun})



@functools.cache
def _direct_lbfgsb_agrees():
    """Whether :func:`_lbfgsb_direct` gives :func:`scipy.optimize.minimize`'s iterates bit for bit on a small bounded
    problem with active bounds, checked once per process: ``setulb`` is private to scipy, and a scipy whose routine
    changed its signature or its behaviour sends every fit through ``minimize`` instead (slower, never wrong)."""
    rng = np.random.default_rng(0)
    A = rng.normal(size=(6, 6))
    H, b = A @ A.T + np.eye(6), rng.normal(size=6) * 4.0

    def fun(x):
        return 0.5 * x @ H @ x - b @ x + np.sum(np.cos(x)), H @ x - b - np.sin(x)

    lb, ub = np.full(6, -0.5), np.full(6, 0.7)
    lb[0], ub[5] = -np.inf, np.inf
    try:
        for maxiter in (3, 200):
            a = _lbfgsb_direct(fun, np.zeros(6), lb, ub, maxiter, None, 2.220446049250313e-09, _PGTOL, 10, 20, 15000)
            r = _lbfgsb_scipy(fun, np.zeros(6), lb, ub, maxiter, None, 2.220446049250313e-09, _PGTOL, 10, 20, 15000)
            if not (np.array_equal(a.x, r.x) and a.fun == r.fun and a.nit == r.nit and a.nfev == r.nfev
                    and a.success == r.success):
                return False
    except Exception:  # noqa: BLE001 - any failure of the private routine means: use the public one
        return False
    return True


def _lbfgsb_direct(fun, x0, lb, ub, maxiter, callback, ftol, gtol, maxcor, maxls, maxfun):
    """:func:`_lbfgsb` driving scipy's private ``setulb`` with the bounds as arrays."""
    from scipy.optimize import _lbfgsb as ext

    n = x0.size
    if lb.shape != (n,) or ub.shape != (n,) or np.any(lb > ub):
        raise ValueError("L-BFGS-B: the bounds must be two arrays of the length of x0 with lb <= ub")
    x = np.clip(x0, lb, ub)
    fin_lo, fin_hi = np.isfinite(lb), np.isfinite(ub)
    low_bnd = np.where(fin_lo, lb, 0.0)
    upper_bnd = np.where(fin_hi, ub, 0.0)
    # scipy's codes: 0 unbounded, 1 lower only, 2 both, 3 upper only
    nbd = np.where(fin_lo & fin_hi, 2, np.where(fin_lo, 1, np.where(fin_hi, 3, 0))).astype(np.int32)
    cache = {"x": None, "nfev": 0}

    def fg(z):
        if cache["x"] is None or not np.array_equal(z, cache["x"]):
            cache["x"] = np.array(z, dtype=float)
            f_, g_ = fun(np.copy(cache["x"]))
            cache["f"] = float(np.asarray(f_).item()) if not np.isscalar(f_) else f_
            cache["g"] = np.atleast_1d(np.copy(g_))
            cache["nfev"] += 1
        return cache["f"], cache["g"]

    fg(x)  # scipy's ScalarFunction evaluates at the start when it is built
    m = int(maxcor)
    factr = ftol / np.finfo(float).eps
    f = np.array(0.0, dtype=np.float64)
    g = np.zeros((n,), dtype=np.float64)
    wa = np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m, np.float64)
    iwa = np.zeros(3 * n, dtype=np.int32)
    task = np.zeros(2, dtype=np.int32)
    ln_task = np.zeros(2, dtype=np.int32)
    lsave = np.zeros(4, dtype=np.int32)
    isave = np.zeros(44, dtype=np.int32)
    dsave = np.zeros(29, dtype=np.float64)
    nit, stopped = 0, False
    while True:
        g = g.astype(np.float64)
        ext.setulb(m, x, low_bnd, upper_bnd, nbd, f, g, factr, gtol, wa, iwa, task, lsave, isave, dsave, maxls,
                   ln_task)
        if task[0] == 3:
            f, g = fg(x)
        elif task[0] == 1:
            nit += 1
            if callback is not None:
                try:
                    callback(np.copy(x))
                except StopIteration:
                    stopped = True
                    task[0], task[1] = 5, 505
            if nit >= maxiter:
                task[0], task[1] = 5, 504
            elif cache["nfev"] > maxfun:
                task[0], task[1] = 5, 502
        else:
            break
    from scipy.optimize._lbfgsb_py import status_messages, task_messages

    warnflag = 0 if task[0] == 4 else (1 if cache["nfev"] > maxfun or nit >= maxiter else 2)
    message = status_messages[int(task[0])] + ": " + task_messages[int(task[1])]
    if stopped:
        warnflag, message = 99, "`callback` raised `StopIteration`."
    return scipy.optimize.OptimizeResult(fun=f, jac=g, nfev=cache["nfev"], njev=cache["nfev"], nit=nit,
                                         status=warnflag, message=message, x=x, success=warnflag == 0)


class _LogVariables:
    """The log hyper-parameters themselves (a single shared l, ``ard=False``): f(θ) = −log Z(θ)."""

    def __init__(self, gp):
        self.gp = gp
        self.state = None

    def to_u(self, theta):
        return np.array(theta, dtype=float)

    def to_theta(self, u):
        return np.array(u, dtype=float)

    def bounds(self):
        return self.gp._layout.bounds()

    def reset(self):
        pass

    def on_iterate(self, xk):
        pass

    def kkt(self, u):
        return True

    def active_variables(self):
        return np.arange(self.gp._layout.size)

    def worth_shrinking(self, active):
        return False

    def fun(self, u):
        if not np.all(np.isfinite(u)):  # L-BFGS-B can propose NaN after an infinite value: no Laplace fit
            return np.inf, np.zeros_like(u)
        try:
            log_z, grad, state = self.gp._evidence(self.to_theta(u), True, warm=self.state)
        except (np.linalg.LinAlgError, FloatingPointError, ValueError):
            return np.inf, np.zeros_like(u)
        if not np.isfinite(log_z) or not np.all(np.isfinite(grad)):
            return np.inf, np.zeros_like(u)
        self.state = state
        return -log_z, -grad


class _ArdVariables(_LogVariables):
    """ARD fits: u_m = log(l_m + ε) for the relevances (ε = ``_ARD_SHIFT`` / Σ gene variances, ten times the
    default start), logs for v0, v1, v2; and a working set that skips the relevances frozen at their lower bound.

    Why (module docstring, "Iterations"): in log l the gradient of a relevance is l ∂ log Z/∂l, which vanishes as l
    falls, so L-BFGS-B spends its iterations pushing thousands of irrelevant genes slowly towards log l = −∞. In u
    the gradient is (l + ε) ∂ log Z/∂l: logarithmic above ε, linear below, so a relevance whose derivative stays
    negative reaches the lower bound of its box (l = 1e-12, data-relative) in finitely many steps, where L-BFGS-B's
    projection keeps it (an active bound). The box and the model are the old ones: only the path changes.

    Working set: after an accepted iterate, relevances at the lower bound whose exact gradient points out of the
    box are frozen. Their squared distances, times the bound value, enter the covariance through one n × n matrix
    (added once when they freeze); an evaluation then forms the distances and the ARD contraction over the free
    genes only, O(n² |free|), and reports each frozen gene's last exact gradient (still pointing out, so L-BFGS-B
    keeps it at its bound; its step and gradient difference are both 0 in the curvature pairs). When L-BFGS-B
    meets its convergence test, :meth:`kkt` evaluates the exact gradient of every relevance: the run ends only if
    no frozen relevance's gradient points into the box by more than ``_PGTOL`` (L-BFGS-B's own projected-gradient
    tolerance), i.e. the projected gradient test holds with exact gradients; otherwise the violators are released
    and the run continues (the iterations count towards ``max_iter``). L-BFGS-B's own work per iteration is linear in
    its variables (on 55,000 genes it outweighed the evidence once a few dozen genes were free), so once half of its
    variables (and at least 1,000) are frozen relevances, and after a failed KKT check, it is restarted on the
    others only (:meth:`worth_shrinking`; the restart costs its curvature memory).
    """

    def __init__(self, gp):
        super().__init__(gp)
        layout = gp._layout
        self.n_l = layout.n_l
        self.sl = slice(1, 1 + self.n_l)
        total_var = float(np.sum(np.var(gp._X, axis=0)))
        self.eps = _ARD_SHIFT / total_var if total_var > 0 else _ARD_SHIFT
        lo, hi = _BOUNDS["l"]
        self.u_lo = math.log(math.exp(lo) + self.eps)
        self.u_hi = math.log(math.exp(hi) + self.eps)
        self.l_bound = math.exp(lo)  # l = max(exp(u) − ε, 1e-12): exactly the old lower bound at u = u_lo
        self.log_l_bound = lo
        self.reset()

    def reset(self):
        n = self.gp._X.shape[0]
        self.frozen = np.zeros(self.n_l, dtype=bool)
        self.g_frozen = np.zeros(self.n_l)
        self.D_frozen = np.zeros((n, n))
        self._set_free()
        self.last = None

    def _set_free(self):
        self.free = np.flatnonzero(~self.frozen)
        self.X_free = self.gp._X if self.free.size == self.n_l else self.gp._X[:, self.free]

    def to_u(self, theta):
        u = np.array(theta, dtype=float)
        u[self.sl] = np.log(np.exp(u[self.sl]) + self.eps)
        return u

    def _log_l(self, ul):
        """log l of the relevances' variables ul (elementwise)."""
        at = ul <= self.u_lo
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(at, self.log_l_bound, np.log(np.maximum(np.exp(ul) - self.eps, self.l_bound)))

    def to_theta(self, u):
        theta = np.array(u, dtype=float)
        theta[self.sl] = self._log_l(theta[self.sl])
        return theta

    def bounds(self):
        b = self.gp._layout.bounds()
        b[self.sl] = [(self.u_lo, self.u_hi)] * self.n_l
        return b

    def _sqdist(self, cols):
        """Σ_{m in cols} (x_im − x_jm)², n × n (one symmetric product)."""
        return _row_sqdist(self.gp._X[:, cols])

    def _freeze(self, genes, g):
        if genes.size:
            self.D_frozen += self._sqdist(genes)
            self.frozen[genes] = True
            self.g_frozen[genes] = g
            self._set_free()

    def _unfreeze(self, genes):
        if genes.size:
            self.D_frozen -= self._sqdist(genes)
            np.maximum(self.D_frozen, 0.0, out=self.D_frozen)
            self.frozen[genes] = False
            self._set_free()

    def on_iterate(self, xk):
        """Freeze the relevances of the accepted iterate that sit on their lower bound with a gradient pointing
        out of the box (the last evaluation is at the iterate)."""
        if self.last is None or not np.array_equal(self.last[0], xk):
            return
        g = self.last[1][self.sl]
        cand = np.flatnonzero(~self.frozen & (xk[self.sl] <= self.u_lo) & (g > 0.0))
        self._freeze(cand, g[cand])

    def worth_shrinking(self, active):
        """Whether L-BFGS-B, running on the variables ``active``, should restart on the unfrozen ones only: when at
        least 1,000 of its variables and half of them are frozen relevances (its own work per iteration, linear in
        its variables, then outweighs the evidence's; the restart costs its curvature memory)."""
        n_frozen = int(np.count_nonzero(self.frozen[active[(active >= 1) & (active < 1 + self.n_l)] - 1]))
        return n_frozen >= 1000 and 2 * n_frozen >= active.size

    def active_variables(self):
        """Positions in u of every variable but the frozen relevances."""
        keep = np.ones(self.gp._layout.size, dtype=bool)
        keep[self.sl] = ~self.frozen
        return np.flatnonzero(keep)

    def kkt(self, u):
        """Exact gradient of every frozen relevance at u: True if none points into the box by more than _PGTOL;
        otherwise the violators are released (the others stay frozen) and False is returned."""
        if not self.frozen.any():
            return True
        try:
            log_z, grad, _ = self.gp._evidence(self.to_theta(u), True, warm=self.state)
        except (np.linalg.LinAlgError, FloatingPointError, ValueError):
            return True  # L-BFGS-B's own test stands; the working set's evaluations gave the same point
        l = np.exp(self.to_theta(u)[self.sl])
        with np.errstate(divide="ignore", invalid="ignore"):
            g_u = -grad[self.sl] * (l + self.eps) / l  # ∂f/∂u, f = −log Z
        bad = np.flatnonzero(self.frozen & ~(g_u >= -_PGTOL))
        self._unfreeze(bad)
        return bad.size == 0

    def fun(self, u):
        if not np.all(np.isfinite(u)):
            return np.inf, np.zeros_like(u)
        ul = u[self.sl]
        stray = np.flatnonzero(self.frozen & (ul > self.u_lo))  # safety: a frozen relevance moved off its bound
        self._unfreeze(stray)
        gp, layout = self.gp, self.gp._layout
        # layout.unpack(self.to_theta(u)) for v0, v1, v2 and the free relevances only (elementwise, the same values):
        # the transformation of all d relevances cost as much as the posterior when few genes are free
        v0 = math.exp(u[0])
        v1 = math.exp(u[layout.i_v1]) if layout.has_v1 else 0.0
        v2 = math.exp(u[layout.i_v2]) if layout.has_v2 else 0.0
        try:
            lf = np.exp(self._log_l(u[1 + self.free]))
            S = _scaled_sqdist(self.X_free, self.X_free, lf) if self.free.size else np.zeros_like(self.D_frozen)
            if self.frozen.any():
                S += self.l_bound * self.D_frozen
            E = np.exp(-0.5 * S)
            K = v0 * E
            if v1:
                K += v1
            if v2:
                K[np.diag_indices_from(K)] += v2
            log_z, M, state = gp._posterior(K, True, self.state)
        except (np.linalg.LinAlgError, FloatingPointError, ValueError):
            return np.inf, np.zeros_like(u)
        grad = np.empty(layout.size)
        Mt = M * E
        grad[0] = v0 * Mt.sum()
        gl = np.zeros(self.n_l)
        if self.free.size:
            # ∂ log Z/∂u_m = (l_m + ε) ∂ log Z/∂l_m = −½ v0 (l_m + ε) Σ_ij M̃_ij (x_im − x_jm)²
            gl[self.free] = -0.5 * v0 * (lf + self.eps) * _ard_contract(Mt, self.X_free)
        grad[self.sl] = gl
        if layout.has_v1:
            grad[layout.i_v1] = v1 * M.sum()
        if layout.has_v2:
            grad[layout.i_v2] = v2 * np.trace(M)
        if not np.isfinite(log_z) or not np.all(np.isfinite(grad)):
            return np.inf, np.zeros_like(u)
        out = -grad
        out[self.sl][self.frozen] = self.g_frozen[self.frozen]
        self.state = state
        self.last = (u.copy(), out.copy())
        return -log_z, out


# ---------------------------------------------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------------------------------------------
class GaussianProcessClassifier(BinaryClassifier):
    """Binary Gaussian-process classifier with the ARD covariance of Tan (2006), Eq. 3.8.

    Parameters
    ----------
    approximation : {"laplace", "ep"}
        Laplace approximation (R&W Alg. 3.1/3.2/5.1) or expectation propagation (Alg. 3.5/3.6, Eq. 5.27).
    ard : bool
        One relevance ``l_m`` per gene (True) or a single shared ``l`` (False).
    link : {"auto", "logistic", "probit"}
        Likelihood.  ``"auto"`` is logistic for Laplace and probit for EP; EP supports only probit.
    v0, v1, v2 : float
        Initial signal, bias and latent-noise variances (the values used as they are when ``optimizer=None``).
        ``v1=0`` or ``v2=0`` removes that term from the covariance (it is then not fitted).
    l : None, float or array of shape (n_genes,)
        Initial ARD values.  ``None`` sets every ``l_m`` to 1 / (sum of the gene variances), so that the scaled
        squared distance between two samples is about 2 on average whatever the number of genes.
    optimizer : {"L-BFGS-B", None}
        Maximise the log evidence over the log hyper-parameters, or keep the initial values.
    n_restarts : int
        Additional optimiser runs from seeded random starting points (log hyper-parameters perturbed by
        N(0, 1)); the run with the highest log evidence wins.
    max_iter : int
        Maximum number of L-BFGS-B iterations per run, a run resumed from the flat model included (module
        docstring, "The flat model"), and the runs continued after a frozen relevance failed its KKT check. Under
        ARD most of them cost O(n² × free genes), a few dozen genes after the first iterations (module docstring,
        "Iterations"): the default 5000 covers every fit of the leaderboard's GP-ARD selectors measured on the
        registered binary sets (at most 2,885 iterations: a separable Subramanian fold climbing on v0's upper bound,
        module docstring, "Separable training folds"; 2,000 capped it).
    random_state : None, int or RandomState
        Seed of the restart perturbations.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        Original labels; ``classes_[1]`` is the positive class whose probability is ``predict_proba[:, 1]``.
    log_marginal_likelihood_ : float
        Approximate log evidence at ``theta_``.
    theta_ : ndarray
        Fitted log hyper-parameters ``[log v0, log l_1 … log l_d (or log l), log v1, log v2]`` (the last two only
        when present).
    relevances_ : ndarray of shape (n_genes,)
        ARD value ``l_m`` of every gene (the shared ``l`` repeated when ``ard=False``); larger = more relevant.
        Genes constant in the training data get 0 under ARD (the evidence says nothing about them). In the units of
        X, so for data near 1e200 or 1e-300 every value is 0 or inf (the units of X cannot hold it): rank by
        ``log_relevances_`` there.
    relevance_gradients_ : ndarray of shape (n_genes,)
        ∂ log evidence / ∂ l_m at the fit (in the units of X; 0 for constant genes): ≈ 0 for a relevance inside
        its box, <= 0 for one on its lower bound, where it says how strongly the evidence pushes the gene out (the
        score test of its relevance at the fitted model). Under ARD most genes of a wide array end on the lower
        bound with the same ``relevances_``; rank them by this (larger = more relevant), as GP-ARD-FS and
        GP-ARD-RFE do (:func:`genesel.gp_ard_select.ard_order`).
    log_relevances_ : ndarray of shape (n_genes,)
        Natural log of ``relevances_`` (−inf for the genes it sets to 0), computed in the fit's data-relative units:
        finite at any scale of X, so rankings by it hold at 1e-300 as at 1e200.
    v0_, v1_, v2_ : float
        Fitted variances.
    restart_log_evidences_ : ndarray
        Final log evidence of every optimiser run (first entry: the run from the initial values).
    restart_v0_at_bound_ : ndarray of bool
        Which runs ended with v0 on its upper bound and the evidence still rising along it (no maximum of the
        evidence; module docstring, "Separable training folds"): converged if the KKT conditions of the box held
        there (a maximum over the box, on its face), not if the run reached ``max_iter``.
    n_iter_ : int
        L-BFGS-B iterations of the winning run.
    optimizer_converged_ : bool
        Whether that run met L-BFGS-B's convergence test with the KKT conditions of every frozen relevance (not the
        iteration cap); otherwise a ``ConvergenceWarning`` was issued (naming v0's upper bound when the run ended
        there: ``restart_v0_at_bound_``).
    ep_converged_ : bool
        (EP only) Whether EP reached its fixed point at ``theta_`` (no site changing by more than 1e-9 in a sweep,
        within 200 sweeps); otherwise a ``ConvergenceWarning`` was issued.
    latent_mean_train_ : ndarray of shape (n_samples,)
        Posterior mode (Laplace) or EP posterior mean of the latent f at the training samples.
    X_mean_ : ndarray of shape (n_genes,)
        Training mean, subtracted before distances are formed (the covariance is translation invariant).

    Notes
    -----
    The log hyper-parameters are kept inside generous boxes (v0 ∈ [1e-5, 1e5], l_m ∈ [1e-12, 1e6],
    v1 ∈ [1e-6, 1e5], v2 ∈ [1e-6, 1e3]).  Maximum-likelihood ARD on a few dozen samples drives the ARD values of
    most genes towards 0 and may push v0 to its upper bound on separable data (thesis §4.3: "many ARD values are
    very close to zero but not zero").  During the optimisation each evaluation warm-starts Newton / EP from the
    previous posterior; :meth:`log_marginal_likelihood` always starts cold.  With at most 2000 training samples the
    fit runs with one BLAS thread (threads do not pay at these sizes).
    Input is validated with :func:`genesel._core.validation.check_binary_fit` (NaN/inf, shape mismatch, one class
    or more than two classes raise ``ValueError``); constant genes are accepted, they add nothing to the distances.
    Other methods: :meth:`predict_latent` (predictive mean and variance of f), :meth:`log_marginal_likelihood`
    (evidence and gradient at any θ).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import GaussianProcessClassifier
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 10)), np.repeat([-1, 1], 20)    # 40 samples x 10 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> gp = GaussianProcessClassifier(n_restarts=0, random_state=0).fit(X[::2], y[::2])
    >>> np.argsort(-gp.relevances_)[:4].tolist()                    # the largest ARD values (7: noise)
    [0, 3, 2, 7]
    >>> gp.score(X[1::2], y[1::2])
    0.95
    >>> gp.predict_proba(X[1:6:2]).round(2).tolist()               # P(class -1), P(class +1)
    [[0.53, 0.47], [0.65, 0.35], [0.65, 0.35]]
    """

    _parameter_constraints = {
        "approximation": [StrOptions({"laplace", "ep"})], "ard": ["boolean"],
        "link": [StrOptions({"auto", "logistic", "probit"})], "v0": [POSITIVE], "v1": [NON_NEGATIVE],
        "v2": [NON_NEGATIVE], "l": [POSITIVE, "array-like", None], "optimizer": [StrOptions({"L-BFGS-B"}), None],
        "n_restarts": [integer(0, None, "left")], "max_iter": [POSITIVE_INT], "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        approximation="laplace",
        ard=True,
        link="auto",
        v0=1.0,
        v1=0.1,
        v2=0.01,
        l=None,
        optimizer="L-BFGS-B",
        n_restarts=2,
        max_iter=5000,
        random_state=None,
    ):
        self.approximation = approximation
        self.ard = ard
        self.link = link
        self.v0 = v0
        self.v1 = v1
        self.v2 = v2
        self.l = l
        self.optimizer = optimizer
        self.n_restarts = n_restarts
        self.max_iter = max_iter
        self.random_state = random_state

    # -- parameter checks -----------------------------------------------------------------------------------------
    def _resolved_link(self):
        if self.approximation == "ep":
            if self.link == "logistic":
                raise ValueError(
                    "link='logistic' is not available with approximation='ep' (EP needs the closed-form tilted "
                    "moments of the probit likelihood); use link='probit' or approximation='laplace'"
                )
            return "probit"
        return "logistic" if self.link == "auto" else self.link

    def _check_params(self, n_features):
        """The checks that need the data or two parameters at once (the rest: ``_parameter_constraints``)."""
        link = self._resolved_link()
        n_l = n_features if self.ard else 1
        if self.l is None:
            l0 = None
        else:
            l0 = np.asarray(self.l, dtype=float)
            if l0.ndim == 0:
                l0 = np.full(n_l, float(l0))
            if l0.shape != (n_l,):
                raise ValueError(
                    f"l must be a scalar or an array of length {n_l} ({'one per gene' if self.ard else 'ard=False'}),"
                    f" got shape {l0.shape}"
                )
            if not np.all(np.isfinite(l0)) or np.any(l0 <= 0):
                raise ValueError("l (initial ARD values) must be finite and positive")
        return link, n_l, l0

    # -- evidence -------------------------------------------------------------------------------------------------
    def _evidence(self, theta, need_grad, warm=None):
        K, E, S = _kernel(theta, self._layout, self._X, self._Xsq)
        log_z, M, state = self._posterior(K, need_grad, warm)
        grad = None
        if need_grad:
            grad = _theta_gradient(M, theta, self._layout, self._X, E, S)
        return log_z, grad, state

    def _posterior(self, K, need_grad, warm=None):
        """Log evidence, the M of its gradient and the posterior state at the covariance K (Laplace or EP)."""
        if self._Y is not None:  # K >= 3 classes: multi-class Laplace
            log_z, M, state = _mc_laplace(K, self._Y, need_grad, a0=None if warm is None else warm["alpha"])
        elif self.approximation == "laplace":
            log_z, M, state = _laplace(K, self._y, self._link, need_grad,
                                       a0=None if warm is None else warm["alpha"])
        else:
            sites = None if warm is None else (warm["nu_tilde"], warm["tau_tilde"])
            log_z, M, state = _ep(K, self._y, need_grad, sites=sites)
        return log_z, M, state

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        """Approximate log evidence of the training data at ``theta`` (default: ``theta_``), optionally with its
        gradient with respect to the log hyper-parameters (same layout as ``theta_``)."""
        check_is_fitted(self)
        theta = self.theta_ if theta is None else np.asarray(theta, dtype=float)
        if theta.shape != self.theta_.shape:
            raise ValueError(f"theta must have shape {self.theta_.shape} (the layout of theta_), got {theta.shape}")
        with blas_threads_for(self._y.size, _SINGLE_THREAD_MAX_N):
            log_z, grad, _ = self._evidence(self._to_scaled_theta(theta), eval_gradient)
        return (log_z, grad) if eval_gradient else log_z

    def _to_scaled_theta(self, theta):
        """θ in the units of X -> θ in the data-relative units of the fit (only the log l entries move)."""
        if self._x_exp == 0:
            return theta
        theta = np.array(theta, dtype=float)
        theta[1 : 1 + self._layout.n_l] -= 2 * self._x_exp * math.log(2.0)
        return theta

    def _optimise(self, theta0):
        """One L-BFGS-B run from θ0 (log hyper-parameters): (θ, log evidence, iterations, converged, message,
        v0 at its upper bound with the evidence rising there, ∂ log Z / ∂ log v0 at the end).

        Under ARD the optimiser's variables for the relevances are shifted logarithms with the working set of
        :class:`_ArdVariables` (module docstring, "Iterations"); a single shared l keeps its logarithm."""
        # Each evaluation warm-starts Newton / EP from the previous posterior (deterministic for a given start).
        var = _ArdVariables(self) if self._layout.n_l > 1 else _LogVariables(self)
        u0 = var.to_u(theta0)
        bounds = scipy.optimize.Bounds(*np.array(var.bounds()).T)

        def run(u, maxiter, stop=None, **tol):
            """L-BFGS-B from u; under ARD it ends only where the exact gradient of every frozen relevance points
            out of the box (KKT), else the run continues from there with every gene free."""
            nit = 0
            var.reset()
            active = np.arange(u.size)  # the first run: every variable; after a KKT check: all but the frozen
            while True:
                base = np.array(u, dtype=float)

                def full(v, base=base, active=active):
                    if active.size == base.size:
                        return v
                    w = base.copy()
                    w[active] = v
                    return w

                def fun(v, active=active, n=base.size):
                    f, g = var.fun(full(v))
                    return f, (g if active.size == n else g[active])

                shrink = [False]

                def callback(vk, active=active, shrink=shrink):
                    xk = full(vk)
                    var.on_iterate(xk)
                    if stop is not None:
                        stop(xk)
                    if var.worth_shrinking(active):
                        shrink[0] = True
                        raise StopIteration

                res = _lbfgsb(fun, base[active], bounds.lb[active], bounds.ub[active], int(maxiter) - nit,
                              callback=callback, **tol)
                res.x = full(res.x)
                nit += res.nit
                if shrink[0] and nit < maxiter:  # not an end: the same run on fewer variables
                    u = res.x
                    active = var.active_variables()
                    continue
                if not res.success or nit >= maxiter:
                    return res, nit
                if var.kkt(res.x):
                    return res, nit
                if _STOP_ON_V0_BOUND and res.x[0] >= bounds.ub[0] - 1e-9 and res.jac[0] < -_PGTOL:
                    # v0 on its upper bound with the evidence rising beyond it (∂ log Z / ∂ log v0 > _PGTOL) and
                    # frozen relevances that would raise it further: no maximum of the evidence inside the box; the
                    # run stops here, not converged, instead of climbing on the face of the box (module docstring,
                    # "Separable training folds")
                    res["stopped_at_v0_bound"] = True
                    return res, nit
                u = res.x
                # the frozen relevances stay on their bound: the next run optimises the others only (L-BFGS-B's
                # own work per iteration is linear in its variables: 55,000 of them cost more than the evidence)
                active = var.active_variables()

        res, nit = run(u0, self.max_iter)
        success, message = bool(res.success), str(res.message)
        while _at_flat_model(res.x) and nit < self.max_iter:
            # The run ended at the flat model (v0 <= 1e-3; see _FLAT_V0), where the evidence and its
            # gradient differ from those of log p(y) = −n log 2 only at first order in v0, below L-BFGS-B's
            # absolute tolerances wherever the labels could still raise the evidence. Resume the same run (same
            # objective, same parameterisation, within max_iter) without tolerances until v0 leaves the flat model,
            # then as usual; if no step raises the evidence any more, the flat model is where the run ends (the fit
            # warns). Runs that do not end there, e.g. on the thesis' data, are untouched.
            def leave_flat(xk):
                if xk[0] > _FLAT_EXIT:
                    raise StopIteration

            esc, k = run(res.x, self.max_iter - nit, stop=leave_flat, gtol=0.0, ftol=0.0)
            nit += k
            if esc.x[0] <= _FLAT_EXIT:  # still flat: out of budget, or no step raises the evidence
                if -esc.fun > -res.fun:
                    res = esc
                if nit >= self.max_iter:
                    success, message = False, "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT"
                break
            if nit >= self.max_iter:
                res, success, message = esc, False, "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT"
                break
            res, k = run(esc.x, self.max_iter - nit)
            nit, success, message = nit + k, bool(res.success), str(res.message)
        edge = bool(res.x[0] >= bounds.ub[0] - 1e-9 and np.size(res.jac) and res.jac[0] < -_PGTOL)
        if res.get("stopped_at_v0_bound", False):
            success, message = False, "stopped on v0's upper bound, the evidence rising beyond it"
        return var.to_theta(res.x), -res.fun, nit, success, message, edge, float(-res.jac[0])

    # -- sklearn API ----------------------------------------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, theta_start=None):
        """Fit the hyper-parameters (unless ``optimizer=None``) and the approximate posterior.

        ``theta_start`` (optional): log hyper-parameters in the layout and units of ``theta_`` (e.g. a previous
        fit's ``theta_`` restricted to these genes) from which the *first* optimiser run starts instead of the
        initial values ``v0``, ``l``, ``v1``, ``v2``; values outside the box are moved onto it. The ``n_restarts``
        extra runs still start from the initial values perturbed (the same seeded draws), and the run of the highest
        evidence wins. A start point only: the objective, the box and the convergence test are unchanged
        (GP-ARD-RFE starts each round's fold fit from the same fold's fit of the round before,
        :class:`genesel.gp_ard_select.GPARDRFE`)."""
        if scipy.sparse.issparse(X):
            raise TypeError("GaussianProcessClassifier does not support sparse input X; pass a dense array")
        X, y_index, self.classes_ = check_classification_fit(self, X, y, constant="keep", min_samples=2)
        n_classes = self.classes_.size
        if n_classes > 2:
            if self.approximation != "laplace":
                raise ValueError(
                    "Only binary classification is supported with approximation='ep': GaussianProcessClassifier: "
                    f"y holds {n_classes} classes; EP is binary here. Use approximation='laplace' (the multi-class "
                    "Laplace approximation with the softmax likelihood), or wrap the binary EP classifier in "
                    "sklearn.multiclass.OneVsRestClassifier")
            if self.link == "probit":
                raise ValueError(
                    "Only binary classification is supported with link='probit': GaussianProcessClassifier: y "
                    f"holds {n_classes} classes; the multi-class model's likelihood is the softmax (link='auto' or "
                    "'logistic'), link='probit' is binary: wrap it in sklearn.multiclass.OneVsRestClassifier for a "
                    "one-vs-rest probit model")
        if theta_start is not None:
            if self.optimizer is None:
                raise ValueError("theta_start is the start of the evidence maximisation; with optimizer=None the "
                                 "initial values v0, l, v1, v2 are used as they are: pass those instead")
            theta_start = np.asarray(theta_start, dtype=float)
            size = 1 + (X.shape[1] if self.ard else 1) + int(self.v1 > 0) + int(self.v2 > 0)
            if theta_start.shape != (size,) or not np.all(np.isfinite(theta_start)):
                raise ValueError(f"theta_start must hold {size} finite log hyper-parameters (the layout of theta_: "
                                 f"log v0, {'one log l per gene' if self.ard else 'log l'}"
                                 f"{', log v1' if self.v1 > 0 else ''}{', log v2' if self.v2 > 0 else ''}), got "
                                 f"shape {theta_start.shape}")
        with blas_threads_for(X.shape[0], _SINGLE_THREAD_MAX_N):
            if n_classes == 2:
                return self._fit(X, np.where(y_index == 1, 1, -1).astype(np.int64), theta_start=theta_start)
            return self._fit(X, None, np.eye(n_classes)[y_index], theta_start=theta_start)

    def _fit(self, X, y_pm1, Y=None, theta_start=None):
        """Fit on the two-class labels ``y_pm1`` (±1), or on the one-hot targets ``Y`` (n × K, K >= 3); the first
        optimiser run from ``theta_start`` (units of X) when given."""
        link, n_l, l0 = self._check_params(X.shape[1])

        self._link = link
        self.X_mean_ = X.mean(axis=0)
        # k is translation invariant; centring limits cancellation in ‖x_i − x_j‖². Data-relative units: the centred
        # genes are multiplied by 2^k (exact) so that their rms standard deviation is about 1, and the ARD values
        # live in those units (l' = l / 4^k): the starting value 1 / (sum of gene variances) and the box of l then
        # mean the same thing at any scale of X. Data with gene variances between 0.5 and 2 on average (e.g.
        # standardised genes) get k = 0: the computation is the unscaled one bit for bit.
        Xc = X - self.X_mean_
        self._x_exp = _unit_sd_exponent(Xc)
        self._X = np.ldexp(Xc, self._x_exp)
        self._Xsq = self._X * self._X
        self._Y = Y
        self._y = y_pm1.astype(np.float64) if Y is None else np.argmax(Y, axis=1).astype(np.float64)
        self._layout = _Layout(n_l, self.v1 > 0, self.v2 > 0)
        if l0 is None:
            total_var = float(np.sum(np.var(self._X, axis=0)))
            l0 = np.full(n_l, 1.0 / total_var if total_var > 0 else 1.0)
        else:
            with np.errstate(over="ignore", under="ignore"):
                l0 = np.ldexp(l0, -2 * self._x_exp)
            lo, hi = np.exp(_BOUNDS["l"])
            if np.any(l0 < lo) or np.any(l0 > hi):
                raise ValueError(
                    f"l (initial ARD values) must lie within [{lo:g}, {hi:g}] times 1 / (typical gene variance of X) "
                    f"= [{lo / 4.0 ** self._x_exp:.3g}, {hi / 4.0 ** self._x_exp:.3g}] for these data; leave l=None "
                    "for the data-relative default"
                )
        theta0 = [math.log(self.v0)] + list(np.log(l0))
        if self._layout.has_v1:
            theta0.append(math.log(self.v1))
        if self._layout.has_v2:
            theta0.append(math.log(self.v2))
        theta0 = np.array(theta0)

        if self.optimizer is None:
            theta, self.n_iter_ = theta0, 0
            self.restart_log_evidences_ = np.array([])
            self.restart_v0_at_bound_ = np.array([], dtype=bool)
            self.optimizer_converged_ = True
        else:
            rng = check_random_state(self.random_state)
            bounds = np.array(self._layout.bounds())
            first = theta0
            if theta_start is not None:
                first = np.clip(self._to_scaled_theta(theta_start), bounds[:, 0], bounds[:, 1])
            starts = [first]
            for _ in range(self.n_restarts):
                starts.append(np.clip(theta0 + rng.normal(size=theta0.size), bounds[:, 0], bounds[:, 1]))
            runs = [self._optimise(t) for t in starts]
            evid = np.array([r[1] for r in runs])
            if not np.any(np.isfinite(evid)):
                raise ValueError(
                    "evidence maximisation failed from every starting point (non-finite evidence); check the "
                    "scale of X (e.g. standardise the genes) or the initial v0, v1, v2, l"
                )
            edge = np.array([r[5] for r in runs])
            best = int(np.nanargmax(np.where(np.isfinite(evid), evid, -np.inf)))
            theta, self.n_iter_ = runs[best][0], runs[best][2]
            self.restart_log_evidences_ = evid
            self.restart_v0_at_bound_ = edge
            self.optimizer_converged_ = runs[best][3]
            if edge[best] and not runs[best][3]:
                warnings.warn(
                    f"GaussianProcessClassifier: no maximum inside v0's box: the optimiser run of the highest "
                    f"evidence ended after {runs[best][2]} iterations ({runs[best][4]}) with the signal variance v0 on "
                    f"its upper bound {math.exp(_BOUNDS['v0'][1]):g} and the evidence still rising along it (d log Z "
                    f"/ d log v0 = {runs[best][6]:.3g}), as on training samples that a few of thousands of genes "
                    "separate (type-II maximum likelihood overfits, thesis §4.3): the hyper-parameters are no maximum "
                    "of the evidence. Filter the genes first or fit fewer of them.", ConvergenceWarning, stacklevel=3)
            elif not runs[best][3]:
                warnings.warn(f"GaussianProcessClassifier: L-BFGS-B stopped before convergence after {runs[best][2]} "
                              f"iterations ({runs[best][4]}); the hyper-parameters are not a maximum of the "
                              "evidence. Raise max_iter.", ConvergenceWarning, stacklevel=3)

        log_z, _, state = self._evidence(theta, False)
        if self.approximation == "ep":
            self.ep_converged_ = state["ep_converged"]
            if not state["ep_converged"]:
                warnings.warn(f"GaussianProcessClassifier: EP did not reach its fixed point in {state['ep_sweeps']} "
                              f"sweeps (largest relative site change {state['ep_delta']:.2g} > {_EP_TOL:g}); the "
                              "evidence and the predictions are approximate.", ConvergenceWarning, stacklevel=3)
        self._theta_scaled = theta
        self.theta_ = theta.copy()
        self.theta_[1 : 1 + n_l] += 2 * self._x_exp * math.log(2.0)  # log l in the units of X
        self.log_marginal_likelihood_ = float(log_z)
        self.v0_, l_fit, self.v1_, self.v2_ = self._layout.unpack(theta)
        l_scaled = l_fit.copy() if self.ard else np.full(X.shape[1], l_fit[0])
        const = np.ptp(X, axis=0) == 0
        if self.ard:
            # A gene constant in the training data adds nothing to any distance, so the evidence does not depend on
            # its l_m: the optimiser leaves it at its start value, which would tie such genes (and rank them above
            # every gene whose l_m the data pushed down). No evidence of relevance: report 0 (and ignore it at
            # prediction time).
            l_scaled[const] = 0.0
        self._l_scaled = l_scaled
        with np.errstate(over="ignore", under="ignore"):
            self.relevances_ = np.ldexp(l_scaled, 2 * self._x_exp)
        with np.errstate(divide="ignore"):  # constant genes: log 0 = -inf
            self.log_relevances_ = np.log(l_scaled) + 2 * self._x_exp * math.log(2.0)
        # ∂ log Z / ∂l_m at the fit: orders the relevances that ended on their lower bound (the same value for all),
        # by how strongly the evidence pushes each out of the box (closest to 0 first: the score test of relevance)
        _, g_theta, _ = self._evidence(theta, True, warm=state)
        g_l = g_theta[1 : 1 + n_l] / l_fit  # ∂/∂ log l = l ∂/∂l
        g_l = g_l.copy() if self.ard else np.full(X.shape[1], g_l[0])
        if self.ard:
            g_l[const] = 0.0
        with np.errstate(over="ignore", under="ignore"):
            self.relevance_gradients_ = np.ldexp(g_l, -2 * self._x_exp)
        if Y is None:
            self._alpha = state["alpha"]
            self._sqrt_w = state["sqrt_w"]
            self._L = state["L"]
        else:  # predictions need y − π at the mode, the E_c and the factor of Σ_c E_c (R&W Alg. 3.4)
            self._alpha, self._E, self._L = state["grad"], state["E"], state["M"]
        self.latent_mean_train_ = state["f"]
        if self.optimizer is not None:
            self._check_end_state(theta, const)
        return self

    def _check_end_state(self, theta, const):
        """Warn about a fit that cannot separate anything (one warning naming every symptom): the flat model
        (v0 <= 1e-3: the covariance all but ignores X), the model flat in effect (every training latent mean
        within ±``_FLAT_LATENT``), the model flat by its evidence (less than ``_FLAT_EVIDENCE`` nat above coin
        flips), every relevance at a bound of its box, or one class predicted for every training sample."""
        lo, hi = _BOUNDS["l"]
        log_l = theta[1 : 1 + self._layout.n_l]
        if self.ard:
            log_l = log_l[~const]
        side = None
        if log_l.size and np.all((log_l <= lo + 1e-6) | (log_l >= hi - 1e-6)):
            side = ("lower" if np.all(log_l <= lo + 1e-6) else
                    "upper" if np.all(log_l >= hi - 1e-6) else "lower or upper")
        multi = self._Y is not None
        n_classes = self.classes_.size
        # the training samples' predicted classes (multi-class: the largest latent mean; its probability ordering is
        # the same up to the moderation by the predictive variance) and their true classes
        pred = self.classes_[np.argmax(self.latent_mean_train_, axis=1) if multi else
                             (self.latent_mean_train_ > 0).astype(int)]
        truth = self.classes_[self._y.astype(int) if multi else (self._y > 0).astype(int)]
        coin = f"{'-n log K' if multi else '-n log 2'} = {-self._y.size * math.log(n_classes):.6g}"
        if _at_flat_model(theta):
            one = np.unique(pred)
            label = one[0].item() if isinstance(one[0], np.generic) else one[0]
            warn_degenerate(
                type(self).__name__,
                f"the fitted model is flat: the signal variance v0 ended at {self.v0_:.3g} (at most {_FLAT_V0:g}; "
                f"lower bound {math.exp(_BOUNDS['v0'][0]):g}), so the covariance all but ignores X (log evidence "
                f"{self.log_marginal_likelihood_:.6g}; coin flips: {coin})"
                + (f", every relevance (ARD value) ended at the {side} bound of its box" if side else "")
                + (f" and the model predicts {label!r} for every training sample" if one.size == 1 else ""),
                "no covariance the evidence maximisation reached makes samples of one class more alike than samples "
                "of different classes (too little class information among this many genes, or none); predictions on "
                "new samples are near chance",
                "filter the genes first (e.g. genesel.SignalToNoiseSelector, or GPARDFS with its Wilcoxon "
                "prefilter), check that they carry class information, or try other starts (n_restarts, v0, l)")
        elif side:
            warn_degenerate(
                type(self).__name__, f"every relevance (ARD value) ended at the {side} bound of its box",
                "the evidence found no gene worth a finite length scale (with the lower bound: the covariance is "
                "flat, the model predicts from the bias; with the upper bound: every sample is its own cluster)",
                "check that the genes carry class information, standardise them, or start from other values "
                "(l, v0) or more restarts (n_restarts)")
        elif np.max(np.abs(self.latent_mean_train_)) < _FLAT_LATENT:
            top = float(np.max(np.abs(self.latent_mean_train_)))
            if multi:  # the latent means of a sample sum to 0 at the mode (Σ_c (y_c − π_c) = 0)
                hi_p = math.exp(top) / (math.exp(top) + (n_classes - 1) * math.exp(-top / (n_classes - 1)))
                band, share = hi_p - 1.0 / n_classes, f"1/{n_classes}"
            else:
                band = (scipy.special.ndtr(top) if self._link == "probit" else scipy.special.expit(top)) - 0.5
                share = "one half"
            warn_degenerate(
                type(self).__name__,
                f"the fitted model is flat in effect: every training sample's latent mean lies within ±{top:.2g} of 0 "
                f"(every class probability within about {band:.2g} of {share}; v0 = {self.v0_:.3g}, log evidence "
                f"{self.log_marginal_likelihood_:.6g} against coin flips' {coin})",
                "the covariance the evidence maximisation reached explains each training sample by itself and the "
                "classes by almost nothing; a new sample is predicted from the bias, often one class for all",
                "filter the genes first (e.g. genesel.SignalToNoiseSelector, or GPARDFS with its Wilcoxon "
                "prefilter), check that they carry class information, or try other starts (n_restarts, v0, l)")
        elif self.log_marginal_likelihood_ + self._y.size * math.log(n_classes) < _FLAT_EVIDENCE:
            gain = self.log_marginal_likelihood_ + self._y.size * math.log(n_classes)
            warn_degenerate(
                type(self).__name__,
                f"the fitted model is flat by its evidence: log evidence {self.log_marginal_likelihood_:.6g}, "
                f"{gain:.2g} nat above coin flips' (coin flips: {coin}), a Bayes factor below e (v0 = {self.v0_:.3g}, "
                f"training latent means within ±{float(np.max(np.abs(self.latent_mean_train_))):.2g})",
                "the data support this covariance hardly more than one that ignores X: whatever it separates on the "
                "training samples (each may explain only itself), its predictions on new samples are near chance",
                "filter the genes first (e.g. genesel.SignalToNoiseSelector, or GPARDFS with its Wilcoxon "
                "prefilter), check that they carry class information, or try other starts (n_restarts, v0, l)")
        else:
            warn_if_one_class(self, pred, truth,
                              f"the fitted covariance (v0 = {self.v0_:.3g}, largest relevance "
                              f"{np.max(self.relevances_):.3g}) leaves the bias to decide",
                              "check that the genes carry class information, standardise them, or try more "
                              "restarts (n_restarts)")

    def _latent(self, X):
        """Predictive mean and variance of the latent f at the rows of X (Alg. 3.2 / 3.6)."""
        check_is_fitted(self)
        if scipy.sparse.issparse(X):
            raise TypeError("GaussianProcessClassifier does not support sparse input X; pass a dense array")
        X = validate_data(self, X, reset=False, ensure_all_finite=False, dtype=np.float64)
        X = check_expression_data(X, allow_constant=True, min_samples=1)
        with blas_threads_for(self._y.size, _SINGLE_THREAD_MAX_N):
            return self._latent_checked(X)

    def _latent_checked(self, X):
        Xs = np.ldexp(X - self.X_mean_, self._x_exp)
        l = self._l_scaled if self.ard else self._l_scaled[0]
        Ks = self.v0_ * np.exp(-0.5 * _scaled_sqdist(Xs, self._X, l)) + self.v1_  # test × train, no δ term
        if self._Y is not None:
            return _mc_predict(Ks, self.v0_ + self.v1_ + self.v2_, self._alpha, self._E, self._L)
        mean = Ks @ self._alpha
        V = scipy.linalg.solve_triangular(self._L, self._sqrt_w[:, None] * Ks.T, lower=True)
        var = self.v0_ + self.v1_ + self.v2_ - np.einsum("ij,ij->j", V, V)
        return mean, np.maximum(var, 0.0)

    def predict_latent(self, X):
        """Mean and variance of the Gaussian predictive distribution of the latent f at the rows of X: two arrays of
        shape (n,) for two classes; for K >= 3 classes the means of the K latent functions (n, K) and their
        covariance matrices (n, K, K)."""
        return self._latent(X)

    def _mc_log_proba(self, X):
        """log P(classes_[c] | x), (n, K), K >= 3: the softmax averaged over the predictive Gaussian."""
        mean, cov = self._latent(X)
        return _mc_log_proba(mean, cov)

    def _log_proba(self, X):
        """log P(classes_[0] | x), log P(classes_[1] | x), computed without underflow."""
        mean, var = self._latent(X)
        if self._link == "probit":
            z = mean / np.sqrt(1.0 + var)
            return scipy.special.log_ndtr(-z), scipy.special.log_ndtr(z)
        # ∫ σ(±f) N(f | mean, var) df by 64-point Gauss–Hermite quadrature, in log space
        f = mean[:, None] + np.sqrt(2.0 * var)[:, None] * _GH_NODES[None, :]
        log_w = np.log(_GH_WEIGHTS / math.sqrt(math.pi))[None, :]
        log_p1 = scipy.special.logsumexp(log_w - np.logaddexp(0.0, -f), axis=1)
        log_p0 = scipy.special.logsumexp(log_w - np.logaddexp(0.0, f), axis=1)
        return log_p0, log_p1

    def decision_function(self, X):
        """Two classes: log P(classes_[1] | x) − log P(classes_[0] | x), shape (n,): positive favours
        ``classes_[1]``, monotone in ``predict_proba[:, 1]`` (the latent mean alone is not, because the predictive
        variance moderates it). K >= 3 classes: log P(classes_[c] | x), shape (n, K), whose largest entry is the
        predicted class."""
        check_is_fitted(self)
        if self._Y is not None:
            return self._mc_log_proba(X)
        log_p0, log_p1 = self._log_proba(X)
        return log_p1 - log_p0

    def predict_proba(self, X):
        """Class probabilities (n, K), columns in the order of ``classes_``, averaged over the latent predictive
        Gaussian (two classes: 64-point Gauss-Hermite quadrature or the probit's closed form; K >= 3: the softmax
        averaged over 4094 fixed quasi-random points, see the class docstring)."""
        check_is_fitted(self)
        if self._Y is not None:
            lp = self._mc_log_proba(X)
            return np.exp(lp - scipy.special.logsumexp(lp, axis=1, keepdims=True))
        log_p0, log_p1 = self._log_proba(X)
        p = np.clip(np.exp(log_p1 - np.logaddexp(log_p0, log_p1)), 0.0, 1.0)
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """Class labels: for two classes ``classes_[1]`` where ``decision_function`` is positive, for K >= 3 the
        class of the largest predictive probability."""
        check_is_fitted(self)
        if self._Y is not None:
            return self.classes_[np.argmax(self._mc_log_proba(X), axis=1)]
        return super().predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # K >= 3 classes: the multi-class Laplace approximation with the softmax; EP and the probit are binary here
        tags.classifier_tags.multi_class = self.approximation == "laplace" and self.link != "probit"
        tags.input_tags.sparse = False
        return tags
