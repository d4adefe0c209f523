"""Private, paper-agnostic building blocks shared by genesel's algorithm modules.

- :mod:`~genesel._core.smo`: the numba C-SVM dual solver (SMO with WSS2, Newton steps on the free set, warm
  starts), used by ``svm``, ``rfe`` and the SVM-based wrappers;
- :mod:`~genesel._core.newton`: Newton steps with a Cholesky factor carried across gene removals (MSVM-RFE);
- :mod:`~genesel._core.linalg`: the one small dense linear algebra (Cholesky, triangular solves, rank-one update
  and downdate, overflow-safe row norms) of the SVM solvers, the RVM and ALMA;
- :mod:`~genesel._core.gram`: the one Gram-matrix function (linear, polynomial, RBF; BLAS-free or BLAS engine) and
  the gene-by-gene Gram accumulation of recursive elimination;
- :mod:`~genesel._core.validation`: input checks, the one binary-fit check (``check_binary_fit``), the
  degenerate-model warnings;
- :mod:`~genesel._core.units`: data-relative units (exact power-of-two rescaling) and the SVMs' unit helpers;
- :mod:`~genesel._core.resampling`: the stratified fold masks of MSVM-RFE and the GP-ARD selectors;
- :mod:`~genesel._core.params`: the hyper-parameter constraints of scikit-learn's validation (numbers never bools);
- :mod:`~genesel._core.base`: the binary classifier base (tags, ``predict`` as the sign of the decision function);
- :mod:`~genesel._core.selector`: the selector base (tags, support mask, ``subset``, the ``n_features_to_select``
  rule);
- :mod:`~genesel._core.fastmath`: vectorisable numba power and dot product;
- :mod:`~genesel._core.threads`: BLAS thread limits for small fits;
- :mod:`~genesel._core.io`: atomic writes and the cache's integrity warning.

Nothing here imports data, experiments or papers. Not public API: names may change between versions.
"""
