"""Golub's weighted-voting classifier and the correlation-based gene rankings used as baseline by Guyon et al.

- Golub et al. (1999), *Molecular classification of cancer*, Science 286:531 (notes 16-19): each informative gene
  g casts the vote v_g = a_g (x_g - b_g) with a_g = P(g, c) = (mu_+ - mu_-)/(sigma_+ + sigma_-) (signal-to-noise)
  and b_g = (mu_+ + mu_-)/2; the class is the sign of sum_g v_g, and the *prediction strength*
  PS = (V_win - V_lose)/(V_win + V_lose) with V_+ / V_- the summed positive / negative votes. The informative
  genes are an equal number of genes with the largest positive and the largest negative P(g, c).
- Guyon, Weston, Barnhill & Vapnik (2002), section 2.2 (Eq. 2-3): the same classifier written as the linear
  discriminant D(x) = w.(x - mu) with w_i = P(i, c), mu = (mu_+ + mu_-)/2 - the paper's "baseline method";
  and the Fisher-like criterion (mu_+ - mu_-)^2/(sigma_+^2 + sigma_-^2) (Pavlidis 2001) as a second ranking.

More than two classes: one against the rest. With K > 2 classes GolubVoting trains K voting machines, machine k
the binary classifier above for class k (+) against all other samples (-), each on its own ``n_genes`` genes chosen
by its own signal-to-noise ratios P(g, k) (Golub's markers of class k; one-vs-all weighted voting on many tumour
classes: Yeang et al. 2001, *Molecular classification of multiple tumor types*, Bioinformatics 17 Suppl. 1:S316).
``decision_function`` is (n, K), column k machine k's summed vote D_k(x) = sum_g P(g, k) (x_g - b_gk), and the
prediction is the class whose machine votes most strongly for it, arg max_k D_k(x) (the one-vs-rest rule; Rifkin &
Klautau 2004, JMLR 5:101); ``prediction_strength`` gives each machine's PS, (n, K). Each class needs two samples
(a spread). Two classes: the binary classifier exactly as before (one machine). Cost: K machines, each as cheap as
the binary one (class moments).

Class +1 (``classes_[1]``, the larger label) is the positive class. The scores come from
``genesel.filters.signal_to_noise`` / ``fisher_ratio`` (sigma with ddof=0 as in Golub's formula), which work at any
scale of X (see ``genesel.filters``): the votes (x_g - b_g) P(g, c) are in the units of X, their signs are not.
Asking for more genes than there are uses all of them (genesel's rule for every selector).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from genesel._core.base import BinaryClassifier
from genesel._core.params import POSITIVE_INT
from genesel._core.selector import n_select
from genesel._core.multiclass import check_classifier_fit
from genesel._core.validation import warn_if_one_class
from genesel.filters import balanced_order, signal_to_noise

__all__ = ["GolubVoting"]


class GolubVoting(BinaryClassifier):
    """Golub's weighted-voting classifier on the ``n_genes`` genes with the best signal-to-noise ratio,
    half positively and half negatively correlated with the class (``balanced=True``, Golub 1999), or the
    ``n_genes`` largest |P(g, c)| (``balanced=False``, Furey 2000). ``n_genes=None`` uses every gene.

    ``decision_function`` is the summed vote sum_g a_g (x_g - b_g) (Guyon 2002 Eq. 3);
    ``prediction_strength`` is Golub's PS in [-1, 1] (signed towards classes_[1]).
    Attributes: ``classes_``, ``genes_`` (selected indices, best first), ``scores_`` (P(g, c) of every gene),
    ``coef_`` (1, n_features: a_g on the selected genes, 0 elsewhere), ``intercept_``, ``midpoints_`` (b_g).
    With K > 2 classes (one against the rest, module docstring) each has a class axis: ``genes_`` (K, n_genes),
    ``scores_`` and ``midpoints_`` (K, n_features), ``coef_`` (K, n_features), ``intercept_`` (K,), and
    ``decision_function`` / ``prediction_strength`` are (n, K).

    Parameters
    ----------
    n_genes : int >= 1 or None, default 50
        Genes that vote (Golub et al. 1999 used 50); None or more than there are: every gene.
    balanced : bool, default True
        ``True``: half positively, half negatively correlated genes (Golub et al. 1999); ``False``: the largest
        |P(g, c)| (Furey et al. 2000).

    Attributes
    ----------
    classes_ : ndarray (2,) or (K,)
        Class labels.
    genes_ : ndarray of int (n_genes,) or (K, n_genes)
        Selected genes, best first.
    scores_ : ndarray (n_features_in_,) or (K, n_features_in_)
        Signal-to-noise ratio P(g, c) of every gene (Golub et al. 1999).
    coef_ : ndarray (1, n_features_in_) or (K, n_features_in_)
        Vote weights a_g = P(g, c) on the selected genes, 0 elsewhere (Guyon et al. 2002, Eq. 3).
    intercept_ : ndarray (1,) or (K,)
        -sum_g a_g b_g over the selected genes.
    midpoints_ : ndarray (n_features_in_,) or (K, n_features_in_)
        b_g = (mu_+ + mu_-) / 2, the midpoint of the class means.
    constant_genes_ : ndarray of int
        Genes constant in the training data, ignored by the fit (``genesel._core.validation``).
    n_constant_genes_ : int
        Their number.
    n_features_in_ : int
        Number of genes seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import GolubVoting
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> labels = np.where(y > 0, "AML", "ALL")                      # any two labels will do
    >>> vote = GolubVoting(n_genes=10).fit(X[::2], labels[::2])
    >>> vote.classes_.tolist(), vote.genes_[:4].tolist()
    (['ALL', 'AML'], [0, 2, 1, 3])
    >>> vote.predict(X[1:8:2]).tolist(), vote.score(X[1::2], labels[1::2])
    (['AML', 'ALL', 'ALL', 'AML'], 0.85)
    >>> vote.prediction_strength(X[1:8:2]).round(2).tolist()        # Golub's PS, signed towards "AML"
    [0.26, -0.03, -0.27, 0.18]
    """

    _parameter_constraints = {"n_genes": [POSITIVE_INT, None], "balanced": ["boolean"]}
    _multi_class = True  # K > 2 classes: one voting machine per class against the rest (module docstring)

    def __init__(self, *, n_genes=50, balanced=True):
        self.n_genes = n_genes
        self.balanced = balanced

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        # y_enc: {-1, +1} for two classes, the class index 0..K-1 for K > 2
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, constant="keep", min_samples=2)
        d = X.shape[1]
        k = n_select(self.n_genes, d, d)  # more genes than there are, or None: all of them
        if self.classes_.size > 2:
            return self._fit_one_vs_rest(X, y_enc, k)
        y_pm1 = y_enc
        # a gene constant within both classes would have sigma_+ + sigma_- = 0; P is then +-inf (filters doc);
        # refuse it here rather than vote with an infinite weight
        P = signal_to_noise(X, y_pm1)
        if not np.all(np.isfinite(P)):
            bad = np.flatnonzero(~np.isfinite(P))
            raise ValueError(
                f"X has {bad.size} gene(s) constant within each class (first columns {bad[:5].tolist()}), so their "
                "signal-to-noise ratio is infinite; drop them (e.g. VarianceThreshold per class) first"
            )
        order = balanced_order(P) if self.balanced else np.argsort(-np.abs(P), kind="stable")
        genes = order[:k]
        mu_p = X[y_pm1 > 0].mean(0)
        mu_n = X[y_pm1 < 0].mean(0)
        b = 0.5 * (mu_p + mu_n)
        coef = np.zeros(d)
        coef[genes] = P[genes]
        self.scores_ = P
        self.genes_ = genes
        self.midpoints_ = b
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([-float(P[genes] @ b[genes])])
        # the training predictions from the validated array (predict() would re-validate it, and a DataFrame's column
        # names, recorded by fit, are gone from the array: scikit-learn warned "X does not have valid feature names")
        train_pred = self.classes_[(self._votes_checked(X).sum(1) > 0).astype(int)]
        warn_if_one_class(self, train_pred, y, f"the votes of the {genes.size} selected gene(s) all point one "
                          "way on the training samples", "check that the genes carry class information, or use "
                          "more genes (n_genes) or balanced=True")
        return self

    def _fit_one_vs_rest(self, X, y_index, k):
        """K machines, class k against the rest (module docstring)."""
        K, d = self.classes_.size, X.shape[1]
        counts = np.bincount(y_index, minlength=K)
        if counts.min() < 2:
            small = self.classes_[counts < 2].tolist()
            raise ValueError(f"GolubVoting: every class needs two samples for its signal-to-noise ratios (a spread); "
                             f"classes {small} have fewer: use more samples per class (e.g. fewer folds)")
        P = np.empty((K, d))
        B = np.empty((K, d))
        genes = np.empty((K, k), dtype=np.int64)
        for c in range(K):
            y_c = np.where(y_index == c, 1, -1)
            P[c] = signal_to_noise(X, y_c)
            if not np.all(np.isfinite(P[c])):
                bad = np.flatnonzero(~np.isfinite(P[c]))
                lab = self.classes_[c].item() if isinstance(self.classes_[c], np.generic) else self.classes_[c]
                raise ValueError(
                    f"X has {bad.size} gene(s) constant within class {lab!r} and within the other "
                    f"classes together (first columns {bad[:5].tolist()}), so their signal-to-noise ratio of that "
                    "class against the rest is infinite; drop them first")
            order = balanced_order(P[c]) if self.balanced else np.argsort(-np.abs(P[c]), kind="stable")
            genes[c] = order[:k]
            B[c] = 0.5 * (X[y_c > 0].mean(0) + X[y_c < 0].mean(0))
        coef = np.zeros((K, d))
        for c in range(K):
            coef[c, genes[c]] = P[c, genes[c]]
        self.scores_ = P
        self.genes_ = genes
        self.midpoints_ = B
        self.coef_ = coef
        self.intercept_ = np.array([-float(P[c, genes[c]] @ B[c, genes[c]]) for c in range(K)])
        train_pred = self.classes_[np.argmax(self._votes_checked(X).sum(2), axis=1)]
        warn_if_one_class(self, train_pred, self.classes_[y_index], f"the summed votes of the {K} one-vs-rest "
                          "machines favour one class on every training sample", "check that the genes carry class "
                          "information, or use more genes (n_genes)")
        return self

    def _votes(self, X):
        check_is_fitted(self, "coef_")
        return self._votes_checked(validate_data(self, X, dtype=np.float64, reset=False))

    def _votes_checked(self, X):
        """Every selected gene's vote: (n, n_genes), or (n, K, n_genes) with K > 2 classes (machine k's genes)."""
        g = self.genes_
        if g.ndim == 2:
            return np.stack([(X[:, g[c]] - self.midpoints_[c, g[c]]) * self.scores_[c, g[c]]
                             for c in range(g.shape[0])], axis=1)
        return (X[:, g] - self.midpoints_[g]) * self.scores_[g]

    def decision_function(self, X):
        """The summed vote sum_g a_g (x_g - b_g) (n,), positive for ``classes_[1]``; with K > 2 classes (n, K), each
        one-vs-rest machine's summed vote for its class (``predict``: the arg max)."""
        return self._votes(X).sum(-1)

    def prediction_strength(self, X):
        """Golub's PS = (V_+ - V_-)/(V_+ + V_-): +1 all votes for classes_[1], -1 all for classes_[0]; with K > 2
        classes (n, K), each machine's PS (+1: all its votes for its class)."""
        v = self._votes(X)
        vp = np.where(v > 0, v, 0.0).sum(-1)
        vn = -np.where(v < 0, v, 0.0).sum(-1)
        tot = vp + vn
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(tot > 0, (vp - vn) / tot, 0.0)
