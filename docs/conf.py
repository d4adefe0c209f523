"""Sphinx configuration of genesel's documentation site: ``make docs`` (or ``python -m sphinx -b html docs
docs/_build/html``) builds ``docs/_build/html/index.html``.

Built offline and read offline: MathJax is bundled (``sphinx-mathjax-offline``), the theme ships its own fonts and
icons, nothing is executed (the course chapters are the notebooks ``make run`` already executed, ``runs/quick/``;
``GENESEL_DOCS_RUNS=runs/full`` shows ``make full``'s; ``GENESEL_DOCS_ROOT`` names the checkout when these sources
are built from a copy, as the tests do). What the site generates from the project while it builds
(course chapters, alt text, results, performance) is the local extension ``_ext/genesel_docs``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("GENESEL_DOCS_ROOT", DOCS.parent)).resolve()  # the checkout the site is built from
for path in (DOCS / "_ext", ROOT, ROOT / "lib"):  # this checkout's package first, as the tests run it
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import genesel  # noqa: E402

project = "genesel"
author = "the genesel developers"
copyright = "the genesel developers (BSD-3-Clause)"
version = release = genesel.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_design",
    "sphinx_copybutton",
    "genesel_docs",   # with MathJax bundled from sphinx-mathjax-offline
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "_fallback", "_templates", "_ext", "**.ipynb_checkpoints", "course/_alt.json"]
templates_path = ["_templates"]
nitpicky = False
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type", "toc.not_included"]

# ------------------------------------------------------------------------------------------------------- MyST
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "attrs_inline", "substitution"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

# ----------------------------------------------------------------------------------------------------- MyST-NB
nb_execution_mode = "off"              # the chapters are the runs of `make run` (or `make full`): nothing runs here
nb_render_markdown_format = "myst"     # Markdown outputs with their $maths$
nb_merge_streams = True
nb_output_stderr = "show"
nb_render_image_options = {}

# ---------------------------------------------------------------------------------------------- the extension
genesel_root = str(ROOT)
genesel_runs_dir = os.environ.get("GENESEL_DOCS_RUNS", str(ROOT / "runs" / "quick"))
genesel_figures_dir = os.environ.get("GENESEL_DOCS_FIGURES", str(ROOT / "figures"))
genesel_benchmarks_dir = os.environ.get("GENESEL_DOCS_BENCHMARKS", str(ROOT / "benchmarks"))

# ------------------------------------------------------------------------------------------ API reference
autosummary_generate = True
autosummary_ignore_module_all = False   # a module's public names are its __all__
autosummary_imported_members = False
autodoc_default_options = {"members": True, "inherited-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"             # numpydoc's Parameters sections say the types
autodoc_mock_imports = []
numpydoc_show_class_members = False    # the class template lists them
numpydoc_class_members_toctree = False
numpydoc_show_inherited_class_members = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# ---------------------------------------------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"genesel {release}"
html_static_path = ["_static"]
html_css_files = ["genesel.css"]
html_js_files = ["genesel.js"]
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "navbar_align": "left",
    "icon_links": [],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    # every page but the chapters (course/*: none) shows its sections on the right; the chapters take the full width
    # for their figures and tables (a * stops at a /)
    "secondary_sidebar_items": {"*": ["page-toc"], "results/*": ["page-toc"], "api/*": ["page-toc"],
                                "api/generated/*": ["page-toc"]},
    "show_prev_next": True,
    "pygments_light_style": "default",
    "pygments_dark_style": "monokai",
}
html_sidebars = {"index": [], "getting-started": [], "own-data": [], "performance": [], "architecture": [],
                 "cluster": [], "contributing": [], "changelog": []}
html_context = {"default_mode": "light"}
mathjax_path = "mathjax/tex-chtml.js"  # bundled (genesel_docs.bundle_mathjax): nothing is fetched
mathjax3_config = {"chtml": {"scale": 1.0}, "options": {"enableMenu": False}}
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True


def _skip_member(app, what, name, obj, skip, options):
    """scikit-learn's generated metadata-routing setters (``set_fit_request`` ...) are not genesel's API."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_member)
