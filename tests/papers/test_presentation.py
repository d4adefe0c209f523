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


def test_tidy_integers_and_index():
    df = pd.DataFrame({"n_genes": [20.0, 40.0], "error": [0.1, 0.25]}, index=[5, 9])
    t = tidy(df)
    assert t["n_genes"].dtype.kind == "i" and t["error"].dtype.kind == "f" and list(t.index) == [0, 1]
