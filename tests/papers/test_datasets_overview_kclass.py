"""Notebook 00 on a study of three or more classes (a tumour's subtypes, tissues): the shapes table lists every
class, the class-balance bars give each class its segment and name, and the heatmap shows each class's one-vs-rest
signal-to-noise markers (Golub et al. 1999), checked against the ratio computed by hand."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from genesel.datasets import read_expression  # noqa: E402
from genesel.papers import datasets_overview as O  # noqa: E402


def _study(sizes=(12, 10, 8), n_genes=120, seed=0):
    """Three classes (names with an accent and a '+'); genes 10k..10k+4 higher in class k (by 3 sd)."""
    rng = np.random.default_rng(seed)
    names = ["métastase", "normal é", "tumeur+"][:len(sizes)]
    y = np.repeat(names, sizes)
    X = rng.normal(8.0, 1.0, (y.size, n_genes))
    for k, c in enumerate(names):
        X[y == c, 10 * k:10 * k + 5] += 3.0
    frame = pd.DataFrame(X, index=[f"s{i}" for i in range(y.size)], columns=[f"G{j}" for j in range(n_genes)])
    return read_expression(frame, label=list(y), classes="all", name="three"), X, y


def _snr_by_hand(X, inside):
    a, b = X[inside], X[~inside]
    return (a.mean(0) - b.mean(0)) / (a.std(0) + b.std(0))


def test_each_classs_markers_are_its_planted_genes_and_their_ratio_is_golubs():
    ds, X, y = _study()
    fig, _, table = O.top_genes(ds, X)
    plt.close(fig)
    per = O.N_TOP // 3
    # the heatmap's columns: per class its `per` genes of largest ratio against the rest, the planted five first
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert len(labels) == 3 * per
    for k in range(3):
        block = labels[k * per:(k + 1) * per]
        assert set(block[:5]) == {f"G{10 * k + j}" for j in range(5)}, block
    heads = [t.get_text() for t in ax.texts if t.get_text().startswith("higher in")]
    assert heads == [f"higher in {c}" for c in ds.classes]
    # the table: the ten largest ratios over all classes, each with the class it is higher in, by hand
    col = "signal-to-noise (its class against the rest)"
    for _, r in table.iterrows():
        g = int(r["probe / gene ID"][1:])
        c = r["higher in"]
        assert r[col] == pytest.approx(_snr_by_hand(X, y == c)[g], abs=1e-3)
        assert g // 10 == list(ds.classes).index(c) and g % 10 < 5
    assert table[col].is_monotonic_decreasing


def test_two_classes_keep_the_25_largest_and_25_smallest_ratios():
    ds, X, y = _study(sizes=(12, 10))
    fig, _, table = O.top_genes(ds, X)
    plt.close(fig)
    snr = _snr_by_hand(X, y == ds.classes[1])
    order = np.argsort(snr, kind="stable")
    want = [f"G{g}" for g in np.r_[order[::-1][:25], order[:25]]]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == want
    assert not [t for t in fig.axes[0].texts if t.get_text().startswith("higher in")]
    assert list(table.columns)[-1] == "signal-to-noise"


def test_the_class_bars_and_the_shapes_table_name_every_class():
    three, _, _ = _study(sizes=(30, 24, 3))
    two, _, _ = _study(sizes=(12, 10))
    fig = O.class_balance([three, two])
    texts = [t for t in fig.axes[0].texts]
    inside = {t.get_text() for t in texts if t.get_color() == "white"}
    assert {"métastase\n30", "normal é\n24", "normal é\n10", "métastase\n12"} <= inside
    # the class of 3 samples is too narrow for its name: the count inside, the name under the bar
    assert "3" in inside and "tumeur+\n3" not in inside
    assert [t.get_text() for t in texts if t.get_color() != "white"] == ["tumeur+"]
    assert "each class its own colour" in fig.axes[0].get_title()
    plt.close(fig)
    table = O.shapes_table([three, two])
    assert table["classes"].tolist() == ["métastase (30) / normal é (24) / tumeur+ (3)",
                                         "métastase (12) / normal é (10)"]
    assert {"first class", "second class"} <= set(O.shapes_table([two]).columns)


def test_a_class_of_one_sample_gets_no_markers_and_two_classes_then_no_heatmap():
    """The ratio divides by each class's spread: a class of one sample has none. Notebook 00 stopped there with
    "each class needs at least 2 sample(s)"; now such a class gets no markers (K classes, said in the note) or, with
    two classes, there is no heatmap and the note says why."""
    ds, X, y = _study(sizes=(12, 10, 1))
    fig, note, table = O.top_genes(ds, X)
    heads = [t.get_text() for t in fig.axes[0].texts if t.get_text().startswith("higher in")]
    plt.close(fig)
    assert heads == ["higher in métastase", "higher in normal é"]
    assert note.startswith("'tumeur+' (one sample) has no spread of its own, so no markers")
    assert len(fig.axes[0].get_xticklabels()) == 2 * (O.N_TOP // 2)
    assert set(table["higher in"]) <= {"métastase", "normal é"}
    two, X2, _ = _study(sizes=(12, 1))
    fig, note, table = O.top_genes(two, X2)
    assert fig is None and table.empty
    assert note == ("No heatmap for three: the signal-to-noise ratio divides by each class's spread, and 'normal é' "
                    "has a single sample.")


def test_no_figure_is_saved_or_shown_for_none(tmp_path, monkeypatch):
    """Notebook 00 passes the heatmap it could not draw (None) to save_and_show: nothing is written."""
    from genesel import plotting

    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path))
    plotting.save_and_show(None, "datasets_x_top50_snr_heatmap")
    assert not list(tmp_path.iterdir())
