"""The leaderboard's grid cells: every method of the catalogue on every data set under one nested protocol.

Each function here is one cell of :func:`genesel.experiments.run_grid` (plain arguments, a dict of plain data
returned, cached on disk, resumable, distributable on dask):

- :func:`cv_cell`: one outer fold of repeated stratified K-fold cross-validation (full mode 10 x 5-fold) of one
  method on one data set, everything chosen by an inner stratified CV on the outer training part
  (:func:`genesel.leaderboard.protocol.run_split`);
- :func:`boot_cell`: one bootstrap sample of the .632+ estimate (Efron & Tibshirani 1997; 200 samples in full mode,
  as Díaz-Uriarte & Alvarez de Andrés 2006), selection and tuning redone inside it, tested on its out-of-bag
  samples; ``boot=-1`` is the rule fitted on all samples, whose resubstitution error the estimate needs.

Data. Every binary expression data set of the registry, or a user's file (a path, a
:class:`genesel.dataref.DataRef` or its string ``"study.csv?label=class"``). Preprocessing, fitted inside every
training part: the data set's :func:`genesel.datasets.recommended_preprocessing` (registered sets: the log of raw
intensities where the values are raw, then per-gene z-scores; a user's file: the decision taken when it was read,
:func:`genesel.datasets.preprocessing_note` says which: raw intensities logged by LogTransform's rule, counts
normalised by library size and logged (CountNormalizer, TMM), log-scale values as they are; missing values imputed
from the k nearest training samples; then per-gene z-scores). The ``"diaz2006"`` view of Golub's leukemia is the data
of Díaz-Uriarte & Alvarez de Andrés' Table 2: the 38 training samples, Dudoit et al.'s thresholds (floor 100, ceiling
16000) and filter (max/min > 5 and max - min > 500, label-free, on those 38 samples: 3051 genes), log10, each sample
standardised. Quick mode keeps the most variable genes (label-free, over all samples, on the decided scale:
:func:`genesel.papers.common.load_task`; a file: ``recommended_preprocessing(ds, standardize=False)``).

Small studies and grouped samples. The outer folds of a data set are ``min(n_folds, its smallest class)``
(:func:`outer_folds`), the inner folds of each outer training part ``min(inner_k, its smallest class)``
(:func:`genesel.experiments.nested_cv`), both counted in groups when the file's samples are grouped
(``Dataset.groups``): then every outer and inner split, and every bootstrap sample, keeps a group together
(:mod:`genesel.experiments.protocols`). :func:`genesel.leaderboard.tables.plan_table` states it before a run; a method that cannot run
at a data set's size gives a row saying so (``not_applicable``) instead of an error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from genesel.datasets import load_dataset, recommended_preprocessing
from genesel.experiments import NotApplicable, bootstrap_splits, grouped_inner_folds, nested_cv, single_thread
from genesel.experiments.protocols import adapted_count
from genesel.experiments.protocols import adapted_folds, class_sizes, smallest_class
from genesel.dataref import cached_by_content, is_file_reference
from genesel.leaderboard.catalogue import method as _method
from genesel.leaderboard.keys import cell_code
from genesel.leaderboard.protocol import run_split
from genesel.papers.common import load_task
from genesel.preprocessing import LogTransform
from sklearn.preprocessing import FunctionTransformer

__all__ = ["MODES", "DU2006_METHODS", "DU2006_VIEWS", "VIEWS", "Task", "load", "binary_expression_sets",
           "multiclass_expression_sets", "board_sets", "excluded_sets", "left_out_classes", "cv_cell", "boot_cell",
           "cv_cells", "boot_cells", "fold_seed", "outer_folds", "MIN_CLASS", "MIN_CLASS_MULTI"]

#: The smallest class a data set may have for the leaderboard's protocol (samples, or groups when grouped): its
#: outer training parts then keep 2 of it, enough for 2 inner folds that leave one in every inner training part.
MIN_CLASS = 3
#: On a data set of K >= 3 classes, a class with fewer samples (groups when grouped) is left out, with its samples:
#: 5-fold outer CV then puts a member of every class in every test fold and 4 in every training part (the issue's
#: rule; :func:`left_out_classes` says which and why). Two-class data sets keep both classes (:data:`MIN_CLASS`).
MIN_CLASS_MULTI = 5

#: The protocol of each mode. Quick: one repeat of 3-fold CV with 3 inner folds on the 300 most variable genes, 8
#: bootstrap samples; full: 10 x 5-fold with 5 inner folds on all genes, 200 bootstrap samples.
MODES = {
    "full": dict(n_repeats=10, n_folds=5, inner_k=5, n_boot=200, max_genes=None),
    "quick": dict(n_repeats=1, n_folds=3, inner_k=3, n_boot=8, max_genes=300),
}

#: The data sets of Díaz-Uriarte & Alvarez de Andrés' Table 2 that the registry has, with the view that matches
#: theirs (None: the registry's version; see :data:`VIEWS`).
DU2006_VIEWS = {"alon": "diaz2006", "golub": "diaz2006", "singh": "diaz2006", "khan": None}
VIEWS = {"diaz2006": "Díaz-Uriarte & Alvarez de Andrés 2006's data: Dettling (2004)'s preprocessing, log10 and each "
                     "sample standardised to mean 0 and sd 1 over its genes (Colon 62 x 2000; Prostate: Singh's probes "
                     "floored at 10 and capped at 16000, the genes with max/min > 5 and max - min >= 50 kept: their "
                     "102 x 6033; Leukemia: Golub's 38 training samples, Dudoit's floor/ceiling and filter, "
                     "38 x 3051), no per-gene standardisation: every method sees the data as they had it"}
#: the sets with a 'diaz2006' view (:func:`_diaz_view`); their Srbct is the registry's copy as it is
DIAZ2006_SETS = ("alon", "golub", "singh")
#: The methods compared with Díaz-Uriarte & Alvarez de Andrés' Table 2 (their SVM, KNN, SC.l, SC.s, NN.vs, random
#: forest and its variable selection with the s.e. 0 and s.e. 1 rules).
DU2006_METHODS = ("SVM (all genes)", "kNN (all genes)", "DLDA (all genes)", "shrunken centroids (SC.l)",
                  "shrunken centroids (SC.s)", "kNN on Fisher genes", "random forest (all genes)",
                  "RF var. sel. (s.e. 0)", "RF var. sel. (s.e. 1)")
_DUDOIT = dict(floor=100.0, ceiling=16000.0, ratio=5.0, difference=500.0)
#: Dettling (2004)'s filter of Singh's prostate: floor 10, ceiling 16000, max/min > 5 and max - min >= 50 keeps
#: exactly their 6033 of the 12600 probes (label-free, over all 102 samples)
_DETTLING_PROSTATE = dict(floor=10.0, ceiling=16000.0, ratio=5.0, difference=50.0)


@dataclass(frozen=True)
class Task:
    """A data set as the cells use it: values, labels (-1/+1 for two classes, ``classes[-1]`` the +1 class; the
    class index 0..K-1 for K >= 3), gene IDs, class names and the preprocessing fitted inside every training part.
    ``dropped``: the classes of a K-class data set left out for having fewer than :data:`MIN_CLASS_MULTI` samples
    (or groups), as ((name, size), ...); the sample indices (``test_idx``) of the cells count the samples kept."""

    name: str
    X: np.ndarray
    y: np.ndarray
    gene_ids: np.ndarray
    classes: tuple
    prep: object
    groups: np.ndarray | None = None
    note: str = ""
    dropped: tuple = ()


def _per_sample(L):
    """Each sample (row) standardised to mean 0 and sd 1 over its genes: uses no other sample (no leak)."""
    return (L - L.mean(axis=1, keepdims=True)) / L.std(axis=1, keepdims=True)


def _clip_filter_log(X, floor, ceiling, ratio, difference, *, closed=False, **log):
    """Dudoit, Fridlyand & Speed (2002)'s gene filter: values clipped to [floor, ceiling], the genes with
    max/min > ratio and max - min > difference (``closed``: >= difference) kept, then log10. Returns (log values of
    the kept genes, their indices). Label-free."""
    T = np.clip(X, floor, ceiling)
    hi, lo = T.max(axis=0), T.min(axis=0)
    wide = hi - lo >= difference if closed else hi - lo > difference
    keep = np.flatnonzero((hi / lo > ratio) & wide)
    return LogTransform(floor=floor, ceiling=ceiling, **log).fit_transform(X[:, keep]), keep


def _dudoit_view(ds):
    L, keep = _clip_filter_log(np.asarray(ds.X, dtype=np.float64)[ds.train_idx], **_DUDOIT)
    return _per_sample(L), np.asarray(ds.y)[ds.train_idx], np.asarray(ds.gene_ids)[keep]


def _diaz_view(ds):
    """(X, y, gene ids) of the 'diaz2006' view of ``ds`` (:data:`VIEWS`): Golub's leukemia as Dudoit et al.
    (:func:`_dudoit_view`); Colon and Prostate as Dettling (2004): log10 (Prostate's raw MAS values floored at 10
    and capped at 16000 first, then the genes with max/min > 5 and max - min >= 50 kept: their 6033) and each sample
    standardised over its genes. Label-free; the gene filter is the only step that looks across samples, and it
    looks at no label (as theirs, applied once to the whole data set)."""
    if ds.name == "golub":
        return _dudoit_view(ds)
    X = np.asarray(ds.X, dtype=np.float64)
    ids = np.asarray(ds.gene_ids)
    if ds.name == "alon":
        L = LogTransform(floor=1.0, already_log=False).fit_transform(X)
    else:  # singh
        L, keep = _clip_filter_log(X, **_DETTLING_PROSTATE, closed=True, already_log=False)
        ids = ids[keep]
    return _per_sample(L), np.asarray(ds.y), ids


@cached_by_content(maxsize=16)
def load(dataset: str, view: str | None = None, max_genes: int | None = None) -> Task:
    """The data set (registry name, alias, or a user's file), optionally in a :data:`VIEWS` view or restricted to
    its ``max_genes`` most variable genes, with its preprocessing; once per process for each content of a user's
    file (:func:`genesel.dataref.cached_by_content`: a file rewritten in place is read again)."""
    if view is not None:
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}; choose from {list(VIEWS)} or None")
        ds = load_dataset(dataset)
        if view == "diaz2006" and ds.name not in DIAZ2006_SETS:
            raise ValueError(f"the 'diaz2006' view exists for {', '.join(DIAZ2006_SETS)} only, not {dataset!r}")
        X, y, ids = _diaz_view(ds)
        y = 2 * y - 1 if set(np.unique(y).tolist()) <= {0, 1} else y
        return Task(dataset, X, y, ids, tuple(ds.classes), FunctionTransformer())
    if is_file_reference(dataset):
        ds = load_dataset(dataset)
        from genesel.datasets import preprocessing_note

        X, ids = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.gene_ids)
        if max_genes is not None and max_genes < X.shape[1]:
            # label-free, over all samples, on the scale the file's preprocessing decides (log, or log2 CPM of counts)
            V = recommended_preprocessing(ds, standardize=False).fit_transform(X)
            keep = np.sort(np.argsort(-np.nanvar(V, axis=0), kind="stable")[:max_genes])
            X, ids = X[:, keep], ids[keep]
        groups = None if ds.groups is None else np.asarray(ds.groups)
        rows, y, classes, dropped = _kept_classes(dataset, np.asarray(ds.y), tuple(ds.classes), groups)
        return Task(dataset, X[rows], y, ids, classes, recommended_preprocessing(ds),
                    None if groups is None else groups[rows], preprocessing_note(ds), dropped)
    ds = load_task(dataset, max_genes)
    rows, y, classes, dropped = _kept_classes(dataset, np.asarray(ds.y), tuple(ds.classes), None)
    return Task(ds.name, np.asarray(ds.X, dtype=np.float64)[rows], y, np.asarray(ds.gene_ids), classes,
                recommended_preprocessing(ds.name), dropped=dropped)


def _kept_classes(dataset, y, classes: tuple, groups):
    """(rows kept, their labels, the classes kept, the classes dropped) of a data set: two classes as they are
    (labels -1/+1); K >= 3 classes without those smaller than :data:`MIN_CLASS_MULTI` (samples, or groups), the
    rest re-encoded (0..K'-1, or -1/+1 when two remain). Fewer than two classes left is refused, naming them."""
    if len(classes) <= 2:  # -1/+1 (a file read with classes="all" codes two classes 0/1: the same order)
        return np.arange(y.size), (2 * y - 1 if set(np.unique(y).tolist()) <= {0, 1} else y), classes, ()
    sizes = class_sizes(y, groups)  # {class index: size}
    small = [int(c) for c in sorted(sizes) if sizes[c] < MIN_CLASS_MULTI]
    kept = [int(c) for c in sorted(sizes) if sizes[c] >= MIN_CLASS_MULTI]
    dropped = tuple((str(classes[c]), int(sizes[c])) for c in small)
    if len(kept) < 2:
        unit = "groups" if groups is not None else "samples"
        raise ValueError(f"{dataset}: only {len(kept)} of its {len(classes)} classes have {MIN_CLASS_MULTI} {unit} or "
                         f"more ({', '.join(f'{n!r}: {k}' for n, k in dropped)} are smaller); the leaderboard's "
                         "nested protocol needs two such classes")
    rows = np.flatnonzero(np.isin(y, kept))
    code = {c: i for i, c in enumerate(kept)}
    yk = np.array([code[int(v)] for v in y[rows]], dtype=np.int64)
    if len(kept) == 2:
        yk = 2 * yk - 1
    return rows, yk, tuple(classes[c] for c in kept), dropped


def binary_expression_sets() -> list[str]:
    """Every binary expression data set of the registry (the binary board's full run), in registry order."""
    from genesel.datasets import list_datasets

    t = list_datasets()
    keep = (t["classes"] != "multi-class") & (t["classes"] != "family") & (t["measures"] != "pixels")
    return t.loc[keep, "name"].tolist()


def multiclass_expression_sets() -> list[str]:
    """Every data set of K >= 3 classes of the registry (the multi-class board's full run), in registry order."""
    from genesel.datasets import list_datasets

    t = list_datasets()
    keep = (t["classes"] == "multi-class") & (t["measures"] != "pixels")
    return t.loc[keep, "name"].tolist()


def board_sets(board: str = "binary") -> list[str]:
    """The registry's data sets of a board: :func:`binary_expression_sets` or :func:`multiclass_expression_sets`."""
    if board == "binary":
        return binary_expression_sets()
    if board == "multiclass":
        return multiclass_expression_sets()
    raise ValueError(f"board must be 'binary' or 'multiclass', got {board!r}")


def excluded_sets(board: str = "binary") -> dict:
    """The registry's data sets the full run of ``board`` leaves out, with the reason."""
    from genesel.datasets import list_datasets

    board_sets(board)  # checks the name
    out = {}
    for _, r in list_datasets().iterrows():
        if r["classes"] == "family":
            continue
        if r["measures"] == "pixels":
            out[r["name"]] = "handwritten digits (MNIST pairs of Shah et al. 2012), not expression data"
        elif r["classes"] == "multi-class" and board == "binary":
            out[r["name"]] = "more than two classes: on the multi-class board (board='multiclass')"
        elif r["classes"] != "multi-class" and board == "multiclass":
            out[r["name"]] = "two classes: on the binary board (board='binary')"
    return out


def left_out_classes(datasets, max_genes: int | None = None) -> list[dict]:
    """One row per class a data set of this run leaves out (K >= 3 classes, fewer than :data:`MIN_CLASS_MULTI`
    samples or groups): ``dataset``, ``class``, ``size`` and ``reason``. Registered sets are read from the registry
    (nothing is loaded)."""
    rows = []
    for d in datasets:
        if is_file_reference(d):
            dropped, unit = load(d, None, max_genes).dropped, ("groups" if load(d, None, max_genes).groups is not None
                                                               else "samples")
        else:
            from data_fetch import resolve

            counts = resolve(d).counts
            dropped = tuple((str(c), int(k)) for c, k in counts.items() if k < MIN_CLASS_MULTI) \
                if len(counts) > 2 else ()
            unit = "samples"
        for name, size in dropped:
            rows.append({"dataset": d, "class": name, "size": size,
                         "reason": f"{size} {unit}, fewer than {MIN_CLASS_MULTI}: 5-fold outer CV could not put one in "
                                   "every test fold and 4 in every training part, nor the inner CV choose on it"})
    return rows


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


def outer_folds(dataset: str, n_folds: int, max_genes: int | None = None) -> int:
    """The outer folds of ``dataset``: ``min(n_folds, its smallest class)`` (in groups when its samples are grouped),
    the adaptation rule of :func:`genesel.experiments.adapted_folds`; a class smaller than :data:`MIN_CLASS` is
    refused, naming it. A registered set's class sizes are read from the registry (nothing is loaded)."""
    if not is_file_reference(dataset):
        from data_fetch import resolve

        counts = resolve(dataset).counts  # {class: samples}: registered sets are not grouped
        if len(counts) > 2:  # the classes a K-class set keeps (:func:`_kept_classes`)
            counts = {c: k for c, k in counts.items() if k >= MIN_CLASS_MULTI}
        name = min(counts, key=counts.get)
        if counts[name] < MIN_CLASS:  # pragma: no cover - no registered binary set is that small
            raise ValueError(f"{dataset}: class {name!r} has {counts[name]} samples; the leaderboard needs {MIN_CLASS}")
        return adapted_count(n_folds, counts[name])
    task = load(dataset, None, max_genes)
    sizes = class_sizes(task.y, task.groups)
    small = min(sizes, key=sizes.get)
    if sizes[small] < MIN_CLASS:
        name = task.classes[(0 if small == -1 else 1) if len(task.classes) == 2 else int(small)]
        unit = "groups" if task.groups is not None else "samples"
        raise ValueError(f"{dataset}: class {name!r} has {sizes[small]} {unit}; the leaderboard's nested protocol needs "
                         f"at least {MIN_CLASS} in every class (each outer training part keeps 2, which 2 inner folds "
                         "split so that every inner training part holds one)")
    return adapted_folds(n_folds, task.y, task.groups, who=f"{dataset}: the outer folds")


def _not_applicable(exc, test) -> dict:
    return dict(not_applicable=str(exc), n_test=int(len(test)), test_idx=[int(i) for i in test], cpu_seconds=0.0,
                wall_seconds=0.0)


def cv_cell(dataset: str, method: str, repeat: int, fold: int, n_folds: int, inner_k: int, seed: int, quick: bool,
            max_genes: int | None = None, view: str | None = None) -> dict:
    """Outer fold ``fold`` of repeat ``repeat`` of stratified ``n_folds``-fold CV of ``method`` on ``dataset``,
    with an inner stratified ``inner_k``-fold CV (fewer where the outer training part's smallest class is smaller)
    on the outer training part choosing everything; grouped when the data set's samples are. A method that cannot
    run at this size gives a row with its reason (``not_applicable``)."""
    task = load(dataset, view, max_genes)
    m = _method(method)
    tr, te, inner = nested_cv(task.y, n_folds, inner_k, seed, repeat=repeat, groups=task.groups)[fold]
    try:
        return _timed(lambda: run_split(m, task.X, task.y, tr, te, inner, prep=task.prep, quick=quick,
                                        seed=fold_seed(seed, repeat, fold), groups=task.groups))
    except NotApplicable as exc:
        return _not_applicable(exc, te)


def boot_cell(dataset: str, method: str, boot: int, inner_k: int, seed: int, quick: bool,
              max_genes: int | None = None, view: str | None = None) -> dict:
    """Bootstrap sample ``boot`` of the .632+ estimate of ``method`` on ``dataset`` (``boot=-1``: the rule fitted on
    all samples and scored on them). Inner folds keep the copies of a sample together (and groups: whole groups are
    resampled when the samples are grouped)."""
    task = load(dataset, view, max_genes)
    m = _method(method)
    y = task.y
    if boot < 0:
        tr = te = np.arange(y.size)
    else:
        # every class keeps inner_k distinct members (fewer, at least 2, where the smallest class cannot spare them)
        small = smallest_class(y, task.groups)
        (tr, te), = bootstrap_splits(y, 1, seed, min_distinct=min(inner_k, max(2, small - 1)), start=boot,
                                     groups=task.groups)
    try:
        inner = grouped_inner_folds(y, tr, inner_k, seed, repeat=boot + 1, groups=task.groups)
        return _timed(lambda: run_split(m, task.X, y, tr, te, inner, prep=task.prep, quick=quick,
                                        seed=fold_seed(seed, 10_000 + boot), curve=False, groups=task.groups))
    except NotApplicable as exc:
        return _not_applicable(exc, te)


#: Per-method cache keys: :func:`genesel.experiments.run_grid` keys a cell of these functions by the code of its
#: method and of the protocol only (:mod:`genesel.leaderboard.keys`), not by the whole catalogue.
cv_cell.cache_code = boot_cell.cache_code = cell_code


def cv_cells(datasets, methods, *, n_repeats: int, n_folds: int, inner_k: int, seed: int, quick: bool,
             max_genes=None) -> list:
    """Every (data set, method, repeat, outer fold) cell; the outer folds of each data set are
    :func:`outer_folds` (``n_folds``, fewer for a small class). Listed data set by data set, then split by split
    with the methods of a split one after another, so that a process preprocesses each part of a split once for
    all of them (:data:`genesel.leaderboard.protocol.PREPARED`); each (data set, method)'s cells keep the order
    (repeat, fold)."""
    folds = {d: outer_folds(d, n_folds, max_genes) for d in datasets}
    return [dict(dataset=d, method=m, repeat=int(r), fold=int(f), n_folds=int(folds[d]), inner_k=int(inner_k),
                 seed=int(seed), quick=bool(quick), max_genes=max_genes)
            for d in datasets for r in range(int(n_repeats)) for f in range(int(folds[d])) for m in methods]


def boot_cells(datasets, methods, *, n_boot: int, inner_k: int, seed: int, quick: bool, max_genes=None,
               views=None) -> list:
    """Every (data set, method, bootstrap sample) cell, plus the all-samples fit (``boot=-1``) of each pair;
    ``views`` maps a data set to its view (default :data:`DU2006_VIEWS`). Listed sample by sample with the methods
    of a sample one after another (as :func:`cv_cells`)."""
    views = DU2006_VIEWS if views is None else views
    return [dict(dataset=d, method=m, boot=int(b), inner_k=int(inner_k), seed=int(seed), quick=bool(quick),
                 max_genes=None if views.get(d) else max_genes, view=views.get(d))
            for d in datasets for b in range(-1, int(n_boot)) for m in methods]
