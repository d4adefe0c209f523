"""The architecture's rules, checked on the source: layering, what notebooks may import, no machine paths."""

import ast
import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "lib" / "genesel"


def _modules():
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(PKG.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        yield name, p


def _imports(path):
    """Every module named in an import statement of ``path`` (anywhere in the file), made absolute."""
    tree = ast.parse(path.read_text())
    pkg_parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if path.name != "__init__.py":
        pkg_parts = pkg_parts[:-1]
    else:
        pkg_parts = pkg_parts[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg_parts[: len(pkg_parts) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def _layer(name):
    if name == "genesel.notebooks":  # the command-line entry point of the notebook runner
        return "experiments"
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in ("papers", "experiments", "_core"):
        return parts[1]
    return "algorithms"


@pytest.mark.parametrize("name,path", list(_modules()), ids=[n for n, _ in _modules()])
def test_layering(name, path):
    """Only papers/ and experiments/ import genesel.datasets; only papers/ imports papers/; algorithm modules and
    _core import nothing from experiments or papers; _core imports no algorithm module."""
    layer = _layer(name)
    imps = _imports(path)
    uses = lambda prefix: sorted(i for i in imps if i == prefix or i.startswith(prefix + "."))  # noqa: E731
    if layer not in ("papers", "experiments") and name != "genesel.datasets":
        assert not uses("genesel.datasets"), f"{name} loads data: move that code to genesel.papers"
    if layer != "papers":
        assert not uses("genesel.papers"), f"{name} imports a paper module"
    if layer in ("algorithms", "_core") and name != "genesel":
        assert not uses("genesel.experiments"), f"{name} imports genesel.experiments"
    if layer == "_core":
        others = [i for i in imps if i.startswith("genesel.") and not i.startswith("genesel._core")]
        assert not others, f"{name} (private core) imports {others}"


def test_package_init_files_hold_no_behaviour():
    """Cache keys skip __init__ files that are only passed through; that is safe only if they define nothing that
    runs (imports, constants and docstrings only)."""
    for p in PKG.rglob("__init__.py"):
        for node in ast.parse(p.read_text()).body:
            ok = isinstance(node, (ast.Import, ast.ImportFrom, ast.Expr, ast.Assign, ast.AnnAssign))
            assert ok, f"{p.relative_to(ROOT)}: {type(node).__name__} at line {node.lineno} (only re-exports)"


NB_ALLOWED = re.compile(r"^(genesel\.papers(\.\w+)?|genesel\.experiments(\.\w+)?|genesel\.plotting|genesel\.datasets|"
                        r"genesel\.(metrics|stability|filters|preprocessing|svm|rfe|voting|alma|gp|rvm|smlr|dwd|"
                        r"arom|stumps|bounds|wrappers|msvm_rfe|gp_ard|forward)|genesel)$")


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebooks_import_only_public_layers(path):
    nb = json.loads(path.read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    tree = ast.parse(code)
    for node in ast.walk(tree):
        mods = []
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = [node.module]
        for m in mods:
            if m.startswith("genesel"):
                assert NB_ALLOWED.match(m), f"{path.name} imports {m} (private or not a public layer)"


_ABS = re.compile(r"(?<![\w.~$])/(?:work|home|root|Users|mnt|scratch|tmp)/[\w.-]+/|[A-Za-z]:\\\\Users")


def test_no_absolute_machine_paths_in_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    bad = []
    for f in files:
        p = ROOT / f
        if p.suffix in (".png", ".pdf", ".gz", ".npz") or not p.is_file():
            continue
        try:
            text = p.read_text()
        except UnicodeDecodeError:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if _ABS.search(line) and "test_layout.py" not in f:
                bad.append(f"{f}:{i}: {line.strip()[:100]}")
    assert not bad, "absolute paths of a machine in the repository:\n" + "\n".join(bad)
