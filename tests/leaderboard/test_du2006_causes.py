"""The cells of Díaz-Uriarte & Alvarez de Andrés 2006, Table 2 (.632+ bootstrap) that genesel's estimates miss by more
than the bootstrap's noise, and what causes each gap (:data:`genesel.leaderboard.du2006.DU2006_GAPS`).

Each test checks a cause, or rules one out, with its own numbers: the data rebuilt by hand (numpy), DLDA written out
from Dudoit, Fridlyand & Speed (2002)'s formula, the .632+ estimate of fixed-k nearest neighbours (scikit-learn) on
the bootstrap samples of :func:`genesel.experiments.bootstrap_splits`, and the leaderboard's own protocol on
variants of the data (:func:`genesel.leaderboard.du2006.bootstrap_632`, B = 10-30 bootstrap samples: a few seconds
each, since their methods are cheap). The tuned rules (PAM's threshold, kNN's k and gene count) are written out by
hand too (numpy: :func:`_pam_632`, :func:`_nnvs_632`) and run at their B = 200 on the board's bootstrap samples and
inner folds, or on inner folds dealt over a bootstrap sample's copies; each agrees with the board's cells where the
folds are the board's. Every threshold sits between the two cases the test tells apart, with the Monte-Carlo
standard error measured here stated beside it.
"""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from genesel.experiments import bootstrap_splits, error_632plus

PAPER = {("alon", "KNN"): 0.152, ("alon", "DLDA"): 0.137, ("singh", "DLDA"): 0.149, ("singh", "KNN"): 0.100,
         ("khan", "KNN"): 0.023, ("khan", "DLDA"): 0.011}


def _per_sample(L):
    return (L - L.mean(axis=1, keepdims=True)) / L.std(axis=1, keepdims=True)


def _dlda_hand(Xtr, ytr, Xte):
    """Dudoit et al. 2002's DLDA (equal priors) from its formula: the class minimising sum_j (x_j - mean_kj)^2 / s_j^2,
    s_j^2 the pooled within-class variance (n - K denominator)."""
    classes = np.unique(ytr)
    means = np.array([Xtr[ytr == c].mean(axis=0) for c in classes])
    resid = Xtr - means[np.searchsorted(classes, ytr)]
    var = (resid ** 2).sum(axis=0) / (ytr.size - classes.size)
    w = np.where(var > 0, 1.0 / np.where(var > 0, var, 1.0), 0.0)
    d = (((Xte[:, None, :] - means[None, :, :]) ** 2) * w).sum(axis=2)
    return classes[np.argmin(d, axis=1)]


def _dlda_priors(Xa, ya, Xb):
    """:func:`_dlda_hand` with the training shares as priors (sma's stat.diag.da offers them)."""
    classes = np.unique(ya)
    means = np.array([Xa[ya == c].mean(axis=0) for c in classes])
    var = ((Xa - means[np.searchsorted(classes, ya)]) ** 2).sum(axis=0) / (ya.size - classes.size)
    d = (((Xb[:, None, :] - means[None]) ** 2) / var).sum(axis=2)
    return classes[np.argmin(d - 2 * np.log([np.mean(ya == c) for c in classes]), axis=1)]


def _dqda(Xa, ya, Xb):
    """Diagonal quadratic discriminant analysis (Dudoit et al. 2002's DQDA): each class its own per-gene variances."""
    classes = np.unique(ya)
    d = [(((Xb - Xa[ya == c].mean(axis=0)) ** 2) / Xa[ya == c].var(axis=0, ddof=1)).sum(axis=1)
         + np.log(Xa[ya == c].var(axis=0, ddof=1)).sum() for c in classes]
    return classes[np.argmin(np.array(d).T, axis=1)]


def _b632(fit_predict, X, y, B, seed=0):
    """(.632+ error, jackknife Monte-Carlo s.e., apparent error) of a rule without tuning, on B bootstrap samples."""
    ap = fit_predict(X, y, X)
    oob = [(te, fit_predict(X[tr], y[tr], X[te])) for tr, te in bootstrap_splits(y, B, seed, min_distinct=2)]
    est = error_632plus(y, ap, oob)
    jk = np.array([error_632plus(y, ap, oob[:i] + oob[i + 1:]).error for i in range(B)])
    return est.error, float(np.sqrt((B - 1) / B * ((jk - jk.mean()) ** 2).sum())), est.apparent


def _sk(est):
    return lambda Xa, ya, Xb: clone(est).fit(Xa, ya).predict(Xb)


def _noise(se, B):
    """Their Monte-Carlo s.e. taken equal to ours at their B = 200, added (as benchmarks/bench_du2006_table2.py)."""
    return se * np.sqrt(1.0 + B / 200.0)


@pytest.fixture(scope="module")
def prostate(mirror):
    from genesel.datasets import load_dataset
    from genesel.leaderboard.cells import load

    raw = np.asarray(load_dataset("singh").X, dtype=np.float64)
    return raw, load("singh", "diaz2006").y


# ---- Prostate: their data rebuilt, gene for gene ----------------------------------------------------------------

def test_prostate_their_6033_genes_are_rebuilt_exactly(prostate):
    """Dettling's filter on the registry's copy of Singh's data: floor 10, ceiling 16000, max/min > 5 and
    max - min >= 50 keeps exactly their 6033 genes; the neighbouring rules do not (5966 with > 50, 6034 with >= 5,
    other floors far off). scikit-feature's independent Prostate-GE.mat (5966 genes, log10) is the strict variant of
    the same rule, value for value: the floor of 10 and log10 are the distributed ones."""
    import scipy.io

    from data_fetch.fetch import fetch_file
    from genesel.leaderboard.cells import load

    raw, y = prostate
    T = np.clip(raw, 10.0, 16000.0)
    hi, lo = T.max(axis=0), T.min(axis=0)
    r, d = hi / lo, hi - lo
    assert int(((r > 5) & (d >= 50)).sum()) == 6033
    assert int(((r > 5) & (d > 50)).sum()) == 5966
    assert int(((r >= 5) & (d >= 50)).sum()) == 6034
    for floor in (1.0, 20.0, 100.0):
        Tf = np.clip(raw, floor, 16000.0)
        hf, lf = Tf.max(axis=0), Tf.min(axis=0)
        assert abs(int(((hf / lf > 5) & (hf - lf >= 50)).sum()) - 6033) > 100
    assert load("singh", "diaz2006").X.shape == (102, 6033)
    m = scipy.io.loadmat(fetch_file("Prostate-GE.mat"))
    Xm = np.asarray(m["X"], dtype=np.float64)
    normal_first = np.r_[np.arange(52, 102), np.arange(52)]  # singh.RData: 52 tumours first; the .mat: 50 normals
    strict = np.log10(T[:, (r > 5) & (d > 50)])[normal_first]
    assert Xm.shape == strict.shape
    assert np.abs(Xm - strict).max() < 0.005  # the .mat's values are rounded


def test_prostate_dlda_cannot_reach_their_cell_on_their_6033_genes(prostate):
    """Their DLDA on Prostate is 0.149. On their 6033 genes, Dudoit's DLDA (written out here, and genesel's, which
    agrees prediction for prediction) misclassifies a third of the very samples it was fitted on (0.34), on the
    log10 scale with or without each sample standardised and on the floored intensities unlogged, with equal or
    empirical priors. A .632+ estimate is a weighted mean of the apparent error
    and the leave-one-out bootstrap error (at least as large here), so it cannot fall to 0.149: the gap is not the
    gene filter, the scale or DLDA's definition; their Prostate file or their DLDA differs from what they state."""
    from genesel.discriminant import DLDA
    from genesel.leaderboard.cells import load

    raw, y = prostate
    T = np.clip(raw, 10.0, 16000.0)
    hi, lo = T.max(axis=0), T.min(axis=0)
    G = T[:, (hi / lo > 5) & (hi - lo >= 50)]
    view = load("singh", "diaz2006").X
    np.testing.assert_array_equal(DLDA(priors="uniform").fit(view, y).predict(view), _dlda_hand(view, y, view))
    for X in (view, np.log10(G), G):
        for est in (DLDA(priors="uniform"), DLDA(priors="empirical")):
            assert np.mean(est.fit(X, y).predict(X) != y) > 0.30
    err, se, app = _b632(_dlda_hand, view, y, B=20)
    assert app > 0.30 and err >= app - 1e-12  # measured: 0.343 apparent, .632+ 0.354 (s.e. about 0.01)
    assert err - PAPER[("singh", "DLDA")] > 10 * _noise(se, 20)


def test_prostate_knn_gap_is_not_k_nor_the_filter(prostate):
    """Their KNN on Prostate is 0.100. On their 6033 genes, nearest neighbours with any fixed k from 1 to 21 have a
    .632+ error of 0.14 or more (k = 1: 0.138; B = 30), above theirs by more than the noise: neither the gene filter
    (the 12600-probe view gave 0.197, the 6033 genes 0.177 with k chosen by the inner CV) nor k's grid closes it."""
    from genesel.leaderboard.cells import load

    view, y = load("singh", "diaz2006").X, prostate[1]
    res = {k: _b632(_sk(KNeighborsClassifier(k)), view, y, B=30) for k in (1, 3, 5, 9, 15, 21)}
    best = min(res, key=lambda k: res[k][0])
    err, se, _ = res[best]
    assert err - PAPER[("singh", "KNN")] > 2 * _noise(se, 30), res


# ---- Colon: the view is their data (DLDA agrees), kNN's gap stays ----------------------------------------------

def test_colon_dlda_is_close_to_theirs_on_the_view_but_beyond_the_noise(mirror):
    """On the 'diaz2006' view of Colon (Dettling's log10, each sample standardised) Dudoit's DLDA, which has no
    hyper-parameter to tune, comes close to their 0.137: 0.150 (s.e. 0.003, B = 200, seed 0: the leaderboard's
    0.2.0 cell) and 0.150-0.159 over 8 seeds (mean 0.156; the seeds' sd 0.003 equals the jackknife s.e.), where
    log10 without the per-sample step gives 0.32: the view is the right scale. But the gap, 0.013-0.019, is beyond
    the bootstrap's noise at B = 200, and neither empirical priors nor class variances (diagonal QDA) close it:
    unexplained (small)."""
    from genesel.leaderboard.cells import load

    t = load("alon", "diaz2006")
    paper = PAPER[("alon", "DLDA")]
    err, se, _ = _b632(_dlda_hand, t.X, t.y, B=200)
    assert 0 < err - paper < 0.025 and err - paper > 2 * _noise(se, 200), (err, se)
    log10_only = _b632(_dlda_hand, np.log10(_colon_raw()), t.y, B=30)  # Alon's intensities are >= 5.8
    assert log10_only[0] > 0.25, log10_only

    for rule in (_dlda_priors, _dqda):
        e, s, _ = _b632(rule, t.X, t.y, B=200)
        assert e - paper > 2 * _noise(s, 200), (rule.__name__, e, s)


def _colon_raw():
    from genesel.datasets import load_dataset

    return np.asarray(load_dataset("alon").X, dtype=np.float64)


@pytest.mark.slow  # about 50 s: 6 values of k x 61 kNN fits on 62 x 2000
def test_colon_knn_gap_is_not_k(mirror):
    """kNN on the same view stays above their 0.152 for every fixed k from 1 to 21 (best k = 1: 0.188, s.e. 0.009,
    B = 60), even taking the best k after the fact: the grid of k (1-9 here) is not the cause of the leaderboard's
    0.21-0.23; unexplained."""
    from genesel.leaderboard.cells import load

    t = load("alon", "diaz2006")
    res = {k: _b632(_sk(KNeighborsClassifier(k)), t.X, t.y, B=60) for k in (1, 3, 5, 9, 15, 21)}
    best = min(res, key=lambda k: res[k][0])
    assert res[best][0] - PAPER[("alon", "KNN")] > 2 * _noise(res[best][1], 60), res


@pytest.mark.slow  # about 35 s: kNN by the leaderboard's protocol (inner CV for k) on 21 fits
def test_colon_the_scale_that_gives_their_knn_contradicts_their_dlda(mirror):
    """Alon's raw intensities (no log, no per-sample standardisation) are the one reading found that gives their
    kNN: 0.155 by the leaderboard's protocol (k by the inner CV; B = 20), against 0.21 on the view. But DLDA on the
    same raw values errs at 0.30 or more, twice their 0.137: both columns cannot come from one raw-scale file, so
    the raw scale is not their Colon data and the kNN gap stays unexplained."""
    from genesel.datasets import load_dataset
    from genesel.leaderboard.cells import load
    from genesel.leaderboard.du2006 import bootstrap_632

    y = load("alon", "diaz2006").y
    raw = np.asarray(load_dataset("alon").X, dtype=np.float64)
    knn = bootstrap_632(raw, y, "kNN (all genes)", n_boot=20)
    assert abs(knn["error"] - PAPER[("alon", "KNN")]) <= 2 * _noise(knn["mc_se"], 20), knn
    err, se, _ = _b632(_dlda_hand, raw, y, B=20)
    assert err - PAPER[("alon", "DLDA")] > 4 * _noise(se, 20), (err, se)


# ---- SRBCT: per-gene standardisation and the scale ---------------------------------------------------------------

@pytest.fixture(scope="module")
def srbct(mirror):
    from genesel.leaderboard.cells import load

    t = load("khan")
    return t.X, t.y


@pytest.mark.slow  # about 50 s: kNN by the leaderboard's protocol, three readings of the data x 11 fits
def test_srbct_knn_gap_comes_from_per_gene_standardisation_and_the_log_scale(srbct):
    """The multi-class board runs kNN on the registry's natural-log ratios standardised gene by gene (0.13-0.14
    against their 0.023). Without the per-gene step it falls to about 0.09, and on the ratio scale (exp of the
    registry's values, Khan's relative red intensities) to about 0.04 (k by the inner CV, B = 10): most of the gap
    is the data's scale and the board's per-gene z-scores, which their methods did not apply. What remains is not
    explained: 0.04 against 0.023 at B = 10, and kNN by hand on the ratio scale at B = 200 gives 0.059 (s.e. 0.003),
    about 8 s.e. from theirs (measured once, not asserted here: this test's B keeps it under a minute)."""
    from genesel.leaderboard.du2006 import bootstrap_632

    X, y = srbct
    board = bootstrap_632(X, y, "kNN (all genes)", n_boot=10, prep=StandardScaler())
    log = bootstrap_632(X, y, "kNN (all genes)", n_boot=10)
    ratio = bootstrap_632(np.exp(X), y, "kNN (all genes)", n_boot=10)
    assert board["error"] > 0.10 and ratio["error"] < 0.06, (board, log, ratio)
    assert board["error"] - log["error"] > 2 * np.hypot(board["mc_se"], log["mc_se"])
    assert log["error"] - ratio["error"] > 2 * np.hypot(log["mc_se"], ratio["mc_se"])


def test_srbct_dlda_gap_is_not_the_scale(srbct):
    """Their DLDA on SRBCT is 0.011. Dudoit's DLDA on the registry's log ratios, on the ratios, and on either with
    each sample standardised (DLDA ignores per-gene scaling) stays at 0.05-0.07 (B = 30): no reading of the data
    brings it to theirs; unexplained."""
    X, y = srbct
    for Z in (X, np.exp(X), _per_sample(X), _per_sample(np.exp(X))):
        err, se, _ = _b632(_dlda_hand, Z, y, B=30)
        assert err - PAPER[("khan", "DLDA")] > 3 * _noise(se, 30), (err, se)


@pytest.mark.slow  # about 40 s of CPU: random forests of 200 trees on 63 x 2308, 3 x 11 and 2 x 41
def test_srbct_random_forest_gap_is_not_the_scale_and_the_reading_that_closes_it_is_not_their_data(srbct):
    """Their random forest on SRBCT is 0.021; the multi-class board's 0.014 (s.e. 0.002; the 0.2.0 rerun, B = 200),
    lower, about 3 s.e. A forest's splits do not move under a monotone map of one gene, so neither the scale (the
    registry's natural-log ratios against Khan's ratios, their exp) nor the board's per-gene z-scores can cause it:
    on the same bootstrap samples with the same forest seed, the .632+ estimates of the three readings agree to
    within 0.003 (measured: 0.0149, 0.0136 and 0.0149 at B = 20; a test value between a threshold's two neighbours
    can move, nothing else). Only a map across genes changes the forest: with each sample standardised, the ratios
    give theirs within the noise (0.022, s.e. 0.002 at B = 100), above the log ratios on the same bootstrap samples
    (0.028 against 0.017 at B = 40, 2.5 s.e. of the paired difference). That reading is not their SRBCT: it leaves
    DLDA at 0.05-0.07 against their 0.011 (:func:`test_srbct_dlda_gap_is_not_the_scale`). Unexplained (small)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import make_pipeline

    X, y = srbct
    rf = RandomForestClassifier(n_estimators=200, n_jobs=1, random_state=0)
    log = _b632(_sk(rf), X, y, B=10)
    ratio = _b632(_sk(rf), np.exp(X), y, B=10)
    zscored = _b632(_sk(make_pipeline(StandardScaler(), rf)), X, y, B=10)
    assert abs(ratio[0] - log[0]) <= 0.003 and abs(zscored[0] - log[0]) <= 0.003, (log, ratio, zscored)
    board, theirs, _, se_theirs, se_diff = _paired_632(_sk(rf), X, _per_sample(np.exp(X)), y, B=40)
    assert abs(theirs - 0.021) <= 2 * _noise(se_theirs, 40), (theirs, se_theirs)
    assert theirs - board > 2 * se_diff, (board, theirs, se_diff)


# ---- Prostate's random forest: within the noise on their genes -------------------------------------------------

def _paired_632(fp, XA, XB, y, B, seed=0):
    """.632+ errors of one rule on two versions of the same samples, on the same B bootstrap samples, with the
    jackknife s.e. of each and of their difference."""
    def parts(X):
        return fp(X, y, X), [(te, fp(X[tr], y[tr], X[te])) for tr, te in bootstrap_splits(y, B, seed, min_distinct=2)]

    def jk_se(values):
        return float(np.sqrt((B - 1) / B * ((values - values.mean()) ** 2).sum()))

    (apA, oobA), (apB, oobB) = parts(XA), parts(XB)
    a, b = error_632plus(y, apA, oobA).error, error_632plus(y, apB, oobB).error
    ja = np.array([error_632plus(y, apA, oobA[:i] + oobA[i + 1:]).error for i in range(B)])
    jb = np.array([error_632plus(y, apB, oobB[:i] + oobB[i + 1:]).error for i in range(B)])
    return a, b, jk_se(ja), jk_se(jb), jk_se(ja - jb)


@pytest.mark.slow  # about 50-100 s: 2 x 11 random forests of 500 trees on 102 x 12600 and 102 x 6033
def test_prostate_random_forest_is_within_noise_on_their_genes(prostate):
    """Their random forest on Prostate is 0.077; the leaderboard had 0.110 (B = 50) on all 12600 probes (floored at
    10, log10, each sample standardised: the view before). On their 6033 genes the same forests (mtry = sqrt(genes),
    grown to purity) land within the noise of their value (500 trees, B = 10: 0.072; the leaderboard's 2000-tree
    cells, B = 12: 0.075, s.e. 0.012), and err less than on all probes on the same bootstrap samples (0.104 here;
    0.094 with 2000 trees). That difference, 0.02-0.03, is 1.4-1.6 paired s.e. at these B: the filter is the likely
    cause of the B = 50 gap, not a proven one."""
    from sklearn.ensemble import RandomForestClassifier

    from genesel.leaderboard.cells import load

    raw, y = prostate
    all_probes = _per_sample(np.log10(np.clip(raw, 10.0, 16000.0)))
    theirs = load("singh", "diaz2006").X
    assert theirs.shape == (102, 6033)
    rf = _sk(RandomForestClassifier(n_estimators=500, max_features="sqrt", n_jobs=1, random_state=0))
    before, after, se_before, se_after, se_diff = _paired_632(rf, all_probes, theirs, y, B=10)
    assert abs(after - 0.077) <= 2 * _noise(se_after, 10), (after, se_after)
    assert before > after, (before, after, se_diff)


@pytest.mark.slow  # about 20 s: SVMs on 60 bootstrap samples of Colon and 40 of Leukemia
def test_colon_svm_gap_is_neither_c_nor_e1071s_default_radial_kernel(mirror):
    """Ours is lower than their 0.147. A linear SVM at e1071's other defaults (genes scaled, cost 1) stays below
    theirs beyond the noise (0.116, s.e. 0.006, B = 60; the leaderboard's C from its grid gives 0.109): C is not the
    cause. e1071's default radial kernel (gamma = 1/#genes, cost 1, genes scaled) comes within their noise on Colon
    (0.155, s.e. 0.009), but on their Leukemia it gives 0.171 (s.e. 0.014, B = 40) where they print 0.014: the same
    SVM in every column of their table cannot be that one. Unexplained."""
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC

    from genesel.leaderboard.cells import load

    def radial(X):
        return make_pipeline(StandardScaler(), SVC(kernel="rbf", C=1.0, gamma=1.0 / X.shape[1]))

    colon = load("alon", "diaz2006")
    linear = _b632(_sk(make_pipeline(StandardScaler(), SVC(kernel="linear", C=1.0))), colon.X, colon.y, B=60)
    assert 0.147 - linear[0] > 2 * _noise(linear[1], 60), linear
    on_colon = _b632(_sk(radial(colon.X)), colon.X, colon.y, B=60)
    assert abs(on_colon[0] - 0.147) <= 2 * _noise(on_colon[1], 60), on_colon
    leukemia = load("golub", "diaz2006")
    on_leukemia = _b632(_sk(radial(leukemia.X)), leukemia.X, leukemia.y, B=40)
    assert on_leukemia[0] - 0.014 > 2 * _noise(on_leukemia[1], 40), on_leukemia


@pytest.mark.slow  # about 10 s: linear SVMs on 100 bootstrap samples of Prostate and of Leukemia
def test_prostate_svm_is_theirs_with_the_genes_scaled_as_e1071_does(mirror):
    """Ours is 0.059 (s.e. 0.001, B = 200) against their 0.064, lower beyond the noise: the board's SVM sees their
    data as they describe it (no per-gene step) and picks C by the inner CV. e1071's svm scales every gene on the
    training part by default (scale = TRUE); a linear SVM at its defaults (genes scaled, cost 1) gives theirs
    (0.067, s.e. 0.002, B = 200), and the same SVM without the scaling stays below them (0.055): the scaling is the
    difference. The same reading gives theirs on Leukemia (0.014 against 0.014) but not on Colon (0.120 against
    0.147, the test above): "explained if" their SVM scaled the genes, not for every data set."""
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC

    from genesel.leaderboard.cells import load

    e1071 = _sk(make_pipeline(StandardScaler(), SVC(kernel="linear", C=1.0)))
    prostate = load("singh", "diaz2006")
    scaled = _b632(e1071, prostate.X, prostate.y, B=100)
    assert abs(scaled[0] - 0.064) <= 2 * _noise(scaled[1], 100), scaled
    unscaled = _b632(_sk(SVC(kernel="linear", C=1.0)), prostate.X, prostate.y, B=100)
    assert 0.064 - unscaled[0] > 2 * _noise(unscaled[1], 100), unscaled
    leukemia = load("golub", "diaz2006")
    on_leukemia = _b632(e1071, leukemia.X, leukemia.y, B=100)
    assert abs(on_leukemia[0] - 0.014) <= 2 * _noise(on_leukemia[1], 100), on_leukemia


# ---- Colon's shrunken centroids: the number of inner folds ----------------------------------------------------------

#: PAM's 30 thresholds, relative to the largest |d_ik| of each training part (pamr.train's grid)
_PAM_REL = np.linspace(0.0, 1.0, 30)


def _pam_fit(X, y):
    """Tibshirani et al. 2002 (ESL Eq. 18.4) by hand: the class means, overall mean, s_i + s_0, m_k, d_ik and the log
    priors (the training shares)."""
    classes = np.unique(y)
    idx = np.searchsorted(classes, y)
    nk = np.bincount(idx).astype(float)
    means = np.array([X[idx == k].mean(axis=0) for k in range(classes.size)])
    s = np.sqrt(((X - means[idx]) ** 2).sum(axis=0) / (y.size - classes.size))
    mk = np.sqrt(1.0 / nk - 1.0 / y.size)
    overall = X.mean(axis=0)
    return classes, overall, s + np.median(s), mk, (means - overall) / (mk[:, None] * (s + np.median(s))), \
        np.log(nk / y.size)


def _pam_predict(fit, rel, Xte):
    """Predictions at each relative threshold (ESL Eqs. 18.5 and 18.2), one row per threshold: the discriminant
    score sum_i (x_i - shrunken centroid_ki)^2 / (s_i + s_0)^2 - 2 log prior_k, written in the standardised units
    z_i = (x_i - overall_i) / (s_i + s_0), where the centroid is u_ki = m_k d'_ik: |z|^2 - 2 z.u_k + |u_k|^2 - 2 log
    prior_k (|z|^2 is the same for every class and dropped)."""
    classes, overall, ss, mk, d, logp = fit
    r = np.atleast_1d(rel)
    shrunk = np.sign(d)[None] * np.maximum(np.abs(d)[None] - r[:, None, None] * np.abs(d).max(), 0.0)
    U = mk[None, :, None] * shrunk  # (thresholds, classes, genes)
    Z = (Xte - overall) / ss
    cross = (Z @ U.reshape(-1, U.shape[2]).T).reshape(Z.shape[0], r.size, classes.size).transpose(1, 0, 2)
    score = (U ** 2).sum(axis=2)[:, None, :] - 2.0 * cross - 2.0 * logp
    return classes[np.argmin(score, axis=2)]


def _tuned_632(choose_and_predict, y, k_folds, B, leaky, seed=0):
    """.632+ (and its jackknife s.e.) of a rule tuned by an inner CV in every bootstrap sample:
    ``choose_and_predict(train, test, inner_folds)`` chooses on the folds and predicts ``test``. The bootstrap samples
    and (not ``leaky``) the inner folds are those of the leaderboard's boot cells; ``leaky``: the inner folds dealt
    over the copies of the bootstrap sample as if it were a data set (what pamr.cv's balanced.folds or e1071's tune
    do), so that a sample's copies can sit on both sides of an inner split."""
    from genesel.experiments import grouped_inner_folds
    from genesel.experiments.protocols import stratified_kfold
    from genesel.leaderboard.du2006 import jackknife_se

    def inner(tr, rep):
        if leaky:
            return [(tr[a], tr[b]) for a, b in stratified_kfold(y[tr], k_folds, seed, repeat=rep)]
        return grouped_inner_folds(y, tr, k_folds, seed, repeat=rep)

    every = np.arange(y.size)
    small = np.bincount(np.searchsorted(np.unique(y), y)).min()
    splits = bootstrap_splits(y, B, seed, min_distinct=min(k_folds, max(2, small - 1)))
    with threadpool_limits(limits=1, user_api="blas"):  # tiny products: threads only wait for each other
        ap = choose_and_predict(every, every, inner(every, 0))
        oob = [(te, choose_and_predict(tr, te, inner(tr, b + 1))) for b, (tr, te) in enumerate(splits)]
    return error_632plus(y, ap, oob).error, jackknife_se(y, ap, oob)


def _zscored(Xa, Xb):
    """Xa and Xb with every gene standardised by Xa's mean and standard deviation (a gene constant in Xa: scale 1):
    the multi-class board's per-gene step, fitted on the training part."""
    mu, sd = Xa.mean(axis=0), Xa.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return (Xa - mu) / sd, (Xb - mu) / sd


def _pam_632(X, y, k, B, fewest, leaky=False, seed=0, zscore=False):
    """:func:`_tuned_632` of PAM with its threshold chosen among its 30 by the inner CV, the ties to the largest
    threshold (SC.s, ``fewest``) or the smallest (SC.l); ``zscore``: the genes standardised on each training part
    first (:func:`_zscored`; PAM's s_i and s_0 change with it)."""
    def fit_predict(a, b, rel):
        Xa, Xb = _zscored(X[a], X[b]) if zscore else (X[a], X[b])
        return _pam_predict(_pam_fit(Xa, y[a]), rel, Xb)

    def choose_and_predict(tr, te, inner):
        errs = sum((fit_predict(a, b, _PAM_REL) != y[b]).sum(axis=1) for a, b in inner)
        best = np.flatnonzero(errs == errs.min())
        return fit_predict(tr, te, _PAM_REL[best[-1] if fewest else best[0]])[0]

    return _tuned_632(choose_and_predict, y, k, B, leaky, seed)


def test_colon_shrunken_centroids_gap_is_the_number_of_inner_folds(mirror):
    """Their SC.s on Colon is 0.122; the leaderboard's is 0.133 (s.e. 0.003, B = 200), beyond the noise. PAM written
    out from its formulas gives the leaderboard's cells (the same bootstrap samples and inner folds; 0.1326 both at
    B = 200), and with the threshold chosen by 10 inner folds, as pamr.cv deals them (balanced.folds: min(smallest
    class, 10) folds, over the bootstrap sample's copies as if it were a data set), instead of the board's 5, SC.s
    falls to 0.124 (0.123 with the copies kept together), within their noise; SC.l stays within it (0.126 against
    0.123). Explained on Colon: the number of inner folds (the board keeps 5 for every method). The same folds move
    Leukemia's SC.s away from theirs (test_leukemia_knn_and_shrunken_centroids_gaps_are_not_the_inner_folds) and
    leave SRBCT's below theirs (test_srbct_shrunken_centroids_gap_is_not_the_inner_folds)."""
    from genesel.leaderboard.cells import load
    from genesel.leaderboard.du2006 import bootstrap_632

    t = load("alon", "diaz2006")
    X, y = t.X, t.y
    cells = bootstrap_632(X, y, "shrunken centroids (SC.s)", n_boot=4)
    # the same rule: equal here; a tolerance of about one prediction, for a near-tie another machine may break apart
    assert _pam_632(X, y, 5, 4, fewest=True)[0] == pytest.approx(cells["error"], abs=0.01), cells
    paper_s, paper_l = 0.122, 0.123
    board, se_board = _pam_632(X, y, 5, 200, fewest=True)
    assert board - paper_s > 2 * _noise(se_board, 200), (board, se_board)
    e, se = _pam_632(X, y, 10, 200, fewest=True, leaky=True)
    assert abs(e - paper_s) <= 2 * _noise(se, 200), (e, se)
    e, se = _pam_632(X, y, 10, 200, fewest=False, leaky=True)
    assert abs(e - paper_l) <= 2 * _noise(se, 200), (e, se)


# ---- Colon's NN.vs: the inner CV dealing a bootstrap sample's copies apart ------------------------------------------

def _fisher_knn(Xa, ya, Xb, sizes, ks, zscore=False):
    """kNN on the top genes of Fisher's criterion (mu_+ - mu_-)^2 / (s_+^2 + s_-^2) of (Xa, ya), or for K > 2
    classes of Dudoit et al. 2002's BSS/WSS (sum_k n_k (mu_k - mu)^2 over sum_i (x_i - mu_{y_i})^2), at every size
    and k: {(size, k): predictions}; distances summed gene by gene along the ranking (numpy only, no scikit-learn).
    ``zscore``: the genes standardised with Xa's means and standard deviations first (the multi-class board's
    per-gene step; the ranking does not change, the distances do)."""
    c = np.unique(ya)
    if zscore:
        Xa, Xb = _zscored(Xa, Xb)
    if c.size == 2:
        A, Bc = Xa[ya == c[0]], Xa[ya == c[1]]
        score = (A.mean(0) - Bc.mean(0)) ** 2 / (A.var(0) + Bc.var(0))
    else:
        means = np.array([Xa[ya == label].mean(axis=0) for label in c])
        counts = np.array([(ya == label).sum() for label in c])
        bss = (counts[:, None] * (means - Xa.mean(axis=0)) ** 2).sum(axis=0)
        score = bss / ((Xa - means[np.searchsorted(c, ya)]) ** 2).sum(axis=0)
    part = [s for s in sizes if s < Xa.shape[1]]
    order = np.argsort(-score, kind="stable")[: max(part, default=1)]
    cum = np.cumsum((Xb[:, None, order] - Xa[None, :, order]) ** 2, axis=2)
    out = {}
    for s in sizes:
        if s < Xa.shape[1]:
            dist = cum[:, :, s - 1]
        else:  # every gene: |b|^2 + |a|^2 - 2 a.b (through BLAS, as scikit-learn computes them)
            dist = (Xb ** 2).sum(axis=1)[:, None] + (Xa ** 2).sum(axis=1)[None, :] - 2.0 * Xb @ Xa.T
        near = np.argsort(dist, axis=1, kind="stable")
        for k in ks:
            votes = np.stack([(ya[near[:, :k]] == label).sum(axis=1) for label in c], axis=1)
            out[(s, k)] = c[np.argmax(votes, axis=1)]
    return out


def _nnvs_632(X, y, k_folds, B, leaky, seed=0, zscore=False, every_gene=False):
    """:func:`_tuned_632` of kNN on Fisher genes with the gene count (2-256, or every gene: the board's sizes) and k
    (1-9) chosen jointly by the inner CV (fewest errors, then fewer genes, then the smaller k); ``every_gene``: kNN
    on all genes, k alone chosen (their KNN)."""
    sizes = (X.shape[1],) if every_gene else (2, 4, 8, 16, 32, 64, 128, 256, X.shape[1])
    ks = (1, 3, 5, 7, 9)
    keys = [(s, k) for s in sizes for k in ks]

    def choose_and_predict(tr, te, inner):
        errs = dict.fromkeys(keys, 0)
        for a, b in inner:
            for key, pred in _fisher_knn(X[a], y[a], X[b], sizes, ks, zscore).items():
                errs[key] += int((pred != y[b]).sum())
        s, k = min(keys, key=lambda q: (errs[q], q[0], keys.index(q)))
        return _fisher_knn(X[tr], y[tr], X[te], (s,), (k,), zscore)[(s, k)]

    return _tuned_632(choose_and_predict, y, k_folds, B, leaky, seed)


def _nnvs_copies_apart(X, y, paper, k_folds, zscore=False):
    """The NN.vs reading on one data set: kNN on Fisher genes by hand with ``k_folds`` inner folds stays below their
    ``paper`` beyond the noise when the folds keep a bootstrap sample's copies together, and comes within it when
    they deal the copies apart. Returns the first estimate and its s.e."""
    board, se_board = _nnvs_632(X, y, k_folds, 200, leaky=False, zscore=zscore)
    assert paper - board > 2 * _noise(se_board, 200), (board, se_board)
    e, se = _nnvs_632(X, y, k_folds, 200, leaky=True, zscore=zscore)
    assert abs(e - paper) <= 2 * _noise(se, 200), (e, se)
    return board, se_board


def test_colon_nnvs_gap_is_the_inner_cv_dealing_copies_apart(mirror):
    """Their NN.vs on Colon is 0.158; the leaderboard's is 0.144 (s.e. 0.003, B = 200), lower beyond the noise. kNN
    on Fisher genes written out by hand gives the board's predictions on its first bootstrap samples (0.1435 at
    B = 200, the board's 0.144; every gene is one of the sizes, as on the board), and stays below theirs with 10
    inner folds (0.142). With the inner folds dealt over the bootstrap sample's copies as if it were a data set (what
    a CV run on the bootstrap sample does: pamr.cv, e1071's tune), a sample's copy in the validation fold finds
    itself at distance 0, the inner CV favours the smallest k and gene counts, and the estimate rises to 0.166 (s.e.
    0.004; 5 such folds: 0.164), within their noise. Explained, if their NN.vs tuned that way: their text does not
    say how its CV was run."""
    from genesel.leaderboard.cells import load
    from genesel.leaderboard.du2006 import bootstrap_632

    t = load("alon", "diaz2006")
    X, y = t.X, t.y
    cells = bootstrap_632(X, y, "kNN on Fisher genes", n_boot=4)
    # the same rule: equal here; a tolerance of about one prediction, for a near-tie of distances (scikit-learn
    # computes them through dot products) another machine may break apart
    assert _nnvs_632(X, y, 5, 4, leaky=False)[0] == pytest.approx(cells["error"], abs=0.01), cells
    _nnvs_copies_apart(X, y, 0.158, 10)


def test_srbct_nnvs_gap_is_the_inner_cv_dealing_copies_apart(srbct):
    """Their NN.vs on SRBCT is 0.031; the multi-class board's is 0.015 (s.e. 0.002, B = 200; Dudoit's BSS/WSS ranks
    the genes of K = 4 classes), lower beyond the noise: the Colon cell's story again. kNN on BSS/WSS genes written
    out by hand, the genes standardised on each training part as the board does, gives the board's 0.015 (0.0149 at
    its bootstrap samples and inner folds). 10 inner folds keep it there (0.017, s.e. 0.002: not the cause). With the
    5 inner folds dealt over the bootstrap sample's copies as if it were a data set, it rises to 0.025 (s.e. 0.003;
    10 such folds: 0.024; the board's own code with those folds: 0.024), within their noise, at its edge. Explained
    if their NN.vs tuned that way (their text does not say how its CV was run)."""
    X, y = srbct
    board, se_board = _nnvs_copies_apart(X, y, 0.031, 5, zscore=True)
    assert board == pytest.approx(0.015, abs=0.0015), (board, se_board)  # the board's cells, 0.2.0 rerun


@pytest.mark.filterwarnings("ignore:the smallest class has:UserWarning")  # 10 folds over a class of 7-9 copies
def test_srbct_shrunken_centroids_gap_is_not_the_inner_folds(srbct):
    """Their SC.s on SRBCT is 0.025 (SC.l 0.012); the multi-class board's SC.s is 0.008 (s.e. 0.001, B = 200),
    lower beyond the noise (SC.l 0.010, within it). PAM written out by hand, the genes standardised on each training
    part as the board does, gives the board's cells (0.0085; SC.l 0.0098). Unlike Colon's, this gap is not the inner
    CV: 10 folds dealt over the bootstrap sample's copies give 0.008, 10 grouped folds 0.005, 5 folds over the copies
    0.011 (measured once at B = 200; asserted here for the first). pamr.cv deals min(smallest class, 10) folds,
    7-9 in SRBCT's bootstrap samples: between the 5 and 10 measured. Nor the board's per-gene step (0.010
    without it). Khan's ratio scale (exp of the registry's values) brings SC.s to 0.020 (s.e. 0.002) but SC.l to
    0.019, beyond their 0.012 (measured once, not asserted): no reading of the data tried gives both. Unexplained."""
    X, y = srbct
    paper = 0.025
    board, se_board = _pam_632(X, y, 5, 200, fewest=True, zscore=True)
    assert board == pytest.approx(0.008, abs=0.0015), (board, se_board)  # the board's cells, 0.2.0 rerun
    assert paper - board > 2 * _noise(se_board, 200), (board, se_board)
    e, se = _pam_632(X, y, 10, 200, fewest=True, leaky=True, zscore=True)
    assert paper - e > 2 * _noise(se, 200), (e, se)


# ---- Leukemia (Golub's 38 x 3051, their view): the NN.vs cause again, and two gaps it does not explain -----------

@pytest.fixture(scope="module")
def leukemia(mirror):
    from genesel.leaderboard.cells import load

    t = load("golub", "diaz2006")
    return t.X, t.y


def test_leukemia_nnvs_gap_is_the_inner_cv_dealing_copies_apart(leukemia):
    """Their NN.vs on Leukemia is 0.056; the board's is 0.037 (s.e. 0.003, B = 200), lower beyond the noise. kNN on
    Fisher genes by hand gives 0.039 at the board's folds; with the 5 inner folds dealt over the bootstrap sample's
    copies, 0.049 (s.e. 0.004), within their noise: the cause of Colon's and SRBCT's NN.vs cells."""
    _nnvs_copies_apart(*leukemia, 0.056, 5)


def test_leukemia_dlda_gap_is_neither_the_priors_nor_the_pooled_variances(leukemia):
    """Their DLDA on Leukemia is 0.020; the board's is 0.028 (s.e. 0.002, B = 200), above beyond the noise. Dudoit's
    DLDA by hand gives the board's predictions on the board's bootstrap samples (the test's own samples, drawn with
    fewer distinct members per class required: 0.031, s.e. 0.003); the training shares as priors change nothing
    on these 27 + 11 samples (0.031), and each class's own variances (DQDA) give 0.095. Unexplained (small)."""
    from genesel.experiments import bootstrap_splits
    from genesel.leaderboard.cells import boot_cell

    X, y = leukemia
    for b in (0, 1):  # the board's cells: the same predictions as by hand on their bootstrap samples
        (tr, te), = bootstrap_splits(y, 1, 0, min_distinct=5, start=b)
        cell = boot_cell("golub", "DLDA (all genes)", b, 5, 0, False, None, "diaz2006")
        assert np.array_equal(cell["test_idx"], te)
        assert np.array_equal(np.asarray(cell["pred"]), _dlda_hand(X[tr], y[tr], X[te]))
    paper = 0.020
    for rule in (_dlda_hand, _dlda_priors, _dqda):
        err, se, _ = _b632(rule, X, y, B=200)
        assert err - paper > 2 * _noise(se, 200), (rule.__name__, err, se)


def test_leukemia_knn_and_shrunken_centroids_gaps_are_not_the_inner_folds(leukemia):
    """Their KNN and SC.s on Leukemia are 0.029 and 0.062; the board's 0.018 and 0.042 (B = 200), lower beyond the
    noise. By hand (kNN with k by the inner CV; PAM), neither moves to theirs with the inner folds dealt over the
    copies (kNN 0.019; SC.s with pamr's 10 folds 0.039) or with 10 grouped folds (SC.s 0.038): Colon's SC.s cause
    (pamr's 10 folds) and the NN.vs cause do not carry over. Unexplained."""
    X, y = leukemia
    for e, se in (_nnvs_632(X, y, 5, 200, leaky=True, every_gene=True),
                  _nnvs_632(X, y, 10, 200, leaky=True, every_gene=True)):
        assert 0.029 - e > 2 * _noise(se, 200), ("KNN", e, se)
    for e, se in (_pam_632(X, y, 10, 200, fewest=True, leaky=True), _pam_632(X, y, 10, 200, fewest=True)):
        assert 0.062 - e > 2 * _noise(se, 200), ("SC.s", e, se)


def test_prostate_nnvs_is_theirs_at_the_boards_folds_and_not_with_the_copies_apart(mirror):
    """The other side of the NN.vs reading: on Prostate (their 102 x 6033) kNN on Fisher genes by hand at the board's
    folds already gives their 0.081 (0.083, s.e. 0.002, B = 200), and the inner folds dealt over the copies move it
    to 0.093 (s.e. 0.002), beyond their noise. So "their inner CV dealt the copies apart" fits Colon, Leukemia and
    SRBCT, not Prostate: the NN.vs entries stay "explained if", and say so."""
    from genesel.leaderboard.cells import load

    t = load("singh", "diaz2006")
    paper = 0.081
    e, se = _nnvs_632(t.X, t.y, 5, 200, leaky=False)
    assert abs(e - paper) <= 2 * _noise(se, 200), (e, se)
    e, se = _nnvs_632(t.X, t.y, 5, 200, leaky=True)
    assert e - paper > 2 * _noise(se, 200), (e, se)
