"""Filters against scipy.stats and plain per-gene formulas."""

import numpy as np
import pytest
from scipy import stats
from sklearn.feature_selection import SelectKBest

from genesel.filters import abs_score, fisher_ratio, signal_to_noise, t_statistic, wilcoxon_pvalues


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 40))
    X[:, :5] = np.round(X[:, :5])  # ties for the rank test
    y = np.array([0] * 13 + [1] * 17)
    X[y == 1, 5] += 2.0
    return X, y


def test_signal_to_noise_per_gene(data):
    X, y = data
    s = signal_to_noise(X, y)
    for j in range(X.shape[1]):
        a, b = X[y == 1, j], X[y == 0, j]
        assert s[j] == pytest.approx((a.mean() - b.mean()) / (a.std() + b.std()))
    assert np.argmax(s) == 5


def test_fisher_ratio_per_gene(data):
    X, y = data
    f = fisher_ratio(X, y)
    a, b = X[y == 1], X[y == 0]
    np.testing.assert_allclose(f, (a.mean(0) - b.mean(0)) ** 2 / (a.var(0) + b.var(0)))


def test_t_statistic_equals_scipy_welch(data):
    X, y = data
    ref = stats.ttest_ind(X[y == 1], X[y == 0], equal_var=False).statistic
    np.testing.assert_allclose(t_statistic(X, y), ref, rtol=1e-12)


def test_wilcoxon_equals_scipy_mannwhitneyu(data):
    X, y = data
    ref = [stats.mannwhitneyu(X[y == 1, j], X[y == 0, j], method="asymptotic", use_continuity=True).pvalue
           for j in range(X.shape[1])]
    np.testing.assert_allclose(wilcoxon_pvalues(X, y), ref, rtol=1e-10)


def test_labels_any_two_values_and_sign_convention(data):
    X, y = data
    np.testing.assert_allclose(signal_to_noise(X, np.where(y == 1, "b", "a")), signal_to_noise(X, y))
    np.testing.assert_allclose(signal_to_noise(X, 1 - y), -signal_to_noise(X, y))


def test_selectkbest_integration(data):
    X, y = data
    sel = SelectKBest(abs_score(signal_to_noise), k=3).fit(X, y)
    assert 5 in np.flatnonzero(sel.get_support())


def test_bad_input(data):
    X, y = data
    with pytest.raises(ValueError, match="single class"):
        signal_to_noise(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="shape mismatch"):
        signal_to_noise(X, y[:-1])
    Xn = X.copy()
    Xn[3, 4] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        t_statistic(Xn, y)
