"""Benchmark: the set covering machine with decision stumps (Shah et al. 2012, Eq. 7) and the PAC-Bayes soft greedy.

1. genesel vs ``pyscm-ml`` (Drouin et al., the public implementation of the set covering machine), on the same
   folds: the outer training sets of the first permutation of notebook 04's protocol, the same p and stump budget,
   conjunctions. The models must be identical: the same gene, direction and covered training examples at every
   step (pyscm lets a gene carry two stumps, so genesel runs with ``reuse_genes=True`` here; pyscm's "x <= t" stumps
   sit at the other end of the same gap between training values as the paper's "x < t", so test predictions may
   differ only for test values inside that gap, which is counted). pyscm pins numpy < 2, so it runs in a side
   environment, ``benchmarks/.pyscm-venv`` (git-ignored; ``--setup-pyscm`` creates it with pip), in a subprocess
   that times its own fits; both sides time the whole fit from the raw matrix (sorting included), best of
   ``--repeats``, wall and CPU.
2. genesel vs numpy implementations of the same greedies, with the same tie rules (identical stumps checked):
   the straightforward one, a Python loop over genes that sorts each gene's remaining examples and scores its
   thresholds with cumulative sums (the PAC-Bayes step likewise scores a gene's O(J^2) intervals by
   broadcasting), and for the SCM also a vectorised one that sorts and scores all genes at once with 2-d numpy
   operations at every step (the strongest pure-numpy version we could write).

3. ``--previous REV``: genesel against its own previous code, in the same run (issue 41). The modules
   ``stumps``, ``_stumps_kernels`` and ``bounds`` of commit REV (``git show``) are loaded as a side package, and

   - the PAC-Bayes grid of the leaderboard (p in P_GRID x eta in PAC_BAYES_ETAS, 10 stumps, conjunction and
     disjunction) is run by both on the first inner training part of outer fold 0 of ``--previous-sets``: the
     paths must be identical (gene, direction, interval ends, utility and genes searched at every step, compared
     with ``==``), and the fits of ``fit_grid`` the same (stumps, bounds of every prefix, Gibbs risk);
   - whole leaderboard folds (``cv_cell``: outer fold 0 of repeat 0, 5 x 5 nested CV, full grid) of
     ``--previous-methods`` on ``--previous-folds`` sets run once with the old learners and once with the new (the
     catalogue's classes swapped, its grid memo emptied in between): the rows must be identical (predictions,
     scores, genes, bound, chosen parameters, inner errors); CPU and wall per fold, and their ratio.

Usage: python benchmarks/bench_stumps.py [--datasets alon golub ...] [--p 1.0] [--max-stumps 10] [--skip-pyscm]
       [--setup-pyscm] [--repeats 3] [--previous ec0eaab [--previous-sets ...] [--previous-folds ...]
       [--previous-methods ...] [--only-previous]]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from _common import (add_data_arguments, best_of, compare_previous_folds, load_previous, recorded, report_ratio,
                     use_mirror)

HERE = Path(__file__).resolve().parent
SIDE = HERE / ".pyscm-venv"
SIDE_PY = SIDE / "bin" / "python"

# Runs inside the side environment: fit pyscm on each fold, time it, return the stumps and test predictions.
PYSCM_SIDE = r"""
import json, sys, time
import numpy as np
from pyscm import SetCoveringMachineClassifier
d = np.load(sys.argv[1])
cfg = json.loads(sys.argv[2])
X, y = d["X"], d["y"]
out = {"folds": []}
for k in range(int(d["n_folds"])):
    tr, te = d[f"tr{k}"], d[f"te{k}"]
    best_w, best_c, model = np.inf, np.inf, None
    for _ in range(cfg["repeats"]):
        t0, c0 = time.perf_counter(), time.process_time()
        model = SetCoveringMachineClassifier(p=cfg["p"], model_type="conjunction", max_rules=cfg["max_stumps"])
        model.fit(X[tr], y[tr])
        best_w, best_c = min(best_w, time.perf_counter() - t0), min(best_c, time.process_time() - c0)
    rules = [(int(r.feature_idx), float(r.threshold), r.kind) for r in model.model_.rules]
    out["folds"].append({"rules": rules, "pred": model.predict(X[te]).tolist(), "wall": best_w, "cpu": best_c})
print(json.dumps(out))
"""


def setup_pyscm():
    """Create the side environment with pyscm-ml (it pins numpy < 2; never a dependency of genesel)."""
    if SIDE_PY.exists():
        return
    print(f"creating {SIDE} (pip install pyscm-ml==1.1.2) ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(SIDE)], check=True)
    subprocess.run([str(SIDE_PY), "-m", "pip", "install", "-q", "pyscm-ml==1.1.2"], check=True)


def folds_of(name, seed=0):
    from genesel.experiments import stratified_kfold

    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    return ds, [(np.sort(tr), np.sort(te)) for tr, te in stratified_kfold(ds.y, 5, seed, repeat=0)]


# ---------------------------------------------------------------- straightforward numpy implementations


def numpy_scm(X, pos, p, max_stumps, reuse_genes=True):
    """The SCM greedy with numpy: re-sort the remaining examples of every gene at each step, cumulative counts,
    every candidate scored; same candidates and tie rules as genesel (max utility, then max |Q|-|R|, then first in
    gene, gap, direction order). Returns [(gene, direction, lo, hi)]."""
    m, n = X.shape
    active = np.ones(m, bool)
    used = np.zeros(n, bool)
    out = []
    for _ in range(max_stumps):
        if not np.any(active & ~pos):
            break
        A = X[active]
        pa = pos[active].astype(np.int64)
        order = np.argsort(A, axis=0, kind="stable")
        v = np.take_along_axis(A, order, axis=0)  # (k, n)
        lab = pa[order]
        cp = np.cumsum(lab, axis=0)
        cn = np.cumsum(1 - lab, axis=0)
        k = A.shape[0]
        n_pos, n_neg = int(pa.sum()), int(k - pa.sum())
        last = np.ones((k, n), bool)
        last[:-1] = v[1:] != v[:-1]  # the last example of each group of equal values
        nxt = np.vstack([v[1:], np.full((1, n), np.inf)])
        # candidates (gap j = after sorted position j): d=+1 covers the prefix, d=-1 the suffix (not after the end)
        U = np.full((n, k, 2), -np.inf)
        G = np.full((n, k, 2), -np.inf)
        u1 = cn - p * cp
        u2 = (n_neg - cn) - p * (n_pos - cp)
        ok1 = last
        ok2 = last.copy()
        ok2[-1] = False
        for arr_u, arr_g, ok, side in ((u1, cn - cp, ok1, 0), (u2, (n_neg - cn) - (n_pos - cp), ok2, 1)):
            valid = ok & ~used[None, :]
            U[:, :, side] = np.where(valid, arr_u, -np.inf).T
            G[:, :, side] = np.where(valid, arr_g, -np.inf).T
        flatU, flatG = U.ravel(), G.ravel()
        best = flatU.max()
        cand = np.flatnonzero(flatU == best)
        i = cand[np.argmax(flatG[cand])]
        g, j, side = np.unravel_index(i, U.shape)
        lo, hi = v[j, g], nxt[j, g]
        d = 1 if side == 0 else -1
        out.append((int(g), d, float(lo), float(hi)))
        covered = (X[:, g] <= lo) if d == 1 else (X[:, g] >= hi)
        active &= ~covered
        if not reuse_genes:
            used[g] = True
    return out


def loop_scm(X, pos, p, max_stumps, reuse_genes=True):
    """The SCM greedy as the paper describes it, written plainly: for every gene, sort the remaining examples,
    count, score every threshold (numpy inside a Python loop over genes); same tie rules as genesel."""
    m, n = X.shape
    active = np.ones(m, bool)
    used = np.zeros(n, bool)
    out = []
    for _ in range(max_stumps):
        if not np.any(active & ~pos):
            break
        pa = pos[active].astype(np.int64)
        n_pos, n_neg = int(pa.sum()), int(pa.size - pa.sum())
        best = (-np.inf, -np.inf, None)
        for g in range(n):
            if used[g]:
                continue
            x = X[active, g]
            o = np.argsort(x, kind="stable")
            v, lab = x[o], pa[o]
            cp = np.cumsum(lab)
            cn = np.arange(1, v.size + 1) - cp
            last = np.append(v[1:] != v[:-1], True)
            for j in np.flatnonzero(last):
                for q, r, d in ((cn[j], cp[j], 1), (n_neg - cn[j], n_pos - cp[j], -1)):
                    if d == -1 and j == v.size - 1:
                        continue
                    u, gain = q - p * r, q - r
                    if u > best[0] or (u == best[0] and gain > best[1]):
                        hi = v[j + 1] if j + 1 < v.size else np.inf
                        best = (u, gain, (g, d, float(v[j]), float(hi)))
        g, d, lo, hi = best[2]
        out.append(best[2])
        active &= ~((X[:, g] <= lo) if d == 1 else (X[:, g] >= hi))
        if not reuse_genes:
            used[g] = True
    return out


def numpy_pac_bayes(X, pos, p, eta, max_stumps):
    """The PAC-Bayes soft greedy with numpy: a loop over genes, all O(J^2) intervals of a gene scored at once by
    broadcasting (no pruning); tie rules as genesel. Returns [(gene, direction, a, b)]."""
    m, n = X.shape
    A, B = X.min(0), X.max(0)
    pi = np.ones(m)
    used = np.zeros(n, bool)
    n_pos_total = pos.sum()
    out = []
    for _ in range(max_stumps):
        if not np.any((pi > 0) & ~pos):
            break
        N = pi[~pos].sum()
        best = (-np.inf, None)
        for g in range(n):
            if used[g] or not B[g] > A[g]:
                continue
            live = pi > 0
            x = X[live, g]
            u, inv = np.unique(x, return_inverse=True)
            if u.size < 2:
                continue
            wn = np.bincount(inv, weights=(pi[live] * ~pos[live]), minlength=u.size)
            wp = np.bincount(inv, weights=(pi[live] * pos[live]), minlength=u.size)
            xs = u - A[g]
            Wn, Wp = np.concatenate([[0], np.cumsum(wn)]), np.concatenate([[0], np.cumsum(wp)])
            WnX, WpX = np.concatenate([[0], np.cumsum(wn * xs)]), np.concatenate([[0], np.cumsum(wp * xs)])
            J = u.size
            i, k = np.triu_indices(J, 1)
            xa, xb = xs[i], xs[k]
            w = xb - xa
            L = np.log(B[g] - A[g]) - np.log(w)
            for d in (1, -1):
                if d == 1:
                    C = Wn[i] + (xb * (Wn[k + 1] - Wn[i]) - (WnX[k + 1] - WnX[i])) / w
                    E = Wp[i] + (xb * (Wp[k + 1] - Wp[i]) - (WpX[k + 1] - WpX[i])) / w
                else:
                    C = (Wn[J] - Wn[k + 1]) + ((WnX[k + 1] - WnX[i]) - xa * (Wn[k + 1] - Wn[i])) / w
                    E = (Wp[J] - Wp[k + 1]) + ((WpX[k + 1] - WpX[i]) - xa * (Wp[k + 1] - Wp[i])) / w
                Uv = C / N - p * E / n_pos_total - eta * L
                t = int(np.argmax(Uv))  # first maximum: smallest a, then smallest b
                if Uv[t] > best[0]:  # strictly: earlier genes and d=+1 win exact ties
                    best = (Uv[t], (g, d, float(u[i[t]]), float(u[k[t]])))
        g, d, a, b = best[1]
        out.append(best[1])
        s = np.clip((X[:, g] - a) / (b - a), 0, 1)
        pi = pi * (s if d > 0 else 1 - s)
        used[g] = True
    return out


# ---------------------------------------------------------------- the runs


def compare_pyscm(name, p, S, repeats):
    from genesel import stumps as ST

    ds, folds = folds_of(name)
    X, y = ds.X, ds.y
    pos_all = y > 0
    ST.warm_up()
    ours, t_w, t_c = [], 0.0, 0.0
    for tr, _ in folds:
        path, w, c = best_of(lambda tr=tr: ST.scm_paths(X[tr], pos_all[tr], p, S, reuse_genes=True)[0], repeats)
        ours.append(path)
        t_w += w
        t_c += c
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "data.npz"
        arrays = {"X": X, "y": (y > 0).astype(int), "n_folds": len(folds)}
        for k, (tr, te) in enumerate(folds):
            arrays[f"tr{k}"], arrays[f"te{k}"] = tr, te
        np.savez(f, **arrays)
        cfg = json.dumps({"p": p, "max_stumps": S, "repeats": repeats})
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        run = subprocess.run([str(SIDE_PY), "-c", PYSCM_SIDE, str(f), cfg], capture_output=True, text=True, env=env)
        if run.returncode != 0:
            raise RuntimeError(f"pyscm side run failed:\n{run.stderr[-2000:]}")
        theirs = json.loads(run.stdout)["folds"]
    same_steps, steps, test_diff, test_in_gap, n_test = 0, 0, 0, 0, 0
    for (tr, te), path, th in zip(folds, ours, theirs):
        Xtr = X[tr]
        active_o = np.ones(tr.size, bool)
        active_t = np.ones(tr.size, bool)
        for s_, (g, d, thr) in enumerate(zip(path["gene"], path["direction"], path["threshold"])):
            steps += 1
            if s_ >= len(th["rules"]):
                continue
            fg, ft, kind = th["rules"][s_]
            cov_o = active_o & ((Xtr[:, g] <= thr) if d == 1 else (Xtr[:, g] >= thr))
            cov_t = active_t & ((Xtr[:, fg] <= ft) if kind == "greater" else (Xtr[:, fg] > ft))
            same = fg == g and (kind == "greater") == (d == 1) and np.array_equal(cov_o, cov_t)
            same_steps += int(same)
            active_o &= ~cov_o
            active_t &= ~cov_t
        steps += max(0, len(th["rules"]) - len(path["gene"]))
        # test predictions: conjunction of the stumps
        conj = np.ones(te.size, bool)
        in_gap = np.zeros(te.size, bool)
        for g, d, thr in zip(path["gene"], path["direction"], path["threshold"]):
            conj &= (X[te, g] - thr) * d > 0
        for fg, ft, kind in th["rules"]:
            if kind == "less_equal":  # pyscm's x <= t against the paper's x < t' at the next training value
                nxt = np.min(np.where(Xtr[:, fg] > ft, Xtr[:, fg], np.inf))
                in_gap |= (X[te, fg] > ft) & (X[te, fg] < nxt)
        pred_t = np.asarray(th["pred"]) == 1
        diff = conj != pred_t
        test_diff += int(diff.sum())
        test_in_gap += int((diff & in_gap).sum())
        n_test += te.size
    p_w = sum(f["wall"] for f in theirs)
    p_c = sum(f["cpu"] for f in theirs)
    print(f"  identical steps: {same_steps}/{steps}; test predictions differing: {test_diff}/{n_test} "
          f"({test_in_gap} of them inside a gap where the two threshold conventions differ)")
    line = report_ratio(f"  SCM {name} (5 folds, p={p}, {S} stumps)", (t_w, t_c), (p_w, p_c), name="genesel",
                        other="pyscm-ml", target=1)
    return dict(dataset=name, identical=same_steps == steps, ratio_wall=p_w / t_w, ratio_cpu=p_c / max(t_c, 1e-12),
                line=line)


def compare_numpy(name, p, S, repeats, eta=0.01):
    from genesel import stumps as ST

    ds, folds = folds_of(name)
    X, y = ds.X, ds.y
    pos_all = y > 0
    tr = folds[0][0]
    Xtr, pos = X[tr], pos_all[tr]
    ST.warm_up()
    ours, w1, c1 = best_of(lambda: ST.scm_paths(Xtr, pos, p, S, reuse_genes=True)[0], repeats)
    ref, w2, c2 = best_of(lambda: numpy_scm(Xtr, pos, p, S), 1)
    same = [(g, d) for g, d in zip(ours["gene"], ours["direction"])] == [(g, d) for g, d, _, _ in ref]
    print(f"  SCM: same stumps as vectorised numpy: {same} ({len(ref)} stumps)")
    r1 = report_ratio(f"  SCM {name} vs vectorised numpy (one fold)", (w1, c1), (w2, c2), other="vectorised numpy")
    ref2, w5, c5 = best_of(lambda: loop_scm(Xtr, pos, p, S), 1)
    same2 = [(g, d) for g, d in zip(ours["gene"], ours["direction"])] == [(g, d) for g, d, _, _ in ref2]
    print(f"  SCM: same stumps as the loop over genes: {same2}")
    r0 = report_ratio(f"  SCM {name} vs numpy looping over genes (one fold)", (w1, c1), (w5, c5),
                      other="numpy looping over genes", target=10)
    A, Bv = Xtr.min(0), Xtr.max(0)
    ours_pb, w3, c3 = best_of(lambda: ST.pac_bayes_paths(Xtr, pos, p, eta, S, A, Bv)[0], repeats)
    ref_pb, w4, c4 = best_of(lambda: numpy_pac_bayes(Xtr, pos, p, eta, S), 1)
    same_pb = [(g, d, a, b) for g, d, a, b in zip(ours_pb["gene"], ours_pb["direction"], ours_pb["a"], ours_pb["b"])]
    same_pb = same_pb == [tuple(r) for r in ref_pb]
    print(f"  PAC-Bayes: same stumps and intervals as numpy: {same_pb} ({len(ref_pb)} stumps; genes scored "
          f"exactly per step: {ours_pb['searched']} of {X.shape[1]})")
    r2 = report_ratio(f"  PAC-Bayes {name} vs numpy (one fold, eta={eta})", (w3, c3), (w4, c4), other="numpy",
                      target=10)
    return dict(dataset=name, scm_same=same and same2, pb_same=same_pb, scm_ratio_cpu=c2 / max(c1, 1e-12),
                scm_loop_ratio_cpu=c5 / max(c1, 1e-12), pb_ratio_cpu=c4 / max(c3, 1e-12), lines=[r0, r1, r2])


# ---------------------------------------------------------------- against the previous code (issue 41)

_OLD_MODULES = ("stumps", "_stumps_kernels", "bounds")


def _inner_part(name):
    from genesel.experiments import nested_cv
    from genesel.leaderboard import cells as LC
    from genesel.leaderboard.protocol import prepare

    task = LC.load(name)
    _, _, inner = nested_cv(task.y, 5, 5, 0, repeat=0, groups=task.groups)[0]
    a, b = inner[0]
    Xa, _, _ = prepare(task.prep, task.X, a, b)
    return Xa, task.y[a]


def _fit_record(e):
    return (e.stumps_, e.bounds_.tolist(), e.gibbs_risk_, e.utilities_.tolist(), e.genes_searched_.tolist())


def compare_previous_paths(old, sets):
    """The leaderboard's PAC-Bayes grid on one inner training part per set, previous code against this one."""
    from genesel import stumps as ST
    from genesel.leaderboard.catalogue import P_GRID, PAC_BAYES_ETAS

    grid = [{"p": p, "eta": e} for p in P_GRID for e in PAC_BAYES_ETAS]
    ST.warm_up()
    old.warm_up()
    total_old = total_new = 0.0
    n_paths = n_same = n_steps = 0
    for name in sets:
        Xa, ya = _inner_part(name)
        for model in ("conjunction", "disjunction"):
            fits = {}
            for tag, mod in (("previous", old), ("new", ST)):
                est = mod.PACBayesStumps(max_stumps=10, model=model)
                fits[tag], w, c = best_of(lambda est=est, Xa=Xa, ya=ya: est.fit_grid(Xa, ya, grid), 1)
                if tag == "previous":
                    total_old += c
                else:
                    total_new += c
                print(f"  {name} {model} ({Xa.shape[0]} x {Xa.shape[1]}): {tag} {c:.2f} s CPU ({w:.2f} s wall)",
                      flush=True)
            for a, b in zip(fits["previous"], fits["new"]):
                n_paths += 1
                n_steps += len(a.stumps_)
                n_same += int(_fit_record(a) == _fit_record(b))
    print(f"  identical fits (stumps, bounds of every prefix, Gibbs risk, utilities, genes searched): "
          f"{n_same}/{n_paths} ({n_steps} stumps)")
    line = report_ratio(f"  PAC-Bayes fit_grid (20 settings, 10 stumps), {len(sets)} sets x 2 models",
                        (total_new, total_new), (total_old, total_old), other="previous genesel", target=4)
    return dict(identical=n_same == n_paths, fits=n_paths, stumps=n_steps, ratio_cpu=total_old / max(total_new, 1e-12),
                line=line)


def compare_previous_stump_folds(old, sets, methods):
    """Whole leaderboard folds of the stump methods with the previous learners and with these."""
    from genesel import stumps as ST
    from genesel.leaderboard import catalogue as CAT

    return compare_previous_folds(old, ST, ("PACBayesStumps", "OccamStumps", "SampleCompressionStumps",
                                            "AdaBoostStumps"), sets, methods,
                                  ("pred", "scores", "genes", "bound", "params", "inner_errors", "errors", "size"),
                                  reset=CAT.GRID_FITS._entries.clear)


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_data_arguments(ap)
    ap.add_argument("--datasets", nargs="+", default=["alon", "golub", "pomeroy", "west", "garber"])
    ap.add_argument("--p", type=float, default=1.0)
    ap.add_argument("--max-stumps", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-pyscm", action="store_true")
    ap.add_argument("--setup-pyscm", action="store_true", help="create benchmarks/.pyscm-venv if missing")
    ap.add_argument("--previous", metavar="REV", default=None,
                    help="also compare with genesel's stump modules at commit REV, in the same run")
    ap.add_argument("--previous-sets", nargs="+", default=["alon", "golub", "gravier", "chowdary", "singh"])
    ap.add_argument("--previous-folds", nargs="+", default=["gravier", "chowdary"])
    ap.add_argument("--previous-methods", nargs="+", default=["PAC-Bayes stumps", "Occam stumps", "SC stumps"])
    ap.add_argument("--only-previous", action="store_true", help="only the comparison with --previous")
    args = ap.parse_args(argv)
    use_mirror(args)
    if args.previous:
        with tempfile.TemporaryDirectory() as tmp:
            old = load_previous(args.previous, _OLD_MODULES, "genesel_prev", tmp).stumps
            print(f"\n== against genesel {args.previous}: paths ==", flush=True)
            paths = compare_previous_paths(old, args.previous_sets)
            print(f"\n== against genesel {args.previous}: leaderboard folds ==", flush=True)
            folds = compare_previous_stump_folds(old, args.previous_folds, args.previous_methods)
        if args.only_previous:
            return {"tables": {"previous_paths": [paths], "previous_folds": folds}}
    if args.setup_pyscm:
        setup_pyscm()
    have_pyscm = SIDE_PY.exists() and not args.skip_pyscm
    if not have_pyscm and not args.skip_pyscm:
        print(f"(pyscm side environment {SIDE} missing: run with --setup-pyscm to compare with pyscm)")
    results = []
    for name in args.datasets:
        print(f"\n== {name} ==", flush=True)
        if have_pyscm:
            results.append(compare_pyscm(name, args.p, args.max_stumps, args.repeats))
        results.append(compare_numpy(name, args.p, args.max_stumps, args.repeats))
    print("\nsummary:")
    for r in results:
        if "identical" in r:
            print(f"  {r['dataset']:8s} vs pyscm: identical models {r['identical']}, "
                  f"{r['ratio_wall']:.1f}x wall, {r['ratio_cpu']:.1f}x CPU")
        else:
            print(f"  {r['dataset']:8s} vs numpy: same models SCM {r['scm_same']} / PAC-Bayes {r['pb_same']}; "
                  f"CPU speed-up: SCM {r['scm_loop_ratio_cpu']:.0f}x (loop over genes), "
                  f"{r['scm_ratio_cpu']:.1f}x (vectorised over genes); PAC-Bayes {r['pb_ratio_cpu']:.0f}x (loop)")
    return results


if __name__ == "__main__":
    main()
