"""Benchmark: the leaderboard's one-gene-per-step eliminations (issue 41), today's code against the code before the
speed-up, in the same process, on real training parts: CPU per fit and whether the rankings are the same.

What is fitted is what the leaderboard fits (:mod:`genesel.leaderboard.catalogue`): on standardised genes (the data
set's :func:`genesel.datasets.recommended_preprocessing` fitted on the training part, constant genes dropped, as
:func:`genesel.leaderboard.protocol.prepare` does), ``MSVMRFE(n_folds=5, step=1, C=100 / d, n_features_to_select=1,
random_state=seed)`` ("MSVM-RFE + SVM") and ``SVMRFE(n_features_to_select=1, step=1, C=rfe_C / d)`` with rfe_C in
(1, 100) ("SVM-RFE (1 gene/step) + SVM"), d the number of genes. The training parts are those of a seeded
stratified 5-fold outer split (``--parts`` of them per data set) and, with ``--inner``, the first training part of
the inner 5-fold split of each (the leaderboard fits the rankers on 5 inner parts and the outer one per fold).

The previous code is read from git (``--base``, default the commit before the speed-up) into a temporary module,
so both run here with one BLAS thread; each fit is timed once, old and new in turn (CPU seconds: the machine may be
shared). Reported per fit: both CPU times and their ratio, and whether the top 256 genes of the two rankings are the
same genes in the same order (and how many positions of the whole ranking differ). A fit of the old code on Chowdary
takes about half a minute of CPU, so the default run takes about 10 minutes.

Usage: python benchmarks/bench_rfe_speed.py [--datasets chowdary gordon borovecki golub alon] [--parts 2] [--inner]
[--methods msvm svmrfe] [--base REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from _common import add_data_arguments, record, recorded, use_mirror

ROOT = Path(__file__).resolve().parent.parent
#: the commit before issue 41's speed-up of the one-gene eliminations
BASE = "ec0eaab"
TOP = 256


def old_module(rev, path, name):
    """The module at ``lib/<path>`` of commit ``rev``, imported under ``name`` from a temporary file."""
    src = subprocess.run(["git", "show", f"{rev}:lib/{path}"], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    tmp = Path(tempfile.mkdtemp(prefix="genesel_base_")) / f"{name}.py"
    tmp.write_text(src)
    spec = importlib.util.spec_from_file_location(name, tmp)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def training_parts(name, n_parts, inner, seed=0):
    """[(label, X, y)]: standardised training parts of a seeded stratified 5-fold outer split (and inner parts)."""
    from sklearn.model_selection import StratifiedKFold

    from genesel.datasets import load_dataset, recommended_preprocessing
    from genesel.leaderboard.protocol import prepare

    ds = load_dataset(name)
    X, y = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.y)
    out = []
    for k, (tr, te) in enumerate(StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y)):
        if k >= n_parts:
            break
        Xtr, _, _ = prepare(recommended_preprocessing(name), X, tr, te)
        out.append((f"{name} outer {k}", np.ascontiguousarray(Xtr), y[tr]))
        if inner:
            itr, ite = next(StratifiedKFold(5, shuffle=True, random_state=seed).split(X[tr], y[tr]))
            Xi, _, _ = prepare(recommended_preprocessing(name), X[tr], itr, ite)
            out.append((f"{name} outer {k} inner 0", np.ascontiguousarray(Xi), y[tr][itr]))
    return out


def timed(fn):
    c0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the degenerate-model warnings of the final SVMs are not what is measured
        out = fn()
    return out, time.process_time() - c0


def compare(label, method, make_new, make_old, X, y, rows):
    new, c_new = timed(lambda: make_new().fit(X, y))
    old, c_old = timed(lambda: make_old().fit(X, y))
    a, b = new.feature_order_, old.feature_order_
    same = bool(np.array_equal(a[:TOP], b[:TOP]))
    n_diff = int(np.sum(a != b))
    print(f"{method:24s} {label:28s} {X.shape[0]:4d} x {X.shape[1]:6d}: {c_old:7.2f} s -> {c_new:6.2f} s CPU "
          f"({c_old / c_new:4.1f}x); top {TOP} {'identical' if same else 'DIFFER'}, {n_diff} of {X.shape[1]} "
          "positions differ", flush=True)
    rows.append({"method": method, "part": label, "n": X.shape[0], "genes": X.shape[1], "old_cpu_s": c_old,
                 "new_cpu_s": c_new, "ratio_cpu": c_old / c_new, "top_identical": same, "positions_differ": n_diff})


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["chowdary", "gordon", "borovecki", "golub", "alon"])
    ap.add_argument("--parts", type=int, default=2, help="outer training parts per data set")
    ap.add_argument("--inner", action="store_true", help="also the first inner training part of each")
    ap.add_argument("--methods", nargs="+", default=["msvm", "svmrfe"], choices=["msvm", "svmrfe"])
    ap.add_argument("--base", default=BASE, help="git revision of the previous code")
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    from threadpoolctl import threadpool_limits

    from genesel.msvm_rfe import MSVMRFE
    from genesel.rfe import SVMRFE

    old_msvm = old_module(args.base, "genesel/msvm_rfe.py", "genesel_base_msvm_rfe")
    old_rfe = old_module(args.base, "genesel/rfe.py", "genesel_base_rfe")
    rows = []
    with threadpool_limits(1):
        for name in args.datasets:
            for label, X, y in training_parts(name, args.parts, args.inner):
                d = X.shape[1]
                if "msvm" in args.methods:
                    if not rows:  # numba compilation (or cache loading) outside the timing
                        for cls in (MSVMRFE, old_msvm.MSVMRFE):
                            cls(n_folds=5, step=1, n_features_to_select=1, random_state=0).fit(X[:, :64], y)
                    kw = {"n_folds": 5, "step": 1, "C": 100.0 / d, "n_features_to_select": 1, "random_state": 0}
                    compare(label, "MSVM-RFE", lambda kw=kw: MSVMRFE(**kw), lambda kw=kw: old_msvm.MSVMRFE(**kw), X, y,
                            rows)
                if "svmrfe" in args.methods:
                    for rfe_C in (1.0, 100.0):
                        kw = {"n_features_to_select": 1, "step": 1, "C": rfe_C / d}
                        compare(label, f"SVM-RFE step=1 C={rfe_C:g}/d", lambda kw=kw: SVMRFE(**kw),
                                lambda kw=kw: old_rfe.SVMRFE(**kw), X, y, rows)
    for method in dict.fromkeys(r["method"] for r in rows):
        rs = [r for r in rows if r["method"] == method]
        old_s, new_s = sum(r["old_cpu_s"] for r in rs), sum(r["new_cpu_s"] for r in rs)
        same = sum(r["top_identical"] for r in rs)
        line = (f"{method}: {old_s:.1f} s -> {new_s:.1f} s CPU over {len(rs)} fits ({old_s / new_s:.1f}x); top {TOP} "
                f"identical in {same} of {len(rs)}")
        print(line)
        record(f"{method}, leaderboard C, one gene per step, {len(rs)} training parts of {', '.join(args.datasets)}",
               genesel=f"{new_s:.1f} s CPU", alternative=f"the code of {args.base}: {old_s:.1f} s CPU",
               ratio=f"{old_s / new_s:.1f}× CPU", target="≥ 4× CPU, same top-256 rankings",
               met=bool(old_s / new_s >= 4 and same == len(rs)),
               note=f"top {TOP} identical (same genes, same order) in {same} of {len(rs)} fits",
               genesel_cpu_s=new_s, other_cpu_s=old_s, ratio_cpu=old_s / new_s, identical=same, fits=len(rs))
    return {"tables": {"fits": rows}}


if __name__ == "__main__":
    main()
