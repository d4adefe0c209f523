"""genesel: reproducible gene selection on DNA-microarray data.

Five papers re-run end to end on the real public data. Every public estimator is importable from here
(``from genesel import SVMRFE``); each algorithm family lives in its own module whose docstring names the paper,
section and equations it implements. Where each paper lives:

=========================================  ==========================================  ==============================
paper                                      algorithms                                  notebook code (``papers/``:
                                                                                       cells, + ``_report``: tables,
                                                                                       figures, prose)
=========================================  ==========================================  ==============================
Guyon, Weston, Barnhill & Vapnik 2002      ``svm`` (LinearSVM, KernelSVM), ``rfe``     ``guyon2002``,
(SVM-RFE)                                  (SVMRFE), ``voting`` (GolubVoting),         ``guyon2002_report``
                                           ``filters`` (SignalToNoiseSelector,
                                           FisherSelector), ``metrics`` (quality)
Gentile 2003 (ALMA)                        ``alma`` (ALMA, ALMAFS, ALMARFE,            ``gentile2003``,
                                           make_corr_pipeline)                         ``gentile2003_report``
Helleputte & Dupont 2009 (transfer)        ``arom`` (L2AROM; PS-l2-AROM via            ``helleputte2009``,
                                           ``prior=``), ``stability``                  ``helleputte2009_report``
Shah, Marchand & Corbeil 2012 (stumps)     ``stumps`` (OccamStumps,                    ``shah2012``,
                                           SampleCompressionStumps, PACBayesStumps,    ``shah2012_report``
                                           AdaBoostStumps), ``bounds`` (Theorems 2,
                                           3, 5)
Tan 2006, ch. 3 and 4.3 (kernel            ``gp`` (GaussianProcessClassifier),         ``tan2006_ch3``,
classifiers)                               ``rvm`` (RVM), ``smlr`` (SMLR), ``dwd``     ``tan2006_ch3_report``
                                           (DWD), ``svm``
Tan 2006, ch. 4-5 (rankings, stability)    ``forward`` (forward_path), ``msvm_rfe``    ``tan2006_ch45``,
                                           (MSVMRFE), ``gp_ard_select`` (GPARDFS,      ``tan2006_ch45_report``
                                           GPARDRFE), ``sparse_select`` (RVMSelector,
                                           SMLRSelector), ``stability``
Díaz-Uriarte & Alvarez de Andrés 2006      ``forest`` (RFBackwardSelector,             ``leaderboard`` (with every
(random-forest gene selection; the         SmallForestClassifier: Breiman 2001's       method above, one nested
leaderboard's .632+ comparison)            forest, genesel's own numba trees),         protocol)
                                           ``discriminant`` (DLDA: Dudoit, Fridlyand
                                           & Speed 2002), ``centroids``
                                           (ShrunkenCentroids: PAM, Tibshirani 2002)
the data sets of all five                  ``datasets``, ``preprocessing``             ``datasets_overview``
                                           (LogTransform, GeneStandardizer,
                                           SampleStandardizer, MissingValueImputer,
                                           CountNormalizer)
=========================================  ==========================================  ==============================

K >= 3 classes: the methods that are binary by construction fit K classes one class against the rest (ALMA and
its selectors, the stump conjunctions with a union risk bound; :mod:`genesel._core.multiclass` holds the
decomposition and the bound) or jointly (AdaBoost as SAMME); ``multiclass`` (OneVsRestSelector) turns any binary
selector into a K-class one, combining the K rankings. The SVMs (``svm``: K machines on one Gram matrix, Rifkin &
Klautau 2004) and the rankings built on them (``rfe``, ``msvm_rfe``: summed squared weights; ``arom``: one rescaling
of the K machines), Golub's voting and signal-to-noise ranking (``voting``, ``filters``) are one-vs-rest with one
weight vector per class; ``filters`` adds the K-class statistics (ANOVASelector: the F test; KruskalWallisSelector:
Kruskal & Wallis 1952; FisherSelector: BSS/WSS, Dudoit et al. 2002); ``forward`` scores prefixes with the
one-vs-rest SVM; the forests (``forest``) are K-class by nature; ``metrics`` has the balanced error, per-class
recall, the macro one-vs-rest AUC and the confusion matrix.

Layers (a test enforces them): algorithm modules and ``_core`` (private, paper-agnostic: the SVM dual solvers, the
one small linear-algebra module, the Gram function, data-relative units, input checks, the estimator and selector
bases, the hyper-parameter constraints, fast math, BLAS threads) import nothing from ``datasets``, ``experiments``
or ``papers``; ``experiments`` holds protocols, the cached grid runner, tables and the notebook runner; ``papers``
is the only layer that loads data and runs grids. Package ``__init__`` files hold re-exports and constants only.
The numba kernels of the long algorithms sit in private modules beside their estimators, as scikit-learn keeps
``_classes.py`` apart from its helpers: ``_stumps_kernels`` (``stumps``), ``_rvm_kernels`` (``rvm``),
``_alma_kernels`` (``alma``), ``_forest_kernels`` (``forest``); their plain-Python twins are in ``tests/naive/``.

Every public estimator declares its hyper-parameters in ``_parameter_constraints`` and checks them with
scikit-learn's own validation at ``fit`` (a wrong value raises ``InvalidParameterError``, a ``ValueError`` naming
the parameter, the estimator and the allowed values); every selector stands on one base
(``genesel._core.selector``: tags, support mask, ``subset``, one rule for ``n_features_to_select``).
"""

from genesel._core import jit_cache as _jit_cache  # noqa: F401  first: where numba caches the kernels
from genesel._version import __version__
from genesel._core.validation import DegenerateModelWarning
from genesel.alma import ALMA, ALMAFS, ALMARFE, make_corr_pipeline
from genesel.arom import L2AROM
from genesel.centroids import ShrunkenCentroids
from genesel.discriminant import DLDA
from genesel.dwd import DWD
from genesel.filters import ANOVASelector, FisherSelector, KruskalWallisSelector, SignalToNoiseSelector
from genesel.forest import RFBackwardSelector, SmallForestClassifier
from genesel.forward import ForwardPath, forward_path
from genesel.gp import GaussianProcessClassifier
from genesel.gp_ard_select import GPARDFS, GPARDRFE
from genesel.msvm_rfe import MSVMRFE
from genesel.multiclass import OneVsRestSelector
from genesel.preprocessing import CountNormalizer, GeneStandardizer, LogTransform, MissingValueImputer, \
    SampleStandardizer
from genesel.rfe import SVMRFE
from genesel.rvm import RVM
from genesel.smlr import SMLR
from genesel.sparse_select import RVMSelector, SMLRSelector
from genesel.stumps import AdaBoostStumps, OccamStumps, PACBayesStumps, SampleCompressionStumps
from genesel.svm import KernelSVM, LinearSVM
from genesel.voting import GolubVoting

__all__ = ["__version__", "ALMA", "ALMAFS", "ALMARFE", "make_corr_pipeline", "DWD", "FisherSelector",
           "SignalToNoiseSelector", "GaussianProcessClassifier", "GeneStandardizer", "LogTransform",
           "MissingValueImputer", "SampleStandardizer", "CountNormalizer", "SVMRFE", "RVM", "SMLR", "KernelSVM",
           "LinearSVM",
           "GolubVoting", "L2AROM", "DegenerateModelWarning", "forward_path", "ForwardPath", "MSVMRFE",
           "GPARDFS", "GPARDRFE", "RVMSelector", "SMLRSelector", "OccamStumps", "SampleCompressionStumps",
           "PACBayesStumps", "AdaBoostStumps", "RFBackwardSelector", "SmallForestClassifier", "OneVsRestSelector",
           "ANOVASelector", "KruskalWallisSelector", "DLDA", "ShrunkenCentroids"]
