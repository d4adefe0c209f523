"""The leaderboard's tables for notebook 06: the notebook's parameters (data sets, methods), the data sets and the
catalogue as run, the league table of each data set, the warnings the cells raised, the consensus signatures of the
leading methods, and where the run's tables are written (a report module: editing it moves no cell's cache key).

The numbers per method and data set come from :func:`genesel.leaderboard.summary.summarise`; the ranks across data
sets and their uncertainty from :mod:`genesel.leaderboard.ranking`; the figures from
:mod:`genesel.leaderboard.figures`; Díaz-Uriarte & Alvarez de Andrés (2006)'s Table 2 from
:mod:`genesel.leaderboard.du2006`; the cost from :mod:`genesel.leaderboard.cost`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from genesel.datasets import display_name, gene_symbols, load_dataset
from genesel.leaderboard.catalogue import CATALOGUE, SIZES
from genesel.leaderboard.cells import load
from genesel.leaderboard.summary import dataset_title, fmt_error, fmt_number, selects_genes

__all__ = ["dataset_parameter", "method_parameter", "dataset_table", "excluded_table", "catalogue_table",
           "league_table", "WARNING_MEANING", "warning_table", "consensus_signature", "runs_dir", "save_results",
           "save_summary", "committed_table"]


def dataset_parameter(value, default, name="datasets", *, label=None, rows=None, classes=None) -> list:
    """The notebook's data sets: registered binary sets (names or aliases, as the other notebooks take them) and
    users' files (a path or a reference string such as ``"study.csv?label=class"``; the notebook's ``label``,
    ``rows`` and ``classes`` parameters fill in the reading options a reference does not set), in the order given
    (:func:`genesel.papers.presentation.dataset_list`)."""
    from genesel.papers.presentation import dataset_list

    return dataset_list(value, default, name, label=label, rows=rows, classes=classes)


def method_parameter(value) -> list:
    """The notebook's methods (default: the whole catalogue); unknown names refused with the list."""
    from genesel.leaderboard.catalogue import method
    from genesel.papers.presentation import as_list

    names = as_list(value, "methods", example=["SVM (all genes)"]) or list(CATALOGUE)
    return [method(n).name for n in names]


def league_table(summary: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """The league table of one data set: methods by increasing error (ties by size), with every column of the
    summary in readable units (errors and balanced errors in %, sd over the outer folds)."""
    g = summary[summary["dataset"] == dataset].sort_values(["error", "size", "method"], kind="stable")
    out = pd.DataFrame({
        "rank": g["error"].rank(method="min").astype(int).to_numpy(),
        "method": g["method"].to_numpy(),
        "error % (± sd over folds)": [fmt_error(a, b) for a, b in zip(g["error"], g["error_sd_folds"])],
        "balanced error %": [fmt_error(a) for a in g["balanced_error"]],
        "AUC": g["auc"].round(3).to_numpy(),
        "genes (mean ± sd)": [f"{a:.1f} ± {b:.1f}" if np.isfinite(b) else f"{a:.1f}" for a, b in
                              zip(g["size"], g["size_sd"])],
        "stability Φ [95 % CI]": ["–" if not np.isfinite(p) else
                                  f"{fmt_number(p)} [{fmt_number(lo)}, {fmt_number(hi)}]"
                                  for p, lo, hi in zip(g["stability"], g["stability_lo"], g["stability_hi"])],
        "Kuncheva": ["–" if not np.isfinite(k) else fmt_number(k) for k in g["kuncheva"]],
        "risk bound": ["–" if not np.isfinite(b) else f"{b:.2f}" for b in g["bound"]],
        "CPU s / fold": g["cpu_per_fold"].round(2).to_numpy(),
    })
    if (g["one_class_folds"].to_numpy() > 0).any():
        out["folds predicting one class"] = g["one_class_folds"].to_numpy()
    return out.set_index("method")


#: What each warning category raised inside the cells means for the numbers.
WARNING_MEANING = {
    "ConvergenceWarning": "a solver or optimiser stopped at its iteration limit (GP evidence, SMO, SMLR sweeps): that "
                          "fit is unfinished",
    "DegenerateModelWarning": "a fit ended (nearly) useless: one class for every training sample, all weights zero, "
                              "a flat GP",
    "RuntimeWarning": "numpy met an invalid value or an overflow (e.g. at an optimiser's trial point)",
}


def warning_table(res: pd.DataFrame) -> pd.DataFrame:
    """The warnings raised inside the cells, per method and category: in how many outer folds and how often (mean per
    fold), on which data sets, and what the category means. "final fit" is the model refitted on the outer training
    part with its ranker or selector (the internal fits of a selector count: GP-ARD-RFE's GP-ARD fits, SVM-RFE's
    SVMs); "inner CV" is every candidate of every inner fold, where a DegenerateModelWarning at the end of a grid (a
    C so small that the SVM fits one class) is expected and that candidate loses the inner CV. A method absent here
    raised none."""
    rows = []
    every = set(res["dataset"].astype(str)) if len(res) else set()
    for m, g in res.groupby("method", sort=False):
        for where, col in (("final fit", "final_warnings"), ("inner CV", "inner_warnings")):
            if col not in g:
                continue
            counts = [w if isinstance(w, dict) else {} for w in g[col]]
            for cat in sorted(set().union(*counts)):
                n = np.array([w.get(cat, 0) for w in counts])
                where_sets = set(g.loc[n > 0, "dataset"].astype(str))
                rows.append({"method": m, "where": where, "warning": cat,
                             "outer folds": f"{int(np.sum(n > 0))} of {n.size}", "share": float(np.mean(n > 0)),
                             "per fold (mean)": round(float(n.mean()), 1),
                             "data sets": f"all {len(every)}" if where_sets == every and len(every) > 1 else
                             ", ".join(sorted(dataset_title(d) for d in where_sets)),
                             "meaning": WARNING_MEANING.get(cat, "")})
    if not rows:
        return pd.DataFrame(columns=["method", "where", "warning", "outer folds", "per fold (mean)", "data sets",
                                     "meaning"])
    out = pd.DataFrame(rows).sort_values(["where", "share", "method"], ascending=[True, False, True], kind="stable")
    return out.drop(columns="share").set_index(["method", "where", "warning"])


def catalogue_table(methods=None, quick: bool = False) -> pd.DataFrame:
    """The catalogue as run: kind, paper, source, the grid the inner CV searched, bound, notes."""
    rows = []
    for name in methods or list(CATALOGUE):
        m = CATALOGUE[name]
        grid = {**m.ranker_grid, **(m.quick_grid if quick and m.quick_grid else m.grid)}
        if quick and not m.quick_grid:
            grid = {k: (v if len(v) <= 2 else (v[0], v[-1])) for k, v in grid.items()}
        parts = [f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in grid.items() if len(v) > 1]
        if m.kind == "ranked":
            parts.append("genes ∈ {" + ", ".join(map(str, SIZES)) + ", all}")
        if m.kind == "staged":
            parts.append(f"{m.stage_param} ∈ {{{', '.join(map(str, m.stage_list(quick)))}}}")
        rows.append({"method": name, "kind": m.kind, "paper": m.paper, "from": m.source,
                     "chosen by inner CV": "; ".join(parts) or "nothing (no hyper-parameter)",
                     "risk bound": "yes" if m.has_bound else "", "note": m.note})
    return pd.DataFrame(rows).set_index("method")


def _symbols_of(dataset, task) -> np.ndarray:
    """Gene symbols of the task's genes (matched by gene ID in the full data set; '' where none is known)."""
    full = load_dataset(dataset)
    by_id = dict(zip(np.asarray(full.gene_ids).astype(str), gene_symbols(full)))
    return np.asarray([by_id.get(str(g), "") for g in task.gene_ids], dtype=object)


def consensus_signature(res: pd.DataFrame, summary: pd.DataFrame, dataset: str, n_methods: int = 3,
                        top: int = 10) -> pd.DataFrame:
    """For the ``n_methods`` most accurate methods on ``dataset`` that select genes (fewer than all), the ``top``
    genes by selection frequency over the outer folds: probe ID, symbol and frequency."""
    g = summary[(summary["dataset"] == dataset) & (summary["size"] < summary["n_genes"])
                & summary["method"].map(selects_genes)]
    lead = g.sort_values(["error", "size"], kind="stable")["method"].head(n_methods).tolist()
    rows = []
    for m in lead:
        r = res[(res["dataset"] == dataset) & (res["method"] == m)]
        mg = r["max_genes"].iloc[0] if "max_genes" in r else None
        mg = None if mg is None or (isinstance(mg, float) and np.isnan(mg)) else int(mg)
        task = load(dataset, None, mg)
        sym = _symbols_of(dataset, task)
        counts = pd.Series([x for s in r["genes"] for x in s]).value_counts()
        counts = counts.sort_values(ascending=False, kind="stable").head(top)
        for gi, c in counts.items():
            rows.append({"method": m, "probe": str(task.gene_ids[int(gi)]), "symbol": sym[int(gi)] or "–",
                         "selected in": f"{c} of {len(r)} folds", "frequency": round(c / len(r), 2)})
    return pd.DataFrame(rows).set_index(["method", "probe"]) if rows else pd.DataFrame(rows)


def dataset_table(datasets, max_genes=None) -> pd.DataFrame:
    rows = []
    for d in datasets:
        t = load(d, None, max_genes)
        counts = {c: int(np.sum(t.y == (1 if k else -1))) for k, c in enumerate(t.classes)}
        rows.append({"data set": dataset_title(d), "name": display_name(d, fallback="name"), "samples": int(t.y.size),
                     "genes used": int(t.X.shape[1]),
                     "classes (-1 / +1)": " / ".join(f"{c} ({n})" for c, n in counts.items())})
    return pd.DataFrame(rows).set_index("data set")


def excluded_table() -> pd.DataFrame:
    from genesel.leaderboard.cells import excluded_sets

    return pd.DataFrame([{"data set": k, "left out because": v} for k, v in excluded_sets().items()]
                        ).set_index("data set")


def runs_dir(mode: str, parameters: dict) -> Path:
    """Where this run's tidy tables go: ``runs/<mode>/leaderboard/`` for the default parameters (every value None,
    ``rows`` "auto"), else a folder named by a digest of the parameters (``$GENESEL_RUNS_DIR`` replaces ``runs/``)."""
    import hashlib

    env = os.environ.get("GENESEL_RUNS_DIR")
    root = Path(env) if env else Path(__file__).resolve().parents[3] / "runs"
    if not env and not (root.parent / "pyproject.toml").exists():
        root = Path.cwd() / "runs"
    given = {k: v for k, v in parameters.items() if v is not None and not (k == "rows" and v == "auto")}
    tag = "leaderboard" if not given else "leaderboard-" + hashlib.sha256(
        json.dumps(given, sort_keys=True, default=str).encode()).hexdigest()[:10]
    return root / mode / tag


def _write_csv(df: pd.DataFrame, path: Path) -> Path:
    from genesel.experiments import atomic_write

    lists = [c for c in df.columns if df[c].map(lambda v: isinstance(v, (list, dict, tuple))).any()]
    out = df.copy()
    for c in lists:
        out[c] = out[c].map(lambda v: json.dumps(v) if isinstance(v, (list, dict, tuple)) else v)
    return atomic_write(path, lambda tmp: out.to_csv(tmp, index=False))


def save_results(res: pd.DataFrame, folder: Path, name: str = "folds.csv") -> Path:
    """The tidy results (one row per method x data set x outer fold, list columns such as the selected genes
    as JSON), written atomically."""
    return _write_csv(res, Path(folder) / name)


def save_summary(summary: pd.DataFrame, quick: bool) -> Path:
    """The one-row-per-method-and-data-set table beside the figures: ``leaderboard_results.csv`` in ``figures/``
    (full mode) or the quick run's figure folder."""
    from genesel import plotting

    return _write_csv(summary, plotting.figures_dir(quick) / "leaderboard_results.csv")



def committed_table(name: str) -> Path:
    """The committed copy of a full run's table ``figures/<name>.csv`` of the repository this package was imported
    from (``$GENESEL_COMMITTED_DIR`` replaces ``figures/``); a clear error when it is not there (an installed
    package without the repository, or a clone that has not run the notebook)."""
    env = os.environ.get("GENESEL_COMMITTED_DIR")
    folder = Path(env) if env else Path(__file__).resolve().parents[3] / "figures"
    path = folder / f"{name}.csv"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the committed table {name}.csv of notebook 06's full run is not there. Run from a clone of the "
            "genesel repository (its figures/ holds it), or set GENESEL_COMMITTED_DIR to a folder holding it.")
    return path
