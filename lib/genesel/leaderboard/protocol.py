"""The leaderboard's one protocol: every choice made inside the training part, by inner cross-validation.

For one outer split (a training part and a test part of one data set) and one method of the catalogue
(:mod:`genesel.leaderboard.catalogue`), :func:`run_split`

1. preprocesses every inner training part on its own (:func:`preprocessing`: the data set's usual transform, e.g.
   the log of raw intensities, and per-gene standardisation, fitted on that part; genes constant there dropped),
2. scores every candidate on the inner validation parts: each hyper-parameter setting and, for a ranked method,
   every signature size in :data:`~genesel.leaderboard.catalogue.SIZES` and all genes, taken from *one* ranking
   per inner training part and ranker setting (nested subsets); for a staged method every number of stages from one
   fit (``staged_predict``); the candidate with the fewest inner-validation errors (summed over the inner folds)
   wins, ties to the smaller mean signature (``tie="fewer"``, or the larger with ``"more"``), then grid order,
3. preprocesses the whole training part, refits the chosen candidate on it and scores the test part once.

The test part enters only at step 3, after every choice is made (a test poisons it and finds the same genes and
parameters). For ranked methods the same is repeated at every fixed size (only the hyper-parameters chosen inside),
giving the test error against signature size for the curves. A bootstrap sample is an outer split whose training
part repeats samples; its inner folds keep the copies of a sample together
(:func:`genesel.experiments.grouped_inner_folds`).

**Small training parts** follow genesel's one adaptation rule (:func:`genesel.experiments.protocols.adapted_count`): no
count a training part must fill per class exceeds its smallest class. Here that is (a) the internal folds of a selector
(``n_folds`` of MSVM-RFE, GP-ARD-FS, GP-ARD-RFE): ``min(n_folds, smallest class of the part it is fitted on)``, set on
every fit (:class:`Adaptation`); below 2 the method is not applicable at this size
(:class:`genesel.experiments.NotApplicable`); (b) the neighbours of k-NN: a grid value of ``k`` above the smallest class
of some inner training part is dropped from the grid of that outer split (the smaller values remain; the refit on the
larger outer training part is within the rule too); (c) an estimator that refuses a training part whose smallest class
is below :data:`SMALL_PART` (a filter's per-class spread, GP-ARD-FS's leave-one-out) is not applicable at this size,
with its own message. The outer and inner folds themselves follow the same rule (:func:`genesel.experiments.nested_cv`,
:func:`genesel.leaderboard.cells.outer_folds`). Each row says what adapted (``adapted``).

**Grouped samples.** The outer and inner splits keep a data set's groups together (a patient's samples,
:func:`genesel.experiments.nested_cv`); so do the selectors' own resampling and leave-one-out: :func:`run_split` gives
the groups of the rows it fits on to every step whose ``fit`` takes ``groups`` (MSVM-RFE's SVMs and GP-ARD-FS/RFE's
fold fits leave whole groups out, their forward selections leave one group out, the random-forest selection draws
whole groups and scores them out of bag), and their internal folds are counted in groups (:class:`Adaptation`).
A bootstrap part repeats samples: there the copies of a sample are one unit for those steps (:func:`_units`), as they
are for the inner folds (:func:`genesel.experiments.grouped_inner_folds`), so no copy of a left-out sample is in the
fit that scores it.
"""

from __future__ import annotations

import inspect
import json
import numbers
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.feature_selection import VarianceThreshold
from sklearn.pipeline import Pipeline

from genesel.experiments.protocols import adapted_count
from genesel.experiments.protocols import GroupSplitError, NotApplicable, smallest_class
from genesel.leaderboard.catalogue import SIZES, Method

__all__ = ["preprocessing", "prepare", "prepare_uncached", "PreparedSplits", "PREPARED", "candidate_sizes",
           "inner_table", "choose", "run_split", "ALL", "Adaptation", "neighbours", "SMALL_PART", "BINARY_ONLY"]

#: the size key of "every gene"
ALL = "all"
#: The reason given (``not_applicable``) when a method binary by construction meets K >= 3 classes.
BINARY_ONLY = "binary only"


def preprocessing(base) -> Pipeline:
    """``base`` (an unfitted transformer, e.g. :func:`genesel.datasets.recommended_preprocessing`) followed by the
    removal of genes constant in the training part (no method can use them; several refuse them)."""
    return Pipeline([("base", clone(base)), ("nonconstant", VarianceThreshold(0.0))])


def prepare(prep, X, train, test):
    """(X_train, X_test, kept): ``prep`` fitted on ``X[train]`` only, applied to both; ``kept`` the original indices
    of the genes left. Served by :data:`PREPARED` when the same split of the same data was prepared by an earlier
    cell of this process (another method's), as fresh copies."""
    return PREPARED.get(prep, np.asarray(X), np.asarray(train), np.asarray(test))


def prepare_uncached(prep, X, train, test):
    """:func:`prepare` computed, never served from :data:`PREPARED` (what a timing of the preprocessing measures)."""
    p = preprocessing(prep).fit(X[train])
    kept = p.named_steps["nonconstant"].get_support(indices=True)
    return p.transform(X[train]), p.transform(X[test]), kept


class PreparedSplits:
    """The preprocessed parts of the last splits prepared in this process, found again by the preprocessing's
    parameters and the split's indices, for the same data (the very array, compared value for value with a private
    copy, as :class:`genesel.leaderboard.catalogue.GridFits` does: never fooled by an array changed in place).

    The methods of one data set preprocess the same inner and outer parts of every outer fold (the preprocessing
    depends on the data set and the split only, never on the method): 36 methods did it 36 times, about 0.07 CPU s
    a part on Leukemia (72 x 7,129), 6 parts a cell. The grids list a fold's methods one after another
    (:func:`genesel.leaderboard.cells.cv_cells`), so a process prepares each part once. Entries are returned as
    copies (no method can change another's input), and the warnings their computation raised are raised again at
    each reuse, so that the cells' warning counts do not change. At most ``maxsize`` entries and ``max_bytes`` of
    arrays are kept (the least recently used go first). Threads of one process may share it (a lock guards the
    entries; a part is computed outside it)."""

    def __init__(self, maxsize: int = 8, max_bytes: int = 512 * 2**20):
        import threading

        self.maxsize, self.max_bytes = int(maxsize), int(max_bytes)
        self.hits = self.misses = 0
        self._lock = threading.Lock()
        self._data = None  # (the array prepared from, a private copy of it)
        self._entries: dict = {}  # key -> (X_train, X_test, kept, warnings caught), least recently used first

    def clear(self) -> None:
        with self._lock:
            self._data, self._entries = None, {}

    def get(self, prep, X, train, test):
        import joblib

        if self.maxsize <= 0:
            return prepare_uncached(prep, X, train, test)
        key = (joblib.hash(prep), train.dtype.str, train.tobytes(), test.dtype.str, test.tobytes())
        with self._lock:
            same = (self._data is not None and self._data[0] is X and X.shape == self._data[1].shape
                    and np.array_equal(self._data[1], X, equal_nan=X.dtype.kind in "fc"))
            if not same:
                self._data, self._entries = (X, np.array(X, copy=True)), {}
            hit = self._entries.get(key)
            self.hits += hit is not None
            self.misses += hit is None
        if hit is None:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                Xa, Xb, kept = prepare_uncached(prep, X, train, test)
            hit = (Xa, Xb, kept, caught)
        with self._lock:
            if self._data is not None and self._data[0] is X:  # not replaced by another data set meanwhile
                self._entries.pop(key, None)
                self._entries[key] = hit  # most recently used last
                while len(self._entries) > self.maxsize or (
                        len(self._entries) > 1 and sum(e[0].nbytes + e[1].nbytes for e in self._entries.values())
                        > self.max_bytes):
                    del self._entries[next(iter(self._entries))]
        for w in hit[3]:  # every preparation warns as it would have, reused or not
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return hit[0].copy(order="K"), hit[1].copy(order="K"), hit[2].copy()  # the layout as computed


#: The preprocessed splits shared by the cells of one process (:class:`PreparedSplits`).
PREPARED = PreparedSplits()


def candidate_sizes(n_genes: int) -> list:
    """The signature sizes of a ranked method on ``n_genes`` genes: those of :data:`SIZES` below it, and all."""
    return [s for s in SIZES if s < n_genes] + [ALL]


def _n(size, d):
    return d if size == ALL else min(int(size), d)


def _order(ranker) -> np.ndarray:
    """All genes best first, from a fitted ranker: ``feature_order_``, else ``ranking_`` (stable), else by
    decreasing ``scores_`` (ties by index)."""
    order = getattr(ranker, "feature_order_", None)
    if order is not None:
        return np.asarray(order, dtype=np.int64)
    if hasattr(ranker, "ranking_"):
        return np.argsort(ranker.ranking_, kind="stable").astype(np.int64)
    s = np.nan_to_num(np.asarray(ranker.scores_, dtype=np.float64), nan=-np.inf)
    return np.lexsort((np.arange(s.size), -s)).astype(np.int64)


def _errors(est, X, y) -> int:
    return int(np.sum(est.predict(X) != y))


def _class_scores(est, X, classes) -> np.ndarray:
    """(n, K) real-valued outputs of a K-class model, column k larger for ``classes[k]``: the class probabilities,
    else the decision function, else the prediction coded one-hot (what a macro one-vs-rest AUC is computed from)."""
    classes = np.asarray(classes)
    own = np.asarray(getattr(est, "classes_", classes))
    for attr in ("predict_proba", "decision_function"):
        if hasattr(est, attr):
            try:
                S = np.asarray(getattr(est, attr)(X), dtype=np.float64)
            except (AttributeError, NotImplementedError):
                continue
            if S.ndim == 2 and S.shape[1] == own.size:
                # a class the training part lacked scores below every other (never happens on stratified parts)
                fill = 0.0 if attr == "predict_proba" or S.size == 0 else float(S.min()) - 1.0
                out = np.full((S.shape[0], classes.size), fill)
                for j, c in enumerate(own.tolist()):
                    out[:, int(np.flatnonzero(classes == c)[0])] = S[:, j]
                return out
    pred = np.asarray(est.predict(X))
    return (pred[:, None] == classes[None, :]).astype(np.float64)


def _scores(est, X) -> np.ndarray:
    """Real-valued outputs, larger for the +1 class: the decision function, else P(+1), else the prediction."""
    if hasattr(est, "decision_function"):
        try:
            return np.ravel(est.decision_function(X)).astype(np.float64)
        except (AttributeError, NotImplementedError):
            pass
    if hasattr(est, "predict_proba"):
        try:
            return np.asarray(est.predict_proba(X))[:, 1].astype(np.float64)
        except (AttributeError, NotImplementedError):
            pass
    return np.asarray(est.predict(X), dtype=np.float64)


#: A training part whose smallest class has fewer samples is small: an estimator that refuses it (a per-class spread
#: needs 2 samples of each class, a leave-one-out 2 after one is left out) is not applicable at this size, with its
#: own message, where it would otherwise stop the whole run.
SMALL_PART = 3


def neighbours(est) -> int:
    """The largest neighbour count (``n_neighbors``) of an estimator and its nested steps; 0 for none."""
    vals = [v for k, v in est.get_params(deep=True).items()
            if k.rsplit("__", 1)[-1] == "n_neighbors" and isinstance(v, numbers.Integral)]
    return int(max(vals)) if vals else 0


class Adaptation:
    """The adaptation rule (module docstring) for one outer split: ``smallest``, the smallest class over its inner
    training parts (and its outer training part), limits the grid's neighbour counts (:meth:`settings`);
    :meth:`fit` sets each selector's internal folds to the training part it is fitted on. ``changes`` records what
    adapted: {"grid k": (values dropped)}, {"<Class>.n_folds": (requested, smallest used, largest used)}."""

    def __init__(self, smallest: int | None = None, who: str = ""):
        self.smallest = smallest
        self.who = who
        self.changes: dict = {}

    def settings(self, m: Method, which: str, quick: bool) -> list:
        grid = m.settings(which, quick) if (which == "estimator" or m.kind == "ranked") else []
        if not grid or self.smallest is None:
            return grid
        factory = m.estimator if which == "estimator" else m.ranker
        base = {} if which == "ranker" else {**((m.settings("ranker", quick) or [{}])[0] if m.kind == "ranked" else {}),
                                              **({m.stage_param: m.stages[-1]} if m.stage_param else {})}
        keep = [p for p in grid if neighbours(factory({**base, **p}, 2, 0)) <= self.smallest]
        dropped = [p for p in grid if p not in keep]
        if dropped:
            self.changes[f"grid ({which})"] = [json.dumps(p, sort_keys=True, default=str) for p in dropped]
        if not keep:
            raise NotApplicable(f"{m.name}: every setting of its grid needs more neighbours than the smallest class of "
                                f"an inner training part holds ({self.smallest})")
        return keep

    def fit(self, est, X, y, groups=None):
        """``est`` with its internal fold counts adapted to (X, y), fitted; ``groups`` (one unit per row: the data
        set's groups, or the sample itself where a bootstrap part repeats samples; None: every row its own) reaches
        the selector steps whose ``fit`` takes it (:func:`_group_params`), whose folds are then counted in groups."""
        params = _group_params(est, groups)
        small = smallest_class(y, groups if params else None)
        for name, value in est.get_params(deep=True).items():
            leaf = name.rsplit("__", 1)[-1]
            if leaf != "n_folds" or isinstance(value, (bool, str)) or not isinstance(value, numbers.Integral):
                continue
            k = adapted_count(value, small)
            owner = est.get_params(deep=True).get(name.rsplit("__", 1)[0], est) if "__" in name else est
            who = f"{type(owner).__name__}.n_folds"
            if k < 2:
                unit = "groups" if params else "samples"
                raise NotApplicable(f"{who}: its internal folds need 2 {unit} of each class in the training part it "
                                    f"is fitted on; the smallest class there has {small}")
            if k != value:
                est.set_params(**{name: k})
                req, lo, hi = self.changes.get(who, (int(value), k, k))
                self.changes[who] = (req, min(lo, k), max(hi, k))
        try:
            return est.fit(X, y, **params)
        except ValueError as exc:
            unit = "group(s)" if params else "sample(s)"
            if params and isinstance(exc, GroupSplitError):
                # whole groups could not be dealt so that every internal part keeps every class (groups of uneven
                # sizes): the method cannot keep this study's groups together at this size
                raise NotApplicable(f"{self.who or type(est).__name__} cannot keep the groups of this training part "
                                    f"together (smallest class: {small} {unit}): {exc}") from exc
            if small >= SMALL_PART:
                raise
            raise NotApplicable(f"{self.who or type(est).__name__} cannot fit a training part whose smallest class has "
                                f"{small} {unit}: {exc}") from exc


def _group_params(est, groups) -> dict:
    """The keyword that gives ``groups`` to the fit of ``est`` (or of the steps of a pipeline) whose ``fit`` takes a
    ``groups`` argument (MSVM-RFE, GP-ARD-FS/RFE, the random-forest selection): their internal resampling then keeps
    a group together (module docstring, "Grouped samples"). Empty without groups or without such a step."""
    if groups is None:
        return {}
    steps = est.steps if isinstance(est, Pipeline) else [(None, est)]
    out = {}
    for name, step in steps:
        if step is None or step == "passthrough" or "groups" not in inspect.signature(step.fit).parameters:
            continue
        out["groups" if name is None else f"{name}__groups"] = groups
    return out


def _units(groups, idx):
    """The unit of each row of ``X[idx]`` that a selector's internal resampling must keep together: the data set's
    groups of those rows, or, ungrouped, the sample itself when ``idx`` repeats samples (a bootstrap part: its copies
    of a sample are one unit); None when every row is a sample of its own."""
    idx = np.asarray(idx)
    if groups is not None:
        return np.asarray(groups)[idx]
    return idx if np.unique(idx).size < idx.size else None


def _settings(m: Method, quick: bool, adapt: Adaptation | None = None):
    adapt = adapt or Adaptation()
    rs = adapt.settings(m, "ranker", quick) if m.kind == "ranked" else [{}]
    cs = adapt.settings(m, "estimator", quick)
    return rs or [{}], cs or [{}]


def _candidates_on(m: Method, Xa, ya, Xb, yb, quick: bool, seed: int, adapt: Adaptation | None = None,
                   groups=None) -> dict:
    """Validation errors and signature sizes of every candidate of ``m`` trained on (Xa, ya): {key: (errors,
    size)}; keys are (ranker setting, estimator setting, size) for ranked methods, (setting, stages) for staged
    ones and (setting,) for the others. ``groups``: the units of Xa's rows (:func:`_units`)."""
    out = {}
    d = Xa.shape[1]
    adapt = adapt or Adaptation()
    rs, cs = _settings(m, quick, adapt)
    if m.kind == "ranked":
        for ri, rp in enumerate(rs):
            order = _order(adapt.fit(m.ranker(rp, d, seed), Xa, ya, groups))
            for size in candidate_sizes(d):
                g = np.sort(order[: _n(size, d)])
                for ci, cp in enumerate(cs):
                    est = adapt.fit(m.estimator({**rp, **cp}, g.size, seed), Xa[:, g], ya, groups)
                    out[(ri, ci, size)] = (_errors(est, Xb[:, g], yb), g.size)
    elif m.kind == "staged":
        stages = m.stage_list(quick)
        for ci, cp in enumerate(cs):
            est = adapt.fit(m.estimator({**cp, m.stage_param: max(stages)}, d, seed), Xa, ya, groups)
            staged = list(est.staged_predict(Xb))
            for t in stages:
                out[(ci, t)] = (int(np.sum(staged[min(t, len(staged)) - 1] != yb)), t)
    else:
        for ci, cp in enumerate(cs):
            est = adapt.fit(m.estimator(cp, d, seed), Xa, ya, groups)
            size = len(m.signature(est)) if m.signature else d
            out[(ci,)] = (_errors(est, Xb, yb), size)
    return out


def inner_table(m: Method, X, y, inner, prep, quick: bool, seed: int, adapt: Adaptation | None = None,
                groups=None) -> dict:
    """{candidate key: [total inner-validation errors, mean signature size]} over the inner folds ``inner`` (pairs
    of index arrays into X), each inner training part preprocessed on its own. ``groups``: the data set's groups (one
    per row of X) or None (:func:`_units`)."""
    tot: dict = {}
    for a, b in inner:
        Xa, Xb, _ = prepare(prep, X, a, b)
        for k, (e, s) in _candidates_on(m, Xa, y[a], Xb, y[b], quick, seed, adapt, _units(groups, a)).items():
            acc = tot.setdefault(k, [0, 0.0, 0])
            acc[0] += e
            acc[1] += s
            acc[2] += 1
    folds = len(inner)
    # a candidate every inner fold scored (sizes beyond a fold's genes are absent there)
    return {k: [e, s / c] for k, (e, s, c) in tot.items() if c == folds}


def choose(m: Method, table: dict, keys=None):
    """The winning candidate key: fewest errors, then the smaller (``tie="fewer"``) or larger mean signature, then
    the order of ``table`` (grid order)."""
    sign = 1.0 if m.tie == "fewer" else -1.0
    keys = list(table) if keys is None else list(keys)
    if not keys:
        raise ValueError(f"{m.name}: no candidate was scored by every inner fold")
    return min(keys, key=lambda k: (table[k][0], sign * table[k][1], keys.index(k)))


def _describe(m: Method, key, quick: bool, adapt: Adaptation | None = None) -> dict:
    rs, cs = _settings(m, quick, adapt)
    if m.kind == "ranked":
        ri, ci, size = key
        return {**rs[ri], **cs[ci], "size": size}
    if m.kind == "staged":
        ci, t = key
        return {**cs[ci], m.stage_param: t}
    return dict(cs[key[0]])


def _fit_candidate(m: Method, key, Xa, ya, quick: bool, seed: int, rankers: dict, adapt: Adaptation | None = None,
                   groups=None):
    """(fitted estimator, local gene indices it uses in Xa's columns, best first); ``groups``: the units of Xa's rows
    (:func:`_units`)."""
    d = Xa.shape[1]
    adapt = adapt or Adaptation()
    rs, cs = _settings(m, quick, adapt)
    if m.kind == "ranked":
        ri, ci, size = key
        if ri not in rankers:
            rankers[ri] = _order(adapt.fit(m.ranker(rs[ri], d, seed), Xa, ya, groups))
        best_first = rankers[ri][: _n(size, d)]
        g = np.sort(best_first)
        est = adapt.fit(m.estimator({**rs[ri], **cs[ci]}, g.size, seed), Xa[:, g], ya, groups)
        return est, g, best_first
    if m.kind == "staged":
        ci, t = key
        est = adapt.fit(m.estimator({**cs[ci], m.stage_param: t}, d, seed), Xa, ya, groups)
    else:
        est = adapt.fit(m.estimator(cs[key[0]], d, seed), Xa, ya, groups)
    genes = np.asarray(m.signature(est) if m.signature else np.arange(d), dtype=np.int64)
    return est, None, genes


class _Counter(warnings.catch_warnings):
    """Records every warning inside the block (none reaches the notebook) and counts them by category."""

    def __init__(self):
        super().__init__(record=True)

    def __enter__(self):
        self.log = super().__enter__()
        warnings.simplefilter("always")
        return self

    def counts(self) -> dict:
        out: dict = {}
        for w in self.log:
            out[w.category.__name__] = out.get(w.category.__name__, 0) + 1
        return out


def run_split(m: Method, X, y, train, test, inner, *, prep, quick: bool, seed: int, curve: bool = True,
              groups=None) -> dict:
    """One outer split of one method (module docstring): the inner-CV choice, the refit on ``train`` and the scores
    on ``test``. Returns plain data: the chosen parameters (JSON), the signature (original gene indices, best first),
    test predictions and scores, errors, the risk bound where the method has one, the inner-CV loss, the test
    errors at every fixed signature size (ranked methods, ``curve``), the warnings raised (counts) and what adapted
    to the size of the training parts (``adapted``, :class:`Adaptation`; empty when nothing did). A method that
    cannot run at this size raises :class:`genesel.experiments.NotApplicable`. ``groups``: one label per row of X
    (the data set's groups) or None; the selectors' own resampling keeps them together, and the copies of a sample
    in a bootstrap part (module docstring, "Grouped samples")."""
    train, test = np.asarray(train), np.asarray(test)
    classes = np.unique(y)
    if classes.size > 2 and m.binary_only:
        raise NotApplicable(f"{BINARY_ONLY} ({m.binary_only})")
    parts = [train] + [a for a, _ in inner]
    adapt = Adaptation(min(smallest_class(y[p]) for p in parts), m.name)
    with _Counter() as inner_w:
        rs, cs = _settings(m, quick, adapt)
        single = m.kind == "model" and len(cs) == 1
        table = {(0,): [0, 0.0]} if single else inner_table(m, X, y, inner, prep, quick, seed, adapt, groups)
        key = choose(m, table)
    Xa, Xb, kept = prepare(prep, X, train, test)
    ya, yb = y[train], y[test]
    rankers: dict = {}
    with _Counter() as final_w:
        est, cols, genes = _fit_candidate(m, key, Xa, ya, quick, seed, rankers, adapt, _units(groups, train))
        XbF = Xb if cols is None else Xb[:, cols]
        pred = np.asarray(est.predict(XbF))
        scores = _scores(est, XbF) if classes.size <= 2 else _class_scores(est, XbF, classes)
        bound = float(m.bound(est)) if m.bound else None
    params = _describe(m, key, quick, adapt)
    row = dict(errors=int(np.sum(pred != yb)), n_test=int(test.size), n_train=int(train.size),
               n_genes_kept=int(kept.size), size=int(len(genes)), genes=[int(kept[g]) for g in genes],
               test_idx=[int(i) for i in test], pred=[int(p) for p in pred], scores=scores.tolist(),
               params=json.dumps(params, sort_keys=True, default=str), inner_errors=None if single else
               int(table[key][0]), bound=bound, inner_warnings=inner_w.counts(), final_warnings=final_w.counts(),
               degenerate_final=bool(np.unique(est.predict(Xa if cols is None else Xa[:, cols])).size < 2),
               adapted={k: list(v) if isinstance(v, tuple) else v for k, v in adapt.changes.items()})
    if curve and m.kind == "ranked":
        sizes, errs = [], []
        with _Counter():
            for size in candidate_sizes(Xa.shape[1]):
                keys = [k for k in table if k[2] == size]
                if not keys:
                    continue
                k = choose(m, table, keys)
                e, c, _ = _fit_candidate(m, k, Xa, ya, quick, seed, rankers, adapt, _units(groups, train))
                sizes.append(_n(size, Xa.shape[1]))
                errs.append(_errors(e, Xb[:, c], yb))
        row.update(curve_sizes=sizes, curve_errors=errs)
    return row
