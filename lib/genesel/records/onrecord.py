"""The README's numbers, generated from the tables the full runs committed (issue 27).

Every notebook's full run keeps its tables on record beside its figures (:func:`genesel.papers.presentation.record`:
``figures/<paper>_<table>.csv``) with a run record (``figures/<notebook>_run.json``: commit, machine, date,
parameters). The README quotes those numbers only through blocks this module writes between markers::

    <!-- on-record:05c_tan2006_stability -->
    ... generated: the paper-vs-genesel table of the committed full run, and where the run came from ...
    <!-- /on-record:05c_tan2006_stability -->

and, for a table quoted whole, ``<!-- on-record-table:guyon2002_claims -->`` (the CSV ``figures/guyon2002_claims.csv``
as a Markdown table), and ``<!-- agreement -->`` (how many cells of each paper's reference tables agree, differ
for a cause a test shows, or stay unexplained: :mod:`genesel.records.agreement`), so a number in the README is
a number of a committed table, never one typed by hand: change the CSV and the text changes (``genesel onrecord``
rewrites the blocks; ``--check`` fails when they are stale, as
``tests/test_onrecord.py`` does). A notebook whose full run is not on record yet gets a block that says so.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pandas as pd

from genesel.records.agreement import notebook_tables, readme_block

__all__ = ["NOTEBOOK_TABLES", "block", "render_readme", "main"]

#: notebook -> (the stem of its paper-vs-genesel table in figures/, the patterns of its other tables there), as the
#: claims modules registered in :data:`genesel.papers.CLAIMS` declare them (``NOTEBOOKS``)
NOTEBOOK_TABLES = notebook_tables()
_MARK = re.compile(r"<!-- on-record:(?P<name>[\w.-]+) -->\n.*?<!-- /on-record:(?P=name) -->", re.S)
_TABLE = re.compile(r"<!-- on-record-table:(?P<name>[\w.-]+) -->\n.*?<!-- /on-record-table:(?P=name) -->", re.S)
_AGREE = re.compile(r"<!-- agreement -->\n.*?<!-- /agreement -->", re.S)


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


def block(notebook: str, figures: Path) -> str:
    """The generated README text of one notebook: where its committed full run came from and its paper-vs-genesel
    table (in a folded section), or a sentence saying it is not on record yet."""
    figures = Path(figures)
    stem, patterns = NOTEBOOK_TABLES[notebook]
    run_path, table_path = figures / f"{notebook}_run.json", figures / f"{stem}_paper_vs_genesel.csv"
    if not (run_path.exists() and table_path.exists()):
        return f"No full run of `{notebook}` is on record yet (`make full NB={notebook[:3].rstrip('_')}` writes it)."
    run = json.loads(run_path.read_text())
    table = pd.read_csv(table_path, dtype=str, keep_default_na=False)
    others = sorted({p.name for pat in patterns for p in figures.glob(pat) if p != table_path})
    text = [_run_line(run), "",
            f"<details><summary>{notebook}: paper vs genesel ({len(table)} rows, "
            f"<code>figures/{table_path.name}</code>)</summary>", "", _markdown(table), "", "</details>"]
    if others:
        text += ["", "Its other tables on record: " + ", ".join(f"`figures/{o}`" for o in others) + "."]
    return "\n".join(text)


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
    """``text`` with every on-record block regenerated from ``figures``."""
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
            print(f"{args.readme}: on-record blocks are stale; run genesel onrecord")
            return 1
        return 0
    if new != old:
        args.readme.write_text(new)
    n = len(_MARK.findall(new)) + len(_TABLE.findall(new)) + len(_AGREE.findall(new))
    print(f"{args.readme}: {n} on-record block(s) {'rewritten' if new != old else 'up to date'}")
    return 0

