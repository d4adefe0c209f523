"""Property-based tests (hypothesis) over every public estimator of genesel (issue 25: reliability at every scale and
shape): random shapes, scales from 1e-300 to 1e300, offsets up to 1e12 times the within-class spread, constant and
near-constant data, duplicated and constant genes, label encodings.

The rule (README, "Every estimator computes in data-relative units"): at every scale and offset an estimator gives
the model it gives at scale 1 (same predictions, same selected genes), or a ValueError naming the problem, or a
``DegenerateModelWarning`` naming the real cause and the remedy. Never a silent wrong answer, never a model that
quietly predicts one class, never a RuntimeWarning (an overflow or underflow nobody reported).

Two tests per estimator:

- ``test_extreme_cases``: the issue's problem P (40 samples, 30 genes, genes 0-2 shifted by 3 sd in class 1) at
  1e-300, 1e-200, 1e200, 1e300, at offsets of 1e4, 1e8 and 1e12 sd, at 1e-200 with an offset of 1e12 sd, on constant
  and on near-constant data (rounding noise only). Against the fit at scale 1: the same predictions on 40 test
  samples and, for a selector, the same genes. Where a hyper-parameter is in the units of X (an SVM's C, SMLR's lam)
  the reference is the fit at scale 1 with the hyper-parameter converted (C * s^2, lam / s: the same problem), and
  where the conversion under- or overflows, a named error or warning is the honest answer.
- ``test_classifier_...`` / ``test_selector_...``: random problems (hypothesis); the fit beats the majority class or
  says why. The explicit ``@example``s pin the extremes (1e-300, 1e-200, 1e200, 1e300; offsets 1e4, 1e8, 1e12 sd;
  constant and near-constant data) so CI always runs them.

Kept inside CI's budget: few random examples per estimator, fixed seeds (``derandomize``), small data; set
``GENESEL_PROPERTY_EXAMPLES=300`` for a deeper random search.
"""

from __future__ import annotations

import os
import re
import warnings
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sklearn.base import clone, is_classifier
from sklearn.neighbors import NearestCentroid
from sklearn.pipeline import Pipeline, make_pipeline

import estimators as E
import genesel
from genesel import (ALMARFE, SVMRFE, CountNormalizer, FisherSelector, GeneStandardizer, GolubVoting, L2AROM,
                     LogTransform, MissingValueImputer, SampleStandardizer, SignalToNoiseSelector)
from genesel._core.validation import DegenerateModelWarning
from problems import problem_p

# CI: 6 fixed random examples per estimator plus the explicit ones. A deeper, random search:
# GENESEL_PROPERTY_EXAMPLES=300 pytest ...
_DEEP = int(os.environ.get("GENESEL_PROPERTY_EXAMPLES", "0"))
SETTINGS = settings(max_examples=_DEEP or 6, deadline=None, derandomize=not _DEEP, print_blob=True,
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ROBUST_B = pytest.mark.xfail(strict=True, reason="MSVMRFE at C=1 far from the origin or at 1e200 and more: not yet "
                                                  "the scale-1 model (issue 25, left open)")

# ------------------------------------------------------------------------------------------------- the estimators

# (name, estimator, kind, units). kind: "free" = scale-free configuration: the same model at every scale and offset;
# "units" = a hyper-parameter in the units of X (C, lam): units = (parameter, power) says how it converts (the
# problem on s * X with value v is the problem on X with value v * s**power), and where the converted value is not
# a positive finite number a named error or warning (DEGENERATE_OK) is the answer; "origin" = ALMA's hyperplane
# through the origin: not translation-invariant, so at an offset it may warn naming that; "offset" = a kernel that
# is not translation-invariant (polynomial): at an offset it may warn naming the offset.
DEGENERATE_OK = {"units": r"raise C|larger C|smaller lam|C=.* is negligible|lam=.* is negligible",
                 "origin": r"through the origin", "offset": r"from the origin|offset"}
REFUSES_CONSTANT = re.compile(r"constant")
NEGLIGIBLE = re.compile(r"negligible at the scale of X|do not vary across the training samples")

# The configurations are tests/estimators.py's ``properties`` (the one table of per-estimator test settings).


def _configs(selectors: bool) -> list:
    out = []
    for name in E.NAMES:
        for label, kw, kind, units in E.SETTINGS[name].properties:
            est = E.build(name, **kw)
            if is_classifier(est) != selectors:
                out.append((label, est, kind, units))
    return out


CLASSIFIERS = _configs(selectors=False)
SELECTORS = _configs(selectors=True)
#: the estimators another developer (branch robust-b) is making reliable at extreme scales
_ON_ROBUST_B = ()


def _params(entries, xfail_ids=()):
    return [pytest.param(*e, id=e[0], marks=ROBUST_B if e[0] in xfail_ids else ()) for e in entries]


# ------------------------------------------------------------------------------------------------- judging a fit


class Outcome(NamedTuple):
    """What a fit did: ``error`` (the ValueError's message), ``degenerate`` / ``runtime`` (warning messages),
    ``model`` (the fitted estimator or pipeline) and its predictions on the training and test samples."""
    error: str | None
    degenerate: list
    runtime: list
    other: list
    model: object
    pred_train: np.ndarray | None
    pred_test: np.ndarray | None


def _fit(est, X, y, Xt):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = clone(est).fit(X, y)
        except ValueError as exc:
            model, err = None, str(exc)
        else:
            err = None
        pred_train = model.predict(X) if model is not None else None
        pred_test = model.predict(Xt) if model is not None else None
    runtime = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    degenerate = [str(w.message) for w in caught if issubclass(w.category, DegenerateModelWarning)]
    other = [f"{w.category.__name__}: {w.message}" for w in caught
             if not issubclass(w.category, (RuntimeWarning, DegenerateModelWarning))]
    return Outcome(err, degenerate, runtime, other, model, pred_train, pred_test)


def _selector_step(model):
    return model.steps[0][1] if isinstance(model, Pipeline) and hasattr(model.steps[0][1], "get_support") else None


def _with_classifier(selector):
    """A selector followed by a scale-free classifier: genesel's z-scores (exact at any scale and offset, tested
    below) and scikit-learn's nearest centroid (which alone squares raw distances: 1e-300 underflows)."""
    return make_pipeline(clone(selector), GeneStandardizer(on_constant="zero"), NearestCentroid())


def _named(name, out, kind, desc, allow):
    """None when the fit raised or warned with an acceptable, named message (``allow``: regex), else a complaint."""
    if out.error is not None:
        if allow and re.search(allow, out.error):
            return None
        return f"{name} raised an unexpected ValueError on {desc}: {out.error}"
    if out.degenerate:
        if allow and re.search(allow, out.degenerate[0]):
            return None
        return f"{name} warned it is degenerate on {desc}: {out.degenerate[0]}"
    return "no message"


def _silent_one_class(name, out, y, desc):
    """A classifier that predicts one class for every training sample must have said so."""
    if out.pred_train is not None and np.unique(out.pred_train).size < 2 <= np.unique(y).size and not out.degenerate:
        return f"{name} predicts {out.pred_train[0]!r} for every training sample on {desc} without a warning"
    return None


# ------------------------------------------------------------------------------------------------- the extreme cases


#: case -> (scale, offset in units of the within-class sd, shape)
EXTREME = {
    "x1e-300": (1e-300, 0.0, "signal"), "x1e-200": (1e-200, 0.0, "signal"), "x1e200": (1e200, 0.0, "signal"),
    "x1e300": (1e300, 0.0, "signal"), "+1e4sd": (1.0, 1e4, "signal"), "+1e8sd": (1.0, 1e8, "signal"),
    "+1e12sd": (1.0, 1e12, "signal"), "x1e-200+1e12sd": (1e-200, 1e12, "signal"),
    "constant": (1.0, 0.0, "constant"), "near-constant": (1.0, 0.0, "near-constant"),
}


def _transform(X, Xt, scale, offset, shape, rng):
    d = X.shape[1]
    shift = offset * (1.0 + np.arange(d) / d)  # a different offset per gene, 1 to 2 times ``offset`` sd
    if shape == "constant":
        base = (np.arange(d) + 2.0) * scale
        return np.tile(base, (X.shape[0], 1)), np.tile(base, (Xt.shape[0], 1))
    if shape == "near-constant":  # every gene constant up to a few units in the last place: rounding noise, no signal
        base = (np.arange(d) + 2.0) * scale

        def noisy(n):
            return base * (1.0 + np.finfo(float).eps * rng.integers(-2, 3, size=(n, d)))
        return noisy(X.shape[0]), noisy(Xt.shape[0])
    return (X + shift) * scale, (Xt + shift) * scale


def _units_reference(est, units, scale):
    """The estimator whose fit on X is the problem ``est`` solves on scale * X (None when it is not representable)."""
    if units is None:
        return est
    param, power = units
    key = param if param in est.get_params() else f"{est.steps[0][0]}__{param}"
    with np.errstate(over="ignore", under="ignore"):
        v = float(np.float64(est.get_params()[key]) * np.float64(scale) ** power)
    if not 0 < v < np.inf:
        if param == "C" and v == np.inf:
            return clone(est).set_params(**{key: np.inf})  # C beyond any bound: the hard margin
        return None
    return clone(est).set_params(**{key: v})


_REFERENCES: dict = {}


def _reference(name, est, X, y, Xt):
    """The fit at scale 1 (cached per estimator configuration)."""
    key = (name, repr(est.get_params(deep=False)))
    if key not in _REFERENCES:
        _REFERENCES[key] = _fit(est, X, y, Xt)
    return _REFERENCES[key]


def _judge_extreme(name, est, kind, units, case, selector):
    scale, offset, shape = EXTREME[case]
    X0, y, Xt0 = problem_p(test=True)
    yt = y.copy()
    X, Xt = _transform(X0, Xt0, scale, offset, shape, np.random.default_rng(7))
    if selector:
        est = _with_classifier(est)
    out = _fit(est, X, y, Xt)
    desc = f"P {case}"
    if out.runtime:
        return f"{name} emitted RuntimeWarning(s) {out.runtime[:2]} on {desc}"
    one_class = None if selector else _silent_one_class(name, out, y, desc)
    if shape == "constant":  # nothing to learn: refuse by name or warn
        verdict = _named(name, out, kind, desc, r"constant|do not vary")
        return None if verdict is None else (f"{name} fitted constant data silently" if verdict == "no message"
                                             else verdict)
    if shape == "near-constant":  # rounding noise: a named refusal, a warning, or any model that says so if one-class
        if out.error is not None or out.degenerate:
            return None
        return one_class
    allow = DEGENERATE_OK.get(kind)
    if kind in ("origin", "offset") and offset == 0:
        allow = None
    ref_est = _units_reference(est, units, scale)
    if ref_est is None:  # the hyper-parameter has no counterpart at scale 1: named message or an honest model
        verdict = _named(name, out, kind, desc, allow)
        return None if verdict in (None, "no message") else verdict
    ref = _reference(name + repr(ref_est.get_params(deep=False)), ref_est, X0, y, Xt0)
    assert ref.error is None and ref.pred_test is not None, f"{name} fails on P itself: {ref.error}"
    verdict = _named(name, out, kind, desc, allow)
    if verdict is None:
        return None
    if verdict != "no message":
        return verdict
    if one_class:
        return one_class
    if not np.array_equal(out.pred_test, ref.pred_test):
        diff = int(np.sum(out.pred_test != ref.pred_test))
        return f"{name} on {desc}: {diff} of {yt.size} test predictions differ from the model at scale 1"
    sel, sel_ref = _selector_step(out.model), _selector_step(ref.model)
    if sel is not None and not np.array_equal(sel.get_support(), sel_ref.get_support()):
        return (f"{name} on {desc} selects genes {np.flatnonzero(sel.get_support()).tolist()}, at scale 1 "
                f"{np.flatnonzero(sel_ref.get_support()).tolist()}")
    return None


#: (estimator, case) pairs still failing (strict xfail: remove a mark when its case passes). Empty: MSVMRFE's last
#: five (C=1 at 1e200, 1e300 and offsets of 1e4-1e12 sd) were the test's own unseeded folds (two fits at scale 1
#: differed as much); seeded, MSVMRFE ranks and selects as at scale 1 in all five (issue 25, robust-c)
_XFAIL_EXTREME: set = set()


def _extreme_params(entries, selector):
    out = []
    for name, est, kind, units in entries:
        for case in EXTREME:
            marks = ROBUST_B if (name, case) in _XFAIL_EXTREME else ()
            out.append(pytest.param(name, est, kind, units, case, selector, id=f"{name}-{case}", marks=marks))
    return out


@pytest.mark.fast_slice
@pytest.mark.parametrize("name,est,kind,units,case,selector",
                         _extreme_params(CLASSIFIERS, False) + _extreme_params(SELECTORS, True))
def test_extreme_cases(name, est, kind, units, case, selector):
    problem = _judge_extreme(name, est, kind, units, case, selector)
    assert problem is None, problem


# ------------------------------------------------------------------------------------------------- random problems


class Spec(NamedTuple):
    """One random problem: sizes, units (log10 scale, offset in within-class sd), shape and quirks."""
    n_neg: int
    n_pos: int
    d: int
    n_inf: int
    log_scale: float
    offset: float
    shape: str  # "signal", "constant" (every gene), "near-constant" (rounding noise only)
    constant: bool  # one noise gene constant
    duplicate: bool  # one noise gene duplicates an informative one
    encoding: str
    seed: int


_OFFSETS = [0.0, 1.0, 30.0, 1e3, 1e4, 1e8, 1e12]


@st.composite
def specs(draw):
    n_neg, n_pos = draw(st.integers(4, 12)), draw(st.integers(4, 12))
    d = draw(st.integers(2, 24))
    n_inf = draw(st.integers(1, min(3, d)))
    offset = draw(st.sampled_from(_OFFSETS))
    shape = draw(st.sampled_from(["signal"] * 6 + ["constant", "near-constant"]))
    # the largest value, (offset + a few sd) * scale, must stay finite
    top = 300.0 - max(0.0, np.log10(offset + 10.0) - 1.0)
    log_scale = draw(st.floats(-300.0, top))
    constant = d - n_inf >= 1 and draw(st.booleans())
    duplicate = d - n_inf >= 2 and draw(st.booleans())
    encoding = draw(st.sampled_from(["01", "pm1", "12", "words", "words-reversed"]))
    seed = draw(st.integers(0, 2**32 - 1))
    return Spec(n_neg, n_pos, d, n_inf, log_scale, offset, shape, constant, duplicate, encoding, seed)


def make_problem(spec):
    """A well-separated two-class problem (train and test) in the units and shape of ``spec``."""
    rng = np.random.default_rng(spec.seed)
    d = spec.d
    genes = rng.permutation(d)
    informative, rest = genes[: spec.n_inf], genes[spec.n_inf:]
    signs = rng.choice([-1, 1], spec.n_inf)

    def sample(nn, np_):
        y = np.r_[np.zeros(nn, int), np.ones(np_, int)]
        X = rng.normal(size=(nn + np_, d))
        X[:, informative] += 3.0 * (2 * y[:, None] - 1) * signs[None, :]
        return X, y

    X, y = sample(spec.n_neg, spec.n_pos)
    Xt, yt = sample(10, 10)
    scale = 10.0**spec.log_scale
    X, Xt = _transform(X, Xt, scale, spec.offset * rng.uniform(0.5, 1.5), spec.shape, rng)
    quirks = []
    if spec.shape == "signal" and spec.constant:
        X[:, rest[0]] = Xt[:, rest[0]] = X[0, rest[0]]
        quirks.append(f"gene {rest[0]} constant")
    if spec.shape == "signal" and spec.duplicate:
        j = rest[-1]
        X[:, j], Xt[:, j] = X[:, informative[0]], Xt[:, informative[0]]
        quirks.append(f"gene {j} duplicates gene {informative[0]}")
    names = {"01": (0, 1), "pm1": (-1, 1), "12": (1, 2), "words": ("ALL", "AML"),
             "words-reversed": ("tumour", "normal")}
    lab = np.array(names[spec.encoding], dtype=object if spec.encoding.startswith("words") else int)
    desc = (f"{spec.shape} n={spec.n_neg}+{spec.n_pos} d={d} informative={informative.tolist()} "
            f"scale=1e{spec.log_scale:.1f} offset={spec.offset:g} labels={spec.encoding} {' '.join(quirks)}")
    return X, lab[y].astype(lab.dtype), Xt, lab[yt].astype(lab.dtype), desc


def _strong(kind, units, est, X, y):
    """Whether a hyper-parameter in the units of X is strong enough on these data to demand a model that beats the
    majority class: an SVM's C when C * max |x - mean|^2 >= 10 (the SVM with bias is translation-invariant; below,
    the soft margin may tend to the majority rule, C -> 0); SMLR's lam when at most half of lambda_max (above it
    every weight is zero)."""
    if kind != "units":
        return True
    param, _ = units
    key = param if param in est.get_params() else f"{est.steps[0][0]}__{param}"
    v = float(est.get_params()[key])
    Xc = X - X.mean(0)
    if param == "C":
        return v * float(np.max(np.einsum("ij,ij->i", Xc, Xc))) >= 10.0
    t = (y == np.unique(y)[1]).astype(float)
    return v <= 0.5 * float(np.max(np.abs(Xc.T @ (t - t.mean()))))


def _judge_random(name, est, kind, units, spec, selector):
    X, y, Xt, yt, desc = make_problem(spec)
    if selector:
        est = _with_classifier(est)
    out = _fit(est, X, y, Xt)
    if out.runtime:
        return f"{name} emitted RuntimeWarning(s) {out.runtime[:2]} on {desc}"
    one_class = None if selector else _silent_one_class(name, out, y, desc)
    if spec.shape == "constant":
        verdict = _named(name, out, kind, desc, r"constant|do not vary")
        return None if verdict is None else (f"{name} fitted constant data silently ({desc})"
                                             if verdict == "no message" else verdict)
    if spec.shape == "near-constant":
        return None if (out.error is not None or out.degenerate) else one_class
    if out.error is not None and REFUSES_CONSTANT.search(out.error) and "constant" in desc:
        return None
    allow = DEGENERATE_OK.get(kind)
    if kind in ("origin", "offset") and spec.offset == 0:
        allow = None
    verdict = _named(name, out, kind, desc, allow)
    if verdict != "no message":
        return verdict
    if one_class:
        return one_class
    assert set(np.unique(out.pred_test)) <= set(np.unique(y)), f"{name} predicts labels outside the training labels"
    acc = float(np.mean(out.pred_test == yt))
    majority = max(np.mean(yt == c) for c in np.unique(yt))
    if not acc > majority and _strong(kind, units, est, X, y):
        return f"{name} accuracy {acc:.2f} does not beat the majority class ({majority:.2f}) on {desc}"
    return None


def _spec(log_scale=0.0, offset=0.0, shape="signal", seed=5):
    return Spec(9, 7, 12, 2, log_scale, offset, shape, True, True, "words", seed)


def _pinned(f):
    """The extremes every run covers (hypothesis ``@example``s)."""
    for s in (_spec(-300.0), _spec(-200.0), _spec(200.0), _spec(300.0), _spec(offset=1e4), _spec(offset=1e8),
              _spec(offset=1e12), _spec(-200.0, 1e12), _spec(shape="constant"), _spec(shape="near-constant")):
        f = example(spec=s)(f)
    return f


@pytest.mark.parametrize("name,est,kind,units", _params(CLASSIFIERS, _ON_ROBUST_B))
@SETTINGS
@given(spec=specs())
@_pinned
def test_classifier_beats_the_majority_or_says_why(name, est, kind, units, spec):
    problem = _judge_random(name, est, kind, units, spec, False)
    assert problem is None, problem


@pytest.mark.parametrize("name,est,kind,units", _params(SELECTORS, _ON_ROBUST_B))
@SETTINGS
@given(spec=specs())
@_pinned
def test_selector_keeps_what_separates_or_says_why(name, est, kind, units, spec):
    """A selector followed by z-scores and a nearest-centroid rule must beat the majority class."""
    problem = _judge_random(name, est, kind, units, spec, True)
    assert problem is None, problem


@SETTINGS
@given(spec=specs())
@_pinned
def test_standardisers_do_not_depend_on_the_units(spec):
    """GeneStandardizer / SampleStandardizer give the same z-scores whatever the units of X (or refuse constant
    genes / samples by name); LogTransform and MissingValueImputer give finite output of the right shape."""
    X, y, Xt, yt, desc = make_problem(spec)
    unit = 2.0 ** -np.frexp(np.abs(X).max())[1]  # back to values of order 1, exactly
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for est in (GeneStandardizer(), GeneStandardizer(on_constant="zero"), SampleStandardizer()):
            try:
                Z = clone(est).fit(X).transform(Xt)
            except ValueError as exc:
                assert re.search(r"constant", str(exc)), f"{est}: {exc} on {desc}"
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


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(4, 14), d=st.integers(6, 60), depth=st.integers(2, 50),
       mean=st.floats(0.5, 2000))
def test_count_normalisation_does_not_depend_on_a_samples_depth(seed, n, d, depth, mean):
    """CountNormalizer on any count matrix: finite log2 CPM of the right shape; a test sample sequenced ``depth``
    times deeper keeps its profile (the library size and upper quartile exactly, TMM up to one factor for the whole
    sample); the other test samples are untouched."""
    rng = np.random.default_rng(seed)
    X = rng.poisson(rng.lognormal(np.log(mean), 1.0, (n, d)) * rng.uniform(0.3, 3, (n, 1))).astype(float)
    X[:, 0] += 1  # every sample has a count
    tr, te = np.arange(n // 2 + 1), np.arange(n // 2 + 1, n)
    deep = X.copy()
    deep[te[0]] *= depth
    for method in ("cpm", "upper_quartile", "tmm"):
        try:
            norm = CountNormalizer(method=method, log=False).fit(X[tr])
            a, b = norm.transform(X[te]), norm.transform(deep[te])
        except ValueError as exc:  # a sample sharing too few genes with the reference (sparse counts): named
            assert method != "cpm" and "use method='cpm'" in str(exc), exc
            continue
        assert a.shape == (len(te), d) and np.all(np.isfinite(a))
        np.testing.assert_array_equal(a[1:], b[1:])
        counted = a[0] > 0
        ratio = b[0, counted] / a[0, counted]
        np.testing.assert_allclose(ratio, 1.0 if method != "tmm" else ratio[0], rtol=1e-10, err_msg=method)
        out = CountNormalizer(method=method).fit(X[tr]).transform(X[te])
        assert np.all(np.isfinite(out)) and np.all(out >= 0)


# ------------------------------------------------------------------------------------------------- the contract


#: covered by test_standardisers_do_not_depend_on_the_units above instead of a configuration of the table
TRANSFORMERS = {"GeneStandardizer", "SampleStandardizer", "LogTransform", "MissingValueImputer", "CountNormalizer"}


@pytest.mark.registration("estimator", "tests/estimators.py")
def test_every_public_estimator_is_covered():
    """Every estimator re-exported by genesel (and the factory make_corr_pipeline) is in the property tests above,
    none exempt: a public name without ``properties`` in tests/estimators.py fails here."""
    without = sorted(n for n in E.NAMES if not E.SETTINGS[n].properties and n not in TRANSFORMERS)
    assert not without, f"add property-test configurations for {without} to tests/estimators.py"
    assert set(E.CLASSES) == set(E.public_estimators()) and "make_corr_pipeline" in E.public_factories()
    assert all(hasattr(genesel, n) for n in TRANSFORMERS)


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
