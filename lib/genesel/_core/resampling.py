"""Resampling of a training set inside a selector: the stratified fold masks of the t = n_folds x n_repeats fits
that MSVM-RFE (Duan et al. 2005) and GP-ARD-FS / GP-ARD-RFE (Chu et al. 2005; Tan 2006, §5.3-5.4) train on the
training data with one fold left out (Tan 2006, Figures 5.1, 5.3, 5.7).

The random stream is the caller's (``rng``, a ``numpy.random.RandomState``): the permutations are drawn here in a
fixed order (per repeat, the classes in sorted order: class -1 then class +1 for two), so a seed gives the same folds
in every selector. Any number of classes: the labels are any sortable values (±1 for two classes, class indices or
the original labels for more).

The number of folds (:func:`resolve_folds`): ``n_folds="auto"``, the selectors' default, is the ten folds of Tan 2006
where every class has at least ten samples, and otherwise as many folds as the smallest class has samples (each
fold then still holds one sample of every class); an explicit number larger than the smallest class is refused.
"""

from __future__ import annotations

import numpy as np

__all__ = ["resampling_masks", "resolve_folds", "AUTO_FOLDS"]

#: the number of folds of ``n_folds="auto"`` where every class is large enough (Tan 2006 uses 10 throughout)
AUTO_FOLDS = 10


def resolve_folds(who, n_folds, y_pm1, *, extra=""):
    """The number of folds to use: ``n_folds`` when it is an int no larger than the smallest class, for ``"auto"``
    ``min(10, size of the smallest class)``. Refuses an int larger than the smallest class, and "auto" when a class
    has fewer than two samples (no fold split can then leave a sample of it in every training part), naming
    ``who`` and the remedy."""
    y_pm1 = np.asarray(y_pm1)
    n_min = int(np.unique(y_pm1, return_counts=True)[1].min())
    if isinstance(n_folds, str):  # "auto"
        if n_min < 2:
            what = "both classes" if np.unique(y_pm1).size == 2 else "every class"
            raise ValueError(f"{who}: the smallest class has {n_min} sample(s); a fold split that keeps {what} "
                             "in every training part needs at least two samples of each class")
        return min(AUTO_FOLDS, n_min)
    if n_folds > n_min:
        raise ValueError(f"{who}: n_folds={n_folds} exceeds the size of the smallest class ({n_min}){extra}: lower "
                         "n_folds, or use n_folds='auto' (10, or the size of the smallest class when it is smaller)")
    return int(n_folds)


def resampling_masks(y_pm1, n_folds, n_repeats, rng):
    """Boolean training masks (t x n) of the t = n_folds x n_repeats fits: stratified folds, each left out once.

    Within each class the samples are permuted by ``rng`` and dealt to the folds in turn, the second class
    continuing where the first stopped, so fold sizes differ by at most one.
    """
    y_pm1 = np.asarray(y_pm1)
    n = y_pm1.size
    masks = []
    for _ in range(n_repeats):
        fold = np.empty(n, dtype=np.int64)
        offset = 0
        for c in np.unique(y_pm1):  # binary: -1, then +1
            members = rng.permutation(np.flatnonzero(y_pm1 == c))
            fold[members] = (np.arange(members.size) + offset) % n_folds
            offset += members.size
        for f in range(n_folds):
            masks.append(fold != f)
    return np.array(masks)
