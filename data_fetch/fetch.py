"""Getting one public file into the local cache, checked against its sha256.

Order of sources for a file ``NAME``:

1. the cache folder (``GENESEL_DATA_DIR``, default ``<repo>/data/``) when it already holds ``NAME`` with the right
   checksum;
2. a local mirror folder (``--mirror DIR`` on the CLI, the ``mirror=`` argument, or the ``GENESEL_DATA_MIRROR``
   environment variable) holding a file called ``NAME``: it is checked and copied atomically into the cache;
3. the pinned public URL, downloaded with :mod:`pooch` (which also checks the sha256).

A corrupt or truncated file never passes: the error names the file, where it came from and what to do.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from .files import FILES, RemoteFile

__all__ = ["FetchError", "cache_dir", "mirror_dir", "fetch_file", "sha256_of"]

ENV_MIRROR = "GENESEL_DATA_MIRROR"
ENV_CACHE = "GENESEL_DATA_DIR"


class FetchError(RuntimeError):
    """A data file could not be obtained or failed its checksum."""


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


def sha256_of(path: str | os.PathLike, chunk: int = 1 << 20) -> str:
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


def _check(path: Path, name: str, entry: RemoteFile, origin: str) -> None:
    size = path.stat().st_size
    digest = sha256_of(path)
    if digest == entry.sha256:
        return
    what = "truncated" if size < entry.size else "corrupt"
    raise FetchError(
        f"{name} from {origin} is {what}: {size} bytes with sha256 {digest[:16]}..., expected {entry.size} bytes "
        f"with sha256 {entry.sha256[:16]}...; delete {path} and fetch it again "
        f"({refetch_command(name)}, or the same without --mirror with internet access)"
    )


def _atomic_copy(src: Path, dst: Path) -> None:
    """Copy to a temporary file beside ``dst``, give it open()'s default permissions (mkstemp makes 0600; data files
    should be as readable as any other file), then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def fetch_file(name: str, *, mirror: str | os.PathLike | None = None, cache: str | os.PathLike | None = None,
               download: bool = True) -> Path:
    """Return the local path of the public file ``name`` (a key of :data:`data_fetch.files.FILES`).

    Raises :class:`FetchError` with the file's name and the remedy when it is missing everywhere, cannot be
    downloaded, or fails its checksum (corrupt or truncated).
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
            target.unlink()  # a stale or broken cache copy is replaced below, never used
    mdir = mirror_dir(mirror)
    if mdir is not None and (mdir / name).exists():
        _check(mdir / name, name, entry, f"the mirror {mdir}")
        _atomic_copy(mdir / name, target)
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
    except Exception as exc:  # network errors of every kind
        where = f" and is not in the mirror {mdir}" if mdir else ""
        raise FetchError(
            f"could not download {name} from {entry.url} ({type(exc).__name__}: {exc}){where}. Without internet "
            f"access, set {ENV_MIRROR}=DIR (or python -m data_fetch --mirror DIR) to a folder holding {name}"
        ) from exc
    return Path(path)
