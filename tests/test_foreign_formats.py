"""Files of other tools that the readers do not read (an Excel workbook, featureCounts output, a GCT file): a
notebook's ``datasets`` parameter names the format and the conversion instead of the reader's symptom, and the
conversion it gives reads (tried here as a user would, from the message itself)."""

import re
import zipfile

import numpy as np
import pandas as pd
import pytest

from genesel.datasets import load_dataset
from genesel.foreign_formats import foreign_format_hint
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


@pytest.mark.parametrize("kind", ["featureCounts", "GCT"])
def test_the_message_names_the_format_and_its_conversion_reads(tmp_path, kind):
    path, sheet = (_featurecounts if kind == "featureCounts" else _gct)(tmp_path)
    with pytest.raises(ValueError) as err:
        load_dataset(path, label=str(sheet))  # the readers themselves refuse it (with a symptom)
    assert kind not in str(err.value)
    with pytest.raises(ValueError, match=f"is (a )?{kind}") as err:
        dataset_list([str(path)], ["alon"], label=str(sheet))
    code = re.search(r"(pd\.read_csv\(.*?\.to_csv\('[\w.]+'\))", str(err.value)).group(1)
    out = tmp_path / re.search(r"to_csv\('([\w.]+)'\)", code).group(1)
    eval(code.replace(f".to_csv('{out.name}')", f".to_csv({str(out)!r})"), {"pd": pd})
    ds = load_dataset(out, label=str(sheet))
    assert ds.X.shape == ((12, 200) if kind == "featureCounts" else (12, 150))
    assert ds.scale == ("counts" if kind == "featureCounts" else "log")


def test_an_excel_workbook_is_named_and_a_readable_file_gets_no_hint(tmp_path):
    with pytest.raises(ValueError, match="is an Excel workbook.*Save As > CSV"):
        dataset_list([str(_xlsx(tmp_path))], ["alon"], label="class")
    plain = tmp_path / "plain.csv"
    pd.DataFrame({"g1": [1.0, 2.0], "g2": [3.0, 4.0]}).to_csv(plain)
    assert foreign_format_hint(plain) is None and foreign_format_hint(tmp_path / "absent.csv") is None
