"""The leaderboard's numbers per method and data set, from the cells of :mod:`genesel.leaderboard.cells` (a report
module: editing it moves no cell's cache key).

Per method and data set (:func:`summarise`): the error (mean over the repeats of each repeat's cross-validated
error) with its spread (sd over the outer folds and over the repeats), the balanced error and the AUC of the scores
pooled over each repeat's folds (Tan 2006 §3.4.2, :func:`genesel.metrics.roc_auc`), the mean signature size, the
stability of the signatures across all outer folds (Nogueira, Sechidis & Brown 2018 with its 95 % interval;
Kuncheva's index on best-first prefixes), the mean risk bound where the method has one, the CPU seconds per outer
fold, the folds whose test samples all got one class (``one_class_folds``; ``degenerate_folds``: those whose final
model predicts one class on its own training samples) and how often the smaller class is predicted against its
share of the samples (``smaller_class_predicted``, ``smaller_class_share``). :func:`curve_table`: the test error at
each fixed signature size of the ranked methods, the table behind the error-against-size figure.
:func:`pareto_front`: the methods no other beats in both size (or stability) and error.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pandas as pd

from genesel.datasets import display_name
from genesel.leaderboard.catalogue import CATALOGUE
from genesel.leaderboard.cells import load
from genesel.metrics import confusion_matrix, macro_ovr_auc, per_class_recall, roc_auc
from genesel.stability import kuncheva_prefix_index, nogueira_stability

__all__ = ["summarise", "applicable", "NOT_APPLICABLE", "NOT_APPLICABLE_BINARY", "selects_genes", "dataset_title",
           "pareto_front", "curve_table", "wilson_interval", "fmt_number", "fmt_error", "confusion", "recall_table",
           "best_by_balanced_error", "majority_error"]


def _exact_mean(rates) -> Fraction:
    """The mean of rates given as exact fractions (errors / samples), itself exact: two methods whose errors are
    equal as numbers get the same float, whatever the order or the split of their errors over the repeats or the
    classes (a float mean of the rounded rates differs in its last bit, and the ranks of the league tables, the
    Friedman test and the critical-difference diagram would then order methods that are tied)."""
    rates = list(rates)
    return sum(rates, Fraction(0)) / len(rates)


def _pooled(g: pd.DataFrame, y_of) -> tuple:
    """(balanced error as an exact fraction, AUC) of one repeat's folds pooled (each sample predicted once)."""
    idx = np.concatenate([np.asarray(t) for t in g["test_idx"]])
    pred = np.concatenate([np.asarray(p) for p in g["pred"]])
    sc = np.concatenate([np.asarray(s, dtype=np.float64) for s in g["scores"]])
    y = y_of[idx]
    bal = _exact_mean([Fraction(int(np.sum(pred[y == c] != c)), int(np.sum(y == c))) for c in np.unique(y)])
    if sc.ndim == 2:  # K >= 3 classes: column k the score of class k (probabilities where the model has them)
        auc = macro_ovr_auc(y, sc, classes=np.arange(sc.shape[1])) if np.unique(y).size >= 2 else np.nan
    else:
        auc = roc_auc(y, sc, pos_label=1) if np.unique(y).size == 2 else np.nan
    return bal, auc


def _class_use(g: pd.DataFrame, y_of) -> tuple:
    """(folds predicting one class, share of the smaller class in the data, share of the test predictions that are
    the smaller class) of one method's outer folds. A fold counts as predicting one class when every test sample
    gets the same class although the fold's test samples hold both (a model that says one thing whatever it sees);
    the smaller class is the one with fewer samples in the whole data set."""
    classes, counts = np.unique(y_of, return_counts=True)
    small = classes[np.argmin(counts)]
    one = sum(int(np.unique(np.asarray(p)).size == 1 and np.unique(y_of[np.asarray(t)]).size > 1)
              for p, t in zip(g["pred"], g["test_idx"]))
    pred = np.concatenate([np.asarray(p) for p in g["pred"]])
    return one, float(counts.min() / counts.sum()), float(np.mean(pred == small)) if pred.size else np.nan


def selects_genes(method: str) -> bool:
    """Whether ``method`` chooses a signature: a ranked or staged method, or a model whose entry reads its genes
    (``signature``). An all-genes baseline uses whatever genes the preprocessing keeps in each training part (on
    Leukemia, the 6,792 or so of 7,129 that pass its filter): those vary from fold to fold without any method
    choosing them, so such a method has no stability and no consensus signature. A name outside the catalogue is
    taken to select."""
    m = CATALOGUE.get(method)
    return m is None or m.kind != "model" or m.signature is not None


def _stability(signatures, d):
    sets = [list(s) for s in signatures]
    sizes = np.array([len(s) for s in sets])
    if len(sets) < 2 or np.all(sizes >= d) or np.all(sizes == 0):
        return np.nan, np.nan, np.nan, np.nan
    st = nogueira_stability([set(s) for s in sets], n_features=d)
    return st.estimate, st.lower, st.upper, kuncheva_prefix_index(sets, d)


#: What the league table says of a method that cannot run at a data set's size.
NOT_APPLICABLE = "not applicable at this size"
#: ... and of a method binary by construction on a data set of K >= 3 classes.
NOT_APPLICABLE_BINARY = "not applicable: binary only"


def applicable(res: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the cells of the methods that ran on each data set, one row per data set and method that could not run at
    its size: ``dataset``, ``method``, ``reason``). A method that could not run in some outer fold is left out on
    that data set altogether (its error over the other folds would not be comparable), the reason saying in how many
    folds. Cells without a ``not_applicable`` column all ran."""
    cols = ["dataset", "method", "reason"]
    if "not_applicable" not in res or not res["not_applicable"].notna().any():
        return res.drop(columns=["not_applicable"], errors="ignore"), pd.DataFrame(columns=cols)
    na = res["not_applicable"].notna()
    rows, drop = [], np.zeros(len(res), dtype=bool)
    from genesel.leaderboard.protocol import BINARY_ONLY

    for (d, m), g in res[na].groupby(["dataset", "method"], sort=False):
        every = (res["dataset"] == d) & (res["method"] == m)
        why = str(g["not_applicable"].iloc[0])
        if why.startswith(BINARY_ONLY):
            reason = f"{NOT_APPLICABLE_BINARY}{why[len(BINARY_ONLY):]}"
        else:
            reason = f"{NOT_APPLICABLE}: {why} (in {len(g)} of {int(every.sum())} outer folds)"
        rows.append(dict(dataset=d, method=m, reason=reason))
        drop |= every.to_numpy()
    return res[~drop].drop(columns=["not_applicable"]).reset_index(drop=True), pd.DataFrame(rows, columns=cols)


def summarise(res: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method) of the cross-validation cells (module docstring for the columns); cells of a
    method that could not run at a data set's size are left out (:func:`applicable`)."""
    res = applicable(res)[0]
    rows = []
    for (d, m), g in res.groupby(["dataset", "method"], sort=False):
        mg = g["max_genes"].iloc[0] if "max_genes" in g else None
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) else int(mg)
        task = load(d, None, mg)
        n_genes = task.X.shape[1]
        per = [(r, gg) for r, gg in g.groupby("repeat")]
        rep_frac = [Fraction(int(gg["errors"].sum()), int(gg["n_test"].sum())) for _, gg in per]
        rep_err = [float(f) for f in rep_frac]
        pooled = [_pooled(gg, task.y) for _, gg in per]
        fold_err = g["errors"] / g["n_test"]
        phi, lo, hi, ki = _stability(g["genes"], n_genes) if selects_genes(m) else (np.nan,) * 4
        b = g["bound"].dropna() if "bound" in g else pd.Series(dtype=float)
        one_class, small_share, small_pred = _class_use(g, task.y)
        extra = {}
        if len(task.classes) > 2:  # K >= 3 classes: the per-class recall of the pooled predictions (mean over repeats)
            rec = np.mean([_recall(gg, task.y, len(task.classes)) for _, gg in per], axis=0)
            extra = dict(n_classes=len(task.classes), majority_error=float(
                1.0 - np.max(np.unique(task.y, return_counts=True)[1]) / task.y.size), per_class_recall=json.dumps(
                {str(c): round(float(r), 4) for c, r in zip(task.classes, rec)}, ensure_ascii=False),
                worst_class_recall=float(rec.min()))
        rows.append(dict(**extra,
            dataset=d, method=m, family=CATALOGUE[m].family if m in CATALOGUE else "", n_samples=int(task.y.size),
            n_genes=n_genes, n_repeats=len(per), n_folds=int(len(g)),
            error=float(_exact_mean(rep_frac)), error_sd_folds=float(fold_err.std(ddof=1)) if len(g) > 1 else np.nan,
            error_sd_repeats=float(np.std(rep_err, ddof=1)) if len(per) > 1 else np.nan,
            errors_per_repeat=float(np.mean([gg["errors"].sum() for _, gg in per])),
            errors_per_repeat_sd=float(np.std([gg["errors"].sum() for _, gg in per], ddof=1)) if len(per) > 1
            else np.nan,
            balanced_error=float(_exact_mean([p[0] for p in pooled])), auc=float(np.nanmean([p[1] for p in pooled])),
            size=float(g["size"].mean()), size_sd=float(g["size"].std(ddof=1)) if len(g) > 1 else np.nan,
            stability=phi, stability_lo=lo, stability_hi=hi, kuncheva=ki,
            bound=float(b.mean()) if len(b) else np.nan,
            cpu_per_fold=float(g["cpu_seconds"].mean()), degenerate_folds=int(g["degenerate_final"].sum()),
            one_class_folds=one_class, smaller_class_share=small_share, smaller_class_predicted=small_pred))
    return pd.DataFrame(rows)


def _pooled_pred(g: pd.DataFrame, y_of) -> tuple:
    idx = np.concatenate([np.asarray(t) for t in g["test_idx"]])
    pred = np.concatenate([np.asarray(p) for p in g["pred"]])
    return y_of[idx], pred


def _recall(g: pd.DataFrame, y_of, K: int) -> np.ndarray:
    y, pred = _pooled_pred(g, y_of)
    return per_class_recall(y, pred, labels=np.arange(K))


def majority_error(rows: pd.DataFrame) -> float:
    """The error of always predicting the most frequent class, for the summary rows of one data set: the smaller
    class's share for two classes, one minus the largest class's share for K >= 3 (``majority_error``)."""
    if "majority_error" in rows and rows["majority_error"].notna().any():
        return float(rows["majority_error"].dropna().iloc[0])
    return float(rows["smaller_class_share"].iloc[0])


def best_by_balanced_error(summary: pd.DataFrame, dataset) -> str:
    """The method of lowest balanced error on ``dataset`` (ties: lower error, then the summary's order)."""
    g = summary[summary["dataset"] == dataset]
    if g.empty:
        raise ValueError(f"no method ran on {dataset!r}")
    return str(g.sort_values(["balanced_error", "error"], kind="stable")["method"].iloc[0])


def confusion(res: pd.DataFrame, dataset, method: str) -> pd.DataFrame:
    """The confusion matrix of ``method`` on ``dataset``: rows the true classes, columns the predicted ones, counts
    summed over the repeats (each sample tested once per repeat; :func:`genesel.metrics.confusion_matrix`)."""
    g = res[(res["dataset"] == dataset) & (res["method"] == method)]
    if "not_applicable" in g:
        g = g[g["not_applicable"].isna()]
    if not len(g):
        raise ValueError(f"no cells of {method!r} on {dataset!r} ran (not in this run, or not applicable)")
    mg = g["max_genes"].iloc[0] if "max_genes" in g else None
    mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) else int(mg)
    task = load(dataset, None, mg)
    labels = np.arange(len(task.classes)) if len(task.classes) > 2 else np.array([-1, 1])
    y, pred = _pooled_pred(g, task.y)
    C = confusion_matrix(y, pred, labels=labels)
    names = [str(c) for c in task.classes]
    return pd.DataFrame(C, index=pd.Index(names, name="true class"), columns=pd.Index(names, name="predicted"))


def recall_table(summary: pd.DataFrame, dataset) -> pd.DataFrame:
    """Per-class recall of every method on a K-class ``dataset`` (rows methods by increasing balanced error,
    columns classes), from :func:`summarise`'s ``per_class_recall`` (JSON: {class: recall})."""
    s = summary[summary["dataset"] == dataset]
    if "per_class_recall" not in s or s["per_class_recall"].isna().all():
        raise ValueError(f"{dataset!r} has two classes: its league table gives the error and the balanced error")
    s = s.sort_values("balanced_error", kind="stable")
    rows = {m: json.loads(r) for m, r in zip(s["method"], s["per_class_recall"])}
    return pd.DataFrame(rows).T.astype(float).rename_axis("method")


def fmt_number(x, digits: int = 2) -> str:
    """``x`` to ``digits`` decimals, never a negative zero ("-0.00" for -0.001 reads as a sign that is not there)."""
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def fmt_error(mean, sd=None, scale=100.0, digits=1):
    """``mean`` (an error rate) in per cent, ``± sd`` when given; '–' when undefined."""
    if mean is None or not np.isfinite(mean):
        return "–"
    s = f"{mean * scale:.{digits}f}"
    return s + (f" ± {sd * scale:.{digits}f}" if sd is not None and np.isfinite(sd) else "")


def dataset_title(dataset) -> str:
    """A data set's title in the leaderboard's tables and figures: the registry's (:func:`genesel.datasets.
    display_name`); a user's file: its reading name or file name."""
    return display_name(dataset)


def pareto_front(cost, error) -> np.ndarray:
    """Mask of the points no other point beats in both (smaller ``cost`` and smaller ``error``, one strictly)."""
    c, e = np.asarray(cost, float), np.asarray(error, float)
    out = np.ones(c.size, dtype=bool)
    for i in range(c.size):
        dom = (c <= c[i]) & (e <= e[i]) & ((c < c[i]) | (e < e[i]))
        out[i] = not dom.any()
    return out



def curve_table(res: pd.DataFrame) -> pd.DataFrame:
    """The error-against-size curves of the ranked methods as a tidy table, one row per data set, method and fixed
    signature size: ``size`` (the last size, "all genes", is the mean number of genes the folds' preprocessing
    kept: Leukemia's filter keeps a different number in each training part), ``all_genes`` (whether it is that
    last point), ``error`` (mean over the outer folds of the test error at that size), ``errors`` and ``n_test``
    (summed over the outer folds) and ``n_samples`` (the data set's samples, each tested once per repeat). It is
    what :func:`genesel.leaderboard.figures.plot_curves` draws, so a committed copy
    (``figures/leaderboard_curves.csv``) redraws the figure without the cells."""
    cols = ["dataset", "method", "size", "all_genes", "error", "errors", "n_test", "n_folds", "n_samples"]
    r = res[res["curve_sizes"].notna()] if "curve_sizes" in res else res.iloc[:0]
    rows = []
    for (d, m), g in r.groupby(["dataset", "method"], sort=False):
        recs = []
        for ss, ee, n, kept in zip(g["curve_sizes"], g["curve_errors"], g["n_test"], g["n_genes_kept"]):
            recs += [(int(s) if s < kept else -1, float(e), int(n)) for s, e in zip(ss, ee)]
        t = pd.DataFrame(recs, columns=["size", "errors", "n_test"])
        t["rate"] = t["errors"] / t["n_test"]
        agg = t.groupby("size").agg(error=("rate", "mean"), errors=("errors", "sum"), n_test=("n_test", "sum"),
                                    n_folds=("rate", "size")).sort_index(key=lambda i: np.where(i < 0, np.inf, i))
        n_samples = int(g.loc[g["repeat"] == g["repeat"].iloc[0], "n_test"].sum())
        for s, a in agg.iterrows():
            rows.append(dict(dataset=d, method=m, size=float(g["n_genes_kept"].mean()) if s == -1 else float(s),
                             all_genes=bool(s == -1), error=float(a["error"]), errors=int(a["errors"]),
                             n_test=int(a["n_test"]), n_folds=int(a["n_folds"]), n_samples=n_samples))
    out = pd.DataFrame(rows, columns=cols)
    return out


def wilson_interval(error, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's score interval (Wilson 1927; Brown, Cai & DasGupta 2001, Eq. 4) of an error proportion ``error``
    observed on ``n`` samples: centre (p + z²/2n) / (1 + z²/n), half-width z √(p(1-p)/n + z²/4n²) / (1 + z²/n), z
    the normal quantile of ``level``. It stays within [0, 1] (a normal interval of an error near 0 % does not).
    ``n`` is the number of samples, each tested once per repeat of the cross-validation: the repeats test the same
    samples again, so they add no independent trials, and ``error`` may be their mean (not a whole count of n);
    the closed form takes any proportion (``scipy.stats.binomtest(...).proportion_ci(method="wilson")`` needs
    whole counts)."""
    from scipy.stats import norm

    p = np.asarray(error, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any((p < 0) | (p > 1)) or np.any(n <= 0):
        raise ValueError("wilson_interval: error must lie in [0, 1] and n be positive")
    z = norm.ppf(0.5 + level / 2.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
