"""Plain-Python twins of genesel._stumps_kernels.gini_scan_multi and adaboost_rounds_multi: multi-class discrete
AdaBoost (SAMME, Zhu, Zou, Rosset & Hastie 2009, Algorithm 2) with K-class depth-1 Gini trees, written from the
algorithm's text, one gene and one split at a time (no vectorisation, no position-major layout)."""

import math

import numpy as np


def gini_round_multi(vals, order, valid, w, y, K, skip):
    """The best split over every gene (vals/order: the presort, genes x samples; valid[g, s]: a split between
    positions s and s+1 is allowed): maximal sum_c l_c^2/w_l + sum_c r_c^2/w_r; ties to the first gene, then the
    first position. Returns (gene, position, value)."""
    n, m = vals.shape
    Wc = [0.0] * K
    W = 0.0
    for i in range(m):
        Wc[y[i]] += w[i]
        W += w[i]
    best, bg, bs = -math.inf, -1, -1
    for g in range(n):
        if skip[g]:
            continue
        L = [0.0] * K
        wl = 0.0
        gbest, gs = -math.inf, -1
        for s in range(m - 1):
            i = order[g, s]
            L[y[i]] += w[i]
            wl += w[i]
            if not valid[g, s]:
                continue
            wr = W - wl
            if not (wl > 0.0 and wr > 0.0):
                continue
            sql = 0.0
            sqr = 0.0
            for c in range(K):
                sql += L[c] * L[c]
                sqr += (Wc[c] - L[c]) * (Wc[c] - L[c])
            crit = sql / wl + sqr / wr
            if crit > gbest:
                gbest, gs = crit, s
        if gs >= 0 and gbest > best:
            best, bg, bs = gbest, g, gs
    return bg, bs, best


def samme(X, y, K, n_rounds, tol=1e-7):
    """SAMME with stumps on (X, y), y in 0..K-1: returns a list of rounds (gene, threshold, left class, right class,
    alpha, error). Weights start at 1/m, are floored at the machine epsilon each round (as scikit-learn), a round's
    alpha is log((1-e)/e) + log(K-1); stops after e = 0 (alpha 1) or before e >= 1 - 1/K."""
    X = np.asarray(X, dtype=float)
    m = X.shape[0]
    order = np.argsort(X.T, axis=1, kind="stable")
    vals = np.take_along_axis(X.T, order, axis=1)
    valid = vals[:, 1:] > vals[:, :-1] + tol
    skip = ~valid.any(axis=1)
    w = np.full(m, 1.0 / m)
    out = []
    for t in range(n_rounds):
        w = np.maximum(w, np.finfo(float).eps)
        g, s, _ = gini_round_multi(vals, order, valid, w, y, K, skip)
        if g >= 0:
            lo, hi = vals[g, s], vals[g, s + 1]
            thr = lo / 2.0 + hi / 2.0
            if thr == hi or not math.isfinite(thr):
                thr = lo
            left_side = X[:, g] <= thr
        else:
            thr = math.inf
            left_side = np.ones(m, dtype=bool)
        Lc = [sum(w[i] for i in range(m) if left_side[i] and y[i] == c) for c in range(K)]
        Rc = [sum(w[i] for i in range(m) if not left_side[i] and y[i] == c) for c in range(K)] if g >= 0 else Lc
        left = int(np.argmax(Lc))
        right = int(np.argmax(Rc))
        h = np.where(left_side, left, right)
        miss = (h != y).astype(float)
        err = float(np.sum(w * miss) / np.sum(w))
        if err <= 0.0:
            out.append((g, thr, left, right, 1.0, 0.0))
            break
        if err >= 1.0 - 1.0 / K:
            break
        alpha = math.log((1.0 - err) / err) + math.log(K - 1.0)
        out.append((g, thr, left, right, alpha, err))
        if t < n_rounds - 1:
            w = np.exp(np.log(w) + alpha * miss)
            w = w / w.sum()
    return out
