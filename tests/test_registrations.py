"""The checklist of README's "Adding a method / adding a paper", as tests: each fails naming the file a newcomer
forgot to touch."""

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import genesel
import genesel.papers

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "lib" / "genesel"
TESTS = ROOT / "tests"


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__")


def _has_njit(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if getattr(target, "id", getattr(target, "attr", None)) == "njit":
                    return True
    return False


def _test_imports():
    """{test file: set of imported module names}"""
    out = {}
    for p in TESTS.glob("test_*.py"):
        mods = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Import):
                mods.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods.add(node.module)
                mods.update(f"{node.module}.{a.name}" for a in node.names)
        out[p.name] = mods
    return out


KERNEL_MODULES = sorted(_module_name(p) for p in PKG.rglob("*.py") if _has_njit(p))


@pytest.mark.registration("estimator", "tests/naive/<module>.py")
@pytest.mark.parametrize("module", KERNEL_MODULES)
def test_every_kernel_module_is_checked_against_a_plain_python_twin(module):
    """A module with numba kernels needs a twin in tests/naive/ and a test that imports both."""
    both = [f for f, mods in _test_imports().items()
            if any(m == module or m.startswith(module + ".") for m in mods)
            and any(m == "naive" or m.startswith("naive.") for m in mods)]
    assert both, (f"{module} defines numba kernels but no test imports it together with a plain-Python twin from "
                  "tests/naive/ (write the twin and a test comparing them)")


def _public_estimators():
    from sklearn.base import BaseEstimator

    return [getattr(genesel, n) for n in genesel.__all__
            if inspect.isclass(getattr(genesel, n)) and issubclass(getattr(genesel, n), BaseEstimator)]


@pytest.mark.registration("estimator", "lib/genesel/__init__.py", "tests/estimators.py",
                           "_parameter_constraints")
@pytest.mark.parametrize("cls", _public_estimators(), ids=lambda c: c.__name__)
def test_every_public_estimator_is_registered(cls):
    """Re-exported and mapped in genesel/__init__.py, an entry in the table of test settings (tests/estimators.py:
    scikit-learn's estimator checks, the constant-gene rules and the property tests read it), and declared in
    _parameter_constraints (tests/test_estimator_api.py checks the constraints themselves)."""
    import estimators

    assert cls.__name__ in (genesel.__doc__ or ""), f"name {cls.__name__} in genesel/__init__.py's docstring map"
    assert cls.__name__ in estimators.SETTINGS, (f"an entry for {cls.__name__} in tests/estimators.py (its small "
                                                 "settings, expected-failed checks, property-test configurations)")
    assert "_parameter_constraints" in vars(cls) or any("_parameter_constraints" in vars(b) for b in cls.__mro__[1:]
                                                        if b.__module__.startswith("genesel")), \
        f"declare {cls.__name__}'s hyper-parameters in _parameter_constraints"


def _paper_modules():
    return sorted(p.stem for p in (PKG / "papers").glob("*.py")
                  if p.stem not in ("__init__", "common", "presentation", "tan2006")
                  and not p.stem.endswith(("_report", "_claims")))


def _notebook_code(path):
    nb = json.loads(path.read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


@pytest.mark.registration("paper", "lib/genesel/papers/<paper>_report.py", "genesel.papers.CLAIMS",
                           "notebooks/NN_<paper>.ipynb", "README.md", "tests/papers/test_<paper>.py")
@pytest.mark.parametrize("paper", _paper_modules())
def test_every_paper_has_its_report_notebook_tests_and_readme_row(paper):
    report = PKG / "papers" / f"{paper}_report.py"
    assert report.exists() or paper == "datasets_overview", f"papers/{paper}_report.py (tables, figures, prose)"
    claims = "genesel.papers." + ("datasets_claims" if paper == "datasets_overview" else f"{paper}_claims")
    assert claims in genesel.papers.CLAIMS, (f"{claims} (which cells of the paper's tables the committed runs compare, "
                                            "by which rule), registered in genesel.papers.CLAIMS")
    notebooks = [p for p in (ROOT / "notebooks").glob("[0-9]*.ipynb")
                 if re.search(rf"genesel\.papers(\.| import .*\b){paper}\b", _notebook_code(p))]
    assert notebooks, f"a notebook in notebooks/ that runs genesel.papers.{paper}"
    readme = (ROOT / "README.md").read_text()
    for nb in notebooks:
        assert f"`{nb.stem}`" in readme, f"a row for {nb.stem} in README's notebook table"
    assert (TESTS / "papers" / f"test_{paper.split('_ch')[0] if paper.startswith('tan2006') else paper}.py").exists() \
        or any((TESTS / "papers").glob(f"test_{paper}*.py")) or paper == "datasets_overview", \
        f"tests/papers/test_{paper}.py (the paper's checkable numbers)"
