"""BLAS thread control for the small dense products in genesel's fits.

A few dozen samples make Gram matrices of ~100 x 100 from ~10^4 genes: OpenBLAS's threads cost more than they
save there (and fight the worker processes of a parallel grid). :func:`single_blas_thread` limits BLAS to one
thread for a block, through one cached ``threadpoolctl`` controller (about 20 us per use instead of ~0.4 ms for
a fresh ``threadpool_limits``); :func:`blas_threads_for` does so only for fits on few samples.
"""

from __future__ import annotations

from contextlib import nullcontext
from functools import lru_cache

from threadpoolctl import ThreadpoolController

__all__ = ["single_blas_thread", "blas_threads_for"]


@lru_cache(maxsize=1)
def _controller():
    return ThreadpoolController()


def single_blas_thread():
    """Context manager: BLAS limited to one thread inside the block."""
    return _controller().limit(limits=1, user_api="blas")


def blas_threads_for(n_samples, max_single=512):
    """Context manager: one BLAS thread for fits on at most ``max_single`` samples, BLAS's own default otherwise."""
    return single_blas_thread() if n_samples <= max_single else nullcontext()
