"""Issue 25: the unit helpers for offsets and trees (genesel._core.units), and the estimators outside the SVM / DWD /
stump / AROM modules that the extended property test found failing at extreme scales or offsets: SVMRFE (far
offsets), RFBackwardSelector (scikit-learn's float32 forests) and MissingValueImputer (KNN distances)."""

import warnings

import numpy as np
import pytest
from scipy.stats import rankdata

from genesel import SVMRFE, MissingValueImputer, RFBackwardSelector
from genesel._core.units import OFFSET_RATIO, far_offset_centre, offset_message, offset_ratio, tree_units
from problems import problem_p


def test_offset_ratio_is_the_squared_mean_over_the_spread():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 4)) * np.array([1.0, 2.0, 3.0, 4.0])
    shift = np.array([10.0, -20.0, 0.0, 5.0])
    r = offset_ratio(X + shift)
    mu, var = (X + shift).mean(0), (X + shift).var(0)
    assert r == pytest.approx(mu @ mu / var.sum())
    assert offset_ratio(np.ones((5, 3))) == np.inf and offset_ratio(np.zeros((5, 3))) == 0.0
    assert far_offset_centre(X + shift) is None  # ~ 1 spread: ordinary
    np.testing.assert_array_equal(far_offset_centre(X + 1e6), (X + 1e6).mean(0))
    assert offset_ratio(X + 1e6) > OFFSET_RATIO
    assert "standard deviations from the origin" in offset_message(1e16)


@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (3.0, 5.0), (1e-300, 0.0), (1e300, 0.0), (1e-7, 0.0),
                                          (1.0, 1e8), (1e-200, 1e12)])
def test_tree_units_keep_every_gene_order_and_leave_ordinary_data_alone(scale, offset):
    X, _ = problem_p()
    Xd = (X + offset) * scale
    T = tree_units(Xd)
    if scale in (1.0, 3.0) and offset < 1e3:
        assert T is Xd  # not even copied
        return
    np.testing.assert_array_equal(np.argsort(T, axis=0, kind="stable"), np.argsort(Xd, axis=0, kind="stable"))
    T32 = T.astype(np.float32)
    assert np.all(np.isfinite(T32))
    assert 0.5 <= np.ptp(T, axis=0).max() < 1.0
    # float32 keeps every distinct value that float64 had (to within P's smallest gaps)
    assert np.all(np.diff(np.sort(T32, axis=0), axis=0)[np.diff(np.sort(Xd, axis=0), axis=0) > 0] > 0)


@pytest.mark.parametrize("scale,offset", [(1e-300, 0.0), (1e300, 0.0), (1.0, 1e8), (1e-200, 1e12)])
def test_random_forest_selection_is_that_of_scale_1(scale, offset):
    """Before: float32 underflowed (1e-300), overflowed (1e300, a RuntimeWarning) or rounded every difference away
    (1e8 spreads from the origin): another selection, silently. Trees, their out-of-bag votes and their permutation
    importances do not change under an increasing affine map of a gene, so the reference is the forest on the data
    as given, mapped back by hand (float64) to [0, 1] per gene (at 1e12 spreads float64 itself merges two values of
    gene 5, 8e-5 apart, before any forest sees them)."""
    X, y = problem_p()
    Z = (X + offset) * scale
    ranks = rankdata(Z, method="dense", axis=0)
    ref = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=0).fit(
        (Z - Z.min(axis=0)) / np.ptp(Z, axis=0), y)
    if offset < 1e12:
        assert np.array_equal(ranks, rankdata(X, method="dense", axis=0))  # no value merged: the forest of X
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=0).fit((X + offset) * scale, y)
    np.testing.assert_array_equal(got.support_, ref.support_)
    np.testing.assert_allclose(got.importances_, ref.importances_, atol=1e-12)


@pytest.mark.parametrize("offset", [1e4, 1e8, 1e12])
def test_svm_rfe_far_from_the_origin_is_the_rfe_of_offset_0(offset):
    """SVM-RFE's SVMs have a bias: an offset changes nothing but the intercepts. Before: at 1e8 spreads a
    RuntimeWarning (invalid value in matmul) and 'C=inf is negligible'; with C=1 other test predictions."""
    X, y = problem_p()
    shift = offset * (1.0 + np.arange(30) / 30)
    for C in (np.inf, 1.0):
        ref = SVMRFE(n_features_to_select=3, C=C).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            got = SVMRFE(n_features_to_select=3, C=C).fit(X + shift, y)
        np.testing.assert_array_equal(got.feature_order_[:10], ref.feature_order_[:10])
        np.testing.assert_array_equal(got.support_, ref.support_)
        tol = 1e-6 + 1e-13 * offset
        np.testing.assert_allclose(got.decision_function_path(X + shift), ref.decision_function_path(X), atol=tol)
        # stage_alpha_ and stage_intercept_ stay in the units of X: w = X^T (alpha y), f = x . w + b (w computed
        # on centred X: sum(alpha y) = 0 only to rounding, which the offset would multiply)
        yy = np.where(y == 1, 1.0, -1.0)
        Xc = X + shift - (X + shift).mean(0)
        for s, size in enumerate(got.subset_sizes_):
            g = got.subset(int(size))
            w = Xc[:, g].T @ (got.stage_alpha_[s] * yy)
            f = (X + shift)[:, g] @ w + got.stage_intercept_[s]
            np.testing.assert_allclose(f, ref.decision_function_path(X)[s], atol=1e-4 + 1e-15 * offset * shift.max())


@pytest.mark.parametrize("scale", [1e-300, 1e200, 1e300])
def test_knn_imputation_at_any_scale(scale):
    """Before: scikit-learn's squared distances overflowed at 1e200 (a RuntimeWarning, neighbours at random)."""
    X, _ = problem_p()
    Xn = X.copy()
    Xn[::7, ::5] = np.nan
    ref = MissingValueImputer(n_neighbors=3).fit(Xn).transform(Xn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = MissingValueImputer(n_neighbors=3).fit(Xn * scale).transform(Xn * scale)
    np.testing.assert_allclose(got / scale, ref, rtol=1e-12)
