"""Gentile (2003): the summaries, tables and figures of notebook 02, from the cells of
:mod:`genesel.papers.gentile2003` (kept apart so that editing a table or a figure never invalidates a cached cell).

C. Gentile, *Fast Feature Selection from Microarray Expression Data via Multiplicative Large Margin Algorithms*,
NIPS 16, 2003: Table 1 (test errors at the best alpha per cell) beside the paper's readable entries, Wilcoxon
signed-rank tests on shared splits (the paper's caption), the genes ALMA-FS selects (footnote 5), its running time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

from genesel.experiments.tables import format_range
from genesel.papers.gentile2003 import TABLE1_ALGORITHMS, paper_name

__all__ = ["check_splits", "ALGORITHM_NAMES", "ROW_ORDER", "PAPER_TIMES", "table1_best_alpha", "table1_wilcoxon",
           "gene_selection_frequency", "protocol_table", "table1_caption", "table1_side_by_side", "wilcoxon_readable",
           "multiplicative_summary", "gene_frequencies", "frequency_title", "frequency_table", "fs_times",
           "times_table", "paper_vs_rows", "table1_figure", "gene_frequency_figure", "annotation_lines",
           "estimated_seconds", "QUICK_BUDGET", "FULL_BUDGET", "splits_comparison", "alpha_optimism", "fs_gene_count"]

#: Time budgets of notebook 02 on 2 cores (seconds): quick mode, full mode (its full run: 57 min).
QUICK_BUDGET, FULL_BUDGET = 60.0, 3600.0


def check_splits(protocol: pd.DataFrame, seed: int = 0) -> None:
    """Table 1's random splits (:func:`genesel.papers.gentile2003.notebook_protocol`: the paper's training sizes,
    80 % of the samples for another data set) draw the training part without regard to the classes, and each split's
    gene scores (the signal-to-noise ranking, ALMA's feature selection) need a spread, so 2 samples, of each class
    there. A data set with a split that holds fewer (a user's small study: 9 against 3 gives such a split in about 1
    draw of 20) is refused here, before anything runs, naming it, the split and the class, rather than by a score
    deep in the grid. Predefined splits (Leukemia's) are the data set's own and not drawn."""
    from genesel.experiments import random_splits
    from genesel.papers.common import load_task
    from genesel.papers.presentation import short_training_part

    for r in protocol.itertuples():
        if pd.isna(r.n_train):
            continue
        ds = load_task(r.dataset)
        splits = random_splits(ds.y, int(r.n_train), int(r.n_splits), seed, groups=ds.groups)
        short = short_training_part(ds, [(i, tr) for i, (tr, _) in enumerate(splits)])
        if short is not None:
            i, cls, k, n = short
            raise ValueError(
                f"{r.paper_name}: split {i + 1} of {int(r.n_splits)} (drawn at random as the paper's: "
                f"{len(splits[i][0])} of {len(ds.y)} samples for training, seed {seed}) holds {k} sample of class "
                f"{str(cls)!r} ({n} in all) in its training part, and the gene scores need a spread: 2 samples of "
                "each class. Use more samples of that class, or the leaderboard (06), whose folds are stratified "
                "and leave out classes too small for them")


# ----------------------------------------------------------------------------------------------------------------
# Summaries of a Table 1 grid (used by notebooks/02_gentile2003_alma.ipynb)
# ----------------------------------------------------------------------------------------------------------------


def table1_best_alpha(res):
    """Best alpha per (dataset, genes, algorithm), as in the paper: the alpha with the lowest mean test error.

    ``res``: the tidy frame of :func:`table1_cell` rows (columns dataset, split, alpha, algorithm, genes, error,
    n_genes, ...). Returns one row per (dataset, genes, algorithm) with ``alpha`` (best), ``error`` (mean, in
    percent), ``sd`` (percent), ``n_genes`` (mean) and ``n_splits``. Ties go to the smaller alpha.
    """
    g = res.groupby(["dataset", "genes", "algorithm", "alpha"], sort=True)
    agg = g.agg(error=("error", "mean"), sd=("error", "std"), n_genes=("n_genes", "mean"),
                n_splits=("error", "size")).reset_index()
    agg["error"] *= 100.0
    agg["sd"] *= 100.0
    best = agg.sort_values(["dataset", "genes", "algorithm", "error", "alpha"]).groupby(
        ["dataset", "genes", "algorithm"], sort=False).head(1)
    return pd.DataFrame(best).reset_index(drop=True)


def table1_wilcoxon(res, best, pairs=(("ln-RFE", "2-RFE"), ("ln-CORR", "2-CORR"), ("FS", "ln-RFE"),
                                      ("FS", "2-RFE"), ("ln-RFE", "ln-CORR"))):
    """Wilcoxon signed-rank tests between algorithms on the same splits (each at its best alpha, from ``best``).

    For FS the comparison row is its own gene count ("FS"), where the others were run with FS's count on the same
    split. Returns dataset, genes, a, b, mean error difference a - b (percent), n_splits, and the two-sided p-value
    of ``scipy.stats.wilcoxon`` (``zero_method="zsplit"``; p = 1 when all differences are zero).
    """
    key = best.set_index(["dataset", "genes", "algorithm"])["alpha"]
    idx = res.set_index(["dataset", "genes", "algorithm", "alpha"]).sort_index()
    out = []
    for (d, genes), _ in best.groupby(["dataset", "genes"]):
        for a, b in pairs:
            if (d, genes, a) not in key.index or (d, genes, b) not in key.index:
                continue
            ra = idx.loc[(d, genes, a, key[d, genes, a])].set_index("split")["error"]
            rb = idx.loc[(d, genes, b, key[d, genes, b])].set_index("split")["error"]
            common = ra.index.intersection(rb.index)
            diff = (ra[common] - rb[common]).to_numpy()
            if diff.size == 0:
                continue
            if np.all(diff == 0):
                pval = 1.0
            else:
                pval = float(wilcoxon(diff, zero_method="zsplit").pvalue)
            out.append(dict(dataset=d, genes=genes, a=a, b=b, diff=100.0 * diff.mean(), n_splits=int(diff.size),
                            p_value=pval))
    return pd.DataFrame(out)


def gene_selection_frequency(res, dataset, gene_ids=None, top=10):
    """How often each gene is selected by ALMA-FS over the runs of ``dataset`` (the paper's footnote 5).

    Returns the ``top`` genes: column index, gene id (if given), count and fraction of the ALMA-FS runs.
    """
    fs = res[(res["dataset"] == dataset) & (res["algorithm"] == "FS")]
    counts: dict[int, int] = {}
    for sel in fs["selected"]:
        for j in sel:
            counts[int(j)] = counts.get(int(j), 0) + 1
    n = max(len(fs), 1)
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return pd.DataFrame([dict(gene=j, gene_id=(str(gene_ids[j]) if gene_ids is not None else str(j)), count=c,
                              fraction=c / n) for j, c in items])


# ----------------------------------------------------------------------------------------------------------------
# Readable tables
# ----------------------------------------------------------------------------------------------------------------

#: The algorithms of Table 1 spelled out (the paper's column codes are kept beside them).
ALGORITHM_NAMES = {
    "2-RFE": "ALMA_2-RFE (additive, halving)",
    "2-CORR": "ALMA_2-CORR (Golub filter + additive)",
    "ln-RFE": "ALMA_ln-RFE (multiplicative, halving)",
    "FS": "ALMA-FS (picks its own gene count)",
    "ln-CORR": "ALMA_ln-CORR (Golub filter + multiplicative)",
}

#: Row order of Table 1 (gene counts in numeric order, then all genes, then ALMA-FS's own count).
ROW_ORDER = ("20", "40", "60", "100", "200", "all", "FS")

def table1_side_by_side(best: pd.DataFrame, paper: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """Table 1 for one data set as a reader wants it: one row per gene count (numeric order, then "all", then
    ALMA-FS's own count), one column per algorithm (spelled out), each cell "ours (paper)" in percent; "—" where
    the paper has no entry, "garbled" where the text cannot be read."""
    b = best[best["dataset"] == dataset].set_index(["genes", "algorithm"])
    p = paper[paper["dataset"] == paper_name(dataset)].set_index(["genes", "algorithm"]) if len(paper) else None
    fs_genes = b.loc[("FS", "FS"), "n_genes"] if ("FS", "FS") in b.index else np.nan
    rows = []
    for g in ROW_ORDER:
        label = {"all": "all genes", "FS": f"ALMA-FS's own count (mean {fs_genes:.1f})"}.get(g, f"{g} genes")
        row = {"genes": label}
        for alg in TABLE1_ALGORITHMS:
            ours = f"{b.loc[(g, alg), 'error']:.1f}" if (g, alg) in b.index else "—"
            if p is None or (g, alg) not in p.index:
                theirs = ""
            elif p.loc[(g, alg), "status"] == "garbled":
                theirs = " (paper: garbled)"
            elif np.isnan(p.loc[(g, alg), "paper_error"]):
                theirs = " (paper: —)"
            else:
                theirs = f" (paper {p.loc[(g, alg), 'paper_error']:.1f})"
            row[ALGORITHM_NAMES[alg]] = ours + theirs
        rows.append(row)
    return pd.DataFrame(rows)


def wilcoxon_readable(wil: pd.DataFrame, min_splits: int = 10, datasets=None) -> dict:
    """The Wilcoxon tests as one small table per comparison (algorithms spelled out): rows are data sets, columns
    gene counts in order, each cell "mean error difference a − b in points (p-value)", with * when p < 0.05.
    p-values from fewer than ``min_splits`` paired splits are not shown (a signed-rank test on two pairs can only
    give 0.5 or 1). Rows follow ``datasets`` (genesel names) when given. Returns {title: table}."""
    out = {}
    cols = [g for g in ROW_ORDER if g in set(wil["genes"])]
    for (a, b), grp in wil.groupby(["a", "b"], sort=False):
        table = {}
        for _, r in grp.iterrows():
            cell = f"{round(r['diff'], 2) + 0.0:+.2f}"  # + 0.0: no "-0.00"
            if r["n_splits"] >= min_splits:
                cell += f" (p = {r['p_value']:.2g}{'*' if r['p_value'] < 0.05 else ''})"
            table.setdefault(paper_name(r["dataset"]), {})[r["genes"]] = cell
        df = pd.DataFrame(table).T.reindex(columns=cols).fillna("")
        if datasets is not None:
            df = df.reindex([paper_name(d) for d in datasets if paper_name(d) in df.index])
        df.columns = [{"all": "all genes", "FS": "ALMA-FS's count"}.get(c, f"{c} genes") for c in df.columns]
        df.index.name = "data set"
        out[f"{ALGORITHM_NAMES[a]} minus {ALGORITHM_NAMES[b]}"] = df
    return out


def with_realised_sizes(protocol: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """``protocol`` for display, with the test sizes that the splits actually have. On a data set whose samples are
    grouped (``Dataset.groups``: a patient's paired tissues), a split draws whole groups, so its training part can
    hold a few samples fewer than ``n_train`` (:func:`genesel.experiments.random_splits`) and its test part more:
    ``n_test`` becomes the realised size ("6", or a range such as "5–7" when the splits differ) and
    ``test_predictions`` their total. Other data sets are unchanged. The splits are drawn as the cells draw them
    (same seed, same split numbers), which costs milliseconds."""
    from genesel.experiments import random_splits
    from genesel.papers.common import load_task

    out = protocol.copy().astype({"n_test": object})
    for i, r in out.iterrows():
        ds = load_task(r.dataset)
        if ds.groups is None or pd.isna(r.n_train):
            continue
        sizes = [te.size for _, te in random_splits(ds.y, int(r.n_train), int(r.n_splits), seed, groups=ds.groups)]
        out.at[i, "n_test"] = format_range(sizes, "{:.0f}")
        out.at[i, "test_predictions"] = int(np.sum(sizes))
    return out


def protocol_table(protocol: pd.DataFrame) -> pd.DataFrame:
    """The protocol of the run (:func:`genesel.papers.gentile2003.notebook_protocol`) as a reader wants it."""
    from genesel.dataref import is_file_reference
    from genesel.papers.presentation import tidy

    training = protocol.n_train.map(lambda n: "38 (Golub's split), order permuted" if pd.isna(n)
                                    else f"{int(n)} random")
    name = protocol.dataset.map(lambda d: "a file of your own" if is_file_reference(d) else d)
    return tidy(protocol.assign(training=training, dataset=name)
                [["paper_name", "dataset", "training", "n_test", "n_splits", "test_predictions", "cycles"]]
                .rename(columns={"paper_name": "data set", "dataset": "genesel name",
                                 "n_test": "test samples per split", "n_splits": "splits",
                                 "test_predictions": "test predictions in all"}))


def table1_caption(r, alphas) -> str:
    """The caption of one data set's Table 1 (``r``: a row of the protocol)."""
    return (f"**{r.paper_name}** — {r.n_splits} splits × {r.n_test} test samples = {r.test_predictions} test "
            f"predictions per cell, α ∈ {alphas}, {r.cycles} cycles")


def multiplicative_summary(wil: pd.DataFrame) -> str:
    """The paper's claim that the multiplicative ALMA_ln beats the additive ALMA_2, counted over the Wilcoxon tests
    of :func:`table1_wilcoxon` (same filter and gene count; significance only with at least 10 paired splits)."""
    mult = wil[wil["a"].str.startswith("ln") & wil["b"].str.startswith("2") & (wil["genes"] != "all")]
    tested = mult[mult["n_splits"] >= 10]
    n_better = int((mult["diff"] < 0).sum())
    better = int(((tested["diff"] < 0) & (tested["p_value"] < 0.05)).sum())
    worse = int(((tested["diff"] > 0) & (tested["p_value"] < 0.05)).sum())
    return (f"multiplicative (ln) better than additive (2) in {n_better} of {len(mult)} (data set, gene count, "
            f"filter) cells; " + (f"significantly better in {better}, significantly worse in {worse} of the "
            f"{len(tested)} cells with at least 10 paired splits" if len(tested) else
            "no cell has the 10 paired splits a significance test needs (more splits: -p n_splits 10)"))


def gene_frequencies(res: pd.DataFrame, protocol: pd.DataFrame, top: int = 10) -> dict:
    """{paper name: the ``top`` genes ALMA-FS selects most often on that data set, labelled}."""
    from genesel.datasets import gene_labels
    from genesel.papers.common import load_task

    return {r.paper_name: gene_selection_frequency(res, r.dataset, gene_ids=gene_labels(load_task(r.dataset)),
                                                   top=top).rename(columns={"gene_id": "label"})
            for r in protocol.itertuples()}


def frequency_title(res: pd.DataFrame) -> str:
    """The title of :func:`gene_frequency_figure`, with the number of ALMA-FS runs per data set."""
    runs = res[res.algorithm == "FS"].groupby("dataset").size()
    return "Gentile 2003: genes ALMA-FS selects most often " + (
        f"({runs.min()} ALMA-FS runs per data set)" if runs.min() == runs.max()
        else f"({runs.min()}–{runs.max()} ALMA-FS runs per data set)")


def frequency_table(freq: dict) -> pd.DataFrame:
    """:func:`gene_frequencies` as one table: data set, rank, gene, percentage of the runs selecting it."""
    from genesel.papers.presentation import tidy

    return tidy(pd.concat(freq, names=["data set", "i"]).reset_index()
                .assign(rank=lambda d: d.i + 1, **{"runs selecting it (%)": lambda d: (100 * d.fraction).round(1)})
                [["data set", "rank", "label", "runs selecting it (%)"]]
                .rename(columns={"label": "gene"}))


#: What the paper says of ALMA-FS's running time (AMD Athlon, 1.3 GHz).
PAPER_TIMES = {"Colon": "a few seconds", "Breast": "a few seconds (Gruvberger's set)", "Prostate": "a few minutes"}


def fs_times(res: pd.DataFrame, protocol: pd.DataFrame) -> pd.DataFrame:
    """Per data set: mean and largest wall seconds of an ALMA-FS run, its stages and genes kept, the runs, the
    cycles, and the paper's statement."""
    fs = res[res["algorithm"] == "FS"]
    times = (fs.groupby("dataset").agg(seconds_per_run=("fs_seconds", "mean"), max_seconds=("fs_seconds", "max"),
                                       stages=("fs_stages", "mean"), genes=("n_genes", "mean"),
                                       runs=("fs_seconds", "size"))
             .join(protocol.set_index("dataset")[["paper_name", "cycles"]]))
    times["paper"] = times["paper_name"].map(PAPER_TIMES).fillna("—")
    return times


def times_table(times: pd.DataFrame) -> pd.DataFrame:
    """:func:`fs_times` as a reader wants it."""
    from genesel.papers.presentation import tidy

    return tidy(times.reset_index(drop=True)[["paper_name", "cycles", "runs", "seconds_per_run", "max_seconds",
                                              "stages", "genes", "paper"]]
                .rename(columns={"paper_name": "data set", "seconds_per_run": "mean seconds per run",
                                 "max_seconds": "slowest run (s)", "stages": "mean stages", "genes": "mean genes kept"})
                .round(3))


def paper_vs_rows(protocol, best, paper, alphas, multiplicative: str, times) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: ALMA-FS's error and gene count and ALMA_ln / ALMA_2 on
    all genes per data set, the multiplicative-vs-additive claim (``multiplicative``: :func:`multiplicative_summary`)
    and the running times."""
    rows = []
    for r in protocol.itertuples():
        name, ds = r.paper_name, r.dataset
        proto = f"{r.n_splits} splits × {r.n_test} test, best α of {alphas}, {r.cycles} cycles"
        pf = paper[(paper["dataset"] == name) & (paper["genes"] == "FS") & (paper["algorithm"] == "FS")]
        of = best[(best["dataset"] == ds) & (best["genes"] == "FS") & (best["algorithm"] == "FS")].iloc[0]
        if len(pf):
            pf = pf.iloc[0]
            pv = (f"{pf.paper_error:.1f} % ({pf.paper_fs_genes} genes)" if not np.isnan(pf.paper_error)
                  else f"garbled ({pf.paper_fs_genes} genes)")
        else:
            pv = "not in the paper"
        rows.append(dict(quantity=f"{name}: ALMA-FS test error (mean genes kept)", protocol=proto, paper=pv,
                         genesel=f"{of.error:.1f} % ({of.n_genes:.1f} genes), α = {of.alpha}",
                         note=pf.status if len(paper[paper.dataset == name]) else ""))
        for alg, label in (("ln-CORR", "ALMA_ln"), ("2-RFE", "ALMA_2")):
            pa = paper[(paper["dataset"] == name) & (paper["genes"] == "all") & (paper["algorithm"] == alg)]
            oa = best[(best["dataset"] == ds) & (best["genes"] == "all") & (best["algorithm"] == alg)].iloc[0]
            rows.append(dict(quantity=f"{name}: all genes, {label}", protocol=proto,
                             paper=(f"{pa.iloc[0].paper_error:.1f} %" if len(pa) else "not in the paper"),
                             genesel=f"{oa.error:.1f} %", note=(pa.iloc[0].status if len(pa) else "")))
    rows.append(dict(quantity="multiplicative (ln) better than additive (2), same filter and gene count",
                     protocol="Wilcoxon signed-rank on shared splits", paper="'generally outperforms'",
                     genesel=multiplicative))
    for name, txt in (("Colon", "a few seconds"), ("Breast", "a few seconds"), ("Prostate", "a few minutes")):
        t = times[times.paper_name == name]
        if len(t):
            rows.append(dict(quantity=f"{name}: time per ALMA-FS run", protocol="1.3 GHz Athlon vs this machine",
                             paper=txt, genesel=f"{t.seconds_per_run.iloc[0]:.2f} s ({int(t.cycles.iloc[0])} cycles)"))
    return rows


# ----------------------------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------------------------


def _errors_with_spread(res: pd.DataFrame, best: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard error (over splits) of the test error at each cell's best alpha, in percent."""
    key = best.set_index(["dataset", "genes", "algorithm"])["alpha"]
    sub = res.set_index(["dataset", "genes", "algorithm"])
    sub = sub[sub["alpha"].to_numpy() == key.reindex(sub.index).to_numpy()].reset_index()
    g = sub.groupby(["dataset", "genes", "algorithm"])["error"]
    out = pd.DataFrame({"error": 100 * g.mean(), "se": 100 * g.std(ddof=1) / np.sqrt(g.size()),
                        "n": g.size()}).reset_index()
    return out


def table1_figure(res: pd.DataFrame, best: pd.DataFrame, paper: pd.DataFrame, protocol: pd.DataFrame):
    """Table 1 as a figure: one panel per data set (gene count on the x axis, one marker per algorithm, error bars
    = one standard error over the splits), the paper's readable values as open markers, the legend in its own
    panel. Titles and captions come from ``protocol`` (the splits and cycles that actually ran)."""
    import matplotlib.pyplot as plt

    stats = _errors_with_spread(res, best)
    names = list(protocol["dataset"])
    ncol = 3
    nrow = -(-(len(names) + 1) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(16, 4.6 * nrow + 0.8), squeeze=False)
    colors = dict(zip(TABLE1_ALGORITHMS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    markers = dict(zip(TABLE1_ALGORITHMS, "osD^v"))
    xs = {g: i for i, g in enumerate(ROW_ORDER)}
    for ax, (_, pr) in zip(axes.ravel(), protocol.iterrows()):
        ds = pr["dataset"]
        st = stats[stats["dataset"] == ds]
        pp = paper[paper["dataset"] == paper_name(ds)] if len(paper) else paper
        for k, alg in enumerate(TABLE1_ALGORITHMS):
            s = st[st["algorithm"] == alg]
            x = np.array([xs[g] for g in s["genes"]]) + (k - 2) * 0.13
            ax.errorbar(x, s["error"], yerr=s["se"], fmt=markers[alg], color=colors[alg], ms=8, capsize=3, lw=1.5,
                        label=ALGORITHM_NAMES[alg])
            q = pp[(pp["algorithm"] == alg) & pp["paper_error"].notna()] if len(pp) else pp
            if len(q):
                xq = np.array([xs[g] for g in q["genes"]]) + (k - 2) * 0.13
                ax.plot(xq, q["paper_error"], markers[alg], mfc="none", mec=colors[alg], ms=13, mew=2,
                        label=f"{ALGORITHM_NAMES[alg]}: paper")
        n_fs = best[(best["dataset"] == ds) & (best["genes"] == "FS") & (best["algorithm"] == "FS")]["n_genes"]
        labels = [f"FS\n({n_fs.iloc[0]:.0f})" if g == "FS" and len(n_fs) else g for g in ROW_ORDER]
        ax.set_xticks(range(len(ROW_ORDER)), labels)
        ax.set_xlabel("number of genes")
        ax.set_ylabel("test error (%)")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{paper_name(ds)}: {pr['n_splits']} splits x {pr['n_test']} test")
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    handles, labs = axes.ravel()[0].get_legend_handles_labels()
    ours = [(h, l) for h, l in zip(handles, labs) if not l.endswith(": paper")]
    legend_ax = axes.ravel()[len(names)] if len(names) < nrow * ncol else None
    from matplotlib.lines import Line2D

    extra = [Line2D([], [], marker="o", ls="", mfc="none", mec="k", ms=12, mew=2, label="open marker: the paper")]
    target = legend_ax if legend_ax is not None else fig
    target.legend([h for h, _ in ours] + extra, [l for _, l in ours] + [extra[0].get_label()], loc="center",
                  fontsize=13, frameon=False, title="filled: genesel (mean ± 1 s.e.)")
    cyc = sorted(set(protocol["cycles"]))
    fig.suptitle(f"Gentile 2003, Table 1: test error at the best alpha per cell, mean ± 1 s.e. over splits "
                 f"({', '.join(map(str, cyc))} cycles)")
    fig.tight_layout()
    return fig


def gene_frequency_figure(freqs: dict, title: str):
    """Horizontal bars of the genes ALMA-FS selects most often, one panel per data set (``freqs``: data set ->
    frame with ``label`` and ``fraction``)."""
    import matplotlib.pyplot as plt

    n = len(freqs)
    ncol = min(3, n)
    nrow = -(-n // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(16, 4.8 * nrow + 0.6), squeeze=False)
    for ax, (name, f) in zip(axes.ravel(), freqs.items()):
        ax.barh(range(len(f))[::-1], 100 * f["fraction"], color="C0")
        ax.set_yticks(range(len(f))[::-1], f["label"], fontsize=12)
        ax.set_xlim(0, 100)
        ax.set_xlabel("ALMA-FS runs selecting the gene (%)")
        ax.set_title(name)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def annotation_lines(protocol) -> list:
    """Where each data set's gene names come from (Markdown strings), prefixed by the paper's name of the data set
    where it has one (never the same name twice)."""
    from genesel.datasets import annotation_note
    from genesel.papers.common import load_task

    out = []
    for r in protocol.itertuples():
        ds = load_task(r.dataset)
        note = annotation_note(ds)
        out.append(note if r.paper_name == ds.name else f"{r.paper_name}: {note}")
    return out


# ----------------------------------------------------------------------------------------------------------------
# what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------

#: CPU seconds of one Table 1 cell (all five algorithms on one split at one alpha) per training sample x gene at
#: 10 cycles, measured on this project's machine (0.02-0.24 s per cell on the five data sets); sweeps stop once a
#: sweep makes no update, so the cost grows with the cycles much more slowly than linearly (measured: x1.3-2.4 from
#: 10 to 50-100 cycles). `benchmarks/bench_cost_estimates.py` compares the estimates with measured runs.
_CELL_RATE, _CYCLE_EXPONENT = 2.2e-7, 0.35
_OVERHEAD, _PER_DATASET = 25.0, 3.0  # kernel, imports, worker start and compilation; loading each data set


def estimated_seconds(protocol, alphas, *, n_jobs=2) -> tuple[float, str]:
    """(seconds, what it is) of notebook 02's grid for this protocol and these alphas, before it runs."""
    from genesel.papers.common import load_task

    cells = 0
    work = 0.0
    for r in protocol.itertuples():
        n_train = 38 if pd.isna(r.n_train) else int(r.n_train)
        k = int(r.n_splits) * len(alphas)
        cells += k
        work += k * _CELL_RATE * n_train * load_task(r.dataset).n_genes * (int(r.cycles) / 10) ** _CYCLE_EXPONENT
    seconds = _OVERHEAD + _PER_DATASET * len(protocol) + work / max(1, min(int(n_jobs), 2))
    return seconds, f"{cells} cells of five ALMA algorithms each"


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def splits_comparison(runs: dict, dataset: str) -> pd.DataFrame:
    """Exercise 1: one data set's Table 1 (best alpha per cell, percent) under several protocols, one column per
    algorithm and protocol (``runs``: {label: :func:`table1_best_alpha` frame})."""
    cols = {}
    for label, best in runs.items():
        b = best[best["dataset"] == dataset]
        for alg in TABLE1_ALGORITHMS:
            cols[(ALGORITHM_NAMES[alg], label)] = b[b.algorithm == alg].set_index("genes")["error"].round(1)
    out = pd.DataFrame(cols).reindex([g for g in ROW_ORDER])
    out.index = [{"all": "all genes", "FS": "ALMA-FS's own count"}.get(g, f"{g} genes") for g in out.index]
    return out.dropna(how="all").astype(object).where(out.notna(), "–")


def alpha_optimism(res) -> tuple[pd.DataFrame, str]:
    """Exercise 2: per algorithm, the mean test error (percent, over data sets and gene counts) at the best alpha
    of each cell and at each fixed alpha, and a sentence on what choosing alpha after the test errors is worth."""
    per_alpha = (res.groupby(["dataset", "genes", "algorithm", "alpha"])["error"].mean() * 100).unstack("alpha")
    table = per_alpha.groupby(level="algorithm").mean()
    table.insert(0, "best alpha per cell", per_alpha.min(axis=1).groupby(level="algorithm").mean())
    table.columns = [c if isinstance(c, str) else f"alpha = {c:g}" for c in table.columns]
    table.index = [ALGORITHM_NAMES[a] for a in table.index]
    gain = table.iloc[:, 1:].min(axis=1) - table.iloc[:, 0]
    text = (f"Choosing alpha per cell after seeing the test errors lowers the mean error by "
            f"{format_range(gain, '{:.1f}', 'points')} against the best single alpha of each algorithm: that much "
            "of the table's advantage is the optimistic choice, not the algorithm.")
    return table.round(1), text


def fs_gene_count(res, dataset: str) -> str:
    """Exercise 3: how many genes ALMA-FS keeps on ``dataset`` (over its runs), out of how many."""
    from genesel.papers.common import load_task

    fs = res[(res.dataset == dataset) & (res.algorithm == "FS") & (res.genes == "FS")]
    n = load_task(dataset).n_genes
    return (f"On {paper_name(dataset)}, ALMA-FS kept {format_range(fs.n_genes, '{:.0f}')} of {n} genes over its "
            f"{len(fs)} runs (mean {fs.n_genes.mean():.1f}): " + ("still a handful." if fs.n_genes.mean() < 100
                                                                    else "many more than a handful."))
