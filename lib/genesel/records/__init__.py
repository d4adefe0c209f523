"""Running the notebooks and what their runs leave on record.

- :mod:`~genesel.records.runner`: execute notebooks headless with papermill (``genesel run``), one folder per
  parameter set;
- :mod:`~genesel.records.runs`: the executed notebooks of a mode folder, in course order, with the mode and
  parameters each ran with (what the documentation site's course chapters show);
- :mod:`~genesel.records.provenance`: the run record (commit, machine, parameters, time) of an executed notebook;
- :mod:`~genesel.records.onrecord`: the generated text quoting the committed full-run tables: the README's sentence
  (``genesel onrecord``) and the site's results pages;
- :mod:`~genesel.records.agreement`: how many of the papers' cells genesel reproduces, by one stated rule
  (``genesel agreement``);
- :mod:`~genesel.records.compare_runs`: two runs' tables compared cell by cell (``genesel compare-runs``).

Nothing here computes a result: the grid engine is :mod:`genesel.experiments`.
"""
