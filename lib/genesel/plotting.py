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
