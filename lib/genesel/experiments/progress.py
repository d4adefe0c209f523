"""Progress of a grid, shown the way that suits where it runs.

- a terminal: a live ``tqdm`` bar (the summary lines below when tqdm, of the ``notebooks`` extra, is not installed);
- JupyterLab (an interactive IPython kernel): one line of text updated in place (no widget library needed);
- papermill, CI and other logs: a few summary lines: the start (how many cells, how many from the cache), a line at
  about each quarter with the estimated time left (no more often than every 30 s), and the end.

``GENESEL_PROGRESS`` overrides the choice: ``bar``, ``live``, ``log`` or ``none``. The notebook runner
(:mod:`genesel.records.runner`) sets ``log`` for the notebooks it executes, so a saved notebook holds the summary
lines and not a bar's every state.
"""

from __future__ import annotations

import os
import sys
import time

__all__ = ["progress", "ENV_PROGRESS", "progress_mode"]

ENV_PROGRESS = "GENESEL_PROGRESS"
_MODES = ("bar", "live", "log", "none")


def progress_mode() -> str:
    """Where progress goes: ``bar`` (terminal), ``live`` (interactive Jupyter), ``log`` or ``none``."""
    env = os.environ.get(ENV_PROGRESS, "").strip().lower()
    if env:
        if env not in _MODES:
            raise ValueError(f"{ENV_PROGRESS}={env!r}: choose one of {', '.join(_MODES)}")
        return env
    if _in_kernel():
        return "live"
    try:
        return "bar" if sys.stdout.isatty() else "log"
    except (AttributeError, ValueError):
        return "log"


def _in_kernel() -> bool:
    ip = sys.modules.get("IPython")
    if ip is None:
        return False
    try:
        shell = ip.get_ipython()
    except AttributeError:  # pragma: no cover
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


def _eta_text(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class _Log:
    """A start line, a line near each quarter (at most every ``interval`` seconds, with the time left), an end line."""

    def __init__(self, total, initial, desc, interval=30.0):
        self.total, self.done, self.desc, self.interval = total, initial, desc, interval
        self.start = self.last = time.perf_counter()
        self.todo = total - initial
        self.next_quarter = 1
        if self.todo:
            cached = f", {initial} from the cache" if initial else ""
            print(f"{desc}: {total} cells{cached}; computing {self.todo} ...", flush=True)

    def update(self, n=1):
        self.done += n
        ran = self.done - (self.total - self.todo)
        now = time.perf_counter()
        if self.done >= self.total or ran < self.next_quarter * self.todo / 4:
            return
        while self.next_quarter < 4 and ran >= self.next_quarter * self.todo / 4:
            self.next_quarter += 1
        if now - self.last < self.interval:
            return
        self.last = now
        eta = (now - self.start) / max(ran, 1) * (self.total - self.done)
        print(f"{self.desc}: {self.done}/{self.total} cells ({100 * self.done / self.total:.0f} %), "
              f"{now - self.start:.0f} s so far, about {_eta_text(eta)} to go", flush=True)

    def close(self):
        if self.todo:
            print(f"{self.desc}: {self.done}/{self.total} cells done ({time.perf_counter() - self.start:.1f} s)",
                  flush=True)


class _Live:
    """One line of text in a Jupyter output area, replaced in place (at most twice a second)."""

    def __init__(self, total, initial, desc):
        from IPython.display import display

        self.total, self.done, self.desc = total, initial, desc
        self.todo = total - initial
        self.start = time.perf_counter()
        self.last = 0.0
        self.handle = display(self._text(), display_id=True) if self.todo else None

    def _text(self, final=False):
        from IPython.display import Pretty

        el = time.perf_counter() - self.start
        ran = self.done - (self.total - self.todo)
        width = 30
        fill = int(width * self.done / max(self.total, 1))
        bar = "█" * fill + "·" * (width - fill)
        if final:
            tail = f"done in {el:.1f} s"
        elif ran:
            tail = f"{el:.0f} s, about {_eta_text(el / ran * (self.total - self.done))} to go"
        else:
            tail = "starting"
        return Pretty(f"{self.desc}: {bar} {self.done}/{self.total} cells; {tail}")

    def update(self, n=1):
        self.done += n
        now = time.perf_counter()
        if self.handle is not None and now - self.last >= 0.5:
            self.last = now
            self.handle.update(self._text())

    def close(self):
        if self.handle is not None:
            self.handle.update(self._text(final=True))


class _Bar:
    def __init__(self, total, initial, desc):
        from tqdm import tqdm

        self.bar = tqdm(total=total, initial=initial, desc=desc, unit="cell", mininterval=1.0, file=sys.stdout)

    def update(self, n=1):
        self.bar.update(n)

    def close(self):
        self.bar.close()


class _Silent:
    def update(self, n=1):
        pass

    def close(self):
        pass


def progress(total: int, initial: int, desc: str, enabled: bool = True):
    """A progress display for ``total`` cells of which ``initial`` are already done (see the module doc)."""
    mode = progress_mode() if enabled else "none"
    if mode == "bar":
        from genesel.extras import missing

        if not missing("tqdm"):
            return _Bar(total, initial, desc)
        mode = "log"  # tqdm comes with the notebooks extra; without it a terminal gets the summary lines
    if mode == "live":
        return _Live(total, initial, desc)
    if mode == "log":
        return _Log(total, initial, desc)
    return _Silent()
