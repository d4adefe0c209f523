"""Díaz-Uriarte & Alvarez de Andrés 2006, Table 2, beside genesel's .632+ estimates of the same methods, cell by cell,
with the bootstrap's Monte-Carlo standard error (jackknife over the B bootstrap samples).

Runs :func:`genesel.leaderboard.cells.boot_cell` directly (no cache, nothing written but the CSV asked for), on the
data sets of their Table 2 in their views (:data:`genesel.leaderboard.cells.DU2006_VIEWS`).

    PYTHONPATH=lib:. python benchmarks/bench_du2006_table2.py --boots 50 --jobs 2 --out du2006.csv
    PYTHONPATH=lib:. python benchmarks/bench_du2006_table2.py --boots 3 --datasets alon --methods "kNN (all genes)"

Columns: data set, method, their value, B, the .632+ estimate, its Monte-Carlo s.e., (genesel - paper) / s.e.,
CPU seconds of the cells. "within noise" is |genesel - paper| <= 2 s.e. of the sum of both Monte-Carlo errors (theirs
taken equal to ours at their B = 200: s.e. x sqrt(B / 200)).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, recorded, use_mirror  # noqa: E402


def _cell(args):
    from genesel.leaderboard.cells import boot_cell

    d, m, b, inner_k, seed, view = args
    return (d, m, b), boot_cell(d, m, b, inner_k, seed, False, None, view)


def estimate(y, rows):
    """(.632+ error, jackknife Monte-Carlo s.e.) from the all-samples row (boot -1) and the bootstrap rows."""
    from genesel.experiments import error_632plus
    from genesel.leaderboard.du2006 import apparent_and_oob, jackknife_se

    ap, oob = apparent_and_oob(y, rows[-1], (r for b, r in sorted(rows.items()) if b >= 0))
    return error_632plus(y, ap, oob).error, jackknife_se(y, ap, oob)


@recorded
def main(argv=None):
    from genesel.leaderboard.cells import DU2006_METHODS, DU2006_VIEWS, load
    from genesel.leaderboard.du2006 import DU2006_COLUMN_METHODS, DU2006_COLUMNS, DU2006_TABLE2

    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--boots", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--inner-k", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--datasets", nargs="*", default=list(DU2006_VIEWS))
    ap.add_argument("--methods", nargs="*", default=list(DU2006_METHODS))
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    use_mirror(a)
    paper_of = {m: DU2006_COLUMNS.index(c) for c, m in DU2006_COLUMN_METHODS.items()}
    jobs = [(d, m, b, a.inner_k, a.seed, DU2006_VIEWS.get(d)) for d in a.datasets for m in a.methods
            for b in range(-1, a.boots)]
    rows: dict = {}
    with ProcessPoolExecutor(a.jobs) as ex:
        for (d, m, b), r in ex.map(_cell, jobs):
            rows.setdefault((d, m), {})[b] = r
    out = []
    for (d, m), rs in rows.items():
        if any("not_applicable" in r for r in rs.values()):
            continue
        y = load(d, DU2006_VIEWS.get(d), None).y
        est, se = estimate(y, rs)
        paper = DU2006_TABLE2[d][paper_of[m]] if d in DU2006_TABLE2 else np.nan
        se_both = se * np.sqrt(1.0 + a.boots / 200.0)
        out.append(dict(dataset=d, method=m, paper=paper, B=a.boots, genesel=round(est, 3), mc_se=round(se, 4),
                        z=round((est - paper) / se_both, 1) if se_both > 0 else np.nan,
                        within_noise=bool(abs(est - paper) <= 2 * se_both),
                        cpu_seconds=round(sum(r["cpu_seconds"] for r in rs.values()), 1)))
    table = pd.DataFrame(out)
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(table.to_string(index=False))
    if a.out:
        table.to_csv(a.out, index=False)


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"wall {time.time() - t0:.0f} s")
