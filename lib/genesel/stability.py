"""Stability of selected gene subsets across resampling runs.

- :func:`kuncheva_index` (Kuncheva 2007, "A stability index for feature selection", as presented by Helleputte &
  Dupont 2009): for two subsets of equal size k out of n features sharing r, KI = (r·n − k²) / (k·(n − k));
  the index of a collection is the mean over all pairs. 1 = identical, about 0 = chance.
- :func:`stability_score` (Tan 2006, thesis §5.1, Eq. 5.1): over k runs selecting subsets F_1..F_k, with N_i the
  number of features selected in exactly i runs, S = Σ_{i=2..k} (i/k)·N_i / |F_1 ∪ … ∪ F_k|. 1 when all runs
  agree, 0 when the subsets are disjoint.
- :func:`jaccard`: |A ∩ B| / |A ∪ B|, and :func:`mean_pairwise_jaccard`.
- :func:`nogueira_stability` (Nogueira, Sechidis & Brown 2018, "On the stability of feature selection
  algorithms", JMLR 18(174):1-54): for M selections from d features written as a binary matrix Z (M x d), with
  p̂_f the fraction of selections holding feature f, s_f² = M/(M−1) p̂_f (1 − p̂_f) and k̄ the mean selection size,
  Φ̂ = 1 − (1/d) Σ_f s_f² / ((k̄/d)(1 − k̄/d)) (their Definition 4 / Eq. 5). It accepts sets of different sizes,
  is 1 when every selection is the same, and its expectation is 0 for selections drawn at random with their
  sizes held fixed (corrected for chance). Its asymptotic variance (their Theorem 8) is
  v̂ = (4/M²) Σ_i (φ̂_i − φ̄)² with, for selection i of size k_i,
  φ̂_i = [ (1/d) Σ_f z_if p̂_f − k_i k̄/d² + (Φ̂/2)(2 k̄ k_i/d² − k_i/d − k̄/d + 1) ] / ((k̄/d)(1 − k̄/d)),
  and Φ̂ ± z_{1−α/2} √v̂ is an approximate (1 − α) confidence interval (their Corollary 9).
- :func:`kuncheva_prefix_index`: Kuncheva's index for selections of different sizes given best first: each pair
  is compared on the best-first prefixes of the smaller size (the index itself is defined for equal sizes only).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import NamedTuple

import numpy as np

__all__ = ["kuncheva_index", "kuncheva_pair", "kuncheva_prefix_index", "stability_score", "jaccard",
           "mean_pairwise_jaccard", "selection_frequency", "selection_matrix", "nogueira_stability", "Stability"]


def _as_sets(subsets):
    sets = [frozenset(np.asarray(list(s)).tolist()) for s in subsets]
    if len(sets) < 2:
        raise ValueError(f"stability needs at least two subsets, got {len(sets)}")
    return sets


def _check_features(sets, n_features) -> None:
    """Subsets drawn from ``n_features`` features: integer indices must lie in 0..n_features-1; other labels
    (gene names) may not number more than n_features."""
    import numbers

    if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral) or n_features < 2:
        raise ValueError(f"n_features must be an int >= 2 (the number of genes the subsets were drawn from), "
                         f"got {n_features!r}")
    items = set().union(*sets)
    ints = [i for i in items if isinstance(i, numbers.Integral) and not isinstance(i, bool)]
    if len(ints) == len(items):
        bad = sorted(i for i in ints if not 0 <= i < n_features)
        if bad:
            raise ValueError(f"feature indices must lie in 0..{n_features - 1} (n_features = {n_features}); got "
                             f"{bad[:5]}: pass the number of genes the subsets were drawn from")
    elif len(items) > n_features:
        raise ValueError(f"the subsets name {len(items)} distinct features, more than n_features = {n_features}")


def kuncheva_pair(a, b, n_features: int) -> float:
    a, b = set(np.asarray(list(a)).tolist()), set(np.asarray(list(b)).tolist())
    _check_features([a, b], n_features)
    k = len(a)
    if len(b) != k:
        raise ValueError(f"the Kuncheva index compares subsets of equal size, got {len(a)} and {len(b)}")
    if not 0 < k < n_features:
        raise ValueError(f"subset size must be in 1..n_features-1 ({n_features - 1}), got {k}")
    r = len(a & b)
    return (r * n_features - k * k) / (k * (n_features - k))


def kuncheva_index(subsets, n_features: int) -> float:
    """Mean Kuncheva index over all pairs of equal-size subsets drawn from ``n_features`` features (indices
    0..n_features-1, or labels)."""
    sets = _as_sets(subsets)
    _check_features(sets, n_features)
    return float(np.mean([kuncheva_pair(a, b, n_features) for a, b in combinations(sets, 2)]))


def selection_frequency(subsets) -> Counter:
    """How many of the subsets select each feature."""
    c = Counter()
    for s in _as_sets(subsets):
        c.update(s)
    return c


def stability_score(subsets) -> float:
    """Tan's stability score S (thesis Eq. 5.1) of M >= 2 selected subsets."""
    sets = _as_sets(subsets)
    k = len(sets)
    freq = np.array(list(selection_frequency(sets).values()), dtype=float)
    if freq.size == 0:
        raise ValueError("all subsets are empty")
    # Σ_{i>=2} (i/k) N_i  ==  Σ over features selected at least twice of freq/k
    return float(np.sum(np.where(freq >= 2, freq / k, 0.0)) / freq.size)


def jaccard(a, b) -> float:
    a, b = set(a), set(b)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def mean_pairwise_jaccard(subsets) -> float:
    sets = _as_sets(subsets)
    return float(np.mean([jaccard(a, b) for a, b in combinations(sets, 2)]))


def kuncheva_prefix_index(orders, n_features: int) -> float:
    """Mean Kuncheva index over all pairs of selections of possibly different sizes, each given best first: a pair
    of sizes k_a <= k_b is compared on the first k_a genes of both (for nested selections, such as the prefixes of
    one ranking, the smaller set against the same-sized start of the larger). Pairs with an empty selection or one
    holding every feature are skipped (the index is undefined there); NaN if no pair is left."""
    lists = [list(np.asarray(list(o)).tolist()) for o in orders]
    if len(lists) < 2:
        raise ValueError(f"stability needs at least two selections, got {len(lists)}")
    vals = []
    for a, b in combinations(lists, 2):
        k = min(len(a), len(b))
        if 0 < k < n_features:
            vals.append(kuncheva_pair(a[:k], b[:k], n_features))
    return float(np.mean(vals)) if vals else float("nan")


def selection_matrix(subsets, n_features: int) -> np.ndarray:
    """The M x d binary matrix Z of M selections (each an iterable of feature indices in 0..d-1)."""
    sets = [np.asarray(list(s), dtype=np.int64) for s in subsets]
    if len(sets) < 2:
        raise ValueError(f"stability needs at least two selections, got {len(sets)}")
    _check_features([frozenset(s.tolist()) for s in sets], n_features)
    Z = np.zeros((len(sets), int(n_features)), dtype=bool)
    for i, s in enumerate(sets):
        Z[i, s] = True
    return Z


class Stability(NamedTuple):
    """Nogueira et al.'s estimate with its asymptotic variance and (1 - alpha) confidence interval."""

    estimate: float
    variance: float
    lower: float
    upper: float
    alpha: float


def nogueira_stability(selections, n_features: int | None = None, alpha: float = 0.05) -> Stability:
    """Nogueira, Sechidis & Brown (2018) stability Φ̂ of M >= 2 selections, with its variance and confidence
    interval (module docstring for the formulas).

    ``selections``: an M x d binary (0/1 or bool) matrix Z, or a list of M iterables of feature indices with
    ``n_features`` = d. Undefined (ValueError) when every selection is empty or holds every feature (k̄ = 0 or d):
    there is nothing to be stable about."""
    from scipy.stats import norm

    if n_features is None:
        Z = np.asarray(selections)
        if Z.ndim != 2 or not np.isin(Z, (0, 1)).all():
            raise ValueError("give an M x d matrix of 0/1 (one row per selection), or a list of index sets together "
                             "with n_features")
        Z = Z.astype(bool)
    else:
        Z = selection_matrix(selections, n_features)
    M, d = Z.shape
    if M < 2:
        raise ValueError(f"stability needs at least two selections, got {M}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    Zf = Z.astype(np.float64)
    k = Zf.sum(axis=1)
    kbar = float(k.mean())
    if not 0.0 < kbar < d:
        raise ValueError(f"the stability of selections that are all empty or all hold every one of the {d} features "
                         "is undefined (mean size 0 or d)")
    p = Zf.mean(axis=0)
    denom = (kbar / d) * (1.0 - kbar / d)
    s2 = M / (M - 1.0) * p * (1.0 - p)
    phi = float(1.0 - s2.mean() / denom)
    phi_i = ((Zf @ p) / d - k * kbar / d**2 + phi / 2.0 * (2.0 * kbar * k / d**2 - k / d - kbar / d + 1.0)) / denom
    var = float(4.0 / M**2 * np.sum((phi_i - phi_i.mean()) ** 2))
    half = float(norm.ppf(1.0 - alpha / 2.0)) * np.sqrt(var)
    return Stability(phi, var, phi - half, phi + half, float(alpha))
