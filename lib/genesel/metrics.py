"""Classification measures shared by the notebooks.

- :func:`error_rate`, :func:`balanced_classification_rate` (BCR = mean of the per-class recalls, as used by
  Helleputte & Dupont 2009) and :func:`balanced_error_rate` (1 - BCR), for any number of classes.
- Any number of classes: :func:`per_class_recall`, :func:`confusion_matrix` (rows: true class, columns: predicted
  class, scikit-learn's layout) and :func:`macro_ovr_auc`, the macro-averaged one-vs-rest AUC (each class's scores
  against all other samples, the unweighted mean over the classes: Provost & Domingos 2000's class-reference AUC
  without their prevalence weights, Fawcett 2006 §9; scikit-learn's ``roc_auc_score(multi_class="ovr",
  average="macro")``, which takes probabilities only, while any scores whose column k ranks class k do here).
- :func:`pooled_roc`: the ROC curve of scores pooled over cross-validation folds (Tan 2006 §3.4.2), built as in
  Fawcett 2006 ("An introduction to ROC analysis", Pattern Recognit. Lett. 27:861), Algorithm 2: sort by decreasing
  score and emit a point only when the score changes, so tied scores give one diagonal step. :func:`auc` is the
  trapezoidal area under it.
- Guyon's quality measures of a classifier's real-valued outputs: :func:`quality_metrics` (success rate,
  acceptance rate, extremal and median margins), :func:`rejection_threshold`, :func:`loo_decision_values` and
  :func:`guyon_quality` (V_* on leave-one-out outputs, T_* on a test set); see below.

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

from genesel._core.validation import to_pm1

__all__ = ["error_rate", "accuracy", "balanced_classification_rate", "balanced_error_rate", "per_class_recall",
           "confusion_matrix", "macro_ovr_auc", "pooled_roc", "auc", "roc_auc",
           "rejection_threshold", "quality_metrics", "loo_decision_values", "guyon_quality", "METRIC_NAMES"]


def _pair(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.ndim != 1:
        raise ValueError(f"y_true and y_pred must be 1-d of equal length, got {y_true.shape} and {y_pred.shape}")
    if y_true.size == 0:
        raise ValueError("empty label vectors")
    return y_true, y_pred


def error_rate(y_true, y_pred) -> float:
    """Fraction of misclassified samples (any number of classes)."""
    y_true, y_pred = _pair(y_true, y_pred)
    return float(np.mean(y_true != y_pred))


def accuracy(y_true, y_pred) -> float:
    return 1.0 - error_rate(y_true, y_pred)


def balanced_classification_rate(y_true, y_pred) -> float:
    """Mean over the classes present in ``y_true`` of the fraction of that class predicted correctly (any number of
    classes; scikit-learn's ``balanced_accuracy_score``)."""
    y_true, y_pred = _pair(y_true, y_pred)
    return float(np.mean([np.mean(y_pred[y_true == c] == c) for c in np.unique(y_true)]))


def balanced_error_rate(y_true, y_pred) -> float:
    """1 - :func:`balanced_classification_rate`: the mean over the classes present in ``y_true`` of the fraction of
    that class misclassified. With K classes of very different sizes it is what a classifier that ignores the small
    classes cannot hide (predicting the largest class everywhere has balanced error 1 - 1/K)."""
    return 1.0 - balanced_classification_rate(y_true, y_pred)


def per_class_recall(y_true, y_pred, labels=None) -> np.ndarray:
    """The fraction of each class's samples predicted as that class, in the order of ``labels`` (default: the sorted
    classes of ``y_true``); scikit-learn's ``recall_score(average=None)``. A label absent from ``y_true`` has no
    recall and is refused."""
    y_true, y_pred = _pair(y_true, y_pred)
    labels = np.unique(y_true) if labels is None else np.asarray(labels)
    absent = [c for c in labels.tolist() if not np.any(y_true == c)]
    if absent:
        raise ValueError(f"per_class_recall: labels {absent} do not occur in y_true, so their recall is undefined; "
                         "leave them out of labels")
    return np.array([np.mean(y_pred[y_true == c] == c) for c in labels])


def confusion_matrix(y_true, y_pred, labels=None) -> np.ndarray:
    """Counts C[i, j] of samples of class ``labels[i]`` predicted as ``labels[j]`` (default labels: the sorted union of
    both vectors); scikit-learn's ``confusion_matrix``. Predictions outside ``labels`` are refused (they would vanish
    from the table silently)."""
    y_true, y_pred = _pair(y_true, y_pred)
    labels = np.unique(np.concatenate([y_true, y_pred])) if labels is None else np.asarray(labels)
    if np.unique(labels).size != labels.size:
        raise ValueError("confusion_matrix: labels hold a label twice")
    pos = {c: i for i, c in enumerate(labels.tolist())}
    missing = sorted({c for c in np.concatenate([y_true, y_pred]).tolist() if c not in pos}, key=str)
    if missing:
        raise ValueError(f"confusion_matrix: y_true or y_pred hold labels {missing[:10]} that are not in labels")
    C = np.zeros((labels.size, labels.size), dtype=np.int64)
    np.add.at(C, ([pos[c] for c in y_true.tolist()], [pos[c] for c in y_pred.tolist()]), 1)
    return C


def macro_ovr_auc(y_true, scores, classes=None) -> float:
    """Macro-averaged one-vs-rest AUC (module docstring): for every class k present in ``y_true`` the AUC of the pooled
    ROC curve (:func:`pooled_roc`) of ``scores[:, k]`` with class k as the positive class and all other samples as the
    negative one, averaged over those classes with equal weight.

    ``scores``: (n, K), column k the score of ``classes[k]`` (a classifier's ``decision_function`` or
    ``predict_proba``, with ``classes`` its ``classes_``; default: the sorted classes of ``y_true``). Classes absent
    from ``y_true`` (e.g. in a small test fold) have no AUC and are left out of the mean. Two classes with 1-d scores
    (positive for the larger label) give :func:`roc_auc`.
    """
    y_true = np.asarray(y_true)
    S = np.asarray(scores, dtype=float)
    if S.ndim == 1:
        return roc_auc(y_true, S) if classes is None else roc_auc(y_true, S, pos_label=np.asarray(classes)[-1])
    present = np.unique(y_true)
    classes = present if classes is None else np.asarray(classes)
    if S.ndim != 2 or S.shape != (y_true.shape[0], classes.size):
        raise ValueError(f"scores must be (n_samples, n_classes) = ({y_true.shape[0]}, {classes.size}), one column per "
                         f"class of {classes.tolist()[:10]}; got shape {S.shape}")
    unknown = sorted(set(present.tolist()) - set(classes.tolist()), key=str)
    if unknown:
        raise ValueError(f"y_true holds labels {unknown[:10]} that have no score column (classes: "
                         f"{classes.tolist()[:10]})")
    if present.size < 2:
        raise ValueError("macro_ovr_auc needs at least two classes in y_true (an AUC is undefined otherwise)")
    aucs = [roc_auc(np.where(y_true == c, 1, 0), S[:, k]) for k, c in enumerate(classes.tolist()) if c in set(
        present.tolist())]
    return float(np.mean(aucs))


def pooled_roc(y_true, scores, pos_label=None):
    """ROC curve (fpr, tpr, thresholds) of scores pooled over folds (Fawcett 2006, Algorithm 2).

    ``y_true`` has two classes; the positive one is ``pos_label`` (default: the larger label). Points are emitted
    at each distinct score in decreasing order, starting at (0, 0) with threshold +inf, so tied scores make a
    single (diagonal) step. The same points as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.
    """
    y_true = np.asarray(y_true)
    scores = np.asarray(scores, dtype=float)
    if y_true.shape != scores.shape or y_true.ndim != 1:
        raise ValueError(f"y_true and scores must be 1-d of equal length, got {y_true.shape} and {scores.shape}")
    if not np.all(np.isfinite(scores)):
        raise ValueError("scores contain NaN or infinite values")
    if pos_label is None:
        _, classes = to_pm1(y_true, name="y_true")
        pos_label = classes[1]
    pos = y_true == pos_label
    P, N = int(pos.sum()), int((~pos).sum())
    if P == 0 or N == 0:
        raise ValueError("pooled_roc needs both classes in y_true (an ROC curve is undefined otherwise)")
    order = np.argsort(-scores, kind="mergesort")
    s, p = scores[order], pos[order]
    tp, fp = np.cumsum(p), np.cumsum(~p)
    last = np.r_[np.flatnonzero(s[1:] != s[:-1]), len(s) - 1]  # last index of each run of equal scores
    fpr = np.r_[0.0, fp[last] / N]
    tpr = np.r_[0.0, tp[last] / P]
    thr = np.r_[np.inf, s[last]]
    return fpr, tpr, thr


def auc(fpr, tpr) -> float:
    """Trapezoidal area under a curve given by increasing ``fpr``."""
    fpr, tpr = np.asarray(fpr, float), np.asarray(tpr, float)
    if np.any(np.diff(fpr) < 0):
        raise ValueError("fpr must be non-decreasing (use the output of pooled_roc)")
    return float(np.trapezoid(tpr, fpr))


def roc_auc(y_true, scores, pos_label=None) -> float:
    """AUC of the pooled ROC curve."""
    fpr, tpr, _ = pooled_roc(y_true, scores, pos_label)
    return auc(fpr, tpr)


# ----------------------------------------------------------------------------------------------------------------
# Guyon 2002, section 4: quality of a classifier's outputs
# ----------------------------------------------------------------------------------------------------------------

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


def loo_decision_values(estimator, X, y, groups=None):
    """Leave-one-out outputs: example i scored by a clone of ``estimator`` fitted on all the others.

    The training samples of fold i keep their order (all samples but i). The sign convention is the estimator's
    (``decision_function`` > 0 means ``classes_[1]``). With ``groups`` (one label per sample, e.g. a patient's
    paired tissues): leave-one-group-out, each group's samples scored together by a clone fitted on the other
    groups, so a sample's partner is never in the training part that scores it.
    """
    X = np.asarray(X)
    y = np.asarray(y)
    n = X.shape[0]
    if n < 2:
        raise ValueError("leave-one-out needs at least 2 samples")
    idx = np.arange(n)
    out = np.empty(n)
    if groups is not None:
        groups = np.asarray(groups)
        for g in np.unique(groups):
            te = groups == g
            out[te] = clone(estimator).fit(X[~te], y[~te]).decision_function(X[te])
        return out
    for i in range(n):
        tr = np.delete(idx, i)
        out[i] = clone(estimator).fit(X[tr], y[tr]).decision_function(X[i:i + 1])[0]
    return out


def guyon_quality(estimator, X_train, y_train, X_test=None, y_test=None, *, loo: bool = True, groups=None):
    """V_suc, V_acc, V_ext, V_med (leave-one-out on the training set) and T_* (test set) for ``estimator``.

    The genes are whatever columns ``X_train``/``X_test`` hold (select them first, as Guyon et al. do: the
    subset is fixed, the classifier is retrained in each leave-one-out fold). The positive class is the larger
    label of ``y_train`` (``classes_[1]`` of the estimator). ``loo=False`` skips the leave-one-out measures (NaN):
    for a training part whose smaller class leaving one out would leave too small for the estimator. ``groups``
    (of the training samples): leave-one-group-out (:func:`loo_decision_values`).
    """
    y_train = np.asarray(y_train)
    classes = np.unique(y_train)
    pos = classes[-1]
    out = {}
    if loo:
        v = quality_metrics(y_train, loo_decision_values(estimator, X_train, y_train, groups), pos_label=pos)
        out.update({f"V_{k}": v[k] for k in METRIC_NAMES})
    else:
        out.update({f"V_{k}": np.nan for k in METRIC_NAMES})
    if X_test is not None:
        est = clone(estimator).fit(X_train, y_train)
        t = quality_metrics(y_test, est.decision_function(np.asarray(X_test)), pos_label=pos)
        out.update({f"T_{k}": t[k] for k in METRIC_NAMES})
    return out
