"""Grouped samples in every split (issue 37): with ``groups``, no outer split, no inner split and no bootstrap sample
separates a group (a patient's two tissues), for every protocol function, on a paired study built from a registered
set and on synthetic pairs; without groups the splits are the ones they always were. The checks are brute force:
the groups on the two sides of every split are compared as sets."""

import numpy as np
import pytest

from genesel.experiments import (adapted_folds, bootstrap_splits, class_sizes, grouped_inner_folds, leave_one_out,
                                 make_splits, nested_cv, random_splits, repeated_nested_cv, repeated_stratified_kfold,
                                 stratified_kfold)


def _pairs(n_pairs=15, seed=0, both=True):
    """Groups of two; ``both``: each holds one sample of each class (tumour and normal of a patient), else both
    samples of one class (repeats of an individual), in a shuffled sample order."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_pairs), 2)
    y = np.tile([-1, 1], n_pairs) if both else np.repeat(np.where(rng.random(n_pairs) < 0.5, -1, 1), 2)
    order = rng.permutation(g.size)
    return y[order], np.array([f"P{i:02d}" for i in g[order]])


def _apart(groups, a, b):
    """No group on both sides of a split (a, b: index arrays, repeats allowed)."""
    return not set(groups[np.asarray(a, dtype=int)]) & set(groups[np.asarray(b, dtype=int)])


@pytest.fixture(scope="module")
def paired_study(mirror, tmp_path_factory):
    """Alon's colon written as a paired study (tests/study_files.pairs) and read back with groups=patient."""
    from study_files import pairs

    from genesel.datasets import load_dataset

    path = pairs(tmp_path_factory.mktemp("pairs"))
    return load_dataset(path, label="tissue", groups="patient")


def _every_split(y, g, seed=0):
    """(name, [(train, test), ...], [(train, test) inner ...]) for every protocol function, grouped."""
    out = [("stratified_kfold", stratified_kfold(y, 4, seed, groups=g)),
           ("repeated_stratified_kfold", repeated_stratified_kfold(y, 3, 3, seed, groups=g)),
           ("random_splits", random_splits(y, y.size // 2, 5, seed, groups=g)),
           ("random_splits stratified", random_splits(y, y.size // 2, 5, seed, stratified=True, groups=g)),
           ("leave_one_out", leave_one_out(y.size, groups=g)),
           ("make_splits kfold", make_splits("kfold", y, k=3, n_repeats=2, seed=seed, groups=g)),
           ("make_splits loo", make_splits("loo", y, groups=g)),
           ("make_splits random", make_splits("random", y, n_train=y.size // 2, n_splits=3, seed=seed, groups=g)),
           ("bootstrap_splits", bootstrap_splits(y, 10, seed, groups=g))]
    nested = nested_cv(y, 3, 3, seed, groups=g) + repeated_nested_cv(y, 3, 4, 2, seed, groups=g)
    out.append(("nested_cv outer", [(tr, te) for tr, te, _ in nested]))
    out.append(("nested_cv inner", [s for _, _, inner in nested for s in inner]))
    out.append(("grouped_inner_folds", [s for tr, _ in bootstrap_splits(y, 5, seed, groups=g)
                                        for s in grouped_inner_folds(y, tr, 3, seed, groups=g)]))
    return out


@pytest.mark.parametrize("both", [True, False], ids=["pairs across classes", "repeats within a class"])
def test_no_split_separates_a_group_synthetic(both):
    y, g = _pairs(both=both)
    for name, splits in _every_split(y, g):
        assert splits, name
        for tr, te in splits:
            assert len(tr) and len(te), name
            assert _apart(g, tr, te), f"{name}: a group on both sides"
            assert np.unique(y[np.asarray(tr)]).size == 2, f"{name}: a training part misses a class"


def test_no_split_separates_a_pair_on_a_paired_registered_study(paired_study):
    ds = paired_study
    g, y = np.asarray(ds.groups), np.asarray(ds.y)
    assert ds.n_samples == 44 and len(set(g)) == 22 and class_sizes(y, g) == {-1: 22, 1: 22}
    for name, splits in _every_split(y, g, seed=3):
        for tr, te in splits:
            assert _apart(g, tr, te), f"{name}: a patient on both sides"
    # a k-fold's test folds cover every sample once, whole groups each
    folds = stratified_kfold(y, 5, 1, groups=g)
    assert np.array_equal(np.sort(np.concatenate([te for _, te in folds])), np.arange(y.size))
    # the same split without groups does separate pairs: the grouping is what keeps them together
    plain = stratified_kfold(y, 5, 1)
    assert not all(_apart(g, tr, te) for tr, te in plain)


def test_leave_one_group_out_tests_each_group_once():
    y, g = _pairs(6)
    splits = leave_one_out(y.size, groups=g)
    assert len(splits) == 6
    for tr, te in splits:
        assert len(set(g[te])) == 1 and te.size == 2 and np.array_equal(np.sort(np.r_[tr, te]), np.arange(y.size))


def test_grouped_bootstrap_resamples_whole_groups():
    y, g = _pairs(12)
    for tr, oob in bootstrap_splits(y, 20, 5, groups=g):
        counts = {k: int(np.sum(g[tr] == k)) for k in set(g[tr])}
        assert all(c % 2 == 0 for c in counts.values()), "a group drawn is drawn whole, as often as it was drawn"
        assert set(g[oob]) == set(g) - set(g[tr]) and _apart(g, tr, oob)


def test_without_groups_the_splits_are_unchanged():
    """Groups default to None, and the ungrouped splits are the same arrays as a direct re-implementation of the
    round-robin dealing (the protocol of issue 1): the grouped code path changes nothing for registered sets."""
    y = np.array([-1] * 7 + [1] * 11)
    rng = np.random.default_rng([3, 0])
    fold = np.empty(y.size, dtype=int)
    off = 0
    for c in (-1, 1):
        members = rng.permutation(np.flatnonzero(y == c))
        fold[members] = (np.arange(members.size) + off) % 4
        off += members.size
    for f, (tr, te) in enumerate(stratified_kfold(y, 4, 3)):
        assert np.array_equal(te, np.flatnonzero(fold == f))
        assert np.array_equal(tr, rng.permutation(np.flatnonzero(fold != f)))


def test_the_adaptation_rule():
    """Folds: min(requested, smallest class), in groups when grouped; below 2: not applicable."""
    from genesel._core.resampling import adapted_count
    from genesel.experiments import NotApplicable

    assert [adapted_count(5, m) for m in (1, 3, 5, 9)] == [1, 3, 5, 5]
    y = np.array([0] * 9 + [1] * 3)
    assert adapted_folds(5, y) == 3 and adapted_folds(2, y) == 2
    with pytest.raises(NotApplicable, match="the smallest class of the training part has 1 sample"):
        adapted_folds(3, np.array([0, 0, 0, 1]))
    yg, g = _pairs(3)
    assert adapted_folds(5, yg, g) == 3  # three patients: three groups hold each class
    # nested_cv adapts the inner folds of every outer training part to its smallest class
    y17 = np.array([0] * 9 + [1] * 8)
    for tr, _te, inner in nested_cv(y17, 3, 5, 0):
        small = min(class_sizes(y17[tr]).values())
        assert len(inner) == min(5, small)
        assert all(np.unique(y17[a]).size == 2 for a, _ in inner), "every inner training part holds both classes"
