"""DWD (Marron & Todd) in the span of the samples against a direct SLSQP solve of the original problem."""

import numpy as np
import pytest
from naive.dwd import dwd_direct
from sklearn.utils.estimator_checks import parametrize_with_checks

from genesel.dwd import DWD, default_dwd_C, dwd_loss


def _data(n, d, sep, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.repeat([-1, 1], n // 2)
    X[:, 0] += sep * y
    return X, y


@pytest.mark.parametrize("n,d,sep,C", [(12, 3, 1.0, 0.5), (12, 3, 1.0, 5.0), (14, 3, 0.3, "auto"),
                                       (10, 25, 1.0, 5.0), (16, 4, 3.0, "auto")])
def test_matches_direct_constrained_solve(n, d, sep, C):
    X, y = _data(n, d, sep, seed=n + d)
    ours = DWD(C=C).fit(X, y)
    w, b, xi, obj = dwd_direct(X, y, ours.C_)
    assert ours.objective_ <= obj + 1e-7 * obj  # never worse than the general-purpose solver
    assert ours.objective_ == pytest.approx(obj, rel=1e-6)
    np.testing.assert_allclose(ours.coef_, w, atol=2e-5)
    assert ours.intercept_ == pytest.approx(b, abs=2e-5)
    assert np.linalg.norm(ours.coef_) <= 1 + 1e-9


def test_objective_is_the_original_one():
    # objective_ = Σ 1/r + C Σ ξ with the optimal slacks ξ_i = max(0, 1/√C − m_i)
    X, y = _data(20, 5, 0.5, seed=3)
    m = DWD(C=2.0).fit(X, y)
    marg = y * (X @ m.coef_ + m.intercept_)
    xi = np.maximum(0.0, 1 / np.sqrt(2.0) - marg)
    assert m.objective_ == pytest.approx(np.sum(1 / (marg + xi)) + 2.0 * xi.sum(), rel=1e-12)
    assert dwd_loss(np.array([10.0]), 1.0)[0] == pytest.approx(0.1)
    assert dwd_loss(np.array([0.0]), 4.0)[0] == pytest.approx(4.0)  # 2√C − C·0


def test_default_C_is_marron_todd():
    X, y = _data(10, 4, 1.0, seed=4)
    dists = [np.linalg.norm(a - b) for a in X[y > 0] for b in X[y < 0]]
    assert default_dwd_C(X @ X.T, y) == pytest.approx(100 / np.median(dists) ** 2)
    assert DWD().fit(X, y).C_ == pytest.approx(100 / np.median(dists) ** 2)


def test_many_genes_kernel_form_equals_primal_form():
    # with d >> n the span solution equals the solution found directly in gene space (d = 40 still tractable)
    X, y = _data(8, 40, 1.0, seed=7)
    ours = DWD(C=3.0).fit(X, y)
    w, b, xi, obj = dwd_direct(X, y, 3.0)
    assert ours.objective_ == pytest.approx(obj, rel=1e-6)
    pre = DWD(C=3.0, kernel="precomputed").fit(X @ X.T, y)
    np.testing.assert_allclose(pre.decision_function(X @ X.T), ours.decision_function(X), atol=1e-8)


def test_rbf_kernel_runs_and_separates():
    X, y = _data(30, 5, 2.0, seed=8)
    m = DWD(kernel="rbf", gamma=0.1).fit(X, y)
    assert (m.predict(X) == y).mean() > 0.9


def test_errors():
    X, y = _data(10, 3, 1.0, seed=0)
    with pytest.raises(ValueError, match="C must"):
        DWD(C=-1).fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        DWD(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="single class"):
        DWD().fit(X, np.ones(10))
    with pytest.raises(ValueError, match="classes"):
        DWD().fit(X, np.arange(10) % 3)
    Xn = X.copy()
    Xn[1, 1] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        DWD().fit(Xn, y)


@parametrize_with_checks([DWD(), DWD(C=1.0, kernel="rbf")])
def test_sklearn_contract(estimator, check):
    check(estimator)
