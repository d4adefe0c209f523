"""House style for figures and one way to save them: ``figures/<paper>_<figure>.png``.

Figures are meant to be projected in a lecture room: large fonts, thick lines, a title, axis labels with units,
and a legend. :func:`savefig` writes atomically into ``$GENESEL_FIGURES_DIR`` (default: the repository's
``figures/``) and returns the path.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

__all__ = ["set_style", "figures_dir", "savefig"]


def set_style(context: str = "talk") -> None:
    """seaborn 'whitegrid' with the 'talk' context (larger fonts) and a colour-blind-safe palette."""
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(context=context, style="whitegrid", palette="colorblind")
    mpl.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "savefig.bbox": "tight", "axes.titleweight": "bold",
                         "lines.linewidth": 2.5, "figure.figsize": (9, 6)})


def figures_dir() -> Path:
    env = os.environ.get("GENESEL_FIGURES_DIR")
    if env:
        p = Path(env)
    else:
        here = Path(__file__).resolve().parents[2]
        p = here / "figures" if (here / "pyproject.toml").exists() else Path.cwd() / "figures"
    p.mkdir(parents=True, exist_ok=True)
    return p


def savefig(fig, name: str, formats=("png",)) -> Path:
    """Save ``fig`` as ``<figures_dir>/<name>.<fmt>`` for each format (atomic write); returns the first path.

    ``name`` should read ``<paper>_<figure-or-table>``, e.g. ``"guyon2002_fig2_leukemia"``.
    """
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise ValueError(f"figure name {name!r}: use letters, digits, '_', '-' and '.', e.g. 'tan2006_fig3_6'")
    ax = fig.axes[0] if fig.axes else None
    if ax is not None and not (ax.get_title() or fig._suptitle is not None):
        raise ValueError(f"figure {name!r} has no title: give the first axes a title or the figure a suptitle")
    out = []
    for fmt in formats:
        path = figures_dir() / f"{name}.{fmt}"
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=f".{fmt}", dir=path.parent)
        os.close(fd)
        try:
            fig.savefig(tmp, format=fmt)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        out.append(path)
    return out[0]


def class_balance(datasets, ax=None):
    """Bar chart of the class sizes of several :class:`~genesel.datasets.Dataset` objects."""
    import matplotlib.pyplot as plt
    import numpy as np

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
    import numpy as np

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
    import numpy as np
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
