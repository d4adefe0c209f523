"""Grouped samples at the data layer (issue 37): ``groups=`` on read_expression / load_dataset reads which samples
belong together (a patient's tumour and normal tissue, an individual's repeats) from a sample sheet, a table
column, an AnnData obs column or a GEO subset, into Dataset.groups, aligned with the samples; a sample without a
group is refused, naming it. Splitting by groups is the protocols' job."""

import numpy as np
import pandas as pd
import pytest

from genesel.dataref import DataRef
from genesel.datasets import load_dataset, read_expression

from geo_files import write_gds_soft, write_series_matrix

SAMPLES = [f"GSM{100 + i}" for i in range(8)]
PATIENT = ["p1", "p1", "p2", "p2", "p3", "p3", "p4", "p4"]  # pairs: each patient's tumour and normal tissue
TISSUE = ["tumour", "normal"] * 4
X = np.arange(16.0).reshape(8, 2) + 5


def _check(ds, order=SAMPLES):
    want = dict(zip(SAMPLES, PATIENT))
    assert list(ds.groups) == [want[s] for s in ds.sample_ids] and list(ds.sample_ids) == list(order)
    assert ds.extra["n_groups"] == 4
    tissue = dict(zip(SAMPLES, TISSUE))
    assert list(ds.labels) == [tissue[s] for s in ds.sample_ids]  # a group split across classes is fine


def test_groups_from_a_sample_sheet_column(tmp_path):
    frame = pd.DataFrame(X.T, index=pd.Index(["p_a", "p_b"], name="probe"), columns=SAMPLES)
    frame.to_csv(tmp_path / "d.tsv", sep="\t")
    sheet = tmp_path / "sheet.csv"
    pd.DataFrame({"sample": SAMPLES[::-1], "tissue": TISSUE[::-1], "patient": PATIENT[::-1]}).to_csv(sheet, index=False)
    ds = read_expression(tmp_path / "d.tsv", label=str(sheet), groups="patient")
    _check(ds)
    own = tmp_path / "groups.csv"  # a sheet of its own: sample, group
    pd.DataFrame({"sample": SAMPLES, "patient": PATIENT}).to_csv(own, index=False)
    _check(read_expression(tmp_path / "d.tsv", label=str(sheet), label_column="tissue", groups=str(own)))
    with pytest.raises(ValueError, match=r"d.tsv: no row named 'donor' to read the groups from .*, nor a column of "
                                         r"the sample sheet .*sheet.csv \(its columns are \['sample', 'tissue', "
                                         r"'patient'\]\)"):
        read_expression(tmp_path / "d.tsv", label=str(sheet), groups="donor")


def test_groups_from_a_table_column_and_through_the_reference(tmp_path):
    frame = pd.DataFrame(X, index=SAMPLES, columns=["g1", "g2"])
    frame.insert(0, "patient", PATIENT)
    frame.insert(0, "tissue", TISSUE)
    frame.to_csv(tmp_path / "t.csv")
    ds = load_dataset(tmp_path / "t.csv", label="tissue", groups="patient")
    _check(ds)
    assert ds.X.shape == (8, 2)  # the group column is not a gene
    ref = DataRef.of(tmp_path / "t.csv", label="tissue", groups="patient")
    assert ref.key()["file"]["groups"] == "patient" and load_dataset(str(ref)).groups.tolist() == PATIENT
    sub = ds.subset(samples=[0, 2, 4])
    assert sub.groups.tolist() == ["p1", "p2", "p3"]


def test_groups_from_an_h5ad_obs_column(tmp_path):
    import anndata

    obs = pd.DataFrame({"tissue": TISSUE, "donor": pd.Categorical(PATIENT)}, index=SAMPLES)
    anndata.AnnData(X=X, obs=obs, var=pd.DataFrame(index=["g1", "g2"])).write_h5ad(tmp_path / "s.h5ad")
    _check(read_expression(tmp_path / "s.h5ad", label="tissue", groups="donor"))
    with pytest.raises(ValueError, match=r"s.h5ad: no obs column 'patient' to read the groups from; obs has "
                                         r"\['tissue', 'donor'\]"):
        read_expression(tmp_path / "s.h5ad", label="tissue", groups="patient")


def test_groups_from_a_geo_soft_subset_and_a_series_matrix_characteristic(tmp_path):
    write_gds_soft(tmp_path / "GDS7.soft", X, ["p_a", "p_b"], SAMPLES, TISSUE, extra_subsets={"individual": PATIENT})
    _check(read_expression(tmp_path / "GDS7.soft", label="disease state", groups="individual"))
    order = [3, 0, 7, 1, 6, 2, 5, 4]  # the value table in another order than the header: matched by accession
    write_series_matrix(tmp_path / "GSE7_series_matrix.txt", X, ["p_a", "p_b"], SAMPLES, TISSUE, key="tissue",
                        table_order=order, characteristics={"individual": PATIENT})
    _check(read_expression(tmp_path / "GSE7_series_matrix.txt", label="tissue", groups="individual"),
           order=[SAMPLES[i] for i in order])


def test_a_sample_without_a_group_is_refused_naming_it(tmp_path):
    partial = PATIENT[:5] + [""] + PATIENT[6:]
    write_gds_soft(tmp_path / "GDS8.soft", X, ["p_a", "p_b"], SAMPLES, TISSUE, extra_subsets={"individual": partial})
    with pytest.raises(ValueError, match=r"GDS8.soft: 1 sample\(s\) without a group, e.g. \['GSM105'\]"):
        read_expression(tmp_path / "GDS8.soft", label="disease state", groups="individual")
    frame = pd.DataFrame(X, index=SAMPLES, columns=["g1", "g2"])
    frame.insert(0, "patient", partial)
    frame.insert(0, "tissue", TISSUE)
    frame.to_csv(tmp_path / "t.csv")
    with pytest.raises(ValueError, match=r"t.csv: 1 sample\(s\) without a group, e.g. \['GSM105'\]"):
        read_expression(tmp_path / "t.csv", label="tissue", groups="patient")


def test_groups_follow_the_samples_kept_by_classes(tmp_path):
    labels = TISSUE[:6] + ["blood", "blood"]
    frame = pd.DataFrame(X, index=SAMPLES, columns=["g1", "g2"])
    frame.insert(0, "patient", PATIENT)
    frame.insert(0, "tissue", labels)
    frame.to_csv(tmp_path / "t.csv")
    ds = read_expression(tmp_path / "t.csv", label="tissue", groups="patient", classes=["normal", "tumour"])
    assert list(ds.sample_ids) == SAMPLES[:6] and list(ds.groups) == PATIENT[:6]
    arr = read_expression(X, label=TISSUE, groups=PATIENT)
    assert list(arr.groups) == PATIENT
