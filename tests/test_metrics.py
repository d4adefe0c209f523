"""genesel.metrics: error, BCR and pooled ROC against sklearn.metrics; Guyon's quality measures on hand-computed
cases and leave-one-out against sklearn."""

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.model_selection import LeaveOneOut, cross_val_predict

from genesel.metrics import (auc, balanced_classification_rate, error_rate, guyon_quality, loo_decision_values,
                             pooled_roc, quality_metrics, rejection_threshold, roc_auc)
from genesel.svm import LinearSVM
from genesel.voting import GolubVoting


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


# ---------------------------------------------------------------------- Guyon 2002, section 4


def test_hand_computed_example():
    y = np.array([1, 1, 1, -1, -1])
    f = np.array([2.0, 0.5, -0.2, -1.0, 0.3])
    m = quality_metrics(y, f)
    # errors: f=-0.2 (class +1) and f=0.3 (class -1) -> theta = 0.3; accepted |f| > 0.3: 2.0, 0.5, -1.0
    assert m["theta"] == pytest.approx(0.3)
    assert m["suc"] == pytest.approx(3 / 5)
    assert m["acc"] == pytest.approx(3 / 5)
    # spread 3.0; extremal (-0.2 - 0.3)/3; median (0.5 - (-0.35))/3
    assert m["ext"] == pytest.approx(-0.5 / 3)
    assert m["med"] == pytest.approx(0.85 / 3)


def test_separated_outputs_accept_everything_and_labels_map():
    y = np.array(["ALL", "ALL", "AML", "AML"])
    f = np.array([-3.0, -1.0, 0.5, 2.0])
    m = quality_metrics(y, f)  # AML (larger label) is the positive class
    assert m["suc"] == 1.0 and m["acc"] == 1.0 and m["theta"] == 0.0
    assert m["ext"] == pytest.approx((0.5 - (-1.0)) / 5.0)
    assert m["med"] == pytest.approx((1.25 - (-2.0)) / 5.0)
    # flipping the positive class flips the margins' sign
    m2 = quality_metrics(y, -f, pos_label="ALL")
    assert m2["ext"] == pytest.approx(m["ext"]) and m2["suc"] == 1.0


def test_zero_output_is_an_error_and_rejected():
    y = np.array([1, -1, 1, -1])
    f = np.array([1.0, -2.0, 0.0, -0.5])
    m = quality_metrics(y, f)
    assert m["suc"] == 0.75
    assert rejection_threshold(y, f) == 0.0
    assert m["acc"] == 0.75  # the zero output is rejected, the others accepted


def test_bad_input():
    with pytest.raises(ValueError, match="one output per example"):
        quality_metrics([1, -1], [0.5])
    with pytest.raises(ValueError, match="NaN"):
        quality_metrics([1, -1], [0.5, np.nan])
    with pytest.raises(ValueError, match="single class"):
        quality_metrics([1, 1], [0.5, 0.2])


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, 6))
    y = np.where(X[:, 0] - X[:, 1] + 0.8 * rng.normal(size=20) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("est", [LinearSVM(C=1.0), GolubVoting(n_genes=4)])
def test_loo_outputs_match_sklearn_cross_val_predict(est):
    X, y = _problem()
    ours = loo_decision_values(est, X, y)
    ref = cross_val_predict(est, X, y, cv=LeaveOneOut(), method="decision_function")
    np.testing.assert_allclose(ours, ref, atol=1e-8)


def test_guyon_quality_combines_loo_and_test():
    X, y = _problem(1)
    Xt, yt = _problem(2)
    est = LinearSVM(C=1.0)
    q = guyon_quality(est, X, y, Xt, yt)
    assert set(q) == {f"{p}_{k}" for p in "VT" for k in ("suc", "acc", "ext", "med")}
    v = quality_metrics(y, loo_decision_values(est, X, y))
    t = quality_metrics(yt, LinearSVM(C=1.0).fit(X, y).decision_function(Xt))
    assert q["V_suc"] == v["suc"] and q["V_med"] == v["med"]
    assert q["T_acc"] == t["acc"] and q["T_ext"] == t["ext"]
    assert q["V_acc"] <= q["V_suc"] and q["T_acc"] <= q["T_suc"]  # accepted examples are all correct


def test_loo_decision_values_with_groups_is_scikit_learns_leave_one_group_out():
    """``groups``: each group scored by a fit on the others, as ``cross_val_predict`` with ``LeaveOneGroupOut``."""
    from sklearn.model_selection import LeaveOneGroupOut
    from sklearn.svm import SVC

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(10), 2)
    y = np.tile([-1, 1], 10)
    X = rng.normal(size=(20, 5)) + y[:, None] * 0.8 + np.repeat(rng.normal(size=(10, 5)), 2, axis=0)
    svc = SVC(kernel="linear", C=1.0, tol=1e-10)
    want = cross_val_predict(svc, X, y, groups=groups, cv=LeaveOneGroupOut(), method="decision_function")
    assert np.allclose(loo_decision_values(svc, X, y, groups), want)
    assert not np.allclose(loo_decision_values(svc, X, y), want)  # plain leave-one-out differs on pairs
