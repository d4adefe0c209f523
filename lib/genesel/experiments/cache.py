"""The grid's cell cache on disk: one authenticated record per cell, and what earlier runs cost.

Layout: ``<cache_dir>/<function>/<key>.rec``, one record per cell (:mod:`genesel._core.store`: plain data, never a
pickle, authenticated by an HMAC with a key kept outside the cache), holding the cell's key, its function, its
parameters, its result and the seconds it took (wall and CPU). ``<cache_dir>/<function>/costs.rec`` remembers those
seconds by the
cell's parameters alone (not the code), so that a grid whose code changed still knows roughly what each cell costs
and can be cut into tasks of useful size (:func:`genesel.experiments.grid.run_grid` with dask).

A record that fails its checks (damaged, forged, written with another key, stored under another cell's name) is
deleted, reported once with its path and the reason (:class:`CacheIntegrityWarning`) and recomputed. Files of the
old pickle format (``*.pkl``, genesel <= 0.1 before this format) are deleted without being read, with one message
per folder, and their cells recomputed once.
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from pathlib import Path

from genesel._core.io import CacheIntegrityWarning, drop_legacy_files
from genesel._core.store import RecordError, read_record, write_record

__all__ = ["record_path", "read_cell", "write_cell", "drop_legacy", "sweep_tmp", "CostBook", "cost_key",
           "CacheIntegrityWarning"]

_SUFFIX = ".rec"
_LEGACY = ("*.pkl",)
STALE_TMP_SECONDS = 3600.0


def record_path(folder: Path, key: str) -> Path:
    return folder / f"{key}{_SUFFIX}"


def write_cell(folder: Path, key: str, func_name: str, cell: dict, result, seconds: float,
               cpu_seconds: float | None = None) -> None:
    """Store one cell's result (atomically, authenticated), with the wall and CPU seconds it took."""
    rec = {"key": key, "func": func_name, "cell": cell, "result": result, "seconds": float(seconds)}
    if cpu_seconds is not None:
        rec["cpu_seconds"] = float(cpu_seconds)
    write_record(record_path(folder, key), rec, kind="cell")


def read_cell(folder: Path, key: str, stacklevel: int = 3):
    """(hit, result, seconds). A file that is not a valid record of this cell is deleted and reported."""
    path = record_path(folder, key)
    try:
        rec = read_record(path, kind="cell")
    except FileNotFoundError:
        return False, None, None
    except RecordError as exc:
        problem = str(exc)
    else:
        if isinstance(rec, dict) and rec.get("key") == key and "result" in rec:
            return True, rec["result"], rec.get("seconds")
        problem = "stored under another cell's name (copied or renamed)"
    path.unlink(missing_ok=True)
    warnings.warn(f"cached cell {path} was {problem}; deleted, recomputing it", CacheIntegrityWarning,
                  stacklevel=stacklevel + 1)
    return False, None, None


def drop_legacy(folder: Path) -> int:
    """Delete, unread, the cell files of the old pickle format in ``folder``; one message per process
    (:func:`genesel._core.io.drop_legacy_files`)."""
    if not folder.exists():
        return 0
    return drop_legacy_files([p for pat in _LEGACY for p in folder.glob(pat)], folder, stacklevel=4)


def sweep_tmp(folder: Path, older_than: float) -> int:
    """Remove temporary files of interrupted writes older than ``older_than`` seconds."""
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


def cost_key(func_name: str, cell: dict) -> str:
    """A cell's identity for cost estimates: its function and parameters, not its code."""
    payload = json.dumps({"func": func_name, "cell": cell}, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


class CostBook:
    """Seconds that cells of one function took in earlier runs, by :func:`cost_key` (an authenticated record;
    a damaged or forged one is dropped silently: it only guides how cells are batched, never what is computed)."""

    def __init__(self, folder: Path, enabled: bool = True):
        self.path = folder / f"costs{_SUFFIX}"
        self.enabled = enabled
        self.seconds: dict[str, float] = {}
        self.dirty = False
        if enabled:
            try:
                data = read_record(self.path, kind="costs")
                if isinstance(data, dict):
                    self.seconds = {str(k): float(v) for k, v in data.items()}
            except (FileNotFoundError, RecordError, TypeError, ValueError):
                pass

    def get(self, ck: str):
        return self.seconds.get(ck)

    def add(self, ck: str, seconds: float) -> None:
        self.seconds[ck] = float(seconds)
        self.dirty = True

    def save(self) -> None:
        if self.enabled and self.dirty:
            write_record(self.path, self.seconds, kind="costs")
            self.dirty = False
