"""The preprocessed splits shared by the leaderboard's cells of one process (protocol.PREPARED) and the order of the
grids that lets them share (cells.cv_cells, cells.boot_cells): serving a split prepared for another method changes
no number and no warning count, never serves data changed in place, and keeps the arrays' layout."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.pipeline import Pipeline

from genesel import GeneStandardizer, LogTransform
from genesel.leaderboard import cells as C
from genesel.leaderboard import protocol as P


class _Warns(TransformerMixin, BaseEstimator):
    """A preprocessing step that warns once per fit."""

    def fit(self, X, y=None):
        warnings.warn("a step that warns", UserWarning, stacklevel=2)
        self.fitted_ = True
        return self

    def transform(self, X):
        return np.asarray(X) * 2.0


def _data():
    rng = np.random.default_rng(0)
    X = np.exp(rng.normal(5.0, 1.0, size=(20, 30)))
    X[:, 3] = 7.0  # constant: dropped
    return X, np.arange(14), np.arange(14, 20)


def test_a_served_split_is_the_computed_one_as_a_fresh_copy_in_its_layout():
    X, tr, te = _data()
    prep = Pipeline([("log", LogTransform()), ("standardize", GeneStandardizer())])
    memo = P.PreparedSplits(maxsize=4)
    ref = P.prepare_uncached(prep, X, tr, te)
    first = memo.get(prep, X, tr, te)
    again = memo.get(prep, X, tr, te)
    assert (memo.misses, memo.hits) == (1, 1)
    for r, a, b in zip(ref, first, again):
        np.testing.assert_array_equal(r, a)
        np.testing.assert_array_equal(r, b)
        assert r.flags["C_CONTIGUOUS"] == b.flags["C_CONTIGUOUS"] and r.flags["F_CONTIGUOUS"] == b.flags["F_CONTIGUOUS"]
        assert not np.shares_memory(a, b)
    assert 3 not in first[2]
    again[0][:] = 0.0  # a method that writes into its input changes no other method's
    np.testing.assert_array_equal(memo.get(prep, X, tr, te)[0], ref[0])
    # another split, other preprocessing parameters: computed
    memo.get(prep, X, tr[1:], te)
    memo.get(Pipeline([("log", LogTransform(floor=200.0)), ("standardize", GeneStandardizer())]), X, tr, te)
    assert memo.misses == 3


def test_data_changed_in_place_or_other_data_is_prepared_again():
    X, tr, te = _data()
    prep = Pipeline([("standardize", GeneStandardizer())])
    memo = P.PreparedSplits()
    memo.get(prep, X, tr, te)
    X[0, 0] += 1.0  # the same array, another value
    got = memo.get(prep, X, tr, te)
    np.testing.assert_array_equal(got[0], P.prepare_uncached(prep, X, tr, te)[0])
    memo.get(prep, X.copy(), tr, te)  # equal values, another array: computed (only the very array is served)
    assert (memo.misses, memo.hits) == (3, 0)


def test_warnings_are_raised_at_every_reuse_and_the_size_is_capped():
    X, tr, te = _data()
    prep = Pipeline([("w", _Warns())])
    memo = P.PreparedSplits(maxsize=2, max_bytes=10**9)
    for _ in range(3):
        with pytest.warns(UserWarning, match="a step that warns"):
            memo.get(prep, X, tr, te)
    assert memo.hits == 2
    warnings.simplefilter("ignore", UserWarning)  # pytest restores the filters after the test
    for k in range(4):
        memo.get(prep, X, tr[k:], te)
    assert len(memo._entries) == 2
    small = P.PreparedSplits(maxsize=8, max_bytes=1)  # one entry at least, whatever its size
    small.get(prep, X, tr, te)
    small.get(prep, X, tr[1:], te)
    assert len(small._entries) == 1
    off = P.PreparedSplits(maxsize=0)
    off.get(prep, X, tr, te)
    off.get(prep, X, tr, te)
    assert (off.hits, off.misses, off._entries) == (0, 0, {})


def test_cells_served_a_prepared_split_are_the_cells_computed_alone(mirror, monkeypatch):
    """Two methods on the same outer fold: every number of their cells, the warning counts included, the same with
    the shared splits as with each cell preparing its own; the second method is served."""
    cells = [("alon", m, 0, 1, 3, 3) for m in ("Wilcoxon + SVM", "shrunken centroids (SC.l)")]
    monkeypatch.setattr(P, "PREPARED", P.PreparedSplits(maxsize=0))
    alone = [C.cv_cell(*c, seed=0, quick=True, max_genes=80) for c in cells]
    shared = P.PreparedSplits()
    monkeypatch.setattr(P, "PREPARED", shared)
    served = [C.cv_cell(*c, seed=0, quick=True, max_genes=80) for c in cells]
    assert shared.hits >= 4 and shared.misses == 4  # 3 inner parts and the outer part, prepared once
    for a, b in zip(alone, served):
        for k in a:
            if k not in ("cpu_seconds", "wall_seconds"):
                assert a[k] == b[k], k


def test_the_grids_list_the_methods_of_a_split_together(monkeypatch):
    monkeypatch.setattr(C, "outer_folds", lambda d, k, g=None: {"a": 3, "b": 2}[d])
    cv = C.cv_cells(["a", "b"], ["m1", "m2", "m3"], n_repeats=2, n_folds=5, inner_k=3, seed=0, quick=True)
    assert len(cv) == 2 * 3 * (3 + 2) and len({tuple(sorted(c.items())) for c in cv}) == len(cv)
    splits = [(c["dataset"], c["repeat"], c["fold"]) for c in cv]
    assert [s for i, s in enumerate(splits) if i % 3 == 0] == sorted(set(splits))  # a split's methods in a row
    for d in "ab":
        for m in ("m1", "m2", "m3"):
            own = [(c["repeat"], c["fold"]) for c in cv if (c["dataset"], c["method"]) == (d, m)]
            assert own == sorted(own)  # each (data set, method) keeps the order (repeat, fold)
    boot = C.boot_cells(["a"], ["m1", "m2"], n_boot=3, inner_k=3, seed=0, quick=True, views={})
    assert [(c["boot"], c["method"]) for c in boot] == [(b, m) for b in range(-1, 3) for m in ("m1", "m2")]
