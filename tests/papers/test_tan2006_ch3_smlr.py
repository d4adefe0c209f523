"""05a's SMLR reaches its optimality test on Colon under the thesis' preprocessing (unlogged values, z-scored on
the training part), where SMLR's default cap of 20,000 sweeps stopped it at small lambda (7 of 10 folds of the
0.2.0 full run had a capped fit)."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

pytestmark = pytest.mark.usefixtures("mirror")


def test_05a_smlr_converges_on_a_colon_training_part_at_the_smallest_lambda_of_its_grid():
    from genesel.datasets import load_dataset
    from genesel.papers import tan2006_ch3 as T

    ds = load_dataset("alon")
    tr = np.r_[0:28, 34:62]  # a training part of 56 samples, as one of 10 folds leaves
    est, grid = T._estimator("SMLR", {"kernel": "linear"}, ds.n_genes, seed=0, quick=False)
    A = T.thesis_preprocessing().fit(ds.X[tr]).transform(ds.X[tr])
    smallest = min(grid["lam"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clone(est).set_params(lam=smallest).fit(A, ds.y[tr])  # raised at 20,000 sweeps before the budget
    with pytest.warns(ConvergenceWarning, match="stopped at max_iter=20000"):
        clone(est).set_params(lam=smallest, max_iter=20000).fit(A, ds.y[tr])
