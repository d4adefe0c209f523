"""Writers of GEO's two text formats, built to GEO's published layout, for the round-trip tests of
genesel.expression_io (GEO's own files are not in the data mirror; these stand in for them).

- DataSet SOFT (``GDSxxxx.soft``): a ``^DATABASE`` block, the ``^DATASET`` header (``!dataset_*`` lines), one
  ``^SUBSET`` block per label value with ``!subset_dataset_id``, ``!subset_description``, ``!subset_sample_id``
  (comma-separated GSM accessions) and ``!subset_type``, then ``^DATASET`` again with one ``#`` line per column and
  the tab-separated value table between ``!dataset_table_begin`` and ``!dataset_table_end`` (``ID_REF``,
  ``IDENTIFIER`` = the gene symbol, then one column per sample; ``null`` for a missing value).
- Series Matrix (``GSExxxx_series_matrix.txt``): ``!Series_*`` lines, ``!Sample_*`` lines with one tab-separated,
  double-quoted value per sample (``!Sample_characteristics_ch1`` repeated, each value ``"key: value"``), then the
  table between ``!series_matrix_table_begin`` and ``!series_matrix_table_end`` with a quoted ``"ID_REF"`` header.
Values are written with 17 significant digits (enough to read back the same double).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np


def _open(path: Path):
    return gzip.open(path, "wt", encoding="utf-8", newline="\n", compresslevel=1) if path.suffix == ".gz" else \
        open(path, "w", encoding="utf-8", newline="\n")


def _rows(M, missing):
    """Tab-separated text of the rows of M, each value with 17 significant digits (which read back to the same
    double), ``missing`` for NaN; formatted a row at a time in C (a string format per row)."""
    fmt = "\t".join(["%.17g"] * M.shape[1])
    for r in M:
        line = fmt % tuple(r)
        yield line.replace("nan", missing) if np.isnan(r).any() else line


def write_gds_soft(path, X, gene_ids, sample_ids, labels, symbols=None, *, subset_type="disease state",
                   accession="GDS9999", extra_subsets=None):
    """``extra_subsets``: {subset type: one value per sample ('' for none)}, e.g. ``{"individual": [...]}``."""
    path = Path(path)
    n, d = X.shape
    symbols = gene_ids if symbols is None else symbols
    with _open(path) as fh:
        fh.write("^DATABASE = Geo\n!Database_name = Gene Expression Omnibus (GEO)\n!Database_institute = NCBI NLM "
                 "NIH\n!Database_web_link = http://www.ncbi.nlm.nih.gov/geo\n!Database_email = geo@ncbi.nlm.nih.gov\n")
        fh.write(f"^DATASET = {accession}\n!dataset_title = a test DataSet\n!dataset_description = written by the "
                 "genesel tests\n!dataset_type = Expression profiling by array\n!dataset_platform = GPL0\n"
                 f"!dataset_platform_organism = Homo sapiens\n!dataset_feature_count = {d}\n"
                 f"!dataset_sample_count = {n}\n!dataset_value_count = {n * d}\n!dataset_channel_count = 1\n")
        for k, value in enumerate(dict.fromkeys(labels)):
            members = ",".join(str(s) for s, lab in zip(sample_ids, labels) if lab == value)
            fh.write(f"^SUBSET = {accession}_{k + 1}\n!subset_dataset_id = {accession}\n!subset_description = "
                     f"{value}\n!subset_sample_id = {members}\n!subset_type = {subset_type}\n")
        for t, (kind, values) in enumerate((extra_subsets or {}).items()):
            for k, value in enumerate(v for v in dict.fromkeys(values) if v != ""):
                members = ",".join(str(s) for s, lab in zip(sample_ids, values) if lab == value)
                fh.write(f"^SUBSET = {accession}_{100 * (t + 1) + k}\n!subset_dataset_id = {accession}\n"
                         f"!subset_description = {value}\n!subset_sample_id = {members}\n!subset_type = {kind}\n")
        fh.write(f"^SUBSET = {accession}_99\n!subset_dataset_id = {accession}\n!subset_description = batch A\n"
                 f"!subset_sample_id = {','.join(map(str, sample_ids))}\n!subset_type = other\n")
        fh.write(f"^DATASET = {accession}\n#ID_REF = Platform reference identifier\n#IDENTIFIER = identifier\n")
        for s in sample_ids:
            fh.write(f"#{s} = Value for {s}\n")
        fh.write("!dataset_table_begin\n")
        fh.write("\t".join(["ID_REF", "IDENTIFIER", *map(str, sample_ids)]) + "\n")
        for j, line in enumerate(_rows(np.asarray(X, dtype=float).T, "null")):
            fh.write(f"{gene_ids[j]}\t{symbols[j]}\t{line}\n")
        fh.write("!dataset_table_end\n")


def write_series_matrix(path, X, gene_ids, sample_ids, labels, *, key="class", accession="GSE9999",
                        table_order=None, characteristics=None):
    """``table_order``: the samples' order in the value table (a permutation; default: the header's order), as
    GEO files may list them; ``characteristics``: more {key: one value per sample} lines."""
    path = Path(path)
    n, d = X.shape
    order = np.arange(n) if table_order is None else np.asarray(table_order)

    def row(name, values):
        return name + "\t" + "\t".join(f'"{v}"' for v in values) + "\n"

    with _open(path) as fh:
        fh.write(f'!Series_title\t"a test series"\n!Series_geo_accession\t"{accession}"\n!Series_status\t"Public"\n'
                 '!Series_platform_id\t"GPL0"\n\n')
        fh.write(row("!Sample_title", [f"sample {s}" for s in sample_ids]))
        fh.write(row("!Sample_geo_accession", sample_ids))
        fh.write(row("!Sample_source_name_ch1", [f"{lab} tissue" for lab in labels]))
        fh.write(row("!Sample_organism_ch1", ["Homo sapiens"] * n))
        fh.write(row("!Sample_characteristics_ch1", [f"{key}: {lab}" for lab in labels]))
        fh.write(row("!Sample_characteristics_ch1", [f"batch: {i % 3}" for i in range(n)]))
        for k, values in (characteristics or {}).items():
            fh.write(row("!Sample_characteristics_ch1", [f"{k}: {v}" for v in values]))
        fh.write(row("!Sample_platform_id", ["GPL0"] * n))
        fh.write("!series_matrix_table_begin\n")
        fh.write('"ID_REF"\t' + "\t".join(f'"{sample_ids[i]}"' for i in order) + "\n")
        for j, line in enumerate(_rows(np.asarray(X, dtype=float)[order].T, "")):
            fh.write(f'"{gene_ids[j]}"\t{line}\n')
        fh.write("!series_matrix_table_end\n")
