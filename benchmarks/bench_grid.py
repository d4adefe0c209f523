"""The grid runner at scale (issue 24), in one run:

1. the dask path's overhead per cell on 10^5 trivial cells: batched (genesel's run_grid) against one dask task per
   cell (what run_grid did before, and what ``client.map`` over the cells does), both on a LocalCluster of 2
   single-threaded worker processes, beside the serial loop;
2. what the authenticated cache record costs per cell (writing and reading back 10^4 cells);
3. the speed-up of a CPU-bound grid (cells of Gentile 2003's Table 1 protocol on Prostate, 100 cycles) from 1 to 2
   local workers, with joblib/loky and with dask (workers warmed up first: compiled kernels, loaded data).

``python benchmarks/bench_grid.py [--cells 100000] [--gentile-cells 40]``. Wall times on a shared machine vary; the
ratios are measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import add_data_arguments, record, recorded, use_mirror  # noqa: E402


def trivial(i):
    """A cell that does (almost) nothing: what is left of its time is the runner's."""
    return {"j": i + 1}


def _one_cell_task(cell):
    return trivial(**cell)


def _wall(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def dask_overhead(n_cells: int, n_single: int):
    from distributed import Client, LocalCluster

    from genesel.experiments import run_grid

    cells = [{"i": i} for i in range(n_cells)]
    _, serial = _wall(lambda: run_grid(cells, trivial, use_cache=False, progress=False))
    os.environ["PYTHONPATH"] = f"{HERE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"  # workers import trivial
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(lambda: sys.path.insert(0, str(HERE)))
        run_grid(cells[:100], trivial, backend="dask", scheduler=client, use_cache=False, progress=False)  # warm
        _, batched = _wall(lambda: run_grid(cells, trivial, backend="dask", scheduler=client, use_cache=False,
                                            progress=False))
        single_cells = cells[:n_single]

        def one_task_each():
            futs = client.map(_one_cell_task, single_cells, pure=False)
            return client.gather(futs)

        _, single = _wall(one_task_each)
    print(f"1. {n_cells} trivial cells: serial loop {serial:.2f} s ({1e6 * serial / n_cells:.1f} us/cell); "
          f"dask, batched (run_grid): {batched:.2f} s ({1e6 * batched / n_cells:.1f} us/cell); "
          f"dask, one task per cell ({n_single} cells): {single:.2f} s ({1e6 * single / n_single:.0f} us/cell) "
          f"-> batching cuts the dask overhead per cell {single / n_single / (batched / n_cells):.0f}x", flush=True)
    return batched / n_cells, single / n_single


def cache_cost(n: int):
    from genesel.experiments import run_grid

    cells = [{"i": i} for i in range(n)]
    with tempfile.TemporaryDirectory() as d:
        _, write = _wall(lambda: run_grid(cells, trivial, cache_dir=d, progress=False))
        _, read = _wall(lambda: run_grid(cells, trivial, cache_dir=d, progress=False))
    print(f"2. cache records, {n} cells: first run (compute + write) {1e3 * write / n:.2f} ms/cell, second run "
          f"(read + verify) {1e3 * read / n:.2f} ms/cell", flush=True)
    return write / n, read / n


def gentile_speedup(n_cells: int):
    from distributed import Client, LocalCluster

    from genesel.experiments import run_grid
    from genesel.papers import gentile2003 as G

    # Table 1 cells on Prostate (101 training samples, 12600 genes, 100 cycles): about 0.6 s each
    cells = [dict(dataset="singh", split=i, alpha=a, n_cycles=100, n_train=101)
             for i in range(n_cells // 2) for a in (0.7, 0.9)]
    warm = [dict(c, split=10_000 + i) for i, c in enumerate(cells[:4])]  # other cells: compile, load, spawn
    times = {}
    run_grid(warm[:1], G.table1_cell, use_cache=False, progress=False)
    _, times["1 worker"] = _wall(lambda: run_grid(cells, G.table1_cell, use_cache=False, progress=False))
    run_grid(warm, G.table1_cell, n_jobs=2, use_cache=False, progress=False)  # the pool stays for the next call
    _, times["2 workers, loky"] = _wall(lambda: run_grid(cells, G.table1_cell, n_jobs=2, use_cache=False,
                                                         progress=False))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        run_grid(warm, G.table1_cell, backend="dask", scheduler=client, use_cache=False, progress=False)
        _, times["2 workers, dask"] = _wall(lambda: run_grid(cells, G.table1_cell, backend="dask", scheduler=client,
                                                             use_cache=False, progress=False))
    base = times["1 worker"]
    print(f"3. Gentile 2003 Table 1 grid, {len(cells)} cells on Prostate (~{base / len(cells):.2f} s each): " +
          "; ".join(f"{k} {v:.1f} s ({base / v:.2f}x)" for k, v in times.items()), flush=True)
    return times


@recorded
def main(argv=None):
    ap = add_data_arguments(argparse.ArgumentParser(description=__doc__))
    ap.add_argument("--cells", type=int, default=100_000)
    ap.add_argument("--single", type=int, default=5_000, help="cells for the one-task-per-cell comparison")
    ap.add_argument("--cache-cells", type=int, default=10_000)
    ap.add_argument("--gentile-cells", type=int, default=40)
    args = ap.parse_args(argv)
    use_mirror(args)
    os.environ.setdefault("GENESEL_PROGRESS", "none")
    batched, single = dask_overhead(args.cells, args.single)
    record(f"dask overhead per cell ({args.cells} trivial cells, 2 workers)", genesel=f"batched by run_grid: "
           f"{1e6 * batched:.0f} µs per cell", alternative=f"one dask task per cell: {1e6 * single:.0f} µs per cell",
           ratio=f"{single / batched:.0f}× less overhead", genesel_s_per_cell=batched, other_s_per_cell=single,
           ratio_overhead=single / batched)
    write, read = cache_cost(args.cache_cells)
    record(f"cache record ({args.cache_cells} cells)", genesel=f"{1e3 * write:.2f} ms to write (fsync), "
           f"{1e3 * read:.2f} ms to read and verify", write_s=write, read_s=read)
    times = gentile_speedup(args.gentile_cells)
    base = times["1 worker"]
    record(f"a CPU-bound grid: {args.gentile_cells} Gentile 2003 Table 1 cells on Prostate",
           genesel="; ".join(f"{k}: {v:.1f} s ({base / v:.2f}× of 1 worker)" for k, v in times.items()),
           **{f"wall_s_{k.replace(' ', '_').replace(',', '')}": v for k, v in times.items()})


if __name__ == "__main__":
    main()
