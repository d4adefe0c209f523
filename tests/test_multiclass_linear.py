"""Issue 38, more than two classes: the one-vs-rest SVMs (LinearSVM, KernelSVM), the rankings built on them (SVMRFE,
MSVMRFE, L2AROM), the forward selection, the filters (ANOVA F, Kruskal-Wallis, BSS/WSS, one-vs-rest
signal-to-noise), Golub's voting one against the rest and the K-class measures, each against an independent
reference: scikit-learn's SVC trained one class against the rest, scikit-learn's RFE over those SVCs, scipy's
statistics, scikit-learn's metrics, brute force, and the plain-Python twins of the numba kernels. Every test here
fails on the code before issue 38, where all of these refused three classes."""

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import RFE, SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from genesel import (ANOVASelector, FisherSelector, GolubVoting, KernelSVM, KruskalWallisSelector, L2AROM,
                     LinearSVM, MSVMRFE, SignalToNoiseSelector, SVMRFE, forward_path)
from genesel import filters as F
from genesel import metrics as M
from genesel._core.resampling import resampling_masks, resolve_folds
from genesel._core.multiclass import ovr_signs as one_vs_rest_labels
from genesel.arom import arom_path
from genesel.msvm_rfe import _msvm_path, msvm_criterion
from genesel.rfe import _rfe_path, elimination_schedule
from naive import arom as naive_arom
from naive import msvm_rfe as naive_msvm
from naive import svm as naive_svm


def markers(n_per_class=(8, 8, 8), d=30, shift=1.5, seed=0, labels=None):
    """K classes; gene k (k < K) is shifted up by ``shift`` in class k, the rest is noise."""
    rng = np.random.default_rng(seed)
    yi = np.repeat(np.arange(len(n_per_class)), n_per_class)
    X = rng.normal(size=(yi.size, d))
    X[np.arange(yi.size), yi] += shift
    y = yi if labels is None else np.asarray(labels)[yi]
    return X, y


class OvRSVC(ClassifierMixin, BaseEstimator):
    """The one-vs-rest SVM a user would write with scikit-learn (LIBSVM): one SVC per class, coef_ (K, d)."""

    def __init__(self, C=1.0, kernel="linear", gamma="scale"):
        self.C, self.kernel, self.gamma = C, kernel, gamma

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.machines_ = [SVC(kernel=self.kernel, C=self.C, gamma=self.gamma, tol=1e-10).fit(X, (y == c).astype(int))
                          for c in self.classes_]
        if self.kernel == "linear":
            self.coef_ = np.vstack([m.coef_ for m in self.machines_])
        return self

    def decision_function(self, X):
        return np.column_stack([m.decision_function(X) for m in self.machines_])


# -------------------------------------------------------------------------------------------- LinearSVM, KernelSVM
@pytest.mark.parametrize("kernel", ["linear-svm", "linear", "rbf", "poly"])
def test_svms_are_sklearns_svc_one_against_the_rest(kernel):
    X, y = markers((9, 11, 7, 8), d=12, seed=1, labels=["EWS", "BL", "NB", "RMS"])
    Xte, _ = markers((3, 3, 3, 3), d=12, seed=2)
    if kernel == "linear-svm":
        ours, ref = LinearSVM(C=0.7, tol=1e-10), OvRSVC(C=0.7)
    else:
        kw = dict(gamma=0.05) if kernel != "linear" else {}
        ours = KernelSVM(kernel=kernel, C=0.7, tol=1e-10, coef0=1.0 if kernel == "poly" else 0.0, **kw)
        ref = OvRSVC(C=0.7, kernel=kernel, **kw)
        if kernel == "poly":
            ref = _PolyOvR(C=0.7, gamma=0.05)
    ours.fit(X, y)
    ref.fit(X, y)
    D = ours.decision_function(Xte)
    assert D.shape == (12, 4) and ours.classes_.tolist() == ["BL", "EWS", "NB", "RMS"]
    np.testing.assert_allclose(D, ref.decision_function(Xte), atol=2e-6)
    np.testing.assert_array_equal(ours.predict(Xte), ours.classes_[np.argmax(D, axis=1)])
    assert ours.n_support_.sum() == ours.support_.size and ours.dual_coef_.shape == (4, ours.support_.size)
    if kernel in ("linear-svm", "linear"):
        np.testing.assert_allclose(ours.coef_, ref.coef_, atol=2e-6)
        np.testing.assert_allclose(Xte @ ours.coef_.T + ours.intercept_, D, atol=1e-10)


class _PolyOvR(OvRSVC):
    def __init__(self, C=1.0, gamma=0.05):
        self.C, self.gamma = C, gamma

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.machines_ = [SVC(kernel="poly", C=self.C, gamma=self.gamma, coef0=1.0, degree=3, tol=1e-10)
                          .fit(X, (y == c).astype(int)) for c in self.classes_]
        return self


def test_precomputed_kernel_and_warm_start_and_far_offset():
    X, y = markers((8, 8, 8), d=15, seed=3)
    Xte, _ = markers((2, 2, 2), d=15, seed=4)
    lin = LinearSVM(C=0.5, tol=1e-10).fit(X, y)
    pre = KernelSVM(kernel="precomputed", C=0.5, tol=1e-10).fit(X @ X.T, y)
    assert pre.dual_coef_full_.shape == (3, 24)
    np.testing.assert_allclose(pre.decision_function(Xte @ X.T), lin.decision_function(Xte), atol=1e-7)
    # a warm start per machine lands on the same machines
    warm = LinearSVM(C=0.5, tol=1e-10).fit(X, y, alpha0=lin.alpha_)
    np.testing.assert_allclose(warm.decision_function(Xte), lin.decision_function(Xte), atol=1e-8)
    assert np.sum(warm.n_iter_) <= np.sum(lin.n_iter_)
    with pytest.raises(ValueError, match="one warm start per class"):
        LinearSVM().fit(X, y, alpha0=lin.alpha_[0])
    # far from the origin the samples are centred (the same machines, without the cancellation)
    far = LinearSVM(C=0.5, tol=1e-10).fit(X + 1e9, y)
    np.testing.assert_allclose(far.decision_function(Xte + 1e9), lin.decision_function(Xte), atol=1e-5)


def test_two_classes_stay_binary():
    X, y = markers((10, 10), d=8, seed=5)
    for est in (LinearSVM(), KernelSVM(), GolubVoting(n_genes=4)):
        assert est.fit(X, y).decision_function(X).shape == (20,)
    assert LinearSVM().fit(X, y).coef_.shape == (1, 8)
    assert SVMRFE(n_features_to_select=2).fit(X, y).stage_alpha_.ndim == 2


# --------------------------------------------------------------------------------------------------------- SVMRFE
@pytest.mark.parametrize("step,k,d", [(1, 1, 20), (4, 3, 40), (0.1, 5, 40)])
def test_svmrfe_ranks_as_sklearns_rfe_over_one_vs_rest_svcs(step, k, d):
    """scikit-learn's RFE with coef_ of shape (K, d) ranks by the summed squared weights: the criterion of the
    multi-class SVMRFE, here computed by LIBSVM, fitted from scratch at every stage."""
    X, y = markers((10, 9, 11), d=d, shift=1.2, seed=6)
    ours = SVMRFE(n_features_to_select=k, step=step, C=0.5, tol=1e-10).fit(X, y)
    ref = RFE(OvRSVC(C=0.5), n_features_to_select=k, step=step).fit(X, y)
    np.testing.assert_array_equal(ours.ranking_, ref.ranking_)
    assert ours.coef_.shape == (3, k) and ours.intercept_.shape == (3,)


@pytest.mark.parametrize("C", [0.05, 1.0, np.inf])
@pytest.mark.parametrize("step", [1, 3])
def test_rfe_kernel_matches_its_twin_on_three_classes(C, step):
    X, y = markers((6, 6, 6), d=20 if step == 1 else 30, shift=2.5, seed=7)
    Y = one_vs_rest_labels(y, 3)
    Xt = np.ascontiguousarray(X.T)
    k = 18 if np.isinf(C) else 1  # the hard margin needs separable data at every stage
    sched = elimination_schedule(X.shape[1], k, step)
    fast = _rfe_path(Xt, Y, C, 1e-11, 1_000_000, sched)
    elim, rows, W = naive_svm.rfe_path(Xt, Y, C, 1e-11, 1_000_000, sched)
    np.testing.assert_array_equal(fast[0], elim)
    np.testing.assert_array_equal(fast[1], rows)
    np.testing.assert_allclose(fast[2], W, rtol=1e-6, atol=1e-9)
    assert fast[3].shape == (sched.size + 1, 3, 18)  # one dual solution per stage and machine


def test_rfe_lazy_argmin_skips_genes_with_k_machines():
    """The Cauchy-Schwarz bound on the norm of a gene's K weights lets the one-gene stages skip genes (every gene at
    every stage: 200 * 201 / 2 evaluations; about 12,000 here, 5,600 with two classes)."""
    X, y = markers((10, 10, 10, 10), d=200, seed=8)
    sel = SVMRFE(n_features_to_select=1, step=1, C=1.0).fit(X, y)
    assert sel.n_weight_evaluations_ < 0.7 * 200 * 201 / 2


def test_rfe_decision_path_is_the_refitted_one_vs_rest_svm():
    X, y = markers((9, 9, 9), d=32, seed=9, labels=["a", "b", "c"])
    Xte, _ = markers((3, 3, 3), d=32, seed=10)
    sel = SVMRFE(n_features_to_select=2, step="halving", C=1.0, tol=1e-10).fit(X, y)
    path = sel.decision_function_path(Xte)
    assert path.shape == (sel.subset_sizes_.size, 9, 3)
    for s, size in enumerate(sel.subset_sizes_):
        g = sel.subset(int(size))
        np.testing.assert_allclose(path[s], LinearSVM(C=1.0, tol=1e-10).fit(X[:, g], y).decision_function(Xte[:, g]),
                                   atol=1e-6)
    np.testing.assert_allclose(sel.estimator_.decision_function(Xte[:, sel.support_]), path[-1], atol=1e-6)
    pipe = make_pipeline(SVMRFE(n_features_to_select=3, step=0.2), LinearSVM()).fit(X, y)
    assert set(pipe.predict(Xte)) <= {"a", "b", "c"}


# -------------------------------------------------------------------------------------------------------- MSVMRFE
def test_resampling_is_stratified_over_every_class():
    y = np.repeat([0, 1, 2, 3], [5, 7, 4, 9])
    masks = resampling_masks(y, 4, 2, np.random.RandomState(0))
    assert masks.shape == (8, 25)
    for m in masks:  # every class in every training part, each sample left out once per repeat
        assert (np.bincount(y[m], minlength=4) >= np.array([5, 7, 4, 9]) - np.ceil(np.array([5, 7, 4, 9]) / 4)).all()
    assert (np.sum(~masks[:4], axis=0) == 1).all() and (np.sum(~masks[4:], axis=0) == 1).all()
    assert resolve_folds("x", "auto", y) == 4
    with pytest.raises(ValueError, match="smallest class"):
        resolve_folds("x", 5, y)


def test_msvm_criterion_over_classes_by_hand():
    rng = np.random.default_rng(11)
    W = rng.normal(size=(5, 3, 7))
    V = np.array([[sum(W[r, k, i] ** 2 for k in range(3)) for i in range(7)] for r in range(5)])
    V = V / V.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(msvm_criterion(W), V.mean(0) / V.std(0, ddof=1))


@pytest.mark.parametrize("C", [0.05, 1.0, 100.0])
@pytest.mark.parametrize("chunks", [False, True])
def test_msvm_path_matches_its_twin_on_three_classes(C, chunks):
    X, y = markers((7, 7, 7), d=12, shift=1.5, seed=12)
    Y = one_vs_rest_labels(y, 3)
    masks = resampling_masks(y, 3, 1, np.random.RandomState(1))
    n_remove = np.array([4, 2, 2, 1, 1, 1], dtype=np.int64) if chunks else np.ones(11, dtype=np.int64)
    elim, surv, _, gap = _msvm_path(np.ascontiguousarray(X.T), Y, masks, C, 1e-10, 10**7, n_remove)
    elim0, surv0 = naive_msvm.msvm_path(X, Y, masks, C, 1e-10, 10**7, n_remove.tolist() if chunks else None)
    assert gap < 1e-10
    assert elim.tolist() == elim0 and surv.tolist() == surv0


def test_msvmrfe_fits_four_classes_seeded_with_a_forward_selected_set():
    X, y = markers((8, 9, 7, 10), d=40, shift=3.0, seed=13, labels=["BL", "EWS", "NB", "RMS"])
    a = MSVMRFE(random_state=0).fit(X, y)
    b = MSVMRFE(random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    assert a.n_folds_ == 7  # the smallest class
    # the markers of EWS, NB and RMS first; BL's own marker is redundant for the SVMs (BL is the class low on the
    # other three markers), and SVM-RFE ranks it lower too
    assert set(a.feature_order_[:3].tolist()) == {1, 2, 3}
    assert a.forward_path_.loo_decision.shape == (40, 34, 4)
    assert a.forward_path_.summary()["accuracy"] == 100.0 and {1, 2, 3} <= set(np.flatnonzero(a.support_).tolist())


# --------------------------------------------------------------------------------------------------- forward_path
def test_forward_path_is_the_one_vs_rest_svm_refitted_without_each_sample():
    X, y = markers((6, 5, 7), d=8, shift=1.0, seed=14, labels=["x", "y", "z"])
    Xte, yte = markers((3, 3, 3), d=8, shift=1.0, seed=15, labels=["x", "y", "z"])
    order = np.array([3, 0, 2, 1, 5])
    path = forward_path(X, y, order, X_test=Xte, y_test=yte, C=0.5, tol=1e-10)
    assert path.loo_decision.shape == (5, 18, 3) and path.test_decision.shape == (5, 9, 3)
    for k in range(1, 6):
        g = order[:k]
        full = LinearSVM(C=0.5, tol=1e-10).fit(X[:, g], y)
        np.testing.assert_allclose(path.test_decision[k - 1], full.decision_function(Xte[:, g]), atol=1e-6)
        assert path.test_errors[k - 1] == np.sum(full.predict(Xte[:, g]) != yte)
        loo = np.array([LinearSVM(C=0.5, tol=1e-10).fit(np.delete(X[:, g], i, 0), np.delete(y, i))
                        .decision_function(X[i : i + 1, g])[0] for i in range(18)])
        # (with one or two genes some machines have every multiplier at a bound: their bias is then the midpoint of
        # an interval that depends on which optimal multipliers the solver reached, so decision values are compared
        # where the optimum is unique and predictions everywhere)
        if k >= 3:
            np.testing.assert_allclose(path.loo_decision[k - 1], loo, atol=1e-6)
        assert path.loo_errors[k - 1] == np.sum(np.argmax(loo, axis=1) != np.searchsorted(["x", "y", "z"], y))
    # any scikit-learn classifier, refitted from scratch
    other = forward_path(X, y, order[:2], estimator=LogisticRegression(C=0.5))
    ref = [np.sum([LogisticRegression(C=0.5).fit(np.delete(X[:, order[:k]], i, 0), np.delete(y, i))
                   .predict(X[i : i + 1, order[:k]])[0] != y[i] for i in range(18)]) for k in (1, 2)]
    assert other.loo_errors.tolist() == ref
    with pytest.raises(ValueError, match="at least 2 training samples of each class"):
        forward_path(X[:12], y[:12], order)


# --------------------------------------------------------------------------------------------------------- L2AROM
def test_l2arom_matches_its_twins_on_three_classes():
    X, y = markers((8, 8, 8), d=30, shift=2.0, seed=4)
    Y = one_vs_rest_labels(y, 3)
    fast = arom_path(X, Y, None, C=1e3, tol=1e-7)
    slow = naive_arom.arom_path(X, Y, None, C=1e3, tol=1e-7)
    assert fast["n_iter"] == slow["n_iter"] and fast["n_active"] == slow["n_active"]
    np.testing.assert_array_equal(fast["exit_iteration"], slow["exit_iteration"])
    np.testing.assert_allclose(fast["scaling"], slow["scalings"][-1], rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(fast["coef"], slow["coef"], rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(
        fast["order"], naive_arom.feature_order(slow["scalings"][-1], slow["exit_iteration"], slow["exit_weight"]))
    # LIBSVM one-vs-rest machines in the loop a user would write give the same genes in the same order
    svc = naive_arom.arom_path_svc(X, y, C=1e3, tol=1e-7)
    np.testing.assert_array_equal(svc["order"][:12], fast["order"][:12])


def test_l2arom_update_of_two_classes_is_the_binary_one():
    """rms over the two one-vs-rest machines of two classes is |w_bar| (they are one machine up to sign): the
    multi-class iteration run on two classes is the binary l2-AROM."""
    X, y = markers((10, 12), d=25, shift=1.5, seed=16)
    binary = arom_path(X, np.where(y == 1, 1.0, -1.0), None, C=1e3, tol=1e-8)
    two = arom_path(X, one_vs_rest_labels(y, 2), None, C=1e3, tol=1e-8)
    np.testing.assert_array_equal(two["order"], binary["order"])
    np.testing.assert_array_equal(two["exit_iteration"], binary["exit_iteration"])
    np.testing.assert_allclose(two["scaling"], np.abs(binary["scaling"]), rtol=1e-6)  # rms drops the sign
    np.testing.assert_allclose(two["coef"][1], binary["coef"], rtol=1e-6, atol=1e-12)


def test_l2arom_selects_the_markers_of_every_class():
    X, y = markers((8, 8, 8, 8), d=60, shift=3.5, seed=17, labels=list("abcd"))
    sel = L2AROM(n_features_to_select=4).fit(X, y)
    assert set(np.flatnonzero(sel.support_).tolist()) == {0, 1, 2, 3}
    assert sel.coef_.shape == (4, 60) and sel.intercept_.shape == (4,) and sel.converged_


# --------------------------------------------------------------------------------------------------------- filters
@pytest.fixture(scope="module")
def tied():
    rng = np.random.default_rng(18)
    y = np.repeat([0, 1, 2, 3], [5, 7, 6, 8])
    X = rng.normal(size=(26, 30))
    X[np.arange(26), y] += 1.3
    X[:, 10] = np.round(X[:, 10])  # ties
    X[:, 11] = 2.0  # constant
    return X, y


def test_anova_f_is_scipys_and_sklearns(tied):
    X, y = tied
    f = F.anova_f(X, y)
    ok = np.arange(30) != 11
    groups = [X[y == c] for c in range(4)]
    ref = np.array([stats.f_oneway(*[g[:, j] for g in groups]).statistic for j in np.flatnonzero(ok)])
    np.testing.assert_allclose(f[ok], ref, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Fs, ps = f_classif(X, y)
    np.testing.assert_allclose(F.anova_pvalues(X, y)[ok], ps[ok], rtol=1e-10)
    assert f[11] == 0.0 and np.isnan(Fs[11])  # a constant gene: 0 and ranked last here, NaN in scikit-learn
    # two classes: the square of the pooled-variance t statistic
    y2 = (y > 1).astype(int)
    t = stats.ttest_ind(X[y2 == 1][:, ok], X[y2 == 0][:, ok]).statistic
    np.testing.assert_allclose(F.anova_f(X, y2)[ok], t**2, rtol=1e-12)
    # any scale: the statistic of data near 1e200 and 1e-300 is that of data near 1
    for s in (1e200, 1e-300):
        np.testing.assert_array_equal(F.anova_f(X * s, y)[ok] > 0, True)
        np.testing.assert_allclose(F.anova_f(X * s, y), f, rtol=1e-12)


def test_kruskal_wallis_is_scipys(tied):
    X, y = tied
    h, p = F.kruskal_wallis(X, y), F.kruskal_wallis_pvalues(X, y)
    ok = np.arange(30) != 11
    ref = np.array([stats.kruskal(*[X[y == c, j] for c in range(4)]) for j in np.flatnonzero(ok)])
    np.testing.assert_allclose(h[ok], ref[:, 0], rtol=1e-12)
    np.testing.assert_allclose(p[ok], ref[:, 1], rtol=1e-10)
    assert h[11] == 0.0 and p[11] == 1.0
    # two classes: the square of the rank-sum z without continuity correction
    y2 = (y > 1).astype(int)
    mw = np.array([stats.mannwhitneyu(X[y2 == 1, j], X[y2 == 0, j], method="asymptotic", use_continuity=False).pvalue
                   for j in np.flatnonzero(ok)])
    np.testing.assert_allclose(F.kruskal_wallis(X, y2)[ok], stats.norm.isf(mw / 2) ** 2, rtol=1e-8)


def test_between_within_ratio_by_hand_and_the_fisher_selector(tied):
    X, y = tied
    j = 4
    mu = X[:, j].mean()
    bss = sum((y == c).sum() * (X[y == c, j].mean() - mu) ** 2 for c in range(4))
    wss = sum(((X[y == c, j] - X[y == c, j].mean()) ** 2).sum() for c in range(4))
    assert F.between_within_ratio(X, y)[j] == pytest.approx(bss / wss, rel=1e-12)
    np.testing.assert_allclose(F.anova_f(X, y), F.between_within_ratio(X, y) * (26 - 4) / 3, rtol=1e-12)
    fisher = FisherSelector(n_features_to_select=5).fit(X, y)
    np.testing.assert_array_equal(fisher.feature_order_, np.argsort(-F.between_within_ratio(X, y), kind="stable"))


def test_anova_and_kruskal_selectors(tied):
    X, y = tied
    sel = ANOVASelector(n_features_to_select=6).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = SelectKBest(f_classif, k=6).fit(np.delete(X, 11, axis=1), y)
    np.testing.assert_array_equal(np.delete(sel.support_, 11), ref.get_support())
    assert sel.ranking_[11] == 30 and sel.pvalues_.shape == (30,)
    kw = KruskalWallisSelector(n_features_to_select=6).fit(X, y)
    np.testing.assert_array_equal(kw.scores_, KruskalWallisSelector().fit(np.exp(X), y).scores_)  # ranks only
    H = np.array([stats.kruskal(*[X[y == c, j] for c in range(4)]).statistic if j != 11 else 0.0 for j in range(30)])
    np.testing.assert_array_equal(np.flatnonzero(kw.support_), np.sort(np.argsort(-H, kind="stable")[:6]))
    assert kw.ranking_[11] == 30
    # genes that separate the classes perfectly share the largest H; the ANOVA F breaks the tie
    Xp = X[:, :3].copy()
    Xp[:, 0] = y * 10.0 + np.arange(26) * 0.01  # far apart: the largest F
    Xp[:, 1] = y + np.arange(26) * 0.01
    Xp[:, 2] = y * 3.0 + np.arange(26) * 0.01
    tie = KruskalWallisSelector(n_features_to_select=1).fit(Xp, y)
    assert np.unique(tie.scores_).size == 1 and tie.feature_order_.tolist() == [0, 2, 1]


def test_signal_to_noise_one_against_the_rest(tied):
    X, y = tied
    S, classes = F.one_vs_rest_scores(X, y)
    for c in range(4):
        yc = np.where(y == c, 1, -1)
        p, q = X[yc > 0], X[yc < 0]
        np.testing.assert_allclose(S[c], F._safe_divide(p.mean(0) - q.mean(0), p.std(0) + q.std(0), ""), rtol=1e-12)
    sel = SignalToNoiseSelector(n_features_to_select=8).fit(X, y)
    np.testing.assert_array_equal(sel.scores_, S)
    top = sel.feature_order_[:4]
    assert sorted(top.tolist()) == [0, 1, 2, 3]  # the first round: one marker of every class
    unb = SignalToNoiseSelector(n_features_to_select=8, balanced=False).fit(X, y)
    np.testing.assert_array_equal(unb.feature_order_, np.argsort(-np.abs(S).max(0), kind="stable"))
    with pytest.raises(ValueError, match="one_vs_rest_scores"):
        F.signal_to_noise(X, y)
    with pytest.raises(ValueError, match="kruskal_wallis"):
        F.wilcoxon_pvalues(X, y)


def test_one_vs_rest_order_by_rounds_and_for_two_classes():
    S = np.array([[3.0, -1.0, 0.5, 2.0, -2.0, 0.0],
                  [-1.0, 4.0, 0.5, -2.0, 1.0, 0.0],
                  [-2.0, -3.0, -1.0, 0.1, 1.5, 0.0]])
    # round 1: class 0 takes gene 0 (3.0), class 1 gene 1 (4.0), class 2 gene 4 (1.5); by score: 1, 0, 4
    # round 2: class 0 takes gene 3 (2.0), class 1 gene 2 (0.5), class 2 nothing left above 0 (gene 3 taken)
    # round 3: class 0 nothing left (2 taken)... genes left: 5 (all zero)
    assert F.one_vs_rest_order(S).tolist() == [1, 0, 4, 3, 2, 5]
    rng = np.random.default_rng(19)
    P = rng.normal(size=40)
    np.testing.assert_array_equal(F.one_vs_rest_order(np.vstack([-P, P])), F.balanced_order(P))


# ------------------------------------------------------------------------------------------------------ GolubVoting
def test_golub_voting_one_against_the_rest_is_k_binary_machines():
    X, y = markers((8, 9, 7), d=40, shift=1.5, seed=20, labels=["ALL-B", "ALL-T", "AML"])
    Xte, _ = markers((4, 4, 4), d=40, shift=1.5, seed=21)
    vote = GolubVoting(n_genes=6).fit(X, y)
    D, PS = vote.decision_function(Xte), vote.prediction_strength(Xte)
    assert D.shape == PS.shape == (12, 3) and vote.genes_.shape == (3, 6)
    for k, c in enumerate(vote.classes_):
        binary = GolubVoting(n_genes=6).fit(X, np.where(y == c, "in", "_rest"))  # "in" is classes_[1]
        np.testing.assert_allclose(D[:, k], binary.decision_function(Xte), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(PS[:, k], binary.prediction_strength(Xte), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(vote.genes_[k], binary.genes_)
    np.testing.assert_array_equal(vote.predict(Xte), vote.classes_[np.argmax(D, axis=1)])
    X, y = markers((8, 9, 7), d=40, shift=3.0, seed=20, labels=["ALL-B", "ALL-T", "AML"])
    assert cross_val_score(GolubVoting(n_genes=6), X, y, cv=3).mean() > 0.7  # chance: 1/3


# --------------------------------------------------------------------------------------------------------- metrics
def test_k_class_measures_are_sklearns():
    from sklearn import metrics as SK

    rng = np.random.default_rng(22)
    labels = np.array(["a", "b", "c", "d"])
    y = labels[rng.integers(0, 4, 80)]
    pred = np.where(rng.random(80) < 0.6, y, labels[rng.integers(0, 4, 80)])
    assert M.balanced_error_rate(y, pred) == pytest.approx(1 - SK.balanced_accuracy_score(y, pred), abs=1e-15)
    assert M.error_rate(y, pred) == pytest.approx(1 - SK.accuracy_score(y, pred), abs=1e-15)
    np.testing.assert_allclose(M.per_class_recall(y, pred), SK.recall_score(y, pred, average=None))
    np.testing.assert_array_equal(M.confusion_matrix(y, pred), SK.confusion_matrix(y, pred))
    np.testing.assert_array_equal(M.confusion_matrix(y, pred, labels=labels[::-1]),
                                  SK.confusion_matrix(y, pred, labels=labels[::-1]))
    S = rng.normal(size=(80, 4)) + np.eye(4)[np.searchsorted(labels, y)]
    P = np.exp(S) / np.exp(S).sum(1, keepdims=True)
    assert M.macro_ovr_auc(y, P) == pytest.approx(SK.roc_auc_score(y, P, multi_class="ovr", average="macro"),
                                                  abs=1e-12)
    Sr = np.round(S, 1)  # ties, and scores that are not probabilities
    ref = np.mean([SK.roc_auc_score(y == c, Sr[:, k]) for k, c in enumerate(labels)])
    assert M.macro_ovr_auc(y, Sr) == pytest.approx(ref, abs=1e-12)
    # a class of the classifier absent from a test fold has no AUC and is left out
    keep = y != "d"
    ref3 = np.mean([SK.roc_auc_score(y[keep] == c, Sr[keep, k]) for k, c in enumerate(labels[:3])])
    assert M.macro_ovr_auc(y[keep], Sr[keep], classes=labels) == pytest.approx(ref3, abs=1e-12)
    with pytest.raises(ValueError, match="not in labels"):
        M.confusion_matrix(y, pred, labels=labels[:3])
    with pytest.raises(ValueError, match="do not occur in y_true"):
        M.per_class_recall(y[keep], pred[keep], labels=labels)


# ------------------------------------------------------------------------- scikit-learn's checks on three classes
# scikit-learn's checks on three classes run in tests/test_estimator_api.py, from tests/estimators.py.
