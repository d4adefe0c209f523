"""Split protocols. Each returns a list of ``(train_idx, test_idx)`` pairs of int arrays, fully determined by
its arguments and ``seed``; split ``i`` depends only on ``(seed, i)``, so the first 5 splits of a quick run are
the first 5 of the full run.

Training indices come in a random order (the "permutation of the training order" of Gentile 2003, which
matters to online learners such as ALMA); test indices are sorted.

Selection must happen inside the training part only (Ambroise & McLachlan 2002): these generators only say
which samples are which; the method fit on ``train_idx`` does the selection.
"""

from __future__ import annotations

import numpy as np

__all__ = ["predefined_split", "random_splits", "permuted_training_orders", "leave_one_out", "stratified_kfold",
           "repeated_stratified_kfold", "nested_cv", "repeated_nested_cv", "make_splits"]


def _rng(seed, *more) -> np.random.Generator:
    if seed is None:
        raise ValueError("seed is required: every stochastic step in genesel is seeded")
    return np.random.default_rng([int(seed), *[int(m) for m in more]])


def _labels(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(f"y must be a 1-d label vector with at least 2 samples, got shape {y.shape}")
    return y


def predefined_split(ds):
    """The paper's own split of a :class:`~genesel.datasets.Dataset` (e.g. Golub's 38/34)."""
    if ds.train_idx is None:
        raise ValueError(f"data set {ds.name!r} has no predefined train/test split; use random_splits or CV")
    return [(np.asarray(ds.train_idx), np.asarray(ds.test_idx))]


def permuted_training_orders(train_idx, test_idx, n_perm: int, seed: int):
    """A fixed split with ``n_perm`` random orders of the training samples (Gentile 2003 on Leukemia)."""
    train_idx, test_idx = np.asarray(train_idx), np.sort(np.asarray(test_idx))
    return [(_rng(seed, i).permutation(train_idx), test_idx) for i in range(int(n_perm))]


def random_splits(y, n_train: int, n_splits: int, seed: int, stratified: bool = False):
    """``n_splits`` random train/test splits with ``n_train`` training samples (Gentile 2003: Colon 50/12, ...).

    ``stratified=True`` keeps the class proportions (largest-remainder rounding); otherwise training samples are
    drawn uniformly, redrawing (with the same stream) a split whose training part misses a class.
    """
    y = _labels(y)
    n = y.size
    if not 1 <= n_train < n:
        raise ValueError(f"n_train must be in 1..{n - 1} for {n} samples, got {n_train}")
    classes = np.unique(y)
    out = []
    for i in range(int(n_splits)):
        rng = _rng(seed, i)
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


def leave_one_out(n: int):
    """Leave-one-out: n splits, sample i tested alone (training in natural order)."""
    n = int(n)
    if n < 2:
        raise ValueError("leave-one-out needs at least 2 samples")
    idx = np.arange(n)
    return [(np.delete(idx, i), np.array([i])) for i in range(n)]


def stratified_kfold(y, k: int, seed: int, repeat: int = 0):
    """Stratified k-fold CV: each class dealt round-robin, in a seeded random order, over the k folds."""
    y = _labels(y)
    classes, counts = np.unique(y, return_counts=True)
    if k < 2 or k > y.size:
        raise ValueError(f"k must be in 2..{y.size}, got {k}")
    if counts.min() < k:
        import warnings

        warnings.warn(f"the smallest class has {counts.min()} samples, fewer than k={k}: some test folds will "
                      "miss it", stacklevel=2)
    rng = _rng(seed, repeat)
    fold = np.empty(y.size, dtype=int)
    offset = 0
    for c in classes:
        members = rng.permutation(np.flatnonzero(y == c))
        fold[members] = (np.arange(members.size) + offset) % k
        offset += members.size
    out = []
    for f in range(k):
        te = np.flatnonzero(fold == f)
        tr = rng.permutation(np.flatnonzero(fold != f))
        out.append((tr, te))
    return out


def repeated_stratified_kfold(y, k: int, n_repeats: int, seed: int):
    return [s for r in range(int(n_repeats)) for s in stratified_kfold(y, k, seed, repeat=r)]


def nested_cv(y, outer_k: int, inner_k: int, seed: int, repeat: int = 0):
    """Stratified outer folds, each with stratified inner folds drawn from its training part only.

    Returns a list of ``(train_idx, test_idx, inner)`` with ``inner`` a list of ``(inner_train, inner_val)``
    given as indices into the full data (all within ``train_idx``).
    """
    y = _labels(y)
    out = []
    for f, (tr, te) in enumerate(stratified_kfold(y, outer_k, seed, repeat)):
        inner = [(tr[a], tr[b]) for a, b in stratified_kfold(y[tr], inner_k, seed, repeat=1000 * (repeat + 1) + f)]
        out.append((tr, te, inner))
    return out


def repeated_nested_cv(y, outer_k: int, inner_k: int, n_repeats: int, seed: int):
    return [s for r in range(int(n_repeats)) for s in nested_cv(y, outer_k, inner_k, seed, repeat=r)]


def make_splits(protocol: str, y=None, *, ds=None, seed: int = 0, **kw):
    """Splits by protocol name: ``"predefined"``, ``"permuted"`` (predefined split, permuted training order;
    ``n_perm``), ``"random"`` (``n_train``, ``n_splits``, ``stratified``), ``"loo"``, ``"kfold"`` (``k``,
    ``n_repeats``). ``y`` defaults to ``ds.y``. Lets a grid cell name its protocol with plain values."""
    if y is None:
        if ds is None:
            raise ValueError("make_splits needs y or ds")
        y = ds.y
    if protocol == "predefined":
        return predefined_split(ds)
    if protocol == "permuted":
        (tr, te), = predefined_split(ds)
        return permuted_training_orders(tr, te, kw.pop("n_perm"), seed)
    if protocol == "random":
        return random_splits(y, kw.pop("n_train"), kw.pop("n_splits"), seed, kw.pop("stratified", False))
    if protocol == "loo":
        return leave_one_out(len(y))
    if protocol == "kfold":
        return repeated_stratified_kfold(y, kw.pop("k"), kw.pop("n_repeats", 1), seed)
    raise ValueError(f"unknown protocol {protocol!r}: predefined, permuted, random, loo or kfold")
