"""The one Gram-matrix function of genesel: k(a, b) for all pairs of rows.

``gram(A, B, kernel, gamma=, degree=, coef0=)`` follows scikit-learn's conventions (``sklearn.svm.SVC`` and
``sklearn.metrics.pairwise.pairwise_kernels``): linear ``a.b``, polynomial ``(gamma a.b + coef0)^degree``, RBF
``exp(-gamma |a - b|^2)``; ``gamma=None`` means ``1 / n_features``; ``coef0`` defaults to 0 as in ``SVC``;
``"precomputed"`` returns ``A`` itself. ``B=None`` (or ``B is A``) is the symmetric case.

Two engines, chosen by what the caller's numbers were built on:

* ``blas=False`` (default): the inner products by a small numba loop (:func:`linear_gram`), no BLAS. On the
  n x n Gram matrices of a few dozen samples OpenBLAS threads cost more than they save, and they stall badly on a
  loaded machine; the SVM solvers (:mod:`genesel.svm`, :mod:`genesel.rfe`) use this engine.
* ``blas=True``: one BLAS product (``A @ B.T``) for the linear kernel and ``pairwise_kernels`` for the others;
  the Bayesian kernel classifiers of Tan 2006 (:mod:`genesel.dwd`, :mod:`genesel.rvm`, :mod:`genesel.smlr`),
  which also run on thousands of samples (MNIST pairs), use it.

The two engines agree to rounding (tested); they are not bit-identical, so each estimator keeps its engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from genesel._core.validation import kernel_array

__all__ = ["gram", "gram_rows", "add_gram_rows", "linear_gram", "KERNELS"]

KERNELS = ("linear", "poly", "rbf", "precomputed")


@njit(cache=True)
def _dot_matrix(A, B, symmetric):
    """A B^T for row-major A (m x d) and B (p x d) without BLAS.

    ``symmetric``: A is B, compute the upper triangle only."""
    m, d = A.shape
    p = B.shape[0]
    out = np.empty((m, p))
    for i in range(m):
        j0 = i if symmetric else 0
        for j in range(j0, p):
            acc = 0.0
            for k in range(d):
                acc += A[i, k] * B[j, k]
            out[i, j] = acc
            if symmetric:
                out[j, i] = acc
    return out


def linear_gram(A, B=None):
    """``A @ B.T`` (``A @ A.T`` when ``B`` is None) by the BLAS-free numba loop."""
    A = kernel_array(A)
    if B is None or B is A:
        return _dot_matrix(A, A, True)
    return _dot_matrix(A, kernel_array(B), False)


def gram(A, B=None, kernel: str = "linear", *, gamma=None, degree: int = 3, coef0: float = 0.0, blas: bool = False):
    """Kernel matrix between the rows of ``A`` and of ``B`` (``B=None``: of ``A`` with itself); see the module doc."""
    if kernel == "precomputed":
        return A
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
    sym = B is None or B is A
    if gamma is None:
        gamma = 1.0 / np.shape(A)[1]
    if blas:
        from sklearn.metrics.pairwise import pairwise_kernels

        Z = A if sym else B
        if kernel == "linear":
            return A @ Z.T
        params = {"gamma": gamma}
        if kernel == "poly":
            params.update(degree=degree, coef0=coef0)
        return pairwise_kernels(A, Z, metric=kernel, **params)
    AB = linear_gram(A) if sym else linear_gram(A, B)
    if kernel == "linear":
        return AB
    if kernel == "poly":
        return (gamma * AB + coef0) ** degree
    Z = A if sym else B
    sq = (A * A).sum(1)[:, None] + (Z * Z).sum(1)[None, :] - 2.0 * AB
    np.maximum(sq, 0.0, out=sq)
    return np.exp(-gamma * sq)


@njit(cache=True, inline="always")  # inlined: callers keep the speed of their own loop
def add_gram_rows(K, Xt, rows, sign):
    """K <- K + sign * sum_{g in rows} x_g x_g^T in place, for Xt (genes x samples) and ``sign`` +1.0 or -1.0:
    the linear Gram matrix of the samples on the genes ``rows``, added or (``sign=-1.0``) taken away gene by gene
    (skipping zeros), as recursive elimination needs it: SVM-RFE's downdate K <- K - X_R X_R^T after removing the
    genes R (Guyon et al. 2002, section 3.4). Only the upper triangle is accumulated, then mirrored. Plain-Python
    twin: ``tests/naive/gram.py::add_gram_rows``."""
    n = Xt.shape[1]
    subtract = sign < 0.0  # two inner loops, so that each is the plain update (no multiplication by the sign)
    for r in range(rows.shape[0]):
        g = rows[r]
        for i in range(n):
            xi = Xt[g, i]
            if xi != 0.0:
                if subtract:
                    for j in range(i, n):
                        K[i, j] -= xi * Xt[g, j]
                else:
                    for j in range(i, n):
                        K[i, j] += xi * Xt[g, j]
    for i in range(n):
        for j in range(i):
            K[i, j] = K[j, i]


@njit(cache=True)
def gram_rows(Xt, rows):
    """K = sum_{g in rows} x_g x_g^T for Xt (genes x samples): the linear Gram matrix of the samples on the genes
    ``rows`` (:func:`add_gram_rows` from zero), as recursive elimination (SVM-RFE, MSVM-RFE) needs it."""
    n = Xt.shape[1]
    K = np.zeros((n, n))
    add_gram_rows(K, Xt, rows, 1.0)
    return K
