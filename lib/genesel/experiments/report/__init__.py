"""The course site: the executed notebooks as static HTML that works offline, ``python -m genesel.experiments.report``.

``make report`` renders the notebooks executed by ``make run`` (``runs/quick/``) or ``make full`` (``runs/full/``)
into ``runs/<mode>/report/``; open ``index.html`` in a browser, from the file system (nothing is fetched from the
network: lecture halls and this machine have no internet). The site offers:

- **Contents** (``index.html``): the notebooks in course order (00, 01, 02, 03, 04, 05a, 05b, 05c, 06), each with
  its title, one sentence on what it does (:mod:`.summary`), its mode and whether it ran with the default
  parameters, failed cells if any, and its runs with other parameters.
- **One page per run**, with previous / contents / next links in course order at the top and bottom, and a box
  saying which mode and which parameters ran (read from ``metadata.genesel``, which
  :mod:`genesel.records.runner` writes into every executed notebook: ``mode``, ``parameters``, ``defaults``,
  ``overrides``, ``help``), with every parameter's value and default and the command that repeats the run.
  A run with non-default parameters, ``runs/<mode>/<name>-<digest>/<name>.ipynb``, becomes the page
  ``<name>-<digest>.html``, listed under its notebook on the contents page with the parameters that differ
  (:mod:`.runs`); the default run keeps ``<name>.html``.
- **Search** from the box on every page (results as you type, linking to the section) and ``search.html?q=...``
  (all results): the text of every page, section by section (headings, Markdown, tables, outputs, figure titles),
  in ``search-index.js``, a script rather than JSON so that it loads from ``file://`` (:mod:`.search`).
- **Mathematics** as MathML made when the site is built (``latex2mathml``), in headings as in the text, typeset by
  the browser (:mod:`.mathml`).
- **Figures** embedded as data URIs, each with alt text. The alt text is read from the image output's metadata,
  **``output.metadata["image/png"]["alt"]``** (the mime type's own entry; for JPEG/SVG outputs that type's), else
  ``output.metadata["alt"]``; this is nbconvert's own lookup (``get_metadata(output, "alt", "image/png")``) and what
  ``genesel.plotting.show`` and ``genesel.plotting.alt_text_for_figures`` write. Without it: the figure title
  written as a literal in the cell's code, else "Figure <k> under “<section heading>”, notebook “<title>”".
  nbconvert's "No description has been provided for this image" never appears (:mod:`.render`).
- **Exercises**: cells tagged ``solution`` are folded into ``<details><summary>Solution</summary>``.

nbconvert's lab template is used without its remote scripts (require.js, MathJax, mermaid, widgets); the site's
styles (``site.css``, sized for projection) and script (``site.js``, navigation aids and search) are inlined into
every page.
"""

from .build import build_report, main, render_notebook
from .mathml import latex_to_mathml

__all__ = ["latex_to_mathml", "render_notebook", "build_report", "main"]
