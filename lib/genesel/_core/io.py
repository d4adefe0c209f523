"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Every file genesel writes (cached cell results, parsed data, figures) goes through :func:`atomic_write`: the
content is written to a temporary file in the target folder, flushed to disk, given the permissions a plain
``open(path, "w")`` would give (``0o666`` minus the umask, so generated files are as readable as committed ones;
``tempfile.mkstemp`` alone would leave them ``0o600``) and renamed over the target in one step. An interrupted
write leaves at most a ``.<name>.*.tmp`` file behind, never a truncated target.
"""

from __future__ import annotations

import os
import tempfile
import threading
import warnings
from pathlib import Path

__all__ = ["atomic_write", "atomic_create", "umask_mode", "CacheIntegrityWarning", "drop_legacy_files"]


class CacheIntegrityWarning(UserWarning):
    """A cached item (a grid cell result, a parsed data set) failed its checksum or consistency check; it was
    deleted and is recomputed."""


_LEGACY_SEEN = {"told": False}
_LEGACY_LOCK = threading.Lock()


def drop_legacy_files(paths, where, stacklevel: int = 3) -> int:
    """Delete, unread, cache files of an older format (the pickles of earlier genesel versions, parsed data with a
    plain checksum): what they hold is recomputed once. The first such deletion in a process says so in one
    :class:`CacheIntegrityWarning` naming ``where``; later ones (other grids, other data sets) are silent, so an
    old cache costs one message, not one per folder."""
    n = 0
    for p in paths:
        Path(p).unlink(missing_ok=True)
        n += 1
    if n:
        with _LEGACY_LOCK:
            told, _LEGACY_SEEN["told"] = _LEGACY_SEEN["told"], True
        if not told:
            warnings.warn(f"{n} cached file(s) in {where} were in an older genesel format (pickles, which a crafted "
                          "file could use to run code, or unauthenticated parses); they were deleted without being "
                          "read and are recomputed once (any other old-format files this run meets are dropped "
                          "the same way without a further message)", CacheIntegrityWarning, stacklevel=stacklevel)
    return n


def umask_mode(base: int = 0o666) -> int:
    """``base`` with the process umask applied (what ``open()`` would create)."""
    mask = os.umask(0)
    os.umask(mask)
    return base & ~mask


def atomic_write(path, write) -> Path:
    """Create or replace ``path`` atomically; ``write(tmp_path)`` writes the content to the given temporary path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, umask_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_create(path, data: bytes, mode: int = 0o600) -> bool:
    """Create ``path`` holding ``data`` unless it exists; True if this call created it. The content is written to a
    temporary file in the same folder, flushed to disk and hard-linked to ``path`` (``os.link`` fails if ``path``
    exists), so a reader sees no file or the whole content, never an empty or partial one, and of several processes
    creating it at once exactly one wins."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        _fsync_dir(path.parent)
        return True
    finally:
        Path(tmp).unlink(missing_ok=True)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
