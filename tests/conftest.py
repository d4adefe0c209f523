"""Shared fixtures. The real data come from the mirror named by GENESEL_DATA_MIRROR (``make test`` and CI set it;
the Makefile's default is ../shared/data/raw beside the checkout). Without it the real-data tests are skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("MPLBACKEND", "Agg")


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
