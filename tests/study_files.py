"""Studies unlike the registry's, built from registered sets, for the tests and runs of issue 37: what a researcher
brings to notebook 06 or a paper notebook.

- :func:`geo_17`: a GEO DataSet SOFT file of 17 samples (9 symptomatic / 8 control, Borovecki's HG-U133A MAS5
  values, 22,283 probes), the size of the GEO study that crashed notebook 06;
- :func:`single_cell_h5ad`: an ``.h5ad`` of single-cell counts (cells x genes, three cell types named "CD14+
  Monocyte", "Dendritic cell" and "B cell", sparse negative-binomial counts whose means follow Golub's ALL and AML
  profiles), for ``classes=["CD14+ Monocyte", "Dendritic cell"]``;
- :func:`class_of_three`: 12 samples, 9 tumour and 3 normal (Alon's colon), a CSV;
- :func:`pairs`: a paired study (each patient's tumour and normal tissue): Alon's 22 normal samples each paired
  with a tumour sample, a per-patient profile added to both (so that a pair split across training and test leaks
  the patient), groups in a column ``patient``;
- :func:`counts`: a count matrix (genes x samples TSV with a sample sheet): Alon's intensities turned into Poisson
  counts with library sizes varying four-fold;
- :func:`wide_csv`: 100 samples x 20,000 genes (Chowdary's 104 x 22,283 arrays, genes resampled), a CSV.

``python tests/study_files.py FOLDER`` writes them all and prints the notebook parameters of each.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from geo_files import write_gds_soft  # noqa: E402


def _labels(ds):
    return np.asarray(ds.classes)[(np.asarray(ds.y) > 0).astype(int)]


def geo_17(folder, seed: int = 0) -> Path:
    from genesel.datasets import load_dataset

    ds = load_dataset("borovecki")
    lab = _labels(ds)
    rng = np.random.default_rng(seed)
    a = rng.choice(np.flatnonzero(lab == "symptomatic"), 9, replace=False)
    b = rng.choice(np.flatnonzero(lab == "control"), 8, replace=False)
    idx = np.sort(np.concatenate([a, b]))
    ids = [f"GSM{300000 + i}" for i in idx]
    path = Path(folder) / "GDS1331_17.soft"
    write_gds_soft(path, ds.X[idx], list(ds.gene_ids), ids, list(lab[idx]), accession="GDS1331")
    return path


def single_cell_h5ad(folder, n_cells: int = 150, n_genes: int = 2000, seed: int = 0) -> Path:
    import anndata
    import scipy.sparse as sp

    from genesel.datasets import load_dataset

    g = load_dataset("golub")
    rng = np.random.default_rng(seed)
    genes = rng.choice(g.n_genes, n_genes, replace=False)
    X = np.clip(np.asarray(g.X, float)[:, genes], 20, None)
    prof = {"CD14+ Monocyte": X[g.y < 0].mean(0), "Dendritic cell": X[g.y > 0].mean(0),
            "B cell": np.sqrt(X[g.y < 0].mean(0) * X[g.y > 0].mean(0))[rng.permutation(n_genes)]}
    kinds = rng.choice(list(prof), n_cells, p=[0.45, 0.35, 0.2])
    depth = rng.lognormal(np.log(3000), 0.4, n_cells)
    counts = np.empty((n_cells, n_genes))
    for i, k in enumerate(kinds):
        mu = prof[k] / prof[k].sum() * depth[i]
        counts[i] = rng.negative_binomial(2, 2 / (2 + mu))  # NB with mean mu, dispersion 1/2
    obs = pd.DataFrame({"cell_type": pd.Categorical(kinds), "donor": pd.Categorical(rng.choice(["d1", "d2", "d3"],
                                                                                               n_cells))},
                       index=[f"cell{i:04d}" for i in range(n_cells)])
    ad = anndata.AnnData(X=sp.csr_matrix(counts.astype(np.float32)), obs=obs,
                         var=pd.DataFrame(index=[str(s) for s in np.asarray(g.gene_ids)[genes]]))
    path = Path(folder) / "pbmc_cells.h5ad"
    ad.write_h5ad(path)
    return path


def class_of_three(folder, seed: int = 0) -> Path:
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    lab = _labels(ds)
    rng = np.random.default_rng(seed)
    idx = np.sort(np.concatenate([rng.choice(np.flatnonzero(lab == "tumour"), 9, replace=False),
                                  rng.choice(np.flatnonzero(lab == "normal"), 3, replace=False)]))
    frame = pd.DataFrame(ds.X[idx], index=pd.Index([f"s{i}" for i in idx], name="sample"), columns=ds.gene_ids)
    frame.insert(0, "class", lab[idx])
    path = Path(folder) / "colon_9v3.csv"
    frame.to_csv(path)
    return path


def pairs(folder, seed: int = 0, strength: float = 1.0) -> Path:
    """Each of Alon's 22 normal samples with one tumour sample, as one patient; both get the same patient profile
    (log-normal, ``strength`` times the genes' own spread on the log scale) multiplied in."""
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    lab = _labels(ds)
    rng = np.random.default_rng(seed)
    normal = np.flatnonzero(lab == "normal")
    tumour = rng.choice(np.flatnonzero(lab == "tumour"), normal.size, replace=False)
    L = np.log(np.clip(np.asarray(ds.X, float), 1, None))
    spread = L.std(axis=0)
    rows, names, patients, classes = [], [], [], []
    for p, (a, b) in enumerate(zip(normal, tumour)):
        profile = rng.normal(0, strength * spread)
        for i in (a, b):
            rows.append(np.exp(L[i] + profile))
            names.append(f"P{p + 1:02d}_{lab[i]}")
            patients.append(f"P{p + 1:02d}")
            classes.append(lab[i])
    order = rng.permutation(len(rows))  # pairs not adjacent in the file
    frame = pd.DataFrame(np.array(rows)[order], index=pd.Index(np.array(names)[order], name="sample"),
                         columns=ds.gene_ids)
    frame.insert(0, "patient", np.array(patients)[order])
    frame.insert(0, "tissue", np.array(classes)[order])
    path = Path(folder) / "colon_pairs.csv"
    frame.to_csv(path)
    return path


def counts(folder, seed: int = 0) -> Path:
    """Genes x samples TSV of counts, labels in a sample sheet ``counts_sheet.csv`` (column ``tissue``)."""
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    rng = np.random.default_rng(seed)
    X = np.clip(np.asarray(ds.X, float), 5, None)
    depth = rng.uniform(5e5, 2e6, ds.n_samples)
    C = rng.poisson(X / X.sum(axis=1, keepdims=True) * depth[:, None])
    frame = pd.DataFrame(C.T, index=pd.Index(ds.gene_ids, name="gene"), columns=[f"S{i + 1:02d}"
                                                                              for i in range(ds.n_samples)])
    path = Path(folder) / "colon_counts.tsv"
    frame.to_csv(path, sep="\t")
    pd.DataFrame({"sample": frame.columns, "tissue": _labels(ds)}).to_csv(Path(folder) / "counts_sheet.csv",
                                                                         index=False)
    return path


def wide_csv(folder, n_samples: int = 100, n_genes: int = 20000, seed: int = 0) -> Path:
    from genesel.datasets import load_dataset

    ds = load_dataset("chowdary")
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(ds.n_samples, n_samples, replace=False))
    cols = rng.choice(ds.n_genes, n_genes, replace=False)
    frame = pd.DataFrame(np.asarray(ds.X, float)[np.ix_(rows, cols)], index=pd.Index([f"s{i}" for i in rows],
                                                                                     name="sample"),
                         columns=[f"g{j}" for j in range(n_genes)])
    frame.insert(0, "class", _labels(ds)[rows])
    path = Path(folder) / "wide_100x20000.csv"
    frame.to_csv(path, float_format="%.6g")
    return path


#: name -> (builder, notebook parameters given the written path)
STUDIES = {
    "geo17": (geo_17, lambda p: {"datasets": str(p), "label": "disease state"}),
    "h5ad": (single_cell_h5ad, lambda p: {"datasets": str(p), "label": "cell_type",
                                          "classes": '["CD14+ Monocyte", "Dendritic cell"]'}),
    "three": (class_of_three, lambda p: {"datasets": str(p), "label": "class"}),
    "pairs": (pairs, lambda p: {"datasets": str(p), "label": "tissue", "groups": "patient"}),
    "counts": (counts, lambda p: {"datasets": str(p), "label": str(Path(p).parent / "counts_sheet.csv")}),
    "wide": (wide_csv, lambda p: {"datasets": str(p), "label": "class"}),
}


if __name__ == "__main__":
    import shlex

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:] or STUDIES:
        build, params = STUDIES[name]
        path = build(out)
        args = " ".join(f"-p {k} {shlex.quote(v)}" for k, v in params(path).items())
        print(f"{name}: {args}")
