"""Classification measures shared by the notebooks.

- :func:`error_rate`, :func:`balanced_classification_rate` (BCR = mean of the per-class recalls, as used by
  Helleputte & Dupont 2009).
- :func:`pooled_roc`: the ROC curve of scores pooled over cross-validation folds (Tan 2006 §3.4.2), built as in
  Fawcett 2006 ("An introduction to ROC analysis", Pattern Recognit. Lett. 27:861), Algorithm 2: sort by decreasing
  score and emit a point only when the score changes, so tied scores give one diagonal step. :func:`auc` is the
  trapezoidal area under it.
"""

from __future__ import annotations

import numpy as np

from .validation import to_pm1

__all__ = ["error_rate", "accuracy", "balanced_classification_rate", "pooled_roc", "auc", "roc_auc"]


def _pair(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.ndim != 1:
        raise ValueError(f"y_true and y_pred must be 1-d of equal length, got {y_true.shape} and {y_pred.shape}")
    if y_true.size == 0:
        raise ValueError("empty label vectors")
    return y_true, y_pred


def error_rate(y_true, y_pred) -> float:
    """Fraction of misclassified samples."""
    y_true, y_pred = _pair(y_true, y_pred)
    return float(np.mean(y_true != y_pred))


def accuracy(y_true, y_pred) -> float:
    return 1.0 - error_rate(y_true, y_pred)


def balanced_classification_rate(y_true, y_pred) -> float:
    """Mean over the classes present in ``y_true`` of the fraction of that class predicted correctly."""
    y_true, y_pred = _pair(y_true, y_pred)
    return float(np.mean([np.mean(y_pred[y_true == c] == c) for c in np.unique(y_true)]))


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
