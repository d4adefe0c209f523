"""The numba kernels of :mod:`genesel.stumps` (Shah, Marchand & Corbeil, IEEE TPAMI 34(1), 2012): one greedy step of
each learner over every (gene, threshold, direction) candidate, the AdaBoost rounds, and the presort bookkeeping.

- presorting: :func:`gather_rows` (every gene's values in sorted order), :func:`restrict` (a presort restricted to
  a subset of the samples in linear time), :func:`position_major` (the samples x genes layout of the vectorised
  scans);
- sample compression (§4, Eq. 7, U = |Q| − p|R|): :func:`scm_scan`, vectorised over genes;
- Occam's razor (§3 and §6.1, U = |Q|/|N'| − p|R|/|P| − η l): :func:`cover_node` with :func:`dyadic_bits` (the
  shortest dyadic code of a threshold in an interval, Λ_l of §3);
- PAC-Bayes (§5 and §6.2, the soft greedy with σ^d_{a,b}): :func:`soft_node` (exact pruning by the per-gene bound
  of ``_soft_bounds``);
- AdaBoost with depth-1 Gini trees (the paper's baseline, Table 1; scikit-learn's SAMME): :func:`gini_scan`,
  :func:`adaboost_rounds`; for K >= 3 classes multi-class SAMME (Zhu et al. 2009): :func:`gini_scan_multi`,
  :func:`adaboost_rounds_multi`.

Every kernel works on arrays only and is deterministic (ties by gene, threshold, direction order; see
:mod:`genesel.stumps`); plain-Python twins in ``tests/naive/stumps.py``. Not public API.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["gather_rows", "restrict", "position_major", "soft_layout", "dyadic_bits", "cover_node", "scm_scan",
           "soft_node", "gini_scan", "adaboost_rounds", "gini_scan_multi", "adaboost_rounds_multi"]

_MAX_BITS = 60


@njit(cache=True)
def restrict(vals, order, new_index):
    """Keep, in every gene's sorted order, the samples i with new_index[i] >= 0, renumbered to new_index[i]
    (linear in genes x samples, no sorting; branch-free: which samples stay is in random order along a gene)."""
    n, m = vals.shape
    k = 0
    for s in range(m):
        if new_index[order[0, s]] >= 0:
            k += 1
    v2 = np.empty((n, k))
    o2 = np.empty((n, k), dtype=np.int64)
    vb = np.empty(m + 1)
    ob = np.empty(m + 1, dtype=np.int64)
    for g in range(n):
        t = 0
        for s in range(m):
            j = new_index[order[g, s]]
            vb[t] = vals[g, s]
            ob[t] = j
            t += j >= 0
        for s in range(k):
            v2[g, s] = vb[s]
            o2[g, s] = ob[s]
    return v2, o2


@njit(cache=True)
def position_major(vals, order, pos, with_idx):
    """Position-major (samples x genes) copies of a presort for the vectorised scans: lab[s, g] = 1 when the sample
    at sorted position s of gene g is positive, new[s, g] = a boundary after position s (the next value differs,
    or s is the last position), idx[s, g] = that sample. Blocked over genes so reads and writes stay in cache."""
    n, k = vals.shape
    posf = np.zeros(pos.shape[0])
    for i in range(pos.shape[0]):
        if pos[i]:
            posf[i] = 1.0
    lab = np.empty((k, n))
    new = np.empty((k, n), dtype=np.bool_)
    idx = np.empty((k if with_idx else 0, n), dtype=np.int64)
    blk = 64
    for g0 in range(0, n, blk):
        g1 = min(n, g0 + blk)
        for s in range(k):  # rows of the output in order: few pages touched at a time
            last = s == k - 1
            for g in range(g0, g1):
                i = order[g, s]
                if with_idx:
                    idx[s, g] = i
                lab[s, g] = posf[i]
                new[s, g] = last or vals[g, min(s + 1, k - 1)] != vals[g, s]
    return lab, new, idx


@njit(cache=True)
def soft_layout(vals, order):
    """The position-major layout :func:`soft_node` reads (samples x genes): idx[s, g] (int32) the sample at sorted
    position s of gene g and new[s, g] a boundary after position s, as :func:`position_major` without the labels
    (the soft greedy gathers each example's weights through idx): 5 bytes per entry instead of 17, built once per
    node of the tree of paths. Blocked over genes so reads and writes stay in cache."""
    n, k = vals.shape
    new = np.empty((k, n), dtype=np.bool_)
    idx = np.empty((k, n), dtype=np.int32)
    blk = 64
    for g0 in range(0, n, blk):
        g1 = min(n, g0 + blk)
        for s in range(k):
            last = s == k - 1
            for g in range(g0, g1):
                idx[s, g] = order[g, s]
                new[s, g] = last or vals[g, min(s + 1, k - 1)] != vals[g, s]
    return new, idx


@njit(cache=True)
def gather_rows(Xt, order):
    """vals[g, s] = Xt[g, order[g, s]]."""
    n, m = Xt.shape
    vals = np.empty((n, m))
    for g in range(n):
        for s in range(m):
            vals[g, s] = Xt[g, order[g, s]]
    return vals


@njit(cache=True)
def dyadic_bits(a, b, A, B):
    """Shortest dyadic code (bits, threshold) of a point of Λ_l strictly inside (a, b); (-1, nan) if none."""
    if not (B > A and b > a):
        return -1, np.nan
    span = B - A
    scale = 1.0
    for k in range(1, _MAX_BITS + 2):
        scale *= 2.0
        lo = np.floor((a - A) / span * scale) + 1.0
        if lo >= scale:
            continue
        t = A + span * (lo / scale)
        if t > a and t < b:
            return k - 1, t
    return -1, np.nan


@njit(cache=True)
def cover_node(vals, order, active, pos, used, ps, etas, n_pos_total, A, B, occam):
    """One greedy step of the hard set-covering machine for several parameter pairs at once (SC: occam=False,
    U = |Q| - p|R|; Occam: occam=True, U = |Q|/|N'| - p|R|/|P| - eta * bits).

    Candidates per unused gene, in canonical order: for each gap between consecutive distinct values w_j < w_{j+1}
    of the active (not yet covered) examples, d=+1 covering x <= w_j, then d=-1 covering x >= w_{j+1}; after the
    last value, d=+1 covering every active example (the gap up to B). Ties: larger |Q| - |R|, then the first.
    Returns per parameter pair: gene (-1: none), direction, lo, hi (the gap), n_neg, n_pos covered, utility,
    bits, threshold.
    """
    n, m = vals.shape
    C = ps.shape[0]
    posi = np.zeros(pos.shape[0], dtype=np.int64)
    n_neg = 0
    n_pos = 0
    for i in range(active.shape[0]):
        if pos[i]:
            posi[i] = 1
        if active[i]:
            if pos[i]:
                n_pos += 1
            else:
                n_neg += 1
    best_u = np.full(C, -np.inf)
    best_gain = np.full(C, -np.inf)
    bg = np.full(C, -1, dtype=np.int64)
    bd = np.zeros(C, dtype=np.int64)
    blo = np.full(C, np.nan)
    bhi = np.full(C, np.nan)
    bq = np.zeros(C, dtype=np.int64)
    br = np.zeros(C, dtype=np.int64)
    bbits = np.full(C, -1, dtype=np.int64)
    bthr = np.full(C, np.nan)
    fneg = float(max(n_neg, 1))
    fpos = float(max(n_pos_total, 1))
    for g in range(n):
        if used[g]:
            continue
        cn = 0
        cp = 0
        prev = 0.0
        have = False
        idx = 0
        for s in range(m + 1):
            last = s == m
            if not last:
                idx = order[g, s]
                if not active[idx]:
                    continue
                v = vals[g, s]
                boundary = have and v != prev
            else:
                v = B[g]
                boundary = have
            if boundary:
                for side in range(2):
                    if side == 0:
                        q = cn
                        r = cp
                        d = 1
                    else:
                        if last:
                            break
                        q = n_neg - cn
                        r = n_pos - cp
                        d = -1
                    if q + r == 0:
                        continue
                    gain = float(q - r)
                    # SC: the threshold is the covered end of the gap (a training value); Occam: the dyadic code
                    # of the gap, computed when a pair first needs it
                    bits = -2 if occam else 0
                    thr = np.nan if occam else (prev if d == 1 else v)
                    for c in range(C):
                        if occam:
                            u0 = q / fneg - ps[c] * r / fpos
                            if u0 < best_u[c]:
                                continue
                            if bits == -2:
                                bits, thr = dyadic_bits(prev, v, A[g], B[g])
                            if bits < 0:
                                break
                            u = u0 - etas[c] * bits
                        else:
                            u = q - ps[c] * r
                        if u > best_u[c] or (u == best_u[c] and gain > best_gain[c]):
                            best_u[c] = u
                            best_gain[c] = gain
                            bg[c] = g
                            bd[c] = d
                            blo[c] = prev
                            bhi[c] = v
                            bq[c] = q
                            br[c] = r
                            bbits[c] = bits
                            bthr[c] = thr
            if last:
                break
            pv = posi[idx]  # branch-free counting: the labels are in random order along a gene
            cp += pv
            cn += 1 - pv
            prev = v
            have = True
    return bg, bd, blo, bhi, bq, br, best_u, bbits, bthr


@njit(cache=True, error_model="numpy")
def scm_scan(lab, new, vals, order, pos, used, ps, n_neg, n_pos):
    """The sample-compression step (U = |Q| - p|R|) for several p at once over the remaining examples (the presort
    holds exactly them). Candidates and tie rules as :func:`cover_node`: after each boundary, the prefix with
    d=+1 then the suffix with d=-1; ties: larger |Q| - |R|, then first in gene, position, direction order.

    Pass 1, vectorised over genes on the position-major layout (:func:`position_major`): every gene's best
    utility from running counts. Pass 2, only for the genes reaching the overall maximum (usually one): the tie
    rules, walking the gene's sorted order. Returns per p: gene (-1: none), position s of the gap's lower value,
    side (0: d=+1, 1: d=-1), utility."""
    k, n = lab.shape
    C = ps.shape[0]
    cp = np.empty(n)
    bu = np.empty(n)
    og = np.full(C, -1, dtype=np.int64)
    os_ = np.zeros(C, dtype=np.int64)
    oside = np.zeros(C, dtype=np.int64)
    ou = np.full(C, -np.inf)
    fneg = float(n_neg)
    fpos = float(n_pos)
    for c in range(C):
        p = ps[c]
        cp[:] = 0.0
        bu[:] = -np.inf
        for s in range(k):
            fs = s + 1.0
            notlast = s < k - 1
            for g in range(n):
                cpg = cp[g] + lab[s, g]
                cp[g] = cpg
                cng = fs - cpg
                u0 = cng - p * cpg
                u1 = (fneg - cng) - p * (fpos - cpg)
                ok = new[s, g]
                u0 = u0 if ok else -np.inf
                u1 = u1 if (ok & notlast) else -np.inf
                u = u0 if u0 > u1 else u1
                bu[g] = u if u > bu[g] else bu[g]
        best = -np.inf
        for g in range(n):
            if not used[g] and bu[g] > best:
                best = bu[g]
        if best == -np.inf:
            continue
        bestgain = -np.inf
        for g in range(n):
            if used[g] or bu[g] != best:
                continue
            cn = 0.0
            cpp = 0.0
            for s in range(k):
                if pos[order[g, s]]:
                    cpp += 1.0
                else:
                    cn += 1.0
                if not (s == k - 1 or vals[g, s + 1] != vals[g, s]):
                    continue
                for side in range(2):
                    if side == 0:
                        u = cn - p * cpp
                        gain = cn - cpp
                    else:
                        if s == k - 1:
                            break
                        u = (fneg - cn) - p * (fpos - cpp)
                        gain = (fneg - cn) - (fpos - cpp)
                    if u == best and gain > bestgain:
                        bestgain = gain
                        og[c] = g
                        os_[c] = s
                        oside[c] = side
                        ou[c] = u
    return og, os_, oside, ou


@njit(cache=True)
def _compact(vals, order, g, pi, posf, u, wn, wp):
    """Distinct values (ascending) of gene g among examples with pi > 0, with their summed negative and positive
    weights; returns their number J (written into u, wn, wp)."""
    m = vals.shape[1]
    J = 0
    for s in range(m):
        idx = order[g, s]
        w = pi[idx]
        if w <= 0.0:
            continue
        v = vals[g, s]
        if J == 0 or v != u[J - 1]:
            u[J] = v
            wn[J] = 0.0
            wp[J] = 0.0
            J += 1
        wpos = w * posf[idx]  # branch-free: the labels are in random order along a gene
        wp[J - 1] += wpos
        wn[J - 1] += w - wpos
    return J


@njit(cache=True)
def _soft_cover(W, WX, J, i, k, xa, xb, d):
    """The covered amount sum(weight * (1 - sigma)) of an interval [xa, xb] (values shifted by A) that holds the
    distinct values u_i..u_k (i > k: none), plus every value fully covered: below the interval (d=+1) or above
    it (d=-1). W, WX: prefix sums (entries 0..J) of the weights and of weight * shifted value."""
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


#: An interval whose ends are closer than this fraction of the gene's range [A, B] is scored by
#: :func:`_soft_cover_close`: in the values shifted by A its width can round to a few units in the last place, or to
#: zero (two distinct values 1 ulp apart in Alizadeh's lymphoma data), making the prefix-sum formula 0 / 0.
CLOSE_ENDS = 1e-8


@njit(cache=True)
def _soft_cover_close(u, w, W, J, i, k, d):
    """:func:`_soft_cover` of the interval [u_i, u_k] (i < k) term by term from the unshifted distinct values u and
    their weights w: for ends this close, u_k - u_j and u_j - u_i are exact (Sterbenz), so the linear coverage of
    every value inside is too. W: the prefix sums of w (for the values fully covered)."""
    span = u[k] - u[i]
    s = 0.0
    for j in range(i, k + 1):
        s += w[j] * ((u[k] - u[j]) if d == 1 else (u[j] - u[i])) / span
    if d == 1:
        return W[i] + s
    return (W[J] - W[k + 1]) + s


#: soft utilities are compared on a grid of 2^-32 (:func:`utility_grid`)
UTILITY_GRID = 4294967296.0


@njit(cache=True)
def utility_grid(U):
    """U rounded to the nearest multiple of 2^-32: the soft greedy compares utilities on this grid, so that
    utilities equal in exact arithmetic (e.g. two genes that both cover every remaining negative with no error)
    but apart by rounding, which differs with the units of X, are a tie, broken the same way at every scale."""
    return np.floor(U * UTILITY_GRID + 0.5)


@njit(cache=True)
def _better(U, g, d, a, b, best_u, bg, bd, ba, bb):
    """Larger utility on the grid of :func:`utility_grid`; ties: smaller gene, then d=+1, then smaller a, then
    smaller b."""
    Uq = utility_grid(U)
    Bq = utility_grid(best_u)
    if Uq > Bq:
        return True
    if Uq < Bq or bg < 0:
        return Uq == Bq and bg < 0
    if g != bg:
        return g < bg
    if d != bd:
        return d > bd
    if a != ba:
        return a < ba
    return b < bb


@njit(cache=True, error_model="numpy")
def _soft_bounds(new, idx, vals, order, pi, pos, used, ps, etas, pidx, fneg, fpos, A, B, width_frac):
    """Pass 1 of :func:`soft_node`, vectorised over genes (position-major layout of the examples with pi > 0): for
    each gene and (p, eta) pair an upper bound on the soft utility of every interval of the gene. sigma is the
    average of the hard stumps with thresholds in [a, b], so C/N - p E/|P| of an interval is at most the best hard
    prefix or suffix cover (or the empty or full cover), and the margin term is at least eta times its smallest
    value (the widest interval, or the fixed width). Returns ub (genes x pairs) and its maximum per gene.

    Examples with pi = 0 left in the presort change nothing: they add nothing to the running amounts, and a boundary
    next to them repeats the amounts of a boundary between examples in S (or the empty or full cover); the range of
    a gene is that of its examples in S."""
    k, n = idx.shape
    C = etas.shape[0]
    P = ps.shape[0]
    m = pi.shape[0]
    pw = np.empty(m)  # each example's positive weight pi * [positive]
    for i in range(m):
        pw[i] = pi[i] * (1.0 if pos[i] else 0.0)
    totn = 0.0
    totp = 0.0
    for s in range(k):
        i = idx[s, 0]
        totn += pi[i] * (1.0 - (1.0 if pos[i] else 0.0))
        totp += pw[i]
    besth = np.empty((P, n))
    for t in range(P):
        full = totn / fneg - ps[t] * totp / fpos
        for g in range(n):
            besth[t, g] = full if full > 0.0 else 0.0  # the full and the empty cover
    cn = np.zeros(n)
    cp = np.zeros(n)
    wrow = np.empty(n)
    prow = np.empty(n)
    qn = np.empty(n)
    qp = np.empty(n)
    rn = np.empty(n)
    rp = np.empty(n)
    for s in range(k - 1):
        for g in range(n):  # gather first: the loops below then run on contiguous rows (SIMD)
            i = idx[s, g]
            wrow[g] = pi[i]
            prow[g] = pw[i]
        for g in range(n):
            wp_ = prow[g]
            cp[g] += wp_
            cn[g] += wrow[g] - wp_
            # the four quotients once for every p (the same numbers as computed per p)
            qn[g] = cn[g] / fneg
            qp[g] = cp[g] / fpos
            rn[g] = (totn - cn[g]) / fneg
            rp[g] = (totp - cp[g]) / fpos
        for t in range(P):
            p = ps[t]
            for g in range(n):
                h1 = qn[g] - p * qp[g]
                h2 = rn[g] - p * rp[g]
                h = h1 if h1 > h2 else h2
                h = h if new[s, g] else -np.inf
                besth[t, g] = h if h > besth[t, g] else besth[t, g]
    ub = np.full((n, C), -np.inf)
    ubmax = np.full(n, -np.inf)
    fixed = width_frac > 0.0
    for g in range(n):
        if used[g] or not (B[g] > A[g]):
            continue
        lo = 0  # the range of the examples still in S (the presort may also hold examples with pi = 0)
        while lo < k - 1 and pi[order[g, lo]] <= 0.0:
            lo += 1
        hi = k - 1
        while hi > lo and pi[order[g, hi]] <= 0.0:
            hi -= 1
        span = vals[g, hi] - vals[g, lo]
        if not fixed and not span > 0.0:
            continue
        lmin = -np.log(2.0 * width_frac) if fixed else np.log(B[g] - A[g]) - np.log(span)
        for c in range(C):
            v = besth[pidx[c], g] - etas[c] * lmin
            ub[g, c] = v
            if v > ubmax[g]:
                ubmax[g] = v
    return ub, ubmax


#: Width classes of the margin bound of :func:`_width_means` (widths span/2^(k+1) .. span/2^k, k < K, and below)
MARGIN_CLASSES = 8


@njit(cache=True)
def _width_integrals(u, Wn, Wp, J, GN, GP, w, In, Ip):
    """For windows [a, a + w] inside [u_0, u_(J-1)]: the integrals In, Ip over the window of the prefix weight
    functions (theta -> negative / positive weight of the values <= theta; GN, GP their integrals from u_0 at each
    value), at every a where the window's integral can peak: a at a value or a + w at a value (clamped into range;
    the ends included). Returns the number of candidates (2J)."""
    amax = u[J - 1] - w
    nc = 0
    for lst in range(2):
        qa = 0
        qx = 0
        for j in range(J):
            a = min(u[j], amax) if lst == 0 else max(u[j] - w, u[0])
            x = a + w
            while qa < J - 2 and u[qa + 1] <= a:
                qa += 1
            while qx < J - 2 and u[qx + 1] <= x:
                qx += 1
            In[nc] = (GN[qx] + Wn[qx + 1] * (x - u[qx])) - (GN[qa] + Wn[qa + 1] * (a - u[qa]))
            Ip[nc] = (GP[qx] + Wp[qx + 1] * (x - u[qx])) - (GP[qa] + Wp[qa + 1] * (a - u[qa]))
            nc += 1
    return nc


@njit(cache=True)
def _best_of_both(An, Ap, m, TN, TP, fneg, fpos, p, w):
    """The largest of (An[c] / fneg - p Ap[c] / fpos) / w over c < m (direction +1) and of the same with the weights
    of the other side, w TN - An[c] and w TP - Ap[c] (direction -1): the best hard utility (w = 1, prefix weights)
    or the best window mean of width w (window integrals) of :func:`_width_means`. The division by w > 0 is taken
    after the maximum (correctly rounded division is monotone: the same number)."""
    b1 = -np.inf
    b2 = -np.inf
    for c in range(m):
        v1 = An[c] / fneg - p * Ap[c] / fpos
        v2 = (w * TN - An[c]) / fneg - p * (w * TP - Ap[c]) / fpos
        b1 = v1 if v1 > b1 else b1
        b2 = v2 if v2 > b2 else b2
    return b1 / w, b2 / w


@njit(cache=True)
def _width_means(u, Wn, Wp, J, fneg, fpos, ps, want, HW, GN, GP, In, Ip):
    """For one gene (distinct values u[:J], prefix sums Wn, Wp of their negative and positive weights) and each
    p = ps[t] with want[t]: the hard utility h(theta) = C/N - p E/|P| of the stump with threshold theta, in each
    direction (a step function between the values), its largest value H* = HW[t, d, 0] and, for
    w_k = span / 2^(k+1) (k < MARGIN_CLASSES), the largest mean of h over a window [a, a + w_k] inside
    [u_0, u_(J-1)], W*(w_k) = HW[t, d, 1 + k]. A window's mean is piecewise linear in a, so its maximum is where a
    or a + w_k meets a value, or at an end (:func:`_width_integrals`). Direction -1 covers the values above
    theta: its weight functions are the totals minus the prefix ones."""
    K = MARGIN_CLASSES
    P = ps.shape[0]
    GN[0] = 0.0
    GP[0] = 0.0
    for j in range(J - 1):
        GN[j + 1] = GN[j] + Wn[j + 1] * (u[j + 1] - u[j])
        GP[j + 1] = GP[j] + Wp[j + 1] * (u[j + 1] - u[j])
    for t in range(P):
        if not want[t]:
            continue
        HW[t, 0, 0], HW[t, 1, 0] = _best_of_both(Wn[1:J], Wp[1:J], J - 1, Wn[J], Wp[J], fneg, fpos, ps[t], 1.0)
    span = u[J - 1] - u[0]
    for k in range(K):
        w = span / 2.0 ** (k + 1)
        nc = _width_integrals(u, Wn, Wp, J, GN, GP, w, In, Ip)
        for t in range(P):
            if not want[t]:
                continue
            HW[t, 0, 1 + k], HW[t, 1, 1 + k] = _best_of_both(In, Ip, nc, Wn[J], Wp[J], fneg, fpos, ps[t], w)


@njit(cache=True)
def _tight_prune(u, Wn, Wp, J, fneg, fpos, ps, etas, pidx, need, lims, logR, want, HW, GN, GP, In, Ip, part):
    """The width-class bound of :func:`_margin_bound` for the pairs with need[c] and eta > 0, class by class
    (:func:`_width_means` one width at a time): pairs whose bound stays below lims[c] lose need[c]. After the
    classes of widths span / 2^k and above, every narrower interval is bounded by H* minus eta times the margin term
    of width span / 2^k, so the bound so far is an upper bound on the full one; a pair is dropped as soon as it falls
    below lims[c], and the classes stop when no pair is left. The same decisions as the full bound (computed with
    the same expressions), at a fraction of the cost when most genes fall after the first classes."""
    K = MARGIN_CLASSES
    P = ps.shape[0]
    C = etas.shape[0]
    span = u[J - 1] - u[0]
    GN[0] = 0.0
    GP[0] = 0.0
    for j in range(J - 1):
        GN[j + 1] = GN[j] + Wn[j + 1] * (u[j + 1] - u[j])
        GP[j + 1] = GP[j] + Wp[j + 1] * (u[j + 1] - u[j])
    for t in range(P):
        want[t] = False
    for c in range(C):
        part[c] = -np.inf
        if need[c] and etas[c] > 0.0:
            want[pidx[c]] = True
    for t in range(P):
        if want[t]:
            HW[t, 0, 0], HW[t, 1, 0] = _best_of_both(Wn[1:J], Wp[1:J], J - 1, Wn[J], Wp[J], fneg, fpos, ps[t], 1.0)
    for k in range(K + 1):
        alive = False
        for t in range(P):
            want[t] = False
        for c in range(C):
            if not (need[c] and etas[c] > 0.0):
                continue
            t = pidx[c]
            e = etas[c]
            b = part[c]
            for di in range(2):
                v = HW[t, di, 0] - e * (logR - np.log(span / 2.0 ** k))
                if v > b:
                    b = v
            if b < lims[c]:
                need[c] = False
            else:
                alive = True
                want[t] = True
        if k == K or not alive:
            break
        w = span / 2.0 ** (k + 1)
        nc = _width_integrals(u, Wn, Wp, J, GN, GP, w, In, Ip)
        for t in range(P):
            if want[t]:
                HW[t, 0, 1 + k], HW[t, 1, 1 + k] = _best_of_both(In, Ip, nc, Wn[J], Wp[J], fneg, fpos, ps[t], w)
        for c in range(C):
            if not (need[c] and etas[c] > 0.0):
                continue
            t = pidx[c]
            for di in range(2):
                v = 0.5 * (HW[t, di, 1 + k] + HW[t, di, 0]) - etas[c] * (logR - np.log(2.0 * w))
                if v > part[c]:
                    part[c] = v


@njit(cache=True)
def _margin_bound(HW, eta, logR, span):
    """Upper bound on the soft utility S - eta log(R / (b - a)) of every interval of a gene, from
    :func:`_width_means` (HW: one row per direction). S is the mean of h over [a, b]; for b - a = v in [w, 2w],
    the integral is at most w W*(w) + (v - w) H*, so S <= (W*(w) + H*) / 2, while the margin term is at most
    -eta log(R / 2w); below the narrowest class S <= H* and the margin term is at most -eta log(R / w_min)."""
    K = MARGIN_CLASSES
    best = -np.inf
    for di in range(HW.shape[0]):
        H = HW[di, 0]
        for k in range(K):
            w = span / 2.0 ** (k + 1)
            v = 0.5 * (HW[di, 1 + k] + H) - eta * (logR - np.log(2.0 * w))
            if v > best:
                best = v
        v = H - eta * (logR - np.log(span / 2.0 ** K))
        if v > best:
            best = v
    return best


#: the machine epsilon of float64 (2^-52), for the rounding margins of the row pruning
_EPS = 2.220446049250313e-16


#: width classes of the row pruning (:func:`_row_can_win`): widths up to span / 2^s, s = 0 .. ROW_CLASSES
ROW_CLASSES = 24


@njit(cache=True)
def _prune_setup(u, Wn, Wp, J, R, logR, fneg, fpos, ps, etas, pidx, need, HI, HS, lb, err, lam, bnd):
    """What the row pruning of one gene (:func:`_row_can_win`) needs: HI[t, di, j], the integral from u_0 to u_j of
    the hard utility h of direction di for p = ps[t] (h is the step function H_j on (u_j, u_j+1): the soft utility
    of [u_i, u_k] without its margin term is the mean of h over the interval, since sigma averages the hard stumps
    with thresholds in it); lb[c], the utility of one of the gene's own intervals for pair c (its best one-step
    interval [u_j, u_j+1] for eta = 0, its widest for eta > 0); err[c], a bound on the rounding of a computed
    utility (the prefix-sum formula of :func:`_soft_cover` loses up to ~J eps R / (b - a), closer ends than
    :data:`CLOSE_ENDS` are scored term by term); lam[s] = log R - log(span / 2^s), the smallest margin term of an
    interval of width at most bnd[s] = span / 2^s; HS[t, di] the integral of |h| (for the rounding of HI)."""
    C = etas.shape[0]
    P = ps.shape[0]
    span = u[J - 1] - u[0]
    gmin = span
    for j in range(J - 1):
        dj = u[j + 1] - u[j]
        if dj < gmin:
            gmin = dj
    ratio = R / gmin if gmin > 0.0 else 1.0 / CLOSE_ENDS
    if ratio > 1.0 / CLOSE_ENDS:
        ratio = 1.0 / CLOSE_ENDS
    lmax = abs(logR - np.log(gmin)) if gmin > 0.0 else 1e3
    b = span
    for s in range(ROW_CLASSES + 1):
        bnd[s] = b
        lam[s] = logR - np.log(b)
        b *= 0.5
    for t in range(P):
        p = ps[t]
        for di in range(2):
            HI[t, di, 0] = 0.0
            hs = 0.0
            for j in range(J - 1):
                if di == 0:
                    h = Wn[j + 1] / fneg - p * Wp[j + 1] / fpos
                else:
                    h = (Wn[J] - Wn[j + 1]) / fneg - p * (Wp[J] - Wp[j + 1]) / fpos
                HI[t, di, j + 1] = HI[t, di, j] + h * (u[j + 1] - u[j])
                hs += abs(h) * (u[j + 1] - u[j])
            HS[t, di] = hs
    for c in range(C):
        if not need[c]:
            continue
        t = pidx[c]
        p = ps[t]
        e = etas[c]
        err[c] = 4.0 * (3.0 * J + 4.0) * _EPS * (1.0 + ratio) * (1.0 + p) + 1e-13 * (1.0 + e * (1.0 + lmax))
        v = -np.inf
        for di in range(2):
            if e == 0.0:
                for j in range(J - 1):
                    if di == 0:
                        h = Wn[j + 1] / fneg - p * Wp[j + 1] / fpos
                    else:
                        h = (Wn[J] - Wn[j + 1]) / fneg - p * (Wp[J] - Wp[j + 1]) / fpos
                    if h > v:
                        v = h
            else:
                w = HI[t, di, J - 1] / span - e * lam[0]
                if w > v:
                    v = w
        lb[c] = v


@njit(cache=True)
def _row_can_win(HIr, u, J, i, T, e, lam, bnd, delta):
    """False only if no interval [u_i, u_k] of the row reaches the utility T in exact arithmetic: its mean of h
    (HIr: the integral of h, :func:`_prune_setup`) minus eta times its margin term, bounded below by lam of its
    width class, stays below T by more than the rounding ``delta`` of the integrals."""
    s = ROW_CLASSES
    thr = T + e * lam[s]
    for k in range(i + 1, J):
        w = u[k] - u[i]
        if e > 0.0:
            while s > 0 and w > bnd[s]:
                s -= 1
                thr = T + e * lam[s]
        if HIr[k] - HIr[i] - thr * w >= -delta:
            return True
    return False


@njit(cache=True)
def _scan_gene(u, wn, wp, Wn, Wp, WnX, WpX, J, Ag, R, logR, fneg, fpos, ps, etas, pidx, need, lims, prune, HI, HS,
               lb, err, lam, bnd, sv, rowC, rowE, rowL, rowB, gbu, gq, gd, ga, gbb):
    """Every interval [u_i, u_k] (i < k) of one gene in both directions, for the pairs with need[c] (the
    variable-margin search of :func:`soft_node`): the gene's best per pair on the grid of :func:`utility_grid`
    (ties: d=+1, then smaller a, then smaller b) in gbu, gq, gd, ga, gbb. A row (fixed a = u_i) at a time: its
    margin terms once for both directions (only when a pair with eta > 0 needs them), its covering and error amounts
    once per direction, then a tight loop per pair.

    With ``prune`` a row is scored for a pair only if one of its intervals can reach T, the largest of the best
    utility found so far (``lims``), the gene's best so far and one of its own intervals (``lb``), lowered by a
    margin that covers the rounding of every computed utility and the grid (:func:`_row_can_win`, O(J) cheap
    operations against the row's O(J) divisions and logarithms): a row skipped holds no interval that the full scan
    would choose or tie, so the choices are the same."""
    C = etas.shape[0]
    if J < 2:
        return
    if prune:
        _prune_setup(u, Wn, Wp, J, R, logR, fneg, fpos, ps, etas, pidx, need, HI, HS, lb, err, lam, bnd)
    span = u[J - 1] - u[0]
    for i in range(J - 1):
        any_row = False
        any_eta = False
        for c in range(C):
            for di in range(2):
                sv[di, c] = need[c]
            if not need[c]:
                continue
            if prune:
                T = lims[c]
                if lb[c] > T:
                    T = lb[c]
                if gbu[c] > T:
                    T = gbu[c]
                T -= 3.0 * err[c] + 2.0 / UTILITY_GRID
                e = etas[c]
                t = pidx[c]
                for di in range(2):
                    delta = 16.0 * (J + 2.0) * _EPS * (HS[t, di] + (1.0 + abs(T) + e * abs(lam[ROW_CLASSES])) * span)
                    sv[di, c] = _row_can_win(HI[t, di], u, J, i, T, e, lam, bnd, delta)
            for di in range(2):
                if sv[di, c]:
                    any_row = True
                    if etas[c] > 0.0:
                        any_eta = True
        if not any_row:
            continue
        xa = u[i] - Ag
        a = u[i]
        if any_eta:
            nk = 0
            for k in range(i + 1, J):
                if u[k] - u[i] <= CLOSE_ENDS * R:
                    rowL[nk] = logR - np.log(u[k] - u[i])
                else:
                    rowL[nk] = logR - np.log((u[k] - Ag) - xa)
                nk += 1
        for di in range(2):
            d = 1 if di == 0 else -1
            any_d = False
            for c in range(C):
                any_d = any_d or sv[di, c]
            if not any_d:
                continue
            nk = 0
            for k in range(i + 1, J):
                xb = u[k] - Ag
                if u[k] - u[i] <= CLOSE_ENDS * R:
                    rowC[nk] = _soft_cover_close(u, wn, Wn, J, i, k, d) / fneg
                    rowE[nk] = _soft_cover_close(u, wp, Wp, J, i, k, d) / fpos
                else:
                    rowC[nk] = _soft_cover(Wn, WnX, J, i, k, xa, xb, d) / fneg
                    rowE[nk] = _soft_cover(Wp, WpX, J, i, k, xa, xb, d) / fpos
                rowB[nk] = u[k]
                nk += 1
            for c in range(C):
                if not sv[di, c]:
                    continue
                pc = ps[pidx[c]]
                ec = etas[c]
                for t in range(nk):
                    if ec != 0.0:
                        U = rowC[t] - pc * rowE[t] - ec * rowL[t]
                    else:  # the same value as with the (finite) margin term times 0
                        U = rowC[t] - pc * rowE[t]
                    Uq = utility_grid(U)
                    if Uq > gq[c] or (Uq == gq[c] and (d > gd[c] or (d == gd[c] and (
                            a < ga[c] or (a == ga[c] and rowB[t] < gbb[c]))))):
                        gbu[c] = U
                        gq[c] = Uq
                        gd[c] = d
                        ga[c] = a
                        gbb[c] = rowB[t]


@njit(cache=True)
def _next_genes(ubmax, hi, first, K):
    """The next genes of the stable decreasing order of ``ubmax`` (``np.argsort(-ubmax, kind="mergesort")``): those
    below ``hi`` (all of them when ``first``) down to their K-th largest bound v, ties included, in that order; and
    v, the ``hi`` of the next call. The search of :func:`soft_node` usually stops within the first genes, so the
    order is built a chunk at a time instead of sorting every gene at every node."""
    sel = np.arange(ubmax.shape[0]) if first else np.flatnonzero(ubmax < hi)
    if sel.size <= K:
        v = -np.inf
        out = sel
    else:
        w = ubmax[sel]
        v = -np.partition(-w, K - 1)[K - 1]
        out = sel[w >= v]
    return out[np.argsort(-ubmax[out], kind="mergesort")], v


@njit(cache=True)
def soft_node(vals, order, new, idx, pi, pos, used, ps, etas, pidx, n_pos_total, A, B, width_frac, slack,
              tight=True, prune=True):
    """One step of the PAC-Bayes soft greedy (§6.2) for several (p, eta) pairs at once: pair c uses
    p = ps[pidx[c]] (ps: the distinct p values) and eta = etas[c]. width_frac <= 0: variable margin, intervals
    [u_i, u_k], i < k, over the distinct values of the examples still in S (pi > 0); width_frac > 0: fixed
    margin, intervals of width 2 * width_frac * (B - A) with one end at such a value, inside [A, B].

    The presort (vals, order; new, idx its position-major layout, :func:`soft_layout`) must hold every example with
    pi > 0; it may hold others (pi = 0: examples totally covered), which change nothing (see :func:`_soft_bounds`;
    :func:`_compact` skips them), so the layout of a node serves its children until enough examples have left.
    Exact pruning: the best hard stump of a gene bounds the first two utility terms of all its intervals
    (:func:`_soft_bounds`); a gene is scored exactly only for the pairs whose best utility it can still reach, in
    decreasing order of its bound. For pairs with a margin term (eta > 0) that bound is loose: it pairs the best hard
    stump with the margin of the widest interval, whose soft cover is far below it. ``tight`` (default) then also
    asks the width-class bound (:func:`_margin_bound`: a wide interval's soft cover is a mean of the hard utility
    over the interval, a narrow one pays a large margin term) before scoring the gene: the same choices, fewer genes
    scored (on Bhattacharjee's lung data, 125 x 3171, 737 instead of 2970 genes at the first step). Returns per
    pair:
    gene (-1: none), direction, a, b, utility; and the number of genes scored exactly.
    """
    n, m = vals.shape
    C = etas.shape[0]
    P = ps.shape[0]
    posf = np.zeros(pos.shape[0])
    for i in range(pos.shape[0]):
        if pos[i]:
            posf[i] = 1.0
    n_neg_amt = 0.0
    for i in range(pi.shape[0]):
        if not pos[i]:
            n_neg_amt += pi[i]
    fneg = n_neg_amt if n_neg_amt > 0 else 1.0
    fpos = float(max(n_pos_total, 1))
    u = np.empty(m)
    wn = np.empty(m)
    wp = np.empty(m)
    Wn = np.empty(m + 1)
    Wp = np.empty(m + 1)
    WnX = np.empty(m + 1)
    WpX = np.empty(m + 1)
    fixed = width_frac > 0.0
    ub, ubmax = _soft_bounds(new, idx, vals, order, pi, pos, used, ps, etas, pidx, fneg, fpos, A, B, width_frac)
    # pass 2: exact search, genes in decreasing bound order, only for the pairs they can still win
    cand = np.empty(n, dtype=np.int64)  # genes in decreasing bound order (stable), sorted a chunk at a time
    ncand = 0
    hi = np.inf
    chunk = np.int64(64)  # typed: a bare 64 would compile _next_genes once more (tests/test_jit_signatures.py)
    best_u = np.full(C, -np.inf)
    bg = np.full(C, -1, dtype=np.int64)
    bd = np.zeros(C, dtype=np.int64)
    ba = np.full(C, np.nan)
    bb = np.full(C, np.nan)
    need = np.zeros(C, dtype=np.bool_)
    gbu = np.empty(C)
    gq = np.empty(C)
    gd = np.zeros(C, dtype=np.int64)
    ga = np.empty(C)
    gbb = np.empty(C)
    rlen = 2 * m + 2
    rowC = np.empty(rlen)
    rowE = np.empty(rlen)
    rowL = np.empty(rlen)
    rowA = np.empty(rlen)
    rowB = np.empty(rlen)
    searched = 0
    lims = np.empty(C)
    done_p = np.zeros(P, dtype=np.bool_)
    HW = np.empty((P, 2, 1 + MARGIN_CLASSES))
    GN = np.empty(m + 1)
    GP = np.empty(m + 1)
    In = np.empty(2 * m + 2)
    Ip = np.empty(2 * m + 2)
    HI = np.empty((P, 2, m + 1))
    HS = np.empty((P, 2))
    lb = np.empty(C)
    err = np.empty(C)
    lam = np.empty(ROW_CLASSES + 1)
    bnd = np.empty(ROW_CLASSES + 1)
    sv = np.empty((2, C), dtype=np.bool_)
    part = np.empty(C)
    for r in range(n):
        if r == ncand:  # the next genes in the order of np.argsort(-ubmax, kind="mergesort")
            nxt, hi = _next_genes(ubmax, hi, r == 0, chunk)
            cand[ncand:ncand + nxt.size] = nxt
            ncand += nxt.size
            chunk *= 4
            if nxt.size == 0:
                break
        g = cand[r]
        if ubmax[g] == -np.inf:
            break
        worst = np.inf
        any_need = False
        for c in range(C):
            tie = max(slack * (1.0 + abs(best_u[c])), 2.0 / UTILITY_GRID)  # a grid tie is within 1 / grid
            lim = best_u[c] - tie if best_u[c] > -np.inf else -np.inf
            lims[c] = lim
            if lim < worst:
                worst = lim
            need[c] = ub[g, c] >= lim
            if need[c]:
                any_need = True
        if ubmax[g] < worst:
            break
        if not any_need:
            continue
        J = _compact(vals, order, g, pi, posf, u, wn, wp)
        Ag = A[g]
        R = B[g] - Ag
        logR = np.log(R)
        Wn[0] = 0.0
        Wp[0] = 0.0
        WnX[0] = 0.0
        WpX[0] = 0.0
        for j in range(J):
            x = u[j] - Ag
            Wn[j + 1] = Wn[j] + wn[j]
            Wp[j + 1] = Wp[j] + wp[j]
            WnX[j + 1] = WnX[j] + wn[j] * x
            WpX[j + 1] = WpX[j] + wp[j] * x
        if tight and not fixed and J >= 3 and u[J - 1] > u[0]:
            # pairs with a margin term (eta > 0): the bound of the pass above ignores how the soft cover of a wide
            # interval falls below the best hard stump; the width-class bound (_margin_bound) does not
            _tight_prune(u, Wn, Wp, J, fneg, fpos, ps, etas, pidx, need, lims, logR, done_p, HW, GN, GP, In, Ip,
                         part)
            any_need = False
            for c in range(C):
                any_need = any_need or need[c]
            if not any_need:
                continue
        searched += 1
        # every interval of the gene; the gene's best per pair (ties: d=+1, then smaller a, then smaller b) is then
        # compared with the best so far
        for c in range(C):
            gbu[c] = -np.inf
            gq[c] = -np.inf
        if not fixed:
            _scan_gene(u, wn, wp, Wn, Wp, WnX, WpX, J, Ag, R, logR, fneg, fpos, ps, etas, pidx, need, lims, prune, HI,
                       HS, lb, err, lam, bnd, sv, rowC, rowE, rowL, rowB, gbu, gq, gd, ga, gbb)
        else:  # the fixed margin: all fixed-width intervals of a direction at once, then a tight loop per pair
            w = 2.0 * width_frac * R
            L = -np.log(2.0 * width_frac)
            for di in range(2):
                d = 1 if di == 0 else -1
                nk = 0
                for j in range(J):
                    for side in range(2):
                        a = u[j] - w if side == 0 else u[j]
                        b = u[j] if side == 0 else u[j] + w
                        if a < Ag or b > B[g]:
                            continue
                        xa = a - Ag
                        xb = b - Ag
                        ii = np.searchsorted(u[:J], a, side="left")
                        kk = np.searchsorted(u[:J], b, side="right") - 1
                        rowC[nk] = _soft_cover(Wn, WnX, J, ii, kk, xa, xb, d) / fneg
                        rowE[nk] = _soft_cover(Wp, WpX, J, ii, kk, xa, xb, d) / fpos
                        rowL[nk] = L
                        rowA[nk] = a
                        rowB[nk] = b
                        nk += 1
                for c in range(C):
                    if not need[c]:
                        continue
                    pc = ps[pidx[c]]
                    ec = etas[c]
                    for t in range(nk):
                        U = rowC[t] - pc * rowE[t] - ec * rowL[t]
                        Uq = utility_grid(U)
                        if Uq > gq[c] or (Uq == gq[c] and (d > gd[c] or (d == gd[c] and (
                                rowA[t] < ga[c] or (rowA[t] == ga[c] and rowB[t] < gbb[c]))))):
                            gbu[c] = U
                            gq[c] = Uq
                            gd[c] = d
                            ga[c] = rowA[t]
                            gbb[c] = rowB[t]
        for c in range(C):
            if need[c] and gbu[c] > -np.inf and _better(gbu[c], g, gd[c], ga[c], gbb[c], best_u[c], bg[c], bd[c],
                                                         ba[c], bb[c]):
                best_u[c] = gbu[c]
                bg[c] = g
                bd[c] = gd[c]
                ba[c] = ga[c]
                bb[c] = gbb[c]
    return bg, bd, ba, bb, best_u, searched


@njit(cache=True, error_model="numpy")
def gini_scan(idx, lab, valid, w, pos):
    """The depth-1 Gini tree of scikit-learn on sample weights w (one AdaBoost round), vectorised over genes
    (position-major layout of :func:`position_major`, built once per fit).

    Minimises the weighted Gini impurity G = lp*ln/wl + rp*rn/wr (scikit-learn maximises the equivalent proxy
    -2G) over the split positions s between values more than 1e-7 apart (valid[s, g]) whose children both carry
    weight; ties: first gene, then first position. Returns (gene, position, G); gene = -1 if none."""
    k, n = lab.shape
    W = 0.0
    Wp = 0.0
    for i in range(w.shape[0]):
        W += w[i]
        if pos[i]:
            Wp += w[i]
    Wn = W - Wp
    lp = np.zeros(n)
    ln = np.zeros(n)
    gb = np.full(n, np.inf)
    gs = np.full(n, -1, dtype=np.int64)
    wrow = np.empty(n)
    for s in range(k - 1):
        for g in range(n):  # gather first: the loop below then runs on contiguous rows (SIMD, ~6x faster)
            wrow[g] = w[idx[s, g]]
        for g in range(n):
            wi = wrow[g]
            li = float(lab[s, g])
            a = lp[g] + wi * li
            b = ln[g] + (wi - wi * li)
            lp[g] = a
            ln[g] = b
            wl = a + b
            wr = W - wl
            rp = Wp - a
            rn = Wn - b
            G = a * b / wl + rp * rn / wr
            better = valid[s, g] & (wl > 0.0) & (wr > 0.0) & (G < gb[g])
            gb[g] = G if better else gb[g]
            gs[g] = s if better else gs[g]
    best = np.inf
    bg = -1
    for g in range(n):
        if gs[g] >= 0 and gb[g] < best:
            best = gb[g]
            bg = g
    return bg, (gs[bg] if bg >= 0 else -1), best


@njit(cache=True)
def adaboost_rounds(vals, order, idx, lab, valid, pos, n_rounds):
    """The AdaBoost loop (two-class SAMME, learning rate 1) around :func:`gini_scan`, as scikit-learn runs it:
    weighted error e of the round's stump, weight alpha = log((1 - e) / e), w <- exp(log w + alpha * mistake)
    then normalised; stop after a stump with e = 0 (kept with alpha = 1) or before one with e >= 1/2 (status 2
    if that is the first round). Returns (genes, thresholds, lefts, rights, alphas, errors, rounds, status)."""
    n, m = vals.shape
    genes = np.full(n_rounds, -1, dtype=np.int64)
    thr = np.zeros(n_rounds)
    lefts = np.zeros(n_rounds, dtype=np.int64)
    rights = np.zeros(n_rounds, dtype=np.int64)
    alphas = np.zeros(n_rounds)
    errors = np.zeros(n_rounds)
    w = np.full(m, 1.0 / m)
    h = np.empty(m, dtype=np.int64)
    inc = np.empty(m)
    t = 0
    status = 0
    while t < n_rounds:
        g, s, _ = gini_scan(idx, lab, valid, w, pos)
        lp = 0.0
        ln = 0.0
        rp = 0.0
        rn = 0.0
        if g >= 0:
            lo = vals[g, s]
            hi = vals[g, s + 1]
            th = lo / 2.0 + hi / 2.0
            if th == hi or not np.isfinite(th):
                th = lo
            for q in range(m):
                i = order[g, q]
                if q <= s:
                    if pos[i]:
                        lp += w[i]
                    else:
                        ln += w[i]
                else:
                    if pos[i]:
                        rp += w[i]
                    else:
                        rn += w[i]
        else:  # every gene constant: a one-leaf tree
            th = np.inf
            for i in range(m):
                if pos[i]:
                    lp += w[i]
                else:
                    ln += w[i]
            rp = lp
            rn = ln
        left = 1 if lp > ln else -1
        right = 1 if rp > rn else -1
        num = 0.0
        den = 0.0
        for i in range(m):
            h[i] = left
        if g >= 0:
            for q in range(m):
                i = order[g, q]
                h[i] = left if q <= s else right
        for i in range(m):
            yi = 1 if pos[i] else -1
            inc[i] = 1.0 if h[i] != yi else 0.0
            num += w[i] * inc[i]
            den += w[i]
        err = num / den
        if err <= 0.0:
            genes[t] = g
            thr[t] = th
            lefts[t] = left
            rights[t] = right
            alphas[t] = 1.0
            errors[t] = 0.0
            t += 1
            break
        if err >= 0.5:
            status = 2 if t == 0 else 1
            break
        alpha = np.log((1.0 - err) / err)
        genes[t] = g
        thr[t] = th
        lefts[t] = left
        rights[t] = right
        alphas[t] = alpha
        errors[t] = err
        t += 1
        if t < n_rounds:
            tot = 0.0
            for i in range(m):
                if w[i] > 0.0:
                    w[i] = np.exp(np.log(w[i]) + alpha * inc[i])
                tot += w[i]
            for i in range(m):
                w[i] = w[i] / tot
    return genes[:t], thr[:t], lefts[:t], rights[:t], alphas[:t], errors[:t], t, status


@njit(cache=True, error_model="numpy")
def gini_scan_multi(idx, cls, valid, w, y, n_classes):
    """The K-class depth-1 Gini tree of scikit-learn on sample weights w (one round of multi-class SAMME),
    vectorised over genes: ``idx[s, g]`` is the sample at sorted position s of gene g and ``cls[s, g]`` its class
    (0..K-1), ``y`` the class of every sample.

    Maximises ``sum_c l_c^2 / w_l + sum_c r_c^2 / w_r`` (l_c, r_c the weight of class c left and right of the split,
    w_l, w_r their totals; scikit-learn's proxy impurity improvement ``-w_l gini_l - w_r gini_r`` plus the constant
    total weight) over the split positions between values more than the tolerance apart (valid[s, g]) whose
    children both carry weight; ties: first gene, then first position. For K = 2 the same split as
    :func:`gini_scan` (the proxy is W - 2G). Returns (gene, position, proxy); gene = -1 if none."""
    k, n = cls.shape
    K = n_classes
    Wc = np.zeros(K)
    W = 0.0
    for i in range(w.shape[0]):
        Wc[y[i]] += w[i]
        W += w[i]
    L = np.zeros((K, n))
    wl = np.zeros(n)
    sql = np.empty(n)
    sqr = np.empty(n)
    gb = np.full(n, -np.inf)
    gs = np.full(n, -1, dtype=np.int64)
    wrow = np.empty(n)
    for s in range(k - 1):
        for g in range(n):
            wrow[g] = w[idx[s, g]]
        for g in range(n):
            L[cls[s, g], g] += wrow[g]
            wl[g] += wrow[g]
        for g in range(n):
            sql[g] = 0.0
            sqr[g] = 0.0
        for c in range(K):  # class by class: contiguous rows (SIMD)
            wc = Wc[c]
            Lc = L[c]
            for g in range(n):
                a = Lc[g]
                b = wc - a
                sql[g] += a * a
                sqr[g] += b * b
        for g in range(n):
            a = wl[g]
            b = W - a
            crit = sql[g] / a + sqr[g] / b
            better = valid[s, g] & (a > 0.0) & (b > 0.0) & (crit > gb[g])
            gb[g] = crit if better else gb[g]
            gs[g] = s if better else gs[g]
    best = -np.inf
    bg = -1
    for g in range(n):
        if gs[g] >= 0 and gb[g] > best:
            best = gb[g]
            bg = g
    return bg, (gs[bg] if bg >= 0 else -1), best


@njit(cache=True)
def adaboost_rounds_multi(vals, order, idx, cls, valid, y, n_classes, n_rounds):
    """Discrete multi-class AdaBoost, SAMME (Zhu, Zou, Rosset & Hastie 2009, Algorithm 2; learning rate 1) around
    :func:`gini_scan_multi`, as scikit-learn's ``AdaBoostClassifier`` runs it: weights clipped from below at the
    machine epsilon at the start of every round, weighted error e of the round's stump (each leaf predicts its
    heaviest class, the first on a tie), weight ``alpha = log((1 - e) / e) + log(K - 1)``, then
    ``w <- exp(log w + alpha * mistake)`` normalised; stop after a stump with e = 0 (kept with alpha = 1) or before
    one with e >= 1 - 1/K (status 2 if that is the first round). Returns (genes, thresholds, lefts, rights, alphas,
    errors, rounds, status) with lefts/rights the class index (0..K-1) of x <= threshold / x > threshold."""
    m = vals.shape[1]
    K = n_classes
    genes = np.full(n_rounds, -1, dtype=np.int64)
    thr = np.zeros(n_rounds)
    lefts = np.zeros(n_rounds, dtype=np.int64)
    rights = np.zeros(n_rounds, dtype=np.int64)
    alphas = np.zeros(n_rounds)
    errors = np.zeros(n_rounds)
    w = np.full(m, 1.0 / m)
    eps = 2.220446049250313e-16  # np.finfo(np.float64).eps, scikit-learn's floor
    h = np.empty(m, dtype=np.int64)
    inc = np.empty(m)
    Lc = np.zeros(K)
    Rc = np.zeros(K)
    t = 0
    status = 0
    while t < n_rounds:
        for i in range(m):
            if w[i] < eps:
                w[i] = eps
        g, s, _ = gini_scan_multi(idx, cls, valid, w, y, K)
        for c in range(K):
            Lc[c] = 0.0
            Rc[c] = 0.0
        if g >= 0:
            lo = vals[g, s]
            hi = vals[g, s + 1]
            th = lo / 2.0 + hi / 2.0
            if th == hi or not np.isfinite(th):
                th = lo
            for q in range(m):
                i = order[g, q]
                if q <= s:
                    Lc[y[i]] += w[i]
                else:
                    Rc[y[i]] += w[i]
        else:  # every gene constant: a one-leaf tree
            th = np.inf
            for i in range(m):
                Lc[y[i]] += w[i]
            for c in range(K):
                Rc[c] = Lc[c]
        left = np.argmax(Lc)
        right = np.argmax(Rc)
        for i in range(m):
            h[i] = left
        if g >= 0:
            for q in range(m):
                i = order[g, q]
                h[i] = left if q <= s else right
        num = 0.0
        den = 0.0
        for i in range(m):
            inc[i] = 1.0 if h[i] != y[i] else 0.0
            num += w[i] * inc[i]
            den += w[i]
        err = num / den
        if err <= 0.0:
            genes[t] = g
            thr[t] = th
            lefts[t] = left
            rights[t] = right
            alphas[t] = 1.0
            errors[t] = 0.0
            t += 1
            break
        if err >= 1.0 - 1.0 / K:
            status = 2 if t == 0 else 1
            break
        alpha = np.log((1.0 - err) / err) + np.log(K - 1.0)
        genes[t] = g
        thr[t] = th
        lefts[t] = left
        rights[t] = right
        alphas[t] = alpha
        errors[t] = err
        t += 1
        if t < n_rounds:
            tot = 0.0
            for i in range(m):
                if w[i] > 0.0:
                    w[i] = np.exp(np.log(w[i]) + alpha * inc[i])
                tot += w[i]
            for i in range(m):
                w[i] = w[i] / tot
    return genes[:t], thr[:t], lefts[:t], rights[:t], alphas[:t], errors[:t], t, status
