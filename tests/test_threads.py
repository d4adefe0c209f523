"""genesel._core.threads: BLAS is limited to one thread inside the block and restored after it."""

import numpy as np  # noqa: F401  (loads the BLAS library threadpoolctl inspects)
from threadpoolctl import threadpool_info

from genesel._core.threads import blas_threads_for, single_blas_thread


def _blas_threads():
    return [d["num_threads"] for d in threadpool_info() if d["user_api"] == "blas"]


def test_single_blas_thread_limits_and_restores():
    before = _blas_threads()
    assert before, "no BLAS library found by threadpoolctl"
    with single_blas_thread():
        assert all(n == 1 for n in _blas_threads())
    assert _blas_threads() == before


def test_blas_threads_for_limits_only_small_fits():
    before = _blas_threads()
    with blas_threads_for(100):
        assert all(n == 1 for n in _blas_threads())
    with blas_threads_for(5000):
        assert _blas_threads() == before
    with blas_threads_for(1500, max_single=2000):
        assert all(n == 1 for n in _blas_threads())
    assert _blas_threads() == before


def test_the_fit_decorator_limits_by_the_samples_of_X():
    from genesel._core.threads import few_samples_one_blas_thread

    seen = []

    class Est:
        @few_samples_one_blas_thread(10)
        def fit(self, X, y=None, *, flag=False):
            seen.append((len(X), _blas_threads(), flag))
            return self

    before = _blas_threads()
    est = Est()
    assert est.fit(np.zeros((5, 3)), flag=True) is est
    est.fit(np.zeros((50, 3)))
    assert seen[0][1] == [1] * len(before) and seen[0][2] is True
    assert seen[1][1] == before
    assert _blas_threads() == before


def _openmp_threads():
    import sklearn.neighbors  # noqa: F401  (loads scikit-learn's OpenMP runtime)

    return [d["num_threads"] for d in threadpool_info() if d["user_api"] == "openmp"]


def test_single_thread_limits_openmp_as_well_and_restores():
    from genesel._core.threads import single_thread

    blas, omp = _blas_threads(), _openmp_threads()
    assert omp, "no OpenMP runtime found by threadpoolctl (scikit-learn ships one)"
    with single_thread():
        assert all(n == 1 for n in _blas_threads() + _openmp_threads())
    assert (_blas_threads(), _openmp_threads()) == (blas, omp)


def test_a_leaderboard_cell_runs_with_one_thread_in_every_pool():
    """The cell timer limits OpenMP too: scikit-learn's kNN spun its OpenMP threads in a serial grid."""
    from genesel.leaderboard import cells

    seen = {}
    cells._timed(lambda: seen.update(blas=_blas_threads(), omp=_openmp_threads()) or {})
    assert seen["blas"] and all(n == 1 for n in seen["blas"])
    assert seen["omp"] and all(n == 1 for n in seen["omp"])


def test_msvm_rfe_runs_its_elimination_path_with_one_blas_thread(monkeypatch):
    """MSVM-RFE's per-step product is small; OpenBLAS threads made a fit 7x slower on a busy machine."""
    from genesel import msvm_rfe

    seen = []
    path = msvm_rfe._msvm_path

    def spy(*args):
        seen.append(_blas_threads())
        return path(*args)

    monkeypatch.setattr(msvm_rfe, "_msvm_path", spy)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 30)), np.repeat([0, 1], 10)
    msvm_rfe.MSVMRFE(n_folds=3, random_state=0).fit(X, y)
    assert seen and all(n == 1 for n in seen[0])
