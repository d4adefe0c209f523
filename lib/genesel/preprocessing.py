"""Preprocessing as scikit-learn transformers, so that in a ``Pipeline`` they are fit on training folds only.

- :class:`LogTransform`: floor (and optionally ceiling) the intensities, then take logarithms. Raw Affymetrix MAS
  values contain zeros and negatives; the customary treatment (Golub 1999; Dudoit, Fridlyand & Speed 2002) is
  a floor of 20 and a ceiling of 16000 before log10. Values that are already on a log (or standardised) scale are
  recognised in ``fit`` from the training values (GEO2R's quantile rule) and passed through unchanged
  (``already_log_``), so the transform composes on any expression matrix.
- :class:`GeneStandardizer`: each gene to mean 0, sd 1 using the *training* means and sds (Guyon 2002 §2.2 and
  §6: "normalized by subtracting the mean and dividing by the standard deviation").
- :class:`SampleStandardizer`: each sample (row) to mean 0, sd 1 over its genes. Stateless.
- :class:`MissingValueImputer`: NaNs replaced from training statistics (gene mean/median) or by k nearest
  training samples.
- :class:`CountNormalizer`: sequencing counts to log2 counts per million of a normalised library size (TMM,
  Robinson & Oshlack 2010; upper quartile, Bullard et al. 2010; or the plain library size), the factors' reference
  learned on the training samples (``rnanorm``'s transformers, the edgeR computations in scikit-learn form).

:func:`decide_scale` says what a matrix holds (counts, raw intensities, or values already on a log scale) by one
documented rule; a file's :class:`~genesel.dataset.Dataset` records the answer in ``scale``.

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

import logging

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.params import POSITIVE, POSITIVE_INT, StrOptions, real
from genesel._core.units import safe_pow2_exponent, scale_pow2
from genesel._core.validation import ignore_constant_genes, mean_std

__all__ = ["LogTransform", "GeneStandardizer", "SampleStandardizer", "MissingValueImputer", "CountNormalizer",
           "needs_log", "looks_like_counts", "decide_scale", "SCALES"]

LOG = logging.getLogger("genesel")
_SAID: set = set()  # (n_genes, quantiles) of the pass-through decisions already logged in this process


def _stateless_input(est, X, **kw):
    """Validate X for a stateless transformer: against the fitted width if fitted, else on its own."""
    from sklearn.utils import check_array

    if hasattr(est, "n_features_in_"):
        return validate_data(est, X, reset=False, dtype=np.float64, **kw)
    return check_array(X, dtype=np.float64, **kw)


#: The quantiles GEO2R looks at (GEO's R script for its "log2 transformation" step), as fractions.
GEO2R_QUANTILES = (0.0, 0.25, 0.5, 0.75, 0.99, 1.0)


def needs_log(X) -> tuple[bool, np.ndarray]:
    """(whether the values of ``X`` look like unlogged intensities, their GEO2R quantiles).

    GEO2R's rule (NCBI GEO2R, the R script it shows for every analysis: ``LogC <- (qx[5] > 100) || (qx[6]-qx[1] >
    50 && qx[2] > 0) || (qx[2] > 0 && qx[2] < 1 && qx[4] > 1 && qx[4] < 2)``) on the quantiles 0, 25, 50, 75, 99
    and 100 % of all the observed values (NaN ignored; R's default quantile definition, numpy's ``"linear"``):
    a 99th percentile above 100, or a range above 50 with a positive lower quartile, or a lower quartile in (0, 1)
    with an upper quartile in (1, 2) (unlogged ratios). Otherwise the values are taken as already on a log or
    standardised scale: a lower quartile at or below zero (many negative values) only occurs there, while raw
    MAS intensities that hold negative values (Golub's) are recognised by their large upper percentiles. Values
    with no observed entry are taken as already transformed (nothing to decide on)."""
    X = np.asarray(X, dtype=np.float64)
    finite = X[np.isfinite(X)]  # a copy, partitioned in place below (one copy of the matrix at most)
    if finite.size == 0:
        return False, np.full(len(GEO2R_QUANTILES), np.nan)
    q = np.quantile(finite, GEO2R_QUANTILES, overwrite_input=True)
    raw = bool(q[4] > 100 or (q[5] - q[0] > 50 and q[1] > 0) or (0 < q[1] < 1 and 1 < q[3] < 2))
    return raw, q


#: What a matrix's values can be (:func:`decide_scale`).
SCALES = ("log", "raw-intensity", "counts")
#: Library sizes vary between the samples of a count matrix: the largest at least this factor above the smallest.
COUNT_LIBRARY_SPREAD = 1.1


def looks_like_counts(X) -> tuple[bool, str]:
    """(whether ``X`` (samples x genes) looks like sequencing counts, why).

    The rule: every observed value is a non-negative integer, some value exceeds 1 (not a 0/1 matrix), and the
    library sizes (each sample's total) vary between samples, the largest at least :data:`COUNT_LIBRARY_SPREAD`
    (10 %) above the smallest. Microarray intensities are not integers, or are scaled to a common total
    (MAS5's target intensity), or hold negative values; a matrix of counts subsampled to one depth is not
    recognised (pass ``scale="counts"``). None of the registered data sets passes it."""
    X = np.asarray(X, dtype=np.float64)
    if X.size == 0 or np.isnan(X).all():
        return False, "no observed value"
    lo_, hi_ = float(np.nanmin(X)), float(np.nanmax(X))
    if lo_ < 0:
        return False, f"negative values (min {lo_:.4g})"
    step = max(1, (1 << 20) // max(1, X.shape[1]))  # a block of rows at a time: no copy of the whole matrix
    for r in range(0, X.shape[0], step):
        b = X[r:r + step]
        if not np.all((b == np.floor(b)) | np.isnan(b)):
            return False, "values that are not whole numbers"
    if hi_ <= 1:
        return False, "only 0 and 1"
    lib = np.nansum(X, axis=1)
    lo, hi = float(lib.min()), float(lib.max())
    if lo <= 0:
        return False, "a sample whose values are all zero"
    if hi < COUNT_LIBRARY_SPREAD * lo:
        return False, (f"non-negative whole numbers, but library sizes (sample totals {lo:.4g} to {hi:.4g}) that do "
                       "not vary between samples")
    return True, (f"non-negative whole numbers with library sizes (sample totals) from {lo:.4g} to {hi:.4g} "
                  f"({hi / lo:.2f}-fold)")


def decide_scale(X, scale: str = "auto") -> tuple[str, str]:
    """(the scale of ``X``'s values, the reason): ``"counts"`` by :func:`looks_like_counts`; otherwise
    ``"raw-intensity"`` when GEO2R's rule (:func:`needs_log`) says the values need a log, else ``"log"`` (already
    on a log or standardised scale). ``scale`` other than ``"auto"`` is taken as given."""
    if scale != "auto":
        if scale not in SCALES:
            raise ValueError(f"scale must be 'auto' or one of {', '.join(SCALES)}, got {scale!r}")
        return scale, f"scale={scale!r} given"
    counts, why = looks_like_counts(X)
    if counts:
        return "counts", f"counts: {why}"
    raw, q = needs_log(X)
    qs = " / ".join(f"{v:.4g}" for v in q)
    if raw:
        return "raw-intensity", (f"unlogged intensities by GEO2R's rule (quantiles 0/25/50/75/99/100 %: {qs}); not "
                                 f"counts: {why}")
    return "log", f"already on a log or standardised scale by GEO2R's rule (quantiles {qs}); not counts: {why}"


def _refuse_missing(X, who):
    """A ValueError naming the first missing value and the remedy (impute inside the training folds)."""
    nan = np.isnan(X)
    if nan.any():
        r, c = np.argwhere(nan)[0]
        raise ValueError(f"{who}: X contains {int(nan.sum())} missing value(s) (NaN; the first at sample {r}, gene "
                         f"{c}); impute them inside each training part first: put "
                         "genesel.preprocessing.MissingValueImputer() before this step in the pipeline "
                         "(genesel.datasets.recommended_preprocessing does so for a file with missing values)")


class LogTransform(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """x -> log_base(clip(x, floor, ceiling)), unless the training values are already on a log scale.

    Raw Affymetrix MAS values hold zeros and negatives; the customary treatment (Golub et al. 1999; Dudoit,
    Fridlyand & Speed 2002, JASA 97:77) floors them at 20, caps them at 16000 and takes log10. Many public matrices
    are published already logged (RMA, MAS5 log2) or standardised, where flooring at 20 would turn every value into
    the floor. So ``fit`` decides from the training values which case it meets (:func:`needs_log`, GEO2R's quantile
    rule), and ``transform`` applies that decision to any data (the test part of a split never enters it).

    Parameters
    ----------
    floor : positive float, default 20. What smaller values (zeros and negatives included) become before the log.
    floor_quantile : float in [0, 1) or None, default None. If given, the floor is the larger of ``floor`` and this
        quantile of the training values (e.g. 0.05: Tan's floor at the 5th percentile), learned in ``fit``.
    ceiling : float or None, default None. What larger values become (must exceed ``floor``).
    base : float > 1, default 10. The logarithm's base.
    already_log : ``"auto"`` (default), True or False. ``"auto"``: decide in ``fit`` by GEO2R's rule; ``True``:
        the values are on a log scale, pass them through unchanged; ``False``: always floor, cap and log.

    Attributes
    ----------
    already_log_ : bool. True when ``transform`` passes the values through unchanged.
    floor_ : the floor applied (``floor``, or the training quantile when ``floor_quantile`` is larger).
    quantiles_ : the GEO2R quantiles (0, 25, 50, 75, 99, 100 %) of the training values (``"auto"`` only; NaN
        otherwise), the evidence for the decision.

    A pass-through decided by ``"auto"`` is said once per process and data width on the ``genesel`` logger (level
    INFO; silent unless the user turns genesel's log on), not as a warning on every fit.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import LogTransform
    >>> raw = np.array([[-40.0, 150.0, 20000.0], [12.0, 1000.0, 300.0]])   # MAS5-style intensities
    >>> LogTransform(floor=20.0, ceiling=16000.0).fit_transform(raw).round(2).tolist()
    [[1.3, 2.18, 4.2], [1.3, 3.0, 2.48]]

    On raw data it is the first step of a pipeline; genes constant in a training part (here probes at the floor in
    every sample) are ignored by every later step, so the pipeline runs inside ``cross_val_score`` as it is:

    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import GeneStandardizer, LinearSVM, SVMRFE
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([-1, 1], 20)
    >>> X = rng.lognormal(mean=6.0, sigma=1.0, size=(40, 100))       # 40 samples x 100 genes, raw intensities
    >>> X[:, :4] *= np.exp(np.outer(y, [1.0, 1.0, -1.0, -1.0]))     # genes 0-1 up, 2-3 down in class +1
    >>> X[:, 90:] = 5.0                                             # 10 probes below the floor everywhere
    >>> pipe = make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(n_features_to_select=4), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.85

    Values already on a log scale (here log2, as RMA gives them) pass through unchanged:

    >>> logged = np.log2([[45.0, 150.0, 3000.0], [20.0, 900.0, 16000.0]])  # already log2 (e.g. RMA)
    >>> t = LogTransform().fit(logged)
    >>> t.already_log_, bool(np.array_equal(t.transform(logged), logged))
    (True, True)
    """

    _parameter_constraints = {"floor": [POSITIVE], "ceiling": [real(None, None, "neither"), None],
                              "base": [real(1, None, "neither")], "already_log": [StrOptions({"auto"}), "boolean"],
                              "floor_quantile": [real(0, 1, "left"), None]}

    def __init__(self, *, floor: float = 20.0, ceiling: float | None = None, base: float = 10.0,
                 already_log="auto", floor_quantile: float | None = None):
        self.floor = floor
        self.ceiling = ceiling
        self.base = base
        self.already_log = already_log
        self.floor_quantile = floor_quantile

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        if self.ceiling is not None and self.ceiling <= self.floor:
            raise ValueError(f"LogTransform: ceiling {self.ceiling} must exceed floor {self.floor}")
        self.floor_ = self.floor
        if self.floor_quantile is not None:
            finite = X[np.isfinite(X)]
            if finite.size:
                self.floor_ = max(self.floor, float(np.quantile(finite, self.floor_quantile)))
            if self.ceiling is not None and self.ceiling <= self.floor_:
                raise ValueError(f"LogTransform: ceiling {self.ceiling} must exceed the floor {self.floor_} (the "
                                 f"{self.floor_quantile} quantile of the training values)")
        if self.already_log == "auto":
            raw, self.quantiles_ = needs_log(X)
            self.already_log_ = not raw
            if self.already_log_:
                self._say_passed_through(X.shape)
        else:
            self.already_log_ = bool(self.already_log)
            self.quantiles_ = np.full(len(GEO2R_QUANTILES), np.nan)
        return self

    def _say_passed_through(self, shape):
        q = self.quantiles_
        key = (shape[1], tuple(np.round(q, 6)))
        if key in _SAID:
            return
        if len(_SAID) > 512:  # a long-running process: forget, rather than grow without bound
            _SAID.clear()
        _SAID.add(key)
        LOG.info("LogTransform: the training values (%d samples x %d genes; quantiles 0/25/50/75/99/100 %%: %s) look "
                 "already log-transformed or standardised (GEO2R's rule: 99th percentile <= 100, and no positive "
                 "lower quartile with a range above 50); they are passed through unchanged (already_log_=True). "
                 "Pass already_log=False to log them anyway", shape[0], shape[1],
                 " / ".join(f"{v:.4g}" for v in q))

    def transform(self, X):
        check_is_fitted(self, "already_log_")
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        if self.already_log_:
            return X
        X = np.clip(X, self.floor_, self.ceiling if self.ceiling is not None else np.inf)
        return np.log(X) / np.log(self.base)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class GeneStandardizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Per-gene z-scores with the training mean and sd (ddof=0).

    ``on_constant``: ``"zero"`` (default) maps genes constant in the training data to 0 (mean subtracted, scale 1,
    as scikit-learn's ``StandardScaler``); they are listed in ``constant_genes_`` and reported once (see
    ``genesel._core.validation``); ``"error"`` raises on them, naming them. Missing values are refused with the
    remedy (a :class:`MissingValueImputer` before this step).

    Parameters
    ----------
    on_constant : {"zero", "error"}, default "zero"
        Genes constant in the training data: ``"zero"`` maps them to 0 (scale 1, as ``StandardScaler``) and lists
        them in ``constant_genes_``; ``"error"`` raises, naming them.

    Attributes
    ----------
    mean_ : ndarray (n_features_in_,)
        Training mean of every gene.
    scale_ : ndarray (n_features_in_,)
        Training standard deviation (ddof=0) of every gene; 1 for a constant gene.
    constant_genes_ : ndarray of int
        Genes constant in the training data.
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import GeneStandardizer
    >>> X = np.array([[1.0, 10.0, 5.0], [3.0, 30.0, 5.0], [5.0, 20.0, 5.0]])  # gene 2 is constant
    >>> std = GeneStandardizer().fit(X)
    >>> std.transform(X).round(2).tolist()
    [[-1.22, -1.22, 0.0], [0.0, 1.22, 0.0], [1.22, 0.0, 0.0]]
    >>> std.constant_genes_.tolist()                                # mapped to 0, ignored downstream
    [2]
    >>> std.transform([[7.0, 20.0, 5.0]]).round(2).tolist()         # new samples: the training mean and sd
    [[2.45, 0.0, 0.0]]
    """

    _parameter_constraints = {"on_constant": [StrOptions({"error", "zero"})]}

    def __init__(self, *, on_constant: str = "zero"):
        self.on_constant = on_constant

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        _refuse_missing(X, "GeneStandardizer")
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
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        _refuse_missing(X, "GeneStandardizer")
        return (X - self.mean_) / self.scale_


class SampleStandardizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Each row to mean 0 and sd 1 over its genes (ddof=0). Rows that are constant raise an error.

    Parameters
    ----------
    None.

    Attributes
    ----------
    n_features_in_ : int
        Number of genes seen in ``fit`` (stateless otherwise: each sample is scaled over its own genes).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import SampleStandardizer
    >>> rng = np.random.default_rng(0)
    >>> X = np.log2(rng.lognormal(mean=6.0, sigma=1.0, size=(4, 100)))   # 4 arrays, log2 intensities
    >>> X[1] += 1.5                                                 # array 1 scanned brighter
    >>> X.mean(axis=1).round(1).tolist()
    [8.8, 10.1, 8.5, 8.6]
    >>> Z = SampleStandardizer().fit_transform(X)
    >>> np.allclose(Z.mean(axis=1), 0.0), np.allclose(Z.std(axis=1), 1.0)
    (True, True)
    """

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
    ``KNNImputer``). A gene with no observed training value raises an error. Put it first in a pipeline (or after a
    :class:`LogTransform`, which passes NaN through), so that it is fitted on each training part only.

    Parameters
    ----------
    strategy : {"knn", "mean", "median"}, default "knn"
        ``"mean"`` / ``"median"``: the gene's statistic over the training samples; ``"knn"``: the mean of the gene
        over the ``n_neighbors`` nearest training samples (scikit-learn's ``KNNImputer``; Troyanskaya et al. 2001,
        KNNimpute).
    n_neighbors : int >= 1, default 10
        Neighbours of the ``"knn"`` strategy (ignored otherwise).

    Attributes
    ----------
    statistics_ : ndarray (n_features_in_,)
        Training mean or median of every gene (``strategy="mean"`` or ``"median"`` only).
    knn_ : sklearn.impute.KNNImputer
        The fitted imputer, on data rescaled by an exact power of two (``strategy="knn"`` only).
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import MissingValueImputer
    >>> X = np.array([[1.0, 2.0, np.nan], [1.1, 2.1, 3.0], [5.0, 6.0, 9.0], [5.1, 6.2, 8.0]])
    >>> MissingValueImputer(strategy="mean").fit_transform(X)[0].round(2).tolist()   # mean of the gene
    [1.0, 2.0, 6.67]
    >>> MissingValueImputer(strategy="knn", n_neighbors=1).fit_transform(X)[0].tolist()  # nearest sample's value
    [1.0, 2.0, 3.0]

    Inside a pipeline the imputation is learned on the training part of every fold only:

    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import GeneStandardizer, LinearSVM
    >>> pipe = make_pipeline(MissingValueImputer(n_neighbors=1), GeneStandardizer(), LinearSVM())
    >>> pipe.fit(X, [-1, -1, 1, 1]).predict([[1.2, np.nan, 2.5]]).tolist()
    [-1]
    """

    _parameter_constraints = {"strategy": [StrOptions({"mean", "median", "knn"})], "n_neighbors": [POSITIVE_INT]}

    def __init__(self, *, strategy: str = "knn", n_neighbors: int = 10):
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


def _edger_reference(tmm, X):
    """``tmm`` (rnanorm's TMM) fitted on the training counts ``X`` with edgeR's choice of the reference sample
    (``calcNormFactors``): the sample whose upper-quartile factor (75th percentile of its counts over its library
    size) is closest to their mean, or, when the median of those factors is 0 (sparse counts, e.g. single cells),
    the sample with the largest sum of square-root counts. rnanorm picks the same sample when no upper quartile is 0;
    with one that is, it divides by their geometric mean, 0, and picks from NaN (a RuntimeWarning and an arbitrary
    reference). The factors are then rnanorm's own, against that reference."""
    import warnings

    from scipy.stats import gmean

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # rnanorm's own reference choice, replaced below if it differs
        tmm.fit(X)
    f75 = np.percentile(X, 75, axis=1) / X.sum(axis=1)
    ref = int(np.argmax(np.sqrt(X).sum(axis=1))) if np.median(f75) < 1e-20 else int(np.argmin(np.abs(f75 - f75.mean())))
    if not np.array_equal(tmm.ref_, X[ref]):
        tmm.ref_ = X[ref]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # log2 of zero counts: NaN, dropped by rnanorm
            tmm.geometric_mean_ = gmean(tmm._get_norm_factors(X))
    return tmm


class CountNormalizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Sequencing counts to log2 counts per million of a normalised library size, the normalisation learned on the
    training samples only.

    For sample j with counts x_j and library size N_j (its total), the output is
    ``log2(x_j / (N_j f_j) * 1e6 + prior_count)`` (``log=False``: without the log and prior), where f_j is the
    sample's normalisation factor:

    - ``"tmm"`` (default): trimmed mean of M-values (Robinson & Oshlack 2010, Genome Biology 11:R25; edgeR's
      default): the precision-weighted mean of the log-ratios of x_j to a reference sample over the genes left after
      trimming 30 % of the log-ratios and 5 % of the mean log-expressions at each end. ``fit`` picks the reference
      among the training samples (edgeR's rule: the sample whose upper-quartile factor is closest to their mean;
      for sparse counts whose median upper quartile is 0, the largest sum of square-root counts)
      and the geometric mean of the training factors, to which every factor is scaled; ``transform`` computes each
      sample's own factor against that reference, so a test sample's value depends on it and the training part
      only. Deeper sequencing of one sample moves its TMM factor a little (the precision weights grow with depth);
      the two other methods are exactly depth-invariant.
    - ``"upper_quartile"``: the sample's 75th percentile of counts over its library size (Bullard et al. 2010, BMC
      Bioinformatics 11:94), scaled by the training factors' geometric mean.
    - ``"cpm"``: f_j = 1, the library size alone.

    The factors are computed by ``rnanorm`` (Genialis' scikit-learn transformers, validated against edgeR), on the
    genes counted in some training sample. rnanorm's own ``transform`` drops the genes that are zero in every
    sample it is given, so a test part without counts in a gene the training part has fails on a shape mismatch;
    here each batch is given to it together with the training totals, which keeps every training gene, and leaves
    each sample's factor its own (a factor depends only on the sample, the reference and the training mean).

    Parameters
    ----------
    method : ``"tmm"``, ``"upper_quartile"`` or ``"cpm"``.
    log : bool, default True. Take ``log2(. + prior_count)`` of the normalised counts per million.
    prior_count : positive float, default 1.
    m_trim, a_trim : TMM's trimming fractions of the log-ratios and mean log-expressions (0.3, 0.05).

    Attributes
    ----------
    genes_ : boolean mask of the genes counted in some training sample (those the factors use).
    factors_ : the training samples' normalisation factors.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel.preprocessing import CountNormalizer
    >>> counts = np.array([[10, 20, 30, 40], [20, 40, 60, 80], [5, 10, 15, 70]])
    >>> CountNormalizer(method="cpm", log=False).fit_transform(counts)[[0, 2]].round(0).tolist()  # per million
    [[100000.0, 200000.0, 300000.0, 400000.0], [50000.0, 100000.0, 150000.0, 700000.0]]
    >>> tmm = CountNormalizer(log=False).fit(counts)   # TMM: sample 2's library is mostly its last gene
    >>> tmm.factors_.round(2).tolist()
    [1.26, 1.26, 0.63]
    >>> tmm.transform(counts)[[0, 2]].round(0).tolist()   # its first three genes now match sample 0's
    [[79370.0, 158740.0, 238110.0, 317480.0], [79370.0, 158740.0, 238110.0, 1111181.0]]
    """

    _parameter_constraints = {"method": [StrOptions({"tmm", "upper_quartile", "cpm"})], "log": ["boolean"],
                              "prior_count": [POSITIVE], "m_trim": [real(0, 0.5, "left")],
                              "a_trim": [real(0, 0.5, "left")]}

    def __init__(self, *, method: str = "tmm", log: bool = True, prior_count: float = 1.0, m_trim: float = 0.3,
                 a_trim: float = 0.05):
        self.method = method
        self.log = log
        self.prior_count = prior_count
        self.m_trim = m_trim
        self.a_trim = a_trim

    def _counts(self, X, reset):
        X = validate_data(self, X, reset=reset, dtype=np.float64, ensure_all_finite="allow-nan")
        if np.isnan(X).any():
            _refuse_missing(X, "CountNormalizer")
        if (X < 0).any():
            r, c = np.argwhere(X < 0)[0]
            raise ValueError(f"CountNormalizer: Negative values in data (the first {X[r, c]}, sample {r}, gene {c}): "
                             "counts are non-negative")
        empty = np.flatnonzero(X.sum(axis=1) <= 0)
        if empty.size:
            raise ValueError(f"CountNormalizer: sample(s) {empty[:5].tolist()} have no counts at all (library size "
                             "0); drop them")
        return X

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = self._counts(X, reset=True)
        self.genes_ = X.sum(axis=0) > 0
        Xg = X[:, self.genes_]
        self._totals = Xg.sum(axis=0)
        if self.method == "cpm":
            self.norm_ = None
        else:
            from rnanorm import TMM, UQ

            if self.method == "tmm":
                self.norm_ = _edger_reference(TMM(m_trim=self.m_trim, a_trim=self.a_trim), Xg)
            else:
                self.norm_ = UQ().fit(Xg)
        self.factors_ = self._factors(X)
        return self

    def _factors(self, X):
        if self.norm_ is None:
            return np.ones(X.shape[0])
        import warnings

        from sklearn import config_context

        batch = np.vstack([X[:, self.genes_], self._totals[None, :]])
        with warnings.catch_warnings(), config_context(transform_output="default"):
            warnings.simplefilter("ignore", RuntimeWarning)  # log2 of zero counts: NaN, dropped by rnanorm
            f = np.asarray(self.norm_.get_norm_factors(batch), dtype=np.float64)[:-1]
        bad = np.flatnonzero(~np.isfinite(f) | (f <= 0))
        if bad.size:
            raise ValueError(f"CountNormalizer: no {self.method} factor for sample(s) {bad[:5].tolist()} (too few "
                             "genes counted in both it and the reference sample, e.g. sparse single-cell counts); "
                             "use method='cpm'")
        return f

    def transform(self, X):
        check_is_fitted(self, "genes_")
        X = self._counts(X, reset=False)
        eff = X.sum(axis=1) * self._factors(X)
        out = X / eff[:, None] * 1e6
        return np.log2(out + self.prior_count) if self.log else out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags
