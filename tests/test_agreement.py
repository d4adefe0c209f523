"""The count of reproduced, explained and unexplained cells (issue 27): genesel.records.agreement."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from genesel.records import agreement as A

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"


def _row(quantity, paper, genesel, protocol="", note=""):
    return pd.Series({"quantity": quantity, "protocol": protocol, "paper": paper, "genesel": genesel, "note": note})


@pytest.mark.parametrize("stem, row, table, verdict", [
    # one test sample of Leukemia's 34 is 2.94 points: the thesis' truncated 82.3 % is our 28/34
    ("tan2006_ch4", _row("Leukemia: SVM test accuracy, all genes (Table 4.2)", "82.3%", "82.35% (28/34)", "merged"),
     "Table 4.2", "agrees"),
    ("tan2006_ch4", _row("Colon: SVM test accuracy, all genes (Table 4.2)", "76.7%", "70.00% (21/30)", "merged"),
     "Table 4.2", "differs"),
    ("tan2006_ch4", _row("Colon: SVM test accuracy, all genes (Table 4.2)", "76.7%", "73.33% (22/30)", "merged"),
     "Table 4.2", "differs"),  # 3.37 points, more than one of 30 samples (3.33)
    ("tan2006_ch4", _row("Colon: SVM test accuracy, all genes (Table 4.2)", "76.7%", "76.67% (23/30)", "merged"),
     "Table 4.2", "agrees"),
    ("tan2006_ch4", _row("Colon: SVM test accuracy, all genes (Table 4.2)", "76.7%", "73.33% (22/30)", "train-only"),
     "Table 4.2", "unbiased variant"),
    # every part of a composite cell must agree: same accuracy, 416 genes against 2 is not
    ("tan2006_ch4", _row("Colon: SVM-RFE, optimal subsets by test / test acc. / biomarker size (Table 4.2)",
                         "53 / 83.3% / 416", "6 / 83.3% / 2", "merged"), "Table 4.2", "differs"),
    ("tan2006_ch5", _row("Colon: RVM, leave-one-fold-out accuracy (errors) (Table 5.6)", "83.9% (10)", "82.3% (11)",
                         "merged, 10 folds"), "Table 5.6", "agrees"),
    ("tan2006_ch5", _row("Colon: RVM, leave-one-fold-out accuracy (errors) (Table 5.6)", "83.9% (10)", "80.6% (12)",
                         "merged, 10 folds"), "Table 5.6", "differs"),
    ("tan2006_ch5", _row("Colon: stability S of SMLR (Tables 5.3, 5.5)", "0.24", "0.26", "merged, 10 folds"),
     "Table 5.3, 5.5", "agrees"),
    ("tan2006_ch5", _row("Colon: stability S of SMLR (Tables 5.3, 5.5)", "0.24", "0.27", "merged, 10 folds"),
     "Table 5.3, 5.5", "differs"),
    ("shah2012", _row("Colon: PAC-Bayes Gibbs errors", "14.68±1.8", "14.4 ± 2.2"), "Table 1", "agrees"),
    ("shah2012", _row("Leuk: SVM errors", "21.3±1.4", "1.6 ± 0.7"), "Table 1", "differs"),
    ("shah2012", _row("Lung: SVM errors", "8.8±1.3", "1.6 ± 0.7", note="substitute data set (47 x 3171)"), "Table 1",
     "not comparable"),
    ("shah2012", _row("BreastER: L0 errors", "illegible in our copy", "13.0 ± 3.8"), "Table 1", "not comparable"),
    ("shah2012", _row("Colon: Table 3 bound, variable / fixed margin (x samples)", "33.0 / 34.0", "34.0 / 34.5"),
     "Table 3", "agrees"),
    # an error rate averaged over splits of Leukemia's 72 samples: 1.39 points; and the genes kept, 1 or 10 %
    ("gentile2003", _row("Leukemia: all genes, ALMA_2", "3.5 %", "4.8 %"), "Table 1", "agrees"),
    ("gentile2003", _row("Leukemia: all genes, ALMA_2", "3.5 %", "5.0 %"), "Table 1", "differs"),
    ("gentile2003", _row("Leukemia: ALMA-FS test error (mean genes kept)", "3.0 % (26.5 genes)",
                         "3.2 % (14.1 genes), α = 0.6"), "Table 1", "differs"),
    ("gentile2003", _row("Leukemia: ALMA-FS test error (mean genes kept)", "3.0 % (26.5 genes)",
                         "3.2 % (24.5 genes), α = 0.6"), "Table 1", "agrees"),
    ("tan2006_ch3", _row("AUC Colon, SVM", "≈ 0.85", "0.812 (95 % CI 0.69–0.91)"), "Figure 3.8", "agrees"),
    ("tan2006_ch3", _row("AUC Colon, SVM", "≈ 0.95", "0.812 (95 % CI 0.69–0.91)"), "Figure 3.8", "differs"),
    ("guyon2002", _row("colon, SVM-RFE with 4 genes: leave-one-out accuracy", "98 % (1 error of 62)",
                       "88.7 % (7 errors of 62)", "paper's (genes selected on all samples, then LOO)"),
     "abstract claims", "differs"),
    ("guyon2002", _row("leukemia, baseline: best result 1 leave-one-out error, first reached with 64 genes",
                       "1 error, first with 64 genes", "0 errors, first with 8 genes",
                       "paper's (genes selected on all samples, then LOO)"), "abstract claims", "differs"),
    ("helleputte2009", _row("insensitive to the choice of B", "insensitive", "holds partly"), "claims (slides)",
     "claim holds partly"),
])
def test_the_rule_judges_each_kind_of_cell(stem, row, table, verdict):
    assert A._judge(stem, row) == (table, verdict)


def _defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_every_explained_difference_names_a_test_that_exists_and_a_row_that_differs():
    rows = A.judge_rows(FIGURES, explained=())
    for e in A.EXPLAINED:
        file, _, name = e.test.partition("::")
        assert (ROOT / file).exists(), f"{e.test}: no such test file"
        assert name.split("[")[0] in _defined_tests(ROOT / file), f"{e.test}: no such test"
        stem_papers = A._PAPERS[e.csv]
        hit = rows[(rows.paper == stem_papers) & rows.quantity.str.contains(e.quantity, regex=True)
                   & (rows.protocol.str.contains(e.protocol, regex=True) if e.protocol else True)]
        assert len(hit), f"{e.quantity!r} names no row of {e.csv}_paper_vs_genesel.csv"
        assert (hit.verdict == "unexplained").any(), (
            f"{e.quantity!r}: every row it names agrees with the paper now; the entry is stale")


def test_change_a_number_and_the_count_changes(tmp_path):
    figs = tmp_path / "figures"
    figs.mkdir()
    shutil.copy(FIGURES / "tan2006_ch5_paper_vs_genesel.csv", figs)
    before = A.tally(figs).set_index("table")
    t = pd.read_csv(figs / "tan2006_ch5_paper_vs_genesel.csv", dtype=str, keep_default_na=False)
    i = t.index[t.quantity.str.contains("Table 5.4") & (t.paper == t.genesel.str.split(" ").str[0])][0]
    t.loc[i, "genesel"] = "50.00% (1 gene)"
    t.to_csv(figs / "tan2006_ch5_paper_vs_genesel.csv", index=False)
    after = A.tally(figs).set_index("table")
    assert after.loc["Table 5.4", "agrees"] == before.loc["Table 5.4", "agrees"] - 1
    assert after.loc["Table 5.4", "unexplained"] == before.loc["Table 5.4", "unexplained"] + 1
    # and a test that names the new difference moves it to "explained"
    e = A.Explained("tan2006_ch5", re.escape(t.loc[i, "quantity"]), "tests/test_agreement.py::x", "made up")
    again = A.tally(figs, explained=(e,)).set_index("table")
    assert again.loc["Table 5.4", "explained"] == 1
    assert again.loc["Table 5.4", "unexplained"] == before.loc["Table 5.4", "unexplained"]
    # a test showing the paper's number cannot come from its protocol counts apart
    e = A.Explained("tan2006_ch5", re.escape(t.loc[i, "quantity"]), "tests/test_agreement.py::x", "made up",
                    kind="not from the protocol")
    apart = A.tally(figs, explained=(e,)).set_index("table")
    assert apart.loc["Table 5.4", "not from the protocol"] == 1 and apart.loc["Table 5.4", "explained"] == 0


def test_the_tally_counts_every_row_once():
    rows = A.judge_rows(FIGURES)
    n = sum(len(pd.read_csv(FIGURES / f"{s}_paper_vs_genesel.csv")) for s in A._PAPERS
            if (FIGURES / f"{s}_paper_vs_genesel.csv").exists())
    assert len(rows) == n
    t = A.tally(FIGURES)
    assert int(t.drop(columns=["paper", "table", "numeric cells"]).to_numpy().sum()) == n

