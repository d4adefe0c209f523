"""Notebook 06's cost estimate before it runs (genesel.leaderboard.cost): read from the committed full run, so a
catalogue entry needs no hand-kept cost; it counts exactly the cells the notebook's grids will run, scales with the
data's size, guesses for a method the run did not have, and a parameter choice far beyond the mode's budget gets
the warning."""

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from genesel.leaderboard import catalogue as K
from genesel.leaderboard import cells as C
from genesel.leaderboard import cost


def _costs(rows, inner_k=5):
    return pd.DataFrame(rows, columns=["dataset", "method", "n_samples", "n_genes", "cpu_per_fold"]), inner_k


@pytest.mark.registration("leaderboard method", "figures/leaderboard_results.csv")
def test_every_catalogue_method_has_a_committed_cost():
    table, inner_k = cost.committed_costs()
    board = set(K.method_names("binary"))  # the multi-class board's own methods are not run on two classes
    assert set(table["method"]) == board, set(table["method"]) ^ board
    assert inner_k == C.MODES["full"]["inner_k"]
    assert (table["cpu_per_fold"] > 0).all()


def test_every_method_of_the_multiclass_board_has_a_committed_run():
    """Issue 38: the multi-class board's full run is committed beside the binary one, every method of the board in
    it (those binary by construction as their "not applicable: binary only" rows are not in the summary)."""
    from genesel.leaderboard.tables import committed_table

    summary = pd.read_csv(committed_table("leaderboard_multiclass_results"))
    board = {m for m in K.method_names("multiclass") if not K.method(m).binary_only}
    assert set(summary["method"]) == board, set(summary["method"]) ^ board
    assert set(summary["dataset"]) == set(C.multiclass_expression_sets())


def test_a_committed_data_set_gives_its_own_cost_and_the_full_run_adds_up_to_the_record():
    """On the committed data sets the estimate is the committed cost: the whole full run (every data set x method
    x 50 folds, plus the .632+ cells) then adds up to what the run's record says it took (19.7 CPU h at 0.2.0) within
    the .632+ part's scaling."""
    import json

    from genesel.leaderboard.tables import committed_table

    summary = pd.read_csv(committed_table("leaderboard_results"))
    r = summary.iloc[7]
    c, how = cost.cell_cpu_seconds(r["method"], r["n_samples"], r["n_genes"], 5, quick=False)
    assert how == "committed" and c == pytest.approx(r["cpu_per_fold"])
    cv = 50 * summary["cpu_per_fold"].sum()
    note = json.load(open(committed_table("leaderboard_results").parent / "06_leaderboard_run.json"))["note"]
    assert "19.7 CPU h" in note
    assert 0.9 * 19.7 * 3600 < cv < 19.7 * 3600  # the .632+ cells are the rest


def test_the_scaling_follows_a_power_law_fitted_on_the_methods_own_sets():
    """Three committed sets on c = 2e-4 n^1.2 g^0.6 exactly: the fit recovers the law between them and beyond the
    largest, holds the smallest set's cost below it in samples, scales by (inner folds + 1) and, in quick mode, by
    the share of grid settings the quick grid keeps."""
    law = lambda n, g: 2e-4 * n ** 1.2 * g ** 0.6  # noqa: E731
    sizes = [(50, 2000), (80, 5000), (100, 12000), (40, 9000)]
    costs = _costs([(f"d{i}", "SVM (all genes)", n, g, law(n, g)) for i, (n, g) in enumerate(sizes)])
    c, how = cost.cell_cpu_seconds("SVM (all genes)", 60, 7000, 5, quick=False, costs=costs)
    assert how == "scaled" and c == pytest.approx(law(60, 7000), rel=1e-9)
    assert cost.cell_cpu_seconds("SVM (all genes)", 200, 20000, 5, False, costs)[0] == pytest.approx(law(200, 2e4),
                                                                                                     rel=1e-9)
    assert cost.cell_cpu_seconds("SVM (all genes)", 20, 8000, 5, False, costs)[0] == pytest.approx(
        law(40, 8000), rel=1e-9)  # not extrapolated below the smallest committed set
    # fewer genes than any committed set (quick mode's 300): half the cost of Colon's 62 samples is fixed, half grows
    for n in (17, 62, 109):
        small = cost.cell_cpu_seconds("SVM (all genes)", n, 300, 5, False, costs)[0]
        assert small == pytest.approx(law(62, 2000) * (0.5 + 0.5 * (n / 62) ** 1.2), rel=1e-9)
    assert cost.cell_cpu_seconds("SVM (all genes)", 60, 7000, 11, False, costs)[0] == pytest.approx(2 * c)
    m = K.CATALOGUE["SVM (all genes)"]
    ratio = len(m.settings("estimator", True)) / len(m.settings("estimator", False))
    assert ratio < 1
    assert cost.cell_cpu_seconds("SVM (all genes)", 60, 7000, 5, True, costs)[0] == pytest.approx(ratio * c)


def test_a_method_without_a_committed_row_costs_the_median_method_and_is_named():
    costs = _costs([("d0", "a", 50, 2000, 1.0), ("d0", "b", 50, 2000, 3.0), ("d0", "c", 50, 2000, 10.0)])
    c, how = cost.cell_cpu_seconds("new method", 50, 2000, 5, quick=False, costs=costs)
    assert how == "no committed cost" and c == pytest.approx(3.0)


def test_the_estimate_counts_the_cells_the_notebook_runs(mirror):
    methods = ["SVM (all genes)", "t-test + SVM"]
    kw = dict(n_repeats=2, n_folds=3, inner_k=3, max_genes=100)
    est0, _ = cost.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=[], n_jobs=1, **kw)
    cv = C.cv_cells(["alon"], methods, seed=0, quick=True, **kw)
    per = {m: cost.cell_cpu_seconds(m, 62, 100, 3, quick=True)[0] for m in methods}
    assert est0 - cost._OVERHEAD == pytest.approx(sum(per[c["method"]] for c in cv))
    est, what = cost.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=["alon"], n_jobs=1, **kw)
    boot = C.boot_cells(["alon"], list(C.DU2006_METHODS), n_boot=4, inner_k=3, seed=0, quick=True, max_genes=100)
    # the .632+ cells run on Díaz-Uriarte's view of the data where there is one (all its genes: no quick filter)
    genes = {c["view"]: C.load("alon", c["view"], c["max_genes"]).X.shape[1] for c in boot}
    assert genes == ({"diaz2006": 2000} if C.DU2006_VIEWS["alon"] else {None: 100})
    assert est - est0 == pytest.approx(sum(cost.cell_cpu_seconds(c["method"], 62, genes[c["view"]], 3, quick=True)[0]
                                           for c in boot))
    two, _ = cost.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=["alon"], n_jobs=2, **kw)
    assert two - cost._OVERHEAD == pytest.approx((est - cost._OVERHEAD) / 2)  # two workers on the machine's 2 cores
    assert "2 method(s)" in what and ".632+" in what and "committed" in what
    # Exercise 3's grid (another seed): the cross-validation cells of its methods once more
    again, what = cost.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=[], n_jobs=1,
                                         seed_methods=methods[:1], **kw)
    assert again - est0 == pytest.approx(sum(per[c["method"]] for c in cv if c["method"] == methods[0]))
    assert "Exercise 3 (another seed)" in what


def test_without_the_committed_table_the_notebook_says_it_cannot_estimate(mirror, tmp_path, monkeypatch):
    from genesel.papers.presentation import time_budget

    monkeypatch.setenv("GENESEL_COMMITTED_DIR", str(tmp_path))
    est, what = cost.estimated_seconds(["alon"], ["SVM (all genes)"], quick=True, n_repeats=1, n_folds=3,
                                       inner_k=3, max_genes=100, n_boot=4, boot_datasets=[])
    assert np.isnan(est) and "leaderboard_results.csv" in what and "GENESEL_COMMITTED_DIR" in what
    text = time_budget(est, True, quick_budget=cost.QUICK_BUDGET, full_budget=cost.FULL_BUDGET, what=what).data
    assert "not estimated" in text and "Warning" not in text


def test_quick_mode_is_within_its_budget_and_a_long_choice_gets_the_warning(mirror):
    from genesel.papers.presentation import time_budget

    quick = dict(quick=True, n_repeats=1, n_folds=3, inner_k=3, n_boot=8)
    methods = list(K.CATALOGUE)
    est, what = cost.estimated_seconds(["alon"], methods, max_genes=300, boot_datasets=["alon"], **quick)
    assert est <= cost.QUICK_BUDGET
    assert "Warning" not in time_budget(est, True, quick_budget=cost.QUICK_BUDGET, full_budget=cost.FULL_BUDGET).data
    # the same quick grids on all 12600 probes of Singh's prostate set, ten repeats: far beyond a first look
    long, _ = cost.estimated_seconds(["singh"], methods, max_genes=None, boot_datasets=["singh"],
                                     **{**quick, "n_repeats": 10})
    text = time_budget(long, True, quick_budget=cost.QUICK_BUDGET, full_budget=cost.FULL_BUDGET).data
    assert long > 2 * cost.QUICK_BUDGET and "Warning: this choice of parameters takes long" in text


def test_a_users_file_adds_its_preprocessing_in_every_training_part(mirror, tmp_path, monkeypatch):
    """The committed costs are of registered sets; a file's own preprocessing (TMM for counts: a tenth of a second
    per training part on a 109-cell .h5ad, which made the estimate 3.5 times too small) is timed on the file and
    added (inner folds + 1) times per split and worker."""
    from genesel.datasets import load_dataset

    alon = load_dataset("alon")
    frame = pd.DataFrame(alon.X[:, :50], index=alon.sample_ids, columns=alon.gene_ids[:50])
    frame.insert(0, "class", np.asarray(alon.classes)[(alon.y > 0).astype(int)])
    frame.to_csv(tmp_path / "mine.csv")
    ref = f"{tmp_path / 'mine.csv'}?label=class"
    assert cost.preprocessing_seconds("alon") == 0.0 and cost.preprocessing_seconds(ref) > 0
    kw = dict(quick=True, n_repeats=1, n_folds=3, inner_k=3, max_genes=None, n_boot=4, n_jobs=1)
    before, _ = cost.estimated_seconds([ref], ["SVM (all genes)"], boot_datasets=[], **kw)
    monkeypatch.setattr(cost, "preprocessing_seconds", lambda d, mg=None: 0.5)
    after, what = cost.estimated_seconds([ref], ["SVM (all genes)"], boot_datasets=[], **kw)
    per_cell = cost.cell_cpu_seconds("SVM (all genes)", 62, 50, 3, True)[0]
    assert after - cost._OVERHEAD == pytest.approx(3 * (per_cell + 0.5 * 4))
    assert after > before and "of it your file's preprocessing (fitted on every training part, once per worker" in what
    # the sentence states the total over the cells (on 78f62bd it read as the cost of one training part)
    from genesel.papers.presentation import format_seconds

    n_cells_parts = 3 * 4  # 3 outer folds x (3 inner + 1) training parts
    assert f"{format_seconds(0.5 * n_cells_parts)} CPU of it your file's preprocessing" in what
    # several methods: each of the 2 workers prepares a split once for the methods it runs (protocol.PREPARED)
    four = ["SVM (all genes)", "kNN (all genes)", "DLDA (all genes)", "Fisher + SVM"]
    got, what = cost.estimated_seconds([ref], four, boot_datasets=[], **{**kw, "n_jobs": 2})
    cells = sum(cost.cell_cpu_seconds(m, 62, 50, 3, True)[0] for m in four)
    assert got - cost._OVERHEAD == pytest.approx(3 * (cells + 2 * 0.5 * 4) / 2)
    assert f"{format_seconds(2 * 0.5 * n_cells_parts)} CPU of it your file's preprocessing" in what


def test_a_k_class_data_set_costs_k_times_the_binary_scaled_estimate():
    """Until the multi-class board's run is committed, a K-class set's cells are K one-vs-rest problems of the
    binary-scaled cost (cost.py's docstring: 4.4 times on Khan's SRBCT in quick mode, for 4 classes)."""
    from data_fetch import resolve

    one, _ = cost.estimated_seconds(["khan"], ["SVM (all genes)"], quick=True, n_repeats=1, n_folds=3, inner_k=3,
                                    max_genes=300, n_boot=8, boot_datasets=[], n_jobs=1)
    per_cell, _ = cost.cell_cpu_seconds("SVM (all genes)", 63, 300, 3, True)
    assert len(resolve("khan").counts) == 4
    assert one - cost._OVERHEAD == pytest.approx(3 * (4 * per_cell + cost.preprocessing_seconds("khan", 300) * 4),
                                                 rel=1e-6)


def test_a_first_run_counts_the_kernels_numba_still_has_to_compile(tmp_path, monkeypatch):
    """With no compiled kernel cached (a first run after installing: 107 CPU s of notebook 06's quick cells on a
    17-sample study against 10 s warm, 10 times its estimate), the time line adds the compilation and says so; a
    cache holding the kernels a run compiles adds nothing."""
    from numba.core import config

    import genesel
    from genesel.papers import presentation as P

    folder = tmp_path / "kernels"
    folder.mkdir()
    monkeypatch.setattr(config, "CACHE_DIR", str(folder))
    assert P.uncompiled_share() == 1.0
    cold = P.time_budget(30.0, True, quick_budget=cost.QUICK_BUDGET, full_budget=cost.FULL_BUDGET, what="x").data
    assert "compile genesel's numba kernels" in cold and f"about {P.format_seconds(30 + P.COMPILE_SECONDS / 2)}" in cold
    root = Path(genesel.__file__).resolve().parent
    sources = list(root.glob("*.py")) + list((root / "_core").glob("*.py"))
    declared = sum(1 for f in sources for line in f.read_text(encoding="utf-8").splitlines()
                   if line.lstrip().startswith("@njit(") and "cache=True" in line)
    assert declared >= 50  # the package's kernels, not a miscount
    old = folder / "genesel.stumps-0123456789abcdef"  # an older version's folder of one module: not counted
    old.mkdir()
    for i in range(int(0.9 * declared)):
        (old / f"k{i}.py311.nbi").touch()
    os.utime(old, (1, 1))
    current = folder / "genesel.stumps-fedcba9876543210"  # the folder the import touched: this version's
    current.mkdir()
    assert P.uncompiled_share() == 1.0
    for i in range(int(0.9 * declared)):
        (current / f"k{i}.py311.nbi").touch()
    assert P.uncompiled_share() == 0.0
    warm = P.time_budget(30.0, True, quick_budget=cost.QUICK_BUDGET, full_budget=cost.FULL_BUDGET, what="x").data
    assert "compile" not in warm and "about 30 s" in warm


def test_a_k_class_set_uses_the_multiclass_boards_committed_costs(mirror):
    """The multinomial logistic regression has no binary cost (it was counted as the median method, and it is 43 %
    of the multi-class board's run): on a K-class set it is scaled from the multi-class board's committed costs; on
    a set of that run at its own size that run's cost is used; a method with a binary cost elsewhere stays K times
    the binary-scaled cost (cost.py's docstring gives the leave-one-set-out check of that choice)."""
    from genesel.leaderboard.cells import load, outer_folds

    mtab, _ = cost.committed_costs("multiclass")
    lr = "multinomial L1 logistic regression"
    assert lr in set(mtab["method"]) and lr not in set(cost.committed_costs()[0]["method"])
    kw = dict(quick=False, n_repeats=1, n_folds=5, inner_k=5, n_boot=0, boot_datasets=[], n_jobs=1)
    est, what = cost.estimated_seconds(["nakayama"], [lr], max_genes=None, **kw)
    n, g = load("nakayama", None, None).X.shape
    mine = mtab[(mtab["method"] == lr) & (mtab["n_samples"] == n) & (mtab["n_genes"] == g)]
    assert len(mine) == 1 and "no committed cost" not in what
    assert est - cost._OVERHEAD == pytest.approx(outer_folds("nakayama", 5, None) * float(mine["cpu_per_fold"].iloc[0]))
    # a smaller view of a K-class set: scaled on the multi-class table, not the median binary method
    small, what = cost.estimated_seconds(["nakayama"], [lr], max_genes=2000, **kw)
    scaled = cost.cell_cpu_seconds(lr, n, 2000, 5, False, (mtab, 5))
    assert scaled[1] == "scaled" and "no committed cost" not in what
    assert small - cost._OVERHEAD == pytest.approx(outer_folds("nakayama", 5, 2000) * scaled[0])
