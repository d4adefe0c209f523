"""Tan (2006), chapters 4-5: tables and figures of notebooks 05b and 05c from the cells of
:mod:`genesel.papers.tan2006_ch45` (kept apart so that editing a figure never invalidates the cached cells)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.stability import kuncheva_index, mean_pairwise_jaccard, selection_frequency, stability_score

__all__ = ["stability_table", "lofo_table", "occurrence_table"]


# ----------------------------------------------------------------------------------------------------------------
# summaries
# ----------------------------------------------------------------------------------------------------------------


def stability_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set, variant and method: Tan's S (Eq. 5.1) over the fold biomarker sets, the Kuncheva index when all
    sets have the same size (else blank), the mean pairwise Jaccard index, the union size and the sizes."""
    rows = []
    for (ds, var, meth), g in folds.groupby(["dataset", "variant", "method"], sort=False):
        if meth == "All genes":
            continue
        sets = [set(b) for b in g["biomarkers"]]
        sizes = sorted(len(s) for s in sets)
        n = int(g["n_genes"].iloc[0]) if "n_genes" in g else None
        ki = kuncheva_index(sets, n) if n and len(set(sizes)) == 1 and 0 < sizes[0] < n else np.nan
        rows.append({"dataset": ds, "variant": var, "method": meth, "stability_S": stability_score(sets),
                     "kuncheva": ki, "jaccard": mean_pairwise_jaccard(sets),
                     "union": len(set().union(*sets)), "mean_size": float(np.mean(sizes))})
    return pd.DataFrame(rows)


def lofo_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set, variant and method: total errors over the folds (SVM and GP-Laplace), accuracy, mean
    biomarker size."""
    agg = folds.groupby(["dataset", "variant", "method"], sort=False).agg(
        n=("n_test", "sum"), svm_errors=("svm_errors", "sum"), gp_errors=("gp_errors", "sum"),
        mean_size=("biomarker_size", "mean"), cpu_seconds=("cpu_seconds", "sum")).reset_index()
    agg["svm_accuracy"] = 100.0 * (1 - agg["svm_errors"] / agg["n"])
    agg["gp_accuracy"] = 100.0 * (1 - agg["gp_errors"] / agg["n"])
    return agg


def occurrence_table(sets) -> pd.DataFrame:
    """Table 5.2: for i = 1..k, the genes selected in exactly i of the k sets and their number N_i."""
    k = len(sets)
    freq = selection_frequency(sets)
    rows = []
    for i in range(1, k + 1):
        g = sorted(x for x, c in freq.items() if c == i)
        rows.append({"occurrences": i, "genes": g, "N_i": len(g)})
    return pd.DataFrame(rows)
