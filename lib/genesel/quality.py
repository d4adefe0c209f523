"""Guyon's four quality metrics of a classifier's outputs, on leave-one-out (V_*) and on a test set (T_*).

Guyon, Weston, Barnhill & Vapnik (2002), section 4 (assessment of classifier quality, after Golub 1999), for a
classifier with real-valued output f(x) whose sign is the decision:

- success rate  (suc): fraction of examples classified correctly, y f(x) > 0 (an output of exactly 0 is
  counted as an error: no decision);
- acceptance rate (acc): examples with |f(x)| <= theta are rejected, where the rejection threshold theta is the
  smallest one giving zero error on the accepted examples, i.e. the largest |f| among the misclassified
  examples (0 when there is none); acc is the fraction accepted, |f(x)| > theta;
- extremal margin (ext): (min of f over class +1) - (max of f over class -1); positive iff the outputs separate
  the classes;
- median margin (med): median of f over class +1 - median of f over class -1.
Both margins are divided by the spread of the outputs, max f - min f, so classifiers whose outputs live on
different scales (SVM, weighted voting) can be compared.

V_* are computed on the leave-one-out outputs over the training set (each example scored by the classifier
trained on the others, with the gene subset held fixed, as in the paper), T_* on the test-set outputs of the
classifier trained on the whole training set.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from genesel.validation import to_pm1

__all__ = ["rejection_threshold", "quality_metrics", "loo_decision_values", "guyon_quality", "METRIC_NAMES"]

METRIC_NAMES = ("suc", "acc", "ext", "med")


def _pm1(y_true, pos_label):
    y = np.asarray(y_true)
    if pos_label is not None:
        if not np.any(y == pos_label):
            raise ValueError(f"pos_label={pos_label!r} does not occur in y_true")
        return np.where(y == pos_label, 1, -1)
    return to_pm1(y, name="y_true")[0]


def _check_scores(scores, n):
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1 or s.shape[0] != n:
        raise ValueError(f"scores must be a 1-d array with one output per example ({n}), got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores contain NaN or infinite values")
    return s


def rejection_threshold(y_true, scores, *, pos_label=None):
    """Largest |f| over the misclassified examples (0 if none): rejecting |f| <= theta leaves no error."""
    y = _pm1(y_true, pos_label)
    s = _check_scores(scores, y.size)
    wrong = y * s <= 0
    return float(np.max(np.abs(s[wrong]))) if wrong.any() else 0.0


def quality_metrics(y_true, scores, *, pos_label=None):
    """Guyon's suc, acc, ext, med (and the threshold ``theta``) for outputs ``scores`` of examples ``y_true``.

    Labels: two classes; the larger one (or ``pos_label``) is the positive class, whose outputs should be > 0.
    Returns a dict with keys ``suc``, ``acc``, ``ext``, ``med``, ``theta``.
    """
    y = _pm1(y_true, pos_label)
    s = _check_scores(scores, y.size)
    if not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError("y_true must contain both classes to compute margins")
    theta = rejection_threshold(y, s)
    spread = s.max() - s.min()
    pos, neg = s[y > 0], s[y < 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        ext = (pos.min() - neg.max()) / spread if spread > 0 else np.nan
        med = (np.median(pos) - np.median(neg)) / spread if spread > 0 else np.nan
    return {
        "suc": float(np.mean(y * s > 0)),
        "acc": float(np.mean(np.abs(s) > theta)),
        "ext": float(ext),
        "med": float(med),
        "theta": theta,
    }


def loo_decision_values(estimator, X, y):
    """Leave-one-out outputs: example i scored by a clone of ``estimator`` fitted on all the others.

    Uses ``genesel.experiments.leave_one_out`` for the splits. The sign convention is the estimator's
    (``decision_function`` > 0 means ``classes_[1]``).
    """
    from genesel.experiments import leave_one_out

    X = np.asarray(X)
    y = np.asarray(y)
    out = np.empty(X.shape[0])
    for tr, te in leave_one_out(X.shape[0]):
        est = clone(estimator).fit(X[tr], y[tr])
        out[te] = est.decision_function(X[te])
    return out


def guyon_quality(estimator, X_train, y_train, X_test=None, y_test=None):
    """V_suc, V_acc, V_ext, V_med (leave-one-out on the training set) and T_* (test set) for ``estimator``.

    The genes are whatever columns ``X_train``/``X_test`` hold (select them first, as Guyon et al. do: the
    subset is fixed, the classifier is retrained in each leave-one-out fold). The positive class is the larger
    label of ``y_train`` (``classes_[1]`` of the estimator).
    """
    y_train = np.asarray(y_train)
    classes = np.unique(y_train)
    pos = classes[-1]
    out = {}
    v = quality_metrics(y_train, loo_decision_values(estimator, X_train, y_train), pos_label=pos)
    out.update({f"V_{k}": v[k] for k in METRIC_NAMES})
    if X_test is not None:
        est = clone(estimator).fit(X_train, y_train)
        t = quality_metrics(y_test, est.decision_function(np.asarray(X_test)), pos_label=pos)
        out.update({f"T_{k}": t[k] for k in METRIC_NAMES})
    return out


# ----------------------------------------------------------------------------------------------------------------
# Guyon 2002 experiment cells (module-level so genesel.experiments.run_grid can cache and parallelise them)
# ----------------------------------------------------------------------------------------------------------------

GUYON_METHODS = ("svm-rfe", "baseline")


def guyon_preprocess(X_train, X_test, dataset):
    """Guyon 2002's preprocessing: log of the intensities (with the data set's usual floor/ceiling,
    ``genesel.preprocessing.recommended_preprocessing``), each sample to mean 0 / sd 1 over its genes, genes
    constant in the training samples dropped, each gene to mean 0 / sd 1 with the *training* mean and sd.

    Returns ``(X_train, X_test or None, kept)`` with ``kept`` the indices of the genes kept.
    """
    from genesel.preprocessing import GeneStandardizer, SampleStandardizer, recommended_preprocessing

    log = recommended_preprocessing(dataset, standardize=False).fit(X_train)
    smp = SampleStandardizer()
    A = smp.fit_transform(log.transform(X_train))
    kept = np.flatnonzero(np.ptp(A, axis=0) > 0)
    gs = GeneStandardizer().fit(A[:, kept])
    B = None
    if X_test is not None:
        B = gs.transform(smp.transform(log.transform(X_test))[:, kept])
    return gs.transform(A[:, kept]), B, kept


def _guyon_data(dataset, split, seed):
    """(ds, train_idx, test_idx or None): "predefined" (the paper's split), "all" (every sample for training,
    no test set) or "half" (a seeded stratified random half/half split, as the paper does for colon)."""
    from genesel.datasets import load_dataset
    from genesel.experiments import predefined_split, random_splits

    ds = load_dataset(dataset)
    if split == "predefined":
        tr, te = predefined_split(ds)[0]
    elif split == "all":
        tr, te = np.arange(ds.y.size), None
    elif split == "half":
        tr, te = random_splits(ds.y, ds.y.size // 2, 1, seed, stratified=True)[0]
    else:
        raise ValueError(f"split must be 'predefined', 'all' or 'half', got {split!r}")
    return ds, np.sort(tr), (None if te is None else np.sort(te))


def guyon_sizes(n_genes):
    """Subset sizes 2^k below the number of genes, plus all the genes."""
    sizes = [1 << k for k in range(int(n_genes).bit_length()) if (1 << k) < n_genes]
    return sorted(set(sizes) | {int(n_genes)}, reverse=True)


def _rank_genes(method, X, y, C, step):
    """A fitted ranker exposing ``subset(size)`` and a factory for the matching classifier."""
    from genesel.rfe import SVMRFE
    from genesel.svm import LinearSVM
    from genesel.voting import GolubVoting, SignalToNoiseSelector

    if method == "svm-rfe":
        sel = SVMRFE(n_features_to_select=1, step=step, C=C).fit(X, y)
        return sel, (lambda: LinearSVM(C=C))
    if method == "baseline":
        sel = SignalToNoiseSelector(n_features_to_select=1, balanced=True).fit(X, y)
        return sel, (lambda: GolubVoting(n_genes=None))
    raise ValueError(f"method must be one of {GUYON_METHODS}, got {method!r}")


def _sizes(n_genes, max_size):
    return [s for s in guyon_sizes(n_genes) if max_size is None or s <= max_size]


def guyon2002_curves(dataset, method, C=100.0, step="halving", split="predefined", seed=0, n_top=16,
                     max_size=None):
    """The paper's protocol: genes ranked once on the whole training set; for every subset size 2^k the
    classifier (SVM for SVM-RFE, weighted voting for the baseline) is assessed by leave-one-out on the training
    set (V_*) and on the test set (T_*, when there is one). One row per subset size; the row of the smallest
    sizes (<= ``n_top``) also lists the genes (probe IDs, best first). ``max_size`` skips the larger subsets
    (quick runs)."""
    ds, tr, te = _guyon_data(dataset, split, seed)
    Xtr, Xte, kept = guyon_preprocess(ds.X[tr], None if te is None else ds.X[te], dataset)
    ytr = ds.y[tr]
    sel, make_clf = _rank_genes(method, Xtr, ytr, C, step)
    rows = []
    for size in _sizes(Xtr.shape[1], max_size):
        g = sel.subset(size)
        q = guyon_quality(make_clf(), Xtr[:, g], ytr, None if te is None else Xte[:, g],
                          None if te is None else ds.y[te])
        row = {"n_genes": int(size), "n_train": int(tr.size), **q,
               "V_errors": int(round((1.0 - q["V_suc"]) * tr.size))}
        if size <= n_top:
            best_first = [i for i in sel.feature_order_[:size]]
            row["genes"] = ";".join(str(ds.gene_ids[kept[i]]) for i in best_first)
        rows.append(row)
    return rows


def guyon_n_train(dataset, split, seed=0):
    """Number of training samples of a Guyon 2002 split (the number of leave-one-out folds)."""
    return int(_guyon_data(dataset, split, seed)[1].size)


def guyon2002_loo_fold(dataset, method, fold, C=100.0, step="halving", split="predefined", seed=0, max_size=None):
    """One leave-one-out fold with *everything* done inside the fold (Ambroise & McLachlan 2002): preprocessing
    statistics, gene ranking and classifier are fit on the training samples minus sample ``fold``, which is then
    scored at every subset size. Returns one row per size with the held-out label and output."""
    from genesel.experiments import leave_one_out

    ds, tr, _ = _guyon_data(dataset, split, seed)
    inner_tr, inner_te = leave_one_out(tr.size)[fold]
    a, b = tr[inner_tr], tr[inner_te]
    Xa, Xb, _ = guyon_preprocess(ds.X[a], ds.X[b], dataset)
    ya = ds.y[a]
    sel, make_clf = _rank_genes(method, Xa, ya, C, step)
    rows = []
    if method == "svm-rfe":
        # the SVMs RFE trained on each nested subset, evaluated in one pass
        path = sel.decision_function_path(Xb)
        for s, size in enumerate(sel.subset_sizes_):
            if int(size) in set(_sizes(Xa.shape[1], max_size)):
                rows.append({"n_genes": int(size), "y": int(ds.y[b][0]), "output": float(path[s, 0])})
        return rows
    for size in _sizes(Xa.shape[1], max_size):
        g = sel.subset(size)
        out = make_clf().fit(Xa[:, g], ya).decision_function(Xb[:, g])
        rows.append({"n_genes": int(size), "y": int(ds.y[b][0]), "output": float(out[0])})
    return rows


def loo_metrics_from_outputs(df, by=("dataset", "method", "n_genes")):
    """Guyon's V_* from per-fold leave-one-out outputs (columns ``y`` and ``output``), one row per group."""
    import pandas as pd

    rows = []
    for key, g in df.groupby(list(by), sort=True):
        m = quality_metrics(g["y"].to_numpy(), g["output"].to_numpy(), pos_label=1)
        rows.append({**dict(zip(by, key)), **{f"V_{k}": m[k] for k in METRIC_NAMES}, "n_folds": len(g),
                     "V_errors": int(np.sum(g["y"].to_numpy() * g["output"].to_numpy() <= 0))})
    return pd.DataFrame(rows)
