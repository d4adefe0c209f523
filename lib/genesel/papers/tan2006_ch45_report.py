"""Tan (2006), chapters 4-5: tables, figures and sentences of notebooks 05b and 05c from the cells of
:mod:`genesel.papers.tan2006_ch45` (kept apart so that editing a figure or a table never invalidates a cached cell).

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006: Tables 4.2-4.7 and Figures 4.2, 4.6 (notebook 05b), Tables 5.1-5.6 (notebook 05c), each
beside the thesis' printed numbers (:data:`genesel.papers.tan2006_ch45.PAPER`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.experiments.protocols import class_sizes

from genesel.papers.tan2006 import thesis_name
from genesel.papers.tan2006_ch45 import (LUNG_NOTE, PAPER, PREPROCESSING_CHECKS, RANKERS, VARIANTS, thesis_data,
                                         thesis_split)
from genesel.stability import kuncheva_index, mean_pairwise_jaccard, selection_frequency, stability_score

__all__ = ["thesis_name", "variant_list", "split_summary", "checks_sentence", "preprocessing_table",
           "thesis_ranking_tables", "unconverged_note", "fold_unconverged_note", "thesis_sizes", "table46", "table47",
           "chapter4_paper_vs_rows",
           "rvm_sets", "table53", "table54", "table55", "table56", "chapter5_paper_vs_rows", "stability_table",
           "lofo_table", "occurrence_table", "ranking_tables", "forward_figure_name", "fig_forward",
           "fig_stability_accuracy", "fig_overlap", "gene_namer", "annotation", "chapter5_matches", "banner_texts",
           "estimated_seconds", "BUDGETS", "ranking_comparison", "stability_comparison", "table46_by_seed",
           "check_class_sizes", "check_chapter4_sizes"]

#: Time budgets on 2 cores (seconds), {chapter: (quick mode, full mode)}: notebook 05b (chapter 4; its full run:
#: 6 min) and 05c (chapter 5; its full run: 18 min).
BUDGETS = {4: (45.0, 720.0), 5: (60.0, 1800.0)}


# ----------------------------------------------------------------------------------------------------------------
# the notebooks' set-up
# ----------------------------------------------------------------------------------------------------------------


def _chapter4_shortfall(d, seed: int, n_folds: int, max_genes=None):
    """None when chapter 4's protocol can run on data set ``d``, else (where, class, count there, count in all):
    the first training part (the train/test split's, then each leave-one-fold-out fold's, as the cells deal them)
    holding fewer than 2 samples of a class."""
    from genesel.experiments import stratified_kfold
    from genesel.papers.presentation import short_training_part

    ds = thesis_data(d, max_genes)
    tr, _ = thesis_split(d, seed, max_genes)
    parts = [("the training half of its train/test split", tr)]
    parts += [(f"the training part of fold {i + 1} of {n_folds}", t)
              for i, (t, _) in enumerate(stratified_kfold(ds.y, n_folds, seed, groups=ds.groups))]
    return short_training_part(ds, parts, by_group=True)  # a grouped study's leave-one-out leaves a group out


def check_chapter4_sizes(datasets, seed: int, n_folds: int, max_genes=None) -> None:
    """Chapter 4 picks each biomarker set by leave-one-out along the forward path on a training part (the half of
    the samples its train/test split trains on, and Table 4.7's leave-one-fold-out training parts), and a
    leave-one-out needs 2 samples of each class there. A data set whose split leaves fewer (a user's small study)
    is refused here, before anything runs, naming it, the part, its class and the notebooks that run on it, rather
    than by the forward selection deep in the grid."""
    for d in datasets:
        short = _chapter4_shortfall(d, seed, n_folds, max_genes)
        if short is not None:
            where, cls, k, n = short
            raise ValueError(f"{thesis_name(d)}: chapter 4 picks its biomarker sets by leave-one-out on the training "
                             f"samples, which needs 2 of each class; {where} (seed {seed}) holds {k} of class "
                             f"{str(cls)!r}, which has {n} in all. Notebook 05a runs on it, and so does the "
                             "leaderboard (06), which adapts its folds to small classes")


def check_class_sizes(datasets, n_folds: int, quick: bool, max_genes=None) -> None:
    """Chapter 5's leave-one-fold-out selects genes with MSVM-RFE and the GP-ARD selectors, which choose by inner
    folds of the other folds' samples (10, the thesis' number; 5 in quick mode), so every class needs that many
    samples outside each of the ``n_folds`` test folds. A data set with a smaller class (a user's small study: the
    thesis' sets are far larger) is refused here, before anything runs, naming it, its smallest class and the
    notebooks that run on it, rather than by an estimator deep in the grid."""
    inner = 5 if quick else 10
    k = int(n_folds)
    need = next(c for c in range(inner, 100 * inner) if c - -(-c // k) >= inner)  # c minus its share of a test fold
    for d in datasets:
        ds = thesis_data(d, max_genes)
        names = np.unique(np.asarray(ds.y))
        sizes = np.array(list(class_sizes(ds.y, ds.groups).values()))  # groups of each class when grouped
        unit = "samples" if ds.groups is None else "groups"
        small = int(np.argmin(sizes))
        if sizes[small] < need:
            cls = ds.classes[small] if len(ds.classes) == names.size else names[small]
            mode = "quick mode; " if quick else ""
            ch4 = _chapter4_shortfall(d, 0, 3 if quick else 10, max_genes) is None  # 05b at its defaults
            runs = "Notebooks 05a and 05b run on it" if ch4 else "Notebook 05a runs on it"
            raise ValueError(f"{thesis_name(d)}: chapter 5's leave-one-fold-out selects genes with MSVM-RFE and "
                             f"GP-ARD, which choose by {inner} inner folds of the other folds' samples ({mode}the "
                             f"thesis' 10): with {k} folds every class needs {need} {unit}; class {str(cls)!r} has "
                             f"{int(sizes[small])}. {runs}, and so does the leaderboard (06), which adapts its folds "
                             "to small classes")


def grouped_notes(datasets, chapter: int, max_genes=None) -> list:
    """One note per data set whose samples are grouped (``Dataset.groups``: a patient's paired tissues), saying how
    the chapter's numbers treat the groups. The splits keep a group on one side (the train/test splits of chapter 4,
    the outer folds of chapter 5), and so do the choices made inside a training part: the leave-one-out along the
    forward path (which picks the biomarker set) leaves a group out, and in chapter 5 the inner folds of MSVM-RFE and
    GP-ARD deal whole groups (:mod:`genesel._core.resampling`), so no sample is scored by a model trained on its
    partner. The "LOO accuracy" of such a study is therefore a leave-one-group-out accuracy, counted over samples."""
    out = []
    for d in datasets:
        ds = thesis_data(d, max_genes)
        if ds.groups is None:
            continue
        n = np.unique(np.asarray(ds.groups)).size
        if chapter == 4:
            inside = ("the leave-one-out on the training samples (Tables 4.3 and 4.5, and the forward selection of "
                      "Tables 4.6 and 4.7's biomarker sets) leaves out a group, not one sample")
        else:
            inside = ("the choices made inside a training part leave out groups, not samples: the leave-one-out "
                      "of the forward selection (SVM-RFE, MSVM-RFE and GP-ARD biomarker sets, and Table 5.4's "
                      "accuracies) and the inner folds of MSVM-RFE and GP-ARD")
        out.append(f"**{thesis_name(d)}: samples in {n} groups.** Its splits keep a group on one side, and {inside}, "
                   "so no sample is scored by a model trained on its partner (the same patient's other tissue). Its "
                   "\"LOO\" accuracies are leave-one-group-out accuracies, counted over samples. (The thesis had no "
                   "grouped samples; notebook 06 keeps groups together the same way.)")
    return out


def variant_list(variants, quick: bool) -> list:
    """The notebook's ``variants`` parameter checked: a list of :data:`~genesel.papers.tan2006_ch45.VARIANTS`
    (default: quick ``["merged"]``, full both), anything else refused with the values allowed."""
    from genesel.papers.presentation import as_list

    variants = as_list(variants, "variants", example=["merged"]) or (["merged"] if quick else list(VARIANTS))
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        raise ValueError(f"variants {bad} unknown; choose from {VARIANTS}")
    return variants


def split_summary(datasets, seed: int, max_genes=None) -> str:
    """One line per data set: genes used, and the training and test parts of the thesis' split by class."""
    lines = []
    for d in datasets:
        ds = thesis_data(d, max_genes)
        y, classes = ds.y, ds.classes
        tr, te = thesis_split(d, seed, max_genes)
        lines.append(f"{thesis_name(d)}: {ds.X.shape[1]} genes; training {tr.size} ({int((y[tr] > 0).sum())} "
                     f"{classes[1]} / {int((y[tr] < 0).sum())} {classes[0]}), test {te.size} "
                     f"({int((y[te] > 0).sum())} {classes[1]} / {int((y[te] < 0).sum())} {classes[0]})")
    return "\n".join(lines)


def checks_sentence() -> str:
    """The thesis numbers that pin its preprocessing down, in one Markdown line."""
    return "**Thesis numbers used as checks:** " + "; ".join(f"{q}: {v} ({w})" for q, v, w in PREPROCESSING_CHECKS)


def preprocessing_table(prep: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``preprocessing_cell`` indexed by (data set, preprocessing), counts as nullable integers."""
    prep = prep.astype({c: "Int64" for c in prep.columns if c not in ("dataset", "preprocessing")})
    out = prep.assign(data=prep.dataset.map(thesis_name)).drop(columns="dataset").set_index(["data", "preprocessing"])
    return out.astype(object).where(out.notna(), "–")  # a check that does not apply to a data set


# ----------------------------------------------------------------------------------------------------------------
# chapter 4 beside the thesis
# ----------------------------------------------------------------------------------------------------------------

_T4_COLUMNS = {"test": ["optimal subsets", "test acc. (%)", "genes in biomarker set"],
               "loo": ["LOO acc. on training (%)", "genes in biomarker set", "optimal subsets"]}


def _thesis_ranking(key, data, ranking):
    """The thesis' row of Table 4.2/4.3 (SVM-RFE) or 4.4/4.5 (GPC-ARD) for a data set and ranking."""
    if ranking == "SVM-RFE":
        return PAPER["table4_2" if key == "test" else "table4_3"].get(data, (None,) * 4)
    return PAPER["table4_4" if key == "test" else "table4_5"].get((data, ranking), (None,) * 3)


def thesis_ranking_tables(rank: pd.DataFrame) -> dict:
    """Tables 4.2-4.5: :func:`ranking_tables` of the ranking methods with the thesis' columns beside genesel's
    (``{"test": ..., "loo": ...}``)."""
    tabs = ranking_tables(rank[rank.method.isin(RANKERS)], {d: thesis_name(d) for d in rank.dataset.unique()})
    for key, t in tabs.items():
        cols = _T4_COLUMNS[key]
        for c in cols:
            t[f"thesis: {c}"] = [_thesis_cell(_thesis_ranking(key, r.data, r.ranking)[cols.index(c)])
                                 for r in t.itertuples()]
    return {k: t.set_index(["data", "variant", "ranking"]) for k, t in tabs.items()}


def _thesis_cell(v):
    """A thesis value for a table cell: "–" where the thesis has none (another data set), whole numbers as such."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "–"
    return int(v) if isinstance(v, float) and v.is_integer() else v


#: what a capped GP-ARD fit's ranking is worth (tests/papers/test_fidelity.py), said after every count of capped fits
_CAPPED_CAVEAT = ("Their ARD values rank the genes all the same, but the evidence could still rise, and the order of "
                  "the "
                  "weakly relevant genes is the optimiser's, not the data's.")


def unconverged_note(rank: pd.DataFrame) -> str:
    """How many GP-ARD fits of the rankings stopped at the optimiser's iteration cap (zero is the goal)."""
    capped, fits = int(rank.unconverged_fits.sum()), int(rank.method.isin(["GP-Laplace", "GP-EP"]).sum())
    if capped == 0:
        return (f"All {fits} GP-ARD fits of the rankings met L-BFGS-B's convergence test (none stopped at its "
                "iteration cap).")
    return f"GP-ARD fits whose L-BFGS-B optimiser stopped at its iteration cap: {capped} of {fits}. {_CAPPED_CAVEAT}"


def fold_unconverged_note(folds: pd.DataFrame) -> str:
    """How many GP evidence maximisations inside the leave-one-fold-out selectors (GP-Laplace's ranking, GP-ARD-FS,
    GP-ARD-RFE) stopped at the optimiser's iteration cap, over every fold and variant (zero is the goal)."""
    capped = int(folds.unconverged_fits.sum())
    if capped == 0:
        return ("Every GP evidence maximisation inside the selectors met L-BFGS-B's convergence test (none stopped at "
                "its iteration cap).")
    return (f"GP evidence maximisations inside the selectors that stopped at L-BFGS-B's iteration cap: {capped}. "
            f"{_CAPPED_CAVEAT}")


def thesis_sizes(dataset: str, method: str):
    """(biomarker size by test accuracy, by LOO) the thesis gives for a data set and ranking, or None."""
    name = thesis_name(dataset)
    if method == "SVM-RFE" and name in PAPER["table4_2"]:
        return PAPER["table4_2"][name][2], PAPER["table4_3"][name][1]
    if (name, method) in PAPER["table4_4"]:
        return PAPER["table4_4"][name, method][2], PAPER["table4_5"][name, method][1]
    return None


def _table46(rank: pd.DataFrame) -> pd.DataFrame:
    t46 = rank.assign(data=rank.dataset.map(thesis_name))
    t46["test acc. (%)"] = (100 * (1 - t46.test_errors_at_biomarker / t46.n_test)).round(1)
    t46["all genes test acc. (%)"] = (100 * (1 - t46.all_genes_test_errors / t46.n_test)).round(1)
    t46["thesis: test acc. (%)"] = [PAPER["table4_6"].get((r.data, r.method), (None, None))[0]
                                    for r in t46.itertuples()]
    t46["thesis: genes"] = [PAPER["table4_6"].get((r.data, r.method), (None, None))[1] for r in t46.itertuples()]
    return t46


def _thesis_columns(t: pd.DataFrame) -> pd.DataFrame:
    """The thesis' columns of a display table as cells (:func:`_thesis_cell`)."""
    return t.assign(**{c: t[c].map(_thesis_cell) for c in t.columns if str(c).startswith("thesis")})


def table46(rank: pd.DataFrame) -> pd.DataFrame:
    """Table 4.6: the SVM's test accuracy with each selector's biomarker set, beside the thesis'."""
    t46 = _thesis_columns(_table46(rank))
    return t46[["data", "variant", "method", "biomarker_size", "test acc. (%)", "thesis: genes",
                "thesis: test acc. (%)",
                "all genes test acc. (%)"]].rename(columns={"method": "selector", "biomarker_size": "genes"}
                                                    ).set_index(["data", "variant", "selector"])


def _thesis_lofo(lofo: pd.DataFrame, table: str, columns) -> pd.DataFrame:
    """``lofo`` with the thesis' (accuracy or errors, second) entries of Table 4.7 or 5.6 as ``columns``."""
    out = lofo.copy()
    for i, c in enumerate(columns):
        if c is not None:
            out[c] = [PAPER[table].get((r.data, r.method), (None, None))[i] for r in out.itertuples()]
    return out


def table47(lofo: pd.DataFrame) -> pd.DataFrame:
    """Table 4.7: total leave-one-fold-out errors and the average biomarker size, beside the thesis'
    (``lofo`` from :func:`lofo_table`)."""
    t = _thesis_columns(_thesis_lofo(lofo, "table4_7", ["thesis: errors", "thesis: avg size"]))
    return (t[["data", "variant", "method", "n", "svm_errors", "thesis: errors", "mean_size", "thesis: avg size",
               "median_size"]]
            .rename(columns={"n": "N", "svm_errors": "errors (SVM)", "mean_size": "avg size",
                             "median_size": "median size"}).round(1)
            .set_index(["data", "variant", "method"]))


def _dominated(r) -> bool:
    """One fold's biomarker set larger than all the other folds' together, and ten times their median or more: the
    average size is then that fold's, not the method's (:func:`size_notes`)."""
    return r["max_size"] > r["other_sizes_total"] and r["max_size"] >= 10 * max(r["median_size"], 1)


def size_notes(lofo: pd.DataFrame, n_folds: int) -> list:
    """One sentence per row of ``lofo`` (:func:`lofo_table`) whose average biomarker size one fold dominates: that
    fold's size, the median, and why the thesis' rule can choose so long a prefix. Empty when no row is dominated."""
    notes = []
    for r in lofo.to_dict("records"):
        if _dominated(r):
            notes.append(
                f"{r['data']} ({r['variant']}), {r['method']}: one of the {n_folds} folds chose "
                f"{int(r['max_size']):,} genes, the other {n_folds - 1} folds "
                f"{int(r['other_sizes_total']):,} genes together "
                f"(median of all {n_folds}: {r['median_size']:g}), so the average size ({r['mean_size']:.1f}) is that "
                "fold's. The thesis' rule takes the smallest prefix of the ranking with the fewest training "
                "leave-one-out errors: one error fewer on a long prefix than on every short one is enough to choose "
                "it. The test errors count that fold's set as chosen.")
    return notes


def chapter4_paper_vs_rows(rank: pd.DataFrame, lofo: pd.DataFrame, n_folds: int, max_genes=None) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: every number of Tables 4.2, 4.3, 4.6 and 4.7 with a
    counterpart in this run; a run on fewer genes than the thesis (``max_genes``, quick mode) says so in each row's
    protocol."""
    tabs = {k: t.reset_index() for k, t in thesis_ranking_tables(rank).items()}
    genes = "" if max_genes is None else f", the {max_genes} most variable genes (quick mode; the thesis: all)"
    rows = []
    for r in rank[rank.method == "SVM-RFE"].to_dict("records"):
        name = thesis_name(r["dataset"])
        if name in PAPER["table4_2"]:
            ok = r["n_test"] - r["all_genes_test_errors"]
            printed = PAPER["table4_2"][name][3]
            truncated = f"{100 * ok / r['n_test']:.2f}"[:len(str(printed))] == str(printed)
            what = "all genes" if max_genes is None else f"all {max_genes} genes of this run (the thesis: all genes)"
            rows.append(dict(quantity=f"{name}: SVM test accuracy, {what} (Table 4.2)",
                             protocol=r["variant"] + genes, paper=f"{printed}%",
                             genesel=f"{100 * ok / r['n_test']:.2f}% ({ok}/{r['n_test']})",
                             note=(f"the thesis truncates its percentages ({ok}/{r['n_test']} = "
                                   f"{100 * ok / r['n_test']:.2f}% is printed {printed}%)" if truncated else "")))
    for r in tabs["test"].to_dict("records"):
        if r["ranking"] == "SVM-RFE" and r["data"] in PAPER["table4_2"]:
            p = PAPER["table4_2"][r["data"]]
            rows.append(dict(quantity=f"{r['data']}: SVM-RFE, optimal subsets by test / test acc. / biomarker size "
                                      "(Table 4.2)", protocol=r["variant"] + genes, paper=f"{p[0]} / {p[1]}% / {p[2]}",
                             genesel=f"{r['optimal subsets']} / {r['test acc. (%)']}% / {r['genes in biomarker set']}"))
    for r in tabs["loo"].to_dict("records"):
        if r["ranking"] == "SVM-RFE" and r["data"] in PAPER["table4_3"]:
            p = PAPER["table4_3"][r["data"]]
            rows.append(dict(quantity=f"{r['data']}: SVM-RFE, LOO acc. / biomarker size / optimal subsets (Table 4.3)",
                             protocol=r["variant"] + genes, paper=f"{p[0]}% / {p[1]} / {p[2]}",
                             genesel=f"{r['LOO acc. on training (%)']}% / {r['genes in biomarker set']} / "
                                     f"{r['optimal subsets']}"))
    for r in _table46(rank).to_dict("records"):
        if (r["data"], r["method"]) in PAPER["table4_6"]:
            p = PAPER["table4_6"][(r["data"], r["method"])]
            rows.append(dict(quantity=f"{r['data']}: {r['method']} biomarker set, test acc. / genes (Table 4.6)",
                             protocol=r["variant"] + genes, paper=f"{p[0]}% / {p[1]}",
                             genesel=f"{r['test acc. (%)']}% / {r['biomarker_size']}"))
    for r in lofo.to_dict("records"):
        if (r["data"], r["method"]) in PAPER["table4_7"]:
            p = PAPER["table4_7"][(r["data"], r["method"])]
            rows.append(dict(quantity=f"{r['data']}: {r['method']}, leave-one-fold-out errors / avg size (Table 4.7)",
                             protocol=f"{r['variant']}, {n_folds} folds{genes}", paper=f"{p[0]} / {p[1]}",
                             genesel=f"{int(r['svm_errors'])} / {r['mean_size']:.1f}",
                             note=(f"one fold chose {int(r['max_size']):,} genes (median of the {n_folds} folds "
                                   f"{r['median_size']:g}; the note under Table 4.7)" if _dominated(r) else "")))
    rows.append(dict(quantity="Lung (Tables 4.1-4.6)", paper="reported", genesel="not public", note=LUNG_NOTE))
    return rows


# ----------------------------------------------------------------------------------------------------------------
# chapter 5 beside the thesis
# ----------------------------------------------------------------------------------------------------------------


def rvm_sets(folds: pd.DataFrame, datasets, variant: str, max_genes=None) -> list:
    """Tables 5.1-5.2 as the notebook shows them, in order: per data set, where its gene names come from, the genes
    RVM selects in each training set and their occurrence counts; then the thesis' Table 5.1 when Colon ran."""
    from IPython.display import Markdown

    from genesel.papers.presentation import tidy

    out = []
    for d in datasets:
        name = gene_namer(d, max_genes)
        rv = folds[(folds.dataset == d) & (folds.method == "RVM") & (folds.variant == variant)].sort_values("fold")
        occ = occurrence_table([set(b) for b in rv.biomarkers])
        occ["genes"] = [", ".join(name(g) for g in gl) for gl in occ.genes]
        out += [Markdown(annotation(d)),
                Markdown(f"**{thesis_name(d)}: genes selected by RVM in each training set (Table 5.1)**"),
                pd.DataFrame({"fold left out": rv.fold + 1,
                              "genes": [", ".join(name(g) for g in b) for b in rv.biomarkers]}
                             ).set_index("fold left out"),
                Markdown(f"**{thesis_name(d)}: number of occurrences (Table 5.2)**"),
                tidy(occ[occ.N_i > 0].set_index("occurrences"), index=True)]
    if "alon" in datasets:
        out += [Markdown("**The thesis' Table 5.1 (Colon), for comparison**"),
                pd.DataFrame({"experiment": range(1, 11), "genes": [str(s) for s in PAPER["table5_1"]]})
                .set_index("experiment")]
    return out


def _with_thesis_S(stab: pd.DataFrame, table: str) -> pd.DataFrame:
    return stab.assign(**{"thesis: S": [PAPER[table].get((r.data, r.method)) for r in stab.itertuples()]})


def table53(stab: pd.DataFrame) -> pd.DataFrame:
    """Table 5.3: the stability score S of RVM and SMLR, beside the thesis' (``stab`` from
    :func:`stability_table`)."""
    t53 = _thesis_columns(_with_thesis_S(stab[stab.method.isin(["RVM", "SMLR"])], "table5_3"))
    return t53[["data", "variant", "method", "stability_S", "thesis: S", "mean_size"]].set_index(
        ["data", "variant", "method"])


def _table54(t54: pd.DataFrame) -> pd.DataFrame:
    wilcoxon = "Wilcoxon p < 0.01 (373 genes)"
    return t54.assign(**{"thesis LOO acc. (%)": [PAPER["table5_4"].get(s) or PAPER["table5_4"].get(
        wilcoxon if s.startswith("Wilcoxon") else "") for s in t54.subset]})


def table54(t54: pd.DataFrame) -> pd.DataFrame:
    """Table 5.4 (the rows of ``table54_cell``) beside the thesis' LOO accuracies."""
    t = _table54(t54)[["subset", "n_genes", "loo_accuracy", "thesis LOO acc. (%)"]].set_index("subset")
    return t.astype(object).where(t.notna(), "not in the thesis")


def table55(stab: pd.DataFrame) -> pd.DataFrame:
    """Table 5.5: the stability of every method's fold biomarker sets (S beside the thesis', Kuncheva, Jaccard)."""
    cols = ["data", "variant", "method", "stability_S", "thesis: S", "kuncheva", "jaccard", "union", "mean_size"]
    return _thesis_columns(_with_thesis_S(stab, "table5_5"))[cols].set_index(["data", "variant", "method"])


def table56(lofo: pd.DataFrame) -> pd.DataFrame:
    """Table 5.6: leave-one-fold-out accuracy and errors of the SVM (beside the thesis') and of GP-Laplace on the
    biomarker sets."""
    t = _thesis_columns(_thesis_lofo(lofo, "table5_6", ["thesis: acc. (%)", "thesis: errors"]))
    return t[["data", "variant", "method", "n", "svm_errors", "svm_accuracy", "thesis: errors", "thesis: acc. (%)",
              "gp_errors", "gp_accuracy", "mean_size", "median_size", "cpu_seconds"]].set_index(
        ["data", "variant", "method"])


def chapter5_paper_vs_rows(stab: pd.DataFrame, lofo: pd.DataFrame, t54, n_folds: int, max_genes=None) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: the thesis' S (Tables 5.3, 5.5), Table 5.6 and, when
    Colon ran, Table 5.4, beside this run's; a run on fewer genes than the thesis (``max_genes``, quick mode) says
    so in each row's protocol."""
    genes = "" if max_genes is None else f", the {max_genes} most variable genes (quick mode; the thesis: all)"
    rows = []
    for r in _with_thesis_S(stab, "table5_5").to_dict("records"):
        if r["thesis: S"] is not None and not pd.isna(r["thesis: S"]):
            rows.append(dict(quantity=f"{r['data']}: stability S of {r['method']} (Tables 5.3, 5.5)",
                             protocol=f"{r['variant']}, {n_folds} folds{genes}", paper=f"{r['thesis: S']:.2f}",
                             genesel=f"{r['stability_S']:.2f}"))
    for r in lofo.to_dict("records"):
        p = PAPER["table5_6"].get((r["data"], r["method"]))
        if p:
            rows.append(dict(quantity=f"{r['data']}: {r['method']}, leave-one-fold-out accuracy (errors) (Table 5.6)",
                             protocol=f"{r['variant']}, {n_folds} folds{genes}", paper=f"{p[0]}% ({p[1]})",
                             genesel=f"{r['svm_accuracy']:.1f}% ({int(r['svm_errors'])})"))
    if t54 is not None:
        for r in _table54(t54).to_dict("records"):
            thesis = r["thesis LOO acc. (%)"]
            rows.append(dict(quantity=f"Colon: LOO accuracy, {r['subset']} (Table 5.4)",
                             protocol="as printed (genes chosen on all samples)" + genes,
                             paper="not in the thesis" if thesis is None or pd.isna(thesis) else f"{thesis}%",
                             genesel=f"{r['loo_accuracy']:.2f}% ({r['n_genes']} genes)"))
    rows.append(dict(quantity="Lung", paper="left out of chapter 5", genesel="not public", note=LUNG_NOTE))
    return rows


# ----------------------------------------------------------------------------------------------------------------
# summaries
# ----------------------------------------------------------------------------------------------------------------


def stability_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set (``data``: its thesis name), variant and method: Tan's S (Eq. 5.1) over the fold biomarker sets,
    the mean pairwise Jaccard
    index, the union size and the mean size; and the Kuncheva index, which needs sets of one size: the top k genes of
    every fold's ranking with k the smallest biomarker set of the method (``kuncheva_k``), so that each of those
    top-k sets lies inside (RVM, SMLR, GP-ARD-FS, GP-ARD-RFE, MSVM-RFE) or is (k = size) the fold's selection."""
    rows = []
    for (ds, var, meth), g in folds.groupby(["dataset", "variant", "method"], sort=False):
        if meth == "All genes":
            continue
        sets = [set(b) for b in g["biomarkers"]]
        sizes = sorted(len(s) for s in sets)
        n = int(g["n_genes"].iloc[0])
        k = sizes[0]
        tops = [set(list(r)[:k]) for r in g["ranking_top"]]
        ok = 0 < k < n and all(len(t) == k for t in tops)
        ki = kuncheva_index(tops, n) if ok else np.nan
        rows.append({"dataset": ds, "variant": var, "method": meth, "stability_S": stability_score(sets),
                     "kuncheva": ki, "kuncheva_k": int(k) if ok else None, "jaccard": mean_pairwise_jaccard(sets),
                     "union": len(set().union(*sets)), "mean_size": float(np.mean(sizes))})
    out = pd.DataFrame(rows)
    out["data"] = out["dataset"].map(thesis_name)
    return out


def lofo_table(folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set (``data``: its thesis name), variant and method: total errors over the folds (SVM and
    GP-Laplace), accuracy, mean biomarker size."""
    agg = folds.groupby(["dataset", "variant", "method"], sort=False).agg(
        n=("n_test", "sum"), svm_errors=("svm_errors", "sum"), gp_errors=("gp_errors", "sum"),
        mean_size=("biomarker_size", "mean"), median_size=("biomarker_size", "median"),
        max_size=("biomarker_size", "max"), other_sizes_total=("biomarker_size", lambda s: s.sum() - s.max()),
        cpu_seconds=("cpu_seconds", "sum")).reset_index()
    agg["svm_accuracy"] = 100.0 * (1 - agg["svm_errors"] / agg["n"])
    agg["gp_accuracy"] = 100.0 * (1 - agg["gp_errors"] / agg["n"])
    agg["data"] = agg["dataset"].map(thesis_name)
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


def chapter5_matches(t54, lofo: pd.DataFrame, folds: pd.DataFrame, paper: dict, variant: str, n_folds: int) -> str:
    """The "what matches" paragraph of notebook 05c, read from the run's own tables (so it is true in every mode):
    Table 5.4 rows equal to the thesis to the second decimal (``t54``: the Table 5.4 cell's rows, or None), Table
    5.6 error counts equal to the thesis' (``lofo`` from :func:`lofo_table` with a ``data`` column of thesis names,
    for ``variant``), and Colon folds whose RVM set is one of Table 5.1's sets gene for gene (``paper`` is
    :data:`genesel.papers.tan2006_ch45.PAPER`)."""
    out = []
    if t54 is not None and len(t54):
        same, other = [], []
        for r in t54.to_dict("records"):
            key = r["subset"] if r["subset"] in paper["table5_4"] else next(
                (k for k in paper["table5_4"] if k.split(" (")[0] == r["subset"]), None)
            if key is None:
                continue
            ours, theirs = round(float(r["loo_accuracy"]), 2), paper["table5_4"][key]
            (same if ours == theirs else other).append(
                f"{r['subset']}: {ours:.2f}%" + ("" if ours == theirs else f" against {theirs:.2f}%"))
        text = "**Table 5.4** (genes chosen on all 62 samples, as printed): "
        text += ("equal to the second decimal: " + "; ".join(same) + ". " if same else "no row equal to the thesis'. ")
        text += ("Different: " + "; ".join(other) + "." if other else "")
        out.append(text.strip())
    rows = lofo[lofo.variant == variant]
    same, n = [], 0
    for r in rows.to_dict("records"):
        p = paper["table5_6"].get((r["data"], r["method"]))
        if p is None:
            continue
        n += 1
        if int(r["svm_errors"]) == p[1]:
            same.append(f"{r['data']} {r['method']} {p[1]}")
    if n:
        out.append(f"**Table 5.6** ({variant} standardisation, {n_folds} folds): {len(same)} of {n} error counts "
                   "equal to the thesis'" + (": " + ", ".join(same) + "." if same else "."))
    rvm = folds[(folds.dataset == "alon") & (folds.method == "RVM") & (folds.variant == variant)].sort_values("fold")
    hits = []
    for r in rvm.to_dict("records"):
        ours = sorted(int(g) + 1 for g in r["biomarkers"])
        for e, theirs in enumerate(paper["table5_1"], start=1):
            if ours == sorted(theirs):
                hits.append(f"fold {int(r['fold']) + 1} = experiment {e} ({', '.join(map(str, ours))})")
    if len(rvm):
        out.append("**Table 5.1** (Colon RVM sets): " + ("sets identical to one of the thesis' gene for gene: "
                   + "; ".join(hits) + "." if hits else "no fold set equals one of the thesis' gene for gene."))
    return "\n".join(f"* {t}" for t in out) if out else "No Colon or Leukemia table ran: nothing to compare."


# ----------------------------------------------------------------------------------------------------------------
# chapter 4 tables and figures
# ----------------------------------------------------------------------------------------------------------------
def _pct(x):
    return round(float(x), 1)


def ranking_tables(rank: pd.DataFrame, names: dict) -> dict:
    """Tables 4.2-4.5 (genesel's columns) from ``ranking_cell`` rows of the ranking methods."""
    out = {"test": [], "loo": []}
    for r in rank.itertuples():
        if not isinstance(r.test_errors, list):
            continue
        te, lo = np.asarray(r.test_errors), np.asarray(r.loo_errors)
        opt_t = np.flatnonzero(te == te.min()) + 1
        opt_l = np.flatnonzero(lo == lo.min()) + 1
        base = {"data": names.get(r.dataset, r.dataset), "variant": r.variant, "ranking": r.method}
        out["test"].append({**base, "optimal subsets": int(opt_t.size),
                            "test acc. (%)": _pct(100 * (1 - te.min() / r.n_test)),
                            "genes in biomarker set": int(opt_t[0]),
                            "all genes test acc. (%)": _pct(100 * (1 - r.all_genes_test_errors / r.n_test))})
        out["loo"].append({**base, "LOO acc. on training (%)": _pct(100 * (1 - lo.min() / r.n_train)),
                           "genes in biomarker set": int(opt_l[0]), "optimal subsets": int(opt_l.size),
                           "test acc. with it (%)": _pct(100 * (1 - te[opt_l[0] - 1] / r.n_test))})
    return {k: pd.DataFrame(v) for k, v in out.items()}


def forward_figure_name(dataset: str, method: str) -> str:
    """File name of :func:`fig_forward`'s figure: ``tan2006_fig4_2_<data set>_svm_rfe`` (Figure 4.2, SVM-RFE) or
    ``tan2006_fig4_6_<data set>_gp_laplace`` (Figure 4.6, GPC-ARD)."""
    from genesel.plotting import figure_name

    return figure_name(f"tan2006_fig4_{'2' if method == 'SVM-RFE' else '6'}", dataset, method.lower().replace('-', '_'))


def fig_forward(rank: pd.DataFrame, dataset: str, method: str, variant: str):
    """Figures 4.2 / 4.6 for one data set and ranking: test and LOO accuracy of every prefix, linear and log axes;
    the thesis' biomarker sizes (test and LOO, :func:`thesis_sizes`) marked where known."""
    import matplotlib.pyplot as plt

    title_name, paper_sizes = thesis_name(dataset), thesis_sizes(dataset, method)
    r = rank[(rank.dataset == dataset) & (rank.method == method) & (rank.variant == variant)].iloc[0]
    te, lo = np.asarray(r.test_errors), np.asarray(r.loo_errors)
    k = np.arange(1, te.size + 1)
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5), sharey=True)
    for ax, log in zip(axes, (False, True)):
        ax.plot(k, 100 * (1 - lo / r.n_train), label=f"LOO on the {r.n_train} training samples", color="C0")
        ax.plot(k, 100 * (1 - te / r.n_test), label=f"test ({r.n_test} samples)", color="C1")
        b = int(np.flatnonzero(lo == lo.min())[0] + 1)
        ax.axvline(b, color="C0", ls=":", lw=2, label=f"biomarker set by LOO: {b} gene{'s' if b != 1 else ''}")
        if paper_sizes:
            for lab, s, c in (("thesis: by test", paper_sizes[0], "C1"), ("thesis: by LOO", paper_sizes[1], "C0")):
                if s:
                    ax.axvline(s, color=c, ls="--", lw=1.5, alpha=0.7, label=f"{lab}, {s} gene{'s' if s != 1 else ''}")
        if log:
            ax.set_xscale("log")
        ax.set_xlabel("number of top-ranked genes" + (" (log scale)" if log else ""))
    axes[0].set_ylabel("accuracy of the linear SVM (%)")
    axes[1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=12)
    fig.suptitle(f"{title_name}: forward selection on the {method} ranking ({variant} standardisation)")
    return fig


# ----------------------------------------------------------------------------------------------------------------
# chapter 5 figures
# ----------------------------------------------------------------------------------------------------------------
def fig_stability_accuracy(stab: pd.DataFrame, lofo: pd.DataFrame, variant: str, n_folds: int):
    """Stability S against leave-one-fold-out accuracy, one panel per data set: genesel filled, the thesis hollow
    (Tables 5.5, 5.6), joined by a thin line per method."""
    import matplotlib.pyplot as plt

    paper_S, paper_acc = PAPER["table5_5"], PAPER["table5_6"]
    ds_list = list(dict.fromkeys(stab.dataset))
    fig, axes = plt.subplots(1, len(ds_list), figsize=(7.5 * len(ds_list) + 3, 6.5), squeeze=False)
    methods = list(dict.fromkeys(stab.method))
    colors = {m: f"C{i}" for i, m in enumerate(methods)}
    for ax, ds in zip(axes[0], ds_list):
        name = thesis_name(ds)
        s = stab[(stab.dataset == ds) & (stab.variant == variant)].set_index("method")
        a = lofo[(lofo.dataset == ds) & (lofo.variant == variant)].set_index("method")
        for m in methods:
            if m not in s.index:
                continue
            x, y = s.loc[m, "stability_S"], a.loc[m, "svm_accuracy"]
            ax.scatter(x, y, s=140, color=colors[m], label=m, zorder=3)
            if (name, m) in paper_S and (name, m) in paper_acc:
                px, py = paper_S[(name, m)], paper_acc[(name, m)][0]
                ax.scatter(px, py, s=140, facecolors="none", edgecolors=colors[m], lw=2, zorder=3)
                ax.plot([x, px], [y, py], color=colors[m], lw=1, alpha=0.5)
        if "All genes" in a.index:
            ax.axhline(a.loc["All genes", "svm_accuracy"], color="grey", ls="--", lw=1.5, label="all genes (genesel)")
        ax.axvline(0.2, color="grey", ls=":", lw=1.5, label="thesis' acceptable stability (0.2)")
        ax.set_title(name)
        ax.set_xlabel("stability score S (Eq. 5.1)")
        ax.set_ylabel(f"leave-one-fold-out accuracy, SVM (%), {n_folds} folds")
    h, l = axes[0][-1].get_legend_handles_labels()
    h.append(plt.Line2D([], [], marker="o", ls="", mfc="none", mec="k", ms=11))
    l.append("thesis (Tables 5.5, 5.6)")
    axes[0][-1].legend(h, l, loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=12)
    fig.suptitle(f"Stability versus accuracy of the biomarker sets ({variant} standardisation)", y=1.02)
    return fig


def fig_overlap(folds: pd.DataFrame, dataset: str, variant: str, methods, max_genes=None, top: int = 25):
    """Gene x fold picture of the fold biomarker sets, one panel per method: the ``top`` most often selected genes
    (rows, by frequency, named by :func:`gene_namer`), a filled cell where fold i's set holds the gene."""
    import matplotlib.pyplot as plt

    title_name, gene_label = f"{thesis_name(dataset)} ({variant} standardisation)", gene_namer(dataset, max_genes)
    methods = [m for m in methods if m != "All genes"]
    ncol = 4
    nrow = int(np.ceil(len(methods) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 6.2 * nrow), squeeze=False)
    for ax in axes.ravel()[len(methods):]:
        ax.axis("off")
    for ax, m in zip(axes.ravel(), methods):
        g = folds[(folds.dataset == dataset) & (folds.variant == variant) & (folds.method == m)].sort_values("fold")
        sets = [set(b) for b in g.biomarkers]
        freq = selection_frequency(sets) if len(sets) >= 2 else {}
        genes = sorted(freq, key=lambda x: (-freq[x], x))[:top]
        M = np.array([[gene in s for s in sets] for gene in genes], dtype=float)
        ax.imshow(M if M.size else np.zeros((1, len(sets))), aspect="auto", cmap="Greys", vmin=0, vmax=1.3,
                  interpolation="nearest")
        ax.set_xticks(range(len(sets)))
        ax.set_xticklabels([str(i + 1) for i in range(len(sets))], fontsize=10)
        ax.set_yticks(range(len(genes)))
        labels = [gene_label(x) if gene_label else str(x + 1) for x in genes]
        ax.set_yticklabels(labels, fontsize=10)
        ax.grid(False)
        ax.set_xticks(np.arange(-0.5, len(sets)), minor=True)
        ax.set_yticks(np.arange(-0.5, len(genes)), minor=True)
        ax.grid(which="minor", color="0.85", lw=0.5)
        ax.tick_params(which="minor", length=0)
        S = stability_score(sets) if len(sets) >= 2 else np.nan
        ax.set_title(f"{m}\nS = {S:.2f}, {len(freq)} genes in all", fontsize=13)
        ax.set_xlabel("fold left out")
    fig.suptitle(f"{title_name}: which genes each fold's biomarker set holds (top {top} by frequency)")
    fig.tight_layout()
    return fig


def gene_namer(dataset: str, max_genes=None):
    """A function mapping a gene position of ``load_task(dataset, max_genes)`` to a readable label: "SYMBOL (probe)"
    or the probe ID on data sets with an annotation (:func:`genesel.datasets.gene_labels`), else the 1-based gene
    number of the full data set (the thesis' Table 5.1 numbering)."""
    from genesel.datasets import gene_labels, gene_symbols
    from genesel.papers.tan2006_ch45 import thesis_data

    ds = thesis_data(dataset)
    ids = thesis_data(dataset, max_genes).gene_ids
    pos = {g: i for i, g in enumerate(np.asarray(ds.gene_ids).astype(str))}
    sym = gene_symbols(ds)
    has = bool(np.any(sym != ""))

    def name(j):
        i = pos[str(ids[j])]
        return gene_labels(ds, [i], sym)[0] if has else f"gene {i + 1}"

    return name


def annotation(dataset: str) -> str:
    """Where the gene names of ``dataset`` come from (:func:`genesel.datasets.annotation_note`)."""
    from genesel.datasets import annotation_note

    note = annotation_note(thesis_data(dataset))
    return note + (" Genes are numbered 1..2000 as in the thesis' Table 5.1." if dataset == "alon" else
                   " Genes without a symbol are shown by their probe ID.")


# ----------------------------------------------------------------------------------------------------------------
# the banners and what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------


def banner_texts(chapter: int, *, n_folds: int, quick_folds: int, variants, max_genes: int = 300) -> tuple[str, str]:
    """(what this quick run leaves out, what full mode runs) for notebook 05b (``chapter=4``) or 05c (5): the quick
    text names the run's own folds and standardisations; the full text is the full mode's (all genes, both
    standardisations, ``n_folds`` folds, its inner folds and running time), whatever mode this run is."""
    std = ("both standardisations" if len(variants) > 1 else f"the {variants[0]} standardisation only")
    if chapter == 4:
        return (f"{max_genes} high-variance genes per data set, {std}, {quick_folds} folds, GP-ARD with one optimiser "
                "start",
                f"all genes, both standardisations (merged and train-only), {n_folds} folds, GP-ARD with three "
                "optimiser starts: about 6 minutes on 2 cores")
    return (f"{max_genes} high-variance genes, {std}, {quick_folds} outer folds, 5 inner folds, GP-ARD-RFE down to 32 "
            "genes with one optimiser start",
            f"all genes, both standardisations (merged and train-only), {n_folds} outer and 10 inner folds, GP-ARD-RFE "
            "down to 256 genes with two optimiser starts per fit: about 18 minutes on 2 cores")


#: CPU seconds per sample x gene x fold x standardisation variant of each notebook's grids, measured on this
#: project's machine (quick: Colon and Leukemia on 300 genes, 3 folds; full: all genes, 10 folds), and fixed costs.
_RATE = {4: 7e-5, 5: 2e-4}
_OVERHEAD = {4: 15.0, 5: 20.0}


def estimated_seconds(chapter: int, datasets, variants, *, n_folds: int, max_genes=None, n_jobs=1):
    """(seconds, what it is) of notebook 05b (``chapter=4``) or 05c (5) with these parameters, before it runs."""
    work = 0.0
    for d in datasets:
        n, g = thesis_data(d, None).X.shape
        work += _RATE[chapter] * n * (g if max_genes is None else min(g, max_genes)) * n_folds * len(variants)
    what = (f"{len(datasets)} data set(s) x {len(variants)} standardisation(s) x {n_folds} folds"
            + ("" if max_genes is None else f" on {max_genes} genes"))
    return _OVERHEAD[chapter] + work / max(1, min(int(n_jobs), 2)), what


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def ranking_comparison(runs: dict) -> pd.DataFrame:
    """Exercises of 05b: the optimal subsets by test accuracy (how many tie, the best test accuracy, the biomarker
    size) of every ranking under several runs, ``runs`` {label: ``ranking_cell`` rows}; one column block per run."""
    cols = ["optimal subsets", "test acc. (%)", "genes in biomarker set"]
    parts = {label: thesis_ranking_tables(rank)["test"].droplevel("variant")[cols] for label, rank in runs.items()}
    return pd.concat(parts, axis=1)


def stability_comparison(runs: dict) -> pd.DataFrame:
    """Exercises of 05c: Tan's S, the mean pairwise Jaccard index and the mean size of every method's fold biomarker
    sets under several runs, ``runs`` {label: ``fold_cell`` rows}; one column block per run."""
    parts = {label: stability_table(folds).set_index(["data", "method"])[["stability_S", "jaccard", "mean_size"]]
             .round(3) for label, folds in runs.items()}
    return pd.concat(parts, axis=1)


def table46_by_seed(runs: dict) -> tuple[pd.DataFrame, str]:
    """Exercise 2 of 05b: Table 4.6's test accuracies (the SVM on each selector's biomarker set) under several
    seeds, ``runs`` {seed: ``ranking_cell`` rows}, and a sentence on how far they move per data set."""
    t = pd.concat({f"seed {k}": table46(rank)["test acc. (%)"] for k, rank in runs.items()}, axis=1)
    spread = (t.max(axis=1) - t.min(axis=1)).groupby(level="data").max()
    text = "Largest change of a biomarker set's test accuracy between the seeds: " + "; ".join(
        f"{d} {v:.1f} points" for d, v in spread.items()) + (
        ". Leukemia's split is the published one, so only its fold draws change; every Colon number rests on the "
        "random partition." if "Leukemia" in spread.index else ".")
    return t, text
