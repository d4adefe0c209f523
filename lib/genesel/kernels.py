"""Kernel (Gram) matrices between samples, shared by the kernel classifiers of Tan 2006 (DWD, RVM, SMLR).

``gram(X, Z, kernel, gamma, degree, coef0)`` follows the conventions of
``sklearn.metrics.pairwise.pairwise_kernels``: linear x·z, polynomial (γ x·z + c₀)^degree, RBF exp(−γ‖x − z‖²),
with γ = 1/n_genes when ``gamma`` is None; ``"precomputed"`` returns ``X`` itself.
"""

from __future__ import annotations

from sklearn.metrics.pairwise import pairwise_kernels

__all__ = ["gram"]


def gram(X, Z, kernel: str = "linear", *, gamma=None, degree: int = 3, coef0: float = 1.0):
    if kernel == "linear":
        return X @ Z.T
    if kernel == "precomputed":
        return X
    params = {"gamma": gamma}
    if kernel == "poly":
        params.update(degree=degree, coef0=coef0)
    return pairwise_kernels(X, Z, metric=kernel, **params)
