"""The executed notebooks of one mode folder, in course order, with the mode and parameters each ran with.

A mode folder ``runs/<mode>/`` (:mod:`genesel.records.runner`) holds the default run of each notebook,
``<name>.ipynb``, and every run with other parameters in a folder of its own, ``<name>-<digest>/<name>.ipynb``.
:func:`find_runs` returns both kinds, in course order; :func:`read_run` reads one as a :class:`Run`, from the
metadata the runner writes into each executed notebook (``metadata.genesel``: ``mode``, ``parameters``,
``defaults``, ``overrides``, ``help``, ``provenance``). A notebook executed before the runner recorded its
parameters still appears, its mode read from papermill's injected parameters and its parameters marked as not
recorded. The documentation site (``docs/``, ``make docs``) turns these runs into its course chapters.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Run", "find_runs", "read_run", "course_key", "format_value", "rerun_command"]

_NOTEBOOK = re.compile(r"(\d+)([a-z]*)_")
_RUN_FOLDER = re.compile(r"(?P<stem>\d+[a-z]*_[A-Za-z0-9_]+)-(?P<digest>[0-9a-f]{8})")


def course_key(stem: str) -> tuple:
    """The course order of a notebook name: its number, then its letter (00, 01, ..., 05a, 05b, 05c, 06, ..., 10)."""
    m = _NOTEBOOK.match(stem)
    return (int(m.group(1)), m.group(2), stem) if m else (10**9, "", stem)


def format_value(value, limit: int | None = None) -> str:
    """A parameter value as it would be written in the parameters cell (JSON for lists and strings)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, bool) and value is not None else repr(value)
    if isinstance(value, float) and value != value:  # nan
        text = "nan"
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


@dataclass
class Run:
    """One executed notebook: where it is, which notebook, mode and parameters, and its page in the site."""

    path: Path
    stem: str                       # the notebook's name, e.g. "02_gentile2003_alma"
    digest: str | None              # None for the default run (the notebook at the top of the mode folder)
    mode: str                       # "quick", "full" or "" (not recorded)
    parameters: dict = field(default_factory=dict)   # every parameter's value as run
    defaults: dict = field(default_factory=dict)
    overrides: dict = field(default_factory=dict)    # the values that differ from the defaults
    help: dict = field(default_factory=dict)
    recorded: bool = True           # False: executed before the runner recorded parameters
    provenance: dict = field(default_factory=dict)   # commit, date, machine, versions (genesel.records.provenance)
    wall_seconds: float | None = None

    @property
    def name(self) -> str:
        """The run's name in the site: ``<notebook>``, or ``<notebook>-<digest>`` for a parameterised run."""
        return f"{self.stem}-{self.digest}" if self.digest else self.stem

    @property
    def is_default(self) -> bool:
        return not self.overrides

    def label(self, limit: int | None = 60) -> str:
        """``default parameters``, or the parameters that differ, e.g. ``datasets = ["singh"], seed = 1``."""
        if not self.recorded:
            return "parameters not recorded"
        if not self.overrides:
            return "default parameters"
        return ", ".join(f"{k} = {format_value(v, limit)}" for k, v in self.overrides.items())


def _injected_mode(nb) -> str:
    for c in nb.cells:
        if "injected-parameters" in c.get("metadata", {}).get("tags", []):
            return "full" if re.search(r"^\s*quick\s*=\s*False\b", c.source, re.M) else "quick"
    return ""


def read_run(path: Path, nb, digest: str | None) -> Run:
    """The :class:`Run` of the executed notebook ``nb`` read from ``path``."""
    meta = nb.metadata.get("genesel")
    stem = Path(path).stem
    if not isinstance(meta, dict):
        return Run(Path(path), stem, digest, _injected_mode(nb), recorded=False)
    return Run(Path(path), stem, digest, str(meta.get("mode") or _injected_mode(nb)),
               dict(meta.get("parameters") or {}), dict(meta.get("defaults") or {}),
               dict(meta.get("overrides") or {}), dict(meta.get("help") or {}),
               provenance=dict(meta.get("provenance") or {}), wall_seconds=meta.get("wall_seconds"))


def find_runs(runs_dir: Path) -> list[tuple[Path, str | None]]:
    """The executed notebooks of ``runs_dir`` as ``(path, digest)``, in course order, each notebook's default run
    (``runs_dir/<name>.ipynb``, digest ``None``) before its parameterised runs (``runs_dir/<name>-<digest>/
    <name>.ipynb``, by digest). Temporary files of a run in progress (``.<name>.running.ipynb``) are skipped."""
    runs_dir = Path(runs_dir)
    found = [(p, None) for p in runs_dir.glob("[0-9]*.ipynb")]
    for folder in runs_dir.iterdir() if runs_dir.is_dir() else ():
        m = _RUN_FOLDER.fullmatch(folder.name)
        if m and folder.is_dir() and (folder / f"{m['stem']}.ipynb").is_file():
            found.append((folder / f"{m['stem']}.ipynb", m["digest"]))
    return sorted(found, key=lambda pd: (course_key(pd[0].stem), pd[1] is not None, pd[1] or ""))


def rerun_command(run: Run) -> str:
    """The command that repeats ``run`` (its notebook, mode and changed parameters)."""
    prefix = re.match(r"\d+[a-z]*", run.stem)
    cmd = ["genesel", "run", "--mode", run.mode or "quick"]
    if run.overrides:
        cmd += ["-y", json.dumps(run.overrides, ensure_ascii=False)]
    cmd.append(prefix.group(0) if prefix else run.stem)
    return " ".join(shlex.quote(c) for c in cmd)
