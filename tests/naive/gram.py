"""Plain-Python (numpy) twins of genesel._core.gram's elimination kernels."""

from __future__ import annotations



def gram_rows(Xt, rows):
    X = Xt[rows].T
    return X @ X.T


def add_gram_rows(K, Xt, rows, sign):
    XR = Xt[rows].T
    return K + sign * (XR @ XR.T)
