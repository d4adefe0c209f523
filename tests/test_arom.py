"""genesel.arom: (PS-)l2-AROM against its plain-Python twin, a scikit-learn SVC loop, its fixed point, and the
estimator contract."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from genesel.arom import UNDERFLOW, L2AROM, _rescale, arom_path, check_prior
from genesel.svm import LinearSVM
from naive import arom as naive_arom
from problems import sparse_problem, problem_p


def _problem(n=24, d=40, seed=0, n_rel=4):
    """Separable-ish data: the label is the sign of a few genes plus noise; the other genes are noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, :n_rel] @ np.linspace(1.0, 0.5, n_rel) + 0.3 * rng.normal(size=n) > 0, 1, -1)
    return X, y


# ---------------------------------------------------------------- the numba update kernel against its twin


@pytest.mark.parametrize("unit", [1.0, 2.0**-600, 2.0**500])
@pytest.mark.parametrize("scale", [1e-3, 1.0, 50.0])
def test_rescale_kernel_matches_plain_python_update(scale, unit):
    rng = np.random.default_rng(int(scale * 1000))
    d = 300
    wbar = scale * unit * rng.normal(size=d) * np.exp(rng.normal(scale=6, size=d))  # over many orders of magnitude
    z = rng.normal(size=d)
    beta = rng.uniform(0.5, 3.0, size=d)
    xnorm = rng.uniform(0.5, 2.0, size=d)
    alive = rng.uniform(size=d) > 0.2
    z[~alive] = 0.0
    znew, v, gone, change = naive_arom._update(z, wbar, beta, xnorm, alive, UNDERFLOW, unit=unit)
    zk, ak, vk, ew = z.copy(), alive.copy(), np.zeros(d), np.zeros(d)
    m, change_k, n_left = _rescale(wbar, zk, beta, xnorm, ak, vk, ew, UNDERFLOW, unit)
    assert n_left == len(gone) > 0
    np.testing.assert_array_equal(ak, alive & ~np.isin(np.arange(d), gone))
    np.testing.assert_array_equal(ew[gone], np.abs(znew[gone]))
    znew[gone] = 0.0
    np.testing.assert_array_equal(zk, znew)
    np.testing.assert_array_equal(vk[alive], v[alive])
    assert change_k == change
    assert m == np.max(np.abs(wbar[alive] * beta[alive]))


# ---------------------------------------------------------------- the iteration against its twins


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("with_prior", [False, True])
def test_path_matches_plain_python_twin(seed, with_prior):
    X, y = _problem(seed=seed)
    beta = None
    if with_prior:
        beta = np.ones(X.shape[1])
        beta[[5, 6, 7]] = 3.0
        beta[[0]] = 0.5
    fast = arom_path(X, y, beta, C=1e3, tol=1e-7)
    slow = naive_arom.arom_path(X, y, beta, C=1e3, tol=1e-7)
    assert fast["converged"] and slow["converged"]
    assert fast["n_iter"] == slow["n_iter"]
    assert fast["n_active"] == slow["n_active"]  # same genes leave at the same iterations
    np.testing.assert_array_equal(fast["exit_iteration"], slow["exit_iteration"])
    np.testing.assert_allclose(fast["scaling"], slow["scalings"][-1], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(fast["coef"], slow["coef"], rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(
        fast["order"], naive_arom.feature_order(slow["scalings"][-1], slow["exit_iteration"], slow["exit_weight"]))


def test_sparsification_is_monotone_and_converges_to_few_genes():
    X, y = sparse_problem(m=40, f=200, n_rel=5, seed=3)
    sel = L2AROM().fit(X, y)
    path = sel.active_path_
    assert path[0] == X.shape[1]
    assert np.all(np.diff(path) <= 0), path
    assert sel.converged_
    assert 1 <= sel.n_active_ < 40  # at most about the number of support vectors
    # genes leave for good: the exit iterations agree with the path of active counts
    assert path.size == sel.n_iter_
    for k in range(path.size):  # before iteration k + 1: the genes that had not left after iterations 1..k
        assert np.sum((sel.exit_iteration_ < 0) | (sel.exit_iteration_ > k)) == path[k]


def test_same_order_as_a_scikit_learn_svc_loop():
    X, y = _problem(n=30, d=60, seed=4)
    sel = L2AROM(C=1e3, tol=1e-7).fit(X, y)
    ref = naive_arom.arom_path_svc(X, y, C=1e3, tol=1e-7)
    assert ref["converged"]
    np.testing.assert_array_equal(sel.exit_iteration_, ref["exit_iteration"])
    np.testing.assert_array_equal(sel.feature_order_, ref["order"])
    np.testing.assert_allclose(sel.scaling_, ref["scaling"], rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("with_prior", [False, True])
def test_fixed_point_svm_weights_are_proportional_to_one_over_prior(with_prior):
    """At convergence the SVM on X * w_K (active genes) has w_bar * beta the same for every gene (1 in the slides'
    unnormalised iteration; checked with LIBSVM), so one more step changes nothing."""
    X, y = sparse_problem(m=40, f=120, n_rel=5, seed=5)
    beta = np.ones(X.shape[1])
    if with_prior:
        beta[3:12] = 2.5
    sel = L2AROM(prior=beta if with_prior else None, tol=1e-9).fit(X, y)
    act = np.flatnonzero(sel.exit_iteration_ < 0)
    assert act.size >= 2
    Xs = X[:, act] * sel.scaling_[act]
    svc = SVC(kernel="linear", C=1e6, tol=1e-10).fit(Xs, y)
    r = svc.coef_[0] * beta[act]
    np.testing.assert_allclose(r, r[0], rtol=1e-5)
    # coef_ is the model in the original space: same decision values as the SVC on the rescaled data
    np.testing.assert_allclose(X @ sel.coef_ + sel.intercept_, svc.decision_function(Xs), rtol=1e-5, atol=1e-6)
    q = sel.scaling_[act] / (sel.coef_[act] * beta[act])
    np.testing.assert_allclose(q, q[0], rtol=1e-6)


@pytest.mark.parametrize("seed", [0, 3])
def test_normalisation_changes_nothing_on_separable_data(seed):
    """Dividing each iterate by m = max |w_bar beta| is invisible with a hard margin: the slides' literal iteration
    (no division) leaves the same genes at the same iterations and ends at the same model."""
    X, y = _problem(n=24, d=50, seed=seed)
    beta = np.ones(50)
    beta[10:15] = 2.0
    fast = arom_path(X, y, beta, C=np.inf, tol=1e-8)
    lit = naive_arom.arom_path(X, y, beta, C=np.inf, tol=1e-8, normalize=False)
    assert lit["converged"]
    np.testing.assert_array_equal(fast["exit_iteration"], lit["exit_iteration"])
    np.testing.assert_allclose(fast["coef"], lit["coef"], rtol=1e-5, atol=1e-10)
    act = fast["exit_iteration"] < 0
    np.testing.assert_allclose(lit["scalings"][-1][act], fast["coef"][act] * beta[act], rtol=1e-5)  # w = coef beta


def test_soft_margin_on_overlapping_classes_does_not_collapse():
    """Without the normalisation every weight of the soft-margin iteration shrinks to 0 on data that are not
    separable (the log penalty is unbounded below); with it the genes keep competing and a selection comes out."""
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(30, 3))
    y = np.where(np.arange(30) % 3 == 0, 1, -1)
    lit = naive_arom.arom_path(X, y, C=1e3, max_iter=6, normalize=False)
    assert np.max(np.abs(lit["scalings"][-1])) < 1e-30
    sel = L2AROM(n_features_to_select=2).fit(X, y)
    assert sel.support_.sum() == 2 and np.all(np.isfinite(sel.coef_))


def test_hard_margin_equals_large_C_on_separable_data():
    X, y = _problem(n=24, d=80, seed=6)
    a = L2AROM(C=np.inf).fit(X, y)
    b = L2AROM(C=1e3).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-7, atol=1e-12)


# ---------------------------------------------------------------- the prior


def test_prior_of_ones_is_plain_l2_arom_bit_for_bit():
    X, y = sparse_problem(m=40, f=150, seed=8)
    a = L2AROM(n_features_to_select=20).fit(X, y)
    b = L2AROM(n_features_to_select=20, prior=np.ones(X.shape[1])).fit(X, y)
    for attr in ("coef_", "scaling_", "feature_order_", "ranking_", "support_", "exit_iteration_"):
        np.testing.assert_array_equal(getattr(a, attr), getattr(b, attr), err_msg=attr)
    assert a.n_iter_ == b.n_iter_


def test_prior_scale_does_not_matter_with_a_hard_margin():
    """Only ratios of beta matter: beta and 10 beta give the same selection (the SVM rescales w_bar by 1/10)."""
    X, y = _problem(n=24, d=60, seed=9)
    beta = np.ones(60)
    beta[10:20] = 2.0
    a = L2AROM(prior=beta, C=np.inf).fit(X, y)
    b = L2AROM(prior=10 * beta, C=np.inf).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-12)


def test_strong_prior_keeps_weakly_relevant_genes():
    rng = np.random.default_rng(10)
    n, d = 40, 200
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + X[:, 1] + 0.2 * rng.normal(size=n) > 0, 1, -1)
    weak = np.array([5, 6, 7])
    X[:, weak] += 0.4 * y[:, None]  # weakly informative genes
    plain = L2AROM(n_features_to_select=5).fit(X, y)
    assert not set(weak) <= set(np.flatnonzero(plain.support_))
    beta = np.ones(d)
    beta[weak] = 10.0
    ps = L2AROM(n_features_to_select=5, prior=beta).fit(X, y)
    assert set(weak) <= set(np.flatnonzero(ps.support_))
    # and the prior does not rescue pure noise genes at the expense of the strongest gene
    assert ps.support_[0] or ps.support_[1]


# ---------------------------------------------------------------- signatures of exactly s genes


@pytest.mark.parametrize("s", [1, 3, 7, 25, 60, 199])
def test_signature_sizes_are_exact_and_nested(s):
    X, y = sparse_problem(m=40, f=200, seed=11)
    sel = L2AROM(n_features_to_select=s).fit(X, y)
    assert sel.support_.sum() == s == sel.n_features_
    assert sel.transform(X).shape == (40, s)
    np.testing.assert_array_equal(np.flatnonzero(sel.support_), sel.signature(s))
    assert np.all(sel.ranking_[sel.support_] == 1)
    assert sorted(sel.ranking_[~sel.support_].tolist()) == list(range(2, 200 - s + 2))
    if s > 1:
        assert set(sel.signature(s - 1)) < set(sel.signature(s))


def test_default_selects_the_active_genes_by_final_weight():
    X, y = sparse_problem(m=40, f=200, seed=12)
    sel = L2AROM().fit(X, y)
    act = np.flatnonzero(sel.exit_iteration_ < 0)
    assert sel.n_features_ == act.size == sel.n_active_
    np.testing.assert_array_equal(np.flatnonzero(sel.support_), act)
    top = sel.feature_order_[: act.size]
    assert np.all(np.diff(np.abs(sel.scaling_[top])) <= 0)
    # after the active genes: later exits first
    rest = sel.exit_iteration_[sel.feature_order_[act.size:]]
    assert np.all(np.diff(rest) <= 0)
    assert np.all(sel.coef_[sel.exit_iteration_ >= 0] == 0)


def test_float_signature_size_is_a_fraction():
    X, y = sparse_problem(m=40, f=200, seed=12)
    assert L2AROM(n_features_to_select=0.1).fit(X, y).n_features_ == 20


def test_seeded_runs_are_bit_identical():
    X, y = sparse_problem(m=40, f=300, seed=13)
    a = L2AROM(n_features_to_select=30).fit(X, y)
    b = L2AROM(n_features_to_select=30).fit(X.copy(), y.copy())
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)


def test_underflow_rule_drops_only_negligible_genes():
    """A gene leaves only when its rescaled column is below UNDERFLOW of the largest one."""
    X, y = sparse_problem(m=40, f=100, seed=14)
    res = arom_path(X, y)
    xnorm = np.linalg.norm(X, axis=0)
    act = res["exit_iteration"] < 0
    mags = np.abs(res["scaling"][act]) * xnorm[act]
    assert mags.min() >= UNDERFLOW * mags.max()


def test_constant_genes_leave_at_the_first_iteration():
    X, y = sparse_problem(m=40, f=50, seed=15)
    X[:, [3, 4]] = 0.0
    X[:, 9] = 2.5
    sel = L2AROM().fit(X, y)
    assert np.all(sel.exit_iteration_[[3, 4, 9]] == 1)
    assert set(sel.feature_order_[-3:]) == {3, 4, 9}


# ---------------------------------------------------------------- scikit-learn


def test_pipeline_and_cross_val_score():
    X, y = sparse_problem(m=60, f=200, seed=16)
    pipe = make_pipeline(L2AROM(n_features_to_select=10), LinearSVM(C=1.0))
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.shape == (3,) and scores.mean() > 0.7


# ---------------------------------------------------------------- bad input


def test_bad_prior_is_refused_with_a_clear_message():
    X, y = _problem(n=20, d=30)
    with pytest.raises(ValueError, match="X has 30 genes"):
        L2AROM(prior=np.ones(29)).fit(X, y)
    with pytest.raises(ValueError, match="entries <= 0"):
        L2AROM(prior=np.r_[-1.0, np.ones(29)]).fit(X, y)
    with pytest.raises(ValueError, match="entries <= 0"):
        L2AROM(prior=np.r_[0.0, np.ones(29)]).fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        L2AROM(prior=np.r_[np.nan, np.ones(29)]).fit(X, y)
    with pytest.raises(ValueError, match="shape"):
        check_prior(np.ones((30, 1)), 30)
    with pytest.raises(TypeError):
        check_prior(["a"] * 30, 30)


@pytest.mark.parametrize("kw,match", [(dict(C=0), "'C' parameter of L2AROM"), (dict(C=-1.0), "'C' parameter"),
                                      (dict(C=True), "'C' parameter"), (dict(tol=0), "'tol' parameter"),
                                      (dict(max_iter=0), "'max_iter' parameter"),
                                      (dict(max_iter=2.5), "'max_iter' parameter"),
                                      (dict(n_features_to_select=0), "'n_features_to_select' parameter"),
                                      (dict(n_features_to_select=1.5), "'n_features_to_select' parameter")])
def test_bad_parameters(kw, match):
    X, y = _problem(n=20, d=30)
    with pytest.raises(ValueError, match=match):
        L2AROM(**kw).fit(X, y)


def test_more_genes_than_exist_selects_all():
    X, y = _problem(n=20, d=30)
    assert L2AROM(n_features_to_select=31).fit(X, y).support_.all()


def test_bad_data():
    X, y = _problem(n=20, d=30)
    with pytest.raises(ValueError, match="single class"):
        L2AROM().fit(X, np.ones(20))
    # three classes are no error since issue 38 (tests/test_multiclass_linear.py)
    assert L2AROM().fit(X, np.arange(20) % 3).coef_.shape == (3, 30)
    with pytest.raises(ValueError, match="NaN"):
        Xn = X.copy()
        Xn[0, 0] = np.nan
        L2AROM().fit(Xn, y)
    with pytest.raises(ValueError, match="every one of the 5 gene"):
        L2AROM().fit(np.ones((20, 5)), y)


def test_iteration_cap_warns_and_reports():
    X, y = sparse_problem(m=40, f=200, seed=17)
    with pytest.warns(ConvergenceWarning, match="not converged"):
        sel = L2AROM(max_iter=2).fit(X, y)
    assert not sel.converged_ and sel.n_iter_ == 2


# ---------------------------------------------------------------- issue 25: every scale


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 2.0**-700, 1e-100, 1e100, 2.0**700, 1e200, 1e300])
def test_hard_margin_selects_the_genes_of_scale_1_at_any_scale(scale):
    """The hard-margin iteration is scale-free; it runs in data-relative units (an exact power of two per
    iteration), so data near 1e-300 or 1e300 give the genes, order and model of scale 1. Before: the Gram matrix
    overflowed at 1e200 ("the genes carry no information")."""
    import warnings

    X, y = problem_p()
    ref = L2AROM(n_features_to_select=5, C=np.inf).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = L2AROM(n_features_to_select=5, C=np.inf).fit(X * scale, y)
    np.testing.assert_array_equal(got.feature_order_[:5], ref.feature_order_[:5])
    assert got.n_active_ == ref.n_active_
    np.testing.assert_allclose(got.coef_ * scale, ref.coef_, rtol=1e-6, atol=1e-12 * np.abs(ref.coef_).max())
    if np.frexp(scale)[0] == 0.5:  # a power of two: the same elimination order throughout
        np.testing.assert_array_equal(got.feature_order_, ref.feature_order_)


def test_large_C_on_huge_data_is_the_hard_margin():
    """C=1e3 (in the units of X) on data near 1e200 is C * max |x|^2 ~ 1e403: the hard margin. Before: an overflow
    in the Gram matrix (RuntimeWarning) and "the genes carry no information ... e.g. all columns constant"."""
    import warnings

    X, y = problem_p()
    ref = L2AROM(n_features_to_select=3, C=np.inf).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = L2AROM(n_features_to_select=3).fit(X * 1e200, y)
    np.testing.assert_array_equal(got.support_, ref.support_)
    np.testing.assert_array_equal(np.flatnonzero(got.support_), [0, 1, 2])


@pytest.mark.parametrize("scale", [1e-200, 1e-300])
def test_negligible_C_is_a_named_error(scale):
    """C=1e3 on data near 1e-200: C * max |x|^2 underflows, every sample would be a bounded support vector. Before:
    500 iterations, a ConvergenceWarning and all 30 genes "selected"."""
    X, y = problem_p()
    with pytest.raises(ValueError, match=r"C=1000 is negligible at the scale of X.*raise C or standardise"):
        L2AROM().fit(X * scale, y)


def test_ordinary_data_give_the_numbers_of_the_literal_iteration():
    """Data-relative units change no bit on data of ordinary scale: the path equals the plain-Python twin's."""
    X, y = problem_p()
    yy = np.where(y == 1, 1.0, -1.0)
    for s in (1.0, 1e-30, 1e30):
        fast = arom_path(X * s, yy, None, C=np.inf, tol=1e-7)
        slow = naive_arom.arom_path(X * s, yy, None, C=np.inf, tol=1e-7)
        assert fast["n_active"] == slow["n_active"]
        np.testing.assert_array_equal(fast["exit_iteration"], slow["exit_iteration"])


@pytest.mark.parametrize("offset", [1e4, 1e8, 1e12])
def test_an_offset_gives_the_genes_of_offset_0(offset):
    """Every SVM of the iteration has a bias, so the iteration does not depend on the origin; data far from it are
    centred. Before: at 1e8 spreads a RuntimeWarning (invalid value in matmul) and other genes at 1e12."""
    import warnings

    X, y = problem_p()
    shift = offset * (1.0 + np.arange(30) / 30)
    for C in (np.inf, 1e3):
        ref = L2AROM(n_features_to_select=5, C=C).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = L2AROM(n_features_to_select=5, C=C).fit(X + shift, y)
        np.testing.assert_array_equal(got.feature_order_[:5], ref.feature_order_[:5])
        np.testing.assert_allclose(got.coef_, ref.coef_, rtol=1e-6, atol=1e-6 + 1e-13 * offset)
        # intercept_ is that of X @ coef_ in the units of X
        np.testing.assert_allclose((X + shift) @ got.coef_ + got.intercept_, X @ ref.coef_ + ref.intercept_,
                                   atol=1e-5 + 1e-15 * offset * shift.max())
