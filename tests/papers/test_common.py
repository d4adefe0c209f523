"""genesel.papers.common: parameters as papermill passes them, refused with the right syntax otherwise."""

import pandas as pd
import pytest

from genesel.papers.common import as_list, dataset_list, tidy


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


def test_one_class_fits_counts_degenerate_fits_and_passes_other_warnings_on():
    import warnings

    import numpy as np
    import pytest

    from genesel import LinearSVM
    from genesel.papers.common import one_class_fits

    X = np.array([[0.0], [1.0], [0.0], [1.0], [0.0], [1.0]])
    y = np.array([0, 0, 1, 1, 1, 1])  # one uninformative gene: the SVM optimum predicts the majority
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may reach the caller but the re-issued UserWarning below
        with pytest.warns(UserWarning, match="kept"):
            with one_class_fits() as n:
                LinearSVM(C=1.0).fit(X, y)
                LinearSVM(C=1.0).fit(X, y)
                warnings.warn("kept", UserWarning)
    assert n[0] == 2
