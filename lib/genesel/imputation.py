"""Missing values filled once over a whole matrix, label-free: what a registered set published with missing values
gets (Alizadeh's lymphoma), and a file read with ``impute="knn"``. Inside a protocol, impute in each training part
instead (:class:`genesel.preprocessing.MissingValueImputer`).

Both readers (:mod:`genesel.datasets` for registered sets, :mod:`genesel.expression_io` for files) use it; it
imports neither.
"""

from __future__ import annotations

import numpy as np

__all__ = ["knn_impute_genes"]


def knn_impute_genes(X: np.ndarray, k: int = 10) -> np.ndarray:
    """Troyanskaya et al. 2001 KNNimpute: a missing entry of gene g is the mean, in that sample, of the k genes
    closest to g (Euclidean over the samples both observe). Label-free; scikit-learn's ``KNNImputer`` on the
    transposed matrix (genes as rows)."""
    from sklearn.impute import KNNImputer

    return KNNImputer(n_neighbors=k).fit_transform(X.T).T
