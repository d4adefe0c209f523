"""Notebook 03 on studies that share few probe IDs (a user's file): sizes and B values the shared genes cannot hold
are left out and said so; a B too large for them is refused naming the limit."""

import pytest

from genesel.papers.helleputte2009_report import within_genes


def test_sizes_and_b_values_beyond_the_shared_genes_are_left_out_and_named():
    sizes, grid, note = within_genes(300, [5, 10, 200, 300, 500], [20, 100, 500], 100)
    assert sizes == [5, 10, 200] and grid == [20, 100]  # 300 = all genes: the same signature in every resampling
    assert "300, 500" in note and "B = 500" in note


def test_nothing_is_left_out_when_the_studies_share_enough_genes():
    assert within_genes(12600, [5, 1000], [20, 1000], 100) == ([5, 1000], [20, 1000], "")


def test_a_b_or_sizes_the_shared_genes_cannot_hold_are_refused():
    with pytest.raises(ValueError, match=r"'B' = 100: the studies share only 80 probe IDs; choose B between 1 and 80"):
        within_genes(80, [5], [20], 100)
    with pytest.raises(ValueError, match=r"'sizes' = \[100, 200\]: .* below 80"):
        within_genes(80, [100, 200], [20], 50)
