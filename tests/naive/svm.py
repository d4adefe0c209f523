"""Plain-Python twins of the numba kernels in genesel._core.smo and genesel.rfe (slow, obvious, for tests only)."""

from __future__ import annotations

import numpy as np

from naive.gram import gram_rows

TAU = 1e-12


def gradient(K, y, alpha):
    """G = Q a - e, Q = diag(y) K diag(y)."""
    Q = np.outer(y, y) * K
    return Q @ alpha - 1.0


def separation_refuted(K, y, alpha, floor=1e-6):
    """Hard margin: ||w(a)|| / sum(a) bounds every separating hyperplane's margin (Cauchy-Schwarz on
    sum_i a_i y_i (w*.x_i + b*) >= sum_i a_i); below ``floor`` times the largest distance of a sample from the
    samples' mean, no hyperplane separates by more (written from the bound, with K centred as a matrix)."""
    n = K.shape[0]
    J = np.eye(n) - 1.0 / n
    spread = np.sqrt(np.max(np.diag(J @ K @ J)))
    c = alpha * y
    return alpha.sum() > 0 and np.sqrt(max(c @ K @ c, 0.0)) < floor * spread * alpha.sum()


def smo(K, y, C, alpha, tol, max_iter):
    """SMO with WSS2 (Fan, Chen & Lin 2005, Algorithm 1 + WSS 2), written from the paper with numpy masks.

    Returns (alpha, G, n_iter, gap); ``alpha`` is a new array.
    """
    alpha = np.array(alpha, dtype=float)
    y = np.asarray(y, dtype=float)
    G = gradient(K, y, alpha)
    n_iter = 0
    while True:
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
        mvals = -y * G
        m = mvals[up].max() if up.any() else -np.inf
        M = mvals[low].min() if low.any() else np.inf
        gap = m - M
        if not up.any() or not low.any() or gap < tol or n_iter >= max_iter:
            return alpha, G, n_iter, gap
        if np.isinf(C) and n_iter > 0 and n_iter % 256 == 0 and separation_refuted(K, y, alpha):
            return alpha, G, n_iter, np.inf
        # i: the last index attaining the maximum (numba kernel scans with >=)
        i = np.flatnonzero(up & (mvals == m))[-1]
        best, j = np.inf, -1
        for t in np.flatnonzero(low):
            b = m - mvals[t]
            if b > 0:
                a = K[i, i] + K[t, t] - 2 * K[i, t]
                a = a if a > 0 else TAU
                if -b * b / a <= best:
                    best, j = -b * b / a, t
        if j < 0:
            return alpha, G, n_iter, gap
        n_iter += 1
        a = K[i, i] + K[j, j] - 2 * K[i, j]
        a = a if a > 0 else TAU
        s = (mvals[i] - mvals[j]) / a
        room_i = C - alpha[i] if y[i] > 0 else alpha[i]
        room_j = alpha[j] if y[j] > 0 else C - alpha[j]
        s = min(s, room_i, room_j)
        old_i, old_j = alpha[i], alpha[j]
        alpha[i] = old_i + y[i] * s
        alpha[j] = old_j - y[j] * s
        if s == room_i:
            alpha[i] = C if y[i] > 0 else 0.0
        if s == room_j:
            alpha[j] = 0.0 if y[j] > 0 else C
        G = gradient(K, y, alpha)  # recomputed from scratch (the kernel updates it incrementally)


def rho(y, C, alpha, G):
    """LIBSVM threshold: mean of y_t G_t over free vectors, else midpoint of [max lower, min upper]."""
    yg = y * G
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return yg[free].mean()
    at_c = alpha >= C
    at_0 = alpha <= 0
    ub = np.min(np.concatenate([yg[at_c & (y < 0)], yg[at_0 & (y > 0)], [np.inf]]))
    lb = np.max(np.concatenate([yg[at_c & (y > 0)], yg[at_0 & (y < 0)], [-np.inf]]))
    return 0.5 * (ub + lb)


def weights(Xt, c, rows):
    return Xt[rows] @ c


def rfe_path(Xt, y, C, tol, max_iter, n_remove):
    """Textbook SVM-RFE: at every stage recompute K from the survivors and solve the dual from scratch.

    ``y``: binary labels (n,), or (M, n) label rows of M machines (one-vs-rest: the criterion is sum_k w_k^2).
    Returns (eliminated, final_rows, final_w) as the numba ``_rfe_path`` does (final_w (n_final, M) for 2-d y).
    """
    y = np.asarray(y, dtype=float)
    Y = y[None, :] if y.ndim == 1 else y
    d, n = Xt.shape
    rows = np.arange(d)
    eliminated = []
    for k in list(n_remove) + [None]:
        K = gram_rows(Xt, rows)
        W = []
        for yk in Y:
            alpha, G, _, _ = smo(K, yk, C, np.zeros(n), tol, max_iter)
            W.append(weights(Xt, alpha * yk, rows))
        W = np.array(W).T  # survivors x machines
        if k is None:
            return np.array(eliminated, dtype=np.int64), rows.copy(), (W[:, 0] if y.ndim == 1 else W)
        order = np.argsort((W**2).sum(axis=1), kind="stable")[:k]
        eliminated.extend(rows[order].tolist())
        keep = np.ones(rows.size, bool)
        keep[order] = False
        rows = rows[keep]


def newton_step(K, y, C, alpha, G):
    """Bordered KKT system on the free set solved with numpy; step clipped to the box; taken if it descends.

    Returns (alpha_new, taken).
    """
    alpha = np.array(alpha, dtype=float)
    free = (alpha > 0) & (alpha < C)
    F = np.flatnonzero(free)
    B = np.flatnonzero(~free)
    if F.size == 0:
        return alpha, False
    Q = np.outer(y, y) * K
    M = np.zeros((F.size + 1, F.size + 1))
    M[:-1, :-1] = Q[np.ix_(F, F)]
    M[:-1, -1] = y[F]
    M[-1, :-1] = y[F]
    rhs = np.r_[1.0 - Q[np.ix_(F, B)] @ alpha[B], -y[B] @ alpha[B]]
    if np.linalg.eigvalsh(M[:-1, :-1]).min() <= 1e-10 * np.diag(M[:-1, :-1]).max():
        return alpha, False
    sol = np.linalg.solve(M, rhs)
    d = sol[:-1] - alpha[F]
    with np.errstate(divide="ignore", invalid="ignore"):
        lims = np.where(d < 0, alpha[F] / -d, np.where(d > 0, (C - alpha[F]) / d, np.inf))
    t = min(1.0, lims.min())
    dq = t * G[F] @ d + 0.5 * t * t * d @ Q[np.ix_(F, F)] @ d
    if not (t > 0 and dq < 0):
        return alpha, False
    alpha[F] = np.clip(alpha[F] + t * d, 0.0, C)
    return alpha, True
