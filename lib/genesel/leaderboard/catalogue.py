"""The leaderboard's method catalogue: one :class:`Method` entry per method, so that adding a method is one entry.

An entry says how to build the method's estimators from plain hyper-parameters (factories of ``(params, n_genes,
seed)``), which hyper-parameters the inner cross-validation chooses among (``grid``; quick mode keeps the first and
last value of every list, or ``quick_grid``), how its gene signature is read from the fitted model, whether it
yields a risk bound, and the paper it comes from. Three kinds of method, all tuned the same way by
:mod:`genesel.leaderboard.protocol`:

- ``"ranked"``: a ranker orders the genes on the training part (``ranker``: a genesel selector's ``feature_order_``,
  its ``ranking_``, or a scikit-learn ``SelectKBest``'s ``scores_``) and a classifier (``estimator``) is trained on
  the first s genes; one ranking per (inner) training part serves every signature size s in
  :data:`SIZES` and all genes (nested subsets), so the inner CV chooses s with the hyper-parameters.
- ``"staged"``: a greedy learner whose first t stages are the model with t stages (the stump conjunctions of Shah
  et al. 2012, AdaBoost); one fit serves every t in ``stages`` (``staged_predict``), the inner CV chooses t.
- ``"model"``: an estimator that sizes its signature itself (ALMA-FS, the GP-ARD selectors, RVM/SMLR selectors,
  l1 logistic regression, shrunken centroids, the random-forest elimination) or uses every gene (the baselines);
  the inner CV chooses among ``grid`` (no inner CV when the grid has one point).

Every factory returns an unfitted scikit-learn estimator; the protocol fits it on preprocessed training data
(:func:`genesel.leaderboard.protocol.preprocessing`). Linear SVMs take C relative to the signature: ``C / s`` on s
standardised genes, i.e. the SVM of the data scaled to unit mean squared norm per sample, so one C grid fits every
size (:class:`SignatureSVM`). ``tie`` breaks inner-CV ties: ``"fewer"`` genes (stumps, rounds) first, or ``"more"``
(the shrunken centroids "SC.l" of Díaz-Uriarte & Alvarez de Andrés 2006), then grid order.

The shrunken centroids (SC.l, SC.s) are PAM's rule (Tibshirani et al. 2002; Hastie, Tibshirani & Friedman,
*Elements*, 2nd ed., Eqs. 18.2-18.5) in :class:`genesel.centroids.ShrunkenCentroids`: the squared distance to each
shrunken centroid standardised gene by gene by s_i + s_0 (s_0 the median pooled within-class sd), minus 2 log of the
class's share of the training samples (pamr's default prior); the threshold chosen by the inner CV among PAM's 30
(0 to the largest |d_ik|, relative to each training part's maximum), ties to the most genes (SC.l) or the fewest
(SC.s), as Díaz-Uriarte & Alvarez de Andrés 2006. scikit-learn's ``NearestCentroid`` (used before) shrinks the same
way but standardises its distance by s_i alone, and with its default uniform priors predicts by the plain Euclidean
distance: on Shipp's 58 DLBCL and 19 FL that predicted the smaller class for 40 % of the test samples.

Díaz-Uriarte & Alvarez de Andrés 2006's other columns: KNN (Euclidean distance, k chosen by the inner CV), NN.vs
(the genes ranked by the between- to within-class sum of squares, Fisher's ratio, their number and k chosen by the
inner CV), DLDA (:class:`genesel.discriminant.DLDA`, equal priors), the random forest with mtry = sqrt(genes)
(scikit-learn's ``max_features="sqrt"``), nodes grown to purity, 2000 trees, and its backward elimination
(:class:`genesel.forest.RFBackwardSelector`: 2000 trees for the first forest, 1000 for the later ones, 20 % of the
genes dropped per step, s.e. 0 or 1 rule).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from itertools import product
from typing import Callable

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline

from genesel.alma import ALMA, ALMAFS, ALMARFE
from genesel.arom import L2AROM
from genesel.centroids import ShrunkenCentroids
from genesel.discriminant import DLDA
from genesel.dwd import DWD
from genesel.filters import (ANOVASelector, FisherSelector, KruskalWallisSelector, SignalToNoiseSelector, t_statistic,
                             wilcoxon_pvalues)
from genesel.forest import RFBackwardSelector, SmallForestClassifier
from genesel.gp import GaussianProcessClassifier
from genesel.gp_ard_select import GPARDFS, GPARDRFE
from genesel.leaderboard.lasso_logistic import LassoLogistic
from genesel.msvm_rfe import MSVMRFE
from genesel.multiclass import OneVsRestSelector
from genesel.rfe import SVMRFE
from genesel.rvm import RVM
from genesel.smlr import SMLR
from genesel.sparse_select import RVMSelector, SMLRSelector
from genesel.stumps import AdaBoostStumps, OccamStumps, PACBayesStumps, SampleCompressionStumps
from genesel.svm import KernelSVM, LinearSVM
from genesel.voting import GolubVoting

__all__ = ["SIZES", "KINDS", "BOARDS", "Method", "SignatureSVM", "GridFits", "FittedSteps", "SELECTIONS", "SharedGrid",
           "GRID_FITS", "CATALOGUE", "method", "method_names", "estimator_classes", "abs_t", "wilcoxon_score",
           "l1_logistic", "multinomial_l1_logistic", "L1_LOGISTIC_C", "L1_LOGISTIC_TOL"]

#: Signature sizes of the ranked methods (and of the error-vs-size curves); "all" (every gene) is always added.
SIZES = (2, 4, 8, 16, 32, 64, 128, 256)
KINDS = ("ranked", "staged", "model")
#: The leaderboards: two-class data sets, and data sets of K >= 3 classes (a method runs on those it lists).
BOARDS = ("binary", "multiclass")


class SignatureSVM(ClassifierMixin, BaseEstimator):
    """:class:`genesel.svm.LinearSVM` with C relative to the number of genes it is trained on: ``C / n_genes``,
    i.e. the SVM of the data scaled by 1/sqrt(n_genes) (unit mean squared norm on standardised genes), so that
    one C grid fits signatures of 2 genes and of all genes (scaling X by a acts as scaling C by a²)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        X = np.asarray(X, dtype=np.float64)
        self.svm_ = LinearSVM(C=float(self.C) / X.shape[1]).fit(X, y)
        self.classes_ = self.svm_.classes_
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X):
        return self.svm_.decision_function(X)

    def predict(self, X):
        return self.svm_.predict(X)


#: liblinear's stopping tolerance for :func:`l1_logistic`. At scikit-learn's default (1e-4, relative to the first
#: gradient) its fits on wide data stopped far short of the optimum of their own objective: on Chowdary's first
#: outer training part (83 x 22,283) the largest violation of the optimality conditions was 0.03-0.94 over the five
#: C (0 at the optimum) and the fit at C = 10 kept 175 genes where the optimum keeps 35; at 1e-8 it is 1e-6-2e-3, at
#: 1.7 times the CPU (1.43 s against 0.85 s for the five C).
L1_LOGISTIC_TOL = 1e-8


def l1_logistic(C: float, seed: int | None = 0) -> LogisticRegression:
    """scikit-learn's l1-penalised logistic regression (liblinear) with inverse penalty ``C``, spelled as the
    installed scikit-learn wants it (``l1_ratio=1`` from 1.8 on, ``penalty="l1"`` before), run to
    :data:`L1_LOGISTIC_TOL`. liblinear penalises the intercept with the weights (its documented model: the intercept
    is a weight on a constant feature). Its coordinate descent visits the samples in a random order: ``seed`` fixes
    it (without it two runs of one cell differed)."""
    import sklearn

    major, minor = (int(x) for x in sklearn.__version__.split(".")[:2])
    kw = {"l1_ratio": 1.0} if (major, minor) >= (1, 8) else {"penalty": "l1"}
    return LogisticRegression(solver="liblinear", C=C, max_iter=1000, tol=L1_LOGISTIC_TOL, random_state=seed, **kw)


#: The inverse penalties the inner CV of the two lasso logistic regressions chooses among.
L1_LOGISTIC_C = (0.1, 0.3, 1.0, 3.0, 10.0)


def multinomial_l1_logistic(C: float, seed: int | None = 0) -> SharedGrid:
    """The lasso-penalised multinomial logistic regression (the softmax model of all K classes jointly, one weight
    vector per class, the l1 penalty on all of them) with scikit-learn's inverse penalty ``C``: the K-class form of
    :func:`l1_logistic` (liblinear fits two classes, or K one-vs-rest problems), solved by glmnet along the path of
    :data:`L1_LOGISTIC_C` (:class:`genesel.leaderboard.lasso_logistic.LassoLogistic`): the first C fitted on a
    training part computes the path for all five, the others are read off it (:data:`GRID_FITS`), and a refit at one
    C gives the numbers the path gives it. Deterministic: ``seed`` is accepted and not used (0.2.0 ran scikit-learn's
    saga, whose random sample order it fixed, and whose fits ended far from the optimum: the module's docstring)."""
    return SharedGrid(LassoLogistic(C=C, path_C=L1_LOGISTIC_C), grid=tuple({"C": c} for c in L1_LOGISTIC_C))


def abs_t(X, y):
    """|Welch t| per gene (:func:`genesel.filters.t_statistic`), for ``SelectKBest``."""
    return np.abs(t_statistic(X, y))


def wilcoxon_score(X, y):
    """1 - p of the two-sided Wilcoxon rank-sum test per gene (:func:`genesel.filters.wilcoxon_pvalues`): larger
    is more significant, for ``SelectKBest``."""
    return 1.0 - wilcoxon_pvalues(X, y)


Factory = Callable[[dict, int, int], object]


@dataclass(frozen=True)
class Method:
    """One method of the leaderboard (module docstring)."""

    name: str
    kind: str
    estimator: Factory
    paper: str
    family: str
    grid: dict = field(default_factory=dict)
    ranker: Factory | None = None
    ranker_grid: dict = field(default_factory=dict)
    quick_grid: dict | None = None
    stages: tuple = ()
    stage_param: str | None = None
    signature: Callable | None = None
    bound: Callable | None = None
    tie: str = "fewer"
    source: str = "genesel"
    note: str = ""
    binary_only: str = ""
    boards: tuple = BOARDS

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"method {self.name!r}: kind must be one of {KINDS}, got {self.kind!r}")
        if (self.kind == "ranked") != (self.ranker is not None):
            raise ValueError(f"method {self.name!r}: a ranker is given exactly for the ranked kind")
        if self.kind == "staged" and not (self.stages and self.stage_param):
            raise ValueError(f"method {self.name!r}: a staged method needs stages and stage_param")
        if self.tie not in ("fewer", "more"):
            raise ValueError(f"method {self.name!r}: tie must be 'fewer' or 'more', got {self.tie!r}")
        if not self.boards or any(b not in BOARDS for b in self.boards):
            raise ValueError(f"method {self.name!r}: boards must be a non-empty subset of {BOARDS}, got "
                             f"{self.boards!r}")

    @property
    def has_bound(self) -> bool:
        return self.bound is not None

    def settings(self, which: str, quick: bool) -> list[dict]:
        """Every hyper-parameter setting of the classifier (``which="estimator"``) or ranker (``"ranker"``) grid,
        in grid order (the last key varies fastest). Quick mode: ``quick_grid`` where given, else the first and
        last value of each list."""
        grid = self.grid if which == "estimator" else self.ranker_grid
        if quick and which == "estimator" and self.quick_grid is not None:
            grid = self.quick_grid
        elif quick:
            grid = {k: (tuple(v) if len(v) <= 2 else (v[0], v[-1])) for k, v in grid.items()}
        keys = list(grid)
        return [dict(zip(keys, vals)) for vals in product(*(grid[k] for k in keys))]

    def stage_list(self, quick: bool) -> tuple:
        """The stages the inner CV chooses among (quick mode: those up to the middle one)."""
        if not quick:
            return tuple(self.stages)
        return tuple(self.stages[: max(1, (len(self.stages) + 1) // 2)])


# ------------------------------------------------------------------------------------------------------------
# reading signatures (gene indices best first) from fitted models
# ------------------------------------------------------------------------------------------------------------


def _unique(seq) -> list:
    seen, out = set(), []
    for g in seq:
        g = int(g)
        if g >= 0 and g not in seen:
            seen.add(g)
            out.append(g)
    return out


def _by_magnitude(weights, keep=None) -> list:
    """Genes by decreasing |weight| (ties by index), those with a weight (or in ``keep``); a weight matrix of K
    classes (K, genes) counts each gene's largest |weight| over the classes (a gene of any class's model)."""
    w = np.abs(np.asarray(weights, dtype=np.float64))
    w = w.reshape(-1, w.shape[-1]).max(axis=0) if w.ndim > 1 else w
    keep = w > 0 if keep is None else np.asarray(keep, bool)
    order = np.lexsort((np.arange(w.size), -w))
    return order[keep[order]].tolist()  # Python ints, best first (a loop over the genes took 2 ms a call)


def _stumps(est) -> list:
    return _unique(s[0] for s in est.stumps_)


def _adaboost(est) -> list:
    return _unique(est.genes_)


def _selected(est) -> list:
    """The genes a pipeline's ``select`` step (or a selector itself) keeps, in its own best-first order."""
    sel = est.named_steps["select"] if isinstance(est, Pipeline) else est
    order = getattr(sel, "feature_order_", None)
    if order is None:
        order = np.argsort(sel.ranking_, kind="stable")
    return [int(g) for g in order if sel.support_[g]]


def _alma_fs(est) -> list:
    return _by_magnitude(est.coef_, est.support_)


def _l1(est) -> list:
    return _by_magnitude(est.coef_)


def _centroids(est) -> list:
    """The genes whose shrunken class centroids differ, by the spread of their centroids (largest minus smallest
    over the classes; for two classes |c_1 - c_0|): a gene shrunk to the overall centroid in every class is out."""
    c = np.asarray(est.centroids_)
    return _by_magnitude(c.max(axis=0) - c.min(axis=0))


def _bound(est) -> float:
    return float(est.bound_)


# ------------------------------------------------------------------------------------------------------------
# the entries
# ------------------------------------------------------------------------------------------------------------

_GP_NOTE = ("size by the method's own leave-one-out forward selection on the training part; 5 folds (the thesis: 10) "
            "so that the smallest class of every training part has a member in each; one optimiser start per "
            "GP-ARD fit")
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)
ALPHAS = (0.5, 0.6, 0.7, 0.8, 0.9)
P_GRID = (0.5, 1.0, 2.0, 5.0, 10.0)
MODELS = ("conjunction", "disjunction")
OCCAM_ETAS = (0.0, 0.005, 0.02, 0.05)
PAC_BAYES_ETAS = (0.0, 0.01, 0.03, 0.1)
K_GRID = (1, 3, 5, 7, 9)


def _svm(p, s, seed):
    return SignatureSVM(C=p["C"])


class GridFits:
    """The last ``maxsize`` fits of the leaderboard's fit memos, found again by the parameters of what was fitted and
    by the training data (X, y) compared value for value with a private copy (a memory comparison, cheaper than
    hashing the array, and never fooled by an array changed in place). The warnings a fit raised are raised again
    each time it is reused, so that the cells' warning counts do not change."""

    def __init__(self, maxsize: int = 4):
        self.maxsize = int(maxsize)
        self.hits = self.misses = 0
        self._entries: list = []

    def get(self, params, X, y, compute):
        X, y = np.asarray(X), np.asarray(y)
        for i, (p, Xc, yc, out, caught) in enumerate(self._entries):
            if p == params and Xc.shape == X.shape and np.array_equal(Xc, X) and np.array_equal(yc, y):
                self.hits += 1
                self._entries.append(self._entries.pop(i))  # most recently used last
                break
        else:
            self.misses += 1
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = compute()
            if self.maxsize > 0:
                self._entries.append((params, np.array(X, copy=True), np.array(y, copy=True), out, caught))
                del self._entries[: max(0, len(self._entries) - self.maxsize)]
        for w in caught:  # every fit warns as it would have, reused or not
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return out


class FittedSteps(GridFits):
    """:class:`GridFits` as ``joblib.Memory`` for scikit-learn's ``Pipeline(memory=...)``: a pipeline's fitted
    selection step is reused by the next pipeline that fits an identical step (same class and parameters, seed
    included) on identical data, instead of fitted again. The inner CV of "selector + SVM" tries every C of the SVM
    on one selection (SMLR's: 3 lambdas x 5 C = 15 selector fits per inner fold become 3), and the results are the
    same numbers, since a fit is a function of the step's parameters and the data (a test compares).

    joblib's own ``Memory`` would do the same on disk; in memory nothing is written and nothing outlives the process.
    The function cached is called as ``func(step, X, y, ...)``, as the pipeline calls it."""

    location = "memory"  # read by Pipeline: steps are cloned before fitting, as with an on-disk cache

    def __init__(self, maxsize: int = 8):
        super().__init__(maxsize)

    def cache(self, func, ignore=()):
        import joblib

        def cached(step, X, y, *args, **kwargs):
            params = joblib.hash((func.__module__, func.__qualname__, step, args,
                                  {k: v for k, v in kwargs.items() if k not in ignore and k != "message"}))
            return self.get(params, X, y, lambda: func(step, X, y, *args, **kwargs))

        return cached


#: The fitted selection steps of the "selector + SVM" methods, shared by the candidates of one process.
SELECTIONS = FittedSteps()


class SharedGrid(ClassifierMixin, BaseEstimator):
    """A stump learner of Shah et al. 2012 fitted, for the inner cross-validation, through its ``fit_grid`` together
    with the other settings of its grid (``grid``: the settings of ``p`` and ``eta`` that share one run of the
    greedy): the first setting fitted on a training part runs the greedy for all of them at once (one presort,
    shared first steps), the others are served from :data:`GRID_FITS`. The same stumps, errors and bounds as fitting
    each setting on its own (``fit_grid`` is tested to give them; a test compares whole leaderboard cells). Fitted
    attributes (``stumps_``, ``bound_``, ...) and predictions are the learner's."""

    def __init__(self, learner=None, grid=()):
        self.learner = learner
        self.grid = grid

    def fit(self, X, y):
        keys = sorted(self.grid[0])
        own = tuple((k, self.learner.get_params()[k]) for k in keys)
        settings = tuple(tuple(sorted(dict(q).items())) for q in self.grid)
        if own not in settings:
            raise ValueError(f"SharedGrid: the learner's setting {dict(own)} is not in its grid")
        shared = clone(self.learner).set_params(**dict(self.grid[0]))  # one key for every setting of the grid
        params = (type(shared).__name__, repr(sorted(shared.get_params().items())), settings)
        fits = GRID_FITS.get(params, X, y, lambda: dict(zip(settings, shared.fit_grid(X, y, [dict(q) for q in
                                                                                            settings]))))
        self.fitted_ = fits[own]
        self.classes_ = self.fitted_.classes_
        self.n_features_in_ = self.fitted_.n_features_in_
        return self

    def __getattr__(self, name):  # the fitted learner's attributes (called only for names not found otherwise)
        fitted = self.__dict__.get("fitted_")
        if fitted is not None and name.endswith("_") and not name.startswith("__"):
            return getattr(fitted, name)
        raise AttributeError(name)

    def predict(self, X):
        return self.fitted_.predict(X)

    def staged_predict(self, X):
        return self.fitted_.staged_predict(X)

    def predict_proba(self, X):
        return self.fitted_.predict_proba(X)

    def decision_function(self, X):
        return self.fitted_.decision_function(X)


#: The grids of stump learners fitted by :class:`SharedGrid`, shared by the settings of one process.
GRID_FITS = GridFits()


class SharedStatistics(SharedGrid):
    """PAM's shrunken centroids (:class:`genesel.centroids.ShrunkenCentroids`) fitted, for the inner
    cross-validation, from the statistics every threshold shares: the first threshold fitted on a training part
    computes the centroids, pooled sds, s_0 and standardised deviations d_ik (``threshold_statistics``, kept in
    :data:`GRID_FITS`), and every threshold, that one included, only shrinks them (``fit_from_statistics``, ESL
    Eq. 18.5), as the learner's own ``fit`` and ``fit_grid`` do. The same fit, bit for bit, and the same warnings,
    each raised by the threshold whose shrinkage raises it (a test compares whole leaderboard cells); PAM's 30
    thresholds on a training part cost one fit instead of 30. Fitted attributes and predictions are the learner's."""

    def __init__(self, learner=None):
        self.learner = learner

    def fit(self, X, y):
        fitted = clone(self.learner)
        stats = GRID_FITS.get((type(fitted).__name__, "statistics"), X, y,
                              lambda: clone(self.learner).threshold_statistics(X, y))
        self.fitted_ = fitted.fit_from_statistics(stats)
        self.classes_ = self.fitted_.classes_
        self.n_features_in_ = self.fitted_.n_features_in_
        return self


def _shared(make, grid: dict, keys: tuple):
    """A factory of :class:`SharedGrid`: ``make(params)`` builds the learner, which shares one run of its greedy
    with the settings of ``keys`` in ``grid`` (the others, e.g. the model, change the greedy)."""
    settings = tuple(dict(zip(keys, v)) for v in product(*(grid[k] for k in keys)))
    return lambda p, s, seed: SharedGrid(make(p), grid=settings)


def _with_svm(selector):
    return lambda p, s, seed: Pipeline([("select", selector(p, s, seed)), ("clf", SignatureSVM(C=p["C"]))],
                                       memory=SELECTIONS)


def _rf_varsel(se_rule):
    """Díaz-Uriarte & Alvarez de Andrés' backward elimination with genesel's numba forest (``trees`` for the first
    forest, half as many for the later ones, as their 2000 / 1000), then a forest of half as many trees on the
    chosen genes, also genesel's: on a Leukemia outer fold scikit-learn's ``RandomForestClassifier`` of 1000 trees
    on the 5 chosen genes took 0.53 CPU s, more than the whole elimination (0.34 s; genesel's final forest 0.003 s),
    its cost being per tree, not per gene."""
    return lambda p, s, seed: Pipeline([
        ("select", RFBackwardSelector(n_estimators=p["trees"], n_estimators_iter=p["trees"] // 2, se_rule=se_rule,
                                      random_state=seed)),
        ("clf", SmallForestClassifier(n_estimators=p["trees"] // 2, random_state=seed))])


_RF_NOTE = ("Díaz-Uriarte's backward elimination on genesel's own numba random forest (RFBackwardSelector), then "
            "genesel's forest (SmallForestClassifier) on the chosen genes: statistically, not tree for tree, "
            "scikit-learn's forests (other random numbers)")


#: PAM's threshold grid (``pamr.train``: 30 values from 0 to the largest |d_ik|, where no gene is left), relative to
#: that maximum on each training part (:class:`genesel.centroids.ShrunkenCentroids`, ``threshold_scale="max"``)
PAM_THRESHOLDS = tuple(round(float(t), 6) for t in np.linspace(0.0, 1.0, 30))
_PAM_NOTE = ("PAM's nearest shrunken centroids (genesel.centroids, not scikit-learn's NearestCentroid, whose distance "
             "standardises by s_i instead of s_i + s_0), class priors the training shares (pamr's default); the inner "
             "CV chooses the threshold among PAM's 30, relative to the largest |d_ik| of each training part")


def _pam(p, s, seed):
    return SharedStatistics(ShrunkenCentroids(threshold=p["threshold"], threshold_scale="max", priors="empirical"))


def _alma_clf(p_norm):
    return lambda p, s, seed: ALMA(p=p_norm, alpha=p["alpha"], n_cycles=50, random_state=seed)


_ENTRIES = [
    # ---- Guyon, Weston, Barnhill & Vapnik 2002 -----------------------------------------------------------------
    Method("S2N + weighted voting", "ranked", lambda p, s, seed: GolubVoting(n_genes=None),
           paper="Golub 1999 / Guyon 2002", family="filter",
           ranker=lambda p, s, seed: SignalToNoiseSelector(n_features_to_select=None, balanced=True)),
    Method("SVM-RFE (1 gene/step) + SVM", "ranked", _svm, paper="Guyon 2002", family="wrapper",
           grid={"C": C_GRID}, ranker=lambda p, s, seed: SVMRFE(n_features_to_select=1, step=1, C=p["rfe_C"] / s),
           ranker_grid={"rfe_C": (1.0, 100.0)}),
    Method("SVM-RFE (halving) + SVM", "ranked", _svm, paper="Guyon 2002", family="wrapper", grid={"C": C_GRID},
           ranker=lambda p, s, seed: SVMRFE(n_features_to_select=1, step="halving", C=p["rfe_C"] / s),
           ranker_grid={"rfe_C": (1.0, 100.0)}),
    Method("Fisher + SVM", "ranked", _svm, paper="Guyon 2002", family="filter", grid={"C": C_GRID},
           ranker=lambda p, s, seed: FisherSelector(n_features_to_select=None)),
    Method("t-test + SVM", "ranked", _svm, paper="(filter)", family="filter", grid={"C": C_GRID},
           ranker=lambda p, s, seed: SelectKBest(abs_t, k="all"),
           binary_only="Welch's t compares two means; its K-class forms are 't-test one-vs-rest + SVM' and the "
                       "ANOVA F of 'ANOVA F + SVM'"),
    Method("t-test one-vs-rest + SVM", "ranked", _svm, paper="(filter; Golub 1999's one-vs-rest pooling)",
           family="filter", grid={"C": C_GRID}, boards=("multiclass",),
           ranker=lambda p, s, seed: OneVsRestSelector(SelectKBest(abs_t, k="all")),
           note="|Welch t| of each class against the rest; genes by their best rank over the K problems (every class "
                "brings its own markers), against the joint ranking of the ANOVA F"),
    Method("Wilcoxon + SVM", "ranked", _svm, paper="Tan 2006", family="filter", grid={"C": C_GRID},
           ranker=lambda p, s, seed: SelectKBest(wilcoxon_score, k="all"),
           binary_only="the rank-sum test compares two samples; its K-class form is the Kruskal-Wallis test of "
                       "'Kruskal-Wallis + SVM'"),
    Method("ANOVA F + SVM", "ranked", _svm, paper="(filter; Dudoit 2002)", family="filter", grid={"C": C_GRID},
           ranker=lambda p, s, seed: ANOVASelector(n_features_to_select=None), boards=("multiclass",),
           note="the K-class form of the t filter (for two classes F = t² of the pooled-variance t)"),
    Method("Kruskal-Wallis + SVM", "ranked", _svm, paper="Kruskal 1952", family="filter", grid={"C": C_GRID},
           ranker=lambda p, s, seed: KruskalWallisSelector(n_features_to_select=None), boards=("multiclass",),
           note="the K-class form of the Wilcoxon filter"),
    # ---- Gentile 2003 ------------------------------------------------------------------------------------------
    Method("ALMA-FS", "model", lambda p, s, seed: ALMAFS(alpha=p["alpha"], n_cycles=50, random_state=seed),
           paper="Gentile 2003", family="embedded", grid={"alpha": ALPHAS}, signature=_alma_fs),
    Method("ALMA_2-RFE", "ranked", _alma_clf(2), paper="Gentile 2003", family="wrapper",
           ranker=lambda p, s, seed: ALMARFE(n_features_to_select=2, p=2, alpha=p["alpha"], n_cycles=50,
                                             random_state=seed), ranker_grid={"alpha": ALPHAS},
           note="genes eliminated in the same halving stage are ordered by index"),
    Method("ALMA_ln-RFE", "ranked", _alma_clf("ln"), paper="Gentile 2003", family="wrapper",
           ranker=lambda p, s, seed: ALMARFE(n_features_to_select=2, p="ln", alpha=p["alpha"], n_cycles=50,
                                             random_state=seed), ranker_grid={"alpha": ALPHAS},
           note="genes eliminated in the same halving stage are ordered by index"),
    Method("ALMA_2-CORR", "ranked", _alma_clf(2), paper="Gentile 2003", family="filter", grid={"alpha": ALPHAS},
           ranker=lambda p, s, seed: SignalToNoiseSelector(n_features_to_select=None, balanced=True)),
    Method("ALMA_ln-CORR", "ranked", _alma_clf("ln"), paper="Gentile 2003", family="filter", grid={"alpha": ALPHAS},
           ranker=lambda p, s, seed: SignalToNoiseSelector(n_features_to_select=None, balanced=True)),
    # ---- Helleputte & Dupont 2009 / Weston 2003 ----------------------------------------------------------------
    Method("l2-AROM + SVM", "ranked", _svm, paper="Weston 2003 / Helleputte 2009", family="embedded",
           grid={"C": C_GRID}, ranker=lambda p, s, seed: L2AROM(n_features_to_select=None, C=1000.0 / s)),
    # ---- Tan 2006 ----------------------------------------------------------------------------------------------
    Method("MSVM-RFE + SVM", "ranked", _svm, paper="Duan 2005 / Tan 2006", family="wrapper", grid={"C": C_GRID},
           note="t = 5 SVMs per step (the thesis: 10), so that every class has a member in each fold",
           ranker=lambda p, s, seed: MSVMRFE(n_folds=5, step=1, C=100.0 / s, n_features_to_select=1,
                                             random_state=seed)),
    Method("GP-ARD-FS + GP", "model", lambda p, s, seed: Pipeline([
        ("select", GPARDFS(n_folds=5, n_restarts=0, random_state=seed)),
        ("clf", GaussianProcessClassifier(ard=True, n_restarts=0, random_state=seed))]),
        paper="Chu 2005 / Tan 2006", family="embedded", signature=_selected,
        note=_GP_NOTE),
    Method("GP-ARD-RFE + GP", "model", lambda p, s, seed: Pipeline([
        ("select", GPARDRFE(n_folds=5, n_restarts=0, random_state=seed)),
        ("clf", GaussianProcessClassifier(ard=True, n_restarts=0, random_state=seed))]),
        paper="Tan 2006", family="embedded", signature=_selected,
        note=_GP_NOTE),
    Method("RVM selector + SVM", "model", _with_svm(lambda p, s, seed: RVMSelector()), paper="Tan 2006",
           family="embedded", grid={"C": C_GRID}, signature=_selected),
    Method("SMLR selector + SVM", "model", _with_svm(lambda p, s, seed: SMLRSelector(lam=p["lam"], lam_scale="max")),
           paper="Tan 2006", family="embedded", grid={"lam": (0.3, 0.1, 0.03), "C": C_GRID}, signature=_selected),
    # ---- Shah, Marchand & Corbeil 2012 -------------------------------------------------------------------------
    Method("SC stumps", "staged",
           _shared(lambda p: SampleCompressionStumps(p=p["p"], max_stumps=p["max_stumps"], model=p["model"]),
                   {"p": P_GRID}, ("p",)),
           paper="Shah 2012", family="stumps", grid={"p": P_GRID, "model": MODELS}, stages=tuple(range(1, 11)),
           stage_param="max_stumps", signature=_stumps, bound=_bound),
    Method("Occam stumps", "staged",
           _shared(lambda p: OccamStumps(p=p["p"], eta=p["eta"], max_stumps=p["max_stumps"], model=p["model"]),
                   {"p": P_GRID, "eta": OCCAM_ETAS}, ("p", "eta")),
           paper="Shah 2012", family="stumps", grid={"p": P_GRID, "eta": OCCAM_ETAS, "model": MODELS},
           stages=tuple(range(1, 11)), stage_param="max_stumps", signature=_stumps, bound=_bound),
    Method("PAC-Bayes stumps", "staged",
           _shared(lambda p: PACBayesStumps(p=p["p"], eta=p["eta"], max_stumps=p["max_stumps"], model=p["model"]),
                   {"p": P_GRID, "eta": PAC_BAYES_ETAS}, ("p", "eta")),
           paper="Shah 2012", family="stumps", grid={"p": P_GRID, "eta": PAC_BAYES_ETAS, "model": MODELS},
           stages=tuple(range(1, 11)), stage_param="max_stumps", signature=_stumps, bound=_bound,
           note="the bound is Theorem 5's, on the Gibbs risk (the Bayes classifier's risk is at most twice it)"),
    Method("AdaBoost stumps", "staged", lambda p, s, seed: AdaBoostStumps(n_estimators=p["n_estimators"]),
           paper="Shah 2012 (baseline)", family="ensemble", stages=(10, 20, 50, 100, 200, 500, 1000),
           stage_param="n_estimators", signature=_adaboost),
    # ---- all-genes baselines (Tan 2006 ch. 3) ------------------------------------------------------------------
    Method("SVM (all genes)", "model", _svm, paper="Tan 2006 / Guyon 2002", family="baseline", grid={"C": C_GRID}),
    Method("RBF SVM (all genes)", "model",
           lambda p, s, seed: KernelSVM(kernel="rbf", C=p["C"], gamma=p["gamma_rel"] / s),
           paper="Tan 2006", family="baseline", grid={"C": (1.0, 10.0, 100.0, 1000.0), "gamma_rel": (0.01, 0.1, 1.0)},
           note="gamma = gamma_rel / n_genes: on standardised genes gamma_rel times KernelSVM's gamma='scale' (mean "
                "gamma |x - x'|^2 over pairs of samples = 2 gamma_rel); the inner CV chooses gamma and C, as the "
                "libsvm guide advises (gamma='scale' alone left it far behind the linear SVM: 12.4 % error on "
                "Leukemia, against 2.4 %)"),
    Method("DWD (all genes)", "model", lambda p, s, seed: DWD(C=p["C"]), paper="Tan 2006", family="baseline",
           grid={"C": ("auto", 1e-3, 1e-1, 10.0)}),
    Method("GP (all genes)", "model", lambda p, s, seed: GaussianProcessClassifier(ard=False, n_restarts=0,
                                                                                  random_state=seed),
           paper="Tan 2006", family="baseline"),
    Method("RVM (all genes)", "model", lambda p, s, seed: RVM(kernel="linear"), paper="Tan 2006", family="baseline"),
    Method("SMLR (all genes)", "model", lambda p, s, seed: SMLR(lam=p["lam"], lam_scale="max", kernel="linear"),
           paper="Tan 2006", family="baseline", grid={"lam": (0.5, 0.1, 0.01, 0.001)}),
    # ---- the tools users would otherwise pick (scikit-learn) ---------------------------------------------------
    Method("L1 logistic regression", "model",
           lambda p, s, seed: l1_logistic(p["C"], seed),
           paper="Tibshirani 1996 (lasso)", family="embedded", grid={"C": L1_LOGISTIC_C},
           signature=_l1, source="scikit-learn",
           note="liblinear (its intercept penalised as a weight) run to tol 1e-8: at its default 1e-4 the fits on wide "
                "data stopped short of the optimum and kept up to 5 times its genes",
           binary_only="liblinear fits two classes; its K-class form is 'multinomial L1 logistic regression'"),
    Method("multinomial L1 logistic regression", "model", lambda p, s, seed: multinomial_l1_logistic(p["C"], seed),
           paper="Tibshirani 1996 / Friedman 2010", family="embedded", grid={"C": L1_LOGISTIC_C},
           signature=_l1, source="glmnet", boards=("multiclass",),
           note="glmnet's softmax model of the K classes (Friedman 2010), solved along the path of the five C; a gene "
                "is in the signature when any class's weight is not 0"),
    Method("RF var. sel. (s.e. 0)", "model", _rf_varsel(0.0), paper="Díaz-Uriarte 2006", family="embedded",
           grid={"trees": (2000,)}, quick_grid={"trees": (200,)}, signature=_selected, note=_RF_NOTE),
    Method("RF var. sel. (s.e. 1)", "model", _rf_varsel(1.0), paper="Díaz-Uriarte 2006", family="embedded",
           grid={"trees": (2000,)}, quick_grid={"trees": (200,)}, signature=_selected, note=_RF_NOTE),
    Method("random forest (all genes)", "model",
           lambda p, s, seed: RandomForestClassifier(n_estimators=p["trees"], n_jobs=1, random_state=seed),
           paper="Breiman 2001", family="baseline", grid={"trees": (2000,)}, quick_grid={"trees": (200,)},
           source="scikit-learn"),
    Method("shrunken centroids (SC.s)", "model", _pam, paper="Tibshirani 2002 / Díaz-Uriarte 2006 (SC.s)",
           family="embedded", grid={"threshold": PAM_THRESHOLDS}, quick_grid={"threshold": PAM_THRESHOLDS[::5]},
           signature=_centroids, tie="fewer", note=_PAM_NOTE + "; ties to the fewest genes (their SC.s)"),
    Method("shrunken centroids (SC.l)", "model", _pam, paper="Tibshirani 2002 / Díaz-Uriarte 2006 (SC.l)",
           family="embedded", grid={"threshold": PAM_THRESHOLDS}, quick_grid={"threshold": PAM_THRESHOLDS[::5]},
           signature=_centroids, tie="more", note=_PAM_NOTE + "; ties to the most genes (their SC.l)"),
    Method("kNN on Fisher genes", "ranked", lambda p, s, seed: KNeighborsClassifier(n_neighbors=p["k"]),
           paper="Díaz-Uriarte 2006 (NN.vs)", family="filter", grid={"k": K_GRID},
           ranker=lambda p, s, seed: FisherSelector(n_features_to_select=None), source="scikit-learn"),
    Method("kNN (all genes)", "model", lambda p, s, seed: KNeighborsClassifier(n_neighbors=p["k"]),
           paper="Díaz-Uriarte 2006 (KNN)", family="baseline", grid={"k": K_GRID}, source="scikit-learn"),
    Method("DLDA (all genes)", "model", lambda p, s, seed: DLDA(priors="uniform"),
           paper="Dudoit 2002 / Díaz-Uriarte 2006 (DLDA)", family="baseline",
           note="diagonal linear discriminant analysis, equal priors (Dudoit, Fridlyand & Speed 2002's ML rule)"),
]

#: name -> :class:`Method`, in the order the league tables list ties. Each entry is written out with its name as a
#: string literal: the cache keys of its cells are read from it (:mod:`genesel.leaderboard.keys`).
CATALOGUE: dict[str, Method] = {m.name: m for m in _ENTRIES}
if len(CATALOGUE) != len(_ENTRIES):  # pragma: no cover - a duplicated name is a programming error
    raise RuntimeError("duplicate method names in the leaderboard catalogue")


def method_names(board: str | None = None) -> list[str]:
    """The catalogue's names (those of ``board``, "binary" or "multiclass", when given)."""
    if board is None:
        return list(CATALOGUE)
    if board not in BOARDS:
        raise ValueError(f"board must be one of {BOARDS}, got {board!r}")
    return [n for n, m in CATALOGUE.items() if board in m.boards]


def method(name: str) -> Method:
    """The catalogue entry of ``name``; an unknown name is refused with the list of names."""
    try:
        return CATALOGUE[name]
    except KeyError:
        raise ValueError(f"unknown leaderboard method {name!r}; choose from {list(CATALOGUE)}") from None


def estimator_classes(m: Method) -> set:
    """The classes of every estimator the entry builds (its first grid point; nested steps included): what the
    catalogue test checks against genesel's public estimators."""
    from sklearn.base import BaseEstimator as _BE

    params = {**(m.settings("ranker", False) or [{}])[0], **(m.settings("estimator", False) or [{}])[0]}
    if m.stage_param:
        params[m.stage_param] = m.stages[-1]
    objs = [m.estimator(params, 100, 0)] + ([m.ranker(params, 100, 0)] if m.ranker else [])
    out = set()
    while objs:
        o = objs.pop()
        out.add(type(o))
        if isinstance(o, Pipeline):
            objs.extend(step for _, step in o.steps)
        if isinstance(o, SignatureSVM):
            out.add(LinearSVM)
        objs.extend(v for v in o.get_params(deep=False).values() if isinstance(v, _BE))
    return out
