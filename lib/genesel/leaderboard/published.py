"""The leaderboard's "paper vs genesel" rows: the published errors of the same methods on the same data under a
protocol with selection inside the folds (a report module: editing it moves no cell's cache key).

Three sources: Díaz-Uriarte & Alvarez de Andrés 2006, Table 2 (.632+; :mod:`genesel.leaderboard.du2006`), Shah,
Marchand & Corbeil 2012, Tables 1-2 (nested 5-fold CV; :mod:`genesel.papers.shah2012`) and Tan 2006, Table 5.6
(one 10-fold CV; :mod:`genesel.papers.tan2006_ch45`). Guyon 2002 and Gentile 2003 chose genes or α with
information from the test data and Helleputte 2009 printed no numbers: none of them is comparable here.
"""

from __future__ import annotations

import pandas as pd

from genesel.leaderboard.du2006 import du2006_table
from genesel.leaderboard.summary import dataset_title, fmt_error

__all__ = ["paper_vs_rows"]


def _shah_rows(summary, proto, n_folds):
    from genesel.papers.shah2012 import PAPER_DATASETS, paper_table1, paper_table2

    t1, t2 = paper_table1().set_index("dataset"), paper_table2().set_index("dataset")
    ours = {"SVM": ("SVM (all genes)", t1, "SVM"), "SVM+rfe": ("SVM-RFE (halving) + SVM", t1, "SVM+rfe"),
            "AdaBoost": ("AdaBoost stumps", t1, "AdaBoost"), "Occam": ("Occam stumps", t2, "Occam"),
            "SC": ("SC stumps", t2, "SC"), "PAC-Bayes": ("PAC-Bayes stumps", t2, "PAC-Bayes B-errs")}
    rows = []
    for name, d in PAPER_DATASETS.items():
        s = summary[summary["dataset"] == d].set_index("method")
        if not len(s) or name not in t1.index:
            continue
        for col, (m, table, key) in ours.items():
            if m in s.index and name in table.index:
                r = s.loc[m]
                rows.append(dict(quantity=f"{name}: {col} errors per {n_folds}-fold CV (of {int(r['n_samples'])})",
                                 protocol=proto, paper=f"{table.loc[name, key]} (Shah 2012 Table "
                                 f"{1 if table is t1 else 2}, 20 x 5-fold, nested)",
                                 genesel=fmt_error(r["errors_per_repeat"], r["errors_per_repeat_sd"], 1.0),
                                 note="different grids; Lung is a substitute data set" if d == "garber" else
                                 "our grids and preprocessing; see 'what differs'"))
    return rows


def _tan_rows(summary, proto):
    from genesel.papers.tan2006_ch45 import PAPER

    ours = {"All genes": "SVM (all genes)", "SVM-RFE": "SVM-RFE (1 gene/step) + SVM", "RVM": "RVM selector + SVM",
            "SMLR": "SMLR selector + SVM", "MSVM-RFE": "MSVM-RFE + SVM", "GP-ARD-FS": "GP-ARD-FS + GP",
            "GP-ARD-RFE": "GP-ARD-RFE + GP"}
    rows = []
    for (name, col), (acc, errs) in PAPER["table5_6"].items():
        d = {"Colon": "alon", "Leukemia": "golub"}[name]
        s = summary[summary["dataset"] == d].set_index("method")
        m = ours.get(col)
        if m is None or m not in s.index:
            continue
        rows.append(dict(quantity=f"{name}: {col} error %", protocol=proto,
                         paper=f"{100 - acc:.1f} ({errs} errors; Tan 2006 Table 5.6, one 10-fold CV)",
                         genesel=fmt_error(s.loc[m, "error"], s.loc[m, "error_sd_repeats"]),
                         note="thesis: 10-fold, C fixed, size by LOO forward selection"))
    return rows


def paper_vs_rows(summary: pd.DataFrame, est632: pd.DataFrame | None, n_repeats: int, n_folds: int,
                  n_boot: int | None) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: Díaz-Uriarte & Alvarez de Andrés 2006 Table 2
    (.632+), and the two of the five papers that printed errors of the same methods on the same data under a
    protocol with selection inside the folds: Shah 2012 Tables 1-2 (nested 5-fold CV) and Tan 2006 Table 5.6."""
    rows = []
    if est632 is not None and len(est632):
        for _, r in du2006_table(est632).reset_index().iterrows():
            if r["paper"] == "–":  # not in their table
                continue
            rows.append(dict(quantity=f"{r['data set']}: {r['their column']} (.632+ error)",
                             protocol=f".632+ bootstrap, B = 200 (here B = {n_boot})", paper=r["paper"],
                             genesel=r["genesel"], note=r["genesel method"]))
    proto = f"{n_repeats} x {n_folds}-fold CV, everything chosen by inner CV"
    rows = rows + _shah_rows(summary, proto, n_folds) + _tan_rows(summary, proto)
    if not rows:
        names = ", ".join(dataset_title(d) for d in dict.fromkeys(summary["dataset"]))
        rows = [dict(quantity=f"{names}: any error", protocol=proto, paper="–", genesel="see the league tables",
                     note="no data set of this run is in Díaz-Uriarte 2006 Table 2, Shah 2012 Tables 1-2 or Tan 2006 "
                          "Table 5.6 with these methods: nothing published to compare")]
    return rows

