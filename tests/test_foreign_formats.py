"""Files of other tools that the readers do not read (an Excel workbook, a GCT 1.3 file, ...): a
notebook's ``datasets`` parameter names the format and the conversion instead of the reader's symptom, and the
conversion it gives reads (tried here as a user would, from the message itself)."""

import bz2
import gzip
import lzma
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from genesel.datasets import load_dataset
from genesel.foreign_formats import (covariate_genes, excel_mangled_genes, foreign_format_hint, identical_samples,
                                     mostly_missing_note)
from genesel.papers.presentation import dataset_list


def _featurecounts(folder):
    rng = np.random.default_rng(0)
    samples = [f"/data/bam/S{i + 1}.sorted.bam" for i in range(12)]
    counts = rng.negative_binomial(5, 0.05, size=(200, 12))
    table = pd.DataFrame(counts, columns=samples, index=pd.Index([f"ENSG{i:011d}" for i in range(200)], name="Geneid"))
    for k, col in enumerate(["Chr", "Start", "End", "Strand", "Length"]):
        table.insert(k, col, ["chr1", 1, 1000, "+", 1000][k])
    path = folder / "counts.txt"
    with path.open("w") as fh:
        fh.write('# Program:featureCounts v2.0.1; Command:"featureCounts" "-a" "genes.gtf" "-o" "counts.txt"\n')
        table.to_csv(fh, sep="\t")
    sheet = folder / "sheet.csv"
    pd.DataFrame({"sample": samples, "condition": ["ctrl"] * 6 + ["treated+"] * 6}).to_csv(sheet, index=False)
    return path, sheet


def _gct(folder):
    rng = np.random.default_rng(1)
    samples = [f"S{i}" for i in range(12)]
    path = folder / "data.gct"
    with path.open("w") as fh:
        fh.write("#1.2\n150\t12\nName\tDescription\t" + "\t".join(samples) + "\n")
        for i in range(150):
            fh.write(f"{1000 + i}_at\tGENE{i}\t" + "\t".join(f"{v:.3f}" for v in rng.normal(8, 2, 12)) + "\n")
    sheet = folder / "gsheet.csv"
    pd.DataFrame({"sample": samples, "class": ["A"] * 6 + ["B é"] * 6}).to_csv(sheet, index=False)
    return path, sheet


def _xlsx(folder):
    path = folder / "study.xlsx"
    with zipfile.ZipFile(path, "w") as z:  # the parts an .xlsx starts with
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    return path


def _run_conversion(message: str, folder: Path) -> Path:
    """Run the pandas line a hint prints (``pd.read_csv(...)....to_csv('name.csv')``), writing into ``folder``;
    the converted file's path."""
    code = re.search(r"(pd\.read_csv\(.*?\.to_csv\('[\w.]+'(?:, \w+='\w+')?\))", message).group(1)
    out = folder / re.search(r"to_csv\('([\w.]+)'", code).group(1)
    eval(code.replace(f".to_csv('{out.name}'", f".to_csv({str(out)!r}"), {"pd": pd})
    return out


def _named_and_converted(path: Path, label: str, reader_says: str, hint_says: str):
    """The reader refuses ``path`` with ``reader_says``, a notebook's parameter check names it with ``hint_says``,
    and the pandas line of that message, run as given, makes a file that reads (its Dataset)."""
    with pytest.raises(ValueError, match=reader_says):
        load_dataset(path, label=label)
    with pytest.raises(ValueError, match=hint_says) as err:
        dataset_list([str(path)], ["alon"], label=label)
    return load_dataset(_run_conversion(str(err.value), path.parent), label=label)


def test_featurecounts_output_reads_as_pandas_reads_it(tmp_path):
    """featureCounts output is read directly (it was named with a pandas line to convert it): the counts, genes and
    samples are those of pandas reading it (comment lines skipped, the five annotation columns dropped), a gene's
    exons written as ';'-lists are no obstacle, the counts are recognised, labels come from a sample sheet; the file
    without its comment line and gzipped reads the same; a label named as a column is refused with the remedy."""
    path, sheet = _featurecounts(tmp_path)
    text = path.read_text().splitlines()
    head = text[2].split("\t")
    head[1:6] = ["chr1;chr1;chr1", "11869;12613;13221", "12227;12721;14409", "+;+;+", "1652"]
    text[2] = "\t".join(head)
    path.write_text("\n".join(text) + "\n")
    ds = load_dataset(path, label=str(sheet))
    ref = pd.read_csv(path, sep="\t", comment="#", index_col=0).drop(columns=["Chr", "Start", "End", "Strand",
                                                                          "Length"])
    np.testing.assert_array_equal(ds.X, ref.to_numpy().T)
    assert list(ds.gene_ids) == list(ref.index) and list(ds.sample_ids) == list(ref.columns)
    assert ds.scale == "counts" and list(ds.classes) == ["ctrl", "treated+"]
    assert [ds.classes[int(c > 0)] for c in ds.y] == ["ctrl"] * 6 + ["treated+"] * 6
    assert foreign_format_hint(path) is None
    bare = tmp_path / "bare.txt.gz"
    with gzip.open(bare, "wt") as fh:
        fh.write("\n".join(text[1:]) + "\n")
    np.testing.assert_array_equal(load_dataset(bare, label=str(sheet)).X, ds.X)
    with pytest.raises(ValueError, match="a featureCounts table holds no labels.*sample sheet"):
        load_dataset(path, label="condition")
    assert dataset_list([f"{path}?label={sheet}"], ["alon"]) == [f"{path}?label={sheet}"]


def test_a_gct_file_reads_as_pandas_reads_it_and_a_broken_one_is_named(tmp_path):
    """GCT 1.2 is read directly (it was refused with a symptom, then named with a pandas line): the values, genes
    and samples are those of pandas reading it (two lines skipped, Description dropped), labels from a sample sheet;
    a table shorter than its dimensions line, and a label named as a column, are refused with the reason; a GCT 1.3
    file is still named, with its conversion."""
    path, sheet = _gct(tmp_path)
    ds = load_dataset(path, label=str(sheet))
    ref = pd.read_csv(path, sep="\t", skiprows=2, index_col=0).drop(columns="Description")
    np.testing.assert_array_equal(ds.X, ref.to_numpy().T)
    assert list(ds.gene_ids) == [str(g) for g in ref.index] and list(ds.sample_ids) == list(ref.columns)
    assert list(ds.classes) == ["A", "B é"]
    assert [ds.classes[int(c > 0)] if len(ds.classes) == 2 else c for c in ds.y] == ["A"] * 6 + ["B é"] * 6
    lines = path.read_text().splitlines()
    cut = tmp_path / "cut.gct"
    cut.write_text("\n".join(lines[:-10]) + "\n")
    with pytest.raises(ValueError, match="says 150 genes x 12 samples, the table holds 140 x 12"):
        load_dataset(cut, label=str(sheet))
    with pytest.raises(ValueError, match="a GCT file holds no labels"):
        load_dataset(path, label="class")
    v13 = tmp_path / "v13.gct"
    v13.write_text("#1.3\n" + "\n".join(lines[1:]) + "\n")
    with pytest.raises(ValueError, match="GCT file of version 1.3"):
        dataset_list([str(v13)], ["alon"], label=str(sheet))


@pytest.mark.parametrize("notes", [0, 3])
def test_a_genomestudio_export_is_named_and_its_conversion_keeps_the_signals(tmp_path, notes):
    """Illumina's GenomeStudio writes, for each sample, <sample>.AVG_Signal beside its Detection Pval, BEAD_STDERR and
    Avg_NBEADS columns (often after a few lines of notes): the readers took every column for a sample (or the notes
    for the header). The notebooks name the layout, and the pandas lines they print keep the signals, named by their
    samples: the converted file reads with the sample sheet, the values those of the AVG_Signal columns."""
    rng = np.random.default_rng(4)
    samples = [f"{5000 + i}_A" for i in range(8)]
    table = {"PROBE_ID": [f"ILMN_{1000000 + j}" for j in range(30)], "SYMBOL": [f"GENE{j}" for j in range(30)]}
    signal = rng.lognormal(6, 1, (30, 8)).round(2)
    for i, s in enumerate(samples):
        table[f"{s}.AVG_Signal"] = signal[:, i]
        table[f"{s}.Detection Pval"] = rng.uniform(0, 0.2, 30).round(4)
        table[f"{s}.BEAD_STDERR"] = rng.uniform(1, 10, 30).round(3)
        table[f"{s}.Avg_NBEADS"] = rng.integers(10, 40, 30)
    path = tmp_path / "SampleProbeProfile.txt"
    head = "".join(f"Illumina Inc. GenomeStudio note {k}\n" for k in range(notes))
    path.write_text(head + pd.DataFrame(table).to_csv(sep="\t", index=False))
    sheet = tmp_path / "sheet.csv"
    pd.DataFrame({"sample": samples, "group": ["ctl"] * 4 + ["trt"] * 4}).to_csv(sheet, index=False)
    with pytest.raises(ValueError, match=rf"is an Illumina GenomeStudio export \(its header, line {notes + 1}: for "
                                         r"each of 8 samples .*Avg_NBEADS, BEAD_STDERR, Detection Pval") as err:
        dataset_list([str(path)], ["alon"], label=str(sheet))
    code = re.search(r"(df = pd\.read_csv\(.*?\.to_csv\('expression\.csv'\))", str(err.value)).group(1)
    out = tmp_path / "expression.csv"
    exec(code.replace(".to_csv('expression.csv')", f".to_csv({str(out)!r})"), {"pd": pd})
    ds = load_dataset(out, label=str(sheet))
    assert list(ds.sample_ids) == samples and ds.X.shape == (8, 30)
    np.testing.assert_array_equal(ds.X, signal.T)


def test_hdf5_files_that_are_not_anndata_are_named(tmp_path):
    """A 10x Genomics feature-barcode matrix and a loom file were refused as "an HDF5 file that anndata cannot read
    as AnnData (TypeError: ...)"; the notebooks name each and what to do. An .h5ad still reads."""
    import anndata
    import h5py

    tenx = tmp_path / "filtered_feature_bc_matrix.h5"
    with h5py.File(tenx, "w") as f:
        g = f.create_group("matrix")
        g["data"], g["shape"] = np.arange(4), [2, 2]
    loom = tmp_path / "cells.loom"
    with h5py.File(loom, "w") as f:
        f["matrix"] = np.zeros((3, 2))
        f.create_group("row_attrs"), f.create_group("col_attrs")
    for path, what in ((tenx, "is a 10x Genomics feature-barcode matrix .*pseudobulk"),
                       (loom, r"is a loom file.*anndata\.io\.read_loom")):
        with pytest.raises(ValueError, match="anndata cannot read"):
            load_dataset(path, label="class")
        with pytest.raises(ValueError, match=what):
            dataset_list([str(path)], ["alon"], label="class")
    X, y, samples, genes = _table(n_genes=5)
    ad = anndata.AnnData(X, obs=pd.DataFrame({"class": y}, index=samples), var=pd.DataFrame(index=genes))
    ad.write_h5ad(tmp_path / "ok.h5ad")
    assert dataset_list([str(tmp_path / "ok.h5ad")], ["alon"], label="class")


def test_an_excel_workbook_is_named_and_a_readable_file_gets_no_hint(tmp_path):
    with pytest.raises(ValueError, match="is an Excel workbook.*Save As > CSV"):
        dataset_list([str(_xlsx(tmp_path))], ["alon"], label="class")
    plain = tmp_path / "plain.csv"
    pd.DataFrame({"g1": [1.0, 2.0], "g2": [3.0, 4.0]}).to_csv(plain)
    assert foreign_format_hint(plain) is None and foreign_format_hint(tmp_path / "absent.csv") is None


def _binary_files(folder):
    """Files of other tools as they start: where no writer is installed, the first bytes their format specifies
    (the OLE2 signature; Parquet's and Arrow's magic; R's serialisation headers, compressed as R's gzip, bzip2 and
    xz options write them); Matrix Market and JSON written by scipy and pandas."""
    import scipy.io
    import scipy.sparse

    rds_v3 = b"X\n\x00\x00\x00\x03\x00\x04\x04\x00\x00\x03\x05\x00\x00\x00\x00\x05UTF-8"
    files = {
        "study.xls": bytes.fromhex("D0CF11E0A1B11AE1") + bytes(504),
        "study.parquet": b"PAR1\x15\x04" + bytes(64) + b"PAR1",
        "study.feather": b"ARROW1\x00\x00" + bytes(64) + b"ARROW1",
        "eset.rds": gzip.compress(rds_v3),
        "eset_bzip2.rds": bz2.compress(rds_v3),
        "eset_ascii.rds": gzip.compress(b"A\n3\n263168\n197888\n5\nUTF-8\n"),
        "session.RData": gzip.compress(b"RDX3\n" + rds_v3),
        "session_xz.RData": lzma.compress(b"RDX2\nX\n\x00\x00\x00\x02"),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    scipy.io.mmwrite(folder / "matrix.mtx", scipy.sparse.random(30, 8, density=0.2, format="coo", random_state=0))
    X, y, samples, genes = _table(n_genes=5)
    pd.DataFrame(X, index=samples, columns=genes).assign(label=y).to_json(folder / "study.json")
    return folder


@pytest.mark.parametrize("name, what", [
    ("study.xls", r"legacy Excel workbook.*Save As > CSV"), ("study.parquet", r"Parquet.*pandas\.read_parquet"),
    ("study.feather", r"Feather.*pandas\.read_feather"), ("eset.rds", r"saveRDS.*exprs\(x\).*pData\(x\)"),
    ("eset_bzip2.rds", "saveRDS"), ("eset_ascii.rds", "saveRDS"), ("session.RData", r"R's save\(\).*assay\(x\)"),
    ("session_xz.RData", r"R's save\(\)"), ("matrix.mtx", r"Matrix Market.*pseudobulk"),
    ("study.json", r"JSON file.*pandas\.read_json")])
def test_binary_files_of_other_tools_are_named(tmp_path, name, what):
    """A legacy .xls was refused as "byte 0 (0xd0) is not valid UTF-8 ... pass encoding='latin-1'" (which would not
    help), Parquet and JSON as "a header line and at least one data line are needed", an R data file as "say where
    the class labels are" (or "no row named 'class'"). The notebooks name each format and its conversion."""
    path = _binary_files(tmp_path) / name
    with pytest.raises(ValueError):
        load_dataset(path, label="class")
    with pytest.raises(ValueError, match=f"is an? .*{what}"):
        dataset_list([str(path)], ["alon"], label="class")


def test_r_conversion_output_reads_with_its_sheet(tmp_path):
    """What R's write.csv makes of the R hint's lines: an expression table with an empty corner cell and a sheet of
    row names and the class column; they read together."""
    X, y, samples, genes = _table(n_genes=12, n_samples=10)
    expr = tmp_path / "expression.csv"
    pd.DataFrame(X.T, index=genes, columns=samples).rename_axis("").to_csv(expr, quoting=1)
    sheet = tmp_path / "samples.csv"
    pd.DataFrame({"condition": y}, index=pd.Index(samples, name="")).to_csv(sheet, quoting=1)
    ds = load_dataset(expr, label=str(sheet))
    assert list(ds.sample_ids) == list(samples) and ds.X.shape == (10, 12)
    np.testing.assert_allclose(ds.X, X)


def _table(n_genes=40, n_samples=16, seed=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(7.0, 1.0, size=(n_samples, n_genes))
    y = np.array(["tumour+"] * (n_samples // 2) + ["normal é"] * (n_samples - n_samples // 2))
    X[: n_samples // 2, :3] += 2.0
    return X, y, [f"S{i}" for i in range(n_samples)], [f"{200000 + i}_at" for i in range(n_genes)]


@pytest.mark.parametrize("sep", [",", "\t"])
def test_comment_lines_before_the_table_are_named_and_the_conversion_reads(tmp_path, sep):
    X, y, samples, genes = _table()
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "class", y)
    path = tmp_path / ("export.csv" if sep == "," else "export.tsv")
    with path.open("w", encoding="utf-8") as fh:
        fh.write("# exported by an analysis tool, v1.0\n# normalisation: RMA\n")
        table.to_csv(fh, sep=sep)
    with pytest.raises(ValueError) as err:
        load_dataset(path, label="class")
    assert "comment line" not in str(err.value)  # the reader names a symptom only
    with pytest.raises(ValueError, match="preceded by 2 comment lines starting with '#'") as err:
        dataset_list([str(path)], ["alon"], label="class")
    out = _run_conversion(str(err.value), tmp_path)
    ds = load_dataset(out, label="class")
    order = np.argsort(ds.sample_ids)
    np.testing.assert_allclose(ds.X[order], X[np.argsort(samples)], rtol=1e-12)
    assert sorted(ds.classes) == sorted(set(y))


def _annotated(folder, stray=False):
    """Genes x samples: the probe ID, a symbol and a description column, then the samples; a sample sheet."""
    X, y, samples, genes = _table()
    table = pd.DataFrame(X.T, index=pd.Index(genes, name="ID_REF"), columns=samples)
    table.insert(0, "Gene Symbol", [f"SYM{i}" for i in range(len(genes))])
    table.insert(1, "Description", [f"protein {i}, isoform a" for i in range(len(genes))])
    path = folder / "annotated.csv"
    table.to_csv(path)
    sheet = folder / "sheet.csv"
    pd.DataFrame({"sample": samples, "class": y}).to_csv(sheet, index=False)
    return path, sheet, X


def test_annotation_columns_after_the_gene_id_are_named_and_the_conversion_reads(tmp_path):
    path, sheet, X = _annotated(tmp_path)
    with pytest.raises(ValueError, match="non-numeric value 'SYM0'") as err:
        load_dataset(path, label=str(sheet))
    assert foreign_format_hint(path) is None  # named from the reader's message, not from the file alone
    with pytest.raises(ValueError, match=r"followed by 2 annotation columns \('Gene Symbol', 'Description'\)") as err:
        dataset_list([str(path)], ["alon"], label=str(sheet))
    out = _run_conversion(str(err.value), tmp_path)
    ds = load_dataset(out, label=str(sheet))
    assert ds.X.shape == X.shape
    np.testing.assert_allclose(ds.X, X, rtol=1e-12)


def test_a_text_column_beside_the_labels_is_named_with_groups_not_as_annotation(tmp_path):
    """A samples x genes table with its label column and a donor column, read without groups=: the notebooks called
    it "a genes x samples table whose gene ID is followed by 2 annotation columns" and offered to drop the labels too.
    Given the label, the other text column is named with groups= and the file reads with it."""
    X, y, samples, genes = _table()
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "class", y)
    table.insert(1, "donor", [f"d{i // 2}" for i in range(len(samples))])
    path = tmp_path / "with_donor.csv"
    table.to_csv(path)
    with pytest.raises(ValueError, match=r"samples x genes table with 1 text column besides its labels \('class'\): "
                                         r"'donor'.*pass groups='donor'") as err:
        dataset_list([str(path)], ["alon"], label="class")
    assert "annotation column" not in str(err.value)
    ds = load_dataset(path, label="class", groups="donor")
    np.testing.assert_allclose(ds.X, X, rtol=1e-12)
    assert ds.extra["n_groups"] == len(samples) // 2


def test_a_stray_word_in_a_sample_column_gets_no_annotation_hint(tmp_path):
    """A non-numeric value among the samples is a fault of the data, not an annotation column: the reader's own
    message stands."""
    X, y, samples, genes = _table()
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes).astype(object)
    table.insert(0, "class", y)
    table.iloc[3, 5] = "n.d."
    path = tmp_path / "stray.csv"
    table.to_csv(path)
    with pytest.raises(ValueError) as err:
        load_dataset(path, label="class")
    assert foreign_format_hint(path, str(err.value)) is None
    with pytest.raises(ValueError, match="non-numeric value 'n.d.'") as err2:
        dataset_list([str(path)], ["alon"], label="class")
    assert "annotation" not in str(err2.value) and "comment" not in str(err2.value)


@pytest.mark.parametrize("orientation", ["samples", "genes"])
def test_a_covariate_among_the_genes_is_refused_by_name(tmp_path, orientation):
    """A numeric covariate kept in the expression table (a column 'Age' beside the genes, a row 'batch' among them)
    is read as one more gene, silently (the reader is the reference: it takes it); the notebooks refuse the file
    and name it. Without it the same file passes."""
    X, y, samples, genes = _table()
    rng = np.random.default_rng(5)
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(7, "Age", rng.integers(30, 80, size=len(samples)).astype(float))
    table.insert(20, "batch", rng.integers(1, 3, size=len(samples)).astype(float))
    sheet = tmp_path / "sheet.csv"
    pd.DataFrame({"sample": samples, "class": y}).to_csv(sheet, index=False)
    path, clean = tmp_path / "with_covariates.csv", tmp_path / "clean.csv"
    if orientation == "samples":
        table.insert(0, "class", y)
        table.to_csv(path)
        table.drop(columns=["Age", "batch"]).to_csv(clean)
        label = "class"
    else:
        table.T.to_csv(path)
        table.drop(columns=["Age", "batch"]).T.to_csv(clean)
        label = str(sheet)
    ds = load_dataset(path, label=label)
    assert ds.X.shape == (len(samples), len(genes) + 2) and covariate_genes(ds.gene_ids) == ["Age", "batch"]
    with pytest.raises(ValueError, match=r"holds 'Age', 'batch' among its genes: those are the names of samples' "
                                         r"covariates.*sample sheet"):
        dataset_list([str(path)], ["alon"], label=label)
    assert dataset_list([str(clean)], ["alon"], label=label)



def test_a_samples_table_with_a_text_column_apart_from_its_label_is_named(tmp_path):
    """A sample table as Partek or Qlucore export it: ID, group, then sample columns (age, RNA integrity, a scan
    date) before the genes. Given label='Group', the scan date was refused with "did you mean label='Scan date'?";
    the message names the layout, every sample column (the numeric covariates too), and its pandas line reads."""
    X, y, samples, genes = _table(n_genes=30, n_samples=12)
    rng = np.random.default_rng(4)
    table = pd.DataFrame(X, index=pd.Index(samples, name="Sample ID"), columns=genes)
    table.insert(0, "Group", y)
    table.insert(1, "Age", rng.integers(30, 80, size=12))
    table.insert(2, "RIN", np.round(rng.uniform(6, 9.5, size=12), 1))
    table.insert(3, "Scan date", [f"2019-03-0{1 + i % 5}" for i in range(12)])
    path = tmp_path / "export.csv"
    table.to_csv(path)
    ds = _named_and_converted(path, "Group", "did you mean label='Scan date'",
                              r"samples x genes table with 1 text column besides its labels \('Group'\): "
                              r"'Scan date'.*numeric columns 'Age', 'RIN' are named like")
    assert list(ds.gene_ids) == genes and list(ds.sample_ids) == samples
    np.testing.assert_allclose(ds.X, X)


def test_covariate_names_are_matched_without_case_or_separators_and_a_gene_named_like_one_is_not():
    # every registered set's gene IDs are checked in test_expression_io (test_every_registered_set_reads_back...)
    assert covariate_genes(["EFS", "AGER", "Age_at_diagnosis", "OS.time", "vital status", "SEX", "1007_s_at"]) == [
        "Age_at_diagnosis", "OS.time", "vital status", "SEX"]


def test_quoted_numbers_whose_thousands_mark_is_the_separator_are_named_and_the_conversion_reads(tmp_path):
    """A spreadsheet's formatted cells saved as CSV ("1,100.5" in a comma-separated file): the reader cuts the field
    in two and stopped with numpy's 'could not broadcast' (before this hint). With ';' between fields ("1.100,5")
    the reader's own message names decimal= and thousands=, and no hint is added."""
    X, y, samples, genes = _table(n_genes=6)
    X = X * 300.0  # values in the thousands: some get a group mark

    def write(path, sep, cell):
        path.write_text("\n".join([sep.join(["sample", "class", *genes])]
                                  + [sep.join([s, c, *map(cell, row)]) for s, c, row in zip(samples, y, X)]) + "\n")
        return path

    path = write(tmp_path / "formatted.csv", ",", lambda v: f'"{v:,.2f}"' if "," in f"{v:,.2f}" else f"{v:.2f}")
    with pytest.raises(ValueError):
        load_dataset(path, label="class")
    with pytest.raises(ValueError, match="thousands mark inside quotes.*also the separator ','") as err:
        dataset_list([str(path)], ["alon"], label="class")
    out = _run_conversion(str(err.value), tmp_path)
    ds = load_dataset(out, label="class")
    np.testing.assert_allclose(ds.X, np.round(X, 2), rtol=1e-12)
    assert foreign_format_hint(out) is None

    european = write(tmp_path / "european.csv", ";",
                     lambda v: '"' + f"{v:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".") + '"')
    with pytest.raises(ValueError, match="pass decimal=',' and thousands='.'") as err:
        dataset_list([str(european)], ["alon"], label="class")
    assert "inside quotes" not in str(err.value)
    ds = load_dataset(european, label="class", decimal=",", thousands=".")
    np.testing.assert_allclose(ds.X, np.round(X, 2), rtol=1e-12)


def test_repeated_gene_ids_get_the_remedy_and_it_reads(tmp_path):
    """Probes of one gene under its symbol (a table) or repeated var_names (AnnData): the reader refuses and names
    the IDs; a notebook adds how to make them unique, and the file so mended reads."""
    X, y, samples, genes = _table(n_genes=8)
    symbols = ["TP53", "MYC", "TP53", "EGFR", "KRAS", "MYC", "GAPDH", "ACTB"]
    table = pd.DataFrame(X.T, index=pd.Index(symbols, name="gene"), columns=samples)
    path = tmp_path / "symbols.csv"
    table.to_csv(path)
    sheet = tmp_path / "sheet.csv"
    pd.DataFrame({"sample": samples, "class": y}).to_csv(sheet, index=False)
    with pytest.raises(ValueError, match=r"one gene ID names several.*df\.groupby\(level=0\)\.mean.*"
                                         r"duplicated gene ID\(s\) \['TP53', 'MYC'\]"):
        dataset_list([str(path)], ["alon"], label=str(sheet))
    mended = tmp_path / "collapsed.csv"
    pd.read_csv(path, index_col=0).groupby(level=0).mean().to_csv(mended)
    assert load_dataset(mended, label=str(sheet)).X.shape == (len(samples), 6)

    ad = pytest.importorskip("anndata")
    h5ad = tmp_path / "cells.h5ad"
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # anndata's own "Variable names are not unique"
        adata = ad.AnnData(X, obs=pd.DataFrame({"class": y}, index=samples), var=pd.DataFrame(index=symbols))
        adata.write_h5ad(h5ad)
        with pytest.raises(ValueError, match=r"var_names repeat.*var_names_make_unique\(\).*duplicated gene ID"):
            dataset_list([str(h5ad)], ["alon"], label="class")
        adata.var_names_make_unique()
        adata.write_h5ad(tmp_path / "unique.h5ad")
    assert load_dataset(tmp_path / "unique.h5ad", label="class").X.shape == X.shape


def test_a_space_separated_table_from_r_is_named_and_the_reference_it_gives_reads(tmp_path):
    """R's write.table (quoted names, fields separated by spaces, the header one field short) was refused as 'no row
    named class'; a notebook names the separator and gives the reference that reads it."""
    X, y, samples, genes = _table(n_genes=5)
    path = tmp_path / "from_r.txt"
    path.write_text("\n".join([" ".join(f'"{g}"' for g in [*genes, "class"])]
                              + [" ".join([f'"{s}"', *(f"{v:.4f}" for v in row), f'"{c}"'])
                                 for s, row, c in zip(samples, X, y)]) + "\n")
    with pytest.raises(ValueError, match="separated by spaces.*sep=%20") as err:
        dataset_list([str(path)], ["alon"], label="class")
    ref = re.search(r"e\.g\. '(.*?)'$", str(err.value).split(". (The reader said")[0]).group(1)
    ds = load_dataset(dataset_list([ref], ["alon"])[0])
    np.testing.assert_allclose(ds.X, np.round(X, 4), rtol=1e-12)
    assert list(ds.gene_ids) == list(genes)
    comma = tmp_path / "from_r.csv"
    comma.write_text(path.read_text().replace(" ", ","))
    assert foreign_format_hint(comma) is None


def test_lines_ending_with_the_separator_are_named_and_the_conversion_reads(tmp_path):
    """Every line ends with a tab: the reader saw an empty last column ("gene '' has no value in any sample"); a
    notebook names the trailing separators and the pandas line that removes them."""
    X, y, samples, genes = _table(n_genes=6)
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "class", y)
    path = tmp_path / "trailing.tsv"
    path.write_text("".join(line + "\t\n" for line in table.to_csv(sep="\t").splitlines()))
    with pytest.raises(ValueError, match="gene '' has no value"):
        load_dataset(path, label="class")
    with pytest.raises(ValueError, match=r"every line ends with the separator '\\t'") as err:
        dataset_list([str(path)], ["alon"], label="class")
    out = _run_conversion(str(err.value), tmp_path)
    np.testing.assert_allclose(load_dataset(out, label="class").X, X, rtol=1e-12)


def _labelled(path, classes, genes=None):
    rng = np.random.default_rng(3)
    genes = genes or [f"g{i}" for i in range(20)]
    table = pd.DataFrame(rng.normal(8, 1, (len(classes), len(genes))), columns=genes,
                         index=pd.Index([f"s{i}" for i in range(len(classes))], name="id"))
    table.insert(0, "class", classes)
    table.to_csv(path)
    return path


@pytest.mark.parametrize("repeated", [False, True])
def test_gene_symbols_excel_made_dates_are_refused_by_name(tmp_path, repeated):
    """Gene symbols that Excel turned into dates (SEPT2 -> 2-Sep, MARCH1 and MARC1 -> 1-Mar) were read as gene IDs
    without a word, and when two collided the remedy offered for repeated IDs was to average them: two genes merged.
    A notebook now names the dates and says where they come from, and never offers the average for them."""
    dates = ["1-Mar", "2-Sep", "1-Dec", "1-Mar" if repeated else "Sep-07", "2.31E+13"]
    path = _labelled(tmp_path / "study.csv", ["t"] * 6 + ["n"] * 6, dates + [f"g{i}" for i in range(15)])
    with pytest.raises(ValueError, match="Excel turns gene symbols into dates") as err:
        dataset_list([f"{path}?label=class"], ["alon"])
    assert "'1-Mar'" in str(err.value) and "groupby" not in str(err.value)
    if not repeated:
        assert "5 gene ID(s)" in str(err.value)
    renamed = _labelled(tmp_path / "fixed.csv", ["t"] * 6 + ["n"] * 6,
                        ["MARCH1", "SEPTIN2", "DELEC1", "SEPTIN7", "2310009E13"] + [f"g{i}" for i in range(15)])
    assert dataset_list([f"{renamed}?label=class"], ["alon"]) == [f"{renamed}?label=class"]


def test_what_excel_makes_of_a_gene_is_told_from_genes_named_like_it():
    assert excel_mangled_genes(["2-Sep", "Sep-02", "1-MAR", "2.31E+13", "7E+05"]) == [
        "2-Sep", "Sep-02", "1-MAR", "2.31E+13", "7E+05"]
    assert excel_mangled_genes(["SEPTIN2", "MARCH1", "2310009E13", "1-Mar-2", "HLA-A", "C1orf1", "12-Sep-2006x",
                                "123-Sep", "Sep-123", "1.5", "E+13"]) == []


@pytest.mark.parametrize("board", ["binary", "multiclass"])
def test_a_label_written_na_is_named_as_a_missing_label(tmp_path, board):
    """R's write.csv writes a missing label as NA; the readers take a label for missing only when its cell is empty,
    so NA was a class: on the multi-class board, six NA samples made a class of their own, without a word. A notebook
    now refuses it by name and says how to leave those samples out; naming NA in classes keeps it."""
    from genesel.leaderboard.tables import board_parameter

    classes = ["a"] * 6 + ["b"] * 6 + ["c"] * 6 + ["NA"] * 6
    path = _labelled(tmp_path / "study.csv", classes if board == "multiclass" else classes[6:])
    with pytest.raises(ValueError, match=r"'NA' is how R \(write.csv\) or pandas") as err:
        board_parameter(board, [str(path)], False, label="class")
    if board == "multiclass":
        others = '["a", "b", "c"]'
        assert f"-p classes '{others}'" in str(err.value)
        got = board_parameter(board, [str(path)], False, label="class", classes=["a", "b", "c"])
        assert got == ("multiclass", [f"{path}?label=class&classes=a,b,c"])
        kept = board_parameter(board, [str(path)], False, label="class", classes=["a", "b", "c", "NA"])
        assert kept == ("multiclass", [f"{path}?label=class&classes=a,b,c,NA"])


def test_one_class_spelled_two_ways_is_named(tmp_path):
    """``Tumor`` and ``tumor`` (or ``ER +`` and ``ER+``) were two classes: on the multi-class board a third class
    of their samples, without a word. A notebook names them; listing both in classes keeps them apart."""
    from genesel.leaderboard.tables import board_parameter

    path = _labelled(tmp_path / "study.csv", ["Tumor"] * 6 + ["tumor"] * 6 + ["normal"] * 6 + ["ER +"] * 6)
    with pytest.raises(ValueError, match="'Tumor' and 'tumor' differ only in letter case") as err:
        board_parameter("multiclass", [str(path)], False, label="class")
    assert "'Tumor' (6), 'tumor' (6)" in str(err.value)
    with pytest.raises(ValueError, match="'Tumor' and 'tumor' differ only in letter case"):
        dataset_list([f"{path}?label=class"], ["alon"])  # a binary notebook: the reader's question, and the note
    kept = board_parameter("multiclass", [str(path)], False, label="class", classes=["Tumor", "tumor", "normal"])
    assert kept[0] == "multiclass"


@pytest.mark.parametrize("sheet_ids, data_ids, orientation", [
    ([str(i) for i in range(1, 13)], [f"{i:03d}" for i in range(1, 13)], "genes"),  # Excel dropped the zeros
    ([f"{i:03d}.CEL" for i in range(1, 13)], [f"{i:03d}" for i in range(1, 13)], "genes"),  # file names
    ([f"{i:02d}-A" for i in range(1, 13)], [f"X{i:02d}.A" for i in range(1, 13)], "genes"),  # R's make.names
    ([f"patient_{i}" for i in range(1, 13)], [f"Patient-{i:02d}" for i in range(1, 13)], "samples"),
])
def test_a_sample_sheet_written_another_way_is_matched_to_the_data(tmp_path, sheet_ids, data_ids, orientation):
    """A sheet whose IDs are the data's written another way ('1' for '001', '001.CEL', R's 'X01.A' for '01-A') was
    refused with "check the sample IDs" alone. A notebook now pairs them, sheet ID to data ID; the sheet written as the
    data names its samples reads."""
    rng = np.random.default_rng(4)
    table = pd.DataFrame(rng.normal(8, 1, (20, 12)), index=pd.Index([f"g{i}" for i in range(20)], name="gene"),
                         columns=data_ids)
    (table if orientation == "genes" else table.T.rename_axis("id")).to_csv(tmp_path / "data.csv")
    pd.DataFrame({"sample": sheet_ids, "class": ["a"] * 6 + ["b"] * 6}).to_csv(tmp_path / "sheet.csv", index=False)
    with pytest.raises(ValueError, match="the sheet's sample IDs are the data's written another way") as err:
        dataset_list([f"{tmp_path / 'data.csv'}?label={tmp_path / 'sheet.csv'}"], ["alon"])
    pairs = re.findall(r"'([^']*)' is '([^']*)'", str(err.value))
    assert pairs == list(zip(sheet_ids, data_ids))[:3]
    pd.DataFrame({"sample": data_ids, "class": ["a"] * 6 + ["b"] * 6}).to_csv(tmp_path / "fixed.csv", index=False)
    ref = f"{tmp_path / 'data.csv'}?label={tmp_path / 'fixed.csv'}"
    assert dataset_list([ref], ["alon"]) == [ref]


def test_a_sample_sheet_of_another_study_gets_no_pairing(tmp_path):
    rng = np.random.default_rng(5)
    pd.DataFrame(rng.normal(8, 1, (20, 12)), index=pd.Index([f"g{i}" for i in range(20)], name="gene"),
                 columns=[f"S{i}" for i in range(12)]).to_csv(tmp_path / "data.csv")
    pd.DataFrame({"sample": [f"T{i}" for i in range(12)], "class": ["a"] * 6 + ["b"] * 6}).to_csv(
        tmp_path / "sheet.csv", index=False)
    with pytest.raises(ValueError, match="check the sample IDs") as err:
        dataset_list([f"{tmp_path / 'data.csv'}?label={tmp_path / 'sheet.csv'}"], ["alon"])
    assert "written another way" not in str(err.value)


def test_rna_seq_quantities_that_are_not_whole_are_named_and_scale_counts_offered(tmp_path):
    """RSEM or salmon expected counts (and TPM) are not whole numbers, so the scale rule reads them as raw
    intensities and logs them without a library-size normalisation. The notebooks' notes on a user's file now say
    they look like sequencing quantities and how to have them normalised (scale=counts); not for counts, not for
    intensities without zeros, not once scale is given."""
    from genesel.leaderboard.tables import dataset_table
    from genesel.papers.presentation import file_notes

    rng = np.random.default_rng(6)
    mu = rng.lognormal(3, 2, 300)
    counts = rng.negative_binomial(5, 5 / (5 + mu), size=(12, 300)).astype(float)
    expected = counts + rng.choice([0, 0.5, 0.25, 0.73], size=counts.shape) * (counts > 0)
    intensities = rng.lognormal(6, 1.5, size=(12, 300))
    pd.DataFrame({"sample": [f"s{i}" for i in range(12)], "class": ["a"] * 6 + ["b"] * 6}).to_csv(
        tmp_path / "sheet.csv", index=False)
    said = {}
    for name, M in [("rsem", expected), ("counts", counts), ("array", intensities)]:
        pd.DataFrame(M.T, index=pd.Index([f"ENSG{i:011d}" for i in range(300)], name="gene"),
                     columns=[f"s{i}" for i in range(12)]).to_csv(tmp_path / f"{name}.csv")
        ref = f"{tmp_path / name}.csv?label={tmp_path / 'sheet.csv'}"
        note = file_notes([ref]).data
        assert (note.count("look like RNA-seq quantities") == 1) == (name == "rsem"), name
        said[name] = dataset_table([ref]).iloc[0, -1]
    assert "add scale=counts" in said["rsem"] and "RNA-seq" not in said["counts"] + said["array"]
    given = f"{tmp_path / 'rsem'}.csv?label={tmp_path / 'sheet.csv'}&scale=counts"
    assert "RNA-seq" not in file_notes([given]).data
    assert "TMM" in file_notes([given]).data


def test_samples_and_genes_missing_most_values_are_named(tmp_path):
    """A sample missing 39 of its 50 values (a failed array) was reported as "39 missing value(s)", with imputation
    as the way out, which would invent most of that sample. Named with its count, in the parameter check's message
    and in notebook 06's notes on the file (which imputes inside every training part); shares counted by hand."""
    from genesel.papers.presentation import file_notes

    X, y, samples, genes = _table(n_genes=50, n_samples=20)
    X[0, :39] = np.nan  # S0: 39 of 50 genes missing
    X[1, :20] = np.nan  # S1: 20 of 50, under half: not named
    X[2:14, 45] = np.nan  # gene 45: 12 of 20 samples missing
    X[5, 46] = np.nan
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "class", y)
    path = tmp_path / "study.csv"
    table.to_csv(path)
    ds = load_dataset(path, label="class")
    note = mostly_missing_note(ds)
    counts = np.isnan(ds.X).sum(axis=1)
    assert counts[list(ds.sample_ids).index("S0")] == 39 and sorted(counts)[-2] == 20  # S1
    assert note.startswith("1 sample misses more than half its values: S0 (39 of its 50 genes); 1 gene misses")
    assert f"{genes[45]} (12 of its 20 samples)" in note and "S1" not in note and genes[46] not in note
    assert note.endswith("consider leaving them out of the file")
    with pytest.raises(ValueError, match=r"has \d+ missing value\(s\); 1 sample misses more than half .*S0 \(39"):
        dataset_list([str(path)], ["alon"], label="class")
    assert "S0 (39 of its 50 genes)" in file_notes([f"{path}?label=class"]).data
    X[0, :39] = X[2:14, 45] = 1.0  # S1's 20 and gene 46's one missing value stay: no sample or gene named
    table.iloc[:, 1:] = X
    table.to_csv(path)
    assert mostly_missing_note(load_dataset(path, label="class")) is None


def test_an_anndata_file_with_samples_as_variables_is_named_and_its_transpose_reads(tmp_path):
    """Genes as observations and the samples' labels in ``var`` (a matrix written genes x samples) was refused as
    "no obs column 'class' ... obs has []"; the message names the layout, and its line, run as given, reads."""
    import anndata

    X, y, samples, genes = _table(n_genes=30, n_samples=12)
    path = tmp_path / "genes_as_obs.h5ad"
    anndata.AnnData(X.T, obs=pd.DataFrame(index=genes), var=pd.DataFrame({"class": y}, index=samples)) \
        .write_h5ad(path)
    with pytest.raises(ValueError, match="no obs column 'class'"):
        load_dataset(path, label="class")
    with pytest.raises(ValueError, match=r"observations are the genes .*'class' is a var column") as err:
        dataset_list([str(path)], ["alon"], label="class")
    code = re.search(r"(anndata\.read_h5ad\(.*?\)\.T\.write_h5ad\('samples_as_obs\.h5ad'\))", str(err.value)).group(1)
    out = tmp_path / "samples_as_obs.h5ad"
    exec(code.replace("'samples_as_obs.h5ad'", repr(str(out))), {"anndata": anndata})
    ds = load_dataset(out, label="class")
    assert list(ds.sample_ids) == samples and list(ds.gene_ids) == genes
    np.testing.assert_allclose(ds.X, X, rtol=1e-6)
    with pytest.raises(ValueError, match="no obs column 'kind'") as err:  # a column nowhere: no hint
        dataset_list([str(path)], ["alon"], label="kind")
    assert "observations are the genes" not in str(err.value)


def test_a_series_matrix_without_values_names_its_supplementary_files(tmp_path):
    """An RNA-seq series' Series Matrix file (GEO keeps the counts in supplementary files; the table is a header
    and no line) was refused as "a header line (line 9) and at least one data line are needed". The notebooks name
    the supplementary files, the samples' titles and accessions and the characteristics a sample sheet needs."""
    import gzip

    samples = [f"GSM{1000 + i}" for i in range(8)]
    lines = ['!Series_title\t"RNA-seq of tumours"', '!Series_geo_accession\t"GSE99999"',
             '!Series_supplementary_file\t"ftp://ftp.ncbi.nlm.nih.gov/geo/series/GSE99nnn/GSE99999/suppl/'
             'GSE99999_raw_counts.txt.gz"',
             "!Sample_title\t" + "\t".join(f'"tumour {i}"' for i in range(8)),
             "!Sample_geo_accession\t" + "\t".join(f'"{s}"' for s in samples),
             "!Sample_characteristics_ch1\t" + "\t".join(f'"tissue: {"tumour" if i < 4 else "normal"}"'
                                                         for i in range(8)),
             "!Sample_characteristics_ch1\t" + "\t".join(f'"patient: P{i % 4}"' for i in range(8)),
             "!series_matrix_table_begin", '"ID_REF"\t' + "\t".join(f'"{s}"' for s in samples),
             "!series_matrix_table_end"]
    path = tmp_path / "GSE99999_series_matrix.txt.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(ValueError, match="at least one data line are needed"):
        load_dataset(path, label="tissue")
    with pytest.raises(ValueError, match=r"Series Matrix file whose table holds no values.*GSE99999_raw_counts\.txt\.gz"
                                         r".*'tumour 0', 'tumour 1', 'tumour 2', \.\.\. and their accessions GSM1000, "
                                         r"GSM1001.*characteristics: 'tissue', 'patient'\)"):
        dataset_list([str(path)], ["alon"], label="tissue")


def test_identical_samples_are_refused_unless_grouped_together(tmp_path):
    """One array entered twice (a copy-and-paste, a sheet listing a file twice) was read without a word, and a copy
    on both sides of a split makes the error look better. The notebooks refuse it naming the samples, unless the
    copies are one group labelled alike. identical_samples against a brute-force pairwise comparison, missing values
    included."""
    from itertools import combinations

    X, y, samples, genes = _table(n_genes=40, n_samples=16)  # S0-S7 one class, S8-S15 the other
    X[4] = X[2]
    X[6] = X[2]
    X[10, 3] = np.nan
    X[14] = X[10]  # equal, missing in the same gene
    X[7, 0] = X[8, 0] = np.nan  # missing in the same gene only: not equal
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "class", y)
    path = tmp_path / "copies.csv"
    table.to_csv(path)
    ds = load_dataset(path, label="class")
    brute = {(a, b) for a, b in combinations(range(16), 2) if np.array_equal(ds.X[a], ds.X[b], equal_nan=True)}
    got = identical_samples(ds)
    assert got == [["S2", "S4", "S6"], ["S10", "S14"]]
    assert {p for ids in got for p in combinations(sorted(map(samples.index, ids)), 2)} == brute
    with pytest.raises(ValueError, match=r"samples 'S2' and 'S4' and 'S6'; 'S10' and 'S14' hold the same value for "
                                         r"every one of its 40 genes"):
        dataset_list([str(path)], ["alon"], label="class", rows="samples")
    groups = ["a", "b", "c", "d", "c", "f", "c", "h", "a", "b", "e", "d", "g", "h", "e", "f"]
    table.insert(1, "patient", groups)  # S2, S4, S6 in group c; S10 and S14 in group e
    table.fillna(0.0).to_csv(path)  # (the papers' notebooks refuse missing values)
    assert dataset_list([str(path)], ["alon"], label="class", groups="patient")
    table.loc["S6", "class"] = y[-1]  # a copy labelled otherwise than its original, in one group: still refused
    table.fillna(0.0).to_csv(path)
    with pytest.raises(ValueError, match=r"samples 'S2' and 'S4' and 'S6' hold the same value"):
        dataset_list([str(path)], ["alon"], label="class", groups="patient")


def test_the_registered_su_set_holds_one_array_twice_and_the_leaderboard_says_so(mirror):
    """Su 2001's multi-tissue set as registered (datamicroarray's su.RData): samples s36 and s51 are equal in all
    5565 genes, both of class 2. Kept as published (the multi-class board runs on it); its row in notebook 06's
    table of the data says so. No other registered set has such a pair."""
    from genesel.leaderboard.tables import dataset_table

    ds = load_dataset("su")
    assert identical_samples(ds) == [["s36", "s51"]]
    a, b = list(ds.sample_ids).index("s36"), list(ds.sample_ids).index("s51")
    assert np.array_equal(ds.X[a], ds.X[b]) and ds.y[a] == ds.y[b]
    note = dataset_table(["su"]).iloc[0, -1]
    assert "Samples s36 and s51 hold the same value for every gene" in note
    assert "hold the same value" not in dataset_table(["khan"]).iloc[0, -1]


def test_a_table_without_sample_ids_is_named_and_its_conversion_reads(tmp_path):
    """pandas' to_csv(index=False) of a samples x genes table with its labels first: the reader takes the labels
    for the sample IDs, and label='class' was refused as "no column named 'class'" although the file has one."""
    X, y, samples, genes = _table(n_genes=20, n_samples=12)
    table = pd.DataFrame(X, columns=genes)
    table.insert(0, "class", y)
    path = tmp_path / "no_ids.csv"
    table.to_csv(path, index=False)
    ds = _named_and_converted(path, "class", "no column named 'class'",
                              r"without a column of sample IDs: its first column, 'class', holds the labels")
    assert list(ds.sample_ids) == [str(i) for i in range(12)] and list(ds.gene_ids) == genes
    np.testing.assert_allclose(ds.X, X)
    table.insert(0, "sample", samples)  # with IDs: no hint, it reads
    table.to_csv(path, index=False)
    assert dataset_list([str(path)], ["alon"], label="class")


@pytest.mark.parametrize("first", ["Run", "BioSample", "Barcode"])
def test_a_sample_sheet_whose_header_is_not_recognised_reads(tmp_path, first):
    """An SRA run table as a sample sheet (its first column 'Run'): the reader took the header line for a sample, and
    refused the sheet for a sample 'Run' not in the data, saying "check the sample IDs" (the notebooks then named the
    rename). The reader now takes that line for the header, since every other row names a sample of the data: the
    sheet reads, its 'Condition' the labels (the one column that can hold them; 'Assay Type' has one value), and a
    notebook takes it as given; renamed to 'sample' it reads the same."""
    X, y, samples, genes = _table(n_genes=20, n_samples=12)
    data = tmp_path / "counts.csv"
    pd.DataFrame(X.T, index=pd.Index(genes, name="gene"), columns=samples).to_csv(data)
    sheet = tmp_path / "SraRunTable.csv"
    pd.DataFrame({first: samples, "Assay Type": "RNA-Seq", "Condition": y}).to_csv(sheet, index=False)
    ds = load_dataset(data, label=str(sheet))
    assert list(ds.sample_ids) == samples and sorted(ds.class_counts.values()) == [6, 6]
    assert [ds.classes[int(v > 0)] for v in ds.y] == list(y)
    assert dataset_list([str(data)], ["alon"], label=str(sheet)) == [f"{data}?label={sheet}"]
    pd.read_csv(sheet).rename(columns={first: "sample"}).to_csv(tmp_path / "renamed.csv", index=False)
    np.testing.assert_array_equal(load_dataset(data, label=str(tmp_path / "renamed.csv")).y, ds.y)
    stray = tmp_path / "stray.csv"  # no header, its first sample not in the data: a stray sample, not a header
    stray.write_text("\n".join([f"S999,{y[0]}"] + [f"{a},{b}" for a, b in zip(samples, y)]) + "\n")
    with pytest.raises(ValueError, match=r"sample\(s\) \['S999'\] that are not in"):
        load_dataset(data, label=str(stray))


def test_a_sample_sheet_whose_ids_are_in_another_column_reads(tmp_path):
    """An SRA run table whose first column holds run accessions (SRR...) while the data names its samples as the
    sheet's 'Sample Name' column (GSM...): the reader refused every row as a stray sample. The column that names
    every row by a sample of the data, once, is now taken for the IDs, in either orientation of the data, with a
    groups column beside it; a sheet of another study is still refused."""
    X, y, samples, genes = _table(n_genes=20, n_samples=12)
    gsm = [f"GSM{4000 + i}" for i in range(12)]
    data = tmp_path / "data.csv"
    pd.DataFrame(X.T, index=pd.Index(genes, name="gene"), columns=gsm).to_csv(data)
    pd.DataFrame(X, index=pd.Index(gsm, name="id"), columns=genes).to_csv(tmp_path / "data_t.csv")
    sheet = tmp_path / "SraRunTable.csv"
    pd.DataFrame({"Run": [f"SRR{90 + i}" for i in range(12)], "Sample Name": gsm, "Condition": y,
                  "patient": [f"P{i % 6}" for i in range(12)]}).to_csv(sheet, index=False)
    for path in (data, tmp_path / "data_t.csv"):
        ds = load_dataset(path, label=str(sheet), label_column="Condition", groups="patient")
        assert list(ds.sample_ids) == gsm and [ds.classes[int(v > 0)] for v in ds.y] == list(y)
        assert ds.groups.tolist() == [f"P{i % 6}" for i in range(12)]
        np.testing.assert_array_equal(ds.X, X)
    other = tmp_path / "other.csv"
    pd.DataFrame({"Run": [f"SRR{i}" for i in range(12)], "Sample Name": [f"GSM{i}" for i in range(12)],
                  "Condition": y}).to_csv(other, index=False)
    with pytest.raises(ValueError, match=r"that are not in .*check the sample IDs"):
        load_dataset(data, label=str(other))


def test_a_groups_column_named_with_another_case_is_pointed_out(tmp_path):
    """groups='Patient' on a file whose column is 'patient' was answered "did you mean label='patient'?" (the
    labels were given); the notebooks say to pass groups='patient' and that 'Patient' names no column."""
    X, y, samples, genes = _table(n_genes=10, n_samples=12)
    table = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    table.insert(0, "tissue", y)
    table.insert(1, "patient", [f"p{i // 2}" for i in range(12)])
    path = tmp_path / "paired.csv"
    table.to_csv(path)
    with pytest.raises(ValueError, match=r"pass groups='patient'.*Note that groups='Patient' names no column of the "
                                         r"file: did you mean 'patient'\?"):
        dataset_list([str(path)], ["alon"], label="tissue", groups="Patient")
    with pytest.raises(ValueError, match=r"groups='donor' names no column of the file\. \(The reader said"):
        dataset_list([str(path)], ["alon"], label="tissue", groups="donor")
    assert dataset_list([str(path)], ["alon"], label="tissue", groups="patient")
