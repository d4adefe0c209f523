"""A notebook's title and its one-sentence summary for the contents page: :func:`notebook_title`, :func:`summary`.

The sentence is taken from the notebook's opening Markdown (before its first ``##`` section), in this order of
preference: the paragraph introduced by **What this notebook shows.** / **What the paper does.** / **The idea.**
(its first sentence, without the bold lead-in); the learning goals, as "After this notebook you can <first goal>."
(with their own lead-in when they have one); the first prose paragraph that is not the paper's reference;
**What is reproduced.** Sentences are split where a sentence ends (``.``, ``!``, ``?`` before a capital or the
end), never inside code, mathematics, a link or after an abbreviation (e.g., et al., Fig., Eq.), so the sentence is
never cut mid-way. It is rendered from Markdown to HTML (emphasis, code, links, MathML), so no raw Markdown reaches
the page.
"""

from __future__ import annotations

import re

from .mathml import latex_to_mathml

__all__ = ["notebook_title", "summary", "markdown_inline", "first_sentence"]

_LEAD = re.compile(r"^\*\*(?P<lead>[^*]+?)\*\*\s*(?P<rest>.*)$", re.S)
_PREFERRED = re.compile(r"^(what (this notebook|the paper) (shows|does)|the idea|in (short|brief)|summary)\b", re.I)
_GOALS = re.compile(r"^learning goals", re.I)
_REPRODUCED = re.compile(r"^what is reproduced", re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_MASK = re.compile(r"`[^`\n]*`|\$\$.+?\$\$|\$[^$\n]+\$|\[[^\]]*\]\([^)]*\)|<[^>]+>", re.S)
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|cf|vs|al|etc|Fig|Figs|Eq|Eqs|Ref|Sec|No|approx|resp|Dr|Prof|St|p|pp|ch|"
                     r"Vol|ed|eds)|\b[A-Z])\.$")
_END = re.compile(r"[.!?](?:\*{1,2}|_{1,2}|[)\"”’])*(?=\s+[\"“(\[*_`$A-Z0-9]|\s*$)")
_YEAR = re.compile(r"\b(1[89]|20)\d\d\b")


def _first_markdown_cells(nb) -> list[str]:
    """The Markdown of the notebook's opening: every Markdown cell before the first code cell that is not its
    parameters cell, cut at the first ``##`` heading."""
    out = []
    for c in nb.cells:
        if c.cell_type == "code":
            if out:
                break
            continue
        if c.cell_type != "markdown":
            continue
        text = c.source
        cut = re.search(r"^#{2,}\s", text, re.M)
        out.append(text[: cut.start()] if cut else text)
        if cut:
            break
    return out


def notebook_title(nb) -> str:
    """The text of the notebook's first ``#`` heading (Markdown as written), or ``""``."""
    for c in nb.cells:
        if c.cell_type == "markdown":
            m = re.search(r"^#\s+(.+?)\s*#*\s*$", c.source, re.M)
            if m:
                return m.group(1).strip()
    return ""


def _blocks(text: str) -> list[str]:
    """Paragraphs and lists of a Markdown text (blank-line separated), headings dropped."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text)]
    return [b for b in blocks if b and not b.startswith("#")]


def _masked(text: str) -> str:
    """``text`` with code, maths, links and tags replaced by placeholders of the same length (no sentence ends)."""
    return _MASK.sub(lambda m: "x" * len(m.group(0)), text)


def first_sentence(text: str) -> str:
    """The first sentence of a Markdown paragraph (the whole paragraph if it has one sentence); whitespace joined."""
    text = " ".join(text.split())
    masked = _masked(text)
    for m in _END.finditer(masked):
        if not _ABBREV.search(masked[: m.start() + 1]):
            return text[: m.end()].strip()
    return text.strip()


def _paragraph_and_list(block: str) -> tuple[str, list[str]]:
    """A block as its leading paragraph and its list items (continuation lines joined)."""
    para, items = [], []
    for line in block.splitlines():
        if _LIST_ITEM.match(line):
            items.append(_LIST_ITEM.sub("", line).strip())
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()
        elif not items:
            para.append(line.strip())
        else:
            items[-1] += " " + line.strip()
    return " ".join(para), items


def _sentence_from_goals(rest: str, items: list[str]) -> str:
    lead = rest.strip().rstrip(":").strip() or "After this notebook you can"
    if not items:
        return ""
    goal = items[0].rstrip(" ;,.")
    if re.match(r"[A-Z][a-z]", goal):  # "Tell an optimal subset ..." continues "you can": "tell an ..."
        goal = goal[0].lower() + goal[1:]
    goal = re.sub(r"\s*(?:;|,)?\s*(?:and|or)$", "", goal)
    return f"{lead} {goal}."


def _ends_cleanly(sentence: str) -> bool:
    return bool(sentence) and bool(re.search(r"[.!?][*_)\"”’]*$", sentence))


def summary_markdown(nb) -> str:
    """The one-sentence summary of ``nb``, as Markdown (see the module doc), or ``""`` when it has none."""
    blocks = [b for text in _first_markdown_cells(nb) for b in _blocks(text)]
    preferred, goals, prose, reproduced = [], [], [], []
    for i, block in enumerate(blocks):
        para, items = _paragraph_and_list(block)
        m = _LEAD.match(para)
        lead = m["lead"].strip() if m else ""
        rest = m["rest"] if m else para
        if lead and _PREFERRED.match(lead) and rest:
            preferred.append(first_sentence(rest))
        elif lead and _GOALS.match(lead):
            goals.append(_sentence_from_goals(rest, items))
        elif lead and _REPRODUCED.match(lead):
            reproduced.append(first_sentence(rest) if rest.strip() else (first_sentence(items[0]) if items else ""))
        elif not lead and para and not items:
            citation = i == 0 and _YEAR.search(para) and re.search(r"(?<!\*)\*[^*]+\*(?!\*)", para)
            if not citation:
                prose.append(first_sentence(para))
    for sentence in preferred + goals + prose + reproduced:
        if _ends_cleanly(sentence):
            return sentence
    return ""


def markdown_inline(text: str) -> str:
    """Markdown of one paragraph to inline HTML (emphasis, code, links, MathML), without the ``<p>`` around it."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    out = markdown2html_mistune(latex_to_mathml(text)).strip()
    return re.sub(r"^<p>(.*)</p>$", r"\1", out, flags=re.S)


def summary(nb) -> str:
    """The one-sentence summary of ``nb`` as inline HTML, or ``""``."""
    text = summary_markdown(nb)
    return markdown_inline(text) if text else ""
