"""papers/tan2006_ch45: the thesis' checkable numbers that pin down its preprocessing, Table 5.1-5.2's stability
arithmetic, and the leave-one-fold-out cell on a small quick problem."""

import re

import numpy as np
import pytest

from genesel.papers import tan2006_ch45 as T
from genesel.papers import tan2006_ch45_report as R
from genesel.stability import stability_score


def test_table_5_1_gives_table_5_2_and_s():
    sets = [list(s) for s in T.PAPER["table5_1"]]
    # Table 5.1 prints 1969 once; Table 5.2 counts 1769 eight times
    sets[0] = [1769 if g == 1969 else g for g in sets[0]]
    occ = R.occurrence_table([set(s) for s in sets]).set_index("occurrences")
    assert occ.loc[1, "N_i"] == 14 and occ.loc[2, "N_i"] == 3 and occ.loc[5, "N_i"] == 2
    assert occ.loc[10, "genes"] == [377] and occ.loc[9, "genes"] == [765] and occ.loc[8, "genes"] == [1769]
    assert round(stability_score(sets), 3) == T.PAPER["table5_3"][("Colon", "RVM")]


def test_preprocessing_reproduces_the_thesis_numbers():
    colon = {r["preprocessing"]: r for r in T.preprocessing_cell("alon")}
    leuk = {r["preprocessing"]: r for r in T.preprocessing_cell("golub")}
    merged = "raw values, per-gene z (merged)"
    assert colon[merged]["loo_correct_all_genes"] == 50          # 80.65%, Table 5.4
    assert colon["log values, per-sample z"]["wilcoxon_genes"] == 373  # §5.3
    assert leuk[merged]["test_correct_all_genes"] == 28           # 82.3%, Table 4.2
    # Table 4.6: 2 genes at 31/34. genesel's RVM finds a 2-gene set of higher evidence (ZYX and M81695, log evidence
    # -2.59 against -2.79 for the pair its earlier Python loop stopped at, which gave exactly 31/34): 32/34.
    assert leuk[merged]["rvm_size"] == 2 and leuk[merged]["rvm_test_correct"] in (31, 32)


def test_fold_cell_quick_and_seeded():
    a = T.fold_cell("alon", "RVM", 0, 3, "train-only", 0, True, 100)
    b = T.fold_cell("alon", "RVM", 0, 3, "train-only", 0, True, 100)
    assert a["biomarkers"] == b["biomarkers"] and a["svm_errors"] == b["svm_errors"]
    assert a["n_test"] in (20, 21) and 0 <= a["svm_errors"] <= a["n_test"]
    with pytest.raises(ValueError, match="variant"):
        T.fold_cell("alon", "RVM", 0, 3, "both", 0, True, 100)


def test_standardise_train_only_uses_training_rows():
    X = np.arange(12.0).reshape(6, 2) ** 1.5
    Z = T.standardise(X, np.arange(3))
    np.testing.assert_allclose(Z[:3].mean(0), 0, atol=1e-12)
    assert abs(Z[3:].mean()) > 1


def test_chapter5_matches_reads_the_tables_it_is_given():
    """The 'what matches' paragraph of 05c comes from the run's tables: a changed number changes the text."""
    import pandas as pd

    t54 = pd.DataFrame({"subset": ["All genes", "Wilcoxon p < 0.01", "GP-ARD-RFE top 1024"],
                        "n_genes": [2000, 373, 1024], "loo_accuracy": [80.6452, 82.2581, 87.0968]})
    lofo = pd.DataFrame({"data": ["Colon", "Colon", "Leukemia", "Leukemia"],
                         "variant": ["merged", "merged", "merged", "train-only"],
                         "method": ["SVM-RFE", "RVM", "MSVM-RFE", "MSVM-RFE"], "svm_errors": [14, 11, 4, 6]})
    sets = [[376, 699, 764, 1481, 1768, 1858], [0, 1, 2]]  # 0-based: fold 1 = the thesis' experiment 8
    folds = pd.DataFrame({"dataset": ["alon", "alon"], "method": ["RVM", "RVM"], "variant": ["merged", "merged"],
                          "fold": [0, 1], "biomarkers": sets})
    text = R.chapter5_matches(t54, lofo, folds, T.PAPER, "merged", 10)
    assert "equal to the second decimal: All genes: 80.65%; Wilcoxon p < 0.01: 82.26%." in text
    assert "GP-ARD-RFE top 1024: 87.10% against 88.71%" in text
    assert "2 of 3 error counts equal to the thesis': Colon SVM-RFE 14, Leukemia MSVM-RFE 4." in text
    assert "fold 1 = experiment 8 (377, 700, 765, 1482, 1769, 1859)" in text
    lofo.loc[0, "svm_errors"] = 15
    t54.loc[0, "loo_accuracy"] = 79.0323
    text = R.chapter5_matches(t54, lofo, folds.iloc[1:], T.PAPER, "merged", 10)
    assert "1 of 3 error counts" in text and "All genes: 79.03% against 80.65%" in text
    assert "no fold set equals one of the thesis'" in text


def test_the_capped_fit_note_says_what_happened():
    import pandas as pd

    from genesel.papers import tan2006_ch45_report as R

    none = pd.DataFrame({"method": ["GP-Laplace", "GP-EP", "SVM-RFE"], "unconverged_fits": [0, 0, 0]})
    assert R.unconverged_note(none).startswith("All 2 GP-ARD fits of the rankings met")
    some = none.assign(unconverged_fits=[1, 0, 0])
    assert "stopped at its iteration cap: 1 of 2" in R.unconverged_note(some)


@pytest.mark.filterwarnings("ignore:the smallest class has:UserWarning")  # the folds of the smallest sizes tried
@pytest.mark.parametrize("quick,n_folds", [(True, 3), (False, 10), (False, 5)])
def test_a_study_too_small_for_chapter_5s_inner_folds_is_refused_by_name_at_the_exact_size(tmp_path, quick, n_folds):
    """A user's study with a class of 3 (9 against 3) stopped notebook 05c deep in its grid: "MSVMRFE: n_folds=5
    exceeds the size of the smallest class (2)". It is now refused before anything runs, naming the file and its
    smallest class. The size asked for is exact, checked against the folds the cells deal
    (:func:`genesel.experiments.stratified_kfold`): at that size every training part keeps the inner folds' number
    of the class, one sample fewer and some part does not (so MSVM-RFE would refuse it)."""
    import pandas as pd

    from genesel.experiments import stratified_kfold
    from genesel.papers import tan2006_ch45_report as R
    from genesel.papers.presentation import dataset_list

    inner = 5 if quick else 10
    for n_small in range(2, 20):
        y = np.r_[np.zeros(n_small), np.ones(30)]
        parts_ok = all(np.sum(y[tr] == 0) >= inner for tr, _ in stratified_kfold(y, n_folds, 0))
        frame = pd.DataFrame(np.random.default_rng(n_small).normal(size=(y.size, 8)),
                             columns=[f"g{i}" for i in range(8)])
        frame.insert(0, "group", np.where(y == 0, "normal é", "tumour+"))
        path = tmp_path / f"study{n_small}.csv"
        frame.to_csv(path, index_label="sample")
        d = dataset_list([str(path)], [], label="group")
        if parts_ok:
            R.check_class_sizes(d, n_folds, quick)
        else:
            ch4 = R._chapter4_shortfall(d[0], 0, 3 if quick else 10) is None  # 05b at its defaults runs on it
            runs = "Notebooks 05a and 05b run on it" if ch4 else "Notebook 05a runs on it"
            with pytest.raises(ValueError, match=rf"^study{n_small}\.csv: chapter 5's leave-one-fold-out .* class "
                                                 rf"'normal é' has {n_small}\. {runs}"):
                R.check_class_sizes(d, n_folds, quick)
    R.check_class_sizes(["alon", "golub"], n_folds, quick, 300 if quick else None)  # the thesis' sets run


def test_a_study_too_small_for_chapter_4s_leave_one_out_is_refused_at_the_exact_size(tmp_path):
    """A study of 9 against 3 stopped notebook 05b deep in its grid ("leave-one-out needs at least 2 training
    samples of each class"): the train/test split's training half held 1 sample of the small class. It is now
    refused before anything runs, naming the file, the part and the class. The size is exact against the cells
    themselves: one sample fewer than the smallest size the check lets through and the thesis' forward selection
    refuses the split's training part; at that size every cell of the notebook runs."""
    import pandas as pd

    from genesel.papers import tan2006_ch45 as T
    from genesel.papers.presentation import dataset_list

    def study(n_small):
        y = np.r_[np.zeros(n_small), np.ones(9)]
        rng = np.random.default_rng(n_small)
        X = rng.normal(size=(y.size, 8)) + 1.5 * y[:, None] * (np.arange(8) < 2)
        frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(8)])
        frame.insert(0, "group", np.where(y == 0, "Mélanome+", "CD4+ T é"))
        path = tmp_path / f"small{n_small}.csv"
        frame.to_csv(path, index_label="sample")
        return dataset_list([str(path)], [], label="group")

    passing = None
    for n_small in range(2, 12):
        d = study(n_small)
        try:
            R.check_chapter4_sizes(d, 0, 3)
        except ValueError as exc:
            assert re.match(rf"small{n_small}\.csv: chapter 4 .* holds [01] of class 'Mélanome\+', which has "
                            rf"{n_small} in all\. Notebook 05a runs on it", str(exc)), str(exc)
            assert passing is None, "the check refused a size larger than one it let through"
            failing = d
        else:
            passing = passing or d
    assert passing is not None and failing is not None
    with pytest.raises(ValueError, match="leave-one-out needs at least 2 training samples of each class"):
        T.ranking_cell(failing[0], "SVM-RFE", "merged", 0, True)  # the cells' own refusal, one sample fewer
    for m in T.RANKERS + T.SPARSE:
        T.ranking_cell(passing[0], m, "merged", 0, True)
    for m in T.TABLE47_METHODS:
        for f in range(3):
            T.fold_cell(passing[0], m, f, 3, "merged", 0, True)


@pytest.mark.parametrize("chapter", [4, 5])
def test_a_grouped_study_is_told_its_choices_leave_a_patient_out(mirror, tmp_path, chapter):
    """On a paired study the thesis' leave-one-out (and chapter 5's inner folds) leave a patient out; the notebook
    says so, with the number of patients; a study without groups gets no note."""
    from study_files import pairs

    ref = f"{pairs(tmp_path)}?label=tissue&groups=patient"
    notes = R.grouped_notes([ref, "alon"], chapter, max_genes=300)
    assert len(notes) == 1 and "22 groups" in notes[0] and "leave-one-group-out" in notes[0]
    assert "optimistic" not in notes[0]
    assert ("4.7" if chapter == 4 else "MSVM-RFE") in notes[0]


def test_a_paired_study_fold_cell_fits_msvm_rfe_by_patient(mirror, tmp_path, monkeypatch):
    """Chapter 5's leave-one-fold-out on a paired study: MSVM-RFE is given the patients of the training part (its
    SVMs' folds and its forward selection then keep a patient's samples together), as are the forward selections."""
    from study_files import pairs

    from genesel import forward as F
    from genesel.msvm_rfe import MSVMRFE

    ref = f"{pairs(tmp_path)}?label=tissue&groups=patient"
    seen, paths = [], []
    fit, fwd = MSVMRFE.fit, F.forward_path

    def spy(self, X, y, groups=None):
        seen.append(groups)
        return fit(self, X, y, groups=groups)

    def fwd_spy(*a, **k):
        paths.append(k.get("groups"))
        return fwd(*a, **k)

    monkeypatch.setattr(MSVMRFE, "fit", spy)
    monkeypatch.setattr(T, "forward_path", fwd_spy)
    row = T.fold_cell(ref, "MSVM-RFE", 0, 3, "merged", 0, True, 300)
    assert row["biomarker_size"] >= 1
    assert len(seen) == 1 and seen[0] is not None and len(set(seen[0])) < len(seen[0])  # pairs among the rows
    T.fold_cell(ref, "SVM-RFE", 0, 3, "merged", 0, True, 300)
    assert paths and all(g is not None for g in paths)


def test_an_average_size_one_fold_dominates_is_said_with_its_median():
    """The 0.2.0 full run of Table 4.7 (Leukemia, merged, GP-Laplace): fold sizes 6, 4, 16, 5, 3, 6708, 9, 5, 3, 2,
    average 676.1 against the thesis' 5. The table gives the median beside the average, and a note names the fold;
    a row whose folds are alike gets no note."""
    import pandas as pd

    big = [6, 4, 16, 5, 3, 6708, 9, 5, 3, 2]
    alike = [18, 4, 12, 12, 6, 8, 10, 6, 11, 11]
    folds = pd.DataFrame(
        [dict(dataset=d, variant="merged", method="GP-Laplace", fold=f, n_test=7, svm_errors=0, gp_errors=0,
              biomarker_size=s, cpu_seconds=1.0) for d, sizes in (("golub", big), ("alon", alike))
         for f, s in enumerate(sizes)])
    lofo = R.lofo_table(folds)
    t47 = R.table47(lofo).reset_index().set_index("data")
    assert t47.loc["Leukemia", "avg size"] == pytest.approx(np.mean(big), abs=0.05)
    assert t47.loc["Leukemia", "median size"] == np.median(big)
    assert t47.loc["Colon", "median size"] == np.median(alike)
    notes = R.size_notes(lofo, 10)
    assert len(notes) == 1 and notes[0].startswith("Leukemia (merged), GP-Laplace")
    assert "6,708 genes" in notes[0] and f"{sum(big) - 6708} genes together" in notes[0]
    assert f"median of all 10: {np.median(big):g}" in notes[0] and "676.1" in notes[0]
