"""genesel.rfe: SVM-RFE against its textbook twin, sklearn's RFE, and the Gram-downdate identity."""


import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from genesel import rfe as grfe
from genesel.rfe import SVMRFE, elimination_schedule
from genesel.svm import LinearSVM
from naive import svm as naive_svm


def _problem(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, :4] @ np.array([1.0, -1.0, 0.7, 0.5]) + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return X, y


@pytest.fixture(scope="module")
def golub_subset(golub):
    ds = golub
    X = np.log10(np.clip(ds.X[ds.train_idx], 100, 16000))
    # genes clipped at the floor for most samples are near-duplicates of each other (w_i ~ 1e-18: exact ties in
    # the criterion, which any two solvers break arbitrarily); keep genes with distinct values in every sample
    n_distinct = np.array([np.unique(col).size for col in X.T])
    X = X[:, n_distinct == X.shape[0]]
    # 150 genes: the 75 most variable plus 75 others, so the ranking has both strong and weak genes
    var = X.var(0)
    idx = np.r_[np.argsort(-var)[:75], np.arange(0, X.shape[1], 37)[:75]]
    X = X[:, np.unique(idx)]
    X = (X - X.mean(0)) / X.std(0)
    return X, ds.y[ds.train_idx]


# ---------------------------------------------------------------- schedules


def test_halving_schedule_follows_guyon_chunks():
    # Tan 2006, section 5.4: colon 2000 genes -> 1024 -> 512 -> 256 ...
    sizes = 2000 - np.cumsum(elimination_schedule(2000, 256, "halving"))
    assert sizes.tolist() == [1024, 512, 256]
    sizes = 7129 - np.cumsum(elimination_schedule(7129, 1, "halving"))
    assert sizes.tolist() == [2**k for k in range(12, -1, -1)]
    sizes = 1024 - np.cumsum(elimination_schedule(1024, 3, "halving"))
    assert sizes.tolist() == [512, 256, 128, 64, 32, 16, 8, 4, 3]


def test_int_and_fraction_schedules_follow_sklearn():
    assert elimination_schedule(10, 3, 3).tolist() == [3, 3, 1]
    assert elimination_schedule(100, 10, 0.1).tolist() == [10] * 9
    assert elimination_schedule(5, 5, 1).tolist() == []
    for bad in (0, -1, 1.5, "half", None):
        with pytest.raises(ValueError, match="step"):
            elimination_schedule(10, 2, bad)


# ---------------------------------------------------------------- kernels vs plain-Python twins


def test_weight_kernel_matches_naive():
    rng = np.random.default_rng(0)
    Xt = rng.normal(size=(50, 12))
    keep = np.setdiff1d(np.arange(50), [3, 17, 40, 41])
    c = rng.normal(size=12)
    w = np.array([grfe._dot_row(Xt, g, c) for g in keep])
    np.testing.assert_allclose(w, naive_svm.weights(Xt, c, keep))


@pytest.mark.parametrize("step", [1, 4, "halving"])
@pytest.mark.parametrize("C", [0.1, 5.0, np.inf])
def test_rfe_path_matches_textbook_twin(step, C):
    d = 24 if step == 1 else 40  # the naive twin refits from scratch at every stage: keep it small
    X, y = _problem(16, d, seed=1)
    yf = y.astype(float)
    Xt = np.ascontiguousarray(X.T)
    # the hard margin needs separable data at every stage: with 16 samples keep at least 16 genes
    k = 16 if np.isinf(C) else 1
    sched = elimination_schedule(d, k, step)
    fast = grfe._rfe_path(Xt, yf, C, 1e-11, 1_000_000, sched)
    elim, final_rows, final_w = naive_svm.rfe_path(Xt, yf, C, 1e-11, 1_000_000, sched)
    np.testing.assert_array_equal(fast[0], elim)
    np.testing.assert_array_equal(fast[1], final_rows)
    np.testing.assert_allclose(fast[2], final_w, rtol=1e-6, atol=1e-9)


def test_gradient_along_rows_is_the_solvers_gradient_bit_for_bit():
    """rfe._gradient exchanges the loops of genesel._core.smo.gradient (which the twin's from-scratch solves check);
    every entry must be the same number, or the SMO path (and so the elimination) could change."""
    from genesel._core.gram import gram_rows
    from genesel._core.smo import gradient

    rng = np.random.default_rng(3)
    for n, d in ((7, 30), (23, 400), (40, 90)):
        Xt = rng.normal(size=(d, n)) * rng.lognormal(0.0, 2.0, size=(d, 1))
        K = gram_rows(Xt, np.arange(d))
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        alpha = rng.random(n) * (rng.random(n) < 0.7)  # zeros are skipped by both
        np.testing.assert_array_equal(grfe._gradient(K, y, alpha), gradient(K, y, alpha))
        np.testing.assert_allclose(grfe._gradient(K, y, alpha), naive_svm.gradient(K, y, alpha), rtol=1e-10,
                                   atol=1e-10 * np.abs(K).max() * alpha.sum())


def test_pool_evaluation_is_the_single_gene_evaluation_bit_for_bit():
    rng = np.random.default_rng(4)
    Xt = rng.normal(size=(60, 37)) * rng.lognormal(0.0, 2.0, size=(60, 1))
    c = rng.normal(size=(3, 37))
    genes = rng.permutation(60)[:23]  # 5 groups of four and 3 left over
    w1, c1 = np.zeros((60, 3)), np.zeros(60)
    for g in genes:
        grfe._eval_gene(Xt, g, c, w1, c1)
    w2, c2, r2 = np.zeros((60, 3)), np.zeros(60), np.zeros(60)
    grfe._eval_pool(np.ascontiguousarray(Xt[genes]), genes, genes.size, c, w2, c2, r2)
    np.testing.assert_array_equal(w2, w1)
    np.testing.assert_array_equal(c2, c1)
    np.testing.assert_allclose(w1[genes], naive_svm.weights(Xt, c.T, genes), rtol=1e-12)


def _brute_force_case(seed):
    """A small problem with what the lazy argmin must survive: genes of very different norms (unstandardised),
    exact ties (a duplicated gene, a gene and its negative), a zero gene, two or three classes."""
    rng = np.random.default_rng(seed)
    n, d, classes = int(rng.integers(10, 25)), int(rng.integers(60, 160)), int(rng.integers(2, 4))
    y = np.arange(n) % classes
    X = rng.normal(size=(n, d))
    X[:, :3] += 1.5 * (y[:, None] == np.arange(3) % classes)
    if seed % 2:
        X *= rng.lognormal(0.0, 1.5, size=d)
    else:
        X = (X - X.mean(0)) / X.std(0)
    X[:, 7] = X[:, 5]
    X[:, 9] = -X[:, 8]
    X[:, 11] = 0.0
    Y = np.where(y[None, :] == np.arange(classes)[:, None], 1.0, -1.0) if classes > 2 else np.where(y == 1, 1.0, -1.0)
    C = [0.01, 0.3, 10.0][seed % 3]
    return np.ascontiguousarray(X.T), Y, C


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("pool_cap,min_share", [(512, 2), (4, 2), (4, 1_000_000)])
def test_lazy_argmin_is_the_brute_force_bit_for_bit(seed, pool_cap, min_share):
    """The one-gene stages (anchors, candidate pool, path-length bounds) against evaluating every gene at every
    stage, same solves: the same elimination order bit for bit and the same final weights. A small pool forces its
    shrinking, min_share 10^6 the path-length bounds alone; a bound that is not one (e.g. forgetting the path walked
    since an anchor's distance was computed) fails here."""
    Xt, Y, C = _brute_force_case(seed)
    sched = elimination_schedule(Xt.shape[0], 1, 1)
    lazy = grfe._rfe_path(Xt, Y, C, 1e-10, 1_000_000, sched, pool_cap=pool_cap, min_share=min_share)
    brute = grfe._rfe_path(Xt, Y, C, 1e-10, 1_000_000, sched, lazy=False)
    np.testing.assert_array_equal(lazy[0], brute[0])
    np.testing.assert_array_equal(lazy[1], brute[1])
    np.testing.assert_array_equal(lazy[2], brute[2])
    np.testing.assert_array_equal(lazy[3], brute[3])  # the same dual solutions at every stage
    d = Xt.shape[0]
    assert brute[7] == d * (d + 1) // 2 and lazy[7] < 0.7 * brute[7]  # every gene at every stage; fewer


# ---------------------------------------------------------------- agreement with sklearn's RFE


def test_ranking_equals_sklearn_rfe_on_real_subset(golub_subset):
    X, y = golub_subset
    ours = SVMRFE(n_features_to_select=1, step=1, C=1.0, tol=1e-8).fit(X, y)
    ref = RFE(SVC(kernel="linear", C=1.0, tol=1e-9), n_features_to_select=1, step=1).fit(X, y)
    np.testing.assert_array_equal(ours.ranking_, ref.ranking_)


@pytest.mark.parametrize("step,k", [(7, 5), (0.1, 10), (1, 20)])
def test_chunked_ranking_equals_sklearn_rfe(step, k):
    X, y = _problem(30, 80, seed=3)
    ours = SVMRFE(n_features_to_select=k, step=step, C=0.5).fit(X, y)
    ref = RFE(SVC(kernel="linear", C=0.5, tol=1e-9), n_features_to_select=k, step=step).fit(X, y)
    np.testing.assert_array_equal(ours.ranking_, ref.ranking_)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    assert ours.n_features_ == ref.n_features_ == k
    np.testing.assert_allclose(ours.transform(X), ref.transform(X))


# ---------------------------------------------------------------- nested subsets and the per-subset SVMs


def test_nested_subsets_and_decision_path():
    X, y = _problem(24, 64, seed=5)
    Xte, _ = _problem(10, 64, seed=6)
    sel = SVMRFE(n_features_to_select=2, step="halving", C=1.0, tol=1e-10).fit(X, y)
    assert sel.subset_sizes_.tolist() == [64, 32, 16, 8, 4, 2]
    prev = set(range(64))
    for size, idx in sel.iter_subsets():
        assert len(idx) == size and set(idx) <= prev
        prev = set(idx)
    np.testing.assert_array_equal(sel.subset(2), np.flatnonzero(sel.support_))
    # ranking_ agrees with feature_order_ (best first) stage by stage
    assert np.all(np.diff(sel.ranking_[sel.feature_order_]) >= 0)
    path = sel.decision_function_path(Xte)
    for s, size in enumerate(sel.subset_sizes_):
        g = sel.subset(int(size))
        refit = LinearSVM(C=1.0, tol=1e-10).fit(X[:, g], y)
        np.testing.assert_allclose(path[s], refit.decision_function(Xte[:, g]), atol=1e-6)
    # the final estimator is the SVM on the survivors
    np.testing.assert_allclose(sel.estimator_.decision_function(Xte[:, sel.support_]), path[-1], atol=1e-6)


def test_works_in_pipeline_with_string_labels():
    X, y = _problem(30, 50, seed=8)
    labels = np.where(y > 0, "AML", "ALL")
    pipe = make_pipeline(SVMRFE(n_features_to_select=5, step=0.2, C=1.0), LinearSVM(C=1.0)).fit(X, labels)
    assert set(pipe.predict(X)) <= {"AML", "ALL"}
    assert pipe[0].transform(X).shape == (30, 5)


# ---------------------------------------------------------------- bad input


def test_bad_input_errors():
    X, y = _problem(20, 30, seed=0)
    Xn = X.copy()
    Xn[2, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SVMRFE().fit(Xn, y)
    with pytest.raises(ValueError, match="class"):
        SVMRFE().fit(X, np.ones(20))
    with pytest.raises(ValueError, match="every one of the 30 gene"):
        SVMRFE().fit(np.ones_like(X), y)
    with pytest.raises(ValueError, match="'step' parameter of SVMRFE"):
        SVMRFE(step=0).fit(X, y)
    with pytest.raises(ValueError, match="'C' parameter of SVMRFE"):
        SVMRFE(C=0).fit(X, y)


@pytest.mark.parametrize("scale", [1e-300, 1e-8, 1e8, 1e200])
def test_hard_margin_rfe_does_not_depend_on_the_units(scale):
    """Hard-margin SVM-RFE is scale-free. Before, at 1e200 SMO stopped at once (the Gram matrix overflowed) and at
    1e-300 every weight was 0: the ranking was the column order ([9, 10, 11] instead of the three informative genes)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 12))
    y = np.repeat([0, 1], 12)
    X[:, :3] += 2.0 * (2 * y[:, None] - 1)
    ref = SVMRFE(n_features_to_select=1, C=np.inf).fit(X, y)
    got = SVMRFE(n_features_to_select=1, C=np.inf).fit(X * scale, y)
    np.testing.assert_array_equal(got.feature_order_, ref.feature_order_)
    np.testing.assert_allclose(got.decision_function_path(X * scale), ref.decision_function_path(X), rtol=1e-6,
                               atol=1e-8)
    assert set(ref.feature_order_[:3]) == {0, 1, 2}


def test_rfe_refuses_a_negligible_C():
    X, y = _problem(20, 30, seed=0)
    with pytest.raises(ValueError, match=r"SVMRFE: C=1 is negligible at the scale of X"):
        SVMRFE().fit(X * 1e-300, y)
    with pytest.raises(ValueError, match=r"SVMRFE \(its final LinearSVM\).*do not vary"):
        SVMRFE().fit(X * 1e-9, y)


def test_more_genes_than_exist_selects_all():
    """genesel's rule for every selector (filters, GolubVoting, ALMA): asking for more genes than there are keeps
    them all. SVMRFE used to raise here."""
    X, y = _problem(20, 30, seed=0)
    sel = SVMRFE(n_features_to_select=31).fit(X, y)
    assert sel.support_.all() and sel.n_features_ == 30 and sel.subset_sizes_.tolist() == [30]
    np.testing.assert_array_equal(sel.ranking_, np.ones(30))
    np.testing.assert_allclose(sel.estimator_.decision_function(X), LinearSVM(tol=1e-8).fit(X, y).decision_function(X),
                               atol=1e-6)


def test_final_fit_repairs_its_own_warm_start_whatever_the_drift(monkeypatch):
    """SVMRFE's final fit starts from its last stage's solution, whose y^T a can drift by rounding beyond
    solve_dual's tolerance for user input (1e-5 of sum(a) seen at C=inf on Colon): the repair must be unlimited.
    The drift is injected here by perturbing the last stage's solution before the final fit."""
    import genesel.rfe as rfe_module
    from genesel._core import smo as smo_module

    X, y = _problem(20, 30, seed=0)
    ref = SVMRFE(n_features_to_select=3, C=10.0).fit(X, y)
    calls = []

    def drifted(alpha, yf, max_drift=smo_module._EQUALITY_DRIFT):
        alpha = alpha.copy()
        alpha[np.flatnonzero((alpha > 0) & (yf > 0))[0]] *= 1.0 + 1e-4  # y^T a off by ~1e-5 of sum(a)
        calls.append(max_drift)
        return smo_module.restore_equality(alpha, yf, max_drift=max_drift)

    monkeypatch.setattr(rfe_module, "restore_equality", drifted)
    got = SVMRFE(n_features_to_select=3, C=10.0).fit(X, y)
    assert calls == [None]
    np.testing.assert_array_equal(got.support_, ref.support_)
    np.testing.assert_allclose(got.estimator_.decision_function(X[:, got.support_]),
                               ref.estimator_.decision_function(X[:, ref.support_]), atol=1e-6)
