"""The leaderboard's summaries, tables, statistics, figures and the published numbers beside ours (notebook 06),
from the cells of :mod:`genesel.leaderboard.cells` (kept apart so that editing them never invalidates a cached
cell).

Per method and data set (:func:`summarise`): the error (mean over the repeats of each repeat's cross-validated
error) with its spread (sd over the outer folds and over the repeats), the balanced error and the AUC of the scores
pooled over each repeat's folds (Tan 2006 §3.4.2, :func:`genesel.metrics.roc_auc`), the mean signature size, the
stability of the signatures across all outer folds (Nogueira, Sechidis & Brown 2018 with its 95 % interval;
Kuncheva's index on best-first prefixes), the mean risk bound where the method has one, the CPU seconds per
outer fold, the folds whose test samples all got one class (``one_class_folds``; ``degenerate_folds``: those whose
final model predicts one class on its own training samples) and how often the smaller class is predicted against
its share of the samples (``smaller_class_predicted``, ``smaller_class_share``). Across data sets
(:func:`rank_statistics`): the ranks of the errors per data set, their means, the Friedman test
(``scipy.stats.friedmanchisquare``) and Nemenyi's post-hoc test
(``scikit_posthocs.posthoc_nemenyi_friedman``), drawn as a critical-difference diagram
(``scikit_posthocs.critical_difference_diagram``; Demšar 2006, JMLR 7:1). The .632+ estimates
(:func:`genesel.experiments.error_632plus`) stand beside Díaz-Uriarte & Alvarez de Andrés (2006)'s Table 2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from genesel.datasets import display_name, gene_symbols, load_dataset
from genesel.experiments import error_632plus
from genesel.leaderboard.catalogue import CATALOGUE, SIZES
from genesel.leaderboard.cells import DU2006_VIEWS, VIEWS, load
from genesel.metrics import roc_auc
from genesel.stability import kuncheva_prefix_index, nogueira_stability

__all__ = ["dataset_parameter", "method_parameter", "DU2006_TABLE2", "DU2006_COLUMNS", "summarise", "selects_genes", "dataset_title",
           "league_table", "warning_table", "WARNING_MEANING", "catalogue_table", "rank_statistics",
           "pareto_front", "plot_critical_difference", "plot_pareto", "plot_curves", "consensus_signature",
           "estimates_632", "du2006_table", "paper_vs_rows", "cost_table", "cost_sentence", "save_results",
           "save_summary", "runs_dir", "dataset_table", "excluded_table", "CPU_PER_FOLD_FULL", "CPU_PER_FOLD_QUICK",
           "CPU_REFERENCE", "QUICK_BUDGET", "FULL_BUDGET", "cell_cpu_seconds", "estimated_seconds",
           "stability_extremes", "size_choice_optimism", "class_balance", "cheapest_methods", "seed_comparison"]

def dataset_parameter(value, default, name="datasets", *, label=None, rows=None, classes=None) -> list:
    """The notebook's data sets: registered binary sets (names or aliases, as the other notebooks take them) and
    users' files (a path or a reference string such as ``"study.csv?label=class"``; the notebook's ``label``,
    ``rows`` and ``classes`` parameters fill in the reading options a reference does not set), in the order given
    (:func:`genesel.papers.presentation.dataset_list`)."""
    from genesel.papers.presentation import dataset_list

    return dataset_list(value, default, name, label=label, rows=rows, classes=classes)


def method_parameter(value) -> list:
    """The notebook's methods (default: the whole catalogue); unknown names refused with the list."""
    from genesel.leaderboard.catalogue import method
    from genesel.papers.presentation import as_list

    names = as_list(value, "methods", example=["SVM (all genes)"]) or list(CATALOGUE)
    return [method(n).name for n in names]


# --------------------------------------------------------------------------------------------------------------
# Díaz-Uriarte & Alvarez de Andrés 2006, Table 2 (.632+ bootstrap, B = 200), the rows of the data sets we have
# --------------------------------------------------------------------------------------------------------------

DU2006_COLUMNS = ("no info", "SVM", "KNN", "DLDA", "SC.l", "SC.s", "NN.vs", "random forest", "RF var.sel. s.e. 0",
                  "RF var.sel. s.e. 1")
DU2006_TABLE2 = {
    "alon": (0.355, 0.147, 0.152, 0.137, 0.123, 0.122, 0.158, 0.127, 0.159, 0.177),
    "golub": (0.289, 0.014, 0.029, 0.020, 0.025, 0.062, 0.056, 0.051, 0.087, 0.075),
    "singh": (0.490, 0.064, 0.100, 0.149, 0.088, 0.089, 0.081, 0.077, 0.061, 0.064),
}
#: their column -> our method (None: no counterpart here)
DU2006_COLUMN_METHODS = {"SVM": "SVM (all genes)", "KNN": "kNN (all genes)", "DLDA": None,
                  "SC.l": "shrunken centroids (SC.l)", "SC.s": "shrunken centroids (SC.s)",
                  "NN.vs": "kNN on Fisher genes", "random forest": "random forest (all genes)",
                  "RF var.sel. s.e. 0": "RF var. sel. (s.e. 0)", "RF var.sel. s.e. 1": "RF var. sel. (s.e. 1)"}
DU2006_DATA = {"alon": "Colon: the same 62 x 2000 (Alon 1999)",
               "golub": "Leukemia: theirs is Golub's 38 training samples x 3051 genes (Dudoit's filter); the "
                        "'diaz2006' view here rebuilds exactly that (38 x 3051)",
               "singh": "Prostate: theirs is 102 x 6033 genes (Singh 2002 filtered as in Dettling 2004); here all "
                        "12600 probes of the registry's copy, log-transformed (floor 10) and standardised"}


# --------------------------------------------------------------------------------------------------------------
# summaries
# --------------------------------------------------------------------------------------------------------------


def _n_genes(dataset, max_genes=None) -> int:
    return int(load(dataset, None, max_genes).X.shape[1])


def _pooled(g: pd.DataFrame, y_of) -> tuple:
    """(balanced error, AUC) of one repeat's folds pooled (each sample predicted once)."""
    idx = np.concatenate([np.asarray(t) for t in g["test_idx"]])
    pred = np.concatenate([np.asarray(p) for p in g["pred"]])
    sc = np.concatenate([np.asarray(s) for s in g["scores"]])
    y = y_of[idx]
    bal = float(np.mean([np.mean(pred[y == c] != c) for c in np.unique(y)]))
    auc = roc_auc(y, sc, pos_label=1) if np.unique(y).size == 2 else np.nan
    return bal, auc


def _class_use(g: pd.DataFrame, y_of) -> tuple:
    """(folds predicting one class, share of the smaller class in the data, share of the test predictions that are
    the smaller class) of one method's outer folds. A fold counts as predicting one class when every test sample
    gets the same class although the fold's test samples hold both (a model that says one thing whatever it sees);
    the smaller class is the one with fewer samples in the whole data set."""
    classes, counts = np.unique(y_of, return_counts=True)
    small = classes[np.argmin(counts)]
    one = sum(int(np.unique(np.asarray(p)).size == 1 and np.unique(y_of[np.asarray(t)]).size > 1)
              for p, t in zip(g["pred"], g["test_idx"]))
    pred = np.concatenate([np.asarray(p) for p in g["pred"]])
    return one, float(counts.min() / counts.sum()), float(np.mean(pred == small)) if pred.size else np.nan


def selects_genes(method: str) -> bool:
    """Whether ``method`` chooses a signature: a ranked or staged method, or a model whose entry reads its genes
    (``signature``). An all-genes baseline uses whatever genes the preprocessing keeps in each training part (on
    Leukemia, the 6,792 or so of 7,129 that pass its filter): those vary from fold to fold without any method
    choosing them, so such a method has no stability and no consensus signature. A name outside the catalogue is
    taken to select."""
    m = CATALOGUE.get(method)
    return m is None or m.kind != "model" or m.signature is not None


def _stability(signatures, d):
    sets = [list(s) for s in signatures]
    sizes = np.array([len(s) for s in sets])
    if len(sets) < 2 or np.all(sizes >= d) or np.all(sizes == 0):
        return np.nan, np.nan, np.nan, np.nan
    st = nogueira_stability([set(s) for s in sets], n_features=d)
    return st.estimate, st.lower, st.upper, kuncheva_prefix_index(sets, d)


def summarise(res: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method) of the cross-validation cells (module docstring for the columns)."""
    rows = []
    for (d, m), g in res.groupby(["dataset", "method"], sort=False):
        mg = g["max_genes"].iloc[0] if "max_genes" in g else None
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) else int(mg)
        task = load(d, None, mg)
        n_genes = task.X.shape[1]
        per = [(r, gg) for r, gg in g.groupby("repeat")]
        rep_err = [gg["errors"].sum() / gg["n_test"].sum() for _, gg in per]
        pooled = [_pooled(gg, task.y) for _, gg in per]
        fold_err = g["errors"] / g["n_test"]
        phi, lo, hi, ki = _stability(g["genes"], n_genes) if selects_genes(m) else (np.nan,) * 4
        b = g["bound"].dropna() if "bound" in g else pd.Series(dtype=float)
        one_class, small_share, small_pred = _class_use(g, task.y)
        rows.append(dict(
            dataset=d, method=m, family=CATALOGUE[m].family if m in CATALOGUE else "", n_samples=int(task.y.size),
            n_genes=n_genes, n_repeats=len(per), n_folds=int(len(g)),
            error=float(np.mean(rep_err)), error_sd_folds=float(fold_err.std(ddof=1)) if len(g) > 1 else np.nan,
            error_sd_repeats=float(np.std(rep_err, ddof=1)) if len(per) > 1 else np.nan,
            errors_per_repeat=float(np.mean([gg["errors"].sum() for _, gg in per])),
            errors_per_repeat_sd=float(np.std([gg["errors"].sum() for _, gg in per], ddof=1)) if len(per) > 1
            else np.nan,
            balanced_error=float(np.mean([p[0] for p in pooled])), auc=float(np.nanmean([p[1] for p in pooled])),
            size=float(g["size"].mean()), size_sd=float(g["size"].std(ddof=1)) if len(g) > 1 else np.nan,
            stability=phi, stability_lo=lo, stability_hi=hi, kuncheva=ki,
            bound=float(b.mean()) if len(b) else np.nan,
            cpu_per_fold=float(g["cpu_seconds"].mean()), degenerate_folds=int(g["degenerate_final"].sum()),
            one_class_folds=one_class, smaller_class_share=small_share, smaller_class_predicted=small_pred))
    return pd.DataFrame(rows)


def _num(x, digits: int = 2) -> str:
    """``x`` to ``digits`` decimals, never a negative zero ("-0.00" for -0.001 reads as a sign that is not there)."""
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def _fmt(mean, sd=None, scale=100.0, digits=1):
    if mean is None or not np.isfinite(mean):
        return "–"
    s = f"{mean * scale:.{digits}f}"
    return s + (f" ± {sd * scale:.{digits}f}" if sd is not None and np.isfinite(sd) else "")


def league_table(summary: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """The league table of one data set: methods by increasing error (ties by size), with every column of the
    summary in readable units (errors and balanced errors in %, sd over the outer folds)."""
    g = summary[summary["dataset"] == dataset].sort_values(["error", "size", "method"], kind="stable")
    out = pd.DataFrame({
        "rank": g["error"].rank(method="min").astype(int).to_numpy(),
        "method": g["method"].to_numpy(),
        "error % (± sd over folds)": [_fmt(a, b) for a, b in zip(g["error"], g["error_sd_folds"])],
        "balanced error %": [_fmt(a) for a in g["balanced_error"]],
        "AUC": g["auc"].round(3).to_numpy(),
        "genes (mean ± sd)": [f"{a:.1f} ± {b:.1f}" if np.isfinite(b) else f"{a:.1f}" for a, b in
                              zip(g["size"], g["size_sd"])],
        "stability Φ [95 % CI]": ["–" if not np.isfinite(p) else f"{_num(p)} [{_num(lo)}, {_num(hi)}]"
                                  for p, lo, hi in zip(g["stability"], g["stability_lo"], g["stability_hi"])],
        "Kuncheva": ["–" if not np.isfinite(k) else _num(k) for k in g["kuncheva"]],
        "risk bound": ["–" if not np.isfinite(b) else f"{b:.2f}" for b in g["bound"]],
        "CPU s / fold": g["cpu_per_fold"].round(2).to_numpy(),
    })
    if (g["one_class_folds"].to_numpy() > 0).any():
        out["folds predicting one class"] = g["one_class_folds"].to_numpy()
    return out.set_index("method")


#: What each warning category raised inside the cells means for the numbers.
WARNING_MEANING = {
    "ConvergenceWarning": "a solver or optimiser stopped at its iteration limit (GP evidence, SMO, SMLR sweeps): that "
                          "fit is unfinished",
    "DegenerateModelWarning": "a fit ended (nearly) useless: one class for every training sample, all weights zero, "
                              "a flat GP",
    "RuntimeWarning": "numpy met an invalid value or an overflow (e.g. at an optimiser's trial point)",
}


def warning_table(res: pd.DataFrame) -> pd.DataFrame:
    """The warnings raised inside the cells, per method and category: in how many outer folds and how often (mean per
    fold), on which data sets, and what the category means. "final fit" is the model refitted on the outer training
    part with its ranker or selector (the internal fits of a selector count: GP-ARD-RFE's GP-ARD fits, SVM-RFE's
    SVMs); "inner CV" is every candidate of every inner fold, where a DegenerateModelWarning at the end of a grid (a
    C so small that the SVM fits one class) is expected and that candidate loses the inner CV. A method absent here
    raised none."""
    rows = []
    every = set(res["dataset"].astype(str)) if len(res) else set()
    for m, g in res.groupby("method", sort=False):
        for where, col in (("final fit", "final_warnings"), ("inner CV", "inner_warnings")):
            if col not in g:
                continue
            counts = [w if isinstance(w, dict) else {} for w in g[col]]
            for cat in sorted(set().union(*counts)):
                n = np.array([w.get(cat, 0) for w in counts])
                where_sets = set(g.loc[n > 0, "dataset"].astype(str))
                rows.append({"method": m, "where": where, "warning": cat,
                             "outer folds": f"{int(np.sum(n > 0))} of {n.size}", "share": float(np.mean(n > 0)),
                             "per fold (mean)": round(float(n.mean()), 1),
                             "data sets": f"all {len(every)}" if where_sets == every and len(every) > 1 else
                             ", ".join(sorted(dataset_title(d) for d in where_sets)),
                             "meaning": WARNING_MEANING.get(cat, "")})
    if not rows:
        return pd.DataFrame(columns=["method", "where", "warning", "outer folds", "per fold (mean)", "data sets",
                                     "meaning"])
    out = pd.DataFrame(rows).sort_values(["where", "share", "method"], ascending=[True, False, True], kind="stable")
    return out.drop(columns="share").set_index(["method", "where", "warning"])


def catalogue_table(methods=None, quick: bool = False) -> pd.DataFrame:
    """The catalogue as run: kind, paper, source, the grid the inner CV searched, bound, notes."""
    rows = []
    for name in methods or list(CATALOGUE):
        m = CATALOGUE[name]
        grid = {**m.ranker_grid, **(m.quick_grid if quick and m.quick_grid else m.grid)}
        if quick and not m.quick_grid:
            grid = {k: (v if len(v) <= 2 else (v[0], v[-1])) for k, v in grid.items()}
        parts = [f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in grid.items() if len(v) > 1]
        if m.kind == "ranked":
            parts.append("genes ∈ {" + ", ".join(map(str, SIZES)) + ", all}")
        if m.kind == "staged":
            parts.append(f"{m.stage_param} ∈ {{{', '.join(map(str, m.stage_list(quick)))}}}")
        rows.append({"method": name, "kind": m.kind, "paper": m.paper, "from": m.source,
                     "chosen by inner CV": "; ".join(parts) or "nothing (no hyper-parameter)",
                     "risk bound": "yes" if m.has_bound else "", "note": m.note})
    return pd.DataFrame(rows).set_index("method")


# --------------------------------------------------------------------------------------------------------------
# ranks, Friedman, Nemenyi
# --------------------------------------------------------------------------------------------------------------


def rank_statistics(summary: pd.DataFrame, res: pd.DataFrame) -> dict:
    """Ranks of the methods' errors (1 = best, ties averaged) in blocks, their means, the Friedman test and the
    Nemenyi p-values. Blocks are the data sets when there are at least two (Demšar 2006); with one data set (quick
    mode) the outer folds of that data set, which are not independent: an illustration only (``blocks`` says
    which)."""
    from scipy.stats import friedmanchisquare
    import scikit_posthocs as sp

    datasets = list(dict.fromkeys(summary["dataset"]))
    if len(datasets) >= 2:
        M = summary.pivot(index="dataset", columns="method", values="error").loc[datasets].dropna(axis=1)
        blocks = f"{len(datasets)} data sets"
    else:
        r = res.assign(rate=res["errors"] / res["n_test"])
        M = r.pivot_table(index=["repeat", "fold"], columns="method", values="rate").dropna(axis=1)
        blocks = f"the {len(M)} outer folds of {dataset_title(datasets[0])} (not independent: an illustration)"
    ranks = M.rank(axis=1, method="average")
    out = {"blocks": blocks, "n_blocks": int(len(M)), "errors": M, "ranks": ranks,
           "mean_ranks": ranks.mean().sort_values()}
    if M.shape[1] >= 3 and M.shape[0] >= 2:
        stat, p = friedmanchisquare(*[M[c].to_numpy() for c in M.columns])
        out.update(friedman_statistic=float(stat), friedman_p=float(p),
                   nemenyi=sp.posthoc_nemenyi_friedman(M.to_numpy()).set_axis(M.columns, axis=0).set_axis(
                       M.columns, axis=1))
    return out


def plot_critical_difference(stats: dict, title_extra: str = ""):
    """Mean ranks on one axis, methods joined by a bar where Nemenyi's test finds no difference at 5 %
    (``scikit_posthocs.critical_difference_diagram``)."""
    import matplotlib.pyplot as plt
    import scikit_posthocs as sp

    n = len(stats["mean_ranks"])
    fig, ax = plt.subplots(figsize=(16, 0.42 * n + 2.5))
    if "nemenyi" in stats:
        sp.critical_difference_diagram(stats["mean_ranks"], stats["nemenyi"], ax=ax,
                                       label_props={"fontsize": 12}, label_fmt_left="{label} ({rank:.1f})",
                                       label_fmt_right="({rank:.1f}) {label}")
        p = stats["friedman_p"]
        ax.set_title(f"Mean rank of the error (1 = best) over {stats['blocks']}; Friedman p = {p:.2g}; bars join "
                     "methods Nemenyi cannot tell apart (5 %)" + title_extra, fontsize=13)
    else:
        ax.text(0.5, 0.5, "fewer than 3 methods or 2 blocks: no Friedman test", ha="center", transform=ax.transAxes)
        ax.set_title("Mean ranks" + title_extra)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------------------------
# Pareto fronts and curves
# --------------------------------------------------------------------------------------------------------------


def pareto_front(cost, error) -> np.ndarray:
    """Mask of the points no other point beats in both (smaller ``cost`` and smaller ``error``, one strictly)."""
    c, e = np.asarray(cost, float), np.asarray(error, float)
    out = np.ones(c.size, dtype=bool)
    for i in range(c.size):
        dom = (c <= c[i]) & (e <= e[i]) & ((c < c[i]) | (e < e[i]))
        out[i] = not dom.any()
    return out


_FAMILY_STYLE = {"filter": ("#1f77b4", "o"), "wrapper": ("#d62728", "s"), "embedded": ("#2ca02c", "D"),
                 "stumps": ("#ff7f0e", "^"), "ensemble": ("#9467bd", "v"), "baseline": ("#7f7f7f", "P")}


def dataset_title(dataset) -> str:
    """A data set's title in the leaderboard's tables and figures: the registry's (:func:`genesel.datasets.
    display_name`); a user's file: its reading name or file name."""
    return display_name(dataset)


def _grid(n):
    ncol = min(4, n)
    return ncol, int(np.ceil(n / ncol))


def _leave_room_for_title(fig, inches: float = 0.7):
    """tight_layout below the figure's title: a fixed strip at the top (a fraction of the height would be too small
    on a 20-panel figure and its first row's titles would run into the figure's)."""
    fig.tight_layout(rect=(0, 0, 1, 1 - inches / fig.get_figheight()))


def plot_pareto(summary: pd.DataFrame, against: str = "size", title_extra: str = ""):
    """Error against signature size (log scale) or against stability (Nogueira's Φ, higher is better), one
    panel per data set; the Pareto front (no method both smaller/more stable and more accurate) is joined and its
    methods named. Error bars: sd of the error over the outer folds (vertical) and, against stability, Nogueira's
    95 % interval (horizontal). The all-genes baselines have no stability (:func:`selects_genes`) and appear only
    against size."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    datasets = list(dict.fromkeys(summary["dataset"]))
    ncol, nrow = _grid(len(datasets))
    fig, axes = plt.subplots(nrow, ncol, figsize=(7.5 * ncol, 6.2 * nrow), squeeze=False)
    for ax, d in zip(axes.flat, datasets):
        g = summary[summary["dataset"] == d]
        if against == "stability":
            g = g[np.isfinite(g["stability"])]
            x, cost = g["stability"].to_numpy(), -g["stability"].to_numpy()
        else:
            x = cost = g["size"].to_numpy()
        e = 100 * g["error"].to_numpy()
        # stability: Nogueira's 95 % interval as the horizontal bar
        xerr = (np.vstack([x - g["stability_lo"].to_numpy(), g["stability_hi"].to_numpy() - x])
                if against == "stability" else None)
        for fam, (col, mk) in _FAMILY_STYLE.items():
            k = (g["family"] == fam).to_numpy()
            if not k.any():
                continue
            ax.errorbar(x[k], e[k], yerr=100 * np.nan_to_num(g["error_sd_folds"].to_numpy()[k]),
                        xerr=None if xerr is None else np.nan_to_num(xerr[:, k]), fmt=mk, color=col, ms=9, alpha=0.85,
                        capsize=2, lw=1)
        front = pareto_front(cost, e)
        o = np.argsort(x[front])
        ax.plot(x[front][o], e[front][o], "-", color="black", lw=1.5, zorder=0)
        for j, (xi, ei, name) in enumerate(sorted(zip(x[front], e[front], g["method"].to_numpy()[front]))):
            ax.annotate(name, (xi, ei), textcoords="offset points", xytext=(6, 6 + 14 * (j % 3)), fontsize=10)
        if against == "stability":
            ax.set_xlabel("stability of the signatures (Nogueira's Φ; 1 = identical)")
        else:
            ax.set_xscale("log")
            ax.set_xlabel("genes in the signature (mean over outer folds, log scale)")
        ax.set_ylabel("cross-validated error (%)")
        ax.set_title(dataset_title(d))
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    shown = set(summary["family"]) if against != "stability" else set(
        summary.loc[np.isfinite(summary["stability"]), "family"])
    handles = [Line2D([], [], marker=mk, color=col, ls="", ms=10, label=fam) for fam, (col, mk) in
               _FAMILY_STYLE.items() if fam in shown] + [Line2D([], [], color="black", lw=1.5,
                                                                label="Pareto front (named)")]
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, title="family")
    what = "stability" if against == "stability" else "signature size"
    fig.suptitle(f"Error against {what}: the Pareto front of the methods" + title_extra, fontsize=16)
    _leave_room_for_title(fig)
    return fig


def plot_curves(res: pd.DataFrame, title_extra: str = ""):
    """Test error against a fixed signature size (2, 4, ..., 256, all genes; the hyper-parameters chosen by the
    inner CV at that size) for every ranked method, one panel per data set; mean over the outer folds."""
    import matplotlib.pyplot as plt

    r = res[res["curve_sizes"].notna()] if "curve_sizes" in res else res.iloc[:0]
    datasets = list(dict.fromkeys(r["dataset"]))
    ncol, nrow = _grid(max(1, len(datasets)))
    fig, axes = plt.subplots(nrow, ncol, figsize=(7.5 * ncol, 6.0 * nrow), squeeze=False)
    methods = list(dict.fromkeys(r["method"]))
    cmap = plt.get_cmap("tab20")
    for ax, d in zip(axes.flat, datasets):
        for i, m in enumerate(methods):
            g = r[(r["dataset"] == d) & (r["method"] == m)]
            if not len(g):
                continue
            # the last size is every gene the fold's preprocessing kept, which can differ from fold to fold
            # (Leukemia's filter): one point at their mean, not one per fold
            recs = [(s if s < kept else -1, e / n) for ss, ee, n, kept in
                    zip(g["curve_sizes"], g["curve_errors"], g["n_test"], g["n_genes_kept"]) for s, e in zip(ss, ee)]
            t = pd.DataFrame(recs, columns=["size", "rate"]).groupby("size")["rate"].mean()
            t = t.rename(index={-1: float(g["n_genes_kept"].mean())}).sort_index()
            # tab20 pairs a dark and a light shade of each hue: the light one is dashed with its own marker, so
            # that neighbours stay apart on a projector
            ax.plot(t.index, 100 * t.to_numpy(), "-" if i % 2 == 0 else "--", marker="osD^vPX*"[(i // 2) % 8],
                    ms=5, lw=1.8, color=cmap(i % 20), label=m)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("genes in the signature (log scale; last point: all genes)")
        ax.set_ylabel("test error (%)")
        ax.set_title(dataset_title(d))
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=12)
    fig.suptitle("Error against a fixed signature size (ranked methods)" + title_extra, fontsize=16)
    _leave_room_for_title(fig)
    return fig


# --------------------------------------------------------------------------------------------------------------
# consensus signatures
# --------------------------------------------------------------------------------------------------------------


def _symbols_of(dataset, task) -> np.ndarray:
    """Gene symbols of the task's genes (matched by gene ID in the full data set; '' where none is known)."""
    full = load_dataset(dataset)
    by_id = dict(zip(np.asarray(full.gene_ids).astype(str), gene_symbols(full)))
    return np.asarray([by_id.get(str(g), "") for g in task.gene_ids], dtype=object)


def consensus_signature(res: pd.DataFrame, summary: pd.DataFrame, dataset: str, n_methods: int = 3,
                        top: int = 10) -> pd.DataFrame:
    """For the ``n_methods`` most accurate methods on ``dataset`` that select genes (fewer than all), the ``top``
    genes by selection frequency over the outer folds: probe ID, symbol and frequency."""
    g = summary[(summary["dataset"] == dataset) & (summary["size"] < summary["n_genes"])
                & summary["method"].map(selects_genes)]
    lead = g.sort_values(["error", "size"], kind="stable")["method"].head(n_methods).tolist()
    rows = []
    for m in lead:
        r = res[(res["dataset"] == dataset) & (res["method"] == m)]
        mg = r["max_genes"].iloc[0] if "max_genes" in r else None
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) else int(mg)
        task = load(dataset, None, mg)
        sym = _symbols_of(dataset, task)
        counts = pd.Series([x for s in r["genes"] for x in s]).value_counts()
        counts = counts.sort_values(ascending=False, kind="stable").head(top)
        for gi, c in counts.items():
            rows.append({"method": m, "probe": str(task.gene_ids[int(gi)]), "symbol": sym[int(gi)] or "–",
                         "selected in": f"{c} of {len(r)} folds", "frequency": round(c / len(r), 2)})
    return pd.DataFrame(rows).set_index(["method", "probe"]) if rows else pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------------------
# the .632+ bootstrap and the published numbers
# --------------------------------------------------------------------------------------------------------------


def estimates_632(boot: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method) of the bootstrap cells: the .632+ error and its parts."""
    rows = []
    for (d, m), g in boot.groupby(["dataset", "method"], sort=False):
        view = g["view"].iloc[0] if "view" in g else None
        view = None if view is None or (isinstance(view, float) and np.isnan(view)) else view
        mg = g["max_genes"].iloc[0]
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) or view else int(mg)
        y = load(d, view, mg).y
        app = g[g["boot"] < 0].iloc[0]
        ap = np.empty(y.size, dtype=np.int64)
        ap[np.asarray(app["test_idx"])] = np.asarray(app["pred"])
        oob = [(np.asarray(r["test_idx"]), np.asarray(r["pred"])) for _, r in g[g["boot"] >= 0].iterrows()]
        est = error_632plus(y, ap, oob)
        rows.append(dict(dataset=d, method=m, view=view, n_boot=len(oob), error_632plus=est.error,
                         apparent=est.apparent, loo_bootstrap=est.loo_bootstrap, no_information=est.no_information,
                         size=float(g.loc[g["boot"] >= 0, "size"].mean()),
                         no_info_majority=float(min(np.mean(y > 0), np.mean(y < 0)))))
    return pd.DataFrame(rows)


def du2006_table(est: pd.DataFrame) -> pd.DataFrame:
    """Díaz-Uriarte & Alvarez de Andrés 2006, Table 2 beside our .632+ estimates, one row per data set and
    column of theirs; a data set their table does not have (a user's file, another registered set) gets our
    estimates with '–' as the paper's value."""
    rows = []
    for d in dict.fromkeys(est["dataset"]):
        e = est[est["dataset"] == d].set_index("method")
        published = DU2006_TABLE2.get(d, ("–",) * len(DU2006_COLUMNS))
        for col, paper in zip(DU2006_COLUMNS, published):
            if col == "no info":
                ours = e["no_info_majority"].iloc[0]
                meth = "(always the larger class)"
            else:
                meth = DU2006_COLUMN_METHODS[col]
                ours = e.loc[meth, "error_632plus"] if meth in e.index else np.nan
            rows.append({"data set": dataset_title(d), "their column": col, "genesel method": meth or "no counterpart",
                         "paper": paper, "genesel": round(float(ours), 3) if np.isfinite(ours) else "–"})
    return pd.DataFrame(rows).set_index(["data set", "their column"]) if rows else pd.DataFrame(rows)


def _shah_rows(summary, proto, n_folds):
    from genesel.papers.shah2012 import PAPER_DATASETS, paper_table1, paper_table2

    t1, t2 = paper_table1().set_index("dataset"), paper_table2().set_index("dataset")
    ours = {"SVM": ("SVM (all genes)", t1, "SVM"), "SVM+rfe": ("SVM-RFE (halving) + SVM", t1, "SVM+rfe"),
            "AdaBoost": ("AdaBoost stumps", t1, "AdaBoost"), "Occam": ("Occam stumps", t2, "Occam"),
            "SC": ("SC stumps", t2, "SC"), "PAC-Bayes": ("PAC-Bayes stumps", t2, "PAC-Bayes B-errs")}
    rows = []
    for name, d in PAPER_DATASETS.items():
        s = summary[summary["dataset"] == d].set_index("method")
        if not len(s) or name not in t1.index:
            continue
        for col, (m, table, key) in ours.items():
            if m in s.index and name in table.index:
                r = s.loc[m]
                rows.append(dict(quantity=f"{name}: {col} errors per {n_folds}-fold CV (of {int(r['n_samples'])})",
                                 protocol=proto, paper=f"{table.loc[name, key]} (Shah 2012 Table "
                                 f"{1 if table is t1 else 2}, 20 x 5-fold, nested)",
                                 genesel=_fmt(r["errors_per_repeat"], r["errors_per_repeat_sd"], 1.0),
                                 note="different grids; Lung is a substitute data set" if d == "garber" else
                                 "our grids and preprocessing; see 'what differs'"))
    return rows


def _tan_rows(summary, proto):
    from genesel.papers.tan2006_ch45 import PAPER

    ours = {"All genes": "SVM (all genes)", "SVM-RFE": "SVM-RFE (1 gene/step) + SVM", "RVM": "RVM selector + SVM",
            "SMLR": "SMLR selector + SVM", "MSVM-RFE": "MSVM-RFE + SVM", "GP-ARD-FS": "GP-ARD-FS + GP",
            "GP-ARD-RFE": "GP-ARD-RFE + GP"}
    rows = []
    for (name, col), (acc, errs) in PAPER["table5_6"].items():
        d = {"Colon": "alon", "Leukemia": "golub"}[name]
        s = summary[summary["dataset"] == d].set_index("method")
        m = ours.get(col)
        if m is None or m not in s.index:
            continue
        rows.append(dict(quantity=f"{name}: {col} error %", protocol=proto,
                         paper=f"{100 - acc:.1f} ({errs} errors; Tan 2006 Table 5.6, one 10-fold CV)",
                         genesel=_fmt(s.loc[m, "error"], s.loc[m, "error_sd_repeats"]),
                         note="thesis: 10-fold, C fixed, size by LOO forward selection"))
    return rows


def paper_vs_rows(summary: pd.DataFrame, est632: pd.DataFrame | None, n_repeats: int, n_folds: int,
                  n_boot: int | None) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: Díaz-Uriarte & Alvarez de Andrés 2006 Table 2
    (.632+), and the two of the five papers that printed errors of the same methods on the same data under a
    protocol with selection inside the folds: Shah 2012 Tables 1-2 (nested 5-fold CV) and Tan 2006 Table 5.6."""
    rows = []
    if est632 is not None and len(est632):
        for _, r in du2006_table(est632).reset_index().iterrows():
            if r["paper"] == "–":  # not in their table
                continue
            rows.append(dict(quantity=f"{r['data set']}: {r['their column']} (.632+ error)",
                             protocol=f".632+ bootstrap, B = 200 (here B = {n_boot})", paper=r["paper"],
                             genesel=r["genesel"], note=r["genesel method"]))
    proto = f"{n_repeats} x {n_folds}-fold CV, everything chosen by inner CV"
    rows = rows + _shah_rows(summary, proto, n_folds) + _tan_rows(summary, proto)
    if not rows:
        names = ", ".join(dataset_title(d) for d in dict.fromkeys(summary["dataset"]))
        rows = [dict(quantity=f"{names}: any error", protocol=proto, paper="–", genesel="see the league tables",
                     note="no data set of this run is in Díaz-Uriarte 2006 Table 2, Shah 2012 Tables 1-2 or Tan 2006 "
                          "Table 5.6 with these methods: nothing published to compare")]
    return rows


# --------------------------------------------------------------------------------------------------------------
# cost, data, output
# --------------------------------------------------------------------------------------------------------------


def cost_table(summary: pd.DataFrame) -> pd.DataFrame:
    """CPU seconds per outer fold, per method (rows, most expensive first) and data set."""
    t = summary.pivot(index="method", columns="dataset", values="cpu_per_fold")
    t = t.loc[t.mean(axis=1).sort_values(ascending=False).index]
    return t.round(2).rename(columns=dataset_title)


def cost_sentence(res: pd.DataFrame, wall: float, n_jobs: int = 1, boot: pd.DataFrame | None = None) -> str:
    """The run's cost in words: the cells' own CPU seconds (cross-validation and, given, the .632+ cells), the three
    most expensive methods, and the wall time: this session's, and the cells' own wall seconds over ``n_jobs``
    workers, i.e. the run as if uninterrupted (a resumed run's session serves most cells from the cache)."""
    cols = ["method", "cpu_seconds", "wall_seconds"]
    cells = pd.concat([res[cols], boot[cols]]) if boot is not None and len(boot) else res[cols]
    top = cells.groupby("method")["cpu_seconds"].sum().sort_values(ascending=False)
    share = 100 * top / top.sum()
    three = "; ".join(f"{m} {s:.0f} CPU s ({p:.0f} %)" for (m, s), p in zip(top.head(3).items(), share.head(3)))
    k = max(1, int(n_jobs))
    whole = cells["wall_seconds"].sum() / k
    return (f"{cells['cpu_seconds'].sum():.0f} CPU s over {len(cells)} cells (the cells' own CPU times); the three "
            f"most expensive methods: {three}. As one uninterrupted run on {k} worker(s): about {whole:.0f} s wall "
            f"(the cells' own wall seconds / {k}); this session's wall time: {wall:.0f} s (0 for cached cells).")


def dataset_table(datasets, max_genes=None) -> pd.DataFrame:
    rows = []
    for d in datasets:
        t = load(d, None, max_genes)
        counts = {c: int(np.sum(t.y == (1 if k else -1))) for k, c in enumerate(t.classes)}
        rows.append({"data set": dataset_title(d), "name": display_name(d, fallback="name"), "samples": int(t.y.size),
                     "genes used": int(t.X.shape[1]),
                     "classes (-1 / +1)": " / ".join(f"{c} ({n})" for c, n in counts.items())})
    return pd.DataFrame(rows).set_index("data set")


def excluded_table() -> pd.DataFrame:
    from genesel.leaderboard.cells import excluded_sets

    return pd.DataFrame([{"data set": k, "left out because": v} for k, v in excluded_sets().items()]
                        ).set_index("data set")


def runs_dir(mode: str, parameters: dict) -> Path:
    """Where this run's tidy tables go: ``runs/<mode>/leaderboard/`` for the default parameters (every value None,
    ``rows`` "auto"), else a folder named by a digest of the parameters (``$GENESEL_RUNS_DIR`` replaces ``runs/``)."""
    import hashlib

    env = os.environ.get("GENESEL_RUNS_DIR")
    root = Path(env) if env else Path(__file__).resolve().parents[3] / "runs"
    if not env and not (root.parent / "pyproject.toml").exists():
        root = Path.cwd() / "runs"
    given = {k: v for k, v in parameters.items() if v is not None and not (k == "rows" and v == "auto")}
    tag = "leaderboard" if not given else "leaderboard-" + hashlib.sha256(
        json.dumps(given, sort_keys=True, default=str).encode()).hexdigest()[:10]
    return root / mode / tag


def _write_csv(df: pd.DataFrame, path: Path) -> Path:
    from genesel.experiments import atomic_write

    lists = [c for c in df.columns if df[c].map(lambda v: isinstance(v, (list, dict, tuple))).any()]
    out = df.copy()
    for c in lists:
        out[c] = out[c].map(lambda v: json.dumps(v) if isinstance(v, (list, dict, tuple)) else v)
    return atomic_write(path, lambda tmp: out.to_csv(tmp, index=False))


def save_results(res: pd.DataFrame, folder: Path, name: str = "folds.csv") -> Path:
    """The tidy results (one row per method x data set x outer fold, list columns such as the selected genes
    as JSON), written atomically."""
    return _write_csv(res, Path(folder) / name)


def save_summary(summary: pd.DataFrame, quick: bool) -> Path:
    """The one-row-per-method-and-data-set table beside the figures: ``leaderboard_results.csv`` in ``figures/``
    (full mode) or the quick run's figure folder."""
    from genesel import plotting

    return _write_csv(summary, plotting.figures_dir(quick) / "leaderboard_results.csv")


def views_note() -> str:
    return "; ".join(f"{k}: {v}" for k, v in VIEWS.items()) + ". Data sets of their Table 2 here: " + "; ".join(
        DU2006_DATA[d] for d in DU2006_VIEWS)


# --------------------------------------------------------------------------------------------------------------
# the run's cost, estimated from its parameters before it runs
# --------------------------------------------------------------------------------------------------------------

#: CPU seconds of one outer fold of every method (its inner CV over the grid, the final fit and the test
#: predictions; one BLAS thread): the full grids with 5 inner folds on Golub's leukemia, 72 x 7129
#: (:data:`CPU_REFERENCE` ``["full"]``), the mean over the 50 outer folds of the full run's own Leukemia cells
#: (``benchmarks/bench_leaderboard.py --from-cache runs/cache``). One fold timed on its own, as this table was before,
#: can be far off: kNN on Fisher genes measured 6.5 s then, 0.36 s over the 50 folds. The three stump learners
#: since fit their grids at once (catalogue.SharedGrid) and PAC-Bayes prunes with its width-class bound: their
#: entries are the 50-fold means of the run's Leukemia cells recomputed with that code (PAC-Bayes 0.97 s, Occam
#: 0.63, SC 0.27, AdaBoost 1.01); in quick mode, the one-fold ratios (PAC-Bayes 2.34 -> 1.05 s, Occam 1.23 -> 0.59,
#: SC 0.62 -> 0.52) scale the old means, and the shared greedy also runs the settings quick mode leaves out, so it
#: costs about twice what it did. One fold computed in-process (``run_grid(n_jobs=1)``) can cost far more than in the
#: grid's workers for scikit-learn's kNN: its distance kernels use OpenMP threads, which only the workers limit to one.
#: The RBF SVM tunes gamma beside C since (12 settings instead of 4): its entry is the 50-fold mean of the run's
#: Leukemia cells with that grid (0.32 -> 0.62 s).
CPU_PER_FOLD_FULL = {
    "GP-ARD-RFE + GP": 7.25,
    "MSVM-RFE + SVM": 6.64,
    "PAC-Bayes stumps": 0.97,
    "SVM-RFE (1 gene/step) + SVM": 3.07,
    "ALMA_ln-RFE": 2.3,
    "random forest (all genes)": 1.82,
    "GP-ARD-FS + GP": 1.33,
    "Occam stumps": 0.63,
    "SMLR (all genes)": 1.23,
    "SMLR selector + SVM": 1.12,
    "ALMA_ln-CORR": 1.09,
    "AdaBoost stumps": 1.01,
    "SVM-RFE (halving) + SVM": 0.929,
    "Wilcoxon + SVM": 0.893,
    "ALMA-FS": 0.807,
    "RBF SVM (all genes)": 0.619,
    "ALMA_2-RFE": 0.61,
    "RVM selector + SVM": 0.489,
    "Fisher + SVM": 0.481,
    "l2-AROM + SVM": 0.475,
    "t-test + SVM": 0.471,
    "SC stumps": 0.27,
    "ALMA_2-CORR": 0.44,
    "RF var. sel. (s.e. 1)": 0.373,
    "RF var. sel. (s.e. 0)": 0.369,
    "kNN on Fisher genes": 0.357,
    "L1 logistic regression": 0.341,
    "shrunken centroids (SC.s)": 0.297,
    "shrunken centroids (SC.l)": 0.294,
    "SVM (all genes)": 0.291,
    "DWD (all genes)": 0.283,
    "S2N + weighted voting": 0.227,
    "kNN (all genes)": 0.157,
    "GP (all genes)": 0.109,
    "RVM (all genes)": 0.0273,
}
#: The same with the quick grids, 3 inner folds on Colon's 300 most variable genes, 62 x 300 (the cells' own CPU
#: times in the cost table of notebook 06's quick run).
CPU_PER_FOLD_QUICK = {
    "GP-ARD-RFE + GP": 0.703,
    "SMLR (all genes)": 0.304,
    "SVM-RFE (1 gene/step) + SVM": 0.302,
    "GP-ARD-FS + GP": 0.237,
    "kNN on Fisher genes": 0.151,
    "random forest (all genes)": 0.137,
    "SVM-RFE (halving) + SVM": 0.129,
    "ALMA_ln-RFE": 0.112,
    "PAC-Bayes stumps": 0.22,
    "MSVM-RFE + SVM": 0.11,
    "ALMA_2-RFE": 0.0953,
    "ALMA_ln-CORR": 0.0916,
    "l2-AROM + SVM": 0.0742,
    "ALMA_2-CORR": 0.072,
    "t-test + SVM": 0.0686,
    "DWD (all genes)": 0.0683,
    "Fisher + SVM": 0.0681,
    "Wilcoxon + SVM": 0.0637,
    "RVM selector + SVM": 0.0577,
    "SMLR selector + SVM": 0.142,
    "S2N + weighted voting": 0.0575,
    "Occam stumps": 0.157,
    "ALMA-FS": 0.0407,
    "SC stumps": 0.073,
    "shrunken centroids (SC.l)": 0.0335,
    "shrunken centroids (SC.s)": 0.0332,
    "kNN (all genes)": 0.0239,
    "AdaBoost stumps": 0.0227,
    "RBF SVM (all genes)": 0.0209,
    "GP (all genes)": 0.0203,
    "L1 logistic regression": 0.0202,
    "SVM (all genes)": 0.0198,
    "RVM (all genes)": 0.0194,
    "RF var. sel. (s.e. 0)": 0.0171,
    "RF var. sel. (s.e. 1)": 0.017,
}
#: The data and inner folds each table was measured on: (samples, genes, inner folds).
CPU_REFERENCE = {"full": (72, 7129, 5), "quick": (62, 300, 3)}
#: Time budgets of notebook 06 on 2 cores (seconds): quick mode, full mode. The full run: 16 CPU hours (8 h on 2
#: cores) by :func:`estimated_seconds` (Leukemia's costs scaled by samples x genes); on the way, with Colon, Leukemia
#: and part of Prostate done, :mod:`genesel.leaderboard.status` put the rest at 23-37 CPU h (scaled by samples x genes
#: or samples² x genes from each method's own measured cells: the SVMs and GPs grow faster than linearly in the
#: samples). It was 68 CPU h with Díaz-Uriarte's elimination on scikit-learn's forests, 25 with genesel's forest.
QUICK_BUDGET, FULL_BUDGET = 180.0, 14 * 3600.0
#: Fixed costs of a run (kernel, imports, loading the data sets, numba's cached kernels), seconds.
_OVERHEAD = 25.0


def cell_cpu_seconds(method: str, n_samples: int, n_genes: int, inner_k: int, quick: bool) -> float:
    """Estimated CPU seconds of one outer fold (or one bootstrap sample) of ``method`` on an ``n_samples`` x
    ``n_genes`` data set: the measured seconds of its mode's table (:data:`CPU_PER_FOLD_FULL` or
    :data:`CPU_PER_FOLD_QUICK`) scaled by samples x genes and by the number of fits an outer fold makes (inner folds
    + 1) relative to the measurement. A rough model, as the benchmark's: some methods grow faster than linearly in
    the samples (the GP-ARD selectors, the SVMs' dual), none much slower."""
    table = CPU_PER_FOLD_QUICK if quick else CPU_PER_FOLD_FULL
    n0, g0, k0 = CPU_REFERENCE["quick" if quick else "full"]
    base = table.get(method, float(np.median(list(table.values()))))
    return base * (n_samples * n_genes) / (n0 * g0) * (int(inner_k) + 1) / (k0 + 1)


def estimated_seconds(datasets, methods, *, quick: bool, n_repeats: int, n_folds: int, inner_k: int, max_genes,
                      n_boot: int, boot_datasets, n_jobs: int = 2) -> tuple[float, str]:
    """(seconds on 2 cores, what dominates) of notebook 06 with these parameters, before anything runs: every
    cross-validation cell and every .632+ cell the notebook will run (:func:`cell_cpu_seconds` each), over the
    workers (at most the machine's 2 cores), plus fixed costs."""
    from genesel.leaderboard.cells import DU2006_METHODS

    per_method, cv = {}, 0.0
    for d in datasets:
        n, g = load(d, None, max_genes).X.shape
        for m in methods:
            s = cell_cpu_seconds(m, n, g, inner_k, quick) * int(n_repeats) * int(n_folds)
            per_method[m] = per_method.get(m, 0.0) + s
            cv += s
    boot = 0.0
    for d in boot_datasets:
        view = DU2006_VIEWS.get(d)
        n, g = load(d, view, None if view else max_genes).X.shape
        for m in DU2006_METHODS:
            s = cell_cpu_seconds(m, n, g, inner_k, quick) * (int(n_boot) + 1)
            per_method[m] = per_method.get(m, 0.0) + s
            boot += s
    total = cv + boot
    parallel = max(1, min(int(n_jobs), 2))
    top = sorted(per_method.items(), key=lambda kv: -kv[1])[:2]
    from genesel.papers.presentation import format_seconds

    what = (f"{len(datasets)} data set(s) x {len(methods)} method(s) x {int(n_repeats) * int(n_folds)} outer folds: "
            f"{format_seconds(cv)} CPU; .632+: {format_seconds(boot)} CPU; most of it "
            + " and ".join(f"{m} ({100 * s / total:.0f} %)" for m, s in top if total > 0))
    return _OVERHEAD + total / parallel, what


# --------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# --------------------------------------------------------------------------------------------------------------


def _stab_text(r) -> str:
    return f"Φ = {_num(r['stability'])} [{_num(r['stability_lo'])}, {_num(r['stability_hi'])}]"


def stability_extremes(summary: pd.DataFrame):
    """Exercise 1: per data set, the gene-selecting methods (signatures smaller than all genes, Φ defined) by
    stability with Nogueira's 95 % interval, and a sentence per data set on whether the most and the least stable
    method's intervals overlap."""
    from IPython.display import Markdown

    g = summary[np.isfinite(summary["stability"]) & (summary["size"] < summary["n_genes"])]
    g = g.sort_values(["dataset", "stability"], ascending=[True, False], kind="stable")
    table = pd.DataFrame({"data set": g["dataset"].map(dataset_title).to_numpy(), "method": g["method"].to_numpy(),
                          "stability Φ [95 % CI]": [_stab_text(r) for _, r in g.iterrows()],
                          "genes (mean)": g["size"].round(1).to_numpy(),
                          "error %": (100 * g["error"]).round(1).to_numpy()}).set_index(["data set", "method"])
    lines = []
    for d, gd in g.groupby("dataset", sort=False):
        if len(gd) < 2:
            lines.append(f"**{dataset_title(d)}**: only {gd['method'].iloc[0]} selects genes in this run; nothing to compare.")
            continue
        hi, lo = gd.iloc[0], gd.iloc[-1]
        apart = hi["stability_lo"] > lo["stability_hi"]
        lines.append(
            f"**{dataset_title(d)}**: the most stable, {hi['method']} ({_stab_text(hi)}), and the least stable, "
            f"{lo['method']} ({_stab_text(lo)}): "
            + ("the intervals do not overlap, so the difference is larger than the uncertainty of the estimates."
               if apart else "the intervals overlap: with this many outer folds the data cannot tell them apart.")
            + (f" With Φ below 0.5, one signature of {lo['method']} shares few genes with the next fold's: read its "
               "genes as one draw among many, not as *the* markers." if lo["stability"] < 0.5 else
               " Every method here keeps most of its genes from fold to fold."))
    return table, Markdown("\n\n".join(lines))


def size_choice_optimism(res: pd.DataFrame, summary: pd.DataFrame):
    """Exercise 2: for every ranked method (the ones with an error-against-size curve), the nested CV's error (size
    chosen by the inner CV on each training part) beside the best point of the curve (the size with the smallest
    mean test error, chosen by looking at the test folds), and the gap between them in percentage points."""
    from IPython.display import Markdown

    r = res[res["curve_sizes"].notna()] if "curve_sizes" in res else res.iloc[:0]
    rows = []
    for (d, m), g in r.groupby(["dataset", "method"], sort=False):
        recs = [(s, e / n) for ss, ee, n in zip(g["curve_sizes"], g["curve_errors"], g["n_test"])
                for s, e in zip(ss, ee)]
        curve = pd.DataFrame(recs, columns=["size", "rate"]).groupby("size")["rate"].mean()
        best = curve.idxmin()
        s = summary[(summary["dataset"] == d) & (summary["method"] == m)].iloc[0]
        rows.append({"data set": dataset_title(d), "method": m, "nested CV error %": round(100 * s["error"], 1),
                     "genes chosen (mean)": round(float(s["size"]), 1),
                     "best fixed size": "all" if best >= s["n_genes"] else str(int(best)),
                     "its error %": round(100 * float(curve.min()), 1),
                     "optimism (points)": round(100 * (s["error"] - float(curve.min())), 1) + 0.0})
    if not rows:
        return pd.DataFrame(), Markdown("No ranked method ran, so there is no error-against-size curve to compare.")
    t = pd.DataFrame(rows).set_index(["data set", "method"])
    gap = t["optimism (points)"]
    text = (f"Over {len(t)} method x data set pairs, the best point of the curve is {gap.mean():.1f} percentage "
            f"points below the nested CV's error on average (largest gap: {gap.max():.1f}, for "
            f"{gap.idxmax()[1]} on {gap.idxmax()[0]}). The best point is chosen by looking at the test folds, so it "
            "is an optimistic estimate of the error one would get on new samples; the nested CV pays for choosing "
            "the size without them.")
    if (gap < 0).any():
        text += (f" In {int((gap < 0).sum())} pair(s) the nested CV is *better* than every fixed size: each outer "
                 "fold may choose a different size, and no single size suits every fold.")
    return t, Markdown(text)


def class_balance(summary: pd.DataFrame, max_share: float = 0.4, lean: float = 0.05):
    """Exercise 4: on the data sets whose smaller class is under ``max_share`` of the samples, each method's share
    of test predictions in the smaller class beside the class's share of the samples ("lean": the difference), with
    its error and balanced error; and a sentence on the methods that lean by more than ``lean`` on average, towards
    the smaller class or the larger one, and why."""
    from IPython.display import Markdown

    g = summary[summary["smaller_class_share"] < max_share].copy()
    if g.empty:
        return pd.DataFrame(), Markdown(f"No data set of this run has a class under {100 * max_share:.0f} % of its "
                                        "samples, so no method can lean towards one.")
    g["lean"] = g["smaller_class_predicted"] - g["smaller_class_share"]
    g = g.sort_values(["dataset", "lean"], ascending=[True, False], kind="stable")
    table = pd.DataFrame({
        "data set": g["dataset"].map(dataset_title).to_numpy(), "method": g["method"].to_numpy(),
        "smaller class: share of samples %": (100 * g["smaller_class_share"]).round(1).to_numpy(),
        "its share of predictions %": (100 * g["smaller_class_predicted"]).round(1).to_numpy(),
        "lean (points)": (100 * g["lean"]).round(1).to_numpy() + 0.0,
        "error %": (100 * g["error"]).round(1).to_numpy(),
        "balanced error %": (100 * g["balanced_error"]).round(1).to_numpy()}).set_index(["data set", "method"])
    sets = g.drop_duplicates("dataset")
    per = g.groupby("method", sort=False).agg(lean=("lean", "mean"), error=("error", "mean"),
                                              balanced=("balanced_error", "mean")).sort_values("lean")

    def named(rows):
        return "; ".join(f"{m} ({100 * r['lean']:+.1f} points; error {100 * r['error']:.1f} % against balanced "
                         f"error {100 * r['balanced']:.1f} %)" for m, r in rows.iterrows())

    small, large = per[per["lean"] > lean].iloc[::-1], per[per["lean"] < -lean]
    text = [(f"{len(sets)} data sets of this run have" if len(sets) > 1 else "One data set of this run has")
            + f" a smaller class under {100 * max_share:.0f} % of the samples ("
            + ", ".join(f"{dataset_title(d)} {100 * v:.0f} %" for d, v in zip(sets["dataset"],
                                                                                sets["smaller_class_share"])) + ")."]
    text.append(f"Leaning towards the smaller class by more than {100 * lean:.0f} points on average: "
                + (named(small) if len(small) else "no method") + ". Towards the larger class: "
                + (named(large) if len(large) else "no method") + ".")
    text.append("The error weighs each class by its share p, the balanced error by one half: the error minus the "
                "balanced error is (p_large - 1/2)(e_large - e_small), e the error rates within each class. A rule "
                "that gives the smaller class more than its share of the predictions tends to err on the larger "
                "class, and then its error is above its balanced error. One that leans the other way errs on the few "
                "samples of the smaller class: a small error, a larger balanced error, and at the extreme every "
                "sample given the larger class (the league tables' column *folds predicting one class*). On "
                "unbalanced data read both errors.")
    if any(m in CATALOGUE and CATALOGUE[m].paper == "Gentile 2003" for m in small.index):
        text.append("The ALMA methods have no bias: their hyperplanes pass through the origin (Gentile 2003; genesel "
                    "keeps the paper's form). The genes are centred on the training part, so along any direction w "
                    "the boundary is the projection of the mean of all training samples, which lies at the smaller "
                    "class's share of the way from the larger class's mean to the smaller's: the smaller class gets "
                    "more than its share of the space.")
    return table, Markdown("\n\n".join(text))


def cheapest_methods(summary: pd.DataFrame, k: int = 4) -> list:
    """The ``k`` methods of the run with the smallest CPU time per outer fold (summed over its data sets)."""
    return summary.groupby("method", sort=False)["cpu_per_fold"].sum().sort_values(kind="stable").index[:k].tolist()


def seed_comparison(summary: pd.DataFrame, other: pd.DataFrame, seeds: tuple):
    """Exercise 3: the errors and ranks of the methods of ``other`` (the same grid run with another seed) beside
    this run's, per data set, and a sentence on how far they moved."""
    from IPython.display import Markdown

    a, b = f"seed {seeds[0]}", f"seed {seeds[1]}"
    parts = {}
    for label, s in ((a, summary), (b, other)):
        s = s[s["method"].isin(other["method"])].copy()
        s["rank"] = s.groupby("dataset")["error"].rank(method="min").astype(int)
        s["error"] = (100 * s["error"]).round(1) + 0.0
        s["data set"] = s["dataset"].map(dataset_title)
        parts[label] = s.set_index(["data set", "method"])[["error", "rank"]].rename(columns={"error": "error %"})
    t = pd.concat(parts, axis=1)
    moved = (t[(a, "error %")] - t[(b, "error %")]).abs()
    changed = int((t[(a, "rank")] != t[(b, "rank")]).sum())
    text = (f"Another seed draws other outer folds (and other inner folds and estimator seeds): the errors of these "
            f"{len(t)} method x data set pairs move by {moved.mean():.1f} percentage points on average (at most "
            f"{moved.max():.1f}), and {changed} of {len(t)} ranks change. Differences between methods smaller than "
            "this are noise, whatever the league table's order; the full protocol averages 10 repeats for that "
            "reason.")
    return t, Markdown(text)
