"""genesel.threads: BLAS is limited to one thread inside the block and restored after it."""

import numpy as np  # noqa: F401  (loads the BLAS library threadpoolctl inspects)
from threadpoolctl import threadpool_info

from genesel.threads import single_blas_thread


def _blas_threads():
    return [d["num_threads"] for d in threadpool_info() if d["user_api"] == "blas"]


def test_single_blas_thread_limits_and_restores():
    before = _blas_threads()
    assert before, "no BLAS library found by threadpoolctl"
    with single_blas_thread():
        assert all(n == 1 for n in _blas_threads())
    assert _blas_threads() == before
