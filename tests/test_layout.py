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
    if name in ("genesel.cli", "genesel.__main__"):  # the one command dispatches to every layer's main()
        return "records"
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in ("papers", "experiments", "_core", "leaderboard", "records"):
        return parts[1]
    return "algorithms"


@pytest.mark.parametrize("name,path", list(_modules()), ids=[n for n, _ in _modules()])
def test_layering(name, path):
    """Only papers/, leaderboard/ and experiments/ import the data layer (genesel.datasets, genesel.expression_io);
    only papers/ and the leaderboard (which sits on top of them: their loader, their printed numbers) import
    papers/; nothing imports the leaderboard but itself; algorithm modules and _core import nothing from
    experiments or papers; _core imports no algorithm module."""
    layer = _layer(name)
    imps = _imports(path)
    uses = lambda prefix: sorted(i for i in imps if i == prefix or i.startswith(prefix + "."))  # noqa: E731
    data_layer = ("genesel.datasets", "genesel.expression_io")  # registered sets and a user's own files
    if layer not in ("papers", "experiments", "leaderboard", "records") and name not in data_layer:
        for mod in data_layer:
            assert not uses(mod), f"{name} loads data: move that code to genesel.papers"
    if layer not in ("papers", "leaderboard", "records"):
        assert not uses("genesel.papers"), f"{name} imports a paper module"
    if layer not in ("leaderboard", "records"):
        assert not uses("genesel.leaderboard"), f"{name} imports the leaderboard"
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


#: What a notebook may import from genesel: the package, the data, the experiments, plotting, the paper modules
#: and the public algorithm modules (never ``_core`` or a private module).
NB_ALGORITHMS = ("metrics", "stability", "filters", "preprocessing", "svm", "rfe", "voting", "alma", "gp", "rvm",
                 "smlr", "dwd", "arom", "stumps", "bounds", "msvm_rfe", "gp_ard_select", "sparse_select", "forward")


def _public_modules(package):
    return {f"genesel.{package}.{p.stem}" for p in (PKG / package).glob("*.py")
            if not p.stem.startswith("_")} | {f"genesel.{package}"}


NB_ALLOWED = ({"genesel", "genesel.plotting", "genesel.datasets"} | {f"genesel.{m}" for m in NB_ALGORITHMS}
              | _public_modules("papers") | _public_modules("experiments") | _public_modules("leaderboard"))


@pytest.mark.parametrize("name", NB_ALGORITHMS)
def test_the_notebook_allow_list_names_modules_that_exist(name):
    assert (PKG / f"{name}.py").is_file(), f"NB_ALGORITHMS names genesel.{name}, which does not exist"


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
            mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                    if (PKG.parent / node.module.replace(".", "/") / f"{a.name}.py").is_file()]
        for m in mods:
            if m.startswith("genesel"):
                assert m in NB_ALLOWED, f"{path.name} imports {m} (private or not a public layer)"


# ----------------------------------------------------------------------------------------------------------------
# papers/: cell modules apart from the presentation, public APIs only
# ----------------------------------------------------------------------------------------------------------------

PAPERS = PKG / "papers"
#: papers/ modules that present (tables, figures, prose, notebook helpers, what a paper's cells are compared with):
#: no grid cell may depend on them
PRESENTATION = {"presentation", "datasets_overview"}


def _is_presentation(stem):
    return stem in PRESENTATION or stem.endswith("_report") or stem.endswith("_claims")


#: every other module of papers/ holds cells or what cells use: its code is part of cache keys
LEADERBOARD = PKG / "leaderboard"
#: leaderboard modules that only read results (summaries, tables, ranks, figures, the published numbers, cost, the
#: exercises' answers, the claims beside the papers; how far a run is; carrying its cells): never in a cell's key
LEADERBOARD_READERS = ("summary", "tables", "ranking", "figures", "labels", "du2006", "published", "cost",
                       "exercises", "claims", "status", "shards")
CELL_MODULES = sorted([f"genesel.papers.{p.stem}" for p in PAPERS.glob("*.py")
                       if p.stem != "__init__" and not _is_presentation(p.stem)]
                      + [f"genesel.leaderboard.{p.stem}" for p in LEADERBOARD.glob("*.py")
                         if p.stem not in ("__init__",) + LEADERBOARD_READERS])
#: third-party packages that draw or display: presentation only
DRAWING = ("matplotlib", "seaborn", "IPython")


def _third_party_imports(path):
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


def test_every_paper_has_a_cell_module_and_a_report_module():
    papers = ("guyon2002", "gentile2003", "helleputte2009", "shah2012", "tan2006_ch3", "tan2006_ch45")
    for p in papers:
        assert f"genesel.papers.{p}" in CELL_MODULES and (PAPERS / f"{p}_report.py").is_file(), p


@pytest.mark.parametrize("module", CELL_MODULES)
def test_cell_modules_never_reach_plotting_or_presentation(module):
    """A cell's cache key covers every first-party module its module reaches by imports (codekey.code_closure):
    none of them may draw (genesel.plotting, matplotlib, seaborn, IPython) or be a presentation module, or a figure
    edit would discard finished runs."""
    from genesel.experiments.codekey import code_closure

    closure = code_closure(module)
    assert "genesel.plotting" not in closure, f"{module} reaches genesel.plotting through its imports"
    shown = sorted(m for m in closure if m.startswith("genesel.papers.") and _is_presentation(m.rsplit(".", 1)[1]))
    assert not shown, f"{module} reaches presentation modules {shown}"
    roots = {"genesel": PKG.parent, "data_fetch": ROOT}
    for name in closure:
        path = roots[name.split(".")[0]].joinpath(*name.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        drawing = sorted(_third_party_imports(path) & set(DRAWING))
        assert not drawing, f"{module} reaches {name}, which imports {drawing}"


def _private_uses(path):
    """(line, what) of every use of genesel._core or of a private name in a source file."""
    bad = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, f"import {a.name}") for a in node.names
                    if a.name.startswith("genesel") and any(p.startswith("_") for p in a.name.split("."))]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("genesel"):
            if any(p.startswith("_") for p in node.module.split(".")):
                bad.append((node.lineno, f"from {node.module} import ..."))
            bad += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                bad.append((node.lineno, f"{ast.unparse(node)}"))
    return bad


@pytest.mark.parametrize("path", sorted(PAPERS.glob("*.py")) + sorted(LEADERBOARD.glob("*.py")),
                         ids=lambda p: f"{p.parent.name}.{p.stem}")
def test_papers_use_public_apis_only(path):
    """No genesel._core, no private module, no private name imported, no private attribute of another object."""
    bad = _private_uses(path)
    assert not bad, f"{path.parent.name}/{path.name} uses private names: " + "; ".join(f"line {n}: {w}" for n, w in bad)


def test_the_private_name_check_catches_each_kind(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("import genesel._core.smo\nfrom genesel._core.threads import single_blas_thread\n"
                   "from genesel.svm import _in_x_units\nfrom genesel import stumps as ST\n"
                   "def f(est, X):\n    ST._warm_up()\n    return est._prod(X, 1), self._ok, X.__class__\n")
    found = sorted(w for _, w in _private_uses(src))
    assert found == sorted(["import genesel._core.smo", "from genesel._core.threads import ...",
                            "from genesel.svm import _in_x_units", "ST._warm_up", "est._prod"])


def test_the_papers_package_doc_lists_every_module():
    doc = ast.get_docstring(ast.parse((PAPERS / "__init__.py").read_text()))
    missing = [p.stem for p in sorted(PAPERS.glob("*.py"))
               if p.stem != "__init__" and f":mod:`~genesel.papers.{p.stem}`" not in doc]
    assert not missing, f"genesel/papers/__init__.py does not list {missing}"


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


@pytest.fixture()
def source_copy(tmp_path):
    """A private copy of the sources (genesel and data_fetch), to edit without touching the checkout."""
    import shutil

    lib = tmp_path / "lib"
    shutil.copytree(PKG, lib / "genesel", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data_fetch", tmp_path / "data_fetch", ignore=shutil.ignore_patterns("__pycache__"))
    return {"genesel": lib, "data_fetch": tmp_path}


def _edit(path, old, new):
    src = path.read_text()
    assert old in src, f"{path.name} no longer holds {old!r}: update the test"
    path.write_text(src.replace(old, new, 1))


def test_editing_a_figure_a_caption_plotting_or_a_report_keeps_every_cell_key(source_copy):
    """Through codekey, as the grid computes keys: a y-limit of a figure, a caption, a line of plotting.py, the
    notebook helpers and every *_report.py edited: no cell module's key moves. Editing a cell module moves its own
    key (and the key of nothing that does not import it)."""
    from genesel.experiments.codekey import closure_digest

    def keys():
        return {m: closure_digest(m, source_copy) for m in CELL_MODULES}

    before = keys()
    papers = source_copy["genesel"] / "genesel" / "papers"
    _edit(papers / "shah2012_report.py", "ax.set_ylim(0, 105)", "ax.set_ylim(0, 110)")  # a figure
    _edit(papers / "tan2006_ch3_report.py", 'f"Tan 2006 Fig. 3.7: pooled', 'f"Thesis Fig. 3.7: pooled')  # a caption
    plotting = source_copy["genesel"] / "genesel" / "plotting.py"
    plotting.write_text(plotting.read_text() + "\nEXTRA_STYLE = {'lines.linewidth': 3.0}\n")
    notebook = papers / "presentation.py"
    notebook.write_text(notebook.read_text() + "\nBANNER_WIDTH = 80\n")
    for report in sorted(papers.glob("*_report.py")) + [papers / "datasets_overview.py"]:
        report.write_text(report.read_text() + "\n\ndef _added_table():\n    return 1\n")
    assert keys() == before
    _edit(papers / "shah2012.py", '"inner_k": 3,', '"inner_k": 4,')  # the quick grid of Shah's cells
    after = keys()
    assert after["genesel.papers.shah2012"] != before["genesel.papers.shah2012"]
    assert {m: k for m, k in after.items() if m != "genesel.papers.shah2012"} == \
        {m: k for m, k in before.items() if m != "genesel.papers.shah2012"}


def test_a_cell_module_that_imports_plotting_is_caught(source_copy):
    """The guard above can fail: a cell module that reaches plotting (here through common.py, inside a function)
    gets a key that moves with plotting.py, and the closure test names it."""
    from genesel.experiments.codekey import closure_digest, code_closure

    common = source_copy["genesel"] / "genesel" / "papers" / "common.py"
    common.write_text(common.read_text()
                      + "\n\ndef setup():\n    from genesel import plotting\n\n    plotting.setup()\n")
    assert "genesel.plotting" in code_closure("genesel.papers.gentile2003", source_copy)
    before = closure_digest("genesel.papers.gentile2003", source_copy)
    plotting = source_copy["genesel"] / "genesel" / "plotting.py"
    plotting.write_text(plotting.read_text() + "\nEXTRA_STYLE = 1\n")
    assert closure_digest("genesel.papers.gentile2003", source_copy) != before


def test_no_cell_module_imports_a_leaderboard_reader():
    """The report modules and status may reach plotting: no module whose code is in a cell's key may import them."""
    from genesel.experiments.codekey import code_closure

    for m in CELL_MODULES:
        reached = code_closure(m)
        for r in LEADERBOARD_READERS:
            assert f"genesel.leaderboard.{r}" not in reached, f"{m} reaches genesel.leaderboard.{r}"
