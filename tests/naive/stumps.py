"""Plain-Python twins of the numba kernels in genesel._stumps_kernels (slow, obvious, no pruning; for tests only).

They use the same formulas in the same order as the kernels, so their results agree exactly; the pruned kernels
must therefore find exactly what an exhaustive scan finds. The independent check against the definitions (σ of §5,
covers counted example by example) is in tests/test_stumps.py.
"""

from __future__ import annotations

import math

import numpy as np

MAX_BITS = 60


def restrict(vals, order, new_index):
    n, m = vals.shape
    keep = [s for s in range(m) if new_index[order[0, s]] >= 0]
    v2 = np.empty((n, len(keep)))
    o2 = np.empty((n, len(keep)), dtype=np.int64)
    for g in range(n):
        t = 0
        for s in range(m):
            j = new_index[order[g, s]]
            if j >= 0:
                v2[g, t] = vals[g, s]
                o2[g, t] = j
                t += 1
    return v2, o2


def dyadic_bits(a, b, A, B):
    if not (B > A and b > a):
        return -1, math.nan
    span = B - A
    scale = 1.0
    for k in range(1, MAX_BITS + 2):
        scale *= 2.0
        lo = math.floor((a - A) / span * scale) + 1.0
        if lo >= scale:
            continue
        t = A + span * (lo / scale)
        if a < t < b:
            return k - 1, t
    return -1, math.nan


def _distinct_active(vals, order, g, active, pos):
    """[(value, n_neg, n_pos)] over the distinct values of gene g among active examples, ascending."""
    out = []
    for s in range(vals.shape[1]):
        i = order[g, s]
        if not active[i]:
            continue
        v = vals[g, s]
        if not out or v != out[-1][0]:
            out.append([v, 0, 0])
        if pos[i]:
            out[-1][2] += 1
        else:
            out[-1][1] += 1
    return out


def cover_node(vals, order, active, pos, used, ps, etas, n_pos_total, A, B, occam):
    """Twin of genesel._stumps_kernels.cover_node (one pass per parameter pair, every candidate)."""
    n_neg = sum(1 for i in range(len(active)) if active[i] and not pos[i])
    n_pos = sum(1 for i in range(len(active)) if active[i] and pos[i])
    fneg = float(max(n_neg, 1))
    fpos = float(max(n_pos_total, 1))
    res = []
    for c in range(len(ps)):
        best = None  # (u, gain, g, d, lo, hi, q, r, bits, thr)
        for g in range(vals.shape[0]):
            if used[g]:
                continue
            groups = _distinct_active(vals, order, g, active, pos)
            cn = cp = 0
            for j, (v, kn, kp) in enumerate(groups):
                cn += kn
                cp += kp
                last = j == len(groups) - 1
                hi = B[g] if last else groups[j + 1][0]
                cands = [(cn, cp, 1)] + ([] if last else [(n_neg - cn, n_pos - cp, -1)])
                for q, r, d in cands:
                    if q + r == 0:
                        continue
                    if occam:
                        bits, thr = dyadic_bits(v, hi, A[g], B[g])
                        if bits < 0:
                            continue
                        u = q / fneg - ps[c] * r / fpos - etas[c] * bits
                    else:
                        bits, thr = 0, (v if d == 1 else hi)
                        u = q - ps[c] * r
                    gain = float(q - r)
                    if best is None or u > best[0] or (u == best[0] and gain > best[1]):
                        best = (u, gain, g, d, v, hi, q, r, bits, thr)
        res.append(best)
    return res


def compact(vals, order, g, pi, pos):
    """[(value, negative weight, positive weight)] of gene g over examples with pi > 0 (distinct values)."""
    out = []
    for s in range(vals.shape[1]):
        i = order[g, s]
        w = pi[i]
        if w <= 0.0:
            continue
        v = vals[g, s]
        if not out or v != out[-1][0]:
            out.append([v, 0.0, 0.0])
        if pos[i]:
            out[-1][2] += w
        else:
            out[-1][1] += w
    return out


def _prefix(groups, Ag, col):
    W = [0.0]
    WX = [0.0]
    for grp in groups:
        x = grp[0] - Ag
        W.append(W[-1] + grp[col])
        WX.append(WX[-1] + grp[col] * x)
    return W, WX


def soft_cover(W, WX, J, i, k, xa, xb, d):
    w = xb - xa
    if i <= k:
        s0 = W[k + 1] - W[i]
        s1 = WX[k + 1] - WX[i]
    else:
        s0 = 0.0
        s1 = 0.0
    if d == 1:
        return W[i] + (xb * s0 - s1) / w
    return (W[J] - W[k + 1]) + (s1 - xa * s0) / w


def soft_cover_close(groups, col, W, J, i, k, d):
    """Twin of genesel._stumps_kernels._soft_cover_close: term by term from the unshifted values."""
    span = groups[k][0] - groups[i][0]
    s = 0.0
    for j in range(i, k + 1):
        x = groups[j][0]
        s += groups[j][col] * ((groups[k][0] - x) if d == 1 else (x - groups[i][0])) / span
    return (W[i] if d == 1 else W[J] - W[k + 1]) + s


CLOSE_ENDS = 1e-8


def _grid(U):
    """U on the kernel's grid of 2^-32 (ties up to rounding)."""
    return math.floor(U * 2.0**32 + 0.5) if math.isfinite(U) else U


def _better(U, key, best):
    """Larger utility on the grid of 2^-32; ties: the smaller key (gene, -direction, a, b)."""
    if best is None:
        return True
    if _grid(U) != _grid(best[0]):
        return _grid(U) > _grid(best[0])
    return key < best[1]


def soft_node(vals, order, pi, pos, used, ps, etas, pidx, n_pos_total, A, B, width_frac):
    """Twin of genesel._stumps_kernels.soft_node: every gene, every interval, every pair (no pruning)."""
    n_neg_amt = sum(pi[i] for i in range(len(pi)) if not pos[i])
    fneg = n_neg_amt if n_neg_amt > 0 else 1.0
    fpos = float(max(n_pos_total, 1))
    fixed = width_frac > 0.0
    best = [None] * len(etas)  # (U, key, g, d, a, b)
    for g in range(vals.shape[0]):
        if used[g] or not (B[g] > A[g]):
            continue
        groups = compact(vals, order, g, pi, pos)
        J = len(groups)
        if J < 1 or (J < 2 and not fixed):
            continue
        u = [q[0] for q in groups]
        Ag = A[g]
        R = B[g] - Ag
        logR = math.log(R)
        Wn, WnX = _prefix(groups, Ag, 1)
        Wp, WpX = _prefix(groups, Ag, 2)
        for d in (1, -1):
            cands = []
            if not fixed:
                for i in range(J - 1):
                    for k in range(i + 1, J):
                        xa, xb = u[i] - Ag, u[k] - Ag
                        close = u[k] - u[i] <= CLOSE_ENDS * R
                        L = logR - math.log(u[k] - u[i] if close else xb - xa)
                        cands.append((u[i], u[k], i, k, xa, xb, L, close))
            else:
                w = 2.0 * width_frac * R
                L = -math.log(2.0 * width_frac)
                for j in range(J):
                    for a, b in ((u[j] - w, u[j]), (u[j], u[j] + w)):
                        if a < Ag or b > B[g]:
                            continue
                        i = int(np.searchsorted(np.asarray(u), a, side="left"))
                        k = int(np.searchsorted(np.asarray(u), b, side="right")) - 1
                        cands.append((a, b, i, k, a - Ag, b - Ag, L, False))
            for a, b, i, k, xa, xb, L, close in cands:
                if close:
                    cov = soft_cover_close(groups, 1, Wn, J, i, k, d) / fneg
                    err = soft_cover_close(groups, 2, Wp, J, i, k, d) / fpos
                else:
                    cov = soft_cover(Wn, WnX, J, i, k, xa, xb, d) / fneg
                    err = soft_cover(Wp, WpX, J, i, k, xa, xb, d) / fpos
                for c in range(len(etas)):
                    U = cov - ps[pidx[c]] * err - etas[c] * L
                    key = (g, -d, a, b)
                    if _better(U, key, best[c]):
                        best[c] = (U, key, g, d, a, b)
    return best


def soft_utility(u, wn, wp, a, b, d, p, fneg, fpos):
    """C/N - p E/|P| of the soft stump [a, b] from each value's coverage (1 below a, linear inside, 0 above b, for
    d = +1; mirrored for d = -1): the definition, not the prefix sums of the kernel."""
    cov = np.clip((b - u) / (b - a), 0.0, 1.0)
    cov = cov if d == 1 else 1.0 - cov
    return np.sum(wn * cov) / fneg - p * np.sum(wp * cov) / fpos


def width_means(u, wn, wp, fneg, fpos, p, d, n_classes, n_grid=400):
    """Twin of genesel._stumps_kernels._width_means for one p and direction: H* (the best hard stump, as a soft one
    of negligible width at each gap's midpoint) and, for w_k = span / 2^(k+1), the best soft utility of a window of
    width w_k over a dense grid of positions plus every position where a window end meets a value."""
    hs = [soft_utility(u, wn, wp, th, th + 1e-9, d, p, fneg, fpos) for th in (u[:-1] + u[1:]) / 2]
    out = [max(hs)]
    span = u[-1] - u[0]
    for k in range(n_classes):
        w = span / 2.0 ** (k + 1)
        grid = np.concatenate([np.linspace(u[0], u[-1] - w, n_grid), u[u <= u[-1] - w], (u - w)[u - w >= u[0]]])
        out.append(max(soft_utility(u, wn, wp, a, a + w, d, p, fneg, fpos) for a in grid))
    return out


def margin_utilities(u, wn, wp, fneg, fpos, p, eta, R):
    """The soft utility with its margin term of every interval [u_i, u_k] of a gene, both directions."""
    J = len(u)
    return [soft_utility(u, wn, wp, u[i], u[k], d, p, fneg, fpos) - eta * np.log(R / (u[k] - u[i]))
            for i in range(J) for k in range(i + 1, J) for d in (1, -1)]


def gini_round(vals, order, valid, w, pos, skip):
    """Twin of genesel._stumps_kernels.gini_scan without its pruning: (gene, position, G)."""
    n, m = vals.shape
    W = float(sum(w))
    Wp = float(sum(w[i] for i in range(m) if pos[i]))
    W = 0.0
    Wp = 0.0
    for i in range(m):
        W += w[i]
        if pos[i]:
            Wp += w[i]
    Wn = W - Wp
    best, bg, bs = math.inf, -1, -1
    for g in range(n):
        if skip[g]:
            continue
        lp = ln = 0.0
        gbest, gs = math.inf, -1
        for s in range(m - 1):
            i = order[g, s]
            if pos[i]:
                lp += w[i]
            else:
                ln += w[i]
            if not valid[g, s]:
                continue
            wl = lp + ln
            wr = W - wl
            if not (wl > 0.0 and wr > 0.0):
                continue
            rp, rn = Wp - lp, Wn - ln
            G = lp * ln / wl + rp * rn / wr
            if G < gbest:
                gbest, gs = G, s
        if gs >= 0 and gbest < best:
            best, bg, bs = gbest, g, gs
    return bg, bs, best
