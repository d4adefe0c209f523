"""Authenticated records of plain data: the one format of every cache genesel keeps (grid cells, parsed data sets).

Trust model. A cache travels: it is copied between machines, shared by the workers of a cluster, unpacked from an
archive. Reading it must never run code, and it must never serve a number that genesel did not compute. So:

- A record holds data only: one NumPy ``.npz`` archive written and read with ``allow_pickle=False``, holding the
  record's structure as JSON (a UTF-8 byte array) and its arrays as plain numeric or string arrays. Python
  containers, numbers, strings, ``None``, tuples, NumPy scalars and arrays round-trip exactly (floats through their
  shortest ``repr``, NaN and infinities included); anything else (an object array, a class instance, a function) is
  refused when the record is *written*, with a ``TypeError`` naming the value's type. Readers accept exactly this
  layout and nothing else.
- Every record carries an HMAC-SHA256 of its content, computed with a secret key kept outside the cache: the
  environment variable ``GENESEL_CACHE_KEY`` (for a cache shared by the machines of a cluster: the same secret on
  every machine), else a key file in the user's configuration folder (``$XDG_CONFIG_HOME/genesel/cache-key``, by
  default ``~/.config/genesel/cache-key``), created with owner-only permissions on first use. A checksum proves
  nothing (whoever writes the file writes the checksum); the MAC proves that someone holding the key wrote it. A
  record that fails the check, was damaged, or was written in an older format is reported by the caller and
  recomputed, never served.
- The MAC covers a *kind* (``"cell"``, ``"parsed"``) and the caller checks the record's own identity (a cell's key,
  a data set's name and source digest), so a genuine record copied under another name is refused as well.

Anyone who holds the key can write records the cache will serve: keep the key private, like an SSH key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import zipfile
from pathlib import Path

import numpy as np

from genesel._core.io import atomic_write

__all__ = ["RecordError", "ENV_KEY", "key_path", "cache_secret", "write_record", "read_record", "encode", "decode"]

ENV_KEY = "GENESEL_CACHE_KEY"
_FORMAT = b"genesel-record-2"
_RECORD, _MAC = "record", "mac"  # the two fixed members; arrays are a0, a1, ...


class RecordError(Exception):
    """A file is not a valid record of this cache (damaged, forged, of another format or another kind); the
    message says which. Callers delete it and recompute."""


# ---------------------------------------------------------------------------------------------------------------
# the key
# ---------------------------------------------------------------------------------------------------------------


def key_path() -> Path:
    """Where the per-user key file lives: ``$XDG_CONFIG_HOME/genesel/cache-key`` (default ``~/.config``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "genesel" / "cache-key"


_SECRET_CACHE: dict = {}


def cache_secret() -> bytes:
    """The secret that authenticates cache records: ``$GENESEL_CACHE_KEY`` (any string of at least 16
    characters) or the per-user key file, created (32 random bytes, hex, mode 0600) on first use."""
    env = os.environ.get(ENV_KEY)
    if env is not None:
        if len(env) < 16:
            raise ValueError(f"{ENV_KEY} must hold at least 16 characters (a random secret shared by the machines "
                             "that share the cache, e.g. the output of `python -c 'import secrets; "
                             "print(secrets.token_hex(32))'`)")
        return env.encode()
    path = key_path()
    cached = _SECRET_CACHE.get(str(path))
    if cached is not None:
        return cached
    try:
        secret = path.read_bytes().strip()
    except FileNotFoundError:
        secret = _create_key_file(path)
    if len(secret) < 32:
        raise ValueError(f"the cache key file {path} holds {len(secret)} bytes; delete it (a new one is created on "
                         f"first use, and the cache is recomputed once) or set {ENV_KEY}")
    _SECRET_CACHE[str(path)] = secret
    return secret


def _create_key_file(path: Path) -> bytes:
    secret = secrets.token_hex(32).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process created it meanwhile: use that one
        return path.read_bytes().strip()
    except OSError as exc:
        raise OSError(f"cannot create the cache key file {path} ({exc.strerror}); make its folder writable or set "
                      f"{ENV_KEY} to a secret of at least 16 characters") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret + b"\n")
    return secret


# ---------------------------------------------------------------------------------------------------------------
# plain data <-> JSON + arrays
# ---------------------------------------------------------------------------------------------------------------

_TAGS = ("__array__", "__scalar__", "__tuple__", "__dict__", "__float__")


def encode(obj):
    """(JSON-able structure, list of arrays) for ``obj``; raises ``TypeError`` for anything that is not plain data."""
    arrays: list = []

    def enc(v):
        if isinstance(v, np.generic):  # before float: np.float64 is a float subclass, and must stay a np.float64
            return {"__scalar__": _add(arrays, np.asarray(v))}
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return int(v)
        if isinstance(v, float):
            return float(v) if math.isfinite(v) else {"__float__": repr(float(v))}
        if isinstance(v, np.ndarray):
            return {"__array__": _add(arrays, v)}
        if isinstance(v, tuple):
            return {"__tuple__": [enc(x) for x in v]}
        if isinstance(v, list):
            return [enc(x) for x in v]
        if isinstance(v, dict):
            if all(isinstance(k, str) and k not in _TAGS for k in v):
                return {k: enc(x) for k, x in v.items()}
            return {"__dict__": [[enc(k), enc(x)] for k, x in v.items()]}
        raise TypeError(f"cannot store a {type(v).__module__}.{type(v).__qualname__} in a cache record: results "
                        "must be plain data (dicts, lists, tuples, numbers, strings, None, NumPy arrays and scalars)")

    return enc(obj), arrays


def _add(arrays, a):
    if a.dtype.hasobject or a.dtype.kind == "V":
        raise TypeError(f"cannot store a NumPy array of dtype {a.dtype} in a cache record (object arrays need "
                        "pickle): convert it to numbers or strings")
    arrays.append(a)
    return len(arrays) - 1


def decode(tree, arrays):
    """The inverse of :func:`encode`."""

    def dec(v):
        if isinstance(v, list):
            return [dec(x) for x in v]
        if not isinstance(v, dict):
            return v
        if len(v) == 1:
            (tag, x), = v.items()
            if tag == "__array__":
                return arrays[x]
            if tag == "__scalar__":
                return arrays[x][()]
            if tag == "__tuple__":
                return tuple(dec(e) for e in x)
            if tag == "__dict__":
                return {_hashable(dec(k)): dec(e) for k, e in x}
            if tag == "__float__":
                return float(x)
        return {k: dec(x) for k, x in v.items()}

    return dec(tree)


def _hashable(k):
    return tuple(_hashable(e) for e in k) if isinstance(k, list) else k


# ---------------------------------------------------------------------------------------------------------------
# records on disk
# ---------------------------------------------------------------------------------------------------------------


def _mac(secret: bytes, kind: str, body: bytes, arrays) -> bytes:
    m = hmac.new(secret, digestmod=hashlib.sha256)
    m.update(_FORMAT + b"\0" + kind.encode() + b"\0")
    m.update(len(body).to_bytes(8, "little") + body)
    for a in arrays:
        a = np.asarray(a, order="C")  # not ascontiguousarray: it turns 0-d arrays into 1-d ones
        head = f"{a.dtype.str}|{','.join(map(str, a.shape))}".encode()
        m.update(len(head).to_bytes(8, "little") + head)
        data = a.tobytes()
        m.update(len(data).to_bytes(8, "little") + data)
    return m.digest()


def write_record(path, obj, *, kind: str) -> Path:
    """Write ``obj`` (plain data) as an authenticated record of ``kind`` at ``path``, atomically."""
    tree, arrays = encode(obj)
    body = json.dumps({"format": _FORMAT.decode(), "kind": kind, "data": tree}, separators=(",", ":"),
                      allow_nan=False).encode()  # key order kept: a result's columns come back in their order
    mac = _mac(cache_secret(), kind, body, arrays)
    members = {_RECORD: np.frombuffer(body, dtype=np.uint8), _MAC: np.frombuffer(mac, dtype=np.uint8)}
    members.update({f"a{i}": np.asarray(a, order="C") for i, a in enumerate(arrays)})

    def write(tmp):
        with open(tmp, "wb") as fh:  # a file object: np.savez would append ".npz" to a bare name
            np.savez(fh, **members)

    return atomic_write(path, write)


def read_record(path, *, kind: str):
    """The data of the record at ``path``; raises :class:`RecordError` (the reason) if it is not a record of
    ``kind`` that someone holding this cache's key wrote, or ``FileNotFoundError``."""
    path = Path(path)
    with open(path, "rb") as fh:
        head = fh.read(4)
    if head != b"PK\x03\x04":
        raise RecordError("not a genesel record (an older cache format, or another kind of file)")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
        expected = {f"{_RECORD}.npy", f"{_MAC}.npy"}
        n_arrays = len(names) - 2
        if not expected <= names or names != expected | {f"a{i}.npy" for i in range(n_arrays)}:
            raise RecordError(f"not a genesel record (unexpected members {sorted(names)[:6]})")
        with np.load(path, allow_pickle=False) as z:  # never unpickles: object arrays raise
            body = z[_RECORD]
            mac = z[_MAC]
            arrays = [z[f"a{i}"] for i in range(n_arrays)]
    except RecordError:
        raise
    except (ValueError, OSError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise RecordError(f"cannot be read ({type(exc).__name__}: {exc})") from None
    if body.dtype != np.uint8 or mac.dtype != np.uint8 or body.ndim != 1:
        raise RecordError("not a genesel record (malformed header arrays)")
    body = body.tobytes()
    if not hmac.compare_digest(mac.tobytes(), _mac(cache_secret(), kind, body, arrays)):
        raise RecordError("not written with this cache's key (forged, changed after it was written, written by "
                          f"another user or machine with another key, or of another kind than {kind!r})")
    try:
        rec = json.loads(body)
    except ValueError as exc:  # authenticated yet unreadable: a genesel bug, still never served
        raise RecordError(f"authenticated but not valid JSON ({exc})") from None
    if not isinstance(rec, dict) or rec.get("format") != _FORMAT.decode() or rec.get("kind") != kind:
        raise RecordError(f"a record of another format or kind ({rec.get('format')!r}, {rec.get('kind')!r})")
    return decode(rec["data"], arrays)

