"""Gentile (2003): everything notebook 02 needs that is not an algorithm (Table 1's protocol, cells and numbers).

C. Gentile, *Fast Feature Selection from Microarray Expression Data via Multiplicative Large Margin Algorithms*,
NIPS 16, 2003. The algorithms (ALMA_p, ALMA-FS, ALMA_ln-RFE, ALMA_2-RFE, the CORR pipelines) live in
:mod:`genesel.alma`, the Golub "CORR" ranking in :mod:`genesel.filters`. Here: the Table 1 protocol per data set,
one grid cell per (data set, split, alpha) that computes every Table 1 entry of that split while sharing the
identical ALMA runs between algorithms, the paper's own (partly garbled) Table 1, and the summaries the notebook
shows; the summaries (best alpha per cell, Wilcoxon signed-rank tests on shared splits, gene selection
frequencies), tables and figures are in :mod:`genesel.papers.gentile2003_report` (kept apart so that editing them
never invalidates a cached cell).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from sklearn.preprocessing import LabelBinarizer

from genesel import alma as A
from genesel.datasets import display_name
from genesel.experiments import permuted_training_orders, random_splits
from genesel.filters import balanced_order, signal_to_noise
from genesel.papers.common import is_user_file, load_task

__all__ = ["TABLE1_ALGORITHMS", "TABLE1_PROTOCOL", "table1_split", "table1_cell", "paper_table1", "paper_name",
           "notebook_protocol", "table1_cells"]

# ----------------------------------------------------------------------------------------------------------------
# Table 1 of the paper: one (data set, split, alpha) cell, all five algorithms, all gene counts
# ----------------------------------------------------------------------------------------------------------------

#: The five algorithms of Table 1 (column names as printed in the paper).
TABLE1_ALGORITHMS = ("2-RFE", "2-CORR", "ln-RFE", "FS", "ln-CORR")

#: Table 1 protocol per data set: (genesel data set, n_train or None for the predefined split, cycles).
TABLE1_PROTOCOL = {
    "Leukemia": ("golub", None, 100),
    "Colon": ("alon", 50, 50),
    "Breast": ("west", 40, 50),
    "Prostate": ("singh", 101, 100),
    "Lymphoma": ("alizadeh", 60, 50),
}


def _test_errors(X_te, y_te, F, w, p):
    if y_te.size == 0:
        return 0
    d = A.decision_values(X_te[:, F], w, p)
    pred = np.where(d >= 0, 1, -1)
    return int(np.sum(pred != y_te))


def table1_split(X_train, y_train, X_test, y_test, *, alpha, n_cycles, gene_counts=(20, 40, 60, 100, 200),
                 shuffle_seed=None, balanced=True):
    """All Table 1 entries for one training/test split and one alpha (Gentile 2003, section 5).

    Runs ALMA-FS; ALMA_ln-RFE and ALMA_2-RFE to each count in ``gene_counts`` and to ALMA-FS's own count;
    ALMA_2-CORR and ALMA_ln-CORR on the same counts; and ALMA_2 / ALMA_ln on all genes. Shares the identical
    runs (ALMA_ln on all genes is ALMA-FS's and ALMA_ln-RFE's first stage, ALMA_2 on all genes is ALMA_2-RFE's;
    the halving paths of different n_f coincide until they branch). The training order is the row order of
    ``X_train`` (``shuffle_seed=None``) or a permutation drawn from ``shuffle_seed``.

    Returns a list of dicts: ``algorithm``, ``genes`` (the row label: a count, ``"FS"`` or ``"all"``),
    ``n_genes`` (genes actually used), ``n_errors``, ``n_test``, ``error``; ALMA-FS's dict also has
    ``selected`` (column indices), ``fs_seconds`` (wall time of the ALMA-FS run) and ``fs_stages``.
    """
    A.warm_up()
    Xtr = np.ascontiguousarray(X_train, dtype=np.float64)
    Xte = np.ascontiguousarray(X_test, dtype=np.float64)
    if np.unique(y_train).size != 2:
        raise ValueError(f"table1_split needs training labels of two classes, got {np.unique(y_train).tolist()}")
    ytr = LabelBinarizer(neg_label=-1).fit_transform(np.asarray(y_train)).ravel()  # the larger label is +1
    yte = np.asarray(y_test).astype(np.int64)
    a = A.check_alpha(alpha)
    cyc = A.check_cycles(n_cycles)
    n = Xtr.shape[1]
    order = A.training_order(Xtr.shape[0], shuffle_seed is not None, shuffle_seed)
    yf = ytr.astype(np.float64)
    rows = []

    def add(alg, genes, F, w, p, **extra):
        ne = _test_errors(Xte, yte, F, w, p)
        rows.append(dict(algorithm=alg, genes=str(genes), n_genes=int(F.size), n_errors=ne, n_test=int(yte.size),
                         error=ne / max(yte.size, 1), **extra))

    # ALMA_ln and ALMA_2 on all genes (shared first stages)
    p_ln = A.resolve_p("ln", n)
    allF = np.arange(n)
    t0 = time.perf_counter()
    first_ln = A.run_alma(Xtr, yf, p_ln, a, cyc, order)
    w_ln = first_ln[0]
    t_first = time.perf_counter() - t0
    w_2 = A.run_alma(Xtr, yf, 2.0, a, cyc, order)[0]

    # ALMA-FS (its first stage is w_ln: rerun cheaply through the shared path)
    t0 = time.perf_counter()
    F_fs, w_fs, p_fs, _, stages, _ = A.elimination_path(Xtr, yf, alpha=a, n_cycles=cyc, order=order, rule="fs",
                                                        p_mode="ln", first=first_ln)
    fs_seconds = time.perf_counter() - t0 + t_first
    n_fs = int(F_fs.size)
    add("FS", "FS", F_fs, w_fs, p_fs, selected=F_fs.tolist(), fs_seconds=fs_seconds, fs_stages=len(stages))

    counts = sorted(set(int(c) for c in gene_counts if c < n))
    targets = sorted(set(counts) | ({n_fs} if n_fs < n else set()))
    tag = {c: ([str(c)] if c in counts else []) + (["FS"] if c == n_fs and n_fs < n else []) for c in targets}

    for alg, p_mode, first in (("ln-RFE", "ln", w_ln), ("2-RFE", 2.0, w_2)):
        res = A.rfe_multi(Xtr, yf, targets, p_mode=p_mode, alpha=a, n_cycles=cyc, order=order, first=first)
        for c in targets:
            F, w, p = res[c]
            for g in tag[c]:
                add(alg, g, F, w, p)
    scores = np.nan_to_num(signal_to_noise(Xtr, ytr), nan=0.0)
    corr_order = balanced_order(scores) if balanced else np.argsort(-np.abs(scores), kind="stable")
    for c in targets:
        F = np.sort(corr_order[:c])
        Xc = np.ascontiguousarray(Xtr[:, F])
        for alg, p_mode in (("2-CORR", 2.0), ("ln-CORR", "ln")):
            p = A.resolve_p(p_mode, c)
            w = A.run_alma(Xc, yf, p, a, cyc, order)[0]
            for g in tag[c]:
                add(alg, g, F, w, p)
    for alg, w, p in (("2-RFE", w_2, 2.0), ("2-CORR", w_2, 2.0), ("ln-RFE", w_ln, p_ln), ("ln-CORR", w_ln, p_ln)):
        add(alg, "all", allF, w, p)
    return rows


def table1_cell(dataset, split, alpha, n_cycles, seed=0, n_train=None, gene_counts=(20, 40, 60, 100, 200)):
    """Grid cell for :func:`genesel.experiments.run_grid`: split number ``split`` of the Table 1 protocol.

    ``n_train=None`` uses the data set's predefined split with a random permutation of the training order
    (Leukemia); otherwise ``random_splits(y, n_train, ., seed)`` (training order random as well). Returns the
    rows of :func:`table1_split`.
    """
    ds = load_task(dataset)
    if n_train is None:
        tr, te = permuted_training_orders(ds.train_idx, ds.test_idx, split + 1, seed)[split]
    else:
        tr, te = random_splits(ds.y, n_train, split + 1, seed, groups=ds.groups)[split]
    X_train, X_test = ds.X[tr], ds.X[te]
    if is_user_file(dataset):  # a researcher's file: its one decision (log, count normalisation), on the training part
        from genesel.datasets import recommended_preprocessing

        scale = recommended_preprocessing(ds, standardize=False).fit(X_train)
        X_train, X_test = scale.transform(X_train), scale.transform(X_test)
    return table1_split(X_train, ds.y[tr], X_test, ds.y[te], alpha=alpha, n_cycles=n_cycles,
                        gene_counts=tuple(gene_counts))


# ----------------------------------------------------------------------------------------------------------------
# The paper's Table 1, as far as the garbled text allows
# ----------------------------------------------------------------------------------------------------------------

#: Table 1 as extracted from the paper's PDF (lines joined by "|"), verbatim from
#: the text extraction of the paper's PDF, between "# GENES" and the following paragraph.
_PAPER_TABLE1_TEXT = (
    '# GENES|12.7%|—|LEUKEMIA|COLON|CANCER|BREAST|PROSTATE|LYMPHOMA|20|26.5|40|60|100|200|ALL|20|22.6|40|'
    '60|100|200|ALL|20|38.5|40|60|100|200|ALL|20|30.8|40|60|100|200|ALL|20|30.8|40|60|100|200|ALL|9.5%|2-'
    'RFE|5.8%|—|6.7%|8.9%|9.0%|7.2%|3.5%|2-CORR|ln-RFE|FS|5.9%|3.3%|—|—|—|3.0%|5.0%|3.0%|—|4.3%|3.2%|—|2.'
    '5%|4.0%|—|3.0%|3.1%|—|3.5%|—|3.3%|15.4%|— 17.0% 13.1%|—|—|— 15.4% 12.1%|14.4%|— 14.8% 12.0% '
    '14.2%|13.7%|— 14.3% 12.6%|13.9%|— 13.2% 12.4%|— 13.0% 13.3%|13.0%|6.1%|— 11.5% '
    '10.3%|—|—|—|6.5%|9.9%|— 10.7%|7.5%|9.9%|— 10.1%|9.8%|13.1%|— 10.4%|14.6%|— 11.9%|9.6%|15.8%|— 15.8% '
    '10.0%|8.4%|11.5%|7.8%|—|—|—|—|9.5%|8.1%|—|9.4%|10.2%|8.5%|8.1% 10.3%|—|6.9%|9.3% '
    '10.2%|—|8.4%|—|9.8%|9.9%|10.0%|— 10.0% 10.4%|— 10.1%|9.9%|12.6%|—|—|—|10.5%|7.4%|7.9%|9.5%|6.8%|7.4%'
    '|8.2%|6.0%|6.6%|6.3%|5.6%|7.4%|5.5%|7.2%|7.2%|8.1%|—|—|—|—|—|ln-CORR|3.7%|—|3.6%|2.9%|2.9%|4.5%|3.3%'
    '|14.8%|—|14.0%|13.6%|13.1%|13.2%|13.3%|5.5%|—|6.5%|8.5%|10.4%|14.5%|10.0%|10.4%|—|8.0%|7.7%|6.5%|7.2'
    '%|10.4%|12.3%|—|10.2%|9.2%|8.3%|7.7%|5.5%|'
)

_T1_DATASETS = ("Leukemia", "Colon", "Breast", "Prostate", "Lymphoma")
_T1_ROWS = ("20", "FS", "40", "60", "100", "200", "all")


#: Values of the four garbled blocks that can still be read with confidence (see paper_table1's docstring).
_T1_READINGS = {
    # "all" row: ALMA_2 on all genes appears twice (2-RFE = 2-CORR), next to ln-RFE = ln-CORR's "all" value
    ("Colon", "all", "2-RFE"): 13.0, ("Colon", "all", "2-CORR"): 13.0,
    ("Breast", "all", "2-RFE"): 15.8, ("Breast", "all", "2-CORR"): 15.8,
    ("Prostate", "all", "2-RFE"): 10.0, ("Prostate", "all", "2-CORR"): 10.0,
    ("Lymphoma", "all", "2-RFE"): 7.2, ("Lymphoma", "all", "2-CORR"): 7.2,
    # ALMA-FS at its own gene count: the value next to the row's three dashes
    ("Colon", "FS", "FS"): 12.7, ("Breast", "FS", "FS"): 9.5, ("Lymphoma", "FS", "FS"): 8.1,
}


def _pct(tok):
    tok = tok.strip()
    return None if tok in ("—", "") else float(tok.rstrip("%"))


def paper_table1(text=None):
    """Gentile (2003) Table 1 parsed from the extracted text (default: the verbatim copy in this module).

    Returns a DataFrame with ``dataset``, ``genes`` (row label), ``algorithm``, ``paper_error`` (percent; NaN if
    not recoverable or "—" in the paper), ``paper_fs_genes`` (ALMA-FS's average gene count of that data set) and
    ``status``: ``"clean"`` (a column printed in one piece: ln-CORR everywhere, 2-RFE on Leukemia),
    ``"identity"`` (the "all" row of ln-RFE / 2-CORR equals ln-CORR / 2-RFE: the same ALMA run on all genes),
    ``"reading"`` (Leukemia's 2-CORR/ln-RFE/FS block, whose three values per row are in a consistent order except
    for the place of "—"), or ``"garbled"`` (Colon, Breast, Prostate and Lymphoma's 2-RFE, 2-CORR, ln-RFE and FS
    columns: their values are interleaved across rows and columns in the text, and only the set of printed
    numbers is known; it is given in ``garbled_values``, pooled over the four data sets).

    Readings beyond the clean columns (status ``"reading"``): the "all" row of every data set (ALMA_2 on all genes
    is printed twice, as 2-RFE and 2-CORR, next to ln-RFE's value, which equals ln-CORR's), and ALMA-FS's own
    entry for Colon (12.7%, printed at the top of the table) and Lymphoma (8.1%), the single value beside the row's
    dashes, and Breast (9.5%: the one percentage outside every block, printed alone after the row labels; the Breast
    block's 18 numbers and 9 dashes are complete without it, and 6.5% is the first value of its 40-gene row).
    Prostate's ALMA-FS value cannot be told apart.
    """
    raw = (text if text is not None else _PAPER_TABLE1_TEXT).split("|")
    toks = [t.strip() for t in raw if t.strip()]
    i_rows = toks.index("20")
    row_labels = toks[i_rows:i_rows + 35]
    fs_genes = {d: float(row_labels[7 * j + 1]) for j, d in enumerate(_T1_DATASETS)}
    i_lncorr = toks.index("ln-CORR")
    lncorr = [_pct(t) for t in toks[i_lncorr + 1:i_lncorr + 36]]
    i_rfe = toks.index("2-RFE")
    leuk_rfe = [_pct(t) for t in toks[i_rfe + 1:i_rfe + 8]]
    i_fs = toks.index("FS", i_rfe)
    block = toks[i_fs + 1:i_fs + 22]
    leuk = {}
    for r, lab in enumerate(_T1_ROWS):
        vals = [_pct(t) for t in block[3 * r:3 * r + 3]]
        nums = [v for v in vals if v is not None]
        leuk[lab] = ({"FS": nums[0]} if lab == "FS"
                     else {"2-CORR": nums[0], "ln-RFE": nums[1] if len(nums) > 1 else None})
    # everything else between Leukemia's block and the ln-CORR header: the four garbled blocks
    rest = []
    for t in toks[i_fs + 22:i_lncorr] + toks[1:toks.index("LEUKEMIA")]:
        rest.extend(t.split())
    garbled = " ".join(t for t in rest if t.endswith("%"))
    rows = []
    for j, d in enumerate(_T1_DATASETS):
        for r, lab in enumerate(_T1_ROWS):
            for alg in TABLE1_ALGORITHMS:
                val, status = None, "garbled"
                if alg == "ln-CORR":
                    val, status = lncorr[7 * j + r], "clean"
                elif alg == "ln-RFE" and lab == "all":
                    val, status = lncorr[7 * j + 6], "identity"
                elif d == "Leukemia":
                    if alg == "2-RFE":
                        val, status = leuk_rfe[r], "clean"
                    elif alg == "2-CORR" and lab == "all":
                        val, status = leuk_rfe[6], "identity"
                    elif alg == "FS":
                        val, status = (leuk["FS"]["FS"], "reading") if lab == "FS" else (None, "clean")
                    elif lab != "FS":
                        val, status = leuk[lab].get(alg), "reading"
                    else:
                        status = "clean"
                if (d, lab, alg) in _T1_READINGS:
                    val, status = _T1_READINGS[d, lab, alg], "reading"
                if lab == "FS" and alg != "FS" and status != "garbled":
                    val = None  # printed as "—": only ALMA-FS has a row at its own gene count
                if lab != "FS" and alg == "FS":
                    val, status = None, ("clean" if d == "Leukemia" else status)
                rows.append(dict(dataset=d, genes=lab, algorithm=alg,
                                 paper_error=np.nan if val is None else val,
                                 paper_fs_genes=fs_genes[d], status=status,
                                 garbled_values=garbled if status == "garbled" else ""))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------------------------
# The notebook's protocol for any data set
# ----------------------------------------------------------------------------------------------------------------

_PAPER_NAME = {ds: name for name, (ds, _, _) in TABLE1_PROTOCOL.items()}


def paper_name(dataset: str) -> str:
    """The paper's name of a Table 1 data set ("Leukemia"), or the data set's own name."""
    return display_name(dataset, _PAPER_NAME, fallback="name")


def notebook_protocol(datasets, *, quick: bool, n_splits=None, cycles=None, min_test_predictions: int = 20):
    """One row per data set: Table 1's protocol (the paper's training size and cycles) for its five data sets, and
    for any other binary data set random splits with 80 % of the samples for training (Colon's 50/62) and 50 cycles.

    ``n_splits=None`` uses the paper's 1000 in full mode; in quick mode as few splits as give at least
    ``min_test_predictions`` test predictions per data set (2 for most, 20 for Prostate's 101/1 splits), so no
    quick-mode error rests on one or two test samples. Columns: dataset, paper name, n_train (None: the
    predefined split with permuted training orders), n_test, cycles, n_splits, test_predictions."""
    rows = []
    for ds_name in datasets:
        ds = load_task(ds_name)
        if ds_name in _PAPER_NAME:
            _, n_train, cyc = TABLE1_PROTOCOL[_PAPER_NAME[ds_name]]
        else:
            n_train, cyc = (None if ds.train_idx is not None else int(round(0.8 * ds.n_samples))), 50
        n_test = len(ds.test_idx) if n_train is None else ds.n_samples - n_train
        if n_splits is not None:
            k = int(n_splits)
        elif quick:
            k = max(2, -(-min_test_predictions // n_test))
        else:
            k = 1000
        c = int(cycles) if cycles is not None else (10 if quick else cyc)
        rows.append(dict(dataset=ds_name, paper_name=paper_name(ds_name), n_train=n_train, n_test=int(n_test),
                         cycles=c, n_splits=k, test_predictions=int(k * n_test)))
    return pd.DataFrame(rows)


def table1_cells(protocol: pd.DataFrame, alphas, seed=0, gene_counts=(20, 40, 60, 100, 200)) -> list:
    """The grid of a :func:`notebook_protocol`: one :func:`table1_cell` per (data set, split, alpha)."""
    return [dict(dataset=r.dataset, split=i, alpha=float(a), n_cycles=int(r.cycles), seed=seed,
                 n_train=(None if pd.isna(r.n_train) else int(r.n_train)), gene_counts=list(gene_counts))
            for r in protocol.itertuples() for i in range(int(r.n_splits)) for a in alphas]
