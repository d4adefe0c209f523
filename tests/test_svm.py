"""genesel.svm and its solver genesel._core.smo: the numba SMO kernels against their naive twins, sklearn's SVC, a
primal QP, and the KKT conditions."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

from genesel._core import smo
from genesel.svm import KernelSVM, LinearSVM, dual_objective, kkt_violation, solve_svm_dual
from naive import svm as naive_svm


def _problem(n, d, seed, noise=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + noise * rng.normal(size=n) > 0, 1, -1)
    if len(np.unique(y)) < 2:
        y[0] = -y[0]
    return X, y


def _sk_alpha(model, n):
    a = np.zeros(n)
    a[model.support_] = np.abs(model.dual_coef_[0])
    return a


@pytest.fixture(scope="module")
def golub_subset(golub):
    ds = golub
    X = ds.X[ds.train_idx]
    X = np.log10(np.clip(X, 100, 16000))
    keep = np.ptp(X, axis=0) > 0
    X = X[:, keep][:, :500]
    X = (X - X.mean(0)) / X.std(0)
    return X, ds.y[ds.train_idx]


# ---------------------------------------------------------------- numba kernels vs plain-Python twins


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0, np.inf])
def test_smo_kernel_matches_naive_twin(C):
    # d > n: K is positive definite, the dual strictly convex, so alpha is unique (paths may differ by rounding)
    X, y = _problem(25, 40, seed=3, noise=0.3 if np.isfinite(C) else 0.0)
    y = y.astype(float)
    K = X @ X.T
    alpha0 = np.zeros(len(y))
    G0 = smo.gradient(K, y, alpha0)
    np.testing.assert_allclose(G0, naive_svm.gradient(K, y, alpha0))
    a_fast = alpha0.copy()
    G_fast = G0.copy()
    it, gap = smo.smo(K, y, C, a_fast, G_fast, 1e-10, 100_000)
    a_slow, G_slow, it_slow, gap_slow = naive_svm.smo(K, y, C, alpha0, 1e-10, 100_000)
    assert gap < 1e-10 and gap_slow < 1e-10
    assert abs(it - it_slow) <= 0.5 * it_slow  # same algorithm; near-ties may resolve differently by rounding
    np.testing.assert_allclose(a_fast, a_slow, atol=1e-7)
    np.testing.assert_allclose(G_fast, G_slow, atol=1e-7)
    assert smo.rho(y, C, a_fast, G_fast) == pytest.approx(naive_svm.rho(y, C, a_slow, G_slow), abs=1e-7)


@pytest.mark.parametrize("C,gene", [(3e-4, -1), (np.inf, -1), (0.05, 0), (np.inf, 0)])
def test_newton_step_matches_naive_twin_and_lands_on_optimum(C, gene):
    X, y = _problem(30, 2000, seed=12, noise=0.5)
    y = y.astype(float)
    K = X @ X.T
    opt = solve_svm_dual(K, y, C, tol=1e-12)["alpha"]
    # remove one gene (a noise gene: same active set; the informative gene 0: the active set may change) and
    # start from the old optimum, as RFE does
    K2 = K - np.outer(X[:, gene], X[:, gene])
    G = smo.gradient(K2, y, opt)
    a_fast = opt.copy()
    taken = smo.newton_step(K2, y, C, a_fast, G)
    a_slow, taken_slow = naive_svm.newton_step(K2, y, C, opt, smo.gradient(K2, y, opt))
    assert taken == taken_slow
    np.testing.assert_allclose(a_fast, a_slow, atol=1e-9)
    np.testing.assert_allclose(G, smo.gradient(K2, y, a_fast), atol=1e-8)  # incremental gradient is right
    ref = solve_svm_dual(K2, y, C, tol=1e-12)
    assert dual_objective(K2, y, a_fast) <= dual_objective(K2, y, opt) + 1e-12
    if gene == -1:  # same active set: the step lands on the optimum
        assert kkt_violation(K2, y, a_fast, C)[0] < 1e-10
        assert dual_objective(K2, y, a_fast) == pytest.approx(ref["objective"], rel=1e-10)


def test_gradient_kernel_nonzero_alpha():
    rng = np.random.default_rng(0)
    X, y = _problem(15, 4, seed=1)
    y = y.astype(float)
    K = X @ X.T
    alpha = rng.uniform(0, 1, size=15)
    np.testing.assert_allclose(smo.gradient(K, y, alpha), naive_svm.gradient(K, y, alpha))


# ---------------------------------------------------------------- agreement with sklearn.svm.SVC


@pytest.mark.parametrize("n,d,C", [(40, 200, 1.0), (60, 5, 0.1), (60, 5, 10.0), (100, 30, 1.0), (30, 1000, 1e3)])
def test_linear_svm_matches_sklearn_svc(n, d, C):
    X, y = _problem(n, d, seed=n + d)
    ours = LinearSVM(C=C, tol=1e-9).fit(X, y)
    ref = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
    K = X @ X.T
    obj_ref = dual_objective(K, np.where(y > 0, 1.0, -1.0), _sk_alpha(ref, n))
    assert ours.objective_ == pytest.approx(obj_ref, rel=1e-6)
    assert dual_objective(K, np.where(y > 0, 1.0, -1.0), ours.alpha_) == pytest.approx(ours.objective_, rel=1e-9)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    Xt = np.random.default_rng(1).normal(size=(50, d))
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    scale = np.abs(ref.decision_function(X)).max()
    np.testing.assert_allclose(ours.decision_function(Xt), ref.decision_function(Xt), atol=1e-4 * scale)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-4 * np.abs(ref.coef_).max())


def test_linear_svm_matches_sklearn_on_real_data(golub_subset):
    X, y = golub_subset
    for C in (0.001, 0.01, 100.0):
        ours = LinearSVM(C=C, tol=1e-9).fit(X, y)
        ref = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
        obj_ref = dual_objective(X @ X.T, y.astype(float), _sk_alpha(ref, len(y)))
        assert ours.objective_ == pytest.approx(obj_ref, rel=1e-6)
        np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
        assert ours.intercept_[0] == pytest.approx(ref.intercept_[0], abs=1e-4)


@pytest.mark.parametrize("kernel,params", [("poly", dict(degree=2, coef0=1.0)), ("rbf", dict(gamma=0.05)),
                                           ("rbf", {}), ("linear", {})])
def test_kernel_svm_matches_sklearn_svc(kernel, params):
    X, y = _problem(60, 8, seed=7)
    if kernel != "linear" and "gamma" not in params:
        # sklearn's gamma='scale' is 1 / (n_features X.var()); genesel's does not depend on the gene means
        # (test_rbf_gamma_scale_ignores_the_gene_means): compare the solvers at sklearn's value
        params = {**params, "gamma": 1.0 / (X.shape[1] * X.var())}
    ours = KernelSVM(kernel=kernel, C=2.0, tol=1e-9, **params).fit(X, y)
    ref = SVC(kernel=kernel, C=2.0, tol=1e-10, **params).fit(X, y)
    Xt = np.random.default_rng(2).normal(size=(40, 8))
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    np.testing.assert_allclose(ours.decision_function(Xt), ref.decision_function(Xt), atol=1e-5)


def test_labels_are_mapped_like_sklearn():
    X, y = _problem(40, 5, seed=11)
    labels = np.where(y > 0, "tumor", "normal")
    ours = LinearSVM(C=1.0).fit(X, labels)
    ref = SVC(kernel="linear", C=1.0, tol=1e-9).fit(X, labels)
    assert list(ours.classes_) == ["normal", "tumor"]
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert np.sign(ours.decision_function(X[:5])).tolist() == np.sign(ref.decision_function(X[:5])).tolist()


# ---------------------------------------------------------------- optimality conditions


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_kkt_conditions(C):
    X, y = _problem(50, 10, seed=5)
    m = LinearSVM(C=C, tol=1e-8).fit(X, y)
    a = m.alpha_
    yf = np.where(y > 0, 1.0, -1.0)
    gap, eq = kkt_violation(X @ X.T, yf, a, C)
    assert gap < 1e-8 and eq < 1e-10
    assert np.all(a >= 0) and np.all(a <= C)
    margin = yf * m.decision_function(X)
    free = (a > 0) & (a < C)
    assert free.any()
    np.testing.assert_allclose(margin[free], 1.0, atol=1e-6)
    assert np.all(margin[a == 0] >= 1 - 1e-6)
    assert np.all(margin[a == C] <= 1 + 1e-6)
    np.testing.assert_allclose(m.coef_[0], X.T @ (a * yf))


def test_hard_margin_matches_primal_qp():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 3))
    w_true = np.array([1.0, -2.0, 0.5])
    s = X @ w_true + 0.3
    keep = np.abs(s) > 0.4  # separable with a clear gap
    X, y = X[keep], np.where(s[keep] > 0, 1, -1)
    m = LinearSVM(C=np.inf, tol=1e-10).fit(X, y)
    # primal: min 1/2 |w|^2  s.t.  y (w.x + b) >= 1   (SLSQP, independent of the dual solver)
    cons = {"type": "ineq", "fun": lambda v: y * (X @ v[:3] + v[3]) - 1.0}
    res = minimize(lambda v: 0.5 * v[:3] @ v[:3], x0=np.r_[w_true * 3, 0.9], constraints=[cons], method="SLSQP",
                   options={"ftol": 1e-12, "maxiter": 500})
    assert res.success
    np.testing.assert_allclose(m.coef_[0], res.x[:3], rtol=1e-5, atol=1e-6)
    assert m.intercept_[0] == pytest.approx(res.x[3], abs=1e-5)
    margin = y * m.decision_function(X)
    assert margin.min() == pytest.approx(1.0, abs=1e-7)
    # the hard margin is the limit of large C
    big = LinearSVM(C=1e6, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(big.coef_, m.coef_, rtol=1e-6)


def test_warm_start_equals_cold_start():
    X, y = _problem(60, 40, seed=9)
    cold = LinearSVM(C=1.0, tol=1e-10).fit(X, y)
    yf = np.where(y > 0, 1.0, -1.0)
    # a different feasible point: the solution for another C, clipped into the box (still y^T a = 0)
    other = LinearSVM(C=0.5, tol=1e-10).fit(X[:, :20], y).alpha_
    warm = LinearSVM(C=1.0, tol=1e-10).fit(X, y, alpha0=other)
    assert warm.objective_ == pytest.approx(cold.objective_, rel=1e-9)
    np.testing.assert_allclose(warm.decision_function(X), cold.decision_function(X), atol=1e-6)
    # starting at the optimum costs no iteration
    again = LinearSVM(C=1.0, tol=1e-10).fit(X, y, alpha0=cold.alpha_)
    assert again.n_iter_ == 0
    np.testing.assert_allclose(again.alpha_, cold.alpha_)
    with pytest.raises(ValueError, match="not feasible"):
        LinearSVM(C=1.0).fit(X, y, alpha0=np.ones(60) * (yf > 0))


def test_warm_start_with_rounding_drift_is_repaired_and_a_real_violation_refused():
    # After millions of hard-margin SMO steps y^T a drifts from 0 by rounding; such a warm start must still be
    # accepted (and end at the cold-start optimum), while a point that is simply off the constraint is refused.
    X, y = _problem(60, 40, seed=9)
    yf = np.where(y > 0, 1.0, -1.0)
    cold = LinearSVM(C=10.0, tol=1e-10).fit(X, y)
    for sign in (+1.0, -1.0):
        drifted = cold.alpha_.copy()
        i = np.flatnonzero((drifted > 0) & (yf == sign))[0]
        drifted[i] *= 1.0 + 1e-7 * drifted.sum() / drifted[i]  # y^T a off by 1e-7 sum(a), > the 1e-8 exact check
        assert abs(drifted @ yf) > 1e-8 * drifted.sum()
        warm = LinearSVM(C=10.0, tol=1e-10).fit(X, y, alpha0=drifted)
        assert abs(warm.alpha_ @ yf) <= 1e-9 * warm.alpha_.sum()
        assert warm.objective_ == pytest.approx(cold.objective_, rel=1e-9)
        np.testing.assert_allclose(warm.decision_function(X), cold.decision_function(X), atol=1e-6)
    off = cold.alpha_.copy()
    off[np.flatnonzero(off > 0)[0]] *= 1.5
    with pytest.raises(ValueError, match="not feasible"):
        LinearSVM(C=10.0).fit(X, y, alpha0=off)


def test_solve_svm_dual_functional_api():
    X, y = _problem(30, 10, seed=2)
    K = X @ X.T
    res = solve_svm_dual(K, y, C=1.0, tol=1e-9)
    assert res["converged"]
    assert res["objective"] == pytest.approx(dual_objective(K, y, res["alpha"]))
    with pytest.raises(ValueError, match="-1, \\+1"):
        solve_svm_dual(K, (y > 0).astype(int), C=1.0)
    with pytest.raises(ValueError, match="C must be"):
        solve_svm_dual(K, y, C=0.0)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("Est", [LinearSVM, KernelSVM])
def test_bad_input_errors(Est):
    X, y = _problem(20, 5, seed=0)
    Xn = X.copy()
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Est().fit(Xn, y)
    with pytest.raises(ValueError, match="class"):
        Est().fit(X, np.ones(20))
    # three classes are no error since issue 38: one machine per class (tests/test_multiclass_linear.py)
    assert Est().fit(X, np.arange(20) % 3).decision_function(X).shape == (20, 3)
    with pytest.raises(ValueError, match=f"'C' parameter of {Est.__name__} must be a float in the range"):
        Est(C=-1.0).fit(X, y)
    with pytest.raises(ValueError):
        Est().fit(X, y[:-1])


# (the polynomial kernel is checked against SVC above; on the checks' unscaled random-label data its SMO needs
# ~0.6 million iterations, as LIBSVM's does, which is too slow for the suite)
# ---------------------------------------------------------------- units of X (issue 11)


def _separable(n=24, d=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.repeat([0, 1], n // 2)
    X[:, :3] += 2.0 * (2 * y[:, None] - 1)
    return X, y


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-8, 1e8, 1e200])
def test_scale_free_svms_give_the_same_model_at_any_scale(scale):
    """The hard-margin linear SVM and the RBF SVM with gamma='scale' do not depend on the units of X. Before,
    both predicted one class at 1e-300 / 1e200 (the Gram matrix underflowed or overflowed), silently."""
    X, y = _separable()
    Xt, _ = _separable(seed=1)
    for est in (LinearSVM(C=np.inf), KernelSVM(kernel="rbf", gamma="scale")):
        ref = est.fit(X, y).decision_function(Xt)
        got = est.fit(X * scale, y).decision_function(Xt * scale)
        np.testing.assert_allclose(got, ref, rtol=1e-7, atol=1e-9)
    coef = LinearSVM(C=np.inf).fit(X, y).coef_
    np.testing.assert_allclose(LinearSVM(C=np.inf).fit(X * scale, y).coef_ * scale, coef, rtol=1e-7)


def test_power_of_two_scaling_is_exact():
    """C is in the units of X: x -> a x with C -> C / a^2 is the same SVM. For a power of two, bit for bit."""
    X, y = _problem(30, 50, seed=4)
    a = LinearSVM(C=0.3).fit(X, y)
    b = LinearSVM(C=0.3 / 4.0**20).fit(X * 2.0**20, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X * 2.0**20))
    np.testing.assert_array_equal(a.alpha_, b.alpha_ * 4.0**20)
    c = LinearSVM(C=0.3 * 1e200).fit(X * 1e-100, y)  # not a power of two: equal to rounding
    np.testing.assert_allclose(c.decision_function(X * 1e-100), a.decision_function(X), rtol=1e-8, atol=1e-10)


def test_negligible_C_is_refused_with_the_remedy():
    """C=1 on data scaled by 1e-300 (or 1e-8) makes every sample a bounded support vector whose decision values
    are rounding noise. Before: a silent constant predictor (1e-300) or random predictions."""
    X, y = _separable()
    with pytest.raises(ValueError, match=r"C=1 is negligible at the scale of X.*raise C or standardise"):
        LinearSVM().fit(X * 1e-300, y)
    with pytest.raises(ValueError, match=r"do not vary across the training samples.*raise C"):
        LinearSVM().fit(X * 1e-8, y)
    with pytest.raises(ValueError, match="negligible"):
        KernelSVM(kernel="linear").fit(X * 1e-300, y)
    with pytest.raises(ValueError, match="every one of the 3 gene.*constant in the training data"):
        LinearSVM().fit(np.ones((6, 3)), [0, 1, 0, 1, 0, 1])


def test_one_class_model_warns():
    """A small C against unbalanced classes leaves the bias alone: the SVM predicts the majority class for every
    sample, which is now said (DegenerateModelWarning naming C and the remedy)."""
    from genesel._core.validation import DegenerateModelWarning

    X, y = _separable()
    keep = np.r_[np.flatnonzero(y == 0), np.flatnonzero(y == 1)[:3]]
    X, y = X[keep], y[keep]
    with pytest.warns(DegenerateModelWarning, match=r"predicts 0 for every training sample.*raise C"):
        LinearSVM(C=1e-6).fit(X, y)


def test_rbf_gamma_scale_ignores_the_gene_means():
    """gamma='scale' is 1 / (sum of gene variances): scikit-learn's 1 / (n_features X.var()) on centred genes, but
    unlike it not inflated by differences between gene means, which made the kernel flat and the model the
    majority rule on uncentred data (the property test found it)."""
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(8), np.ones(4)]
    X = rng.normal(size=(12, 4))
    X[:, 0] += 2 * (2 * y - 1)
    Xc = X - X.mean(0)
    sk = SVC(kernel="rbf", gamma="scale", tol=1e-10).fit(Xc, y)
    ours = KernelSVM(gamma="scale", tol=1e-10).fit(Xc, y)
    assert ours._gamma_ == pytest.approx(1.0 / (Xc.shape[1] * Xc.var()))
    np.testing.assert_allclose(ours.decision_function(Xc), sk.decision_function(Xc), atol=1e-6)
    shifted = X + np.array([0.0, 1e4, 2e4, 3e4])  # gene means far apart
    got = KernelSVM(gamma="scale", tol=1e-10).fit(shifted, y)
    np.testing.assert_allclose(got.decision_function(shifted), ours.decision_function(Xc), atol=1e-6)


def test_flat_rbf_kernel_is_named():
    """A gamma far too small makes the RBF kernel flat; the one-class warning names gamma and the remedy."""
    from genesel._core.validation import DegenerateModelWarning

    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(8), np.ones(4)]
    X = rng.normal(size=(12, 4))
    X[:, 0] += 2 * (2 * y - 1)
    with pytest.warns(DegenerateModelWarning, match=r"RBF kernel is nearly flat.*larger gamma"):
        KernelSVM(gamma=1e-6).fit(X, y)


def test_a_constant_optimum_away_from_zero_is_a_warned_one_class_model_not_an_error():
    """One gene that is uninformative (same values in both classes), classes 2:4: the SVM optimum is w = 0 with
    the bias on the majority (scikit-learn agrees). Its predictions are well defined (decision values +1, not
    rounding noise around 0), so it is returned with a DegenerateModelWarning, not refused."""
    from sklearn.svm import SVC

    from genesel import DegenerateModelWarning

    X = np.array([[0.0], [1.0], [0.0], [1.0], [0.0], [1.0]])
    y = np.array([0, 0, 1, 1, 1, 1])
    with pytest.warns(DegenerateModelWarning, match="predicts 1 for every training sample"):
        m = LinearSVM(C=1.0, tol=1e-10).fit(X, y)
    ref = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, y)
    yf = np.where(y > 0, 1.0, -1.0)

    def primal(w, b):
        return 0.5 * float(w @ w) + np.maximum(0.0, 1.0 - yf * (X @ w + b)).sum()

    assert primal(m.coef_.ravel(), m.intercept_[0]) <= primal(ref.coef_.ravel(), ref.intercept_[0]) + 1e-8
    assert abs(m.coef_.ravel()[0]) < 1e-10
    np.testing.assert_array_equal(m.predict(X), np.ones(6, dtype=int))


def test_restore_equality_repairs_any_drift_of_a_solver_own_solution_inside_the_box():
    """SVMRFE repairs its own last-stage solution whatever the rounding drift (seen: 1e-5 of sum(a) after millions
    of hard-margin steps); the repair keeps the box and zeros and leaves y^T a at rounding level."""
    rng = np.random.default_rng(3)
    y = np.where(rng.random(40) < 0.4, 1.0, -1.0)
    C = 5.0
    for drift in (1e-5, 1e-3, 0.3):
        a = rng.uniform(0, 0.5, 40) * (rng.random(40) < 0.7)
        a[y > 0] *= a[y < 0].sum() / a[y > 0].sum() * (1 + drift)  # y^T a = drift * sum of the negatives
        assert a.max() <= C
        if drift > 1e-6:
            with pytest.raises(ValueError, match="not feasible"):
                smo.restore_equality(a.copy(), y)
        fixed = smo.restore_equality(a.copy(), y, max_drift=None)
        assert abs(fixed @ y) <= 1e-12 * fixed.sum()
        assert np.all(fixed >= 0) and np.all(fixed <= C)
        np.testing.assert_array_equal(fixed == 0, a == 0)
        np.testing.assert_array_equal(fixed[y < 0], a[y < 0])  # only the class with the excess moves


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_precomputed_kernel_matches_sklearn_and_the_linear_svm(C):
    """kernel='precomputed' on K = X X^T / d is SVC(kernel='precomputed') on the same matrix, and the linear SVM on
    X with C / d (scaling x by a and C by 1/a^2 leaves the decision function unchanged)."""
    X, y = _problem(40, 30, 7)
    Xt = np.random.default_rng(8).normal(size=(15, 30))
    d = X.shape[1]
    K, Kt = X @ X.T / d, Xt @ X.T / d
    pre = KernelSVM(kernel="precomputed", C=C, tol=1e-10).fit(K, y)
    ref = SVC(kernel="precomputed", C=C, tol=1e-10).fit(K, y)
    np.testing.assert_allclose(pre.decision_function(Kt), ref.decision_function(Kt), atol=1e-6)
    lin = LinearSVM(C=C / d, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(pre.decision_function(Kt), lin.decision_function(Xt), atol=1e-8)
    np.testing.assert_array_equal(pre.predict(Kt), lin.predict(Xt))
    # the decision values are K_test @ (alpha * y) + b over every training sample
    np.testing.assert_array_equal(pre.decision_function(Kt), Kt @ (pre.alpha_ * y) + pre.intercept_[0])


def test_precomputed_kernel_refuses_what_is_not_a_training_gram_matrix():
    X, y = _problem(20, 5, 1)
    with pytest.raises(ValueError, match="square Gram matrix"):
        KernelSVM(kernel="precomputed").fit(X, y)
    K = X @ X.T
    K[0, 1] += 1.0
    with pytest.raises(ValueError, match="not symmetric"):
        KernelSVM(kernel="precomputed").fit(K, y)
    m = KernelSVM(kernel="precomputed").fit(X @ X.T, y)
    with pytest.raises(ValueError, match="features"):
        m.decision_function(X)  # the test kernel must have one column per training sample


def test_precomputed_kernel_in_cross_validation():
    """The estimator says it is pairwise, so scikit-learn's CV slices the Gram matrix on both axes."""
    from sklearn.model_selection import cross_val_score

    X, y = _problem(45, 20, 3)
    a = cross_val_score(KernelSVM(kernel="precomputed", C=1.0), X @ X.T, y, cv=3)
    b = cross_val_score(LinearSVM(C=1.0), X, y, cv=3)
    np.testing.assert_allclose(a, b)


# ---------------------------------------------------------------- issue 25: offsets
@pytest.mark.parametrize("offset", [1e4, 1e8, 1e12])
def test_translation_invariant_svms_give_the_model_of_offset_0(offset):
    """An SVM with a bias (linear kernel) and the RBF kernel do not depend on where the origin lies; the data are
    centred when they sit more than ~1000 spreads from it. Before: at an offset of 1e8 sd the RBF SVM fell from 1.0
    to 0.6 test accuracy, silently (|x|^2 + |x'|^2 - 2 x.x' cancelled every digit of the distances)."""
    from sklearn.base import clone

    X, y = _separable()
    Xt, _ = _separable(seed=1)
    shift = offset * (1.0 + np.arange(X.shape[1]) / X.shape[1])
    for est in (LinearSVM(C=np.inf), LinearSVM(), KernelSVM(), KernelSVM(kernel="linear"), KernelSVM(gamma=0.05)):
        ref = clone(est).fit(X, y)
        got = clone(est).fit(X + shift, y)
        np.testing.assert_array_equal(got.predict(Xt + shift), ref.predict(Xt), err_msg=repr(est))
        np.testing.assert_allclose(got.decision_function(Xt + shift), ref.decision_function(Xt), rtol=1e-6,
                                   atol=1e-6 + 1e-14 * offset, err_msg=repr(est))
        if hasattr(ref, "coef_"):
            np.testing.assert_allclose(got.coef_, ref.coef_, rtol=1e-6, atol=1e-6 + 1e-14 * offset)
            # the intercept is in the units of X: the decision function is x . coef_ + intercept_
            np.testing.assert_allclose((Xt + shift) @ got.coef_.ravel() + got.intercept_[0],
                                       ref.decision_function(Xt), atol=1e-5 + 1e-14 * offset * np.abs(shift).max())


def test_polynomial_kernel_far_from_the_origin_names_the_offset():
    """The polynomial kernel is not translation-invariant: far from the origin it says so and names the remedy."""
    from genesel._core.validation import DegenerateModelWarning

    X, y = _separable()
    with pytest.warns(DegenerateModelWarning, match=r"polynomial kernel.*standard deviations from the origin.*centre"):
        KernelSVM(kernel="poly").fit(X + 1e8, y)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelSVM(kernel="poly").fit(X + 3.0, y)  # an ordinary offset: no message
