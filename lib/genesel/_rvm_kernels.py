"""The numba kernels of :mod:`genesel.rvm`: Tipping & Faul's fast marginal-likelihood maximisation for Bernoulli
targets (:func:`fast_rvm`), the posterior mode by damped Newton / IRLS (:func:`posterior_mode`), and the exact
power-of-two scaling and centring of the data (:func:`scale_centre`).

M. E. Tipping, *Sparse Bayesian Learning and the Relevance Vector Machine*, JMLR 1, 2001 (Sec. 4: Laplace
approximation by IRLS); M. E. Tipping, A. C. Faul, *Fast Marginal Likelihood Maximisation for Sparse Bayesian
Models*, AISTATS 2003 (Eqs. 19-22: sparsity and quality factors; Eqs. 27-29: the gains of add, re-estimate and
delete; Sec. 4: the constructive algorithm). The model, the safeguards and the units are described in
:mod:`genesel.rvm`, which holds the estimator; this module holds only array code.

Implementation. C is never formed: by the Woodbury identity C⁻¹ = B − BΦ_A Σ Φ_Aᵀ B, so with the Cholesky factor
L of the Hessian ΦᵀBΦ + A (Σ = L⁻ᵀL⁻¹) and R = L⁻¹Φ_AᵀB, all S_m, Q_m come from one matrix product Φᵀ[Bt̂, Rᵀ]:
O(n·M·|A|) time, O(n·M) memory for M candidate basis functions (thousands of genes, tens of samples: nothing of
size M × M or n × n × M is built). The factor L is carried from one action to the next instead of being rebuilt:
an addition appends one row (L⁻¹Φ_AᵀBφ_m is already a column of that product and the new diagonal is
√(α_m + S_m)), a re-estimation is a rank-one Cholesky update or downdate of the diagonal entry
(:func:`genesel._core.linalg.chol_update_diag`); the factor starts the warm-started Newton iteration of the next
mode. Newton steps that move the mode change B, and only those refactorise (|A| × |A|, |A| is a handful;
:func:`genesel._core.linalg.cholesky`). Basis vectors arrive scaled to unit length
(:func:`genesel._core.linalg.normalise_rows`, as in Tipping's SparseBayes).

Every kernel works on arrays only; plain-Python twin of :func:`fast_rvm` and :func:`posterior_mode` in
``tests/naive/rvm.py``. Not public API.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from genesel._core.fastmath import dot as _dot
from genesel._core.linalg import backward_solve, chol_update_diag, cholesky, forward_solve

MAX_NEWTON = 100  # Newton (IRLS) steps per posterior mode
DAMP_RATIO = 0.9  # safeguard (1): a reversal that keeps ≥ 90 % of the previous log-α step does not contract;
DAMP_AFTER = 3  # from the third such reversal in a row on, each one halves the step on that log α
STATUS_CONVERGED, STATUS_MAX_ITER, STATUS_NUMERICAL = 0, 1, 2

__all__ = ["fast_rvm", "posterior_mode", "scale_centre", "MAX_NEWTON", "DAMP_RATIO", "DAMP_AFTER", "STATUS_CONVERGED",
           "STATUS_MAX_ITER", "STATUS_NUMERICAL"]

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
def posterior_mode(PA, k, t, alpha, w, f, L, H, have_factor, max_newton, PB, wn_, wk_, loglik):
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
            if not cholesky(H, k, L, 0.0):
                return np.nan, np.nan
        have_factor = False
        forward_solve(L, k, g, tmp)
        backward_solve(L, k, tmp, step)
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
    if not cholesky(H, k, L, 0.0):
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
def fast_rvm(PhiT, t, usable, max_iter, tol, max_newton, damp_ratio, damp_after):
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
    k = np.int64(0)  # typed: a bare 0 would compile posterior_mode and _grow once more (tests/test_jit_signatures.py)
    have_factor = np.bool_(False)  # typed, as k: a bare False would compile posterior_mode once more
    loglik = 0.0
    status = STATUS_MAX_ITER
    it = 0
    P = np.empty((1, 1))
    for it in range(1, max_iter + 1):  # noqa: B007 (the count of iterations is returned after the loop)
        if k > 0:
            obj, loglik = posterior_mode(PA, k, t, alpha, w, f, L, H, have_factor, max_newton, PB, wn_, wk_, loglik)
            if not np.isfinite(obj):
                status = STATUS_NUMERICAL
                break
            ev = obj
            for a in range(k):
                ev += 0.5 * math.log(alpha[a]) - math.log(L[a, a])
        else:
            for i in range(n):
                f[i] = 0.0
            ev = _objective(t, f, alpha, w, np.int64(0), wn_[3])
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
            have_factor = chol_update_diag(L, k, p, newa - am)
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
            obj = posterior_mode(PAf, k, t, al, wf, fF, Lf, Hf, np.bool_(False), max_newton, PB, wn_, wk_, 0.0)[0]
        else:
            obj = _objective(t, fF, al, wf, np.int64(0), wn_[3])
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
                forward_solve(Lf, k, e, tmp)
                backward_solve(Lf, k, tmp, colv)
                for a in range(k):
                    Sigma[a, j] = colv[a]
        else:
            status = STATUS_NUMERICAL
    return act, al, wf, Sigma, fF, logev, it, status


@njit(cache=True)
def scale_centre(X, centre, transpose):
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
