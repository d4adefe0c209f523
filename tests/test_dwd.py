"""DWD (Marron & Todd) in the span of the samples against a direct SLSQP solve of the original problem."""

import numpy as np
import pytest
from naive.dwd import dwd_direct

from genesel.dwd import DWD, default_dwd_C, dwd_loss
from problems import problem_p


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
    with pytest.raises(ValueError, match="'C' parameter of DWD must be a str among {'auto'} or a float"):
        DWD(C=-1).fit(X, y)
    with pytest.raises(ValueError, match="'kernel' parameter of DWD"):
        DWD(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="single class"):
        DWD().fit(X, np.ones(10))
    # three classes: one DWD per class against the rest (tests/test_multiclass_prob.py)
    assert DWD().fit(X, np.arange(10) % 3).decision_function(X).shape == (10, 3)
    Xn = X.copy()
    Xn[1, 1] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        DWD().fit(Xn, y)


# ---------------------------------------------------------------- units of X, degenerate end states (issue 11)


def _unbalanced_unit_variance(seed=0):
    """Unit-variance genes, 11 vs 9 samples: the case that ended at w = 0, b = 0 when scaled by <= 0.02."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=20, n_features=20, n_informative=2, n_redundant=0, random_state=seed)
    return (X - X.mean(0)) / X.std(0), y


@pytest.mark.parametrize("scale", [1e-300, 1e-8, 0.001, 0.01, 0.02, 1.0, 1e8, 1e200])
def test_auto_C_dwd_does_not_depend_on_the_units(scale):
    """DWD with C='auto' is scale-free: w is the same, b and the margins scale with X. Before: w = 0, b = 0 and
    one class predicted at <= 0.02, an error at 1e-300 and 1e200."""
    X, y = _unbalanced_unit_variance()
    ref = DWD().fit(X, y)
    got = DWD().fit(X * scale, y)
    np.testing.assert_allclose(got.coef_, ref.coef_, atol=1e-6)
    assert got.intercept_ / scale == pytest.approx(ref.intercept_, rel=1e-6, abs=1e-9)
    np.testing.assert_allclose(got.margins_ / scale, ref.margins_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(got.margins_, (2 * y - 1) * (X * scale @ got.coef_ + got.intercept_), rtol=1e-9,
                               atol=1e-12 * scale)
    assert np.linalg.norm(got.coef_) == pytest.approx(1.0)
    np.testing.assert_array_equal(got.predict(X * scale), ref.predict(X))
    assert (ref.predict(X) == y).mean() > 0.9


def test_damped_newton_fixes_the_zero_curvature_start():
    """The solver itself, on the problem in the units where it failed (every margin on the linear branch at z = 0,
    no curvature in b): it must reach the solution of the same problem in units where it worked."""
    from genesel.dwd import _solve_dwd, default_dwd_C

    X, y = _unbalanced_unit_variance()
    ypm = np.where(y == 1, 1.0, -1.0)
    sols = []
    for s in (1.0, 0.02):
        K = (X * s) @ (X * s).T
        ev, V = np.linalg.eigh(K)
        keep = ev > 1e-10 * ev.max()
        L = V[:, keep] * np.sqrt(ev[keep])
        u, b, mu = _solve_dwd(L, ypm, default_dwd_C(K, ypm))
        sols.append((V[:, keep] @ (u / np.sqrt(ev[keep])), b / s))
    (beta1, b1), (beta2, b2) = sols
    assert np.linalg.norm(beta2) > 0
    np.testing.assert_allclose(X.T @ (beta2 * 0.02), X.T @ beta1, atol=1e-6)  # the same w
    assert b2 == pytest.approx(b1, rel=1e-6)


def test_coinciding_classes_are_refused():
    X = np.ones((6, 3))
    with pytest.raises(ValueError, match="every one of the 3 gene"):
        DWD().fit(X, [0, 1, 0, 1, 0, 1])
    X[5] = 2.0  # most samples of the two classes coincide
    with pytest.raises(ValueError, match="median distance 0"):
        DWD().fit(X, [0, 1, 0, 1, 0, 1])


# ---------------------------------------------------------------- issue 25: offsets


@pytest.mark.parametrize("offset", [1e4, 1e8, 1e12])
@pytest.mark.parametrize("kw", [{}, {"kernel": "rbf", "gamma": 0.01}])
def test_an_offset_gives_the_model_of_offset_0(offset, kw):
    """DWD with its bias (and the RBF kernel) is translation-invariant; data far from the origin are centred before
    the Gram matrix. Before: at 1e4 sd a one-class model whose warning blamed class overlap."""
    import warnings

    X, y, Xt = problem_p(test=True)
    shift = offset * (1.0 + np.arange(30) / 30)
    ref = DWD(**kw).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = DWD(**kw).fit(X + shift, y)
    np.testing.assert_array_equal(got.predict(Xt + shift), ref.predict(Xt))
    tol = 1e-6 + 1e-13 * offset
    np.testing.assert_allclose(got.decision_function(Xt + shift), ref.decision_function(Xt), rtol=1e-6, atol=tol)
    np.testing.assert_allclose(got.margins_, ref.margins_, rtol=1e-6, atol=tol)
    if not kw:
        np.testing.assert_allclose(got.coef_, ref.coef_, rtol=1e-6, atol=tol)
        # intercept_ is that of x . coef_ in the units of X
        np.testing.assert_allclose((Xt + shift) @ got.coef_ + got.intercept_, ref.decision_function(Xt),
                                   atol=1e-4 + 1e-15 * offset * np.abs(shift).max())


def test_polynomial_kernel_far_from_the_origin_names_the_offset():
    from genesel._core.validation import DegenerateModelWarning

    X, y, _ = problem_p(test=True)
    with pytest.warns(DegenerateModelWarning, match=r"polynomial kernel.*standard deviations from the origin.*centre"):
        DWD(kernel="poly", gamma=1e-8, coef0=0.0, degree=2).fit(X + 1e4, y)
