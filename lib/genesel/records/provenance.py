"""What a run records about where it ran: the commit of the code, the machine, the libraries, the date.

A number in a committed table is only reproducible if one can tell which code on which kind of machine produced it
(issue 27). :func:`provenance` gathers that once per run; the notebook runner stores it in the executed notebook's
metadata (``metadata.genesel.provenance``) and, for the default run of a mode, as ``<notebook>_run.json`` beside
the figures and tables that run wrote. Nothing here names a path or a host: the machine is described by what
determines its numbers (CPU model, cores, operating system, BLAS), not by who owns it.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
from pathlib import Path

__all__ = ["provenance", "git_commit"]

_LIBRARIES = ("numpy", "scipy", "scikit-learn", "numba", "pandas", "matplotlib")


def git_commit(repo: Path | None = None) -> dict:
    """``{"commit": sha or None, "dirty": bool or None}`` of the checkout holding the package (None outside git).
    ``dirty``: tracked files other than a run's own outputs (``figures/``, ``runs/``) differ from the commit, i.e. the
    code that ran was not the committed code."""
    repo = Path(repo) if repo is not None else Path(__file__).resolve().parents[3]
    try:
        sha = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=20, check=True).stdout.strip()
        status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no", "--", ".",
                                 ":(exclude)figures", ":(exclude)runs"],
                                capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": sha or None, "dirty": bool(status.strip())}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _blas() -> list:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    return [{k: d.get(k) for k in ("internal_api", "version", "num_threads", "architecture")}
            for d in threadpool_info() if d.get("user_api") == "blas"]


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    from genesel._version import __version__

    out = {"genesel": __version__, "python": platform.python_version()}
    for lib in _LIBRARIES:
        try:
            out[lib] = version(lib)
        except PackageNotFoundError:
            out[lib] = None
    return out


def provenance() -> dict:
    """The run's provenance as plain data: commit (and whether the checkout had uncommitted changes), machine (CPU
    model, logical cores, operating system, BLAS libraries and their threads), library versions, UTC date."""
    return {
        **git_commit(),
        "machine": {"cpu": _cpu_model(), "cores": os.cpu_count(), "system": platform.platform(terse=True),
                    "blas": _blas()},
        "versions": _versions(),
        "date": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
    }
