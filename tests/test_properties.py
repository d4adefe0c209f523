"""Property-based tests (hypothesis) over every public estimator of genesel except the RVM (tested the same way in
tests/test_rvm.py): random shapes, scales from 1e-8 to 1e8, offsets, duplicated and constant genes, label
encodings. Each fit either raises a ValueError that names the problem, or (for hyper-parameters in the units of X,
such as a fixed C or lam) warns that the model is degenerate naming cause and remedy, or returns a model whose
predictions on well-separated data beat the majority class. Never a silent wrong answer, never a RuntimeWarning
(an overflow or underflow that nobody reported).

Kept inside CI's budget: few examples per estimator, fixed seeds (``derandomize``), small data; set
``GENESEL_PROPERTY_EXAMPLES=300`` for a deeper random search.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.neighbors import NearestCentroid
from sklearn.pipeline import make_pipeline

import genesel
from genesel import (ALMA, ALMAFS, ALMARFE, DWD, SMLR, SVMRFE, FisherSelector, GaussianProcessClassifier, L2AROM,
                     GeneStandardizer, GolubVoting, KernelSVM, LinearSVM, LogTransform, MissingValueImputer,
                     SampleStandardizer, SignalToNoiseSelector, make_corr_pipeline)
from genesel import GPARDFS, GPARDRFE, MSVMRFE, RVMSelector, SMLRSelector
from genesel._core.validation import DegenerateModelWarning

# CI: 12 fixed examples per estimator. A deeper, random search: GENESEL_PROPERTY_EXAMPLES=300 pytest ...
_DEEP = int(os.environ.get("GENESEL_PROPERTY_EXAMPLES", "0"))
SETTINGS = settings(max_examples=_DEEP or 12, deadline=None, derandomize=not _DEEP, print_blob=True,
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ------------------------------------------------------------------------------------------------- the data


@st.composite
def problems(draw):
    """A well-separated two-class problem (train and test) in random units, with its quirks."""
    n_neg, n_pos = draw(st.integers(4, 12)), draw(st.integers(4, 12))
    d = draw(st.integers(2, 24))
    n_inf = draw(st.integers(1, min(3, d)))
    log_scale = draw(st.floats(-8.0, 8.0))
    offset = draw(st.sampled_from([0.0, 1.0, 30.0, 1000.0]))  # in units of the within-class spread
    constant = d - n_inf >= 1 and draw(st.booleans())
    duplicate = d - n_inf >= 2 and draw(st.booleans())
    encoding = draw(st.sampled_from(["01", "pm1", "12", "words", "words-reversed"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    genes = rng.permutation(d)
    informative, rest = genes[:n_inf], genes[n_inf:]
    signs = rng.choice([-1, 1], n_inf)

    def sample(nn, np_):
        y = np.r_[np.zeros(nn, int), np.ones(np_, int)]
        X = rng.normal(size=(nn + np_, d))
        X[:, informative] += 3.0 * (2 * y[:, None] - 1) * signs[None, :]
        return X, y

    X, y = sample(n_neg, n_pos)
    Xt, yt = sample(10, 10)
    shift = offset * rng.uniform(0.5, 1.5, d)
    scale = 10.0**log_scale
    X, Xt = (X + shift) * scale, (Xt + shift) * scale
    quirks = []
    if constant:
        X[:, rest[0]] = Xt[:, rest[0]] = (shift[rest[0]] + 2.0) * scale
        quirks.append(f"gene {rest[0]} constant")
    if duplicate:
        j = rest[-1]
        X[:, j], Xt[:, j] = X[:, informative[0]], Xt[:, informative[0]]
        quirks.append(f"gene {j} duplicates gene {informative[0]}")
    names = {"01": (0, 1), "pm1": (-1, 1), "12": (1, 2), "words": ("ALL", "AML"), "words-reversed": ("tumour", "normal")}
    lab = np.array(names[encoding], dtype=object if encoding.startswith("words") else int)
    desc = (f"n={n_neg}+{n_pos} d={d} informative={informative.tolist()} scale=1e{log_scale:.1f} offset={offset} "
            f"labels={encoding} {' '.join(quirks)}")
    return X, lab[y].astype(lab.dtype), Xt, lab[yt].astype(lab.dtype), desc


# ------------------------------------------------------------------------------------------------- the estimators

# (name, estimator, kind): "free" = scale-free configuration: the fit must succeed (or refuse constant genes,
# where documented); ("units", strong) = a hyper-parameter in the units of X (C, lam): it may also say the model is
# degenerate (ValueError naming C, or DegenerateModelWarning naming C or lam), and must beat the majority class
# only where strong(X, y) says the hyper-parameter is not a heavy regularisation for these data; "origin" = ALMA's
# hyperplane through the origin: may warn naming that when the genes are uncentred.
DEGENERATE_OK = {"units": r"raise C|larger C|smaller lam", "origin": r"through the origin"}
REFUSES_CONSTANT = re.compile(r"constant gene")
NEGLIGIBLE = re.compile(r"negligible at the scale of X|do not vary across the training samples")

def _C_is_ample(C):
    """An SVM's C in the units of X is ample when C * max |x|^2 >= 10; below, the soft margin may legitimately
    tend to the majority rule (C -> 0), so only a named error or warning, or any honest model, is required."""
    def check(X, y):
        return C * float(np.max(np.einsum("ij,ij->i", X, X))) >= 10.0
    return check


def _lam_is_small(lam):
    """SMLR's lam in the units of X is small when at most half of lambda_max (above it every weight is zero)."""
    def check(X, y):
        Xc = X - X.mean(0)
        t = (y == np.unique(y)[1]).astype(float)
        return lam <= 0.5 * float(np.max(np.abs(Xc.T @ (t - t.mean()))))
    return check


CLASSIFIERS = [
    ("LinearSVM hard margin", LinearSVM(C=np.inf), "free"),
    ("LinearSVM C=1", LinearSVM(), ("units", _C_is_ample(1.0))),
    ("KernelSVM rbf", KernelSVM(), "free"),
    ("KernelSVM linear C=1", KernelSVM(kernel="linear"), ("units", _C_is_ample(1.0))),
    ("GolubVoting", GolubVoting(n_genes=4), "free"),
    ("DWD", DWD(), "free"),
    ("GP Laplace", GaussianProcessClassifier(n_restarts=0, max_iter=40, random_state=0), "free"),
    ("GP EP", GaussianProcessClassifier(approximation="ep", n_restarts=0, max_iter=40, random_state=0), "free"),
    ("SMLR lam_scale=max", SMLR(lam=0.1, lam_scale="max"), "free"),
    ("SMLR lam=1", SMLR(), ("units", _lam_is_small(1.0))),
    ("ALMA_2", ALMA(random_state=0), "origin"),
    ("ALMA_ln", ALMA(p="ln", random_state=0), "origin"),
    ("ALMAFS", ALMAFS(random_state=0), "origin"),
    ("ALMARFE", ALMARFE(n_features_to_select=4, random_state=0), "origin"),
    ("ALMA-CORR", make_corr_pipeline(n_features_to_select=4, random_state=0), "origin"),
]
SELECTORS = [
    ("SignalToNoiseSelector", SignalToNoiseSelector(n_features_to_select=3), "free"),
    ("SignalToNoiseSelector |P|", SignalToNoiseSelector(n_features_to_select=3, balanced=False), "free"),
    ("FisherSelector", FisherSelector(n_features_to_select=3), "free"),
    ("SVMRFE hard margin", SVMRFE(n_features_to_select=3, C=np.inf), "free"),
    ("SVMRFE C=1", SVMRFE(n_features_to_select=3), ("units", _C_is_ample(1.0))),
    ("L2AROM hard margin", L2AROM(n_features_to_select=3, C=np.inf), "free"),
    ("L2AROM C=1e3", L2AROM(n_features_to_select=3), ("units", _C_is_ample(1e3))),
    ("MSVMRFE C=1", MSVMRFE(n_folds=3, n_features_to_select=3), ("units", _C_is_ample(1.0))),
    ("GPARDRFE", GPARDRFE(n_folds=3, p=1, n_restarts=0, max_iter=30, random_state=0), "free"),
    ("GPARDFS", GPARDFS(alpha=0.5, n_folds=3, n_restarts=0, max_iter=30, random_state=0), "free"),
    ("RVMSelector", RVMSelector(), "free"),
    ("SMLRSelector", SMLRSelector(), "free"),
]


def _fit_and_judge(name, est, kind, X, y, Xt, yt, desc):
    """Fit; return None when the outcome is acceptable, else a description of what went wrong."""
    must_work = True
    if isinstance(kind, tuple):  # ("units", is the hyper-parameter strong enough for these data to demand a model)
        kind, strong = kind
        must_work = strong(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = clone(est).fit(X, y)
        except ValueError as exc:
            msg = str(exc)
            if REFUSES_CONSTANT.search(msg) and "constant" in desc:
                return None
            if kind == "units" and NEGLIGIBLE.search(msg) and "raise C or standardise" in msg:
                return None
            return f"{name} raised an unexpected ValueError on {desc}: {msg}"
        pred = model.predict(Xt)
    runtime = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    if runtime:
        return f"{name} emitted RuntimeWarning(s) {runtime[:2]} on {desc}"
    degenerate = [str(w.message) for w in caught if issubclass(w.category, DegenerateModelWarning)]
    if degenerate:
        if kind in DEGENERATE_OK and re.search(DEGENERATE_OK[kind], degenerate[0]):
            if kind == "units" or "offset=0.0" not in desc:
                return None
        return f"{name} warned it is degenerate on well-separated data ({desc}): {degenerate[0]}"
    assert set(np.unique(pred)) <= set(np.unique(y)), f"{name} predicts labels outside the training labels"
    acc = float(np.mean(pred == yt))
    majority = max(np.mean(yt == c) for c in np.unique(yt))
    if not acc > majority and must_work:
        return f"{name} accuracy {acc:.2f} does not beat the majority class ({majority:.2f}) on {desc}"
    return None


@pytest.mark.parametrize("name,est,kind", CLASSIFIERS, ids=[c[0] for c in CLASSIFIERS])
@SETTINGS
@given(problem=problems())
def test_classifier_beats_the_majority_or_says_why(name, est, kind, problem):
    X, y, Xt, yt, desc = problem
    problem_text = _fit_and_judge(name, est, kind, X, y, Xt, yt, desc)
    assert problem_text is None, problem_text


@pytest.mark.parametrize("name,est,kind", SELECTORS, ids=[c[0] for c in SELECTORS])
@SETTINGS
@given(problem=problems())
def test_selector_keeps_what_separates_or_says_why(name, est, kind, problem):
    """A selector followed by a nearest-centroid rule (scale-free, sklearn's) must beat the majority class."""
    X, y, Xt, yt, desc = problem
    pipe = make_pipeline(clone(est), NearestCentroid())
    problem_text = _fit_and_judge(name, pipe, kind, X, y, Xt, yt, desc)
    assert problem_text is None, problem_text


@SETTINGS
@given(problem=problems())
def test_standardisers_do_not_depend_on_the_units(problem):
    """GeneStandardizer / SampleStandardizer give the same z-scores whatever the units of X (or refuse constant
    genes / samples by name); LogTransform and MissingValueImputer give finite output of the right shape."""
    X, y, Xt, yt, desc = problem
    unit = 10.0 ** -np.floor(np.log10(np.abs(X).max()))  # back to values of order 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for est in (GeneStandardizer(), GeneStandardizer(on_constant="zero"), SampleStandardizer()):
            try:
                Z = clone(est).fit(X).transform(Xt)
            except ValueError as exc:
                assert re.search(r"constant", str(exc)) and "constant" in desc, f"{est}: {exc} on {desc}"
                continue
            Z1 = clone(est).fit(X * unit).transform(Xt * unit)
            np.testing.assert_allclose(Z, Z1, rtol=1e-9, atol=1e-9, err_msg=f"{est} on {desc}")
            assert np.all(np.isfinite(Z))
        out = LogTransform(floor=1e-300).fit_transform(np.abs(X))
        assert out.shape == X.shape and np.all(np.isfinite(out))
        Xn = X.copy()
        Xn[0, -1] = np.nan
        for strategy in ("mean", "median", "knn"):
            filled = MissingValueImputer(strategy=strategy, n_neighbors=3).fit(Xn).transform(Xn)
            assert np.all(np.isfinite(filled)) and filled.shape == X.shape, f"{strategy} on {desc}"


# ------------------------------------------------------------------------------------------------- the contract


def _public_estimators():
    names = [n for n in genesel.__all__ if n not in ("__version__", "RVM", "ForwardPath", "forward_path")]
    return [getattr(genesel, n) for n in names]


def test_every_public_estimator_is_covered():
    """A new estimator re-exported by genesel must join the property tests above."""
    covered = {type(e) for _, e, _ in CLASSIFIERS + SELECTORS}
    covered |= {GeneStandardizer, SampleStandardizer, LogTransform, MissingValueImputer}
    public = {obj for obj in _public_estimators() if isinstance(obj, type) and not issubclass(obj, Warning)}
    assert public <= covered, f"not covered: {sorted(c.__name__ for c in public - covered)}"
    assert make_corr_pipeline in _public_estimators()


def test_every_selector_selects_all_genes_when_asked_for_more():
    """genesel's one rule: asking for more genes than there are selects all of them."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 6))
    y = np.repeat([0, 1], 10)
    X[:, 0] += 2 * y
    for est in (SignalToNoiseSelector(n_features_to_select=10), FisherSelector(n_features_to_select=10),
                SVMRFE(n_features_to_select=10), ALMARFE(n_features_to_select=10, random_state=0),
                L2AROM(n_features_to_select=10)):
        assert est.fit(X, y).get_support().all(), type(est).__name__
    assert GolubVoting(n_genes=10).fit(X, y).genes_.size == 6
