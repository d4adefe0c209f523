"""The leaderboard's cost per study (issue 41): measured on every data set of a board, against the committed run.

A study's cost is the CPU time of notebook 06's full cross-validation grid on one data set: every method of the
board x 10 repeats x 5 outer folds, each fold with its inner 5-fold CV over the method's grid. Measuring all of it
on 20 sets takes about a day of CPU, so this script measures a part of every set and scales it:

1. ``--compute N`` runs the first N repeats (all outer folds) of every method on every set into the cache (``--cache
   DIR``; the same cells, keys and cache as notebook 06's full run, so they are not computed twice);
2. every done cell's CPU seconds (``time.process_time`` inside the cell, one BLAS thread) are read from the cache
   (:func:`genesel.leaderboard.status.status`), and a method's cost on a set is the mean over its done folds times
   the grid's 50 folds. One repeat is a fair sample of ten: the folds of every repeat are drawn alike, and the
   committed run's spread of a method's cost between repeats is small next to the ratios measured here;
3. the committed run (``figures/leaderboard_results.csv``, ``cpu_per_fold`` x the folds it ran) gives the same cost
   for the code that produced it; the ratio is committed / now.

Printed: per data set the measured CPU hours now and committed, the ratio, the number of done folds; Chowdary (the
issue's named set) and the 20-set average against the targets (Chowdary <= 45 CPU minutes, average <= 15); the
three methods that cost the most now, with their shares. The first cells a fresh process runs also compile (or load)
the numba kernels: their CPU counts in those cells (compare a set run first against the same set run again).

``python benchmarks/bench_per_study.py [--board binary] [--cache DIR] [--compute 1] [--sets NAME ...]``

CPU seconds differ between machines (the committed run's ran on another processor), so the ratio against the
committed run says as much about the machines as about the code. ``--against REV`` measures the ratio in the same
run: the first ``--folds`` outer folds of repeat 0 of every method on every set (default: fold 0) are timed by this
checkout's code and by commit ``REV``'s (a temporary git worktree, first on ``PYTHONPATH``), two single-threaded
processes side by side on the same cells and the same cores (:mod:`_time_cells`, no cache). Printed per set: both
CPU totals and their ratio, the study's cost now (the sample's mean per fold x 50 folds); a method only one of the
two codes has is counted apart. ``python benchmarks/bench_per_study.py --against 72e076a [--folds 1]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, record, recorded, use_mirror  # noqa: E402
from _time_cells import run_side_by_side  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_CHOWDARY_H = 0.75
TARGET_MEAN_H = 0.25


def committed_hours(results: Path):
    """{data set: committed CPU hours of its cross-validation grid} and {(data set, method): CPU s per fold}."""
    import pandas as pd

    r = pd.read_csv(results)
    r["cpu"] = r["cpu_per_fold"] * r["n_folds"]  # n_folds: the folds the run did (repeats x outer folds)
    return (r.groupby("dataset")["cpu"].sum() / 3600).to_dict(), r.set_index(["dataset", "method"])["cpu_per_fold"]


def measured(st, folds: int):
    """Per (data set, method): done folds and mean CPU s per fold; per data set: hours for ``folds`` folds of every
    method that has a done fold, and whether every method has one."""
    cv = st[(st["grid"] == "cv") & st["done"]]
    per = cv.groupby(["dataset", "method"])["cpu"].agg(["count", "mean"])
    return per, (per["mean"] * folds).groupby(level="dataset").sum() / 3600


def time_both(cells: list, rev: str, workdir: Path) -> tuple[dict, dict]:
    """CPU seconds of ``cells`` by this checkout's code and by commit ``rev``'s, two processes side by side:
    ({(data set, method, fold): row} now, the same for ``rev``)."""
    old_tree = workdir / "old"
    subprocess.run(["git", "worktree", "add", "--detach", str(old_tree), rev], cwd=ROOT, check=True,
                   capture_output=True)
    try:
        got = run_side_by_side({"now": (ROOT, cells), "old": (old_tree, cells)}, workdir)
        return got["now"], got["old"]
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, capture_output=True)


def against(args, sets, methods) -> dict:
    """The same-run comparison (module doc, ``--against``)."""
    import pandas as pd

    from genesel.leaderboard.cells import MODES, outer_folds

    full = MODES["full"]
    cells = [dict(dataset=d, method=m, repeat=0, fold=f, n_folds=outer_folds(d, full["n_folds"]),
                  inner_k=full["inner_k"], seed=0, quick=False)
             for d in sets for m in methods for f in range(args.folds)]
    with tempfile.TemporaryDirectory(prefix="genesel-per-study-") as tmp:
        now, old = time_both(cells, args.against, Path(tmp))
    rows, per_method = [], []
    for d in sets:
        both = [k for k in now if k[0] == d and now[k]["cpu_seconds"] is not None
                and k in old and old[k]["cpu_seconds"] is not None]
        only = [k for k in now if k[0] == d and now[k]["cpu_seconds"] is not None and k not in both]
        t_now = sum(now[k]["cpu_seconds"] for k in both)
        t_old = sum(old[k]["cpu_seconds"] for k in both)
        t_only = sum(now[k]["cpu_seconds"] for k in only)
        scale = full["n_repeats"] * full["n_folds"] / args.folds / 60
        rows.append({"data set": d, "methods in both": len({k[1] for k in both}),
                     f"CPU s now ({args.folds} fold)": round(t_now, 1), f"CPU s {args.against}": round(t_old, 1),
                     f"{args.against} / now": round(t_old / t_now, 2) if t_now else None,
                     "study now, CPU min (50 folds, every method)": round((t_now + t_only) * scale, 1),
                     "methods only now": ", ".join(sorted({k[1] for k in only})) or "-"})
        per_method += [dict(method=k[1], now=now[k]["cpu_seconds"], old=old[k]["cpu_seconds"]) for k in both]
    t = pd.DataFrame(rows)
    print(t.to_string(index=False))
    pm = pd.DataFrame(per_method).groupby("method")[["now", "old"]].sum()
    pm["old / now"] = pm["old"] / pm["now"]
    pm["share now %"] = 100 * pm["now"] / pm["now"].sum()
    pm = pm.sort_values("now", ascending=False)
    print("\nper method, summed over the sets:\n" + pm.round(2).to_string())
    total_now, total_old = t[f"CPU s now ({args.folds} fold)"].sum(), t[f"CPU s {args.against}"].sum()
    study = t["study now, CPU min (50 folds, every method)"]
    print(f"\nall sets: {args.against} / now = {total_old / total_now:.2f}x CPU (target: >= 4, a quarter of the "
          f"cost); a study now: mean {study.mean():.1f} CPU min over {len(t)} sets on this machine")
    record(f"leaderboard cross-validation cost, {len(t)} sets x every method, {args.folds} outer fold(s) each, "
           "same run", genesel=f"{total_now / 60:.1f} CPU min",
           alternative=f"{args.against}: {total_old / 60:.1f} CPU min",
           ratio=f"{total_old / total_now:.2f}x CPU", target=">= 4x CPU (issue 41: a quarter of the cost)",
           met=bool(total_old / total_now >= 4), now_cpu_s=total_now, old_cpu_s=total_old,
           study_mean_cpu_min=float(study.mean()))
    if "chowdary" in sets:
        c = t.set_index("data set").loc["chowdary"]
        r = c[f"{args.against} / now"]
        print(f"Chowdary: {args.against} / now = {r:.2f}x; the study now {c.iloc[4]:.1f} CPU min on this machine")
        record("leaderboard cross-validation cost on Chowdary (104 x 22,283), same run",
               genesel=f"{c.iloc[1]:.1f} CPU s", alternative=f"{args.against}: {c.iloc[2]:.1f} CPU s",
               ratio=f"{r:.2f}x CPU", target=">= 4x CPU", met=bool(r >= 4))
    return {"tables": {"per data set, same run": rows,
                       "per method, same run": pm.round(3).reset_index().to_dict(orient="records")}}


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--board", default="binary", choices=["binary", "multiclass"])
    ap.add_argument("--cache", default=None, help="the cell cache (default: GENESEL_CACHE_DIR or runs/cache)")
    ap.add_argument("--compute", type=int, default=0, help="first run this many repeats of every cell (0: read only)")
    ap.add_argument("--sets", nargs="*", default=None)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--results", default=str(ROOT / "figures" / "leaderboard_results.csv"))
    ap.add_argument("--against", default=None, help="time the same cells with this commit's code, side by side")
    ap.add_argument("--folds", type=int, default=1, help="with --against: outer folds of repeat 0 per method")
    args = ap.parse_args(argv)
    use_mirror(args)
    import pandas as pd

    from genesel.experiments.grid import default_cache_dir, run_grid
    from genesel.leaderboard.catalogue import method_names
    from genesel.leaderboard.cells import MODES, board_sets, cv_cell, cv_cells
    from genesel.leaderboard.status import status

    full = MODES["full"]
    if args.against:
        return against(args, args.sets or board_sets(args.board), method_names(args.board))
    cache = Path(args.cache) if args.cache else default_cache_dir()
    sets = args.sets or board_sets(args.board)
    methods = method_names(args.board)
    if args.compute:
        for d in sets:
            cells = cv_cells([d], methods, n_repeats=args.compute, n_folds=full["n_folds"], inner_k=full["inner_k"],
                             seed=0, quick=False, max_genes=full["max_genes"])
            run_grid(cells, cv_cell, cache_dir=cache, n_jobs=args.n_jobs, on_error="finish", desc=d)
    st = status(cache, "full", datasets=sets, methods=methods, board=args.board)
    folds = full["n_repeats"] * full["n_folds"]
    per, now = measured(st, folds)
    old, old_fold = committed_hours(Path(args.results))
    rows = []
    for d in sets:
        if d not in now.index:
            continue
        p = per.loc[d]
        complete = len(p) == len(methods)
        before = old.get(d, float("nan"))
        rows.append({"data set": d, "methods with a done fold": f"{len(p)}/{len(methods)}",
                     "folds read": int(p["count"].sum()), "CPU h now": round(float(now[d]), 3),
                     "CPU h committed": round(before, 3) if before == before else None,
                     "committed / now": round(before / now[d], 2) if before == before and complete else None})
    t = pd.DataFrame(rows)
    print(t.to_string(index=False))
    whole = t[t["methods with a done fold"] == f"{len(methods)}/{len(methods)}"]
    out = {"tables": {f"CPU hours of one study's cross-validation grid ({args.board} board)": rows}}
    if len(whole):
        mean_now, mean_old = whole["CPU h now"].mean(), whole["CPU h committed"].mean()
        print(f"\n{len(whole)} of {len(sets)} sets measured on every method: mean {mean_now * 60:.1f} CPU min a study "
              f"(committed {mean_old * 60:.1f}; target {TARGET_MEAN_H * 60:.0f} over the 20 binary sets)")
        record(f"leaderboard cost per study, {args.board} board, mean over {len(whole)} sets",
               genesel=f"{mean_now * 60:.1f} CPU min", alternative=f"committed run: {mean_old * 60:.1f} CPU min",
               ratio=f"{mean_old / mean_now:.2f}x CPU", target=f"<= {TARGET_MEAN_H * 60:.0f} CPU min",
               met=bool(mean_now <= TARGET_MEAN_H) if len(whole) == 20 else None,
               now_cpu_min=mean_now * 60, committed_cpu_min=mean_old * 60, sets=len(whole))
        if "chowdary" in set(whole["data set"]):
            c = whole.set_index("data set").loc["chowdary"]
            print(f"Chowdary: {c['CPU h now'] * 60:.1f} CPU min (committed {c['CPU h committed'] * 60:.1f}; target "
                  f"{TARGET_CHOWDARY_H * 60:.0f})")
            record("leaderboard cost per study, Chowdary (104 x 22,283)", genesel=f"{c['CPU h now'] * 60:.1f} CPU min",
                   alternative=f"committed run: {c['CPU h committed'] * 60:.1f} CPU min",
                   ratio=f"{c['CPU h committed'] / c['CPU h now']:.2f}x CPU",
                   target=f"<= {TARGET_CHOWDARY_H * 60:.0f} CPU min", met=bool(c["CPU h now"] <= TARGET_CHOWDARY_H),
                   now_cpu_min=c["CPU h now"] * 60, committed_cpu_min=c["CPU h committed"] * 60)
    share = (per["mean"] * folds).groupby(level="method").sum().sort_values(ascending=False)
    share = 100 * share / share.sum()
    print("\nmost expensive methods now: " + ", ".join(f"{m} {s:.0f} %" for m, s in share.head(3).items()))
    pairs = per.index[per.index.isin(old_fold.index)]  # (data set, method) measured now and in the committed run
    was = old_fold.loc[pairs].groupby(level="method").sum()
    is_ = per.loc[pairs, "mean"].groupby(level="method").sum()
    ratio = {m: float(was.get(m, float("nan")) / is_.get(m, float("nan"))) for m in share.index}
    print("committed / now per method (over the sets measured): " + ", ".join(
        f"{m} {ratio[m]:.2f}" for m in share.index[:8]))
    out["tables"]["methods: share of the measured cost, committed / now"] = [
        {"method": m, "share %": round(float(share[m]), 1), "committed / now": round(ratio[m], 2)}
        for m in share.index]
    return out


if __name__ == "__main__":
    main()
