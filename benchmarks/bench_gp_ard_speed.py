"""GP-ARD selection against the previous code in the same run (issues 41 and 39): CPU, wall, selections.

For each data set (default: Chowdary 104 x 22,283 and Gordon 181 x 12,533, the two most expensive GP-ARD cells of
the leaderboard, and Gravier) the leaderboard's first outer training part (repeat 0, fold 0; the cells' own
preprocessing, :func:`genesel.leaderboard.protocol.prepare`) is given to the catalogue's GP-ARD selectors,
``GPARDRFE(n_folds=5, n_restarts=0, random_state=seed)`` and ``GPARDFS(...)`` and the final
``GaussianProcessClassifier(ard=True, n_restarts=0)`` on the selected genes, once with the current modules and once
with :mod:`genesel.gp` and :mod:`genesel.gp_ard_select` as they were at ``--base`` (read with ``git show`` into a
temporary folder, imported under other names), one BLAS thread, alternating old and new. Printed per set and
method: CPU and wall seconds (old, new, ratio), the overlap of the top 10 / top 50 of ``feature_order_``, the
signature sizes and their overlap, the test errors of the pipeline on the outer test part, and the GP-ARD fold fits
that did not meet their convergence test (``fold_converged_``; code without it: the warnings that name L-BFGS-B's
iteration cap, which miss the runs capped on v0's upper bound, whose warning names the bound).

``--evaluations``: instead, the CPU seconds of one evaluation of the log evidence and its gradient (what every
L-BFGS-B iteration costs) old against new, at the sizes of one GP-ARD fold fit (the training part of a 5-fold split
of the outer training part: Chowdary 66 x 22,283, Gordon 116 x 12,533, Gravier 107 x 2,905, a 100 x 55,000 array's
10-fold fit 90 x 55,000) on seeded N(0, 1) data at a seeded point, with the largest relative difference of the
evidence and of the gradient between the two (rounding only).

``--wide``: instead, ``GPARDRFE(random_state=0)`` and ``GPARDFS(random_state=0)`` (the defaults, seeded) on
``benchmarks/bench_wide.py``'s seeded 100 x 55,000 problem, old and new, one BLAS thread: CPU and wall seconds, the
fits that did not meet their convergence test and how many of the 10 informative genes each signature holds.

Measured 2026-11-28 against ec0eaab (loaded 2-core machine, one outer fold): one evaluation 1.22-1.27x less CPU
(same evidence and gradient to 3e-15); whole selectors 1.05-1.21x CPU (GP-ARD-RFE: Gravier 23.7 -> 22.5 s, Chowdary
59.0 -> 53.2 s, Gordon 65.6 -> 54.4 s; GP-ARD-FS 1.00-1.08x). The selections move as much as the rounding lets
iteration-capped fits move: top-10 in common 5-10, top-50 22-50, signature sizes 35/117 (Gravier RFE), 3/4, 5/4,
3/9, 4/5, 29/29; test errors 10/11, 1/0, 0/0, 12/12, 1/1, 0/0.

Measured 2026-11-28 against main (``--base main``: the log-parameterised fits) after the shifted-log relevances with
their working set (:mod:`genesel.gp`, "Iterations"), GP-ARD-RFE at the catalogue's settings, one outer fold, loaded
2-core machine: Alon 4.3 -> 3.3 s CPU, Golub 11.2 -> 6.3, Chowdary 50.9 -> 17.6 (2.9x), Gravier 23.4 -> 29.9
(0.78x: its 107-sample fold fits now run 500-1,300 iterations whose cost is the Laplace posterior's, O(n^3));
iteration-capped fold fits 8 -> 0 of 20, 7 -> 0 of 30, 30 -> 0 of 40, 17 -> 0 of 25; test errors 3/2 of 13, 2/1 of
15, 0/1 of 21, 11/6 of 34; signature sizes 13/14, 19/5, 4/3, 117/44; top-10 in common 4, 4, 2, 4
(the fits now reach other, higher maxima of a multimodal evidence, and the genes on the lower bound are ordered by
their evidence gradient, not by how far the capped optimiser had pushed them). One first-round fold fit of
``GPARDRFE()`` on the 100 x 55,000 problem (90 x 55,000, one start): 16.0 s capped at 200 iterations -> 2.8 s
converged in 186 (log evidence -13.51 -> -12.14).

Measured 2026-11-28, ``GPARDRFE(random_state=0)`` with its defaults on the 100 x 55,000 problem (the ``--wide``
setting, one BLAS thread, both in the same period on a loaded 2-core machine), the code at 1511215 (the default since)
against the stop on v0's upper bound (``genesel.gp._STOP_ON_V0_BOUND = True``, off by default: :mod:`genesel.gp`,
"Separable training folds"): 549 -> 341 s CPU; fold fits that did not meet their convergence test 12 of 90 (capped at
2,000 iterations, rounds 1-3) -> 53 of 90 whose winning run ended on v0's bound (no fit capped; at most 395
iterations); 6 of the 10 informative genes in an 11-gene signature both times. One first-round fold fit with its
three starts (90 x 55,000): 23.4 -> 18.4 s CPU. Issue 41's 60 s is not reached either way: the first phase of every
run (100-150 evaluations on every gene of the round, half of them leaving the flat model) remains.

Measured 2026-11-28 against 12965de (issue 41: scipy's L-BFGS-B routine driven with array bounds, LAPACK called
directly, only the free relevances transformed: the same fits bit for bit; and GP-ARD-RFE's warm starts along the
elimination path, :mod:`genesel.gp_ard_select`), the catalogue's settings, one outer fold, heavily loaded 2-core
machine. GP-ARD-RFE: Alon 2.6 -> 0.8 s CPU, Golub 7.1 -> 2.2, Chowdary 22.1 -> 8.8, Gravier 45.8 -> 10.2 (2.5-4.5x);
signature sizes 21/41, 17/21, 4/7, 44/48, top-10 in common 7, 5, 3, 3; test errors 1/1 of 13, 1/0 of 15, 0/0 of 21,
6/8 of 34; fold fits that did not meet their convergence test 0/0 of 20, 0/0 of 30, 1/1 of 40 (the same first-round
fit on Chowdary, capped on v0's upper bound at 2,000 iterations: the table printed "0 warn" for the old code, whose
count came from warnings that do not name that case; fixed since), 0/0 of 25. GP-ARD-FS (no warm starts: one round):
1.11-1.25x less CPU with the same ranking, signature and test errors (top-10 10 of 10, top-50 50 of 50). With the warm
starts off (``genesel.gp_ard_select._WARM_START_ROUNDS = False``) GP-ARD-RFE on Chowdary fits exactly as 12965de
(the same iterations and evidences of all 40 fold fits) in 15.8 s against 19.7 (old) and 7.3 (warm), measured side by
side.

``--wide`` after the same changes (measured 2026-11-28, one process per version, 2-core machine under a load of
5-10): ``GPARDRFE(random_state=0)`` 396 s CPU with the warm starts, 478 s with them off (the fits of 12965de bit for
bit: same iterations, evidences, signature), side by side; 12965de itself 604 s, measured earlier under a lighter load.
Fold fits not converged 15 / 14 / 14 of 90; informative genes in the signature 6 of 10 in 32 genes / 5 in 7 / 5 in 7.
``GPARDFS(random_state=0)``: 39.9 -> 37.5 s, the same 8-gene signature (5 informative). Issue 41's 60 s is not
reached (:mod:`genesel.gp_ard_select`, "Cost").

Run: ``OPENBLAS_CORETYPE=Haswell python benchmarks/bench_gp_ard_speed.py [--sets chowdary gordon] [--base ec0eaab]
[--methods rfe fs] [--evaluations | --wide]``.

``--wide`` against 0.1.0 (``--base 72e076a``), measured 2026-11-29 on an Intel Xeon 2-core machine with a rerun
process on the other core, one BLAS thread, the defaults on the seeded 100 x 55,000 problem (issue 41's target:
``GPARDRFE()`` under 60 s): GP-ARD-RFE 1,316 CPU s (1,713 s wall) -> 542 CPU s (582 s wall), 2.4x less CPU but nine
times the target; 4 of its 90 fold fits stopped at the iteration cap (0.1.0 does not report it); informative genes in
the signature 4 of 10 (6 genes) -> 5 of 10 (16 genes). GP-ARD-FS 43 -> 33 CPU s (68 -> 44 s wall), every fold fit
converged; 7 of 10 (16 genes) -> 5 of 10 (8 genes).
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
from _common import add_data_arguments, recorded, use_mirror

ROOT = Path(__file__).resolve().parents[1]


def old_modules(base):
    """(gp, gp_ard_select) of commit ``base``, imported from a temporary folder as ``_old_gp`` and
    ``_old_gp_ard_select`` (the selector module's ``from genesel.gp import`` pointed at the old GP)."""
    tmp = Path(tempfile.mkdtemp(prefix="old_gp_"))
    mods = {}
    for name, path in (("_old_gp", "lib/genesel/gp.py"), ("_old_gp_ard_select", "lib/genesel/gp_ard_select.py")):
        src = subprocess.run(["git", "show", f"{base}:{path}"], cwd=ROOT, check=True, capture_output=True,
                             text=True).stdout
        src = src.replace("from genesel.gp import", "from _old_gp import")
        (tmp / f"{name}.py").write_text(src)
        spec = importlib.util.spec_from_file_location(name, tmp / f"{name}.py")
        mods[name] = importlib.util.module_from_spec(spec)
        sys.modules[name] = mods[name]
        spec.loader.exec_module(mods[name])
    return mods["_old_gp"], mods["_old_gp_ard_select"]


def outer_part(name, rep=0, fold=0):
    """The leaderboard's outer training and test part (preprocessed as the cells do) and the cell's seed."""
    from genesel.experiments import nested_cv
    from genesel.leaderboard import cells as C
    from genesel.leaderboard.protocol import prepare

    task = C.load(name)
    mode = C.MODES["full"]
    tr, te, _ = nested_cv(task.y, mode["n_folds"], mode["inner_k"], 0, repeat=rep)[fold]
    Xa, Xb, _ = prepare(task.prep, task.X, tr, te)
    return Xa, task.y[tr], Xb, task.y[te], C.fold_seed(0, rep, fold)


def capped(sel):
    """(fits that stopped at the iteration cap, fits) of a fitted selector (old code: counted from its warnings)."""
    if hasattr(sel, "fold_converged_"):
        conv = np.concatenate([np.ravel(c) for c in (sel.fold_converged_ if isinstance(sel.fold_converged_, list)
                                                     else [sel.fold_converged_])])
        return int(np.sum(~conv)), int(conv.size)
    return None


def run(gp_mod, sel_mod, kind, Xa, ya, Xb, yb, seed):
    from threadpoolctl import threadpool_limits

    Sel = sel_mod.GPARDRFE if kind == "rfe" else sel_mod.GPARDFS
    with threadpool_limits(1), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        t0, c0 = time.perf_counter(), time.process_time()
        sel = Sel(n_folds=5, n_restarts=0, random_state=seed).fit(Xa, ya)
        c1, t1 = time.process_time(), time.perf_counter()
        g = np.flatnonzero(sel.support_)
        clf = gp_mod.GaussianProcessClassifier(ard=True, n_restarts=0, random_state=seed).fit(Xa[:, g], ya)
        c2, t2 = time.process_time(), time.perf_counter()
        err = int(np.sum(clf.predict(Xb[:, g]) != yb))
    n_cap = sum("iterations" in str(x.message) and "L-BFGS-B" in str(x.message) for x in w)
    return dict(sel=sel, cpu_sel=c1 - c0, wall_sel=t1 - t0, cpu_gp=c2 - c1, wall_gp=t2 - t1, errors=err,
                capped_warnings=n_cap, gp_iter=clf.n_iter_, gp_conv=clf.optimizer_converged_)


def evaluations(gp_old, gp_new, shapes=((66, 22283), (116, 12533), (107, 2905), (90, 55000)), repeats=5):
    """Per-evaluation CPU seconds (evidence and gradient) old against new, best of ``repeats`` x 10 calls."""
    from threadpoolctl import threadpool_limits

    print("| fold fit n x d | CPU ms old | CPU ms new | ratio | rel. diff log Z | rel. diff gradient |")
    print("|---|---|---|---|---|---|")
    for n, d in shapes:
        rng = np.random.default_rng(n + d)
        X, y = rng.normal(size=(n, d)), np.where(np.arange(n) % 2 == 0, 1, -1)
        fits, best = {}, {}
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, mod in (("old", gp_old), ("new", gp_new)):
                fits[name] = mod.GaussianProcessClassifier(n_restarts=0, optimizer=None).fit(X, y)
            theta = fits["old"]._theta_scaled + 0.5 * rng.normal(size=fits["old"]._theta_scaled.size)
            out = {}
            for _ in range(repeats):
                for name, gp in fits.items():
                    c0 = time.process_time()
                    for _ in range(10):
                        out[name] = gp._evidence(theta, True)
                    best[name] = min(best.get(name, np.inf), (time.process_time() - c0) / 10)
        (zo, go, _), (zn, gn, _) = out["old"], out["new"]
        print(f"| {n} x {d} | {1e3 * best['old']:.1f} | {1e3 * best['new']:.1f} | {best['old'] / best['new']:.2f} | "
              f"{abs(zn - zo) / abs(zo):.1e} | {np.max(np.abs(gn - go)) / np.max(np.abs(go)):.1e} |", flush=True)


def wide(sel_old, sel_new, methods):
    """The defaults on the 100 x 55,000 problem of bench_wide.py, old and new."""
    from threadpoolctl import threadpool_limits

    from bench_wide import synthetic

    X, y, _, _, informative = synthetic()
    print("| 100 x 55,000, defaults | code | CPU s | wall s | capped fits | informative genes in the signature |")
    print("|---|---|---|---|---|---|")
    for kind in methods:
        for name, mod in (("old", sel_old), ("new", sel_new)):
            Sel = mod.GPARDRFE if kind == "rfe" else mod.GPARDFS
            with threadpool_limits(1), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0, c0 = time.perf_counter(), time.process_time()
                sel = Sel(random_state=0).fit(X, y)  # the defaults, seeded (the restarts draw from it)
                cpu, wall = time.process_time() - c0, time.perf_counter() - t0
            cap = capped(sel)
            got = np.intersect1d(np.flatnonzero(sel.support_), informative).size
            print(f"| GP-ARD-{kind.upper()} | {name} | {cpu:.0f} | {wall:.0f} | "
                  f"{f'{cap[0]} of {cap[1]}' if cap else '-'} | {got} of 10 ({sel.support_.sum()} genes) |",
                  flush=True)


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--sets", nargs="+", default=["chowdary", "gordon", "gravier"])
    ap.add_argument("--methods", nargs="+", default=["rfe", "fs"], choices=["rfe", "fs"])
    ap.add_argument("--base", default="ec0eaab", help="commit of the previous code")
    ap.add_argument("--folds", nargs="+", type=int, default=[0], help="outer folds of repeat 0")
    ap.add_argument("--evaluations", action="store_true", help="time one evidence evaluation instead")
    ap.add_argument("--wide", action="store_true", help="the defaults on bench_wide.py's 100 x 55,000 problem")
    args = ap.parse_args(argv)
    use_mirror(args)
    import genesel.gp as gp_new
    import genesel.gp_ard_select as sel_new

    gp_old, sel_old = old_modules(args.base)
    if args.evaluations:
        evaluations(gp_old, gp_new)
        return
    if args.wide:
        wide(sel_old, sel_new, args.methods)
        return
    print("| set | fold | method | CPU s old | CPU s new | CPU ratio | wall ratio | final GP CPU old/new "
          "| top-10 common | top-50 common | size old/new (common) | test errors old/new | capped fits old/new |")
    print("|" + "---|" * 13)
    for name in args.sets:
        for fold in args.folds:
            Xa, ya, Xb, yb, seed = outer_part(name, 0, fold)
            for kind in args.methods:
                o = run(gp_old, sel_old, kind, Xa, ya, Xb, yb, seed)
                n = run(gp_new, sel_new, kind, Xa, ya, Xb, yb, seed)
                fo, fn = o["sel"].feature_order_, n["sel"].feature_order_
                so, sn = set(np.flatnonzero(o["sel"].support_)), set(np.flatnonzero(n["sel"].support_))
                cap, cap_old = capped(n["sel"]), capped(o["sel"])
                print(f"| {name} {Xa.shape[0]}x{Xa.shape[1]} | {fold} | GP-ARD-{kind.upper()} | {o['cpu_sel']:.1f} | "
                      f"{n['cpu_sel']:.1f} | {o['cpu_sel'] / n['cpu_sel']:.2f} | {o['wall_sel'] / n['wall_sel']:.2f} | "
                      f"{o['cpu_gp']:.2f}/{n['cpu_gp']:.2f} | "
                      f"{len(set(fo[:10]) & set(fn[:10]))} | {len(set(fo[:50]) & set(fn[:50]))} | "
                      f"{len(so)}/{len(sn)} ({len(so & sn)}) | {o['errors']}/{n['errors']} of {yb.size} | "
                      f"{cap_old[0] if cap_old else str(o['capped_warnings']) + ' warn'}/{cap[0] if cap else '?'} of "
                      f"{cap[1] if cap else '?'} "
                      f"(final GP {'conv' if o['gp_conv'] else 'cap'}/{'conv' if n['gp_conv'] else 'cap'}) |",
                      flush=True)


if __name__ == "__main__":
    main()
