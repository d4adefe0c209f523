"""The core install and its extras (pyproject.toml): the estimators, the readers and the data registry run with the
core dependencies alone, every import of the package is declared, and what needs an extra says which one
(:mod:`genesel.extras`)."""

import ast
import functools
import importlib
import importlib.metadata as md
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from genesel import extras

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _name(req):
    return _norm(re.match(r"[A-Za-z0-9_.\-]+", req.strip()).group(0))


CORE = {_name(r) for r in PROJECT["dependencies"]}
EXTRA_DISTS = {extra: {_name(r) for r in reqs if _name(r) != "genesel"}
               for extra, reqs in PROJECT["optional-dependencies"].items()}


def _requirements_of(dists):
    """The distributions that the installed ``dists`` require (one level; not those of their own extras)."""
    from packaging.requirements import Requirement

    out = set()
    for d in dists:
        try:
            reqs = md.requires(d) or []
        except md.PackageNotFoundError:
            continue
        for r in map(Requirement, reqs):
            if r.marker is None or r.marker.evaluate({"extra": ""}):
                out.add(_norm(r.name))
    return out


def _imports():
    """(module file, top-level import name, at import time?) of every absolute import in lib/genesel and
    data_fetch; an import inside a function runs only when the function is called."""
    std, first = set(sys.stdlib_module_names) | {"__future__"}, {"genesel", "data_fetch"}
    out = []
    for root in (ROOT / "lib" / "genesel", ROOT / "data_fetch"):
        for path in sorted(root.rglob("*.py")):
            def visit(node, lazy, path=path):
                for child in ast.iter_child_nodes(node):
                    inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                    names = []
                    if isinstance(child, ast.Import):
                        names = [a.name for a in child.names]
                    elif isinstance(child, ast.ImportFrom) and not child.level:
                        names = [child.module]
                    for n in names:
                        top = n.split(".")[0]
                        if top not in std and top not in first:
                            out.append((path.relative_to(ROOT).as_posix(), top, not inner))
                    visit(child, inner)

            visit(ast.parse(path.read_text()), False)
    return out


@functools.cache
def _packages_distributions():
    return md.packages_distributions()


def _distribution_of(import_name):
    dists = _packages_distributions().get(import_name)
    assert dists, f"{import_name} is imported but no installed distribution provides it"
    return {_norm(d) for d in dists}


def test_every_import_is_declared():
    """A module-level import needs a core dependency (or one a core dependency requires, e.g. numba's llvmlite);
    an import inside a function needs a core dependency or one of an extra (or a requirement of one of those,
    e.g. papermill's jupyter_client): nothing the package imports is left undeclared."""
    optional = set().union(*EXTRA_DISTS.values())
    at_import = CORE | _requirements_of(CORE)
    anywhere = at_import | optional | _requirements_of(optional)
    bad = [(f, name) for f, name, eager in _imports()
           if not _distribution_of(name) & (at_import if eager else anywhere)]
    assert not bad, f"imports of undeclared (or, at module level, non-core) packages: {bad}"


def test_extras_table_matches_pyproject():
    """genesel.extras names, for each optional import, the extra of pyproject.toml that lists its distribution."""
    for module, (extra, dist) in extras.EXTRAS.items():
        assert extra in EXTRA_DISTS and _norm(dist) in EXTRA_DISTS[extra], (module, extra, dist)
        assert _norm(dist) in _distribution_of(module), (module, dist)
        assert _norm(dist) not in CORE, f"{dist} is a core dependency: no extra needed"


def test_getting_started_lists_each_extra():
    """docs/getting-started.md's table of extras lists each extra with exactly its packages."""
    text = (ROOT / "docs" / "getting-started.md").read_text()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z]+)` \|[^|]*\|([^|]*)\|\s*$", text, flags=re.M)}
    assert set(rows) == set(EXTRA_DISTS), set(rows) ^ set(EXTRA_DISTS)
    for extra, cell in rows.items():
        if extra != "dev":  # dev: "every extra above and ..." in its second column
            assert {_norm(p) for p in re.findall(r"[A-Za-z0-9_.\-]+", cell)} == EXTRA_DISTS[extra], extra


# Python started with every optional package blocked, as in a core install (`pip install genesel`)
_CORE_ONLY = textwrap.dedent("""
    import importlib.abc, sys

    BLOCKED = set(sys.argv[1].split(","))

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)", name=name)

    sys.meta_path.insert(0, Blocker())
    exec(sys.argv[2])
    loaded = sorted(m for m in BLOCKED if m in sys.modules)
    assert not loaded, f"optional packages imported: {loaded}"
""")


def _optional_imports():
    """The import names of every package only an extra brings (not a core dependency or a requirement of one)."""
    core = CORE | _requirements_of(CORE)
    names = set()
    for name, dists in _packages_distributions().items():
        if any(_norm(d) in set().union(*EXTRA_DISTS.values()) for d in dists) and \
                not any(_norm(d) in core for d in dists) and name.isidentifier():
            names.add(name)
    assert {"matplotlib", "seaborn", "papermill", "tqdm", "anndata", "scikit_posthocs", "IPython"} <= names
    return sorted(names)


def _core_only(code, tmp_path, timeout=600):
    return subprocess.run([sys.executable, "-c", _CORE_ONLY, ",".join(_optional_imports()), code],
                          cwd=tmp_path, capture_output=True, text=True, timeout=timeout)


def test_core_install_fits_reads_and_lists(tmp_path):
    """With every optional package blocked: the package imports, an estimator fits in a pipeline, a user's CSV is
    read (read_expression and load_dataset), the registry lists its data sets and `genesel --help` prints, and no
    optional package is imported on the way."""
    (tmp_path / "study.csv").write_text("sample,class,g1,g2,g3,g4\n" + "".join(
        f"s{i},{'AB'[i % 2]},{1 + i % 2 + 0.1 * i},{2 - 0.05 * i},{3 + (i % 3)},{0.5 * i}\n" for i in range(12)))
    code = textwrap.dedent("""
        import numpy as np
        from sklearn.pipeline import make_pipeline
        import genesel, data_fetch
        from genesel import SVMRFE, LinearSVM
        from genesel.datasets import read_expression, load_dataset
        from genesel.cli import main

        ds = read_expression("study.csv", label="class")
        assert ds.X.shape == (12, 4) and tuple(ds.classes) == ("A", "B"), (ds.X.shape, ds.classes)
        assert load_dataset("study.csv?label=class").X.shape == (12, 4)
        model = make_pipeline(SVMRFE(n_features_to_select=2), LinearSVM()).fit(ds.X, ds.y)
        assert model[0].get_support().sum() == 2
        assert "alon" in data_fetch.DATASETS
        assert main(["--help"]) == 0
        print("core ok")
    """)
    res = _core_only(code, tmp_path)
    assert res.returncode == 0 and "core ok" in res.stdout, res.stderr[-3000:]


@pytest.mark.parametrize("module, extra", [("genesel.plotting", "notebooks"),
                                           ("genesel.leaderboard.figures", "notebooks")])
def test_importing_a_figures_module_without_matplotlib_names_the_extra(module, extra, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails, find_spec finds nothing
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=re.escape(f'pip install "genesel[{extra}]"')) as err:
        importlib.import_module(module)
    assert "matplotlib" in str(err.value) and isinstance(err.value, extras.MissingExtra)


def test_genesel_run_without_papermill_names_the_extra(monkeypatch, capsys):
    """`genesel run` without the notebooks extra: a one-line message naming it, exit status 1, no traceback."""
    from genesel.cli import main

    monkeypatch.setitem(sys.modules, "papermill", None)
    assert main(["run", "00"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("genesel run: ") and 'pip install "genesel[notebooks]"' in err and "papermill" in err
    assert "Traceback" not in err


def test_ranking_without_scikit_posthocs_names_the_extra(monkeypatch):
    from genesel.leaderboard.ranking import rank_statistics

    summary = pd.DataFrame({"dataset": ["a"] * 3 + ["b"] * 3, "method": ["x", "y", "z"] * 2,
                            "error": [0.1, 0.2, 0.3, 0.2, 0.1, 0.3]})
    monkeypatch.setitem(sys.modules, "scikit_posthocs", None)
    with pytest.raises(ImportError, match=re.escape('pip install "genesel[stats]"')):
        rank_statistics(summary)


def test_progress_in_a_terminal_without_tqdm_prints_lines(monkeypatch, capsys):
    """A grid run from a terminal in a core install (no tqdm) shows the summary lines instead of failing."""
    from genesel.experiments import progress as P

    monkeypatch.setenv(P.ENV_PROGRESS, "bar")
    monkeypatch.setitem(sys.modules, "tqdm", None)
    bar = P.progress(4, 0, "cells")
    bar.update(4)
    bar.close()
    assert "4/4" in capsys.readouterr().out


def test_require_and_check(monkeypatch, tmp_path):
    """require imports what is there and names the extra of what is not; check looks without importing; a module
    that is there but lacks one of its own dependencies keeps its own error (not blamed on an extra)."""
    assert extras.require("json", "a test") is sys.modules["json"]
    monkeypatch.setitem(sys.modules, "anndata", None)
    with pytest.raises(extras.MissingExtra,
                       match=re.escape('reading .h5ad files needs anndata, which is not installed: '
                                       'pip install "genesel[anndata]"')):
        extras.require("anndata", "reading .h5ad files")
    assert extras.missing("json", "anndata") == ["anndata"]
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "scikit_posthocs", None)
    with pytest.raises(extras.MissingExtra, match=re.escape(
            'needs matplotlib and scikit-posthocs, which are not installed: pip install "genesel[notebooks,stats]"')):
        extras.check("a figure", "json", "matplotlib", "scikit_posthocs")

    (tmp_path / "genesel_probe_pkg.py").write_text("import genesel_no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as err:
        extras.require("genesel_probe_pkg", "a test")
    assert not isinstance(err.value, extras.MissingExtra) and err.value.name == "genesel_no_such_dependency"
