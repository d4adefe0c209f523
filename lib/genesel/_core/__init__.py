"""Private, paper-agnostic building blocks shared by genesel's algorithm modules.

- :mod:`~genesel._core.smo`: the numba C-SVM dual solver (SMO with WSS2, Newton steps on the free set, warm
  starts), used by ``svm``, ``rfe`` and the SVM-based wrappers;
- :mod:`~genesel._core.gram`: the one Gram-matrix function (linear, polynomial, RBF; BLAS-free or BLAS engine);
- :mod:`~genesel._core.validation`: input checks, the one binary-fit check (``check_binary_fit``);
- :mod:`~genesel._core.fastmath`: vectorisable numba power and dot product;
- :mod:`~genesel._core.threads`: BLAS thread limits for small fits.

Nothing here imports data, experiments or papers. Not public API: names may change between versions.
"""
