"""Experiment protocols (seeded train/test splits), the cached parallel grid runner, and paper-style tables.

A notebook describes an experiment as a grid of cells (data set, protocol, split index, method, parameters,
seed); each cell is a pure function call whose result is cached on disk; the tidy results become the paper's
tables with :mod:`genesel.experiments.tables`.
"""

from .grid import cell_key, clear_cache, default_cache_dir, run_grid
from .protocols import (
    leave_one_out,
    make_splits,
    nested_cv,
    permuted_training_orders,
    predefined_split,
    random_splits,
    repeated_nested_cv,
    repeated_stratified_kfold,
    stratified_kfold,
)
from .tables import format_mean_sd, paper_vs_genesel, summarise

__all__ = ["predefined_split", "random_splits", "permuted_training_orders", "leave_one_out", "stratified_kfold",
           "repeated_stratified_kfold", "nested_cv", "repeated_nested_cv", "make_splits", "run_grid", "cell_key",
           "clear_cache", "default_cache_dir", "summarise", "format_mean_sd", "paper_vs_genesel"]
