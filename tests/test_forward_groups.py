"""genesel.forward with ``groups``: leave-one-group-out forward selection (a paired study's patient left out whole, so
no sample is scored by a model trained on its partner). Every sample its own group is plain LOO bit for bit; the
incremental kernel agrees with its from-scratch twin, with scikit-learn's SVC on every LeaveOneGroupOut split and,
for the refit route, with cross_val_predict; twins of one patient fool plain LOO and not the grouped one."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import LeaveOneGroupOut, cross_val_predict
from sklearn.svm import SVC

from genesel._core.resampling import group_units
from genesel.forward import _svm_forward, forward_path
from genesel.svm import LinearSVM
from naive import forward as naive_forward
from problems import golub_like


def paired(seed=0, n_pairs=8, d=6, shift=0.6):
    """A paired study: patient j gives a normal (-1) and a tumour (+1) sample that share a patient effect; genes 0-1
    carry the class. Rows shuffled, so partners are not adjacent; groups are the patients' names."""
    rng = np.random.default_rng(seed)
    y = np.tile([-1, 1], n_pairs)
    groups = np.repeat([f"patient{j:02d}" for j in range(n_pairs)], 2)
    X = np.repeat(rng.normal(size=(n_pairs, d)), 2, axis=0) + 0.5 * rng.normal(size=(2 * n_pairs, d))
    X[:, :2] += shift * y[:, None]
    p = rng.permutation(2 * n_pairs)
    return X[p], y[p], groups[p]


def three_classes(n=21, d=8, seed=0, labels=("a", "b", "c")):
    rng = np.random.default_rng(seed)
    y_idx = np.arange(n) % 3
    X = rng.normal(size=(n, d))
    X[y_idx == 1, :2] += 1.2
    X[y_idx == 2, 2:4] += 1.2
    return X, np.asarray(labels)[y_idx]


def twins(seed, n_patients=15, d=20):
    """Two near-identical arrays per patient, one random label per patient, no gene related to the label."""
    rng = np.random.default_rng(seed)
    X = np.repeat(rng.normal(size=(n_patients, d)), 2, axis=0) + 0.1 * rng.normal(size=(2 * n_patients, d))
    y = np.repeat(rng.permutation(np.r_[[-1] * (n_patients // 2), [1] * (n_patients - n_patients // 2)]), 2)
    return X, y, np.arange(2 * n_patients) // 2


# ------------------------------------------------------------------------------------------------ every sample a group
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_one_sample_per_group_is_plain_loo_bit_for_bit(C):
    X, y = golub_like(n=24, d=12, seed=3)
    Xte, yte = golub_like(n=9, d=12, seed=4)
    order = np.array([5, 0, 7, 1, 11, 2, 3, 4])
    plain = forward_path(X, y, order, X_test=Xte, y_test=yte, C=C)
    for groups in (np.arange(24), np.arange(24)[::-1], np.array([f"s{i}" for i in np.random.default_rng(0)
                                                                 .permutation(24)])):
        grouped = forward_path(X, y, order, X_test=Xte, y_test=yte, C=C, groups=groups)
        assert np.array_equal(grouped.loo_decision, plain.loo_decision)
        assert np.array_equal(grouped.test_decision, plain.test_decision)
        assert np.array_equal(grouped.loo_errors, plain.loo_errors) and grouped.n_groups == 24
    assert plain.n_groups is None


def test_one_sample_per_group_is_plain_loo_bit_for_bit_three_classes():
    X, y = three_classes(seed=1)
    Xte, yte = three_classes(n=9, seed=2)
    order = np.arange(8)[::-1]
    plain = forward_path(X, y, order, X_test=Xte, y_test=yte)
    grouped = forward_path(X, y, order, X_test=Xte, y_test=yte, groups=np.arange(21))
    assert grouped.loo_decision.shape == (8, 21, 3)
    assert np.array_equal(grouped.loo_decision, plain.loo_decision)
    assert np.array_equal(grouped.test_decision, plain.test_decision)
    # and the refit route
    est = LogisticRegression(C=0.5)
    a = forward_path(X, y, order[:2], estimator=est)
    b = forward_path(X, y, order[:2], estimator=est, groups=np.arange(21))
    assert np.array_equal(a.loo_decision, b.loo_decision)


# ------------------------------------------------------------------------------------------------ the kernel and twin
def test_kernel_matches_naive_twin_with_groups_of_several_sizes():
    X, y = golub_like(n=24, d=10, seed=8)
    Xte, _ = golub_like(n=5, d=10, seed=9)
    rng = np.random.default_rng(2)
    groups = rng.permutation(np.repeat(np.arange(12), [1, 2, 3, 1, 2, 3, 2, 2, 1, 3, 2, 2]))  # sizes 1-3, scattered
    start, members = group_units(groups, 24)
    assert start.size == 13 and sorted(members.tolist()) == list(range(24))
    for u in range(12):
        assert set(groups[members[start[u] : start[u + 1]]].tolist()) == {u}
    order = np.arange(10)[::-1]
    Xt, Tt = np.ascontiguousarray(X[:, order].T), np.ascontiguousarray(Xte[:, order].T)
    yf = np.where(y > 0, 1.0, -1.0)
    for C in (0.3, 3.0):
        td, ld, gap = _svm_forward(Xt, yf, Tt, C, 1e-10, 10**7, True, start, members)
        td0, ld0 = naive_forward.svm_forward(Xt, yf, Tt, C, 1e-10, 10**7, True, start, members)
        assert gap < 1e-10
        np.testing.assert_allclose(td, td0, atol=1e-6)
        np.testing.assert_allclose(ld, ld0, atol=1e-6)


# ------------------------------------------------------------------------------------------------ scikit-learn
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_grouped_loo_is_svc_on_every_leave_one_group_out_split(C):
    """Every prefix's LOO decision values are those of SVC(kernel="linear") refitted on the LeaveOneGroupOut split
    that holds the sample out. Compared where the optimum is unique (the SVC has a free support vector; otherwise
    the bias is any point of an interval); within 1e-5, the agreement LIBSVM's single-precision kernel cache allows
    (at C = 10 its solutions are 7e-5 off the exact optimum here, at C <= 1 within 5e-6)."""
    X, y, groups = paired(seed=0)
    order = np.array([0, 3, 1, 4, 2, 5])
    path = forward_path(X, y, order, C=C, groups=groups)
    assert path.n_groups == 8 and path.n_train == 16
    n_unique = 0
    for k in range(1, 7):
        g = order[:k]
        errors, all_unique = 0, True
        for train, test in LeaveOneGroupOut().split(X, y, groups):
            svc = SVC(kernel="linear", C=C, tol=1e-10).fit(X[np.ix_(train, g)], y[train])
            ref = svc.decision_function(X[np.ix_(test, g)])
            a = np.abs(svc.dual_coef_.ravel())
            dec = path.loo_decision[k - 1, test]
            errors += int(np.sum(svc.predict(X[np.ix_(test, g)]) != y[test]))
            if not np.any((a > 1e-8) & (a < C - 1e-8)):
                all_unique = False
                continue
            n_unique += 1
            np.testing.assert_allclose(dec, ref, rtol=0, atol=1e-5)
            sure = np.abs(ref) > 1e-3
            assert np.array_equal(np.sign(dec[sure]), np.sign(ref[sure]))
            all_unique &= bool(np.all(sure))
        if all_unique:
            assert path.loo_errors[k - 1] == errors
    assert n_unique >= 40  # of 6 prefixes x 8 splits


def test_refit_route_is_cross_val_predict_over_leave_one_group_out():
    X, y, groups = paired(seed=1)
    order = np.array([1, 0, 4])
    est = SVC(kernel="linear", C=0.5)
    path = forward_path(X, y, order, estimator=est, groups=groups)
    for k in range(1, 4):
        ref = cross_val_predict(est, X[:, order[:k]], y, groups=groups, cv=LeaveOneGroupOut(),
                                method="decision_function")
        np.testing.assert_allclose(path.loo_decision[k - 1], ref, rtol=0, atol=1e-12)
        assert path.loo_errors[k - 1] == np.sum(np.where(ref > 0, 1, -1) != y)
    # more than two classes: the user's classifier refitted on the original labels without each group
    X3, y3 = three_classes(n=24, seed=3)
    g3 = np.repeat(np.arange(8), 3)  # each group holds one sample of each class
    lr = LogisticRegression(C=0.5)
    path3 = forward_path(X3, y3, [0, 2], estimator=lr, groups=g3)
    for k in (1, 2):
        pred = cross_val_predict(lr, X3[:, [0, 2][:k]], y3, groups=g3, cv=LeaveOneGroupOut())
        assert path3.loo_errors[k - 1] == np.sum(pred != y3)


def test_three_classes_one_vs_rest_machines_leave_the_group_out():
    X, y = three_classes(n=24, seed=4)
    groups = np.r_[np.repeat(np.arange(6), 3), np.arange(6, 12)]  # triples, then single samples
    order = np.array([0, 2, 1, 3, 5])
    fast = forward_path(X, y, order, C=0.5, tol=1e-10, groups=groups)
    slow = forward_path(X, y, order, estimator=LinearSVM(C=0.5, tol=1e-10), groups=groups)
    assert fast.loo_decision.shape == (5, 24, 3) and fast.n_groups == 12
    # (with one or two genes some machines have every multiplier at a bound, their bias the midpoint of an interval
    # that depends on the optimal multipliers reached, and arg max ties: errors compared from three genes on)
    np.testing.assert_array_equal(fast.loo_errors[2:], slow.loo_errors[2:])
    np.testing.assert_allclose(fast.loo_decision[2:], slow.loo_decision[2:], atol=1e-6)
    # machine c without sample i's group: SVC on the one-vs-rest labels of that split (tol 1e-6: at 1e-10 LIBSVM,
    # whose kernel cache is single precision, cycles for 2e8 iterations on one of these splits)
    n_unique = 0
    for k in (3, 5):
        g = order[:k]
        for train, test in LeaveOneGroupOut().split(X, y, groups):
            for c, label in enumerate(("a", "b", "c")):
                yc = np.where(y == label, 1, -1)
                svc = SVC(kernel="linear", C=0.5, tol=1e-6).fit(X[np.ix_(train, g)], yc[train])
                a = np.abs(svc.dual_coef_.ravel())
                if np.any((a > 1e-8) & (a < 0.5 - 1e-8)):
                    n_unique += 1
                    np.testing.assert_allclose(fast.loo_decision[k - 1, test, c],
                                               svc.decision_function(X[np.ix_(test, g)]), rtol=0, atol=1e-5)
    assert n_unique >= 60  # of 2 prefixes x 12 splits x 3 machines


# ------------------------------------------------------------------------------------------------ leakage
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_twins_fool_plain_loo_and_not_the_grouped_one(seed):
    """Two near-identical arrays per patient, labels random per patient, no gene related to them (chance: 50%
    errors). Plain LOO scores each array by a model trained on its twin: no error with all 20 genes, and well
    below chance along the path; leaving the patient out gives chance-level errors (measured over 30 seeds: plain
    0 errors of 30 at 20 genes in every seed, mean over the path 8-39%; grouped 7-27 errors, mean 34-80%)."""
    X, y, groups = twins(seed)
    plain = forward_path(X, y, np.arange(20))
    grouped = forward_path(X, y, np.arange(20), groups=groups)
    assert plain.loo_errors[-1] <= 1 and grouped.loo_errors[-1] >= 10
    assert plain.loo_errors.mean() / 30 < 0.35 and grouped.loo_errors.mean() / 30 > 0.4
    assert plain.summary()["accuracy"] == 100.0 and grouped.summary()["accuracy"] < 100.0


# ------------------------------------------------------------------------------------------------ bad groups
@pytest.mark.parametrize("groups, msg", [
    (np.arange(23), r"groups must hold one label per sample \(24\)"),
    ([None] + list(range(23)), r"groups has no label for sample\(s\) \[0\]"),
    (np.zeros(24), "at least 2 groups, got 1"),
    (np.where(np.arange(24) % 3 == 0, 0, 1 + np.arange(24)),  # group 0: every sample of class +1
     "leaving out group 0 leaves no training sample of class 1"),
])
def test_bad_groups(groups, msg):
    X, y = golub_like(n=24, d=12, seed=3)  # class +1: every third sample
    with pytest.raises(ValueError, match=msg):
        forward_path(X, y, [0, 1], groups=groups)


def test_bad_groups_three_classes():
    X, y = three_classes(n=21, seed=1)
    with pytest.raises(ValueError, match="groups must hold one label per sample"):
        forward_path(X, y, [0, 1], groups=np.arange(20))
    groups = np.where(y == "c", "all of c", np.arange(21).astype(str))
    with pytest.raises(ValueError, match="leaving out group 'all of c' leaves no training sample of class 'c'"):
        forward_path(X, y, [0, 1], groups=groups)
    with pytest.raises(ValueError, match="leaving out group 'all of c'"):
        forward_path(X, y, [0, 1], groups=groups, estimator=LogisticRegression())
    # without the LOO the groups are not needed to split, only checked for length
    assert forward_path(X, y, [0, 1], groups=groups, loo=False, X_test=X, y_test=y).loo_errors is None
