"""A researcher's own expression data as a :class:`~genesel.datasets.Dataset`: CSV/TSV in either orientation, GEO
DataSet SOFT and Series Matrix files, AnnData ``.h5ad``, a pandas DataFrame, NumPy arrays.

:func:`read_expression` is the one entry point (``genesel.datasets.load_dataset`` hands it any path). What comes
back is what the registered sets give: ``X`` samples x genes (float64, read-only), ``y`` coded -1/+1 for two classes
(``classes`` names them: the first in sorted order, or the order you give, is -1) or 0..K-1 for more, the gene and
sample identifiers, and, where the file has them, gene symbols (``Dataset.extra["symbols"]``). ``extra`` also
records the source file, its sha256 (a file's identity in the grid cache is its content, not its path), the
orientation chosen and why, and anything left out.

Formats (chosen by the file's content, not only its name; ``.gz`` is read transparently):

- **CSV/TSV** (``,`` / tab / ``;``): identifiers in the first column and the header row. ``rows="auto"`` decides
  which axis holds the samples: a ``label`` column or row names the sample axis; otherwise identifiers that look like
  probe sets, Ensembl/RefSeq/Entrez IDs or gene symbols mark the gene axis and ones that look like GEO/TCGA sample
  accessions mark the sample axis; if the identifiers do not decide, the longer axis is taken for the genes
  (arrays have far more genes than samples). ``extra["orientation_reason"]`` says which rule decided. Force it with
  ``rows="samples"`` or ``rows="genes"``. Labels come from a column (or row) ``label="class"``, or from a sample
  sheet whose path is given as ``label`` (two columns: sample ID, label; a header row is recognised).
- **GEO DataSet SOFT** (``GDSxxxx.soft.gz``, "full" or not): the value table between ``!dataset_table_begin`` and
  ``!dataset_table_end`` (``ID_REF`` the probe IDs, ``IDENTIFIER`` the gene symbols), labels from the subsets of one
  ``!subset_type``, e.g. ``label="disease state"``.
- **GEO Series Matrix** (``GSExxxx_series_matrix.txt.gz``): the table between ``!series_matrix_table_begin`` and
  ``!series_matrix_table_end``; labels from a ``!Sample_characteristics_ch1`` key (``label="tissue"`` reads the
  values of ``"tissue: ..."``) or another ``!Sample_`` field (``label="source_name_ch1"``).
- **AnnData** ``.h5ad`` (read with ``anndata``): labels from an ``obs`` column, gene IDs from ``var_names``, symbols
  from a ``var`` column named like a symbol column (``gene_symbols``, ``symbol``, ...).

Why a parser of our own for GEO's two text formats, and not GEOparse: GEOparse reads SOFT families (and DataSets)
but not Series Matrix files, its errors do not name the line at fault, and it brings an HTTP client for downloads
genesel does not do; both formats are a header of ``!key = value`` lines around one tab-separated table, which
pandas reads. ``anndata`` (the ecosystem's reader) handles ``.h5ad``.

Bad files are refused with a ``ValueError`` naming the file and the line, column or sample at fault: ragged rows,
a non-numeric cell, duplicated gene or sample IDs, samples without a label, a sample sheet naming a sample that is
not in the data, one class, more than two classes (unless asked for), a gene with no value at all.

Missing values (empty, ``NA``, ``NaN``, ``null``) are allowed and kept as NaN in the Dataset
(``extra["missing_values"]`` counts them): they are imputed inside each training part of a protocol, by a
transformer fitted on that part only (:class:`genesel.preprocessing.MissingValueImputer`, which
:func:`genesel.datasets.recommended_preprocessing` puts first for a file with missing values), so the samples a
model is tested on never shape the values it is trained on. ``impute="knn"`` instead fills them once over the whole
file (gene-wise KNNimpute, Troyanskaya et al. 2001: label-free, but every sample informs every other), which is
what a registered set with missing values (Alizadeh's lymphoma) gets by default.

More than two classes are refused with a message listing them, unless chosen: ``classes=(a, b)`` keeps a two-class
task (the samples of the other classes are left out, ``extra["left_out"]`` counts them; in a reference string
``?classes=a,b``), ``classes="all"`` keeps every class (coded 0..K-1) for the methods that accept more than two
(:data:`MULTICLASS_METHODS`; genesel's other estimators, those of the five papers, separate two classes).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["read_expression", "looks_like_path", "MULTICLASS_METHODS", "file_sha256", "parse_reference",
           "make_reference", "file_identity"]

#: The public genesel estimators that accept more than two classes (``tests/test_expression_io.py`` fits every
#: public estimator on three classes and checks this list): SMLR's multinomial model (Krishnapuram et al. 2005).
#: Every other classifier and selector separates two classes and refuses more; the transformers take any labels.
MULTICLASS_METHODS = ("SMLR",)
#: Multi-class tools of scikit-learn a user would otherwise pick (named in the message for a multi-class file).
SKLEARN_MULTICLASS = ("LogisticRegression", "LinearSVC (one-vs-rest)", "RandomForestClassifier",
                      "KNeighborsClassifier", "SelectKBest(f_classif)")
_MISSING = ["", "NA", "NaN", "nan", "null", "NULL", "N/A", "n/a", "#N/A", "-", "?"]
_PATH_SUFFIXES = (".csv", ".tsv", ".txt", ".tab", ".gz", ".soft", ".h5ad")

# identifiers that look like genes (probe sets, gene databases, symbols) or like samples (accessions, barcodes)
_GENE_PATTERNS = [re.compile(p) for p in (
    r"^\d+_(?:[a-z]_)?(?:s_|x_|f_|i_|g_|r_)?at$", r"^[A-Za-z]{1,2}\d{4,}(?:_[a-z0-9]+)*[-_]at$", r"^AFFX[-_]",
    r"^ILMN_\d+$", r"^ENS[A-Z]*G\d{6,}", r"^N[MR]_\d+", r"^X[MR]_\d+", r"^A_\d+_P\d+$", r"^Hs\.\d+$",
    r"^LOC\d+$", r"^hsa-(?:miR|let)-", r"^(?:gene|probe|feature|pixel)[_.-]?\d+", r"^cg\d{8}$")]
_SAMPLE_PATTERNS = [re.compile(p, re.I) for p in (
    r"^GSM\d+$", r"^TCGA-", r"^(?:sample|patient|subject|case|control|tumou?r|normal|s|t10k)[ _.-]?\d+$",
    r"\.cel(?:\.gz)?$")]


def looks_like_path(value) -> bool:
    """True for a path-like value: an ``os.PathLike``, or a string with a path separator or a data-file suffix
    (registered data set names have neither)."""
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str):
        return False
    path = value.partition("?")[0]  # a reference string: its reading options follow the "?"
    return (os.sep in path or "/" in path or path.lower().endswith(_PATH_SUFFIXES)) and not value.startswith("<")


_REF_KEYS = ("label", "rows", "classes", "name", "impute")


def make_reference(path, *, label=None, rows=None, classes=None, name=None, impute=None) -> str:
    """One string that names a user's file and how to read it, e.g. ``"study.csv?label=class"``: what a notebook
    parameter, a grid cell or :func:`genesel.datasets.load_dataset` accepts wherever a registered name is
    accepted. ``classes`` is a pair ``(negative, positive)`` or ``"all"``; ``impute="knn"`` fills missing values
    over the whole file (default: kept, imputed inside training folds)."""
    from urllib.parse import urlencode

    query = {k: v for k, v in (("label", label), ("rows", rows), ("name", name), ("impute", impute)) if v is not None}
    if classes is not None:
        query["classes"] = classes if isinstance(classes, str) else ",".join(map(str, classes))
    text = os.fspath(path)
    return text + ("?" + urlencode(query) if query else "")


def parse_reference(ref) -> tuple[str, dict]:
    """(path, read_expression keywords) of a reference made by :func:`make_reference` (or a bare path)."""
    from urllib.parse import parse_qs

    text = os.fspath(ref)
    path, _, query = text.partition("?")
    opts = {}
    for k, v in parse_qs(query, keep_blank_values=True).items():
        if k not in _REF_KEYS:
            raise ValueError(f"{text}: unknown reading option {k!r}; use {', '.join(_REF_KEYS)}")
        opts[k] = v[-1]
    if "classes" in opts and opts["classes"].strip() != "all":
        opts["classes"] = tuple(c.strip() for c in opts["classes"].split(","))
    elif "classes" in opts:
        opts["classes"] = "all"
    if "impute" in opts and opts["impute"].strip().lower() in ("none", ""):
        opts["impute"] = None
    return path, opts


def file_identity(ref) -> dict | None:
    """What a grid cell's cache key records of a user file: the sha256 of its content (and of its sample sheet),
    never its path, so a renamed or moved file keeps its cached results and a changed one does not. None for a
    string that names no existing file."""
    if not looks_like_path(ref):
        return None
    path, opts = parse_reference(ref)
    if not os.path.isfile(path):
        return None
    out = {"sha256": file_sha256(path), **{k: v for k, v in opts.items() if k != "label"}}
    label = opts.get("label")
    if label is not None and looks_like_path(label) and os.path.isfile(label):
        out["sample_sheet_sha256"] = file_sha256(label)
    elif label is not None:
        out["label"] = label
    if isinstance(out.get("classes"), tuple):
        out["classes"] = list(out["classes"])
    return out


def file_sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _open_text(path: Path):
    raw = path.open("rb")
    head = raw.read(2)
    raw.seek(0)
    if head == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw), encoding="utf-8", errors="replace", newline="")
    return io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="")


def _head_lines(path: Path, n: int = 200) -> list[str]:
    out = []
    with _open_text(path) as fh:
        for line in fh:
            out.append(line.rstrip("\r\n"))
            if len(out) >= n:
                break
    return out


def _kind(path: Path) -> str:
    name = path.name.lower()
    if name.endswith(".h5ad"):
        return "h5ad"
    with path.open("rb") as fh:
        magic = fh.read(8)
    if magic.startswith(b"\x89HDF"):
        return "h5ad"
    head = _head_lines(path, 400)
    if any(ln.startswith(("^DATASET", "!dataset_table_begin")) for ln in head):
        return "gds"
    if any(ln.startswith(("!Series_", "!series_matrix_table_begin")) for ln in head):
        return "series_matrix"
    if head and head[0].startswith("^"):
        raise ValueError(f"{path}: a GEO SOFT file that is not a DataSet (GDS) file ({head[0][:40]!r}); download the "
                         "DataSet SOFT file (GDSxxxx.soft.gz) or the Series Matrix file (GSExxxx_series_matrix.txt.gz)")
    return "table"


# ---------------------------------------------------------------------------------------------------------------
# numeric tables
# ---------------------------------------------------------------------------------------------------------------


def _numeric(frame: pd.DataFrame, where: str, first_line: int, row_axis: str):
    """The float matrix of a table (numbers, or strings where the parser found text), or a ValueError naming the
    first non-numeric cell: the file's (1-based) line and the column's header."""
    out = np.empty(frame.shape, dtype=np.float64)
    for j, (col, s) in enumerate(frame.items()):
        if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
            out[:, j] = s.to_numpy(dtype=np.float64, na_value=np.nan)
            continue
        raw = s.astype(object).where(~s.isin(_MISSING), np.nan)
        num = pd.to_numeric(raw, errors="coerce")
        bad = num.isna().to_numpy() & raw.notna().to_numpy()
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{where}: a non-numeric value {raw.iloc[r]!r} at line {first_line + r}, column {col!r} "
                             f"({row_axis} {frame.index[r]!r}); expression values must be numbers (missing values "
                             "may be empty, NA, NaN or null)")
        out[:, j] = num.to_numpy(dtype=np.float64, na_value=np.nan)
    inf = np.isinf(out)
    if inf.any():
        r, c = np.argwhere(inf)[0]
        raise ValueError(f"{where}: an infinite value at line {first_line + r}, column {frame.columns[c]!r}")
    return out


_QUOTED = re.compile(r'"[^"]*"')


def _field_counts(lines, sep):
    """Fields per line (separators inside double quotes do not count)."""
    return [(_QUOTED.sub("", ln) if '"' in ln else ln).count(sep) + 1 for ln in lines]


def _parse_table(text: str, sep: str, where: str, line0: int = 1) -> pd.DataFrame:
    """A delimited table (first column = row identifiers, first line = column identifiers) parsed by pandas' C
    reader, after checking that every line has as many fields as the first data line (ragged rows are refused with
    the line's number: pandas would pad short lines with missing values without a word). ``line0``: the file's line
    number of the header."""
    lines = [ln for ln in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) < 2:
        raise ValueError(f"{where}: a header line and at least one data line are needed")
    counts = _field_counts(lines, sep)
    width = counts[1]
    if counts[0] not in (width, width - 1):
        raise ValueError(f"{where}: the header (line {line0}) has {counts[0]} fields but line {line0 + 1} has {width} "
                         f"(separator {sep!r})")
    for i, c in enumerate(counts[1:], start=1):
        if c != width and lines[i].strip():
            raise ValueError(f"{where}: line {line0 + i} has {c} fields but line {line0 + 1} has {width} (ragged rows; "
                             f"separator {sep!r})")
    if counts[0] == width - 1:  # a header without a name for the identifier column
        lines[0] = sep + lines[0]
    head = next(csv.reader([lines[0]], delimiter=sep, quotechar='"'))
    frame = pd.read_csv(io.StringIO("\n".join(lines)), sep=sep, index_col=0, na_values=_MISSING,
                        keep_default_na=False, dtype={0: str}, low_memory=False, quotechar='"',
                        float_precision="round_trip")
    frame.index = frame.index.astype(str).str.strip()
    frame.columns = pd.Index([h.strip() for h in head[1:]])  # as written: pandas renames repeated names "x.1"
    frame.index.name = head[0].strip() or None
    return frame


def _read_delimited(path: Path, sep=None, where=None):
    """(table, file line number of its first data line) of a CSV/TSV file."""
    where = where or str(path)
    with _open_text(path) as fh:
        text = fh.read().replace("\r\n", "\n").replace("\r", "\n")
    if sep is None:
        sample = "\n".join(text.split("\n", 20)[:20])
        try:
            sep = csv.Sniffer().sniff(sample, delimiters=",\t;").delimiter
        except csv.Error:
            first = sample.split("\n", 1)[0]
            sep = "\t" if "\t" in first else ("," if "," in first else ";")
    return _parse_table(text, sep, where), 2


def _check_unique(ids, what, where):
    ids = pd.Index(ids)
    dup = ids[ids.duplicated()]
    if len(dup):
        raise ValueError(f"{where}: duplicated {what} ID(s) {list(dict.fromkeys(dup.astype(str)))[:5]}: every "
                         f"{what} needs its own identifier")


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


def _orientation(frame: pd.DataFrame, label, rows: str, sheet_ids=None):
    """('samples' or 'genes' for the rows, the reason). In order: ``rows`` if given; the axis that holds the label
    column or row; the axis that holds the sample sheet's sample IDs; identifiers that look like genes or samples;
    the longer axis is the genes."""
    if rows in ("samples", "genes"):
        return rows, f"rows={rows!r} given"
    if rows != "auto":
        raise ValueError(f"rows must be 'auto', 'samples' or 'genes', got {rows!r}")
    if isinstance(label, str) and not looks_like_path(label):
        if label in frame.columns:
            return "samples", f"the label column {label!r}"
        if label in frame.index:
            return "genes", f"the label row {label!r}"
    if sheet_ids is not None:
        ids = set(map(str, sheet_ids))
        in_rows = np.mean([str(i) in ids for i in frame.index]) if len(frame.index) else 0.0
        in_cols = np.mean([str(c) in ids for c in frame.columns]) if len(frame.columns) else 0.0
        if in_rows != in_cols and max(in_rows, in_cols) >= 0.5:
            return ("samples", "the sample sheet names the row identifiers") if in_rows > in_cols else \
                ("genes", "the sample sheet names the column identifiers")
    r_gene, c_gene = _gene_like(frame.index), _gene_like(frame.columns)
    r_samp, c_samp = _sample_like(frame.index), _sample_like(frame.columns)
    if (c_samp >= 0.8 and r_samp < 0.2) or (r_gene >= 0.8 and c_gene < 0.2):
        return "genes", (f"row identifiers look like genes ({100 * r_gene:.0f} %) or column identifiers like "
                         f"samples ({100 * c_samp:.0f} %)")
    if (r_samp >= 0.8 and c_samp < 0.2) or (c_gene >= 0.8 and r_gene < 0.2):
        return "samples", (f"column identifiers look like genes ({100 * c_gene:.0f} %) or row identifiers like "
                           f"samples ({100 * r_samp:.0f} %)")
    n_r, n_c = frame.shape
    if n_r == n_c:
        raise ValueError("cannot tell samples from genes: the identifiers do not decide and the table is square; "
                         "pass rows='samples' or rows='genes'")
    rows_are = "genes" if n_r > n_c else "samples"
    return rows_are, (f"the identifiers do not decide; the longer axis ({max(n_r, n_c)} entries) is taken for "
                      "the genes")


# ---------------------------------------------------------------------------------------------------------------
# labels
# ---------------------------------------------------------------------------------------------------------------


def _read_sheet(path: Path) -> pd.DataFrame:
    """A sample sheet: two columns (sample ID, label); a header row is recognised (its first cell is not one of the
    IDs that follow and reads like a column name)."""
    frame = pd.read_csv(path, sep=None, engine="python", header=None, dtype=str, keep_default_na=False)
    if frame.shape[1] < 2:
        raise ValueError(f"sample sheet {path}: needs two columns (sample ID, label), got {frame.shape[1]}")
    frame = frame.iloc[:, :2].apply(lambda s: s.str.strip())
    frame.columns = ["sample", "label"]
    first = frame.iloc[0, 0].lower()
    if len(frame) > 1 and first in ("sample", "samples", "sample_id", "sampleid", "id", "sample id", "name", ""):
        frame = frame.iloc[1:]
    _check_unique(frame["sample"], "sample", f"sample sheet {path}")
    return frame.reset_index(drop=True)


def _sheet_labels(sheet: pd.DataFrame, path: Path, sample_ids, where) -> np.ndarray:
    known = set(map(str, sample_ids))
    stray = [s for s in sheet["sample"] if s not in known]
    if stray:
        raise ValueError(f"sample sheet {path}: label(s) for sample(s) {stray[:5]} that are not in {where}: check the "
                         "sample IDs (the sheet's first column must match the data's sample identifiers)")
    lab = dict(zip(sheet["sample"], sheet["label"]))
    return np.array([lab.get(str(s), "") for s in sample_ids], dtype=object)


def _finish_labels(labels, sample_ids, where):
    labels = np.array(["" if (v is None or (isinstance(v, float) and np.isnan(v))) else str(v).strip()
                       for v in labels], dtype=object)
    missing = [str(s) for s, v in zip(sample_ids, labels) if v == ""]
    if missing:
        raise ValueError(f"{where}: {len(missing)} sample(s) without a label, e.g. {missing[:5]}: give every sample "
                         "a label, or drop those samples")
    return labels


# ---------------------------------------------------------------------------------------------------------------
# the formats
# ---------------------------------------------------------------------------------------------------------------


def _read_table(path: Path, label, rows, sep, sheet_ids=None):
    where = str(path)
    frame, first = _read_delimited(path, sep=sep, where=where)
    rows_are, reason = _orientation(frame, label, rows, sheet_ids)
    label_values = None
    if isinstance(label, str) and not looks_like_path(label):
        axis_has = frame.columns if rows_are == "samples" else frame.index
        if label not in axis_has:
            raise ValueError(f"{where}: no {'column' if rows_are == 'samples' else 'row'} named {label!r} to read the "
                             f"labels from (samples are the {'rows' if rows_are == 'samples' else 'columns'})")
        if rows_are == "samples":
            label_values = frame[label].to_numpy(dtype=object)
            frame = frame.drop(columns=[label])
        else:
            label_values = frame.loc[label].to_numpy(dtype=object)
            frame = frame.drop(index=[label])
    samples_axis = frame.index if rows_are == "samples" else frame.columns
    genes_axis = frame.columns if rows_are == "samples" else frame.index
    _check_unique(samples_axis, "sample", where)
    _check_unique(genes_axis, "gene", where)
    X = _numeric(frame, where, first, "sample" if rows_are == "samples" else "gene")
    if rows_are == "genes":
        X = X.T
    return dict(X=X, gene_ids=np.asarray(genes_axis, dtype=str), sample_ids=np.asarray(samples_axis, dtype=str),
                labels=label_values, symbols=None, orientation=f"{rows_are} as rows", orientation_reason=reason)


def _geo_header(path: Path, begin: str):
    """(header lines before the table, the 0-based line number of the begin marker)."""
    header = []
    with _open_text(path) as fh:
        for i, line in enumerate(fh):
            line = line.rstrip("\r\n")
            if line.lower() == begin.lower():
                return header, i
            header.append(line)
    raise ValueError(f"{path}: no {begin} line: not a complete GEO file (truncated download?)")


def _geo_table(path: Path, begin: str, end: str):
    """(header lines, line number of the begin marker (1-based), the table's text)."""
    header, at = _geo_header(path, begin)
    with _open_text(path) as fh:
        for _ in range(at + 1):
            fh.readline()
        lines = []
        for line in fh:
            if line.rstrip("\r\n").lower() == end.lower():
                break
            lines.append(line.rstrip("\r\n"))
        else:
            raise ValueError(f"{path}: no {end} line after line {at + 1}: the table is cut short (truncated download?)")
    return header, at + 1, "\n".join(lines)


def _read_gds(path: Path, label):
    where = str(path)
    header, at, text = _geo_table(path, "!dataset_table_begin", "!dataset_table_end")
    table = _parse_table(text, "\t", where, line0=at + 1)
    if table.index.name != "ID_REF" or not len(table.columns) or table.columns[0] != "IDENTIFIER":
        raise ValueError(f"{where}: the DataSet table must start with the columns ID_REF and IDENTIFIER, got "
                         f"{[table.index.name, *table.columns[:1]]}")
    symbols = table["IDENTIFIER"].astype(str).to_numpy(dtype=object)
    frame = table.drop(columns=["IDENTIFIER"])
    samples = list(frame.columns)
    _check_unique(frame.index, "gene", where)
    _check_unique(samples, "sample", where)
    X = _numeric(frame, where, at + 2, "gene").T
    # subsets: ^SUBSET blocks with !subset_description, !subset_sample_id, !subset_type
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
    types = sorted({s.get("type", "") for s in subsets})
    labels = None
    if label is not None:
        chosen = [s for s in subsets if s.get("type", "").lower() == str(label).lower()]
        if not chosen:
            raise ValueError(f"{where}: no subset type {label!r}; the file has {types}")
        lab = {}
        for s in chosen:
            for gsm in s.get("sample_id", "").split(","):
                gsm = gsm.strip()
                if gsm:
                    if gsm in lab and lab[gsm] != s.get("description"):
                        raise ValueError(f"{where}: sample {gsm} is in two subsets of type {label!r} "
                                         f"({lab[gsm]!r} and {s.get('description')!r})")
                    lab[gsm] = s.get("description", "")
        stray = sorted(set(lab) - set(samples))
        if stray:
            raise ValueError(f"{where}: subset(s) of type {label!r} name sample(s) {stray[:5]} that have no column in "
                             "the value table")
        labels = np.array([lab.get(s, "") for s in samples], dtype=object)
    return dict(X=X, gene_ids=np.asarray(frame.index, dtype=str), sample_ids=np.asarray(samples, dtype=str),
                labels=labels, symbols=symbols, orientation="GEO DataSet (probes as rows)",
                orientation_reason="the GEO DataSet layout", label_choices=types)


def _unquote(v: str) -> str:
    v = v.strip()
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] == '"' else v


def _read_series_matrix(path: Path, label):
    where = str(path)
    header, at, text = _geo_table(path, "!series_matrix_table_begin", "!series_matrix_table_end")
    frame = _parse_table(text, "\t", where, line0=at + 1)
    if frame.index.name != "ID_REF":
        raise ValueError(f"{where}: the Series Matrix table must start with the column ID_REF, "
                         f"got {frame.index.name!r}")
    samples = list(frame.columns)
    _check_unique(frame.index, "gene", where)
    _check_unique(samples, "sample", where)
    X = _numeric(frame, where, at + 2, "gene").T
    fields: dict[str, list] = {}
    characteristics: dict[str, list] = {}
    for ln in header:
        if not ln.startswith("!Sample_"):
            continue
        parts = ln.split("\t")
        key = parts[0][len("!Sample_"):]
        vals = [_unquote(v) for v in parts[1:]]
        if len(vals) != len(samples):
            continue
        if key.startswith("characteristics"):
            for v in vals:
                if ":" in v:
                    k = v.split(":", 1)[0].strip()
                    characteristics.setdefault(k, [""] * len(samples))
            for j, v in enumerate(vals):
                if ":" in v:
                    k, val = v.split(":", 1)
                    characteristics[k.strip()][j] = val.strip()
        fields.setdefault(key, vals)
    labels = None
    if label is not None:
        key = str(label).removeprefix("!Sample_")
        if key in characteristics:
            labels = np.array(characteristics[key], dtype=object)
        elif key in fields:
            labels = np.array(fields[key], dtype=object)
        else:
            raise ValueError(f"{where}: no sample characteristic or !Sample_ field {label!r}; characteristics: "
                             f"{sorted(characteristics)}, fields: {sorted(fields)[:12]}")
    return dict(X=X, gene_ids=np.asarray(frame.index, dtype=str), sample_ids=np.asarray(samples, dtype=str),
                labels=labels, symbols=None, orientation="GEO Series Matrix (probes as rows)",
                orientation_reason="the GEO Series Matrix layout",
                label_choices=sorted(characteristics) + sorted(fields))


_SYMBOL_COLUMNS = ("gene_symbols", "gene_symbol", "symbol", "symbols", "gene_name", "gene_names", "IDENTIFIER")


def _from_anndata(adata, label, where):
    from scipy import sparse

    X = adata.X
    X = X.toarray() if sparse.issparse(X) else np.asarray(X)
    labels = None
    if label is not None:
        if label not in adata.obs.columns:
            raise ValueError(f"{where}: no obs column {label!r}; obs has {list(adata.obs.columns)}")
        labels = adata.obs[label].astype(object).to_numpy()
    symbols = None
    for c in _SYMBOL_COLUMNS:
        if c in adata.var.columns:
            symbols = adata.var[c].astype(str).to_numpy(dtype=object)
            break
    _check_unique(adata.obs_names, "sample", where)
    _check_unique(adata.var_names, "gene", where)
    return dict(X=np.asarray(X, dtype=np.float64), gene_ids=np.asarray(adata.var_names, dtype=str),
                sample_ids=np.asarray(adata.obs_names, dtype=str), labels=labels, symbols=symbols,
                orientation="AnnData (observations are samples)", orientation_reason="the AnnData layout")


def _from_frame(frame: pd.DataFrame, label, where):
    labels = None
    if isinstance(label, str):
        if label not in frame.columns:
            raise ValueError(f"{where}: no column {label!r} to read the labels from")
        labels = frame[label].to_numpy(dtype=object)
        frame = frame.drop(columns=[label])
    elif label is not None:
        lab = label if isinstance(label, pd.Series) else pd.Series(np.asarray(label), index=frame.index)
        if isinstance(label, pd.Series) and not lab.index.equals(frame.index):
            stray = lab.index.difference(frame.index)
            if len(stray):
                raise ValueError(f"{where}: labels for sample(s) {list(stray[:5])} that are not rows of the frame")
            lab = lab.reindex(frame.index)
        if len(lab) != len(frame):
            raise ValueError(f"{where}: {len(lab)} labels for {len(frame)} samples")
        labels = lab.to_numpy(dtype=object)
    _check_unique(frame.index, "sample", where)
    _check_unique(frame.columns, "gene", where)
    X = _numeric(frame, where, 1, "sample")
    return dict(X=X, gene_ids=np.asarray(frame.columns, dtype=str), sample_ids=np.asarray(frame.index, dtype=str),
                labels=labels, symbols=None, orientation="samples as rows (a DataFrame)",
                orientation_reason="a DataFrame's rows are samples")


def _multiclass_message(where, labels, names, label, file_name=None) -> str:
    """The error for a file with more than two classes: which, how to choose two, which methods take them all."""
    counts = {c: int(np.sum(labels == c)) for c in names}
    listed = ", ".join(f"{c!r} ({n})" for c, n in counts.items())
    a, b = sorted(counts, key=lambda c: -counts[c])[:2]
    lab = f"label={label!r}, " if isinstance(label, str) and not looks_like_path(label) else ""
    ref_lab = f"label={label}&" if isinstance(label, str) and not looks_like_path(label) else ""
    return (f"{where}: the labels name {len(names)} classes: {listed}. genesel's classifiers and selectors (those of "
            f"the five papers) separate two classes and refuse more, so choose two: read_expression(..., {lab}"
            f"classes=({a!r}, {b!r}))"
            + (f", the reference '{file_name}?{ref_lab}classes={a},{b}' (load_dataset, grid cells) or a notebook's "
               f"-p classes '{a},{b}'" if file_name else "")
            + f"; the samples of the other classes are left out. To keep "
            f"all {len(names)} classes, pass classes='all': {', '.join(MULTICLASS_METHODS)} (genesel) and "
            f"scikit-learn's multi-class estimators ({', '.join(SKLEARN_MULTICLASS)}) accept them")


# ---------------------------------------------------------------------------------------------------------------
# the entry point
# ---------------------------------------------------------------------------------------------------------------


def read_expression(source, *, label=None, rows: str = "auto", classes=None, name: str | None = None,
                    sep: str | None = None, impute: str | None = None):
    """Read an expression matrix into a :class:`~genesel.datasets.Dataset` (see the module doc).

    Parameters
    ----------
    source : a path (CSV/TSV, GEO DataSet SOFT or Series Matrix, ``.h5ad``; gzipped or not), a ``pandas.DataFrame``
        (samples as rows), an ``anndata.AnnData``, or a NumPy array (samples x genes).
    label : where the class labels are: a column or row name (tables), a path to a sample sheet (two columns:
        sample ID, label), a GEO subset type or sample characteristic, an ``obs`` column, or the labels themselves
        (a Series or array, for a DataFrame or an array source).
    rows : ``"auto"`` (decide from the identifiers), ``"samples"`` or ``"genes"``: what the rows of a table hold.
    classes : a pair ``(negative, positive)``: their order (-1, +1); samples of any other class are left out.
        ``"all"``: keep every class (coded 0..K-1 in sorted order; only :data:`MULTICLASS_METHODS` and scikit-learn's
        multi-class estimators take them). None (default): the labels must name two classes; more are refused with a
        message listing them.
    name : the data set's name in titles and tables (default: the file name).
    sep : a table's separator (default: sniffed).
    impute : None (default): missing values stay NaN, to be imputed inside each training part
        (:class:`genesel.preprocessing.MissingValueImputer`); ``"knn"``: gene-wise KNNimpute over the whole file.

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
    from genesel.datasets import Dataset

    extra: dict = {}
    sheet = file_name = None
    if isinstance(label, (str, os.PathLike)) and looks_like_path(label):
        if not Path(label).is_file():
            raise FileNotFoundError(f"no such sample sheet: {label}")
        sheet = _read_sheet(Path(label))
    if isinstance(source, (str, os.PathLike)):
        path = Path(source).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"no such expression file: {path}")
        where = str(path)
        kind = _kind(path)
        if kind == "h5ad":
            try:
                import anndata
            except ImportError as exc:  # pragma: no cover - anndata is a dependency
                raise ImportError("reading .h5ad files needs anndata: pip install anndata") from exc
            got = _from_anndata(anndata.read_h5ad(path), None if sheet is not None else label, where)
        elif kind == "gds":
            got = _read_gds(path, None if sheet is not None else label)
        elif kind == "series_matrix":
            got = _read_series_matrix(path, None if sheet is not None else label)
        elif sheet is not None:
            got = _read_table(path, None, rows, sep, sheet_ids=sheet["sample"].tolist())
        else:
            got = _read_table(path, label, rows, sep)
        extra.update(source=str(path.resolve()), sha256=file_sha256(path), format=kind)
        default_name = file_name = path.name
    elif isinstance(source, pd.DataFrame):
        where = f"DataFrame {name or ''}".strip()
        got = _from_frame(source, None if sheet is not None else label, where)
        default_name = "DataFrame"
    elif type(source).__name__ == "AnnData":
        where = "AnnData object"
        got = _from_anndata(source, label, where)
        default_name = "AnnData"
    else:
        X = np.asarray(source)
        if X.ndim != 2:
            raise ValueError(f"an array source must be 2-d (samples x genes), got shape {X.shape}")
        where = "array"
        frame = pd.DataFrame(X, index=[f"sample_{i}" for i in range(X.shape[0])],
                             columns=[f"gene_{j}" for j in range(X.shape[1])])
        got = _from_frame(frame, label, where)
        got["orientation"] = "samples as rows (an array)"
        default_name = "array"
    if sheet is not None:
        got["labels"] = _sheet_labels(sheet, Path(label), got["sample_ids"], where)
        extra["sample_sheet"] = str(Path(label).resolve())
    if got["labels"] is None:
        choices = got.get("label_choices")
        hint = f" (this file offers: {choices})" if choices else ""
        raise ValueError(f"{where}: say where the class labels are: label='<column name>' or a sample sheet's path"
                         f"{hint}")
    labels = _finish_labels(got["labels"], got["sample_ids"], where)
    X = got["X"]
    gene_ids, sample_ids = got["gene_ids"], got["sample_ids"]
    if impute not in (None, "knn"):
        raise ValueError(f"impute must be 'knn' or None, got {impute!r}")
    keep_all = isinstance(classes, str) and classes == "all"
    if keep_all:
        classes = None
    elif classes is not None:
        if isinstance(classes, str):
            raise ValueError(f"classes must be a pair (negative, positive) or 'all', got {classes!r}")
        classes = tuple(str(c) for c in classes)
        if len(classes) != 2:
            raise ValueError(f"classes must be a pair (negative, positive) or 'all', got {classes}")
        absent = [c for c in classes if c not in set(labels)]
        if absent:
            raise ValueError(f"{where}: class(es) {absent} do not occur; the labels are {sorted(set(labels))}")
        keep = np.isin(labels, classes)
        if not keep.all():
            extra["left_out"] = {str(k): int(v) for k, v in zip(*np.unique(labels[~keep], return_counts=True))}
        X, labels, sample_ids = X[keep], labels[keep], sample_ids[keep]
    names = sorted(set(labels)) if classes is None else list(classes)
    if len(names) < 2:
        raise ValueError(f"{where}: every sample has the label {names[0]!r}: one class cannot be classified; check "
                         "the label column (or give a sample sheet)")
    if len(names) > 2 and not keep_all:
        raise ValueError(_multiclass_message(where, labels, names, label, file_name))
    all_missing = np.isnan(X).all(axis=0)
    if all_missing.any():
        j = int(np.flatnonzero(all_missing)[0])
        raise ValueError(f"{where}: gene {str(gene_ids[j])!r} has no value in any sample "
                         f"({int(all_missing.sum())} such "
                         "gene(s)); remove it")
    if np.isnan(X).any():
        extra["missing_values"] = int(np.isnan(X).sum())
        if impute == "knn":
            from genesel.datasets import _knn_impute_genes

            X = _knn_impute_genes(X)
            extra["imputed"] = "gene-wise KNNimpute over the whole file (impute='knn')"
    if len(names) == 2:
        y = np.where(labels == names[1], 1, -1).astype(np.int64)
    else:
        extra["multiclass_note"] = (f"{len(names)} classes ({', '.join(names)}): the methods of the five papers are "
                                    f"binary; {' and '.join(MULTICLASS_METHODS)} accepts more (or pass classes=(a, b) "
                                    "for a two-class task)")
        y = np.searchsorted(np.asarray(names, dtype=object), labels).astype(np.int64)
    X = np.ascontiguousarray(X, dtype=np.float64)
    for arr in (X, y):
        arr.setflags(write=False)
    extra.update(orientation=got["orientation"], orientation_reason=got["orientation_reason"])
    if got.get("symbols") is not None:
        extra["symbols"] = np.asarray(got["symbols"], dtype=object)
    title = name or default_name
    description = (f"{title}: {X.shape[0]} samples x {X.shape[1]} genes, read from {where} "
                   f"({extra['orientation']}: {extra['orientation_reason']})")
    return Dataset(title, X, y, tuple(names), np.asarray(gene_ids), np.asarray(sample_ids), description,
                   f"user data ({where})", None, None, labels, extra)
