"""genesel.msvm_rfe: the criterion of Eqs. 5.2-5.3 by hand, the numba path against its plain-Python twin, the
scikit-learn contract."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from genesel.msvm_rfe import MSVMRFE, _msvm_path, msvm_criterion, resampling_masks
from naive import msvm_rfe as naive_msvm
from problems import golub_like


def test_criterion_by_hand():
    # rows normalised: (0.6, 0.8), (1, 0), (0, 1) -> squared: (0.36, 0.64), (1, 0), (0, 1)
    W = np.array([[3.0, 4.0], [2.0, 0.0], [0.0, -5.0]])
    m0, m1 = (0.36 + 1 + 0) / 3, (0.64 + 0 + 1) / 3
    s0 = np.sqrt(((0.36 - m0) ** 2 + (1 - m0) ** 2 + m0**2) / 2)
    s1 = np.sqrt(((0.64 - m1) ** 2 + m1**2 + (1 - m1) ** 2) / 2)
    np.testing.assert_allclose(msvm_criterion(W), [m0 / s0, m1 / s1])
    # constant squared weights: +inf if positive, 0 if the gene is never used
    np.testing.assert_array_equal(msvm_criterion(np.array([[1.0, 0.0], [1.0, 0.0]])), [np.inf, 0.0])
    with pytest.raises(ValueError, match="t >= 2"):
        msvm_criterion(np.ones((1, 3)))


def test_path_matches_naive_twin():
    X, y = golub_like(n=20, d=9, seed=5)
    masks = resampling_masks(y, 4, 1, np.random.RandomState(0))
    elim, surv, _, gap = _msvm_path(np.ascontiguousarray(X.T), y.astype(float), masks, 1.0, 1e-10, 10**7,
                                    np.ones(8, dtype=np.int64))
    elim0, surv0 = naive_msvm.msvm_path(X, y.astype(float), masks, 1.0, 1e-10, 10**7)
    assert gap < 1e-10
    assert elim.tolist() == elim0 and surv.tolist() == surv0


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("chunks", [False, True])
def test_longer_path_matches_naive_twin(C, chunks):
    """40 genes: the carried Gram blocks, gradients and Cholesky factors are downdated over many steps, refreshed
    when the survivors halve, and used with free sets that change (small C: many multipliers at the bound; C = inf:
    nearly the hard margin); with chunks, several genes leave per step."""
    X, y = golub_like(n=24, d=40, seed=11)
    masks = resampling_masks(y, 4, 1, np.random.RandomState(2))
    n_remove = np.array([8, 8, 6, 5, 4, 3, 2, 1, 1, 1], dtype=np.int64) if chunks else np.ones(39, dtype=np.int64)
    elim, surv, _, gap = _msvm_path(np.ascontiguousarray(X.T), y.astype(float), masks, C, 1e-10, 10**7, n_remove)
    elim0, surv0 = naive_msvm.msvm_path(X, y.astype(float), masks, C, 1e-10, 10**7,
                                        n_remove.tolist() if chunks else None)
    assert gap < 1e-10
    assert elim.tolist() == elim0 and surv.tolist() == surv0


def test_finds_the_informative_genes_and_is_seeded():
    X, y = golub_like(n=30, d=30, seed=2)
    a = MSVMRFE(n_folds=5, random_state=3).fit(X, y)
    b = MSVMRFE(n_folds=5, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    assert len(set(a.feature_order_[:5].tolist()) & set(range(8))) >= 3  # SVM-RFE finds 3 here too
    assert a.support_.sum() == a.n_features_ == a.forward_path_.biomarker_size("loo")
    assert sorted(a.ranking_.tolist()) == list(range(1, 31))


def test_bad_parameters():
    X, y = golub_like(n=12, d=6, seed=0)
    with pytest.raises(ValueError, match="smallest class"):
        MSVMRFE(n_folds=10).fit(X, y)
    with pytest.raises(ValueError, match=r"'n_folds' parameter of MSVMRFE must be a str among \{'auto'\} or an int in the range \[2, inf\)"):
        MSVMRFE(n_folds=1).fit(X, y)


@parametrize_with_checks([MSVMRFE(n_folds=2, random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)
