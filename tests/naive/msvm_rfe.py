"""Plain-Python twin of genesel.msvm_rfe._msvm_path: every SVM of every step solved from scratch, Eq. 5.2-5.3 in
numpy (Tan 2006, Figure 5.1); with (M, n) labels, M one-vs-rest machines per resampling and Eq. 5.2 applied to
the resampling's summed squared weights (genesel.msvm_rfe.MSVMRFE's multi-class form)."""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def criterion(W):
    """W: (t, genes), or (t, M, genes) for M machines per resampling."""
    if W.ndim == 3:
        S = (W**2).sum(axis=1)
        V = S / S.sum(axis=1, keepdims=True)
    else:
        V = (W / np.linalg.norm(W, axis=1, keepdims=True)) ** 2
    mean, sd = V.mean(0), V.std(0, ddof=1)
    return np.where(sd > 0, mean / np.where(sd > 0, sd, 1), np.where(mean > 0, np.inf, 0.0))


def msvm_path(X, y, masks, C, tol, max_iter, n_remove=None):
    """Elimination order of MSVM-RFE (genes as columns of X): one gene per step, or ``n_remove[s]`` genes at step s
    (the lowest criteria, ties by the lower gene index). ``y``: (n,) binary labels or (M, n) machine labels."""
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
        c = criterion(_weights(X, y, masks, C, tol, max_iter, surv))
        e = int(np.argmin(c))
        elim.append(surv.pop(e))
    return elim, surv


def _weights(X, y, masks, C, tol, max_iter, surv):
    y = np.asarray(y, dtype=float)
    Y = y[None, :] if y.ndim == 1 else y
    W = []
    for mask in masks:
        A = X[np.ix_(mask, surv)]
        Wr = []
        for yk in Y:
            alpha, _, _, _ = naive_svm.smo(A @ A.T, yk[mask], C, np.zeros(mask.sum()), tol, max_iter)
            Wr.append(A.T @ (alpha * yk[mask]))
        W.append(Wr[0] if y.ndim == 1 else Wr)
    return np.array(W)
