"""The one base of genesel's binary classifiers: scikit-learn's ``ClassifierMixin`` with the conventions they share,
written once.

- Binary tags (``multi_class=False``: scikit-learn's estimator checks then draw two-class targets) unless the class
  sets ``_multi_class = True`` (it fits K >= 3 classes too), and the ``pairwise`` tag of a classifier fitted on a
  precomputed Gram matrix (``kernel="precomputed"``).
- ``predict`` is the sign of ``decision_function``: ``classes_[1]`` (the larger label, the +1 class everywhere in
  genesel) where the decision value is positive, ``classes_[0]`` elsewhere; for a decision of shape (n, K) (K >= 3
  classes) the class of the largest value (the first on a tie).
- :meth:`BinaryClassifier._check_predict_input`: the input check of the Bayesian kernel classifiers' prediction
  (the fitted width, then NaN/inf refused with genesel's message).

Not public API.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.validation import check_expression_data

__all__ = ["BinaryClassifier"]


class BinaryClassifier(ClassifierMixin, BaseEstimator):
    """Tags and ``predict`` of a binary classifier whose ``decision_function`` is positive for ``classes_[1]``."""

    #: True in a classifier that also fits K >= 3 classes (decision_function of shape (n, K))
    _multi_class = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self._multi_class
        tags.input_tags.pairwise = getattr(self, "kernel", None) == "precomputed"
        return tags

    def _check_predict_input(self, X):
        """X for prediction: fitted, of the training width, finite (genesel's messages)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, ensure_all_finite=False)
        return check_expression_data(X, name="X", allow_constant=True, min_samples=1)

    def predict(self, X):
        """Class labels (original labels): ``classes_[1]`` where ``decision_function`` is positive."""
        d = self.decision_function(X)  # checks that the model is fitted
        if d.ndim == 2:
            return self.classes_[np.argmax(d, axis=1)]
        return self.classes_[(d > 0).astype(int)]
