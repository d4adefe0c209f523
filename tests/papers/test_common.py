"""genesel.papers.common: the cached loader every paper module shares (its quick-mode gene filter on either scale,
against a brute-force ranking), and the count of one-class fits."""

import numpy as np
import pytest

from genesel.datasets import load_dataset
from genesel.papers.common import load_task, one_class_fits


def test_one_class_fits_counts_degenerate_fits_and_passes_other_warnings_on():
    import warnings

    from genesel import LinearSVM

    X = np.array([[0.0], [1.0], [0.0], [1.0], [0.0], [1.0]])
    y = np.array([0, 0, 1, 1, 1, 1])  # one uninformative gene: the SVM optimum predicts the majority
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may reach the caller but the re-issued UserWarning below
        with pytest.warns(UserWarning, match="kept"):
            with one_class_fits() as n:
                LinearSVM(C=1.0).fit(X, y)
                LinearSVM(C=1.0).fit(X, y)
                warnings.warn("kept", UserWarning, stacklevel=1)
    assert n[0] == 2


@pytest.mark.parametrize("scale,view", [
    ("recommended", lambda X: np.log10(np.clip(X, 20.0, 16000.0))),  # golub's usual floor and ceiling
    ("log_floor_p5", lambda X: np.log10(np.maximum(X, max(1.0, np.percentile(X, 5))))),
])
def test_load_task_keeps_the_most_variable_genes_on_the_scale_asked_for(mirror, scale, view):
    full = load_dataset("golub")
    ds = load_task("golub", 150, variance_scale=scale)
    col = {g: i for i, g in enumerate(full.gene_ids)}
    keep = np.array([col[g] for g in ds.gene_ids])
    assert keep.size == 150 and np.all(np.diff(keep) > 0)  # the original column order
    np.testing.assert_array_equal(ds.X, full.X[:, keep])
    np.testing.assert_array_equal(ds.y, full.y)
    np.testing.assert_array_equal(ds.train_idx, full.train_idx)
    var = view(full.X).var(axis=0)
    dropped = np.setdiff1d(np.arange(full.n_genes), keep)
    assert var[keep].min() >= var[dropped].max() * (1 - 1e-12)
    assert load_task("golub", 150, variance_scale=scale) is ds  # cached per process
    assert not ds.X.flags.writeable
    # numpy's X[:, keep] gives a Fortran-ordered copy; the quick-mode GP fits of 05b (capped L-BFGS-B) change in their
    # last digits with the memory order BLAS sees, so the loader keeps that order
    assert ds.X.flags.f_contiguous


def test_load_task_scales_differ_and_bad_values_are_refused(mirror):
    a = load_task("golub", 150, variance_scale="recommended")
    b = load_task("golub", 150, variance_scale="log_floor_p5")
    assert set(a.gene_ids) != set(b.gene_ids)  # the two quick-mode filters really differ on raw intensities
    assert load_task("golub") is load_dataset("golub") and load_task("golub", 10**6) is load_dataset("golub")
    with pytest.raises(ValueError, match="variance_scale must be one of"):
        load_task("golub", 10, variance_scale="zscore")
    with pytest.raises(ValueError, match="max_genes must be a positive"):
        load_task("golub", 0)


def test_record_keeps_a_table_on_record_with_every_digit(tmp_path, monkeypatch):
    """genesel.papers.presentation.record writes <figures dir>/<name>.csv (index, exact floats) and returns the table
    unchanged; a Styler is recorded through its data; a bad name or a non-table is refused."""
    import numpy as np
    import pandas as pd

    from genesel.papers.presentation import record

    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path))
    df = pd.DataFrame({"error": [0.1 + 0.2, 1 / 3], "genes": [2, 4]}, index=pd.Index(["a", "b"], name="method"))
    assert record(df, "paper_table1") is df
    back = pd.read_csv(tmp_path / "paper_table1.csv", index_col="method", float_precision="round_trip")
    assert back["error"].tolist() == df["error"].tolist()  # bit for bit, not rounded
    pd.testing.assert_frame_equal(back, df)
    sty = df.style.hide(axis="index")
    assert record(sty, "paper_table2") is sty
    assert (tmp_path / "paper_table2.csv").read_text() == (tmp_path / "paper_table1.csv").read_text()
    with pytest.raises(ValueError, match="table name"):
        record(df, "../escape")
    with pytest.raises(TypeError, match="DataFrame"):
        record(np.zeros(3), "paper_table3")


def test_record_names_a_users_file_by_its_name(tmp_path, monkeypatch):
    import pandas as pd

    from genesel.papers.presentation import record

    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path))
    record(pd.DataFrame({"a": [1]}), "gentile2003_table1", "/some/where/my data/alon_study.csv?label=class")
    assert [p.name for p in tmp_path.glob("*.csv")] == ["gentile2003_table1_alon_study.csv"]
