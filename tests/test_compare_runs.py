"""Two runs' tables compared cell by cell, measured times left out (issue 27): genesel.records.compare_runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from genesel.records.compare_runs import compare_dirs, compare_tables, key_columns, leaderboard_changes, main


def _table(change=None):
    t = pd.DataFrame({"method": ["SVM", "GP-EP", "costliest classifier"], "accuracy": ["0.8064516129032258", "0.75",
                                                                                          "SMLR, up to 5.7 s"],
                      "CPU s": ["1.25", "3.5", "9"]})
    for (i, c), v in (change or {}).items():
        t.loc[i, c] = v
    return t


def test_identical_tables_and_times_left_out():
    d, skipped = compare_tables(_table(), _table({(0, "CPU s"): "1.31", (2, "accuracy"): "SMLR, up to 5.6 s"}))
    assert d == [] and "column 'CPU s'" in skipped and any("costliest" in s for s in skipped)


def test_the_last_digit_of_a_result_is_a_difference():
    d, _ = compare_tables(_table(), _table({(0, "accuracy"): "0.8064516129032259"}))
    assert len(d) == 1 and "row 0, 'accuracy'" in d[0]


def test_shapes_and_columns_differ():
    """Rows are matched on the leading key column when the shapes differ; a table without one says so."""
    assert compare_tables(_table(), _table().iloc[:2])[0] == ["1 row(s) only in the first: ['costliest classifier']"]
    renamed = compare_tables(_table(), _table().rename(columns={"accuracy": "acc"}))[0]
    assert renamed[:2] == ["columns only in the first: ['accuracy']", "columns only in the second: ['acc']"]
    assert len(renamed) == 2  # the shared columns agree
    no_key = pd.DataFrame({"method": ["SVM", "SVM"], "x": ["1", "2"]})
    assert compare_tables(no_key, no_key.iloc[:1])[0] == ["2 rows vs 1"]


def test_a_new_version_with_a_method_and_a_column_added_is_compared_on_what_both_hold():
    """A full rerun's summary (rows in another order, a method and a column added) against the previous one: the
    shared cells compared by key, the additions listed, a moved value named by its row's key."""
    old = pd.DataFrame({"dataset": ["alon", "alon", "golub"], "method": ["SVM", "kNN", "SVM"],
                        "error": ["0.1", "0.2", "0.05"]})
    new = pd.DataFrame({"dataset": ["golub", "alon", "alon", "alon"], "method": ["SVM", "kNN", "SVM", "DLDA"],
                        "error": ["0.05", "0.25", "0.1", "0.15"], "auc": ["0.9", "0.8", "0.9", "0.85"]})
    assert key_columns(old, new) == ["dataset", "method"]
    d, _ = compare_tables(old, new)
    assert d == ["columns only in the second: ['auc']", "1 row(s) only in the second: [('alon', 'DLDA')]",
                 "row ('alon', 'kNN'), 'error': '0.2' vs '0.25'"]
    # the last bits of a mean summed in another order: a difference as text, not within a tolerance
    ulp = new.assign(error=["0.05", "0.25", repr(float(np.nextafter(0.1, 1))), "0.15"])
    assert compare_tables(old, ulp)[0][2] == "row ('alon', 'SVM'), 'error': '0.1' vs '0.10000000000000002'"
    d, skipped = compare_tables(old, ulp, rtol=1e-12)
    assert d == compare_tables(old, new)[0] and "1 number(s) equal within rtol 1e-12" in skipped


def test_directories(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    for d in (a, b):
        _table().to_csv(d / "tan2006_x.csv", index=False)
    _table().to_csv(a / "shah2012_y.csv", index=False)
    _table({(1, "method"): "GP-Laplace"}).to_csv(b / "shah2012_y.csv", index=False)
    _table().to_csv(a / "only_here.csv", index=False)
    res = compare_dirs(a, b).set_index("table")
    assert bool(res.loc["tan2006_x.csv", "identical"]) and not bool(res.loc["shah2012_y.csv", "identical"])
    assert res.loc["only_here.csv", "first difference"] == "missing"
    assert main([str(a), str(b), "--tables", "tan2006_*"]) == 0
    assert main([str(a), str(b), "--tables", "shah2012_*"]) == 1


def _summary(rows):
    """A leaderboard summary from raw errors per repeat: {(dataset, method): [errors of each repeat]}."""
    return pd.DataFrame([dict(dataset=d, method=m, n_repeats=len(e), error=np.mean(e) / 72,
                              errors_per_repeat=np.mean(e), errors_per_repeat_sd=np.std(e, ddof=1))
                         for (d, m), e in rows.items()])


def test_moved_rows_are_tested_against_the_noise_of_their_repeats():
    """Welch's test from the summaries equals scipy's on the raw errors per repeat; Holm over the moved rows; a
    row that did not move is not listed. Golub MSVM-RFE, 0.1.0 against 0.2.0, is within the noise."""
    from scipy import stats

    old_msvm, new_msvm = [3, 3, 7, 2, 3, 4, 6, 5, 5, 2], [4, 2, 3, 4, 5, 3, 1, 6, 4, 1]
    far_old, far_new = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2], [9, 8, 9, 8, 9, 8, 9, 8, 9, 8]
    a = _summary({("golub", "MSVM"): old_msvm, ("golub", "SVM"): [1] * 10, ("alon", "kNN"): far_old})
    b = _summary({("golub", "MSVM"): new_msvm, ("golub", "SVM"): [1] * 10, ("alon", "kNN"): far_new,
                  ("alon", "DLDA"): [3] * 10})
    ch = leaderboard_changes(a, b).set_index("method")
    assert set(ch.index) == {"MSVM", "kNN"}
    for m, (x, y) in {"MSVM": (old_msvm, new_msvm), "kNN": (far_old, far_new)}.items():
        assert ch.loc[m, "p (Welch)"] == pytest.approx(stats.ttest_ind(x, y, equal_var=False).pvalue, rel=1e-9)
    assert ch.loc["MSVM", "p (Holm)"] == pytest.approx(min(1, ch.loc["MSVM", "p (Welch)"] * 1))  # the larger p
    assert ch.loc["kNN", "p (Holm)"] == pytest.approx(2 * ch.loc["kNN", "p (Welch)"])
    assert ch.loc["MSVM", "verdict"] == "within the noise" and ch.loc["kNN", "verdict"] == "beyond the noise"
    # no spread on either side: any move is beyond the noise
    c = _summary({("golub", "SVM"): [2] * 10})
    assert leaderboard_changes(a, c).loc[0, "verdict"] == "beyond the noise"
    with pytest.raises(ValueError, match="not a leaderboard summary"):
        leaderboard_changes(a.drop(columns="errors_per_repeat_sd"), b)


def test_a_last_bit_difference_is_not_a_move():
    """The same errors summed in another order (a float mean of the repeats' rates against the exact mean of 0.2.0's
    summary) differ in the last bit: not a moved row, and not counted in Holm's adjustment of the rows that did
    move; one error more is a move, and --rtol widens what counts as the same."""
    a = _summary({("alon", "SVM"): [10, 9, 8], ("alon", "kNN"): [1, 2, 1]})
    b = a.copy()
    b.loc[0, "error"] = np.nextafter(a.loc[0, "error"], 1.0)  # at least one bit apart, whatever the platform
    assert b.loc[0, "error"] != a.loc[0, "error"]
    assert leaderboard_changes(a, b).empty
    c = _summary({("alon", "SVM"): [10, 9, 9], ("alon", "kNN"): [1, 2, 1]})
    assert leaderboard_changes(a, c)["method"].tolist() == ["SVM"]
    assert leaderboard_changes(a, c, rtol=0.1).empty  # 28 against 27 errors: within 10 %


def test_the_command_prints_the_moved_rows(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    _summary({("golub", "MSVM"): [3, 3, 7, 2, 3, 4, 6, 5, 5, 2]}).to_csv(a / "leaderboard_results.csv", index=False)
    _summary({("golub", "MSVM"): [4, 2, 3, 4, 5, 3, 1, 6, 4, 1]}).to_csv(b / "leaderboard_results.csv", index=False)
    assert main([str(a), str(b), "--rows"]) == 1
    out = capsys.readouterr().out
    assert "1 of 1 rows in both moved their error; 0 beyond the noise" in out and "within the noise" in out


def test_a_table_of_measured_times_is_left_out_whole(tmp_path):
    """``shah2012_cost.csv`` (seconds per run, one column per data set) and ``gentile2003_times.csv`` ("slowest run
    (s)") hold measured times only; the column rule does not see it in their column names, so two runs of the same
    code differed there. Such tables are left out whole, and said to be."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    pd.DataFrame({"method": ["SC", "PAC-Bayes"], "Colon": [3.2, 131.4]}).to_csv(a / "shah2012_cost.csv", index=False)
    pd.DataFrame({"method": ["SC", "PAC-Bayes"], "Colon": [4.1, 95.0]}).to_csv(b / "shah2012_cost.csv", index=False)
    pd.DataFrame({"slowest run (s)": [0.037]}).to_csv(a / "gentile2003_times.csv", index=False)
    pd.DataFrame({"slowest run (s)": [0.122]}).to_csv(b / "gentile2003_times.csv", index=False)
    res = compare_dirs(a, b).set_index("table")
    assert res["identical"].all() and set(res["left out (times)"]) == {"the whole table (measured times)"}
    assert main([str(a), str(b)]) == 0
