"""The cached, resumable, parallel grid runner.

``run_grid(cells, func)`` calls ``func(**cell)`` for every cell (a dict of plain JSON-able parameters: data set,
protocol, split index, method, hyper-parameters, seed) and returns one tidy ``pandas.DataFrame``: one row per
dict that ``func`` returns (it may return a dict or a list of dicts), with the cell's parameters as columns.

Each cell's result is written to ``<cache_dir>/<func>/<key>.pkl`` the moment it is computed, atomically (temp file
+ rename). The key hashes the function's name and source, the cell, the genesel version and a digest of the
genesel source code, so a code change never serves stale numbers. An interrupted grid restarted with the same
cells recomputes only what is missing; a finished grid rerun is read back from disk.

Cells run in parallel with joblib (``backend="loky"`` by default; any joblib backend, e.g. ``"dask"`` inside a
``joblib.parallel_config``, can be named), with a tqdm progress bar.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["run_grid", "cell_key", "default_cache_dir", "clear_cache", "code_digest"]

ENV_CACHE = "GENESEL_CACHE_DIR"


def default_cache_dir() -> Path:
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env)
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").exists():
        return root / "runs" / "cache"
    return Path.cwd() / "runs" / "cache"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 over the genesel package's source files (names and contents)."""
    pkg = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for p in sorted(pkg.rglob("*.py")):
        h.update(str(p.relative_to(pkg)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


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


def _func_id(func) -> tuple[str, str]:
    name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"
    try:
        src = inspect.getsource(func)
    except (OSError, TypeError):
        src = ""
    return name, hashlib.sha256(src.encode()).hexdigest()


def cell_key(func, cell: dict) -> str:
    from genesel import __version__

    name, src = _func_id(func)
    payload = json.dumps({"func": name, "src": src, "cell": cell, "version": __version__, "code": code_digest()},
                         sort_keys=True, default=_jsonable)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _path(cache_dir: Path, func, key: str) -> Path:
    safe = getattr(func, "__qualname__", "func").replace("<", "").replace(">", "").replace(".", "_")
    return cache_dir / safe / f"{key}.pkl"


def _write_atomic(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read(path: Path):
    try:
        with open(path, "rb") as fh:
            return True, pickle.load(fh)
    except FileNotFoundError:
        return False, None
    except Exception:  # a damaged cache file is recomputed, never trusted
        path.unlink(missing_ok=True)
        return False, None


def _run_cell(func, cell: dict, path: Path | None):
    result = func(**cell)
    if path is not None:
        _write_atomic(path, result)
    return result


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


def run_grid(cells, func, *, cache_dir=None, n_jobs: int = 1, backend: str = "loky", desc: str | None = None,
             progress: bool = True, use_cache: bool = True) -> pd.DataFrame:
    """Run ``func(**cell)`` for each cell, reusing cached results; return the tidy results frame.

    Parameters
    ----------
    cells : list of dicts of JSON-able values. Duplicate cells are computed once.
    func : a module-level function (picklable for parallel backends) returning a dict or a list of dicts.
    cache_dir : where cell results live (default ``$GENESEL_CACHE_DIR`` or ``runs/cache`` in the repository).
    n_jobs, backend : joblib parallelism; ``n_jobs=1`` runs in this process.
    use_cache : ``False`` computes everything and writes nothing.

    If a cell raises, the exception propagates after the results already computed have been cached, so the
    same call after a fix resumes where it stopped.
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    cells = [dict(c) for c in cells]
    for c in cells:
        json.dumps(c, default=_jsonable)  # fail early, naming the offending value's type
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    keys = [cell_key(func, c) for c in cells]
    results: dict[str, object] = {}
    todo: dict[str, dict] = {}
    for k, c in zip(keys, cells):
        if k in results or k in todo:
            continue
        hit, val = _read(_path(cache_dir, func, k)) if use_cache else (False, None)
        if hit:
            results[k] = val
        else:
            todo[k] = c
    label = desc or getattr(func, "__name__", "cells")
    bar = tqdm(total=len(set(keys)), initial=len(results), desc=label, unit="cell", disable=not progress,
               mininterval=1.0)
    try:
        if todo:
            paths = {k: _path(cache_dir, func, k) if use_cache else None for k in todo}
            if n_jobs == 1:
                for k, c in todo.items():
                    results[k] = _run_cell(func, c, paths[k])
                    bar.update()
            else:
                par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")
                it = par(delayed(lambda k, c, p: (k, _run_cell(func, c, p)))(k, c, paths[k])
                         for k, c in todo.items())
                for k, val in it:
                    results[k] = val
                    bar.update()
    finally:
        bar.close()
    rows = []
    for k, c in zip(keys, cells):
        rows.extend(_rows(c, results[k]))
    return pd.DataFrame(rows)


def clear_cache(func=None, cache_dir=None) -> int:
    """Delete cached cell results (of one function, or all); returns how many files were removed."""
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if not cache_dir.exists():
        return 0
    pattern = "*/*.pkl" if func is None else f"{_path(cache_dir, func, 'x').parent.name}/*.pkl"
    n = 0
    for p in cache_dir.glob(pattern):
        p.unlink()
        n += 1
    return n
