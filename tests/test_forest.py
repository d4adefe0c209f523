"""Random forests (Breiman 2001) and random-forest backward elimination (Díaz-Uriarte & Alvarez de Andrés 2006).

References, each able to fail: scikit-learn's ``DecisionTreeClassifier`` (one tree without bootstrap, every gene
tried, on data whose best split is unique at every node: both implement CART's definition), scikit-learn's
``RandomForestClassifier`` (statistically: OOB error, top genes), the selector's loop rebuilt on
``RandomForestClassifier`` (statistically), the plain-Python twins in ``tests/naive/forest.py`` (SplitMix64 on
Python integers, sorting per node; bit for bit), SplitMix64's published first outputs, and the estimator contract.
"""

import warnings

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier

import naive.forest as NF
from genesel import _forest_kernels as FK
from genesel.forest import RFBackwardSelector, SmallForestClassifier, backward_sizes, grow_forest, presort


def _problem(seed=0, n=60, d=120, informative=4):
    rng = np.random.default_rng(seed)
    y = np.repeat([-1, 1], n // 2)
    X = rng.normal(size=(n, d))
    X[:, :informative] += 1.5 * y[:, None]
    return X, y


def test_backward_sizes_drop_a_fraction_down_to_two():
    """varSelRF drops round(0.2 m) of the m genes left (R's round: to the nearest, ties to even)."""
    assert backward_sizes(10, 0.2).tolist() == [10, 8, 6, 5, 4, 3, 2]          # 1.6 -> 2, 1.2 -> 1, 0.6 -> 1
    assert backward_sizes(1000, 0.2)[:3].tolist() == [1000, 800, 640]
    assert backward_sizes(7129, 0.2)[:2].tolist() == [7129, 5703]            # 1425.8 -> 1426
    assert backward_sizes(2, 0.2).tolist() == [2]
    assert backward_sizes(10, 0.25).tolist() == [10, 8, 6, 4, 3, 2]         # 2.5 -> 2, 1.5 -> 2: ties to even
    assert backward_sizes(5, 0.01).tolist() == [5, 4, 3, 2]                  # one at least, where round gives 0


def test_finds_the_informative_genes_and_the_se_rule_picks_fewer():
    X, y = _problem()
    s0 = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, se_rule=0.0, random_state=0).fit(X, y)
    s1 = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, se_rule=1.0, random_state=0).fit(X, y)
    assert set(np.flatnonzero(s1.support_)) <= set(s0.feature_order_[: s0.n_features_])
    assert s1.n_features_ <= s0.n_features_
    assert set(s0.feature_order_[:4]) == {0, 1, 2, 3}
    # the s.e. 0 choice is a minimum of the OOB path; the s.e. 1 choice within one s.e. of it
    e = s0.path_oob_errors_
    assert s0.oob_error_ == e.min()
    se = np.sqrt(e.min() * (1 - e.min()) / y.size)
    assert s1.oob_error_ <= e.min() + se + 1e-12
    assert s1.n_features_ == min(sz for sz, err in zip(s1.path_sizes_, s1.path_oob_errors_) if err <= e.min() + se
                                 + 1e-12)


def test_seeded():
    X, y = _problem(1)
    a = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=3).fit(X, y)
    b = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=3).fit(X, y)
    c = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, random_state=4).fit(X, y)
    assert np.array_equal(a.importances_, b.importances_) and np.array_equal(a.path_oob_errors_,
                                                                              b.path_oob_errors_)
    assert not np.array_equal(a.importances_, c.importances_)


def _sklearn_path(X, y, n_estimators, n_estimators_iter, random_state, fraction_dropped=0.2, mtry_factor=1.0,
                  se_rule=1.0):
    """The selector's loop on scikit-learn's forests, as varSelRF runs it (the first forest's permutation importances
    computed by hand, mtry = floor(sqrt(genes)), OOB errors along the path, the chosen genes)."""
    n, d = X.shape
    sizes = backward_sizes(d, fraction_dropped)
    seeds = np.random.RandomState(random_state).randint(0, 2**31 - 1, size=len(sizes) + 1)

    def forest(T, s, seed, Xs):
        mtry = min(max(1, int(np.floor(mtry_factor * np.sqrt(s)))), s)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            f = RandomForestClassifier(n_estimators=T, max_features=mtry, oob_score=True, n_jobs=1,
                                       random_state=seed).fit(Xs, y)
        dec = f.oob_decision_function_
        voted = np.isfinite(dec).all(axis=1) & (dec.sum(axis=1) > 0)
        return f, float(np.mean(f.classes_[np.argmax(dec[voted], axis=1)] != y[voted]))

    first, e0 = forest(n_estimators, d, seeds[0], X)
    imp = NF.sklearn_permutation_importance(first, X, y, random_state)
    order = np.lexsort((np.arange(d), -imp))
    errors = np.array([e0] + [forest(n_estimators_iter, int(s), seeds[i], X[:, np.sort(order[:s])])[1]
                              for i, s in enumerate(sizes[1:], start=1)])
    best = errors.min()
    ok = np.flatnonzero(errors <= best + se_rule * np.sqrt(best * (1 - best) / n) + 1e-12)
    k = int(sizes[ok[np.argmin(sizes[ok])]])
    return imp, sizes, errors, set(order[:k].tolist())


@pytest.mark.parametrize("seed", [0, 2, 7])
def test_the_selector_agrees_with_its_loop_on_scikit_learn_forests(seed):
    """Same path sizes; OOB errors along the path within 0.1 of scikit-learn's (on average within 0.05: both are
    Monte Carlo estimates on 50 samples, where one sample is 0.02; measured: at most 0.04, on average 0.009-0.014);
    both choose informative genes (at least 2 of the 4, and they are at least half of the chosen set: each
    informative gene alone separates the classes by 3 s.d., so the OOB error is 0 at many sizes, down to 2 genes,
    and which informative genes are kept moves with the Monte Carlo noise, e.g. genes {0, 1} against {1, 2}); the
    top 4 genes of the first forest are the informative ones in both."""
    X, y = _problem(seed, n=50, d=150)
    sel = RFBackwardSelector(n_estimators=300, n_estimators_iter=150, random_state=seed).fit(X, y)
    imp, sizes, errors, chosen = _sklearn_path(X, y, 300, 150, seed)
    assert np.array_equal(sel.path_sizes_, sizes)
    diff = np.abs(sel.path_oob_errors_ - errors)
    assert diff.max() <= 0.1 and diff.mean() <= 0.05, diff
    ours = set(np.flatnonzero(sel.support_).tolist())
    for genes in (ours, chosen):
        assert len(genes & {0, 1, 2, 3}) >= max(2, len(genes) / 2), (ours, chosen)
    assert set(sel.feature_order_[:4]) == set(np.argsort(-imp)[:4]) == {0, 1, 2, 3}


@pytest.mark.parametrize("seed", [0, 1])
def test_permutation_importances_agree_with_those_computed_by_hand_on_scikit_learn_forests(seed):
    """The first forest's importances (the paper's permutation importance) against the same definition computed by
    hand on a scikit-learn forest of as many trees (other random numbers): the same top genes, the informative
    genes' importances within 25 % of each other (Monte Carlo over 1000 trees; measured 1-12 %), noise genes near
    zero in both, and the sign of the difference to Gini importance (informative genes take a larger share of the
    permutation importance)."""
    X, y = _problem(seed, n=50, d=150)
    sel = RFBackwardSelector(n_estimators=1000, n_estimators_iter=50, random_state=seed).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        f = RandomForestClassifier(n_estimators=1000, max_features=int(np.floor(np.sqrt(150))), n_jobs=1,
                                   random_state=seed).fit(X, y)
    ref = NF.sklearn_permutation_importance(f, X, y, seed)
    assert set(np.argsort(-sel.importances_)[:4]) == set(np.argsort(-ref)[:4]) == {0, 1, 2, 3}
    np.testing.assert_allclose(sel.importances_[:4], ref[:4], rtol=0.25)
    assert np.abs(sel.importances_[4:]).max() < 0.25 * sel.importances_[:4].min()
    assert np.abs(ref[4:]).max() < 0.25 * ref[:4].min()
    gini = RFBackwardSelector(n_estimators=1000, n_estimators_iter=50, importance="gini", random_state=seed).fit(X, y)
    share = sel.importances_[:4].sum() / np.abs(sel.importances_).sum()
    assert share > gini.importances_[:4].sum()


def test_permutation_importance_closed_form_one_perfect_gene():
    """Gene 0 is -1 in class 0 and +1 in class 1, the other genes constant: every tree whose bootstrap holds both
    classes is one split at 0 that votes right on all its m out-of-bag samples. Permuting gene 0 among them, sample
    i keeps its vote's class when the value it receives is of its class: a uniform permutation leaves
    (a_0^2 + a_1^2) / m right on average (a_c: out-of-bag samples of class c), so the tree's expected drop is
    1 - (a_0^2 + a_1^2) / m^2 (a tree of one class has no split: 0). The forest's importance of gene 0 is the mean
    over its trees of their drops; the expected value is computed from each tree's own bootstrap (replayed from its
    seed), and the two agree within Monte Carlo noise (5 s.e. of the permutations, 4000 trees)."""
    n, T = 20, 4000
    y = np.repeat([0, 1], n // 2)
    X = np.column_stack([2.0 * y - 1.0, np.ones(n), np.zeros(n)])
    out = grow_forest(presort(X), y, T, 3, 7, keep_trees=False, permutation=True)
    assert not out[10][1:].any()                                     # constant genes: never split
    seeds = np.random.RandomState(7).randint(np.iinfo(np.int64).max, size=T, dtype=np.int64)
    expected, var = [], []
    for seed in seeds:
        w = np.array(NF.bootstrap_counts(NF.SplitMix64(seed), n, True))
        drawn, oob = y[w > 0], y[w == 0]
        m = oob.size
        if m == 0 or np.unique(drawn).size < 2:
            expected.append(0.0)
            var.append(0.0)
            continue
        a = np.bincount(oob, minlength=2)
        p_keep = (a @ a) / m**2
        expected.append(1.0 - p_keep)
        var.append(p_keep * (1 - p_keep) / m)                        # a bound-sized proxy of the per-tree variance
    se = np.sqrt(np.sum(var)) / T
    assert abs(out[10][0] / T - np.mean(expected)) < 5 * se + 1e-12, (out[10][0] / T, np.mean(expected), se)
    assert 0.3 < np.mean(expected) < 0.6


# ---------------------------------------------------------------------------------------- SmallForestClassifier


def _staircase(seed, n=160, d=6):
    """Continuous data whose class is a noiseless rule on genes 0-2, (x0 > -0.5 and x1 > -0.5) xor x2 > 0.8, genes
    3.. noise: a tree of several levels whose pure regions are boxes, its nodes large, so that (checked by the test)
    the best split is unique at every node."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, (((X[:, 0] > -0.5) & (X[:, 1] > -0.5)) ^ (X[:, 2] > 0.8)).astype(int)


def _node_samples(f, X):
    """For every node of the forest's first tree, the training samples that reach it."""
    feature, threshold, left, right = f.trees_[:4]
    X32 = X.astype(np.float32)
    out = [[] for _ in range(f.trees_[5][1])]
    for i in range(X.shape[0]):
        k = 0
        while True:
            out[k].append(i)
            if left[k] < 0:
                break
            k = left[k] if float(X32[i, feature[k]]) <= threshold[k] else right[k]
    return out


def _best_split_is_unique(X, y, samples):
    """Whether the largest Gini decrease over every gene and every split between distinct values of the node's
    samples is reached once only (a margin of 1e-9 in the score)."""
    X32 = X.astype(np.float32)[samples]
    ys = y[samples]
    scores = []
    for g in range(X32.shape[1]):
        v = np.unique(X32[:, g])
        for a in v[:-1]:
            lo = X32[:, g] <= a
            score = 0.0
            for part in (lo, ~lo):
                c = np.bincount(ys[part], minlength=2).astype(float)
                score += (c @ c) / c.sum()
            scores.append(score)
    scores = np.sort(scores)
    return len(scores) < 2 or scores[-1] - scores[-2] > 1e-9


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_tree_without_bootstrap_is_cart_as_sklearn_grows_it(seed):
    """bootstrap off, every gene tried, the best split unique at every node (checked): the one tree is CART's,
    as scikit-learn's DecisionTreeClassifier(criterion="gini") grows it: same partition of the training samples,
    same predictions on new points, same impurity importances (1e-12)."""
    X, y = _staircase(seed)
    Xt = np.random.default_rng(100 + seed).normal(size=(300, X.shape[1]))
    f = SmallForestClassifier(n_estimators=1, max_features=None, bootstrap=False, random_state=seed).fit(X, y)
    nodes = _node_samples(f, X)
    internal = [s for k, s in enumerate(nodes) if f.trees_[2][k] >= 0]
    assert len(internal) >= 5  # a real tree, not a stump
    assert all(_best_split_is_unique(X, y, s) for s in internal)
    t = DecisionTreeClassifier(criterion="gini", random_state=seed).fit(X, y)
    assert t.tree_.node_count == f.trees_[5][1]
    ours = [tuple(s) for k, s in enumerate(nodes) if f.trees_[2][k] < 0]
    leaf_of = t.apply(X)
    theirs = [tuple(np.flatnonzero(leaf_of == k).tolist()) for k in np.unique(leaf_of)]
    assert sorted(ours) == sorted(theirs)
    assert np.array_equal(f.predict(Xt), t.predict(Xt))
    assert np.array_equal(f.predict_proba(Xt), t.predict_proba(Xt))
    np.testing.assert_allclose(f.feature_importances_, t.feature_importances_, rtol=0, atol=1e-12)


def test_more_than_255_samples_and_node_arrays_that_grow():
    """The presort's 16-bit types (more than 255 samples), forests larger than the first allocation (16 trees of
    2n nodes), and the selector's forests without nodes: the same importances and votes as with them."""
    rng = np.random.default_rng(8)
    X, y = np.round(rng.normal(size=(300, 20)), 2), rng.integers(0, 2, 300)
    X[:, 0] += 0.5 * y
    f = SmallForestClassifier(n_estimators=120, random_state=1).fit(X, y)
    assert f.trees_[5][-1] > 16 * 2 * 300
    assert np.argmax(f.feature_importances_) == 0
    slim = grow_forest(presort(X), y, 120, f.max_features_, 1, keep_trees=False)
    full = grow_forest(presort(X), y, 120, f.max_features_, 1, keep_trees=True)
    assert slim[0].size == 0 and full[0].size == f.trees_[5][-1]
    assert all(np.array_equal(a, b) for a, b in zip(slim[6:], full[6:]))
    assert np.array_equal(full[8] / full[9][:, None], f.oob_decision_function_)


def test_agrees_with_sklearn_statistically():
    """Many trees on a known signal: OOB error within 0.067 of scikit-learn's RandomForestClassifier (4 samples of
    60; measured over three pairs of seeds: 0 to 0.033), the 3 strongest genes the top 3 of both, 5 of the top 6 in
    common, the 5 informative genes' importances within 35 %, all importances correlated above 0.9; the bootstrap
    leaves a sample out of a fraction (1 - 1/n)^n of the trees."""
    rng = np.random.default_rng(11)
    n, d = 60, 300
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(n, d))
    X[:, :5] += np.array([2.0, 1.8, 1.6, 1.4, 1.2]) * y[:, None]
    f = SmallForestClassifier(n_estimators=1000, random_state=1).fit(X, y)
    r = RandomForestClassifier(n_estimators=1000, max_features="sqrt", oob_score=True, random_state=2).fit(X, y)
    assert abs(f.oob_score_ - r.oob_score_) <= 4 / 60 + 1e-12
    top_f, top_r = np.argsort(-f.feature_importances_), np.argsort(-r.feature_importances_)
    assert set(top_f[:3]) == set(top_r[:3]) == {0, 1, 2}
    assert len(set(top_f[:6]) & set(top_r[:6])) >= 5
    np.testing.assert_allclose(f.feature_importances_[:5], r.feature_importances_[:5], rtol=0.35)
    assert np.corrcoef(f.feature_importances_, r.feature_importances_)[0, 1] > 0.9
    # the bootstrap: a sample is out of bag in a fraction (1 - 1/n)^n of the trees (binomial, 5 s.d.); every sample
    # has a vote
    p = (1 - 1 / n) ** n
    frac = np.isfinite(f.oob_decision_function_).all(axis=1).mean()
    assert frac == 1.0
    out = grow_forest(presort(X), y, 1000, f.max_features_, 1, keep_trees=False)[9]
    assert abs(out.mean() / 1000 - p) < 5 * np.sqrt(p * (1 - p) / (1000 * n))


def test_seeded_forest():
    X, y = _problem(3, n=50, d=80)
    a = SmallForestClassifier(n_estimators=50, random_state=5).fit(X, y)
    b = SmallForestClassifier(n_estimators=50, random_state=5).fit(X, y)
    c = SmallForestClassifier(n_estimators=50, random_state=6).fit(X, y)
    assert all(np.array_equal(u, v) for u, v in zip(a.trees_, b.trees_))
    assert np.array_equal(a.feature_importances_, b.feature_importances_)
    assert np.array_equal(a.oob_decision_function_, b.oob_decision_function_, equal_nan=True)
    assert not np.array_equal(a.feature_importances_, c.feature_importances_)
    assert not np.array_equal(a.oob_decision_function_, c.oob_decision_function_, equal_nan=True)


def test_bad_input_is_refused_with_clear_errors():
    X, y = _problem(0, n=40, d=12)
    with pytest.raises(ValueError, match="NaN or infinite"):
        SmallForestClassifier(n_estimators=5).fit(np.where(np.eye(*X.shape) > 0, np.nan, X), y)
    with pytest.raises(ValueError, match="single class"):
        SmallForestClassifier(n_estimators=5).fit(X, np.zeros(len(y)))
    # three classes are no error since issue 38 (tests/test_multiclass_forest.py)
    assert SmallForestClassifier(n_estimators=5).fit(X, np.arange(len(y)) % 3).predict_proba(X).shape == (len(y), 3)
    with pytest.raises(ValueError, match="n_estimators"):
        SmallForestClassifier(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        SmallForestClassifier(max_features=1.5).fit(X, y)
    with pytest.raises(NotFittedError):
        SmallForestClassifier().predict(X)
    f = SmallForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        f.predict(X[:, :-1])


def test_far_offset_and_tiny_scale_give_the_forest_of_ordinary_data():
    X, y = _problem(4, n=40, d=30)
    Xt = np.random.default_rng(9).normal(size=(20, 30))
    ref = SmallForestClassifier(n_estimators=40, random_state=0).fit(X, y)
    for scale, offset in [(1e-300, 0.0), (1e300, 0.0), (1.0, 1e12)]:
        f = SmallForestClassifier(n_estimators=40, random_state=0).fit((X + offset) * scale, y)
        assert np.array_equal(f.predict((Xt + offset) * scale), ref.predict(Xt))
        assert np.array_equal(np.argsort(-f.feature_importances_)[:3], np.argsort(-ref.feature_importances_)[:3])


# ---------------------------------------------------------------------------------------- kernels vs twins


def test_splitmix64_is_the_published_generator():
    """The first outputs from state 0 are those of the authors' reference (Vigna's splitmix64.c), and the kernel's
    draws below k are the twin's."""
    rs = np.zeros(1, dtype=np.uint64)
    assert [int(FK.splitmix64(rs)) for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    for seed in [0, 1, 2**63 - 1, 2**64 - 1]:
        rs[0] = np.uint64(seed)
        twin = NF.SplitMix64(seed)
        for k in [1, 2, 3, 58, 7129, 2**32 - 1]:
            assert [FK.below(rs, k) for _ in range(50)] == [twin.below(k) for _ in range(50)]
    counts, twin = np.empty(58), NF.SplitMix64(9)
    rs[0] = np.uint64(9)
    FK.bootstrap_counts(rs, 58, True, counts, np.arange(59), np.arange(58))
    assert counts.tolist() == NF.bootstrap_counts(twin, 58, True) and counts.sum() == 58


@pytest.mark.parametrize("case", ["bootstrap", "no bootstrap", "ties and constants", "mtry 1", "duplicates"])
def test_kernel_equals_its_plain_python_twin(case):
    rng = np.random.default_rng(3)
    n, d = 25, 15
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 0.7 * y[:, None] * (np.arange(d) < 3)
    bootstrap, mtry = case != "no bootstrap", 4
    if case == "ties and constants":
        X[:, 4] = 1.0                                                 # constant
        X[:, 5] = np.round(X[:, 5])                                   # ties
        X[:, 6] = np.where(X[:, 6] > 0, 2.0, 2.0 + 1e-9)              # one value in float32: constant
        X[:, 7] = 1.0 + 2.0**-23 * rng.integers(0, 4, n) + 0.5 * y    # neighbouring float32 values: distinct
        X[:, 8] = X[:, 9]                                             # two equal genes: ties between genes
    if case == "mtry 1":
        mtry = 1
    if case == "duplicates":                                          # unsplittable mixed nodes
        X[1::2] = X[::2][: n // 2]
        X[:, 10:] = 0.0                                               # many constant genes
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int64).max, size=12, dtype=np.int64)
    got = grow_forest(presort(X), y, 12, mtry, 0, bootstrap, permutation=True)
    feature, threshold, left, right, value, offsets, imp_sum, n_imp, oob_sum, oob_count, perm_sum = got
    trees, imp_ref, n_imp_ref, oob_sum_ref, oob_count_ref, perm_ref = NF.grow_forest(
        X.astype(np.float32), y, seeds, mtry, bootstrap, permutation=True)
    assert np.array_equal(perm_sum, perm_ref)
    assert bootstrap == bool(perm_sum.any())                          # some gene matters out of bag
    plain = grow_forest(presort(X), y, 12, mtry, 0, bootstrap)       # the trees do not depend on the permutations
    assert all(np.array_equal(a, b) for a, b in zip(plain[:10], got[:10])) and not plain[10].any()
    NF.assert_same_trees((feature, threshold, left, right, value), offsets, trees)
    assert np.array_equal(imp_sum, imp_ref) and n_imp == n_imp_ref
    assert np.array_equal(oob_sum, oob_sum_ref) and np.array_equal(oob_count, oob_count_ref)
    if case == "ties and constants":
        assert not np.isin([4, 6], feature).any() and 7 in feature
    if case == "duplicates":
        assert any(nd["left"] < 0 and 0 < nd["value"][0] < 1 for nodes in trees for nd in nodes)
    Xt = rng.normal(size=(10, d))
    pred = FK.predict_forest(feature, threshold, left, right, value, offsets,
                             np.ascontiguousarray(Xt.astype(np.float32).T))
    ref = np.zeros((10, 2))
    for nodes in trees:
        for i in range(10):
            ref[i] += nodes[NF.leaf(nodes, Xt[i].astype(np.float32))]["value"]
    assert np.array_equal(pred, ref)
