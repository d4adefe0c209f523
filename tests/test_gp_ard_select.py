"""genesel.gp_ard_select: the L/T rules of GP-ARD-RFE on a running example built to the properties the thesis states
for Figures 5.4-5.6 (the figures' numbers are not in the text), normalisation (Eq. 5.4), the halving schedule,
GP-ARD-FS's prefilter, seeded runs bit-identical, the scikit-learn contract."""

import re
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from genesel.filters import wilcoxon_pvalues
from genesel.gp import GaussianProcessClassifier
from genesel.gp_ard_select import GPARDFS, GPARDRFE, ard_rfe_round, halving_sizes, normalise_ard
from problems import sparse_problem, problem_p

# Thesis §5.4 running example: 6 genes, k = 3 folds, first round keeps m = 2^floor(log2 6) = 4. Fold 3's ARD values
# are larger "in general" than fold 1's (so normalisation matters), and g5 is "ranked within top 4 in all R_i's but
# its rank in S according to average ARD values is the fifth": it is kept as a common top gene.
THETA = np.array([[1.0, 0.9, 0.0, 0.1, 0.3, 0.2],
                  [0.2, 1.0, 0.9, 0.1, 0.3, 0.8],
                  [9.0, 1.0, 8.0, 0.5, 1.6, 1.5]])


def test_running_example_l_and_t_rules():
    r = ard_rfe_round(THETA, 4)
    g = lambda idx: sorted((np.asarray(idx) + 1).tolist())  # noqa: E731 - 1-based gene names g1..g6
    assert (r["fold_rankings"] + 1).tolist() == [[1, 2, 5, 6, 4, 3], [2, 3, 6, 5, 1, 4], [1, 3, 5, 6, 2, 4]]
    assert g(r["T"]) == [5, 6]          # in every fold's top 4
    assert g(r["L"]) == [4]             # in no fold's top 4: eliminated whatever its average
    assert (r["S"] + 1).tolist() == [1, 2, 3, 6, 5, 4]   # g5 is fifth by average normalised ARD value ...
    assert g(r["survivors"]) == [1, 2, 5, 6]             # ... and survives; g3 (third by average) does not
    # by hand: Eq. 5.4 then the mean over folds
    np.testing.assert_allclose(r["average"], (THETA / np.linalg.norm(THETA, axis=1, keepdims=True)).mean(0))
    # without normalisation fold 3 would dominate and rank g3 second
    assert (np.argsort(-THETA.mean(0), kind="stable") + 1).tolist()[:3] == [1, 3, 2]


def test_last_round_of_the_example():
    # p = 1: from the 4 survivors to 2
    r = ard_rfe_round(THETA[:, [0, 1, 4, 5]], 2)
    assert r["survivors"].size == 2 and set(r["survivors"].tolist()) <= {0, 1, 2, 3}
    assert r["L"].size == 0


def test_round_checks_and_normalise():
    with pytest.raises(ValueError, match="m must be"):
        ard_rfe_round(THETA, 7)
    with pytest.raises(ValueError, match="non-negative"):
        ard_rfe_round(-THETA, 2)
    np.testing.assert_array_equal(normalise_ard(np.zeros((1, 3))), np.zeros((1, 3)))
    np.testing.assert_allclose(np.linalg.norm(normalise_ard(THETA), axis=1), 1.0)


def test_halving_sizes():
    assert halving_sizes(2000, 8) == [2000, 1024, 512, 256]
    assert halving_sizes(7129, 8) == [7129, 4096, 2048, 1024, 512, 256]
    assert halving_sizes(1024, 8) == [1024, 512, 256]
    assert halving_sizes(200, 8) == [200]
    assert halving_sizes(6, 1) == [6, 4, 2]


@pytest.fixture(scope="module")
def problem():
    X, y = sparse_problem(m=40, f=40, n_rel=4, seed=3)
    return X, y


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_iter=60 keeps the test fast
def test_gp_ard_rfe_keeps_relevant_genes_and_is_seeded(problem):
    X, y = problem
    a = GPARDRFE(n_folds=4, p=3, n_restarts=0, max_iter=60, random_state=1).fit(X, y)
    b = GPARDRFE(n_folds=4, p=3, n_restarts=0, max_iter=60, random_state=1).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    np.testing.assert_array_equal(a.final_fold_relevances_, b.final_fold_relevances_)
    assert a.sizes_ == [40, 32, 16, 8]
    assert len(a.rounds_) == 3 and a.final_fold_relevances_.shape == (4, 8)
    assert set(range(4)) <= set(a.subset(8).tolist())
    assert a.support_.sum() == a.n_features_ == a.forward_path_.biomarker_size("loo")
    assert np.all(np.isin(np.flatnonzero(a.support_), a.subset(8)))
    for rd in a.rounds_:  # the L/T rules held in every round
        assert set(rd["T"].tolist()) <= set(rd["survivors"].tolist())
        assert not set(rd["L"].tolist()) & set(rd["survivors"].tolist())


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("Selector", [GPARDRFE, GPARDFS])
def test_the_fold_fits_report_their_iterations_and_convergence(problem, Selector):
    """``fold_n_iter_`` / ``fold_converged_``: every GP-ARD fold fit's L-BFGS-B iterations and whether it met its
    convergence test. Reference: the same fold fit redone with GaussianProcessClassifier directly (the selector's
    folds and seeds from its own RandomState draws), and a cap of 2 iterations, which no fit can meet."""
    X, y = problem
    kw = dict(n_folds=3, n_restarts=0, random_state=0, **({"p": 4} if Selector is GPARDRFE else {"alpha": 0.05}))
    sel = Selector(max_iter=500, **kw).fit(X, y)
    its = sel.fold_n_iter_ if Selector is GPARDFS else sel.fold_n_iter_[0]
    conv = sel.fold_converged_ if Selector is GPARDFS else sel.fold_converged_[0]
    genes = np.arange(X.shape[1]) if Selector is GPARDRFE else np.flatnonzero(sel.prefilter_support_)
    rng = np.random.RandomState(0)
    from genesel._core.resampling import resampling_masks
    masks = resampling_masks(np.where(y == np.unique(y)[1], 1, -1), 3, 1, rng)
    np.testing.assert_array_equal(masks, sel.train_masks_)
    seed = rng.randint(0, 2**31 - 1, size=(len(sel.sizes_), 3) if Selector is GPARDRFE else 3).ravel()[0]
    gp = GaussianProcessClassifier(ard=True, n_restarts=0, max_iter=500, random_state=int(seed))
    gp.fit(X[np.ix_(masks[0], genes)], y[masks[0]])
    assert its[0] == gp.n_iter_ and conv[0] == gp.optimizer_converged_
    assert np.all(conv) and np.all(its < 500)  # small problem, generous cap: every fit converges
    if Selector is GPARDRFE:
        assert len(sel.fold_n_iter_) == len(sel.sizes_) and all(c.shape == (3,) for c in sel.fold_converged_)
    capped = Selector(max_iter=2, **kw).fit(X, y)
    for it, cv in (zip(capped.fold_n_iter_, capped.fold_converged_) if Selector is GPARDRFE else
                   [(capped.fold_n_iter_, capped.fold_converged_)]):
        assert np.all(it == 2) and not np.any(cv)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_gp_ard_fs_prefilter_and_selection(problem):
    X, y = problem
    fs = GPARDFS(alpha=0.05, n_folds=4, n_restarts=0, max_iter=60, random_state=0).fit(X, y)
    np.testing.assert_array_equal(fs.prefilter_support_, wilcoxon_pvalues(X, y) < 0.05)
    assert np.all(fs.prefilter_support_[fs.support_])
    assert len(fs.fold_minimal_sets_) == 4
    # R is ranked by the number of folds selecting each gene
    counts = [fs.counts_[g] for g in fs.candidate_order_]
    assert counts == sorted(counts, reverse=True)
    # a prefilter view: per-sample shifts change the ranks inside a gene
    Z = X + 0.3 * np.random.default_rng(0).normal(size=(X.shape[0], 1))
    fs2 = GPARDFS(alpha=0.05, n_folds=4, n_restarts=0, max_iter=60, random_state=0).fit(X, y, prefilter_X=Z)
    np.testing.assert_array_equal(fs2.pvalues_, wilcoxon_pvalues(Z, y))
    p = wilcoxon_pvalues(X, y)
    with pytest.warns(UserWarning, match=r"no gene has a Wilcoxon p-value below alpha=1e-12.*uses alpha="):
        fb = GPARDFS(alpha=1e-12, n_folds=4, n_restarts=0, max_iter=30, random_state=0).fit(X, y)
    # the first of 1e-11, 1e-10, ... that lets a gene through (issue 25: it used to refuse to fit)
    level = next(a for a in 10.0 ** np.arange(-11, 1) if np.any(p < a))
    assert fb.alpha_ == pytest.approx(level) and fb.prefilter_support_.sum() == np.sum(p < fb.alpha_) >= 1
    with pytest.raises(ValueError, match="shape of X"):
        GPARDFS(n_folds=4).fit(X, y, prefilter_X=Z[:, :3])


# ------------------------------------------------------------------------------------------------------------------
# units of X (issue 25): the problem P of the issue at every scale
# ------------------------------------------------------------------------------------------------------------------


_SELECTORS = {"GPARDFS": lambda: GPARDFS(random_state=0), "GPARDRFE": lambda: GPARDRFE(p=3, random_state=0)}


def _scale_free(name):
    """The selectors with a scale-free forward selection (GP without ARD), small enough to be quick."""
    fwd = GaussianProcessClassifier(ard=False, n_restarts=0, max_iter=20)
    if name == "GPARDFS":
        return GPARDFS(n_folds=3, n_restarts=0, max_iter=40, max_forward_genes=2, forward=fwd, random_state=0)
    return GPARDRFE(n_folds=3, p=2, n_restarts=0, max_iter=40, forward=fwd, random_state=0)


@pytest.fixture(scope="module")
def at_scale_1():
    """The fits at scale 1 that the tests below compare against, each computed once per module rather than once per
    test: ``at_scale_1("GPARDFS")`` is the default selector (``_SELECTORS``) fitted on P, ``at_scale_1("GPARDFS",
    scale_free=True)`` the scale-free one (``_scale_free``) on P's first 8 genes. Seeded, on the same data: the same
    fit every test made for itself (the scaled or shifted fits, what the tests are about, stay in each test)."""
    fits = {}

    def get(name, scale_free=False):
        if (name, scale_free) not in fits:
            X, y = problem_p()
            if scale_free:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    fits[name, scale_free] = _scale_free(name).fit(X[:, :8], y)
            else:
                fits[name, scale_free] = _SELECTORS[name]().fit(X, y)
        return fits[name, scale_free]

    return get


@pytest.mark.parametrize("name", list(_SELECTORS))
@pytest.mark.parametrize("exp2", [-600, 600])
def test_powers_of_two_give_the_model_of_scale_1_bit_for_bit(name, exp2, at_scale_1):
    """The GP-ARD fits are data-relative and the ARD values are compared in the units of X times a power of two, so
    at 2^-600 or 2^600 (with a forward selection that has no units of its own) every number is that of scale 1, the
    ARD values reported in the units of X. Before: at 2^600 they underflowed to 0 and every gene tied; at 2^-600
    they overflowed (inf / inf in the normalisation, a RuntimeWarning)."""
    X, y = problem_p()
    X = X[:, :8]
    ref = at_scale_1(name, scale_free=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("error", RuntimeWarning)
        got = _scale_free(name).fit(np.ldexp(X, exp2), y)
    np.testing.assert_array_equal(got.feature_order_, ref.feature_order_)
    np.testing.assert_array_equal(got.support_, ref.support_)
    rel = got.fold_relevances_ if name == "GPARDFS" else got.final_fold_relevances_
    ref_rel = ref.fold_relevances_ if name == "GPARDFS" else ref.final_fold_relevances_
    with np.errstate(over="ignore", under="ignore"):  # reported in the units of X
        np.testing.assert_array_equal(rel, np.ldexp(ref_rel, -2 * exp2))


@pytest.mark.parametrize("name", list(_SELECTORS))
def test_a_huge_scale_selects_as_at_scale_1(name, at_scale_1):
    """P x 1e200 with the defaults selects [0, 2], as at scale 1 (before: gene 0 alone, with ConvergenceWarnings
    only). The forward selection's C = 1 is then the hard margin (C is in the units of X); it still finds [0, 2]."""
    X, y = problem_p()
    ref = at_scale_1(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _SELECTORS[name]().fit(X * 1e200, y)
    assert np.flatnonzero(ref.support_).tolist() == [0, 2]
    np.testing.assert_array_equal(got.support_, ref.support_)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    # the hard-margin SVM cannot separate a one-gene prefix: its warnings name that cause and the remedy
    conv = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert conv and all(re.search(rf"{name} \(forward selection\).*C=1 is effectively infinite at the scale of X"
                                  r".*lower C", m) for m in conv), conv


@pytest.mark.parametrize("name", list(_SELECTORS))
def test_a_negligible_C_of_the_forward_svm_is_a_named_error(name):
    """The forward selection's linear SVM has its C in the units of X: on P x 1e-200 a box of 1e-400 against the
    samples' squared norms. Before: gene 0 alone, with a RuntimeWarning from GP-ARD-RFE; now a named error, raised
    before any GP is fitted."""
    X, y = problem_p()
    with pytest.raises(ValueError, match=rf"{name}: C=1 is negligible at the scale of X.*raise C or standardise"):
        _SELECTORS[name]().fit(X * 1e-200, y)
    # a classifier of the user's for the forward selection brings its own units: no error then
    est = _SELECTORS[name]().set_params(forward=GaussianProcessClassifier(ard=False, n_restarts=0, max_iter=30),
                                        n_folds=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X[:, :6] * 1e-200, y)
    assert est.support_[:3].any()


@pytest.mark.parametrize("name", list(_SELECTORS))
@pytest.mark.parametrize("offset", [1e8, 1e12])
def test_an_offset_gives_the_selection_without_it(name, offset, at_scale_1):
    """The GP centres the genes; the forward selection's SVM with bias does not depend on the offset either, but its
    Gram matrix did: at 1e8 times the spread its solves stopped at max_iter (ConvergenceWarnings). Such data are now
    centred for it (the same SVMs)."""
    X, y = problem_p()
    ref = at_scale_1(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _SELECTORS[name]().fit(X + offset, y)
    np.testing.assert_array_equal(got.support_, ref.support_)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_wide_data_fold_fits_do_not_end_at_the_flat_model():
    """Issue 25: on wide data with little signal the GP-ARD fits of the first rounds ended at the flat model (v0 at
    its lower bound, log evidence −n log 2: the covariance ignores X), so those rounds eliminated by an optimiser
    artefact (on 100 x 55,000 none of the 10 informative genes survived). 40 samples x 2000 genes, 4 informative:
    before, 3 of 3 fold fits of the first round and 1 of the second were flat and the biomarker set held noise
    genes 54 and 1511; now no fold fit is flat (reference: the coin-flip evidence −n log 2, a closed form) and the
    biomarker set holds informative genes only."""
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 20)
    X = rng.standard_normal((40, 2000))
    X[:, :4] += 2.0 * np.array([1.0, -1.0, 1.0, -1.0]) * (y[:, None] - 0.5)
    X = (X - X.mean(0)) / X.std(0)
    rfe = GPARDRFE(n_folds=3, p=3, n_restarts=2, max_iter=300, random_state=0).fit(X, y)
    coin_flips = -rfe.train_masks_.sum(axis=1) * np.log(2.0)
    for evidence in rfe.fold_log_evidence_:
        assert np.all(evidence > coin_flips + 1.0)
    support = np.flatnonzero(rfe.support_)
    assert support.size >= 1 and set(support.tolist()) <= {0, 1, 2, 3}
    assert np.sum(rfe.feature_order_[:8] < 4) >= 3


def test_ties_on_the_lower_bound_are_broken_by_the_evidence_gradient():
    """Relevances on the lower bound of their box tie (most genes of a wide array since the working-set fit): the
    evidence gradient orders them, in each fold's R_i and in S; without it the lower position wins."""
    lo = 1e-12
    theta = np.array([[5.0, 1.0, lo, lo, lo], [4.0, 2.0, lo, lo, lo]])
    grads = np.array([[0.0, 0.0, -3.0, -1.0, -2.0], [0.0, 0.0, -2.5, -0.5, -4.0]])
    plain = ard_rfe_round(theta, 3)
    tied = ard_rfe_round(theta, 3, grads)
    assert plain["S"].tolist() == [0, 1, 2, 3, 4]
    assert tied["S"].tolist() == [0, 1, 3, 2, 4]  # average normalised gradients -0.66, -0.19, -0.69 for 2, 3, 4
    assert tied["fold_rankings"].tolist() == [[0, 1, 3, 4, 2], [0, 1, 3, 2, 4]]
    assert tied["T"].tolist() == [0, 1, 3] and tied["L"].tolist() == [2, 4]
    assert sorted(tied["survivors"].tolist()) == [0, 1, 3]
    assert sorted(plain["survivors"].tolist()) == [0, 1, 2]
    with pytest.raises(ValueError, match="fold_gradients"):
        ard_rfe_round(theta, 3, grads[:, :4])


def test_rfe_rounds_warm_start_from_the_same_folds_previous_fit(problem, monkeypatch):
    """GP-ARD-RFE's warm starts along the elimination path: the first optimiser run of round r's fold-i fit starts
    from fold i's fitted theta_ of round r - 1 restricted to the surviving genes (v0, v1, v2 as they ended); round 1
    and, with ``_WARM_START_ROUNDS`` off, every round start from the default. Checked by recording every fold fit's
    ``theta_start`` and ``theta_`` and rebuilding the restriction from ``rounds_`` by hand; every warm-started fit
    converges (before: fit() took no start, every round started cold)."""
    import genesel.gp_ard_select as sel_mod

    X, y = problem
    seen = []
    real_fit = GaussianProcessClassifier.fit

    def spy(self, X_, y_, theta_start=None):
        out = real_fit(self, X_, y_, theta_start=theta_start)
        seen.append((X_.shape[1], None if theta_start is None else np.array(theta_start), out.theta_.copy(),
                     out.optimizer_converged_))
        return out

    monkeypatch.setattr(GaussianProcessClassifier, "fit", spy)
    sel = GPARDRFE(n_folds=3, p=3, n_restarts=1, max_iter=2000, random_state=0).fit(X, y)
    k = 3
    assert len(seen) == k * len(sel.sizes_)
    assert all(s[1] is None for s in seen[:k])
    for r in range(1, len(sel.sizes_)):
        genes_before, kept = sel.rounds_[r - 1]["genes"], np.sort(sel.rounds_[r - 1]["survivors"])
        pos = np.array([int(np.flatnonzero(genes_before == g)[0]) for g in kept])
        d_old = genes_before.size
        for i in range(k):
            prev = seen[(r - 1) * k + i][2]
            want = np.r_[prev[0], prev[1 + pos], prev[1 + d_old:]]
            np.testing.assert_array_equal(seen[r * k + i][1], want)
            assert seen[r * k + i][3]  # converged
    seen.clear()
    monkeypatch.setattr(sel_mod, "_WARM_START_ROUNDS", False)
    GPARDRFE(n_folds=3, p=3, n_restarts=1, max_iter=2000, random_state=0).fit(X, y)
    assert all(s[1] is None for s in seen)
