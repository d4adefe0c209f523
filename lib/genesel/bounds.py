"""Risk bounds for conjunctions of decision stumps: Occam's razor, sample compression and PAC-Bayes.

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and Learning from
Microarray Data*, IEEE TPAMI 34(1), 2012:

- §3: the binomial tail Bin(κ, m, r) = Σ_{i≤κ} C(m, i) r^i (1−r)^{m−i} and its inversion
  Bin-bar(κ, m, δ) = sup{r : Bin(κ, m, r) ≥ δ} (Langford 2005), which is the (1−δ) quantile of the
  Beta(κ+1, m−κ) distribution (:func:`binomial_tail`, :func:`binomial_tail_inversion`);
  the Occam's razor bound of Theorem 2 with the prior P(k, d, σ) = p(|k|) g(σ) / (C(n, |k|) 2^|k|),
  p(d) = 6/π² (d+1)^−2, g(σ) = Π_i ζ(l_i) 2^−l_i and ζ(a) = 6/π² (a+1)^−2 (Eqs. 1-3), where l_i is the number
  of bits of the dyadic code of threshold i: the smallest l for which the set
  Λ_l = {(1 − (2j−1)/2^{l+1}) A + (2j−1)/2^{l+1} B : j = 1..2^l} has a point in the stump's interval of
  equally good thresholds (:func:`dyadic_threshold`, :func:`occam_bound`).
- §4: the sample compression bound of Theorem 3 with the message distribution of Eq. 4,
  P(σ) = C(n, |k|)^−1 2^−|k| (:func:`sample_compression_bound`).
- §5: kl(q‖p) between Bernoulli distributions, its inversion sup{ε : kl(q‖ε) ≤ c} (:func:`kl_inverse`), and the
  PAC-Bayes bound of Theorem 5 for the Gibbs classifier whose thresholds are uniform on margin intervals
  [a_k, b_k] ⊆ [A_k, B_k] (:func:`pac_bayes_bound`); the Bayes classifier's risk is at most twice it.

Everything is vectorised over numpy arrays and exact in double precision: Bin-bar is computed from the upper tail
of the Beta distribution (so δ down to 1e-300 keeps full relative precision; smaller δ, passed as ``log_delta``,
is solved in log space), kl-inversion by bisection to the last bit. The priors are computed in log space, so
conjunctions of many stumps on many genes never underflow.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

__all__ = ["stump_count_prior", "zeta", "binomial_tail", "log_binomial_tail", "binomial_tail_inversion",
           "dyadic_threshold", "occam_log_prior", "occam_bound", "sample_compression_bound", "kl_bernoulli",
           "kl_inverse", "pac_bayes_kl", "pac_bayes_bound"]

_LOG_6_PI2 = np.log(6.0 / np.pi**2)
_LN2 = np.log(2.0)


# ----------------------------------------------------------------------------------------------------------------
# priors
# ----------------------------------------------------------------------------------------------------------------


def _nonneg_int(a, name):
    arr = np.asarray(a)
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "f" and np.all(np.isfinite(arr))
                                          and np.all(arr == np.round(arr))):
        raise TypeError(f"{name} must hold non-negative integers, got {a!r}")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative, got {a!r}")
    return arr.astype(np.int64)


def zeta(a):
    """ζ(a) = 6/π² (a+1)^−2 for a = 0, 1, 2, ... (Eq. 3); it sums to 1 over the non-negative integers."""
    a = _nonneg_int(a, "a")
    return 6.0 / np.pi**2 / (a + 1.0) ** 2


def stump_count_prior(d):
    """p(d) = 6/π² (d+1)^−2, the prior on the number d of stumps in a conjunction (§3); the same as ζ."""
    return zeta(d)


def _log_zeta(a):
    return _LOG_6_PI2 - 2.0 * np.log1p(np.asarray(a, dtype=float))


def _log_comb(n, k):
    n = np.asarray(n, dtype=float)
    k = np.asarray(k, dtype=float)
    return special.gammaln(n + 1.0) - special.gammaln(k + 1.0) - special.gammaln(n - k + 1.0)


# ----------------------------------------------------------------------------------------------------------------
# binomial tail and its inversion (section 3)
# ----------------------------------------------------------------------------------------------------------------


def _check_km(k, m):
    k = _nonneg_int(k, "k")
    m = _nonneg_int(m, "m")
    if np.any(m < 1):
        raise ValueError(f"m (the number of examples) must be at least 1, got {m!r}")
    if np.any(k > m):
        raise ValueError(f"k (the number of errors) cannot exceed m (the number of examples): k={k!r}, m={m!r}")
    return np.broadcast_arrays(k, m)


def binomial_tail(k, m, r):
    """Bin(k, m, r): the probability of at most ``k`` errors in ``m`` independent trials of error rate ``r``."""
    k, m = _check_km(k, m)
    r = np.asarray(r, dtype=float)
    if np.any((r < 0) | (r > 1)) or np.any(np.isnan(r)):
        raise ValueError(f"r must lie in [0, 1], got {r!r}")
    # Bin(k, m, r) = I_{1-r}(m - k, k + 1) (regularised incomplete beta), = 1 when k = m
    k, m, r = np.broadcast_arrays(k, m, r)
    out = np.ones(k.shape)
    lt = k < m
    out[lt] = special.betainc((m - k)[lt].astype(float), (k + 1)[lt].astype(float), 1.0 - r[lt])
    return out[()] if out.ndim == 0 else out


def log_binomial_tail(k, m, r):
    """log Bin(k, m, r), accurate where Bin underflows (a log-sum-exp over the k+1 binomial terms)."""
    k, m = _check_km(k, m)
    r = np.asarray(r, dtype=float)
    k, m, r = np.broadcast_arrays(k, m, r)
    out = np.empty(k.shape, dtype=float)
    for idx in np.ndindex(k.shape):
        kk, mm, rr = int(k[idx]), int(m[idx]), float(r[idx])
        if kk >= mm:
            out[idx] = 0.0
            continue
        if rr <= 0.0:
            out[idx] = 0.0
            continue
        if rr >= 1.0:
            out[idx] = -np.inf
            continue
        i = np.arange(kk + 1, dtype=float)
        terms = _log_comb(mm, i) + i * np.log(rr) + (mm - i) * np.log1p(-rr)
        out[idx] = special.logsumexp(terms)
    return out[()] if out.ndim == 0 else out


def binomial_tail_inversion(k, m, delta=None, *, log_delta=None):
    """Bin-bar(k, m, δ) = sup{r : Bin(k, m, r) ≥ δ}, the largest true risk still consistent, with probability δ,
    with at most ``k`` errors on ``m`` examples (Langford 2005; §3 of the paper).

    It is the (1−δ) quantile of Beta(k+1, m−k) (1 when k = m), computed as 1 − I⁻¹_δ(m−k, k+1) so that small δ
    keeps its precision. Pass ``log_delta`` instead of ``delta`` for δ below the double range (tiny priors):
    then r is found by bisection on :func:`log_binomial_tail`.
    """
    k, m = _check_km(k, m)
    if (delta is None) == (log_delta is None):
        raise TypeError("give exactly one of delta or log_delta")
    if delta is not None:
        d = np.asarray(delta, dtype=float)
        if np.any(~(d > 0) | (d > 1)):
            raise ValueError(f"delta must lie in (0, 1], got {delta!r}")
        ld = np.log(d)
    else:
        ld = np.asarray(log_delta, dtype=float)
        if np.any(ld > 0) or np.any(np.isnan(ld)):
            raise ValueError(f"log_delta must be <= 0, got {log_delta!r}")
    k, m, ld = np.broadcast_arrays(k, m, ld)
    out = np.ones(k.shape, dtype=float)
    lt = k < m
    small = ld < -700.0  # exp underflows: solve in log space
    direct = lt & ~small
    if np.any(direct):
        kk, mm, dd = k[direct].astype(float), m[direct].astype(float), np.exp(ld[direct])
        out[direct] = 1.0 - special.betaincinv(mm - kk, kk + 1.0, dd)
        zero_err = k[direct] == 0  # closed form (1 - r)^m = delta, more precise for r near 0
        if np.any(zero_err):
            vals = out[direct]
            vals[zero_err] = -np.expm1(ld[direct][zero_err] / mm[zero_err])
            out[direct] = vals
    for idx in np.ndindex(k.shape):
        if not (lt[idx] and small[idx]):
            continue
        kk, mm, target = int(k[idx]), int(m[idx]), float(ld[idx])
        lo, hi = kk / mm, 1.0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if mid <= lo or mid >= hi:
                break
            if log_binomial_tail(kk, mm, mid) >= target:
                lo = mid
            else:
                hi = mid
        out[idx] = lo
    return out[()] if out.ndim == 0 else out


# ----------------------------------------------------------------------------------------------------------------
# Occam's razor (section 3, Theorem 2)
# ----------------------------------------------------------------------------------------------------------------


def dyadic_threshold(a, b, A, B, *, max_bits: int = 60):
    """The shortest dyadic code of a threshold strictly inside (a, b), with A ≤ a < b ≤ B (§3).

    Λ_l holds the 2^l points A + (2j−1)/2^{l+1} (B−A); the code needs the smallest l for which some point of
    Λ_l lies in (a, b). Returns ``(bits, threshold)`` (arrays); where no point exists within ``max_bits`` bits
    (an empty or a floating-point-thin interval) ``bits`` is −1 and ``threshold`` NaN.
    """
    a, b, A, B = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, A, B)))
    bits = np.full(a.shape, -1, dtype=np.int64)
    thr = np.full(a.shape, np.nan)
    todo = (B > A) & (b > a) & (a >= A) & (b <= B)
    span = np.where(todo, B - A, 1.0)
    for kk in range(1, max_bits + 2):
        if not todo.any():
            break
        scale = 2.0**kk
        lo = np.floor((a - A) / span * scale) + 1.0  # the smallest integer strictly above u * 2^k
        t = A + span * (lo / scale)
        ok = todo & (t > a) & (t < b) & (lo < scale)
        bits[ok] = kk - 1
        thr[ok] = t[ok]
        todo &= ~ok
    return bits, thr


def occam_log_prior(n_features, bits):
    """log P(k, d, σ) of Theorem 2 for one conjunction: ``bits`` lists l_i for each of its |k| stumps."""
    bits = _nonneg_int(np.atleast_1d(bits), "bits")
    kk = bits.size
    n = int(n_features)
    if kk > n:
        raise ValueError(f"a conjunction of {kk} stumps needs at least {kk} genes, got n_features={n}")
    return float(_log_zeta(kk) - _log_comb(n, kk) - kk * _LN2 + np.sum(_log_zeta(bits) - bits * _LN2))


def occam_bound(n_errors, m, n_features, bits, delta=0.05):
    """Theorem 2: with probability ≥ 1−δ, R(C) ≤ Bin-bar(m R_S(C), m, p(|k|) g(σ) δ / (C(n, |k|) 2^|k|)).

    ``n_errors`` training errors of the conjunction on ``m`` examples, ``n_features`` genes n, ``bits`` the code
    lengths l_i of its thresholds (one per stump; an empty list is the empty conjunction).
    """
    if not 0 < delta <= 1:
        raise ValueError(f"delta must lie in (0, 1], got {delta!r}")
    ld = np.log(delta) + occam_log_prior(n_features, bits)
    return float(binomial_tail_inversion(int(n_errors), int(m), log_delta=ld))


# ----------------------------------------------------------------------------------------------------------------
# sample compression (section 4, Theorem 3 with Eq. 4)
# ----------------------------------------------------------------------------------------------------------------


def sample_compression_bound(n_stumps, n_errors, m, n_features, delta=0.05):
    """Theorem 3 with the message distribution of Eq. 4: with probability ≥ 1−δ,

    R ≤ 1 − exp(−[ln C(m, |i|) + ln C(m−|i|, |j|) + ln C(n, |k|) + |k| ln 2 − ln(ζ(|i|) ζ(|j|) δ)] / (m − |i| − |j|))

    with |i| = |k| = ``n_stumps`` (one compression example per stump) and |j| = ``n_errors``, the training errors
    made on the examples outside the compression set. Returns 1 where m − |i| − |j| ≤ 0. Vectorised.
    """
    if not 0 < delta <= 1:
        raise ValueError(f"delta must lie in (0, 1], got {delta!r}")
    i = _nonneg_int(n_stumps, "n_stumps")
    j = _nonneg_int(n_errors, "n_errors")
    m = _nonneg_int(m, "m")
    n = _nonneg_int(n_features, "n_features")
    i, j, m, n = np.broadcast_arrays(i, j, m, n)
    if np.any(i > n):
        raise ValueError("n_stumps cannot exceed n_features (one stump per gene)")
    rest = (m - i - j).astype(float)
    ok = (rest > 0) & (i + j <= m)
    with np.errstate(invalid="ignore", divide="ignore"):
        cost = (_log_comb(m, i) + _log_comb(np.maximum(m - i, 0), j) + _log_comb(n, i) + i * _LN2
                - _log_zeta(i) - _log_zeta(j) - np.log(delta))
        eps = -np.expm1(-cost / np.where(ok, rest, 1.0))
    out = np.where(ok, eps, 1.0)
    return out[()] if out.ndim == 0 else out


# ----------------------------------------------------------------------------------------------------------------
# PAC-Bayes (section 5, Theorems 4 and 5)
# ----------------------------------------------------------------------------------------------------------------


def kl_bernoulli(q, p):
    """kl(q‖p) = q ln(q/p) + (1−q) ln((1−q)/(1−p)), with 0 ln 0 = 0 (∞ where p = 0 < q or p = 1 > q)."""
    q, p = np.broadcast_arrays(np.asarray(q, dtype=float), np.asarray(p, dtype=float))
    if np.any((q < 0) | (q > 1) | (p < 0) | (p > 1)):
        raise ValueError("q and p must lie in [0, 1]")
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(q > 0, q * (np.log(q) - np.log(p)), 0.0)
        b = np.where(q < 1, (1 - q) * (np.log1p(-q) - np.log1p(-p)), 0.0)
    out = a + b
    return out[()] if out.ndim == 0 else out


def _kl_scalar(q, p):
    a = q * (math.log(q) - math.log(p)) if q > 0 else 0.0
    if q < 1:
        b = (1 - q) * (math.log1p(-q) - math.log1p(-p)) if p < 1 else math.inf
    else:
        b = 0.0
    return a + b


def _kl_inverse_scalar(q, c):
    """The scalar case of :func:`kl_inverse` (the same bisection with the math module, ~50x faster)."""
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must lie in [0, 1], got {q!r}")
    if not c >= 0.0:
        raise ValueError(f"c must be >= 0, got {c!r}")
    if q == 0.0:
        return -math.expm1(-c)
    lo, hi = q, 1.0
    while True:
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            break
        if _kl_scalar(q, mid) <= c:
            lo = mid
        else:
            hi = mid
    return hi if _kl_scalar(q, hi) <= c else lo


def kl_inverse(q, c):
    """sup{p ∈ [q, 1] : kl(q‖p) ≤ c}, the largest true risk consistent with empirical risk ``q`` at divergence
    ``c`` ≥ 0 (Theorems 4-5). Bisection to the last bit of precision; 1 when even p → 1 is within ``c``."""
    if np.ndim(q) == 0 and np.ndim(c) == 0:
        return _kl_inverse_scalar(float(q), float(c))
    q, c = np.broadcast_arrays(np.asarray(q, dtype=float), np.asarray(c, dtype=float))
    if np.any((q < 0) | (q > 1)) or np.any(np.isnan(q)):
        raise ValueError(f"q must lie in [0, 1], got {q!r}")
    if np.any(c < 0) or np.any(np.isnan(c)):
        raise ValueError(f"c must be >= 0, got {c!r}")
    lo = q.copy()
    hi = np.ones_like(q)
    # closed form when q = 0: -ln(1 - p) <= c  <=>  p <= 1 - exp(-c)
    zero = q == 0
    for _ in range(1100):  # bisection halves [lo, hi] each time; stops once no interval can shrink further
        mid = 0.5 * (lo + hi)
        active = (mid > lo) & (mid < hi)
        if not active.any():
            break
        inside = kl_bernoulli(q, mid) <= c
        lo = np.where(active & inside, mid, lo)
        hi = np.where(active & ~inside, mid, hi)
    out = np.where(kl_bernoulli(q, hi) <= c, hi, lo)
    out = np.where(zero, -np.expm1(-c), out)
    return out[()] if out.ndim == 0 else out


def pac_bayes_kl(n_features, log_ratios):
    """KL(Q‖P) of §5 for one posterior: ln(C(n, |k|) 2^|k| / p(|k|)) + Σ_k ln((B_k − A_k)/(b_k − a_k)).

    ``log_ratios`` lists ln((B_k − A_k)/(b_k − a_k)) for each stump (each ≥ 0 since [a_k, b_k] ⊆ [A_k, B_k]).
    """
    lr = np.atleast_1d(np.asarray(log_ratios, dtype=float))
    if np.any(lr < -1e-12) or np.any(np.isnan(lr)):
        raise ValueError("every log ratio ln((B-A)/(b-a)) must be >= 0: the margin intervals must lie inside "
                         "the prior ranges [A, B]")
    kk = lr.size
    n = int(n_features)
    if kk > n:
        raise ValueError(f"a conjunction of {kk} stumps needs at least {kk} genes, got n_features={n}")
    return float(_log_comb(n, kk) + kk * _LN2 - _log_zeta(kk) + np.sum(np.maximum(lr, 0.0)))


def pac_bayes_bound(gibbs_risk, m, n_features, log_ratios, delta=0.05):
    """Theorem 5: with probability ≥ 1−δ, R(G) ≤ sup{ε : kl(R_S(G)‖ε) ≤ ψ}, where

    ψ = (1/m) [ln(C(n, |k|) 2^|k| / p(|k|) · (m+1)/δ) + Σ_k ln((B_k − A_k)/(b_k − a_k))].

    ``gibbs_risk`` is the empirical Gibbs risk R_S(G) on the ``m`` training examples (Eq. 5). The Bayes classifier
    of Eq. 6 has true risk at most twice this bound.
    """
    if not 0 < delta <= 1:
        raise ValueError(f"delta must lie in (0, 1], got {delta!r}")
    m = int(m)
    if m < 1:
        raise ValueError(f"m must be at least 1, got {m}")
    psi = (pac_bayes_kl(n_features, log_ratios) + np.log((m + 1) / delta)) / m
    return float(kl_inverse(float(gibbs_risk), psi))
