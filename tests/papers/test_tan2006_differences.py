"""Differences from Tan (2006), chapters 4-5, that an unknown random partition could explain: tested (issue 27).

The thesis drew Colon's 32/30 training/test partition at random ("We randomly partitioned the data set", §4.4) and its
10 folds too (§5.1), and gives neither; genesel's full run (seed 0, ``figures/tan2006_ch4|ch5_paper_vs_genesel.csv``) is
another draw. Each test below draws many seeded partitions of the thesis' sizes (Colon 32/30, 11 normal and 21 tumour
samples in training: ``tan2006_ch45.thesis_split``; stratified 10-fold as ``fold_cell``, and plain random 10-fold),
computes the quantity the thesis prints with the thesis' protocol (the "merged" standardisation, the same selectors and
forward selection as the cells; draw 0 gives the committed full run's numbers, checked against the committed CSV), and
asks whether the thesis' value lies in the central 95 % of the draws (neither tail beyond it below 2.5 %). Only the
merged rows (the thesis' protocol) are judged. Findings, with the draws of these tests:

1. **Colon, Tables 4.2, 4.3, 4.6: the test accuracies are explained by partition variation; the counts of optimal
   subsets and the biomarker set by test accuracy are not.** 200 partitions (Table 4.3's count of LOO-optimal
   subsets: the first 50, which need the full leave-one-out path). Every thesis value lies inside:
   all-genes SVM 23/30 correct (76.7 %; genesel 21/30; draws: median 24, central 95 % [20, 27]); SVM-RFE optimal
   subsets by test 53 (genesel 6; median 22, [1, 1836]), best test 25/30 (83.3 %, = genesel; [22, 28]), biomarker
   set by test 416 genes (genesel 2; median 9, [1, 543]: 4.5 % of the partitions reach 416 or more); Table 4.3 LOO
   100 % (96.5 % of the partitions), biomarker set 5 genes (genesel 6; [3, 23]), 126 LOO-optimal subsets (genesel 37;
   50 draws, [5, 1069]); Table 4.6 SVM test accuracy with the SVM-RFE set 20/30 (66.7 %; genesel 25/30; [18, 26]),
   RVM 3 genes at 19/30 (genesel 3 at 20/30; sizes [2, 6], correct [18, 26], P(<= 19) = 6 %), SMLR 16 genes at 19/30
   (genesel 17 at 23/30; sizes [9, 22], correct [19, 26], P(<= 19) = 4.5 %: near the edge). Read as one event,
   Table 4.2's row (25/30 first reached with >= 416 genes) is rare: 1 of 200 partitions, but it occurs.
   An accuracy's central 95 % over the partitions ([20, 27], [18, 26], [19, 26] of 30) is no wider than the
   sampling noise of one 30-sample test set (+-2 binomial sd, checked below): there the partition explains the
   difference. The counts of optimal subsets ([1, 1836], [5, 1069]) and the size of the first subset with the best
   test accuracy ([1, 543]) spread over orders of magnitude: "inside" explains nothing there, and
   ``genesel.papers.tan2006_ch45_claims`` counts those cells unexplained.
   GP-Laplace and GP-EP (Table 4.6's GPC-ARD rows) are untested: one GP-ARD ranking of Colon's 2000 genes costs
   more than this whole file may, and their order beyond the top genes is not fixed by the data anyway
   (``test_fidelity.py``).
2. **Colon, Tables 4.7 and 5.6, all genes: unexplained.** At C = 1 the thesis' 17 leave-one-fold-out errors of the
   linear SVM (72.6 %) occur in none of 200 stratified 10-fold partitions (median 11, range [6, 14]; genesel's 14 is
   draw 0, itself the largest) nor of 200 plain random ones (range [7, 16]). But the thesis chose its
   regularisation by cross-validation (§3.4) and gives neither the grid nor the C: at C = 2.5e-4 the same
   partitions give 17 as their median (30 partitions, below). So the test at C = 1 does not span the protocol's
   choices, and the row is not "not from the protocol"; it stays unexplained. (Table 4.7's SMLR set size: item 3;
   its other rows, and Leukemia's, are not tested here.)
3. **Stability S (Tables 5.3, 5.5), Colon.**
   RVM: **cannot come from this protocol on this data** (genesel's RVM, merged standardisation). The thesis' S =
   0.213 lies above every draw: 100 stratified 10-fold partitions give median 0.084, range [0.048, 0.142], and 50
   plain random ones [0.058, 0.119] (genesel's 0.08 is draw 0). Gene 377 is in at most 6 of the 10 RVM sets in
   every one of the 150 partitions (genesel: 5), never in all 10 as in the thesis' Table 5.2. The partition does
   not explain the row. Where the gap comes from instead: genesel's RVM stops at sets of lower evidence than the
   thesis' sets. On the full run's 10 training parts, one of the thesis' Table 5.1 sets has a Laplace evidence more
   than one nat above genesel's own fit on 5 folds (gaps 1.1 to 2.8 nats); a tighter tolerance changes nothing. The
   thesis' RVM found better maxima of the same evidence, stable across folds; genesel's stops at lower ones that
   differ from fold to fold. This locates the cause, but no RVM here reaches the thesis' S, so the row stays
   unexplained.
   The tally counts the row unexplained (the number is from the protocol; genesel's RVM does not reach it).
   SMLR: the thesis' 0.243 is in the extreme lower tail, **not explained by partition variation at the 95 % level**:
   60 stratified partitions give median 0.278, range [0.241, 0.319], P(S <= 0.243) = 1/60 (genesel's 0.28 is draw
   0). Rare, not impossible; the row stays unexplained. Its sets are larger than genesel's: 30 genes on average
   (Table 4.7) against 20.5 to 23.4 over the 60 partitions (genesel 22.2): not the partition either. That suggests
   another prior weight (the thesis chose it by cross-validation and does not give it); untested here, as smaller
   weights cost up to 15 s a partition.
   SVM-RFE (biomarker set by LOO forward selection): **explained by partition variation**: 20 stratified
   partitions give median 0.147, central 95 % [0.113, 0.171], P(S <= 0.12) = 0.20 (thesis 0.12, genesel 0.16).
   The GP selectors (GP-Laplace, GP-ARD-FS, GP-ARD-RFE: thesis 0.18, 0.27, 0.27 against genesel's 0.06, 0.16, 0.14)
   are untested: their fits are most of notebook 05c's 18-minute full run for one 10-fold partition (both data
   sets and standardisations), so no distribution fits in a test; on fewer genes S would measure another problem
   (S depends on the number of genes to choose from).
4. **Leukemia, Table 4.6, SMLR** (the published 38/34 split: no partition to blame): **cannot come from this
   protocol** for any of its choices: SMLR's prior weight (chosen by cross-validation in the thesis) and the SVM's C.
   Along SMLR's path (lam = 0.5 ... 0.007 of the weight that keeps no gene, every fit converged) the biomarker set
   grows from 7 to 20 genes (the thesis' own size, so no smaller weight is in question), and the SVM on it, at any C
   from 1e-4 to 100, gets at most 29 of the 34 test samples; the thesis' 20 genes are reached at lam = 0.007 with
   26/34 (76.5 %), its 32/34 (94.1 %) at no lam and no C (genesel's default lam = 0.1: 13 genes, 26/34, the
   committed row). What produced the thesis' number stays open.

Cost: about 190 s of CPU on one core (200 Colon partitions x SVM-RFE, RVM, SMLR; 150 RVM, 60 SMLR, 20 SVM-RFE and 460
all-genes 10-fold partitions; 8 SMLR fits on Leukemia and 80 SVMs on their genes). The numbers of draws are as small
as keeps each verdict away from the edge, except Colon SMLR's S, which sits at the edge at any number of draws (1.7 %
of 60 here; 2.3 % of 300 in a longer run).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.usefixtures("mirror")

FIGURES = Path(__file__).resolve().parents[2] / "figures"

#: Colon 32/30 partitions (thesis_split seeds 0..N-1) for Tables 4.2 and 4.6; the first N_SPLITS_LOO of them also
#: get the full leave-one-out path, which Table 4.3's count of LOO-optimal subsets needs (the rest stop it as soon
#: as it is exact, see _chapter4_partition)
N_SPLITS, N_SPLITS_LOO = 200, 50
#: 10-fold partitions of Colon (stratified as genesel's fold cells; and plain random folds) for Tan's S
N_FOLDINGS_RVM, N_FOLDINGS_RVM_PLAIN = 100, 50
N_FOLDINGS_SMLR, N_FOLDINGS_SVMRFE = 60, 20
#: 10-fold partitions of Colon for the all-genes errors of Tables 4.7 and 5.6
N_FOLDINGS_ALL_GENES = 200
#: the central part of a distribution a value must lie in to be "one draw of it"
LEVEL = 0.95


# ----------------------------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------------------------


def _committed(csv: str, quantity: str, protocol: str = "merged") -> str:
    """genesel's value in a committed paper-vs-genesel table (the full run, seed 0)."""
    t = pd.read_csv(FIGURES / f"{csv}_paper_vs_genesel.csv", dtype=str, keep_default_na=False)
    hit = t[(t.quantity == quantity) & (t.protocol.str.split(",").str[0] == protocol)]
    assert len(hit) == 1, f"{quantity!r} ({protocol}) is not one row of {csv}_paper_vs_genesel.csv"
    return hit.genesel.iloc[0]


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", re.sub(r"\(\d+/\d+\)", "", text))]


def _count(pct: float, m: int) -> int:
    """Correct predictions behind a printed accuracy on m samples (the thesis truncates: 76.7 % is 23/30)."""
    return int(round(pct * m / 100.0))


def tails(values, v) -> tuple[float, float]:
    """(P(X <= v), P(X >= v)) over the draws ``values``."""
    x = np.asarray(values, dtype=float)
    return float(np.mean(x <= v + 1e-12)), float(np.mean(x >= v - 1e-12))


def inside(values, v, level: float = LEVEL) -> bool:
    """``v`` lies in the central ``level`` part of the draws: neither tail beyond it holds less than (1 - level)/2."""
    return min(tails(values, v)) >= (1.0 - level) / 2


def _describe(values, v) -> str:
    x = np.asarray(values, dtype=float)
    lo, hi = np.percentile(x, [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2])
    p_le, p_ge = tails(x, v)
    return (f"{x.size} draws: median {np.median(x):g}, central {LEVEL:.0%} [{lo:g}, {hi:g}], range [{x.min():g}, "
            f"{x.max():g}]; P(X <= {v:g}) = {p_le:.3f}, P(X >= {v:g}) = {p_ge:.3f}")


@pytest.fixture(scope="module")
def colon():
    from genesel.papers import tan2006_ch45 as T

    ds = T.thesis_data("alon")
    return T.standardise(ds.X), ds.y  # "merged": the thesis' standardisation over all 62 samples


# ----------------------------------------------------------------------------------------------------------------
# 1. Colon, Tables 4.2, 4.3 and 4.6: the thesis' 32/30 partition is unknown
# ----------------------------------------------------------------------------------------------------------------


def _chapter4_partition(A, y, seed: int, full_loo: bool) -> dict:
    """What ``tan2006_ch45.ranking_cell`` computes for SVM-RFE, RVM and SMLR on Colon (merged) with partition
    ``seed``, at less cost: the test path over all 2000 prefixes without LOO, and the LOO path only as far as it
    must go. The biomarker set by LOO is the smallest prefix with the fewest LOO errors; once a prefix has none, no
    longer prefix can have fewer, so a path stopped at 64 genes that reached 0 errors gives it exactly (otherwise,
    and with ``full_loo``, the whole path is run)."""
    from genesel.forward import forward_path
    from genesel.papers import tan2006_ch45 as T
    from genesel.rfe import SVMRFE
    from genesel.sparse_select import RVMSelector, SMLRSelector

    tr, te = T.thesis_split("alon", seed)
    m = te.size
    out = {"all genes correct": m - T._svm_errors(A, y, tr, te, np.arange(A.shape[1]))}
    order = SVMRFE(n_features_to_select=1, step=1, C=1.0).fit(A[tr], y[tr]).feature_order_
    test = np.asarray(forward_path(A[tr], y[tr], order, X_test=A[te], y_test=y[te], loo=False).test_errors)
    opt = np.flatnonzero(test == test.min()) + 1
    out.update({"RFE optimal subsets by test": opt.size, "RFE best test correct": m - test.min(),
                "RFE biomarker size by test": opt[0]})
    loo = np.asarray(forward_path(A[tr], y[tr], order, max_genes=None if full_loo else 64).loo_errors)
    if loo.min() > 0 and not full_loo:
        loo = np.asarray(forward_path(A[tr], y[tr], order).loo_errors)
    best = np.flatnonzero(loo == loo.min()) + 1
    out.update({"RFE LOO correct": tr.size - loo.min(), "RFE biomarker size by LOO": best[0],
                "RFE test correct at LOO biomarker": m - test[best[0] - 1]})
    if full_loo:
        out["RFE optimal subsets by LOO"] = best.size
    for name, sel in (("RVM", RVMSelector()), ("SMLR", SMLRSelector())):
        g = np.flatnonzero(sel.fit(A[tr], y[tr]).support_)
        out.update({f"{name} size": g.size, f"{name} test correct": m - T._svm_errors(A, y, tr, te, g)})
    return {k: int(v) for k, v in out.items()}


@pytest.fixture(scope="module")
def colon_partitions(colon):
    import warnings

    A, y = colon
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = [_chapter4_partition(A, y, s, full_loo=s < N_SPLITS_LOO) for s in range(N_SPLITS)]
    return pd.DataFrame(rows)


CH4_QUANTITIES = ("all genes correct", "RFE optimal subsets by test", "RFE best test correct",
                  "RFE biomarker size by test", "RFE LOO correct", "RFE biomarker size by LOO",
                  "RFE optimal subsets by LOO", "RFE test correct at LOO biomarker", "RVM size", "RVM test correct",
                  "SMLR size", "SMLR test correct")


def _thesis_chapter4():
    """The thesis' Colon numbers of Tables 4.2, 4.3 and 4.6 in the units of _chapter4_partition (30 test samples,
    32 training samples)."""
    from genesel.papers.tan2006_ch45 import PAPER

    n_opt, acc, size, all_acc = PAPER["table4_2"]["Colon"]
    loo_acc, loo_size, loo_opt = PAPER["table4_3"]["Colon"]
    t46 = PAPER["table4_6"]
    return {"all genes correct": _count(all_acc, 30), "RFE optimal subsets by test": n_opt,
            "RFE best test correct": _count(acc, 30), "RFE biomarker size by test": size,
            "RFE LOO correct": _count(loo_acc, 32), "RFE biomarker size by LOO": loo_size,
            "RFE optimal subsets by LOO": loo_opt,
            "RFE test correct at LOO biomarker": _count(t46["Colon", "SVM-RFE"][0], 30),
            "RVM size": t46["Colon", "RVM"][1], "RVM test correct": _count(t46["Colon", "RVM"][0], 30),
            "SMLR size": t46["Colon", "SMLR"][1], "SMLR test correct": _count(t46["Colon", "SMLR"][0], 30)}


def test_genesel_colon_partition_is_draw_0_of_the_distribution(colon_partitions):
    """Partition 0 of the distribution gives every number of the committed full run (seed 0, merged): the
    distribution is of the quantities the tables print, and genesel's values are one draw of it."""
    p = colon_partitions.iloc[0]
    ch4 = "tan2006_ch4"
    assert _numbers(_committed(ch4, "Colon: SVM test accuracy, all genes (Table 4.2)"))[0] == pytest.approx(
        100 * p["all genes correct"] / 30, abs=0.005)
    n_opt, acc, size = _numbers(_committed(
        ch4, "Colon: SVM-RFE, optimal subsets by test / test acc. / biomarker size (Table 4.2)"))
    assert (n_opt, _count(acc, 30), size) == (p["RFE optimal subsets by test"], p["RFE best test correct"],
                                              p["RFE biomarker size by test"])
    loo_acc, loo_size, loo_opt = _numbers(_committed(
        ch4, "Colon: SVM-RFE, LOO acc. / biomarker size / optimal subsets (Table 4.3)"))
    assert (_count(loo_acc, 32), loo_size, loo_opt) == (p["RFE LOO correct"], p["RFE biomarker size by LOO"],
                                                        p["RFE optimal subsets by LOO"])
    for name, key in (("SVM-RFE", "RFE test correct at LOO biomarker"), ("RVM", "RVM test correct"),
                      ("SMLR", "SMLR test correct")):
        acc, genes = _numbers(_committed(ch4, f"Colon: {name} biomarker set, test acc. / genes (Table 4.6)"))
        size = p["RFE biomarker size by LOO"] if name == "SVM-RFE" else p[f"{name} size"]
        assert (_count(acc, 30), genes) == (p[key], size), name


@pytest.mark.parametrize("quantity", CH4_QUANTITIES)
def test_colon_thesis_value_is_one_draw_of_the_partition_distribution(colon_partitions, quantity):
    """Each Colon number of Tables 4.2, 4.3 and 4.6 (SVM-RFE, RVM, SMLR rows) that genesel does not match lies in
    the central 95 % of its distribution over random 32/30 partitions of the thesis' sizes (Table 4.1): the
    difference is within partition-to-partition variation."""
    thesis = _thesis_chapter4()[quantity]
    values = colon_partitions[quantity].dropna()
    assert len(values) == (N_SPLITS_LOO if quantity == "RFE optimal subsets by LOO" else N_SPLITS)
    print(f"\nColon {quantity}: thesis {thesis}, genesel {values.iloc[0]}; {_describe(values, thesis)}")
    assert inside(values, thesis), f"{quantity}: the thesis' {thesis} lies outside; {_describe(values, thesis)}"


#: the accuracies whose difference the partition explains (``tan2006_ch45_claims.EXPLAINED``): counts correct of 30
EXPLAINING = ("all genes correct", "RFE test correct at LOO biomarker", "SMLR test correct")


@pytest.mark.parametrize("quantity", EXPLAINING)
def test_an_explaining_partition_spread_is_that_of_one_test_set(colon_partitions, quantity):
    """The partition explains an accuracy's difference only if its spread over partitions is no wider than the
    sampling noise of a single 30-sample test set: the central 95 % spans at most +-2 binomial standard deviations
    at the median accuracy. (The counts of optimal subsets, spread over [1, 1836], are not explained this way.)"""
    values = colon_partitions[quantity].to_numpy(dtype=float)
    lo, hi = np.percentile(values, [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2])
    p = np.median(values) / 30
    assert hi - lo <= 4 * np.sqrt(30 * p * (1 - p)), (quantity, lo, hi, p)


def test_colon_thesis_row_of_table_4_2_as_a_whole_is_rare(colon_partitions):
    """Table 4.2's Colon row read as one event: 25 of 30 correct, reached first with 416 genes or more. Each part lies
    inside its distribution, but together they are rare: fewer than 2 % of the partitions (none at all would have
    meant the row cannot come from the protocol)."""
    d = colon_partitions
    both = (d["RFE best test correct"] == 25) & (d["RFE biomarker size by test"] >= 416)
    print(f"\nColon Table 4.2 row as one event: {both.sum()} of {both.size} partitions")
    assert 0 < both.mean() < 0.02, both.mean()


# ----------------------------------------------------------------------------------------------------------------
# 2. Leave-one-fold-out (Tables 4.7, 5.3, 5.5, 5.6): the thesis' 10 folds are unknown
# ----------------------------------------------------------------------------------------------------------------


def _stratified_folds(y, seed):
    """genesel's folds (``tan2006_ch45.fold_cell``): stratified 10-fold, training parts sorted."""
    from genesel.experiments import stratified_kfold

    return [np.sort(tr) for tr, _ in stratified_kfold(y, 10, seed)]


def _plain_folds(y, seed):
    """Plain random 10-fold partitions (the thesis does not say its folds were stratified)."""
    rng = np.random.default_rng(seed)
    parts = np.array_split(rng.permutation(y.size), 10)
    return [np.setdiff1d(np.arange(y.size), te) for te in parts]


def _sets(A, y, trains, method):
    from genesel.forward import forward_path
    from genesel.rfe import SVMRFE
    from genesel.sparse_select import RVMSelector, SMLRSelector

    out = []
    for tr in trains:
        if method == "RVM":
            g = np.flatnonzero(RVMSelector().fit(A[tr], y[tr]).support_)
        elif method == "SMLR":
            g = np.flatnonzero(SMLRSelector().fit(A[tr], y[tr]).support_)
        else:  # SVM-RFE, biomarker set by LOO forward selection (exact early stop as in _chapter4_partition)
            order = SVMRFE(n_features_to_select=1, step=1, C=1.0).fit(A[tr], y[tr]).feature_order_
            path = forward_path(A[tr], y[tr], order, max_genes=64)
            if min(path.loo_errors) > 0:
                path = forward_path(A[tr], y[tr], order)
            g = path.biomarkers("loo")
        out.append(set(np.asarray(g).tolist()))
    return out


def _stability_draws(A, y, method, n, folds=_stratified_folds):
    import warnings

    from genesel.stability import selection_frequency, stability_score

    S, gene377, size = [], [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(n):
            sets = _sets(A, y, folds(y, seed), method)
            S.append(stability_score(sets))
            gene377.append(selection_frequency(sets).get(376, 0))  # the thesis numbers genes from 1
            size.append(np.mean([len(s) for s in sets]))
    return np.array(S), np.array(gene377), np.array(size)


def _thesis_S(method):
    from genesel.papers.tan2006_ch45 import PAPER

    return PAPER["table5_3"].get(("Colon", method), PAPER["table5_5"][("Colon", method)])


def test_colon_rvm_stability_of_the_thesis_is_out_of_reach_of_any_partition(colon):
    """Colon RVM: the thesis' S = 0.213 (Table 5.3) and its gene 377 in all 10 sets (Table 5.2) never occur over
    100 stratified and 50 plain random 10-fold partitions; genesel's committed S is draw 0. So the difference is not
    the partition: it cannot come from this protocol (merged standardisation, genesel's RVM) on this data."""
    A, y = colon
    S, g377, _ = _stability_draws(A, y, "RVM", N_FOLDINGS_RVM)
    S_plain, g377_plain, _ = _stability_draws(A, y, "RVM", N_FOLDINGS_RVM_PLAIN, _plain_folds)
    assert f"{S[0]:.2f}" == _committed("tan2006_ch5", "Colon: stability S of RVM (Tables 5.3, 5.5)")
    thesis = _thesis_S("RVM")
    for draws in (S, S_plain):
        assert not inside(draws, thesis), _describe(draws, thesis)
        assert draws.max() < thesis, _describe(draws, thesis)
    print(f"\nColon RVM S, stratified folds: {_describe(S, thesis)}\nColon RVM S, plain random folds: "
          f"{_describe(S_plain, thesis)}\ngene 377 in k of 10 RVM sets, k = 0..10: {np.bincount(g377, minlength=11)} "
          f"(stratified), {np.bincount(g377_plain, minlength=11)} (plain); genesel's committed run: {g377[0]}")
    assert max(g377.max(), g377_plain.max()) < 10, "gene 377 in all ten RVM sets: the thesis' Table 5.2 occurs"


def test_colon_rvm_stops_at_sets_of_lower_evidence_than_the_thesis_sets(colon):
    """Where the RVM gap comes from instead: genesel's RVM (Tipping & Faul's constructive maximisation of the Laplace
    evidence) stops at gene sets that are less probable under its own evidence than the thesis' sets. On each training
    part of the full run's 10 folds, an RVM restricted to one of the thesis' Table 5.1 sets (its evidence is one the
    full model reaches with every other gene pruned, so the two are comparable) is set against genesel's own fit: on
    5 of the 10 folds a thesis set is more than one nat (a factor e) more probable, and on those folds genesel's set
    lacks gene 377 in 3. A tighter tolerance (1e-6) gives the same sets, so the fits have stopped, not been cut
    short: the thesis' RVM reached better maxima of the same evidence, genesel's stops at lower ones that differ from
    fold to fold, and its S is low for that reason."""
    import warnings

    from genesel.papers.tan2006_ch45 import PAPER
    from genesel.rvm import RVM

    A, y = colon
    sets = [[1769 if g == 1969 else g for g in s] for s in PAPER["table5_1"]]  # 1969: a misprint (Table 5.2)
    thesis_sets = [sorted(g - 1 for g in s) for s in sets]  # the thesis numbers genes from 1
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for tr in _stratified_folds(y, 0):
            own = RVM(kernel=None).fit(A[tr], y[tr])
            tight = RVM(kernel=None, tol=1e-6, max_iter=20_000).fit(A[tr], y[tr])
            assert np.array_equal(own.support_, tight.support_)
            best = max(RVM(kernel=None).fit(A[np.ix_(tr, s)], y[tr]).log_marginal_likelihood_ for s in thesis_sets)
            rows.append({"genesel": own.log_marginal_likelihood_, "best thesis set": best,
                         "377 in genesel's set": bool(own.support_[376])})
    ev = pd.DataFrame(rows)
    print("\nColon RVM log evidence per fold of the full run:\n" + ev.round(2).to_string())
    worse = ev["best thesis set"] > ev["genesel"] + 1.0
    assert worse.sum() >= 5, ev
    assert (~ev.loc[worse, "377 in genesel's set"]).sum() >= 3, ev


def test_colon_smlr_stability_of_the_thesis_lies_in_the_lower_tail(colon):
    """Colon SMLR: the thesis' S = 0.243 lies at the low end of 60 stratified 10-fold partitions (genesel's committed
    0.28 is draw 0). Its average set of 30 genes (Table 4.7) lies above every partition's: the partition does not
    explain that either; SMLR's prior weight, which the thesis chose by cross-validation and does not give, would."""
    from genesel.papers.tan2006_ch45 import PAPER

    A, y = colon
    S, g377, size = _stability_draws(A, y, "SMLR", N_FOLDINGS_SMLR)
    thesis_size = PAPER["table4_7"]["Colon", "SMLR"][1]
    committed_size = _numbers(_committed("tan2006_ch4",
                                         "Colon: SMLR, leave-one-fold-out errors / avg size (Table 4.7)"))
    assert round(size[0], 1) == committed_size[1]
    print(f"\nColon SMLR mean set size: {_describe(size, thesis_size)}")
    assert size.max() < thesis_size, _describe(size, thesis_size)
    assert f"{S[0]:.2f}" == _committed("tan2006_ch5", "Colon: stability S of SMLR (Tables 5.3, 5.5)")
    thesis = _thesis_S("SMLR")
    print(f"\nColon SMLR S: {_describe(S, thesis)}; gene 377 in 10 of 10 sets in {np.mean(g377 == 10):.2f}")
    assert 0 < tails(S, thesis)[0] <= 0.05, _describe(S, thesis)  # rare, not impossible
    assert not inside(S, thesis), _describe(S, thesis)  # but outside the central 95 %


def test_colon_svm_rfe_stability_of_the_thesis(colon):
    """Colon SVM-RFE (biomarker set by LOO forward selection, as in Table 4.7): the thesis' S = 0.12 against 20
    stratified 10-fold partitions (genesel's committed 0.16 is draw 0)."""
    A, y = colon
    S, _, _ = _stability_draws(A, y, "SVM-RFE", N_FOLDINGS_SVMRFE)
    assert f"{S[0]:.2f}" == _committed("tan2006_ch5", "Colon: stability S of SVM-RFE (Tables 5.3, 5.5)")
    thesis = _thesis_S("SVM-RFE")
    print(f"\nColon SVM-RFE S: {_describe(S, thesis)}")
    assert inside(S, thesis), _describe(S, thesis)


def test_colon_all_genes_fold_errors_of_the_thesis_never_occur(colon):
    """Tables 4.7 and 5.6, Colon, all genes: the thesis' 17 leave-one-fold-out errors of the linear SVM (genesel's full
    run: 14) occur in none of 200 stratified and 200 plain random 10-fold partitions at C = 1: the folds do not
    explain it at that C. (The thesis chose C by cross-validation: see the test at a small C.)"""
    from genesel.papers import tan2006_ch45 as T
    from genesel.papers.tan2006_ch45 import PAPER

    A, y = colon
    every, samples = np.arange(A.shape[1]), np.arange(y.size)

    def total(trains):
        return sum(T._svm_errors(A, y, tr, np.setdiff1d(samples, tr), every) for tr in trains)

    errors = np.array([total(_stratified_folds(y, s)) for s in range(N_FOLDINGS_ALL_GENES)])
    plain = np.array([total(_plain_folds(y, s)) for s in range(N_FOLDINGS_ALL_GENES)])
    committed = _numbers(_committed("tan2006_ch4",
                                    "Colon: All genes, leave-one-fold-out errors / avg size (Table 4.7)"))
    assert errors[0] == committed[0]
    thesis = PAPER["table4_7"]["Colon", "All genes"][0]
    assert thesis == PAPER["table5_6"]["Colon", "All genes"][1]
    print(f"\nColon all genes, errors over 10 folds: thesis {thesis}, genesel {errors[0]}; stratified: "
          f"{_describe(errors, thesis)}; plain: {_describe(plain, thesis)}")
    for draws in (errors, plain):
        assert draws.max() < thesis, _describe(draws, thesis)


#: Colon 10-fold partitions for the all-genes errors at a small C
N_FOLDINGS_SMALL_C = 30


def test_colon_all_genes_fold_errors_of_the_thesis_at_a_small_C(colon):
    """The same protocol at C = 2.5e-4 (merged standardisation, all 2000 genes, stratified 10-fold) gives the thesis'
    17 errors as its median over 30 partitions; at C = 5e-4 at most 14, as at C = 1. The thesis chose C by
    cross-validation and gives neither its grid nor its C: the 17 errors are within the protocol's reach, so the
    difference is not "not from the protocol"; which C the thesis used stays open (the row stays unexplained)."""
    import warnings

    from genesel.papers import tan2006_ch45 as T
    from genesel.papers.tan2006_ch45 import PAPER

    A, y = colon
    every, samples = np.arange(A.shape[1]), np.arange(y.size)

    def total(trains, C):
        return sum(T._svm_errors(A, y, tr, np.setdiff1d(samples, tr), every, C=C) for tr in trains)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        small = np.array([total(_stratified_folds(y, s), 2.5e-4) for s in range(N_FOLDINGS_SMALL_C)])
        larger = np.array([total(_stratified_folds(y, s), 5e-4) for s in range(N_FOLDINGS_SMALL_C)])
    thesis = PAPER["table4_7"]["Colon", "All genes"][0]
    print(f"\nColon all genes at C = 2.5e-4: {_describe(small, thesis)}; at C = 5e-4: {_describe(larger, thesis)}")
    assert abs(np.median(small) - thesis) <= 1, _describe(small, thesis)
    assert inside(small, thesis), _describe(small, thesis)
    assert larger.max() < thesis, _describe(larger, thesis)


# ----------------------------------------------------------------------------------------------------------------
# 3. Leukemia, Table 4.6, SMLR: a fixed, published split, so no partition to blame
# ----------------------------------------------------------------------------------------------------------------

#: SMLR's prior weight as a fraction of the smallest one that keeps no gene (SMLRSelector's lam, lam_scale="max"):
#: the full grid of chapter 3 (0.5, 0.1, 0.01; its 0.001 does not converge in 200,000 sweeps) and points between
SMLR_LAMS = (0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01, 0.007)
#: the SVM's C on the biomarker set: from a margin that ignores the data (every sample a bound support vector) to a
#: hard margin (the sets are separable beyond C ~ 0.1)
SVM_CS = (1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, 10.0, 100.0)


def test_leukemia_smlr_no_prior_weight_gives_the_thesis_accuracy():
    """Leukemia SMLR (Table 4.6: 94.1 % = 32/34 with 20 genes; genesel 26/34 with 13 at lam = 0.1): along SMLR's
    regularisation path the biomarker set grows from 7 to 20 genes (the thesis' size), and no prior weight brings
    the SVM on its genes to 32 of the 34 test samples at any C of ``SVM_CS``; the one that keeps 20 genes gives 26/34
    at C = 1. The protocol's choices (SMLR's weight, the SVM's C; the split is the published one) are spanned."""
    import warnings

    from genesel.papers import tan2006_ch45 as T
    from genesel.papers.tan2006_ch45 import PAPER
    from genesel.sparse_select import SMLRSelector

    ds = T.thesis_data("golub")
    A, y = T.standardise(ds.X), ds.y
    tr, te = T.thesis_split("golub", 0)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lam in SMLR_LAMS:
            sel = SMLRSelector(lam=lam, max_iter=200_000, tol=1e-6).fit(A[tr], y[tr])
            g = np.flatnonzero(sel.support_)
            by_c = [te.size - T._svm_errors(A, y, tr, te, g, C=C) for C in SVM_CS]
            rows.append({"lam": lam, "genes": g.size, "correct": te.size - T._svm_errors(A, y, tr, te, g),
                         "best over C": max(by_c), "converged": bool(sel.estimator_.converged_)})
    path = pd.DataFrame(rows)
    print("\nLeukemia SMLR path:\n" + path.to_string(index=False))
    assert path.converged.all(), path
    acc, genes = PAPER["table4_6"]["Leukemia", "SMLR"]
    # genesel's committed row is the lam = 0.1 point of this path
    c_acc, c_genes = _numbers(_committed("tan2006_ch4", "Leukemia: SMLR biomarker set, test acc. / genes (Table 4.6)"))
    at = path.set_index("lam").loc[0.1]
    assert (at.genes, at.correct) == (c_genes, _count(c_acc, 34))
    assert path.genes.iloc[-1] == genes, f"the path does not reach the thesis' {genes} genes: {path}"
    assert path.correct.max() < _count(acc, 34), path
    assert path[path.genes == genes].correct.max() < _count(acc, 34), path
    assert path["best over C"].max() < _count(acc, 34), path  # no C either
