"""Building the course site from a mode folder: :func:`build_report` (every run, the contents page, the search page
and index), :func:`render_notebook` (one page alone) and the command line, :func:`main`. What the site offers: the
package docstring of :mod:`genesel.experiments.report`."""


from __future__ import annotations

import argparse
import html
import sys
import tempfile
from pathlib import Path

from genesel._core.io import atomic_write

from .render import mode_badge, nav_html, page_exporter, plain_text, render_page, run_info_html, search_box, \
    static_text
from .runs import Run, find_runs, read_run
from .search import page_sections, write_index
from .summary import markdown_inline, notebook_title, summary

__all__ = ["render_notebook", "build_report", "main"]

GENERATOR = '<meta name="generator" content="genesel.experiments.report">'


def _errors(nb) -> int:
    return sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
               if o.get("output_type") == "error")


class _Entry:
    """One run while the site is built: its record, notebook, titles and summary."""

    def __init__(self, path: Path, digest: str | None):
        import nbformat

        self.nb = nbformat.read(str(path), as_version=4)
        self.run: Run = read_run(path, self.nb, digest)
        title_md = notebook_title(self.nb) or path.stem
        self.title = plain_text(title_md)
        self.title_html = markdown_inline(title_md)
        self.summary = summary(self.nb)
        self.errors = _errors(self.nb)


def render_notebook(path: Path, out_dir: Path, exporter=None, template_dir: Path | None = None) -> dict:
    """Render one executed notebook alone (no neighbours) to ``out_dir/<name>.html``; returns its entry
    (``title``, ``file``, ``name``, ``errors``, ``mode``). :func:`build_report` renders a whole mode folder."""
    entry = _Entry(Path(path), None)
    out_dir = Path(out_dir)
    with tempfile.TemporaryDirectory() as tmp:
        exporter = exporter or page_exporter(Path(template_dir or tmp))
        body = render_page(entry.nb, entry.run, exporter, title=entry.title,
                           header=nav_html(None, None) + run_info_html(entry.run, [entry.run]),
                           footer=nav_html(None, None, "bottom"))
    target = out_dir / entry.run.page
    atomic_write(target, lambda t: Path(t).write_text(body, encoding="utf-8"))
    return {"title": entry.title, "file": target.name, "name": entry.run.stem, "errors": entry.errors,
            "mode": entry.run.mode}


def _site_mode(entries: list[_Entry], runs_dir: Path) -> str:
    modes = sorted({e.run.mode for e in entries if e.run.mode})
    if len(modes) == 1:
        return modes[0]
    return runs_dir.name if runs_dir.name in ("quick", "full") else "/".join(modes)


_MODE_SENTENCE = {
    "quick": "<strong>Quick mode</strong>: every notebook ran with <code>quick=True</code>, the reduced protocols "
             "(fewer splits, data sets and genes; minutes), so the numbers are a first look, not the papers' "
             "protocols (<code>make full</code>, hours).",
    "full": "<strong>Full mode</strong>: every notebook ran with <code>quick=False</code>, the papers' own protocols.",
}


_TOP_NAV = ('<nav class="site-nav top" aria-label="Course navigation">'
            '<a class="contents" href="index.html">Contents</a>' + search_box() + "</nav>")


def _page(title: str, body: str, *, page_kind: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
{GENERATOR}
<title>{html.escape(title)}</title>
<style type="text/css">
{static_text("site.css")}
</style></head>
<body class="site" data-page="{page_kind}">
<main class="{page_kind}-page">
{body}
</main>
<script>
{static_text("site.js")}
</script>
</body></html>
"""


def _failed(errors: int) -> str:
    return f' <span class="badge failed">{errors} cell(s) failed</span>' if errors else ""


def _shown_path(runs_dir: Path) -> str:
    """``runs/<mode>`` for a mode folder of the project, else the folder as given."""
    runs_dir = Path(runs_dir)
    return f"runs/{runs_dir.name}" if runs_dir.parent.name == "runs" else str(runs_dir)


def _index_page(groups: list[list[_Entry]], mode: str, runs_dir: Path) -> str:
    from genesel._version import __version__

    items = []
    for group in groups:
        main = group[0]
        meta = [mode_badge(main.run.mode)]
        if not main.run.is_default or not main.run.recorded:
            meta.append(f"<code>{html.escape(main.run.label())}</code>")
        else:
            meta.append("default parameters")
        if main.errors:
            meta.append(_failed(main.errors).strip())
        others = ""
        if len(group) > 1:
            rows = "".join(
                f'<li><a href="{html.escape(e.run.page)}">{html.escape(e.run.label())}</a> — '
                f'{mode_badge(e.run.mode)}{_failed(e.errors)}</li>' for e in group[1:])
            others = f'<ul class="other-runs" aria-label="Other runs">{rows}</ul>'
        items.append(f'<li><a href="{html.escape(main.run.page)}">{main.title_html}</a>'
                     f'<span class="intro">{main.summary}</span>'
                     f'<span class="meta">{" · ".join(meta)}</span>{others}</li>')
    n_other = sum(len(g) - 1 for g in groups)
    other_text = (f" {n_other} run{'s' if n_other != 1 else ''} with other parameters "
                  f"appear{'s' if n_other == 1 else ''} under {'their' if n_other != 1 else 'its'} notebook, labelled "
                  "with the parameters that differ." if n_other else "")
    body = f"""{_TOP_NAV}
<h1>genesel: the five papers, re-run on the public data</h1>
<p>{_MODE_SENTENCE.get(mode, f"Mode: {html.escape(mode or 'not recorded')}.")} Executed notebooks from
<code>{html.escape(_shown_path(runs_dir))}</code>, genesel {html.escape(__version__)}.{other_text}</p>
<p>Every page works offline, with its figures and mathematics; each says at the top which mode and parameters it ran
with, and links to the previous and next notebook. Search the text of all pages with the box above.</p>
<ol class="contents">
{chr(10).join(items)}
</ol>"""
    return _page("genesel: the course", body, page_kind="index")


def _search_page() -> str:
    body = f"""{_TOP_NAV}
<h1>Search</h1>
<div id="search-page-results" aria-live="polite"></div>"""
    return _page("genesel: search", body, page_kind="search")


def _write(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def build_report(runs_dir: Path, out_dir: Path | None = None) -> Path:
    """Render every run in the mode folder ``runs_dir`` (default and parameterised) into the course site in
    ``out_dir`` (default ``runs_dir/report``): a page per run, ``index.html``, ``search.html`` and
    ``search-index.js``. Pages of an earlier build whose run is gone are removed. Returns the path of
    ``index.html``."""
    runs_dir = Path(runs_dir)
    found = find_runs(runs_dir)
    if not found:
        raise FileNotFoundError(f"no executed notebooks in {runs_dir}: run `make run` (or `make full`) first")
    out_dir = Path(out_dir) if out_dir is not None else runs_dir / "report"
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = [_Entry(p, d) for p, d in found]
    groups: list[list[_Entry]] = []
    for e in entries:  # find_runs gives course order, each notebook's default run first
        if groups and groups[-1][0].run.stem == e.run.stem:
            groups[-1].append(e)
        else:
            groups.append([e])
    mains = [g[0] for g in groups]
    pages, written = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        exporter = page_exporter(Path(tmp))
        for gi, group in enumerate(groups):
            prev = (mains[gi - 1].run.page, mains[gi - 1].title) if gi > 0 else None
            nxt = (mains[gi + 1].run.page, mains[gi + 1].title) if gi + 1 < len(mains) else None
            siblings = [e.run for e in group]
            for e in group:
                header = nav_html(prev, nxt) + run_info_html(e.run, siblings)
                body = render_page(e.nb, e.run, exporter, title=e.title, header=header,
                                   footer=nav_html(prev, nxt, "bottom"))
                _write(out_dir / e.run.page, body)
                written.add(e.run.page)
                pages.append({"file": e.run.page, "title": e.title, "label": e.run.label(),
                              "default": e.run.is_default and e.run.digest is None,
                              "sections": page_sections(body)})
    write_index(out_dir, pages)
    _write(out_dir / "search.html", _search_page())
    index = out_dir / "index.html"
    _write(index, _index_page(groups, _site_mode(entries, runs_dir), runs_dir))
    for old in out_dir.glob("*.html"):  # pages of runs that no longer exist
        if old.name not in written | {"index.html", "search.html"} and GENERATOR in old.read_text(errors="replace"):
            old.unlink()
    return index


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m genesel.experiments.report",
                                 description=sys.modules[__package__].__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick",
                    help="which executed notebooks to render (runs/quick or runs/full)")
    ap.add_argument("--runs", type=Path, default=None, help="a folder of executed notebooks (overrides --mode)")
    ap.add_argument("--out", type=Path, default=None, help="output folder (default: <runs>/report)")
    args = ap.parse_args(argv)
    root = Path(__file__).resolve().parents[4]
    runs = args.runs or root / "runs" / args.mode
    try:
        index = build_report(runs, args.out)
    except FileNotFoundError as exc:
        ap.exit(2, f"{ap.prog}: {exc}\n")
    print(f"report: {index}")
    print(f"open it in a browser: {index.as_uri()}")
    return 0

