"""The .632+ bootstrap estimate of a classification rule's error (Efron & Tibshirani 1997), with its samples.

B. Efron, R. Tibshirani, *Improvements on cross-validation: the .632+ bootstrap method*, JASA 92(438):548-560,
1997. For a rule r fitted on all n samples and on B bootstrap samples (n draws with replacement):

- err̄: the apparent (resubstitution) error of r fitted on all samples, on those samples;
- Err⁽¹⁾ (leave-one-out bootstrap, their Eq. 6): for each sample i, the mean error of the rules whose bootstrap
  sample does not hold i; then the mean over the samples that were left out at least once;
- γ̂ (no-information error rate, Eq. 27): the error of r when samples and labels are independent; for 0-1 loss
  and two classes, γ̂ = p̂₁(1 − q̂₁) + (1 − p̂₁) q̂₁ with p̂₁ the fraction of class 1 and q̂₁ the fraction r
  predicts as class 1 (Eq. 29, both on all samples); for K classes the same sum over the classes,
  γ̂ = Σ_k p̂_k (1 − q̂_k), the mean 0-1 loss over all n² pairs (y_i, r(x_j)) of Eq. 27;
- Err⁽¹⁾' = min(Err⁽¹⁾, γ̂) and the relative overfitting rate R̂' = (Err⁽¹⁾' − err̄)/(γ̂ − err̄) when
  Err⁽¹⁾' > err̄ and γ̂ > err̄, else 0 (Eqs. 28, 31);
- Err⁽.632+⁾ = (1 − ŵ) err̄ + ŵ Err⁽¹⁾' with ŵ = .632 / (1 − .368 R̂') (Eq. 32).

Díaz-Uriarte & Alvarez de Andrés (2006) estimated their Table 2 this way with B = 200, the whole gene selection
redone inside every bootstrap sample. :func:`bootstrap_splits` draws the samples (seeded; sample b depends only on
``(seed, b)``), with the out-of-bag samples as the test part and inner folds that keep the copies of a sample
together (a sample drawn twice must not sit on both sides of an inner split); :func:`error_632plus` combines the
predictions.

Grouped samples (a patient's two tissues, an individual's repeats): with ``groups`` the bootstrap resamples whole
groups (the cluster bootstrap: n_groups draws with replacement, every member of a drawn group in the sample as many
times as the group was drawn; the out-of-bag samples are those of the groups never drawn), and the inner folds keep
every group together, so no group is on both sides of any split. The inner folds follow the adaptation rule of
:func:`genesel.experiments.protocols.adapted_folds` on the distinct samples of the bootstrap sample.
"""

from __future__ import annotations

import numpy as np

from genesel.experiments.protocols import _groups, adapted_folds, class_sizes, stratified_kfold

__all__ = ["bootstrap_splits", "grouped_inner_folds", "error_632plus", "Estimate632"]


def _rng(seed, *more):
    if seed is None:
        raise ValueError("seed is required: every stochastic step in genesel is seeded")
    return np.random.default_rng([int(seed), *[int(m) for m in more]])


def bootstrap_splits(y, n_boot: int, seed: int, *, min_distinct: int = 2, start: int = 0, groups=None):
    """``n_boot`` bootstrap samples as ``(train, oob)`` pairs: ``train`` the n indices drawn with replacement (in
    draw order), ``oob`` the sorted indices never drawn. A sample whose distinct members hold fewer than
    ``min_distinct`` samples of some class, or that leaves no sample out, is redrawn from the same stream (so the
    rule can be fitted and tested; with n >= 20 this almost never happens). ``start`` numbers the first sample
    (sample b is the same whatever else is drawn).

    With ``groups``: whole groups are drawn (module docstring); ``train`` lists the members of each drawn group in
    draw order, and ``min_distinct`` counts the distinct groups holding each class."""
    y = np.asarray(y)
    n = y.size
    g = _groups(groups, n)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError("the bootstrap needs labels of at least two classes")
    unit = "groups" if g is not None else "samples"
    if min(class_sizes(y, g).values()) < min_distinct:
        raise ValueError(f"every class needs at least {min_distinct} {unit} for a bootstrap sample to hold "
                         f"{min_distinct} of each")
    if g is not None:
        units, inverse = np.unique(g, return_inverse=True)
        members = [np.flatnonzero(inverse == u) for u in range(units.size)]
    out = []
    for b in range(int(start), int(start) + int(n_boot)):
        rng = _rng(seed, b)
        for _ in range(1000):
            if g is None:
                tr = rng.integers(0, n, size=n)
            else:
                tr = np.concatenate([members[u] for u in rng.integers(0, units.size, size=units.size)])
            distinct = np.unique(tr)
            if distinct.size < n and min(class_sizes(y[distinct], None if g is None else g[distinct]).values()) \
                    >= min_distinct and np.unique(y[distinct]).size == classes.size:
                break
        else:  # pragma: no cover - needs an absurdly unbalanced or tiny data set
            raise ValueError("could not draw a bootstrap sample holding both classes and leaving a sample out")
        out.append((tr, np.setdiff1d(np.arange(n), tr)))
    return out


def grouped_inner_folds(y, train, k: int, seed: int, repeat: int = 0, groups=None):
    """Stratified k-fold splits of a training part that may hold a sample several times (a bootstrap sample): the
    *distinct* samples are dealt into folds, every copy follows its sample, so no sample is on both sides of an
    inner split; with ``groups``, whole groups are dealt (no group on both sides either). ``k`` is adapted to the
    distinct samples' smallest class (:func:`genesel.experiments.protocols.adapted_folds`). Returns
    ``(inner_train, inner_val)`` pairs of indices into the full data (with their copies)."""
    train = np.asarray(train)
    distinct = np.unique(train)
    y = np.asarray(y)
    g = _groups(groups, y.size)
    gd = None if g is None else g[distinct]
    k = adapted_folds(k, y[distinct], gd, who="the inner folds of the bootstrap sample")
    out = []
    for a, b in stratified_kfold(y[distinct], k, seed, repeat=repeat, groups=gd):
        A, B = set(distinct[a].tolist()), set(distinct[b].tolist())
        out.append((np.array([i for i in train if i in A], dtype=np.int64),
                    np.array([i for i in train if i in B], dtype=np.int64)))
    return out


class Estimate632(dict):
    """The .632+ estimate (``error``) with its parts: ``apparent`` (err̄), ``loo_bootstrap`` (Err⁽¹⁾),
    ``no_information`` (γ̂), ``relative_overfitting`` (R̂'), ``weight`` (ŵ), ``error_632`` (the plain .632)."""

    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k) from None


def error_632plus(y, apparent_pred, oob) -> Estimate632:
    """The .632+ error of a rule (module docstring).

    ``y``: the labels of all n samples. ``apparent_pred``: the predictions of the rule fitted on all samples, for
    all samples. ``oob``: for every bootstrap sample, ``(oob_indices, predictions_for_them)`` of the rule fitted on
    that bootstrap sample."""
    y = np.asarray(y)
    ap = np.asarray(apparent_pred)
    if ap.shape != y.shape:
        raise ValueError(f"apparent_pred must hold one prediction per sample ({y.size}), got shape {ap.shape}")
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError("the .632+ estimate needs two or more classes in y (one class has no error rate to "
                         "estimate)")
    n = y.size
    wrong = np.zeros(n)
    times = np.zeros(n)
    for idx, pred in oob:
        idx = np.asarray(idx, dtype=np.int64)
        pred = np.asarray(pred)
        if idx.shape != pred.shape:
            raise ValueError("each out-of-bag entry needs one prediction per out-of-bag index")
        np.add.at(wrong, idx, (pred != y[idx]).astype(float))
        np.add.at(times, idx, 1.0)
    if not np.any(times > 0):
        raise ValueError("no sample was ever out of bag: draw more bootstrap samples")
    err1 = float(np.mean(wrong[times > 0] / times[times > 0]))
    err_bar = float(np.mean(ap != y))
    if classes.size == 2:  # Eq. 29
        p1 = float(np.mean(y == classes[1]))
        q1 = float(np.mean(ap == classes[1]))
        gamma = p1 * (1.0 - q1) + (1.0 - p1) * q1
    else:  # K classes: Eq. 27 for 0-1 loss, sum_k p_k (1 - q_k)
        gamma = float(sum(np.mean(y == c) * (1.0 - np.mean(ap == c)) for c in classes))
    err1p = min(err1, gamma)
    R = (err1p - err_bar) / (gamma - err_bar) if (err1p > err_bar and gamma > err_bar) else 0.0
    w = 0.632 / (1.0 - 0.368 * R)
    return Estimate632(error=(1.0 - w) * err_bar + w * err1p, apparent=err_bar, loo_bootstrap=err1,
                       no_information=gamma, relative_overfitting=R, weight=w,
                       error_632=0.368 * err_bar + 0.632 * err1, n_boot=len(oob))
