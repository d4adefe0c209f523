"""The ``Examples`` sections of the docstrings run, print what they show, and warn about nothing (issue 22).

Every module of ``genesel`` is run through :mod:`doctest` (one test per module, so a failure names it, and the
report quotes the example, what it should print and what it printed). An example that emits a warning fails too: a
``DegenerateModelWarning`` or a ``ConvergenceWarning`` in an example is a bad example. Examples that read a
registered data set (``NEEDS_MIRROR``) run only where the raw-data mirror is (as every real-data test); every other
example runs on synthetic data, so it needs neither the mirror nor the network.

``test_public_api_has_examples`` keeps it that way: a new public estimator (anything exported by ``genesel`` that is
a scikit-learn estimator), or a new entry point, fails the suite until its docstring has an ``Examples`` section
that uses it.
"""

from __future__ import annotations

import doctest
import gc
import importlib
import inspect
import io
import re
import types
import warnings
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

import genesel

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "lib" / "genesel"

#: every module of the package, found on disk (a module that fails to import fails its own test, not collection);
#: not the ``__main__`` entry points, which run their command when imported
MODULES = sorted(".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__")
                 for p in PKG.rglob("*.py") if p.name != "__main__.py")

#: docstrings whose examples load a registered data set: they run where the data mirror is (``mirror`` fixture)
NEEDS_MIRROR = {"genesel.datasets.load_dataset"}

#: the entry points a user calls first, besides the estimators and functions exported by ``genesel``: each needs an
#: Examples section too
ENTRY_POINTS = ["genesel.datasets.load_dataset", "genesel.datasets.read_expression", "genesel.datasets.list_datasets",
                "genesel.datasets.recommended_preprocessing"]

FLAGS = 0  # plain doctest, as `python -m doctest` and pytest's --doctest-modules run it: directives are per example


def _not_the_examples(w: warnings.WarningMessage) -> bool:
    """Warnings that say nothing about the examples: a deprecation notice raised inside a library genesel calls (not
    genesel's own, not the example's line), so a library upgrade does not turn the examples red; and a
    ``ResourceWarning``, which Python issues when the garbage collector finalises an unclosed file, whatever code
    happens to be running then. Anything else (genesel's warnings, sklearn's ConvergenceWarning, numpy's
    RuntimeWarning, ...) fails the example."""
    if issubclass(w.category, ResourceWarning):
        return True
    return (issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning))
            and str(PKG) not in str(w.filename) and not str(w.filename).startswith("<doctest"))


def run_doctests(module: types.ModuleType, *, skip=frozenset(), only=None) -> tuple[int, int, str]:
    """Run the examples of ``module`` (its own objects, as doctest finds them): (attempted, failed, report).

    ``skip``/``only``: names of docstrings (``DocTest.name``) to leave out / to run alone. A warning emitted while
    an example runs counts as a failure of that docstring, and the report names it."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = io.StringIO()
    attempted = failed = 0
    for test in sorted(finder.find(module, module.__name__), key=lambda t: t.name):
        if test.name in skip or (only is not None and test.name not in only) or not test.examples:
            continue
        gc.collect()  # finalise what earlier code left behind before recording
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = runner.run(test, out=out.write, clear_globs=True)
        attempted += res.attempted
        failed += res.failed
        bad = [w for w in caught if not _not_the_examples(w)]
        if bad:
            failed += 1
            out.write(f"{test.name}: the examples emitted {len(bad)} warning(s):\n"
                      + "".join(f"  {w.category.__name__}: {w.message} ({w.filename}:{w.lineno})\n" for w in bad))
    return attempted, failed, out.getvalue()


@pytest.mark.parametrize("name", MODULES)
def test_module_examples_run(name):
    module = importlib.import_module(name)
    attempted, failed, report = run_doctests(module, skip=NEEDS_MIRROR)
    assert failed == 0, f"{name}: {failed} of {attempted} example(s) failed\n{report}"


@pytest.mark.parametrize("qualname", sorted(NEEDS_MIRROR))
def test_examples_on_registered_data_run(qualname, mirror):
    module = importlib.import_module(qualname.rsplit(".", 1)[0])
    attempted, failed, report = run_doctests(module, only={qualname})
    assert attempted > 0, f"{qualname}: no example found (stale entry of NEEDS_MIRROR?)"
    assert failed == 0, f"{qualname}: {failed} of {attempted} example(s) failed\n{report}"


# ---------------------------------------------------------------------------------------------------------------
# every public estimator and entry point has an Examples section that uses it
# ---------------------------------------------------------------------------------------------------------------

PUBLIC = sorted(name for name in genesel.__all__
                if inspect.isclass(getattr(genesel, name)) and issubclass(getattr(genesel, name), BaseEstimator)
                or inspect.isfunction(getattr(genesel, name)))


def _resolve(ref: str):
    if "." not in ref:
        return getattr(genesel, ref)
    mod, attr = ref.rsplit(".", 1)
    return getattr(importlib.import_module(mod), attr)


_SECTION = re.compile(r"^[ \t]*Examples[ \t]*\n[ \t]*-{8,}[ \t]*\n", re.M)


def missing_examples(obj, name: str) -> str | None:
    """Why the docstring of ``obj`` lacks a usable Examples section, or None when it has one: a numpydoc
    ``Examples`` heading followed by doctest examples, one of which uses ``name``."""
    doc = inspect.getdoc(obj) or ""
    m = _SECTION.search(doc)
    if m is None:
        return f"{name}: no 'Examples' section (numpydoc: a line 'Examples' underlined with '--------')"
    examples = doctest.DocTestParser().get_examples(doc[m.end():])
    if not examples:
        return f"{name}: the 'Examples' section holds no '>>>' example"
    short = name.rsplit(".", 1)[-1]
    if not any(re.search(rf"\b{re.escape(short)}\b", ex.source) for ex in examples):
        return f"{name}: no example of the Examples section uses {short}"
    return None


def test_every_public_estimator_is_covered():
    assert len(PUBLIC) >= 30 and {"SVMRFE", "LinearSVM", "GeneStandardizer", "forward_path"} <= set(PUBLIC)


@pytest.mark.registration("estimator", "Examples")
@pytest.mark.parametrize("ref", PUBLIC + ENTRY_POINTS)
def test_public_api_has_examples(ref):
    problem = missing_examples(_resolve(ref), ref)
    assert problem is None, problem + " (add one: see the Examples of genesel.rfe.SVMRFE for the usual shape)"


# ---------------------------------------------------------------------------------------------------------------
# the checks above can fail
# ---------------------------------------------------------------------------------------------------------------

def _toy_module(doc: str) -> types.ModuleType:
    return types.ModuleType("toy_doctest_module", doc)


def test_a_wrong_output_fails():
    good = _toy_module(">>> 1 + 1\n2\n")
    bad = _toy_module(">>> 1 + 1\n3\n")
    assert run_doctests(good)[:2] == (1, 0)
    attempted, failed, report = run_doctests(bad)
    assert (attempted, failed) == (1, 1) and "Expected:\n    3\nGot:\n    2" in report


def test_a_warning_fails():
    mod = _toy_module(">>> import warnings\n>>> from genesel import DegenerateModelWarning\n"
                      ">>> warnings.warn('one class predicted', DegenerateModelWarning)\n")
    attempted, failed, report = run_doctests(mod)
    assert failed == 1 and "DegenerateModelWarning: one class predicted" in report


def test_a_missing_section_is_caught():
    class Bare(BaseEstimator):
        """An estimator without examples."""

    class Elsewhere(BaseEstimator):
        """Uses another class.

        Examples
        --------
        >>> from genesel import LinearSVM
        """

    class Good(BaseEstimator):
        """Fine.

        Examples
        --------
        >>> Good()
        Good()
        """

    assert "no 'Examples' section" in missing_examples(Bare, "Bare")
    assert "no example of the Examples section uses Elsewhere" in missing_examples(Elsewhere, "Elsewhere")
    assert missing_examples(Good, "Good") is None
