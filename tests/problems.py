"""Small synthetic problems shared by several test modules (tests/ is on the path: ``from problems import ...``)."""

import numpy as np


def golub_like(n=30, d=40, seed=0):
    """One class in three is +1; genes 0-4 are up and genes 5-7 down in class +1, the rest noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.arange(n) % 3 == 0, 1, -1)
    X[y > 0, :5] += 1.5
    X[y > 0, 5:8] -= 1.0
    return X, y


def s2n_by_hand(X, y):
    """Golub's signal-to-noise ratio (mu+ - mu-)/(sd+ + sd-) with population sds, class +1 positive."""
    p, n = X[y > 0], X[y < 0]
    return (p.mean(0) - n.mean(0)) / (p.std(0) + n.std(0))


def sparse_problem(m=60, f=300, n_rel=5, seed=7):
    """Labels from the sum of the first ``n_rel`` genes, which are also shifted by half a unit towards the label."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, f))
    y = np.where(X[:, :n_rel].sum(axis=1) > 0, 1, -1)
    X[:, :n_rel] += 0.5 * y[:, None]
    return X, y


def problem_p(shift=3.0, test=False):
    """Issue 25's problem P: 40 samples x 30 genes, class 1 shifted by ``shift`` sd on genes 0-2 (separable at 3),
    27 noise genes; with ``test=True`` also 40 test samples from the same distribution (seed 1): (X, y, X_test)."""
    y = np.r_[[0] * 20, [1] * 20]
    X = np.random.default_rng(0).normal(size=(40, 30))
    X[y == 1, :3] += shift
    if not test:
        return X, y
    Xt = np.random.default_rng(1).normal(size=(40, 30))
    Xt[y == 1, :3] += shift
    return X, y, Xt
