"""The leaderboard: every method of the five papers and the tools users know, on every data set, under one
unbiased protocol (notebook 06).

- :mod:`~genesel.leaderboard.catalogue`: the methods, one entry each (estimators, grids, sizes, risk bound, paper)
- :mod:`~genesel.leaderboard.protocol`: the nested protocol of one split (selection and tuning inside the training
  part only; the test part used once)
- :mod:`~genesel.leaderboard.cells`: the grid cells (repeated stratified K-fold, the .632+ bootstrap), the data
  and the modes; no plotting, so a figure edit keeps every cache key
- :mod:`~genesel.leaderboard.report`: summaries, league tables, statistics, figures, the published numbers beside
  ours
"""
