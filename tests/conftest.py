"""Shared fixtures. The real data come from the mirror named by GENESEL_DATA_MIRROR (``make test`` and CI set it;
the Makefile's default is ../shared/data/raw beside the checkout). Without it the real-data tests are skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("MPLBACKEND", "Agg")
# Before numpy loads OpenBLAS: the AVX2 kernels on every CPU (the Makefile sets it too; docs/architecture.md,
# "Reproducibility across machines"). The GP-ARD examples and tests are exact to the last bits of the BLAS, which
# AVX-512 kernels round differently.
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


def mirror_path() -> Path | None:
    m = os.environ.get("GENESEL_DATA_MIRROR")
    return Path(m) if m and Path(m).is_dir() else None


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The raw-data mirror. Unset: the real-data tests are skipped. Set to a missing folder (a broken CI set-up):
    they fail, so a run can never pass green without having touched the real data."""
    m = os.environ.get("GENESEL_DATA_MIRROR")
    if not m:
        pytest.skip("no data mirror: set GENESEL_DATA_MIRROR to a folder with the raw files")
    if not Path(m).is_dir():
        pytest.fail(f"GENESEL_DATA_MIRROR={m} is not a folder; point it at the raw data files (CI: ../shared/data/raw)")
    return Path(m)


@pytest.fixture(scope="session")
def notebook_cell_cache(tmp_path_factory) -> Path:
    """One grid cache (``GENESEL_CACHE_DIR``) for the notebook runs of a test session, so that a cell two notebook
    tests compute identically (the same data set, protocol and code: one key) is computed once. Under pytest-xdist
    every worker uses the same folder (the session's temporary root, shared by the workers): the cache's claims
    (:mod:`genesel.experiments.claims`) let one worker compute a cell while another waits for its record. For tests
    that only run notebooks: a test of caching or recomputation itself keeps a cache of its own."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # .../pytest-N/popen-gwK -> .../pytest-N, the same for every worker of the session
    folder = base / "notebook-cell-cache"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def golub(mirror):
    from genesel.datasets import load_dataset

    return load_dataset("golub")


@pytest.fixture(scope="session")
def alon(mirror):
    from genesel.datasets import load_dataset

    return load_dataset("alon")


# ------------------------------------------------------------------------------------------------------------------
# the fast loop: ``make test-fast`` deselects what is marked ``slow``; the marks are set here by rule, not by hand
# ------------------------------------------------------------------------------------------------------------------

#: folders whose real-data tests run a paper's or the leaderboard's grid cells (seconds to minutes each)
GRID_FOLDERS = ("papers", "leaderboard")

#: test files that start processes, install the package, build the site or hash every source file many times: the
#: full suite's job. Each with its reason (``make test-fast`` leaves them out; ``make test`` and CI run them).
SLOW_FILES = {
    "test_grid_reliability.py": "kills and restarts worker processes (loky, dask) around a shared cache",
    "test_cluster.py": "starts dask schedulers and workers",
    "test_store_crafted.py": "starts a dozen processes on one cache and decompresses crafted gigabyte records",
    "test_install.py": "pip-installs the package into fresh virtual environments",
    "test_jit_cache.py": "compiles the numba kernels in fresh interpreters",
    "test_codekey_moves.py": "moves modules in a copy of the sources and re-keys every cell",
    "test_keys.py": "re-keys every leaderboard cell after each of a dozen source edits",
    "test_docs.py": "builds the documentation site with Sphinx and drives headless Chromium",
    "test_doctests.py": "runs every docstring example of the package (the documentation's own check)",
}

#: slow by name in files that are otherwise quick: killing process trees, whole pipelines on real data
SLOW_NAMES = {
    "test_killed_": "kills a grid and waits for its process tree to go",
    "test_on_error_finish_runs_every_other_cell": "runs a grid on loky and dask workers",
    "test_dask_local_cluster": "starts a dask cluster",
    "test_the_first_pipeline_beats_the_majority_rate": "the whole first pipeline on real data sets",
    "test_every_registered_set_reads_back_from_every_format": "writes and reads every registered set in every format",
    "test_preprocessing_reproduces_the_thesis_numbers": "preprocesses the thesis' real data sets",
    "test_core_install_fits_reads_and_lists": "pip-installs the core package into a fresh virtual environment",
    "test_lazy_path_equals_evaluating_every_gene[3]": "MSVM-RFE's brute force (every gene at every step) on three "
                                                      "classes; the binary case stays in the quick loop",
}

#: ``make test-fast`` runs one in FAST_SLICE of the instances of a large cross-product test (marked ``fast_slice``):
#: the instances of each first parameter (an estimator) are numbered, the numbering shifted by that parameter's own
#: place, and those at 0 modulo FAST_SLICE kept: a fixed Latin-square slice, so every estimator keeps some cases and
#: the cases kept differ from one estimator to the next. The full suite runs them all.
FAST_SLICE = 4


def _costly(item) -> str | None:
    """The reason when one of the item's parameters is an estimator tests/estimators.py calls ``costly``."""
    import estimators as E

    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    for value in callspec.params.values():
        reason = E.costly_reason(value)
        if reason:
            return reason
    return None


def slow_reason(path: Path, fixturenames, markers, name: str = "") -> str | None:
    """Why a test is ``slow`` (left out of ``make test-fast``), or None: it executes a notebook (``notebook``), or it
    needs the data mirror and lives where the real-data grids run (tests/papers/, tests/leaderboard/), or its file or
    name is in :data:`SLOW_FILES` / :data:`SLOW_NAMES`, or it says so itself (``@pytest.mark.slow``, each with its
    reason beside it)."""
    if "notebook" in markers:
        return "executes a notebook"
    if "mirror" in fixturenames and any(part in GRID_FOLDERS for part in path.relative_to(ROOT / "tests").parts):
        return "runs a real-data grid"
    if path.name in SLOW_FILES:
        return SLOW_FILES[path.name]
    for prefix, reason in SLOW_NAMES.items():
        if name.startswith(prefix):
            return reason
    if "slow" in markers:
        return "marked slow"
    return None


def pytest_collection_modifyitems(config, items):
    counts, places = {}, {}
    for item in items:
        markers = {m.name for m in item.iter_markers()}
        if "slow" in markers:
            continue
        reason = slow_reason(Path(str(item.path)), item.fixturenames, markers, item.name)
        if reason is None:
            costly = _costly(item)
            if costly:
                reason = f"fits a costly estimator ({costly})"
            elif "fast_slice" in markers and hasattr(item, "callspec"):
                first = next(iter(item.callspec.params.values()))
                key = (item.originalname, first if isinstance(first, str) else type(first).__name__)
                place = places.setdefault(key, len(places))
                n = counts[key] = counts.get(key, -1) + 1
                if (n + place) % FAST_SLICE != 0:
                    reason = "outside the quick loop's slice of this cross product (conftest.FAST_SLICE)"
        if reason:
            item.add_marker(pytest.mark.slow(reason=reason))


_NOT_RUN = {}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Count the real-data and notebook tests skipped for want of the data mirror (reported by pytest_unconfigure,
    after pytest's own summary, so it is the last thing on the screen)."""
    data = notebooks = 0
    for rep in terminalreporter.stats.get("skipped", []):
        if "no data mirror" in str(rep.longrepr):
            if "test_notebooks" in rep.nodeid:
                notebooks += 1
            else:
                data += 1
    _NOT_RUN.update(data=data, notebooks=notebooks)


def pytest_unconfigure(config):
    """Say loudly, at the very end, how many real-data and notebook tests did not run and why: a green run without
    the data mirror has not checked any paper's numbers."""
    data, notebooks = _NOT_RUN.get("data", 0), _NOT_RUN.get("notebooks", 0)
    tw = config.pluginmanager.get_plugin("terminalreporter")
    if tw is None or not (data or notebooks):
        return
    tw.write_sep("!", "NOT RUN: real data", red=True, bold=True)
    tw.write_line(f"{data} real-data test(s) and {notebooks} notebook test(s) were SKIPPED: GENESEL_DATA_MIRROR is not "
                  "set, so nothing here touched the public data sets or checked a paper's numbers.", red=True,
                  bold=True)
    tw.write_line("Run `make test` (it points GENESEL_DATA_MIRROR at ../shared/data/raw beside the checkout when that "
                  "folder exists) or set GENESEL_DATA_MIRROR=/path/to/the/raw/files.", bold=True)
