"""Which source code a grid cell's result depends on: the digest behind per-module cache keys.

A cell function lives in some module (usually ``genesel.papers.<paper>``). Its result can change only if the code
it runs changes: its own module and every first-party module (``genesel.*``, ``data_fetch.*``) that module imports,
directly or through others. :func:`code_closure` finds that set by reading the ``import`` statements of the source
files (with :mod:`ast`, without importing anything, including imports inside functions), following them
transitively, and :func:`closure_digest` hashes it. So an edit to ``genesel/stumps.py`` leaves the cached cells
of Gentile's Table 1 valid, while an edit to ``genesel/alma.py`` (which those cells run) invalidates them.

Rules, chosen to be conservative where it matters:

- A module's fingerprint is its syntax tree without docstrings (``ast.dump``): editing a comment, a docstring or
  the layout keeps the key; any change to the code changes it.
- ``from pkg import name``: if ``pkg.name`` is a module, the dependency is that module. Otherwise ``name`` is looked
  up in ``pkg/__init__.py``: a re-export (``from .mod import name``) is followed to the defining module; a name
  defined in the ``__init__`` itself makes the ``__init__`` (and what it imports) a dependency.
- Parent packages' ``__init__`` files that are only passed through (``import genesel.alma`` runs
  ``genesel/__init__.py``) are not dependencies: package ``__init__`` files in genesel hold re-exports and
  constants only, never behaviour (the version, which is in every key anyway, lives there).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
from functools import lru_cache
from pathlib import Path

__all__ = ["FIRST_PARTY", "default_roots", "code_closure", "closure_digest", "function_digest"]

#: Top-level packages whose source counts towards cache keys.
FIRST_PARTY = ("genesel", "data_fetch")


def default_roots() -> dict[str, Path]:
    """Folder holding each first-party top-level package, as installed (``lib/`` and the repository root)."""
    import data_fetch
    import genesel

    return {"genesel": Path(genesel.__file__).resolve().parents[1],
            "data_fetch": Path(data_fetch.__file__).resolve().parents[1]}


def _file_of(module: str, roots) -> tuple[Path | None, bool]:
    """(source file, is_package) of a first-party module name, or (None, False) if there is none."""
    top = module.split(".")[0]
    if top not in roots:
        return None, False
    base = Path(roots[top]).joinpath(*module.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py", True
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py"), False
    return None, False


@lru_cache(maxsize=4096)
def _parse(path: str, mtime_ns: int):
    return ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)


def _tree(path: Path):
    return _parse(str(path), path.stat().st_mtime_ns)


def _strip_docstrings(tree):
    tree = ast.parse(ast.unparse(tree))  # a copy
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _fingerprint(path: Path) -> str:
    return hashlib.sha256(ast.dump(_strip_docstrings(_tree(path))).encode()).hexdigest()


def _absolute(node: ast.ImportFrom, module: str, is_pkg: bool) -> str | None:
    if node.level == 0:
        return node.module
    parts = module.split(".")
    pkg = parts if is_pkg else parts[:-1]
    if node.level > 1:
        pkg = pkg[: len(pkg) - (node.level - 1)]
    return ".".join(pkg + ([node.module] if node.module else []))


def _is_first_party(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in FIRST_PARTY


def _resolve_name(pkg: str, name: str, roots, seen=None) -> list[str]:
    """Modules that ``from pkg import name`` depends on (see the module doc)."""
    sub = f"{pkg}.{name}"
    if _file_of(sub, roots)[0] is not None:
        return [sub]
    path, is_pkg = _file_of(pkg, roots)
    if path is None:
        return []
    if not is_pkg:
        return [pkg]
    seen = set() if seen is None else seen
    if (pkg, name) in seen:
        return [pkg]
    seen.add((pkg, name))
    for node in _tree(path).body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    target = _absolute(node, pkg, True)
                    if _is_first_party(target):
                        return _resolve_name(target, alias.name, roots, seen)
                    return [pkg]
    return [pkg]


def _imports_of(path: Path, module: str | None, is_pkg: bool, roots) -> set[str]:
    deps: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_first_party(alias.name):
                    deps.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module or "", is_pkg) if node.level else node.module
            if not _is_first_party(target):
                continue
            for alias in node.names:
                if alias.name == "*":
                    deps.add(target)
                else:
                    deps.update(_resolve_name(target, alias.name, roots))
    return deps


def code_closure(start, roots=None) -> dict[str, str]:
    """First-party modules reachable by imports from ``start`` (a module name or a source file), with the
    fingerprint of each: ``{module name (or the file path for a non-package start): fingerprint}``."""
    roots = default_roots() if roots is None else {k: Path(v) for k, v in roots.items()}
    out: dict[str, str] = {}
    todo: list[tuple[str, Path, bool]] = []
    if isinstance(start, Path) or (isinstance(start, str) and start.endswith(".py")):
        path = Path(start)
        module = None
        for top, root in roots.items():
            try:
                rel = path.resolve().relative_to(Path(root).resolve())
            except ValueError:
                continue
            if rel.parts and rel.parts[0] == top:
                module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        todo.append((module or str(path), path, path.name == "__init__.py"))
    else:
        path, is_pkg = _file_of(start, roots)
        if path is None:
            raise ValueError(f"no first-party source file for module {start!r}")
        todo.append((start, path, is_pkg))
    while todo:
        name, path, is_pkg = todo.pop()
        if name in out:
            continue
        out[name] = _fingerprint(path)
        for dep in _imports_of(path, name if _is_first_party(name) else None, is_pkg, roots):
            if dep in out:
                continue
            dpath, dpkg = _file_of(dep, roots)
            if dpath is not None:
                todo.append((dep, dpath, dpkg))
    return out


def closure_digest(start, roots=None) -> str:
    """sha256 over :func:`code_closure` (sorted module names and fingerprints)."""
    h = hashlib.sha256()
    for name, fp in sorted(code_closure(start, roots).items()):
        h.update(f"{name}\0{fp}\n".encode())
    return h.hexdigest()


def function_digest(func, roots=None) -> str:
    """The code digest of a cell function: the closure of the file that defines it."""
    try:
        path = inspect.getsourcefile(func)
    except TypeError:
        path = None
    if path is None:
        src = inspect.getsource(func) if callable(func) else repr(func)
        return hashlib.sha256(src.encode()).hexdigest()
    return closure_digest(Path(path), roots)
