"""Stability of selected gene subsets across resampling runs.

- :func:`kuncheva_index` (Kuncheva 2007, "A stability index for feature selection", as presented by Helleputte &
  Dupont 2009): for two subsets of equal size k out of n features sharing r, KI = (r·n − k²) / (k·(n − k));
  the index of a collection is the mean over all pairs. 1 = identical, about 0 = chance.
- :func:`stability_score` (Tan 2006, thesis §5.1, Eq. 5.1): over k runs selecting subsets F_1..F_k, with N_i the
  number of features selected in exactly i runs, S = Σ_{i=2..k} (i/k)·N_i / |F_1 ∪ … ∪ F_k|. 1 when all runs
  agree, 0 when the subsets are disjoint.
- :func:`jaccard`: |A ∩ B| / |A ∪ B|, and :func:`mean_pairwise_jaccard`.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

__all__ = ["kuncheva_index", "kuncheva_pair", "stability_score", "jaccard", "mean_pairwise_jaccard",
           "selection_frequency"]


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
