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
the pipeline (the thesis standardised all samples at once; chapter 4-5 notebooks show both). Splits come from
:mod:`genesel.experiments.protocols`; inner model selection is scikit-learn's ``GridSearchCV`` on inner stratified
folds of the outer training part only.
"""

from __future__ import annotations

import json
import time
import warnings
from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from genesel.datasets import load_dataset, recommended_preprocessing
from genesel.dwd import DWD
from genesel.experiments import random_splits, stratified_kfold
from genesel.papers.common import one_class_fits
from genesel.gp import GaussianProcessClassifier
from genesel.preprocessing import GeneStandardizer
from genesel.rvm import RVM
from genesel.smlr import SMLR
from genesel.svm import KernelSVM

__all__ = ["CLASSIFIERS", "KERNEL_CANDIDATES", "load_task", "select_kernel_cell", "cv_cell", "ard_cell",
           "ard_split", "thesis_preprocessing", "THESIS", "THESIS_NAMES", "thesis_name", "kernel_label",
           "accuracy_figure", "auc_bootstrap", "auc_figure", "roc_figure", "cpu_figure", "ard_figure", "fmt_pair"]

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
    X, y, _, _ = load_task(dataset, max_genes)
    tr, te = _outer_split(y, n_folds, seed, fold)
    est, grid = _estimator(method, json.loads(kernel), X.shape[1], seed, quick)
    pipe = _pipeline(dataset, est)
    t0 = time.process_time()
    w0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
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
    messages = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return {"test_idx": te.tolist(), "y_true": y[te].tolist(), "score": np.asarray(score, float).tolist(),
            "pred": np.asarray(pred).tolist(), "accuracy": float(np.mean(pred == y[te])),
            "best_params": json.dumps(best), "cpu_seconds": cpu, "wall_seconds": wall,
            "warnings": " | ".join(messages)}


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
    """GP with one ARD value per gene (thesis Eq. 3.8, §4.3) fitted on the training part; the ARD values.

    Evidence maximisation over thousands of relevances often uses all 200 L-BFGS-B iterations without meeting the
    optimiser's convergence test; the fit is then the best point reached, not a certified maximum. That is reported
    in the result (``optimizer_converged``, ``n_iter``) for the notebook to show, instead of as a warning."""
    from sklearn.exceptions import ConvergenceWarning

    X, y, genes, _ = load_task(dataset, max_genes)
    tr = ard_split(dataset, seed)
    Xtr = thesis_preprocessing().fit_transform(X[tr])
    gp = GaussianProcessClassifier(approximation=approximation, ard=True, n_restarts=0 if quick else 2,
                                   max_iter=200, random_state=seed)
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
# The notebook's names, the thesis' numbers and the figures (notebook 05a)
# ----------------------------------------------------------------------------------------------------------------

#: The thesis' names of its data sets (Singh's prostate set stands in for the lung SAGE set, which is not public).
THESIS_NAMES = {"alon": "Colon", "golub": "Leukemia", "singh": "Prostate (Singh)"}

#: Numbers the thesis prints (Table 4.7 and the text of section 3.4): SVM 10-fold CV errors with all genes, and the
#: approximate AUCs read from the text for Colon.
THESIS = {
    "svm_errors": {"alon": (17, 62), "golub": (2, 72)},
    "auc_colon": {"SVM": 0.85, "DWD": 0.85, "GP-Laplace": 0.85, "GP-EP": 0.85, "RVM": 0.78, "SMLR": 0.78},
}


def thesis_name(dataset: str) -> str:
    from genesel.papers.datasets_overview import display_name

    return THESIS_NAMES.get(dataset, display_name(dataset))


def kernel_label(kernel_json: str) -> str:
    """The SVM-chosen kernel of a fold in words ("linear", "polynomial (γ xᵀx′ + 1)², γ = 1/#genes", ...)."""
    k = json.loads(kernel_json)
    if k["kernel"] == "linear":
        return "linear"
    if k["kernel"] == "poly":
        g = k.get("gamma_scale", 1.0)
        return f"polynomial of degree {k.get('degree', 2)}, γ = {g:g}/#genes"
    return f"RBF, γ = {k.get('gamma_scale', 1.0):g}/#genes"


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


def auc_figure(auc_tab: pd.DataFrame, ci: dict, datasets, protocol: str):
    """Figure 3.8 as a dot plot: pooled-ROC AUC per classifier and data set with a 95 % bootstrap interval, the
    thesis' approximate Colon AUCs as open markers."""
    import matplotlib.pyplot as plt

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
    ax.set_ylim(max(0.0, min(0.5, lo_all - 0.05)), 1.01)
    ax.axhline(0.5, color="grey", lw=1, ls=":")
    ax.set_title(f"Tan 2006 Fig. 3.8: AUC of the pooled {protocol} ROC curves, 95 % bootstrap intervals")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=13, frameon=False)
    fig.tight_layout()
    return fig


def roc_figure(curves: dict, aucs: dict, dataset: str, protocol: str):
    """Figure 3.7: the pooled ROC curve of every classifier on one data set, legend beside the axes."""
    import matplotlib.pyplot as plt

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


def ard_figure(ard_rows, dataset: str, n_genes_label: str):
    """Figures 4.3-4.5: histograms of log10 of the ARD values (genes not constant in training), Laplace beside EP,
    on a logarithmic count axis so the few highly relevant genes stay visible."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(15, 6), sharey=True, sharex=True)
    rows = sorted(ard_rows, key=lambda r: r["approximation"] != "laplace")
    logs = [np.log10(np.asarray(r["relevances"])[np.asarray(r["relevances"]) > 0]) for r in rows]
    sds = fmt_pair(*(float(v.std()) for v in logs)) if len(logs) == 2 else [f"{float(v.std()):.2f}" for v in logs]
    for ax, r, v, sd in zip(axes, rows, logs, sds):
        ax.hist(v, bins=60, color="C0" if r["approximation"] == "laplace" else "C1", log=True)
        ax.set_xlabel("log10 of the ARD value l_m (larger: more relevant)")
        ax.set_title(f"GP-{'Laplace' if r['approximation'] == 'laplace' else 'EP'}: sd of log10 = {sd}")
    axes[0].set_ylabel("number of genes (log scale)")
    fig.suptitle(f"Tan 2006 Figs. 4.3-4.5: ARD values, {thesis_name(dataset)} ({n_genes_label})")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig
