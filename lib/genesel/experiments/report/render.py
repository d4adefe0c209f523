"""One page of the course site: an executed notebook through nbconvert's JupyterLab template, made offline.

:func:`prepare_notebook` rewrites a copy of the notebook before nbconvert sees it: LaTeX in Markdown cells and in
Markdown outputs becomes MathML (:mod:`.mathml`); every image output gets its alt text in its metadata (see
:func:`figure_alt` and the package docstring for the key); cells tagged ``solution`` are marked to be folded into
``<details><summary>Solution</summary>``. :func:`page_exporter` is the template: the lab template without its remote
scripts (require.js, MathJax, mermaid, widgets), with the site's styles and script inlined and the course navigation
and run information above and below the notebook.
"""

from __future__ import annotations

import ast
import copy
import html
import json
import re
import shlex
from pathlib import Path

from .mathml import latex_to_mathml
from .runs import Run, format_value

__all__ = ["page_exporter", "prepare_notebook", "figure_alt", "plain_text", "nav_html", "run_info_html",
           "render_page", "ALT_KEY", "PLACEHOLDER_ALT"]

#: The output-metadata key the alt text of an image is read from: ``output.metadata[<mime type>]["alt"]``
#: (what ``genesel.plotting.show`` and ``alt_text_for_figures`` write), else ``output.metadata["alt"]``: nbconvert's
#: own lookup (``get_metadata(output, "alt", mime type)``).
ALT_KEY = "alt"
#: What nbconvert writes for an image without alt text; never emitted by the site.
PLACEHOLDER_ALT = "No description has been provided for this image"
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml")
_STATIC = Path(__file__).resolve().parent

_TEMPLATE = r"""{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_css -%}
<meta name="generator" content="genesel.experiments.report">
<style type="text/css">
{{ resources.genesel.css }}
</style>
{%- endblock html_head_css -%}
{%- block any_cell scoped -%}
{%- set fold = cell.metadata.get('genesel_fold', {}) -%}
{%- if fold.get('open') %}
<details class="solution"><summary>Solution</summary>
{%- endif %}
{{ super() }}
{%- if fold.get('close') %}
</details>
{%- endif %}
{%- endblock any_cell -%}
{% block data_png scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}"
 alt="{{ output | get_metadata('alt', 'image/png') | escape_html }}"
{%- if output | get_metadata('genesel_alt_built', 'image/png') %} data-alt="built"{% endif %}
{%- set width = output | get_metadata('width', 'image/png') -%}
{%- if width is not none %} width="{{ width | escape_html }}"{% endif %}>
</div>
{%- endblock data_png %}
{% block data_jpg scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/jpeg;base64,{{ output.data['image/jpeg'] | escape_html }}"
 alt="{{ output | get_metadata('alt', 'image/jpeg') | escape_html }}"
{%- if output | get_metadata('genesel_alt_built', 'image/jpeg') %} data-alt="built"{% endif %}
{%- set width = output | get_metadata('width', 'image/jpeg') -%}
{%- if width is not none %} width="{{ width | escape_html }}"{% endif %}>
</div>
{%- endblock data_jpg %}
{% block data_svg scoped %}
<div class="jp-RenderedSVG jp-OutputArea-output {{ extra_class }}" data-mime-type="image/svg+xml">
<img src="data:image/svg+xml;base64,{{ output.data['image/svg+xml'] | text_base64 | escape_html }}"
 alt="{{ output | get_metadata('alt', 'image/svg+xml') | escape_html }}"
{%- if output | get_metadata('genesel_alt_built', 'image/svg+xml') %} data-alt="built"{% endif %}>
</div>
{%- endblock data_svg %}
{%- block body_header -%}
{{ super() }}
{{ resources.genesel.header }}
{%- endblock body_header -%}
{% block body_footer %}
{{ resources.genesel.footer }}
</main>
<script>
{{ resources.genesel.js }}
</script>
</body>
{% endblock body_footer %}
"""


def static_text(name: str) -> str:
    """The text of one of the site's static files beside this module (``site.css``, ``site.js``)."""
    return (_STATIC / name).read_text(encoding="utf-8")


def page_exporter(template_dir: Path):
    """nbconvert's HTML exporter with the site's template (written into ``template_dir``)."""
    from nbconvert import HTMLExporter

    folder = Path(template_dir) / "genesel_site"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html.j2").write_text(_TEMPLATE, encoding="utf-8")
    (folder / "conf.json").write_text(json.dumps({"base_template": "lab"}), encoding="utf-8")
    exp = HTMLExporter(template_name="genesel_site", extra_template_basedirs=[str(template_dir)])
    exp.exclude_input_prompt = True
    exp.exclude_output_prompt = True
    return exp


def plain_text(markdown: str) -> str:
    """One line of Markdown as plain text: emphasis, code marks and ``$`` dropped, LaTeX commands kept as written."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = text.replace("`", "").replace("$", "")
    return " ".join(text.split())


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def _titles_in_source(source: str) -> list[str]:
    """The figure titles written as string literals in a code cell: ``ax.set_title("...")``, ``fig.suptitle("...")``,
    ``plt.title("...")`` and ``title="..."`` keyword arguments, in source order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics and the like
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("set_title", "suptitle", "title") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and node.args[0].value.strip():
            found.append((node.lineno, node.col_offset, node.args[0].value.strip()))
        for kw in node.keywords:
            if kw.arg in ("title", "suptitle") and isinstance(kw.value, ast.Constant) \
                    and isinstance(kw.value.value, str) and kw.value.value.strip():
                found.append((kw.value.lineno, kw.value.col_offset, kw.value.value.strip()))
    return [t for *_, t in sorted(found)]


def _usable_alt(value) -> str:
    text = " ".join(str(value).split()) if value is not None else ""
    return "" if text.lower() in ("", "figure", "image", PLACEHOLDER_ALT.lower()) else text


def figure_alt(output, mime: str) -> str:
    """The alt text recorded with an image output: ``output.metadata[mime]["alt"]``, else ``output.metadata["alt"]``
    (empty, ``"figure"`` and nbconvert's placeholder count as none); ``""`` when there is none."""
    md = output.get("metadata") or {}
    per_type = md.get(mime) if isinstance(md.get(mime), dict) else {}
    return _usable_alt(per_type.get(ALT_KEY)) or _usable_alt(md.get(ALT_KEY))


def _set_alt(output, mime: str, alt: str) -> None:
    if not isinstance(output.get("metadata"), dict):
        output["metadata"] = {}
    md = output["metadata"]
    if not isinstance(md.get(mime), dict):
        md[mime] = {}
    md[mime][ALT_KEY] = alt  # (a NotebookNode copies a dict assigned to it: write through the stored one)


def _fold_solutions(cells) -> None:
    """Mark runs of consecutive cells tagged ``solution``: the first opens a ``<details>``, the last closes it."""
    tagged = ["solution" in (c.get("metadata", {}).get("tags") or []) for c in cells]
    for i, c in enumerate(cells):
        if tagged[i]:
            c.metadata["genesel_fold"] = {"open": i == 0 or not tagged[i - 1],
                                          "close": i == len(cells) - 1 or not tagged[i + 1]}


def prepare_notebook(nb, title: str):
    """A copy of the executed notebook ``nb`` ready for the template: maths as MathML (Markdown cells and Markdown
    outputs), alt text on every image, solution cells marked for folding. ``title``: the notebook's title (plain
    text), for alt texts that have to be built from it.

    The alt text of an image: the one recorded in its output metadata (:func:`figure_alt`); else the title written
    as a literal in the cell's code (``set_title``/``suptitle``/``title=``) when the cell has as many such titles
    as images; else "Figure <k> under “<section heading>”, notebook “<title>”"."""
    nb = copy.deepcopy(nb)
    heading, count_in_section = title, 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for m in _HEADING.finditer(cell.source):
                heading, count_in_section = plain_text(m.group(2)), 0
            cell.source = latex_to_mathml(cell.source)
            continue
        if cell.cell_type != "code":
            continue
        image_outputs = [o for o in cell.get("outputs", [])
                         if o.get("output_type") in ("display_data", "execute_result")
                         and any(mime in o.get("data", {}) for mime in _IMAGE_TYPES)]
        literal = _titles_in_source(cell.source)
        literal = literal if len(literal) == len(image_outputs) else []
        image_ids = {id(o) for o in image_outputs}
        k = 0
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if "text/markdown" in data:
                md = data["text/markdown"]
                md = "".join(md) if isinstance(md, list) else md
                for m in _HEADING.finditer(md):
                    heading, count_in_section = plain_text(m.group(2)), 0
                data["text/markdown"] = latex_to_mathml(md)
            if id(o) in image_ids:
                count_in_section += 1
                for mime in _IMAGE_TYPES:
                    if mime in data:
                        alt = figure_alt(o, mime) or (literal[k] if literal else "")
                        built = not alt
                        if built:
                            alt = f"Figure {count_in_section} under “{heading}”, notebook “{title}”"
                        _set_alt(o, mime, alt)
                        if built:  # a description, not a title: marked, so that the search leaves it out
                            o["metadata"][mime]["genesel_alt_built"] = True
                k += 1
    _fold_solutions(nb.cells)
    return nb


def _nav_link(href: str, text: str, cls: str) -> str:
    arrow = '<span class="arrow" aria-hidden="true">{}</span>'.format("←" if cls == "prev" else "→")
    label = f'<span class="t">{html.escape(text)}</span>'
    inner = arrow + label if cls == "prev" else label + arrow
    return (f'<a class="{cls}" href="{html.escape(href)}" rel="{cls}" title="{html.escape(text)}">'
            f'<span class="sr-only">{"Previous" if cls == "prev" else "Next"}: </span>{inner}</a>')


def search_box() -> str:
    return ('<form class="site-search" action="search.html" method="get" role="search">'
            '<input type="search" name="q" placeholder="Search the course" aria-label="Search the course" '
            'autocomplete="off"><div class="search-panel" hidden></div></form>')


def nav_html(prev: tuple[str, str] | None, nxt: tuple[str, str] | None, where: str = "top") -> str:
    """Previous / contents / next (``(href, title)`` or ``None``), and at the top the search box."""
    parts = [_nav_link(*prev, "prev") if prev else '<span class="prev disabled">first notebook</span>',
             '<a class="contents" href="index.html">Contents</a>',
             _nav_link(*nxt, "next") if nxt else '<span class="next disabled">last notebook</span>']
    if where == "top":
        parts.append(search_box())
    return f'<nav class="site-nav {where}" aria-label="Course navigation">' + "".join(parts) + "</nav>"


def mode_badge(mode: str) -> str:
    if not mode:
        return '<span class="badge">mode not recorded</span>'
    return f'<span class="badge {html.escape(mode)}">{html.escape(mode)} mode</span>'


_MODE_TEXT = {
    "quick": "the reduced protocol of quick mode (minutes; <code>make full</code> runs the papers' protocols)",
    "full": "the papers' full protocols"}


def rerun_command(run: Run) -> str:
    """The command that repeats ``run`` (its notebook, mode and changed parameters)."""
    prefix = re.match(r"\d+[a-z]*", run.stem)
    cmd = ["genesel", "run", "--mode", run.mode or "quick"]
    if run.overrides:
        cmd += ["-y", json.dumps(run.overrides, ensure_ascii=False)]
    cmd.append(prefix.group(0) if prefix else run.stem)
    return " ".join(shlex.quote(c) for c in cmd)


def run_info_html(run: Run, siblings: list[Run]) -> str:
    """The box at the top of a page: mode, which parameters differ from the defaults, the other runs of the same
    notebook, and (folded) every parameter with its value, default and help, and the command that repeats the run."""
    lines = []
    if not run.recorded:
        lines.append(f"<p>{mode_badge(run.mode)} <strong>Parameters not recorded</strong>: this notebook was executed "
                     "before genesel recorded them; run it again to see them here.</p>")
    elif run.overrides:
        changed = ", ".join(
            f"<code>{html.escape(k)} = {html.escape(format_value(v, 80))}</code> (default "
            f"<code>{html.escape(format_value(run.defaults.get(k), 80))}</code>)" for k, v in run.overrides.items())
        lines.append(f'<p>{mode_badge(run.mode)} <span class="badge changed">parameters changed</span> '
                     f"This run used {changed}; everything else as by default, in "
                     f"{_MODE_TEXT.get(run.mode, 'an unrecorded mode')}.</p>")
    else:
        lines.append(f"<p>{mode_badge(run.mode)} <strong>Default parameters</strong>, in "
                     f"{_MODE_TEXT.get(run.mode, 'an unrecorded mode')}.</p>")
    others = [s for s in siblings if s is not run]
    if others:
        links = ", ".join(f'<a href="{html.escape(s.page)}">{html.escape(s.label())}</a>' for s in others)
        lines.append(f'<p class="other-runs">Other runs of this notebook: {links}.</p>')
    if run.recorded and run.parameters:
        rows = []
        for name, value in run.parameters.items():
            shown = (run.mode == "quick") if name == "quick" and run.mode else value
            cls = ' class="changed"' if name in run.overrides else ""
            rows.append(f"<tr{cls}><td><code>{html.escape(name)}</code></td>"
                        f"<td><code>{html.escape(format_value(shown))}</code></td>"
                        f"<td><code>{html.escape(format_value(run.defaults.get(name)))}</code></td>"
                        f'<td class="help">{html.escape(str(run.help.get(name) or ""))}</td></tr>')
        lines.append("<details><summary>All parameters of this run</summary><table><thead><tr><th>parameter</th>"
                     "<th>value</th><th>default</th><th>meaning</th></tr></thead><tbody>" + "".join(rows) +
                     f"</tbody></table><p>Run it again: <code>{html.escape(rerun_command(run))}</code></p></details>")
    return '<section class="run-info" aria-label="How this page was run">' + "".join(lines) + "</section>"


def render_page(nb, run: Run, exporter, *, title: str, header: str, footer: str) -> str:
    """The HTML of one page: ``nb`` prepared (:func:`prepare_notebook`) and exported, with ``header`` (navigation,
    run information) and ``footer`` around it. Never contains nbconvert's placeholder alt text."""
    page_title = title if run.is_default else f"{title} ({run.label(40)})"
    resources = {"metadata": {"name": page_title},
                 "genesel": {"css": static_text("site.css"), "js": static_text("site.js"), "header": header,
                             "footer": footer}}
    body, _ = exporter.from_notebook_node(prepare_notebook(nb, title), resources=resources)
    if PLACEHOLDER_ALT in body:  # an image the preparation did not see (e.g. an <img> inside an HTML output)
        body = body.replace(f'alt="{PLACEHOLDER_ALT}"', f'alt="{html.escape("Image in notebook “" + title + "”")}"')
    return body
