"""Execute the project's notebooks headless with papermill: ``genesel run --mode quick [NAMES]``.

Every notebook in ``notebooks/`` has a cell tagged ``parameters`` with ``quick=True`` by default. ``--mode quick``
runs them as they are (seconds to a minute each, for CI and a first look); ``--mode full`` passes ``quick=False``
(the papers' protocols, hours).

Where a run goes. A run with the notebook's default parameters is *the* run of its mode: ``runs/<mode>/<name>.ipynb``,
its figures in ``runs/quick/figures/`` (quick) or the repository's ``figures/`` (full; or ``$GENESEL_FIGURES_DIR``).
A run with any other parameter value goes to a folder of its own, ``runs/<mode>/<name>-<digest>/`` (the digest: the
first 8 hex digits of the sha256 of the non-default parameters), with its figures inside it, so it never overwrites
the default run or another run, and rerunning the same parameters replaces only that run. Parameters that change how
a run is computed but nothing it shows (``n_jobs``, :data:`EXECUTION_ONLY`) do not make a run non-default. Every
executed notebook records its mode and parameters in its metadata (``metadata.genesel``: every parameter's value,
the defaults, the ones that differ), which the documentation site's course chapters show
(:mod:`genesel.records.runs` reads them back).

Parameters are passed on as papermill's own command line would: ``-p NAME VALUE`` (``True``/``False``/``None``
and numbers are converted, anything else stays a string, e.g. ``-p datasets '["singh"]'``) and ``-y YAML``
(e.g. ``-y 'datasets: [singh, golub]'``). Before anything runs, every name is checked against the parameters
cell of every notebook chosen: a name that is not a Python identifier (papermill would paste it into code) or
that the notebook does not have is refused, with the known names listed, and so is a value outside the type and
range the parameters cell declares (``n_folds = 5  # type: int [>= 2] ...``), with the papermill syntax of a valid
one; the command then exits non-zero before any notebook starts.
``--scheduler tcp://host:8786`` (or ``GENESEL_SCHEDULER``) runs every grid of the notebooks on a dask cluster (see
:mod:`genesel.experiments.cluster`). Nothing here computes anything: it only runs the notebooks.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import keyword
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

__all__ = ["notebook_paths", "notebook_parameters", "check_parameters", "run_overrides", "run_folder",
           "execute_notebook", "run_notebook", "parse_parameters", "main", "EXECUTION_ONLY"]

#: Parameters that change how a run is computed, never a number it shows: they do not make a run non-default.
EXECUTION_ONLY = frozenset({"n_jobs"})


def _root() -> Path:
    return Path(__file__).resolve().parents[3]


def notebook_paths(names=None, folder: Path | None = None) -> list[Path]:
    """The notebooks (``[0-9]*.ipynb``) whose names start with one of ``names`` (default: all), in order."""
    folder = folder or _root() / "notebooks"
    paths = sorted(folder.glob("[0-9]*.ipynb"))
    if names:
        chosen = [p for p in paths if any(p.stem.startswith(str(n)) for n in names)]
        missing = [n for n in names if not any(p.stem.startswith(str(n)) for p in paths)]
        if missing:
            raise ValueError(f"no notebook matches {', '.join(map(str, missing))}; the notebooks are: "
                             f"{', '.join(p.stem for p in paths)}")
        return chosen
    return paths


def _resolve_value(value: str):
    """papermill's ``-p`` conversion: True/False/None, int, float, else the string itself."""
    if value in ("True", "False"):
        return value == "True"
    if value == "None":
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def parse_parameters(pairs=(), yamls=()) -> dict:
    """Parameters from ``-y`` YAML strings (applied first) and ``-p NAME VALUE`` pairs, as papermill's CLI does."""
    import yaml

    out: dict = {}
    for text in yamls or ():
        data = yaml.safe_load(text) or {}
        if not isinstance(data, dict):
            raise ValueError(f"-y expects a YAML mapping such as 'datasets: [singh]', got {text!r}")
        out.update(data)
    for name, value in pairs or ():
        out[name] = _resolve_value(value)
    return out


#: Notebook parameters whose values are data-set references (a registered name, or a file's path, possibly with
#: reading options after a ``?``), and those that may name a sample sheet instead of a column.
FILE_LIST_PARAMETERS = ("datasets", "sources", "mnist", "boot_datasets")
SHEET_PARAMETERS = ("label", "groups")


def _anchored(path: str) -> str:
    """``path`` absolute when it names a file from the working folder (``~`` expanded); else as given."""
    p = Path(path).expanduser()
    return str(p.resolve()) if p.is_file() else path


def _anchored_reference(item):
    """A data-set reference with its file's path, and the sample sheets its options name, absolute
    (:class:`genesel.dataref.DataRef` resolves them, from the working folder); a registered name, or a reference
    that does not resolve (no such file, an unknown option), as given."""
    from genesel.dataref import DataRef, is_file_reference

    if not isinstance(item, str) or not is_file_reference(item):
        return item
    try:
        return DataRef.of(item).to_string()
    except (ValueError, TypeError, OSError):
        return item  # the notebook's parameter check names the fault


def anchor_paths(parameters: dict) -> dict:
    """The parameters with every relative file path made absolute from the working folder ``genesel run`` was
    started in: a data set's path in ``datasets`` (and ``sources``, ``mnist``, ``boot_datasets``), the sample sheet
    a reference's ``label=`` or ``groups=`` names, and a sheet given as the ``label`` or ``groups`` parameter. The
    kernel runs in ``notebooks/`` (papermill's ``cwd``), where ``-p datasets my_study.csv`` typed beside the file
    would name no file, or another one. Only a path that names a file here is rewritten: a registered name, a column
    name and a path that exists nowhere stay as given (the notebook's message then names them)."""
    out = dict(parameters)
    for name in FILE_LIST_PARAMETERS:
        value = out.get(name)
        if isinstance(value, str) and value.strip().startswith("["):
            import yaml

            try:
                value = yaml.safe_load(value)
            except yaml.YAMLError:
                continue  # the notebook's parameter check names the fault
        if isinstance(value, (list, tuple)):
            out[name] = [_anchored_reference(v) for v in value]
        elif isinstance(value, str):
            out[name] = _anchored_reference(value)
    for name in SHEET_PARAMETERS:
        value = out.get(name)
        if isinstance(value, str) and value:
            out[name] = _anchored(value)
    return out


def _literal(text: str):
    """A default as written in a parameters cell (``None``, ``100.0``, ``"halving"``) as a value, else the text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def notebook_parameters(path: Path) -> dict:
    """The parameters of a notebook's ``parameters`` cell: ``{name: {"default", "type", "help"}}``, in order
    (papermill's reading of the cell, with each default as a value)."""
    import papermill as pm

    info = pm.inspect_notebook(str(path))
    return {n: {"default": _literal(v["default"]), "type": v["inferred_type_name"], "help": v["help"]}
            for n, v in info.items()}


def check_parameters(path: Path, parameters: dict, known: dict | None = None) -> None:
    """Refuse parameter names papermill would turn into code (not an identifier) or that the notebook does not
    have, naming the known ones, and values outside the type and range the notebook's parameters cell declares
    (:func:`genesel.papers.presentation.check_values`), with the papermill syntax of a valid one (``ValueError``)."""
    bad = [n for n in parameters if not (isinstance(n, str) and n.isidentifier() and not keyword.iskeyword(n))]
    if bad:
        raise ValueError(f"parameter name(s) {', '.join(map(repr, bad))} are not Python identifiers: a parameter "
                         "name is a variable of the notebook's parameters cell, e.g. -p seed 1")
    known = notebook_parameters(path) if known is None else known
    unknown = [n for n in parameters if n not in known]
    if unknown:
        raise ValueError(f"{path.stem} has no parameter {', '.join(map(repr, unknown))}; its parameters are: "
                         f"{', '.join(known)} (papermill --help-notebook {path.name} lists them with their help)")
    from genesel.papers.presentation import check_values

    check_values(parameters, known, path.stem)


def _canonical(value):
    """A parameter value in a form that compares equal however it was passed: papermill's ``-p datasets
    '["singh"]'`` (a string) and ``-y 'datasets: [singh]'`` (a list) give the same list; 2 and 2.0 the same number."""
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        import yaml

        try:
            return _canonical(yaml.safe_load(value))
        except yaml.YAMLError:
            return value
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    return value


def run_overrides(parameters: dict, known: dict) -> dict:
    """The parameters whose value differs from the notebook's default (``quick`` and :data:`EXECUTION_ONLY`
    excluded): what makes a run other than the default run."""
    return {n: v for n, v in parameters.items()
            if n != "quick" and n not in EXECUTION_ONLY and _canonical(v) != _canonical(known[n]["default"])}


def _digest(overrides: dict) -> str:
    text = json.dumps({k: _canonical(v) for k, v in sorted(overrides.items())}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def run_folder(mode_dir: Path, path: Path, overrides: dict) -> Path:
    """Where a run of notebook ``path`` goes: ``mode_dir`` itself for the default parameters, else
    ``mode_dir/<name>-<digest of the overrides>``."""
    return Path(mode_dir) if not overrides else Path(mode_dir) / f"{path.stem}-{_digest(overrides)}"


def _kernel_manager_class():
    """A kernel manager whose kernel talks over local IPC sockets instead of TCP ports: nothing listens on the
    network, and the kernel does not print its warning about unencrypted TCP into every run's log."""
    import tempfile

    from jupyter_client.manager import AsyncKernelManager
    from traitlets import CaselessStrEnum, default

    class IPCKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc")

        @default("ip")
        def _ip_default(self):
            # the sockets' path in a folder of this kernel's own: jupyter_client's default, "kernel-ipc-<n>" in the
            # working folder, let two kernels started at once in one folder pick the same <n> and read each other's
            # messages ("Invalid Signature"; seen with two notebooks under pytest-xdist)
            return str(Path(tempfile.mkdtemp(prefix="genesel-kernel-")) / "kernel-ipc")

    return IPCKernelManager


BLAS_CORETYPE = "Haswell"  # OpenBLAS's AVX2 kernels: what the committed tables were computed with


@contextmanager
def _kernel_environment(**values):
    """Environment variables the notebook's kernel inherits, restored afterwards (``None`` leaves one alone)."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is not None:
                os.environ[k] = str(v)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _jsonable(value):
    return json.loads(json.dumps(value, default=str))


#: what a run from the cell cache alone says of itself (its wall time is the report's, not the computation's)
CACHE_ONLY_NOTE = ("Made from its cells' cache alone (`--cache-only`): every cell was computed earlier by the same "
                   "code, and the wall time is that of the tables and figures, not of the computation.")


def _record(out: Path, mode: str, parameters: dict, known: dict, figures_dir: Path | None = None,
            wall_seconds: float | None = None, cache_only: bool = False) -> None:
    """Write the run's mode, parameters and provenance (commit, machine, libraries, date:
    :func:`genesel.records.provenance.provenance`) into the executed notebook's metadata
    (``metadata.genesel``), and, when the run wrote figures or tables to ``figures_dir``, the same record as
    ``<figures_dir>/<notebook>_run.json`` beside them. A run from the cache alone says so (``cache_only`` and
    :data:`CACHE_ONLY_NOTE`, which :mod:`genesel.records.onrecord` prints beside its wall time)."""
    import nbformat

    from genesel._core.io import atomic_write
    from genesel.records.provenance import provenance

    nb = nbformat.read(str(out), as_version=4)
    values = {n: parameters.get(n, known[n]["default"]) for n in known}
    if "quick" in known:
        values["quick"] = mode == "quick"  # the mode ran, not the notebook's default
    record = _jsonable({
        "mode": mode, "parameters": values, "defaults": {n: known[n]["default"] for n in known},
        "overrides": run_overrides(parameters, known), "help": {n: known[n]["help"] for n in known},
        "provenance": provenance(), "wall_seconds": None if wall_seconds is None else round(float(wall_seconds), 1),
        **({"cache_only": True, "note": CACHE_ONLY_NOTE} if cache_only else {})})
    nb.metadata["genesel"] = record
    atomic_write(out, lambda tmp: nbformat.write(nb, tmp))
    if figures_dir is not None and Path(figures_dir).is_dir():
        name = out.name.removeprefix(".").removesuffix(".running.ipynb").removesuffix(".ipynb")
        run = {k: record[k] for k in ("mode", "parameters", "overrides", "provenance", "wall_seconds", "cache_only",
                                      "note") if k in record}
        atomic_write(Path(figures_dir) / f"{name}_run.json",
                     lambda tmp: Path(tmp).write_text(json.dumps(run, indent=1, sort_keys=True) + "\n"))


def execute_notebook(path: Path, out_dir: Path, quick: bool = True, parameters: dict | None = None,
                     timeout: int = 3600, progress: bool = False, scheduler: str | None = None,
                     figures_dir: Path | None = None, cache_only: bool = False) -> Path:
    """Run one notebook with papermill (parameters injected after its ``parameters`` cell) into
    ``out_dir/<name>.ipynb``; returns that path.

    Parameter names are checked first (:func:`check_parameters`). The notebook is executed into a temporary file
    beside the target and renamed over it when it ends (failed or not: a failed run shows its error), with the run's
    mode and parameters recorded in its metadata. The kernel shows grid progress as a few summary lines
    (``GENESEL_PROGRESS=log``, unless set otherwise), so the saved notebook holds them rather than a bar's every
    state. ``scheduler``: a dask scheduler address; every grid of the notebook then runs on that cluster
    (``GENESEL_SCHEDULER``). ``figures_dir``: where the notebook saves its figures (``GENESEL_FIGURES_DIR``;
    default: as :mod:`genesel.plotting` decides). ``cache_only``: every grid of the notebook may only read its cache
    (``GENESEL_CACHE_ONLY``; a missing cell stops the notebook: :class:`genesel.experiments.grid.CellsNotCached`)."""
    import papermill as pm

    parameters = dict(parameters or {})
    if "quick" in parameters:
        raise ValueError("choose the mode with quick=True|False (--mode quick|full), not as a parameter")
    known = notebook_parameters(path)
    check_parameters(path, parameters, known)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / path.name
    tmp = out_dir / f".{path.stem}.running.ipynb"
    params = {"quick": quick, **parameters}
    kw = {"kernel_manager_class": _kernel_manager_class()} if sys.platform != "win32" else {}
    if scheduler and "://" not in scheduler and Path(scheduler).expanduser().is_file():
        scheduler = str(Path(scheduler).expanduser().resolve())  # a connection file: the kernel runs elsewhere
    env = {"GENESEL_PROGRESS": os.environ.get("GENESEL_PROGRESS") or "log", "GENESEL_SCHEDULER": scheduler,
           "GENESEL_FIGURES_DIR": figures_dir, "GENESEL_CACHE_ONLY": "1" if cache_only else None,
           # one OpenBLAS kernel on every CPU (docs/architecture.md, "Reproducibility across machines"): AVX-512
           # kernels round differently and move the GP-ARD fits, so a table would depend on the machine
           "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE") or BLAS_CORETYPE}
    finished = False
    t0 = time.perf_counter()
    try:
        with _kernel_environment(**env):
            pm.execute_notebook(str(path), str(tmp), parameters=params, cwd=str(path.parent), kernel_name="python3",
                                progress_bar=progress, execution_timeout=timeout, log_output=False, **kw)
        finished = True
    except pm.PapermillExecutionError:
        finished = True  # the notebook ran and a cell failed: keep the executed copy, which shows the error
        raise
    finally:
        if finished and tmp.exists():
            _record(tmp, "quick" if quick else "full", parameters, known, figures_dir, time.perf_counter() - t0,
                    cache_only=cache_only)
            os.replace(tmp, out)
        else:
            tmp.unlink(missing_ok=True)
    return out


def run_notebook(path: Path, mode: str = "quick", parameters: dict | None = None, *, root: Path | None = None,
                 **kw) -> Path:
    """Run notebook ``path`` in ``mode`` into its run folder under ``<root>/runs/<mode>/`` (:func:`run_folder`):
    the default run in the mode folder itself, a run with other parameters in a folder of its own with its own
    figures. Returns the executed notebook's path. ``kw`` go to :func:`execute_notebook`."""
    parameters = dict(parameters or {})
    known = notebook_parameters(path)
    check_parameters(path, parameters, known)
    root = Path(root) if root is not None else _root()
    mode_dir = root / "runs" / mode
    overrides = run_overrides(parameters, known)
    folder = run_folder(mode_dir, path, overrides)
    if overrides:
        figures = folder / "figures"
    else:  # the default run: $GENESEL_FIGURES_DIR, else runs/quick/figures or the committed figures/
        figures = os.environ.get("GENESEL_FIGURES_DIR") or (mode_dir / "figures" if mode == "quick"
                                                             else root / "figures")
    return execute_notebook(path, folder, quick=mode == "quick", parameters=parameters, figures_dir=figures, **kw)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel run", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"), default=[],
                    help="a notebook parameter, as papermill -p (repeatable)")
    ap.add_argument("-y", "--yaml", action="append", default=[], help="notebook parameters as a YAML mapping")
    ap.add_argument("--scheduler", default=os.environ.get("GENESEL_SCHEDULER") or None, metavar="ADDRESS",
                    help="run every grid on this dask scheduler (e.g. tcp://10.0.0.5:8786; default: "
                         "$GENESEL_SCHEDULER, else this machine)")
    ap.add_argument("--cache-only", action="store_true",
                    help="compute nothing: every grid reads its cells from the cache (GENESEL_CACHE_DIR), and a "
                         "notebook with a cell missing there fails at once, naming it (the last pass of a run "
                         "computed in pieces, which writes the tables and figures)")
    ap.add_argument("names", nargs="*", help="notebook name prefixes (default: all), e.g. 00 01")
    args = ap.parse_args(argv)
    from genesel.extras import check

    check("executing notebooks (papermill)", "papermill", "nbformat", "yaml", "ipykernel")
    try:
        params = anchor_paths(parse_parameters(args.parameter, args.yaml))
        paths = notebook_paths(args.names)
    except ValueError as exc:
        ap.error(str(exc))
    if "quick" in params:
        ap.error("choose the mode with --mode quick|full, not -p quick")
    problems = []
    for p in paths:  # every name checked against every chosen notebook before anything runs
        try:
            check_parameters(p, params)
        except ValueError as exc:
            problems.append(str(exc))
    if problems:
        ap.error("\n  ".join(["nothing was run:"] + problems))
    failed = []
    for p in paths:
        t0 = time.perf_counter()
        extra = f" with {params}" if params else ""
        print(f"[{args.mode}] {p.name}{extra} ...", flush=True)
        try:
            out = run_notebook(p, args.mode, params, timeout=900 if args.mode == "quick" else 7 * 86400,
                               scheduler=args.scheduler, cache_only=args.cache_only)
            print(f"[{args.mode}] {p.name} done in {time.perf_counter() - t0:.0f} s -> {out}", flush=True)
        except Exception as exc:  # report every notebook, then fail
            failed.append(p.name)
            print(f"[{args.mode}] {p.name} FAILED after {time.perf_counter() - t0:.0f} s: {exc}", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"all {len(paths)} notebook(s) ran; executed copies under {_root() / 'runs' / args.mode}")
    return 0

