"""Tan (2006), chapter 3 and §4.3: the tables, figures and sentences of notebook 05a, from the cells of
:mod:`genesel.papers.tan2006_ch3` (kept apart so that editing a table, a figure or a sentence never invalidates a
cached cell).

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006: Figures 3.6-3.9 (CV accuracy, pooled ROC curves, AUC, CPU cost) and 4.3-4.5 (ARD values).

The sentences that quote numbers are written from the run's own tables, so that they are true in every mode and on
every machine: the CPU seconds of Figure 3.9 are measured on the machine that runs the notebook, and the ARD values
of §4.3 come from evidence maximisations over a surface that is flat for the weakly relevant genes (run to L-BFGS-B's
convergence test since issue 27, yet any change in the arithmetic moves those genes' last digits): neither may be
typed into the notebook's prose.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from genesel.datasets import gene_symbols
from genesel.experiments.tables import format_range
from genesel.metrics import auc, pooled_roc
from genesel.papers.common import load_task
from genesel.papers.tan2006 import thesis_name
from genesel.papers.tan2006_ch3 import CLASSIFIERS, THESIS
from genesel.stability import jaccard

__all__ = ["thesis_name", "kernel_label", "data_table", "kernel_table", "one_class_note", "cv_summary",
           "accuracy_table", "errors_table", "warned_fits", "capped_folds", "pooled_rocs", "auc_table", "cpu_table",
           "ard_spread", "cpu_display", "ard_table", "ard_capped_note", "n_variable_genes", "ard_holds",
           "spread_paragraph",
           "ard_top_genes", "top_genes_table", "top50_overlap", "spread_sentence", "paper_vs_rows", "differences",
           "LOCAL_MAXIMA", "evidence_note",
           "cpu_bullet", "ard_bullet", "fmt_pair", "file_tag", "accuracy_figure", "auc_bootstrap", "auc_figure",
           "roc_figure", "cpu_figure", "ard_figure",
           "estimated_seconds", "QUICK_BUDGET", "FULL_BUDGET", "winners", "winners_across_seeds", "marker_ranks"]

#: Time budgets of notebook 05a on 2 cores (seconds): quick mode, full mode (its full run: about 15 minutes).
QUICK_BUDGET, FULL_BUDGET = 45.0, 1200.0


# ----------------------------------------------------------------------------------------------------------------
# tables
# ----------------------------------------------------------------------------------------------------------------


def data_table(datasets, max_genes=None) -> pd.DataFrame:
    """The data sets as the run sees them: samples, class counts (second class, first class), genes used. The classes
    are named in the cell ("Tumor 52 / Normal 50"), not in the column's name, so data sets whose classes are named
    differently share the column (no empty cells)."""
    rows = []
    for d in datasets:
        ds = load_task(d, max_genes)
        X, y, classes = ds.X, ds.y, ds.classes
        rows.append({"data set": thesis_name(d), "samples": X.shape[0],
                     "classes (samples)": f"{classes[1]} {(y > 0).sum()} / {classes[0]} {(y < 0).sum()}",
                     "genes used": X.shape[1]})
    return pd.DataFrame(rows)


def kernel_label(kernel_json: str) -> str:
    """The SVM-chosen kernel of a fold in words ("linear", "polynomial (γ xᵀx′ + 1)², γ = 1/#genes", ...)."""
    k = json.loads(kernel_json)
    if k["kernel"] == "linear":
        return "linear"
    if k["kernel"] == "poly":
        g = k.get("gamma_scale", 1.0)
        return f"polynomial of degree {k.get('degree', 2)}, γ = {g:g}/#genes"
    return f"RBF, γ = {k.get('gamma_scale', 1.0):g}/#genes"


def kernel_table(kernels: pd.DataFrame) -> pd.DataFrame:
    """How many outer folds chose each kernel, per data set (``kernels``: rows of ``select_kernel_cell``)."""
    k = kernels.assign(**{"kernel chosen": kernels.kernel.map(kernel_label),
                          "data set": kernels.dataset.map(thesis_name)})
    return k.groupby(["data set", "kernel chosen"]).size().rename("folds").reset_index()


def one_class_note(kernels: pd.DataFrame) -> str:
    """A sentence on the inner-CV fits of the kernel grid that ended as one-class models ('' when none did)."""
    n_one_class = int(kernels.one_class_inner_fits.sum())
    if not n_one_class:
        return ""
    return (f"{n_one_class} inner-CV fits of the kernel grid ended as one-class models (small C with a kernel too "
            "narrow or too wide for the data); they lose the inner CV, as they should.")


def cv_summary(res: pd.DataFrame, datasets) -> dict:
    """Per data set and classifier (rows of ``cv_cell``): ``accuracy`` (mean over the folds, a fraction),
    ``errors`` (test errors summed over the folds) and ``n_total`` (samples tested, per data set)."""
    n_errors = pd.Series([int(np.sum(np.asarray(p) != np.asarray(t))) for p, t in zip(res.pred, res.y_true)],
                         index=res.index)
    r = res.assign(n_errors=n_errors, n_test=res.y_true.map(len))
    acc = r.groupby(["dataset", "method"])["accuracy"].mean().unstack()[list(CLASSIFIERS)].reindex(datasets)
    errors = r.groupby(["dataset", "method"])["n_errors"].sum().unstack()[list(CLASSIFIERS)].reindex(datasets)
    n_total = r[r.method == "SVM"].groupby("dataset")["n_test"].sum()
    return {"accuracy": acc, "errors": errors, "n_total": n_total}


def accuracy_table(summary: dict) -> pd.DataFrame:
    """Mean CV accuracy in percent (one decimal), data sets by their thesis names."""
    return summary["accuracy"].mul(100).round(1).rename(index=thesis_name).rename_axis("data set")


def errors_table(summary: dict) -> pd.DataFrame:
    """Test errors summed over the folds, as "errors / samples"."""
    errors = summary["errors"]
    return (errors.astype(int).astype(str).add(" / " + summary["n_total"].reindex(errors.index).astype(str), axis=0)
            .rename(index=thesis_name).rename_axis("data set"))


def warned_fits(res: pd.DataFrame):
    """(sentence, table or None): the folds in which a fit raised a warning (data set, fold, method, the setting the
    inner CV chose, accuracy, the warnings), or a sentence saying that none did. A cell records the warnings of
    every fit of its fold, the inner CV's fits over the grid and the final fit alike (:func:`genesel.papers.
    tan2006_ch3.cv_cell`), so a warning that names a setting other than the one chosen (e.g. SMLR's ``lam=0.5``
    predicting one class when 0.01 was chosen) came from the inner CV, not from the model that was scored."""
    flagged = res[res.warnings != ""]
    if not len(flagged):
        return "No fit raised a warning (no constant predictor, every optimiser converged).", None
    chosen = flagged.best_params.map(lambda b: ", ".join(f"{k} = {v}" for k, v in json.loads(b).items()) or "–")
    table = (flagged.assign(**{"data set": flagged.dataset.map(thesis_name), "fold": flagged.fold + 1,
                               "chosen by the inner CV": chosen})
             [["data set", "fold", "method", "chosen by the inner CV", "accuracy", "warnings"]])
    return ("**Folds in which a fit warned.** A fold's warnings are those of all its fits, the inner CV's over the "
            "grid and the final one: a warning naming a setting other than the chosen one came from the inner CV "
            "(it may have steered the choice), not from the model that was scored. The fold's predictions are used "
            "as they are.", table)


def capped_folds(res: pd.DataFrame, dataset: str, method: str) -> tuple[int, int]:
    """(folds of ``method`` on ``dataset`` in which a fit stopped at its iteration cap, i.e. raised a
    ``ConvergenceWarning``; all folds of it): the numbers of such folds come from weights short of the optimum."""
    g = res[(res.dataset == dataset) & (res.method == method)]
    return int(g.warnings.str.contains("ConvergenceWarning", regex=False).sum()), int(len(g))


def pooled_rocs(res: pd.DataFrame, seed: int = 0) -> dict:
    """The pooled ROC curve of every (data set, classifier) over its folds: ``curves`` {(d, m): (fpr, tpr)},
    ``aucs`` {(d, m): AUC}, ``ci`` {(d, m): 95 % percentile-bootstrap interval of the AUC}."""
    curves, aucs, ci = {}, {}, {}
    for (d, m), g in res.groupby(["dataset", "method"]):
        yt, sc = np.concatenate(g.y_true.to_list()), np.concatenate(g.score.to_list())
        fpr, tpr, _ = pooled_roc(yt, sc)
        curves[d, m], aucs[d, m] = (fpr, tpr), auc(fpr, tpr)
        ci[d, m] = auc_bootstrap(yt, sc, seed=seed)
    return {"curves": curves, "aucs": aucs, "ci": ci}


def auc_table(rocs: dict, datasets) -> pd.DataFrame:
    """The AUCs with their bootstrap intervals, "0.912 (0.83–0.97)", data sets by their thesis names."""
    aucs, ci = rocs["aucs"], rocs["ci"]
    return pd.DataFrame({m: [f"{aucs[d, m]:.3f} ({format_range(ci[d, m])})" for d in datasets]
                         for m in CLASSIFIERS}, index=[thesis_name(d) for d in datasets]).rename_axis("data set")


def _auc_frame(rocs: dict, datasets) -> pd.DataFrame:
    return pd.Series(rocs["aucs"]).unstack()[list(CLASSIFIERS)].reindex(datasets)


def cpu_table(res: pd.DataFrame, datasets) -> pd.DataFrame:
    """Mean CPU seconds per outer fold (model selection + fit + prediction), data sets x classifiers."""
    return res.groupby(["dataset", "method"])["cpu_seconds"].mean().unstack()[list(CLASSIFIERS)].reindex(datasets)


def cpu_display(cpu: pd.DataFrame, kernels: pd.DataFrame) -> pd.DataFrame:
    """:func:`cpu_table` with the mean CPU seconds of the kernel choice beside it, two decimals."""
    kcpu = kernels.groupby("dataset")["cpu_kernel_selection"].mean()
    return cpu.assign(**{"kernel choice (SVM)": kcpu}).round(2).rename(index=thesis_name).rename_axis("data set")


def _ard_stats(r: dict) -> dict:
    """The spread of one fit's ARD values (genes not constant in training): sd of log10 l, the genes holding 90 % of
    Σ l, the Gini index, the values at the lower bound and the largest."""
    rel = np.asarray(r["relevances"], dtype=float)
    lam = np.sort(rel[rel > 0])[::-1]
    share = np.cumsum(lam) / lam.sum()
    return {"sd": np.log10(lam).std(), "n90": int(np.searchsorted(share, 0.9) + 1),
            "gini": 1 - 2 * np.sum(np.cumsum(np.sort(lam)) / lam.sum()) / lam.size + 1 / lam.size,
            "at_bound": int(np.sum(lam <= 1.0001e-12)), "constant": int(np.sum(rel == 0)), "largest": lam[0],
            "top50": set(np.argsort(-rel, kind="stable")[:50].tolist())}


def ard_spread(ard: pd.DataFrame) -> pd.DataFrame:
    """Per data set and approximation: the sd of log10 l_m over the genes not constant in training, the number of
    genes holding 90 % of Σ l_m, and the top-50 gene indices (``ard``: the rows of
    :func:`genesel.papers.tan2006_ch3.ard_cell`)."""
    rows = []
    for r in ard.to_dict("records"):
        s = _ard_stats(r)
        rows.append({"dataset": r["dataset"], "approximation": r["approximation"], "sd": float(s["sd"]),
                     "n90": s["n90"], "top50": s["top50"], "capped": not bool(r["optimizer_converged"])})
    return pd.DataFrame(rows)


def ard_table(ard: pd.DataFrame) -> pd.DataFrame:
    """One row per ARD fit: training samples, log evidence, the spread of the values (:func:`ard_spread` and the
    Gini index), how many sit at the lower bound or belong to genes constant in training, the largest value,
    whether the optimiser converged, CPU seconds."""
    rows = []
    for r in ard.to_dict("records"):
        s = _ard_stats(r)
        rows.append({"data set": thesis_name(r["dataset"]), "approximation": r["approximation"],
                     "training samples": r["n_train"], "log evidence": r["log_evidence"], "sd of log10 l": s["sd"],
                     "genes for 90 % of the total": s["n90"], "Gini": s["gini"], "at the lower bound": s["at_bound"],
                     "constant in training": s["constant"], "largest l": s["largest"],
                     "optimiser": ("converged" if r["optimizer_converged"] else f"stopped at {r['n_iter']} iterations")
                                  + ("" if r["ep_converged"] else ", EP not at its fixed point"),
                     "CPU s": r["cpu_seconds"]})
    return pd.DataFrame(rows)


def ard_capped_note(ard: pd.DataFrame) -> str:
    """What the ARD values of fits stopped at the iteration cap are ('' when every fit converged)."""
    if ard.optimizer_converged.all():
        return ""
    return ("Where the optimiser stopped at its iteration cap, the ARD values are the best point it reached, not a "
            "certified maximum of the evidence: with thousands of relevances and a few dozen samples the evidence is "
            "very flat, and L-BFGS-B keeps making tiny gains. Rankings from such fits are indicative only (see *What "
            "differs and why*).")


def n_variable_genes(ard: pd.DataFrame, dataset: str) -> int:
    """Genes not constant on the training part of ``dataset``'s ARD fits (relevance > 0)."""
    return int(np.sum(np.asarray(ard[ard.dataset == dataset].relevances.iloc[0]) > 0))


def ard_holds(ard: pd.DataFrame) -> dict:
    """{thesis name: whether Laplace's ARD values are more spread out than EP's (sd of log10 l)}."""
    sd = {(thesis_name(r["dataset"]), r["approximation"]): r["sd"] for r in ard_spread(ard).to_dict("records")}
    return {k: bool(sd[k, "laplace"] > sd[k, "ep"]) for k in dict.fromkeys(n for n, _ in sd)}


def spread_paragraph(ard: pd.DataFrame, quick: bool) -> str:
    """:func:`spread_sentence` for the run, with a caveat when quick mode contradicts the thesis."""
    names = {d: thesis_name(d) for d in ard.dataset.unique()}
    holds = ard_holds(ard)
    text = spread_sentence(ard_spread(ard), names) + (
        "" if all(holds.values()) or not quick else
        " — in quick mode the fits see 200 genes and no restarts; the full run (figures/tan2006_fig4_ard_*) is the "
        "comparison with the thesis.")
    if ard.empty:
        return text
    return text.rstrip(".") + f". These are the spreads at the maxima the fits reached: {_SEVERAL_MAXIMA}."


def ard_top_genes(ard: pd.DataFrame, top: int = 10) -> dict:
    """{(thesis name, "GP-Laplace" / "GP-EP"): labels of the ``top`` genes of largest ARD value, best first}, a
    label being "SYMBOL (probe)" or "— (probe)"."""
    tops = {}
    for r in ard.itertuples():
        ds = load_task(r.dataset)
        sym = dict(zip(ds.gene_ids.astype(str), gene_symbols(ds)))
        order = np.argsort(-np.asarray(r.relevances), kind="stable")
        tops[thesis_name(r.dataset), f"GP-{'Laplace' if r.approximation == 'laplace' else 'EP'}"] = [
            f"{sym.get(r.gene_ids[i]) or '—'} ({r.gene_ids[i]})" for i in order[:top]]
    return tops


def top_genes_table(ard: pd.DataFrame, top: int = 10) -> pd.DataFrame:
    """:func:`ard_top_genes` as a table: one column per (data set, approximation), rows ranked 1..``top``."""
    return pd.DataFrame(ard_top_genes(ard, top), index=pd.RangeIndex(1, top + 1, name="rank"))


def top50_overlap(ard: pd.DataFrame) -> pd.DataFrame:
    """Per data set, the Jaccard index of the Laplace and EP top-50 lists."""
    overlap = {}
    for r in ard.itertuples():
        order = np.argsort(-np.asarray(r.relevances), kind="stable")
        overlap.setdefault(thesis_name(r.dataset), []).append(set(order[:50].tolist()))
    return pd.DataFrame({"data set": list(overlap), "Jaccard of the two top-50 lists":
                         [round(jaccard(*s), 3) for s in overlap.values()]})


def _capped_note(res, dataset, method) -> dict:
    """{"note": ...} when some of the folds had a fit stopped at its iteration cap, else {}."""
    if res is None:
        return {}
    k, n = capped_folds(res, dataset, method)
    if not k:
        return {}
    return {"note": f"in {k} of {n} folds a fit (of the inner CV or the final one) stopped at its iteration cap "
                    "before its optimality test held (ConvergenceWarning, listed under the accuracy tables): in "
                    "those folds the choice of the setting, or the scores, come from weights short of the optimum"}


def paper_vs_rows(datasets, summary: dict, rocs: dict, kernels: pd.DataFrame, cpu: pd.DataFrame,
                  ard: pd.DataFrame, protocol: str, genes_label: str, res: pd.DataFrame | None = None) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: the thesis' Colon AUCs and SVM errors, its verdicts
    (hardest data set, most and least accurate classifiers, the kernel, the costliest classifier) and the ARD
    spread, beside this run's. With the outer folds' cells (``res``), a Colon AUC whose folds include a fit stopped
    at its iteration cap says how many (:func:`capped_folds`)."""
    acc, errors, n_total = summary["accuracy"], summary["errors"], summary["n_total"]
    aucs, ci = rocs["aucs"], rocs["ci"]
    auc_tab = _auc_frame(rocs, datasets)
    colon, leuk = "alon", "golub"
    rows = []
    if colon in datasets:
        for m in CLASSIFIERS:
            rows.append(dict(quantity=f"AUC Colon, {m}", protocol=f"{protocol}, pooled ROC, {genes_label}",
                             paper=f"≈ {THESIS['auc_colon'][m]:.2f}",
                             genesel=f"{aucs[colon, m]:.3f} (95 % CI {format_range(ci[colon, m])})",
                             **_capped_note(res, colon, m)))
    if leuk in datasets:
        rows.append(dict(quantity="AUC Leukemia, all six", protocol=f"{protocol}, pooled ROC, {genes_label}",
                         paper="comparably excellent (Fig. 3.8)",
                         genesel=f"{auc_tab.loc[leuk].min():.3f} – {auc_tab.loc[leuk].max():.3f}"))
    for d, (e, n) in THESIS["svm_errors"].items():
        if d in datasets:
            rows.append(dict(quantity=f"SVM errors, {thesis_name(d)}",
                             protocol=f"{protocol} (Table 4.7), {genes_label}",
                             paper=f"{e} / {n}", genesel=f"{int(errors.loc[d, 'SVM'])} / {int(n_total[d])}"))
    if len(datasets) > 1:
        rows.append(dict(quantity="hardest data set", protocol="mean CV accuracy", paper="Colon",
                         genesel=thesis_name(acc.mean(axis=1).idxmin())))
    for d in datasets:
        best_m = ", ".join(acc.columns[np.isclose(acc.loc[d], acc.loc[d].max())])
        rows.append(dict(quantity=f"most accurate classifier, {thesis_name(d)}", protocol="mean CV accuracy",
                         paper="GP-EP (not significantly)" if d in ("alon", "golub") else "– (lung: GP-EP)",
                         genesel=best_m))
    if colon in datasets:
        rows.append(dict(quantity="least accurate on Colon", protocol="mean CV accuracy", paper="RVM and SMLR",
                         genesel=", ".join(acc.columns[np.isclose(acc.loc[colon], acc.loc[colon].min())])))
    chosen = kernels.kernel.map(kernel_label)
    rows.append(dict(quantity="kernel chosen by CV", protocol="SVM inner CV, per outer fold",
                     paper="linear, all data sets",
                     genesel="; ".join(f"{thesis_name(d)}: " + ", ".join(f"{k} ×{n}" for k, n in
                                       g.value_counts().items()) for d, g in chosen.groupby(kernels.dataset))))
    rows.append(dict(quantity="costliest classifier", protocol="CPU seconds per fold",
                     paper="GP (EP), up to ≈ 131 s (lung)",
                     genesel=f"{cpu.max().idxmax()}, up to {cpu.values.max():.1f} s "
                             f"({thesis_name(cpu.max(axis=1).idxmax())})"))
    spread = ard_spread(ard)
    holds = ard_holds(ard)
    for d in datasets:
        k = thesis_name(d)
        sd = dict(zip(spread[spread.dataset == d].approximation, spread[spread.dataset == d].sd))
        rows.append(dict(quantity=f"ARD spread, {k}",
                         protocol=f"sd of log10 l_m, Laplace / EP, training part, {genes_label}",
                         paper="Laplace more spread out than EP",
                         genesel=" / ".join(fmt_pair(sd["laplace"], sd["ep"]))
                                 + f": {'holds' if holds[k] else 'does not hold here'}",
                         note=evidence_note(ard, d)))
    return rows


#: What tests/papers/test_tan2006_ard_maxima.py shows, in the words the paragraph and the paper-vs rows use
_SEVERAL_MAXIMA = ("the ARD evidence has several, and on Colon other starts reach higher ones "
                   "(tests/papers/test_tan2006_ard_maxima.py)")

#: Why an ARD comparison is one of the maxima a run reached (measured in tests/papers/test_tan2006_ard_maxima.py).
LOCAL_MAXIMA = ("The evidence over thousands of ARD values has several local maxima, and a fit reaches the one its "
                "start leads to: on Colon's training part EP started where Laplace's fit ended reaches a higher "
                "evidence than from its default start, and Laplace with 8 restarts a higher one than with the 2 of "
                "this protocol (tests/papers/test_tan2006_ard_maxima.py). The spreads compared here are those of "
                "the maxima this run reached, not of the best maxima there are.")


def evidence_note(ard: pd.DataFrame, dataset: str) -> str:
    """The log evidence of a data set's Laplace and EP ARD fits, and that they are local maxima
    (:data:`LOCAL_MAXIMA`)."""
    ev = {r["approximation"]: r["log_evidence"] for r in ard[ard.dataset == dataset].to_dict("records")}
    parts = [f"{name} {ev[a]:.2f}" for a, name in (("laplace", "Laplace"), ("ep", "EP")) if a in ev]
    return (f"at the maxima this run reached (log evidence {', '.join(parts)}): {_SEVERAL_MAXIMA}, so the comparison "
            "is of these maxima")


def differences(cpu: pd.DataFrame, ard: pd.DataFrame, *, quick: bool = False, inner_k: int = 5) -> str:
    """The two bullets of "What differs and why" that quote this run: CPU cost (with the inner CV that ran) and ARD
    values (with :data:`LOCAL_MAXIMA`)."""
    names = {d: thesis_name(d) for d in ard.dataset.unique()}
    bullet = ard_bullet(ard_spread(ard), ard_top_genes(ard), names)
    if not ard.empty:
        bullet = bullet.rstrip() + " " + LOCAL_MAXIMA
    return cpu_bullet(cpu, quick=quick, inner_k=inner_k) + "\n" + bullet


# ----------------------------------------------------------------------------------------------------------------
# sentences
# ----------------------------------------------------------------------------------------------------------------


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


def cpu_bullet(cpu: pd.DataFrame, *, quick: bool = False, inner_k: int = 5) -> str:
    """The CPU-cost bullet of "What differs and why" from the mean CPU seconds per fold (data sets x methods); the
    SMLR grid and inner folds are the ones of the mode that ran."""
    from genesel.papers.tan2006_ch3 import GRIDS

    n_lam = len(GRIDS["quick" if quick else "full"]["SMLR"]["lam"])

    def span(cols):
        v = cpu[[c for c in cols if c in cpu.columns]].to_numpy(dtype=float).ravel()
        return "not run" if not np.isfinite(v).any() else format_range(v, "{:.2f}", "s")

    return ("* **CPU cost** cannot be compared in absolute terms (Matlab, C and C++ on a 2.66 GHz core including data "
            "loading, against Python/numpy/numba here including inner-CV model selection; measured on the machine "
            f"that ran this notebook). Mean CPU seconds per fold in this run: the GPs {span(['GP-Laplace', 'GP-EP'])} "
            "(one shared length scale, so three hyper-parameters), the RVM "
            f"{span(['RVM'])} (no inner CV), the SVM {span(['SVM'])}, DWD {span(['DWD'])}, SMLR "
            f"{span(['SMLR'])} (its bound optimisation converges slowly for small λ, {n_lam} λ × {inner_k} inner "
            "folds).")


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
            f"magnitude larger ({format_range(spread.n90, '{:.0f}')} genes hold 90 % of the total). ")
    if verdict:
        text += ("Laplace's values are more spread out than EP's (sd of log₁₀ l_m, Laplace vs EP) on "
                 + (", ".join(s for v, s in verdict if v) or "no data set")
                 + ("; not on " + ", ".join(s for v, s in verdict if not v) if n_yes < len(verdict) else "")
                 + f": the thesis' observation holds on {n_yes} of {len(verdict)} data sets. ")
    if jac:
        text += (f"The two approximations agree only partly on the ranking (top-50 Jaccard "
                 f"{format_range(jac, '{:.2f}')}). ")
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


# ----------------------------------------------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------------------------------------------


def file_tag(dataset: str) -> str:
    """The data set's part of a figure's file name: the first word of its thesis name ("leukemia"); for a user's
    file, its file name without folders or suffixes."""
    from genesel.dataref import is_file_reference
    from genesel.plotting import figure_name

    return figure_name("x", dataset)[2:] if is_file_reference(dataset) else thesis_name(dataset).split()[0].lower()


def _fold_accuracy(res):
    g = res.groupby(["dataset", "method"])["accuracy"]
    return pd.DataFrame({"mean": 100 * g.mean(), "se": 100 * g.std(ddof=1) / np.sqrt(g.size()),
                         "folds": g.size()}).reset_index()


def accuracy_figure(res, datasets, protocol: str):
    """Figure 3.6 as a dot plot: mean CV accuracy per classifier and data set with ± 1 standard error over the
    folds, the thesis' SVM accuracy (Table 4.7) as an open marker. The axis starts where the data need it (no bar
    is cut: there are no bars)."""
    import matplotlib.pyplot as plt

    st = _fold_accuracy(res)
    fig, ax = plt.subplots(figsize=(14, 6.5))
    colors = dict(zip(CLASSIFIERS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    width = 0.8 / len(CLASSIFIERS)
    for k, m in enumerate(CLASSIFIERS):
        s = st[st["method"] == m].set_index("dataset").reindex(datasets)
        x = np.arange(len(datasets)) + (k - (len(CLASSIFIERS) - 1) / 2) * width
        ax.errorbar(x, s["mean"], yerr=s["se"], fmt="o", ms=10, capsize=4, color=colors[m], label=m)
    for i, d in enumerate(datasets):
        if d in THESIS["svm_errors"]:
            e, n = THESIS["svm_errors"][d]
            x = i - (len(CLASSIFIERS) - 1) / 2 * width
            ax.plot(x, 100 * (1 - e / n), "s", mfc="none", mec=colors["SVM"], ms=16, mew=2.5,
                    label="SVM in the thesis (Table 4.7)" if i == 0 else None)
    ax.set_xticks(range(len(datasets)), [thesis_name(d) for d in datasets])
    ax.set_ylabel("cross-validation accuracy (%)")
    ax.set_ylim(min(50, float((st["mean"] - st["se"]).min()) - 2), 101)
    ax.axhline(100, color="grey", lw=1, ls=":")
    ax.set_title(f"Tan 2006 Fig. 3.6: {protocol} accuracy, mean ± 1 s.e. over folds")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=13, frameon=False)
    fig.tight_layout()
    return fig


def auc_bootstrap(y_true, scores, n_boot: int = 1000, seed: int = 0, level: float = 0.95):
    """Percentile bootstrap interval of the pooled-ROC AUC (samples resampled with replacement, both classes kept)."""
    from genesel.metrics import roc_auc

    y_true, scores = np.asarray(y_true), np.asarray(scores, float)
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y_true == np.max(y_true)), np.flatnonzero(y_true != np.max(y_true))
    vals = []
    for _ in range(n_boot):
        idx = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        vals.append(roc_auc(y_true[idx], scores[idx]))
    a = (1 - level) / 2
    return float(np.quantile(vals, a)), float(np.quantile(vals, 1 - a))


def auc_figure(rocs: dict, datasets, protocol: str):
    """Figure 3.8 as a dot plot: pooled-ROC AUC per classifier and data set with a 95 % bootstrap interval (``rocs``
    from :func:`pooled_rocs`), the thesis' approximate Colon AUCs as open markers."""
    import matplotlib.pyplot as plt

    auc_tab, ci = _auc_frame(rocs, datasets), rocs["ci"]
    fig, ax = plt.subplots(figsize=(14, 6.5))
    colors = dict(zip(CLASSIFIERS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    width = 0.8 / len(CLASSIFIERS)
    lo_all = 1.0
    for k, m in enumerate(CLASSIFIERS):
        x = np.arange(len(datasets)) + (k - (len(CLASSIFIERS) - 1) / 2) * width
        v = np.array([auc_tab.loc[d, m] for d in datasets])
        lo = np.array([ci[d, m][0] for d in datasets])
        hi = np.array([ci[d, m][1] for d in datasets])
        lo_all = min(lo_all, lo.min())
        ax.errorbar(x, v, yerr=[v - lo, hi - v], fmt="o", ms=10, capsize=4, color=colors[m], label=m)
        if "alon" in datasets:
            i = list(datasets).index("alon")
            ax.plot(x[i], THESIS["auc_colon"][m], "s", mfc="none", mec=colors[m], ms=16, mew=2.5,
                    label="thesis (≈, Colon only)" if k == 0 else None)
    ax.set_xticks(range(len(datasets)), [thesis_name(d) for d in datasets])
    ax.set_ylabel("area under the pooled ROC curve")
    ax.set_ylim(max(0.0, min(0.5, lo_all - 0.05)), 1.04)  # room for the markers and caps at an AUC of 1
    ax.axhline(0.5, color="grey", lw=1, ls=":")
    ax.set_title(f"Tan 2006 Fig. 3.8: AUC of the pooled {protocol} ROC curves, 95 % bootstrap intervals")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=13, frameon=False)
    fig.tight_layout()
    return fig


def roc_figure(rocs: dict, dataset: str, protocol: str):
    """Figure 3.7: the pooled ROC curve of every classifier on one data set (``rocs`` from :func:`pooled_rocs`),
    legend beside the axes."""
    import matplotlib.pyplot as plt

    curves, aucs = rocs["curves"], rocs["aucs"]
    fig, ax = plt.subplots(figsize=(12, 7.5))
    for m in CLASSIFIERS:
        fpr, tpr = curves[dataset, m]
        ax.step(fpr, tpr, where="post", label=f"{m} (AUC {aucs[dataset, m]:.3f})")
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls=":", label="chance")
    ax.set_xlabel("false positive rate (share of the first class called second)")
    ax.set_ylabel("true positive rate")
    ax.set_aspect("equal")
    ax.set_title(f"Tan 2006 Fig. 3.7: pooled {protocol} ROC, {thesis_name(dataset)}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=13, frameon=False)
    fig.tight_layout()
    return fig


def cpu_figure(cpu: pd.DataFrame, datasets, protocol: str):
    """Figure 3.9: mean CPU seconds per outer fold (log scale), one dot per classifier and data set."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(14, 6.5))
    colors = dict(zip(CLASSIFIERS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    width = 0.8 / len(CLASSIFIERS)
    for k, m in enumerate(CLASSIFIERS):
        x = np.arange(len(datasets)) + (k - (len(CLASSIFIERS) - 1) / 2) * width
        ax.plot(x, [cpu.loc[d, m] for d in datasets], "o", ms=11, color=colors[m], label=m)
    ax.set_yscale("log")
    ax.set_xticks(range(len(datasets)), [thesis_name(d) for d in datasets])
    ax.set_ylabel("CPU seconds per fold (log scale)")
    ax.set_title(f"Tan 2006 Fig. 3.9: CPU cost per fold of {protocol}, measured here")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=13, frameon=False)
    fig.tight_layout()
    return fig


def fmt_pair(a: float, b: float) -> tuple[str, str]:
    """Two numbers with two decimals, or three where two decimals would print them equal (a comparison of two
    spreads must not show "1.67 vs 1.67" when one is larger)."""
    digits = 2 if f"{a:.2f}" != f"{b:.2f}" else 3
    return f"{a:.{digits}f}", f"{b:.{digits}f}"


def ard_figure(ard: pd.DataFrame, dataset: str, genes_label: str):
    """Figures 4.3-4.5: histograms of log10 of the ARD values of ``dataset`` (genes not constant in training),
    Laplace beside EP, on a logarithmic count axis so the few highly relevant genes stay visible; ``genes_label``
    says which genes the fits saw ("all genes")."""
    import matplotlib.pyplot as plt

    n_genes_label = f"{n_variable_genes(ard, dataset):,} genes not constant in training ({genes_label})"
    fig, axes = plt.subplots(1, 2, figsize=(15, 6), sharey=True, sharex=True)
    rows = sorted(ard[ard.dataset == dataset].to_dict("records"), key=lambda r: r["approximation"] != "laplace")
    logs = [np.log10(np.asarray(r["relevances"])[np.asarray(r["relevances"]) > 0]) for r in rows]
    sds = fmt_pair(*(float(v.std()) for v in logs)) if len(logs) == 2 else [f"{float(v.std()):.2f}" for v in logs]
    for ax, r, v, sd in zip(axes, rows, logs, sds):
        ax.hist(v, bins=60, color="C0" if r["approximation"] == "laplace" else "C1", log=True)
        ax.set_xlabel("log10 of the ARD value l_m (larger: more relevant)")
        ax.set_title(f"GP-{'Laplace' if r['approximation'] == 'laplace' else 'EP'}: sd of log10 = {sd}\n"
                     f"(log evidence {r['log_evidence']:.2f}, a local maximum)")
        at_bound = _ard_stats(r)["at_bound"]
        if at_bound:  # the spike at the optimiser's bound is not a measured value: say so beside it
            ax.annotate(f"{at_bound:,} genes at the optimiser's\nlower bound (l = 1e-12)", xy=(-12, at_bound),
                        xytext=(0.12, 0.68), textcoords="axes fraction", fontsize=15,
                        bbox=dict(facecolor="white", edgecolor="none", alpha=0.9),
                        arrowprops=dict(arrowstyle="->", color="0.3"))
    axes[0].set_ylabel("number of genes (log scale)")
    fig.suptitle(f"Tan 2006 Figs. 4.3-4.5: ARD values, {thesis_name(dataset)}: {n_genes_label}")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


# ----------------------------------------------------------------------------------------------------------------
# what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------

#: CPU seconds per outer fold per sample x gene for the six classifiers with their inner CV, the SVM's kernel
#: choice and the ARD fits, measured on this project's machine (quick: Leukemia, 200 genes, 3 folds, about 5 s;
#: full: Colon, Leukemia and Singh on all genes, 10 folds, about 15 min), and the fixed costs.
_FOLD_RATE, _OVERHEAD = 1.0e-4, 25.0


def estimated_seconds(datasets, *, n_folds, max_genes=None, n_jobs=1) -> tuple[float, str]:
    """(seconds, what it is) of notebook 05a with these parameters, before it runs."""
    work = 0.0
    for d in datasets:
        n, g = load_task(d).X.shape
        work += _FOLD_RATE * n_folds * n * (g if max_genes is None else min(g, max_genes))
    return (_OVERHEAD + work / max(1, min(int(n_jobs), 2)),
            f"{len(datasets)} data set(s) x {n_folds} folds x six classifiers with their inner CV, and the ARD fits")


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def winners(summary: dict, rocs: dict, dataset: str) -> str:
    """Exercise 1: which classifier is most accurate on ``dataset``, by how many samples over the next, and whether
    the AUC intervals of the two overlap."""
    acc = summary["accuracy"].loc[dataset].sort_values(ascending=False)
    err = summary["errors"].loc[dataset]
    best = acc.index[acc == acc.iloc[0]].tolist()
    rest = acc[~acc.index.isin(best)]
    text = (f"{thesis_name(dataset)}: {' and '.join(best)} most accurate ({100 * acc.iloc[0]:.1f} %, "
            f"{int(err[best[0]])} errors)")
    if len(rest):
        nxt = rest.index[0]
        lo1, hi1 = rocs["ci"][dataset, best[0]]
        lo2, hi2 = rocs["ci"][dataset, nxt]
        text += (f", {int(err[nxt] - err[best[0]])} sample(s) ahead of {nxt}; their AUC intervals "
                 + ("overlap" if lo1 <= hi2 and lo2 <= hi1 else "do not overlap")
                 + f" ({format_range([lo1, hi1])} and {format_range([lo2, hi2])})")
    return text + "."


def winners_across_seeds(runs: dict) -> pd.DataFrame:
    """Exercise 2: the most accurate classifier(s) per data set under each seed (``runs``: {seed: cv_summary})."""
    out = {}
    for seed, summary in runs.items():
        acc = summary["accuracy"]
        out[f"seed {seed}"] = {thesis_name(d): ", ".join(acc.columns[acc.loc[d] == acc.loc[d].max()])
                               for d in acc.index}
    t = pd.DataFrame(out).rename_axis("data set")
    t["same winner(s)"] = t.nunique(axis=1).eq(1).map({True: "yes", False: "no"})
    return t


def marker_ranks(ard: pd.DataFrame, dataset: str, markers) -> pd.DataFrame:
    """Exercise 3: the rank of each marker gene (by symbol or probe ID) in the ARD ranking of each approximation on
    ``dataset``, among the genes the run kept ("not kept" when the quick gene filter dropped it)."""
    ds = load_task(dataset)
    sym = dict(zip(ds.gene_ids.astype(str), gene_symbols(ds)))
    out = {}
    for r in ard[ard.dataset == dataset].itertuples():
        order = np.argsort(-np.asarray(r.relevances), kind="stable")
        ranked = [(sym.get(str(r.gene_ids[i]), ""), str(r.gene_ids[i])) for i in order]
        where = {m: next((k + 1 for k, names in enumerate(ranked) if m in names), None) for m in markers}
        out[f"GP-{'Laplace' if r.approximation == 'laplace' else 'EP'} rank"] = {
            m: (k if k is not None else f"not among the {len(ranked)} genes kept") for m, k in where.items()}
    return pd.DataFrame(out).rename_axis("marker")
