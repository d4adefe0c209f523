"""Running a grid's cells on a ``dask.distributed`` cluster, in batches (see :mod:`genesel.experiments.batching`).

:func:`dask_results` yields ``(key, result, (wall, CPU seconds))`` as batches finish. It keeps at most a few tasks
per worker in
flight (two per worker thread, plus one), submitting the next batch when one comes back, so the scheduler never
holds the whole grid and a run interrupted (Ctrl-C, a lost client) loses only the tasks in flight. Workers lost
mid-task are dask's business: it reschedules their tasks elsewhere.
"""

from __future__ import annotations

__all__ = ["dask_results", "connect"]


def connect(scheduler, n_jobs: int):
    """(client, owned): a ``distributed.Client`` for ``scheduler`` (a Client, an address, or None: the current
    client, else a new ``LocalCluster`` of ``n_jobs`` single-threaded worker processes). ``owned``: this function
    opened the client (and the local cluster, if any), so the caller must close them."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("backend='dask' needs dask.distributed: pip install 'genesel[distributed]'") from exc
    if isinstance(scheduler, Client):
        return scheduler, False
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="30s")
        except OSError as exc:
            raise OSError(f"cannot reach the dask scheduler at {scheduler!r} ({exc}); start it (e.g. "
                          "`dask scheduler`, or genesel.experiments.cluster.slurm_cluster) or unset "
                          "GENESEL_SCHEDULER to run on this machine") from None
        return client, True
    try:
        return Client.current(), False
    except ValueError:
        cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), True


def _close(client, owned):
    if not owned:
        return
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def dask_results(func, todo: dict, estimates: dict, n_jobs: int, scheduler, finish: bool = False):
    """Yield (key, result, (wall, CPU seconds)) for every cell of ``todo`` ({key: cell}) computed on the cluster."""
    import uuid

    from distributed import as_completed

    from genesel.experiments.batching import BatchPlanner, run_batch

    client, owned = connect(scheduler, n_jobs)
    try:
        def workers():
            try:
                return max(1, sum(client.nthreads().values()))
            except Exception:  # noqa: BLE001 - a scaling cluster may briefly have none
                return 1

        planner = BatchPlanner(list(todo), estimates, workers)
        ac = as_completed()
        in_flight = {}

        def submit():
            while len(in_flight) < 2 * workers() + 1:
                batch = planner.next_batch()
                if not batch:
                    return
                fut = client.submit(run_batch, func, [(k, todo[k]) for k in batch], finish=finish, pure=False,
                                    key=f"genesel-batch-{batch[0][:12]}-{len(batch)}-{uuid.uuid4().hex[:8]}")
                in_flight[fut] = batch
                ac.add(fut)

        submit()
        try:
            for fut in ac:
                in_flight.pop(fut, None)
                done, exc = fut.result()
                for k, res, secs in done:
                    planner.observe(secs[0])
                    yield k, res, secs
                if exc is not None:
                    raise exc
                submit()
        finally:
            client.cancel(list(in_flight))
    finally:
        _close(client, owned)
