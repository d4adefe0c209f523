"""Two runs' tables compared cell by cell, measured times left out (issue 27): genesel.records.compare_runs."""

from __future__ import annotations

import pandas as pd

from genesel.records.compare_runs import compare_dirs, compare_tables, main


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
    assert compare_tables(_table(), _table().iloc[:2])[0] == ["3 rows vs 2"]
    assert "columns differ" in compare_tables(_table(), _table().rename(columns={"accuracy": "acc"}))[0][0]


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
