"""Split protocols. Each returns a list of ``(train_idx, test_idx)`` pairs of int arrays, fully determined by
its arguments and ``seed``; split ``i`` depends only on ``(seed, i)``, so the first 5 splits of a quick run are
the first 5 of the full run.

Training indices come in a random order (the "permutation of the training order" of Gentile 2003, which
matters to online learners such as ALMA); test indices are sorted.

Selection must happen inside the training part only (Ambroise & McLachlan 2002): these generators only say
which samples are which; the method fit on ``train_idx`` does the selection.

**Grouped samples.** Every generator takes ``groups`` (one label per sample: a patient, an individual, a pair; or
None). With groups, the members of a group are always on the same side of a split, in the outer and the inner
splits alike: stratified K-fold becomes scikit-learn's ``StratifiedGroupKFold`` (groups dealt to folds keeping the
class proportions as well as whole groups allow), leave-one-out becomes leave-one-group-out, random splits draw
whole groups, and :mod:`genesel.experiments.bootstrap` resamples groups. Without groups every generator gives the
same splits as before groups existed.

**The adaptation rule** (:func:`adapted_folds`, the rule of :func:`genesel._core.resampling.adapted_count`): the
inner folds of a training part are ``min(requested, size of its smallest class)``, the class counted in groups when
the samples are grouped; fewer than 2 cannot keep a member of every class in every inner training part, and raise
:class:`NotApplicable`. :func:`nested_cv` applies it to each outer training part; the leaderboard applies the same
rule to the outer folds, to the internal folds of the selectors and to the neighbours of k-NN
(:mod:`genesel.leaderboard.protocol`).
"""

from __future__ import annotations

import warnings

import numpy as np

from genesel._core.resampling import GroupSplitError, adapted_count, class_sizes, smallest_class

__all__ = ["predefined_split", "random_splits", "permuted_training_orders", "leave_one_out", "stratified_kfold",
           "repeated_stratified_kfold", "nested_cv", "repeated_nested_cv", "make_splits", "class_sizes",
           "smallest_class", "adapted_folds", "adapted_count", "NotApplicable", "GroupSplitError"]


class NotApplicable(ValueError):
    """A protocol or a method that cannot run on a training part this small (:func:`adapted_folds`): the leaderboard
    shows the method as "not applicable at this size" with this message."""


def _rng(seed, *more) -> np.random.Generator:
    if seed is None:
        raise ValueError("seed is required: every stochastic step in genesel is seeded")
    return np.random.default_rng([int(seed), *[int(m) for m in more]])


def _labels(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(f"y must be a 1-d label vector with at least 2 samples, got shape {y.shape}")
    return y


def _groups(groups, n: int):
    """``groups`` as an array of n labels, or None."""
    if groups is None:
        return None
    g = np.asarray(groups)
    if g.shape != (n,):
        raise ValueError(f"groups must hold one label per sample ({n}), got shape {g.shape}")
    return g


def adapted_folds(requested: int, y, groups=None, *, who: str = "inner folds") -> int:
    """The folds of a resampling inside a training part with labels ``y`` (and ``groups``): ``min(requested, its
    smallest class)`` (module docstring); :class:`NotApplicable` when that is below 2, naming ``who``."""
    m = smallest_class(y, groups)
    k = adapted_count(requested, m)
    if k < 2:
        unit = "group(s)" if groups is not None else "sample(s)"
        raise NotApplicable(f"{who}: the smallest class of the training part has {m} {unit}; folds that leave a member "
                            "of every class in every training part need at least 2")
    return k


def predefined_split(ds):
    """The paper's own split of a :class:`~genesel.datasets.Dataset` (e.g. Golub's 38/34)."""
    if ds.train_idx is None:
        raise ValueError(f"data set {ds.name!r} has no predefined train/test split; use random_splits or CV")
    return [(np.asarray(ds.train_idx), np.asarray(ds.test_idx))]


def permuted_training_orders(train_idx, test_idx, n_perm: int, seed: int):
    """A fixed split with ``n_perm`` random orders of the training samples (Gentile 2003 on Leukemia)."""
    train_idx, test_idx = np.asarray(train_idx), np.sort(np.asarray(test_idx))
    return [(_rng(seed, i).permutation(train_idx), test_idx) for i in range(int(n_perm))]


def _grouped_draw(y, g, n_train, rng, stratified, classes):
    """Whole groups, in a random order, added while the training part stays within ``n_train`` samples (and, when
    ``stratified``, within each class's quota of them)."""
    n = y.size
    units, inverse = np.unique(g, return_inverse=True)
    members = [np.flatnonzero(inverse == u) for u in range(units.size)]
    counts = np.array([np.sum(y == c) for c in classes])
    quota = counts * n_train / n
    if stratified:
        take = np.floor(quota).astype(int)
        for j in np.argsort(-(quota - take), kind="stable")[: n_train - take.sum()]:
            take[j] += 1
    have = np.zeros(classes.size, dtype=int)
    chosen = []
    for u in rng.permutation(units.size):
        add = np.array([np.sum(y[members[u]] == c) for c in classes])
        if have.sum() + add.sum() > n_train or (stratified and np.any(have + add > take)):
            continue
        chosen.append(members[u])
        have += add
    return np.concatenate(chosen) if chosen else np.array([], dtype=np.int64)


def random_splits(y, n_train: int, n_splits: int, seed: int, stratified: bool = False, groups=None):
    """``n_splits`` random train/test splits with ``n_train`` training samples (Gentile 2003: Colon 50/12, ...).

    ``stratified=True`` keeps the class proportions (largest-remainder rounding); otherwise training samples are
    drawn uniformly, redrawing (with the same stream) a split whose training part misses a class.

    With ``groups``, whole groups are drawn in a random order and added while the training part stays within
    ``n_train`` samples (and, stratified, within each class's share of them), so it may hold a few samples fewer
    than ``n_train`` when the groups do not add up to it; a draw whose training part misses a class is redrawn.
    """
    y = _labels(y)
    n = y.size
    g = _groups(groups, n)
    if not 1 <= n_train < n:
        raise ValueError(f"n_train must be in 1..{n - 1} for {n} samples, got {n_train}")
    classes = np.unique(y)
    out = []
    for i in range(int(n_splits)):
        rng = _rng(seed, i)
        if g is not None:
            for _ in range(1000):
                tr = _grouped_draw(y, g, n_train, rng, stratified, classes)
                te = np.setdiff1d(np.arange(n), tr)
                if np.unique(y[tr]).size == classes.size and te.size:
                    break
            else:
                raise ValueError(f"could not draw whole groups making a training set of at most {n_train} samples "
                                 "holding every class")
            out.append((rng.permutation(tr), te))
            continue
        if stratified:
            counts = np.array([np.sum(y == c) for c in classes])
            quota = counts * n_train / n
            take = np.floor(quota).astype(int)
            for j in np.argsort(-(quota - take), kind="stable")[: n_train - take.sum()]:
                take[j] += 1
            tr = np.concatenate([rng.permutation(np.flatnonzero(y == c))[:t] for c, t in zip(classes, take)])
            tr = rng.permutation(tr)
        else:
            for _ in range(1000):
                tr = rng.permutation(n)[:n_train]
                if np.unique(y[tr]).size == classes.size:
                    break
            else:
                raise ValueError(f"could not draw a training set of {n_train} holding every class")
        te = np.setdiff1d(np.arange(n), tr)
        out.append((tr, te))
    return out


def leave_one_out(n: int, groups=None):
    """Leave-one-out: n splits, sample i tested alone (training in natural order). With ``groups``:
    leave-one-group-out, one split per group (in order of first appearance) testing all its samples."""
    n = int(n)
    if n < 2:
        raise ValueError("leave-one-out needs at least 2 samples")
    idx = np.arange(n)
    g = _groups(groups, n)
    if g is None:
        return [(np.delete(idx, i), np.array([i])) for i in range(n)]
    _, first = np.unique(g, return_index=True)
    if first.size < 2:
        raise ValueError("leave-one-group-out needs at least 2 groups")
    out = []
    for i in np.sort(first):
        te = np.flatnonzero(g == g[i])
        out.append((np.setdiff1d(idx, te), te))
    return out


def stratified_kfold(y, k: int, seed: int, repeat: int = 0, groups=None):
    """Stratified k-fold CV: each class dealt round-robin, in a seeded random order, over the k folds.

    With ``groups``: scikit-learn's ``StratifiedGroupKFold`` (shuffled, its seed drawn from ``(seed, repeat)``):
    whole groups dealt to the folds keeping the class proportions as well as they allow."""
    y = _labels(y)
    g = _groups(groups, y.size)
    sizes = class_sizes(y, g)
    n_units = y.size if g is None else np.unique(g).size
    if k < 2 or k > n_units:
        raise ValueError(f"k must be in 2..{n_units}" + (" (the number of groups)" if g is not None else "")
                         + f", got {k}")
    if min(sizes.values()) < k:
        unit = "groups" if g is not None else "samples"
        warnings.warn(f"the smallest class has {min(sizes.values())} {unit}, fewer than k={k}: some test folds will "
                      "miss it", stacklevel=2)
    rng = _rng(seed, repeat)
    if g is not None:
        from sklearn.model_selection import StratifiedGroupKFold

        sgkf = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=int(rng.integers(2**31 - 1)))
        with warnings.catch_warnings():  # its own check counts samples, not groups: ours above is the one
            warnings.simplefilter("ignore", UserWarning)
            folds = [te for _, te in sgkf.split(np.zeros((y.size, 1)), y, g)]
        out = []
        for te in folds:
            tr = rng.permutation(np.setdiff1d(np.arange(y.size), te))
            if np.unique(y[tr]).size < len(sizes):
                raise ValueError(f"grouped {k}-fold split: a training part misses a class (whole groups could not be "
                                 "dealt so that every class stays in every training part); use fewer folds")
            out.append((tr, np.sort(te)))
        return out
    fold = np.empty(y.size, dtype=int)
    offset = 0
    for c in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == c))
        fold[members] = (np.arange(members.size) + offset) % k
        offset += members.size
    out = []
    for f in range(k):
        te = np.flatnonzero(fold == f)
        tr = rng.permutation(np.flatnonzero(fold != f))
        out.append((tr, te))
    return out


def repeated_stratified_kfold(y, k: int, n_repeats: int, seed: int, groups=None):
    return [s for r in range(int(n_repeats)) for s in stratified_kfold(y, k, seed, repeat=r, groups=groups)]


def nested_cv(y, outer_k: int, inner_k: int, seed: int, repeat: int = 0, groups=None):
    """Stratified outer folds, each with stratified inner folds drawn from its training part only.

    Returns a list of ``(train_idx, test_idx, inner)`` with ``inner`` a list of ``(inner_train, inner_val)``
    given as indices into the full data (all within ``train_idx``). The inner folds of each outer training part
    follow :func:`adapted_folds` (``inner_k``, or fewer when its smallest class is smaller; :class:`NotApplicable`
    below 2); with ``groups`` both levels keep every group together."""
    y = _labels(y)
    g = _groups(groups, y.size)
    out = []
    for f, (tr, te) in enumerate(stratified_kfold(y, outer_k, seed, repeat, groups=g)):
        gt = None if g is None else g[tr]
        k = adapted_folds(inner_k, y[tr], gt, who=f"the inner folds of outer fold {f}")
        inner = [(tr[a], tr[b]) for a, b in stratified_kfold(y[tr], k, seed, repeat=1000 * (repeat + 1) + f,
                                                               groups=gt)]
        out.append((tr, te, inner))
    return out


def repeated_nested_cv(y, outer_k: int, inner_k: int, n_repeats: int, seed: int, groups=None):
    return [s for r in range(int(n_repeats)) for s in nested_cv(y, outer_k, inner_k, seed, repeat=r, groups=groups)]


def make_splits(protocol: str, y=None, *, ds=None, seed: int = 0, groups=None, **kw):
    """Splits by protocol name: ``"predefined"``, ``"permuted"`` (predefined split, permuted training order;
    ``n_perm``), ``"random"`` (``n_train``, ``n_splits``, ``stratified``), ``"loo"``, ``"kfold"`` (``k``,
    ``n_repeats``). ``y`` defaults to ``ds.y`` and ``groups`` to ``ds.groups``. Lets a grid cell name its protocol
    with plain values."""
    if y is None:
        if ds is None:
            raise ValueError("make_splits needs y or ds")
        y = ds.y
    if groups is None and ds is not None:
        groups = getattr(ds, "groups", None)
    if protocol == "predefined":
        return predefined_split(ds)
    if protocol == "permuted":
        (tr, te), = predefined_split(ds)
        return permuted_training_orders(tr, te, kw.pop("n_perm"), seed)
    if protocol == "random":
        return random_splits(y, kw.pop("n_train"), kw.pop("n_splits"), seed, kw.pop("stratified", False),
                             groups=groups)
    if protocol == "loo":
        return leave_one_out(len(y), groups=groups)
    if protocol == "kfold":
        return repeated_stratified_kfold(y, kw.pop("k"), kw.pop("n_repeats", 1), seed, groups=groups)
    raise ValueError(f"unknown protocol {protocol!r}: predefined, permuted, random, loo or kfold")
