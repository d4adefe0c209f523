"""The data sets of all five papers (notebook 00): which sets the papers use, what the papers say about them, and
the overview figures (class balance, value distributions, top signal-to-noise heatmaps; for a data set of three or
more classes each class's one-vs-rest markers).

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
           "QUICK_BUDGET", "FULL_BUDGET", "N_TOP"]

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
    """One row per loaded data set: its title (the registry's), name, samples, genes, classes, predefined split.
    Two-class sets give their first and second class; when a set has three or more, one column lists every class."""
    datasets = list(datasets)
    many = any(len(d.classes) > 2 for d in datasets)

    def classes(d):
        if many:
            return {"classes": " / ".join(f"{c} ({d.class_counts[c]})" for c in d.classes)}
        return {"first class": f"{d.classes[0]} ({d.class_counts[d.classes[0]]})",
                "second class": f"{d.classes[1]} ({d.class_counts[d.classes[1]]})"}

    return pd.DataFrame([
        {"data set": display_name(d.name), "name": d.name, "samples": d.n_samples, "genes": d.n_genes, **classes(d),
         "predefined split (train/test)": (f"{len(d.train_idx)}/{len(d.test_idx)}" if d.train_idx is not None
                                           else "none")}
        for d in datasets])


def preprocessing_caption(name: str) -> str:
    """Markdown: the steps of the data set's recommended preprocessing."""
    return f"**{display_name(name)}**: {' → '.join(step for step, _ in recommended_preprocessing(name).steps)}"


#: genes in the overview's heatmap (split evenly over the classes)
N_TOP = 50


def _class_codes(ds) -> np.ndarray:
    """Each sample's class as its index in ``ds.classes`` (0..K-1), whichever codes the data set uses (-1/+1 for two
    classes, 0..K-1 for more; both in the order of ``ds.classes``)."""
    return np.unique(np.asarray(ds.y), return_inverse=True)[1].ravel()


def _one_vs_rest_markers(S, per_class: int):
    """One-vs-rest markers with Golub et al. (1999)'s signal-to-noise ratio: for each class in turn, its ``per_class``
    genes of largest ratio against the rest of the samples (higher in it), no gene twice. Returns (genes, the class
    each marks)."""
    taken, genes, marks = set(), [], []
    for c in range(S.shape[0]):
        picked = [int(g) for g in np.argsort(-S[c], kind="stable") if int(g) not in taken][:per_class]
        taken.update(picked)
        genes += picked
        marks += [c] * len(picked)
    return np.asarray(genes, dtype=np.int64), np.asarray(marks, dtype=np.int64)


def top_genes(ds, Z):
    """The genes with the largest signal-to-noise on the preprocessed values ``Z``, :data:`N_TOP` of them split
    evenly over the classes: with two classes the 25 largest and 25 smallest (Golub et al. 1999: (μ₊ − μ₋) /
    (σ₊ + σ₋)); with K classes each class against the rest of the samples, the N_TOP // K genes most higher in it
    (one-vs-rest markers). Returns (their heatmap, where the gene symbols come from, a table of the top 10).

    The ratio divides by each class's spread, so a class of one sample has none: with two classes there is then no
    heatmap (None, the reason, an empty table); with K classes such a class gets no markers of its own and the note
    says so (its sample is still shown)."""
    symbols = gene_symbols(ds)
    k = len(ds.classes)
    counts = np.bincount(_class_codes(ds), minlength=k)
    lone = [c for c in range(k) if counts[c] < 2]
    note = annotation_note(ds, symbols)
    if lone:
        names = " and ".join(repr(str(ds.classes[c])) for c in lone)
        if k <= 2 or len(lone) == k:
            return None, (f"No heatmap for {display_name(ds.name)}: the signal-to-noise ratio divides by each class's "
                          f"spread, and {names} {'has' if len(lone) == 1 else 'have'} a single sample."), pd.DataFrame()
        note = (f"{names} ({'one sample' if len(lone) == 1 else 'one sample each'}) "
                f"{'has' if len(lone) == 1 else 'have'} no spread of its own, so no markers (its sample is shown "
                f"among the others). {note}")
    if k <= 2:
        snr = signal_to_noise(Z, ds.y)
        order = np.argsort(snr, kind="stable")
        top = np.r_[order[::-1][:N_TOP // 2], order[:N_TOP // 2]]
        marks = np.where(snr[top] > 0, 1, 0)
        score = snr
        title = f"{display_name(ds.name)}: the {top.size} genes with largest |signal-to-noise|"
        what = "signal-to-noise"
    else:
        codes = _class_codes(ds)
        eligible = np.array([c for c in range(k) if c not in lone])
        S = np.vstack([signal_to_noise(Z, np.where(codes == c, 1, -1)) for c in eligible])  # class c against the rest
        per = N_TOP // eligible.size
        top, rows = _one_vs_rest_markers(S, per)
        score, marks = S[rows, top], eligible[rows]
        title = f"{display_name(ds.name)}: each class's {per} marker genes (signal-to-noise against the rest)"
        what = "signal-to-noise (its class against the rest)"
    labels = [symbols[i] or str(ds.gene_ids[i]) for i in top]
    fig = top_genes_heatmap(Z[:, top], _class_codes(ds), labels, ds.classes, title,
                            gene_classes=None if k <= 2 else marks)
    best = np.arange(top.size) if k <= 2 else np.argsort(-score, kind="stable")
    first = best[:10]
    table = pd.DataFrame({
        "rank": np.arange(1, first.size + 1), "gene symbol": [symbols[top[i]] or "(none)" for i in first],
        "probe / gene ID": [str(ds.gene_ids[top[i]]) for i in first],
        "higher in": [ds.classes[marks[i]] for i in first],
        what: (score[top[first]] if k <= 2 else score[first]).round(3)})
    return fig, note, table


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
    """Horizontal stacked bars, one per data set: its classes, each named in words with its sample count inside its
    segment (a segment too narrow for its name gets the count alone, the name below the bar)."""
    import matplotlib.pyplot as plt

    n = len(datasets)
    many = any(len(d.classes) > 2 for d in datasets)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]  # C0, C1, ... as before for two classes
    if max(len(d.classes) for d in datasets) > len(colours):
        colours = plt.get_cmap("tab20").colors
    fig, ax = plt.subplots(figsize=(13, (1.3 if many else 1.1) * n + 2.2))
    for i, d in enumerate(datasets[::-1]):
        lefts = np.r_[0, np.cumsum([d.class_counts[c] for c in d.classes])[:-1]]
        for j, (c, left) in enumerate(zip(d.classes, lefts)):
            ax.barh(i, d.class_counts[c], left=left, color=colours[j % len(colours)], height=0.7)
    ax.autoscale_view()  # the limits the bars give, before any text is measured against them
    renderer = fig.canvas.get_renderer()

    def fits(text, left, width) -> bool:  # the text's drawn width inside its segment's
        a, b = ax.transData.transform([(left, 0), (left + width, 0)])[:, 0]
        return text.get_window_extent(renderer).width <= 0.92 * (b - a)

    named_below = False  # a name under the lowest bar: room for it below
    for i, d in enumerate(datasets[::-1]):
        left, below = 0, 0
        for c in d.classes:
            width = d.class_counts[c]
            t = ax.text(left + width / 2, i, f"{c}\n{width}", ha="center", va="center", color="white", fontsize=15,
                        fontweight="bold")
            if not fits(t, left, width):  # too narrow for its name: the count inside, the name under the bar
                t.set_text(f"{width}")
                if not fits(t, left, width):
                    t.set_fontsize(11)
                ax.text(left + width / 2, i - 0.38 - 0.2 * (below % 2), str(c), ha="center", va="top", fontsize=11)
                below, named_below = below + 1, named_below or i == 0
            else:
                below = 0
            left += width
    if named_below:
        ax.set_ylim(min(ax.get_ylim()[0], -0.95), ax.get_ylim()[1])
    ax.set_yticks(range(n), [display_name(d.name) for d in datasets[::-1]])
    ax.set_xlabel("samples (count)")
    ax.set_title("Class balance: samples per class (each class its own colour, named in its segment)" if many else
                 "Class balance: samples per class (first class in blue, second in orange)")
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


def top_genes_heatmap(Z, y, gene_labels, classes, title: str, gene_classes=None):
    """Heatmap of a (samples x genes) block, samples grouped by class (named on the left, in the order of
    ``classes``: ``y`` sorted gives that order), genes in the given order with readable labels (gene symbols where
    known). ``gene_classes`` (K classes): the class each gene marks, its block of columns set apart by a line and
    named above it."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    y = np.asarray(y)
    order = np.argsort(y, kind="stable")
    Z = np.asarray(Z)[order]
    ncol = Z.shape[1]
    fig, ax = plt.subplots(figsize=(max(14, 0.32 * ncol + 4), 8.5 + (0.4 if gene_classes is not None else 0)))
    sns.heatmap(Z, cmap="vlag", center=0, vmin=-3, vmax=3, ax=ax,
                cbar_kws={"label": "expression (z-score, sd units)"})
    counts = np.unique(y, return_counts=True)[1]
    edges = np.r_[0, np.cumsum(counts)]
    for e in edges[1:-1]:
        ax.axhline(e, color="k", lw=3)
    ax.set_yticks((edges[:-1] + edges[1:]) / 2, [f"{c}\n({k})" for c, k in zip(classes, counts)],
                  rotation=0, fontsize=16 if len(counts) <= 4 else 13)
    ax.set_xticks(np.arange(ncol) + 0.5, gene_labels, rotation=90, fontsize=11)
    if gene_classes is not None:
        gc = np.asarray(gene_classes)
        starts = np.r_[0, np.flatnonzero(np.diff(gc)) + 1]
        for a, b in zip(starts, np.r_[starts[1:], gc.size]):
            if a > 0:
                ax.axvline(a, color="k", lw=3)
            ax.text((a + b) / 2, -0.01 * len(y), f"higher in {classes[gc[a]]}", ha="center", va="bottom",
                    fontsize=12, fontweight="bold", clip_on=False)
        ax.set_xlabel("gene (each class's markers, by signal-to-noise against the rest)")
    else:
        ax.set_xlabel("gene (ranked by signal-to-noise)")
    ax.set_ylabel("samples, grouped by class")
    ax.set_title(title, **({"pad": 26} if gene_classes is not None else {}))
    fig.tight_layout()
    return fig
