"""The leaderboard's grid cells: every method of the catalogue on every data set under one nested protocol.

Each function here is one cell of :func:`genesel.experiments.run_grid` (plain arguments, a dict of plain data
returned, cached on disk, resumable, distributable on dask):

- :func:`cv_cell`: one outer fold of repeated stratified K-fold cross-validation (full mode 10 x 5-fold) of one
  method on one data set, everything chosen by an inner stratified CV on the outer training part
  (:func:`genesel.leaderboard.protocol.run_split`);
- :func:`boot_cell`: one bootstrap sample of the .632+ estimate (Efron & Tibshirani 1997; 200 samples in full mode,
  as Díaz-Uriarte & Alvarez de Andrés 2006), selection and tuning redone inside it, tested on its out-of-bag
  samples; ``boot=-1`` is the rule fitted on all samples, whose resubstitution error the estimate needs.

Data. Every binary expression data set of the registry, or a user's file (a path or a reference string
``"study.csv?label=class"``, :func:`genesel.expression_io.make_reference`). Preprocessing, fitted inside every
training part: the data set's :func:`genesel.datasets.recommended_preprocessing` (log of raw intensities where the
values are raw, then per-gene z-scores) for registered sets; per-gene z-scores of the values as given for a user's
file (give log-scale values). The ``"diaz2006"`` view of Golub's leukemia is the data of Díaz-Uriarte & Alvarez de
Andrés' Table 2: the 38 training samples, Dudoit et al.'s thresholds (floor 100, ceiling 16000) and filter (max/min
> 5 and max - min > 500, label-free, on those 38 samples: 3051 genes), log10, each sample standardised.
Quick mode keeps the most variable genes (label-free, over all samples; :func:`genesel.papers.common.load_task`).
A file's missing values are imputed inside every training part (k nearest training samples).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from genesel.datasets import load_dataset, recommended_preprocessing
from genesel.experiments import bootstrap_splits, grouped_inner_folds, nested_cv, single_thread
from genesel.expression_io import looks_like_path
from genesel.leaderboard.catalogue import method as _method
from genesel.leaderboard.keys import cell_code
from genesel.leaderboard.protocol import run_split
from genesel.papers.common import load_task
from genesel.preprocessing import GeneStandardizer, LogTransform

__all__ = ["MODES", "DU2006_METHODS", "DU2006_VIEWS", "VIEWS", "Task", "load", "binary_expression_sets", "excluded_sets", "cv_cell",
           "boot_cell", "cv_cells", "boot_cells", "fold_seed"]

#: The protocol of each mode. Quick: one repeat of 3-fold CV with 3 inner folds on the 300 most variable genes, 8
#: bootstrap samples; full: 10 x 5-fold with 5 inner folds on all genes, 200 bootstrap samples.
MODES = {
    "full": dict(n_repeats=10, n_folds=5, inner_k=5, n_boot=200, max_genes=None),
    "quick": dict(n_repeats=1, n_folds=3, inner_k=3, n_boot=8, max_genes=300),
}

#: The data sets of Díaz-Uriarte & Alvarez de Andrés' Table 2 that the registry has, with the view that matches
#: theirs (None: the registry's version; see :data:`VIEWS`).
DU2006_VIEWS = {"alon": None, "golub": "diaz2006", "singh": None}
VIEWS = {"diaz2006": "Díaz-Uriarte & Alvarez de Andrés 2006's leukemia: Golub's 38 training samples, Dudoit's "
                     "floor/ceiling and filter, log10, samples standardised (38 x 3051)"}
#: The methods compared with Díaz-Uriarte & Alvarez de Andrés' Table 2 (their SVM, KNN, SC.l, SC.s, NN.vs, random
#: forest and its variable selection with the s.e. 0 and s.e. 1 rules).
DU2006_METHODS = ("SVM (all genes)", "kNN (all genes)", "shrunken centroids (SC.l)", "shrunken centroids (SC.s)",
                  "kNN on Fisher genes", "random forest (all genes)", "RF var. sel. (s.e. 0)", "RF var. sel. (s.e. 1)")
_DUDOIT = dict(floor=100.0, ceiling=16000.0, ratio=5.0, difference=500.0)


@dataclass(frozen=True)
class Task:
    """A data set as the cells use it: values, labels in -1/+1, gene IDs, class names and the preprocessing fitted
    inside every training part."""

    name: str
    X: np.ndarray
    y: np.ndarray
    gene_ids: np.ndarray
    classes: tuple
    prep: object


def _dudoit_view(ds):
    X = np.asarray(ds.X, dtype=np.float64)[ds.train_idx]
    T = np.clip(X, _DUDOIT["floor"], _DUDOIT["ceiling"])
    hi, lo = T.max(axis=0), T.min(axis=0)
    keep = np.flatnonzero((hi / lo > _DUDOIT["ratio"]) & (hi - lo > _DUDOIT["difference"]))
    L = LogTransform(floor=_DUDOIT["floor"], ceiling=_DUDOIT["ceiling"]).fit_transform(X[:, keep])
    L = (L - L.mean(axis=1, keepdims=True)) / L.std(axis=1, keepdims=True)  # per sample: uses no other sample
    return L, np.asarray(ds.y)[ds.train_idx], np.asarray(ds.gene_ids)[keep]


@lru_cache(maxsize=16)
def load(dataset: str, view: str | None = None, max_genes: int | None = None) -> Task:
    """The data set (registry name, alias, or a user's file), optionally in a :data:`VIEWS` view or restricted to
    its ``max_genes`` most variable genes, with its preprocessing; once per process."""
    if view is not None:
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}; choose from {list(VIEWS)} or None")
        ds = load_dataset(dataset)
        if view == "diaz2006" and ds.name != "golub":
            raise ValueError(f"the 'diaz2006' view exists for golub only, not {dataset!r}")
        X, y, ids = _dudoit_view(ds)
        return Task(dataset, X, y, ids, tuple(ds.classes), GeneStandardizer(on_constant="zero"))
    if looks_like_path(dataset):
        ds = load_dataset(dataset)
        if len(ds.classes) != 2:
            raise ValueError(f"{dataset}: the leaderboard's methods are binary; the file has {len(ds.classes)} classes "
                             f"{list(ds.classes)} (choose two with '?classes=a,b' in the reference)")
        X, ids = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.gene_ids)
        if max_genes is not None and max_genes < X.shape[1]:
            keep = np.sort(np.argsort(-np.nanvar(X, axis=0), kind="stable")[:max_genes])
            X, ids = X[:, keep], ids[keep]
        prep = GeneStandardizer(on_constant="zero")
        if np.isnan(X).any():  # a file's missing values are kept (issue 22): imputed inside every training part
            from sklearn.pipeline import make_pipeline

            from genesel.preprocessing import MissingValueImputer

            prep = make_pipeline(MissingValueImputer(), prep)
        return Task(dataset, X, np.asarray(ds.y), ids, tuple(ds.classes), prep)
    ds = load_task(dataset, max_genes)
    if len(ds.classes) != 2:
        raise ValueError(f"{dataset!r} has {len(ds.classes)} classes; the leaderboard's methods are binary")
    return Task(ds.name, np.asarray(ds.X, dtype=np.float64), np.asarray(ds.y), np.asarray(ds.gene_ids),
                tuple(ds.classes), recommended_preprocessing(ds.name))


def binary_expression_sets() -> list[str]:
    """Every binary expression data set of the registry (the full run's data), in registry order."""
    from genesel.datasets import list_datasets

    t = list_datasets()
    keep = (t["classes"] != "multi-class") & (t["classes"] != "family") & (t["measures"] != "pixels")
    return t.loc[keep, "name"].tolist()


def excluded_sets() -> dict:
    """The registry's data sets the full run leaves out, with the reason."""
    from genesel.datasets import list_datasets

    out = {}
    for _, r in list_datasets().iterrows():
        if r["classes"] == "family":
            continue
        if r["measures"] == "pixels":
            out[r["name"]] = "handwritten digits (MNIST pairs of Shah et al. 2012), not expression data"
        elif r["classes"] == "multi-class":
            out[r["name"]] = "more than two classes; the methods are binary"
    return out


def fold_seed(seed: int, *more) -> int:
    """The seed of the estimators of one split: a function of (seed, repeat, fold) only."""
    return int(np.random.default_rng([int(seed), *[int(m) + 1 for m in more]]).integers(2**31 - 1))


def _timed(func):
    t0, w0 = time.process_time(), time.perf_counter()
    with single_thread():
        row = func()
    row["cpu_seconds"] = time.process_time() - t0
    row["wall_seconds"] = time.perf_counter() - w0
    return row


def cv_cell(dataset: str, method: str, repeat: int, fold: int, n_folds: int, inner_k: int, seed: int, quick: bool,
            max_genes: int | None = None, view: str | None = None) -> dict:
    """Outer fold ``fold`` of repeat ``repeat`` of stratified ``n_folds``-fold CV of ``method`` on ``dataset``,
    with an inner stratified ``inner_k``-fold CV on the outer training part choosing everything."""
    task = load(dataset, view, max_genes)
    m = _method(method)
    import warnings

    with warnings.catch_warnings():  # a class smaller than the number of folds: stratified_kfold warns
        warnings.simplefilter("ignore", UserWarning)
        tr, te, inner = nested_cv(task.y, n_folds, inner_k, seed, repeat=repeat)[fold]
    return _timed(lambda: run_split(m, task.X, task.y, tr, te, inner, prep=task.prep, quick=quick,
                                    seed=fold_seed(seed, repeat, fold)))


def boot_cell(dataset: str, method: str, boot: int, inner_k: int, seed: int, quick: bool,
              max_genes: int | None = None, view: str | None = None) -> dict:
    """Bootstrap sample ``boot`` of the .632+ estimate of ``method`` on ``dataset`` (``boot=-1``: the rule fitted on
    all samples and scored on them). Inner folds keep the copies of a sample together."""
    task = load(dataset, view, max_genes)
    m = _method(method)
    y = task.y
    if boot < 0:
        tr = te = np.arange(y.size)
    else:
        (tr, te), = bootstrap_splits(y, 1, seed, min_distinct=inner_k, start=boot)
    inner = grouped_inner_folds(y, tr, inner_k, seed, repeat=boot + 1)
    return _timed(lambda: run_split(m, task.X, y, tr, te, inner, prep=task.prep, quick=quick,
                                    seed=fold_seed(seed, 10_000 + boot), curve=False))


#: Per-method cache keys: :func:`genesel.experiments.run_grid` keys a cell of these functions by the code of its
#: method and of the protocol only (:mod:`genesel.leaderboard.keys`), not by the whole catalogue.
cv_cell.cache_code = boot_cell.cache_code = cell_code


def cv_cells(datasets, methods, *, n_repeats: int, n_folds: int, inner_k: int, seed: int, quick: bool,
             max_genes=None) -> list:
    """Every (data set, method, repeat, outer fold) cell."""
    return [dict(dataset=d, method=m, repeat=int(r), fold=int(f), n_folds=int(n_folds), inner_k=int(inner_k),
                 seed=int(seed), quick=bool(quick), max_genes=max_genes)
            for d in datasets for m in methods for r in range(int(n_repeats)) for f in range(int(n_folds))]


def boot_cells(datasets, methods, *, n_boot: int, inner_k: int, seed: int, quick: bool, max_genes=None,
               views=None) -> list:
    """Every (data set, method, bootstrap sample) cell, plus the all-samples fit (``boot=-1``) of each pair;
    ``views`` maps a data set to its view (default :data:`DU2006_VIEWS`)."""
    views = DU2006_VIEWS if views is None else views
    return [dict(dataset=d, method=m, boot=int(b), inner_k=int(inner_k), seed=int(seed), quick=bool(quick),
                 max_genes=None if views.get(d) else max_genes, view=views.get(d))
            for d in datasets for m in methods for b in range(-1, int(n_boot))]
