"""Where numba caches genesel's compiled kernels: one folder per module, named after the code its kernels can reach.

numba's ``cache=True`` stores a kernel's machine code and checks, on loading, only that the kernel's *own* source
file is unchanged. A kernel that calls kernels of other modules (the SMO solver calls the Cholesky of
:mod:`genesel._core.linalg`, the RVM kernels call it too, SVM-RFE inlines the Gram updates) would keep its old
machine code when one of those other files changes: after an upgrade or an edit, stale compiled code would run,
silently. So every module of genesel gets its own cache folder, named by the module and by the digest of the *code*
of that module and of every genesel module it imports, directly or through others (each read as a syntax tree
without its docstrings; comments are not in it). An edit of a module's code selects new, empty folders for that
module and for the modules that import it, whose kernels are compiled afresh once; every other module keeps its
compiled kernels (editing ``msvm_rfe.py`` recompiles MSVM-RFE's kernels, not the stumps'). An edit of a docstring
or a comment keeps every folder (numba's own check then recompiles only the kernels of the edited file, whose
timestamp changed).

How: numba fixes a kernel's cache folder (``numba.core.config.CACHE_DIR``) when its ``@njit(cache=True)`` decorator
runs, that is while its module executes. An import hook (:class:`_KernelCacheFinder`, a ``sys.meta_path`` finder
installed by ``genesel/__init__.py`` before any module that defines a kernel) wraps the loader of every genesel
module: while the module executes, ``CACHE_DIR`` is that module's folder, and the previous value is restored after
it (a module imported while another executes gets its own folder and gives the other's back). Between imports
``CACHE_DIR`` is the parent folder, ``$NUMBA_CACHE_DIR/genesel`` when you set ``NUMBA_CACHE_DIR``, else
``$XDG_CACHE_HOME/genesel/numba`` (``~/.cache`` by default). The :data:`KEEP` most recent folders of each module
are kept, older ones removed.

Why by hand: numba offers no cache key over a kernel's callees (its index holds the kernel's own file stamp only).
The import closure is read here rather than with :mod:`genesel.experiments.codekey` (the grid cells' keys):
this module runs before any other genesel module is imported, and codekey's fingerprints (``ast.dump`` of every
file) add more than a second to every ``import genesel``. These digests (the code unparsed) cost about 15 ms of CPU
per module, a second for the 60-odd modules a notebook imports, in every process (each notebook kernel, each grid
worker): so each file's facts (its genesel imports and the digest of its code) are also kept on disk beside the
kernels, in ``module-facts.json`` under the cache root, keyed by the file's path, modification time (ns) and size
and by the Python version (``ast.unparse`` may change between versions), and a process reads them from there, parsing
only the files changed since (measured on a loaded machine: the digests of a notebook's 63 modules 0.83 s -> 0.014 s
of CPU; its whole import 2.9 s -> 1.9 s). The index is written atomically (a temporary file renamed over it); a
damaged or unreadable one is ignored and rewritten.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import sys
from pathlib import Path

__all__ = ["module_closure", "module_digest", "cache_root", "module_folder", "loaded_folders", "KEEP"]

#: cache folders of other source versions of one module kept beside the current one
KEEP = 6
_PKG = Path(__file__).resolve().parents[1]
_FOLDERS: dict[str, Path] = {}  # module name -> its folder, for the modules imported in this process


def _module_file(name: str, root: Path) -> Path | None:
    """The source file of genesel module ``name`` (a module file or a package's ``__init__.py``), or None."""
    parts = name.split(".")[1:]
    base = root.joinpath(*parts)
    for p in ((base.with_suffix(".py"),) if parts else ()) + (base / "__init__.py",):
        if p.is_file():
            return p
    return None


def _facts(path: Path, name: str, root: Path) -> tuple[frozenset, bytes]:
    """(the genesel modules that module ``name`` imports anywhere in its code, sha256 of its code), from one parse of
    file ``path`` (:func:`_facts_of` keeps the result by the file's stamp, in this process and on disk). ``from
    genesel import x`` is the submodule x where there is one, else the package itself (whose ``__init__`` imports
    everything). The code is the syntax tree without docstrings, unparsed (comments are not in it); the raw bytes
    when the file does not parse."""
    raw = path.read_bytes()
    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError):
        return frozenset({"genesel"}), hashlib.sha256(raw).digest()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name == "genesel" or a.name.startswith("genesel."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                mod = ".".join(anchor + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod == "genesel" or mod.startswith("genesel."):
                subs = [f"{mod}.{a.name}" for a in node.names if _module_file(f"{mod}.{a.name}", root) is not None]
                out.update(subs)
                if len(subs) < len(node.names):
                    out.add(mod)
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    imports = frozenset(m for m in out if _module_file(m, root) is not None)
    return imports, hashlib.sha256(ast.unparse(tree).encode()).digest()


#: the on-disk index of :func:`_facts` (module docstring): {"version": ..., "files": {path: entry}}
_INDEX_NAME = "module-facts.json"
_INDEX_VERSION = f"1-py{sys.version_info[0]}.{sys.version_info[1]}"
_index: dict | None = None  # this process's copy of the files' entries
_index_dirty = False


def _index_file() -> Path:
    return cache_root() / _INDEX_NAME


def _read_index() -> dict:
    global _index
    if _index is None:
        try:
            data = json.loads(_index_file().read_text(encoding="utf-8"))
            files = data["files"] if data.get("version") == _INDEX_VERSION else {}
            _index = files if isinstance(files, dict) else {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            _index = {}
    return _index


def _write_index() -> None:
    """Write the index if this process added to it (atomically; an unwritable cache root is left alone)."""
    global _index_dirty
    if not _index_dirty or _index is None:
        return
    target = _index_file()
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        live = {f: e for f, e in _index.items() if os.path.exists(f)}  # files since deleted (a test's copy) go
        tmp.write_text(json.dumps({"version": _INDEX_VERSION, "files": live}), encoding="utf-8")
        os.replace(tmp, target)
        _index_dirty = False
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _facts_of(m: str, root: Path):
    """:func:`_facts` of module ``m``, read from the index (this process's copy of it, loaded from disk once) while
    the file's stamp matches its entry, else parsed and entered."""
    global _index_dirty
    path = _module_file(m, root)
    if path is None:
        return None
    st = path.stat()
    index = _read_index()
    stamp = [st.st_mtime_ns, st.st_size, m, str(root)]
    entry = index.get(str(path))
    if isinstance(entry, list) and len(entry) == 6 and entry[:4] == stamp:
        try:
            return frozenset(entry[4]), bytes.fromhex(entry[5])
        except (TypeError, ValueError):
            pass
    facts = _facts(path, m, root)
    index[str(path)] = stamp + [sorted(facts[0]), facts[1].hex()]
    _index_dirty = True
    return facts


def module_closure(name: str, root: Path = _PKG) -> list[str]:
    """``name`` and every genesel module it imports, directly or through others (sorted)."""
    root = Path(root)
    seen, todo = set(), [name]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            facts = _facts_of(m, root)
            if facts is not None:
                todo.extend(facts[0] - seen)
    return sorted(seen)


def module_digest(name: str, root: Path = _PKG) -> str:
    """16 hex digits of sha256 over the names and the code (docstrings and comments left out) of
    :func:`module_closure` of ``name``."""
    root = Path(root)
    h = hashlib.sha256()
    for m in module_closure(name, root):
        h.update(m.encode() + b"\0" + _facts_of(m, root)[1])
    return h.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return Path(base) / "genesel"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "genesel" / "numba"


def module_folder(name: str) -> Path:
    """The cache folder of module ``name`` for its code as it is now (``<root>/<name>-<digest>``)."""
    return cache_root() / f"{name}-{module_digest(name)}"


def loaded_folders() -> dict[str, Path]:
    """{module: cache folder} of the genesel modules imported so far in this process."""
    return dict(_FOLDERS)


def _prepare(name: str) -> Path | None:
    folder = module_folder(name)
    _write_index()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        others = [p for p in folder.parent.glob(f"{name}-*")
                  if p.is_dir() and p != folder and p.name.rpartition("-")[0] == name]
        for old in sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)[KEEP - 1:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:  # an unwritable cache: numba then compiles without caching (correct, only slower)
        return None
    return folder


class _Loader(importlib.abc.Loader):
    """The module's own loader, with numba's cache folder pointed at the module's while it executes."""

    def __init__(self, inner, name):
        self._inner, self._name = inner, name

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        from numba.core import config

        folder = _prepare(self._name)
        previous = config.CACHE_DIR
        if folder is not None:
            _FOLDERS[self._name] = folder
            config.CACHE_DIR = str(folder)
        try:
            self._inner.exec_module(module)
        finally:
            config.CACHE_DIR = previous

    def __getattr__(self, attr):  # get_source, get_code, is_package, ... from the module's own loader
        return getattr(self._inner, attr)


class _KernelCacheFinder(importlib.abc.MetaPathFinder):
    """Finds genesel's modules as Python's path finder does and wraps their loaders (:class:`_Loader`)."""

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith("genesel."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return spec
        if not str(Path(spec.origin).resolve()).startswith(str(_PKG) + os.sep):
            return spec  # not this package's files
        spec.loader = _Loader(spec.loader, fullname)
        return spec


def _configure() -> None:
    from numba.core import config

    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    # the folders of the earlier one-digest layout (16 hex digits) are left alone: a process of an earlier version
    # of genesel may be compiling into one of them right now
    config.CACHE_DIR = str(root)
    if not any(isinstance(f, _KernelCacheFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _KernelCacheFinder())


_configure()
