"""The leaderboard: every method of the five papers and the tools users know, on every data set, under one
unbiased protocol (notebook 06).

- :mod:`~genesel.leaderboard.catalogue`: the methods, one entry each (estimators, grids, sizes, risk bound, paper)
- :mod:`~genesel.leaderboard.protocol`: the nested protocol of one split (selection and tuning inside the training
  part only; the test part used once)
- :mod:`~genesel.leaderboard.cells`: the grid cells (repeated stratified K-fold, the .632+ bootstrap), the data
  and the modes; no plotting, so a figure edit keeps every cache key
- :mod:`~genesel.leaderboard.keys`: each cell's cache key (the protocol's code and its method's own)

The report modules (none is imported by a cell, so editing them moves no cache key):

- :mod:`~genesel.leaderboard.summary`: the numbers per method and data set (error, balanced error, AUC, size,
  stability, cost), the error-against-size curves, the Pareto front, Wilson's interval
- :mod:`~genesel.leaderboard.tables`: the notebook's parameters, league tables, warnings, the catalogue and the
  data as run, consensus signatures, where the tables are written
- :mod:`~genesel.leaderboard.ranking`: ranks across data sets, Friedman and Nemenyi, bootstrap intervals of the
  mean ranks, the data sets where no method beats the majority class, the ranking in words
- :mod:`~genesel.leaderboard.figures` (with :mod:`~genesel.leaderboard.labels`): every figure, and
  ``python -m genesel.leaderboard.figures`` to redraw them from the committed tables
- :mod:`~genesel.leaderboard.du2006`: Díaz-Uriarte & Alvarez de Andrés 2006's Table 2 beside the .632+ estimates
- :mod:`~genesel.leaderboard.published`: the "paper vs genesel" rows (Díaz-Uriarte 2006, Shah 2012, Tan 2006)
- :mod:`~genesel.leaderboard.cost`: the run's cost, and its estimate from the committed run before it runs
- :mod:`~genesel.leaderboard.exercises`: the worked answers of the notebook's exercises
- :mod:`~genesel.leaderboard.status`: how far a long run is, from its cache
"""
