"""genesel.papers.shah2012 (+ shah2012_report): the paper's tables as printed, the nested protocol (selection inside
the training folds only), the summaries, and the cells on real data in quick mode."""

import numpy as np
import pandas as pd
import pytest

from genesel.papers import shah2012 as SH
from genesel.papers import shah2012_report as R


def test_paper_tables_as_printed():
    t1 = SH.paper_table1()
    assert list(t1["dataset"]) == ["Colon", "B_MD", "C_MD", "Leuk", "Lung", "BreastER", "Celiac", "Colon-epi"]
    row = t1.set_index("dataset").loc["Leuk"]
    assert (row["SVM_mean"], row["SVM_sd"]) == (21.3, 1.4)
    assert row["SVM+gs S"] == "64" and row["AdaBoost itrs"] == "20"
    assert np.isnan(t1.set_index("dataset").loc["BreastER", "L0_mean"])  # printed ".*"
    t2 = SH.paper_table2().set_index("dataset")
    assert t2.loc["Colon", "PAC-Bayes B-errs_mean"] == 14.65 and t2.loc["Lung", "PAC-Bayes S_sd"] == 0.3
    assert t2.loc["Colon", "Occam S_sd"] == 0.6  # ".6"
    t3 = SH.paper_table3().set_index("dataset")
    assert t3.loc["Colon", "variable bound"] == 33 and t3.loc["Colon", "fixed bound"] == 34
    t4 = SH.paper_table4().set_index("dataset")
    assert t4.loc["MNIST-2vs3", "PAC-Bayes bound"] == 0.17
    assert len(SH.paper_table5()["C_MD"]) == 5


def test_every_missing_data_set_has_a_reason_and_every_present_one_a_note():
    assert set(SH.MISSING_DATASETS) == {"B_MD", "Celiac", "Colon-epi", "Bone Lesion"}
    assert all(len(v) > 20 for v in SH.MISSING_DATASETS.values())
    assert "SUBSTITUTE" in SH.dataset_note("garber")
    assert "test set" in SH.dataset_note("mnist_1v7")


def test_nested_folds_keep_selection_inside_the_training_part(mirror):
    for perm in (0, 3):
        tests = []
        for fold in range(5):
            tr, te, inner = SH._fold("alon", perm, fold, 0, 5)
            assert np.intersect1d(tr, te).size == 0 and tr.size + te.size == 62
            for a, b in inner:
                assert np.all(np.isin(a, tr)) and np.all(np.isin(b, tr))  # never a test sample
                assert np.intersect1d(a, b).size == 0
            tests.append(te)
        assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(62))  # a 5-fold CV per permutation
    # permutations differ
    assert not np.array_equal(SH._fold("alon", 0, 0, 0, 5)[1], SH._fold("alon", 1, 0, 0, 5)[1])


def test_summary_counts_errors_per_permutation():
    rows = []
    for perm, errs in ((0, [1, 2, 0, 1, 1]), (1, [2, 2, 1, 0, 0])):
        for f, e in enumerate(errs):
            rows.append(dict(dataset="alon", method="SC", perm=perm, fold=f, errors=e, n_test=12, size=1 + f % 2,
                             cpu_seconds=0.1, bound=0.5))
    s = R.summarise_cv(pd.DataFrame(rows)).iloc[0]
    assert s["errors"] == pytest.approx(5.0) and s["errors_sd"] == pytest.approx(0.0)
    assert s["n_samples"] == 60 and s["size_mode"] == 1 and s["bound"] == pytest.approx(0.5)


@pytest.mark.parametrize("method", ["SC", "PAC-Bayes", "AdaBoost", "SVM+gs"])
def test_cv_cell_quick_on_real_data(mirror, method):
    row = SH.cv_cell("alon", method, 0, 2, quick=True)
    assert 0 <= row["errors"] <= row["n_test"] == 12
    assert row["n_train"] == 50 and row["size"] >= 1 and row["cpu_seconds"] >= 0
    if method in SH.STUMP_METHODS:
        assert 0 < row["bound"] <= 1 and row["model"] in ("conjunction", "disjunction")
        assert row["n_stumps"] == len(row["genes"]) <= SH.GRIDS["quick"]["max_stumps"]
    if method == "PAC-Bayes":
        assert 0 <= row["gibbs_errors"] <= 12


def test_final_classifier_names_its_genes(mirror):
    f = SH.final_cell("golub", quick=True)
    assert f["n_stumps"] == len(f["genes"]) == len(f["probe_ids"]) >= 1
    assert all(p.endswith("_at") or p.startswith("AFFX") for p in f["probe_ids"])
    assert f["positive_class"] in ("ALL", "AML")
    table = R.table5(pd.DataFrame([dict(dataset="golub", **f)]))
    assert table.index.names == ["data set", "stump"] and table.index[0] == ("Leuk", 1)


def test_cells_refuse_unknown_methods(mirror):
    with pytest.raises(ValueError, match="unknown SVM method"):
        SH.cv_cell("alon", "LASSO", 0, 0, quick=True)


def test_paper_names_and_method_checks():
    assert [R.paper_name(d) for d in ("golub", "pomeroy", "garber", "mnist_2v3", "singh")] == \
        ["Leuk", "C_MD", "Lung", "MNIST-2vs3", "singh"]
    assert R.check_methods(None) == list(SH.METHODS) and R.check_methods(["SC"]) == ["SC"]
    with pytest.raises(ValueError, match="unknown methods \\['LASSO'\\]; choose from"):
        R.check_methods(["SC", "LASSO"])
