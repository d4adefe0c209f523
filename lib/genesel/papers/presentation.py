"""What every paper notebook shares at its top and in its tables: parameter checking, the one-line mode banner,
display set-up, tidy tables. Presentation only: no grid cell imports this module (it reaches :mod:`genesel.plotting`),
so editing it changes no cell's cache key; what the cells share is in :mod:`genesel.papers.common`.

Notebooks are run three ways: in JupyterLab, headless by papermill (whose ``-p`` passes every list as a string,
e.g. ``-p datasets '["singh"]'``, while ``-y 'datasets: [singh]'`` passes a real list), and by teachers who project
them. The helpers here make every parameter accept what papermill passes and refuse anything else with a message
that shows the right syntax, and make quick mode say what it leaves out.
"""

from __future__ import annotations

import json
import numbers
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["as_list", "dataset_list", "dataset_names", "mode_banner", "time_budget", "format_seconds",
           "setup_notebook", "tidy", "record", "SYNTAX", "LONG_RUN_FACTOR", "parameter_spec", "check_value",
           "check_values", "check_parameter_values", "file_notes", "short_training_part"]

SYNTAX = ("papermill -p {name} '{example}'  or  papermill -y '{name}: {yaml}'  (a list, e.g. {example})")


def _syntax(name, example):
    yaml = "[" + ", ".join(str(x) for x in example) + "]"
    return SYNTAX.format(name=name, example=json.dumps(list(example)), yaml=yaml)


def as_list(value, name: str, *, example=("golub",), kind=str, allow_none: bool = True):
    """A list parameter from what a notebook user or papermill passes: a list or tuple, a JSON or YAML list in a
    string (``'["singh", "golub"]'``, ``'[singh, golub]'``), a comma-separated string or a single value.
    ``None`` stays None when ``allow_none``. Items are converted with ``kind``; anything else is refused with the
    papermill syntax."""
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"parameter {name!r} is required; pass a list: {_syntax(name, example)}")
    items = value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                import yaml

                items = yaml.safe_load(text)
            except Exception as exc:  # noqa: BLE001 - any parse error gets the same helpful message
                raise ValueError(f"parameter {name!r}: cannot read {value!r} as a list ({exc}); "
                                 f"use {_syntax(name, example)}") from None
        else:
            items = [t.strip() for t in text.split(",") if t.strip()]
    elif isinstance(value, (numbers.Number, np.generic)):
        items = [value]
    if not isinstance(items, (list, tuple)):
        raise ValueError(f"parameter {name!r} must be a list, got {type(value).__name__} {value!r}; "
                         f"use {_syntax(name, example)}")
    try:
        return [kind(v) for v in items]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"parameter {name!r}: {exc}; use {_syntax(name, example)}") from None


def _file_reference(item, name: str, label, rows, classes, groups=None, scale=None) -> str:
    """The reference string of a user's file (:meth:`genesel.dataref.DataRef.to_string`): its own reading options
    first, then the notebook's ``label`` / ``rows`` / ``classes`` / ``groups`` / ``scale`` parameters for the
    options it does not set."""
    from genesel.dataref import DataRef, parse_string

    path, opts = parse_string(os.fspath(item)) if isinstance(item, (str, os.PathLike)) else (None, {})
    if path is not None and not Path(path).expanduser().is_file():
        raise ValueError(f"parameter {name!r}: no such file {path!r} (nor a registered data set name); give the path "
                         "of an expression file (CSV/TSV, GEO SOFT or Series Matrix, .h5ad)")
    given = {"label": label, "rows": rows if rows not in (None, "auto") else None, "groups": groups,
             "scale": scale if scale not in (None, "auto") else None,
             "classes": "all" if classes == "all" else as_list(classes, "classes", example=["normal", "tumour"])}
    if given["classes"] not in (None, "all") and len(given["classes"]) < 2:
        raise ValueError(f"parameter 'classes' must name at least two classes, got {given['classes']}; "
                         f"use {_syntax('classes', ['normal', 'tumour'])}")
    try:
        ref = DataRef.of(item)
        return ref.with_options(**{k: v for k, v in given.items() if v is not None and k not in ref.options()}) \
            .to_string()
    except (ValueError, TypeError) as exc:
        raise ValueError(f"parameter {name!r}: {exc}") from None


def _check_file_task(ref: str, name: str, binary: bool) -> None:
    """Read the file once (the message of a bad file names it and the fault) and refuse a multi-class file where
    the notebook's methods are binary, naming its classes and the ``classes`` parameter. Also refused, by name, what
    the readers take without a word (:mod:`genesel.foreign_formats`): a class that is a tool's spelling of a missing
    label (``NA``) or one class spelled two ways (``Tumor``, ``tumor``), unless ``classes`` lists them; gene symbols
    Excel made dates; a sample's covariate among the genes; missing values. A reader's refusal gets the file's format
    and its conversion, or the sheet's IDs paired with the data's, where they can be told."""
    from genesel.dataref import parse_string
    from genesel.datasets import display_name, load_dataset
    from genesel.foreign_formats import (EXCEL_DATES_NOTE, case_variant_classes, covariate_genes, excel_mangled_genes,
                                         foreign_format_hint, identical_samples, missing_label_classes,
                                         mostly_missing_note, sample_sheet_hint)

    path, options = parse_string(ref)
    try:
        ds = load_dataset(ref)
    except ValueError as exc:  # a file of another tool: say what it is and how to convert it
        hint = foreign_format_hint(path, str(exc), options.get("label"), options.get("groups"))
        if hint is not None:
            raise ValueError(f"parameter {name!r}: {path} is {hint}. (The reader said: {exc})") from None
        hint = sample_sheet_hint(path, str(exc))  # a sample sheet's IDs written another way than the data's
        if hint is not None:
            raise ValueError(f"{exc}. Here {hint}") from None
        found = re.findall(r"'([^']*)' \((\d+)\)", str(exc)) if "the labels name" in str(exc) else []
        sizes = {c: int(k) for c, k in found}  # the classes the reader listed, with their sizes
        listed = list(sizes)
        na = missing_label_classes(listed)
        notes = [_missing_label_note(na)] if na else []
        notes += [_case_variant_note(g) for g in case_variant_classes(listed)]
        if notes:  # "the labels name 3 classes: 'NA' (1), 'Tumor' (5), 'tumor' (1)": say what they are
            raise ValueError(f"{exc} ({'; '.join(notes)})") from None
        if binary and listed and "classes=" in str(exc):  # K classes in a binary notebook: its own ways out, briefly
            import shlex

            pair = sorted(sizes, key=lambda c: -sizes[c])[:2]
            counts = ", ".join(f"{c} ({k})" for c, k in sizes.items())
            raise ValueError(f"parameter {name!r}: {display_name(ref)} has {len(sizes)} classes: {counts}. "
                             f"{_binary_reason(binary)}: choose two with the classes parameter, e.g. -p classes "
                             f"{shlex.quote(json.dumps(pair, ensure_ascii=False))} (the other samples are left out); "
                             f"the leaderboard's multi-class board takes all {len(sizes)} (notebook 06 with -p board "
                             "multiclass)") from None
        raise
    chosen = options.get("classes") if isinstance(options.get("classes"), (list, tuple)) else ()
    twice = [g for g in case_variant_classes(ds.classes) if not set(g) <= set(chosen)]
    if twice:
        counts = ", ".join(f"{c!r} ({ds.class_counts[c]})" for g in twice for c in g)
        raise ValueError(f"parameter {name!r}: {display_name(ref)} labels samples {counts}: "
                         f"{'; '.join(_case_variant_note(g) for g in twice)}. Correct the labels in the file (or the "
                         "sample sheet), or, if they really are different classes, list them in classes")
    na = [c for c in missing_label_classes(ds.classes) if c not in chosen]
    if na:
        others = [c for c in ds.classes if c not in na]
        counts = ", ".join(f"{c!r} ({ds.class_counts[c]})" for c in na)
        raise ValueError(f"parameter {name!r}: {display_name(ref)} labels samples {counts}: "
                         f"{_missing_label_note(na)}. Leave those samples out by choosing the other classes, "
                         f"-p classes '{json.dumps(others, ensure_ascii=False)}', or, if {na[0]!r} really names a "
                         "class, list it in classes too")
    mangled = excel_mangled_genes(ds.gene_ids)
    if mangled:
        shown = ", ".join(repr(g) for g in mangled[:5]) + (", ..." if len(mangled) > 5 else "")
        raise ValueError(f"parameter {name!r}: {display_name(ref)} holds {len(mangled)} gene ID(s) such as {shown}, "
                         f"the way {EXCEL_DATES_NOTE}")
    covariates = covariate_genes(ds.gene_ids)
    if covariates:
        shown = ", ".join(repr(c) for c in covariates[:5]) + (", ..." if len(covariates) > 5 else "")
        raise ValueError(f"parameter {name!r}: {display_name(ref)} holds {shown} among its genes: "
                         + ("that is the name of a sample's covariate, not of a gene, and the reader took its "
                            "numbers for expression values (a selector could pick it)" if len(covariates) == 1 else
                            "those are the names of samples' covariates, not of genes, and the reader took their "
                            "numbers for expression values (a selector could pick them)")
                         + ". Keep covariates out of the expression table (in the sample sheet, passed as label=), "
                         "or rename the gene if it really is one")
    if binary and len(ds.classes) != 2:
        import shlex

        counts = ", ".join(f"{c} ({n})" for c, n in ds.class_counts.items())
        pair = shlex.quote(json.dumps(list(ds.classes[:2]), ensure_ascii=False))
        raise ValueError(f"parameter {name!r}: {display_name(ref)} has {len(ds.classes)} classes: {counts}. "
                         f"{_binary_reason(binary)}: choose two with the classes parameter, e.g. "
                         f"-p classes {pair} (the other samples are left out)")
    where = {str(s): i for i, s in enumerate(ds.sample_ids)}
    copies = [ids for ids in identical_samples(ds)  # grouped copies labelled alike are two measurements of one
              if ds.groups is None or len({ds.groups[where[i]] for i in ids}) > 1
              or len({ds.y[where[i]] for i in ids}) > 1]
    if copies:
        shown = "; ".join(" and ".join(repr(i) for i in ids) for ids in copies[:3]) + ("; ..." if len(copies) > 3
                                                                                     else "")
        raise ValueError(f"parameter {name!r}: {display_name(ref)}: samples {shown} hold the same value for every "
                         f"one of its {ds.n_genes} genes: one array entered twice? A copy on both sides of a split "
                         "makes the error look better than it is. Remove the copy; or, if they really are two "
                         "measurements, name them as one group (groups=) so that every split keeps them together")
    if binary and ds.groups is not None:
        alone = _classes_in_one_group(ds)
        if alone:
            shown = "; ".join(f"every sample of {c!r} ({ds.class_counts[c]}) is in group {g!r}" for c, g in alone)
            raise ValueError(f"parameter {name!r}: {display_name(ref)}: {shown}. A split that keeps each group "
                             "together (as the groups parameter asks) cannot then put that class on both sides, in "
                             "training and in test, so no protocol can estimate an error: each class needs samples "
                             f"of at least two groups ({len(set(ds.groups.tolist()))} groups in all). If the groups "
                             "are not patients or pairs whose samples must stay together, leave out groups")
    n_missing = int(np.isnan(ds.X).sum())
    if n_missing:  # a file's missing values are kept (issue 22); the papers' protocols impute nothing in their folds
        mostly = mostly_missing_note(ds)
        raise ValueError(f"parameter {name!r}: {display_name(ref)} has {n_missing} missing value(s)"
                         + (f"; {mostly}" if mostly else "") + ". The papers' "
                         "protocols impute nothing inside their folds: fill them once over the whole file (label-free "
                         "gene-wise KNNimpute, as the registered lymphoma set) by adding impute=knn to its reference, "
                         f"e.g. '{ref}{'&' if '?' in ref else '?'}impute=knn', or run notebook 06 (the leaderboard "
                         "imputes inside every training part)")


def _binary_reason(binary) -> str:
    """Why a notebook takes two classes only: its own words (``binary`` a sentence), or that its methods are."""
    return binary if isinstance(binary, str) else "This notebook's methods are binary"


def _classes_in_one_group(ds) -> list:
    """(class, group) for each class of ``ds`` whose samples all belong to one group (codes as
    :attr:`genesel.dataset.Dataset.class_counts` reads them: -1/+1 for two classes, else 0..K-1)."""
    binary = len(ds.classes) == 2 and set(np.unique(ds.y)) <= {-1, 1}
    out = []
    for k, c in enumerate(ds.classes):
        groups = set(ds.groups[ds.y == ((-1, 1)[k] if binary else k)].tolist())
        if len(groups) == 1:
            out.append((c, next(iter(groups))))
    return out


def _case_variant_note(group) -> str:
    return (f"{' and '.join(repr(c) for c in group)} differ only in letter case or spaces (one class spelled two "
            "ways?), which the readers take for two classes")


def _missing_label_note(na) -> str:
    one = len(na) == 1
    return (f"{', '.join(repr(c) for c in na)} {'is' if one else 'are'} how R (write.csv) or pandas (astype(str)) "
            "writes a missing label; genesel's readers take a label for missing only when its cell is empty, so "
            f"{'it' if one else 'each'} became a class")


def dataset_list(value, default, name: str = "datasets", *, binary: bool | str = True, label=None, rows=None,
                 classes=None, groups=None, scale=None):
    """Data sets for a notebook: registered names (aliases resolved to the registry's names) or files of one's own,
    duplicates dropped, order kept.

    A file is given by its path, a :class:`genesel.dataref.DataRef`, or a reference string naming its reading
    options (``"study.csv?label=class&classes=ER+,ER-"``, the quoting rule of :mod:`genesel.dataref`); the
    notebook's ``label``, ``rows``, ``classes`` (a list), ``groups`` and ``scale`` parameters fill in the options a
    reference does not set. A file comes back as its reference string (:meth:`~genesel.dataref.DataRef.to_string`),
    which every paper module, grid cell and :func:`genesel.datasets.load_dataset` accepts wherever a registered name
    is accepted.

    Refuses unknown names (listing the registered ones), missing files, unreadable files (the reader's message names
    the line or sample at fault) and, when ``binary``, multi-class sets and files, which the paper methods cannot
    use (for a file: naming its classes and how to choose two); ``binary`` may be the sentence saying why the
    notebook takes two classes. Notebook 00, which has no methods, takes every class (``binary=False``,
    ``classes="all"`` unless its ``classes`` parameter chooses)."""
    from data_fetch import resolve
    from genesel.dataref import DataRef, is_file_reference

    example = list(default)[:1] or ["golub"]
    if isinstance(value, DataRef) or (isinstance(value, (str, os.PathLike)) and not str(value).strip().startswith("[")
                                      and is_file_reference(value)):
        names = [value]  # one file: its reference may hold commas (classes=a,b)
    else:
        names = as_list(value, name, example=example, kind=lambda v: v if isinstance(v, DataRef) else str(v))
    if names is None:
        names = list(default)
    out = []
    for n in names:
        if is_file_reference(n):
            key = _file_reference(n, name, label, rows, classes, groups, scale)
            _check_file_task(key, name, binary)
        else:
            try:
                spec = resolve(str(n))
            except ValueError as exc:
                raise ValueError(f"parameter {name!r}: {exc} (or give the path of a file of your own)") from None
            if binary and spec.classes is None:
                raise ValueError(f"parameter {name!r}: {spec.name!r} has more than two classes, and only two-class "
                                 "data sets run here (e.g. golub, alon, singh); the leaderboard's multi-class board "
                                 "takes it (notebook 06 with -p board multiclass)")
            key = spec.name
        if key not in out:
            out.append(key)
    if not out:
        raise ValueError(f"parameter {name!r} is empty; {_syntax(name, example)}")
    return out


def mode_banner(quick: bool, leaves_out: str, full_takes: str = ""):
    """The one line every notebook shows at its top: which mode ran and what that mode leaves out (Markdown)."""
    from IPython.display import Markdown

    if quick:
        text = (f"**Quick mode** (a first look, minutes): {leaves_out}. Numbers below are from this quick run; "
                "the paper's protocol runs with `quick=False` (`make full`)" + (f", {full_takes}" if full_takes else "")
                + ".")
    else:
        text = "**Full mode**: the paper's protocol" + (f" ({full_takes})" if full_takes else "") + "."
    return Markdown(text)


def dataset_names(datasets, spelling=None) -> str:
    """The data sets of a run in prose: registered names as the registry spells them ("golub, alon"), a user's file
    by its file name (or the name its reference gives), never a path or reading options."""
    from genesel.datasets import display_name

    return ", ".join(display_name(d, spelling, fallback="name") for d in datasets)


def format_seconds(seconds: float) -> str:
    """A duration as a reader wants it: "40 s", "3 min", "2.5 h"."""
    s = float(seconds)
    if s < 90:
        return f"{max(1, round(s))} s"
    if s < 5400:
        return f"{round(s / 60)} min"
    return f"{s / 3600:.1f} h"


#: A run estimated at more than this many times its mode's time budget gets a warning with the estimate.
LONG_RUN_FACTOR = 2.0


#: CPU seconds a notebook spends compiling genesel's numba kernels when none of them is cached yet (the first run
#: after installing or upgrading; numba keeps them afterwards, see :mod:`genesel._core.jit_cache`): measured by
#: ``benchmarks/own_studies.py``, notebook 06 in quick mode on a 17-sample study cost 107 CPU s in its cells with an
#: empty kernel cache against 10 CPU s with a warm one (2 workers, each compiling the kernels it uses).
COMPILE_SECONDS = 100.0
#: The share of genesel's kernels a whole quick run compiles (78 of 88 after notebook 06's quick run: the rest serve
#: estimators no notebook cell uses); a cache holding this share is warm.
_WARM_SHARE = 0.85


def uncompiled_share() -> float:
    """The share (0 to 1) of genesel's numba kernels not yet in numba's cache for this version of the code: the
    kernels are those the source declares with ``cache=True`` (the package's top-level modules and ``_core``), the
    cached ones the index files (``.nbi``) in numba's cache folders of this version of the code: genesel keeps one
    folder per module and version under ``numba.core.config.CACHE_DIR`` (``<module>-<digest>``) and touches each
    module's current folder when it imports the module, so the newest folder of each module is this version's (see
    the architecture page). 0 when it cannot be read."""
    from numba.core import config

    import genesel

    root = Path(genesel.__file__).resolve().parent
    declared = 0
    for f in list(root.glob("*.py")) + list((root / "_core").glob("*.py")):
        declared += len(re.findall(r"@njit\((?:[^()]|\([^()]*\))*cache=True", f.read_text(encoding="utf-8")))
    folder = getattr(config, "CACHE_DIR", "")
    if not declared or not folder:
        return 0.0
    try:
        newest = {}
        for sub in Path(folder).iterdir():
            module = sub.name.rpartition("-")[0]
            if sub.is_dir() and module.startswith("genesel"):
                if module not in newest or sub.stat().st_mtime > newest[module].stat().st_mtime:
                    newest[module] = sub
        cached = sum(1 for sub in newest.values() for _ in sub.rglob("*.nbi"))
    except OSError:
        return 0.0
    return float(min(1.0, max(0.0, 1.0 - cached / (_WARM_SHARE * declared))))


def time_budget(estimate: float, quick: bool, *, quick_budget: float, full_budget: float, what: str = "",
                compile_share: float | None = None):
    """The time line under a notebook's banner (Markdown): the mode's time budget on 2 cores, this run's cost
    estimated from its parameters before anything runs (``estimate``, seconds; ``what``: what dominates it), and a
    warning when a parameter choice takes more than :data:`LONG_RUN_FACTOR` times the budget.

    On the first run of this version of genesel (``compile_share``, default :func:`uncompiled_share`, above 10 %) numba
    still has to compile the kernels: :data:`COMPILE_SECONDS` times that share of CPU, spread over 2 workers, is added
    to the estimate and said in a sentence of its own (on a quick run it is most of the time)."""
    from IPython.display import Markdown

    share = uncompiled_share() if compile_share is None else float(compile_share)
    compiling = COMPILE_SECONDS * share if share > 0.1 else 0.0
    if compiling and np.isfinite(estimate):
        estimate = estimate + compiling / 2
        what = (what + "; " if what else "") + (f"and about {format_seconds(compiling)} CPU to compile genesel's "
                                                "numba kernels, once: the first run of this version of genesel")

    budget = quick_budget if quick else full_budget
    mode = "quick" if quick else "full"
    if not np.isfinite(estimate):
        return Markdown(f"**Time budget** of {mode} mode: {format_seconds(budget)} on 2 cores. **This run**: not "
                        "estimated" + (f" ({what})" if what else "") + ".")
    text = (f"**Time budget** of {mode} mode: {format_seconds(budget)} on 2 cores. **This run**, estimated from its "
            f"parameters: about {format_seconds(estimate)}" + (f" ({what})" if what else "") + ".")
    if estimate > LONG_RUN_FACTOR * budget:
        text += (f"\n\n> **Warning: this choice of parameters takes long, about {format_seconds(estimate)}**, "
                 f"{estimate / budget:.0f} times the {mode}-mode budget. It runs anyway; interrupt the kernel to stop "
                 "it (finished grid cells are cached, so a rerun resumes where it stopped).")
    return Markdown(text)


def setup_notebook(quick: bool) -> None:
    """House style for figures (and where they are saved: runs/quick/figures or figures/), and tables that show
    whole notes, three decimals and no truncated columns."""
    from genesel import plotting

    plotting.setup(quick=quick)
    pd.set_option("display.max_colwidth", None)
    pd.set_option("display.max_rows", None)  # tables whole: a truncated table hides the rows a reader came for
    pd.set_option("display.max_columns", 40)
    pd.set_option("display.width", 200)
    pd.set_option("display.precision", 3)
    pd.set_option("styler.format.precision", 3)


def record(table, name: str, *parts):
    """Keep ``table`` on record and return it unchanged (for ``display``): written as ``<figures dir>/<name>.csv``
    beside the run's figures (``figures/`` for a full run, whose CSVs are committed; ``runs/quick/figures/`` for a
    quick one; a parameterised run's own folder), with its index and every digit (floats as their shortest exact
    repr), so that README text and tests can read the numbers a run produced instead of copying them by hand.
    ``name`` reads ``<paper>_<table>`` like a figure's; ``parts`` (e.g. a data set, which may be a user's file) are
    appended as :func:`genesel.plotting.figure_name` does (a file by its name, never its path). A pandas ``Styler``
    is recorded through its data."""
    import re
    import tempfile

    from genesel.plotting import figure_name, figures_dir

    if parts:
        name = figure_name(name, *parts)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise ValueError(f"table name {name!r}: use letters, digits, '_', '-' and '.', e.g. 'tan2006_table5_6'")
    data = table.data if hasattr(table, "data") and not isinstance(table, pd.DataFrame) else table
    if not isinstance(data, (pd.DataFrame, pd.Series)):
        raise TypeError(f"record({name!r}) takes a DataFrame, a Series or a Styler, not {type(table).__name__}")
    frame = data.to_frame() if isinstance(data, pd.Series) else data.copy()
    for c in frame.columns[[pd.api.types.is_float_dtype(t) for t in frame.dtypes]]:
        # the shortest decimal that reads back to the same double (pandas' own writer rounds to 15-16 digits)
        frame[c] = [repr(float(v)) if np.isfinite(v) else ("" if np.isnan(v) else str(v)) for v in frame[c]]
    target = figures_dir() / f"{name}.csv"
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:  # atomic: a reader sees the old table or the new one
        frame.to_csv(tmp, lineterminator="\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return table


def tidy(df: pd.DataFrame, *, index: bool = False) -> pd.DataFrame:
    """A result table as a reader wants it: integer-valued float columns as integers, the internal index dropped
    (``index=False``) or kept."""
    out = df.copy() if index else df.reset_index(drop=True)
    for c in out.columns:
        col = out[c]
        if pd.api.types.is_float_dtype(col) and col.notna().all() and np.all(np.mod(col.to_numpy(), 1) == 0):
            out[c] = col.astype(np.int64)
    return out


# ------------------------------------------------------------------------------------------------------------------
# parameter values: types and ranges declared in each notebook's parameters cell, checked before anything runs
# ------------------------------------------------------------------------------------------------------------------

#: A range declared at the start of a parameter's help, in brackets: ``[≥ 2]``, ``[> 0, < 1]``, ``[> 0, ≤ 1]``,
#: ``[one of: merged, train-only]``; a list parameter's range applies to each of its items. (No ``=`` sign: papermill
#: skips a parameter line holding more than one; ``>=`` and ``<=`` are read too, for ranges written in Python.)
_RANGE = re.compile(r"^\s*\[(?P<spec>[^\]]*)\]\s*")
_TYPES = {"bool": (bool,), "int": (int, np.integer), "float": (float, int, np.floating, np.integer), "str": (str,),
          "list": (list, tuple, str)}


def parameter_spec(default, type_name: str, help_text: str = "") -> dict:
    """What a notebook declares of one parameter (``name = default  # type: T [range] help``): its types (``T``,
    alternatives joined by ``|``), whether None is allowed (a default of None: "the mode decides"), and the range
    of its values (:data:`_RANGE`): bounds ``(op, number)`` or ``choices``."""
    types = [t.strip().rstrip(",") for t in str(type_name or "").split("|") if t.strip()]
    spec = {"types": types, "optional": default is None, "bounds": [], "choices": None, "range": ""}
    m = _RANGE.match(help_text or "")
    if m:
        spec["range"] = m.group("spec").strip()
        text = spec["range"]
        if text.startswith("one of:"):
            spec["choices"] = [c.strip() for c in text[len("one of:"):].split(",") if c.strip()]
        else:
            for part in text.split(","):
                op, _, num = part.strip().partition(" ")
                op = {"≥": ">=", "≤": "<="}.get(op, op)
                if op not in (">", ">=", "<", "<=") or not num:
                    raise ValueError(f"unreadable range [{text}] in a parameters cell: use e.g. [≥ 2], [> 0, < 1] or "
                                     "[one of: a, b]")
                spec["bounds"].append((op, float(num)))
    return spec


def _example_item(spec, default):
    """A value the declaration allows, to show in a message: the default where it is allowed, else a choice or a
    number within the bounds."""
    if spec["choices"]:
        return spec["choices"][0]
    integer = "int" in spec["types"]
    if default is not None and not isinstance(default, (list, tuple, str)) and (
            not spec["bounds"] or _within(float(default), spec["bounds"])):
        return default
    lo = max([b for op, b in spec["bounds"] if op.startswith(">")], default=None)
    hi = min([b for op, b in spec["bounds"] if op.startswith("<")], default=None)
    if lo is not None and hi is not None:
        v = (lo + hi) / 2
    elif lo is not None:
        v = lo + (1 if any(op == ">" for op, _ in spec["bounds"]) else 0)
    elif hi is not None:
        v = hi - (1 if any(op == "<" for op, _ in spec["bounds"]) else 0)
    else:
        return "VALUE"
    if integer:
        v = int(np.ceil(v)) if _within(float(np.ceil(v)), spec["bounds"]) else int(np.floor(v))
    return int(v) if float(v).is_integer() else v


def _syntax_for(name, spec, default) -> str:
    item = _example_item(spec, None if "list" in spec["types"] else default)
    if "list" in spec["types"]:
        a = item if item != "VALUE" else "a"
        return f"papermill -y '{name}: [{a}]' (or -p {name} '{json.dumps([a])}')"
    return f"papermill -p {name} {item}"


def _within(v, bounds) -> bool:
    ops = {">": v.__gt__, ">=": v.__ge__, "<": v.__lt__, "<=": v.__le__}
    return all(ops[op](b) for op, b in bounds)


def check_value(name: str, value, spec: dict, default=None) -> None:
    """Refuse a value of parameter ``name`` that its declaration (:func:`parameter_spec`) does not allow, with the
    papermill syntax of a valid one (``ValueError``)."""
    if value is None:
        if spec["optional"]:
            return
        raise ValueError(f"parameter {name!r} cannot be None; {_syntax_for(name, spec, default)}")
    kinds = tuple(k for t in spec["types"] for k in _TYPES.get(t, (object,)))
    if not spec["types"] or not kinds:
        return
    ok = isinstance(value, kinds) and not (isinstance(value, (bool, np.bool_)) and "bool" not in spec["types"])
    if not ok:
        want = " or ".join(spec["types"]) + (" (or None: the mode decides)" if spec["optional"] else "")
        raise ValueError(f"parameter {name!r} must be {want}, got {type(value).__name__} {value!r}; "
                         f"{_syntax_for(name, spec, default)}")
    items = [value]
    if "list" in spec["types"] and isinstance(value, (str, list, tuple)):
        if isinstance(value, str) and not value.strip().startswith("[") and spec["choices"] is None \
                and not spec["bounds"]:
            return
        items = as_list(value, name, kind=lambda v: v)
    for v in items:
        if spec["choices"] is not None and str(v) not in spec["choices"]:
            raise ValueError(f"parameter {name!r}: {v!r} is not one of {', '.join(spec['choices'])}; "
                             f"{_syntax_for(name, spec, default)}")
        if spec["bounds"]:
            if isinstance(v, str):
                try:
                    v = float(v)
                except ValueError:
                    raise ValueError(f"parameter {name!r}: {v!r} is not a number in [{spec['range']}]; "
                                     f"{_syntax_for(name, spec, default)}") from None
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) \
                    or not _within(float(v), spec["bounds"]):
                raise ValueError(f"parameter {name!r} = {v!r} is out of its range [{spec['range']}]; "
                                 f"{_syntax_for(name, spec, default)}")


def check_values(values: dict, declared: dict, notebook: str = "") -> None:
    """Check every value of ``values`` ({name: value}) against ``declared`` ({name: {"default", "type", "help"}},
    :func:`genesel.records.runner.notebook_parameters`); one ``ValueError`` naming every bad value (and the
    notebook), each with the papermill syntax of a valid one."""
    problems = []
    for name, value in values.items():
        if name not in declared:
            continue
        d = declared[name]
        try:
            check_value(name, value, parameter_spec(d["default"], d["type"], d["help"]), d["default"])
        except ValueError as exc:
            problems.append(str(exc))
    if problems:
        where = f"{notebook}: " if notebook else ""
        raise ValueError(where + "; ".join(problems))


def check_parameter_values(notebook: str, values: dict) -> None:
    """The first check of a notebook's first cell (JupyterLab runs it too; ``genesel run`` checked before the kernel
    started): the values of its parameters (``globals()``) against the types and ranges its parameters cell
    declares. Nothing is checked when the notebook file is not found (an installed package without notebooks)."""
    from genesel.records.runner import notebook_parameters, notebook_paths

    try:
        path, = notebook_paths([notebook])
    except ValueError:
        return
    declared = notebook_parameters(path)
    check_values({k: values[k] for k in declared if k in values}, declared, path.stem)


def file_notes(datasets):
    """Markdown stating, for each researcher's file among ``datasets``, the decisions taken for it: its
    preprocessing (:func:`genesel.datasets.preprocessing_note`: raw intensities logged, counts normalised by library
    size, log values as they are; all fitted inside each training part) and whether its samples are grouped (every
    split then keeps a group together). Empty for registered sets only."""
    from IPython.display import Markdown

    from genesel.dataref import is_file_reference
    from genesel.datasets import load_dataset, preprocessing_note
    from genesel.foreign_formats import mostly_missing_note, sequencing_quantities_note

    lines = []
    for d in datasets:
        if not is_file_reference(d):
            continue
        ds = load_dataset(d)
        grouped = (f" Samples grouped ({len(set(ds.groups.tolist()))} groups): every split keeps a group together."
                   if ds.groups is not None else "")
        notes = [n for n in (sequencing_quantities_note(ds), mostly_missing_note(ds)) if n]
        lines.append(f"- **{ds.name}** ({ds.n_samples} samples x {ds.n_genes} genes): "
                     f"{preprocessing_note(ds)}{grouped}" + "".join(f" {n}" for n in notes))
    return Markdown("**Your data, as read.**\n\n" + "\n".join(lines) if lines else "")


def short_training_part(ds, parts, need: int = 2, by_group: bool = False):
    """The first of ``parts`` (``(name, training indices)`` pairs) holding fewer than ``need`` samples of a class of
    ``ds`` (a Dataset), as ``(name, class, count there, count in all)``; None when every part holds enough. What a
    notebook's set-up checks before its grid, so a study too small for a protocol is refused by name. ``by_group``:
    on a grouped study count the groups holding a member of the class (a leave-one-group-out's need)."""
    from genesel.experiments.protocols import class_sizes

    y = np.asarray(ds.y)
    g = np.asarray(ds.groups) if by_group and getattr(ds, "groups", None) is not None else None

    def count(rows):
        rows = np.asarray(rows)
        sizes = class_sizes(y[rows], None if g is None else g[rows])
        return np.array([sizes.get(c.item() if hasattr(c, "item") else c, 0) for c in names])

    names = np.unique(y)
    total = count(np.arange(y.size))
    for where, part in parts:
        counts = count(part)
        if counts.min() < need:
            i = int(np.argmin(counts))
            cls = ds.classes[i] if len(ds.classes) == names.size else names[i]
            return where, cls, int(counts[i]), int(total[i])
    return None
