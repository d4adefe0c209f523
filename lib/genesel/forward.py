"""Forward selection over a ranked gene list: test and leave-one-out accuracy of every prefix, optimal subsets and
the biomarker set (Tan 2006, MSc thesis, §4.2-4.3, Tables 4.2-4.5, Figures 4.2 and 4.6; §5.3-5.4, step (3.1.3)-(3.1.5)
of Figure 5.3 and step 3 of Figure 5.7).

Given a ranking r of the genes (best first), the k-th candidate subset is the prefix r[:k], k = 1, 2, ..., K. Every
prefix is scored by a classifier trained on the training samples restricted to those genes:

* the *test accuracy* on held-out samples (when given), and
* the *leave-one-out (LOO) accuracy* on the training samples (each training sample predicted by the classifier
  trained on the other ones, with the same genes; with ``groups``, on the other groups: see below).

Thesis definitions (§4.2, captions of Tables 4.2 and 4.3): an *optimal subset* is a prefix with the highest accuracy
(by test accuracy, or by LOO accuracy on the training data when the test set may not be used); the *biomarker set*
is the smallest optimal subset. :class:`ForwardPath` reports all optimal sizes (every tie), their number and the
biomarker size; with several optimal prefixes the thesis' "# opt. sets" column is that count.

Linear SVM, incrementally (:func:`forward_path` with ``estimator="svm"``). Adding gene g changes the linear Gram
matrix by a rank-one term, K ← K + x_g x_gᵀ, and leaves the dual constraints unchanged, so the SVM of the previous
prefix is a feasible warm start for the next one (a few SMO steps, :mod:`genesel._core.smo`). The LOO fits use two
exact shortcuts: (i) a training sample i that is not a support vector of the full fit (α_i = 0) leaves the solution
unchanged when removed (the remaining KKT conditions and y·α = 0 still hold), so its LOO decision value is the full
model's; (ii) otherwise the fit without i is warm-started from its own solution at the previous prefix. Each left-out
fit also keeps its dual gradient G = Q a - e across prefixes: the added gene moves it by y_p x_p (x . (a y)) at
every sample p, O(n) where recomputing it costs O(n^2), and it is recomputed exactly every
``_EXACT_GRADIENT_EVERY`` prefixes so that rounding cannot accumulate (the solves then stop at the same tolerance;
the decisions differ from solving afresh by rounding and by where within that tolerance a solve stops). The whole
path is one numba function (:func:`_svm_forward`, plain-Python twin in ``tests/naive/forward.py``). Any other
scikit-learn classifier (e.g. the GP-Laplace without ARD of Figure 5.3) is refitted from scratch for every prefix
and every left-out sample (``estimator=<classifier>``), which is exact but costs K·(n + 1) fits.

Leave-one-group-out (``groups``: one label per sample, e.g. the patient of a paired study whose tumour and normal
tissue are both training samples). Leaving out one sample of a pair keeps its partner in the training part: the two
share everything that identifies the patient, so the held-out sample is scored by a model that has in effect seen it,
the LOO accuracy is optimistic and the biomarker set chosen by it (§4.2; steps (3.1.3)-(3.1.5) of Figure 5.3, step 3
of Figure 5.7) rewards genes that tell patients apart rather than classes. With ``groups`` the unit left out is a
whole group: the LOO decision of sample i is that of the classifier trained on the samples outside i's group, and
the LOO errors still count samples (the accuracy is over the n training samples). The SVM shortcuts carry over
unit by unit: (i) if no member of the group is a support vector of the full fit, the full solution remains optimal
without the group (the other KKT conditions and y·α = 0 are untouched), so its members get the full model's
decisions; (ii) otherwise the fit without the group is warm-started from its own solution at the previous prefix.
With every sample its own group (``groups=np.arange(n)``) this is the leave-one-out above, bit for bit. Every
training part must keep a sample of every class: removing any one group must leave one of each (the ungrouped rule
of two samples per class, counted in groups).

More than two classes. The linear SVM becomes the one-vs-rest SVM of :mod:`genesel.svm`: machine c separates class c
from the rest, a sample goes to the class whose machine gives the largest decision value. The machines are
independent binary SVMs, so every prefix's test and leave-one-out decisions are those of :func:`_svm_forward` run
once per class on the one-vs-rest labels (the LOO decision of machine c for sample i is machine c trained without
i, or without i's group: exactly the one-vs-rest classifier without it), and the prediction is their arg max: C
times the binary cost, and no new kernel. Decision values are then kept with a class axis (prefixes x samples x
classes). A user's ``estimator`` is refitted on the original labels (it must take all the classes).
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from genesel._core.resampling import GroupSplitError, check_groups, group_units
from genesel._core.smo import UNBOUNDED_DUAL, gradient, newton_step, rho, smo, warm_solve
from genesel._core.validation import check_expression_data, to_pm1

__all__ = ["ForwardPath", "forward_path", "optimal_sizes"]


# ----------------------------------------------------------------------------------------------------------------
# numba kernel (plain-Python twin in tests/naive/forward.py)
# ----------------------------------------------------------------------------------------------------------------

#: Prefixes between two exact recomputations of a left-out fit's dual gradient (:func:`_svm_forward` updates it by
#: the added gene's rank-one term in between; one O(n^2) recomputation per this many O(n) updates).
_EXACT_GRADIENT_EVERY = 32
#: A left-out fit's multiplier closer than this fraction of its largest multiplier to a bound is put on it
#: (:func:`_snap_residues`).
_RESIDUE = 1e-12


@njit(cache=True)
def _snap_residues(K, y, C, a, G):
    """Put on its bound every multiplier within rounding of it (closer than ``_RESIDUE`` times the largest
    multiplier), G updated with the move. A clipped Newton step can leave 1e-16 where two multipliers reach their
    bound at one step length; counted as free, such a residue would pin rho to its own y G where, with no multiplier
    free, the threshold is any point of an interval (LIBSVM's midpoint, which a solve from scratch gives)."""
    n = a.shape[0]
    amax = 0.0
    for p in range(n):
        if a[p] > amax:
            amax = a[p]
    eps = _RESIDUE * amax
    for p in range(n):
        if a[p] > 0.0 and a[p] < C:
            to = -1.0
            if a[p] < eps:
                to = 0.0
            elif C - a[p] < eps:
                to = C
            if to >= 0.0:
                step = to - a[p]
                a[p] = to
                for q in range(n):
                    G[q] += y[q] * y[p] * K[q, p] * step


@njit(cache=True)
def _svm_forward(Xt, y, Tt, C, tol, max_iter, do_loo, unit_start, unit_members):
    """Linear C-SVM on every prefix of the rows of ``Xt`` (genes in rank order x training samples).

    ``Tt`` (genes x test samples, may have 0 columns). The LOO units (CSR): unit u holds the training samples
    ``unit_members[unit_start[u]:unit_start[u + 1]]`` (one sample per unit: leave-one-out; a group per unit:
    leave-one-group-out). Returns ``(test_dec, loo_dec, worst_gap)``: decision values of the test samples (K x m)
    and the LOO decision value of every training sample, from the fit without its unit (K x n; zeros when not
    ``do_loo``), and the largest final SMO gap seen (>= tol means a solve hit ``max_iter``).
    """
    K_, n = Xt.shape
    m = Tt.shape[1]
    U = unit_start.shape[0] - 1
    Kf = np.zeros((n, n))
    Kt = np.zeros((m, n))
    alpha = np.zeros(n)
    loo_alpha = np.zeros((U, n))  # row u: the fit without unit u (its members' entries stay 0), in full indexing
    loo_G = np.full((U, n), -1.0)  # row u: that fit's gradient Q a - e on the current Gram matrix (members unused)
    test_dec = np.zeros((K_, m))
    loo_dec = np.zeros((K_, n))
    worst = 0.0
    smallest = n
    for u in range(U):
        if unit_start[u + 1] - unit_start[u] < smallest:
            smallest = unit_start[u + 1] - unit_start[u]
    nmax = n - smallest  # the largest sub-problem; smaller ones use the leading part of the buffers
    sub_buf = np.empty(nmax * nmax)
    ys_buf = np.empty(nmax)
    a_buf = np.empty(nmax)
    g_buf = np.empty(nmax)
    idx = np.empty(nmax, dtype=np.int64)
    left_out = np.zeros(n, dtype=np.bool_)
    c = np.empty(n)
    for k in range(K_):
        for p in range(n):
            xp = Xt[k, p]
            if xp != 0.0:
                for q in range(n):
                    Kf[p, q] += xp * Xt[k, q]
        for t in range(m):
            tt = Tt[k, t]
            if tt != 0.0:
                for q in range(n):
                    Kt[t, q] += tt * Xt[k, q]
        G, it, gap = warm_solve(Kf, y, C, alpha, k > 0, tol, max_iter)
        if gap > worst:
            worst = gap
        r = rho(y, C, alpha, G)
        for p in range(n):
            c[p] = alpha[p] * y[p]
        for t in range(m):
            s = 0.0
            for q in range(n):
                s += Kt[t, q] * c[q]
            test_dec[k, t] = s - r
        if not do_loo:
            continue
        exact = k % _EXACT_GRADIENT_EVERY == 0
        for u in range(U):
            b0 = unit_start[u]
            b1 = unit_start[u + 1]
            sv = False
            for t in range(b0, b1):
                if alpha[unit_members[t]] > 0.0:
                    sv = True
            if not sv:
                # no member is a support vector: removing the unit leaves the solution (and rho) unchanged
                for t in range(b0, b1):
                    i = unit_members[t]
                    s = 0.0
                    for q in range(n):
                        s += Kf[i, q] * c[q]
                    loo_dec[k, i] = s - r
                for q in range(n):
                    loo_alpha[u, q] = alpha[q]
                    loo_G[u, q] = G[q]  # the members' multipliers are 0: the full gradient is the sub-problem's
                continue
            for t in range(b0, b1):
                left_out[unit_members[t]] = True
            nu = 0
            for q in range(n):
                if not left_out[q]:
                    idx[nu] = q
                    nu += 1
            for t in range(b0, b1):
                left_out[unit_members[t]] = False
            sub = sub_buf[: nu * nu].reshape((nu, nu))
            ys = ys_buf[:nu]
            a = a_buf[:nu]
            for p in range(nu):
                ys[p] = y[idx[p]]
                a[p] = loo_alpha[u, idx[p]]
                for q in range(nu):
                    sub[p, q] = Kf[idx[p], idx[q]]
            if exact:
                Gs = gradient(sub, ys, a)
            else:
                # K <- K + x xᵀ moves Q a - e by y_p x_p (x . (a y)) at every sample p
                Gs = g_buf[:nu]
                s = 0.0
                for p in range(nu):
                    s += Xt[k, idx[p]] * a[p] * ys[p]
                for p in range(nu):
                    Gs[p] = loo_G[u, idx[p]] + ys[p] * Xt[k, idx[p]] * s
            if k > 0:
                newton_step(sub, ys, C, a, Gs)  # updates Gs with its step (as SMO does with each of its own)
            it, gap = smo(sub, ys, C, a, Gs, tol, max_iter)
            if gap > worst:
                worst = gap
            _snap_residues(sub, ys, C, a, Gs)
            rs = rho(ys, C, a, Gs)
            for t in range(b0, b1):
                i = unit_members[t]
                s = 0.0
                for p in range(nu):
                    s += Kf[i, idx[p]] * a[p] * ys[p]
                loo_dec[k, i] = s - rs
            for p in range(nu):
                loo_alpha[u, idx[p]] = a[p]
                loo_G[u, idx[p]] = Gs[p]
    return test_dec, loo_dec, worst


# ----------------------------------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------------------------------


def optimal_sizes(sizes, errors):
    """All prefix sizes with the fewest errors (every tie), ascending."""
    sizes = np.asarray(sizes)
    errors = np.asarray(errors)
    if errors.size == 0:
        raise ValueError("no prefix was scored")
    return sizes[errors == errors.min()]


@dataclass
class ForwardPath:
    """Scores of every prefix of a ranked gene list (thesis §4.2).

    ``sizes[j]`` genes (``order[:sizes[j]]``) give ``test_errors[j]`` errors on ``n_test`` test samples and
    ``loo_errors[j]`` LOO errors on ``n_train`` training samples (``None`` when not computed). Decision values are
    kept (``test_decision``, ``loo_decision``; > 0 predicts ``classes[1]``) for ROC-style analyses; with more than two
    classes they have a class axis (prefixes x samples x classes) and their arg max is the prediction. ``n_groups``:
    the number of groups when the LOO left out whole groups (``forward_path(..., groups=...)``), else ``None``.
    """

    order: np.ndarray
    sizes: np.ndarray
    n_train: int
    n_test: int
    classes: np.ndarray
    test_errors: np.ndarray | None = None
    loo_errors: np.ndarray | None = None
    test_decision: np.ndarray | None = field(default=None, repr=False)
    loo_decision: np.ndarray | None = field(default=None, repr=False)
    n_groups: int | None = None

    def _errors(self, criterion):
        if criterion not in ("test", "loo"):
            raise ValueError(f"criterion must be 'test' or 'loo', got {criterion!r}")
        e = self.test_errors if criterion == "test" else self.loo_errors
        if e is None:
            what = "test samples (X_test, y_test)" if criterion == "test" else "loo=True"
            raise ValueError(f"the {criterion} errors were not computed; call forward_path with {what}")
        return e

    def accuracy(self, criterion="loo"):
        """Accuracy in percent of every prefix, (1 - errors / N) x 100 as in the thesis (§1.3)."""
        e = self._errors(criterion)
        N = self.n_test if criterion == "test" else self.n_train
        return 100.0 * (1.0 - e / N)

    def optimal_sizes(self, criterion="loo"):
        """Sizes of all optimal subsets (prefixes with the highest accuracy), ascending: every tie."""
        return optimal_sizes(self.sizes, self._errors(criterion))

    def biomarker_size(self, criterion="loo"):
        """Size of the biomarker set: the smallest optimal subset."""
        return int(self.optimal_sizes(criterion)[0])

    def biomarkers(self, criterion="loo"):
        """Gene indices of the biomarker set, in rank order."""
        return self.order[: self.biomarker_size(criterion)]

    def summary(self, criterion="loo"):
        """Thesis Tables 4.2-4.5 columns for this path: number of optimal subsets, best accuracy, biomarker size,
        all optimal sizes and (when test samples were given) the test accuracy with the biomarker set."""
        opt = self.optimal_sizes(criterion)
        j = int(np.searchsorted(self.sizes, opt[0]))
        out = {"criterion": criterion, "n_optimal": int(opt.size), "accuracy": float(self.accuracy(criterion)[j]),
               "biomarker_size": int(opt[0]), "optimal_sizes": opt.tolist()}
        if self.test_errors is not None:
            out["test_accuracy_at_biomarker"] = float(self.accuracy("test")[j])
        return out


# ----------------------------------------------------------------------------------------------------------------
# public entry point
# ----------------------------------------------------------------------------------------------------------------


def _check_order(order, d):
    order = np.asarray(order)
    if order.ndim != 1 or order.size == 0 or order.dtype.kind not in "iu":
        raise ValueError("order must be a non-empty 1-d array of gene indices (best first), e.g. a selector's "
                         "feature_order_ or np.argsort(ranking_)")
    if order.min() < 0 or order.max() >= d:
        raise ValueError(f"order holds gene indices outside 0..{d - 1}")
    if np.unique(order).size != order.size:
        raise ValueError("order lists a gene twice; pass a ranking (each gene at most once)")
    return order.astype(np.int64)


def _check_logo(groups, y_idx, classes):
    """Leave-one-group-out needs at least two groups, and every training part (all groups but one) must hold a
    sample of every class; refuses otherwise, naming the group and the class."""
    labels, unit = np.unique(groups, return_inverse=True)
    unit = unit.ravel()
    if labels.size < 2:
        raise GroupSplitError(f"forward_path: leave-one-group-out needs at least 2 groups, got {labels.size}")
    counts = np.zeros((labels.size, classes.size), dtype=np.int64)
    np.add.at(counts, (unit, y_idx), 1)
    empty = np.argwhere(counts.sum(axis=0)[None, :] - counts == 0)
    if empty.size:
        g, c = (_plain(v) for v in (labels[empty[0, 0]], classes[empty[0, 1]]))
        raise GroupSplitError(f"forward_path: leaving out group {g!r} leaves no training sample of class {c!r} (no "
                         "other group holds one); leave-one-group-out needs a sample of every class outside every "
                         "group")


def _plain(v):
    """A numpy scalar as the Python value (for messages)."""
    return v.item() if hasattr(v, "item") else v


def _refit_loo(estimator, X, y, g, unit_start, unit_members, score):
    """LOO decision values (samples x ...) of ``estimator`` refitted without each unit on the genes ``g``,
    ``score(est, rows)`` giving a fitted estimator's values on the rows of ``X``."""
    n = y.shape[0]
    out = None
    for u in range(unit_start.size - 1):
        mem = unit_members[unit_start[u] : unit_start[u + 1]]
        keep = np.ones(n, dtype=bool)
        keep[mem] = False
        e_u = clone(estimator).fit(X[np.ix_(keep, g)], y[keep])
        dec = score(e_u, X[np.ix_(mem, g)])
        if out is None:
            out = np.zeros((n,) + dec.shape[1:])
        out[mem] = dec
    return out


def _unfinished_message(worst, tol):
    """The warning of a forward path with an unfinished SMO solve (``worst``: the largest final gap)."""
    if np.isinf(worst):  # hard margin on a prefix whose training samples no hyperplane separates
        return (f"forward_path: on some prefixes {UNBOUNDED_DUAL}, so their decisions rest on unfinished solves "
                "(no max_iter helps); use a finite C")
    return (f"forward_path: an SMO solve stopped at max_iter (KKT gap {worst:.3g} > tol={tol}); raise max_iter or "
            "lower C")


def forward_path(X, y, order, *, X_test=None, y_test=None, max_genes=None, loo=True, estimator="svm", C=1.0,
                 tol=1e-6, max_iter=None, groups=None):
    """Score every prefix ``order[:k]``, k = 1..max_genes, by test and/or LOO accuracy (thesis §4.2).

    Parameters
    ----------
    X, y : training samples (n x d) and their labels (two classes, or more: see the module docstring).
    order : gene indices, best first (a full ranking or its top part).
    X_test, y_test : optional held-out samples for the test accuracy.
    max_genes : longest prefix scored (default: the whole ``order``).
    loo : compute the LOO accuracy on the training samples.
    estimator : ``"svm"`` (linear C-SVM with bias, incremental and exact, see the module docstring; one against the
        rest for more than two classes) or any scikit-learn classifier, refitted for every prefix and left-out
        sample (group).
    C, tol, max_iter : the linear SVM's box constraint, SMO tolerance and iteration cap (``estimator="svm"``).
    groups : array-like of shape (n_samples,), default None
        One label per training sample (e.g. the patient of a tumour / normal pair). The LOO accuracy then leaves
        one group out at a time (leave-one-group-out): each sample is predicted by the classifier trained without
        its whole group, never by one that saw its partner (module docstring); the errors still count samples.
        Needs at least 2 groups, and removing any one group must leave a sample of every class. ``None``: every
        sample is its own group (plain LOO, as ``groups=np.arange(n)`` bit for bit).

    Returns
    -------
    ForwardPath

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import SignalToNoiseSelector, forward_path
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> order = np.argsort(SignalToNoiseSelector().fit(X[::2], y[::2]).ranking_)   # best first
    >>> path = forward_path(X[::2], y[::2], order, X_test=X[1::2], y_test=y[1::2], max_genes=8)
    >>> path.sizes.tolist(), path.loo_errors.tolist(), path.test_errors.tolist()
    ([1, 2, 3, 4, 5, 6, 7, 8], [3, 2, 0, 3, 4, 3, 4, 3], [5, 3, 2, 3, 3, 3, 3, 3])
    >>> path.biomarkers().tolist(), path.summary()["test_accuracy_at_biomarker"]
    ([0, 2, 1], 90.0)

    Paired samples: 12 patients with two near-identical arrays each (rows 2j and 2j + 1) and labels that no gene
    carries. Plain LOO scores each array by a model trained on its twin and finds a perfect biomarker set; leaving
    out the patient (``groups``) shows there is none.

    >>> rng = np.random.default_rng(1)
    >>> Z = np.repeat(rng.normal(size=(12, 10)), 2, axis=0) + 0.1 * rng.normal(size=(24, 10))
    >>> yz = np.repeat(rng.permutation(np.repeat([-1, 1], 6)), 2)       # one random label per patient
    >>> plain = forward_path(Z, yz, np.arange(10))
    >>> paired = forward_path(Z, yz, np.arange(10), groups=np.arange(24) // 2)
    >>> plain.loo_errors.tolist(), paired.loo_errors.tolist(), paired.n_groups
    ([10, 11, 11, 11, 11, 9, 7, 4, 0, 0], [24, 15, 13, 12, 17, 13, 11, 8, 10, 12], 12)
    """
    X = check_expression_data(X, name="X", allow_constant=True)
    y_arr = np.asarray(y)
    if y_arr.ndim == 1 and y_arr.size and y_arr.dtype.kind in "biufUSO" and np.unique(y_arr).size > 2:
        return _forward_path_multiclass(X, y_arr, order, X_test=X_test, y_test=y_test, max_genes=max_genes, loo=loo,
                                        estimator=estimator, C=C, tol=tol, max_iter=max_iter, groups=groups)
    y_pm1, classes = to_pm1(y)
    n, d = X.shape
    if y_pm1.size != n:
        raise ValueError(f"shape mismatch: X has {n} samples but y has {y_pm1.size} labels")
    groups = check_groups("forward_path", groups, n)
    order = _check_order(order, d)
    K = order.size if max_genes is None else int(max_genes)
    if not 1 <= K <= order.size:
        raise ValueError(f"max_genes must be in 1..{order.size} (the length of order), got {max_genes!r}")
    order = order[:K]
    if loo and groups is not None:
        _check_logo(groups, (y_pm1 > 0).astype(np.int64), classes)
    elif loo and n < 3:
        raise ValueError(f"leave-one-out needs at least 3 training samples, got {n}")
    elif loo and min(np.sum(y_pm1 > 0), np.sum(y_pm1 < 0)) < 2:
        raise ValueError("leave-one-out needs at least 2 training samples of each class (otherwise a fold has a "
                         "single class)")
    unit_start, unit_members = group_units(groups, n)
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    if X_test is not None:
        X_test = check_expression_data(X_test, name="X_test", allow_constant=True, min_samples=1)
        if X_test.shape[1] != d:
            raise ValueError(f"X_test has {X_test.shape[1]} genes, X has {d}")
        y_test = np.asarray(y_test)
        if y_test.shape != (X_test.shape[0],):
            raise ValueError(f"y_test must hold one label per row of X_test ({X_test.shape[0]})")
        unknown = set(np.unique(y_test).tolist()) - set(classes.tolist())
        if unknown:
            raise ValueError(f"y_test holds labels {sorted(unknown)} not seen in y ({classes.tolist()})")
        yt_pm1 = np.where(y_test == classes[1], 1, -1)
    m = 0 if X_test is None else X_test.shape[0]

    if isinstance(estimator, str):
        if estimator != "svm":
            raise ValueError(f"estimator must be 'svm' or a scikit-learn classifier, got {estimator!r}")
        if not isinstance(C, numbers.Real) or not C > 0:
            raise ValueError(f"C must be a positive number, got {C!r}")
        Xt = np.ascontiguousarray(X[:, order].T)
        Tt = np.ascontiguousarray(X_test[:, order].T) if m else np.zeros((K, 0))
        mi = int(max_iter) if max_iter is not None else max(10_000_000, 100 * n)
        test_dec, loo_dec, worst = _svm_forward(Xt, y_pm1.astype(np.float64), Tt, float(C), float(tol), mi,
                                                bool(loo), unit_start, unit_members)
        if worst >= tol:
            warnings.warn(_unfinished_message(worst, tol), ConvergenceWarning, stacklevel=2)
    else:
        test_dec = np.zeros((K, m))
        loo_dec = np.zeros((K, n))
        for k in range(K):
            g = order[: k + 1]
            est = clone(estimator).fit(X[:, g], y_pm1)
            if m:
                test_dec[k] = _signed(est, X_test[:, g])
            if loo:
                loo_dec[k] = _refit_loo(estimator, X, y_pm1, g, unit_start, unit_members, _signed)
    path = ForwardPath(order=order, sizes=np.arange(1, K + 1), n_train=n, n_test=m, classes=classes,
                       n_groups=None if groups is None else int(unit_start.size - 1))
    if m:
        path.test_decision = test_dec
        path.test_errors = np.sum(np.where(test_dec > 0, 1, -1) != yt_pm1[None, :], axis=1)
    if loo:
        path.loo_decision = loo_dec
        path.loo_errors = np.sum(np.where(loo_dec > 0, 1, -1) != y_pm1[None, :], axis=1)
    return path


def _forward_path_multiclass(X, y, order, *, X_test, y_test, max_genes, loo, estimator, C, tol, max_iter, groups):
    """:func:`forward_path` for more than two classes (module docstring): one-vs-rest SVMs, or a user's classifier
    refitted on the original labels."""
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite labels; remove those samples first")
    classes, y_idx = np.unique(y, return_inverse=True)
    y_idx = y_idx.ravel()
    nc = classes.size
    n, d = X.shape
    if y_idx.size != n:
        raise ValueError(f"shape mismatch: X has {n} samples but y has {y_idx.size} labels")
    groups = check_groups("forward_path", groups, n)
    order = _check_order(order, d)
    K = order.size if max_genes is None else int(max_genes)
    if not 1 <= K <= order.size:
        raise ValueError(f"max_genes must be in 1..{order.size} (the length of order), got {max_genes!r}")
    order = order[:K]
    counts = np.bincount(y_idx, minlength=nc)
    if loo and groups is not None:
        _check_logo(groups, y_idx, classes)
    elif loo and counts.min() < 2:
        small = [classes[c].item() if hasattr(classes[c], "item") else classes[c] for c in np.flatnonzero(counts < 2)]
        raise ValueError(f"leave-one-out needs at least 2 training samples of each class (otherwise a fold lacks a "
                         f"class); classes {small} have fewer")
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    m = 0
    if X_test is not None:
        X_test = check_expression_data(X_test, name="X_test", allow_constant=True, min_samples=1)
        if X_test.shape[1] != d:
            raise ValueError(f"X_test has {X_test.shape[1]} genes, X has {d}")
        y_test = np.asarray(y_test)
        if y_test.shape != (X_test.shape[0],):
            raise ValueError(f"y_test must hold one label per row of X_test ({X_test.shape[0]})")
        unknown = set(np.unique(y_test).tolist()) - set(classes.tolist())
        if unknown:
            raise ValueError(f"y_test holds labels {sorted(unknown)} not seen in y ({classes.tolist()})")
        yt_idx = np.searchsorted(classes, y_test)
        m = X_test.shape[0]
    unit_start, unit_members = group_units(groups, n)
    test_dec = np.zeros((K, m, nc))
    loo_dec = np.zeros((K, n, nc))
    if isinstance(estimator, str):
        if estimator != "svm":
            raise ValueError(f"estimator must be 'svm' or a scikit-learn classifier, got {estimator!r}")
        if not isinstance(C, numbers.Real) or not C > 0:
            raise ValueError(f"C must be a positive number, got {C!r}")
        Xt = np.ascontiguousarray(X[:, order].T)
        Tt = np.ascontiguousarray(X_test[:, order].T) if m else np.zeros((K, 0))
        mi = int(max_iter) if max_iter is not None else max(10_000_000, 100 * n)
        worst = 0.0
        for c in range(nc):  # the one-vs-rest machines, each an exact incremental binary path
            yc = np.where(y_idx == c, 1.0, -1.0)
            td, ld, w = _svm_forward(Xt, yc, Tt, float(C), float(tol), mi, bool(loo), unit_start, unit_members)
            test_dec[:, :, c], loo_dec[:, :, c], worst = td, ld, max(worst, w)
        if worst >= tol:
            warnings.warn(_unfinished_message(worst, tol), ConvergenceWarning, stacklevel=3)
    else:
        for k in range(K):
            g = order[: k + 1]
            est = clone(estimator).fit(X[:, g], y)
            if m:
                test_dec[k] = _class_scores(est, X_test[:, g], classes)
            if loo:
                loo_dec[k] = _refit_loo(estimator, X, y, g, unit_start, unit_members,
                                        lambda e, rows: _class_scores(e, rows, classes))
    path = ForwardPath(order=order, sizes=np.arange(1, K + 1), n_train=n, n_test=m, classes=classes,
                       n_groups=None if groups is None else int(unit_start.size - 1))
    if m:
        path.test_decision = test_dec
        path.test_errors = np.sum(np.argmax(test_dec, axis=2) != yt_idx[None, :], axis=1)
    if loo:
        path.loo_decision = loo_dec
        path.loo_errors = np.sum(np.argmax(loo_dec, axis=2) != y_idx[None, :], axis=1)
    return path


def _class_scores(est, X, classes):
    """Scores (samples x classes) whose arg max is ``est.predict`` for a classifier fitted on all ``classes``: its
    ``decision_function`` where that agrees with ``predict``, the predicted class's indicator elsewhere."""
    pred = np.searchsorted(classes, est.predict(X))
    onehot = np.eye(classes.size)[pred]
    if hasattr(est, "decision_function"):
        dv = np.asarray(est.decision_function(X), dtype=float)
        if dv.shape == onehot.shape:
            agree = np.argmax(dv, axis=1) == pred
            return np.where(agree[:, None], dv, onehot)
    return onehot


def _signed(est, X):
    """A decision value whose sign is the prediction (> 0: class +1) for a classifier fitted on labels -1/+1."""
    pred = est.predict(X)
    if hasattr(est, "decision_function"):
        dv = np.asarray(est.decision_function(X), dtype=float)
        # trust the sign of the decision value only where it agrees with predict (ties -> predict's answer)
        return np.where(np.sign(dv) == np.where(pred > 0, 1, -1), dv, np.where(pred > 0, 1.0, -1.0))
    return np.where(pred > 0, 1.0, -1.0)
