"""How many cells of the papers' tables genesel reproduces, by one stated rule, counted from the committed full-run
tables (issues 27, 39).

Every notebook's full run commits its tables beside its figures (``figures/<paper>_<table>.csv``, written by
:func:`genesel.papers.presentation.record`). Each reproduced paper declares, in a claims module of its own
(``genesel.papers.<paper>_claims``, ``genesel.leaderboard.claims``; registered in :data:`genesel.papers.CLAIMS`),
which of its printed cells a committed table compares, with which rule, and which differences a test accounts for.
This module names no paper: it holds the rule, applies each module's declarations and counts.

**The rule: within one sample.** A printed number stands for the interval its last digit allows (``82.3`` for
[82.25, 82.35]; a thesis that truncates, for [82.25, 82.4)); two numbers agree when their intervals are no further
apart than one sample of the quantity:

- an error count (one run's, or a mean over repeated cross-validations): 1 error;
- an accuracy or error rate on m samples (a test set, a leave-one-out or a cross-validation over m samples): the
  counts the printed percentages allow differ by at most 1 (the thesis' 63.3 % of 30 is 19, genesel's 66.7 % is
  20: they agree);
- an error rate averaged over random splits of a data set of n samples: 100/n points (1/n as a fraction);
- a number of genes, stumps, rounds or optimal subsets: 1, or 10 % of the larger, whichever is larger;
- a stability S (Tan's Tables 5.3, 5.5; no sample unit): 0.02;
- an AUC read off a figure: the paper's value inside genesel's 95 % interval.

A cell is one printed number (a composite like Tan's "53 / 83.3% / 416" is three cells). **Comparable** means the
paper's data (as far as the paper lets it be rebuilt) under the paper's protocol; everything else is listed with
the reason it is not compared: a substitute data set or another sample of the task, data that is not public, a
value garbled or illegible in the text, a number with no counterpart, a timing on other hardware, genesel's
unbiased variant of a biased protocol or another protocol shown beside the paper's, a claim in words.

A comparable cell that differs is **explained** only when an entry of its paper's ``EXPLAINED`` names a test that
brings it within the paper's noise by the stated cause; **not from the protocol** only when the entry's test spans
the protocol's stated choices and shows the paper's number out of reach of all of them on these data; an entry of
kind ``"unresolved"`` points at a test that shows what is known while the cell stays **unexplained**, as does
everything else that differs. ``tests/test_agreement.py`` checks that every entry names a test that exists and a
cell that differs.

``genesel agreement`` prints the count per paper and table, ``--rows`` every cell's verdict; :func:`headline` is
the one sentence for the README's first screen; the README's ``<!-- agreement -->`` block is
:func:`readme_block` (``genesel.records.onrecord`` writes it).
"""

from __future__ import annotations

import argparse
import importlib
import numbers
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = ["Explained", "Printed", "printed", "exact", "gap", "within", "counts_of", "count_rule", "rate_rule",
           "sample_rule", "size_rule", "tolerance_rule", "interval_rule", "cell", "judged", "not_comparable", "claim",
           "registered", "notebook_tables", "judge_rows", "tally", "readme_block", "headline", "main",
           "COMPARABLE", "APART"]

#: verdicts of a comparable cell, and the categories counted apart
COMPARABLE = ("agrees", "explained", "not from the protocol", "unexplained")
APART = ("claims", "unbiased variant", "other protocol", "not comparable")
_KINDS = {"cause": "explained", "not from the protocol": "not from the protocol", "unresolved": "unexplained"}
_EPS = 1e-9
_NUM = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
FIGURES = Path(__file__).resolve().parents[3] / "figures"


# ----------------------------------------------------------------------------------------------------------------
# printed numbers and the one rule
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """A number as printed: its value and the place of its last printed digit (``unit``; 0 for an exact value)."""

    value: float
    unit: float = 0.0

    def interval(self, truncated: bool = False) -> tuple[float, float]:
        """The values the print stands for: [v - u/2, v + u/2]; a print that may also be truncated (the thesis
        prints 28/34 = 82.35 % as 82.3 and 23/30 = 76.67 % as 76.7): [v - u/2, v + u]."""
        return self.value - self.unit / 2, self.value + (self.unit if truncated else self.unit / 2)


def printed(x) -> Printed:
    """The first number of ``x`` with the place of its last printed digit: a string as printed (``"14"``: unit 1, a
    mean printed to the unit), a float whose ``repr`` is how it was printed (``83.3``: 0.1), an integer (a count:
    exact). :func:`exact` marks a string or float as exact."""
    if isinstance(x, Printed):
        return x
    if isinstance(x, bool):
        raise TypeError(f"a printed number, not {x!r}")
    if isinstance(x, numbers.Integral):
        return Printed(float(x), 0.0)
    text = repr(float(x)) if isinstance(x, numbers.Real) else str(x)
    m = _NUM.search(text.replace("−", "-"))
    if m is None:
        raise ValueError(f"no number in {x!r}")
    tok = m.group(0)
    decimals = len(tok.split(".", 1)[1]) if "." in tok else 0
    return Printed(float(tok), 10.0 ** -decimals)


def exact(x) -> Printed:
    """A number that is exact as printed (a count: ``"14"`` errors), whatever its digits."""
    return Printed(printed(x).value, 0.0)


def gap(paper, genesel, *, truncated: bool = False) -> float:
    """Distance between the intervals two printed numbers stand for (0 when they overlap)."""
    p, g = printed(paper), printed(genesel)
    plo, phi = p.interval(truncated)
    glo, ghi = g.interval()
    return max(0.0, glo - phi, plo - ghi)


def within(paper, genesel, tol: float, *, truncated: bool = False) -> bool:
    """The two printed numbers are no more than ``tol`` apart (interval distance, with a float margin)."""
    return gap(paper, genesel, truncated=truncated) <= tol + _EPS


def counts_of(percent, m: int, *, truncated: bool = False) -> list[int]:
    """The counts k of m whose 100 k / m the printed percentage stands for."""
    lo, hi = printed(percent).interval(truncated)
    return [k for k in range(int(m) + 1) if lo - _EPS <= 100.0 * k / m <= hi + _EPS]


def count_rule(paper, genesel) -> tuple[bool, str]:
    """An error count, or a mean of error counts over repeated cross-validations: within 1."""
    return within(paper, genesel, 1.0), "within 1 error"


def rate_rule(paper, genesel, n: int, *, percent: bool = True) -> tuple[bool, str]:
    """An error rate averaged over random splits of a data set of n samples: within 100/n points (1/n as a
    fraction)."""
    tol = (100.0 if percent else 1.0) / n
    return within(paper, genesel, tol), (f"within 100/{n} points" if percent else f"within 1/{n}")


def sample_rule(paper_pct, genesel_pct, m: int, *, truncated: bool = False) -> tuple[bool, str]:
    """An accuracy or error rate on m samples: the counts the two printed percentages allow differ by at most 1.
    A print no count of m matches (a misprint) falls back to 100/m points."""
    rule = f"within 1 of {m} samples"
    pk, gk = counts_of(paper_pct, m, truncated=truncated), counts_of(genesel_pct, m)
    if pk and gk:
        return min(abs(a - b) for a in pk for b in gk) <= 1, rule
    return within(paper_pct, genesel_pct, 100.0 / m, truncated=truncated), rule + " (100/m points)"


def size_rule(paper, genesel) -> tuple[bool, str]:
    """A number of genes, stumps, rounds or subsets: within 1 or 10 % of the larger, whichever is larger."""
    p, g = printed(paper), printed(genesel)
    tol = max(1.0, 0.1 * max(abs(p.value), abs(g.value)))
    return within(p, g, tol), "within 1 or 10 %"


def tolerance_rule(paper, genesel, tol: float, what: str) -> tuple[bool, str]:
    """A quantity without a sample unit: within a stated tolerance."""
    return within(paper, genesel, tol), f"within {tol:g} ({what})"


def interval_rule(paper, lo: float, hi: float) -> tuple[bool, str]:
    """A value read off a figure: inside genesel's 95 % interval [lo, hi] (the read-off value's print widens it)."""
    plo, phi = printed(paper).interval()
    return (phi >= lo - _EPS and plo <= hi + _EPS), "inside genesel's 95 % interval"


# ----------------------------------------------------------------------------------------------------------------
# cells and what a test accounts for
# ----------------------------------------------------------------------------------------------------------------


def cell(table: str, quantity: str, paper_value, genesel, verdict: str, why: str = "", *, protocol: str = "",
         paper: str | None = None) -> dict:
    """One cell of a paper's table: its reference ``table``, ``quantity``, the ``paper_value`` and genesel's value as
    shown, a ``verdict`` ('agrees', 'differs', a category of :data:`APART` or a claim verdict) and ``why`` (the rule
    applied, or the reason it is not compared). ``paper`` overrides the module's paper name."""
    row = {"table": table, "quantity": quantity, "protocol": protocol, "paper value": str(paper_value),
           "genesel": str(genesel), "verdict": verdict, "why": why}
    if paper is not None:
        row["paper"] = paper
    return row


def judged(table: str, quantity: str, paper_value, genesel, rule: tuple[bool, str], **kw) -> dict:
    """A comparable cell judged by ``rule`` (the ``(agrees, description)`` of one of the rule functions)."""
    ok, why = rule
    return cell(table, quantity, paper_value, genesel, "agrees" if ok else "differs", why, **kw)


def not_comparable(table: str, quantity: str, paper_value, genesel, why: str, **kw) -> dict:
    """A cell of the paper's table that is not compared, and why."""
    return cell(table, quantity, paper_value, genesel, "not comparable", why, **kw)


def claim(table: str, quantity: str, paper_value, genesel, **kw) -> dict:
    """A claim in words: its verdict where genesel's cell states one ('holds', 'holds partly', 'does not hold'),
    else 'claim' (the notebook's prose weighs it)."""
    low = str(genesel).lower()
    if "partly" in low:
        verdict = "claim holds partly"
    elif "does not hold" in low:
        verdict = "claim does not hold"
    elif re.search(r"(^|: )holds\b", low):
        verdict = "claim holds"
    else:
        verdict = "claim"
    return cell(table, quantity, paper_value, genesel, verdict, "a claim in words", **kw)


@dataclass(frozen=True)
class Explained:
    """A difference from a paper that a test accounts for. ``table``, ``quantity`` (and optionally ``protocol``):
    regular expressions on a cell's fields; ``test``: the pytest node id (``tests/...py::test_name``); ``cause``:
    one sentence. ``kind``: ``"cause"`` when the test brings the cell within the paper's noise by the stated
    cause; ``"not from the protocol"`` when the test spans the protocol's stated choices and none gives the
    paper's number on these data; ``"unresolved"`` when the test shows what is known (a partial cause, a bound)
    and the cell stays unexplained."""

    table: str
    quantity: str
    test: str
    cause: str
    protocol: str | None = None
    kind: str = "cause"

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"Explained.kind must be one of {sorted(_KINDS)}, got {self.kind!r}")

    def matches(self, row) -> bool:
        return (re.search(self.table, str(row["table"])) is not None
                and re.search(self.quantity, str(row["quantity"])) is not None
                and (self.protocol is None or re.search(self.protocol, str(row["protocol"])) is not None))


# ----------------------------------------------------------------------------------------------------------------
# the registered papers
# ----------------------------------------------------------------------------------------------------------------


def registered() -> list:
    """The claims modules of :data:`genesel.papers.CLAIMS`, imported, in their order."""
    from genesel.papers import CLAIMS

    return [importlib.import_module(name) for name in CLAIMS]


def notebook_tables(modules=None) -> dict:
    """notebook -> (the stem of its paper-vs-genesel table in figures/, the patterns of its other tables there), as
    the registered claims modules declare them (``NOTEBOOKS``)."""
    out = {}
    for mod in registered() if modules is None else modules:
        for nb, spec in mod.NOTEBOOKS.items():
            if nb in out:
                raise ValueError(f"notebook {nb} is declared by two claims modules ({mod.__name__} and another)")
            out[nb] = spec
    return dict(sorted(out.items()))


def _account(row: dict, explained) -> dict:
    row = {**row, "test": ""}
    if row["verdict"] != "differs":
        return row
    hit = [e for e in explained if e.matches(row)]
    if not hit:
        row["verdict"] = "unexplained"
        return row
    e = hit[0]
    row["verdict"], row["test"] = _KINDS[e.kind], e.test
    row["why"] = (f"{row['why']}; " if row["why"] else "") + ("what is known: " if e.kind == "unresolved" else "") \
        + e.cause
    return row


COLUMNS = ["paper", "table", "quantity", "protocol", "paper value", "genesel", "verdict", "why", "test"]


def judge_rows(figures: Path = FIGURES, modules=None) -> pd.DataFrame:
    """Every cell of every registered paper's tables, in :data:`COLUMNS`: its verdict (one of :data:`COMPARABLE`,
    :data:`APART` or a claim verdict: 'claim holds', 'claim holds partly', 'claim does not hold', 'claim'), why
    (the rule applied, the reason it is not compared, the cause a test shows) and, for an accounted cell, the
    test."""
    out = []
    for mod in registered() if modules is None else modules:
        for row in mod.cells(Path(figures)):
            row = _account({"paper": mod.PAPER, **row}, getattr(mod, "EXPLAINED", ()))
            out.append({c: row.get(c, "") for c in COLUMNS})
    return pd.DataFrame(out, columns=COLUMNS)


def tally(figures: Path = FIGURES, modules=None) -> pd.DataFrame:
    """Per paper and reference table: comparable cells and their verdicts, then the cells counted apart (claims,
    genesel's unbiased variant, another protocol, not comparable)."""
    rows = judge_rows(figures, modules)
    verdict = rows.verdict.where(~rows.verdict.str.startswith("claim"), "claims")
    t = (rows.assign(verdict=verdict).groupby(["paper", "table"], sort=False).verdict.value_counts()
         .unstack(fill_value=0).reindex(columns=list(COMPARABLE + APART), fill_value=0))
    t.insert(0, "comparable cells", t[list(COMPARABLE)].sum(axis=1))
    return t.reset_index()


def _totals(t: pd.DataFrame) -> pd.Series:
    return t[["comparable cells", *COMPARABLE, *APART]].sum()


def readme_block(figures: Path = FIGURES, modules=None) -> tuple[pd.DataFrame, str]:
    """The README's block (written by :mod:`genesel.records.onrecord`): the tally without the tables that hold no
    comparable cell and no claim, and one sentence with the totals."""
    t = tally(figures, modules)
    total = _totals(t)
    t = t.loc[(t["comparable cells"] > 0) | (t["claims"] > 0)]
    n = int(total["comparable cells"])
    share = f" ({100 * total['agrees'] / n:.0f} %)" if n else ""
    e, f, u = (int(total[k]) for k in ("explained", "not from the protocol", "unexplained"))
    return t, (f"In all: {n} comparable cells; {total['agrees']} agree within one sample{share}, {e} "
               f"{'differs' if e == 1 else 'differ'} for a cause a test shows, {f} where a test spanning the paper's "
               f"stated choices shows its number out of their reach on these data, {u} "
               f"{'is' if u == 1 else 'are'} unexplained. Counted apart: {total['not comparable']} cells not "
               f"comparable, {total['unbiased variant'] + total['other protocol']} of genesel's variants beside the "
               f"paper's protocol, {total['claims']} claims in words (rule and tests: `genesel.records.agreement`; "
               "each cell's verdict and why: `genesel agreement --rows`).")


def headline(figures: Path = FIGURES, *, where: str = "`genesel agreement --rows`", modules=None) -> str:
    """One sentence for the README's first screen: the share of the papers' comparable cells that agree, and where
    the per-table verdicts are (``where``: a link or a command)."""
    total = _totals(tally(figures, modules))
    n, a = int(total["comparable cells"]), int(total["agrees"])
    if n == 0:
        return f"No paper's table is on record yet ({where} lists the cells once full runs are committed)."
    nfp = int(total["not from the protocol"])
    return (f"Of the {n} printed numbers of the papers' tables that genesel's committed full runs can compare (the "
            f"paper's data and protocol), {a} ({100 * a / n:.0f} %) agree within one sample; "
            f"{int(total['explained'])} more differ for a cause a test shows, "
            + (f"{nfp} where a test shows the paper's number out of its protocol's reach, " if nfp else "")
            + f"{int(total['unexplained'])} are unexplained (per table and per cell, with the reason: {where}).")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel agreement", description=__doc__.splitlines()[0])
    ap.add_argument("--figures", type=Path, default=FIGURES)
    ap.add_argument("--rows", action="store_true", help="print every cell's verdict")
    ap.add_argument("--csv", type=Path, default=None, help="write every cell's verdict to this CSV file")
    ap.add_argument("--headline", action="store_true", help="print the one-sentence summary")
    args = ap.parse_args(argv)
    if args.csv is not None:
        judge_rows(args.figures).to_csv(args.csv, index=False)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 60, "display.width", 250):
        if args.headline:
            print(headline(args.figures))
        elif args.rows:
            print(judge_rows(args.figures).drop(columns=["protocol"]).to_string(index=False))
        else:
            print(tally(args.figures).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
