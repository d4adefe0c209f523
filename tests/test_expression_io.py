"""genesel.expression_io.read_expression: every registered set written out in every format reads back to the same
matrix, labels and identifiers; each malformed file gets a message naming the file and the place at fault."""

import gzip

import numpy as np
import pandas as pd
import pytest

from genesel.datasets import load_dataset
from genesel.dataref import DataRef
from genesel.expression_io import looks_like_path, read_expression

from geo_files import write_gds_soft, write_series_matrix

FORMATS = ("csv-samples-rows", "tsv-genes-rows-gz", "gds-soft-gz", "series-matrix", "h5ad")


def _registered():
    from data_fetch import DATASETS

    return list(DATASETS)


def _labels(ds):
    names = np.asarray(ds.classes, dtype=object)
    return names[(ds.y > 0).astype(int)] if len(ds.classes) == 2 and set(np.unique(ds.y)) <= {-1, 1} else names[ds.y]


def _write(ds, fmt, folder):
    labels = _labels(ds)
    X, genes, samples = np.asarray(ds.X), np.asarray(ds.gene_ids).astype(str), np.asarray(ds.sample_ids).astype(str)
    sheet = folder / "samples.csv"
    pd.DataFrame({"sample": samples, "class": labels}).to_csv(sheet, index=False)
    if fmt == "csv-samples-rows":
        p = folder / f"{ds.name}.csv"
        pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes).to_csv(p)
        return p, str(sheet)
    if fmt == "tsv-genes-rows-gz":
        p = folder / f"{ds.name}.tsv.gz"
        pd.DataFrame(X.T, index=pd.Index(genes, name="probe"), columns=samples).to_csv(
            p, sep="\t", compression={"method": "gzip", "compresslevel": 1})
        return p, str(sheet)
    if fmt == "gds-soft-gz":
        p = folder / "GDS9999.soft.gz"
        write_gds_soft(p, X, genes, samples, labels)
        return p, "disease state"
    if fmt == "series-matrix":
        p = folder / "GSE9999_series_matrix.txt"
        write_series_matrix(p, X, genes, samples, labels, key="diagnosis")
        return p, "diagnosis"
    import anndata

    p = folder / f"{ds.name}.h5ad"
    anndata.AnnData(X=X, obs=pd.DataFrame({"class": labels}, index=samples),
                    var=pd.DataFrame(index=genes)).write_h5ad(p)
    return p, "class"


#: Larger sets are checked on an evenly spaced slice of this many genes (the readers do not depend on the width;
#: test_a_wide_registered_set_reads_back_whole keeps one set whole), so the test stays a minute long.
MAX_GENES = 3000


@pytest.mark.parametrize("name", _registered())
def test_every_registered_set_reads_back_from_every_format(mirror, tmp_path, name):
    from genesel.datasets import load_dataset

    from genesel.foreign_formats import (case_variant_classes, covariate_genes, excel_mangled_genes,
                                         missing_label_classes, sequencing_quantities_note)

    ds = load_dataset(name)
    # written out as a user's file, the set passes the notebooks' checks (test_foreign_formats)
    assert covariate_genes(ds.gene_ids) == [], "a gene ID reads as a sample's covariate: narrow COVARIATE_NAMES"
    assert excel_mangled_genes(ds.gene_ids) == [], "a gene ID reads as one Excel mangled: narrow EXCEL_MANGLED"
    assert missing_label_classes(ds.classes) == [] and case_variant_classes(ds.classes) == []
    assert sequencing_quantities_note(ds) is None, "a microarray set reads as RNA-seq quantities"
    if ds.n_genes > MAX_GENES:
        ds = ds.subset(genes=np.unique(np.linspace(0, ds.n_genes - 1, MAX_GENES).astype(int)))
    _round_trips(ds, tmp_path)


def test_a_wide_registered_set_reads_back_whole(mirror, tmp_path):
    from genesel.datasets import load_dataset

    _round_trips(load_dataset("singh"), tmp_path)


def _round_trips(ds, tmp_path):
    binary = len(ds.classes) == 2 and set(np.unique(ds.y)) <= {-1, 1}
    for fmt in FORMATS:
        folder = tmp_path / fmt
        folder.mkdir()
        path, label = _write(ds, fmt, folder)
        got = read_expression(path, label=label, classes=ds.classes if binary else "all")
        assert got.X.shape == ds.X.shape, fmt
        np.testing.assert_array_equal(got.X, ds.X, err_msg=fmt)
        np.testing.assert_array_equal(got.y, ds.y, err_msg=fmt)
        assert tuple(got.classes) == tuple(ds.classes), fmt
        assert list(got.gene_ids) == list(np.asarray(ds.gene_ids).astype(str)), fmt
        assert list(got.sample_ids) == list(np.asarray(ds.sample_ids).astype(str)), fmt
        assert got.extra["sha256"] and got.extra["format"], fmt


# ------------------------------------------------------------------------------------------------ small cases


def _toy(tmp_path, text, name="toy.csv", compress=False):
    p = tmp_path / name
    if compress:
        with gzip.open(p, "wt") as fh:
            fh.write(text)
    else:
        p.write_text(text)
    return p


TOY = "id,TP53,BRCA1,MYC,class\nGSM1,1.5,2,3,tumour\nGSM2,4,5,6.25,normal\nGSM3,7,8,9,tumour\nGSM4,1,1,2,normal\n"


def test_a_label_column_and_the_orientation_it_implies(tmp_path):
    ds = read_expression(_toy(tmp_path, TOY), label="class")
    assert ds.X.shape == (4, 3) and ds.classes == ("normal", "tumour") and ds.y.tolist() == [1, -1, 1, -1]
    assert ds.extra["orientation"] == "samples as rows" and "label column" in ds.extra["orientation_reason"]
    assert ds.name == "toy.csv" and "toy.csv" in ds.description
    forced = read_expression(_toy(tmp_path, TOY), label="class", classes=("tumour", "normal"))
    assert forced.y.tolist() == [-1, 1, -1, 1]


def test_orientation_from_identifiers_and_forcing_it(tmp_path):
    genes = [f"{200000 + i}_s_at" for i in range(5)]
    text = "probe,S1,S2,S3\n" + "".join(f"{g},{i},{i + 1},{i + 3}\n" for i, g in enumerate(genes))
    sheet = _toy(tmp_path, "sample,label\nS1,a\nS2,b\nS3,a\n", "sheet.tsv")
    p = _toy(tmp_path, text, "g.csv.gz", compress=True)
    ds = read_expression(p, label=str(sheet))
    assert ds.X.shape == (3, 5) and list(ds.gene_ids) == genes
    assert ds.extra["orientation"] == "genes as rows"
    no_sheet_rule = pd.DataFrame(np.arange(15.0).reshape(5, 3), index=genes, columns=["GSM1", "GSM2", "GSM3"])
    (tmp_path / "h.csv").write_text(no_sheet_rule.to_csv())
    from genesel.expression_io import _orientation

    rows, why = _orientation(list(no_sheet_rule.index), list(no_sheet_rule.columns), "auto")
    assert rows == "genes" and "look like genes" in why
    assert _orientation(list(no_sheet_rule.index), list(no_sheet_rule.columns), "samples")[0] == "samples"
    h = read_expression(tmp_path / "h.csv", label=str(_toy(tmp_path, "GSM1,a\nGSM2,b\nGSM3,a\n", "s2.csv")))
    assert h.X.shape == (3, 5)


def test_dataframe_series_array_and_anndata_sources():
    import anndata

    X = np.arange(12.0).reshape(4, 3)
    frame = pd.DataFrame(X, index=["a", "b", "c", "d"], columns=["g1", "g2", "g3"])
    lab = pd.Series(["x", "y", "x", "y"], index=["d", "c", "b", "a"])  # aligned by sample ID, not position
    ds = read_expression(frame, label=lab)
    assert ds.y.tolist() == [1, -1, 1, -1]
    arr = read_expression(X, label=np.array([0, 1, 0, 1]))
    assert arr.classes == ("0", "1") and arr.X.shape == (4, 3)
    ad = anndata.AnnData(X=X, obs=pd.DataFrame({"cond": ["u", "v", "u", "v"]}, index=list("abcd")),
                         var=pd.DataFrame({"gene_symbols": ["TP53", "MYC", "EGFR"]}, index=["p1", "p2", "p3"]))
    got = read_expression(ad, label="cond")
    assert list(got.extra["symbols"]) == ["TP53", "MYC", "EGFR"] and got.y.tolist() == [-1, 1, -1, 1]


def test_gds_symbols_and_series_matrix_fields(tmp_path):
    X = np.array([[1.0, 2.0], [3.0, np.nan], [5.0, 6.0]])
    write_gds_soft(tmp_path / "GDS1.soft", X, ["p1", "p2"], ["GSM1", "GSM2", "GSM3"], ["a", "b", "a"],
                   symbols=["TP53", "MYC"])
    ds = read_expression(tmp_path / "GDS1.soft", label="disease state", impute=None)
    assert list(ds.extra["symbols"]) == ["TP53", "MYC"] and np.isnan(ds.X[1, 1]) and ds.extra["missing_values"] == 1
    with pytest.raises(ValueError, match=r"no subset type 'tissue' to read the labels from; "
                                         r"the file has \['disease state', 'other'\]"):
        read_expression(tmp_path / "GDS1.soft", label="tissue")
    write_series_matrix(tmp_path / "GSE1_series_matrix.txt", X, ["p1", "p2"], ["GSM1", "GSM2", "GSM3"],
                        ["a", "b", "a"], key="tissue")
    sm = read_expression(tmp_path / "GSE1_series_matrix.txt", label="source_name_ch1")
    assert sm.classes == ("a tissue", "b tissue")
    assert np.isnan(sm.X[1, 1]) and sm.extra["missing_values"] == 1  # kept: imputed inside training folds
    filled = read_expression(tmp_path / "GSE1_series_matrix.txt", label="source_name_ch1", impute="knn")
    assert not np.isnan(filled.X).any() and "whole file" in filled.extra["imputed"]


# ------------------------------------------------------------------------------------------------ malformed files

BAD = {
    "ragged": ("id,g1,g2,class\ns1,1,2,a\ns2,3,b\n", "class", r"line 3 has 3 fields but line 2 has 4"),
    "non-numeric": ("id,g1,g2,class\ns1,1,2,a\ns2,3,oops,b\n", "class",
                    r"line 3, column 'g2' \(field 3; row 's2'\): a non-numeric value 'oops'"),
    "duplicated gene": ("id,g1,g1,class\ns1,1,2,a\ns2,3,4,b\n", "class", r"duplicated gene ID\(s\) \['g1'\]"),
    "duplicated sample": ("id,g1,g2,class\ns1,1,2,a\ns1,3,4,b\n", "class", r"duplicated sample ID\(s\) \['s1'\]"),
    "unlabelled": ("id,g1,g2,class\ns1,1,2,a\ns2,3,4,\ns3,5,6,b\n", "class",
                   r"1 sample\(s\) without a label, e.g. \['s2'\]"),
    "one class": ("id,g1,g2,class\ns1,1,2,a\ns2,3,4,a\n", "class", r"every sample has the label 'a'"),
    "all missing": ("id,g1,g2,class\ns1,1,NA,a\ns2,3,,b\n", "class", r"gene 'g2' has no value in any sample"),
    "no label": ("id,g1,g2\ns1,1,2\ns2,3,4\n", None, r"say where the class labels are"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_malformed_files_are_refused_naming_the_place(tmp_path, case):
    text, label, message = BAD[case]
    p = _toy(tmp_path, text, "bad.csv")
    with pytest.raises(ValueError, match=message) as err:
        read_expression(p, label=label)
    assert "bad.csv" in str(err.value)


def test_sample_sheet_naming_an_unknown_sample(tmp_path):
    p = _toy(tmp_path, "id,g1,g2\ns1,1,2\ns2,3,4\n", "data.csv")
    sheet = _toy(tmp_path, "sample,label\ns1,a\ns2,b\ns9,a\n", "sheet.csv")
    with pytest.raises(ValueError, match=r"sample sheet .*sheet.csv: label\(s\) for sample\(s\) \['s9'\]"):
        read_expression(p, label=str(sheet))


THREE = "id,g1,g2,class\ns1,1,2,a\ns2,3,4,b\ns3,5,6,c\ns4,7,8,a\n"


def test_more_than_two_classes_are_refused_naming_them_and_the_ways_out(tmp_path):
    """They used to be kept silently (coded 0..2, a note in extra nobody saw), and every binary method then failed
    with scikit-learn's 'Only binary classification is supported'."""
    p = _toy(tmp_path, THREE, "three.csv")
    with pytest.raises(ValueError) as err:
        read_expression(p, label="class")
    msg = str(err.value)
    assert msg.startswith(f"{p}: the labels name 3 classes: 'a' (2), 'b' (1), 'c' (1)")
    assert "classes=['a', 'b']" in msg and "'three.csv?label=class&classes=a,b'" in msg  # how to choose two
    assert """-p classes '["a", "b"]'""" in msg and "classes='all'" in msg  # a notebook's parameter; the opt-in
    assert "SMLR" in msg and "OneVsRestSelector" in msg and "(genesel)" in msg and "LogisticRegression" in msg
    from genesel.datasets import load_dataset

    with pytest.raises(ValueError, match="the labels name 3 classes"):
        load_dataset(f"{p}?label=class")


def test_a_multiclass_file_on_request_and_two_of_its_classes(tmp_path):
    from genesel.datasets import load_dataset
    from genesel.expression_io import make_reference, parse_reference

    p = _toy(tmp_path, THREE, "three.csv")
    ds = read_expression(p, label="class", classes="all")
    assert ds.classes == ("a", "b", "c") and ds.y.tolist() == [0, 1, 2, 0]
    assert "SMLR" in ds.extra["multiclass_note"]
    two = read_expression(p, label="class", classes=("a", "c"))
    assert two.y.tolist() == [-1, 1, -1] and two.extra["left_out"] == {"b": 1}
    ref = make_reference(p, label="class", classes="all")
    assert parse_reference(ref)[1] == {"label": "class", "classes": "all"}
    assert load_dataset(ref).classes == ("a", "b", "c")
    assert load_dataset(f"{p}?label=class&classes=c,a").classes == ("c", "a")
    with pytest.raises(ValueError, match="classes must be a list of class names \\(at least two\\) or 'all', got 'a'"):
        read_expression(p, label="class", classes="a")


@pytest.mark.registration("estimator", "genesel.expression_io.MULTICLASS_METHODS")
def test_the_multiclass_methods_named_are_those_that_accept_three_classes():
    """MULTICLASS_METHODS (named in the message above) against the estimators themselves: each one it names fits
    three classes; every other public classifier or selector refuses them."""
    import warnings

    import genesel
    from genesel.expression_io import MULTICLASS_METHODS

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 12)
    X = rng.normal(size=(36, 12))
    X[np.arange(36), y] += 3
    accepted = []
    for name in genesel.__all__:
        cls = getattr(genesel, name)
        if not isinstance(cls, type) or not hasattr(cls, "fit") or name in (
                "LogTransform", "GeneStandardizer", "SampleStandardizer", "MissingValueImputer", "CountNormalizer"):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                cls().fit(X, y)
            except ValueError as exc:
                assert "binary" in str(exc) or "two classes" in str(exc), f"{name}: {exc}"
                continue
        accepted.append(name)
    assert tuple(accepted) == MULTICLASS_METHODS


def test_truncated_geo_file(tmp_path):
    X = np.ones((2, 2))
    write_gds_soft(tmp_path / "GDS2.soft", X, ["p1", "p2"], ["GSM1", "GSM2"], ["a", "b"])
    text = (tmp_path / "GDS2.soft").read_text()
    (tmp_path / "GDS2.soft").write_text(text.replace("!dataset_table_end\n", ""))
    with pytest.raises(ValueError, match="cut short"):
        read_expression(tmp_path / "GDS2.soft", label="disease state")


def test_paths_are_told_from_registered_names():
    assert looks_like_path("data/my.csv") and looks_like_path("study.tsv.gz") and looks_like_path("x.h5ad")
    assert looks_like_path("my_study.csv?label=class")  # a reference string in the working folder
    assert not looks_like_path("golub") and not looks_like_path("mnist_0v8")


# ------------------------------------------------------------------------------------------------ wherever a name goes


def test_load_dataset_takes_a_path_or_a_reference_string(tmp_path):
    from genesel.datasets import display_name, gene_symbols, load_dataset
    from genesel.expression_io import make_reference, parse_reference

    p = _toy(tmp_path, TOY, "my study.csv")
    ref = make_reference(p, label="class", classes=("normal", "tumour"), name="My study")
    assert parse_reference(ref) == (str(p), {"label": "class", "classes": ("normal", "tumour"), "name": "My study"})
    a = load_dataset(ref)
    b = load_dataset(p, label="class")
    np.testing.assert_array_equal(a.X, b.X)
    assert a.name == "My study" and display_name(ref) == "My study" and display_name(str(p)) == "my study.csv"
    assert load_dataset(ref) is a  # read once per process for one content
    assert list(gene_symbols(a)) == ["", "", ""]  # a CSV names no symbols
    with pytest.raises(ValueError, match="unknown reading option 'lable'; the options are label, label_column, "
                                         "classes, groups, rows, name, impute"):
        load_dataset(str(p) + "?lable=class")
    with pytest.raises(ValueError, match="files only"):
        load_dataset("golub", label="class")
    with pytest.raises(FileNotFoundError, match="no such expression file"):
        load_dataset(tmp_path / "missing.csv")


def test_a_files_identity_in_the_cache_key_is_its_content(tmp_path):
    import shutil

    from genesel.experiments import cell_key

    p = _toy(tmp_path, TOY, "a.csv")
    key = cell_key(_identity_cell, {"dataset": f"{p}?label=class", "fold": 0}, code="c")
    moved = tmp_path / "elsewhere" / "b.csv"
    moved.parent.mkdir()
    shutil.copy(p, moved)
    assert cell_key(_identity_cell, {"dataset": f"{moved}?label=class", "fold": 0}, code="c") == key
    moved.write_text(TOY.replace("1.5", "1.25"))
    assert cell_key(_identity_cell, {"dataset": f"{moved}?label=class", "fold": 0}, code="c") != key
    assert cell_key(_identity_cell, {"dataset": f"{p}?label=other", "fold": 0}, code="c") != key


def _identity_cell(dataset, fold):
    return {}


def test_a_sample_sheet_of_several_columns_is_read_from_the_column_named(tmp_path):
    """A sheet "sample, sex, tumour" gave its second column as the labels: two classes, the samples classified by sex
    without a word (lost-branch work, redone). Now the column is named with ``label_column=`` (also in a reference
    string); a sheet with more than one column that could hold labels is refused listing them; a column of one value
    or of a value per sample cannot, so a sheet with one other column reads as before; a wrong name is refused."""
    rng = np.random.default_rng(2)
    samples = [f"p{i}" for i in range(12)]
    pd.DataFrame(rng.normal(8, 1, (30, 12)), index=[f"g{i}" for i in range(30)], columns=samples).to_csv(
        tmp_path / "x.csv")
    tumour = ["ductal"] * 6 + ["lobular+ é"] * 6
    sheet = tmp_path / "sheet.csv"
    pd.DataFrame({"sample": samples, "sex": ["F", "M"] * 6, "tumour": tumour, "run": [f"SRR{i}" for i in range(12)],
                  "assay": ["RNA-Seq"] * 12}).to_csv(sheet, index=False)
    with pytest.raises(ValueError, match=r"which column holds the labels\? Besides the sample IDs it has 2: 'sex' "
                                         r"\(2 distinct values.*'tumour'.*label_column='sex'"):
        load_dataset(tmp_path / "x.csv", label=str(sheet))
    ds = load_dataset(tmp_path / "x.csv", label=str(sheet), label_column="tumour")
    assert list(ds.classes) == ["ductal", "lobular+ é"] and [ds.classes[int(v > 0)] for v in ds.y] == tumour
    ref = f"{tmp_path / 'x.csv'}?label={sheet}&label_column=tumour"
    assert DataRef.of(ref).key()["file"]["label_column"] == "tumour"
    np.testing.assert_array_equal(load_dataset(ref).y, ds.y)
    assert list(load_dataset(tmp_path / "x.csv", label=str(sheet), label_column="sex").classes) == ["F", "M"]
    one = tmp_path / "one.csv"  # besides the IDs, a column per sample and a constant one: the labels are clear
    pd.DataFrame({"sample": samples, "run": [f"SRR{i}" for i in range(12)], "assay": ["RNA-Seq"] * 12,
                  "tumour": tumour}).to_csv(one, index=False)
    assert list(load_dataset(tmp_path / "x.csv", label=str(one)).classes) == ["ductal", "lobular+ é"]
    with pytest.raises(ValueError, match=r"no column 'subtype' to read the labels from \(label_column=\); its "
                                         r"columns are \['sample', 'sex', 'tumour', 'run', 'assay'\]"):
        load_dataset(tmp_path / "x.csv", label=str(sheet), label_column="subtype")
    with pytest.raises(ValueError, match="names a column of a sample sheet, but label='class' is not"):
        load_dataset(tmp_path / "x.csv", label="class", label_column="tumour")
    with pytest.raises(ValueError, match="only a file's reading takes; for a DataFrame, pass the labels themselves"):
        read_expression(pd.read_csv(tmp_path / "x.csv", index_col=0).T, label=["a", "b"] * 6, label_column="tumour")


def test_the_reader_refuses_na_labels_and_one_class_spelled_two_ways(tmp_path):
    """R's NA and 'Tumor'/'tumor' were classes to read_expression (only the notebooks refused them): a Python user got
    a class 'NA' or a third class without a word. The reader now refuses both, naming the samples' counts and the
    remedy; classes= settles them (NA left out unless listed; both spellings listed keep them apart, one spelling
    alone is refused as it would leave the other's samples out). An accent written as a combining mark is the same
    class as the composed one."""
    rng = np.random.default_rng(4)
    X = rng.normal(8, 1, (18, 10))

    def frame(labels):
        f = pd.DataFrame(X, index=[f"s{i}" for i in range(18)], columns=[f"g{i}" for i in range(10)])
        f.insert(0, "class", labels)
        return f

    na = frame(["a"] * 6 + ["b"] * 6 + ["NA"] * 6)
    with pytest.raises(ValueError, match=r"'NA' \(6\): 'NA' is how R .*classes=\['a', 'b'\]"):
        read_expression(na, label="class")
    ds = read_expression(na, label="class", classes=["a", "b"])
    assert ds.X.shape == (12, 10) and ds.extra["left_out"] == {"NA": 6}
    assert read_expression(na, label="class", classes=["a", "b", "NA"]).classes == ("a", "b", "NA")
    twice = frame(["Tumor"] * 6 + ["tumor"] * 3 + ["normal"] * 9)
    with pytest.raises(ValueError, match=r"'Tumor' \(6\), 'tumor' \(3\): 'Tumor' and 'tumor' differ only in letter "
                                         r"case.*correct the labels"):
        read_expression(twice, label="class")
    with pytest.raises(ValueError, match=r"classes names 'Tumor' but not 'tumor', whose samples would be left out"):
        read_expression(twice, label="class", classes=["normal", "Tumor"])
    both = ("normal", "Tumor", "tumor")
    assert read_expression(twice, label="class", classes=list(both)).classes == both
    accents = frame(["Ewing \u00e9"] * 9 + ["Ewing e\u0301"] * 3 + ["rhabdo"] * 6)  # é composed and decomposed
    ds = read_expression(accents, label="class")
    assert ds.classes == ("Ewing \u00e9", "rhabdo") and ds.class_counts["Ewing \u00e9"] == 12


def test_the_reader_warns_of_excel_dates_and_covariates_among_the_genes(tmp_path):
    """Gene symbols Excel made dates (SEPT2 -> 2-Sep) and a covariate column (Age) were read as genes without a word
    by read_expression (the notebooks refuse them). The reader now warns naming them and records them in extra; two
    genes that collided into one date are refused with the reason, not only as 'duplicated'. A clean file: no
    warning."""
    import warnings

    rng = np.random.default_rng(5)
    samples = [f"s{i}" for i in range(12)]

    def write(genes, name):
        f = pd.DataFrame(rng.normal(8, 1, (12, len(genes))), index=pd.Index(samples, name="id"), columns=genes)
        f.insert(0, "class", ["a"] * 6 + ["b"] * 6)
        f.to_csv(tmp_path / name)
        return tmp_path / name

    with pytest.warns(UserWarning, match=r"2 gene ID\(s\) such as '2-Sep', '1-Mar', the way Excel turns") as rec:
        ds = read_expression(write(["2-Sep", "TP53", "1-Mar", "Age", "MYC"], "x.csv"), label="class")
    assert any("'Age' among the genes" in str(w.message) for w in rec)
    assert ds.extra["excel_dates"] == ["2-Sep", "1-Mar"] and ds.extra["covariate_genes"] == ["Age"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_expression(write(["SEPTIN2", "TP53", "MARCH1", "AGER", "MYC"], "clean.csv"), label="class")
    with pytest.raises(ValueError, match=r"duplicated gene ID\(s\) \['1-Mar'\].*'1-Mar': Excel turns gene symbols"):
        read_expression(write(["1-Mar", "TP53", "1-Mar", "MYC"], "twice.csv"), label="class")
