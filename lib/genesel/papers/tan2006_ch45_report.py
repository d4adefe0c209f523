"""Tan (2006), chapters 4-5: tables and figures of notebooks 05b and 05c from the cells of
:mod:`genesel.papers.tan2006_ch45` (kept apart so that editing a figure never invalidates the cached cells)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.stability import kuncheva_index, mean_pairwise_jaccard, selection_frequency, stability_score

__all__ = ["stability_table", "lofo_table", "occurrence_table", "ranking_tables", "fig_forward",
           "fig_stability_accuracy", "fig_overlap", "gene_namer", "annotation", "chapter5_matches"]


# ----------------------------------------------------------------------------------------------------------------
# summaries
# ----------------------------------------------------------------------------------------------------------------


def stability_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set, variant and method: Tan's S (Eq. 5.1) over the fold biomarker sets, the mean pairwise Jaccard
    index, the union size and the mean size; and the Kuncheva index, which needs sets of one size: the top k genes of
    every fold's ranking with k the smallest biomarker set of the method (``kuncheva_k``), so that each of those
    top-k sets lies inside (RVM, SMLR, GP-ARD-FS, GP-ARD-RFE, MSVM-RFE) or is (k = size) the fold's selection."""
    rows = []
    for (ds, var, meth), g in folds.groupby(["dataset", "variant", "method"], sort=False):
        if meth == "All genes":
            continue
        sets = [set(b) for b in g["biomarkers"]]
        sizes = sorted(len(s) for s in sets)
        n = int(g["n_genes"].iloc[0])
        k = sizes[0]
        tops = [set(list(r)[:k]) for r in g["ranking_top"]]
        ok = 0 < k < n and all(len(t) == k for t in tops)
        ki = kuncheva_index(tops, n) if ok else np.nan
        rows.append({"dataset": ds, "variant": var, "method": meth, "stability_S": stability_score(sets),
                     "kuncheva": ki, "kuncheva_k": int(k) if ok else None, "jaccard": mean_pairwise_jaccard(sets),
                     "union": len(set().union(*sets)), "mean_size": float(np.mean(sizes))})
    return pd.DataFrame(rows)


def lofo_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set, variant and method: total errors over the folds (SVM and GP-Laplace), accuracy, mean
    biomarker size."""
    agg = folds.groupby(["dataset", "variant", "method"], sort=False).agg(
        n=("n_test", "sum"), svm_errors=("svm_errors", "sum"), gp_errors=("gp_errors", "sum"),
        mean_size=("biomarker_size", "mean"), cpu_seconds=("cpu_seconds", "sum")).reset_index()
    agg["svm_accuracy"] = 100.0 * (1 - agg["svm_errors"] / agg["n"])
    agg["gp_accuracy"] = 100.0 * (1 - agg["gp_errors"] / agg["n"])
    return agg


def occurrence_table(sets) -> pd.DataFrame:
    """Table 5.2: for i = 1..k, the genes selected in exactly i of the k sets and their number N_i."""
    k = len(sets)
    freq = selection_frequency(sets)
    rows = []
    for i in range(1, k + 1):
        g = sorted(x for x, c in freq.items() if c == i)
        rows.append({"occurrences": i, "genes": g, "N_i": len(g)})
    return pd.DataFrame(rows)


def chapter5_matches(t54, lofo: pd.DataFrame, folds: pd.DataFrame, paper: dict, variant: str, n_folds: int) -> str:
    """The "what matches" paragraph of notebook 05c, read from the run's own tables (so it is true in every mode):
    Table 5.4 rows equal to the thesis to the second decimal (``t54``: the Table 5.4 cell's rows, or None), Table
    5.6 error counts equal to the thesis' (``lofo`` from :func:`lofo_table` with a ``data`` column of thesis names,
    for ``variant``), and Colon folds whose RVM set is one of Table 5.1's sets gene for gene (``paper`` is
    :data:`genesel.papers.tan2006_ch45.PAPER`)."""
    out = []
    if t54 is not None and len(t54):
        same, other = [], []
        for r in t54.to_dict("records"):
            key = r["subset"] if r["subset"] in paper["table5_4"] else next(
                (k for k in paper["table5_4"] if k.split(" (")[0] == r["subset"]), None)
            if key is None:
                continue
            ours, theirs = round(float(r["loo_accuracy"]), 2), paper["table5_4"][key]
            (same if ours == theirs else other).append(
                f"{r['subset']}: {ours:.2f}%" + ("" if ours == theirs else f" against {theirs:.2f}%"))
        text = "**Table 5.4** (genes chosen on all 62 samples, as printed): "
        text += ("equal to the second decimal: " + "; ".join(same) + ". " if same else "no row equal to the thesis'. ")
        text += ("Different: " + "; ".join(other) + "." if other else "")
        out.append(text.strip())
    rows = lofo[lofo.variant == variant]
    same, n = [], 0
    for r in rows.to_dict("records"):
        p = paper["table5_6"].get((r["data"], r["method"]))
        if p is None:
            continue
        n += 1
        if int(r["svm_errors"]) == p[1]:
            same.append(f"{r['data']} {r['method']} {p[1]}")
    if n:
        out.append(f"**Table 5.6** ({variant} standardisation, {n_folds} folds): {len(same)} of {n} error counts "
                   "equal to the thesis'" + (": " + ", ".join(same) + "." if same else "."))
    rvm = folds[(folds.dataset == "alon") & (folds.method == "RVM") & (folds.variant == variant)].sort_values("fold")
    hits = []
    for r in rvm.to_dict("records"):
        ours = sorted(int(g) + 1 for g in r["biomarkers"])
        for e, theirs in enumerate(paper["table5_1"], start=1):
            if ours == sorted(theirs):
                hits.append(f"fold {int(r['fold']) + 1} = experiment {e} ({', '.join(map(str, ours))})")
    if len(rvm):
        out.append("**Table 5.1** (Colon RVM sets): " + ("sets identical to one of the thesis' gene for gene: "
                   + "; ".join(hits) + "." if hits else "no fold set equals one of the thesis' gene for gene."))
    return "\n".join(f"* {t}" for t in out) if out else "No Colon or Leukemia table ran: nothing to compare."


# ----------------------------------------------------------------------------------------------------------------
# chapter 4 tables and figures
# ----------------------------------------------------------------------------------------------------------------
def _pct(x):
    return round(float(x), 1)


def ranking_tables(rank: pd.DataFrame, names: dict) -> dict:
    """Tables 4.2-4.5 (genesel's columns) from ``ranking_cell`` rows of the ranking methods."""
    out = {"test": [], "loo": []}
    for r in rank.itertuples():
        if not isinstance(r.test_errors, list):
            continue
        te, lo = np.asarray(r.test_errors), np.asarray(r.loo_errors)
        opt_t = np.flatnonzero(te == te.min()) + 1
        opt_l = np.flatnonzero(lo == lo.min()) + 1
        base = {"data": names.get(r.dataset, r.dataset), "variant": r.variant, "ranking": r.method}
        out["test"].append({**base, "optimal subsets": int(opt_t.size), "test acc. (%)": _pct(100 * (1 - te.min() / r.n_test)),
                            "genes in biomarker set": int(opt_t[0]),
                            "all genes test acc. (%)": _pct(100 * (1 - r.all_genes_test_errors / r.n_test))})
        out["loo"].append({**base, "LOO acc. on training (%)": _pct(100 * (1 - lo.min() / r.n_train)),
                           "genes in biomarker set": int(opt_l[0]), "optimal subsets": int(opt_l.size),
                           "test acc. with it (%)": _pct(100 * (1 - te[opt_l[0] - 1] / r.n_test))})
    return {k: pd.DataFrame(v) for k, v in out.items()}


def fig_forward(rank: pd.DataFrame, dataset: str, method: str, variant: str, title_name: str, paper_sizes=None):
    """Figures 4.2 / 4.6 for one data set and ranking: test and LOO accuracy of every prefix, linear and log axes;
    the thesis' biomarker sizes (test and LOO) marked where known."""
    import matplotlib.pyplot as plt

    r = rank[(rank.dataset == dataset) & (rank.method == method) & (rank.variant == variant)].iloc[0]
    te, lo = np.asarray(r.test_errors), np.asarray(r.loo_errors)
    k = np.arange(1, te.size + 1)
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5), sharey=True)
    for ax, log in zip(axes, (False, True)):
        ax.plot(k, 100 * (1 - lo / r.n_train), label=f"LOO on the {r.n_train} training samples", color="C0")
        ax.plot(k, 100 * (1 - te / r.n_test), label=f"test ({r.n_test} samples)", color="C1")
        b = int(np.flatnonzero(lo == lo.min())[0] + 1)
        ax.axvline(b, color="C0", ls=":", lw=2, label=f"biomarker set by LOO: {b} genes")
        if paper_sizes:
            for lab, s, c in (("thesis: by test", paper_sizes[0], "C1"), ("thesis: by LOO", paper_sizes[1], "C0")):
                if s:
                    ax.axvline(s, color=c, ls="--", lw=1.5, alpha=0.7, label=f"{lab}, {s} genes")
        if log:
            ax.set_xscale("log")
        ax.set_xlabel("number of top-ranked genes" + (" (log scale)" if log else ""))
    axes[0].set_ylabel("accuracy of the linear SVM (%)")
    axes[1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=12)
    fig.suptitle(f"{title_name}: forward selection on the {method} ranking ({variant} standardisation)")
    return fig


# ----------------------------------------------------------------------------------------------------------------
# chapter 5 figures
# ----------------------------------------------------------------------------------------------------------------
def fig_stability_accuracy(stab: pd.DataFrame, lofo: pd.DataFrame, paper_S: dict, paper_acc: dict, names: dict,
                           variant: str, n_folds: int):
    """Stability S against leave-one-fold-out accuracy, one panel per data set: genesel filled, thesis hollow,
    joined by a thin line per method."""
    import matplotlib.pyplot as plt

    ds_list = list(dict.fromkeys(stab.dataset))
    fig, axes = plt.subplots(1, len(ds_list), figsize=(7.5 * len(ds_list) + 3, 6.5), squeeze=False)
    methods = list(dict.fromkeys(stab.method))
    colors = {m: f"C{i}" for i, m in enumerate(methods)}
    for ax, ds in zip(axes[0], ds_list):
        name = names.get(ds, ds)
        s = stab[(stab.dataset == ds) & (stab.variant == variant)].set_index("method")
        a = lofo[(lofo.dataset == ds) & (lofo.variant == variant)].set_index("method")
        for m in methods:
            if m not in s.index:
                continue
            x, y = s.loc[m, "stability_S"], a.loc[m, "svm_accuracy"]
            ax.scatter(x, y, s=140, color=colors[m], label=m, zorder=3)
            if (name, m) in paper_S and (name, m) in paper_acc:
                px, py = paper_S[(name, m)], paper_acc[(name, m)][0]
                ax.scatter(px, py, s=140, facecolors="none", edgecolors=colors[m], lw=2, zorder=3)
                ax.plot([x, px], [y, py], color=colors[m], lw=1, alpha=0.5)
        if "All genes" in a.index:
            ax.axhline(a.loc["All genes", "svm_accuracy"], color="grey", ls="--", lw=1.5, label="all genes (genesel)")
        ax.axvline(0.2, color="grey", ls=":", lw=1.5, label="thesis' acceptable stability (0.2)")
        ax.set_title(name)
        ax.set_xlabel("stability score S (Eq. 5.1)")
        ax.set_ylabel(f"leave-one-fold-out accuracy, SVM (%), {n_folds} folds")
    h, l = axes[0][-1].get_legend_handles_labels()
    h.append(plt.Line2D([], [], marker="o", ls="", mfc="none", mec="k", ms=11))
    l.append("thesis (Tables 5.5, 5.6)")
    axes[0][-1].legend(h, l, loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=12)
    fig.suptitle(f"Stability versus accuracy of the biomarker sets ({variant} standardisation)", y=1.02)
    return fig


def fig_overlap(folds: pd.DataFrame, dataset: str, variant: str, methods, title_name: str, gene_label=None,
                top: int = 25):
    """Gene x fold picture of the fold biomarker sets, one panel per method: the ``top`` most often selected genes
    (rows, by frequency), a filled cell where fold i's set holds the gene."""
    import matplotlib.pyplot as plt

    methods = [m for m in methods if m != "All genes"]
    ncol = 4
    nrow = int(np.ceil(len(methods) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 6.2 * nrow), squeeze=False)
    for ax in axes.ravel()[len(methods):]:
        ax.axis("off")
    for ax, m in zip(axes.ravel(), methods):
        g = folds[(folds.dataset == dataset) & (folds.variant == variant) & (folds.method == m)].sort_values("fold")
        sets = [set(b) for b in g.biomarkers]
        freq = selection_frequency(sets) if len(sets) >= 2 else {}
        genes = sorted(freq, key=lambda x: (-freq[x], x))[:top]
        M = np.array([[gene in s for s in sets] for gene in genes], dtype=float)
        ax.imshow(M if M.size else np.zeros((1, len(sets))), aspect="auto", cmap="Greys", vmin=0, vmax=1.3,
                  interpolation="nearest")
        ax.set_xticks(range(len(sets)))
        ax.set_xticklabels([str(i + 1) for i in range(len(sets))], fontsize=10)
        ax.set_yticks(range(len(genes)))
        labels = [gene_label(x) if gene_label else str(x + 1) for x in genes]
        ax.set_yticklabels(labels, fontsize=10)
        ax.grid(False)
        ax.set_xticks(np.arange(-0.5, len(sets)), minor=True)
        ax.set_yticks(np.arange(-0.5, len(genes)), minor=True)
        ax.grid(which="minor", color="0.85", lw=0.5)
        ax.tick_params(which="minor", length=0)
        S = stability_score(sets) if len(sets) >= 2 else np.nan
        ax.set_title(f"{m}\nS = {S:.2f}, {len(freq)} genes in all", fontsize=13)
        ax.set_xlabel("fold left out")
    fig.suptitle(f"{title_name}: which genes each fold's biomarker set holds (top {top} by frequency)")
    fig.tight_layout()
    return fig


def gene_namer(dataset: str, max_genes=None):
    """A function mapping a gene position of ``load_task(dataset, max_genes)`` to a readable label: "SYMBOL (probe)"
    or the probe ID on data sets with an annotation (:func:`genesel.datasets.gene_labels`), else the 1-based gene
    number of the full data set (the thesis' Table 5.1 numbering)."""
    from genesel.datasets import gene_labels, gene_symbols, load_dataset
    from genesel.papers.tan2006_ch45 import load_task

    ds = load_dataset(dataset)
    ids = load_task(dataset, max_genes)[2]
    pos = {g: i for i, g in enumerate(np.asarray(ds.gene_ids).astype(str))}
    sym = gene_symbols(ds)
    has = bool(np.any(sym != ""))

    def name(j):
        i = pos[str(ids[j])]
        return gene_labels(ds, [i], sym)[0] if has else f"gene {i + 1}"

    return name


def annotation(dataset: str) -> str:
    """Where the gene names of ``dataset`` come from (:func:`genesel.datasets.annotation_note`)."""
    from genesel.datasets import annotation_note, load_dataset

    note = annotation_note(load_dataset(dataset))
    return note + (" Genes are numbered 1..2000 as in the thesis' Table 5.1." if dataset == "alon" else
                   " Genes without a symbol are shown by their probe ID.")
