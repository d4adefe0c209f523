"""House style for figures and one way to save them: ``<figures dir>/<paper>_<figure>.png``.

Figures are meant to be projected in a lecture room: large fonts, thick lines, a title, axis labels with units,
and a legend. :func:`savefig` writes atomically and returns the path. Where figures go:

- ``$GENESEL_FIGURES_DIR`` when set;
- otherwise the repository's ``figures/`` for a full-protocol run and ``runs/quick/figures/`` for a quick one.
  A notebook says which by calling :func:`setup` with its ``quick`` parameter; until then the quick folder is
  used, so a first look never overwrites the committed full-run figures.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from genesel._core.io import atomic_write

__all__ = ["setup", "set_style", "figures_dir", "savefig", "show", "save_and_show", "title_of", "figure_name"]

_STATE = {"quick": True}


def set_style(context: str = "talk") -> None:
    """seaborn 'whitegrid' with the 'talk' context (larger fonts) and a colour-blind-safe palette."""
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(context=context, style="whitegrid", palette="colorblind")
    mpl.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "savefig.bbox": "tight", "axes.titleweight": "bold",
                         "lines.linewidth": 2.5, "figure.figsize": (9, 6)})


def setup(quick: bool = True, context: str = "talk") -> None:
    """Notebook set-up: the house style, figures to ``figures/`` (``quick=False``) or ``runs/quick/figures/``, and
    every figure a notebook shows (``plt.show()`` too) with its title as alt text (:func:`alt_text_for_figures`)."""
    set_style(context)
    _STATE["quick"] = bool(quick)
    alt_text_for_figures()


def alt_text_for_figures() -> None:
    """In an IPython kernel, give every matplotlib figure displayed as a PNG (by ``plt.show()``, ``display(fig)`` or
    a cell's last value) its title (:func:`title_of`) as alt text, in the output's metadata, where screen readers,
    JupyterLab and the course site (:mod:`genesel.experiments.report`) read it. Wraps the inline backend's PNG
    formatter once; does nothing outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the notebook dependencies
        return
    ip = get_ipython()
    if ip is None:
        return
    from matplotlib.figure import Figure

    fmt = ip.display_formatter.formatters["image/png"]
    try:
        current = fmt.lookup_by_type(Figure)
    except KeyError:
        return
    inner = getattr(current, "_genesel_inner", current)

    def png_with_alt(fig):
        data = inner(fig)
        return (data, {"alt": title_of(fig)}) if data is not None else None

    png_with_alt._genesel_inner = inner
    fmt.for_type(Figure, png_with_alt)


def figure_name(prefix: str, *parts) -> str:
    """A figure's file name from a prefix and data set names: ``figure_name("guyon2002_metrics", "golub")`` is
    ``"guyon2002_metrics_golub"``. A part naming a user's file (a path, or a reference string
    ``"dir/study.csv?label=class"``) contributes its file name without folders, options or data-file suffixes
    (``study``), other characters a file name cannot hold become ``_``."""
    out = [prefix]
    for part in parts:
        text = str(part).split("?", 1)[0].replace("\\", "/").rsplit("/", 1)[-1]
        text = re.sub(r"(\.(csv|tsv|txt|tab|soft|h5ad|gz))+$", "", text, flags=re.I)
        out.append(re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_.") or "data")
    return "_".join(out)


def figures_dir(quick: bool | None = None) -> Path:
    """The folder figures are saved to (see the module doc); ``quick`` overrides the mode set by :func:`setup`."""
    env = os.environ.get("GENESEL_FIGURES_DIR")
    if env:
        p = Path(env)
    else:
        here = Path(__file__).resolve().parents[2]
        root = here if (here / "pyproject.toml").exists() else Path.cwd()
        quick = _STATE["quick"] if quick is None else quick
        p = root / "runs" / "quick" / "figures" if quick else root / "figures"
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
        out.append(atomic_write(figures_dir() / f"{name}.{fmt}", lambda tmp, fmt=fmt: fig.savefig(tmp, format=fmt)))
    return out[0]


def title_of(fig) -> str:
    """The figure's title in words: its suptitle, else the titles of its axes joined."""
    sup = fig._suptitle.get_text() if fig._suptitle is not None else ""
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    return sup or "; ".join(titles) or "figure"


def show(fig, alt: str | None = None):
    """Show ``fig`` in a notebook as a PNG whose alt text is its title (screen readers, the static report of
    :mod:`genesel.experiments.report`), then close it so it is not drawn twice."""
    import io

    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    width = int(round(fig.get_figwidth() * 100))
    display(Image(data=buf.getvalue(), width=width, metadata={"alt": alt or title_of(fig)}))
    plt.close(fig)


def save_and_show(fig, name: str) -> None:
    """A notebook's figure in one call: :func:`savefig` under ``name``, then :func:`show` (returns nothing, so that
    a cell ending with it displays no path)."""
    savefig(fig, name)
    show(fig)
