"""Benchmark: hard-margin (C = inf) SVM solves on samples no hyperplane separates, today's solver against the code
before it stopped them where their dual proved unbounded (``genesel._core.smo.separation_refuted``), in the same run.

Before, such a solve ran its SMO to ``max_iter`` (10^7 steps by default; notebook 01 caps SVM-RFE at 3 x 10^6): the
last stages of a hard-margin SVM-RFE (one or two genes left), the first prefixes of a forward selection, MSVM-RFE's
last steps. The results differ only there, where the hard-margin SVM does not exist and both codes return an
unfinished solve: the benchmark prints the first position where the two elimination orders differ (and the number
of genes at which the samples stop being separable, by scipy's LP) and the prefixes whose leave-one-out errors differ.

Cases: notebook 01's ranker ``SVMRFE(C=inf, step="halving")`` and ``step=1`` on a 100 x 20,000 study (the
researcher's wide file of ``tests/study_files.py``, genes standardised) and on Colon (62 x 2,000, log10, standardised);
the leave-one-out forward selection on the first 30 genes of that ranking; ``MSVMRFE(C=inf)`` on the wide study's
first 3,000 genes. Each code runs in a child process of its own (the previous one imported from ``git archive`` of
``--base``), each case fitted twice there and timed the second time (numba compilation outside), one BLAS thread.

Usage: python benchmarks/bench_hard_margin.py [--base REV] [--mirror DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, record, recorded, report_ratio, use_mirror  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: the commit before the hard-margin certificate
BASE = "5d445d1"
CASES = ("rfe_halving_wide", "rfe_step1_wide", "rfe_halving_colon", "rfe_step1_colon", "forward_wide",
         "msvm_wide")


def _data(name, folder):
    """(X, y) standardised: the wide study or Colon."""
    if name == "wide":
        sys.path.insert(0, str(ROOT / "tests"))
        import pandas as pd
        import study_files

        df = pd.read_csv(study_files.wide_csv(folder), index_col=0)
        y = (df["class"] == df["class"].iloc[0]).to_numpy(int)
        X = df.drop(columns="class").to_numpy(float)
    else:
        from genesel.datasets import load_dataset

        ds = load_dataset("alon")
        X, y = np.log10(np.asarray(ds.X, dtype=float)), np.asarray(ds.y)
    X = X[:, X.std(0) > 0]
    return (X - X.mean(0)) / X.std(0), y


def _run(case, folder):
    import warnings

    from genesel import MSVMRFE
    from genesel.forward import forward_path
    from genesel.rfe import SVMRFE

    warnings.simplefilter("ignore")
    X, y = _data("colon" if case.endswith("colon") else "wide", folder)
    if case.startswith("rfe"):
        step = "halving" if "halving" in case else 1
        fit = lambda: SVMRFE(n_features_to_select=1, step=step, C=np.inf).fit(X, y)  # noqa: E731
        out = lambda e: {"order": e.feature_order_.tolist()}  # noqa: E731
    elif case == "forward_wide":
        order = SVMRFE(n_features_to_select=1, step="halving", C=1.0).fit(X, y).feature_order_
        fit = lambda: forward_path(X, y, order, max_genes=30, C=np.inf)  # noqa: E731
        out = lambda p: {"loo": np.asarray(p.loo_errors).tolist()}  # noqa: E731
    else:
        fit = lambda: MSVMRFE(n_folds=5, C=np.inf, random_state=0, max_forward_genes=20).fit(X[:, :3000], y)  # noqa
        out = lambda e: {"order": e.feature_order_.tolist(), "support": np.flatnonzero(e.support_).tolist()}  # noqa
    fit()  # compilation / cache loading
    w, c = time.perf_counter(), time.process_time()
    res = fit()
    return {"wall": time.perf_counter() - w, "cpu": time.process_time() - c, **out(res)}


def _child(case, lib, folder):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if lib:
        env["PYTHONPATH"] = lib
    p = subprocess.run([sys.executable, __file__, "--worker", case, "--folder", folder], env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def _separable_from(X, y, order):
    """The fewest leading genes of ``order`` on which the samples are linearly separable (LP)."""
    from genesel.papers.guyon2002 import linearly_separable

    k = 1
    while not linearly_separable(X[:, order[:k]], y):
        k += 1
    return k


@recorded
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASE, help="git revision of the previous code")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    args = add_data_arguments(ap).parse_args()
    use_mirror(args)
    work = Path(tempfile.mkdtemp(prefix="genesel-hard-"))
    arch = subprocess.run(["git", "archive", args.base, "lib"], cwd=ROOT, capture_output=True, check=True).stdout
    (work / "base.tar").write_bytes(arch)
    with tarfile.open(work / "base.tar") as t:
        t.extractall(work / "base", filter="data")
    rows = []
    for case in args.cases:
        new = _child(case, "", str(work))
        old = _child(case, str(work / "base" / "lib"), str(work))
        if "order" in new:
            X, y = _data("colon" if case.endswith("colon") else "wide", str(work))
            if case.startswith("msvm"):
                X = X[:, :3000]
            diff = [i for i, (a, b) in enumerate(zip(old["order"], new["order"])) if a != b]
            k_sep = _separable_from(X, y, np.array(new["order"]))
            where = ("identical" if not diff else
                     f"differ at {len(diff)} positions, from {diff[0] + 1} to {diff[-1] + 1}")
            note = (f"elimination orders {where} of the ranking; the samples are separable on its first {k_sep} genes "
                    f"or more, not on fewer")
            if case.startswith("msvm"):
                note += f"; {'same' if old['support'] == new['support'] else 'another'} biomarker set"
        else:
            diff = [i + 1 for i, (a, b) in enumerate(zip(old["loo"], new["loo"])) if a != b]
            note = f"leave-one-out errors differ at prefixes {diff} (of 30), equal elsewhere"
        print(f"{case}: {note}")
        report_ratio(f"hard margin, {case}", (new["wall"], new["cpu"]), (old["wall"], old["cpu"]),
                     other=f"the code of {args.base}", target=2, note=note)
        rows.append({"case": case, "new_cpu_s": new["cpu"], "old_cpu_s": old["cpu"], "note": note})
    old_s, new_s = sum(r["old_cpu_s"] for r in rows), sum(r["new_cpu_s"] for r in rows)
    record("hard margin: all cases", genesel=f"{new_s:.1f} s CPU", alternative=f"the code of {args.base}: "
           f"{old_s:.1f} s CPU", ratio=f"{old_s / new_s:.1f}× CPU", target="faster; results equal where the "
           "hard-margin SVM exists", met=bool(old_s > new_s), genesel_cpu_s=new_s, other_cpu_s=old_s)
    return {"tables": {"cases": rows}}


if __name__ == "__main__":
    if "--worker" in sys.argv:
        a = argparse.ArgumentParser()
        a.add_argument("--worker")
        a.add_argument("--folder")
        ns = a.parse_args()
        print(json.dumps(_run(ns.worker, ns.folder)))
    else:
        main()
