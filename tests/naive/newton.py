"""Plain-Python twins of genesel._core.newton: the Cholesky downdate by refactoring with numpy, and the
Newton/SMO alternation built from the twins in naive/svm.py."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def chol_downdate(L, v):
    """Cholesky factor of L L^T - v v^T by refactoring (None if it is not positive definite)."""
    A = L @ L.T - np.outer(v, v)
    try:
        return np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return None


def newton_smo(K, y, C, alpha, tol, max_iter, chunk):
    """Newton step on the free set, then up to ``chunk`` SMO iterations, until the gap is below tol.

    Returns (alpha, n_iter, gap)."""
    alpha = np.array(alpha, dtype=float)
    total = 0
    while True:
        alpha, _ = naive_svm.newton_step(K, y, C, alpha, naive_svm.gradient(K, y, alpha))
        budget = min(chunk, max_iter - total)
        alpha, _, it, gap = naive_svm.smo(K, y, C, alpha, tol, budget)
        total += it
        if gap < tol or total >= max_iter or it < budget:
            return alpha, total, gap
