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

Implementation (numba, :func:`_fast_rvm`). C is never formed: by the Woodbury identity C⁻¹ = B − BΦ_A Σ Φ_Aᵀ B, so
with the Cholesky factor L of the Hessian ΦᵀBΦ + A (Σ = L⁻ᵀL⁻¹) and R = L⁻¹Φ_AᵀB, all S_m, Q_m come from one
matrix product Φᵀ[Bt̂, Rᵀ]: O(n·M·|A|) time, O(n·M) memory for M candidate basis functions (thousands of genes,
tens of samples: nothing of size M × M or n × n × M is built). The factor L is carried from one action to the next
instead of being rebuilt: an addition appends one row (L⁻¹Φ_AᵀBφ_m is already a column of that product and the new
diagonal is √(α_m + S_m)), a re-estimation is a rank-one Cholesky update or downdate of the diagonal entry; the
factor starts the warm-started Newton iteration of the next mode. Newton steps that move the mode change B, and only
those refactorise (|A| × |A|, |A| is a handful). Basis vectors are scaled to unit length internally (as in
Tipping's SparseBayes) and the weights are mapped back.

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
identical; the other 7 had run into max_iter before and now converge, 6 of them at a higher evidence). (3) A fit that ends as a constant predictor (no basis function but the bias, or one class predicted for
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

Prediction uses the plug-in probability σ(φ(x)ᵀw*) as in Tipping 2001. ``tests/test_rvm.py`` checks the numba
kernel against its plain-Python twin (``tests/naive/rvm.py``, the vectorised implementation this module had before)
and the solution against a direct n × n implementation: the reported evidence equals the directly computed Laplace
evidence, the solution is a fixed point of the direct updates, and Tipping's original re-estimation reaches no
higher evidence.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import _num_samples, check_is_fitted, validate_data

from genesel._core.fastmath import dot as _dot
from genesel._core.gram import gram
from genesel._core.threads import blas_threads_for
from genesel._core.validation import check_binary_fit, check_expression_data

_SINGLE_THREAD_MAX_N = 512
__all__ = ["RVM", "rvm_posterior_mode"]

_KERNELS = ("linear", "rbf", "poly", "precomputed", None)
_MAX_NEWTON = 100
_DAMP_RATIO = 0.9  # safeguard (1): a reversal that keeps ≥ 90 % of the previous log-α step does not contract;
_DAMP_AFTER = 3  # from the third such reversal in a row on, each one halves the step on that log α
STATUS_CONVERGED, STATUS_MAX_ITER, STATUS_NUMERICAL = 0, 1, 2


# ---------------------------------------------------------------------------------------------------- numba kernels
@njit(cache=True, error_model="numpy", fastmath={"reassoc", "contract"})
def _wsq(a, b, n):
    """Σ b_i a_i² (vectorised)."""
    s = 0.0
    for i in range(n):
        s += b[i] * a[i] * a[i]
    return s


@njit(cache=True)
def _objective(t, f, alpha, w, k, e):
    """Σ log p(t_i | f_i) − ½ Σ α_a w_a² for targets t_i in {0, 1} (Bernoulli, stable); e receives exp(−|f_i|), from
    which :func:`_sigmoid` gets σ(f_i) without another transcendental function."""
    s = 0.0
    for i in range(t.size):
        fi = f[i]
        ei = math.exp(-abs(fi))
        e[i] = ei
        x = fi if t[i] == 0.0 else -fi  # −log p(t_i | f_i) = log(1 + e^x)
        s -= (x if x > 0.0 else 0.0) + math.log1p(ei)
    r = 0.0
    for a in range(k):
        r += alpha[a] * w[a] * w[a]
    return s - 0.5 * r


@njit(cache=True, inline="always")
def _sigmoid(fi, ei):
    """σ(f_i) from e_i = exp(−|f_i|)."""
    return 1.0 / (1.0 + ei) if fi >= 0.0 else ei / (1.0 + ei)


@njit(cache=True)
def _latent(PA, k, w, f):
    """f = Φ_A w (PA holds the active basis vectors as rows)."""
    n = f.size
    for i in range(n):
        f[i] = 0.0
    for a in range(k):
        wa = w[a]
        row = PA[a]
        for i in range(n):
            f[i] += row[i] * wa


@njit(cache=True)
def _hessian(PA, k, beta, alpha, H, PB):
    """H = Φ_AᵀBΦ_A + A (k × k block of H); PB receives the rows of Φ_AᵀB."""
    n = beta.size
    for a in range(k):
        for i in range(n):
            PB[a, i] = PA[a, i] * beta[i]
        for b in range(a + 1):
            v = _dot(PB[a], PA[b], n)
            H[a, b] = v
            H[b, a] = v
        H[a, a] += alpha[a]


@njit(cache=True)
def _cholesky(H, k, L):
    """Lower Cholesky factor L (H = LLᵀ) of the k × k block of H, in place in L; False if H is not positive definite."""
    for j in range(k):
        s = H[j, j]
        for p in range(j):
            s -= L[j, p] * L[j, p]
        if not s > 0.0:
            return False
        d = math.sqrt(s)
        L[j, j] = d
        for i in range(j + 1, k):
            s = H[i, j]
            for p in range(j):
                s -= L[i, p] * L[j, p]
            L[i, j] = s / d
        for i in range(j + 1, k):
            L[j, i] = 0.0
    return True


@njit(cache=True)
def _forward(L, k, b, out):
    """out = L⁻¹ b."""
    for i in range(k):
        s = b[i]
        for p in range(i):
            s -= L[i, p] * out[p]
        out[i] = s / L[i, i]


@njit(cache=True)
def _backward(L, k, b, out):
    """out = L⁻ᵀ b."""
    for i in range(k - 1, -1, -1):
        s = b[i]
        for p in range(i + 1, k):
            s -= L[p, i] * out[p]
        out[i] = s / L[i, i]


@njit(cache=True)
def _chol_rank1(L, k, j, delta):
    """In place: L ← chol(LLᵀ + delta e_j e_jᵀ) (update for delta > 0, downdate for delta < 0). False on failure."""
    sign = 1.0 if delta > 0.0 else -1.0
    x = np.zeros(k)
    x[j] = math.sqrt(abs(delta))
    for p in range(j, k):
        r2 = L[p, p] * L[p, p] + sign * x[p] * x[p]
        if not r2 > 0.0:
            return False
        r = math.sqrt(r2)
        c = r / L[p, p]
        s = x[p] / L[p, p]
        L[p, p] = r
        for i in range(p + 1, k):
            L[i, p] = (L[i, p] + sign * s * x[i]) / c
            x[i] = c * x[i] - s * L[i, p]
    return True


@njit(cache=True)
def _posterior_mode(PA, k, t, alpha, w, f, L, H, have_factor, max_newton, PB, wn_, wk_, loglik):
    """Posterior mode of the Bernoulli model on the k active basis vectors (rows of PA) by damped Newton (IRLS).

    ``w`` is the warm start and is overwritten with the mode, ``f`` with Φ_A w, ``L`` with the Cholesky factor of
    the Hessian at the mode. ``have_factor``: the previous action left Φ_A w unchanged (an addition with weight 0 or
    a re-estimation), so ``f``, wn_[3] = exp(−|f|) and ``loglik`` = log p(t|w) are still current and L holds the
    factor of the Hessian at the starting w: the first Newton step needs no factorisation. PB (≥ k × n), wn_
    (≥ 5 × n) and wk_ (≥ 4 × k) are workspace; on return wn_[3] holds exp(−|f_i|) at the mode. Returns the
    objective Σ log p(t|w) − ½wᵀAw at the mode (NaN if a Hessian was not numerically positive definite) and
    log p(t|w) there.
    """
    n = t.size
    beta, r, fn, e, en = wn_[0], wn_[1], wn_[2], wn_[3], wn_[4]
    g, tmp, step, wn = wk_[0], wk_[1], wk_[2], wk_[3]
    if have_factor:
        prior = 0.0
        for a in range(k):
            prior += alpha[a] * w[a] * w[a]
        obj = loglik - 0.5 * prior
    else:
        _latent(PA, k, w, f)
        obj = _objective(t, f, alpha, w, k, e)
    for _ in range(max_newton):
        for i in range(n):
            s = _sigmoid(f[i], e[i])
            beta[i] = s * (1.0 - s)
            r[i] = t[i] - s
        for a in range(k):
            g[a] = _dot(PA[a], r, n) - alpha[a] * w[a]
        if not have_factor:
            _hessian(PA, k, beta, alpha, H, PB)
            if not _cholesky(H, k, L):
                return np.nan, np.nan
        have_factor = False
        _forward(L, k, g, tmp)
        _backward(L, k, tmp, step)
        dec = 0.0
        for a in range(k):
            dec += g[a] * step[a]
        if dec < 1e-14 * max(1.0, abs(obj)):
            # within rounding of the mode, where the objective cannot resolve progress: one last full Newton step
            # (quadratic convergence makes it exact to machine precision), no line search
            for a in range(k):
                w[a] += step[a]
            _latent(PA, k, w, f)
            obj = _objective(t, f, alpha, w, k, e)
            break
        lr = 1.0
        on = -np.inf
        while lr > 1e-10:
            for a in range(k):
                wn[a] = w[a] + lr * step[a]
            _latent(PA, k, wn, fn)
            on = _objective(t, fn, alpha, wn, k, en)
            if on >= obj + 1e-4 * lr * dec:
                break
            lr *= 0.5
        if on < obj:
            break
        for a in range(k):
            w[a] = wn[a]
        for i in range(n):
            f[i] = fn[i]
            e[i] = en[i]
        obj = on
    for i in range(n):
        s = _sigmoid(f[i], e[i])
        beta[i] = s * (1.0 - s)
    _hessian(PA, k, beta, alpha, H, PB)
    prior = 0.0
    for a in range(k):
        prior += alpha[a] * w[a] * w[a]
    if not _cholesky(H, k, L):
        return np.nan, np.nan
    return obj, obj + 0.5 * prior


@njit(cache=True)
def _grow(active, alpha, w, PA, L, k, cap):
    """Copies of the per-basis-function state with room for ``cap`` basis functions (the first k kept)."""
    n = PA.shape[1]
    a2 = np.empty(cap, np.int64)
    al2 = np.empty(cap)
    w2 = np.empty(cap)
    PA2 = np.empty((cap, n))
    L2 = np.zeros((cap, cap))
    a2[:k] = active[:k]
    al2[:k] = alpha[:k]
    w2[:k] = w[:k]
    PA2[:k] = PA[:k]
    L2[:k, :k] = L[:k, :k]
    return a2, al2, w2, PA2, L2


_HISTORY = 64  # additions / deletions remembered by the cycle guard


@njit(cache=True)
def _mix(m):
    """A 64-bit hash of a basis index (splitmix64 finaliser); a basis set's hash is the xor over its members."""
    z = np.uint64(m) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z)


_BLAS_MIN = 200_000  # M · n · (|A| + 1) above which Φᵀ[Bt̂, Rᵀ] goes to BLAS rather than row-by-row dots


@njit(cache=True)
def _fast_rvm(PhiT, t, usable, max_iter, tol, max_newton, damp_ratio, damp_after):
    """Tipping & Faul's constructive marginal-likelihood maximisation for Bernoulli targets (see the module doc).

    PhiT: M × n, one unit-length basis vector per row; t: targets in {0, 1}; usable: basis vectors that may be added.
    Returns (active indices sorted, their α, weights w at the mode, posterior covariance Σ, latent values Φ_A w on the
    training samples, log evidence, iterations, status: 0 converged, 1 max_iter reached, 2 numerical failure).
    """
    M, n = PhiT.shape
    cap = 8
    active = np.empty(cap, np.int64)
    alpha = np.empty(cap)
    w = np.empty(cap)
    PA = np.empty((cap, n))
    L = np.zeros((cap, cap))
    H = np.empty((cap, cap))
    PB = np.empty((cap, n))
    Wt = np.empty((cap + 1, n))  # rows: B t̂, then R = L⁻¹ Φ_AᵀB
    wn_ = np.empty((5, n))
    wk_ = np.empty((4, cap))
    zt = np.empty(cap)
    pos = np.full(M, -1, np.int64)
    last_dlog = np.zeros(M)
    damp = np.ones(M)
    nflip = np.zeros(M, np.int64)
    # cycle guard: the models the loop was in before each addition / deletion (hash of the basis set, evidence), the
    # step taken there, and the steps blocked in given models
    no_add = np.zeros(M, np.bool_)
    no_del = np.zeros(M, np.bool_)
    h_hash = np.zeros(_HISTORY, np.int64)
    h_ev = np.zeros(_HISTORY)
    n_hist = 0
    t_hash = np.zeros(_HISTORY, np.int64)
    t_type = np.zeros(_HISTORY, np.int64)
    t_m = np.zeros(_HISTORY, np.int64)
    n_tabu = 0
    hset = np.int64(0)
    f = np.zeros(n)
    beta = np.empty(n)
    that = np.empty(n)
    k = 0
    have_factor = False
    loglik = 0.0
    status = STATUS_MAX_ITER
    it = 0
    P = np.empty((1, 1))
    for it in range(1, max_iter + 1):
        if k > 0:
            obj, loglik = _posterior_mode(PA, k, t, alpha, w, f, L, H, have_factor, max_newton, PB, wn_, wk_, loglik)
            if not np.isfinite(obj):
                status = STATUS_NUMERICAL
                break
            ev = obj
            for a in range(k):
                ev += 0.5 * math.log(alpha[a]) - math.log(L[a, a])
        else:
            for i in range(n):
                f[i] = 0.0
            ev = _objective(t, f, alpha, w, 0, wn_[3])
            loglik = ev
        have_factor = False
        # the Gaussian model at the mode: B, t̂, R = L⁻¹Φ_AᵀB (row by row), zt = R t̂
        e = wn_[3]
        for i in range(n):
            s = _sigmoid(f[i], e[i])
            b = max(s * (1.0 - s), 1e-12)
            beta[i] = b
            that[i] = f[i] + (t[i] - s) / b
            Wt[0, i] = b * that[i]
        for a in range(k):
            row = Wt[1 + a]
            for i in range(n):
                row[i] = PA[a, i] * beta[i]
            for p in range(a):
                lap = L[a, p]
                src = Wt[1 + p]
                for i in range(n):
                    row[i] -= lap * src[i]
            inv = 1.0 / L[a, a]
            for i in range(n):
                row[i] *= inv
            zt[a] = _dot(row, that, n)
        for j in range(min(n_tabu, _HISTORY)):  # steps blocked in this model
            if t_hash[j] == hset:
                if t_type[j] == 0:
                    no_add[t_m[j]] = True
                else:
                    no_del[t_m[j]] = True
        # S_m = φ_mᵀBφ_m − ‖R φ_m‖², Q_m = φ_mᵀBt̂ − (R φ_m)·zt, one basis vector at a time
        use_blas = M * n * (k + 1) > _BLAS_MIN
        if use_blas:
            P = np.dot(PhiT, Wt[: k + 1].T)
        any_add = False
        any_del = False
        max_dlog = 0.0
        best = -np.inf
        bm = -1
        bnew = 0.0
        bS = 0.0
        finite = True
        for m in range(M):
            phi = PhiT[m]
            d = _wsq(phi, beta, n)
            z2 = 0.0
            zq = 0.0
            if use_blas:
                q0 = P[m, 0]
                for a in range(k):
                    z = P[m, 1 + a]
                    z2 += z * z
                    zq += z * zt[a]
            else:
                q0 = _dot(phi, Wt[0], n)
                for a in range(k):
                    z = _dot(phi, Wt[1 + a], n)
                    z2 += z * z
                    zq += z * zt[a]
            Sm = d - z2
            Qm = q0 - zq
            if not (np.isfinite(Sm) and np.isfinite(Qm)):
                finite = False
                break
            p = pos[m]
            if p >= 0:
                am = alpha[p]
                den = am - Sm
                s_ = am * Sm / den
                q_ = am * Qm / den
            else:
                am = np.inf
                s_ = Sm
                q_ = Qm
            theta = q_ * q_ - s_
            gm = -np.inf
            na = np.inf
            if p < 0:
                if theta > 0.0 and usable[m] and not no_add[m]:
                    any_add = True
                    na = s_ * s_ / theta
                    gm = 0.5 * ((Qm * Qm - Sm) / Sm + math.log(Sm / (Qm * Qm)))
            elif theta > 0.0:
                na = s_ * s_ / theta
                dinv = 1.0 / na - 1.0 / am
                if dinv == 0.0:
                    gm = 0.0
                else:
                    gm = 0.5 * (Qm * Qm / (Sm + 1.0 / dinv) - math.log1p(Sm * dinv))
                dl = abs(math.log(na / am))
                if dl > max_dlog:
                    max_dlog = dl
            elif not no_del[m]:
                any_del = True
                if k > 1:
                    gm = 0.5 * (Qm * Qm / (Sm - am) - math.log1p(-Sm / am))
            if gm > best:
                best = gm
                bm = m
                bnew = na
                bS = Sm
        if not finite:
            status = STATUS_NUMERICAL
            break
        if not any_add and not (any_del and k > 1) and max_dlog < tol:
            status = STATUS_CONVERGED
            break
        if bm < 0:
            status = STATUS_CONVERGED
            break
        for j in range(min(n_tabu, _HISTORY)):
            if t_hash[j] == hset:
                no_add[t_m[j]] = False
                no_del[t_m[j]] = False
        p = pos[bm]
        btype = 0 if p < 0 else (1 if np.isfinite(bnew) else 2)
        if btype != 1:
            # safeguard (2), cycle guard: back in a model the loop has been in before (same basis set, same evidence),
            # it would repeat the same steps for ever; stay in the best model of that cycle and block the step taken
            # there (until the loop reaches this model by another route)
            tol_ev = 1e-9 * (1.0 + abs(ev))
            for back in range(1, min(n_hist, _HISTORY) + 1):
                j = (n_hist - back) % _HISTORY
                if h_hash[j] == hset and abs(h_ev[j] - ev) <= tol_ev:
                    best_cycle = ev
                    for b2 in range(1, back + 1):
                        best_cycle = max(best_cycle, h_ev[(n_hist - b2) % _HISTORY])
                    if ev >= best_cycle - tol_ev:
                        jt = n_tabu % _HISTORY
                        t_hash[jt] = hset
                        t_type[jt] = btype
                        t_m[jt] = bm
                        n_tabu += 1
                        have_factor = True
                        bm = -2
                    break
            if bm == -2:
                continue
            h_hash[n_hist % _HISTORY] = hset
            h_ev[n_hist % _HISTORY] = ev
            n_hist += 1
            hset ^= _mix(bm)
        if btype == 0:  # add: the Hessian gains one row, L one row: [L⁻¹Φ_AᵀBφ_m, √(α_m + S_m)]
            if k == cap:
                cap *= 2
                active, alpha, w, PA, L = _grow(active, alpha, w, PA, L, k, cap)
                H = np.empty((cap, cap))
                PB = np.empty((cap, n))
                Wt2 = np.empty((cap + 1, n))
                Wt2[: k + 1] = Wt[: k + 1]
                Wt = Wt2
                wk_ = np.empty((4, cap))
                zt = np.empty(cap)
            active[k] = bm
            alpha[k] = bnew
            w[k] = 0.0
            PA[k] = PhiT[bm]
            for a in range(k):
                L[k, a] = P[bm, 1 + a] if use_blas else _dot(PhiT[bm], Wt[1 + a], n)
                L[a, k] = 0.0
            L[k, k] = math.sqrt(bnew + bS)
            pos[bm] = k
            k += 1
            last_dlog[bm] = 0.0
            damp[bm] = 1.0
            nflip[bm] = 0
            have_factor = True
        elif btype == 1:  # re-estimate: rank-one change of the Hessian's diagonal
            am = alpha[p]
            dl = math.log(bnew / am)
            # safeguard (1): damp a re-estimation that keeps reversing the last one without shrinking
            if last_dlog[bm] * dl < 0.0 and abs(dl) >= damp_ratio * abs(last_dlog[bm]):
                nflip[bm] += 1
                if nflip[bm] >= damp_after:
                    damp[bm] *= 0.5
            else:
                nflip[bm] = 0
            dl *= damp[bm]
            newa = bnew if damp[bm] == 1.0 else am * math.exp(dl)
            last_dlog[bm] = dl
            alpha[p] = newa
            have_factor = _chol_rank1(L, k, p, newa - am)
        else:  # delete
            for a in range(p, k - 1):
                active[a] = active[a + 1]
                alpha[a] = alpha[a + 1]
                w[a] = w[a + 1]
                PA[a] = PA[a + 1]
                pos[active[a]] = a
            pos[bm] = -1
            k -= 1
            have_factor = False
    # final posterior at the returned α, in index order
    order = np.argsort(active[:k])
    act = active[:k][order].copy()
    al = alpha[:k][order].copy()
    wf = w[:k][order].copy()
    PAf = PA[:k][order].copy()
    Lf = np.zeros((k, k))
    Hf = np.empty((k, k))
    fF = np.zeros(n)
    Sigma = np.zeros((k, k))
    logev = np.nan
    if status != STATUS_NUMERICAL:
        if k > 0:
            obj = _posterior_mode(PAf, k, t, al, wf, fF, Lf, Hf, False, max_newton, PB, wn_, wk_, 0.0)[0]
        else:
            obj = _objective(t, fF, al, wf, 0, wn_[3])
        if np.isfinite(obj):
            logdet = 0.0
            ld = 0.0
            for a in range(k):
                logdet += math.log(Lf[a, a])
                ld += math.log(al[a])
            logev = obj + 0.5 * ld - logdet
            # Σ = L⁻ᵀ L⁻¹
            e = np.zeros(k)
            tmp = np.empty(k)
            colv = np.empty(k)
            for j in range(k):
                e[:] = 0.0
                e[j] = 1.0
                _forward(Lf, k, e, tmp)
                _backward(Lf, k, tmp, colv)
                for a in range(k):
                    Sigma[a, j] = colv[a]
        else:
            status = STATUS_NUMERICAL
    return act, al, wf, Sigma, fF, logev, it, status


@njit(cache=True)
def _scale_centre(X, centre, transpose):
    """X / s − μ (μ the column means of X / s; μ = 0 if not ``centre``), with s = 2^e the power of two just above
    max |X|, so the division is exact and nothing overflows. Also: the per-column max |X| / s and whether each
    column is exactly constant (centred, its entries are then exactly 0). Output n × d, or d × n if ``transpose``.
    Returns (out, μ, s, colmax, constant)."""
    n, d = X.shape
    colmax = np.zeros(d)
    sums = np.zeros(d)
    const = np.ones(d, np.bool_)
    x0 = X[0]
    for i in range(n):
        xi = X[i]
        for g in range(d):
            v = xi[g]
            a = abs(v)
            colmax[g] = a if a > colmax[g] else colmax[g]
            sums[g] += v
            const[g] = const[g] and v == x0[g]
    gmax = 0.0
    for g in range(d):
        if colmax[g] > gmax:
            gmax = colmax[g]
    s = 1.0
    if gmax > 0.0:
        _, e = math.frexp(gmax)
        s = math.ldexp(1.0, e)
    inv = 1.0 / s
    mu = np.zeros(d)
    if centre:
        ok = True
        for g in range(d):
            mu[g] = sums[g] * inv / n  # power-of-two scaling commutes with rounding: = Σ (x / s) / n
            ok = ok and np.isfinite(sums[g])
        if not ok:  # Σ x overflowed (|x| near the largest double): sum the scaled values instead
            mu[:] = 0.0
            for i in range(n):
                for g in range(d):
                    mu[g] += X[i, g] * inv
            for g in range(d):
                mu[g] /= n
        for g in range(d):
            if const[g]:
                mu[g] = x0[g] * inv
    out = np.empty((d, n)) if transpose else np.empty((n, d))
    for i in range(n):
        xi = X[i]
        for g in range(d):
            v = 0.0 if (centre and const[g]) else xi[g] * inv - mu[g]
            if transpose:
                out[g, i] = v
            else:
                out[i, g] = v
    for g in range(d):
        colmax[g] *= inv
    return out, mu, s, colmax, const


@njit(cache=True)
def _normalise_rows(PhiT):
    """Scale every row to unit length in place (rows of zeros stay zero); returns the row norms, computed without
    overflow or underflow (rows scaled by their largest entry first)."""
    M, n = PhiT.shape
    norms = np.zeros(M)
    for m in range(M):
        mx = 0.0
        for i in range(n):
            v = abs(PhiT[m, i])
            if v > mx:
                mx = v
        if mx == 0.0:
            continue
        ss = 0.0
        for i in range(n):
            v = PhiT[m, i] / mx
            ss += v * v
        nr = mx * math.sqrt(ss)
        norms[m] = nr
        for i in range(n):
            PhiT[m, i] = (PhiT[m, i] / mx) / math.sqrt(ss)
    return norms


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
    obj = _posterior_mode(PA, k, (np.asarray(t) > 0).astype(np.float64), np.asarray(alpha, dtype=np.float64), w, f,
                          L, np.empty((k, k)), False, int(max_iter), np.empty((k, n)), np.empty((5, n)),
                          np.empty((4, k)), 0.0)[0]
    if not np.isfinite(obj):
        raise np.linalg.LinAlgError("rvm_posterior_mode: the Hessian is not numerically positive definite")
    return w, L.T.copy(), f, float(obj)


# -------------------------------------------------------------------------------------------------------- estimator
class RVM(ClassifierMixin, BaseEstimator):
    """Sparse Bayesian (relevance vector machine) classifier, binary, with the fast marginal-likelihood algorithm.

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
    """

    def __init__(self, kernel="linear", gamma=None, degree=3, coef0=1.0, bias=True, max_iter=2000, tol=1e-3):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
        self.max_iter = max_iter
        self.tol = tol

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        """Fit on expression data ``X`` (samples × genes; n × n Gram matrix if kernel="precomputed"), binary y."""
        # tiny n × n / n × d BLAS calls: OpenBLAS threads only add overhead (and thrash a loaded machine)
        with blas_threads_for(_num_samples(X), _SINGLE_THREAD_MAX_N):
            return self._fit(X, y)

    def _check_params(self):
        if self.kernel not in _KERNELS:
            raise ValueError(f"RVM: kernel must be one of {_KERNELS}, got {self.kernel!r}")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"RVM: max_iter must be a positive integer, got {self.max_iter!r}")
        if not isinstance(self.tol, numbers.Real) or not self.tol > 0:
            raise ValueError(f"RVM: tol must be a positive number, got {self.tol!r}")
        if self.gamma is not None and (not isinstance(self.gamma, numbers.Real) or not 0 < self.gamma < np.inf):
            raise ValueError(f"RVM: gamma must be a positive number or None (data-relative), got {self.gamma!r}")

    def _fit(self, X, y):
        self._check_params()
        X, y_pm, self.classes_ = check_binary_fit(self, X, y, min_samples=2)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"RVM: kernel='precomputed' needs a square Gram matrix, got shape {X.shape}")
        t = (y_pm > 0).astype(float)
        PhiT, usable, Xs, self._scale, self._mu_s, self._gamma_s = self._design(X)
        self.center_ = None if self._mu_s is None else self._mu_s * self._scale
        norms = _normalise_rows(PhiT)
        usable &= norms > 0
        if self.kernel is not None:
            # a kernel column that is zero to rounding (a sample at the centre) cannot be a basis function
            kn = norms[: X.shape[0]]
            usable[: X.shape[0]] &= kn > 1e-12 * kn.max()
        active, alpha, w, Sigma, f, logev, n_iter, status = _fast_rvm(
            PhiT, t, usable, int(self.max_iter), float(self.tol), _MAX_NEWTON, _DAMP_RATIO, _DAMP_AFTER)
        if status == STATUS_NUMERICAL:
            raise ValueError(
                "RVM: the fit broke down numerically (a posterior Hessian lost positive definiteness); the basis "
                "functions are probably near-duplicates at this data scale: standardise the genes or drop duplicated "
                "ones")
        self.n_basis_ = PhiT.shape[0] - int(self.bias)
        self.active_ = active
        self.log_marginal_likelihood_ = float(logev)
        self.n_iter_ = int(n_iter)
        self._set_public(X, Xs, active, alpha, w, Sigma, norms)
        self.converged_ = status == STATUS_CONVERGED
        if status == STATUS_MAX_ITER:
            warnings.warn(
                f"RVM: stopped after max_iter={self.max_iter} add/delete/re-estimate steps before the marginal "
                "likelihood converged; the model may not be a local optimum: raise max_iter (or tol)",
                ConvergenceWarning, stacklevel=3)
        self._check_degenerate(f)
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
            Xs, mu, s, _, _ = _scale_centre(X, centre, self.kernel is None)
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

    def _check_degenerate(self, f):
        one_class = bool(np.all(f > 0) or np.all(f <= 0))
        only_bias = self.active_.size == 0 or (self.bias and np.all(self.active_ == self.n_basis_))
        if not (one_class or only_bias):
            return
        self.converged_ = False
        what = "gene" if self.kernel is None else "kernel basis function"
        kept = ("no basis function at all" if self.active_.size == 0 else
                "only the bias" if only_bias else f"{self.active_.size} basis function(s)")
        warnings.warn(
            f"RVM: a constant predictor: the evidence kept {kept}, and the model predicts one class "
            f"({self.classes_[int(f[0] > 0)]}) for every training sample. No {what} explained the labels better "
            "than the class frequencies: either the data carry no signal this model can use, or the inputs are at a "
            "scale the basis cannot resolve (gamma or degree far from the data's scale, bias=False on uncentred "
            "data). Standardise the genes, use gamma=None, or check the labels",
            UserWarning, stacklevel=3)

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
        """Latent score φ(x)ᵀw* (log-odds of classes_[1])."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, ensure_all_finite=False)
        X = check_expression_data(X, name="X", allow_constant=True, min_samples=1)
        return self._decision_internal(X)

    def predict_proba(self, X):
        """Class probabilities (n, 2): σ(φ(x)ᵀw*) for classes_[1]."""
        p1 = 0.5 * (1.0 + np.tanh(0.5 * self.decision_function(X)))
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
