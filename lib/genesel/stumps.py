"""Conjunctions (and disjunctions) of decision stumps learned by Occam's razor, sample compression and PAC-Bayes.

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and Learning from
Microarray Data*, IEEE TPAMI 34(1), 2012.

A decision stump on gene k with threshold t and direction d ∈ {−1, +1} outputs r(x) = 1[(x_k − t) d > 0] (§2);
a conjunction outputs the *positive* class when every stump outputs 1, the negative class otherwise. A stump
"covers" the examples it sends to 0. A disjunction is learned as the conjunction for the swapped labels (§2), so
``model="disjunction"`` simply makes the other class the positive one (``positive_class_``).

Learners (scikit-learn classifiers, each a greedy set-covering heuristic of §6; ``stumps_``, ``n_stumps_``,
``bound_`` after ``fit``; one stump per gene, footnote 2):

- :class:`SampleCompressionStumps` (§4 and §6, the set covering machine): utility U = |Q| − p|R| (Eq. 7), Q the
  negatives and R the positives a stump covers among the examples not yet covered; thresholds at training values
  (the compression set); bound: Theorem 3 with Eq. 4 (:func:`genesel.bounds.sample_compression_bound`).
- :class:`OccamStumps` (§3 and §6.1): U = |Q|/|N'| − p|R|/|P| − η l, l the number of bits of the shortest dyadic code
  (Λ_l of §3) of a threshold in the stump's interval of equally good thresholds (the gap between the covered and
  the next uncovered remaining value); the threshold used *is* that code; bound: Theorem 2.
- :class:`PACBayesStumps` (§5 and §6.2): the "soft greedy": each stump has a margin interval [a, b] over which
  its threshold is uniform (posterior Q); σ^d_{a,b} is the probability that the stump outputs 1 (§5), the Gibbs
  risk of one example is (1−2y)(Π σ − y) (Eq. 5) and the Bayes classifier predicts 1 when Π σ > 1/2 (Eq. 6).
  Utility U = C/N − p E/|P| − η ln((B−A)/(b−a)) with the covering contribution C, the positive-side error E and
  the remaining negative amount N of §6.2, over all intervals with both ends at distinct values of the remaining
  examples; examples totally covered (Π σ = 0) leave S. ``margin="fixed"`` is the fixed-margin heuristic of
  §6.2.2 (every interval has width 2γ(B−A), threshold in its middle, the deterministic conjunction at the
  middles is the classifier). Bound: Theorem 5 (:func:`genesel.bounds.pac_bayes_bound`).
- :class:`AdaBoostStumps`: discrete AdaBoost (SAMME for two classes, as scikit-learn's ``AdaBoostClassifier``)
  with depth-1 Gini trees (scikit-learn's ``DecisionTreeClassifier(max_depth=1)``): the paper's AdaBoost
  baseline (Table 1), the same ensemble as scikit-learn's stump for stump (tested), fitted with every gene sorted
  once per fit and all rounds in one numba call — needed for thousands of 2000-round fits in nested CV. K >= 3
  classes: one ensemble per class against the rest (default) or multi-class SAMME (Zhu et al. 2009), see the
  class.

K classes. The conjunctions are binary by construction (a conjunction says "positive" or not, and Theorems 2, 3
and 5 bound a binary risk), so K >= 3 classes are fitted one class against the rest
(:mod:`genesel._core.multiclass`): learner k is this learner fitted on class k (label 1) against the other classes
(label 0), on all m training samples, at confidence delta/K, all K on one presort of the genes (``estimators_``,
in ``classes_`` order: exactly the estimators scikit-learn's ``OneVsRestClassifier`` fits around the learner with
``delta=delta/K``, tested). The decision is the argmax of the K decision values, each > 0 exactly where its learner
claims the sample (its conjunction, or its disjunction, says "class k"): the smallest stump margin
``(x_gene - threshold) direction / (B - A)``, i.e. how deep inside (or how far outside) the conjunction's region the
sample lies in units of each gene's prior range; for PAC-Bayes with variable margins ``prod sigma - 1/2``, continued
beyond the margin intervals by the same depth where the product saturates at 0 or 1. Where exactly one learner
claims a sample it gets that class; where none or several do, the class nearest to claiming it or claiming it most
deeply. ``bound_`` is the union bound ``min(1, sum_k bound_k)`` with each binary bound at delta/K: with probability
at least 1 - delta the risk of the one-vs-rest decision is at most it (the derivation is in
:mod:`genesel._core.multiclass`: every error of the decision needs an error of one of the K binary classifiers;
tested by brute force); for PAC-Bayes it bounds the one-vs-rest Gibbs classifier, and twice it the argmax decision.
``class_bounds_`` holds the K binary bounds, ``bounds_[t]`` the union bound of the K conjunctions of their first t
stumps (what ``max_stumps=t`` gives), ``stumps_`` the stumps of all K conjunctions (class by class; the class of
each in ``stump_classes_``), ``n_errors_`` the training errors of the decision. PAC-Bayes fitted on K classes has no
``predict_proba`` (no normalised product of sigmas agrees with its decision where they saturate; each class's Gibbs
probabilities are ``estimators_[k].predict_proba``). Costs about K binary fits (the presort is shared).

Speed. Every gene is sorted once per fit (or once per data set: :func:`presort_rows` restricts a data set's
presort to a training set in linear time), and the sorted arrays are restricted to the remaining examples as the
greedy covers them. Each step scores every (gene, threshold, direction) candidate with cumulative counts over the
sorted order, vectorised over genes: the arrays are laid out position-major (samples x genes) so that one pass over
the sorted positions updates all genes at once with SIMD (linear in genes × samples; the SC step and the AdaBoost
round). The soft greedy has O(J²) intervals per gene
(J distinct remaining values); it scores them exactly but only for the genes that can still win: since
σ^d_{a,b} is the average of the hard stumps with thresholds in [a, b], C/N − pE/|P| of an interval is at most that
of the best hard stump of the same gene, so the best hard utility minus η times the smallest possible margin term
bounds every interval of a gene (a vectorised pass); genes are scored in decreasing bound order, each only for the
(p, η) pairs it can still win, until no bound reaches a best utility found (an exact pruning: the result of
scanning everything). Pairs with a margin term ask a tighter bound first, class of interval widths by class,
stopping as soon as the gene is out; within a gene, a row of intervals (a fixed left end) is scored only if one of
them can reach the best utility so far: its soft utility is the mean of the hard utility over the interval minus
the margin term, bounded from the gene's running integral of the hard utility in a few cheap operations per
interval, with margins that cover the rounding of every computed utility (again exact: the choices of the full
scan, tested against it and the exhaustive twin). Paths for several (p, η) pairs share their common prefix (one
kernel call per node of the tree of paths), and a node's presort and layout serve its children until a quarter of
the examples have left. On the leaderboard's grid (20 settings, 10 stumps, both models) on an inner training part
this took 4.4-6x less CPU than the full row scan with the one-shot width bound on Gravier (107 x 2,905), 2.1x on
Chowdary (66 x 22,283), 3.3x over five sets, and 4.6x and 2.2x per leaderboard fold, with the same paths
(``benchmarks/bench_stumps.py --previous ec0eaab``). The numba kernels are in :mod:`genesel._stumps_kernels`
(plain-Python twins in
``tests/naive/stumps.py``); this module holds the estimators and the functional API (presorting, the greedy paths
for one or many parameter settings, AdaBoost's path).

Ties (exact float equality) go to the larger training-error decrease |Q| − |R| (SC and Occam, as ``pyscm``), then
to the first candidate in (gene, threshold, direction +1 before −1) order. The soft greedy's utilities are sums of
real-valued σ's whose rounding depends on the units of X, so it compares them on a grid of 2^-32
(:func:`genesel._stumps_kernels.utility_grid`): utilities equal in exact arithmetic are a tie at every scale.
The prior ranges [A_i, B_i] of §3/§5 are ``feature_range`` (a priori bounds such as (0, 255) for 8-bit images) or,
by default, each gene's range on the training set — the paper's "obtained from the definition of data" when no such
definition exists; strictly, a data-dependent range makes the bounds slightly optimistic.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._available_if import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel import _stumps_kernels as SK
from genesel import bounds as _bounds
from genesel._core.base import BinaryClassifier
from genesel._core.multiclass import (check_classifier_fit, normalise_ovr_proba, ovr_fit, ovr_labels,
                                      predict_from_decision, split_delta, union_bound)
from genesel._core.params import POSITIVE_INT, StrOptions, real

__all__ = ["SampleCompressionStumps", "OccamStumps", "PACBayesStumps", "AdaBoostStumps", "presort", "presort_rows",
           "stump_outputs", "soft_outputs", "scm_paths", "occam_paths", "pac_bayes_paths", "adaboost_path",
           "samme_path",
           "tree_tolerance", "warm_up"]


# ----------------------------------------------------------------------------------------------------------------
# sorting once: per fit, or once per data set and then restricted to each training set
# ----------------------------------------------------------------------------------------------------------------


def presort(X):
    """(vals, order): every gene's values sorted ascending (genes x samples, float64) and the sample order
    (int64). Compute it once per data set and pass :func:`presort_rows` of it to every fit on a subset."""
    Xt = np.ascontiguousarray(np.asarray(X, dtype=np.float64).T)
    order = np.ascontiguousarray(np.argsort(Xt, axis=1), dtype=np.int64)  # ties: their order never matters
    return SK.gather_rows(Xt, order), order


def presort_rows(presorted, rows):
    """The :func:`presort` of ``X[rows]`` from the presort of ``X`` (rows: indices without repeats)."""
    vals, order = presorted
    rows = np.asarray(rows, dtype=np.int64)
    new_index = np.full(vals.shape[1], -1, dtype=np.int64)
    if np.unique(rows).size != rows.size:
        raise ValueError("presort_rows: rows must not repeat")
    new_index[rows] = np.arange(rows.size)
    return SK.restrict(vals, order, new_index)


def _keep_only(presorted, keep):
    """The presort restricted to the samples with keep[i] (same sample numbering)."""
    vals, order = presorted
    new_index = np.where(keep, np.arange(keep.size), -1).astype(np.int64)
    return SK.restrict(vals, order, new_index)


# ----------------------------------------------------------------------------------------------------------------
# functional API: the greedy paths, for one or many parameter pairs at once
# ----------------------------------------------------------------------------------------------------------------


def stump_outputs(X, genes, thresholds, directions):
    """r(x) = 1[(x_k − t) d > 0] for each stump: a bool array (n_samples, n_stumps)."""
    X = np.asarray(X, dtype=float)
    g = np.asarray(genes, dtype=np.int64)
    t = np.asarray(thresholds, dtype=float)
    d = np.asarray(directions, dtype=float)
    return (X[:, g] - t) * d > 0


def soft_outputs(X, genes, a, b, directions):
    """σ^d_{a,b}(x_k) of §5 for each stump (n_samples, n_stumps): the probability that a stump with threshold
    uniform on [a, b] outputs 1."""
    X = np.asarray(X, dtype=float)
    g = np.asarray(genes, dtype=np.int64)
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = np.asarray(directions)
    x = X[:, g]
    up = np.clip((x - a) / (b - a), 0.0, 1.0)
    return np.where(d > 0, up, 1.0 - up)


def _pairs(ps, etas):
    ps = np.atleast_1d(np.asarray(ps, dtype=float))
    etas = np.atleast_1d(np.asarray(etas, dtype=float))
    ps, etas = np.broadcast_arrays(ps, etas)
    if ps.ndim != 1 or ps.size == 0:
        raise ValueError("p and eta must be numbers or equal-length 1-d lists")
    if np.any(~np.isfinite(ps)) or np.any(ps < 0) or np.any(~np.isfinite(etas)) or np.any(etas < 0):
        raise ValueError(f"p and eta must be finite and >= 0, got p={ps.tolist()}, eta={etas.tolist()}")
    return np.ascontiguousarray(ps), np.ascontiguousarray(etas)


def _cover_paths(X, pos, ps, etas, max_stumps, A, B, occam, presorted, reuse_genes=False):
    X = np.asarray(X, dtype=float)
    pos = np.asarray(pos, dtype=np.bool_)
    m, n = X.shape
    ps, etas = _pairs(ps, etas)
    presorted = presort(X) if presorted is None else presorted
    npos = int(pos.sum())
    keys = ("gene", "direction", "threshold", "bits", "interval", "example", "n_neg", "n_pos", "utility")
    paths = [{k: [] for k in keys} for _ in range(ps.size)]
    stack = [(presorted, np.ones(m, dtype=np.bool_), np.zeros(n, dtype=np.bool_), np.arange(ps.size), 0)]
    while stack:
        (vals, order), active, used, members, depth = stack.pop()
        if depth >= max_stumps or not np.any(active & ~pos):
            continue
        if occam:
            res = SK.cover_node(vals, order, active, pos, used, ps[members], etas[members], npos, A, B, True)
        else:
            res = _scm_node(vals, order, active, pos, used, ps[members])
        groups = {}
        for j, c in enumerate(members):
            g = int(res[0][j])
            if g < 0:
                continue
            key = (g, int(res[1][j]), float(res[2][j]), float(res[3][j]), float(res[8][j]))
            groups.setdefault(key, []).append((j, c))
        for (g, d, lo, hi, thr), jc in groups.items():
            x = X[:, g]
            covered = (x <= lo) if d == 1 else (x >= hi)
            hit = np.flatnonzero(active & (x == thr))
            ex = int(hit[0]) if hit.size else -1
            for j, c in jc:
                rec = paths[c]
                for k, v in (("gene", g), ("direction", d), ("threshold", thr), ("bits", int(res[7][j])),
                             ("interval", (lo, hi)), ("example", ex), ("n_neg", int(res[4][j])),
                             ("n_pos", int(res[5][j])), ("utility", float(res[6][j]))):
                    rec[k].append(v)
            new_active = active & ~covered
            new_used = used.copy()
            if not reuse_genes:
                new_used[g] = True
            if depth + 1 >= max_stumps or not np.any(new_active & ~pos):
                continue
            # compact the sorted arrays to the remaining examples (always for SC's vectorised scan; for Occam when
            # that at least halves them)
            shrink = not occam or 2 * new_active.sum() <= vals.shape[1]
            child = _keep_only((vals, order), new_active) if shrink else (vals, order)
            stack.append((child, new_active, new_used, np.array([c for _, c in jc]), depth + 1))
    return paths


def _scm_node(vals, order, active, pos, used, ps):
    """The SC step through the vectorised scan, in :func:`genesel._stumps_kernels.cover_node`'s output format.
    ``vals``/``order`` must hold exactly the active examples."""
    lab, new, _ = SK.position_major(vals, order, pos, False)
    n_pos = int(np.sum(pos & active))
    n_neg = int(np.sum(~pos & active))
    g, s, side, u = SK.scm_scan(lab, new, vals, order, pos, used, ps, n_neg, n_pos)
    C = ps.size
    lo = np.full(C, np.nan)
    hi = np.full(C, np.nan)
    thr = np.full(C, np.nan)
    q = np.zeros(C, dtype=np.int64)
    r = np.zeros(C, dtype=np.int64)
    d = np.where(side == 0, 1, -1)
    k = vals.shape[1]
    for c in range(C):
        if g[c] < 0:
            continue
        lo[c] = vals[g[c], s[c]]
        hi[c] = vals[g[c], s[c] + 1] if s[c] + 1 < k else np.inf
        thr[c] = lo[c] if side[c] == 0 else hi[c]
        prefix = order[g[c], : s[c] + 1]
        npos_pre = int(np.sum(pos[prefix]))
        if side[c] == 0:
            q[c], r[c] = s[c] + 1 - npos_pre, npos_pre
        else:
            q[c], r[c] = n_neg - (s[c] + 1 - npos_pre), n_pos - npos_pre
    return g, d, lo, hi, q, r, u, np.zeros(C, dtype=np.int64), thr


def scm_paths(X, pos, p, max_stumps, *, presorted=None, reuse_genes=False):
    """The sample-compression set-covering greedy (Eq. 7) on binary targets ``pos`` (True = positive class) for
    one p or a list of p values at once (shared steps are computed once).

    Returns one dict of lists per p, one entry per stump in order: ``gene``, ``direction``, ``threshold`` (a
    training value), ``example`` (the compression example defining it), ``n_neg`` and ``n_pos`` covered,
    ``utility``. ``reuse_genes=True`` lets a gene carry a second stump (as ``pyscm`` does; the paper's bounds
    assume not).
    """
    ps = np.atleast_1d(np.asarray(p, dtype=float))
    X = np.asarray(X, dtype=float)
    dummy = np.zeros(X.shape[1])
    return _cover_paths(X, pos, ps, np.zeros(ps.size), int(max_stumps), dummy, dummy, False, presorted, reuse_genes)


def occam_paths(X, pos, p, eta, max_stumps, A, B, *, presorted=None):
    """The Occam's razor greedy of §6.1 for one (p, eta) or equal-length lists of them. One dict of lists per
    pair: ``gene``, ``direction``, ``threshold`` (the dyadic code), ``bits``, ``interval`` (the gap of equally
    good thresholds), ``n_neg``, ``n_pos``, ``utility``."""
    ps, etas = _pairs(p, eta)
    A = np.ascontiguousarray(A, dtype=float)
    B = np.ascontiguousarray(B, dtype=float)
    return _cover_paths(X, pos, ps, etas, int(max_stumps), A, B, True, presorted)


def pac_bayes_paths(X, pos, p, eta, max_stumps, A, B, *, width_frac=0.0, presorted=None, slack=1e-9):
    """The PAC-Bayes soft greedy of §6.2 for one (p, eta) or equal-length lists of them (``width_frac`` > 0:
    the fixed-margin heuristic of §6.2.2, intervals of width 2·width_frac·(B−A)). One dict of lists per pair:
    ``gene``, ``direction``, ``a``, ``b``, ``utility``, ``searched`` (genes scored exactly at that step)."""
    X = np.asarray(X, dtype=float)
    pos = np.asarray(pos, dtype=np.bool_)
    m, n = X.shape
    ps, etas = _pairs(p, eta)
    A = np.ascontiguousarray(A, dtype=float)
    B = np.ascontiguousarray(B, dtype=float)
    presorted = presort(X) if presorted is None else presorted
    npos = int(pos.sum())
    keys = ("gene", "direction", "a", "b", "utility", "searched")
    paths = [{k: [] for k in keys} for _ in range(ps.size)]
    stack = [(presorted, None, np.ones(m), np.zeros(n, dtype=np.bool_), np.arange(ps.size), 0)]
    while stack:
        (vals, order), layout, pi, used, members, depth = stack.pop()
        if depth >= max_stumps or not np.any((pi > 0) & ~pos):
            continue
        up, pidx = np.unique(ps[members], return_inverse=True)
        new, idx = SK.soft_layout(vals, order) if layout is None else layout
        # every argument given (tight, prune: True), so that the kernel compiles once (tests/test_jit_signatures.py)
        res = SK.soft_node(vals, order, new, idx, pi, pos, used, up, etas[members], pidx.astype(np.int64), npos,
                         A, B, float(width_frac), float(slack), True, True)
        groups = {}
        for j, c in enumerate(members):
            g = int(res[0][j])
            if g < 0:
                continue
            groups.setdefault((g, int(res[1][j]), float(res[2][j]), float(res[3][j])), []).append((j, c))
        for (g, d, a, b), jc in groups.items():
            for j, c in jc:
                rec = paths[c]
                for k, v in (("gene", g), ("direction", d), ("a", a), ("b", b), ("utility", float(res[4][j])),
                             ("searched", int(res[5]))):
                    rec[k].append(v)
            new_pi = pi * soft_outputs(X, [g], [a], [b], [d])[:, 0]
            new_used = used.copy()
            new_used[g] = True
            if depth + 1 >= max_stumps or not np.any((new_pi > 0) & ~pos):
                continue
            # the presort restricted to the examples left in S once a quarter of its examples have left (examples
            # with pi = 0 change nothing in the kernel); until then the node's presort and layout serve the child
            live = new_pi > 0
            if 4 * live.sum() <= 3 * vals.shape[1]:
                stack.append((_keep_only((vals, order), live), None, new_pi, new_used, np.array([c for _, c in jc]),
                              depth + 1))
            else:
                stack.append(((vals, order), (new, idx), new_pi, new_used, np.array([c for _, c in jc]), depth + 1))
    return paths


#: scikit-learn's trees treat two values closer than this as equal (``FEATURE_THRESHOLD``, absolute)
FEATURE_THRESHOLD = 1e-7


def tree_tolerance(vals):
    """The distance below which AdaBoost's stumps treat two values of a gene as equal: scikit-learn's
    ``FEATURE_THRESHOLD`` (1e-7) in data-relative units. That is 1e-7 itself (scikit-learn's absolute tolerance,
    bit for bit) when the largest range of a gene is at least 1/2, and 1e-7 * 2^e otherwise, 2^e the power of two
    just above that largest range (``vals``: the presorted genes x samples). One unit for all the genes, as the
    data share their units: a gene whose values differ only by rounding, among genes that vary, is not split; and
    data scaled by 1e-7 or 1e-200 split as at scale 1 (scikit-learn's absolute tolerance makes every gap of such
    data "equal": one leaf, one class)."""
    vals = np.asarray(vals, dtype=np.float64)
    if vals.size == 0 or vals.shape[1] < 2:
        return FEATURE_THRESHOLD
    with np.errstate(over="ignore", invalid="ignore"):
        span = float(np.max(vals[:, -1] - vals[:, 0]))
    if not span < 0.5:  # includes an overflowing range (inf)
        return FEATURE_THRESHOLD
    return float(np.ldexp(FEATURE_THRESHOLD, int(np.frexp(span)[1]))) if span > 0 else FEATURE_THRESHOLD


def adaboost_path(X, y_pm1, n_rounds, *, presorted=None):
    """Discrete AdaBoost (two-class SAMME) with depth-1 Gini trees, as scikit-learn's ``AdaBoostClassifier`` with
    ``DecisionTreeClassifier(max_depth=1)`` (learning rate 1). Returns a dict of arrays over the rounds fitted:
    ``gene``, ``threshold``, ``left``, ``right`` (the ±1 label of x <= threshold and of x > threshold),
    ``alpha`` (the round's weight log((1−ε)/ε)), ``error`` (its weighted error ε). Stops early, as scikit-learn,
    after a round with zero weighted error (kept with weight 1). One numba call for all rounds."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y_pm1)
    pos = y > 0
    vals, order = presort(X) if presorted is None else presorted
    lab, _, idx = SK.position_major(vals, order, pos, True)
    # compact copies (6 bytes per entry instead of 17): each round streams them once, memory is the limit
    lab, idx = lab.astype(np.uint8), idx.astype(np.int32)
    valid = np.ascontiguousarray((vals[:, 1:] > vals[:, :-1] + tree_tolerance(vals)).T)
    g, thr, left, right, alpha, err, t, status = SK.adaboost_rounds(vals, order, idx, lab, valid, pos, int(n_rounds))
    if status == 2:
        raise ValueError("AdaBoostStumps: the first stump is no better than chance (weighted error >= 0.5); "
                         "the data hold no signal a stump can use")
    return {"gene": g, "threshold": thr, "left": left, "right": right, "alpha": alpha, "error": err}


def samme_path(X, y_idx, n_classes, n_rounds, *, presorted=None):
    """Discrete multi-class AdaBoost (SAMME, Zhu et al. 2009) with K-class depth-1 Gini trees, as scikit-learn's
    ``AdaBoostClassifier`` with ``DecisionTreeClassifier(max_depth=1)`` (learning rate 1), on class indices
    ``y_idx`` (0..K-1). Returns a dict of arrays over the rounds fitted as :func:`adaboost_path`, with ``left`` and
    ``right`` the class index of x <= threshold and of x > threshold and ``alpha`` = log((1−ε)/ε) + log(K−1). One
    numba call for all rounds (:func:`genesel._stumps_kernels.adaboost_rounds_multi`)."""
    X = np.asarray(X, dtype=float)
    y = np.ascontiguousarray(y_idx, dtype=np.int64)
    vals, order = presort(X) if presorted is None else presorted
    idx = np.ascontiguousarray(order.T, dtype=np.int64)  # position-major: idx[s, g] = the sample at position s
    cls = np.ascontiguousarray(y[idx], dtype=np.int64)
    valid = np.ascontiguousarray((vals[:, 1:] > vals[:, :-1] + tree_tolerance(vals)).T)
    g, thr, left, right, alpha, err, t, status = SK.adaboost_rounds_multi(vals, order, idx, cls, valid, y,
                                                                          int(n_classes), int(n_rounds))
    if status == 2:
        raise ValueError(f"AdaBoostStumps: the first stump is no better than chance (weighted error >= 1 - 1/K = "
                         f"{1 - 1 / n_classes:.3g} with K = {n_classes} classes); the data hold no signal a stump "
                         "can use")
    return {"gene": g, "threshold": thr, "left": left, "right": right, "alpha": alpha, "error": err}


# ----------------------------------------------------------------------------------------------------------------
# estimators
# ----------------------------------------------------------------------------------------------------------------


#: the settings a grid of paths varies (:meth:`_StumpConjunction.fit_grid`): they change no input check
_PATH_PARAMS = {"p", "eta", "gamma"}
#: the constraints every conjunction learner shares
_COMMON = {"p": [real(0, None, "left")], "max_stumps": [POSITIVE_INT],
           "model": [StrOptions({"conjunction", "disjunction"})], "delta": [real(0, 1, "right")]}
_RANGE = {"eta": [real(0, None, "left")], "feature_range": ["array-like", None]}


#: the smallest positive normal double: a decision value that claims a sample with the least confidence
_TINY = float(np.finfo(np.float64).tiny)
#: fitted attributes of a one-vs-rest fit only (removed when the learner is refitted)
_OVR_ATTRS = ("estimators_", "stump_classes_", "class_bounds_")


def _has_predict_proba(est):
    """The PAC-Bayes learner fitted on K >= 3 classes has no class probabilities consistent with its one-vs-rest
    decision: the K Gibbs probabilities saturate at 0 and 1 (a sample outside every margin interval), so several
    classes often tie (half the test samples of a noisy 4-class problem), and the decision breaks those ties by how
    far beyond the intervals a sample lies (``_extended_score``), which no normalised product of sigmas can say; the
    fixed-margin learner decides by its hard conjunctions, another classifier again. Each class's Gibbs
    probabilities are ``estimators_[k].predict_proba``. With two classes it keeps the probabilities it always gave."""
    return len(getattr(est, "classes_", ())) <= 2


def _has_decision_function(est):
    """The fixed-margin PAC-Bayes learner fitted on two classes predicts with the hard conjunction at the interval
    middles but gives the Gibbs classifier's probabilities; no decision function is consistent with both, so it has
    none (with K >= 3 classes it has no probabilities, and its decision follows the hard conjunctions)."""
    return getattr(est, "margin", "variable") != "fixed" or len(getattr(est, "classes_", ())) > 2


class _StumpConjunction(BinaryClassifier):
    """Shared fit/predict of the conjunction learners (see the module doc); K >= 3 classes one-vs-rest."""

    _multi_class = True

    def _prepare(self, X, y):
        """(X, pos) for two classes (pos: the samples of ``positive_class_``); (X, class indices) for K >= 3."""
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=1)
        for name in _OVR_ATTRS:
            self.__dict__.pop(name, None)
        if self.classes_.size > 2:
            self.__dict__.pop("positive_class_", None)
            return X, y_enc
        self.positive_class_ = self.classes_[1] if self.model == "conjunction" else self.classes_[0]
        pos = (y_enc > 0) if self.model == "conjunction" else (y_enc < 0)
        return X, pos

    # ---------------------------------------------------------------- K >= 3 classes: one-vs-rest
    def _is_ovr(self):
        return len(self.classes_) > 2

    def _fit_one_vs_rest(self, X, y_idx, presorted):
        """K learners like this one, learner k on class k (label 1) against the rest (label 0), each at confidence
        delta/K, one presort shared by all (see the module doc, "K classes")."""
        K = self.classes_.size
        presorted = presort(X) if presorted is None else presorted
        ests = ovr_fit(self, X, y_idx, K, params={"delta": split_delta(self.delta, K)},
                       fit_params={"presorted": presorted})
        return self._assemble(ests, X, y_idx)

    def _assemble(self, ests, X, y_idx):
        """The one-vs-rest attributes from the K fitted binary learners (class order)."""
        self.estimators_ = list(ests)
        self.stumps_ = [st for e in ests for st in e.stumps_]
        self.stump_classes_ = np.array([self.classes_[k] for k, e in enumerate(ests) for _ in e.stumps_],
                                       dtype=self.classes_.dtype)
        self.n_stumps_ = len(self.stumps_)
        self.class_bounds_ = np.array([e.bound_ for e in ests])
        self.bound_ = float(union_bound(self.class_bounds_))
        T = max(e.n_stumps_ for e in ests)
        self.bounds_ = np.array([union_bound([e.bounds_[min(t, e.n_stumps_)] for e in ests]) for t in range(T + 1)])
        self.n_errors_ = int(np.sum(np.argmax(self._ovr_decision(X, None), axis=1) != y_idx))
        return self

    def _ovr_decision(self, X, t):
        """(n, K) decision of the K learners' conjunctions of their first t stumps (None: all of them)."""
        return np.column_stack([e._ovr_prefix(X, e.n_stumps_ if t is None else min(t, e.n_stumps_))
                                for e in self.estimators_])

    def _ovr_prefix(self, X, k):
        """This (binary) learner's column of a one-vs-rest decision: > 0 exactly where the first k stumps predict
        ``classes_[1]`` (class k of the K-class problem)."""
        return self._decision_prefix(X, k)

    # ---------------------------------------------------------------- decision values
    def _thresholds(self):
        return [st[1] for st in self.stumps_]

    def _set_spans(self, X, A, B):
        """``spans_``: the width B - A of each stump's prior range (the training range of its gene by default), the
        unit of the decision values."""
        if A is None:
            A, B = self._ranges(X)
        g = np.asarray([st[0] for st in self.stumps_], dtype=np.int64)
        span = np.asarray(B, dtype=float)[g] - np.asarray(A, dtype=float)[g]
        self.spans_ = np.where(span > 0, span, 1.0)

    def _score(self, X, k):
        """(n,) > 0 exactly where the conjunction of the first k stumps outputs 1 (claims ``positive_class_``): the
        smallest margin ``(x_gene - threshold) direction / span`` of its stumps (how deep inside the conjunction's
        region x lies, in units of each gene's prior range), at least the smallest positive double where every
        stump outputs 1, at most 0 elsewhere; the empty conjunction (always 1) gives the smallest positive double."""
        conj = self._conj(X, k)
        if k == 0:
            return np.full(X.shape[0], _TINY)
        g = [st[0] for st in self.stumps_[:k]]
        d = np.asarray([st[2] for st in self.stumps_[:k]], dtype=float)
        t = np.asarray(self._thresholds()[:k], dtype=float)
        with np.errstate(invalid="ignore", over="ignore"):
            r = ((X[:, g] - t) * d / self.spans_[:k]).min(axis=1)
        return np.where(conj, np.maximum(r, _TINY), np.minimum(np.nan_to_num(r, nan=0.0), 0.0))

    def _decision_prefix(self, X, k):
        """Decision values of the first k stumps: > 0 exactly where they predict ``classes_[1]``."""
        return self._signed(self._score(X, k))

    def _signed(self, s):
        """Scores of ``positive_class_`` (> 0 where it is predicted) as decision values of ``classes_[1]``."""
        if self.positive_class_ == self.classes_[1]:
            return s
        return np.where(s > 0, -s, _TINY - s)  # classes_[1] where the conjunction is false (s <= 0)

    @available_if(_has_decision_function)
    def decision_function(self, X):
        """Two classes: (n,), > 0 exactly where ``predict`` gives ``classes_[1]``: the smallest stump margin
        ``(x_gene - threshold) direction / span`` of the conjunction, in units of each gene's prior range (see
        ``_score``; PAC-Bayes with variable margins: ``prod sigma - 1/2``), signed for ``classes_[1]``. K >= 3 classes:
        (n, K), column k that of the class-k-against-the-rest learner (``estimators_[k]``; PAC-Bayes with variable
        margins: ``prod sigma - 1/2`` extended beyond the intervals, see ``PACBayesStumps._extended_score``), > 0
        exactly where that learner claims the sample; ``predict`` is its argmax. Not available for the fixed-margin
        PAC-Bayes learner fitted on two classes (its ``predict`` and ``predict_proba`` follow two different
        classifiers, §6.2.2)."""
        X = self._validate_X(X)
        if self._is_ovr():
            return self._ovr_decision(X, None)
        return self._decision_prefix(X, self.n_stumps_)

    def _ranges(self, X):
        fr = getattr(self, "feature_range", None)
        if fr is None:
            return X.min(axis=0), X.max(axis=0)
        try:
            lo, hi = (float(v) for v in fr)
        except (TypeError, ValueError):
            raise ValueError(f"feature_range must be None or a pair (low, high), got {fr!r}") from None
        if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
            raise ValueError(f"feature_range must be a finite pair with low < high, got {fr!r}")
        if X.min() < lo or X.max() > hi:
            raise ValueError(f"{type(self).__name__}: the training values span [{X.min():g}, {X.max():g}], outside "
                             f"feature_range={fr!r}; widen it or use feature_range=None (the training range)")
        n = X.shape[1]
        return np.full(n, lo), np.full(n, hi)

    def _label(self, is_pos):
        neg = self.classes_[0] if self.positive_class_ == self.classes_[1] else self.classes_[1]
        return np.where(is_pos, self.positive_class_, neg)

    def _conj(self, X, k):
        """Hard conjunction output (bool) of the first k stumps."""
        g = [s[0] for s in self.stumps_[:k]]
        t = [s[1] for s in self.stumps_[:k]]
        d = [s[2] for s in self.stumps_[:k]]
        if k == 0:
            return np.ones(X.shape[0], dtype=bool)
        return stump_outputs(X, g, t, d).all(axis=1)

    def _validate_X(self, X):
        check_is_fitted(self, "stumps_")
        return validate_data(self, X, dtype=np.float64, reset=False)

    def predict(self, X):
        """The class of the conjunction's output; K >= 3 classes: the class of the largest one-vs-rest decision
        value (the class whose conjunction claims the sample most deeply, or is nearest to claiming it)."""
        X = self._validate_X(X)
        if self._is_ovr():
            return predict_from_decision(self._ovr_decision(X, None), self.classes_)
        return self._label(self._conj(X, self.n_stumps_))

    def staged_predict(self, X):
        """Predictions of the conjunctions of the first 1, 2, ..., n_stumps_ stumps (the greedy is the same for any
        smaller ``max_stumps``, so this is what a refit with ``max_stumps=k`` predicts). K >= 3 classes: of the K
        conjunctions of their first 1, 2, ..., max_k n_k stumps (again what a refit with ``max_stumps=k``
        predicts)."""
        X = self._validate_X(X)
        if self._is_ovr():
            for t in range(1, max(e.n_stumps_ for e in self.estimators_) + 1):
                yield predict_from_decision(self._ovr_decision(X, t), self.classes_)
            return
        for k in range(1, self.n_stumps_ + 1):
            yield self._label(self._conj(X, k))

    def path_losses(self, X, y, X_val, y_val, param_grid, *, presorted=None):
        """Validation losses of every prefix of the greedy, for several parameter settings at once: the inner loop of
        a model selection over the learner's parameters and its number of stumps (Shah et al. 2012, §7).

        The greedy of this learner (its ``model``, ``max_stumps``, ``feature_range`` and, for PAC-Bayes, ``margin``)
        is run on (X, y) for every setting of ``param_grid``, a list of dicts with ``p`` and, for Occam and
        PAC-Bayes, ``eta`` (with ``margin="fixed"``: ``gamma``, the half-width); settings that take the same first
        steps share them (one computation per node of the tree of paths). Returns an array (len(param_grid),
        max_stumps): entry [c, s] is the loss on (X_val, y_val) of the conjunction of the first s + 1 stumps of
        setting c, which is what a fit with ``max_stumps = s + 1`` predicts (a path that stopped early repeats its
        last conjunction). The loss is the number of errors of the hard conjunction for sample compression, Occam
        and the fixed-margin PAC-Bayes learner, and the expected number of errors of the Gibbs classifier (Eq. 5)
        for the PAC-Bayes learner with variable margins. K >= 3 classes: the number of errors of the one-vs-rest
        decision (``predict``; for PAC-Bayes with variable margins the argmax of the K ``prod sigma``), from
        :meth:`fit_grid`. ``presorted``: ``presort(X)`` (e.g. from :func:`presort_rows`)."""
        from sklearn.base import clone

        est = clone(self)
        est._validate_params()
        return est._path_losses(X, y, X_val, y_val, param_grid, presorted)

    def fit_grid(self, X, y, param_grid, *, presorted=None) -> list:
        """Fitted copies of this learner, one per setting of ``param_grid`` (dicts as for :meth:`path_losses`: ``p``
        and, for Occam and PAC-Bayes, ``eta``; with ``margin="fixed"``: ``gamma``), from one run of the greedy shared
        by all of them (settings that take the same first steps share them; one presort): the same stumps,
        utilities, errors and bounds as fitting each setting on its own (``genes_searched_`` of the PAC-Bayes
        learner counts the shared search), at a fraction of the cost (20 PAC-Bayes settings on a Leukemia training
        part: 3.6x faster). What a model selection over the learner's parameters fits."""
        from sklearn.base import clone

        grid = [dict(q) for q in param_grid]
        if not grid:
            raise ValueError("param_grid is empty: give at least one setting, e.g. [{'p': 1.0}]")
        base = clone(self)
        base._validate_params()
        Xv, pos = base._prepare(X, y)
        if base._is_ovr():  # K >= 3 classes: each problem's grid at delta/K, one presort for all
            K = base.classes_.size
            presorted = presort(Xv) if presorted is None else presorted
            sub = clone(self).set_params(delta=split_delta(self.delta, K))
            per_class = [sub.fit_grid(Xv, ovr_labels(pos, k), grid, presorted=presorted) for k in range(K)]
            out = []
            for c, q in enumerate(grid):
                est = clone(self).set_params(**q)
                est._validate_params()
                Xe, y_idx = est._prepare(X, y)
                out.append(est._assemble([per_class[k][c] for k in range(K)], Xe, y_idx))
            return out
        paths = base._grid_paths(Xv, pos, grid, presorted)
        A, B = base._ranges(Xv)
        # the input checks do not depend on the settings of the path (p, eta, gamma): done once, their fitted
        # attributes given to every copy
        checked = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in base.__dict__.items()
                   if k.endswith("_") and not k.startswith("_")}
        out = []
        for q, path in zip(grid, paths):
            est = clone(self).set_params(**q)
            est._validate_params()
            if set(q) <= _PATH_PARAMS:
                est.__dict__.update({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in checked.items()})
                Xe, pos_e = Xv, pos
            else:
                Xe, pos_e = est._prepare(X, y)
            out.append(est._fit_path(Xe, pos_e, path, A, B))
        return out

    def _path_losses(self, X, y, X_val, y_val, param_grid, presorted):
        X, pos = self._prepare(X, y)
        X_val = validate_data(self, X_val, dtype=np.float64, reset=False)
        y_val = np.asarray(y_val)
        if y_val.shape != (X_val.shape[0],):
            raise ValueError(f"y_val must hold one label per row of X_val ({X_val.shape[0]}), got shape {y_val.shape}")
        unknown = set(np.unique(y_val).tolist()) - set(self.classes_.tolist())
        if unknown:
            raise ValueError(f"y_val holds labels {sorted(unknown)} that are not among the training classes "
                             f"{self.classes_.tolist()}")
        grid = [dict(q) for q in param_grid]
        if not grid:
            raise ValueError("param_grid is empty: give at least one setting, e.g. [{'p': 1.0}]")
        if self._is_ovr():  # errors of the one-vs-rest decision of every prefix
            S = int(self.max_stumps)
            fits = self.fit_grid(X, y, grid, presorted=presorted)
            truth = np.searchsorted(self.classes_, y_val)
            return np.array([[np.sum(np.argmax(est._ovr_decision(X_val, s + 1), axis=1) != truth) for s in range(S)]
                             for est in fits], dtype=float)
        pos_val = y_val == self.positive_class_
        paths = self._grid_paths(X, pos, grid, presorted)
        S = int(self.max_stumps)
        return np.array([self._prefix_losses(path, X_val, pos_val, S) for path in paths])

    def _grid_value(self, grid, key):
        try:
            return np.array([float(q[key]) for q in grid])
        except KeyError:
            raise ValueError(f"{type(self).__name__}.path_losses: every setting of param_grid needs {key!r}, got "
                             f"{grid[0]}") from None

    def _prefix_losses(self, path, X, pos, S):
        """(S,) errors of the hard conjunctions of the first 1..S stumps of ``path`` on (X, pos)."""
        k = len(path["gene"])
        loss = np.empty(S)
        thr = self._path_thresholds(path)
        out = stump_outputs(X, path["gene"], thr, path["direction"]) if k else np.ones((X.shape[0], 0), bool)
        cum = np.cumprod(out, axis=1).astype(bool) if k else out
        for s in range(S):
            pred = cum[:, min(s, k - 1)] if k else np.ones(X.shape[0], bool)
            loss[s] = np.sum(pred != pos)
        return loss

    def _path_thresholds(self, path):
        return path["threshold"]


class SampleCompressionStumps(_StumpConjunction):
    """Conjunction (or disjunction) of decision stumps by the set-covering greedy of §6 with U = |Q| − p|R| (Eq. 7):
    the sample-compression learner "SC" of Shah, Marchand & Corbeil (2012), i.e. the set covering machine with
    decision stumps whose thresholds are training values (the compression set, one example per stump).

    Parameters
    ----------
    p : float, default 1.0
        Penalty for each positive example a stump covers (misclassifies).
    max_stumps : int, default 10
        Stump budget s; the greedy also stops when every negative example is covered.
    model : "conjunction" or "disjunction"
        Conjunction: ``classes_[1]`` is the positive class (predicted when every stump outputs 1); disjunction:
        the conjunction learned with the roles of the classes exchanged.
    delta : float, default 0.05
        Confidence of ``bound_``.

    Attributes
    ----------
    stumps_ : list of (gene index, threshold, direction); r(x) = 1[(x_gene − threshold)·direction > 0].
    n_stumps_, positive_class_, classes_, compression_set_ (training indices of the threshold examples),
    utilities_ (utility of each step), n_errors_ (training errors), bound_ (Theorem 3 with Eq. 4; ``bounds_``:
    the bound of each prefix conjunction).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import SampleCompressionStumps
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> scm = SampleCompressionStumps(p=1.0, max_stumps=5).fit(X[::2], y[::2])
    >>> [(gene, direction) for gene, _, direction in scm.stumps_], scm.compression_set_.tolist()
    ([(0, 1)], [5])
    >>> scm.n_errors_, scm.score(X[1::2], y[1::2])
    (1, 0.65)
    >>> print(f"{scm.bound_:.2f}")                                  # Theorem 3: risk bound at delta = 0.05
    0.63
    """

    _parameter_constraints = dict(_COMMON)

    def __init__(self, *, p=1.0, max_stumps=10, model="conjunction", delta=0.05):
        self.p = p
        self.max_stumps = max_stumps
        self.model = model
        self.delta = delta

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, presorted=None):
        """Fit on (X, y); ``presorted`` optionally gives ``presort(X)`` (e.g. from :func:`presort_rows`)."""
        X, pos = self._prepare(X, y)
        if self._is_ovr():
            return self._fit_one_vs_rest(X, pos, presorted)
        path = scm_paths(X, pos, self.p, self.max_stumps, presorted=presorted)[0]
        return self._fit_path(X, pos, path)

    def _fit_path(self, X, pos, path, A=None, B=None):
        self.stumps_ = list(zip(path["gene"], path["threshold"], path["direction"]))
        self.n_stumps_ = len(self.stumps_)
        self._set_spans(X, A, B)
        self.compression_set_ = np.asarray(path["example"], dtype=np.int64)
        self.utilities_ = np.asarray(path["utility"])
        m, n = X.shape
        bnds = []
        for k in range(self.n_stumps_ + 1):
            conj = self._conj(X, k)
            wrong = conj != pos
            outside = np.ones(m, dtype=bool)
            outside[self.compression_set_[:k]] = False
            bnds.append(float(_bounds.sample_compression_bound(k, int(np.sum(wrong & outside)), m, n, self.delta)))
        self.n_errors_ = int(np.sum(self._conj(X, self.n_stumps_) != pos))
        self.bounds_ = np.asarray(bnds)
        self.bound_ = float(self.bounds_[self.n_stumps_])
        return self

    def _grid_paths(self, X, pos, grid, presorted):
        return scm_paths(X, pos, self._grid_value(grid, "p"), self.max_stumps, presorted=presorted)


class OccamStumps(_StumpConjunction):
    """Conjunction (or disjunction) of decision stumps by the Occam's razor greedy of §6.1:
    U = |Q|/|N'| − p|R|/|P| − η·l with l the bits of the stump's threshold code (§3, Λ_l).

    Parameters: ``p`` (penalty per covered positive), ``eta`` (cost per bit), ``max_stumps``, ``model``,
    ``feature_range`` (None: each gene's training range; or a pair (A, B) valid for every gene), ``delta``.
    Attributes: ``stumps_`` (gene, threshold = the dyadic code value, direction), ``bits_``, ``intervals_`` (the gap
    of equally good thresholds each code lies in), ``utilities_``, ``n_errors_``, ``bound_`` (Theorem 2) and
    ``bounds_`` (of each prefix).

    Parameters
    ----------
    p : float >= 0, default 1.0
        Penalty per covered positive example, the p of the utility U (Shah et al. 2012, §6.1).
    eta : float >= 0, default 0.01
        Cost eta per bit of the threshold's dyadic code (the eta l term of U, §6.1).
    max_stumps : int >= 1, default 10
        Maximal number of stumps in the conjunction.
    model : {"conjunction", "disjunction"}, default "conjunction"
        Conjunction of stumps, or disjunction (the conjunction of the swapped labels, §2).
    feature_range : None or (A, B), default None
        Interval [A, B] the threshold codes are taken in (§3); None: each gene's training range.
    delta : float in (0, 1], default 0.05
        Confidence parameter of the risk bound (Theorem 2; delta/K per class for K >= 3 classes).

    Attributes
    ----------
    classes_ : ndarray (2,) or (K,)
        Class labels.
    positive_class_ : label
        The class the conjunction outputs when every stump outputs 1 (two classes only).
    stumps_ : list of (gene, threshold, direction)
        The stumps in the order chosen; the threshold is the dyadic code value.
    n_stumps_ : int
        Number of stumps.
    bits_ : ndarray of int
        Bits of each threshold's code (l of §3).
    intervals_ : list
        The gap of equally good thresholds each code lies in.
    utilities_ : ndarray
        Utility U of each chosen stump.
    spans_ : ndarray
        Width B - A of each stump's prior range (the unit of the decision values).
    n_errors_ : int
        Training errors.
    bound_ : float
        Risk bound of Theorem 2 (K >= 3: union bound over the classes).
    bounds_ : ndarray
        Bound of each prefix of ``stumps_``.
    estimators_ : list of OccamStumps
        The K one-vs-rest learners (K >= 3 only).
    stump_classes_ : ndarray
        The class of each stump (K >= 3 only).
    class_bounds_ : ndarray (K,)
        Bound of each one-vs-rest learner (K >= 3 only).
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import OccamStumps
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> occam = OccamStumps(p=1.0, eta=0.01).fit(X[::2], y[::2])
    >>> [(gene, round(threshold, 2), direction) for gene, threshold, direction in occam.stumps_]
    [(1, -0.03, 1)]
    >>> occam.n_errors_, occam.score(X[1::2], y[1::2])
    (1, 0.8)
    >>> print(f"{occam.bound_:.2f}")                                # Theorem 2: risk bound at delta = 0.05
    0.59
    """

    _parameter_constraints = {**_COMMON, **_RANGE}

    def __init__(self, *, p=1.0, eta=0.01, max_stumps=10, model="conjunction", feature_range=None, delta=0.05):
        self.p = p
        self.eta = eta
        self.max_stumps = max_stumps
        self.model = model
        self.feature_range = feature_range
        self.delta = delta

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, presorted=None):
        """Fit on (X, y); ``presorted`` optionally gives ``presort(X)`` (e.g. from :func:`presort_rows`)."""
        X, pos = self._prepare(X, y)
        if self._is_ovr():
            return self._fit_one_vs_rest(X, pos, presorted)
        A, B = self._ranges(X)
        path = occam_paths(X, pos, self.p, self.eta, self.max_stumps, A, B, presorted=presorted)[0]
        return self._fit_path(X, pos, path, A, B)

    def _fit_path(self, X, pos, path, A=None, B=None):
        self.stumps_ = list(zip(path["gene"], path["threshold"], path["direction"]))
        self.n_stumps_ = len(self.stumps_)
        self._set_spans(X, A, B)
        self.bits_ = np.asarray(path["bits"], dtype=np.int64)
        self.intervals_ = list(path["interval"])
        self.utilities_ = np.asarray(path["utility"])
        m, n = X.shape
        bnds = []
        for k in range(self.n_stumps_ + 1):
            err = int(np.sum(self._conj(X, k) != pos))
            bnds.append(_bounds.occam_bound(err, m, n, self.bits_[:k], self.delta))
        self.n_errors_ = int(np.sum(self._conj(X, self.n_stumps_) != pos))
        self.bounds_ = np.asarray(bnds)
        self.bound_ = float(self.bounds_[self.n_stumps_])
        return self

    def _grid_paths(self, X, pos, grid, presorted):
        A, B = self._ranges(X)
        return occam_paths(X, pos, self._grid_value(grid, "p"), self._grid_value(grid, "eta"), self.max_stumps, A, B,
                           presorted=presorted)


class PACBayesStumps(_StumpConjunction):
    """PAC-Bayes conjunction (or disjunction) of decision stumps with margin intervals (§5, §6.2).

    Each stump k has an interval [a_k, b_k] on which its threshold is uniform (the posterior Q). ``predict`` is
    the Bayes classifier of Eq. 6 (positive class when Π_k σ_k > 1/2), ``predict_proba`` gives Π_k σ_k (the
    probability that the Gibbs classifier outputs the positive class), :meth:`gibbs_risk` the expected Gibbs error
    of Eq. 5. With ``margin="fixed"`` (§6.2.2) every interval has width 2·gamma·(B−A) and ``predict`` is the
    deterministic conjunction of stumps at the interval middles.

    Parameters
    ----------
    p : float, default 1.0
        Penalty for the positive-side error.
    eta : float, default 0.01
        Weight of the margin term ln((B−A)/(b−a)) in the utility.
    max_stumps : int, default 10
    model : "conjunction" or "disjunction"
    margin : "variable" (default) or "fixed"
    gamma : float in (0, 0.5], default 0.05
        Half-width of the fixed margin as a fraction of the gene's range (only with ``margin="fixed"``).
    feature_range : None or (A, B)
        Prior ranges of the thresholds (None: each gene's training range).
    delta : float, default 0.05

    Attributes
    ----------
    stumps_ : list of (gene, (a, b), direction).  thresholds_ : the interval middles.
    utilities_, genes_searched_ (genes scored exactly per step: the pruning at work), gibbs_risk_ (training
    Gibbs risk), bound_ (Theorem 5 on the Gibbs risk; the Bayes classifier's risk is at most twice it),
    bounds_ (each prefix), kl_ (KL(Q‖P)).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import PACBayesStumps
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> pb = PACBayesStumps(p=1.0, eta=0.01).fit(X[::2], y[::2])
    >>> [gene for gene, _, _ in pb.stumps_], pb.score(X[1::2], y[1::2])
    ([0], 0.85)
    >>> pb.predict_proba(X[1:6:2]).round(2).tolist()
    [[1.0, 0.0], [0.94, 0.06], [0.67, 0.33]]
    >>> print(f"Gibbs risk {pb.gibbs_risk_:.2f}, bound {pb.bound_:.2f}")
    Gibbs risk 0.05, bound 0.64
    """

    _parameter_constraints = {**_COMMON, **_RANGE, "margin": [StrOptions({"variable", "fixed"})],
                              "gamma": [real(0, 0.5, "right")]}

    def __init__(self, *, p=1.0, eta=0.01, max_stumps=10, model="conjunction", margin="variable", gamma=0.05,
                 feature_range=None, delta=0.05):
        self.p = p
        self.eta = eta
        self.max_stumps = max_stumps
        self.model = model
        self.margin = margin
        self.gamma = gamma
        self.feature_range = feature_range
        self.delta = delta

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, presorted=None):
        """Fit on (X, y); ``presorted`` optionally gives ``presort(X)`` (e.g. from :func:`presort_rows`)."""
        X, pos = self._prepare(X, y)
        if self._is_ovr():
            return self._fit_one_vs_rest(X, pos, presorted)
        width = float(self.gamma) if self.margin == "fixed" else 0.0
        A, B = self._ranges(X)
        path = pac_bayes_paths(X, pos, self.p, self.eta, self.max_stumps, A, B, width_frac=width,
                               presorted=presorted)[0]
        return self._fit_path(X, pos, path, A, B)

    def _fit_path(self, X, pos, path, A=None, B=None):
        self.intervals_ = list(zip(path["a"], path["b"]))
        self.stumps_ = list(zip(path["gene"], self.intervals_, path["direction"]))
        self.n_stumps_ = len(self.stumps_)
        self.thresholds_ = np.array([(a + b) / 2.0 for a, b in self.intervals_])
        self._set_spans(X, A, B)
        self.utilities_ = np.asarray(path["utility"])
        self.genes_searched_ = np.asarray(path["searched"], dtype=np.int64)
        m, n = X.shape
        genes = np.asarray(path["gene"], dtype=np.int64)
        lr = np.log(B[genes] - A[genes]) - np.log(np.asarray(path["b"]) - np.asarray(path["a"]))
        bnds = []
        for k in range(self.n_stumps_ + 1):
            r = float(np.mean(self._gibbs_losses(X, pos, k)))
            bnds.append(_bounds.pac_bayes_bound(r, m, n, lr[:k], self.delta))
        self.log_ratios_ = lr
        self.kl_ = _bounds.pac_bayes_kl(n, lr)
        self.gibbs_risk_ = float(np.mean(self._gibbs_losses(X, pos, self.n_stumps_)))
        self.bounds_ = np.asarray(bnds)
        self.bound_ = float(self.bounds_[self.n_stumps_])
        return self

    def _grid_paths(self, X, pos, grid, presorted):
        A, B = self._ranges(X)
        ps = self._grid_value(grid, "p")
        if self.margin != "fixed":
            return pac_bayes_paths(X, pos, ps, self._grid_value(grid, "eta"), self.max_stumps, A, B,
                                   presorted=presorted)
        out = []  # the fixed margin: one path per (p, gamma); eta is the learner's own
        for p, gam in zip(ps, self._grid_value(grid, "gamma")):
            if not 0.0 < gam <= 0.5:
                raise ValueError(f"gamma must lie in (0, 0.5] (half-width as a fraction of the range), got {gam!r}")
            out.extend(pac_bayes_paths(X, pos, p, self.eta, self.max_stumps, A, B, width_frac=gam,
                                       presorted=presorted))
        return out

    def _path_thresholds(self, path):
        return (np.asarray(path["a"]) + np.asarray(path["b"])) / 2.0

    def _prefix_losses(self, path, X, pos, S):
        """(S,) hard-conjunction errors (fixed margin) or expected Gibbs errors (variable margin) of the first
        1..S stumps of ``path`` on (X, pos)."""
        if self.margin == "fixed":
            return super()._prefix_losses(path, X, pos, S)
        k = len(path["gene"])
        loss = np.empty(S)
        sig = soft_outputs(X, path["gene"], path["a"], path["b"], path["direction"]) if k else np.ones((X.shape[0], 0))
        cum = np.cumprod(sig, axis=1) if k else sig
        for s in range(S):
            pr = cum[:, min(s, k - 1)] if k else np.ones(X.shape[0])
            loss[s] = np.sum(np.where(pos, 1.0 - pr, pr))
        return loss

    def _prod(self, X, k):
        if k == 0:
            return np.ones(X.shape[0])
        g = [s[0] for s in self.stumps_[:k]]
        a = [s[1][0] for s in self.stumps_[:k]]
        b = [s[1][1] for s in self.stumps_[:k]]
        d = [s[2] for s in self.stumps_[:k]]
        return soft_outputs(X, g, a, b, d).prod(axis=1)

    def _gibbs_losses(self, X, pos, k):
        pr = self._prod(X, k)
        return np.where(pos, 1.0 - pr, pr)  # Eq. 5: (1 - 2y)(prod - y)

    def _conj(self, X, k):
        if self.margin == "fixed":
            if k == 0:
                return np.ones(X.shape[0], dtype=bool)
            g = [s[0] for s in self.stumps_[:k]]
            d = [s[2] for s in self.stumps_[:k]]
            return stump_outputs(X, g, self.thresholds_[:k], d).all(axis=1)
        return self._prod(X, k) > 0.5

    def _thresholds(self):
        return list(self.thresholds_)

    def _score(self, X, k):
        """Variable margins: ``prod sigma - 1/2``, > 0 exactly where the Bayes classifier (Eq. 6) outputs 1; fixed
        margin: the hard conjunction's margin at the interval middles (the base class)."""
        if self.margin == "fixed":
            return super()._score(X, k)
        return self._prod(X, k) - 0.5

    def _extended_score(self, X, k):
        """``prod sigma - 1/2`` of the first k stumps where the product lies strictly between 0 and 1; beyond the
        margin intervals, where it saturates, continued by the sample's depth in units of each gene's prior range:
        ``1/2 + min_j (how far past its interval's claiming end)`` where every sigma is 1, ``-1/2 - max_j (how far
        past its interval's other end)`` where some sigma is 0. Ordered as prod sigma wherever that tells samples
        apart, and > 0 exactly where the Bayes classifier (Eq. 6) outputs 1, so a one-vs-rest argmax over it is
        still a decision whose errors need a binary error (the union bound holds), with the ties of the saturated
        products (frequent: no class, or several, claim a sample with certainty) broken by depth instead of by the
        order of the classes."""
        pr = self._prod(X, k)
        s = pr - 0.5
        if k == 0:
            return s
        g = [st[0] for st in self.stumps_[:k]]
        a = np.asarray([st[1][0] for st in self.stumps_[:k]], dtype=float)
        b = np.asarray([st[1][1] for st in self.stumps_[:k]], dtype=float)
        up = np.asarray([st[2] for st in self.stumps_[:k]]) > 0
        x = X[:, g]
        past_claim = np.where(up, x - b, a - x) / self.spans_[:k]  # >= 0 where sigma = 1
        past_other = np.where(up, a - x, x - b) / self.spans_[:k]  # >= 0 where sigma = 0
        s = np.where(pr >= 1.0, 0.5 + np.maximum(past_claim.min(axis=1), 0.0), s)
        return np.where(pr <= 0.0, -0.5 - np.maximum(past_other.max(axis=1), 0.0), s)

    def _ovr_prefix(self, X, k):
        if self.margin == "fixed":
            return self._decision_prefix(X, k)
        return self._signed(self._extended_score(X, k))

    @available_if(_has_predict_proba)
    def predict_proba(self, X):
        """Columns follow ``classes_``: the Gibbs classifier's probability of each class (Π σ for the positive).
        Two classes only (K >= 3: each class's through ``estimators_[k].predict_proba``; see
        ``_has_predict_proba``)."""
        X = self._validate_X(X)
        pr = self._prod(X, self.n_stumps_)
        return np.column_stack([1.0 - pr, pr] if self.positive_class_ == self.classes_[1] else [pr, 1.0 - pr])

    def staged_proba(self, X):
        """Π σ of the first 1, 2, ... stumps (probability of ``positive_class_`` under the Gibbs classifier). Two
        classes only."""
        self._refuse_ovr("staged_proba")
        X = self._validate_X(X)
        for k in range(1, self.n_stumps_ + 1):
            yield self._prod(X, k)

    def _refuse_ovr(self, what):
        if self._is_ovr():
            raise ValueError(f"PACBayesStumps.{what}: with {len(self.classes_)} classes the learner is K one-vs-rest "
                             f"Gibbs classifiers, not one; use estimators_[k].{what} for class k against the rest "
                             "(labels y == classes_[k]; the sum of their Gibbs risks bounds the risk of the "
                             "one-vs-rest Gibbs classifier)")

    def gibbs_losses(self, X, y):
        """Expected error of the Gibbs classifier on each sample of (X, y): (1 − 2y)(Π σ − y) of Eq. 5, i.e.
        1 − Π σ for a sample of ``positive_class_`` and Π σ for the others (their sum is the expected number of
        errors). Two classes only (K >= 3: per class, through ``estimators_``)."""
        self._refuse_ovr("gibbs_losses")
        X = self._validate_X(X)
        y = np.asarray(y)
        pr = self._prod(X, self.n_stumps_)
        return np.where(y == self.positive_class_, 1.0 - pr, pr)

    def gibbs_risk(self, X, y):
        """Expected error rate of the Gibbs classifier on (X, y) (Eq. 5, averaged). Two classes only."""
        self._refuse_ovr("gibbs_risk")
        return float(np.mean(self.gibbs_losses(X, y)))


class AdaBoostStumps(BinaryClassifier):
    """AdaBoost with decision stumps, the ensemble of scikit-learn's
    ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=n_estimators)`` (SAMME, learning rate 1)
    for two classes, computed with every gene sorted once per fit and one numba pass per round.

    Differences from scikit-learn: genes are scanned in index order (scikit-learn visits them in a random order,
    so among exactly tied splits it may pick another gene); scikit-learn's tolerance for equal values (1e-7,
    absolute) is applied in data-relative units (:func:`tree_tolerance`: the same on data whose genes range over
    1/2 or more, scaled with the data below), so data scaled by 1e-7 or 1e-200 give the ensemble of scale 1 where
    scikit-learn's trees see one value per gene; the ensemble is otherwise the same, stump for stump.
    Attributes: ``genes_``, ``thresholds_``, ``left_``, ``right_`` (±1 labels of x <= threshold / x > threshold),
    ``alphas_``, ``errors_``, ``n_rounds_`` (fewer than ``n_estimators`` when a round fits the data perfectly).
    :meth:`staged_predict` yields the prediction after every round (one fit for every number of rounds).
    ``predict_proba`` is scikit-learn's: the softmax of the decision (two classes: of (-d, d)/2).

    K >= 3 classes (``multi_class``):

    - ``"ovr"`` (default): one ensemble per class against the rest (K binary fits on one presort, ``estimators_``,
      exactly those of scikit-learn's ``OneVsRestClassifier`` around the two-class learner, tested);
      ``decision_function`` (n, K) stacks their decisions, ``predict`` is its argmax, ``predict_proba`` their
      probabilities of their class normalised over the classes (as ``OneVsRestClassifier``); ``genes_`` lists the
      genes of all K ensembles (class by class), ``n_rounds_`` the rounds of the longest, ``staged_predict`` the
      decision of the K ensembles after their first t rounds.
    - ``"samme"``: AdaBoost's own multi-class form, discrete SAMME (Zhu, Zou, Rosset & Hastie 2009, "Multi-class
      AdaBoost", Algorithm 2), what scikit-learn's ``AdaBoostClassifier`` runs: each round fits a K-class depth-1
      Gini tree (each leaf predicts its heaviest class), weighs it by ``log((1 - e)/e) + log(K - 1)`` and stops
      before a round no better than chance (weighted error e >= 1 - 1/K); the weights are floored at the machine
      epsilon each round as scikit-learn does (:func:`samme_path`). One ensemble of K-class stumps: ``left_`` and
      ``right_`` are class indices (into ``classes_``), ``decision_function`` is (n, K),
      ``sum_t alpha_t (1 if h_t(x) = k else -1/(K-1)) / sum_t alpha_t``, and ``predict_proba`` its softmax divided
      by K - 1 (Zhu et al.'s Eq. 15, as scikit-learn).

    Why one-vs-rest by default: a stump has two leaves, so it names at most two of the K classes, and SAMME with
    stumps can lock into a cycle: on Khan's four SRBCT classes the weighted error of every round after the first is
    exactly 1/4, two stumps alternate, and the test accuracy of three stratified splits is 63 %, 32 % and 11 %
    (scikit-learn's ``AdaBoostClassifier`` gives the same ensembles), against 89 %, 95 % and 95 % one-vs-rest.

    Parameters
    ----------
    n_estimators : int >= 1, default 50
        Maximal number of boosting rounds (Freund & Schapire 1997; fewer when a round fits the data perfectly).
    multi_class : {"ovr", "samme"}, default "ovr"
        K >= 3 classes: one ensemble per class against the rest, or discrete SAMME (Zhu et al. 2009,
        Algorithm 2); ignored for two classes.

    Attributes
    ----------
    classes_ : ndarray (2,) or (K,)
        Class labels.
    genes_ : ndarray of int
        Gene of each round's stump (one-vs-rest: of all K ensembles, class by class).
    thresholds_ : ndarray
        Threshold of each round's stump (not one-vs-rest).
    left_ : ndarray of int
        Label of x <= threshold: ±1 for two classes, a class index with SAMME (not one-vs-rest).
    right_ : ndarray of int
        Label of x > threshold (as ``left_``).
    alphas_ : ndarray
        Weight of each round's stump (not one-vs-rest).
    errors_ : ndarray
        Weighted training error of each round's stump (not one-vs-rest).
    n_rounds_ : int
        Rounds run (one-vs-rest: of the longest ensemble).
    estimators_ : list of AdaBoostStumps
        The K one-vs-rest ensembles (``multi_class="ovr"`` with K >= 3 only).
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import AdaBoostStumps
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> boost = AdaBoostStumps(n_estimators=20).fit(X[::2], y[::2])
    >>> boost.n_rounds_, boost.genes_[:5].tolist()
    (20, [0, 1, 2, 0, 48])
    >>> [float(np.mean(p == y[1::2])) for p in boost.staged_predict(X[1::2])][::5]   # test accuracy, rounds 1, 6, ...
    [0.85, 0.85, 0.75, 0.7]
    >>> boost.score(X[1::2], y[1::2])
    0.7
    """

    _parameter_constraints = {"n_estimators": [POSITIVE_INT], "multi_class": [StrOptions({"ovr", "samme"})]}
    _multi_class = True  # K >= 3 classes: one-vs-rest or SAMME (see above)

    def __init__(self, *, n_estimators=50, multi_class="ovr"):
        self.n_estimators = n_estimators
        self.multi_class = multi_class

    def _is_ovr(self):
        return len(getattr(self, "classes_", ())) > 2 and self.multi_class == "ovr"

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, presorted=None):
        """Fit on (X, y); ``presorted`` optionally gives ``presort(X)`` (e.g. from :func:`presort_rows`)."""
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=1)
        self.__dict__.pop("estimators_", None)
        if self._is_ovr():
            presorted = presort(X) if presorted is None else presorted
            self.estimators_ = ovr_fit(self, X, y_enc, self.classes_.size, fit_params={"presorted": presorted})
            for name in ("thresholds_", "left_", "right_", "alphas_", "errors_"):
                self.__dict__.pop(name, None)
            self.genes_ = np.concatenate([e.genes_ for e in self.estimators_])
            self.n_rounds_ = max(e.n_rounds_ for e in self.estimators_)
            return self
        if self.classes_.size > 2:
            rec = samme_path(X, y_enc, self.classes_.size, self.n_estimators, presorted=presorted)
        else:
            rec = adaboost_path(X, y_enc, self.n_estimators, presorted=presorted)
        self.genes_ = rec["gene"].astype(np.int64)
        self.thresholds_ = rec["threshold"].astype(float)
        self.left_ = rec["left"].astype(np.int64)
        self.right_ = rec["right"].astype(np.int64)
        self.alphas_ = rec["alpha"].astype(float)
        self.errors_ = rec["error"].astype(float)
        self.n_rounds_ = int(self.genes_.size)
        return self

    def _votes(self, X):
        g = np.where(self.genes_ >= 0, self.genes_, 0)
        x = X[:, g]
        return np.where(x <= self.thresholds_, self.left_, self.right_) * self.alphas_  # (n, rounds)

    def _staged_decision(self, X):
        """(n, rounds) two-class decisions after 1, 2, ... rounds: ``2 sum_{s<=t} alpha_s h_s(x) / sum_{s<=t}
        alpha_s``."""
        return 2.0 * np.cumsum(self._votes(X), axis=1) / np.cumsum(self.alphas_)

    def _class_votes(self, X):
        """(n, rounds): the class index each round's stump gives (K >= 3)."""
        g = np.where(self.genes_ >= 0, self.genes_, 0)
        return np.where(X[:, g] <= self.thresholds_, self.left_, self.right_)

    def _samme_terms(self, X):
        """Yields each round's (n, K) term of the SAMME decision: alpha_t where h_t(x) = k, -alpha_t/(K-1) elsewhere
        (scikit-learn's arithmetic)."""
        K = self.classes_.size
        H = self._class_votes(X)
        ks = np.arange(K)
        for t in range(self.n_rounds_):
            a = self.alphas_[t]
            yield np.where(H[:, t, None] == ks, a, -1 / (K - 1) * a)

    def decision_function(self, X):
        """Two classes: (n,), ``2 sum_t alpha_t h_t(x) / sum_t alpha_t`` (h_t = ±1), positive for ``classes_[1]``,
        as scikit-learn's ``AdaBoostClassifier``; K >= 3: (n, K), the K one-vs-rest decisions or the SAMME decision
        (see the class docstring)."""
        check_is_fitted(self, "n_rounds_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self._is_ovr():
            return np.column_stack([e.decision_function(X) for e in self.estimators_])
        if self.classes_.size > 2:
            pred = sum(self._samme_terms(X))
            return pred / self.alphas_.sum()
        # scikit-learn's two-class SAMME decision: 2 sum_t alpha_t h_t(x) / sum_t alpha_t
        return 2.0 * self._votes(X).sum(axis=1) / self.alphas_.sum()

    def predict_proba(self, X):
        """Class probabilities (columns follow ``classes_``): the softmax of the decision divided by K - 1 (two
        classes: of (-d, d)/2), Zhu et al. 2009 Eq. 15, as scikit-learn's ``AdaBoostClassifier``."""
        from scipy.special import softmax

        if self._is_ovr():
            check_is_fitted(self, "n_rounds_")
            X = validate_data(self, X, dtype=np.float64, reset=False)
            return normalise_ovr_proba(np.column_stack([e.predict_proba(X)[:, 1] for e in self.estimators_]))
        d = self.decision_function(X)
        if d.ndim == 1:
            return softmax(np.column_stack([-d, d]) / 2.0, axis=1)
        return softmax(d / (self.classes_.size - 1), axis=1)

    def staged_predict(self, X):
        """Predictions after 1, 2, ..., n_rounds_ rounds (one-vs-rest: of the K ensembles after their first t
        rounds, each decision normalised by its own weights so far, as ``decision_function``)."""
        check_is_fitted(self, "n_rounds_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self._is_ovr():
            staged = [e._staged_decision(X) for e in self.estimators_]
            for t in range(self.n_rounds_):
                D = np.column_stack([d[:, min(t, d.shape[1] - 1)] for d in staged])
                yield self.classes_[np.argmax(D, axis=1)]
            return
        if self.classes_.size > 2:
            cum = 0.0
            for term in self._samme_terms(X):
                cum = cum + term
                yield self.classes_[np.argmax(cum, axis=1)]
            return
        cum = np.cumsum(self._votes(X), axis=1)
        for t in range(self.n_rounds_):
            yield np.where(cum[:, t] > 0, self.classes_[1], self.classes_[0])


def warm_up():
    """Compile the kernels once (numba caches them on disk), so that the first fit of a timed protocol does not
    pay for it."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 3))
    pos = np.array([True, False] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scm_paths(X, pos, [1.0, 2.0], 2)
        occam_paths(X, pos, [1.0, 2.0], 0.01, 2, X.min(0), X.max(0))
        pac_bayes_paths(X, pos, [1.0, 2.0], 0.01, 2, X.min(0), X.max(0))
        pac_bayes_paths(X, pos, 1.0, 0.01, 2, X.min(0), X.max(0), width_frac=0.1)
        presort_rows(presort(X), np.arange(4))
        adaboost_path(X, np.where(pos, 1, -1), 3)
        samme_path(X, np.arange(8) % 3, 3, 3)
