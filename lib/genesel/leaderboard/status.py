"""How far a leaderboard run is, and how long the rest will take: read from its cell cache, without running it.

The full run of notebook 06 (every binary data set x every method x 10 x 5 outer folds, and 201 .632+ cells per
method and data set of Díaz-Uriarte & Alvarez de Andrés 2006) takes longer than a working day on 2 cores and is
usually run in pieces: interrupted, resumed from its cache (:func:`genesel.experiments.run_grid`), perhaps on a
cluster. ``genesel status [--cache DIR] [--cores N]`` answers, at any moment and from another
shell, what a pipeline needs to know: which cells are done, what they cost (CPU seconds measured by the cells
themselves, one BLAS thread each) and an estimate of the CPU time and wall time still needed, on idle cores and at
the rate the cells of the last hour actually finished (the run's workers and whatever else the machine runs).

The estimate of a cell not yet run, best available first:

1. the mean CPU time of the cells of the same method on the same data set that are done;
2. else the method's own cost on the data sets done, scaled to this data set's size, as a range: per sample x gene
   (the low end) and per sample² x gene (the high end: an SVM's or a GP's work grows faster than linearly in the
   samples), each rate pooled over the done cells (their CPU seconds over their summed sizes). Pooled rather than
   averaged per cell: Sørlie's 456 genes cost more per gene than Su's 5,565 (a fit's fixed costs), and the average
   of the ratios, led by them, put the multi-class board's rest at 37-55 CPU hours; predicting Su's finished cells
   from Khan's and Sørlie's alone, the average gave 5.2-6.6 h and the pooled rate 3.2-4.8 h for the 1.9 h they
   took. On the binary sets, each predicted from the other ten, the two agree within 10 %. On Colon, Leukemia and
   Prostate the methods' measured costs grew between the low and the high end;
3. else the committed full run's cost of the method (:func:`genesel.leaderboard.cost.cell_cpu_seconds`: the
   method's costs over the committed data sets, fitted as a power of samples x genes).

The cells of the run are those notebook 06 makes with the given mode (:data:`genesel.leaderboard.cells.MODES`),
keyed as the grid keys them (:func:`genesel.experiments.cell_key`, per method: :mod:`genesel.leaderboard.keys`):
a cell computed by older code of its method counts as not done, as the notebook would recompute it. The "another
seed" grid of the notebook's Exercise 3 (:func:`genesel.leaderboard.exercises.seed_methods`, the cross-validation of
four cheap methods with the next seed) is counted as a grid of its own.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

from genesel.experiments.grid import cached_records, cell_key

__all__ = ["run_cells", "grid_functions", "GRID_TITLES", "read_costs", "status", "summary_text", "main"]


def run_cells(mode: str = "full", datasets=None, methods=None, seed: int = 0, board: str = "binary") -> dict:
    """{"cv": cells, "boot": cells, "seed": cells} of notebook 06 with these parameters (defaults as the notebook's,
    on ``board``: "binary" or "multiclass"): the cross-validation grid, the .632+ cells on the run's data sets of
    Díaz-Uriarte 2006's Table 2, and Exercise 3's grid (its methods' cross-validation with ``seed + 1``).
    :func:`grid_functions` gives each grid's cell function."""
    from genesel.leaderboard import cells as C
    from genesel.leaderboard.catalogue import method_names
    from genesel.leaderboard.exercises import seed_cells

    p = C.MODES[mode]
    quick = mode == "quick"
    default = (["alon"] if board == "binary" else ["khan"]) if quick else C.board_sets(board)
    datasets = list(datasets) if datasets else default
    methods = list(methods) if methods else method_names(board)
    boot_sets = [d for d in C.DU2006_VIEWS if d in datasets]
    cv = C.cv_cells(datasets, methods, n_repeats=p["n_repeats"], n_folds=p["n_folds"], inner_k=p["inner_k"],
                    seed=seed, quick=quick, max_genes=p["max_genes"])
    boot = C.boot_cells(boot_sets, list(C.DU2006_METHODS), n_boot=p["n_boot"], inner_k=p["inner_k"], seed=seed,
                        quick=quick, max_genes=p["max_genes"])
    other = seed_cells(datasets, methods, board, n_repeats=p["n_repeats"], n_folds=p["n_folds"], inner_k=p["inner_k"],
                       seed=seed, quick=quick, max_genes=p["max_genes"])
    return {"cv": cv, "boot": boot, "seed": other}


#: how each grid of :func:`run_cells` is shown
GRID_TITLES = {"cv": "cross-validation", "boot": ".632+", "seed": "another seed"}


def grid_functions() -> list:
    """[(grid, cell function)] of :func:`run_cells`' grids, in the order notebook 06 runs them."""
    from genesel.leaderboard.cells import boot_cell, cv_cell

    return [("cv", cv_cell), ("boot", boot_cell), ("seed", cv_cell)]


def read_costs(func, keys, cache_dir=None) -> dict:
    """{key: (CPU seconds, time written, wall seconds)} of the cached cells of ``func`` among ``keys``: the seconds
    the cell measured around its method (the notebook's "CPU seconds per outer fold"), else the grid's around the
    whole call; when the cell finished (:func:`genesel.experiments.grid.cached_records`); and how long the grid's
    call took (wall; the CPU seconds where a record has no wall time)."""
    out = {}
    for k, rec in cached_records(func, keys, cache_dir).items():
        res = rec.get("result")
        cpu = res.get("cpu_seconds") if isinstance(res, dict) else None  # the method's own, as the notebook's table
        if cpu is None:
            cpu = rec.get("cpu_seconds")  # the grid's: the whole call, loading the data included
        cpu = float(cpu if cpu is not None else rec.get("seconds", np.nan))
        wall = rec.get("seconds")
        out[k] = (cpu, float(rec["written"]), float(wall) if wall is not None else cpu)
    return out


def _shapes(cells) -> dict:
    from genesel.datasets import list_datasets
    from genesel.leaderboard.cells import load

    table = list_datasets().set_index("name")
    out = {}
    for c in cells:
        key = (c["dataset"], c.get("view"), c.get("max_genes"))
        if key in out:
            continue
        if c.get("view") is None and c.get("max_genes") is None and c["dataset"] in table.index:
            r = table.loc[c["dataset"]]
            out[key] = (int(r["n_samples"]), int(r["n_genes"]))
        else:
            out[key] = tuple(load(c["dataset"], c.get("view"), c.get("max_genes")).X.shape)
    return out


def status(cache_dir=None, mode: str = "full", datasets=None, methods=None, seed: int = 0,
           board: str = "binary") -> pd.DataFrame:
    """One row per cell of the run (``grid``, ``dataset``, ``method``, ``n``, ``genes``, ``done``, ``cpu``: measured
    CPU seconds of a done cell, else the low estimate, ``cpu_high`` the high one, ``estimated``: how: "measured",
    "same method and data", "method, scaled", "committed run"; ``finished``: when a done cell was written, epoch
    seconds)."""
    from genesel.leaderboard.cost import cell_cpu_seconds

    rows = []
    grids = run_cells(mode, datasets, methods, seed, board)
    for grid, func in grid_functions():
        cells = grids.get(grid, [])
        keys = [cell_key(func, c) for c in cells]
        costs = read_costs(func, keys, cache_dir)
        shapes = _shapes(cells)
        for c, k in zip(cells, keys):
            n, g = shapes[(c["dataset"], c.get("view"), c.get("max_genes"))]
            rows.append(dict(grid=grid, dataset=c["dataset"], method=c["method"], n=n, genes=g,
                             inner_k=c["inner_k"], quick=c["quick"], done=k in costs,
                             cpu=costs[k][0] if k in costs else np.nan,
                             finished=costs[k][1] if k in costs else np.nan,
                             wall=costs[k][2] if k in costs else np.nan))
    t = pd.DataFrame(rows)
    t["cpu_high"] = t["cpu"]
    t["estimated"] = np.where(t["done"], "measured", "")
    done = t[t["done"]]
    same = done.groupby(["grid", "dataset", "method"])["cpu"].mean()
    size = done["n"].astype(float) * done["genes"]
    # pooled over the method's done cells (their CPU over their summed sizes), so that a small set's fixed costs do
    # not set the rate per gene of a large one (the mean of the per-cell ratios did: see the module docstring)
    by = done["method"]
    low = done["cpu"].groupby(by).sum() / size.groupby(by).sum()  # per sample x gene
    high = done["cpu"].groupby(by).sum() / (size * done["n"]).groupby(by).sum()  # per sample² x gene
    col = {c: t.columns.get_loc(c) for c in ("cpu", "cpu_high", "estimated")}
    for i in np.flatnonzero(~t["done"].to_numpy()):
        r = t.iloc[i]
        n, g = float(r["n"]), float(r["genes"])
        like = ("cv" if r["grid"] == "seed" else r["grid"], r["dataset"], r["method"])  # another seed: as the cv's
        if like in same.index:
            lo = hi = same[like]
            how = "same method and data"
        elif r["method"] in low.index:
            lo, hi = low[r["method"]] * n * g, high[r["method"]] * n * n * g
            how = "method, scaled"
        else:
            lo = hi = cell_cpu_seconds(r["method"], int(n), int(g), r["inner_k"], bool(r["quick"]))[0]
            how = "committed run"
        t.iat[i, col["cpu"]], t.iat[i, col["cpu_high"]], t.iat[i, col["estimated"]] = lo, max(lo, hi), how
    return t


def _hours(s: float) -> str:
    return f"{s / 3600:.1f} h" if s >= 360 else f"{s / 60:.0f} min"


def _range(lo: float, hi: float) -> str:
    if hi <= lo * 1.05:
        return _hours(lo)
    if hi >= 360:
        return f"{lo / 3600:.1f}-{hi / 3600:.1f} h"
    return f"{lo / 60:.0f}-{hi / 60:.0f} min"


def recent_rate(t: pd.DataFrame, now: float | None = None, window: float = 3600.0):
    """(cells, their CPU seconds, CPU seconds per wall second while running, seconds running) of the cells finished
    in the last ``window`` seconds before ``now``: how fast the run actually goes (its workers, and whatever else
    the machine runs); None when none finished then.

    "Running" is the time in the window during which at least one of these cells was being computed (the union of
    their [finish - wall, finish] intervals), so a run that was stopped for part of the hour (a session's end, a
    pause) is timed on the minutes it ran, not on the whole hour; a cell begun before the window counts with the
    share of its CPU inside it. Without a ``wall`` column every cell is taken to have run for its CPU seconds."""
    import time

    now = time.time() if now is None else float(now)
    recent = t[t["done"] & (t["finished"] > now - window) & (t["finished"] <= now)]
    if not len(recent):
        return None
    cpu_all = recent["cpu"].to_numpy(float)
    wall = recent["wall"].to_numpy(float) if "wall" in recent else cpu_all
    wall = np.where(np.isfinite(wall) & (wall > 0), wall, np.maximum(cpu_all, 1e-9))
    end = recent["finished"].to_numpy(float)
    start = np.maximum(end - wall, now - window)
    cpu = float(np.sum(cpu_all * (end - start) / wall))
    running, reach = 0.0, -np.inf
    for a, b in sorted(zip(start, end)):  # the union's length
        if b > reach:
            running += b - max(a, reach)
            reach = b
    running = max(running, 1e-9)
    return len(recent), cpu, cpu / running, running


def summary_text(t: pd.DataFrame, cores: int = 2, now: float | None = None) -> str:
    """The status table as a reader wants it: per data set, then the methods that cost most, then the totals and,
    if cells finished in the last hour, the rest at the rate they went."""
    lines = []
    by = t.groupby(["grid", "dataset"], sort=False).agg(cells=("done", "size"), done=("done", "sum"))
    spent = t[t["done"]].groupby(["grid", "dataset"], sort=False)["cpu"].sum()
    todo = t[~t["done"]]
    left = todo.groupby(["grid", "dataset"], sort=False)[["cpu", "cpu_high"]].sum()
    by["CPU spent"] = spent.reindex(by.index).fillna(0.0).map(_hours)
    left = left.reindex(by.index).fillna(0.0)
    by["CPU left (est.)"] = [_range(a, b) for a, b in zip(left["cpu"], left["cpu_high"])]
    by = by.reset_index()
    by["grid"] = by["grid"].map(GRID_TITLES)
    lines.append(by.to_string(index=False))
    if len(todo):
        top = todo.groupby("method")["cpu_high"].sum().sort_values(ascending=False)
        share = 100 * top / top.sum()
        lines.append("\nmost of what is left: " + "; ".join(f"{m} {_hours(top[m])} ({share[m]:.0f} %)"
                                                             for m in top.index[:3]))
        how = todo["estimated"].value_counts()
        lines.append("estimates: " + ", ".join(f"{v} cells by {k}" for k, v in how.items()))
    spent, lo, hi = t.loc[t["done"], "cpu"].sum(), todo["cpu"].sum(), todo["cpu_high"].sum()
    rate = recent_rate(t, now)
    if rate is not None and len(todo):
        n_recent, cpu_recent, per_s, running = rate
        ran = "" if running >= 0.95 * 3600 else f" (cells were running for {_hours(running)} of it)"
        lines.append(f"the last hour: {n_recent} cells finished, {_hours(cpu_recent)} of their CPU{ran}: "
                     f"{per_s:.2f} CPU seconds per second while running; at that rate the rest takes "
                     f"{_range(lo / per_s, hi / per_s)}")
    k = max(1, int(cores))
    lines.append(f"\n{int(t['done'].sum())} of {len(t)} cells done ({100 * t['done'].mean():.1f} %); CPU spent "
                 f"{_hours(spent)}; left: {_range(lo, hi)} CPU, {_range(lo / k, hi / k)} wall on {k} cores "
                 "(the range: costs scaled by samples x genes, or by samples² x genes)")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel status", description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default=None, help="the run's cache folder (default: $GENESEL_CACHE_DIR or runs/cache)")
    ap.add_argument("--mode", choices=("full", "quick"), default="full")
    ap.add_argument("--datasets", nargs="*", default=None, help="the run's data sets (default: the notebook's)")
    ap.add_argument("--methods", nargs="*", default=None, help="the run's methods (default: all)")
    ap.add_argument("--board", choices=("binary", "multiclass"), default="binary",
                    help="the leaderboard: two-class sets, or those of three or more classes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cores", type=int, default=2, help="workers of the run, for the wall-time estimate")
    ap.add_argument("--csv", default=None, help="also write the per-cell table here")
    a = ap.parse_args(argv)
    t = status(a.cache, a.mode, a.datasets, a.methods, a.seed, a.board)
    if a.csv:
        t.to_csv(a.csv, index=False)
    print(summary_text(t, a.cores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
