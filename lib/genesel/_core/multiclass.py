"""K classes for methods that are binary by construction: label encoding, the one-vs-rest decomposition, the union
bound over the K binary risk bounds, and the combination of K gene rankings into one.

Used by the ALMA family (Gentile 2003), the stump conjunctions (Shah, Marchand & Corbeil 2012) and the public
:class:`genesel.multiclass.OneVsRestSelector`. Not public API.

One-vs-rest
-----------
Problem k (k = 0..K-1, in ``classes_`` order) separates class k (label 1) from the other K-1 classes (label 0),
on all m training samples: exactly the binary problems of scikit-learn's ``OneVsRestClassifier`` (its
``LabelBinarizer`` columns), so a fitted problem k is what ``OneVsRestClassifier`` fits as its k-th estimator. The
multi-class decision is ``classes_[argmax_k f_k(x)]``, f_k the decision function of problem k (first maximum on a
tie, as scikit-learn's linear classifiers; ``OneVsRestClassifier.predict`` takes the last one). Why genesel does not
simply hand estimators to ``OneVsRestClassifier``: its methods share work between the K problems (one presort of
the genes for the stump learners, one Gram matrix for ALMA_2), a risk bound must be taken at confidence delta/K per
problem and combined (below), and a selector must combine K rankings into one, which ``OneVsRestClassifier`` does
not do (it has no ``transform``). For a classifier with none of these needs, ``OneVsRestClassifier`` is the tool.

The union bound (:func:`union_bound`)
-------------------------------------
Let D be the distribution of (x, y), y in {1..K}, and h_k the classifier of problem k with true risk
``R_k = P_D(h_k(x) != [y = k])``. Each training set S_k = {(x_i, [y_i = k])} is an i.i.d. sample of the image of D
under (x, y) -> (x, [y = k]), so a binary risk bound (Shah et al. 2012, Theorems 2, 3, 5) applies to it unchanged:
``P_S(R_k <= eps_k(S, delta_k)) >= 1 - delta_k``. With ``delta_k = delta / K`` all K bounds hold at once with
probability at least ``1 - sum_k delta_k = 1 - delta`` (Boole's inequality over the K failure events).

The one-vs-rest decision H(x) = argmax_k f_k(x), where f_k(x) > 0 exactly when h_k claims x (h_k(x) = 1; a
disjunction's f_k >= 0, the same argument), errs only where some h_k errs: if every h_k is right on (x, y), then
h_y claims x and no other h_j does, so f_y is the only claiming score and the argmax is y, whatever the tie rule.
Hence, pointwise, ``[H(x) != y] <= sum_k [h_k(x) != [y = k]]``, and in expectation

    R(H) <= sum_k R_k <= sum_k eps_k(S, delta / K)     with probability >= 1 - delta,

and R(H) <= 1 always: ``bound = min(1, sum_k eps_k(S, delta/K))``. The price of K classes: each eps_k is taken at
delta/K (ln K more in the numerator of each bound's complexity term) and the K bounds add up. The same argument on
randomised classifiers bounds the one-vs-rest Gibbs classifier (draw each h_k from its posterior Q_k, then decide):
``R(G) <= sum_k R(G_k)``; its argmax-of-``prod sigma`` (Bayes) decision errs only where some binary Bayes classifier
errs, and each of those has risk at most 2 R(G_k), so that decision's risk is at most ``min(1, 2 sum_k eps_k)``.
Both steps (the pointwise inequality, the confidence of the combination) are checked by brute force on tiny cases
in ``tests/test_multiclass_binary.py``.

Combining rankings (:func:`combine_ranks`)
------------------------------------------
Each problem ranks the genes (competition ranks, 1 = best, ties share the better rank). ``"best_rank"`` orders the
genes by their best rank over the K problems (then their mean rank, then index): the genes whose best rank is at
most r are the union of the K per-class top-r lists, so every class contributes its own markers ("round robin",
Forman 2004) and a class with many strong markers cannot crowd the others out. ``"mean_rank"`` orders by the mean
rank (Borda count; then the best rank, then index): genes good for every class first.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import validate_data

from genesel._core.validation import check_binary_fit, check_expression_data, ignore_constant_genes

__all__ = ["check_classifier_fit", "ovr_labels", "ovr_signs", "ovr_fit", "ovr_decision", "predict_from_decision",
           "normalise_ovr_proba", "split_delta", "union_bound", "problem_ranks", "combine_ranks", "COMBINE"]

#: the ways :func:`combine_ranks` combines K rankings
COMBINE = ("best_rank", "mean_rank")


def check_classifier_fit(est, X, y, *, constant: str | None = "zero", min_samples: int = 1):
    """The input check of ``fit`` for an estimator that takes two or more classes.

    Two classes (and every target that is not multi-class: single class, continuous, multi-label, ...): exactly
    :func:`genesel._core.validation.check_binary_fit`, result and messages, so binary fits stay bit for bit the same.
    K >= 3 classes: the same checks of X (scikit-learn's ``validate_data``, NaN/inf, sample count) and of the
    constant genes (``constant``: "zero", "keep" or None as there), and ``y`` encoded by its sorted classes.

    Returns ``(X, y_enc, classes)``: for two classes ``y_enc`` in {-1, +1} (``classes[1]`` is +1); for K >= 3
    ``y_enc`` holds class indices 0..K-1 (``y == classes[y_enc]``). ``classes.size`` tells them apart.
    """
    try:
        kind = type_of_target(y, input_name="y")
    except (TypeError, ValueError):
        kind = None  # check_binary_fit gives the message
    if kind != "multiclass":
        return check_binary_fit(est, X, y, constant=constant, min_samples=min_samples)
    X, y = validate_data(est, X, y, dtype=np.float64, ensure_all_finite=False,
                         ensure_min_samples=max(1, int(min_samples)))
    X = check_expression_data(X, name="X", allow_constant=True, min_samples=min_samples)
    check_classification_targets(y)
    classes, y_idx = np.unique(y, return_inverse=True)
    if constant is None:
        est.constant_genes_ = np.zeros(0, dtype=np.int64)
        est.n_constant_genes_ = 0
    else:
        X = ignore_constant_genes(est, X, zero=constant == "zero")
    return X, y_idx.astype(np.int64).ravel(), classes


def ovr_labels(y_idx, k):
    """Problem k's labels: 1 for class k, 0 for the rest (int64; what ``OneVsRestClassifier`` fits)."""
    return (np.asarray(y_idx) == k).astype(np.int64)


def ovr_signs(y_idx, n_classes):
    """(K, m) float64 labels in {-1, +1}: row k is +1 for class k (problem k's ``y_pm1``)."""
    y_idx = np.asarray(y_idx)
    return np.where(y_idx[None, :] == np.arange(n_classes)[:, None], 1.0, -1.0)


def ovr_fit(est, X, y_idx, n_classes, *, params=None, fit_params=None) -> list:
    """Fit one clone of ``est`` per problem: clone k (with ``params`` set) on ``(X, ovr_labels(y_idx, k))``, with
    ``fit_params`` (e.g. a presort shared by the K problems). Returns the K fitted clones in class order."""
    params = params or {}
    fit_params = fit_params or {}
    out = []
    for k in range(n_classes):
        sub = clone(est).set_params(**params)
        out.append(sub.fit(X, ovr_labels(y_idx, k), **fit_params))
    return out


def ovr_decision(estimators, X):
    """(n, K): column k is problem k's ``decision_function`` (positive where it claims class k)."""
    return np.column_stack([np.ravel(e.decision_function(X)) for e in estimators])


def predict_from_decision(D, classes):
    """``classes[argmax_k D[:, k]]`` (the first maximum on a tie)."""
    return np.asarray(classes)[np.argmax(D, axis=1)]


def normalise_ovr_proba(P):
    """Class probabilities from K one-vs-rest probabilities of each class (n, K): each row divided by its sum, as
    ``OneVsRestClassifier.predict_proba``; a row of zeros (no problem claims the sample at all) becomes uniform
    (scikit-learn's would divide by zero)."""
    P = np.asarray(P, dtype=np.float64)
    s = P.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = P / s
    return np.where(s > 0, out, 1.0 / P.shape[1])


def split_delta(delta: float, n_classes: int) -> float:
    """The confidence parameter of each of the K binary bounds: delta / K (see the module docstring)."""
    return float(delta) / int(n_classes)


def union_bound(bounds, axis=-1):
    """``min(1, sum_k eps_k)``: the bound on the one-vs-rest decision's risk from K binary bounds each taken at
    delta/K (module docstring: valid with probability >= 1 - delta)."""
    b = np.asarray(bounds, dtype=np.float64)
    if np.any(np.isnan(b)) or np.any(b < 0):
        raise ValueError(f"risk bounds must be numbers >= 0, got {bounds!r}")
    out = np.minimum(1.0, b.sum(axis=axis))
    return out[()] if np.ndim(out) == 0 else out


def problem_ranks(selector, n_features: int) -> np.ndarray:
    """Competition ranks (1 = best; tied genes share the better rank) of the genes of a fitted selector, from its
    ``feature_order_`` (best first), else ``ranking_`` (smaller is better), else ``scores_`` (larger is better, NaN
    last), else its support (selected genes rank 1, the others 2)."""
    order = getattr(selector, "feature_order_", None)
    if order is not None:
        order = np.asarray(order, dtype=np.int64)
        r = np.empty(n_features, dtype=np.float64)
        r[order] = np.arange(1, order.size + 1)
        return r
    key = getattr(selector, "ranking_", None)
    if key is None and getattr(selector, "scores_", None) is not None:
        s = np.asarray(selector.scores_, dtype=np.float64)
        key = -np.where(np.isnan(s), -np.inf, s)
    if key is None:
        key = np.where(selector.get_support(), 1.0, 2.0)
    key = np.asarray(key, dtype=np.float64)
    if key.shape != (n_features,):
        raise ValueError(f"{type(selector).__name__}: its ranking has shape {key.shape}, expected ({n_features},)")
    return rankdata(key, method="min")


def combine_ranks(R, how: str = "best_rank") -> np.ndarray:
    """All genes best first from a (K, d) array of per-problem ranks (module docstring): ``"best_rank"`` by the
    best rank, then the mean rank; ``"mean_rank"`` by the mean rank, then the best rank; then the gene index."""
    R = np.asarray(R, dtype=np.float64)
    best = R.min(axis=0)
    mean = R.mean(axis=0)
    idx = np.arange(R.shape[1])
    if how == "best_rank":
        return np.lexsort((idx, mean, best)).astype(np.int64)
    if how == "mean_rank":
        return np.lexsort((idx, best, mean)).astype(np.int64)
    raise ValueError(f"combine must be one of {COMBINE}, got {how!r}")
