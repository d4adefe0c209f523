"""The data sets of all five papers (notebook 00): which sets the papers use, what the papers say about them, and
the overview figures (class balance, value distributions, top signal-to-noise heatmaps).

Shapes and class counts as stated in the papers: Guyon et al. 2002 (Leukemia, Colon), Gentile 2003 (Leukemia,
Colon, Breast, Prostate, Lymphoma), Helleputte & Dupont 2009 (the prostate studies), Shah, Marchand & Corbeil
2012 (Colon, Leukemia, medulloblastoma, BreastER), Tan 2006 (Colon, Leukemia, Prostate).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.datasets import annotation_note, display_name, gene_symbols, recommended_preprocessing
from genesel.filters import signal_to_noise

__all__ = ["PAPER_SETS", "PAPER_SHAPES", "shapes_table", "preprocessing_caption", "top_genes", "paper_vs_rows",
           "class_balance", "value_distributions", "top_genes_heatmap", "estimated_seconds", "scale_table",
           "QUICK_BUDGET", "FULL_BUDGET"]

#: Time budgets of notebook 00 on 2 cores (seconds): quick mode, full mode.
QUICK_BUDGET, FULL_BUDGET = 30.0, 60.0

#: The data sets the papers use that the public files provide (genesel names).
PAPER_SETS = ("golub", "alon", "singh", "west", "pomeroy", "alizadeh")

#: What the papers state about each data set, and how the public copy compares: name -> (paper, note).
PAPER_SHAPES = {
    "alon": ("62 x 2000, 40 tumour / 22 normal", "exact match"),
    "golub": ("72 x 7129; train 38 (27 ALL / 11 AML), test 34 (20 ALL / 14 AML)", "exact match, original split"),
    "singh": ("102 x 12600, 52 tumour / 50 normal", "exact match; 12533 probes named, 67 AFFX controls unnamed"),
    "west": ("49 x 7129 (BreastER); Gentile used Gruvberger's 58 x 3389, not public",
             "West's set stands in for Gruvberger's"),
    "pomeroy": ("60 x 7129, 39 survivors / 21 failures", "7128 probes (one fewer); per-sample standardised copy"),
    "alizadeh": ("96 x 4026, 62 DLCL/FL/CLL vs 34 other", "66 vs 30: the 62/34 assignment cannot be rebuilt"),
}


def _shape(name) -> tuple[int, int]:
    """(samples, genes) of a data set: from the registry for a registered set, by reading a user's file."""
    from data_fetch import resolve
    from genesel.datasets import load_dataset
    from genesel.dataref import is_file_reference

    return load_dataset(name).X.shape if is_file_reference(name) else resolve(name).shape


def estimated_seconds(datasets) -> float:
    """Notebook 00's cost before it runs: kernel start and imports, then per data set its loading, preprocessing
    and four figures, growing with the number of matrix entries (measured on this project's 2-core machine: 14 s
    for golub and alon)."""
    return 4.0 + sum(1.5 + 1e-5 * float(np.prod(_shape(d))) for d in datasets)


def scale_table(datasets) -> pd.DataFrame:
    """Per data set: samples per class and where its published values lie (median, 99th percentile, share of
    entries at or below zero): whether several studies are on one scale."""
    rows = []
    for d in datasets:
        v = np.asarray(d.X, float).ravel()
        rows.append({"data set": display_name(d.name, fallback="name"),
                     "classes": " / ".join(f"{n} {c}" for c, n in d.class_counts.items()),
                     "median value": float(np.median(v)), "99th percentile": float(np.percentile(v, 99)),
                     "entries <= 0 (%)": round(100 * float(np.mean(v <= 0)), 1)})
    return pd.DataFrame(rows)


def shapes_table(datasets) -> pd.DataFrame:
    """One row per loaded data set: its title (the registry's), name, samples, genes, classes, predefined split."""
    return pd.DataFrame([
        {"data set": display_name(d.name), "name": d.name, "samples": d.n_samples, "genes": d.n_genes,
         "first class": f"{d.classes[0]} ({d.class_counts[d.classes[0]]})",
         "second class": f"{d.classes[1]} ({d.class_counts[d.classes[1]]})",
         "predefined split (train/test)": (f"{len(d.train_idx)}/{len(d.test_idx)}" if d.train_idx is not None
                                           else "none")}
        for d in datasets])


def preprocessing_caption(name: str) -> str:
    """Markdown: the steps of the data set's recommended preprocessing."""
    return f"**{display_name(name)}**: {' → '.join(step for step, _ in recommended_preprocessing(name).steps)}"


def top_genes(ds, Z):
    """The 50 genes with the largest |signal-to-noise| on the preprocessed values ``Z`` (25 per class): (their
    heatmap, where the gene symbols come from, a table of the top 10)."""
    snr = signal_to_noise(Z, ds.y)
    order = np.argsort(snr, kind="stable")
    top = np.r_[order[::-1][:25], order[:25]]
    symbols = gene_symbols(ds)
    labels = [symbols[i] or str(ds.gene_ids[i]) for i in top]
    fig = top_genes_heatmap(Z[:, top], ds.y, labels, ds.classes,
                            f"{display_name(ds.name)}: the 50 genes with largest |signal-to-noise|")
    table = pd.DataFrame({
        "rank": np.arange(1, 11), "gene symbol": [symbols[i] or "(none)" for i in top[:10]],
        "probe / gene ID": [str(ds.gene_ids[i]) for i in top[:10]],
        "higher in": [ds.classes[1] if snr[i] > 0 else ds.classes[0] for i in top[:10]],
        "signal-to-noise": snr[top[:10]].round(3)})
    return fig, annotation_note(ds, symbols), table


def paper_vs_rows(datasets) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: the shapes and classes the papers state beside the
    public files (:data:`PAPER_SHAPES`)."""
    rows = []
    for d in datasets:
        paper, note = PAPER_SHAPES.get(d.name, ("not used by the five papers", ""))
        counts = " / ".join(f"{v} {k}" for k, v in d.class_counts.items())
        split = f"; split {len(d.train_idx)}/{len(d.test_idx)}" if d.train_idx is not None else ""
        rows.append(dict(quantity=f"{display_name(d.name)}: shape and classes", protocol="data as published",
                         paper=paper, genesel=f"{d.n_samples} x {d.n_genes}, {counts}{split}", note=note))
    return rows


def class_balance(datasets):
    """Horizontal stacked bars, one per data set: its two classes, named in words with their sample counts."""
    import matplotlib.pyplot as plt

    n = len(datasets)
    fig, ax = plt.subplots(figsize=(13, 1.1 * n + 2.2))
    for i, d in enumerate(datasets[::-1]):
        neg, pos = d.class_counts[d.classes[0]], d.class_counts[d.classes[1]]
        ax.barh(i, neg, color="C0", height=0.7)
        ax.barh(i, pos, left=neg, color="C1", height=0.7)
        for left, width, label in ((0, neg, d.classes[0]), (neg, pos, d.classes[1])):
            ax.text(left + width / 2, i, f"{label}\n{width}", ha="center", va="center", color="white",
                    fontsize=15, fontweight="bold")
    ax.set_yticks(range(n), [display_name(d.name) for d in datasets[::-1]])
    ax.set_xlabel("samples (count)")
    ax.set_title("Class balance: samples per class (first class in blue, second in orange)")
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig


def value_distributions(before, after, name: str, raw_scale: str = "auto"):
    """Two histograms of all matrix entries of a data set: the values as published and after preprocessing.

    Raw intensities span orders of magnitude, so the left panel uses a log10 axis for them (``raw_scale="auto"``
    picks it when the values are positive-skewed over more than two decades) and says how many entries are zero or
    negative (they have no logarithm; the preprocessing floors them)."""
    import matplotlib.pyplot as plt

    v = np.asarray(before, float).ravel()
    v = v[np.isfinite(v)]
    z = np.asarray(after, float).ravel()
    pos = v[v > 0]
    use_log = raw_scale == "log" or (raw_scale == "auto" and pos.size > 0.5 * v.size
                                      and np.percentile(pos, 99) / max(np.percentile(pos, 1), 1e-300) > 100)
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5))
    if use_log:
        axes[0].hist(np.log10(pos), bins=80, color="C0")
        axes[0].set_xlabel("published value (log10 of intensity)")
        n_bad = v.size - pos.size
        axes[0].set_title(f"As published ({100 * n_bad / v.size:.1f} % of entries <= 0, not shown)" if n_bad
                          else "As published (all entries positive)")
    else:
        lo, hi = np.percentile(v, [0.5, 99.5])
        axes[0].hist(np.clip(v, lo, hi), bins=80, color="C0")
        axes[0].set_xlabel("published value (0.5-99.5 percentile range)")
        axes[0].set_title("As published")
    lo, hi = np.percentile(z, [0.5, 99.5])
    axes[1].hist(np.clip(z, lo, hi), bins=80, color="C2")
    axes[1].set_xlabel("after preprocessing (z-score, sd units)")
    axes[1].set_title("After preprocessing")
    for ax in axes:
        ax.set_ylabel("matrix entries (count)")
    fig.suptitle(f"{display_name(name)}: distribution of the expression values")
    fig.tight_layout()
    return fig


def top_genes_heatmap(Z, y, gene_labels, classes, title: str):
    """Heatmap of a (samples x genes) block, samples grouped by class (named on the left), genes in the given order
    with readable labels (gene symbols where known)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    order = np.argsort(y, kind="stable")
    Z = np.asarray(Z)[order]
    ncol = Z.shape[1]
    fig, ax = plt.subplots(figsize=(max(14, 0.32 * ncol + 4), 8.5))
    sns.heatmap(Z, cmap="vlag", center=0, vmin=-3, vmax=3, ax=ax,
                cbar_kws={"label": "expression (z-score, sd units)"})
    n_neg = int(np.sum(np.asarray(y) == np.min(y)))
    ax.axhline(n_neg, color="k", lw=3)
    ax.set_yticks([n_neg / 2, n_neg + (len(y) - n_neg) / 2], [f"{classes[0]}\n({n_neg})",
                                                             f"{classes[1]}\n({len(y) - n_neg})"],
                  rotation=0, fontsize=16)
    ax.set_xticks(np.arange(ncol) + 0.5, gene_labels, rotation=90, fontsize=11)
    ax.set_xlabel("gene (ranked by signal-to-noise)")
    ax.set_ylabel("samples, grouped by class")
    ax.set_title(title)
    fig.tight_layout()
    return fig
