"""The papers' claims modules: readings of the printed tables they make beyond the cell modules (issue 39)."""

from __future__ import annotations

import re

import pytest

from genesel.papers import gentile2003 as G
from genesel.papers import gentile2003_claims as GC


def _breast_block() -> list:
    """Breast's block of the extracted Table 1: numbers (percent) and '—' in text order, between Colon's "all" row
    (ending "13.0%") and Prostate's first value."""
    text = G._PAPER_TABLE1_TEXT
    start = text.index("13.3%|13.0%|6.1%") + len("13.3%|13.0%|")
    end = text.index("— 15.8% 10.0%") + len("— 15.8% 10.0%")
    return [None if t == "—" else float(t[:-1]) for t in re.findall(r"—|\d+\.\d%", text[start:end])]


def test_breasts_block_is_complete_without_alma_fs_own_value():
    """18 numbers and 9 dashes: the 20-gene row (three values, one dash), the FS row's three dashes, then five rows of
    three values and one dash whose last is the "all" row with the table's identities (ALMA_2 twice, 15.8; ln-RFE =
    ln-CORR on all genes, 10.0). Reading 6.5 as ALMA-FS's value instead leaves the "all" row one value short."""
    toks = _breast_block()
    assert sum(t is not None for t in toks) == 18 and toks.count(None) == 9
    first, fs_row, rest = toks[:4], toks[4:7], toks[7:]
    assert first.count(None) == 1 and fs_row == [None, None, None]
    groups = [rest[i:i + 4] for i in range(0, len(rest), 4)]
    assert len(groups) == 5 and all(len(g) == 4 and g.count(None) == 1 for g in groups)
    assert [t for t in groups[-1] if t is not None] == [15.8, 15.8, 10.0]
    paper = G.paper_table1().set_index(["dataset", "genes", "algorithm"]).paper_error
    assert paper["Breast", "all", "2-RFE"] == 15.8 and paper["Breast", "all", "ln-CORR"] == 10.0
    # the cell module's reading: 6.5 as the FS row's value
    alt = toks[7:]
    assert alt[0] == 6.5
    alt_groups = [alt[i:i + 4] for i in range(1, len(alt), 4)]
    assert len(alt_groups[-1]) == 3, "with 6.5 as ALMA-FS's value the 'all' row is one value short"


def test_breast_alma_fs_value_is_the_one_number_outside_every_block():
    """The one percentage between the row labels and the "2-RFE" header, printed alone (Colon's 12.7 %, at the top of
    the table, comes with the dash its block lacks): ALMA-FS's Breast value, and the cell module reads it so."""
    toks = [t.strip() for t in G._PAPER_TABLE1_TEXT.split("|") if t.strip()]
    head = toks[:toks.index("2-RFE")]
    labels_end = max(i for i, t in enumerate(head) if t == "ALL")
    assert [t for t in head[labels_end + 1:] if t.endswith("%")] == ["9.5%"]
    assert head[1:3] == ["12.7%", "—"]
    paper = G.paper_table1().set_index(["dataset", "genes", "algorithm"]).paper_error
    assert paper["Breast", "FS", "FS"] == 9.5


@pytest.mark.parametrize("key", list(GC.READING_FIXES))
def test_a_pending_reading_fix_is_still_pending(key):
    """An entry of READING_FIXES corrects the cell module's value until the cell module is fixed; then it must go."""
    wrong, right, _ = GC.READING_FIXES[key]
    value = G.paper_table1().set_index(["dataset", "genes", "algorithm"]).paper_error[key]
    assert value != right, f"genesel.papers.gentile2003 now reads {key} as {right}: remove it from READING_FIXES"
    assert value == wrong, f"genesel.papers.gentile2003 reads {key} as {value}, neither {wrong} nor {right}"
