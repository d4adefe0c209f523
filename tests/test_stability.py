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


# ---- Nogueira, Sechidis & Brown 2018 ---------------------------------------------------------------------------

def test_nogueira_hand_computed_case():
    """Z = [[1,1,0,0],[1,0,1,0],[1,1,0,0]]: p = (1, 2/3, 1/3, 0), s² = (0, 1/3, 1/3, 0), k̄ = 2, so
    Φ̂ = 1 - (1/6)/(1/4) = 1/3; φ̂_i = (1, 2/3, 1) (Theorem 8's terms by hand), v̂ = 4/9 · 2/27 = 8/243."""
    import numpy as np
    from scipy.stats import norm

    from genesel.stability import nogueira_stability

    st = nogueira_stability([[0, 1], [0, 2], [0, 1]], n_features=4)
    assert st.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert st.variance == pytest.approx(8 / 243, abs=1e-15)
    half = norm.ppf(0.975) * np.sqrt(8 / 243)
    assert (st.lower, st.upper) == pytest.approx((1 / 3 - half, 1 / 3 + half), abs=1e-14)
    same = nogueira_stability(np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]))
    assert same == st


def test_nogueira_is_one_for_identical_sets_and_about_zero_for_random_sets():
    import numpy as np

    from genesel.stability import nogueira_stability

    st = nogueira_stability([[3, 7, 9]] * 5, n_features=50)
    assert st.estimate == pytest.approx(1.0) and st.variance == pytest.approx(0.0)
    rng = np.random.default_rng(0)
    est = [nogueira_stability([rng.choice(200, 10, replace=False) for _ in range(20)], 200).estimate
           for _ in range(300)]
    assert abs(np.mean(est)) < 0.01  # corrected for chance: expectation 0 for random sets of fixed size


def test_nogueira_equals_mean_pairwise_kuncheva_for_equal_sizes():
    """For sets of one size, Φ̂ is the mean pairwise Pearson correlation of the indicator vectors, which is
    Kuncheva's index (Nogueira et al. 2018, section 4): an independent check of the formula."""
    import numpy as np

    from genesel.stability import nogueira_stability

    rng = np.random.default_rng(1)
    sets = [rng.choice(30, 6, replace=False) for _ in range(7)]
    assert nogueira_stability(sets, 30).estimate == pytest.approx(kuncheva_index(sets, 30), abs=1e-12)


def test_nogueira_interval_covers_in_simulation():
    """The asymptotic 95 % interval covers the population stability in most of many repeated experiments
    (selections drawn independently per feature with fixed probabilities p_f, where Φ = 1 - mean p(1-p)/(q(1-q))
    with q = mean p)."""
    import numpy as np

    from genesel.stability import nogueira_stability

    rng = np.random.default_rng(2)
    p = np.r_[np.full(5, 0.9), np.full(5, 0.3), np.full(40, 0.05)]
    q = p.mean()
    phi = 1 - np.mean(p * (1 - p)) / (q * (1 - q))
    cover = 0
    for _ in range(400):
        Z = rng.random((60, p.size)) < p
        st = nogueira_stability(Z.astype(int))
        cover += st.lower <= phi <= st.upper
    assert 0.9 <= cover / 400 <= 0.99


def test_nogueira_refuses_undefined_cases():
    from genesel.stability import nogueira_stability

    with pytest.raises(ValueError, match="undefined"):
        nogueira_stability([[0, 1, 2], [0, 1, 2]], n_features=3)
    with pytest.raises(ValueError, match="at least two"):
        nogueira_stability([[0, 1]], n_features=3)


def test_kuncheva_prefix_index_compares_pairs_at_the_smaller_size():
    from genesel.stability import kuncheva_prefix_index

    a, b = [4, 2, 9], [4, 2]
    assert kuncheva_prefix_index([a, b], 20) == pytest.approx(kuncheva_pair([4, 2], [4, 2], 20))
    assert kuncheva_prefix_index([[1, 2], [3, 4]], 10) == pytest.approx(kuncheva_pair([1, 2], [3, 4], 10))
