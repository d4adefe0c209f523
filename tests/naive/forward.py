"""Plain-Python twin of genesel.forward._svm_forward: every prefix and every left-out unit (a sample, or a group of
samples) solved from scratch."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def svm_forward(Xt, y, Tt, C, tol, max_iter, do_loo, unit_start=None, unit_members=None):
    """Same outputs as the numba kernel (test decisions, LOO decisions); no warm starts, no shortcuts. The units
    left out (CSR, as in the kernel) default to one per sample (leave-one-out)."""
    K_, n = Xt.shape
    m = Tt.shape[1]
    if unit_start is None:
        unit_start, unit_members = np.arange(n + 1), np.arange(n)
    test_dec = np.zeros((K_, m))
    loo_dec = np.zeros((K_, n))
    for k in range(K_):
        A = Xt[: k + 1].T  # n x (k+1)
        K = A @ A.T
        alpha, G, _, _ = naive_svm.smo(K, y, C, np.zeros(n), tol, max_iter)
        r = naive_svm.rho(y, C, alpha, G)
        if m:
            test_dec[k] = (Tt[: k + 1].T @ A.T) @ (alpha * y) - r
        if do_loo:
            for u in range(len(unit_start) - 1):
                out = np.asarray(unit_members[unit_start[u] : unit_start[u + 1]])
                keep = ~np.isin(np.arange(n), out)
                a, Gs, _, _ = naive_svm.smo(K[np.ix_(keep, keep)], y[keep], C, np.zeros(keep.sum()), tol, max_iter)
                rs = naive_svm.rho(y[keep], C, a, Gs)
                loo_dec[k, out] = K[np.ix_(out, keep)] @ (a * y[keep]) - rs
    return test_dec, loo_dec


def snap_residues(K, y, C, a, G):
    """Twin of genesel.forward._snap_residues on lists: (a, G) with every multiplier closer to a bound than 1e-12
    of the largest one put on that bound, and G moved with it."""
    a, G = list(a), list(G)
    eps = 1e-12 * max([0.0] + a)
    for p in range(len(a)):
        if 0.0 < a[p] < C and (a[p] < eps or C - a[p] < eps):
            to = 0.0 if a[p] < eps else C
            step, a[p] = to - a[p], to
            G = [G[q] + y[q] * y[p] * K[q][p] * step for q in range(len(a))]
    return a, G
