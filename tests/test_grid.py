"""genesel.experiments.grid and .codekey: per-module cache keys, cache integrity, file modes, the dask backend."""

import hashlib
import os
import shutil
import stat
import warnings
from pathlib import Path

import pandas as pd
import pytest

from genesel.experiments import CacheIntegrityWarning, cell_key, clear_cache, run_grid
from genesel.experiments.grid import GridCellsFailed
from genesel.experiments.codekey import closure_digest, code_closure

ROOT = Path(__file__).resolve().parents[1]


def poly_cell(a, b):
    """A module-level cell (picklable for every backend)."""
    return {"value": a * a + b, "half": (a * a + b) / 2.0}


def list_cell(a):
    return [{"i": i, "x": a + i / 3.0} for i in range(3)]


# ---------------------------------------------------------------------------------------------- per-module keys


@pytest.fixture()
def tree(tmp_path):
    """A private copy of the package sources, to edit without touching the checkout."""
    lib = tmp_path / "lib"
    shutil.copytree(ROOT / "lib" / "genesel", lib / "genesel", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data_fetch", tmp_path / "data_fetch", ignore=shutil.ignore_patterns("__pycache__"))
    return {"genesel": lib, "data_fetch": tmp_path}


def test_gentile_key_ignores_other_papers_and_follows_alma(tree):
    cell = "genesel.papers.gentile2003"
    before = closure_digest(cell, tree)
    closure = code_closure(cell, tree)
    assert "genesel.alma" in closure and "genesel.filters" in closure and "genesel.datasets" in closure
    assert "genesel.gp" not in closure and "genesel.rfe" not in closure and "genesel.experiments.grid" not in closure
    # a new or edited module of another paper (Shah 2012's stumps) leaves the key alone
    stumps = tree["genesel"] / "genesel" / "stumps.py"
    stumps.write_text("def conjunction():\n    return 1\n")
    assert closure_digest(cell, tree) == before
    stumps.write_text("def conjunction():\n    return 2\n")
    assert closure_digest(cell, tree) == before
    # so does a docstring or comment edit of a module the cell runs
    alma = tree["genesel"] / "genesel" / "alma.py"
    src = alma.read_text()
    alma.write_text(src.replace('"""ALMA_p and the ALMA-based', '"""(edited docstring) ALMA_p and the ALMA-based', 1)
                    + "\n# a trailing comment\n")
    assert closure_digest(cell, tree) == before
    # a code change in alma.py changes it
    alma.write_text(src.replace("return alpha * (1.0 - alpha)", "return alpha * (1.0 - alpha) * 1.0"))
    assert closure_digest(cell, tree) != before


def test_key_follows_re_exports_to_the_defining_module(tree):
    """``from genesel.experiments import random_splits`` depends on protocols.py, not on the grid runner."""
    closure = code_closure("genesel.papers.gentile2003", tree)
    assert "genesel.experiments.protocols" in closure
    assert "genesel.experiments" not in closure
    before = closure_digest("genesel.papers.gentile2003", tree)
    grid = tree["genesel"] / "genesel" / "experiments" / "grid.py"
    grid.write_text(grid.read_text() + "\nX_EDIT = 1\n")
    assert closure_digest("genesel.papers.gentile2003", tree) == before


def test_cell_key_depends_on_cell_function_and_code():
    k1 = cell_key(poly_cell, {"a": 1, "b": 0})
    assert k1 == cell_key(poly_cell, {"a": 1, "b": 0})
    assert k1 != cell_key(poly_cell, {"a": 2, "b": 0})
    assert k1 != cell_key(list_cell, {"a": 1, "b": 0})
    assert k1 != cell_key(poly_cell, {"a": 1, "b": 0}, code="another digest")


CALLS = []


def counted_cell(part, x):
    CALLS.append((part, x))
    return {"y": x + 1}


def test_a_cell_function_may_declare_finer_keys(tmp_path, monkeypatch):
    """run_grid keys a cell by the function's ``cache_code(cell)`` when it has one (the leaderboard's per-method
    keys): changing the code of one part recomputes that part's cells only."""
    codes = {"a": "code of a, v1", "b": "code of b, v1"}
    monkeypatch.setattr(counted_cell, "cache_code", lambda cell: codes[cell["part"]], raising=False)
    cells = [{"part": p, "x": x} for p in "ab" for x in range(3)]
    CALLS.clear()
    run_grid(cells, counted_cell, cache_dir=tmp_path, progress=False)
    assert len(CALLS) == 6
    assert cell_key(counted_cell, cells[0]) == cell_key(counted_cell, cells[0], code="code of a, v1")
    codes["a"] = "code of a, v2"
    CALLS.clear()
    out = run_grid(cells, counted_cell, cache_dir=tmp_path, progress=False)
    assert sorted(CALLS) == [("a", 0), ("a", 1), ("a", 2)] and list(out["y"]) == [1, 2, 3, 1, 2, 3]


def fragile_cell(x, marker):
    """Fails for odd x while the file ``marker`` exists (the bug before its fix). The path comes as "<path": a
    value run_grid does not take for a data file (whose content identity would then be part of the key)."""
    if x % 2 and Path(marker[1:]).exists():
        raise ValueError(f"cell {x} cannot run")
    return {"y": 10 * x}


@pytest.mark.parametrize("n_jobs,backend", [(1, None), (2, "loky"), (2, "dask")])
def test_on_error_finish_runs_every_other_cell_then_names_the_failures(tmp_path, n_jobs, backend):
    if backend == "dask":
        pytest.importorskip("distributed")
    marker = tmp_path / "bug"
    marker.write_text("")
    cells = [{"x": x, "marker": f"<{marker}"} for x in range(6)]
    cache = tmp_path / "cache"
    with pytest.raises(GridCellsFailed) as info:
        run_grid(cells, fragile_cell, cache_dir=cache, n_jobs=n_jobs, backend=backend, progress=False,
                 on_error="finish")
    assert sorted(c["x"] for c, _ in info.value.failures) == [1, 3, 5]
    assert "ValueError: cell 1 cannot run" in str(info.value) and "Traceback" in str(info.value)
    assert len(_files(cache)) == 3  # the even cells are cached
    marker.unlink()  # the fix
    out = run_grid(cells, fragile_cell, cache_dir=cache, n_jobs=n_jobs, backend=backend, progress=False,
                   on_error="finish")
    assert list(out["y"]) == [0, 10, 20, 30, 40, 50] and len(_files(cache)) == 6


def test_on_error_stop_is_the_default_and_a_wrong_value_is_refused(tmp_path):
    marker = tmp_path / "bug"
    marker.write_text("")
    with pytest.raises(ValueError, match="cell 1 cannot run"):
        run_grid([{"x": x, "marker": f"<{marker}"} for x in range(3)], fragile_cell, cache_dir=tmp_path,
                 progress=False)
    with pytest.raises(ValueError, match="on_error"):
        run_grid([], fragile_cell, cache_dir=tmp_path, on_error="ignore")


def test_cached_records_are_what_the_grid_would_serve(tmp_path):
    from genesel.experiments.grid import cached_records

    cells = [{"a": a, "b": 1} for a in range(3)]
    run_grid(cells[:2], poly_cell, cache_dir=tmp_path, progress=False)
    keys = [cell_key(poly_cell, c) for c in cells]
    recs = cached_records(poly_cell, keys, tmp_path)
    assert set(recs) == set(keys[:2])
    assert recs[keys[1]]["result"] == {"value": 2, "half": 1.0} and recs[keys[1]]["cell"] == cells[1]
    assert recs[keys[0]]["written"] > 0 and recs[keys[0]]["cpu_seconds"] >= 0
    f = next(p for p in _files(tmp_path) if p.stem == keys[0])
    f.write_bytes(f.read_bytes()[:-30])  # damaged: left out
    assert set(cached_records(poly_cell, keys, tmp_path)) == {keys[1]}


# ---------------------------------------------------------------------------------------------- integrity


def _files(cache):
    """The cell records (not the cost record) under ``cache``."""
    return sorted(p for p in Path(cache).glob("*/*.rec") if p.name != "costs.rec")


def test_results_round_trip_exactly_and_files_are_world_readable(tmp_path):
    cells = [{"a": a} for a in range(4)]
    first = run_grid(cells, list_cell, cache_dir=tmp_path, progress=False)
    again = run_grid(cells, list_cell, cache_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    for p in _files(tmp_path):
        mode = stat.S_IMODE(p.stat().st_mode)
        assert mode & stat.S_IROTH, oct(mode)


@pytest.mark.parametrize("damage", ["bitflip", "truncate", "swap", "garbage"])
def test_damaged_cache_file_is_reported_deleted_and_recomputed(tmp_path, damage):
    cells = [{"a": 1.5, "b": 0.1}, {"a": 2.5, "b": 0.2}]
    ref = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    f1, f2 = _files(tmp_path)
    data = bytearray(f1.read_bytes())
    if damage == "bitflip":
        data[-20] ^= 0x01
        f1.write_bytes(bytes(data))
    elif damage == "truncate":
        f1.write_bytes(bytes(data[: len(data) // 2]))
    elif damage == "swap":  # a valid file stored under another cell's name
        f1.write_bytes(f2.read_bytes())
    else:
        f1.write_bytes(b"None")
    with pytest.warns(CacheIntegrityWarning, match=str(f1.name)):
        got = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(ref, got, check_exact=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheIntegrityWarning)
        run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)  # repaired: no warning any more


def test_clear_cache_removes_interrupted_writes(tmp_path):
    run_grid([{"a": 1, "b": 2}], poly_cell, cache_dir=tmp_path, progress=False)
    folder = _files(tmp_path)[0].parent
    stale = folder / ".deadbeef.rec.abc.tmp"
    stale.write_bytes(b"half a pick")
    old = stale.stat().st_mtime - 7200
    os.utime(stale, (old, old))
    fresh = folder / ".cafe.rec.def.tmp"
    fresh.write_bytes(b"being written by another run")
    run_grid([{"a": 1, "b": 2}], poly_cell, cache_dir=tmp_path, progress=False)
    assert not stale.exists() and fresh.exists()  # only stale temp files are swept by a run
    assert clear_cache(poly_cell, cache_dir=tmp_path) == 3  # the result, the cost record and the other temp file
    assert not any(folder.iterdir())


# ---------------------------------------------------------------------------------------------- dask


def test_dask_local_cluster_gives_the_serial_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    cells = [{"a": a, "b": b} for a in range(5) for b in (0.5, 1.5)]
    serial = run_grid(cells, poly_cell, use_cache=False, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        par = run_grid(cells, poly_cell, cache_dir=tmp_path, backend="dask", scheduler=client, progress=False)
        pd.testing.assert_frame_equal(serial, par, check_exact=True)
        assert len(_files(tmp_path)) == len(cells)  # written by this process as results came back
        # by address, as a user would point it at a running scheduler; everything now comes from the cache
        again = run_grid(cells, poly_cell, cache_dir=tmp_path, backend="dask", scheduler=cluster.scheduler_address,
                         progress=False)
    pd.testing.assert_frame_equal(serial, again, check_exact=True)


def test_digest_is_stable_across_calls():
    a = closure_digest("genesel.papers.guyon2002")
    assert a == closure_digest("genesel.papers.guyon2002")
    assert len(a) == len(hashlib.sha256().hexdigest())


# ---------------------------------------------------------------------------------------------- interrupts

_KILL_SCRIPT = '''
import signal, sys, time
# Ctrl-C as in a terminal: a process started by a pytest-xdist worker (or in the background by a shell) inherits
# SIGINT ignored, and then the grid ran to its end and the test took a minute without testing Ctrl-C at all
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {here!r})
from genesel.experiments import run_grid

def nap(i):
    time.sleep(0.3)
    return {{"i2": i * i}}

if __name__ == "__main__":
    import kill_cells
    run_grid([{{"i": i}} for i in range(400)], kill_cells.nap, cache_dir={cache!r}, n_jobs=2, progress=False)
'''


def _alive(procs):
    import psutil

    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.mark.parametrize("signame", ["SIGKILL", "SIGINT"])
def test_killed_grid_leaves_no_process_behind(tmp_path, signame):
    """kill -9 (or Ctrl-C) of a process running ``run_grid(..., n_jobs=2)`` mid-grid: its loky workers and the
    resource trackers end within seconds (they used to compute on for minutes), and every cell file written
    before the kill reads back intact."""
    import signal
    import subprocess
    import sys
    import time

    psutil = pytest.importorskip("psutil")
    from genesel.experiments.cache import read_cell

    cache = tmp_path / "cache"
    (tmp_path / "kill_cells.py").write_text(
        "import time\n\ndef nap(i):\n    time.sleep(0.3)\n    return {'i2': i * i}\n")
    script = tmp_path / "run.py"
    script.write_text(_KILL_SCRIPT.format(here=str(tmp_path), cache=str(cache)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids = []
    try:
        deadline = time.monotonic() + 180
        while not _files(cache):  # wait until the workers are computing cells
            assert proc.poll() is None, "the grid process ended early"
            assert time.monotonic() < deadline, "no cell finished in 180 s"
            time.sleep(0.2)
        kids = psutil.Process(proc.pid).children(recursive=True)
        assert len(kids) >= 2
        proc.send_signal(getattr(signal, signame))
        t_signal = time.monotonic()
        proc.wait(timeout=300)  # a guard; the grid's 400 cells of 0.3 s would take a minute on 2 workers:
        assert time.monotonic() - t_signal < 30, f"{signame}: the grid went on instead of stopping"
        deadline = time.monotonic() + 30
        while _alive(kids) and time.monotonic() < deadline:
            time.sleep(0.2)
        survivors = [(p.pid, " ".join(p.cmdline())[:80]) for p in _alive(kids)]
        assert not survivors, f"processes left behind after {signame}: {survivors}"
    finally:
        for p in _alive(kids):
            p.kill()
        if proc.poll() is None:
            proc.kill()
    written = _files(cache)
    assert written
    for f in written:
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheIntegrityWarning)
            hit, val, _ = read_cell(f.parent, f.stem)
        assert hit and set(val) == {"i2"}


_NUMBA_CELLS = """
import os, time
from numba import njit


@njit(cache=False)
def spin(n):
    acc = 0.0
    for i in range(n):
        acc += (i % 7) * 1e-9
    return acc


def long_numba(i, folder):
    open(os.path.join(folder, f"started-{i}-{os.getpid()}"), "w").close()
    return {"acc": spin(10 ** 12)}  # minutes inside one compiled call that holds the GIL
"""

_NUMBA_SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from genesel.experiments import run_grid

if __name__ == "__main__":
    import numba_cells
    run_grid([{{"i": i, "folder": {here!r}}} for i in range(4)], numba_cells.long_numba, cache_dir={cache!r},
             n_jobs=2, progress=False)
"""


def test_killed_parent_takes_workers_stuck_in_a_long_numba_call_with_it(tmp_path):
    """kill -9 of the parent while both workers sit inside one long numba call (which holds the GIL, so no Python
    thread of theirs can run): the kernel kills them with the parent (PR_SET_PDEATHSIG); none is alive 5 s later."""
    import signal
    import subprocess
    import sys
    import time

    psutil = pytest.importorskip("psutil")
    if not sys.platform.startswith("linux"):
        pytest.skip("the kernel's parent-death signal is Linux only")
    (tmp_path / "numba_cells.py").write_text(_NUMBA_CELLS)
    script = tmp_path / "run.py"
    script.write_text(_NUMBA_SCRIPT.format(here=str(tmp_path), cache=str(tmp_path / "cache")))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        deadline = time.monotonic() + 180
        while len(list(tmp_path.glob("started-*"))) < 2:
            assert proc.poll() is None, "the grid process ended early"
            assert time.monotonic() < deadline, "the cells did not start in 180 s"
            time.sleep(0.2)
        time.sleep(2.0)  # both are now compiling or inside the compiled loop
        pids = {int(p.name.split("-")[-1]) for p in tmp_path.glob("started-*")}
        workers = [psutil.Process(pid) for pid in pids]
        assert all(w.cpu_percent(interval=1.0) > 5 for w in workers), "the workers are not computing"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        time.sleep(5.0)
        survivors = [(w.pid, " ".join(w.cmdline())[:80]) for w in _alive(workers)]
        assert not survivors, f"workers still running 5 s after the parent's kill -9: {survivors}"
    finally:
        for w in _alive(workers):
            w.kill()
        if proc.poll() is None:
            proc.kill()


def spin_cell(n):
    """CPU-bound work (a pure-Python loop)."""
    acc = 0
    for i in range(n):
        acc += i % 7
    return {"acc": acc}


def test_records_hold_the_wall_and_cpu_seconds_of_their_cell(tmp_path):
    """The cost model (benchmarks/cost_model.py) reads them: CPU seconds are steadier than wall seconds on a
    shared machine."""
    from genesel._core.store import read_record

    run_grid([{"n": 300_000}, {"n": 10}], spin_cell, cache_dir=tmp_path, progress=False)
    recs = {read_record(p, kind="cell")["cell"]["n"]: read_record(p, kind="cell") for p in _files(tmp_path)}
    assert recs[300_000]["cpu_seconds"] > 0 and recs[300_000]["seconds"] > 0
    assert recs[300_000]["cpu_seconds"] > recs[10]["cpu_seconds"]
