"""Cutting a grid into tasks for a cluster: large enough that the scheduler's overhead stays small, small enough
that the workers stay balanced and an interrupted run loses little.

A dask task costs the scheduler and the network of the order of a millisecond; many grid cells take less. So cells
are sent in batches. The size of a batch comes from what the cells cost: the seconds recorded by earlier runs of the
same cells (:class:`genesel.experiments.cache.CostBook`), else the mean of the cells finished so far in this run,
else one cell per task until the first results arrive. A batch aims at :data:`TARGET_SECONDS` of work (an overhead
below 1 % for a task overhead of a few milliseconds), but never at more than a quarter of the work left per worker,
so that the last tasks end together (a cell that alone costs more is a task of its own). At most a few tasks per
worker are in flight at any time: the scheduler never
holds the whole grid, results stream back and are cached as they arrive, and an interrupted run loses at most the
tasks in flight.
"""

from __future__ import annotations

import time

__all__ = ["BatchPlanner", "run_batch", "TARGET_SECONDS"]

#: Work aimed at per task (seconds): the overhead of one dask task (about 1-5 ms) is then below 2 %.
TARGET_SECONDS = 0.25


class BatchPlanner:
    """Hands out batches of cell keys in order.

    ``estimates``: {key: seconds or None} from earlier runs. ``n_workers``: a callable giving the current number of
    worker threads (clusters scale). :meth:`observe` feeds back the seconds a finished cell took.
    """

    def __init__(self, keys, estimates: dict, n_workers, *, target=TARGET_SECONDS):
        self.queue = list(keys)
        self.pos = 0
        self.est = dict(estimates)
        self.n_workers = n_workers
        self.target = float(target)
        self.observed_total = 0.0
        self.observed_n = 0

    def __len__(self):
        return len(self.queue) - self.pos

    def observe(self, seconds: float) -> None:
        self.observed_total += float(seconds)
        self.observed_n += 1

    def _cost(self, key):
        c = self.est.get(key)
        if c is not None:
            return c
        if self.observed_n:
            return self.observed_total / self.observed_n
        known = [v for v in self.est.values() if v is not None]
        return sum(known) / len(known) if known else None

    def add(self, keys) -> None:
        """Append keys to hand out (cells that became this run's after another run let them go)."""
        self.queue.extend(keys)

    def next_batch(self, accept=None) -> list:
        """The next batch of keys (empty when all are handed out). ``accept(key)``: False drops a key instead of
        handing it out (a cell another run has claimed or finished: :meth:`genesel.experiments.claims.WorkQueue
        .claim`)."""
        if accept is not None:
            while self.pos < len(self.queue) and not accept(self.queue[self.pos]):
                self.pos += 1
        if self.pos >= len(self.queue):
            return []
        if self._cost(self.queue[self.pos]) is None:  # nothing known yet: one cell, then learn from it
            self.pos += 1
            return [self.queue[self.pos - 1]]
        left = sum(self._cost(k) or 0.0 for k in self.queue[self.pos:])
        workers = max(1, int(self.n_workers()))
        aim = self.target if left > 4 * workers * self.target else left / (4 * workers)
        batch, acc = [], 0.0
        while self.pos < len(self.queue):
            k = self.queue[self.pos]
            c = self._cost(k) or 0.0
            if batch and acc + c > aim:
                break
            if accept is not None and batch and not accept(k):
                self.pos += 1
                continue
            batch.append(k)
            acc += c
            self.pos += 1
        return batch


def run_batch(func, items, parent_pid=None, finish=False):
    """Worker side: ``[(key, cell), ...]`` -> (``[(key, result, (wall, cpu seconds)), ...]``, exception or None).
    Cells after a failing one are not run; the ones before it come back and are cached. With ``finish`` every cell
    runs and a failing one comes back as a :class:`genesel.experiments.grid.CellFailed` result."""
    if parent_pid is not None:
        from genesel.experiments.workers import exit_with_parent

        exit_with_parent(parent_pid)
    out = []
    for key, cell in items:
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            res = func(**cell)
        except Exception as exc:  # noqa: BLE001 - returned with the results done so far, raised by the client
            if not finish:
                return out, exc
            from genesel.experiments.grid import CellFailed

            res = CellFailed(exc)
        out.append((key, res, (time.perf_counter() - t0, time.process_time() - c0)))
    return out, None
