"""Worker processes that end with the process that started them.

A grid's parent (the notebook kernel, ``make full``) can die without cleaning up: ``kill -9``, a crash, an
out-of-memory kill. Its worker processes must not compute on. Two mechanisms, both set up by
:func:`exit_with_parent` the first time a worker runs a cell:

- on Linux, the kernel itself: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks it to kill the worker the moment its
  parent ends. This needs nothing from the worker, so it works while the worker sits inside one long compiled call
  that holds the GIL (a numba kernel, minutes of SVM-RFE on 150,000 genes);
- everywhere, a daemon thread that looks at the parent every 0.2 s and calls ``os._exit`` once it is gone (the
  kernel hands an orphan to another process, so ``os.getppid()`` changes). It needs the GIL, so inside a long
  compiled call it acts only when the call returns; it covers systems without ``prctl``.

Nothing is set up in the parent itself (``n_jobs=1`` or the threading backend) or in a process that is not a
direct child of the parent (a dask worker, a forkserver child: their own pool manages them). A worker never writes
to the cache, so dying at any instant loses nothing but the cell in hand.

The other way round, a worker that dies while its parent lives (the out-of-memory killer, ``os._exit``, a crash in
compiled code) must not take the grid with it: :func:`loky_results` runs a grid's cells on loky's process pool so
that a death fails only the cell that caused it (:class:`WorkerDied`).

loky also retires a worker on purpose: one whose memory grew by more than 300 MB over the cells it ran finishes its
cell, exits cleanly and is replaced (loky's guard against leaks; a worker that parsed a large data set and compiled
kernels grows that much). Nothing is lost, but loky says so with a ``UserWarning`` ("A worker stopped while some
jobs were given to the executor...") that a notebook shows as if something had failed; :func:`loky_results`
silences exactly that message (a worker that dies is still reported, as a failed cell).
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
import warnings
from collections import deque

__all__ = ["exit_with_parent", "WATCH_INTERVAL", "WorkerDied", "loky_results"]

WATCH_INTERVAL = 0.2  # seconds between two looks at the parent
_WATCHED: list[int] = []
_PR_SET_PDEATHSIG = 1
#: loky's message when it replaces a worker it retired itself (module docstring): not a failure
RETIRED_WORKER = "A worker stopped while some jobs were given to the executor"


def _kernel_kills_on_parent_death() -> bool:
    """Linux: ask the kernel for SIGKILL when the parent dies; False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def exit_with_parent(parent_pid: int) -> None:
    """In a worker process started by ``parent_pid``: end this process when that parent ends (see the module doc)."""
    if _WATCHED or os.getpid() == parent_pid:
        return
    if os.getppid() != parent_pid:
        try:
            os.kill(parent_pid, 0)
        except ProcessLookupError:  # the parent died before this worker took its first cell
            os._exit(70)
        except OSError:
            pass
        return
    _WATCHED.append(parent_pid)
    _kernel_kills_on_parent_death()
    if os.getppid() != parent_pid:  # the parent died between the look above and the prctl call
        os._exit(70)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(WATCH_INTERVAL)
        os._exit(70)  # EX_SOFTWARE: the parent vanished

    threading.Thread(target=watch, name="genesel-parent-watch", daemon=True).start()


# ---------------------------------------------------------------------------------------------------------------
# a grid that outlives its workers
# ---------------------------------------------------------------------------------------------------------------


class WorkerDied(RuntimeError):
    """The worker process computing a cell died (killed by the operating system, e.g. its out-of-memory killer,
    or ended by the cell itself: ``os._exit``, a crash in compiled code). ``cell`` is the cell that was run alone
    and still took its worker down."""

    def __init__(self, cell: dict, grid: str, detail: str):
        import json

        self.cell = cell
        super().__init__(
            f"the worker process computing cell {json.dumps(cell, sort_keys=True, default=str)} of {grid} died "
            f"({detail}). It was run again on its own and died again, so this cell is the cause, not one that ran "
            "beside it. A process is killed like this by the operating system when memory runs out (see `dmesg` or "
            "the job's log) or ends itself (os._exit, a crash in compiled code); give the workers more memory or "
            "run fewer at once (n_jobs), then run the same call: every other cell is cached.")


#: Variables that cap the thread pools of BLAS, OpenMP and numba in worker processes: the ones joblib's loky backend
#: sets, so that this runner keeps the behaviour ``Parallel(backend="loky")`` had.
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
               "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def _worker_env(n_jobs: int) -> dict:
    n = str(max((os.cpu_count() or 1) // n_jobs, 1))
    env = {v: os.environ.get(v, n) for v in THREAD_VARS}
    env.setdefault("ENABLE_IPC", os.environ.get("ENABLE_IPC", "1"))
    return env


def loky_results(run_cell, work, n_jobs: int, on_death):
    """Yield ``(key, result, (wall, CPU seconds))`` of the cells handed out by ``work`` (a
    :class:`genesel.experiments.claims.WorkQueue`), computed by ``run_cell(key, cell)`` in ``n_jobs`` loky worker
    processes (loky: the process pool joblib uses).

    Written on loky's executor directly, not through ``joblib.Parallel``, because joblib ends the whole call (and
    drops the results that had arrived but were not yet handed back) when one worker dies. Here a death (loky's
    ``TerminatedWorkerError``) breaks the pool: the results that had arrived are yielded, the cells that were in
    the pool are suspects and run again one at a time in a fresh pool; a suspect that kills its worker when alone is
    the cause, and ``on_death(key, cell, detail)`` gives the event to yield for it (a failed cell); the others are
    computed as usual. ``2 * n_jobs`` cells are in the pool at a time (one running and one waiting per worker), so a
    death costs at most that many reruns.
    Stopping early (an exception, Ctrl-C, the caller closing this generator) kills the pool's workers."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from joblib.externals.loky import get_reusable_executor
    from joblib.externals.loky.process_executor import BrokenProcessPool

    env = _worker_env(n_jobs)
    # loky's executor thread warns when it replaces a worker it retired (module docstring): not a failure. Set on
    # every call (a filter set once at import is undone by any warnings.catch_warnings the caller left since)
    warnings.filterwarnings("ignore", message=RETIRED_WORKER, category=UserWarning)

    def executor():
        return get_reusable_executor(max_workers=n_jobs, timeout=300, env=env)

    ex = executor()
    in_flight: dict = {}  # future -> key
    suspects: deque = deque()
    unsent: deque = deque()  # cells taken from the queue when the pool had just broken: sent first to the next pool
    alone = False  # the one cell in the pool is a suspect run on its own
    finished = False

    def send(k) -> bool:
        """Submit cell ``k``; False when the pool broke before it could take it (a worker died since the last
        wait: the death is found by the next wait, through the futures still in the pool)."""
        try:
            in_flight[ex.submit(run_cell, k, work.cells[k])] = k
            return True
        except BrokenProcessPool:
            return False

    try:
        while True:
            sent = True
            if suspects:
                if not in_flight:
                    k = suspects.popleft()
                    sent = send(k)
                    if not sent:
                        suspects.appendleft(k)
                    alone = True
            else:
                alone = False
                while len(in_flight) < 2 * n_jobs:  # one waiting per worker: no idle round trip
                    if unsent:
                        k = unsent.popleft()
                    else:
                        item = work.take()
                        if item is None:
                            break
                        k = item[0]
                    sent = send(k)
                    if not sent:
                        unsent.appendleft(k)
                        break
            if not sent and not in_flight:  # nothing left in the broken pool to wait for: a fresh one
                ex = executor()
                continue
            if not in_flight:
                if work.wait():
                    continue
                finished = True
                return
            done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            broken = error = None
            for fut in done:
                try:
                    res = fut.result()
                except BrokenProcessPool as exc:
                    broken = exc
                    continue
                except BaseException as exc:  # a cell's exception (on_error="stop"): after the others' results
                    del in_flight[fut]
                    error = error or exc
                    continue
                del in_flight[fut]
                yield res
            if error is not None:
                raise error
            if broken is None:
                continue
            # the pool is broken: every future still in it ends with the same error; keep what had arrived
            wait(list(in_flight))
            lost = []
            for fut, k in list(in_flight.items()):
                try:
                    res = fut.result()
                except BrokenProcessPool:
                    lost.append(k)
                else:
                    yield res
            in_flight.clear()
            ex = executor()  # a fresh pool (loky replaces a broken one)
            if alone and len(lost) == 1:
                text = " ".join(str(broken).split())
                codes = re.search(r"exit codes of the workers are \{[^}]*\}", text)
                yield on_death(lost[0], work.cells[lost[0]], f"loky: the {codes.group(0)}" if codes else text[:300])
            else:
                suspects.extend(lost)
    finally:
        if not finished and in_flight:
            for fut in in_flight:
                fut.cancel()
            try:
                ex.shutdown(wait=False, kill_workers=True)
            except Exception:  # noqa: BLE001 - already broken or gone
                pass
