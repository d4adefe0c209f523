"""Experiment protocols (seeded train/test splits), the cached parallel grid runner, paper-style tables, and the
notebook runner.

A notebook describes an experiment as a grid of cells (data set, protocol, split index, method, parameters,
seed); each cell is a pure function call whose result is cached on disk (:mod:`~genesel.experiments.grid`, keys
from :mod:`~genesel.experiments.codekey`); the tidy results become the paper's tables with
:mod:`~genesel.experiments.tables`. :mod:`~genesel.records.runner` executes the notebooks with papermill
(``genesel run``). ``single_blas_thread()`` limits BLAS to one thread inside a block (a cell of a
parallel grid computing many small Gram matrices), ``single_thread()`` every thread pool, OpenMP's too.
:mod:`~genesel.experiments.bootstrap`: the .632+ bootstrap (Efron & Tibshirani 1997), its samples and its estimate.
``atomic_write`` writes a result file whole or not at all.
"""

from .bootstrap import Estimate632, bootstrap_splits, error_632plus, grouped_inner_folds
from .grid import CacheIntegrityWarning, cell_key, clear_cache, default_cache_dir, run_grid
from .protocols import (
    NotApplicable,
    adapted_folds,
    class_sizes,
    leave_one_out,
    make_splits,
    nested_cv,
    permuted_training_orders,
    predefined_split,
    random_splits,
    repeated_nested_cv,
    repeated_stratified_kfold,
    smallest_class,
    stratified_kfold,
)
from .tables import format_mean_sd, format_range, paper_vs_genesel, summarise
from genesel._core.io import atomic_write
from genesel._core.threads import single_blas_thread, single_thread

__all__ = ["predefined_split", "random_splits", "permuted_training_orders", "leave_one_out", "stratified_kfold",
           "repeated_stratified_kfold", "nested_cv", "repeated_nested_cv", "make_splits", "run_grid", "cell_key",
           "clear_cache", "default_cache_dir", "CacheIntegrityWarning", "summarise", "format_mean_sd", "format_range",
           "paper_vs_genesel", "single_blas_thread", "single_thread", "bootstrap_splits", "grouped_inner_folds",
           "error_632plus", "Estimate632", "atomic_write", "NotApplicable", "adapted_folds", "class_sizes",
           "smallest_class"]
