"""The cached, resumable, parallel grid runner.

``run_grid(cells, func)`` calls ``func(**cell)`` for every cell (a dict of plain JSON-able parameters: data set,
protocol, split index, method, hyper-parameters, seed) and returns one tidy ``pandas.DataFrame``: one row per
dict that ``func`` returns (it may return a dict or a list of dicts), with the cell's parameters as columns.

Cache. Each cell's result is written to ``<cache_dir>/<func>/<key>.pkl`` the moment it comes back, atomically
(temp file + rename), by the process that called ``run_grid`` (workers never write, so a worker orphaned by a
killed parent cannot add files, and a remote cluster needs no access to the cache). The key hashes the function's
qualified name, the cell, the genesel version and the code the cell can run: the function's module and the
first-party modules it imports, transitively (:mod:`genesel.experiments.codekey`). A change to that code never
serves stale numbers; a change elsewhere (another paper's module) keeps the cache. An interrupted grid restarted
with the same cells recomputes only what is missing; a finished grid reruns from disk.

Integrity. Every cache file carries a sha256 of its content and the key it was stored under; on reading, a file
that fails either check (bit rot, a truncated or hand-edited file, a file copied under the wrong name) is deleted,
reported once with its path, and recomputed. Temporary files of interrupted writes are removed by
:func:`clear_cache` and, once older than an hour, by the next ``run_grid`` on the same folder.

Interrupts. Ctrl-C (``KeyboardInterrupt``) stops the workers (joblib terminates its pool). A parent that dies
without cleaning up (``kill -9``, a crash, an out-of-memory kill) takes its workers with it: each worker process
watches its parent and exits within a fraction of a second once it is gone (see :func:`_exit_with_parent`), and
loky's resource trackers follow when the last worker has gone. Nothing is half-written: only the parent writes,
atomically.

Parallelism. ``n_jobs > 1`` with a joblib backend (``"loky"``, default: worker processes on this machine), or
``backend="dask"`` to run the cells on a ``dask.distributed`` cluster: ``scheduler="tcp://host:8786"`` (a running
scheduler, e.g. started by ``dask-jobqueue`` on SLURM), a ``distributed.Client``, or ``None`` (the current client
if there is one, else a ``LocalCluster`` with ``n_jobs`` single-threaded worker processes). Install it with
``pip install genesel[distributed]``. The workers need the package and the data (``GENESEL_DATA_MIRROR`` or a
shared ``GENESEL_DATA_DIR``); results travel back to this process, which writes the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from genesel._core.io import CacheIntegrityWarning, atomic_write
from genesel.experiments.codekey import function_digest

__all__ = ["run_grid", "cell_key", "default_cache_dir", "clear_cache", "CacheIntegrityWarning"]

ENV_CACHE = "GENESEL_CACHE_DIR"
_MAGIC = b"GENESEL-CELL-1\n"
_STALE_TMP_SECONDS = 3600.0


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


def cell_key(func, cell: dict, *, code: str | None = None) -> str:
    """The cache key of one cell: function name, cell, genesel version and the digest of the code it can run."""
    from genesel._version import __version__

    code = function_digest(func) if code is None else code
    payload = json.dumps({"func": _func_name(func), "cell": _key_cell(cell), "version": __version__, "code": code},
                         sort_keys=True, default=_jsonable)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _key_cell(cell: dict) -> dict:
    """The cell as its cache key sees it: every parameter that names a user's file (a data set read from a path,
    :func:`genesel.expression_io.looks_like_path`) is replaced by the file's content identity (its sha256, and its
    sample sheet's), not its path: editing the file recomputes the cell, moving or renaming it does not
    (:func:`genesel.expression_io.file_identity`)."""
    from genesel.expression_io import file_identity, looks_like_path

    def sub(v):
        if isinstance(v, str) and looks_like_path(v):
            ident = file_identity(v)
            return v if ident is None else {"file": ident}
        if isinstance(v, (list, tuple)):
            return [sub(x) for x in v]
        if isinstance(v, dict):
            return {k: sub(x) for k, x in v.items()}
        return v

    return {k: sub(v) for k, v in cell.items()}


def _folder(cache_dir: Path, func) -> Path:
    safe = getattr(func, "__qualname__", "func").replace("<", "").replace(">", "").replace(".", "_")
    return cache_dir / safe


def _encode(key: str, func, cell: dict, result) -> bytes:
    payload = pickle.dumps({"key": key, "func": _func_name(func), "cell": cell, "result": result},
                           protocol=pickle.HIGHEST_PROTOCOL)
    return _MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def _write(path: Path, data: bytes) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))


def _read(path: Path, key: str):
    """(hit, result). A file that fails its integrity checks is deleted and reported; the cell is recomputed."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return False, None
    problem = None
    if not data.startswith(_MAGIC):
        problem = "not a genesel cell file (unknown header)"
    else:
        head, _, payload = data[len(_MAGIC):].partition(b"\n")
        if hashlib.sha256(payload).hexdigest().encode() != head:
            problem = "checksum mismatch (the file was changed or damaged after it was written)"
        else:
            try:
                rec = pickle.loads(payload)
            except Exception as exc:  # noqa: BLE001 - any unpickling failure means a damaged file
                rec, problem = None, f"cannot be read ({type(exc).__name__})"
            if rec is not None and (not isinstance(rec, dict) or rec.get("key") != key):
                problem = "stored under another key (copied or renamed)"
    if problem is None:
        return True, rec["result"]
    path.unlink(missing_ok=True)
    warnings.warn(f"cached cell {path} was {problem}; deleted, recomputing it", CacheIntegrityWarning, stacklevel=3)
    return False, None


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


def _sweep_tmp(folder: Path, older_than: float) -> int:
    if not folder.exists():
        return 0
    now = time.time()
    n = 0
    for p in folder.glob("**/.*.tmp"):
        try:
            if now - p.stat().st_mtime >= older_than:
                p.unlink()
                n += 1
        except FileNotFoundError:
            pass
    return n


def _call(func, cell):
    return func(**cell)


_WATCHED_PARENT: list[int] = []
_WATCH_INTERVAL = 0.2  # seconds between two looks at the parent


def _exit_with_parent(parent_pid: int) -> None:
    """In a worker process: start (once) a daemon thread that ends this process as soon as ``parent_pid``, the
    process that runs ``run_grid``, is gone (killed, crashed, or exited without shutting its pool down).

    When a parent dies, the kernel hands its children to another process, so ``os.getppid()`` stops being
    ``parent_pid``; the thread sees that within ``_WATCH_INTERVAL`` seconds and calls ``os._exit`` (no clean-up:
    a worker never writes to the cache, so there is nothing to finish). The thread needs the GIL for that
    look, so a cell stuck in one long compiled call that holds it (a numba kernel) ends when that call returns.
    Nothing is started in the parent itself (``threading`` backend, ``n_jobs=1``) or in a process that is not
    a direct child of the parent (a remote or forkserver-started worker: its own pool manages it).
    """
    import threading

    if _WATCHED_PARENT or os.getpid() == parent_pid:
        return
    if os.getppid() != parent_pid:
        try:
            os.kill(parent_pid, 0)
        except ProcessLookupError:  # the parent died before this worker took its first cell
            os._exit(70)
        except OSError:
            pass
        return
    _WATCHED_PARENT.append(parent_pid)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(_WATCH_INTERVAL)
        os._exit(70)  # EX_SOFTWARE: the parent vanished

    threading.Thread(target=watch, name="genesel-parent-watch", daemon=True).start()


def _call_in_worker(key, func, cell, parent_pid):
    _exit_with_parent(parent_pid)
    return key, func(**cell)


class _TextProgress:
    """Plain-text progress for notebooks and logs (no widgets, nothing on stderr): a line when the work starts,
    one at most every ``interval`` seconds, and one at the end."""

    def __init__(self, total, initial, desc, interval=30.0):
        self.total, self.done, self.desc, self.interval = total, initial, desc, interval
        self.start = self.last = time.perf_counter()
        self.todo = total - initial
        if self.todo:
            cached = f", {initial} from the cache" if initial else ""
            print(f"{desc}: {total} cells{cached}; computing {self.todo} ...", flush=True)

    def update(self, n=1):
        self.done += n
        now = time.perf_counter()
        if now - self.last >= self.interval and self.done < self.total:
            self.last = now
            ran = self.done - (self.total - self.todo)
            eta = (now - self.start) / max(ran, 1) * (self.total - self.done)
            print(f"{self.desc}: {self.done}/{self.total} cells ({100 * self.done / self.total:.0f} %), "
                  f"{now - self.start:.0f} s so far, about {eta:.0f} s to go", flush=True)

    def close(self):
        if self.todo:
            print(f"{self.desc}: {self.done}/{self.total} cells done ({time.perf_counter() - self.start:.1f} s)",
                  flush=True)


class _NoProgress:
    def update(self, n=1):
        pass

    def close(self):
        pass


def _progress(total: int, initial: int, desc: str, enabled: bool):
    """A tqdm bar in a terminal, plain text lines elsewhere (notebooks, papermill, logs), nothing if disabled."""
    if not enabled:
        return _NoProgress()
    if sys.stdout.isatty():
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, desc=desc, unit="cell", mininterval=1.0, file=sys.stdout)
    return _TextProgress(total, initial, desc)


def _dask_results(func, todo: dict, n_jobs: int, scheduler):
    """Yield (key, result) as the cells finish on a dask.distributed cluster."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("backend='dask' needs dask.distributed: pip install 'genesel[distributed]'") from exc
    own = None
    if isinstance(scheduler, Client):
        client = scheduler
    elif scheduler is not None:
        client = own = Client(scheduler)
    else:
        try:
            client = Client.current()
        except ValueError:
            cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = own = Client(cluster)
    try:
        futures = {client.submit(_call, func, c, pure=False, key=f"genesel-cell-{k}"): k for k, c in todo.items()}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        finally:
            client.cancel(list(futures))
    finally:
        if own is not None:
            cluster = getattr(own, "cluster", None)
            own.close()
            if cluster is not None:
                cluster.close()


def run_grid(cells, func, *, cache_dir=None, n_jobs: int = 1, backend: str = "loky", scheduler=None,
             desc: str | None = None, progress: bool = True, use_cache: bool = True) -> pd.DataFrame:
    """Run ``func(**cell)`` for each cell, reusing cached results; return the tidy results frame.

    Parameters
    ----------
    cells : list of dicts of JSON-able values. Duplicate cells are computed once.
    func : a module-level function (picklable for parallel backends) returning a dict or a list of dicts.
    cache_dir : where cell results live (default ``$GENESEL_CACHE_DIR`` or ``runs/cache`` in the repository).
    n_jobs : parallel workers (``1``: in this process).
    backend : a joblib backend (``"loky"``, ``"threading"``, ...) or ``"dask"`` (see the module doc).
    scheduler : for ``backend="dask"``: a scheduler address, a ``distributed.Client`` or None.
    use_cache : ``False`` computes everything and writes nothing.

    If a cell raises, the exception propagates after the results already computed have been cached, so the
    same call after a fix resumes where it stopped.
    """
    cells = [dict(c) for c in cells]
    for c in cells:
        json.dumps(c, default=_jsonable)  # fail early, naming the offending value's type
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder = _folder(cache_dir, func)
    if use_cache:
        _sweep_tmp(folder, _STALE_TMP_SECONDS)
    code = function_digest(func)
    keys = [cell_key(func, c, code=code) for c in cells]
    results: dict[str, object] = {}
    todo: dict[str, dict] = {}
    for k, c in zip(keys, cells):
        if k in results or k in todo:
            continue
        hit, val = _read(folder / f"{k}.pkl", k) if use_cache else (False, None)
        if hit:
            results[k] = val
        else:
            todo[k] = c

    def store(k, val):
        results[k] = val
        if use_cache:
            _write(folder / f"{k}.pkl", _encode(k, func, todo[k], val))

    bar = _progress(len(set(keys)), len(results), desc or getattr(func, "__name__", "cells"), progress)
    try:
        if todo:
            if backend == "dask":
                it = _dask_results(func, todo, n_jobs, scheduler)
            elif n_jobs == 1:
                it = ((k, _call(func, c)) for k, c in todo.items())
            else:
                from joblib import Parallel, delayed

                par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")
                parent = os.getpid()
                it = par(delayed(_call_in_worker)(k, func, c, parent) for k, c in todo.items())
            for k, val in it:
                store(k, val)
                bar.update()
    finally:
        bar.close()
    rows = []
    for k, c in zip(keys, cells):
        rows.extend(_rows(c, results[k]))
    return pd.DataFrame(rows)


def clear_cache(func=None, cache_dir=None) -> int:
    """Delete cached cell results (of one function, or all) and any temporary files of interrupted writes;
    returns how many files were removed."""
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if not cache_dir.exists():
        return 0
    folder = cache_dir if func is None else _folder(cache_dir, func)
    n = _sweep_tmp(folder, 0.0)
    for p in folder.glob("*/*.pkl" if func is None else "*.pkl"):
        p.unlink()
        n += 1
    return n
