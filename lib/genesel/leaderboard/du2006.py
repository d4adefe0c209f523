"""Díaz-Uriarte & Alvarez de Andrés (2006, BMC Bioinformatics 7:3), Table 2, beside the leaderboard's .632+
estimates (a report module: editing it moves no cell's cache key).

Their Table 2 gives the .632+ bootstrap error (Efron & Tibshirani 1997; B = 200) of ten rules on each data set;
:data:`DU2006_TABLE2` holds the printed numbers of the data sets the registry has: Colon, Leukemia, Prostate and,
on the multi-class board, their SRBCT (Khan's 63 x 2308, 4 classes: the registry's own copy);
:data:`DU2006_COLUMN_METHODS` the leaderboard method that stands for each of their columns. Their other multi-class
sets are not in the registry, and their Lymphoma cannot be rebuilt (:data:`DU2006_LYMPHOMA`).
:func:`estimates_632` computes the .632+ estimate (:func:`genesel.experiments.error_632plus`) of each method from
the cells of :func:`genesel.leaderboard.cells.boot_cell`, :func:`du2006_table` puts it beside theirs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.experiments import error_632plus
from genesel.leaderboard.cells import DU2006_VIEWS, VIEWS, load
from genesel.leaderboard.summary import dataset_title

__all__ = ["DU2006_COLUMNS", "DU2006_TABLE2", "DU2006_COLUMN_METHODS", "DU2006_DATA", "DU2006_LYMPHOMA",
           "estimates_632", "du2006_table", "views_note"]

DU2006_COLUMNS = ("no info", "SVM", "KNN", "DLDA", "SC.l", "SC.s", "NN.vs", "random forest", "RF var.sel. s.e. 0",
                  "RF var.sel. s.e. 1")
DU2006_TABLE2 = {
    "alon": (0.355, 0.147, 0.152, 0.137, 0.123, 0.122, 0.158, 0.127, 0.159, 0.177),
    "golub": (0.289, 0.014, 0.029, 0.020, 0.025, 0.062, 0.056, 0.051, 0.087, 0.075),
    "singh": (0.490, 0.064, 0.100, 0.149, 0.088, 0.089, 0.081, 0.077, 0.061, 0.064),
    "khan": (0.635, 0.017, 0.023, 0.011, 0.012, 0.025, 0.031, 0.021, 0.039, 0.038),
}
#: their column -> our method (None: no counterpart here)
DU2006_COLUMN_METHODS = {"SVM": "SVM (all genes)", "KNN": "kNN (all genes)", "DLDA": "DLDA (all genes)",
                  "SC.l": "shrunken centroids (SC.l)", "SC.s": "shrunken centroids (SC.s)",
                  "NN.vs": "kNN on Fisher genes", "random forest": "random forest (all genes)",
                  "RF var.sel. s.e. 0": "RF var. sel. (s.e. 0)", "RF var.sel. s.e. 1": "RF var. sel. (s.e. 1)"}
DU2006_DATA = {"alon": "Colon: the same 62 x 2000 (Alon 1999), as Dettling 2004 preprocessed it: log10, each sample "
                        "standardised over its genes (the 'diaz2006' view)",
               "golub": "Leukemia: theirs is Golub's 38 training samples x 3051 genes (Dudoit's filter); the "
                        "'diaz2006' view here rebuilds exactly that (38 x 3051)",
               "singh": "Prostate: theirs is 102 x 6033 genes (Singh 2002 filtered as in Dettling 2004); here all "
                        "12600 probes of the registry's copy (no filter of floor, ceiling, max/min and max - min "
                        "rebuilds 6033 from it), floored at 10, capped at 16000, log10, each sample standardised",
               "khan": "Srbct: the same 63 x 2308, 4 classes (Khan 2001); their SVM one-vs-one (e1071), ours "
                       "one-vs-rest"}
#: Their Lymphoma (62 x 4026: 42 DLBCL, 9 FL, 11 CLL, Dettling's version of Alizadeh 2000) is not rebuilt: the
#: registry's public labels give these three classes for 66 samples (46 DLBCL, 9 FL, 11 CLL), and which four DLBCL
#: samples they left out cannot be told from the public files.
DU2006_LYMPHOMA = ("Lymphoma: not compared. Their 62 samples (42 DLBCL, 9 FL, 11 CLL) are Dettling's version of "
                   "Alizadeh 2000; the registry's public labels give these classes for 66 samples (46 DLBCL), and "
                   "which four DLBCL samples they left out cannot be told from the public files")


def estimates_632(boot: pd.DataFrame | None) -> pd.DataFrame | None:
    """One row per (data set, method) of the bootstrap cells: the .632+ error and its parts (None: no bootstrap in
    this run). A method that could not run at a data set's size in some bootstrap sample is left out there."""
    if boot is None:
        return None
    from genesel.leaderboard.summary import applicable

    boot = applicable(boot)[0]
    rows = []
    for (d, m), g in boot.groupby(["dataset", "method"], sort=False):
        view = g["view"].iloc[0] if "view" in g else None
        view = None if view is None or (isinstance(view, float) and np.isnan(view)) else view
        mg = g["max_genes"].iloc[0]
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) or view else int(mg)
        y = load(d, view, mg).y
        app = g[g["boot"] < 0].iloc[0]
        ap = np.empty(y.size, dtype=np.int64)
        ap[np.asarray(app["test_idx"])] = np.asarray(app["pred"])
        oob = [(np.asarray(r["test_idx"]), np.asarray(r["pred"])) for _, r in g[g["boot"] >= 0].iterrows()]
        est = error_632plus(y, ap, oob)
        rows.append(dict(dataset=d, method=m, view=view, n_boot=len(oob), error_632plus=est.error,
                         apparent=est.apparent, loo_bootstrap=est.loo_bootstrap, no_information=est.no_information,
                         size=float(g.loc[g["boot"] >= 0, "size"].mean()),
                         no_info_majority=float(1.0 - np.max(np.unique(y, return_counts=True)[1]) / y.size)))
    return pd.DataFrame(rows)


def du2006_table(est: pd.DataFrame | None) -> pd.DataFrame:
    """Díaz-Uriarte & Alvarez de Andrés 2006, Table 2 beside our .632+ estimates, one row per data set and
    column of theirs; a data set their table does not have (a user's file, another registered set) gets our
    estimates with '–' as the paper's value. ``est`` None (no bootstrap in this run): one row saying so."""
    if est is None:
        return pd.DataFrame([{"data set": "–", "their column": "–", "genesel method": "–", "paper": "–",
                              "genesel": "not run: no data set of their Table 2 in this run (name one, or your file, "
                                         "with boot_datasets to run the .632+ bootstrap on it)"}]
                            ).set_index(["data set", "their column"])
    rows = []
    for d in dict.fromkeys(est["dataset"]):
        e = est[est["dataset"] == d].set_index("method")
        published = DU2006_TABLE2.get(d, ("–",) * len(DU2006_COLUMNS))
        for col, paper in zip(DU2006_COLUMNS, published):
            if col == "no info":
                ours = e["no_info_majority"].iloc[0]
                meth = "(always the larger class)"
            else:
                meth = DU2006_COLUMN_METHODS[col]
                ours = e.loc[meth, "error_632plus"] if meth in e.index else np.nan
            rows.append({"data set": dataset_title(d), "their column": col, "genesel method": meth or "no counterpart",
                         "paper": paper, "genesel": round(float(ours), 3) if np.isfinite(ours) else "–"})
    return pd.DataFrame(rows).set_index(["data set", "their column"]) if rows else pd.DataFrame(rows)


def views_note(datasets=None) -> str:
    """The data views of the .632+ comparison and how each data set of their Table 2 that ran (``datasets``; None:
    all three) differs from theirs; empty when none of them ran."""
    shown = [d for d in (DU2006_VIEWS if datasets is None else datasets) if d in DU2006_DATA]
    if not shown:
        return ""
    views = [f"{k}: {v}" for k, v in VIEWS.items() if any(DU2006_VIEWS.get(d) == k for d in shown)]
    return "; ".join(views + ["Data sets of their Table 2 here: " + "; ".join(DU2006_DATA[d] for d in shown)]
                     + ([DU2006_LYMPHOMA] if "khan" in shown else []))

