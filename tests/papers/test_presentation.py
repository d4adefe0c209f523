"""genesel.papers.presentation: parameters as papermill passes them, refused with the right syntax otherwise."""

import pandas as pd
import pytest

from genesel.papers.presentation import as_list, dataset_list, tidy


@pytest.mark.parametrize("value,expected", [
    (["singh"], ["singh"]), ('["singh"]', ["singh"]), ("[singh, golub]", ["singh", "golub"]),
    ("singh", ["singh"]), ("singh,golub", ["singh", "golub"]), (("alon",), ["alon"]),
])
def test_lists_from_papermill_strings(value, expected):
    assert as_list(value, "datasets") == expected


def test_numbers_and_errors():
    assert as_list("[0.5, 0.9]", "alphas", kind=float) == [0.5, 0.9]
    assert as_list(0.5, "alphas", kind=float) == [0.5]
    assert as_list(None, "alphas") is None
    with pytest.raises(ValueError, match=r"papermill -p alphas"):
        as_list("[0.5, oops", "alphas", kind=float, example=[0.5])
    with pytest.raises(ValueError, match="must be a list"):
        as_list({"a": 1}, "alphas")


def test_dataset_names_aliases_and_refusals():
    assert dataset_list('["leukemia", "colon", "golub"]', ["golub"]) == ["golub", "alon"]
    assert dataset_list(None, ["golub", "alon"]) == ["golub", "alon"]
    with pytest.raises(ValueError, match="unknown data set 'nosuch'"):
        dataset_list("nosuch", ["golub"])
    with pytest.raises(ValueError, match="more than two classes"):
        dataset_list("[khan]", ["golub"])
    with pytest.raises(ValueError, match="family"):
        dataset_list("mnist_pairs", ["golub"])


def test_a_k_class_file_in_a_binary_notebook_gets_the_notebooks_ways_out(tmp_path):
    """A 10-class file given to notebook 01, 04 or 05a surfaced the reader's message for the API (read_expression,
    the reference's syntax, classes='all' with 30 estimators), although classes='all' cannot run there. The
    notebooks now say: choose two (the largest, as an example, with the parameter's syntax), or the leaderboard's
    multi-class board. Notebook 06 (binary=False) keeps every class."""
    import json
    import shlex

    import numpy as np

    sizes = [6, 9, 5, 8]
    y = np.repeat([f"t{k}+é" for k in range(4)], sizes)
    frame = pd.DataFrame(np.random.default_rng(0).normal(size=(y.size, 6)), columns=[f"g{j}" for j in range(6)])
    frame.insert(0, "tissue", y)
    path = tmp_path / "four.csv"
    frame.to_csv(path, index_label="id")
    with pytest.raises(ValueError) as err:
        dataset_list([str(path)], [], label="tissue")
    msg = str(err.value)
    pair = shlex.quote(json.dumps(["t1+é", "t3+é"], ensure_ascii=False))
    assert msg.startswith("parameter 'datasets': four.csv has 4 classes: t0+é (6), t1+é (9), t2+é (5), t3+é (8).")
    assert f"-p classes {pair}" in msg and "multi-class board takes all 4" in msg and "classes='all'" not in msg
    assert dataset_list([str(path)], [], label="tissue", classes=["t1+é", "t3+é"])  # the way out given runs
    assert dataset_list([str(path)], [], label="tissue", binary=False, classes="all")


def test_tidy_integers_and_index():
    df = pd.DataFrame({"n_genes": [20.0, 40.0], "error": [0.1, 0.25]}, index=[5, 9])
    t = tidy(df)
    assert t["n_genes"].dtype.kind == "i" and t["error"].dtype.kind == "f" and list(t.index) == [0, 1]
