"""The grid's cell cache on disk: one authenticated record per cell, what earlier runs cost, and which key wrote it.

Layout: ``<cache_dir>/<module>.<function>/<key>.rec``, one record per cell (:mod:`genesel._core.store`: plain data,
never a pickle, authenticated by an HMAC with a key kept outside the cache), holding the cell's key, its function,
its parameters, its result and the seconds it took (wall and CPU). A function's folder is named by its module and
qualified name (``genesel.leaderboard.cells.cv_cell``), so two functions of one name in two modules (Shah's, Tan's
and the leaderboard's ``cv_cell``) never share a folder. ``<folder>/costs.rec`` remembers those seconds by the
cell's parameters alone (not the code), so that a grid whose code changed still knows roughly what each cell costs
and can be cut into tasks of useful size (:func:`genesel.experiments.grid.run_grid` with dask).
``<folder>/claims/`` holds the claims of cells being computed (:mod:`genesel.experiments.claims`).

Folders of earlier versions were named by the bare qualified name (``cv_cell``), shared by every function of that
name. They are read, never emptied wholesale: a cell looked up and not found in its function's folder is looked up
there, and if found (its key names the function, so it cannot be another function's record) it is moved into the
function's folder; :func:`genesel.experiments.grid.clear_cache` deletes from such a folder only the records whose
``func`` is the function being cleared. So a finished run of the old layout is kept and migrates as it is used.

The key that wrote the cache. ``<cache_dir>/key-fingerprint`` holds an HMAC, under the cache key, of a fixed text
(:func:`key_fingerprint`): it says which key wrote the cache without revealing the key (an HMAC cannot be inverted
or used to forge another MAC). A run whose key gives another fingerprint (a mistyped ``GENESEL_CACHE_KEY``, a key
file deleted and created anew, another machine) would see every record fail its check; it stops before it reads or
deletes anything, with :class:`CacheKeyMismatch` naming where its key came from and what to do
(:func:`check_cache_key`). A cache of an earlier version without a fingerprint gets one from the first run whose key
verifies its records; if the records it samples all fail their MAC, the run stops the same way. With the right key,
a record that fails its check is damaged or forged: it is deleted, reported once with its path and the reason
(:class:`CacheIntegrityWarning`) and recomputed. Files of the old pickle format (``*.pkl``) are deleted without
being read, with one message per process, and their cells recomputed once.

Writes that fail (a full disk, a read-only folder) raise :class:`CacheWriteError`, naming the path and the remedy;
records written before stay.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

from genesel._core.io import CacheIntegrityWarning, drop_legacy_files
from genesel._core.store import ENV_KEY, RecordError, cache_secret, key_path, read_record, write_record

__all__ = ["record_path", "read_cell", "write_cell", "drop_legacy", "sweep_tmp", "CostBook", "cost_key",
           "CacheIntegrityWarning", "CacheWriteError", "CacheKeyMismatch", "key_fingerprint", "key_source",
           "check_cache_key", "FINGERPRINT_FILE", "func_folder", "legacy_folder", "moved_folders", "write_remedy"]

_SUFFIX = ".rec"
_LEGACY = ("*.pkl",)
STALE_TMP_SECONDS = 3600.0
FINGERPRINT_FILE = "key-fingerprint"
_FP_TEXT = b"genesel cache key fingerprint 1"
_WRONG_KEY = "not written with this cache's key"  # genesel._core.store's reason for a MAC that does not verify
_PROBE = 8  # records of an unfingerprinted cache checked before it is adopted


class CacheWriteError(OSError):
    """A cache file could not be written (``errno``: ENOSPC for a full disk, EDQUOT, EROFS, EACCES, ...); the
    message names the path and the remedy. Everything written before stays in the cache."""

    def __init__(self, message: str, code: int | None, path):
        super().__init__(message)
        self.errno = code
        self.filename = str(path)

    def __str__(self) -> str:
        return self.args[0]


class CacheKeyMismatch(RuntimeError):
    """The cache was written with another key than this process's (see the module doc). Nothing was read or
    deleted; the message names the key's source and the fix."""


# ---------------------------------------------------------------------------------------------------------------
# folders
# ---------------------------------------------------------------------------------------------------------------


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in text).strip("._") or "func"


def func_folder(cache_dir: Path, func) -> Path:
    """``<cache_dir>/<module>.<qualified name>``: one folder per function (``genesel.leaderboard.cells.cv_cell``)."""
    qual = getattr(func, "__qualname__", None) or type(func).__name__
    return Path(cache_dir) / _safe(f"{getattr(func, '__module__', None) or '_'}.{qual.replace('<locals>', 'locals')}")


def legacy_folder(cache_dir: Path, func) -> Path:
    """The folder earlier versions used: the bare qualified name, shared by every function of that name."""
    safe = getattr(func, "__qualname__", "func").replace("<", "").replace(">", "").replace(".", "_")
    return Path(cache_dir) / safe


def record_path(folder: Path, key: str) -> Path:
    return folder / f"{key}{_SUFFIX}"


# ---------------------------------------------------------------------------------------------------------------
# cells
# ---------------------------------------------------------------------------------------------------------------


def write_remedy(exc: OSError, path) -> str:
    """What went wrong writing ``path`` and what to do, in one sentence."""
    what = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        todo = ("free space on that disk, or point the cache at a disk with room (GENESEL_CACHE_DIR, or "
                "cache_dir=)")
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        todo = "make the folder writable, or point the cache at a writable folder (GENESEL_CACHE_DIR, or cache_dir=)"
    else:
        todo = "check the folder and its disk, or point the cache elsewhere (GENESEL_CACHE_DIR, or cache_dir=)"
    return f"cannot write {path} ({what}, errno {exc.errno}): {todo}"


def write_cell(folder: Path, key: str, func_name: str, cell: dict, result, seconds: float,
               cpu_seconds: float | None = None) -> None:
    """Store one cell's result (atomically, authenticated), with the wall and CPU seconds it took; a failed write
    raises :class:`CacheWriteError` naming the path (no partial file is left)."""
    rec = {"key": key, "func": func_name, "cell": cell, "result": result, "seconds": float(seconds)}
    if cpu_seconds is not None:
        rec["cpu_seconds"] = float(cpu_seconds)
    path = record_path(folder, key)
    try:
        write_record(path, rec, kind="cell")
    except CacheWriteError:
        raise
    except OSError as exc:
        raise CacheWriteError(write_remedy(exc, path), exc.errno, path) from exc


def moved_folders(cache_dir: Path, func) -> list[Path]:
    """Folders of a function of the same qualified name in other modules (``<cache_dir>/<other module>.<name>``):
    where a function's records are after its module was moved or renamed. A cell's key holds the code it runs, not
    the module's name (:mod:`genesel.experiments.codekey`), so a record found there under this cell's key was
    computed by this very code and is adopted (moved into the function's own folder), not recomputed."""
    own = func_folder(cache_dir, func)
    qual = own.name.split(".")[-1]
    if not Path(cache_dir).is_dir():
        return []
    return sorted(p for p in Path(cache_dir).glob(f"*.{qual}") if p.is_dir() and p != own)


def _as_list(legacy) -> list[Path]:
    if legacy is None:
        return []
    return [Path(legacy)] if isinstance(legacy, (str, Path)) else [Path(p) for p in legacy]


def _adopt(folder: Path, legacy, key: str) -> Path | None:
    """Move ``key``'s record from an old-layout or moved module's folder into ``folder`` (see the module doc);
    the path it can be read at when it could not be moved (a read-only folder), else None."""
    for other in _as_list(legacy):
        if other == folder:
            continue
        old = record_path(other, key)
        if not old.is_file():
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.replace(old, record_path(folder, key))
            return None
        except FileNotFoundError:  # another run moved it meanwhile
            return None
        except OSError:  # a read-only old folder: serve from where it is
            return old
    return None


def read_cell(folder: Path, key: str, stacklevel: int = 3, legacy=None):
    """(hit, result, seconds). A file that is not a valid record of this cell is deleted and reported. ``legacy``:
    the function's folders of the old layout or of a moved module (:func:`moved_folders`), looked up (and its record
    moved here) when ``folder`` has none."""
    path = record_path(folder, key)
    if not path.exists():
        in_place = _adopt(folder, legacy, key)
        if not path.exists() and in_place is not None:
            path = in_place  # could not be moved: read it in place
    try:
        rec = read_record(path, kind="cell")
    except FileNotFoundError:
        return False, None, None
    except RecordError as exc:
        problem = str(exc)
    except Exception as exc:  # noqa: BLE001 - any failure to read a record: named, removed, recomputed
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        if isinstance(rec, dict) and rec.get("key") == key and "result" in rec:
            return True, rec["result"], rec.get("seconds")
        problem = "stored under another cell's name (copied or renamed)"
    try:
        path.unlink(missing_ok=True)
        done = "deleted"
    except OSError as exc:
        done = f"not deleted ({exc.strerror}), not used"
    warnings.warn(f"cached cell {path} was {problem}; {done}, recomputing it", CacheIntegrityWarning,
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
    a damaged or forged one is dropped silently: it only guides how cells are batched, never what is computed).
    ``legacy``: the old-layout folder, read when ``folder`` has no cost record yet (its entries are keyed by
    function name, so other functions' entries in it are never used)."""

    def __init__(self, folder: Path, enabled: bool = True, legacy: Path | None = None):
        self.path = folder / f"costs{_SUFFIX}"
        self.enabled = enabled
        self.seconds: dict[str, float] = {}
        self.dirty = False
        if enabled:
            for p in (self.path, None if legacy is None else legacy / f"costs{_SUFFIX}"):
                if p is None:
                    continue
                try:
                    data = read_record(p, kind="costs")
                except Exception:  # noqa: BLE001 - missing, damaged or forged: start without estimates
                    continue
                if isinstance(data, dict):
                    try:
                        self.seconds = {str(k): float(v) for k, v in data.items()}
                    except (TypeError, ValueError):
                        continue
                    break

    def get(self, ck: str):
        return self.seconds.get(ck)

    def add(self, ck: str, seconds: float) -> None:
        self.seconds[ck] = float(seconds)
        self.dirty = True

    def save(self) -> None:
        if self.enabled and self.dirty:
            try:
                write_record(self.path, self.seconds, kind="costs")
            except OSError as exc:
                raise CacheWriteError(write_remedy(exc, self.path), exc.errno, self.path) from exc
            self.dirty = False


# ---------------------------------------------------------------------------------------------------------------
# the key that wrote the cache
# ---------------------------------------------------------------------------------------------------------------


def key_fingerprint(secret: bytes | None = None) -> str:
    """HMAC-SHA256, under the cache key, of a fixed text (hex): names the key without revealing it."""
    secret = cache_secret() if secret is None else secret
    return hmac.new(secret, _FP_TEXT, hashlib.sha256).hexdigest()


def key_source() -> str:
    """Where this process's cache key comes from, in words."""
    if os.environ.get(ENV_KEY) is not None:
        return f"the environment variable {ENV_KEY}"
    return f"the key file {key_path()}"


def _read_fingerprint(path: Path) -> str | None:
    try:
        lines = path.read_text(encoding="ascii", errors="replace").splitlines()
    except FileNotFoundError:
        return None
    if len(lines) >= 2 and lines[0] == _FP_TEXT.decode() and len(lines[1].strip()) == 64:
        return lines[1].strip()
    return ""  # damaged: treated like a missing one (the records are sampled)


def _write_fingerprint(path: Path, fp: str) -> str:
    """Create ``path`` holding ``fp`` atomically (a reader never sees it half-written); the fingerprint the file
    holds afterwards (another process's, if it was first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(f"{_FP_TEXT.decode()}\n{fp}\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        try:
            os.link(tmp, path)
        except FileExistsError:
            held = _read_fingerprint(path)
            if held:
                return held
            os.replace(tmp, path)  # a damaged one: replaced
            return fp
    finally:
        Path(tmp).unlink(missing_ok=True)
    return fp


def _sample_records(cache_dir: Path, n: int):
    out = []
    for folder in sorted(p for p in cache_dir.iterdir() if p.is_dir()):
        for p in folder.glob(f"*{_SUFFIX}"):
            if p.name != f"costs{_SUFFIX}":
                out.append(p)
                if len(out) >= n:
                    return out
    return out


def _mismatch(cache_dir: Path, fp_file: Path, why: str) -> CacheKeyMismatch:
    src = key_source()
    hint = ""
    if os.environ.get(ENV_KEY) is not None:
        if key_path().exists():
            hint = (f" {ENV_KEY} is set and takes precedence over the key file {key_path()}: unset it if that file "
                    "holds the right key.")
    else:
        try:
            if fp_file.exists() and key_path().stat().st_mtime > fp_file.stat().st_mtime:
                hint = (f" The key file {key_path()} is newer than this cache: it was probably created anew (the old "
                        "one deleted, or a new machine or account).")
        except OSError:
            pass
    return CacheKeyMismatch(
        f"the cache {cache_dir} was written with another cache key than this run's (from {src}): {why}. Nothing was "
        f"read or deleted.{hint} Fix: give this run the key that wrote the cache (set {ENV_KEY} to that secret, e.g. "
        f"the one the cluster shares, or restore the key file {key_path()} from the machine or backup that wrote it), "
        f"or, to start a new cache with this key, point GENESEL_CACHE_DIR (or cache_dir=) at another folder or move "
        f"{cache_dir} away. ({fp_file} holds only a fingerprint of the key, no secret.)")


def check_cache_key(cache_dir, *, write: bool = True) -> None:
    """Stop, before any record is read or deleted, if ``cache_dir`` was written with another key than this
    process's (:class:`CacheKeyMismatch`); see the module doc. ``write``: record this key's fingerprint in a cache
    that has none (a new one, or one of an earlier version whose sampled records verify)."""
    cache_dir = Path(cache_dir)
    fp_file = cache_dir / FINGERPRINT_FILE
    mine = key_fingerprint()
    held = _read_fingerprint(fp_file)
    if held:
        if not hmac.compare_digest(held, mine):
            raise _mismatch(cache_dir, fp_file, f"the fingerprint in {fp_file} is not this key's")
        return
    if cache_dir.is_dir():
        wrong = ok = 0
        for p in _sample_records(cache_dir, _PROBE):
            try:
                read_record(p, kind="cell")
                ok += 1
                break
            except RecordError as exc:
                wrong += _WRONG_KEY in str(exc)
            except Exception:  # noqa: BLE001 - damaged: says nothing about the key
                pass
        if wrong and not ok:
            raise _mismatch(cache_dir, fp_file, f"the {wrong} record(s) sampled all fail their check with it")
    if write:
        try:
            held = _write_fingerprint(fp_file, mine)
        except OSError:  # a read-only cache: served as it is, checked record by record
            return
        if not hmac.compare_digest(held, mine):  # another process with another key was first
            raise _mismatch(cache_dir, fp_file, f"the fingerprint in {fp_file} is not this key's")
