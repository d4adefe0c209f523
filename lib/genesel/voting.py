"""Golub's weighted-voting classifier and the correlation-based gene rankings used as baseline by Guyon et al.

- Golub et al. (1999), *Molecular classification of cancer*, Science 286:531 (notes 16-19): each informative gene
  g casts the vote v_g = a_g (x_g - b_g) with a_g = P(g, c) = (mu_+ - mu_-)/(sigma_+ + sigma_-) (signal-to-noise)
  and b_g = (mu_+ + mu_-)/2; the class is the sign of sum_g v_g, and the *prediction strength*
  PS = (V_win - V_lose)/(V_win + V_lose) with V_+ / V_- the summed positive / negative votes. The informative
  genes are an equal number of genes with the largest positive and the largest negative P(g, c).
- Guyon, Weston, Barnhill & Vapnik (2002), section 2.2 (Eq. 2-3): the same classifier written as the linear
  discriminant D(x) = w.(x - mu) with w_i = P(i, c), mu = (mu_+ + mu_-)/2 - the paper's "baseline method";
  and the Fisher-like criterion (mu_+ - mu_-)^2/(sigma_+^2 + sigma_-^2) (Pavlidis 2001) as a second ranking.

Class +1 (``classes_[1]``, the larger label) is the positive class. The scores come from
``genesel.filters.signal_to_noise`` / ``fisher_ratio`` (sigma with ddof=0 as in Golub's formula).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import ClassifierTags
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel.filters import fisher_ratio, signal_to_noise
from genesel.validation import check_expression_data, to_pm1

__all__ = ["balanced_order", "GolubVoting", "SignalToNoiseSelector", "FisherSelector"]


def balanced_order(scores):
    """Genes best first with positive and negative scores alternating (Golub's equal split).

    The i-th best positive gene and the i-th best negative gene form a pair (the larger |score| first); pairs are
    concatenated, so the first k genes hold ceil/floor(k/2) of each sign. When one sign runs out, the rest of the
    other follows by decreasing |score|; genes with a zero score come last.
    """
    scores = np.asarray(scores, dtype=float)
    idx = np.arange(scores.size)
    pos = idx[scores > 0]
    neg = idx[scores < 0]
    zero = idx[scores == 0]
    pos = pos[np.argsort(-scores[pos], kind="stable")]
    neg = neg[np.argsort(scores[neg], kind="stable")]
    m = min(pos.size, neg.size)
    out = []
    for i in range(m):
        a, b = pos[i], neg[i]
        out.extend((a, b) if abs(scores[a]) >= abs(scores[b]) else (b, a))
    out.extend(pos[m:].tolist())
    out.extend(neg[m:].tolist())
    out.extend(zero.tolist())
    return np.asarray(out, dtype=np.int64)


def _check_n(n, d, name):
    if n is None:
        return d
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive int or None (all genes), got {n!r}")
    if n > d:
        raise ValueError(f"{name}={n} is larger than the number of genes (n_features = {d}); ask for at most {d}")
    return int(n)


def _fit_binary(est, X, y):
    X, y = validate_data(est, X, y, dtype=np.float64)
    check_classification_targets(y)
    y_type = type_of_target(y, input_name="y", raise_unknown=True)
    if np.unique(y).size >= 2 and y_type != "binary":
        raise ValueError(f"Only binary classification is supported. The type of the target is {y_type}.")
    X, _ = check_expression_data(X, y, name="X")
    y_pm1, classes = to_pm1(y)
    return X, y_pm1, classes


class GolubVoting(ClassifierMixin, BaseEstimator):
    """Golub's weighted-voting classifier on the ``n_genes`` genes with the best signal-to-noise ratio,
    half positively and half negatively correlated with the class (``balanced=True``, Golub 1999), or the
    ``n_genes`` largest |P(g, c)| (``balanced=False``, Furey 2000). ``n_genes=None`` uses every gene.

    ``decision_function`` is the summed vote sum_g a_g (x_g - b_g) (Guyon 2002 Eq. 3);
    ``prediction_strength`` is Golub's PS in [-1, 1] (signed towards classes_[1]).
    Attributes: ``classes_``, ``genes_`` (selected indices, best first), ``scores_`` (P(g, c) of every gene),
    ``coef_`` (1, n_features: a_g on the selected genes, 0 elsewhere), ``intercept_``, ``midpoints_`` (b_g).
    """

    def __init__(self, n_genes=50, balanced=True):
        self.n_genes = n_genes
        self.balanced = balanced

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y):
        X, y_pm1, self.classes_ = _fit_binary(self, X, y)
        d = X.shape[1]
        k = _check_n(self.n_genes, d, "n_genes")
        # a gene constant within both classes would have sigma_+ + sigma_- = 0; P is then +-inf (filters doc);
        # refuse it here rather than vote with an infinite weight
        P = signal_to_noise(X, y_pm1)
        if not np.all(np.isfinite(P)):
            bad = np.flatnonzero(~np.isfinite(P))
            raise ValueError(
                f"X has {bad.size} gene(s) constant within each class (first columns {bad[:5].tolist()}), so their "
                "signal-to-noise ratio is infinite; drop them (e.g. VarianceThreshold per class) first"
            )
        order = balanced_order(P) if self.balanced else np.argsort(-np.abs(P), kind="stable")
        genes = order[:k]
        mu_p = X[y_pm1 > 0].mean(0)
        mu_n = X[y_pm1 < 0].mean(0)
        b = 0.5 * (mu_p + mu_n)
        coef = np.zeros(d)
        coef[genes] = P[genes]
        self.scores_ = P
        self.genes_ = genes
        self.midpoints_ = b
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([-float(P[genes] @ b[genes])])
        return self

    def _votes(self, X):
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        g = self.genes_
        return (X[:, g] - self.midpoints_[g]) * self.scores_[g]

    def decision_function(self, X):
        return self._votes(X).sum(1)

    def prediction_strength(self, X):
        """Golub's PS = (V_+ - V_-)/(V_+ + V_-): +1 all votes for classes_[1], -1 all for classes_[0]."""
        v = self._votes(X)
        vp = np.where(v > 0, v, 0.0).sum(1)
        vn = -np.where(v < 0, v, 0.0).sum(1)
        tot = vp + vn
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(tot > 0, (vp - vn) / tot, 0.0)

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])


class _ScoreSelector(SelectorMixin, BaseEstimator):
    _score = None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.classifier_tags = ClassifierTags(multi_class=False)
        return tags

    def _order(self, scores):  # pragma: no cover - overridden
        raise NotImplementedError

    def fit(self, X, y):
        X, y_pm1, self.classes_ = _fit_binary(self, X, y)
        d = X.shape[1]
        k = _check_n(self.n_features_to_select, d, "n_features_to_select")
        s = type(self)._score(X, y_pm1)
        s = np.nan_to_num(s, nan=0.0)
        order = self._order(s)
        self.scores_ = s
        self.feature_order_ = order
        ranking = np.empty(d, dtype=np.int64)
        ranking[order] = np.arange(1, d + 1)
        self.ranking_ = ranking
        self.support_ = ranking <= k
        self.n_features_ = k
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def subset(self, size):
        """The ``size`` best genes (ascending indices); nested in ``size``."""
        check_is_fitted(self, "feature_order_")
        return np.sort(self.feature_order_[: int(size)])


class SignalToNoiseSelector(_ScoreSelector):
    """Select genes by Golub's signal-to-noise ratio P(g, c) (``genesel.filters.signal_to_noise``).

    ``balanced=True`` (Golub 1999, Guyon 2002's baseline): equal numbers of positively and negatively correlated
    genes (see :func:`balanced_order`); ``False``: the largest |P| (Furey 2000).
    ``ranking_`` is the full ranking (1 = best, all distinct), ``support_`` its top ``n_features_to_select``.
    """

    _score = staticmethod(signal_to_noise)

    def __init__(self, n_features_to_select=50, balanced=True):
        self.n_features_to_select = n_features_to_select
        self.balanced = balanced

    def _order(self, s):
        return balanced_order(s) if self.balanced else np.argsort(-np.abs(s), kind="stable")


class FisherSelector(_ScoreSelector):
    """Select genes by the Fisher criterion (mu_+ - mu_-)^2/(sigma_+^2 + sigma_-^2) (``genesel.filters.fisher_ratio``;
    Guyon 2002 section 2.2 after Pavlidis 2001). ``ranking_`` 1 = best; ``support_`` the top
    ``n_features_to_select``."""

    _score = staticmethod(fisher_ratio)

    def __init__(self, n_features_to_select=50):
        self.n_features_to_select = n_features_to_select

    def _order(self, s):
        return np.argsort(-s, kind="stable")
