"""Every public estimator, default-constructed, on today's array sizes: 100 samples x 55,000 probes (issue 25).

Data.
1. **synthetic** (seeded): 100 training and 100 test samples, two balanced classes, 55,000 genes drawn N(0, 1) (as
   after the per-gene standardisation the papers use), of which 10 at random positions are informative: their class
   means differ by one standard deviation (half of them up, half down in class 1). One such gene alone separates the
   classes poorly (Bayes error 31 %), the ten together well (Bayes error 6 %), and among 55,000 noise genes the
   largest chance differences are as large as the real ones, so "informative genes found" is a real test.
2. **real** (``--real``, default ``chowdary``: 104 breast tumours, 22,283 Affymetrix probes, two classes, the
   widest two-class set of the mirror): a seeded stratified half/half split, log-transformed and standardised as
   :func:`genesel.datasets.recommended_preprocessing` does, fitted on the training half (no ground truth for the
   genes).

Every estimator exported by ``genesel`` that is a scikit-learn estimator is constructed with no argument (and
``make_corr_pipeline()``) and fitted once on the training part, in a subprocess of its own with one BLAS and one
numba thread (threadpoolctl and the usual environment variables), after a warm-up fit on a 64-gene slice (numba's
compilation and cache loading are not timed). Reported per estimator: CPU and wall seconds of ``fit``, the peak
resident memory during ``fit`` (Linux VmHWM, reset before the fit) and its growth over the memory held before, the
genes selected and (synthetic data) how many of the 10 informative genes they hold, the training and test accuracy
(selectors without ``predict``: of a :class:`genesel.LinearSVM` trained on the selected genes), and the warnings
``fit`` raised, by category. An estimator that has not finished after ``--timeout`` seconds is stopped and its row
says so (the budget covers the subprocess: data, warm-up and fit). Transformers (``LogTransform``,
``GeneStandardizer``, ...) have only times.

Run: ``python benchmarks/bench_wide.py [--only MSVMRFE GPARDRFE ...] [--real chowdary|none] [--no-synthetic]
[--timeout 900] [--genes 55000] [--mirror DIR]``. Prints Markdown tables, the machine note and the warnings in full.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

from _common import add_data_arguments, recorded, use_mirror

HERE = Path(__file__).resolve().parent
N_TRAIN, N_TEST, N_GENES, N_INFORMATIVE, SHIFT, SEED = 100, 100, 55_000, 10, 1.0, 0
_ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS",
                                "VECLIB_MAXIMUM_THREADS")}


# ------------------------------------------------------------------------------------------------------ the data
def synthetic(n_genes=N_GENES, seed=SEED):
    """(X_train, y_train, X_test, y_test, informative genes) of the seeded problem of the module docstring."""
    rng = np.random.default_rng(seed)
    signs = np.where(np.arange(N_INFORMATIVE) % 2 == 0, 1.0, -1.0)
    perm = rng.permutation(n_genes)  # column c of the data is drawn gene perm[c]

    def draw(m):
        y = np.r_[np.zeros(m // 2, dtype=int), np.ones(m - m // 2, dtype=int)]
        X = rng.standard_normal((m, n_genes))
        X[:, :N_INFORMATIVE] += SHIFT * signs * (y[:, None] - 0.5)
        return X[:, perm], y

    Xtr, ytr = draw(N_TRAIN)
    Xte, yte = draw(N_TEST)
    informative = np.flatnonzero(perm < N_INFORMATIVE)  # the columns that hold the drawn genes 0..9
    return Xtr, ytr, Xte, yte, informative


def real(name):
    sys.path.insert(0, str(HERE))
    from _common import load_split

    Xtr, ytr, Xte, yte = load_split(name, split="half", preprocess="recommended", seed=SEED)
    return Xtr, ytr, Xte, yte, None


# ------------------------------------------------------------------------------------------------ the estimators
def estimators():
    """{name: factory} of every default-constructed public estimator of genesel."""
    import inspect

    from sklearn.base import BaseEstimator

    import genesel

    out = {}
    for name in genesel.__all__:
        obj = getattr(genesel, name)
        if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            out[name] = obj
    out["make_corr_pipeline"] = genesel.make_corr_pipeline
    return out


def _kind(est):
    if hasattr(est, "_get_support_mask"):
        return "selector"
    if hasattr(est, "predict"):
        return "classifier"
    return "transformer"


def _rss_mb(field):
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def _reset_peak():
    """Reset the kernel's high-water mark of this process (Linux >= 4.0); False where that is not possible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def run_one(name, data, n_genes, real_name):
    """Fit one estimator (in this process) and return its row as a dict."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    from sklearn.base import clone

    from genesel import LinearSVM

    Xtr, ytr, Xte, yte, informative = synthetic(n_genes) if data == "synthetic" else real(real_name)
    est = estimators()[name]()
    kind = _kind(est)
    with warnings.catch_warnings():  # warm-up: numba compilation and cache loading, on a 64-gene slice
        warnings.simplefilter("ignore")
        try:
            clone(est).fit(Xtr[:, :64], ytr)
        except Exception:  # noqa: BLE001  the timed fit reports errors
            pass
    before = _rss_mb("VmRSS")
    reset = _reset_peak()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            est.fit(Xtr, ytr)
            error = None
        except Exception as exc:  # noqa: BLE001  a refusal is a result too
            error = f"{type(exc).__name__}: {exc}"
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = _rss_mb("VmHWM") if reset else float("nan")
    row = {"estimator": name, "kind": kind, "cpu": cpu, "wall": wall, "peak_mb": peak,
           "growth_mb": peak - before if reset else float("nan"), "error": error,
           "warnings": [[w.category.__name__, str(w.message)] for w in caught]}
    if error is not None:
        return row
    model, genes = est, None
    selector = est if kind == "selector" else next(
        (step for _, step in getattr(est, "steps", []) if hasattr(step, "get_support")), None)  # e.g. x-CORR
    if selector is not None:
        genes = np.flatnonzero(selector.get_support())
        row["n_selected"] = int(genes.size)
        if informative is not None:
            row["informative_found"] = int(np.isin(informative, genes).sum())
        if kind == "selector" and not hasattr(est, "predict"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = LinearSVM().fit(Xtr[:, genes], ytr)
            row["accuracy_by"] = "LinearSVM on the selected genes"
    if kind != "transformer":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Xa, Xb = (Xtr, Xte) if model is est else (Xtr[:, genes], Xte[:, genes])
            row["train_acc"] = float(np.mean(model.predict(Xa) == ytr))
            row["test_acc"] = float(np.mean(model.predict(Xb) == yte))
    return row


# ------------------------------------------------------------------------------------------------------ the table
def _fmt(v, spec):
    return "—" if v is None or (isinstance(v, float) and not np.isfinite(v)) else format(v, spec)


def _warn_summary(ws):
    if not ws:
        return ""
    c = Counter(cat for cat, _ in ws)
    return ", ".join(f"{cat} ×{k}" if k > 1 else cat for cat, k in sorted(c.items()))


def table_rows(rows, with_truth) -> list[dict]:
    """The rows of :func:`table` as dicts (the result file's tables)."""
    lines = table(rows, with_truth).splitlines()
    head = [h.strip() for h in lines[0].strip("|").split(" | ")]
    return [dict(zip(head, (c.strip() for c in line.strip().strip("|").split(" | ")))) for line in lines[2:]]


def table(rows, with_truth):
    head = ["estimator", "kind", "CPU s", "wall s", "peak MB", "+MB", "genes", "informative (of 10)" if with_truth
            else None, "train acc", "test acc", "warnings"]
    head = [h for h in head if h is not None]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        if r.get("timeout"):
            cells = [r["estimator"], r.get("kind", ""), f"> {r['timeout']:.0f}", f"> {r['timeout']:.0f}", "—", "—",
                     "—"] + (["—"] if with_truth else []) + ["—", "—", "did not finish (stopped)"]
        else:
            err = r.get("error")
            cells = [r["estimator"], r["kind"], _fmt(r["cpu"], ".1f"), _fmt(r["wall"], ".1f"),
                     _fmt(r["peak_mb"], ".0f"), _fmt(r["growth_mb"], ".0f"),
                     str(r.get("n_selected", "—"))]
            if with_truth:
                cells.append(str(r.get("informative_found", "—")))
            cells += [_fmt(r.get("train_acc"), ".2f"), _fmt(r.get("test_acc"), ".2f"),
                      ("**error**: " + err[:120].replace("|", "/")) if err else _warn_summary(r["warnings"])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine_note(t_start, load_start):
    import numba
    import scipy
    import sklearn
    from threadpoolctl import threadpool_info

    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = ", ".join(sorted({f"{i.get('internal_api')} {i.get('version')}" for i in threadpool_info()}))
    return (f"Machine: {cpu}, {os.cpu_count()} logical cores (shared: load average {load_start[0]:.1f} at the start, "
            f"{os.getloadavg()[0]:.1f} at the end), Python {platform.python_version()}, numpy {np.__version__}, "
            f"scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, numba {numba.__version__}, BLAS: "
            f"{blas}; one BLAS and one numba thread per fit; {time.strftime('%Y-%m-%d', time.localtime(t_start))}. "
            "CPU seconds are the steadier measure on a shared machine; wall seconds grow with the load.")


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="estimator names (default: all)")
    ap.add_argument("--real", default="chowdary", help="a two-class data set of the mirror, or 'none'")
    ap.add_argument("--no-synthetic", action="store_true",
                    help="only the real data set (e.g. to re-measure a few rows)")
    ap.add_argument("--genes", type=int, default=N_GENES, help="genes of the synthetic problem (default 55,000)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds before a fit is stopped (default 900)")
    ap.add_argument("--json", default=None, help="also write the rows to this JSON file")
    ap.add_argument("--child", nargs=2, metavar=("NAME", "DATA"), help=argparse.SUPPRESS)
    add_data_arguments(ap)
    args = ap.parse_args(argv)
    use_mirror(args)
    if args.child:
        print("@@ROW " + json.dumps(run_one(args.child[0], args.child[1], args.genes, args.real)), flush=True)
        return
    names = args.only or list(estimators())
    datasets = ([] if args.no_synthetic else ["synthetic"]) + ([] if args.real == "none" else [args.real])
    if not datasets:
        ap.error("--no-synthetic with --real none leaves nothing to measure")
    env = {**os.environ, **_ONE_THREAD, "GENESEL_BENCH_RECORD": "0"}  # a fit's subprocess records nothing
    t_start, load_start = time.time(), os.getloadavg()
    results = {}
    for data in datasets:
        rows = []
        for name in names:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name,
                   "synthetic" if data == "synthetic" else "real", "--genes", str(args.genes), "--real", args.real]
            try:
                out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
                row = next((json.loads(line[6:]) for line in out.stdout.splitlines() if line.startswith("@@ROW ")),
                           None)
                if row is None:
                    row = {"estimator": name, "kind": "?", "cpu": None, "wall": None, "peak_mb": None,
                           "growth_mb": None, "warnings": [],
                           "error": "the subprocess failed: " + (out.stderr.strip().splitlines() or ["?"])[-1]}
            except subprocess.TimeoutExpired:
                row = {"estimator": name, "timeout": args.timeout}
            rows.append(row)
            print(f"[{data}] {name}: " + (f"{row['cpu']:.1f} s CPU" if row.get("cpu") is not None else
                                           str(row.get("error") or "timeout")), file=sys.stderr, flush=True)
        results[data] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if "synthetic" in results:
        print(f"## Default-constructed estimators on {N_TRAIN} x {args.genes:,} (synthetic, {N_INFORMATIVE} "
              f"informative genes; test: {N_TEST} samples)\n")
        print(table(results["synthetic"], with_truth=True))
    if args.real != "none":
        rows = results[args.real]
        print(f"\n## Default-constructed estimators on {args.real} (real, half/half split, log + standardised)\n")
        print(table(rows, with_truth=False))
    print("\n" + machine_note(t_start, load_start))
    print("\n## Warnings in full\n")
    for data, rows in results.items():
        for r in rows:
            for cat, msg in {(c, m) for c, m in r.get("warnings", [])}:
                print(f"- [{data}] {r['estimator']}: {cat}: {msg}")
    tables = {}
    if "synthetic" in results:
        tables[f"synthetic, {N_TRAIN} x {args.genes:,}"] = table_rows(results["synthetic"], with_truth=True)
    if args.real != "none":
        tables[f"{args.real} (real, half/half split)"] = table_rows(results[args.real], with_truth=False)
    return {"tables": tables}


if __name__ == "__main__":
    main()
