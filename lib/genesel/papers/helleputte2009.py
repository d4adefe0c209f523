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
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import wilcoxon

from genesel._core.threads import single_blas_thread
from genesel.arom import L2AROM
from genesel.datasets import align_studies, load_dataset, recommended_preprocessing
from genesel.experiments import random_splits
from genesel.metrics import balanced_classification_rate
from genesel.rfe import SVMRFE
from genesel.preprocessing import GeneStandardizer
from genesel.svm import solve_svm_dual

__all__ = ["PROSTATE", "SIZES", "B_DEFAULT", "STRENGTH_DEFAULT", "B_GRID", "TEST_FRACTION", "AROM_C", "SVM_C",
           "display_name", "aligned_studies", "shared_samples", "transfer_design", "source_order", "transfer_prior",
           "method_label", "protocol_cells", "transfer_cell", "kuncheva_pairs", "stability_summary", "bcr_summary",
           "transfer_effects", "b_sensitivity", "claims", "sparsification_paths", "selection_frequency_table",
           "plot_curves", "plot_gain", "plot_b_sensitivity", "plot_sparsification"]

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

_NAMES = {"singh": "Singh", "welsh": "Welsh", "chandran_primary": "Chandran (primary)",
          "chandran_metastasis": "Chandran (metastasis)"}


def display_name(name: str) -> str:
    """A study's name for tables and figures ("Chandran (primary)"); other data sets keep their registry name."""
    return _NAMES.get(name, name)


# ----------------------------------------------------------------------------------------------------------------
# Studies, shared samples, which transfers the data allow
# ----------------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _aligned(names: tuple) -> dict:
    out = align_studies([load_dataset(n) for n in names], min_shared=1)
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
    smallest = min(load_dataset(n).n_genes for n in names)
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
                excl.append(dict(target=display_name(t), source=display_name(s),
                                 reason=f"shares {shared[t, s]} samples with the target"))
                continue
            usable.append(s)
            directions.append((t, "single", (s,)))
        multi = []
        for s in usable:
            clash = [m for m in multi if shared[s, m]]
            if clash:
                excl.append(dict(target=display_name(t), source=display_name(s),
                                 reason=f"left out of the multiple transfer: shares {shared[s, clash[0]]} samples "
                                        f"with source {display_name(clash[0])}"))
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


def method_label(method: str, sources=()) -> str:
    """Readable name of a method: "l2-AROM (no transfer)", "PS-l2-AROM from Welsh", "SVM-RFE", ..."""
    if method == "none":
        return "l2-AROM (no transfer)"
    if method == "rfe":
        return "SVM-RFE (Guyon, halving)"
    names = " + ".join(display_name(s) for s in sources)
    return f"PS-l2-AROM from {names}"


# ----------------------------------------------------------------------------------------------------------------
# Source rankings and the prior relevance vector
# ----------------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _logged(name: str, studies: tuple) -> np.ndarray:
    """The study's values after the data set's stateless transformation (log of floored intensities, or nothing
    for data already on a log scale), computed once; standardisation is fitted later, on training parts only."""
    ds = aligned_studies(studies)[name]
    return recommended_preprocessing(name, standardize=False).fit_transform(ds.X)


def _standardise(X_fit, *others):
    st = GeneStandardizer(on_constant="zero").fit(X_fit)
    return [st.transform(X_fit)] + [st.transform(X) for X in others]


@lru_cache(maxsize=32)
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


def _split(y, split, test_fraction, seed):
    n = y.size
    n_test = max(2, int(round(test_fraction * n)))
    return random_splits(y, n - n_test, split + 1, seed, stratified=True)[split]


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
    tr, te = _split(ds.y, split, test_fraction, seed)
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
    """Labels (-1/+1) of ``Xte`` by the linear SVM (C = SVM_C) trained on ``Xtr``: the computation of
    :class:`genesel.svm.LinearSVM` (same solver, same tolerance) without its per-call input checks."""
    yf = ytr.astype(np.float64)
    with single_blas_thread():
        res = solve_svm_dual(Xtr @ Xtr.T, yf, SVM_C, tol=1e-6)
        w = Xtr.T @ (res["alpha"] * yf)
        dec = Xte @ w - res["rho"]
    return np.where(dec > 0, 1, -1)


# ----------------------------------------------------------------------------------------------------------------
# Summaries
# ----------------------------------------------------------------------------------------------------------------


def kuncheva_pairs(signatures, n_features: int) -> np.ndarray:
    """The matrix of pairwise Kuncheva indices (r n - s^2) / (s (n - s)) of equal-size signatures (lists of
    column indices); the index of the collection is the mean of its upper triangle."""
    sigs = [np.asarray(s, dtype=np.int64) for s in signatures]
    s = sigs[0].size
    if any(x.size != s for x in sigs):
        raise ValueError("the Kuncheva index compares signatures of equal size")
    if not 0 < s < n_features:
        raise ValueError(f"signature size must be in 1..{n_features - 1}, got {s}")
    rows = np.repeat(np.arange(len(sigs)), s)
    M = sparse.csr_matrix((np.ones(rows.size), (rows, np.concatenate(sigs))), shape=(len(sigs), n_features))
    r = (M @ M.T).toarray()  # shared genes of every pair
    return (r * n_features - s * s) / (s * (n_features - s))


def _boot_means(P, counts):
    """Mean pairwise index of bootstrap samples given as multiplicities ``counts`` (n_boot x R): over the pairs of
    drawn positions that hold different resamplings (a resampling drawn twice is not a pair of signatures)."""
    quad = ((counts @ P) * counts).sum(1) - (counts**2) @ np.diag(P)
    pairs = counts.sum(1) ** 2 - (counts**2).sum(1)
    out = np.full(quad.shape, np.nan)
    np.divide(quad, pairs, out=out, where=pairs > 0)  # NaN for a draw of one resampling only (no pair)
    return out


def _boot_counts(rng, R, n_boot):
    """Multiplicities of the resamplings in ``n_boot`` bootstrap draws of R out of R (n_boot x R)."""
    idx = rng.integers(0, R, (n_boot, R)) + R * np.arange(n_boot)[:, None]
    return np.bincount(idx.ravel(), minlength=n_boot * R).reshape(n_boot, R).astype(float)


def _keys(res):
    out = res.copy()
    out["sources"] = out["sources"].map(tuple)
    return out


def stability_summary(res, n_features: int, *, n_boot=200, seed=0) -> pd.DataFrame:
    """Kuncheva index per (target, method, sources, B, size) over the resamplings, with a bootstrap 95 % interval
    (resamplings drawn with replacement; seeded)."""
    rng = np.random.default_rng(seed)
    rows = []
    for key, g in _keys(res).groupby(["target", "method", "sources", "B", "size"], sort=False):
        g = g.sort_values("split")
        P = kuncheva_pairs(g["genes"].tolist(), n_features)
        R = P.shape[0]
        ki = float(P[np.triu_indices(R, 1)].mean())
        boots = _boot_means(P, _boot_counts(rng, R, n_boot)) if R > 2 else [np.nan]
        rows.append(dict(zip(["target", "method", "sources", "B", "size"], key), kuncheva=ki,
                         lo=float(np.nanpercentile(boots, 2.5)), hi=float(np.nanpercentile(boots, 97.5)),
                         n_splits=R))
    return pd.DataFrame(rows)


def bcr_summary(res) -> pd.DataFrame:
    """Mean BCR per (target, method, sources, B, size) over the resamplings, with its standard error."""
    g = _keys(res).groupby(["target", "method", "sources", "B", "size"], sort=False)["bcr"]
    out = g.agg(bcr="mean", sd="std", n_splits="size").reset_index()
    out["sem"] = out["sd"] / np.sqrt(out["n_splits"])
    return out


def transfer_effects(res, n_features: int, *, B=B_DEFAULT, n_boot=200, seed=0) -> pd.DataFrame:
    """Each transfer direction (at ``B``) against no transfer on the same resamplings, per signature size.

    Columns: target, method, sources, size, d_kuncheva (paired bootstrap 95 % interval d_k_lo, d_k_hi),
    d_bcr (mean paired difference, standard error d_bcr_sem) and p_bcr (two-sided Wilcoxon signed-rank test over resamplings; 1 when every
    difference is 0)."""
    rng = np.random.default_rng(seed)
    r = _keys(res)
    base = r[r["method"] == "none"].set_index(["target", "size", "split"]).sort_index()
    rows = []
    tr = r[r["method"].isin(["single", "multiple"]) & (r["B"] == B)]
    for (t, m, src, s), g in tr.groupby(["target", "method", "sources", "size"], sort=False):
        g = g.sort_values("split")
        b = base.loc[(t, s)].loc[g["split"].to_numpy()]
        Pt = kuncheva_pairs(g["genes"].tolist(), n_features)
        Pb = kuncheva_pairs(b["genes"].tolist(), n_features)
        R = Pt.shape[0]
        iu = np.triu_indices(R, 1)
        dk = float(Pt[iu].mean() - Pb[iu].mean())
        boots = []
        if R > 2:
            cnt = _boot_counts(rng, R, n_boot)
            boots = _boot_means(Pt, cnt) - _boot_means(Pb, cnt)
        diff = g["bcr"].to_numpy() - b["bcr"].to_numpy()
        p = 1.0 if np.all(diff == 0) else float(wilcoxon(diff, zero_method="zsplit").pvalue)
        rows.append(dict(target=t, method=m, sources=src, size=int(s), d_kuncheva=dk,
                         d_bcr_sem=float(diff.std(ddof=1) / np.sqrt(diff.size)) if diff.size > 1 else np.nan,
                         d_k_lo=float(np.nanpercentile(boots, 2.5)) if len(boots) else np.nan,
                         d_k_hi=float(np.nanpercentile(boots, 97.5)) if len(boots) else np.nan,
                         d_bcr=float(diff.mean()), p_bcr=p, n_splits=R))
    return pd.DataFrame(rows)


def b_sensitivity(stab: pd.DataFrame, bcr: pd.DataFrame) -> pd.DataFrame:
    """Per target and transfer (the one run at every B), the spread over B of the Kuncheva index and of the BCR,
    averaged over signature sizes: max - min over B of the size-averaged value."""
    keys = ["target", "method", "sources"]
    both = stab.merge(bcr, on=keys + ["B", "size"])
    tr = both[both["method"].isin(["single", "multiple"])]
    nb = tr.groupby(keys)["B"].nunique()
    multi = nb[nb > 2].index
    rows = []
    for key in multi:
        g = tr.set_index(keys).loc[key].reset_index()
        per_b = g.groupby("B")[["kuncheva", "bcr"]].mean()
        rows.append(dict(zip(keys, key), B_values=", ".join(str(int(b)) for b in per_b.index),
                         kuncheva_min=per_b["kuncheva"].min(), kuncheva_max=per_b["kuncheva"].max(),
                         kuncheva_spread=per_b["kuncheva"].max() - per_b["kuncheva"].min(),
                         bcr_min=per_b["bcr"].min(), bcr_max=per_b["bcr"].max(),
                         bcr_spread=per_b["bcr"].max() - per_b["bcr"].min()))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------------------------
# The take-home claims, judged on the numbers
# ----------------------------------------------------------------------------------------------------------------

#: Rules of the verdicts (shown in the notebook). A direction = (target, transfer) at the default B.
CLAIM_RULES = {
    "direction improves BCR": "mean over signature sizes of the paired BCR difference > 0 with Wilcoxon p < 0.05 "
                              "(worse: < 0 with p < 0.05)",
    "direction improves stability": "size-averaged Kuncheva difference > 0 with its bootstrap 95 % interval above 0 "
                                    "(worse: interval below 0)",
    "holds": "the direction-level condition in at least 3/4 of the directions and the opposite in none",
    "holds partly": "the condition in at least one direction",
    "does not hold here": "in no direction",
    "small signatures": "the effect at s <= 20 exceeds the effect at s >= 200, for both measures",
    "insensitive to B": "over B, the size-averaged BCR moves by at most 0.02 and the Kuncheva index by at most 0.05 "
                        "for every target",
}


def _direction_tests(res, n_features, B, n_boot, seed):
    r = _keys(res)
    base = r[r["method"] == "none"]
    rng = np.random.default_rng(seed)
    out = []
    tr = r[r["method"].isin(["single", "multiple"]) & (r["B"] == B)]
    for (t, m, src), g in tr.groupby(["target", "method", "sources"], sort=False):
        b = base[base["target"] == t]
        pt = g.pivot_table(index="split", columns="size", values="bcr")
        pb = b.pivot_table(index="split", columns="size", values="bcr").loc[pt.index, pt.columns]
        diff = (pt - pb).mean(axis=1).to_numpy()
        p = 1.0 if np.all(diff == 0) else float(wilcoxon(diff, zero_method="zsplit").pvalue)
        sizes = sorted(g["size"].unique())
        Pt = {s: kuncheva_pairs(g[g["size"] == s].sort_values("split")["genes"].tolist(), n_features) for s in sizes}
        Pb = {s: kuncheva_pairs(b[b["size"] == s].set_index("split").loc[pt.index, "genes"].tolist(), n_features)
              for s in sizes}
        R = len(pt)
        iu = np.triu_indices(R, 1)
        dk = {s: Pt[s][iu].mean() - Pb[s][iu].mean() for s in sizes}
        lo = hi = np.nan
        if R > 2:
            cnt = _boot_counts(rng, R, n_boot)
            boots = np.mean([_boot_means(Pt[s], cnt) - _boot_means(Pb[s], cnt) for s in sizes], axis=0)
            lo, hi = np.nanpercentile(boots, [2.5, 97.5])
        small = [s for s in sizes if s <= 20]
        large = [s for s in sizes if s >= 200]
        dsize = (pt - pb).mean(axis=0)
        out.append(dict(target=t, method=m, sources=src, d_bcr=float(diff.mean()), p_bcr=p,
                        d_kuncheva=float(np.mean(list(dk.values()))), d_k_lo=float(lo), d_k_hi=float(hi),
                        d_bcr_small=float(dsize[small].mean()) if small else np.nan,
                        d_bcr_large=float(dsize[large].mean()) if large else np.nan,
                        d_k_small=float(np.mean([dk[s] for s in small])) if small else np.nan,
                        d_k_large=float(np.mean([dk[s] for s in large])) if large else np.nan, n_splits=R))
    return pd.DataFrame(out)


def _verdict(good: int, bad: int, total: int) -> str:
    if total == 0:
        return "not tested"
    if good >= 0.75 * total and bad == 0:
        return "holds"
    if good >= 1:
        return "holds partly"
    return "does not hold here"


def claims(res, n_features: int, *, B=B_DEFAULT, sens: pd.DataFrame | None = None, n_boot=200, seed=0):
    """(direction tests, claim rows for :func:`genesel.experiments.paper_vs_genesel`): each take-home message of
    the slides judged on the numbers by the rules of :data:`CLAIM_RULES`."""
    d = _direction_tests(res, n_features, B, n_boot, seed)
    if d.empty:
        return d, []
    n = len(d)
    bcr_up = (d["d_bcr"] > 0) & (d["p_bcr"] < 0.05)
    bcr_down = (d["d_bcr"] < 0) & (d["p_bcr"] < 0.05)
    k_up = d["d_k_lo"] > 0
    k_down = d["d_k_hi"] < 0

    def span(col):
        return f"{d[col].min():+.3f} to {d[col].max():+.3f}"

    rows = []
    rows.append(dict(quantity="transfer improves classification performance (BCR)",
                     protocol=f"{n} directions at B = {B}, {int(d['n_splits'].min())} resamplings each",
                     paper="improves", genesel=_verdict(int(bcr_up.sum()), int(bcr_down.sum()), n),
                     note=f"better in {int(bcr_up.sum())}, worse in {int(bcr_down.sum())}, no clear difference in "
                          f"{n - int(bcr_up.sum()) - int(bcr_down.sum())} of {n} directions; size-averaged "
                          f"BCR difference {span('d_bcr')}"))
    rows.append(dict(quantity="transfer improves stability (Kuncheva index)",
                     protocol=f"{n} directions at B = {B}", paper="improves",
                     genesel=_verdict(int(k_up.sum()), int(k_down.sum()), n),
                     note=f"more stable in {int(k_up.sum())}, less in {int(k_down.sum())} of {n} directions; "
                          f"size-averaged Kuncheva difference {span('d_kuncheva')}"))
    sm_b = d["d_bcr_small"] > d["d_bcr_large"]
    sm_k = d["d_k_small"] > d["d_k_large"]
    both = int((sm_b & sm_k).sum())
    v = "holds" if both >= 0.75 * n else ("holds partly" if (sm_b | sm_k).any() else "does not hold here")
    rows.append(dict(quantity="strongest effect for small signatures",
                     protocol="effect at s <= 20 vs s >= 200", paper="strong effect for small signatures",
                     genesel=v,
                     note=f"BCR effect larger at small s in {int(sm_b.sum())}/{n} directions (mean "
                          f"{d['d_bcr_small'].mean():+.3f} vs {d['d_bcr_large'].mean():+.3f}); Kuncheva effect "
                          f"larger at small s in {int(sm_k.sum())}/{n} (mean {d['d_k_small'].mean():+.3f} vs "
                          f"{d['d_k_large'].mean():+.3f})"))
    parts = []
    kinds_ok = []
    for kind in ("single", "multiple"):
        m = d["method"] == kind
        if m.any():
            ok = int((k_up[m] | bcr_up[m]).sum())
            parts.append(f"{kind}: {ok}/{int(m.sum())} directions improve stability or BCR")
            kinds_ok.append(ok >= 0.75 * int(m.sum()))
    v = "holds" if kinds_ok and all(kinds_ok) else ("holds partly" if any(kinds_ok) else "does not hold here")
    rows.append(dict(quantity="works with a single or with multiple source studies", protocol="both kinds",
                     paper="single or multiple sources", genesel=v, note="; ".join(parts)))
    if sens is not None and len(sens):
        okb = (sens["bcr_spread"] <= 0.02).all()
        okk = (sens["kuncheva_spread"] <= 0.05).all()
        v = "holds" if okb and okk else ("holds partly" if okb or okk else "does not hold here")
        rows.append(dict(quantity="insensitive to the choice of B", protocol=f"B in {sens['B_values'].iloc[0]}",
                         paper="insensitive", genesel=v,
                         note=f"spread over B of the size-averaged BCR {sens['bcr_spread'].min():.3f} to "
                              f"{sens['bcr_spread'].max():.3f}, of the Kuncheva index "
                              f"{sens['kuncheva_spread'].min():.3f} to {sens['kuncheva_spread'].max():.3f}"))
    return d, rows


# ----------------------------------------------------------------------------------------------------------------
# Teaching tables: the sparsification path, which genes get selected
# ----------------------------------------------------------------------------------------------------------------


def sparsification_paths(studies) -> pd.DataFrame:
    """Genes still active after each l2-AROM iteration (0: the start) on every whole study (preprocessed on
    itself)."""
    rows = []
    for name, ds in aligned_studies(studies).items():
        (X,) = _standardise(_logged(name, tuple(studies)))
        sel = L2AROM(C=AROM_C).fit(X, ds.y)
        for k, a in enumerate(sel.active_path_):  # active_path_[k]: active after k iterations
            rows.append(dict(study=display_name(name), iteration=k, active=int(a)))
        rows.append(dict(study=display_name(name), iteration=sel.n_iter_, active=sel.n_active_))
    return pd.DataFrame(rows)


def selection_frequency_table(res, target, size, methods, prior_genes, labels, top=10) -> pd.DataFrame:
    """The genes most often in the size-``size`` signatures of ``target``: one column per method (the fraction of
    resamplings selecting the gene), whether the gene is in ``prior_genes``, its label (symbol and probe); indexed
    by a 1-based rank (most often selected by either method first)."""
    r = _keys(res)
    r = r[(r["target"] == target) & (r["size"] == size)]
    cols = {}
    for lab, (m, src, b) in methods.items():
        g = r[(r["method"] == m) & (r["sources"] == tuple(src)) & (r["B"] == b)]
        cnt: dict[int, int] = {}
        for genes in g["genes"]:
            for j in genes:
                cnt[j] = cnt.get(j, 0) + 1
        cols[lab] = pd.Series(cnt, dtype=float) / max(len(g), 1)
    tab = pd.DataFrame(cols).fillna(0.0)
    tab = tab.loc[tab.max(axis=1).sort_values(ascending=False, kind="stable").index[:top]]
    prior = set(int(j) for j in prior_genes)
    out = pd.DataFrame({"gene": [labels[j] for j in tab.index],
                        "in the transferred top B": ["yes" if j in prior else "no" for j in tab.index]},
                       index=pd.RangeIndex(1, len(tab) + 1, name="rank"))
    for c in tab.columns:
        out[c] = tab[c].to_numpy()
    return out


# ----------------------------------------------------------------------------------------------------------------
# Figures (lecture-hall style: words in titles, units on axes, legends outside the data)
# ----------------------------------------------------------------------------------------------------------------

_STYLE = {"none": dict(color="black", lw=3.2, ls="-", marker="o", zorder=5),
          "rfe": dict(color="0.5", lw=2.6, ls=":", marker="s", zorder=3),
          "multiple": dict(color="#0072B2", lw=3.2, ls="-", marker="D", zorder=4)}
#: One colour per source study, the same in every panel and figure (Okabe-Ito, without the multiple's blue).
_SOURCE_COLOURS = ["#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#8C564B"]


def _source_colour(source, studies):
    order = list(dict.fromkeys(studies))
    return _SOURCE_COLOURS[order.index(source) % len(_SOURCE_COLOURS)] if source in order else "#8C564B"


def _series(t, directions, studies, rfe):
    """The curves of target ``t``: (legend label, method, sources, style, band?) in a fixed order; single transfers
    are coloured by their source (the same colour in every panel), drawn thinner and without a band."""
    ser = [(method_label("none"), "none", (), _STYLE["none"], True)]
    for _, kind, src in [d for d in directions if d[0] == t and d[1] == "multiple"]:
        ser.append(("PS-l2-AROM, multiple sources (panel title)", "multiple", tuple(src), _STYLE["multiple"], True))
    for _, _, src in [d for d in directions if d[0] == t and d[1] == "single"]:
        ser.append((f"PS-l2-AROM from {display_name(src[0])} alone", "single", tuple(src),
                    dict(color=_source_colour(src[0], studies), lw=2.0, ls="--", marker="^", ms=6, alpha=0.9,
                         zorder=2), False))
    if rfe:
        ser.append((method_label("rfe"), "rfe", (), _STYLE["rfe"], True))
    return ser


def _panel_title(t, directions, studies):
    n = len(aligned_studies(studies)[t].y) if studies else None
    title = f"target: {display_name(t)}" + (f" ({n} samples)" if n else "")
    multi = [d for d in directions if d[0] == t and d[1] == "multiple"]
    if multi:
        title += "\nmultiple sources: " + " + ".join(display_name(x) for x in multi[0][2])
    return title


def _grid(n, sharey=True):
    import matplotlib.pyplot as plt

    ncol = 1 if n == 1 else 2
    nrow = int(np.ceil(n / ncol))
    size = (15, 4.9 * nrow + 1.3) if n > 1 else (12, 6.5)
    fig, axes = plt.subplots(nrow, ncol, figsize=size, squeeze=False, sharex=True, sharey=sharey)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()[:n]


def _size_axis(ax, sizes):
    ax.set_xscale("log")
    ax.set_xticks(list(sizes))
    ax.set_xticklabels([str(x) for x in sizes], fontsize=12)
    ax.minorticks_off()


def _legend_order(label):
    """none, multiple, the single sources (alphabetically), the B values (numerically), SVM-RFE."""
    if label.startswith("l2-AROM"):
        return (0, 0, "")
    if label.startswith("PS-l2-AROM, multiple"):
        return (1, 0, "")
    if label.startswith("B = "):
        return (2, int(label[4:]), "")
    if label.startswith("SVM-RFE"):
        return (4, 0, "")
    return (3, 0, label)


def _finish(fig, axes, handles, ylabel, title, legend_title=None):
    handles = {k: handles[k] for k in sorted(handles, key=_legend_order)}
    for ax in axes:
        ax.set_ylabel(ylabel, fontsize=14)
        ax.tick_params(axis="y", labelsize=12)
        ax.yaxis.set_tick_params(labelleft=True)
    for ax in axes[-2:] if len(axes) > 1 else axes:
        ax.set_xlabel("signature size s (genes, log scale)", fontsize=14)
    fig.legend(list(handles.values()), list(handles.keys()), loc="center left", bbox_to_anchor=(1.0, 0.5),
               fontsize=13, frameon=False, title=legend_title, title_fontsize=13)
    fig.suptitle(title, fontsize=18)
    fig.tight_layout()


def plot_curves(summary, value, targets, directions, *, B=B_DEFAULT, lo=None, hi=None, err=None, ylabel, title,
                sizes=SIZES, studies=None, rfe=True):
    """Kuncheva index or BCR against signature size, one panel per target, every method; bands = uncertainty
    (``lo``/``hi`` columns, or +- ``err``) for no transfer, the multiple transfer and SVM-RFE."""
    fig, axes = _grid(len(targets))
    s = summary.copy()
    s["sources"] = s["sources"].map(tuple)
    handles = {}
    for ax, t in zip(axes, targets):
        for label, m, src, style, band in _series(t, directions, studies or [], rfe):
            q = s[(s["target"] == t) & (s["method"] == m) & (s["sources"] == src)
                  & ((s["B"] == B) | (s["method"].isin(["none", "rfe"])))].sort_values("size")
            if q.empty:
                continue
            kw = dict(style)
            kw.setdefault("ms", 7)
            (h,) = ax.plot(q["size"], q[value], label=label, **kw)
            handles.setdefault(label, h)
            if band and lo is not None:
                ax.fill_between(q["size"], q[lo], q[hi], color=style["color"], alpha=0.13, lw=0)
            elif band and err is not None:
                ax.fill_between(q["size"], q[value] - q[err], q[value] + q[err], color=style["color"], alpha=0.13,
                                lw=0)
        ax.set_title(_panel_title(t, directions, studies), fontsize=14)
        _size_axis(ax, sizes)
    _finish(fig, axes, handles, ylabel, title)
    return fig


def plot_gain(effects, targets, *, title, sizes=SIZES):
    """Transfer minus no transfer against signature size, one colour per target: the multiple transfer (or the
    single one where only one source is allowed) solid with its uncertainty (Kuncheva: paired bootstrap 95 %;
    BCR: +- one standard error of the paired differences), every single transfer thin and dashed."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(17, 7.2), sharex=True)
    palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9"]
    handles = []
    for i, t in enumerate(targets):
        col = palette[i % len(palette)]
        e = effects[effects["target"] == t]
        groups = list(e.groupby(["method", "sources"], sort=False))
        main = [k for k, _ in groups if k[0] == "multiple"] or [groups[0][0]] if groups else []
        for (m, src), g in groups:
            g = g.sort_values("size")
            if (m, src) in main:
                a1.plot(g["size"], g["d_kuncheva"], color=col, lw=3.2, marker="o", ms=7, zorder=4)
                a1.fill_between(g["size"], g["d_k_lo"], g["d_k_hi"], color=col, alpha=0.14, lw=0)
                a2.plot(g["size"], g["d_bcr"], color=col, lw=3.2, marker="o", ms=7, zorder=4)
                a2.fill_between(g["size"], g["d_bcr"] - g["d_bcr_sem"], g["d_bcr"] + g["d_bcr_sem"], color=col,
                                alpha=0.14, lw=0)
                handles.append(Line2D([], [], color=col, lw=3.2, marker="o",
                                      label=f"{display_name(t)} from {' + '.join(display_name(x) for x in src)}"))
            else:
                for ax, v in ((a1, "d_kuncheva"), (a2, "d_bcr")):
                    ax.plot(g["size"], g[v], color=col, lw=1.4, ls="--", alpha=0.7, zorder=2)
    handles.append(Line2D([], [], color="0.4", lw=1.4, ls="--", label="each single source (target's colour)"))
    for ax, lab in ((a1, "Kuncheva index, transfer minus none"), (a2, "BCR, transfer minus none")):
        ax.axhline(0, color="black", lw=1.5)
        _size_axis(ax, sizes)
        ax.set_xlabel("signature size s (genes, log scale)", fontsize=14)
        ax.set_ylabel(lab, fontsize=14)
        ax.tick_params(axis="y", labelsize=12)
    a1.set_title("stability gain", fontsize=15)
    a2.set_title("classification gain", fontsize=15)
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=3, fontsize=12.5,
               frameon=False)
    fig.suptitle(title, fontsize=18)
    fig.tight_layout()
    return fig


def plot_b_sensitivity(summary, value, targets, directions, B_values, *, lo=None, hi=None, err=None, ylabel, title,
                       studies=None, sizes=SIZES):
    """The transfer run at every B (multiple where available), one line per B (dark = few genes transferred), with
    no transfer for reference; bands as in :func:`plot_curves`."""
    import matplotlib.pyplot as plt

    fig, axes = _grid(len(targets))
    s = summary.copy()
    s["sources"] = s["sources"].map(tuple)
    cmap = plt.get_cmap("viridis")
    bs = sorted(int(b) for b in B_values)
    handles = {}
    for ax, t in zip(axes, targets):
        dirs = [d for d in directions if d[0] == t]
        sens = [d for d in dirs if d[1] == "multiple"] or dirs
        base = s[(s["target"] == t) & (s["method"] == "none")].sort_values("size")
        (h,) = ax.plot(base["size"], base[value], label=method_label("none"), ms=7, **_STYLE["none"])
        handles.setdefault(h.get_label(), h)
        _, kind, src = sens[0]
        for k, b in enumerate(bs):
            q = s[(s["target"] == t) & (s["method"] == kind) & (s["sources"] == tuple(src))
                  & (s["B"] == b)].sort_values("size")
            if q.empty:
                continue
            col = cmap(0.9 * k / max(len(bs) - 1, 1))
            (h,) = ax.plot(q["size"], q[value], color=col, lw=2.4, marker="o", ms=5, label=f"B = {b}")
            handles.setdefault(h.get_label(), h)
            if lo is not None:
                ax.fill_between(q["size"], q[lo], q[hi], color=col, alpha=0.07, lw=0)
            elif err is not None:
                ax.fill_between(q["size"], q[value] - q[err], q[value] + q[err], color=col, alpha=0.07, lw=0)
        n = len(aligned_studies(studies)[t].y) if studies else None
        ax.set_title(f"target: {display_name(t)}" + (f" ({n} samples)" if n else "") + "\n"
                     + ("multiple" if kind == "multiple" else "single") + " transfer from "
                     + " + ".join(display_name(x) for x in src), fontsize=14)
        _size_axis(ax, sizes)
    _finish(fig, axes, handles, ylabel, title, legend_title="top B source genes\nwith prior relevance")
    return fig


def plot_sparsification(paths, *, title):
    """Active genes (log scale) against the l2-AROM iteration, one line per study."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12, 6.75))
    for name, g in paths.groupby("study", sort=False):
        ax.plot(g["iteration"], g["active"], marker="o", label=name)
    ax.set_yscale("log")
    ax.set_xlabel("l2-AROM iterations done (one SVM each)", fontsize=14)
    ax.set_ylabel("genes still active (log scale)", fontsize=14)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=13)
    ax.set_title(title, fontsize=17)
    fig.tight_layout()
    return fig

