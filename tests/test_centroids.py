"""PAM's nearest shrunken centroids (genesel.centroids) against a hand computation of Tibshirani et al. 2002's formulas,
gene by gene in plain loops, and against scikit-learn's NearestCentroid where the two agree (the shrunken centroids)."""

import numpy as np
import pytest
from sklearn.neighbors import NearestCentroid

from genesel.centroids import ShrunkenCentroids


def _pam_by_hand(X, y, delta_rel, priors="empirical"):
    """PAM written out loop by loop (PNAS 2002 Eqs. 1-6 with pamr's m_k = sqrt(1/n_k - 1/n)): shrunken centroids,
    scales s_i + s_0, the absolute threshold and a predictor."""
    classes = sorted(set(y.tolist()))
    n, p, K = X.shape[0], X.shape[1], len(classes)
    nk = {k: sum(1 for v in y if v == k) for k in classes}
    xbar = [sum(X[j, i] for j in range(n)) / n for i in range(p)]
    xk = {k: [sum(X[j, i] for j in range(n) if y[j] == k) / nk[k] for i in range(p)] for k in classes}
    s = [np.sqrt(sum((X[j, i] - xk[y[j]][i]) ** 2 for j in range(n)) / (n - K)) for i in range(p)]
    s0 = sorted(s)[p // 2] if p % 2 else 0.5 * (sorted(s)[p // 2 - 1] + sorted(s)[p // 2])
    m = {k: np.sqrt(1.0 / nk[k] - 1.0 / n) for k in classes}
    d = {k: [(xk[k][i] - xbar[i]) / (m[k] * (s[i] + s0)) for i in range(p)] for k in classes}
    delta = delta_rel * max(abs(d[k][i]) for k in classes for i in range(p))
    shrunk = {}
    for k in classes:
        row = []
        for i in range(p):
            a = abs(d[k][i]) - delta
            dp = (1 if d[k][i] > 0 else -1) * a if a > 0 else 0.0
            row.append(xbar[i] + m[k] * (s[i] + s0) * dp)
        shrunk[k] = row
    pri = {k: (nk[k] / n if priors == "empirical" else 1.0 / K) for k in classes}

    def predict(x):
        score = {k: sum((x[i] - shrunk[k][i]) ** 2 / (s[i] + s0) ** 2 for i in range(p)) - 2 * np.log(pri[k])
                 for k in classes}
        return min(classes, key=lambda k: score[k])

    return np.array([shrunk[k] for k in classes]), np.array(s) + s0, delta, predict


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("rel", [0.0, 0.3, 0.7])
def test_shrunken_centroids_match_pam_by_hand(K, rel):
    rng = np.random.default_rng(K * 10 + int(10 * rel))
    n, p = 24, 9
    y = np.r_[np.repeat(np.arange(K), 4), rng.integers(0, K, n - 4 * K)]
    X = rng.normal(size=(n, p)) * rng.uniform(0.2, 3.0, size=p)  # genes of unequal spread: s_0 matters
    X[:, 0] += 1.5 * y
    X[:, 1] -= 1.0 * (y == K - 1)
    Xt = rng.normal(size=(40, p)) * 2
    est = ShrunkenCentroids(threshold=rel, threshold_scale="max").fit(X, y)
    cent, scale, delta, predict = _pam_by_hand(X, y, rel)
    np.testing.assert_allclose(est.centroids_, cent, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(est.scale_, scale, rtol=1e-12)
    assert est.threshold_ == pytest.approx(delta, rel=1e-12)
    np.testing.assert_array_equal(est.predict(Xt), [predict(x) for x in Xt])
    np.testing.assert_array_equal(est.support_, np.any(np.abs(cent - X.mean(axis=0)) > 1e-12, axis=0))
    # the absolute threshold gives the same model
    same = ShrunkenCentroids(threshold=delta).fit(X, y)
    np.testing.assert_allclose(same.centroids_, est.centroids_, rtol=1e-12, atol=1e-12)


def test_the_shrunken_centroids_are_scikit_learns_but_the_distance_is_pams():
    """NearestCentroid shrinks as PAM (same centroids at one absolute threshold) but standardises its distance by s_i
    instead of s_i + s_0: on genes of very unequal spread the two predict differently (the check can fail), and
    ours agrees with the hand computation."""
    rng = np.random.default_rng(5)
    y = np.r_[np.zeros(20, int), np.ones(14, int)]
    X = rng.normal(size=(34, 30)) * np.r_[np.full(5, 0.05), np.full(25, 3.0)]  # 5 quiet noise genes
    X[:, 10] += 2.5 * y
    Xt = rng.normal(size=(300, 30)) * np.r_[np.full(5, 0.05), np.full(25, 3.0)]
    Xt[:, 10] += 2.5 * rng.integers(0, 2, 300)
    ours = ShrunkenCentroids(threshold=0.5).fit(X, y)
    sk = NearestCentroid(shrink_threshold=0.5, priors="empirical").fit(X, y)
    np.testing.assert_allclose(ours.centroids_, sk.centroids_, rtol=1e-10, atol=1e-12)
    predict = _pam_by_hand(X, y, 0.5 / _max_d(X, y))[3]
    np.testing.assert_array_equal(ours.predict(Xt), [predict(x) for x in Xt])
    assert np.mean(ours.predict(Xt) != sk.predict(Xt)) > 0.02


def _max_d(X, y):
    return np.abs(ShrunkenCentroids(threshold=0.0).fit(X, y).deviations_).max()


def test_priors_thresholds_and_bad_input():
    rng = np.random.default_rng(1)
    y = np.r_[np.zeros(30, int), np.ones(6, int)]
    X = rng.normal(size=(36, 12))
    X[:, 0] += 0.8 * y
    Xt = rng.normal(size=(400, 12))
    emp = ShrunkenCentroids(threshold=0.2, threshold_scale="max").fit(X, y)
    uni = ShrunkenCentroids(threshold=0.2, threshold_scale="max", priors="uniform").fit(X, y)
    assert np.mean(emp.predict(Xt) == 1) < np.mean(uni.predict(Xt) == 1)  # the larger class's prior pulls
    np.testing.assert_allclose(emp.predict_proba(Xt).sum(axis=1), 1.0)
    assert np.array_equal(emp.classes_[(emp.decision_function(Xt) > 0).astype(int)], emp.predict(Xt))
    none = ShrunkenCentroids(threshold=1.0, threshold_scale="max").fit(X, y)
    assert not none.support_.any() and set(none.predict(Xt)) == {0}  # no gene left: the prior decides
    assert ShrunkenCentroids(threshold=0.0, threshold_scale="max").fit(X, y).support_.all()
    with pytest.raises(ValueError, match="threshold_scale"):
        ShrunkenCentroids(threshold_scale="relative").fit(X, y)
    with pytest.raises(ValueError, match="threshold"):
        ShrunkenCentroids(threshold=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="two or more classes"):
        ShrunkenCentroids().fit(X, np.zeros(36, int))
    with pytest.raises(ValueError, match="priors"):
        ShrunkenCentroids(priors=[0.2, 0.2]).fit(X, y)


@pytest.mark.parametrize("K", [2, 3])
def test_decision_function_and_probabilities_are_pams_posterior(K):
    """-δ_k / 2 from the hand computation (PNAS Eq. 6) is the decision (n, K) for K >= 3, its difference the two-class
    decision (the log posterior odds of classes_[1], scikit-learn's convention), and scipy's softmax of it the
    probabilities; the class of the largest is the prediction."""
    from scipy.special import softmax

    rng = np.random.default_rng(40 + K)
    n, p = 30, 8
    y = np.r_[np.repeat(np.arange(K), 4), rng.integers(0, K, n - 4 * K)]
    X = rng.normal(size=(n, p)) * rng.uniform(0.3, 2.0, size=p)
    X[:, 0] += 1.2 * y
    Xt = rng.normal(size=(25, p)) * 1.5
    est = ShrunkenCentroids(threshold=0.2, threshold_scale="max").fit(X, y)
    cent, scale, _, _ = _pam_by_hand(X, y, 0.2)
    pri = np.bincount(y) / n
    half = np.array([[-0.5 * sum((x[i] - cent[k][i]) ** 2 / scale[i] ** 2 for i in range(p)) + np.log(pri[k])
                      for k in range(K)] for x in Xt])
    want = half[:, 1] - half[:, 0] if K == 2 else half
    np.testing.assert_allclose(est.decision_function(Xt), want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(est.predict_proba(Xt), softmax(half, axis=1), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(est.predict_log_proba(Xt), np.log(softmax(half, axis=1)), rtol=1e-9, atol=1e-10)
    np.testing.assert_array_equal(est.predict(Xt), np.argmax(half, axis=1))


def test_constant_genes_are_left_out_of_the_model():
    """A gene constant in the training samples is as if it were not in X (genesel's rule): s_0 is the median of the
    s_i of the genes that vary (pamr's median over every gene would count the constant genes' zeros and pull s_0
    down), and the model, predictions and decision values on the other genes are those of the fit without it; the
    constant genes' values in new data change nothing."""
    rng = np.random.default_rng(3)
    y = np.r_[np.zeros(14, int), np.ones(12, int), np.full(10, 2)]
    X = rng.normal(size=(36, 12)) * rng.uniform(0.5, 2.0, size=12)
    X[:, 0] += 2.0 * (y == 1)
    X[:, 1] -= 2.0 * (y == 2)
    const = [3, 7, 8]
    X[:, const] = [4.0, -1.5, 0.0]
    keep = np.setdiff1d(np.arange(12), const)
    full = ShrunkenCentroids(threshold=0.3, threshold_scale="max").fit(X, y)
    sub = ShrunkenCentroids(threshold=0.3, threshold_scale="max").fit(X[:, keep], y)
    assert full.constant_genes_.tolist() == const and full.n_constant_genes_ == 3
    # the same arithmetic up to numpy's summation order (a strided view against a contiguous copy)
    assert full.s0_ == pytest.approx(sub.s0_, rel=1e-14) and full.threshold_ == pytest.approx(sub.threshold_, rel=1e-14)
    np.testing.assert_allclose(full.centroids_[:, keep], sub.centroids_, rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(full.centroids_[:, const], np.tile([4.0, -1.5, 0.0], (3, 1)))
    assert not full.support_[const].any() and not full.deviations_[:, const].any()
    Xt = rng.normal(size=(50, 12)) * 2.0
    Xt2 = Xt.copy()
    Xt2[:, const] = 1e6 * rng.normal(size=(50, 3))
    np.testing.assert_allclose(full.decision_function(Xt), sub.decision_function(Xt[:, keep]), rtol=1e-12)
    np.testing.assert_array_equal(full.decision_function(Xt2), full.decision_function(Xt))
    np.testing.assert_array_equal(full.predict(Xt), sub.predict(Xt[:, keep]))
    with pytest.raises(ValueError, match=r"every one of the 12 gene\(s\) is constant"):
        ShrunkenCentroids().fit(np.ones((36, 12)), y)


def test_units_do_not_change_the_model():
    """Data scaled by 1e-300 or 1e300, or moved 1e12 within-class sds from the origin, give the predictions of the
    data at scale 1 and no RuntimeWarning (the expanded distance |x|² - 2 x·c + |c|² lost them to cancellation)."""
    import warnings

    rng = np.random.default_rng(11)
    y = np.r_[np.zeros(15, int), np.ones(15, int), np.full(12, 2)]
    X = rng.normal(size=(42, 20))
    X[:, :3] += 2.5 * np.eye(3)[y]
    Xt = rng.normal(size=(60, 20))
    Xt[:, :3] += 2.5 * np.eye(3)[rng.integers(0, 3, 60)]
    ref = ShrunkenCentroids(threshold=0.2, threshold_scale="max").fit(X, y)
    shift = 1e12 * (1.0 + np.arange(20) / 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for a, b in ((1e-300, 0.0), (1e300, 0.0), (1.0, shift), (1e-200, shift)):
            est = ShrunkenCentroids(threshold=0.2, threshold_scale="max").fit((X + b) * a, y)
            np.testing.assert_array_equal(est.predict((Xt + b) * a), ref.predict(Xt), err_msg=f"x{a:g} +{b!r}")
            np.testing.assert_array_equal(est.support_, ref.support_)
            np.testing.assert_allclose(est.threshold_, ref.threshold_, rtol=1e-3)


def _fitted_state(est):
    """Every attribute a fit sets, public and private, for a bit-for-bit comparison."""
    return {k: v for k, v in vars(est).items() if k not in ("threshold", "threshold_scale", "priors")}


@pytest.mark.parametrize("K", [2, 3])
def test_fit_grid_gives_each_settings_own_fit_and_warnings(K):
    """fit_grid's copies against fitting each setting on its own: every fitted attribute, prediction and warning the
    same, bit for bit (thresholds from none to every gene shrunk out, where the majority prior decides and the fit
    warns; a constant gene; both priors; the absolute scale)."""
    import warnings

    rng = np.random.default_rng(7 + K)
    y = np.r_[np.repeat(np.arange(K), 3), rng.integers(0, K, 25)]
    y[y == K - 1] = 0 if K == 2 else y[y == K - 1]  # unequal classes: the prior decides when no gene is left
    y[:K] = np.arange(K)
    X = rng.normal(size=(y.size, 15)) * rng.uniform(0.3, 2.0, size=15)
    X[:, 0] += 1.2 * y
    X[:, 4] = 3.0  # a constant gene
    Xt = rng.normal(size=(50, 15))
    grid = [{"threshold": t, "threshold_scale": "max"} for t in np.linspace(0.0, 1.0, 7)]
    grid += [{"threshold": 0.4, "threshold_scale": "max", "priors": "uniform"}, {"threshold": 0.5}]
    with warnings.catch_warnings(record=True) as together:
        warnings.simplefilter("always")
        fits = ShrunkenCentroids().fit_grid(X, y, grid)
    alone = []
    for q, est in zip(grid, fits):
        assert est.get_params() == ShrunkenCentroids(**q).get_params()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            own = ShrunkenCentroids(**q).fit(X, y)
        alone += [str(x.message) for x in w]
        a, b = _fitted_state(own), _fitted_state(est)
        assert a.keys() == b.keys()
        for k in a:
            np.testing.assert_array_equal(np.asarray(a[k], dtype=object if a[k] is None else None),
                                          np.asarray(b[k], dtype=object if b[k] is None else None), err_msg=k)
        np.testing.assert_array_equal(own.decision_function(Xt), est.decision_function(Xt))
        np.testing.assert_array_equal(own.predict(Xt), est.predict(Xt))
    grid_warned = [str(x.message) for x in together]
    assert grid_warned == alone and any("shrunk out" in m for m in alone)  # the same warnings, setting by setting
    assert not fits[0].support_[4] and fits[0].support_.sum() == 14 and not fits[6].support_.any()
    with pytest.raises(ValueError, match="param_grid is empty"):
        ShrunkenCentroids().fit_grid(X, y, [])
    with pytest.raises(ValueError, match="threshold"):
        ShrunkenCentroids().fit_grid(X, y, [{"threshold": -1.0}])


def test_fit_from_statistics_is_fit():
    """The public two steps (what the leaderboard's inner CV keeps per training part): statistics of one estimator,
    fitted by another at its own settings, give that estimator's own fit; bad settings are still refused."""
    rng = np.random.default_rng(5)
    y = np.r_[np.zeros(12, int), np.ones(7, int)]
    X = rng.normal(size=(19, 10))
    X[:, 1] += y
    stats = ShrunkenCentroids().threshold_statistics(X, y)
    for q in ({"threshold": 0.3, "threshold_scale": "max"}, {"threshold": 0.2, "priors": "uniform"}):
        two = ShrunkenCentroids(**q).fit_from_statistics(stats)
        one = ShrunkenCentroids(**q).fit(X, y)
        for k in ("centroids_", "scale_", "deviations_", "priors_", "support_", "threshold_"):
            np.testing.assert_array_equal(getattr(two, k), getattr(one, k), err_msg=k)
        np.testing.assert_array_equal(two.decision_function(X), one.decision_function(X))
    with pytest.raises(ValueError, match="threshold"):
        ShrunkenCentroids(threshold=-1.0).fit_from_statistics(stats)
