"""Shah, Marchand & Corbeil (2012): which cells of Tables 1-5 genesel's committed full run compares, by which rule,
and what the tests account for (read by :mod:`genesel.records.agreement`).

The printed numbers are those of :mod:`genesel.papers.shah2012` (``paper_table1`` ... ``paper_table5``); genesel's
are the full run's ``figures/shah2012_table1.csv`` ... ``table5.csv``. Cells: Table 1, nine per data set (SVM, SVM+gs
and its genes, SVM+rfe and its genes, AdaBoost's rounds and errors, L0 and its genes) on nine data sets (Bone
Lesion's row is garbled in the text); Table 2, seven per data set (Occam, SC and PAC-Bayes errors and stumps) on
nine; Table 3, seven (fixed and variable margin: stumps, errors, bound) on nine; Table 4, eight per MNIST pair on
four; Table 5, each gene of the final PAC-Bayes classifier.

The rule: errors (means over 20 permutations of a nested 5-fold CV, or one permutation's in Table 3) and bounds
in samples within 1; genes, stumps and rounds within 1 or 10 %; a Table 5 gene agrees when genesel's final
classifier uses the same probe. Not compared: B_MD, Celiac, Colon-epi and Bone Lesion(s) (not public), Lung
(genesel's copy is Garber's 47 × 3171 set in place of the paper's 52 × 918), BreastER's L0 cells (illegible in the
text), the MNIST pairs (the paper's ~2400 images per pair are not the 10,000-image test set's ~2000 that genesel
uses: another sample of the task, where one image is not one of the paper's), and the Table 5 genes of Colon and
BreastER (genesel's copies name their genes by position only).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from genesel.records.agreement import Explained, count_rule, exact, judged, not_comparable, size_rule

__all__ = ["PAPER", "NOTEBOOKS", "EXPLAINED", "cells"]

PAPER = "Shah 2012"
NOTEBOOKS = {"04_shah2012_stumps": ("shah2012", ("shah2012_*.csv",))}

_DIFF = "tests/papers/test_shah2012_differences.py::"
_LABELS = ("the paper's near-chance Leukemia errors match labels paired by sample number with the column order of "
           "Golub's files (14 of 72 flipped): on those labels genesel's protocol gives 14-24 errors, but still 1.5-8 "
           "below the paper's, about the gap it has on Colon")

EXPLAINED: tuple[Explained, ...] = (
    Explained(r"^Table [12]$", r"^Leuk: (?:SVM|SVM\+gs|SVM\+rfe|L0|Occam|SC) errors$",
              _DIFF + "test_protocol_on_mistaken_labels_closes_the_leukemia_gap", _LABELS, kind="unresolved"),
    Explained(r"^Table 5$", r"^Leuk: M84526_at",
              _DIFF + "test_table5_genes_fit_the_mistaken_labels_and_not_the_correct_ones",
              "on labels paired by sample number with the files' column order (14 of 72 flipped), genesel's own "
              "final PAC-Bayes classifier starts with adipsin (M84526_at), as the paper's does"),
    Explained(r"^Table 5$", r"^Leuk: (?:U34360_at|M16937_at)",
              _DIFF + "test_table5_genes_fit_the_mistaken_labels_and_not_the_correct_ones",
              "on the mistaken labels the paper's three genes are a near-perfect conjunction (LAF-4 among the 3 best "
              "second stumps), on the correct ones LAF-4 and HOXC1 add nothing; genesel's classifier is not shown to "
              "pick them", kind="unresolved"),
)

_PROTOCOL = "20 permutations × 5-fold CV, nested 5-fold CV"
_T3_PROTOCOL = "one permutation × 5-fold CV"
_SUBSTITUTE = ("substitute data set: genesel's Lung is Garber's 47 × 3171 UniGene clusters, not the paper's 52 × 918 "
               "set, which is not public")
_MNIST = ("another sample of the task: the paper's pair has {paper} images; genesel's is the {ours} of the "
          "10,000-image MNIST test set, so one image here is not one of the paper's")
_UNNAMED = "genesel's copy of {ds} names its genes by position only ({probe}), the paper by accession"
_GARBLED = "garbled in the text (the row's values cannot be assigned to columns)"

#: Table 1: (printed column, genesel column, kind) in the printed order
_T1 = (("SVM", "SVM errors", "errors"), ("SVM+gs", "SVM+gs errors", "errors"), ("SVM+gs S", "SVM+gs genes", "size"),
       ("SVM+rfe", "SVM+rfe errors", "errors"), ("SVM+rfe S", "SVM+rfe genes", "size"),
       ("AdaBoost itrs", "AdaBoost rounds", "size"), ("AdaBoost", "AdaBoost errors", "errors"),
       ("L0", "L0 errors", "errors"), ("L0 S", "L0 genes", "size"))
_T2 = (("Occam", "Occam errors", "errors"), ("Occam S", "Occam stumps", "size"), ("SC", "SC errors", "errors"),
       ("SC S", "SC stumps", "size"), ("PAC-Bayes S", "PAC-Bayes stumps", "size"),
       ("PAC-Bayes G-errs", "PAC-Bayes Gibbs errors", "errors"),
       ("PAC-Bayes B-errs", "PAC-Bayes Bayes errors", "errors"))
#: Table 3 (one permutation): sizes and bounds are means over the folds printed to the unit, errors the total over
#: the five test folds (exact counts), the Gibbs errors an expected count (printed to the unit in the paper)
_T3 = (("fixed size", "fixed size", "size"), ("fixed errors", "fixed errors", "count"),
       ("fixed bound", "fixed bound", "bound"), ("variable size", "variable size", "size"),
       ("variable G-errs", "variable Gibbs errors", "errors"), ("variable B-errs", "variable Bayes errors", "count"),
       ("variable bound", "variable bound", "bound"))
_T4 = (("SVM-rfe", "SVM+rfe error"), ("SVM-rfe S", "SVM+rfe size"), ("L0", "L0 error"), ("L0 S", "L0 size"),
       ("PAC-Bayes S", "PAC-Bayes size"), ("PAC-Bayes G-errs", "PAC-Bayes Gibbs error"),
       ("PAC-Bayes B-errs", "PAC-Bayes error"), ("PAC-Bayes bound", "PAC-Bayes bound"))
_WORDS = {"errors": "errors", "count": "errors", "size": None, "bound": "bound (x samples)"}


def _quantity(ds: str, col: str, kind: str) -> str:
    name = {"SVM+gs S": "SVM+gs genes", "SVM+rfe S": "SVM+rfe genes", "AdaBoost itrs": "AdaBoost rounds",
            "L0 S": "L0 genes", "Occam S": "Occam stumps", "SC S": "SC stumps", "PAC-Bayes S": "PAC-Bayes stumps",
            "PAC-Bayes G-errs": "PAC-Bayes Gibbs errors", "PAC-Bayes B-errs": "PAC-Bayes Bayes errors",
            "variable G-errs": "variable margin Gibbs errors", "variable B-errs": "variable margin Bayes errors",
            "fixed size": "fixed margin stumps", "fixed errors": "fixed margin errors",
            "fixed bound": "fixed margin bound (x samples)", "variable size": "variable margin stumps",
            "variable bound": "variable margin bound (x samples)"}.get(col)
    return f"{ds}: {name or col + ' ' + _WORDS[kind]}"


def _legible(text) -> bool:
    s = str(text).replace("*", "").replace("±", "").replace("-", "").strip(" .")
    return any(ch.isdigit() for ch in s)


def _missing(ds: str) -> str | None:
    from genesel.papers.shah2012 import MISSING_DATASETS

    key = "Bone Lesion" if ds.startswith("Bone Lesion") else ds
    if key in MISSING_DATASETS:
        return "not public: " + MISSING_DATASETS[key]
    if ds == "Lung":
        return _SUBSTITUTE
    return None


def _table(table: str, paper: pd.DataFrame, ours: pd.DataFrame | None, spec, protocol: str) -> list[dict]:
    out = []
    ours = None if ours is None else ours.set_index("data set")
    for _, r in paper.iterrows():
        ds = r["dataset"]
        reason = _missing(ds)
        for col, gcol, kind in spec:
            q, pv = _quantity(ds, col, kind), r[col]
            g = "" if ours is None or ds not in ours.index else ours.loc[ds, gcol]
            if reason is None and ours is not None and ds not in ours.index:
                reason = "not in the committed table"
            if reason is not None:
                out.append(not_comparable(table, q, pv, g, reason, protocol=protocol))
            elif not _legible(pv):
                out.append(not_comparable(table, q, pv, g, "illegible in the text", protocol=protocol))
            else:
                if kind == "size":
                    rule = size_rule(str(pv).replace("*", ""), g)
                elif kind == "count":
                    rule = count_rule(exact(pv), exact(g))
                else:  # a mean, or a bound, as printed
                    rule = count_rule(str(pv), g)
                out.append(judged(table, q, pv, g, rule, protocol=protocol))
    return out


def _read(figures: Path, name: str) -> pd.DataFrame | None:
    path = figures / f"shah2012_{name}.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False) if path.exists() else None


def _probe(gene: str) -> str:
    """The probe set of a printed Table 5 gene ("M84526_at-DF D component ..." -> "M84526_at")."""
    return gene.split("-", 1)[0].split(" ", 1)[0].strip()


def _norm(probe: str) -> str:
    return probe.replace("-", "_").lower()


def cells(figures: Path) -> list[dict]:
    """Every printed cell of Tables 1-5 with its verdict."""
    from genesel.papers import shah2012 as S

    figures = Path(figures)
    t1, t2, t3, t4, t5 = (_read(figures, f"table{k}") for k in range(1, 6))
    out = []
    if t1 is not None:
        out += _table("Table 1", S.paper_table1(), t1, _T1, _PROTOCOL)
        # Bone Lesion's Table 1 row is garbled in the text (the cell module leaves it out)
        out += [not_comparable("Table 1", _quantity("Bone Lesion", col, kind), "garbled", "",
                               f"{_GARBLED}; and {_missing('Bone Lesion')}", protocol=_PROTOCOL)
                for col, _, kind in _T1]
    if t2 is not None:
        out += _table("Table 2", S.paper_table2(), t2, _T2, _PROTOCOL)
    if t3 is not None:
        out += _table("Table 3", S.paper_table3(), t3, _T3, _T3_PROTOCOL)
    if t4 is not None:
        ours = t4.set_index("pair")
        for _, r in S.paper_table4().iterrows():
            ds = r["dataset"]
            n_ours = ours.loc[ds, "samples"] if ds in ours.index else "?"
            for col, gcol in _T4:
                g = ours.loc[ds, gcol] if ds in ours.index else ""
                shown = repr(r[col]) if isinstance(r[col], float) else r[col]
                out.append(not_comparable("Table 4", f"{ds}: {col}", shown, g,
                                          _MNIST.format(paper=int(r["ex"]), ours=n_ours),
                                          protocol="one nested 5-fold CV"))
    if t5 is not None:
        finals = t5[t5.probe.astype(str).str.len() > 0].groupby("data set").probe.apply(list).to_dict()
        for ds, genes in S.paper_table5().items():
            ours = finals.get(ds, [])
            shown = ", ".join(ours) or "–"
            for gene in genes:
                q = f"{ds}: {gene}"
                reason = _missing(ds)
                if reason is None and ds in ("Colon", "BreastER"):
                    reason = _UNNAMED.format(ds=ds, probe=shown)
                if reason is not None:
                    out.append(not_comparable("Table 5", q, "in the final classifier", shown, reason,
                                              protocol="final PAC-Bayes classifier, parameters by 5-fold CV"))
                    continue
                hit = _norm(_probe(gene)) in {_norm(p) for p in ours}
                out.append(judged("Table 5", q, "in the final classifier", shown,
                                  (hit, "the same probe in genesel's final classifier"),
                                  protocol="final PAC-Bayes classifier, parameters by 5-fold CV"))
    return out
