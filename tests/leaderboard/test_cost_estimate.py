"""Notebook 06's cost estimate before it runs (genesel.leaderboard.report.estimated_seconds): every method has a
measured cost in both modes, the estimate counts exactly the cells the notebook's grids will run, it scales with
the data's size, and a parameter choice far beyond the mode's budget gets the warning."""

import numpy as np
import pytest

from genesel.leaderboard import catalogue as K
from genesel.leaderboard import cells as C
from genesel.leaderboard import report as R


@pytest.mark.registration("leaderboard method", "CPU_PER_FOLD_FULL", "CPU_PER_FOLD_QUICK")
def test_every_catalogue_method_has_a_measured_cost_in_both_modes():
    for table in (R.CPU_PER_FOLD_FULL, R.CPU_PER_FOLD_QUICK):
        assert set(table) == set(K.CATALOGUE), (set(K.CATALOGUE) ^ set(table))
        assert all(np.isfinite(v) and v > 0 for v in table.values())


def test_a_cells_cost_scales_with_samples_times_genes_and_the_fits_of_an_outer_fold():
    m = "SVM (all genes)"
    n0, g0, k0 = R.CPU_REFERENCE["full"]
    base = R.cell_cpu_seconds(m, n0, g0, k0, quick=False)
    assert base == pytest.approx(R.CPU_PER_FOLD_FULL[m])
    assert R.cell_cpu_seconds(m, 2 * n0, g0, k0, quick=False) == pytest.approx(2 * base)
    assert R.cell_cpu_seconds(m, n0, g0 // 2, k0, quick=False) == pytest.approx(base * (g0 // 2) / g0)
    assert R.cell_cpu_seconds(m, n0, g0, 2 * k0 + 1, quick=False) == pytest.approx(2 * base)  # 2 (k0 + 1) fits


def test_the_estimate_counts_the_cells_the_notebook_runs(mirror):
    methods = ["SVM (all genes)", "t-test + SVM"]
    kw = dict(n_repeats=2, n_folds=3, inner_k=3, max_genes=100)
    est0, _ = R.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=[], n_jobs=1, **kw)
    cv = C.cv_cells(["alon"], methods, seed=0, quick=True, **kw)
    per = {m: R.cell_cpu_seconds(m, 62, 100, 3, quick=True) for m in methods}
    assert est0 - R._OVERHEAD == pytest.approx(sum(per[c["method"]] for c in cv))
    est, what = R.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=["alon"], n_jobs=1, **kw)
    boot = C.boot_cells(["alon"], list(C.DU2006_METHODS), n_boot=4, inner_k=3, seed=0, quick=True, max_genes=100)
    assert est - est0 == pytest.approx(sum(R.cell_cpu_seconds(c["method"], 62, 100, 3, quick=True) for c in boot))
    two, _ = R.estimated_seconds(["alon"], methods, quick=True, n_boot=4, boot_datasets=["alon"], n_jobs=2, **kw)
    assert two - R._OVERHEAD == pytest.approx((est - R._OVERHEAD) / 2)  # two workers on the machine's 2 cores
    assert "2 method(s)" in what and ".632+" in what


def test_quick_mode_is_within_its_budget_and_a_long_choice_gets_the_warning(mirror):
    from genesel.papers.presentation import time_budget

    quick = dict(quick=True, n_repeats=1, n_folds=3, inner_k=3, n_boot=8)
    methods = list(K.CATALOGUE)
    est, what = R.estimated_seconds(["alon"], methods, max_genes=300, boot_datasets=["alon"], **quick)
    assert est <= R.QUICK_BUDGET
    assert "Warning" not in time_budget(est, True, quick_budget=R.QUICK_BUDGET, full_budget=R.FULL_BUDGET).data
    # the same quick grids on all 12600 probes of Singh's prostate set, ten repeats: far beyond a first look
    long, _ = R.estimated_seconds(["singh"], methods, max_genes=None, boot_datasets=["singh"],
                                  **{**quick, "n_repeats": 10})
    text = time_budget(long, True, quick_budget=R.QUICK_BUDGET, full_budget=R.FULL_BUDGET).data
    assert long > 2 * R.QUICK_BUDGET and "Warning: this choice of parameters takes long" in text
