"""genesel.stumps: kernels vs their plain-Python twins, every greedy step vs brute force from the paper's
definitions, conjunction/disjunction symmetry, the Gibbs risk vs sampled thresholds, AdaBoost vs scikit-learn, the
scikit-learn contract and bad input."""

import numpy as np
import pytest
from sklearn.ensemble import AdaBoostClassifier
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.tree import DecisionTreeClassifier

from genesel import _stumps_kernels as SK
from genesel import bounds as B
from genesel import stumps as S
from naive import stumps as NV
from problems import problem_p


def _problem(m, n, seed, informative=3, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    y = np.where(X[:, :informative].sum(1) + 0.7 * rng.normal(size=m) > 0, 1, -1)
    if integer:
        X = np.round(X * 2)
    return X, y


# ---------------------------------------------------------------- presorting


def test_presort_rows_equals_sorting_the_subset():
    X, _ = _problem(30, 12, 0, integer=True)
    rows = np.random.default_rng(1).permutation(30)[:17]
    v1, o1 = S.presort_rows(S.presort(X), rows)
    v2, o2 = S.presort(X[rows])
    np.testing.assert_array_equal(v1, v2)
    # orders may differ within ties only: the values they point to must agree
    np.testing.assert_array_equal(X[rows][o1, np.arange(12)[:, None]], X[rows][o2, np.arange(12)[:, None]])
    v3, o3 = NV.restrict(*S.presort(X),
                         np.where(np.isin(np.arange(30), rows), np.searchsorted(np.sort(rows), np.arange(30)), -1))
    assert v3.shape == v1.shape


# ---------------------------------------------------------------- kernels vs naive twins


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("occam", [False, True])
def test_cover_node_matches_twin(seed, occam):
    X, y = _problem(25, 15, seed, integer=(seed % 2 == 0))
    pos = y > 0
    vals, order = S.presort(X)
    rng = np.random.default_rng(seed)
    active = rng.random(25) < 0.8
    used = np.zeros(15, bool)
    used[rng.integers(0, 15)] = True
    A, Bv = X.min(0), X.max(0)
    ps = np.array([0.5, 1.0, 2.0, 10.0])
    etas = np.array([0.0, 0.01, 0.05, 0.2])
    res = SK.cover_node(vals, order, active, pos, used, ps, etas, int(pos.sum()), A, Bv, occam)
    twin = NV.cover_node(vals, order, active, pos, used, ps, etas, int(pos.sum()), A, Bv, occam)
    for c in range(len(ps)):
        u, gain, g, d, lo, hi, q, r, bits, thr = twin[c]
        assert (res[0][c], res[1][c], res[4][c], res[5][c], res[7][c]) == (g, d, q, r, bits)
        assert res[6][c] == u and res[2][c] == lo and res[3][c] == hi and res[8][c] == thr


@pytest.mark.parametrize("seed", range(6))
def test_vectorised_scm_step_matches_twin(seed):
    X, y = _problem(25, 15, seed, integer=(seed % 2 == 0))
    pos = y > 0
    rng = np.random.default_rng(seed)
    active = rng.random(25) < 0.7
    active[np.flatnonzero(~pos)[0]] = True
    used = np.zeros(15, bool)
    used[rng.integers(0, 15)] = True
    vals, order = S._keep_only(S.presort(X), active)
    ps = np.array([0.5, 1.0, 2.0, 10.0])
    res = S._scm_node(vals, order, active, pos, used, ps)
    full_vals, full_order = S.presort(X)
    twin = NV.cover_node(full_vals, full_order, active, pos, used, ps, np.zeros(4), int(pos.sum()), X.min(0),
                         X.max(0), False)
    for c in range(len(ps)):
        u, gain, g, d, lo, hi, q, r, bits, thr = twin[c]
        assert (res[0][c], res[1][c], res[4][c], res[5][c]) == (g, d, q, r)
        assert res[6][c] == u and res[2][c] == lo and res[8][c] == thr


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("width", [0.0, 0.07])
def test_soft_node_matches_exhaustive_twin(seed, width):
    X, y = _problem(22, 14, seed, integer=(seed == 3))
    pos = y > 0
    vals, order = S.presort(X)
    rng = np.random.default_rng(seed)
    pi = np.where(rng.random(22) < 0.3, rng.random(22), 1.0)
    pi[rng.integers(0, 22)] = 0.0
    used = np.zeros(14, bool)
    used[0] = True
    A, Bv = X.min(0) - 0.1, X.max(0) + 0.2
    ps = np.array([0.5, 2.0])
    etas = np.array([0.0, 0.01, 0.05, 0.3])
    pidx = np.array([0, 1, 0, 1])
    rv, ro = S._keep_only((vals, order), pi > 0)  # the kernel works on the examples still in S
    new, idx = SK.soft_layout(rv, ro)
    res = SK.soft_node(rv, ro, new, idx, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, width, 1e-9)
    twin = NV.soft_node(vals, order, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, width)
    for c in range(len(etas)):
        U, _, g, d, a, b = twin[c]
        assert (res[0][c], res[1][c], res[2][c], res[3][c]) == (g, d, a, b)
        assert res[4][c] == U
    assert res[5] <= 13  # genes scored exactly (pruning), never more than the unused genes


def _gene(seed, J=15):
    """One gene's distinct values with negative and positive weights (some zero), and their prefix sums."""
    rng = np.random.default_rng(seed)
    u = np.sort(rng.choice(np.arange(200), J, replace=False) / 17.0 + rng.normal(0, 0.01) )
    wn = np.where(rng.random(J) < 0.5, rng.random(J), 0.0)
    wp = np.where(wn > 0, 0.0, rng.random(J))
    return u, wn, wp, np.concatenate([[0.0], np.cumsum(wn)]), np.concatenate([[0.0], np.cumsum(wp)])


@pytest.mark.parametrize("seed", range(5))
def test_width_means_are_the_best_window_means_of_the_soft_cover(seed):
    """W*(w) of the margin bound is the largest soft utility (no margin term) of an interval of width w: checked
    against the coverage definition on a dense grid of window positions plus every position where a window end
    meets a value."""
    u, wn, wp, Wn, Wp = _gene(seed)
    J = u.size
    fneg, fpos = Wn[-1], Wp[-1] + 1.0
    ps = np.array([0.5, 3.0])
    HW = np.empty((2, 2, 1 + SK.MARGIN_CLASSES))
    SK._width_means(u, Wn, Wp, J, fneg, fpos, ps, np.array([True, True]), HW, np.empty(J + 1), np.empty(J + 1),
                    np.empty(2 * J + 2), np.empty(2 * J + 2))
    for t, p in enumerate(ps):
        for di, d in enumerate((1, -1)):
            twin = NV.width_means(u, wn, wp, fneg, fpos, p, d, SK.MARGIN_CLASSES)
            assert HW[t, di, 0] == pytest.approx(twin[0], abs=1e-7)
            for k in range(SK.MARGIN_CLASSES):
                assert HW[t, di, 1 + k] == pytest.approx(twin[1 + k], abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_the_margin_bound_is_above_every_interval_of_the_gene(seed):
    u, wn, wp, Wn, Wp = _gene(seed, J=12)
    J = u.size
    fneg, fpos = Wn[-1], Wp[-1] + 1.0
    R = (u[-1] - u[0]) * 1.3
    ps = np.array([0.5, 3.0])
    HW = np.empty((2, 2, 1 + SK.MARGIN_CLASSES))
    SK._width_means(u, Wn, Wp, J, fneg, fpos, ps, np.array([True, True]), HW, np.empty(J + 1), np.empty(J + 1),
                    np.empty(2 * J + 2), np.empty(2 * J + 2))
    for t, p in enumerate(ps):
        for eta in (0.01, 0.05, 0.3):
            exact = max(NV.margin_utilities(u, wn, wp, fneg, fpos, p, eta, R))
            bound = SK._margin_bound(HW[t], eta, np.log(R), u[-1] - u[0])
            assert bound >= exact - 1e-12
            # and it is below the bound it refines (the best hard stump, the margin of the widest interval)
            assert bound <= HW[t, :, 0].max() - eta * np.log(R / (u[-1] - u[0])) + 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_the_width_class_bound_prunes_and_changes_no_choice(seed):
    X, y = _problem(40, 60, seed, integer=(seed == 5))
    pos = y > 0
    vals, order = S.presort(X)
    rng = np.random.default_rng(seed)
    pi = np.where(rng.random(40) < 0.3, rng.random(40), 1.0)
    used = np.zeros(60, bool)
    used[1] = True
    A, Bv = X.min(0) - 0.05, X.max(0) + 0.1
    ps = np.array([0.5, 1.0, 5.0])
    etas = np.array([0.0, 0.01, 0.03, 0.1, 0.1, 0.3])
    pidx = np.array([0, 1, 2, 0, 1, 2])
    new, idx = SK.soft_layout(vals, order)
    args = (vals, order, new, idx, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0, 1e-9)
    tight, plain = SK.soft_node(*args, True), SK.soft_node(*args, False)
    for a, b in zip(tight[:5], plain[:5]):
        np.testing.assert_array_equal(a, b)
    assert tight[5] < plain[5]  # genes scored exactly: the bound spared some
    twin = NV.soft_node(vals, order, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0)
    for c in range(len(etas)):
        assert (tight[0][c], tight[1][c], tight[2][c], tight[3][c]) == twin[c][2:]


@pytest.mark.parametrize("seed", range(6))
def test_row_pruning_keeps_every_row_that_reaches_the_threshold(seed):
    """The row test of the exact row pruning against the coverage definition (the twin's soft utility with its
    margin term, not the kernel's prefix sums): a row some interval of which reaches T is never skipped, and rows
    whose intervals all fall clearly below T are (the test can fail both ways)."""
    u, wn, wp, Wn, Wp = _gene(seed, J=12)
    J = u.size
    fneg, fpos = Wn[-1], Wp[-1] + 1.0
    R = (u[-1] - u[0]) * 1.3
    logR = np.log(R)
    ps = np.array([0.5, 3.0])
    etas = np.array([0.0, 0.05, 0.3, 0.0])
    pidx = np.array([0, 1, 0, 1])
    C = etas.size
    HI, HS = np.empty((2, 2, J + 1)), np.empty((2, 2))
    lb, err = np.empty(C), np.empty(C)
    lam, bnd = np.empty(SK.ROW_CLASSES + 1), np.empty(SK.ROW_CLASSES + 1)
    SK._prune_setup(u, Wn, Wp, J, R, logR, fneg, fpos, ps, etas, pidx, np.ones(C, bool), HI, HS,
                    lb, err, lam, bnd)
    skipped = 0
    for c in range(C):
        p, e = ps[pidx[c]], etas[c]
        for di, d in enumerate((1, -1)):
            for i in range(J - 1):
                row = [NV.soft_utility(u, wn, wp, u[i], u[k], d, p, fneg, fpos) - e * np.log(R / (u[k] - u[i]))
                       for k in range(i + 1, J)]
                for T in (max(row) - 1e-9, max(row) + 0.02, max(row) + 0.3):
                    ok = SK._row_can_win(HI[pidx[c], di], u, J, i, T, e, lam, bnd, 1e-12)
                    if max(row) >= T:
                        assert ok, (c, d, i, T)
                    skipped += not ok
    assert skipped > 0


@pytest.mark.parametrize("seed", range(8))
def test_pruned_soft_node_is_the_full_scan(seed):
    """soft_node with both prunings (width-class bound, rows) against no pruning and the exhaustive twin, on soft
    weights, many pairs and (seeds 0, 3, 6) integer data full of exact ties: the same choices and utilities."""
    X, y = _problem(30, 25, seed, integer=(seed % 3 == 0))
    pos = y > 0
    rng = np.random.default_rng(seed)
    pi = np.where(rng.random(30) < 0.4, rng.random(30), 1.0)
    pi[rng.integers(0, 30, 3)] = 0.0
    used = np.zeros(25, bool)
    used[2] = True
    A, Bv = X.min(0) - 0.1, X.max(0) + 0.3
    ps = np.array([0.5, 1.0, 5.0, 10.0])
    etas = np.array([0.0, 0.01, 0.1, 0.0, 0.03, 0.3, 0.0, 0.1])
    pidx = np.array([0, 0, 0, 1, 1, 2, 3, 3])
    rv, ro = S._keep_only(S.presort(X), pi > 0)
    new, idx = SK.soft_layout(rv, ro)
    args = (rv, ro, new, idx, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0, 1e-9)
    pruned, full = SK.soft_node(*args, True, True), SK.soft_node(*args, False, False)
    for a, b in zip(pruned[:5], full[:5]):
        np.testing.assert_array_equal(a, b)
    vals, order = S.presort(X)
    twin = NV.soft_node(vals, order, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0)
    for c in range(etas.size):
        U, _, g, d, a, b = twin[c]
        assert (pruned[0][c], pruned[1][c], pruned[2][c], pruned[3][c]) == (g, d, a, b)
        assert pruned[4][c] == U


def test_soft_node_scores_intervals_whose_ends_are_one_ulp_apart():
    """Two distinct values 1 ulp apart that the shift by A makes equal (Alizadeh's lymphoma data, 300 genes, outer
    fold 0: the prefix-sum formula was 0 / 0, a ZeroDivisionError in the compiled kernel): the kernel now scores such
    an interval from the unshifted values, as its twin does, and the coverage is the exact one (the lower end fully
    covered, the upper end not at all, for d = +1)."""
    v = 1.3602358280056608
    X, y = _problem(16, 4, 5)
    X[:8, 1], X[8:, 1] = v, np.nextafter(v, 2.0)  # gene 1: two values, 1 ulp apart, separating the classes 8 / 8
    y = np.where(np.arange(16) < 8, -1, 1)
    A, Bv = X.min(0) - 5.0, X.max(0) + 0.2
    assert (X[0, 1] - A[1]) == (X[8, 1] - A[1])  # the shifted ends collapse
    with pytest.raises(ZeroDivisionError):  # what the kernel computed before
        SK._soft_cover(np.array([0.0, 8.0, 8.0]), np.array([0.0, 8.0 * (v - A[1]), 8.0 * (v - A[1])]), 2, 0, 1,
                       v - A[1], np.nextafter(v, 2.0) - A[1], 1)
    u = np.array([v, np.nextafter(v, 2.0)])
    assert SK._soft_cover_close(u, np.array([8.0, 0.0]), np.array([0.0, 8.0, 8.0]), 2, 0, 1, 1) == 8.0
    assert SK._soft_cover_close(u, np.array([8.0, 0.0]), np.array([0.0, 8.0, 8.0]), 2, 0, 1, -1) == 0.0
    pos = y > 0
    vals, order = S.presort(X)
    pi = np.ones(16)
    used = np.zeros(4, bool)
    ps, etas, pidx = np.array([0.5, 2.0]), np.array([0.0, 0.01]), np.array([0, 1])
    new, idx = SK.soft_layout(vals, order)
    res = SK.soft_node(vals, order, new, idx, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0, 1e-9)
    twin = NV.soft_node(vals, order, pi, pos, used, ps, etas, pidx, int(pos.sum()), A, Bv, 0.0)
    for c in range(len(etas)):
        U, _, g, d, a, b = twin[c]
        assert (res[0][c], res[1][c], res[2][c], res[3][c]) == (g, d, a, b)
        assert res[4][c] == U
    assert res[0][0] == 1  # with eta = 0 the perfect split of gene 1 wins


@pytest.mark.parametrize("seed", range(3))
def test_gini_round_matches_twin_over_boosting_rounds(seed):
    X, y = _problem(30, 25, seed)
    r = S.adaboost_path(X, y, 15)
    vals, order = S.presort(X)
    valid = vals[:, 1:] > vals[:, :-1] + 1e-7
    skip = ~valid.any(1)
    # replay the weights and compare every round with the exhaustive twin
    w = np.full(30, 1 / 30)
    for t in range(len(r["gene"])):
        g, s, _ = NV.gini_round(vals, order, valid, w, y > 0, skip)
        assert g == r["gene"][t]
        thr = vals[g, s] / 2 + vals[g, s + 1] / 2
        assert thr == r["threshold"][t]
        h = np.where(X[:, g] <= thr, r["left"][t], r["right"][t])
        inc = h != y
        w = np.exp(np.log(w) + r["alpha"][t] * inc)
        w /= w.sum()


def test_dyadic_bits_twin_and_bounds_module_agree():
    rng = np.random.default_rng(0)
    for _ in range(200):
        a, b = np.sort(rng.uniform(-2, 5, 2))
        k1 = SK.dyadic_bits(a, b, -2.0, 5.0)
        k2 = NV.dyadic_bits(a, b, -2.0, 5.0)
        k3 = B.dyadic_threshold(a, b, -2.0, 5.0)
        assert k1[0] == k2[0] == int(k3[0])
        assert k1[1] == k2[1] == float(k3[1])


# ---------------------------------------------------------------- every greedy step is a maximal-utility stump


def _hard_candidates(X, active, used):
    """Every (gene, direction, covered mask) with thresholds between/around the active values (by definition)."""
    for g in range(X.shape[1]):
        if used[g]:
            continue
        vals = np.unique(X[active, g])
        cuts = np.concatenate([(vals[:-1] + vals[1:]) / 2, [vals[-1] + 1.0]])
        for t in cuts:
            for d in (1, -1):
                out = (X[:, g] - t) * d > 0
                cov = active & ~out
                if cov.any():
                    yield g, d, cov


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("p", [0.5, 1.0, 3.0])
def test_scm_each_step_has_maximal_utility(seed, p):
    X, y = _problem(24, 9, seed)
    pos = y > 0
    path = S.scm_paths(X, pos, p, 4)[0]
    active = np.ones(24, bool)
    used = np.zeros(9, bool)
    for g, d, t, u in zip(path["gene"], path["direction"], path["threshold"], path["utility"]):
        best = max(np.sum(cov & ~pos) - p * np.sum(cov & pos) for _, _, cov in _hard_candidates(X, active, used))
        assert u == pytest.approx(best)
        out = (X[:, g] - t) * d > 0
        cov = active & ~out
        assert np.sum(cov & ~pos) - p * np.sum(cov & pos) == pytest.approx(u)
        active &= out
        used[g] = True


@pytest.mark.parametrize("seed", range(3))
def test_occam_each_step_has_maximal_utility(seed):
    X, y = _problem(24, 8, seed)
    pos = y > 0
    A, Bv = X.min(0), X.max(0)
    p, eta = 1.0, 0.02
    path = S.occam_paths(X, pos, p, eta, 3, A, Bv)[0]
    active = np.ones(24, bool)
    used = np.zeros(8, bool)
    for g, d, t, u in zip(path["gene"], path["direction"], path["threshold"], path["utility"]):
        n_neg, n_pos_all = np.sum(active & ~pos), np.sum(pos)
        best = -np.inf
        for gg in range(8):
            if used[gg]:
                continue
            v = np.unique(X[active, gg])
            edges = np.concatenate([v, [Bv[gg]]])
            for j in range(len(v)):
                lo, hi = edges[j], edges[j + 1]
                nb, _ = B.dyadic_threshold(lo, hi, A[gg], Bv[gg])
                if nb < 0:
                    continue
                for dd in (1, -1):
                    if dd == -1 and j == len(v) - 1:
                        continue
                    cov = active & ((X[:, gg] <= lo) if dd == 1 else (X[:, gg] >= hi))
                    if not cov.any():
                        continue
                    uu = np.sum(cov & ~pos) / n_neg - p * np.sum(cov & pos) / n_pos_all - eta * nb
                    best = max(best, uu)
        assert u == pytest.approx(best)
        # the threshold is the shortest code of its gap and classifies the active examples as its gap does
        out = (X[:, g] - t) * d > 0
        active &= out
        used[g] = True


def _sigma(x, a, b, d):
    up = np.clip((x - a) / (b - a), 0, 1)
    return up if d > 0 else 1 - up


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("p,eta", [(1.0, 0.0), (2.0, 0.02), (0.5, 0.1)])
def test_pac_bayes_each_step_has_maximal_utility(seed, p, eta):
    X, y = _problem(20, 7, seed)
    pos = y > 0
    A, Bv = X.min(0), X.max(0)
    path = S.pac_bayes_paths(X, pos, p, eta, 3, A, Bv)[0]
    pi = np.ones(20)
    used = np.zeros(7, bool)
    for g, d, a, b, u in zip(path["gene"], path["direction"], path["a"], path["b"], path["utility"]):
        N = pi[~pos].sum()
        best = -np.inf
        for gg in range(7):
            if used[gg]:
                continue
            v = np.unique(X[pi > 0, gg])
            for i in range(len(v)):
                for k in range(i + 1, len(v)):
                    for dd in (1, -1):
                        s = _sigma(X[:, gg], v[i], v[k], dd)
                        C = np.sum(((1 - s) * pi)[~pos])
                        E = np.sum(((1 - s) * pi)[pos])
                        uu = C / N - p * E / pos.sum() - eta * np.log((Bv[gg] - A[gg]) / (v[k] - v[i]))
                        best = max(best, uu)
        assert u == pytest.approx(best, rel=1e-10, abs=1e-12)
        pi = pi * _sigma(X[:, g], a, b, d)
        used[g] = True


# ---------------------------------------------------------------- model properties


@pytest.mark.parametrize("cls,kw", [(S.SampleCompressionStumps, {}), (S.OccamStumps, {"eta": 0.01}),
                                    (S.PACBayesStumps, {"eta": 0.01})])
def test_disjunction_is_the_conjunction_of_swapped_labels(cls, kw):
    X, y = _problem(40, 12, 5)
    dis = cls(model="disjunction", **kw).fit(X, y)
    con = cls(model="conjunction", **kw).fit(X, -y)
    assert dis.stumps_ == con.stumps_
    assert dis.positive_class_ == -1 and con.positive_class_ == 1
    # same stumps, the same class called "positive": identical predictions
    # the same stumps fire on the same samples: each model predicts its own positive class there
    np.testing.assert_array_equal(dis.predict(X), -con.predict(X))


def test_gibbs_risk_matches_sampled_thresholds():
    X, y = _problem(60, 10, 2)
    est = S.PACBayesStumps(eta=0.0, max_stumps=3).fit(X, y)
    rng = np.random.default_rng(0)
    errs = []
    for _ in range(20000 // 20):
        t = np.array([rng.uniform(a, b, size=20) for _, (a, b), _ in est.stumps_])  # (k, 20 draws)
        outs = np.ones((20, X.shape[0]), bool)
        for j, (g, _, d) in enumerate(est.stumps_):
            outs &= (X[None, :, g] - t[j][:, None]) * d > 0
        pred = np.where(outs, est.positive_class_, -est.positive_class_)
        errs.append(np.mean(pred != y[None, :], axis=1))
    mc = np.mean(np.concatenate(errs))
    assert est.gibbs_risk(X, y) == pytest.approx(mc, abs=0.004)
    assert est.gibbs_risk_ == pytest.approx(est.gibbs_risk(X, y))


def test_staged_predict_equals_refit_with_fewer_stumps():
    X, y = _problem(50, 20, 3)
    for cls in (S.SampleCompressionStumps, S.OccamStumps, S.PACBayesStumps):
        big = cls(p=2.0, max_stumps=6).fit(X, y)
        staged = list(big.staged_predict(X))
        for k in range(1, big.n_stumps_ + 1):
            small = cls(p=2.0, max_stumps=k).fit(X, y)
            np.testing.assert_array_equal(small.predict(X), staged[k - 1])


def test_bounds_are_the_theorems():
    X, y = _problem(50, 30, 4)
    sc = S.SampleCompressionStumps(p=1.0, max_stumps=3).fit(X, y)
    k = sc.n_stumps_
    outside = np.ones(50, bool)
    outside[sc.compression_set_] = False
    pos = y > 0
    j = int(np.sum(((sc.predict(X) > 0) != pos) & outside))
    assert sc.bound_ == pytest.approx(B.sample_compression_bound(k, j, 50, 30))
    oc = S.OccamStumps(p=1.0, eta=0.01, max_stumps=3).fit(X, y)
    assert oc.bound_ == pytest.approx(B.occam_bound(oc.n_errors_, 50, 30, oc.bits_))
    pb = S.PACBayesStumps(p=1.0, eta=0.01, max_stumps=3).fit(X, y)
    lr = [np.log((X[:, g].max() - X[:, g].min()) / (b - a)) for g, (a, b), _ in pb.stumps_]
    assert pb.bound_ == pytest.approx(B.pac_bayes_bound(pb.gibbs_risk_, 50, 30, lr))


def test_fixed_margin_intervals_have_the_fixed_width():
    X, y = _problem(40, 10, 6)
    est = S.PACBayesStumps(margin="fixed", gamma=0.1).fit(X, y)
    for g, (a, b), _ in est.stumps_:
        assert b - a == pytest.approx(0.2 * (X[:, g].max() - X[:, g].min()))
        assert a >= X[:, g].min() - 1e-12 and b <= X[:, g].max() + 1e-12


def test_pac_bayes_respects_an_a_priori_feature_range():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 256, size=(60, 16)) / 255.0
    y = np.where(X[:, 0] + X[:, 1] > 1, 1, -1)
    est = S.PACBayesStumps(feature_range=(0.0, 1.0)).fit(X, y)
    assert est.bound_ < 1
    with pytest.raises(ValueError, match="feature_range"):
        S.PACBayesStumps(feature_range=(0.0, 0.5)).fit(X, y)


# ---------------------------------------------------------------- AdaBoost vs scikit-learn


@pytest.mark.parametrize("seed", range(3))
def test_adaboost_matches_scikit_learn(seed):
    X, y = _problem(40, 6, seed)
    ours = S.AdaBoostStumps(n_estimators=25).fit(X, y)
    # scikit-learn visits genes in a random order: on these tie-free data every order gives the same ensemble
    sk = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=25, random_state=seed).fit(X, y)
    assert len(sk.estimators_) == ours.n_rounds_
    np.testing.assert_allclose(sk.estimator_weights_[: ours.n_rounds_], ours.alphas_, rtol=1e-9)
    np.testing.assert_array_equal([e.tree_.feature[0] for e in sk.estimators_], ours.genes_)
    np.testing.assert_allclose([e.tree_.threshold[0] for e in sk.estimators_], ours.thresholds_)
    for a, b in zip(sk.staged_predict(X), ours.staged_predict(X)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(sk.decision_function(X), ours.decision_function(X), rtol=1e-9, atol=1e-12)


def test_adaboost_stops_on_a_perfect_stump():
    X, y = _problem(30, 5, 0)
    X[:, 3] = y * 5.0
    est = S.AdaBoostStumps(n_estimators=50).fit(X, y)
    assert est.n_rounds_ == 1 and est.genes_[0] == 3
    np.testing.assert_array_equal(est.predict(X), y)


# ---------------------------------------------------------------- scikit-learn contract, pipelines, bad input


def test_nested_grid_search_in_a_pipeline():
    X, y = _problem(60, 15, 1)
    pipe = Pipeline([("id", FunctionTransformer()), ("clf", S.PACBayesStumps())])
    gs = GridSearchCV(pipe, {"clf__p": [1.0, 3.0], "clf__eta": [0.0, 0.05], "clf__max_stumps": [1, 3]}, cv=3)
    gs.fit(X, y)
    assert gs.best_estimator_.named_steps["clf"].n_stumps_ >= 1
    assert gs.score(X, y) > 0.6


@pytest.mark.parametrize("cls,kw,match", [
    (S.SampleCompressionStumps, {"p": -1.0}, "p"),
    (S.SampleCompressionStumps, {"max_stumps": 0}, "max_stumps"),
    (S.OccamStumps, {"model": "majority"}, "model"),
    (S.OccamStumps, {"eta": -0.1}, "eta"),
    (S.PACBayesStumps, {"margin": "wide"}, "margin"),
    (S.PACBayesStumps, {"margin": "fixed", "gamma": 0.9}, "gamma"),
    (S.PACBayesStumps, {"delta": 0.0}, "delta"),
    (S.PACBayesStumps, {"feature_range": (1.0, 0.0)}, "feature_range"),
    (S.AdaBoostStumps, {"n_estimators": 0}, "n_estimators"),
])
def test_bad_parameters(cls, kw, match):
    X, y = _problem(20, 4, 0)
    with pytest.raises(ValueError, match=match):
        cls(**kw).fit(X, y)


def test_bad_data():
    X, y = _problem(20, 4, 0)
    with pytest.raises(ValueError, match="single class"):
        S.PACBayesStumps().fit(X, np.ones(20))
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        S.SampleCompressionStumps().fit(Xn, y)
    with pytest.raises(ValueError, match="Unknown label type"):  # three classes: one-vs-rest (test_multiclass_binary)
        S.OccamStumps().fit(X, np.linspace(0.0, 1.0, 20))


@pytest.mark.parametrize("cls,key,values", [
    (S.SampleCompressionStumps, None, None),
    (S.OccamStumps, "eta", (0.0, 0.02)),
    (S.PACBayesStumps, "eta", (0.0, 0.03)),
    (S.PACBayesStumps, "gamma", (0.05, 0.1)),
])
@pytest.mark.parametrize("model", ["conjunction", "disjunction"])
def test_path_losses_equal_refits_scored_on_the_validation_data(cls, key, values, model):
    """path_losses' entry [c, s] is the validation loss of a refit with setting c and max_stumps = s + 1: errors of
    the prediction, or (PAC-Bayes, variable margin) the summed Gibbs losses."""
    X, y = _problem(60, 15, 11)
    Xv, yv = _problem(30, 15, 12)
    S_max = 4
    kw = {"margin": "fixed"} if key == "gamma" else {}
    est = cls(max_stumps=S_max, model=model, **kw)
    grid = [{"p": p} if key is None else {"p": p, key: v} for p in (0.5, 2.0) for v in (values or (None,))]
    losses = est.path_losses(X, y, Xv, yv, grid, presorted=S.presort(X))
    assert losses.shape == (len(grid), S_max)
    assert not hasattr(est, "stumps_") and not hasattr(est, "classes_")  # the learner itself is left unfitted
    for c, setting in enumerate(grid):
        for s in range(S_max):
            one = cls(max_stumps=s + 1, model=model, **kw).set_params(**setting).fit(X, y)
            if cls is S.PACBayesStumps and key != "gamma":
                ref = one.gibbs_losses(Xv, yv).sum()
                assert losses[c, s] == pytest.approx(ref, rel=1e-12, abs=1e-12)
            else:
                assert losses[c, s] == np.sum(one.predict(Xv) != yv)


def test_path_losses_refuses_a_grid_without_its_parameters_and_unknown_labels():
    X, y = _problem(30, 6, 2)
    with pytest.raises(ValueError, match="'eta'"):
        S.OccamStumps().path_losses(X, y, X, y, [{"p": 1.0}])
    with pytest.raises(ValueError, match="not among the training classes"):
        S.SampleCompressionStumps().path_losses(X, y, X, np.where(y > 0, 2, -1), [{"p": 1.0}])
    with pytest.raises(ValueError, match="empty"):
        S.SampleCompressionStumps().path_losses(X, y, X, y, [])


# ---------------------------------------------------------------- issue 25: every scale and offset


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-7, 2.0**-40, 1e7, 1e200, 1e300])
def test_adaboost_gives_the_model_of_scale_1_at_any_scale(scale):
    """scikit-learn's trees treat values closer than 1e-7 (absolute) as equal; AdaBoostStumps applies that
    tolerance in units of each gene's range where the range is below 1/2, so a gene scaled by 1e-7 or 1e-200 splits as
    at scale 1. Before: at 1e-200 one class everywhere (training accuracy 0.5), at 1e-7 accuracy 0.62, silently."""
    X, y, Xt = problem_p(test=True)
    ref = S.AdaBoostStumps().fit(X, y)
    got = S.AdaBoostStumps().fit(X * scale, y)
    np.testing.assert_array_equal(got.genes_, ref.genes_)
    np.testing.assert_array_equal(got.alphas_, ref.alphas_)
    np.testing.assert_array_equal(got.predict(Xt * scale), ref.predict(Xt))
    np.testing.assert_allclose(got.thresholds_ / scale, ref.thresholds_, rtol=1e-12)
    assert (ref.predict(X) == y).all()


@pytest.mark.parametrize("offset", [1e4, 1e8, 1e12])
@pytest.mark.parametrize("scale", [1.0, 1e-200])
def test_adaboost_gives_the_model_of_offset_0_at_any_offset(offset, scale):
    X, y, Xt = problem_p(test=True)
    ref = S.AdaBoostStumps().fit(X, y)
    got = S.AdaBoostStumps().fit((X + offset) * scale, y)
    np.testing.assert_array_equal(got.genes_[:5], ref.genes_[:5])
    np.testing.assert_array_equal(got.predict((Xt + offset) * scale), ref.predict(Xt))


@pytest.mark.parametrize("cls,kw", [(S.SampleCompressionStumps, {}), (S.OccamStumps, {}), (S.PACBayesStumps, {}),
                                    (S.PACBayesStumps, {"margin": "fixed"})])
@pytest.mark.parametrize("scale,offset", [(1e-300, 0.0), (1e-200, 0.0), (1e300, 0.0), (1.0, 1e8), (1.0, 1e12),
                                          (1e-200, 1e12)])
def test_stump_conjunctions_give_the_model_of_scale_1(cls, kw, scale, offset):
    X, y, Xt = problem_p(test=True)
    ref = cls(**kw).fit(X, y)
    got = cls(**kw).fit((X + offset) * scale, y)
    assert [s[0] for s in got.stumps_] == [s[0] for s in ref.stumps_]
    np.testing.assert_array_equal(got.predict((Xt + offset) * scale), ref.predict(Xt))


def test_adaboost_on_values_that_differ_only_by_rounding_is_not_split():
    """A gene constant up to a unit in the last place is rounding noise, not a split (scikit-learn's tolerance
    works in units of the gene's range only where that range is real)."""
    X, y, _ = problem_p(test=True)
    noise = np.ones_like(X) * (1.0 + np.finfo(float).eps * np.random.default_rng(3).integers(0, 2, size=X.shape))
    Xn = np.column_stack([X[:, :3], noise[:, 3:]])
    ref = S.AdaBoostStumps().fit(X[:, :3], y)
    got = S.AdaBoostStumps().fit(Xn, y)
    np.testing.assert_array_equal(got.genes_, ref.genes_)


@pytest.mark.parametrize("learner,grid", [
    (S.SampleCompressionStumps(max_stumps=4), [{"p": p} for p in (0.5, 1.0, 5.0)]),
    (S.OccamStumps(max_stumps=4, model="disjunction"), [{"p": p, "eta": e} for p in (0.5, 2.0) for e in (0.0, 0.02)]),
    (S.PACBayesStumps(max_stumps=4), [{"p": p, "eta": e} for p in (0.5, 2.0, 10.0) for e in (0.0, 0.01, 0.1)]),
    (S.PACBayesStumps(max_stumps=3, margin="fixed", model="disjunction"),
     [{"p": p, "gamma": g} for p in (0.5, 2.0) for g in (0.05, 0.2)]),
])
def test_fit_grid_gives_the_fits_of_each_setting_on_its_own(learner, grid):
    from sklearn.base import clone

    X, y = _problem(40, 25, 11)
    fits = learner.fit_grid(X, y, grid)
    assert len(fits) == len(grid)
    for q, f in zip(grid, fits):
        alone = clone(learner).set_params(**q).fit(X, y)
        assert f.get_params() == alone.get_params()
        assert f.stumps_ == alone.stumps_ and f.n_stumps_ == alone.n_stumps_
        np.testing.assert_array_equal(f.utilities_, alone.utilities_)
        np.testing.assert_array_equal(f.bounds_, alone.bounds_)
        np.testing.assert_array_equal(f.predict(X), alone.predict(X))
        assert [list(a) for a in f.staged_predict(X)] == [list(a) for a in alone.staged_predict(X)]
    with pytest.raises(ValueError, match="param_grid is empty"):
        learner.fit_grid(X, y, [])
