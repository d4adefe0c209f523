"""The data sets of all five papers (notebook 00): which sets the papers use, what the papers say about them, and
the overview figures (class balance, value distributions, top signal-to-noise heatmaps).

Shapes and class counts as stated in the papers: Guyon et al. 2002 (Leukemia, Colon), Gentile 2003 (Leukemia,
Colon, Breast, Prostate, Lymphoma), Helleputte & Dupont 2009 (the prostate studies), Shah, Marchand & Corbeil
2012 (Colon, Leukemia, medulloblastoma, BreastER), Tan 2006 (Colon, Leukemia, Prostate).
"""

from __future__ import annotations

import numpy as np

__all__ = ["PAPER_SETS", "PAPER_SHAPES", "DISPLAY_NAMES", "display_name", "class_balance", "value_distributions",
           "top_genes_heatmap"]

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


#: Readable names for the data sets, for titles and tables.
DISPLAY_NAMES = {
    "golub": "Leukemia (Golub 1999)", "alon": "Colon (Alon 1999)", "singh": "Prostate (Singh 2002)",
    "west": "Breast ER (West 2001)", "pomeroy": "Medulloblastoma outcome (Pomeroy 2002)",
    "alizadeh": "Lymphoma (Alizadeh 2000)", "welsh": "Prostate (Welsh 2001)",
    "chandran_primary": "Prostate, primary (Chandran 2007)", "chandran_metastasis": "Prostate, metastasis (Chandran 2007)",
}


def display_name(name: str) -> str:
    return DISPLAY_NAMES.get(name, name)


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
