"""Metrics against sklearn.metrics."""

import numpy as np
import pytest
from sklearn import metrics as skm

from genesel.metrics import auc, balanced_classification_rate, error_rate, pooled_roc, roc_auc


@pytest.fixture
def preds():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 60)
    yhat = np.where(rng.random(60) < 0.8, y, 1 - y)
    scores = np.round(y + rng.normal(0, 0.8, 60), 1)  # rounding makes ties
    return y, yhat, scores


def test_error_rate_and_bcr(preds):
    y, yhat, _ = preds
    assert error_rate(y, yhat) == pytest.approx(1 - skm.accuracy_score(y, yhat))
    assert balanced_classification_rate(y, yhat) == pytest.approx(skm.balanced_accuracy_score(y, yhat))


def test_pooled_roc_equals_sklearn_with_ties(preds):
    y, _, s = preds
    fpr, tpr, thr = pooled_roc(y, s)
    rf, rt, rthr = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(fpr, rf)
    np.testing.assert_allclose(tpr, rt)
    np.testing.assert_allclose(thr[1:], rthr[1:])
    assert auc(fpr, tpr) == pytest.approx(skm.roc_auc_score(y, s))


def test_pooled_over_folds_is_the_concatenation(preds):
    y, _, s = preds
    folds = np.array_split(np.arange(len(y)), 5)
    ys = np.concatenate([y[f] for f in folds])
    ss = np.concatenate([s[f] for f in folds])
    assert roc_auc(ys, ss) == pytest.approx(skm.roc_auc_score(y, s))


def test_hand_computed_roc():
    # scores 0.9(+) 0.8(-) 0.8(+) 0.1(-): points (0,0) (0,.5) (.5,1) (1,1); AUC = .5*.5 + .5*(.5+1)/2*... by hand:
    fpr, tpr, _ = pooled_roc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 1, 1])
    assert auc(fpr, tpr) == pytest.approx(0.875)  # 0.5*(0.5+1)/2 + 0.5*1


def test_errors():
    with pytest.raises(ValueError, match="both classes"):
        pooled_roc([1, 1], [0.2, 0.3], pos_label=0)
    with pytest.raises(ValueError, match="equal length"):
        error_rate([1, 0], [1])
    with pytest.raises(ValueError, match="NaN"):
        pooled_roc([1, 0], [np.nan, 0.1])
