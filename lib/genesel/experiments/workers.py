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
"""

from __future__ import annotations

import os
import sys
import threading
import time

__all__ = ["exit_with_parent", "WATCH_INTERVAL"]

WATCH_INTERVAL = 0.2  # seconds between two looks at the parent
_WATCHED: list[int] = []
_PR_SET_PDEATHSIG = 1


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
