"""Tan (2006), chapter 3 and §4.3: the sentences of notebook 05a that quote numbers, written from the run's own
tables so that they are true in every mode and on every machine (kept apart from :mod:`genesel.papers.tan2006_ch3`
so that editing a sentence never invalidates its cached cells).

The CPU seconds of Figure 3.9 are measured on the machine that runs the notebook, and the ARD values of §4.3 come
from evidence maximisations that stop at the optimiser's iteration cap on a very flat surface, where any change in
the arithmetic moves the last digits: neither may be typed into the notebook's prose.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.papers.tan2006_ch3 import fmt_pair
from genesel.stability import jaccard

__all__ = ["fmt_pair", "ard_spread", "spread_sentence", "cpu_bullet", "ard_bullet"]


def ard_spread(ard: pd.DataFrame) -> pd.DataFrame:
    """Per data set and approximation: the sd of log10 l_m over the genes not constant in training, the number of
    genes holding 90 % of Σ l_m, and the top-50 gene indices (``ard``: the rows of
    :func:`genesel.papers.tan2006_ch3.ard_cell`)."""
    rows = []
    for r in ard.to_dict("records"):
        rel = np.asarray(r["relevances"], dtype=float)
        lam = np.sort(rel[rel > 0])[::-1]
        share = np.cumsum(lam) / lam.sum()
        rows.append({"dataset": r["dataset"], "approximation": r["approximation"], "sd": float(np.log10(lam).std()),
                     "n90": int(np.searchsorted(share, 0.9) + 1),
                     "top50": set(np.argsort(-rel, kind="stable")[:50].tolist()),
                     "capped": not bool(r["optimizer_converged"])})
    return pd.DataFrame(rows)


def spread_sentence(spread: pd.DataFrame, names: dict) -> str:
    """"Laplace more spread out than EP?" per data set, with both sds (three decimals where two would tie)."""
    parts = []
    for d, g in spread.groupby("dataset", sort=False):
        sd = dict(zip(g.approximation, g.sd))
        if "laplace" not in sd or "ep" not in sd:
            continue
        a, b = fmt_pair(sd["laplace"], sd["ep"])
        parts.append(f"{names.get(d, d)}: {'yes' if sd['laplace'] > sd['ep'] else 'no'} "
                     f"(sd of log10 l: Laplace {a}, EP {b})")
    return "**Laplace more spread out than EP?** " + ("; ".join(parts) if parts else "needs both approximations")


def cpu_bullet(cpu: pd.DataFrame) -> str:
    """The CPU-cost bullet of "What differs and why" from the mean CPU seconds per fold (data sets x methods)."""
    def span(cols):
        v = cpu[[c for c in cols if c in cpu.columns]].to_numpy(dtype=float).ravel()
        v = v[np.isfinite(v)]
        return f"{v.min():.2f}–{v.max():.2f} s" if v.size else "not run"

    return ("* **CPU cost** cannot be compared in absolute terms (Matlab, C and C++ on a 2.66 GHz core including data "
            "loading, against Python/numpy/numba here including inner-CV model selection; measured on the machine "
            f"that ran this notebook). Mean CPU seconds per fold in this run: the GPs {span(['GP-Laplace', 'GP-EP'])} "
            "(one shared length scale, so three hyper-parameters), the RVM "
            f"{span(['RVM'])} (no inner CV), the SVM {span(['SVM'])}, DWD {span(['DWD'])}, SMLR "
            f"{span(['SMLR'])} (its bound optimisation converges slowly for small λ, 4 λ × 5 inner folds).")


def ard_bullet(spread: pd.DataFrame, tops: dict, names: dict) -> str:
    """The ARD bullet of "What differs and why": spread per data set against the thesis' observation, the genes
    holding 90 % of the total, the agreement of the two top-50 lists, the first genes of each ranking (``tops``:
    (thesis name, "GP-Laplace" / "GP-EP") -> labels best first), and whether the optimiser hit its cap."""
    if spread.empty:
        return "* **ARD.** No ARD fit ran."
    verdict, jac = [], []
    for d, g in spread.groupby("dataset", sort=False):
        sd = dict(zip(g.approximation, g.sd))
        if "laplace" in sd and "ep" in sd:
            a, b = fmt_pair(sd["laplace"], sd["ep"])
            verdict.append((sd["laplace"] > sd["ep"], f"{names.get(d, d)} ({a} vs {b})"))
            t = dict(zip(g.approximation, g.top50))
            jac.append(jaccard(t["laplace"], t["ep"]))
    n_yes = sum(v for v, _ in verdict)
    text = ("* **ARD.** As in the thesis, most ARD values are tiny but not zero and a small group is orders of "
            f"magnitude larger ({spread.n90.min()}–{spread.n90.max()} genes hold 90 % of the total). ")
    if verdict:
        text += ("Laplace's values are more spread out than EP's (sd of log₁₀ l_m, Laplace vs EP) on "
                 + (", ".join(s for v, s in verdict if v) or "no data set")
                 + ("; not on " + ", ".join(s for v, s in verdict if not v) if n_yes < len(verdict) else "")
                 + f": the thesis' observation holds on {n_yes} of {len(verdict)} data sets. ")
    if jac:
        text += (f"The two approximations agree only partly on the ranking (top-50 Jaccard "
                 f"{min(jac):.2f}–{max(jac):.2f}). ")
    def short(label):  # "— (X601)": a gene without a symbol is named by its ID alone
        return label[3:-1] if label.startswith("— (") and label.endswith(")") else label

    firsts = [f"{k[0]}, {k[1]}: {', '.join(short(v) for v in labels[:2])}" for k, labels in tops.items()]
    if firsts:
        text += "First two genes: " + "; ".join(firsts) + ". "
    if spread.capped.any():
        text += (f"{int(spread.capped.sum())} of {len(spread)} fits stopped at the optimiser's iteration cap: "
                 "maximising the evidence over thousands of relevances on a few dozen samples is flat and over-fits "
                 "(the problem the thesis takes up in chapter 5), so these rankings are less reproducible than the "
                 "classification results, and their last digits can differ between machines.")
    return text
