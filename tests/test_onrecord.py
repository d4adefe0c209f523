"""The README's numbers come from the committed full-run tables (issue 27): genesel.records.onrecord."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from genesel.records.onrecord import NOTEBOOK_TABLES, block, main, render_readme

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FIGURES = ROOT / "figures"


def test_the_readme_blocks_match_the_committed_tables():
    text = README.read_text()
    for nb in NOTEBOOK_TABLES:
        assert f"<!-- on-record:{nb} -->" in text, f"the README has no on-record block for {nb}"
    assert render_readme(text, FIGURES) == text, (
        "the README's on-record blocks differ from the committed tables in figures/: run "
        "`genesel onrecord` (never edit those numbers by hand)")
    assert main(["--check", "--readme", str(README)]) == 0


def _copy_run(tmp_path, notebook="03_helleputte2009_transfer"):
    stem = NOTEBOOK_TABLES[notebook][0]
    figs = tmp_path / "figures"
    figs.mkdir()
    table = pd.DataFrame({"quantity": ["Leukemia: errors", "Colon: accuracy"], "protocol": ["LOO", "10-fold"],
                          "paper": ["0", "98 %"], "genesel": ["2", "87.1 %"], "note": ["", "in-fold"]})
    table.to_csv(figs / f"{stem}_paper_vs_genesel.csv", index=False)
    run = {"mode": "full", "overrides": {}, "parameters": {"quick": False},
           "provenance": {"commit": "0123456789abcdef", "dirty": False, "date": "2026-01-01T00:00:00+00:00",
                          "machine": {"cpu": "Some CPU", "cores": 2, "system": "Linux"}}}
    (figs / f"{notebook}_run.json").write_text(json.dumps(run))
    return figs, stem


def test_change_a_number_and_the_text_changes(tmp_path):
    figs, stem = _copy_run(tmp_path)
    text = ("intro\n<!-- on-record:03_helleputte2009_transfer -->\nstale text\n"
            "<!-- /on-record:03_helleputte2009_transfer -->\n")
    first = render_readme(text, figs)
    assert "| Leukemia: errors | LOO | 0 | 2 |  |" in first and "`0123456789`" in first and "stale text" not in first
    t = pd.read_csv(figs / f"{stem}_paper_vs_genesel.csv", dtype=str, keep_default_na=False)
    t.loc[0, "genesel"] = "5"
    t.to_csv(figs / f"{stem}_paper_vs_genesel.csv", index=False)
    second = render_readme(first, figs)
    assert "| Leukemia: errors | LOO | 0 | 5 |  |" in second and "| 0 | 2 |" not in second
    assert render_readme(second, figs) == second  # regenerating is idempotent


def test_a_notebook_without_a_run_on_record_says_so(tmp_path):
    assert "No full run of `05c_tan2006_stability` is on record yet" in block("05c_tan2006_stability", tmp_path)


def test_check_mode_fails_on_a_stale_readme(tmp_path):
    figs, _ = _copy_run(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("<!-- on-record:03_helleputte2009_transfer -->\nhand-typed 98 %\n"
                      "<!-- /on-record:03_helleputte2009_transfer -->\n")
    assert main(["--check", "--readme", str(readme), "--figures", str(figs)]) == 1
    assert main(["--readme", str(readme), "--figures", str(figs)]) == 0
    assert main(["--check", "--readme", str(readme), "--figures", str(figs)]) == 0
    assert "hand-typed" not in readme.read_text()


def test_a_table_quoted_whole(tmp_path):
    from genesel.records.onrecord import table_block

    pd.DataFrame({"claim": ["2 genes, 0 errors"], "settings that reproduce it": [76]}).to_csv(tmp_path / "x_claims.csv",
                                                                                            index=False)
    text = "<!-- on-record-table:x_claims -->\nold 75\n<!-- /on-record-table:x_claims -->\n"
    out = render_readme(text, tmp_path)
    assert "| 2 genes, 0 errors | 76 |" in out and "old 75" not in out
    assert "not on record yet" in table_block("y_claims", tmp_path)


def test_a_run_note_is_quoted_in_the_run_line(tmp_path):
    """A run's own note (e.g. resumed from the cell cache of an interrupted run) travels into the README's run line."""
    figs, _ = _copy_run(tmp_path)
    run = json.loads((figs / "03_helleputte2009_transfer_run.json").read_text())
    assert "Resumed" not in block("03_helleputte2009_transfer", figs)
    run["note"] = "Resumed from the cell cache of an interrupted run."
    (figs / "03_helleputte2009_transfer_run.json").write_text(json.dumps(run))
    assert "cores, Linux). Resumed from the cell cache of an interrupted run." in \
        block("03_helleputte2009_transfer", figs)
