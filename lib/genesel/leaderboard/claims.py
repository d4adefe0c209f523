"""The leaderboard (notebook 06) beside the published numbers: which cells its committed full run compares, by which
rule (read by :mod:`genesel.records.agreement`).

- Díaz-Uriarte & Alvarez de Andrés (2006), Table 2: the .632+ bootstrap error of each of their methods on the
  data sets genesel has (Colon, Leukemia, Prostate), from ``figures/leaderboard_du2006_table2.csv``: within one
  sample (1/n of the n samples of their data: 62, 38 and 102); their DLDA is genesel's DLDA from the next full
  run on (a committed table without it says "no counterpart"). Their SRBCT row (63 samples, 4 classes) is compared
  on the multi-class board, from ``figures/leaderboard_multiclass_du2006_table2.csv``, by the same rule.
- Shah, Marchand & Corbeil (2012), Tables 1-2: errors per 5-fold CV of the methods the leaderboard runs, under the
  paper's own design (repeated 5-fold CV, everything chosen by an inner CV; 10 repetitions here, 20 in the paper):
  within 1 error; Lung is a substitute data set.
- Tan (2006), Table 5.6: the leave-one-fold-out errors beside the leaderboard's nested 10 × 5-fold error rates;
  the thesis' protocol is another (one 10-fold CV, C fixed, the biomarker set's size by LOO forward selection), so
  these rows stand beside the thesis' numbers, counted apart.

The rows of ``figures/leaderboard_paper_vs_genesel.csv`` that repeat Díaz-Uriarte's Table 2 are the same cells as
``leaderboard_du2006_table2.csv`` and are counted once (a test checks the two agree).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from genesel.records.agreement import Printed, cell, count_rule, judged, not_comparable, rate_rule

__all__ = ["PAPER", "NOTEBOOKS", "EXPLAINED", "SAMPLES", "cells"]

PAPER = "Díaz-Uriarte 2006"
NOTEBOOKS = {"06_leaderboard": ("leaderboard", ("leaderboard_*.csv",))}
EXPLAINED = ()

#: samples of the data sets of Díaz-Uriarte's Table 2 that genesel has, as they had them (their Leukemia is Golub's
#: 38 training samples, rebuilt exactly by the 'diaz2006' view: one sample of theirs is 1/38, not 1/72)
SAMPLES = {"Colon": 62, "Leukemia": 38, "Prostate": 102, "Small round blue cell tumours": 63}
#: the committed tables of Díaz-Uriarte's Table 2: the binary board's, then the multi-class board's (SRBCT)
DU2006_TABLES = ("leaderboard_du2006_table2.csv", "leaderboard_multiclass_du2006_table2.csv")
_SHAH, _TAN = "Shah 2012", "Tan 2006"
_OTHER = ("another protocol: the thesis' one 10-fold CV with C fixed and the biomarker set's size by LOO forward "
          "selection, against the leaderboard's 10 × 5-fold CV with everything chosen by an inner CV")
_LUNG = "substitute data set: Garber's 47 × 3171 lung set in place of the paper's 52 × 918, which is not public"


def du2006_cells(figures: Path) -> list[dict]:
    """Díaz-Uriarte's Table 2 cells of the committed tables (:data:`DU2006_TABLES`, those present)."""
    rows = [pd.read_csv(p, dtype=str, keep_default_na=False) for p in (Path(figures) / n for n in DU2006_TABLES)
            if p.exists()]
    out = []
    for _, r in (pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()).iterrows():
        ds = r["data set"].split(" (")[0]
        q = f"{ds}: {r['their column']} (.632+ error)"
        proto = ".632+ bootstrap, B = 200"
        if r["genesel method"] == "no counterpart" or not re.search(r"\d", r["genesel"]):
            out.append(not_comparable("Table 2", q, r["paper"], r["genesel"], "no counterpart in genesel",
                                      protocol=proto))
        else:
            # both printed to three decimals (their Table 2; the committed table rounds to 3 and drops trailing zeros)
            p, g = Printed(float(r["paper"]), 0.001), Printed(float(r["genesel"]), 0.001)
            out.append(judged("Table 2", q, r["paper"], r["genesel"], rate_rule(p, g, SAMPLES[ds], percent=False),
                              protocol=proto))
    return out


def cells(figures: Path) -> list[dict]:
    """Díaz-Uriarte's Table 2, then the leaderboard's rows beside Shah's and Tan's numbers."""
    figures = Path(figures)
    out = du2006_cells(figures)
    path = figures / "leaderboard_paper_vs_genesel.csv"
    if not path.exists():
        return out
    for _, r in pd.read_csv(path, dtype=str, keep_default_na=False).iterrows():
        if "(.632+ error)" in r.quantity:
            continue  # Díaz-Uriarte's Table 2, counted above
        if "Shah 2012" in r.paper:
            table = "Tables 1-2, leaderboard protocol"
            if r.quantity.startswith("Lung"):
                out.append(not_comparable(table, r.quantity, r.paper, r.genesel, _LUNG, protocol=r.protocol,
                                          paper=_SHAH))
            else:
                out.append(judged(table, r.quantity, r.paper, r.genesel, count_rule(r.paper, r.genesel),
                                  protocol=r.protocol, paper=_SHAH))
        elif "Tan 2006" in r.paper:
            out.append(cell("Table 5.6, leaderboard protocol", r.quantity, r.paper, r.genesel, "other protocol", _OTHER,
                            protocol=r.protocol, paper=_TAN))
        else:
            raise ValueError(f"{path.name}: a row of no known paper: {r.quantity!r} ({r.paper!r}); declare its rule "
                             "in genesel.leaderboard.claims")
    return out
