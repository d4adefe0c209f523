"""Tan (2006), chapter 3 and §4.3: the grid cells of notebook 05a (classifier comparison, ARD values).

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006. §3.4: 10-fold stratified cross-validation of SVM, DWD, GP-Laplace, GP-EP, RVM and SMLR
without feature selection; "the specific form of kernel was selected by cross-validation [...] using SVM, and the
best parameters were used for all methods. Regularization parameters are method-specific and therefore chosen by
cross-validation for each method". §4.3: ARD values of GP-Laplace and GP-EP on the training data.

Each function here is one cell of a :func:`genesel.experiments.run_grid` grid (plain JSON-able arguments, a dict
returned, cached on disk). Preprocessing: the thesis' own (§3.4 and §4.1: "we normalize the original expression
data sets so that the mean is zero and the standard deviation is one"), i.e. per-gene z-scores of the values as
distributed, *without* a log transform: the thesis' checkable numbers (Leukemia 28/34 test accuracy with all genes,
Colon LOO 50/62, the Leukemia RVM biomarker set, see :mod:`genesel.papers.tan2006_ch45`) are reproduced exactly on
the raw values and not on logged ones. The standardisation is fitted on the training part of every split, inside
the pipeline (the thesis standardised all samples at once; chapter 4-5 notebooks show both). Splits come from :mod:`genesel.experiments.protocols`; inner model selection is scikit-learn's
``GridSearchCV`` on inner stratified folds of the outer training part only.
"""

from __future__ import annotations

import json
import time
import warnings
from functools import lru_cache

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from genesel.datasets import load_dataset, recommended_preprocessing
from genesel.preprocessing import GeneStandardizer
from genesel.dwd import DWD
from genesel.experiments import random_splits, stratified_kfold
from genesel.gp import GaussianProcessClassifier
from genesel.rvm import RVM
from genesel.smlr import SMLR
from genesel.svm import KernelSVM

__all__ = ["CLASSIFIERS", "KERNEL_CANDIDATES", "load_task", "select_kernel_cell", "cv_cell", "ard_cell",
           "ard_split", "thesis_preprocessing"]

CLASSIFIERS = ("SVM", "DWD", "GP-Laplace", "GP-EP", "RVM", "SMLR")

# Kernel candidates for the SVM-based kernel choice (gamma is given per gene: gamma = gamma_scale / n_genes, so that
# on standardised data the scaled inner products and distances are O(1) whatever the number of genes).
KERNEL_CANDIDATES = (
    {"kernel": "linear"},
    {"kernel": "poly", "degree": 2, "gamma_scale": 1.0, "coef0": 1.0},
    {"kernel": "rbf", "gamma_scale": 0.1},
    {"kernel": "rbf", "gamma_scale": 1.0},
)

_GRIDS = {
    "full": {"SVM": {"C": [0.01, 0.1, 1.0, 10.0, 100.0]}, "DWD": {"C": ["auto", 1e-3, 1e-1, 10.0]},
             "SMLR": {"lam": [0.5, 0.1, 0.01, 0.001]}, "kernel_C": [0.1, 1.0, 100.0]},
    "quick": {"SVM": {"C": [0.1, 10.0]}, "DWD": {"C": ["auto", 10.0]}, "SMLR": {"lam": [0.3, 0.03]},
              "kernel_C": [1.0]},
}


@lru_cache(maxsize=8)
def load_task(dataset: str, max_genes: int | None = None):
    """(X, y, gene_ids, classes) of a data set; ``max_genes`` keeps the genes of largest variance (after the log
    transform, over all samples — unsupervised, used only to make quick mode quick)."""
    ds = load_dataset(dataset)
    X, genes = ds.X, np.asarray(ds.gene_ids)
    if max_genes is not None and max_genes < X.shape[1]:
        L = recommended_preprocessing(dataset, standardize=False).fit_transform(X)
        keep = np.sort(np.argsort(-L.var(axis=0), kind="stable")[:max_genes])
        X, genes = X[:, keep], genes[keep]
    return X, ds.y, genes, tuple(ds.classes)


def _kernel_params(kernel: dict, n_genes: int) -> dict:
    p = {"kernel": kernel["kernel"]}
    if "gamma_scale" in kernel:
        p["gamma"] = kernel["gamma_scale"] / n_genes
    for k in ("degree", "coef0"):
        if k in kernel:
            p[k] = kernel[k]
    return p


def _pipeline(dataset: str, clf):
    return Pipeline([("prep", thesis_preprocessing()), ("clf", clf)])


def thesis_preprocessing():
    """The thesis' preprocessing (§3.4, §4.1): per-gene z-scores of the values as distributed (no log transform),
    fitted on the training samples."""
    return GeneStandardizer(on_constant="zero")


def _estimator(method: str, kernel: dict, n_genes: int, seed: int, quick: bool):
    """(unfitted estimator, its inner-CV grid or None) for one of :data:`CLASSIFIERS`."""
    kp = _kernel_params(kernel, n_genes)
    grids = _GRIDS["quick" if quick else "full"]
    if method == "SVM":
        svm_kp = dict(kp)
        svm_kp.setdefault("gamma", 1.0 / n_genes)
        return KernelSVM(**svm_kp), grids["SVM"]
    if method == "DWD":
        return DWD(**kp), grids["DWD"]
    if method == "RVM":
        return RVM(**kp), None
    if method == "SMLR":
        return SMLR(lam_scale="max", **kp), grids["SMLR"]
    if method in ("GP-Laplace", "GP-EP"):
        approx = "laplace" if method == "GP-Laplace" else "ep"
        # thesis §3.3.1: l_m = 1 for all m in chapter 3, i.e. one shared length scale (ard=False), Eq. 3.8
        return GaussianProcessClassifier(approximation=approx, ard=False, n_restarts=0 if quick else 2,
                                         max_iter=50 if quick else 200, random_state=seed), None
    raise ValueError(f"unknown classifier {method!r}; choose from {CLASSIFIERS}")


def _outer_split(y, n_folds: int, seed: int, fold: int):
    return stratified_kfold(y, n_folds, seed)[fold]


def _inner_cv(y_train, inner_k: int, seed: int, fold: int):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return stratified_kfold(y_train, inner_k, seed + 7919 * (fold + 1))


def select_kernel_cell(dataset: str, fold: int, n_folds: int, seed: int, inner_k: int, quick: bool,
                       max_genes: int | None = None) -> dict:
    """Choose the kernel (and its parameters) on one outer training part by inner CV of the SVM (thesis §3.4)."""
    X, y, _, _ = load_task(dataset, max_genes)
    tr, _ = _outer_split(y, n_folds, seed, fold)
    d = X.shape[1]
    Cs = _GRIDS["quick" if quick else "full"]["kernel_C"]
    cands = [KERNEL_CANDIDATES[0], KERNEL_CANDIDATES[3]] if quick else list(KERNEL_CANDIDATES)
    grid = []
    for k in cands:
        kp = _kernel_params(k, d)
        kp.setdefault("gamma", 1.0 / d)
        grid.append({**{f"clf__{a}": [v] for a, v in kp.items()}, "clf__C": Cs})
    gs = GridSearchCV(_pipeline(dataset, KernelSVM()), grid, cv=_inner_cv(y[tr], inner_k, seed, fold),
                      scoring="accuracy", error_score="raise")
    t0 = time.process_time()
    gs.fit(X[tr], y[tr])
    cpu = time.process_time() - t0
    # the winning candidate (GridSearchCV breaks ties by grid order: the linear kernel first)
    bp = gs.best_params_
    k = next(c for c in cands if _kernel_params(c, d).items() <= {a.removeprefix("clf__"): v
                                                                   for a, v in bp.items()}.items()
             and (c["kernel"] != "linear" or bp["clf__kernel"] == "linear"))
    return {"kernel": json.dumps(k), "inner_accuracy": float(gs.best_score_), "cpu_kernel_selection": cpu}


def cv_cell(dataset: str, fold: int, n_folds: int, seed: int, method: str, kernel: str, inner_k: int, quick: bool,
            max_genes: int | None = None) -> dict:
    """Train ``method`` on one outer training part (inner-CV regularisation), score the held-out fold.

    ``kernel`` is the JSON of the kernel chosen by :func:`select_kernel_cell` for this fold. Returns the test
    indices, true labels, scores (decision values for SVM/DWD, P(class +1) for the probabilistic models),
    predictions, the chosen hyper-parameters and the CPU seconds (inner CV + final fit + prediction).
    """
    X, y, _, _ = load_task(dataset, max_genes)
    tr, te = _outer_split(y, n_folds, seed, fold)
    est, grid = _estimator(method, json.loads(kernel), X.shape[1], seed, quick)
    pipe = _pipeline(dataset, est)
    t0 = time.process_time()
    w0 = time.perf_counter()
    if grid:
        model = GridSearchCV(pipe, {f"clf__{k}": v for k, v in grid.items()},
                             cv=_inner_cv(y[tr], inner_k, seed, fold), scoring="accuracy", error_score="raise")
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
    return {"test_idx": te.tolist(), "y_true": y[te].tolist(), "score": np.asarray(score, float).tolist(),
            "pred": np.asarray(pred).tolist(), "accuracy": float(np.mean(pred == y[te])),
            "best_params": json.dumps(best), "cpu_seconds": cpu, "wall_seconds": wall}


def ard_split(dataset: str, seed: int):
    """Training part used for the ARD values (thesis §4.1, Table 4.1): the predefined 38 Leukemia training samples,
    a random 32 of the 62 Colon samples; for data sets without a predefined split (Singh prostate) half of them."""
    ds = load_dataset(dataset)
    if ds.train_idx is not None:
        return np.asarray(ds.train_idx)
    n_train = 32 if dataset in ("alon", "colon") else ds.y.size // 2
    (tr, _), = random_splits(ds.y, n_train, 1, seed, stratified=True)
    return np.asarray(tr)


def ard_cell(dataset: str, approximation: str, seed: int, quick: bool, max_genes: int | None = None) -> dict:
    """GP with one ARD value per gene (thesis Eq. 3.8, §4.3) fitted on the training part; the ARD values."""
    X, y, genes, _ = load_task(dataset, max_genes)
    tr = ard_split(dataset, seed)
    Xtr = thesis_preprocessing().fit_transform(X[tr])
    gp = GaussianProcessClassifier(approximation=approximation, ard=True, n_restarts=0 if quick else 2,
                                   max_iter=50 if quick else 200, random_state=seed)
    t0 = time.process_time()
    gp.fit(Xtr, y[tr])
    cpu = time.process_time() - t0
    return {"relevances": gp.relevances_.tolist(), "gene_ids": [str(g) for g in genes],
            "log_evidence": float(gp.log_marginal_likelihood_), "n_train": int(len(tr)), "cpu_seconds": cpu}
