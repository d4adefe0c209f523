"""genesel.leaderboard.status: done cells are found under the grid's own keys, their measured CPU is summed, and
a cell not yet run is estimated from the same method on the same data, else from the method's cost on other data
scaled by samples x genes (low) and samples² x genes (high)."""

import numpy as np
import pytest

from genesel.experiments import run_grid
from genesel.leaderboard import status as S
from genesel.leaderboard.cells import cv_cell

METHODS = ["S2N + weighted voting", "kNN (all genes)"]


def test_status_counts_done_cells_and_estimates_the_rest(mirror, tmp_path):
    cells = S.run_cells("quick", datasets=["alon", "golub"], methods=METHODS)["cv"]
    assert len(cells) == 2 * 2 * 3  # 2 data sets x 2 methods x 1 repeat of 3 folds
    first = [c for c in cells if c["dataset"] == "alon" and c["fold"] in (0, 1)]
    res = run_grid(first, cv_cell, cache_dir=tmp_path, progress=False)
    t = S.status(tmp_path, "quick", datasets=["alon", "golub"], methods=METHODS)
    cv = t[t["grid"] == "cv"]
    assert int(cv["done"].sum()) == 4 and len(cv) == 12
    measured = res.set_index(["method", "fold"])["cpu_seconds"]
    for m in METHODS:
        a = cv[(cv["dataset"] == "alon") & (cv["method"] == m)]
        done = a[a["done"]]
        assert np.allclose(sorted(done["cpu"]), sorted(measured.loc[m].to_numpy()))
        rest = a[~a["done"]]  # fold 2 of alon: the mean of folds 0 and 1
        assert (rest["estimated"] == "same method and data").all()
        assert np.allclose(rest["cpu"], measured.loc[m].mean()) and np.allclose(rest["cpu_high"], rest["cpu"])
        g = cv[(cv["dataset"] == "golub") & (cv["method"] == m)]
        n0, g0 = done[["n", "genes"]].iloc[0]
        n1, g1 = g[["n", "genes"]].iloc[0]
        low = (measured.loc[m] / (n0 * g0)).mean() * n1 * g1
        high = (measured.loc[m] / (n0 * n0 * g0)).mean() * n1 * n1 * g1
        assert (g["estimated"] == "method, scaled").all()
        assert np.allclose(g["cpu"], low) and np.allclose(g["cpu_high"], max(low, high))
    text = S.summary_text(t, cores=2)
    assert "4 of " in text and "cells done" in text


def test_a_cell_of_other_code_counts_as_not_done(mirror, tmp_path, monkeypatch):
    cells = S.run_cells("quick", datasets=["alon"], methods=METHODS[:1])["cv"][:1]
    run_grid(cells, cv_cell, cache_dir=tmp_path, progress=False)
    assert int(S.status(tmp_path, "quick", datasets=["alon"], methods=METHODS[:1])["done"].sum()) == 1
    from genesel.leaderboard import keys

    monkeypatch.setattr(cv_cell, "cache_code", lambda cell: "other code")
    assert int(S.status(tmp_path, "quick", datasets=["alon"], methods=METHODS[:1])["done"].sum()) == 0
    monkeypatch.setattr(cv_cell, "cache_code", keys.cell_code)


def test_the_command_line_prints_the_summary(mirror, tmp_path, capsys):
    assert S.main(["--cache", str(tmp_path), "--mode", "quick", "--methods", METHODS[0], "--cores", "1"]) == 0
    out = capsys.readouterr().out
    assert "0 of" in out and "cross-validation" in out and ".632+" in out
    with pytest.raises(SystemExit):
        S.main(["--mode", "medium"])


def test_the_rate_of_the_last_hour():
    import pandas as pd

    t = pd.DataFrame({"grid": "cv", "dataset": "d", "method": "m", "done": [True, True, True, False],
                      "cpu": [100.0, 200.0, 50.0, 360.0], "cpu_high": [100.0, 200.0, 50.0, 720.0],
                      "finished": [400.0, 3000.0, 4000.0, float("nan")], "estimated": "measured"})
    n, cpu, per_s, running = S.recent_rate(t, now=4100.0)  # the first cell finished more than an hour before
    # without wall times each cell ran for its CPU seconds: 200 s and 50 s, apart
    assert (n, cpu, running) == (2, 250.0, 250.0) and per_s == pytest.approx(1.0)
    assert S.recent_rate(t, now=9000.0) is None
    text = S.summary_text(t, cores=2, now=4100.0)
    assert "the last hour: 2 cells finished" in text and "running for 4 min of it" in text


def test_the_rate_counts_the_time_the_run_ran_not_the_hour():
    """Two workers busy for the last 20 minutes of an hour after 40 idle ones (a run resumed): 2 CPU seconds per
    second while running, not 0.67; a cell begun before the hour counts with its share inside it."""
    import pandas as pd

    now = 10_000.0
    fin = [now - 1200 + 300 * (i + 1) for i in range(4)]  # worker A: four cells of 300 s in the last 20 minutes
    fin += [now - 1200 + 600 * (i + 1) for i in range(2)]  # worker B: two cells of 600 s
    t = pd.DataFrame({"grid": "cv", "dataset": "d", "method": "m", "done": True,
                      "cpu": [300.0] * 4 + [600.0] * 2, "wall": [300.0] * 4 + [600.0] * 2, "finished": fin,
                      "estimated": "measured"})
    n, cpu, per_s, running = S.recent_rate(t, now=now)
    assert (n, cpu, running) == (6, 2400.0, 1200.0) and per_s == pytest.approx(2.0)
    # a cell of 2 h that ended 10 minutes ago: only its 50 minutes inside the hour count, and it ran for all of them
    one = pd.DataFrame({"grid": "cv", "dataset": "d", "method": "m", "done": True, "cpu": [7200.0],
                        "wall": [7200.0], "finished": [now - 600.0], "estimated": "measured"})
    n, cpu, per_s, running = S.recent_rate(one, now=now)
    assert (cpu, running) == (3000.0, 3000.0) and per_s == pytest.approx(1.0)


def test_exercise_3s_methods_are_named_not_timed_and_its_grid_is_counted():
    """Exercise 3 (another seed) reruns named cheap methods, the same on any machine; a run restricted to other
    methods gets its cheapest by the committed run's cost (the same list however often it is asked), never a
    two-class-only method on the multi-class board; `genesel status` counts the grid, seed + 1."""
    from genesel.leaderboard import exercises as X
    from genesel.leaderboard.catalogue import CATALOGUE, method_names
    from genesel.leaderboard.cost import cell_cpu_seconds

    for board in ("binary", "multiclass"):
        assert X.seed_methods(method_names(board), board) == list(X.SEED_METHODS)
    mine = ["GP-ARD-RFE + GP", "kNN (all genes)", "MSVM-RFE + SVM", "S2N + weighted voting", "Fisher + SVM"]
    got = X.seed_methods(mine, "binary")
    assert got[0] == "kNN (all genes)" and len(got) == 4 and X.seed_methods(mine[::-1], "binary") == got
    cost = {m: cell_cpu_seconds(m, 100, 5000, 5, False)[0] for m in mine}
    left_out = (set(mine) - set(got)).pop()
    assert all(cost[left_out] >= cost[m] for m in got[1:])  # the dearest of the others is the one left out
    two_class = [m for m in method_names("multiclass") if CATALOGUE[m].binary_only]
    assert two_class and not set(X.seed_methods(two_class + ["DLDA (all genes)"], "multiclass")) & set(two_class)
    g = S.run_cells("full", datasets=["alon"])
    assert {c["method"] for c in g["seed"]} == set(X.SEED_METHODS) and {c["seed"] for c in g["seed"]} == {1}
    assert len(g["seed"]) == 4 * 10 * 5 and {c["seed"] for c in g["cv"]} == {0}
