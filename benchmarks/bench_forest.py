"""Benchmark: random forests on few samples and many genes, genesel's numba forest vs scikit-learn's.

Díaz-Uriarte & Alvarez de Andrés (BMC Bioinformatics 7:3, 2006) select genes by backward elimination on the
out-of-bag error of random forests (Breiman 2001): a 2000-tree forest on all genes, then a 1000-tree forest at each
of ~30 steps. On a leaderboard outer fold of Leukemia (58 training samples x 7129 genes) scikit-learn's cost is its
per-tree overhead (~1 ms per tree). Timed in the same run, on the same data and seeds:

1. one 1000-tree forest, mtry = sqrt(7129) = 84: ``genesel.SmallForestClassifier`` (genesel's own numba forest)
   vs ``sklearn.ensemble.RandomForestClassifier(n_jobs=1)``; the two are different random forests of the same
   method, so their agreement is reported, not required bit for bit: OOB error, test error on the held-out part,
   overlap of the 20 most important genes;
2. the whole ``genesel.RFBackwardSelector`` path (2000 trees, then 1000 per step, 0.2 dropped per step, genes ranked
   by the first forest's permutation importance) vs the same loop over scikit-learn forests with the permutation
   importances computed by hand on its trees (kept here only, :func:`sklearn_path`): same path sizes; OOB errors
   along the path and the chosen genes are compared;
3. the selector with permutation importance (the paper's) against Gini importance (genesel 0.1's): the cost of
   the permutation step.

Usage: python benchmarks/bench_forest.py [--dataset golub] [--trees 1000] [--path-trees 2000 1000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

from _common import add_data_arguments, best_of, load_split, recorded, report_ratio, use_mirror


def outer_fold(name, seed=0):
    """The training and test part of the first of 5 stratified outer folds (Leukemia: 58 / 14 samples), after the
    data set's recommended preprocessing."""
    from sklearn.model_selection import StratifiedKFold

    X, y, _, _ = load_split(name, split="all", preprocess="recommended")
    tr, te = next(StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y))
    return X[tr], y[tr], X[te], y[te]


def oob_permutation_importance(f, X, y, seed=0):
    """Breiman's permutation importance by hand on a fitted scikit-learn forest: the tests' reference,
    ``tests/naive/forest.py``'s :func:`sklearn_permutation_importance`."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from naive.forest import sklearn_permutation_importance

    return sklearn_permutation_importance(f, X, y, seed)


def sklearn_path(X, y, n_estimators=2000, n_estimators_iter=1000, fraction_dropped=0.2, mtry_factor=1.0,
                 se_rule=1.0, random_state=0):
    """``RFBackwardSelector.fit`` on scikit-learn forests: the first forest's permutation importances by hand, then
    forests on the surviving genes. Returns (importances, path sizes, OOB errors, chosen mask)."""
    from sklearn.ensemble import RandomForestClassifier

    from genesel.forest import backward_sizes

    n, d = X.shape
    sizes = backward_sizes(d, fraction_dropped)
    seeds = np.random.RandomState(random_state).randint(0, 2**31 - 1, size=len(sizes) + 1)

    def forest(T, s, seed, Xs):
        mtry = min(max(1, int(np.floor(mtry_factor * np.sqrt(s)))), s)
        f = RandomForestClassifier(n_estimators=int(T), max_features=mtry, oob_score=True, bootstrap=True, n_jobs=1,
                                   random_state=seed).fit(Xs, y)
        dec = f.oob_decision_function_
        voted = np.isfinite(dec).all(axis=1) & (dec.sum(axis=1) > 0)
        err = float(np.mean(f.classes_[np.argmax(dec[voted], axis=1)] != y[voted])) if voted.any() else 0.5
        return f, err

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*out-of-bag.*", category=UserWarning)
        first, e0 = forest(n_estimators, d, seeds[0], X)
        imp = oob_permutation_importance(first, X, y, random_state)
        order = np.lexsort((np.arange(d), -imp))
        errors = [e0]
        for i, s in enumerate(sizes[1:], start=1):
            errors.append(forest(n_estimators_iter, int(s), seeds[i], X[:, np.sort(order[:s])])[1])
    errors = np.array(errors)
    best = errors.min()
    ok = np.flatnonzero(errors <= best + se_rule * np.sqrt(best * (1 - best) / n) + 1e-12)
    k = int(sizes[ok[np.argmin(sizes[ok])]])
    support = np.zeros(d, dtype=bool)
    support[order[:k]] = True
    return imp, sizes, errors, support


def one_forest(X, y, Xt, yt, trees, repeats):
    from sklearn.ensemble import RandomForestClassifier

    from genesel import SmallForestClassifier

    print(f"\n== one forest: {trees} trees, {X.shape[0]} samples x {X.shape[1]} genes, mtry = sqrt ==")
    SmallForestClassifier(n_estimators=5, random_state=0).fit(X[:, :50], y)  # numba's compile outside the timing
    ours, w1, c1 = best_of(lambda: SmallForestClassifier(n_estimators=trees, random_state=0).fit(X, y), repeats)
    ref, w2, c2 = best_of(lambda: RandomForestClassifier(n_estimators=trees, oob_score=True, n_jobs=1,
                                                         random_state=0).fit(X, y), max(1, repeats - 1))
    top_o, top_r = np.argsort(-ours.feature_importances_)[:20], np.argsort(-ref.feature_importances_)[:20]
    err_o, err_r = np.mean(ours.predict(Xt) != yt), np.mean(ref.predict(Xt) != yt)
    line = report_ratio(f"{trees}-tree forest", (w1, c1), (w2, c2), other="sklearn RandomForestClassifier(n_jobs=1)",
                        target=10, note=f"OOB error {1 - ours.oob_score_:.3f} vs {1 - ref.oob_score_:.3f}; test error "
                                        f"{err_o:.3f} vs {err_r:.3f}; {len(set(top_o) & set(top_r))} of the top 20 "
                                        "genes in common")
    print(f"OOB error genesel {1 - ours.oob_score_:.3f}, scikit-learn {1 - ref.oob_score_:.3f}; test error on "
          f"{Xt.shape[0]} held-out samples {err_o:.3f} / {err_r:.3f};"
          f" top-20 genes in common {len(set(top_o) & set(top_r))}; importance correlation "
          f"{np.corrcoef(ours.feature_importances_, ref.feature_importances_)[0, 1]:.3f}")
    return {"what": f"forest {trees}", "genesel_wall": w1, "genesel_cpu": c1, "sklearn_wall": w2, "sklearn_cpu": c2,
            "line": line}


def selector_path(X, y, path_trees):
    from genesel import RFBackwardSelector

    T0, T1 = path_trees
    print(f"\n== RFBackwardSelector: {T0} trees, then {T1} per step, {X.shape[0]} samples x {X.shape[1]} genes ==")
    ours, w1, c1 = best_of(lambda: RFBackwardSelector(n_estimators=T0, n_estimators_iter=T1, random_state=0)
                           .fit(X, y), 1)
    (imp, sizes, errors, support), w2, c2 = best_of(lambda: sklearn_path(X, y, T0, T1, random_state=0), 1)
    assert np.array_equal(ours.path_sizes_, sizes)
    diff = np.abs(ours.path_oob_errors_ - errors)
    both, k_ref = int(np.sum(ours.support_ & support)), int(support.sum())
    line = report_ratio(f"backward path ({len(sizes)} forests)", (w1, c1), (w2, c2),
                        other="the same loop of sklearn forests", target=10,
                        note=f"chose {ours.n_features_} vs {k_ref} genes, {both} in common; path OOB errors "
                             f"{diff.mean():.3f} apart on average")
    print(f"sizes visited {sizes[0]}..{sizes[-1]} ({len(sizes)}); genesel chose {ours.n_features_} genes (OOB error "
          f"{ours.oob_error_:.3f}), the scikit-learn loop {k_ref} (OOB error {errors[sizes == k_ref][0]:.3f}), "
          f"{both} in common; OOB errors along the path differ by {diff.mean():.3f} on average, {diff.max():.3f} at "
          f"most")
    return {"what": "selector path", "genesel_wall": w1, "genesel_cpu": c1, "sklearn_wall": w2, "sklearn_cpu": c2,
            "line": line}


def importance_cost(X, y, path_trees):
    """The selector ranking by permutation importance (the paper's, default) against Gini importance: what the
    permutation step costs, in the same run."""
    from genesel import RFBackwardSelector

    T0, T1 = path_trees
    print(f"\n== RFBackwardSelector: permutation vs Gini importance ({T0} trees, then {T1}) ==")
    perm, w1, c1 = best_of(lambda: RFBackwardSelector(n_estimators=T0, n_estimators_iter=T1, random_state=0)
                           .fit(X, y), 3)
    gini, w2, c2 = best_of(lambda: RFBackwardSelector(n_estimators=T0, n_estimators_iter=T1, importance="gini",
                                                      random_state=0).fit(X, y), 3)
    common = int(np.sum(perm.support_ & gini.support_))
    line = report_ratio("permutation importance", (w1, c1), (w2, c2), other="Gini importance",
                        note=f"chose {perm.n_features_} vs {gini.n_features_} genes, {common} in common")
    return {"what": "importance", "genesel_wall": w1, "genesel_cpu": c1, "sklearn_wall": w2, "sklearn_cpu": c2,
            "line": line}


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="golub")
    ap.add_argument("--trees", type=int, default=1000)
    ap.add_argument("--path-trees", type=int, nargs=2, default=[2000, 1000], metavar=("FIRST", "LATER"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-path", action="store_true", help="time the single forest only")
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    X, y, Xt, yt = outer_fold(args.dataset)
    rows = [one_forest(X, y, Xt, yt, args.trees, args.repeats)]
    if not args.skip_path:
        rows.append(selector_path(X, y, args.path_trees))
        rows.append(importance_cost(X, y, args.path_trees))
    print()
    for r in rows:
        print(r["line"])


if __name__ == "__main__":
    main()
