"""What every benchmark shares: where the data come from, the papers' preprocessing, and a fair timer.

- Data: ``add_data_arguments(parser)`` adds ``--mirror DIR``; :func:`use_mirror` exports it as
  ``GENESEL_DATA_MIRROR`` (otherwise the variable from the environment is used, as ``make bench`` sets it from the
  Makefile's default; without either, data are downloaded from their pinned URLs). No machine path is built in.
- :func:`load_split`: a registered data set's training and test parts (its predefined split, a seeded
  stratified half/half split, or every sample), preprocessed as a paper did it, fitted on the training part only:
  ``"recommended"`` (:func:`genesel.datasets.recommended_preprocessing`), ``"guyon"``
  (:func:`genesel.papers.guyon2002.guyon_preprocess`) or ``None`` (raw values).
- :func:`best_of`: run a function ``repeats`` times and keep the best wall and the best CPU time (the machine may
  be shared; CPU time is the steadier measure there), and :func:`report_ratio` prints both ratios side by side.
"""

from __future__ import annotations

import os
import time

import numpy as np

__all__ = ["add_data_arguments", "use_mirror", "load_split", "best_of", "report_ratio"]


def add_data_arguments(parser):
    parser.add_argument("--mirror", metavar="DIR", default=None,
                        help="a folder holding the raw data files (default: $GENESEL_DATA_MIRROR, else download)")
    return parser


def use_mirror(args) -> None:
    if getattr(args, "mirror", None):
        os.environ["GENESEL_DATA_MIRROR"] = os.path.abspath(args.mirror)


def load_split(name: str, *, split: str = "predefined", preprocess: str | None = "recommended", seed: int = 0):
    """(X_train, y_train, X_test, y_test) of data set ``name``; see the module doc. ``split``: ``"predefined"``
    (falls back to a seeded stratified half/half split when the data set has none), ``"half"`` or ``"all"`` (no
    test part: X_test and y_test are empty)."""
    from genesel.datasets import load_dataset, recommended_preprocessing
    from genesel.experiments import random_splits

    ds = load_dataset(name)
    if split == "all":
        tr, te = np.arange(ds.y.size), np.array([], dtype=int)
    elif split == "predefined" and ds.train_idx is not None:
        tr, te = np.asarray(ds.train_idx), np.asarray(ds.test_idx)
    elif split in ("predefined", "half"):
        (tr, te), = random_splits(ds.y, ds.y.size // 2, 1, seed, stratified=True)
    else:
        raise ValueError(f"split must be 'predefined', 'half' or 'all', got {split!r}")
    Xtr, Xte = ds.X[tr], ds.X[te]
    if preprocess == "recommended":
        pp = recommended_preprocessing(name).fit(Xtr)
        Xtr, Xte = pp.transform(Xtr), (pp.transform(Xte) if te.size else Xte)
    elif preprocess == "guyon":
        from genesel.papers.guyon2002 import guyon_preprocess

        Xtr, Xte_, _ = guyon_preprocess(Xtr, Xte if te.size else None, name)
        Xte = Xte_ if te.size else np.empty((0, Xtr.shape[1]))
    elif preprocess is not None:
        raise ValueError(f"preprocess must be 'recommended', 'guyon' or None, got {preprocess!r}")
    return Xtr, ds.y[tr], Xte, ds.y[te]


def best_of(fn, repeats: int = 3):
    """(last result, best wall seconds, best CPU seconds) over ``repeats`` calls of ``fn()``."""
    out, wall, cpu = None, np.inf, np.inf
    for _ in range(max(1, int(repeats))):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return out, wall, cpu


def report_ratio(label: str, ours: tuple[float, float], theirs: tuple[float, float], name: str = "genesel") -> str:
    """One line: both timings and the speed-up by wall and by CPU time (``ours``/``theirs`` = (wall, cpu))."""
    line = (f"{label}: {name} {ours[0]:.3f} s wall / {ours[1]:.3f} s CPU, other {theirs[0]:.3f} s wall / "
            f"{theirs[1]:.3f} s CPU -> {theirs[0] / ours[0]:.1f}x wall, {theirs[1] / max(ours[1], 1e-12):.1f}x CPU")
    print(line)
    return line
