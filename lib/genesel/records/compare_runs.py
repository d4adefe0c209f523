"""Do two full runs give the same tables? Every committed table of one ``figures/`` directory compared cell by cell
with another's (issue 27: "a full run gives the same tables on any machine of this kind, with any BLAS thread
count").

Used to check the BLAS thread count: run a notebook's full protocol in a second checkout of the same commit with
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1`` and compare its ``figures/`` with the committed one::

    genesel compare-runs figures/ ../other-checkout/figures/ --tables 'tan2006_*'

Measured times are not results: columns whose name mentions CPU, wall time or seconds, and rows or cells that
quote a time ("CPU seconds per fold", "costliest classifier", "time per ...") are left out of the comparison and
listed as such. Everything else must be equal as text, that is to every digit the run wrote (the tables keep the
shortest round-trip form of every float).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

__all__ = ["compare_tables", "compare_dirs", "main"]

_TIME_COL = re.compile(r"cpu|wall|seconds|\btime\b", re.I)
_TIME_ROW = re.compile(r"cpu seconds|costliest|time per|cpu s\b", re.I)


def compare_tables(a: pd.DataFrame, b: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(differences, cells left out as measured times) between two tables read as text."""
    diffs, skipped = [], []
    if list(a.columns) != list(b.columns):
        return [f"columns differ: {list(a.columns)} vs {list(b.columns)}"], skipped
    if len(a) != len(b):
        return [f"{len(a)} rows vs {len(b)}"], skipped
    timed_cols = [c for c in a.columns if _TIME_COL.search(str(c))]
    skipped += [f"column {c!r}" for c in timed_cols]
    for i in range(len(a)):
        ra, rb = a.iloc[i], b.iloc[i]
        if any(_TIME_ROW.search(str(v)) for v in ra.to_numpy()):
            skipped.append(f"row {i} ({str(ra.iloc[0])[:40]})")
            continue
        for c in a.columns:
            if c in timed_cols:
                continue
            if str(ra[c]) != str(rb[c]):
                diffs.append(f"row {i}, {c!r}: {ra[c]!r} vs {rb[c]!r}")
    return diffs, skipped


def compare_dirs(first: Path, second: Path, pattern: str = "*") -> pd.DataFrame:
    """One row per CSV table present in both directories (matching ``pattern``): identical or not, the number of
    differing cells, the first difference, and what was left out as a measured time."""
    rows = []
    for pa in sorted(Path(first).glob(pattern.removesuffix(".csv") + ".csv")):
        pb = Path(second) / pa.name
        if not pb.exists():
            rows.append({"table": pa.name, "identical": False, "differences": None, "first difference": "missing",
                         "left out (times)": ""})
            continue
        read = dict(dtype=str, keep_default_na=False)
        diffs, skipped = compare_tables(pd.read_csv(pa, **read), pd.read_csv(pb, **read))
        rows.append({"table": pa.name, "identical": not diffs, "differences": len(diffs),
                     "first difference": diffs[0] if diffs else "", "left out (times)": "; ".join(skipped)})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel compare-runs", description=__doc__.splitlines()[0])
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--tables", default="*", help="glob on the table names, e.g. 'leaderboard_*'")
    args = ap.parse_args(argv)
    res = compare_dirs(args.first, args.second, args.tables)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 90, "display.width", 250):
        print(res.to_string(index=False) if len(res) else "no tables matched")
    return 0 if len(res) and res.identical.all() else 1

