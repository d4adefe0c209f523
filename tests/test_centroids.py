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
