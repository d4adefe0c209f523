"""A static HTML report of the executed notebooks, readable offline: ``python -m genesel.experiments.report``.

``make report`` renders the notebooks executed by ``make run`` (``runs/quick/``) or ``make full`` (``runs/full/``)
into ``runs/<mode>/report/``: one HTML page per notebook and a contents page (``index.html``) listing each notebook
with its title, its first paragraph and whether any cell failed. Everything is in the pages themselves, nothing is
fetched from the network (lecture halls and this machine have no internet):

- LaTeX in the Markdown cells (``$...$``, ``$$...$$``) is converted to MathML when the report is built
  (``latex2mathml``), which browsers typeset natively, instead of loading MathJax from a CDN;
- figures are embedded as data URIs, with their titles as alt text (``genesel.plotting.show`` records them);
- nbconvert's lab template is used without its remote scripts (require.js, MathJax, mermaid).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path

from genesel._core.io import atomic_write

__all__ = ["latex_to_mathml", "render_notebook", "build_report", "main"]

_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{% block extra_css %}
<style>
  main { max-width: 1200px; margin: 0 auto; }
  math { font-size: 1.1em; }
  nav.genesel { font: 16px sans-serif; padding: 8px 0; border-bottom: 1px solid #ccc; margin-bottom: 12px; }
</style>
{% endblock extra_css %}
{% block data_png scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}"
{%- set alttext = output | get_metadata('alt', 'image/png') -%}
{%- if alttext is not none %} alt="{{ alttext | escape_html }}"{% endif %}
{%- set width = output | get_metadata('width', 'image/png') -%}
{%- if width is not none %} width="{{ width | escape_html }}"{% endif %} style="max-width: 100%; height: auto">
</div>
{%- endblock data_png %}
{%- block body_header -%}
{{ super() }}
<nav class="genesel"><a href="index.html">Contents</a></nav>
{%- endblock body_header -%}
"""

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$\w])\$(?!\s)([^$\n]+?)(?<!\s)\$(?![\w$])")
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)


def latex_to_mathml(text: str) -> str:
    """Replace ``$$...$$`` and ``$...$`` in Markdown (outside code spans and blocks) by MathML."""
    from latex2mathml.converter import convert

    def display(m):
        return convert(m.group(1).strip(), display="block")

    def inline(m):
        return convert(m.group(1).strip())

    parts = _CODE.split(text)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = _INLINE.sub(inline, _DISPLAY.sub(display, parts[i]))
    return "".join(parts)


def _exporter(template_dir: Path):
    from nbconvert import HTMLExporter

    (template_dir / "genesel_report").mkdir(parents=True, exist_ok=True)
    (template_dir / "genesel_report" / "index.html.j2").write_text(_TEMPLATE)
    (template_dir / "genesel_report" / "conf.json").write_text(json.dumps({"base_template": "lab"}))
    exp = HTMLExporter(template_name="genesel_report", extra_template_basedirs=[str(template_dir)])
    exp.exclude_input_prompt = True
    exp.exclude_output_prompt = True
    return exp


def _summary(nb) -> dict:
    title, intro = "", ""
    for c in nb.cells:
        if c.cell_type == "markdown":
            lines = [ln for ln in c.source.splitlines() if ln.strip()]
            if lines and lines[0].startswith("#") and not title:
                title = lines[0].lstrip("#").strip()
                rest = [ln for ln in lines[1:] if not ln.startswith(("#", "**Learning"))]
                intro = rest[0] if rest else ""
                break
    errors = [c for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    mode = ""
    for c in nb.cells:
        if "injected-parameters" in c.get("metadata", {}).get("tags", []):
            mode = "full" if re.search(r"quick\s*=\s*False", c.source) else "quick"
    return {"title": title or "notebook", "intro": intro, "errors": len(errors), "mode": mode}


def render_notebook(path: Path, out_dir: Path, exporter=None, template_dir: Path | None = None) -> dict:
    """Render one executed notebook to ``out_dir/<stem>.html``; returns its contents-page entry."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
        if c.cell_type == "markdown":
            c.source = latex_to_mathml(c.source)
    if exporter is None:
        exporter = _exporter(template_dir or out_dir / ".templates")
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": _summary(nb)["title"]}})
    target = out_dir / f"{path.stem}.html"
    atomic_write(target, lambda tmp: Path(tmp).write_text(body, encoding="utf-8"))
    return {**_summary(nb), "file": target.name, "name": path.stem}


def build_report(runs_dir: Path, out_dir: Path | None = None) -> Path:
    """Render every executed notebook in ``runs_dir`` and write the contents page; returns its path."""
    runs_dir = Path(runs_dir)
    notebooks = sorted(runs_dir.glob("[0-9]*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no executed notebooks in {runs_dir}: run `make run` (or `make full`) first")
    out_dir = Path(out_dir) if out_dir is not None else runs_dir / "report"
    out_dir.mkdir(parents=True, exist_ok=True)
    exporter = _exporter(out_dir / ".templates")
    entries = [render_notebook(p, out_dir, exporter) for p in notebooks]
    items = "\n".join(
        f'<li><a href="{html.escape(e["file"])}">{html.escape(e["title"])}</a>'
        f'{" — " + html.escape(e["mode"]) + " mode" if e["mode"] else ""}'
        f'{" — <strong>" + str(e["errors"]) + " cell(s) failed</strong>" if e["errors"] else ""}'
        f'<br><span class="intro">{html.escape(e["intro"])}</span></li>' for e in entries)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>genesel: the five papers, re-run</title>
<style>body {{ font: 17px/1.5 sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; }}
li {{ margin-bottom: 1em; }} .intro {{ color: #444; }}</style></head>
<body><h1>genesel: the five papers, re-run on the public data</h1>
<p>Executed notebooks from <code>{html.escape(runs_dir.name)}</code>. Each page is self-contained (figures and
mathematics included) and works offline.</p>
<ol>
{items}
</ol></body></html>
"""
    index = out_dir / "index.html"
    atomic_write(index, lambda tmp: Path(tmp).write_text(page, encoding="utf-8"))
    return index


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m genesel.experiments.report", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick",
                    help="which executed notebooks to render (runs/quick or runs/full)")
    ap.add_argument("--runs", type=Path, default=None, help="a folder of executed notebooks (overrides --mode)")
    ap.add_argument("--out", type=Path, default=None, help="output folder (default: <runs>/report)")
    args = ap.parse_args(argv)
    root = Path(__file__).resolve().parents[3]
    runs = args.runs or root / "runs" / args.mode
    index = build_report(runs, args.out)
    print(f"report: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
