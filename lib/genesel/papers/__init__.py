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

What each paper claims and how its committed tables compare with the printed numbers (which cells, by which rule,
which differences a test accounts for) is in a claims module beside its report module, listed in :data:`CLAIMS`,
which :mod:`genesel.records.agreement` and :mod:`genesel.records.onrecord` read (they name no paper):

- :mod:`~genesel.papers.datasets_claims`: the data sets' shapes (notebook 00; descriptions, nothing compared)
- :mod:`~genesel.papers.guyon2002_claims`: the abstract's four claims
- :mod:`~genesel.papers.gentile2003_claims`: Table 1 (and the reading of its Breast ALMA-FS cell)
- :mod:`~genesel.papers.helleputte2009_claims`: the slides' claims
- :mod:`~genesel.papers.shah2012_claims`: Tables 1-5
- :mod:`~genesel.papers.tan2006_ch3_claims`, :mod:`~genesel.papers.tan2006_ch45_claims`: chapter 3's AUCs and
  errors; Tables 4.2-4.7 and 5.3-5.6
- :mod:`genesel.leaderboard.claims`: Díaz-Uriarte 2006's Table 2 and the leaderboard's rows beside Shah and Tan

A paper added to the house adds its claims module here; ``tests/test_agreement.py`` fails for a committed
paper-vs-genesel table or a report module no registered claims module covers.
"""

#: the claims modules, one per notebook's paper(s), in notebook order (read by genesel.records.agreement)
CLAIMS = (
    "genesel.papers.datasets_claims",
    "genesel.papers.guyon2002_claims",
    "genesel.papers.gentile2003_claims",
    "genesel.papers.helleputte2009_claims",
    "genesel.papers.shah2012_claims",
    "genesel.papers.tan2006_ch3_claims",
    "genesel.papers.tan2006_ch45_claims",
    "genesel.leaderboard.claims",
)
