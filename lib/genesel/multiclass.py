"""Gene selection for K classes with a binary selector: :class:`OneVsRestSelector`.

Most gene-selection criteria of the papers genesel reproduces are defined for two classes (Golub's signal-to-noise
ratio, the SVM-RFE and l2-AROM weights, ALMA's margins, the stump conjunctions). The classical way to use them on a
study with K >= 3 classes (tumour subtypes, tissues) is one class against the rest: Golub et al. (1999) and
Ramaswamy et al. (2001) rank genes for each class against all the others and pool the per-class lists. This module
does that for any binary selector of genesel or scikit-learn, and combines the K rankings into one
(:func:`genesel._core.multiclass.combine_ranks`).

For classifiers, scikit-learn's :class:`sklearn.multiclass.OneVsRestClassifier` is the one-vs-rest tool and
genesel does not repeat it; it has no ``transform``, so it cannot select genes, which is what this wrapper adds. The
estimators of genesel that are binary by construction and have a natural multi-class form fit K classes
themselves (ALMA and its selectors one-vs-rest, the stump conjunctions one-vs-rest with a union risk bound,
AdaBoost as SAMME): see :mod:`genesel._core.multiclass` for the decomposition and the bound.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context, clone

from genesel._core.multiclass import COMBINE, check_classifier_fit, combine_ranks, ovr_fit, problem_ranks
from genesel._core.params import N_FEATURES, HasMethods, StrOptions
from genesel._core.selector import SelectorBase
from genesel.filters import SignalToNoiseSelector

__all__ = ["OneVsRestSelector"]


class OneVsRestSelector(SelectorBase):
    """Select genes for K classes with a binary selector, one class against the rest, and combine the K rankings.

    For K >= 3 classes, a clone of ``estimator`` is fitted on each problem "class k against the other K-1
    classes" (all training samples; class k labelled 1, the rest 0, as scikit-learn's ``OneVsRestClassifier``).
    Each problem ranks the genes (its ``feature_order_``, else ``ranking_``, else ``scores_``; competition ranks,
    tied genes share the better rank) and the K rankings are combined (``combine``):

    - ``"best_rank"`` (default): by each gene's best rank over the K problems, then its mean rank. The genes whose
      best rank is at most r are the union of the K per-class top-r lists, so every class brings its own markers
      (Forman's "round robin", JMLR 3, 2003; Golub et al. 1999 and Ramaswamy et al. 2001 pool per-class lists);
    - ``"mean_rank"``: by the mean rank (Borda count), then the best rank: genes that separate every class first.

    With two classes the selector is fitted once on the labels as given (one problem; its ranking is the result).

    Parameters
    ----------
    estimator : a binary selector, default None
        Anything with ``fit(X, y)`` and one of ``feature_order_``, ``ranking_``, ``scores_`` or ``get_support()``
        (genesel's selectors, scikit-learn's ``SelectKBest`` / ``RFE``). None: Golub's signal-to-noise selector,
        ``SignalToNoiseSelector()`` (its top 50 genes per class against the rest).
    n_features_to_select : int, float or None, default None
        The number of genes of the combined ranking to keep (a count; a fraction of the genes). None: the union of
        the K problems' own selections (each selector's ``get_support()``; all genes for one that has none).
    combine : "best_rank" or "mean_rank"

    Attributes
    ----------
    estimators_ : the K fitted selectors (one for two classes), in ``classes_`` order
    classes_ : the class labels
    ranks_ : ndarray (K, n_features_in_), the competition rank of every gene in every problem
    feature_order_ : all genes best first (the combined ranking); ``ranking_`` its positions (1 = best)
    support_ : the genes kept; ``n_features_`` their number

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import OneVsRestSelector, SignalToNoiseSelector
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(45, 100)), np.repeat([0, 1, 2], 15)    # 45 samples x 100 genes, 3 classes
    >>> X[:, :3] += 2.0 * np.eye(3)[y]                                    # gene k is up in class k
    >>> sel = OneVsRestSelector(SignalToNoiseSelector(balanced=False), n_features_to_select=3).fit(X, y)
    >>> np.flatnonzero(sel.support_).tolist(), sel.ranks_[:, :3].astype(int).tolist()
    ([0, 1, 2], [[1, 3, 9], [6, 1, 4], [6, 48, 1]])
    """

    _multi_class = True
    _parameter_constraints = {"estimator": [HasMethods(["fit"]), None], "n_features_to_select": N_FEATURES,
                              "combine": [StrOptions(set(COMBINE))]}

    def __init__(self, estimator=None, *, n_features_to_select=None, combine="best_rank"):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.combine = combine

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, **fit_params):
        """Fit the selector on each problem; ``fit_params`` go to every one of its fits."""
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=1)
        base = SignalToNoiseSelector() if self.estimator is None else self.estimator
        d = X.shape[1]
        if self.classes_.size > 2:
            self.estimators_ = ovr_fit(base, X, y_enc, self.classes_.size, fit_params=fit_params)
        else:  # one problem, on the labels as given
            self.estimators_ = [clone(base).fit(X, self.classes_[(y_enc > 0).astype(int)], **fit_params)]
        self.ranks_ = np.array([problem_ranks(e, d) for e in self.estimators_])
        self.feature_order_ = combine_ranks(self.ranks_, self.combine)
        ranking = np.empty(d, dtype=np.int64)
        ranking[self.feature_order_] = np.arange(1, d + 1)
        self.ranking_ = ranking
        if self.n_features_to_select is None:
            support = np.zeros(d, dtype=bool)
            for e in self.estimators_:
                support |= np.asarray(e.get_support(), dtype=bool) if hasattr(e, "get_support") else True
        else:
            support = ranking <= self._n_select(d, None)
        self.support_ = support
        self.n_features_ = int(support.sum())
        return self
