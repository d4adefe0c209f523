"""Genes constant in a training part are ignored the same way by every public estimator (issue 22): never an error,
weight / score / relevance 0, ranked after every gene that varies, their values in new data never enter a prediction,
a selector's mask still covers every gene it was given, and their count is reported once per pipeline (the
``genesel`` logger), not once per step. Training data in which every gene is constant are refused by name."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import pytest
from sklearn.base import clone, is_classifier
from sklearn.pipeline import make_pipeline

import estimators as E
import genesel
from genesel._core import validation

CONST = [5, 9, 20]

#: every public estimator class; its settings (small ones that keep this module fast, whether it looks at genes one
#: by one) are tests/estimators.py's
ESTIMATORS = E.CLASSES
STATELESS = {n for n in ESTIMATORS if E.SETTINGS[n].stateless}  # they do not look at genes one by one


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    y = np.r_[[0] * 20, [1] * 20]
    X = rng.normal(size=(40, 30))
    X[y == 1, :3] += 3.0
    X[:, CONST] = [7.0, 0.0, -3.5]
    return X, y


def _make(name):
    """The small settings; a selector asked for 3 genes, fewer than the 27 that vary (its default may be all)."""
    from genesel._core.selector import SelectorBase

    extra = dict(n_features_to_select=3) if issubclass(getattr(genesel, name), SelectorBase) and \
        "n_features_to_select" in getattr(genesel, name)._get_param_names() else {}
    return E.build(name, small=True, **extra)


def test_every_public_estimator_is_listed():
    assert {"SVMRFE", "LinearSVM", "GeneStandardizer", "AdaBoostStumps", "GPARDFS", "RVM"} <= set(ESTIMATORS)
    assert len(ESTIMATORS) >= 27


@pytest.mark.parametrize("name", [n for n in ESTIMATORS if n not in STATELESS])
def test_constant_genes_are_ignored_not_refused(name):
    X, y = _problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=UserWarning)  # the capped GP fits' ConvergenceWarnings
        est = _make(name).fit(X, y)
    assert est.constant_genes_.tolist() == CONST and est.n_constant_genes_ == 3
    rng = np.random.default_rng(1)
    Xt = X.copy()
    Xt[:, CONST] = 100.0 * rng.normal(size=(40, 3))  # new data: the ignored genes now vary wildly
    if is_classifier(est):
        np.testing.assert_array_equal(est.predict(Xt), est.predict(X))
        assert np.mean(est.predict(X) == y) >= 0.8
        if hasattr(est, "decision_function"):
            np.testing.assert_allclose(est.decision_function(Xt), est.decision_function(X), rtol=1e-12, atol=1e-12)
    elif hasattr(est, "support_"):  # a selector: a mask over all genes, the ignored ones never chosen, ranked last
        assert est.get_support().shape == (30,)
        assert not est.support_[CONST].any()
        order = getattr(est, "feature_order_", None)
        if order is not None:
            assert set(order[-3:].tolist()) == set(CONST), order
        assert np.all(est.ranking_[CONST] > est.ranking_[np.setdiff1d(np.arange(30), CONST)].max()) or \
            np.all(est.ranking_[CONST] >= np.sort(est.ranking_)[-3])
    else:  # the standardiser: mapped to 0 and passed on as constant genes
        np.testing.assert_array_equal(est.transform(X)[:, CONST], 0.0)


@pytest.mark.parametrize("name", [n for n in ESTIMATORS if n not in STATELESS | {"GeneStandardizer"}])
def test_every_gene_constant_is_refused_by_name(name):
    X, y = _problem()
    with pytest.raises(ValueError, match=r"every one of the 30 gene\(s\) is constant in the training data"):
        _make(name).fit(np.ones_like(X) * 3.0, y)


def test_a_selector_asked_for_every_gene_returns_a_mask_over_all_of_them():
    X, y = _problem()
    sel = genesel.SVMRFE(n_features_to_select=30).fit(X, y)
    assert sel.support_.all()
    assert set(sel.feature_order_[-3:].tolist()) == set(CONST)


def test_reported_once_per_pipeline_not_once_per_step(caplog):
    """The standardiser reports the 3 constant genes; SVM-RFE and the SVM after it meet the same genes in the same
    samples and stay silent; a second fit on the same training part (e.g. another candidate of a grid search)
    reports nothing new; a training part with other constant genes is reported."""
    validation._REPORTED.clear()
    X, y = _problem(seed=7)
    Xraw = 10.0 ** (X / 4 + 2)  # positive "intensities"; the constant genes stay constant
    pipe = make_pipeline(genesel.LogTransform(), genesel.GeneStandardizer(),
                         genesel.SVMRFE(n_features_to_select=4), genesel.LinearSVM())
    with caplog.at_level(logging.INFO, logger="genesel"):
        pipe.fit(Xraw, y)
        clone(pipe).fit(Xraw, y)
    records = [r for r in caplog.records if "constant in the training data" in r.getMessage()]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].getMessage().startswith("GeneStandardizer: 3 of 30 genes are constant")
    assert pipe[2].n_constant_genes_ == 3 and pipe[-1].n_constant_genes_ == 0
    caplog.clear()
    Xo = Xraw.copy()
    Xo[:, 11] = 5.0
    with caplog.at_level(logging.INFO, logger="genesel"):
        clone(pipe).fit(Xo, y)
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1 and msgs[0].startswith("GeneStandardizer: 4 of 30 genes are constant in"), msgs


def test_the_report_stays_off_stderr_by_default(capfd):
    """Nothing reaches stderr unless the user asks for genesel's log: a notebook's stderr stays clean."""
    validation._REPORTED.clear()
    X, y = _problem(seed=8)
    logging.getLogger("genesel").handlers.clear()
    genesel.SVMRFE(n_features_to_select=3).fit(X, y)
    assert capfd.readouterr().err == ""


def test_raw_golub_pipeline_used_to_fail_and_now_runs(golub):
    """Issue 22's report: Golub's raw matrix in make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(...),
    LinearSVM()) failed with "296 gene(s) are constant in the training data"."""
    pipe = make_pipeline(genesel.LogTransform(), genesel.GeneStandardizer(),
                         genesel.SVMRFE(n_features_to_select=16, step=0.1), genesel.LinearSVM())
    tr, te = golub.train_idx, golub.test_idx
    pipe.fit(golub.X[tr], golub.y[tr])
    assert pipe[1].n_constant_genes_ > 100 and pipe[2].get_support().shape == (golub.X.shape[1],)
    assert np.mean(pipe.predict(golub.X[te]) == golub.y[te]) > 0.8
