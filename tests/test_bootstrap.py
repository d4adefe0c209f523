"""The .632+ bootstrap (Efron & Tibshirani 1997): samples, grouped inner folds, and the estimate against a
brute-force computation straight from the paper's definitions on a tiny case."""

import numpy as np
import pytest

from genesel.experiments import bootstrap_splits, error_632plus, grouped_inner_folds


def _centroid_rule(x, y):
    """Nearest class mean on one feature: a rule simple enough to fit by hand."""
    mu = {c: x[y == c].mean() for c in np.unique(y)}
    return lambda z: np.array([min(mu, key=lambda c: abs(v - mu[c])) for v in z])


def _brute_force_632plus(x, y, boots):
    n = y.size
    rule = _centroid_rule(x, y)
    app = rule(x)
    err_bar = np.mean(app != y)
    # Eq. 6: leave-one-out bootstrap, per sample over the bootstrap samples that miss it
    per = []
    for i in range(n):
        losses = [float(_centroid_rule(x[tr], y[tr])(x[[i]])[0] != y[i]) for tr in boots if i not in set(tr.tolist())]
        if losses:
            per.append(np.mean(losses))
    err1 = np.mean(per)
    # Eq. 27: no-information rate as the double sum over all (label, prediction) pairs
    gamma = np.mean([[float(y[i] != app[j]) for j in range(n)] for i in range(n)])
    err1p = min(err1, gamma)
    R = (err1p - err_bar) / (gamma - err_bar) if err1p > err_bar and gamma > err_bar else 0.0
    w = 0.632 / (1 - 0.368 * R)
    return (1 - w) * err_bar + w * err1p


def test_632plus_matches_brute_force_on_a_tiny_case():
    rng = np.random.default_rng(3)
    y = np.array([-1, -1, -1, -1, 1, 1, 1, 1, 1])
    x = np.where(y > 0, 1.0, 0.0) + rng.normal(0, 0.7, y.size)
    splits = bootstrap_splits(y, 40, seed=5)
    oob = [(te, _centroid_rule(x[tr], y[tr])(x[te])) for tr, te in splits]
    est = error_632plus(y, _centroid_rule(x, y)(x), oob)
    assert est.error == pytest.approx(_brute_force_632plus(x, y, [tr for tr, _ in splits]), abs=1e-12)
    assert 0 <= est.apparent <= est.error <= max(est.loo_bootstrap, est.no_information) + 1e-12


def test_632plus_on_three_classes_matches_brute_force():
    """K classes (issue 38, Díaz-Uriarte's SRBCT row): the no-information rate is Eq. 27's mean loss over all n²
    (label, prediction) pairs, which the brute force computes as such."""
    rng = np.random.default_rng(4)
    y = np.repeat([0, 1, 2], [4, 5, 3])
    x = y * 1.0 + rng.normal(0, 0.6, y.size)
    splits = bootstrap_splits(y, 40, seed=6)
    oob = [(te, _centroid_rule(x[tr], y[tr])(x[te])) for tr, te in splits]
    est = error_632plus(y, _centroid_rule(x, y)(x), oob)
    assert est.error == pytest.approx(_brute_force_632plus(x, y, [tr for tr, _ in splits]), abs=1e-12)
    app = _centroid_rule(x, y)(x)
    assert est.no_information == pytest.approx(np.mean(y[:, None] != app[None, :]), abs=1e-12)


def test_632plus_limits():
    y = np.array([-1, -1, 1, 1])
    # a perfect rule everywhere: 0
    assert error_632plus(y, y, [(np.array([0, 3]), y[[0, 3]])]).error == 0.0
    # no better than chance out of bag (Err1 >= gamma): R' = 1, w = 1, the estimate is the no-information rate
    est = error_632plus(y, y, [(np.arange(4), -y)])
    assert est.relative_overfitting == pytest.approx(1.0) and est.error == pytest.approx(est.no_information)


def test_bootstrap_samples_are_seeded_and_oob_is_the_complement():
    y = np.repeat([-1, 1], [7, 9])
    a = bootstrap_splits(y, 5, seed=1)
    b = bootstrap_splits(y, 2, seed=1, start=3)
    for (tr, te), (tr2, te2) in zip(a[3:], b):
        assert np.array_equal(tr, tr2) and np.array_equal(te, te2)
    for tr, te in a:
        assert tr.size == y.size and np.array_equal(te, np.setdiff1d(np.arange(y.size), tr))
        assert all(np.sum(y[np.unique(tr)] == c) >= 2 for c in (-1, 1))


def test_grouped_inner_folds_keep_copies_of_a_sample_together():
    y = np.repeat([-1, 1], [8, 10])
    tr, _ = bootstrap_splits(y, 1, seed=4, min_distinct=3)[0]
    folds = grouped_inner_folds(y, tr, 3, seed=0)
    seen = np.concatenate([b for _, b in folds])
    assert np.array_equal(np.sort(seen), np.sort(tr))  # every copy validated once
    for a, b in folds:
        assert not set(a.tolist()) & set(b.tolist())
