"""Files of other tools that genesel's readers do not read, recognised so that a notebook can say what the file is
and how to turn it into one they do read.

The readers (:mod:`genesel.expression_io`) take delimited text, GEO DataSet SOFT and Series Matrix files, GCT 1.2,
featureCounts output and AnnData ``.h5ad``. Two files that researchers commonly hold are none of these, and the
readers' own message about them names a symptom, not the file: an Excel workbook is a zip archive ("byte 15 is not
valid UTF-8 ... pass encoding='latin-1'", which would not help); a GCT file of version 1.3 (GenePattern, the Broad's
format) adds annotation columns and rows to the 1.2 layout the readers take (a version line, a dimensions line, a
Description column). Two more shapes of a
table exported by another tool are refused with a message that names a symptom only: a table preceded by comment
lines (``# exported by ...``), whose first comment the reader takes for the header ("no row named 'class'"), and a
genes x samples table whose gene ID is followed by annotation columns (a symbol, a description), refused at their
first word as "a non-numeric value". A comma-separated table whose numbers are quoted with a thousands comma
("1,100.5", a spreadsheet's formatted cells) stopped the reader with numpy's "could not broadcast input array",
and R's ``write.table`` (fields separated by spaces) with "no row named 'class'". Binary files of other tools
(a legacy ``.xls``, Parquet, Feather, R's ``.rds`` and ``.RData``, Matrix Market, JSON) were refused as text with a
wrong symptom ("not valid UTF-8 ... pass encoding='latin-1'", "a header line and at least one data line are
needed"); they are told by their first bytes.
:func:`foreign_format_hint` recognises each from the file's first bytes and lines (the annotation columns also from
the reader's message, which names the column it stopped at) and returns the conversion, which
:func:`genesel.papers.presentation.dataset_list` adds to the reader's message when reading fails.

:func:`covariate_genes` names a sample's covariate (age, batch, survival time, ...) kept in the expression table, which
the readers take for one more gene without a word; :func:`excel_mangled_genes` the gene symbols Excel turned into dates
(2-Sep, 1-Mar); :func:`missing_label_classes` a label a tool wrote for a missing one (R's ``NA``), and
:func:`case_variant_classes` one class spelled two ways (``Tumor``, ``tumor``). :func:`sample_sheet_hint` pairs a sample
sheet's IDs with the data's where they differ only in how a tool wrote them (leading zeros, a file extension, R's ``X``
prefix, case). The notebooks' parameter checks call this module; the readers call it for the labels only (they refuse
``NA`` classes and one class spelled two ways themselves, :func:`genesel.expression_io.read_expression`).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import lzma
import re
import shlex
from pathlib import Path

from genesel.delimited import DEFAULT_MISSING, sniff_separator, split_fields

__all__ = ["foreign_format_hint", "covariate_genes", "excel_mangled_genes", "missing_label_classes",
           "case_variant_classes", "sample_sheet_hint", "sequencing_quantities_note", "mostly_missing_note",
           "identical_samples", "identical_rows"]

#: names of a sample's covariates (clinical or technical), compared without case and with ``_``, ``-``, ``.`` and
#: spaces removed. None is a gene symbol (EFS, "event-free survival", is left out: it is also a gene, and one of
#: Subramanian's); no gene ID of any registered set is among them (checked by the tests).
COVARIATE_NAMES = frozenset({
    "age", "ageyears", "ageatdiagnosis", "sex", "gender", "bmi", "weight", "height", "batch", "time", "days",
    "months", "years", "survival", "survivaltime", "survivalmonths", "os", "ostime", "osmonths", "osstatus", "pfs",
    "pfstime", "dfs", "dfstime", "event", "status", "vitalstatus", "death", "dead", "stage", "grade", "dose",
    "smoking", "race", "ethnicity", "tumorsize", "tumoursize", "lymphnodes", "nodes", "relapse", "recurrence",
    # technical: RNA integrity, purity, sequencing depth, processing
    "rin", "rinscore", "rinvalue", "purity", "tumorpurity", "tumourpurity", "librarysize", "libsize", "totalreads",
    "mappedreads", "scandate", "plate", "lane", "flowcell",
})

#: Gene IDs as Excel rewrites gene symbols when it opens a text file (Zeeberg et al. 2004, BMC Bioinformatics 5:80;
#: Ziemann et al. 2016, Genome Biology 17:177): a date (SEPT2 -> 2-Sep, MARCH1 -> 1-Mar, DEC1 -> 1-Dec; in some
#: locales Sep-02) or a number in scientific notation (the RIKEN clone 2310009E13 -> 2.31E+13). No registered set's
#: gene ID matches (checked by the tests).
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
EXCEL_MANGLED = re.compile(rf"(?i)^(\d{{1,2}}-({_MONTHS})|({_MONTHS})-\d{{1,2}}|\d(\.\d+)?E\+\d{{1,3}})$")

#: Labels that name a missing value where a tool wrote one (R's write.csv writes NA, pandas' astype(str) "nan" or
#: "None"): the readers take a label for missing only when its cell is empty, so these become a class.
MISSING_LABELS = tuple(t for t in DEFAULT_MISSING if t) + ("None", "<NA>")


def _head(path: Path, n_bytes: int = 65536) -> bytes:
    with path.open("rb") as fh:
        raw = fh.read(n_bytes)
    opener = {b"\x1f\x8b": gzip.open, b"BZ": bz2.open, b"\xfd7": lzma.open}.get(raw[:2])
    if opener is not None:  # gzip (or R's bzip2 and xz compression): look inside
        try:
            with opener(path, "rb") as fh:
                raw = fh.read(n_bytes)
        except (OSError, EOFError, lzma.LZMAError):
            return b""
    return raw


#: What to do with a data frame read into pandas: genesel takes it as it is.
_AS_DATAFRAME = ("and pass the DataFrame to genesel.datasets.read_expression (in Python), or write it with "
                 ".to_csv('expression.csv') and read that (a notebook's datasets parameter)")


def _binary_format_hint(path: Path, raw: bytes) -> str | None:
    """A binary file of another tool, told by its first bytes (its "magic number"): an Excel workbook (a zip
    archive), a legacy one (an OLE2 compound document), Apache Parquet, Feather / Arrow IPC, R's saveRDS and save
    files, Matrix Market, JSON."""
    p = str(path)
    if raw.startswith(b"PK\x03\x04"):
        kind = "an Excel workbook" if b"xl/" in raw or path.suffix.lower() in (".xlsx", ".xlsm") else "a zip archive"
        return (f"{kind}, which genesel does not read (it reads CSV/TSV text, GEO SOFT and Series Matrix files and "
                ".h5ad). Save the sheet as CSV (in Excel: File > Save As > CSV UTF-8), or read it with "
                "pandas.read_excel and pass the DataFrame to genesel.datasets.read_expression")
    if raw.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return ("a legacy Excel workbook (.xls, an OLE2 compound document), which genesel does not read (it reads "
                "CSV/TSV text, GEO SOFT and Series Matrix files and .h5ad). Save the sheet as CSV (in Excel: File > "
                "Save As > CSV UTF-8), or read it with pandas.read_excel (needs xlrd) " + _AS_DATAFRAME)
    if raw.startswith(b"PAR1"):
        return (f"an Apache Parquet file, which genesel does not read: read it with pandas.read_parquet({p!r}) "
                "(needs pyarrow) " + _AS_DATAFRAME)
    if raw.startswith(b"ARROW1"):
        return (f"a Feather (Arrow IPC) file, which genesel does not read: read it with pandas.read_feather({p!r}) "
                "(needs pyarrow) " + _AS_DATAFRAME)
    r_save = re.match(rb"RD[XAB][23]\n", raw)
    if r_save or re.match(rb"[XAB]\n\x00\x00\x00[\x02\x03]|A\n[23]\n", raw):
        written = "R's save() (an .RData file)" if r_save else "R's saveRDS() (an .rds file)"
        return (f"an R data file written by {written}, which genesel does not read. Write its tables as CSV in R "
                "('condition' stands for the column holding your classes): for an ExpressionSet (Bioconductor) "
                "write.csv(exprs(x), 'expression.csv') and write.csv(pData(x)['condition'], 'samples.csv'); for a "
                "SummarizedExperiment or DESeqDataSet write.csv(assay(x), 'expression.csv') and "
                "write.csv(as.data.frame(colData(x))['condition'], 'samples.csv'). Then read expression.csv (genes "
                "as rows) with label='samples.csv' (a sample sheet: the sample IDs, then the classes); a matrix or "
                "data frame: write.csv(x, 'expression.csv') and name its label column or sheet as for any table")
    if raw.startswith(b"%%MatrixMarket"):
        return ("a Matrix Market sparse matrix (as in 10x Genomics' matrix.mtx, with features.tsv and barcodes.tsv "
                "beside it), which genesel does not read: a cells x genes count matrix is classified by sample, not by "
                "cell. Read the folder with scanpy (scanpy.read_10x_mtx), sum each sample's cells into one profile "
                "(pseudobulk counts), and write that as .h5ad or CSV")
    text = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] in (b"{", b"[") and path.suffix.lower() in (".json", ".gz", ""):
        return (f"a JSON file, which genesel does not read: read it with pandas.read_json({p!r}) (with the orient "
                "it was written with) " + _AS_DATAFRAME)
    return None


def _is_number(field: str) -> bool:
    """A number, or one of the readers' missing-value tokens."""
    if field in DEFAULT_MISSING:
        return True
    try:
        float(field)
    except ValueError:
        return False
    return True


#: a quoted number with comma-separated digit groups ("1,100.5"): a spreadsheet's formatted cell
_GROUPED_NUMBER = re.compile(r'"\s*[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?\s*"')


def _grouped_numbers_hint(path: Path, lines: list[str]) -> str | None:
    """A comma-separated table whose numbers are quoted with a thousands comma ("1,100.5", as a spreadsheet writes a
    formatted cell): the readers cut such a field in two. (With ';' between fields the mark is '.', which the
    reader's own message handles: decimal= and thousands=.)"""
    if len(lines) < 2 or sniff_separator(lines[:2]) != ",":
        return None
    hit = next((m.group(0) for ln in lines[1:] for m in _GROUPED_NUMBER.finditer(ln)), None)
    if hit is None:
        return None
    return (f"a table whose numbers are written with a thousands mark inside quotes ({hit}, as a spreadsheet saves a "
            "formatted cell), and the mark is also the separator ',': genesel's reader cannot split such a line. "
            f"Convert it with pandas: pd.read_csv({str(path)!r}, sep=',', thousands=',', decimal='.', index_col=0)"
            ".to_csv('plain.csv'), then read plain.csv (or save the sheet again with the numbers unformatted)")


def _space_separated_hint(path: Path, lines: list[str]) -> str | None:
    """A table whose fields are separated by single spaces (R's ``write.table`` by default: quoted names, and a
    header one field short, without the row names' column): the readers look for tabs, commas or semicolons."""
    head = [ln for ln in lines[:2] if ln.strip()]
    if len(head) < 2 or any(c in ln for ln in head for c in "\t,;"):
        return None
    n_head, n_row = (len(ln.split(" ")) for ln in head)
    if n_row < 3 or n_head not in (n_row - 1, n_row):
        return None
    return ("a table whose fields are separated by spaces (as R's write.table writes by default); the readers look "
            "for tabs, commas or semicolons. Pass sep=' ' (read_expression(..., sep=' ')); in a notebook add "
            f"sep=%20 to the file's reference, e.g. '{path}?sep=%20&label=class'")


def _trailing_separator_hint(path: Path, lines: list[str]) -> str | None:
    """Every line ends with the separator (some exporters write so): the reader sees an empty last column, a gene
    without a name or a value."""
    head = [ln for ln in lines[:20] if ln.strip()]
    if len(head) < 2:
        return None
    sep = next((c for c in "\t,;" if all(ln.endswith(c) for ln in head)), None)
    if sep is None:
        return None
    return (f"a table whose every line ends with the separator {sep!r}, which makes an empty last column (a gene "
            "without a name or a value). Remove the trailing separators, e.g. with pandas: "
            f"pd.read_csv({str(path)!r}, sep={sep!r}, index_col=0).dropna(axis=1, how='all').to_csv('trimmed.csv'), "
            "then read trimmed.csv")


def _duplicate_genes_hint(path: Path, error: str = "") -> str:
    """A file whose gene IDs repeat (the reader refuses it and names them): how to make them unique; or, when the
    repeated IDs are Excel's dates (MARCH1 and MARC1 both become 1-Mar), that averaging them would merge two genes."""
    named = re.search(r"duplicated gene ID\(s\) \[([^\]]*)\]", error)
    mangled = excel_mangled_genes(re.findall(r"'([^']*)'", named.group(1))) if named else []
    if mangled:
        return (f"a table whose repeated gene IDs ({', '.join(repr(g) for g in mangled[:5])}) are dates, the way "
                + EXCEL_DATES_NOTE + " Collapsing the repeats would average different genes")
    if path.suffix.lower() == ".h5ad":
        return ("an AnnData file whose var_names repeat (gene symbols shared by several features). Make them unique "
                "and write the file again: adata.var_names_make_unique() (repeats get -1, -2, ...), or name the "
                "genes by a unique column, e.g. adata.var_names = adata.var['gene_ids']")
    return ("a table in which one gene ID names several genes (typically probes of one gene under its symbol). Keep "
            "unique IDs (probe set or Ensembl IDs) in the file, or collapse the repeats first, e.g. with pandas on "
            "a genes x samples table: df.groupby(level=0).mean()")


def _empty_series_matrix_hint(path: Path, raw: bytes, error: str) -> str | None:
    """A GEO Series Matrix file whose table has a header and no line of values: a series (most RNA-seq ones) whose
    data are deposited as supplementary files, which the reader refused as "a header line and at least one data line
    are needed". Names the supplementary files and the samples' characteristics a sample sheet can be made of."""
    if "at least one data line are needed" not in error:
        return None
    lines = [ln.rstrip("\r") for ln in raw.decode("utf-8", errors="replace").split("\n")]
    begin = next((i for i, ln in enumerate(lines) if ln.startswith("!series_matrix_table_begin")), None)
    if begin is None or not any(ln.startswith("!series_matrix_table_end") for ln in lines[begin + 1:begin + 3]):
        return None

    def values(key):
        return [v.strip('"') for ln in lines if ln.startswith(key + "\t") for v in ln.split("\t")[1:] if v.strip('"')]

    files = [f.rsplit("/", 1)[-1] for f in values("!Series_supplementary_file")]
    keys = list(dict.fromkeys(v.split(":", 1)[0].strip() for v in values("!Sample_characteristics_ch1") if ":" in v))
    titles, accessions = values("!Sample_title"), values("!Sample_geo_accession")
    return ("a GEO Series Matrix file whose table holds no values: the series deposits its data as supplementary "
            "files (as most RNA-seq series do" + (f": {', '.join(files[:4])}" if files else "") + "). Download the "
            "table of values (counts: genes x samples) from the series' page and read it with a sample sheet: the "
            "sample IDs as that table names them (here the samples' titles are "
            + ", ".join(repr(t) for t in titles[:3]) + (", ..." if len(titles) > 3 else "")
            + (f" and their accessions {', '.join(accessions[:2])}, ..." if accessions else "") + "), then the class"
            + (f" (this file's sample characteristics: {', '.join(repr(k) for k in keys[:6])})" if keys else ""))


def _no_id_column_hint(path: Path, lines: list[str], error: str, label=None) -> str | None:
    """A samples x genes table written without sample IDs (pandas' ``to_csv(index=False)``), its labels' column
    first: the reader takes the first column for the IDs, so the label is "no column" there, or (without a label)
    the IDs repeat as the classes do."""
    if not isinstance(label, str) or f"no column named {label!r} to read the labels" not in error:
        return None
    body = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(body) < 2:
        return None
    sep = sniff_separator(body[:2])
    if split_fields(body[0], sep)[0].strip().lstrip("\ufeff") != label:
        return None
    return (f"a samples x genes table without a column of sample IDs: its first column, {label!r}, holds the labels, "
            "and the readers take a table's first column for the IDs (a table written by pandas with index=False?). "
            f"Add IDs with pandas, pd.read_csv({str(path)!r}, sep={sep!r}).to_csv('with_ids.csv', "
            f"index_label='sample'), and read with_ids.csv with label={label!r} (the samples are then named 0, 1, "
            "2, ... in the file's order); or write the table again with the samples' own IDs")


def _comment_lines_hint(path: Path, lines: list[str]) -> str | None:
    """A delimited table preceded by comment lines (``#`` first): how many, and the pandas line that skips them."""
    n = 0
    while n < len(lines) and lines[n].lstrip("\ufeff").startswith("#"):
        n += 1
    if n == 0 or n >= len(lines) - 1:
        return None
    sep = sniff_separator(lines[n:n + 2])
    header, first_row = (split_fields(ln, sep) for ln in lines[n:n + 2])
    if len(header) < 2 or len(first_row) != len(header):
        return None
    return (f"a table preceded by {n} comment line{'s' if n > 1 else ''} starting with '#' (a note of the tool that "
            "exported it), which genesel's readers take for the table's header. Convert it with pandas: "
            f"pd.read_csv({str(path)!r}, sep={sep!r}, skiprows={n}, index_col=0).to_csv('expression.csv'), then "
            "read expression.csv with the same label and sample sheet")


#: the per-sample columns of an Illumina GenomeStudio (BeadStudio) export, "<sample>.AVG_Signal" and its companions
_GENOMESTUDIO = re.compile(r"\.(AVG_Signal|Detection[ _]?Pval|BEAD_STD(?:ERR|EV)|Avg_NBEADS|NARRAYS|ARRAY_STDEV)$",
                           re.IGNORECASE)


def _genomestudio_hint(path: Path, lines: list[str]) -> str | None:
    """An Illumina GenomeStudio (BeadStudio) export: for each sample an ``<sample>.AVG_Signal`` column (the
    expression) beside its ``Detection Pval``, ``BEAD_STDERR`` and ``Avg_NBEADS`` columns, which the readers would take
    for samples of their own; often after a few lines of the tool's notes. Name the layout and the pandas line that
    keeps the signals, named by their samples."""
    for n, line in enumerate(lines):
        if "avg_signal" not in line.lower():
            continue
        sep = "\t" if "\t" in line else ","
        try:
            fields = split_fields(line, sep)
        except csv.Error:  # not a text line (a binary file's bytes)
            continue
        tags = [m.group(1) for f in fields if (m := _GENOMESTUDIO.search(f))]
        signals = [t for t in tags if t.lower() == "avg_signal"]
        others = sorted({t for t in tags if t.lower() != "avg_signal"})
        if len(signals) >= 2 and others:
            return (f"an Illumina GenomeStudio export (its header, line {n + 1}: for each of {len(signals)} samples a "
                    f"column <sample>.AVG_Signal, the expression, beside {', '.join(others)} columns), whose every "
                    "column the readers would take for a sample. Keep the signals, named by their samples, with "
                    f"pandas: df = pd.read_csv({str(path)!r}, sep={sep!r}, skiprows={n}, index_col=0); "
                    r"sig = df.filter(regex=r'\.AVG_Signal$'); sig.columns = sig.columns.str.replace(r'\.AVG_Signal$', "
                    "'', regex=True); sig.to_csv('expression.csv'), then read expression.csv (genes as rows; raw "
                    "intensities are logged) with your sample sheet")
    return None


def _hdf5_hint(path: Path, error: str) -> str | None:
    """An HDF5 file that is not AnnData: a loom file, or a 10x Genomics feature-barcode matrix (``matrix`` group)."""
    if "HDF5 file that anndata cannot read" not in error:
        return None
    try:
        import h5py

        with h5py.File(path, "r") as f:
            keys = set(f.keys())
            tenx = "matrix" in keys and isinstance(f["matrix"], h5py.Group)
    except (ImportError, OSError):
        return None
    if path.suffix.lower() == ".loom" or {"matrix", "row_attrs", "col_attrs"} <= keys:
        return ("a loom file, which genesel does not read: convert it with anndata (with loompy installed: pip "
                f"install loompy), anndata.io.read_loom({str(path)!r}).write_h5ad('expression.h5ad') (its columns "
                "become the observations, i.e. the samples), then read expression.h5ad")
    if tenx:
        return ("a 10x Genomics feature-barcode matrix (cells x genes counts), which genesel does not read: its "
                "methods classify samples, not cells. Read it with scanpy (scanpy.read_10x_h5), sum each sample's "
                "cells into one profile (pseudobulk counts), and write that as .h5ad or CSV")
    return None


def _transposed_anndata_hint(path: Path, error: str, label=None) -> str | None:
    """An AnnData file holding the samples as variables and the genes as observations (an R or Seurat export, a
    matrix written genes x samples): the labels' column is in ``var``, not ``obs``, which the reader named as
    "no obs column"."""
    if "no obs column" not in error or not isinstance(label, str):
        return None
    try:
        import anndata

        adata = anndata.read_h5ad(path, backed="r")
        in_var = label in adata.var.columns
        shape = adata.shape
        adata.file.close()
    except Exception:  # noqa: BLE001 - no hint if the file cannot be opened this way
        return None
    if not in_var:
        return None
    return (f"an AnnData file whose observations are the genes and variables the samples ({shape[0]} x {shape[1]}; "
            f"{label!r} is a var column): AnnData holds samples as observations. Transpose it and write it again, "
            f"anndata.read_h5ad({str(path)!r}).T.write_h5ad('samples_as_obs.h5ad'), then read that file")


def _annotation_columns_hint(path: Path, lines: list[str], error: str, label=None, groups=None) -> str | None:
    """A genes x samples table whose first columns after the gene ID hold text (a symbol, a description), where the
    reader stopped at a non-numeric value in one of them: name those columns and the pandas line that drops them.
    When ``label`` (the labels' column) is one of those text columns, the table holds the samples as rows and the
    other text columns are the samples' (a donor, a batch): name them and ``groups=`` instead."""
    stopped = re.search(r"column '([^']*)' \(field (\d+)", error)
    if "non-numeric value" not in error or stopped is None:
        return None
    body = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(body) < 3:
        return None
    sep = sniff_separator(body[:2])
    header, *rows = (split_fields(ln, sep) for ln in body[:21])  # quoted fields may hold the separator
    rows = [r for r in rows if len(r) == len(header)]
    if not rows:
        return None
    is_text = [not any(_is_number(r[i]) for r in rows) for i in range(len(header))]
    n_leading = next((i for i in range(1, len(header)) if not is_text[i]), len(header)) - 1  # text right after the ID
    names = header[1:1 + n_leading]
    n_numeric_after = sum(not t for t in is_text[1 + n_leading:])
    col = stopped.group(1)
    if isinstance(label, str) and label in header[1:] and col != label and col in header \
            and is_text[header.index(col)]:  # the samples are rows: the other text columns are the samples' too
        others = [c for i, c in enumerate(header) if i and is_text[i] and c != label]
        covariates = [c for c in covariate_genes(header[1:]) if c != label and c not in others]
        seen = list(dict.fromkeys(r[header.index(col)] for r in rows))[:3]
        if isinstance(groups, str) and groups not in header and not Path(groups).is_file():
            import difflib

            near = difflib.get_close_matches(groups, header[1:], n=1, cutoff=0.6)
            named = (f" Note that groups={groups!r} names no column of the file"
                     + (f": did you mean {near[0]!r}? (names are matched with their case)" if near else ""))
        else:
            named = ""
        also = (f" Its numeric column{'s' if len(covariates) > 1 else ''} {', '.join(repr(c) for c in covariates)} "
                f"{'are' if len(covariates) > 1 else 'is'} named like a sample's covariate, which the readers would "
                f"take for a gene: leave {'them' if len(covariates) > 1 else 'it'} out too." if covariates else "")
        return (f"a samples x genes table with {len(others)} text column{'s' if len(others) > 1 else ''} besides its "
                f"labels ({label!r}): {', '.join(repr(c) for c in others)}, which the readers take for genes "
                f"({col!r} holds {', '.join(repr(v) for v in seen)}, ...). If {col!r} names each sample's patient or "
                f"donor (their samples kept together in every split), pass groups={col!r} (a notebook's -p groups "
                f"{shlex.quote(col)}); otherwise leave the column out, e.g. with pandas: pd.read_csv({str(path)!r}, "
                f"sep={sep!r}, index_col=0).drop(columns={others + covariates!r}).to_csv('expression.csv').{also} "
                f"(The reader's 'did you mean label=' does not apply: the labels are given.){named}")
    if not names or stopped.group(1) not in names or n_numeric_after < 2:
        return None
    return (f"a genes x samples table whose gene ID ({header[0]!r}) is followed by {len(names)} annotation "
            f"column{'s' if len(names) > 1 else ''} ({', '.join(repr(c) for c in names)}), which genesel's readers "
            "take for samples. Convert it with pandas: "
            f"pd.read_csv({str(path)!r}, sep={sep!r}, index_col=0).drop(columns={names!r}).to_csv('expression.csv'), "
            "then read expression.csv with the same label and sample sheet (the annotation is dropped; keep the "
            "columns in a file of your own to name the genes)")


def covariate_genes(gene_ids) -> list[str]:
    """The gene IDs of a file that name a sample's covariate (:data:`COVARIATE_NAMES`: age, sex, batch, survival
    time, stage, ...), in their order. A numeric covariate kept in the expression table (a column ``age`` beside the
    genes of a samples x genes file, or a row ``batch`` among a genes x samples file's genes) is read as one more gene,
    without a word, and a selector may then pick it; the notebooks' parameter check refuses such a file by name."""
    return [g for g in map(str, gene_ids) if re.sub(r"[\s_.\-]", "", g).lower() in COVARIATE_NAMES]


EXCEL_DATES_NOTE = (
    "Excel turns gene symbols into dates when it opens a text file (SEPT2 becomes 2-Sep, MARCH1 and MARC1 both 1-Mar, "
    "DEC1 1-Dec; RIKEN IDs such as 2310009E13 become 2.31E+13): those genes can no longer be named, and two may share "
    "a name. Take the file from its source again without opening it in Excel (or import the gene column as text), "
    "or name the genes by their probe or Ensembl IDs.")


def excel_mangled_genes(gene_ids) -> list[str]:
    """The gene IDs of a file that are gene symbols Excel turned into dates or numbers (:data:`EXCEL_MANGLED`), in
    their order. The readers keep them as names without a word; the notebooks' parameter check refuses such a file."""
    return [g for g in map(str, gene_ids) if EXCEL_MANGLED.match(g.strip())]


def missing_label_classes(classes) -> list[str]:
    """The class names that are a tool's spelling of a missing value (:data:`MISSING_LABELS`: NA, NaN, None, ...)."""
    return [c for c in map(str, classes) if c.strip() in MISSING_LABELS]


def case_variant_classes(classes) -> list[list[str]]:
    """Groups of class names that differ only in letter case or in spaces (``Tumor`` and ``tumor``, ``ER +`` and
    ``ER+``): one class spelled two ways, which the readers take for two."""
    groups: dict[str, list[str]] = {}
    for c in map(str, classes):
        groups.setdefault(re.sub(r"\s+", "", c).casefold(), []).append(c)
    return [g for g in groups.values() if len(g) > 1]


_EXTENSIONS = re.compile(r"(\.(cel|chp|txt|bam|sam|cram|fastq|fq|h5|gz|bz2))+$", re.I)


def _canonical_id(s: str) -> str:
    """A sample ID written the way tools rewrite it away: case folded, file extensions (.CEL, .bam, .fastq.gz)
    dropped, R's ``X`` before a leading digit (``make.names``) dropped, ``-``, ``_``, ``.`` and spaces alike, and
    leading zeros of every number dropped (Excel reads 001 as 1)."""
    s = _EXTENSIONS.sub("", s.strip())
    s = re.sub(r"^X(?=\d)", "", s)
    s = re.sub(r"[\s_.\-]+", ".", s.casefold())
    return re.sub(r"(?<!\d)0+(?=\d)", "", s)


def _data_sample_ids(path: Path) -> list[str]:
    """The sample IDs a delimited table or an .h5ad may hold: its header's fields after the first and the first
    field of every line (a samples x genes table names its samples there); [] where the file cannot be looked at."""
    if path.suffix.lower() == ".h5ad":
        try:
            import anndata

            return [str(x) for x in anndata.read_h5ad(path, backed="r").obs_names]
        except Exception:  # noqa: BLE001 - only a hint: the reader's own message stands
            return []
    from genesel.delimited import iter_lines

    try:
        lines = [text for _, text in iter_lines(path, prefix=256, max_lines=200_000)]
    except (ValueError, OSError):
        return []
    lines = [ln for ln in lines if ln and not ln.startswith(("#", "!"))]
    if len(lines) < 2:
        return []
    sep = sniff_separator(lines[:2])
    header = split_fields(_head(path).decode("utf-8", "replace").split("\n")[0].lstrip("\ufeff"), sep)
    return header[1:] + [ln.split(sep, 1)[0].strip().strip('"') for ln in lines[1:]]


def _unrecognised_sheet_header(sheet: Path, stray: list, ids) -> str | None:
    """The sheet's first line is its header, but its first cell is not a name the reader takes for a header (an SRA
    run table's ``Run``, ``BioSample``, ``Sample_Name``, a ``Barcode``), so that line was read as a sample."""
    if not sheet.is_file():
        return None
    lines = [ln for ln in _head(sheet).decode("utf-8", "replace").splitlines() if ln.strip()][:3]
    if len(lines) < 2:
        return None
    sep = sniff_separator(lines[:2])
    first, second = (split_fields(ln, sep) for ln in lines[:2])
    name = first[0].strip().lstrip("\ufeff")
    if stray != [name] or second[0].strip() not in set(map(str, ids)):
        return None
    shown = ", ".join(repr(c) for c in first[:4]) + (", ..." if len(first) > 4 else "")
    return (f"the sheet's first line ({shown}) is its header, but the reader takes a first line for a header only "
            f"when its first cell names the sample column as sample, sample_id, id, name or gsm, so {name!r} was read "
            f"as a sample. Rename {name!r} to 'sample' in the sheet (its second column, {first[1]!r}, is read as the "
            "labels: put the column of classes second)")


def sample_sheet_hint(data_path, error: str) -> str | None:
    """Where a sample sheet (of labels or groups) names samples the data does not hold (the reader's message names a
    few): when the sheet's IDs match the data's once written alike (:func:`_canonical_id`: leading zeros Excel
    dropped, a file extension, R's ``X`` prefix, case or separators), which sheet ID is which data ID."""
    named = re.search(r"for sample\(s\) \[([^\]]*)\] that are not in", error)
    if named is None or not Path(data_path).is_file():
        return None
    ids = _data_sample_ids(Path(data_path))
    stray = re.findall(r"'([^']*)'", named.group(1))
    if not ids or not stray:
        return None
    sheet = re.search(r"sample sheet (.+?): (?:label|group)\(s\) for sample\(s\)", error)
    header = _unrecognised_sheet_header(Path(sheet.group(1)), stray, ids) if sheet else None
    if header is not None:
        return header
    canon: dict[str, list[str]] = {}
    for d in ids:
        canon.setdefault(_canonical_id(d), []).append(d)
    pairs = [(s, canon[_canonical_id(s)][0]) for s in stray if len(canon.get(_canonical_id(s), [])) == 1]
    if len(pairs) == len(stray):
        shown = ", ".join(f"{s!r} is {d!r}" for s, d in pairs[:3])
        return (f"the sheet's sample IDs are the data's written another way ({shown}, ...: leading zeros that Excel "
                "dropped, a file extension, R's X prefix, letter case or separators): write the sheet's first "
                "column as the data names its samples")
    return None


#: The share of exact zeros above which non-negative values that are not whole numbers look like sequencing
#: quantities (RSEM or salmon expected counts, TPM) rather than microarray intensities (none of the registry's has a 0).
SEQUENCING_ZEROS = 0.05


def sequencing_quantities_note(ds) -> str | None:
    """A sentence for a file read as raw intensities (``ds.scale == "raw-intensity"``, decided, not given) whose
    values look like RNA-seq quantities that are not whole numbers (RSEM or salmon expected counts, TPM: non-negative
    with at least :data:`SEQUENCING_ZEROS` exact zeros): they are logged as intensities, without a library-size
    normalisation, unless ``scale=counts`` is given. None otherwise."""
    import numpy as np

    if ds.scale != "raw-intensity" or str(ds.extra.get("scale_reason", "")).startswith("scale="):
        return None
    X = np.asarray(ds.X, dtype=float)
    X = X[np.isfinite(X)]
    if not X.size or X.min() < 0:
        return None
    zeros = float(np.mean(X == 0))
    if zeros < SEQUENCING_ZEROS:
        return None
    return (f"These values look like RNA-seq quantities, not intensities: non-negative, {100 * zeros:.0f} % exact "
            "zeros, not whole numbers (RSEM or salmon expected counts, TPM). If they are, add scale=counts to the "
            "file's reference to normalise them by library size (TMM) before the log.")


def foreign_format_hint(path, error: str | None = None, label=None, groups=None) -> str | None:
    """What ``path`` is and how to convert it, if it is an Excel workbook (or another zip archive; a legacy .xls),
    Parquet, Feather, an R data file, a Matrix Market matrix, JSON, a GEO Series Matrix without values, an Illumina
    GenomeStudio export, a GCT file of version 1.3, a table preceded by comment lines, a table
    of quoted numbers whose thousands mark is the separator, a table separated by spaces, or (given the reader's message
    ``error``) a genes x samples table with annotation columns after the gene ID (the message names the column it
    stopped at; given ``label``, the labels' column, a samples x genes table's other text columns instead), a table
    whose lines end with the separator, or a file whose gene IDs repeat; None otherwise (including a path that is not
    a file)."""
    path = Path(path)
    if not path.is_file():
        return None
    raw = _head(path)
    hint = _binary_format_hint(path, raw)
    if hint is not None:
        return hint
    text_lines = [ln.rstrip("\r") for ln in raw.decode("utf-8", errors="replace").split("\n")[:60]]
    lines = text_lines[:3]
    first = lines[0].lstrip("\ufeff") if lines else ""
    if first.startswith("# Program:featureCounts"):  # read directly (its comment lines are not a foreign header)
        return None
    if first.startswith("#1.3"):
        return ("a GCT file of version 1.3 (GenePattern), which genesel does not read as it is (it reads version "
                "1.2): its first two lines (the version and the dimensions), its Description column and the "
                "annotation columns and rows 1.3 adds are not part of the table. Convert it with pandas (then drop "
                "the annotation columns and rows too): "
                f"pd.read_csv({str(path)!r}, sep='\\t', skiprows=2, index_col=0).drop(columns='Description')"
                ".to_csv('expression.csv'), then read expression.csv (genes as rows)")
    hint = (_genomestudio_hint(path, text_lines) or _comment_lines_hint(path, text_lines)
            or _grouped_numbers_hint(path, text_lines)
            or _space_separated_hint(path, text_lines))
    if hint is None and error:
        hint = (_hdf5_hint(path, error) or _transposed_anndata_hint(path, error, label)
                or _empty_series_matrix_hint(path, raw, error) or _no_id_column_hint(path, text_lines, error, label)
                or _annotation_columns_hint(path, text_lines, error, label, groups))
    if hint is None and error and "gene '' has no value" in error:
        hint = _trailing_separator_hint(path, text_lines)
    if hint is None and error and "duplicated gene ID" in error:
        hint = _duplicate_genes_hint(path, error)
    return hint


#: A sample (or gene) missing more than this share of its values is named: imputing it would invent most of it.
MOSTLY_MISSING = 0.5


def mostly_missing_note(ds) -> str | None:
    """A sentence naming the samples and genes of ``ds`` that miss more than :data:`MOSTLY_MISSING` of their values
    (a failed array, a probe measured in a few samples), with their counts: the KNN imputation fills a value from the
    samples nearest on the genes both have, so such a sample's profile would be mostly invented. None when there is
    none."""
    import numpy as np

    nan = np.isnan(ds.X)
    if not nan.any():
        return None
    parts, named = [], 0
    for axis, ids, what, of in ((1, ds.sample_ids, "sample", "genes"), (0, ds.gene_ids, "gene", "samples")):
        counts = nan.sum(axis=axis)
        bad = np.flatnonzero(counts > MOSTLY_MISSING * nan.shape[axis])
        if bad.size:
            bad = bad[np.argsort(-counts[bad], kind="stable")]
            shown = ", ".join(f"{ids[i]} ({int(counts[i])} of its {nan.shape[axis]} {of})" for i in bad[:3])
            more = f" and {bad.size - 3} more" if bad.size > 3 else ""
            one = bad.size == 1
            parts.append(f"{bad.size} {what}{'' if one else 's'} miss{'es' if one else ''} more than half "
                         f"{'its' if one else 'their'} values: {shown}{more}")
            named += int(bad.size)
    if not parts:
        return None
    return ("; ".join(parts) + ". Imputation would invent most of such a profile: consider leaving "
            + ("it" if named == 1 else "them") + " out of the file")


def identical_samples(ds) -> list[list[str]]:
    """The samples of ``ds`` that hold the same value for every gene, as lists of their IDs (two or more each), in
    the file's order; missing values compare equal to missing values. Two arrays of one study never agree to the last
    digit on thousands of genes: such samples are one array entered twice (a copy-and-paste, a sample sheet listing a
    file twice), and a copy on both sides of a split makes the error look better than it is."""
    return [[str(ds.sample_ids[i]) for i in rows] for rows in identical_rows(ds.X)]


def identical_rows(X) -> list[list[int]]:
    """Indices of the rows of ``X`` equal in every column (missing equal to missing), grouped, in order."""
    import hashlib

    import numpy as np

    seen: dict = {}
    for i in range(len(X)):  # a row at a time: no copy of the matrix
        row = np.asarray(X[i], dtype=np.float64) + 0.0  # -0.0 as 0.0
        row[np.isnan(row)] = np.nan  # one bit pattern for every missing value
        seen.setdefault(hashlib.sha256(row.tobytes()).digest(), []).append(i)
    return [rows for rows in seen.values() if len(rows) > 1]
