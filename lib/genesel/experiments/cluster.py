"""Running the grids on a batch cluster (SLURM) with dask-jobqueue: the recipe, as code.

The full protocols and the leaderboard are grids of thousands of small cells. On a cluster they run as dask tasks
(:func:`genesel.experiments.run_grid` with ``backend="dask"``, or every grid of a notebook run with
``GENESEL_SCHEDULER``). The recipe, on the cluster's login node (after ``pip install "genesel[distributed]"`` into an
environment the compute nodes see, and with the raw data mirrored to a shared folder)::

    genesel cluster slurm --max-jobs 25 --cores 4 --memory 16GB --walltime 02:00:00 \\
        --mirror /shared/genesel-data &
    make full SCHEDULER=$HOME/.config/genesel/cluster/scheduler.json

The first command starts a dask scheduler on the login node and lets it submit SLURM jobs as the grid needs them
(adaptive scaling between ``--min-jobs`` and ``--max-jobs``); each job runs ``--cores`` single-threaded workers
(the cells are single-threaded numba and BLAS code). A worker retires before its job's wall time ends (``--lifetime``
a margin below it, staggered so that they do not all leave at once) and the adaptive scaler submits a fresh job, so
a grid that outlives one job's wall time loses no cell: a retiring worker's tasks move elsewhere. The workers need
only the package and the data mirror (``GENESEL_DATA_MIRROR`` is exported into the job script); they never touch
the cache, which the process running the notebooks writes (and authenticates with its own key).

What is protected, and how. Whoever can connect to a dask scheduler can run code as its user (a task is a
function), so:

- TLS with mutual authentication between the scheduler, the workers and the client. A fresh self-signed
  certificate and key are generated in memory each time the recipe starts
  (``distributed.security.Security.temporary()``, which needs ``cryptography``; it has the same signature in every
  ``distributed`` release the package allows), with ``require_encryption=True``: each side presents the certificate
  and checks the other's against it, so a process without the key can neither connect nor listen in. The workers
  read it from owner-only files (mode 0600) that dask-jobqueue writes into ``--secrets-dir`` (default
  ``~/.config/genesel/cluster``, created 0700; it must be on a file system the compute nodes see, like the home
  folder) and deletes when the scheduler stops; the client reads it from the connection file (``scheduler.json``
  there, mode 0600: address and certificate), which ``make full SCHEDULER=...`` is given instead of an address.
- The scheduler listens on one address, the one the workers reach it at: ``--host`` (an IP address or name of the
  login node), or the address of ``--interface`` (``ib0``, ``eth0``), or by default the address through which this
  machine reaches the outside (``distributed.utils.get_ip``); never on every interface (``0.0.0.0``) unless
  ``--host 0.0.0.0`` asks for it. The workers listen on their node's address (``--interface`` too), TLS as well.
- No dashboard unless ``--dashboard ADDRESS`` asks for one: the scheduler's HTTP server (dashboard, Prometheus
  metrics, JSON state, a proxy to the workers' pages) is not started at all (a dask scheduler starts it on port
  8787 even when told ``dashboard_address=None``), and the workers run with ``--no-dashboard``. Asked for, it
  listens on the given address only (say ``localhost:8787``, reached through ``ssh -L``).
- Every value pasted into the job script is shell-quoted (``shlex.quote``): the mirror path, the Python path, the
  certificate paths, the interface; the ``#SBATCH`` values (partition, account, memory, wall time) are checked
  to be one word without shell characters. A path with a space or a ``;`` is one argument, never a command.

Not protected: anyone who can read your files (root, your account) can read the key, as with an SSH key; the
workers' data travel encrypted but the compute nodes' own users (you) see them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

__all__ = ["slurm_cluster", "slurm_options", "lifetime_options", "write_connection_file", "default_secrets_dir",
           "main"]

_DIRECTIVE = re.compile(r"[A-Za-z0-9_.:,+@%=/-]+")


def default_secrets_dir() -> Path:
    """``$XDG_CONFIG_HOME/genesel/cluster`` (default ``~/.config/genesel/cluster``): certificate files and the
    connection file."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "genesel" / "cluster"


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


def _directive(name: str, value):
    """A value of an ``#SBATCH`` line: one word without shell characters (sbatch reads these lines itself)."""
    if value is None:
        return None
    text = str(value)
    if not _DIRECTIVE.fullmatch(text):
        raise ValueError(f"{name}={text!r}: an #SBATCH value must be one word of letters, digits and ._:,+@%=/- "
                         "(no spaces, quotes or shell characters)")
    return text


def _quiet_scheduler():
    """A dask ``Scheduler`` that starts no HTTP server (dashboard, metrics, JSON state, proxy): a stock scheduler
    starts one on port 8787 even with ``dashboard_address=None``. Overrides ``start_http_server`` (same signature
    in every distributed release the package allows) to build the application without ever listening."""
    from distributed import Scheduler
    from tornado.httpserver import HTTPServer

    class QuietScheduler(Scheduler):
        def start_http_server(self, routes, dashboard_address, default_port=0, ssl_options=None):
            from distributed.http.routing import RoutingApplication

            self.http_application = RoutingApplication(routes)
            self.http_server = HTTPServer(self.http_application)  # never listens: nothing answers

    return QuietScheduler


def _quoted_job():
    """dask-jobqueue's SLURM job with every value it pastes into the worker command shell-quoted: dask-jobqueue joins
    the command with spaces, unquoted, so the Python path, the interface and the certificate paths are added here."""
    from dask_jobqueue.slurm import SLURMJob

    class QuotedSLURMJob(SLURMJob):
        def __init__(self, *args, python=None, security=None, interface=None, **kwargs):
            super().__init__(*args, python=shlex.quote(python or sys.executable), security=None, interface=None,
                             **kwargs)
            extra = []
            if interface:
                extra += ["--interface", str(interface)]
            if security is not None:
                for key, value in security.get_tls_config_for_role("worker").items():
                    if key != "ciphers" and value:
                        extra += [f"--tls-{key.replace('_', '-')}", str(value)]
            if extra:
                self._command_template += " " + shlex.join(extra)

    return QuotedSLURMJob


def slurm_options(*, cores: int = 4, memory: str = "16GB", walltime: str = "02:00:00", queue: str | None = None,
                  account: str | None = None, mirror: str | None = None, python: str | None = None,
                  host: str | None = None, interface: str | None = None, dashboard: str | None = None,
                  secrets_dir=None, security=None, **kwargs) -> dict:
    """The keyword arguments of ``dask_jobqueue.SLURMCluster`` for genesel's grids (see the module doc): TLS with a
    fresh certificate (``security``: a ``distributed.security.Security`` to use instead), the scheduler on ``host``
    (or ``interface``'s address, or this machine's outward address), no dashboard unless ``dashboard`` gives its
    address, jobs of ``cores`` single-threaded workers that retire before ``walltime``, every value quoted. Starts
    nothing. Extra keyword arguments go to ``SLURMCluster``.

    ``mirror``: the shared folder of raw data files the workers read (default ``$GENESEL_DATA_MIRROR``)."""
    from distributed.security import Security
    from distributed.utils import get_ip

    mirror = mirror or os.environ.get("GENESEL_DATA_MIRROR")
    if not mirror:
        raise ValueError("give the shared folder of raw data files the workers read (mirror=..., --mirror, or "
                         "GENESEL_DATA_MIRROR): compute nodes usually cannot download")
    if interface is not None and not re.fullmatch(r"[A-Za-z0-9_.:@-]+", interface):
        raise ValueError(f"interface={interface!r}: a network interface name like ib0 or eth0")
    secrets_dir = Path(secrets_dir).expanduser() if secrets_dir is not None else default_secrets_dir()
    secrets_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(secrets_dir, 0o700)
    security = security if security is not None else Security.temporary()
    prologue = [f"export GENESEL_DATA_MIRROR={shlex.quote(str(mirror))}", "export OMP_NUM_THREADS=1",
                "export OPENBLAS_NUM_THREADS=1", "export MKL_NUM_THREADS=1", "export GENESEL_PROGRESS=none"]
    prologue += list(kwargs.pop("job_script_prologue", []))
    extra = lifetime_options(walltime) + ["--no-dashboard"] + list(kwargs.pop("worker_extra_args", []))
    sched = dict(kwargs.pop("scheduler_options", {}))
    if interface is not None and host is None:
        sched.setdefault("interface", interface)
    else:
        sched.setdefault("host", host or get_ip())
    if dashboard:
        sched.update(dashboard=True, dashboard_address=dashboard)
        scheduler_cls = kwargs.pop("scheduler_cls", None)
    else:
        sched.update(dashboard=False, dashboard_address=None)
        scheduler_cls = kwargs.pop("scheduler_cls", None) or _quiet_scheduler()
    opts = dict(cores=int(cores), processes=int(cores), memory=_directive("memory", memory),
                walltime=_directive("walltime", walltime), queue=_directive("queue", queue),
                account=_directive("account", account), python=python or sys.executable,
                job_script_prologue=prologue, worker_extra_args=extra, security=security, protocol="tls://",
                interface=interface, shared_temp_directory=str(secrets_dir), scheduler_options=sched,
                job_cls=_quoted_job(), **kwargs)
    if scheduler_cls is not None:
        opts["scheduler_cls"] = scheduler_cls
    if "job_name" in opts:
        _directive("job_name", opts["job_name"])
    return opts


def slurm_cluster(*, min_jobs: int = 0, max_jobs: int = 10, **kwargs):
    """A ``dask_jobqueue.SLURMCluster`` set up by :func:`slurm_options` (same keyword arguments), scaling adaptively
    between ``min_jobs`` and ``max_jobs`` jobs; ``cluster.security`` holds its TLS certificate (for a client:
    :func:`write_connection_file`)."""
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("the SLURM recipe needs dask-jobqueue: pip install 'genesel[distributed]'") from exc
    opts = slurm_options(**kwargs)
    cluster = SLURMCluster(**opts)
    cluster.adapt(minimum_jobs=int(min_jobs), maximum_jobs=int(max_jobs))
    return cluster


def write_connection_file(path, address: str, security) -> Path:
    """Write what a client needs to reach the scheduler (its address and the TLS certificate and key of the client
    role) to ``path``, owner-only (0600), atomically; ``make full SCHEDULER=path`` (or ``run_grid(...,
    scheduler=path)``) reads it (:func:`genesel.experiments.dask_runner.read_connection_file`)."""
    path = Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = {"address": address}
    if security is not None and getattr(security, "require_encryption", False):
        tls = security.get_tls_config_for_role("client")
        info["tls"] = {"ca": _pem(tls["ca_file"]), "cert": _pem(tls["cert"]), "key": _pem(tls["key"])}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(info, fh)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path


def _pem(value: str) -> str:
    """A certificate or key as PEM text: ``Security`` holds either the text itself or a file name."""
    return value if "-----BEGIN" in value else Path(value).read_text()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="genesel cluster", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="kind", required=True)
    s = sub.add_parser("slurm", help="start a scheduler that submits SLURM jobs of dask workers as needed")
    s.add_argument("--cores", type=int, default=4, help="workers (one core each) per job")
    s.add_argument("--memory", default="16GB", help="memory per job")
    s.add_argument("--walltime", default="02:00:00", help="wall time per job ([D-]HH:MM:SS)")
    s.add_argument("--queue", help="SLURM partition")
    s.add_argument("--account", help="SLURM account")
    s.add_argument("--mirror", help="shared folder of raw data files (default $GENESEL_DATA_MIRROR)")
    s.add_argument("--python", help="the workers' Python (default: this one, which the nodes must see)")
    s.add_argument("--min-jobs", type=int, default=0)
    s.add_argument("--max-jobs", type=int, default=10)
    s.add_argument("--host", help="the address the scheduler listens on: the login node's address the compute "
                                  "nodes reach (default: this machine's outward address; 0.0.0.0: every interface)")
    s.add_argument("--interface", help="network interface of the scheduler and the workers (e.g. ib0)")
    s.add_argument("--dashboard", metavar="ADDRESS", help="start the dashboard on ADDRESS (e.g. localhost:8787, "
                                                           "reached with ssh -L); default: none")
    s.add_argument("--secrets-dir", help="owner-only folder, seen by the compute nodes, for the TLS files "
                                         "(default ~/.config/genesel/cluster)")
    s.add_argument("--connection-file", help="where to write the scheduler's address and the client's "
                                             "certificate (default <secrets-dir>/scheduler.json), for "
                                             "make full SCHEDULER=<that file>")
    s.add_argument("--print-script", action="store_true", help="print the job script and exit")
    args = ap.parse_args(argv)
    secrets_dir = Path(args.secrets_dir).expanduser() if args.secrets_dir else default_secrets_dir()
    cluster = slurm_cluster(cores=args.cores, memory=args.memory, walltime=args.walltime, queue=args.queue,
                            account=args.account, mirror=args.mirror, min_jobs=args.min_jobs,
                            max_jobs=args.max_jobs, host=args.host, interface=args.interface,
                            dashboard=args.dashboard, secrets_dir=secrets_dir, python=args.python)
    conn = Path(args.connection_file).expanduser() if args.connection_file else secrets_dir / "scheduler.json"
    try:
        if args.print_script:
            print(cluster.job_script())
            return 0
        write_connection_file(conn, cluster.scheduler_address, cluster.security)
        print(f"scheduler at {cluster.scheduler_address} (TLS); run: make full SCHEDULER={conn}", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.close()
        if not args.print_script:
            conn.unlink(missing_ok=True)  # the scheduler is gone: nothing to connect to


if __name__ == "__main__":
    sys.exit(main())
