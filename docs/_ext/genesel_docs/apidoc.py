"""Docstrings written for ``help()`` read as reStructuredText by autodoc.

genesel's docstrings are numpydoc, read most often as plain text (``help(genesel.SVMRFE)``), where ``|w_i|`` is an
absolute value and ``ranking_`` an attribute. reStructuredText takes the first for a substitution reference and the
second for a link to a target, and docutils prints an error box in the page for each. After numpydoc has turned a
docstring into reStructuredText (``autodoc-process-docstring``, priority 600, numpydoc's is 500), :func:`escape_prose`
escapes, outside inline literals, roles, interpreted text, emphasis and maths, every ``|`` and every ``_`` that ends
a word, so both read as written; a paragraph ending in ``:`` followed by an indented block (pseudo-code, as in
:mod:`genesel.rfe`) makes that block literal, as ``::`` would. Line blocks and grid tables (lines starting with ``| `` or ``+-``) are left alone.
"""

from __future__ import annotations

import re

__all__ = ["escape_prose", "setup"]

# spans left as they are: ``literal``, :role:`text`, `interpreted`, **strong**, *emphasis*
_KEEP = re.compile(r"``.+?``|:[\w:.+-]+:`[^`]+`|`[^`]+`_{0,2}|\*\*[^*]+\*\*|(?<![\w*])\*[^*\s][^*]*\*(?![\w*])")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?![\w\\])")


def _escape_segment(text: str) -> str:
    text = text.replace("|", "\\|")
    return _TRAILING_UNDERSCORE.sub(r"\\_", text)


def escape_prose(line: str) -> str:
    """``line`` with ``|`` and word-ending ``_`` escaped outside the spans reST gives a meaning (see the module)."""
    stripped = line.lstrip()
    if stripped.startswith(("| ", "+-", "+=", "..", ":")):  # line blocks, tables, directives, fields
        return line
    out, last = [], 0
    for m in _KEEP.finditer(line):
        out.append(_escape_segment(line[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_escape_segment(line[last:]))
    return "".join(out)


def _process(app, what, name, obj, options, lines) -> None:
    block, indent = None, 0  # None, "literal" (until a line indented no deeper) or "doctest" (until a blank line)
    for i, line in enumerate(lines):
        stripped = line.strip()
        current = len(line) - len(line.lstrip())
        if block == "doctest":
            if stripped:
                continue
            block = None
        elif block == "literal":
            if not stripped or current > indent:
                continue
            block = None
        if stripped.startswith(">>>"):
            block = "doctest"
            continue
        if stripped.startswith(".."):  # a directive (math, code, note ...): its body is its own
            block, indent = "literal", current
            continue
        if stripped.endswith("::"):  # a literal block follows
            block, indent = "literal", current
            lines[i] = line if stripped == "::" else escape_prose(line[: len(line) - 2]) + "::"
            continue
        if (stripped.endswith(":") and not stripped.startswith((":", "..")) and i + 2 < len(lines) and not lines[i + 1].strip()
                and len(lines[i + 2]) - len(lines[i + 2].lstrip()) > current and lines[i + 2].strip()
                and not re.match(r"\s*(?:[-*+]|\d+[.)])\s", lines[i + 2])):
            # "...:" then a blank line and an indented block: pseudo-code written for help(), a literal block here
            lines[i] = escape_prose(line) + ":"
            block, indent = "literal", current
            continue
        lines[i] = escape_prose(line)


def setup(app) -> None:
    app.connect("autodoc-process-docstring", _process, priority=600)
