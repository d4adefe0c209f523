"""Benchmark: genesel's RVM and DWD against the packages a user would otherwise pick, in the same run.

    python benchmarks/bench_rvm_dwd.py [--data golub|alon] [--repeats 3]

* RVM classification (linear kernel on the samples, bias): ``genesel.rvm.RVM`` (Tipping & Faul fast marginal
  likelihood, Laplace/IRLS) vs ``fastrvm.RVC`` (C++ SparseBayes) and ``sklearn_rvm.EMRVC`` (Tipping 2001 EM-style
  re-estimation), on the predefined Leukemia split (38 training / 34 test samples, 7129 genes) by default.
* RVM on the genes (``kernel=None``, 7129 candidate basis functions): genesel only (neither package offers it
  directly); timed for reference.
* DWD (Marron & Todd, linear, C = 100 / median between-class distance²): ``genesel.dwd.DWD`` (Newton in the span of
  the samples) vs ``dwd.DWD`` (the ``dwd`` PyPI package: the SOCP of Marron & Todd solved by cvxpy), comparing
  seconds and the objective Σ 1/r_i + C Σ ξ_i each reaches (evaluated by the same function on each solution).

Missing packages are skipped with a message (``pip install fastrvm sklearn-rvm dwd cvxpy`` into the venv; they
are benchmark-only, not project dependencies). Preprocessing: the data set's recommended preprocessing (log where
needed, per-gene standardisation) fitted on the training samples. Seconds are the best of ``--repeats`` wall-clock
runs; the machine may be shared, so read ratios rather than absolute numbers.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from _common import add_data_arguments, best_of, load_split, use_mirror


def best_time(fn, repeats):
    out, wall, _ = best_of(fn, repeats)
    return wall, out


def load(name, seed=0):
    return load_split(name, split="predefined", preprocess="recommended", seed=seed)


def row(name, secs, ref, extra=""):
    ratio = f"{secs / ref:8.2f}x" if ref else "        "
    print(f"  {name:34s} {secs:9.3f} s  {ratio}  {extra}")


def bench_rvm(Xtr, ytr, Xte, yte, repeats):
    from genesel.rvm import RVM

    print("\nRVM classification, linear kernel on the samples (+ bias)")
    print(f"  {'method':34s} {'seconds':>11s}  {'/genesel':>9s}  details")
    t_g, m = best_time(lambda: RVM(kernel="linear").fit(Xtr, ytr), repeats)
    acc = np.mean(m.predict(Xte) == yte)
    row("genesel.rvm.RVM", t_g, t_g, f"{m.relevance_vectors_.size} RVs, test acc {acc:.3f}, "
        f"log evidence {m.log_marginal_likelihood_:.3f}")
    try:
        import fastrvm

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, f = best_time(lambda: fastrvm.RVC(kernel="linear", fit_intercept=True).fit(Xtr, ytr), repeats)
        acc = np.mean(f.predict(Xte) == yte)
        row("fastrvm.RVC (C++ SparseBayes)", t, t_g, f"{int(np.sum(f.n_relevance_))} RVs, test acc {acc:.3f}")
    except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
        print(f"  fastrvm: skipped ({type(exc).__name__}: {exc})")
    try:
        import sklearn_rvm

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, s = best_time(lambda: sklearn_rvm.EMRVC(kernel="linear").fit(Xtr, ytr), repeats)
        acc = np.mean(s.predict(Xte) == yte)
        nrv = len(getattr(s, "relevance_", getattr(s, "relevance_vectors_", [])))
        row("sklearn_rvm.EMRVC (EM, Tipping 2001)", t, t_g, f"{nrv} RVs, test acc {acc:.3f}")
    except Exception as exc:  # noqa: BLE001
        print(f"  sklearn-rvm: skipped ({type(exc).__name__}: {exc})")
    t, g = best_time(lambda: RVM(kernel=None).fit(Xtr, ytr), repeats)
    acc = np.mean(g.predict(Xte) == yte)
    print(f"\nRVM on the genes (kernel=None, {Xtr.shape[1]} candidate basis functions): genesel only")
    row("genesel.rvm.RVM(kernel=None)", t, None, f"{int(g.support_.sum())} genes kept, test acc {acc:.3f}")


def bench_dwd(Xtr, ytr, Xte, yte, repeats):
    from genesel.dwd import DWD, dwd_loss

    print("\nDWD, linear, C = 100 / median between-class distance² (Marron & Todd)")
    print(f"  {'method':34s} {'seconds':>11s}  {'/genesel':>9s}  details")
    ypm = np.where(ytr == np.unique(ytr)[1], 1.0, -1.0)
    t_g, m = best_time(lambda: DWD().fit(Xtr, ytr), repeats)
    obj_g = dwd_loss(ypm * (Xtr @ m.coef_ + m.intercept_), m.C_).sum()
    row("genesel.dwd.DWD", t_g, t_g, f"objective {obj_g:.6f}, ‖w‖ {np.linalg.norm(m.coef_):.6f}, "
        f"test acc {np.mean(m.predict(Xte) == yte):.3f}")
    try:
        from dwd.socp_dwd import DWD as SocpDWD

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, d = best_time(lambda: SocpDWD(C=m.C_).fit(Xtr, ytr), repeats)
        w, b = d.coef_.ravel(), float(np.ravel(d.intercept_)[0])
        obj = dwd_loss(ypm * (Xtr @ w + b), m.C_).sum()
        acc = np.mean(d.predict(Xte) == yte)
        row("dwd.DWD (SOCP via cvxpy)", t, t_g, f"objective {obj:.6f}, ‖w‖ {np.linalg.norm(w):.6f}, test acc "
            f"{acc:.3f}; cos(w_genesel, w_dwd) {w @ m.coef_ / np.linalg.norm(w) / np.linalg.norm(m.coef_):.6f}")
    except Exception as exc:  # noqa: BLE001
        print(f"  dwd: skipped ({type(exc).__name__}: {exc})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="golub")
    ap.add_argument("--repeats", type=int, default=3)
    args = add_data_arguments(ap).parse_args(argv)
    use_mirror(args)
    Xtr, ytr, Xte, yte = load(args.data)
    print(f"data: {args.data}, {Xtr.shape[0]} training / {Xte.shape[0]} test samples, {Xtr.shape[1]} genes")
    # warm-up (imports, numba caches) outside the timings
    from genesel.dwd import DWD
    from genesel.rvm import RVM

    RVM().fit(Xtr[:, :50], ytr)
    DWD().fit(Xtr[:, :50], ytr)
    bench_rvm(Xtr, ytr, Xte, yte, args.repeats)
    bench_dwd(Xtr, ytr, Xte, yte, args.repeats)


if __name__ == "__main__":
    main()
