"""genesel.quality: Guyon's metrics on hand-computed cases and leave-one-out against sklearn."""

import numpy as np
import pytest
from sklearn.model_selection import LeaveOneOut, cross_val_predict

from genesel.quality import guyon_quality, loo_decision_values, quality_metrics, rejection_threshold
from genesel.svm import LinearSVM
from genesel.voting import GolubVoting


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


def test_guyon_sizes_and_loo_aggregation():
    import pandas as pd

    from genesel.quality import guyon_sizes, loo_metrics_from_outputs

    assert guyon_sizes(7129) == [7129] + [2**k for k in range(12, -1, -1)]
    assert guyon_sizes(2048) == [2048] + [2**k for k in range(10, -1, -1)]
    df = pd.DataFrame({"dataset": "d", "method": "m", "n_genes": [4] * 5, "y": [1, 1, 1, -1, -1],
                       "output": [2.0, 0.5, -0.2, -1.0, 0.3]})
    out = loo_metrics_from_outputs(df).iloc[0]
    ref = quality_metrics(df.y, df.output)
    assert out.V_suc == ref["suc"] and out.V_acc == ref["acc"] and out.V_ext == ref["ext"] and out.n_folds == 5


def test_guyon_preprocess_uses_training_statistics():
    from genesel.quality import guyon_preprocess

    rng = np.random.default_rng(0)
    Xtr = rng.uniform(50, 5000, size=(12, 30))
    Xte = rng.uniform(50, 5000, size=(5, 30))
    A, B, kept = guyon_preprocess(Xtr, Xte, "alon")  # alon: log with floor 1
    assert kept.size == 30
    np.testing.assert_allclose(A.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(A.std(0), 1)
    # by hand: log10, rows standardised, then genes with the training mean and sd
    L = np.log10(Xtr)
    R = (L - L.mean(1, keepdims=True)) / L.std(1, keepdims=True)
    Lt = np.log10(Xte)
    Rt = (Lt - Lt.mean(1, keepdims=True)) / Lt.std(1, keepdims=True)
    np.testing.assert_allclose(B, (Rt - R.mean(0)) / R.std(0))
