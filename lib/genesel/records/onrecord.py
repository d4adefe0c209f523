"""The numbers quoted from the committed full runs, generated from their tables (issue 27): for the documentation
site's results pages and for the README's one sentence.

Every notebook's full run keeps its tables on record beside its figures (:func:`genesel.papers.presentation.record`:
``figures/<paper>_<table>.csv``) with a run record (``figures/<notebook>_run.json``: commit, machine, date,
parameters). Text quotes those numbers only through what this module writes, so a number on the site or in the
README is a number of a committed table, never one typed by hand: change the CSV and the text changes.

- The **documentation site** (``docs/results/``, ``make docs``) calls :func:`block` (a notebook's run and its
  paper-vs-genesel table), :func:`table_block` (a committed table quoted whole, e.g. ``guyon2002_claims``) and
  :func:`agreement_block` (how many cells of each paper's reference tables agree, differ for a cause a test shows,
  or stay unexplained: :mod:`genesel.records.agreement`) while it builds, through the directives of its
  ``genesel_docs`` extension (``{genesel-onrecord}``, ``{genesel-onrecord-table}``, ``{genesel-agreement}``), in
  MyST (``fmt="myst"``): those pages cannot go stale.
- A **Markdown file** (the README) holds generated blocks between markers that ``genesel onrecord`` rewrites and
  ``genesel onrecord --check`` (and ``tests/test_onrecord.py``) finds stale::

      <!-- agreement-headline -->
      ... one sentence: the share of the papers' cells that agree (:func:`genesel.records.agreement.headline`) ...
      <!-- /agreement-headline -->

  and, as the README used to hold them, ``<!-- on-record:<notebook> -->``, ``<!-- on-record-table:<name> -->`` and
  ``<!-- agreement -->`` blocks (GitHub Markdown).

A notebook whose full run is not on record yet gets a block that says so.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pandas as pd

from genesel.records.agreement import headline, notebook_tables, readme_block

__all__ = ["NOTEBOOK_TABLES", "block", "table_block", "agreement_block", "render_readme", "main"]

#: notebook -> (the stem of its paper-vs-genesel table in figures/, the patterns of its other tables there), as the
#: claims modules registered in :data:`genesel.papers.CLAIMS` declare them (``NOTEBOOKS``)
NOTEBOOK_TABLES = notebook_tables()
_MARK = re.compile(r"<!-- on-record:(?P<name>[\w.-]+) -->\n.*?<!-- /on-record:(?P=name) -->", re.S)
_TABLE = re.compile(r"<!-- on-record-table:(?P<name>[\w.-]+) -->\n.*?<!-- /on-record-table:(?P=name) -->", re.S)
_AGREE = re.compile(r"<!-- agreement -->\n.*?<!-- /agreement -->", re.S)
_HEADLINE = re.compile(r"<!-- agreement-headline -->\n.*?<!-- /agreement-headline -->", re.S)
_FORMATS = ("github", "myst")


def _cell(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    return str(v).replace("|", "\\|").replace("\n", " ")


def _markdown(table: pd.DataFrame) -> str:
    cols = list(table.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in table.iterrows():
        lines.append("| " + " | ".join(_cell(row[c]) for c in cols) + " |")
    return "\n".join(lines)


def _run_line(run: dict) -> str:
    p = run.get("provenance", {})
    commit = (p.get("commit") or "unknown")[:10]
    dirty = " with uncommitted code changes" if p.get("dirty") else ""
    m = p.get("machine", {})
    overrides = run.get("overrides") or {}
    params = ", ".join(f"{k} = {v}" for k, v in sorted(overrides.items())) or "its default parameters"
    wall = run.get("wall_seconds")
    took = "" if wall is None else f", {wall / 60:.0f} min wall" if wall >= 90 else f", {wall:.0f} s wall"
    note = f" {run['note']}" if run.get("note") else ""  # e.g. a run resumed from the cell cache
    return (f"Full run of commit `{commit}`{dirty}, {p.get('date', 'date unknown')}, with {params}, on "
            f"{m.get('cpu', 'an unknown CPU')} ({m.get('cores', '?')} cores, {m.get('system', '?')}){took}.{note}")


def _check_format(fmt: str) -> None:
    if fmt not in _FORMATS:
        raise ValueError(f"fmt must be one of {_FORMATS}, got {fmt!r}")


def _folded(summary: str, body: str, fmt: str) -> list[str]:
    """``body`` folded under ``summary``: an HTML ``<details>`` (GitHub, closed) or a sphinx-design dropdown (MyST,
    open)."""
    if fmt == "myst":  # open: on a results page the table is the content; it folds away with a click
        return [f":::{{dropdown}} {summary}", ":open:", "", body, ":::"]
    return [f"<details><summary>{summary}</summary>", "", body, "", "</details>"]


def block(notebook: str, figures: Path, fmt: str = "github") -> str:
    """The generated text of one notebook: where its committed full run came from and its paper-vs-genesel table
    (folded: an HTML ``<details>`` for ``fmt="github"``, a sphinx-design dropdown for ``fmt="myst"``), or a sentence
    saying it is not on record yet."""
    _check_format(fmt)
    figures = Path(figures)
    stem, patterns = NOTEBOOK_TABLES[notebook]
    run_path, table_path = figures / f"{notebook}_run.json", figures / f"{stem}_paper_vs_genesel.csv"
    if not (run_path.exists() and table_path.exists()):
        return f"No full run of `{notebook}` is on record yet (`make full NB={notebook[:3].rstrip('_')}` writes it)."
    run = json.loads(run_path.read_text())
    table = pd.read_csv(table_path, dtype=str, keep_default_na=False)
    others = sorted({p.name for pat in patterns for p in figures.glob(pat) if p != table_path})
    code = f"`figures/{table_path.name}`" if fmt == "myst" else f"<code>figures/{table_path.name}</code>"
    text = [_run_line(run), ""] + _folded(f"{notebook}: paper vs genesel ({len(table)} rows, {code})",
                                          _markdown(table), fmt)
    for variant, vrun, vtable in _variant_runs(notebook, stem, figures):
        vcode = f"`figures/{vtable.name}`" if fmt == "myst" else f"<code>figures/{vtable.name}</code>"
        vt = pd.read_csv(vtable, dtype=str, keep_default_na=False)
        text += ["", f"Its {variant.replace('_', '-')} run: " + _run_line(vrun), ""] + _folded(
            f"{notebook} ({variant.replace('_', '-')}): paper vs genesel ({len(vt)} rows, {vcode})", _markdown(vt), fmt)
        others = [o for o in others if o != vtable.name]
    if others:
        text += ["", "Its other tables on record: " + ", ".join(f"`figures/{o}`" for o in others) + "."]
    return "\n".join(text)


def _variant_runs(notebook: str, stem: str, figures: Path) -> list:
    """The other committed full runs of one notebook with a parameter that writes tables of their own (notebook 06's
    multi-class board: ``figures/06_leaderboard_multiclass_run.json`` beside ``leaderboard_multiclass_*.csv``):
    (the variant's name, its run record, its paper-vs-genesel table) where both are on record."""
    out = []
    for path in sorted(figures.glob(f"{notebook}_*_run.json")):
        variant = path.name[len(notebook) + 1:-len("_run.json")]
        table = figures / f"{stem}_{variant}_paper_vs_genesel.csv"
        if table.exists():
            out.append((variant, json.loads(path.read_text()), table))
    return out


def table_block(name: str, figures: Path) -> str:
    """The committed table ``figures/<name>.csv`` as a Markdown table, or a sentence saying it is not on record."""
    path = Path(figures) / f"{name}.csv"
    if not path.exists():
        return f"`figures/{name}.csv` is not on record yet (a full run of its notebook writes it)."
    return _markdown(pd.read_csv(path, dtype=str, keep_default_na=False)) + f"\n\n(`figures/{name}.csv`)"


def agreement_block(figures: Path) -> str:
    """The agreement count (:func:`genesel.records.agreement.readme_block`) as a Markdown table and its totals."""
    table, totals = readme_block(figures)
    return _markdown(table) + "\n\n" + totals


def render_readme(text: str, figures: Path) -> str:
    """``text`` (a Markdown file such as the README) with every generated block regenerated from ``figures``."""
    text = _HEADLINE.sub(lambda m: f"<!-- agreement-headline -->\n{headline(figures)}\n<!-- /agreement-headline -->",
                         text)
    text = _TABLE.sub(lambda m: (f"<!-- on-record-table:{m.group('name')} -->\n{table_block(m.group('name'), figures)}"
                                 f"\n<!-- /on-record-table:{m.group('name')} -->"), text)
    text = _AGREE.sub(lambda m: f"<!-- agreement -->\n{agreement_block(figures)}\n<!-- /agreement -->", text)

    def sub(m):
        name = m.group("name")
        if name not in NOTEBOOK_TABLES:
            raise ValueError(f"README marker on-record:{name} names no notebook; known: {sorted(NOTEBOOK_TABLES)}")
        return f"<!-- on-record:{name} -->\n{block(name, figures)}\n<!-- /on-record:{name} -->"

    return _MARK.sub(sub, text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel onrecord", description=__doc__.splitlines()[0])
    ap.add_argument("--readme", type=Path, default=Path(__file__).resolve().parents[3] / "README.md")
    ap.add_argument("--figures", type=Path, default=None, help="default: figures/ beside the README")
    ap.add_argument("--check", action="store_true", help="exit 1 if the README's blocks are stale; write nothing")
    args = ap.parse_args(argv)
    figures = args.figures or args.readme.parent / "figures"
    old = args.readme.read_text()
    new = render_readme(old, figures)
    if args.check:
        if new != old:
            print(f"{args.readme}: generated blocks are stale; run genesel onrecord")
            return 1
        return 0
    if new != old:
        args.readme.write_text(new)
    n = sum(len(r.findall(new)) for r in (_MARK, _TABLE, _AGREE, _HEADLINE))
    print(f"{args.readme}: {n} on-record block(s) {'rewritten' if new != old else 'up to date'}")
    return 0

