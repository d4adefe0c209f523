"""Two runs on one cache share the work: a claim per cell, taken before the cell is computed, that expires.

Two notebook runs on one cache (two shells, a notebook and ``make full``, two clients of a cluster sharing a cache
folder) used to compute every cell twice. Now a run takes a cell only after creating its claim,
``<folder>/claims/<key>.claim``, with ``O_CREAT | O_EXCL`` (atomic, also over NFS v3+): a small JSON file holding
the claimer's host, process id, process start time and a random token. A run that finds a cell claimed by another
run skips it and goes on with the rest; when it has nothing else to do it waits, looking every second or so, until
the cell's record appears (it then reads it, as any cached cell) or the claim is released without a record (the
other run failed on the cell or was stopped) or expires: it then claims and computes the cell itself.

A claim expires when its holder is gone: on the same host, when no process with its id and start time is alive
(a killed run's claims are taken over at once); from another host, when the claim has not been refreshed for
:data:`CLAIM_TTL` seconds (the holder touches its claims every :data:`HEARTBEAT` seconds from a thread of its own).
Taking over an expired claim renames it out of the way first, so two runs cannot both take it. A claim is released
(deleted) when its cell's record is written or its cell failed, and all of a run's claims when the run ends, however
it ends short of ``kill -9`` (then the process check above frees them).

The worst a wrong guess can cost is a cell computed twice (its record is written atomically, and both runs compute
the same numbers): e.g. a run on another host whose heartbeat thread cannot run for longer than the TTL (a cell
computed in the run's own process, ``n_jobs=1``, inside one compiled call that holds the GIL). Claims never decide
what is served: only authenticated records are.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import threading
import time
from collections import deque
from pathlib import Path

__all__ = ["ClaimBook", "WorkQueue", "CLAIM_TTL", "HEARTBEAT"]

CLAIM_TTL = 600.0  # seconds without a refresh after which another host's claim has expired
HEARTBEAT = 60.0  # seconds between two refreshes of a run's claims
_SUFFIX = ".claim"


def _start_time(pid: int) -> str | None:
    """The kernel's start time of process ``pid`` (Linux: field 22 of /proc/<pid>/stat), None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode(errors="replace")
        return stat.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _alive(pid: int, start: str | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        pass
    except OSError:
        return True
    return start is None or _start_time(pid) in (None, start)


class ClaimBook:
    """The claims of one run in one function's cache folder (see the module doc)."""

    def __init__(self, folder: Path, *, ttl: float = CLAIM_TTL, heartbeat: float = HEARTBEAT):
        self.dir = Path(folder) / "claims"
        self.ttl, self.heartbeat = float(ttl), float(heartbeat)
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.me = {"host": self.host, "pid": self.pid, "start": _start_time(self.pid)}
        self.held: dict[str, str] = {}  # key -> token
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None

    def path(self, key: str) -> Path:
        return self.dir / f"{key}{_SUFFIX}"

    # -- taking and giving back ------------------------------------------------------------------------------------

    def acquire(self, key: str) -> bool:
        """Claim ``key`` for this run: True if it is now this run's (or already was), False if another run holds a
        live claim. Raises :class:`genesel.experiments.cache.CacheWriteError` if the claim cannot be written (a full
        disk), naming the path."""
        if key in self.held:
            return True
        p = self.path(key)
        for _ in range(3):
            token = secrets.token_hex(8)
            try:
                self.dir.mkdir(parents=True, exist_ok=True)
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                if not self._expired(p):
                    return False
                self._take_over(p)
                continue
            except FileNotFoundError:  # the empty claims folder was removed meanwhile by a run that ended
                continue
            except OSError as exc:  # a full disk, a read-only cache: the record could not be written either
                from genesel.experiments.cache import CacheWriteError, write_remedy

                raise CacheWriteError(write_remedy(exc, p), exc.errno, p) from exc
            with os.fdopen(fd, "w") as fh:
                json.dump({**self.me, "time": time.time(), "token": token}, fh)
            with self._lock:
                self.held[key] = token
            self._start_heartbeat()
            return True
        return False

    def release(self, key: str) -> None:
        """Give back this run's claim on ``key`` (nothing if it holds none; another run's claim is left alone)."""
        with self._lock:
            token = self.held.pop(key, None)
        if token is None:
            return
        p = self.path(key)
        info = _read(p)
        if info is not None and info.get("token") == token:
            p.unlink(missing_ok=True)

    def release_all(self) -> None:
        for key in list(self.held):
            try:
                self.release(key)
            except OSError:
                pass
        self._stop.set()
        _remove_if_empty(self.dir)

    def held_elsewhere(self, key: str) -> bool:
        """True while another run holds a live claim on ``key``."""
        if key in self.held:
            return False
        p = self.path(key)
        return p.exists() and not self._expired(p)

    def sweep_expired(self) -> int:
        """Delete the expired claims in this folder (and leftovers of take-overs); how many were removed."""
        if not self.dir.is_dir():
            return 0
        n = 0
        for p in list(self.dir.glob(f"*{_SUFFIX}")) + list(self.dir.glob(".*.expired")):
            if p.suffix == ".expired" or self._expired(p):
                p.unlink(missing_ok=True)
                n += 1
        _remove_if_empty(self.dir)
        return n

    # -- expiry ----------------------------------------------------------------------------------------------------

    def _expired(self, p: Path) -> bool:
        try:
            age = time.time() - p.stat().st_mtime
        except FileNotFoundError:
            return True
        info = _read(p)
        if info is None:  # being written right now, or damaged: by its age only
            return age > self.ttl
        if info.get("host") == self.host and isinstance(info.get("pid"), int):
            return not _alive(info["pid"], info.get("start"))
        return age > self.ttl

    def _take_over(self, p: Path) -> None:
        """Remove an expired claim so that a fresh one can be created: renamed first, so that of two runs taking
        it over, one gets it; a fresh claim moved by mistake (created between the check and the rename) is put
        back."""
        before = _read(p)
        tomb = p.with_name(f".{p.name}.{secrets.token_hex(6)}.expired")
        try:
            os.rename(p, tomb)
        except FileNotFoundError:
            return
        moved = _read(tomb)
        if before is not None and moved is not None and moved.get("token") != before.get("token"):
            try:
                os.link(tomb, p)  # not ours to remove: back in place unless someone else claimed meanwhile
            except OSError:
                pass
        tomb.unlink(missing_ok=True)

    # -- heartbeat -------------------------------------------------------------------------------------------------

    def _start_heartbeat(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._beat, name="genesel-claims-heartbeat", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            with self._lock:
                keys = list(self.held)
            for k in keys:
                try:
                    os.utime(self.path(k))
                except OSError:
                    pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release_all()


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # not empty (another run's claims), or gone
        pass


def _read(p: Path):
    try:
        info = json.loads(p.read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return info if isinstance(info, dict) else None


class WorkQueue:
    """The cells this run still has to compute, handed out as the backends ask for them.

    ``todo``: {key: cell}, in order. ``claims``: a :class:`ClaimBook` (None: no sharing, every cell is this run's).
    ``lookup(key)``: (hit, result, seconds) from the cache (a cell another run finished); ``on_cached(key, result,
    seconds)`` is called for such a cell, which this run then does not compute. :meth:`claim` decides one cell,
    :meth:`take` hands out the next one this run computes, :meth:`wait` blocks while the rest are another run's.
    """

    def __init__(self, todo: dict, claims: ClaimBook | None = None, lookup=None, on_cached=None, *,
                 poll: float = 1.0, max_poll: float = 5.0):
        self.cells = dict(todo)
        self.order = deque(todo)
        self.ready: deque = deque()  # claimed after a wait: handed out first
        self.deferred: list = []  # claimed by another run
        self.claims, self.lookup, self.on_cached = claims, lookup, on_cached
        self.poll, self.max_poll = poll, max_poll

    def __len__(self):
        return len(self.order) + len(self.ready) + len(self.deferred)

    def _done_elsewhere(self, key) -> bool:
        if self.lookup is None:
            return False
        hit, val, secs = self.lookup(key)
        if hit:
            if self.claims is not None:
                self.claims.release(key)
            if self.on_cached is not None:
                self.on_cached(key, val, secs)
        return hit

    def claim(self, key) -> bool:
        """True: this run computes ``key`` now. False: another run finished it (``on_cached`` was called) or holds
        it (deferred: :meth:`wait` comes back to it)."""
        if self.claims is None:
            return True
        if key in self.claims.held:
            return True
        if self._done_elsewhere(key):
            return False
        if not self.claims.acquire(key):
            self.deferred.append(key)
            return False
        if self._done_elsewhere(key):  # finished and released between the look and the claim
            return False
        return True

    def take(self):
        """(key, cell) of the next cell this run computes, or None when none is left that is not another run's."""
        while self.ready:
            key = self.ready.popleft()
            return key, self.cells[key]
        while self.order:
            key = self.order.popleft()
            if self.claim(key):
                return key, self.cells[key]
        return None

    def release(self, key) -> None:
        if self.claims is not None:
            self.claims.release(key)

    def wait(self) -> list:
        """Block until a cell another run held is this run's to compute (return those keys, also handed out by
        :meth:`take`) or every such cell was read from the cache (return [])."""
        delay = self.poll
        while self.deferred:
            keys, self.deferred = self.deferred, []
            mine = [k for k in keys if self.claim(k)]  # a deferred key that is still held goes back to deferred
            if mine:
                self.ready.extend(mine)
                return mine
            if not self.deferred:
                return []
            time.sleep(delay)
            delay = min(delay * 1.5, self.max_poll)
        return []
