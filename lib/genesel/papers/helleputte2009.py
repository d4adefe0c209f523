"""Helleputte & Dupont (2009): everything notebook 03 needs that is not an algorithm (the transfer protocol).

T. Helleputte, P. Dupont, *Feature Selection by Transfer Learning with Linear Regularized Models* (slides, 2009;
the method of *Partially supervised feature selection with regularized linear models*, ICML 2009). The algorithm,
(PS-)l2-AROM, is :class:`genesel.arom.L2AROM`; the Kuncheva index and the BCR are in :mod:`genesel.stability` and
:mod:`genesel.metrics`. Here: the studies aligned on their shared probe IDs, which transfers the data allow, the
prior relevance vector built from source studies, one grid cell per (target, resampling, method), and the summaries
and figures of the notebook.

The protocol (the slides' "Protocol 1: single transfer" and "Protocol 2: multiple transfer" are figures without
text; every choice below is ours and is stated in the notebook):

* Studies: the prostate tumour-vs-normal sets Singh, Welsh and Chandran (primary tumours; metastases) aligned on
  the probe IDs they all share (:func:`genesel.datasets.align_studies`; 12533 here).
* A source study gives a ranking of all genes: l2-AROM (no prior) on the whole source study, each study log-
  transformed and standardised on itself (:func:`source_order`).
* "B" (undefined in the slides' text): the number of top-ranked genes of each source that receive prior relevance.
  With several sources, beta_j = 1 + (strength - 1) * (fraction of the sources whose top B hold gene j), so one
  source gives beta = strength on its top B and 1 elsewhere (:func:`transfer_prior`).
* Target: ``n_splits`` stratified resamplings (``test_fraction`` held out); on each, preprocessing is fitted on the
  training part, then l2-AROM (no transfer), PS-l2-AROM with each single source, PS-l2-AROM with the sources
  combined, and SVM-RFE (Guyon 2002, halving, as a sanity check) each give a complete gene order; the signature of
  size s is its first s genes, and a linear SVM (C = 1) trained on them is tested on the held-out part (BCR).
  Selection never sees the held-out part; the sources never contain target samples.
* A study is never a source of a study it shares samples with (detected, not assumed: identical expression rows;
  the two Chandran sets share their 18 normal arrays). For multiple transfer, sources sharing samples with each
  other count once (the first listed is kept).
"""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pandas as pd

from genesel import DegenerateModelWarning
from genesel.arom import L2AROM
from genesel.dataref import cached_by_content
from genesel.datasets import align_studies, display_name, recommended_preprocessing
from genesel.experiments import random_splits, single_blas_thread
from genesel.metrics import balanced_classification_rate
from genesel.papers.common import is_user_file, load_task
from genesel.preprocessing import GeneStandardizer
from genesel.rfe import SVMRFE
from genesel.svm import KernelSVM

__all__ = ["PROSTATE", "SIZES", "B_DEFAULT", "STRENGTH_DEFAULT", "B_GRID", "TEST_FRACTION", "AROM_C", "SVM_C",
           "STUDY_NAMES", "study_name", "aligned_studies", "shared_samples", "transfer_design", "source_order",
           "transfer_prior", "protocol_cells", "transfer_cell", "sparsification_paths"]

#: The prostate studies of the slides (Chandran's tumours come as primary and metastasis sets here).
PROSTATE = ("singh", "welsh", "chandran_primary", "chandran_metastasis")
#: Signature sizes (the slides' curves run from a handful of genes to about a thousand).
SIZES = (5, 10, 20, 50, 100, 200, 500, 1000)
B_DEFAULT = 100
STRENGTH_DEFAULT = 2.0
B_GRID = (10, 20, 50, 100, 200, 500, 1000)
TEST_FRACTION = 0.1
AROM_C = 1e3  # hard margin in effect (the dual variables stay far below it on these data)
SVM_C = 1.0  # the classifier trained on each signature

#: The slides' names of the prostate studies (by first author; Chandran's tumours come as two sets here).
STUDY_NAMES = {"singh": "Singh", "welsh": "Welsh", "chandran_primary": "Chandran (primary)",
               "chandran_metastasis": "Chandran (metastasis)"}


def study_name(name: str) -> str:
    """A study's name for tables and figures ("Chandran (primary)"); other data sets keep their registry name."""
    return display_name(name, STUDY_NAMES, fallback="name")


# ----------------------------------------------------------------------------------------------------------------
# Studies, shared samples, which transfers the data allow
# ----------------------------------------------------------------------------------------------------------------


@cached_by_content(maxsize=8)
def _aligned(names: tuple) -> dict:
    out = align_studies([load_task(n) for n in names], min_shared=1)
    return {n: ds for n, ds in zip(names, out)}


def aligned_studies(names) -> dict:
    """{name: Dataset} of the studies ``names`` restricted to the probe IDs they all share (same column order).

    Refuses studies that share fewer than half of the smallest study's genes (different platforms), naming them."""
    names = tuple(dict.fromkeys(names))
    try:
        out = _aligned(names)
    except ValueError as exc:
        raise ValueError(f"studies {list(names)} cannot be aligned for transfer: {exc}") from None
    d = next(iter(out.values())).n_genes
    smallest = min(load_task(n).n_genes for n in names)
    if d < smallest / 2:
        raise ValueError(f"studies {list(names)} share only {d} gene IDs out of {smallest}: transfer needs studies of "
                         "one platform (e.g. the prostate sets singh, welsh, chandran_primary, chandran_metastasis, "
                         "or the lung outcome sets harvard and michigan)")
    return out


def _row_hashes(X) -> set:
    return {hashlib.sha256(np.ascontiguousarray(r).tobytes()).hexdigest() for r in np.asarray(X, dtype=np.float64)}


def shared_samples(a, b) -> int:
    """Number of samples of aligned study ``a`` whose expression row also occurs, identically, in study ``b``."""
    if a.n_genes != b.n_genes or not np.array_equal(np.asarray(a.gene_ids), np.asarray(b.gene_ids)):
        raise ValueError(f"{a.name} and {b.name} are not aligned on the same genes; use aligned_studies first")
    hb = _row_hashes(b.X)
    return sum(h in hb for h in _row_hashes(a.X))


def transfer_design(targets, sources, studies: dict) -> tuple[list, pd.DataFrame]:
    """Which transfers the data allow.

    Returns (directions, exclusions). ``directions``: list of (target, kind, sources) with kind "single" (one
    source, every source that shares no sample with the target) or "multiple" (the sources that share no sample
    with the target, one of each group of sources sharing samples with each other, in the order given; only when
    at least two remain). ``exclusions``: a frame of the (target, source) pairs left out and why.
    """
    shared = {}
    for a in set(targets) | set(sources):
        for b in set(targets) | set(sources):
            if a < b:
                shared[a, b] = shared[b, a] = shared_samples(studies[a], studies[b])
    directions, excl = [], []
    for t in targets:
        usable = []
        for s in sources:
            if s == t:
                continue
            if shared[t, s]:
                excl.append(dict(target=study_name(t), source=study_name(s),
                                 reason=f"shares {shared[t, s]} samples with the target"))
                continue
            usable.append(s)
            directions.append((t, "single", (s,)))
        multi = []
        for s in usable:
            clash = [m for m in multi if shared[s, m]]
            if clash:
                excl.append(dict(target=study_name(t), source=study_name(s),
                                 reason=f"left out of the multiple transfer: shares {shared[s, clash[0]]} samples "
                                        f"with source {study_name(clash[0])}"))
                continue
            multi.append(s)
        if len(multi) >= 2:
            directions.append((t, "multiple", tuple(multi)))
    excl = pd.DataFrame(excl, columns=["target", "source", "reason"])
    if not directions:
        why = "; ".join(f"{r.source} for {r.target}: {r.reason}" for r in excl.itertuples()) or \
            "every source is the target itself"
        raise ValueError(f"no transfer is possible from sources {list(sources)} to targets {list(targets)} ({why}); "
                         "give source studies that share no samples with the targets, e.g. sources: [singh, welsh]")
    return directions, excl


# ----------------------------------------------------------------------------------------------------------------
# Source rankings and the prior relevance vector
# ----------------------------------------------------------------------------------------------------------------


@cached_by_content(maxsize=16)
def _logged(name: str, studies: tuple) -> np.ndarray:
    """The study's values after the data set's stateless transformation (log of floored intensities, or nothing
    for data already on a log scale), computed once; standardisation is fitted later, on training parts only."""
    ds = aligned_studies(studies)[name]
    return recommended_preprocessing(name, standardize=False).fit_transform(ds.X)


def _standardise(X_fit, *others):
    st = GeneStandardizer(on_constant="zero").fit(X_fit)
    return [st.transform(X_fit)] + [st.transform(X) for X in others]


@cached_by_content(maxsize=32)
def _source_order(source: str, studies: tuple) -> np.ndarray:
    ds = aligned_studies(studies)[source]
    (X,) = _standardise(_logged(source, studies))
    return L2AROM(C=AROM_C).fit(X, ds.y).feature_order_


def source_order(source: str, studies) -> np.ndarray:
    """All genes of the aligned universe, best first, by l2-AROM (no prior) on the whole source study."""
    return _source_order(source, tuple(studies)).copy()


def transfer_prior(orders, B: int, strength: float, n_features: int) -> np.ndarray:
    """The relevance vector beta: 1 + (strength - 1) * (fraction of the source orders whose top ``B`` hold gene j).

    One source: beta = ``strength`` on its top B genes, 1 elsewhere. ``B`` is the slides' "B"."""
    orders = [np.asarray(o) for o in orders]
    if not orders:
        raise ValueError("transfer_prior needs at least one source ranking")
    if not 1 <= int(B) <= n_features:
        raise ValueError(f"B (the number of top source genes given prior relevance) must be in 1..{n_features}, "
                         f"got {B}")
    if not strength > 0:
        raise ValueError(f"strength (the prior relevance of the top B genes) must be > 0, got {strength}")
    count = np.zeros(n_features)
    for o in orders:
        if o.size != n_features:
            raise ValueError(f"a source ranking covers {o.size} genes but the target has {n_features}: align the "
                             "studies on their shared probe IDs first")
        count[o[: int(B)]] += 1.0
    return 1.0 + (float(strength) - 1.0) * count / len(orders)


# ----------------------------------------------------------------------------------------------------------------
# The grid: one cell = (target, resampling, method)
# ----------------------------------------------------------------------------------------------------------------


def protocol_cells(directions, targets, studies, *, n_splits, B=B_DEFAULT, strength=STRENGTH_DEFAULT, B_grid=(),
                   sizes=SIZES, test_fraction=TEST_FRACTION, seed=0, rfe=True):
    """The cells of the protocol: per target and resampling, no transfer, every direction at ``B``, SVM-RFE, and
    the multiple transfer (or, without one, every single transfer) at each B of ``B_grid``."""
    common = dict(studies=list(studies), sizes=[int(s) for s in sizes], test_fraction=float(test_fraction),
                  seed=int(seed))
    cells = []
    for t in targets:
        dirs = [d for d in directions if d[0] == t]
        sens = [d for d in dirs if d[1] == "multiple"] or dirs
        for i in range(int(n_splits)):
            base = dict(target=t, split=i, **common)
            cells.append(dict(base, method="none", sources=[], B=0, strength=1.0))
            if rfe:
                cells.append(dict(base, method="rfe", sources=[], B=0, strength=1.0))
            for _, kind, src in dirs:
                cells.append(dict(base, method=kind, sources=list(src), B=int(B), strength=float(strength)))
            for _, kind, src in sens:
                for b in B_grid:
                    if int(b) != int(B):
                        cells.append(dict(base, method=kind, sources=list(src), B=int(b), strength=float(strength)))
    return cells


def _split(y, split, test_fraction, seed, groups=None):
    n = y.size
    n_test = max(2, int(round(test_fraction * n)))
    return random_splits(y, n - n_test, split + 1, seed, stratified=True, groups=groups)[split]


def _rfe_order(X, y):
    """SVM-RFE (halving, C = 1) order of all genes; genes constant on the training part go last."""
    var = np.ptp(X, axis=0) > 0
    cols = np.flatnonzero(var)
    rfe = SVMRFE(n_features_to_select=1, step="halving", C=1.0, tol=1e-6).fit(X[:, cols], y)
    return np.concatenate([cols[rfe.feature_order_], np.flatnonzero(~var)])


def transfer_cell(target, split, method, sources, B, strength, studies, sizes, test_fraction, seed):
    """One resampling of ``target`` with one method; a row per signature size.

    Rows: ``size``, ``bcr`` (balanced classification rate of a linear SVM, C = 1, trained on the signature and
    tested on the held-out part), ``genes`` (the signature, column indices in the aligned universe), ``n_test``,
    and, for the l2-AROM methods, ``n_active`` (genes active at convergence), ``n_iter`` and ``converged``.
    """
    st = aligned_studies(studies)
    ds = st[target]
    tr, te = _split(ds.y, split, test_fraction, seed, ds.groups)
    if is_user_file(target):  # a researcher's file: its decision (log, count normalisation) fitted on the training part
        scale = recommended_preprocessing(ds, standardize=False).fit(ds.X[tr])
        Xtr, Xte = _standardise(scale.transform(ds.X[tr]), scale.transform(ds.X[te]))
    else:
        L = _logged(target, tuple(studies))
        Xtr, Xte = _standardise(L[tr], L[te])
    ytr, yte = ds.y[tr], ds.y[te]
    d = Xtr.shape[1]
    extra = {}
    if method == "rfe":
        order = _rfe_order(Xtr, ytr)
    elif method in ("none", "single", "multiple"):
        prior = None
        if method != "none":
            prior = transfer_prior([_source_order(s, tuple(studies)) for s in sources], B, strength, d)
        sel = L2AROM(prior=prior, C=AROM_C).fit(Xtr, ytr)
        order = sel.feature_order_
        extra = dict(n_active=sel.n_active_, n_iter=sel.n_iter_, converged=sel.converged_)
    else:
        raise ValueError(f"method must be 'none', 'single', 'multiple' or 'rfe', got {method!r}")
    rows = []
    for s in sizes:
        g = np.sort(order[: int(s)])
        bcr = balanced_classification_rate(yte, _svm_predict(Xtr[:, g], ytr, Xte[:, g]))
        rows.append(dict(size=int(s), bcr=bcr, n_test=int(te.size), genes=g.tolist(), **extra))
    return rows


def _svm_predict(Xtr, ytr, Xte):
    """Labels of ``Xte`` by the linear SVM (C = SVM_C, tol 1e-6) trained on ``Xtr``: ``KernelSVM`` on the linear
    Gram matrices (the decision values are those of :class:`genesel.svm.LinearSVM` up to rounding). A fit that ends
    as a one-class model is scored for what it predicts, like any other."""
    with single_blas_thread():
        K, K_test = Xtr @ Xtr.T, Xte @ Xtr.T
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateModelWarning)
            return KernelSVM(kernel="precomputed", C=SVM_C, tol=1e-6).fit(K, ytr).predict(K_test)


def sparsification_paths(studies) -> pd.DataFrame:
    """Genes still active after each l2-AROM iteration (0: the start) on every whole study (preprocessed on
    itself)."""
    rows = []
    for name, ds in aligned_studies(studies).items():
        (X,) = _standardise(_logged(name, tuple(studies)))
        sel = L2AROM(C=AROM_C).fit(X, ds.y)
        for k, a in enumerate(sel.active_path_):  # active_path_[k]: active after k iterations
            rows.append(dict(study=study_name(name), iteration=k, active=int(a)))
        rows.append(dict(study=study_name(name), iteration=sel.n_iter_, active=sel.n_active_))
    return pd.DataFrame(rows)
