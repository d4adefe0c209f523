"""Input validation shared by every estimator and measure in genesel, and the two guards of the fitted result.

Bad input must fail loudly with a message that names the problem and what to do, never give a silent wrong
number: NaN or infinite values, shape mismatches, a single class (e.g. inside a fold), more than two classes for a
binary method, and genes that are constant across the samples.

Units: estimators compute in data-relative units (an exact power-of-two rescaling of X); the helpers are in
:mod:`genesel._core.units`. :func:`mean_std` makes constant genes exactly constant (numpy's mean of equal values
can miss them by one unit in the last place).

Degenerate end states. A fit that ends in a model predicting one class for every training sample, with every
weight zero or every relevance at a bound, is reported by :func:`warn_degenerate` (a
:class:`DegenerateModelWarning` naming the cause and the remedy) or refused with a ``ValueError`` when the
result is numerically meaningless.
"""

from __future__ import annotations

import warnings

import numpy as np

__all__ = ["check_expression_data", "to_pm1", "check_binary_fit", "constant_genes", "mean_std",
           "DegenerateModelWarning", "warn_degenerate", "warn_if_one_class"]


class DegenerateModelWarning(UserWarning):
    """A fit ended in a (nearly) useless state: one class predicted for every training sample, every weight zero,
    every relevance at a bound of its box. The message names the cause and the remedy."""


def mean_std(X, axis=0, ddof=0):
    """Mean and standard deviation along ``axis`` that are exact for constant slices: numpy's mean of n equal
    values can differ from them in the last bit (the sum is rounded), which makes their sd a tiny positive
    number instead of 0 (a constant gene would then get a z-score of +-1 or a finite signal-to-noise ratio).
    Where a slice is constant its mean is its value and its sd is 0; elsewhere numpy's values, unchanged."""
    X = np.asarray(X, dtype=np.float64)
    mean = X.mean(axis=axis)
    sd = X.std(axis=axis, ddof=ddof)
    if X.shape[axis] == 0:
        return mean, sd
    # only slices whose sd is within rounding of 0 can be constant (relative error of the mean <= n * eps)
    cand = np.flatnonzero(sd <= 1e-10 * np.abs(mean))
    if cand.size:
        sub = np.take(X, cand, axis=1 - axis)
        const = cand[np.ptp(sub, axis=axis) == 0]
        if const.size:
            mean = np.array(mean, copy=True)
            sd = np.array(sd, copy=True)
            mean[const] = np.take(np.take(X, const, axis=1 - axis), 0, axis=axis)
            sd[const] = 0.0
    return mean, sd


def warn_degenerate(who: str, what: str, cause: str, remedy: str, stacklevel: int = 3) -> None:
    """Issue a :class:`DegenerateModelWarning`: ``"<who>: <what>: <cause>; <remedy>"``."""
    warnings.warn(f"{who}: {what}: {cause}; {remedy}", DegenerateModelWarning, stacklevel=stacklevel + 1)


def warn_if_one_class(who, predictions, y_train, cause: str, remedy: str, stacklevel: int = 3) -> bool:
    """Warn when a fitted binary classifier predicts one class for every training sample although both occur.

    ``who`` is the estimator (or its name); ``predictions`` are its predictions on its own training data
    (original labels). Returns True if it warned.
    """
    predictions = np.asarray(predictions)
    if predictions.size == 0 or np.unique(predictions).size > 1 or np.unique(np.asarray(y_train)).size < 2:
        return False
    name = who if isinstance(who, str) else type(who).__name__
    label = predictions[0].item() if isinstance(predictions[0], np.generic) else predictions[0]
    warn_degenerate(name, f"the fitted model predicts {label!r} for every training sample",
                    cause, remedy, stacklevel=stacklevel + 1)
    return True


def to_pm1(y, *, name: str = "y"):
    """Map a binary label vector to {-1, +1}.

    The smaller label (in sorted order) becomes -1 and the larger +1, as in scikit-learn's ``classes_``.
    Returns ``(y_pm1, classes)`` with ``classes`` the original labels of -1 and +1.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{name} must be a 1-d label vector, got shape {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinite labels; remove those samples first")
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(
            f"{name} holds a single class ({classes.tolist()}); a binary classifier needs both classes "
            "in its training data (with very small folds use stratified splits)"
        )
    if classes.size > 2:
        raise ValueError(
            f"{name} holds {classes.size} classes {classes.tolist()[:10]}; this method is binary: "
            "build a two-class task first (e.g. one class against the rest)"
        )
    y_pm1 = np.where(y == classes[1], 1, -1).astype(np.int64)
    return y_pm1, classes


def constant_genes(X, *, atol: float = 0.0) -> np.ndarray:
    """Indices of the columns of ``X`` whose values do not vary across the rows (peak-to-peak <= atol)."""
    X = np.asarray(X, dtype=float)
    return np.flatnonzero(np.ptp(X, axis=0) <= atol)


def check_expression_data(X, y=None, *, name: str = "X", allow_constant: bool = False, min_samples: int = 2):
    """Validate an expression matrix (samples x genes) and, optionally, binary labels.

    Returns ``X`` as a C-contiguous float64 array and, when ``y`` is given, ``(X, y_pm1)`` with labels in
    {-1, +1}. Raises ``ValueError`` naming the problem: non-2-d input, NaN/inf values, too few samples, a shape
    mismatch between X and y, a single class or more than two classes, or constant genes (unless
    ``allow_constant``), which make scale-based scores and standardisation undefined.
    """
    X = np.asarray(X)
    if X.dtype.kind not in "biuf":
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be numeric, got dtype {X.dtype}") from exc
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-d (samples x genes), got shape {X.shape}")
    if X.shape[0] < min_samples:
        raise ValueError(f"{name} has {X.shape[0]} sample(s); at least {min_samples} are needed")
    if X.shape[1] < 1:
        raise ValueError(f"{name} has no genes (shape {X.shape})")
    bad = ~np.isfinite(X)
    if bad.any():
        rows, cols = np.nonzero(bad)
        raise ValueError(
            f"{name} contains {bad.sum()} NaN or infinite value(s) (first at sample {rows[0]}, gene {cols[0]}); "
            "impute them first, e.g. with genesel.preprocessing.MissingValueImputer"
        )
    if not allow_constant:
        const = constant_genes(X)
        if const.size:
            raise ValueError(
                f"{name} has {const.size} constant gene(s) (first columns: {const[:5].tolist()}); they carry no "
                "information and make scale-based scores undefined: drop them (e.g. "
                "sklearn.feature_selection.VarianceThreshold) before this step"
            )
    if y is None:
        return X
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-d, got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"shape mismatch: {name} has {X.shape[0]} samples but y has {y.shape[0]} labels")
    y_pm1, _ = to_pm1(y)
    return X, y_pm1


def check_binary_fit(est, X, y, *, allow_constant: bool = True, min_samples: int = 1):
    """The one input check of every binary estimator's ``fit`` in genesel.

    Validates ``X`` against the estimator (scikit-learn's ``validate_data``: sets ``n_features_in_``, refuses
    sparse, complex and non-numeric input), then with :func:`check_expression_data` (NaN/inf, too few samples,
    constant genes unless ``allow_constant``), and ``y`` as a classification target with exactly two classes.
    Messages name the estimator and what to do; the multi-class one keeps scikit-learn's wording ("Only binary
    classification is supported. The type of the target is ...").

    Returns ``(X, y_pm1, classes)``: ``X`` C-contiguous float64, ``y_pm1`` int64 in {-1, +1}
    (the larger label, ``classes[1]``, is +1, as in scikit-learn's ``classes_``) and ``classes``.
    """
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import validate_data

    who = type(est).__name__
    X, y = validate_data(est, X, y, dtype=np.float64, ensure_all_finite=False,
                         ensure_min_samples=max(1, int(min_samples)))
    X = check_expression_data(X, name="X", allow_constant=allow_constant, min_samples=min_samples)
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(
            f"{who}: y holds a single class ({classes.tolist()}); one class is not enough, a binary classifier needs "
            "both classes in its training data (with very small folds use stratified splits)"
        )
    kind = type_of_target(y, input_name="y")
    if kind != "binary":
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {kind}: {who} separates two "
            "classes; build a two-class task first (e.g. one class against the rest)"
        )
    y_pm1 = np.where(y == classes[1], 1, -1).astype(np.int64)
    return X, y_pm1, classes
