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

__all__ = ["FIRST_PARTY", "default_roots", "code_closure", "closure_digest", "function_digest", "names_closure",
           "imported_names", "digest_of", "content_digest"]

#: Top-level packages whose source counts towards cache keys.
FIRST_PARTY = ("genesel", "data_fetch")


def default_roots() -> dict[str, Path]:
    """Folder holding each first-party top-level package, as installed (``lib/`` and the repository root)."""
    import importlib.util

    # found without importing: an ``import genesel`` here would make every module that reads keys (the
    # leaderboard's cells, genesel.leaderboard.keys) depend on the package's __init__ and so on every module it
    # re-exports
    data_fetch = importlib.util.find_spec("data_fetch")
    return {"genesel": Path(__file__).resolve().parents[2],
            "data_fetch": Path(data_fetch.origin).resolve().parents[1]}


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


@lru_cache(maxsize=4096)
def _stripped(path: str, mtime_ns: int):
    return _strip_docstrings(_parse(path, mtime_ns))


def _stripped_tree(path: Path):
    return _stripped(str(path), path.stat().st_mtime_ns)


class _Anonymise(ast.NodeTransformer):
    """Blank the first-party module paths of import statements (and the level of relative ones): where a module
    lives is no part of what it computes. What an import binds to is kept by :func:`_bound_fingerprint`."""

    def visit_Import(self, node):
        node.names = [ast.alias(name="<first-party>" if _is_first_party(a.name) else a.name, asname=a.asname)
                      for a in node.names]
        return node

    def visit_ImportFrom(self, node):
        if node.level or _is_first_party(node.module):
            node.module, node.level = "<first-party>", 0
        return node


@lru_cache(maxsize=4096)
def _content(path: str, mtime_ns: int) -> str:
    tree = _Anonymise().visit(ast.parse(ast.unparse(_stripped(path, mtime_ns))))  # a copy
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def _fingerprint(path: Path) -> str:
    """A module's own code, without its docstrings and without the names of the first-party modules it imports."""
    return _content(str(path), path.stat().st_mtime_ns)


def _bindings(path: Path, module: str | None, is_pkg: bool, roots) -> list[tuple[str, str]]:
    """``(what the import binds, module it depends on)`` for every first-party import of a source file (anywhere
    in it, functions included): ``from pkg import a as b`` gives ``("a as b", <the module defining a>)``."""
    out: list[tuple[str, str]] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_first_party(alias.name):
                    out.append((f"import as {alias.asname}", alias.name))
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module or "", is_pkg) if node.level else node.module
            if not _is_first_party(target):
                continue
            for alias in node.names:
                bound = f"{alias.name} as {alias.asname}"
                if alias.name == "*":
                    out.append((bound, target))
                else:
                    out.extend((bound, dep) for dep in _resolve_name(target, alias.name, roots))
    return out


def _bound_fingerprint(own: str, bindings, fingerprint_of) -> str:
    """A module's fingerprint as a cache key sees it: its own code (:func:`_fingerprint`) and, for each first-party
    import, what it binds and the *code* of the module it binds to (never that module's name or place). So moving
    or renaming a module (and updating its imports) keeps every key, while pointing an import at another module
    moves the keys of what imports it."""
    h = hashlib.sha256(own.encode())
    for bound, fp in sorted((b, fingerprint_of(dep)) for b, dep in bindings):
        h.update(f"\0{bound}\0{fp}".encode())
    return h.hexdigest()


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




def code_closure(start, roots=None, exclude=()) -> dict[str, str]:
    """First-party modules reachable by imports from ``start`` (a module name or a source file), with the
    fingerprint of each: ``{module name (or the file path for a non-package start): fingerprint}``. Modules named
    in ``exclude`` are neither fingerprinted nor followed (a caller that keys them finer, e.g.
    :func:`names_closure`, accounts for them)."""
    roots = default_roots() if roots is None else {k: Path(v) for k, v in roots.items()}
    exclude = set(exclude)
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
    own: dict[str, str] = {}
    binds: dict[str, list] = {}
    while todo:
        name, path, is_pkg = todo.pop()
        if name in own or name in exclude:
            continue
        own[name] = _fingerprint(path)
        binds[name] = []
        for bound, dep in _bindings(path, name if _is_first_party(name) else None, is_pkg, roots):
            dpath, dpkg = _file_of(dep, roots)
            if dpath is None:
                continue
            binds[name].append((bound, dep))
            if dep not in own:
                todo.append((dep, dpath, dpkg))

    def fingerprint_of(dep):
        if dep in own:
            return own[dep]
        if dep in exclude:  # keyed by the caller, name by name (names_closure): its code counts there, not here
            return "<keyed by the caller>"
        return _fingerprint(_file_of(dep, roots)[0])

    return {name: _bound_fingerprint(fp, binds[name], fingerprint_of) for name, fp in own.items()}


def digest_of(fingerprints: dict) -> str:
    """sha256 over a ``{role: digest}`` mapping (sorted), e.g. a cell's method and data digests."""
    h = hashlib.sha256()
    for name, fp in sorted(fingerprints.items()):
        h.update(f"{name}\0{fp}\n".encode())
    return h.hexdigest()


def content_digest(fingerprints: dict) -> str:
    """sha256 over the fingerprints of a ``{module: fingerprint}`` mapping, without the module names: the code a
    cell can run, whatever the modules are called and wherever they live (a move recomputes nothing)."""
    h = hashlib.sha256()
    for fp in sorted(set(fingerprints.values())):
        h.update(f"{fp}\n".encode())
    return h.hexdigest()


def closure_digest(start, roots=None, exclude=()) -> str:
    """sha256 over the fingerprints of :func:`code_closure` (:func:`content_digest`: module names do not count)."""
    return content_digest(code_closure(start, roots, exclude))


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


# ------------------------------------------------------------------------------------------------------------------
# finer keys: what some top-level names of one module can run
# ------------------------------------------------------------------------------------------------------------------


def _defined_names(node) -> set[str]:
    """Names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    targets = node.targets if isinstance(node, ast.Assign) else \
        [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
    out: set[str] = set()
    for t in targets:
        out.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
    return out


def _used_names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def names_closure(module: str, names, roots=None, *, extra_nodes=(), stop=()) -> dict[str, str]:
    """Fingerprints of what the top-level ``names`` of ``module`` (and the syntax trees ``extra_nodes``, e.g. one
    element of a list literal) can run: every top-level statement of the module that binds one of those names or,
    transitively, a name such a statement uses (by its syntax tree without docstrings), every statement that binds
    nothing (module-level checks), and the :func:`code_closure` of each first-party module such a statement imports
    from. Names in ``stop`` are not followed (a registry whose entries the caller keys one by one). Statements are
    keyed by content, not position.

    Finer than :func:`code_closure` of the whole module: editing one definition of a catalogue moves the key of what
    uses it, not of every entry. Returns
    ``{"module:fingerprint": fingerprint, imported module name: fingerprint, ...}``.
    """
    roots = default_roots() if roots is None else {k: Path(v) for k, v in roots.items()}
    path, is_pkg = _file_of(module, roots)
    if path is None:
        raise ValueError(f"no first-party source file for module {module!r}")
    body = _stripped_tree(path).body
    binders: dict[str, list[int]] = {}
    for i, node in enumerate(body):
        for n in _defined_names(node):
            binders.setdefault(n, []).append(i)
    stop = set(stop)
    todo = [n for n in names]
    for node in extra_nodes:
        todo.extend(_used_names(node))
    chosen = {i for i, node in enumerate(body) if not _defined_names(node)}
    for i in chosen:
        todo.extend(_used_names(body[i]))
    seen: set[str] = set()
    while todo:
        n = todo.pop()
        if n in seen or n in stop:
            continue
        seen.add(n)
        for i in binders.get(n, ()):
            if i not in chosen:
                chosen.add(i)
                todo.extend(_used_names(body[i]))
    out: dict[str, str] = {}
    for i in sorted(chosen):
        node = body[i]
        deps: set[str] = set()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            # an import statement counts name by name, for the names used: adding a name to a statement (or
            # removing an unused one) moves no key that does not use it
            target = None
            if isinstance(node, ast.ImportFrom):
                target = _absolute(node, module, is_pkg) if node.level else node.module
            for a in node.names:
                bound = (a.asname or a.name).split(".")[0]
                if bound not in seen and a.name != "*":
                    continue
                bound: set[str] = set()
                if target is None:
                    if _is_first_party(a.name):
                        bound.add(a.name)
                elif _is_first_party(target):
                    bound.update(_resolve_name(target, a.name, roots) if a.name != "*" else [target])
                # a first-party import by what it binds to (that module's code), never by the module's name
                where = sorted(_fingerprint(_file_of(d, roots)[0]) for d in bound if _file_of(d, roots)[0]) \
                    if bound else [target or ""]
                text = f"import {a.name if not bound else ''} as {a.asname} from {','.join(where)}" \
                    if target is None else f"from {','.join(where)} import {a.name} as {a.asname}"
                fp = hashlib.sha256(text.encode()).hexdigest()
                out[f"{module}:{fp}"] = fp
                deps.update(bound)
        else:
            fp = hashlib.sha256(ast.dump(node).encode()).hexdigest()
            out[f"{module}:{fp}"] = fp  # by content, not position: moving a definition keeps the key
        for dep in deps:
            out.update(code_closure(dep, roots))
    for node in extra_nodes:
        fp = hashlib.sha256(ast.dump(node).encode()).hexdigest()
        out[f"{module}:{fp}"] = fp
    return out


def imported_names(target: str, modules, roots=None) -> set[str] | None:
    """The names that ``modules`` (first-party module names) import from the module ``target`` (``from target
    import a, b``, anywhere in their source); ``None`` when one of them imports ``target`` itself (``import target``
    or ``from package import target``), so that any of its names may be used."""
    roots = default_roots() if roots is None else {k: Path(v) for k, v in roots.items()}
    parent, _, leaf = target.rpartition(".")
    out: set[str] = set()
    for module in modules:
        path, is_pkg = _file_of(module, roots)
        if path is None:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import) and any(a.name == target for a in node.names):
                return None
            if isinstance(node, ast.ImportFrom):
                src = _absolute(node, module, is_pkg) if node.level else node.module
                if src == target:
                    out.update(a.name for a in node.names)
                elif src == parent and any(a.name == leaf for a in node.names):
                    return None
    return out
