"""Guyon et al. (2002) for notebook 01: the published claims, which settings reproduce them, tables and figures.

The computations and the grids are the cells of :mod:`genesel.papers.guyon2002`; this module only reads their
results and shows them (kept apart so that editing a table or a figure leaves the cached cells valid).

**The published claims** (the abstract; every number in the text of the paper available to us is masked, as the
notebook explains):

1. leukemia (38 training samples, 7129 genes): SVM-RFE finds 2 genes with zero leave-one-out errors;
2. leukemia: the baseline (Golub's signal-to-noise ranking + weighted voting) needs 64 genes for its best result,
   one leave-one-out error;
3. colon (62 tissues): with 4 genes SVM-RFE is 98 % accurate (1 error of 62),
4. against 86 % for the baseline (no whole count of 62 rounds to 86 %: the nearest is 9 errors, 85.5 %).

All four are leave-one-out results with the genes selected on every sample assessed (the paper's protocol);
:func:`claim_checks` evaluates them for every setting of the sensitivity grid
(:func:`genesel.papers.guyon2002.sensitivity_cells`), under
that protocol and with selection inside each fold.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from genesel.datasets import annotation_note, display_name
from genesel.metrics import METRIC_NAMES
from genesel.papers.common import load_task
from genesel.papers.presentation import dataset_names, format_seconds
from genesel.papers.guyon2002 import (GENE_FILTERS, SETTING_COLUMNS, SQUASH, STANDARDIZE, THRESHOLDS, guyon_data,
                                      guyon_preprocess, loo_metrics_from_outputs, setting_for, setting_options)

__all__ = ["DEFAULT_SETTING", "CLAIMS", "OPTION_SOURCES", "dataset_title", "sensitivity_long", "sensitivity_table",
           "claim_checks", "claim_summary", "joint_settings", "paper_vs_genesel_rows", "setting_label",
           "metrics_tables", "top_genes_table", "plot_quality_panels", "plot_selection_bias", "plot_sensitivity",
           "format_C", "hard_margin_note", "constant_fit_note", "notebook_setting", "class_names", "bias_summary",
           "paper_reading", "PAPER_NAMES", "data_table", "metrics_sections", "quality_title", "top_genes_sections",
           "main_long", "bias_sections", "sensitivity_notes", "settings_run", "joint_sections", "sensitivity_claims",
           "closing_rows", "not_applicable_notes", "claims_reproduced", "bias_paragraph", "estimated_seconds",
           "QUICK_BUDGET", "FULL_BUDGET", "step_comparison", "bias_gaps", "hard_margin_answer"]

#: Time budgets of notebook 01 on 2 cores (seconds): quick mode, full mode (its full run: 46 min).
QUICK_BUDGET, FULL_BUDGET = 90.0, 3000.0

DEFAULT_SETTING = dict(thresholds="genesel", gene_filter="none", standardize="sample+gene", squash="none",
                       C=100.0, step="halving")

#: where each option comes from (shown in the notebook)
OPTION_SOURCES = pd.DataFrame([
    ("thresholds", "genesel", "floor 20 and ceiling 16000 before log10 (genesel's usual treatment of Golub's "
     "Hu6800 values; floor 20 as in Pochet et al. 2004, Bioinformatics 20:3185)", "leukemia"),
    ("thresholds", "dudoit", "floor 100, ceiling 16000 (Dudoit, Fridlyand & Speed 2002, JASA 97:77, section 2.2)",
     "leukemia"),
    ("gene filter", "none", "all 7129 genes, as the paper ranks them", "leukemia"),
    ("gene filter", "dudoit", "keep genes with max/min > 5 and max - min > 500 on the training samples (Dudoit "
     "et al. 2002): 3051 of 7129 genes on the 38 training samples (checked in the tests)", "leukemia"),
    ("log base", "10", "any base gives the same data after standardisation (a constant factor; checked in the "
     "tests), so the base is not a setting", "all"),
    ("standardisation", "sample+gene", "each sample to mean 0 / sd 1 over its genes, then each gene with the "
     "training mean and sd (Guyon 2002: normalise sample vectors, then feature vectors)", "all"),
    ("standardisation", "gene", "each gene only, with the training mean and sd (Golub et al. 1999)", "all"),
    ("standardisation", "sample", "each sample only (Dudoit et al. 2002 standardise the arrays)", "all"),
    ("squashing", "none / tanh / arctan", "Guyon 2002 pass the colon data 'through a squashing function to "
     "diminish the importance of outliers' without naming it: the two standard sigmoids at unit scale", "colon"),
    ("C", "0.01 ... 100, inf", "the SVM's box constraint, not given in the text available to us; inf = hard "
     "margin, reported only where the training samples are linearly separable", "all"),
    ("elimination", "halving / 1", "Guyon's chunks (nearest power of two, then halve; Tan 2006 section 5.4) or one "
     "gene per step", "all"),
], columns=["option", "value", "what it is and where it comes from", "data sets"])

#: The paper's names of its two data sets.
PAPER_NAMES = {"golub": "Leukemia", "alon": "Colon"}
METHOD_LABELS = {"svm-rfe": "SVM-RFE + linear SVM", "baseline": "baseline: signal-to-noise + weighted voting"}
METRIC_WORDS = {"suc": "success rate", "acc": "acceptance rate", "ext": "extremal margin", "med": "median margin"}
MEASURES = {"printed": "LOO, selection on all training samples (as printed)",
            "in-fold": "LOO, selection inside each fold (unbiased)",
            "test": "test set"}


def dataset_title(name, ds=None) -> str:
    """'<name> (<class -1> vs <class +1>)', the name being the paper's ('Leukemia (ALL vs AML)') or the data set's
    registry name."""
    a, b = class_names(load_task(name) if ds is None else ds)
    return f"{display_name(name, PAPER_NAMES, fallback='name')} ({a} vs {b})"


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def format_C(C) -> str:
    if _missing(C):
        return "–"
    return "∞" if math.isinf(C) else f"{C:g}"


def _step_label(step) -> str:
    if _missing(step):
        return "–"
    return "halving" if step == "halving" else f"{int(step)} per step"


def setting_label(s, dataset=None) -> str:
    """A setting in words, e.g. 'floor 100, Dudoit filter, sample+gene, C=1, halving'. ``dataset``: the data set
    (or list of data sets) it applies to; Golub's thresholds and filter are named only where leukemia is among
    them, the squashing only where colon is or where it is not 'none' (None: every part)."""
    names = None if dataset is None else ([dataset] if isinstance(dataset, str) else list(dataset))
    parts = []
    if names is None or "golub" in names:
        parts.append("floor 20" if s.get("thresholds") == "genesel" else "floor 100")
        parts.append("all genes" if s.get("gene_filter") == "none" else "Dudoit filter")
    parts.append(f"{s.get('standardize')} standardised")
    if names is None or "alon" in names or s.get("squash") not in (None, "none"):
        parts.append("no squashing" if s.get("squash") == "none" else f"{s.get('squash')} squashing")
    C, step = s.get("C"), s.get("step")
    if not _missing(C):
        parts.append(f"C={format_C(C)}")
        parts.append(_step_label(step))
    return ", ".join(parts)


# ----------------------------------------------------------------------------------------------------------------
# the grid
# ----------------------------------------------------------------------------------------------------------------


def _norm_settings(df):
    df = df.copy()
    for col in SETTING_COLUMNS:
        if col not in df:
            df[col] = None
    df["step"] = df["step"].map(lambda s: None if _missing(s) else str(s)).astype(object)
    df["C"] = df["C"].astype(float)
    return df


def sensitivity_long(curves, folds=None) -> pd.DataFrame:
    """One row per (data set, method, setting, measure, subset size): ``errors`` (NaN where the hard margin does
    not exist), ``n`` (samples assessed). Measures: "printed" (LOO, genes selected on all training samples),
    "test" (test set, when there is one) and "in-fold" (LOO with everything inside each fold)."""
    keys = ["dataset", "method"] + SETTING_COLUMNS
    c = _norm_settings(curves)
    parts = [c.assign(measure="printed", errors=c["V_errors"].astype(float), n=c["n_train"])]
    if "T_errors" in c and (c["n_test"] > 0).any():
        t = c[c["n_test"] > 0]
        parts.append(t.assign(measure="test", errors=t["T_errors"].astype(float), n=t["n_test"]))
    if folds is not None and len(folds):
        f = _norm_settings(folds)
        f["_C"] = f["C"].fillna(-1.0)  # group keys without NaN
        f["_step"] = f["step"].fillna("-")
        agg = loo_metrics_from_outputs(f, by=[k for k in keys if k not in ("C", "step")] + ["_C", "_step",
                                                                                               "n_genes"])
        agg["C"] = agg.pop("_C").replace(-1.0, np.nan)
        agg["step"] = agg.pop("_step").replace("-", None)
        parts.append(agg.assign(measure="in-fold", errors=agg["V_errors"].astype(float), n=agg["n_folds"]))
    cols = keys + ["measure", "n_genes", "all_genes", "errors", "n"]
    out = pd.concat([p[cols] for p in parts], ignore_index=True)
    out["n_genes"] = out["n_genes"].astype(int)
    out["all_genes"] = out["all_genes"].astype(bool)
    return out


def _curve(long, dataset, method, setting, measure):
    """{n_genes: errors} and the all-genes count for one setting and measure."""
    m = (long.dataset == dataset) & (long.method == method) & (long.measure == measure)
    for col in ("thresholds", "gene_filter", "standardize", "squash"):
        m &= long[col] == setting[col]
    if method == "svm-rfe":
        m &= (long["C"] == float(setting["C"])) & (long["step"] == str(setting["step"]))
    g = long[m]
    return dict(zip(g.n_genes, g.errors)), (int(g.n.iloc[0]) if len(g) else 0)


def sensitivity_table(long, dataset, max_genes=None) -> pd.DataFrame:
    """Every setting tried on ``dataset`` in one table: one row per (method, setting, measure), one column per
    subset size (numeric order; 'all' last), cells = errors ('–': hard margin does not exist / not run)."""
    d = long[long.dataset == dataset].copy()
    d["genes"] = np.where(d.all_genes, "all", d.n_genes.astype(str))
    if max_genes is not None:
        d = d[d.all_genes | (d.n_genes <= max_genes)]
    d["method"] = d["method"].map({"svm-rfe": "SVM-RFE", "baseline": "baseline"})
    d["C"] = d["C"].map(format_C)
    d["step"] = d["step"].map(_step_label)
    d["measure"] = d["measure"].map({k: v.split(" (")[0].replace("LOO, ", "LOO ") for k, v in MEASURES.items()})
    d["errors"] = d["errors"].map(lambda e: "–" if np.isnan(e) else str(int(e)))
    cols = ["method", "thresholds", "gene_filter", "standardize", "squash", "C", "step", "measure"]
    opts = setting_options(dataset)
    cols = [c for c in cols if c not in ("thresholds", "gene_filter", "squash") or len(opts[c]) > 1]
    wide = d.pivot_table(index=cols, columns="genes", values="errors", aggfunc="first")
    order = sorted([c for c in wide.columns if c != "all"], key=int) + (["all"] if "all" in wide.columns else [])
    wide = wide[order].fillna("")
    wide.columns = [("1 gene" if c == "1" else f"{c} genes") if c != "all" else "all genes" for c in order]
    names = {"thresholds": "thresholds", "gene_filter": "gene filter", "standardize": "standardisation",
             "squash": "squashing", "C": "C", "step": "elimination", "measure": "errors counted by"}
    wide.index = wide.index.set_names([names.get(c, c) for c in cols])
    return wide


# ----------------------------------------------------------------------------------------------------------------
# the claims
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    key: str
    dataset: str
    method: str
    text: str
    paper: str
    genes: int  # the subset size the claim is about

    def evaluate(self, curve: dict, n: int):
        """(met, value in words, distance) on a {n_genes: errors} curve over ``n`` samples."""
        if self.key == "leukemia_baseline":
            finite = {k: v for k, v in curve.items() if not np.isnan(v)}
            if not finite:
                return False, "–", math.inf
            best = min(finite.values())
            first = min(k for k, v in finite.items() if v == best)
            met = best == 1 and first == 64
            dist = abs(best - 1) + abs(math.log2(first / 64)) / 100
            return met, f"{_errors(best)}, first with {first} genes", dist
        e = curve.get(self.genes, np.nan)
        if np.isnan(e):
            return False, "not separable" if self.genes in curve else "–", math.inf
        target = self.target_errors(n)
        pct = 100.0 * (1 - e / n)
        value = _errors(e) if self.key == "leukemia_svm" else f"{pct:.1f} % ({_errors(e)} of {n})"
        return e == target, value, abs(e - target)

    def target_errors(self, n):
        if self.key == "leukemia_svm":
            return 0
        pct = 98.0 if self.key == "colon_svm" else 86.0
        return int(round(n * (1 - pct / 100)))


def _errors(e):
    e = int(e)
    return f"{e} error" + ("" if e == 1 else "s")


CLAIMS = (
    Claim("leukemia_svm", "golub", "svm-rfe", "leukemia, SVM-RFE: 2 genes with zero leave-one-out errors",
          "0 errors with 2 genes", 2),
    Claim("leukemia_baseline", "golub", "baseline",
          "leukemia, baseline: best result 1 leave-one-out error, first reached with 64 genes",
          "1 error, first with 64 genes", 64),
    Claim("colon_svm", "alon", "svm-rfe", "colon, SVM-RFE with 4 genes: leave-one-out accuracy",
          "98 % (1 error of 62)", 4),
    Claim("colon_baseline", "alon", "baseline", "colon, baseline with 4 genes: leave-one-out accuracy",
          "86 % (nearest count: 9 errors of 62, 85.5 %)", 4),
)


def _claim_settings(claim, long):
    """The settings tried for a claim's (data set, method)."""
    cols = ["thresholds", "gene_filter", "standardize", "squash"] + (["C", "step"] if claim.method == "svm-rfe"
                                                                     else [])
    d = long[(long.dataset == claim.dataset) & (long.method == claim.method) & (long.measure == "printed")]
    return d[cols].drop_duplicates().to_dict("records")


def claim_checks(long) -> pd.DataFrame:
    """For every claim whose data set ran and every setting tried: whether the paper's protocol reproduces it,
    the value, and the same setting's value with selection inside each fold."""
    rows = []
    for cl in CLAIMS:
        for s in _claim_settings(cl, long):
            curve, n = _curve(long, cl.dataset, cl.method, s, "printed")
            met, value, dist = cl.evaluate(curve, n)
            fcurve, fn = _curve(long, cl.dataset, cl.method, s, "in-fold")
            fvalue = cl.evaluate(fcurve, fn)[1] if fcurve else "not run"
            rows.append({"claim": cl.key, **{k: s.get(k) for k in SETTING_COLUMNS}, "reproduced": met,
                         "value": value, "distance": dist, "in_fold": fvalue})
    return pd.DataFrame(rows)


def paper_reading(s, dataset) -> bool:
    """Whether a setting agrees with what the paper does say: all genes (the paper ranks all 7129 leukemia genes),
    sample then gene standardisation, chunked elimination (SVM-RFE) and, on colon, a squashing function."""
    ok = s["gene_filter"] == "none" and s["standardize"] == "sample+gene"
    if not _missing(s.get("step")):
        ok &= str(s["step"]) == "halving"
    if dataset == "alon":
        ok &= s["squash"] != "none"
    return bool(ok)


def claim_summary(checks) -> pd.DataFrame:
    """One row per claim: how many settings reproduce it (paper's protocol; how many of them agree with the
    paper's description), an example (one that agrees if any), or the closest result."""
    rows = []
    for cl in CLAIMS:
        c = checks[checks.claim == cl.key]
        if c.empty:
            continue
        ok = c[c.reproduced]
        reading = ok.apply(lambda r, ds=cl.dataset: paper_reading(r, ds), axis=1) if len(ok) else pd.Series(dtype=bool)
        ok = pd.concat([ok[reading], ok[~reading]]) if len(ok) else ok
        if len(ok):
            ex = ok.iloc[0]
            example = f"{setting_label(ex, cl.dataset)}: {ex.value}"
        else:
            best = c.sort_values("distance", kind="stable").iloc[0]
            example = f"none; closest: {setting_label(best, cl.dataset)}: {best.value}"
        rows.append({"claim": cl.text, "paper": cl.paper, "settings tried": len(c),
                     "settings that reproduce it": len(ok),
                     "of which agree with the paper's description": int(reading.sum()) if len(reading) else 0,
                     "for example (or the closest)": example,
                     "the same with selection inside the folds": (ok.iloc[0] if len(ok) else
                                                                  c.sort_values("distance").iloc[0]).in_fold})
    return pd.DataFrame(rows)


def joint_settings(checks) -> pd.DataFrame:
    """Every combination of settings over the data sets that ran, with the number of claims it reproduces
    (the baseline claims ignore C and the step), whether it is the paper's reading (all genes, sample then gene
    standardisation, Guyon's chunks, and a squashing function on colon), best first; ties go to the settings that
    agree with the paper on more of those points, then to genesel's defaults (floor 20)."""
    if checks.empty:
        return pd.DataFrame()
    opts = {k: sorted(set(checks[k].dropna()), key=str) for k in SETTING_COLUMNS}
    opts["C"] = sorted(set(checks["C"].dropna()))
    met = {}
    for r in checks.itertuples(index=False):
        base = (r.claim, r.thresholds, r.gene_filter, r.standardize, r.squash)
        C = None if _missing(r.C) else float(r.C)
        met[base + (C, None if C is None else str(r.step))] = bool(r.reproduced)
    claims = [cl for cl in CLAIMS if (checks.claim == cl.key).any()]
    rows = []
    for s in itertools.product(*(opts[k] for k in SETTING_COLUMNS)):
        s = dict(zip(SETTING_COLUMNS, s))
        count, which = 0, []
        for cl in claims:
            thr = s["thresholds"] if cl.dataset == "golub" else "genesel"
            filt = s["gene_filter"] if cl.dataset == "golub" else "none"
            sq = s["squash"] if cl.dataset == "alon" else "none"
            key = (cl.key, thr, filt, s["standardize"], sq) + ((float(s["C"]), str(s["step"]))
                                                              if cl.method == "svm-rfe" else (None, None))
            if met.get(key, False):
                count += 1
                which.append(cl.key)
        principled = paper_reading(s, "alon" if (checks.claim.str.startswith("colon")).any() else "golub")
        rows.append({**s, "claims reproduced": count, "which": ", ".join(which), "paper's reading": principled})
    out = pd.DataFrame(rows)
    # ties: first the settings that agree with the paper's description on more points, then genesel's defaults
    agree = ((out.gene_filter == "none").astype(int) + (out.standardize == "sample+gene").astype(int)
             + (out.step.astype(str) == "halving").astype(int) + (out.squash != "none").astype(int))
    default = (out.thresholds == "genesel").astype(int)
    out = out.assign(_a=-agree, _d=-default, _p=~out["paper's reading"])
    out = out.sort_values(["claims reproduced", "_p", "_a", "_d"], ascending=[False, True, True, True],
                          kind="stable").drop(columns=["_a", "_d", "_p"])
    return out.reset_index(drop=True)


def paper_vs_genesel_rows(long, checks, setting, setting_name) -> list[dict]:
    """Rows of the closing table: each claim under ``setting`` with the paper's protocol and with selection inside
    the folds; the note names the setting, or says which settings reproduce the claim when this one does not."""
    rows = []
    for cl in CLAIMS:
        c = checks[checks.claim == cl.key]
        if c.empty:
            continue
        s = dict(setting)
        if cl.dataset != "golub":
            s.update(thresholds="genesel", gene_filter="none")
        if cl.dataset != "alon":
            s.update(squash="none")
        curve, n = _curve(long, cl.dataset, cl.method, s, "printed")
        if not curve:
            continue
        met, value, _ = cl.evaluate(curve, n)
        fcurve, fn = _curve(long, cl.dataset, cl.method, s, "in-fold")
        ok = c[c.reproduced]
        label = setting_label(s if cl.method == "svm-rfe" else {**s, "C": None}, cl.dataset)
        if met:
            note = f"reproduced under {setting_name} ({label})"
        elif len(ok):
            note = (f"not under {setting_name} ({label}); {len(ok)} of {len(c)} settings reproduce it, e.g. "
                    f"{setting_label(ok.iloc[0], cl.dataset)}")
        else:
            best = c.sort_values("distance", kind="stable").iloc[0]
            note = (f"no setting of {len(c)} reproduces it; closest: {setting_label(best, cl.dataset)}: "
                    f"{best.value}")
        rows.append(dict(quantity=cl.text, protocol="paper's (genes selected on all samples, then LOO)",
                         paper=cl.paper, genesel=value, note=note))
        if fcurve:
            rows.append(dict(quantity=cl.text, protocol="unbiased (selection inside each LOO fold)",
                             paper="not reported", genesel=cl.evaluate(fcurve, fn)[1],
                             note=f"same setting ({label})"))
    return rows


# ----------------------------------------------------------------------------------------------------------------
# tables of the main protocol
# ----------------------------------------------------------------------------------------------------------------


def metrics_tables(curves, dataset, split) -> dict:
    """Guyon's quality measures per subset size (rows, increasing; 'all' last) and method, as two readable
    tables: ``{"leave-one-out": ..., "test set": ...}`` (the second only when there is a test set)."""
    sub = curves[(curves.dataset == dataset) & (curves.split == split)].copy()
    sub["genes"] = np.where(sub.all_genes, "all (" + sub.n_genes.astype(str) + ")", sub.n_genes.astype(str))
    sub["method"] = sub["method"].map({"svm-rfe": "SVM-RFE", "baseline": "baseline"})
    out = {}
    for p, name in (("V", "leave-one-out"), ("T", "test set")):
        cols = [f"{p}_{m}" for m in METRIC_NAMES if f"{p}_{m}" in sub and sub[f"{p}_{m}"].notna().any()]
        if not cols:
            continue
        t = sub.pivot_table(index=["n_genes", "genes"], columns="method", values=cols).sort_index(level=0)
        t = t.droplevel(0)
        t.index.name = "genes"
        t.columns = pd.MultiIndex.from_tuples([(METRIC_WORDS[a.split("_")[1]], b) for a, b in t.columns])
        order = [(METRIC_WORDS[c.split("_")[1]], m) for c in cols for m in ("SVM-RFE", "baseline")]
        out[name] = t[[c for c in order if c in t.columns]]
    return out


# ----------------------------------------------------------------------------------------------------------------
# the notebook's sections
# ----------------------------------------------------------------------------------------------------------------


def loo_words(dataset, split, seed: int = 0) -> str:
    """How the leave-one-out measures of ``dataset``'s ``split`` were counted: "leave-one-out (N samples)", or, for
    grouped samples (``Dataset.groups``: a patient's paired tissues), "leave-one-group-out (N samples in G
    groups)", since every leave-one-out of notebook 01 then leaves a whole group out."""
    ds, tr, _ = guyon_data(dataset, split, seed)
    if ds.groups is None:
        return f"leave-one-out ({tr.size} samples)"
    return f"leave-one-group-out ({tr.size} samples in {np.unique(np.asarray(ds.groups)[tr]).size} groups)"


def data_table(datasets, protocol: dict, seed: int = 0) -> pd.DataFrame:
    """The data sets of the run: samples, genes, classes, the split of the curves (section 1) and the samples of the
    leave-one-out headline (``protocol``: {data set: :func:`genesel.papers.guyon2002.guyon_protocol`})."""
    from genesel.papers.guyon2002 import guyon_n_train

    rows = []
    for d in datasets:
        ds = load_task(d)
        p = protocol[d]
        n_tr = guyon_n_train(d, p["curve_split"], seed)
        rows.append({"data set": dataset_title(d), "samples": ds.n_samples, "genes": ds.n_genes,
                     "classes": ", ".join(f"{int(np.sum(ds.y == c))} {w}" for c, w in zip((-1, 1), class_names(ds))),
                     "curves (section 1)": ("the paper's split" if p["curve_split"] == "predefined" else
                                            f"seeded stratified half/half split (seed {seed})")
                                           + f": {n_tr} training, {ds.n_samples - n_tr} test samples",
                     "leave-one-out headline (sections 2, 3)": (f"{p['n_loo']} samples" if ds.groups is None else
                                                                loo_words(d, p["loo_split"], seed))})
    return pd.DataFrame(rows).set_index("data set")


def metrics_sections(curves, datasets, protocol: dict, setting, seed: int = 0) -> list:
    """Section 1's tables in order: per data set, a caption and :func:`metrics_tables` (leave-one-out, test set)."""
    from IPython.display import Markdown

    out = []
    for d in datasets:
        split = protocol[d]["curve_split"]
        sub = curves[(curves.dataset == d) & (curves.split == split)]
        for name, table in metrics_tables(curves, d, split).items():
            n = int(sub.n_train.iloc[0]) if name == "leave-one-out" else int(sub.n_test.iloc[0])
            words = loo_words(d, split, seed) if name == "leave-one-out" else f"{name} ({n} samples)"
            out += [Markdown(f"**{dataset_title(d)}**, {words}: quality measures per number of genes "
                             f"({setting_label(setting_for(d, setting), d)})"), table]
        out += [Markdown(f"**{dataset_title(d)}**, {note}.") for note in not_applicable_notes(sub)]
    return out


def not_applicable_notes(rows) -> list:
    """The distinct reasons (column ``not_applicable`` of the curve rows) why a method, or its leave-one-out
    measures, could not run on a study this small: each is one note under the tables, whose columns then lack it."""
    if "not_applicable" not in rows:
        return []
    return list(dict.fromkeys(rows["not_applicable"].dropna().astype(str)))


def quality_title(dataset, split, seed: int = 0) -> str:
    """The title of :func:`plot_quality_panels` for a data set and its curve split."""
    where = "the paper's 38/34 split" if split == "predefined" else f"a random half/half split (seed {seed})"
    return f"{dataset_title(dataset)}: quality of the gene subsets, {where}"


def top_genes_sections(curves, datasets, protocol: dict, setting) -> list:
    """The top genes of section 1 in order: per data set, a caption (with where the gene names come from) and
    :func:`top_genes_table` (16 genes, or 2 where the run stopped at fewer genes)."""
    from IPython.display import Markdown

    out = []
    for d in datasets:
        split = protocol[d]["loo_split"]
        n_top = 16 if curves[(curves.dataset == d) & (curves.split == split)].n_genes.max() > 16 else 2
        out += [Markdown(f"**{dataset_title(d)}**, genes ranked on all {protocol[d]['n_loo']} leave-one-out samples. "
                         + annotation_note(load_task(d))),
                top_genes_table(curves, d, split, setting, n_top=n_top)]
    return out


def main_long(curves, folds, protocol: dict) -> pd.DataFrame:
    """:func:`sensitivity_long` of the notebook's setting (sections 1-2): the leave-one-out measures only, as
    printed and inside the folds."""
    loo_curves = curves[curves.split == curves.dataset.map({d: p["loo_split"] for d, p in protocol.items()})]
    main = sensitivity_long(loo_curves, folds)
    return main[main.measure != "test"]


def bias_sections(main, datasets, protocol: dict) -> list:
    """Section 2's tables in order: per data set, a caption and the leave-one-out errors of both methods per number
    of genes, genes chosen on all samples and inside the folds."""
    from IPython.display import Markdown

    from genesel.papers.presentation import tidy

    bias = main.assign(genes=np.where(main.all_genes, "all", main.n_genes.astype(str)),
                       method=main.method.map({"svm-rfe": "SVM-RFE", "baseline": "baseline"}),
                       measure=main.measure.map({"printed": "genes chosen on all samples", "in-fold": "inside folds"}))
    out = []
    for d in datasets:
        t = bias[bias.dataset == d].pivot_table(index=["n_genes", "genes"], columns=["method", "measure"],
                                                values="errors").sort_index().droplevel(0)
        out += [Markdown(f"**{dataset_title(d)}**: {loo_words(d, protocol[d]['loo_split'])}, errors"),
                tidy(t, index=True)]
    return out


def sensitivity_notes(curves, folds=None) -> list:
    """The sentences on the sensitivity grid's hard margin and constant fits that apply (Markdown strings)."""
    return [n for n in (hard_margin_note(curves, folds), constant_fit_note(curves)) if n]


def settings_run(long, datasets, in_fold: bool) -> str:
    """How many settings ran per data set."""
    n_set = long.drop_duplicates(["dataset", "method"] + SETTING_COLUMNS).groupby("dataset").size()
    return ("settings run: " + ", ".join(f"{dataset_title(d)} {int(n_set.get(d, 0))}" for d in datasets)
            + " (SVM-RFE and baseline)" + ("" if in_fold else "; quick mode: no in-fold half"))


def joint_sections(joint, checks) -> list:
    """Section 3's best settings in order: a caption, the ten settings reproducing the most claims, and a sentence
    on the best one and the best one consistent with the paper's description (nothing when no claim was checked)."""
    from IPython.display import Markdown

    if joint.empty:
        return []
    show = joint.head(10).assign(C=lambda t: t.C.map(format_C))
    best = joint.iloc[0]
    principled = joint[joint["paper's reading"]].iloc[0] if joint["paper's reading"].any() else None
    text = ("No setting tried reproduces any published claim." if best["claims reproduced"] == 0 else
            f"The single setting reproducing the most claims is **{setting_label(best)}**: "
            f"{int(best['claims reproduced'])} of {checks.claim.nunique()} ({best['which'] or 'none'}); "
            + ("it is consistent with the paper's description." if best["paper's reading"] else
               "it is **not** the paper's reading."))
    if principled is not None and not best["paper's reading"]:
        text += (f" The best setting consistent with the paper's description, {setting_label(principled)}, "
                 f"reproduces {int(principled['claims reproduced'])} ({principled['which'] or 'none'}).")
    return [Markdown(f"**The settings that reproduce the most claims** ({len(joint)} combinations over the data "
                     f"sets run; the paper's reading: all genes, sample then gene standardisation, the chunks of "
                     f"the paper and, on colon, a squashing function)"),
            show.set_index(SETTING_COLUMNS), Markdown(text)]


def sensitivity_claims(datasets) -> list:
    """(data set, claim) of every SVM-RFE claim on the data sets that ran: one :func:`plot_sensitivity` each."""
    return [(d, cl) for d in datasets for cl in CLAIMS if cl.dataset == d and cl.method == "svm-rfe"]


def closing_rows(long, checks, joint, setting, datasets) -> list:
    """Rows of the closing table (:func:`genesel.experiments.paper_vs_genesel`): every claim under the setting that
    reproduces the most claims, the best one agreeing with the paper's description and this notebook's parameters
    (each once), with the paper's protocol and, for the named settings, selection inside the folds."""
    if checks.empty:
        return [dict(quantity="published claims", paper="leukemia and colon only", genesel="not run",
                     note=f"this run used {dataset_names(datasets)}; pass datasets golub and alon to compare")]
    named = [("the setting reproducing the most claims", {k: joint.iloc[0][k] for k in SETTING_COLUMNS}, True)]
    if joint.iloc[0]["claims reproduced"] == 0:  # no setting reproduces anything: report the parameters used
        named = []
    if joint["paper's reading"].any() and not joint.iloc[0]["paper's reading"]:
        named.append(("the best setting agreeing with the paper's description",
                      {k: joint[joint["paper's reading"]].iloc[0][k] for k in SETTING_COLUMNS}, True))
    if all(setting_label(setting) != setting_label(s) for _, s, _ in named):
        named.append(("this notebook's parameters", setting, not named))
    rows = []
    for name, s, with_folds in named:
        rows += [r for r in paper_vs_genesel_rows(long, checks, s, name)
                 if with_folds or r["protocol"].startswith("paper")]
    return rows


def claims_reproduced(checks) -> str:
    """Markdown: per published claim, how many settings reproduce it under the paper's protocol."""
    lines = []
    if not checks.empty:
        for cl in CLAIMS:
            c = checks[checks.claim == cl.key]
            if len(c):
                lines.append(f"- *{cl.text}* (paper: {cl.paper}): reproduced by {int(c.reproduced.sum())} of {len(c)} "
                             f"settings under the paper's protocol.")
    return "\n".join(lines) if lines else "No published claim was checked in this run."


def bias_paragraph(long, main, whole_grid: bool) -> str:
    """Markdown: :func:`bias_summary` over the whole sensitivity grid (``whole_grid``, full mode) or under the
    notebook's setting (``main``; quick mode has no in-fold half); '' when nothing ran both ways."""
    summary = bias_summary(long if whole_grid else main)
    if not summary:
        return ""
    return (("**Selection bias over the whole grid**" if whole_grid else
             "**Selection bias under this notebook's setting** (quick mode: the grid has no in-fold half)")
            + " (leave-one-out errors with 2, 4 and 8 genes):\n\n" + summary)


# ----------------------------------------------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------------------------------------------

_COLORS = {"svm-rfe": "C0", "baseline": "C1"}


def _gene_axis(ax, n_all, every=3):
    """Log2 x axis with gene counts as tick labels (every ``every`` octaves) and the all-genes point labelled
    'all (n)'; ticks closer than 1.5 octaves to it are dropped so the labels never collide."""
    ticks = [2 ** k for k in range(0, int(math.log2(n_all)) + 1, every) if math.log2(n_all / 2 ** k) >= 1.5]
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks + [n_all])
    ax.set_xticklabels([str(t) for t in ticks] + [f"all\n({n_all})"])
    ax.minorticks_off()
    ax.set_xlabel("number of genes (log scale)")


def _paper_points(dataset):
    """(method, genes, success rate, label) the paper gives for ``dataset``'s leave-one-out success."""
    if dataset == "golub":
        return [("svm-rfe", 2, 1.0, "paper: 0 errors"), ("baseline", 64, 37 / 38, "paper: 1 error")]
    if dataset == "alon":
        return [("svm-rfe", 4, 0.98, "paper: 98 %"), ("baseline", 4, 0.86, "paper: 86 %")]
    return []


def plot_quality_panels(curves, dataset, split, title):
    """The eight quality measures against the number of genes, SVM-RFE vs the baseline: top row leave-one-out on
    the training samples, bottom row the test set; the paper's leave-one-out claims starred where they apply."""
    import matplotlib.pyplot as plt

    sub = curves[(curves.dataset == dataset) & (curves.split == split)]
    n_all = int(sub.n_genes.max())
    has_test = "T_suc" in sub and sub["T_suc"].notna().any()
    rows = ("V", "T") if has_test else ("V",)
    fig, axes = plt.subplots(len(rows), 4, figsize=(18, 10 if has_test else 5.8), sharex=True, squeeze=False)
    n_train, n_test = int(sub.n_train.iloc[0]), int(sub.n_test.iloc[0])
    for i, p in enumerate(rows):
        for j, m in enumerate(METRIC_NAMES):
            ax = axes[i, j]
            for method in ("svm-rfe", "baseline"):
                g = sub[sub.method == method].sort_values("n_genes")
                ax.plot(g.n_genes, g[f"{p}_{m}"], marker="o", color=_COLORS[method], label=METHOD_LABELS[method])
            ax.set_title(("Leave-one-out " if p == "V" else "Test-set ") + METRIC_WORDS[m], fontsize=16)
            ax.set_ylabel("fraction of samples" if m in ("suc", "acc") else "margin / output range", fontsize=14)
            if m in ("suc", "acc"):
                ax.set_ylim(-0.03, 1.05)
            if p == "V" and m == "suc" and split in ("predefined", "all"):
                for method, genes, val, lab in _paper_points(dataset):
                    ax.plot([genes], [val], marker="*", markersize=22, color=_COLORS[method], mec="black",
                            ls="none", label=f"{lab} ({'SVM-RFE' if method == 'svm-rfe' else 'baseline'})")
            _gene_axis(ax, n_all)
            if i < len(rows) - 1:
                ax.set_xlabel("")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)), frameon=False, fontsize=14,
               bbox_to_anchor=(0.5, -0.05))
    loo = "leave-one-group-out" if load_task(dataset).groups is not None else "leave-one-out"
    what = f"{loo} on the {n_train} training samples" + (f", test on {n_test} samples" if has_test else "")
    fig.suptitle(f"{title}\n({what}; margins divided by the range of the outputs)", fontsize=18)
    fig.tight_layout()
    return fig


def _wilson(k, n, z=1.96):
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def plot_selection_bias(long, datasets, setting, titles):
    """Leave-one-out accuracy against the number of genes, genes selected on all samples (as printed, solid) or
    inside each fold (dashed), with 95 % Wilson intervals of the as-printed accuracy and the paper's values."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(datasets), figsize=(8.5 * len(datasets) if len(datasets) > 1 else 12, 7.2),
                             squeeze=False)
    for ax, ds in zip(axes[0], datasets):
        s = dict(setting)
        if ds != "golub":
            s.update(thresholds="genesel", gene_filter="none")
        if ds != "alon":
            s.update(squash="none")
        n_all = 0
        for method in ("svm-rfe", "baseline"):
            for measure, ls, mk in (("printed", "-", "o"), ("in-fold", "--", "s")):
                curve, n = _curve(long, ds, method, s, measure)
                if not curve:
                    continue
                k = np.array(sorted(curve))
                acc = np.array([1 - curve[i] / n for i in k])
                n_all = max(n_all, int(k.max()))
                ax.plot(k, 100 * acc, ls=ls, marker=mk, color=_COLORS[method],
                        label=f"{METHOD_LABELS[method].split(':')[0]}: {MEASURES[measure].split(', ')[1]}")
                if measure == "printed":
                    lo, hi = np.array([_wilson(n - curve[i], n) for i in k if not np.isnan(curve[i])]).T
                    kk = np.array([i for i in k if not np.isnan(curve[i])])
                    ax.fill_between(kk, 100 * lo, 100 * hi, color=_COLORS[method], alpha=0.10, lw=0)
        for method, genes, val, lab in _paper_points(ds):
            ax.plot([genes], [100 * val], marker="*", markersize=24, color=_COLORS[method], mec="black", ls="none",
                    label=f"the paper's value ({'SVM-RFE' if method == 'svm-rfe' else 'baseline'})", zorder=5)
            ax.annotate(lab.replace("paper: ", ""), (genes, 100 * val), xytext=(12, -4 if method == "svm-rfe" else -22),
                        textcoords="offset points", fontsize=13, color=_COLORS[method], fontweight="bold")
        if n_all:
            _gene_axis(ax, n_all, every=2)
        ax.set_ylabel("leave-one-out accuracy (%)")
        ax.set_ylim(None, 101)
        ax.set_title(titles[ds])
    handles, labels = [], []
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False, fontsize=13, bbox_to_anchor=(0.5, -0.2))
    grouped = any(load_task(d).groups is not None for d in datasets)
    fig.suptitle("Selection bias: genes chosen on all samples vs inside each leave-one-out fold"
                 + (" (a whole group left out where the samples are grouped)" if grouped else "") + "\n"
                 f"({setting_label(setting)}; bands: 95 % intervals of the as-printed accuracy)", fontsize=17)
    fig.tight_layout()
    return fig


def _prep_label(p, keys):
    words = {"thresholds": lambda v: "floor 20" if v == "genesel" else "floor 100",
             "gene_filter": lambda v: "all genes" if v == "none" else "Dudoit filter",
             "standardize": lambda v: f"{v} standardised",
             "squash": lambda v: "no squashing" if v == "none" else f"{v} squashing"}
    return ", ".join(words[k](p[k]) for k in keys) or "genesel's preprocessing"


def plot_sensitivity(long, dataset, claim_key, title):
    """Leave-one-out errors at the claim's gene count for every setting that ran: rows = preprocessing, columns =
    C and elimination (SVM-RFE) and the baseline; left the paper's protocol, right selection inside the folds.
    Cells equal to the paper's value are framed; 'n.s.' = the hard margin does not exist (not separable)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    cl = next(c for c in CLAIMS if c.key == claim_key)
    base = next((c for c in CLAIMS if c.dataset == dataset and c.method == "baseline"), None)
    d = long[long.dataset == dataset]
    pcols = ["thresholds", "gene_filter", "standardize", "squash"]
    opts = setting_options(dataset)
    prep = [p for p in (dict(zip(pcols, v)) for v in itertools.product(*(opts[c] for c in pcols)))
            if ((d[pcols] == pd.Series(p)).all(axis=1)).any()]
    sv = d[d.method == "svm-rfe"]
    steps = [st for st in ("halving", "1") if (sv.step == st).any()]
    Cs = sorted(set(sv.C.dropna()))
    cols = [(C, st) for st in steps for C in Cs]
    measures = [m for m in ("printed", "in-fold") if (d.measure == m).any()]
    show_c = [k for k in pcols if len({p[k] for p in prep}) > 1]
    width = 4.8 + len(measures) * (0.58 * (len(cols) + 1) + 0.4)
    fig, axes = plt.subplots(1, len(measures), figsize=(max(10.0, width), max(5.0, 2.8 + 0.62 * len(prep))),
                             squeeze=False)
    for ax, measure in zip(axes[0], measures):
        M = np.full((len(prep), len(cols) + 1), np.nan)
        ran = np.zeros(M.shape, dtype=bool)
        for i, p in enumerate(prep):
            for j, (C, st) in enumerate(cols):
                curve, n = _curve(long, dataset, "svm-rfe", {**p, "C": C, "step": st}, measure)
                ran[i, j] = cl.genes in curve
                M[i, j] = curve.get(cl.genes, np.nan)
            if base is not None:
                curve, n = _curve(long, dataset, "baseline", p, measure)
                ran[i, -1] = base.genes in curve
                M[i, -1] = curve.get(base.genes, np.nan)
        top = min(8.0, max(4.0, float(np.nanmax(M)) if np.isfinite(M).any() else 4.0))
        ax.imshow(M, cmap="Blues", aspect="auto", vmin=0, vmax=top)
        n = int(d[d.measure == measure].n.iloc[0])
        for i in range(M.shape[0]):
            for j in range(M.shape[1]):
                v = M[i, j]
                txt = "" if not ran[i, j] else ("n.s." if np.isnan(v) else str(int(v)))
                ax.text(j, i, txt, ha="center", va="center", fontsize=13 if len(txt) < 3 else 10,
                        color="white" if not np.isnan(v) and v > 0.6 * top else "black")
                target = (cl.target_errors(n) if j < len(cols) else 1 if base.key == "leukemia_baseline"
                          else base.target_errors(n))
                if not np.isnan(v) and v == target:
                    ax.add_patch(Rectangle((j - 0.47, i - 0.47), 0.94, 0.94, fill=False, ec="#d62728", lw=3.5))
        ax.set_xticks(range(M.shape[1]))
        ax.set_xticklabels([format_C(C) for C, _ in cols] + ["base-\nline"], fontsize=13)
        ax.set_yticks(range(len(prep)))
        ax.set_yticklabels([_prep_label(p, show_c) for p in prep], fontsize=13)
        for k, st in enumerate(steps):
            ax.text(k * len(Cs) + (len(Cs) - 1) / 2, len(prep) - 0.5 + 1.35,
                    f"SVM-RFE, {_step_label('halving' if st == 'halving' else int(st))}: C",
                    ha="center", va="center", fontsize=13)
            if k:
                ax.axvline(k * len(Cs) - 0.5, color="black", lw=2)
        ax.axvline(len(cols) - 0.5, color="black", lw=2)
        ax.set_title(MEASURES[measure], fontsize=15)
        ax.grid(False)
        if ax is not axes[0, 0]:
            ax.set_yticklabels([])
    what = f"leave-one-out errors of SVM-RFE with {cl.genes} genes"
    if base is not None:
        what += f" and of the baseline with {base.genes} genes"
    fig.suptitle(f"{title}: {what}\nred frame: the paper's value; n.s.: no hard margin (not separable); "
                 "blank: not run", fontsize=16)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------------------------------------------
# notebook helpers: the setting a data set actually gets, the top genes, the hard margin
# ----------------------------------------------------------------------------------------------------------------


def top_genes_table(curves, dataset, split, setting, n_top=16) -> pd.DataFrame:
    """The ``n_top`` best genes of each ranking (1-based rank, "SYMBOL (probe)" where a symbol is known) and each
    gene's rank by |signal-to-noise| on the same preprocessed training samples."""
    from genesel.datasets import gene_labels, gene_symbols
    from genesel.filters import signal_to_noise
    ds, tr, _ = guyon_data(dataset, split, int(curves[curves.dataset == dataset].seed.iloc[0]))
    s = setting_for(dataset, setting)
    Xtr, _, kept = guyon_preprocess(ds.X[tr], None, dataset, thresholds=s["thresholds"],
                                    gene_filter=s["gene_filter"], standardize=s["standardize"], squash=s["squash"])
    s2n = signal_to_noise(Xtr, ds.y[tr])
    order = np.argsort(-np.abs(s2n), kind="stable")
    rank_of = {int(kept[i]): r for r, i in enumerate(order, 1)}
    col = {str(p): i for i, p in enumerate(ds.gene_ids)}
    symbols = gene_symbols(ds)
    out = {}
    for method in ("svm-rfe", "baseline"):
        g = curves[(curves.dataset == dataset) & (curves.split == split) & (curves.method == method)
                   & (curves.n_genes == n_top)]
        idx = [col[p] for p in g["genes"].iloc[0].split(";")] if len(g) else []
        name = "SVM-RFE" if method == "svm-rfe" else "baseline"
        out[f"{name} gene"] = gene_labels(ds, idx, symbols)
        out[f"{name}: rank by |S/N|"] = [rank_of[i] for i in idx]
    return pd.DataFrame(out, index=pd.RangeIndex(1, n_top + 1, name="rank"))


def hard_margin_note(curves, folds=None) -> str:
    """One sentence on the C = inf cells: how many subset results do not exist (not separable) and whether any
    separable one was lost to the SMO iteration cap (expected: none)."""
    parts = []
    for name, df in (("as printed", curves), ("inside the folds", folds)):
        if df is None or "separable" not in df or not len(df):
            continue
        h = df[df["C"].astype(float) == math.inf] if "C" in df else df.iloc[:0]
        if not len(h):
            continue
        ns = int((~h["separable"].astype(bool)).sum())
        lost = int((h["separable"].astype(bool) & ~h["converged"].astype(bool)).sum())
        unit = "subset results" if name == "as printed" else "fold outputs"
        parts.append(f"{name}: {ns} of {len(h)} hard-margin {unit} do not exist (training samples not separable)"
                     + (f", and {lost} separable ones stopped at the SMO iteration cap (left out)" if lost else
                        ", and every separable one converged"))
    return ("Hard margin (C = ∞): " + "; ".join(parts) + ".") if parts else ""


def constant_fit_note(curves) -> str:
    """One sentence on the subset results whose classifier fits (the leave-one-out fits and the final one) include
    constant, one-class models (``constant_fits`` of :func:`genesel.papers.guyon2002.guyon2002_curves`): e.g. the
    SVM on the single last gene of an elimination, whose optimum is w = 0 (the majority class for every sample).
    They are scored for what they predict; empty when there are none."""
    if "constant_fits" not in curves or not len(curves):
        return ""
    c = curves[curves["constant_fits"].fillna(0) > 0]
    if not len(c):
        return ""
    sizes = ", ".join(str(int(n)) for n in sorted(c["n_genes"].unique()))
    return (f"Constant classifiers: in {len(c)} of {int(curves['constant_fits'].notna().sum())} subset results, "
            f"{int(c['constant_fits'].sum())} fits in all (leave-one-out and final) had a constant optimum that "
            f"predicts one class for every sample (at {sizes} gene(s)); they count as the errors they make.")


def notebook_setting(*, C, step, standardize, thresholds, gene_filter, squash) -> dict:
    """The notebook's parameters checked and normalised into a setting (C a float, step "halving" or an int),
    each bad value refused with the values allowed."""
    try:
        C = float(C)
    except (TypeError, ValueError):
        raise ValueError(f"parameter 'C' must be a positive number or inf (papermill: -p C 100 or -p C inf), "
                         f"got {C!r}") from None
    if not C > 0:
        raise ValueError(f"parameter 'C' must be positive (or inf for a hard margin), got {C!r}")
    if isinstance(step, str) and step.strip().isdigit():
        step = int(step)
    if isinstance(step, float) and step.is_integer():
        step = int(step)
    if not (step == "halving" or (isinstance(step, int) and not isinstance(step, bool) and step >= 1)):
        raise ValueError(f"parameter 'step' must be 'halving' or a number of genes per step >= 1 (papermill: -p step "
                         f"1), got {step!r}")
    for name, value, allowed in (("standardize", standardize, STANDARDIZE), ("thresholds", thresholds, THRESHOLDS),
                                 ("gene_filter", gene_filter, GENE_FILTERS), ("squash", squash, SQUASH)):
        if value not in allowed:
            raise ValueError(f"parameter {name!r} must be one of {list(allowed)}, got {value!r}")
    return dict(thresholds=thresholds, gene_filter=gene_filter, standardize=standardize, squash=squash, C=C,
                step=step)


_CLASS_WORDS = {("n", "t"): ("normal", "tumour")}


def class_names(ds) -> tuple:
    """The two class names in words (colon's 'n'/'t' become 'normal'/'tumour')."""
    return _CLASS_WORDS.get(tuple(ds.classes), tuple(ds.classes))


def bias_summary(long, sizes=(2, 4, 8)) -> str:
    """Markdown: per data set and method, how the leave-one-out errors at small subsets change when the genes are
    chosen inside each fold instead of on all samples, over every setting that ran both ways."""
    keys = ["dataset", "method"] + SETTING_COLUMNS + ["n_genes"]
    d = long[long.n_genes.isin(sizes) & long.measure.isin(["printed", "in-fold"])].copy()
    d["C"] = d["C"].fillna(-1.0)
    d["step"] = d["step"].fillna("-")
    w = d.pivot_table(index=keys, columns="measure", values="errors", aggfunc="first").dropna()
    if "in-fold" not in w or w.empty:
        return ""
    lines = []
    for (ds, method), g in w.groupby(level=["dataset", "method"]):
        diff = g["in-fold"] - g["printed"]
        n_set = len(g.droplevel("n_genes").index.unique())
        lines.append(f"- {dataset_title(ds)}, {'SVM-RFE' if method == 'svm-rfe' else 'baseline'}: over "
                     f"{n_set} setting{'' if n_set == 1 else 's'} and {len(g)} (setting, subset size) pairs with "
                     f"{'/'.join(map(str, sizes))} "
                     f"genes, selection inside the folds gives more errors in {int((diff > 0).sum())}, as many in "
                     f"{int((diff == 0).sum())} and fewer in {int((diff < 0).sum())}; on average "
                     f"{diff.mean():+.1f} errors (from {g['printed'].mean():.1f} to {g['in-fold'].mean():.1f}).")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------------------------
# what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------

# Seconds, measured with genesel's solver on this project's 2-core machine (real data; the cached cells of a quick
# run record their seconds): one SVM-RFE run per n^2 d (n samples, d genes) with halving steps and with one gene
# per step; one leave-one-out fit of a small SVM or weighted vote (mostly fixed costs); the preprocessing of a
# fold per matrix entry. `benchmarks/bench_cost_estimates.py` compares the estimates with measured runs.
_RFE_HALVING, _RFE_PER_STEP = 1.4e-9, 1.0e-8
_SVM_FIT, _SVM_LOO_FIT, _VOTE_LOO_FIT, _PREP = 0.4e-9, 3e-3, 4.5e-3, 1.5e-7
_HARD_MARGIN_FACTOR = 10.0  # C = inf: the solver runs to its iteration cap on the non-separable subsets
_OVERHEAD = 18.0  # kernel start, imports, the tables, figures and exercises


def _cell_seconds(c, kind) -> float:
    from genesel.papers.guyon2002 import guyon_n_train, guyon_sizes

    n = guyon_n_train(c["dataset"], c["split"], c.get("seed", 0))
    d = load_task(c["dataset"]).n_genes * (0.43 if c.get("gene_filter") == "dudoit" else 1.0)
    top = c.get("max_size")
    n_sizes = len([k for k in guyon_sizes(int(d)) if top is None or k <= top or k == int(d)])
    if c["method"] == "baseline":
        return n * (n_sizes * _VOTE_LOO_FIT + (_PREP * n * d if kind == "folds" else 0.0))
    step = c.get("step")
    rfe = max(_RFE_HALVING, _RFE_PER_STEP / step if isinstance(step, int) else 0.0) * n * n * d
    hard = _HARD_MARGIN_FACTOR if math.isinf(float(c.get("C") or 1.0)) else 1.0
    if kind == "folds":  # per left-out sample: its preprocessing and one elimination, whose stages score it
        return hard * n * (_PREP * n * d + rfe)
    # one elimination, then leave-one-out at every size (all genes included)
    return hard * (rfe + n * (n_sizes * _SVM_LOO_FIT + _SVM_FIT * n * n * d))


def estimated_seconds(datasets, protocol, setting, *, quick, seed=0, max_size=None, n_jobs=1) -> tuple[float, str]:
    """(seconds, what dominates) of notebook 01 with these parameters, from the cells its grids will run (built as
    the notebook builds them), before any of them runs."""
    from genesel.papers import guyon2002 as G

    main = ([(c, "curves") for c in G.curve_cells(datasets, protocol, setting, seed=seed, max_size=max_size)]
            + [(c, "folds") for c in G.fold_cells(datasets, protocol, setting, seed=seed, max_size=max_size)])
    sc, sf = G.sensitivity_cells(datasets, {d: protocol[d]["loo_split"] for d in datasets}, quick=quick, seed=seed,
                                 max_size=max_size)
    sens = [(c, "curves") for c in sc] + [(c, "folds") for c in sf]
    t_main = sum(_cell_seconds(c, k) for c, k in main)
    t_sens = sum(_cell_seconds(c, k) for c, k in sens)
    parallel = max(1, min(int(n_jobs), 2))
    what = (f"sections 1-2 about {format_seconds(t_main / parallel)}, the sensitivity grid of {len(sens)} cells about "
            f"{format_seconds(t_sens / parallel)}")
    return _OVERHEAD + (t_main + t_sens) / parallel, what


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def step_comparison(halving, one_gene):
    """Exercise 1: leave-one-out errors of SVM-RFE per subset size with the paper's chunks and one gene per step
    (two runs of :func:`genesel.papers.guyon2002.guyon2002_curves` on the same split), and a sentence on what moved."""
    from IPython.display import Markdown

    def errors(res):
        r = res[res.method == "svm-rfe"]
        return r.set_index("n_genes")["V_errors"]

    t = pd.DataFrame({"chunks (halving)": errors(halving), "one gene per step": errors(one_gene)}).sort_index()
    t.index.name = "genes"
    moved = t.index[t.iloc[:, 0] != t.iloc[:, 1]].tolist()
    two = t.loc[2] if 2 in t.index else None
    text = (f"Leave-one-out errors change at {len(moved)} of {len(t)} subset sizes"
            + (f" ({', '.join(map(str, moved))} genes)" if moved else "") + ". "
            + ("" if two is None else f"With 2 genes: {int(two.iloc[0])} error(s) with chunks, {int(two.iloc[1])} "
               "with one gene per step."))
    return [t.astype("Int64"), Markdown(text)]


def bias_gaps(main, protocol: dict, sizes=(2, 4, 8)):
    """Exercise 2: per data set and method, the mean leave-one-out errors at ``sizes`` genes with the genes chosen
    on all samples and inside the folds, the gap in percent of the samples, and a sentence naming the largest."""
    from IPython.display import Markdown

    d = main[main.n_genes.isin(sizes) & ~main.all_genes]
    t = d.pivot_table(index=["dataset", "method"], columns="measure", values="errors", aggfunc="mean")
    t = t.reset_index()
    t["samples"] = t.dataset.map({k: v["n_loo"] for k, v in protocol.items()})
    t["gap (% of samples)"] = (100 * (t["in-fold"] - t["printed"]) / t["samples"]).round(1)
    t["dataset"] = t.dataset.map(dataset_title)
    t["method"] = t.method.map({"svm-rfe": "SVM-RFE", "baseline": "baseline"})
    t = t.rename(columns={"dataset": "data set", "printed": "errors, genes chosen on all samples",
                          "in-fold": "errors, chosen inside the folds"}).round(1)
    t.columns.name = None
    top = t.loc[t["gap (% of samples)"].idxmax()]
    text = (f"The largest gap is {top['gap (% of samples)']:.1f} % of the samples ({top['method']} on "
            f"{top['data set']}, {int(top['samples'])} samples). With few samples, each left-out sample weighs "
            "more in the ranking that saw it, and one error is a larger share.")
    return [t.set_index(["data set", "method"])[["samples", "errors, genes chosen on all samples",
                                                   "errors, chosen inside the folds", "gap (% of samples)"]],
            Markdown(text)]


def hard_margin_answer(res) -> str:
    """Exercise 3: from a C = inf run of :func:`genesel.papers.guyon2002.guyon2002_curves`, the subset sizes whose
    training samples are not linearly separable (no hard margin) and what that says."""
    r = res[res.method == "svm-rfe"].sort_values("n_genes")
    empty = r.n_genes[~r.separable.astype(bool)].tolist()
    if not empty:
        return "Every subset size is linearly separable: the hard-margin SVM exists at every size."
    return (f"The leave-one-out cells are empty at {', '.join(map(str, empty))} gene(s): with {max(empty)} or fewer "
            f"of the genes SVM-RFE kept, no hyperplane separates the {int(r.n_train.iloc[0])} training samples, so the "
            f"hard-margin SVM does not exist; from {r.n_genes[r.separable.astype(bool)].min()} genes on it does.")
