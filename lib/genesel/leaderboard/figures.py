"""The leaderboard's figures, drawn for a lecture hall (a report module: no cell imports it, so editing a figure
moves no cell's cache key).

- :func:`plot_critical_difference`: the mean ranks of the error on one axis, methods that Nemenyi's test cannot
  tell apart joined by a bar (``scikit_posthocs.critical_difference_diagram``; Demšar 2006), dark labels in a
  large font, elbows coloured by family, Nemenyi's critical difference drawn as a bar of its length.
- :func:`plot_mean_ranks`: every method's mean rank with its 95 % bootstrap interval over the data sets, by error
  and by balanced error side by side, the band of the critical difference from the lowest mean rank, and the share
  of resamples in which each method is first (:mod:`genesel.leaderboard.ranking`).
- :func:`plot_pareto`: error against signature size or stability, one panel per data set. The error's interval is
  Wilson's 95 % score interval over the data set's samples (:func:`genesel.leaderboard.summary.wilson_interval`;
  it stays within 0-100 %); against stability, Nogueira's 95 % interval as well (cut at Φ = 1, its largest
  value). The Pareto front is drawn as a staircase on every panel and its methods named, without overlap
  (:mod:`genesel.leaderboard.labels`); a panel whose front is one method says so. A dashed line marks the error of
  always predicting the most frequent class; a data set where no method beats it (:func:`genesel.leaderboard.ranking.
  majority_class_tests`) has a grey panel and says so in its title.
- :func:`plot_curves`: the test error of each ranked method at fixed signature sizes, one panel per data set; a
  family per line style and marker, at most 7 colours within a family (Okabe & Ito's colour-blind-safe palette).

``python -m genesel.leaderboard.figures`` redraws every figure from the committed tables of the full run
(``figures/leaderboard_results.csv``; the error-against-size curves from ``figures/leaderboard_curves.csv`` when it
is there, which a full run since it was added writes) into ``figures/`` (``--out`` elsewhere).

Needs matplotlib (``pip install "genesel[notebooks]"``) and, for the critical-difference diagram, scikit-posthocs
(``genesel[stats]``); importing the module without matplotlib raises an :class:`ImportError` that says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.extras import check as _check_extra
from genesel.leaderboard.labels import place_labels
from genesel.leaderboard.summary import dataset_title, majority_error, pareto_front, wilson_interval

_check_extra("genesel.leaderboard.figures", "matplotlib")

__all__ = ["FAMILY_STYLE", "plot_critical_difference", "plot_mean_ranks", "plot_pareto", "plot_curves",
           "redraw_committed", "main", "plot_confusion", "plot_best_confusion"]

#: Okabe & Ito (2008)'s colour-blind-safe colours (yellow left out: it vanishes on a projector's white).
OKABE_ITO = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000")
#: Colour and marker of each family of methods (:attr:`genesel.leaderboard.catalogue.Method.family`).
FAMILY_STYLE = {"filter": ("#0072B2", "o"), "wrapper": ("#D55E00", "s"), "embedded": ("#009E73", "D"),
                "stumps": ("#E69F00", "^"), "ensemble": ("#CC79A7", "v"), "baseline": ("#333333", "P")}
_FAMILY_LINES = {"filter": "-", "wrapper": "--", "embedded": ":", "stumps": "-.", "ensemble": "-.",
                 "baseline": "-"}
_INK = "#111111"


def _style(family: str):
    return FAMILY_STYLE.get(family, ("#777777", "X"))


def _family_of(summary: pd.DataFrame | None, method: str) -> str:
    from genesel.leaderboard.catalogue import CATALOGUE

    if method in CATALOGUE:
        return CATALOGUE[method].family
    if summary is not None and "family" in summary:
        f = summary.loc[summary["method"] == method, "family"]
        if len(f) and isinstance(f.iloc[0], str):
            return f.iloc[0]
    return ""


def _few_panels_layout(fig) -> None:
    """Margins in inches for a figure of one or two panels with its legend on the right: room for the title, two-line
    axis labels and the legend (as wide as it is drawn), the panels filling the rest (``tight_layout`` left a third of
    such a figure empty above and below its one panel)."""
    w, h = fig.get_figwidth(), fig.get_figheight()
    legend = fig.legends[0].get_window_extent(fig.canvas.get_renderer()).width / fig.dpi if fig.legends else 0.0
    panels = max(1, len([ax for ax in fig.axes if ax.axison]))
    fig.subplots_adjust(left=1.45 / w, right=1 - (legend + 0.35) / w, bottom=1.25 / h, top=1 - 1.25 / h,
                        wspace=1.6 / ((w - legend - 1.8) / panels))


def _legend_below_layout(fig, xlabel=None, ylabel=None) -> None:
    """Panels over a legend at the bottom: the shared x label just above the legend (as tall as it is drawn), then
    ``tight_layout`` for the rest. ``tight_layout`` itself makes room for the title and the shared labels inside its
    ``rect``; a rect that also set margins for them in inches counted them twice (on a one-row figure of 8.4 in the
    panels kept 2.6 in, with 1.8 in empty above them)."""
    h = fig.get_figheight()
    legend = fig.legends[0].get_window_extent(fig.canvas.get_renderer()).height / fig.dpi if fig.legends else 0.0
    bottom = (legend + 0.15) / h
    if xlabel is not None:  # the Text of fig.supxlabel
        xlabel.set_y(bottom)
        xlabel.set_va("bottom")
    if ylabel is not None:  # at the left edge: tight_layout keeps its width free there, not 2 % of the width
        ylabel.set_x(0.1 / fig.get_figwidth())
    fig.tight_layout(rect=(0, bottom, 1, 1))


def _grid(n: int) -> tuple[int, int]:
    ncol = 5 if n > 12 else min(4, n)
    ncol = max(ncol, 1)
    return ncol, int(np.ceil(n / ncol))


# --------------------------------------------------------------------------------------------------------------
# ranks
# --------------------------------------------------------------------------------------------------------------


def plot_critical_difference(stats: dict, title_extra: str = "", summary: pd.DataFrame | None = None):
    """Mean ranks on one axis, methods joined by a bar where Nemenyi's test finds no difference at ``stats['alpha']``
    (``scikit_posthocs.critical_difference_diagram``), Nemenyi's critical difference above the axis; the labels
    dark and large, the elbows coloured by family (legend below)."""
    import matplotlib.pyplot as plt

    from genesel.extras import require

    sp = require("scikit_posthocs", "the critical-difference diagram (genesel.leaderboard.figures)")
    from matplotlib.lines import Line2D

    ranks = stats["mean_ranks"]
    n = len(ranks)
    fig, ax = plt.subplots(figsize=(20, 0.55 * n + 4.5))
    if "nemenyi" not in stats:
        ax.text(0.5, 0.5, "fewer than 3 methods or 2 blocks: no Friedman test", ha="center", fontsize=18,
                transform=ax.transAxes)
        ax.set_title("Mean ranks" + title_extra, fontsize=20)
        ax.axis("off")
        return fig
    fams = {m: _family_of(summary, m) for m in ranks.index}
    palette = {m: _style(f)[0] for m, f in fams.items()}
    art = sp.critical_difference_diagram(ranks, stats["nemenyi"], ax=ax, alpha=stats.get("alpha", 0.05),
                                         label_props={"fontsize": 17},
                                         label_fmt_left="{label} ({rank:.1f})", label_fmt_right="({rank:.1f}) {label}",
                                         elbow_props={"linewidth": 2.2}, marker_props={"s": 70},
                                         crossbar_props={"linewidth": 3.5, "color": _INK}, color_palette=palette)
    for t in art.get("labels", []):
        t.set_color(_INK)
    ax.tick_params(axis="x", labelsize=18)
    if "cd" in stats:  # Nemenyi's critical difference as a bar of its length, above the axis at its left end
        lo = float(ranks.min())
        ax.plot([lo, lo + stats["cd"]], [1.1, 1.1], color=_INK, lw=4, solid_capstyle="butt", clip_on=False)
        ax.text(lo + stats["cd"] / 2, 1.35, f"critical difference {stats['cd']:.1f} ranks", ha="center",
                va="bottom", fontsize=17, color=_INK, clip_on=False)
        ax.set_ylim(top=2.2)
    p = stats["friedman_p"]
    ax.set_title(f"Mean rank of the error (1 = best) over {stats['blocks']}; Friedman p = {p:.2g}\nbars join methods "
                 f"Nemenyi's test cannot tell apart at {100 * stats.get('alpha', 0.05):.0f} %" + title_extra,
                 fontsize=20, pad=70, color=_INK)
    shown = [f for f in FAMILY_STYLE if f in set(fams.values())]
    handles = [Line2D([], [], color=_style(f)[0], lw=4, label=f) for f in shown]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=17, frameon=False,
               title="family of the method (elbow colour)", title_fontsize=17, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def plot_confusion(cm: pd.DataFrame, title: str):
    """A confusion matrix for a lecture hall: rows the true classes, columns the predicted ones, each cell the share
    of its true class (row %, the recall on the diagonal) in large print with the count below it; the shade is the
    row share (white 0 %, dark blue 100 %), so a class the method gives up shows as a pale diagonal cell. The
    per-class recall and the balanced error (their mean's complement) are in the title. ``cm``: counts, as
    :func:`genesel.leaderboard.summary.confusion` gives them; ``title``: its lines (split at newlines) are each
    wrapped to the figure's width."""
    import textwrap

    import matplotlib.pyplot as plt

    C = np.asarray(cm, dtype=float)
    K = C.shape[0]
    rows = C.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        R = np.where(rows > 0, C / rows, np.nan)
    names = [textwrap.fill(str(c), 16) for c in cm.index]  # long class names on two or three lines
    long = max(len(line) for n in names for line in n.split("\n")) > 6
    # below the columns, rotated labels of several lines run into their neighbours: wider lines, steeper angle
    xnames = [textwrap.fill(str(c), 24) for c in cm.index] if long else names
    side = max(7.0, 1.5 * K + 3.0)
    pad = 2.5 if long else 0.0  # room for the labels
    fig, ax = plt.subplots(figsize=(side + 2.0 + pad, side + pad))
    im = ax.imshow(np.nan_to_num(R), cmap="Blues", vmin=0.0, vmax=1.0)
    ax.grid(False)  # the house style's grid would cross the cells; white lines between them instead
    ax.set_xticks(np.arange(K + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(K + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=3)
    ax.tick_params(which="minor", length=0)
    big = 26 if K <= 5 else 18
    for i in range(K):
        for j in range(K):
            share = R[i, j]
            ink = "white" if np.isfinite(share) and share > 0.55 else _INK
            ax.text(j, i - 0.08, "–" if not np.isfinite(share) else f"{100 * share:.0f} %", ha="center",
                    va="center", fontsize=big, color=ink, fontweight="bold" if i == j else "normal")
            ax.text(j, i + 0.28, f"n = {int(C[i, j])}", ha="center", va="center", fontsize=big * 0.7, color=ink)
    ax.set_xticks(range(K), xnames, fontsize=18 if K <= 5 else 15, rotation=45 if long else 0,
                  ha="right" if long else "center", rotation_mode="anchor")
    ax.set_yticks(range(K), names, fontsize=18 if K <= 5 else 15)
    ax.set_xlabel("predicted class", fontsize=20)
    ax.set_ylabel("true class", fontsize=20)
    recall = np.diag(R)
    bal = 1.0 - float(np.nanmean(recall))
    width = int(6.4 * (side + 2.0 + pad))  # characters of 18-pt bold across the figure
    lines = title.split("\n") + [f"row % of each true class; balanced error {100 * bal:.1f} %, worst recall "
                                  f"{100 * float(np.nanmin(recall)):.0f} %"]
    # a line too long is cut into lines of even length (no word left alone on the last one)
    ax.set_title("\n".join(textwrap.fill(line, int(np.ceil(len(line) / np.ceil(len(line) / width))) + 3)
                           for line in lines), fontsize=18, color=_INK)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label("share of the true class (%)", fontsize=17)
    cb.set_ticks([0, 0.25, 0.5, 0.75, 1.0], labels=["0", "25", "50", "75", "100"])
    cb.ax.tick_params(labelsize=15)
    fig.tight_layout()
    return fig


def plot_best_confusion(res: pd.DataFrame, summary: pd.DataFrame, dataset, title_extra: str = ""):
    """:func:`plot_confusion` of the method of lowest balanced error on a K-class ``dataset``, its counts summed over
    the repeats (:func:`genesel.leaderboard.summary.confusion`)."""
    from genesel.leaderboard.summary import best_by_balanced_error, confusion

    best = best_by_balanced_error(summary, dataset)
    reps = int(res.loc[(res["dataset"] == dataset) & (res["method"] == best), "repeat"].nunique())
    g = summary[summary["dataset"] == dataset].set_index("method")["balanced_error"]
    rest = g.drop(index=best).sort_values(kind="stable")
    tied = rest.index[rest == g[best]].tolist()  # exact: the summary's means are exact (ties are ties)
    if tied:
        rank = (f"tied for the lowest balanced error with {' and '.join(tied)}" if len(tied) <= 2 else
                f"tied for the lowest balanced error with {len(tied)} other methods")
    else:
        rank = "lowest balanced error" + (f"; next: {rest.index[0]}, {100 * rest.iloc[0]:.1f} %" if len(rest) else "")
    who = best + (f", counts over {reps} repeats" if reps > 1 else "")
    return plot_confusion(confusion(res, dataset, best), f"{dataset_title(dataset)}{title_extra}\n{who}\n{rank}")


def plot_mean_ranks(rt: dict, title_extra: str = ""):
    """Each method's mean rank with its 95 % bootstrap interval over the data sets (:func:`genesel.leaderboard.
    ranking.ranking_table`): by error (filled circle) and by balanced error (open square), methods in order of the
    error's mean rank; the shaded band spans Nemenyi's critical difference from the lowest mean rank; on the right,
    the share of resamples in which the method has the lowest mean rank of the error."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    b = rt["boot_error"]
    bb = rt.get("boot_balanced")
    n = len(b)
    fig, ax = plt.subplots(figsize=(16, 0.5 * n + 3.2))
    y = np.arange(n)
    err = rt["error"]
    if "cd" in err:
        lo = float(b["mean_rank"].iloc[0])
        ax.axvspan(lo, lo + err["cd"], color="#dddddd", zorder=0)
    ax.errorbar(b["mean_rank"], y - 0.15, xerr=[b["mean_rank"] - b["lo"], b["hi"] - b["mean_rank"]], fmt="o",
                color=_INK, ms=9, lw=2, capsize=0, label="error")
    if bb is not None:
        r = bb.reindex(b.index)
        ax.errorbar(r["mean_rank"], y + 0.15, xerr=[r["mean_rank"] - r["lo"], r["hi"] - r["mean_rank"]], fmt="s",
                    color="#D55E00", mfc="white", mew=2, ms=8, lw=1.6, capsize=0, label="balanced error")
    ax.set_yticks(y)
    ax.set_yticklabels(b.index, fontsize=15, color=_INK)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean rank over {err['blocks']} (1 = best), 95 % interval over {rt['n_boot']:,} bootstrap "
                  "resamples of the data sets", fontsize=16)
    ax.tick_params(axis="x", labelsize=15)
    x1 = float(max(b["hi"].max(), bb["hi"].max() if bb is not None else 0)) + 1
    ax.set_xlim(0.5, x1 + 4.5)
    for yi, s in zip(y, b["share_first"]):
        ax.text(x1 + 4.3, yi, f"{100 * s:.0f} %" if s >= 0.005 else "–", ha="right", va="center", fontsize=15,
                color=_INK)
    ax.text(x1 + 4.3, -1.0, "first (error)", ha="right", va="center", fontsize=15, fontweight="bold", color=_INK)
    handles = [Line2D([], [], marker="o", color=_INK, ls="-", ms=9, label="error")]
    if bb is not None:
        handles.append(Line2D([], [], marker="s", color="#D55E00", mfc="white", mew=2, ms=8, label="balanced error"))
    if "cd" in err:
        handles.append(Patch(color="#dddddd", label=f"within Nemenyi's critical difference ({err['cd']:.1f}) of the "
                                                     "lowest"))
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=15, frameon=False, bbox_to_anchor=(0.5, 0.0))
    ax.set_ylim(n - 0.4, -1.6)
    ax.set_title("Mean rank of each method with its uncertainty; right: share of resamples in which it is first"
                 + title_extra, fontsize=18, color=_INK)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 1))
    return fig


# --------------------------------------------------------------------------------------------------------------
# Pareto fronts
# --------------------------------------------------------------------------------------------------------------


def _staircase(ax, x, e, against: str):
    """The front as the boundary of the region it dominates: for size (smaller is better) right then down, for
    stability (larger is better) up then right."""
    o = np.argsort(x, kind="stable")
    ax.plot(x[o], e[o], color=_INK, lw=2.4, zorder=2, drawstyle="steps-post" if against != "stability" else
            "steps-pre")


def plot_pareto(summary: pd.DataFrame, against: str = "size", title_extra: str = "", majority: dict | None = None):
    """Error against signature size (log scale) or against stability (Nogueira's Φ, higher is better), one panel per
    data set (module docstring for the intervals, the front and the marks). The all-genes baselines have no
    stability (:func:`genesel.leaderboard.summary.selects_genes`) and appear only against size."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from genesel.leaderboard.ranking import majority_class_tests

    if against not in ("size", "stability"):
        raise ValueError(f"plot_pareto: against={against!r}; use 'size' or 'stability'")
    majority = majority if majority is not None else majority_class_tests(summary)
    none_beats = set(majority["uninformative"])
    datasets = list(dict.fromkeys(summary["dataset"]))
    ncol, nrow = _grid(len(datasets))
    few = len(datasets) <= 2  # one or two panels: larger, the legend on the right
    w, h = (10.0, 7.5) if few else (6.6, 5.6)
    fig, axes = plt.subplots(nrow, ncol, figsize=(w * ncol + (5.5 if few else 0), h * nrow + (1.6 if few else 2.2)),
                             squeeze=False)
    labels_by_ax = {}
    for ax, d in zip(axes.flat, datasets):
        g = summary[summary["dataset"] == d]
        if against == "stability":
            g = g[np.isfinite(g["stability"])]
        if not len(g):
            ax.text(0.5, 0.5, "no method selects genes here:\nno stability to draw", ha="center", va="center",
                    fontsize=15, transform=ax.transAxes)
            ax.set_title(dataset_title(d), fontsize=15)
            continue
        x = (g["stability"] if against == "stability" else g["size"]).to_numpy(float)
        cost = -x if against == "stability" else x
        e = 100 * g["error"].to_numpy(float)
        lo, hi = wilson_interval(g["error"].to_numpy(float), g["n_samples"].to_numpy(float))
        # Wilson's lower end of an error of 0 is 0 up to rounding (1e-18 above it): no negative bar length
        yerr = np.clip(np.vstack([e - 100 * lo, 100 * hi - e]), 0.0, None)
        xerr = None
        if against == "stability":
            xerr = np.vstack([x - g["stability_lo"].to_numpy(float),
                              np.minimum(g["stability_hi"].to_numpy(float), 1.0) - x])
            xerr = np.clip(np.nan_to_num(xerr), 0, None)
        fam = g["family"].fillna("").to_numpy() if "family" in g else np.array([""] * len(g))
        for f in list(FAMILY_STYLE) + sorted(set(fam) - set(FAMILY_STYLE)):
            k = fam == f
            if not k.any():
                continue
            col, mk = _style(f)
            ax.errorbar(x[k], e[k], yerr=yerr[:, k], xerr=None if xerr is None else xerr[:, k], fmt=mk, color=col,
                        ms=10, mec="white", mew=0.7, elinewidth=1.2, capsize=0, alpha=0.9, zorder=3)
        p0 = 100 * majority_error(g)
        ax.axhline(p0, ls="--", color="0.25", lw=1.6, zorder=1)
        front = pareto_front(cost, e)
        _staircase(ax, x[front], e[front], against)
        ax.plot(x[front], e[front], "o", ms=15, mfc="none", mec=_INK, mew=2, zorder=4)
        if against == "stability":
            ax.set_xlim(min(-0.05, float(np.nanmin(x - xerr[0])) - 0.05), 1.05)
        else:
            ax.set_xscale("log")
            ax.set_xlim(0.6, float(np.nanmax(x)) * 2.5)
        top = max(float(np.max(100 * hi)), p0) * 1.08 + 2
        ax.set_ylim(-0.03 * top, top)  # a margin under 0 % so that a point at 0 shows whole (no interval goes there)
        ax.tick_params(labelsize=13)
        title = dataset_title(d)
        if d in none_beats:
            ax.set_facecolor("#ececec")
            ax.set_title(title + "\nno method beats the most frequent class", fontsize=15, color="#8b0000")
        else:
            ax.set_title(title, fontsize=15)
        names = g["method"].to_numpy()[front]
        notes = []
        if len(set(zip(x[front], e[front]))) == 1:  # one point (several methods may tie on it)
            what = "most stable" if against == "stability" else "smallest"
            who = "one method" if front.sum() == 1 else f"{int(front.sum())} methods tied"
            notes.append(ax.text(0.98, 0.97, f"front: {who},\n{what} and most accurate", transform=ax.transAxes,
                                 ha="right", va="top", fontsize=13, color=_INK,
                                 bbox=dict(boxstyle="round", fc="white", ec="0.6", alpha=0.9)))
        labels_by_ax[ax] = (x[front], e[front], names, np.column_stack([x[~front], e[~front]]), notes)
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    what = "stability" if against == "stability" else "signature size"
    fig.suptitle(f"Error against {what}: the Pareto front of the methods on each data set" + title_extra,
                 fontsize=18 if few else 24, color=_INK)
    xlabel = ("stability of the signatures over the outer folds (Nogueira's Φ; 1 = the same genes every time)"
              if against == "stability" else "genes in the signature (mean over the outer folds; log scale)")
    ylabel = "cross-validated error (%), with its 95 % Wilson interval over the samples"
    if few:
        for ax in list(axes.flat)[:len(datasets)]:
            ax.set_xlabel(xlabel.replace(" (", "\n("), fontsize=15)
            ax.set_ylabel(ylabel.replace(", with", ",\nwith"), fontsize=15)
    else:
        sup_x = fig.supxlabel(xlabel, fontsize=19)
        # one row of panels (7.8 in high): the label in one line (9.9 in at 19 pt) would run off the figure
        sup_y = fig.supylabel(ylabel.replace(", with", ",\nwith") if nrow == 1 else ylabel, fontsize=19)
    shown = set(summary["family"]) if against != "stability" else set(
        summary.loc[np.isfinite(summary["stability"]), "family"])
    handles = [Line2D([], [], marker=mk, color=col, ls="", ms=12, label=f) for f, (col, mk) in FAMILY_STYLE.items()
               if f in shown]
    handles += [Line2D([], [], color=_INK, lw=2.4, marker="o", ms=14, mfc="none", mew=2,
                       label="Pareto front (named)"),
                Line2D([], [], color="0.25", lw=1.6, ls="--", label="always predicting the most frequent class")]
    if few:
        fig.legend(handles=handles, loc="center right", ncol=1, fontsize=16, frameon=False)
        _few_panels_layout(fig)
    else:
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=18, frameon=False,
                   bbox_to_anchor=(0.5, 0.0))
        _legend_below_layout(fig, sup_x, sup_y)
    for ax, (fx, fe, names, rest, notes) in labels_by_ax.items():
        place_labels(ax, fx, fe, list(names), fontsize=13, others=rest, avoid=notes, color=_INK,
                     bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    return fig


# --------------------------------------------------------------------------------------------------------------
# error against a fixed signature size
# --------------------------------------------------------------------------------------------------------------


def _curves_from(data: pd.DataFrame) -> pd.DataFrame:
    """A curve table (:func:`genesel.leaderboard.summary.curve_table`) from the cells or from a committed table."""
    from genesel.leaderboard.summary import curve_table

    if {"size", "error", "all_genes"} <= set(data.columns):
        return data
    return curve_table(data)


def curve_styles(methods, families: dict) -> dict:
    """{method: (colour, line style, marker)}: the line style and marker by family, the colour by the method's
    place within its family (Okabe & Ito, 7 colours), so no two methods share all three; a family of more than 7
    (the multi-class board's filters) goes round the colours again with another marker (a cross, then a star)."""
    out, seen = {}, {}
    for m in methods:
        f = families.get(m, "")
        i = seen.get(f, 0)
        seen[f] = i + 1
        r = i // len(OKABE_ITO)
        out[m] = (OKABE_ITO[i % len(OKABE_ITO)], _FAMILY_LINES.get(f, "-"), _style(f)[1] if r == 0 else "X*h"[
            (r - 1) % 3])
    return out


def plot_curves(data: pd.DataFrame, title_extra: str = ""):
    """Test error against a fixed signature size (2, 4, ..., 256, all genes; the hyper-parameters chosen by the inner
    CV at that size) for every ranked method, one panel per data set; mean over the outer folds. ``data``: the cells
    (``res``) or their curve table (:func:`genesel.leaderboard.summary.curve_table`, e.g. the committed
    ``figures/leaderboard_curves.csv``). No interval is drawn: thirteen lines with bands would hide each other; the
    league tables and the Pareto figures give each method's uncertainty."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    t = _curves_from(data)
    datasets = list(dict.fromkeys(t["dataset"]))
    methods = list(dict.fromkeys(t["method"]))
    fams = {m: _family_of(None, m) for m in methods}
    order = sorted(methods, key=lambda m: (list(FAMILY_STYLE).index(fams[m]) if fams[m] in FAMILY_STYLE else 99,
                                           methods.index(m)))
    styles = curve_styles(order, fams)
    ncol, nrow = _grid(max(1, len(datasets)))
    few = len(datasets) <= 2  # one or two panels: larger, the legend on the right
    w, h = (10.0, 7.5) if few else (6.6, 5.4)
    fig, axes = plt.subplots(nrow, ncol, figsize=(w * ncol + (7.5 if few else 0), h * nrow + (1.6 if few else 3.0)),
                             squeeze=False)
    for ax, d in zip(axes.flat, datasets):
        for m in order:
            c = t[(t["dataset"] == d) & (t["method"] == m)]
            if not len(c):
                continue
            col, ls, mk = styles[m]
            ax.plot(c["size"], 100 * c["error"], ls=ls, marker=mk, ms=6, lw=2.2, color=col)
        ax.set_xscale("log", base=2)
        ax.set_ylim(bottom=0)
        ax.tick_params(labelsize=13)
        ax.set_title(dataset_title(d), fontsize=15)
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    handles = [Line2D([], [], color=styles[m][0], ls=styles[m][1], marker=styles[m][2], lw=2.6, ms=9,
                      label=f"{m} ({fams[m]})" if fams[m] else m) for m in order]
    ncols = 1 if few else min(4, len(handles))
    if few:
        fig.legend(handles=handles, loc="center right", ncol=1, fontsize=15, frameon=False, handlelength=3.5)
    else:
        fig.legend(handles=handles, loc="lower center", ncol=ncols, fontsize=16, frameon=False,
                   bbox_to_anchor=(0.5, 0.0), handlelength=3.5)
    fig.suptitle("Error against a fixed signature size (ranked methods; mean over the outer folds)" + title_extra,
                 fontsize=18 if few else 24, color=_INK)
    xlabel = "genes in the signature (log scale; last point: all genes)"
    if few:
        for ax in list(axes.flat)[:len(datasets)]:
            ax.set_xlabel(xlabel.replace(" (", "\n("), fontsize=15)
            ax.set_ylabel("test error (%)", fontsize=15)
        _few_panels_layout(fig)
    else:
        _legend_below_layout(fig, fig.supxlabel(xlabel, fontsize=19), fig.supylabel("test error (%)", fontsize=19))
    return fig


# --------------------------------------------------------------------------------------------------------------
# redrawing from the committed tables
# --------------------------------------------------------------------------------------------------------------


def redraw_committed(out_dir=None, n_boot: int | None = None, seed: int = 0, board: str = "binary") -> list:
    """Every leaderboard figure from the committed tables of the full run (module docstring), saved through
    :func:`genesel.plotting.savefig` into ``out_dir`` (default: ``figures/``); ``board="multiclass"``: the
    multi-class board's (``leaderboard_multiclass_*``; its confusion matrices need the cells, not redrawn here).
    Returns the paths written."""
    import os

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from genesel import plotting
    from genesel.leaderboard.ranking import N_BOOT, ranking_table
    from genesel.leaderboard.tables import board_stem, committed_table

    stem = board_stem(board)
    summary = pd.read_csv(committed_table(f"{stem}_results"))
    if out_dir is not None:
        os.environ["GENESEL_FIGURES_DIR"] = str(out_dir)
    plotting.setup(quick=False)
    note = " (full protocol, K classes)" if board == "multiclass" else " (full protocol)"
    rt = ranking_table(summary, n_boot=N_BOOT if n_boot is None else n_boot, seed=seed)
    figs = {f"{stem}_critical_difference": plot_critical_difference(rt["error"], note, summary),
            f"{stem}_pareto_size": plot_pareto(summary, "size", note, rt["majority"]),
            f"{stem}_pareto_stability": plot_pareto(summary, "stability", note, rt["majority"])}
    if "boot_error" in rt:  # two data sets or more: the mean ranks' bootstrap intervals
        figs[f"{stem}_mean_ranks"] = plot_mean_ranks(rt, note)
    try:
        figs[f"{stem}_error_vs_size"] = plot_curves(pd.read_csv(committed_table(f"{stem}_curves")), note)
    except FileNotFoundError:
        pass  # the committed run predates the curve table: its figure stays as the run drew it
    paths = []
    for name, fig in figs.items():
        paths.append(plotting.savefig(fig, name))
        plt.close(fig)
    return paths


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Redraw notebook 06's figures from the committed tables of its full run.")
    ap.add_argument("--out", default=None, help="folder to write the PNGs to (default: figures/)")
    ap.add_argument("--n-boot", type=int, default=None, help="bootstrap resamples of the data sets (default 10,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--board", choices=("binary", "multiclass"), default="binary")
    args = ap.parse_args(argv)
    for p in redraw_committed(args.out, args.n_boot, args.seed, args.board):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
