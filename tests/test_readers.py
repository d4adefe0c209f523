"""The readers are never silently wrong and never unbounded (issue 37): one test per defect found on c9e0065, each
on a small synthetic file written here. Every error names the file, and the line and column where there is one."""

import gzip
import tracemalloc
import zlib

import numpy as np
import pandas as pd
import pytest

from genesel.expression_io import read_expression

from geo_files import write_gds_soft, write_series_matrix


def _write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


# ------------------------------------------------------------------------------------------------ GEO Series Matrix


def test_series_matrix_labels_follow_the_sample_accession_not_the_column_position(tmp_path):
    """The value table lists the samples in another order than the !Sample_ lines (GEO files may): each label must
    stay with its sample. On c9e0065 labels were taken by position, so every one landed on the wrong sample."""
    samples = ["GSM11", "GSM12", "GSM13", "GSM14"]
    labels = ["tumour", "tumour", "normal", "normal"]
    X = np.array([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]])  # sample i's values: (i+1, 10(i+1))
    order = [2, 0, 3, 1]
    write_series_matrix(tmp_path / "GSE1_series_matrix.txt", X, ["p1", "p2"], samples, labels, key="tissue",
                        table_order=order)
    ds = read_expression(tmp_path / "GSE1_series_matrix.txt", label="tissue")
    assert list(ds.sample_ids) == [samples[i] for i in order]
    got = dict(zip(ds.sample_ids, ds.labels))
    assert got == dict(zip(samples, labels))
    np.testing.assert_array_equal(ds.X[:, 0], [X[i, 0] for i in order])  # each row its own sample's values


def test_series_matrix_without_accessions_is_refused(tmp_path):
    p = tmp_path / "GSE2_series_matrix.txt"
    write_series_matrix(p, np.ones((2, 2)), ["p1", "p2"], ["GSM1", "GSM2"], ["a", "b"], key="tissue")
    text = "".join(ln for ln in p.read_text().splitlines(True) if not ln.startswith("!Sample_geo_accession"))
    p.write_text(text)
    with pytest.raises(ValueError, match=r"GSE2_series_matrix.txt: no !Sample_geo_accession line"):
        read_expression(p, label="tissue")


# ------------------------------------------------------------------------------------------------ decoding


LATIN = "id,g1,g2,class\ns1,1,2,café\ns2,3,4,cafè\ns3,5,6,café\ns4,7,8,cafè\n"


def test_latin1_labels_differing_by_an_accent_stay_two_classes(tmp_path):
    """Decoded with replacement characters (c9e0065), 'café' and 'cafè' both became 'caf\\ufffd': one class."""
    p = _write(tmp_path / "latin.csv", LATIN, "latin-1")
    ds = read_expression(p, label="class", encoding="latin-1")
    assert ds.classes == ("cafè", "café") and ds.y.tolist() == [1, -1, 1, -1]  # sorted: è (U+E8) before é (U+E9)


def test_a_latin1_file_without_encoding_is_refused_naming_line_and_byte(tmp_path):
    p = _write(tmp_path / "latin.csv", LATIN, "latin-1")
    with pytest.raises(ValueError) as err:
        read_expression(p, label="class")
    msg = str(err.value)
    at = LATIN.encode("latin-1").index(b"\xe9")
    assert msg.startswith(f"{p}: line 2, byte {at} (0xe9) is not valid UTF-8"), msg
    assert "encoding='latin-1'" in msg


def test_utf8_with_a_byte_order_mark_reads_as_utf8(tmp_path):
    p = _write(tmp_path / "bom.csv", "\ufeff" + LATIN)
    ds = read_expression(p, label="class")
    assert ds.classes == ("cafè", "café") and list(ds.sample_ids) == ["s1", "s2", "s3", "s4"]


def test_a_sample_sheet_with_a_byte_order_mark(tmp_path):
    """Excel writes UTF-8 CSVs with a BOM; on c9e0065 the sheet's header ('\\ufeffsample') was taken for a sample."""
    data = _write(tmp_path / "d.csv", "id,g1,g2\ns1,1,2\ns2,3,4\ns3,5,6\n")
    sheet = _write(tmp_path / "sheet.csv", "\ufeffsample,condition\ns1,a\ns2,b\ns3,a\n")
    ds = read_expression(data, label=str(sheet))
    assert ds.y.tolist() == [-1, 1, -1]


# ------------------------------------------------------------------------------------------------ cells


def test_boolean_cells_are_refused_not_read_as_one_and_zero(tmp_path):
    p = _write(tmp_path / "bool.csv", "id,g1,g2,class\ns1,TRUE,2,a\ns2,FALSE,4,b\ns3,TRUE,5,a\n")
    with pytest.raises(ValueError, match=r"bool.csv: line 2, column 'g1' .*a boolean value 'TRUE'"):
        read_expression(p, label="class")


def test_a_decimal_comma_is_named_and_can_be_read(tmp_path):
    text = "id;g1;g2;class\ns1;1,5;2,25;a\ns2;3,0;-4,5;b\ns3;5;6,125;a\n"
    p = _write(tmp_path / "comma.csv", text)
    with pytest.raises(ValueError, match=r"comma.csv: line 2, column 'g1' .*'1,5' is written with a decimal comma: "
                                         r"pass decimal=','"):
        read_expression(p, label="class")
    ds = read_expression(p, label="class", decimal=",")
    np.testing.assert_array_equal(ds.X, [[1.5, 2.25], [3.0, -4.5], [5.0, 6.125]])


def test_a_thousands_separator_is_named_and_can_be_read(tmp_path):
    text = 'id\tg1\tg2\tclass\ns1\t1,234.5\t12\ta\ns2\t"2,000"\t13\tb\ns3\t999\t1,000,001\ta\n'
    p = _write(tmp_path / "thousands.tsv", text)
    with pytest.raises(ValueError, match=r"thousands.tsv: line 2, column 'g1' .*thousands separator.*"
                                         r"pass thousands=','"):
        read_expression(p, label="class")
    ds = read_expression(p, label="class", thousands=",")
    np.testing.assert_array_equal(ds.X, [[1234.5, 12.0], [2000.0, 13.0], [999.0, 1000001.0]])
    euro = _write(tmp_path / "euro.csv", "id;g1;class\ns1;1.234,5;a\ns2;2,5;b\n")
    with pytest.raises(ValueError, match=r"pass decimal=',' and thousands='.'"):
        read_expression(euro, label="class")
    assert read_expression(euro, label="class", decimal=",", thousands=".").X[:, 0].tolist() == [1234.5, 2.5]


def test_a_label_column_not_named_gets_a_did_you_mean(tmp_path):
    text = "id,g1,g2,class\ns1,1,2,ALL\ns2,3,4,AML\ns3,5,6,ALL\n"
    p = _write(tmp_path / "nolabel.csv", text)
    with pytest.raises(ValueError, match=r"nolabel.csv: line 2, column 'class' .*a non-numeric value 'ALL'.*"
                                         r"did you mean label='class'\?"):
        read_expression(p)
    with pytest.raises(ValueError, match=r"did you mean label='class'\?"):
        read_expression(p, label="wrong")


def test_dash_and_na_are_class_names_not_missing_labels(tmp_path):
    """Labels are missing only when empty: on c9e0065 '-' and 'NA' were missing ("4 sample(s) without a label"). 'NA'
    is how R writes a missing label, so it is a class only when classes= names it (refused by name otherwise)."""
    text = "id,g1,g2,status\ns1,1,2,-\ns2,3,4,NA\ns3,5,6,-\ns4,7,8,NA\n"
    with pytest.raises(ValueError, match="'NA' is how R"):
        read_expression(_write(tmp_path / "dash.csv", text), label="status")
    ds = read_expression(_write(tmp_path / "dash.csv", text), label="status", classes=["-", "NA"])
    assert ds.classes == ("-", "NA") and ds.y.tolist() == [-1, 1, -1, 1]
    sheet = _write(tmp_path / "sheet.csv", "sample,status\ns1,NA\ns2,-\ns3,NA\ns4,-\n")
    data = _write(tmp_path / "d.csv", "id,g1,g2\ns1,1,2\ns2,3,4\ns3,5,6\ns4,7,8\n")
    assert read_expression(data, label=str(sheet), classes=["-", "NA"]).classes == ("-", "NA")
    empty = _write(tmp_path / "e.csv", "id,g1,g2,status\ns1,1,2,-\ns2,3,4,\ns3,5,6,NA\n")
    with pytest.raises(ValueError, match=r"e.csv: 1 sample\(s\) without a label, e.g. \['s2'\]"):
        read_expression(empty, label="status")


def test_missing_value_markers_are_explicit(tmp_path):
    """'-' is not a missing value unless missing= says so; the defaults are named in the message."""
    p = _write(tmp_path / "m.csv", "id,g1,g2,class\ns1,1,-,a\ns2,3,4,b\ns3,5,6,a\n")
    with pytest.raises(ValueError, match=r"m.csv: line 2, column 'g2' .*a non-numeric value '-'.*missing= sets them"):
        read_expression(p, label="class")
    ds = read_expression(p, label="class", missing=["", "-"])
    assert np.isnan(ds.X[0, 1]) and ds.extra["missing_values"] == 1


# ------------------------------------------------------------------------------------------------ bounds


def _bomb(path, n_bytes, line=b"0," * 499 + b"0\n"):
    """A gzip of ``n_bytes`` of a numeric table (one header line, then one repeated line), compressed block by
    block: each block after a full flush compresses to the same bytes, so the file is written in milliseconds."""
    header = b"id," + b",".join(b"g%d" % j for j in range(500)) + b"\n"
    block = line * max(1, (1 << 20) // len(line))
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = comp.compress(header + block) + comp.flush(zlib.Z_FULL_FLUSH)
    body = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    n_blocks = n_bytes // len(block)
    with open(path, "wb") as fh:
        fh.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head)  # gzip header, then the raw deflate blocks
        for _ in range(n_blocks):
            fh.write(body)
        fh.write(comp.flush(zlib.Z_FINISH))
        fh.write(b"\x00" * 8)  # a wrong trailer: never reached
    return path


def test_a_gzip_bomb_is_refused_early_with_the_cap_to_raise(tmp_path):
    """A 2 MB gzip expanding to 1 GB: on c9e0065 it took 7 GB of memory. Refused after 200 MB of text (100 times
    the file), naming the cap."""
    p = _bomb(tmp_path / "bomb.csv.gz", 1 << 30)
    assert p.stat().st_size < 3_000_000
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"bomb.csv.gz: .* of gzip expand to more than .*decompression bomb.*"
                                             r"pass max_ratio="):
            read_expression(p, label="class")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, peak


def test_decompressed_size_has_a_cap_too(tmp_path):
    p = tmp_path / "t.csv.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("id,g1,class\n" + "".join(f"s{i},{i},{'ab'[i % 2]}\n" for i in range(2000)))
    with pytest.raises(ValueError, match=r"t.csv.gz: more than 10,000 bytes of text after decompression; pass "
                                         r"max_bytes="):
        read_expression(p, label="class", max_bytes=10_000)
    assert read_expression(p, label="class").X.shape == (2000, 1)


def test_a_very_long_line_is_refused_quickly_not_sniffed(tmp_path):
    """One 70 MB line (above the 64 MiB default): refused after reading the cap, never given to a delimiter
    sniffer (on c9e0065 csv.Sniffer spent minutes on a 1 GB line)."""
    p = tmp_path / "long.csv"
    with open(p, "wb") as fh:
        fh.write(b"id")
        chunk = b",1" * (1 << 19)
        for _ in range(70):
            fh.write(chunk)
        fh.write(b"\ns1" + b",1" * 10 + b"\n")
    with pytest.raises(ValueError, match=r"long.csv: line 1 is longer than 64 MiB \(max_line_bytes\).*pass "
                                         r"max_line_bytes="):
        read_expression(p, label="class")
    short = _write(tmp_path / "short.csv", "id," + ",".join(f"g{j}" for j in range(3000)) + ",class\n"
                   + "".join(f"s{i}," + ",".join("1" for _ in range(3000)) + f",{'ab'[i % 2]}\n" for i in range(4)))
    with pytest.raises(ValueError, match=r"short.csv: line 1 is longer than 1,000 bytes"):
        read_expression(short, label="class", max_line_bytes=1000)
    assert read_expression(short, label="class").X.shape == (4, 3000)


def test_a_delimited_file_is_read_in_bounded_memory(tmp_path):
    """Python-side allocations (numpy arrays and Python objects, tracemalloc) while reading a 100 x 20,000 CSV of
    16 MB: at most 3 times the 16 MB matrix. On c9e0065 the whole text, its lines and a DataFrame were held at
    once."""
    rng = np.random.default_rng(0)
    X = rng.normal(8, 2, (100, 20000)).round(3)
    frame = pd.DataFrame(X, index=[f"s{i}" for i in range(100)], columns=[f"g{j}" for j in range(20000)])
    frame.insert(0, "class", np.where(np.arange(100) % 2, "b", "a"))
    frame.to_csv(tmp_path / "wide.csv", float_format="%.3f")
    tracemalloc.start()
    try:
        ds = read_expression(tmp_path / "wide.csv", label="class")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(ds.X, X)
    assert peak < 3 * X.nbytes, (peak / X.nbytes, X.nbytes)


# ------------------------------------------------------------------------------------------------ odd files


def test_a_truncated_gzip_names_the_file_and_the_cause(tmp_path):
    p = tmp_path / "cut.csv.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("id,g1,g2,class\n" + "".join(f"s{i},{i},{i + 1},{'ab'[i % 2]}\n" for i in range(5000)))
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"cut.csv.gz: the gzip stream ends early.*truncated file"):
        read_expression(p, label="class")


def test_a_file_that_is_not_hdf5(tmp_path):
    p = _write(tmp_path / "study.h5ad", "id,g1\ns1,1\n")
    with pytest.raises(ValueError, match=r"study.h5ad: not an HDF5 file, which an .h5ad file is \(it starts with "
                                         r"b'id,g1"):
        read_expression(p, label="class")
    gz = tmp_path / "study2.h5ad"
    gz.write_bytes(gzip.compress(b"\x89HDF\r\n\x1a\n" + b"\0" * 100))
    with pytest.raises(ValueError, match=r"study2.h5ad: not an HDF5 file.*gzip-compressed: decompress it first"):
        read_expression(gz, label="class")


def test_an_empty_sample_sheet_and_an_empty_file(tmp_path):
    data = _write(tmp_path / "d.csv", "id,g1\ns1,1\ns2,2\n")
    sheet = _write(tmp_path / "sheet.csv", "")
    with pytest.raises(ValueError, match=r"sample sheet .*sheet.csv: empty \(no lines\)"):
        read_expression(data, label=str(sheet))
    blank = _write(tmp_path / "blank.csv", "\n\n")
    with pytest.raises(ValueError, match=r"blank.csv: .*(empty|header line)"):
        read_expression(blank, label="class")


def test_an_h5ad_without_x_names_its_layers(tmp_path):
    import anndata

    ad = anndata.AnnData(obs=pd.DataFrame({"cond": ["u", "v", "u"]}, index=["a", "b", "c"]),
                         var=pd.DataFrame(index=["g1", "g2"]))
    ad.layers["counts"] = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    ad.layers["logcounts"] = np.log1p(ad.layers["counts"])
    ad.write_h5ad(tmp_path / "nox.h5ad")
    with pytest.raises(ValueError, match=r"nox.h5ad: X is empty \(None\); the values are in a layer: pass layer= "
                                         r"one of \['counts', 'logcounts'\]"):
        read_expression(tmp_path / "nox.h5ad", label="cond")
    ds = read_expression(tmp_path / "nox.h5ad", label="cond", layer="counts")
    np.testing.assert_array_equal(ds.X, ad.layers["counts"])


def test_ragged_rows_and_errors_name_the_line(tmp_path):
    p = _write(tmp_path / "short.csv", "id,g1,g2,class\ns1,1,2,a\ns2,3,b\n")
    with pytest.raises(ValueError, match=r"short.csv: line 3 has 3 fields but line 2 has 4"):
        read_expression(p, label="class")


def test_gds_subsets_still_read_and_gzipped(tmp_path):
    X = np.arange(6.0).reshape(3, 2)
    write_gds_soft(tmp_path / "GDS5.soft.gz", X, ["p1", "p2"], ["GSM1", "GSM2", "GSM3"], ["a", "b", "a"])
    ds = read_expression(tmp_path / "GDS5.soft.gz", label="disease state")
    np.testing.assert_array_equal(ds.X, X) and ds.classes == ("a", "b")


def _study(rows_with=None, header="id,class,g1,g2,g3,g4,g5"):
    rng = np.random.default_rng(0)
    rows = [f"s{i},{'a' if i < 6 else 'b'}," + ",".join(f"{v:.2f}" for v in rng.normal(8, 1, 5)) for i in range(12)]
    for i, text in (rows_with or {}).items():
        rows[i] = text
    return [header] + rows


def test_what_excel_and_spreadsheets_leave_in_a_csv(tmp_path):
    """Four files a spreadsheet leaves behind (lost-branch fixes, redone): Excel's 'sep=;' first line was taken for the
    header ("the header has 2 fields but line 2 has 7"): it now names the separator, and the table reads as the same
    table without it; an Excel error value (#DIV/0!) is named as one, and reads as missing when missing= lists it; a
    sample with no value for any gene and a gene without a name were read without a word: both are refused."""
    plain = read_expression(_write(tmp_path / "plain.csv", "\n".join(_study()) + "\n"), label="class")
    semi = "\n".join(t.replace(",", ";") for t in _study())
    for first in ("sep=;", '\ufeff"sep=;"'):
        ds = read_expression(_write(tmp_path / "excel.csv", f"{first}\n{semi}\n"), label="class")
        np.testing.assert_array_equal(ds.X, plain.X)
        assert list(ds.gene_ids) == list(plain.gene_ids)
    with pytest.raises(ValueError, match=r"line 1 says the separator is ';' \(Excel's 'sep=' line\), but sep=','"):
        read_expression(_write(tmp_path / "excel.csv", f"sep=;\n{semi}\n"), label="class", sep=",")
    errors = _write(tmp_path / "err.csv", "\n".join(_study({3: "s3,a,#DIV/0!,8.1,7.7,#VALUE!,8.0"})) + "\n")
    with pytest.raises(ValueError, match=r"line 5, column 'g1' .*'#DIV/0!', Excel's error value of a formula"):
        read_expression(errors, label="class")
    ds = read_expression(errors, label="class", missing=["", "NA", "#DIV/0!", "#VALUE!"])
    assert ds.extra["missing_values"] == 2 and np.isnan(ds.X[3, [0, 3]]).all()
    empty = _write(tmp_path / "empty.csv", "\n".join(_study({4: "s4,a,,,,,"})) + "\n")
    with pytest.raises(ValueError, match=r"sample 's4' has no value for any gene \(1 such sample"):
        read_expression(empty, label="class")
    unnamed = _write(tmp_path / "unnamed.csv", "\n".join(_study(header="id,class,g1,,g3,g4,g5")) + "\n")
    with pytest.raises(ValueError, match=r"1 gene\(s\) without an identifier .*position 2 of 5"):
        read_expression(unnamed, label="class")


def test_an_h5ad_whose_values_before_scaling_are_in_raw(tmp_path):
    """scanpy keeps the log-normalised values in .raw (often more genes) and scales X (z-scores, negative): the reader
    took X without a word, and no option reached .raw. Now ``layer='raw'`` reads .raw (its genes), and a scaled X
    beside a .raw is read with a warning naming that option; a missing layer's message names it."""
    ad = pytest.importorskip("anndata")
    import warnings

    rng = np.random.default_rng(0)
    counts = rng.poisson(5, (12, 30)).astype(float)
    lognorm = np.log1p(counts / counts.sum(1, keepdims=True) * 1e4)
    obs = pd.DataFrame({"cell_type": ["T cell"] * 6 + ["B cell+"] * 6}, index=[f"c{i}" for i in range(12)])
    adata = ad.AnnData(lognorm, obs=obs, var=pd.DataFrame(index=[f"g{i}" for i in range(30)]))
    adata.raw = adata
    scaled = adata[:, :20].copy()
    scaled.X = (scaled.X - scaled.X.mean(0)) / scaled.X.std(0)
    path = tmp_path / "cells.h5ad"
    scaled.write_h5ad(path)
    with pytest.warns(UserWarning, match=r"X holds negative values .* pass layer='raw'"):
        ds = read_expression(path, label="cell_type")
    assert ds.X.shape == (12, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raw = read_expression(path, label="cell_type", layer="raw")
    np.testing.assert_allclose(raw.X, lognorm)
    assert list(raw.gene_ids) == [f"g{i}" for i in range(30)] and raw.classes == ("B cell+", "T cell")
    with pytest.raises(ValueError, match=r"no layer 'counts'; the layers are \[\]; layer='raw' reads .raw"):
        read_expression(path, label="cell_type", layer="counts")
