"""SMLR (Krishnapuram et al. 2005) against scikit-learn's l1 LogisticRegression and its plain-Python twin."""

import warnings

import numpy as np
import pytest
from naive import smlr as naive_smlr
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

from genesel.smlr import SMLR, _smlr_active_sweeps, _smlr_sweep, smlr_objective


def _data(m, seed=0, n=40, d=30):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = rng.integers(0, m, n)
    X[:, 0] += 1.5 * y
    X[:, 1] -= 1.0 * (y == 1)
    return X, y


def _sklearn_l1(X, y, lam, fit_intercept=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return LogisticRegression(C=1.0 / lam, l1_ratio=1.0, solver="saga", tol=1e-12, max_iter=100000,
                                  fit_intercept=fit_intercept).fit(X, y)


@pytest.mark.parametrize("m,lam", [(2, 0.7), (2, 3.0), (3, 1.5)])
def test_optimum_equals_sklearn_l1_logistic(m, lam):
    X, y = _data(m, seed=m)
    ours = SMLR(lam=lam).fit(X, y)
    sk = _sklearn_l1(X, y, lam)
    yi = np.unique(y, return_inverse=True)[1]
    ref = smlr_objective(X, yi, sk.coef_, sk.intercept_, lam)
    assert ours.converged_
    # same objective (ours is never worse beyond rounding), same solution and sparsity pattern
    assert ours.objective_ <= ref + 1e-8 * abs(ref)
    assert ours.objective_ == pytest.approx(ref, rel=1e-7)
    np.testing.assert_allclose(ours.coef_, sk.coef_, atol=1e-4)
    b_ref = sk.intercept_ - (sk.intercept_.mean() if m > 2 else 0.0)  # multiclass biases: up to a shift
    np.testing.assert_allclose(ours.intercept_, b_ref, atol=1e-4)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-5)
    assert ours.support_.sum() < X.shape[1]  # the Laplacian prior really prunes


def test_no_intercept_matches_liblinear():
    X, y = _data(2, seed=5)
    lam = 1.0
    ours = SMLR(lam=lam, fit_intercept=False).fit(X, y)
    sk = LogisticRegression(C=1 / lam, l1_ratio=1.0, solver="liblinear", fit_intercept=False, tol=1e-10,
                            max_iter=10000).fit(X, y)
    ref = smlr_objective(X, y, sk.coef_, np.zeros(1), lam)
    assert ours.objective_ == pytest.approx(ref, rel=1e-6)
    assert ours.objective_ <= ref + 1e-9


def _sweep_state(rng, K, n, d, n_active=None):
    """(X, Y, W, b, eta, lse, curv) of a random SMLR state; W dense, or nonzero on its first ``n_active`` genes."""
    X = rng.normal(size=(n, d))
    lab = rng.integers(0, max(K, 2), n)
    Y = np.zeros((n, K))
    if K == 1:
        Y[:, 0] = lab == 1
    else:
        Y[np.arange(n), lab] = 1
    if n_active is None:
        W = rng.normal(size=(d, K)) * 0.3
    else:
        W = np.zeros((d, K))
        W[:n_active] = rng.normal(size=(n_active, K))
    b = rng.normal(size=K) * 0.1
    eta = X @ W + b
    lse = np.log(np.exp(eta).sum(1)) if K > 1 else np.zeros(n)
    return X, Y, W, b, eta, lse, 0.25 * (X**2).sum(0)


def test_kernel_matches_naive_twin():
    rng = np.random.default_rng(1)
    for K in (1, 3):
        X, Y, W, b, eta, lse, curv = _sweep_state(rng, K, 9, 5)
        order = rng.permutation(5).astype(np.int64)
        args = [a.copy() for a in (W, b, eta, lse)]
        s1 = _smlr_sweep(X, Y, *args, 0.4, curv, order, True)
        args2 = [a.copy() for a in (W, b, eta, lse)]
        s2 = naive_smlr.smlr_sweep(X, Y, *args2, 0.4, curv, order, True)
        assert s1 == pytest.approx(s2, rel=1e-12)
        for a1, a2 in zip(args, args2):
            np.testing.assert_allclose(a1, a2, rtol=1e-12, atol=1e-14)


def test_active_set_sweeps_match_naive_twin():
    """The compiled active-set loop against its plain-Python twin: same number of sweeps, same weights, for the
    binary and the multiclass model, stopping by the step threshold and by the sweep budget."""
    rng = np.random.default_rng(4)
    for K, stop, budget in ((1, 1e-3, 10_000), (3, 1e-3, 10_000), (1, 0.0, 7)):
        X, Y, W, b, eta, lse, curv = _sweep_state(rng, K, 12, 8, n_active=3)
        active = np.array([0, 1, 2], dtype=np.int64)
        a = [v.copy() for v in (W, b, eta, lse)]
        m1 = _smlr_active_sweeps(X, Y, *a, 0.3, curv, active, True, budget, stop)
        c = [v.copy() for v in (W, b, eta, lse)]
        m2 = naive_smlr.smlr_active_sweeps(X, Y, *c, 0.3, curv, active, True, budget, stop)
        assert m1 == m2 and (m1 == budget) == (stop == 0.0)
        for v1, v2 in zip(a, c):
            np.testing.assert_allclose(v1, v2, rtol=1e-10, atol=1e-12)


def test_sweep_never_decreases_objective():
    X, y = _data(2, seed=9)
    Y = (y == 1).astype(float)[:, None]
    W, b = np.zeros((X.shape[1], 1)), np.zeros(1)
    eta, lse = np.zeros((X.shape[0], 1)), np.zeros(X.shape[0])
    curv = 0.25 * (X**2).sum(0)
    prev = smlr_objective(X, y, W.T, b, 0.5)
    for _ in range(20):
        _smlr_sweep(X, Y, W, b, eta, lse, 0.5, curv, np.arange(X.shape[1]), True)
        cur = smlr_objective(X, y, W.T, b, 0.5)
        assert cur <= prev + 1e-12
        prev = cur


def test_original_labels_and_probabilities():
    X, y = _data(3, seed=2)
    labels = np.array(["a", "b", "c"])[y]
    clf = SMLR(lam=1.0).fit(X, labels)
    assert set(clf.predict(X)) <= set(labels)
    np.testing.assert_allclose(clf.predict_proba(X).sum(1), 1.0)
    assert clf.coef_.shape == (3, X.shape[1])


@pytest.mark.parametrize("bad", [dict(lam=0.0), dict(lam=-1), dict(max_iter=0)])
def test_bad_params(bad):
    X, y = _data(2)
    with pytest.raises(ValueError):
        SMLR(**bad).fit(X, y)


def test_bad_data():
    X, y = _data(2)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SMLR().fit(Xn, y)
    with pytest.raises(ValueError, match="single class"):
        SMLR().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError):
        SMLR().fit(X, y[:-1])


def test_kernel_basis_equals_explicit_basis():
    # kernel="linear" uses the basis functions k(x, x_j) = xᵀx_j: the same fit as SMLR on the matrix X Xᵀ
    X, y = _data(2, seed=4, n=20, d=8)
    a = SMLR(lam=2.0, kernel="linear").fit(X, y)
    b = SMLR(lam=2.0).fit(X @ X.T, y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-10)
    Xt = np.random.default_rng(0).normal(size=(5, 8))
    np.testing.assert_allclose(a.predict_proba(Xt), b.predict_proba(Xt @ X.T), atol=1e-10)
    with pytest.raises(ValueError, match="kernel"):
        SMLR(kernel="sigmoid").fit(X, y)


def test_lam_scale_max_is_the_sparsity_threshold():
    X, y = _data(2, seed=6)
    assert not SMLR(lam=1.001, lam_scale="max").fit(X, y).support_.any()  # above λ_max: nothing selected
    a = SMLR(lam=0.5, lam_scale="max").fit(X, y)
    assert a.support_.any()
    b = SMLR(lam=a.lam_).fit(X, y)  # same as the absolute λ it resolved to
    np.testing.assert_allclose(a.coef_, b.coef_)


# ---------------------------------------------------------------- units of X, degenerate end states (issue 11)


@pytest.mark.parametrize("scale", [1e-300, 1e-8, 1e8, 1e200])
def test_fit_does_not_depend_on_the_units(scale):
    """lam is in the units of X (x -> a x, w -> w / a, lam -> a lam is the same problem), lam_scale='max' is
    scale-free. Before: at 1e200 the curvature bounds overflowed (every weight 0, one class) and at 1e-300 they
    underflowed, silently."""
    X, y = _data(2, d=10)
    Xt, _ = _data(2, seed=1, d=10)
    for ref_est, est in ((SMLR(lam=0.5), SMLR(lam=0.5 * scale)),
                         (SMLR(lam=0.2, lam_scale="max"), SMLR(lam=0.2, lam_scale="max"))):
        ref = ref_est.fit(X, y)
        got = est.fit(X * scale, y)
        np.testing.assert_allclose(got.decision_function(Xt * scale), ref.decision_function(Xt), rtol=1e-6,
                                   atol=1e-6)
        np.testing.assert_array_equal(got.support_, ref.support_)
        assert got.lam_ / scale == pytest.approx(ref.lam_, rel=1e-9)
        assert (ref.predict(X) == y).mean() > 0.8


def test_all_weights_zero_warns():
    from genesel._core.validation import DegenerateModelWarning

    X, y = _data(2, d=10)
    with pytest.warns(DegenerateModelWarning, match=r"every weight is zero.*lam=1 is at or above lambda_max"):
        SMLR(lam=1.0).fit(X * 1e-3, y)
    with pytest.warns(DegenerateModelWarning, match="every weight is zero"):
        SMLR(lam=1.5, lam_scale="max").fit(X, y)


def test_uncentred_genes_converge_to_the_centred_fit():
    """Raw-intensity-like genes (mean 1000 x their sd): the bias is unpenalised, so the fit is the centred one with
    another bias. Before, the curvature bounds sum(x^2)/4 made the coordinate steps crawl to max_iter, silently."""
    X, y = _data(2, d=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        raw = SMLR(lam=0.5).fit(X + 1000.0, y)
    ref = SMLR(lam=0.5).fit(X, y)
    assert raw.converged_
    np.testing.assert_allclose(raw.coef_, ref.coef_, atol=1e-5)
    np.testing.assert_allclose(raw.decision_function(X + 1000.0), ref.decision_function(X), atol=1e-4)


def test_stopping_at_max_iter_warns():
    X, y = _data(2, d=10)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        SMLR(lam=0.01, max_iter=3).fit(X, y)
