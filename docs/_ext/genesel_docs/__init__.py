"""genesel's Sphinx extension: what the documentation site generates from the project while it builds.

- **The course** (:mod:`.course`): the notebooks executed by ``make run`` (``runs/quick/``) or ``make full``
  (``runs/full/``; ``GENESEL_DOCS_RUNS`` names another folder) become the chapters ``course/<notebook>.ipynb``, in
  course order (00, 01, 02, 03, 04, 05a, 05b, 05c, 06), each with a box saying how it was run (mode, parameters,
  commit, the command that repeats it) and its runs with other parameters (``runs/<mode>/<notebook>-<digest>/``) as
  pages of their own listed under it; exercise solutions folded; a chapter not run yet says so. MyST-NB renders them
  without executing anything (``nb_execution_mode = "off"``).
- **Alt text** (:mod:`.alt`): every figure's ``<img>`` carries the alt text the notebook recorded with it
  (``output.metadata["image/png"]["alt"]``, written by :mod:`genesel.plotting`), which MyST-NB does not pass on by
  itself; a figure without one gets "Figure k under <section>, <chapter>" and a warning.
- **API pages** (:mod:`.apidoc`): ``|w_i|`` and ``ranking_`` in a docstring read as written, not as reST
  substitutions and links.
- **Results** (:mod:`.records`): the directives ``{genesel-onrecord} <notebook>``, ``{genesel-onrecord-table}
  <name>`` and ``{genesel-agreement}`` insert the text :mod:`genesel.records.onrecord` generates from the committed
  tables in ``figures/`` while the site is built.
- **Performance** (:mod:`.performance`): the result files the benchmarks write (``benchmarks/results/<bench>.json``)
  as tables, in ``_generated/benchmarks.md``, which ``performance.md`` includes; a benchmark without a result file
  is listed as not measured.
- **The project's own files** (:func:`copy_project_files`): ``CONTRIBUTING.md`` and ``CHANGELOG.md`` from the
  checkout's root, copied to ``_generated/`` for the contributing and changelog pages to include (links into the
  repository become code spans, the site having no page for them); a file the checkout lacks is replaced by the
  text in ``_fallback/`` that says so.

- **MathJax, offline** (:func:`bundle_mathjax`): the MathJax 3 that the ``sphinx-mathjax-offline`` package ships is
  copied beside the pages and loaded from there, as that package's own extension does (called here rather than
  listed in ``extensions`` because it does not declare itself safe for Sphinx's parallel reading).

Nothing here fetches anything: the site is built and read offline.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["setup", "copy_project_files", "PROJECT_FILES"]


#: page in _generated/ -> (the project's file it shows, the fallback in _fallback/ when the checkout lacks it)
PROJECT_FILES = {"contributing.md": ("CONTRIBUTING.md", "contributing.md"),
                 "changelog.md": ("CHANGELOG.md", "changelog.md")}
_REPO_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?:|mailto:|#)([^)\s]+)\)")


def copy_project_files(srcdir: Path, root: Path) -> None:
    """Copy the project's CONTRIBUTING.md and CHANGELOG.md into ``srcdir/_generated/`` (see the module docstring)."""
    out = Path(srcdir) / "_generated"
    out.mkdir(parents=True, exist_ok=True)
    for page, (name, fallback) in PROJECT_FILES.items():
        source = Path(root) / name
        if source.is_file():
            text = _REPO_LINK.sub(lambda m: f"{m.group(1)} (`{m.group(2)}`)", source.read_text(encoding="utf-8"))
        else:
            text = (Path(srcdir) / "_fallback" / fallback).read_text(encoding="utf-8")
        target = out / page
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")


def _mathjax_dir() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")  # the package's import name has hyphens
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the documentation needs MathJax offline: pip install sphinx-mathjax-offline "
                           "(make install does it: the docs extra)")
    return Path(next(iter(spec.submodule_search_locations))) / "static" / "mathjax"


def bundle_mathjax(app, exc) -> None:
    """``build-finished``: MathJax 3 (tex-chtml, its fonts and extensions) into ``_static/mathjax/``."""
    if exc is None and app.builder.format == "html":
        from sphinx.util.fileutil import copy_asset

        copy_asset(str(_mathjax_dir()), str(Path(app.outdir) / "_static" / "mathjax"))


def _generate(app, config) -> None:
    from .course import write_course

    root = Path(config.genesel_root)
    runs = Path(config.genesel_runs_dir) if config.genesel_runs_dir else root / "runs" / "quick"
    write_course(Path(app.srcdir) / "course", runs, notebooks_dir=root / "notebooks")
    copy_project_files(Path(app.srcdir), root)


def setup(app):
    from . import alt, apidoc, performance, records

    here = Path(__file__).resolve()
    app.add_config_value("genesel_root", str(here.parents[3]), "env")
    app.add_config_value("genesel_runs_dir", "", "env")
    app.add_config_value("genesel_figures_dir", "", "env")
    app.add_config_value("genesel_benchmarks_dir", "", "env")
    app.connect("config-inited", _generate)
    _mathjax_dir()  # fails early, naming the package, when it is missing
    app.connect("build-finished", bundle_mathjax)
    alt.setup(app)
    apidoc.setup(app)
    records.setup(app)
    performance.setup(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
