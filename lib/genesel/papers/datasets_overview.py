"""The data sets of all five papers (notebook 00): which sets the papers use, what the papers say about them, and
the overview figures (class balance, value distributions, top signal-to-noise heatmaps).

Shapes and class counts as stated in the papers: Guyon et al. 2002 (Leukemia, Colon), Gentile 2003 (Leukemia,
Colon, Breast, Prostate, Lymphoma), Helleputte & Dupont 2009 (the prostate studies), Shah, Marchand & Corbeil
2012 (Colon, Leukemia, medulloblastoma, BreastER), Tan 2006 (Colon, Leukemia, Prostate).
"""

from __future__ import annotations

import numpy as np

__all__ = ["PAPER_SETS", "PAPER_SHAPES", "class_balance", "value_distributions", "top_genes_heatmap"]

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


def class_balance(datasets, ax=None):
    """Bar chart of the class sizes of several :class:`~genesel.datasets.Dataset` objects."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(max(8, 1.6 * len(datasets)), 5.5))
    names = [d.name for d in datasets]
    neg = [d.class_counts[d.classes[0]] for d in datasets]
    pos = [d.class_counts[d.classes[1]] for d in datasets]
    x = np.arange(len(names))
    ax.bar(x - 0.2, neg, 0.4, label="class −1")
    ax.bar(x + 0.2, pos, 0.4, label="class +1")
    for i, d in enumerate(datasets):
        ax.text(x[i] - 0.2, neg[i], d.classes[0], ha="center", va="bottom", fontsize=10, rotation=90)
        ax.text(x[i] + 0.2, pos[i], d.classes[1], ha="center", va="bottom", fontsize=10, rotation=90)
    ax.set_xticks(x, names)
    ax.set_ylabel("samples (count)")
    ax.set_xlabel("data set")
    ax.set_title("Class balance of the data sets")
    ax.legend()
    ax.margins(y=0.25)
    return ax.figure


def value_distributions(before, after, name: str, before_label="raw values", after_label="after preprocessing"):
    """Two histograms (all matrix entries) of a data set before and after preprocessing."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    for ax, M, lab in zip(axes, (before, after), (before_label, after_label)):
        v = np.asarray(M, float).ravel()
        lo, hi = np.percentile(v, [0.5, 99.5])
        ax.hist(np.clip(v, lo, hi), bins=80, color="C0" if ax is axes[0] else "C2")
        ax.set_xlabel(f"{lab} (clipped to 0.5–99.5 percentile)")
        ax.set_ylabel("matrix entries (count)")
        ax.set_title(lab)
    fig.suptitle(f"{name}: distribution of expression values")
    fig.tight_layout()
    return fig


def top_genes_heatmap(Z, y, gene_labels, classes, title: str, scores=None):
    """Heatmap of a (samples x genes) block, samples grouped by class, genes in the given order."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    order = np.argsort(y, kind="stable")
    Z = np.asarray(Z)[order]
    fig, ax = plt.subplots(figsize=(max(10, 0.22 * Z.shape[1] + 3), 7))
    sns.heatmap(Z, cmap="vlag", center=0, vmin=-3, vmax=3, ax=ax,
                cbar_kws={"label": "standardised expression (z-score)"})
    n_neg = int(np.sum(np.asarray(y) == np.min(y)))
    ax.axhline(n_neg, color="k", lw=2)
    ax.set_yticks([n_neg / 2, n_neg + (len(y) - n_neg) / 2], [classes[0], classes[1]], rotation=0)
    ax.set_xticks(np.arange(Z.shape[1]) + 0.5, gene_labels, rotation=90, fontsize=7)
    ax.set_xlabel("gene (ranked by signal-to-noise)")
    ax.set_ylabel("samples, grouped by class")
    ax.set_title(title)
    return fig
