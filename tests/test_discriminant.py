"""DLDA (genesel.discriminant) against independent references: the formulas of Dudoit, Fridlyand & Speed (2002,
Sec. 2.2) evaluated sample by sample in plain Python, and scikit-learn's LinearDiscriminantAnalysis on data whose
pooled within-class covariance is exactly diagonal (where the two rules are the same model)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.linalg import hadamard
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.naive_bayes import GaussianNB

from genesel import DLDA


def _brute_delta(X, y, Xt, priors):
    """δ_k(x) = -1/2 Σ_j (x_j - mean_kj)² / s_j² + log π_k with s_j² = Σ_k Σ_i (x_ij - mean_kj)² / (n - K), by loops."""
    classes = sorted(set(y.tolist()))
    n, d = X.shape
    K = len(classes)
    means = {c: [sum(X[i, j] for i in range(n) if y[i] == c) / sum(1 for i in range(n) if y[i] == c)
                 for j in range(d)] for c in classes}
    var = [sum((X[i, j] - means[y[i]][j]) ** 2 for i in range(n)) / (n - K) for j in range(d)]
    out = np.empty((len(Xt), K))
    for a, x in enumerate(Xt):
        for k, c in enumerate(classes):
            out[a, k] = -0.5 * sum((x[j] - means[c][j]) ** 2 / var[j] for j in range(d)) + math.log(priors[k])
    return out


@pytest.mark.parametrize("K", [2, 3, 5])
@pytest.mark.parametrize("priors", ["uniform", "empirical"])
def test_decision_and_posterior_are_the_closed_form_evaluated_by_loops(K, priors):
    rng = np.random.default_rng(K)
    y = np.concatenate([np.full(4 + k, k) for k in range(K)])
    X = rng.normal(size=(y.size, 6)) * rng.uniform(0.5, 3.0, size=6) + 2.0 * rng.normal(size=(K, 6))[y]
    Xt = rng.normal(size=(9, 6)) * 2.0
    counts = np.bincount(y)
    pri = np.full(K, 1.0 / K) if priors == "uniform" else counts / counts.sum()
    ref = _brute_delta(X, y, Xt, pri)
    clf = DLDA(priors=priors).fit(X, y)
    D = clf.decision_function(Xt)
    if K == 2:
        np.testing.assert_allclose(D, ref[:, 1] - ref[:, 0], rtol=1e-10, atol=1e-10)
    else:
        np.testing.assert_allclose(D, ref, rtol=1e-10, atol=1e-10)
    post = np.exp(ref - ref.max(axis=1, keepdims=True))
    post /= post.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(clf.predict_proba(Xt), post, rtol=1e-9, atol=1e-12)
    assert clf.predict(Xt).tolist() == np.argmax(ref, axis=1).tolist()
    np.testing.assert_allclose(clf.priors_, pri)


def _diagonal_within(K=3, per=8, d=4, seed=0):
    """Data whose centred within-class columns are orthogonal (columns of a Hadamard matrix): the pooled within-class
    covariance is exactly diagonal, so LDA's pooled covariance and DLDA's diagonal are one matrix."""
    rng = np.random.default_rng(seed)
    H = hadamard(per)[:, 1:d + 1].astype(float)  # zero-mean, mutually orthogonal columns
    sd = rng.uniform(0.5, 2.0, size=d)
    means = 1.5 * rng.normal(size=(K, d))
    X = np.vstack([means[k] + H * sd * rng.choice([-1.0, 1.0], size=d) for k in range(K)])
    y = np.repeat(np.arange(K), per)
    return X, y


def test_same_model_as_sklearn_lda_when_the_pooled_covariance_is_diagonal():
    X, y = _diagonal_within()
    n, K = y.size, 3
    R = X - np.vstack([X[y == k].mean(0) for k in range(K)])[y]
    W = R.T @ R
    assert np.allclose(W - np.diag(np.diag(W)), 0.0, atol=1e-10)  # the construction holds
    Xt = np.random.default_rng(1).normal(size=(20, X.shape[1])) * 2.0
    lda = LinearDiscriminantAnalysis(solver="lsqr", priors=np.full(K, 1.0 / K)).fit(X, y)
    dlda = DLDA(priors="uniform").fit(X, y)
    # LDA's covariance divides the within-class scatter by n, DLDA's by n - K: differences of discriminants scale
    a, b = lda.decision_function(Xt), dlda.decision_function(Xt)
    np.testing.assert_allclose(b - b[:, :1], (a - a[:, :1]) * (n - K) / n, rtol=1e-9, atol=1e-9)
    assert dlda.predict(Xt).tolist() == lda.predict(Xt).tolist()
    np.testing.assert_allclose(dlda.var_ * (n - K) / n, np.diag(lda.covariance_), rtol=1e-10)
    np.testing.assert_allclose(dlda.means_, lda.means_, rtol=1e-12, atol=1e-12)


def test_not_gaussian_nb_which_has_a_variance_per_class():
    """Where the classes' spreads differ, DLDA (one pooled variance per gene) and GaussianNB (one per class and gene:
    Dudoit's DQDA) are different rules: the test above could not pass by computing per-class variances."""
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1, 2], 10)
    X = rng.normal(size=(30, 3)) * np.array([0.3, 1.0, 3.0])[y][:, None] + np.array([0.0, 1.0, 2.0])[y][:, None]
    Xt = rng.normal(size=(200, 3)) * 2.0 + 1.0
    a = DLDA(priors="empirical").fit(X, y).predict_proba(Xt)
    b = GaussianNB(var_smoothing=0.0).fit(X, y).predict_proba(Xt)
    assert np.abs(a - b).max() > 0.1


def test_constant_genes_have_no_weight_and_scale_does_not_matter():
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1, 2], 6)
    X = rng.normal(size=(18, 5)) + np.eye(3, 5)[y] * 2.0
    Xc = np.column_stack([X, np.full(18, 7.0)])
    Xt = rng.normal(size=(10, 5))
    a = DLDA().fit(X, y)
    b = DLDA().fit(Xc, y)
    assert b.constant_genes_.tolist() == [5]
    np.testing.assert_allclose(b.decision_function(np.column_stack([Xt, rng.normal(size=10)])),
                               a.decision_function(Xt), rtol=1e-12, atol=1e-12)
    for s in (1e-300, 1e250):
        np.testing.assert_allclose(DLDA().fit(X * s, y).decision_function(Xt * s), a.decision_function(Xt),
                                   rtol=1e-9, atol=1e-9)


def test_bad_priors_and_too_few_samples_are_refused_by_name():
    X, y = np.random.default_rng(0).normal(size=(9, 3)), np.repeat([0, 1, 2], 3)
    with pytest.raises(ValueError, match="priors must be 3 positive numbers"):
        DLDA(priors=[0.5, 0.5, 0.0]).fit(X, y)
    with pytest.raises(ValueError, match="n - K"):
        DLDA().fit(X[[0, 3, 6]], y[[0, 3, 6]])
