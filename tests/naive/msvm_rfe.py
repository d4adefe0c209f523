"""Plain-Python twin of genesel.msvm_rfe._msvm_path: every SVM of every step solved from scratch, Eq. 5.2-5.3 in
numpy (Tan 2006, Figure 5.1)."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def criterion(W):
    V = (W / np.linalg.norm(W, axis=1, keepdims=True)) ** 2
    mean, sd = V.mean(0), V.std(0, ddof=1)
    return np.where(sd > 0, mean / np.where(sd > 0, sd, 1), np.where(mean > 0, np.inf, 0.0))


def msvm_path(X, y, masks, C, tol, max_iter, n_remove=None):
    """Elimination order of MSVM-RFE (genes as columns of X): one gene per step, or ``n_remove[s]`` genes at step s
    (the lowest criteria, ties by the lower gene index)."""
    surv = list(range(X.shape[1]))
    elim = []
    if n_remove is not None:
        for k in n_remove:
            c = criterion(_weights(X, y, masks, C, tol, max_iter, surv))
            out = sorted(np.lexsort((surv, c))[:k].tolist())
            elim.extend(surv[i] for i in np.lexsort((surv, c))[:k])
            surv = [g for i, g in enumerate(surv) if i not in out]
        return elim, surv
    while len(surv) > 1:
        W = []
        for mask in masks:
            A = X[np.ix_(mask, surv)]
            alpha, _, _, _ = naive_svm.smo(A @ A.T, y[mask], C, np.zeros(mask.sum()), tol, max_iter)
            W.append(A.T @ (alpha * y[mask]))
        c = criterion(np.array(W))
        e = int(np.argmin(c))
        elim.append(surv.pop(e))
    return elim, surv


def _weights(X, y, masks, C, tol, max_iter, surv):
    W = []
    for mask in masks:
        A = X[np.ix_(mask, surv)]
        alpha, _, _, _ = naive_svm.smo(A @ A.T, y[mask], C, np.zeros(mask.sum()), tol, max_iter)
        W.append(A.T @ (alpha * y[mask]))
    return np.array(W)
