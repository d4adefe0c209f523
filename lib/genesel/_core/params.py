"""Hyper-parameter constraints for scikit-learn's own validation (``_parameter_constraints``, checked at ``fit`` by
``BaseEstimator._validate_params`` through the ``_fit_context`` decorator).

Every public estimator of genesel declares its hyper-parameters with the constraint objects of
``sklearn.utils._param_validation``, so a wrong value gets the same kind of message everywhere: an
``InvalidParameterError`` (a ``ValueError`` and a ``TypeError``) naming the parameter, the estimator and the
allowed values, e.g. "The 'C' parameter of LinearSVM must be a float in the range (0.0, inf]. Got -1 instead."

One convention is added: a number is never a bool. scikit-learn's intervals accept ``True`` as the number 1 (bool is
an ``int`` in Python), so ``C=True`` would pass as C = 1; the intervals here (:func:`real`, :func:`integer`) refuse
``True`` and ``False`` (flags use the ``"boolean"`` constraint). Checks that depend on the data (a number of folds
larger than the smallest class, a prior range that does not contain the training values, the length of a prior
vector) stay in ``fit`` with their own messages.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import HasMethods, Interval, Options, RealNotInt, StrOptions

__all__ = ["real", "integer", "POSITIVE", "POSITIVE_OR_INF", "NON_NEGATIVE", "POSITIVE_INT", "N_FEATURES", "STEP",
           "Interval", "StrOptions", "Options", "HasMethods", "RealNotInt"]


class _NumberInterval(Interval):
    """scikit-learn's ``Interval`` that does not take a bool for a number."""

    def is_satisfied_by(self, val):
        if isinstance(val, (bool, np.bool_)):
            return False
        return super().is_satisfied_by(val)


def real(left=None, right=None, closed="neither"):
    """A real number in the interval (ints included, bools not); ``closed`` as in scikit-learn's ``Interval``
    (``right=None`` with ``closed="right"`` or ``"both"`` admits ``inf``)."""
    return _NumberInterval(Real, left, right, closed=closed)


def integer(left=None, right=None, closed="left"):
    """An integer in the interval (numpy integers included, bools not)."""
    return _NumberInterval(Integral, left, right, closed=closed)


#: (0, inf): tolerances, penalties, kernel widths
POSITIVE = real(0, None, "neither")
#: (0, inf]: an SVM's box C, where inf is the hard margin
POSITIVE_OR_INF = real(0, None, "right")
#: [0, inf)
NON_NEGATIVE = real(0, None, "left")
#: 1, 2, 3, ...
POSITIVE_INT = integer(1, None, "left")
#: the number of genes a selector keeps: a count (more than there are keeps all), a fraction of the genes, or None
#: (the selector's own documented default); see :func:`genesel._core.selector.n_select`
N_FEATURES = [integer(1, None, "left"), Interval(RealNotInt, 0, 1, closed="neither"), None]
#: genes removed per elimination stage: a count, a fraction of the initial genes, or Guyon's halving chunks
STEP = [integer(1, None, "left"), Interval(RealNotInt, 0, 1, closed="neither"), StrOptions({"halving"})]
