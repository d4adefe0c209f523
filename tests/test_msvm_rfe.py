"""genesel.msvm_rfe: the criterion of Eqs. 5.2-5.3 by hand, the numba path against its plain-Python twin, the
scikit-learn contract."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from genesel.msvm_rfe import MSVMRFE, _msvm_path, msvm_criterion, resampling_masks
from naive import msvm_rfe as naive_msvm
from problems import golub_like, problem_p


def test_criterion_by_hand():
    # rows normalised: (0.6, 0.8), (1, 0), (0, 1) -> squared: (0.36, 0.64), (1, 0), (0, 1)
    W = np.array([[3.0, 4.0], [2.0, 0.0], [0.0, -5.0]])
    m0, m1 = (0.36 + 1 + 0) / 3, (0.64 + 0 + 1) / 3
    s0 = np.sqrt(((0.36 - m0) ** 2 + (1 - m0) ** 2 + m0**2) / 2)
    s1 = np.sqrt(((0.64 - m1) ** 2 + m1**2 + (1 - m1) ** 2) / 2)
    np.testing.assert_allclose(msvm_criterion(W), [m0 / s0, m1 / s1])
    # constant squared weights: +inf if positive, 0 if the gene is never used
    np.testing.assert_array_equal(msvm_criterion(np.array([[1.0, 0.0], [1.0, 0.0]])), [np.inf, 0.0])
    with pytest.raises(ValueError, match="t >= 2"):
        msvm_criterion(np.ones((1, 3)))


def test_path_matches_naive_twin():
    X, y = golub_like(n=20, d=9, seed=5)
    masks = resampling_masks(y, 4, 1, np.random.RandomState(0))
    elim, surv, _, gap = _msvm_path(np.ascontiguousarray(X.T), y.astype(float), masks, 1.0, 1e-10, 10**7,
                                    np.ones(8, dtype=np.int64))
    elim0, surv0 = naive_msvm.msvm_path(X, y.astype(float), masks, 1.0, 1e-10, 10**7)
    assert gap < 1e-10
    assert elim.tolist() == elim0 and surv.tolist() == surv0


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("chunks", [False, True])
def test_longer_path_matches_naive_twin(C, chunks):
    """40 genes: the carried Gram blocks, gradients and Cholesky factors are downdated over many steps, refreshed
    when the survivors halve, and used with free sets that change (small C: many multipliers at the bound; C = inf:
    nearly the hard margin); with chunks, several genes leave per step."""
    X, y = golub_like(n=24, d=40, seed=11)
    masks = resampling_masks(y, 4, 1, np.random.RandomState(2))
    n_remove = np.array([8, 8, 6, 5, 4, 3, 2, 1, 1, 1], dtype=np.int64) if chunks else np.ones(39, dtype=np.int64)
    elim, surv, _, gap = _msvm_path(np.ascontiguousarray(X.T), y.astype(float), masks, C, 1e-10, 10**7, n_remove)
    elim0, surv0 = naive_msvm.msvm_path(X, y.astype(float), masks, C, 1e-10, 10**7,
                                        n_remove.tolist() if chunks else None)
    assert gap < 1e-10
    assert elim.tolist() == elim0 and surv.tolist() == surv0


def test_finds_the_informative_genes_and_is_seeded():
    X, y = golub_like(n=30, d=30, seed=2)
    a = MSVMRFE(n_folds=5, random_state=3).fit(X, y)
    b = MSVMRFE(n_folds=5, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    assert len(set(a.feature_order_[:5].tolist()) & set(range(8))) >= 3  # SVM-RFE finds 3 here too
    assert a.support_.sum() == a.n_features_ == a.forward_path_.biomarker_size("loo")
    assert sorted(a.ranking_.tolist()) == list(range(1, 31))


def test_bad_parameters():
    X, y = golub_like(n=12, d=6, seed=0)
    with pytest.raises(ValueError, match="smallest class"):
        MSVMRFE(n_folds=10).fit(X, y)
    with pytest.raises(ValueError, match=r"'n_folds' parameter of MSVMRFE must be a str among \{'auto'\} "
                                         r"or an int in the range \[2, inf\)"):
        MSVMRFE(n_folds=1).fit(X, y)


# ------------------------------------------------------------------------------------------------------------------
# units of X (issue 25): the problem P of the issue, at every scale a named error or the model of scale 1
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 2.0**-660, 1e-100])
def test_a_negligible_C_is_a_named_error(scale):
    """C is in the units of X (as LinearSVM's and SVMRFE's): on P x 1e-200, C = 1 is a box 1e-400 against the
    samples' squared norms. Before, the Gram blocks underflowed and MSVMRFE selected noise gene 29 alone, silently
    (at 1e-100, gene 2 alone: every SVM's decision values were rounding noise); now it says C is negligible."""
    X, y = problem_p()
    with pytest.raises(ValueError, match=r"C=1 is negligible at the scale of X.*raise C or standardise"):
        MSVMRFE(random_state=0).fit(X * scale, y)


def test_a_huge_scale_gives_the_hard_margin_model_of_scale_1():
    """At 1e200, C = 1 is C * max k(x, x) ~ 1e400: the hard-margin MSVM-RFE, computed on X times a power of two
    (before: the Gram blocks overflowed to inf and noise gene 29 was selected with a ConvergenceWarning). On data that
    stay separable down to one gene the hard margin converges and equals C = inf at scale 1."""
    X, y = problem_p(shift=8.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither a RuntimeWarning (overflow) nor a ConvergenceWarning
        big = MSVMRFE(random_state=0).fit(X * 1e200, y)
        ref = MSVMRFE(C=np.inf, random_state=0).fit(X, y)
    assert set(big.feature_order_[:3].tolist()) == {0, 1, 2}
    np.testing.assert_array_equal(big.support_, ref.support_)
    np.testing.assert_array_equal(big.feature_order_[:3], ref.feature_order_[:3])


def test_a_hard_margin_that_cannot_separate_names_the_cause():
    """C effectively infinite at the scale of X on data that are not separable at the last steps: the warning says
    so and names the remedy (lower C or standardise), not "raise max_iter" (no number of iterations lets a hard
    margin separate what it cannot); the forward selection's warning alike. The model is that of C = inf at scale 1
    (the property test's reference), warning included."""
    X, y = problem_p()
    with pytest.warns(ConvergenceWarning, match=r"effectively infinite at the scale of X.*lower C") as rec:
        big = MSVMRFE(n_features_to_select=3, max_iter=2000, random_state=0).fit(X * 1e200, y)
    with pytest.warns(ConvergenceWarning, match=r"effectively infinite at the scale of X.*lower C") as rec2:
        MSVMRFE(max_iter=2000, random_state=0).fit(X * 1e200, y)  # the forward selection too
    messages = [str(w.message) for w in list(rec) + list(rec2) if issubclass(w.category, ConvergenceWarning)]
    assert any("(forward selection)" in m for m in messages)
    assert not any("raise max_iter" in m for m in messages)
    with pytest.warns(ConvergenceWarning, match=r"C=inf: the SVMs are hard-margin.*lower C"):
        ref = MSVMRFE(C=np.inf, n_features_to_select=3, max_iter=2000, random_state=0).fit(X, y)
    np.testing.assert_array_equal(big.feature_order_, ref.feature_order_)


def test_ordinary_data_are_computed_unscaled():
    """Data of ordinary scale are not rescaled: the ranking is the kernel's on X itself, bit for bit."""
    X, y = problem_p()
    est = MSVMRFE(n_folds=4, step=1, n_features_to_select=1, random_state=1).fit(X * 1e3, y)
    masks = resampling_masks(np.where(y > 0, 1, -1), 4, 1, np.random.RandomState(1))
    elim, surv, _, _ = _msvm_path(np.ascontiguousarray((X * 1e3).T), np.where(y > 0, 1.0, -1.0), masks, 1.0, 1e-6,
                                  10**7, np.ones(29, dtype=np.int64))
    np.testing.assert_array_equal(est.feature_order_, np.r_[surv, elim[::-1]])


@pytest.mark.parametrize("offset", [1e6, 1e8, 1e12])
def test_an_offset_gives_the_model_without_it(offset):
    """The SVMs with bias do not depend on where the data sit, but their Gram blocks do: at an offset of 10^8 times
    the spread the class information sat 16 digits below the Gram entries. Before: at 1e6 noise gene 25 was
    selected, at 1e8 genes [0, 1, 2, 5, 25] with ConvergenceWarnings. Such data are now centred (the same SVMs)."""
    X, y = problem_p()
    ref = MSVMRFE(random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = MSVMRFE(random_state=0).fit(X + offset, y)
    assert np.flatnonzero(ref.support_).tolist() == [0, 1, 2]
    np.testing.assert_array_equal(got.support_, ref.support_)


# ------------------------------------------------------------------------------------------------------------------
# defaults for today's arrays (issue 25): chunks while many genes survive, Figure 5.1 for the last 256
# ------------------------------------------------------------------------------------------------------------------


def test_auto_schedule():
    from genesel.msvm_rfe import AUTO_GENES, auto_schedule
    from genesel.rfe import elimination_schedule

    assert AUTO_GENES == 256
    np.testing.assert_array_equal(auto_schedule(30), np.ones(29))  # up to 256 genes: Figure 5.1, one per step
    np.testing.assert_array_equal(auto_schedule(256), np.ones(255))
    # Colon's 2000 genes: 2000 -> 1024 -> 512 -> 256 (Guyon's chunks, Tan 2006 §5.4), then one at a time
    np.testing.assert_array_equal(auto_schedule(2000), np.r_[976, 512, 256, np.ones(255)])
    s = auto_schedule(55_000)
    assert s.sum() == 54_999 and s.size == 8 + 255
    np.testing.assert_array_equal(s[:8], elimination_schedule(55_000, 256, "halving"))


def test_default_is_figure_5_1_up_to_256_genes_and_chunks_beyond():
    """Default-constructed: on up to 256 genes the ranking is step=1's bit for bit (and the forward selection scores
    every prefix); on more, the first steps remove chunks and the forward selection stops at 256 prefixes."""
    X, y = golub_like(n=30, d=40, seed=2)
    a = MSVMRFE(random_state=3).fit(X, y)
    b = MSVMRFE(step=1, max_forward_genes=None, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.feature_order_, b.feature_order_)
    np.testing.assert_array_equal(a.support_, b.support_)
    assert a.n_iter_ == 40 and a.forward_path_.sizes[-1] == 40
    X, y = golub_like(n=30, d=300, seed=2)
    c = MSVMRFE(random_state=3).fit(X, y)
    assert c.n_iter_ == 1 + 1 + 255 and c.forward_path_.sizes[-1] == 256
    d = MSVMRFE(step=44, n_features_to_select=1, random_state=3).fit(X, y)
    # the first step removes 44 genes by one evaluation of the criterion, as step=44 does
    np.testing.assert_array_equal(c.feature_order_[-44:], d.feature_order_[-44:])


# ------------------------------------------------------------------------------------------------------------------
# the lazy argmin of one-gene steps (issue 41): a certified lower bound, and the same path as evaluating every gene
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("M", [1, 3])
def test_lower_bound_of_the_criterion_holds_in_the_whole_ball(M):
    """_lower_bound(rho) must not exceed the criterion of any normalised weights within rho of the stored ones (per
    resampling, in Euclidean norm over its M machines). Checked by brute force: every resampling's weight vector
    moved radially by +-rho (all 2^t sign patterns: the extremes of the mean and of the spread) and random moves
    inside the ball, on random, uneven and nearly constant weights."""
    from genesel.msvm_rfe import _lower_bound, _summarise

    rng = np.random.default_rng(0)
    t_res = 5
    t = t_res * M
    signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * t_res)).reshape(t_res, -1).T

    def crit(B):  # Eq. 5.3 by hand on the normalised weights B (t_res x M): V_r = |B_r|^2, mean / sd (ddof 1)
        V = (B**2).sum(axis=1)
        return V.mean() / V.std(ddof=1)

    worst = np.inf
    for trial in range(300):
        kind = trial % 3
        A0 = rng.normal(size=(t_res, M)) * (rng.uniform(0.01, 1, size=(t_res, 1)) if kind == 1 else 1.0)
        if kind == 2:
            A0 = np.ones((t_res, M)) + 1e-3 * rng.normal(size=(t_res, M))
        N = np.ones(t_res)
        st = np.zeros((1, 12))
        w = np.empty(t + t_res)
        w[:t] = A0.ravel()
        crit0 = _summarise(w, t, N, M, st, 0, 0, 0.0, 0.0, 0.0, 0)
        assert crit0 == pytest.approx(crit(A0), rel=1e-12)
        rho = rng.choice([1e-4, 1e-2, 0.1, 0.5]) * np.linalg.norm(A0, axis=1).mean()
        num, den = _lower_bound(st, 0, rho, np.sqrt(t_res / (t_res - 1.0)))
        norms = np.linalg.norm(A0, axis=1)
        units = A0 / np.where(norms > 0, norms, 1)[:, None]
        moved = [A0 + rho * sg[:, None] * units for sg in signs]  # radial extremes
        for _ in range(50):  # random points of the ball of every resampling
            D = rng.normal(size=(t_res, M))
            D *= rho * rng.uniform(0, 1, size=(t_res, 1)) / np.linalg.norm(D, axis=1, keepdims=True)
            moved.append(A0 + D)
        lowest = min(crit(B) for B in moved)
        assert num <= lowest * den * (1 + 1e-12) + 1e-300, (trial, num / den, lowest)
        if den > 0 and num > 0:
            worst = min(worst, lowest / (num / den))
    assert worst >= 1.0


@pytest.mark.parametrize("M", [1, 3])
def test_lazy_path_equals_evaluating_every_gene(M):
    """On 3,000 genes (above _LAZY_GENES, so the one-gene steps use the bounds and the single-precision screen) the
    lazy argmin removes exactly the genes that evaluating every gene at every step removes, in the same order,
    with fewer exact evaluations. Fails if a bound is too optimistic (a gene that could be the minimum skipped)."""
    from genesel.msvm_rfe import _LAZY_GENES

    d = 3000
    assert d > _LAZY_GENES
    X, y = golub_like(n=36, d=d, seed=4)
    X = (X - X.mean(0)) / X.std(0)
    if M == 1:
        Y = y.astype(float)
        labels = y
    else:
        labels = np.arange(36) % 3
        X[:, :6] += np.repeat(np.eye(3), 2, axis=1)[labels]
        Y = np.where(labels[None, :] == np.arange(3)[:, None], 1.0, -1.0)
    masks = resampling_masks(labels, 4, 1, np.random.RandomState(1))
    Xt = np.ascontiguousarray(X.T)
    n_remove = np.ones(d - 1, dtype=np.int64)
    lazy = _msvm_path(Xt, Y, masks, 100.0 / d, 1e-8, 10**7, n_remove, lazy=True, n_evals=True)
    full = _msvm_path(Xt, Y, masks, 100.0 / d, 1e-8, 10**7, n_remove, lazy=False, n_evals=True)
    assert lazy[0].tolist() == full[0].tolist() and lazy[1].tolist() == full[1].tolist()
    assert lazy[4] < full[4] / 2
