"""Random-forest backward elimination (Díaz-Uriarte & Alvarez de Andrés 2006): the path, the s.e. rule, seeding,
and the scikit-learn estimator contract."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from genesel.forest import RFBackwardSelector, backward_sizes


def _problem(seed=0, n=60, d=120, informative=4):
    rng = np.random.default_rng(seed)
    y = np.repeat([-1, 1], n // 2)
    X = rng.normal(size=(n, d))
    X[:, :informative] += 1.5 * y[:, None]
    return X, y


def test_backward_sizes_drop_a_fraction_down_to_two():
    assert backward_sizes(10, 0.2).tolist() == [10, 8, 7, 6, 5, 4, 3, 2]
    assert backward_sizes(1000, 0.2)[:3].tolist() == [1000, 800, 640]
    assert backward_sizes(2, 0.2).tolist() == [2]


def test_finds_the_informative_genes_and_the_se_rule_picks_fewer():
    X, y = _problem()
    s0 = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, se_rule=0.0, random_state=0).fit(X, y)
    s1 = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, se_rule=1.0, random_state=0).fit(X, y)
    assert set(np.flatnonzero(s1.support_)) <= set(s0.feature_order_[: s0.n_features_])
    assert s1.n_features_ <= s0.n_features_
    assert set(s0.feature_order_[:4]) == {0, 1, 2, 3}
    # the s.e. 0 choice is a minimum of the OOB path; the s.e. 1 choice within one s.e. of it
    e = s0.path_oob_errors_
    assert s0.oob_error_ == e.min()
    se = np.sqrt(e.min() * (1 - e.min()) / y.size)
    assert s1.oob_error_ <= e.min() + se + 1e-12
    assert s1.n_features_ == min(sz for sz, err in zip(s1.path_sizes_, s1.path_oob_errors_) if err <= e.min() + se
                                 + 1e-12)


def test_seeded():
    X, y = _problem(1)
    a = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=3).fit(X, y)
    b = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=3).fit(X, y)
    assert np.array_equal(a.feature_order_, b.feature_order_) and np.array_equal(a.path_oob_errors_,
                                                                                  b.path_oob_errors_)


@parametrize_with_checks([RFBackwardSelector(n_estimators=20, n_estimators_iter=10, random_state=0)])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
