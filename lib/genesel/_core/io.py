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
from pathlib import Path

__all__ = ["atomic_write", "umask_mode", "CacheIntegrityWarning"]


class CacheIntegrityWarning(UserWarning):
    """A cached item (a grid cell result, a parsed data set) failed its checksum or consistency check; it was
    deleted and is recomputed."""


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
