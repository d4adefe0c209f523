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
- A record is checked before anything in it is loaded, so that a crafted file can cost neither memory nor time:
  the zip archive's central directory first (exactly the expected member names, stored or deflated, their declared
  sizes together at most :data:`MAX_EXPANSION` times the file's size plus :data:`SLACK` bytes: a deflate bomb is
  refused by its declared expansion, and reading never goes past a member's declared size, so a directory that
  lies about it ends in a CRC error, not in memory), then each member's ``.npy`` header (shape and dtype, parsed
  without allocating: no object or structured dtype, and shape times item size must be exactly the bytes that
  follow the header), then the MAC over the members' bytes; only then are arrays made (views of bytes already
  read) and the JSON parsed. Whatever goes wrong on reading (including ``MemoryError``) is a
  :class:`RecordError`: the caller names the file, deletes it and recomputes, never fails every run.

Anyone who holds the key can write records the cache will serve: keep the key private, like an SSH key.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import math
import os
import secrets
import zipfile
from pathlib import Path

import numpy as np

from genesel._core.io import atomic_create, atomic_write

__all__ = ["RecordError", "ENV_KEY", "key_path", "cache_secret", "write_record", "read_record", "encode", "decode"]

ENV_KEY = "GENESEL_CACHE_KEY"
_FORMAT = b"genesel-record-3"
_RECORD, _MAC = "record", "mac"  # the two fixed members; arrays are a0, a1, ...
#: A record's members, once read, may hold at most this many times the file's size (plus SLACK bytes).
MAX_EXPANSION = 4
SLACK = 1 << 16


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
    """Create the key file atomically: written whole to a temporary file, flushed to disk, then linked into place
    (``os.link`` fails if the name exists), so a process starting at the same moment sees no file or the whole key,
    never an empty one, and all of them use the key of the first to link."""
    secret = secrets.token_hex(32).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        created = atomic_create(path, secret + b"\n", mode=0o600)
    except OSError as exc:
        raise OSError(f"cannot create the cache key file {path} ({exc.strerror}); make its folder writable or set "
                      f"{ENV_KEY} to a secret of at least 16 characters") from None
    return secret if created else path.read_bytes().strip()


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


def _npy(a) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.asarray(a, order="C"), allow_pickle=False)  # C order: 0-d arrays stay 0-d
    return buf.getvalue()


def _mac(secret: bytes, kind: str, members) -> bytes:
    """HMAC-SHA256 over the format, the kind and every member (name, length, the ``.npy`` file's bytes), in order."""
    m = hmac.new(secret, digestmod=hashlib.sha256)
    m.update(_FORMAT + b"\0" + kind.encode() + b"\0")
    for name, data in members:
        head = name.encode()
        m.update(len(head).to_bytes(8, "little") + head + len(data).to_bytes(8, "little"))
        m.update(data)
    return m.digest()


def write_record(path, obj, *, kind: str) -> Path:
    """Write ``obj`` (plain data) as an authenticated record of ``kind`` at ``path``, atomically."""
    tree, arrays = encode(obj)
    body = json.dumps({"format": _FORMAT.decode(), "kind": kind, "data": tree}, separators=(",", ":"),
                      allow_nan=False).encode()  # key order kept: a result's columns come back in their order
    members = [(f"{_RECORD}.npy", _npy(np.frombuffer(body, dtype=np.uint8)))]
    members += [(f"a{i}.npy", _npy(a)) for i, a in enumerate(arrays)]
    mac = _mac(cache_secret(), kind, members)
    members.append((f"{_MAC}.npy", _npy(np.frombuffer(mac, dtype=np.uint8))))

    def write(tmp):
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as zf:
            for name, data in members:
                zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
            zf.comment = _FORMAT

    return atomic_write(path, write)


def read_record(path, *, kind: str):
    """The data of the record at ``path``; raises :class:`RecordError` (the reason) if it is not a record of
    ``kind`` that someone holding this cache's key wrote, or cannot be read for any reason (see the module doc),
    or ``FileNotFoundError``."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            return _read(fh, kind)
    except (RecordError, FileNotFoundError):
        raise
    except MemoryError:
        raise RecordError("cannot be read (it needs more memory than this machine has to spare)") from None
    except Exception as exc:  # noqa: BLE001 - whatever a damaged or crafted file provokes: never fail every run
        raise RecordError(f"cannot be read ({type(exc).__name__}: {exc})") from None


def _read(fh, kind: str):
    size = os.fstat(fh.fileno()).st_size
    if fh.read(4) != b"PK\x03\x04":
        raise RecordError("not a genesel record (an older cache format, or another kind of file)")
    fh.seek(0)
    try:
        zf = zipfile.ZipFile(fh)
    except zipfile.BadZipFile as exc:
        raise RecordError(f"not a readable archive ({exc})") from None
    with zf:
        if zf.comment != _FORMAT:
            raise RecordError(f"written in another genesel format ({zf.comment[:40]!r}, this one reads "
                              f"{_FORMAT.decode()}): an older cache; recomputed once")
        infos = zf.infolist()
        names = [i.filename for i in infos]
        n_arrays = len(names) - 2
        expected = [f"{_RECORD}.npy"] + [f"a{i}.npy" for i in range(n_arrays)] + [f"{_MAC}.npy"]
        if n_arrays < 0 or sorted(names) != sorted(expected):
            raise RecordError(f"not a genesel record (unexpected members {sorted(names)[:6]})")
        declared = 0
        for i in infos:
            if i.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise RecordError(f"not a genesel record (member {i.filename} compressed with method "
                                  f"{i.compress_type})")
            if i.compress_size > size:
                raise RecordError(f"damaged (member {i.filename} claims {i.compress_size} bytes in a file of {size})")
            declared += i.file_size
        limit = MAX_EXPANSION * size + SLACK
        if declared > limit:
            raise RecordError(f"refused unread: its members would take {declared:,} bytes, more than {MAX_EXPANSION} "
                              f"times the file's {size:,} (a compression bomb, or damaged)")
        by_name = {i.filename: i for i in infos}
        raw = {}
        for name in expected:
            info = by_name[name]
            buf = bytearray(info.file_size)
            with zf.open(info) as member:
                got = member.readinto(buf)
                if got != info.file_size or member.read(1):
                    raise RecordError(f"damaged (member {name} is not {info.file_size} bytes long)")
            raw[name] = buf
    heads = {name: _npy_header(name, buf) for name, buf in raw.items()}
    mac_shape, _, mac_dtype, mac_off = heads[f"{_MAC}.npy"]
    if mac_dtype != np.uint8 or mac_shape != (32,):
        raise RecordError("not a genesel record (malformed MAC member)")
    members = [(name, raw[name]) for name in expected[:-1]]
    mac = bytes(raw[f"{_MAC}.npy"][mac_off:])
    if not hmac.compare_digest(mac, _mac(cache_secret(), kind, members)):
        raise RecordError("not written with this cache's key (forged, changed after it was written, written by "
                          f"another user or machine with another key, or of another kind than {kind!r})")
    shape, _, dtype, off = heads[f"{_RECORD}.npy"]
    if dtype != np.uint8 or len(shape) != 1:
        raise RecordError("not a genesel record (malformed record member)")
    body = bytes(raw[f"{_RECORD}.npy"][off:])
    arrays = []
    for name in expected[1:-1]:
        shape, fortran, dtype, off = heads[name]
        a = np.frombuffer(raw[name], dtype=dtype, count=math.prod(shape), offset=off)
        arrays.append(a.reshape(shape, order="F" if fortran else "C"))
    try:
        rec = json.loads(body)
    except ValueError as exc:  # authenticated yet unreadable: a genesel bug, still never served
        raise RecordError(f"authenticated but not valid JSON ({exc})") from None
    if not isinstance(rec, dict) or rec.get("format") != _FORMAT.decode() or rec.get("kind") != kind:
        raise RecordError(f"a record of another format or kind ({rec.get('format')!r}, {rec.get('kind')!r})")
    return decode(rec["data"], arrays)


def _npy_header(name: str, buf: bytearray):
    """(shape, fortran order, dtype, offset of the data) of an ``.npy`` member, checked against its size before
    anything is allocated: plain numeric or string dtypes only, and shape x item size = the bytes after the header."""
    bio = io.BytesIO(memoryview(buf)[:min(len(buf), 70000)])
    try:
        version = np.lib.format.read_magic(bio)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(bio)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(bio)
        else:
            raise ValueError(f"npy version {version}")
    except (ValueError, SyntaxError, TypeError, EOFError) as exc:
        raise RecordError(f"damaged (member {name}: not an .npy array: {exc})") from None
    if dtype.hasobject or dtype.kind == "V" or dtype.itemsize == 0 and dtype.kind not in "US":
        raise RecordError(f"not a genesel record (member {name} has dtype {dtype}, which needs pickle or is "
                          "structured)")
    if not all(isinstance(d, int) and d >= 0 for d in shape):
        raise RecordError(f"damaged (member {name}: shape {shape})")
    need = math.prod(shape) * dtype.itemsize
    have = len(buf) - bio.tell()
    if need != have:
        raise RecordError(f"damaged or crafted (member {name} declares shape {shape} of {dtype}: {need:,} bytes, "
                          f"but holds {have:,})")
    return tuple(shape), bool(fortran), dtype, bio.tell()
