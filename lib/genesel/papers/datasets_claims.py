"""The data sets of the five papers (notebook 00): what its committed table compares (read by
:mod:`genesel.records.agreement`).

``figures/datasets_paper_vs_genesel.csv`` sets each data set's shape and classes as the papers describe them beside
genesel's copy. These are descriptions of the data every paper's cells run on, not results: none is counted as a
reproduced cell (the papers' claims modules name the data sets that differ, and why their cells are not compared).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from genesel.records.agreement import not_comparable

__all__ = ["PAPER", "NOTEBOOKS", "EXPLAINED", "cells"]

PAPER = "the data sets"
NOTEBOOKS = {"00_datasets": ("datasets", ("datasets_*.csv",))}
EXPLAINED = ()


def cells(figures: Path) -> list[dict]:
    path = Path(figures) / "datasets_paper_vs_genesel.csv"
    if not path.exists():
        return []
    return [not_comparable("shapes and classes", r.quantity, r.paper, r.genesel,
                           f"a description of the data, not a result ({r.note})" if r.note else
                           "a description of the data, not a result", protocol=r.protocol)
            for _, r in pd.read_csv(path, dtype=str, keep_default_na=False).iterrows()]
