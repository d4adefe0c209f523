"""Gene selection with random forests by backward elimination on the out-of-bag error (Díaz-Uriarte & Alvarez de
Andrés 2006).

R. Díaz-Uriarte, S. Alvarez de Andrés, *Gene selection and classification of microarray data using random forest*,
BMC Bioinformatics 7:3, 2006, section "Gene selection using random forest" (the procedure of their R package
varSelRF):

1. fit a forest on all genes and rank the genes by their permutation importance in it (Breiman's "mean decrease in
   accuracy", unscaled: what varSelRF ranks by, ``importance(rf, type = 1, scale = FALSE)`` in its documented
   procedure); the importances are *not* recomputed later ("we do not recalculate variable importances at each
   step": recomputing them overfits, Svetnik et al.);
2. repeatedly drop the fraction ``fraction_dropped`` (0.2) of the remaining genes with the smallest importance, the
   number dropped being ``round(0.2 m)`` of the m left (rounded half to even, as R rounds), and fit a new forest on
   the survivors, recording its out-of-bag (OOB) error, until two genes are left;
3. keep the smallest set whose OOB error is within ``se_rule`` standard errors of the smallest OOB error of the
   path, the standard error being that of a proportion, sqrt(e (1 - e) / n) at the minimum e ("s.e. 0" and
   "s.e. 1" in their Table 2).

Their table used 2000 trees and mtry = sqrt(number of genes) ("mtryFactor = 1"; randomForest truncates,
floor(mtryFactor sqrt(m)), at every step). The permutation importance of a tree is the drop in the accuracy of its
votes on its out-of-bag samples when one gene's values are permuted among them; only a gene the tree splits on can
change a vote, so a tree costs one pass over its out-of-bag samples per gene it splits on (a few), not per gene of
the array, for the first forest only: on a Leukemia outer fold (57 x 7129) the whole selector takes 0.53 s of CPU
either way (``benchmarks/bench_forest.py``). ``importance="gini"`` ranks by the
impurity decrease instead (genesel 0.1's choice; Gini importance favours genes with many distinct values, Strobl et
al., BMC Bioinformatics 8:25, 2007).

The forests are Breiman's random forests (L. Breiman, *Random forests*, Machine Learning 45:5-32, 2001) of Gini
CART trees as :class:`SmallForestClassifier` grows them: genesel's own numba implementation of those definitions
(:mod:`genesel._forest_kernels`; bootstrap samples, genes drawn per node, best Gini split, importances, out-of-bag
votes), with every gene sorted once per fit. The backward elimination sorts the genes once, every later forest
reuses that presort on its subset of genes and keeps no trees, only importances and out-of-bag votes: on a
Leukemia outer fold (57 x 7129) the whole elimination takes about 100 times less CPU than the same loop over
scikit-learn's ``RandomForestClassifier`` (its permutation importances computed by hand on its trees), one
1000-tree forest about 23 times less
(``benchmarks/bench_forest.py``). The forests are statistically, not
tree for tree, those of scikit-learn (other random numbers): ``tests/test_forest.py`` compares OOB errors,
importances and the selector's path with scikit-learn's.

Grouped samples (``fit(X, y, groups=...)``: one label per sample, e.g. the patient of each of a patient's tumour and
normal samples, or of an individual's repeats): every forest is then grown on *grouped* bootstrap samples, a
cluster bootstrap that draws the U groups U times with replacement and takes every member of a group drawn (with
the group's multiplicity), so a group is in a tree's bootstrap sample or out of it whole. Why: the out-of-bag vote
on a sample is meant to be that of trees which never saw it; with the plain bootstrap, a tree that left a sample out
has most often drawn its partner (a sample is out of the bag in a fraction 1/e of the trees, its partner in the bag
in about 1 - 1/e of those), whose nearly identical profile then reaches the same leaf and carries the answer, so the
out-of-bag error is optimistic, and the backward elimination, which chooses its size by that error, with it
(``tests/test_forest_groups.py``: pairs of near-identical samples on noise genes, OOB error far below 0.5 without
groups, about 0.5 with them). The permutation importances are computed on the same out-of-bag samples, whole
groups. A sample whose group every tree drew has no out-of-bag vote and is left out of the error, as without groups
(with U groups a tree leaves a given group out with probability (1 - 1/U)^U, at least 1/4). Without groups (or one
group per sample, labelled in sample order) the forests are bit for bit those of the plain bootstrap.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from genesel import _forest_kernels as FK
from genesel._core.base import BinaryClassifier
from genesel._core.params import POSITIVE_INT, Interval, RealNotInt, StrOptions, real
from genesel._core.selector import SelectorBase
from genesel._core.units import apply_tree_units, tree_units, tree_units_params
from genesel._core.resampling import check_groups, group_units
from genesel._core.multiclass import check_classifier_fit

__all__ = ["SmallForestClassifier", "RFBackwardSelector", "backward_sizes", "presort", "grow_forest"]

#: every tree's SplitMix64 seed is drawn as ``randint(_SEED_HIGH)`` from ``random_state``
_SEED_HIGH = np.iinfo(np.int64).max


def presort(X):
    """The float32 forest's view of X (samples x genes, in tree units), sorted once: ``(vals, order, rank, Xg)``:
    every gene's values sorted (genes x samples, float32), the sample at each sorted position and the dense rank of
    its value (uint8 up to 255 samples; equal float32 values share a rank), and the genes x samples float32 matrix.
    Rows of the four for a subset of genes are the presort of that subset."""
    Xg = np.ascontiguousarray(np.asarray(X, dtype=np.float32).T)
    n = Xg.shape[1]
    itype = np.uint8 if n <= 255 else (np.uint16 if n <= 65535 else np.int64)
    order = np.argsort(Xg, axis=1, kind="stable")
    vals = np.ascontiguousarray(np.take_along_axis(Xg, order, axis=1))
    new = vals[:, 1:] != vals[:, :-1]
    rank = np.zeros(vals.shape, dtype=itype)
    np.cumsum(new, axis=1, out=rank[:, 1:], dtype=itype)
    return vals, np.ascontiguousarray(order, dtype=itype), rank, Xg


def _check_groups(groups, n, who="grow_forest"):
    """``groups`` as an array of n labels (None stays None; :func:`genesel._core.resampling.check_groups`: one label
    per sample, none missing, labels that sort), and at least two groups (with one, every tree draws every sample
    and no sample has an out-of-bag vote); a ValueError naming ``who`` and the problem."""
    g = check_groups(who, groups, n)
    if g is not None and np.unique(g).size < 2:
        raise ValueError(f"{who}: groups must name at least 2 groups for a grouped bootstrap, got 1")
    return g


def _units(groups, n):
    """The bootstrap's units in CSR form (:func:`genesel._core.resampling.group_units`), ``groups`` checked first."""
    return group_units(None if groups is None else _check_groups(groups, n), n)


def grow_forest(pre, y01, n_trees, mtry, random_state, bootstrap=True, keep_trees=True, n_classes=None,
                permutation=False, groups=None):
    """Grow ``n_trees`` trees on the presorted genes ``pre`` (:func:`presort`) with class indices ``y01`` (0/1, or
    0 .. K - 1 for K classes; ``n_classes`` default: the largest index + 1, at least 2), ``mtry`` genes drawn per node
    and one SplitMix64 seed per tree drawn from ``random_state`` (numpy); with ``groups`` (one label per sample) on
    grouped bootstrap samples (module docstring: U draws with replacement among the U groups, in the order of
    ``np.unique``). Returns the kernel's tuple (nodes, offsets, importance sum, trees with a split, out-of-bag sums
    and counts, with one column per class, and the sum over the trees of their permutation importances, zeros unless
    ``permutation``); without ``keep_trees`` the nodes are not kept (importances and out-of-bag votes only). The
    trees do not depend on ``permutation``; without ``groups`` they are those of ``groups=np.arange(n)``."""
    y01 = np.asarray(y01, dtype=np.int64)
    if n_classes is None:
        n_classes = max(2, int(y01.max()) + 1) if y01.size else 2
    seeds = check_random_state(random_state).randint(_SEED_HIGH, size=int(n_trees), dtype=np.int64)
    unit_start, unit_members = _units(groups, pre[3].shape[1])
    return FK.grow_forest(*pre, y01, int(n_classes), seeds, int(mtry), bool(bootstrap), bool(keep_trees),
                          bool(permutation), unit_start, unit_members)


def _importances(imp_sum, n_imp_trees):
    """The forest's Gini importances: the mean of the trees' normalised importances (over the trees that split),
    normalised again (against rounding); zeros when no tree split."""
    if n_imp_trees == 0:
        return np.zeros_like(imp_sum)
    mean = imp_sum / n_imp_trees
    return mean / np.sum(mean)


def _oob_fractions(oob_sum, oob_count):
    """Out-of-bag class fractions per sample (NaN where no tree left the sample out)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(oob_count[:, None] > 0, oob_sum / oob_count[:, None], np.nan)


def _oob_error(frac, y01, accuracy=False):
    """Error (or with ``accuracy`` the accuracy) of the out-of-bag majority (ties to class 0, as ``argmax``) over
    the samples that have a vote; 0.5 when none has."""
    voted = np.isfinite(frac).all(axis=1)
    if not voted.any():
        return 0.5
    right = np.argmax(frac[voted], axis=1) == y01[voted]
    return float(np.mean(right if accuracy else ~right))


class SmallForestClassifier(BinaryClassifier):
    """Breiman's random forest (Machine Learning 45:5-32, 2001) of Gini CART trees, for few samples and many genes; any
    number of classes.

    Each tree is grown on a bootstrap sample of the training samples (multiplicities as weights) to purity (no
    depth limit, one sample per leaf at least), trying ``max_features`` genes drawn without replacement at each
    node and splitting at the midpoint between two consecutive distinct values of the best (Gini decrease); the
    forest averages the trees' leaf class fractions (soft voting); a gene's importance is its share of each tree's
    weighted Gini decrease, averaged over the trees. Genesel's own numba implementation of these definitions
    (:mod:`genesel._forest_kernels`, whose docstring states the tie rules and random numbers), over genes sorted
    once per fit, on float32 data (after the unit change of :func:`genesel._core.units.tree_units_params` where
    float32 would lose the data). For the same parameters it is statistically scikit-learn's
    ``RandomForestClassifier`` (not tree for tree: other random numbers) at a fraction of its CPU on few samples
    and many genes (``benchmarks/bench_forest.py``).

    Any number of classes: a forest is multi-class by nature (Breiman 2001): every split maximises the decrease of
    Gini's impurity 1 - sum_c p_c^2 over all K classes, leaves hold K class fractions, ``predict_proba`` is (n, K)
    and the prediction its arg max (ties to the first class), as scikit-learn's forests. ``decision_function`` is
    P(classes_[1]) - P(classes_[0]) for two classes, as before, and for K > 2 the (n, K) margins p_k - max_{j != k}
    p_j of every class over the strongest other one (positive only for the predicted class; for two classes its
    second column is the binary value). The cost per split grows with K (K class sums per candidate threshold);
    the trees are grown on the same samples, so a K-class forest costs little more than a binary one.

    Parameters
    ----------
    n_estimators : int, default 500
        Trees (randomForest's default; scikit-learn's is 100).
    max_features : "sqrt", "log2", int, float in (0, 1] or None, default "sqrt"
        Genes drawn at each split (as scikit-learn's parameter of that name): sqrt or log2 of the number of genes
        (at least 1), a count, a fraction of the genes, or all of them.
    bootstrap : bool, default True
        Grow each tree on a bootstrap sample (False: on all samples, weight 1 each; no out-of-bag votes).
    random_state : int, RandomState or None

    Attributes
    ----------
    classes_ : the labels (two: classes_[1] is the +1 class).  n_features_in_ : genes.
    feature_importances_ : (n_features,) mean decrease in Gini impurity (each tree's normalised to sum 1).
    oob_decision_function_ : (n_samples, K) out-of-bag class fractions (NaN for a sample every tree drew; only
        with ``bootstrap``; with ``fit(X, y, groups)`` the votes of the trees that left the sample's whole group
        out).  oob_score_ : accuracy of the out-of-bag majority over the samples that have one.
    n_trees_with_split_ : trees that split at least once.  max_features_ : genes tried per split.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import SmallForestClassifier
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 50)), np.repeat([0, 1], 20)       # 40 samples x 50 genes
    >>> X[:, :3] += 1.5 * y[:, None]                                  # genes 0-2 higher in class 1
    >>> rf = SmallForestClassifier(n_estimators=200, random_state=0).fit(X, y)
    >>> sorted(np.argsort(rf.feature_importances_)[::-1][:3].tolist())
    [0, 1, 2]
    >>> bool(rf.oob_score_ > 0.8), rf.predict_proba(X[:2]).shape
    (True, (2, 2))
    """

    _parameter_constraints = {"n_estimators": [POSITIVE_INT],
                              "max_features": [StrOptions({"sqrt", "log2"}), POSITIVE_INT,
                                               Interval(RealNotInt, 0, 1, closed="right"), None],
                              "bootstrap": ["boolean"], "random_state": ["random_state"]}
    _multi_class = True  # Gini over K classes (class docstring)

    def __init__(self, *, n_estimators=500, max_features="sqrt", bootstrap=True, random_state=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _mtry(self, d):
        m = self.max_features
        if m is None:
            return d
        if m == "sqrt":
            return max(1, int(np.sqrt(d)))
        if m == "log2":
            return max(1, int(np.log2(d)))
        if isinstance(m, (int, np.integer)):
            return min(int(m), d)
        return max(1, int(m * d))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Grow the forest on X (samples x genes) and labels y (two or more classes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        groups : array-like of shape (n_samples,), default None
            The group of each sample (e.g. its patient; any labels, at least two groups): every tree is grown on a
            grouped bootstrap sample, the groups drawn with replacement, a group's samples in the bag or out of it
            together, so that no out-of-bag vote on a sample comes from a tree that drew its partner
            (:mod:`genesel.forest`'s docstring). None: the plain bootstrap. No effect without ``bootstrap``.
        """
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep")
        groups = _check_groups(groups, X.shape[0], type(self).__name__)
        y01 = (y_enc == 1).astype(np.int64) if self.classes_.size == 2 else y_enc  # class index 0..K-1
        self._units = tree_units_params(X)
        d = X.shape[1]
        self.max_features_ = self._mtry(d)
        out = grow_forest(presort(apply_tree_units(X, self._units)), y01, self.n_estimators, self.max_features_,
                          self.random_state, self.bootstrap, n_classes=self.classes_.size, groups=groups)
        feature, threshold, left, right, value, offsets, imp_sum, n_imp, oob_sum, oob_count = out[:10]
        self.trees_ = (feature, threshold, left, right, value, offsets)
        self.feature_importances_ = _importances(imp_sum, n_imp)
        self.n_trees_with_split_ = int(n_imp)
        if self.bootstrap:
            self.oob_decision_function_ = _oob_fractions(oob_sum, oob_count)
            self.oob_score_ = _oob_error(self.oob_decision_function_, y01, accuracy=True)
        return self

    def predict_proba(self, X):
        """Mean over the trees of the class fractions in the leaf each sample reaches (columns: ``classes_``)."""
        check_is_fitted(self, "trees_")
        X = self._check_predict_input(X)
        Xg = np.ascontiguousarray(np.asarray(apply_tree_units(X, self._units), dtype=np.float32).T)
        return FK.predict_forest(*self.trees_, Xg) / float(self.trees_[5].size - 1)

    def decision_function(self, X):
        """P(classes_[1]) - P(classes_[0]): positive where the forest votes for ``classes_[1]``; with K > 2 classes
        (n, K), p_k - max_{j != k} p_j (class docstring), whose arg max is ``predict``."""
        p = self.predict_proba(X)
        if p.shape[1] == 2:
            return p[:, 1] - p[:, 0]
        out = np.empty_like(p)
        for k in range(p.shape[1]):
            out[:, k] = p[:, k] - np.max(np.delete(p, k, axis=1), axis=1)
        return out


def backward_sizes(n_features: int, fraction_dropped: float, min_features: int = 2) -> np.ndarray:
    """The numbers of genes the elimination visits: n, then ``n - round(fraction * n)`` at each step while more than
    ``min_features`` remain, ending at ``min_features`` (or n when n <= min_features). ``round`` is to the nearest,
    ties to even (Python's and R's ``round``: varSelRF's ``vars.drop.frac``); at least one gene goes at each step
    (where the rounding gives none, varSelRF would never stop)."""
    n = int(n_features)
    out = [n]
    while n > min_features:
        n = max(min_features, n - max(1, int(round(fraction_dropped * n))))
        out.append(n)
    return np.asarray(out, dtype=np.int64)


class RFBackwardSelector(SelectorBase):
    """Random-forest backward elimination with the size chosen by the out-of-bag error (Díaz-Uriarte & Alvarez de
    Andrés 2006; module docstring).

    Every forest is grown as :class:`SmallForestClassifier` grows it (genesel's numba forest; the genes sorted once
    per fit and reused by every step, no trees kept); the first forest's permutation importances (module
    docstring) rank the genes. The OOB errors, importances and chosen genes agree statistically with the same loop
    over scikit-learn's ``RandomForestClassifier`` with the permutation importances computed by hand on its trees
    (``tests/test_forest.py``), at a small fraction of its CPU. Any number of classes, as the paper's
    (its SRBCT, Brain, NCI60, Lymphoma and Breast sets have 3 to 8): the forests are K-class forests (Gini over all
    classes) and the out-of-bag error is that of the K-class majority vote.

    Parameters
    ----------
    n_estimators : int, default 2000
        Trees of the first forest (whose importances rank the genes).
    n_estimators_iter : int, default 1000
        Trees of every later forest (the OOB error along the path).
    fraction_dropped : float in (0, 1), default 0.2
        Fraction of the remaining genes dropped at each step.
    mtry_factor : float, default 1.0
        Genes tried at each split: ``floor(mtry_factor * sqrt(number of genes))`` (at least 1, at most all).
    se_rule : float >= 0, default 1.0
        The smallest set whose OOB error is within ``se_rule`` standard errors of the minimum (0: the minimum
        itself, ties to fewer genes). The standard error is the paper's, sqrt(e (1 - e) / n) over the n samples
        scored, with ``fit(X, y, groups)`` too: the errors are still counted per sample, and the groups' members
        are scored alike only in part (a tumour and its normal tissue are of different classes), so the effective
        number of independent scores lies between the number of groups U and n. That of U groups,
        sqrt(e (1 - e) / U), is the conservative bound (members scored alike): to use it, pass
        ``se_rule * sqrt(n / U)``.
    importance : {"permutation", "gini"}, default "permutation"
        How the first forest ranks the genes: the mean over its trees of the drop in out-of-bag accuracy when the
        gene is permuted (the paper's), or the mean decrease in Gini impurity.
    random_state : int, RandomState or None

    Attributes
    ----------
    importances_ : (n_features,) importance of every gene in the first forest (of the kind ``importance`` names).
    feature_order_ : all genes, best first (by decreasing importance, ties by index; genes constant in the training
        data last).  ranking_ : 1 = best.
    path_sizes_ : the numbers of genes visited, largest first.  path_oob_errors_ : the OOB error of each.
    support_ : the chosen genes.  n_features_ : their number.  oob_error_ : the OOB error at the chosen size.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import RFBackwardSelector
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 32)), np.repeat([-1, 1], 20)    # 40 samples x 32 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> rf = RFBackwardSelector(n_estimators=100, n_estimators_iter=50, fraction_dropped=0.5, random_state=0)
    >>> rf.fit(X, y).path_sizes_.tolist()                           # the gene counts visited, halving
    [32, 16, 8, 4, 2]
    >>> len(rf.path_oob_errors_), bool(rf.oob_error_ < 0.1)         # an OOB error for each; at the chosen size
    (5, True)
    >>> np.flatnonzero(rf.support_)[:4].tolist()                    # the chosen genes include 0-3
    [0, 1, 2, 3]
    """

    _parameter_constraints = {"n_estimators": [POSITIVE_INT], "n_estimators_iter": [POSITIVE_INT],
                              "fraction_dropped": [real(0, 1, "neither")], "mtry_factor": [real(0, None, "neither")],
                              "se_rule": [real(0, None, "left")],
                              "importance": [StrOptions({"permutation", "gini"})], "random_state": ["random_state"]}
    _multi_class = True  # K-class forests (class docstring)

    def __init__(self, *, n_estimators=2000, n_estimators_iter=1000, fraction_dropped=0.2, mtry_factor=1.0,
                 se_rule=1.0, importance="permutation", random_state=None):
        self.n_estimators = n_estimators
        self.n_estimators_iter = n_estimators_iter
        self.fraction_dropped = fraction_dropped
        self.mtry_factor = mtry_factor
        self.se_rule = se_rule
        self.importance = importance
        self.random_state = random_state

    def _forest(self, pre, y01, n_trees, n_genes, seed, permutation=False, groups=None):
        """One forest on the presorted genes ``pre`` (with ``groups``: on grouped bootstrap samples): (importances,
        OOB error); samples that were in every tree's bootstrap have no OOB vote and are left out of the error.
        Importances: with ``permutation`` the mean over the trees of their permutation importances, else the Gini
        importances."""
        mtry = min(max(1, int(np.floor(self.mtry_factor * np.sqrt(n_genes)))), n_genes)
        out = grow_forest(pre, y01, n_trees, mtry, seed, keep_trees=False, n_classes=self.classes_.size,
                          permutation=permutation, groups=groups)
        imp = out[10] / n_trees if permutation else _importances(out[6], out[7])
        return imp, _oob_error(_oob_fractions(out[8], out[9]), y01)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Rank the genes by the first forest and eliminate backwards (module docstring).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        groups : array-like of shape (n_samples,), default None
            The group of each sample (e.g. its patient, for a patient's tumour and normal samples; any labels, at
            least two groups): every forest, the first one's permutation importances and every OOB error of the
            path then come from grouped bootstrap samples (the groups drawn with replacement, a group's samples out
            of bag together; :mod:`genesel.forest`'s docstring), so that a sample's partner in a tree's bootstrap
            sample cannot make its out-of-bag vote optimistic. None: the plain bootstrap.
        """
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, min_samples=2)
        groups = _check_groups(groups, X.shape[0], type(self).__name__)
        y01 = (y_enc == 1).astype(np.int64) if self.classes_.size == 2 else y_enc  # class index 0..K-1
        X = tree_units(X)  # float32-safe where needed (data near 1e-300, 1e300 or far from 0), else X itself
        n, d = X.shape
        rng = check_random_state(self.random_state)
        seeds = rng.randint(0, 2**31 - 1, size=len(backward_sizes(d, self.fraction_dropped)) + 1)
        pre = presort(X)  # once: every later forest grows on rows of it
        imp, err0 = self._forest(pre, y01, self.n_estimators, d, seeds[0], self.importance == "permutation", groups)
        # constant genes last: no tree can split them, but a permutation importance below 0 would rank below them
        const = np.zeros(d, dtype=bool)
        const[self.constant_genes_] = True
        order = np.lexsort((np.arange(d), -imp, const)).astype(np.int64)
        sizes = backward_sizes(d, self.fraction_dropped)
        errors = np.empty(sizes.size)
        errors[0] = err0
        for i, s in enumerate(sizes[1:], start=1):
            genes = np.sort(order[:s])
            errors[i] = self._forest(tuple(a[genes] for a in pre), y01, self.n_estimators_iter, int(s), seeds[i],
                                     groups=groups)[1]
        best = errors.min()
        se = np.sqrt(best * (1.0 - best) / n)  # n samples scored, with groups too (se_rule in the class docstring)
        ok = np.flatnonzero(errors <= best + self.se_rule * se + 1e-12)
        pick = int(ok[np.argmin(sizes[ok])])
        k = int(sizes[pick])
        self.importances_ = imp
        self.feature_order_ = order
        ranking = np.empty(d, dtype=np.int64)
        ranking[order] = np.arange(1, d + 1)
        self.ranking_ = ranking
        self.path_sizes_ = sizes
        self.path_oob_errors_ = errors
        self.oob_error_ = float(errors[pick])
        self.support_ = ranking <= k
        self.n_features_ = k
        return self
