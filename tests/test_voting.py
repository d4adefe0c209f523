"""genesel.voting: Golub's weighted voting and the correlation rankings, against direct formulas."""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from genesel.voting import FisherSelector, GolubVoting, SignalToNoiseSelector, balanced_order


def _problem(n=30, d=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.arange(n) % 3 == 0, 1, -1)
    X[y > 0, :5] += 1.5  # up in class +1
    X[y > 0, 5:8] -= 1.0  # down in class +1
    return X, y


def _s2n(X, y):
    p, n = X[y > 0], X[y < 0]
    return (p.mean(0) - n.mean(0)) / (p.std(0) + n.std(0))


def test_balanced_order_alternates_signs():
    s = np.array([0.9, -0.1, 0.5, -0.8, 0.2, 0.3, -0.05, 0.0])
    order = balanced_order(s)
    assert order.tolist() == [0, 3, 2, 1, 5, 6, 4, 7]
    for k in range(1, 7):
        top = s[order[:k]]
        assert abs((top > 0).sum() - (top < 0).sum()) <= 1


def test_golub_voting_is_the_linear_discriminant_of_guyon_eq3():
    X, y = _problem()
    clf = GolubVoting(n_genes=6).fit(X, y)
    P = _s2n(X, y)
    top_pos = np.argsort(-P)[:3]
    top_neg = np.argsort(P)[:3]
    assert set(clf.genes_) == set(top_pos) | set(top_neg)
    g = clf.genes_
    mu = 0.5 * (X[y > 0].mean(0) + X[y < 0].mean(0))
    Xt = np.random.default_rng(1).normal(size=(7, X.shape[1]))
    d = (Xt[:, g] - mu[g]) @ P[g]
    np.testing.assert_allclose(clf.decision_function(Xt), d)
    np.testing.assert_allclose(Xt @ clf.coef_[0] + clf.intercept_[0], d)
    np.testing.assert_array_equal(clf.predict(Xt), np.where(d > 0, 1, -1))
    # prediction strength by hand: votes v_g, V+ and V-
    v = (Xt[:, g] - mu[g]) * P[g]
    vp, vn = np.clip(v, 0, None).sum(1), -np.clip(v, None, 0).sum(1)
    np.testing.assert_allclose(clf.prediction_strength(Xt), (vp - vn) / (vp + vn))
    assert clf.score(X, y) > 0.9


def test_golub_voting_string_labels_and_unbalanced():
    X, y = _problem()
    labels = np.where(y > 0, "AML", "ALL")
    clf = GolubVoting(n_genes=4, balanced=False).fit(X, labels)
    P = _s2n(X, y)
    assert set(clf.genes_) == set(np.argsort(-np.abs(P))[:4])
    assert set(clf.predict(X)) <= {"ALL", "AML"}


def test_selectors_rank_by_the_criteria():
    X, y = _problem()
    P = _s2n(X, y)
    sel = SignalToNoiseSelector(n_features_to_select=4).fit(X, y)
    np.testing.assert_allclose(sel.scores_, P)
    top = P[sel.support_]
    assert (top > 0).sum() == 2 and (top < 0).sum() == 2
    assert sorted(np.flatnonzero(sel.support_)) == sorted(sel.subset(4))
    sel_abs = SignalToNoiseSelector(n_features_to_select=4, balanced=False).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(sel_abs.support_), np.sort(np.argsort(-np.abs(P))[:4]))
    F = (X[y > 0].mean(0) - X[y < 0].mean(0)) ** 2 / (X[y > 0].var(0) + X[y < 0].var(0))
    fs = FisherSelector(n_features_to_select=5).fit(X, y)
    np.testing.assert_allclose(fs.scores_, F)
    np.testing.assert_array_equal(fs.ranking_[np.argsort(-F)], np.arange(1, X.shape[1] + 1))
    pipe = make_pipeline(FisherSelector(5), GolubVoting(n_genes=None)).fit(X, y)
    assert pipe.score(X, y) > 0.9


def test_bad_input_errors():
    X, y = _problem()
    Xn = X.copy()
    Xn[0, 0] = np.nan
    for est in (GolubVoting(), SignalToNoiseSelector(), FisherSelector()):
        with pytest.raises(ValueError, match="NaN"):
            est.fit(Xn, y)
        with pytest.raises(ValueError, match="class"):
            est.fit(X, np.ones(len(y)))
    Xc = X.copy()
    Xc[:, 3] = 2.0
    with pytest.raises(ValueError, match="constant"):
        GolubVoting().fit(Xc, y)
    with pytest.raises(ValueError, match="larger than the number of genes"):
        GolubVoting(n_genes=41).fit(X, y)
    with pytest.raises(ValueError, match="larger than the number of genes"):
        FisherSelector(n_features_to_select=41).fit(X, y)


@parametrize_with_checks([GolubVoting(n_genes=2), GolubVoting(n_genes=None, balanced=False),
                          SignalToNoiseSelector(n_features_to_select=1), FisherSelector(n_features_to_select=1)])
def test_sklearn_estimator_contract(estimator, check):
    check(estimator)
