"""Parsers: raw public files -> one common record (values, string labels, gene and sample IDs, split).

Every parser takes ``get(file_name) -> Path`` (which fetches and checks the file) and returns a :class:`Raw`
record. The recipes follow the data mirror's parsing notes (one per data set, with its source): ``.RData`` through the
``rdata`` package, Bioconductor ExpressionSets through rdata's parse tree, ``.mat`` through scipy, Orange ``.tab``
and gz CSV through pandas, MNIST through its IDX header.
"""

from __future__ import annotations

import gzip
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

Getter = Callable[[str], Path]


@dataclass
class Raw:
    X: np.ndarray  # samples x genes, float64 (NaN where missing)
    labels: np.ndarray  # one string label per sample
    gene_ids: np.ndarray
    sample_ids: np.ndarray
    train_idx: np.ndarray | None = None
    test_idx: np.ndarray | None = None
    extra: dict = field(default_factory=dict)


def _read_rda(path: Path) -> dict:
    import rdata

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Unknown encoding. Assumed ASCII." on some files
        return rdata.read_rda(str(path))


def _ids(prefix: str, n: int) -> np.ndarray:
    return np.array([f"{prefix}{i + 1}" for i in range(n)])


def _xy_object(obj: dict, prefix_gene="gene", prefix_sample="s") -> Raw:
    """One datamicroarray object: a list of ``x`` (DataArray, DataFrame or ndarray) and ``y`` (factor)."""
    x, y = obj["x"], obj["y"]
    labels = np.asarray(y).astype(str)
    X = np.asarray(x, dtype=np.float64)
    n, d = X.shape
    genes = samples = None
    if hasattr(x, "coords"):  # xarray.DataArray
        if "dim_1" in x.coords:
            genes = np.asarray(x.coords["dim_1"].values).astype(str)
        if "dim_0" in x.coords:
            samples = np.asarray(x.coords["dim_0"].values).astype(str)
    elif hasattr(x, "columns"):  # pandas.DataFrame
        genes = np.asarray(x.columns).astype(str)
        if not np.array_equal(np.asarray(x.index).astype(str), np.arange(1, n + 1).astype(str)):
            samples = np.asarray(x.index).astype(str)
    if genes is None:
        genes = _ids(prefix_gene, d)
    if samples is None:
        samples = _ids(prefix_sample, n)
    return Raw(X, labels, genes, samples)


def datamicroarray(file_name: str, obj_name: str | None = None) -> Callable[[Getter], Raw]:
    """Parser for a datamicroarray ``.RData`` file holding one object named after the file."""

    def parse(get: Getter) -> Raw:
        objs = _read_rda(get(file_name))
        return _xy_object(objs[obj_name or file_name.split(".")[0]])

    return parse


def golub(get: Getter) -> Raw:
    """Golub 1999: training set (samples 1-38) first, then the test set (39-72), from the split objects.

    The merged object ``golub`` lists the 34 test samples first; the split objects avoid that trap.
    """
    objs = _read_rda(get("golub.RData"))
    tr, te = _xy_object(objs["golub_train"]), _xy_object(objs["golub_test"])
    if not np.array_equal(tr.gene_ids, te.gene_ids):
        raise ValueError("golub.RData: training and test objects disagree on the probe order")
    X = np.vstack([tr.X, te.X])
    return Raw(X, np.concatenate([tr.labels, te.labels]), tr.gene_ids,
               np.concatenate([tr.sample_ids, te.sample_ids]),
               train_idx=np.arange(tr.X.shape[0]), test_idx=np.arange(tr.X.shape[0], X.shape[0]))


def _singh_probe_ids(get: Getter) -> list[str]:
    import pandas as pd

    tab = pd.read_csv(get("05_prostata.tab"), sep="\t", header=0, nrows=0)
    cols = list(tab.columns)
    # columns: 'class', then 12533 probes whose first name was lost ('t'): it is 31307_at (data README)
    probes = ["31307_at"] + cols[2:]
    if len(probes) != 12533:
        raise ValueError(f"05_prostata.tab: expected 12533 probe columns, found {len(probes)}")
    return probes


def singh(get: Getter) -> Raw:
    """Singh 2002 prostate, 102 x 12600: V1..V67 AFFX controls (names lost), V68..V12600 the HG-U95Av2 probes."""
    raw = _xy_object(_read_rda(get("singh.RData"))["singh"])
    raw.gene_ids = np.array([f"AFFX_control_V{i + 1}" for i in range(67)] + _singh_probe_ids(get))
    return raw


def welsh(get: Getter) -> Raw:
    """Welsh 2001 (Singh's independent test set), 34 x 12600 in Singh's column order; label 0 = tumour."""
    df = _read_rda(get("prostate.test.rda"))["prostate.test"]
    X = df.iloc[:, :12600].to_numpy(dtype=np.float64)
    lab = np.asarray(df.iloc[:, 12600].to_numpy(dtype=np.int64))
    labels = np.where(lab == 0, "Tumor", "Normal")
    genes = np.array([f"AFFX_control_V{i + 1}" for i in range(67)] + _singh_probe_ids(get))
    return Raw(X, labels, genes, _ids("welsh", X.shape[0]))


def chandran(kind: str) -> Callable[[Getter], Raw]:
    """Chandran 2007 (GDS2545, HG-U95Av2): normal vs primary (``p``) or metastasis (``m``); probe IDs by position."""

    def parse(get: Getter) -> Raw:
        import pandas as pd

        objs = _read_rda(get(f"prostate_GDS2545_{kind}_nf.RData"))
        X = np.asarray(objs["exprsdata"], dtype=np.float64)[:12558].T  # drop the '--Control' rows
        levels = np.asarray(objs["phenotypesLevels"]).astype(str)
        codes = np.asarray(objs["phenotypes"]).astype(str)
        labels = np.where(codes == "1", levels[1], levels[0])
        gpl = pd.read_csv(get("GPL8300_limpo.txt.gz"), sep="\t", dtype=str, usecols=["ID"])["ID"].tolist()
        return Raw(X, labels, np.array(gpl[:12558]), _ids(f"chandran_{kind}", X.shape[0]))

    return parse


def alizadeh(get: Getter) -> Raw:
    """Alizadeh 2000 lymphoma, 96 x 4026 log2 ratios (999 = missing -> NaN); 9 class codes from lymphoma.mat.

    Code -> class (data README): 1 DLBCL, 2 activated blood B, 3 FL, 4 CLL, 7 resting blood B, {5, 6} T cells /
    cell lines, {8, 9} germinal-centre B / lymph node-tonsil.
    """
    import scipy.io as sio

    A = np.loadtxt(get("lymphoma.matrix"))
    X = A.T.astype(np.float64)
    X[X == 999] = np.nan
    X /= 100.0
    codes = sio.loadmat(str(get("lymphoma.mat")))["Y"].ravel().astype(int)
    names = {1: "DLBCL", 2: "activated_blood_B", 3: "FL", 4: "CLL", 5: "T_or_cell_line_5", 6: "T_or_cell_line_6",
             7: "resting_blood_B", 8: "GC_B_or_node_8", 9: "GC_B_or_node_9"}
    labels = np.array([names[c] for c in codes])
    return Raw(X, labels, _ids("lymphoma_gene", X.shape[1]), _ids("lymphoma", X.shape[0]),
               extra={"codes": codes})


def mnist_pair(a: int, b: int) -> Callable[[Getter], Raw]:
    """Digits ``a`` vs ``b`` from the 10000-image MNIST test set (pixels scaled to [0, 1])."""

    def parse(get: Getter) -> Raw:
        img = gzip.open(get("t10k-images-idx3-ubyte.gz")).read()
        lab = gzip.open(get("t10k-labels-idx1-ubyte.gz")).read()
        if int.from_bytes(img[:4], "big") != 2051 or int.from_bytes(lab[:4], "big") != 2049:
            raise ValueError("MNIST files: bad IDX magic numbers (corrupt download?)")
        n = int.from_bytes(img[4:8], "big")
        rows, cols = int.from_bytes(img[8:12], "big"), int.from_bytes(img[12:16], "big")
        X = np.frombuffer(img, dtype=np.uint8, offset=16).reshape(n, rows * cols)
        y = np.frombuffer(lab, dtype=np.uint8, offset=8)
        keep = np.flatnonzero((y == a) | (y == b))
        return Raw(X[keep].astype(np.float64) / 255.0, y[keep].astype(str),
                   np.array([f"pixel_{r}_{c}" for r in range(rows) for c in range(cols)]),
                   np.array([f"t10k_{i}" for i in keep]))

    return parse


# --- Bioconductor ExpressionSets (rdata cannot convert their locked environments; read the parse tree) -------

def _sym(t):
    from rdata.parser import RObjectType as T

    if t is None:
        return None
    if t.info.type == T.REF:
        t = t.referenced_object
    return t.value.value.decode() if t.info.type == T.SYM else None


def _pairlist(o) -> dict:
    from rdata.parser import RObjectType as T

    out = {}
    while o is not None and o.info.type == T.LIST:
        out[_sym(o.tag)] = o.value[0]
        o = o.value[1]
    return out


def read_eset(path: Path):
    """``(X genes x samples, feature IDs, sample IDs, phenoData DataFrame)`` of the ExpressionSet in an .rda."""
    import rdata
    from rdata.parser import RObjectType as T

    top = _pairlist(rdata.parser.parse_file(str(path)).object)
    s4 = next(v for v in top.values() if v.info.type == T.S4)
    slots = _pairlist(s4.attributes)
    ex = _pairlist(slots["assayData"].value.frame)["exprs"]
    a = _pairlist(ex.attributes)
    X = np.asarray(ex.value, float).reshape(tuple(a["dim"].value), order="F")
    rows, cols = a["dimnames"].value
    feats = [c.value.decode() for c in rows.value]
    samples = [c.value.decode() for c in cols.value]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pheno = rdata.conversion.SimpleConverter().convert(_pairlist(slots["phenoData"].attributes)["data"])
    return X, feats, samples, pheno


def eset(file_name: str, label: Callable) -> Callable[[Getter], Raw]:
    """Parser for an ExpressionSet; ``label(pheno, sample_ids)`` gives string labels, '' to drop a sample."""

    def parse(get: Getter) -> Raw:
        X, feats, samples, pheno = read_eset(get(file_name))
        labels = np.asarray(label(pheno, np.asarray(samples))).astype(str)
        keep = labels != ""
        return Raw(X.T[keep], labels[keep], np.array(feats), np.asarray(samples)[keep])

    return parse


def chiaretti_lineage(pheno, samples):
    return np.array(["B" if str(b).startswith("B") else "T" for b in pheno["BT"]])


def armstrong_subtype(pheno, samples):
    return np.asarray(pheno["subtype"]).astype(str)


def stanford_histology(pheno, samples):
    first = np.array([s[0] for s in samples])
    return np.where(first == "A", "adenocarcinoma", np.where(first == "Q", "squamous", ""))


def outcome(column: str):
    def label(pheno, samples):
        v = np.asarray(pheno[column], dtype=object)
        out = []
        for x in v:
            try:
                f = float(x)
            except (TypeError, ValueError):
                out.append("")
                continue
            out.append("" if np.isnan(f) else ("dead" if f == 1 else "alive"))
        return np.array(out)

    return label
