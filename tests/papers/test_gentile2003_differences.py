"""Issue 27: the three differences between genesel's full run of Gentile (2003) Table 1 and the paper, each
traced as far as it goes, with the variants tried. Full-run numbers are from ``figures/gentile2003_table1_*.csv``
(1000 splits or training orders, best alpha of {0.5, ..., 0.9} per cell, 100/50 cycles); the tests use the full
run's first 10-20 splits (1000 for Prostate), seed 0, tolerances stated per test. Test errors in percent. (The
issue's list had paper and genesel the other way round for differences 2 and 3; the CSVs say as below.)

1. **ALMA-FS keeps about half the paper's genes** -- full run 14.1 (Leukemia), 11.5 (Colon), 13.1 (Breast), 19.7
   (Prostate), 12.8 (Lymphoma) against the paper's 26.5, 22.6, 38.5, 30.8, 30.8. *Not reproduced; what the count
   hangs on is shown.* Figure 2's first stage does almost all of the work: ALMA_{ln f} on all genes is so
   concentrated (p = 8.9 on Leukemia, so w_i ~ |theta_i|^7.9) that one cut keeps 23-28 of Leukemia's 7129 genes;
   the later stages (p ~ 3) only peel off the last ones (e.g. 23 -> 19 -> ... -> 12). Variants of Figure 2, mean
   genes kept at alpha = 0.5 ... 0.9:

   - *alpha*: Figure 2's count grows with alpha -- Colon 13 -> 32 (the paper's 22.6 near alpha = 0.8), Prostate
     12 -> 27 -- while the full run's best alpha (lowest test error) is 0.5 on Colon and 0.6 on Leukemia, the fewest
     genes; so on Colon the choice of alpha alone can account for it, contrary to the paper's footnote 7 ("alpha
     does not have a big influence on this number"). Not on Leukemia: 14-21, below 0.85 x 26.5 at every alpha.
   - *stopping after the first cut* instead of "until F does not shrink any more": Leukemia 23-28, Colon 20-50,
     Prostate 18-35, each range holding the paper's count, and ALMA-FS's errors come closer (Leukemia 2.9, Colon
     13.5 at 50 splits; paper 3.0 and 12.7); but Lymphoma 89-134 (paper 30.8; our Lymphoma is 66/30 and imputed, the
     paper's 62/34) and it contradicts Figure 2's text.
   - *normalising x by the p-norm of its whole expression vector*, then restricting to F (instead of x^ =
     x / ||x_F||_p on S|F as Figure 2 runs ALMA_p(S|F)): Leukemia 19-25, Colon 17-36, Prostate 15-31, Lymphoma 26-29
     (20 splits), near the paper's counts, and ALMA-FS's Colon error comes to 12.9 (paper 12.7, full run 14.3).
     But the same normalisation drops Leukemia's ALMA_2-RFE, which Figure 1 on S|F reproduces to 0.2 points
     (full run 5.7/6.8/8.7 vs the paper's 5.8/6.7/8.9 at 20/40/60 genes), to about 3 %: not what the paper ran.
   - also tried (20 splits; none closer): the cumulative rule in |w|^p instead of |w|^q (Leukemia 7-20); instances
     normalised by the 2-norm (on F: 11-22; whole vector: 17-35, but Leukemia errors of 5-41 %); k counted in trials
     instead of updates (Leukemia 20-48, Lymphoma 32-68); log2 f for ln f (8-12); c(alpha) = alpha or 1 - alpha
     (fewer genes) or (alpha (1 - alpha))^2 (Leukemia 29-66, 5 splits); gamma as the attained margin (notebook 02:
     41-7129 genes). The cycles are the paper's, and a run ends early only after a sweep that changes nothing.

   So: the count is the first stage's cut of a very concentrated w plus alpha; no single reading of Figure 2 tried
   here gives the paper's comparable counts while keeping the columns of Table 1 that do agree.

2. **Leukemia ALMA_ln-CORR at 40/100/200 genes** -- full run 5.2/4.4/6.5 against the paper's 3.6/2.9/4.5 (clean
   column). *Unexplained.* Leukemia has one split (38/34); only the training order varies, and the errors are
   counts: at 40 genes ALMA_ln errs on 2 of the 34 test samples in 97-100 % of the orders for alpha <= 0.8 (5.9 %),
   the paper's 3.6 % is 1.2 errors. The ranking is not the cause: the same gene sets with ALMA_2 (our ALMA_2-CORR)
   agree with the paper's ALMA_2-CORR at 40, 60 and 200 genes (full run 5.0/4.0/4.1 vs 5.0/4.3/3.0). (At 100 genes
   the paper's Leukemia block prints "2.5% 4.0%", read as ALMA_2-CORR 2.5, ALMA_ln-RFE 4.0; ours are 4.6 and 2.5,
   and the extraction's order within a row is not reliable -- it puts the dash inside the "all" row -- so that row
   is left out.) Tried, ALMA_ln-CORR at 40/100/200, 100 orders (50 for the 2-norm): |S2N| instead of sign-balanced
   top genes 3.2/4.0/6.5; S2N on all 72 samples (test set included) 2.9/3.5/3.0; Pearson correlation 7.2/4.3/6.1
   (balanced) or 5.1/3.6/3.7 (|r|); p = ln 7129 instead of ln f 3.7/3.0/8.7; instances normalised by the 2-norm
   5.5/3.2/7.4 or by the whole vector 5.1/5.9/8.3; S2N with ddof 1, log2 or log10 f, S2N of the normalised
   samples; a fresh training order every cycle; 5 to 300 cycles; intensities clipped to [100, 16000] as Golub
   did (20 orders: 5.3/4.4/4.6, so 200 genes only). Each misses at least one of the three by more than a point.

3. **Prostate ALMA_2-CORR at 20 genes** -- full run 7.9; the paper's Prostate columns are garbled, and 11.5 is a
   reading. *Not reproduced; within the noise of the protocol once it is seen as the largest of 22 differences.*
   The Prostate block of the extracted text is 19 numbers and 9 dashes in seven groups of three numbers and one
   dash (the FS row: three dashes, then ALMA-FS's value 9.5); the "all" group pins the third number of a group as
   ALMA_ln-RFE (10.4 = ALMA_ln-CORR on all genes); the first two are the two ALMA_2 columns, in an order the
   table's identities cannot fix (both are ALMA_2 on all genes in the "all" row). Row 20 reads 8.4, 11.5: 11.5 is
   ALMA_2-CORR's or ALMA_2-RFE's (ours 7.9 and 8.3). On 1000 splits of one test sample each, an error rate has a
   standard error of about 1 point and a paper-vs-genesel difference about 1.3: 11.5 - 7.9 = 3.6 is z = 2.7, p =
   0.007 for a cell chosen in advance, but it was picked as the largest of the 22 comparable Prostate cells
   (Bonferroni p = 0.14), which scatter both ways (ALMA_2 at 100 genes: paper 6.9, ours 10.4). Our error at 20
   genes by alpha is 7.9/8.0/9.0/9.8/11.1: the paper's 11.5 is what alpha = 0.9 alone gives, not a best alpha.
   Variants at 20 genes (200 splits, s.e. 2 points): |S2N| 5.0, S2N on all samples 8.5, whole-vector norm 10.0.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np
import pytest

from genesel import alma as A
from genesel._core.linalg import row_pnorms
from genesel.experiments import permuted_training_orders, random_splits
from genesel.filters import balanced_order, signal_to_noise
from genesel.papers import gentile2003 as G
from genesel.papers.common import load_task

pytestmark = pytest.mark.usefixtures("mirror")

ALPHAS = (0.5, 0.6, 0.7, 0.8, 0.9)
#: the paper's ALMA-FS gene counts (Table 1's "# GENES" column)
PAPER_FS_GENES = {"golub": 26.5, "alon": 22.6, "west": 38.5, "singh": 30.8, "alizadeh": 30.8}


def _splits(dataset, k, seed=0):
    """The first k splits of notebook 02's protocol (the full run's first k, same seed): (train, test, cycles)."""
    ds = load_task(dataset)
    _, n_train, cycles = G.TABLE1_PROTOCOL[G.paper_name(dataset)]
    if n_train is None:
        sp = permuted_training_orders(ds.train_idx, ds.test_idx, k, seed)
    else:
        sp = random_splits(ds.y, n_train, k, seed)
    return ds, sp, cycles


def _alma(Xn, y, p, alpha, cycles):
    """ALMA_p (Figure 1) on rows already normalised as the caller wants; returns (w, gamma_k)."""
    w, k = A._alma_kernel(Xn, y, np.arange(y.size, dtype=np.int64), p, alpha, cycles)[:2]
    return w, math.sqrt(8.0 * (p - 1.0)) / (alpha * math.sqrt(k))


def _norms(X, F, p, normalise):
    """Row p-norms of S|F ("restricted", Figure 1 on S|F) or of the whole expression vectors ("all genes")."""
    return row_pnorms(np.ascontiguousarray(X[:, F] if normalise == "restricted" else X), p)


def fs_path(X, y, alpha, cycles, *, max_stages=None, normalise="restricted"):
    """ALMA-FS (Figure 2) with two of the readings the paper leaves open: stop after ``max_stages`` cuts (None:
    until F no longer shrinks), instances normalised on F or on all genes. Returns the surviving columns."""
    F = np.arange(X.shape[1])
    stage = 0
    while True:
        p = A.resolve_p("ln", F.size)
        Xn = np.ascontiguousarray(X[:, F]) / _norms(X, F, p, normalise)[:, None]
        w, gamma = _alma(Xn, y, p, alpha, cycles)
        keep = A.fs_cut(w, p, A.c_alpha(alpha) * gamma)
        stage += 1
        if keep.size == F.size:
            return F
        F = F[keep]
        if max_stages is not None and stage >= max_stages:
            return F


FS_VARIANTS = {"figure 2": {}, "first stage": dict(max_stages=1), "all-genes norm": dict(normalise="all genes")}


@lru_cache(maxsize=None)
def fs_counts(dataset, variant, k=10):
    """Mean number of genes ALMA-FS keeps per alpha over the first k splits."""
    ds, sp, cycles = _splits(dataset, k)
    out = {}
    for a in ALPHAS:
        n = [fs_path(np.ascontiguousarray(ds.X[tr], dtype=float), ds.y[tr].astype(float), a, cycles,
                     **FS_VARIANTS[variant]).size for tr, _ in sp]
        out[a] = float(np.mean(n))
    return out


def test_fs_variant_helper_is_figure_2():
    """The variant code, at its defaults, is genesel's ALMA-FS (so the variants differ from it in one thing only)."""
    ds, sp, cycles = _splits("alon", 2)
    for tr, _ in sp:
        X, y = np.ascontiguousarray(ds.X[tr], dtype=float), ds.y[tr].astype(float)
        ref = A.elimination_path(X, y, alpha=0.7, n_cycles=cycles, order=np.arange(y.size), rule="fs",
                                 p_mode="ln")[0]
        np.testing.assert_array_equal(fs_path(X, y, 0.7, cycles), ref)


#: genesel's full run: the alpha with the lowest ALMA-FS test error (figures/gentile2003_paper_vs_genesel.csv)
FULL_RUN_FS_ALPHA = {"golub": 0.6, "alon": 0.5, "singh": 0.8}


def test_fs_gene_count_is_set_by_the_first_stage():
    """Difference 1. At the full run's best alpha, Figure 2 as printed keeps under 0.7x the paper's count; its first
    cut alone keeps the paper's count somewhere in its range over alpha (Leukemia 23-28, Colon 20-50, Prostate
    18-35). On Colon
    Figure 2's count grows with alpha (13 -> 32) and passes the paper's 22.6 near alpha = 0.8, so there the choice of
    alpha alone could explain it; on Leukemia it stays below 0.85x at every alpha. 10 splits: a mean count has a
    standard error of 0.5-3 genes (sd 1.5-10 over splits); the margins below are 3 s.e. or more."""
    for ds in ("golub", "alon", "singh"):
        paper = PAPER_FS_GENES[ds]
        fig2, first = fs_counts(ds, "figure 2"), fs_counts(ds, "first stage")
        assert fig2[FULL_RUN_FS_ALPHA[ds]] < 0.7 * paper, (ds, fig2)    # the difference
        assert all(first[a] > fig2[a] + 3 for a in ALPHAS), (ds, first, fig2)
        assert min(first.values()) - 3 < paper < max(first.values()) + 3, (ds, first)
    assert max(fs_counts("golub", "figure 2").values()) < 0.85 * PAPER_FS_GENES["golub"]
    assert max(fs_counts("alon", "figure 2").values()) > PAPER_FS_GENES["alon"]


def test_fs_whole_vector_normalisation_raises_the_count_but_breaks_2rfe():
    """Difference 1, the normalisation that comes nearest the paper's counts: normalising x by its whole expression
    vector, then restricting to F, keeps more genes at every alpha (Leukemia up to 25 of the paper's 26.5, Colon
    17-36 around its 22.6), but the same reading applied to ALMA_2-RFE drops Leukemia's errors from the paper's
    5.8/6.7 % (20/40 genes; ours 5.7/6.8 in the full run, 5.3/6.9 here) to 3.1/2.8 %: the paper did not normalise
    so. Leukemia's test set is fixed (34 samples, 1 error = 2.9 points); 20 orders, a variant's error moves by
    less than a point between sets of 20 orders."""
    for ds in ("golub", "alon"):
        whole, fig2 = fs_counts(ds, "all-genes norm"), fs_counts(ds, "figure 2")
        assert all(whole[a] > fig2[a] + 1 for a in ALPHAS), (ds, whole, fig2)
        assert min(whole.values()) - 3 < PAPER_FS_GENES[ds] < max(whole.values()) + 3, (ds, whole)
    restricted, whole = leukemia_2rfe("restricted"), leukemia_2rfe("all genes")
    for n, paper in ((20, 5.8), (40, 6.7)):
        assert abs(restricted[n] - paper) < 1.5, (n, restricted)      # Figure 1 on S|F reproduces the column
        assert whole[n] < paper - 2.0, (n, whole)                      # whole-vector norms do not


def leukemia_2rfe(normalise, k=20, counts=(20, 40)):
    """ALMA_2-RFE(S, n_f) on Leukemia (f* = max(floor(f/2), n_f) until n_f genes remain): best-alpha mean test
    error (%) at each n_f over k training orders."""
    ds, sp, cycles = _splits("golub", k)
    out = {}
    for n in counts:
        best = np.inf
        for a in ALPHAS:
            e = []
            for tr, te in sp:
                X, y = np.ascontiguousarray(ds.X[tr], dtype=float), ds.y[tr].astype(float)
                F = np.arange(X.shape[1])
                while True:
                    Xn = np.ascontiguousarray(X[:, F]) / _norms(X, F, 2.0, normalise)[:, None]
                    w = _alma(Xn, y, 2.0, a, cycles)[0]
                    if F.size <= n:
                        break
                    F = F[np.sort(np.argsort(-np.abs(w), kind="stable")[:max(F.size // 2, n)])]
                e.append(np.mean(np.where(ds.X[te][:, F] @ w >= 0, 1, -1) != ds.y[te]))
            best = min(best, 100 * np.mean(e))
        out[n] = best
    return out


# ----------------------------------------------------------------------------------------------------------------
# 2. Leukemia ALMA_ln-CORR
# ----------------------------------------------------------------------------------------------------------------

#: the paper's Leukemia ALMA_ln-CORR (clean column) and ALMA_2-CORR (reading) at 40, 60, 100, 200 genes
PAPER_LN_CORR = {40: 3.6, 60: 2.9, 100: 2.9, 200: 4.5}
PAPER_2_CORR = {40: 5.0, 60: 4.3, 100: 2.5, 200: 3.0}
CORR_COUNTS = (40, 60, 100, 200)
CORR_VARIANTS = ("as printed", "|S2N|", "S2N on all 72", "p = ln 7129", "2-norm instances")


def _corr_ranking(ds, variant):
    idx = np.arange(ds.n_samples) if variant == "S2N on all 72" else ds.train_idx
    s = np.nan_to_num(signal_to_noise(ds.X[idx], ds.y[idx]), nan=0.0)
    return np.argsort(-np.abs(s), kind="stable") if variant == "|S2N|" else balanced_order(s)


def leukemia_corr(variant, k=20):
    """Leukemia x-CORR: best-alpha mean test error (%) per (algorithm, count) over k training orders. The ranking
    does not depend on the order (S2N of the fixed training set), so it is computed once."""
    ds, sp, cycles = _splits("golub", k)
    order = _corr_ranking(ds, variant)
    out = {}
    for n in CORR_COUNTS:
        F = np.sort(order[:n])
        for alg in ("2-CORR", "ln-CORR"):
            p = 2.0 if alg == "2-CORR" else A.resolve_p("ln", ds.n_genes if variant == "p = ln 7129" else n)
            q = 2.0 if variant == "2-norm instances" else p
            best = np.inf
            for a in ALPHAS:
                e = []
                for tr, te in sp:
                    X, y = np.ascontiguousarray(ds.X[tr][:, F], dtype=float), ds.y[tr].astype(float)
                    w = _alma(X / row_pnorms(X, q)[:, None], y, p, a, cycles)[0]
                    e.append(np.mean(np.where(ds.X[te][:, F] @ w >= 0, 1, -1) != ds.y[te]))
                best = min(best, 100 * np.mean(e))
            out[alg, n] = best
    return out


def test_leukemia_ln_corr_gap_is_not_the_ranking_and_no_variant_closes_it():
    """Difference 2, unexplained. 20 training orders of the fixed split: a mean error moves by less than ~0.4 points
    between sets of 20 orders (measured: full run vs 100 vs 20 orders within 0.4 at 40/200 genes), so a gap of a
    point or more is the algorithm's, not the orders'."""
    printed = leukemia_corr("as printed")
    for n in (40, 200):
        assert printed["ln-CORR", n] > PAPER_LN_CORR[n] + 1.0, (n, printed)          # the difference
    # the same gene sets with ALMA_2 agree with the paper's ALMA_2-CORR: the ranking is not the cause
    for n in (40, 60, 200):
        assert abs(printed["2-CORR", n] - PAPER_2_CORR[n]) < 1.2, (n, printed)
    # no variant brings all of ln-CORR's 40, 100 and 200 within a point of the paper
    for variant in CORR_VARIANTS:
        got = printed if variant == "as printed" else leukemia_corr(variant)
        worst = max(abs(got["ln-CORR", n] - PAPER_LN_CORR[n]) for n in (40, 100, 200))
        assert worst > 1.0, (variant, got)


# ----------------------------------------------------------------------------------------------------------------
# 3. Prostate ALMA_2-CORR at 20 genes
# ----------------------------------------------------------------------------------------------------------------


def prostate_block():
    """The Prostate block of Table 1 in the extracted text: its numbers (percent) and '—' in text order."""
    text = G._PAPER_TABLE1_TEXT
    start = text.index("10.0%|8.4%|11.5%")  # Breast's "all" row ends with "15.8% 10.0%"; Prostate follows
    end = text.index("— 10.0% 10.4%") + len("— 10.0% 10.4%")
    toks = re.findall(r"—|\d+\.\d%", text[start + len("10.0%|"):end])
    return [None if t == "—" else float(t[:-1]) for t in toks]


def test_prostate_block_reading():
    """Difference 3, the paper's side: seven groups of (three numbers, one dash); the FS row is three dashes and
    its value; the "all" group pins the third number as ALMA_ln-RFE; the first two of each group are the two ALMA_2
    columns, in an order the table's identities cannot fix. Row 20 holds 11.5 and 8.4."""
    toks = prostate_block()
    nums = [t for t in toks if t is not None]
    assert len(nums) == 19 and toks.count(None) == 9
    groups = [toks[i:i + 4] for i in range(0, 28, 4)]
    assert all(sum(t is None for t in g) == 1 for i, g in enumerate(groups) if i != 1)
    assert groups[1][:3] == [None, None, None]  # the FS row: three dashes, then ALMA-FS's own value
    rows = [[t for t in g if t is not None] for i, g in enumerate(groups) if i != 1]
    paper = G.paper_table1()
    allrow = paper[(paper.dataset == "Prostate") & (paper.genes == "all")].set_index("algorithm").paper_error
    ln_corr_all, two_all = allrow["ln-CORR"], allrow["2-RFE"]
    assert rows[-1][2] == ln_corr_all and rows[-1][0] == rows[-1][1] == two_all  # the identities
    assert sorted(rows[0][:2]) == [8.4, 11.5]


def prostate_2corr_20(k=1000):
    """ALMA_2-CORR with 20 genes on Prostate: per-alpha test errors (percent) over the full run's first k splits."""
    ds, sp, cycles = _splits("singh", k)
    err = np.zeros((len(ALPHAS), len(sp)))
    for i, (tr, te) in enumerate(sp):
        F = np.sort(balanced_order(np.nan_to_num(signal_to_noise(ds.X[tr], ds.y[tr]), nan=0.0))[:20])
        X, y = np.ascontiguousarray(ds.X[tr][:, F], dtype=float), ds.y[tr].astype(float)
        for j, a in enumerate(ALPHAS):
            w = A.run_alma(X, y, 2.0, a, cycles, np.arange(y.size, dtype=np.int64))[0]
            err[j, i] = np.mean(np.where(A.decision_values(ds.X[te][:, F], w, 2.0) >= 0, 1, -1) != ds.y[te])
    return 100 * err.mean(axis=1)


def test_prostate_2corr_20_is_within_the_noise_of_1000_single_sample_splits():
    """Difference 3. The paper's protocol, 1000 splits of 101/1: the paper's 11.5 is 2.5-3.5 standard errors of
    a difference above our best alpha (one cell chosen in advance: p < 0.02), not significant once it is the
    largest of the 22 Prostate cells that can be compared (Bonferroni p > 0.05); it is our alpha = 0.9 value
    (within 1.5 points, one s.e. of a difference being 1.3), not a best alpha."""
    by_alpha = prostate_2corr_20()
    ours = by_alpha.min()
    se = lambda e: math.sqrt(e / 100 * (1 - e / 100) / 1000) * 100  # noqa: E731  binomial, 1000 test predictions
    z = (11.5 - ours) / math.hypot(se(11.5), se(ours))
    p_one = math.erfc(z / math.sqrt(2))
    assert 2.0 < z < 3.5 and p_one < 0.05, (by_alpha, z)
    assert min(1.0, 22 * p_one) > 0.05, (by_alpha, z, p_one)
    assert abs(by_alpha[-1] - 11.5) < 1.5 and all(by_alpha[:-1] < 11.5 - 1.5), by_alpha
