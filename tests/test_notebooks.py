"""Every notebook runs under papermill in quick mode, writes its figures, and holds no algorithm code."""

import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


def _sources(path):
    nb = json.loads(path.read_text())
    return nb, ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_structure(path):
    nb, code = _sources(path)
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    assert re.search(r"^quick\s*=\s*True", "".join(tagged[0]["source"]), re.M), "quick=True by default"
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), "commit notebooks stripped"
    src = "\n".join(code)
    assert "paper_vs_genesel" in src, "ends with a paper-vs-genesel table"
    assert not re.search(r"^\s*(def|class)\s", src, re.M), "no algorithm code in notebooks: put it in genesel"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_quick(path, tmp_path, monkeypatch, mirror):
    from genesel.experiments.runner import execute_notebook

    figs = tmp_path / "figures"
    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(figs))
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = execute_notebook(path, tmp_path / "runs", quick=True, timeout=600)
    assert out.exists()
    pngs = list(figs.glob("*.png"))
    assert pngs, "the notebook saved no figure"
