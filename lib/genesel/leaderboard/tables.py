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
from genesel.leaderboard.summary import NOT_APPLICABLE, dataset_title, fmt_error, fmt_number, selects_genes

__all__ = ["boot_parameter", "mode_texts", "method_parameter", "dataset_table", "excluded_table",
           "catalogue_table", "league_table", "plan_table", "splits_note", "WARNING_MEANING", "warning_table",
           "consensus_signature", "runs_dir", "save_results", "save_summary", "committed_table", "BOARDS",
           "board_parameter", "board_stem", "left_out_table", "recall_league"]

#: notebook 06's ``board`` parameter: "auto" (from the data), or one of the boards, whose results never mix
BOARDS = ("auto", "binary", "multiclass")


def board_stem(board: str) -> str:
    """The stem of a board's tables and figures: ``leaderboard`` (binary) or ``leaderboard_multiclass``; so the
    multi-class results (``figures/leaderboard_multiclass_results.csv``) never overwrite or mix with the binary ones."""
    if board not in BOARDS[1:]:
        raise ValueError(f"board must be one of {BOARDS[1:]}, got {board!r}")
    return "leaderboard" if board == "binary" else "leaderboard_multiclass"


def _n_classes(d, max_genes=None) -> int:
    """The classes a data set of the run keeps (a K-class set without its classes under 5 samples)."""
    if not _is_file(d):
        from data_fetch import resolve
        from genesel.leaderboard.cells import MIN_CLASS_MULTI

        counts = resolve(d).counts
        return len(counts) if len(counts) <= 2 else sum(k >= MIN_CLASS_MULTI for k in counts.values())
    _refuse_too_few_large_classes(d)
    return len(load(d, None, max_genes).classes)


def _refuse_too_few_large_classes(d) -> None:
    """A user's file whose classes are too small for the leaderboard's nested protocol is refused here, before
    anything is computed, by the file's name (not the reader's reference string), with every class's size and what
    can run instead: two classes need :data:`~genesel.leaderboard.cells.MIN_CLASS` samples each (groups when
    grouped); K >= 3 classes need two of :data:`~genesel.leaderboard.cells.MIN_CLASS_MULTI` or more (smaller ones
    are left out), or two of them can run on the binary board.

    The same rules are enforced again, later, by :func:`genesel.leaderboard.cells.load` and ``outer_folds``, whose
    messages name the reference string; rewriting those messages there, the right place, would re-key every
    leaderboard cell (cells.py is in every cell's code), so until the next version's rerun the user-facing check
    lives here."""
    from genesel.experiments.protocols import class_sizes
    from genesel.leaderboard.cells import MIN_CLASS, MIN_CLASS_MULTI

    ds = load_dataset(d)
    sizes = class_sizes(np.asarray(ds.y), None if ds.groups is None else np.asarray(ds.groups))
    codes = sorted(sizes)
    named = sorted(((str(ds.classes[i]), int(sizes[c])) for i, c in enumerate(codes)), key=lambda t: -t[1])
    unit = "groups" if ds.groups is not None else "samples"
    listed = ", ".join(f"{n!r}: {k}" for n, k in named)
    if len(named) <= 2:
        if min(k for _, k in named) >= MIN_CLASS:
            return
        raise ValueError(f"{display_name(d)}: the leaderboard's nested protocol needs {MIN_CLASS} {unit} or more in "
                         f"every class (each outer training part keeps 2, which 2 inner folds split so that every "
                         f"inner training part holds one); its classes have {listed}: too few to estimate an error by "
                         "nested cross-validation")
    if sum(k >= MIN_CLASS_MULTI for _, k in named) >= 2:
        return
    pair = [n for n, k in named if k >= MIN_CLASS][:2]
    instead = (f"run two of its classes on the binary board, which needs {MIN_CLASS} {unit} per class: "
               f"board='binary' with classes={pair!r}; or merge classes into a label column of your own"
               if len(pair) == 2 else
               f"no two of its classes have the {MIN_CLASS} {unit} the binary board needs either: the nested protocol "
               "cannot be run on this study")
    raise ValueError(f"{display_name(d)}: the multi-class board needs two classes of {MIN_CLASS_MULTI} {unit} or more "
                     f"(5-fold outer CV puts one in every test fold and 4 in every training part; smaller classes are "
                     f"left out); its classes have {listed}. Instead, {instead}")


def _is_file(d) -> bool:
    from genesel.dataref import is_file_reference

    return is_file_reference(d)


def board_parameter(board, datasets, quick: bool, name: str = "datasets", **options) -> tuple[str, list]:
    """(the board, the data sets) of notebook 06. ``board``: "binary" (two-class data sets), "multiclass" (K >= 3
    classes, each class of at least 5 samples; smaller classes left out, :func:`left_out_table`) or "auto": the
    board of the data sets given (binary when none is given). The default data sets are the board's: quick mode
    Colon (binary) or Khan's SRBCT (multi-class), full mode every registered set of the board. Data sets of the two
    kinds in one run are refused (their results would mix), naming which is which; so is a data set on the other
    board. ``name``: the notebook parameter the messages name (``boot_datasets`` for the .632+ comparison's sets)."""
    from genesel.leaderboard.cells import board_sets
    from genesel.papers.presentation import dataset_list

    if board not in BOARDS:
        raise ValueError(f"parameter 'board': one of {list(BOARDS)}, got {board!r}")
    if datasets is None:
        b = "binary" if board == "auto" else board
        default = (["alon"] if b == "binary" else ["khan"]) if quick else board_sets(b)
        return b, dataset_list(None, default, binary=False, **options)
    try:
        names = dataset_list(datasets, [], name, binary=False, **options)
    except ValueError as exc:
        # a file of K >= 3 classes read without ``classes``: its reader asks which; the multi-class board (and
        # "auto") takes every class (the binary board keeps the reader's question, which says how to choose two)
        if board == "binary" or options.get("classes") is not None or "classes='all'" not in str(exc):
            raise
        names = dataset_list(datasets, [], name, binary=False, **{**options, "classes": "all"})
    kinds = {d: ("binary" if _n_classes(d) == 2 else "multiclass") for d in names}
    found = set(kinds.values())
    if board == "auto":
        if len(found) > 1:
            raise ValueError(f"parameter {name!r} mixes two-class and K-class data (" + "; ".join(
                f"{display_name(d)}: {k}" for d, k in kinds.items()) + "): their results are ranked apart; run them "
                "separately, with board='binary' and board='multiclass'")
        return found.pop(), names
    wrong = [d for d, k in kinds.items() if k != board]
    if wrong:
        hint = ("choose two classes with the classes parameter, or run board='multiclass'" if board == "binary"
                else "run it with board='binary'")
        raise ValueError(f"parameter {name!r}: {', '.join(display_name(d) for d in wrong)} "
                         f"{'is' if len(wrong) == 1 else 'are'} not for the {board} board ({hint})")
    return board, names


def left_out_table(datasets, max_genes=None) -> pd.DataFrame:
    """The classes of the run's K-class data sets left out (fewer than 5 samples), and why; empty when none is."""
    from genesel.leaderboard.cells import left_out_classes

    rows = left_out_classes(datasets, max_genes)
    cols = ["data set", "class", "samples", "left out because"]
    out = pd.DataFrame([{"data set": dataset_title(r["dataset"]), "class": r["class"], "samples": r["size"],
                         "left out because": r["reason"]} for r in rows], columns=cols)
    return out.set_index(["data set", "class"])


def boot_parameter(value, datasets, methods, board: str = "binary", **options) -> tuple[list, list]:
    """(the data sets, the methods) of the .632+ bootstrap comparison with Díaz-Uriarte & Alvarez de Andrés 2006:
    by default the data sets of this run that their Table 2 has (Colon, Leukemia, Prostate; SRBCT on the multi-class
    board: a user's file has no published reference), or those ``value`` names (a user's file included, when asked;
    ``[]``: none), each of them a set of this run's ``board`` (:func:`board_parameter`'s rule: a set of the other
    board is refused by name); the methods are those of their table that this run keeps (none left: no
    comparison)."""
    from genesel.leaderboard.cells import DU2006_METHODS, DU2006_VIEWS
    from genesel.papers.presentation import as_list

    boot_methods = [m for m in DU2006_METHODS if m in methods]
    if value is None:
        boot = [d for d in datasets if d in DU2006_VIEWS]
    elif not (as_list(value, "boot_datasets", example=["alon"]) if isinstance(value, (list, tuple)) or
              str(value).strip().startswith("[") else [value]):
        boot = []
    else:
        boot = board_parameter(board, value, False, "boot_datasets", **options)[1]
    return (boot, boot_methods) if boot_methods else ([], [])


def mode_texts(datasets, methods, boot_datasets, *, max_genes, n_repeats, n_folds, inner_k, n_boot) -> tuple:
    """(what quick mode leaves out, what the full protocol runs) for the notebook's banner, naming only what this run
    runs: its data sets and methods, the .632+ comparison only where it runs."""
    from genesel.papers.presentation import dataset_names

    boot = (f", {n_boot} bootstrap samples on {dataset_names(boot_datasets)}" if boot_datasets else
            ", no .632+ comparison (no data set of Díaz-Uriarte 2006's Table 2 in this run)")
    genes = f"the {max_genes} most variable genes" if max_genes else "all genes"
    quick = (f"{dataset_names(datasets)} only, {genes}, {n_repeats} x {n_folds}-fold CV with {inner_k} inner folds, "
             f"two values of most grids{boot}")
    full = (f"{dataset_names(datasets)} x {len(methods)} method(s) x 10 x 5-fold CV with 5 inner folds, all genes"
            + (f", 200 bootstrap samples on {dataset_names(boot_datasets)}" if boot_datasets else ""))
    return quick, full


def method_parameter(value, board: str = "binary") -> list:
    """The notebook's methods (default: the catalogue's methods of ``board``); unknown names refused with the list."""
    from genesel.leaderboard.catalogue import method, method_names
    from genesel.papers.presentation import as_list

    names = as_list(value, "methods", example=["SVM (all genes)"]) or method_names(board)
    return [method(n).name for n in names]


def league_table(summary: pd.DataFrame, dataset: str, not_applicable: pd.DataFrame | None = None) -> pd.DataFrame:
    """The league table of one data set: methods by increasing error (ties by size), with every column of the
    summary in readable units (errors and balanced errors in %, sd over the outer folds); below them the methods
    that could not run at the data set's size (``not_applicable``, :func:`genesel.leaderboard.summary.applicable`),
    each with its reason."""
    out = _league_rows(summary, dataset)
    na = not_applicable[not_applicable["dataset"] == dataset] if not_applicable is not None and len(
        not_applicable) else None
    if na is None or not len(na):
        return out
    extra = pd.DataFrame({c: ["–"] * len(na) for c in out.columns}, index=pd.Index(na["method"], name="method"))
    extra["rank"] = "–"
    extra["error % (± sd over folds)"] = na["reason"].to_numpy()
    return pd.concat([out.astype(object), extra])


def _league_rows(summary: pd.DataFrame, dataset: str) -> pd.DataFrame:
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
    if "worst_class_recall" in g and g["worst_class_recall"].notna().any():  # K >= 3 classes
        out.insert(4, "worst class recall %", [fmt_error(r) for r in g["worst_class_recall"]])
        out.insert(3, "classes", g["n_classes"].astype(int).to_numpy())
    return out.set_index("method")


def recall_league(summary: pd.DataFrame, dataset) -> pd.DataFrame:
    """Per-class recall (%) of every method on a K-class data set, methods by increasing balanced error: which class
    each method gives up (:func:`genesel.leaderboard.summary.recall_table`)."""
    from genesel.leaderboard.summary import recall_table

    return (100 * recall_table(summary, dataset)).round(1)


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
    """The data as run: samples, genes used, classes, and the preprocessing fitted inside every training part (the
    decision for the data set, :func:`genesel.datasets.preprocessing_note`)."""
    from genesel.dataref import is_file_reference
    from genesel.datasets import preprocessing_note
    from genesel.foreign_formats import identical_samples, sequencing_quantities_note

    rows = []
    for d in datasets:
        t = load(d, None, max_genes)
        codes = (-1, 1) if len(t.classes) == 2 else range(len(t.classes))
        counts = {c: int(np.sum(t.y == k)) for k, c in zip(codes, t.classes)}
        note = t.note or preprocessing_note(d)
        if is_file_reference(d):
            seq = sequencing_quantities_note(load_dataset(d))
            note += f" {seq}" if seq else ""
        copies = [] if is_file_reference(d) else identical_samples(load_dataset(d))  # a file's: refused, or grouped
        if copies:  # Su's s36 and s51: kept as published, and said
            note += (" Samples " + "; ".join(" and ".join(ids) for ids in copies) + " hold the same value for every "
                     "gene (one array twice in the published file); kept as published, so a copy can fall on both "
                     "sides of a split and make that sample easy to classify.")
        for said in {dataset_title(d), display_name(d, fallback="name"), str(getattr(t, "name", ""))} - {""}:
            note = note.removeprefix(f"{said}: ")  # the row already names the data set
        rows.append({"data set": dataset_title(d), "name": display_name(d, fallback="name"), "samples": int(t.y.size),
                     "genes used": int(t.X.shape[1]),
                     ("classes (-1 / +1)" if len(t.classes) == 2 else "classes"):
                         " / ".join(f"{c} ({n})" for c, n in counts.items()),
                     "preprocessing (fitted inside each training part)": note})
    return pd.DataFrame(rows).set_index("data set")


def excluded_table(board: str = "binary") -> pd.DataFrame:
    from genesel.leaderboard.cells import excluded_sets

    return pd.DataFrame([{"data set": k, "left out because": v} for k, v in excluded_sets(board).items()]
                        ).set_index("data set")


def runs_dir(mode: str, parameters: dict) -> Path:
    """Where this run's tidy tables go: ``runs/<mode>/leaderboard/`` for the default parameters (every value None,
    ``rows`` "auto"), else a folder named by a digest of the parameters (``$GENESEL_RUNS_DIR`` replaces ``runs/``)."""
    import hashlib

    env = os.environ.get("GENESEL_RUNS_DIR")
    root = Path(env) if env else Path(__file__).resolve().parents[3] / "runs"
    if not env and not (root.parent / "pyproject.toml").exists():
        root = Path.cwd() / "runs"
    given = {k: v for k, v in parameters.items()
             if v is not None and not (k in ("rows", "scale") and v == "auto")}
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


def save_summary(summary: pd.DataFrame, quick: bool, board: str = "binary") -> Path:
    """The one-row-per-method-and-data-set table beside the figures: ``leaderboard_results.csv`` in ``figures/``
    (full mode) or the quick run's figure folder; the multi-class board's ``leaderboard_multiclass_results.csv``."""
    from genesel import plotting

    return _write_csv(summary, plotting.figures_dir(quick) / f"{board_stem(board)}_results.csv")



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


def _groups_option(dataset) -> str | None:
    from genesel.dataref import is_file_reference, parse_string

    if not is_file_reference(dataset):
        return None
    return parse_string(str(dataset))[1].get("groups")


def splits_note(dataset, max_genes=None) -> str:
    """How the splits of ``dataset`` treat its samples (under its league table): grouped (by what, how many groups,
    no group on both sides of any split) or sample by sample."""
    t = load(dataset, None, max_genes)
    if t.groups is None:
        return "Splits sample by sample (stratified): the samples are not grouped."
    by = _groups_option(dataset)
    by = f"'{by}'" if by and not os.path.isfile(str(by)) else "the groups sheet"
    return (f"Splits grouped by {by} ({len(set(t.groups.tolist()))} groups): every outer and inner split keeps a "
            "group's samples on one side (stratified group K-fold); no group is on both sides of any split. "
            "The selectors that resample inside a training part draw whole groups too: the SVMs of each step of "
            "MSVM-RFE and the inner folds of GP-ARD-FS and GP-ARD-RFE leave groups out, their forward selections "
            "leave one group out, and the forests of RF var. sel. draw groups and score them out of bag, so no "
            "sample is scored by a model trained on its partner.")


def plan_table(datasets, methods, *, n_folds: int, inner_k: int, n_repeats: int, seed: int, max_genes=None,
               quick: bool = True) -> pd.DataFrame:
    """What the run will do on each data set, before it runs (the adaptation rule of
    :mod:`genesel.leaderboard.protocol`): its class sizes (and groups), the outer folds (``n_folds``, or the smallest
    class when that is smaller), the inner folds of the outer training parts, the smallest class of an inner training
    part, and what adapts to it: neighbour counts dropped from k-NN grids, selectors' internal folds lowered, methods
    whose internal folds cannot be made (not applicable at this size). Methods refused by an estimator on a training
    part this small are only known when they run; the league table names them."""
    from genesel.experiments import nested_cv
    from genesel.experiments.protocols import class_sizes, smallest_class
    from genesel.leaderboard.cells import outer_folds
    from genesel.leaderboard.catalogue import method
    from genesel.leaderboard.protocol import SMALL_PART, Adaptation

    rows = []
    for d in datasets:
        t = load(d, None, max_genes)
        k_out = outer_folds(d, n_folds, max_genes)
        inner_counts, inner_small, outer_small, inner_small_g, outer_small_g = set(), [], [], [], []
        for r in range(int(n_repeats)):
            for tr, _, inner in nested_cv(t.y, k_out, inner_k, seed, repeat=r, groups=t.groups):
                inner_counts.add(len(inner))
                outer_small.append(smallest_class(t.y[tr]))
                inner_small += [smallest_class(t.y[a]) for a, _ in inner]
                if t.groups is not None:  # the selectors' internal folds count groups (protocol.Adaptation)
                    outer_small_g.append(smallest_class(t.y[tr], t.groups[tr]))
                    inner_small_g += [smallest_class(t.y[a], t.groups[a]) for a, _ in inner]
        m_in, m_out = min(inner_small), min(outer_small)
        g_in, g_out = (min(inner_small_g), min(outer_small_g)) if t.groups is not None else (m_in, m_out)
        fold_unit = "samples" if t.groups is None else "groups"
        sizes = class_sizes(t.y)
        codes = dict(zip((-1, 1), t.classes)) if len(t.classes) == 2 else dict(enumerate(t.classes))
        cls = " / ".join(f"{codes[c]} {n}" for c, n in sizes.items())
        if t.groups is not None:
            gs = class_sizes(t.y, t.groups)
            cls += "; in groups: " + " / ".join(f"{codes[c]} {n}" for c, n in gs.items())
        notes = []
        for name in methods:
            m = method(name)
            a = Adaptation(m_in, name)
            try:
                rs = a.settings(m, "ranker", quick) if m.kind == "ranked" else [{}]
                cs = a.settings(m, "estimator", quick)
            except Exception as exc:  # noqa: BLE001 - the same refusal the cells will give
                notes.append(f"{name}: {NOT_APPLICABLE} ({exc})")
                continue
            single = m.kind == "model" and len(cs) == 1
            part = g_out if single else g_in
            base = {**(rs[0] if rs else {}), **(cs[0] if cs else {})}
            if m.stage_param:
                base[m.stage_param] = m.stages[-1]
            objs = [m.estimator(base, 2, 0)] + ([m.ranker(base, 2, 0)] if m.kind == "ranked" else [])
            for o in objs:
                for pname, v in o.get_params(deep=True).items():
                    if pname.rsplit("__", 1)[-1] == "n_folds" and isinstance(v, (int, np.integer)) and v > part:
                        notes.append(f"{name}: internal folds {v} → {part}" if part >= 2 else
                                     f"{name}: {NOT_APPLICABLE} (internal folds need 2 {fold_unit} of each class; "
                                     f"the smallest class of a training part it is fitted on has {part})")
            for _k, dropped in a.changes.items():
                vals = ", ".join(dropped)
                notes.append(f"{name}: grid values dropped ({vals}: more neighbours than the smallest class, {m_in})")
        if m_in < SMALL_PART:
            notes.append(f"training parts with a class of {m_in} sample(s): methods that need more (a per-class spread,"
                         " a leave-one-out) show 'not applicable at this size'")
        requested_in = f" ({inner_k} requested)" if max(inner_counts) < inner_k else ""
        rows.append({
            "data set": dataset_title(d), "samples": int(t.y.size), "classes": cls,
            "grouped": "no" if t.groups is None else f"yes, {len(set(t.groups.tolist()))} groups",
            "outer folds": f"{k_out}" + (f" ({n_folds} requested; smallest class "
                                         f"{min(class_sizes(t.y, t.groups).values())})"
                                        if k_out < n_folds else "") + f" x {int(n_repeats)} repeat(s)",
            "inner folds": ("–".join(str(v) for v in sorted({min(inner_counts), max(inner_counts)}))) + requested_in,
            "smallest class: outer / inner training part": f"{m_out} / {m_in}",
            "what adapted": "; ".join(dict.fromkeys(notes)) or "nothing",
        })
    return pd.DataFrame(rows).set_index("data set")
