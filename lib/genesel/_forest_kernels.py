"""The numba kernels of :mod:`genesel.forest`: Breiman's random forest (L. Breiman, *Random forests*, Machine
Learning 45:5-32, 2001) of Gini CART trees (Breiman, Friedman, Olshen & Stone, *Classification and Regression
Trees*, 1984), written from those definitions for few samples and many genes.

The method, as grown here:

- every tree is grown on a bootstrap sample of the n training samples (n draws with replacement), the multiplicity
  of each sample its weight; samples not drawn are the tree's out-of-bag samples; with groups of samples (a
  patient's samples), a cluster bootstrap: U draws with replacement among the U groups, each draw adding 1 to the
  multiplicity of every member of the group drawn, so a group is in the bag or out of it whole (each sample its own
  group: the same draws as the plain bootstrap, bit for bit);
- at each node ``mtry`` genes are drawn without replacement by a partial Fisher-Yates shuffle of one gene
  permutation per tree (each node continues from the permutation the previous node left, which is as uniform as a
  fresh one); a gene constant on the node's samples counts as drawn but offers no split, and when every gene drawn
  so far is constant the drawing goes on until a non-constant gene is found or none is left;
- for every drawn gene, every split between two consecutive distinct values of the node's samples (values that are
  equal in float32 are one value: the tolerance is float32's rounding, a relative 2^-24) is scored by the weighted
  Gini decrease ``W G(node) - W_L G(L) - W_R G(R)`` with ``W G = W - (w_0^2 + ... + w_{K-1}^2) / W`` (w_c: the weight
  of class c, W = w_0 + ... + w_{K-1}; Gini's impurity 1 - sum_c p_c^2 of K classes, Breiman et al. 1984 §4.3,
  weighted by the node's weight); the largest decrease wins, ties to the first in drawing order, then to the smaller
  threshold;
  the threshold is the midpoint of the two values (float64), samples with ``x <= threshold`` go left;
- a node is a leaf when it is pure (one class has all its weight), has one distinct sample, or no drawn gene can split
  it (min leaf 1, no depth limit); a leaf stores its K class fractions;
- the tree's Gini importance of a gene is the sum of the weighted decreases of its splits, normalised to sum 1 over
  the genes (plain sums in node order); the forest averages over the trees that split;
- out-of-bag: every tree adds its leaf's class fractions to the samples it did not draw;
- on request, Breiman's permutation importance: per tree and per gene it splits on, the drop in the accuracy of the
  tree's votes on its out-of-bag samples when the gene's values are permuted among them (the importance varSelRF
  ranks genes by, Díaz-Uriarte & Alvarez de Andrés 2006); its permutations are drawn after the tree is grown.

Random numbers: the per-tree seeds are drawn outside (numpy, :func:`genesel.forest.grow_forest`); inside a tree
SplitMix64 (G. L. Steele, D. Lea, C. H. Flood, *Fast splittable pseudorandom number generators*, OOPSLA 2014: a
Weyl sequence of increment 0x9E3779B97F4A7C15 through a 64-bit mixing function) seeded with the tree's seed draws
the bootstrap sample and then the genes; an integer below k < 2^32 is the top 32 bits of a draw times k, shifted
right by 32 (D. Lemire's multiply-shift, ACM TOMACS 29, 2019, without its rejection step: a bias below k / 2^32).

Speed: every gene is sorted once over the training samples (:func:`genesel.forest.presort`, reused by every
forest of the backward elimination, whose genes are subsets), stored in small integer types (uint8 up to 255
samples) with the dense rank of each sorted value, so "equal" is "same rank"; a node collects its samples in a
gene's order by one branch-free pass over the gene's n presorted samples (O(n) per gene and node instead of a
sort); node arrays grow as needed; the selector's forests keep no nodes, only importances and out-of-bag votes.

Any number of classes K >= 2: the class sums are arrays of K (class index 0 .. K - 1 per sample); every sum is over
the same values in the same order as the two-class kernels were, so two classes grow the same trees bit for bit.

Every kernel works on arrays only; plain-Python twins in ``tests/naive/forest.py``. Not public API.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["splitmix64", "below", "bootstrap_counts", "grow_tree", "grow_forest", "predict_forest"]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True)
def splitmix64(rs):
    """The next 64-bit output of SplitMix64 (Steele, Lea & Flood 2014) whose state is ``rs[0]`` (uint64[1])."""
    z = rs[0] + _GAMMA
    rs[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def below(rs, k):
    """An integer in [0, k) (0 < k < 2^32): the top 32 bits of a SplitMix64 draw times k, over 2^32."""
    return np.int64(((splitmix64(rs) >> _S32) * np.uint64(k)) >> _S32)


@njit(cache=True)
def bootstrap_counts(rs, n, bootstrap, counts, unit_start, unit_members):
    """Multiplicities of the n samples in a bootstrap sample of units, in ``counts`` (all ones without
    ``bootstrap``): U draws with replacement among the U units (``below(rs, U)`` each), every draw adding 1 to each
    member of the unit drawn. The units in CSR form: the members of unit u are
    ``unit_members[unit_start[u]:unit_start[u + 1]]`` (int64). One sample per unit (``unit_start = arange(n + 1)``,
    ``unit_members = arange(n)``): n draws with replacement among the n samples."""
    for i in range(n):
        counts[i] = 0.0 if bootstrap else 1.0
    if bootstrap:
        U = unit_start.shape[0] - 1
        for _ in range(U):
            u = below(rs, U)
            for j in range(unit_start[u], unit_start[u + 1]):
                counts[unit_members[j]] += 1.0


@njit(cache=True)
def grow_tree(vals, order, rank, Xg, y, w, mtry, rs, feature, threshold, left, right, value, decrease, samples,
              genes, stamp, stamp0, fi, fs, sc, lc, wk, stack):
    """Grow one tree (module docstring) depth first, left child before right.

    vals, order, rank: the presort (genes x n: sorted float32 values, the sample at each sorted position, the dense
    rank of its value); Xg: genes x n float32; y: class index (0 .. K - 1) per sample; w: bootstrap multiplicity (0:
    not drawn); mtry: genes drawn per node; rs: the SplitMix64 state (uint64[1]). Node arrays (capacity 2n - 1 at
    least): feature (-1 at leaves), threshold, left / right child (-1 at leaves), value (class fractions, rows x K),
    decrease (weighted Gini decrease of the split; 0 at leaves). Work arrays: samples (n), genes (d: the gene
    permutation, any order on entry), stamp (n: node mark per sample; marks start above ``stamp0``), fi, fs (n),
    sc, lc (K: the node's and the left part's class weights), wk (K x n: each sample's weight in its class's row, 0 in
    the others), stack (n + 1, 4). Returns (number of nodes, the last stamp used)."""
    d = vals.shape[0]
    n = vals.shape[1]
    nk = value.shape[1]
    ns = 0
    for i in range(n):
        if w[i] != 0.0:
            samples[ns] = i
            ns += 1
        for c in range(nk):
            wk[c, i] = w[i] if y[i] == c else 0.0
    w0 = wk[0]
    w1 = wk[1]
    # stack rows: start, end (in samples), parent node, 1 for a left child
    stack[0, 0] = 0
    stack[0, 1] = ns
    stack[0, 2] = -1
    stack[0, 3] = 0
    top = 1
    node_count = 0
    cur = stamp0
    while top > 0:
        top -= 1
        start = stack[top, 0]
        end = stack[top, 1]
        parent = stack[top, 2]
        is_left = stack[top, 3]
        for c in range(nk):
            sc[c] = 0.0
        for j in range(start, end):
            i = samples[j]
            sc[y[i]] += w[i]
        wn = 0.0
        ss = 0.0
        n_present = 0
        for c in range(nk):
            wn += sc[c]
            ss += sc[c] * sc[c]
            if sc[c] != 0.0:
                n_present += 1
        node = node_count
        node_count += 1
        if parent >= 0:
            if is_left:
                left[parent] = node
            else:
                right[parent] = node
        for c in range(nk):
            value[node, c] = sc[c] / wn
        left[node] = -1
        right[node] = -1
        feature[node] = -1
        threshold[node] = 0.0
        decrease[node] = 0.0
        if n_present < 2 or end - start < 2:
            continue
        cur += 1
        for j in range(start, end):
            stamp[samples[j]] = cur
        # maximise sum_c l_c^2 / W_L + sum_c r_c^2 / W_R: the decrease plus the node's constant sum_c s_c^2 / W
        best = -1.0
        best_g = -1
        best_thr = 0.0
        k = 0
        n_split = 0  # drawn genes that are not constant on the node
        while k < d and (k < mtry or n_split == 0):
            j = k + below(rs, d - k)
            g = genes[j]
            genes[j] = genes[k]
            genes[k] = g
            k += 1
            # the node's samples in this gene's order (branch-free: every sample written, kept if in the node)
            m = 0
            for q in range(n):
                i = order[g, q]
                fi[m] = i
                fs[m] = q
                m += stamp[i] == cur
            if rank[g, fs[m - 1]] == rank[g, fs[0]]:
                continue  # constant on the node
            n_split += 1
            if nk == 2:
                # two classes: the class sums as two scalars (the K-class loop below gives the same numbers, slower)
                l0 = 0.0
                l1 = 0.0
                s0 = sc[0]
                s1 = sc[1]
                for q in range(m - 1):
                    i = fi[q]
                    l0 += w0[i]
                    l1 += w1[i]
                    a = fs[q]
                    b = fs[q + 1]
                    if rank[g, b] == rank[g, a]:
                        continue
                    r0 = s0 - l0
                    r1 = s1 - l1
                    score = (l0 * l0 + l1 * l1) / (l0 + l1) + (r0 * r0 + r1 * r1) / (r0 + r1)
                    if score > best:
                        best = score
                        best_g = g
                        best_thr = (np.float64(vals[g, a]) + np.float64(vals[g, b])) / 2.0
                continue
            for c in range(nk):
                lc[c] = 0.0
            for q in range(m - 1):
                i = fi[q]
                lc[y[i]] += w[i]
                a = fs[q]
                b = fs[q + 1]
                if rank[g, b] == rank[g, a]:
                    continue
                sl = 0.0
                wl = 0.0
                sr = 0.0
                wr = 0.0
                for c in range(nk):
                    rc = sc[c] - lc[c]
                    sl += lc[c] * lc[c]
                    wl += lc[c]
                    sr += rc * rc
                    wr += rc
                score = sl / wl + sr / wr
                if score > best:
                    best = score
                    best_g = g
                    best_thr = (np.float64(vals[g, a]) + np.float64(vals[g, b])) / 2.0
        if best_g < 0:
            continue  # every gene constant on the node
        feature[node] = best_g
        threshold[node] = best_thr
        decrease[node] = best - ss / wn
        # partition samples[start:end]: x <= threshold to the left (order inside a child never matters)
        a = start
        b = end
        while a < b:
            if Xg[best_g, samples[a]] <= best_thr:
                a += 1
            else:
                b -= 1
                t = samples[a]
                samples[a] = samples[b]
                samples[b] = t
        # right child pushed first: the left one is grown next
        stack[top, 0] = a
        stack[top, 1] = end
        stack[top, 2] = node
        stack[top, 3] = 0
        top += 1
        stack[top, 0] = start
        stack[top, 1] = a
        stack[top, 2] = node
        stack[top, 3] = 1
        top += 1
    return node_count, cur


@njit(cache=True)
def _leaf(feature, threshold, left, right, base, Xg, i):
    """Leaf reached by sample i (column of the genes x samples matrix Xg) in the tree whose root is at ``base``."""
    k = base
    while left[k] >= 0:
        if Xg[feature[k], i] <= threshold[k]:
            k = base + left[k]
        else:
            k = base + right[k]
    return k


@njit(cache=True)
def _leaf_swapped(feature, threshold, left, right, base, Xg, i, g, v):
    """:func:`_leaf` for sample i with its value of gene g replaced by v (the permuted value)."""
    k = base
    while left[k] >= 0:
        x = v if feature[k] == g else Xg[feature[k], i]
        if x <= threshold[k]:
            k = base + left[k]
        else:
            k = base + right[k]
    return k


@njit(cache=True)
def _vote(value, leaf):
    """The class a leaf votes for: its largest class fraction, ties to the smaller class index."""
    best = 0
    for c in range(1, value.shape[1]):
        if value[leaf, c] > value[leaf, best]:
            best = c
    return best


@njit(cache=True)
def _permutation_drops(feature, threshold, left, right, value, base, Xg, y, w, touched, k, rs, oob, perm, out):
    """Breiman's permutation importance of one tree (Breiman 2001, section 10; randomForest's "mean decrease in
    accuracy", unscaled): on the tree's out-of-bag samples (``w == 0``, in index order; whole units under a grouped
    bootstrap, :func:`bootstrap_counts`, with nothing else to do here), the accuracy of the tree's votes minus their
    accuracy after the values of gene g are permuted among those samples, added to ``out[g]`` for every gene the
    tree splits on (``touched[:k]``, in order of first split; the others cannot change a vote: 0).
    Each gene's permutation is a Fisher-Yates shuffle (from the last position down, a swap with ``below(rs, a + 1)``)
    drawn from the tree's generator after the tree is grown, so the trees are those grown without this step."""
    n = w.shape[0]
    m = 0
    for i in range(n):
        if w[i] == 0.0:
            oob[m] = i
            m += 1
    if m == 0:
        return
    right0 = 0
    for a in range(m):
        i = oob[a]
        if _vote(value, _leaf(feature, threshold, left, right, base, Xg, i)) == y[i]:
            right0 += 1
    for j in range(k):
        g = touched[j]
        for a in range(m):
            perm[a] = oob[a]
        for a in range(m - 1, 0, -1):
            b = below(rs, a + 1)
            t = perm[a]
            perm[a] = perm[b]
            perm[b] = t
        right1 = 0
        for a in range(m):
            i = oob[a]
            leaf = _leaf_swapped(feature, threshold, left, right, base, Xg, i, g, Xg[g, perm[a]])
            if _vote(value, leaf) == y[i]:
                right1 += 1
        out[g] += (right0 - right1) / m


@njit(cache=True)
def _grown(a, m, cap):
    """``a`` (first axis) copied into a new array of ``cap`` rows, its first ``m`` rows kept."""
    shape = (cap,) + a.shape[1:]
    b = np.empty(shape, dtype=a.dtype)
    b[:m] = a[:m]
    return b


@njit(cache=True)
def grow_forest(vals, order, rank, Xg, y, n_classes, seeds, mtry, bootstrap, keep_trees, permutation, unit_start,
                unit_members):
    """Grow one tree per seed (module docstring) on class indices ``y`` (0 .. n_classes - 1), each on a bootstrap
    sample of the units ``unit_start``, ``unit_members`` (:func:`bootstrap_counts`; one unit per sample: the plain
    bootstrap), so that a unit's samples are out of bag together (for the out-of-bag votes and the permutation
    importances alike). Returns the forest's nodes stacked tree after tree (``offsets[t]``: first node of tree t;
    children indices relative to it; empty arrays without ``keep_trees``, where each tree's nodes are dropped once
    its importances and out-of-bag votes are counted), the sum over the trees that split of their normalised Gini
    importances and the number of such trees, the out-of-bag sums of class fractions (n x n_classes) with their
    counts, and (zeros unless ``permutation`` and ``bootstrap``) the sum over the trees of their permutation
    importances (:func:`_permutation_drops`)."""
    d = vals.shape[0]
    n = vals.shape[1]
    nk = n_classes
    T = seeds.shape[0]
    per_tree = 2 * n  # at most 2 m - 1 nodes on m distinct samples
    cap = per_tree * min(T, 16) if keep_trees else per_tree
    feature = np.empty(cap, dtype=np.int64)
    threshold = np.empty(cap)
    left = np.empty(cap, dtype=np.int64)
    right = np.empty(cap, dtype=np.int64)
    value = np.empty((cap, nk))
    decrease = np.empty(per_tree)
    offsets = np.zeros(T + 1, dtype=np.int64)
    samples = np.empty(n, dtype=np.int64)
    genes = np.arange(d)
    stamp = np.zeros(n, dtype=np.int64)
    fi = np.empty(n, dtype=np.int64)
    fs = np.empty(n, dtype=np.int64)
    sc = np.empty(nk)
    lc = np.empty(nk)
    wk = np.empty((nk, n))
    stack = np.empty((n + 1, 4), dtype=np.int64)
    rs = np.empty(1, dtype=np.uint64)
    w = np.empty(n)
    imp_sum = np.zeros(d)
    timp = np.zeros(d)
    touched = np.empty(n, dtype=np.int64)  # genes split in the tree (at most n - 1)
    marked = np.zeros(d, dtype=np.bool_)
    oob_sum = np.zeros((n, nk))
    oob_count = np.zeros(n)
    perm_sum = np.zeros(d)
    oob = np.empty(n, dtype=np.int64)
    perm = np.empty(n, dtype=np.int64)
    n_imp_trees = 0
    cur = np.int64(0)  # typed: a bare 0 would compile grow_tree once more (tests/test_jit_signatures.py)
    for t in range(T):
        rs[0] = np.uint64(seeds[t])
        bootstrap_counts(rs, n, bootstrap, w, unit_start, unit_members)
        for g in range(d):
            genes[g] = g
        base = offsets[t] if keep_trees else 0
        if base + per_tree > feature.shape[0]:
            cap = max(2 * feature.shape[0], base + per_tree)
            feature = _grown(feature, base, cap)
            threshold = _grown(threshold, base, cap)
            left = _grown(left, base, cap)
            right = _grown(right, base, cap)
            value = _grown(value, base, cap)
        nc, cur = grow_tree(vals, order, rank, Xg, y, w, mtry, rs, feature[base:], threshold[base:], left[base:],
                            right[base:], value[base:], decrease, samples, genes, stamp, cur, fi, fs, sc, lc,
                            wk, stack)
        offsets[t + 1] = offsets[t] + nc
        # the tree's importances: decreases summed per gene in node order, normalised by their total
        total = 0.0
        k = np.int64(0)  # typed: a bare 0 would compile _permutation_drops once more
        for r in range(nc):
            f = feature[base + r]
            if f >= 0:
                if not marked[f]:
                    marked[f] = True
                    touched[k] = f
                    k += 1
                timp[f] += decrease[r]
                total += decrease[r]
        if total > 0.0:
            n_imp_trees += 1
            for j in range(k):
                imp_sum[touched[j]] += timp[touched[j]] / total
        for j in range(k):
            timp[touched[j]] = 0.0
            marked[touched[j]] = False
        if permutation and bootstrap:
            _permutation_drops(feature, threshold, left, right, value, base, Xg, y, w, touched, k, rs, oob, perm,
                               perm_sum)
        if bootstrap:
            for i in range(n):
                if w[i] == 0.0:
                    leaf = _leaf(feature, threshold, left, right, base, Xg, i)
                    for c in range(nk):
                        oob_sum[i, c] += value[leaf, c]
                    oob_count[i] += 1.0
    m = offsets[T] if keep_trees else 0
    return (feature[:m].copy(), threshold[:m].copy(), left[:m].copy(), right[:m].copy(), value[:m].copy(), offsets,
            imp_sum, n_imp_trees, oob_sum, oob_count, perm_sum)


@njit(cache=True)
def predict_forest(feature, threshold, left, right, value, offsets, Xg):
    """Sum over the trees (in order) of the class fractions of the leaf each sample reaches (Xg: genes x samples,
    float32); divide by the number of trees for the forest's class probabilities."""
    m = Xg.shape[1]
    T = offsets.shape[0] - 1
    nk = value.shape[1]
    out = np.zeros((m, nk))
    for t in range(T):
        for i in range(m):
            leaf = _leaf(feature, threshold, left, right, offsets[t], Xg, i)
            for c in range(nk):
                out[i, c] += value[leaf, c]
    return out
