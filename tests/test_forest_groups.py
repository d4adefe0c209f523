"""The grouped bootstrap of genesel's random forests (``fit(X, y, groups=...)``; :mod:`genesel.forest`'s docstring):
a cluster bootstrap drawing the U groups U times with replacement, so that in Díaz-Uriarte & Alvarez de Andrés'
selection (BMC Bioinformatics 7:3, 2006) on a paired or grouped study no out-of-bag vote on a sample comes from a
tree that drew its partner.

References, each able to fail: the outputs of the commit before groups existed (without groups, or with one group
per sample labelled in sample order, the forests are unchanged bit for bit), the plain-Python twin
``tests/naive/forest.py`` (its units built from the labels with a dict and ``sorted``, drawing the same SplitMix64
stream; bit for bit), the definition (every member of a group has its group's multiplicity, so its out-of-bag
count; a group is out of a tree's bag with probability (1 - 1/U)^U), and a leakage study (pairs of near-identical
samples of one class on noise genes: optimistic without groups, about 0.5 with them).
"""

import numpy as np
import pytest

import naive.forest as NF
from genesel import _forest_kernels as FK
from genesel.forest import RFBackwardSelector, SmallForestClassifier, _units, grow_forest, presort


def _golden_problem():
    """Integer-made data (no random generator whose stream could change): 14 samples x 6 genes, gene 0 shifted."""
    n, d = 14, 6
    X = (((np.arange(n * d) * 7919) % 101) / 10.0).reshape(n, d)
    y = np.array([0, 1] * 7)
    X[:, 0] += 3.0 * y
    return X, y


def _pairs(seed, patients=30, d=100, noise=0.3):
    """A paired study on noise genes: each patient two samples of the patient's class (half the patients of each),
    their profiles the patient's (standard normal per gene) plus ``noise`` s.d. each; no gene tells the classes."""
    rng = np.random.default_rng(seed)
    yp = rng.permutation(np.repeat([0, 1], patients // 2))
    profiles = rng.normal(size=(patients, d))
    X = np.repeat(profiles, 2, axis=0) + noise * rng.normal(size=(2 * patients, d))
    return X, np.repeat(yp, 2), np.repeat(np.arange(patients), 2)


def _uneven_groups(seed, n_groups=9):
    """Labels (strings, in no order) of groups of 1 to 4 samples, the samples of a group scattered."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 5, n_groups)
    labels = np.array([f"patient-{rng.integers(1000):03d}-{u}" for u in range(n_groups)])
    return rng.permutation(np.repeat(labels, sizes))


# ---------------------------------------------------------------------------------------- without groups: unchanged


@pytest.mark.parametrize("groups", [None, "range", "names"])
def test_without_groups_the_forests_are_those_of_before_bit_for_bit(groups):
    """The outputs of commit 7368b94 (before groups), for no groups and for one group per sample labelled in sample
    order (integers, sorted names): the same trees (their sizes), out-of-bag counts and selector path."""
    X, y = _golden_problem()
    n = y.size
    g = {None: None, "range": np.arange(n), "names": [f"s{i:02d}" for i in range(n)]}[groups]
    out = grow_forest(presort(X), y, 8, 2, 5, permutation=True, groups=g)
    assert out[5].tolist() == [0, 11, 18, 25, 32, 39, 50, 55, 66]
    assert out[9].tolist() == [4, 4, 5, 2, 4, 2, 2, 1, 0, 4, 3, 1, 4, 2] and out[7] == 8
    sel = RFBackwardSelector(n_estimators=30, n_estimators_iter=20, fraction_dropped=0.5, random_state=1)
    sel.fit(X, y, groups=g)
    assert sel.feature_order_.tolist() == [0, 3, 1, 5, 4, 2]
    assert [float(e).hex() for e in sel.path_oob_errors_] == ["0x1.6db6db6db6db7p-1", "0x1.db6db6db6db6ep-1",
                                                              "0x1.9249249249249p-1"]
    assert np.flatnonzero(sel.support_).tolist() == [0, 3]


def test_identity_units_give_the_plain_bootstrap_bit_for_bit():
    """grow_forest without groups, with groups = arange(n), and the kernel called with the identity units by hand:
    every output equal; the same for the selector's and the classifier's fits. Labels in reverse sample order are
    units in np.unique's order: the draws land on the mirrored samples."""
    rng = np.random.default_rng(4)
    n, d = 30, 40
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None] * (np.arange(d) < 3)
    pre = presort(X)
    plain = grow_forest(pre, y, 25, 6, 3, permutation=True)
    ident = grow_forest(pre, y, 25, 6, 3, permutation=True, groups=np.arange(n))
    seeds = np.random.RandomState(3).randint(np.iinfo(np.int64).max, size=25, dtype=np.int64)
    by_hand = FK.grow_forest(*pre, y, 2, seeds, 6, True, True, True, np.arange(n + 1), np.arange(n))
    assert len(plain) == len(ident) == len(by_hand) == 11
    assert all(np.array_equal(a, b) and np.array_equal(a, c) for a, b, c in zip(plain, ident, by_hand))
    rev = grow_forest(pre, y, 25, 6, 3, groups=np.arange(n)[::-1])
    assert not np.array_equal(rev[9], plain[9])
    for seed in seeds[:5]:
        counts = np.empty(n)
        rs = np.array([seed], dtype=np.uint64)
        FK.bootstrap_counts(rs, n, True, counts, np.arange(n + 1), np.arange(n))
        assert counts.tolist() == NF.bootstrap_counts(NF.SplitMix64(seed), n, True)  # the twin's n-draw loop
        mirrored = np.empty(n)
        rs[0] = np.uint64(seed)
        FK.bootstrap_counts(rs, n, True, mirrored, *_units(np.arange(n)[::-1], n))
        assert np.array_equal(mirrored, counts[::-1])

    a = RFBackwardSelector(n_estimators=60, n_estimators_iter=30, random_state=2).fit(X, y)
    b = RFBackwardSelector(n_estimators=60, n_estimators_iter=30, random_state=2).fit(X, y, groups=np.arange(n))
    for attr in ["feature_order_", "path_oob_errors_", "support_", "importances_"]:
        assert np.array_equal(getattr(a, attr), getattr(b, attr)), attr
    f = SmallForestClassifier(n_estimators=40, random_state=2).fit(X, y)
    h = SmallForestClassifier(n_estimators=40, random_state=2).fit(X, y, groups=np.arange(n))
    assert all(np.array_equal(u, v) for u, v in zip(f.trees_, h.trees_))
    assert np.array_equal(f.oob_decision_function_, h.oob_decision_function_, equal_nan=True)


# ---------------------------------------------------------------------------------------- whole groups


def test_the_kernel_draws_whole_groups_as_its_twin_does():
    """FK.bootstrap_counts on the CSR units of uneven, scattered groups: every member of a group has the group's
    multiplicity, the U draws add up (sum over groups of their multiplicities = U, over samples = sum of multiplicity
    times size), and the counts are the twin's (units from the labels by a dict and ``sorted``, same SplitMix64
    stream) for 200 seeds; without ``bootstrap`` all ones."""
    for case in range(3):
        groups = _uneven_groups(case)
        n = groups.size
        start, members = _units(groups, n)
        units = NF.units_of(groups.tolist(), n)
        assert [members[start[u]:start[u + 1]].tolist() for u in range(start.size - 1)] == units
        U = len(units)
        rs = np.empty(1, dtype=np.uint64)
        counts = np.empty(n)
        seeds = np.random.RandomState(case).randint(np.iinfo(np.int64).max, size=200, dtype=np.int64)
        split = 0
        for seed in seeds:
            rs[0] = np.uint64(seed)
            FK.bootstrap_counts(rs, n, True, counts, start, members)
            assert counts.tolist() == NF.bootstrap_counts(NF.SplitMix64(seed), n, True, units)
            mult = np.array([counts[m[0]] for m in units])
            assert all(np.all(counts[m] == k) for m, k in zip(units, mult))
            assert mult.sum() == U and counts.sum() == sum(k * len(m) for m, k in zip(units, mult))
            split += not np.array_equal(counts, NF.bootstrap_counts(NF.SplitMix64(seed), n, True))
        assert split == len(seeds)  # the plain bootstrap would have split groups
        FK.bootstrap_counts(rs, n, False, counts, start, members)
        assert np.all(counts == 1.0)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_kernel_equals_its_plain_python_twin_with_groups(n_classes):
    """The whole grouped forest, bit for bit against the twin: trees, importances, out-of-bag sums and counts,
    permutation importances (on whole groups out of bag)."""
    groups = _uneven_groups(7, n_groups=10)
    n, d = groups.size, 12
    rng = np.random.default_rng(5)
    y = rng.integers(0, n_classes, n)
    X = rng.normal(size=(n, d)) + 0.7 * y[:, None] * (np.arange(d) < 3)
    X[:, 5] = np.round(X[:, 5])                                       # ties
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int64).max, size=12, dtype=np.int64)
    got = grow_forest(presort(X), y, 12, 4, 0, n_classes=n_classes, permutation=True, groups=groups)
    feature, threshold, left, right, value, offsets, imp_sum, n_imp, oob_sum, oob_count, perm_sum = got
    trees, imp_ref, n_imp_ref, oob_sum_ref, oob_count_ref, perm_ref = NF.grow_forest(
        X.astype(np.float32), y, seeds, 4, True, n_classes, permutation=True, groups=groups.tolist())
    NF.assert_same_trees((feature, threshold, left, right, value), offsets, trees)
    assert np.array_equal(imp_sum, imp_ref) and n_imp == n_imp_ref
    assert np.array_equal(oob_sum, oob_sum_ref) and np.array_equal(oob_count, oob_count_ref)
    assert np.array_equal(perm_sum, perm_ref) and perm_sum.any()
    ungrouped = grow_forest(presort(X), y, 12, 4, 0, n_classes=n_classes)
    assert not np.array_equal(ungrouped[9], oob_count)


def test_a_group_is_out_of_bag_whole_and_as_often_as_a_cluster_bootstrap_leaves_it_out():
    """Out-of-bag counts equal within every group (without groups they are not), and a group is out of a tree's
    bag in a fraction (1 - 1/U)^U of the trees (binomial, 5 s.d., over the U groups and T trees)."""
    groups = _uneven_groups(3, n_groups=12)
    n, T = groups.size, 2000
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 10))
    counts = grow_forest(presort(X), y, T, 3, 0, keep_trees=False, groups=groups)[9]
    plain = grow_forest(presort(X), y, T, 3, 0, keep_trees=False)[9]
    labels = np.unique(groups)
    assert all(np.unique(counts[groups == g]).size == 1 for g in labels)
    assert any(np.unique(plain[groups == g]).size > 1 for g in labels)
    U = labels.size
    p = (1 - 1 / U) ** U
    per_group = np.array([counts[groups == g][0] for g in labels]) / T
    assert abs(per_group.mean() - p) < 5 * np.sqrt(p * (1 - p) / (T * U)), (per_group.mean(), p)


# ---------------------------------------------------------------------------------------- leakage


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_partner_in_the_bag_makes_the_oob_error_optimistic_and_groups_remove_it(seed):
    """30 patients x 2 near-identical samples of the patient's class, 100 noise genes: without groups a tree that
    left a sample out has most often drawn its partner, which answers for it (OOB error at most 0.05 over seeds
    0-19); with groups the OOB error is that of noise (over seeds 0-19: 0.35 to 0.75 for the classifier, 0.40 to
    0.73 for the selector's first forest, mean 0.57 for both; the small-sample anti-learning of balanced classes
    puts it above 0.5). Asserted: grouped > 0.3 and > ungrouped + 0.15, for the classifier and for the selector's
    first forest; the mean OOB error of the selector's path higher by 0.05 (measured: by 0.16 at least)."""
    X, y, g = _pairs(seed)
    f0 = SmallForestClassifier(n_estimators=300, random_state=seed).fit(X, y)
    f1 = SmallForestClassifier(n_estimators=300, random_state=seed).fit(X, y, groups=g)
    e0, e1 = 1 - f0.oob_score_, 1 - f1.oob_score_
    assert e1 > 0.3 and e1 > e0 + 0.15, (e0, e1)
    s0 = RFBackwardSelector(n_estimators=300, n_estimators_iter=100, random_state=seed).fit(X, y)
    s1 = RFBackwardSelector(n_estimators=300, n_estimators_iter=100, random_state=seed).fit(X, y, groups=g)
    e0, e1 = s0.path_oob_errors_[0], s1.path_oob_errors_[0]
    assert e1 > 0.3 and e1 > e0 + 0.15, (e0, e1)
    assert s1.path_oob_errors_.mean() > s0.path_oob_errors_.mean() + 0.05


def test_groups_keep_a_real_signal():
    """The same pairs with 4 genes that separate the classes (2 s.d.): the grouped OOB error stays small, and the
    selector with groups keeps informative genes among its top 4."""
    X, y, g = _pairs(0)
    X[:, :4] += 2.0 * (2 * y[:, None] - 1)
    f = SmallForestClassifier(n_estimators=300, random_state=0).fit(X, y, groups=g)
    assert 1 - f.oob_score_ < 0.15
    s = RFBackwardSelector(n_estimators=300, n_estimators_iter=100, random_state=0).fit(X, y, groups=g)
    assert s.path_oob_errors_[0] < 0.15 and len(set(s.feature_order_[:4].tolist()) & {0, 1, 2, 3}) >= 3


# ---------------------------------------------------------------------------------------- bad groups


@pytest.mark.parametrize("bad,match", [
    (np.arange(39), r"groups must hold one label per sample \(40\), got shape \(39,\)"),
    (np.arange(40).reshape(40, 1), r"groups must hold one label per sample \(40\), got shape \(40, 1\)"),
    (np.where(np.arange(40) == 7, np.nan, np.arange(40) // 2), r"groups has no label for sample\(s\) \[7\] \(NaN"),
    ([None] + [f"p{i // 2}" for i in range(1, 40)], r"groups has no label for sample\(s\) \[0\] \(NaN or None\)"),
    (np.zeros(40), "groups must name at least 2 groups"),
    (np.array(["a", 1] * 20, dtype=object), "groups must be labels of one type"),
])
def test_bad_groups_are_refused_naming_groups(bad, match):
    """A ValueError naming the estimator, ``groups`` and the problem, before any tree is grown."""
    X, y, _ = _pairs(0, patients=20, d=10)
    for est in (SmallForestClassifier(n_estimators=5), RFBackwardSelector(n_estimators=5, n_estimators_iter=5)):
        with pytest.raises(ValueError, match=f"^{type(est).__name__}: {match}"):
            est.fit(X, y, groups=bad)
        assert not hasattr(est, "trees_") and not hasattr(est, "support_")
    with pytest.raises(ValueError, match=f"^grow_forest: {match}"):
        grow_forest(presort(X), y, 5, 2, 0, groups=bad)


def test_groups_pass_through_fit_transform():
    """scikit-learn's ``fit_transform(X, y, **fit_params)`` hands ``groups`` to ``fit``."""
    X, y, g = _pairs(1, patients=20, d=30)
    sel = RFBackwardSelector(n_estimators=50, n_estimators_iter=20, random_state=0)
    Xt = sel.fit_transform(X, y, groups=g)
    ref = RFBackwardSelector(n_estimators=50, n_estimators_iter=20, random_state=0).fit(X, y, groups=g)
    assert np.array_equal(Xt, X[:, ref.support_])
