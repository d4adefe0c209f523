"""K >= 3 classes in the probabilistic / kernel family (issue 38), against independent references.

* GP, multi-class Laplace (R&W §3.5, Alg. 3.3, 3.4, 5.2): the posterior mode against a direct BFGS maximisation of
  Ψ(f) = log p(y|f) − ½ fᵀK⁻¹f over all K·n latent values (dense block-diagonal prior), the log evidence against the
  dense formula (R&W Eq. 3.44 with |I + KW| computed directly), the evidence gradient against central finite
  differences, the predictive mean and covariance against the dense formulae, the averaged softmax against plain
  seeded Monte Carlo; two classes through the multi-class code equal the binary model with covariance 2K (f1 − f2 is
  a GP with covariance 2K and logistic likelihood; f1 + f2 integrates out exactly); the estimator against
  scikit-learn's one-vs-rest Laplace GPC on separated blobs.
* RVM and DWD (one against the rest): equal to scikit-learn's ``OneVsRestClassifier`` around the binary estimator.
* SMLR (multinomial): shapes, probabilities and the selector's ranking against scikit-learn's multinomial l1
  ``LogisticRegression`` at the matched penalty.
* GP-ARD selectors: the Kruskal-Wallis prefilter against ``scipy.stats.kruskal``; the one-vs-rest LOO forward path
  against brute-force leave-one-out with scikit-learn's linear ``SVC``; the fold masks stratified over K classes
  and, for two classes, the same as the old two-class loop; the selectors find the class-marking genes.
"""

import warnings

import numpy as np
import pytest
import scipy.linalg
import scipy.optimize
import scipy.special
import scipy.stats
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessClassifier as SkGPC
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

from certified_svm import certified_linear_svm

from genesel import DWD, GPARDFS, GPARDRFE, RVM, SMLR, GaussianProcessClassifier, RVMSelector, SMLRSelector
from genesel import gp
from genesel._core.resampling import resampling_masks, resolve_folds
from genesel._core.validation import DegenerateModelWarning
from genesel.gp_ard_select import kruskal_pvalues
from genesel.smlr import smlr_objective


def _marked(n_per=12, K=3, d=20, shift=2.5, seed=0):
    """K classes, gene c shifted up in class c (c < K), the other genes noise."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(K), n_per)
    X = rng.normal(size=(y.size, d))
    for c in range(K):
        X[y == c, c] += shift
    return X, y


def _state(n=11, d=4, C=3, seed=0, v1=0.3, v2=0.05, ard=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    lab = np.arange(n) % C
    rng.shuffle(lab)
    Y = np.eye(C)[lab]
    lay = gp._Layout(d if ard else 1, v1 > 0, v2 > 0)
    theta = [np.log(1.7)] + list(np.log(rng.uniform(0.1, 1.0, d if ard else 1)))
    theta += [np.log(v1)] if v1 > 0 else []
    theta += [np.log(v2)] if v2 > 0 else []
    return X, Y, lay, np.array(theta)


def _dense_w(P):
    """W = diag(π) − ΠΠᵀ over the K·n latent values ordered class by class (R&W Eq. 3.38)."""
    C = P.shape[1]
    Pi = np.vstack([np.diag(P[:, c]) for c in range(C)])
    return np.diag(P.T.ravel()) - Pi @ Pi.T


# ------------------------------------------------------------------------------------------------- GP: the core
@pytest.mark.parametrize("C,v1,v2,ard", [(3, 0.3, 0.05, True), (4, 0.0, 0.0, True), (3, 1.0, 0.0, False),
                                         (5, 0.0, 0.2, True)])
def test_mc_laplace_mode_and_evidence_against_dense(C, v1, v2, ard):
    X, Y, lay, theta = _state(C=C, v1=v1, v2=v2, ard=ard, seed=C)
    K, _, _ = gp._kernel(theta, lay, X)
    log_z, _, st = gp._mc_laplace(K, Y, False)
    n = K.shape[0]
    Kb = scipy.linalg.block_diag(*[K] * C)
    Ki = np.linalg.inv(Kb)

    def neg_psi(fv):
        F = fv.reshape(C, n).T
        lse = scipy.special.logsumexp(F, axis=1)
        P = np.exp(F - lse[:, None])
        return -(np.sum(Y * F) - lse.sum() - 0.5 * fv @ Ki @ fv), -((Y - P).T.ravel() - Ki @ fv)

    res = scipy.optimize.minimize(neg_psi, np.zeros(C * n), jac=True, method="BFGS", options={"gtol": 1e-11})
    np.testing.assert_allclose(st["f"], res.x.reshape(C, n).T, atol=1e-6)
    F = st["f"]
    P = np.exp(F - scipy.special.logsumexp(F, axis=1, keepdims=True))
    fv = F.T.ravel()
    dense = (-0.5 * fv @ Ki @ fv + np.sum(Y * F) - scipy.special.logsumexp(F, axis=1).sum()
             - 0.5 * np.linalg.slogdet(np.eye(C * n) + Kb @ _dense_w(P))[1])
    assert log_z == pytest.approx(dense, abs=1e-9)
    # the latent means of a sample sum to 0 at the mode (Σ_c (y_c − π_c) = 0)
    np.testing.assert_allclose(F.sum(axis=1), 0.0, atol=1e-9)


@pytest.mark.parametrize("C,v1,v2,ard", [(3, 0.3, 0.05, True), (4, 0.0, 0.0, False), (3, 0.5, 0.1, True)])
def test_mc_evidence_gradient_against_finite_differences(C, v1, v2, ard):
    X, Y, lay, theta = _state(n=10, d=3, C=C, v1=v1, v2=v2, ard=ard, seed=10 + C)
    K, E, S = gp._kernel(theta, lay, X)
    _, M, _ = gp._mc_laplace(K, Y, True)
    grad = gp._theta_gradient(M, theta, lay, X, E, S)

    def lz(t):
        return gp._mc_laplace(gp._kernel(t, lay, X)[0], Y, False)[0]

    h = 1e-5
    fd = np.array([(lz(theta + e) - lz(theta - e)) / (2 * h) for e in np.eye(theta.size) * h])
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("C,spread", [(3, 1.0), (4, 12.0)])  # spread 12: class probabilities down to ~1e-10
def test_mc_factors_are_the_dense_inverses(C, spread):
    """E_c = D_c½ (I + D_c½ K D_c½)⁻¹ D_c½ is (K + D_c⁻¹)⁻¹ when every π_ic > 0 (R&W §3.5), exactly symmetric; L_c
    and the factor of Σ_c E_c reproduce their matrices. Against numpy's dense inverse and products."""
    X, _, lay, theta = _state(n=25, d=4, C=C, seed=20 + C)
    K, _, _ = gp._kernel(theta, lay, X)
    F = np.random.default_rng(C).normal(scale=spread, size=(K.shape[0], C))
    _, P = gp._softmax(F)
    Ls, Es, Msum = gp._mc_factors(K, P)
    for c in range(C):
        sd = np.sqrt(P[:, c])
        np.testing.assert_allclose(Ls[c] @ Ls[c].T, np.eye(K.shape[0]) + sd[:, None] * K * sd[None, :],
                                   rtol=1e-12, atol=1e-13)
        assert np.array_equal(Es[c], Es[c].T)
        dense = np.linalg.inv(K + np.diag(1.0 / P[:, c]))
        np.testing.assert_allclose(Es[c], dense, rtol=1e-8, atol=1e-12 * np.abs(dense).max())
    np.testing.assert_allclose(Msum @ Msum.T, np.sum(Es, axis=0), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("C", [3, 4])
def test_mc_gradient_matrix_against_finite_differences_in_random_directions(C):
    """d log q / dK = M along arbitrary symmetric perturbations of the shared K (not only the hyper-parameters'
    directions): Σ_ij M_ij Δ_ij against central differences of the evidence at K ± hΔ."""
    X, Y, lay, theta = _state(n=14, d=3, C=C, seed=30 + C)
    K, _, _ = gp._kernel(theta, lay, X)
    _, M, _ = gp._mc_laplace(K, Y, True)
    rng = np.random.default_rng(C)
    h = 1e-5
    for _ in range(4):
        A = rng.normal(size=K.shape)
        D = 0.1 * (A + A.T)
        fd = (gp._mc_laplace(K + h * D, Y, False)[0] - gp._mc_laplace(K - h * D, Y, False)[0]) / (2 * h)
        assert np.sum(M * D) == pytest.approx(fd, rel=1e-6, abs=1e-8)


def test_two_classes_through_the_multiclass_code_are_the_binary_model_with_twice_the_covariance():
    """f1 − f2 ~ GP(0, 2K) with the logistic likelihood, f1 + f2 independent of the labels: the multi-class Laplace
    evidence on two classes is the binary Laplace evidence with covariance 2K, the mode's difference is the binary
    mode, and the gradient matrix M of the shared K is twice the binary one of 2K (d log Z / dθ = Σ M ∂K)."""
    X, Y, lay, theta = _state(n=13, d=3, C=2, seed=4)
    K, _, _ = gp._kernel(theta, lay, X)
    log_z, M, st = gp._mc_laplace(K, Y, True)
    y = np.where(Y[:, 1] > 0, 1.0, -1.0)
    log_zb, Mb, stb = gp._laplace(2.0 * K, y, "logistic", True)
    assert log_z == pytest.approx(log_zb, abs=1e-10)
    np.testing.assert_allclose(st["f"][:, 1] - st["f"][:, 0], stb["f"], atol=1e-8)
    np.testing.assert_allclose(M, 2.0 * Mb, atol=1e-9)


def test_mc_predictive_distribution_against_dense_and_monte_carlo():
    X, Y, lay, theta = _state(n=12, d=3, C=3, seed=7)
    K, _, _ = gp._kernel(theta, lay, X)
    _, _, st = gp._mc_laplace(K, Y, False)
    v0, l, v1, v2 = lay.unpack(theta)
    Xt = np.random.default_rng(8).normal(size=(4, 3))
    Ks = v0 * np.exp(-0.5 * gp._scaled_sqdist(Xt, X, l)) + v1
    mean, cov = gp._mc_predict(Ks, v0 + v1 + v2, st["grad"], st["E"], st["M"])
    C, _n = 3, K.shape[0]
    F = st["f"]
    P = np.exp(F - scipy.special.logsumexp(F, axis=1, keepdims=True))
    Kb = scipy.linalg.block_diag(*[K] * C)
    post = np.linalg.inv(np.linalg.inv(Kb) + _dense_w(P))  # posterior covariance of the K·n latent values
    Kbi = np.linalg.inv(Kb)
    for t in range(Xt.shape[0]):
        kst = scipy.linalg.block_diag(*[Ks[t : t + 1].T] * C)  # (C·n) × C
        # predictive: E[f*] = k*ᵀ K⁻¹ f̂, cov = k** − k*ᵀ (K⁻¹ − K⁻¹ Σ K⁻¹) k*
        np.testing.assert_allclose(mean[t], kst.T @ Kbi @ F.T.ravel(), atol=1e-8)
        ref = (v0 + v1 + v2) * np.eye(C) - kst.T @ (Kbi - Kbi @ post @ Kbi) @ kst
        np.testing.assert_allclose(cov[t], ref, atol=1e-8)
    p = np.exp(gp._mc_log_proba(mean, cov))
    rng = np.random.default_rng(0)
    for t in range(Xt.shape[0]):
        f = rng.multivariate_normal(mean[t], cov[t], size=400_000)
        mc = np.mean(np.exp(f - scipy.special.logsumexp(f, axis=1, keepdims=True)), axis=0)
        np.testing.assert_allclose(p[t], mc, atol=3e-3)


# --------------------------------------------------------------------------------------------- GP: the estimator
def test_gp_three_classes_follow_sklearns_conventions_and_agree_with_its_one_vs_rest_gpc():
    X, y = _marked(n_per=15, K=3, d=4, shift=3.0, seed=1)
    Xt, yt = _marked(n_per=10, K=3, d=4, shift=3.0, seed=2)
    labels = np.array(["b", "c", "a"])[y]
    ours = GaussianProcessClassifier(random_state=0).fit(X, labels)
    assert ours.classes_.tolist() == ["a", "b", "c"] and ours.optimizer_converged_
    P = ours.predict_proba(Xt)
    D = ours.decision_function(Xt)
    assert P.shape == D.shape == (30, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(D, np.log(P), atol=1e-12)
    np.testing.assert_array_equal(ours.predict(Xt), ours.classes_[np.argmax(P, axis=1)])
    mean, cov = ours.predict_latent(Xt)
    assert mean.shape == (30, 3) and cov.shape == (30, 3, 3)
    assert ours.relevances_.shape == (4,) and ours.latent_mean_train_.shape == (45, 3)
    sk = SkGPC(random_state=0).fit(X, labels)  # one-vs-rest Laplace, its own RBF kernel
    truth = np.array(["b", "c", "a"])[yt]
    assert np.mean(ours.predict(Xt) == truth) >= 0.9 and np.mean(sk.predict(Xt) == truth) >= 0.9
    assert np.mean(ours.predict(Xt) == sk.predict(Xt)) >= 0.9


def test_gp_ard_relevances_over_all_classes_find_every_class_marker():
    X, y = _marked(n_per=12, K=4, d=24, shift=3.0, seed=3)
    est = GaussianProcessClassifier(n_restarts=0, random_state=0).fit(X, y)
    assert set(np.argsort(-est.relevances_)[:4].tolist()) == {0, 1, 2, 3}


def test_gp_multiclass_fits_are_reproducible_and_warn_when_flat():
    X, y = _marked(n_per=8, K=3, d=6, shift=2.0, seed=5)
    a = GaussianProcessClassifier(random_state=2).fit(X, y)
    b = GaussianProcessClassifier(random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.theta_, b.theta_)
    rng = np.random.default_rng(2)  # two noise genes, labels unrelated to them: the evidence stays at coin flips'
    with pytest.warns(DegenerateModelWarning, match=r"the fitted model is flat.*coin flips: -n log K = -32\.9"):
        GaussianProcessClassifier(n_restarts=0, random_state=0).fit(rng.normal(size=(30, 2)), np.arange(30) % 3)


@pytest.mark.parametrize("K", [2, 3])
def test_gp_fits_on_noise_warn_by_their_evidence(K):
    """Labels unrelated to X: whatever maximum the evidence settles on (flat, flat in effect, or just above with one
    short length scale), every seeded fit warns, and the evidence it reports is within 1 nat of coin flips' -n log K
    (computed here); labels carried by a gene give no such warning."""
    import math

    for seed in range(6):
        rng = np.random.default_rng(seed)
        X, y = rng.normal(size=(30, 2)), np.arange(30) % K
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            gp = GaussianProcessClassifier(n_restarts=0, random_state=0).fit(X, y)
        if gp.log_marginal_likelihood_ + 30 * math.log(K) < 1.0:
            assert any(issubclass(x.category, DegenerateModelWarning) and "flat" in str(x.message) for x in w), seed
    X, y = _marked(n_per=10, K=K, d=4, shift=3.0, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateModelWarning)
        gp = GaussianProcessClassifier(n_restarts=0, random_state=0).fit(X, y)
    assert gp.log_marginal_likelihood_ + y.size * math.log(K) > 1.0


# --------------------------------------------------------------------------------------------- RVM, DWD: one-vs-rest
@pytest.mark.parametrize("kernel", [None, "linear", "rbf"])
def test_rvm_one_vs_rest_equals_sklearns_wrapper(kernel):
    X, y = _marked(n_per=10, K=3, d=8, shift=2.0, seed=6)
    Xt, _ = _marked(n_per=5, K=3, d=8, shift=2.0, seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (DegenerateModelWarning, ConvergenceWarning))
        ours = RVM(kernel=kernel).fit(X, y)
        ref = OneVsRestClassifier(RVM(kernel=kernel)).fit(X, y)
    assert ours.decision_function(Xt).shape == (15, 3)
    np.testing.assert_allclose(ours.decision_function(Xt), ref.decision_function(Xt), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    if kernel is None:
        coef = np.array([e.coef_ for e in ref.estimators_])
        np.testing.assert_array_equal(ours.coef_, coef)
        np.testing.assert_array_equal(ours.support_, np.any(coef != 0, axis=0))


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_dwd_one_vs_rest_equals_sklearns_wrapper(kernel):
    X, y = _marked(n_per=10, K=4, d=8, shift=2.0, seed=8)
    Xt, yt = _marked(n_per=5, K=4, d=8, shift=2.0, seed=9)
    ours = DWD(kernel=kernel).fit(X, y)
    ref = OneVsRestClassifier(DWD(kernel=kernel)).fit(X, y)
    D = ours.decision_function(Xt)
    assert D.shape == (20, 4)
    np.testing.assert_allclose(D, ref.decision_function(Xt), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    if kernel == "linear":  # as accurate as one-vs-rest linear SVMs on the same data
        svm = OneVsRestClassifier(SVC(kernel="linear")).fit(X, y)
        assert np.mean(ours.predict(Xt) == yt) >= np.mean(svm.predict(Xt) == yt) - 0.1
        assert ours.coef_.shape == (4, 8) and np.all(np.linalg.norm(ours.coef_, axis=1) <= 1 + 1e-9)


def test_rvm_selector_keeps_the_genes_of_every_class_model():
    X, y = _marked(n_per=12, K=3, d=30, shift=2.5, seed=10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (DegenerateModelWarning, ConvergenceWarning))
        sel = RVMSelector().fit(X, y)
        models = [RVM(kernel=None).fit(X, np.where(y == c, 1, -1)) for c in range(3)]
    coef = np.array([m.coef_ for m in models])
    np.testing.assert_array_equal(sel.weights_, coef)
    np.testing.assert_array_equal(sel.support_, np.any(coef != 0, axis=0))
    assert {0, 1, 2} <= set(np.flatnonzero(sel.support_).tolist())
    # ranked by the largest |weight| over the classes
    top = np.abs(coef).max(axis=0)
    assert np.all(np.diff(top[sel.feature_order_]) <= 0)


# -------------------------------------------------------------------------------------------------- SMLR multinomial
@pytest.mark.parametrize("m,lam", [(4, 1.0), (5, 0.6)])
def test_smlr_multinomial_matches_sklearn_and_follows_its_conventions(m, lam):
    X, y = _marked(n_per=10, K=m, d=12, shift=2.0, seed=m)
    ours = SMLR(lam=lam).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = LogisticRegression(C=1.0 / lam, l1_ratio=1.0, solver="saga", tol=1e-12, max_iter=200_000).fit(X, y)
    assert ours.converged_ and ours.classes_.tolist() == list(range(m))
    assert ours.coef_.shape == (m, 12) and ours.decision_function(X).shape == (X.shape[0], m)
    # the K weights of a gene are identified up to a common shift where K is even (the l1 penalty Σ_k |w_kj + c| is
    # flat in c between the two middle weights): equal up to that shift, at an objective no worse than sklearn's
    shift = ours.coef_ - sk.coef_
    np.testing.assert_allclose(np.ptp(shift, axis=0), 0.0, atol=1e-4)
    yi = np.unique(y, return_inverse=True)[1]
    ref = smlr_objective(X, yi, sk.coef_, sk.intercept_, lam)
    assert ours.objective_ <= ref + 1e-8 * abs(ref)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-5)
    np.testing.assert_array_equal(ours.predict(X), np.argmax(ours.decision_function(X), axis=1))


def test_smlr_selector_ranks_genes_by_the_largest_class_weight_of_the_multinomial_model():
    X, y = _marked(n_per=12, K=3, d=15, shift=2.5, seed=11)
    lam = 2.0
    sel = SMLRSelector(lam=lam, lam_scale="absolute").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = LogisticRegression(C=1.0 / lam, l1_ratio=1.0, solver="saga", tol=1e-12, max_iter=200_000).fit(X, y)
    assert sel.weights_.shape == (3, 15)
    np.testing.assert_array_equal(sel.support_, np.any(np.abs(sk.coef_) > 1e-6, axis=0))
    score = np.abs(sk.coef_).max(axis=0)
    kept = int(sel.support_.sum())
    np.testing.assert_array_equal(sel.feature_order_[:kept], np.argsort(-score, kind="stable")[:kept])
    assert {0, 1, 2} <= set(np.flatnonzero(sel.support_).tolist())


# ------------------------------------------------------------------------------------------------ GP-ARD selectors
def test_kruskal_pvalues_equal_scipy_with_ties():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2, 3], [5, 7, 6, 4])
    X = rng.normal(size=(22, 9))
    X[:, 1] = np.round(X[:, 1])  # ties
    X[:, 2] += y
    X[:, 3] = 1.0  # constant
    p = kruskal_pvalues(X, y)
    for j in range(9):
        if j == 3:
            assert p[j] == 1.0
            continue
        ref = scipy.stats.kruskal(*[X[y == c, j] for c in range(4)]).pvalue
        assert p[j] == pytest.approx(ref, rel=1e-10)


def test_fold_masks_are_stratified_over_k_classes_and_unchanged_for_two():
    y = np.repeat([0, 1, 2], [7, 9, 5])
    masks = resampling_masks(y, 5, 1, np.random.RandomState(0))
    assert masks.shape == (5, 21)
    for c in range(3):  # every class dealt evenly over the left-out folds
        left_out = (~masks[:, y == c]).sum(axis=1)
        assert left_out.max() - left_out.min() <= 1 and left_out.sum() == np.sum(y == c)
    assert resolve_folds("X", "auto", y) == 5
    # two classes: the two-class loop of before (class -1, then +1)
    y2 = np.where(np.arange(17) % 3 == 0, 1, -1)
    rng_a, rng_b = np.random.RandomState(3), np.random.RandomState(3)
    fold = np.empty(17, dtype=np.int64)
    offset = 0
    for c in (-1, 1):
        members = rng_b.permutation(np.flatnonzero(y2 == c))
        fold[members] = (np.arange(members.size) + offset) % 4
        offset += members.size
    np.testing.assert_array_equal(resampling_masks(y2, 4, 1, rng_a), np.array([fold != f for f in range(4)]))


def test_the_certified_svm_reference_on_closed_forms_and_against_libsvm():
    """The reference of the next test (tests/certified_svm.py): two points at +-1 have w = min(2C, 1) and, below the
    hard margin, every bias in [-(1 - 2C), 1 - 2C] optimal (closed form); on a problem whose bias is unique it holds
    libsvm's decision values."""
    for C, b_range in ((10.0, 0.0), (0.25, 0.5), (0.1, 0.8)):
        ref = certified_linear_svm(np.array([[1.0], [-1.0]]), np.array([1, -1]), C)
        assert ref.w[0] == pytest.approx(min(2 * C, 1.0), abs=1e-7)
        assert (ref.b_low, ref.b_high) == (pytest.approx(-b_range, abs=1e-6), pytest.approx(b_range, abs=1e-6))
    X, y = _marked(n_per=6, K=2, d=3, shift=1.5, seed=3)
    y = np.where(y == 1, 1, -1)
    svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    assert np.any(np.abs(svc.dual_coef_) < 1.0 - 1e-6)  # a free support vector: the bias is unique
    ref = certified_linear_svm(X, y, 1.0)
    assert ref.b_high - ref.b_low < 1e-5
    for x, d in zip(X, svc.decision_function(X)):
        low, high = ref.decision_interval(x)
        assert low - 1e-5 <= d <= high + 1e-5


def test_one_vs_rest_loo_forward_path_against_a_certified_svm():
    """The K-class LOO forward path (one-vs-rest linear SVMs, K binary incremental paths) against an exact reference:
    for every prefix, left-out sample and class, the SVM trained without that sample solved with a proof of
    optimality (tests/certified_svm.py). Each decision value of genesel lies in the interval that holds the exact
    value for every optimal bias (to 1e-5: genesel's SMO stops at a KKT tolerance of 1e-6); its LOO prediction is the
    reference's wherever the intervals decide the one-vs-rest argmax, so its LOO errors lie between the reference's
    sure errors and those plus the undecided samples (on the one-gene prefix the bias is not unique for some
    machines: 2 undecided samples). libsvm was not a sound reference here (its tolerance left decision values
    5e-3 apart where the bias is unique, and it picks one bias of an interval)."""
    X, y = _marked(n_per=6, K=3, d=5, shift=1.5, seed=12)
    sel = GPARDRFE(p=1, n_folds=2, n_restarts=0, random_state=0)
    sel._n_classes = 3
    sel._units(X)  # the data-relative units of the forward SVM (ordinary data: X itself, C = 1)
    order = np.array([2, 0, 4, 1, 3])
    path = sel._forward_multiclass(X, y, order, None, None)
    undecided_total = 0
    for k in range(1, 6):
        g = order[:k]
        sure_errors = undecided = 0
        for i in range(y.size):
            keep = np.arange(y.size) != i
            low, high = np.zeros(3), np.zeros(3)
            for c in range(3):
                ref = certified_linear_svm(X[np.ix_(keep, g)], np.where(y[keep] == c, 1, -1), 1.0)
                low[c], high[c] = ref.decision_interval(X[i, g])
                got = path.loo_decision[k - 1, i, c]
                assert low[c] - 1e-5 <= got <= high[c] + 1e-5, (k, i, c, got, low[c], high[c])
            decided = [c for c in range(3) if low[c] - 1e-5 > max(high[o] + 1e-5 for o in range(3) if o != c)]
            if decided:
                assert np.argmax(path.loo_decision[k - 1, i]) == decided[0], (k, i)
                sure_errors += int(decided[0] != y[i])
            else:
                undecided += 1
        assert sure_errors <= path.loo_errors[k - 1] <= sure_errors + undecided, (k, sure_errors, undecided)
        undecided_total += undecided
    assert undecided_total < 5  # the reference decides nearly every prediction: the comparison has teeth


@pytest.mark.parametrize("cls,kw", [(GPARDRFE, dict(p=2)), (GPARDFS, dict(alpha=0.01))])
def test_gp_ard_selectors_find_the_class_markers_of_three_classes(cls, kw):
    X, y = _marked(n_per=12, K=3, d=32, shift=2.5, seed=13)
    sel = cls(n_folds=3, n_restarts=0, random_state=0, **kw).fit(X, np.array(["x", "y", "z"])[y])
    assert sel.classes_.tolist() == ["x", "y", "z"]
    assert set(sel.feature_order_[:3].tolist()) == {0, 1, 2}
    assert {0, 1, 2} <= set(np.flatnonzero(sel.support_).tolist())
    assert sel.forward_path_.loo_decision.shape[1:] == (36, 3)
