"""The one table of per-estimator test settings: for every public estimator of genesel (and the public factory
:func:`genesel.make_corr_pipeline`), what the tests that run all of them need to know.

Every test that runs every public estimator reads this table: scikit-learn's estimator checks
(``parametrize_with_checks`` in ``tests/test_estimator_api.py``, once per estimator at its defaults), the rules of
constant genes (``tests/test_constant_genes.py``), the property tests at every scale (``tests/test_properties.py``),
the registrations (``tests/test_registrations.py``: a public estimator without an entry fails there, naming this
file). A new estimator is one entry here; its own ``tests/test_<module>.py`` holds the tests against independent
references.

Fields of :class:`Settings`:

``small``
    Constructor arguments that keep a fit on a few dozen samples x a few dozen genes fast (fewer folds, restarts,
    trees; a seed for anything stochastic). Only what costs time: a test adds the settings it is about
    (``n_features_to_select`` ...) itself.
``checks``
    Constructor arguments for scikit-learn's checks: empty, the defaults (issue 25: every default-constructed
    estimator meets the contract), for a factory the arguments that make its pipeline.
``expected_failed_checks``
    scikit-learn checks that cannot apply to the estimator at its defaults, each with its reason (issue 25: no
    default is excused otherwise).
``variants``
    Further configurations that take a code path the defaults do not (another kernel, approximation, model), each
    with that reason. scikit-learn's checks run them in the full suite only (``slow``): ``make test-fast`` checks
    estimators at their defaults only (a slice of the checks: ``tests/conftest.py``, ``FAST_SLICE``).
``properties``
    The configurations of the property tests (issue 25's scales and offsets): ``(label, arguments, kind, units)``;
    see ``tests/test_properties.py`` for ``kind`` ("free", "units", "origin", "offset") and ``units``.
``stateless``
    It looks at no gene one by one (a log, a per-sample scaling, an imputer): the per-gene rules of
    ``tests/test_constant_genes.py`` do not apply.
``costly``
    Why a fit at the defaults takes seconds, or empty. ``make test-fast`` (``tests/conftest.py``) then leaves every
    test that takes it as a parameter (scikit-learn's checks, the property tests, ...) to the full suite; its own
    module's unparametrised tests stay in the quick loop.
``min_per_class``
    The fewest samples per class a fit at ``small`` needs (its inner folds); ``tests/test_estimator_api.py`` fits
    every estimator on exactly that many.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator

import genesel


@dataclass(frozen=True)
class Settings:
    small: dict = field(default_factory=dict)
    checks: dict = field(default_factory=dict)
    expected_failed_checks: dict = field(default_factory=dict)
    variants: tuple = ()
    properties: tuple = ()
    stateless: bool = False
    min_per_class: int = 2
    costly: str = ""
    #: the public name builds the estimator from keyword arguments (a class, or a factory like make_corr_pipeline)
    factory: str = ""


_CONSTANT_SAMPLE = ("a sample constant across all genes cannot be scaled; SampleStandardizer refuses it rather than "
                    "invent values")
_NO_COUNTS = ("a sample without any count has no library size; CountNormalizer refuses it rather than invent values "
              "(scikit-learn's checks hold such samples)")
_PIPELINE_FITS_STEPS = "a Pipeline fits its step objects in place (standard scikit-learn behaviour)"

# ------------------------------------------------------------------------------------------------------------------
# the table, by module (the order of genesel/__init__.py's docstring map)
# ------------------------------------------------------------------------------------------------------------------
SETTINGS: dict[str, Settings] = {
    # svm.py (Guyon 2002)
    "LinearSVM": Settings(properties=(("LinearSVM hard margin", dict(C=np.inf), "free", None),
                                      ("LinearSVM C=1", {}, "units", ("C", 2)))),
    "KernelSVM": Settings(properties=(("KernelSVM rbf", {}, "free", None),
                                      ("KernelSVM linear C=1", dict(kernel="linear"), "units", ("C", 2)),
                                      ("KernelSVM poly", dict(kernel="poly"), "offset", None))),
    # rfe.py
    "SVMRFE": Settings(
        variants=((dict(step="halving", C=10.0), "halving steps and a wider box: another elimination schedule"),),
        properties=(("SVMRFE hard margin", dict(n_features_to_select=3, C=np.inf), "free", None),
                    ("SVMRFE C=1", dict(n_features_to_select=3), "units", ("C", 2)))),
    # voting.py
    "GolubVoting": Settings(
        variants=((dict(n_genes=None, balanced=False), "Golub's unbalanced |P| order over all genes"),),
        properties=(("GolubVoting", dict(n_genes=4), "free", None),)),
    # filters.py
    "SignalToNoiseSelector": Settings(
        properties=(("SignalToNoiseSelector", dict(n_features_to_select=3), "free", None),
                    ("SignalToNoiseSelector |P|", dict(n_features_to_select=3, balanced=False), "free", None))),
    "FisherSelector": Settings(properties=(("FisherSelector", dict(n_features_to_select=3), "free", None),)),
    "ANOVASelector": Settings(properties=(("ANOVASelector", dict(n_features_to_select=3), "free", None),)),
    "KruskalWallisSelector": Settings(
        properties=(("KruskalWallisSelector", dict(n_features_to_select=3), "free", None),)),
    # multiclass.py (one-vs-rest around any binary selector, issue 38)
    "OneVsRestSelector": Settings(
        variants=((dict(combine="mean_rank"), "the mean of the K one-vs-rest ranks instead of the best"),
                  (dict(estimator=genesel.ALMARFE(n_features_to_select=2, random_state=0), n_features_to_select=2),
                   "a wrapped selector with its own randomness, at a fixed size")),
        properties=(("OneVsRestSelector", dict(estimator=genesel.SignalToNoiseSelector(n_features_to_select=3)),
                     "free", None),)),
    # alma.py (Gentile 2003)
    "ALMA": Settings(
        small=dict(random_state=0),
        variants=((dict(p="ln", random_state=0), "p = ln(n genes): the p-norm update through T and T^-1"),),
        properties=(("ALMA_2", dict(random_state=0), "origin", None),
                    ("ALMA_ln", dict(p="ln", random_state=0), "origin", None))),
    "ALMAFS": Settings(small=dict(random_state=0),
                       properties=(("ALMAFS", dict(random_state=0), "origin", None),)),
    "ALMARFE": Settings(
        small=dict(random_state=0),
        properties=(("ALMARFE", dict(n_features_to_select=4, random_state=0), "origin", None),)),
    "make_corr_pipeline": Settings(
        factory="make_corr_pipeline", small=dict(random_state=0),
        checks=dict(n_features_to_select=2, random_state=0),
        expected_failed_checks={"check_estimators_overwrite_params": _PIPELINE_FITS_STEPS,
                                "check_dont_overwrite_parameters": _PIPELINE_FITS_STEPS},
        properties=(("ALMA-CORR", dict(n_features_to_select=4, random_state=0), "origin", None),)),
    # arom.py (Helleputte 2009)
    "L2AROM": Settings(
        variants=((dict(n_features_to_select=2, C=10.0), "a soft margin stopped at a fixed size"),),
        properties=(("L2AROM hard margin", dict(n_features_to_select=3, C=np.inf), "free", None),
                    ("L2AROM C=1e3", dict(n_features_to_select=3), "units", ("C", 2)))),
    # stumps.py (Shah 2012)
    "SampleCompressionStumps": Settings(
        properties=(("SampleCompressionStumps", dict(max_stumps=3), "free", None),)),
    "OccamStumps": Settings(properties=(("OccamStumps", dict(max_stumps=3), "free", None),)),
    "PACBayesStumps": Settings(
        variants=((dict(margin="fixed", model="disjunction", p=5.0), "a disjunction with a fixed margin"),),
        properties=(("PACBayesStumps", dict(max_stumps=3), "free", None),
                    ("PACBayesStumps disjunction", dict(max_stumps=3, model="disjunction"), "free", None))),
    "AdaBoostStumps": Settings(small=dict(n_estimators=10),
                               variants=((dict(n_estimators=10, multi_class="samme"),
                                          "SAMME: one joint boosting over K classes instead of one against the rest"),),
                               properties=(("AdaBoostStumps", dict(n_estimators=10), "free", None),)),
    # gp.py rvm.py smlr.py dwd.py (Tan 2006, chapter 3)
    "GaussianProcessClassifier": Settings(
        costly="an ARD evidence maximisation with restarts, a Laplace mode search at every step",
        small=dict(n_restarts=0, max_iter=30, random_state=0),
        variants=((dict(approximation="ep", ard=False, n_restarts=0, max_iter=5),
                   "expectation propagation with one length scale"),),
        properties=(("GP Laplace", dict(n_restarts=0, max_iter=40, random_state=0), "free", None),
                    ("GP EP", dict(approximation="ep", n_restarts=0, max_iter=40, random_state=0), "free", None))),
    "RVM": Settings(
        variants=((dict(kernel=None), "the genes as basis functions (no kernel)"),
                  (dict(kernel="rbf", gamma=0.5), "an RBF kernel")),
        properties=(("RVM linear", {}, "free", None), ("RVM rbf", dict(kernel="rbf"), "free", None))),
    "SMLR": Settings(properties=(("SMLR lam_scale=max", dict(lam=0.1, lam_scale="max"), "free", None),
                                 ("SMLR lam=1", {}, "units", ("lam", -1)))),
    "DWD": Settings(variants=((dict(C=1.0, kernel="rbf"), "an RBF kernel with a fixed C"),),
                    properties=(("DWD", {}, "free", None),)),
    # msvm_rfe.py gp_ard_select.py sparse_select.py (Tan 2006, chapters 4-5)
    "MSVMRFE": Settings(
        small=dict(n_folds=3, random_state=0), min_per_class=3,
        properties=(("MSVMRFE C=1", dict(n_folds=3, n_features_to_select=3, random_state=0), "units", ("C", 2)),)),
    # the GP-ARD selectors are scale-free, but their forward selection is a linear SVM with C in the units of X
    "GPARDRFE": Settings(
        costly="k-fold GP-ARD fits in every elimination round",
        small=dict(n_folds=3, p=2, n_restarts=0, max_iter=20, random_state=0), min_per_class=3,
        properties=(("GPARDRFE", dict(n_folds=3, p=1, n_restarts=0, max_iter=30, random_state=0), "units",
                     ("C", 2)),)),
    "GPARDFS": Settings(
        costly="k-fold GP-ARD fits and a forward selection",
        small=dict(n_folds=3, n_restarts=0, max_iter=20, random_state=0), min_per_class=3,
        properties=(("GPARDFS", dict(alpha=0.5, n_folds=3, n_restarts=0, max_iter=30, random_state=0), "units",
                     ("C", 2)),)),
    "RVMSelector": Settings(properties=(("RVMSelector", {}, "free", None),)),
    "SMLRSelector": Settings(properties=(("SMLRSelector", {}, "free", None),)),
    # forest.py (Diaz-Uriarte 2006)
    "SmallForestClassifier": Settings(
        small=dict(n_estimators=60, random_state=0),
        properties=(("SmallForestClassifier", dict(n_estimators=60, random_state=0), "free", None),)),
    "RFBackwardSelector": Settings(
        small=dict(n_estimators=60, n_estimators_iter=60, random_state=0),
        variants=((dict(importance="gini"), "Gini importance (genesel 0.1's ranking)"),),
        properties=(("RFBackwardSelector", dict(n_estimators=60, n_estimators_iter=60, random_state=0), "free",
                     None),)),
    # centroids.py (PAM's nearest shrunken centroids, Tibshirani et al. 2002; Diaz-Uriarte 2006's SC.l / SC.s)
    "ShrunkenCentroids": Settings(variants=((dict(threshold=0.5, threshold_scale="max"), "shrinkage: genes drop out"),
                                            (dict(priors="uniform"), "equal priors: no log-prior term")),
                                  properties=(("ShrunkenCentroids", {}, "free", None),
                                              ("ShrunkenCentroids shrunk", dict(threshold=0.3, threshold_scale="max"),
                                               "free", None))),
    # discriminant.py (Dudoit, Fridlyand & Speed 2002; Diaz-Uriarte 2006's DLDA)
    "DLDA": Settings(variants=((dict(priors="empirical"), "the sample Bayes rule: log priors from the class shares"),),
                     properties=(("DLDA", {}, "free", None),
                                 ("DLDA empirical priors", dict(priors="empirical"), "free", None))),
    # preprocessing.py
    "LogTransform": Settings(stateless=True),
    "GeneStandardizer": Settings(),
    "SampleStandardizer": Settings(stateless=True,
                                   expected_failed_checks={"check_estimators_dtypes": _CONSTANT_SAMPLE}),
    "MissingValueImputer": Settings(
        stateless=True, variants=((dict(strategy="mean"), "the gene means instead of the nearest samples"),)),
    "CountNormalizer": Settings(
        stateless=True,  # one library-size factor per sample: no gene is looked at one by one
        expected_failed_checks={"check_estimators_dtypes": _NO_COUNTS, "check_fit2d_1feature": _NO_COUNTS},
        variants=((dict(method="cpm"), "counts per million without TMM factors"),)),
}


def public_estimators() -> dict:
    """Every public estimator of genesel: name -> class (``genesel.__all__``'s scikit-learn estimators)."""
    return {n: getattr(genesel, n) for n in genesel.__all__
            if inspect.isclass(getattr(genesel, n)) and issubclass(getattr(genesel, n), BaseEstimator)}


def public_factories() -> dict:
    """The public functions of genesel that build an estimator: name -> function."""
    return {n: getattr(genesel, n) for n, s in SETTINGS.items() if s.factory}


#: every name of the table, sorted: the classes and the factories
NAMES = sorted(SETTINGS)
#: the classes only (what ``genesel.__all__`` exports as estimators)
CLASSES = sorted(n for n, s in SETTINGS.items() if not s.factory)


def build(name: str, *, small: bool = False, **params):
    """The estimator ``name`` at its defaults (or its ``small`` settings), with ``params`` on top."""
    s = SETTINGS[name]
    return getattr(genesel, s.factory or name)(**{**(s.small if small else {}), **params})


def expected_failed_checks(estimator) -> dict:
    """scikit-learn's ``expected_failed_checks`` callback: the table's reasons for this estimator's type."""
    from sklearn.pipeline import Pipeline

    if isinstance(estimator, Pipeline):  # the factories build pipelines
        return next((s.expected_failed_checks for s in SETTINGS.values() if s.factory), {})
    return SETTINGS[type(estimator).__name__].expected_failed_checks


def check_instances() -> list:
    """One instance per table entry for scikit-learn's checks (its ``checks`` arguments: the defaults for a class)."""
    return [build(n, **SETTINGS[n].checks) for n in NAMES]


def variant_instances() -> list:
    """The table's variants (configurations on paths the defaults do not take)."""
    return [build(n, **kw) for n in NAMES for kw, _ in SETTINGS[n].variants]


def costly_reason(value) -> str:
    """``costly`` of ``value`` when it names an estimator of the table (an instance, a Pipeline whose steps hold one,
    the class, or its name as a test parameter), else ''."""
    from sklearn.pipeline import Pipeline

    if isinstance(value, Pipeline):
        return next((r for _, step in value.steps if (r := costly_reason(step))), "")
    if isinstance(value, BaseEstimator):
        name = type(value).__name__
    elif isinstance(value, type) and issubclass(value, BaseEstimator):
        name = value.__name__
    elif isinstance(value, str):
        name = value
    else:
        return ""
    entry = SETTINGS.get(name)
    return entry.costly if entry else ""
