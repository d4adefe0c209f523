"""Split protocols and the cached, resumable grid runner."""


import numpy as np
import pandas as pd
import pytest

from genesel.experiments import (
    cell_key,
    leave_one_out,
    make_splits,
    nested_cv,
    paper_vs_genesel,
    permuted_training_orders,
    random_splits,
    repeated_nested_cv,
    run_grid,
    stratified_kfold,
    summarise,
)

Y = np.array([0] * 22 + [1] * 40)


def _check_partition(splits, n):
    for tr, te in splits:
        assert not set(tr) & set(te)
        assert len(set(tr)) == len(tr) and len(set(te)) == len(te)
        assert set(tr) | set(te) <= set(range(n))


def test_random_splits_seeded_and_prefix_stable():
    a = random_splits(Y, 50, 20, seed=3)
    b = random_splits(Y, 50, 5, seed=3)
    _check_partition(a, len(Y))
    assert all(len(tr) == 50 and len(te) == 12 for tr, te in a)
    for (t1, s1), (t2, s2) in zip(a, b):  # quick runs are prefixes of full runs
        np.testing.assert_array_equal(t1, t2)
        np.testing.assert_array_equal(s1, s2)
    c = random_splits(Y, 50, 5, seed=4)
    assert any(not np.array_equal(x[0], z[0]) for x, z in zip(b, c))


def test_stratified_random_splits_keep_proportions():
    for tr, _ in random_splits(Y, 31, 10, seed=0, stratified=True):
        assert np.sum(Y[tr] == 0) == 11 and np.sum(Y[tr] == 1) == 20


def test_permuted_orders_same_sets_new_order():
    tr0, te0 = np.arange(38), np.arange(38, 72)
    perms = permuted_training_orders(tr0, te0, 4, seed=0)
    for tr, te in perms:
        assert sorted(tr) == list(tr0)
        np.testing.assert_array_equal(te, te0)
    assert len({tuple(p[0]) for p in perms}) == 4


def test_loo_and_kfold():
    loo = leave_one_out(7)
    assert len(loo) == 7 and all(len(te) == 1 and len(tr) == 6 for tr, te in loo)
    folds = stratified_kfold(Y, 10, seed=1)
    _check_partition(folds, len(Y))
    te_all = np.sort(np.concatenate([te for _, te in folds]))
    np.testing.assert_array_equal(te_all, np.arange(len(Y)))
    for _, te in folds:  # stratified: each test fold has 2-3 of the 22 and 4 of the 40
        assert np.sum(Y[te] == 0) in (2, 3) and np.sum(Y[te] == 1) == 4


def test_nested_cv_inner_only_inside_outer_training():
    for tr, te, inner in repeated_nested_cv(Y, 5, 3, 2, seed=0):
        for itr, iva in inner:
            assert set(itr) | set(iva) == set(tr)
            assert not set(itr) & set(te) and not set(iva) & set(te)
    assert len(nested_cv(Y, 5, 3, seed=0)) == 5


def test_make_splits_dispatch():
    assert len(make_splits("random", Y, seed=0, n_train=50, n_splits=3)) == 3
    assert len(make_splits("kfold", Y, seed=0, k=5, n_repeats=2)) == 10
    assert len(make_splits("loo", Y)) == len(Y)
    with pytest.raises(ValueError, match="unknown protocol"):
        make_splits("bootstrap", Y)
    with pytest.raises(ValueError, match="seed is required"):
        random_splits(Y, 50, 2, seed=None)


# --- grid runner ---------------------------------------------------------------------------------------------

def square_cell(a, b, flag_dir):
    """A cell that counts its calls in files and fails once for a == 3 while a 'fail' file exists."""
    from pathlib import Path

    d = Path(flag_dir)
    (d / f"call_{a}_{len(list(d.glob(f'call_{a}_*')))}").touch()
    if a == 3 and (d / "fail").exists():
        raise RuntimeError("cell 3 fails this time")
    return [{"value": a * a + b, "part": 0}, {"value": -(a * a + b), "part": 1}]


def _calls(d, a):
    return len(list(d.glob(f"call_{a}_*")))


def test_grid_resumes_after_a_cell_raises(tmp_path):
    flags = tmp_path / "flags"
    flags.mkdir()
    (flags / "fail").touch()
    cells = [{"a": a, "b": 1, "flag_dir": str(flags)} for a in range(6)]
    with pytest.raises(RuntimeError, match="cell 3 fails"):
        run_grid(cells, square_cell, cache_dir=tmp_path / "cache", progress=False)
    assert [_calls(flags, a) for a in range(6)] == [1, 1, 1, 1, 0, 0]
    (flags / "fail").unlink()
    df = run_grid(cells, square_cell, cache_dir=tmp_path / "cache", progress=False)
    # cells 0-2 came from the cache; 3 was retried; 4-5 ran for the first time
    assert [_calls(flags, a) for a in range(6)] == [1, 1, 1, 2, 1, 1]
    assert len(df) == 12 and set(df.columns) == {"a", "b", "flag_dir", "value", "part"}
    assert df.loc[df.part == 0, "value"].tolist() == [a * a + 1 for a in range(6)]
    df2 = run_grid(cells, square_cell, cache_dir=tmp_path / "cache", progress=False)  # finished: all cached
    assert [_calls(flags, a) for a in range(6)] == [1, 1, 1, 2, 1, 1]
    pd.testing.assert_frame_equal(df, df2)


def test_grid_parallel_equals_sequential(tmp_path):
    flags = tmp_path / "f"
    flags.mkdir()
    cells = [{"a": a, "b": 2, "flag_dir": str(flags)} for a in range(5)]
    seq = run_grid(cells, square_cell, use_cache=False, progress=False)
    par = run_grid(cells, square_cell, cache_dir=tmp_path / "c", n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(seq, par)


def test_cell_key_depends_on_cell_and_function():
    k1 = cell_key(square_cell, {"a": 1})
    assert k1 == cell_key(square_cell, {"a": 1})
    assert k1 != cell_key(square_cell, {"a": 2})
    assert k1 != cell_key(test_loo_and_kfold, {"a": 1})


def test_grid_rejects_non_json_cells(tmp_path):
    with pytest.raises(TypeError, match="JSON-able"):
        run_grid([{"a": object()}], square_cell, cache_dir=tmp_path, progress=False)


def test_tables():
    df = pd.DataFrame({"method": ["x", "x", "y", "y"], "n": [1, 1, 1, 1], "err": [0.1, 0.3, 0.2, 0.2]})
    s = summarise(df, "method", "err")
    assert s.loc["x", "mean"] == pytest.approx(0.2) and s.loc["y", "std"] == pytest.approx(0.0)
    wide = summarise(df, "method", "err", columns="n")
    assert wide[("mean", 1)]["x"] == pytest.approx(0.2)
    t = paper_vs_genesel([{"quantity": "q", "paper": "1", "genesel": "2"}])
    assert list(t.columns) == ["protocol", "paper", "genesel", "note"]
