"""Shah, Marchand & Corbeil (2012): everything notebook 04 needs that is not an algorithm.

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and Learning from
Microarray Data*, IEEE TPAMI 34(1):174-186, 2012. The learners live in :mod:`genesel.stumps` (Occam's razor,
sample compression, PAC-Bayes, AdaBoost with stumps) and their risk bounds in :mod:`genesel.bounds`; the
baselines in :mod:`genesel.svm`, :mod:`genesel.rfe`, :mod:`genesel.filters` and :mod:`genesel.arom`.

Here: the data sets of §7 (which ones exist, which are missing and why), the paper's Tables 1-5 as printed, the
protocol of §7 as grid cells for :func:`genesel.experiments.run_grid` (20 random permutations x 5-fold CV, every
parameter chosen by a nested 5-fold CV on the training folds only: p, the margin parameters, C, subset sizes,
boosting rounds), the single-run Table 3 (fixed vs variable margin, with the bound), the MNIST pairs of Table 4,
the final PAC-Bayes classifiers of Table 5, the summaries (errors as counts ± sd over the permutations, most
frequent sizes) and the figures.

Preprocessing. The stump learners see the data as published (a stump is invariant to any increasing transform of
its gene except through the margin and bit terms); MNIST pixels have the a priori range [0, 1]. The SVM-based
baselines see the data set's usual preprocessing (log of raw intensities where needed, per-gene z-scores),
fitted on the training part of each fold, then scaled by 1/sqrt(#genes) so that one C grid fits every subset size.
"""

from __future__ import annotations

import time
import warnings
from functools import lru_cache

import numpy as np
import pandas as pd

from genesel import stumps as ST
from genesel._core.smo import solve_dual
from genesel._core.threads import single_blas_thread
from genesel.datasets import gene_labels, gene_symbols, load_dataset, recommended_preprocessing
from genesel.experiments import nested_cv, stratified_kfold
from genesel.filters import SignalToNoiseSelector
from genesel.rfe import SVMRFE

__all__ = ["PAPER_DATASETS", "MISSING_DATASETS", "MNIST_PAIRS", "METHODS", "STUMP_METHODS", "GRIDS",
           "paper_table1", "paper_table2", "paper_table3", "paper_table4", "paper_table5", "dataset_note",
           "cv_cell", "table3_fixed_cell", "mnist_cell", "final_cell", "summarise_cv", "table1", "table2",
           "table3", "table4", "table5", "protocol_cells", "plot_bound_vs_error", "plot_sparsity_vs_error",
           "plot_two_stumps", "datasets_table", "missing_table", "two_stump_classifier", "cost_table",
           "paper_vs_rows"]

# ----------------------------------------------------------------------------------------------------------------
# data sets
# ----------------------------------------------------------------------------------------------------------------

#: The paper's data sets that the data layer has (paper name -> genesel data set).
PAPER_DATASETS = {"Colon": "alon", "Leuk": "golub", "C_MD": "pomeroy", "BreastER": "west", "Lung": "garber"}

#: The paper's data sets that are not available, with the reason.
MISSING_DATASETS = {
    "B_MD": "Pomeroy et al. 2002 classic vs desmoplastic medulloblastoma (34 x 7129): not in any public copy the "
            "data mirror could find (only the outcome set C_MD is).",
    "Celiac": "Heap et al. 2009 (132 x 22185 leukocyte arrays): the processed matrix with these labels is not in the "
              "mirror.",
    "Colon-epi": "Noble et al. 2008 colon epithelial biopsies (202 x 44290): not in the mirror.",
    "Bone Lesion": "Tian et al. 2003 myeloma bone lesions (173 x 12625): listed by an R package, but the file was "
                   "not retrievable; its Table 1 row is also garbled in the paper's text.",
}

#: Table 4 digit pairs (paper name -> genesel data set, from the 10,000-image MNIST test set).
MNIST_PAIRS = {"MNIST-0vs8": "mnist_0v8", "MNIST-1vs7": "mnist_1v7", "MNIST-1vs8": "mnist_1v8",
               "MNIST-2vs3": "mnist_2v3"}


def dataset_note(dataset: str) -> str:
    """How the genesel copy of a paper data set differs from the paper's."""
    notes = {
        "alon": "same data (62 x 2000, raw intensities)",
        "golub": "same data (72 x 7129, raw MAS intensities with negatives)",
        "pomeroy": "60 x 7128 (one probe fewer than the paper's 7129), values standardised per sample by the source",
        "west": "49 x 7129 (25 ER- / 24 ER+; the paper says 25 positive / 24 negative), standardised per sample",
        "garber": "SUBSTITUTE: Garber's Stanford lung tumours as 47 x 3171 UniGene clusters (37 adenocarcinoma vs 10 "
                  "squamous), not the paper's 52 x 918 set (39 vs 13)",
    }
    if dataset.startswith("mnist_"):
        return "from the 10,000-image MNIST test set (the paper's pairs have about 2400 images each)"
    return notes.get(dataset, "not one of the paper's data sets")


# ----------------------------------------------------------------------------------------------------------------
# the paper's tables, as printed
# ----------------------------------------------------------------------------------------------------------------


def _ms(text):
    """'12.8±1.4' -> (12.8, 1.4); '22.2±-*' -> (22.2, nan); '.*' -> (nan, nan)."""
    t = str(text).replace(" ", "").replace("*", "")
    if "±" in t:
        a, b = t.split("±", 1)
    else:
        a, b = t, ""
    def num(s):
        s = s.strip("-")
        if s in ("", "."):
            return np.nan
        try:
            return float(s if not s.startswith(".") else "0" + s)
        except ValueError:
            return np.nan
    return num(a), num(b)


_T1 = [  # name, ex, genes, SVM, SVM+gs, S, SVM+rfe, S, Itrs, Adaboost, L0, S
    ("Colon", 62, 2000, "12.8±1.4", "14.4±3.5", "256", "15.4±4.8", "128", "20", "15.2±2.1", "22.2±-*", "20*"),
    ("B_MD", 34, 7129, "13.2±1", "7.2±2.6", "32", "10.4±2.4", "64", "20", "9.8±1.1", "8.74±-*", "4-3500*"),
    ("C_MD", 60, 7129, "28.2±2.2", "23.1±2.8", "1024", "28.2±2.2", "7129", "50", "21.2±2.4", "21±1.8", "13"),
    ("Leuk", 72, 7129, "21.3±1.4", "14±2.8", "64", "21±3.2", "256", "20", "17.8±1.8", "25.03±1.5", "10"),
    ("Lung", 52, 918, "8.8±1.3", "6.8±1.9", "64", "7.2±1.8", "32", "1", "2.4±1.4", "3.87±1.1", "50"),
    ("BreastER", 49, 7129, "15.3±2.4", "10.3±2.7", "256", "11.2±2.8", "256", "50", "9.8±1.7", ".*", ".*"),
    ("Celiac", 132, 22185, "16.2±3.2", "28.01±2.3", "20", "22.1±1.6", "150", "500", "20.95±0.95", "10.1±1.1", "100"),
    ("Colon-epi", 202, 44290, "26±2.6", "76.64±3.1", "5", "38.01±2.4", "2769", "500", "32.8±4.14", "30.02±2.5",
     "100"),
]
_T2 = [  # name, ex, genes, Occam errs, S, SC errs, S, PB S, G-errs, B-errs
    ("Colon", 62, 2000, "23.6±1.2", "1.8±.6", "18.2±1.8", "1.2±.6", "1.53±.28", "14.68±1.8", "14.65±1.8"),
    ("B_MD", 34, 7129, "17.2±1.8", "1.2±.8", "17.2±1.3", "1.4±.8", "1.2±.25", "8.89±1.65", "8.6±1.4"),
    ("C_MD", 60, 7129, "28.6±1.8", "2.6±1.1", "29.2±1.1", "1.2±.6", "3.4±1.8", "23.8±1.7", "22.9±1.65"),
    ("Leuk", 72, 7129, "27.8±1.7", "2.2±.8", "27.3±1.7", "1.4±.7", "3.2±1.4", "24.4±1.5", "23.6±1.6"),
    ("Lung", 52, 918, "21.7±1.1", "1.8±1.2", "18±1.3", "1.2±.5", "1.2±.3", "4.4±.6", "4.2±.8"),
    ("BreastER", 49, 7129, "25.4±1.2", "3.2±.6", "21.2±1.5", "1.4±.5", "2.6±1.1", "12.8±.8", "12.4±.78"),
    ("Celiac", 132, 22185, "46±2.1", "3.1±1.1", "42.1±1.4", "2.1±.5", "6.2±1.4", "30±1.7", "26±1.1"),
    ("Colon-epi", 202, 44290, "88.1±1.2", "4.4±1.1", "74.4±1.8", "3.2±1.2", "11±4.2", "67±4.8", "62±3.4"),
    ("Bone Lesions", 173, 12625, "44.6±1.4", "6.6±1.2", "42.3±1.8", "5.2±1.1", "10.2±2.2", "34.4±2.2", "32±1.4"),
]
_T3 = [  # name, ex, genes, fixed: size, errors, bound; variable: size, G-errs, B-errs, bound
    ("Colon", 62, 2000, 1, 14, 34, 1, 12, 11, 33), ("B_MD", 34, 7129, 1, 7, 20, 1, 7, 7, 20),
    ("C_MD", 60, 7129, 3, 28, 48, 5, 21, 20, 45), ("Leuk", 72, 7129, 2, 21, 46, 3, 22, 21, 48),
    ("Lung", 52, 918, 2, 9, 29, 1, 3, 3, 18), ("BreastER", 49, 7129, 3, 11, 31, 2, 11, 11, 29),
    ("Celiac", 132, 22185, 3, 29, 49, 3, 26, 24, 59), ("Colon-epi", 202, 44290, 7, 69, 94, 9, 63, 59, 113),
    ("Bone Lesions", 173, 12625, 8, 38, 69, 8, 34, 31, 78),
]
_T4 = [  # name, ex, attributes, SVM-rfe errs, S, L0 errs, S, PB S, G-errs, B-errs, bound (fractions)
    ("MNIST-0vs8", 2416, 784, 0.033, 50, 0.03, 40, 5, 0.031, 0.031, 0.06),
    ("MNIST-1vs7", 2422, 784, 0.04, 50, 0.038, 50, 8, 0.0342, 0.034, 0.07),
    ("MNIST-1vs8", 2436, 784, 0.063, 100, 0.064, 100, 7, 0.063, 0.063, 0.13),
    ("MNIST-2vs3", 2405, 784, 0.09, 100, 0.096, 100, 4, 0.13, 0.12, 0.17),
]
_T5 = {
    "Colon": ["Hsa627 M26383-Human monocyte-derived neutrophil-activating protein (MONAP) mRNA"],
    "B_MD": ["D79205_at-Ribosomal protein L39"],
    "C_MD": ["S71824_at-Neural Cell Adhesion Molecule, Phosphatidylinositol-Linked Isoform Precursor",
             "D83542_at-Cadherin-15", "U29195_at-NPTX2 Neuronal pentraxin II", "X73358_s_at-HAES-1 mRNA",
             "L36069_at-High conductance inward rectifier potassium channel alpha subunit mRNA"],
    "Leuk": ["M84526_at-DF D component of complement (adipsin)", "U34360_at-Lymphoid nuclear protein (LAF-4) mRNA",
             "M16937_at-Homeo box c1 protein, mRNA"],
    "Lung": ["GENE221X-IMAGE_841641-cyclin D1 (PRAD1-parathyroid adenomatosis 1) Hs82932 AA487486"],
    "BreastER": ["X03635_at-Human mRNA for oestrogen receptor", "L42611_f_at-Homo sapiens keratin 6 isoform K6e "
                 "(KRT6E) mRNA"],
}


def paper_table1() -> pd.DataFrame:
    """Table 1 as printed (8 rows; the Bone Lesion row is garbled in the text and left out). Columns with the printed
    strings and, for the error columns, ``*_mean`` / ``*_sd`` numbers (counts of misclassified examples)."""
    cols = ["dataset", "ex", "genes", "SVM", "SVM+gs", "SVM+gs S", "SVM+rfe", "SVM+rfe S", "AdaBoost itrs",
            "AdaBoost", "L0", "L0 S"]
    df = pd.DataFrame(_T1, columns=cols)
    for c in ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0"):
        df[c + "_mean"], df[c + "_sd"] = zip(*df[c].map(_ms))
    return df


def paper_table2() -> pd.DataFrame:
    cols = ["dataset", "ex", "genes", "Occam", "Occam S", "SC", "SC S", "PAC-Bayes S", "PAC-Bayes G-errs",
            "PAC-Bayes B-errs"]
    df = pd.DataFrame(_T2, columns=cols)
    for c in cols[3:]:
        df[c + "_mean"], df[c + "_sd"] = zip(*df[c].map(_ms))
    return df


def paper_table3() -> pd.DataFrame:
    cols = ["dataset", "ex", "genes", "fixed size", "fixed errors", "fixed bound", "variable size",
            "variable G-errs", "variable B-errs", "variable bound"]
    return pd.DataFrame(_T3, columns=cols)


def paper_table4() -> pd.DataFrame:
    cols = ["dataset", "ex", "attributes", "SVM-rfe", "SVM-rfe S", "L0", "L0 S", "PAC-Bayes S", "PAC-Bayes G-errs",
            "PAC-Bayes B-errs", "PAC-Bayes bound"]
    return pd.DataFrame(_T4, columns=cols)


def paper_table5() -> dict:
    """Table 5: the genes of the final PAC-Bayes classifier, as printed, per paper data set."""
    return {k: list(v) for k, v in _T5.items()}


# ----------------------------------------------------------------------------------------------------------------
# protocol
# ----------------------------------------------------------------------------------------------------------------

#: Methods of Tables 1 and 2, in the order the notebook shows them.
METHODS = ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0", "Occam", "SC", "PAC-Bayes")
STUMP_METHODS = ("Occam", "SC", "PAC-Bayes")

#: Parameter grids (the paper names the parameters, not their values; these are ours).
GRIDS = {
    "full": {
        "p": (0.5, 1.0, 2.0, 5.0, 10.0),
        "eta_occam": (0.0, 0.005, 0.02, 0.05),
        "eta_pb": (0.0, 0.01, 0.03, 0.1),
        "gamma_fixed": (0.01, 0.02, 0.05, 0.1),
        "max_stumps": 10,
        "models": ("conjunction", "disjunction"),
        "C": (0.1, 1.0, 10.0, 100.0),
        "gs_sizes": tuple(2 ** i for i in range(13)),
        "ada_rounds": (10, 20, 50, 100, 200, 500, 1000, 2000),
        "l0_C": 100.0,
        "inner_k": 5,
    },
    "quick": {
        "p": (1.0, 5.0),
        "eta_occam": (0.005,),
        "eta_pb": (0.01, 0.03),
        "gamma_fixed": (0.05,),
        "max_stumps": 5,
        "models": ("conjunction", "disjunction"),
        "C": (1.0, 100.0),
        "gs_sizes": (1, 4, 16, 64, 256),
        "ada_rounds": (10, 20, 50),
        "l0_C": 100.0,
        "inner_k": 3,
    },
}


@lru_cache(maxsize=8)
def _task(dataset: str):
    """(X, y in {-1,+1}, presort of X, classes, gene ids) of a data set, cached per process."""
    ds = load_dataset(dataset)
    X = np.ascontiguousarray(ds.X, dtype=np.float64)
    ST.warm_up()
    return X, np.asarray(ds.y), ST.presort(X), tuple(ds.classes), np.asarray(ds.gene_ids).astype(str)


def _feature_range(dataset):
    return (0.0, 1.0) if dataset.startswith("mnist_") else None


def _subsample(dataset, max_samples, seed):
    """All samples, or a seeded stratified subset of ``max_samples`` (quick runs on the large MNIST pairs)."""
    X, y, _, _, _ = _task(dataset)
    if max_samples is None or max_samples >= y.size:
        return np.arange(y.size)
    from genesel.experiments import random_splits

    (tr, _), = random_splits(y, int(max_samples), 1, seed, stratified=True)
    return np.sort(tr)


# ---- stump learners ------------------------------------------------------------------------------------------


def _pos(y, model):
    return (y > 0) if model == "conjunction" else (y < 0)


def _stump_grid(method, g):
    if method == "SC":
        return [(p, 0.0) for p in g["p"]]
    if method == "Occam":
        return [(p, e) for p in g["p"] for e in g["eta_occam"]]
    if method in ("PAC-Bayes", "PAC-Bayes-fixed"):
        etas = g["eta_pb"] if method == "PAC-Bayes" else g["gamma_fixed"]
        return [(p, e) for p in g["p"] for e in etas]
    raise ValueError(f"not a stump method: {method!r}")


def _paths(method, X, pos, grid, S, presorted, A, B):
    ps = np.array([q[0] for q in grid])
    es = np.array([q[1] for q in grid])
    if method == "SC":
        return ST.scm_paths(X, pos, ps, S, presorted=presorted)
    if method == "Occam":
        return ST.occam_paths(X, pos, ps, es, S, A, B, presorted=presorted)
    if method == "PAC-Bayes":
        return ST.pac_bayes_paths(X, pos, ps, es, S, A, B, presorted=presorted)
    # fixed margin: the second parameter is gamma (eta has no effect with a constant margin term)
    out = []
    for p, gam in grid:
        out.extend(ST.pac_bayes_paths(X, pos, p, 0.01, S, A, B, width_frac=gam, presorted=presorted))
    return out


def _prefix_losses(method, path, X, pos, S):
    """(S,) validation losses of the conjunctions of the first 1..S stumps (a shorter path repeats its last):
    hard errors for SC/Occam, expected Gibbs errors for PAC-Bayes (and Bayes errors as a second array)."""
    k = len(path["gene"])
    loss = np.empty(S)
    bayes = np.empty(S)
    if method in ("SC", "Occam", "PAC-Bayes-fixed"):
        if method == "PAC-Bayes-fixed":
            thr = (np.asarray(path["a"]) + np.asarray(path["b"])) / 2.0
        else:
            thr = path["threshold"]
        out = ST.stump_outputs(X, path["gene"], thr, path["direction"]) if k else np.ones((X.shape[0], 0), bool)
        cum = np.cumprod(out, axis=1).astype(bool) if k else out
        for s in range(S):
            pred = cum[:, min(s, k - 1)] if k else np.ones(X.shape[0], bool)
            loss[s] = np.sum(pred != pos)
        bayes[:] = loss
        return loss, bayes
    sig = ST.soft_outputs(X, path["gene"], path["a"], path["b"], path["direction"]) if k else np.ones((X.shape[0], 0))
    cum = np.cumprod(sig, axis=1) if k else sig
    for s in range(S):
        pr = cum[:, min(s, k - 1)] if k else np.ones(X.shape[0])
        loss[s] = np.sum(np.where(pos, 1.0 - pr, pr))
        bayes[s] = np.sum((pr > 0.5) != pos)
    return loss, bayes


def _estimator(method, model, p, e, s, frange):
    if method == "SC":
        return ST.SampleCompressionStumps(p=p, max_stumps=s, model=model)
    if method == "Occam":
        return ST.OccamStumps(p=p, eta=e, max_stumps=s, model=model, feature_range=frange)
    if method == "PAC-Bayes":
        return ST.PACBayesStumps(p=p, eta=e, max_stumps=s, model=model, feature_range=frange)
    return ST.PACBayesStumps(p=p, eta=0.01, max_stumps=s, model=model, margin="fixed", gamma=e,
                             feature_range=frange)


def _ranges(X, frange):
    if frange is None:
        return X.min(axis=0), X.max(axis=0)
    n = X.shape[1]
    return np.full(n, float(frange[0])), np.full(n, float(frange[1]))


def _select_stumps(method, dataset, inner, g):
    """Inner CV over (model, p, eta or gamma, number of stumps): (model, p, second parameter, stumps, loss)."""
    X, y, full, classes, _ = _task(dataset)
    frange = _feature_range(dataset)
    grid = _stump_grid(method, g)
    S = g["max_stumps"]
    models = g["models"]
    loss = np.zeros((len(models), len(grid), S))
    for a, b in inner:
        pre = ST.presort_rows(full, a)
        A, B = _ranges(X[a], frange)
        for mi, model in enumerate(models):
            paths = _paths(method, X[a], _pos(y[a], model), grid, S, pre, A, B)
            for c, path in enumerate(paths):
                loss[mi, c] += _prefix_losses(method, path, X[b], _pos(y[b], model), S)[0]
    # smallest inner loss; ties: fewer stumps, then model and grid order
    flat = [(loss[mi, c, s], s, mi, c) for mi in range(len(models)) for c in range(len(grid)) for s in range(S)]
    best_loss, s, mi, c = min(flat)
    return models[mi], grid[c][0], grid[c][1], s + 1, float(best_loss)


def _stumps_fold(method, dataset, tr, te, inner, g):
    """Inner CV over (model, p, eta or gamma, number of stumps), final fit, test scores of one outer fold."""
    X, y, full, classes, _ = _task(dataset)
    frange = _feature_range(dataset)
    model, p, e, s1, best_loss = _select_stumps(method, dataset, inner, g)
    s = s1 - 1
    est = _estimator(method, model, p, e, s + 1, frange)
    est.fit(X[tr], y[tr], presorted=ST.presort_rows(full, tr))
    pos_te = _pos(y[te], model)
    row = dict(model=model, p=float(p), param2=float(e), max_stumps=int(s + 1), inner_loss=float(best_loss),
               n_stumps=int(est.n_stumps_), bound=float(est.bound_), n_train=int(tr.size), n_test=int(te.size),
               genes=[int(q[0]) for q in est.stumps_])
    if method in ("PAC-Bayes", "PAC-Bayes-fixed"):
        pr = est._prod(X[te], est.n_stumps_)
        row["gibbs_errors"] = float(np.sum(np.where(pos_te, 1.0 - pr, pr)))
        row["bayes_errors"] = int(np.sum(est.predict(X[te]) != y[te]))
        row["errors"] = row["bayes_errors"]
        row["train_gibbs_risk"] = float(est.gibbs_risk_)
        row["intervals"] = [[float(q[1][0]), float(q[1][1]), int(q[2])] for q in est.stumps_]
    else:
        row["errors"] = int(np.sum(est.predict(X[te]) != y[te]))
    return row


# ---- SVM-based baselines ---------------------------------------------------------------------------------------


def _svm_data(dataset, a, b):
    """Preprocessed (log where needed, z-scores fitted on a) training and validation matrices."""
    X, y, _, _, _ = _task(dataset)
    prep = recommended_preprocessing(dataset).fit(X[a])
    return prep.transform(X[a]), prep.transform(X[b])


def _svm_errors(K, ytr, Kva, yva, Cs):
    """Validation errors of the linear SVM on Gram K (train) / Kva (validation x train), one per C (each solved
    from scratch: a warm start from the previous C can drift just outside y^T a = 0 and be refused)."""
    out = []
    for C in Cs:
        res = solve_dual(K, ytr, C, tol=1e-5)
        dec = Kva @ (res["alpha"] * ytr) - res["rho"]
        out.append(int(np.sum(np.where(dec > 0, 1, -1) != yva)))
    return np.asarray(out)


def _gs_errors(Xa, ya, Xb, yb, sizes, Cs):
    """(len(sizes), len(Cs)) validation errors of SVMs on the top-l genes of Golub's ranking (balanced)."""
    with np.errstate(invalid="ignore"):  # genes constant in the training part score 0 (filters._safe_divide)
        order = SignalToNoiseSelector(n_features_to_select=1, balanced=True).fit(Xa, ya).feature_order_
    K = np.zeros((Xa.shape[0], Xa.shape[0]))
    Kv = np.zeros((Xb.shape[0], Xa.shape[0]))
    done = 0
    errs = np.zeros((len(sizes), len(Cs)), dtype=np.int64)
    for i, l in enumerate(sizes):
        l = min(int(l), Xa.shape[1])
        new = order[done:l]
        A, B = Xa[:, new], Xb[:, new]
        K += A @ A.T
        Kv += B @ A.T
        done = l
        errs[i] = _svm_errors(K / l, ya.astype(float), Kv / l, yb, Cs)
    return errs


def _nonconstant(Xa):
    return np.flatnonzero(np.ptp(Xa, axis=0) > 0)


def _rfe_errors(Xa, ya, Xb, yb, Cs):
    """(sizes visited, (len(Cs), n sizes) validation errors) of SVM-RFE (Guyon's halving, the unbiased version:
    run on the training part only)."""
    keep = _nonconstant(Xa)
    s = 1.0 / np.sqrt(keep.size)
    errs = []
    sizes = None
    for C in Cs:
        rfe = SVMRFE(n_features_to_select=1, step="halving", C=C, tol=1e-5)
        try:
            rfe.fit(Xa[:, keep] * s, ya)
        except ValueError as exc:
            # SVMRFE.fit ends by refitting a LinearSVM warm-started from the last stage's dual solution; SMO's
            # rounding can leave y^T a some 1e-7 off zero, which the solver refuses as infeasible (seen once in
            # 100 C_MD folds). Everything the path needs is set before that refit, and the refit is not used here.
            if "alpha0 is not feasible" not in str(exc) or not hasattr(rfe, "stage_alpha_"):
                raise
        path = rfe.decision_function_path(Xb[:, keep] * s)
        errs.append(np.sum(np.where(path > 0, 1, -1) != yb[None, :], axis=1))
        sizes = rfe.subset_sizes_
    return np.asarray(sizes), np.asarray(errs)


def _arom_order(Xa, ya):
    from genesel.arom import L2AROM

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = L2AROM(n_features_to_select=None).fit(Xa / np.sqrt(Xa.shape[1]), ya)
    return sel.feature_order_, sel.n_active_


def _l0_sizes(d, n_active):
    return sorted({2 ** i for i in range(14) if 2 ** i < d} | {int(n_active)})


def _l0_errors(Xa, ya, Xb, yb, C):
    order, n_active = _arom_order(Xa, ya)
    sizes = _l0_sizes(Xa.shape[1], n_active)
    errs = []
    for l in sizes:
        g = order[:l]
        A, B = Xa[:, g], Xb[:, g]
        errs.append(_svm_errors(A @ A.T / l, ya.astype(float), B @ A.T / l, yb, [C])[0])
    return sizes, np.asarray(errs), n_active


def _svm_fold(method, dataset, tr, te, inner, g):
    X, y, _, _, _ = _task(dataset)
    Cs = list(g["C"])
    if method == "SVM":
        err = np.zeros(len(Cs))
        for a, b in inner:
            Xa, Xb = _svm_data(dataset, a, b)
            d = Xa.shape[1]
            err += _svm_errors(Xa @ Xa.T / d, y[a].astype(float), Xb @ Xa.T / d, y[b], Cs)
        ci = int(np.argmin(err))
        Xa, Xb = _svm_data(dataset, tr, te)
        d = Xa.shape[1]
        e = _svm_errors(Xa @ Xa.T / d, y[tr].astype(float), Xb @ Xa.T / d, y[te], [Cs[ci]])[0]
        return dict(C=Cs[ci], size=int(d), errors=int(e), inner_loss=float(err[ci]))
    if method == "SVM+gs":
        sizes = [l for l in g["gs_sizes"] if l <= X.shape[1]]
        err = np.zeros((len(sizes), len(Cs)))
        for a, b in inner:
            Xa, Xb = _svm_data(dataset, a, b)
            err += _gs_errors(Xa, y[a], Xb, y[b], sizes, Cs)
        i, ci = np.unravel_index(int(np.argmin(err)), err.shape)  # ties: fewer genes first (row-major order)
        Xa, Xb = _svm_data(dataset, tr, te)
        e = _gs_errors(Xa, y[tr], Xb, y[te], sizes[: i + 1], [Cs[ci]])[-1, 0]
        return dict(C=Cs[ci], size=int(sizes[i]), errors=int(e), inner_loss=float(err[i, ci]))
    if method == "SVM+rfe":
        tot = None
        for a, b in inner:
            Xa, Xb = _svm_data(dataset, a, b)
            sizes, errs = _rfe_errors(Xa, y[a], Xb, y[b], Cs)
            # inner training sets may differ in their number of non-constant genes: index sizes by rank from the end
            errs = errs[:, ::-1]
            tot = errs.astype(float) if tot is None else tot[:, : errs.shape[1]] + errs[:, : tot.shape[1]]
            ref_sizes = sizes[::-1][: tot.shape[1]]
        # ties: fewer genes (the reversed sizes run from 1 upwards), then smaller C
        flat = [(tot[ci, j], j, ci) for ci in range(len(Cs)) for j in range(tot.shape[1])]
        loss, j, ci = min(flat)
        Xa, Xb = _svm_data(dataset, tr, te)
        sizes, errs = _rfe_errors(Xa, y[tr], Xb, y[te], [Cs[ci]])
        jj = min(j, sizes.size - 1)
        e = errs[0, ::-1][jj]
        return dict(C=Cs[ci], size=int(sizes[::-1][jj]), errors=int(e), inner_loss=float(loss),
                    inner_size=int(ref_sizes[j]))
    if method == "L0":
        C = g["l0_C"]
        acc = {}
        for a, b in inner:
            Xa, Xb = _svm_data(dataset, a, b)
            sizes, errs, _ = _l0_errors(Xa, y[a], Xb, y[b], C)
            for l, e in zip(sizes, errs):
                acc.setdefault(l, []).append(e)
        # a size counts only if every inner fold visited it (the converged sizes differ between folds)
        full_sizes = {l: sum(v) for l, v in acc.items() if len(v) == len(inner)}
        l_best = min(full_sizes, key=lambda l: (full_sizes[l], l))
        Xa, Xb = _svm_data(dataset, tr, te)
        order, n_active = _arom_order(Xa, y[tr])
        gsel = order[:l_best]
        A, B = Xa[:, gsel], Xb[:, gsel]
        e = _svm_errors(A @ A.T / l_best, y[tr].astype(float), B @ A.T / l_best, y[te], [C])[0]
        return dict(C=C, size=int(l_best), errors=int(e), inner_loss=float(full_sizes[l_best]),
                    n_active=int(n_active))
    raise ValueError(f"unknown SVM method {method!r}")


def _adaboost_fold(dataset, tr, te, inner, g):
    X, y, full, _, _ = _task(dataset)
    rounds = list(g["ada_rounds"])
    T = max(rounds)
    err = np.zeros(len(rounds))
    for a, b in inner:
        est = ST.AdaBoostStumps(n_estimators=T).fit(X[a], y[a], presorted=ST.presort_rows(full, a))
        staged = list(est.staged_predict(X[b]))
        for i, t in enumerate(rounds):
            err[i] += np.sum(staged[min(t, len(staged)) - 1] != y[b])
    i = int(np.argmin(err))
    est = ST.AdaBoostStumps(n_estimators=rounds[i]).fit(X[tr], y[tr], presorted=ST.presort_rows(full, tr))
    return dict(rounds=int(rounds[i]), rounds_fitted=int(est.n_rounds_), errors=int(np.sum(est.predict(X[te]) != y[te])),
                inner_loss=float(err[i]), size=int(np.unique(est.genes_[est.genes_ >= 0]).size))


def cv_cell(dataset: str, method: str, perm: int, fold: int, seed: int = 0, quick: bool = False,
            max_samples: int | None = None) -> dict:
    """One outer fold of the §7 protocol: permutation ``perm`` (of 20) of ``dataset``, outer fold ``fold`` (of 5),
    ``method`` from :data:`METHODS` (or ``"PAC-Bayes-fixed"``). Every parameter is chosen by the inner CV on the
    outer training part; the returned row holds the test errors (counts), the chosen parameters, the size (genes
    or stumps), and for the stump learners the risk bound of the final classifier and its genes."""
    g = GRIDS["quick" if quick else "full"]
    tr, te, inner = _fold(dataset, perm, fold, seed, g["inner_k"], max_samples)
    t0 = time.process_time()
    w0 = time.perf_counter()
    with warnings.catch_warnings(), single_blas_thread():
        warnings.simplefilter("ignore", UserWarning)
        if method in STUMP_METHODS or method == "PAC-Bayes-fixed":
            row = _stumps_fold(method, dataset, tr, te, inner, g)
            row["size"] = row["n_stumps"]
        elif method == "AdaBoost":
            row = _adaboost_fold(dataset, tr, te, inner, g)
        else:
            row = _svm_fold(method, dataset, tr, te, inner, g)
    row["cpu_seconds"] = time.process_time() - t0
    row["wall_seconds"] = time.perf_counter() - w0
    row["n_test"] = int(te.size)
    row["n_train"] = int(tr.size)
    return row


def _fold(dataset, perm, fold, seed, inner_k, max_samples=None):
    """(train, test, inner folds) of outer fold ``fold`` of permutation ``perm`` (indices into the data set)."""
    _, y, _, _, _ = _task(dataset)
    base = _subsample(dataset, max_samples, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        tr, te, inner = nested_cv(y[base], 5, inner_k, seed, repeat=perm)[fold]
    return base[tr], base[te], [(base[a], base[b]) for a, b in inner]


def protocol_cells(datasets, methods, n_perm, seed=0, quick=False, max_samples=None):
    """The cells of Tables 1-2: every (data set, method, permutation, outer fold)."""
    return [dict(dataset=d, method=m, perm=int(p), fold=int(f), seed=int(seed), quick=bool(quick),
                 max_samples=max_samples)
            for d in datasets for m in methods for p in range(int(n_perm)) for f in range(5)]


def table3_fixed_cell(dataset: str, fold: int, seed: int = 0, quick: bool = False) -> dict:
    """Table 3's fixed-margin heuristic (§6.2.2) on one outer fold of permutation 0."""
    return cv_cell(dataset, "PAC-Bayes-fixed", 0, fold, seed, quick)


def mnist_cell(dataset: str, method: str, fold: int, seed: int = 0, quick: bool = False,
               max_samples: int | None = None) -> dict:
    """Table 4: one outer fold of a single nested 5-fold CV on an MNIST pair (SVM+rfe, L0 or PAC-Bayes)."""
    return cv_cell(dataset, method, 0, fold, seed, quick, max_samples)


def final_cell(dataset: str, seed: int = 0, quick: bool = False) -> dict:
    """Table 5: the *final* PAC-Bayes classifier: parameters by 5-fold CV on the whole data set, then trained on
    all of it. Returns its stumps (gene index, probe ID, symbol, interval, direction), bound and training risk."""
    g = GRIDS["quick" if quick else "full"]
    X, y, full, classes, ids = _task(dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        inner = [(a, b) for a, b in stratified_kfold(y, g["inner_k"], seed, repeat=999)]
    model, p, e, s, _ = _select_stumps("PAC-Bayes", dataset, inner, g)
    row = dict(model=model, p=p, param2=e, max_stumps=s)
    est = _estimator("PAC-Bayes", model, p, e, s, _feature_range(dataset))
    est.fit(X, y, presorted=full)
    ds = load_dataset(dataset)
    syms = gene_symbols(ds)
    genes = [int(q[0]) for q in est.stumps_]
    labels = gene_labels(ds, genes, symbols=syms)
    pc = classes[1] if est.positive_class_ > 0 else classes[0]  # y is coded -1/+1: report the class name
    return dict(model=row["model"], p=row["p"], eta=row["param2"], n_stumps=int(est.n_stumps_),
                bound=float(est.bound_), train_gibbs_risk=float(est.gibbs_risk_), positive_class=str(pc),
                genes=genes, probe_ids=[str(ids[i]) for i in genes], symbols=[str(syms[i]) for i in genes],
                labels=labels, intervals=[[float(q[1][0]), float(q[1][1])] for q in est.stumps_],
                directions=[int(q[2]) for q in est.stumps_])


# ----------------------------------------------------------------------------------------------------------------
# summaries
# ----------------------------------------------------------------------------------------------------------------


def _mode(values):
    v = pd.Series(values).dropna()
    if v.empty:
        return np.nan
    counts = v.value_counts()
    top = counts[counts == counts.max()].index
    return min(top)


def summarise_cv(res: pd.DataFrame) -> pd.DataFrame:
    """Per (data set, method): errors as the paper reports them — the total test errors of each permutation's
    5-fold CV, mean and sd over permutations — plus the mean and sd of the size (genes or stumps), its most
    frequent value over all folds, and for PAC-Bayes the Gibbs errors and the mean bound (as a rate)."""
    rows = []
    for (d, m), g in res.groupby(["dataset", "method"], sort=False):
        per = g.groupby("perm").agg(errors=("errors", "sum"), n=("n_test", "sum"))
        row = dict(dataset=d, method=m, n_perm=int(per.shape[0]), n_samples=int(per["n"].iloc[0]),
                   errors=float(per["errors"].mean()), errors_sd=float(per["errors"].std(ddof=1))
                   if per.shape[0] > 1 else np.nan, size_mean=float(g["size"].mean()),
                   size_sd=float(g["size"].std(ddof=1)) if len(g) > 1 else np.nan, size_mode=_mode(g["size"]),
                   cpu_seconds=float(g["cpu_seconds"].sum()))
        if "gibbs_errors" in g and g["gibbs_errors"].notna().any():
            pg = g.groupby("perm")["gibbs_errors"].sum()
            row["gibbs_errors"] = float(pg.mean())
            row["gibbs_errors_sd"] = float(pg.std(ddof=1)) if pg.size > 1 else np.nan
        if "bound" in g and g["bound"].notna().any():
            row["bound"] = float(g["bound"].mean())
            row["bound_sd"] = float(g["bound"].std(ddof=1)) if len(g) > 1 else np.nan
        if "rounds" in g and g["rounds"].notna().any():
            row["rounds_mode"] = _mode(g["rounds"])
        rows.append(row)
    return pd.DataFrame(rows)


def _fmt(mean, sd, digits=1):
    if mean is None or not np.isfinite(mean):
        return "–"
    return f"{mean:.{digits}f} ± {sd:.{digits}f}" if sd is not None and np.isfinite(sd) else f"{mean:.{digits}f}"


def _paper_name(dataset):
    inv = {v: k for k, v in {**PAPER_DATASETS, **MNIST_PAIRS}.items()}
    return inv.get(dataset, dataset)


def table1(summary: pd.DataFrame) -> pd.DataFrame:
    """Table 1 (baselines), ours beside the paper's: errors (counts, mean ± sd over permutations) and the most
    frequent size / number of boosting rounds."""
    pap = paper_table1().set_index("dataset")
    rows = []
    for d, g in summary.groupby("dataset", sort=False):
        s = g.set_index("method")
        name = _paper_name(d)
        r = {"data set": name, "samples": int(s["n_samples"].iloc[0])}
        for m, S in (("SVM", None), ("SVM+gs", "size_mode"), ("SVM+rfe", "size_mode"), ("AdaBoost", "rounds_mode"),
                     ("L0", "size_mode")):
            if m in s.index:
                r[f"{m} errors"] = _fmt(s.loc[m, "errors"], s.loc[m, "errors_sd"])
                if S:
                    r[f"{m} {'rounds' if m == 'AdaBoost' else 'genes'}"] = s.loc[m, S]
            if name in pap.index:
                r[f"{m} errors (paper)"] = pap.loc[name, m]
        rows.append(r)
    return pd.DataFrame(rows)


def table2(summary: pd.DataFrame) -> pd.DataFrame:
    """Table 2 (stump learners), ours beside the paper's."""
    pap = paper_table2().set_index("dataset")
    rows = []
    for d, g in summary.groupby("dataset", sort=False):
        s = g.set_index("method")
        name = _paper_name(d)
        r = {"data set": name, "samples": int(s["n_samples"].iloc[0])}
        for m in ("Occam", "SC"):
            if m in s.index:
                r[f"{m} errors"] = _fmt(s.loc[m, "errors"], s.loc[m, "errors_sd"])
                r[f"{m} stumps"] = _fmt(s.loc[m, "size_mean"], s.loc[m, "size_sd"], 2)
            if name in pap.index:
                r[f"{m} errors (paper)"] = pap.loc[name, m]
                r[f"{m} stumps (paper)"] = pap.loc[name, f"{m} S"]
        if "PAC-Bayes" in s.index:
            q = s.loc["PAC-Bayes"]
            r["PAC-Bayes stumps"] = _fmt(q["size_mean"], q["size_sd"], 2)
            r["PAC-Bayes Gibbs errors"] = _fmt(q.get("gibbs_errors", np.nan), q.get("gibbs_errors_sd", np.nan))
            r["PAC-Bayes Bayes errors"] = _fmt(q["errors"], q["errors_sd"])
        if name in pap.index:
            r["PAC-Bayes stumps (paper)"] = pap.loc[name, "PAC-Bayes S"]
            r["PAC-Bayes Gibbs errors (paper)"] = pap.loc[name, "PAC-Bayes G-errs"]
            r["PAC-Bayes Bayes errors (paper)"] = pap.loc[name, "PAC-Bayes B-errs"]
        rows.append(r)
    return pd.DataFrame(rows)


def table3(variable: pd.DataFrame, fixed: pd.DataFrame, n_total: dict) -> pd.DataFrame:
    """Table 3 for one permutation: size (mean over folds, rounded), errors (total over the 5 test folds) and the
    bound (the mean over folds of Theorem 5's bound of the final classifier, times the data set's size), fixed vs
    variable margin, beside the paper's."""
    pap = paper_table3().set_index("dataset")
    rows = []
    for d in variable["dataset"].unique():
        v = variable[(variable["dataset"] == d) & (variable["perm"] == 0)]
        f = fixed[fixed["dataset"] == d]
        name = _paper_name(d)
        m = n_total[d]
        r = {"data set": name, "samples": m,
             "fixed size": int(round(f["size"].mean())) if len(f) else np.nan,
             "fixed errors": int(f["errors"].sum()) if len(f) else np.nan,
             "fixed bound": int(round(f["bound"].mean() * m)) if len(f) else np.nan,
             "variable size": int(round(v["size"].mean())),
             "variable Gibbs errors": round(float(v["gibbs_errors"].sum()), 1),
             "variable Bayes errors": int(v["errors"].sum()),
             "variable bound": int(round(v["bound"].mean() * m))}
        if name in pap.index:
            for k, pk in (("fixed size", "fixed size"), ("fixed errors", "fixed errors"), ("fixed bound", "fixed bound"),
                          ("variable size", "variable size"), ("variable Gibbs errors", "variable G-errs"),
                          ("variable Bayes errors", "variable B-errs"), ("variable bound", "variable bound")):
                r[k + " (paper)"] = pap.loc[name, pk]
        rows.append(r)
    return pd.DataFrame(rows)


def table4(res: pd.DataFrame) -> pd.DataFrame:
    """Table 4: MNIST pairs, error rates (fractions) of one nested 5-fold CV, sizes, PAC-Bayes bound."""
    pap = paper_table4().set_index("dataset")
    rows = []
    for d, g in res.groupby("dataset", sort=False):
        name = _paper_name(d)
        n = int(g[g["method"] == g["method"].iloc[0]]["n_test"].sum())
        r = {"pair": name, "samples": n}
        for m in ("SVM+rfe", "L0", "PAC-Bayes"):
            q = g[g["method"] == m]
            if not len(q):
                continue
            r[f"{m} error"] = round(float(q["errors"].sum()) / n, 4)
            r[f"{m} size"] = _mode(q["size"]) if m != "PAC-Bayes" else round(float(q["size"].mean()), 1)
            if m == "PAC-Bayes":
                r["PAC-Bayes Gibbs error"] = round(float(q["gibbs_errors"].sum()) / n, 4)
                r["PAC-Bayes bound"] = round(float(q["bound"].mean()), 3)
        if name in pap.index:
            p = pap.loc[name]
            r.update({"paper samples": int(p["ex"]), "SVM+rfe error (paper)": p["SVM-rfe"],
                      "L0 error (paper)": p["L0"], "PAC-Bayes error (paper)": p["PAC-Bayes B-errs"],
                      "PAC-Bayes bound (paper)": p["PAC-Bayes bound"], "PAC-Bayes stumps (paper)": p["PAC-Bayes S"]})
        rows.append(r)
    return pd.DataFrame(rows)


def table5(finals: pd.DataFrame) -> pd.DataFrame:
    """Table 5: genes of the final PAC-Bayes classifiers (probe ID, symbol, interval, direction) beside the
    paper's, one row per stump (1-based)."""
    pap = paper_table5()
    rows = []
    for _, f in finals.iterrows():
        name = _paper_name(f["dataset"])
        paper_genes = pap.get(name, [])
        n = max(len(f["genes"]), len(paper_genes))
        for i in range(n):
            r = {"data set": name, "stump": i + 1}
            if i < len(f["genes"]):
                a, b = f["intervals"][i]
                r.update({"probe": f["probe_ids"][i], "symbol": f["symbols"][i] or "–",
                          "margin interval": f"[{a:.4g}, {b:.4g}]",
                          "outputs 1 when": "x above the interval" if f["directions"][i] > 0 else "x below the interval"})
            r["paper's gene"] = paper_genes[i] if i < len(paper_genes) else ""
            rows.append(r)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------------------------------------------

_COLORS = {"SVM": "#7f7f7f", "SVM+gs": "#1f77b4", "SVM+rfe": "#17becf", "AdaBoost": "#9467bd", "L0": "#8c564b",
           "Occam": "#ff7f0e", "SC": "#d62728", "PAC-Bayes": "#2ca02c"}


def plot_bound_vs_error(res: pd.DataFrame, mnist: pd.DataFrame | None = None, title_extra: str = ""):
    """Bars per data set: each stump learner's CV error rate (mean ± sd over outer folds) beside its risk bound
    (mean ± sd of the final classifiers' bounds, Theorem 2, 3 or 5). Returns the figure."""
    import matplotlib.pyplot as plt

    frames = [res[res["method"].isin(STUMP_METHODS)]]
    if mnist is not None and len(mnist):
        frames.append(mnist[mnist["method"] == "PAC-Bayes"])
    df = pd.concat(frames)
    df = df.assign(rate=df["errors"] / df["n_test"])
    dsets = list(dict.fromkeys(df["dataset"]))
    fig, ax = plt.subplots(figsize=(max(10, 1.9 * len(dsets) + 3), 6.5))
    width = 0.13
    for k, m in enumerate(STUMP_METHODS):
        for j, what in enumerate(("rate", "bound")):
            xs, ys, es = [], [], []
            for i, d in enumerate(dsets):
                q = df[(df["dataset"] == d) & (df["method"] == m)]
                if not len(q):
                    continue
                xs.append(i + (2 * k + j - 2.5) * width)
                ys.append(100 * q[what].mean())
                es.append(100 * q[what].std(ddof=1) if len(q) > 1 else 0)
            ax.bar(xs, ys, width, yerr=es, color=_COLORS[m], alpha=1.0 if j == 0 else 0.45,
                   hatch=None if j == 0 else "//", edgecolor="black", linewidth=0.6, capsize=3,
                   label=f"{m}: {'test error (CV)' if j == 0 else 'risk bound'}")
    ax.set_xticks(range(len(dsets)))
    ax.set_xticklabels([_paper_name(d) for d in dsets])
    ax.set_ylabel("error rate / bound (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Risk bound vs cross-validated test error of the stump learners" + title_extra)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=12, frameon=False)
    fig.tight_layout()
    return fig


def plot_sparsity_vs_error(summary: pd.DataFrame, title_extra: str = ""):
    """One panel per data set: mean number of genes (log scale) vs CV error (% of samples, ± sd over
    permutations) for every method; hollow markers: the paper's values (Tables 1-2) where it has them."""
    import matplotlib.pyplot as plt

    p1 = paper_table1().set_index("dataset")
    p2 = paper_table2().set_index("dataset")
    dsets = list(dict.fromkeys(summary["dataset"]))
    ncol = min(3, len(dsets))
    nrow = int(np.ceil(len(dsets) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(max(6.2 * ncol, 9.0), max(4.9 * nrow, 6.0)), squeeze=False)
    handles = {}
    has_paper = False
    for ax, d in zip(axes.flat, dsets):
        g = summary[summary["dataset"] == d]
        n = g["n_samples"].iloc[0]
        name = _paper_name(d)
        for _, r in g.iterrows():
            m = r["method"]
            size = r["size_mean"] if m in STUMP_METHODS or m == "AdaBoost" else r["size_mode"]
            h = ax.errorbar(size, 100 * r["errors"] / n, yerr=100 * (r["errors_sd"] if np.isfinite(r["errors_sd"])
                                                                       else 0) / n,
                            fmt="o", ms=10, color=_COLORS.get(m, "k"), capsize=4, label=m)
            handles[m] = h
            # the paper's point
            pe, ps = np.nan, np.nan
            if name in p1.index and m in ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0"):
                pe = p1.loc[name, f"{m}_mean"]
                ps = {"SVM": p1.loc[name, "genes"], "SVM+gs": p1.loc[name, "SVM+gs S"],
                      "SVM+rfe": p1.loc[name, "SVM+rfe S"], "L0": p1.loc[name, "L0 S"],
                      "AdaBoost": np.nan}[m]
            if name in p2.index and m in STUMP_METHODS:
                key = {"Occam": "Occam", "SC": "SC", "PAC-Bayes": "PAC-Bayes B-errs"}[m]
                pe = p2.loc[name, f"{key}_mean"]
                ps = p2.loc[name, f"{'PAC-Bayes S' if m == 'PAC-Bayes' else m + ' S'}_mean"]
            try:
                ps = float(str(ps).rstrip("*"))
            except ValueError:
                ps = np.nan
            pex = {"Leuk": 72, "Colon": 62, "C_MD": 60, "BreastER": 49, "Lung": 52}.get(name, n)
            if np.isfinite(pe) and np.isfinite(ps):
                ax.plot(ps, 100 * pe / pex, "o", ms=13, mfc="none", mew=2, color=_COLORS.get(m, "k"))
                has_paper = True
        ax.set_xscale("log")
        ax.set_xlabel("genes used (stumps; mean or most frequent)")
        ax.set_ylabel("CV error (% of samples)")
        ax.set_title(name)
    for ax in list(axes.flat)[len(dsets):]:
        ax.axis("off")
    if has_paper:
        handles["the paper's value (hollow)"] = axes.flat[0].plot([], [], "o", ms=13, mfc="none", mew=2,
                                                                  color="k")[0]
    fig.legend(list(handles.values()), list(handles.keys()), loc="center left", bbox_to_anchor=(1.0, 0.5),
               frameon=False, fontsize=13)
    fig.suptitle("Sparsity vs error: every method on every data set" + title_extra)
    fig.tight_layout()
    return fig


def plot_two_stumps(dataset: str, final: dict, title_extra: str = ""):
    """The samples of ``dataset`` on the two genes of a two-stump PAC-Bayes classifier, with each stump's margin
    interval (shaded; the threshold is uniform on it) and the region the conjunction assigns to the positive
    class (Bayes classifier, Π σ > 1/2)."""
    import matplotlib.pyplot as plt

    X, y, _, classes, _ = _task(dataset)
    g1, g2 = final["genes"][:2]
    (a1, b1), (a2, b2) = final["intervals"][:2]
    d1, d2 = final["directions"][:2]
    x1, x2 = X[:, g1], X[:, g2]
    fig, ax = plt.subplots(figsize=(10, 8.5))
    logs = []
    lims = []
    for x, (a, b) in ((x1, (a1, b1)), (x2, (a2, b2))):
        lg = bool(x.min() > 0 and x.max() / x.min() > 100)  # raw intensities: a log axis shows them
        logs.append(lg)
        if lg:
            lo, hi = min(x.min(), a) / 1.2, max(x.max(), b) * 1.2
        else:
            pad = 0.05 * (max(x.max(), b) - min(x.min(), a))
            lo, hi = min(x.min(), a) - pad, max(x.max(), b) + pad
        lims.append((lo, hi))
    (lo1, hi1), (lo2, hi2) = lims
    axis1 = np.geomspace(lo1, hi1, 400) if logs[0] else np.linspace(lo1, hi1, 400)
    axis2 = np.geomspace(lo2, hi2, 400) if logs[1] else np.linspace(lo2, hi2, 400)
    gx, gy = np.meshgrid(axis1, axis2)
    s1 = np.clip((gx - a1) / (b1 - a1), 0, 1)
    s1 = s1 if d1 > 0 else 1 - s1
    s2 = np.clip((gy - a2) / (b2 - a2), 0, 1)
    s2 = s2 if d2 > 0 else 1 - s2
    prob = s1 * s2
    ax.contourf(gx, gy, prob, levels=[0.5, 1.01], colors=["#b7e4b7"], alpha=0.6)
    ax.contour(gx, gy, prob, levels=[0.5], colors=["#2ca02c"], linewidths=2)
    ax.axvspan(a1, b1, color="#ffbf80", alpha=0.35)
    ax.axhspan(a2, b2, color="#ffbf80", alpha=0.35)
    pc = final["positive_class"]
    pos = np.asarray([classes[1] if v > 0 else classes[0] for v in y]) == pc
    ax.scatter(x1[pos], x2[pos], s=70, marker="o", color="#2ca02c", edgecolor="k", label=f"{pc} (positive class)")
    neg_name = classes[0] if pc == classes[1] else classes[1]
    ax.scatter(x1[~pos], x2[~pos], s=70, marker="s", color="#d62728", edgecolor="k", label=neg_name)
    ax.plot([], [], color="#2ca02c", lw=2, label="Bayes boundary (product of sigmas = 1/2)")
    ax.fill_between([], [], color="#ffbf80", alpha=0.35, label="margin intervals [a, b]")
    labs = final["labels"][:2]
    unit = "pixel intensity" if dataset.startswith("mnist_") else "expression"
    ax.set_xlabel(f"{labs[0]}: {unit}" + (" (log scale)" if logs[0] else ""))
    ax.set_ylabel(f"{labs[1]}: {unit}" + (" (log scale)" if logs[1] else ""))
    if logs[0]:
        ax.set_xscale("log")
    if logs[1]:
        ax.set_yscale("log")
    ax.set_xlim(lo1, hi1)
    ax.set_ylim(lo2, hi2)
    model = "conjunction" if final.get("model", "conjunction") == "conjunction" else "disjunction"
    ax.set_title(f"{_paper_name(dataset)}: a two-stump PAC-Bayes {model}" + title_extra)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False, fontsize=12)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------------------------------------------
# notebook helpers: data set table, the two-stump classifier, cost, paper vs genesel
# ----------------------------------------------------------------------------------------------------------------


def datasets_table(datasets) -> pd.DataFrame:
    """The data sets that will run: paper name, genesel name, samples, genes, classes (negative / positive in
    a conjunction), and how the copy differs from the paper's."""
    rows = []
    for d in datasets:
        X, y, _, classes, _ = _task(d)
        rows.append({"paper name": _paper_name(d), "genesel data set": d, "samples": int(X.shape[0]),
                     "genes": int(X.shape[1]), "classes (-1 / +1)": f"{classes[0]} ({int(np.sum(y < 0))}) / "
                     f"{classes[1]} ({int(np.sum(y > 0))})", "difference from the paper": dataset_note(d)})
    return pd.DataFrame(rows)


def missing_table() -> pd.DataFrame:
    return pd.DataFrame([{"paper data set": k, "why it is missing": v} for k, v in MISSING_DATASETS.items()])


def two_stump_classifier(dataset: str, final: dict) -> dict:
    """A two-stump PAC-Bayes conjunction on ``dataset`` for the figure: the final classifier itself when it has two
    stumps or more (its first two are the greedy's two-stump classifier), otherwise the greedy with the final
    parameters stopped at two stumps."""
    if final["n_stumps"] >= 2:
        return final
    X, y, full, classes, ids = _task(dataset)
    est = _estimator("PAC-Bayes", final["model"], final["p"], final["eta"], 2, _feature_range(dataset))
    est.fit(X, y, presorted=full)
    ds = load_dataset(dataset)
    genes = [int(q[0]) for q in est.stumps_]
    out = dict(final)
    out.update(n_stumps=int(est.n_stumps_), genes=genes, labels=gene_labels(ds, genes),
               intervals=[[float(q[1][0]), float(q[1][1])] for q in est.stumps_],
               directions=[int(q[2]) for q in est.stumps_],
               positive_class=str(classes[1] if est.positive_class_ > 0 else classes[0]))
    return out


def cost_table(res: pd.DataFrame) -> pd.DataFrame:
    """CPU seconds per method and data set (sum over the outer folds) and per outer fold."""
    g = res.groupby(["method", "dataset"])["cpu_seconds"]
    out = pd.DataFrame({"CPU seconds (all folds)": g.sum(), "CPU seconds per outer fold": g.mean()}).reset_index()
    out["dataset"] = out["dataset"].map(_paper_name)
    return out.pivot(index="method", columns="dataset", values="CPU seconds (all folds)").round(1)


def paper_vs_rows(summary: pd.DataFrame, t3: pd.DataFrame | None, t4: pd.DataFrame | None, n_perm: int) -> list:
    """Rows for :func:`genesel.experiments.paper_vs_genesel`: every number of Tables 1-4 with a counterpart here."""
    p1 = paper_table1().set_index("dataset")
    p2 = paper_table2().set_index("dataset")
    rows = []
    proto = f"{n_perm} permutation(s) x 5-fold CV, nested 5-fold CV"
    for d, g in summary.groupby("dataset", sort=False):
        name = _paper_name(d)
        s = g.set_index("method")
        note = "" if d != "garber" else "substitute data set (47 x 3171, not 52 x 918)"
        for m in METHODS:
            if m not in s.index:
                continue
            r = s.loc[m]
            ours = _fmt(r["errors"], r["errors_sd"])
            if m in ("SVM", "SVM+gs", "SVM+rfe", "AdaBoost", "L0") and name in p1.index:
                paper = p1.loc[name, m]
                extra = {"SVM+gs": "SVM+gs S", "SVM+rfe": "SVM+rfe S", "L0": "L0 S", "AdaBoost": "AdaBoost itrs"}
                if m in extra:
                    size = r["rounds_mode"] if m == "AdaBoost" else r["size_mode"]
                    paper += f" ({'rounds' if m == 'AdaBoost' else 'genes'} {p1.loc[name, extra[m]]})"
                    ours += f" ({'rounds' if m == 'AdaBoost' else 'genes'} {int(size)})"
                rows.append(dict(quantity=f"{name}: {m} errors", protocol=proto, paper=paper, genesel=ours, note=note))
            if m in STUMP_METHODS and name in p2.index:
                key = {"Occam": ("Occam", "Occam S"), "SC": ("SC", "SC S"),
                       "PAC-Bayes": ("PAC-Bayes B-errs", "PAC-Bayes S")}[m]
                paper = f"{p2.loc[name, key[0]]} ({p2.loc[name, key[1]]} stumps)"
                ours += f" ({r['size_mean']:.2f} ± {r['size_sd']:.2f} stumps)" if np.isfinite(r["size_sd"]) else ""
                label = "Bayes errors" if m == "PAC-Bayes" else "errors"
                rows.append(dict(quantity=f"{name}: {m} {label}", protocol=proto, paper=paper, genesel=ours,
                                 note=note))
                if m == "PAC-Bayes":
                    rows.append(dict(quantity=f"{name}: PAC-Bayes Gibbs errors", protocol=proto,
                                     paper=p2.loc[name, "PAC-Bayes G-errs"],
                                     genesel=_fmt(r.get("gibbs_errors", np.nan), r.get("gibbs_errors_sd", np.nan)),
                                     note=note))
    if t3 is not None:
        for _, r in t3.iterrows():
            if "variable bound (paper)" in r and pd.notna(r.get("variable bound (paper)")):
                rows.append(dict(quantity=f"{r['data set']}: Table 3 bound, variable / fixed margin (x samples)",
                                 protocol="one permutation", paper=f"{r['variable bound (paper)']} / "
                                 f"{r['fixed bound (paper)']}", genesel=f"{r['variable bound']} / {r['fixed bound']}",
                                 note="bound of the final classifier of each outer fold, mean x samples"))
    if t4 is not None:
        for _, r in t4.iterrows():
            if "PAC-Bayes bound (paper)" in r and pd.notna(r.get("PAC-Bayes bound (paper)")):
                rows.append(dict(quantity=f"{r['pair']}: PAC-Bayes error / bound", protocol="one nested 5-fold CV",
                                 paper=f"{r['PAC-Bayes error (paper)']} / {r['PAC-Bayes bound (paper)']}",
                                 genesel=f"{r['PAC-Bayes error']} / {r['PAC-Bayes bound']}",
                                 note=f"{r['samples']} images here vs {r['paper samples']}"))
                for m in ("SVM+rfe", "L0"):
                    if f"{m} error" in r:
                        rows.append(dict(quantity=f"{r['pair']}: {m} error", protocol="one nested 5-fold CV",
                                         paper=r[f"{m} error (paper)"], genesel=r[f"{m} error"], note=""))
    return rows
