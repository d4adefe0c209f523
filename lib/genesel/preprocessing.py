"""Preprocessing as scikit-learn transformers, so that in a ``Pipeline`` they are fit on training folds only.

- :class:`LogTransform`: floor (and optionally ceiling) the intensities, then take logarithms. Raw Affymetrix MAS
  values contain zeros and negatives; the customary treatment (Golub 1999; Dudoit, Fridlyand & Speed 2002) is
  a floor of 20 and a ceiling of 16000 before log10. Stateless.
- :class:`GeneStandardizer`: each gene to mean 0, sd 1 using the *training* means and sds (Guyon 2002 §2.2 and
  §6: "normalized by subtracting the mean and dividing by the standard deviation").
- :class:`SampleStandardizer`: each sample (row) to mean 0, sd 1 over its genes. Stateless.
- :class:`MissingValueImputer`: NaNs replaced from training statistics (gene mean/median) or by k nearest
  training samples.

Which of them a registered data set needs (its values' scale) is data-set knowledge:
:func:`genesel.datasets.recommended_preprocessing`.

The standardisers work at any scale: means and standard deviations are taken after multiplying each gene (or
sample) by a power of two that brings its largest value into [0.5, 1), and scaled back; that is exact, so on data
of ordinary scale the statistics are bit for bit the plain ones, and data near 1e200 or 1e-300 no longer overflow
(every gene reported constant) or underflow. A gene (sample) whose values are all equal has sd exactly 0 and
mean exactly its value (numpy's mean of equal values can be off in the last bit, which made such a gene's
"z-scores" +-1 instead of 0): by default it is mapped to 0 and passed on as a constant gene, which every genesel
estimator after it ignores (``genesel._core.validation``: ignored for that fit, reported once, listed in
``constant_genes_``), so a pipeline on raw data runs where such genes occur; ``on_constant="error"`` refuses it.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.params import POSITIVE, POSITIVE_INT, StrOptions, real
from genesel._core.units import safe_pow2_exponent, scale_pow2
from genesel._core.validation import ignore_constant_genes, mean_std

__all__ = ["LogTransform", "GeneStandardizer", "SampleStandardizer", "MissingValueImputer"]


def _stateless_input(est, X, **kw):
    """Validate X for a stateless transformer: against the fitted width if fitted, else on its own."""
    from sklearn.utils import check_array

    if hasattr(est, "n_features_in_"):
        return validate_data(est, X, reset=False, dtype=np.float64, **kw)
    return check_array(X, dtype=np.float64, **kw)


class LogTransform(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """x -> log_base(clip(x, floor, ceiling)). ``floor`` must be positive (it is what non-positive values become)."""

    _parameter_constraints = {"floor": [POSITIVE], "ceiling": [real(None, None, "neither"), None],
                              "base": [real(1, None, "neither")]}

    def __init__(self, floor: float = 20.0, ceiling: float | None = None, base: float = 10.0):
        self.floor = floor
        self.ceiling = ceiling
        self.base = base

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        validate_data(self, X, ensure_all_finite="allow-nan")
        if self.ceiling is not None and self.ceiling <= self.floor:
            raise ValueError(f"LogTransform: ceiling {self.ceiling} must exceed floor {self.floor}")
        return self

    def transform(self, X):
        X = _stateless_input(self, X, ensure_all_finite="allow-nan")
        X = np.clip(X, self.floor, self.ceiling if self.ceiling is not None else np.inf)
        return np.log(X) / np.log(self.base)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.input_tags.allow_nan = True
        return tags


class GeneStandardizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Per-gene z-scores with the training mean and sd (ddof=0).

    ``on_constant``: ``"zero"`` (default) maps genes constant in the training data to 0 (mean subtracted, scale 1,
    as scikit-learn's ``StandardScaler``); they are listed in ``constant_genes_`` and reported once (see
    ``genesel._core.validation``); ``"error"`` raises on them, naming them.
    """

    _parameter_constraints = {"on_constant": [StrOptions({"error", "zero"})]}

    def __init__(self, on_constant: str = "zero"):
        self.on_constant = on_constant

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64)
        if X.shape[0] < 2:
            raise ValueError("GeneStandardizer: X has one sample (n_samples = 1); a gene's standard deviation needs "
                             "at least two samples: fit it on the whole training set")
        k = safe_pow2_exponent(X, axis=0)  # exact per-gene rescaling: no overflow or underflow of the squares
        mean, sd = mean_std(scale_pow2(X, k, axis=0))  # a constant gene: its value and sd 0 exactly
        self.mean_ = scale_pow2(mean[None, :], -k, axis=0)[0]
        sd = scale_pow2(sd[None, :], -k, axis=0)[0]
        const = np.flatnonzero(sd == 0)
        if const.size and self.on_constant == "error":
            raise ValueError(f"GeneStandardizer: {const.size} gene(s) are constant in the training data (first "
                             f"columns {const[:5].tolist()}); drop them first or use on_constant='zero'")
        ignore_constant_genes(self, X, zero=False, all_constant="allow", const=const)
        sd[const] = 1.0
        self.scale_ = sd
        return self

    def transform(self, X):
        check_is_fitted(self, "scale_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return (X - self.mean_) / self.scale_


class SampleStandardizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Each row to mean 0 and sd 1 over its genes (ddof=0). Rows that are constant raise an error."""

    _parameter_constraints: dict = {}

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        validate_data(self, X, dtype=np.float64)
        return self

    def transform(self, X):
        X = _stateless_input(self, X)
        if X.shape[1] < 2:
            raise ValueError("SampleStandardizer: X has one gene (n_features = 1); a sample's standard deviation "
                             "over its genes needs at least two genes")
        Xs = scale_pow2(X, safe_pow2_exponent(X, axis=1), axis=1)  # exact per-sample rescaling (module docstring)
        mean, sd = mean_std(Xs, axis=1)
        if np.any(sd == 0):
            raise ValueError(f"SampleStandardizer: sample(s) {np.flatnonzero(sd == 0)[:5].tolist()} are "
                             "constant across genes; cannot scale them")
        return (Xs - mean[:, None]) / sd[:, None]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        return tags


class MissingValueImputer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Replace NaNs using the training data only.

    ``strategy``: ``"mean"`` / ``"median"`` of the gene in the training samples, or ``"knn"``: the mean of the gene
    over the ``n_neighbors`` training samples nearest to the sample (Euclidean over observed genes; scikit-learn's
    ``KNNImputer``). A gene with no observed training value raises an error.
    """

    _parameter_constraints = {"strategy": [StrOptions({"mean", "median", "knn"})], "n_neighbors": [POSITIVE_INT]}

    def __init__(self, strategy: str = "knn", n_neighbors: int = 10):
        self.strategy = strategy
        self.n_neighbors = n_neighbors

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        allnan = np.flatnonzero(np.all(np.isnan(X), axis=0))
        if allnan.size:
            raise ValueError(f"MissingValueImputer: gene(s) {allnan[:5].tolist()} have no observed value in the "
                             "training data; drop them first")
        if self.strategy in ("mean", "median"):
            self.statistics_ = np.nanmean(X, 0) if self.strategy == "mean" else np.nanmedian(X, 0)
        elif self.strategy == "knn":
            from sklearn.impute import KNNImputer

            # distances in data-relative units (an exact power of two; 0 on data of ordinary scale): scikit-learn
            # squares the raw values, which overflow near 1e200 and underflow near 1e-300 (issue 25)
            self._exp = safe_pow2_exponent(np.nan_to_num(X))
            self.knn_ = KNNImputer(n_neighbors=self.n_neighbors, keep_empty_features=True).fit(scale_pow2(X, self._exp))
        return self

    def transform(self, X):
        check_is_fitted(self, "n_features_in_")
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan").copy()
        if self.strategy == "knn":
            e = getattr(self, "_exp", 0)
            return scale_pow2(self.knn_.transform(scale_pow2(X, e)), -e)
        rows, cols = np.nonzero(np.isnan(X))
        X[rows, cols] = self.statistics_[cols]
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags
