"""Execute the project's notebooks headless with papermill: ``python -m genesel.notebooks --mode quick [NAMES]``.

Every notebook in ``notebooks/`` has a cell tagged ``parameters`` with ``quick=True`` by default. ``--mode quick``
runs them as they are (seconds to a minute each, for CI and a first look); ``--mode full`` passes ``quick=False``
(the papers' protocols, hours). Executed copies go to ``runs/<mode>/``. Figures go to ``runs/quick/figures/`` in
quick mode and to the repository's ``figures/`` in full mode (or to ``$GENESEL_FIGURES_DIR``), so a quick run
never touches the committed full-protocol figures.

Parameters are passed on as papermill's own command line would: ``-p NAME VALUE`` (``True``/``False``/``None``
and numbers are converted, anything else stays a string, e.g. ``-p datasets '["singh"]'``) and ``-y YAML``
(e.g. ``-y 'datasets: [singh, golub]'``). ``--scheduler tcp://host:8786`` (or ``GENESEL_SCHEDULER``) runs every
grid of the notebooks on a dask cluster (see :mod:`genesel.experiments.cluster`). Nothing here computes anything: it
only runs the notebooks.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

__all__ = ["notebook_paths", "execute_notebook", "parse_parameters", "main"]


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
            raise ValueError(f"no notebook matches {missing}; have: {[p.stem for p in paths]}")
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


def _kernel_manager_class():
    """A kernel manager whose kernel talks over local IPC sockets instead of TCP ports: nothing listens on the
    network, and the kernel does not print its warning about unencrypted TCP into every run's log."""
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import CaselessStrEnum

    class IPCKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc")

    return IPCKernelManager


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


def execute_notebook(path: Path, out_dir: Path, quick: bool = True, parameters: dict | None = None,
                     timeout: int = 3600, progress: bool = False, scheduler: str | None = None) -> Path:
    """Run one notebook with papermill (parameters injected after its ``parameters`` cell).

    The kernel shows grid progress as a few summary lines (``GENESEL_PROGRESS=log``, unless set otherwise), so the
    saved notebook holds them rather than a bar's every state. ``scheduler``: a dask scheduler address; every grid
    of the notebook then runs on that cluster (``GENESEL_SCHEDULER``)."""
    import papermill as pm

    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / path.name
    params = {"quick": quick, **(parameters or {})}
    kw = {"kernel_manager_class": _kernel_manager_class()} if sys.platform != "win32" else {}
    env = {"GENESEL_PROGRESS": os.environ.get("GENESEL_PROGRESS") or "log", "GENESEL_SCHEDULER": scheduler}
    with _kernel_environment(**env):
        pm.execute_notebook(str(path), str(out), parameters=params, cwd=str(path.parent), kernel_name="python3",
                            progress_bar=progress, execution_timeout=timeout, log_output=False, **kw)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m genesel.notebooks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"), default=[],
                    help="a notebook parameter, as papermill -p (repeatable)")
    ap.add_argument("-y", "--yaml", action="append", default=[], help="notebook parameters as a YAML mapping")
    ap.add_argument("--scheduler", default=os.environ.get("GENESEL_SCHEDULER") or None, metavar="ADDRESS",
                    help="run every grid on this dask scheduler (e.g. tcp://10.0.0.5:8786; default: "
                         "$GENESEL_SCHEDULER, else this machine)")
    ap.add_argument("names", nargs="*", help="notebook name prefixes (default: all), e.g. 00 01_guyon")
    args = ap.parse_args(argv)
    params = parse_parameters(args.parameter, args.yaml)
    if "quick" in params:
        ap.error("choose the mode with --mode quick|full, not -p quick")
    out_dir = _root() / "runs" / args.mode
    paths = notebook_paths(args.names)
    failed = []
    for p in paths:
        t0 = time.perf_counter()
        extra = f" with {params}" if params else ""
        print(f"[{args.mode}] {p.name}{extra} ...", flush=True)
        try:
            execute_notebook(p, out_dir, quick=args.mode == "quick", parameters=params,
                             timeout=900 if args.mode == "quick" else 7 * 86400, scheduler=args.scheduler)
            print(f"[{args.mode}] {p.name} done in {time.perf_counter() - t0:.0f} s -> {out_dir / p.name}", flush=True)
        except Exception as exc:  # report every notebook, then fail
            failed.append(p.name)
            print(f"[{args.mode}] {p.name} FAILED after {time.perf_counter() - t0:.0f} s: {exc}", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"all {len(paths)} notebook(s) ran; executed copies in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
