"""Cache-only runs (``GENESEL_CACHE_ONLY``, ``genesel run --cache-only``): the last pass of a run computed in pieces
reads every cell from the cache and computes nothing; a missing cell stops it at once, named."""

from __future__ import annotations

import pytest

from genesel.experiments.grid import ENV_CACHE_ONLY, CellsNotCached, run_grid

CALLS: list = []


def square(x):
    """A cell: records that it ran (in this process: the grids below are serial)."""
    CALLS.append(x)
    return {"y": x * x}


def test_a_cache_only_grid_reads_every_cached_cell_and_computes_nothing(tmp_path, monkeypatch):
    cells = [{"x": i} for i in range(3)]
    first = run_grid(cells, square, cache_dir=tmp_path, progress=False)
    assert sorted(CALLS) == [0, 1, 2]
    CALLS.clear()
    monkeypatch.setenv(ENV_CACHE_ONLY, "1")
    again = run_grid(cells, square, cache_dir=tmp_path, progress=False)
    assert CALLS == []
    assert again.equals(first)


def test_a_missing_cell_stops_a_cache_only_grid_before_anything_is_computed(tmp_path, monkeypatch):
    run_grid([{"x": 1}, {"x": 2}], square, cache_dir=tmp_path, progress=False)
    CALLS.clear()
    monkeypatch.setenv(ENV_CACHE_ONLY, "yes")
    with pytest.raises(CellsNotCached) as err:
        run_grid([{"x": 1}, {"x": 2}, {"x": 7}, {"x": 8}], square, cache_dir=tmp_path, progress=False,
                 desc="squares")
    msg = str(err.value)
    assert CALLS == []
    assert msg.startswith("squares: 2 of 4 cells are not in the cache") and '{"x": 7}' in msg
    assert ENV_CACHE_ONLY in msg and [c["x"] for c in err.value.missing] == [7, 8]
    # nothing was written either: without the flag, both missing cells are computed now
    monkeypatch.setenv(ENV_CACHE_ONLY, "0")
    run_grid([{"x": 7}, {"x": 8}], square, cache_dir=tmp_path, progress=False)
    assert sorted(CALLS) == [7, 8]


def test_genesel_run_cache_only_reaches_the_notebooks_kernel(tmp_path, monkeypatch):
    """The flag is passed to the kernel's environment for the run only, and not left behind."""
    pm = pytest.importorskip("papermill")
    from genesel.records import runner

    seen = []

    def fake_execute(src, dst, **kw):
        import os
        import shutil

        seen.append(os.environ.get(ENV_CACHE_ONLY))
        shutil.copy(src, dst)

    monkeypatch.setattr(pm, "execute_notebook", fake_execute)
    monkeypatch.delenv(ENV_CACHE_ONLY, raising=False)
    nb = runner.notebook_paths(["00"])[0]
    runner.execute_notebook(nb, tmp_path / "a", quick=True, cache_only=True)
    runner.execute_notebook(nb, tmp_path / "b", quick=True)
    assert seen == ["1", None]
    import os

    assert ENV_CACHE_ONLY not in os.environ

    ran = []
    monkeypatch.setattr(runner, "run_notebook", lambda *a, **k: ran.append(k) or tmp_path)
    assert runner.main(["--cache-only", "00"]) == 0
    assert ran and ran[0]["cache_only"] is True
