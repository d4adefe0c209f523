"""Running the notebooks and what their runs leave on record.

- :mod:`~genesel.records.runner`: execute notebooks headless with papermill (``genesel run``), one folder per
  parameter set;
- :mod:`~genesel.records.provenance`: the run record (commit, machine, parameters, time) of an executed notebook;
- :mod:`~genesel.records.onrecord`: the generated text quoting the committed full-run tables (``genesel onrecord``);
- :mod:`~genesel.records.agreement`: how many of the papers' cells genesel reproduces, by one stated rule
  (``genesel agreement``);
- :mod:`~genesel.records.compare_runs`: two runs' tables compared cell by cell (``genesel compare-runs``).

Nothing here computes a result: the grid engine is :mod:`genesel.experiments`.
"""
