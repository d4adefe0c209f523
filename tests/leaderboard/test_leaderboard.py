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
from genesel.leaderboard import protocol as P

#: public estimators that are not methods: the preprocessing every pipeline of the protocol applies
#: (:func:`genesel.leaderboard.protocol.preprocessing` over the data set's recommended preprocessing)
NOT_METHODS = {"LogTransform", "GeneStandardizer", "SampleStandardizer", "MissingValueImputer"}


def _public_estimators():
    from sklearn.base import BaseEstimator

    return {n: getattr(genesel, n) for n in genesel.__all__
            if inspect.isclass(getattr(genesel, n)) and issubclass(getattr(genesel, n), BaseEstimator)}


def _missing(catalogue) -> set:
    built = set().union(*(K.estimator_classes(m) for m in catalogue.values()))
    return {n for n, c in _public_estimators().items() if n not in NOT_METHODS and c not in built}


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


@pytest.mark.parametrize("name", ["SVM-RFE (halving) + SVM", "kNN on Fisher genes", "SC stumps",
                                  "SMLR selector + SVM", "shrunken centroids (SC.s)", "ALMA-FS"])
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
    from genesel.leaderboard import report as R

    res = pd.DataFrame({"method": ["a", "a", "b"], "cpu_seconds": [10.0, 10.0, 5.0], "wall_seconds": [12.0, 12.0, 6.0]})
    boot = pd.DataFrame({"method": ["c"], "cpu_seconds": [40.0], "wall_seconds": [50.0]})
    s = R.cost_sentence(res, 3.0, n_jobs=2, boot=boot)
    assert s.startswith("65 CPU s over 4 cells") and "c 40 CPU s (62 %); a 20 CPU s (31 %); b 5 CPU s (8 %)" in s
    assert "about 40 s wall" in s and "this session's wall time: 3 s" in s
    assert "about 30 s wall" in R.cost_sentence(res, 3.0, n_jobs=1)
