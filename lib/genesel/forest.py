"""Gene selection with random forests by backward elimination on the out-of-bag error (Díaz-Uriarte & Alvarez de
Andrés 2006).

R. Díaz-Uriarte, S. Alvarez de Andrés, *Gene selection and classification of microarray data using random forest*,
BMC Bioinformatics 7:3, 2006, section "Gene selection using random forest" (the procedure of their R package
varSelRF):

1. fit a forest on all genes and rank the genes by their importance in it; the importances are *not* recomputed
   later ("we do not recalculate variable importances at each step": recomputing them overfits, Svetnik et al.);
2. repeatedly drop the fraction ``fraction_dropped`` (0.2) of the remaining genes with the smallest importance and
   fit a new forest on the survivors, recording its out-of-bag (OOB) error, until two genes are left;
3. keep the smallest set whose OOB error is within ``se_rule`` standard errors of the smallest OOB error of the
   path, the standard error being that of a proportion, sqrt(e (1 - e) / n) at the minimum e ("s.e. 0" and
   "s.e. 1" in their Table 2).

Their table used 2000 trees and mtry = sqrt(number of genes) ("mtryFactor = 1"). Importance here is scikit-learn's
impurity (Gini) decrease, ``feature_importances_``; the paper used randomForest's permutation importance (mean
decrease in accuracy), which scikit-learn computes only on held-out data at the cost of one pass per gene. The
forests are :class:`sklearn.ensemble.RandomForestClassifier` (one thread), seeded from ``random_state``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils import check_random_state

from genesel._core.params import POSITIVE_INT, real
from genesel._core.selector import SelectorBase
from genesel._core.units import tree_units
from genesel._core.validation import check_binary_fit

__all__ = ["RFBackwardSelector", "backward_sizes"]


def backward_sizes(n_features: int, fraction_dropped: float, min_features: int = 2) -> np.ndarray:
    """The numbers of genes the elimination visits: n, then ``n - max(1, floor(fraction * n))`` at each step while
    more than ``min_features`` remain, ending at ``min_features`` (or n when n <= min_features)."""
    n = int(n_features)
    out = [n]
    while n > min_features:
        n = max(min_features, n - max(1, int(np.floor(fraction_dropped * n))))
        out.append(n)
    return np.asarray(out, dtype=np.int64)


class RFBackwardSelector(SelectorBase):
    """Random-forest backward elimination with the size chosen by the out-of-bag error (Díaz-Uriarte & Alvarez de
    Andrés 2006; module docstring).

    Parameters
    ----------
    n_estimators : int, default 2000
        Trees of the first forest (whose importances rank the genes).
    n_estimators_iter : int, default 1000
        Trees of every later forest (the OOB error along the path).
    fraction_dropped : float in (0, 1), default 0.2
        Fraction of the remaining genes dropped at each step.
    mtry_factor : float, default 1.0
        Genes tried at each split: ``mtry_factor * sqrt(number of genes)`` (at least 1).
    se_rule : float >= 0, default 1.0
        The smallest set whose OOB error is within ``se_rule`` standard errors of the minimum (0: the minimum
        itself, ties to fewer genes).
    random_state : int, RandomState or None

    Attributes
    ----------
    importances_ : (n_features,) importance of every gene in the first forest.
    feature_order_ : all genes, best first (by decreasing importance, ties by index).  ranking_ : 1 = best.
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
                              "se_rule": [real(0, None, "left")], "random_state": ["random_state"]}

    def __init__(self, n_estimators=2000, n_estimators_iter=1000, fraction_dropped=0.2, mtry_factor=1.0,
                 se_rule=1.0, random_state=None):
        self.n_estimators = n_estimators
        self.n_estimators_iter = n_estimators_iter
        self.fraction_dropped = fraction_dropped
        self.mtry_factor = mtry_factor
        self.se_rule = se_rule
        self.random_state = random_state

    def _forest(self, n_trees, n_genes, seed):
        mtry = max(1, int(round(self.mtry_factor * np.sqrt(n_genes))))
        return RandomForestClassifier(n_estimators=int(n_trees), max_features=min(mtry, n_genes), oob_score=True,
                                      bootstrap=True, n_jobs=1, random_state=seed)

    @staticmethod
    def _oob_error(forest, y):
        # samples that were in every tree's bootstrap have no OOB vote; they are left out of the error
        dec = forest.oob_decision_function_
        voted = np.isfinite(dec).all(axis=1) & (dec.sum(axis=1) > 0)
        pred = forest.classes_[np.argmax(dec[voted], axis=1)]
        return float(np.mean(pred != y[voted])) if voted.any() else 0.5

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y_pm1, self.classes_ = check_binary_fit(self, X, y, min_samples=2)
        X = tree_units(X)  # float32-safe where needed (data near 1e-300, 1e300 or far from 0), else X itself
        n, d = X.shape
        rng = check_random_state(self.random_state)
        seeds = rng.randint(0, 2**31 - 1, size=len(backward_sizes(d, self.fraction_dropped)) + 1)
        import warnings

        with warnings.catch_warnings():  # a few OOB votes missing with small forests: handled in _oob_error
            warnings.filterwarnings("ignore", message=".*out-of-bag.*", category=UserWarning)
            first = self._forest(self.n_estimators, d, seeds[0]).fit(X, y_pm1)
            imp = np.asarray(first.feature_importances_, dtype=np.float64)
            order = np.lexsort((np.arange(d), -imp)).astype(np.int64)
            sizes = backward_sizes(d, self.fraction_dropped)
            errors = np.empty(sizes.size)
            errors[0] = self._oob_error(first, y_pm1)
            for i, s in enumerate(sizes[1:], start=1):
                genes = np.sort(order[:s])
                f = self._forest(self.n_estimators_iter, int(s), seeds[i]).fit(X[:, genes], y_pm1)
                errors[i] = self._oob_error(f, y_pm1)
        best = errors.min()
        se = np.sqrt(best * (1.0 - best) / n)
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
