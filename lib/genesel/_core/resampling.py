"""Resampling of a training set inside a selector: the stratified fold masks of the t = n_folds x n_repeats fits
that MSVM-RFE (Duan et al. 2005) and GP-ARD-FS / GP-ARD-RFE (Chu et al. 2005; Tan 2006, §5.3-5.4) train on the
training data with one fold left out (Tan 2006, Figures 5.1, 5.3, 5.7).

The random stream is the caller's (``rng``, a ``numpy.random.RandomState``): the permutations are drawn here in a
fixed order (per repeat, the classes in sorted order: class -1 then class +1 for two), so a seed gives the same folds
in every selector. Any number of classes: every class is dealt to the folds in turn (the same folds as before for
two classes, bit for bit).

The number of folds (:func:`resolve_folds`): ``n_folds="auto"``, the selectors' default, is the ten folds of Tan 2006
where every class has at least ten samples, and otherwise as many folds as the smallest class has samples (each
fold then still holds one sample of every class); an explicit number larger than the smallest class is refused.

:func:`adapted_count` is genesel's one rule for every count that a training part must fill per class (issue 37): the
folds of a resampling inside it (a protocol's inner folds, a selector's internal folds, the inner folds of a
bootstrap sample), the neighbours of k-NN: at most the size of its smallest class. The protocols
(:mod:`genesel.experiments.protocols`) and the leaderboard apply it to the training part at hand; ``"auto"`` here is
the same rule with 10 requested.

Grouped samples (``groups``: one label per sample, e.g. a patient whose tumour and normal tissue are both in the
data). A fold split that deals samples would put a patient's two samples on either side of it, and the fit that
leaves one of them out would still see its partner: its internal estimate is then optimistic and its ranking rewards
what identifies the patient. With ``groups`` the folds deal whole groups (scikit-learn's ``StratifiedGroupKFold``,
shuffled with a seed drawn from ``rng``: the class proportions kept as well as whole groups allow), and the classes
are counted in groups (the number of groups holding a member of the class): ``"auto"`` is then ``min(10, that
count)``. Without groups every mask is what it was before groups existed, bit for bit.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.model_selection import StratifiedGroupKFold

__all__ = ["resampling_masks", "resolve_folds", "adapted_count", "check_groups", "group_units", "class_sizes",
           "smallest_class", "GroupSplitError", "AUTO_FOLDS"]

#: the number of folds of ``n_folds="auto"`` where every class is large enough (Tan 2006 uses 10 throughout)
AUTO_FOLDS = 10


def adapted_count(requested: int, smallest: int) -> int:
    """The adaptation rule (module docstring): ``min(requested, smallest)``, ``smallest`` the size of the smallest
    class of the training part at hand (counted in groups where a split keeps groups together). A fold split then
    leaves a member of every class in every training part and puts at most one in each fold per member; a k-NN
    neighbourhood can be filled by the smallest class alone. The caller decides what is too few (folds: 2)."""
    return max(0, min(int(requested), int(smallest)))


def check_groups(who, groups, n):
    """``groups`` (one label per sample, e.g. a patient) as an array, or None; refuses a wrong length, missing labels
    (NaN, None) and labels of mixed types, naming ``who``."""
    if groups is None:
        return None
    g = np.asarray(groups)
    if g.ndim != 1 or g.size != n:
        raise ValueError(f"{who}: groups must hold one label per sample ({n}), got shape {g.shape}")
    missing = [i for i, v in enumerate(g.tolist()) if v is None or (isinstance(v, float) and v != v)]
    if missing:
        raise ValueError(f"{who}: groups has no label for sample(s) {missing[:5]} (NaN or None); give every sample "
                         "its group (a sample of its own gets a label of its own)")
    try:
        np.unique(g)
    except TypeError as exc:
        raise ValueError(f"{who}: groups must be labels of one type that sort (e.g. all strings or all integers): "
                         f"{exc}") from exc
    return g


def group_units(groups, n):
    """The units a resampling leaves out or draws whole, in CSR form ``(unit_start, unit_members)`` (int64; the
    members of unit u are ``unit_members[unit_start[u]:unit_start[u + 1]]``, ascending): one unit per sample, in
    sample order, without ``groups``; one per group, in the order of :func:`numpy.unique` of the labels, with them.
    What the numba kernels of the leave-one-group-out forward selection (:mod:`genesel.forward`) and of the grouped
    bootstrap (:mod:`genesel._forest_kernels`) take."""
    if groups is None:
        return np.arange(n + 1, dtype=np.int64), np.arange(n, dtype=np.int64)
    _, unit = np.unique(groups, return_inverse=True)
    unit = unit.ravel()
    start = np.zeros(int(unit.max()) + 2, dtype=np.int64)
    np.cumsum(np.bincount(unit), out=start[1:])
    return start, np.argsort(unit, kind="stable").astype(np.int64)


class GroupSplitError(ValueError):
    """Whole groups cannot be dealt so that every part of a resampling keeps a sample of every class (groups of
    uneven sizes or classes in a small study): raised by :func:`resampling_masks` and by the leave-one-group-out of
    :func:`genesel.forward.forward_path`, so that a protocol can tell it from other errors."""


def class_sizes(y, groups=None) -> dict:
    """{class: size} of a training part: its samples of each class, or, with ``groups``, the number of groups
    holding a member of the class (what a split that keeps groups together can deal out)."""
    y = np.asarray(y)
    g = None if groups is None else np.asarray(groups)
    if g is not None and g.shape != y.shape:
        raise ValueError(f"groups must hold one label per sample ({y.size}), got shape {g.shape}")
    out = {}
    for c in np.unique(y):
        key = c.item() if hasattr(c, "item") else c
        out[key] = int(np.sum(y == c)) if g is None else int(np.unique(g[y == c]).size)
    return out


def smallest_class(y, groups=None) -> int:
    """The size of the smallest class (:func:`class_sizes`); 0 for an empty part."""
    sizes = class_sizes(y, groups)
    return min(sizes.values()) if sizes else 0


def resolve_folds(who, n_folds, y_pm1, *, extra="", groups=None):
    """The number of folds to use: ``n_folds`` when it is an int no larger than the smallest class, for ``"auto"``
    ``min(10, size of the smallest class)``. Refuses an int larger than the smallest class, and "auto" when a class
    has fewer than two samples (no fold split can then leave a sample of it in every training part), naming
    ``who`` and the remedy. ``y_pm1``: the labels ({-1, +1}, or any labels of two or more classes). With ``groups``
    (:func:`check_groups`) the classes are counted in groups (module docstring)."""
    y_pm1 = np.asarray(y_pm1)
    n_min = smallest_class(y_pm1, groups)
    unit = "sample(s)" if groups is None else "group(s)"
    if isinstance(n_folds, str):  # "auto"
        if n_min < 2:
            raise ValueError(f"{who}: the smallest class has {n_min} {unit}; a fold split that keeps every class "
                             f"in every training part needs at least two {unit[:-3]}s of each class")
        return adapted_count(AUTO_FOLDS, n_min)
    if n_folds > n_min:
        size = "size" if groups is None else "number of groups"
        raise ValueError(f"{who}: n_folds={n_folds} exceeds the {size} of the smallest class ({n_min}){extra}: lower "
                         "n_folds, or use n_folds='auto' (10, or the size of the smallest class when it is smaller)")
    return int(n_folds)


def resampling_masks(y_pm1, n_folds, n_repeats, rng, groups=None):
    """Boolean training masks (t x n) of the t = n_folds x n_repeats fits: stratified folds, each left out once.

    Within each class (in sorted order) the samples are permuted by ``rng`` and dealt to the folds in turn, each
    class continuing where the previous one stopped, so fold sizes differ by at most one. ``y_pm1``: the labels
    ({-1, +1}, or any labels of two or more classes). With ``groups`` (one label per sample) whole groups are dealt
    (module docstring), one seed per repeat drawn from ``rng``; a split whose training part would miss a class
    raises ``ValueError``.
    """
    y_pm1 = np.asarray(y_pm1)
    n = y_pm1.size
    masks = []
    if groups is not None:
        classes = np.unique(y_pm1)
        for _ in range(n_repeats):
            split = StratifiedGroupKFold(n_splits=n_folds, shuffle=True, random_state=int(rng.randint(2**31 - 1)))
            with warnings.catch_warnings():  # its own check counts samples; the caller counted groups
                warnings.simplefilter("ignore", UserWarning)
                for _, te in split.split(np.zeros((n, 1)), y_pm1, groups):
                    keep = np.ones(n, dtype=bool)
                    keep[te] = False
                    if np.unique(y_pm1[keep]).size < classes.size:
                        raise GroupSplitError(f"grouped {n_folds}-fold split: a training part misses a class (whole "
                                         "groups could not be dealt so that every class stays in every training "
                                         "part); use fewer folds")
                    masks.append(keep)
        return np.array(masks)
    for _ in range(n_repeats):
        fold = np.empty(n, dtype=np.int64)
        offset = 0
        for c in np.unique(y_pm1):
            members = rng.permutation(np.flatnonzero(y_pm1 == c))
            fold[members] = (np.arange(members.size) + offset) % n_folds
            offset += members.size
        for f in range(n_folds):
            masks.append(fold != f)
    return np.array(masks)
