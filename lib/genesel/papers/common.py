"""What the grid cells of every paper share: the one cached loader of a paper's data, and the count of one-class
fits.

Cell modules import this module, so it imports nothing of the presentation (no :mod:`genesel.plotting`, no
matplotlib; the notebooks' helpers are in :mod:`genesel.papers.presentation`): its code is part of every cell's cache
key.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

from genesel import DegenerateModelWarning
from genesel.dataref import cached_by_content
from genesel.datasets import Dataset, load_dataset, recommended_preprocessing
from genesel.preprocessing import LogTransform

__all__ = ["VARIANCE_SCALES", "load_task", "one_class_fits", "paper_preprocessing", "is_user_file"]

#: The scales on which :func:`load_task` can rank genes by variance (quick mode's gene filter; see there).
VARIANCE_SCALES = ("recommended", "log_floor_p5")


def _variance_view(ds: Dataset, X: np.ndarray, scale: str) -> np.ndarray:
    if scale == "recommended":  # the data set's decided scale (log, or log2 CPM for counts)
        return recommended_preprocessing(ds, standardize=False).fit_transform(X)
    if scale == "log_floor_p5":
        return LogTransform(floor=max(1.0, float(np.percentile(X, 5)))).fit_transform(X)
    raise ValueError(f"variance_scale must be one of {VARIANCE_SCALES}, got {scale!r}")


@cached_by_content(maxsize=16)
def load_task(dataset: str, max_genes: int | None = None, *, variance_scale: str = "recommended") -> Dataset:
    """The data set as every paper module loads it, once per process (for each content of a user's file:
    :func:`genesel.dataref.cached_by_content`): :func:`genesel.datasets.load_dataset`
    (``y`` in -1/+1, the predefined split where there is one), optionally restricted to ``max_genes`` genes.

    ``max_genes`` keeps the genes of largest variance over all samples (unsupervised; only quick modes use it, to
    be quick), in their original column order. The variance is taken on a scale chosen by ``variance_scale``, which
    changes which genes a quick run keeps (never a full run, which keeps them all):

    - ``"recommended"``: after the data set's :func:`genesel.datasets.recommended_preprocessing` without its
      standardisation (the log of floored intensities for raw Affymetrix sets, the values as published for sets
      already on a log or standardised scale). Tan 2006 ch. 3 (notebook 05a).
    - ``"log_floor_p5"``: the log of the values floored at the larger of 1 and the 5th percentile of the whole
      matrix, for every data set alike. Tan 2006 ch. 4-5 (notebooks 05b, 05c).

    The returned :class:`~genesel.datasets.Dataset` is shared by every caller in the process: its arrays are
    read-only.
    """
    if variance_scale not in VARIANCE_SCALES:
        raise ValueError(f"variance_scale must be one of {VARIANCE_SCALES}, got {variance_scale!r}")
    ds = load_dataset(dataset)
    if max_genes is None or max_genes >= ds.n_genes:
        return ds
    if int(max_genes) < 1:
        raise ValueError(f"max_genes must be a positive number of genes (or None for all), got {max_genes!r}")
    keep = np.sort(np.argsort(-_variance_view(ds, ds.X, variance_scale).var(axis=0), kind="stable")[:max_genes])
    # X[:, keep] is a Fortran-ordered copy (numpy's fancy indexing along axis 1); downstream BLAS products, and so
    # the last digits of capped optimisations (the GP-ARD fits of Tan ch. 4), depend on the memory order: keep it
    X, genes = ds.X[:, keep], np.asarray(ds.gene_ids)[keep]
    for arr in (X, genes):
        arr.setflags(write=False)
    return replace(ds, X=X, gene_ids=genes)


def is_user_file(dataset) -> bool:
    """Whether ``dataset`` names a researcher's file (a path, a DataRef or its string), not a registered set."""
    from genesel.dataref import is_file_reference

    return is_file_reference(dataset)


def paper_preprocessing(dataset, own):
    """The preprocessing a paper's protocol fits inside each training part: the paper's own (``own``, an unfitted
    transformer such as Tan 2006's per-gene z-scores) on a registered set; on a researcher's file, the file's one
    decision first (:func:`genesel.datasets.recommended_preprocessing` without its standardisation: raw intensities
    logged by LogTransform's rule, counts normalised by library size and logged, missing values imputed), then the
    paper's own, so that a file is treated the same in every route (:func:`genesel.datasets.preprocessing_note`
    says how)."""
    if not is_user_file(dataset):
        return own
    from sklearn.pipeline import Pipeline

    scale = recommended_preprocessing(load_dataset(dataset), standardize=False)
    return Pipeline([("scale", scale), ("paper", own)])


@contextmanager
def one_class_fits():
    """Count the fits inside the block that warn they ended as a one-class model (``DegenerateModelWarning``)
    instead of letting each warning reach the notebook's stderr; every other warning is re-issued unchanged.
    Yields a one-element list whose item is the count once the block ends. For protocols where such fits are
    expected and scored for what they predict (e.g. losing candidates of an inner grid search)."""
    count = [0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateModelWarning)
        try:
            yield count
        finally:
            count[0] = sum(issubclass(w.category, DegenerateModelWarning) for w in caught)
    for w in caught:
        if not issubclass(w.category, DegenerateModelWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
