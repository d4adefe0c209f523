"""Where numba caches genesel's compiled kernels: a folder named after the source code they are compiled from.

numba's ``cache=True`` stores a kernel's machine code beside its module and checks, on loading, only that the
kernel's *own* source file is unchanged. A kernel that calls kernels of other modules (the SMO solver calls the
Cholesky of :mod:`genesel._core.linalg`, the RVM kernels call it too, SVM-RFE inlines the Gram updates) keeps its
old machine code when one of those other files changes: after an upgrade or an edit, stale compiled code would run,
silently. So genesel points numba's cache at a folder whose name is the digest of the *code* of every source file
that can hold a kernel (the package's top-level modules and ``_core``, each read as a syntax tree without its
docstrings and comments): any change to that code selects a new, empty folder, and every kernel is compiled afresh
once. An edit of a docstring or a comment keeps the folder (numba's own check then recompiles only the kernels of
the edited file, whose timestamp changed), so documentation work does not recompile every kernel. The folder is
``$NUMBA_CACHE_DIR/genesel-<digest>`` when you set
``NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/genesel/numba/<digest>`` (``~/.cache`` by default); the three most recent
digests are kept, older ones removed.

Imported first by ``genesel/__init__.py``, before any module that defines a kernel (numba fixes a kernel's cache
location when its ``@njit(cache=True)`` decorator runs).
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
from pathlib import Path

__all__ = ["kernel_source_digest", "cache_folder", "KEEP"]

#: cache folders of other source versions kept beside the current one
KEEP = 6


def kernel_source_digest(package_dir: Path | None = None) -> str:
    """sha256 (16 hex digits) over the names and the code (docstrings and comments left out) of the package's
    top-level modules and ``_core``."""
    root = Path(package_dir) if package_dir is not None else Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for p in sorted(list(root.glob("*.py")) + list((root / "_core").glob("*.py"))):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(_code_of(p))
        h.update(b"\0")
    return h.hexdigest()[:16]


def _code_of(path: Path) -> bytes:
    """The module's code without docstrings and comments (its syntax tree, unparsed); the raw bytes when it does
    not parse."""
    raw = path.read_bytes()
    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError):
        return raw
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree).encode()


def cache_folder(digest: str) -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return Path(base) / f"genesel-{digest}"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "genesel" / "numba" / digest


def _prune(folder: Path) -> None:
    parent = folder.parent
    siblings = [p for p in parent.glob("genesel-*" if folder.name.startswith("genesel-") else "*")
                if p.is_dir() and p != folder]
    for old in sorted(siblings, key=lambda p: p.stat().st_mtime, reverse=True)[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def _configure() -> None:
    from numba.core import config

    folder = cache_folder(kernel_source_digest())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        _prune(folder)
    except OSError:  # an unwritable cache: numba then compiles without caching (correct, only slower)
        pass
    config.CACHE_DIR = str(folder)


_configure()
