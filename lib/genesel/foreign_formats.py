"""Files of other tools that genesel's readers do not read, recognised so that a notebook can say what the file is
and how to turn it into one they do read.

The readers (:mod:`genesel.expression_io`) take delimited text, GEO DataSet SOFT and Series Matrix files and
AnnData ``.h5ad``. Three files that researchers commonly hold are none of these, and the readers' own message about
them names a symptom, not the file: an Excel workbook is a zip archive ("byte 15 is not valid UTF-8 ... pass
encoding='latin-1'", which would not help); featureCounts' output starts with a comment line and carries five
annotation columns (Chr, Start, End, Strand, Length) before the samples; a GCT file (GenePattern, the Broad's
format) starts with a version line and a dimensions line and has a Description column. :func:`foreign_format_hint`
recognises them from the file's first bytes and lines and returns the conversion, which
:func:`genesel.papers.presentation.dataset_list` adds to the reader's message when reading fails.

Only the notebooks' parameter checks call this module, not the readers: the readers are part of every
leaderboard cell's cache key, and a full rerun of those cells is under way. Reading these formats directly belongs
in :mod:`genesel.expression_io` and waits for the next version.
"""

from __future__ import annotations

import gzip
from pathlib import Path

__all__ = ["foreign_format_hint"]

#: featureCounts' annotation columns, between the gene ID and the first sample.
FEATURECOUNTS_COLUMNS = ("Chr", "Start", "End", "Strand", "Length")


def _head(path: Path, n_bytes: int = 65536) -> bytes:
    with path.open("rb") as fh:
        raw = fh.read(n_bytes)
    if raw[:2] == b"\x1f\x8b":  # gzip: look inside
        try:
            with gzip.open(path, "rb") as fh:
                raw = fh.read(n_bytes)
        except OSError:
            return b""
    return raw


def foreign_format_hint(path) -> str | None:
    """What ``path`` is and how to convert it, if it is an Excel workbook (or another zip archive), featureCounts
    output or a GCT file; None otherwise (including a path that is not a file)."""
    path = Path(path)
    if not path.is_file():
        return None
    raw = _head(path)
    if raw.startswith(b"PK\x03\x04"):
        kind = "an Excel workbook" if b"xl/" in raw or path.suffix.lower() in (".xlsx", ".xlsm") else "a zip archive"
        return (f"{kind}, which genesel does not read (it reads CSV/TSV text, GEO SOFT and Series Matrix files and "
                ".h5ad). Save the sheet as CSV (in Excel: File > Save As > CSV UTF-8), or read it with "
                "pandas.read_excel and pass the DataFrame to genesel.datasets.read_expression")
    lines = [ln.rstrip("\r") for ln in raw.decode("utf-8", errors="replace").split("\n")[:3]]
    first = lines[0].lstrip("\ufeff") if lines else ""
    header = next((ln for ln in lines if ln and not ln.startswith("#")), "")
    if first.startswith("# Program:featureCounts") or header.split("\t")[1:6] == list(FEATURECOUNTS_COLUMNS):
        samples = header.split("\t")[6:8]
        return ("featureCounts output, which genesel does not read as it is: its first line is a comment and its "
                "columns Chr, Start, End, Strand and Length describe the genes, not samples. Convert it with pandas: "
                f"pd.read_csv({str(path)!r}, sep='\\t', comment='#', index_col=0).drop(columns=['Chr', 'Start', "
                "'End', 'Strand', 'Length']).to_csv('counts.csv'), then read counts.csv (genes as rows, counts "
                "are recognised). A sample sheet must name the samples as the file does"
                + (f" ({', '.join(repr(s) for s in samples)}, ...)" if samples else ""))
    if first.startswith("#1.3") or (first.startswith("#1.2") and len(lines) > 2
                                     and lines[2].split("\t")[:2] == ["Name", "Description"]):
        return ("a GCT file (GenePattern), which genesel does not read as it is: its first two lines (the version "
                "and the dimensions) and its Description column are not part of the table (version 1.3 adds more "
                "annotation columns and rows: drop them too). Convert it with pandas: "
                f"pd.read_csv({str(path)!r}, sep='\\t', skiprows=2, index_col=0).drop(columns='Description')"
                ".to_csv('expression.csv'), then read expression.csv (genes as rows)")
    return None
