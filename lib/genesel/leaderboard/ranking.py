"""The leaderboard's ranking across data sets and its uncertainty (a report module: editing it moves no cell's cache
key).

- **Ranks** (:func:`rank_statistics`): within each block the methods are ranked by error (1 = best, ties averaged);
  the blocks are the data sets when there are at least two (Demšar 2006, JMLR 7:1, §3.2.2), else the outer folds of
  the one data set (not independent: an illustration). The Friedman test (``scipy.stats.friedmanchisquare``) asks
  whether the mean ranks differ more than chance allows, Nemenyi's post-hoc test
  (``scikit_posthocs.posthoc_nemenyi_friedman``) which pairs do. Nemenyi's critical difference
  (:func:`critical_difference`, Demšar 2006 Eq. 5) is CD = q_α √(k(k+1) / 6N), q_α the studentized range's
  upper α quantile for k methods and infinite degrees of freedom over √2: two mean ranks closer than CD are not
  told apart at level α.
- **Intervals** (:func:`bootstrap_ranks`): the data sets are a sample of the data sets one could have taken, so
  the mean ranks get percentile intervals from resampling the data sets with replacement (the nonparametric
  bootstrap, Efron & Tibshirani 1993 §13.3; seeded, ``n_boot`` resamples), and each method the share of resamples
  in which its mean rank is the lowest (ties for the lowest shared equally). A method's ranks within a data set do
  not depend on which other data sets are drawn, so a resample's mean rank is the mean of the drawn rows.
- **Data sets where no method beats the majority class** (:func:`majority_class_tests`): per data set and method,
  the exact one-sided binomial test of its errors against the error of always predicting the most frequent class (the
  smaller class's share p0 of the samples): k errors among the n samples (one repeat of K-fold CV tests each sample
  once; ``errors_per_repeat``, the mean over the repeats, rounded), H0: error rate ≥ p0, p = P(Bin(n, p0) ≤ k)
  (``scipy.stats.binomtest``). Holm's step-down correction over the data set's methods controls the chance that any
  method is declared better than the majority class by luck (:func:`holm`); a data set with no adjusted p below
  α is marked, its ranks (an order among methods that all do no better than guessing the most frequent class) are shown
  apart, and the ranking is also given without it.

  Why this test. It needs only the error counts, which the committed table holds, so the marking is reproducible
  from ``figures/leaderboard_results.csv`` without the cells. A label-permutation test of the whole procedure
  (Ojala & Garriga 2010, JMLR 11, test 1: rerun the nested CV with permuted labels) would test the same question
  without the binomial model, but needs every method's nested CV rerun per permutation: the cells would need a
  permuted-labels field (a change to :mod:`genesel.leaderboard.cells`, which is in every cell's cache key) and a
  few hundred CPU hours; it is not computed here. The binomial model treats the n CV predictions as independent;
  they share training samples, and the variance of a CV error is usually larger than the binomial one (Bengio &
  Grandvalet 2004), so the test errs towards finding a method better than the majority class: a data set it marks
  is all the more one where none is.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from genesel.leaderboard.summary import dataset_title, majority_error

__all__ = ["rank_statistics", "critical_difference", "bootstrap_ranks", "holm", "majority_class_tests",
           "majority_table", "ranking_table", "ranking_sentences", "N_BOOT"]

#: Bootstrap resamples of the data sets for the mean ranks' intervals and the shares of first places.
N_BOOT = 10_000


def _blocks(summary: pd.DataFrame, res: pd.DataFrame | None, value: str):
    """(blocks x methods table of ``value``, description of the blocks)."""
    datasets = list(dict.fromkeys(summary["dataset"]))
    if len(datasets) >= 2:
        M = summary.pivot(index="dataset", columns="method", values=value).loc[datasets].dropna(axis=1)
        return M, f"{len(datasets)} data sets"
    if res is None or value != "error":
        M = summary.pivot(index="dataset", columns="method", values=value)
        return M, f"the one data set {dataset_title(datasets[0])}"
    r = res.assign(rate=res["errors"] / res["n_test"])
    M = r.pivot_table(index=["repeat", "fold"], columns="method", values="rate").dropna(axis=1)
    return M, f"the {len(M)} outer folds of {dataset_title(datasets[0])} (not independent: an illustration)"


def critical_difference(n_methods: int, n_blocks: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of mean ranks (Demšar 2006, Eq. 5): q_α √(k(k+1) / 6N), q_α the upper α
    quantile of the studentized range of k means with infinite degrees of freedom over √2
    (``scipy.stats.studentized_range``)."""
    from scipy.stats import studentized_range

    k, n = int(n_methods), int(n_blocks)
    if k < 2 or n < 1:
        raise ValueError(f"critical_difference: needs at least 2 methods and 1 block, got {k} and {n}")
    q = studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n)))


def rank_statistics(summary: pd.DataFrame, res: pd.DataFrame | None = None, value: str = "error",
                    alpha: float = 0.05) -> dict:
    """Ranks of the methods' ``value`` (``"error"`` or ``"balanced_error"``; 1 = best, ties averaged) in blocks
    (module docstring), their means, and with at least 3 methods and 2 blocks the Friedman test, the Nemenyi
    p-values and the critical difference. Keys: ``blocks`` (what the blocks are), ``n_blocks``, ``values``
    (blocks x methods), ``ranks``, ``mean_ranks`` (ascending), ``friedman_statistic``, ``friedman_p``,
    ``nemenyi`` (methods x methods p-values), ``cd``, ``alpha``, ``value``."""
    from scipy.stats import friedmanchisquare

    from genesel.extras import require

    sp = require("scikit_posthocs", "the leaderboard's Nemenyi test (genesel.leaderboard.ranking)")

    M, blocks = _blocks(summary, res, value)
    ranks = M.rank(axis=1, method="average")
    out = {"blocks": blocks, "n_blocks": int(len(M)), "values": M, "errors": M, "ranks": ranks,
           "mean_ranks": ranks.mean().sort_values(kind="stable"), "alpha": alpha, "value": value}
    if M.shape[1] >= 3 and M.shape[0] >= 2:
        stat, p = friedmanchisquare(*[M[c].to_numpy() for c in M.columns])
        out.update(friedman_statistic=float(stat), friedman_p=float(p),
                   nemenyi=sp.posthoc_nemenyi_friedman(M.to_numpy()).set_axis(M.columns, axis=0).set_axis(
                       M.columns, axis=1),
                   cd=critical_difference(M.shape[1], M.shape[0], alpha))
    return out


def bootstrap_ranks(ranks: pd.DataFrame, n_boot: int = N_BOOT, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Mean rank of each method (columns of ``ranks``, one row per data set) with its percentile interval over
    ``n_boot`` resamples of the rows drawn with replacement (``numpy.random.default_rng(seed)``), and the share of
    resamples in which it has the lowest mean rank (ties for the lowest shared equally). Sorted by mean rank."""
    R = ranks.to_numpy(dtype=float)
    n = R.shape[0]
    if n < 2:
        raise ValueError(f"bootstrap_ranks: {n} block(s); resampling needs at least 2 data sets")
    rng = np.random.default_rng(seed)
    means = np.empty((int(n_boot), R.shape[1]))
    for start in range(0, int(n_boot), 1000):  # in chunks: 10,000 x 20 x 35 at once is 56 MB of indices
        idx = rng.integers(0, n, size=(min(1000, int(n_boot) - start), n))
        means[start:start + len(idx)] = R[idx].mean(axis=1)
    best = means.min(axis=1, keepdims=True)
    tied = np.isclose(means, best, rtol=0, atol=1e-12)
    first = (tied / tied.sum(axis=1, keepdims=True)).mean(axis=0)
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [a, 1.0 - a], axis=0)
    out = pd.DataFrame({"mean_rank": R.mean(axis=0), "lo": lo, "hi": hi, "share_first": first},
                       index=ranks.columns)
    return out.sort_values(["mean_rank", "share_first"], ascending=[True, False], kind="stable")


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979): the i-th smallest of m p-values times (m - i + 1), made
    non-decreasing in that order and capped at 1. Written here (six lines) rather than adding statsmodels as a
    dependency; the tests compare it with ``statsmodels.stats.multitest.multipletests(method="holm")``."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    out = np.empty(m)
    out[order] = adj
    return out


def majority_class_tests(summary: pd.DataFrame, alpha: float = 0.05) -> dict:
    """Per data set, whether any method's error is below the majority class's (module docstring for the test):
    ``sets`` (one row per data set: samples, ``majority_error`` p0, the method with the fewest errors, its error,
    its one-sided binomial p-value, the smallest Holm-adjusted p-value over the data set's methods and
    ``beats_majority``), ``methods`` (one row per data set and method with ``k``, ``p`` and ``p_holm``),
    ``informative`` and ``uninformative`` (lists of data sets)."""
    from scipy.stats import binomtest

    rows, sets = [], []
    for d, g in summary.groupby("dataset", sort=False):
        n = int(g["n_samples"].iloc[0])
        p0 = majority_error(g)
        k = np.rint(g["errors_per_repeat"].to_numpy(dtype=float)).astype(int)
        p = np.array([binomtest(int(ki), n, p0, alternative="less").pvalue for ki in k])
        ph = holm(p)
        for m, ki, pi, hi in zip(g["method"], k, p, ph):
            rows.append(dict(dataset=d, method=m, n=n, majority_error=p0, k=int(ki), error=ki / n, p=pi, p_holm=hi))
        i = int(np.argmin(g["error"].to_numpy()))
        sets.append(dict(dataset=d, n_samples=n, majority_error=p0, best_method=g["method"].iloc[i],
                         best_error=float(g["error"].iloc[i]), best_p=float(p[i]), min_p_holm=float(ph.min()),
                         beats_majority=bool(ph.min() < alpha)))
    sets = pd.DataFrame(sets)
    return {"sets": sets, "methods": pd.DataFrame(rows), "alpha": alpha,
            "informative": sets.loc[sets["beats_majority"], "dataset"].tolist() if len(sets) else [],
            "uninformative": sets.loc[~sets["beats_majority"], "dataset"].tolist() if len(sets) else []}


def majority_table(major: dict) -> pd.DataFrame:
    """:func:`majority_class_tests`'s verdict per data set, readable: the error of always predicting the most frequent
    class, the fewest errors of any method (and which), that method's one-sided p-value and the smallest
    Holm-adjusted p-value over the methods, and whether some method beats the most frequent class."""
    s = major["sets"]
    return pd.DataFrame({
        "data set": s["dataset"].map(dataset_title).to_numpy(), "samples": s["n_samples"].to_numpy(),
        "most frequent class always: error %": (100 * s["majority_error"]).round(1).to_numpy(),
        "fewest errors %": (100 * s["best_error"]).round(1).to_numpy(), "by": s["best_method"].to_numpy(),
        "its p (one-sided)": [f"{p:.2g}" for p in s["best_p"]],
        "smallest p after Holm": [f"{p:.2g}" for p in s["min_p_holm"]],
        "a method beats the most frequent class (5 %)": np.where(s["beats_majority"], "yes", "no"),
    }).set_index("data set")


def _tied_lowest(mean_ranks: pd.Series) -> list:
    """The methods tied at the lowest mean rank (``mean_ranks`` ascending; equal within 1e-9)."""
    return mean_ranks.index[np.isclose(mean_ranks.to_numpy(), mean_ranks.iloc[0], rtol=0, atol=1e-9)].tolist()


def _lowest(mean_ranks: pd.Series) -> str:
    """The method(s) with the lowest mean rank: "X has" or "X and Y share"."""
    tied = _tied_lowest(mean_ranks)
    return f"{tied[0]} has" if len(tied) == 1 else " and ".join(tied) + " share"


def _first_shares(b: pd.DataFrame) -> str:
    """'59 %' for the method of lowest mean rank, or for methods tied at it each one's share: '42 % (X) and 22 % (Y)'
    (the shares of the bootstrap resamples in which each is lowest)."""
    tied = _tied_lowest(b["mean_rank"])
    if len(tied) == 1:
        return f"{100 * b.iloc[0]['share_first']:.0f} %"
    return " and ".join(f"{100 * b.loc[t, 'share_first']:.0f} % ({t})" for t in tied)


def _interval(r, digits: int = 1) -> str:
    """'4.2 [3.1–5.0]'; where every resample gave the same rank (a method alike on every data set), that instead
    of a range whose ends agree: '6.0 (every resample: 6.0)'."""
    lo, hi = f"{r['lo']:.{digits}f}", f"{r['hi']:.{digits}f}"
    if lo == hi:
        return f"{r['mean_rank']:.{digits}f} (every resample: {lo})"
    return f"{r['mean_rank']:.{digits}f} [{lo}–{hi}]"


def _digits(a: float, b: float) -> int:
    """Decimals that show two different mean ranks as different (one, or two where one would print both alike:
    '8.00' and '8.03', not '8.0' and '8.0' beside "lowest")."""
    return 1 if f"{a:.1f}" != f"{b:.1f}" or np.isclose(a, b, rtol=0, atol=1e-9) else 2


def _positions(mean_ranks: pd.Series) -> pd.Series:
    """'1', '2', ... by mean rank, '6–7' for a tie."""
    lo = mean_ranks.rank(method="min").astype(int)
    hi = mean_ranks.rank(method="max").astype(int)
    return pd.Series([f"{a}" if a == b else f"{a}–{b}" for a, b in zip(lo, hi)], index=mean_ranks.index)


def ranking_table(summary: pd.DataFrame, res: pd.DataFrame | None = None, n_boot: int = N_BOOT, seed: int = 0,
                  alpha: float = 0.05) -> dict:
    """Everything the ranking section states, as numbers: ``table`` (one row per method, by mean rank of the
    error: mean rank with its 95 % bootstrap interval and share of resamples first, by error, by balanced error,
    and on the data sets where some method beats the majority class), the rank statistics of each
    (``error``, ``balanced``, ``informative``: :func:`rank_statistics`), their bootstrap tables (``boot_*``) and
    the majority-class tests (``majority``). With one data set there is nothing to resample: no intervals."""
    major = majority_class_tests(summary, alpha)
    out = {"majority": major, "n_boot": int(n_boot), "seed": int(seed), "alpha": alpha}
    parts = {"error": (summary, "error"), "balanced": (summary, "balanced_error")}
    if 2 <= len(major["informative"]) < summary["dataset"].nunique():
        parts["informative"] = (summary[summary["dataset"].isin(major["informative"])], "error")
    if len(major["uninformative"]) >= 2:
        parts["uninformative"] = (summary[summary["dataset"].isin(major["uninformative"])], "error")
    cols = {}
    for name, (s, value) in parts.items():
        st = rank_statistics(s, res if name == "error" else None, value, alpha)
        out[name] = st
        if st["n_blocks"] >= 2 and s["dataset"].nunique() >= 2:
            b = bootstrap_ranks(st["ranks"], n_boot, seed)
            out[f"boot_{name}"] = b
            cols[name] = b
    label = {"error": "error", "balanced": "balanced error",
             "informative": f"error, {len(major['informative'])} sets beating the majority class",
             "uninformative": f"error, {len(major['uninformative'])} sets where none beats it"}
    table = pd.DataFrame(index=out["error"]["mean_ranks"].index)
    for name, b in cols.items():
        b = b.reindex(table.index)
        table[f"{label[name]}: position"] = _positions(b["mean_rank"])
        table[f"{label[name]}: mean rank [95 % interval]"] = [_interval(r) for _, r in b.iterrows()]
        if name != "uninformative":
            table[f"{label[name]}: first in % of resamples"] = (100 * b["share_first"]).round(1)
    if not cols:
        table["error: mean rank"] = out["error"]["mean_ranks"].round(2)
    out["table"] = table.rename_axis("method")
    return out


def _friedman_words(p: float, alpha: float) -> str:
    """Friedman's test in words, saying no more than it shows at level ``alpha``."""
    if p < alpha:
        return f"Friedman p = {p:.2g}: the methods are not all alike"
    return (f"Friedman p = {p:.2g}, not below {100 * alpha:.0f} %: these data sets do not show that the methods "
            "differ at all")


def _share_list(b: pd.DataFrame, skip: str, k: int = 3) -> str:
    rest = b.drop(index=skip).sort_values("share_first", ascending=False, kind="stable")
    rest = rest[rest["share_first"] >= 0.005].head(k)
    return ", ".join(f"{m} {100 * r['share_first']:.0f} %" for m, r in rest.iterrows())


def ranking_sentences(rt: dict) -> str:
    """The ranking in words (Markdown), saying no more than the numbers of :func:`ranking_table` show: the lowest
    mean rank with its interval and share of first places, how many methods are within Nemenyi's critical
    difference of it, the balanced error's ranking beside it, and the data sets where no method beats the majority
    class with the ranking without them."""
    err, major = rt["error"], rt["majority"]
    lines = []
    if "boot_error" not in rt:
        return (f"One block of results ({err['blocks']}): {_lowest(err['mean_ranks'])} the lowest mean rank of "
                f"the error ({err['mean_ranks'].iloc[0]:.1f}); with one data set there is no resampling of data sets "
                "and no statement about data sets in general.")
    b = rt["boot_error"]
    lead = b.index[0]
    n_m = len(b)
    who = _lowest(b["mean_rank"])
    text = (f"**Error.** Over {err['blocks']}, {who} the lowest mean rank of the {n_m} methods, "
            f"{_interval(b.iloc[0])} "
            f"(95 % interval over {rt['n_boot']:,} bootstrap resamples of the data sets, seed {rt['seed']}), and "
            f"{'has' if who.endswith(' has') else 'have'} the lowest mean rank in {_first_shares(b)} of the resamples")
    others = _share_list(b, lead)
    text += f" ({others})." if others else "."
    if "cd" in err:
        within = int((b["mean_rank"] - b["mean_rank"].iloc[0] < err["cd"]).sum()) - 1
        text += (f" Nemenyi's critical difference at {100 * rt['alpha']:.0f} % is {err['cd']:.1f} ranks: {within} "
                 "other "
                 f"method(s) have mean ranks within it of {lead}'s, so the test does not tell them apart from it ("
                 + _friedman_words(err["friedman_p"], rt["alpha"]) + ").")
    lines.append(text)
    if "boot_balanced" in rt:
        bb = rt["boot_balanced"]
        pos = _positions(bb["mean_rank"])
        d = _digits(bb["mean_rank"].iloc[0], bb.loc[lead, "mean_rank"])
        text = (f"**Balanced error** (the mean of the per-class error rates). {_lowest(bb['mean_rank'])} the "
                f"lowest mean rank, {_interval(bb.iloc[0], d)}, lowest in {_first_shares(bb)} of the resamples")
        if bb.index[0] != lead:
            text += f"; {lead} is {_ordinal(pos[lead])} ({_interval(bb.loc[lead], d)})"
        lines.append(text + ".")
    sets = major["sets"]
    bad = sets[~sets["beats_majority"]]
    if len(bad):
        names = "\n".join(f"* {dataset_title(r['dataset'])}: fewest errors {100 * r['best_error']:.1f} % "
                           f"({r['best_method']}) against {100 * r['majority_error']:.1f} % always predicting the "
                           f"most frequent class; one-sided p = {r['best_p']:.2g} before Holm's correction"
                           for _, r in bad.iterrows())
        text = (f"**Data sets where no method beats the majority class.** On {len(bad)} of the {len(sets)} data sets "
                f"no method's error is below that of always predicting the most frequent class at "
                f"{100 * rt['alpha']:.0f} % "
                f"(exact one-sided binomial test per method, Holm over the {n_m} methods). Their ranks order "
                "methods that do no better than guessing the most frequent class:\n\n" + names + "\n\n")
        if "boot_informative" in rt:
            bi = rt["boot_informative"]
            inf = rt["informative"]
            d = _digits(bi["mean_rank"].iloc[0], bi.loc[lead, "mean_rank"])  # 1 where the lead is tied at the top
            text += (f"Without them, over {inf['blocks']}, {_lowest(bi['mean_rank'])} the lowest mean rank, "
                     f"{_interval(bi.iloc[0], d)}, lowest in {_first_shares(bi)} of the resamples")
            if lead not in _tied_lowest(bi["mean_rank"]):
                text += f"; {lead} {_interval(bi.loc[lead], d)}, lowest in {100 * bi.loc[lead, 'share_first']:.0f} %"
            if "cd" in inf:
                within = int((bi["mean_rank"] - bi["mean_rank"].iloc[0] < inf["cd"]).sum()) - 1
                text += f"; {within} other method(s) within the critical difference ({inf['cd']:.1f} ranks)"
            text += "."
        lines.append(text)
    else:
        lines.append(f"On every one of the {len(sets)} data sets some method's error is below that of always "
                     f"predicting the most frequent class at {100 * rt['alpha']:.0f} % (exact one-sided binomial "
                     f"test per method, Holm over the {n_m} methods).")
    return "\n\n".join(lines)


def _ordinal(pos: str) -> str:
    def one(s):
        n = int(s)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"

    parts = pos.split("–")
    return one(parts[0]) if len(parts) == 1 else f"tied {one(parts[0])}–{one(parts[1])}"
