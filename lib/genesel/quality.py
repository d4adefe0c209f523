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
