"""Helleputte & Dupont (2009): what genesel's committed full run of notebook 03 compares (read by
:mod:`genesel.records.agreement`).

The source is a set of slides: their results are curves without numbers, so nothing numeric is compared. Their
claims (transfer improves classification and stability, most for small signatures, with one or several source
studies, whatever B) are judged in words by the notebook (``holds``, ``holds partly``, ``does not hold``); the
rows describing the public files (samples, probes) are descriptions of the data, not results.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from genesel.records.agreement import claim, not_comparable

__all__ = ["PAPER", "NOTEBOOKS", "EXPLAINED", "cells"]

PAPER = "Helleputte 2009"
NOTEBOOKS = {"03_helleputte2009_transfer": ("helleputte2009", ("helleputte2009_*.csv",))}
EXPLAINED = ()


def cells(figures: Path) -> list[dict]:
    """The slides' claims with the notebook's verdicts; the data rows, not compared."""
    path = Path(figures) / "helleputte2009_paper_vs_genesel.csv"
    if not path.exists():
        return []
    out = []
    for _, r in pd.read_csv(path, dtype=str, keep_default_na=False).iterrows():
        if r.protocol in ("public files", "matched by probe ID") or "probe" in r.quantity:
            out.append(not_comparable("data", r.quantity, r.paper, r.genesel, "a description of the public files, "
                                      "not a result", protocol=r.protocol))
        else:
            out.append(claim("claims (slides)", r.quantity, r.paper, r.genesel, protocol=r.protocol))
    return out
