"""Running the grids on a batch cluster (SLURM) with dask-jobqueue: the recipe, as code.

The full protocols and the leaderboard are grids of thousands of small cells. On a cluster they run as dask tasks
(:func:`genesel.experiments.run_grid` with ``backend="dask"``, or every grid of a notebook run with
``GENESEL_SCHEDULER``). The recipe, on the cluster's login node (after ``pip install "genesel[distributed]"`` into an
environment the compute nodes see, and with the raw data mirrored to a shared folder)::

    python -m genesel.experiments.cluster slurm --max-jobs 25 --cores 4 --memory 16GB --walltime 02:00:00 \\
        --mirror /shared/genesel-data --address-file scheduler.txt &
    make full SCHEDULER=$(cat scheduler.txt)

The first command starts a dask scheduler on the login node and lets it submit SLURM jobs as the grid needs them
(adaptive scaling between ``--min-jobs`` and ``--max-jobs``); each job runs ``--cores`` single-threaded workers
(the cells are single-threaded numba and BLAS code). A worker retires before its job's wall time ends (``--lifetime``
a margin below it, staggered so that they do not all leave at once) and the adaptive scaler submits a fresh job, so
a grid that outlives one job's wall time loses no cell: a retiring worker's tasks move elsewhere. The workers need
only the package and the data mirror (``GENESEL_DATA_MIRROR`` is exported into the job script); they never touch
the cache, which the process running the notebooks writes (and authenticates with its own key).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

__all__ = ["slurm_cluster", "lifetime_options", "main"]


def _seconds(walltime: str) -> int:
    """SLURM's wall time in seconds: ``M``, ``M:S``, ``H:M:S``, ``D-H``, ``D-H:M`` or ``D-H:M:S``."""
    text = walltime.strip()
    m = re.fullmatch(r"(?:(\d+)-)?(\d+(?::\d+){0,2})", text)
    if not m:
        raise ValueError(f"walltime {walltime!r}: use SLURM's [D-]HH:MM:SS, e.g. 02:00:00")
    parts = [int(x) for x in m.group(2).split(":")]
    if m.group(1) is not None:  # D-H[:M[:S]]
        h, mi, se = (parts + [0, 0])[:3]
        return ((int(m.group(1)) * 24 + h) * 60 + mi) * 60 + se
    if len(parts) == 3:
        return (parts[0] * 60 + parts[1]) * 60 + parts[2]
    if len(parts) == 2:
        return parts[0] * 60 + parts[1]
    return parts[0] * 60


def lifetime_options(walltime: str, margin_fraction: float = 0.1) -> list[str]:
    """dask worker options that retire a worker before its job's wall time: ``--lifetime`` = wall time minus a
    margin (10 %, at least 5 and at most 30 minutes), ``--lifetime-stagger`` = half that margin."""
    total = _seconds(walltime)
    margin = min(max(margin_fraction * total, 300), 1800, total / 2)
    life, stagger = int(total - margin), int(margin / 2)
    return ["--lifetime", f"{life}s", "--lifetime-stagger", f"{stagger}s"]


def slurm_cluster(*, cores: int = 4, memory: str = "16GB", walltime: str = "02:00:00", queue: str | None = None,
                  account: str | None = None, mirror: str | None = None, python: str | None = None,
                  min_jobs: int = 0, max_jobs: int = 10, **kwargs):
    """A ``dask_jobqueue.SLURMCluster`` set up for genesel's grids, scaling adaptively between ``min_jobs`` and
    ``max_jobs`` jobs of ``cores`` single-threaded workers; extra keyword arguments go to ``SLURMCluster``.

    ``mirror``: the shared folder of raw data files the workers read (default ``$GENESEL_DATA_MIRROR``)."""
    import os

    try:
        from dask_jobqueue import SLURMCluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("the SLURM recipe needs dask-jobqueue: pip install 'genesel[distributed]'") from exc
    mirror = mirror or os.environ.get("GENESEL_DATA_MIRROR")
    if not mirror:
        raise ValueError("give the shared folder of raw data files the workers read (mirror=..., --mirror, or "
                         "GENESEL_DATA_MIRROR): compute nodes usually cannot download")
    prologue = [f"export GENESEL_DATA_MIRROR={mirror}", "export OMP_NUM_THREADS=1", "export OPENBLAS_NUM_THREADS=1",
                "export MKL_NUM_THREADS=1", "export GENESEL_PROGRESS=none"]
    prologue += list(kwargs.pop("job_script_prologue", []))
    extra = lifetime_options(walltime) + list(kwargs.pop("worker_extra_args", []))
    kwargs.setdefault("scheduler_options", {"dashboard_address": None})
    cluster = SLURMCluster(cores=int(cores), processes=int(cores), memory=memory, walltime=walltime, queue=queue,
                           account=account, python=python or sys.executable, job_script_prologue=prologue,
                           worker_extra_args=extra, **kwargs)
    cluster.adapt(minimum_jobs=int(min_jobs), maximum_jobs=int(max_jobs))
    return cluster


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m genesel.experiments.cluster", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="kind", required=True)
    s = sub.add_parser("slurm", help="start a scheduler that submits SLURM jobs of dask workers as needed")
    s.add_argument("--cores", type=int, default=4, help="workers (one core each) per job")
    s.add_argument("--memory", default="16GB", help="memory per job")
    s.add_argument("--walltime", default="02:00:00", help="wall time per job ([D-]HH:MM:SS)")
    s.add_argument("--queue", help="SLURM partition")
    s.add_argument("--account", help="SLURM account")
    s.add_argument("--mirror", help="shared folder of raw data files (default $GENESEL_DATA_MIRROR)")
    s.add_argument("--min-jobs", type=int, default=0)
    s.add_argument("--max-jobs", type=int, default=10)
    s.add_argument("--address-file", help="write the scheduler address here (for make full SCHEDULER=...)")
    s.add_argument("--print-script", action="store_true", help="print the job script and exit")
    args = ap.parse_args(argv)
    cluster = slurm_cluster(cores=args.cores, memory=args.memory, walltime=args.walltime, queue=args.queue,
                            account=args.account, mirror=args.mirror, min_jobs=args.min_jobs,
                            max_jobs=args.max_jobs)
    try:
        if args.print_script:
            print(cluster.job_script())
            return 0
        print(f"scheduler at {cluster.scheduler_address}; run: make full SCHEDULER={cluster.scheduler_address}",
              flush=True)
        if args.address_file:
            Path(args.address_file).write_text(cluster.scheduler_address + "\n")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.close()


if __name__ == "__main__":
    sys.exit(main())
