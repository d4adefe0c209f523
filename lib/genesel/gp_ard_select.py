"""Gene selection with cross-validated ARD values of Gaussian-process classifiers: GP-ARD-FS and GP-ARD-RFE.

M. Tan, *Comparative Study of Kernel Based Classification and Feature Selection Methods With Gene Expression Data*,
MSc thesis, UBC 2006, chapter 5. The classifier is :class:`genesel.gp.GaussianProcessClassifier` with the Laplace
approximation and one ARD value per gene (thesis Eq. 3.8, §4.3); its ARD values θ rank the genes (larger = more
relevant).

:class:`GPARDFS` — W. Chu, Z. Ghahramani, F. Falciani, D. L. Wild, *Biomarker discovery in microarray gene
expression data with Gaussian processes*, Bioinformatics 21(16), 2005, as given in thesis §5.3, Figure 5.3:

1. keep the genes whose two-sided Wilcoxon rank-sum p-value is below ``alpha`` (0.01);
2. split the training data into k folds; for each D^\\i (all folds but the i-th): fit GP-ARD (best evidence of
   several optimiser starts), rank the genes by θ_i (R_i), score every prefix of R_i by its LOO error on D^\\i and
   keep the smallest prefix with the fewest errors, M_i;
3. rank the genes of ∪ M_i by how many M_i hold them, ties by the average ARD value (R);
4. forward selection on R with LOO on the whole training data: the biomarker set M* is the smallest prefix with
   the fewest LOO errors.

:class:`GPARDRFE` — thesis §5.4, Figure 5.7 (the thesis' own method):

1. split the training data into k folds; C = all genes, d = |C|, m = the largest power of two below d;
2. while d >= 2^p: fit GP-ARD on every D^\\i restricted to C, giving θ_i and the ranked list R_i; normalise
   θ_i <- θ_i / ||θ_i|| (Eq. 5.4) and rank C by the average of the normalised θ_i (S). If d > 2^p: the genes in the
   top m of *no* R_i (L) are eliminated, those in the top m of *every* R_i (T) survive, and the remaining
   m - |T| places go to the best of S \\ (T ∪ L); C <- survivors, d <- m, m <- d / 2. Once d = 2^p the loop ends
   with S, the ranking of the last 2^p genes by their average normalised ARD values;
3. forward selection on S with LOO on the whole training data: M* is the smallest prefix with the fewest errors.

Warm starts along the elimination path. The figure does not say where the evidence maximisations of a round start.
Here the first optimiser run of round r's fold-i fit starts from fold i's fitted hyper-parameters of round r - 1
restricted to the surviving genes (``GaussianProcessClassifier.fit(theta_start=...)``); the ``n_restarts`` other runs
start from the perturbed default as in the first round, and the highest evidence wins. Same objective, box and
convergence test: only the start of one run moves (``_WARM_START_ROUNDS = False`` restores the cold starts). Its
consequence: elimination keeps the genes the fits found relevant and most of the eliminated ones sit on the lower bound
of their box (1e-12), so the previous maximum restricted to the survivors is nearly always still a KKT point. On
Chowdary's first leaderboard training part (83 x 22,283, 5 folds, ``n_restarts=0``, measured 2026-11-28) the fold fits
of rounds 2-8 converged within 0-94 iterations (cold: 66-456) at the same log evidence as their fold's first-round fit,
where the cold starts reached other maxima of the multimodal evidence (fold 0: -5.74 in round 2 against the warm -4.91;
folds 3 and 4 a few hundredths higher cold). With ``n_restarts=0`` the rounds after the first then rank the survivors
as the first round's fits did (up to the order of the genes on the bound, by their evidence gradients); the restarts
(``n_restarts=2``, the default) search afresh in every round.

The elimination rule of one round is the public function :func:`ard_rfe_round` (tested on a running example built
to the properties of thesis Figures 5.4-5.6; the figures' numbers are not in the text).

Grouped samples (``fit(X, y, groups=...)``, one label per sample: a patient whose tumour and normal tissue are both
in the data). The k folds then deal whole groups (:mod:`genesel._core.resampling`; ``n_folds`` bounded by the number
of groups of the smallest class) and every leave-one-out of a forward selection leaves a group out
(:func:`genesel.forward.forward_path`), so no fold fit ranks genes by, and no prefix is scored on, a sample whose
partner it was trained on. Without groups: as before, bit for bit.

Forward selection (step 4 of GP-ARD-FS, step 3 of GP-ARD-RFE and GP-ARD-FS' inner step 2) uses
:func:`genesel.forward.forward_path`. The thesis runs it with GP-Laplace without ARD and notes that "SVM can also be
used in forward selection" (§5.4): ``forward="svm"`` (default) is the exact incremental linear SVM, fast enough for
every prefix inside every fold; ``forward=<classifier>`` (e.g. ``GaussianProcessClassifier(ard=False)``) refits that
classifier for every prefix and left-out sample, which is exact and K·(n + 1) times the cost of one fit.

Units. The GP-ARD fits are data-relative (:mod:`genesel.gp`), but their ARD values in the units of X under- or
overflow for data near 1e200 or 1e-300 (every gene tied, gene 0 selected). Both selectors therefore fit on X times a
power of two (exact; data of ordinary scale are used as given, bit for bit), compare the ARD values in those units
and report them in the units of X (``fold_relevances_``, ``final_fold_relevances_``, ``rounds_``: 0 or inf where
those cannot hold them). The forward selection's linear SVM has its ``C`` in the units of X, as
:class:`genesel.svm.LinearSVM`'s, and is computed in the same units with C converted (and on centred samples where an
offset would drown the data in its Gram matrix): a C negligible at the scale of X raises ``ValueError`` before any GP
is fitted; on data near 1e200, C = 1 is the hard margin. A classifier of the user's (``forward=``) gets X as given.

Cost on today's arrays (``benchmarks/bench_wide.py``, one core). Each GP-ARD evidence evaluation on d genes costs O(n^2
d) (about 3 n^2 d multiply-adds: 11.5 ms at 66 x 22,283, 50 ms at 90 x 55,000, :mod:`genesel.gp`, "Cost"), but only
while the genes are free: the relevances the evidence pushes to the lower bound of their box leave the working set after
a few dozen iterations, and the rest of a fit costs O(n^2 x a few dozen genes) per iteration (:mod:`genesel.gp`,
"Iterations"). One first-round fold fit of GP-ARD-RFE on 90 x 55,000 (one start) took 3.3 s of CPU to converge (134
iterations) where the log-parameterised code took 16 s for the 200 iterations of its cap (measured side by side on a
loaded machine). Figures 5.3 and 5.7 maximise the evidence "several times" per fit (``n_restarts=2``: three starts). On
separable training folds the evidence rises with v0 beyond its box (:mod:`genesel.gp`, "Separable training folds"), and
runs that reach v0's upper bound 1e5 climb on that face of the box, recruiting genes, to a maximum over the box or for
thousands of iterations. ``GPARDRFE(random_state=0)`` with its defaults on 100 x 55,000 (one BLAS thread, loaded 2-core
machine): 549 s CPU, 12 of its 90 fold fits capped at 2,000 iterations (in the first three rounds), 6 of the 10
informative genes in an 11-gene signature; stopping the runs where they reach the bound
(``genesel.gp._STOP_ON_V0_BOUND``, off: no optimality test) took 341 s with the same signature quality, the winning run
of 53 of the 90 fold fits ending on the bound. Most of the rest is the fits' first phase: from every start about 100-150
evaluations on every gene of the round (5 s per start at 90 x 55,000), half of them spent leaving the flat model (the
first steps send v0 to 1e-4), times three starts, ten folds and nine rounds; ``n_restarts=0`` (the leaderboard's
setting) costs about a third of it. Measured 2026-11-28 (issue 41; one BLAS thread, 2-core machine under a load of
5-10): the overheads removed from :mod:`genesel.gp` ("Overheads and start points": the same fits bit for bit) and the
warm starts along the elimination path (above) bring ``GPARDRFE(random_state=0)`` to 396 s CPU, against 478 s for the
same code with cold starts (the fits of 12965de bit for bit: the same iterations, evidences and signature) in the same
period, and 604 s for 12965de itself measured earlier under a lighter load; one first-round fold fit with its three
starts 30.0 -> 22.5 s (same fit). With the warm starts 15 of the 90 fold fits did not meet their convergence test (cold:
14; all capped at 2,000 iterations on v0's upper bound, rounds 1-3), the later rounds' fits kept higher evidences (e.g.
folds 1 and 2 of round 6: -5.30 and -5.24 against -12.54 and -11.90 cold), and the signature holds 6 of the 10
informative genes in 32 genes (cold: 5 in 7; the top 10 of ``feature_order_`` 6 against 5). Issue 41's 60 s is not
reached: what remains is mostly the runs that climb on v0's upper bound for up to 2,000 iterations (the winning run of
13 of the 20 fold fits of rounds 1-2 ended at that cap), which the method keeps (:mod:`genesel.gp`, "Separable training
folds"), and the first phase of the two perturbed restarts, which start cold in every round. The default ``max_iter``
is 5000 since (one separable Subramanian fold needs 2,885 iterations to converge, :mod:`genesel.gp`): measured back to
back on the same loaded machine, ``GPARDRFE(random_state=0)`` on 100 x 55,000 took 450 s of CPU with 86 of its 90 fold
fits converged, against 368 s and 75 of 90 with the former 2000; the signature held 5 of the 10 informative genes in
16 genes against 6 in 32. GP-ARD-FS (one round, no
warm starts): 39.9 -> 37.5 s CPU with the same signature. Starting the ARD runs from the isotropic maximum was tried and
not kept (:mod:`genesel.gp`). GP-ARD-FS fits its GPs only on the genes that pass the Wilcoxon prefilter and runs a
leave-one-out forward selection over all of them in every fold (thesis §5.4, (3): "K·N·D validations"), so its cost
grows with the genes that pass (about 30 s with 544 of 55,000, 13 s with 3,448 of Chowdary's 22,283);
``max_forward_genes`` or a smaller ``alpha`` bound it. Since its left-out fits carry their dual gradients from prefix to
prefix (:mod:`genesel.forward`; measured 2026-12-02, ``benchmarks/bench_forward.py --cells``) the selector of the
board's cells takes 15.5 s instead of 22.6 on Gordon's first outer training part and 55.3 s instead of 75.5 on Su's
(four classes), with the same genes. The thesis itself left its 19,624-gene set out of these
comparisons as too high a dimensionality "for some algorithms" (§5.5). """

from __future__ import annotations

import warnings

import numpy as np
import scipy.stats
from sklearn.base import _fit_context, clone
from sklearn.utils import check_random_state

from genesel._core.params import POSITIVE_INT, POSITIVE_OR_INF, HasMethods, StrOptions, integer, real
from genesel._core.resampling import check_groups, resampling_masks, resolve_folds
from genesel._core.selector import SelectorBase
from genesel._core.units import in_x_units, scale_pow2, unit_row_exponent
from genesel._core.validation import check_classification_fit, check_expression_data
from genesel.filters import wilcoxon_pvalues
from genesel.forward import ForwardPath, forward_path
from genesel.gp import GaussianProcessClassifier
from genesel.msvm_rfe import linear_svm_units, svm_forward_path

__all__ = ["GPARDFS", "GPARDRFE", "ard_order", "ard_rfe_round", "normalise_ard", "halving_sizes", "prefilter_level",
           "kruskal_pvalues"]


def normalise_ard(theta):
    """θ / ||θ|| per row (thesis Eq. 5.4); an all-zero row stays zero."""
    theta = np.atleast_2d(np.asarray(theta, dtype=float))
    nrm = np.sqrt(np.sum(theta * theta, axis=1, keepdims=True))
    return theta / np.where(nrm > 0, nrm, 1.0)


def _rank_desc(values, tiebreak=None):
    """Indices by decreasing value, ties by decreasing ``tiebreak`` (if given), then by lower index."""
    values = np.asarray(values, dtype=float)
    if tiebreak is None:
        return np.argsort(-values, kind="stable")
    return np.lexsort((np.arange(values.size), -np.asarray(tiebreak, dtype=float), -values))


def ard_order(relevances, gradients):
    """Genes by decreasing ARD value; genes with equal values (in practice: every relevance that ended on the
    lower bound of its box, most genes of a wide array) by decreasing ∂ log evidence / ∂ l (closest to 0: the
    evidence pushes them out least; :attr:`genesel.gp.GaussianProcessClassifier.relevance_gradients_`), then by
    lower index."""
    return _rank_desc(relevances, gradients)


def ard_rfe_round(fold_theta, m, fold_gradients=None):
    """One elimination round of GP-ARD-RFE (thesis Figure 5.7, steps 2.1.1.3-2.1.3.5).

    Parameters
    ----------
    fold_theta : (k, d) ARD values of the d current genes from the k fold fits (not yet normalised).
    m : number of genes to keep (1 <= m <= d).
    fold_gradients : (k, d), optional
        ∂ log evidence / ∂ θ of every fit (:attr:`genesel.gp.GaussianProcessClassifier.relevance_gradients_`): breaks
        the ties of equal ARD values (relevances on the lower bound of their box) in each R_i (:func:`ard_order`)
        and the ties of equal averages in S (by the average of the normalised gradients, larger first). Without it
        ties go to the lower position.

    Returns
    -------
    dict with ``survivors`` (positions 0..d-1 of the m kept genes, in the order they were admitted: T by average
    ARD value, then the best of S \\ (T ∪ L)), ``L`` (positions eliminated because no fold ranks them in its top m),
    ``T`` (positions kept because every fold ranks them in its top m), ``S`` (all positions by decreasing average
    normalised ARD value), ``fold_rankings`` (k, d) (R_i, best first) and ``average`` (the average normalised ARD
    value of every position).
    """
    theta = np.asarray(fold_theta, dtype=float)
    if theta.ndim != 2 or theta.shape[0] < 1 or theta.shape[1] < 1:
        raise ValueError(f"fold_theta must be (k folds, d genes), got shape {theta.shape}")
    if not np.all(np.isfinite(theta)) or np.any(theta < 0):
        raise ValueError("ARD values must be finite and non-negative")
    k, d = theta.shape
    m = int(m)
    if not 1 <= m <= d:
        raise ValueError(f"m must be in 1..{d}, got {m}")
    if fold_gradients is None:
        grads = None
    else:
        grads = np.asarray(fold_gradients, dtype=float)
        if grads.shape != theta.shape or not np.all(np.isfinite(grads)):
            raise ValueError(f"fold_gradients must be finite with the shape of fold_theta {theta.shape}, got "
                             f"{grads.shape}")
    R = np.array([_rank_desc(row, None if grads is None else grads[i]) for i, row in enumerate(theta)])
    in_top = np.zeros((k, d), dtype=bool)
    for i in range(k):
        in_top[i, R[i, :m]] = True
    n_top = in_top.sum(axis=0)
    L = np.flatnonzero(n_top == 0)
    T = np.flatnonzero(n_top == k)
    avg = normalise_ard(theta).mean(axis=0)
    S = _rank_desc(avg, None if grads is None else normalise_ard(grads).mean(axis=0))
    T_sorted = S[np.isin(S, T)]
    rest = S[~np.isin(S, T) & ~np.isin(S, L)]
    survivors = np.concatenate([T_sorted, rest[: m - T.size]]).astype(np.int64)
    return {"survivors": survivors, "L": L, "T": T, "S": S, "fold_rankings": R, "average": avg}


def halving_sizes(d, p):
    """Gene counts GP-ARD-RFE visits: d, then the largest power of two below d, then halving down to 2^p.

    ``d <= 2^p`` visits only d (no elimination). Colon (2000 genes, p = 8): [2000, 1024, 512, 256].
    """
    d, p = int(d), int(p)
    if d < 1 or p < 0:
        raise ValueError(f"need d >= 1 and p >= 0, got d={d}, p={p}")
    target = 1 << p
    sizes = [d]
    if d <= target:
        return sizes
    m = 1 << (d.bit_length() - 1)
    if m == d:
        m //= 2
    while m >= target:
        sizes.append(m)
        m //= 2
    return sizes


def kruskal_pvalues(X, y):
    """Kruskal-Wallis p-values per gene (Kruskal & Wallis 1952): H = [12 / (N(N+1)) Σ_c R_c² / n_c − 3(N+1)] / (1 −
    Σ_ties (t³ − t) / (N³ − N)) with R_c the rank sum of class c, against the χ² distribution with K − 1 degrees of
    freedom; genes constant in the data get p = 1. The rank test of GP-ARD-FS' prefilter for K >= 3 classes (two
    classes: the rank-sum test, :func:`genesel.filters.wilcoxon_pvalues`, whose statistic this one generalises)."""
    X = check_expression_data(X, allow_constant=True)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"shape mismatch: X has {X.shape[0]} samples but y has shape {y.shape}")
    classes, yi = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y holds a single class ({classes.tolist()}); the Kruskal-Wallis test needs two or more")
    N = X.shape[0]
    R = scipy.stats.rankdata(X, axis=0)
    counts = np.bincount(yi)
    sums = np.zeros((classes.size, X.shape[1]))
    np.add.at(sums, yi, R)
    H = 12.0 / (N * (N + 1.0)) * np.sum(sums**2 / counts[:, None], axis=0) - 3.0 * (N + 1.0)
    Xs = np.sort(X, axis=0)
    tie = np.zeros(X.shape[1])
    for j in np.flatnonzero((Xs[1:] == Xs[:-1]).any(axis=0)):
        _, t = np.unique(Xs[:, j], return_counts=True)
        tie[j] = np.sum(t.astype(float) ** 3 - t)
    corr = 1.0 - tie / (N**3 - N)
    with np.errstate(divide="ignore", invalid="ignore"):
        H = np.where(corr > 0, H / corr, 0.0)
    return np.where(corr > 0, scipy.stats.chi2.sf(np.maximum(H, 0.0), classes.size - 1), 1.0)


def prefilter_level(pvalues, alpha, test="Wilcoxon"):
    """The significance level of GP-ARD-FS' rank-test prefilter (Wilcoxon for two classes, Kruskal-Wallis for
    more: ``test`` names it in the warning) that keeps at least one gene: ``alpha`` itself when a gene has
    p < alpha, else the first of 10 alpha, 100 alpha, ... (at most 1, which keeps every gene) that lets one
    through, with a ``UserWarning`` saying so. On small data (a few samples per class) no p-value can fall below
    0.01, and the default then falls back instead of refusing to fit."""
    pvalues = np.asarray(pvalues, dtype=float)
    level = float(alpha)
    if np.any(pvalues < level):
        return level
    while level < 1.0 and not np.any(pvalues < level):
        level = min(1.0, level * 10.0)
    kept = int(np.sum(pvalues < level)) if level < 1.0 else pvalues.size
    warnings.warn(f"GPARDFS: no gene has a {test} p-value below alpha={alpha:g} (smallest {pvalues.min():.3g}, "
                  f"e.g. too few samples per class for such a p-value); the prefilter uses alpha={level:g} instead "
                  f"({kept} gene(s) pass; alpha_ records it): pass a larger alpha to choose the level yourself",
                  UserWarning, stacklevel=3)
    return level


#: the constraints GP-ARD-FS and GP-ARD-RFE share
_COMMON = {"n_folds": [StrOptions({"auto"}), integer(2, None, "left")], "n_restarts": [integer(0, None, "left")],
           "max_iter": [POSITIVE_INT],
           "forward": [StrOptions({"svm"}), HasMethods(["fit"])], "C": [POSITIVE_OR_INF],
           "random_state": ["random_state"]}


class _GPARDBase(SelectorBase):
    _multi_class = True  # multi-class Laplace GP-ARD fits, one-vs-rest forward selection
    def _check_folds(self, y_pm1, groups=None):
        """Sets and returns ``n_folds_`` (:func:`genesel._core.resampling.resolve_folds`; classes counted in groups
        with ``groups``) and ``_groups`` (the validated groups or None, read by :meth:`_forward`)."""
        self._groups = check_groups(type(self).__name__, groups, y_pm1.size)
        self.n_folds_ = resolve_folds(type(self).__name__, self.n_folds, y_pm1, groups=self._groups)
        return self.n_folds_

    def _groups_of(self, rows):
        """The groups of the training samples ``rows`` (all when None) as a keyword of the forward selection."""
        g = getattr(self, "_groups", None)  # set by fit (a forward selection called on its own has none)
        if g is None:
            return {}
        return {"groups": g if rows is None else g[rows]}

    def _gp(self, seed):
        return GaussianProcessClassifier(approximation="laplace", ard=True, n_restarts=self.n_restarts,
                                         max_iter=self.max_iter, random_state=seed)

    def _units(self, X):
        """Data-relative units (exact; see :mod:`genesel._core.units`): X times a power of two for the GP-ARD fits,
        whose ARD values are then compared in those units (in the units of X they under- or overflow for data near
        1e200 or 1e-300), and for the forward selection's linear SVM with its C converted (``C`` is in the units of X,
        as :class:`genesel.svm.LinearSVM`'s; a negligible C raises here, before any GP is fitted). Data of ordinary
        scale get the exponent 0 and are used as they are, bit for bit. Sets ``_Xs``, ``_svm_units``, ``_exp2``."""
        if self.forward == "svm":
            self._svm_units = linear_svm_units(type(self).__name__, self.C, X)
            self._Xs, _, self._exp2, _ = self._svm_units
        else:  # the user's classifier gets X in its own units
            self._exp2 = unit_row_exponent(X)
            self._Xs, self._svm_units = scale_pow2(X, self._exp2), None
        return self._Xs

    def _in_x_units(self, theta):
        """ARD values of the data-relative units in the units of X (quietly 0 or inf where those cannot hold them)."""
        return in_x_units(theta, 2 * self._exp2) if self._exp2 else theta

    def _gradients_in_x_units(self, grads):
        """∂ log evidence / ∂ θ of the data-relative units in the units of X."""
        return in_x_units(grads, -2 * self._exp2) if self._exp2 else grads

    def _forward(self, X, y, order, max_genes=None, rows=None):
        """Forward selection with leave-one-out along ``order`` with the SVM (on the data-relative X, C converted)
        or the user's classifier (on X as given); ``rows``: the training samples to use (default all). K >= 3
        classes: :meth:`_forward_multiclass`."""
        if self._n_classes > 2:
            return self._forward_multiclass(X, y, order, max_genes, rows)
        if self.forward == "svm":
            Xs, C_s, e, kmax = self._svm_units
            units = (Xs if rows is None else Xs[rows], C_s, e, kmax)
            return svm_forward_path(type(self).__name__, self.C, units, y, order, max_genes=max_genes,
                                    **self._groups_of(rows))
        return forward_path(X if rows is None else X[rows], y, order, max_genes=max_genes,
                            estimator=clone(self.forward), **self._groups_of(rows))

    def _forward_multiclass(self, X, y, order, max_genes, rows):
        """The LOO forward selection on K >= 3 classes (labels ``y`` 0..K-1 of the rows used).

        ``forward="svm"``: one-vs-rest linear SVMs. For every class c the incremental binary path of the SVM of c
        against the rest gives every prefix's LOO decision value of every training sample (the SVM trained without
        that sample, :func:`genesel.forward.forward_path`); the LOO prediction is the class whose SVM gives the
        largest decision value (the one-vs-rest rule), so the path costs K binary paths. A classifier of the user's
        is refitted on the K classes for every prefix and left-out sample. Returns a
        :class:`genesel.forward.ForwardPath` with ``loo_errors`` over the K classes and ``loo_decision`` of shape
        (prefixes, samples, K) (the one-vs-rest decision values, or for a user's classifier 1 at the class it
        predicts and 0 elsewhere); ``classes`` holds the labels 0..K-1 of ``y``."""
        labels = np.unique(y)
        order = np.asarray(order, dtype=np.int64)
        kmax = order.size if max_genes is None else int(max_genes)
        if self.forward == "svm":
            Xs, C_s, e, km = self._svm_units
            units = (Xs if rows is None else Xs[rows], C_s, e, km)
            dec = np.stack([svm_forward_path(type(self).__name__, self.C, units, np.where(y == c, 1, -1), order,
                                             max_genes=max_genes, **self._groups_of(rows)).loo_decision
                            for c in labels], axis=2)
        else:
            Xr = X if rows is None else X[rows]
            n = Xr.shape[0]
            unit = self._groups_of(rows).get("groups", np.arange(n))  # leave one group out (one sample without)
            dec = np.zeros((kmax, n, labels.size))
            for k in range(kmax):
                g = order[: k + 1]
                for i in range(n):
                    keep = unit != unit[i]
                    pred = clone(self.forward).fit(Xr[np.ix_(keep, g)], y[keep]).predict(Xr[i : i + 1, g])
                    dec[k, i, np.searchsorted(labels, pred[0])] = 1.0
        errors = np.sum(labels[np.argmax(dec, axis=2)] != y[None, :], axis=1)
        return ForwardPath(order=order[:kmax], sizes=np.arange(1, kmax + 1), n_train=int(y.size), n_test=0,
                           classes=labels, loo_errors=errors, loo_decision=dec)

    def _labels(self, X, y, min_samples):
        """Validated X, the labels the fits see (±1 for two classes, as before; 0..K-1 for K >= 3) and
        ``classes_``/``_n_classes``."""
        X, y_index, self.classes_ = check_classification_fit(self, X, y, constant="keep", min_samples=min_samples)
        self._n_classes = self.classes_.size
        return X, (np.where(y_index == 1, 1, -1).astype(np.int64) if self._n_classes == 2 else y_index)

    def _drop_units(self):
        del self._Xs, self._svm_units
        self.__dict__.pop("_groups", None)



#: GP-ARD-RFE: the first optimiser run of a round's fold-i fit starts from fold i's fit of the round before, restricted
#: to the surviving genes (:func:`_warm_starts`); False: from the default start, as the restarts do.
_WARM_START_ROUNDS = True


def _warm_starts(prev, genes):
    """The first starts of a GP-ARD-RFE round's fold fits: fold i's fitted log hyper-parameters of the round before
    (``prev`` = (its genes, the k ``theta_``), in the units the fits saw) restricted to ``genes`` (a subset of those,
    ascending), v0, v1 and v2 as they ended. Elimination keeps the genes the fits
    found relevant, so the previous maximum restricted to them is near a maximum of the smaller problem: the fit skips
    the first phase of a cold start (leaving the flat model and pushing thousands of relevances to their bound,
    :mod:`genesel.gp`, "Iterations"). A start point only: the objective and the convergence test are the same, and the
    restarts still start from the perturbed default (``GaussianProcessClassifier.fit(theta_start=...)``)."""
    old_genes, thetas = prev
    pos = np.searchsorted(old_genes, genes)
    if np.any(pos >= old_genes.size) or np.any(old_genes[np.minimum(pos, old_genes.size - 1)] != genes):
        raise ValueError("GP-ARD-RFE: the genes of a round must be a subset of the round before")
    d_old = old_genes.size
    return [np.concatenate([t[:1], t[1 : 1 + d_old][pos], t[1 + d_old :]]) for t in thetas]


class GPARDRFE(_GPARDBase):
    """GP-ARD-RFE (thesis §5.4, Figure 5.7): k-fold GP-ARD, normalised average ARD values with the L/T rules,
    halving to 2^p genes, then forward selection with LOO.

    Parameters
    ----------
    n_folds : int or "auto", default "auto"
        k of the k-fold split of the training data. ``"auto"``: 10 (the thesis' choice), or the size of the smallest
        class when that is smaller (the number used is ``n_folds_``); an explicit k larger than the smallest class
        raises.
    p : int, default 8
        Elimination stops at 2^p genes (thesis: "empirically, p = 8 is a good choice").
    n_restarts : int, default 2
        Extra seeded starting points of the evidence maximisation of every GP-ARD fit (the best evidence wins;
        Figures 5.3 and 5.7: "maximizing the evidence several times"). The cost grows with the starts (see the
        module docstring, "Cost"); ``n_restarts=0`` is the leaderboard's setting.
    max_iter : int, default 5000
        L-BFGS-B iterations per start (:class:`genesel.gp.GaussianProcessClassifier`). Fits that stop at the cap
        warn (``ConvergenceWarning``); ``fold_converged_`` records which fits met the convergence test.
    forward : "svm" or a scikit-learn classifier, default "svm"
        Classifier of the final LOO forward selection (see the module docstring).
    C : float, default 1.0
        Box constraint of the forward-selection SVM, in the units of X (see the module docstring, "Units").
    random_state : int, RandomState or None
        Seeds the folds and the optimiser restarts.

    Attributes
    ----------
    feature_order_ : all genes, best first: the 2^p survivors by S, then the genes eliminated in the last round,
        ..., the first round's last (within a round by decreasing average normalised ARD value).
    ranking_ : 1 = best, all distinct.  support_ : the biomarker set M*.  n_features_ : |M*|.
    sizes_ : the gene counts visited (e.g. [2000, 1024, 512, 256]); ``n_iter_`` their number (rounds of k fits).
    rounds_ : one dict per elimination round (``genes`` before the round, ``survivors``, ``L``, ``T`` as gene
        indices, ``fold_relevances`` (k, d) and ``average``).
    final_fold_relevances_ : (k, 2^p) ARD values of the last k fold fits; ``average_relevance_`` their normalised
        average; ``fold_log_evidence_`` the evidences of every fit, per round; ``fold_n_iter_`` and
        ``fold_converged_`` their L-BFGS-B iterations and whether each met its convergence test (not the
        ``max_iter`` cap, nor a stop on v0's upper bound: :mod:`genesel.gp`, "Separable training folds"), one array
        of k per round.
    forward_path_ : the :class:`genesel.forward.ForwardPath` of step 3.
    train_masks_ : (k, n_samples) the fold training masks.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import GPARDRFE
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 32)), np.repeat([-1, 1], 20)    # 40 samples x 32 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> rfe = GPARDRFE(n_folds=3, p=2, n_restarts=0, random_state=0).fit(X, y)
    >>> rfe.sizes_, rfe.feature_order_[:4].tolist()                 # halving down to 2^p genes
    ([32, 16, 8, 4], [0, 1, 3, 2])
    >>> np.flatnonzero(rfe.support_).tolist()
    [0, 1, 2, 3]
    """

    _parameter_constraints = {**_COMMON, "p": [integer(0, None, "left")]}

    def __init__(self, *, n_folds="auto", p=8, n_restarts=2, max_iter=5000, forward="svm", C=1.0, random_state=None):
        self.n_folds = n_folds
        self.p = p
        self.n_restarts = n_restarts
        self.max_iter = max_iter
        self.forward = forward
        self.C = C
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)  # a user's forward classifier validates its own
    def fit(self, X, y, groups=None):
        """Rank the genes by the elimination rounds and choose the biomarker set; ``groups`` (one label per sample,
        e.g. a patient): the k folds and the leave-one-out of the forward selection keep a group together (module
        docstring, "Grouped samples")."""
        X, y_pm1 = self._labels(X, y, 4)  # K >= 3 classes: labels 0..K-1
        n, d = X.shape
        self._check_folds(y_pm1, groups)
        Xs = self._units(X)
        rng = check_random_state(self.random_state)
        masks = resampling_masks(y_pm1, self.n_folds_, 1, rng, self._groups)
        seeds = rng.randint(0, 2**31 - 1, size=(len(halving_sizes(d, self.p)), self.n_folds_))
        sizes = halving_sizes(d, self.p)
        C = np.arange(d)
        rounds, evid, eliminated_blocks, iters, converged = [], [], [], [], []
        prev = None  # (genes, the fold fits' theta_) of the round before: the first start of this round's fits
        for r in range(len(sizes)):
            theta = np.empty((self.n_folds_, C.size))
            grads = np.empty((self.n_folds_, C.size))
            ev = np.empty(self.n_folds_)
            it, conv = np.zeros(self.n_folds_, dtype=np.int64), np.zeros(self.n_folds_, dtype=bool)
            starts = (_warm_starts(prev, C) if _WARM_START_ROUNDS and prev is not None else
                      [None] * self.n_folds_)
            fits = []
            for i, mask in enumerate(masks):
                gp = self._gp(int(seeds[r, i])).fit(Xs[np.ix_(mask, C)], y_pm1[mask], theta_start=starts[i])
                fits.append(gp.theta_)
                theta[i] = gp.relevances_  # in the data-relative units of Xs
                grads[i] = gp.relevance_gradients_  # ties of theta (relevances on their lower bound)
                ev[i] = gp.log_marginal_likelihood_
                it[i], conv[i] = gp.n_iter_, gp.optimizer_converged_
            evid.append(ev)
            iters.append(it)
            converged.append(conv)
            prev = (C.copy(), fits)
            if r + 1 < len(sizes):
                res = ard_rfe_round(theta, sizes[r + 1], grads)
                keep = res["survivors"]
                gone = res["S"][~np.isin(res["S"], keep)]  # eliminated, best first by average ARD value
                eliminated_blocks.append(C[gone])
                rounds.append({"genes": C.copy(), "survivors": C[keep], "L": C[res["L"]], "T": C[res["T"]],
                               "fold_relevances": self._in_x_units(theta), "average": res["average"],
                               "fold_gradients": self._gradients_in_x_units(grads)})
                C = np.sort(C[keep])
            else:
                avg = normalise_ard(theta).mean(axis=0)
                S = C[_rank_desc(avg, normalise_ard(grads).mean(axis=0))]
                self.final_fold_gradients_ = self._gradients_in_x_units(grads)
                self.final_fold_relevances_ = self._in_x_units(theta)
                self.average_relevance_ = avg  # normalised: no units
                self.final_genes_ = C.copy()
        self.feature_order_ = np.concatenate([S] + eliminated_blocks[::-1]).astype(np.int64)
        self.ranking_ = np.empty(d, dtype=np.int64)
        self.ranking_[self.feature_order_] = np.arange(1, d + 1)
        self.sizes_ = sizes
        self.n_iter_ = len(sizes)
        self.rounds_ = rounds
        self.fold_log_evidence_ = evid
        self.fold_n_iter_ = iters
        self.fold_converged_ = converged
        self.train_masks_ = masks
        self.forward_path_ = self._forward(X, y_pm1, S)
        self._drop_units()
        k = self.forward_path_.biomarker_size("loo")
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[S[:k]] = True
        self.n_features_ = int(k)
        return self

    def _visited_sizes(self):
        return self.sizes_


class GPARDFS(_GPARDBase):
    """GP-ARD-FS (Chu et al. 2005; thesis §5.3, Figure 5.3): Wilcoxon prefilter, k-fold GP-ARD with a LOO forward
    selection inside every fold, genes ranked by how often the folds pick them, final LOO forward selection.

    ``fit(X, y, prefilter_X=None)``: the rank-sum test runs on ``prefilter_X`` when given (the same samples, e.g.
    another scale of the values: the test is invariant to a monotone transformation of each gene but not to a
    per-sample one) and on ``X`` otherwise.

    Parameters
    ----------
    alpha : float, default 0.01
        Significance level of the two-sided Wilcoxon rank-sum prefilter (genes with p < alpha pass). When no gene
        passes (small data cannot reach p < 0.01), the level falls back to 10 alpha, 100 alpha, ... until one does,
        with a warning (:func:`prefilter_level`; the level used is ``alpha_``).
    n_folds, n_restarts, max_iter, forward, C, random_state : as in :class:`GPARDRFE`.
    max_forward_genes : int or None, default None
        Longest prefix scored by each inner forward selection (None: all prefiltered genes, as in Figure 5.3). The
        inner forward selections are most of the cost on wide data; their cost grows with the genes that pass the
        prefilter, which this bounds (see the module docstring, "Cost").

    Attributes
    ----------
    pvalues_ : Wilcoxon p-value of every gene.  alpha_ : the level used.  prefilter_support_ : mask of the genes with
    p < alpha_.
    fold_rankings_ : (k, d') R_i as gene indices.  fold_relevances_ : (k, d') ARD values (prefiltered genes in
    ascending index order).  fold_minimal_sets_ : list of the k minimal sets M_i (gene indices, rank order).
    counts_ : dict gene -> number of M_i holding it.  n_iter_ : k (the GP-ARD fits).  fold_n_iter_, fold_converged_ :
    (k,) L-BFGS-B iterations of every fold's GP-ARD fit and whether it met its convergence test.
    candidate_order_ : R (the union ranked by count, then by average ARD value).  forward_path_ : step 5.
    support_ : M*.  feature_order_ / ranking_ : R first, then the other prefiltered genes by average ARD value, then
    the genes that failed the prefilter by p-value.

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import GPARDFS
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> fs = GPARDFS(alpha=0.01, n_folds=3, n_restarts=0, random_state=0).fit(X, y)
    >>> np.flatnonzero(fs.prefilter_support_).tolist()              # Wilcoxon p < 0.01
    [0, 1, 2, 3, 7, 60, 78, 81]
    >>> fs.counts_                                                  # in how many folds' minimal sets
    {0: 3, 1: 3, 81: 2, 2: 2, 3: 1, 7: 1}
    >>> np.flatnonzero(fs.support_).tolist()
    [0, 1, 2, 3, 81]
    """

    _parameter_constraints = {**_COMMON, "alpha": [real(0, 1, "right")], "max_forward_genes": [POSITIVE_INT, None]}

    def __init__(self, *, alpha=0.01, n_folds="auto", n_restarts=2, max_iter=5000, forward="svm", C=1.0,
                 max_forward_genes=None, random_state=None):
        self.alpha = alpha
        self.n_folds = n_folds
        self.n_restarts = n_restarts
        self.max_iter = max_iter
        self.forward = forward
        self.C = C
        self.max_forward_genes = max_forward_genes
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)  # a user's forward classifier validates its own
    def fit(self, X, y, prefilter_X=None, groups=None):
        """Prefilter, rank and choose the biomarker set (class docstring); ``groups`` (one label per sample, e.g. a
        patient): the k folds and every leave-one-out of the forward selections keep a group together (module
        docstring, "Grouped samples")."""
        X, y_pm1 = self._labels(X, y, 4)  # K >= 3 classes: labels 0..K-1
        n, d = X.shape
        self._check_folds(y_pm1, groups)
        if prefilter_X is None:
            P = X
        else:
            P = check_expression_data(prefilter_X, name="prefilter_X", allow_constant=True)
            if P.shape != X.shape:
                raise ValueError(f"prefilter_X must have the shape of X {X.shape} (same samples and genes), got "
                                 f"{P.shape}")
        if self._n_classes == 2:
            self.pvalues_ = wilcoxon_pvalues(P, y_pm1)
            self.alpha_ = prefilter_level(self.pvalues_, self.alpha)
        else:
            self.pvalues_ = kruskal_pvalues(P, y_pm1)
            self.alpha_ = prefilter_level(self.pvalues_, self.alpha, test="Kruskal-Wallis")
        self.prefilter_support_ = self.pvalues_ < self.alpha_ if self.alpha_ < 1.0 else self.pvalues_ <= 1.0
        G = np.flatnonzero(self.prefilter_support_)
        Xs = self._units(X)
        rng = check_random_state(self.random_state)
        masks = resampling_masks(y_pm1, self.n_folds_, 1, rng, self._groups)
        seeds = rng.randint(0, 2**31 - 1, size=self.n_folds_)
        theta = np.empty((self.n_folds_, G.size))
        grads = np.empty((self.n_folds_, G.size))
        self.fold_n_iter_ = np.zeros(self.n_folds_, dtype=np.int64)
        self.fold_converged_ = np.zeros(self.n_folds_, dtype=bool)
        R, M = [], []
        for i, mask in enumerate(masks):
            gp = self._gp(int(seeds[i])).fit(Xs[np.ix_(mask, G)], y_pm1[mask])
            theta[i] = gp.relevances_  # in the data-relative units of Xs
            grads[i] = gp.relevance_gradients_  # ties of theta (relevances on their lower bound)
            self.fold_n_iter_[i], self.fold_converged_[i] = gp.n_iter_, gp.optimizer_converged_
            Ri = G[ard_order(theta[i], grads[i])]
            R.append(Ri)
            kmax = None if self.max_forward_genes is None else min(int(self.max_forward_genes), G.size)
            path = self._forward(X, y_pm1[mask], Ri, max_genes=kmax, rows=mask)
            M.append(Ri[: path.biomarker_size("loo")])
        avg = dict(zip(G.tolist(), theta.mean(axis=0).tolist()))
        avg_grad = dict(zip(G.tolist(), normalise_ard(grads).mean(axis=0).tolist()))
        counts = {}
        for Mi in M:
            for g in Mi.tolist():
                counts[g] = counts.get(g, 0) + 1
        cand = sorted(counts, key=lambda g: (-counts[g], -avg[g], -avg_grad[g], g))
        cand = np.array(cand, dtype=np.int64)
        self.forward_path_ = self._forward(X, y_pm1, cand)
        self._drop_units()
        k = self.forward_path_.biomarker_size("loo")
        rest = [g for g in G[_rank_desc(theta.mean(axis=0), normalise_ard(grads).mean(axis=0))].tolist()
                if g not in counts]
        failed = np.flatnonzero(~self.prefilter_support_)
        failed = failed[np.argsort(self.pvalues_[failed], kind="stable")]
        self.feature_order_ = np.concatenate([cand, np.array(rest, dtype=np.int64), failed]).astype(np.int64)
        self.ranking_ = np.empty(d, dtype=np.int64)
        self.ranking_[self.feature_order_] = np.arange(1, d + 1)
        self.fold_rankings_ = np.array(R)
        self.fold_relevances_ = self._in_x_units(theta)
        self.fold_relevance_gradients_ = self._gradients_in_x_units(grads)
        self.fold_minimal_sets_ = M
        self.counts_ = counts
        self.n_iter_ = int(self.n_folds_)
        self.candidate_order_ = cand
        self.train_masks_ = masks
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[cand[:k]] = True
        self.n_features_ = int(k)
        return self
