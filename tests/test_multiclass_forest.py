"""Issue 38, more than two classes: genesel's random forests (Gini over K classes) against their plain-Python twin
(bit for bit) and against scikit-learn's RandomForestClassifier (statistically); the backward elimination of
Díaz-Uriarte & Alvarez de Andrés 2006 on K classes. These fail on the code before issue 38 (three classes refused)."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier

import naive.forest as NF
from genesel import _forest_kernels as FK
from genesel.forest import RFBackwardSelector, SmallForestClassifier, grow_forest, presort


def _problem(K, n_per=10, d=30, shift=1.5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(K), n_per)
    X = rng.normal(size=(y.size, d))
    X[np.arange(y.size), y] += shift  # gene k up in class k
    return X, y


@pytest.mark.parametrize("K", [3, 5])
@pytest.mark.parametrize("case", ["bootstrap", "no bootstrap", "ties and constants", "mtry 1", "duplicates"])
def test_k_class_kernel_equals_its_plain_python_twin(K, case):
    rng = np.random.default_rng(3)
    n, d = 30, 15
    y = rng.integers(0, K, n)
    X = rng.normal(size=(n, d)) + 0.8 * (y[:, None] == np.arange(d) % K) * (np.arange(d) < 6)
    bootstrap, mtry = case != "no bootstrap", 4
    if case == "ties and constants":
        X[:, 6] = 1.0
        X[:, 7] = np.round(X[:, 7])
        X[:, 8] = X[:, 9]
    if case == "mtry 1":
        mtry = 1
    if case == "duplicates":
        X[1::2] = X[::2][: n // 2]
        X[:, 10:] = 0.0
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int64).max, size=12, dtype=np.int64)
    got = grow_forest(presort(X), y, 12, mtry, 0, bootstrap, n_classes=K, permutation=True)
    feature, threshold, left, right, value, offsets, imp_sum, n_imp, oob_sum, oob_count, perm_sum = got
    trees, imp_ref, n_imp_ref, oob_sum_ref, oob_count_ref, perm_ref = NF.grow_forest(
        X.astype(np.float32), y, seeds, mtry, bootstrap, K, permutation=True)
    assert np.array_equal(perm_sum, perm_ref)
    assert value.shape[1] == K
    NF.assert_same_trees((feature, threshold, left, right, value), offsets, trees)
    assert np.array_equal(imp_sum, imp_ref) and n_imp == n_imp_ref
    assert np.array_equal(oob_sum, oob_sum_ref) and np.array_equal(oob_count, oob_count_ref)
    Xt = rng.normal(size=(10, d))
    pred = FK.predict_forest(feature, threshold, left, right, value, offsets,
                             np.ascontiguousarray(Xt.astype(np.float32).T))
    ref = np.zeros((10, K))
    for nodes in trees:
        for i in range(10):
            ref[i] += nodes[NF.leaf(nodes, Xt[i].astype(np.float32))]["value"]
    assert np.array_equal(pred, ref)


def test_the_k_class_twin_is_the_two_class_one_for_two_classes():
    """The twin's K-class sums for K = 2 grow the trees of the two-class formulas (the kernels' scalar branch)."""
    X, y = _problem(2, n_per=12, d=10, seed=4)
    seeds = np.random.RandomState(1).randint(np.iinfo(np.int64).max, size=6, dtype=np.int64)
    got = grow_forest(presort(X), y, 6, 3, 1, True)
    trees = NF.grow_forest(X.astype(np.float32), y, seeds, 3, True, 2)[0]
    assert got[0].tolist() == [nd["feature"] for nodes in trees for nd in nodes]


def test_forest_agrees_with_sklearn_on_four_classes():
    """Same data, 500 trees each: the out-of-bag errors within a few samples, the same top genes, probabilities over
    the four classes that sum to one, and decision values whose arg max is the prediction."""
    X, y = _problem(4, n_per=12, d=60, shift=2.0, seed=5)
    Xte, yte = _problem(4, n_per=10, d=60, shift=2.0, seed=6)
    labels = np.array(["BL", "EWS", "NB", "RMS"])
    ours = SmallForestClassifier(n_estimators=500, random_state=0).fit(X, labels[y])
    ref = RandomForestClassifier(n_estimators=500, max_features="sqrt", oob_score=True, random_state=0).fit(X, y)
    assert abs((1 - ours.oob_score_) - (1 - ref.oob_score_)) < 0.1
    assert np.corrcoef(ours.feature_importances_, ref.feature_importances_)[0, 1] > 0.9
    assert set(np.argsort(-ours.feature_importances_)[:5]) == set(np.argsort(-ref.feature_importances_)[:5]) >= {
        0, 1, 2, 3}
    P = ours.predict_proba(Xte)
    assert P.shape == (40, 4) and np.allclose(P.sum(1), 1.0)
    assert abs(np.mean(ours.predict(Xte) == labels[yte]) - np.mean(ref.predict(Xte) == yte)) < 0.1
    D = ours.decision_function(Xte)
    assert D.shape == (40, 4)
    np.testing.assert_array_equal(labels[np.argmax(D, axis=1)], ours.predict(Xte))
    np.testing.assert_allclose(D, P - np.array([[np.max(np.delete(p, k)) for k in range(4)] for p in P]))
    assert ours.oob_decision_function_.shape == (48, 4)


def test_backward_elimination_on_three_classes_keeps_the_markers():
    X, y = _problem(3, n_per=12, d=64, shift=2.5, seed=7)
    sel = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, fraction_dropped=0.5, random_state=0).fit(X, y)
    assert sel.path_sizes_.tolist() == [64, 32, 16, 8, 4, 2]
    assert set(sel.feature_order_[:3].tolist()) == {0, 1, 2}
    assert {0, 1, 2} <= set(np.flatnonzero(sel.support_).tolist()) and sel.oob_error_ < 0.1


# scikit-learn's checks on three classes run in tests/test_estimator_api.py, from tests/estimators.py.
