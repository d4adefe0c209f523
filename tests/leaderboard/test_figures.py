"""The leaderboard's figures for a lecture hall (genesel.leaderboard.figures, labels, summary.wilson_interval):
error intervals inside [0, 1] (Wilson's closed form against scipy's), one label per front point and no two labels
overlapping (the renderer's own bounding boxes), a front or a note on every panel, a dark critical-difference
diagram, and curves whose styles are told apart."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from genesel.leaderboard import figures as F  # noqa: E402
from genesel.leaderboard import labels as L  # noqa: E402
from genesel.leaderboard import ranking as RK  # noqa: E402
from genesel.leaderboard.summary import pareto_front, wilson_interval  # noqa: E402
from genesel.leaderboard.tables import committed_table  # noqa: E402


@pytest.fixture(scope="module")
def summary():
    return pd.read_csv(committed_table("leaderboard_results"))


def test_wilson_interval_is_the_closed_form_and_scipys_for_whole_counts():
    from scipy.stats import binomtest

    for k, n in [(0, 31), (1, 62), (7, 50), (25, 50), (50, 50), (3, 181)]:
        lo, hi = wilson_interval(k / n, n)
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)
    # the closed form by hand, for a mean count that is not whole (the mean over the repeats)
    p, n, z = 8.4 / 62, 62, 1.959963984540054
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    np.testing.assert_allclose(wilson_interval(p, n), (c - h, c + h))
    lo, hi = wilson_interval(np.array([0.0, 0.01, 1.0]), np.array([40, 40, 40]))
    assert (lo >= 0).all() and (hi <= 1).all() and lo[0] == 0 and hi[2] == 1
    with pytest.raises(ValueError, match="error must lie in"):
        wilson_interval(1.2, 10)


def _crowded():
    """Eight points a few pixels apart with long names: (fig, ax, x, y, names)."""
    fig, ax = plt.subplots(figsize=(7, 5))
    x = np.linspace(1, 1.4, 8)
    y = np.linspace(5, 5.8, 8)
    ax.plot(x, y, "o")
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    return fig, ax, x, y, [f"method number {i} + SVM" for i in range(8)]


def test_label_placement_keeps_crowded_labels_apart():
    """Eight long labels on points a few pixels apart: placed one by one, no two rendered boxes intersect (a naive
    placement at a fixed offset overlaps them all: the check can fail)."""
    fig, ax, x, y, names = _crowded()
    texts = L.place_labels(ax, x, y, names, fontsize=12, bbox=dict(boxstyle="round,pad=0.15", fc="white"))
    assert len(texts) == 8 and [t.get_text() for t in texts] == names
    # their white boxes as drawn keep 2 points of space between them (labels that touched read as one)
    assert L.overlaps(texts, gap=2) == []
    naive = [ax.annotate(n, (a, b), xytext=(5, 5), textcoords="offset points", fontsize=12)
             for n, a, b in zip(names, x, y)]
    assert len(L.overlaps(naive)) > 0
    plt.close(fig)


@pytest.fixture(scope="module")
def pareto_figs(summary):
    # the panels the issue named (Subramanian and Chiaretti: no front drawn), a one-method front (Prostate against
    # stability), an outcome set where no method
    # beats the most frequent class, and two crowded ones
    keep = ["alon", "golub", "singh", "subramanian", "chiaretti", "harvard", "gordon"]
    s = summary[summary["dataset"].isin(keep)]
    figs = {a: F.plot_pareto(s, a) for a in ("size", "stability")}
    yield s, figs
    for f in figs.values():
        plt.close(f)


def _panel_labels(ax):
    return [t for t in ax.texts if t.get_text() and not t.get_text().startswith("front:")]


def test_every_front_point_has_one_label_and_no_labels_overlap(pareto_figs):
    s, figs = pareto_figs
    for against, fig in figs.items():
        for ax in fig.axes:
            title = ax.get_title().split("\n")[0]
            if not title:
                continue
            labels = _panel_labels(ax)
            assert L.overlaps(labels, gap=2) == [], (against, title)  # white boxes as drawn, 2 points apart
            names = [t.get_text() for t in labels]
            assert len(names) == len(set(names)) and len(names) >= 1, (against, title, names)


def test_every_panel_has_a_front_or_a_note_and_intervals_inside_0_100(pareto_figs):
    s, figs = pareto_figs
    for _against, fig in figs.items():
        for ax in fig.axes:
            if not ax.get_title():
                continue
            fronts = [ln for ln in ax.lines if ln.get_drawstyle().startswith("steps")]
            assert len(fronts) == 1, ax.get_title()
            n_front = len(set(zip(fronts[0].get_xdata(), fronts[0].get_ydata())))  # tied methods: one point
            notes = [t for t in ax.texts if t.get_text().startswith("front: ")]
            assert n_front >= 2 or len(notes) == 1, ax.get_title()
            for coll in ax.collections:  # the error bars: no segment below 0 % or above 100 %
                for seg in coll.get_segments():
                    seg = np.asarray(seg)
                    if len(seg) == 2 and np.isclose(seg[0, 0], seg[1, 0]):  # vertical: an error interval
                        assert seg[:, 1].min() >= -1e-9 and seg[:, 1].max() <= 100 + 1e-9
    # the notes are there where the data have a one-method front (Prostate against stability: the check can fail)
    g = s[(s["dataset"] == "singh") & np.isfinite(s["stability"])]
    assert pareto_front(-g["stability"], g["error"]).sum() == 1
    ax = next(a for a in figs["stability"].axes if "Singh" in a.get_title())
    assert any(t.get_text().startswith("front: one method") for t in ax.texts)
    # Chiaretti against size: two methods tie on the one front point (1 gene, no error): the note says so
    ax = next(a for a in figs["size"].axes if "Chiaretti" in a.get_title())
    assert any(t.get_text().startswith("front: 2 methods tied") for t in ax.texts)
    # a data set where no method beats the most frequent class says so
    ax = next(a for a in figs["size"].axes if "Subramanian" in a.get_title())
    assert "no method beats the most frequent class" in ax.get_title()


def test_the_critical_difference_diagram_is_dark_and_large(summary):
    st = RK.rank_statistics(summary)
    fig = F.plot_critical_difference(st, "", summary)
    ax = fig.axes[0]
    names = [t for t in ax.texts if "(" in t.get_text() and ")" in t.get_text()]
    assert len(names) == summary["method"].nunique()
    for t in names:
        assert t.get_fontsize() >= 16 and max(to_rgb(t.get_color())) < 0.2, t.get_text()
    cd = RK.critical_difference(summary["method"].nunique(), summary["dataset"].nunique())
    assert any(f"critical difference {cd:.1f}" in t.get_text() for t in ax.texts)
    plt.close(fig)


def test_the_curves_use_at_most_seven_colours_and_no_two_methods_look_alike():
    from genesel.leaderboard.catalogue import CATALOGUE

    ranked = [m for m, e in CATALOGUE.items() if e.kind == "ranked"]
    styles = F.curve_styles(ranked, {m: CATALOGUE[m].family for m in ranked})
    assert len(set(styles.values())) == len(ranked)
    assert len({c for c, _, _ in styles.values()}) <= 7
    for c, _, _ in styles.values():
        assert c.upper() != "#F0E442"  # no yellow on a projector's white


def test_a_method_without_errors_on_a_set_of_a_rounding_sample_count_is_drawn(summary):
    """An error of 0 on 63 samples (Khan's SRBCT, the multi-class board's quick default): Wilson's
    lower end is 0 up to rounding, 1e-18 above it, and the Pareto figure drew a negative bar and stopped."""
    assert wilson_interval(0.0, 63)[0] > 0  # the rounding the figure must absorb
    s = summary[summary["dataset"] == "alon"].copy()
    s["n_samples"] = 63
    s.loc[s.index[:3], "error"] = 0.0
    for against in ("size", "stability"):
        plt.close(F.plot_pareto(s, against))


@pytest.mark.parametrize("n_sets", [3, 4])
def test_one_row_of_panels_fills_its_height(summary, n_sets):
    """Three or four data sets (one row of panels: a user's few studies, the multi-class board without one set): the
    shared y label fits the figure's height and the panels take more than half of it. The label in one line is
    taller than a one-row figure (9.9 in at 19 pt against 7.8 in): it ran off both ends, and a notebook's saved
    PNG (``bbox_inches="tight"``) grew empty bands above and below the panels to hold it. Under the curves' legend
    of sixteen methods the margins for the title and the x label were counted twice (the panels kept 0.32 of the
    height)."""
    sets = list(dict.fromkeys(summary["dataset"]))[:n_sets]
    s = summary[summary["dataset"].isin(sets)]
    from genesel.leaderboard.catalogue import CATALOGUE

    ranked = [m for m, e in CATALOGUE.items() if e.kind == "ranked"]  # a legend of many rows
    assert len(ranked) >= 12
    curves = pd.DataFrame([dict(dataset=d, method=m, size=k, all_genes=k == 2000, error=e)
                           for d in sets for m in ranked for k, e in [(2, 0.2), (4, 0.15), (8, 0.12), (2000, 0.14)]])
    for fig in (F.plot_pareto(s, "size"), F.plot_pareto(s, "stability"), F.plot_curves(curves)):
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        label = fig._supylabel.get_window_extent(r)
        assert label.y0 >= fig.bbox.y0 - 1 and label.y1 <= fig.bbox.y1 + 1, "the y label runs off the figure"
        heights = [ax.get_position().height for ax in fig.axes if ax.axison]
        assert min(heights) > 0.5, f"panels take {min(heights):.2f} of the figure's height"
        plt.close(fig)


def test_a_one_panel_figure_fills_its_height(summary):
    """A study of its own (one data set: the quick mode, a user's file) gets one panel with the legend beside it; the
    panel and its labels take the figure's height but for the title (tight_layout left 1.1 in empty above a
    9.1-in figure and 0.4 in below: the check can fail) and the legend stays clear of the panel."""
    s = summary[summary["dataset"] == "alon"]
    curves = pd.DataFrame({"dataset": "alon", "method": "t-test + SVM", "size": [2, 4, 8, 2000],
                           "all_genes": [False, False, False, True], "error": [0.2, 0.15, 0.12, 0.14]})
    for fig in (F.plot_pareto(s, "size"), F.plot_curves(curves)):
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        ax = fig.axes[0]
        inch = fig.dpi
        box = ax.get_tightbbox(r)  # the panel with its title, ticks and axis labels
        title = fig._suptitle.get_window_extent(r)
        assert title.y0 - box.y1 < 0.8 * inch, "room left between the title and the panel"
        assert box.y0 < 0.5 * inch, "room left below the panel's axis label"
        legend = fig.legends[0].get_window_extent(r)
        assert legend.x0 > box.x1 and legend.x1 <= fig.bbox.x1 + 1
        plt.close(fig)


def test_labels_keep_their_white_boxes_apart_not_just_their_texts():
    """Labels with a white box (as the fronts draw them) placed with no space around their texts touch or cover one
    another's boxes as drawn, and read as one label ("SMLR selector + SVM SVM (all genes)" on the 0.2.0 preview's
    Chandran metastasis panel); the default space keeps them apart. :func:`labels.overlaps` measures the boxes as
    drawn: the check can fail."""
    fig, ax, x, y, names = _crowded()
    box = dict(boxstyle="round,pad=0.15", fc="white")  # the fronts' boxes
    tight = L.place_labels(ax, x, y, names, fontsize=12, gap=0.0, bbox=box)
    assert L.overlaps(tight, gap=2) != []
    for t in tight:
        t.remove()
    spaced = L.place_labels(ax, x, y, names, fontsize=12, bbox=box)
    assert L.overlaps(spaced, gap=2) == []
    plt.close(fig)
