"""The one shape of labelled expression data every route returns: :class:`Dataset`.

Registered sets (:func:`genesel.datasets.load_dataset`) and a researcher's files
(:func:`genesel.expression_io.read_expression`) both build it; it lives in a module of its own so that neither
reader imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Dataset"]


@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled expression matrix: ``X`` is samples x genes (float64), ``y`` the class codes.

    ``classes[k]`` is the name of code -1 (k=0) and +1 (k=1) for binary tasks; for multi-class sets
    ``y`` is 0..K-1 and ``classes`` has K names. ``train_idx`` / ``test_idx`` hold the paper's predefined
    split where one exists (Golub's 38/34), else None.

    ``groups``: one group label per sample (a patient, an individual, a pair), aligned with the samples, or None:
    samples of a group belong together in every split. ``scale``: what the values are, ``"log"`` (already on a
    log or standardised scale), ``"raw-intensity"`` (unlogged intensities) or ``"counts"`` (sequencing counts),
    decided when the data are read (``extra["scale_reason"]`` says by which rule, or that it was given); it decides
    :func:`genesel.datasets.recommended_preprocessing`. ``ref``: the :class:`genesel.dataref.DataRef` it was
    loaded from (None for data passed as arrays or frames).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    classes: tuple
    gene_ids: np.ndarray
    sample_ids: np.ndarray
    description: str
    citation: str
    train_idx: np.ndarray | None = None
    test_idx: np.ndarray | None = None
    labels: np.ndarray | None = None  # the raw per-sample labels before any grouping
    extra: dict = field(default_factory=dict)
    groups: np.ndarray | None = None
    scale: str | None = None
    ref: object = None

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def n_genes(self) -> int:
        return self.X.shape[1]

    @property
    def class_counts(self) -> dict:
        if len(self.classes) == 2 and set(np.unique(self.y)) <= {-1, 1}:
            return {self.classes[0]: int(np.sum(self.y == -1)), self.classes[1]: int(np.sum(self.y == 1))}
        return {c: int(np.sum(self.y == k)) for k, c in enumerate(self.classes)}

    def subset(self, genes=None, samples=None) -> "Dataset":
        """A copy restricted to some gene columns and/or sample rows (indices or boolean masks).

        A predefined split is kept only when no samples are dropped.
        """
        gi = np.arange(self.n_genes) if genes is None else np.arange(self.n_genes)[genes]
        si = np.arange(self.n_samples) if samples is None else np.arange(self.n_samples)[samples]
        keep_split = samples is None
        return Dataset(self.name, self.X[np.ix_(si, gi)], self.y[si], self.classes, self.gene_ids[gi],
                       self.sample_ids[si], self.description, self.citation,
                       self.train_idx if keep_split else None, self.test_idx if keep_split else None,
                       None if self.labels is None else self.labels[si], dict(self.extra),
                       None if self.groups is None else self.groups[si], self.scale, self.ref)

    def __repr__(self) -> str:
        split = f", split {len(self.train_idx)}/{len(self.test_idx)}" if self.train_idx is not None else ""
        groups = f", {len(set(self.groups))} groups" if self.groups is not None else ""
        return f"Dataset({self.name!r}, {self.n_samples} x {self.n_genes}, {self.class_counts}{split}{groups})"
