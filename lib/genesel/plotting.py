"""House style for figures and one way to save them: ``<figures dir>/<paper>_<figure>.png``.

Figures are meant to be projected in a lecture room: large fonts, thick lines, a title, axis labels with units,
and a legend. :func:`savefig` writes atomically and returns the path. Where figures go:

- ``$GENESEL_FIGURES_DIR`` when set;
- otherwise the repository's ``figures/`` for a full-protocol run and ``runs/quick/figures/`` for a quick one.
  A notebook says which by calling :func:`setup` with its ``quick`` parameter; until then the quick folder is
  used, so a first look never overwrites the committed full-run figures.

Alt text. Every figure a notebook shows carries its title (:func:`title_of`) as alt text in the image output's
metadata, under the key ``"alt"`` of the MIME type: ``output.metadata["image/png"]["alt"]`` (:data:`ALT_KEY`).
:func:`show` and :func:`save_and_show` write it; after :func:`setup`, figures shown by ``plt.show()``, by the inline
backend at the end of a cell or by ``display(fig)`` get it too (:func:`alt_text_for_figures`). The documentation
site's course chapters (``docs/``, ``make docs``: its ``genesel_docs`` extension puts it on every ``<img>``) read
that key; keep it when changing either side.

Needs matplotlib and seaborn (the ``notebooks`` extra: ``pip install "genesel[notebooks]"``); importing this module
without them raises an :class:`ImportError` that says so.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from genesel._core.io import atomic_write
from genesel.extras import check as _check_extra

_check_extra("genesel.plotting (figures)", "matplotlib", "seaborn")

__all__ = ["setup", "set_style", "figures_dir", "savefig", "show", "save_and_show", "title_of", "figure_name",
           "alt_text_for_figures", "ALT_KEY"]

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


#: The key of an image output's metadata that holds its alt text: ``output.metadata["image/png"]["alt"]`` (nbformat
#: keeps per-MIME-type metadata under the MIME type). Written by :func:`show` and by the hook of
#: :func:`alt_text_for_figures`; read by the documentation site's course chapters (``docs/``), nbconvert
#: (``get_metadata(output, "alt", "image/png")``), JupyterLab and screen readers.
ALT_KEY = "alt"


def _png_with_alt(inner):
    """``inner`` (IPython's PNG printer of a matplotlib figure) returning ``(png, {"alt": title})``."""
    def png_with_alt(fig):
        data = inner(fig)
        if data is None:
            return None
        if isinstance(data, tuple):  # a printer that already gives metadata (e.g. retina's width and height)
            data, md = data
            return data, {**(md or {}), ALT_KEY: title_of(fig)}
        return data, {ALT_KEY: title_of(fig)}

    png_with_alt._genesel_inner = inner
    return png_with_alt


def _install_alt_hook(ip) -> bool:
    """Wrap the PNG printer of matplotlib figures registered in shell ``ip`` (once); False when none is registered."""
    from matplotlib.figure import Figure

    fmt = ip.display_formatter.formatters["image/png"]
    try:
        current = fmt.lookup_by_type(Figure)
    except KeyError:
        return False
    if not hasattr(current, "_genesel_inner"):
        fmt.for_type(Figure, _png_with_alt(current))
    return True


def alt_text_for_figures() -> None:
    """In an IPython kernel, give every matplotlib figure displayed as a PNG (by ``plt.show()``, the inline
    backend's display at the end of a cell, ``display(fig)`` or a cell's last value) its title (:func:`title_of`)
    as alt text in the output's metadata (``metadata["image/png"]["alt"]``, :data:`ALT_KEY`), where screen readers,
    JupyterLab and the documentation site's course chapters (``docs/``) read it. Does nothing outside IPython.

    How: IPython renders a figure with the PNG printer that the inline backend registers for
    :class:`matplotlib.figure.Figure`; this wraps that printer. The backend registers it when its module is first
    imported, which pyplot does only when it first needs the backend (and again on ``%matplotlib inline``, replacing
    the wrapper), so the backend module is imported here first, and a ``pre_run_cell`` hook puts the wrapper back
    before every cell if anything replaced it."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the notebook dependencies
        return
    ip = get_ipython()
    if ip is None:
        return
    import importlib

    import matplotlib

    if "inline" in str(matplotlib.get_backend()).lower():
        importlib.import_module("matplotlib_inline.backend_inline")  # its import registers the PNG printer
    _install_alt_hook(ip)
    hook = getattr(alt_text_for_figures, "_hook", None)
    if hook is None:
        def hook(*_args):
            _install_alt_hook(ip)

        alt_text_for_figures._hook = hook
    if hook not in ip.events.callbacks["pre_run_cell"]:
        ip.events.register("pre_run_cell", hook)


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
    """Show ``fig`` in a notebook as a PNG whose alt text is its title (screen readers, the course chapters of
    the documentation site), then close it so it is not drawn twice."""
    import io

    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    width = int(round(fig.get_figwidth() * 100))
    display(Image(data=buf.getvalue(), width=width, metadata={ALT_KEY: alt or title_of(fig)}))
    plt.close(fig)


def save_and_show(fig, name: str) -> None:
    """A notebook's figure in one call: :func:`savefig` under ``name``, then :func:`show` (returns nothing, so that
    a cell ending with it displays no path). ``fig`` None (a figure its data cannot give, e.g. notebook 00's heatmap
    with a class of one sample, whose reason the notebook prints beside it): nothing is saved or shown."""
    if fig is None:
        return
    savefig(fig, name)
    show(fig)
