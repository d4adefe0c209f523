"""Helleputte & Dupont (2009): the summaries, verdicts, tables and figures of notebook 03, from the cells of
:mod:`genesel.papers.helleputte2009` (kept apart so that editing a table or a figure never invalidates a cached cell).

T. Helleputte, P. Dupont, *Feature Selection by Transfer Learning with Linear Regularized Models* (slides, 2009):
the Kuncheva index and the BCR of the signatures against their size with and without transfer (the slides' two
"Results" figures), the sensitivity to B, and the slides' take-home messages judged on the numbers
(:data:`CLAIM_RULES`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import wilcoxon

from genesel.papers.common import load_task
from genesel.papers.helleputte2009 import B_DEFAULT, SIZES, aligned_studies, study_name

__all__ = ["protocol_parameters", "method_label", "kuncheva_pairs", "stability_summary", "bcr_summary",
           "transfer_effects", "b_sensitivity",
           "CLAIM_RULES", "claims", "selection_frequency_table", "studies_table", "directions_table",
           "sparsification_table", "run_summary", "by_size", "EFFECT_COLUMNS", "effect_tables", "B_FIGURES",
           "b_sensitivity_figure", "b_sensitivity_table", "favoured_genes", "rfe_check_table", "PAPER_STUDIES",
           "paper_vs_rows", "rules_table", "direction_tests_table", "plot_curves", "plot_gain", "plot_b_sensitivity",
           "plot_sparsification", "estimated_seconds", "within_genes", "QUICK_BUDGET", "FULL_BUDGET",
           "direction_summary",
           "gains_sentence", "ranking_agreement", "transfer_studies"]

#: Time budgets of notebook 03 on 2 cores (seconds): quick mode, full mode (its full run: 210 s).
QUICK_BUDGET, FULL_BUDGET = 45.0, 420.0


def method_label(method: str, sources=()) -> str:
    """Readable name of a method: "l2-AROM (no transfer)", "PS-l2-AROM from Welsh", "SVM-RFE", ..."""
    if method == "none":
        return "l2-AROM (no transfer)"
    if method == "rfe":
        return "SVM-RFE (Guyon, halving)"
    names = " + ".join(study_name(s) for s in sources)
    return f"PS-l2-AROM from {names}"


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
    d_bcr (mean paired difference, standard error d_bcr_sem) and p_bcr (two-sided Wilcoxon signed-rank test over
    resamplings; 1 when every
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
    by_key = dict(list(tr.groupby(keys, sort=False)))  # rows of each key in their order (no MultiIndex lookup)
    for key in multi:
        g = by_key[key]
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
        lo, hi = f"{d[col].min():+.3f}", f"{d[col].max():+.3f}"
        return lo if lo == hi else f"{lo} to {hi}"

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
# Tables of the notebook
# ----------------------------------------------------------------------------------------------------------------


def studies_table(aligned: dict, targets, sources) -> pd.DataFrame:
    """The studies of the run: samples, classes, genes in the file and shared by all, role (target / source)."""
    rows = []
    for n, ds in aligned.items():
        role = (("target" if n in targets else "") + (" and " if n in targets and n in sources else "")
                + ("source" if n in sources else ""))
        rows.append(dict(study=study_name(n), samples=ds.n_samples,
                         classes=" / ".join(f"{c} {k}" for c, k in ds.class_counts.items()),
                         genes_in_the_file=load_task(n).n_genes, shared_genes=ds.n_genes, role=role))
    return pd.DataFrame(rows).set_index("study")


def directions_table(directions) -> pd.DataFrame:
    """The transfers that run: target, kind (single / multiple) and the sources."""
    return pd.DataFrame([dict(target=study_name(t), transfer=k, sources=" + ".join(study_name(s) for s in src))
                         for t, k, src in directions]).set_index(["target", "transfer"])


def sparsification_table(paths: pd.DataFrame) -> pd.DataFrame:
    """Per study, the l2-AROM iterations to convergence and the genes still active then."""
    return paths.groupby("study", sort=False).agg(iterations=("iteration", "max"),
                                                  genes_at_convergence=("active", "last"))


def run_summary(res: pd.DataFrame) -> str:
    """Two lines on the run: the l2-AROM fits (converged, genes active at convergence, iterations) and the samples
    held out per resampling of each target."""
    res = _keys(res)
    arom = res[res["method"] != "rfe"].drop_duplicates(["target", "split", "method", "sources", "B"])
    held_out = res.drop_duplicates(["target"]).set_index("target")["n_test"]
    return (f"l2-AROM fits: {len(arom)}, all converged: {bool(arom['converged'].all())}, genes active at convergence "
            f"{int(arom['n_active'].min())} to {int(arom['n_active'].max())} (median {arom['n_active'].median():.0f}), "
            f"iterations {int(arom['n_iter'].min())} to {int(arom['n_iter'].max())}\n"
            f"held-out samples per resampling: {({study_name(t): int(v) for t, v in held_out.items()})}")


def by_size(summary: pd.DataFrame, value: str, B: int = B_DEFAULT) -> pd.DataFrame:
    """``value`` (e.g. "kuncheva", "bcr") per (target, method) and signature size, at the default ``B`` (and for
    the methods without a prior), three decimals."""
    def_b = (summary["B"] == B) | summary["method"].isin(["none", "rfe"])
    tab = summary[def_b].assign(target=summary.loc[def_b, "target"].map(study_name),
                                method=[method_label(m, s) for m, s in zip(summary.loc[def_b, "method"],
                                                                           summary.loc[def_b, "sources"])])
    return tab.pivot_table(index=["target", "method"], columns="size", values=value, sort=False).round(3)


#: The columns of :func:`transfer_effects` the notebook shows, with their captions.
EFFECT_COLUMNS = {"d_kuncheva": "Kuncheva index, transfer minus none",
                  "d_bcr": "BCR, transfer minus none (paired over resamplings)",
                  "p_bcr": "Wilcoxon p-value of the BCR difference"}


def effect_tables(effects: pd.DataFrame) -> dict:
    """{caption: table} of :data:`EFFECT_COLUMNS`: per (target, transfer) and signature size, three decimals."""
    show = effects.assign(target=effects["target"].map(study_name),
                          transfer=[method_label(m, s) for m, s in zip(effects["method"], effects["sources"])])
    return {what: show.pivot_table(index=["target", "transfer"], columns="size", values=col, sort=False).round(3)
            for col, what in EFFECT_COLUMNS.items()}


#: What :func:`b_sensitivity_figure` draws: the summary column, its band (lo, hi or err), label and file tag.
B_FIGURES = {"kuncheva": dict(lo="lo", hi="hi", err=None, ylabel="Kuncheva index", tag="stability"),
             "bcr": dict(lo=None, hi=None, err="sem", ylabel="BCR", tag="bcr")}


def b_sensitivity_figure(value, stab, bcr, targets, directions, B_values, n_splits, studies):
    """:func:`plot_b_sensitivity` of the Kuncheva index (``value="kuncheva"``, from ``stab``) or the BCR
    (``"bcr"``, from ``bcr``), with the bands and labels of :data:`B_FIGURES`."""
    f = B_FIGURES[value]
    return plot_b_sensitivity(stab if value == "kuncheva" else bcr, value, targets, directions, B_values, lo=f["lo"],
                              hi=f["hi"], err=f["err"], ylabel=f["ylabel"], studies=studies,
                              title=f"Sensitivity to B: {f['ylabel']} against signature size ({n_splits} resamplings)")


def b_sensitivity_table(sens: pd.DataFrame) -> pd.DataFrame:
    """:func:`b_sensitivity` per (target, transfer), three decimals."""
    return (sens.assign(target=sens["target"].map(study_name),
                        transfer=[method_label(m, s) for m, s in zip(sens["method"], sens["sources"])])
            .drop(columns=["method", "sources"]).set_index(["target", "transfer"]).round(3))


def favoured_genes(res, targets, directions, studies, *, B, strength, sizes, n_splits, top=15):
    """Which genes transfer favours, on the first target at s = 10 (or the smallest size): (caption, the
    :func:`selection_frequency_table` without and with its multiple transfer (or first single one), where the
    gene symbols come from)."""
    from genesel.datasets import annotation_note, gene_labels, gene_symbols

    from genesel.papers.helleputte2009 import source_order, transfer_prior

    t0 = targets[0]
    dirs0 = [d for d in directions if d[0] == t0]
    kind0, src0 = ([d for d in dirs0 if d[1] == "multiple"] or dirs0)[0][1:]
    ds0 = aligned_studies(studies)[t0]
    prior0 = np.flatnonzero(transfer_prior([source_order(s, studies) for s in src0], B, strength, ds0.n_genes) > 1)
    sym0 = gene_symbols(ds0)
    s_show = 10 if 10 in sizes else sizes[0]
    freq = selection_frequency_table(res, t0, s_show, {"no transfer": ("none", (), 0),
                                                       method_label(kind0, src0): (kind0, src0, B)},
                                     prior0, gene_labels(ds0, symbols=sym0), top=top)
    caption = (f"target {study_name(t0)}, signature size {s_show}, fraction of the {n_splits} resamplings selecting "
               "each gene")
    return caption, freq.round(2), annotation_note(ds0, symbols=sym0)


def rfe_check_table(stab: pd.DataFrame, bcr: pd.DataFrame, sizes) -> pd.DataFrame:
    """l2-AROM (no transfer) against SVM-RFE at the smallest, 50 and the largest signature size: Kuncheva index and
    BCR."""
    cmp_ = stab[stab["method"].isin(["none", "rfe"]) & stab["size"].isin([min(sizes), 50, max(sizes)])]
    cmp_ = cmp_.merge(bcr, on=["target", "method", "sources", "B", "size"])
    cmp_ = cmp_.assign(target=cmp_["target"].map(study_name),
                       method=cmp_["method"].map({"none": "l2-AROM", "rfe": "SVM-RFE"}))
    return cmp_.pivot_table(index=["target", "size"], columns="method", values=["kuncheva", "bcr"],
                            sort=False).round(3)


#: The slides' table of studies: (quantity, what the slides give), per study.
PAPER_STUDIES = {"singh": ("Singh: normal / tumour, features", "50/52, 12625 (HG-U95Av2)"),
                 "welsh": ("Welsh: normal / tumour, features", "9/25, 12626 (HG-U95A)"),
                 "chandran_primary": ("Chandran: normal / tumour, features", "18/86, 12625 (HG-U95Av2)"),
                 "chandran_metastasis": ("Chandran: normal / tumour, features", "18/86, 12625 (HG-U95Av2)")}


def paper_vs_rows(aligned, claim_rows, stab, bcr, *, targets, sizes, n_splits, test_fraction) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: the slides' table of studies beside the public files,
    the shared probes, the evaluation, the claims (``claim_rows`` of :func:`claims`) and the advice on stability
    illustrated on the first target."""
    rows = []
    for n, ds in aligned.items():
        if n in PAPER_STUDIES:
            q, p = PAPER_STUDIES[n]
            counts = ds.class_counts
            rows.append(dict(quantity=q + ("" if not n.startswith("chandran") else f" ({n.split('_')[1]} set)"),
                             protocol="public files", paper=p,
                             genesel=f"{'/'.join(str(v) for v in counts.values())}, {load_task(n).n_genes}",
                             note="the public Chandran files split the tumours into primary and metastasis sets that "
                                  "share the 18 normal arrays" if n.startswith("chandran") else ""))
    n_genes = next(iter(aligned.values())).n_genes
    rows.append(dict(quantity="probe sets shared by the studies", protocol="matched by probe ID", paper="12600",
                     genesel=str(n_genes), note="the 67 AFFX control probes have no names in the Singh and Welsh "
                                                "files and are absent from Chandran's, so only the named probes can "
                                                "be matched"))
    rows.append(dict(quantity="evaluation", protocol="", paper="Kuncheva index over signatures; BCR",
                     genesel="same definitions (genesel.stability, genesel.metrics)",
                     note=f"{n_splits} stratified resamplings, {test_fraction:.0%} held out (the slides do not say)"))
    rows += claim_rows
    first = targets[0]
    def at(summary, value):
        own = summary[(summary["target"] == first) & summary["method"].isin(["none", "rfe"])]
        return own.set_index(["method", "size"])[value]

    kq, bq = at(stab, "kuncheva"), at(bcr, "bcr")
    lo_s, hi_s = min(sizes), max(sizes)
    rows.append(dict(quantity="stability should be considered, but not alone", protocol=study_name(first),
                     paper="advice", genesel="illustrated",
                     note=f"SVM-RFE at {hi_s} genes: Kuncheva {kq['rfe', hi_s]:.2f}, BCR {bq['rfe', hi_s]:.2f}; "
                          f"l2-AROM at {lo_s} genes: Kuncheva {kq['none', lo_s]:.2f}, "
                          f"BCR {bq['none', lo_s]:.2f}; large "
                          "signatures overlap by construction, so stability is compared at equal size and next to the "
                          "BCR"))
    return rows


def rules_table() -> pd.DataFrame:
    """:data:`CLAIM_RULES` as a table."""
    return pd.DataFrame({"rule": list(CLAIM_RULES.values())}, index=list(CLAIM_RULES.keys()))


def direction_tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """The per-direction tests behind the verdicts (the first item of :func:`claims`), three decimals."""
    show = tests.assign(target=tests["target"].map(study_name),
                        transfer=[method_label(m, s) for m, s in zip(tests["method"], tests["sources"])])
    return show.drop(columns=["method", "sources"]).set_index(["target", "transfer"]).round(3)


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
    for _, _, src in [d for d in directions if d[0] == t and d[1] == "multiple"]:
        ser.append(("PS-l2-AROM, multiple sources (panel title)", "multiple", tuple(src), _STYLE["multiple"], True))
    for _, _, src in [d for d in directions if d[0] == t and d[1] == "single"]:
        ser.append((f"PS-l2-AROM from {study_name(src[0])} alone", "single", tuple(src),
                    dict(color=_source_colour(src[0], studies), lw=2.0, ls="--", marker="^", ms=6, alpha=0.9,
                         zorder=2), False))
    if rfe:
        ser.append((method_label("rfe"), "rfe", (), _STYLE["rfe"], True))
    return ser


def _panel_title(t, directions, studies):
    n = len(aligned_studies(studies)[t].y) if studies else None
    title = f"target: {study_name(t)}" + (f" ({n} samples)" if n else "")
    multi = [d for d in directions if d[0] == t and d[1] == "multiple"]
    if multi:
        title += "\nmultiple sources: " + " + ".join(study_name(x) for x in multi[0][2])
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
                                      label=f"{study_name(t)} from {' + '.join(study_name(x) for x in src)}"))
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
        ax.set_title(f"target: {study_name(t)}" + (f" ({n} samples)" if n else "") + "\n"
                     + ("multiple" if kind == "multiple" else "single") + " transfer from "
                     + " + ".join(study_name(x) for x in src), fontsize=14)
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



# ----------------------------------------------------------------------------------------------------------------
# what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------

#: Seconds of one protocol cell per training sample x shared gene (l2-AROM's 15-30 SVM fits, the signatures' SVMs;
#: twice that for an SVM-RFE cell), and the fixed costs (kernel, imports, each study's sparsification path and
#: source rankings), measured on this project's 2-core machine.
_CELL_RATE, _OVERHEAD, _PER_STUDY = 6e-8, 20.0, 1.0


def transfer_studies(targets, sources) -> dict:
    """{name: Dataset} of the targets and sources aligned on the gene IDs they share
    (:func:`genesel.papers.helleputte2009.aligned_studies`). Where a researcher's file shares too few genes with the
    sources (another platform, or the registry's prostate studies as the default sources), the refusal names the
    ``sources`` parameter and how to give studies of the file's own platform."""
    from genesel.dataref import is_file_reference
    from genesel.datasets import display_name

    studies = list(dict.fromkeys([*targets, *sources]))
    try:
        return aligned_studies(studies)
    except ValueError as exc:
        if not any(is_file_reference(s) for s in studies):
            raise
        files = ", ".join(display_name(s) for s in studies if is_file_reference(s))
        raise ValueError(f"{exc}. Transfer needs source studies measured on the platform of the target and naming "
                         f"its genes the same way; for {files}, give them with the sources parameter, e.g. -y "
                         "'sources: [/path/to/source_study.csv]' (the label, groups and scale parameters apply to "
                         "the sources too; a source whose columns are named otherwise takes its own in its "
                         "reference, source_study.csv?label=type), or run a registered target with sources of its "
                         "platform (singh with welsh, chandran_primary, chandran_metastasis; harvard with michigan)") \
            from None


def protocol_parameters(quick: bool, n_splits, sizes, B_grid) -> tuple[int, list, list]:
    """The notebook's protocol parameters as the cells take them: resamplings per target (default 200, quick 5),
    signature sizes (default :data:`~genesel.papers.helleputte2009.SIZES`) and the B grid of the sensitivity
    analysis (default the seven values of :data:`~genesel.papers.helleputte2009.B_GRID`, quick 20, 100, 500);
    list parameters in any form papermill passes."""
    from genesel.papers.helleputte2009 import B_GRID
    from genesel.papers.presentation import as_list

    n_splits = int(n_splits) if n_splits is not None else (5 if quick else 200)
    sizes = as_list(sizes, "sizes", example=[5, 10, 20], kind=int) or list(SIZES)
    B_grid = as_list(B_grid, "B_grid", example=[20, 100, 500], kind=int) or ([20, 100, 500] if quick else list(B_GRID))
    return n_splits, sizes, B_grid


def within_genes(n_genes: int, sizes, B_grid, B: int) -> tuple[list, list, str]:
    """The signature sizes and the B grid the studies' ``n_genes`` shared probe IDs allow, and a note on what was left
    out ('' when nothing was). A signature must leave genes out (a signature of all genes is the same in every
    resampling, and Kuncheva's index is undefined for it), so sizes from ``n_genes`` up are dropped; so are B values
    above ``n_genes``. ``B`` itself above ``n_genes``, or no size left, is refused (``ValueError`` naming the
    parameter and the limit)."""
    if not 1 <= int(B) <= n_genes:
        raise ValueError(f"parameter 'B' = {B}: the studies share only {n_genes} probe IDs; choose B between 1 and "
                         f"{n_genes} (e.g. -p B {max(1, n_genes // 3)})")
    big_sizes = [int(x) for x in sizes if int(x) >= n_genes]
    big_B = [int(x) for x in B_grid if int(x) > n_genes]
    kept_sizes = [int(x) for x in sizes if int(x) < n_genes]
    if not kept_sizes:
        raise ValueError(f"parameter 'sizes' = {list(sizes)}: the studies share only {n_genes} probe IDs; give sizes "
                         f"below {n_genes}")
    kept_B = [int(x) for x in B_grid if int(x) <= n_genes]
    gone = ([f"signature sizes {', '.join(map(str, big_sizes))}"] if big_sizes else []) + (
        [f"B = {', '.join(map(str, big_B))} of the sensitivity analysis"] if big_B else [])
    note = f"; left out for want of genes: {' and '.join(gone)}" if gone else ""
    return kept_sizes, kept_B or [int(B)], note


def estimated_seconds(cells, aligned: dict, *, n_jobs=1) -> tuple[float, str]:
    """(seconds, what it is) of notebook 03's protocol grid (``cells`` of
    :func:`genesel.papers.helleputte2009.protocol_cells`) on the ``aligned`` studies, before it runs."""
    d = next(iter(aligned.values())).n_genes
    work = sum(_CELL_RATE * (1 - c["test_fraction"]) * aligned[c["target"]].n_samples * d
               * (2.0 if c["method"] == "rfe" else 1.0) for c in cells)
    return (_OVERHEAD + _PER_STUDY * len(aligned) + work / max(1, min(int(n_jobs), 2)),
            f"{len(cells)} cells on {d} shared genes")


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def direction_summary(runs: dict, n_features: int, *, B=B_DEFAULT, seed=0) -> pd.DataFrame:
    """Exercises: the size-averaged effect of each transfer direction (transfer minus none on the same
    resamplings) in several runs of the protocol, ``runs`` {label: results}: Kuncheva index with its bootstrap 95 %
    interval, BCR with the Wilcoxon p-value."""
    rows = []
    for label, res in runs.items():
        tests = _direction_tests(res, n_features, B, 200, seed) if (res["method"] != "none").any() else pd.DataFrame()
        for r in tests.itertuples():
            rows.append({"run": label, "target": study_name(r.target), "transfer": method_label(r.method, r.sources),
                         "Kuncheva gain": _gain(r.d_kuncheva),
                         "95 % interval": ("–" if np.isnan(r.d_k_lo) else
                                           f"{_gain(r.d_k_lo):+.3f} to {_gain(r.d_k_hi):+.3f}"),
                         "BCR gain": _gain(r.d_bcr), "Wilcoxon p": round(r.p_bcr, 3)})
    cols = ["run", "target", "transfer", "Kuncheva gain", "95 % interval", "BCR gain", "Wilcoxon p"]
    return pd.DataFrame(rows, columns=cols).set_index(cols[:3])


def gains_sentence(summary: pd.DataFrame) -> str:
    """One sentence per run of :func:`direction_summary`: its mean Kuncheva and BCR gains over directions."""
    if summary.empty:
        return "No transfer direction ran: the target has no source that shares none of its samples."
    g = summary.groupby(level="run", sort=False)[["Kuncheva gain", "BCR gain"]].mean()
    return "Mean gain over the directions: " + "; ".join(
        f"{run}: Kuncheva {_gain(r['Kuncheva gain']):+.3f}, BCR {_gain(r['BCR gain']):+.3f}"
        for run, r in g.iterrows()) + "."


def _gain(x: float) -> float:
    """``x`` rounded to 3 decimals, never a negative zero (a gain of -0.0002 printed "-0.000" shows a sign that
    is not there)."""
    return round(float(x), 3) + 0.0


def ranking_agreement(target: str, sources, aligned: dict) -> pd.DataFrame:
    """Exercise 3: how alike the target's and each source's gene rankings are: the correlation, over the shared
    genes, of their t-statistics (log values, each study on its own)."""
    from genesel.datasets import recommended_preprocessing
    from genesel.filters import t_statistic

    def t(name):
        ds = aligned[name]
        return t_statistic(recommended_preprocessing(name, standardize=False).fit_transform(ds.X), ds.y)

    tt = t(target)
    return pd.DataFrame({"source": [study_name(s) for s in sources],
                         f"correlation of t-statistics with {study_name(target)}":
                             [round(float(np.corrcoef(tt, t(s))[0, 1]), 3) for s in sources]}).set_index("source")
