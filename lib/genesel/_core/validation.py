"""Input validation shared by every estimator and measure in genesel, and the two guards of the fitted result.

Bad input must fail loudly with a message that names the problem and what to do, never give a silent wrong
number: NaN or infinite values, shape mismatches, a single class (e.g. inside a fold), more than two classes for a
binary method, and training data in which every gene is constant.

Genes constant in a training part (raw data: probes floored in every training sample; a gene that varies only in the
samples of another fold) are no error: every estimator ignores them the same way, through
:func:`ignore_constant_genes` (called by :func:`check_binary_fit`). They are listed in the fitted estimator's
``constant_genes_`` (and counted in ``n_constant_genes_``), set to 0 for the fit where a method would otherwise see
them (so they get weight 0, a score of 0, a relevance of 0 and are ranked after every gene that varies), and their
values in new data do not enter a prediction. A selector still returns a mask over all the genes it was given.

Reported once. The count goes to the ``genesel`` logger (``logging``, level INFO), once per distinct situation in a
process: the first genesel step that meets a given set of constant genes in a given number of training samples
reports it, and every later step of the same pipeline, which meets the same set (a standardiser passes constant genes
on as constant zeros), stays silent; so does a later cross-validation fold whose training part has the same constant
genes. Nothing is written to stderr unless the user asks for genesel's log (``logging.basicConfig(level="INFO")`` or
a handler on ``logging.getLogger("genesel")``), so a notebook's stderr stays clean; the fitted attributes are the
record.

Units: estimators compute in data-relative units (an exact power-of-two rescaling of X); the helpers are in
:mod:`genesel._core.units`. :func:`mean_std` makes constant genes exactly constant (numpy's mean of equal values
can miss them by one unit in the last place).

Degenerate end states. A fit that ends in a model predicting one class for every training sample, with every
weight zero or every relevance at a bound, is reported by :func:`warn_degenerate` (a
:class:`DegenerateModelWarning` naming the cause and the remedy) or refused with a ``ValueError`` when the
result is numerically meaningless.
"""

from __future__ import annotations

import logging
import warnings
from collections import OrderedDict

import numpy as np

__all__ = ["check_expression_data", "to_pm1", "check_binary_fit", "check_classification_fit", "constant_genes",
           "ignore_constant_genes", "zero_ignored_genes", "mean_std", "DegenerateModelWarning", "warn_degenerate",
           "warn_if_one_class", "kernel_array"]


def kernel_array(a) -> np.ndarray:
    """``a`` as a C-contiguous, writeable float64 array for a numba kernel: no copy when it is one already; a read-only
    input (a memory map, ``setflags(write=False)``) is copied, since numba compiles every kernel once more for
    read-only arrays (``tests/test_jit_signatures.py``, ``benchmarks/bench_jit_compile.py``)."""
    return np.require(a, np.float64, ["C", "W"])

LOG = logging.getLogger("genesel")


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


#: (n_samples, n_genes, constant set) already reported in this process, oldest first (bounded)
_REPORTED: OrderedDict = OrderedDict()
_MAX_REPORTED = 512


def _report_constant(who: str, const: np.ndarray, n: int, d: int) -> bool:
    """Log the constant genes of a training matrix once per (samples, genes, constant set) in this process (see the
    module docstring). Returns True if this call reported."""
    key = (int(n), int(d), hash(np.asarray(const, dtype=np.int64).tobytes()))
    if key in _REPORTED:
        _REPORTED.move_to_end(key)
        return False
    _REPORTED[key] = None
    if len(_REPORTED) > _MAX_REPORTED:
        _REPORTED.popitem(last=False)
    LOG.info("%s: %d of %d genes are constant in the training data (%d samples; first columns %s); they are "
             "ignored in this fit (constant_genes_ of the fitted estimator lists them)", who, const.size, d, n,
             const[:5].tolist())
    return True


def ignore_constant_genes(est, X, *, zero: bool = True, all_constant: str = "raise", const=None):
    """Genes constant in the training matrix ``X`` (samples x genes, validated): recorded on ``est``
    (``constant_genes_``, ``n_constant_genes_``), reported once (module docstring) and, with ``zero``, set to 0 in
    a copy of X (the input is never modified). Returns X, or the copy.

    With ``zero=False`` the caller's method ignores them by its own mathematics (a constant gene cannot split the
    samples, adds nothing to centred distances, or is absorbed by the bias exactly) and X is returned unchanged.
    Training data in which *every* gene is constant (two samples or more) raise ``ValueError`` (``all_constant=
    "raise"``, every learner: there is nothing to learn, and any model would be the majority class in disguise);
    a transformer passes them on (``"allow"``). ``const``: the indices when the caller has them already.
    """
    who = est if isinstance(est, str) else type(est).__name__
    n, d = X.shape
    if const is None:
        const = constant_genes(X) if n >= 2 else np.zeros(0, dtype=np.int64)
    const = np.asarray(const, dtype=np.int64)
    if not isinstance(est, str):
        est.constant_genes_ = const
        est.n_constant_genes_ = int(const.size)
    if not const.size:
        return X
    if const.size == d and all_constant == "raise":
        raise ValueError(
            f"{who}: every one of the {d} gene(s) is constant in the training data ({n} samples), so nothing "
            "separates the classes and any model would predict the majority class; check X (e.g. a floor or a "
            "ceiling that clips every value, or samples that are copies of one another)")
    _report_constant(who, const, n, d)
    if zero:
        X = np.array(X, dtype=np.float64, copy=True)
        X[:, const] = 0.0
    return X


def zero_ignored_genes(est, X):
    """``X`` for prediction with the genes ``est`` ignored in training (``constant_genes_``) set to 0, as they were
    for the fit: their values in new data do not enter the prediction. X itself when there are none."""
    const = getattr(est, "constant_genes_", None)
    if const is None or not const.size:
        return X
    X = np.array(X, dtype=np.float64, copy=True)
    X[:, const] = 0.0
    return X


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


def check_binary_fit(est, X, y, *, constant: str | None = "zero", min_samples: int = 1):
    """The one input check of every binary estimator's ``fit`` in genesel.

    Validates ``X`` against the estimator (scikit-learn's ``validate_data``: sets ``n_features_in_``, refuses
    sparse, complex and non-numeric input), then with :func:`check_expression_data` (NaN/inf, too few samples),
    and ``y`` as a classification target with exactly two classes. Messages name the estimator and what to do; the
    multi-class one keeps scikit-learn's wording ("Only binary classification is supported. The type of the target
    is ...").

    Genes constant in the training data are ignored (:func:`ignore_constant_genes`): ``constant="zero"`` sets them
    to 0 for the fit, ``"keep"`` leaves X as it is (methods that ignore them by their own mathematics), None skips
    the check (X is a precomputed Gram matrix, not genes).

    Returns ``(X, y_pm1, classes)``: ``X`` C-contiguous float64, ``y_pm1`` int64 in {-1, +1}
    (the larger label, ``classes[1]``, is +1, as in scikit-learn's ``classes_``) and ``classes``.
    """
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import validate_data

    who = type(est).__name__
    X, y = validate_data(est, X, y, dtype=np.float64, ensure_all_finite=False,
                         ensure_min_samples=max(1, int(min_samples)))
    X = check_expression_data(X, name="X", allow_constant=True, min_samples=min_samples)
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
    if constant is None:
        est.constant_genes_ = np.zeros(0, dtype=np.int64)
        est.n_constant_genes_ = 0
    else:
        X = ignore_constant_genes(est, X, zero=constant == "zero")
    return X, y_pm1, classes


def check_classification_fit(est, X, y, *, constant: str | None = "zero", min_samples: int = 1):
    """The input check of a genesel estimator that fits two or more classes: as :func:`check_binary_fit` (the same
    validation of X, the same handling of constant genes, the same message for a single class), but any number of
    classes >= 2.

    Returns ``(X, y_index, classes)``: ``classes`` the sorted distinct labels (scikit-learn's ``classes_``) and
    ``y_index`` the int64 position of every label in it. For two classes ``2 * y_index - 1`` is the ``y_pm1`` of
    :func:`check_binary_fit` (the larger label is +1).
    """
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import validate_data

    who = type(est).__name__
    X, y = validate_data(est, X, y, dtype=np.float64, ensure_all_finite=False,
                         ensure_min_samples=max(1, int(min_samples)))
    X = check_expression_data(X, name="X", allow_constant=True, min_samples=min_samples)
    check_classification_targets(y)
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"{who}: y holds a single class ({classes.tolist()}); one class is not enough, a classifier needs at "
            "least two classes in its training data (with very small folds use stratified splits)"
        )
    if constant is None:
        est.constant_genes_ = np.zeros(0, dtype=np.int64)
        est.n_constant_genes_ = 0
    else:
        X = ignore_constant_genes(est, X, zero=constant == "zero")
    return X, y_index.astype(np.int64).ravel(), classes
