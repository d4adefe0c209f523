"""The leaderboard's cost: the run's measured CPU time, and notebook 06's cost estimated from its parameters before
it runs (a report module: editing it moves no cell's cache key).

The estimate reads the committed full run (``figures/leaderboard_results.csv``: CPU seconds per outer fold of
every method on every data set, measured by the cells themselves on one BLAS thread) so that adding a method to the
catalogue needs no hand-kept table of costs. The CPU seconds of one outer fold (or one bootstrap sample) of method
m on an n x g data set (:func:`cell_cpu_seconds`), best available first:

1. **committed, same data**: the committed cost of m on a data set of the same n x g;
2. **committed, scaled**: m's committed costs over the data sets of the run follow c = a n^α g^β; a, α and β are
   fitted by least squares on log c against log n and log g over m's committed data sets (α and β kept within
   [0, 3]; fewer than three sets, or sizes that do not separate n from g: one exponent on n g, as c = a (n g)^β),
   and the fit is read at this n x g, each no smaller than the smallest of m's committed sets (below them fixed
   costs per fit dominate and a power law fitted on the large sets would make them vanish);
3. **no committed row for m** (a method added since the run): the median over the committed methods of step 2's
   estimate at this n g, and the estimate names the methods it guessed for.

Quick mode keeps 300 genes, fewer than any committed set: there a cell's cost is mostly the overhead of its many
small fits, half of it (:data:`_FIXED_SHARE`) the same whatever the samples and the other half growing as n^α from
its value at Colon's 62 samples (the size on which quick mode was checked): c = c(62) (1/2 + 1/2 (n / 62)^α).
Measured under one load on quick runs: a 17-sample study cost 0.62 of Colon's (the rule: 0.62), a 109-sample one
1.1 (the rule: 1.4).

The committed run used the full grids and 5 inner folds; an outer fold makes (inner folds + 1) fits of each
setting of the grid, so the estimate is scaled by (inner_k + 1) / 6 and, in quick mode, by the number of settings
of the quick grid over the full grid's (:meth:`genesel.leaderboard.catalogue.Method.settings`) times, for the
forests, the number of trees of the quick grid over the full grid's (a grid key ``trees``: the work grows with
it). Checked against the quick run's own cells (Colon's 300 most variable genes, 3 inner folds; the hand-kept
table this replaced): 3.9 s per outer fold of the 35 methods estimated against 3.8 s measured; one method at a
time the measured cost is 0.3 (AdaBoost) to 7 times (the all-genes RVM, 0.02 s) the estimate, most within a
factor of 2.

K classes: most methods fit K >= 3 classes as K problems of one class against the rest (the SVMs and the rankings
on them, the filters, ALMA, the stumps, RVM, DWD; SMLR, the GP and the multinomial logistic regression jointly, at
more than the binary cost). A K-class data set's cell is estimated at K times the binary-scaled cost
(:data:`MULTICLASS_FACTOR` per class), except where the multi-class board's committed full run
(``figures/leaderboard_multiclass_results.csv``, 5 data sets of 3 to 6 classes) knows better: its own cost on the
same data (step 1), and, for a method with no binary cost (the multinomial logistic regression, the ANOVA F,
Kruskal-Wallis and one-vs-rest t-test rankings), step 2 on its table (K is not a variable of that fit). The K-times
rule, checked on Khan's SRBCT in quick mode (4 classes, 63 x 300): all methods together cost 4.4 times the
binary-scaled estimate (21.3 CPU s per outer fold against 4.8; one method at a time 0.06 (DLDA, measured at
0.008 s) to 23 times (Occam stumps), the median 2.6). Alone it counted the multinomial logistic regression as the
median method, and that method is 43 % of the multi-class board's full run (9.2 CPU h of it on Nakayama). Checked
by leaving each of the board's 5 sets out of its table (full protocol, all methods, CPU per outer fold): this
estimate is 1.92 (Khan), 2.00 (Sørlie), 1.27 (Su), 0.87 (Nakayama) and 1.42 (Christensen) times the committed
cost, the K-times rule alone 1.39, 1.95, 0.90, 0.64 and 0.98; all of the board's methods fitted on its table alone
(steps 2-3) 2.42, 0.73, 1.12, 0.42 and 4.41: five sets do not pin down a power law per method.

A user's file is preprocessed in every training part (inner and outer) with its own decision, which the committed
registered sets do not pay for: counts, for one, are normalised by TMM in each (rnanorm's factors, a loop over the
samples: a tenth of a second on 109 x 300, more than the cheap methods' fits). :func:`estimated_seconds` times one
preprocessing of the file on a training part of its size and adds it (inner folds + 1) times per cell.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pandas as pd

from genesel.leaderboard.catalogue import CATALOGUE
from genesel.leaderboard.summary import dataset_title

__all__ = ["QUICK_BUDGET", "FULL_BUDGET", "MULTICLASS_FACTOR", "committed_costs", "cost_model", "cell_cpu_seconds",
           "estimated_seconds", "preprocessing_seconds", "cost_table", "cost_sentence"]

#: Time budgets of notebook 06 on 2 cores (seconds): quick mode, full mode. The committed full run: 19.5 CPU h,
#: about 9.8 h on 2 idle cores (``figures/06_leaderboard_run.json``).
QUICK_BUDGET, FULL_BUDGET = 180.0, 14 * 3600.0
#: A K-class data set's cells cost this many times K the binary-scaled estimate (module docstring)
MULTICLASS_FACTOR = 1.0
#: Fixed costs of a run (kernel, imports, loading the data sets, numba's cached kernels), seconds.
_OVERHEAD = 25.0
#: The exponents of the size scaling are kept within these bounds (a method measured on sets of similar size can
#: fit any exponent).
_BETA_RANGE = (0.0, 3.0)
#: Quick mode (fewer genes than any committed set): the share of a cell's cost that does not grow with the samples,
#: and the samples at which it is anchored (Colon, on which quick mode's estimate was checked).
_FIXED_SHARE, _N_REF = 0.5, 62


@lru_cache(maxsize=4)
def _read_committed(path: str, run_record: str = "06_leaderboard_run.json") -> tuple:
    from genesel.leaderboard.cells import MODES

    t = pd.read_csv(path)
    need = {"dataset", "method", "n_samples", "n_genes", "cpu_per_fold"}
    if not need <= set(t.columns):
        raise ValueError(f"{path}: the committed results lack the column(s) {sorted(need - set(t.columns))}; "
                         "rerun notebook 06 in full mode to write them")
    inner_k = MODES["full"]["inner_k"]
    run = path.rsplit("/", 1)[0] + "/" + run_record
    try:
        with open(run) as f:
            given = json.load(f).get("parameters", {}).get("inner_k")
        inner_k = int(given) if given is not None else inner_k
    except FileNotFoundError:
        pass
    t = t[["dataset", "method", "n_samples", "n_genes", "cpu_per_fold"]].dropna()
    return t[t["cpu_per_fold"] > 0].reset_index(drop=True), inner_k


#: the committed run of each board: its results table and its run record (``figures/``)
_COMMITTED = {"binary": ("leaderboard_results", "06_leaderboard_run.json"),
              "multiclass": ("leaderboard_multiclass_results", "06_leaderboard_multiclass_run.json")}


def committed_costs(board: str = "binary") -> tuple[pd.DataFrame, int]:
    """(the committed full run's CPU seconds per outer fold per method and data set with n_samples and n_genes,
    the inner folds it used), read from ``figures/leaderboard_results.csv`` (``board="multiclass"``:
    ``figures/leaderboard_multiclass_results.csv``; :func:`genesel.leaderboard.tables.committed_table`)."""
    from genesel.leaderboard.tables import committed_table

    table, run = _COMMITTED[board]
    return _read_committed(str(committed_table(table)), run)


def cost_model(costs: pd.DataFrame) -> pd.DataFrame:
    """Per method of ``costs`` (rows: method, n_samples, n_genes, cpu_per_fold): the fit c = a n^α g^β of step 2
    of the module docstring: ``log_a``, ``alpha``, ``beta``, and the smallest n and g it was fitted on
    (``min_n``, ``min_g``)."""
    rows = {}
    for m, g in costs.groupby("method", sort=False):
        ln, lg = np.log(g["n_samples"].to_numpy(float)), np.log(g["n_genes"].to_numpy(float))
        y = np.log(g["cpu_per_fold"].to_numpy(float))
        A = np.c_[np.ones(y.size), ln, lg]
        if y.size >= 3 and np.linalg.matrix_rank(A) == 3:
            coef = np.linalg.lstsq(A, y, rcond=None)[0]
            alpha, beta = (float(np.clip(c, *_BETA_RANGE)) for c in coef[1:])
        elif np.unique(ln + lg).size >= 2:
            alpha = beta = float(np.clip(np.polyfit(ln + lg, y, 1)[0], *_BETA_RANGE))
        else:
            alpha = beta = 1.0
        rows[m] = dict(log_a=float(np.mean(y - alpha * ln - beta * lg)), alpha=alpha, beta=beta,
                       min_n=float(np.exp(ln.min())), min_g=float(np.exp(lg.min())))
    return pd.DataFrame.from_dict(rows, orient="index")


def _grid_ratio(method: str) -> float:
    m = CATALOGUE.get(method)
    if m is None:
        return 1.0

    def work(quick):
        r = len(m.settings("ranker", quick)) if m.kind == "ranked" else 1
        est = m.settings("estimator", quick)
        trees = np.mean([s["trees"] for s in est]) if est and all("trees" in s for s in est) else 1.0
        return r * len(est) * trees

    return work(True) / work(False)


def cell_cpu_seconds(method: str, n_samples: int, n_genes: int, inner_k: int, quick: bool,
                     costs: tuple | None = None) -> tuple[float, str]:
    """(estimated CPU seconds of one outer fold or one bootstrap sample of ``method`` on an ``n_samples`` x
    ``n_genes`` data set with ``inner_k`` inner folds, how: "committed", "scaled" or "no committed cost"), from the
    committed run (``costs``: :func:`committed_costs` by default; module docstring for the model)."""
    table, k_ref = committed_costs() if costs is None else costs
    mine = table[table["method"] == method]
    same = mine[(mine["n_samples"] == n_samples) & (mine["n_genes"] == n_genes)]
    if len(same):
        base, how = float(same["cpu_per_fold"].mean()), "committed"
    else:
        model = cost_model(mine if len(mine) else table)

        def at(r):
            small = n_genes < r["min_g"]  # quick mode's few genes: mostly per-fit overhead (module docstring)
            n = max(float(n_samples), r["min_n"]) if not small else max(float(_N_REF), r["min_n"])
            c = float(np.exp(r["log_a"] + r["alpha"] * np.log(n) + r["beta"] * np.log(max(n_genes, r["min_g"]))))
            if small:
                c *= _FIXED_SHARE + (1 - _FIXED_SHARE) * (float(n_samples) / _N_REF) ** r["alpha"]
            return c

        if len(mine):
            base, how = at(model.iloc[0]), "scaled"
        else:
            base, how = float(np.median([at(r) for _, r in model.iterrows()])), "no committed cost"
    factor = (int(inner_k) + 1) / (int(k_ref) + 1) * (_grid_ratio(method) if quick else 1.0)
    return base * factor, how


def preprocessing_seconds(dataset, max_genes=None) -> float:
    """CPU seconds of one preprocessing of a user's file on a training part of two thirds of its samples (fitted on
    it, applied to it and to the rest: what :func:`genesel.leaderboard.protocol.prepare` does in every inner and
    outer split), timed once on the file (the best of three); 0 for a registered set, whose committed costs include
    its preprocessing."""
    import time

    from genesel.dataref import is_file_reference
    from genesel.leaderboard.cells import load
    from genesel.leaderboard.protocol import prepare_uncached

    if not is_file_reference(dataset):
        return 0.0
    task = load(dataset, None, max_genes)
    idx = np.random.default_rng(0).permutation(task.y.size)
    tr, te = np.sort(idx[: max(2, 2 * task.y.size // 3)]), np.sort(idx[max(2, 2 * task.y.size // 3):])
    best = np.inf
    for _ in range(3):
        t0 = time.process_time()
        prepare_uncached(task.prep, task.X, tr, te)
        best = min(best, time.process_time() - t0)
    return float(best)


def estimated_seconds(datasets, methods, *, quick: bool, n_repeats: int, n_folds: int, inner_k: int, max_genes,
                      n_boot: int, boot_datasets, n_jobs: int = 2, boot_methods=None,
                      seed_methods=()) -> tuple[float, str]:
    """(seconds on 2 cores, what dominates) of notebook 06 with these parameters, before anything runs: every
    cross-validation cell and every .632+ cell the notebook will run (:func:`cell_cpu_seconds` each), and the
    cross-validation again for ``seed_methods`` (Exercise 3's grid, another seed:
    :func:`genesel.leaderboard.exercises.seed_methods`), over the workers (at most the machine's 2 cores), plus
    fixed costs. Without the committed results (an installed package
    outside the repository) there is nothing to estimate from: NaN and a sentence saying so."""
    from genesel.leaderboard.cells import DU2006_METHODS, DU2006_VIEWS, load, outer_folds
    from genesel.papers.presentation import format_seconds

    try:
        costs = committed_costs()
    except FileNotFoundError as e:
        return float("nan"), f"no estimate: {e}"
    try:
        costs_k = committed_costs("multiclass")
    except FileNotFoundError:
        costs_k = None
    per_method, cv, guessed, again = {}, 0.0, set(), 0.0
    shapes = {}

    def shape(d, view, mg):
        if (d, view, mg) not in shapes:
            shapes[(d, view, mg)] = load(d, view, mg).X.shape
        return shapes[(d, view, mg)]

    n_outer, prep = 0, 0.0
    parallel = max(1, min(int(n_jobs), 2))

    def share(n_methods: int) -> float:
        """The part of a split's preprocessing one cell pays: a worker prepares a split once for the methods of
        that split it runs (:data:`genesel.leaderboard.protocol.PREPARED`; the grids list them together)."""
        return min(int(n_methods), parallel) / max(1, int(n_methods))
    def classes(d, view, mg):
        return len(load(d, view, mg).classes)

    def per_cell(m, n, g, K):
        """(CPU s of one cell of m on an n x g set of K classes, how), K > 2: the multi-class board's committed
        cost on the same data, else its scaled cost for a method with no binary cost, else K times the
        binary-scaled cost (module docstring)."""
        if K > 2 and costs_k is not None and (costs_k[0]["method"] == m).any():
            c, how = cell_cpu_seconds(m, n, g, inner_k, quick, costs_k)
            if how == "committed" or not (costs[0]["method"] == m).any():
                return c, how
        c, how = cell_cpu_seconds(m, n, g, inner_k, quick, costs)
        return c * (MULTICLASS_FACTOR * K if K > 2 else 1.0), how

    for d in datasets:
        n, g = shape(d, None, max_genes)
        kf = classes(d, None, max_genes)
        k = outer_folds(d, n_folds, max_genes)  # fewer for a small class
        n_outer += int(n_repeats) * k
        p = preprocessing_seconds(d, max_genes) * (int(inner_k) + 1) * share(len(methods))  # per cell
        prep += p * int(n_repeats) * k * len(methods)
        for m in methods:
            c, how = per_cell(m, n, g, kf)
            c = c + p
            s = c * int(n_repeats) * k
            guessed |= {m} if how == "no committed cost" else set()
            per_method[m] = per_method.get(m, 0.0) + s
            cv += s
            if m in seed_methods:  # Exercise 3: the same cells once more, with the next seed
                again += s
                prep += p * int(n_repeats) * k
    boot = 0.0
    for d in boot_datasets:
        view = DU2006_VIEWS.get(d)
        n, g = shape(d, view, None if view else max_genes)
        kf = classes(d, view, None if view else max_genes)
        bm = DU2006_METHODS if boot_methods is None else boot_methods
        p = preprocessing_seconds(d, None if view else max_genes) * (int(inner_k) + 1) * share(len(bm))
        for m in bm:
            c, how = per_cell(m, n, g, kf)
            c = c + p
            prep += p * (int(n_boot) + 1)
            s = c * (int(n_boot) + 1)
            per_method[m] = per_method.get(m, 0.0) + s
            boot += s
    total = cv + boot + again
    top = sorted(per_method.items(), key=lambda kv: -kv[1])[:2]
    what = (f"{len(datasets)} data set(s) x {len(methods)} method(s), {n_outer} outer folds in all: "
            f"{format_seconds(cv)} CPU; .632+: " + (f"{format_seconds(boot)} CPU" if boot_datasets else "not run")
            + (f"; Exercise 3 (another seed): {format_seconds(again)} CPU" if len(seed_methods) else "")
            + "; most of it "
            + " and ".join(f"{m} ({100 * s / total:.0f} %)" for m, s in top if total > 0)
            + "; scaled from the committed full run's CPU per fold"
            + (f", {format_seconds(prep)} CPU of it your file's preprocessing (fitted on every training part, "
               "once per worker for the methods it runs)" if prep > 1 else ""))
    if guessed:
        what += (f"; {', '.join(sorted(guessed))}: no committed cost yet, counted as the median method")
    return _OVERHEAD + total / parallel, what


def cost_table(summary: pd.DataFrame) -> pd.DataFrame:
    """CPU seconds per outer fold, per method (rows, most expensive first) and data set."""
    t = summary.pivot(index="method", columns="dataset", values="cpu_per_fold")
    t = t.loc[t.mean(axis=1).sort_values(ascending=False).index]
    return t.round(2).rename(columns=dataset_title)


def cost_sentence(res: pd.DataFrame, wall: float, n_jobs: int = 1, boot: pd.DataFrame | None = None) -> str:
    """The run's cost in words: the cells' own CPU seconds (cross-validation and, given, the .632+ cells), the three
    most expensive methods, and the wall time: this session's, and the cells' own wall seconds over ``n_jobs``
    workers, i.e. the run as if uninterrupted (a resumed run's session serves most cells from the cache)."""
    cols = ["method", "cpu_seconds", "wall_seconds"]
    cells = pd.concat([res[cols], boot[cols]]) if boot is not None and len(boot) else res[cols]
    top = cells.groupby("method")["cpu_seconds"].sum().sort_values(ascending=False)
    share = 100 * top / top.sum()
    three = "; ".join(f"{m} {s:.0f} CPU s ({p:.0f} %)" for (m, s), p in zip(top.head(3).items(), share.head(3)))
    k = max(1, int(n_jobs))
    whole = cells["wall_seconds"].sum() / k
    return (f"{cells['cpu_seconds'].sum():.0f} CPU s over {len(cells)} cells (the cells' own CPU times); the three "
            f"most expensive methods: {three}. As one uninterrupted run on {k} worker(s): about {whole:.0f} s wall "
            f"(the cells' own wall seconds / {k}); this session's wall time: {wall:.0f} s (0 for cached cells).")
