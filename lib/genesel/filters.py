"""Univariate gene-ranking filters (scores vectorised over genes) and the selectors built on them.

- :func:`signal_to_noise`: Golub et al. 1999 (Science 286:531), P(g, c) = (μ₊ − μ₋) / (σ₊ + σ₋), the
  "correlation" criterion of Guyon et al. 2002 (§2.2, Eq. 2) and of Gentile 2003 (x-CORR).
- :func:`fisher_ratio`: Fisher's criterion (μ₊ − μ₋)² / (σ₊² + σ₋²) (Guyon 2002 §2.2; Duda & Hart).
- :func:`t_statistic`: Welch's two-sample t statistic (μ₊ − μ₋) / sqrt(s₊²/n₊ + s₋²/n₋).
- :func:`wilcoxon_pvalues`: two-sided Wilcoxon rank-sum (Mann-Whitney U) p-values, normal approximation with tie
  correction, as ``scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True)``.

Class +1 (the larger label, as in scikit-learn's ``classes_``) is the positive class; a positive score means the
gene is higher in class +1. Every function has the signature ``f(X, y) -> scores`` so it plugs into
``sklearn.feature_selection.SelectKBest(score_func=...)``; use :func:`abs_score` for ranking by magnitude.
σ is the population standard deviation (ddof=0) by default, as in Golub's formula; pass ``ddof=1`` for sample sd.

Selectors (scikit-learn, usable in ``Pipeline``): :class:`SignalToNoiseSelector` is *the* Golub selector of
genesel, used as Guyon 2002's baseline ranking and as Gentile 2003's "CORR" filter; :class:`FisherSelector`
ranks by the Fisher criterion. Both expose ``scores_``, ``feature_order_`` (best first), ``ranking_`` (1 = best,
all distinct), ``support_`` and ``subset(size)``.

Golub's balanced rule and odd k (:func:`balanced_order`). Golub et al. take "n/2 genes" most correlated with
each class, which leaves odd n undefined. genesel pairs the i-th best positive gene with the i-th best negative
gene and puts the one with the larger |P| first, so the k best genes are a prefix of one ranking (nested subsets,
as RFE-style curves need) and the choice does not depend on which class is called +1: swapping the labels
negates every score and selects the same genes (tested). For odd k the extra gene is the stronger of the next
pair (exact ties in |P|: the gene of class +1).

``n_features_to_select`` follows the one rule of every genesel selector (:func:`genesel._core.selector.n_select`):
a count, where more genes than there are selects all of them (as ``SelectKBest`` and ``RFE``), a fraction of the
genes in (0, 1), or None for all genes.

Any scale. The scores are ratios of class moments; each gene is multiplied by a power of two before its moments
are taken (exact, so the scores are bit for bit those of the raw formula on data of ordinary scale), so data near
1e200 or 1e-300 give the same scores as data near 1. A spread needs two values: signal-to-noise and Fisher scores
need at least two samples per class, and the selectors refuse scores that cannot choose between the genes (all
infinite or all equal, when fewer genes than all are asked for) instead of falling back silently to the column
order.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats
from sklearn.base import _fit_context

from genesel._core.params import N_FEATURES
from genesel._core.selector import SelectorBase
from genesel._core.units import safe_pow2_exponent, scale_pow2
from genesel._core.validation import check_binary_fit, check_expression_data, mean_std

__all__ = ["signal_to_noise", "fisher_ratio", "t_statistic", "wilcoxon_pvalues", "abs_score", "class_moments",
           "balanced_order", "SignalToNoiseSelector", "FisherSelector"]


def _scaled_moments(X, y, ddof: int, min_per_class: int = 1):
    """Class moments of every gene after multiplying the gene by a power of two (exact) so that its largest
    absolute value lies in [0.5, 1): squares neither overflow (data near 1e200) nor underflow (near 1e-300).
    Ratios of these moments are the ratios of the raw ones bit for bit. Returns the moments and the exponents."""
    X, y = check_expression_data(X, y, allow_constant=True)
    neg_n, pos_n = int(np.sum(y == -1)), int(np.sum(y == 1))
    need = max(ddof + 1, min_per_class)
    if min(neg_n, pos_n) < need:
        what = "a spread (sigma) needs at least two values" if need >= 2 else f"ddof={ddof}"
        raise ValueError(f"each class needs at least {need} sample(s) here ({what}); got {neg_n} and {pos_n}: "
                         "use more samples per class (e.g. fewer folds)")
    k = safe_pow2_exponent(X, axis=0)
    Xs = scale_pow2(X, k, axis=0)
    (m0, s0), (m1, s1) = mean_std(Xs[y == -1], ddof=ddof), mean_std(Xs[y == 1], ddof=ddof)  # exact when constant
    return (m0, m1, s0, s1, neg_n, pos_n), k


def class_moments(X, y, ddof: int = 0):
    """(μ₋, μ₊, σ₋, σ₊, n₋, n₊) per gene for labels mapped to {-1, +1} (any scale of X; see :func:`_scaled_moments`)."""
    (m0, m1, s0, s1, n0, n1), k = _scaled_moments(X, y, ddof)
    m0, m1, s0, s1 = scale_pow2(np.vstack([m0, m1, s0, s1]), -k, axis=0)
    return m0, m1, s0, s1, n0, n1


def _safe_divide(num, den, what):
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    bad = den == 0
    if bad.any():
        # a gene constant within both classes: infinite separation if the means differ, 0 if not
        nb = num[bad]
        out[bad] = np.where(nb == 0, 0.0, np.copysign(np.inf, nb))
    return out


def signal_to_noise(X, y, ddof: int = 0):
    """Golub's signal-to-noise ratio (μ₊ − μ₋)/(σ₊ + σ₋) per gene."""
    (m0, m1, s0, s1, _, _), _ = _scaled_moments(X, y, ddof, min_per_class=2)
    return _safe_divide(m1 - m0, s1 + s0, "signal-to-noise")


def fisher_ratio(X, y, ddof: int = 0):
    """Fisher's criterion (μ₊ − μ₋)² / (σ₊² + σ₋²) per gene (non-negative)."""
    (m0, m1, s0, s1, _, _), _ = _scaled_moments(X, y, ddof, min_per_class=2)
    return _safe_divide((m1 - m0) ** 2, s1**2 + s0**2, "Fisher ratio")


def t_statistic(X, y):
    """Welch's t statistic per gene (sample variances, ddof=1), equal to ``scipy.stats.ttest_ind(equal_var=False)``."""
    (m0, m1, s0, s1, n0, n1), _ = _scaled_moments(X, y, ddof=1)
    return _safe_divide(m1 - m0, np.sqrt(s1**2 / n1 + s0**2 / n0), "t statistic")


def wilcoxon_pvalues(X, y):
    """Two-sided Wilcoxon rank-sum p-values per gene (normal approximation, tie and continuity corrected)."""
    X, y = check_expression_data(X, y, allow_constant=True)
    n = X.shape[0]
    pos = y == 1
    n1, n0 = int(pos.sum()), int((~pos).sum())
    R = stats.rankdata(X, axis=0)
    U = R[pos].sum(0) - n1 * (n1 + 1) / 2.0  # U statistic of class +1
    mu = n1 * n0 / 2.0
    # tie correction: sum over tie groups of (t^3 - t), per gene
    Xs = np.sort(X, axis=0)
    tie_term = np.zeros(X.shape[1])
    new = np.vstack([np.ones((1, X.shape[1]), bool), Xs[1:] != Xs[:-1]])
    for j in np.flatnonzero((~new).any(0)):
        _, counts = np.unique(Xs[:, j], return_counts=True)
        tie_term[j] = np.sum(counts**3 - counts)
    sigma = np.sqrt(n1 * n0 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.abs(U - mu) - 0.5) / sigma
    z = np.where(sigma > 0, np.maximum(z, 0.0), 0.0)
    return np.minimum(1.0, 2.0 * special.ndtr(-z))


def abs_score(score_func):
    """Wrap a signed score so that ``SelectKBest`` ranks genes by magnitude:
    ``SelectKBest(abs_score(signal_to_noise))``."""

    def f(X, y):
        return np.abs(score_func(X, y))

    f.__name__ = f"abs_{getattr(score_func, '__name__', 'score')}"
    return f


# ----------------------------------------------------------------------------------------------------------------
# Selectors
# ----------------------------------------------------------------------------------------------------------------


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


def _refuse_tied_scores(who, s, k):
    """A selection must select: refuse scores that are all infinite or all equal in magnitude when only ``k`` of
    the genes are to be kept (the choice would be the column order, silently); keeping every gene needs no
    ranking."""
    a = np.abs(s)
    if s.size < 2 or k >= s.size or np.any(a != a[0]):
        return
    if np.isinf(a[0]):
        raise ValueError(
            f"{who}: every gene is constant within each class (sigma_+ + sigma_- = 0 for all {s.size} genes), so "
            "every score is infinite and the genes cannot be ranked (this happens with one distinct value per "
            "class, e.g. duplicated samples); use more distinct samples per class"
        )
    raise ValueError(
        f"{who}: all {s.size} genes have the same score ({s[0]:g}), so the ranking would just be the column order "
        "(e.g. every gene is constant); drop uninformative genes or use more samples"
    )


class _ScoreSelector(SelectorBase):
    _score = None

    def _order(self, scores):  # pragma: no cover - overridden
        raise NotImplementedError

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y_pm1, self.classes_ = check_binary_fit(self, X, y, constant="keep", min_samples=2)
        d = X.shape[1]
        k = self._n_select(d, d)  # None: every gene
        s = type(self)._score(X, y_pm1)
        _refuse_tied_scores(type(self).__name__, np.where(np.isnan(s), 0.0, s), k)
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


class SignalToNoiseSelector(_ScoreSelector):
    """Select genes by Golub's signal-to-noise ratio P(g, c) = (mu_+ - mu_-)/(sigma_+ + sigma_-).

    Golub et al. 1999; the baseline ranking of Guyon et al. 2002 (section 2.2) and the "CORR" filter of Gentile
    2003 (section 5). ``balanced=True`` (Golub's choice): equal numbers of positively and negatively correlated
    genes, the odd one out by :func:`balanced_order`'s documented rule; ``False``: the largest |P| (Furey 2000).
    A gene constant in the training data scores 0 (ranked last); one constant within each class but different
    between them scores +-inf (a perfect separator, ranked first).
    ``ranking_`` is the full ranking (1 = best, all distinct), ``support_`` its top ``n_features_to_select`` (a
    count, a fraction of the genes, or None for all).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import SignalToNoiseSelector, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> s2n = SignalToNoiseSelector(n_features_to_select=4, balanced=False).fit(X, y)
    >>> np.flatnonzero(s2n.support_).tolist(), s2n.ranking_[:6].tolist()
    ([0, 1, 2, 3], [1, 2, 3, 4, 54, 91])
    >>> pipe = make_pipeline(SignalToNoiseSelector(n_features_to_select=4), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.90
    """

    _score = staticmethod(signal_to_noise)
    _parameter_constraints = {"n_features_to_select": N_FEATURES, "balanced": ["boolean"]}

    def __init__(self, n_features_to_select=50, balanced=True):
        self.n_features_to_select = n_features_to_select
        self.balanced = balanced

    def _order(self, s):
        return balanced_order(s) if self.balanced else np.argsort(-np.abs(s), kind="stable")


class FisherSelector(_ScoreSelector):
    """Select genes by the Fisher criterion (mu_+ - mu_-)^2/(sigma_+^2 + sigma_-^2) (``genesel.filters.fisher_ratio``;
    Guyon 2002 section 2.2 after Pavlidis 2001). ``ranking_`` 1 = best; ``support_`` the top
    ``n_features_to_select`` (all genes if that is more than there are).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import FisherSelector, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> fisher = FisherSelector(n_features_to_select=4).fit(X, y)
    >>> np.flatnonzero(fisher.support_).tolist(), fisher.transform(X).shape
    ([0, 1, 2, 3], (40, 4))
    >>> pipe = make_pipeline(FisherSelector(n_features_to_select=4), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.90
    """

    _score = staticmethod(fisher_ratio)
    _parameter_constraints = {"n_features_to_select": N_FEATURES}

    def __init__(self, n_features_to_select=50):
        self.n_features_to_select = n_features_to_select

    def _order(self, s):
        return np.argsort(-s, kind="stable")
