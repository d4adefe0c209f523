"""Shah, Marchand & Corbeil (2012): everything notebook 04 needs that is not an algorithm.

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and Learning from
Microarray Data*, IEEE TPAMI 34(1):174-186, 2012. The learners live in :mod:`genesel.stumps` (Occam's razor,
sample compression, PAC-Bayes, AdaBoost with stumps) and their risk bounds in :mod:`genesel.bounds`; the
baselines in :mod:`genesel.svm`, :mod:`genesel.rfe`, :mod:`genesel.filters` and :mod:`genesel.arom`.

Here: the data sets of §7 (which ones exist, which are missing and why, the paper's names for them), the paper's
Tables 1-5 as printed, the protocol of §7 as grid cells for :func:`genesel.experiments.run_grid` (20 random
permutations x 5-fold CV, every parameter chosen by a nested 5-fold CV on the training folds only: p, the margin
parameters, C, subset sizes, boosting rounds), the single-run Table 3 (fixed vs variable margin, with the bound),
the MNIST pairs of Table 4 and the final PAC-Bayes classifiers of Table 5. The summaries (errors as counts ± sd over
the permutations, most frequent sizes), tables and figures are in :mod:`genesel.papers.shah2012_report` (kept
apart so that editing them never invalidates a cached cell). Every learner is used through its public API: the
stump learners' ``path_losses`` for the inner CV, ``KernelSVM(kernel="precomputed")`` for the SVMs on the Gram
matrices the protocol builds.

Preprocessing. The stump learners see the data as published (a stump is invariant to any increasing transform of
its gene except through the margin and bit terms); MNIST pixels have the a priori range [0, 1]. The SVM-based
baselines see the data set's usual preprocessing (log of raw intensities where needed, per-gene z-scores),
fitted on the training part of each fold, then scaled by 1/sqrt(#genes) so that one C grid fits every subset size.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from genesel import stumps as ST
from genesel.dataref import cached_by_content
from genesel.datasets import gene_labels, gene_symbols, recommended_preprocessing
from genesel.experiments import nested_cv, single_blas_thread, stratified_kfold
from genesel.filters import SignalToNoiseSelector
from genesel.papers.common import is_user_file, load_task
from genesel.rfe import SVMRFE
from genesel.svm import KernelSVM

__all__ = ["PAPER_DATASETS", "MISSING_DATASETS", "MNIST_PAIRS", "METHODS", "STUMP_METHODS", "GRIDS",
           "paper_table1", "paper_table2", "paper_table3", "paper_table4", "paper_table5", "dataset_note",
           "protocol_cells", "table3_cells", "mnist_cells", "final_cells", "cv_cell",
           "table3_fixed_cell", "mnist_cell", "final_cell", "two_stump_classifier"]

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


@cached_by_content(maxsize=8)
def _task(dataset: str):
    """(X, y in {-1,+1}, presort of X, classes, gene ids) of a data set (:func:`genesel.papers.common.load_task`),
    with the stump learners' presort, cached per process.

    A researcher's file of counts is taken as counts per million of each sample's library (each sample on its own,
    so nothing crosses a split): a stump's threshold reads one gene's order over the samples, which a per-gene log
    does not change but a sample's sequencing depth does. TMM's factors need a training reference, which one
    presort of all samples cannot refit per split; raw intensities and log values are used as they are (a log
    leaves every stump the same)."""
    ds = load_task(dataset)
    X = np.ascontiguousarray(ds.X, dtype=np.float64)
    if ds.scale == "counts" and is_user_file(dataset):
        from genesel.preprocessing import CountNormalizer

        X = np.ascontiguousarray(CountNormalizer(method="cpm", log=False).fit_transform(X))
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


def _stump_grid(method, g):
    """The inner CV's settings of a stump learner: (p, eta) pairs (eta: gamma for the fixed margin, 0 for SC)."""
    if method == "SC":
        return [(p, 0.0) for p in g["p"]]
    if method == "Occam":
        return [(p, e) for p in g["p"] for e in g["eta_occam"]]
    if method in ("PAC-Bayes", "PAC-Bayes-fixed"):
        etas = g["eta_pb"] if method == "PAC-Bayes" else g["gamma_fixed"]
        return [(p, e) for p in g["p"] for e in etas]
    raise ValueError(f"not a stump method: {method!r}")


def _setting(method, p, e):
    """One setting of :func:`_stump_grid` as the parameters of the learner's ``path_losses``."""
    if method == "SC":
        return {"p": p}
    return {"p": p, ("gamma" if method == "PAC-Bayes-fixed" else "eta"): e}


def _estimator(method, model, p, e, s, frange):
    if method == "SC":
        return ST.SampleCompressionStumps(p=p, max_stumps=s, model=model)
    if method == "Occam":
        return ST.OccamStumps(p=p, eta=e, max_stumps=s, model=model, feature_range=frange)
    if method == "PAC-Bayes":
        return ST.PACBayesStumps(p=p, eta=e, max_stumps=s, model=model, feature_range=frange)
    return ST.PACBayesStumps(p=p, eta=0.01, max_stumps=s, model=model, margin="fixed", gamma=e,
                             feature_range=frange)


def _select_stumps(method, dataset, inner, g):
    """Inner CV over (model, p, eta or gamma, number of stumps): (model, p, second parameter, stumps, loss). The
    loss of a setting is its validation loss summed over the inner folds (``path_losses``: errors, or for PAC-Bayes
    the expected Gibbs errors)."""
    X, y, full, classes, _ = _task(dataset)
    frange = _feature_range(dataset)
    grid = _stump_grid(method, g)
    settings = [_setting(method, p, e) for p, e in grid]
    S = g["max_stumps"]
    models = g["models"]
    loss = np.zeros((len(models), len(grid), S))
    for a, b in inner:
        pre = ST.presort_rows(full, a)
        for mi, model in enumerate(models):
            est = _estimator(method, model, *grid[0], S, frange)  # p and eta / gamma come from the settings
            loss[mi] += est.path_losses(X[a], y[a], X[b], y[b], settings, presorted=pre)
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
    row = dict(model=model, p=float(p), param2=float(e), max_stumps=int(s + 1), inner_loss=float(best_loss),
               n_stumps=int(est.n_stumps_), bound=float(est.bound_), n_train=int(tr.size), n_test=int(te.size),
               genes=[int(q[0]) for q in est.stumps_])
    if method in ("PAC-Bayes", "PAC-Bayes-fixed"):
        row["gibbs_errors"] = float(np.sum(est.gibbs_losses(X[te], y[te])))
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
    """Validation errors of the linear SVM on Gram K (train) / Kva (validation x train), one per C, each fitted from
    scratch by ``KernelSVM(kernel="precomputed")`` on exactly these matrices."""
    out = []
    for C in Cs:
        svm = KernelSVM(kernel="precomputed", C=C, tol=1e-5).fit(K, ytr)
        out.append(int(np.sum(svm.predict(Kva) != yva)))
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
        errs[i] = _svm_errors(K / l, ya, Kv / l, yb, Cs)
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
        rfe = SVMRFE(n_features_to_select=1, step="halving", C=C, tol=1e-5).fit(Xa[:, keep] * s, ya)
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
        errs.append(_svm_errors(A @ A.T / l, ya, B @ A.T / l, yb, [C])[0])
    return sizes, np.asarray(errs), n_active


def _svm_fold(method, dataset, tr, te, inner, g):
    X, y, _, _, _ = _task(dataset)
    Cs = list(g["C"])
    if method == "SVM":
        err = np.zeros(len(Cs))
        for a, b in inner:
            Xa, Xb = _svm_data(dataset, a, b)
            d = Xa.shape[1]
            err += _svm_errors(Xa @ Xa.T / d, y[a], Xb @ Xa.T / d, y[b], Cs)
        ci = int(np.argmin(err))
        Xa, Xb = _svm_data(dataset, tr, te)
        d = Xa.shape[1]
        e = _svm_errors(Xa @ Xa.T / d, y[tr], Xb @ Xa.T / d, y[te], [Cs[ci]])[0]
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
        e = _svm_errors(A @ A.T / l_best, y[tr], B @ A.T / l_best, y[te], [C])[0]
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
    return dict(rounds=int(rounds[i]), rounds_fitted=int(est.n_rounds_),
                errors=int(np.sum(est.predict(X[te]) != y[te])),
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
        try:
            if method in STUMP_METHODS or method == "PAC-Bayes-fixed":
                row = _stumps_fold(method, dataset, tr, te, inner, g)
                row["size"] = row["n_stumps"]
            elif method == "AdaBoost":
                row = _adaboost_fold(dataset, tr, te, inner, g)
            else:
                row = _svm_fold(method, dataset, tr, te, inner, g)
        except ValueError as exc:
            row = _not_applicable(method, dataset, tr, inner, exc)
    row["cpu_seconds"] = time.process_time() - t0
    row["wall_seconds"] = time.perf_counter() - w0
    row["n_test"] = int(te.size)
    row["n_train"] = int(tr.size)
    return row


#: A study whose smallest class has fewer samples in an inner training part is small (a user's file: the paper's
#: sets are far larger): a method that refuses such a part (Golub's signal-to-noise needs a spread, so 2 samples, of
#: each class) is shown as not applicable on that fold, with its own message, where it would stop the whole run.
SMALL_PART = 3


def _not_applicable(method, dataset, tr, inner, exc) -> dict:
    """The row of a fold ``method`` cannot be fitted on because a training part of it is too small (its smallest
    class under :data:`SMALL_PART` samples); any other error is raised."""
    y = _task(dataset)[1]
    small = min(int(np.unique(y[part], return_counts=True)[1].min()) for part in [tr, *(a for a, _ in inner)])
    if small >= SMALL_PART:
        raise exc
    return dict(errors=np.nan, size=np.nan, not_applicable=f"{method} cannot be fitted where a class has {small} "
                                                           f"sample(s) in a training part (outer or inner): {exc}")


def _fold(dataset, perm, fold, seed, inner_k, max_samples=None):
    """(train, test, inner folds) of outer fold ``fold`` of permutation ``perm`` (indices into the data set)."""
    _, y, _, _, _ = _task(dataset)
    base = _subsample(dataset, max_samples, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        groups = load_task(dataset).groups
        tr, te, inner = nested_cv(y[base], 5, inner_k, seed, repeat=perm,
                                  groups=None if groups is None else groups[base])[fold]
    return base[tr], base[te], [(base[a], base[b]) for a, b in inner]


def protocol_cells(datasets, methods, n_perm, seed=0, quick=False, max_samples=None):
    """The cells of Tables 1-2: every (data set, method, permutation, outer fold)."""
    return [dict(dataset=d, method=m, perm=int(p), fold=int(f), seed=int(seed), quick=bool(quick),
                 max_samples=max_samples)
            for d in datasets for m in methods for p in range(int(n_perm)) for f in range(5)]


def table3_cells(datasets, seed=0, quick=False):
    """The cells of Table 3's fixed margin: every (data set, outer fold) of permutation 0."""
    return [dict(dataset=d, fold=f, seed=seed, quick=quick) for d in datasets for f in range(5)]


def mnist_cells(pairs, methods, seed=0, quick=False, max_samples=None):
    """The cells of Table 4: every (MNIST pair, method of SVM+rfe, L0 and PAC-Bayes among ``methods``, outer
    fold)."""
    return [dict(dataset=d, method=m, fold=f, seed=seed, quick=quick, max_samples=max_samples)
            for d in pairs for m in ("SVM+rfe", "L0", "PAC-Bayes") if m in methods for f in range(5)]


def final_cells(datasets, seed=0, quick=False):
    """The cells of Table 5: one final PAC-Bayes classifier per data set."""
    return [dict(dataset=d, seed=seed, quick=quick) for d in datasets]


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
        inner = [(a, b) for a, b in stratified_kfold(y, g["inner_k"], seed, repeat=999,
                                                       groups=load_task(dataset).groups)]
    model, p, e, s, _ = _select_stumps("PAC-Bayes", dataset, inner, g)
    row = dict(model=model, p=p, param2=e, max_stumps=s)
    est = _estimator("PAC-Bayes", model, p, e, s, _feature_range(dataset))
    est.fit(X, y, presorted=full)
    ds = load_task(dataset)
    syms = gene_symbols(ds)
    genes = [int(q[0]) for q in est.stumps_]
    labels = gene_labels(ds, genes, symbols=syms)
    pc = classes[1] if est.positive_class_ > 0 else classes[0]  # y is coded -1/+1: report the class name
    return dict(model=row["model"], p=row["p"], eta=row["param2"], n_stumps=int(est.n_stumps_),
                bound=float(est.bound_), train_gibbs_risk=float(est.gibbs_risk_), positive_class=str(pc),
                genes=genes, probe_ids=[str(ids[i]) for i in genes], symbols=[str(syms[i]) for i in genes],
                labels=labels, intervals=[[float(q[1][0]), float(q[1][1])] for q in est.stumps_],
                directions=[int(q[2]) for q in est.stumps_])


def two_stump_classifier(dataset: str, final: dict) -> dict:
    """A two-stump PAC-Bayes conjunction on ``dataset`` for the figure: the final classifier itself when it has two
    stumps or more (its first two are the greedy's two-stump classifier), otherwise the greedy with the final
    parameters stopped at two stumps."""
    if final["n_stumps"] >= 2:
        return final
    X, y, full, classes, ids = _task(dataset)
    est = _estimator("PAC-Bayes", final["model"], final["p"], final["eta"], 2, _feature_range(dataset))
    est.fit(X, y, presorted=full)
    ds = load_task(dataset)
    genes = [int(q[0]) for q in est.stumps_]
    out = dict(final)
    out.update(n_stumps=int(est.n_stumps_), genes=genes, labels=gene_labels(ds, genes),
               intervals=[[float(q[1][0]), float(q[1][1])] for q in est.stumps_],
               directions=[int(q[2]) for q in est.stumps_],
               positive_class=str(classes[1] if est.positive_class_ > 0 else classes[0]))
    return out
