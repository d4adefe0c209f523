"""RVM and SMLR as gene selectors: the biomarker set is the genes with a non-zero weight (Tan 2006, §4.4).

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006, §4.4: "if we use original features [...] as the basis functions, then the learned classifier
can be considered as a feature weighting algorithm which returns sparse weights [...] RVM and SMLR automatically
select one optimal subset of genes, which is the biomarker set." The models are :class:`genesel.rvm.RVM` with
``kernel=None`` (Tipping 2001; Tipping & Faul 2003) and :class:`genesel.smlr.SMLR` with ``kernel=None``
(Krishnapuram et al. 2005); these selectors only expose their non-zero weights the scikit-learn way.

K >= 3 classes: SMLR is multinomial (one weight vector per class, one l1 prior over all of them); the RVM is one
against the rest (:mod:`genesel.rvm`). A gene is selected when any class's weight on it is non-zero, and the genes
are ranked by their largest |weight| over the classes (``weights_`` is then K × n_genes).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context

from genesel._core.params import POSITIVE, POSITIVE_INT, StrOptions
from genesel._core.selector import SelectorBase
from genesel._core.validation import check_classification_fit
from genesel.rvm import RVM
from genesel.smlr import SMLR

__all__ = ["RVMSelector", "SMLRSelector"]


class _SparseSelector(SelectorBase):
    _multi_class = True  # SMLR multinomial, RVM one against the rest

    def _finish(self, X, weights):
        self.n_iter_ = self.estimator_.n_iter_
        weights = np.asarray(weights)
        if weights.ndim == 2 and weights.shape[0] == 1:  # SMLR's two-class model: one weight vector
            weights = weights[0]
        w = np.abs(weights) if weights.ndim == 1 else np.abs(weights).max(axis=0)  # K >= 3: largest over classes
        self.support_ = w > 0
        if not self.support_.any():
            raise ValueError(f"{type(self).__name__}: the model kept no gene (every weight is zero); "
                             "lower the prior's weight (SMLR: lam) or check the labels")
        self.weights_ = weights.copy()
        # genes by decreasing |weight| (selected ones first), ties by index, genes constant in the training data
        # (ignored, weight 0) after every gene that varies
        ignored = np.zeros(w.size, dtype=bool)
        ignored[self.constant_genes_] = True
        self.feature_order_ = np.lexsort((np.arange(w.size), -w, ignored)).astype(np.int64)
        self.ranking_ = np.empty(w.size, dtype=np.int64)
        self.ranking_[self.feature_order_] = np.arange(1, w.size + 1)
        self.n_features_ = int(self.support_.sum())
        return self


class RVMSelector(_SparseSelector):
    """Genes with a non-zero weight in an RVM on the genes (``RVM(kernel=None)``).

    Parameters: ``max_iter``, ``tol`` of :class:`genesel.rvm.RVM`. Attributes: ``support_`` (the biomarker set),
    ``weights_`` (one per gene, 0 if pruned; K × n_genes for K >= 3 classes, one row per class against the rest),
    ``feature_order_``, ``ranking_`` (by |weight|, the largest over the classes), ``estimator_``, ``n_iter_`` (the
    model's iterations; per class for K >= 3).

    Parameters
    ----------
    max_iter : int >= 1, default 2000
        Maximum number of add / re-estimate / delete steps of the RVM's fast marginal likelihood maximisation
        (Tipping & Faul 2003), as :class:`genesel.rvm.RVM`.
    tol : float > 0, default 1e-3
        Convergence: no basis function can be added or deleted and every re-estimate changes log alpha by < tol.

    Attributes
    ----------
    support_ : ndarray of bool (n_features_in_,)
        The biomarker set: genes with a non-zero weight (for any class).
    weights_ : ndarray (n_features_in_,) or (K, n_features_in_)
        The model's weight of every gene (0 if pruned); one row per class for K >= 3.
    feature_order_ : ndarray of int (n_features_in_,)
        Genes by decreasing |weight| (the largest over the classes), ties by index; constant genes last.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene in ``feature_order_`` (1 = best).
    n_features_ : int
        Number of selected genes.
    estimator_ : genesel.rvm.RVM
        The fitted model.
    n_iter_ : int or ndarray
        The model's iterations (per class for K >= 3).
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data (weight 0).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import RVMSelector, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> sel = RVMSelector().fit(X, y)
    >>> np.flatnonzero(sel.support_).tolist(), sel.ranking_[:4].tolist()
    ([0, 1, 2, 3, 81], [1, 3, 4, 5])
    >>> pipe = make_pipeline(RVMSelector(), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.85
    """

    _parameter_constraints = {"max_iter": [POSITIVE_INT], "tol": [POSITIVE]}

    def __init__(self, *, max_iter=2000, tol=1e-3):
        self.max_iter = max_iter
        self.tol = tol

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, _, self.classes_ = check_classification_fit(self, X, y, min_samples=2)
        self.estimator_ = RVM(kernel=None, max_iter=self.max_iter, tol=self.tol).fit(X, y)
        return self._finish(X, self.estimator_.coef_)


class SMLRSelector(_SparseSelector):
    """Genes with a non-zero weight in sparse logistic regression with a Laplacian prior (``SMLR(kernel=None)``).

    Parameters: ``lam`` and ``lam_scale`` of :class:`genesel.smlr.SMLR` (``lam_scale="max"``: ``lam`` is a fraction
    of the smallest prior weight that keeps no gene). Attributes as :class:`RVMSelector` (K >= 3 classes: the
    multinomial model's K weight vectors in ``weights_``).

    Parameters
    ----------
    lam : float > 0, default 0.1
        Weight lambda of the Laplacian prior, -lambda ||w||_1 in the log-posterior (Krishnapuram et al. 2005,
        Eq. 6); larger is sparser.
    lam_scale : {"max", "absolute"}, default "max"
        ``"max"``: the weight used is ``lam`` times lambda_max, the smallest weight that keeps no gene (so ``lam``
        in (0, 1) is a scale-free fraction); ``"absolute"``: ``lam`` itself, in the units of X.
    max_iter : int >= 1, default 20000
        Maximum number of coordinate sweeps of the component-wise update (Krishnapuram et al. 2005, Eq. 13).
    tol : float > 0, default 1e-7
        Stop when the largest violation of the optimality conditions, relative to ``max(1, lam)``, is below tol.

    Attributes
    ----------
    support_ : ndarray of bool (n_features_in_,)
        The biomarker set: genes with a non-zero weight (for any class).
    weights_ : ndarray (n_features_in_,) or (K, n_features_in_)
        The model's weight of every gene (0 if pruned); one row per class for K >= 3.
    feature_order_ : ndarray of int (n_features_in_,)
        Genes by decreasing |weight| (the largest over the classes), ties by index; constant genes last.
    ranking_ : ndarray of int (n_features_in_,)
        Rank of every gene in ``feature_order_`` (1 = best).
    n_features_ : int
        Number of selected genes.
    estimator_ : genesel.smlr.SMLR
        The fitted model.
    n_iter_ : int or ndarray
        The model's iterations.
    classes_ : ndarray (K,)
        Class labels.
    constant_genes_ : ndarray of int
        Genes constant in the training data (weight 0).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from genesel import SMLRSelector, LinearSVM
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> sel = SMLRSelector(lam=0.3).fit(X, y)                       # lam: a fraction of the weight that keeps no gene
    >>> np.flatnonzero(sel.support_).tolist()
    [0, 1, 2, 3]
    >>> pipe = make_pipeline(SMLRSelector(lam=0.3), LinearSVM())
    >>> print(f"{cross_val_score(pipe, X, y, cv=5).mean():.2f}")
    0.90
    """

    _parameter_constraints = {"lam": [POSITIVE], "lam_scale": [StrOptions({"absolute", "max"})],
                              "max_iter": [POSITIVE_INT], "tol": [POSITIVE]}

    def __init__(self, *, lam=0.1, lam_scale="max", max_iter=20000, tol=1e-7):
        self.lam = lam
        self.lam_scale = lam_scale
        self.max_iter = max_iter
        self.tol = tol

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, _, self.classes_ = check_classification_fit(self, X, y, min_samples=2)
        self.estimator_ = SMLR(lam=self.lam, lam_scale=self.lam_scale, max_iter=self.max_iter,
                               tol=self.tol).fit(X, y)
        return self._finish(X, self.estimator_.coef_)
