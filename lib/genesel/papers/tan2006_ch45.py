"""Tan (2006), chapters 4-5: the cells, the thesis' numbers and the summaries of notebooks 05b and 05c.

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, University of British Columbia, 2006. Chapter 4: SVM-RFE and GPC-ARD rankings scored by forward
selection (Tables 4.2-4.5, Figures 4.2 and 4.6), RVM and SMLR biomarker sets (Table 4.6), 10-fold leave-one-fold-out
errors (Table 4.7). Chapter 5: stability score S (Eq. 5.1, Tables 5.1-5.3, 5.5), MSVM-RFE, GP-ARD-FS, GP-ARD-RFE,
Table 5.4 (LOO accuracy with the Wilcoxon-prefiltered genes and GP-ARD-RFE's 1024 and 512) and Table 5.6.
The algorithms live in :mod:`genesel.forward`, :mod:`genesel.rfe`, :mod:`genesel.msvm_rfe`,
:mod:`genesel.gp_ard_select`, :mod:`genesel.sparse_select` and :mod:`genesel.gp`.

Preprocessing, pinned down by the thesis' own checkable numbers (see :data:`PREPROCESSING_CHECKS`): the classifiers
and selectors see the *raw* values standardised per gene (zero mean, unit variance) over the merged training and
test samples (§4.1, as printed: variant ``"merged"``). With it genesel reproduces exactly the Leukemia test
accuracy with all genes (28/34 = 82.3%, Table 4.2) and the Colon LOO accuracy with all genes (50/62 = 80.65%, Table
5.4); the RVM biomarker set of Leukemia has the thesis' 2 genes (Table 4.6; its test accuracy is 32/34 here against
the thesis' 31/34, because genesel's RVM reaches a 2-gene set of higher evidence than the one the thesis reports).
The Wilcoxon prefilter count (373 Colon genes at p < 0.01, §5.3) is reproduced only when the rank-sum test sees log
values standardised per sample (array); on per-gene standardised values (whose ranks are the raw ones) 188 genes
pass. With those 373 genes the LOO accuracy is 51/62 = 82.26%, as printed (Table 5.4), so GP-ARD-FS' prefilter runs
on that view (:func:`prefilter_view`; per-sample operations use no other sample, so no information crosses a
split). The unbiased variant ``"train-only"`` fits the per-gene standardisation on the training part of every split
or fold and applies it to the held-out samples.

Lung (the BC Cancer Agency SAGE libraries of Tables 4.1-4.6) is not public: its rows are shown as the thesis
printed them and never replaced by another data set.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from genesel.datasets import recommended_preprocessing
from genesel.experiments import random_splits, stratified_kfold
from genesel.forward import forward_path
from genesel.gp import GaussianProcessClassifier
from genesel.gp_ard_select import GPARDFS, GPARDRFE, ard_order
from genesel.msvm_rfe import MSVMRFE
from genesel.papers.common import is_user_file, load_task
from genesel.papers.tan2006 import GP_MAX_ITER
from genesel.preprocessing import LogTransform
from genesel.rfe import SVMRFE
from genesel.sparse_select import RVMSelector, SMLRSelector
from genesel.svm import LinearSVM

__all__ = ["LUNG_NOTE", "PAPER", "PREPROCESSING_CHECKS", "RANKERS", "SPARSE", "FOLD_METHODS", "TABLE47_METHODS",
           "VARIANTS", "VARIANCE_SCALE", "thesis_data", "thesis_split", "standardise", "prefilter_view",
           "ranking_cells", "fold_cells", "ranking_cell", "fold_cell",
           "table54_cell", "preprocessing_cell"]

LUNG_NOTE = ("Lung (26 SAGE libraries of the BC Cancer Agency, 19,624 genes) is not public; its rows are quoted from "
             "the thesis and have no genesel counterpart.")

#: preprocessing variants: as printed (standardised over training and test merged) and the unbiased one
VARIANTS = ("merged", "train-only")
#: chapter 4 rankings scored by forward selection (Tables 4.2-4.5)
RANKERS = ("SVM-RFE", "GP-Laplace", "GP-EP")
#: chapter 4 sparse selectors (Table 4.6)
SPARSE = ("RVM", "SMLR")
#: Tables 4.7, 5.5 and 5.6 (leave-one-fold-out)
FOLD_METHODS = ("All genes", "SVM-RFE", "GP-Laplace", "RVM", "SMLR", "MSVM-RFE", "GP-ARD-FS", "GP-ARD-RFE")
#: the methods of Table 4.7 (chapter 4's leave-one-fold-out)
TABLE47_METHODS = FOLD_METHODS[:5]

# ----------------------------------------------------------------------------------------------------------------
# the thesis' numbers
# ----------------------------------------------------------------------------------------------------------------
PAPER = {
    "table4_1": {"Colon": (32, "11+/21-", 30, "11+/19-", 2000), "Leukemia": (38, "11+/27-", 34, "14+/20-", 7129),
                 "Lung": (14, "6+/8-", 12, "5+/7-", 19624)},
    # Table 4.2: SVM-RFE, optimal subsets by test accuracy: (# opt. sets, test acc., biomarker size, all-genes acc.)
    "table4_2": {"Colon": (53, 83.3, 416, 76.7), "Leukemia": (1, 97.1, 5, 82.3), "Lung": (19449, 91.7, 176, 91.7)},
    # Table 4.3: SVM-RFE, by LOO on training: (LOO acc., biomarker size, # opt. sets)
    "table4_3": {"Colon": (100.0, 5, 126), "Leukemia": (100.0, 2, 4821), "Lung": (100.0, 1, 19624)},
    # Table 4.4: GPC-ARD by test accuracy: (# opt. sets, test acc., biomarker size)
    "table4_4": {("Colon", "GP-Laplace"): (191, 80.0, 8), ("Colon", "GP-EP"): (1, 83.3, 4),
                 ("Leukemia", "GP-Laplace"): (1, 94.1, 27), ("Leukemia", "GP-EP"): (11, 94.1, 1),
                 ("Lung", "GP-Laplace"): (1, 100.0, 3)},
    # Table 4.5: GPC-ARD by LOO: (LOO acc., biomarker size, # opt. sets)
    "table4_5": {("Colon", "GP-Laplace"): (93.8, 3, 3), ("Colon", "GP-EP"): (96.9, 29, 21),
                 ("Leukemia", "GP-Laplace"): (100.0, 9, 4102), ("Leukemia", "GP-EP"): (100.0, 5, 3430),
                 ("Lung", "GP-Laplace"): (100.0, 1, 19624)},
    # Table 4.6: test accuracy of SVM with each biomarker set: (test acc., # genes); all-genes accuracy per data set
    "table4_6": {("Colon", "SVM-RFE"): (66.7, 5), ("Colon", "GP-Laplace"): (66.7, 3), ("Colon", "GP-EP"): (73.3, 29),
                 ("Colon", "RVM"): (63.3, 3), ("Colon", "SMLR"): (63.3, 16),
                 ("Leukemia", "SVM-RFE"): (88.2, 2), ("Leukemia", "GP-Laplace"): (88.2, 9),
                 ("Leukemia", "GP-EP"): (88.2, 5), ("Leukemia", "RVM"): (91.2, 2), ("Leukemia", "SMLR"): (94.1, 20),
                 ("Lung", "SVM-RFE"): (66.7, 1), ("Lung", "GP-Laplace"): (83.3, 1), ("Lung", "SMLR"): (83.3, 9)},
    "table4_6_all": {"Colon": 76.7, "Leukemia": 82.3, "Lung": 91.7},
    # Table 4.7: total errors in 10 folds, average biomarker size
    "table4_7": {("Colon", "All genes"): (17, 2000), ("Colon", "SVM-RFE"): (14, 9), ("Colon", "GP-Laplace"): (15, 21),
                 ("Colon", "RVM"): (10, 6), ("Colon", "SMLR"): (17, 30),
                 ("Leukemia", "All genes"): (2, 7129), ("Leukemia", "SVM-RFE"): (9, 4),
                 ("Leukemia", "GP-Laplace"): (8, 5), ("Leukemia", "RVM"): (7, 5), ("Leukemia", "SMLR"): (2, 27)},
    # Table 5.1: the ten RVM feature sets on Colon (1-based gene indices)
    "table5_1": [[356, 377, 765, 1969, 1924, 1976], [356, 377, 765, 1769, 1859, 1976],
                 [356, 377, 765, 1769, 1859, 1976], [353, 377, 765, 1013, 1024, 1759],
                 [356, 377, 765, 1769, 1859, 1976], [353, 377, 493, 765, 1050, 1757, 1769, 1823],
                 [350, 377, 493, 765, 792, 1769, 1823, 1976], [377, 700, 765, 1482, 1769, 1859],
                 [356, 377, 765, 1769, 1859, 1976], [377, 717, 1353, 1419, 1555]],
    "table5_3": {("Colon", "RVM"): 0.213, ("Colon", "SMLR"): 0.243, ("Leukemia", "RVM"): 0.150,
                 ("Leukemia", "SMLR"): 0.321},
    # Table 5.4 (Colon, all 62 samples): LOO accuracy
    "table5_4": {"All genes": 80.65, "Wilcoxon p < 0.01 (373 genes)": 82.26, "GP-ARD-RFE top 1024": 88.71,
                 "GP-ARD-RFE top 512": 95.16},
    "table5_5": {("Colon", "SVM-RFE"): 0.12, ("Colon", "GP-Laplace"): 0.18, ("Colon", "RVM"): 0.21,
                 ("Colon", "SMLR"): 0.24, ("Colon", "MSVM-RFE"): 0.14, ("Colon", "GP-ARD-FS"): 0.27,
                 ("Colon", "GP-ARD-RFE"): 0.27, ("Leukemia", "SVM-RFE"): 0.14, ("Leukemia", "GP-Laplace"): 0.11,
                 ("Leukemia", "RVM"): 0.15, ("Leukemia", "SMLR"): 0.32, ("Leukemia", "MSVM-RFE"): 0.08,
                 ("Leukemia", "GP-ARD-FS"): 0.12, ("Leukemia", "GP-ARD-RFE"): 0.28},
    # Table 5.6: leave-one-fold-out accuracy (%) and total errors
    "table5_6": {("Colon", "All genes"): (72.6, 17), ("Colon", "SVM-RFE"): (77.4, 14),
                 ("Colon", "GP-Laplace"): (75.8, 15), ("Colon", "RVM"): (83.9, 10), ("Colon", "SMLR"): (72.6, 17),
                 ("Colon", "MSVM-RFE"): (79.0, 13), ("Colon", "GP-ARD-FS"): (79.0, 13),
                 ("Colon", "GP-ARD-RFE"): (87.1, 8),
                 ("Leukemia", "All genes"): (97.2, 2), ("Leukemia", "SVM-RFE"): (87.5, 9),
                 ("Leukemia", "GP-Laplace"): (88.9, 8), ("Leukemia", "RVM"): (90.2, 7),
                 ("Leukemia", "SMLR"): (97.2, 2), ("Leukemia", "MSVM-RFE"): (94.4, 4),
                 ("Leukemia", "GP-ARD-FS"): (93.1, 5), ("Leukemia", "GP-ARD-RFE"): (97.2, 2)},
}

#: the checks that pin the preprocessing down (thesis number, where it is printed)
PREPROCESSING_CHECKS = (
    ("Leukemia test accuracy, SVM, all genes (38/34 split)", "82.3% (28/34)", "Table 4.2"),
    ("Colon LOO accuracy, SVM, all genes (62 samples)", "80.65% (50/62)", "Table 5.4"),
    ("Colon genes with Wilcoxon p < 0.01", "373", "§5.3"),
    ("Colon LOO accuracy, SVM, those genes", "82.26% (51/62)", "Table 5.4"),
    ("Leukemia RVM biomarker set: size, SVM test accuracy", "2 genes, 91.2% (31/34)", "Table 4.6"),
)


# ----------------------------------------------------------------------------------------------------------------
# data, splits and preprocessing
# ----------------------------------------------------------------------------------------------------------------


#: How quick mode ranks the genes it keeps: by the variance of the log values floored at max(1, 5th percentile)
#: (:func:`genesel.papers.common.load_task`).
VARIANCE_SCALE = "log_floor_p5"


def thesis_data(dataset: str, max_genes: int | None = None):
    """The data set as chapters 4-5 use it (:func:`genesel.papers.common.load_task`): the raw values, ``y`` in
    {-1, +1}, the predefined split where there is one; ``max_genes`` keeps the genes of largest variance of the
    floored log values over all samples (unsupervised; quick mode only)."""
    return load_task(dataset, max_genes, variance_scale=VARIANCE_SCALE)


def thesis_split(dataset: str, seed: int, max_genes: int | None = None):
    """The chapter 4 training/test split (Table 4.1): the predefined one where it exists (Leukemia 38/34), else a
    stratified random split with the thesis' Colon sizes (32 training samples: 11 normal, 21 tumour) or, for other
    data sets, half of the samples."""
    ds = thesis_data(dataset, max_genes)
    y, tr = ds.y, ds.train_idx
    if tr is not None:
        return np.sort(tr), np.setdiff1d(np.arange(y.size), tr)
    n_train = 32 if dataset == "alon" else y.size // 2
    (tr, te), = random_splits(y, n_train, 1, seed, stratified=True, groups=ds.groups)
    return np.sort(tr), np.sort(te)


def _groups_of(ds, rows) -> dict:
    """``{"groups": ...}`` of the training rows of a grouped study (a patient's paired tissues), for the selectors and
    forward selections that resample inside a training part (they then leave groups out); empty otherwise, so the
    thesis' sets run as before."""
    return {} if ds.groups is None else {"groups": np.asarray(ds.groups)[rows]}


def standardise(X, fit_idx=None):
    """Per-gene z-scores (ddof = 0) with the mean and sd of the rows ``fit_idx`` (None: all rows, as printed in
    §4.1); a gene constant on those rows gets sd 1."""
    F = X if fit_idx is None else X[fit_idx]
    mu, sd = F.mean(axis=0), F.std(axis=0)
    return (X - mu) / np.where(sd > 0, sd, 1.0)


def _matrix(dataset, variant, train_idx, max_genes):
    X = thesis_data(dataset, max_genes).X
    if is_user_file(dataset):  # a researcher's file: its one decision (log, counts) before the thesis' z-scores,
        from genesel.datasets import recommended_preprocessing  # fitted where they are (merged: on all samples)

        fit = X if variant == "merged" else X[train_idx]
        X = recommended_preprocessing(thesis_data(dataset, max_genes), standardize=False).fit(fit).transform(X)
    if variant == "merged":
        return standardise(X)
    if variant == "train-only":
        return standardise(X, train_idx)
    raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")


def prefilter_view(dataset: str, max_genes: int | None = None):
    """The values GP-ARD-FS' rank-sum test sees: log10 of the raw values where the data set holds raw intensities
    (the data set's :func:`genesel.datasets.recommended_preprocessing` without its standardisation: floored at 1 for
    Colon, at 20 and capped at 16000 for Leukemia; sets already on a log or standardised scale are left as they
    are), then standardised per sample (each array to zero mean and unit variance). Reproduces the thesis' 373
    Colon genes at p < 0.01; uses no other sample, so it leaks nothing."""
    X = thesis_data(dataset, max_genes).X
    L = recommended_preprocessing(dataset, standardize=False).fit_transform(X)
    return (L - L.mean(axis=1, keepdims=True)) / L.std(axis=1, keepdims=True)


# ----------------------------------------------------------------------------------------------------------------
# the grids
# ----------------------------------------------------------------------------------------------------------------


def ranking_cells(datasets, variants, *, seed, quick, max_genes=None) -> list:
    """Chapter 4 on the thesis' split: one :func:`ranking_cell` per (data set, ranker or sparse selector, variant)."""
    return [dict(dataset=d, method=m, variant=v, seed=seed, quick=quick, max_genes=max_genes, max_forward=None)
            for d in datasets for m in RANKERS + SPARSE for v in variants]


def fold_cells(datasets, methods, variants, *, n_folds, seed, quick, max_genes=None) -> list:
    """Leave-one-fold-out: one :func:`fold_cell` per (data set, method, variant, fold)."""
    return [dict(dataset=d, method=m, fold=f, n_folds=n_folds, variant=v, seed=seed, quick=quick, max_genes=max_genes)
            for d in datasets for m in methods for v in variants for f in range(n_folds)]


# ----------------------------------------------------------------------------------------------------------------
# cells
# ----------------------------------------------------------------------------------------------------------------


def _svm_errors(A, y, tr, te, genes, C=1.0):
    m = LinearSVM(C=C).fit(A[np.ix_(tr, genes)], y[tr])
    return int(np.sum(m.predict(A[np.ix_(te, genes)]) != y[te]))


def _gp_rank(approximation, A, y, seed, quick):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        gp = GaussianProcessClassifier(approximation=approximation, ard=True, n_restarts=0 if quick else 2,
                                       max_iter=GP_MAX_ITER, random_state=seed).fit(A, y)
    unconverged = sum("L-BFGS-B stopped" in str(x.message) for x in w)
    return ard_order(gp.relevances_, gp.relevance_gradients_), unconverged


def ranking_cell(dataset: str, method: str, variant: str, seed: int, quick: bool, max_genes: int | None = None,
                 max_forward: int | None = None) -> dict:
    """Chapter 4 on the thesis' split: rank the genes on the training part with ``method`` (SVM-RFE one gene per
    step, GPC-ARD with Laplace or EP) and score every prefix by SVM test accuracy and training LOO accuracy
    (Tables 4.2-4.5, Figures 4.2, 4.6); or take RVM's / SMLR's non-zero weights (Table 4.6)."""
    ds = thesis_data(dataset, max_genes)
    X, y = ds.X, ds.y
    tr, te = thesis_split(dataset, seed, max_genes)
    A = _matrix(dataset, variant, tr, max_genes)
    t0 = time.process_time()
    out = {"n_train": int(tr.size), "n_test": int(te.size), "n_genes": int(X.shape[1]),
           "all_genes_test_errors": _svm_errors(A, y, tr, te, np.arange(X.shape[1])), "unconverged_fits": 0}
    if method in SPARSE:
        sel = (RVMSelector() if method == "RVM" else SMLRSelector()).fit(A[tr], y[tr])
        g = np.flatnonzero(sel.support_)
        out.update(biomarkers=g.tolist(), biomarker_size=int(g.size),
                   test_errors_at_biomarker=_svm_errors(A, y, tr, te, g))
    else:
        if method == "SVM-RFE":
            order = SVMRFE(n_features_to_select=1, step=1, C=1.0).fit(A[tr], y[tr]).feature_order_
        elif method in ("GP-Laplace", "GP-EP"):
            order, out["unconverged_fits"] = _gp_rank("laplace" if method == "GP-Laplace" else "ep", A[tr], y[tr],
                                                      seed, quick)
        else:
            raise ValueError(f"method must be one of {RANKERS + SPARSE}, got {method!r}")
        path = forward_path(A[tr], y[tr], order, X_test=A[te], y_test=y[te], max_genes=max_forward,
                            **_groups_of(ds, tr))
        s_test, s_loo = path.summary("test"), path.summary("loo")
        g = path.biomarkers("loo")
        out.update(order=[int(v) for v in order[:200]], test_errors=path.test_errors.tolist(),
                   loo_errors=path.loo_errors.tolist(), optimal_test=s_test["optimal_sizes"],
                   optimal_loo=s_loo["optimal_sizes"], biomarkers=g.tolist(), biomarker_size=int(g.size),
                   test_errors_at_biomarker=int(path.test_errors[g.size - 1]))
    out["cpu_seconds"] = time.process_time() - t0
    return out


def _fold_selector(method, seed, quick, inner_folds):
    if method == "SVM-RFE":
        return SVMRFE(n_features_to_select=1, step=1, C=1.0)
    if method == "RVM":
        return RVMSelector()
    if method == "SMLR":
        return SMLRSelector()
    if method == "MSVM-RFE":
        return MSVMRFE(n_folds=inner_folds, step=1, max_forward_genes=None, random_state=seed)  # Figure 5.1
    if method == "GP-ARD-FS":
        return GPARDFS(n_folds=inner_folds, n_restarts=0 if quick else 1, max_iter=GP_MAX_ITER,
                       random_state=seed)
    if method == "GP-ARD-RFE":
        return GPARDRFE(n_folds=inner_folds, p=5 if quick else 8, n_restarts=0 if quick else 1,
                        max_iter=GP_MAX_ITER, random_state=seed)
    raise ValueError(f"method must be one of {FOLD_METHODS}, got {method!r}")


def fold_cell(dataset: str, method: str, fold: int, n_folds: int, variant: str, seed: int, quick: bool,
              max_genes: int | None = None) -> dict:
    """Leave-one-fold-out (thesis §4.4, §5.5.2): select the biomarker set b_i with ``method`` on the other folds,
    train a linear SVM (and GP-Laplace without ARD) on them with b_i only and count the errors on fold ``fold``.
    Also returns the top 100 of the method's gene ranking on those folds (``ranking_top``; RVM and SMLR: by |weight|,
    the selected genes first), for stability indices on sets of equal size."""
    ds = thesis_data(dataset, max_genes)
    X, y = ds.X, ds.y
    tr, te = stratified_kfold(y, n_folds, seed, groups=ds.groups)[fold]
    tr = np.sort(tr)
    A = _matrix(dataset, variant, tr, max_genes)
    grouped = _groups_of(ds, tr)  # a paired study: the choices inside the training part leave a group out
    t0 = time.process_time()
    unconverged = 0
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        if method == "All genes":
            g, order = np.arange(X.shape[1]), np.zeros(0, dtype=np.int64)
        elif method == "GP-Laplace":
            order, unconverged = _gp_rank("laplace", A[tr], y[tr], seed, quick)
            g = forward_path(A[tr], y[tr], order, **grouped).biomarkers("loo")
        else:
            sel = _fold_selector(method, seed + fold, quick, 5 if quick else 10)
            if method == "GP-ARD-FS":
                sel.fit(A[tr], y[tr], prefilter_X=prefilter_view(dataset, max_genes)[tr], **grouped)
            elif method in ("MSVM-RFE", "GP-ARD-RFE"):
                sel.fit(A[tr], y[tr], **grouped)
            else:
                sel.fit(A[tr], y[tr])
            order = sel.feature_order_
            if method == "SVM-RFE":  # Table 4.7: the biomarker set by LOO forward selection on the ranking
                g = forward_path(A[tr], y[tr], order, **grouped).biomarkers("loo")
            else:
                g = np.flatnonzero(sel.support_)
    unconverged += sum("stopped before convergence" in str(x.message) for x in w)
    cpu = time.process_time() - t0
    g = np.asarray(g, dtype=np.int64)
    svm_err = _svm_errors(A, y, tr, te, g)
    gp = GaussianProcessClassifier(ard=False, n_restarts=0, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gp_err = int(np.sum(gp.fit(A[np.ix_(tr, g)], y[tr]).predict(A[np.ix_(te, g)]) != y[te]))
    return {"biomarkers": np.sort(g).tolist(), "biomarker_size": int(g.size), "n_test": int(te.size),
            "n_genes": int(X.shape[1]), "ranking_top": [int(v) for v in order[:100]],
            "svm_errors": svm_err, "gp_errors": gp_err, "cpu_seconds": cpu, "unconverged_fits": int(unconverged)}


def table54_cell(dataset: str, seed: int, quick: bool, max_genes: int | None = None) -> dict:
    """Table 5.4 (as printed: every gene subset chosen on all samples, then LOO): SVM LOO accuracy with all genes,
    with the genes of Wilcoxon p < 0.01, and with GP-ARD-RFE's survivors (1024 and 512 on Colon)."""
    ds = thesis_data(dataset, max_genes)
    X, y = ds.X, ds.y
    A = standardise(X)
    from genesel.filters import wilcoxon_pvalues

    wil = np.flatnonzero(wilcoxon_pvalues(prefilter_view(dataset, max_genes), y) < 0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rfe = GPARDRFE(n_folds=5 if quick else 10, p=5 if quick else 8, n_restarts=0 if quick else 1,
                       max_iter=GP_MAX_ITER, random_state=seed).fit(A, y, **_groups_of(ds, np.arange(y.size)))

    def loo(g):
        return float(100.0 * (1 - _loo_errors(A[:, g], y, ds.groups) / y.size))

    rows = [{"subset": "All genes", "n_genes": int(X.shape[1]), "loo_accuracy": loo(np.arange(X.shape[1]))},
            {"subset": "Wilcoxon p < 0.01", "n_genes": int(wil.size), "loo_accuracy": loo(wil)}]
    for size in rfe.sizes_[1:3]:
        rows.append({"subset": f"GP-ARD-RFE top {size}", "n_genes": int(size), "loo_accuracy": loo(rfe.subset(size))})
    return rows


def _loo_errors(A, y, groups=None):
    """Leave-one-out errors of the linear SVM (C = 1); with ``groups`` each sample is scored by the SVM trained
    without its group (leave-one-group-out)."""
    unit = np.arange(y.size) if groups is None else np.asarray(groups)
    e = 0
    for i in range(y.size):
        keep = unit != unit[i]
        e += int(LinearSVM(C=1.0).fit(A[keep], y[keep]).predict(A[i : i + 1])[0] != y[i])
    return e


def preprocessing_cell(dataset: str) -> list:
    """The checkable numbers of :data:`PREPROCESSING_CHECKS` under three candidate preprocessings."""
    from genesel.filters import wilcoxon_pvalues

    ds = thesis_data(dataset)
    X, y, tr = ds.X, ds.y, ds.train_idx
    rows = []
    views = {"raw values, per-gene z (merged)": standardise(X),
             "log values, per-gene z (merged)": standardise(LogTransform(floor=20.0 if X.min() <= 0 else 1.0,
                                                                         ceiling=16000.0 if X.min() <= 0 else None)
                                                              .fit_transform(X)),
             "log values, per-sample z": prefilter_view(dataset)}
    for name, A in views.items():
        row = {"preprocessing": name, "wilcoxon_genes": int(np.sum(wilcoxon_pvalues(A, y) < 0.01))}
        if tr is not None:
            te = np.setdiff1d(np.arange(y.size), tr)
            row["test_correct_all_genes"] = int(te.size - _svm_errors(A, y, np.sort(tr), te, np.arange(X.shape[1])))
            rvm = RVMSelector().fit(A[tr], y[tr])
            g = np.flatnonzero(rvm.support_)
            row["rvm_size"] = int(g.size)
            row["rvm_test_correct"] = int(te.size - _svm_errors(A, y, np.sort(tr), te, g))
        else:
            row["loo_correct_all_genes"] = int(y.size - _loo_errors(A, y))
        rows.append(row)
    return rows
