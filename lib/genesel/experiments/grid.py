"""The cached, resumable, parallel grid runner.

``run_grid(cells, func)`` calls ``func(**cell)`` for every cell (a dict of plain JSON-able parameters: data set,
protocol, split index, method, hyper-parameters, seed) and returns one tidy ``pandas.DataFrame``: one row per
dict that ``func`` returns (it may return a dict or a list of dicts), with the cell's parameters as columns.

Cache. Each cell's result is written to ``<cache_dir>/<module>.<func>/<key>.rec`` the moment it comes back, atomically
(temp file + rename), by the process that called ``run_grid`` (workers never write, so a worker orphaned by a
killed parent cannot add files, and a remote cluster needs no access to the cache). The key hashes the function's
qualified name, the cell, the genesel version and the code the cell can run: the function's module and the
first-party modules it imports, transitively (:mod:`genesel.experiments.codekey`), or, where the function declares
a finer digest as its ``cache_code`` attribute (a callable of the cell), that digest: the leaderboard keys its cells
by the code of their method (:mod:`genesel.leaderboard.keys`). A change to that code never
serves stale numbers; a change elsewhere (another paper's module) keeps the cache. An interrupted grid restarted
with the same cells recomputes only what is missing; a finished grid reruns from disk.

Sharing, failures. Two runs on one cache share the work: a cell is claimed before it is computed, a run skips the
cells another run has claimed and reads their records when they come (:mod:`genesel.experiments.claims`). A worker
process that dies (the out-of-memory killer, a crash) fails only the cell that killed it, found by running the
cells that were in flight again one at a time, and named with its parameters
(:class:`genesel.experiments.workers.WorkerDied`; with ``on_error="finish"`` the other cells go on, on loky and on
dask). A cache that cannot be written (a full disk) stops the grid with :class:`CacheWriteError` naming the path
and the remedy; what was written stays.

Integrity and trust. A record is plain data (JSON and arrays, never a pickle: reading one cannot run code) and
carries an HMAC made with a key kept outside the cache (:mod:`genesel._core.store`); a record that is damaged,
forged, written with another key or stored under another cell's name is deleted, reported once with its path
(:class:`CacheIntegrityWarning`) and recomputed (:mod:`genesel.experiments.cache`). A cache written with another key
(a mistyped ``GENESEL_CACHE_KEY``, a key file created anew) is not damage: the run stops before it reads or deletes
anything (:class:`CacheKeyMismatch`, from the key fingerprint at the cache root). Temporary files of interrupted
writes are removed by :func:`clear_cache` and, once older than an hour, by the next ``run_grid`` on the same folder.

Cache only. With ``GENESEL_CACHE_ONLY`` set (``genesel run --cache-only``), a grid that finds any of its cells
missing from the cache computes nothing and raises :class:`CellsNotCached`, naming the grid, how many cells are
missing and the first of them. That is the last pass of a run computed in pieces (across sessions, on a cluster):
the notebooks read every cell and write the tables, and a cell whose key moved since (its code edited, another
genesel version) stops the pass at once instead of starting hours of computing.

Interrupts. Ctrl-C (``KeyboardInterrupt``) stops the workers (joblib terminates its pool). A parent that dies
without cleaning up (``kill -9``, a crash, an out-of-memory kill) takes its workers with it, even inside a long
numba call (:mod:`genesel.experiments.workers`), and loky's resource trackers follow when the last worker has gone.
Nothing is half-written: only the parent writes, atomically.

Parallelism. ``n_jobs > 1`` with a joblib backend (``"loky"``, default: worker processes on this machine), or
``backend="dask"`` to run the cells on a ``dask.distributed`` cluster: ``scheduler="tcp://host:8786"`` (a running
scheduler, e.g. one started by ``dask-jobqueue`` on SLURM, see :mod:`genesel.experiments.cluster`), a
``distributed.Client``, or ``None`` (the current client if there is one, else a ``LocalCluster`` with ``n_jobs``
single-threaded worker processes). With ``GENESEL_SCHEDULER`` set (``make full SCHEDULER=...`` sets it), every grid
that does not name a backend runs on that scheduler. On dask, cells travel in batches sized from what they cost
(:mod:`genesel.experiments.batching`), with a few tasks per worker in flight; results stream back and are cached as
they arrive. Install it with ``pip install genesel[distributed]``. The workers need the package and the data
(``GENESEL_DATA_MIRROR`` or a shared ``GENESEL_DATA_DIR``).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from genesel._core.io import CacheIntegrityWarning
from genesel.experiments.cache import (CacheKeyMismatch, CacheWriteError, CostBook, check_cache_key, cost_key,
                                       drop_legacy, func_folder, legacy_folder, moved_folders, read_cell, record_path,
                                       sweep_tmp, write_cell)
from genesel.experiments.cache import STALE_TMP_SECONDS as _STALE_TMP_SECONDS
from genesel.experiments.claims import ClaimBook, WorkQueue
from genesel.experiments.codekey import function_digest
from genesel.experiments.progress import progress as _progress
from genesel.experiments.workers import WorkerDied

__all__ = ["run_grid", "cell_key", "default_cache_dir", "clear_cache", "CacheIntegrityWarning", "ENV_SCHEDULER",
           "ENV_CACHE_ONLY", "CellFailed", "GridCellsFailed", "CellsNotCached", "cached_records", "WorkerDied",
           "CacheWriteError", "CacheKeyMismatch"]

ENV_CACHE = "GENESEL_CACHE_DIR"
ENV_SCHEDULER = "GENESEL_SCHEDULER"
ENV_CACHE_ONLY = "GENESEL_CACHE_ONLY"


def cache_only() -> bool:
    """Whether grids may only read their cache (``GENESEL_CACHE_ONLY`` set to anything but "", "0", "false", "no")."""
    return os.environ.get(ENV_CACHE_ONLY, "").strip().lower() not in ("", "0", "false", "no")


def default_cache_dir() -> Path:
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env)
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").exists():
        return root / "runs" / "cache"
    return Path.cwd() / "runs" / "cache"


def _jsonable(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if isinstance(v, Path):
        return str(v)
    raise TypeError(f"grid cell values must be JSON-able (numbers, strings, lists, dicts), got {type(v).__name__}")


def _func_name(func) -> str:
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"


def cell_code(func, cell: dict, module_code: str | None = None) -> str:
    """The digest of the code one cell can run: the cell function's own ``cache_code(cell)`` where it declares one
    (a finer key, e.g. per method: :mod:`genesel.leaderboard.keys`), else the closure of its module
    (``module_code``, computed when not given)."""
    finer = getattr(func, "cache_code", None)
    if finer is not None:
        return str(finer(cell))
    return function_digest(func) if module_code is None else module_code


def cell_key(func, cell: dict, *, code: str | None = None) -> str:
    """The cache key of one cell: the function's qualified name (not its module's: where the code lives is no part
    of the key), the cell, genesel's version and the digest of the code it can run (:func:`cell_code` unless
    ``code`` is given; module names do not count there either, :mod:`genesel.experiments.codekey`). So moving or
    renaming a module recomputes nothing, and any change to the code a cell runs recomputes it."""
    from genesel._version import __version__

    code = cell_code(func, cell) if code is None else code
    qual = getattr(func, "__qualname__", None) or repr(func)
    payload = json.dumps({"func": qual, "cell": _key_cell(cell), "version": __version__, "code": code},
                         sort_keys=True, default=_jsonable)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def cell_keys(func, cells) -> list[str]:
    """The cache keys of ``cells`` (:func:`cell_key`), the digest of the function's module closure computed once for
    all of them (it reads the closure's sources, about 0.15 s; a function that keys its cells finer, by
    ``cache_code``, keys each cell by that)."""
    code = None if getattr(func, "cache_code", None) is not None else function_digest(func)
    return [cell_key(func, c, code=cell_code(func, c, code)) for c in cells]


def _key_cell(cell: dict) -> dict:
    """The cell as its cache key sees it: every parameter that names a user's file (a
    :class:`genesel.dataref.DataRef`, or its string form) is replaced by the reference's identity
    (:meth:`~genesel.dataref.DataRef.key`: the sha256 of the file and its sample sheets, with its reading options),
    not its path: editing the file recomputes the cell, moving or renaming it does not. A string that names no
    existing file is kept as it is."""
    from genesel.dataref import DataRef, is_file_reference

    def sub(v):
        if isinstance(v, DataRef) or (isinstance(v, str) and is_file_reference(v)):
            try:
                return DataRef.of(v).key()
            except (FileNotFoundError, ValueError):
                return str(v)
        if isinstance(v, (list, tuple)):
            return [sub(x) for x in v]
        if isinstance(v, dict):
            return {k: sub(x) for k, x in v.items()}
        return v

    return {k: sub(v) for k, v in cell.items()}


def _rows(cell: dict, result) -> list[dict]:
    if result is None:
        return []
    results = result if isinstance(result, list) else [result]
    rows = []
    for r in results:
        if not isinstance(r, dict):
            raise TypeError(f"a grid function must return a dict or a list of dicts, got {type(r).__name__}")
        clash = set(r) & set(cell)
        if clash:
            raise ValueError(f"result keys {sorted(clash)} repeat cell parameters; rename them")
        rows.append({**cell, **r})
    return rows


class CellFailed:
    """What a cell that raised returns under ``on_error="finish"``: the exception's type, message and traceback as
    text (picklable whatever the exception was); the grid caches nothing for it."""

    def __init__(self, exc: BaseException):
        import traceback

        self.kind = type(exc).__name__
        self.message = str(exc)
        self.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))

    def __repr__(self):
        return f"{self.kind}: {self.message}"


class GridCellsFailed(RuntimeError):
    """Raised by :func:`run_grid` with ``on_error="finish"`` after every other cell has been computed and cached:
    ``failures`` lists (cell, :class:`CellFailed`); the same call after a fix computes only those cells."""

    def __init__(self, name: str, failures: list):
        self.failures = failures
        lines = [f"{len(failures)} cell(s) of {name} failed; every other cell is computed and cached, so the same "
                 "call after a fix computes only these:"]
        lines += [f"  {json.dumps(c, sort_keys=True, default=str)}: {f!r}" for c, f in failures[:10]]
        if len(failures) > 10:
            lines.append(f"  ... and {len(failures) - 10} more")
        lines.append("the first one's traceback:\n" + failures[0][1].traceback)
        super().__init__("\n".join(lines))


class CellsNotCached(RuntimeError):
    """Raised by :func:`run_grid` in cache-only mode (``GENESEL_CACHE_ONLY``) when cells are missing from the cache,
    before anything is computed; ``missing`` lists them."""

    def __init__(self, name: str, missing: list, total: int, cache_dir):
        self.missing = missing
        first = json.dumps(missing[0], sort_keys=True, default=str)
        super().__init__(
            f"{name}: {len(missing)} of {total} cells are not in the cache {cache_dir}, and {ENV_CACHE_ONLY} is set "
            f"(this run may only read the cache): nothing was computed. The first missing cell: {first}. A cell's key "
            "holds its parameters, genesel's version and the code it runs: check that this is the code and the "
            f"parameters of the run that filled the cache, or unset {ENV_CACHE_ONLY} to compute them.")


def _timed(func, cell, finish: bool = False):
    """(result, (wall seconds, CPU seconds of this process)) of one cell; with ``finish`` an exception is returned
    as a :class:`CellFailed` instead of raised."""
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        res = func(**cell)
    except Exception as exc:  # noqa: BLE001 - returned to the parent, which raises it (or all of them) itself
        if not finish:
            raise
        res = CellFailed(exc)
    return res, (time.perf_counter() - t0, time.process_time() - c0)


def _cell_in_worker(key, func, cell, parent_pid, finish=False):
    from genesel.experiments.workers import exit_with_parent

    exit_with_parent(parent_pid)
    return (key, *_timed(func, cell, finish))


class _RunCell:
    """``run(key, cell)`` in a worker process: the picklable task of the loky runner."""

    def __init__(self, func, parent_pid, finish):
        self.func, self.parent_pid, self.finish = func, parent_pid, finish

    def __call__(self, key, cell):
        return _cell_in_worker(key, self.func, cell, self.parent_pid, self.finish)


def _serial(func, work, finish=False):
    while True:
        item = work.take()
        if item is None:
            if work.wait():
                continue
            return
        k, c = item
        yield (k, *_timed(func, c, finish))


def _joblib(func, work, n_jobs, backend, finish=False):
    """Another joblib backend (``"threading"``, ...): its workers are threads of this process or joblib's own."""
    from joblib import Parallel, delayed

    parent = os.getpid()
    while True:
        par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")
        yield from par(delayed(_cell_in_worker)(k, func, c, parent, finish) for k, c in iter(work.take, None))
        if not work.wait():
            return


def _resolve_backend(backend, scheduler):
    """(backend, scheduler): ``backend=None`` means dask on ``$GENESEL_SCHEDULER`` when that is set, else loky."""
    if backend is None:
        env = os.environ.get(ENV_SCHEDULER, "").strip()
        if env:
            return "dask", (scheduler if scheduler is not None else env)
        return "loky", scheduler
    return backend, scheduler


def run_grid(cells, func, *, cache_dir=None, n_jobs: int = 1, backend: str | None = None, scheduler=None,
             desc: str | None = None, progress: bool = True, use_cache: bool = True,
             on_error: str = "stop") -> pd.DataFrame:
    """Run ``func(**cell)`` for each cell, reusing cached results; return the tidy results frame.

    Parameters
    ----------
    cells : list of dicts of JSON-able values. Duplicate cells are computed once.
    func : a module-level function (picklable for parallel backends) returning a dict or a list of dicts of plain
        data (numbers, strings, None, lists, tuples, dicts, NumPy arrays and scalars: what a cache record holds).
    cache_dir : where cell results live (default ``$GENESEL_CACHE_DIR`` or ``runs/cache`` in the repository).
    n_jobs : parallel workers (``1``: in this process; with dask and no cluster given: local worker processes).
    backend : a joblib backend (``"loky"``, ``"threading"``, ...) or ``"dask"`` (see the module doc); ``None``:
        dask on ``$GENESEL_SCHEDULER`` when it is set, else ``"loky"``.
    scheduler : for ``backend="dask"``: a scheduler address, a ``distributed.Client`` or None.
    use_cache : ``False`` computes everything and writes nothing.
    on_error : ``"stop"`` (default): a cell that raises stops the grid; its exception propagates after the results
        already computed have been cached, so the same call after a fix resumes where it stopped. ``"finish"``: the
        other cells go on (an unattended run of many hours is not lost to one failing cell); every result is
        cached as it comes, then :class:`GridCellsFailed` lists the failing cells with their errors.
    """
    if on_error not in ("stop", "finish"):
        raise ValueError(f"on_error must be 'stop' or 'finish', got {on_error!r}")
    finish = on_error == "finish"
    cells = [dict(c) for c in cells]
    for c in cells:
        json.dumps(c, default=_jsonable)  # fail early, naming the offending value's type
    backend, scheduler = _resolve_backend(backend, scheduler)
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder, legacy = func_folder(cache_dir, func), legacy_folder(cache_dir, func)
    others = [legacy, *moved_folders(cache_dir, func)]  # the old layout; the folders of a moved module
    name = _func_name(func)
    if use_cache:
        check_cache_key(cache_dir)  # before any record is read or deleted
        sweep_tmp(folder, _STALE_TMP_SECONDS)
        drop_legacy(folder)
        drop_legacy(legacy)
    keys = cell_keys(func, cells)
    costs = CostBook(folder, enabled=use_cache, legacy=legacy)
    results: dict[str, object] = {}
    todo: dict[str, dict] = {}

    def lookup(k):
        return read_cell(folder, k, legacy=others)

    def note_cost(k, c, secs):
        if secs is not None and costs.get(cost_key(name, c)) is None:
            costs.add(cost_key(name, c), secs)

    for k, c in zip(keys, cells):
        if k in results or k in todo:
            continue
        hit, val, secs = lookup(k) if use_cache else (False, None, None)
        if hit:
            results[k] = val
            note_cost(k, c, secs)
        else:
            todo[k] = c

    if todo and cache_only():
        raise CellsNotCached(desc or name, list(todo.values()), len(set(keys)), cache_dir)
    bar = _progress(len(set(keys)), len(results), desc or getattr(func, "__name__", "cells"), progress)

    def cached_elsewhere(k, val, secs):  # another run on this cache computed it meanwhile
        results[k] = val
        note_cost(k, todo[k], secs)
        bar.update()

    claims = ClaimBook(folder) if use_cache and todo else None
    work = WorkQueue(todo, claims, lookup if use_cache else None, cached_elsewhere)

    def store(k, val, secs):
        if use_cache:
            wall, cpu = secs
            try:
                write_cell(folder, k, name, todo[k], val, wall, cpu)
            except CacheWriteError as exc:
                left = len(set(keys)) - len(results)
                raise CacheWriteError(
                    f"{exc}. The grid {desc or name} stopped; the {len(results)} cell(s) already in the cache stay "
                    f"there, and the same call, once the cache can be written, computes only the {left} left.",
                    exc.errno, exc.filename) from exc
            costs.add(cost_key(name, todo[k]), wall)
            work.release(k)
        results[k] = val

    def on_death(k, cell, detail):
        err = WorkerDied(cell, desc or name, detail)
        failure = CellFailed(err)
        failure.error = err
        return k, failure, (0.0, 0.0)

    failed: list = []
    stopping = False
    try:
        if todo:
            if backend == "dask":
                from genesel.experiments.dask_runner import dask_results

                est = {k: costs.get(cost_key(name, c)) for k, c in todo.items()}
                it = dask_results(func, work, est, n_jobs, scheduler, finish, on_death)
            elif _effective_jobs(n_jobs) == 1:
                it = _serial(func, work, finish)
            elif backend == "loky":
                from genesel.experiments.workers import loky_results

                it = loky_results(_RunCell(func, os.getpid(), finish), work, _effective_jobs(n_jobs), on_death)
            else:
                it = _joblib(func, work, n_jobs, backend, finish)
            try:
                for k, val, secs in it:
                    if isinstance(val, CellFailed):
                        work.release(k)
                        if not finish:
                            raise getattr(val, "error", None) or RuntimeError(f"cell {todo[k]}: {val!r}")
                        failed.append((todo[k], val))
                    else:
                        store(k, val, secs)
                    bar.update()
            finally:
                close = getattr(it, "close", None)
                if close is not None:
                    close()  # a generator stopped early kills its workers
    except BaseException:
        stopping = True
        raise
    finally:
        bar.close()
        if claims is not None:
            claims.release_all()
        try:
            costs.save()
        except OSError:
            if not stopping:  # a failed write of the cost record must not hide why the grid stopped
                raise
    if failed:
        raise GridCellsFailed(desc or name, failed)
    rows = []
    for k, c in zip(keys, cells):
        rows.extend(_rows(c, results[k]))
    return pd.DataFrame(rows)


def _effective_jobs(n_jobs: int) -> int:
    from joblib import effective_n_jobs

    return effective_n_jobs(n_jobs)


def cached_records(func, keys, cache_dir=None) -> dict:
    """{key: record} of the cells of ``func`` among ``keys`` (:func:`cell_key`) that are in the cache: what a grid
    would serve without computing. A record holds ``cell``, ``result``, ``seconds`` (wall), ``cpu_seconds`` (when
    recorded) and ``written`` (the file's modification time: when the cell finished). Records that fail their checks
    are left out here; the grid reports and recomputes them when it runs. Raises :class:`CacheKeyMismatch` for a
    cache written with another key (nothing is deleted)."""
    from genesel._core.store import RecordError, read_record

    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if not cache_dir.is_dir():
        return {}
    check_cache_key(cache_dir, write=False)
    folders = [func_folder(cache_dir, func), legacy_folder(cache_dir, func), *moved_folders(cache_dir, func)]
    out = {}
    for k in keys:
        for folder in folders:
            p = record_path(folder, k)
            try:
                rec = read_record(p, kind="cell")
                written = p.stat().st_mtime
            except FileNotFoundError:
                continue
            except (RecordError, OSError, MemoryError, ValueError):
                break
            if isinstance(rec, dict) and rec.get("key") == k and "result" in rec:
                out[k] = {**rec, "written": written}
            break
    return out


def clear_cache(func=None, cache_dir=None) -> int:
    """Delete cached cell results (of one function, or all), their cost records, expired claims and any temporary
    files of interrupted writes; returns how many files were removed.

    With ``func``, only that function's: its folder (named by module and function, so a function of the same name
    in another module keeps its cells) and, in the folder of the old layout shared by every function of that name,
    the records whose ``func`` is this function (:mod:`genesel.experiments.cache`); records there that cannot be
    read are left to the grid that owns them."""
    from genesel._core.store import read_record

    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if not cache_dir.exists():
        return 0
    if func is None:
        n = sweep_tmp(cache_dir, 0.0)
        for pat in ("*.rec", "*.pkl"):
            for p in cache_dir.glob(f"*/{pat}"):
                p.unlink()
                n += 1
        for folder in (p for p in cache_dir.iterdir() if p.is_dir()):
            n += ClaimBook(folder).sweep_expired()
        return n
    folder = func_folder(cache_dir, func)
    n = sweep_tmp(folder, 0.0) if folder.exists() else 0
    for pat in ("*.rec", "*.pkl"):
        for p in folder.glob(pat):
            p.unlink()
            n += 1
    n += ClaimBook(folder).sweep_expired()
    legacy, name = legacy_folder(cache_dir, func), _func_name(func)
    if legacy.is_dir() and legacy != folder:
        for p in legacy.glob("*.rec"):
            if p.name == "costs.rec":
                continue
            try:
                rec = read_record(p, kind="cell")
            except Exception:  # noqa: BLE001 - unreadable: not known to be this function's
                continue
            if isinstance(rec, dict) and rec.get("func") == name:
                p.unlink(missing_ok=True)
                n += 1
    return n
