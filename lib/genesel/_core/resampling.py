"""Resampling of a training set inside a selector: the stratified fold masks of the t = n_folds x n_repeats fits
that MSVM-RFE (Duan et al. 2005) and GP-ARD-FS / GP-ARD-RFE (Chu et al. 2005; Tan 2006, §5.3-5.4) train on the
training data with one fold left out (Tan 2006, Figures 5.1, 5.3, 5.7).

The random stream is the caller's (``rng``, a ``numpy.random.RandomState``): the permutations are drawn here in a
fixed order (per repeat, class -1 then class +1), so a seed gives the same folds in every selector.
"""

from __future__ import annotations

import numpy as np

__all__ = ["resampling_masks"]


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
        for c in (-1, 1):
            members = rng.permutation(np.flatnonzero(y_pm1 == c))
            fold[members] = (np.arange(members.size) + offset) % n_folds
            offset += members.size
        for f in range(n_folds):
            masks.append(fold != f)
    return np.array(masks)
