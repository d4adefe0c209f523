"""genesel._core.resampling: the stratified fold masks shared by MSVM-RFE and the GP-ARD selectors."""

import numpy as np
import pytest

from genesel import gp_ard_select, msvm_rfe
from genesel._core.resampling import resampling_masks


def test_masks_leave_each_sample_out_once_per_repeat():
    y = np.array([1] * 7 + [-1] * 11)
    masks = resampling_masks(y, 3, 2, np.random.RandomState(1))
    assert masks.shape == (6, 18)
    np.testing.assert_array_equal((~masks[:3]).sum(0), 1)
    np.testing.assert_array_equal((~masks[3:]).sum(0), 1)


@pytest.mark.parametrize("n_pos,n_neg,k", [(7, 11, 3), (10, 10, 10), (5, 13, 4)])
def test_folds_are_stratified_and_balanced(n_pos, n_neg, k):
    y = np.array([1] * n_pos + [-1] * n_neg)
    rng = np.random.default_rng(0)
    y = y[rng.permutation(y.size)]
    masks = resampling_masks(y, k, 1, np.random.RandomState(3))
    out = ~masks
    sizes = out.sum(1)
    assert sizes.max() - sizes.min() <= 1
    for c in (-1, 1):
        per_fold = out[:, y == c].sum(1)
        assert per_fold.max() - per_fold.min() <= 1  # each class dealt evenly to the folds


def test_seeded_and_shared_by_the_selectors():
    y = np.array([1] * 9 + [-1] * 8)
    a = resampling_masks(y, 4, 2, np.random.RandomState(5))
    b = resampling_masks(y, 4, 2, np.random.RandomState(5))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, resampling_masks(y, 4, 2, np.random.RandomState(6)))
    assert msvm_rfe.resampling_masks is resampling_masks  # public name kept where it was
    assert gp_ard_select.resampling_masks is resampling_masks


def test_auto_folds_adapt_to_the_smallest_class():
    """Issue 25: the selectors' default of 10 folds refused classes of fewer than ten samples."""
    from genesel._core.resampling import resolve_folds

    y = np.r_[-np.ones(5), np.ones(30)]
    assert resolve_folds("S", "auto", y) == 5
    assert resolve_folds("S", "auto", np.r_[-np.ones(12), np.ones(30)]) == 10
    assert resolve_folds("S", 4, y) == 4
    with pytest.raises(ValueError, match=r"S: n_folds=6 exceeds the size of the smallest class \(5\).*'auto'"):
        resolve_folds("S", 6, y)
    with pytest.raises(ValueError, match="smallest class has 1 sample"):
        resolve_folds("S", "auto", np.r_[-1.0, np.ones(9)])
