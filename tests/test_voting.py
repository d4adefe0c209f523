"""genesel.voting: Golub's weighted voting against direct formulas."""

import numpy as np
import pytest

from genesel.voting import GolubVoting
from problems import golub_like as _problem
from problems import s2n_by_hand as _s2n


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


def test_bad_input_errors():
    X, y = _problem()
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        GolubVoting().fit(Xn, y)
    with pytest.raises(ValueError, match="class"):
        GolubVoting().fit(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="every one of .* gene.*constant"):
        GolubVoting().fit(np.ones_like(X), y)
    with pytest.raises(ValueError, match="constant within each class"):  # an infinite weight: still refused
        GolubVoting().fit(np.c_[np.where(y > 0, 2.0, 3.0), X], y)


def test_more_genes_than_exist_uses_all():
    X, y = _problem()
    clf = GolubVoting(n_genes=41).fit(X, y)
    assert clf.genes_.size == X.shape[1]
    np.testing.assert_allclose(clf.decision_function(X), GolubVoting(n_genes=None).fit(X, y).decision_function(X))
