"""Optional dependencies: which extra of ``pip install "genesel[<extra>]"`` brings what a feature needs.

The core install (``pip install genesel``) holds what the estimators, the readers and the data registry need. The
notebooks and their figures, the leaderboard's rank statistics, ``.h5ad`` files, dask and the documentation site
come with extras (``[project.optional-dependencies]`` of ``pyproject.toml``; ``make install`` installs them all).
A module that needs an extra imports it lazily through :func:`require`, or checks for it when it is imported
(:func:`check`), so a missing package is an :class:`ImportError` (:class:`MissingExtra`) that names the extra to
install rather than a bare ``No module named ...``; the ``genesel`` command prints that message without a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util

__all__ = ["EXTRAS", "MissingExtra", "missing", "check", "require", "install_hint"]

#: import name -> (extra, distribution name on PyPI)
EXTRAS = {
    "matplotlib": ("notebooks", "matplotlib"),
    "seaborn": ("notebooks", "seaborn"),
    "papermill": ("notebooks", "papermill"),
    "nbformat": ("notebooks", "nbformat"),
    "ipykernel": ("notebooks", "ipykernel"),
    "IPython": ("notebooks", "ipython"),
    "yaml": ("notebooks", "pyyaml"),
    "tqdm": ("notebooks", "tqdm"),
    "scikit_posthocs": ("stats", "scikit-posthocs"),
    "anndata": ("anndata", "anndata"),
    "distributed": ("distributed", "distributed"),
    "dask_jobqueue": ("distributed", "dask-jobqueue"),
}


class MissingExtra(ImportError):
    """A package of an extra is not installed; the message says what needs it and what to install."""


def missing(*modules: str) -> list[str]:
    """The import names among ``modules`` that cannot be found (looked up without importing them)."""
    out = []
    for m in modules:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(m)
    return out


def install_hint(modules) -> str:
    """``pip install "genesel[notebooks]"`` for the extras that bring ``modules`` (import names)."""
    extras = sorted({EXTRAS[m][0] for m in modules if m in EXTRAS})
    if not extras:
        return "pip install " + " ".join(sorted(modules))
    return f'pip install "genesel[{",".join(extras)}]" (in a clone of the repository: make install)'


def _error(feature: str, absent: list[str]) -> MissingExtra:
    names = [EXTRAS.get(m, (None, m))[1] for m in absent]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return MissingExtra(f"{feature} needs {listed}, which {'is' if len(names) == 1 else 'are'} not installed: "
                        f"{install_hint(absent)}", name=absent[0])


def check(feature: str, *modules: str) -> None:
    """Raise an :class:`ImportError` naming the extra when any of ``modules`` is not installed (nothing is
    imported); ``feature`` says what needs them, e.g. ``"genesel.plotting"``."""
    absent = missing(*modules)
    if absent:
        raise _error(feature, absent)


def require(module: str, feature: str):
    """``importlib.import_module(module)``, or an :class:`ImportError` that names the extra bringing it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] != module.split(".")[0]:
            raise  # the module is there but one of its own dependencies is not: its own message says which
        raise _error(feature, [module.split(".")[0]]) from exc
