"""Preprocessing transformers against scikit-learn references, fit on training data only."""

import numpy as np
import pytest
from sklearn.impute import SimpleImputer
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from genesel.preprocessing import (
    GeneStandardizer,
    LogTransform,
    MissingValueImputer,
    SampleStandardizer,
)
from genesel._core.validation import check_expression_data
from genesel.datasets import recommended_preprocessing


def test_gene_standardizer_equals_standardscaler_fit_on_train():
    rng = np.random.default_rng(0)
    Xtr, Xte = rng.normal(3, 2, (20, 8)), rng.normal(3, 2, (5, 8))
    g = GeneStandardizer().fit(Xtr)
    s = StandardScaler().fit(Xtr)
    np.testing.assert_allclose(g.transform(Xte), s.transform(Xte))
    assert not np.allclose(g.transform(Xte).mean(0), 0)  # test data use the training statistics


def test_gene_standardizer_constant_gene():
    X = np.c_[np.arange(5.0), np.ones(5)]
    with pytest.raises(ValueError, match="constant in the training data"):
        GeneStandardizer(on_constant="error").fit(X)
    np.testing.assert_allclose(GeneStandardizer(on_constant="zero").fit_transform(X)[:, 1], 0)
    g = GeneStandardizer().fit(X)  # the default (issue 22): ignored, listed, never an error
    np.testing.assert_array_equal(g.transform(X)[:, 1], 0.0)
    assert g.constant_genes_.tolist() == [1] and g.n_constant_genes_ == 1


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300])
def test_standardisers_work_at_any_scale(scale):
    """Before: at 1e-300 every gene was reported constant (sd underflowed), at 1e200 the output was all 0 (the
    squares overflowed to inf)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(10, 8))
    np.testing.assert_allclose(GeneStandardizer().fit_transform(X * scale), GeneStandardizer().fit_transform(X),
                               rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(SampleStandardizer().fit_transform(X * scale), SampleStandardizer().fit_transform(X),
                               rtol=1e-12, atol=1e-13)
    # exact on ordinary data: the power-of-two rescaling changes no bit
    np.testing.assert_array_equal(GeneStandardizer().fit_transform(X), (X - X.mean(0)) / X.std(0))


def test_gene_standardizer_one_sample_says_so():
    """It used to say "8 gene(s) are constant in the training data"."""
    for est in (GeneStandardizer(), GeneStandardizer(on_constant="zero")):
        with pytest.raises(ValueError, match="one sample"):
            est.fit(np.arange(8.0)[None, :])


def test_log_transform_floor_ceiling():
    X = np.array([[-5.0, 0.0, 100.0, 1e6]])
    out = LogTransform(floor=20, ceiling=16000).fit_transform(X)
    np.testing.assert_allclose(out, np.log10([[20, 20, 100, 16000]]))
    with pytest.raises(ValueError, match=r"'floor' parameter of LogTransform must be a float in the range \(0.0"):
        LogTransform(floor=0).fit(X)
    with pytest.raises(ValueError, match="ceiling 20 must exceed floor 20"):
        LogTransform(floor=20, ceiling=20).fit(X)


def test_sample_standardizer_rows():
    rng = np.random.default_rng(1)
    Z = SampleStandardizer().fit_transform(rng.normal(5, 3, (4, 50)))
    np.testing.assert_allclose(Z.mean(1), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(1), 1)


def test_imputer_mean_equals_simpleimputer_and_knn_fills():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 6))
    X[rng.random(X.shape) < 0.1] = np.nan
    tr, te = X[:20], X[20:]
    np.testing.assert_allclose(MissingValueImputer(strategy="mean").fit(tr).transform(te),
                               SimpleImputer(strategy="mean").fit(tr).transform(te))
    assert np.isfinite(MissingValueImputer(strategy="knn", n_neighbors=3).fit(tr).transform(te)).all()


def test_recommended_pipeline_in_cross_validation(golub):
    pipe = make_pipeline(recommended_preprocessing("golub"), LinearSVC(C=1.0))
    acc = cross_val_score(pipe, golub.X[:, :500], golub.y, cv=3).mean()
    assert 0.5 < acc <= 1.0


def test_validation_messages():
    X = np.ones((4, 3))
    X[:, 0] = [1, 2, 3, 4]
    with pytest.raises(ValueError, match="2 constant gene"):
        check_expression_data(X)
    with pytest.raises(ValueError, match="shape mismatch"):
        check_expression_data(np.random.default_rng(0).normal(size=(4, 3)), [0, 1, 0])
    with pytest.raises(ValueError, match="3 classes"):
        check_expression_data(np.random.default_rng(0).normal(size=(3, 3)), [0, 1, 2])
    with pytest.raises(ValueError, match="must be 2-d"):
        check_expression_data(np.zeros(5))


def test_constant_gene_is_exactly_constant():
    """numpy's mean of seven copies of 0.1 * 3 misses them by one ulp, so their sd came out 5.6e-17 instead of 0:
    GeneStandardizer did not see the gene as constant and gave it z-scores of +-1."""
    c = 0.1 * 3
    X = np.c_[np.full(7, c), np.arange(7.0)]
    assert np.full(7, c).std() > 0  # the numpy behaviour this guards against
    with pytest.raises(ValueError, match="1 gene\\(s\\) are constant"):
        GeneStandardizer(on_constant="error").fit(X)
    np.testing.assert_array_equal(GeneStandardizer(on_constant="zero").fit_transform(X)[:, 0], 0.0)
    with pytest.raises(ValueError, match="constant across genes"):
        SampleStandardizer().fit_transform(np.full((2, 7), c))
