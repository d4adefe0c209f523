"""Issue 40, an API reference of every public name: every public estimator of ``genesel.__all__`` documents its
constructor arguments in a numpydoc ``Parameters`` section and its fitted attributes in an ``Attributes`` section,
as numpydoc itself parses them (``numpydoc.docscrape.ClassDoc``, the parser of the Sphinx extension that builds the
API pages), so the reference shows them as parameter lists and not as loose prose."""

from __future__ import annotations

import inspect

import numpydoc.docscrape as docscrape
import pytest
from sklearn.base import BaseEstimator

import genesel

ESTIMATORS = sorted(name for name in genesel.__all__
                    if inspect.isclass(getattr(genesel, name)) and issubclass(getattr(genesel, name), BaseEstimator))


def _class_doc(name):
    return docscrape.ClassDoc(getattr(genesel, name), config={"show_class_members": False})


def _documented(section) -> set[str]:
    """The names a numpydoc section documents (``gamma, degree, coef0 : ...`` documents three)."""
    return {part.strip().strip("*") for entry in section for part in entry.name.split(",") if part.strip()}


def test_the_public_estimators_are_found():
    # scikit-learn's own parameter introspection must see them; a change to __all__ that hid them would pass below
    assert len(ESTIMATORS) >= 30
    assert {"LinearSVM", "SampleStandardizer", "ALMAFS", "KruskalWallisSelector"} <= set(ESTIMATORS)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_every_init_parameter_is_in_the_parameters_section(name):
    params = getattr(genesel, name)._get_param_names()
    doc = _class_doc(name)
    if not params:  # a transformer without parameters: no section, or one that says None
        assert _documented(doc["Parameters"]) <= {"None."}, name
        return
    assert doc["Parameters"], f"{name}: no numpydoc Parameters section"
    documented = _documented(doc["Parameters"])
    missing = [p for p in params if p not in documented]
    assert not missing, f"{name}: __init__ parameters not in its Parameters section: {missing}"
    # prose that runs on after the last parameter is parsed as more parameters; only real ones may be listed
    extra = sorted(documented - set(params))
    assert not extra, f"{name}: Parameters section lists names that are not __init__ parameters: {extra}"
    for entry in doc["Parameters"]:
        assert entry.type.strip(), f"{name}: parameter {entry.name!r} has no type"


@pytest.mark.parametrize("name", ESTIMATORS)
def test_every_estimator_has_an_attributes_section(name):
    doc = _class_doc(name)
    assert doc["Attributes"], f"{name}: no numpydoc Attributes section"
    assert any(n.endswith("_") for n in _documented(doc["Attributes"])), f"{name}: Attributes names no fitted attribute"
