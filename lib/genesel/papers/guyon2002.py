"""Guyon, Weston, Barnhill & Vapnik (2002): everything notebook 01 needs that is not an algorithm.

I. Guyon, J. Weston, S. Barnhill, V. Vapnik, *Gene Selection for Cancer Classification using Support Vector
Machines*, Machine Learning 46:389-422, 2002. The algorithms live in :mod:`genesel.svm` (the linear SVM),
:mod:`genesel.rfe` (SVM-RFE), :mod:`genesel.voting` (Golub's weighted voting), :mod:`genesel.filters` (the
signal-to-noise ranking) and :mod:`genesel.metrics` (the quality measures of section 4). Here: the paper's
preprocessing, its splits, and the grid cells of its two protocols (``guyon2002_curves``: genes ranked once on the
whole training set, as printed; ``guyon2002_loo_fold``: everything inside each leave-one-out fold, the unbiased
protocol), all module-level functions so :func:`genesel.experiments.run_grid` can cache and parallelise them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.datasets import load_dataset, recommended_preprocessing
from genesel.experiments import leave_one_out, predefined_split, random_splits
from genesel.filters import SignalToNoiseSelector
from genesel.metrics import METRIC_NAMES, guyon_quality, quality_metrics
from genesel.preprocessing import GeneStandardizer, SampleStandardizer
from genesel.rfe import SVMRFE
from genesel.svm import LinearSVM
from genesel.voting import GolubVoting

__all__ = ["GUYON_METHODS", "guyon_preprocess", "guyon_sizes", "guyon2002_curves", "guyon_n_train",
           "guyon2002_loo_fold", "loo_metrics_from_outputs"]

GUYON_METHODS = ("svm-rfe", "baseline")


def guyon_preprocess(X_train, X_test, dataset):
    """Guyon 2002's preprocessing: log of the intensities (with the data set's usual floor/ceiling,
    ``genesel.preprocessing.recommended_preprocessing``), each sample to mean 0 / sd 1 over its genes, genes
    constant in the training samples dropped, each gene to mean 0 / sd 1 with the *training* mean and sd.

    Returns ``(X_train, X_test or None, kept)`` with ``kept`` the indices of the genes kept.
    """
    log = recommended_preprocessing(dataset, standardize=False).fit(X_train)
    smp = SampleStandardizer()
    A = smp.fit_transform(log.transform(X_train))
    kept = np.flatnonzero(np.ptp(A, axis=0) > 0)
    gs = GeneStandardizer().fit(A[:, kept])
    B = None
    if X_test is not None:
        B = gs.transform(smp.transform(log.transform(X_test))[:, kept])
    return gs.transform(A[:, kept]), B, kept


def _guyon_data(dataset, split, seed):
    """(ds, train_idx, test_idx or None): "predefined" (the paper's split), "all" (every sample for training,
    no test set) or "half" (a seeded stratified random half/half split, as the paper does for colon)."""
    ds = load_dataset(dataset)
    if split == "predefined":
        tr, te = predefined_split(ds)[0]
    elif split == "all":
        tr, te = np.arange(ds.y.size), None
    elif split == "half":
        tr, te = random_splits(ds.y, ds.y.size // 2, 1, seed, stratified=True)[0]
    else:
        raise ValueError(f"split must be 'predefined', 'all' or 'half', got {split!r}")
    return ds, np.sort(tr), (None if te is None else np.sort(te))


def guyon_sizes(n_genes):
    """Subset sizes 2^k below the number of genes, plus all the genes."""
    sizes = [1 << k for k in range(int(n_genes).bit_length()) if (1 << k) < n_genes]
    return sorted(set(sizes) | {int(n_genes)}, reverse=True)


def _rank_genes(method, X, y, C, step):
    """A fitted ranker exposing ``subset(size)`` and a factory for the matching classifier."""
    if method == "svm-rfe":
        sel = SVMRFE(n_features_to_select=1, step=step, C=C).fit(X, y)
        return sel, (lambda: LinearSVM(C=C))
    if method == "baseline":
        sel = SignalToNoiseSelector(n_features_to_select=1, balanced=True).fit(X, y)
        return sel, (lambda: GolubVoting(n_genes=None))
    raise ValueError(f"method must be one of {GUYON_METHODS}, got {method!r}")


def _sizes(n_genes, max_size):
    return [s for s in guyon_sizes(n_genes) if max_size is None or s <= max_size]


def guyon2002_curves(dataset, method, C=100.0, step="halving", split="predefined", seed=0, n_top=16,
                     max_size=None):
    """The paper's protocol: genes ranked once on the whole training set; for every subset size 2^k the
    classifier (SVM for SVM-RFE, weighted voting for the baseline) is assessed by leave-one-out on the training
    set (V_*) and on the test set (T_*, when there is one). One row per subset size; the row of the smallest
    sizes (<= ``n_top``) also lists the genes (probe IDs, best first). ``max_size`` skips the larger subsets
    (quick runs)."""
    ds, tr, te = _guyon_data(dataset, split, seed)
    Xtr, Xte, kept = guyon_preprocess(ds.X[tr], None if te is None else ds.X[te], dataset)
    ytr = ds.y[tr]
    sel, make_clf = _rank_genes(method, Xtr, ytr, C, step)
    rows = []
    for size in _sizes(Xtr.shape[1], max_size):
        g = sel.subset(size)
        q = guyon_quality(make_clf(), Xtr[:, g], ytr, None if te is None else Xte[:, g],
                          None if te is None else ds.y[te])
        row = {"n_genes": int(size), "n_train": int(tr.size), **q,
               "V_errors": int(round((1.0 - q["V_suc"]) * tr.size))}
        if size <= n_top:
            best_first = [i for i in sel.feature_order_[:size]]
            row["genes"] = ";".join(str(ds.gene_ids[kept[i]]) for i in best_first)
        rows.append(row)
    return rows


def guyon_n_train(dataset, split, seed=0):
    """Number of training samples of a Guyon 2002 split (the number of leave-one-out folds)."""
    return int(_guyon_data(dataset, split, seed)[1].size)


def guyon2002_loo_fold(dataset, method, fold, C=100.0, step="halving", split="predefined", seed=0, max_size=None):
    """One leave-one-out fold with *everything* done inside the fold (Ambroise & McLachlan 2002): preprocessing
    statistics, gene ranking and classifier are fit on the training samples minus sample ``fold``, which is then
    scored at every subset size. Returns one row per size with the held-out label and output."""
    ds, tr, _ = _guyon_data(dataset, split, seed)
    inner_tr, inner_te = leave_one_out(tr.size)[fold]
    a, b = tr[inner_tr], tr[inner_te]
    Xa, Xb, _ = guyon_preprocess(ds.X[a], ds.X[b], dataset)
    ya = ds.y[a]
    sel, make_clf = _rank_genes(method, Xa, ya, C, step)
    rows = []
    if method == "svm-rfe":
        # the SVMs RFE trained on each nested subset, evaluated in one pass
        path = sel.decision_function_path(Xb)
        for s, size in enumerate(sel.subset_sizes_):
            if int(size) in set(_sizes(Xa.shape[1], max_size)):
                rows.append({"n_genes": int(size), "y": int(ds.y[b][0]), "output": float(path[s, 0])})
        return rows
    for size in _sizes(Xa.shape[1], max_size):
        g = sel.subset(size)
        out = make_clf().fit(Xa[:, g], ya).decision_function(Xb[:, g])
        rows.append({"n_genes": int(size), "y": int(ds.y[b][0]), "output": float(out[0])})
    return rows


def loo_metrics_from_outputs(df, by=("dataset", "method", "n_genes")):
    """Guyon's V_* from per-fold leave-one-out outputs (columns ``y`` and ``output``), one row per group."""
    rows = []
    for key, g in df.groupby(list(by), sort=True):
        m = quality_metrics(g["y"].to_numpy(), g["output"].to_numpy(), pos_label=1)
        rows.append({**dict(zip(by, key)), **{f"V_{k}": m[k] for k in METRIC_NAMES}, "n_folds": len(g),
                     "V_errors": int(np.sum(g["y"].to_numpy() * g["output"].to_numpy() <= 0))})
    return pd.DataFrame(rows)
