"""LaTeX in Markdown to MathML, typeset natively by browsers (no MathJax, nothing fetched): :func:`latex_to_mathml`.

The MathML carries no ``xmlns`` attribute: in an HTML page the parser puts ``<math>`` into the MathML namespace by
itself, and without the attribute nbconvert's heading filter (``add_anchor``, which re-serialises a heading with
:mod:`xml.etree.ElementTree`) cannot turn ``<math>`` into ``<ns0:math>``, which browsers do not render. Each
``<math>`` keeps its LaTeX source in ``alttext`` (read by screen readers, and by the site's search index).
"""

from __future__ import annotations

import html
import re

__all__ = ["latex_to_mathml"]

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$\w])\$(?!\s)([^$\n]+?)(?<!\s)\$(?![\w$])")
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
_XMLNS = ' xmlns="http://www.w3.org/1998/Math/MathML"'


def _convert(tex: str, display: str) -> str:
    from latex2mathml.converter import convert

    out = convert(tex, display=display).replace(_XMLNS, "", 1)
    return out.replace("<math ", f'<math alttext="{html.escape(tex, quote=True)}" ', 1)


def latex_to_mathml(text: str) -> str:
    """Replace ``$$...$$`` (display) and ``$...$`` (inline) in Markdown, outside code spans and fenced blocks, by
    MathML; a lone dollar (``cost $5``) and escaped ones (``\\$``) are left alone."""
    parts = _CODE.split(text)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = _INLINE.sub(lambda m: _convert(m.group(1).strip(), "inline"),
                               _DISPLAY.sub(lambda m: _convert(m.group(1).strip(), "block"), parts[i]))
    return "".join(parts)
