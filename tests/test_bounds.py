"""genesel.bounds against closed forms, scipy, brute-force enumeration and Monte Carlo."""

import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import comb

from genesel import bounds as B


# ---------------------------------------------------------------- binomial tail and its inversion


@pytest.mark.parametrize("k,m,r", [(0, 10, 0.1), (3, 20, 0.25), (7, 7, 0.5), (5, 62, 0.02), (40, 60, 0.9)])
def test_binomial_tail_matches_scipy_and_the_sum(k, m, r):
    direct = sum(comb(m, i, exact=True) * r**i * (1 - r) ** (m - i) for i in range(k + 1))
    assert B.binomial_tail(k, m, r) == pytest.approx(stats.binom.cdf(k, m, r), rel=1e-12)
    assert B.binomial_tail(k, m, r) == pytest.approx(direct, rel=1e-10)
    assert B.log_binomial_tail(k, m, r) == pytest.approx(math.log(direct), rel=1e-10, abs=1e-12)


def test_binomial_tail_vectorised():
    k = np.array([0, 1, 2, 3])
    out = B.binomial_tail(k, 10, 0.3)
    np.testing.assert_allclose(out, stats.binom.cdf(k, 10, 0.3), rtol=1e-12)


@pytest.mark.parametrize("k,m,delta", [(0, 20, 0.05), (3, 20, 0.05), (10, 62, 0.01), (1, 2000, 1e-9),
                                       (59, 60, 0.5)])
def test_inversion_is_the_beta_quantile_and_inverts_the_tail(k, m, delta):
    r = B.binomial_tail_inversion(k, m, delta)
    assert r == pytest.approx(stats.beta.isf(delta, k + 1, m - k), rel=1e-9)
    assert B.binomial_tail(k, m, r) == pytest.approx(delta, rel=1e-8)
    # sup: any larger risk has tail below delta
    assert B.binomial_tail(k, m, min(1.0, r * (1 + 1e-6))) < delta


def test_inversion_closed_forms():
    # k = 0: (1 - r)^m = delta
    for m, d in [(1, 0.05), (20, 0.05), (500, 1e-6)]:
        assert B.binomial_tail_inversion(0, m, d) == pytest.approx(1 - d ** (1 / m), rel=1e-12)
    # k = m: every risk is consistent
    assert B.binomial_tail_inversion(5, 5, 0.01) == 1.0
    # delta = 1: Bin(k, m, r) >= 1 only as r -> k/m from below... the sup is the smallest r with tail < 1, i.e. 0
    # for k=0
    assert B.binomial_tail_inversion(0, 10, 1.0) == pytest.approx(0.0, abs=1e-15)


def test_inversion_in_log_space_agrees_at_the_switch():
    # just above and below the -700 switch the two code paths must agree
    a = B.binomial_tail_inversion(4, 60, log_delta=-699.0)
    b = B.binomial_tail_inversion(4, 60, log_delta=-701.0)
    assert a < b < 1.0
    # the log-space answer satisfies its own equation
    assert B.log_binomial_tail(4, 60, b) == pytest.approx(-701.0, rel=1e-6)


def test_inversion_coverage_by_monte_carlo():
    # P(R <= Bin-bar(k_hat, m, delta)) >= 1 - delta for a classifier of true risk r
    rng = np.random.default_rng(0)
    m, r, delta = 40, 0.2, 0.1
    k = rng.binomial(m, r, size=4000)
    ub = B.binomial_tail_inversion(k, m, delta)
    assert np.mean(r <= ub) >= 1 - delta - 0.01


@pytest.mark.parametrize("bad", [dict(k=5, m=3, delta=0.1), dict(k=-1, m=3, delta=0.1), dict(k=1, m=3, delta=0.0),
                                 dict(k=1, m=3, delta=1.5), dict(k=1.5, m=3, delta=0.1)])
def test_inversion_bad_input(bad):
    with pytest.raises((ValueError, TypeError)):
        B.binomial_tail_inversion(bad["k"], bad["m"], bad["delta"])


# ---------------------------------------------------------------- dyadic codes and the Occam bound


def _brute_bits(a, b, A, Bv, max_bits=30):
    for l in range(max_bits + 1):
        for j in range(1, 2**l + 1):
            t = (1 - (2 * j - 1) / 2 ** (l + 1)) * A + (2 * j - 1) / 2 ** (l + 1) * Bv
            if a < t < b:
                return l, t
    return -1, np.nan


@pytest.mark.parametrize("seed", range(5))
def test_dyadic_threshold_is_the_shortest_code(seed):
    rng = np.random.default_rng(seed)
    A, Bv = -3.0, 7.0
    for _ in range(40):
        a, b = np.sort(rng.uniform(A, Bv, 2))
        if rng.random() < 0.3:
            b = a + (b - a) * 1e-3
        bits, t = B.dyadic_threshold(a, b, A, Bv)
        l, tb = _brute_bits(a, b, A, Bv, max_bits=16)
        if l >= 0:
            assert bits == l and t == pytest.approx(tb, rel=1e-12, abs=1e-12)
        assert a < t < b


def test_dyadic_threshold_empty_interval():
    bits, t = B.dyadic_threshold(0.5, 0.5, 0.0, 1.0)
    assert bits == -1 and np.isnan(t)


def test_occam_prior_sums_to_at_most_one():
    # sum over |k| <= 2 of n=3 genes, directions and codes up to 12 bits: partial sums of the subprior stay <= 1
    n = 3
    total = 0.0
    for kk in range(0, 3):
        n_sets = comb(n, kk, exact=True) * 2**kk
        if kk == 0:
            total += n_sets * math.exp(B.occam_log_prior(n, []))
            continue
        # sum over bit lengths of every stump: each l has 2^l strings
        per_stump = sum(2**l * math.exp(-l * math.log(2)) * B.zeta(l) for l in range(12))
        total += n_sets * B.stump_count_prior(kk) / (comb(n, kk) * 2**kk) * per_stump**kk
    assert total <= 1.0


def test_occam_bound_matches_a_hand_computation():
    n, m, k_err, bits, delta = 2000, 62, 3, [4, 5], 0.05
    kk = len(bits)
    p = 6 / math.pi**2 / (kk + 1) ** 2
    g = np.prod([6 / math.pi**2 / (l + 1) ** 2 * 2.0**-l for l in bits])
    dprime = p * g * delta / (comb(n, kk) * 2**kk)
    expected = stats.beta.isf(dprime, k_err + 1, m - k_err)
    got = B.occam_bound(k_err, m, n, bits, delta)
    assert B.binomial_tail(k_err, m, got) == pytest.approx(dprime, rel=1e-6)
    if expected is not None:
        assert got == pytest.approx(expected, rel=1e-8)
    # more bits or more errors never lower the bound
    assert B.occam_bound(k_err, m, n, [4, 9], delta) > got
    assert B.occam_bound(k_err + 1, m, n, bits, delta) > got


# ---------------------------------------------------------------- sample compression


def test_sample_compression_bound_matches_theorem_3():
    i, j, m, n, delta = 2, 5, 62, 2000, 0.05
    zeta = lambda a: 6 / math.pi**2 / (a + 1) ** 2  # noqa: E731
    cost = (math.log(comb(m, i)) + math.log(comb(m - i, j)) + math.log(comb(n, i)) + i * math.log(2)
            + math.log(1 / (zeta(i) * zeta(j) * delta)))
    expected = 1 - math.exp(-cost / (m - i - j))
    assert B.sample_compression_bound(i, j, m, n, delta) == pytest.approx(expected, rel=1e-12)
    out = B.sample_compression_bound(np.array([1, 2, 3]), 5, m, n, delta)
    assert np.all(np.diff(out) > 0)
    assert B.sample_compression_bound(30, 40, 62, n, delta) == 1.0


# ---------------------------------------------------------------- kl and PAC-Bayes


@pytest.mark.parametrize("q,c", [(0.0, 0.1), (0.1, 0.2), (0.3, 0.01), (0.5, 2.0), (0.9, 0.05), (1.0, 0.3)])
def test_kl_inverse_solves_kl_equals_c(q, c):
    p = B.kl_inverse(q, c)
    assert q <= p <= 1
    if p < 1:
        assert B.kl_bernoulli(q, p) == pytest.approx(c, rel=1e-9, abs=1e-12)
        assert B.kl_bernoulli(q, min(1.0, p + 1e-9)) > c
    vec = B.kl_inverse(np.array([q, q]), np.array([c, c]))
    np.testing.assert_allclose(vec, p, rtol=1e-12)


def test_kl_inverse_closed_form_at_zero():
    for c in (0.01, 0.5, 3.0):
        assert B.kl_inverse(0.0, c) == pytest.approx(1 - math.exp(-c), rel=1e-14)


def test_kl_bernoulli_matches_the_definition():
    q, p = 0.2, 0.35
    assert B.kl_bernoulli(q, p) == pytest.approx(q * math.log(q / p) + (1 - q) * math.log((1 - q) / (1 - p)))
    assert B.kl_bernoulli(0.0, 0.5) == pytest.approx(math.log(2))


def test_pac_bayes_bound_matches_theorem_5():
    r, m, n, lr, delta = 12 / 62, 62, 2000, [0.5, 1.2], 0.05
    kk = len(lr)
    p = 6 / math.pi**2 / (kk + 1) ** 2
    psi = (math.log(comb(n, kk) * 2**kk / p * (m + 1) / delta) + sum(lr)) / m
    expected = B.kl_inverse(r, psi)
    assert B.pac_bayes_bound(r, m, n, lr, delta) == pytest.approx(expected, rel=1e-12)
    assert B.pac_bayes_kl(n, lr) == pytest.approx(math.log(comb(n, kk) * 2**kk / p) + sum(lr), rel=1e-12)
    # wider margins (smaller log ratios) and more examples tighten the bound
    assert B.pac_bayes_bound(r, m, n, [0.1, 0.1], delta) < B.pac_bayes_bound(r, m, n, lr, delta)
    assert B.pac_bayes_bound(r, 5 * m, n, lr, delta) < B.pac_bayes_bound(r, m, n, lr, delta)


def test_pac_bayes_bad_input():
    with pytest.raises(ValueError, match="inside"):
        B.pac_bayes_kl(100, [-0.5])
    with pytest.raises(ValueError):
        B.pac_bayes_bound(0.1, 10, 100, [0.1], delta=0.0)
    with pytest.raises(ValueError):
        B.kl_inverse(1.5, 0.1)
