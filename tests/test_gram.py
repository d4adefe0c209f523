"""genesel._core.gram: the one Gram-matrix function, both engines, against numpy and scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from genesel._core.gram import _dot_matrix, add_gram_rows, gram, gram_rows, linear_gram
from naive import gram as naive_gram


def _data():
    rng = np.random.default_rng(3)
    return rng.normal(size=(7, 30)), rng.normal(size=(5, 30))


def test_blas_free_products_match_numpy():
    A, B = _data()
    np.testing.assert_allclose(_dot_matrix(A, B, False), A @ B.T, atol=1e-12)
    np.testing.assert_allclose(_dot_matrix(A, A, True), A @ A.T, atol=1e-12)
    np.testing.assert_allclose(linear_gram(A), A @ A.T, atol=1e-12)
    np.testing.assert_allclose(linear_gram(A, B), A @ B.T, atol=1e-12)


@pytest.mark.parametrize("blas", [False, True])
@pytest.mark.parametrize("kernel,params", [("linear", {}), ("poly", dict(degree=3, gamma=0.2, coef0=1.5)),
                                           ("poly", dict(degree=2)), ("rbf", dict(gamma=0.1)), ("rbf", {})])
def test_kernels_match_sklearn_pairwise_kernels(kernel, params, blas):
    A, B = _data()
    sk = dict(params)
    if kernel == "poly":
        sk.setdefault("coef0", 0.0)  # genesel's default coef0 is 0, as sklearn.svm.SVC's
    for Z in (B, None):
        ref = pairwise_kernels(A, A if Z is None else Z, metric=kernel, **sk)
        got = gram(A, Z, kernel, blas=blas, **params)
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gram(A, B, "rbf", gamma=0.1),
                               np.exp(-0.1 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)), atol=1e-12)


def test_precomputed_and_bad_kernel():
    A, _ = _data()
    K = A @ A.T
    assert gram(K, None, "precomputed") is K
    with pytest.raises(ValueError, match="kernel must be one of"):
        gram(A, None, "sigmoid")


def test_elimination_kernels_match_naive_and_downdate_equals_recomputation():
    """gram_rows and add_gram_rows (SVM-RFE's downdate with sign -1) against numpy; a downdate equals recomputing
    the Gram matrix of the survivors."""
    rng = np.random.default_rng(0)
    Xt = rng.normal(size=(50, 12))
    Xt[7, 3] = 0.0  # zeros are skipped: same result
    rows = np.arange(50)
    K = gram_rows(Xt, rows)
    np.testing.assert_allclose(K, naive_gram.gram_rows(Xt, rows), rtol=1e-12, atol=1e-12)
    removed = np.array([3, 7, 17, 40, 41])
    ref = naive_gram.add_gram_rows(K, Xt, removed, -1.0)
    add_gram_rows(K, Xt, removed, -1.0)
    np.testing.assert_allclose(K, ref, atol=1e-12)
    assert np.array_equal(K, K.T)
    keep = np.setdiff1d(rows, removed)
    np.testing.assert_allclose(K, Xt[keep].T @ Xt[keep], atol=1e-12)  # downdate == recomputation
    add_gram_rows(K, Xt, removed, 1.0)  # and back
    np.testing.assert_allclose(K, Xt.T @ Xt, atol=1e-12)
