"""A researcher's own expression data as a :class:`~genesel.dataset.Dataset`: CSV/TSV in either orientation, GEO
DataSet SOFT and Series Matrix files, AnnData ``.h5ad``, a pandas DataFrame, NumPy arrays.

:func:`read_expression` is the one entry point (``genesel.datasets.load_dataset`` hands it any file, through a
:class:`genesel.dataref.DataRef`). What comes back is what the registered sets give: ``X`` samples x genes (float64,
read-only), ``y`` coded -1/+1 for two classes (``classes`` names them: the first in sorted order, or the order you
give, is -1) or 0..K-1 for more, the gene and sample identifiers, ``groups`` (one group per sample, where asked
for), ``scale`` (log, raw intensities or counts) and, where the file has them, gene symbols
(``Dataset.extra["symbols"]``). ``extra`` also records the source file, its sha256 (a file's identity in the grid
cache is its content, not its path), the orientation chosen and why, how the scale was decided, and anything left
out.

Formats (chosen by the file's content, not only its name; ``.gz`` is read transparently):

- **CSV/TSV** (``,`` / tab / ``;``): identifiers in the first column and the header row. ``rows="auto"`` decides
  which axis holds the samples: a ``label`` column or row names the sample axis; otherwise identifiers that look like
  probe sets, Ensembl/RefSeq/Entrez IDs or gene symbols mark the gene axis and ones that look like GEO/TCGA sample
  accessions mark the sample axis; if the identifiers do not decide, the longer axis is taken for the genes
  (arrays have far more genes than samples). ``extra["orientation_reason"]`` says which rule decided. Force it with
  ``rows="samples"`` or ``rows="genes"``. Labels come from a column (or row) ``label="class"``, or from a sample
  sheet whose path is given as ``label`` (columns: sample ID, label, and any others; a header row is recognised).
  ``groups`` names a column (or row) of the table or of the sample sheet, or a sheet of its own (sample ID, group).
- **GEO DataSet SOFT** (``GDSxxxx.soft.gz``, "full" or not): the value table between ``!dataset_table_begin`` and
  ``!dataset_table_end`` (``ID_REF`` the probe IDs, ``IDENTIFIER`` the gene symbols), labels from the subsets of one
  ``!subset_type``, e.g. ``label="disease state"``, groups from another, e.g. ``groups="individual"``.
- **GEO Series Matrix** (``GSExxxx_series_matrix.txt.gz``): the table between ``!series_matrix_table_begin`` and
  ``!series_matrix_table_end``; labels (and groups) from a ``!Sample_characteristics_ch1`` key (``label="tissue"``
  reads the values of ``"tissue: ..."``) or another ``!Sample_`` field (``label="source_name_ch1"``), matched to the
  table's columns by sample accession (``!Sample_geo_accession``), never by position.
- **GCT** (GenePattern, version 1.2): a version line, a dimensions line (checked), then ``Name``, ``Description``
  and one column per sample (genes as rows); labels and groups from a sample sheet.
- **featureCounts** output (RNA-seq read counts per gene): its comment lines, ``Geneid``, the five annotation
  columns (``Chr``, ``Start``, ``End``, ``Strand``, ``Length``; dropped) and one column per sample named as its BAM
  file; genes as rows, labels and groups from a sample sheet. The counts are recognised (``scale="counts"``).
- **AnnData** ``.h5ad`` (read with ``anndata``): labels and groups from ``obs`` columns, gene IDs from
  ``var_names``, symbols from a ``var`` column named like a symbol column (``gene_symbols``, ``symbol``, ...); the
  values from ``X``, or from ``layers[layer]``, or from ``.raw`` with ``layer="raw"`` (scanpy's values before
  scaling; a scaled ``X`` beside a ``.raw`` is read with a warning).

Text is decoded strictly (UTF-8, with or without a byte-order mark, or the ``encoding`` given) and read within caps
on size and line length, in bounded memory (:mod:`genesel.delimited`). Numbers are written with a decimal point
unless ``decimal=','`` (and ``thousands=`` for a thousands separator) says otherwise.

Why a parser of our own for GEO's two text formats, and not GEOparse: GEOparse reads SOFT families (and DataSets)
but not Series Matrix files, its errors do not name the line at fault, and it brings an HTTP client for downloads
genesel does not do; both formats are a header of ``!key = value`` lines around one tab-separated table.

Bad files are refused with a ``ValueError`` naming the file and the line, column or sample at fault: ragged rows,
a non-numeric or boolean cell (with its cause where it can be told: a decimal comma, a thousands separator, a column
of labels), duplicated gene or sample IDs, samples without a label or a group, a sample sheet naming a sample that is
not in the data, one class, more than two classes (unless asked for), a gene with no value at all, bytes that are not
in the file's encoding, a truncated gzip, a file that is not HDF5.

Missing values: in expression data the cells ``missing`` lists (default: empty, ``NA``, ``NaN``, ``nan``, ``null``,
``NULL``, ``N/A``, ``n/a``, ``#N/A``; ``-`` and ``?`` are not among them); a label or group is missing only when its
cell is empty, so ``-`` can name a class, but a label a tool writes for a missing one (``NA``, ``NaN``, ``None``) and
one class spelled two ways (``Tumor``, ``tumor``) are refused unless ``classes`` settles them. Missing values are kept
as NaN in the Dataset (``extra["missing_values"]`` counts them): they are imputed inside each training part of a
protocol, by a transformer fitted on that part only (:class:`genesel.preprocessing.MissingValueImputer`, which
:func:`genesel.datasets.recommended_preprocessing` puts in for a file with missing values), so the samples a model is
tested on never shape the values it is trained on. ``impute="knn"`` instead fills them once over the whole file
(gene-wise KNNimpute, Troyanskaya et al. 2001: label-free, but every sample informs every other), which is what a
registered set with missing values (Alizadeh's lymphoma) gets by default.

More than two classes are refused with a message listing them, unless chosen: ``classes=[a, b]`` keeps a two-class
task (the samples of the other classes are left out, ``extra["left_out"]`` counts them), ``classes=[a, b, c]`` those
three (coded 0..2 in that order), ``classes="all"`` every class (coded 0..K-1 in sorted order) for the methods that
accept more than two (:data:`MULTICLASS_METHODS`; genesel's other estimators, those of the five papers, separate two
classes). Class names may hold any character; in a reference string they follow the quoting rule of
:mod:`genesel.dataref`.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import unicodedata
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from genesel.dataref import DataRef, file_sha256, is_file_reference, is_sheet
from genesel.dataset import Dataset
from genesel.delimited import DEFAULT_MISSING, Limits, count_lines, iter_lines, parse_table, sniff_separator, \
    split_fields
from genesel.imputation import knn_impute_genes

__all__ = ["read_expression", "looks_like_path", "MULTICLASS_METHODS", "file_sha256", "parse_reference",
           "make_reference"]

#: The public genesel estimators that accept more than two classes (``tests/test_expression_io.py`` fits every
#: public estimator on three classes and checks this list, in ``genesel.__all__`` order): SMLR's multinomial model
#: (Krishnapuram et al. 2005); ALMA and its selectors and the stump conjunctions one class against the rest,
#: AdaBoost one-vs-rest or as SAMME, and OneVsRestSelector around any binary selector (genesel._core.multiclass); the
#: one-vs-rest SVMs and the rankings built on them (SVM-RFE, MSVM-RFE, l2-AROM), the filters (Fisher's BSS/WSS,
#: one-vs-rest signal-to-noise, ANOVA F, Kruskal-Wallis), Golub's voting one against the rest, the random forests,
#: the multi-class Laplace GP and its ARD selectors, RVM and DWD one against the rest with the RVM/SMLR selectors, and
#: DLDA (Dudoit et al. 2002), PAM's shrunken centroids (Tibshirani et al. 2002). Every other classifier and selector
#: separates two classes and refuses more; the transformers take any labels.
MULTICLASS_METHODS = ("ALMA", "ALMAFS", "ALMARFE", "DWD", "FisherSelector", "SignalToNoiseSelector",
                      "GaussianProcessClassifier", "SVMRFE", "RVM", "SMLR", "KernelSVM", "LinearSVM", "GolubVoting",
                      "L2AROM", "MSVMRFE", "GPARDFS", "GPARDRFE", "RVMSelector", "SMLRSelector", "OccamStumps",
                      "SampleCompressionStumps", "PACBayesStumps", "AdaBoostStumps", "RFBackwardSelector",
                      "SmallForestClassifier", "OneVsRestSelector", "ANOVASelector", "KruskalWallisSelector",
                      "DLDA", "ShrunkenCentroids")
#: Multi-class tools of scikit-learn a user would otherwise pick (named in the message for a multi-class file).
SKLEARN_MULTICLASS = ("LogisticRegression", "LinearSVC (one-vs-rest)", "RandomForestClassifier",
                      "KNeighborsClassifier", "SelectKBest(f_classif)")

#: Whether a value names a file (the reference's rule, :func:`genesel.dataref.is_file_reference`).
looks_like_path = is_file_reference

# identifiers that look like genes (probe sets, gene databases, symbols) or like samples (accessions, barcodes)
_GENE_PATTERNS = [re.compile(p) for p in (
    r"^\d+_(?:[a-z]_)?(?:s_|x_|f_|i_|g_|r_)?at$", r"^[A-Za-z]{1,2}\d{4,}(?:_[a-z0-9]+)*[-_]at$", r"^AFFX[-_]",
    r"^ILMN_\d+$", r"^ENS[A-Z]*G\d{6,}", r"^N[MR]_\d+", r"^X[MR]_\d+", r"^A_\d+_P\d+$", r"^Hs\.\d+$",
    r"^LOC\d+$", r"^hsa-(?:miR|let)-", r"^(?:gene|probe|feature|pixel)[_.-]?\d+", r"^cg\d{8}$")]
_SAMPLE_PATTERNS = [re.compile(p, re.I) for p in (
    r"^GSM\d+$", r"^TCGA-", r"^(?:sample|patient|subject|case|control|tumou?r|normal|s|t10k)[ _.-]?\d+$",
    r"\.cel(?:\.gz)?$")]


def make_reference(path, **options) -> str:
    """The reference string of a file and its reading options (:meth:`genesel.dataref.DataRef.to_string`), e.g.
    ``"study.csv?label=class&classes=ER+,ER-"``: what a notebook parameter, a grid cell or
    :func:`genesel.datasets.load_dataset` accepts wherever a registered name is accepted."""
    return DataRef.of(path, **options).to_string()


def parse_reference(ref) -> tuple[str, dict]:
    """(path, reading options) of a reference string, by :mod:`genesel.dataref`'s quoting rule."""
    r = DataRef.of(ref)
    return r.source, r.options()


# ---------------------------------------------------------------------------------------------------------------
# what a file is
# ---------------------------------------------------------------------------------------------------------------

_HDF5 = b"\x89HDF\r\n\x1a\n"


def _is_hdf5(path: Path) -> bool:
    with path.open("rb") as fh:
        for off in (0, 512, 1024, 2048):
            fh.seek(off)
            if fh.read(8) == _HDF5:
                return True
    return False


def _kind(path: Path, encoding, limits: Limits) -> str:
    if _is_hdf5(path):
        return "h5ad"
    if path.name.lower().endswith(".h5ad"):
        with path.open("rb") as fh:
            head = fh.read(16)
        why = "it is empty" if not head else f"it starts with {head!r}"
        if head.startswith(b"\x1f\x8b"):
            why = "it is gzip-compressed: decompress it first (gunzip)"
        raise ValueError(f"{path}: not an HDF5 file, which an .h5ad file is ({why}): a truncated download, or a file "
                         "of another format renamed?")
    head = [t for _, t in iter_lines(path, encoding=encoding, limits=limits, max_lines=400, prefix=64,
                                     budget=8 * 2**20)]
    if not head:
        raise ValueError(f"{path}: the file is empty")
    if any(ln.startswith(("^DATASET", "!dataset_table_begin")) for ln in head):
        return "gds"
    if any(ln.startswith(("!Series_", "!series_matrix_table_begin")) for ln in head):
        return "series_matrix"
    if head[0].lstrip("\ufeff").startswith("#1.2") and len(head) > 2 and head[2].split("\t")[:2] == ["Name",
                                                                                                    "Description"]:
        return "gct"
    first_row = next((ln for ln in head if not ln.startswith("#")), "")
    if head[0].lstrip("\ufeff").startswith("# Program:featureCounts") or \
            tuple(first_row.split("\t")[1:6]) == FEATURECOUNTS_COLUMNS:
        return "featurecounts"
    if head[0].startswith("^"):
        raise ValueError(f"{path}: a GEO SOFT file that is not a DataSet (GDS) file ({head[0][:40]!r}); download the "
                         "DataSet SOFT file (GDSxxxx.soft.gz) or the Series Matrix file (GSExxxx_series_matrix.txt.gz)")
    return "table"


def _check_unique(ids, what, where):
    ids = pd.Index(ids)
    dup = ids[ids.duplicated()]
    if len(dup):
        shown = list(dict.fromkeys(dup.astype(str)))[:5]
        note = ""
        if what == "gene":
            from genesel.foreign_formats import EXCEL_DATES_NOTE, excel_mangled_genes

            dates = excel_mangled_genes(shown)
            if dates:
                note = f". {', '.join(repr(d) for d in dates)}: {EXCEL_DATES_NOTE}"
        raise ValueError(f"{where}: duplicated {what} ID(s) {shown}: every {what} needs its own identifier{note}")


# ---------------------------------------------------------------------------------------------------------------
# orientation
# ---------------------------------------------------------------------------------------------------------------


def _gene_like(ids) -> float:
    ids = [str(i) for i in ids][:2000]
    if not ids:
        return 0.0
    return float(np.mean([any(p.search(i) for p in _GENE_PATTERNS) for i in ids]))


def _sample_like(ids) -> float:
    ids = [str(i) for i in ids][:2000]
    if not ids:
        return 0.0
    return float(np.mean([any(p.search(i) for p in _SAMPLE_PATTERNS) for i in ids]))


def _orientation(row_ids, col_ids, rows: str, *, label_at=None, sheet_ids=None):
    """('samples' or 'genes' for the rows, the reason). In order: ``rows`` if given; the axis that holds the label
    column or row (``label_at``: ``("column", name)`` or ``("row", name)``); the axis that holds the sample sheet's
    sample IDs; identifiers that look like genes or samples; the longer axis is the genes."""
    if rows in ("samples", "genes"):
        return rows, f"rows={rows!r} given"
    if rows != "auto":
        raise ValueError(f"rows must be 'auto', 'samples' or 'genes', got {rows!r}")
    if label_at is not None:
        return ("samples", f"the label column {label_at[1]!r}") if label_at[0] == "column" else \
            ("genes", f"the label row {label_at[1]!r}")
    if sheet_ids is not None:
        ids = set(map(str, sheet_ids))
        in_rows = np.mean([str(i) in ids for i in row_ids]) if len(row_ids) else 0.0
        in_cols = np.mean([str(c) in ids for c in col_ids]) if len(col_ids) else 0.0
        if in_rows != in_cols and max(in_rows, in_cols) >= 0.5:
            return ("samples", "the sample sheet names the row identifiers") if in_rows > in_cols else \
                ("genes", "the sample sheet names the column identifiers")
    r_gene, c_gene = _gene_like(row_ids), _gene_like(col_ids)
    r_samp, c_samp = _sample_like(row_ids), _sample_like(col_ids)
    if (c_samp >= 0.8 and r_samp < 0.2) or (r_gene >= 0.8 and c_gene < 0.2):
        return "genes", (f"row identifiers look like genes ({100 * r_gene:.0f} %) or column identifiers like "
                         f"samples ({100 * c_samp:.0f} %)")
    if (r_samp >= 0.8 and c_samp < 0.2) or (c_gene >= 0.8 and r_gene < 0.2):
        return "samples", (f"column identifiers look like genes ({100 * c_gene:.0f} %) or row identifiers like "
                           f"samples ({100 * r_samp:.0f} %)")
    n_r, n_c = len(row_ids), len(col_ids)
    if n_r == n_c:
        raise ValueError("cannot tell samples from genes: the identifiers do not decide and the table is square; "
                         "pass rows='samples' or rows='genes'")
    rows_are = "genes" if n_r > n_c else "samples"
    return rows_are, (f"the identifiers do not decide; the longer axis ({max(n_r, n_c)} entries) is taken for "
                      "the genes")


# ---------------------------------------------------------------------------------------------------------------
# sample sheets, labels and groups
# ---------------------------------------------------------------------------------------------------------------

_SHEET_HEADERS = ("sample", "samples", "sample_id", "sampleid", "id", "sample id", "name", "gsm", "")


def _read_sheet(path: Path, encoding, limits) -> dict:
    """A sample sheet: the sample IDs (first column), the labels (second column) and, when it has a header row, every
    column by name. A header is recognised when its first cell reads like a column name (``sample``, ``id``, ...)."""
    where = f"sample sheet {path}"
    lines = [t for _, t in iter_lines(path, encoding=encoding, limits=limits) if t.strip()]
    if not lines:
        raise ValueError(f"{where}: empty (no lines); it needs two columns: sample ID, label")
    sep = sniff_separator(lines[:2])
    rows = [split_fields(t, sep) for t in lines]
    width = len(rows[0])
    if width < 2:
        raise ValueError(f"{where}: needs at least two columns (sample ID, label), got {width} (separator {sep!r})")
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"{where}: line {i + 1} has {len(r)} fields but line 1 has {width} (separator {sep!r})")
    header = None
    if len(rows) > 1 and rows[0][0].lower() in _SHEET_HEADERS:
        header, rows = rows[0], rows[1:]
    _check_unique([r[0] for r in rows], "sample", where)
    return _sheet(path, header, rows)


def _sheet(path: Path, header, rows) -> dict:
    """A sample sheet's parts: the sample IDs (first column), the labels (second), every column by its header name
    (when it has a header) and the rows as read."""
    columns = {h: [r[j] for r in rows] for j, h in enumerate(header)} if header else {}
    return dict(path=path, ids=[r[0] for r in rows], label=[r[1] for r in rows], header=header, columns=columns,
                raw=rows)


def _sheet_values(sheet: dict, column, sample_ids, where: str, what: str) -> np.ndarray:
    """The sheet's values (its label column, or the column named ``column``) for ``sample_ids``; '' where the sheet
    names no value. A sheet naming samples that are not in the data is refused."""
    path = sheet["path"]
    if column is None:
        vals = sheet["label"]
    elif column in sheet["columns"]:
        vals = sheet["columns"][column]
    else:
        have = f"its columns are {list(sheet['columns'])}" if sheet["header"] else "it has no header row"
        raise ValueError(f"sample sheet {path}: no column {column!r} to read the {what} from; {have}")
    known = set(map(str, sample_ids))
    stray = [s for s in sheet["ids"] if s not in known]
    if stray:
        raise ValueError(f"sample sheet {path}: {what}(s) for sample(s) {stray[:5]} that are not in {where}: check the "
                         "sample IDs (the sheet's first column must match the data's sample identifiers)")
    lab = dict(zip(sheet["ids"], vals))
    return np.array([lab.get(str(s), "") for s in sample_ids], dtype=object)


def _sheet_cells(sheet: dict) -> list:
    """Every cell of a sheet's rows (its header too): where the samples are named when its first column is not the
    data's IDs (:func:`_settle_sheet`), for telling the table's sample axis."""
    return list(sheet["header"] or []) + [c for r in sheet["raw"] for c in r]


def _settle_sheet(sheet: dict, sample_ids) -> dict:
    """The sheet read against the data's sample IDs (redone from the lost branch). Two layouts the first-column rule
    misread: a header whose first cell is not a name the reader takes for one (an SRA run table's ``Run``, a
    ``BioSample``, a ``Barcode``), read as a sample that the data does not hold, while every other row's ID is the
    data's, and whose other cells are no value of their columns: that line is the header; and a header whose first
    column is not the data's sample IDs (SRR run accessions where the data names GSM samples) while another column
    names every row by a sample of the data, once: that column holds the IDs. Anything else is left
    for the stray-sample message."""
    original = sheet
    known = set(map(str, sample_ids))
    if all(i in known for i in sheet["ids"]):
        return sheet
    first, rest = sheet["raw"][0], sheet["raw"][1:]
    names_a_column = all(first[j] not in {r[j] for r in rest} for j in range(1, len(first)))
    if sheet["header"] is None and len(rest) > 1 and sheet["ids"][0] not in known and names_a_column:
        if len(set(first)) < len(first):  # a line naming a column twice is no header
            return original
        sheet = _sheet(sheet["path"], first, rest)  # the first line read as the header
        if all(i in known for i in sheet["ids"]):
            return sheet
    if sheet["header"] is not None:
        for name, col in list(sheet["columns"].items())[1:]:
            if all(v in known for v in col) and len(set(col)) == len(col):
                others = [h for h in sheet["header"] if h != name]
                return dict(sheet, ids=list(col), header=[name] + others,
                            label=sheet["columns"][others[1]] if len(others) > 1 else sheet["label"])
    return original


def _label_column(sheet: dict, column, group_col) -> str | None:
    """The sheet's column to read the labels from: ``column`` if given (it must be one of the header's); None (the
    second column) when the sheet has no header; the one column besides the sample IDs and the groups' column that
    could hold labels (two or more values, not one per sample), or None if none could; when several could, a
    ValueError listing them (a sheet "sample, sex, tumour" read from its second column would classify the samples by
    sex without a word)."""
    path, header = sheet["path"], sheet["header"]
    if column is not None:
        if column not in sheet["columns"]:
            have = f"its columns are {list(sheet['columns'])}" if header else "it has no header row (sample, label)"
            raise ValueError(f"sample sheet {path}: no column {column!r} to read the labels from (label_column=); "
                             f"{have}")
        if column == header[0]:
            raise ValueError(f"sample sheet {path}: label_column={column!r} is its column of sample IDs")
        return column
    if header is None:
        return None
    n = len(sheet["ids"])  # a column of one value, or of a value per sample, cannot hold two classes' labels
    candidates = [h for h in header[1:] if h != group_col and 1 < len(set(sheet["columns"][h])) < n]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    shown = "; ".join(f"{h!r} ({len(set(sheet['columns'][h]))} distinct values, e.g. "
                      f"{', '.join(repr(v) for v in list(dict.fromkeys(sheet['columns'][h]))[:3])})"
                      for h in candidates[:6])
    raise ValueError(f"sample sheet {path}: which column holds the labels? Besides the sample IDs it has "
                     f"{len(candidates)}: {shown}. Name it: label_column={candidates[0]!r} (in a reference string "
                     f"'...?label=<sheet>&label_column=<column>')")


def _finish(values, sample_ids, where, what: str, remedy: str):
    """Per-sample strings ('' missing: an empty cell, None or NaN only), or a ValueError naming the samples. Unicode
    is put in its composed form (NFC): an accent typed as one character or as a letter and a combining mark (macOS
    file names, some editors) is the same name."""
    values = np.array(["" if (v is None or (isinstance(v, float) and np.isnan(v)))
                       else unicodedata.normalize("NFC", str(v).strip()) for v in values], dtype=object)
    missing = [str(s) for s, v in zip(sample_ids, values) if v == ""]
    if missing:
        raise ValueError(f"{where}: {len(missing)} sample(s) without a {what}, e.g. {missing[:5]}: {remedy}")
    return values


# ---------------------------------------------------------------------------------------------------------------
# the formats
# ---------------------------------------------------------------------------------------------------------------


def _table_options(opts: dict) -> dict:
    missing = opts.get("missing")
    return dict(decimal=opts.get("decimal") or ".", thousands=opts.get("thousands"),
                missing=DEFAULT_MISSING if missing is None else tuple(missing))


_EXCEL_SEP = re.compile(r'"?sep=(.)"?')


def _read_table(path: Path, opts: dict, limits: Limits, sheet, also: str = ""):
    where = str(path)
    label, groups, rows = opts.get("label"), opts.get("groups"), opts.get("rows", "auto")
    names = {v for v in (label, groups) if isinstance(v, str) and not is_sheet(v)}
    n = count_lines(path, limits)
    lines = iter_lines(path, encoding=opts.get("encoding"), limits=limits)
    sep = opts.get("sep")
    first = next(lines, None)
    excel_sep = _EXCEL_SEP.fullmatch(first[1].lstrip("\ufeff").strip()) if first is not None else None
    if excel_sep:  # Excel's "sep=;" line (a hint to Excel, not the header): it names the separator
        if sep is not None and sep != excel_sep.group(1):
            raise ValueError(f"{where}: line 1 says the separator is {excel_sep.group(1)!r} (Excel's 'sep=' line), "
                             f"but sep={sep!r} was given")
        sep = excel_sep.group(1)
    elif first is not None:
        lines = itertools.chain([first], lines)
    table = parse_table(lines, where, sep=sep, n_rows=n, text_columns=names, text_rows=names,
                        label_hint=sheet is None, row_axis="row", **_table_options(opts))

    def where_is(key):
        if key is None or key not in names:
            return None
        if key in table.text_columns:
            return "column"
        if key in table.text_rows:
            return "row"
        return "absent"

    lab_at, grp_at = where_is(label), where_is(groups)
    label_loc = (lab_at, label) if lab_at in ("column", "row") else ((grp_at, groups) if grp_at in ("column", "row")
                                                                      else None)
    rows_are, reason = _orientation(table.row_ids, table.columns, rows, label_at=label_loc,
                                    sheet_ids=None if sheet is None else _sheet_cells(sheet))
    for key, at, what in ((label, lab_at, "labels"), (groups, grp_at, "groups")):
        want = "column" if rows_are == "samples" else "row"
        if at is not None and at != want:
            raise ValueError(f"{where}: no {want} named {key!r} to read the {what} from (samples are the "
                             f"{'rows' if rows_are == 'samples' else 'columns'}"
                             + (f"; {key!r} is a {at}" if at != "absent" else "") + ")"
                             + (also if key == groups and at == "absent" else ""))

    def values_of(key, at):
        if at is None:
            return None
        return np.asarray(table.text_columns[key] if at == "column" else table.text_rows[key], dtype=object)

    samples = table.row_ids if rows_are == "samples" else table.columns
    genes = table.columns if rows_are == "samples" else table.row_ids
    _check_unique(samples, "sample", where)
    _check_unique(genes, "gene", where)
    X = table.values if rows_are == "samples" else table.values.T
    return dict(X=X, gene_ids=np.asarray(genes, dtype=str), sample_ids=np.asarray(samples, dtype=str),
                labels=values_of(label, lab_at), groups=values_of(groups, grp_at), symbols=None,
                orientation=f"{rows_are} as rows", orientation_reason=reason)


def _geo_lines(path: Path, begin: str, opts, limits):
    """(header lines before ``begin``, a line iterator positioned at the table's header, the marker's line)."""
    lines = iter_lines(path, encoding=opts.get("encoding"), limits=limits)
    header = []
    for lineno, text in lines:
        if text.strip().lower() == begin.lower():
            return header, lines, lineno
        header.append(text)
    raise ValueError(f"{path}: no {begin} line: not a complete GEO file (a truncated download?)")


def _subsets(header) -> list[dict]:
    subsets, cur = [], None
    for ln in header:
        if ln.startswith("^SUBSET"):
            cur = {}
            subsets.append(cur)
        elif ln.startswith("^"):
            cur = None
        elif cur is not None and ln.startswith("!subset_") and "=" in ln:
            k, v = ln.split("=", 1)
            cur[k.strip()[len("!subset_"):]] = v.strip()
    return subsets


def _subset_values(subsets, kind, samples, where, what):
    chosen = [s for s in subsets if s.get("type", "").lower() == str(kind).lower()]
    if not chosen:
        raise ValueError(f"{where}: no subset type {kind!r} to read the {what} from; the file has "
                         f"{sorted({s.get('type', '') for s in subsets})}")
    lab = {}
    for s in chosen:
        for gsm in s.get("sample_id", "").split(","):
            gsm = gsm.strip()
            if gsm:
                if gsm in lab and lab[gsm] != s.get("description"):
                    raise ValueError(f"{where}: sample {gsm} is in two subsets of type {kind!r} "
                                     f"({lab[gsm]!r} and {s.get('description')!r})")
                lab[gsm] = s.get("description", "")
    stray = sorted(set(lab) - set(samples))
    if stray:
        raise ValueError(f"{where}: subset(s) of type {kind!r} name sample(s) {stray[:5]} that have no column in "
                         "the value table")
    return np.array([lab.get(s, "") for s in samples], dtype=object)


def _read_gds(path: Path, opts, limits):
    where = str(path)
    n = count_lines(path, limits)
    header, lines, at = _geo_lines(path, "!dataset_table_begin", opts, limits)
    table = parse_table(lines, where, sep="\t", n_rows=n, stop="!dataset_table_end", text_columns={"IDENTIFIER"},
                        label_hint=False, row_axis="gene", **_table_options(opts))
    if table.index_name != "ID_REF" or "IDENTIFIER" not in table.text_columns:
        raise ValueError(f"{where}: the DataSet table (line {at + 1}) must start with the columns ID_REF and "
                         f"IDENTIFIER, got {table.index_name!r}")
    samples = table.columns
    _check_unique(table.row_ids, "gene", where)
    _check_unique(samples, "sample", where)
    subsets = _subsets(header)
    types = sorted({s.get("type", "") for s in subsets})
    out = dict(X=table.values.T, gene_ids=np.asarray(table.row_ids, dtype=str),
               sample_ids=np.asarray(samples, dtype=str), labels=None, groups=None,
               symbols=np.asarray(table.text_columns["IDENTIFIER"], dtype=object),
               orientation="GEO DataSet (probes as rows)", orientation_reason="the GEO DataSet layout",
               label_choices=types)
    if opts.get("label") is not None:
        out["labels"] = _subset_values(subsets, opts["label"], samples, where, "labels")
    if opts.get("groups") is not None and not is_sheet(opts["groups"]):
        out["groups"] = _subset_values(subsets, opts["groups"], samples, where, "groups")
    return out


def _sheet_only(opts, where: str, what_file: str):
    """Refuse ``label=`` or ``groups=`` naming a column of a file that holds neither (GCT, featureCounts)."""
    for key, what in (("label", "labels"), ("groups", "groups")):
        if opts.get(key) is not None and not is_sheet(opts[key]):
            raise ValueError(f"{where}: {what_file} holds no {what} ({key}={opts[key]!r} names no column of it): "
                             f"give a sample sheet's path as {key}= (columns: sample ID, {what[:-1]})")


#: featureCounts' annotation columns, between the gene ID (``Geneid``) and the first sample.
FEATURECOUNTS_COLUMNS = ("Chr", "Start", "End", "Strand", "Length")


def _read_featurecounts(path: Path, opts, limits):
    """featureCounts output (Subread/Rsubread; Liao et al. 2014, Bioinformatics 30:923): comment lines (``#
    Program:featureCounts ...``, the command line), then a tab-separated table whose columns are ``Geneid``, the
    annotation :data:`FEATURECOUNTS_COLUMNS` (a gene's exons as ``;``-separated lists) and one column of read counts
    per sample, named as the BAM file was given (``/data/S1.sorted.bam``: a sample sheet names the samples so).
    Genes as rows; the annotation columns are dropped; labels and groups from a sample sheet."""
    where = str(path)
    _sheet_only(opts, where, "a featureCounts table")
    lines = iter_lines(path, encoding=opts.get("encoding"), limits=limits)
    header = next(((no, t) for no, t in lines if not t.startswith("#")), None)
    if header is None:
        raise ValueError(f"{where}: featureCounts output without its table (only comment lines)")
    fields = header[1].split("\t")
    if tuple(fields[1:6]) != FEATURECOUNTS_COLUMNS or len(fields) < 7:
        raise ValueError(f"{where}: line {header[0]} is not featureCounts' header (Geneid, "
                         f"{', '.join(FEATURECOUNTS_COLUMNS)}, then one column per sample): it reads "
                         f"{header[1][:80]!r}")
    table = parse_table(itertools.chain([header], lines), where, sep="\t", n_rows=count_lines(path, limits),
                        text_columns=set(FEATURECOUNTS_COLUMNS), label_hint=False, row_axis="gene",
                        **_table_options(opts))
    _check_unique(table.row_ids, "gene", where)
    _check_unique(table.columns, "sample", where)
    return dict(X=table.values.T, gene_ids=np.asarray(table.row_ids, dtype=str),
                sample_ids=np.asarray(table.columns, dtype=str), labels=None, groups=None, symbols=None,
                orientation="featureCounts (genes as rows)", orientation_reason="the featureCounts layout")


def _read_gct(path: Path, opts, limits):
    """A GCT file of version 1.2 (GenePattern's expression format): a version line ``#1.2``, a line of the table's
    dimensions (genes, samples), then a tab-separated table whose columns are ``Name`` (the gene IDs), ``Description``
    and one per sample. The dimensions are checked against the table (a truncated file). It holds no labels: they
    come from a sample sheet (``label=`` its path)."""
    where = str(path)
    lines = iter_lines(path, encoding=opts.get("encoding"), limits=limits)
    next(lines)
    at, dims = next(lines, (2, ""))
    fields = dims.split("\t")
    try:
        n_genes, n_samples = (int(f) for f in fields[:2])
    except ValueError:
        raise ValueError(f"{where}: line {at} of a GCT file gives the table's dimensions (genes, samples) as two "
                         f"whole numbers, got {dims[:60]!r}") from None
    _sheet_only(opts, where, "a GCT file")
    table = parse_table(lines, where, sep="\t", n_rows=n_genes + 1, text_columns={"Description"}, label_hint=False,
                        row_axis="gene", **_table_options(opts))
    if len(table.row_ids) != n_genes or len(table.columns) != n_samples:
        raise ValueError(f"{where}: line {at} says {n_genes} genes x {n_samples} samples, the table holds "
                         f"{len(table.row_ids)} x {len(table.columns)} (a truncated or edited file?)")
    _check_unique(table.row_ids, "gene", where)
    _check_unique(table.columns, "sample", where)
    return dict(X=table.values.T, gene_ids=np.asarray(table.row_ids, dtype=str),
                sample_ids=np.asarray(table.columns, dtype=str), labels=None, groups=None, symbols=None,
                orientation="GCT (genes as rows)", orientation_reason="the GCT layout")


def _unquote(v: str) -> str:
    v = v.strip()
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] == '"' else v


def _series_fields(header, where):
    """(!Sample_ fields, characteristics): each {key: values in the order of !Sample_geo_accession}, and the
    accessions."""
    fields: dict[str, list] = {}
    characteristics: dict[str, list] = {}
    rows = []
    for ln in header:
        if ln.startswith("!Sample_"):
            parts = ln.split("\t")
            rows.append((parts[0][len("!Sample_"):], [_unquote(v) for v in parts[1:]]))
    acc = next((vals for key, vals in rows if key == "geo_accession"), None)
    if acc is None:
        raise ValueError(f"{where}: no !Sample_geo_accession line: the samples' labels cannot be matched to the "
                         "table's columns (a Series Matrix file from GEO has one)")
    n = len(acc)
    for key, vals in rows:
        if len(vals) != n:
            continue
        if key.startswith("characteristics"):
            for j, v in enumerate(vals):
                if ":" in v:
                    k, val = v.split(":", 1)
                    characteristics.setdefault(k.strip(), [""] * n)[j] = val.strip()
        fields.setdefault(key, vals)
    return fields, characteristics, acc


def _read_series_matrix(path: Path, opts, limits):
    where = str(path)
    n = count_lines(path, limits)
    header, lines, at = _geo_lines(path, "!series_matrix_table_begin", opts, limits)
    table = parse_table(lines, where, sep="\t", n_rows=n, stop="!series_matrix_table_end", label_hint=False,
                        row_axis="gene", **_table_options(opts))
    if table.index_name != "ID_REF":
        raise ValueError(f"{where}: the Series Matrix table (line {at + 1}) must start with the column ID_REF, got "
                         f"{table.index_name!r}")
    samples = table.columns
    _check_unique(table.row_ids, "gene", where)
    _check_unique(samples, "sample", where)
    fields, characteristics, acc = _series_fields(header, where)
    pos = {a: j for j, a in enumerate(acc)}
    absent = [s for s in samples if s not in pos]
    if absent:
        raise ValueError(f"{where}: the table's column(s) {absent[:5]} are not among the samples of "
                         "!Sample_geo_accession; the labels cannot be matched to them")
    order = [pos[s] for s in samples]

    def values(key, what):
        k = str(key).removeprefix("!Sample_")
        src = characteristics.get(k, fields.get(k))
        if src is None:
            raise ValueError(f"{where}: no sample characteristic or !Sample_ field {key!r} to read the {what} from; "
                             f"characteristics: {sorted(characteristics)}, fields: {sorted(fields)[:12]}")
        return np.array([src[j] for j in order], dtype=object)  # by accession, not by position

    out = dict(X=table.values.T, gene_ids=np.asarray(table.row_ids, dtype=str),
               sample_ids=np.asarray(samples, dtype=str), labels=None, groups=None, symbols=None,
               orientation="GEO Series Matrix (probes as rows)", orientation_reason="the GEO Series Matrix layout",
               label_choices=sorted(characteristics) + sorted(fields))
    if opts.get("label") is not None:
        out["labels"] = values(opts["label"], "labels")
    if opts.get("groups") is not None and not is_sheet(opts["groups"]):
        out["groups"] = values(opts["groups"], "groups")
    return out


_SYMBOL_COLUMNS = ("gene_symbols", "gene_symbol", "symbol", "symbols", "gene_name", "gene_names", "IDENTIFIER")


def _obs_column(adata, key, where, what):
    if isinstance(key, str):
        if key not in adata.obs.columns:
            raise ValueError(f"{where}: no obs column {key!r} to read the {what} from; obs has "
                             f"{list(adata.obs.columns)}")
        col = adata.obs[key]
        return np.array(["" if pd.isna(v) else str(v) for v in col], dtype=object)
    vals = np.asarray(key, dtype=object)
    if len(vals) != adata.n_obs:
        raise ValueError(f"{where}: {len(vals)} {what} for {adata.n_obs} samples")
    return vals


def _from_anndata(adata, opts, where):
    from scipy import sparse

    layer = opts.get("layer")
    var = adata.var
    var_names = adata.var_names
    has_raw = getattr(adata, "raw", None) is not None
    if layer == "raw" and "raw" not in adata.layers and has_raw:  # scanpy's .raw: the values before scaling
        X, var, var_names = adata.raw.X, adata.raw.var, adata.raw.var_names
    elif layer is not None:
        if layer not in adata.layers:
            raise ValueError(f"{where}: no layer {layer!r}; the layers are {list(adata.layers)}"
                             + ("; layer='raw' reads .raw" if has_raw else ""))
        X = adata.layers[layer]
    else:
        X = adata.X
        if X is None:
            raise ValueError(f"{where}: X is empty (None); the values are in a layer: "
                             + (f"pass layer= one of {list(adata.layers) + (['raw'] if has_raw else [])}"
                                if len(adata.layers) or has_raw else "but the file has no layers either"))
    X = X.toarray() if sparse.issparse(X) else np.asarray(X)
    if layer is None and has_raw and X.size and np.nanmin(X) < 0:
        warnings.warn(f"{where}: X holds negative values (scaled data, as scanpy's scale() leaves them) and the file "
                      "keeps the values before scaling in .raw: a gene's scaled values hide its level; pass "
                      "layer='raw' to read those (the notebooks: '...h5ad?layer=raw')", UserWarning, stacklevel=4)
    label, groups = opts.get("label"), opts.get("groups")
    symbols = None
    for c in _SYMBOL_COLUMNS:
        if c in var.columns:
            symbols = var[c].astype(str).to_numpy(dtype=object)
            break
    _check_unique(adata.obs_names, "sample", where)
    _check_unique(var_names, "gene", where)
    return dict(X=np.asarray(X, dtype=np.float64), gene_ids=np.asarray(var_names, dtype=str),
                sample_ids=np.asarray(adata.obs_names, dtype=str),
                labels=None if label is None or is_sheet(label) else _obs_column(adata, label, where,
                                                                                              "labels"),
                groups=None if groups is None or is_sheet(groups) else
                _obs_column(adata, groups, where, "groups"),
                symbols=symbols, orientation="AnnData (observations are samples)",
                orientation_reason="the AnnData layout", label_choices=list(adata.obs.columns))


def _read_h5ad(path: Path, opts):
    try:
        import anndata
    except ImportError as exc:  # pragma: no cover - anndata is a dependency
        raise ImportError("reading .h5ad files needs anndata: pip install anndata") from exc
    try:
        adata = anndata.read_h5ad(path)
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"{path}: an HDF5 file that anndata cannot read as AnnData ({type(exc).__name__}: {exc})") \
            from None
    return _from_anndata(adata, opts, str(path))


def _aligned(values, frame, where, what):
    if isinstance(values, pd.Series) and not values.index.equals(frame.index):
        stray = values.index.difference(frame.index)
        if len(stray):
            raise ValueError(f"{where}: {what} for sample(s) {list(stray[:5])} that are not rows of the frame")
        values = values.reindex(frame.index)
    vals = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values, dtype=object), index=None)
    if len(vals) != len(frame):
        raise ValueError(f"{where}: {len(vals)} {what} for {len(frame)} samples")
    return vals.to_numpy(dtype=object)


def _from_frame(frame: pd.DataFrame, opts, where):
    label, groups = opts.get("label"), opts.get("groups")
    out = {}
    for key, what in ((label, "labels"), (groups, "groups")):
        if isinstance(key, str):
            if key not in frame.columns:
                raise ValueError(f"{where}: no column {key!r} to read the {what} from")
            out[what] = frame[key].to_numpy(dtype=object)
            frame = frame.drop(columns=[key])
        elif key is not None:
            out[what] = _aligned(key, frame, where, what)
    _check_unique(frame.index, "sample", where)
    _check_unique(frame.columns, "gene", where)
    X = np.empty(frame.shape, dtype=np.float64)
    for j, (col, s) in enumerate(frame.items()):
        if pd.api.types.is_bool_dtype(s.dtype):
            raise ValueError(f"{where}: column {col!r} holds booleans (True/False): expression values must be numbers")
        num = pd.to_numeric(s, errors="coerce") if not pd.api.types.is_numeric_dtype(s.dtype) else s
        bad = num.isna().to_numpy() & s.notna().to_numpy()
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{where}: a non-numeric value {s.iloc[r]!r} in column {col!r} (sample "
                             f"{frame.index[r]!r}); expression values must be numbers")
        X[:, j] = num.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isinf(X).any():
        r, c = np.argwhere(np.isinf(X))[0]
        raise ValueError(f"{where}: an infinite value in column {frame.columns[c]!r} (sample {frame.index[r]!r})")
    return dict(X=X, gene_ids=np.asarray(frame.columns, dtype=str), sample_ids=np.asarray(frame.index, dtype=str),
                labels=out.get("labels"), groups=out.get("groups"), symbols=None,
                orientation="samples as rows (a DataFrame)", orientation_reason="a DataFrame's rows are samples")


def _check_class_names(labels, chosen, where: str) -> None:
    """Refuse labels the readers would otherwise take for classes without a word (redone from the lost branch; the
    notebooks' parameter checks said it first): a tool's spelling of a missing label (``NA``, ``NaN``, ``None``:
    :func:`genesel.foreign_formats.missing_label_classes`), unless ``chosen`` (the ``classes`` asked for) settles it,
    and one class spelled two ways (``Tumor`` and ``tumor``, ``ER +`` and ``ER+``:
    :func:`genesel.foreign_formats.case_variant_classes`), unless ``chosen`` lists every spelling or none of them
    (choosing one spelling alone would leave the other's samples out)."""
    from genesel.foreign_formats import case_variant_classes, missing_label_classes

    counts = dict(zip(*np.unique(labels, return_counts=True)))
    for group in case_variant_classes(counts):
        if chosen is not None and (set(group) <= set(chosen) or not set(group) & set(chosen)):
            continue
        sizes = ", ".join(f"{c!r} ({int(counts[c])})" for c in group)
        if chosen is None:
            remedy = ("correct the labels in the file (or the sample sheet), or, if they really are different "
                      "classes, list them all in classes")
        else:
            remedy = (f"classes names {', '.join(repr(c) for c in group if c in chosen)} but not "
                      f"{', '.join(repr(c) for c in group if c not in chosen)}, whose samples would be left out: "
                      "correct the labels, or list every spelling in classes")
        raise ValueError(f"{where}: the labels name {sizes}: {' and '.join(repr(c) for c in group)} differ only in "
                         f"letter case or spaces (one class spelled two ways?), which the readers take for two "
                         f"classes; {remedy}")
    na = [] if chosen is not None else missing_label_classes(counts)
    if na:
        one = len(na) == 1
        others = [str(c) for c in counts if c not in na]
        sizes = ", ".join(f"{c!r} ({int(counts[c])})" for c in na)
        raise ValueError(f"{where}: the labels name {sizes}: {', '.join(repr(c) for c in na)} "
                         f"{'is' if one else 'are'} how R (write.csv) or pandas (astype(str)) writes a missing label; "
                         f"a label is missing only when its cell is empty, so {'it' if one else 'each'} would be a "
                         f"class. Leave those samples out by choosing the other classes, classes={others!r} (a "
                         f"notebook's -p classes {shlex.quote(json.dumps(others, ensure_ascii=False))}), or, if "
                         f"{na[0]!r} really names a class, list it in classes too")


def _warn_gene_names(gene_ids, where: str, extra: dict) -> None:
    """Warn (and record in ``extra``) about gene IDs that are not genes' names: gene symbols Excel turned into dates
    or numbers (``extra["excel_dates"]``; :func:`genesel.foreign_formats.excel_mangled_genes`) and a sample's
    covariate kept among the genes (``extra["covariate_genes"]``; :func:`genesel.foreign_formats.covariate_genes`),
    whose numbers a selector may pick as if they were expression. The values are read as the file holds them (the
    notebooks refuse such a file; a Python user is told and decides)."""
    from genesel.foreign_formats import EXCEL_DATES_NOTE, covariate_genes, excel_mangled_genes

    def shown(ids):
        return ", ".join(repr(g) for g in ids[:5]) + (", ..." if len(ids) > 5 else "")

    mangled = excel_mangled_genes(gene_ids)
    if mangled:
        extra["excel_dates"] = mangled
        warnings.warn(f"{where}: {len(mangled)} gene ID(s) such as {shown(mangled)}, the way {EXCEL_DATES_NOTE}",
                      UserWarning, stacklevel=3)
    covariates = covariate_genes(gene_ids)
    if covariates:
        extra["covariate_genes"] = covariates
        warnings.warn(f"{where}: {shown(covariates)} among the genes: the name of a sample's covariate (age, batch, "
                      "survival time, ...), not of a gene; its numbers are read as expression values and a selector "
                      "may pick them. Keep covariates out of the expression table (in the sample sheet), or rename "
                      "the gene if it really is one", UserWarning, stacklevel=3)


def _multiclass_message(where, labels, names, label, ref=None) -> str:
    """The error for a file with more than two classes: which, how to choose two (in Python, in a reference string
    by its quoting rule, as a notebook parameter), which methods take them all."""
    counts = {c: int(np.sum(labels == c)) for c in names}
    listed = ", ".join(f"{c!r} ({n})" for c, n in counts.items())
    a, b = sorted(counts, key=lambda c: -counts[c])[:2]
    lab = f"label={label!r}, " if isinstance(label, str) else ""
    pair = shlex.quote(json.dumps([a, b], ensure_ascii=False))
    text = None
    if ref is not None:  # the file's own reference with the two classes: its name, then its options
        full = ref.with_options(classes=[a, b]).to_string()
        text = ref.path.name + full[len(ref.source):]
    return (f"{where}: the labels name {len(names)} classes: {listed}. Several of genesel's classifiers and "
            f"selectors (those of the five papers) separate two classes and refuse more; to choose two: "
            f"read_expression(..., {lab}classes=[{a!r}, {b!r}])"
            + (f", the reference '{text}' (load_dataset, grid cells; with the file's folder) or a notebook's "
               f"-p classes {pair}" if text else "")
            + f"; the samples of the other classes are left out. To keep "
            f"all {len(names)} classes, pass classes='all': {', '.join(MULTICLASS_METHODS)} (genesel) and "
            f"scikit-learn's multi-class estimators ({', '.join(SKLEARN_MULTICLASS)}) accept them")


# ---------------------------------------------------------------------------------------------------------------
# the entry point
# ---------------------------------------------------------------------------------------------------------------


def read_expression(source, *, label=None, label_column: str | None = None, rows: str = "auto", classes=None,
                    name: str | None = None,
                    sep: str | None = None, impute: str | None = None, groups=None, encoding: str | None = None,
                    decimal: str = ".", thousands: str | None = None, missing=None, layer: str | None = None,
                    scale: str = "auto", max_bytes=None, max_line_bytes=None, max_ratio=None) -> Dataset:
    """Read an expression matrix into a :class:`~genesel.dataset.Dataset` (see the module doc).

    Parameters
    ----------
    source : a path (CSV/TSV, GEO DataSet SOFT or Series Matrix, ``.h5ad``; gzipped or not), a
        :class:`genesel.dataref.DataRef` (which then holds the options below), a ``pandas.DataFrame`` (samples as
        rows), an ``anndata.AnnData``, or a NumPy array (samples x genes).
    label : where the class labels are: a column or row name (tables), a path to a sample sheet (sample ID, label),
        a GEO subset type or sample characteristic, an ``obs`` column, or the labels themselves (a Series or array,
        for a DataFrame, AnnData or array source).
    label_column : the column of the sample sheet (given as ``label``) that holds the labels, by its header name.
        Default: the sheet's second column when it has no header; else its one column that could hold labels
        (besides the sample IDs and a ``groups`` column, one of two or more values, not one per sample). A sheet with
        several such columns is refused, listing them, rather than read from whichever comes second (a sheet
        "sample, sex, tumour" would classify the samples by sex).
    rows : ``"auto"`` (decide from the identifiers), ``"samples"`` or ``"genes"``: what the rows of a table hold.
    classes : a list of class names to keep, in the order of their codes (two: -1, +1; more: 0..K-1); samples of
        any other class are left out. ``"all"``: keep every class (coded 0..K-1 in sorted order; only
        :data:`MULTICLASS_METHODS` and scikit-learn's multi-class estimators take them). None (default): the labels
        must name two classes; more are refused with a message listing them.
    name : the data set's name in titles and tables (default: the file name).
    sep : a table's separator (default: sniffed from its first two lines).
    impute : None (default): missing values stay NaN, to be imputed inside each training part
        (:class:`genesel.preprocessing.MissingValueImputer`); ``"knn"``: gene-wise KNNimpute over the whole file.
    groups : which samples belong together (a patient, an individual, a pair): a column or row name, a column of the
        sample sheet, a sheet of its own (sample ID, group), a GEO subset type (``"individual"``) or sample
        characteristic, an ``obs`` column, or the groups themselves. ``Dataset.groups`` holds them; a sample without
        a group is refused.
    encoding : the text encoding (default UTF-8, with or without a byte-order mark), e.g. ``"latin-1"``.
    decimal, thousands : how numbers are written (``decimal=','``, ``thousands='.'`` for 1.234,5).
    missing : the cells that mean a missing value (default :data:`genesel.delimited.DEFAULT_MISSING`).
    layer : an ``.h5ad``'s layer to read instead of ``X``.
    scale : ``"auto"`` (default: decided from the values, :func:`genesel.preprocessing.decide_scale`), or
        ``"log"``, ``"raw-intensity"``, ``"counts"``.
    max_bytes, max_line_bytes, max_ratio : caps on the text read (:class:`genesel.delimited.Limits`).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from genesel.datasets import read_expression
    >>> frame = pd.DataFrame(np.arange(12.0).reshape(4, 3), index=["p1", "p2", "p3", "p4"],
    ...                      columns=["TP53", "BRCA1", "MYC"])
    >>> ds = read_expression(frame, label=["tumour", "normal", "tumour", "normal"], name="toy")
    >>> ds.X.shape, ds.classes, ds.y.tolist()
    ((4, 3), ('normal', 'tumour'), [1, -1, 1, -1])
    """
    from genesel.preprocessing import decide_scale

    given = dict(label=label, label_column=label_column, rows=rows, classes=classes, name=name, sep=sep, impute=impute,
                 groups=groups,
                 encoding=encoding, decimal=decimal, thousands=thousands, missing=missing, layer=layer, scale=scale,
                 max_bytes=max_bytes, max_line_bytes=max_line_bytes, max_ratio=max_ratio)
    extra: dict = {}
    ref = None
    if isinstance(source, (str, os.PathLike, DataRef)):
        defaults = dict(rows="auto", decimal=".", scale="auto")
        ref = DataRef.of(source, **{k: v for k, v in given.items() if v is not None and defaults.get(k) != v})
        if not ref.is_file:
            raise ValueError(f"{source!r} names a registered data set: load it with genesel.datasets.load_dataset")
        opts = {**dict(rows="auto", decimal=".", scale="auto"), **ref.read_options()}
        path = ref.path
        limits = Limits.of(**{k: opts.get(k) for k in ("max_bytes", "max_line_bytes", "max_ratio")})
        where = str(path)
        sheets = {}
        for key in ("label", "groups"):
            v = opts.get(key)
            if v is not None and is_sheet(v):
                same = [s for s in sheets.values() if str(s["path"]) == v]
                sheets[key] = same[0] if same else _read_sheet(Path(v), opts.get("encoding"), limits)
        kind = _kind(path, opts.get("encoding"), limits)
        group_col = None  # groups named as a column of the label's sample sheet
        if "label" in sheets and "groups" not in sheets and opts.get("groups") is not None and (
                opts["groups"] in sheets["label"]["columns"]
                or (sheets["label"]["header"] is None and opts["groups"] in sheets["label"]["raw"][0][1:])):
            group_col = opts["groups"]
        read_opts = {**opts, "label": None if "label" in sheets else opts.get("label"),
                     "groups": None if "groups" in sheets or group_col else opts.get("groups")}
        if kind == "h5ad":
            got = _read_h5ad(path, read_opts)
        elif kind == "gds":
            got = _read_gds(path, read_opts, limits)
        elif kind == "series_matrix":
            got = _read_series_matrix(path, read_opts, limits)
        elif kind == "gct":
            got = _read_gct(path, read_opts, limits)
        elif kind == "featurecounts":
            got = _read_featurecounts(path, read_opts, limits)
        else:
            sheet = sheets.get("label") or sheets.get("groups")
            also = ""
            if "label" in sheets and read_opts.get("groups") is not None:
                cols = sheets["label"]["columns"]
                also = (f", nor a column of the sample sheet {sheets['label']['path']} ("
                        + (f"its columns are {list(cols)})" if cols else "it has no header row)"))
            got = _read_table(path, read_opts, limits, sheet, also)
        for key in sheets:
            sheets[key] = _settle_sheet(sheets[key], got["sample_ids"])
        for key, what in (("label", "labels"), ("groups", "groups")):
            if key in sheets:
                column = None
                if key == "label":
                    column = _label_column(sheets[key], opts.get("label_column"), group_col)
                got[what] = _sheet_values(sheets[key], column, got["sample_ids"], where, what[:-1])
                extra[f"{key}_sheet" if key == "groups" else "sample_sheet"] = opts[key]
        if group_col is not None:
            got["groups"] = _sheet_values(sheets["label"], group_col, got["sample_ids"], where, "group")
        extra.update(source=str(path), sha256=ref.digest, format=kind)
        default_name = path.name
    else:
        opts = {k: v for k, v in given.items() if v is not None}
        opts.setdefault("scale", "auto")
        if label_column is not None:
            raise ValueError(f"label_column={label_column!r} names a column of a sample sheet, which only a file's "
                             f"reading takes; for a {type(source).__name__}, pass the labels themselves as label=")
        if isinstance(source, pd.DataFrame):
            where = f"DataFrame {name or ''}".strip()
            got = _from_frame(source, opts, where)
            default_name = "DataFrame"
        elif type(source).__name__ == "AnnData":
            where = "AnnData object"
            got = _from_anndata(source, opts, where)
            default_name = "AnnData"
        else:
            X = np.asarray(source)
            if X.ndim != 2:
                raise ValueError(f"an array source must be 2-d (samples x genes), got shape {X.shape}")
            where = "array"
            frame = pd.DataFrame(X, index=[f"sample_{i}" for i in range(X.shape[0])],
                                 columns=[f"gene_{j}" for j in range(X.shape[1])])
            got = _from_frame(frame, opts, where)
            got["orientation"] = "samples as rows (an array)"
            default_name = "array"
    if got["labels"] is None:
        choices = got.get("label_choices")
        hint = f" (this file offers: {choices})" if choices else ""
        raise ValueError(f"{where}: say where the class labels are: label='<column name>' or a sample sheet's path"
                         f"{hint}")
    sample_ids = got["sample_ids"]
    labels = _finish(got["labels"], sample_ids, where, "label", "give every sample a label, or drop those samples")
    grp = None
    if got.get("groups") is not None:
        grp = _finish(got["groups"], sample_ids, where, "group", "give every sample a group (a sample on its own "
                      "can be a group of one: give it its own name)")
    X = got.pop("X")  # one reference only: the parsed buffer is freed once X is copied (bounded memory)
    gene_ids = got["gene_ids"]
    impute = opts.get("impute")
    if impute not in (None, "knn"):
        raise ValueError(f"impute must be 'knn' or None, got {impute!r}")
    classes = opts.get("classes")
    keep_all = isinstance(classes, str) and classes == "all"
    if keep_all:
        classes = None
    elif classes is not None:
        if isinstance(classes, str):
            raise ValueError(f"classes must be a list of class names or 'all', got {classes!r}; pass a list, e.g. "
                             f"classes=[{classes!r}, ...]")
        classes = tuple(str(c) for c in classes)
        if len(classes) < 2 or len(set(classes)) != len(classes):
            raise ValueError(f"classes must name two or more different classes (or be 'all'), got {list(classes)}")
        present = set(labels)
        absent = [c for c in classes if c not in present]
        if absent:
            raise ValueError(f"{where}: class(es) {absent} do not occur; the labels are {sorted(present)}")
    _check_class_names(labels, classes, where)
    if classes is not None:
        keep = np.isin(labels, classes)
        if not keep.all():
            extra["left_out"] = {str(k): int(v) for k, v in zip(*np.unique(labels[~keep], return_counts=True))}
            X, labels, sample_ids = X[keep], labels[keep], sample_ids[keep]
            grp = None if grp is None else grp[keep]
    names = sorted(set(labels)) if classes is None else list(classes)
    if len(names) < 2:
        raise ValueError(f"{where}: every sample has the label {names[0]!r}: one class cannot be classified; check "
                         "the label column (or give a sample sheet)")
    if len(names) > 2 and not keep_all and classes is None:
        raise ValueError(_multiclass_message(where, labels, names, opts.get("label"), ref))
    all_missing = np.isnan(X).all(axis=0)
    if all_missing.any():
        j = int(np.flatnonzero(all_missing)[0])
        raise ValueError(f"{where}: gene {str(gene_ids[j])!r} has no value in any sample ({int(all_missing.sum())} "
                         "such "
                         "gene(s)); remove it")
    no_values = np.isnan(X).all(axis=1)
    if no_values.any() and X.shape[1] > 0:
        i = int(np.flatnonzero(no_values)[0])
        raise ValueError(f"{where}: sample {str(sample_ids[i])!r} has no value for any gene ({int(no_values.sum())} "
                         "such sample(s)): a failed array or an empty column? Imputation would invent its whole "
                         "profile; remove it")
    unnamed = [j for j, g in enumerate(gene_ids) if not str(g).strip()]
    if unnamed:
        raise ValueError(f"{where}: {len(unnamed)} gene(s) without an identifier (an empty header field, or an empty "
                         f"first field of a line), the first at position {unnamed[0] + 1} of {len(gene_ids)}: every "
                         "gene needs a name (its values cannot be told apart from a stray column otherwise)")
    if np.isnan(X).any():
        extra["missing_values"] = int(np.isnan(X).sum())
        if impute == "knn":
            X = knn_impute_genes(X)
            extra["imputed"] = "gene-wise KNNimpute over the whole file (impute='knn')"
    if len(names) == 2:
        y = np.where(labels == names[1], 1, -1).astype(np.int64)
    else:
        extra["multiclass_note"] = (f"{len(names)} classes ({', '.join(names)}): {', '.join(MULTICLASS_METHODS)} "
                                    "accept more than two (the other methods of the five papers are binary; pass "
                                    "classes=[a, b] for a two-class task)")
        y = np.asarray([names.index(v) for v in labels], dtype=np.int64)
    X = np.ascontiguousarray(X, dtype=np.float64)
    for arr in (X, y):
        arr.setflags(write=False)
    scale_given = opts.get("scale", "auto")
    scale_, reason = decide_scale(X, scale_given)
    extra.update(orientation=got["orientation"], orientation_reason=got["orientation_reason"], scale_reason=reason)
    if grp is not None:
        extra["n_groups"] = len(set(grp))
        grp.setflags(write=False)
    if got.get("symbols") is not None:
        extra["symbols"] = np.asarray(got["symbols"], dtype=object)
    _warn_gene_names(gene_ids, where, extra)
    title = opts.get("name") or default_name
    description = (f"{title}: {X.shape[0]} samples x {X.shape[1]} genes, read from {where} "
                   f"({extra['orientation']}: {extra['orientation_reason']}; values: {scale_})")
    return Dataset(title, X, y, tuple(names), np.asarray(gene_ids), np.asarray(sample_ids), description,
                   f"user data ({where})", None, None, labels, extra, grp, scale_, ref)
