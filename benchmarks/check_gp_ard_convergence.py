"""Do the default GP-ARD fits of the leaderboard reach their convergence test on every binary set (issue 39)?

For every registered binary expression set (:func:`genesel.leaderboard.cells.binary_expression_sets`) the leaderboard's
first outer training part (repeat 0, fold 0, preprocessed as the cells do) is given to the catalogue's GP-ARD
entries at their settings: ``GPARDRFE(n_folds=5, n_restarts=0, random_state=seed)`` and ``GPARDFS(n_folds=5,
n_restarts=0, random_state=seed)``, each followed by ``GaussianProcessClassifier(ard=True, n_restarts=0,
random_state=seed)`` on the genes it selected. Everything runs twice, with one and with two BLAS threads
(threadpoolctl; the GP fits themselves use one thread up to 2,000 samples). One row per fit group:

* ``fit``: ``RFE round r (d genes)`` (the k fold fits of one elimination round), ``FS folds`` (the k fold fits of
  GP-ARD-FS), ``final GP after RFE`` / ``after FS``;
* ``converged``: how many of those fits met L-BFGS-B's convergence test (not the iteration cap), at one thread;
* ``iterations``: the largest and the median number of L-BFGS-B iterations among them, and the cap (``max_iter``);
* ``top genes 1 = 2 threads``: whether the ranking (RFE: the top 10 of ``feature_order_``; FS: the top 10 of
  ``feature_order_``; final GP: its 10 largest ARD values) and the signature are the same at both thread counts
  (shown on the first row of each selector).

Measured 2026-11-28 (branch h-speed-gp, the catalogue's settings, max_iter 200; all 20 sets, in two processes on a
loaded 2-core machine). 392 of 765 fits met their convergence test. Every final GP (on the 1-117 selected genes)
converged, within 157 iterations (40 of 40). GP-ARD-FS' fold fits: 70 of 100, all where the prefilter passed at most
414 genes (and Armstrong's 880), fewer above (Gordon's 3,328: 1 of 5; Chowdary's 4,078: 0 of 5). GP-ARD-RFE's fold
fits: on 256 genes 93 of 100; on 1,024 genes or more 106 of 425, and in the first round (every gene) 3 of 100. The
top genes and the signatures were the same at one and two BLAS threads on every set (the GP fits run single-threaded
up to 2,000 samples whatever the caller's pool). Fits on thousands of genes need 400-1,700 iterations to converge
(:mod:`genesel.gp`, "Iterations").

After the shifted-log relevances with their working set (:mod:`genesel.gp`, "Iterations"; default ``max_iter``
2000), measured 2026-11-28 on the sets run so far (loaded
2-core machine): Alon 27 of 27, Golub 37 of 37, Gravier 32 of 32 and Chowdary 47 of 47 fits met their convergence
test (largest 1,446 iterations: a GP-ARD-FS fold fit on Chowdary's 4,078 prefiltered genes; the first RFE round on
its 22,283 probes at most 436), with the same top genes and signatures at one and two BLAS threads; the other 16
binary sets were not rerun (time).

Six more sets, measured 2026-11-28 (loaded 2-core machine) with the stop on v0's upper bound switched on
(``genesel.gp._STOP_ON_V0_BOUND = True``: a run on that bound with the evidence rising beyond it and a failed KKT check
of its frozen relevances stops there, not converged, instead of climbing on the face of the box; off by default):
Welsh 42 of 42, Borovecki 47 of 47, Armstrong 42 of 42 and Garber 32 of 32 fits converged (at most 215 iterations; no
fit there was stopped: the default code gave the same iterations), West 25 of 37 and Subramanian 20 of 42 (every other
fit stopped on v0's bound; at most 561 iterations). With the default climb: West 37 of 37 (within 1,112 iterations)
and Subramanian 41 of 42 (within 1,872; one first-round fold fit on 10,100 genes capped at 2,000): these 39- and
40-sample folds are separable, and their fits end at maxima over the box, on its face. The same top genes and
signatures at one and two BLAS threads on all six, both ways. With the default code, also: Chandran's metastasis set
42 of 42, Pomeroy 37 of 37 (at most 1,563 iterations), Michigan 32 of 32 and Shipp 37 of 37, the same top genes and
signatures at both thread counts (the default code fits as 1511215 did, so Alon's, Golub's, Gravier's and Chowdary's
counts above stand); Alizadeh 32 of 32, Harvard 32 of 32, Singh 42 of 42 and Chandran's primary set 42 of 42 (at most
1,266 iterations), Chiaretti 42 of 42 and Gordon 42 of 42 (at most 502). So with the default code all 20 binary sets
have been checked: every fit converged except one of Subramanian's 42 (a first-round fold fit on 10,100 genes, capped
at 2,000 iterations), with the same top genes and signatures at one and two BLAS threads everywhere. That fit
converges at 2,885 iterations; the default ``max_iter`` is 5000 since (the other fits the same, bit for bit: their
L-BFGS-B path does not depend on the cap), and with it Subramanian's 42 of 42 converge (at most 2,885 iterations),
with the same top 10 genes and signature as before and at one and two BLAS threads; West 37 of 37 as before
(``tests/test_gp_ard_convergence.py``).

It is slow (the leaderboard's two GP-ARD cells of one outer fold per set, twice). Run:
``OPENBLAS_CORETYPE=Haswell python benchmarks/check_gp_ard_convergence.py [--sets alon golub ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
from _common import add_data_arguments, use_mirror


def _fits(name, threads):
    from threadpoolctl import threadpool_limits

    from bench_gp_ard_speed import outer_part
    from genesel.gp import GaussianProcessClassifier
    from genesel.gp_ard_select import GPARDFS, GPARDRFE

    Xa, ya, _, _, seed = outer_part(name)
    out = {"shape": Xa.shape}
    with threadpool_limits(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind, Sel in (("RFE", GPARDRFE), ("FS", GPARDFS)):
            t0 = time.process_time()
            sel = Sel(n_folds=5, n_restarts=0, random_state=seed).fit(Xa, ya)
            g = np.flatnonzero(sel.support_)
            gp = GaussianProcessClassifier(ard=True, n_restarts=0, random_state=seed).fit(Xa[:, g], ya)
            out[kind] = dict(sel=sel, gp=gp, genes=g, cpu=time.process_time() - t0,
                             top=sel.feature_order_[:10].tolist(), gp_top=g[np.argsort(-gp.relevances_)[:10]].tolist())
    return out


def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--sets", nargs="+", default=None, help="default: every binary expression set")
    args = ap.parse_args(argv)
    use_mirror(args)
    from genesel.leaderboard.cells import binary_expression_sets

    sets = args.sets or binary_expression_sets()
    print("| set | fit | converged | iterations (max / median; cap) | top genes 1 = 2 threads |")
    print("|---|---|---|---|---|")
    totals = [0, 0]
    for name in sets:
        one, two = _fits(name, 1), _fits(name, 2)
        n, d = one["shape"]
        for kind in ("RFE", "FS"):
            a, b = one[kind], two[kind]
            same = a["top"] == b["top"] and np.array_equal(a["genes"], b["genes"])
            sel, cap = a["sel"], a["sel"].max_iter
            if kind == "RFE":
                groups = [(f"RFE round {r + 1} ({s} genes)", it, cv) for r, (s, it, cv) in
                          enumerate(zip(sel.sizes_, sel.fold_n_iter_, sel.fold_converged_))]
            else:
                groups = [(f"FS folds ({int(sel.prefilter_support_.sum())} genes)", sel.fold_n_iter_,
                           sel.fold_converged_)]
            groups.append((f"final GP after {kind} ({a['genes'].size} genes)", np.array([a["gp"].n_iter_]),
                           np.array([a["gp"].optimizer_converged_])))
            for j, (label, it, cv) in enumerate(groups):
                it, cv = np.asarray(it), np.asarray(cv)
                totals[0] += int(cv.sum())
                totals[1] += int(cv.size)
                if j == 0:
                    flag = f"{'yes' if same else 'NO'} (selection, {a['cpu']:.0f} s CPU)"
                elif j == len(groups) - 1:
                    flag = "yes" if a["gp_top"] == b["gp_top"] else "NO"
                else:
                    flag = ""
                print(f"| {name} ({n} x {d}) | {label} | {int(cv.sum())} of {cv.size} | {int(it.max())} / "
                      f"{int(np.median(it))}; {cap if 'final' not in label else a['gp'].max_iter} | {flag} |",
                      flush=True)
    print(f"\n{totals[0]} of {totals[1]} fits converged", file=sys.stderr)


if __name__ == "__main__":
    main()
