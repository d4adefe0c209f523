"""Plain-Python twin of genesel.forward._svm_forward: every prefix and every left-out sample solved from scratch."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def svm_forward(Xt, y, Tt, C, tol, max_iter, do_loo):
    """Same outputs as the numba kernel (test decisions, LOO decisions); no warm starts, no shortcuts."""
    K_, n = Xt.shape
    m = Tt.shape[1]
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
            for i in range(n):
                keep = np.arange(n) != i
                a, Gs, _, _ = naive_svm.smo(K[np.ix_(keep, keep)], y[keep], C, np.zeros(n - 1), tol, max_iter)
                rs = naive_svm.rho(y[keep], C, a, Gs)
                loo_dec[k, i] = K[i, keep] @ (a * y[keep]) - rs
    return test_dec, loo_dec
