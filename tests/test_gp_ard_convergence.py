"""GP-ARD fits at their defaults reach their convergence test on real separable folds (issue 39).

The leaderboard's GP-ARD-RFE (``GPARDRFE(n_folds=5, n_restarts=0)``, the catalogue's setting) on Subramanian's first
outer training part (40 x 10,100, preprocessed as the cells do): these folds are separable, their evidence rises with
v0 to its upper bound, and a first-round fold fit climbs on that face of the box, recruiting genes, until the box's
KKT conditions hold (:mod:`genesel.gp`, "Separable training folds"). With the former cap of 2,000 iterations that fit
stopped at the cap, not converged (``benchmarks/check_gp_ard_convergence.py``: the one capped fit of the 20 binary
sets); it converges at 2,885. The test fails if the default cap stops any fold fit of any round, and checks that the
cap changes nothing else: the fits that converge under the old cap take the same iterations under the new one
(L-BFGS-B's path does not depend on its cap).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest


@pytest.fixture(scope="module")
def subramanian_part(mirror):
    from genesel.experiments import nested_cv
    from genesel.leaderboard import cells as C
    from genesel.leaderboard.protocol import prepare

    task = C.load("subramanian")
    mode = C.MODES["full"]
    tr, te, _ = nested_cv(task.y, mode["n_folds"], mode["inner_k"], 0, repeat=0)[0]
    Xa, _, _ = prepare(task.prep, task.X, tr, te)
    return Xa, task.y[tr], C.fold_seed(0, 0, 0)


def test_the_default_gp_ard_rfe_converges_on_a_separable_real_fold(subramanian_part):
    from genesel.gp_ard_select import GPARDRFE

    X, y, seed = subramanian_part
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = GPARDRFE(n_folds=5, n_restarts=0, random_state=seed).fit(X, y)
        old = GPARDRFE(n_folds=5, n_restarts=0, random_state=seed, max_iter=2000).fit(X, y)
    first_new, first_old = np.asarray(new.fold_n_iter_[0]), np.asarray(old.fold_n_iter_[0])
    assert not np.asarray(old.fold_converged_[0]).all()  # the old cap stopped a first-round fit: this fold tests it
    assert all(np.asarray(c).all() for c in new.fold_converged_), new.fold_n_iter_
    assert first_new.max() > 2000
    done = np.asarray(old.fold_converged_[0])
    np.testing.assert_array_equal(first_new[done], first_old[done])
