"""Do two full runs give the same tables? Every committed table of one ``figures/`` directory compared cell by cell
with another's (issue 27: "a full run gives the same tables on any machine of this kind, with any BLAS thread
count").

Used to check the BLAS thread count: run a notebook's full protocol in a second checkout of the same commit with
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1`` and compare its ``figures/`` with the committed one::

    genesel compare-runs figures/ ../other-checkout/figures/ --tables 'tan2006_*'

Measured times are not results: columns whose name mentions CPU, wall time or seconds, and rows or cells that
quote a time ("CPU seconds per fold", "costliest classifier", "time per ...") are left out of the comparison and
listed as such, and so are whole tables of times (named ``*_times.csv`` or ``*_cost.csv``). Everything else must
be equal as text, that is to every digit the run wrote (the tables keep the shortest round-trip form of every
float).

Two versions' tables (a full rerun, CONTRIBUTING.md) need not have the same rows or columns: a method or a column
added. Tables of different shapes are then aligned on their leading key columns (the fewest that name each row in
both, e.g. data set and method) and compared on the rows and columns they share; the rows and columns only one of
them has are listed. For the leaderboard's summaries (:func:`leaderboard_changes`, ``--rows``) every row whose error
moved is tested against the noise of its cross-validation: Welch's t-test over the repeats, from the mean and
standard deviation of the errors per repeat that both summaries hold, with Holm's adjustment over the moved rows.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["compare_tables", "compare_dirs", "key_columns", "leaderboard_changes", "main"]

_TIME_COL = re.compile(r"cpu|wall|seconds|\btime\b", re.I)
_TIME_ROW = re.compile(r"cpu seconds|costliest|time per|cpu s\b", re.I)
#: Tables that hold measured times only (``gentile2003_times.csv``, ``shah2012_cost.csv``: seconds per run), left out
#: whole: their columns are named after data sets or say "(s)", which the column rule does not catch.
_TIME_TABLE = re.compile(r"_(cost|costs|times?)\.csv$", re.I)


def key_columns(a: pd.DataFrame, b: pd.DataFrame, most: int = 3) -> list | None:
    """The fewest leading columns (at most ``most``), the same in both tables, whose values name each row of either
    table once; None when no such columns exist."""
    for k in range(1, most + 1):
        cols = list(a.columns[:k])
        if len(a.columns) > k and cols == list(b.columns[:k]) and not a.duplicated(cols).any() \
                and not b.duplicated(cols).any():
            return cols
    return None


def _timed_row(row) -> bool:
    return any(_TIME_ROW.search(str(v)) for v in row.to_numpy())


def _close(x, y, rtol: float) -> bool:
    """Two cells that both read as finite numbers within ``rtol`` of each other (relative to the larger)."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError):
        return False
    return bool(np.isfinite(fx) and np.isfinite(fy) and abs(fx - fy) <= rtol * max(abs(fx), abs(fy)))


def compare_tables(a: pd.DataFrame, b: pd.DataFrame, keys: list | None = None,
                   rtol: float = 0.0) -> tuple[list[str], list[str]]:
    """(differences, cells left out as measured times) between two tables read as text. Tables of the same columns
    and length are compared row by row; otherwise (or with ``keys``) rows are matched on their key columns
    (:func:`key_columns`), and the rows and columns only one table has are differences of their own. With ``rtol``
    > 0, numbers that differ as text but agree within ``rtol`` (e.g. the last bits of a mean summed in another
    order, between two versions of the report code) are counted apart, not as differences."""
    diffs, skipped = [], []
    n_close = 0
    same_shape = list(a.columns) == list(b.columns) and len(a) == len(b)
    if keys is None and not same_shape:
        keys = key_columns(a, b)
        if keys is None:
            if list(a.columns) != list(b.columns):
                return [f"columns differ: {list(a.columns)} vs {list(b.columns)}"], skipped
            return [f"{len(a)} rows vs {len(b)}"], skipped
    in_a, in_b = set(a.columns), set(b.columns)
    cols = [c for c in a.columns if c in in_b]
    timed_cols = [c for c in cols if _TIME_COL.search(str(c))]
    skipped += [f"column {c!r}" for c in timed_cols]
    if keys is None:
        pairs = [(f"row {i}", a.iloc[i], b.iloc[i]) for i in range(len(a))]
    else:
        only_a = [c for c in a.columns if c not in in_b]
        only_b = [c for c in b.columns if c not in in_a]
        if only_a:
            diffs.append(f"columns only in the first: {only_a}")
        if only_b:
            diffs.append(f"columns only in the second: {only_b}")
        ia, ib = a.set_index(keys, drop=False), b.set_index(keys, drop=False)
        gone = [k for k in ia.index if k not in ib.index]
        new = [k for k in ib.index if k not in ia.index]
        if gone:
            diffs.append(f"{len(gone)} row(s) only in the first: {gone[:5]}{' ...' if len(gone) > 5 else ''}")
        if new:
            diffs.append(f"{len(new)} row(s) only in the second: {new[:5]}{' ...' if len(new) > 5 else ''}")
        pairs = [(f"row {k!r}", ia.loc[k], ib.loc[k]) for k in ia.index if k in ib.index]
    for name, ra, rb in pairs:
        if _timed_row(ra):
            skipped.append(f"{name} ({str(ra.iloc[0])[:40]})")
            continue
        for c in cols:
            if c in timed_cols:
                continue
            if str(ra[c]) != str(rb[c]):
                if rtol > 0 and _close(ra[c], rb[c], rtol):
                    n_close += 1
                else:
                    diffs.append(f"{name}, {c!r}: {ra[c]!r} vs {rb[c]!r}")
    if n_close:
        skipped.append(f"{n_close} number(s) equal within rtol {rtol:g}")
    return diffs, skipped


def _welch_p(m1, s1, n1, m2, s2, n2) -> float:
    """Welch's two-sided p from two summaries (mean, sd, n): 1 when the means agree, 0 when they differ with no
    spread on either side."""
    from scipy import stats

    if m1 == m2:
        return 1.0
    if not (s1 > 0 or s2 > 0):
        return 0.0
    return float(stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False).pvalue)


#: what a leaderboard summary must hold for :func:`leaderboard_changes`
_LB_COLUMNS = ("dataset", "method", "n_repeats", "error", "errors_per_repeat", "errors_per_repeat_sd")


#: relative difference of two errors below which they are the same number written by two versions of the summary
#: (a float mean of the repeats' rates against an exact one differ in the last bit; one error more is 1e-4 or more)
SAME_ERROR_RTOL = 1e-12


def leaderboard_changes(a: pd.DataFrame, b: pd.DataFrame, level: float = 0.05, rtol: float = 0.0) -> pd.DataFrame:
    """The rows of two leaderboard summaries (``*_results.csv``) whose error moved (by more than ``rtol``, and never
    by less than float rounding, :data:`SAME_ERROR_RTOL`: a last-bit difference would be counted as a move and
    weaken Holm's adjustment over the moved rows), with a test against the noise of
    the cross-validation: Welch's t-test of the errors per repeat (mean and sd over the ``n_repeats`` repeats, as
    both summaries hold them; unpaired, so it cannot use that both runs share their folds: conservative), Holm's
    adjustment over the moved rows, and the verdict at ``level``. Rows of one summary only are left out (see
    :func:`compare_tables`)."""
    from genesel.leaderboard.ranking import holm

    missing = [c for c in _LB_COLUMNS if c not in a.columns or c not in b.columns]
    if missing:
        raise ValueError(f"not a leaderboard summary: no column(s) {missing}")
    m = a.merge(b, on=["dataset", "method"], suffixes=(" (first)", " (second)"))
    same = np.isclose(m["error (first)"].astype(float), m["error (second)"].astype(float),
                      rtol=max(float(rtol), SAME_ERROR_RTOL), atol=0.0)
    moved = m[~same].copy()
    p = [_welch_p(float(r["errors_per_repeat (first)"]), float(r["errors_per_repeat_sd (first)"]),
                  int(r["n_repeats (first)"]), float(r["errors_per_repeat (second)"]),
                  float(r["errors_per_repeat_sd (second)"]), int(r["n_repeats (second)"])) for _, r in moved.iterrows()]
    moved["p (Welch)"] = p
    moved["p (Holm)"] = holm(p)
    moved["verdict"] = np.where(moved["p (Holm)"] < level, "beyond the noise", "within the noise")
    cols = ["dataset", "method", "error (first)", "error (second)", "errors_per_repeat (first)",
            "errors_per_repeat_sd (first)", "errors_per_repeat (second)", "errors_per_repeat_sd (second)",
            "p (Welch)", "p (Holm)", "verdict"]
    return moved[cols].reset_index(drop=True)


def compare_dirs(first: Path, second: Path, pattern: str = "*", rtol: float = 0.0) -> pd.DataFrame:
    """One row per CSV table present in both directories (matching ``pattern``): identical or not, the number of
    differing cells, the first difference, and what was left out as a measured time."""
    rows = []
    for pa in sorted(Path(first).glob(pattern.removesuffix(".csv") + ".csv")):
        pb = Path(second) / pa.name
        if not pb.exists():
            rows.append({"table": pa.name, "identical": False, "differences": None, "first difference": "missing",
                         "left out (times)": ""})
            continue
        if _TIME_TABLE.search(pa.name):
            rows.append({"table": pa.name, "identical": True, "differences": 0, "first difference": "",
                         "left out (times)": "the whole table (measured times)"})
            continue
        read = dict(dtype=str, keep_default_na=False)
        diffs, skipped = compare_tables(pd.read_csv(pa, **read), pd.read_csv(pb, **read), rtol=rtol)
        rows.append({"table": pa.name, "identical": not diffs, "differences": len(diffs),
                     "first difference": diffs[0] if diffs else "", "left out (times)": "; ".join(skipped)})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel compare-runs", description=__doc__.splitlines()[0])
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--tables", default="*", help="glob on the table names, e.g. 'leaderboard_*'")
    ap.add_argument("--rtol", type=float, default=0.0,
                    help="numbers within this relative tolerance are not differences (two versions of the report "
                         "code may sum in another order); default 0: every digit")
    ap.add_argument("--rows", action="store_true",
                    help="also every leaderboard row whose error moved, tested against the noise of its repeats")
    args = ap.parse_args(argv)
    res = compare_dirs(args.first, args.second, args.tables, rtol=args.rtol)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 90, "display.width", 250):
        print(res.to_string(index=False) if len(res) else "no tables matched")
        if args.rows:
            for name in res["table"] if len(res) else []:
                pa, pb = Path(args.first) / name, Path(args.second) / name
                if not (name.endswith("_results.csv") and pb.exists()):
                    continue
                a, b = pd.read_csv(pa), pd.read_csv(pb)
                if not all(c in a.columns and c in b.columns for c in _LB_COLUMNS):
                    continue
                ch = leaderboard_changes(a, b, rtol=args.rtol)
                n_both = len(a.merge(b, on=["dataset", "method"]))
                print(f"\n{name}: {len(ch)} of {n_both} rows in both moved their error; "
                      f"{int((ch['verdict'] == 'beyond the noise').sum())} beyond the noise (Holm, 5 %)")
                if len(ch):
                    print(ch.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return 0 if len(res) and res.identical.all() else 1
