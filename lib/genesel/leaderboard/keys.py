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

So :func:`method_code` hashes exactly that: an edit to ``genesel/smlr.py`` moves the keys of the SMLR methods and
of nothing that does not import it; an edit to the protocol moves every key; an edit to a docstring or comment
moves none. Each entry must be written out in ``_ENTRIES`` with its name as a string literal (a test checks that
every method of the catalogue is found), so that the key can be read from the source without running it.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from genesel.experiments.codekey import code_closure, default_roots, digest_of, imported_names, names_closure

__all__ = ["CATALOGUE_MODULE", "CELL_MODULE", "entry_nodes", "protocol_fingerprints", "method_fingerprints",
           "method_code", "cell_code"]

CATALOGUE_MODULE = "genesel.leaderboard.catalogue"
CELL_MODULE = "genesel.leaderboard.cells"
#: Catalogue names that hold every entry: the per-method keys stand for them.
_REGISTRY = ("CATALOGUE", "_ENTRIES")


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
    mods = code_closure(CELL_MODULE, roots, exclude=(CATALOGUE_MODULE,))
    names = imported_names(CATALOGUE_MODULE, [m for m in mods if "." in m], roots)
    if names is None:  # the catalogue imported as a module: any of its names may run
        return {**mods, **code_closure(CATALOGUE_MODULE, roots)}
    return {**mods, **names_closure(CATALOGUE_MODULE, names, roots, stop=_REGISTRY)}


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
    return digest_of(method_fingerprints(name))


def method_code(name: str, roots=None) -> str:
    """The code digest of the method ``name``'s cells (once per process for the installed sources)."""
    return _method_code(name) if roots is None else digest_of(method_fingerprints(name, roots))


def cell_code(cell: dict) -> str:
    """The code digest of one leaderboard cell (its ``method`` parameter's :func:`method_code`): what
    :func:`genesel.experiments.run_grid` puts in the cell's cache key."""
    return method_code(cell["method"])
