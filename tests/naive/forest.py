"""Plain-Python twins of the numba kernels in genesel._forest_kernels (slow, literal, for tests only).

Written from the definitions in the kernels' module docstring rather than from their shortcuts: SplitMix64 on
Python integers, each node's samples sorted by value with ``sorted`` (no presort, no ranks, no linear scan, no
sample marks), every left-hand class weight summed afresh, trees as lists of dicts. The split score is the kernels'
sum_c l_c^2 / W_L + sum_c r_c^2 / W_R over the K classes (summed in class order), so that floating-point ties
resolve alike. Comparisons of a float32 value
with a threshold are made in float64, as in the kernels. The grouped bootstrap's units are lists of samples built
from the group labels with a dict and ``sorted`` (not the package's CSR arrays). Agreement bit for bit checks the
kernels' rewriting.

:func:`sklearn_permutation_importance` is the other reference of the permutation importance: the same definition
computed by hand on a fitted scikit-learn forest (other trees, other random numbers), for statistical comparisons
(``tests/test_forest.py``, ``benchmarks/bench_forest.py``).
"""

from __future__ import annotations

import numpy as np

_MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea & Flood (OOPSLA 2014): a Weyl sequence through a 64-bit mixing function."""

    def __init__(self, seed):
        self.s = int(seed) & _MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, k):
        """floor((top 32 bits) * k / 2^32): an integer in [0, k)."""
        return ((self.next() >> 32) * k) >> 32


def units_of(groups, n):
    """The bootstrap's units as lists of sample indices: one per sample without ``groups``, else one per distinct
    label, in sorted order of the labels, the members in sample order (built with ``sorted`` and a dict, not as the
    package's CSR arrays)."""
    if groups is None:
        return [[i] for i in range(n)]
    members = {}
    for i, g in enumerate(groups):
        members.setdefault(g, []).append(i)
    return [members[g] for g in sorted(members)]


def bootstrap_counts(rng, n, bootstrap, units=None):
    """Multiplicities of the n samples: n draws with replacement among the samples, or with ``units`` (lists of
    sample indices) len(units) draws among the units, each draw adding 1 to every member of the unit drawn."""
    if not bootstrap:
        return [1.0] * n
    counts = [0.0] * n
    if units is None:
        for _ in range(n):
            counts[rng.below(n)] += 1.0
        return counts
    for _ in range(len(units)):
        for i in units[rng.below(len(units))]:
            counts[i] += 1.0
    return counts


def _sums(parts):
    """(sum of squares, sum) of class weights, summed in class order from 0.0 as the kernels do."""
    sq, tot = 0.0, 0.0
    for v in parts:
        sq += v * v
        tot += v
    return sq, tot


def grow_tree(X32, y, w, mtry, rng, n_classes=2):
    """One tree (list of node dicts, depth first, left child first) on X32 (samples x genes, float32); y: class
    indices 0 .. n_classes - 1."""
    n, d = X32.shape
    K = n_classes
    genes = list(range(d))
    nodes = []
    stack = [dict(samples=[i for i in range(n) if w[i] != 0], parent=-1, is_left=False)]
    while stack:
        rec = stack.pop()
        samp = rec["samples"]
        s = [0.0] * K
        for i in samp:
            s[y[i]] += w[i]
        ss, wn = _sums(s)
        node = dict(feature=-1, threshold=0.0, left=-1, right=-1, decrease=0.0, value=tuple(v / wn for v in s))
        nid = len(nodes)
        nodes.append(node)
        if rec["parent"] >= 0:
            nodes[rec["parent"]]["left" if rec["is_left"] else "right"] = nid
        if sum(v != 0 for v in s) < 2 or len(samp) < 2:
            continue
        best, best_score = None, -1.0
        k, n_split = 0, 0
        while k < d and (k < mtry or n_split == 0):
            j = k + rng.below(d - k)
            genes[j], genes[k] = genes[k], genes[j]
            g = genes[k]
            k += 1
            srt = sorted(samp, key=lambda i: X32[i, g])
            v = [X32[i, g] for i in srt]
            if v[0] == v[-1]:
                continue
            n_split += 1
            for p in range(1, len(srt)):
                if v[p] == v[p - 1]:
                    continue
                lft = [0.0] * K
                for i in srt[:p]:
                    lft[y[i]] += w[i]
                sl, wl = _sums(lft)
                sr, wr = _sums([s[c] - lft[c] for c in range(K)])
                score = sl / wl + sr / wr
                if score > best_score:
                    best_score = score
                    best = (g, (float(v[p - 1]) + float(v[p])) / 2.0)
        if best is None:
            continue
        g, thr = best
        node["feature"], node["threshold"] = g, thr
        node["decrease"] = best_score - ss / wn
        stack.append(dict(samples=[i for i in samp if not float(X32[i, g]) <= thr], parent=nid, is_left=False))
        stack.append(dict(samples=[i for i in samp if float(X32[i, g]) <= thr], parent=nid, is_left=True))
    return nodes


def leaf(nodes, x):
    k = 0
    while nodes[k]["left"] >= 0:
        k = nodes[k]["left"] if float(x[nodes[k]["feature"]]) <= nodes[k]["threshold"] else nodes[k]["right"]
    return k


def tree_importances(nodes, d):
    """Per gene the sum of its splits' decreases (node order), over their total; None when the total is 0."""
    imp = [0.0] * d
    total = 0.0
    for nd in nodes:
        if nd["feature"] >= 0:
            imp[nd["feature"]] += nd["decrease"]
            total += nd["decrease"]
    if not total > 0:
        return None
    return np.array([v / total for v in imp])


def vote(nodes, x):
    """The class of the leaf x reaches: its largest class fraction, ties to the smaller class."""
    v = nodes[leaf(nodes, x)]["value"]
    return max(range(len(v)), key=lambda c: (v[c], -c))


def permutation_drops(nodes, X32, y, w, rng):
    """Per gene the tree splits on (order of first split in node order): its out-of-bag accuracy minus the accuracy
    with the gene's values permuted among the out-of-bag samples (Fisher-Yates from the last position down)."""
    oob = [i for i in range(len(w)) if w[i] == 0]
    out = {}
    if not oob:
        return out
    base = sum(vote(nodes, X32[i]) == y[i] for i in oob)
    genes = []
    for nd in nodes:
        if nd["feature"] >= 0 and nd["feature"] not in genes:
            genes.append(nd["feature"])
    for g in genes:
        perm = list(oob)
        for a in range(len(perm) - 1, 0, -1):
            b = rng.below(a + 1)
            perm[a], perm[b] = perm[b], perm[a]
        right = 0
        for a, i in enumerate(oob):
            x = X32[i].copy()
            x[g] = X32[perm[a], g]
            right += vote(nodes, x) == y[i]
        out[g] = (base - right) / len(oob)
    return out


def grow_forest(X32, y, seeds, mtry, bootstrap, n_classes=2, permutation=False, groups=None):
    """(trees, importance sum over trees with a split, their number, OOB sums, OOB counts); with ``permutation``
    also the sum over the trees of their permutation importances; with ``groups`` (one label per sample) each tree
    on a grouped bootstrap sample (:func:`units_of`, :func:`bootstrap_counts`)."""
    n, d = X32.shape
    units = None if groups is None else units_of(groups, n)
    trees, imp_sum, n_imp = [], np.zeros(d), 0
    oob_sum, oob_count = np.zeros((n, n_classes)), np.zeros(n)
    perm_sum = np.zeros(d)
    for seed in seeds:
        rng = SplitMix64(seed)
        w = bootstrap_counts(rng, n, bootstrap, units)
        nodes = grow_tree(X32, y, w, mtry, rng, n_classes)
        trees.append(nodes)
        imp = tree_importances(nodes, d)
        if imp is not None:
            imp_sum += imp
            n_imp += 1
        if permutation and bootstrap:
            for g, v in permutation_drops(nodes, X32, y, w, rng).items():
                perm_sum[g] += v
        if bootstrap:
            for i in range(n):
                if w[i] == 0:
                    v = nodes[leaf(nodes, X32[i])]["value"]
                    for c in range(n_classes):
                        oob_sum[i, c] += v[c]
                    oob_count[i] += 1
    if permutation:
        return trees, imp_sum, n_imp, oob_sum, oob_count, perm_sum
    return trees, imp_sum, n_imp, oob_sum, oob_count


def sklearn_permutation_importance(f, X, y, seed=0):
    """Breiman's permutation importance (varSelRF's ranking) computed by hand on a fitted scikit-learn forest: per
    tree, the accuracy of its votes on its out-of-bag samples minus the accuracy with one gene's values permuted among
    them (numpy's permutations), averaged over all trees; genes a tree does not split on cannot change its votes (0).
    scikit-learn's ``permutation_importance`` permutes every gene on one given set for the whole forest, which is not
    this."""
    rng = np.random.default_rng(seed)
    n, d = X.shape
    yi = np.searchsorted(f.classes_, y)
    out = np.zeros(d)
    for tree, drawn in zip(f.estimators_, f.estimators_samples_):
        oob = np.setdiff1d(np.arange(n), drawn)
        if oob.size == 0:
            continue
        Xo = X[oob].astype(np.float32)
        base = np.mean(tree.predict(Xo) == yi[oob])
        for g in np.unique(tree.tree_.feature[tree.tree_.feature >= 0]):
            Xp = Xo.copy()
            Xp[:, g] = Xo[rng.permutation(oob.size), g]
            out[g] += base - np.mean(tree.predict(Xp) == yi[oob])
    return out / len(f.estimators_)


def assert_same_trees(kernel_nodes, offsets, trees):
    """The kernel's stacked nodes (feature, threshold, left, right, value) equal the twin's trees, tree by tree."""
    feature, threshold, left, right, value = kernel_nodes
    for t, nodes in enumerate(trees):
        sl = slice(offsets[t], offsets[t + 1])
        assert feature[sl].tolist() == [nd["feature"] for nd in nodes]
        assert threshold[sl].tolist() == [nd["threshold"] for nd in nodes]
        assert left[sl].tolist() == [nd["left"] for nd in nodes]
        assert right[sl].tolist() == [nd["right"] for nd in nodes]
        assert value[sl].tolist() == [list(nd["value"]) for nd in nodes]
