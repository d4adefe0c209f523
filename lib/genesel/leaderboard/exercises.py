"""The worked answers of notebook 06's exercises, computed from the run (a report module: editing it moves no cell's
cache key): the stability of the signatures (Exercise 1), the optimism of choosing the size by looking at the test
folds (2), another seed's errors and ranks (3), which methods lean towards the smaller class (4), and one class
against the rest against all classes at once on K-class data (5).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.leaderboard.catalogue import CATALOGUE
from genesel.leaderboard.summary import dataset_title, fmt_number

__all__ = ["stability_extremes", "size_choice_optimism", "class_balance", "SEED_METHODS",
           "seed_methods", "seed_cells", "seed_comparison",
           "OVR_VS_JOINT", "ovr_vs_joint"]

#: Exercise 5's rankings: one class against the rest (Welch's t of each class, pooled by best rank; Golub's
#: signal-to-noise the same way) and all classes at once (ANOVA F, Kruskal-Wallis, Fisher's BSS/WSS)
OVR_VS_JOINT = {"t-test one-vs-rest + SVM": "one vs rest", "S2N + weighted voting": "one vs rest",
                "ANOVA F + SVM": "joint", "Kruskal-Wallis + SVM": "joint", "Fisher + SVM": "joint"}


def ovr_vs_joint(summary: pd.DataFrame):
    """Exercise 5: on every K-class data set of the run, the rankings of :data:`OVR_VS_JOINT` side by side (error,
    balanced error, worst class recall, genes) and a sentence per data set on which kind came out ahead by the
    balanced error and by how much."""
    from IPython.display import Markdown

    if "n_classes" not in summary:
        return pd.DataFrame(), Markdown("This run has no data set of three or more classes: run the notebook with "
                                        "board='multiclass' (quick: Khan's SRBCT) to answer this exercise.")
    g = summary[summary["n_classes"].notna() & summary["method"].isin(list(OVR_VS_JOINT))].copy()
    if g.empty:
        return pd.DataFrame(), Markdown("None of the rankings this exercise compares ran: keep "
                                        + ", ".join(OVR_VS_JOINT) + " among the methods.")
    g["kind"] = g["method"].map(OVR_VS_JOINT)
    g = g.sort_values(["dataset", "kind", "balanced_error"], kind="stable")
    table = pd.DataFrame({
        "data set": g["dataset"].map(dataset_title).to_numpy(), "ranking": g["kind"].to_numpy(),
        "method": g["method"].to_numpy(), "error %": (100 * g["error"]).round(1).to_numpy(),
        "balanced error %": (100 * g["balanced_error"]).round(1).to_numpy(),
        "worst class recall %": (100 * g["worst_class_recall"]).round(1).to_numpy(),
        "genes (mean)": g["size"].round(1).to_numpy()}).set_index(["data set", "ranking", "method"])
    text = []
    for d, gg in g.groupby("dataset", sort=False):
        best = gg.groupby("kind")["balanced_error"].min()
        if len(best) < 2:
            text.append(f"{dataset_title(d)}: only the {best.index[0]} rankings ran.")
            continue
        a, b = best.get("one vs rest"), best.get("joint")
        lead = "one vs rest" if a < b else "joint" if b < a else None
        r = gg.iloc[0]  # one sample of the smallest class, misclassified in every repeat, moves it by 1 / (K n_min)
        one = 100.0 / (float(r["n_classes"]) * round(float(r["smaller_class_share"]) * float(r["n_samples"])))
        if lead is None:
            gap = " (a tie)."
        elif 100 * abs(a - b) < one:
            gap = (f" ({lead} ahead by {100 * abs(a - b):.2f} points, less than one sample of the smallest class "
                   f"weighs in it, {one:.2f} points: no difference to speak of).")
        else:
            gap = (f" ({lead} ahead by {100 * abs(a - b):.2f} points, {100 * abs(a - b) / one:.1f} times what one "
                   "sample of the smallest class weighs in it).")
        text.append(f"{dataset_title(d)}: the best one-vs-rest ranking reaches a balanced error of {100 * a:.2f} %, "
                    f"the best joint one {100 * b:.2f} %" + gap)
    text.append("A joint statistic (F, H, BSS/WSS) scores a gene by how well it separates all classes at once: genes "
                "that split the large or far-apart classes rank first, and a small class whose markers separate only "
                "it can be left with none. One against the rest gives every class its own top genes (the union of the "
                "K per-class lists), at the price of genes that tell one class from the others but not the others "
                "apart. The worst class recall shows which happened; with a handful of samples per class, differences "
                "of a few points are within the noise of one run (Exercise 3).")
    return table, Markdown(" ".join(text))



def _stab_text(r) -> str:
    return f"Φ = {fmt_number(r['stability'])} [{fmt_number(r['stability_lo'])}, {fmt_number(r['stability_hi'])}]"


def stability_extremes(summary: pd.DataFrame):
    """Exercise 1: per data set, the gene-selecting methods (signatures smaller than all genes, Φ defined) by
    stability with Nogueira's 95 % interval, and a sentence per data set on whether the most and the least stable
    method's intervals overlap."""
    from IPython.display import Markdown

    g = summary[np.isfinite(summary["stability"]) & (summary["size"] < summary["n_genes"])]
    g = g.sort_values(["dataset", "stability"], ascending=[True, False], kind="stable")
    table = pd.DataFrame({"data set": g["dataset"].map(dataset_title).to_numpy(), "method": g["method"].to_numpy(),
                          "stability Φ [95 % CI]": [_stab_text(r) for _, r in g.iterrows()],
                          "genes (mean)": g["size"].round(1).to_numpy(),
                          "error %": (100 * g["error"]).round(1).to_numpy()}).set_index(["data set", "method"])
    lines = []
    for d, gd in g.groupby("dataset", sort=False):
        if len(gd) < 2:
            lines.append(f"**{dataset_title(d)}**: only {gd['method'].iloc[0]} selects genes in this run; nothing "
                         "to compare.")
            continue
        hi, lo = gd.iloc[0], gd.iloc[-1]
        apart = hi["stability_lo"] > lo["stability_hi"]
        lines.append(
            f"**{dataset_title(d)}**: the most stable, {hi['method']} ({_stab_text(hi)}), and the least stable, "
            f"{lo['method']} ({_stab_text(lo)}): "
            + ("the intervals do not overlap, so the difference is larger than the uncertainty of the estimates."
               if apart else "the intervals overlap: with this many outer folds the data cannot tell them apart.")
            + (f" With Φ below 0.5, one signature of {lo['method']} shares few genes with the next fold's: read its "
               "genes as one draw among many, not as *the* markers." if lo["stability"] < 0.5 else
               " Every method here keeps most of its genes from fold to fold."))
    return table, Markdown("\n\n".join(lines))


def size_choice_optimism(res: pd.DataFrame, summary: pd.DataFrame):
    """Exercise 2: for every ranked method (the ones with an error-against-size curve), the nested CV's error (size
    chosen by the inner CV on each training part) beside the best point of the curve (the size with the smallest
    mean test error, chosen by looking at the test folds), and the gap between them in percentage points."""
    from IPython.display import Markdown

    r = res[res["curve_sizes"].notna()] if "curve_sizes" in res else res.iloc[:0]
    rows = []
    for (d, m), g in r.groupby(["dataset", "method"], sort=False):
        recs = [(s, e / n) for ss, ee, n in zip(g["curve_sizes"], g["curve_errors"], g["n_test"])
                for s, e in zip(ss, ee)]
        curve = pd.DataFrame(recs, columns=["size", "rate"]).groupby("size")["rate"].mean()
        best = curve.idxmin()
        s = summary[(summary["dataset"] == d) & (summary["method"] == m)].iloc[0]
        rows.append({"data set": dataset_title(d), "method": m, "nested CV error %": round(100 * s["error"], 1),
                     "genes chosen (mean)": round(float(s["size"]), 1),
                     "best fixed size": "all" if best >= s["n_genes"] else str(int(best)),
                     "its error %": round(100 * float(curve.min()), 1),
                     "optimism (points)": round(100 * (s["error"] - float(curve.min())), 1) + 0.0})
    if not rows:
        return pd.DataFrame(), Markdown("No ranked method ran, so there is no error-against-size curve to compare.")
    t = pd.DataFrame(rows).set_index(["data set", "method"])
    gap = t["optimism (points)"]
    text = (f"Over {len(t)} method x data set pairs, the best point of the curve is {gap.mean():.1f} percentage "
            f"points below the nested CV's error on average (largest gap: {gap.max():.1f}, for "
            f"{gap.idxmax()[1]} on {gap.idxmax()[0]}). The best point is chosen by looking at the test folds, so it "
            "is an optimistic estimate of the error one would get on new samples; the nested CV pays for choosing "
            "the size without them.")
    if (gap < 0).any():
        text += (f" In {int((gap < 0).sum())} pair(s) the nested CV is *better* than every fixed size: each outer "
                 "fold may choose a different size, and no single size suits every fold.")
    return t, Markdown(text)


def class_balance(summary: pd.DataFrame, max_share: float = 0.4, lean: float = 0.05):
    """Exercise 4: on the data sets whose smaller class is under ``max_share`` of the samples (with K classes, under
    the same fraction of an even share: ``max_share`` x 2 / K, so three classes of 33 % each are even, and a smallest
    class under 27 % is not), each method's share of test predictions in the smaller class beside the class's share
    of the samples ("lean": the difference), with its error and balanced error; and a sentence on the methods that
    lean by more than ``lean`` on average, towards the smaller class or the larger one, and why."""
    from IPython.display import Markdown

    k = summary["n_classes"].fillna(2).astype(float) if "n_classes" in summary else pd.Series(2.0, summary.index)
    multi = bool((k > 2).any())  # K >= 3: the smallest class, and a threshold relative to an even share
    g = summary[summary["smaller_class_share"] < max_share * 2 / k].copy()
    even = (f"{100 * max_share / 0.5:.0f} % of an even share of the samples (1/K for K classes)" if multi
            else f"{100 * max_share:.0f} % of the samples")
    if g.empty:
        return pd.DataFrame(), Markdown(f"No data set of this run has a {'smallest' if multi else 'smaller'} class "
                                        f"under {even}, so no method can lean towards one.")
    g["lean"] = g["smaller_class_predicted"] - g["smaller_class_share"]
    smaller, larger = ("smallest", "larger classes") if multi else ("smaller", "larger class")
    g = g.sort_values(["dataset", "lean"], ascending=[True, False], kind="stable")
    table = pd.DataFrame({
        "data set": g["dataset"].map(dataset_title).to_numpy(), "method": g["method"].to_numpy(),
        f"{smaller} class: share of samples %": (100 * g["smaller_class_share"]).round(1).to_numpy(),
        "its share of predictions %": (100 * g["smaller_class_predicted"]).round(1).to_numpy(),
        "lean (points)": (100 * g["lean"]).round(1).to_numpy() + 0.0,
        "error %": (100 * g["error"]).round(1).to_numpy(),
        "balanced error %": (100 * g["balanced_error"]).round(1).to_numpy()}).set_index(["data set", "method"])
    sets = g.drop_duplicates("dataset")
    per = g.groupby("method", sort=False).agg(lean=("lean", "mean"), error=("error", "mean"),
                                              balanced=("balanced_error", "mean")).sort_values("lean")

    def named(rows):
        return "; ".join(f"{m} ({100 * r['lean']:+.1f} points; error {100 * r['error']:.1f} % against balanced "
                         f"error {100 * r['balanced']:.1f} %)" for m, r in rows.iterrows())

    small, large = per[per["lean"] > lean].iloc[::-1], per[per["lean"] < -lean]
    n_classes = dict(zip(sets["dataset"], k[sets.index]))
    text = [(f"{len(sets)} data sets of this run have" if len(sets) > 1 else "One data set of this run has")
            + f" a {smaller} class under {even} ("
            + ", ".join(f"{dataset_title(d)} {100 * v:.0f} %" + (f" against an even {100 / n_classes[d]:.0f} %"
                                                                   if multi else "")
                        for d, v in zip(sets["dataset"], sets["smaller_class_share"])) + ")."]
    text.append(f"Leaning towards the {smaller} class (its share of the test predictions above its share of the "
                f"samples) by more than {100 * lean:.0f} percentage points, on average over these data sets: "
                + (named(small) if len(small) else "no method") + f". Towards the {larger}: "
                + (named(large) if len(large) else "no method") + ".")
    if multi:
        text.append("The error weighs each class k by its share p_k, the balanced error by 1/K: the error minus the "
                    "balanced error is the sum over the classes of (p_k - 1/K) e_k, e_k the error rate within class "
                    "k. A rule that gives the small classes more than their share of the predictions errs on the "
                    "large ones, and then its error is above its balanced error. One that leans the other way errs "
                    "on the few samples of the small classes: a small error, a larger balanced error, and at the "
                    "extreme a class that is never predicted (its recall 0 in the per-class recall table). On "
                    "unbalanced data read both errors.")
    else:
        text.append("The error weighs each class by its share p, the balanced error by one half: the error minus the "
                    "balanced error is (p_large - 1/2)(e_large - e_small), e the error rates within each class. A "
                    "rule that gives the smaller class more than its share of the predictions tends to err on the "
                    "larger class, and then its error is above its balanced error. One that leans the other way errs "
                    "on the few samples of the smaller class: a small error, a larger balanced error, and at the "
                    "extreme every sample given the larger class (the league tables' column *folds predicting one "
                    "class*). On unbalanced data read both errors.")
    if any(m in CATALOGUE and CATALOGUE[m].paper == "Gentile 2003" for m in small.index):
        text.append("The ALMA methods have no bias: their hyperplanes pass through the origin (Gentile 2003; genesel "
                    "keeps the paper's form). The genes are centred on the training part, so along any direction w "
                    "the boundary is the projection of the mean of all training samples, which lies at the smaller "
                    "class's share of the way from the larger class's mean to the smaller's: the smaller class gets "
                    "more than its share of the space.")
    return table, Markdown("\n\n".join(text))


#: Exercise 3's methods, rerun with another seed: the all-genes baselines, the cheapest methods of either board in
#: the 0.2.0 cells (CPU per outer fold summed over the sets computed: binary RVM 0.24 s, DLDA 0.42, GP 1.1, kNN 1.7,
#: SVM 2.7; multi-class DLDA 0.02, RVM 0.04, kNN 0.12, SVM 0.22). Named, not measured at run time: a choice by the
#: run's own timings could differ from one machine (or one run) to the next, and with it the exercise's cells.
SEED_METHODS = ("DLDA (all genes)", "RVM (all genes)", "kNN (all genes)", "SVM (all genes)")


def seed_methods(methods, board: str = "binary", k: int = 4) -> list:
    """The ``k`` methods of Exercise 3 among the run's ``methods``: those of :data:`SEED_METHODS` the run has, then,
    for a run restricted to other methods, its cheapest by the committed full run's cost at a reference size
    (100 samples x 5,000 genes; :func:`genesel.leaderboard.cost.cell_cpu_seconds`), leaving out a method that only
    fits two classes on the multi-class board. The same methods and board give the same list on any machine."""
    from genesel.leaderboard.cost import cell_cpu_seconds

    methods = list(methods)
    pick = [m for m in SEED_METHODS if m in methods][:k]
    rest = [m for m in methods if m not in pick and not (board == "multiclass" and CATALOGUE[m].binary_only)]
    rest.sort(key=lambda m: (cell_cpu_seconds(m, 100, 5000, 5, False)[0], m))
    return pick + rest[:k - len(pick)]


def seed_cells(datasets, methods, board: str, *, seed: int, quick: bool, n_repeats: int, n_folds: int, inner_k: int,
               max_genes=None) -> list:
    """Exercise 3's grid: the cross-validation cells of :func:`seed_methods` with ``seed + 1`` (the one definition
    notebook 06 runs and :func:`genesel.leaderboard.status.run_cells` counts)."""
    from genesel.leaderboard.cells import cv_cells

    return cv_cells(datasets, seed_methods(methods, board), n_repeats=n_repeats, n_folds=n_folds, inner_k=inner_k,
                    seed=seed + 1, quick=quick, max_genes=max_genes)


def seed_comparison(summary: pd.DataFrame, other: pd.DataFrame, seeds: tuple):
    """Exercise 3: the errors and ranks of the methods of ``other`` (the same grid run with another seed) beside
    this run's, per data set, and a sentence on how far they moved."""
    from IPython.display import Markdown

    a, b = f"seed {seeds[0]}", f"seed {seeds[1]}"
    parts = {}
    for label, s in ((a, summary), (b, other)):
        s = s[s["method"].isin(other["method"])].copy()
        s["rank"] = s.groupby("dataset")["error"].rank(method="min").astype(int)
        s["error"] = (100 * s["error"]).round(1) + 0.0
        s["data set"] = s["dataset"].map(dataset_title)
        parts[label] = s.set_index(["data set", "method"])[["error", "rank"]].rename(columns={"error": "error %"})
    t = pd.concat(parts, axis=1)
    moved = (t[(a, "error %")] - t[(b, "error %")]).abs()
    changed = int((t[(a, "rank")] != t[(b, "rank")]).sum())
    text = (f"Another seed draws other outer folds (and other inner folds and estimator seeds): the errors of these "
            f"{len(t)} method x data set pairs move by {moved.mean():.1f} percentage points on average (at most "
            f"{moved.max():.1f}), and {changed} of {len(t)} ranks change. Differences between methods smaller than "
            "this are noise, whatever the league table's order; the full protocol averages 10 repeats for that "
            "reason.")
    return t, Markdown(text)

