"""Guyon, Weston, Barnhill & Vapnik (2002): the protocol cells notebook 01 runs (data, preprocessing, grid cells).

I. Guyon, J. Weston, S. Barnhill, V. Vapnik, *Gene Selection for Cancer Classification using Support Vector
Machines*, Machine Learning 46:389-422, 2002. The algorithms live in :mod:`genesel.svm` (the linear SVM),
:mod:`genesel.rfe` (SVM-RFE), :mod:`genesel.voting` (Golub's weighted voting), :mod:`genesel.filters` (the
signal-to-noise ranking) and :mod:`genesel.metrics` (the quality measures of section 4). The paper's claims, the
claim checks, tables and figures are in :mod:`genesel.papers.guyon2002_report` (kept apart so that editing a
figure never invalidates the cached grid cells computed here); the grids of the notebook are built here
(:func:`curve_cells`, :func:`fold_cells`, :func:`sensitivity_cells`).

Two protocols, both module-level grid cells for :func:`genesel.experiments.run_grid`:

- :func:`guyon2002_curves`, *as printed*: preprocessing statistics and gene ranking on all training samples, then
  for every subset size 2^k the classifier (SVM for SVM-RFE, weighted voting for the baseline) assessed by
  leave-one-out on the training set with the subset fixed (V_*) and on the test set (T_*);
- :func:`guyon2002_loo_folds`, *unbiased*: everything (preprocessing statistics, ranking, classifier) inside each
  leave-one-out fold (Ambroise & McLachlan 2002, PNAS 99:6562).

The preprocessing a reader of 2002 could have applied (issue 15), every option from the literature of the time:

- ``thresholds``: ``"genesel"`` = the data set's usual floor/ceiling before the log
  (:func:`genesel.datasets.recommended_preprocessing`; Golub's Hu6800 values: floor 20, ceiling 16000, the floor
  of Pochet et al. 2004's preparation of these data) or ``"dudoit"`` = floor 100, ceiling 16000 (Dudoit,
  Fridlyand & Speed 2002, JASA 97:77, section 2.2). Only for raw intensities.
- ``gene_filter``: ``"none"`` (all genes, as in the paper's leukemia experiments on 7129 genes) or ``"dudoit"``:
  keep genes with max/min > 5 and max - min > 500 over the (thresholded) training samples (Dudoit et al. 2002;
  3571 genes on all 72 leukemia samples, 3051 on the 38 training samples, the ``golub`` set of Bioconductor
  multtest). Only for raw intensities.
- the logarithm: always base 10. The base does not matter: every standardisation below divides by a standard
  deviation, which absorbs the constant factor between log bases (checked in the tests).
- ``standardize``: ``"sample+gene"`` (Guyon's description: normalise the sample vectors, then the feature
  vectors), ``"gene"`` (only per-gene z-scores with the training mean and sd, as in Golub 1999's predictor) or
  ``"sample"`` (only per-array standardisation, as in Dudoit et al. 2002).
- ``squash``: ``"none"``, ``"tanh"`` or ``"arctan"``: Guyon's colon preprocessing ends by "passing the result
  through a squashing function to diminish the importance of outliers" without naming the function; the two
  standard sigmoids, applied at unit scale to the z-scores, are the readings tried.
- ``C`` of the SVM from 0.01 to ``inf`` (hard margin) and the elimination ``step``: ``"halving"`` (Guyon's
  chunks: first down to the nearest power of two, then halve; Tan 2006 section 5.4) or ``1`` (one gene per step).

The hard margin (``C=inf``) exists only where the training samples are linearly separable on the genes in use
(a linear program decides); subset sizes where they are not are reported as not separable (NaN), never as a
number from a solver stopped at its iteration limit.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.feature_selection import VarianceThreshold
from sklearn.pipeline import make_pipeline

from genesel import DegenerateModelWarning
from genesel.datasets import recommended_preprocessing
from genesel.experiments import leave_one_out, predefined_split, random_splits
from genesel.filters import SignalToNoiseSelector
from genesel.metrics import METRIC_NAMES, guyon_quality, quality_metrics
from genesel.papers.common import is_user_file, load_task, one_class_fits
from genesel.preprocessing import GeneStandardizer, LogTransform, SampleStandardizer
from genesel.rfe import SVMRFE
from genesel.svm import LinearSVM
from genesel.voting import GolubVoting

__all__ = ["GUYON_METHODS", "THRESHOLDS", "GENE_FILTERS", "STANDARDIZE", "SQUASH", "MAX_LOO_SAMPLES", "C_VALUES",
           "STEPS", "SETTING_COLUMNS", "guyon_preprocess", "guyon_data", "guyon_sizes", "guyon_protocol",
           "guyon_n_train", "guyon2002_curves", "guyon2002_loo_folds", "loo_metrics_from_outputs", "linearly_separable",
           "setting_options", "setting_for", "cell", "curve_cells", "fold_cells", "sensitivity_cells"]

GUYON_METHODS = ("svm-rfe", "baseline")
THRESHOLDS = ("genesel", "dudoit")
GENE_FILTERS = ("none", "dudoit")
STANDARDIZE = ("sample+gene", "gene", "sample")
SQUASH = ("none", "tanh", "arctan")
#: Leave-one-out over more samples than this is refused (one SVM-RFE per sample; use another protocol).
MAX_LOO_SAMPLES = 300

_DUDOIT = dict(floor=100.0, ceiling=16000.0, ratio=5.0, difference=500.0)
# SMO cap at C=inf. Separable stages near the separability boundary can need close to a million iterations on colon
# (measured), so the cap is well above; non-separable stages stop long before it, where their samples proved not
# separable (genesel._core.smo.separation_refuted), and are reported as such, not used.
_HARD_MARGIN_MAX_ITER = 3_000_000


def _check_option(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def _log_step(dataset, thresholds):
    """The floor/ceiling + log10 transform for ``dataset`` (None for sets already on a log or standardised scale).
    A researcher's file with ``thresholds="genesel"``: its one decision (:func:`genesel.datasets.
    recommended_preprocessing` without the standardisation: raw intensities logged, counts normalised by library
    size), as in every route; None when its values are used as they are."""
    _check_option("thresholds", thresholds, THRESHOLDS)
    if is_user_file(dataset) and thresholds == "genesel":
        scale = recommended_preprocessing(dataset, standardize=False)
        return None if [n for n, _ in scale.steps] == ["identity"] else scale
    log = dict(recommended_preprocessing(dataset, standardize=False).steps).get("log")
    if thresholds == "dudoit":
        if log is None:
            raise ValueError(f"thresholds='dudoit' (floor 100, ceiling 16000; Dudoit et al. 2002) applies to raw "
                             f"Affymetrix intensities; data set {dataset!r} is already on a log or standardised "
                             "scale: use thresholds='genesel'")
        return LogTransform(floor=_DUDOIT["floor"], ceiling=_DUDOIT["ceiling"])
    return log


def guyon_preprocess(X_train, X_test, dataset, *, thresholds="genesel", gene_filter="none",
                     standardize="sample+gene", squash="none"):
    """Guyon 2002's preprocessing, fit on ``X_train`` only (module doc for the options): floor/ceiling and log10
    of raw intensities, optionally Dudoit's gene filter, per-sample and/or per-gene standardisation (genes
    constant in the training samples are dropped first), optionally a squashing function.

    The defaults (data set's usual thresholds, no filter, sample then gene standardisation, no squashing) are
    genesel's reading of the paper. Returns ``(X_train, X_test or None, kept)``, ``kept`` the indices of the
    genes kept.
    """
    _check_option("gene_filter", gene_filter, GENE_FILTERS)
    _check_option("standardize", standardize, STANDARDIZE)
    _check_option("squash", squash, SQUASH)
    X_train = np.asarray(X_train, dtype=float)
    log = _log_step(dataset, thresholds)
    kept = np.arange(X_train.shape[1])
    if gene_filter == "dudoit":
        if not isinstance(log, LogTransform):
            raise ValueError(f"gene_filter='dudoit' (max/min > 5 and max - min > 500) applies to raw intensities; "
                             f"data set {dataset!r} is already on a log or standardised scale: use 'none'")
        T = np.clip(X_train, log.floor, np.inf if log.ceiling is None else log.ceiling)
        hi, lo = T.max(0), T.min(0)
        kept = np.flatnonzero((hi / lo > _DUDOIT["ratio"]) & (hi - lo > _DUDOIT["difference"]))
        if kept.size == 0:
            raise ValueError(f"gene_filter='dudoit' keeps no gene of {dataset!r}")

    # fitted on the training part only, applied to both (a file's log decision and floor, or its count factors, are
    # learned there; the registered sets' fixed floor and ceiling give the same numbers either way)
    step = None if log is None else clone(log).fit(X_train[:, kept])

    def base(X):
        X = np.asarray(X, dtype=float)[:, kept]
        return step.transform(X) if step is not None else X

    A = base(X_train)
    B = None if X_test is None else base(X_test)
    smp = SampleStandardizer()
    if "sample" in standardize:
        A = smp.fit_transform(A)
        B = None if B is None else smp.transform(B)
    nonconst = np.flatnonzero(np.ptp(A, axis=0) > 0)
    A, kept = A[:, nonconst], kept[nonconst]
    B = None if B is None else B[:, nonconst]
    if "gene" in standardize:
        gs = GeneStandardizer().fit(A)
        A = gs.transform(A)
        B = None if B is None else gs.transform(B)
    if squash != "none":
        f = np.tanh if squash == "tanh" else np.arctan
        A = f(A)
        B = None if B is None else f(B)
    return A, B, kept


# ------------------------------------------------------------------------------------------------------------
# splits and subset sizes
# ------------------------------------------------------------------------------------------------------------


def guyon_data(dataset, split, seed):
    """(ds, train_idx, test_idx or None): "predefined" (the paper's split), "all" (every sample for training,
    no test set) or "half" (a seeded stratified random half/half split)."""
    ds = load_task(dataset)
    if len(ds.classes) != 2 or not set(np.unique(ds.y)) <= {-1, 1}:
        raise ValueError(f"data set {dataset!r} has {len(ds.classes)} classes; Guyon's methods are binary "
                         "(choose a two-class data set, e.g. golub, alon, singh)")
    if split == "predefined":
        tr, te = predefined_split(ds)[0]
    elif split == "all":
        tr, te = np.arange(ds.y.size), None
    elif split == "half":
        tr, te = random_splits(ds.y, ds.y.size // 2, 1, seed, stratified=True, groups=ds.groups)[0]
    else:
        raise ValueError(f"split must be 'predefined', 'all' or 'half', got {split!r}")
    return ds, np.sort(tr), (None if te is None else np.sort(te))


def guyon_protocol(dataset):
    """How notebook 01 runs the paper on ``dataset``: ``{"curve_split", "loo_split", "n_loo"}``.

    With a predefined split (Golub's 38/34) both are that split, as in the paper. Without one (colon, and any
    other data set) the headline leave-one-out runs over all samples, as the paper does for colon, and the
    eight-metric curves, which need a test set, use a seeded stratified half/half split. Leave-one-out over more
    than ``MAX_LOO_SAMPLES`` samples is refused with a message.
    """
    ds = load_task(dataset)
    if len(ds.classes) != 2:
        raise ValueError(f"data set {dataset!r} has {len(ds.classes)} classes; Guyon's methods are binary "
                         "(choose a two-class data set, e.g. golub, alon, singh)")
    if ds.train_idx is not None:
        out = dict(curve_split="predefined", loo_split="predefined", n_loo=int(len(ds.train_idx)))
    else:
        out = dict(curve_split="half", loo_split="all", n_loo=int(ds.n_samples))
    if out["n_loo"] > MAX_LOO_SAMPLES:
        raise ValueError(f"data set {dataset!r}: leave-one-out over {out['n_loo']} samples means "
                         f"{out['n_loo']} SVM-RFE runs per setting; notebook 01 accepts at most "
                         f"{MAX_LOO_SAMPLES} (choose a microarray set such as golub, alon or singh)")
    return out


def guyon_n_train(dataset, split, seed=0):
    """Number of training samples of a Guyon 2002 split (the number of leave-one-out folds)."""
    return int(guyon_data(dataset, split, seed)[1].size)


#: The smallest class a training part needs, per method: (to fit it, to run leave-one-out on it). The baseline's
#: signal-to-noise ratio needs a spread (two samples) of each class in every fit; the SVM needs one sample of each.
SMALLEST_CLASS = {"svm-rfe": (1, 2), "baseline": (2, 3)}
#: The methods in words, for the notes of a study too small for one of them
METHOD_WORDS = {"svm-rfe": "SVM-RFE", "baseline": "baseline (signal-to-noise, weighted voting)"}


def guyon_sizes(n_genes):
    """Subset sizes 2^k below the number of genes, plus all the genes (largest first)."""
    sizes = [1 << k for k in range(int(n_genes).bit_length()) if (1 << k) < n_genes]
    return sorted(set(sizes) | {int(n_genes)}, reverse=True)


def _sizes(n_genes, max_size):
    return [s for s in guyon_sizes(n_genes) if max_size is None or s <= max_size or s == n_genes]


# ------------------------------------------------------------------------------------------------------------
# the hard margin: where it exists
# ------------------------------------------------------------------------------------------------------------


def linearly_separable(X, y) -> bool:
    """Whether some (w, b) gives y_i (w.x_i + b) >= 1 for every sample: the hard-margin SVM exists.

    With at least as many genes as samples and [X, 1] of full row rank every labelling is separable; otherwise a
    feasibility linear program (scipy's HiGHS) decides.
    """
    X = np.asarray(X, dtype=float)
    y = np.where(np.asarray(y) > 0, 1.0, -1.0)
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    if A.shape[1] >= A.shape[0] and np.linalg.matrix_rank(A) == A.shape[0]:
        return True
    from scipy.optimize import linprog

    res = linprog(np.zeros(A.shape[1]), A_ub=-y[:, None] * A, b_ub=-np.ones(A.shape[0]),
                  bounds=[(None, None)] * A.shape[1], method="highs")
    if res.status not in (0, 2):
        raise RuntimeError(f"separability LP ended with status {res.status}: {res.message}")
    return res.status == 0


# ------------------------------------------------------------------------------------------------------------
# the two protocols (grid cells)
# ------------------------------------------------------------------------------------------------------------


def _rank_genes(method, X, y, C, step):
    """A fitted ranker exposing ``subset(size)`` and a factory for the matching classifier."""
    if method == "svm-rfe":
        hard = math.isinf(C)
        with warnings.catch_warnings():
            if hard:  # stages on non-separable subsets hit the cap; callers check separability per size
                warnings.simplefilter("ignore")
            # SVMRFE's own final fit (on the last gene) scores nothing here: every size is scored by a refit
            # (curves) or by the SVM of its elimination stage (folds), where a constant model is counted
            warnings.simplefilter("ignore", DegenerateModelWarning)
            sel = SVMRFE(n_features_to_select=1, step=step, C=C,
                         max_iter=_HARD_MARGIN_MAX_ITER if hard else None).fit(X, y)
        return sel, (lambda: LinearSVM(C=C))
    if method == "baseline":
        sel = SignalToNoiseSelector(n_features_to_select=1, balanced=True).fit(X, y)
        # a gene can be constant within a leave-one-out fold (e.g. at the floor in all but the left-out sample,
        # without sample standardisation): its signal-to-noise ratio is 0/0, so it casts no vote (dropped)
        return sel, (lambda: make_pipeline(VarianceThreshold(0.0), GolubVoting(n_genes=None)))
    raise ValueError(f"method must be one of {GUYON_METHODS}, got {method!r}")


def _converged_down_to(sel):
    """Smallest subset size such that every SVM-RFE stage on that many genes or more reached the SMO tolerance
    (the hard-margin stages on non-separable subsets never do: their solves stop where the samples proved not
    separable, or at the cap)."""
    capped = np.flatnonzero(~sel.stage_converged_)
    return 0 if capped.size == 0 else int(sel.subset_sizes_[capped[0]]) + 1


def _hard_margin_statuses(C, X, y, sel, sizes, converged_from):
    """{size: (separable, converged)} for the nested subsets ``sel.subset(size)`` of the columns of X: all True
    unless C = inf. Separability only grows with the genes (a plane on a subset is one on any superset, with weight 0
    on the rest), so the sizes are checked from the smallest up and every size above the first separable one is
    separable without a linear program (on a 100 x 20,000 study: 3 of 16 programs, not the rank of 49 x 20,000
    matrices for every size and fold)."""
    if C is None or not math.isinf(C):
        return {int(size): (True, True) for size in sizes}
    out, separable = {}, False
    for size in sorted(int(s) for s in sizes):
        separable = separable or linearly_separable(X[:, sel.subset(size)], y)
        out[size] = (separable, size >= converged_from)
    return out


def _check_C(method, C, step):
    """C and step of an SVM-RFE cell (a positive number or inf; "halving" or a step size); the baseline
    ignores both (pass None)."""
    if method == "baseline":
        return None, None
    if isinstance(C, bool) or not (isinstance(C, (int, float)) and C > 0):
        raise ValueError(f"C must be a positive number or inf (hard margin), got {C!r}")
    if step is None:
        raise ValueError("step must be 'halving' or a number of genes per step (e.g. 1), got None")
    return float(C), step


def guyon2002_curves(dataset, method, C=100.0, step="halving", split="predefined", seed=0, n_top=16,
                     max_size=None, thresholds="genesel", gene_filter="none", standardize="sample+gene",
                     squash="none"):
    """The paper's protocol: genes ranked once on the whole training set; for every subset size 2^k (and all
    genes) the classifier (SVM for SVM-RFE, weighted voting for the baseline) is assessed by leave-one-out on the
    training set (V_*, ``V_errors``; leave-one-group-out when the samples are grouped, ``Dataset.groups``) and on
    the test set (T_*, ``T_errors``, when there is one); the baseline
    ignores ``C`` and ``step`` (pass None). One row per
    size; ``all_genes`` marks the row with every gene; rows of sizes <= ``n_top`` list the genes (probe IDs, best
    first). ``max_size`` skips the sizes between it and all genes (quick runs). With ``C=inf`` a size whose
    training samples are not linearly separable gets ``separable=False`` and NaN metrics (and ``converged=False``
    when an elimination stage down to it stopped at the SMO iteration cap although separable: NaN as well).
    """
    C, step = _check_C(method, C, step)
    ds, tr, te = guyon_data(dataset, split, seed)
    prep = dict(thresholds=thresholds, gene_filter=gene_filter, standardize=standardize, squash=squash)
    Xtr, Xte, kept = guyon_preprocess(ds.X[tr], None if te is None else ds.X[te], dataset, **prep)
    ytr, yte = ds.y[tr], (None if te is None else ds.y[te])
    gtr = None if ds.groups is None else np.asarray(ds.groups)[tr]  # grouped samples: leave one group out
    small = int(np.unique(ytr, return_counts=True)[1].min()) if np.unique(ytr).size == 2 else 0
    need_fit, need_loo = SMALLEST_CLASS[method]
    if small < need_fit:  # a small study's half split: no ranking, no fit (not applicable at this size)
        why = (f"not applicable at this size: the training part's smaller class has {small} sample(s), the "
               f"{METHOD_WORDS[method]} needs {need_fit}")
        return [{"n_genes": int(size), "all_genes": bool(size == Xtr.shape[1]), "n_train": int(tr.size),
                 "n_test": 0 if te is None else int(te.size), "separable": True, "converged": True,
                 "not_applicable": why, "V_errors": np.nan, **({"T_errors": np.nan} if te is not None else {}),
                 **{f"{p}_{m}": np.nan for p in ("VT" if te is not None else "V") for m in METRIC_NAMES}}
                for size in _sizes(Xtr.shape[1], max_size)]
    loo = small >= need_loo if gtr is None else _smallest_left(ytr, gtr) >= need_fit
    sel, make_clf = _rank_genes(method, Xtr, ytr, C, step)
    conv_from = _converged_down_to(sel) if method == "svm-rfe" else 0
    rows = []
    sizes = _sizes(Xtr.shape[1], max_size)
    status = _hard_margin_statuses(C, Xtr, ytr, sel, sizes, conv_from)
    for size in sizes:
        g = sel.subset(size)
        row = {"n_genes": int(size), "all_genes": bool(size == Xtr.shape[1]), "n_train": int(tr.size),
               "n_test": 0 if te is None else int(te.size)}
        sep, conv = status[int(size)]
        row["separable"], row["converged"] = bool(sep), bool(conv)
        if sep and conv:
            # fits (leave-one-out and the final one) whose optimum is a constant, one-class predictor: e.g. the
            # SVM on the single last gene of an elimination, where w = 0 is the optimum (checked against
            # scikit-learn); they count as the errors they make, and the tables say how many there were
            with one_class_fits() as n_constant:
                q = guyon_quality(make_clf(), Xtr[:, g], ytr, None if te is None else Xte[:, g], yte, loo=loo,
                                  groups=gtr)
            row["constant_fits"] = n_constant[0]
            row.update(q)
            if not loo:
                row["not_applicable"] = (
                    f"leave-one-out not applicable at this size: the training part's smaller class has {small} "
                    f"sample(s), the {METHOD_WORDS[method]} needs {need_loo} (one left out)" if gtr is None else
                    f"leave-one-group-out not applicable at this size: with a group left out, the training part's "
                    f"smaller class can keep {_smallest_left(ytr, gtr)} sample(s), the {METHOD_WORDS[method]} "
                    f"needs {need_fit}")
            row["V_errors"] = int(round((1.0 - q["V_suc"]) * tr.size)) if loo else np.nan
            if te is not None:
                row["T_errors"] = int(round((1.0 - q["T_suc"]) * te.size))
        else:
            row.update({f"{p}_{m}": np.nan for p in ("VT" if te is not None else "V") for m in METRIC_NAMES})
            row["V_errors"] = np.nan
            if te is not None:
                row["T_errors"] = np.nan
        if size <= n_top:
            row["genes"] = ";".join(str(ds.gene_ids[kept[i]]) for i in sel.feature_order_[:size])
        rows.append(row)
    return rows


def _smallest_left(y, groups) -> int:
    """The fewest samples of a class left in a training part when one group is left out (leave-one-group-out)."""
    classes = np.unique(y)
    return int(min(min(np.sum((y == c) & (groups != g)) for c in classes) for g in np.unique(groups)))


def _stage_outputs(sel, Xa, ya, Xb, sizes):
    """Decision values on ``Xb`` of the SVMs SVM-RFE trained at the stages of the given sizes: {size: values}."""
    out = {}
    for s, size in enumerate(sel.subset_sizes_):
        if int(size) in sizes:
            g = sel.subset(int(size))
            w = Xa[:, g].T @ (sel.stage_alpha_[s] * ya)
            out[int(size)] = Xb[:, g] @ w + sel.stage_intercept_[s]
    return out


def guyon2002_loo_folds(dataset, method, C=100.0, step="halving", split="predefined", seed=0, max_size=None,
                        thresholds="genesel", gene_filter="none", standardize="sample+gene", squash="none"):
    """Leave-one-out with *everything* inside each fold (Ambroise & McLachlan 2002): for each training sample,
    preprocessing statistics, gene ranking and classifier are fit on the other training samples, which then
    score it at every subset size. For SVM-RFE the SVMs trained during elimination score it directly (the same
    models a refit on each subset gives). One row per (fold, size) with the held-out label ``y`` and ``output``;
    ``all_genes`` marks the size with every gene (its count can differ between folds: constant or filtered
    genes). With ``C=inf``, sizes whose fold is not linearly separable (``separable``), or whose elimination did
    not converge (``converged``), get output NaN.
    """
    C, step = _check_C(method, C, step)
    ds, tr, _ = guyon_data(dataset, split, seed)
    prep = dict(thresholds=thresholds, gene_filter=gene_filter, standardize=standardize, squash=squash)
    rows = []
    groups = None if ds.groups is None else ds.groups[tr]  # grouped samples: leave one group out
    for fold, (inner_tr, inner_te) in enumerate(leave_one_out(tr.size, groups=groups)):
        a, b = tr[inner_tr], tr[inner_te]
        Xa, Xb, _ = guyon_preprocess(ds.X[a], ds.X[b], dataset, **prep)
        ya, yb = ds.y[a], ds.y[b].astype(int)
        sizes = _sizes(Xa.shape[1], max_size)
        sel, make_clf = _rank_genes(method, Xa, ya, C, step)
        conv_from = _converged_down_to(sel) if method == "svm-rfe" else 0
        if method == "svm-rfe":
            outs = _stage_outputs(sel, Xa, ya, Xb, set(sizes))
        else:
            outs = {}
            for size in sizes:
                g = sel.subset(size)
                with warnings.catch_warnings():  # a constant weighted vote is scored for what it predicts
                    warnings.simplefilter("ignore", DegenerateModelWarning)
                    outs[size] = make_clf().fit(Xa[:, g], ya).decision_function(Xb[:, g])
        status = _hard_margin_statuses(C, Xa, ya, sel, sizes, conv_from)
        for size in sizes:
            sep, conv = status[int(size)]
            for j, yj in enumerate(yb):  # one row per held-out sample (a group holds several)
                rows.append({"fold": fold, "n_genes": int(size), "all_genes": bool(size == Xa.shape[1]),
                             "y": int(yj), "output": float(outs[size][j]) if sep and conv else np.nan,
                             "separable": bool(sep), "converged": bool(conv)})
    return rows


def loo_metrics_from_outputs(df, by=("dataset", "method", "n_genes")):
    """Guyon's V_* from per-fold leave-one-out outputs (columns ``y`` and ``output``), one row per group.

    Rows marked ``all_genes`` are pooled under the largest gene count among them (folds can keep slightly
    different numbers of genes). A group with a missing output (a fold where the hard margin does not exist)
    gets NaN metrics and ``V_errors``.
    """
    df = df.copy()
    by = list(by)
    if "all_genes" in df and df["all_genes"].any():
        rest = [c for c in by if c != "n_genes"]
        mask = df["all_genes"].astype(bool)
        if rest:
            top = df[mask].groupby(rest, sort=False)["n_genes"].transform("max")
        else:
            top = df.loc[mask, "n_genes"].max()
        df.loc[mask, "n_genes"] = top
    rows = []
    for key, g in df.groupby(by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        head = {**dict(zip(by, key)), "n_folds": len(g)}
        if "all_genes" in g:
            head["all_genes"] = bool(g["all_genes"].any())
        out = g["output"].to_numpy(dtype=float)
        yv = g["y"].to_numpy()
        if np.isnan(out).any():
            rows.append({**head, **{f"V_{k}": np.nan for k in METRIC_NAMES}, "V_errors": np.nan})
            continue
        m = quality_metrics(yv, out, pos_label=1)
        rows.append({**head, **{f"V_{k}": m[k] for k in METRIC_NAMES}, "V_errors": int(np.sum(yv * out <= 0))})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------------------
# the grids: the notebook's setting (sections 1, 2) and every setting of 2002 (section 3)
# ------------------------------------------------------------------------------------------------------------

C_VALUES = (0.01, 0.1, 1.0, 10.0, 100.0, math.inf)
STEPS = ("halving", 1)
#: the preprocessing and SVM-RFE options that make a setting
SETTING_COLUMNS = ["thresholds", "gene_filter", "standardize", "squash", "C", "step"]


def setting_for(dataset, setting) -> dict:
    """The notebook's setting as applied to ``dataset``: Golub-scale thresholds and Dudoit's filter only on
    leukemia (the Hu6800 intensities they were defined for); everything else as given."""
    s = dict(setting)
    if dataset != "golub":
        s.update(thresholds="genesel", gene_filter="none")
    return s


def setting_options(dataset, quick=False) -> dict:
    """The values of each setting tried on ``dataset``: thresholds and Dudoit's filter on leukemia (the Affymetrix
    set they were defined for), squashing on colon (where the paper squashes), standardisation, C and step on
    every set. Quick: the genesel reading with C in {1, 100}, halving, all three standardisations."""
    opts = dict(thresholds=["genesel"], gene_filter=["none"], standardize=list(STANDARDIZE), squash=["none"],
                C=list(C_VALUES), step=list(STEPS))
    if dataset == "golub":
        opts.update(thresholds=list(THRESHOLDS), gene_filter=list(GENE_FILTERS))
    if dataset == "alon":
        opts.update(squash=list(SQUASH))
    if quick:
        opts.update(thresholds=["genesel"], gene_filter=["none"], squash=["none"], C=[1.0, 100.0],
                    step=["halving"])
    return opts


def cell(dataset, method, split, setting, *, seed=0, max_size=None) -> dict:
    """One grid cell (for ``guyon2002_curves`` or ``guyon2002_loo_folds``); the baseline ignores C and step."""
    svm = method == "svm-rfe"
    return dict(dataset=dataset, method=method, C=float(setting["C"]) if svm else None,
                step=setting["step"] if svm else None, split=split, seed=int(seed), max_size=max_size,
                thresholds=setting["thresholds"], gene_filter=setting["gene_filter"],
                standardize=setting["standardize"], squash=setting["squash"])


def _settings(dataset, quick):
    opts = setting_options(dataset, quick)
    keys = SETTING_COLUMNS
    for combo in itertools.product(*(opts[k] for k in keys)):
        yield dict(zip(keys, combo))


def sensitivity_cells(datasets, loo_splits, *, quick=False, seed=0, max_size=None):
    """(curve cells, fold cells) of the sensitivity grid: every setting of :func:`setting_options`, both
    methods (the baseline once per preprocessing), the paper's protocol on ``loo_splits[dataset]`` and, in full
    mode, the same with selection inside each leave-one-out fold (none in quick mode). ``max_size``: skip the
    subsets between it and all genes (quick runs)."""
    curve_cells, seen = [], set()
    for ds in datasets:
        for s in _settings(ds, quick):
            for method in ("svm-rfe", "baseline"):
                c = cell(ds, method, loo_splits[ds], s, seed=seed, max_size=max_size)
                key = tuple(sorted((k, str(v)) for k, v in c.items()))
                if key not in seen:
                    seen.add(key)
                    curve_cells.append(c)
    fold_cells = [] if quick else [dict(c) for c in curve_cells]
    return curve_cells, fold_cells


def curve_cells(datasets, protocol, setting, *, seed=0, max_size=None) -> list:
    """Section 1: :func:`guyon2002_curves` of both methods under ``setting`` on each data set's curve split and
    leave-one-out split (``protocol``: {data set: :func:`guyon_protocol`})."""
    return [cell(d, method, split, setting_for(d, setting), seed=seed, max_size=max_size)
            for d in datasets for split in sorted({protocol[d]["curve_split"], protocol[d]["loo_split"]})
            for method in GUYON_METHODS]


def fold_cells(datasets, protocol, setting, *, seed=0, max_size=None) -> list:
    """Section 2: :func:`guyon2002_loo_folds` of both methods under ``setting`` on each leave-one-out split."""
    return [cell(d, m, protocol[d]["loo_split"], setting_for(d, setting), seed=seed, max_size=max_size)
            for d in datasets for m in GUYON_METHODS]
