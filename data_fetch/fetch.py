"""Getting one public file into the local cache, checked against its sha256.

Order of sources for a file ``NAME``:

1. the cache folder (``GENESEL_DATA_DIR``, default ``<repo>/data/``) when it already holds ``NAME`` with the right
   checksum;
2. a local mirror folder (``--mirror DIR`` on the CLI, the ``mirror=`` argument, or the ``GENESEL_DATA_MIRROR``
   environment variable) holding a file called ``NAME``: its bytes are read once, hashed and written to a temporary
   file beside the cache copy as they are read; only when their sha256 is the registered one is the temporary file
   renamed into place. What lands in the cache is exactly the bytes that were checked, so a mirror file that
   changes while it is read (or between a check and a copy, as before) is refused, never cached;
3. the pinned public URL, downloaded with :mod:`pooch` (which also checks the sha256).

A corrupt or truncated file never passes: the error names the file, where it came from and what to do. A cache
folder that cannot be written (a full disk, a read-only file system, no permission) gives a
:class:`CacheWriteError` (a :class:`FetchError` and an ``OSError`` with its ``errno``) naming the path and the
remedy, and leaves no partial file behind.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
from pathlib import Path

from .files import FILES, RemoteFile

__all__ = ["FetchError", "CacheWriteError", "cache_dir", "mirror_dir", "fetch_file", "sha256_of",
           "cache_write_remedy"]

ENV_MIRROR = "GENESEL_DATA_MIRROR"
ENV_CACHE = "GENESEL_DATA_DIR"


class FetchError(RuntimeError):
    """A data file could not be obtained or failed its checksum."""


class CacheWriteError(FetchError, OSError):
    """A file could not be written into the data cache (``errno``: ENOSPC for a full disk, EROFS for a read-only
    file system, EACCES for a folder without write permission); the message names the path and the remedy."""

    def __init__(self, message: str, code: int | None, path):
        super().__init__(message)
        self.errno = code
        self.filename = str(path)

    def __str__(self) -> str:
        return self.args[0]


def cache_write_remedy(exc: OSError, path) -> str:
    """What went wrong writing ``path`` and what to do, in one sentence (for ENOSPC, EROFS, EACCES and others)."""
    what = os.strerror(exc.errno) if exc.errno else str(exc)
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        todo = "free space on that disk, or point GENESEL_DATA_DIR at a folder on a disk with room"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        todo = "point GENESEL_DATA_DIR at a writable folder (or make this one writable)"
    else:
        todo = "check the folder, or point GENESEL_DATA_DIR at another one"
    return f"cannot write {path} ({what}): {todo}"


def _repo_root() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    return here if (here / "pyproject.toml").exists() else None


def cache_dir(path: str | os.PathLike | None = None) -> Path:
    """The download cache: ``path``, else ``$GENESEL_DATA_DIR``, else ``<repo>/data``, else pooch's OS cache."""
    if path is None:
        path = os.environ.get(ENV_CACHE) or None
    if path is None:
        root = _repo_root()
        if root is not None:
            path = root / "data"
        else:  # installed as a wheel: use the per-user cache
            import pooch

            path = pooch.os_cache("genesel")
    p = Path(path).expanduser()
    p.mkdir(parents=True, exist_ok=True)
    return p


def mirror_dir(mirror: str | os.PathLike | None = None) -> Path | None:
    """The mirror folder from the argument or ``$GENESEL_DATA_MIRROR``; None when neither is set."""
    origin = "the mirror argument"
    if mirror is None:
        mirror, origin = os.environ.get(ENV_MIRROR) or None, ENV_MIRROR
    if mirror is None:
        return None
    p = Path(mirror).expanduser()
    if not p.is_dir():
        raise FetchError(
            f"the data mirror {str(p)!r} (from {origin}) is not a folder; "
            f"point {ENV_MIRROR} or --mirror at a folder holding the raw files, or unset it to download"
        )
    return p


_CHUNK = 1 << 20
#: errno values that mean "this folder cannot take the file" (not a network failure)
_WRITE_ERRORS = {errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, getattr(errno, "EDQUOT", errno.ENOSPC)}


def sha256_of(path: str | os.PathLike, chunk: int = _CHUNK) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def refetch_command(name: str) -> str:
    """The command that fetches file ``name`` again: by the data set that uses it (the CLI takes data set names
    and file names; a data set fetches all its files)."""
    from .registry import DATASETS

    users = [spec.name for spec in DATASETS.values() if name in spec.files]
    return f"python -m data_fetch {users[0] if users else name} --mirror DIR"


def _mismatch(path: Path, name: str, entry: RemoteFile, origin: str, size: int, digest: str) -> FetchError:
    what = "truncated" if size < entry.size else "corrupt"
    return FetchError(
        f"{name} from {origin} is {what}: {size} bytes with sha256 {digest[:16]}..., expected {entry.size} bytes "
        f"with sha256 {entry.sha256[:16]}...; delete {path} and fetch it again "
        f"({refetch_command(name)}, or the same without --mirror with internet access)"
    )


def _check(path: Path, name: str, entry: RemoteFile, origin: str) -> None:
    size = path.stat().st_size
    digest = sha256_of(path)
    if digest != entry.sha256:
        raise _mismatch(path, name, entry, origin, size, digest)


def _new_cache_file(dst: Path):
    """(path, binary file object) of a new temporary file beside ``dst``: what every cache copy is written to."""
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    return tmp, os.fdopen(fd, "wb")


def _checked_copy(src: Path, dst: Path, name: str, entry: RemoteFile, origin: str) -> None:
    """Copy ``src`` to ``dst`` checking exactly the bytes copied: each block read from ``src`` is hashed and written
    to a temporary file beside ``dst``; only if the sha256 of all of them is the registered one is the temporary file
    given open()'s default permissions (mkstemp makes 0600) and renamed into place. ``src`` is opened and read
    once, so a file that changes meanwhile gives a mismatch (refused), never an unchecked copy. A failed write
    (full disk, read-only folder) raises :class:`CacheWriteError` naming ``dst``; no temporary file is left."""
    try:
        tmp, fout = _new_cache_file(dst)
    except OSError as exc:
        raise CacheWriteError(f"{name}: {cache_write_remedy(exc, dst)}", exc.errno, dst) from exc

    def write_failed(exc):
        return CacheWriteError(f"{name}: {cache_write_remedy(exc, dst)}", exc.errno, dst)

    h, size = hashlib.sha256(), 0
    try:
        with open(src, "rb") as fin:
            while block := fin.read(_CHUNK):
                h.update(block)
                size += len(block)
                try:
                    fout.write(block)
                except OSError as exc:
                    raise write_failed(exc) from exc
        try:
            fout.flush()
            os.fsync(fout.fileno())
            fout.close()
        except OSError as exc:
            raise write_failed(exc) from exc
        if h.hexdigest() != entry.sha256:
            raise _mismatch(src, name, entry, origin, size, h.hexdigest())
        mask = os.umask(0)
        os.umask(mask)
        try:
            os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, dst)
        except OSError as exc:
            raise write_failed(exc) from exc
    except BaseException:
        try:
            fout.close()  # after a failed write, closing may fail the same way: the first error is the one to report
        except OSError:
            pass
        Path(tmp).unlink(missing_ok=True)
        raise


def fetch_file(name: str, *, mirror: str | os.PathLike | None = None, cache: str | os.PathLike | None = None,
               download: bool = True) -> Path:
    """Return the local path of the public file ``name`` (a key of :data:`data_fetch.files.FILES`).

    Raises :class:`FetchError` with the file's name and the remedy when it is missing everywhere, cannot be
    downloaded, or fails its checksum (corrupt or truncated), and :class:`CacheWriteError` (also an ``OSError``)
    naming the path when the cache folder cannot take it (full disk, read-only, no permission).
    """
    if name not in FILES:
        raise FetchError(f"unknown data file {name!r}; known files: {', '.join(sorted(FILES))}")
    entry = FILES[name]
    cdir = cache_dir(cache)
    target = cdir / name
    if target.exists():
        try:
            _check(target, name, entry, f"the cache {cdir}")
            return target
        except FetchError:
            try:
                target.unlink()  # a stale or broken cache copy is replaced below, never used
            except OSError as exc:
                raise CacheWriteError(f"{name}: the cache copy {target} fails its sha256 check and cannot be "
                                      f"replaced; {cache_write_remedy(exc, target)}", exc.errno, target) from exc
    mdir = mirror_dir(mirror)
    if mdir is not None and (mdir / name).exists():
        _checked_copy(mdir / name, target, name, entry, f"the mirror {mdir}")
        return target
    if not download:
        raise FetchError(
            f"{name} is not in the cache {cdir}"
            + (f" nor in the mirror {mdir}" if mdir else "")
            + f"; set {ENV_MIRROR} (or --mirror DIR) to a folder holding it, or allow downloading"
        )
    import pooch

    try:
        path = pooch.retrieve(entry.url, known_hash=f"sha256:{entry.sha256}", fname=name, path=cdir,
                              progressbar=False)
    except ValueError as exc:  # pooch's checksum mismatch
        raise FetchError(f"{name} downloaded from {entry.url} failed its sha256 check: {exc}") from exc
    except Exception as exc:  # network errors of every kind, or a cache folder that cannot take the file
        if isinstance(exc, OSError) and exc.errno in _WRITE_ERRORS:
            raise CacheWriteError(f"{name}: {cache_write_remedy(exc, target)}", exc.errno, target) from exc
        where = f" and is not in the mirror {mdir}" if mdir else ""
        raise FetchError(
            f"could not download {name} from {entry.url} ({type(exc).__name__}: {exc}){where}. Without internet "
            f"access, set {ENV_MIRROR}=DIR (or python -m data_fetch --mirror DIR) to a folder holding {name}"
        ) from exc
    return Path(path)
