"""The leaderboard's catalogue and protocol: every public estimator has an entry; no test sample reaches selection
or tuning (the test part is poisoned and nothing chosen moves); cells are deterministic; the data views and a
user's file load as the notebook needs them."""

import inspect
import json

import numpy as np
import pandas as pd
import pytest

import genesel
from genesel.leaderboard import catalogue as K
from genesel.leaderboard import cost
from genesel.leaderboard import exercises as X
from genesel.leaderboard import figures as F
from genesel.leaderboard import protocol as P
from genesel.leaderboard import summary as S
from genesel.leaderboard import tables as T

#: public estimators that are not methods: the preprocessing every pipeline of the protocol applies
#: (:func:`genesel.leaderboard.protocol.preprocessing` over the data set's recommended preprocessing)
NOT_METHODS = {"LogTransform", "GeneStandardizer", "SampleStandardizer", "MissingValueImputer", "CountNormalizer"}


def _public_estimators():
    from sklearn.base import BaseEstimator

    return {n: getattr(genesel, n) for n in genesel.__all__
            if inspect.isclass(getattr(genesel, n)) and issubclass(getattr(genesel, n), BaseEstimator)}


def _missing(catalogue) -> set:
    built = set().union(*(K.estimator_classes(m) for m in catalogue.values()))
    return {n for n, c in _public_estimators().items() if n not in NOT_METHODS and c not in built}


@pytest.mark.registration("estimator", "lib/genesel/leaderboard/catalogue.py")
def test_every_public_estimator_has_a_catalogue_entry():
    missing = _missing(K.CATALOGUE)
    assert not missing, f"add a leaderboard entry (genesel/leaderboard/catalogue.py) for {sorted(missing)}"
    assert all(_public_estimators()[n].__module__ == "genesel.preprocessing" for n in NOT_METHODS)


def test_the_catalogue_test_fails_when_an_entry_is_missing():
    without = {k: v for k, v in K.CATALOGUE.items() if k != "PAC-Bayes stumps"}
    assert _missing(without) == {"PACBayesStumps"}


def test_the_issue_lists_methods_are_in_the_catalogue():
    need = ["S2N + weighted voting", "SVM-RFE (1 gene/step) + SVM", "SVM-RFE (halving) + SVM", "Fisher + SVM",
            "t-test + SVM", "Wilcoxon + SVM", "ALMA-FS", "ALMA_2-RFE", "ALMA_ln-RFE", "l2-AROM + SVM",
            "MSVM-RFE + SVM", "GP-ARD-FS + GP", "GP-ARD-RFE + GP", "RVM selector + SVM", "SMLR selector + SVM",
            "SC stumps", "Occam stumps", "PAC-Bayes stumps", "AdaBoost stumps", "SVM (all genes)", "DWD (all genes)",
            "GP (all genes)", "RVM (all genes)", "SMLR (all genes)", "L1 logistic regression",
            "RF var. sel. (s.e. 0)", "RF var. sel. (s.e. 1)", "shrunken centroids (SC.s)", "kNN on Fisher genes"]
    assert not set(need) - set(K.CATALOGUE)
    with pytest.raises(ValueError, match="choose from"):
        K.method("SVM-REF")


def test_quick_grids_keep_first_and_last_values():
    m = K.method("SVM (all genes)")
    assert [s["C"] for s in m.settings("estimator", quick=True)] == [0.01, 100.0]
    assert len(m.settings("estimator", quick=False)) == 5


def _synthetic(seed=0, n=45, d=80):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 3 == 0, -1, 1)
    X = rng.lognormal(size=(n, d)) * 50
    X[:, :5] *= np.where(y > 0, 3.0, 1.0)[:, None]
    return X, y


@pytest.mark.parametrize("name", ["SVM-RFE (halving) + SVM", "kNN on Fisher genes", "SC stumps", "kNN (all genes)",
                                  "SMLR selector + SVM", "shrunken centroids (SC.s)", "shrunken centroids (SC.l)",
                                  "ALMA-FS"])
def test_poisoning_the_test_part_changes_nothing_chosen(name):
    """Replace the test samples by garbage (huge values, flipped labels): the inner CV's choice, the signature and
    the inner loss are identical; only the test predictions may change."""
    from genesel.experiments import nested_cv
    from genesel.preprocessing import LogTransform

    X, y = _synthetic()
    tr, te, inner = nested_cv(y, 3, 3, seed=0)[0]
    m = K.method(name)
    clean = P.run_split(m, X, y, tr, te, inner, prep=LogTransform(floor=1.0), quick=True, seed=1, curve=False)
    Xp, yp = X.copy(), y.copy()
    Xp[te] = np.random.default_rng(9).lognormal(size=(te.size, X.shape[1])) * 1e6
    yp[te] = -yp[te]
    dirty = P.run_split(m, Xp, yp, tr, te, inner, prep=LogTransform(floor=1.0), quick=True, seed=1, curve=False)
    for k in ("params", "genes", "inner_errors", "size", "bound", "n_genes_kept"):
        assert clean[k] == dirty[k], k


def test_the_poison_test_can_fail():
    """A protocol that (wrongly) preprocesses on all samples before splitting lets the poison in: the genes move."""
    from genesel.experiments import nested_cv

    X, y = _synthetic()
    tr, te, inner = nested_cv(y, 3, 3, seed=0)[0]
    m = K.method("kNN on Fisher genes")
    Xp = X.copy()
    Xp[te] = np.random.default_rng(9).lognormal(size=(te.size, X.shape[1])) * 1e6
    from sklearn.preprocessing import FunctionTransformer

    leaky = lambda Z: (Z - Z.mean(axis=0)) / Z.std(axis=0)  # noqa: E731 - standardised on every sample, test ones too
    rows = [P.run_split(m, leaky(Z), y, tr, te, inner, prep=FunctionTransformer(), quick=True, seed=1, curve=False)
            for Z in (X, Xp)]
    assert rows[0]["genes"] != rows[1]["genes"] or rows[0]["params"] != rows[1]["params"]


def test_choose_breaks_ties_by_size_then_grid_order():
    m = K.method("shrunken centroids (SC.s)")
    table = {(0,): [3, 50.0], (1,): [3, 10.0], (2,): [4, 2.0]}
    assert P.choose(m, table) == (1,)
    assert P.choose(K.method("shrunken centroids (SC.l)"), table) == (0,)


def test_cv_cell_is_deterministic_and_plain_data(mirror):
    from genesel.leaderboard.cells import cv_cell

    a = cv_cell("alon", "Fisher + SVM", 0, 1, 3, 3, seed=0, quick=True, max_genes=100)
    b = cv_cell("alon", "Fisher + SVM", 0, 1, 3, 3, seed=0, quick=True, max_genes=100)
    for k in ("cpu_seconds", "wall_seconds"):
        a.pop(k), b.pop(k)
    assert a == b
    json.dumps(a)
    assert len(a["curve_sizes"]) == len(a["curve_errors"]) == 7  # 2, 4, ..., 64 and all (100 genes)
    assert a["n_test"] + a["n_train"] == 62


def test_diaz2006_view_of_leukemia_is_their_38_by_3051(mirror):
    from genesel.leaderboard.cells import load

    t = load("golub", "diaz2006")
    assert t.X.shape == (38, 3051) and int(np.sum(t.y > 0)) == 11


def test_a_user_file_loads_by_reference(mirror, tmp_path):
    from genesel.datasets import load_dataset
    from genesel.expression_io import make_reference
    from genesel.leaderboard.cells import load

    ds = load_dataset("alon")
    frame = pd.DataFrame(ds.X[:, :50], columns=[f"g{i}" for i in range(50)])
    frame.insert(0, "class", np.asarray(ds.classes)[(ds.y > 0).astype(int)])
    frame.index = [f"patient{i}" for i in range(62)]
    frame.to_csv(tmp_path / "study.csv")
    t = load(make_reference(tmp_path / "study.csv", label="class", rows="samples"), None, 20)
    assert t.X.shape == (62, 20) and set(np.unique(t.y)) == {-1, 1}


def test_cost_sentence_counts_both_grids_and_the_uninterrupted_wall_time():

    res = pd.DataFrame({"method": ["a", "a", "b"], "cpu_seconds": [10.0, 10.0, 5.0], "wall_seconds": [12.0, 12.0, 6.0]})
    boot = pd.DataFrame({"method": ["c"], "cpu_seconds": [40.0], "wall_seconds": [50.0]})
    s = cost.cost_sentence(res, 3.0, n_jobs=2, boot=boot)
    assert s.startswith("65 CPU s over 4 cells") and "c 40 CPU s (62 %); a 20 CPU s (31 %); b 5 CPU s (8 %)" in s
    assert "about 40 s wall" in s and "this session's wall time: 3 s" in s
    assert "about 30 s wall" in cost.cost_sentence(res, 3.0, n_jobs=1)


def _fold_rows(method, genes_per_fold, n_genes_kept, curve=None):
    """Outer-fold rows of one method on Colon (62 samples), as the cells return them: 2 repeats x 2 folds."""
    rng = np.random.default_rng(0)
    rows = []
    for i, genes in enumerate(genes_per_fold):
        test = np.arange(62)[i % 2::2]
        row = dict(dataset="alon", method=method, repeat=i // 2, fold=i % 2, max_genes=None, errors=3,
                   n_test=test.size, test_idx=test.tolist(), pred=[1] * test.size,
                   scores=rng.normal(size=test.size).tolist(), genes=list(genes), size=len(genes), bound=None,
                   cpu_seconds=1.0, degenerate_final=False, n_genes_kept=n_genes_kept[i])
        if curve is not None:
            row.update(curve_sizes=[2, 4, n_genes_kept[i]], curve_errors=curve[i])
        rows.append(row)
    return rows


def test_an_all_genes_baseline_has_no_stability_even_where_the_preprocessing_filter_varies(mirror):
    """On Leukemia the preprocessing keeps a different ~6,792 of 7,129 genes in each training part, so an all-genes
    method's "signatures" differ slightly and a stability computed on them came out 0.90: the most stable method of
    the data set, without choosing anything. It has none; a method that selects keeps its own."""

    kept = [list(range(0, 1990)), list(range(5, 1995)), list(range(10, 2000)), list(range(3, 1993))]
    chosen = [[1, 2, 3], [1, 2, 4], [1, 2, 3], [2, 3, 5]]
    res = pd.DataFrame(_fold_rows("SVM (all genes)", kept, [1990] * 4) + _fold_rows("Fisher + SVM", chosen, [1990] * 4))
    s = S.summarise(res).set_index("method")
    assert S.selects_genes("Fisher + SVM") and not S.selects_genes("SVM (all genes)")
    assert np.isnan(s.loc["SVM (all genes)", "stability"]) and np.isnan(s.loc["SVM (all genes)", "kuncheva"])
    assert 0 < s.loc["Fisher + SVM", "stability"] < 1
    # without the rule the baseline would have had a stability of its own: the check can fail
    assert S._stability(res[res.method == "SVM (all genes)"]["genes"], 2000)[0] > 0.2
    assert T.consensus_signature(res, S.summarise(res), "alon").index.get_level_values(0).unique().tolist() == [
        "Fisher + SVM"]


def test_the_curves_draw_all_genes_as_one_point_where_the_kept_genes_vary():
    import matplotlib.pyplot as plt


    res = pd.DataFrame(_fold_rows("Fisher + SVM", [[1, 2]] * 4, [1990, 1995, 2000, 1995],
                                  curve=[[1, 2, 3], [3, 2, 1], [1, 1, 1], [3, 3, 3]]))
    fig = F.plot_curves(res)
    line = fig.axes[0].lines[0]
    np.testing.assert_allclose(line.get_xdata(), [2, 4, 1995.0])
    n = res["n_test"].to_numpy()
    np.testing.assert_allclose(line.get_ydata(), [100 * np.mean([1, 3, 1, 3] / n), 100 * np.mean([2, 2, 1, 3] / n),
                                                  100 * np.mean([3, 1, 1, 3] / n)])
    plt.close(fig)


def test_the_warning_table_counts_folds_and_means_per_category():

    res = pd.DataFrame({
        "dataset": ["a", "a", "b", "b", "a", "b"],
        "method": ["GP-ARD-RFE + GP"] * 4 + ["Fisher + SVM"] * 2,
        "final_warnings": [{"ConvergenceWarning": 3}, {}, {"ConvergenceWarning": 1, "RuntimeWarning": 8}, {}, {}, {}],
        "inner_warnings": [{}, {}, {}, {}, {"DegenerateModelWarning": 2}, {"DegenerateModelWarning": 4}],
    })
    t = T.warning_table(res)
    assert set(t.index) == {("GP-ARD-RFE + GP", "final fit", "ConvergenceWarning"),
                            ("GP-ARD-RFE + GP", "final fit", "RuntimeWarning"),
                            ("Fisher + SVM", "inner CV", "DegenerateModelWarning")}
    conv = t.loc[("GP-ARD-RFE + GP", "final fit", "ConvergenceWarning")]
    assert conv["outer folds"] == "2 of 4" and conv["per fold (mean)"] == 1.0 and conv["data sets"] == "all 2"
    rt = t.loc[("GP-ARD-RFE + GP", "final fit", "RuntimeWarning")]
    assert rt["outer folds"] == "1 of 4" and rt["per fold (mean)"] == 2.0 and rt["data sets"] == "b"
    # data sets by their titles (a user's file by its name, never its path)
    named = T.warning_table(res.assign(dataset=res["dataset"].map({"a": "alon", "b": "/some/where/mine.csv"})))
    assert named.loc[("GP-ARD-RFE + GP", "final fit", "RuntimeWarning"), "data sets"] == "mine.csv"
    assert t.loc[("Fisher + SVM", "inner CV", "DegenerateModelWarning"), "per fold (mean)"] == 3.0
    assert "iteration limit" in conv["meaning"]
    assert T.warning_table(res.assign(final_warnings=[{}] * 6, inner_warnings=[{}] * 6)).empty


@pytest.mark.registration("dataset", "title")
def test_every_data_set_of_the_leaderboard_has_a_title(mirror):
    """The figures' panels and the tables name each data set by its title, never by its registry key."""
    from genesel.leaderboard import cells as C

    for d in C.binary_expression_sets():
        assert S.dataset_title(d) != d and "(" in S.dataset_title(d), d


def test_shrunken_centroids_predict_by_pams_rule_with_the_class_prior():
    """The catalogue's shrunken centroids score a sample by PAM's discriminant (Tibshirani 2002; ESL Eq. 18.2):
    -sum_i (x_i - c_ki)^2 / (s_i + s_0)^2 + 2 log pi_k, computed here by hand from the fitted centroids, the pooled
    sds (recomputed from the data) and their median s_0. On unbalanced classes the prior term changes predictions
    (the uniform-prior rule disagrees): the check can fail."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(30), -np.ones(8)].astype(int)
    X = rng.normal(size=(38, 40))
    X[:, :3] += 0.6 * y[:, None]
    Xt = rng.normal(size=(200, 40))
    means = {k: X[y == k].mean(axis=0) for k in (-1, 1)}
    s = np.sqrt(sum(((X[y == k] - means[k]) ** 2).sum(axis=0) for k in (-1, 1)) / (38 - 2))
    scale = s + np.median(s)
    for name in ("shrunken centroids (SC.s)", "shrunken centroids (SC.l)"):
        est = K.method(name).estimator({"threshold": 0.3}, None, 0).fit(X, y)
        c = est.centroids_
        prior = np.array([np.mean(y == k) for k in est.classes_])
        disc = np.array([[-np.sum((x - c[k]) ** 2 / scale**2) + 2 * np.log(prior[k]) for k in range(2)] for x in Xt])
        # the decision function is the log posterior odds of classes_[1]: half the difference of the discriminants
        np.testing.assert_allclose(est.decision_function(Xt), (disc[:, 1] - disc[:, 0]) / 2, rtol=1e-10)
        np.testing.assert_array_equal(est.predict(Xt), est.classes_[disc.argmax(1)])
        uniform = est.classes_[np.argmin([[np.sum((x - c[k]) ** 2) for k in range(2)] for x in Xt], axis=1)]
        assert np.mean(uniform != est.predict(Xt)) > 0.05


def test_the_summary_counts_folds_predicting_one_class_and_the_lean_towards_the_smaller_class(mirror):
    """A fold counts when every test sample gets one class although its test samples hold both; the smaller class's
    share of the predictions is counted over all test predictions (hand-counted here)."""
    from genesel.leaderboard.cells import load

    y = load("alon").y
    small = -1 if np.sum(y == -1) < np.sum(y == 1) else 1
    rows = _fold_rows("Fisher + SVM", [[1, 2]] * 4, [1990] * 4)  # every fold predicts +1 for all its samples
    rows[1]["pred"] = [1, -1] * (rows[1]["n_test"] // 2) + [1] * (rows[1]["n_test"] % 2)
    only = np.flatnonzero(y == small)[:5]  # a test part of one class, predicted as that class: not counted
    rows[2].update(test_idx=only.tolist(), pred=[int(small)] * 5, scores=[0.5] * 5, n_test=5)
    summary = S.summarise(pd.DataFrame(rows))
    s = summary.iloc[0]
    assert s["one_class_folds"] == 2
    preds = np.concatenate([r["pred"] for r in rows])
    assert s["smaller_class_predicted"] == pytest.approx(np.sum(preds == small) / preds.size)
    assert s["smaller_class_share"] == pytest.approx(22 / 62)  # Colon: 22 normal, 40 tumour
    assert T.league_table(summary, "alon")["folds predicting one class"].iloc[0] == 2
    table, _ = X.class_balance(summary)
    lean = table.loc[(S.dataset_title("alon"), "Fisher + SVM"), "lean (points)"]
    assert lean == pytest.approx(round(100 * (np.sum(preds == small) / preds.size - 22 / 62), 1))
    assert X.class_balance(summary, max_share=0.3)[0].empty


def test_methods_with_equal_errors_are_tied_whatever_the_split_over_the_repeats(mirror):
    """Two methods with the same errors on Colon, split over three repeats as 10, 9, 8 and 9, 8, 10 (each on tumour
    samples): their error and balanced error are the same number, so they share their rank in the league table and
    in the ranking. A float mean of the repeats' rates differs in its last bit between the two orders (checked
    below), and ranks computed on it ordered tied methods (79 rank cells of the committed binary board moved)."""
    from genesel.leaderboard import ranking as RK
    from genesel.leaderboard.cells import load

    y = load("alon").y
    tumour = np.flatnonzero(y == 1)
    rows = []
    for method, split in (("Fisher + SVM", [10, 9, 8]), ("t-test + SVM", [9, 8, 10])):
        for r, e in enumerate(split):
            pred = y.copy()
            pred[tumour[:e]] = -1
            for f, test in enumerate((np.arange(62)[0::2], np.arange(62)[1::2])):
                rows.append(dict(dataset="alon", method=method, repeat=r, fold=f, max_genes=None,
                                 errors=int(np.sum(pred[test] != y[test])), n_test=test.size, test_idx=test.tolist(),
                                 pred=pred[test].tolist(), scores=pred[test].astype(float).tolist(), genes=[1, 2],
                                 size=2, bound=None, cpu_seconds=1.0, degenerate_final=False, n_genes_kept=2000))
    assert np.mean(np.array([10, 9, 8]) / 62) != np.mean(np.array([9, 8, 10]) / 62)  # the float mean: not tied
    s = S.summarise(pd.DataFrame(rows)).set_index("method")
    assert s.loc["Fisher + SVM", "error"] == s.loc["t-test + SVM", "error"] == 27 / (3 * 62)
    assert s.loc["Fisher + SVM", "balanced_error"] == s.loc["t-test + SVM", "balanced_error"]
    assert s.loc["Fisher + SVM", "balanced_error"] == pytest.approx(27 / (3 * 2 * 40))
    assert T.league_table(s.reset_index(), "alon")["rank"].tolist() == [1, 1]
    assert RK.rank_statistics(s.reset_index())["ranks"].iloc[0].tolist() == [1.5, 1.5]
