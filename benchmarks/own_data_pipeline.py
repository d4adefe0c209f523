"""The pipeline a new user writes first, on every registered binary expression set: does it compose, and does it beat
the majority rate?

    make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(n_features_to_select=16), LinearSVM())

in ``cross_validate`` with 5-fold stratified cross-validation (shuffled, seeded), on the raw values as the registry
serves them (:func:`genesel.leaderboard.cells.binary_expression_sets`: every two-class expression set, not the MNIST
pairs). ``LogTransform`` decides in each training part whether the values still need a log (GEO2R's rule,
:func:`genesel.preprocessing.needs_log`): the "log" column says in how many of the 5 folds it took the log. Printed
per data set: shape, class counts, log decision, accuracy and balanced accuracy (mean over the folds, with their
standard deviation), the majority rate (the accuracy of always predicting the larger class) and the seconds taken.
Sets whose accuracy does not exceed the majority rate are listed at the end with what the registry says they are:
this is a check that the pieces compose and learn, not a claim that every outcome can be predicted.

``python benchmarks/own_data_pipeline.py [--mirror DIR] [--seed 0] [--n-jobs 1] [--datasets NAME ...]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, use_mirror  # noqa: E402


def pipeline():
    from sklearn.pipeline import make_pipeline

    from genesel import GeneStandardizer, LinearSVM, LogTransform, SVMRFE

    return make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(n_features_to_select=16), LinearSVM())


def evaluate(name: str, seed: int = 0, n_jobs: int = 1) -> dict:
    """One row of the table: the pipeline's 5-fold stratified CV on data set ``name``."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold, cross_validate

    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    t0 = time.perf_counter()
    cv = StratifiedKFold(5, shuffle=True, random_state=seed)
    res = cross_validate(pipeline(), ds.X, ds.y, cv=cv, scoring=("accuracy", "balanced_accuracy"),
                         return_estimator=True, n_jobs=n_jobs, error_score="raise")
    logged = sum(not est[0].already_log_ for est in res["estimator"])
    counts = ds.class_counts
    majority = max(counts.values()) / ds.n_samples
    return dict(dataset=name, shape=f"{ds.n_samples} x {ds.n_genes}",
                classes=" / ".join(f"{c} {n}" for c, n in counts.items()),
                log=f"{'yes' if logged == 5 else 'no' if logged == 0 else 'mixed'} ({logged}/5)",
                accuracy=float(np.mean(res["test_accuracy"])), accuracy_sd=float(np.std(res["test_accuracy"])),
                balanced=float(np.mean(res["test_balanced_accuracy"])), majority=majority,
                seconds=time.perf_counter() - t0, description=ds.description)


def main(argv=None) -> int:
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--seed", type=int, default=0, help="seed of the fold assignment")
    ap.add_argument("--n-jobs", type=int, default=1, help="folds run in parallel (default 1: a shared machine)")
    ap.add_argument("--datasets", nargs="*", default=None, help="default: every registered binary expression set")
    args = ap.parse_args(argv)
    use_mirror(args)
    import pandas as pd

    from genesel.leaderboard.cells import binary_expression_sets

    names = args.datasets or binary_expression_sets()
    print("make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(n_features_to_select=16), LinearSVM()), "
          f"5-fold stratified CV (shuffled, seed {args.seed}), raw registered values; {len(names)} data sets",
          flush=True)
    rows = []
    for name in names:
        row = evaluate(name, args.seed, args.n_jobs)
        rows.append(row)
        print(f"  {name}: accuracy {row['accuracy']:.3f} (majority {row['majority']:.3f}), log {row['log']}, "
              f"{row['seconds']:.0f} s", flush=True)
    t = pd.DataFrame(rows)
    t["above majority"] = t["accuracy"] > t["majority"]
    show = t[["dataset", "shape", "classes", "log", "accuracy", "accuracy_sd", "balanced", "majority",
              "above majority", "seconds"]].rename(columns={"accuracy_sd": "acc sd", "balanced": "balanced acc",
                                                            "majority": "majority rate"})
    print()
    print(show.to_string(index=False, float_format=lambda v: f"{v:.3f}", formatters={"seconds": "{:.0f}".format}))
    below = t[~t["above majority"]]
    print(f"\n{int(t['above majority'].sum())} of {len(t)} data sets above their majority rate; "
          f"total {t['seconds'].sum():.0f} s")
    for _, r in below.iterrows():
        print(f"- {r['dataset']}: accuracy {r['accuracy']:.3f} <= majority rate {r['majority']:.3f} (balanced "
              f"{r['balanced']:.3f}); {r['description']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
