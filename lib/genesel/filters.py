"""Univariate gene-ranking filters, vectorised over genes.

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
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .validation import check_expression_data

__all__ = ["signal_to_noise", "fisher_ratio", "t_statistic", "wilcoxon_pvalues", "abs_score", "class_moments"]


def class_moments(X, y, ddof: int = 0):
    """(μ₋, μ₊, σ₋, σ₊, n₋, n₊) per gene for labels mapped to {-1, +1}."""
    X, y = check_expression_data(X, y, allow_constant=True)
    neg, pos = X[y == -1], X[y == 1]
    if min(len(neg), len(pos)) <= ddof:
        raise ValueError(f"each class needs more than {ddof} sample(s) for ddof={ddof}; "
                         f"got {len(neg)} and {len(pos)}")
    return (neg.mean(0), pos.mean(0), neg.std(0, ddof=ddof), pos.std(0, ddof=ddof), len(neg), len(pos))


def _safe_divide(num, den, what):
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    bad = den == 0
    if bad.any():
        # a gene constant within both classes: infinite separation if the means differ, 0 if not
        out[bad] = np.where(num[bad] == 0, 0.0, np.sign(num[bad]) * np.inf)
    return out


def signal_to_noise(X, y, ddof: int = 0):
    """Golub's signal-to-noise ratio (μ₊ − μ₋)/(σ₊ + σ₋) per gene."""
    m0, m1, s0, s1, _, _ = class_moments(X, y, ddof)
    return _safe_divide(m1 - m0, s1 + s0, "signal-to-noise")


def fisher_ratio(X, y, ddof: int = 0):
    """Fisher's criterion (μ₊ − μ₋)² / (σ₊² + σ₋²) per gene (non-negative)."""
    m0, m1, s0, s1, _, _ = class_moments(X, y, ddof)
    return _safe_divide((m1 - m0) ** 2, s1**2 + s0**2, "Fisher ratio")


def t_statistic(X, y):
    """Welch's t statistic per gene (sample variances, ddof=1), equal to ``scipy.stats.ttest_ind(equal_var=False)``."""
    m0, m1, s0, s1, n0, n1 = class_moments(X, y, ddof=1)
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
    """Wrap a signed score so that ``SelectKBest`` ranks genes by magnitude: ``SelectKBest(abs_score(signal_to_noise))``."""

    def f(X, y):
        return np.abs(score_func(X, y))

    f.__name__ = f"abs_{getattr(score_func, '__name__', 'score')}"
    return f
