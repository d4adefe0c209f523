"""Tan (2006), chapter 3 and §4.3: the grid cells of notebook 05a (classifier comparison, ARD values).

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006. §3.4: 10-fold stratified cross-validation of SVM, DWD, GP-Laplace, GP-EP, RVM and SMLR
without feature selection; "the specific form of kernel was selected by cross-validation [...] using SVM, and the
best parameters were used for all methods. Regularization parameters are method-specific and therefore chosen by
cross-validation for each method". §4.3: ARD values of GP-Laplace and GP-EP on the training data.

Each function here is one cell of a :func:`genesel.experiments.run_grid` grid (plain JSON-able arguments, a dict
returned, cached on disk); the tables, figures and sentences of the notebook are in
:mod:`genesel.papers.tan2006_ch3_report` (kept apart so that editing them never invalidates a cached cell).
Quick mode keeps the most variable genes (:func:`genesel.papers.common.load_task`, ranked on the data set's
recommended scale). Preprocessing: the thesis' own (§3.4 and §4.1: "we normalize the original expression
data sets so that the mean is zero and the standard deviation is one"), i.e. per-gene z-scores of the values as
distributed, *without* a log transform: the thesis' checkable numbers (Leukemia 28/34 test accuracy with all genes,
Colon LOO 50/62, the Leukemia RVM biomarker set, see :mod:`genesel.papers.tan2006_ch45`) are reproduced exactly on
the raw values and not on logged ones. The standardisation is fitted on the training part of every split, inside
the pipeline (the thesis standardised all samples at once; chapter 4-5 notebooks show both). A researcher's file
gets its one decision first (:func:`genesel.papers.common.paper_preprocessing`: raw intensities logged, counts
normalised by library size). Splits come from :mod:`genesel.experiments.protocols`; inner model selection is
scikit-learn's ``GridSearchCV`` on inner stratified folds of the outer training part only. Small studies: the outer
folds are at most the smallest class (:func:`outer_folds`), the inner folds of each outer training part at most its
smallest class; grouped samples (``Dataset.groups``) keep their groups together in every split.
"""

from __future__ import annotations

import json
import time
import warnings

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from genesel.dwd import DWD
from genesel.experiments import adapted_folds, random_splits, stratified_kfold
from genesel.papers.common import load_task, one_class_fits, paper_preprocessing
from genesel.papers.tan2006 import GP_MAX_ITER
from genesel.gp import GaussianProcessClassifier
from genesel.preprocessing import GeneStandardizer
from genesel.rvm import RVM
from genesel.smlr import SMLR
from genesel.svm import KernelSVM

__all__ = ["CLASSIFIERS", "KERNEL_CANDIDATES", "APPROXIMATIONS", "kernel_cells", "cv_cells", "ard_cells",
           "select_kernel_cell", "cv_cell", "ard_cell", "ard_split", "thesis_preprocessing", "THESIS"]

CLASSIFIERS = ("SVM", "DWD", "GP-Laplace", "GP-EP", "RVM", "SMLR")

# Kernel candidates for the SVM-based kernel choice (gamma is given per gene: gamma = gamma_scale / n_genes, so that
# on standardised data the scaled inner products and distances are O(1) whatever the number of genes).
KERNEL_CANDIDATES = (
    {"kernel": "linear"},
    {"kernel": "poly", "degree": 2, "gamma_scale": 1.0, "coef0": 1.0},
    {"kernel": "rbf", "gamma_scale": 0.1},
    {"kernel": "rbf", "gamma_scale": 1.0},
)

GRIDS = {
    "full": {"SVM": {"C": [0.01, 0.1, 1.0, 10.0, 100.0]}, "DWD": {"C": ["auto", 1e-3, 1e-1, 10.0]},
             "SMLR": {"lam": [0.5, 0.1, 0.01, 0.001]}, "kernel_C": [0.1, 1.0, 100.0]},
    "quick": {"SVM": {"C": [0.1, 10.0]}, "DWD": {"C": ["auto", 10.0]}, "SMLR": {"lam": [0.3, 0.03]},
              "kernel_C": [1.0]},
}


#: SMLR's sweep budget here. The thesis' preprocessing z-scores the unlogged values, and on Colon the bound-optimisation
#: sweeps crawl at small lambda: at 0.2.0 (SMLR's default cap, 20,000 sweeps) 7 of Colon's 10 folds had a fit stopped
#: before its optimality test. Measured 2026-12-01 on Colon (56 samples, linear kernel): lambda = 0.01 and 0.001 of
#: the largest converge after 60,020 and 140,314 sweeps (2.9 and 7.7 CPU s); the full run with a cap of 2,000,000
#: had every fit of every fold converged at 2-23 CPU s per fold (CHANGELOG 0.2.0). The budget only bounds a
#: pathological fit; it does not change an optimum.
SMLR_MAX_SWEEPS = 2_000_000


def _kernel_params(kernel: dict, n_genes: int) -> dict:
    p = {"kernel": kernel["kernel"]}
    if "gamma_scale" in kernel:
        p["gamma"] = kernel["gamma_scale"] / n_genes
    for k in ("degree", "coef0"):
        if k in kernel:
            p[k] = kernel[k]
    return p


def _pipeline(dataset: str, clf):
    return Pipeline([("prep", paper_preprocessing(dataset, thesis_preprocessing())), ("clf", clf)])


def thesis_preprocessing():
    """The thesis' preprocessing (§3.4, §4.1): per-gene z-scores of the values as distributed (no log transform),
    fitted on the training samples."""
    return GeneStandardizer(on_constant="zero")


def _estimator(method: str, kernel: dict, n_genes: int, seed: int, quick: bool):
    """(unfitted estimator, its inner-CV grid or None) for one of :data:`CLASSIFIERS`."""
    kp = _kernel_params(kernel, n_genes)
    grids = GRIDS["quick" if quick else "full"]
    if method == "SVM":
        svm_kp = dict(kp)
        svm_kp.setdefault("gamma", 1.0 / n_genes)
        return KernelSVM(**svm_kp), grids["SVM"]
    if method == "DWD":
        return DWD(**kp), grids["DWD"]
    if method == "RVM":
        return RVM(**kp), None
    if method == "SMLR":
        return SMLR(lam_scale="max", max_iter=SMLR_MAX_SWEEPS, **kp), grids["SMLR"]
    if method in ("GP-Laplace", "GP-EP"):
        approx = "laplace" if method == "GP-Laplace" else "ep"
        # thesis §3.3.1: l_m = 1 for all m in chapter 3, i.e. one shared length scale (ard=False), Eq. 3.8
        return GaussianProcessClassifier(approximation=approx, ard=False, n_restarts=0 if quick else 2,
                                         max_iter=GP_MAX_ITER, random_state=seed), None
    raise ValueError(f"unknown classifier {method!r}; choose from {CLASSIFIERS}")


def _outer_split(y, n_folds: int, seed: int, fold: int, groups=None):
    return stratified_kfold(y, n_folds, seed, groups=groups)[fold]


def _inner_cv(y_train, inner_k: int, seed: int, fold: int, groups=None):
    """Inner stratified folds of an outer training part: ``inner_k``, or its smallest class where that is smaller
    (:func:`genesel.experiments.adapted_folds`); grouped when the samples are."""
    k = adapted_folds(inner_k, y_train, groups, who=f"the inner folds of outer fold {fold}")
    return stratified_kfold(y_train, k, seed + 7919 * (fold + 1), groups=groups)


def outer_folds(dataset: str, n_folds: int, max_genes: int | None = None) -> int:
    """The outer folds of ``dataset``: ``n_folds``, or its smallest class where that is smaller (counted in groups
    for grouped samples; :func:`genesel.experiments.adapted_folds`)."""
    ds = load_task(dataset, max_genes)
    return adapted_folds(n_folds, ds.y, ds.groups, who=f"{dataset}: the outer folds")


def select_kernel_cell(dataset: str, fold: int, n_folds: int, seed: int, inner_k: int, quick: bool,
                       max_genes: int | None = None) -> dict:
    """Choose the kernel (and its parameters) on one outer training part by inner CV of the SVM (thesis §3.4)."""
    ds = load_task(dataset, max_genes)
    X, y, g = ds.X, ds.y, ds.groups
    tr, _ = _outer_split(y, n_folds, seed, fold, g)
    d = X.shape[1]
    Cs = GRIDS["quick" if quick else "full"]["kernel_C"]
    cands = [KERNEL_CANDIDATES[0], KERNEL_CANDIDATES[3]] if quick else list(KERNEL_CANDIDATES)
    grid = []
    for k in cands:
        kp = _kernel_params(k, d)
        kp.setdefault("gamma", 1.0 / d)
        grid.append({**{f"clf__{a}": [v] for a, v in kp.items()}, "clf__C": Cs})
    gs = GridSearchCV(_pipeline(dataset, KernelSVM()), grid,
                      cv=_inner_cv(y[tr], inner_k, seed, fold, None if g is None else g[tr]),
                      scoring="accuracy", error_score="raise")
    t0 = time.process_time()
    # candidates of the inner grid that end as one-class models (small C with a very narrow or very wide kernel)
    # are legitimate losers of the inner CV: counted here instead of flooding the notebook's stderr
    with one_class_fits() as n_degenerate:
        gs.fit(X[tr], y[tr])
    cpu = time.process_time() - t0
    # the winning candidate (GridSearchCV breaks ties by grid order: the linear kernel first)
    bp = gs.best_params_
    k = next(c for c in cands if _kernel_params(c, d).items() <= {a.removeprefix("clf__"): v
                                                                   for a, v in bp.items()}.items()
             and (c["kernel"] != "linear" or bp["clf__kernel"] == "linear"))
    return {"kernel": json.dumps(k), "inner_accuracy": float(gs.best_score_), "cpu_kernel_selection": cpu,
            "one_class_inner_fits": int(n_degenerate[0])}


def cv_cell(dataset: str, fold: int, n_folds: int, seed: int, method: str, kernel: str, inner_k: int, quick: bool,
            max_genes: int | None = None) -> dict:
    """Train ``method`` on one outer training part (inner-CV regularisation), score the held-out fold.

    ``kernel`` is the JSON of the kernel chosen by :func:`select_kernel_cell` for this fold. Returns the test
    indices, true labels, scores (decision values for SVM/DWD, P(class +1) for the probabilistic models),
    predictions, the chosen hyper-parameters, the CPU seconds (inner CV + final fit + prediction) and the warnings
    the final fit raised (``warnings``: e.g. a fit that ended as a constant predictor), for the notebook to report
    in a table rather than on stderr.
    """
    ds = load_task(dataset, max_genes)
    X, y, g = ds.X, ds.y, ds.groups
    tr, te = _outer_split(y, n_folds, seed, fold, g)
    est, grid = _estimator(method, json.loads(kernel), X.shape[1], seed, quick)
    pipe = _pipeline(dataset, est)
    t0 = time.process_time()
    w0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if grid:
            model = GridSearchCV(pipe, {f"clf__{k}": v for k, v in grid.items()},
                                 cv=_inner_cv(y[tr], inner_k, seed, fold, None if g is None else g[tr]),
                                 scoring="accuracy", error_score="raise")
            model.fit(X[tr], y[tr])
            best = {k.removeprefix("clf__"): v for k, v in model.best_params_.items()}
            final = model.best_estimator_
        else:
            final = pipe.fit(X[tr], y[tr])
            best = {}
        if method in ("SVM", "DWD"):
            score = final.decision_function(X[te])
        else:
            score = final.predict_proba(X[te])[:, 1]
        pred = final.predict(X[te])
    cpu = time.process_time() - t0
    wall = time.perf_counter() - w0
    messages = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return {"test_idx": te.tolist(), "y_true": y[te].tolist(), "score": np.asarray(score, float).tolist(),
            "pred": np.asarray(pred).tolist(), "accuracy": float(np.mean(pred == y[te])),
            "best_params": json.dumps(best), "cpu_seconds": cpu, "wall_seconds": wall,
            "warnings": " | ".join(messages)}


# ----------------------------------------------------------------------------------------------------------------
# the grids
# ----------------------------------------------------------------------------------------------------------------

#: The two GP approximations whose ARD values §4.3 compares.
APPROXIMATIONS = ("laplace", "ep")


def kernel_cells(datasets, *, n_folds, seed, inner_k, quick, max_genes=None) -> list:
    """The kernel choice: one :func:`select_kernel_cell` per (data set, outer fold); a data set whose smallest class
    is smaller than ``n_folds`` gets that many folds (:func:`outer_folds`)."""
    folds = {d: outer_folds(d, n_folds, max_genes) for d in datasets}
    return [dict(dataset=d, fold=f, n_folds=folds[d], seed=seed, inner_k=inner_k, quick=quick, max_genes=max_genes)
            for d in datasets for f in range(folds[d])]


def cv_cells(kernels, *, n_folds, seed, inner_k, quick, max_genes=None) -> list:
    """The outer CV: one :func:`cv_cell` per (data set, fold, classifier), with the kernel that fold chose
    (``kernels``: the rows of the kernel grid, with ``dataset``, ``fold`` and ``kernel``)."""
    return [dict(dataset=r.dataset, fold=int(r.fold), n_folds=int(r.n_folds), seed=seed, method=m, kernel=r.kernel,
                 inner_k=inner_k, quick=quick, max_genes=max_genes)
            for r in kernels.itertuples() for m in CLASSIFIERS]


def ard_cells(datasets, *, seed, quick, max_genes=None) -> list:
    """The ARD fits: one :func:`ard_cell` per (data set, approximation)."""
    return [dict(dataset=d, approximation=a, seed=seed, quick=quick, max_genes=max_genes)
            for d in datasets for a in APPROXIMATIONS]


def ard_split(dataset: str, seed: int):
    """Training part used for the ARD values (thesis §4.1, Table 4.1): the predefined 38 Leukemia training samples,
    a random 32 of the 62 Colon samples; for data sets without a predefined split (Singh prostate) half of them."""
    ds = load_task(dataset)
    if ds.train_idx is not None:
        return np.asarray(ds.train_idx)
    n_train = 32 if dataset in ("alon", "colon") else ds.y.size // 2
    (tr, _), = random_splits(ds.y, n_train, 1, seed, stratified=True, groups=ds.groups)
    return np.asarray(tr)


def ard_cell(dataset: str, approximation: str, seed: int, quick: bool, max_genes: int | None = None) -> dict:
    """GP with one ARD value per gene (thesis Eq. 3.8, §4.3) fitted on the training part; the ARD values.

    Evidence maximisation over thousands of relevances takes a few hundred L-BFGS-B iterations (up to about 1000
    measured) to meet the optimiser's convergence test; the budget is :data:`~genesel.papers.tan2006.GP_MAX_ITER`.
    Whether the test was met is returned (``optimizer_converged``, ``n_iter``) for the notebook to show, instead
    of as a warning: a fit stopped by the budget is the best point reached, not a maximum."""
    from sklearn.exceptions import ConvergenceWarning

    ds = load_task(dataset, max_genes)
    X, y, genes = ds.X, ds.y, ds.gene_ids
    tr = ard_split(dataset, seed)
    Xtr = paper_preprocessing(dataset, thesis_preprocessing()).fit_transform(X[tr])
    gp = GaussianProcessClassifier(approximation=approximation, ard=True, n_restarts=0 if quick else 2,
                                   max_iter=GP_MAX_ITER, random_state=seed)
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported below as optimizer_converged / ep_converged
        gp.fit(Xtr, y[tr])
    cpu = time.process_time() - t0
    return {"relevances": gp.relevances_.tolist(), "gene_ids": [str(g) for g in genes],
            "log_evidence": float(gp.log_marginal_likelihood_), "n_train": int(len(tr)), "cpu_seconds": cpu,
            "optimizer_converged": bool(gp.optimizer_converged_), "n_iter": int(gp.n_iter_),
            "ep_converged": bool(getattr(gp, "ep_converged_", True))}


# ----------------------------------------------------------------------------------------------------------------
# The thesis' own numbers
# ----------------------------------------------------------------------------------------------------------------

#: Numbers the thesis prints (Table 4.7 and the text of section 3.4): SVM 10-fold CV errors with all genes, and the
#: approximate AUCs read from the text for Colon.
THESIS = {
    "svm_errors": {"alon": (17, 62), "golub": (2, 72)},
    "auc_colon": {"SVM": 0.85, "DWD": 0.85, "GP-Laplace": 0.85, "GP-EP": 0.85, "RVM": 0.78, "SMLR": 0.78},
}
