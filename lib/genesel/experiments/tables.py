"""Turning tidy grid results into the papers' tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["summarise", "format_mean_sd", "format_range", "paper_vs_genesel"]


def summarise(df: pd.DataFrame, by, value: str, *, columns=None, stats=("mean", "std", "count")) -> pd.DataFrame:
    """Aggregate ``value`` over repeated splits: one row per ``by`` group (and one column block per ``columns``).

    ``summarise(res, ["dataset", "method"], "error", columns="n_genes")`` gives the mean, sd and number of
    splits of the test error per data set and method, one column per gene count.
    """
    by = [by] if isinstance(by, str) else list(by)
    if value not in df.columns:
        raise KeyError(f"no column {value!r} in the results (columns: {list(df.columns)})")
    keys = by + ([columns] if isinstance(columns, str) else list(columns or []))
    agg = df.groupby(keys, sort=True, dropna=False)[value].agg(list(stats))
    if columns is None:
        return agg
    return agg.unstack(columns)


def format_mean_sd(mean, sd=None, *, scale: float = 100.0, digits: int = 1) -> str:
    """``12.3 ± 4.5`` (values scaled, e.g. error rates to percent)."""
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "–"
    s = f"{mean * scale:.{digits}f}"
    if sd is not None and not (isinstance(sd, float) and np.isnan(sd)):
        s += f" ± {sd * scale:.{digits}f}"
    return s


def format_range(values, fmt: str = "{:.2f}", unit: str = "") -> str:
    """The span of ``values`` as prose writes it: ``"0.01–0.22 s"``, or one number, ``"0.52 s"``, when both ends
    print the same (a range of one value is not a range); ``"–"`` when there are no finite values. ``fmt`` formats
    each end; ``unit`` follows the range (with a space unless it is ``%``)."""
    v = np.asarray(list(values), dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return "–"
    lo, hi = fmt.format(v.min()), fmt.format(v.max())
    text = lo if lo == hi else f"{lo}–{hi}"
    return text + ("" if not unit else unit if unit == "%" else f" {unit}")


def paper_vs_genesel(rows) -> pd.DataFrame:
    """The closing table of every notebook: one row per published claim.

    ``rows``: dicts with ``quantity``, ``paper`` (the published value, as printed), ``genesel`` (ours), and
    optionally ``protocol`` (e.g. "paper's (selection on all training data)" or "unbiased (selection inside
    folds)") and ``note`` (why they differ).
    """
    cols = ["quantity", "protocol", "paper", "genesel", "note"]
    out = pd.DataFrame([{c: r.get(c, "") for c in cols} for r in rows], columns=cols)
    return out.set_index("quantity")
