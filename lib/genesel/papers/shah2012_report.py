"""Shah, Marchand & Corbeil (2012): the summaries, tables and figures of notebook 04, from the cells of
:mod:`genesel.papers.shah2012` (kept apart so that editing a table or a figure never invalidates a cached cell).

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and Learning from
Microarray Data*, IEEE TPAMI 34(1):174-186, 2012: Tables 1-5 beside ours (errors as counts ± sd over the
permutations, the most frequent sizes), the risk bounds against the test errors, sparsity against error, a two-stump
classifier drawn on its two genes, the cost of every method.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.datasets import display_name
from genesel.dataref import is_file_reference
from genesel.papers.common import is_user_file, load_task
from genesel.papers.shah2012 import (METHODS, MISSING_DATASETS, MNIST_PAIRS, PAPER_DATASETS, STUMP_METHODS,
                                     dataset_note, paper_table1, paper_table2, paper_table3, paper_table4,
                                     paper_table5)

__all__ = ["paper_name", "check_methods", "summarise_cv", "not_applicable_note", "grid_table", "datasets_table",
           "missing_table", "table1", "table2", "table3", "table4", "table5", "cost_table", "cpu_sentence",
           "paper_vs_rows", "plot_bound_vs_error", "plot_sparsity_vs_error", "plot_two_stumps", "stump_values",
           "axis_unit", "paper_cell",
           "final_models_table", "estimated_seconds", "QUICK_BUDGET", "FULL_BUDGET", "permutation_spread",
           "bound_by_samples", "quick_leaves_out"]

#: Time budgets of notebook 04 on 2 cores (seconds): quick mode, full mode (its full run: 3754 CPU s for Tables 1-4).
QUICK_BUDGET, FULL_BUDGET = 45.0, 2400.0


def paper_name(dataset: str) -> str:
    """The paper's name of a data set ("Leuk", "C_MD", "MNIST-0vs8"), else its registry name."""
    return display_name(dataset, {v: k for k, v in {**PAPER_DATASETS, **MNIST_PAIRS}.items()}, fallback="name")


def quick_leaves_out(datasets, n_perm: int, grid: dict, mnist, mnist_samples) -> str:
    """What this quick run leaves out of the paper's protocol, for the notebook's banner: its data sets and MNIST
    pairs by the paper's names, its permutations, inner folds and grids (true of whatever parameters ran)."""
    names = ", ".join(paper_name(d) for d in datasets)
    digits = ", ".join(paper_name(m) for m in mnist)
    return (f"{names} only, {n_perm} permutation{'s' if n_perm != 1 else ''} of the 5-fold CV, {grid['inner_k']} "
            f"inner folds, small parameter grids, at most {grid['max_stumps']} stumps and {max(grid['ada_rounds'])} "
            f"boosting rounds, MNIST: {digits or 'none'}"
            + (f" ({mnist_samples} images each)" if mnist and mnist_samples else " (all images)" if mnist else ""))


def check_methods(methods) -> list:
    """The notebook's ``methods`` (None: all of :data:`METHODS`), unknown ones refused with the choice."""
    methods = list(methods) if methods else list(METHODS)
    unknown = sorted(set(methods) - set(METHODS))
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from {list(METHODS)}")
    return methods


def grid_table(grid: dict) -> pd.DataFrame:
    """The parameter grid of a mode (:data:`genesel.papers.shah2012.GRIDS`), one row per parameter."""
    return pd.DataFrame({k: [", ".join(map(str, v)) if isinstance(v, tuple) else v] for k, v in grid.items()},
                        index=["values"]).T


# ----------------------------------------------------------------------------------------------------------------
# summaries
# ----------------------------------------------------------------------------------------------------------------


def _mode(values):
    v = pd.Series(values).dropna()
    if v.empty:
        return np.nan
    counts = v.value_counts()
    top = counts[counts == counts.max()].index
    return min(top)


def _total(values) -> float:
    """The sum over folds; nan when a fold has none (not applicable there): never a partial total."""
    return float(pd.Series(values, dtype=float).sum(min_count=len(values)))


def _whole(x):
    """``x`` rounded to a whole number; nan stays nan (shown as "–")."""
    return int(round(x)) if np.isfinite(x) else np.nan


def summarise_cv(res: pd.DataFrame) -> pd.DataFrame:
    """Per (data set, method): errors as the paper reports them — the total test errors of each permutation's
    5-fold CV, mean and sd over permutations — plus the mean and sd of the size (genes or stumps), its most
    frequent value over all folds, and for PAC-Bayes the Gibbs errors and the mean bound (as a rate)."""
    rows = []
    for (d, m), g in res.groupby(["dataset", "method"], sort=False):
        per = g.groupby("perm").agg(errors=("errors", _total), n=("n_test", "sum"))
        row = dict(dataset=d, method=m, n_perm=int(per.shape[0]), n_samples=int(per["n"].iloc[0]),
                   errors=float(per["errors"].mean(skipna=False)),
                   errors_sd=float(per["errors"].std(ddof=1, skipna=False)) if per.shape[0] > 1 else np.nan,
                   size_mean=float(g["size"].mean(skipna=False)),
                   size_sd=float(g["size"].std(ddof=1, skipna=False)) if len(g) > 1 else np.nan,
                   size_mode=_mode(g["size"]) if g["size"].notna().all() else np.nan,
                   cpu_seconds=float(g["cpu_seconds"].sum()))
        if "not_applicable" in g and g["not_applicable"].notna().any():  # a fold it could not be fitted on
            row["not_applicable"] = (f"{int(g['not_applicable'].notna().sum())} of {len(g)} folds: "
                                     + g["not_applicable"].dropna().iloc[0])
        if "gibbs_errors" in g and g["gibbs_errors"].notna().any():
            pg = g.groupby("perm")["gibbs_errors"].sum()
            row["gibbs_errors"] = float(pg.mean())
            row["gibbs_errors_sd"] = float(pg.std(ddof=1)) if pg.size > 1 else np.nan
        if "bound" in g and g["bound"].notna().any():
            row["bound"] = float(g["bound"].mean())
            row["bound_sd"] = float(g["bound"].std(ddof=1)) if len(g) > 1 else np.nan
        if "rounds" in g and g["rounds"].notna().any():
            row["rounds_mode"] = _mode(g["rounds"])
        rows.append(row)
    return pd.DataFrame(rows)


def paper_cell(text):
    """A value of the paper's tables as a reader can take it: as printed ("12.8±1.4"), but a spread or value
    whose digits did not survive in our copy of the text ("22.2±-*", ".*") said in words, never shown as garbage."""
    t = str(text).strip()
    if not any(ch.isdigit() for ch in t):
        return "illegible in our copy"
    if "±" in t and not any(ch.isdigit() for ch in t.split("±", 1)[1]):
        return f"{t.split('±', 1)[0]} (sd illegible in our copy)"
    return t


def _errors_cell(s: pd.DataFrame, m: str) -> str:
    """A method's errors in Tables 1-2: mean ± sd, or "not applicable" when a fold could not be fitted."""
    if "not_applicable" in s and isinstance(s.loc[m, "not_applicable"], str):
        return "not applicable"
    return _fmt(s.loc[m, "errors"], s.loc[m, "errors_sd"])


def not_applicable_note(summary: pd.DataFrame) -> str:
    """Which methods could not be fitted on some fold of which data set, and why (empty when every method ran on
    every fold: always so on the paper's data sets)."""
    if "not_applicable" not in summary or not summary["not_applicable"].notna().any():
        return ""
    rows = summary[summary["not_applicable"].notna()]
    return "**Not applicable** (no errors counted, shown as such in the tables): " + "; ".join(
        f"{m} on {paper_name(d)} ({why})" for d, m, why in zip(rows["dataset"], rows["method"], rows["not_applicable"]))


def _fmt(mean, sd, digits=1):
    if mean is None or not np.isfinite(mean):
        return "–"
    return f"{mean:.{digits}f} ± {sd:.{digits}f}" if sd is not None and np.isfinite(sd) else f"{mean:.{digits}f}"


def table1(summary: pd.DataFrame) -> pd.DataFrame:
    """Table 1 (baselines), ours beside the paper's: errors (counts, mean ± sd over permutations) and the most
    frequent size / number of boosting rounds."""
    pap = paper_table1().set_index("dataset")
    rows = []
    for d, g in summary.groupby("dataset", sort=False):
        s = g.set_index("method")
        name = paper_name(d)
        r = {"data set": name, "samples": int(s["n_samples"].iloc[0])}
        for m, S in (("SVM", None), ("SVM+gs", "size_mode"), ("SVM+rfe", "size_mode"), ("AdaBoost", "rounds_mode"),
                     ("L0", "size_mode")):
            if m in s.index:
                r[f"{m} errors"] = _errors_cell(s, m)
                if S:
                    r[f"{m} {'rounds' if m == 'AdaBoost' else 'genes'}"] = s.loc[m, S]
            if name in pap.index:
                r[f"{m} errors (paper)"] = paper_cell(pap.loc[name, m])
        rows.append(r)
    return pd.DataFrame(rows).set_index("data set")


def table2(summary: pd.DataFrame) -> pd.DataFrame:
    """Table 2 (stump learners), ours beside the paper's."""
    pap = paper_table2().set_index("dataset")
    rows = []
    for d, g in summary.groupby("dataset", sort=False):
        s = g.set_index("method")
        name = paper_name(d)
        r = {"data set": name, "samples": int(s["n_samples"].iloc[0])}
        for m in ("Occam", "SC"):
            if m in s.index:
                r[f"{m} errors"] = _errors_cell(s, m)
                r[f"{m} stumps"] = _fmt(s.loc[m, "size_mean"], s.loc[m, "size_sd"], 2)
            if name in pap.index:
                r[f"{m} errors (paper)"] = paper_cell(pap.loc[name, m])
                r[f"{m} stumps (paper)"] = paper_cell(pap.loc[name, f"{m} S"])
        if "PAC-Bayes" in s.index:
            q = s.loc["PAC-Bayes"]
            r["PAC-Bayes stumps"] = _fmt(q["size_mean"], q["size_sd"], 2)
            r["PAC-Bayes Gibbs errors"] = _fmt(q.get("gibbs_errors", np.nan), q.get("gibbs_errors_sd", np.nan))
            r["PAC-Bayes Bayes errors"] = _fmt(q["errors"], q["errors_sd"])
        if name in pap.index:
            r["PAC-Bayes stumps (paper)"] = paper_cell(pap.loc[name, "PAC-Bayes S"])
            r["PAC-Bayes Gibbs errors (paper)"] = paper_cell(pap.loc[name, "PAC-Bayes G-errs"])
            r["PAC-Bayes Bayes errors (paper)"] = paper_cell(pap.loc[name, "PAC-Bayes B-errs"])
        rows.append(r)
    return pd.DataFrame(rows).set_index("data set")


def table3(res: pd.DataFrame, fixed: pd.DataFrame) -> pd.DataFrame | None:
    """Table 3 for one permutation: size (mean over folds, rounded), errors (total over the 5 test folds) and the
    bound (the mean over folds of Theorem 5's bound of the final classifier, times the data set's size), fixed vs
    variable margin, beside the paper's. ``res``: the rows of Tables 1-2 (the PAC-Bayes ones are the variable
    margin); ``fixed``: the rows of ``table3_fixed_cell``. None when PAC-Bayes did not run."""
    variable = res[res["method"] == "PAC-Bayes"]
    if not len(variable):
        return None
    n_total = {d: int(load_task(d).y.size) for d in variable["dataset"].unique()}
    pap = paper_table3().set_index("dataset")
    rows = []
    for d in variable["dataset"].unique():
        v = variable[(variable["dataset"] == d) & (variable["perm"] == 0)]
        f = fixed[fixed["dataset"] == d]
        name = paper_name(d)
        m = n_total[d]
        r = {"data set": name, "samples": m,
             "fixed size": _whole(f["size"].mean(skipna=False)) if len(f) else np.nan,
             "fixed errors": _whole(_total(f["errors"])) if len(f) else np.nan,
             "fixed bound": _whole(f["bound"].mean(skipna=False) * m) if len(f) else np.nan,
             "variable size": _whole(v["size"].mean(skipna=False)),
             "variable Gibbs errors": round(_total(v["gibbs_errors"]), 1),
             "variable Bayes errors": _whole(_total(v["errors"])),
             "variable bound": _whole(v["bound"].mean(skipna=False) * m)}
        if name in pap.index:
            for k, pk in (("fixed size", "fixed size"), ("fixed errors", "fixed errors"),
                          ("fixed bound", "fixed bound"),
                          ("variable size", "variable size"), ("variable Gibbs errors", "variable G-errs"),
                          ("variable Bayes errors", "variable B-errs"), ("variable bound", "variable bound")):
                r[k + " (paper)"] = pap.loc[name, pk]
        rows.append(r)
    return pd.DataFrame(rows).set_index("data set")


def table4(res: pd.DataFrame) -> pd.DataFrame:
    """Table 4: MNIST pairs, error rates (fractions) of one nested 5-fold CV, sizes, PAC-Bayes bound."""
    pap = paper_table4().set_index("dataset")
    rows = []
    for d, g in res.groupby("dataset", sort=False):
        name = paper_name(d)
        n = int(g[g["method"] == g["method"].iloc[0]]["n_test"].sum())
        r = {"pair": name, "samples": n}
        for m in ("SVM+rfe", "L0", "PAC-Bayes"):
            q = g[g["method"] == m]
            if not len(q):
                continue
            r[f"{m} error"] = round(float(q["errors"].sum()) / n, 4)
            r[f"{m} size"] = _mode(q["size"]) if m != "PAC-Bayes" else round(float(q["size"].mean()), 1)
            if m == "PAC-Bayes":
                r["PAC-Bayes Gibbs error"] = round(float(q["gibbs_errors"].sum()) / n, 4)
                r["PAC-Bayes bound"] = round(float(q["bound"].mean()), 3)
        if name in pap.index:
            p = pap.loc[name]
            r.update({"paper samples": int(p["ex"]), "SVM+rfe error (paper)": p["SVM-rfe"],
                      "L0 error (paper)": p["L0"], "PAC-Bayes error (paper)": p["PAC-Bayes B-errs"],
                      "PAC-Bayes bound (paper)": p["PAC-Bayes bound"], "PAC-Bayes stumps (paper)": p["PAC-Bayes S"]})
        rows.append(r)
    return pd.DataFrame(rows).set_index("pair")


def table5(finals: pd.DataFrame) -> pd.DataFrame:
    """Table 5: genes of the final PAC-Bayes classifiers (probe ID, symbol, interval, direction) beside the
    paper's, one row per stump (1-based)."""
    pap = paper_table5()
    rows = []
    for _, f in finals.iterrows():
        name = paper_name(f["dataset"])
        paper_genes = pap.get(name, [])
        n = max(len(f["genes"]), len(paper_genes))
        for i in range(n):
            r = {"data set": name, "stump": i + 1}
            if i < len(f["genes"]):
                a, b = f["intervals"][i]
                r.update({"probe": f["probe_ids"][i], "symbol": f["symbols"][i] or "–",
                          "margin interval": f"[{a:.4g}, {b:.4g}]",
                          "outputs 1 when": ("x above the interval" if f["directions"][i] > 0
                                             else "x below the interval")})
            r["paper's gene"] = paper_genes[i] if i < len(paper_genes) else ""
            rows.append(r)
    return pd.DataFrame(rows).set_index(["data set", "stump"])


def final_models_table(finals: pd.DataFrame) -> pd.DataFrame:
    """The final PAC-Bayes classifiers of Table 5 in words: model, positive class, the chosen p and eta, stumps,
    training Gibbs risk and the bound of Theorem 5."""
    out = finals[["dataset", "model", "positive_class", "p", "eta", "n_stumps", "train_gibbs_risk", "bound"]].copy()
    out["dataset"] = out["dataset"].map(paper_name)
    return out.rename(columns={"dataset": "data set", "positive_class": "positive class", "n_stumps": "stumps",
                               "train_gibbs_risk": "training Gibbs risk", "bound": "bound (Theorem 5)"}
                      ).set_index("data set")


# ----------------------------------------------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------------------------------------------

_COLORS = {"SVM": "#7f7f7f", "SVM+gs": "#1f77b4", "SVM+rfe": "#17becf", "AdaBoost": "#9467bd", "L0": "#8c564b",
           "Occam": "#ff7f0e", "SC": "#d62728", "PAC-Bayes": "#2ca02c"}


def plot_bound_vs_error(res: pd.DataFrame, mnist: pd.DataFrame | None = None, title_extra: str = ""):
    """Bars per data set: each stump learner's CV error rate (mean ± sd over outer folds) beside its risk bound
    (mean ± sd of the final classifiers' bounds, Theorem 2, 3 or 5). Returns the figure."""
    import matplotlib.pyplot as plt

    frames = [res[res["method"].isin(STUMP_METHODS)]]
    if mnist is not None and len(mnist):
        frames.append(mnist[mnist["method"] == "PAC-Bayes"])
    df = pd.concat(frames)
    df = df.assign(rate=df["errors"] / df["n_test"])
    dsets = list(dict.fromkeys(df["dataset"]))
    fig, ax = plt.subplots(figsize=(max(10, 1.9 * len(dsets) + 3), 6.5))
    width = 0.13
    for k, m in enumerate(STUMP_METHODS):
        for j, what in enumerate(("rate", "bound")):
            xs, ys, es = [], [], []
            for i, d in enumerate(dsets):
                q = df[(df["dataset"] == d) & (df["method"] == m)]
                if not len(q):
                    continue
                xs.append(i + (2 * k + j - 2.5) * width)
                ys.append(100 * q[what].mean())
                es.append(100 * q[what].std(ddof=1) if len(q) > 1 else 0)
            ax.bar(xs, ys, width, yerr=es, color=_COLORS[m], alpha=1.0 if j == 0 else 0.45,
                   hatch=None if j == 0 else "//", edgecolor="black", linewidth=0.6, capsize=3,
                   label=f"{m}: {'test error (CV)' if j == 0 else 'risk bound'}")
    ax.set_xticks(range(len(dsets)))
    ax.set_xticklabels([paper_name(d) for d in dsets])
    ax.set_ylabel("error rate / bound (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Risk bound vs cross-validated test error of the stump learners" + title_extra)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=12, frameon=False)
    fig.tight_layout()
    return fig


def plot_sparsity_vs_error(summary: pd.DataFrame, title_extra: str = ""):
    """One panel per data set: mean number of genes (log scale) vs CV error (% of samples, ± sd over
    permutations) for every method; hollow markers: the paper's values (Tables 1-2) where it has them."""
    import matplotlib.pyplot as plt

    p1 = paper_table1().set_index("dataset")
    p2 = paper_table2().set_index("dataset")
    dsets = list(dict.fromkeys(summary["dataset"]))
    ncol = min(3, len(dsets))
    nrow = int(np.ceil(len(dsets) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(max(6.2 * ncol, 9.0), max(4.9 * nrow, 6.0)), squeeze=False)
    handles = {}
    has_paper = False
    for ax, d in zip(axes.flat, dsets):
        g = summary[summary["dataset"] == d]
        n = g["n_samples"].iloc[0]
        name = paper_name(d)
        for _, r in g.iterrows():
            m = r["method"]
            size = r["size_mean"] if m in STUMP_METHODS or m == "AdaBoost" else r["size_mode"]
            h = ax.errorbar(size, 100 * r["errors"] / n, yerr=100 * (r["errors_sd"] if np.isfinite(r["errors_sd"])
                                                                       else 0) / n,
                            fmt="o", ms=10, color=_COLORS.get(m, "k"), capsize=4, label=m)
            handles[m] = h
            # the paper's point
            pe, ps = np.nan, np.nan
            if name in p1.index and m in ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0"):
                pe = p1.loc[name, f"{m}_mean"]
                ps = {"SVM": p1.loc[name, "genes"], "SVM+gs": p1.loc[name, "SVM+gs S"],
                      "SVM+rfe": p1.loc[name, "SVM+rfe S"], "L0": p1.loc[name, "L0 S"],
                      "AdaBoost": np.nan}[m]
            if name in p2.index and m in STUMP_METHODS:
                key = {"Occam": "Occam", "SC": "SC", "PAC-Bayes": "PAC-Bayes B-errs"}[m]
                pe = p2.loc[name, f"{key}_mean"]
                ps = p2.loc[name, f"{'PAC-Bayes S' if m == 'PAC-Bayes' else m + ' S'}_mean"]
            try:
                ps = float(str(ps).rstrip("*"))
            except ValueError:
                ps = np.nan
            pex = {"Leuk": 72, "Colon": 62, "C_MD": 60, "BreastER": 49, "Lung": 52}.get(name, n)
            if np.isfinite(pe) and np.isfinite(ps):
                ax.plot(ps, 100 * pe / pex, "o", ms=13, mfc="none", mew=2, color=_COLORS.get(m, "k"))
                has_paper = True
        ax.set_xscale("log")
        ax.set_xlabel("genes used (stumps; mean or most frequent)")
        ax.set_ylabel("CV error (% of samples)")
        ax.set_title(name)
    for ax in list(axes.flat)[len(dsets):]:
        ax.axis("off")
    if has_paper:
        handles["the paper's value (hollow)"] = axes.flat[0].plot([], [], "o", ms=13, mfc="none", mew=2,
                                                                  color="k")[0]
    fig.legend(list(handles.values()), list(handles.keys()), loc="center left", bbox_to_anchor=(1.0, 0.5),
               frameon=False, fontsize=13)
    fig.suptitle("Sparsity vs error: every method on every data set" + title_extra)
    fig.tight_layout()
    return fig


def stump_values(dataset: str) -> np.ndarray:
    """The values the stump learners were fitted on, in which a final classifier's margin intervals are given: the
    data set as read, or for a researcher's file of counts its counts per million of each sample's library (as
    :mod:`genesel.papers.shah2012` prepares it for its cells; the figure must plot the samples in the intervals'
    units). The same rule as that module's private ``_task``, written again here because that module is in its
    cells' cache key: join the two (a public function there) when it next changes."""
    ds = load_task(dataset)
    if ds.scale == "counts" and is_user_file(dataset):
        from genesel.preprocessing import CountNormalizer

        return CountNormalizer(method="cpm", log=False).fit_transform(np.asarray(ds.X, dtype=np.float64))
    return np.asarray(ds.X, dtype=np.float64)


def axis_unit(dataset: str, scale: str | None) -> str:
    """The words for a gene's axis in the stump figures: what the values are, from the data set's scale."""
    if dataset.startswith("mnist_"):
        return "pixel intensity (0-255)"
    return {"raw-intensity": "intensity (arbitrary units)", "counts": "counts per million"}.get(
        scale, "expression (log or standardised, as published)")


def plot_two_stumps(dataset: str, final: dict, title_extra: str = ""):
    """The samples of ``dataset`` on the two genes of a two-stump PAC-Bayes classifier, with each stump's margin
    interval (shaded; the threshold is uniform on it) and the region the conjunction assigns to the positive
    class (Bayes classifier, Π σ > 1/2)."""
    import matplotlib.pyplot as plt

    ds = load_task(dataset)
    X, y, classes = stump_values(dataset), ds.y, ds.classes
    g1, g2 = final["genes"][:2]
    (a1, b1), (a2, b2) = final["intervals"][:2]
    d1, d2 = final["directions"][:2]
    x1, x2 = X[:, g1], X[:, g2]
    fig, ax = plt.subplots(figsize=(10, 8.5))
    logs = []
    lims = []
    for x, (a, b) in ((x1, (a1, b1)), (x2, (a2, b2))):
        lg = bool(x.min() > 0 and x.max() / x.min() > 100)  # raw intensities: a log axis shows them
        logs.append(lg)
        if lg:
            lo, hi = min(x.min(), a) / 1.2, max(x.max(), b) * 1.2
        else:
            pad = 0.05 * (max(x.max(), b) - min(x.min(), a))
            lo, hi = min(x.min(), a) - pad, max(x.max(), b) + pad
        lims.append((lo, hi))
    (lo1, hi1), (lo2, hi2) = lims
    axis1 = np.geomspace(lo1, hi1, 400) if logs[0] else np.linspace(lo1, hi1, 400)
    axis2 = np.geomspace(lo2, hi2, 400) if logs[1] else np.linspace(lo2, hi2, 400)
    gx, gy = np.meshgrid(axis1, axis2)
    s1 = np.clip((gx - a1) / (b1 - a1), 0, 1)
    s1 = s1 if d1 > 0 else 1 - s1
    s2 = np.clip((gy - a2) / (b2 - a2), 0, 1)
    s2 = s2 if d2 > 0 else 1 - s2
    prob = s1 * s2
    ax.contourf(gx, gy, prob, levels=[0.5, 1.01], colors=["#b7e4b7"], alpha=0.6)
    ax.contour(gx, gy, prob, levels=[0.5], colors=["#2ca02c"], linewidths=2)
    ax.axvspan(a1, b1, color="#ffbf80", alpha=0.35)
    ax.axhspan(a2, b2, color="#ffbf80", alpha=0.35)
    pc = final["positive_class"]
    pos = np.asarray([classes[1] if v > 0 else classes[0] for v in y]) == pc
    ax.scatter(x1[pos], x2[pos], s=70, marker="o", color="#2ca02c", edgecolor="k", label=f"{pc} (positive class)")
    neg_name = classes[0] if pc == classes[1] else classes[1]
    ax.scatter(x1[~pos], x2[~pos], s=70, marker="s", color="#d62728", edgecolor="k", label=neg_name)
    ax.plot([], [], color="#2ca02c", lw=2, label="Bayes boundary (product of sigmas = 1/2)")
    ax.fill_between([], [], color="#ffbf80", alpha=0.35, label="margin intervals [a, b]")
    labs = final["labels"][:2]
    unit = axis_unit(dataset, ds.scale)
    ax.set_xlabel(f"{labs[0]}: {unit}" + (" (log scale)" if logs[0] else ""))
    ax.set_ylabel(f"{labs[1]}: {unit}" + (" (log scale)" if logs[1] else ""))
    if logs[0]:
        ax.set_xscale("log")
    if logs[1]:
        ax.set_yscale("log")
    ax.set_xlim(lo1, hi1)
    ax.set_ylim(lo2, hi2)
    if final.get("model", "conjunction") == "conjunction":
        title = f"{paper_name(dataset)}: a two-stump PAC-Bayes conjunction"
    else:  # a disjunction is the conjunction for the swapped labels: the shaded region is where both stumps agree
        title = (f"{paper_name(dataset)}: a two-stump PAC-Bayes disjunction: {neg_name} unless both stumps vote {pc} "
                 "(shaded)")
    ax.set_title(title + title_extra)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False, fontsize=12)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------------------------------------------
# notebook helpers: data set table, the two-stump classifier, cost, paper vs genesel
# ----------------------------------------------------------------------------------------------------------------


def datasets_table(datasets) -> pd.DataFrame:
    """The data sets that will run: paper name, genesel name, samples, genes, classes (negative / positive in
    a conjunction), and how the copy differs from the paper's."""
    rows = []
    for d in datasets:
        ds = load_task(d)
        X, y, classes = ds.X, ds.y, ds.classes
        rows.append({"paper name": paper_name(d), "samples": int(X.shape[0]),
                     "genesel data set": "a file of your own" if is_file_reference(d) else d,
                     "genes": int(X.shape[1]), "classes (-1 / +1)": f"{classes[0]} ({int(np.sum(y < 0))}) / "
                     f"{classes[1]} ({int(np.sum(y > 0))})", "difference from the paper": dataset_note(d)})
    return pd.DataFrame(rows).set_index("paper name")


def missing_table() -> pd.DataFrame:
    return pd.DataFrame([{"paper data set": k, "why it is missing": v}
                         for k, v in MISSING_DATASETS.items()]).set_index("paper data set")


def cost_table(res: pd.DataFrame, mnist: pd.DataFrame) -> pd.DataFrame:
    """CPU seconds per method and data set (the sum over the outer folds) of Tables 1-2 (``res``) and 4
    (``mnist``)."""
    res = pd.concat([res, mnist])
    g = res.groupby(["method", "dataset"])["cpu_seconds"]
    out = pd.DataFrame({"CPU seconds (all folds)": g.sum(), "CPU seconds per outer fold": g.mean()}).reset_index()
    out["dataset"] = out["dataset"].map(paper_name)
    t = out.pivot(index="method", columns="dataset", values="CPU seconds (all folds)").round(1)
    return t.astype(object).where(t.notna(), "not run")


def cpu_sentence(res: pd.DataFrame, mnist: pd.DataFrame, wall: float) -> str:
    """The CPU seconds of Tables 1-2 and 4 (the sums of the cells' own CPU times) and this run's wall time."""
    return (f"Tables 1-2: {res['cpu_seconds'].sum():.0f} CPU s; Table 4: {mnist['cpu_seconds'].sum():.0f} CPU s "
            f"(the sums of the cells' own CPU times; this run's wall time: {wall:.0f} s, 0 for cached cells)")


def paper_vs_rows(summary: pd.DataFrame, t3: pd.DataFrame | None, t4: pd.DataFrame | None, n_perm: int,
                  inner_k: int = 5) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: every number of Tables 1-4 with a counterpart here
    (``inner_k``: the folds of the nested CV that ran)."""
    p1 = paper_table1().set_index("dataset")
    p2 = paper_table2().set_index("dataset")
    rows = []
    proto = f"{n_perm} permutation(s) x 5-fold CV, nested {inner_k}-fold CV"
    for d, g in summary.groupby("dataset", sort=False):
        name = paper_name(d)
        s = g.set_index("method")
        note = "" if d != "garber" else "substitute data set (47 x 3171, not 52 x 918)"
        for m in METHODS:
            if m not in s.index:
                continue
            r = s.loc[m]
            ours = _fmt(r["errors"], r["errors_sd"])
            if m in ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0") and name in p1.index:
                paper = paper_cell(p1.loc[name, m])
                extra = {"SVM+gs": "SVM+gs S", "SVM+rfe": "SVM+rfe S", "L0": "L0 S", "AdaBoost": "AdaBoost itrs"}
                if m in extra:
                    size = r["rounds_mode"] if m == "AdaBoost" else r["size_mode"]
                    paper += f" ({'rounds' if m == 'AdaBoost' else 'genes'} {p1.loc[name, extra[m]]})"
                    ours += f" ({'rounds' if m == 'AdaBoost' else 'genes'} {int(size)})"
                rows.append(dict(quantity=f"{name}: {m} errors", protocol=proto, paper=paper, genesel=ours, note=note))
            if m in STUMP_METHODS and name in p2.index:
                key = {"Occam": ("Occam", "Occam S"), "SC": ("SC", "SC S"),
                       "PAC-Bayes": ("PAC-Bayes B-errs", "PAC-Bayes S")}[m]
                paper = f"{paper_cell(p2.loc[name, key[0]])} ({paper_cell(p2.loc[name, key[1]])} stumps)"
                ours += f" ({r['size_mean']:.2f} ± {r['size_sd']:.2f} stumps)" if np.isfinite(r["size_sd"]) else ""
                label = "Bayes errors" if m == "PAC-Bayes" else "errors"
                rows.append(dict(quantity=f"{name}: {m} {label}", protocol=proto, paper=paper, genesel=ours,
                                 note=note))
                if m == "PAC-Bayes":
                    rows.append(dict(quantity=f"{name}: PAC-Bayes Gibbs errors", protocol=proto,
                                     paper=paper_cell(p2.loc[name, "PAC-Bayes G-errs"]),
                                     genesel=_fmt(r.get("gibbs_errors", np.nan), r.get("gibbs_errors_sd", np.nan)),
                                     note=note))
    if t3 is not None:
        for name, r in t3.iterrows():
            if "variable bound (paper)" in r and pd.notna(r.get("variable bound (paper)")):
                rows.append(dict(quantity=f"{name}: Table 3 bound, variable / fixed margin (x samples)",
                                 protocol="one permutation", paper=f"{r['variable bound (paper)']} / "
                                 f"{r['fixed bound (paper)']}", genesel=f"{r['variable bound']} / {r['fixed bound']}",
                                 note="bound of the final classifier of each outer fold, mean x samples"))
    if t4 is not None:
        for pair, r in t4.iterrows():
            if "PAC-Bayes bound (paper)" in r and pd.notna(r.get("PAC-Bayes bound (paper)")):
                rows.append(dict(quantity=f"{pair}: PAC-Bayes error / bound", protocol=f"one nested {inner_k}-fold CV",
                                 paper=f"{r['PAC-Bayes error (paper)']} / {r['PAC-Bayes bound (paper)']}",
                                 genesel=f"{r['PAC-Bayes error']} / {r['PAC-Bayes bound']}",
                                 note=f"{r['samples']} images here vs {r['paper samples']}"))
                for m in ("SVM+rfe", "L0"):
                    if f"{m} error" in r:
                        rows.append(dict(quantity=f"{pair}: {m} error", protocol=f"one nested {inner_k}-fold CV",
                                         paper=r[f"{m} error (paper)"], genesel=r[f"{m} error"], note=""))
    return rows


# ----------------------------------------------------------------------------------------------------------------
# what a run costs, estimated before it runs
# ----------------------------------------------------------------------------------------------------------------

#: CPU seconds of one outer-fold cell (its inner CV over the parameter grid included) per sample x gene with the
#: quick grids, measured on this project's machine (Colon: 40 cells, 6 s; a 300-image MNIST pair: 15 cells, 4 s),
#: and how much more the full grids cost (full run: 3754 CPU s for Tables 1-4).
_CELL_RATE, _FULL_GRID_FACTOR, _OVERHEAD = 1.2e-6, 2.0, 25.0


def estimated_seconds(datasets, methods, n_perm, mnist, mnist_samples, *, quick, n_jobs=2) -> tuple[float, str]:
    """(seconds, what it is) of notebook 04's grids with these parameters, before they run."""
    factor = 1.0 if quick else _FULL_GRID_FACTOR
    cells = work = 0
    for d in datasets:
        n, g = load_task(d).X.shape
        k = len(methods) * int(n_perm) * 5 + 6  # Tables 1-2, Table 3's fixed margin, Table 5
        cells += k
        work += k * _CELL_RATE * factor * n * g
    for d in mnist:
        n, g = load_task(d).X.shape
        k = 5 * len([m for m in ("SVM+rfe", "L0", "PAC-Bayes") if m in methods])
        cells += k
        work += k * _CELL_RATE * factor * min(n, mnist_samples or n) * g
    return _OVERHEAD + work / max(1, min(int(n_jobs), 2)), f"{cells} cells, each with its inner cross-validation"


# ----------------------------------------------------------------------------------------------------------------
# the exercises' answers, from the run
# ----------------------------------------------------------------------------------------------------------------


def permutation_spread(res: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Exercise 1: errors (over one 5-fold CV) of each method on each permutation, their sd, and a sentence on
    whether the difference between PAC-Bayes and SC exceeds that spread."""
    per = res.groupby(["dataset", "method", "perm"])["errors"].sum().unstack("perm")
    per.columns = [f"permutation {c}" for c in per.columns]
    per["sd"] = per.std(axis=1, ddof=1).round(2)
    per.index = per.index.set_levels([per.index.levels[0].map(paper_name), per.index.levels[1]])
    per.index.names = ["data set", "method"]
    text = ""
    means = res.groupby(["dataset", "method", "perm"])["errors"].sum().groupby(["dataset", "method"]).mean()
    for d in res["dataset"].unique():
        if (d, "PAC-Bayes") in means.index and (d, "SC") in means.index:
            diff = means[(d, "PAC-Bayes")] - means[(d, "SC")]
            spread = per.loc[(paper_name(d), slice(None)), "sd"].max()
            text += (f"{paper_name(d)}: PAC-Bayes minus SC is {diff:+.1f} errors on average, against a spread (sd over "
                     f"permutations) of up to {spread:.1f}: the difference is " + ("larger than" if abs(diff) > spread
                                                                                   else "within") + " the spread. ")
    return per, text.strip()


def bound_by_samples(res: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Exercise 3: the PAC-Bayes error rate and bound of Table 4 for each number of images (``res``: mnist_cell
    rows of several runs, with a ``samples`` column), and a sentence on how the bound moves."""
    q = res[res["method"] == "PAC-Bayes"]
    t = q.groupby(["dataset", "samples"]).agg(error=("errors", "sum"), n=("n_test", "sum"), bound=("bound", "mean"))
    t["error rate"] = (t["error"] / t["n"]).round(3)
    t["bound"] = t["bound"].round(3)
    t = t[["error rate", "bound"]]
    t.index = t.index.set_levels([t.index.levels[0].map(paper_name), t.index.levels[1]])
    t.index.names = ["pair", "images"]
    lo, hi = t.iloc[0], t.iloc[-1]
    text = (f"From {t.index[0][1]} to {t.index[-1][1]} images the bound goes from {lo['bound']:.3f} to "
            f"{hi['bound']:.3f} while the error rate goes from {lo['error rate']:.3f} to {hi['error rate']:.3f}: "
            "the bound tightens with the number of examples (§7.1).")
    return t, text
