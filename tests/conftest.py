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


def slow_reason(path: Path, fixturenames, markers) -> str | None:
    """Why a test is ``slow`` (left out of ``make test-fast``), or None: it executes a notebook (``notebook``), or it
    needs the data mirror and lives where the real-data grids run (tests/papers/, tests/leaderboard/), or it says so
    itself (``@pytest.mark.slow``, each with its reason beside it)."""
    if "notebook" in markers:
        return "executes a notebook"
    if "mirror" in fixturenames and any(part in GRID_FOLDERS for part in path.relative_to(ROOT / "tests").parts):
        return "runs a real-data grid"
    if "slow" in markers:
        return "marked slow"
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        markers = {m.name for m in item.iter_markers()}
        if "slow" not in markers and slow_reason(Path(str(item.path)), item.fixturenames, markers):
            item.add_marker(pytest.mark.slow)


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
