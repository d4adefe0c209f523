"""The course site's search index: the text of every page by section, written as a script (offline, file://).

:func:`page_sections` splits a rendered page at its headings (each has an ``id``, nbconvert's anchor) and keeps the
text a reader sees there: Markdown, tables and other outputs, figure titles (alt text, unless the site built it),
mathematics as its LaTeX source; not the code of code cells, nor the site's navigation. :func:`write_index` writes
them to ``search-index.js`` as ``window.GENESEL_SEARCH = {pages: [[file, title, run label, is default run], ...],
sections: [[page, anchor, heading, text], ...]}``: a script loaded by a ``<script>`` tag, because browsers refuse
``fetch()`` of a local JSON file from a page opened from the file system. ``site.js`` searches it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from genesel._core.io import atomic_write

__all__ = ["page_sections", "write_index", "SECTION_CHARS"]

#: Text kept per section (a long table is cut here; its beginning is what identifies it).
SECTION_CHARS = 20_000
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_SKIP_TAGS = {"script", "style", "nav", "header", "template", "noscript", "button", "form"}
_BLOCKS = {"p", "div", "li", "tr", "td", "th", "pre", "br", "table", "ul", "ol", "section", "details", "summary",
           "blockquote", "dd", "dt", "caption", "figcaption"} | _HEADINGS


def _is_code_input(tag) -> bool:
    classes = tag.get("class") or []
    if "jp-Cell-inputWrapper" not in classes:
        return False
    cell = tag.find_parent(class_="jp-Cell")
    return cell is not None and "jp-CodeCell" in (cell.get("class") or [])


def _heading_text(tag) -> str:
    parts = []
    for node in tag.descendants:
        if getattr(node, "name", None) == "math":
            parts.append(node.get("alttext") or node.get_text(""))
        elif isinstance(node, str) and not any(getattr(p, "name", None) == "math" for p in node.parents) \
                and not (node.parent is not None and "anchor-link" in (node.parent.get("class") or [])):
            parts.append(str(node))
    return " ".join("".join(parts).split())


def page_sections(html: str) -> list[dict]:
    """The sections of a rendered page: ``[{"anchor", "heading", "text"}]`` in page order. Text before the first
    heading forms a section with an empty anchor and heading."""
    from bs4 import BeautifulSoup, Comment, NavigableString

    soup = BeautifulSoup(html, "html.parser")
    root = soup.find("main") or soup.body or soup
    sections = [{"anchor": "", "heading": "", "parts": []}]

    def walk(node):
        for child in node.children:
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                sections[-1]["parts"].append(str(child))
                continue
            name = child.name
            classes = child.get("class") or []
            if name in _SKIP_TAGS or "site-nav" in classes or "run-info" in classes or _is_code_input(child):
                continue
            if name in _HEADINGS and child.get("id"):
                sections.append({"anchor": child["id"], "heading": _heading_text(child), "parts": []})
                continue
            if name == "math":
                sections[-1]["parts"].append(" " + (child.get("alttext") or child.get_text("")) + " ")
                continue
            if name == "img":  # a figure's title; not a description the site built for it
                if child.get("data-alt") != "built":
                    sections[-1]["parts"].append(" " + (child.get("alt") or "") + " ")
                continue
            if "anchor-link" in classes:
                continue
            walk(child)
            if name in _BLOCKS:
                sections[-1]["parts"].append(" ")

    walk(root)
    out = []
    for s in sections:
        text = " ".join("".join(s["parts"]).split())[:SECTION_CHARS]
        if s["heading"] or text:
            out.append({"anchor": s["anchor"], "heading": s["heading"], "text": text})
    return out


def write_index(out_dir: Path, pages: list[dict]) -> Path:
    """Write ``out_dir/search-index.js`` from ``pages``: ``[{"file", "title", "label", "default", "sections"}]``
    (``sections`` from :func:`page_sections`); returns its path."""
    data = {"pages": [[p["file"], p["title"], p["label"], bool(p["default"])] for p in pages],
            "sections": [[i, s["anchor"], s["heading"], s["text"]]
                         for i, p in enumerate(pages) for s in p["sections"]]}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = re.sub("[\u2028\u2029]", " ", text)
    script = ("/* genesel course site: search index, written by genesel.experiments.report */\n"
              f"window.GENESEL_SEARCH = {text};\n")
    target = Path(out_dir) / "search-index.js"
    atomic_write(target, lambda tmp: Path(tmp).write_text(script, encoding="utf-8"))
    return target
