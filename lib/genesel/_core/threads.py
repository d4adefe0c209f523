"""BLAS (and OpenMP) thread control for the small dense products in genesel's fits.

A few dozen samples make Gram matrices of ~100 x 100 from ~10^4 genes: OpenBLAS's threads cost more than they
save there (and fight the worker processes of a parallel grid). :func:`single_blas_thread` limits BLAS to one
thread for a block, through one cached ``threadpoolctl`` controller (about 20 us per use instead of ~0.4 ms for
a fresh ``threadpool_limits``); :func:`blas_threads_for` does so only for fits on few samples, and
:func:`few_samples_one_blas_thread` is that rule as a decorator of ``fit`` (the Bayesian kernel classifiers of Tan
2006: DWD, RVM, SMLR).
"""

from __future__ import annotations

import functools
from contextlib import nullcontext
from functools import lru_cache

from threadpoolctl import ThreadpoolController

__all__ = ["single_blas_thread", "single_thread", "blas_threads_for", "few_samples_one_blas_thread"]


@lru_cache(maxsize=1)
def _controller():
    return ThreadpoolController()


def single_blas_thread():
    """Context manager: BLAS limited to one thread inside the block."""
    return _controller().limit(limits=1, user_api="blas")


def single_thread():
    """Context manager: every thread pool threadpoolctl knows (BLAS and OpenMP) limited to one thread inside the
    block. A cell of a grid runs beside other cells: scikit-learn's OpenMP kernels (e.g. the pairwise distances of
    ``KNeighborsClassifier``) otherwise start one thread per core and, on a busy machine, spin; a kNN fold on
    Borovecki's data took 7.8 CPU s in-process against 0.6 s with one thread."""
    return _controller().limit(limits=1)


def blas_threads_for(n_samples, max_single=512):
    """Context manager: one BLAS thread for fits on at most ``max_single`` samples, BLAS's own default otherwise."""
    return single_blas_thread() if n_samples <= max_single else nullcontext()


def few_samples_one_blas_thread(max_single=512):
    """Decorator of ``fit(self, X, ...)``: the fit runs with one BLAS thread when X has at most ``max_single``
    samples (:func:`blas_threads_for`): its n x n and n x d products are tiny, and OpenBLAS threads only add
    overhead there (and thrash a loaded machine)."""
    from sklearn.utils.validation import _num_samples

    def decorate(fit):
        @functools.wraps(fit)
        def wrapper(self, X, *args, **kwargs):
            with blas_threads_for(_num_samples(X), max_single):
                return fit(self, X, *args, **kwargs)

        return wrapper

    return decorate
