"""Plain-Python twins of genesel._core.linalg: the textbook formulas, one entry at a time, or numpy's refactoring."""

from __future__ import annotations

import math

import numpy as np


def cholesky(A, min_pivot=0.0):
    """Lower factor of A by the entrywise formulas, or None if a pivot is not above ``min_pivot``."""
    k = len(A)
    L = [[0.0] * k for _ in range(k)]
    for j in range(k):
        s = A[j][j] - sum(L[j][p] ** 2 for p in range(j))
        if not s > min_pivot:
            return None
        L[j][j] = math.sqrt(s)
        for i in range(j + 1, k):
            L[i][j] = (A[i][j] - sum(L[i][p] * L[j][p] for p in range(j))) / L[j][j]
    return np.array(L)


def forward_solve(L, b):
    x = []
    for i in range(len(b)):
        x.append((b[i] - sum(L[i][p] * x[p] for p in range(i))) / L[i][i])
    return np.array(x)


def backward_solve(L, b):
    k = len(b)
    x = [0.0] * k
    for i in range(k - 1, -1, -1):
        x[i] = (b[i] - sum(L[p][i] * x[p] for p in range(i + 1, k))) / L[i][i]
    return np.array(x)


def chol_rank1(L, v, sign):
    """Factor of L L^T + sign v v^T by refactoring with numpy (None if it is not positive definite)."""
    A = L @ L.T + sign * np.outer(v, v)
    try:
        return np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return None


def row_pnorms(X, p):
    """The p-norm of each row, scaled by its largest |x| (Gentile 2003's instance norm)."""
    out = []
    for row in X:
        m = max((abs(float(a)) for a in row), default=0.0)
        out.append(0.0 if m == 0.0 else m * sum((abs(float(a)) / m) ** p for a in row) ** (1.0 / p))
    return np.array(out)
