"""Plain-Python twin of genesel._core.newton: the Newton/SMO alternation built from the twins in naive/svm.py (the
Cholesky downdate's twin is ``naive/linalg.py::chol_rank1``)."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def newton_smo(K, y, C, alpha, tol, max_iter, chunk):
    """Newton step on the free set, then up to ``chunk`` SMO iterations, until the gap is below tol.

    Returns (alpha, n_iter, gap)."""
    alpha = np.array(alpha, dtype=float)
    total = 0
    next_check = 256
    while True:
        alpha, _ = naive_svm.newton_step(K, y, C, alpha, naive_svm.gradient(K, y, alpha))
        budget = min(chunk, max_iter - total)
        alpha, _, it, gap = naive_svm.smo(K, y, C, alpha, tol, budget)
        total += it
        if gap < tol or total >= max_iter or it < budget:
            return alpha, total, gap
        if np.isinf(C) and total >= next_check:  # hard margin: the chunks are shorter than smo's test interval
            next_check = total + 256
            if naive_svm.separation_refuted(K, y, alpha):
                return alpha, total, np.inf
