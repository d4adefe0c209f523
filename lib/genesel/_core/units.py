"""Data-relative units: the exact power-of-two rescaling every estimator computes in, and the unit helpers of the
SVMs' messages.

Expression values come in any units (raw intensities near 1e4, log ratios near 1, or a user's data scaled by 1e-300
or 1e200). Estimators compute in *data-relative* units: they multiply X by a power of two (:func:`pow2_exponent`,
:func:`unit_row_exponent`) and express their internal constants (starting values, boxes, penalties) in those
units. Multiplying by a power of two is exact in floating point (no rounding, only the exponent changes), so on
data of ordinary scale every number is bit for bit what the unscaled computation gives, while squares and Gram
matrices of extreme data no longer overflow or underflow. Where only overflow protection is the point
(:func:`safe_pow2_exponent`, :func:`unit_row_exponent`), data whose values are safe to square are not copied at
all.

Back in the units of X (:func:`in_x_units`), a quantity of data near 1e-300 or 1e200 may not be representable; it
then becomes 0 or inf quietly, while the fit and its predictions, computed in data-relative units, are unaffected.
The SVM's box C is in the units of X (scaling x by a acts like scaling C by 1/a^2): :func:`log10_scale` and
:func:`log_scale_str` give C * max k(x, x) in the units of X without overflowing, for the messages that say a C
is negligible (:func:`negligible_C_message`), used by :mod:`genesel.svm` and :mod:`genesel.rfe`.

Offsets: data far from the origin relative to their spread (:data:`OFFSET_RATIO`, :func:`offset_ratio`) lose the
differences between samples to rounding in a Gram matrix; translation-invariant methods centre them first
(:func:`far_offset_centre`), the others say so (:func:`offset_message`). Tree ensembles that compute in float32
(scikit-learn's forests) see the data through :func:`tree_units`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pow2_exponent", "safe_pow2_exponent", "scale_pow2", "unit_row_exponent", "in_x_units", "log10_scale",
           "log_scale_str", "negligible_C_message", "OFFSET_RATIO", "offset_ratio", "far_offset_centre",
           "offset_message", "tree_units", "tree_units_params", "apply_tree_units"]


def pow2_exponent(X, axis=None):
    """Exponent(s) k such that ``np.ldexp(X, k)`` has its largest absolute value in [0.5, 1).

    ``axis=None``: one int for the whole array; ``axis=0``: one per column (gene), ``axis=1`` one per row. An
    all-zero array (or column) gets 0. Scaling by ``2**k`` is exact (see the module docstring).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.size == 0:
        m = np.zeros(np.delete(X.shape, axis) if axis is not None else ())
    else:
        m = np.maximum(X.max(axis=axis), -X.min(axis=axis))  # max |x| without an |X| copy
    _, e = np.frexp(m)  # m = f * 2**e with f in [0.5, 1); frexp(0) = (0, 0)
    k = -np.asarray(e, dtype=np.int64)
    return int(k) if np.ndim(k) == 0 else k


#: Data whose largest values lie within [2^-SAFE, 2^SAFE] need no rescaling for sums of squares (their squares stay
#: far inside the double range); :func:`safe_pow2_exponent` returns 0 for them, which skips the work.
_SAFE_EXP = 400


def safe_pow2_exponent(X, axis=None):
    """:func:`pow2_exponent`, but 0 wherever the values are already safe to square and sum (largest |x| within
    2^-400 .. 2^400, or all zero). Since the rescaling is exact, skipping it there changes no bit; it only saves
    the copy on ordinary data."""
    k = pow2_exponent(X, axis=axis)
    safe = np.abs(k) <= _SAFE_EXP
    if np.ndim(k) == 0:
        return 0 if safe else k
    return np.where(safe, 0, k)


def scale_pow2(X, k, axis=None):
    """``X * 2**k`` (exact), broadcasting per-column (``axis=0``) or per-row (``axis=1``) exponents; returns X
    itself when every exponent is 0."""
    X = np.asarray(X, dtype=np.float64)
    if np.ndim(k) == 0:
        return X if k == 0 else np.ldexp(X, int(k))
    if not np.any(k):
        return X
    return np.ldexp(X, k[None, :] if axis == 0 else k[:, None])


def unit_row_exponent(X, *, safe=_SAFE_EXP) -> int:
    """One exponent k such that the longest row of ``np.ldexp(X, k)`` has Euclidean norm in [0.5, 1): the
    largest diagonal entry of its Gram matrix is then in [0.25, 1). Computed without squaring the raw values,
    so it works at any scale. Data of ordinary scale (largest |x| within 2^-safe .. 2^safe, 2^+-400 by default)
    get 0: for an exact rescaling that changes no bit of what is computed from it, only the copy is saved. A
    method whose solver constants need data nearer to 1 than overflow does passes a smaller ``safe``."""
    k1 = pow2_exponent(X)
    if abs(k1) <= safe:
        return 0
    X1 = np.ldexp(np.asarray(X, dtype=np.float64), k1)
    rn = float(np.sqrt(np.max(np.einsum("ij,ij->i", X1, X1)))) if X1.size else 0.0
    return k1 + pow2_exponent(rn)


def in_x_units(a, exp2):
    """a * 2^exp2, quietly inf or 0 where the units of X cannot hold it (data near 1e200 or 1e-300)."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(a, exp2)


def log10_scale(C, K, exp2):
    """log10 of C times the largest diagonal entry of the Gram matrix in the units of X (K = 2^exp2 K_X)."""
    kmax = float(np.max(np.diag(K))) if K.size else 0.0
    if not (C > 0 and kmax > 0):
        return -np.inf
    return np.log10(C) + np.log10(kmax) - exp2 * np.log10(2.0)


def log_scale_str(C, K, exp2):
    """C * max k(x, x) in the units of X as a string that never overflows."""
    e10 = log10_scale(C, K, exp2)
    if not np.isfinite(e10):
        return "0" if e10 < 0 else "inf"
    m, e = 10 ** (e10 - np.floor(e10)), int(np.floor(e10))
    return f"{m:.3g}e{e:+d}"


def negligible_C_message(who, C, K, exp2):
    """The message of an SVM whose box C underflows at the scale of X (K: the Gram matrix in units of 2^exp2)."""
    return (f"{who}: C={C:g} is negligible at the scale of X: C * max k(x, x) = {log_scale_str(C, K, exp2)} "
            "underflows, so every sample would be a bounded support vector of weight 0 and the decision "
            "function a constant; raise C or standardise the genes (genesel.preprocessing.GeneStandardizer)")


#: Data whose mean lies further from the origin than this, relative to their spread (squared norm of the mean over
#: the sum of the gene variances: 2^20, i.e. about 1000 within-sample standard deviations), lose the differences
#: between samples to rounding in a Gram matrix or a kernel: |x|^2 + |x'|^2 - 2 x.x' cancels ~log2(ratio) bits.
#: Translation-invariant methods (an SVM or DWD with a bias, the RBF kernel) centre such data; data of ordinary
#: offset (raw intensities, log-ratios: ratios of 1 to 1000) are left as they are, bit for bit.
OFFSET_RATIO = 2.0**20


def offset_ratio(X) -> float:
    """||mean of the rows||^2 / (sum of the column variances) of X: how far the data sit from the origin in units
    of their spread (inf for data that do not vary). X must be safe to square (e.g. rescaled by
    :func:`unit_row_exponent`)."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] < 2:
        return 0.0
    mu = X.mean(axis=0)
    spread = float(np.sum(X.var(axis=0)))
    off = float(mu @ mu)
    if not spread > 0:
        return np.inf if off > 0 else 0.0
    return off / spread


def far_offset_centre(X):
    """The column means of X when the data sit further from the origin than :data:`OFFSET_RATIO` times their
    spread (:func:`offset_ratio`), else None: what a translation-invariant method subtracts before it forms a Gram
    matrix (X safe to square, as for :func:`offset_ratio`)."""
    X = np.asarray(X, dtype=np.float64)
    return X.mean(axis=0) if offset_ratio(X) > OFFSET_RATIO else None


def offset_message(ratio: float) -> str:
    """How far the data sit from the origin, for messages: 'the genes' mean lies about 3.2e+08 spreads from the
    origin'."""
    return f"the genes' mean lies about {np.sqrt(ratio):.2g} within-sample standard deviations from the origin"


#: tree ensembles compute in float32 (about 7 digits, |x| up to 3e38): genesel's forest (values equal in float32
#: are one value) and scikit-learn's trees (which also treat values closer than 1e-7, absolute, as equal)
_FLOAT32_EXP = 100


def tree_units_params(X):
    """The transform :func:`tree_units` applies to X, to apply it to new data (:func:`apply_tree_units`): None when
    X is used as it is, else ``(k, mu, k2)``: scale by 2^k, subtract ``mu`` (the gene means, or None), scale by
    2^k2."""
    X = np.asarray(X, dtype=np.float64)
    if X.size == 0:
        return None
    k = pow2_exponent(X)
    Xs = scale_pow2(X, k)
    mu = far_offset_centre(Xs)
    span = float(np.max(np.ptp(Xs, axis=0)))
    if mu is None and abs(k) <= _FLOAT32_EXP and (span == 0 or np.ldexp(span, -k) >= 0.5):
        return None
    if mu is not None:
        Xs = Xs - mu
        span = float(np.max(np.ptp(Xs, axis=0)))
    return k, mu, (pow2_exponent(span) if span > 0 else 0)


def apply_tree_units(X, params):
    """X through the transform ``params`` of :func:`tree_units_params` (X itself for None)."""
    X = np.asarray(X, dtype=np.float64)
    if params is None:
        return X
    k, mu, k2 = params
    Xs = scale_pow2(X, k)
    if mu is not None:
        Xs = Xs - mu
    return scale_pow2(Xs, k2)


def tree_units(X):
    """X as a float32 tree ensemble (genesel's forest, scikit-learn's trees) should see it: X itself when that cast
    keeps the data (largest |x| within 2^-100 .. 2^100, largest gene range at least 1/2, and no far offset,
    :data:`OFFSET_RATIO`), so ordinary data give the forest of X itself; otherwise every gene centred (far
    offset) and all of X rescaled by one power of two so that the largest gene range lies in [0.5, 1). Trees
    depend only on the order of each gene's values, which both steps keep, so data near 1e-300 or 1e300 or 1e12
    spreads from the origin give the forest of ordinary data, where float32 would underflow, overflow or round
    every difference away. New data go through the same transform with :func:`tree_units_params` and
    :func:`apply_tree_units`."""
    return apply_tree_units(X, tree_units_params(X))
