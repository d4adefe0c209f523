"""One module per paper: everything its notebook needs that is not an algorithm.

Protocol cells for :func:`genesel.experiments.run_grid` (module-level functions of plain arguments), the paper's
own numbers and tables, its preprocessing as the paper did it, and the summaries and figures its notebook shows.
This is the only layer that loads data sets and runs grids; the algorithms it calls live in the modules named in
each module's docstring.

- :mod:`~genesel.papers.datasets_overview`: the data sets of all five papers (notebook 00)
- :mod:`~genesel.papers.guyon2002`: Guyon, Weston, Barnhill & Vapnik 2002, SVM-RFE (notebook 01)
- :mod:`~genesel.papers.gentile2003`: Gentile 2003, ALMA (notebook 02)
- :mod:`~genesel.papers.helleputte2009`: Helleputte & Dupont 2009, transfer of gene relevance (notebook 03)
- :mod:`~genesel.papers.tan2006_ch3`: Tan 2006, chapter 3 and section 4.3, kernel classifiers (notebook 05a)
- :mod:`~genesel.papers.common`: what every notebook shares (parameters, mode banner, tables)
"""
