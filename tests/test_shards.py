"""Cell shards (genesel.experiments.shards, `genesel shards`): a finished cell carried to a cache of another key is
served exactly as computed; a cell of other code is not served; a damaged or crafted shard is refused by name."""

import hashlib
import json
import lzma

import numpy as np
import pandas as pd
import pytest

from genesel.experiments import shards as S
from genesel.experiments.grid import ENV_CACHE_ONLY, CellsNotCached, run_grid
from genesel.leaderboard.cells import cv_cell, cv_cells

pytestmark = pytest.mark.usefixtures("mirror")

METHODS = ["t-test + SVM", "SVM (all genes)"]


def _cells():
    return cv_cells(["alon"], METHODS, n_repeats=1, n_folds=3, inner_k=3, seed=0, quick=True, max_genes=60)


def _frame(cache):
    return run_grid(_cells(), cv_cell, cache_dir=cache, progress=False).sort_values(["method", "fold"])


def plain_cell(n: int, seed: int) -> dict:
    """A grid function that loads no data (a test that switches the cache key must not touch the parsed-data cache,
    which the same key authenticates): arrays, NaN, a tuple, a long list of integers."""
    rng = np.random.default_rng(seed)
    return {"scores": np.r_[rng.normal(size=n), np.nan, -np.inf], "ints": np.arange(n, dtype=np.int32),
            "nan": float("nan"),
            "pair": (n, "n"), "genes": list(range(0, 40 * n, 3)), "scalar": np.float64(1) / 3}


def test_a_cell_is_served_exactly_on_a_machine_with_another_key(tmp_path, monkeypatch):
    cells = [dict(n=n, seed=s) for n in (1, 5) for s in (0, 1)]
    monkeypatch.setenv("GENESEL_CACHE_KEY", "the first machine's key, 32 characters")
    first = run_grid(cells, plain_cell, cache_dir=tmp_path / "a", progress=False)
    assert S.export_cells(tmp_path / "a", plain_cell, cells, tmp_path / "p.xz")["exported"] == 4
    monkeypatch.setenv("GENESEL_CACHE_KEY", "the second machine's key, 32 characters")
    with pytest.raises(S.ShardError, match="genesel's own grid functions"):  # by name, only genesel's functions
        S.import_shard(tmp_path / "p.xz", tmp_path / "b")
    with pytest.raises(S.ShardError, match="not of"):
        S.import_shard(tmp_path / "p.xz", tmp_path / "b", func=_frame)
    assert S.import_shard(tmp_path / "p.xz", tmp_path / "b", func=plain_cell)["imported"] == 4
    monkeypatch.setenv(ENV_CACHE_ONLY, "1")
    again = run_grid(cells, plain_cell, cache_dir=tmp_path / "b", progress=False)
    for col in ("scores", "ints", "genes"):
        for a, b in zip(first[col], again[col]):
            assert type(a) is type(b) and np.array_equal(a, b, equal_nan=col == "scores")
    assert all(isinstance(v, tuple) for v in again["pair"]) and np.isnan(again["nan"]).all()
    assert (again["scalar"] == np.float64(1) / 3).all()


def test_an_imported_cell_keeps_the_time_it_finished(tmp_path, monkeypatch):
    """A cell carried by a shard is not taken for work finished at the import: `genesel status` reads a record's
    modification time as when its cell finished, and its "last hour" rate counted a whole import as an hour's work
    (34,240 cells at 15.7 CPU seconds per second on 2 cores, the morning of 2026-11-30)."""
    import os
    import time

    from genesel.experiments.cache import func_folder, record_path
    from genesel.experiments.grid import cached_records, cell_key
    from genesel.leaderboard.status import recent_rate

    cells = [dict(n=n, seed=0) for n in (1, 2, 3)]
    run_grid(cells, plain_cell, cache_dir=tmp_path / "a", progress=False)
    then = time.time() - 5 * 86400  # as if computed five days ago
    for c in cells:
        os.utime(record_path(func_folder(tmp_path / "a", plain_cell), cell_key(plain_cell, c)), (then, then))
    S.export_cells(tmp_path / "a", plain_cell, cells, tmp_path / "p.xz")
    assert S.import_shard(tmp_path / "p.xz", tmp_path / "b", func=plain_cell)["imported"] == 3
    keys = [cell_key(plain_cell, c) for c in cells]
    got = cached_records(plain_cell, keys, tmp_path / "b")
    assert sorted(round(r["written"]) for r in got.values()) == [round(then)] * 3
    frame = pd.DataFrame({"done": True, "cpu": 1.0, "wall": 1.0, "finished": [r["written"] for r in got.values()]})
    assert recent_rate(frame) is None
    # a shard of before the time was carried: its cells get the time 0, long ago, not the moment of the import
    head, _, body = lzma.decompress((tmp_path / "p.xz").read_bytes()).partition(b"\n")
    data = json.loads(body)
    for e in data["cells"]:
        del e["finished"]
    S.import_shard(_write(tmp_path / "old.xz", data), tmp_path / "c", func=plain_cell)
    assert [r["written"] for r in cached_records(plain_cell, keys, tmp_path / "c").values()] == [0.0] * 3


@pytest.fixture
def exported(tmp_path):
    first = _frame(tmp_path / "a")
    got = S.export_cells(tmp_path / "a", cv_cell, _cells() + [dict(_cells()[0], seed=7)], tmp_path / "alon.cells.xz")
    assert got == {"exported": 6, "missing": 1}  # the seed-7 cell was never computed
    return first, tmp_path / "alon.cells.xz"


def test_imported_leaderboard_cells_are_served_exactly(exported, tmp_path, monkeypatch):
    first, shard = exported
    assert S.import_shard(shard, tmp_path / "b") == {"imported": 6, "present": 0, "stale": 0,
                                                      "func": "genesel.leaderboard.cells.cv_cell"}
    assert S.import_shard(shard, tmp_path / "b")["present"] == 6
    monkeypatch.setenv(ENV_CACHE_ONLY, "1")  # nothing may be computed: every cell must come from the shard
    again = _frame(tmp_path / "b")
    assert list(again.columns) == list(first.columns)  # the results' keys in their order (shards sorted them once)
    cols = [c for c in first.columns if c not in ("written",)]
    pd.testing.assert_frame_equal(first[cols].reset_index(drop=True), again[cols].reset_index(drop=True))
    with pytest.raises(CellsNotCached):  # a cell the shard does not hold is not invented
        run_grid([dict(_cells()[0], seed=7)], cv_cell, cache_dir=tmp_path / "b", progress=False)


def test_cells_of_other_code_are_stale_and_not_imported(exported, tmp_path, monkeypatch):
    import genesel._version

    _, shard = exported
    monkeypatch.setattr(genesel._version, "__version__", "9.9.9")  # every key of this "code" differs
    got = S.import_shard(shard, tmp_path / "c")
    assert (got["imported"], got["stale"]) == (0, 6)


def _write(path, data):
    body = json.dumps(data).encode()
    head = json.dumps({"format": S.FORMAT, "sha256": hashlib.sha256(body).hexdigest()}).encode()
    path.write_bytes(lzma.compress(head + b"\n" + body))
    return path


def test_damaged_or_crafted_shards_are_refused_by_name(exported, tmp_path, monkeypatch):
    _, shard = exported
    data = json.loads(lzma.decompress(shard.read_bytes()).partition(b"\n")[2])
    blob = bytearray(shard.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    (tmp_path / "flipped.xz").write_bytes(bytes(blob))
    with pytest.raises(S.ShardError, match="flipped.xz"):
        S.read_shard(tmp_path / "flipped.xz")
    head, _, body = lzma.decompress(shard.read_bytes()).partition(b"\n")
    (tmp_path / "edited.xz").write_bytes(lzma.compress(head + b"\n" + body.replace(b'"errors":', b'"errorz":', 1)))
    with pytest.raises(S.ShardError, match="damaged"):
        S.read_shard(tmp_path / "edited.xz")
    code = dict(data, func="os.system")
    with pytest.raises(S.ShardError, match="genesel's own grid functions"):
        S.import_shard(_write(tmp_path / "code.xz", code), tmp_path / "d")
    objects = json.loads(json.dumps(data))
    objects["cells"][0]["result"]["arrays"] = [{"dtype": "|O", "shape": [1], "data": [1]}]
    with pytest.raises(S.ShardError, match="dtype object"):
        S.read_shard(_write(tmp_path / "objects.xz", objects))
    monkeypatch.setattr(S, "MAX_BYTES", 1000)  # a file that expands past the bound is refused before it is parsed
    with pytest.raises(S.ShardError, match="larger than 1000 bytes"):
        S.read_shard(shard)
    (tmp_path / "plain.txt").write_text("not a shard")
    with pytest.raises(S.ShardError, match="not an xz-compressed cell shard"):
        S.read_shard(tmp_path / "plain.txt")


def test_the_command_exports_per_data_set_and_imports_a_folder(tmp_path, monkeypatch, capsys):
    from genesel.cli import main
    from genesel.leaderboard import shards as L

    monkeypatch.setattr("genesel.leaderboard.status.run_cells",
                        lambda mode, datasets, methods, seed, board: {"cv": _cells(), "boot": []})
    _frame(tmp_path / "a")
    assert main(["shards", "export", "--datasets", "alon", "--cache", str(tmp_path / "a"),
                 "--out", str(tmp_path / "out")]) == 0
    assert "6 of      6 cells" in capsys.readouterr().out
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["alon.cv" + L._SUFFIX]
    assert main(["shards", "import", str(tmp_path / "out"), "--cache", str(tmp_path / "b")]) == 0
    assert "6 imported, 0 already in the cache, 0 stale" in capsys.readouterr().out
    (tmp_path / "bad.cells.xz").write_text("x")
    assert main(["shards", "import", str(tmp_path / "bad.cells.xz"), "--cache", str(tmp_path / "b")]) == 1
    assert "bad.cells.xz" in capsys.readouterr().out


def test_a_papers_grid_is_carried_whole(tmp_path, monkeypatch, capsys):
    """`genesel shards export --papers`: the cells of a papers' notebook (whose cell list only the notebook knows)
    are carried one file per grid function, and served exactly after import; cells of other code are left out."""
    import genesel._version
    from genesel.cli import main
    from genesel.papers.tan2006_ch45 import preprocessing_cell

    first = run_grid([dict(dataset="alon")], preprocessing_cell, cache_dir=tmp_path / "a", progress=False)
    out = tmp_path / "out"
    assert main(["shards", "export", "--papers", "--cache", str(tmp_path / "a"), "--out", str(out)]) == 0
    assert "1 cells (0 stale and 0 of users' files, left out)" in capsys.readouterr().out
    name = "genesel.papers.tan2006_ch45.preprocessing_cell.cells.xz"
    assert [p.name for p in out.iterdir()] == [name]
    assert main(["shards", "import", str(out), "--cache", str(tmp_path / "b")]) == 0
    assert "1 imported" in capsys.readouterr().out
    monkeypatch.setenv(ENV_CACHE_ONLY, "1")
    again = run_grid([dict(dataset="alon")], preprocessing_cell, cache_dir=tmp_path / "b", progress=False)
    pd.testing.assert_frame_equal(first, again)
    monkeypatch.setattr(genesel._version, "__version__", "9.9.9")  # the cached cell is now of other code
    got = S.export_cached(tmp_path / "a", preprocessing_cell, tmp_path / "stale.xz")
    assert (got["exported"], got["stale"]) == (0, 1)


def test_a_cell_of_a_users_file_is_not_carried(tmp_path):
    """A shard may be committed: a cell that names a user's file (its path on this machine) is left out."""
    study = tmp_path / "my study.csv"
    study.write_text("id,class,g1\ns1,a,1\ns2,b,2\n")
    assert S.names_no_file(dict(dataset="alon", sources=["golub", "singh"], B=2))
    assert not S.names_no_file(dict(dataset=str(study)))
    assert not S.names_no_file(dict(dataset="alon", sources=["golub", f"{study}?label=class"]))
    cells = [dict(n=1, seed=0), dict(n=2, seed=0)]
    run_grid(cells, plain_cell, cache_dir=tmp_path / "a", progress=False)
    got = S.export_cached(tmp_path / "a", plain_cell, tmp_path / "p.xz", keep=lambda c: c["n"] == 1)
    assert (got["exported"], got["skipped"]) == (1, 1)


def test_an_export_reads_the_code_closure_once(tmp_path, monkeypatch):
    """Exporting a papers' grid computes its module's code digest once, not once per cell (twice per cell made the
    export of 25,000 cells take over half an hour), and the keys it checks are still the grid's own: every cell is
    exported, none stale."""
    from genesel.experiments import codekey, grid

    cells = [dict(n=n, seed=0) for n in (1, 2, 3)]
    run_grid(cells, plain_cell, cache_dir=tmp_path / "a", progress=False)
    calls = []

    def counted(func, roots=None):
        calls.append(func)
        return real(func, roots)

    real = codekey.function_digest
    monkeypatch.setattr(codekey, "function_digest", counted)
    monkeypatch.setattr(grid, "function_digest", counted)
    got = S.export_cached(tmp_path / "a", plain_cell, tmp_path / "p.xz")
    assert (got["exported"], got["stale"], got["missing"]) == (3, 0, 0)
    assert len(calls) == 2  # once to check the stored keys, once to look the cells up


def test_every_committed_shard_reads():
    """The shards a rerun carries in figures/cells (figures/README.md) are whole: each decompresses within the
    bound, matches its SHA-256 and names a grid function of this genesel."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "figures" / "cells"
    for path in sorted(root.rglob("*.cells.xz")):
        data = S.read_shard(path, results=False)  # the results are decoded on import (tested above)
        assert data["cells"] and S.grid_function(data["func"]), path


def test_compute_fills_the_cache_resumes_and_names_a_failing_cell(tmp_path, monkeypatch, capsys):
    """`genesel shards compute` computes the board's cells into the cache (then `export` finds every one), computes
    nothing a second time, and a cell that raises is named while the others are cached (exit status 1)."""
    from genesel.cli import main

    monkeypatch.setattr("genesel.leaderboard.status.run_cells",
                        lambda mode, datasets, methods, seed, board: {"cv": _cells(), "boot": []})
    args = ["shards", "compute", "--datasets", "alon", "--cache", str(tmp_path / "a"), "--quiet"]
    assert main(args) == 0
    assert "6 of      6 cells cached (6 new, 0 failed)" in capsys.readouterr().out
    assert main(args) == 0
    assert "6 of      6 cells cached (0 new, 0 failed)" in capsys.readouterr().out
    expect = _frame(tmp_path / "b")  # the same cells computed by the grid itself: the same results
    monkeypatch.setenv(ENV_CACHE_ONLY, "1")
    got = _frame(tmp_path / "a")
    timed = [c for c in got.columns if c.endswith("seconds")]  # how long a cell took differs from run to run
    pd.testing.assert_frame_equal(got.drop(columns=timed).reset_index(drop=True),
                                  expect.drop(columns=timed).reset_index(drop=True), check_like=True)
    monkeypatch.delenv(ENV_CACHE_ONLY)
    bad = [dict(c, fold=99) if i == 0 else c for i, c in enumerate(_cells())]
    monkeypatch.setattr("genesel.leaderboard.status.run_cells",
                        lambda mode, datasets, methods, seed, board: {"cv": bad, "boot": []})
    assert main(["shards", "compute", "--datasets", "alon", "--cache", str(tmp_path / "c"), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "5 of      6 cells cached (5 new, 1 failed)" in out and "failed: t-test + SVM" in out and "IndexError" in out
