"""Guyon, Weston, Barnhill & Vapnik (2002): which of the abstract's numbers genesel's committed full run of notebook
01 compares, by which rule (read by :mod:`genesel.records.agreement`).

The text's numbers are garbled (every one replaced by "123"); the published abstract gives four claims, five
numbers: SVM-RFE's leave-one-out errors with 2 genes on leukemia (0); the baseline's best leave-one-out result there
(1 error) and the gene count first reaching it (64); SVM-RFE's and the baseline's leave-one-out accuracy with 4
genes on colon (98 %, 86 % of 62). Leave-one-out accuracy and errors are judged within one of the 62 or 72 samples,
the gene count within 1 or 10 %.

``figures/guyon2002_paper_vs_genesel.csv`` holds each claim under several settings of the preprocessing the paper
leaves open: the one reproducing the most claims, the best one agreeing with the paper's description and the
notebook's parameters (each with the paper's protocol, genes chosen on all samples, and with selection inside the
folds). The reproduction is the setting agreeing with the paper's description (the first listed when it is also the
one reproducing the most claims); the other settings and the unbiased protocol stand beside it, counted apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from genesel.records.agreement import cell, count_rule, judged, sample_rule, size_rule

__all__ = ["PAPER", "NOTEBOOKS", "EXPLAINED", "cells"]

PAPER = "Guyon 2002"
NOTEBOOKS = {"01_guyon2002_svm_rfe": ("guyon2002", ("guyon2002_*.csv",))}
EXPLAINED = ()

_DESCRIPTION = "paper's description"
_SAMPLES = {"leukemia": 72, "colon": 62}


def _blocks(t: pd.DataFrame) -> list[pd.DataFrame]:
    """The table's settings in order: a new block starts where a claim under the paper's protocol repeats."""
    blocks, seen, start = [], set(), 0
    for i, r in enumerate(t.itertuples()):
        if r.protocol.startswith("paper"):
            if r.quantity in seen:
                blocks.append(t.iloc[start:i])
                seen, start = set(), i
            seen.add(r.quantity)
    blocks.append(t.iloc[start:])
    return blocks


_SETTING = re.compile(r"(?:not )?under (the setting reproducing the most claims|the best setting agreeing with the "
                      r"paper's description|this notebook's parameters)")


def _setting(block: pd.DataFrame, i: int) -> str:
    """The block's setting, as its notes name it."""
    for note in block.note:
        m = _SETTING.search(note)
        if m:
            return m.group(1)
    return f"setting {i + 1}"


def _reproduction(blocks) -> int:
    for i, b in enumerate(blocks):
        if b.note.str.contains(_DESCRIPTION, regex=False).any():
            return i
    return 0


def _judge_claim(r) -> list[dict]:
    """The claim's numbers under one setting."""
    q, paper, ours, proto = r.quantity, r.paper, r.genesel, r.protocol
    n = _SAMPLES[q.split(",")[0]]
    out = []
    if "%" in paper:  # an accuracy of n: the paper's percentage (its nearest count) against genesel's count
        pe = re.search(r"(\d+) errors? of", paper)
        ge = re.search(r"(\d+) errors? of", ours)
        p_acc = re.match(r"([\d.]+) %", paper).group(1)
        g_acc = f"{100.0 * (n - int(ge.group(1))) / n:.6f}"
        shown = p_acc + " %" + (f" ({pe.group(1)} errors)" if pe else "")
        out.append(judged("abstract", f"{q}", shown, ours, sample_rule(p_acc, g_acc, n), protocol=proto))
        return out
    pe, ge = (int(re.search(r"(\d+) error", t).group(1)) for t in (paper, ours))
    out.append(judged("abstract", f"{q}: errors", pe, ge, count_rule(pe, ge), protocol=proto))
    pf, gf = (re.search(r"first with (\d+)", t) for t in (paper, ours))
    if pf:
        g = gf.group(1) if gf else ""
        out.append(judged("abstract", f"{q}: genes first reaching it", pf.group(1), g,
                          size_rule(int(pf.group(1)), int(g)) if g else (False, "within 1 or 10 %"), protocol=proto))
    return out


def cells(figures: Path) -> list[dict]:
    """The abstract's five numbers under the setting agreeing with the paper's description; the rows of other
    settings and of the unbiased protocol counted apart."""
    path = Path(figures) / "guyon2002_paper_vs_genesel.csv"
    if not path.exists():
        return []
    t = pd.read_csv(path, dtype=str, keep_default_na=False)
    blocks = _blocks(t)
    k = _reproduction(blocks)
    out = []
    for i, b in enumerate(blocks):
        setting = _setting(b, i)
        b = b.assign(protocol=b.protocol + "; " + setting)
        for r in b.itertuples():
            if not r.protocol.startswith("paper"):
                out.append(cell("abstract", r.quantity, r.paper, r.genesel, "unbiased variant",
                                "genesel's unbiased protocol (genes selected inside each leave-one-out fold)",
                                protocol=r.protocol))
            elif i != k:
                out.append(cell("abstract", r.quantity, r.paper, r.genesel, "other protocol",
                                f"another setting of the preprocessing the paper leaves open ({r.note})",
                                protocol=r.protocol))
            else:
                out += _judge_claim(r)
    return out
