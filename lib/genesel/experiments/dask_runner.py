"""Running a grid's cells on a ``dask.distributed`` cluster, in batches (see :mod:`genesel.experiments.batching`).

:func:`dask_results` yields ``(key, result, (wall, CPU seconds))`` as batches finish. It keeps at most a few tasks
per worker in flight (two per worker thread, plus one), submitting the next batch when one comes back, so the
scheduler never holds the whole grid and a run interrupted (Ctrl-C, a lost client) loses only the tasks in flight.
Cells are taken from a :class:`genesel.experiments.claims.WorkQueue` as batches are formed, so a second run on the
same cache computes only what the first has not claimed.

Workers that die. Dask reschedules the task of a worker that died on another worker; a task whose workers keep
dying (``distributed.scheduler.allowed-failures`` times, 3 by default) ends in ``KilledWorker``. Dask counts a
death against every task assigned to the worker, also one waiting behind the task that ran, so ``KilledWorker``
does not name the cause for sure. So a batch of several cells that ends in ``KilledWorker`` is split and its cells
are sent again one per task; a single cell that ends in ``KilledWorker`` is sent once more when nothing else is in
flight, alone on the cluster (the other cells wait meanwhile: worker deaths are rare, and a wrong name costs more);
if it ends in ``KilledWorker`` again it is the cause and is reported as a failed cell, named with its parameters
(:class:`genesel.experiments.workers.WorkerDied`), and the other cells go on. A batch is at most a quarter of a
second of work (:data:`genesel.experiments.batching.TARGET_SECONDS`) unless it is one cell, so what a death
throws away of a batch's finished cells is small.

A cluster without workers. A worker that dies is restarted by its nanny; on a loaded machine the restarts of a local
cluster can fail, and the cluster is left with no worker at all (seen about one run in four of the dying-worker test
on 2 busy cores): the tasks then wait for ever. So the runner watches the cluster while it waits: when it has had no
worker for :data:`NO_WORKER_SECONDS`, a local cluster this module started is closed and started again (at most
:data:`MAX_LOCAL_RESTARTS` times) and the batches in flight are sent again; a cluster the caller gave (a client, an
address, a connection file) is not ours to restart, and the run stops with :class:`NoWorkers`, which names the
scheduler; every finished cell is already cached, so running again resumes. A local cluster is started with
``allowed-failures`` 1 (dask's default is 3): a cell that kills its worker is then confirmed in four worker restarts
instead of eight. A result is released on the cluster as soon as it is read, so a later death does not make dask
compute a finished batch again.

Connecting. ``scheduler`` is a ``distributed.Client``, an address (``tcp://host:8786``), the connection file
written by the SLURM recipe (:mod:`genesel.experiments.cluster`: the address and the TLS certificate the client
needs for a ``tls://`` scheduler), or None (the current client, else a ``LocalCluster``).
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from pathlib import Path

__all__ = ["dask_results", "connect", "read_connection_file", "NoWorkers", "NO_WORKER_SECONDS", "MAX_LOCAL_RESTARTS"]

#: seconds without a single worker after which the runner acts (restarts its own local cluster, or stops)
NO_WORKER_SECONDS = 60.0
#: how many times a local cluster of this module is started again within one run
MAX_LOCAL_RESTARTS = 3


class NoWorkers(RuntimeError):
    """The dask cluster has had no worker for :data:`NO_WORKER_SECONDS` and is not one this module may restart."""


def read_connection_file(path) -> tuple:
    """(address, ``distributed.security.Security`` or None) from a connection file of the SLURM recipe."""
    path = Path(path).expanduser()
    try:
        info = json.loads(path.read_text())
        address = info["address"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not a scheduler connection file of genesel.experiments.cluster ({exc}); "
                         "give the file the recipe wrote (--connection-file) or a scheduler address") from None
    tls = info.get("tls")
    if not tls:
        return address, None
    from distributed.security import Security

    return address, Security(require_encryption=True, tls_ca_file=tls["ca"], tls_client_cert=tls["cert"],
                             tls_client_key=tls["key"])


def _address_and_security(scheduler: str):
    text = scheduler.strip()
    if "://" not in text and (text.endswith(".json") or os.path.isfile(os.path.expanduser(text))):
        return read_connection_file(text)
    if text.startswith("tls://"):
        raise ValueError(f"the scheduler {text} speaks TLS: pass the connection file the SLURM recipe wrote "
                         "(make full SCHEDULER=/path/to/scheduler.json, or scheduler=that path), which holds its "
                         "address and the certificate a client needs")
    return text, None


def connect(scheduler, n_jobs: int):
    """(client, owned): a ``distributed.Client`` for ``scheduler`` (a Client, an address, a connection file, or
    None: the current client, else a new ``LocalCluster`` of ``n_jobs`` single-threaded worker processes).
    ``owned``: this function opened the client (and the local cluster, if any), so the caller must close them.
    A scheduler that does not answer within dask's ``distributed.comm.timeouts.connect`` (30 s by default; raise it
    with ``dask.config.set`` for a scheduler still queued on a cluster) is an ``OSError`` naming its address."""
    try:
        import dask
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("backend='dask' needs dask.distributed: pip install 'genesel[distributed]'") from exc
    if isinstance(scheduler, Client):
        return scheduler, False
    if scheduler is not None:
        address, security = _address_and_security(str(scheduler))
        try:
            client = Client(address, timeout=dask.config.get("distributed.comm.timeouts.connect"), security=security)
        except OSError as exc:
            raise OSError(f"cannot reach the dask scheduler at {address!r} ({exc}); start it (e.g. "
                          "`dask scheduler`, or genesel.experiments.cluster.slurm_cluster) or unset "
                          "GENESEL_SCHEDULER to run on this machine") from None
        return client, True
    try:
        return Client.current(), False
    except ValueError:
        return _local_client(n_jobs), True


def _local_client(n_jobs: int):
    """A client of a new ``LocalCluster``: ``n_jobs`` single-threaded worker processes, the scheduler on this
    machine's loopback only, a task given up after one worker death besides its first (module doc)."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
    return Client(cluster)


def _close(client, owned):
    if not owned:
        return
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def dask_results(func, work, estimates: dict, n_jobs: int, scheduler, finish: bool = False, on_death=None):
    """Yield (key, result, (wall, CPU seconds)) for the cells ``work`` hands out, computed on the cluster; a cell
    that kills its workers yields ``on_death(key, cell, detail)`` (see the module doc)."""
    import uuid

    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from genesel.experiments.batching import BatchPlanner, run_batch

    client, owned = connect(scheduler, n_jobs)
    restarts = 0
    try:
        def workers():
            try:
                return max(1, sum(client.nthreads().values()))
            except Exception:  # noqa: BLE001 - a scaling cluster may briefly have none
                return 1

        def has_workers():
            try:
                return bool(client.nthreads())
            except Exception:  # noqa: BLE001 - a scheduler that does not answer has none to offer
                return False

        planner = BatchPlanner(list(work.order), estimates, workers)
        work.order.clear()  # the planner hands them out now (claiming each through work.claim)
        singles: deque = deque()  # cells of a batch whose workers died, one task each
        confirm: deque = deque()  # single cells whose workers died: run again alone on the cluster
        alone = []  # the cell being confirmed, while it runs
        ac = as_completed()
        in_flight = {}

        def send(batch):
            fut = client.submit(run_batch, func, [(k, work.cells[k]) for k in batch], finish=finish, pure=False,
                                key=f"genesel-batch-{batch[0][:12]}-{len(batch)}-{uuid.uuid4().hex[:8]}")
            in_flight[fut] = batch
            ac.add(fut)

        def submit():
            if alone:
                return
            if confirm:  # once the cluster has drained: the suspect alone, so that a death can only be its own
                if not in_flight:
                    alone.append(confirm.popleft())
                    send(list(alone))
                return
            while len(in_flight) < 2 * workers() + 1:
                batch = [singles.popleft()] if singles else planner.next_batch(accept=work.claim)
                if not batch:
                    return
                send(batch)

        def handle(fut):
            """Yield the cells of a finished batch (or the death of a confirmed cell) and send what comes next."""
            batch = in_flight.pop(fut, [])
            if not batch:  # a future of a cluster this run has since replaced
                return
            was_alone = bool(alone) and batch == alone
            if was_alone:
                alone.clear()
            try:
                done, exc = fut.result()
            except KilledWorker as died:
                if was_alone:
                    yield on_death(batch[0], work.cells[batch[0]], " ".join(str(died).split())[:300])
                elif len(batch) == 1:
                    confirm.append(batch[0])
                else:
                    singles.extend(batch)
                submit()
                return
            finally:
                fut.release()  # read: no copy stays on a worker for dask to recompute after a death
            for k, res, secs in done:
                planner.observe(secs[0])
                yield k, res, secs
            if exc is not None:
                raise exc
            submit()

        def ready():
            """The futures that finished, waiting for them; None when the cluster has had no worker too long."""
            since = None
            while not ac.has_ready():
                if ac.is_empty():
                    return []
                if has_workers():
                    since = None
                elif since is None:
                    since = time.monotonic()
                elif time.monotonic() - since > NO_WORKER_SECONDS:
                    return None
                time.sleep(0.2)
            return ac.next_batch(block=False)

        try:
            while True:
                submit()
                while True:
                    done_now = ready()
                    if done_now is None:  # no worker for NO_WORKER_SECONDS
                        if not owned or getattr(client, "cluster", None) is None or restarts >= MAX_LOCAL_RESTARTS:
                            raise NoWorkers(
                                f"the dask cluster at {client.scheduler.address} has had no worker for "
                                f"{NO_WORKER_SECONDS:.0f} s with {len(in_flight)} batch(es) waiting; every finished "
                                "cell is cached: start workers (or check why they die: memory, time limits) and run "
                                "again to resume")
                        restarts += 1
                        lost = list(in_flight.values())
                        in_flight.clear()
                        _close(client, owned)
                        client = _local_client(n_jobs)
                        ac = as_completed()  # one bound to the new client's futures (a cleared one never fires)
                        for batch in lost:
                            send(batch)
                        continue
                    if not done_now:
                        break
                    for fut in done_now:
                        yield from handle(fut)
                keys = work.wait()  # nothing in flight: the rest, if any, is another run's
                if not keys:
                    return
                work.ready.clear()
                planner.add(keys)
        finally:
            try:
                client.cancel(list(in_flight))
            except Exception:  # noqa: BLE001 - a client that lost its scheduler has nothing to cancel
                pass
    finally:
        _close(client, owned)
