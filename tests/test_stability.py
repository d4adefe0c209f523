"""Stability scores on hand-computed cases and Tan's thesis example."""

import pytest

from genesel.stability import jaccard, kuncheva_index, kuncheva_pair, mean_pairwise_jaccard, stability_score

# Tan 2006, Table 5.1 (features selected by RVM on Colon, 10-fold CV). The first row prints 1969, but Table 5.2
# counts feature 1769 eight times and lists no 1969: read as 1769. The thesis computes S = 0.213 from Table 5.2.
TAN_TABLE_5_1 = [
    [356, 377, 765, 1769, 1924, 1976], [356, 377, 765, 1769, 1859, 1976], [356, 377, 765, 1769, 1859, 1976],
    [353, 377, 765, 1013, 1024, 1759], [356, 377, 765, 1769, 1859, 1976], [353, 377, 493, 765, 1050, 1757, 1769, 1823],
    [350, 377, 493, 765, 792, 1769, 1823, 1976], [377, 700, 765, 1482, 1769, 1859], [356, 377, 765, 1769, 1859, 1976],
    [377, 717, 1353, 1419, 1555],
]


def test_tan_stability_score_table_5_1():
    assert round(stability_score(TAN_TABLE_5_1), 3) == 0.213


def test_tan_typo_as_printed_gives_a_different_score():
    printed = [list(r) for r in TAN_TABLE_5_1]
    printed[0][3] = 1969
    assert round(stability_score(printed), 3) != 0.213


def test_stability_extremes():
    assert stability_score([[1, 2, 3]] * 4) == pytest.approx(1.0)
    assert stability_score([[1, 2], [3, 4], [5, 6]]) == pytest.approx(0.0)
    # two runs, {1,2} and {2,3}: N_2 = 1, union 3 -> (2/2 * 1)/3
    assert stability_score([[1, 2], [2, 3]]) == pytest.approx(1 / 3)


def test_kuncheva_hand_computed():
    # n = 10, k = 3, r = 2: (2*10 - 9) / (3 * 7) = 11/21
    assert kuncheva_pair({1, 2, 3}, {1, 2, 4}, 10) == pytest.approx(11 / 21)
    assert kuncheva_pair({1, 2, 3}, {1, 2, 3}, 10) == pytest.approx(1.0)
    # three subsets: mean of the three pairs
    subsets = [{1, 2, 3}, {1, 2, 4}, {5, 6, 7}]
    pairs = [11 / 21, (0 - 9) / 21, (0 - 9) / 21]
    assert kuncheva_index(subsets, 10) == pytest.approx(sum(pairs) / 3)


def test_kuncheva_errors():
    with pytest.raises(ValueError, match="equal size"):
        kuncheva_pair({1, 2}, {1}, 10)
    with pytest.raises(ValueError, match="at least two"):
        kuncheva_index([{1}], 10)


def test_jaccard():
    assert jaccard({1, 2, 3}, {2, 3, 4}) == pytest.approx(0.5)
    assert mean_pairwise_jaccard([{1, 2}, {1, 2}, {3, 4}]) == pytest.approx((1 + 0 + 0) / 3)


def test_kuncheva_refuses_indices_outside_the_features():
    """It used to accept index 12 of 10 features (and return a number)."""
    with pytest.raises(ValueError, match=r"must lie in 0..9 \(n_features = 10\); got \[12\]"):
        kuncheva_index([{1, 2, 12}, {1, 2, 3}], 10)
    with pytest.raises(ValueError, match="got \\[-1\\]"):
        kuncheva_pair({-1, 2}, {1, 2}, 10)
    with pytest.raises(ValueError, match="more than n_features"):
        kuncheva_index([{"a", "b"}, {"c", "d"}], 3)
    with pytest.raises(ValueError, match="n_features must be an int"):
        kuncheva_index([{1}, {2}], 2.5)
    import numpy as np

    assert kuncheva_index([np.array([1, 2, 3]), np.array([1, 2, 4])], 10) == pytest.approx(11 / 21)
    assert kuncheva_index([{"a", "b"}, {"a", "c"}], 4) == pytest.approx((1 * 4 - 4) / (2 * 2))
