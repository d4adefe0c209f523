"""Text that cannot be true of any run, found in an executed notebook's outputs (issue 26): a range whose two ends
agree ("0.52–0.52", "5–5 splits"), a name said twice ("Colon: Colon: ..."), ``nan%`` or a ``NaN`` table cell, an
impossible spread ("22.2±-*", "± nan"), a missing value printed as Python or pandas shows it (``None``, ``NaT``,
``<NA>``), a rounded negative zero ("-0.00"), and a table whose rows are numbered by a bare 0..n index.

Used by tests/test_notebooks.py on every notebook run in quick mode: with its defaults, on a second data set and on a
user's file."""

from __future__ import annotations

import html
import re

__all__ = ["scan_text", "scan_html_tables", "scan_notebook"]

_NUM = r"\d+(?:[.,]\d+)?"
PATTERNS = {
    "a range whose ends agree": re.compile(rf"(?<![\w.,])({_NUM})\s*%?\s*[–—]\s*\1(?![\w]|[.,]\d)"),
    "a name said twice": re.compile(r"(?<![\w-])([A-Z][\w.()' -]{0,40}?): \1:"),
    "nan% or nan as a value": re.compile(r"(?<![\w-])(?:nan|NaN)(?:\s?%|(?![\w-]))"),
    "an impossible spread": re.compile(r"±\s*(?:-|nan|NaN|inf)"),
    "a missing value shown as None/NaT/<NA>":
        re.compile(r"(?:^|[\s(:=])(?:None(?!\s+of\b)|NaT|<NA>)(?=[\s),;.]|$)"),  # "None of them ..." is English
    "a negative zero": re.compile(r"(?<![\w.])[-−]0(?:[.,]0+)?(?![.,]?\d|\w)"),
}
_CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
_ROW_HEAD = re.compile(r"<tr[^>]*>\s*<th[^>]*>(.*?)</th>", re.S)
_TBODY = re.compile(r"<tbody[^>]*>(.*?)</tbody>", re.S)
_TAG = re.compile(r"<[^>]+>")


def scan_text(text: str, where: str = "") -> list[str]:
    """Problems in a piece of prose or plain output: one string each, naming the pattern and quoting it."""
    out = []
    for what, pat in PATTERNS.items():
        for m in pat.finditer(text):
            lo, hi = max(0, m.start() - 40), min(len(text), m.end() + 40)
            out.append(f"{where}: {what}: …{text[lo:hi]!r}…")
    return out


def scan_html_tables(text: str, where: str = "") -> list[str]:
    """Problems in HTML tables: cells as above, and a body whose row headers are exactly 0, 1, ..., n-1."""
    out = []
    for body in _TBODY.findall(text):
        heads = [html.unescape(_TAG.sub("", h)).strip() for h in _ROW_HEAD.findall(body)]
        if heads and heads == [str(i) for i in range(len(heads))]:
            out.append(f"{where}: a table with a bare 0..{len(heads) - 1} index: {body[:200]!r}")
    for cell in _CELL.findall(text):
        out += scan_text(html.unescape(_TAG.sub("", cell)).strip(), where)
    return out


def _prose(text: str) -> str:
    return _TAG.sub(" ", text)


def scan_notebook(nb, name: str = "") -> list[str]:
    """Every problem in the outputs of an executed notebook (an ``nbformat`` node or its JSON as a dict)."""
    out = []
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] != "code":
            continue
        for o in c.get("outputs", []):
            where = f"{name} cell {i}"
            if o.get("output_type") == "stream":
                out += scan_text("".join(o.get("text", "")), where)
                continue
            data = o.get("data", {})
            if "text/html" in data:
                text = "".join(data["text/html"])
                out += scan_html_tables(text, where)
                out += scan_text(_prose(_CELL.sub(" ", text)), where)
            elif "text/markdown" in data:
                out += scan_text("".join(data["text/markdown"]), where)
            elif "text/plain" in data and "image/png" not in data:
                out += scan_text("".join(data["text/plain"]), where)
            alt = (o.get("metadata", {}).get("image/png") or {}).get("alt") or o.get("metadata", {}).get("alt")
            if alt:
                out += scan_text(alt, f"{where} (figure title)")
    return out
