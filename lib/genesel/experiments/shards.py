"""Cell shards: the finished cells of a grid in one portable file, to carry a long run across machines.

A full run of the leaderboard takes days of CPU on 2 cores and is computed in pieces (:func:`run_grid` resumes from
its cache). The cache (:mod:`genesel.experiments.cache`) lives on one machine and is authenticated by that machine's
key: when the work moves to a machine that does not keep the cache (a new working session, a laptop after a cluster,
a colleague), the finished cells would be computed again. A *shard* carries them:

- :func:`export_cells` reads the cells of ``func`` among ``cells`` that this cache holds (each record checked with
  this cache's key, as a grid reads it) and writes them to one file: the records' plain data (the cache record's own
  encoding, :func:`genesel._core.store.encode`, arrays as typed lists: integers and floats round-trip exactly) as
  JSON, compressed with xz (a finished cell costs about 0.2-1 KB; a cache record 1.5-66 KB, mostly zip overhead and
  the full gene lists of the all-genes methods, which xz shrinks to almost nothing), with the SHA-256 of that JSON,
  and when each cell finished;
- :func:`import_shard` reads a shard and writes each of its cells into a cache under that cache's own key, but only
  when the cell's key, computed anew by *this* code (:func:`genesel.experiments.grid.cell_key`), equals the key it
  was exported under: a cell whose code, parameters or genesel version changed since is *stale* and is left out
  (its grid computes it again), never served. An imported cell keeps the time it finished (its record's modification
  time, which :mod:`genesel.leaderboard.status` reads as "when the cell finished"), so the cells of an import are not
  taken for a burst of work finished in the last hour; a shard written before shards carried the time (no
  ``finished``) gives its cells the time 0, "long ago".

Trust. The SHA-256 detects a damaged file, not a forged one: importing a shard trusts where it came from, as running
code does (a shard committed to the repository is as trusted as the repository). Reading one runs no code: JSON and
arrays of numbers and strings only (no object dtype), decompressed with a bound (:data:`MAX_BYTES`), so a crafted
file costs neither memory nor time beyond it; whatever is wrong with it is a :class:`ShardError` naming the file.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import lzma
import os
from pathlib import Path

import numpy as np

from genesel._core.io import atomic_write
from genesel._core.store import decode, encode
from genesel.experiments.cache import func_folder, read_cell, record_path, write_cell
from genesel.experiments.grid import _func_name as _qualified  # the name a grid writes into its records

__all__ = ["ShardError", "export_cells", "export_cached", "cached_functions", "grid_function", "names_no_file",
           "import_shard", "read_shard", "MAX_BYTES", "FORMAT"]

FORMAT = "genesel-cells-1"
#: A shard's JSON may hold at most this many bytes once decompressed (1 GiB; a full data set's leaderboard cells
#: are about 30 MB of JSON).
MAX_BYTES = 1 << 30
_KINDS = "biufU"  # array dtypes a shard may hold: bool, integers, floats, unicode strings


class ShardError(ValueError):
    """A shard that cannot be read: damaged, not a shard, of another format, or holding something other than plain
    data. The message names the file and what is wrong."""


def grid_function(name: str):
    """The genesel function named ``module.qualname`` (only genesel's own: importing a shard imports no other code)."""
    module, _, qual = name.rpartition(".")
    if not module.startswith("genesel.") or not qual.isidentifier():
        raise ShardError(f"a shard may only hold cells of genesel's own grid functions, not {name!r}")
    try:
        return getattr(importlib.import_module(module), qual)
    except (ImportError, AttributeError) as exc:
        raise ShardError(f"no grid function {name!r} in this genesel ({exc})") from None


def _plain(obj):
    tree, arrays = encode(obj)
    return {"tree": tree, "arrays": [{"dtype": a.dtype.str, "shape": list(a.shape), "data": a.ravel().tolist()}
                                     for a in arrays]}


def _unplain(entry, where: str):
    arrays = []
    for a in entry["arrays"]:
        dtype = np.dtype(a["dtype"])
        if dtype.kind not in _KINDS:
            raise ShardError(f"{where}: an array of dtype {dtype} (a shard holds numbers and strings only)")
        arrays.append(np.asarray(a["data"], dtype=dtype).reshape(a["shape"]))
    return decode(entry["tree"], arrays)


def export_cells(cache_dir, func, cells, path, *, note: str = "") -> dict:
    """Write the cells of ``func`` among ``cells`` (dicts of its parameters) that ``cache_dir`` holds to the shard
    ``path`` (atomically; sorted by key, so the same cells give the same file). Returns ``{"exported", "missing"}``.
    Records are read as a grid reads them (:func:`genesel.experiments.grid.cached_records`: checked with this
    cache's key; one that fails is left out)."""
    from genesel._version import __version__
    from genesel.experiments.grid import cached_records, cell_keys

    keys = dict(zip(cell_keys(func, cells), cells))
    found = cached_records(func, list(keys), Path(cache_dir))
    entries = [{"key": k, "cell": keys[k], "seconds": r.get("seconds"), "cpu_seconds": r.get("cpu_seconds"),
                "finished": round(float(r["written"]), 3), "result": _plain(r["result"])}
               for k, r in sorted(found.items())]
    # NaN and infinities inside arrays are written as JSON's NaN / Infinity tokens (Python's json reads them back).
    # Key order kept, as the cache keeps it: a result's dict comes back with its keys in their order (its columns in
    # a grid's frame). Shards written before 2026-11-30 sorted the keys (the columns of their cells come back sorted).
    body = json.dumps({"func": _qualified(func), "version": __version__, "note": note, "cells": entries},
                      separators=(",", ":")).encode()
    head = json.dumps({"format": FORMAT, "sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}).encode()
    blob = lzma.compress(head + b"\n" + body, preset=9)
    atomic_write(Path(path), lambda tmp: Path(tmp).write_bytes(blob))
    return {"exported": len(entries), "missing": len(keys) - len(entries)}


def _keep_finish_time(path: Path, finished) -> None:
    """Give an imported record the time its cell finished (0 when the shard does not carry it)."""
    try:
        t = float(finished) if finished is not None else 0.0
    except (TypeError, ValueError):
        t = 0.0
    t = t if np.isfinite(t) and t >= 0 else 0.0
    os.utime(path, (t, t))


def cached_functions(cache_dir) -> list[str]:
    """The names (``module.qualname``) of genesel's grid functions that have a folder of cells in ``cache_dir``."""
    out = []
    for folder in sorted(p for p in Path(cache_dir).glob("genesel.*") if p.is_dir()):
        try:
            func = grid_function(folder.name)
        except ShardError:
            continue  # a folder of another layout, or of a function this genesel no longer has
        if func_folder(Path(cache_dir), func).name == folder.name:
            out.append(folder.name)
    return out


def export_cached(cache_dir, func, path, *, note: str = "", keep=None) -> dict:
    """Write every cell of ``func`` that ``cache_dir`` holds and that this code would compute under the key it was
    stored with (cells of older code left out) to the shard ``path``, as :func:`export_cells` does for a given list
    of cells: for grids whose cells only their notebook knows (the papers' notebooks). ``keep(cell)``: which cells
    to carry (default all). Returns ``{"exported", "missing", "stale", "skipped"}`` (stale: records of other code,
    parameters or version; skipped: cells ``keep`` turned down; neither exported)."""
    from genesel._core.store import RecordError, read_record
    from genesel.experiments.grid import cell_keys

    stored, stale, skipped, cells = [], 0, 0, []  # (key, cell) of each readable record, its result not kept
    for p in sorted(func_folder(Path(cache_dir), func).glob("*.rec")):
        if p.name == "costs.rec":
            continue
        try:
            rec = read_record(p, kind="cell")
        except (RecordError, OSError, MemoryError, ValueError):
            continue  # a grid reports and recomputes it when it runs
        if isinstance(rec, dict) and isinstance(rec.get("cell"), dict):
            stored.append((rec.get("key"), rec["cell"]))
        else:
            stale += 1
    for (key, cell), own in zip(stored, cell_keys(func, [c for _, c in stored])):
        if key != own:
            stale += 1
        elif keep is not None and not keep(cell):
            skipped += 1
        else:
            cells.append(cell)
    return {**export_cells(cache_dir, func, cells, path, note=note), "stale": stale, "skipped": skipped}


def names_no_file(cell) -> bool:
    """Whether no value of ``cell`` (nested lists and dicts included) refers to a file of this machine (a user's
    study: its path would be written into the shard, and a shard may be committed)."""
    from genesel.dataref import is_file_reference

    def walk(v):
        if isinstance(v, dict):
            return all(walk(x) for x in v.values())
        if isinstance(v, (list, tuple)):
            return all(walk(x) for x in v)
        return not (isinstance(v, str) and is_file_reference(v))

    return walk(cell)


def read_shard(path, *, results: bool = True) -> dict:
    """The shard at ``path`` as ``{"func", "version", "note", "cells": [{"key", "cell", "seconds", "cpu_seconds",
    "finished", "result"}]}`` (``finished``, epoch seconds, is missing from shards written before it was carried);
    raises :class:`ShardError` naming the file and the fault. ``results=False`` checks the file (bound, format,
    SHA-256) and leaves each cell's result in its stored form, undecoded."""
    path = Path(path)
    try:
        dec = lzma.LZMADecompressor()
        raw = dec.decompress(path.read_bytes(), max_length=MAX_BYTES + 4096)
    except lzma.LZMAError as exc:
        raise ShardError(f"{path}: not an xz-compressed cell shard ({exc})") from None
    if not dec.eof:
        raise ShardError(f"{path}: larger than {MAX_BYTES} bytes once decompressed, or cut short")
    head, _, body = raw.partition(b"\n")
    try:
        meta = json.loads(head)
    except ValueError:
        raise ShardError(f"{path}: not a cell shard (no header)") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ShardError(f"{path}: format {meta.get('format') if isinstance(meta, dict) else meta!r}, expected "
                         f"{FORMAT!r}")
    if hashlib.sha256(body).hexdigest() != meta.get("sha256"):
        raise ShardError(f"{path}: damaged (its content does not match its SHA-256)")
    data = json.loads(body)
    if results:
        for i, e in enumerate(data["cells"]):
            e["result"] = _unplain(e["result"], f"{path}, cell {i}")
    return data


def import_shard(path, cache_dir, func=None) -> dict:
    """Write the cells of the shard ``path`` into ``cache_dir`` under its key, each only if this code gives it the
    key it was exported under. ``func``: the grid function (default: the one the shard names, which must be
    genesel's own); a function of another name is refused. Returns ``{"imported", "present", "stale", "func"}``
    (present: already in the cache; stale: computed by other code, parameters or version, left out)."""
    from genesel.experiments.cache import check_cache_key
    from genesel.experiments.grid import cell_key

    data = read_shard(path)
    if func is None:
        func = grid_function(data["func"])
    elif _qualified(func) != data["func"]:
        raise ShardError(f"{path}: holds cells of {data['func']}, not of {_qualified(func)}")
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    check_cache_key(cache_dir, write=True)
    folder = func_folder(cache_dir, func)
    folder.mkdir(parents=True, exist_ok=True)
    counts = {"imported": 0, "present": 0, "stale": 0, "func": data["func"]}
    for e in data["cells"]:
        key = cell_key(func, e["cell"])
        if key != e["key"]:
            counts["stale"] += 1
        elif read_cell(folder, key)[0]:
            counts["present"] += 1
        else:
            write_cell(folder, key, _qualified(func), e["cell"], e["result"], e["seconds"], e.get("cpu_seconds"))
            _keep_finish_time(record_path(folder, key), e.get("finished"))
            counts["imported"] += 1
    return counts
