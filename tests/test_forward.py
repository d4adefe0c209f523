"""genesel.forward: the incremental SVM path against its plain-Python twin and against refitting from scratch;
optimal subsets and the biomarker set as the thesis defines them (every tie)."""

import numpy as np
import pytest
from sklearn.svm import SVC

from genesel.forward import ForwardPath, _svm_forward, forward_path, optimal_sizes
from genesel.svm import LinearSVM
from naive import forward as naive_forward
from problems import golub_like


@pytest.fixture(scope="module")
def problem():
    X, y = golub_like(n=24, d=12, seed=3)
    Xte, yte = golub_like(n=9, d=12, seed=4)
    return X, y, Xte, yte


def test_kernel_matches_naive_twin(problem):
    X, y, Xte, _ = problem
    order = np.arange(12)[::-1]
    Xt, Tt = np.ascontiguousarray(X[:, order].T), np.ascontiguousarray(Xte[:, order].T)
    yf = np.where(y > 0, 1.0, -1.0)
    units = np.arange(25), np.arange(24)  # one unit per sample: leave-one-out
    td, ld, gap = _svm_forward(Xt, yf, Tt, 1.0, 1e-10, 10**7, True, *units)
    td0, ld0 = naive_forward.svm_forward(Xt, yf, Tt, 1.0, 1e-10, 10**7, True, *units)
    assert gap < 1e-10
    np.testing.assert_allclose(td, td0, atol=1e-6)
    np.testing.assert_allclose(ld, ld0, atol=1e-6)


def test_gradients_carried_along_a_long_path_match_the_twin():
    """The left-out fits carry their dual gradients from prefix to prefix (rank-one updates, an exact recomputation
    every ``_EXACT_GRADIENT_EVERY`` prefixes): along a path of more than two such periods on 12 samples, every
    leave-one-out decision is the twin's (each prefix and left-out sample solved afresh).
    From the eighth gene on: with fewer, every support vector of a left-out fit can sit at C, and the threshold is
    then any point of an interval (LIBSVM's midpoint depends on where within the tolerance a solve stopped; the
    warm-started kernel differs from the twin there whatever it carries)."""
    from genesel.forward import _EXACT_GRADIENT_EVERY

    X, y = golub_like(n=12, d=2 * _EXACT_GRADIENT_EVERY + 4, seed=11)
    X[:, 8:] *= 0.3  # many weak genes: the multipliers keep moving along the path
    Xt = np.ascontiguousarray(X.T)
    yf = np.where(y > 0, 1.0, -1.0)
    units = np.arange(13), np.arange(12)
    _, ld, gap = _svm_forward(Xt, yf, np.zeros((Xt.shape[0], 0)), 0.5, 1e-10, 10**7, True, *units)
    _, ld0 = naive_forward.svm_forward(Xt, yf, np.zeros((Xt.shape[0], 0)), 0.5, 1e-10, 10**7, True, *units)
    assert gap < 1e-10
    np.testing.assert_allclose(ld[8:], ld0[8:], atol=1e-6)


def test_snapping_residues_matches_the_twin():
    """A multiplier within rounding of 0 or of C goes on that bound (G moved with it), others stay, bit for bit as the
    twin; afterwards none of them counts as free."""
    from genesel.forward import _snap_residues

    rng = np.random.default_rng(5)
    A = rng.normal(size=(8, 3))
    K, y, C = A @ A.T, np.array([1.0, -1, 1, -1, 1, -1, 1, -1]), 0.5
    a = np.array([0.3, 1e-17, 0.5, C - 1e-17, 0.2, 0.0, 4e-13, 0.1])
    G = rng.normal(size=8)
    a_ref, G_ref = naive_forward.snap_residues(K.tolist(), y.tolist(), C, a.tolist(), G.tolist())
    _snap_residues(K, y, C, a, G)
    assert a.tolist() == a_ref and G.tolist() == G_ref
    assert a[1] == 0.0 and a[3] == C and a[6] == 0.0 and a[0] == 0.3  # 4e-13 < 1e-12 x 0.5: a residue too
    free = (a > 0) & (a < C)
    assert np.all(a[free] > 1e-12 * a.max()) and np.all(C - a[free] > 1e-12 * a.max())


def test_path_equals_refitting_from_scratch(problem):
    X, y, Xte, yte = problem
    order = np.array([5, 0, 7, 1, 11, 2, 3])
    fast = forward_path(X, y, order, X_test=Xte, y_test=yte, C=0.5, tol=1e-10)
    slow = forward_path(X, y, order, X_test=Xte, y_test=yte, estimator=LinearSVM(C=0.5, tol=1e-10))
    np.testing.assert_array_equal(fast.test_errors, slow.test_errors)
    np.testing.assert_array_equal(fast.loo_errors, slow.loo_errors)
    # and against scikit-learn's SVC, refitted for every prefix and left-out sample
    for k in (1, 4, 7):
        g = order[:k]
        errs = 0
        for i in range(y.size):
            keep = np.arange(y.size) != i
            svc = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X[np.ix_(keep, g)], y[keep])
            errs += int(svc.predict(X[i : i + 1, g])[0] != y[i])
        assert errs == fast.loo_errors[k - 1]
        svc = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X[:, g], y)
        assert int(np.sum(svc.predict(Xte[:, g]) != yte)) == fast.test_errors[k - 1]


def test_optimal_subsets_report_every_tie():
    assert optimal_sizes([1, 2, 3, 4, 5], [3, 1, 2, 1, 1]).tolist() == [2, 4, 5]
    path = ForwardPath(order=np.arange(5), sizes=np.arange(1, 6), n_train=10, n_test=4, classes=np.array([-1, 1]),
                       test_errors=np.array([2, 1, 1, 0, 0]), loo_errors=np.array([3, 0, 1, 0, 2]))
    s = path.summary("loo")
    assert s["n_optimal"] == 2 and s["optimal_sizes"] == [2, 4] and s["biomarker_size"] == 2
    assert s["accuracy"] == 100.0 and s["test_accuracy_at_biomarker"] == 75.0
    t = path.summary("test")
    assert t["n_optimal"] == 2 and t["biomarker_size"] == 4 and t["accuracy"] == 100.0
    np.testing.assert_array_equal(path.biomarkers("loo"), [0, 1])


def test_seeded_and_deterministic(problem):
    X, y, Xte, yte = problem
    a = forward_path(X, y, np.arange(12), X_test=Xte, y_test=yte)
    b = forward_path(X, y, np.arange(12), X_test=Xte, y_test=yte)
    np.testing.assert_array_equal(a.loo_decision, b.loo_decision)
    np.testing.assert_array_equal(a.test_decision, b.test_decision)


@pytest.mark.parametrize("kw, msg", [
    (dict(order=[0, 0, 1]), "twice"), (dict(order=[0, 99]), "outside"), (dict(order=[]), "non-empty"),
    (dict(order=[0, 1], max_genes=5), "max_genes"), (dict(order=[0, 1], estimator="gp"), "estimator"),
    (dict(order=[0, 1], C=-1.0), "C must"),
])
def test_bad_input(problem, kw, msg):
    X, y, _, _ = problem
    with pytest.raises(ValueError, match=msg):
        forward_path(X, y, **kw)


def test_refuses_missing_test_labels(problem):
    X, y, Xte, _ = problem
    with pytest.raises(ValueError, match="both X_test and y_test"):
        forward_path(X, y, [0, 1], X_test=Xte)
    with pytest.raises(ValueError, match="not computed"):
        forward_path(X, y, [0, 1]).summary("test")
