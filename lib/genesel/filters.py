"""Univariate gene-ranking filters (scores vectorised over genes) and the selectors built on them.

- :func:`signal_to_noise`: Golub et al. 1999 (Science 286:531), P(g, c) = (μ₊ − μ₋) / (σ₊ + σ₋), the
  "correlation" criterion of Guyon et al. 2002 (§2.2, Eq. 2) and of Gentile 2003 (x-CORR).
- :func:`fisher_ratio`: Fisher's criterion (μ₊ − μ₋)² / (σ₊² + σ₋²) (Guyon 2002 §2.2; Duda & Hart).
- :func:`t_statistic`: Welch's two-sample t statistic (μ₊ − μ₋) / sqrt(s₊²/n₊ + s₋²/n₋).
- :func:`wilcoxon_pvalues`: two-sided Wilcoxon rank-sum (Mann-Whitney U) p-values, normal approximation with tie
  correction, as ``scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True)``.

Any number of classes (K >= 2):

- :func:`anova_f`: the one-way analysis-of-variance F statistic (Fisher 1925), F = [sum_k n_k (mu_k - mu)^2 / (K - 1)]
  / [sum_k sum_{i in k} (x_i - mu_k)^2 / (n - K)], as ``scipy.stats.f_oneway`` and scikit-learn's ``f_classif``; for
  two classes the square of the pooled-variance t statistic. :func:`anova_pvalues`: its F(K - 1, n - K) p-values.
- :func:`kruskal_wallis`: the Kruskal-Wallis H statistic (Kruskal & Wallis 1952, JASA 47:583), the rank analogue of
  F, H = [12 / (n (n + 1)) sum_k R_k^2 / n_k - 3 (n + 1)] / [1 - sum_t (t^3 - t) / (n^3 - n)] (R_k: rank sum of class
  k, midranks for ties, t: the sizes of the tie groups), as ``scipy.stats.kruskal``; for two classes the square of
  the rank-sum z without continuity correction. :func:`kruskal_wallis_pvalues`: its chi-square(K - 1) p-values.
- :func:`between_within_ratio`: BSS/WSS = sum_k n_k (mu_k - mu)^2 / sum_k sum_{i in k} (x_i - mu_k)^2 (Dudoit,
  Fridlyand & Speed 2002, JASA 97:77, their gene selection for multi-class tumour data; Duda, Hart & Stork 2001
  §3.8.3, the one-dimensional multiple discriminant criterion), the multi-class Fisher criterion of
  :class:`FisherSelector`; F = BSS/WSS (n - K)/(K - 1), so it ranks as :func:`anova_f`.
- :func:`one_vs_rest_scores`: any of the binary scores above for each class against the rest (K x genes).

Selectors for any number of classes: :class:`ANOVASelector` (F), :class:`KruskalWallisSelector` (H),
:class:`FisherSelector` (Fisher's ratio for two classes, BSS/WSS for more) and :class:`SignalToNoiseSelector` (one
signal-to-noise ratio per class against the rest for more than two classes, Golub's balance carried over as a round
over the classes; see its docstring). :func:`t_statistic`, :func:`wilcoxon_pvalues`, :func:`signal_to_noise` and
:func:`fisher_ratio` compare two classes and refuse more, naming their multi-class counterparts.

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
from genesel._core.multiclass import check_classifier_fit
from genesel._core.validation import check_expression_data, mean_std

__all__ = ["signal_to_noise", "fisher_ratio", "t_statistic", "wilcoxon_pvalues", "abs_score", "class_moments",
           "balanced_order", "SignalToNoiseSelector", "FisherSelector", "anova_f", "anova_pvalues",
           "kruskal_wallis", "kruskal_wallis_pvalues", "between_within_ratio", "one_vs_rest_scores",
           "one_vs_rest_order", "ANOVASelector", "KruskalWallisSelector"]

#: what each two-class score refuses more classes with: its multi-class counterparts
_MULTICLASS_INSTEAD = {
    "signal_to_noise": "one_vs_rest_scores(X, y, signal_to_noise) or SignalToNoiseSelector",
    "fisher_ratio": "between_within_ratio or FisherSelector",
    "t_statistic": "anova_f (for two classes the square of the pooled-variance t) or ANOVASelector",
    "wilcoxon_pvalues": "kruskal_wallis_pvalues (the rank test for K classes) or KruskalWallisSelector",
}


def _two_classes_only(y, who):
    """Refuse labels of more than two classes in a two-class score, naming its multi-class counterparts."""
    y = np.asarray(y)
    if y.ndim == 1 and y.size and np.unique(y).size > 2:
        raise ValueError(f"{who} compares two classes; y holds {np.unique(y).size}: use "
                         f"{_MULTICLASS_INSTEAD[who]} (genesel.filters) for more")


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
    _two_classes_only(y, "signal_to_noise")
    (m0, m1, s0, s1, _, _), _ = _scaled_moments(X, y, ddof, min_per_class=2)
    return _safe_divide(m1 - m0, s1 + s0, "signal-to-noise")


def fisher_ratio(X, y, ddof: int = 0):
    """Fisher's criterion (μ₊ − μ₋)² / (σ₊² + σ₋²) per gene (non-negative)."""
    _two_classes_only(y, "fisher_ratio")
    (m0, m1, s0, s1, _, _), _ = _scaled_moments(X, y, ddof, min_per_class=2)
    return _safe_divide((m1 - m0) ** 2, s1**2 + s0**2, "Fisher ratio")


def t_statistic(X, y):
    """Welch's t statistic per gene (sample variances, ddof=1), equal to ``scipy.stats.ttest_ind(equal_var=False)``."""
    _two_classes_only(y, "t_statistic")
    (m0, m1, s0, s1, n0, n1), _ = _scaled_moments(X, y, ddof=1)
    return _safe_divide(m1 - m0, np.sqrt(s1**2 / n1 + s0**2 / n0), "t statistic")


def wilcoxon_pvalues(X, y):
    """Two-sided Wilcoxon rank-sum p-values per gene (normal approximation, tie and continuity corrected)."""
    _two_classes_only(y, "wilcoxon_pvalues")
    X, y = check_expression_data(X, y, allow_constant=True)
    n = X.shape[0]
    pos = y == 1
    n1, n0 = int(pos.sum()), int((~pos).sum())
    R = stats.rankdata(X, axis=0)
    U = R[pos].sum(0) - n1 * (n1 + 1) / 2.0  # U statistic of class +1
    mu = n1 * n0 / 2.0
    # tie correction: sum over tie groups of (t^3 - t), per gene
    # each gene's runs of equal sorted values, all genes at once: a run starts where a value differs from the one
    # before it (and at every gene's first value, so no run spans two genes); t its length. Integers far below
    # 2^53, so the float sums are exact whatever their order (a loop over the tied genes took 0.3 s on Leukemia).
    Xs = np.sort(X, axis=0).T
    new = np.ones(Xs.shape, bool)
    new[:, 1:] = Xs[:, 1:] != Xs[:, :-1]
    starts = np.flatnonzero(new.ravel())
    t = np.diff(np.append(starts, new.size)).astype(np.float64)
    tie_term = np.bincount(starts // n, weights=t**3 - t, minlength=X.shape[1]) if n else np.zeros(X.shape[1])
    sigma = np.sqrt(n1 * n0 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.abs(U - mu) - 0.5) / sigma
    z = np.where(sigma > 0, np.maximum(z, 0.0), 0.0)
    return np.minimum(1.0, 2.0 * special.ndtr(-z))


# ----------------------------------------------------------------------------------------------------------------
# any number of classes
# ----------------------------------------------------------------------------------------------------------------


def _class_index(X, y, who, min_per_class=1, min_extra=0):
    """X (validated, any scale) and the class index of every sample (0 .. K - 1) for K >= 2 classes; refuses a class
    with fewer than ``min_per_class`` samples and fewer than K + ``min_extra`` samples in all."""
    X = check_expression_data(X, allow_constant=True)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-d, got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"shape mismatch: X has {X.shape[0]} samples but y has {y.shape[0]} labels")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite labels; remove those samples first")
    classes, yi = np.unique(y, return_inverse=True)
    yi = yi.ravel()
    if classes.size < 2:
        raise ValueError(f"{who}: y holds a single class ({classes.tolist()}); a score between classes needs two or "
                         "more")
    counts = np.bincount(yi)
    if counts.min() < min_per_class:
        raise ValueError(f"{who}: every class needs at least {min_per_class} sample(s); the smallest has "
                         f"{counts.min()}: use more samples per class (e.g. fewer folds)")
    if X.shape[0] < classes.size + min_extra:
        raise ValueError(f"{who}: {X.shape[0]} samples in {classes.size} classes leave no degrees of freedom within "
                         "the classes; use more samples")
    return X, yi, classes


def _bss_wss(X, yi, K):
    """Between- and within-class sums of squares per gene, on each gene times a power of two (exact; see
    :func:`_scaled_moments`): ratios of the two are those of the raw data bit for bit."""
    k = safe_pow2_exponent(X, axis=0)
    Xs = scale_pow2(X, k, axis=0)
    mean, _ = mean_std(Xs)
    bss = np.zeros(X.shape[1])
    wss = np.zeros(X.shape[1])
    for c in range(K):
        Xc = Xs[yi == c]
        mc, sc = mean_std(Xc)  # exact for genes constant within the class
        bss += Xc.shape[0] * (mc - mean) ** 2
        wss += Xc.shape[0] * sc**2
    return bss, wss


def between_within_ratio(X, y):
    """BSS/WSS per gene for any number of classes (Dudoit, Fridlyand & Speed 2002): between-class over within-class
    sum of squares (module docstring). Genes constant within every class: +inf if their class means differ, 0 if the
    gene is constant."""
    X, yi, classes = _class_index(X, y, "between_within_ratio")
    bss, wss = _bss_wss(X, yi, classes.size)
    return _safe_divide(bss, wss, "BSS/WSS")


def anova_f(X, y):
    """One-way ANOVA F statistic per gene for any number of classes (module docstring); equal to
    ``scipy.stats.f_oneway`` and ``sklearn.feature_selection.f_classif``'s F. Genes constant within every class:
    +inf if their class means differ, 0 if the gene is constant (scipy and scikit-learn give NaN there)."""
    X, yi, classes = _class_index(X, y, "anova_f", min_extra=1)
    K, n = classes.size, X.shape[0]
    bss, wss = _bss_wss(X, yi, K)
    return _safe_divide(bss / (K - 1), wss / (n - K), "F")


def anova_pvalues(X, y):
    """p-values of :func:`anova_f` (upper tail of F(K - 1, n - K); 0 where F is infinite, 1 where it is 0)."""
    F = anova_f(X, y)
    classes = np.unique(np.asarray(y))
    n, K = np.asarray(X).shape[0], classes.size
    return stats.f.sf(F, K - 1, n - K)


def _tie_term(X):
    """Per gene (column) the sum over groups of tied values of t^3 - t (t: the group's size)."""
    Xs = np.sort(X, axis=0)
    tie_term = np.zeros(X.shape[1])
    new = np.vstack([np.ones((1, X.shape[1]), bool), Xs[1:] != Xs[:-1]])
    for j in np.flatnonzero((~new).any(0)):
        _, counts = np.unique(Xs[:, j], return_counts=True)
        tie_term[j] = np.sum(counts.astype(float) ** 3 - counts)
    return tie_term


def kruskal_wallis(X, y):
    """Kruskal-Wallis H statistic per gene for any number of classes, tie-corrected (module docstring); equal to
    ``scipy.stats.kruskal``'s statistic. A gene constant over all samples scores 0 (scipy: NaN)."""
    X, yi, classes = _class_index(X, y, "kruskal_wallis")
    n = X.shape[0]
    R = stats.rankdata(X, axis=0)  # midranks
    h = np.zeros(X.shape[1])
    for c in range(classes.size):
        members = yi == c
        h += R[members].sum(0) ** 2 / members.sum()
    h = 12.0 / (n * (n + 1.0)) * h - 3.0 * (n + 1.0)
    corr = 1.0 - _tie_term(X) / (float(n) ** 3 - n)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(corr > 0, h / np.where(corr > 0, corr, 1.0), 0.0)
    return np.maximum(out, 0.0)  # H >= 0; rounding can leave -1e-15 for a gene with equal mean ranks


def kruskal_wallis_pvalues(X, y):
    """p-values of :func:`kruskal_wallis` (upper tail of chi-square with K - 1 degrees of freedom)."""
    H = kruskal_wallis(X, y)
    return stats.chi2.sf(H, np.unique(np.asarray(y)).size - 1)


def one_vs_rest_scores(X, y, score_func=None):
    """A two-class score of each class against the rest: (K, genes), row k with class k as the +1 class (e.g. the
    signal-to-noise ratio P(g, k) of Golub's one-vs-rest markers; default :func:`signal_to_noise`). Returns
    ``(scores, classes)``."""
    score_func = signal_to_noise if score_func is None else score_func
    X, yi, classes = _class_index(X, y, "one_vs_rest_scores")
    return np.vstack([score_func(X, np.where(yi == c, 1, -1)) for c in range(classes.size)]), classes


def one_vs_rest_order(scores):
    """All genes best first from one-vs-rest scores (K, genes), Golub's balance over K classes: in rounds, every class
    in turn (class order) takes its best gene not yet taken among those higher in it than in the rest (score > 0, by
    decreasing score); the round's genes enter by decreasing score (ties: class order). The k best genes are a prefix,
    and hold about k / K marker genes of every class. Genes no class takes (score <= 0 everywhere) follow by decreasing
    max_k |score|. For two classes (scores P and -P) this is :func:`balanced_order`'s alternation of positive and
    negative genes."""
    S = np.asarray(scores, dtype=float)
    K, d = S.shape
    lists = [np.flatnonzero(S[c] > 0)[np.argsort(-S[c][S[c] > 0], kind="stable")] for c in range(K)]
    ptr = np.zeros(K, dtype=np.int64)
    taken = np.zeros(d, dtype=bool)
    out = []
    while True:
        picks = []
        for c in range(K):
            lst = lists[c]
            while ptr[c] < lst.size and taken[lst[ptr[c]]]:
                ptr[c] += 1
            if ptr[c] < lst.size:
                g = int(lst[ptr[c]])
                taken[g] = True
                ptr[c] += 1
                picks.append((-S[c, g], c, g))
        if not picks:
            break
        out.extend(g for _, _, g in sorted(picks))
    rest = np.flatnonzero(~taken)
    rest = rest[np.argsort(-np.max(np.abs(S[:, rest]), axis=0), kind="stable")] if rest.size else rest
    return np.concatenate([np.asarray(out, dtype=np.int64), rest.astype(np.int64)])


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
    _multi_class = True  # every filter selector takes K >= 2 classes (its docstring says how)

    def _order(self, scores):  # pragma: no cover - overridden
        raise NotImplementedError

    def _multiclass(self, X, y_index):
        """(scores_, order) for K > 2 classes (the two-class score ``_score`` otherwise)."""
        s = self._score_any(X, y_index)
        _refuse_tied_scores(type(self).__name__, s, self._k)
        return s, np.argsort(-s, kind="stable")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        # y_enc: {-1, +1} for two classes, the class index 0..K-1 for K > 2
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=2)
        d = X.shape[1]
        k = self._k = self._n_select(d, d)  # None: every gene
        if self.classes_.size > 2 or type(self)._score is None:
            s, order = self._multiclass(X, y_enc)
            return self._set(s, order, d, k)
        s = type(self)._score(X, y_enc)
        _refuse_tied_scores(type(self).__name__, np.where(np.isnan(s), 0.0, s), k)
        s = np.nan_to_num(s, nan=0.0)
        order = self._order(s)
        return self._set(s, order, d, k)

    def _set(self, s, order, d, k):
        self.scores_ = s
        self.feature_order_ = order
        ranking = np.empty(d, dtype=np.int64)
        ranking[order] = np.arange(1, d + 1)
        self.ranking_ = ranking
        self.support_ = ranking <= k
        self.n_features_ = k
        return self


class SignalToNoiseSelector(_ScoreSelector):
    """Select genes by Golub's signal-to-noise ratio P(g, c) = (mu_+ - mu_-)/(sigma_+ + sigma_-); with more than two
    classes, one ratio per class against the rest.

    Golub et al. 1999; the baseline ranking of Guyon et al. 2002 (section 2.2) and the "CORR" filter of Gentile
    2003 (section 5). ``balanced=True`` (Golub's choice): equal numbers of positively and negatively correlated
    genes, the odd one out by :func:`balanced_order`'s documented rule; ``False``: the largest |P| (Furey 2000).
    A gene constant in the training data scores 0 (ranked last); one constant within each class but different
    between them scores +-inf (a perfect separator, ranked first).
    ``ranking_`` is the full ranking (1 = best, all distinct), ``support_`` its top ``n_features_to_select`` (a
    count, a fraction of the genes, or None for all).

    More than two classes (K > 2): one against the rest, as Golub's markers of each class (Golub et al. 1999 choose
    genes correlated with each class; one-vs-rest weighted voting on many tumour classes: Yeang et al. 2001,
    Bioinformatics 17 Suppl. 1:S316; Ramaswamy et al. 2001, PNAS 98:15149). ``scores_`` is (K, n_features):
    P(g, k) with class k as the + class and all other samples as the - class (every class needs two samples).
    ``balanced=True`` carries Golub's balance over: in rounds, each class contributes its best marker not yet taken
    (a gene higher in that class than in the rest), so the top genes hold about as many markers of every class
    (:func:`one_vs_rest_order`; for two classes it is the positive/negative alternation). ``balanced=False``: by
    decreasing max_k |P(g, k)|.

    Parameters
    ----------
    n_features_to_select : int >= 1, float in (0, 1) or None, default 50
        Genes in ``support_``: a count, a fraction of the genes, or None for all of them; more than there are
        keeps all of them.
    balanced : bool, default True
        ``True``: Golub et al. (1999)'s equal numbers of positively and negatively correlated genes (K > 2: each
        class's markers in turn); ``False``: by decreasing |P(g, c)| (Furey et al. 2000; K > 2: max_k |P(g, k)|).

    Attributes
    ----------
    scores_ : ndarray (n_features_in_,) or (K, n_features_in_)
        Signal-to-noise ratio P(g, c) of every gene (Golub et al. 1999); K > 2: one row per class against the
        rest.
    feature_order_ : ndarray of int (n_features_in_,)
        Genes best first.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene (1 = best, all distinct).
    support_ : ndarray of bool (n_features_in_,)
        The ``n_features_`` best genes.
    n_features_ : int
        Number of selected genes.
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

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

    def __init__(self, *, n_features_to_select=50, balanced=True):
        self.n_features_to_select = n_features_to_select
        self.balanced = balanced

    def _order(self, s):
        return balanced_order(s) if self.balanced else np.argsort(-np.abs(s), kind="stable")

    def _multiclass(self, X, y_index):
        S, _ = one_vs_rest_scores(X, y_index, signal_to_noise)
        strongest = np.max(np.abs(S), axis=0)
        _refuse_tied_scores(type(self).__name__, strongest, self._k)
        S = np.nan_to_num(S, nan=0.0)
        order = one_vs_rest_order(S) if self.balanced else np.argsort(-np.max(np.abs(S), axis=0), kind="stable")
        return S, order


class FisherSelector(_ScoreSelector):
    """Select genes by the Fisher criterion (mu_+ - mu_-)^2/(sigma_+^2 + sigma_-^2) (``genesel.filters.fisher_ratio``;
    Guyon 2002 section 2.2 after Pavlidis 2001). ``ranking_`` 1 = best; ``support_`` the top
    ``n_features_to_select`` (all genes if that is more than there are).

    More than two classes (K > 2): the multi-class Fisher criterion, between-class over within-class sum of squares
    BSS/WSS (:func:`between_within_ratio`; Dudoit, Fridlyand & Speed 2002, who select genes for multi-class tumour
    data by it; Duda, Hart & Stork 2001 §3.8.3), which ranks as the ANOVA F of :class:`ANOVASelector`. For two
    classes the selector keeps the ratio above (BSS/WSS would weight the classes by their sizes).

    Parameters
    ----------
    n_features_to_select : int >= 1, float in (0, 1) or None, default 50
        Genes in ``support_``: a count, a fraction of the genes, or None for all of them; more than there are
        keeps all of them.

    Attributes
    ----------
    scores_ : ndarray (n_features_in_,)
        Fisher criterion of every gene (Guyon et al. 2002, section 2.2); K > 2: BSS/WSS (Dudoit, Fridlyand &
        Speed 2002).
    feature_order_ : ndarray of int (n_features_in_,)
        Genes best first.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene (1 = best, all distinct).
    support_ : ndarray of bool (n_features_in_,)
        The ``n_features_`` best genes.
    n_features_ : int
        Number of selected genes.
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

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

    def __init__(self, *, n_features_to_select=50):
        self.n_features_to_select = n_features_to_select

    def _order(self, s):
        return np.argsort(-s, kind="stable")

    @staticmethod
    def _score_any(X, y_index):
        return between_within_ratio(X, y_index)


class ANOVASelector(_ScoreSelector):
    """Select genes by the one-way ANOVA F statistic (:func:`anova_f`), any number of classes (for two, the square of
    the pooled-variance t statistic). ``scores_`` F, ``pvalues_`` its F(K - 1, n - K) p-values (every gene has the
    same degrees of freedom, so the order of F is that of the p-values); ``ranking_`` 1 = best; ``support_`` the top
    ``n_features_to_select``. The same statistic as scikit-learn's ``SelectKBest(f_classif)``, at any scale of X and
    with a constant gene scored 0 and ranked last (``f_classif``: NaN).

    Parameters
    ----------
    n_features_to_select : int >= 1, float in (0, 1) or None, default 50
        Genes in ``support_``: a count, a fraction of the genes, or None for all of them; more than there are
        keeps all of them.

    Attributes
    ----------
    scores_ : ndarray (n_features_in_,)
        One-way ANOVA F statistic of every gene (0 for a constant gene).
    pvalues_ : ndarray (n_features_in_,)
        p-values of F under F(K - 1, n - K).
    feature_order_ : ndarray of int (n_features_in_,)
        Genes best first.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene (1 = best, all distinct).
    support_ : ndarray of bool (n_features_in_,)
        The ``n_features_`` best genes.
    n_features_ : int
        Number of selected genes.
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import ANOVASelector
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat(["EWS", "NB", "RMS"], 10)                       # three tumour classes, 10 samples each
    >>> X = rng.normal(size=(30, 100))
    >>> X[y == "NB", 0] += 2.0; X[y == "RMS", 1] -= 2.0               # gene 0 up in NB, gene 1 down in RMS
    >>> sel = ANOVASelector(n_features_to_select=2).fit(X, y)
    >>> np.flatnonzero(sel.support_).tolist(), bool(sel.pvalues_[0] < 1e-4)
    ([0, 1], True)
    """

    _parameter_constraints = {"n_features_to_select": N_FEATURES}

    def __init__(self, *, n_features_to_select=50):
        self.n_features_to_select = n_features_to_select

    def _multiclass(self, X, y_index):
        s = anova_f(X, y_index)
        _refuse_tied_scores(type(self).__name__, s, self._k)
        K = self.classes_.size
        self.pvalues_ = stats.f.sf(s, K - 1, X.shape[0] - K)
        return s, np.argsort(-s, kind="stable")


class KruskalWallisSelector(_ScoreSelector):
    """Select genes by the Kruskal-Wallis H statistic (:func:`kruskal_wallis`; Kruskal & Wallis 1952), the rank
    test of K >= 2 classes (for two, the Wilcoxon rank-sum test's z squared, without continuity correction).
    ``scores_`` H, ``pvalues_`` its chi-square(K - 1) p-values; ``ranking_`` 1 = best; ``support_`` the top
    ``n_features_to_select``. Unlike F it depends on the expression values only through their order within each
    gene (robust to outlying arrays and to any monotone transformation, e.g. the log). Ties in H are frequent (every
    gene that separates the classes perfectly, in the same class order, has the same, largest H); they are broken by
    the ANOVA F of :func:`anova_f` (then by column), so the order is not the column order in disguise.

    Parameters
    ----------
    n_features_to_select : int >= 1, float in (0, 1) or None, default 50
        Genes in ``support_``: a count, a fraction of the genes, or None for all of them; more than there are
        keeps all of them.

    Attributes
    ----------
    scores_ : ndarray (n_features_in_,)
        Kruskal-Wallis H statistic of every gene (Kruskal & Wallis 1952).
    pvalues_ : ndarray (n_features_in_,)
        p-values of H under chi-square(K - 1).
    feature_order_ : ndarray of int (n_features_in_,)
        Genes best first.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene (1 = best, all distinct).
    support_ : ndarray of bool (n_features_in_,)
        The ``n_features_`` best genes.
    n_features_ : int
        Number of selected genes.
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import KruskalWallisSelector
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat(["EWS", "NB", "RMS"], 10)
    >>> X = np.exp(rng.normal(size=(30, 100)))                        # skewed, intensity-like values
    >>> X[y == "NB", 0] *= 8.0; X[y == "RMS", 1] /= 8.0
    >>> sel = KruskalWallisSelector(n_features_to_select=2).fit(X, y)
    >>> np.flatnonzero(sel.support_).tolist()
    [0, 1]
    >>> bool(np.all(KruskalWallisSelector().fit(np.log(X), y).scores_ == sel.scores_))  # ranks: the log changes nothing
    True
    """

    _parameter_constraints = {"n_features_to_select": N_FEATURES}

    def __init__(self, *, n_features_to_select=50):
        self.n_features_to_select = n_features_to_select

    def _multiclass(self, X, y_index):
        s = kruskal_wallis(X, y_index)
        f = anova_f(X, y_index) if X.shape[0] > self.classes_.size else np.zeros_like(s)
        if np.all(f == f[0]):  # ties in H broken by F: refused only when F cannot break them either
            _refuse_tied_scores(type(self).__name__, s, self._k)
        self.pvalues_ = stats.chi2.sf(s, self.classes_.size - 1)
        return s, np.lexsort((np.arange(s.size), -f, -s)).astype(np.int64)
