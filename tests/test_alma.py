"""Tests for genesel.alma (Gentile 2003): ALMA_p, ALMA-FS, ALMA-RFE, CORR pipelines."""

import math
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

from genesel import alma as A
from problems import sparse_problem as _sparse_problem
from genesel import _alma_kernels as AK
from genesel._core.linalg import row_pnorms
from genesel.filters import SignalToNoiseSelector
from naive import alma as naive_alma


# ----------------------------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------------------------


def _separable(m=40, f=5, seed=0, margin=0.3):
    """Data through the origin separable by a random hyperplane u with a gap (normalised margin > 0)."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=f)
    X = []
    y = []
    while len(X) < m:
        x = rng.normal(size=f)
        s = x @ u / (np.linalg.norm(x) * np.linalg.norm(u))
        if abs(s) > margin:
            X.append(x)
            y.append(1 if s > 0 else -1)
    return np.array(X), np.array(y)


def _normalise(X, p):
    return X / np.linalg.norm(X, ord=p, axis=1)[:, None]


def _svm_margin_p2(Xn, y):
    """Hard-margin SVM through the origin on normalised data, via SVC on the symmetrised set {(x,y), (-x,-y)}.

    On the symmetrised data the optimal bias is 0 (if (w,b) is feasible so is (w,-b), hence (w,0)), so SVC's
    hard-margin w is the max-margin hyperplane through the origin; gamma* = 1/||w||.
    """
    Xs = np.vstack([Xn, -Xn])
    ys = np.concatenate([y, -y])
    svc = SVC(kernel="linear", C=1e8, tol=1e-8).fit(Xs, ys)
    w = svc.coef_.ravel()
    return 1.0 / np.linalg.norm(w), w / np.linalg.norm(w)


def _pnorm_margin_opt(Xn, y, p):
    """gamma* = max_{||w||_q <= 1} min_t y_t w.x^_t by SLSQP (an independent numerical optimum)."""
    q = p / (p - 1)
    f = Xn.shape[1]
    Z = y[:, None] * Xn
    w0, _ = np.linalg.lstsq(Z, np.ones(len(y)), rcond=None)[:2]
    w0 = w0 / np.linalg.norm(w0, ord=q)
    x0 = np.concatenate([w0, [np.min(Z @ w0)]])
    cons = [
        {"type": "ineq", "fun": lambda v: Z @ v[:f] - v[f], "jac": lambda v: np.hstack([Z, -np.ones((len(y), 1))])},
        {"type": "ineq", "fun": lambda v: 1.0 - np.sum(np.abs(v[:f]) ** q)},
    ]
    res = minimize(lambda v: -v[f], x0, constraints=cons, method="SLSQP", options={"maxiter": 1000, "ftol": 1e-12})
    w = res.x[:f]
    w = w / np.linalg.norm(w, ord=q)
    return float(np.min(Z @ w))


def _classical_alma2(Xn, y, order, alpha, n_cycles):
    """Additive ALMA_2 (Gentile 2001) written without link functions: w <- (w + eta y x)/||.||_2."""
    w = np.zeros(Xn.shape[1])
    k = 1
    for _ in range(n_cycles):
        upd = False
        for t in order:
            gk = math.sqrt(8.0) / (alpha * math.sqrt(k))
            if y[t] * (w @ Xn[t]) <= (1 - alpha) * gk:
                w = w + math.sqrt(2.0) / math.sqrt(k) * y[t] * Xn[t]
                w = w / np.linalg.norm(w)
                k += 1
                upd = True
        if not upd:
            break
    return w, k


# ----------------------------------------------------------------------------------------------------------------
# link functions
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [2, 2.5, 3.0, 7.3, "ln"])
def test_links_invert_each_other(p):
    rng = np.random.default_rng(1)
    for f in (1, 3, 50):
        w = rng.normal(size=f) * rng.choice([1e-3, 1, 1e3])
        np.testing.assert_allclose(A.link_T_inv(A.link_T(w, p), p), w, rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(A.link_T(A.link_T_inv(w, p), p), w, rtol=1e-10, atol=1e-14)
    assert np.all(A.link_T(np.zeros(4), p) == 0)


@pytest.mark.parametrize("p", [2.0, 3.0, 5.5])
def test_links_are_finite_difference_gradients(p):
    rng = np.random.default_rng(2)
    w = rng.normal(size=6)
    q = p / (p - 1)

    def half_sq(v, r):
        return 0.5 * np.sum(np.abs(v) ** r) ** (2.0 / r)

    h = 1e-6
    for fun, r in ((A.link_T, q), (A.link_T_inv, p)):
        fd = np.array([(half_sq(w + h * e, r) - half_sq(w - h * e, r)) / (2 * h) for e in np.eye(6)])
        np.testing.assert_allclose(fun(w, p), fd, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(fun(w, p), naive_alma.grad_half_sq_norm(list(w), r), rtol=1e-12)
    if p == 2.0:
        np.testing.assert_allclose(A.link_T(w, p), w)
    # duality: ||T(w)||_p = ||w||_q and T(w).w = ||w||_q^2
    np.testing.assert_allclose(np.linalg.norm(A.link_T(w, p), ord=p), np.linalg.norm(w, ord=q))
    np.testing.assert_allclose(A.link_T(w, p) @ w, np.linalg.norm(w, ord=q) ** 2)


def test_resolve_p():
    assert A.resolve_p(2, 10) == 2.0
    assert A.resolve_p("ln", 5) == 2.0  # ln 5 < 2 -> 2 (footnote 4)
    assert A.resolve_p("ln", 12600) == pytest.approx(math.log(12600))


# ----------------------------------------------------------------------------------------------------------------
# kernels vs plain-Python twins
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [2.0, 3.5, 8.0])
@pytest.mark.parametrize("alpha", [0.5, 0.9])
def test_alma_kernel_vs_naive_figure1(p, alpha):
    rng = np.random.default_rng(int(p * 10 + alpha * 100))
    X = rng.normal(size=(15, 7))
    y = np.where(rng.random(15) < 0.5, -1.0, 1.0)
    Xn = np.ascontiguousarray(_normalise(X, p))
    order = rng.permutation(15).astype(np.int64)
    got = A._alma_kernel(Xn, y, order, p, alpha, 6)
    ref = naive_alma.alma_kernel(Xn, y, order, p, alpha, 6)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-9, atol=1e-12)
    assert tuple(got[1:]) == tuple(ref[1:])
    assert got[2] > 0
    np.testing.assert_allclose(np.linalg.norm(got[0], ord=p / (p - 1)), 1.0)


def _heavy_tailed(m, f, seed):
    """Expression-like rows: lognormal magnitudes over several decades, mixed signs (many tiny |x_i|)."""
    rng = np.random.default_rng(seed)
    X = rng.lognormal(sigma=4.5, size=(m, f)) * rng.choice([-1, 1], size=(m, f), p=[0.2, 0.8])
    y = np.where(X[:, :5].sum(1) > np.median(X[:, :5].sum(1)), 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("f", [300, 3000])
def test_active_block_equals_dense_kernel(f):
    """The truncated active block (columns whose p-mass is below 2^-53/f of the total are left out of w . x)
    gives the same trajectory as the dense kernel, and weights equal to rounding."""
    X, y = _heavy_tailed(30, f, seed=f)
    p = A.resolve_p("ln", f)
    Xn = np.ascontiguousarray(_normalise(X, p))
    order = np.random.default_rng(1).permutation(30).astype(np.int64)
    for alpha, cyc in ((0.5, 3), (0.9, 60)):
        got = A._alma_kernel(Xn, y, order, p, alpha, cyc, truncate=True, with_active=True)
        ref = A._alma_kernel(Xn, y, order, p, alpha, cyc, truncate=False, with_active=True)
        assert tuple(got[1:5]) == tuple(ref[1:5])
        np.testing.assert_allclose(got[0], ref[0], rtol=1e-12, atol=1e-15)
        assert ref[5] == f
        assert got[5] < f  # the test would be vacuous if nothing were truncated


def test_kernel_leaves_input_alone_and_maps_columns_back():
    """The kernel permutes columns internally: the caller's matrix is untouched and w comes back in the caller's
    column order (checked against the literal Figure 1)."""
    X, y = _heavy_tailed(12, 400, seed=4)
    p = A.resolve_p("ln", 400)
    Xn = np.ascontiguousarray(_normalise(X, p))
    before = Xn.copy()
    order = np.arange(12, dtype=np.int64)
    got = A._alma_kernel(Xn, y, order, p, 0.6, 4, with_active=True)
    np.testing.assert_array_equal(Xn, before)
    assert got[5] < 400
    ref = naive_alma.alma_kernel(Xn, y, order, p, 0.6, 4)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-9, atol=1e-13)
    assert tuple(got[1:5]) == tuple(ref[1:])


@pytest.mark.parametrize("p", [2.0, 3.3, 9.4])
def test_update_blocks_equal_link_function(p):
    """One update of the block kernels: theta' = sc theta + c x and wr = sign |theta'|^(p-1), so that
    wr / ||theta'||_p^(p-1) = T^-1(theta' / ||theta'||_p) (link_T_inv, plain numpy)."""
    rng = np.random.default_rng(12)
    f = 37
    theta, x = rng.normal(size=f), rng.normal(size=f)
    sc, c = 0.8, 0.3
    expect = sc * theta + c * x
    t1, wr = theta.copy(), np.empty(f)
    AK.active_update(t1, x, wr, sc, c, 20, p - 1.0, p == 2.0)
    assert AK.axpy_detect(t1, x, sc, c, 20, f, 0.5) == int(np.sum(np.abs(expect[20:]) > 0.5))
    AK.link_block(t1, wr, 20, f, p - 1.0, p == 2.0)
    np.testing.assert_allclose(t1, expect, rtol=1e-15)
    nrm = np.linalg.norm(expect, ord=p)
    np.testing.assert_allclose(wr / nrm ** (p - 1.0), A.link_T_inv(expect / nrm, p), rtol=1e-13)


@pytest.mark.parametrize("alpha,cycles", [(0.5, 40), (0.9, 200)])
def test_alma2_dual_equals_primal(alpha, cycles):
    """ALMA_2 through the Gram matrix (used when f > 2m) takes the same steps as the primal kernel and returns
    the same w; a sample with an all-zero row is skipped by both."""
    X, y = _heavy_tailed(25, 400, seed=7)
    X[3] = 0.0
    order = np.random.default_rng(2).permutation(25).astype(np.int64)
    norms = row_pnorms(X, 2.0)
    keep = order[norms[order] > 0]
    got = A._alma2_dual(X, norms, y, keep, alpha, cycles)
    Xn = X / np.where(norms > 0, norms, 1.0)[:, None]
    ref = A._alma_kernel(Xn, y, keep, 2.0, alpha, cycles)
    assert tuple(got[1:]) == tuple(ref[1:])
    assert got[2] > 10
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-11, atol=1e-14)
    clf = A.ALMA(p=2, alpha=alpha, n_cycles=cycles, shuffle=False).fit(X[order], y[order])  # goes through the dual
    np.testing.assert_allclose(clf.coef_.ravel(), ref[0], rtol=1e-11, atol=1e-14)
    assert clf.n_updates_ == ref[2]


def test_block_kernels_vs_naive():
    rng = np.random.default_rng(14)
    f, e = 29, 4.3
    theta, x = rng.normal(size=f), rng.normal(size=f)
    t1, t2 = theta.copy(), list(theta)
    assert AK.axpy_detect(t1, x, 0.7, 0.2, 5, f, 0.6) == naive_alma.axpy_detect(t2, x, 0.7, 0.2, 5, f, 0.6)
    np.testing.assert_allclose(t1, t2, rtol=1e-15)
    w1, w2 = np.zeros(f), [0.0] * f
    AK.active_update(t1, x, w1, 0.9, -0.1, 5, e, False)
    naive_alma.active_update(t2, x, w2, 0.9, -0.1, 5, e)
    AK.link_block(t1, w1, 5, f, e, False)
    naive_alma.link_block(t2, w2, 5, f, e)
    np.testing.assert_allclose(t1, t2, rtol=1e-15)
    np.testing.assert_allclose(w1, w2, rtol=1e-13)


def test_alma2_dual_core_vs_naive_twin():
    rng = np.random.default_rng(22)
    X = rng.normal(size=(9, 30))
    Xn = X / np.linalg.norm(X, axis=1)[:, None]
    K = Xn @ Xn.T
    y = np.where(rng.random(9) < 0.5, -1.0, 1.0)
    order = rng.permutation(9).astype(np.int64)
    got = AK.alma2_dual_core(K, y, order, 0.6, 8)
    ref = naive_alma.alma2_dual(K.tolist(), y, order, 0.6, 8)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-10, atol=1e-13)
    assert tuple(got[1:]) == tuple(ref[1:])
    assert got[2] > 5


def test_alma2_huge_values_fall_back_to_the_scaled_primal():
    """Rows of 1e200: the Gram matrix overflows, so ALMA_2 falls back to the primal kernel with overflow-safe
    norms; ALMA only sees normalised rows, so the weights equal those for the unscaled data."""
    X, y = _heavy_tailed(10, 60, seed=3)
    X = X / np.abs(X).max()
    a = A.ALMA(p=2, alpha=0.7, n_cycles=20, shuffle=False).fit(X, y)
    b = A.ALMA(p=2, alpha=0.7, n_cycles=20, shuffle=False).fit(X * 1e200, y)
    assert np.all(np.isfinite(b.coef_))
    assert b.n_updates_ == a.n_updates_
    np.testing.assert_allclose(b.coef_, a.coef_, rtol=1e-10, atol=1e-14)


def test_alma2_dual_vs_naive_figure1():
    """The dual ALMA_2 kernel against the literal Figure 1 (plain Python) on a small f > 2m case."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(8, 23))
    y = np.where(rng.random(8) < 0.5, -1.0, 1.0)
    order = rng.permutation(8).astype(np.int64)
    norms = row_pnorms(X, 2.0)
    got = A._alma2_dual(X, norms, y, order, 0.6, 7)
    ref = naive_alma.alma_kernel(X / norms[:, None], y, order, 2.0, 0.6, 7)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-9, atol=1e-12)
    assert tuple(got[1:]) == tuple(ref[1:])


def test_p2_equals_classical_alma2():
    X, y = _separable(m=30, f=6, seed=4, margin=0.1)
    X = X + np.random.default_rng(0).normal(scale=0.5, size=X.shape)  # make it noisy too
    clf = A.ALMA(p=2, alpha=0.7, n_cycles=20, shuffle=False).fit(X, y)
    w, k = _classical_alma2(_normalise(X, 2), y, range(30), 0.7, 20)
    np.testing.assert_allclose(clf.coef_.ravel(), w, rtol=1e-10, atol=1e-13)
    assert clf.n_updates_ == k - 1
    assert clf.gamma_ == pytest.approx(math.sqrt(8) / (0.7 * math.sqrt(k)))


# ----------------------------------------------------------------------------------------------------------------
# Theorem 1: approximation, margin upper bound, number of updates
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.5, 0.8])
def test_p2_margin_against_hard_margin_svm(alpha):
    X, y = _separable(m=40, f=5, seed=5, margin=0.2)
    Xn = _normalise(X, 2)
    gstar, _ = _svm_margin_p2(Xn, y)
    clf = A.ALMA(p=2, alpha=alpha, n_cycles=5000, random_state=0).fit(X, y)
    assert clf.converged_
    marg = A.pnorm_margin(clf.coef_.ravel(), X, y, 2).min()
    assert marg >= (1 - alpha) * gstar  # alpha-approximation
    assert marg <= gstar * (1 + 1e-6)  # cannot beat the optimum (checks the SVC reference too)
    assert clf.gamma_ >= gstar * (1 - 1e-6)  # gamma is an upper bound on the true margin
    assert clf.n_updates_ <= A.theorem1_update_bound(2.0, alpha, gstar)


@pytest.mark.parametrize("p", [3.0, 6.0])
def test_pnorm_margin_against_numerical_optimum(p):
    alpha = 0.6
    X, y = _separable(m=30, f=4, seed=6, margin=0.25)
    gstar = _pnorm_margin_opt(_normalise(X, p), y, p)
    assert gstar > 0
    clf = A.ALMA(p=p, alpha=alpha, n_cycles=5000, random_state=1).fit(X, y)
    assert clf.converged_
    w = clf.coef_.ravel()
    np.testing.assert_allclose(np.linalg.norm(w, ord=p / (p - 1)), 1.0)
    marg = A.pnorm_margin(w, X, y, p).min()
    assert marg >= (1 - alpha) * gstar - 1e-9
    assert marg <= gstar + 1e-6
    assert clf.gamma_ >= gstar - 1e-6
    assert clf.n_updates_ <= A.theorem1_update_bound(p, alpha, gstar)


# ----------------------------------------------------------------------------------------------------------------
# ALMA-FS and RFE
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.5, 0.9])
def test_almafs_shrinks_to_fixed_point(alpha):
    X, y = _sparse_problem()
    fs = A.ALMAFS(alpha=alpha, n_cycles=20, random_state=0).fit(X, y)
    sizes = [s["n_features"] for s in fs.stages_]
    kept = [s["n_kept"] for s in fs.stages_]
    assert sizes[0] == X.shape[1]
    assert all(b < a for a, b in zip(sizes, sizes[1:]))  # never grows, strictly shrinks between stages
    assert kept[:-1] == sizes[1:] and kept[-1] == sizes[-1]  # the last stage drops nothing: fixed point
    assert fs.support_.sum() == fs.n_features_ == sizes[-1] < X.shape[1]
    assert np.all(fs.coef_.ravel()[~fs.support_] == 0)
    # fixed point, recomputed independently: ALMA_p on the kept genes with the same order and rule keeps them all
    order = A.training_order(X.shape[0], True, 0)
    Xs = np.ascontiguousarray(X[:, fs.support_])
    p = A.resolve_p("ln", Xs.shape[1])
    w, gamma, *_ = A.run_alma(Xs, y.astype(float), p, alpha, 20, order)
    np.testing.assert_array_equal(w, fs.coef_.ravel()[fs.support_])
    assert A.fs_cut(w, p, A.c_alpha(alpha) * gamma).size == Xs.shape[1]
    # ranking_: selected = 1, earlier eliminations get larger ranks
    assert np.all(fs.ranking_[fs.support_] == 1) and np.all(fs.ranking_[~fs.support_] > 1)
    assert fs.ranking_.max() == len(fs.stages_)
    # the relevant genes survive
    assert fs.support_[:5].sum() >= 4
    assert fs.transform(X).shape == (X.shape[0], fs.n_features_)


def test_fs_cut_rule_by_hand():
    w = np.array([0.1, -0.6, 0.3, 0.0, 0.5])
    w = w / np.linalg.norm(w, ord=1.5)
    p = 3.0  # q = 1.5
    mass = np.abs(w) ** 1.5  # sorted by |w|: 1, 4, 2, 0, 3
    for cg, expect in ((0.0, [0, 1, 2, 4]), (0.999999, [1]), (2.0, [1])):
        thr = 1 - cg**1.5 if cg < 1 else -1
        assert A.fs_cut(w, p, cg).tolist() == expect, (cg, thr, mass)
    c = (1 - (mass[1] + mass[4] - 1e-9)) ** (2 / 3)  # the two largest just suffice
    assert A.fs_cut(w, p, c).tolist() == [1, 4]


@pytest.mark.parametrize("p", ["ln", 2])
def test_almarfe_halves_to_target(p):
    X, y = _sparse_problem(f=200)
    rfe = A.ALMARFE(n_features_to_select=20, p=p, alpha=0.7, n_cycles=10, random_state=0).fit(X, y)
    assert [s["n_features"] for s in rfe.stages_] == [200, 100, 50, 25, 20]
    assert rfe.support_.sum() == 20
    assert rfe.p_ == A.resolve_p(p, 20)
    assert rfe.ranking_.max() == 5 and np.sum(rfe.ranking_ == 2) == 5
    assert rfe.score(X, y) >= 0.9


def test_table_all_column_equals_first_stage():
    """ALMA_ln on all genes = the first stage of ALMA-FS and ALMA_ln-RFE with the same order (section 5)."""
    X, y = _sparse_problem(f=120)
    a = A.ALMA(p="ln", alpha=0.6, n_cycles=10, random_state=3).fit(X, y)
    fs = A.ALMAFS(alpha=0.6, n_cycles=10, random_state=3).fit(X, y)
    assert fs.stages_[0]["gamma"] == a.gamma_ and fs.stages_[0]["n_updates"] == a.n_updates_


# ----------------------------------------------------------------------------------------------------------------
# CORR
# ----------------------------------------------------------------------------------------------------------------


def test_corr_pipeline_uses_the_golub_selector():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(30, 40))
    y = np.repeat([0, 1], 15)
    X[:, :3] += 1.5 * np.where(y == 1, 1, -1)[:, None]
    X[:, 3:6] -= 1.5 * np.where(y == 1, 1, -1)[:, None]
    pipe = A.make_corr_pipeline(6, p="ln", alpha=0.7, n_cycles=10, random_state=0).fit(X, y)
    assert isinstance(pipe.named_steps["corr"], SignalToNoiseSelector)
    assert np.flatnonzero(pipe.named_steps["corr"].support_).tolist() == [0, 1, 2, 3, 4, 5]
    assert pipe.named_steps["alma"].p_ == 2.0  # ln 6 < 2
    assert pipe.score(X, y) > 0.9


# ----------------------------------------------------------------------------------------------------------------
# reproducibility, labels, errors
# ----------------------------------------------------------------------------------------------------------------


def test_seeded_runs_bit_identical():
    X, y = _sparse_problem(f=100)
    for est in (A.ALMA(p="ln", alpha=0.6, n_cycles=5), A.ALMAFS(alpha=0.6, n_cycles=5)):
        a = est.set_params(random_state=11).fit(X, y).coef_.copy()
        b = est.set_params(random_state=11).fit(X, y).coef_.copy()
        c = est.set_params(random_state=12).fit(X, y).coef_.copy()
        assert np.array_equal(a, b)
        assert not np.array_equal(a, c)


def test_labels_and_decision():
    X, y = _sparse_problem(f=50)
    labels = np.where(y > 0, "tumour", "normal")
    clf = A.ALMA(p=2, alpha=0.7, n_cycles=20, random_state=0).fit(X, labels)
    assert clf.classes_.tolist() == ["normal", "tumour"]
    d = clf.decision_function(X)
    assert np.all(np.abs(d) <= 1 + 1e-12)  # normalised margins, ||w||_q = 1, Hoelder
    np.testing.assert_array_equal(clf.predict(X), np.where(d >= 0, "tumour", "normal"))
    # zero rows: decision 0, skipped in training
    X0 = X.copy()
    X0[0] = 0
    assert A.ALMA(p=2, n_cycles=3, random_state=0).fit(X0, y).decision_function(X0[:1])[0] == 0.0


@pytest.mark.parametrize(
    "est, X, y, match",
    [
        (A.ALMA(p=1.5), None, None, r"'p' parameter of ALMA must be a float in the range \[2.0, inf\) or a str"),
        (A.ALMA(p="log"), None, None, "'ln'"),
        (A.ALMA(alpha=0.0), None, None, r"'alpha' parameter of ALMA must be a float in the range \(0.0, 1.0\]"),
        (A.ALMA(alpha=1.5), None, None, "'alpha' parameter"),
        (A.ALMA(n_cycles=0), None, None, "'n_cycles' parameter of ALMA"),
        (A.ALMARFE(n_features_to_select=0), None, None, "'n_features_to_select' parameter of ALMARFE"),
        (A.ALMARFE(n_features_to_select=None), None, None, "'n_features_to_select' parameter of ALMARFE"),
        (A.ALMA(), "nan", None, "NaN"),
        (A.ALMA(), None, "one", "single class"),
        (A.ALMA(), None, "continuous", "Unknown label type"),  # three classes: one-vs-rest (test_multiclass_binary)
        (A.ALMAFS(), None, "short", "inconsistent numbers of samples"),
    ],
)
def test_bad_input(est, X, y, match):
    Xg, yg = _sparse_problem(m=12, f=5)
    if X == "nan":
        Xg[0, 0] = np.nan
    if y == "one":
        yg = np.ones(12)
    elif y == "continuous":
        yg = np.linspace(0.0, 1.0, 12)
    elif y == "short":
        yg = yg[:-1]
    with pytest.raises(ValueError, match=match):
        est.fit(Xg, yg)


# ----------------------------------------------------------------------------------------------------------------
# scikit-learn contract
# ----------------------------------------------------------------------------------------------------------------


def test_hyperplane_through_the_origin_on_uncentred_genes_warns():
    """ALMA has no bias: on genes far from 0 against their spread it can fit its training data no better than the
    majority class; that used to be silent (issue 11's property test found it)."""
    from genesel._core.validation import DegenerateModelWarning

    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 8)
    X = rng.normal(size=(16, 2)) + 100.0
    X[:, 0] += 3.0 * (2 * y - 1)
    with pytest.warns(DegenerateModelWarning, match=r"through the origin.*standardise the genes"):
        A.ALMA(random_state=0).fit(X, y)
    Z = (X - X.mean(0)) / X.std(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateModelWarning)
        assert A.ALMA(random_state=0).fit(Z, y).score(Z, y) == 1.0


def test_samples_far_from_the_origin_warn():
    """Log intensities (every gene near 3, sd 0.5): the origin lies far outside the cloud of samples, where ALMA's
    hyperplanes through the origin generalise poorly. Centred or standardised genes, and raw intensities whose
    spread is comparable to their level, do not warn."""
    from genesel._core.validation import DegenerateModelWarning

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 10)
    X = 3.0 + 0.5 * rng.normal(size=(20, 50))
    X[:, :3] += 0.5 * (2 * y[:, None] - 1)
    with pytest.warns(DegenerateModelWarning, match=r"far from the origin \(their centre is \d+\.\d times"):
        A.ALMA(random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateModelWarning)
        A.ALMA(random_state=0).fit(X - X.mean(0), y)
        A.ALMA(random_state=0).fit(np.abs(rng.normal(size=(20, 50))) * 1000.0, y)  # raw-like: level ~ spread


# ----------------------------------------------------------------------------------------------------------------
# the memo of run_alma (issue 41)
# ----------------------------------------------------------------------------------------------------------------


def test_run_alma_memo_returns_the_run_of_exactly_these_inputs():
    """A run found again is the run of the same inputs (against the literal Figure 1 twin and a fresh kernel run with
    the memo emptied), returned as a copy; changing one value of X, the labels, alpha or the order is a new run."""
    rng = np.random.default_rng(3)
    m, f = 12, 1200
    X = np.ascontiguousarray(rng.normal(size=(m, f)))
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    order = rng.permutation(m).astype(np.int64)
    p = math.log(f)
    A._RUNS.clear()
    first = A.run_alma(X, y, p, 0.7, 5, order)
    again = A.run_alma(X.copy(), y.copy(), p, 0.7, 5, order.copy())
    np.testing.assert_array_equal(first[0], again[0])
    assert first[1:] == again[1:]
    again[0][:] = 0.0  # the caller's copy: the kept run is untouched
    A._RUNS.clear()
    fresh = A.run_alma(X, y, p, 0.7, 5, order)
    np.testing.assert_array_equal(first[0], fresh[0])
    assert first[1:] == fresh[1:]
    ref = naive_alma.alma_kernel(np.ascontiguousarray(_normalise(X, p)), y, order, p, 0.7, 5)
    np.testing.assert_allclose(fresh[0], ref[0], rtol=1e-9, atol=1e-12)
    X2 = X.copy()
    X2[4, 777] += 0.5
    y2 = y.copy()
    y2[0] = -y2[0]
    for args in ((X2, y, p, 0.7, 5, order), (X, y2, p, 0.7, 5, order), (X, y, p, 0.9, 5, order),
                 (X, y, p, 0.7, 5, order[::-1].copy())):
        A._RUNS.clear()
        want = A.run_alma(*args)
        A._RUNS.clear()
        A.run_alma(X, y, p, 0.7, 5, order)  # the original run is kept ...
        got = A.run_alma(*args)  # ... and is not what these inputs get
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1:] == want[1:]
