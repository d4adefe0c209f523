"""One pair of modules per paper: everything its notebook needs that is not an algorithm.

``<paper>.py`` holds the protocol: the cells for :func:`genesel.experiments.run_grid` (module-level functions of
plain arguments) and the grids of them, the paper's printed numbers and names, its preprocessing as the paper did
it. ``<paper>_report.py`` holds what the notebook shows: summaries, tables, figures and the sentences that quote the
run. A cell module never imports a report module or :mod:`genesel.plotting`, so editing a figure or a caption keeps
every cache key (a test checks it through :mod:`genesel.experiments.codekey`). This is the only layer that loads
data sets and runs grids; the algorithms it calls, always through their public API, live in the modules named in
each module's docstring.

- :mod:`~genesel.papers.common`: what every paper's cells share: the one cached loader, the count of one-class fits
- :mod:`~genesel.papers.presentation`: what every notebook shares: parameters, mode banner, display set-up, tidy tables
- :mod:`~genesel.papers.datasets_overview`: the data sets of all five papers (notebook 00)
- :mod:`~genesel.papers.guyon2002`, :mod:`~genesel.papers.guyon2002_report`: Guyon, Weston, Barnhill & Vapnik 2002,
  SVM-RFE (notebook 01)
- :mod:`~genesel.papers.gentile2003`, :mod:`~genesel.papers.gentile2003_report`: Gentile 2003, ALMA (notebook 02)
- :mod:`~genesel.papers.helleputte2009`, :mod:`~genesel.papers.helleputte2009_report`: Helleputte & Dupont 2009,
  transfer of gene relevance (notebook 03)
- :mod:`~genesel.papers.shah2012`, :mod:`~genesel.papers.shah2012_report`: Shah, Marchand & Corbeil 2012,
  conjunctions of decision stumps (notebook 04)
- :mod:`~genesel.papers.tan2006`: Tan 2006, the thesis' names of its data sets (notebooks 05a-05c)
- :mod:`~genesel.papers.tan2006_ch3`, :mod:`~genesel.papers.tan2006_ch3_report`: Tan 2006, chapter 3 and section
  4.3, kernel classifiers (notebook 05a)
- :mod:`~genesel.papers.tan2006_ch45`, :mod:`~genesel.papers.tan2006_ch45_report`: Tan 2006, chapters 4-5, gene
  rankings, biomarker sets and their stability (notebooks 05b, 05c)

Beside this package, :mod:`genesel.leaderboard` (notebook 06) runs every method of the five papers and the tools
users know under one nested protocol; it reads this package's loader and printed numbers, never the reverse.
"""
