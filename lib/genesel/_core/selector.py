"""The one base of genesel's gene selectors: scikit-learn's ``SelectorMixin`` with the conventions every selector
shares, written once.

- Tags: a selector needs the labels (``target_tags.required``) and two classes (``multi_class=False``), so
  scikit-learn's estimator checks draw two-class targets, unless its class sets ``_supports_multiclass = True``
  (it ranks genes over K >= 3 classes; the checks then draw three-class targets as well).
- ``support_`` is the selection: ``transform`` keeps those genes (``_get_support_mask``).
- :func:`n_select`, the one rule for ``n_features_to_select``: a count (more genes than there are selects all of
  them, as scikit-learn's ``SelectKBest`` and ``RFE``), a fraction of the genes (``max(1, int(fraction * d))``, as
  scikit-learn's ``RFE``), or None for the selector's own documented default (half the genes for SVM-RFE, the genes
  still active for l2-AROM, all genes for the filters, the forward-selected biomarker set for MSVM-RFE).
- :meth:`SelectorBase.subset`: the nested subset of the ``size`` best genes (ascending indices). Selectors that
  eliminate genes in stages (SVM-RFE, ALMA-FS / ALMA-RFE, GP-ARD-RFE) accept only the sizes they visited
  (``_visited_sizes``); the others accept any size.

Not public API.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import ClassifierTags
from sklearn.utils.validation import check_is_fitted

__all__ = ["SelectorBase", "n_select"]


def n_select(k, d, default):
    """Number of genes to keep out of ``d`` for a requested ``k`` (see the module docstring): ``default`` for None,
    ``min(k, d)`` for a count, ``max(1, int(k * d))`` for a fraction in (0, 1)."""
    if k is None:
        return default
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real):
        raise ValueError(f"the number of genes must be None, an int >= 1 or a fraction in (0, 1), got {k!r}")
    if isinstance(k, numbers.Integral):
        if k < 1:
            raise ValueError(f"the number of genes must be >= 1, got {k}")
        return min(int(k), d)
    if 0.0 < k < 1.0:
        return max(1, int(k * d))
    raise ValueError(f"a fraction of the genes must lie in (0, 1), got {k!r}")


class SelectorBase(SelectorMixin, BaseEstimator):
    """Tags, support mask, ``subset`` and the ``n_features_to_select`` rule of every genesel selector."""

    #: whether the selector fits K >= 3 classes (set by the subclasses that do)
    _supports_multiclass = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        # binary only unless the class says otherwise: declared the way scikit-learn's checks understand (with
        # multi_class=False they draw two-class targets)
        multi = bool(self._supports_multiclass)
        if tags.classifier_tags is None:
            tags.classifier_tags = ClassifierTags(multi_class=multi)
        else:
            tags.classifier_tags.multi_class = multi
        return tags

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def _n_select(self, d, default):
        """:func:`n_select` of ``n_features_to_select`` for ``d`` genes."""
        return n_select(self.n_features_to_select, d, default)

    def _subset_order(self):
        """All genes best first, along which the subsets are nested."""
        return self.feature_order_

    def _visited_sizes(self):
        """The subset sizes this selector visited (stage-wise elimination), or None: every size is a subset."""
        return None

    def subset(self, size):
        """Indices (ascending) of the nested subset of the ``size`` best genes; more genes than there are: all.
        Selectors that eliminate genes in stages accept only the sizes they visited."""
        check_is_fitted(self, "support_")
        order = self._subset_order()
        sizes = self._visited_sizes()
        if sizes is not None and size not in set(np.asarray(sizes).tolist()):
            raise ValueError(f"{type(self).__name__}: size {size} was not visited; visited sizes are "
                             f"{np.asarray(sizes).tolist()}")
        if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Integral) or size < 1:
            raise ValueError(f"{type(self).__name__}: size must be a positive int, got {size!r}")
        return np.sort(order[: min(int(size), order.size)])
