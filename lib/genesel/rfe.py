"""SVM recursive feature elimination (SVM-RFE) with Gram-matrix downdates and warm-started SMO solves.

Guyon, Weston, Barnhill & Vapnik (2002), *Gene Selection for Cancer Classification using Support Vector
Machines*, Machine Learning 46, section 3.3-3.4 ("Recursive feature elimination", Algorithm SVM-RFE):

    repeat:  train the linear SVM on the surviving genes;  w = sum_k a_k y_k x_k  (Eq. 5);
             ranking criterion c_i = w_i^2;  remove the gene(s) with the smallest c_i
    until the requested number of genes survive.

Genes can be removed one per step, a fixed number or a fraction per step (as in ``sklearn.feature_selection.RFE``),
or in Guyon's chunks (``step="halving"``): the first elimination goes down to the nearest power of two below the
number of genes, every later one halves the survivors (the rule spelled out in Tan 2006, section 5.4, "we adopt
the settings of [Guyon 2002]": 2000 -> 1024 -> 512 -> ...).

Implementation. With n samples << d genes the SVM is trained in the dual on the n x n Gram matrix
(``genesel.svm``). Removing a set R of genes is the downdate  K <- K - X_R X_R^T  (O(n^2 |R|)), and the previous
dual solution is still feasible (the constraints do not involve K), so each solve is a warm-started SMO that needs
only a handful of steps. With one gene per step, computing all the weights w = X^T (a * y) at every stage would
cost O(n d^2) in total; instead the gene with the smallest w_i^2 is found exactly but lazily: every gene keeps the
weight computed at its last evaluation and a Cauchy-Schwarz bound on how far it can have moved since
(|x_i| times the distance the dual point a * y has moved, computed exactly for the genes last evaluated at one
stage together, or bounded by its path length), and only genes whose bound reaches the current minimum are
recomputed; the genes near the minimum sit in a small pool evaluated from cache at every stage (see
``_rfe_kernel``). Every compared weight is an exact x_i . (a * y) summed in one fixed order, so the elimination
order is the brute force's (every gene at every stage) bit for bit, ties included (by lower index).
To keep rounding error from accumulating over thousands of downdates, K is recomputed exactly each time the
number of survivors halves (total extra cost below one Gram computation).
Units: the elimination runs on X times a power of two with C converted (exact; see :mod:`genesel.svm`), so data
near 1e200 or 1e-300 give the ranking of data near 1 for the hard margin; a C negligible at the scale of X raises.
The whole elimination loop is one numba function (``_rfe_kernel``, called by ``_rfe_path``); its plain-Python twin
is in ``tests/naive/svm.py``.

More than two classes (K > 2). The SVM of every stage is the one-vs-rest linear SVM of :mod:`genesel.svm` (K
machines, machine k separating class k from the others, on the same Gram matrix) and the ranking criterion is the
summed squared weight  c_i = sum_k w_ki^2. This is Guyon's own argument carried over: their criterion ("feature
ranking by sensitivity analysis") is the change DJ(i) = w_i^2 / 2 of the cost J = ||w||^2 / 2 when gene i is removed
(optimal brain damage, LeCun et al. 1990), and for the K independent machines the cost is J = sum_k ||w_k||^2 / 2,
whose change is sum_k w_ki^2 / 2. It
ranks every gene on all classes at once, as Zhou & Tuck (2007, *MSVM-RFE: extensions of SVM-RFE for multiclass gene
selection on DNA microarray data*, Bioinformatics 23:1106) argue a multi-class ranking must (genes chosen one binary
problem at a time can hurt the others), but from the K binary machines where their extensions build on joint
multi-class SVMs (Weston & Watkins 1999; Crammer & Singer 2001). Why one-vs-rest rather than a joint
multi-class SVM: the K machines are binary SVMs, so the elimination keeps its downdated Gram matrix (one for all K
machines) and its warm-started SMO solves (K per stage), where a joint SVM's dual couples K n variables and would
need a solver of its own; the final model is then :class:`genesel.svm.LinearSVM`'s multi-class form; and by Rifkin
& Klautau (2004, JMLR 5:101) one-vs-rest regularised machines classify as well as the joint ones. The lazy argmin
carries over with the Euclidean norm of a gene's K weights (see :func:`_rfe_kernel`). Two classes: Guyon's single
SVM, bit for bit as before (the two one-vs-rest machines of two classes are one machine up to sign, so the
criterion would only double). Cost: one Gram matrix and its downdates as in the binary case, K SMO solves and K
products x_g . c_k per gene evaluated, so roughly K times the binary solve-and-weight work.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from numba import njit
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.gram import add_gram_rows, gram_rows, linear_gram
from genesel._core.params import N_FEATURES, POSITIVE, POSITIVE_INT, POSITIVE_OR_INF, STEP
from genesel._core.selector import SelectorBase
from genesel._core.smo import UNBOUNDED_DUAL, newton_step, restore_equality, rho, smo
from genesel._core.units import far_offset_centre, in_x_units, negligible_C_message, scale_pow2, unit_row_exponent
from genesel._core.multiclass import check_classifier_fit, ovr_signs
from genesel.svm import LinearSVM

__all__ = ["SVMRFE", "elimination_schedule"]


# ----------------------------------------------------------------------------------------------------------------
# elimination schedules
# ----------------------------------------------------------------------------------------------------------------


def elimination_schedule(n_features, n_features_to_select, step):
    """Number of genes removed at each RFE stage.

    ``step`` int >= 1: that many per stage; float in (0, 1): ``int(max(1, step * n_features))`` per stage (as
    sklearn's RFE); ``"halving"``: first down to the largest power of two below ``n_features`` (skipped when
    ``n_features`` is itself a power of two), then halve, never going below ``n_features_to_select``.
    """
    d, k = int(n_features), int(n_features_to_select)
    if not 1 <= k <= d:
        raise ValueError(f"n_features_to_select must be between 1 and the number of genes ({d}), got {k}")
    out = []
    if isinstance(step, str):
        if step != "halving":
            raise ValueError(f"step must be an int >= 1, a float in (0, 1) or 'halving', got {step!r}")
        cur = d
        p = 1 << (d.bit_length() - 1)  # largest power of two <= d
        target = p if p < d else p // 2
        while cur > k:
            target = max(target, k)
            out.append(cur - target)
            cur = target
            target = cur // 2
        return np.array(out, dtype=np.int64)
    if isinstance(step, bool) or not isinstance(step, numbers.Real):
        raise ValueError(f"step must be an int >= 1, a float in (0, 1) or 'halving', got {step!r}")
    if isinstance(step, numbers.Integral) or (float(step) >= 1 and float(step).is_integer()):
        s = int(step)
    elif 0.0 < step < 1.0:
        s = int(max(1, step * d))
    else:
        raise ValueError(f"step must be an int >= 1, a float in (0, 1) or 'halving', got {step!r}")
    if s < 1:
        raise ValueError(f"step must be >= 1, got {step!r}")
    cur = d
    while cur > k:
        r = min(s, cur - k)
        out.append(r)
        cur -= r
    return np.array(out, dtype=np.int64)


# ----------------------------------------------------------------------------------------------------------------
# numba kernels (plain-Python twins in tests/naive/svm.py)
# ----------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def _dot_row(Xt, g, c):
    s = 0.0
    for i in range(Xt.shape[1]):
        s += c[i] * Xt[g, i]
    return s


@njit(cache=True)
def _eval_gene(Xt, g, c, wst, cst):
    """Gene g's weights in every machine, ``wst[g, k] = x_g . c[k]``, and its criterion ``cst[g] = sum_k wst[g, k]^2``
    (one machine: w_g^2, Guyon's c_i)."""
    acc = 0.0
    for k in range(c.shape[0]):
        w = _dot_row(Xt, g, c[k])
        wst[g, k] = w
        acc += w * w
    cst[g] = acc


@njit(cache=True)
def _gradient(K, y, alpha):
    """G = Q a - e with Q_ij = y_i y_j K_ij: :func:`genesel._core.smo.gradient` bit for bit (every G_i summed over
    j in the same order, skipping a_j = 0, from the same products), with the two loops exchanged so that the inner
    one runs along a row of the symmetric K (K_ji = K_ij exactly: :func:`genesel._core.gram.add_gram_rows` mirrors
    its upper triangle). No sum is reordered, so the compiler may vectorise across i without changing a bit."""
    n = K.shape[0]
    acc = np.zeros(n)
    for j in range(n):
        if alpha[j] != 0.0:
            v = y[j] * alpha[j]
            for i in range(n):
                acc[i] += v * K[j, i]
    G = np.empty(n)
    for i in range(n):
        G[i] = y[i] * acc[i] - 1.0
    return G


@njit(cache=True)
def _warm_solve(K, y, C, alpha, polish, tol, max_iter):
    """:func:`genesel._core.smo.warm_solve` with :func:`_gradient` (the same numbers, bit for bit)."""
    G = _gradient(K, y, alpha)
    if polish and newton_step(K, y, C, alpha, G):
        G = _gradient(K, y, alpha)
    it, gap = smo(K, y, C, alpha, G, tol, max_iter)
    return G, it, gap


@njit(cache=True)
def _new_anchor(pool, free, n_free, c):
    """A slot of ``pool`` (grown by doubling when full) holding a copy of ``c``; returns (pool, n_free, slot)."""
    if n_free == 0:
        cap = pool.shape[0]
        bigger = np.empty((2 * cap, pool.shape[1], pool.shape[2]))
        bigger[:cap] = pool
        pool = bigger
        for q in range(cap):  # the new slots, lowest popped first
            free[q] = 2 * cap - 1 - q
        n_free = cap
    n_free -= 1
    slot = free[n_free]
    pool[slot] = c
    return pool, n_free, slot


@njit(cache=True, inline="always")
def _release(a, anc_slot, free, n_free):
    """Give the pool slot of anchor a back to the free list. Returns n_free."""
    free[n_free] = anc_slot[a]
    anc_slot[a] = -1
    return n_free + 1


@njit(cache=True, inline="always")
def _drop_ref(a, anc_ref, anc_slot, free, n_free, keep=-1):
    """One gene fewer holds anchor a; its slot is released when none does (unless a is ``keep``). Returns n_free."""
    anc_ref[a] -= 1
    if anc_ref[a] == 0 and a != keep:
        n_free = _release(a, anc_slot, free, n_free)
    return n_free


@njit(cache=True, inline="always")
def _move_anchor(g, s, gene_anc, anc_slot, anc_ref, free, n_free):
    """Gene g, just evaluated at the dual point of stage s, moves from its anchor to the anchor of stage s.
    Returns n_free."""
    n_free = _drop_ref(gene_anc[g], anc_ref, anc_slot, free, n_free)
    gene_anc[g] = s
    anc_ref[s] += 1
    return n_free


@njit(cache=True, inline="always")
def _reevaluate(Xt, g, c, wst, cst, rst, gene_anc, anc_slot, anc_ref, free, n_free, s):
    """Evaluate gene g exactly at the dual point c of stage s and move it from its anchor to the anchor of stage s
    (the old one released when no gene holds it any more). Returns n_free."""
    _eval_gene(Xt, g, c, wst, cst)
    rst[g] = np.sqrt(cst[g])
    return _move_anchor(g, s, gene_anc, anc_slot, anc_ref, free, n_free)


@njit(cache=True, inline="always")
def _set_key(g, rst, base, xnorm, key):
    """The scan's one-number test of gene g (see ``_rfe_kernel``): key[g] = sqrt(c_g) / |x_g| - base[g] (1 + 1e-9),
    lowered by 1e-14 of its terms for rounding (-inf for a zero gene, which is never skipped)."""
    if xnorm[g] > 0.0:
        r = rst[g] / xnorm[g]
        key[g] = r - base[g] * (1.0 + 1e-9) - 1e-14 * (r + abs(base[g]))
    else:
        key[g] = -np.inf


@njit(cache=True)
def _eval_pool(Xp, pg, n_pool, c, wst, cst, rst):
    """:func:`_eval_gene` for the genes ``pg[:n_pool]`` of the candidate pool, whose rows are copied contiguously in
    ``Xp``: four genes at a time (independent sums, so the processor overlaps them), each summed in the order of
    :func:`_dot_row` from the same products, so every value is the one :func:`_eval_gene` gives, bit for bit."""
    n = Xp.shape[1]
    M = c.shape[0]
    p = 0
    while p + 4 <= n_pool:
        a0 = 0.0
        a1 = 0.0
        a2 = 0.0
        a3 = 0.0
        for m in range(M):
            s0 = 0.0
            s1 = 0.0
            s2 = 0.0
            s3 = 0.0
            for i in range(n):
                ci = c[m, i]
                s0 += ci * Xp[p, i]
                s1 += ci * Xp[p + 1, i]
                s2 += ci * Xp[p + 2, i]
                s3 += ci * Xp[p + 3, i]
            wst[pg[p], m] = s0
            wst[pg[p + 1], m] = s1
            wst[pg[p + 2], m] = s2
            wst[pg[p + 3], m] = s3
            a0 += s0 * s0
            a1 += s1 * s1
            a2 += s2 * s2
            a3 += s3 * s3
        cst[pg[p]] = a0
        cst[pg[p + 1]] = a1
        cst[pg[p + 2]] = a2
        cst[pg[p + 3]] = a3
        p += 4
    for q in range(p, n_pool):
        acc = 0.0
        for m in range(M):
            w = 0.0
            for i in range(n):
                w += c[m, i] * Xp[q, i]
            wst[pg[q], m] = w
            acc += w * w
        cst[pg[q]] = acc
    for q in range(n_pool):
        rst[pg[q]] = np.sqrt(cst[pg[q]])


@njit(cache=True)
def _shrink_pool(Xp, pg, n_pool, in_pool, rst, xnorm, ref):
    """Keep the half of the candidate pool nearest to the current minimum (``ref`` = its square root), measured in
    the distance the dual point must travel to bring a gene down to it, (sqrt(c_g) - ref) / |x_g|. Returns the new
    size."""
    key = np.empty(n_pool)
    for q in range(n_pool):
        g = pg[q]
        key[q] = (rst[g] - ref) / xnorm[g] if xnorm[g] > 0.0 else -np.inf
    cut = np.sort(key)[n_pool // 2]
    m = 0
    for q in range(n_pool):
        g = pg[q]
        if key[q] < cut:
            pg[m] = g
            Xp[m] = Xp[q]
            m += 1
        else:
            in_pool[g] = False
    return m


@njit(cache=True)
def _rfe_kernel(Xt, Y, C, tol, max_iter, n_remove, polish, lazy, min_share, pool_cap):
    """Run SVM-RFE with M machines on one Gram matrix. Xt is genes x samples (C order), Y (M, n) their labels in
    {-1., +1.} (M = 1: the binary SVM; M = K: the K one-vs-rest machines), n_remove the schedule.

    The criterion of gene g is c_g = sum_k w_kg^2 over the machines (Guyon's w_g^2 for one machine; see
    :class:`SVMRFE` for K classes). Returns (eliminated, final_rows, final_w, alphas, rhos, n_iters, gaps, n_dots,
    n_anchor): ``eliminated`` lists genes in elimination order (within a stage by increasing criterion, ties by
    lower index), ``final_rows`` the survivors (ascending index), ``final_w`` (n_final, M) their weights in the
    last machines, ``alphas[s, k]``/``rhos[s, k]`` machine k trained at stage s (s = n_stages is the final one on
    the survivors), ``n_dots`` the number of gene evaluations (each M products x_g . c_k), ``n_anchor`` the number
    of exact distances between two dual points (each as costly as one gene evaluation).

    One-gene stages find the exact argmin of c_g lazily (``lazy=False``: every gene evaluated at every stage, the
    brute force the tests compare with). Write C_s = [c_1 ... c_M] (c_k = a_k * y_k) for the dual point of stage
    s. A gene evaluated at stage t keeps its weights (w_1g, ..., w_Mg) = x_g^T C_t; by Cauchy-Schwarz they have
    moved by at most |x_g| ||C_s - C_t||_F since, and so has sqrt(c_g). The genes evaluated at one stage t share
    an *anchor*: C_t kept in memory, with an upper bound u_t >= ||C_s - C_t||_F made of the distance computed
    exactly at some stage r (at most one O(n M) sum, shared by every gene of the anchor) plus the path length
    sum_{r < q <= s} ||C_q - C_{q-1}||_F walked since. Along the elimination the dual point moves like a random
    walk (its distance after L stages grows like sqrt(L), the path length like L: measured ratio 7-50 on
    Chowdary), so refreshing an anchor's distance on demand certifies most of its genes without evaluating them.
    A gene is skipped when its lower bound exceeds the best exact value found so far; otherwise its anchor's
    distance is refreshed (if stale and shared) and the bound tried again; only then is the gene recomputed from
    scratch, so every compared value is an exact x_g . c_k and the argmin (ties by lower index) is the brute
    force's, bit for bit. Chunk stages compute every weight.

    Scan: a gene's bound, rearranged as key[g] = sqrt(c_g) / |x_g| - base[g] > path[s] + slack + sqrt(best) /
    min_g |x_g| (margins for rounding inside), is one comparison per gene (:func:`_set_key`); the full test runs
    only where it fails (on standardised genes, all of the same norm, it loses nothing). A priority queue on the
    key instead of the scan was tried and was slower (thousands of genes pass the threshold per stage on Chowdary).

    Candidate pool: a gene whose bound failed is near the minimum and will fail again soon, so its row is copied
    into a contiguous pool of at most ``pool_cap`` genes, all evaluated at the start of every one-gene stage, four
    at a time from cache (:func:`_eval_pool`, the same sums bit for bit) instead of one scattered row each; a full
    pool keeps its half nearest to the minimum. ``min_share``: an anchor is refreshed only if at least that many
    genes hold it (with one gene, evaluating it costs the same). Cost on Chowdary (83 x 22,283, C = 1/d): the
    gene evaluations from memory fall from 5.6M to 0.3M and 0.5M anchor refreshes, plus 7.8M pool evaluations
    from cache; CPU 1.3-1.4x less than the path-length bounds alone on Chowdary, Gordon and Borovecki, none on
    Alon's 2,000 genes (benchmarks/bench_svmrfe_onestep.py). What remains is spread evenly over the solves, the
    scan, the pool and the scattered evaluations.
    """
    d, n = Xt.shape
    M = Y.shape[0]
    n_stages = n_remove.shape[0]
    n_elim = 0
    for s in range(n_stages):
        n_elim += n_remove[s]
    rows = np.arange(d)
    n_rem = d
    K = gram_rows(Xt, rows)
    xnorm = np.empty(d)
    for g in range(d):
        acc = 0.0
        for i in range(n):
            acc += Xt[g, i] * Xt[g, i]
        xnorm[g] = np.sqrt(acc)
    wst = np.zeros((d, M))
    cst = np.zeros(d)
    rst = np.zeros(d)  # sqrt(cst), for the bounds
    base = np.zeros(d)  # base[g] + path[s] >= ||C_s - C_a||_F for the anchor a of gene g (looser than the anchor's)
    key = np.zeros(d)  # _set_key
    xmin = np.inf  # the smallest norm of a non-zero gene
    for g in range(d):
        if 0.0 < xnorm[g] < xmin:
            xmin = xnorm[g]
    # anchors (indexed by stage): the slot of their dual point in ``pool``, exact distance anc_dist to the dual
    # point of stage anc_at, number of genes holding them; path[s]: path length of the dual point up to stage s
    gene_anc = np.zeros(d, dtype=np.int64)
    anc_slot = np.full(n_stages + 1, -1, dtype=np.int64)
    anc_dist = np.zeros(n_stages + 1)
    anc_at = np.zeros(n_stages + 1, dtype=np.int64)
    anc_ref = np.zeros(n_stages + 1, dtype=np.int64)
    path = np.zeros(n_stages + 1)
    pool = np.empty((64, M, n))
    free = np.empty(2 * d + 130, dtype=np.int64)  # the pool never holds more than 2 (d + 1) + 64 slots
    for q in range(64):
        free[q] = 63 - q
    n_free = np.int64(64)  # typed, as n_pool: bare constants would compile the callees once more
    # candidate pool: genes near the minimum, rows copied contiguously, evaluated at every one-gene stage
    pcap = max(4, min(pool_cap, d // 16))
    pg = np.empty(pcap, dtype=np.int64)
    Xp = np.empty((pcap, n))
    in_pool = np.zeros(d, dtype=np.bool_)
    n_pool = np.int64(0)
    alpha = np.zeros((M, n))
    c = np.zeros((M, n))
    c_old = np.zeros((M, n))
    last_refresh = d
    eliminated = np.empty(n_elim, dtype=np.int64)
    alphas = np.zeros((n_stages + 1, M, n))
    rhos = np.zeros((n_stages + 1, M))
    n_iters = np.zeros((n_stages + 1, M), dtype=np.int64)
    gaps = np.zeros((n_stages + 1, M))
    n_dots = 0
    n_anchor = 0
    pos = 0
    alive = np.ones(d, dtype=np.bool_)
    hint = np.int64(-1)  # typed: a bare -1 would compile _eval_gene and _dot_row once more
    for s in range(n_stages + 1):
        cur = rows[:n_rem]
        for m in range(M):
            G, it, gap = _warm_solve(K, Y[m], C, alpha[m], s > 0 and polish, tol, max_iter)
            alphas[s, m, :] = alpha[m]
            rhos[s, m] = rho(Y[m], C, alpha[m], G)
            n_iters[s, m] = it
            gaps[s, m] = gap
        step2 = 0.0
        cn2 = 0.0
        for m in range(M):
            for i in range(n):
                c[m, i] = alpha[m, i] * Y[m, i]
                step2 += (c[m, i] - c_old[m, i]) ** 2
                cn2 += c[m, i] * c[m, i]
                c_old[m, i] = c[m, i]
        if s > 0:
            path[s] = path[s - 1] + np.sqrt(step2)
        # rounding: of the weights (n products: far below 1e-12 |C_s|), of the path's running sum and of the
        # distances (relative 1e-9 of what is added, 1e-15 of the whole path)
        slack = 1e-12 * np.sqrt(cn2) + 1e-15 * path[s]
        k = n_remove[s] if s < n_stages else 0
        # the anchor of this stage (its slot taken here, outside the gene loops, where the pool may grow)
        pool, n_free, slot = _new_anchor(pool, free, n_free, c)
        anc_slot[s] = slot
        anc_at[s] = s
        anc_dist[s] = 0.0
        if s == n_stages or k > 1 or s == 0 or not lazy:
            # exact weights for every survivor, all on the anchor of this stage
            for t in range(n_rem):
                g = cur[t]
                _eval_gene(Xt, g, c, wst, cst)
                rst[g] = np.sqrt(cst[g])
                base[g] = -path[s]
                _set_key(g, rst, base, xnorm, key)
                if s > 0:
                    n_free = _drop_ref(gene_anc[g], anc_ref, anc_slot, free, n_free)
                gene_anc[g] = s
            anc_ref[s] = n_rem
            n_dots += n_rem
        if s == n_stages:
            break
        keep = np.ones(n_rem, dtype=np.bool_)
        removed = np.empty(k, dtype=np.int64)
        if k == 1:
            # one pass; start from the runner-up of the previous stage (evaluated exactly), whose criterion is
            # usually still among the smallest, so that most genes are skipped by their bound
            best = np.inf
            best_g = -1
            if n_pool > 0 and s > 0:
                _eval_pool(Xp, pg, n_pool, c, wst, cst, rst)
                n_dots += n_pool
                for q in range(n_pool):
                    g = pg[q]
                    base[g] = -path[s]
                    _set_key(g, rst, base, xnorm, key)
                    if gene_anc[g] != s:
                        n_free = _move_anchor(g, s, gene_anc, anc_slot, anc_ref, free, n_free)
                    v = cst[g]
                    if v < best or (v == best and g <= best_g):
                        best = v
                        best_g = g
            if hint >= 0 and alive[hint]:
                if gene_anc[hint] != s:
                    n_free = _reevaluate(Xt, hint, c, wst, cst, rst, gene_anc, anc_slot, anc_ref, free, n_free, s)
                    base[hint] = -path[s]
                    _set_key(hint, rst, base, xnorm, key)
                    n_dots += 1
                if cst[hint] < best or (cst[hint] == best and hint <= best_g):
                    best = cst[hint]
                    best_g = hint
            second = np.inf
            second_g = -1
            best_t = -1
            # the one-number test: gene g's bound exceeds sqrt(best) if key[g] > T (|x_g| >= xmin, rounding inside)
            T = (path[s] * (1.0 + 1e-9) + slack + np.sqrt(best) / xmin) * (1.0 + 1e-14)
            for t in range(n_rem):
                g = cur[t]
                if key[g] > T:
                    continue
                # fast test with the gene's own (possibly loose) offset: U = base[g] + path[s] >= ||C_s - C_a||
                lb = rst[g] - xnorm[g] * ((base[g] + path[s]) * (1.0 + 1e-9) + slack)
                if lb > 0.0 and lb * lb > best:
                    continue
                a = gene_anc[g]
                if a != s:
                    # the anchor's offset (tighter if it was refreshed since the gene last looked)
                    base[g] = anc_dist[a] - path[anc_at[a]]
                    _set_key(g, rst, base, xnorm, key)
                    lb = rst[g] - xnorm[g] * ((base[g] + path[s]) * (1.0 + 1e-9) + slack)
                    if lb > 0.0 and lb * lb > best:
                        continue
                    if anc_at[a] != s and anc_ref[a] >= min_share:
                        # refresh the anchor's distance exactly (one sum for all its genes) and try again
                        sl = anc_slot[a]
                        acc = 0.0
                        for m in range(M):
                            for i in range(n):
                                acc += (c[m, i] - pool[sl, m, i]) ** 2
                        anc_dist[a] = np.sqrt(acc)
                        anc_at[a] = s
                        n_anchor += 1
                        base[g] = anc_dist[a] - path[s]
                        _set_key(g, rst, base, xnorm, key)
                        lb = rst[g] - xnorm[g] * (anc_dist[a] * (1.0 + 1e-9) + slack)
                        if lb > 0.0 and lb * lb > best:
                            continue
                    n_free = _reevaluate(Xt, g, c, wst, cst, rst, gene_anc, anc_slot, anc_ref, free, n_free, s)
                    base[g] = -path[s]
                    _set_key(g, rst, base, xnorm, key)
                    n_dots += 1
                    if not in_pool[g]:  # a gene near the minimum: into the candidate pool
                        if n_pool == pcap:
                            n_pool = _shrink_pool(Xp, pg, n_pool, in_pool, rst, xnorm,
                                                  np.sqrt(min(best, cst[g])))
                        pg[n_pool] = g
                        Xp[n_pool] = Xt[g]
                        in_pool[g] = True
                        n_pool += 1
                v = cst[g]
                if v < best or (v == best and g <= best_g):
                    if g != best_g:
                        second = best
                        second_g = best_g
                    best = v
                    best_g = g
                    best_t = t
                    T = (path[s] * (1.0 + 1e-9) + slack + np.sqrt(best) / xmin) * (1.0 + 1e-14)
                elif g != best_g and (v < second or (v == second and g < second_g)):
                    second = v
                    second_g = g
            hint = second_g
            keep[best_t] = False
            removed[0] = cur[best_t]
            alive[cur[best_t]] = False
        else:
            crit = np.empty(n_rem)
            for t in range(n_rem):
                crit[t] = cst[cur[t]]
            order = np.argsort(crit, kind="mergesort")
            for q in range(k):
                keep[order[q]] = False
                removed[q] = cur[order[q]]
                alive[cur[order[q]]] = False
            hint = np.int64(-1)  # typed: a bare -1 would compile _eval_gene and _dot_row once more
        for q in range(k):
            eliminated[pos] = removed[q]
            pos += 1
            if in_pool[removed[q]]:  # and leave the pool
                in_pool[removed[q]] = False
                for p in range(n_pool):
                    if pg[p] == removed[q]:
                        n_pool -= 1
                        pg[p] = pg[n_pool]
                        Xp[p] = Xp[n_pool]
                        break
            # the removed genes let go of their anchors (this stage's is decided below)
            n_free = _drop_ref(gene_anc[removed[q]], anc_ref, anc_slot, free, n_free, s)
        if anc_ref[s] == 0:  # no gene evaluated at this stage: its anchor is not kept
            n_free = _release(s, anc_slot, free, n_free)
        # compact the survivors (keeps ascending index order)
        m2 = 0
        for t in range(n_rem):
            if keep[t]:
                rows[m2] = cur[t]
                m2 += 1
        n_rem = m2
        if 2 * n_rem <= last_refresh:
            last_refresh = n_rem
            K = gram_rows(Xt, rows[:n_rem])
        else:
            add_gram_rows(K, Xt, removed, -1.0)
    final_rows = rows[:n_rem].copy()
    final_w = np.empty((n_rem, M))
    for t in range(n_rem):
        for m in range(M):
            final_w[t, m] = wst[final_rows[t], m]
    return eliminated, final_rows, final_w, alphas, rhos, n_iters, gaps, n_dots, n_anchor


def _rfe_path(Xt, y, C, tol, max_iter, n_remove, polish=True, lazy=True, min_share=2, pool_cap=512):
    """Run SVM-RFE (:func:`_rfe_kernel`, the numba loop). ``y``: the binary labels (n,) in {-1., +1.}, or (M, n)
    label rows of M machines (the one-vs-rest problems of K classes). ``lazy=False``: every gene evaluated at every
    stage (the brute force; the same result bit for bit, at O(n d^2) cost).

    Returns (eliminated, final_rows, final_w, alphas, rhos, n_iters, gaps, n_dots, n_anchor) as the kernel; for
    binary ``y`` with the machine axis dropped (``final_w`` (n_final,), ``alphas`` (n_stages + 1, n), ``rhos``,
    ``n_iters``, ``gaps`` (n_stages + 1,)): the signed weights and the single SVM of Guyon et al.
    """
    y = np.asarray(y, dtype=np.float64)
    Y = np.ascontiguousarray(y[None, :] if y.ndim == 1 else y)
    out = _rfe_kernel(Xt, Y, C, tol, max_iter, np.asarray(n_remove, dtype=np.int64), polish, lazy, min_share,
                      pool_cap)
    if y.ndim == 2:
        return out
    eliminated, final_rows, final_w, alphas, rhos, n_iters, gaps, n_dots, n_anchor = out
    return (eliminated, final_rows, final_w[:, 0].copy(), np.ascontiguousarray(alphas[:, 0]), rhos[:, 0].copy(),
            n_iters[:, 0].copy(), gaps[:, 0].copy(), n_dots, n_anchor)


# ----------------------------------------------------------------------------------------------------------------
# estimator
# ----------------------------------------------------------------------------------------------------------------


class SVMRFE(SelectorBase):
    """SVM-RFE gene selection (Guyon et al. 2002) with a linear SVM with bias, trained in the dual; with K > 2
    classes the K one-vs-rest SVMs and the criterion sum_k w_ki^2 (module docstring).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1) or None, default None
        Genes to keep (None: half, as sklearn's RFE; a float is a fraction of the genes). Use 1 for a full
        ranking. More genes than there are selects all of them (the rule of every genesel selector).
    step : int, float in (0, 1) or "halving", default 1
        Genes removed per stage: a number, a fraction of the initial number (as sklearn's RFE), or Guyon's chunks.
    C : float, default 1.0
        SVM box constraint (``np.inf``: hard margin), in the units of X as ``LinearSVM``'s; the elimination runs
        in data-relative units (X times a power of two, exact), so data near 1e200 or 1e-300 work.
    tol : float, default 1e-8
        SMO stopping tolerance at every stage. RFE amplifies solver error (a near-tie in w_i^2 flips with the
        solution), so keep this tight when rankings are compared.
    max_iter : int or None
        SMO iteration cap per stage.

    Attributes
    ----------
    ranking_ : (n_features,) int, 1 for the selected genes, larger for earlier-eliminated ones (sklearn's RFE
        convention: genes removed in the same stage share a rank).
    support_ : (n_features,) bool mask of the selected genes.  n_features_ : number selected.
    feature_order_ : (n_features,) all genes best first: survivors by decreasing final w_i^2, then the eliminated
        genes in reverse order of elimination (within a stage by decreasing w_i^2).
    subset_sizes_ : (n_stages + 1,) sizes of the nested subsets visited, largest first. The subset of size
        ``subset_sizes_[s]`` is ``feature_order_[:subset_sizes_[s]]`` (see :meth:`subset`).
    stage_alpha_ : (n_stages + 1, n_samples) dual solution of the SVM trained on each visited subset;
        ``stage_intercept_`` the matching biases (use :meth:`decision_function_path` to score every subset).
    estimator_ : LinearSVM fitted on the selected genes (warm-started from the last stage, so no extra work).
    coef_ : (1, n_features_) weights of ``estimator_``.
    n_iter_ : total SMO iterations;  stage_n_iter_ : per stage.
    stage_converged_ : (n_stages + 1,) bool, whether each stage's SVM reached ``tol``: False where its solve stopped at
        ``max_iter`` or, with ``C=inf``, where the training samples proved not separable on that stage's genes
        (the hard-margin dual unbounded, :func:`genesel._core.smo.separation_refuted`).
    n_weight_evaluations_ : gene weights computed (each x_g . (a * y) per machine; every gene at every stage would
        be d (d + 1) / 2 with one gene per step);  n_anchor_refreshes_ : distances between two dual points computed
        for the lazy argmin (each as costly as one weight).
    classes_ : the labels. With K > 2 classes every per-machine array gains a class axis: ``stage_alpha_``
        (n_stages + 1, K, n_samples), ``stage_intercept_``, ``stage_n_iter_`` and ``stage_converged_``
        (n_stages + 1, K), ``coef_`` (K, n_features_), ``intercept_`` (K,), and :meth:`decision_function_path` gives
        (n_stages + 1, n_samples, K).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import SVMRFE, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> rfe = SVMRFE(n_features_to_select=4, step="halving").fit(X, y)
    >>> np.flatnonzero(rfe.support_).tolist(), rfe.subset_sizes_.tolist()
    ([0, 2, 3, 74], [100, 64, 32, 16, 8, 4])
    >>> rfe.ranking_[:8].tolist()                                   # 1 = selected; larger = dropped earlier
    [1, 2, 1, 1, 5, 5, 5, 5]
    >>> rfe.transform(X).shape
    (40, 4)

    Selection belongs inside the cross-validation (selecting on all the samples first biases the accuracy upwards):

    >>> pipe = make_pipeline(SVMRFE(n_features_to_select=4, step="halving"), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.88
    """

    _parameter_constraints = {"n_features_to_select": N_FEATURES, "step": STEP, "C": [POSITIVE_OR_INF],
                              "tol": [POSITIVE], "max_iter": [POSITIVE_INT, None]}
    _multi_class = True  # K > 2 classes: one-vs-rest machines, criterion sum_k w_ki^2 (module docstring)

    def __init__(self, *, n_features_to_select=None, step=1, C=1.0, tol=1e-8, max_iter=None):
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.C = C
        self.tol = tol
        self.max_iter = max_iter

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, min_samples=2)
        multi = self.classes_.size > 2
        n, d = X.shape
        k = self._n_select(d, max(1, d // 2))  # None: half the genes, as scikit-learn's RFE
        schedule = elimination_schedule(d, k, self.step)
        max_iter = self.max_iter if self.max_iter is not None else max(10_000_000, 100 * n)
        # data-relative units (exact): X' = 2^e X, C' = C / 4^e, the same SVMs (see genesel.svm)
        e = e1 = unit_row_exponent(X)
        Xs = scale_pow2(X, e)
        # far from the origin (issue 25) the data are centred, as LinearSVM does: the SVMs have a bias
        x_mean, e2 = far_offset_centre(Xs), 0
        if x_mean is not None:
            e2 = unit_row_exponent(Xs - x_mean, safe=0)
            Xs, e = scale_pow2(Xs - x_mean, e2), e1 + e2
        C_scaled = in_x_units(float(self.C), -2 * e)
        if not C_scaled > 0:
            raise ValueError(negligible_C_message(type(self).__name__, self.C, linear_gram(Xs), 2 * e))
        Xt = np.ascontiguousarray(Xs.T)
        # binary: Guyon's single SVM; K > 2 classes: the K one-vs-rest machines, criterion sum_k w_k^2
        yf = ovr_signs(y_enc, self.classes_.size) if multi else y_enc.astype(np.float64)
        eliminated, final_rows, final_w, alphas, rhos, n_iters, gaps, n_dots, n_anchor = _rfe_path(
            Xt, yf, C_scaled, float(self.tol), int(max_iter), schedule
        )
        per_stage = gaps.reshape(gaps.shape[0], -1)  # (stages, machines)
        capped = (per_stage >= self.tol) & np.isfinite(per_stage)
        unbounded = np.isinf(per_stage)  # hard margin: the solve stopped where the dual proved unbounded
        if np.any(capped):
            warnings.warn(
                f"SVM-RFE: SMO hit max_iter at {int(np.sum(np.any(capped, axis=1)))} stage(s) (largest KKT gap "
                f"{per_stage[capped].max():.3g} > tol={self.tol}); increase max_iter or use a finite C",
                ConvergenceWarning,
                stacklevel=2,
            )
        if np.any(unbounded):
            warnings.warn(
                f"SVM-RFE: at {int(np.sum(np.any(unbounded, axis=1)))} stage(s) (the last, with the fewest genes) "
                f"{UNBOUNDED_DUAL}, so the hard-margin SVM does not exist there and the order of "
                "those genes rests on unfinished solves; use a finite C",
                ConvergenceWarning,
                stacklevel=2,
            )
        support = np.zeros(d, dtype=bool)
        support[final_rows] = True
        ranking = np.ones(d, dtype=np.int64)
        # sklearn convention: at each stage every gene not yet selected-for-keeping gets +1
        pos = 0
        n_stages = schedule.shape[0]
        stage_of = np.empty(d, dtype=np.int64)
        stage_of[final_rows] = n_stages
        for s, r in enumerate(schedule):
            stage_of[eliminated[pos : pos + r]] = s
            pos += r
        ranking = 1 + (n_stages - stage_of)
        # feature order: survivors by decreasing w^2 (K classes: sum_k w_k^2), then eliminated genes last-eliminated
        # first
        final_crit = np.sum(final_w**2, axis=1) if multi else final_w**2
        surv = final_rows[np.argsort(-final_crit, kind="stable")]
        self.feature_order_ = np.concatenate([surv, eliminated[::-1]]).astype(np.int64)
        self.subset_sizes_ = np.concatenate([[d], d - np.cumsum(schedule)]).astype(np.int64)
        self.support_ = support
        self.ranking_ = ranking
        self.n_features_ = int(support.sum())
        self.stage_alpha_ = in_x_units(alphas, 2 * e)
        self._stage_alpha_scaled = alphas
        self.stage_intercept_ = -rhos
        self._units, self._stage_b = (e1, x_mean, e2), -rhos
        if x_mean is not None:  # the biases of x . w in the units of X (centred: b - w' . 2^e2 mean)
            self.stage_intercept_, shift = -rhos.copy(), scale_pow2(x_mean, e2)
            for s, size in enumerate(self.subset_sizes_):
                g = self.subset(int(size))
                if multi:  # one bias per machine
                    self.stage_intercept_[s] -= linear_gram(alphas[s] * yf, Xs[:, g].T) @ shift[g]
                    continue
                self.stage_intercept_[s] -= float(linear_gram((alphas[s] * yf)[None, :], Xs[:, g].T)[0] @ shift[g])
        self.stage_n_iter_ = n_iters
        self.stage_converged_ = gaps < self.tol
        self.n_weight_evaluations_ = int(n_dots)
        self.n_anchor_refreshes_ = int(n_anchor)
        self.n_iter_ = int(n_iters.sum())
        self._X_fit_scaled = Xs
        self._x_exp = e
        self._y_fit = yf
        est = LinearSVM(C=self.C, tol=self.tol, max_iter=self.max_iter)
        # warm start from the last stage's solution; after millions of hard-margin SMO steps on a non-separable
        # stage its y^T a can have drifted by rounding beyond solve_dual's tolerance for user input (seen: 1e-5 of
        # sum(a) on a Colon leave-one-out fold), so the start is repaired, whatever the drift
        if multi:
            start = np.array([restore_equality(alphas[-1, m].copy(), yf[m], max_drift=None)
                              for m in range(yf.shape[0])])
        else:
            start = restore_equality(alphas[-1].copy(), yf, max_drift=None)
        est._fit(X[:, support], y, alpha0=start, alpha0_exp2=2 * e, who="SVMRFE (its final LinearSVM)")
        self.estimator_ = est
        self.coef_ = est.coef_
        self.intercept_ = est.intercept_
        return self

    def _visited_sizes(self):
        return self.subset_sizes_

    def iter_subsets(self):
        """Yield ``(size, indices)`` for every nested subset visited, largest first."""
        for size in self.subset_sizes_:
            yield int(size), self.subset(int(size))

    def decision_function_path(self, X):
        """Decision values on ``X`` of the SVM trained on each visited subset: array (n_stages + 1, n_samples), or
        (n_stages + 1, n_samples, K) with K > 2 classes (the K one-vs-rest machines, ``LinearSVM``'s columns).

        Row s is the SVM that RFE trained on the ``subset_sizes_[s]`` genes ``subset(subset_sizes_[s])``
        (the same model a refit on those genes gives, up to the SMO tolerance).
        """
        check_is_fitted(self, "stage_alpha_")
        e1, x_mean, e2 = self._units
        X = scale_pow2(validate_data(self, X, dtype=np.float64, reset=False), e1)  # data-relative units
        if x_mean is not None:
            X = scale_pow2(X - x_mean, e2)
        if self._y_fit.ndim == 2:
            out = np.empty((self.subset_sizes_.size, X.shape[0], self._y_fit.shape[0]))
            for s, size in enumerate(self.subset_sizes_):
                g = self.subset(int(size))
                w = linear_gram(self._stage_alpha_scaled[s] * self._y_fit, self._X_fit_scaled[:, g].T)  # (K, |g|)
                out[s] = linear_gram(X[:, g], w) + self._stage_b[s]
            return out
        out = np.empty((self.subset_sizes_.size, X.shape[0]))
        for s, size in enumerate(self.subset_sizes_):
            g = self.subset(int(size))
            c = self._stage_alpha_scaled[s] * self._y_fit
            w = linear_gram(c[None, :], self._X_fit_scaled[:, g].T)  # (1, n) @ (n, |g|), BLAS-free
            out[s] = linear_gram(X[:, g], w)[:, 0] + self._stage_b[s]
        return out
