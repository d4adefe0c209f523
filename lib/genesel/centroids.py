"""Nearest shrunken centroids (PAM): Tibshirani, Hastie, Narasimhan & Chu (2002), "Diagnosis of multiple cancer
types by shrunken centroids of gene expression", PNAS 99:6567-6572; Hastie, Tibshirani & Friedman, *The Elements of
Statistical Learning*, 2nd ed., Section 18.2 (Eqs. 18.2-18.5).

With x̄_ik the mean of gene i in class k (n_k samples), x̄_i its overall mean (n samples, K classes), s_i its pooled
within-class standard deviation (denominator n - K) and s_0 the median of the s_i,

    d_ik  = (x̄_ik - x̄_i) / (m_k (s_i + s_0)),      m_k = sqrt(1/n_k - 1/n)          (ESL Eq. 18.4)
    d'_ik = sign(d_ik) (|d_ik| - Δ)_+                                               (soft threshold, Eq. 18.5)
    x̄'_ik = x̄_i + m_k (s_i + s_0) d'_ik

and a sample x* goes to the class k that minimises the discriminant score (PNAS Eq. 6; ESL Eq. 18.2)

    δ_k(x*) = Σ_i (x*_i - x̄'_ik)² / (s_i + s_0)² - 2 log π_k,

π_k the class prior (PAM's default: the class shares of the training samples). A gene whose d'_ik is 0 in every class
has its shrunken centroid at the overall mean in every class and adds the same amount to every δ_k: it is out of the
rule. The threshold Δ is the shrinkage; ``threshold_scale="max"`` reads it relative to the largest |d_ik| of the
training samples (PAM's own grid, ``pamr.train``: 30 values from 0 to that maximum, where every gene is out), so that
one grid of relative thresholds serves every training part.

Why genesel writes its own: scikit-learn's ``NearestCentroid(shrink_threshold=...)`` shrinks by s_i + s_0 as PAM does,
but its discriminant standardises each gene by s_i alone (``within_class_std_dev_``), not by s_i + s_0: the genes of
smallest within-class spread, noise among them, dominate its distance, the thing PAM's s_0 is there to prevent
(PNAS 2002, p. 6568). The tests compare this class with a hand computation of the formulas above and with
``NearestCentroid``'s shrunken centroids (which agree; its predictions do not when the s_i differ).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["ShrunkenCentroids"]


class ShrunkenCentroids(ClassifierMixin, BaseEstimator):
    """PAM's nearest shrunken centroid classifier (Tibshirani et al. 2002; module docstring), two or more classes.

    Parameters
    ----------
    threshold : float >= 0, default 0.0
        The shrinkage Δ (``threshold_scale="absolute"``), or Δ as a share of the largest |d_ik| of the training
        samples (``"max"``: 0 shrinks nothing, 1 leaves no gene).
    threshold_scale : {"absolute", "max"}, default "absolute"
    priors : "empirical", "uniform" or array-like (n_classes,), default "empirical"
        π_k: the class shares of the training samples (PAM's default), equal, or given in ``classes_`` order.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    centroids_ : ndarray of shape (n_classes, n_features)
        The shrunken centroids x̄'_ik = x̄_i + m_k (s_i + s_0) d'_ik.
    overall_ : ndarray of shape (n_features,)
        The overall centroid x̄_i of the training samples.
    scale_ : ndarray of shape (n_features,)
        s_i + s_0: each gene's pooled within-class sd plus their median.
    s0_ : float
        s_0, the median of the s_i.
    deviations_ : ndarray of shape (n_classes, n_features)
        The shrunken standardised deviations d'_ik (soft-thresholded by Δ).
    threshold_ : float
        The absolute Δ used.
    priors_ : ndarray of shape (n_classes,)
        The class priors π_k, in ``classes_`` order.
    support_ : ndarray of shape (n_features,), dtype bool
        The genes with some d'_ik != 0 (the genes the classifier uses).
    n_features_in_ : int
        The number of genes seen in fit.
    """

    def __init__(self, threshold=0.0, threshold_scale="absolute", priors="empirical"):
        self.threshold = threshold
        self.threshold_scale = threshold_scale
        self.priors = priors

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64)
        if self.threshold_scale not in ("absolute", "max"):
            raise ValueError(f"threshold_scale must be 'absolute' or 'max', got {self.threshold_scale!r}")
        if not np.isfinite(self.threshold) or self.threshold < 0:
            raise ValueError(f"threshold must be a finite number >= 0, got {self.threshold!r}")
        self.classes_, code = np.unique(y, return_inverse=True)
        K, n = self.classes_.size, y.size
        if K < 2:
            raise ValueError("ShrunkenCentroids needs two or more classes in the training samples, got "
                             f"{K} ({self.classes_.tolist()})")
        if n <= K:
            raise ValueError(f"ShrunkenCentroids needs more samples ({n}) than classes ({K}) for the pooled sd")
        nk = np.bincount(code, minlength=K).astype(np.float64)
        means = np.vstack([X[code == k].mean(axis=0) for k in range(K)])
        overall = X.mean(axis=0)
        resid = X - means[code]
        s = np.sqrt((resid ** 2).sum(axis=0) / (n - K))
        s0 = float(np.median(s))
        scale = s + s0
        if not np.all(scale > 0):
            raise ValueError("ShrunkenCentroids: every gene has zero within-class spread (s_0 = 0 and s_i = 0); "
                             "drop the genes constant within classes before fitting")
        m = np.sqrt(1.0 / nk - 1.0 / n)[:, None]
        d = (means - overall) / (m * scale)
        delta = float(self.threshold) * (np.abs(d).max() if self.threshold_scale == "max" else 1.0)
        dp = np.sign(d) * np.clip(np.abs(d) - delta, 0.0, None)
        self.overall_, self.scale_, self.s0_, self.threshold_ = overall, scale, s0, delta
        self.deviations_ = dp
        self.centroids_ = overall + m * scale * dp
        self.support_ = np.any(dp != 0.0, axis=0)
        self.priors_ = self._priors(nk / n)
        return self

    def _priors(self, shares):
        if isinstance(self.priors, str):
            if self.priors == "empirical":
                return shares
            if self.priors == "uniform":
                return np.full(shares.size, 1.0 / shares.size)
            raise ValueError(f"priors must be 'empirical', 'uniform' or an array, got {self.priors!r}")
        p = np.asarray(self.priors, dtype=np.float64)
        if p.shape != shares.shape or np.any(p <= 0) or not np.isclose(p.sum(), 1.0):
            raise ValueError(f"priors must be {shares.size} positive numbers summing to 1, got {self.priors!r}")
        return p

    def _scores(self, X):
        """-δ_k(x) (n, K): larger is nearer."""
        check_is_fitted(self, "centroids_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        Z = X / self.scale_
        C = self.centroids_ / self.scale_
        d2 = (Z ** 2).sum(axis=1)[:, None] - 2.0 * Z @ C.T + (C ** 2).sum(axis=1)[None, :]
        return -(d2 - 2.0 * np.log(self.priors_))

    def decision_function(self, X):
        """-δ_k (n, K); for two classes δ_0 - δ_1 (positive for ``classes_[1]``)."""
        s = self._scores(X)
        return s[:, 1] - s[:, 0] if s.shape[1] == 2 else s

    def predict_proba(self, X):
        """softmax(-δ_k / 2), PAM's class probabilities (``pamr.predict(type="posterior")``)."""
        s = self._scores(X) / 2.0
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X):
        return self.classes_[np.argmax(self._scores(X), axis=1)]
