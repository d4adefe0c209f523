"""Cache keys of the leaderboard's cells, per method: editing one method's code recomputes that method's cells only.

The grid keys a cell by the code it can run (:mod:`genesel.experiments.codekey`). For the leaderboard that would
be the whole catalogue and every algorithm module it imports, so that making one method faster (or fixing one)
would discard the cached cells of all 35: weeks of CPU at the full protocol. The cells of one method can run only

- the protocol: the cell module and what it imports, except the catalogue (:func:`codekey.code_closure` with the
  catalogue excluded), plus the catalogue's definitions that those modules import (``Method``, ``SIZES``, the
  ``method`` lookup) and what they use;
- the method's own entry of the catalogue (its ``Method(...)`` expression in ``_ENTRIES``), the catalogue's
  definitions it uses (``SignatureSVM``, ``_with_svm``, ...; transitively) and the first-party modules those import
  from, with everything those modules import (:func:`codekey.names_closure`).

A cell's data are keyed the same way (:func:`dataset_code`): the registry (``data_fetch/registry.py``) is read
through by every cell, but only its code outside the list of specs counts for all of them; each data set's cells
count its own ``DatasetSpec(...)`` entry without what it holds for readers (description, citation, papers, title).
A title edited or a data set added moves no key (a full run's cache survives both); a data set's expected shape
changed moves its own cells' keys.

So :func:`method_code` hashes exactly that: an edit to ``genesel/smlr.py`` moves the keys of the SMLR methods and
of nothing that does not import it; an edit to the protocol moves every key; an edit to a docstring or comment
moves none. Each entry must be written out in ``_ENTRIES`` with its name as a string literal (a test checks that
every method of the catalogue is found), so that the key can be read from the source without running it.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from genesel.experiments.codekey import (code_closure, content_digest, default_roots, digest_of, imported_names,
                                         names_closure)

__all__ = ["CATALOGUE_MODULE", "CELL_MODULE", "REGISTRY_MODULE", "entry_nodes", "protocol_fingerprints",
           "method_fingerprints", "method_code", "dataset_fingerprints", "dataset_code", "cell_code"]

CATALOGUE_MODULE = "genesel.leaderboard.catalogue"
CELL_MODULE = "genesel.leaderboard.cells"
#: Catalogue names that hold every entry: the per-method keys stand for them.
_REGISTRY = ("CATALOGUE", "_ENTRIES")
#: The data-set registry, keyed per data set (:func:`dataset_fingerprints`), and its list of specs.
REGISTRY_MODULE = "data_fetch.registry"
_SPECS = "_specs"
#: What a ``DatasetSpec`` holds for readers only: its positional description and citation, and these keywords.
_PRESENTATION_ARGS = (6, 7)
_PRESENTATION_KEYWORDS = ("description", "citation", "papers", "title")


def _roots(roots):
    return default_roots() if roots is None else {k: Path(v) for k, v in roots.items()}


def entry_nodes(roots=None) -> dict[str, ast.expr]:
    """{method name: its ``Method(...)`` call in the catalogue's ``_ENTRIES`` list}, read from the source."""
    path = _roots(roots)["genesel"].joinpath(*CATALOGUE_MODULE.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_ENTRIES" for t in node.targets):
            out = {}
            for el in node.value.elts:
                if not (isinstance(el, ast.Call) and el.args and isinstance(el.args[0], ast.Constant)
                        and isinstance(el.args[0].value, str)):
                    raise ValueError(f"{path.name}, line {el.lineno}: an entry of _ENTRIES must be a Method(...) call "
                                     "whose first argument is the name as a string literal (genesel.leaderboard.keys)")
                out[el.args[0].value] = el
            return out
    raise ValueError(f"{path}: no _ENTRIES list")


@lru_cache(maxsize=None)
def _installed_protocol() -> tuple:
    return tuple(sorted(protocol_fingerprints(default_roots()).items()))


def protocol_fingerprints(roots=None) -> dict[str, str]:
    """What every leaderboard cell runs, whatever its method (module docstring)."""
    if roots is None:
        return dict(_installed_protocol())
    roots = _roots(roots)
    mods = code_closure(CELL_MODULE, roots, exclude=(CATALOGUE_MODULE, REGISTRY_MODULE))
    mods.update(names_closure(REGISTRY_MODULE, _registry_names(roots), roots, stop=(_SPECS,)))
    names = imported_names(CATALOGUE_MODULE, [m for m in mods if "." in m and ":" not in m], roots)
    if names is None:  # the catalogue imported as a module: any of its names may run
        return {**mods, **code_closure(CATALOGUE_MODULE, roots)}
    return {**mods, **names_closure(CATALOGUE_MODULE, names, roots, stop=_REGISTRY)}


def _registry_source(roots):
    path = _roots(roots)["data_fetch"].joinpath(*REGISTRY_MODULE.split(".")).with_suffix(".py")
    return path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _names_in(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _registry_names(roots=None) -> set[str]:
    """The registry's top-level names that the protocol can run apart from its specs: every name bound outside the
    statements that build the list of specs (``_specs = [...]`` and what appends to it), except names that only
    those statements use (e.g. a prefix of descriptions: a part of the specs)."""
    _, tree = _registry_source(roots)
    specs = [n for n in tree.body if _SPECS in _names_in(n)]
    rest = [n for n in tree.body if all(n is not m for m in specs)]
    bound = set()
    for node in rest:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))

    def loads(nodes):
        return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)}

    only_specs = loads(specs) - loads(rest)
    return bound - only_specs


def _spec_node(call: ast.Call) -> ast.Call:
    """A ``DatasetSpec(...)`` call without what it holds for readers only (:data:`_PRESENTATION_KEYWORDS`)."""
    args = [a for i, a in enumerate(call.args) if i not in _PRESENTATION_ARGS]
    kws = [k for k in call.keywords if k.arg not in _PRESENTATION_KEYWORDS]
    return ast.Call(func=call.func, args=args, keywords=kws)


def dataset_fingerprints(name: str, roots=None) -> dict[str, str]:
    """What defines the data of the registered data set ``name`` (its cells' data): its ``DatasetSpec(...)`` entry
    in the registry's list without its description, citation, papers and title, and the parsers' code. A data set
    whose entry is not written out with its name as a string literal (e.g. the MNIST pairs, appended in a loop) is
    keyed by every statement that builds the list (an edit there moves it); a name that is not registered (a
    user's file, keyed by its content elsewhere) has no fingerprint here."""
    import hashlib

    _, tree = _registry_source(roots)
    specs = [n for n in tree.body if _SPECS in _names_in(n)]
    found = [call for node in specs for call in ast.walk(node)
             if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant)
             and call.args[0].value == name]
    nodes = [_spec_node(c) for c in found] if found else specs
    out = {f"{REGISTRY_MODULE}:{name}:{i}": hashlib.sha256(ast.dump(n).encode()).hexdigest()
           for i, n in enumerate(nodes)}
    out.update(code_closure("data_fetch.parsers", _roots(roots)))
    return out


def method_fingerprints(name: str, roots=None) -> dict[str, str]:
    """What the cells of the method ``name`` run: the protocol and the method's own code (module docstring)."""
    roots = _roots(roots)
    entries = entry_nodes(roots)
    if name not in entries:
        raise ValueError(f"unknown leaderboard method {name!r}; choose from {list(entries)}")
    own = names_closure(CATALOGUE_MODULE, (), roots, extra_nodes=(entries[name],), stop=_REGISTRY)
    return {**protocol_fingerprints(roots), **own}


@lru_cache(maxsize=None)
def _method_code(name: str) -> str:
    return content_digest(method_fingerprints(name))


def method_code(name: str, roots=None) -> str:
    """The code digest of the method ``name``'s cells (once per process for the installed sources)."""
    return _method_code(name) if roots is None else content_digest(method_fingerprints(name, roots))


@lru_cache(maxsize=None)
def _dataset_code(name: str) -> str:
    return content_digest(dataset_fingerprints(name))


def dataset_code(name: str, roots=None) -> str:
    """The digest of what defines the registered data set ``name`` (:func:`dataset_fingerprints`; an alias is
    resolved first for the installed sources); "" for a user's file, whose content the cell key holds already
    (:func:`genesel.experiments.grid.cell_key`)."""
    from genesel.dataref import is_file_reference

    if is_file_reference(name):
        return ""
    if roots is not None:
        return content_digest(dataset_fingerprints(name, roots))
    from data_fetch import resolve

    try:
        name = resolve(name).name
    except ValueError:  # not registered: the loader refuses it; key it by the whole list of specs
        pass
    return _dataset_code(name)


def cell_code(cell: dict, roots=None) -> str:
    """The code digest of one leaderboard cell: its ``method`` parameter's :func:`method_code` and its ``dataset``
    parameter's :func:`dataset_code`; what :func:`genesel.experiments.run_grid` puts in the cell's cache key. So
    a registry edit for readers (a title, a description, a new data set) moves no key, and an edit of one data
    set's entry (its files, parser, classes, expected shape) moves the keys of that data set's cells only."""
    return digest_of({"method": method_code(cell["method"], roots), "data": dataset_code(cell["dataset"], roots)})
