"""Crafted and concurrent cases of genesel._core.store (issue 42): a record is checked before it is loaded (a header
declaring 10**12 elements, a deflate bomb: refused within 1 GB, named, removed, recomputed, for grid cells and
parsed data sets alike), and the key file is created atomically (12 processes starting at once agree on one key)."""

import io
import json
import multiprocessing as mp
import os
import struct
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from genesel._core import store
from genesel._core.io import CacheIntegrityWarning
from genesel._core.store import RecordError, read_record, write_record
from genesel.experiments import run_grid

ROOT = Path(__file__).resolve().parents[1]


def _npy_header(shape, dtype="<f8") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue()


def _npy(a) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


def _zip(path, entries, comment=store._FORMAT):
    """Write a zip archive by hand: ``entries`` = [(name, deflated?, crc, stored bytes, uncompressed size)], so that
    a member can hold a pre-compressed (bomb) stream."""
    out, central = bytearray(), bytearray()
    for name, deflated, crc, data, usize in entries:
        method = 8 if deflated else 0
        off = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, len(data), usize, len(name), 0)
        out += name.encode() + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc, len(data), usize,
                               len(name), 0, 0, 0, 0, 0, off)
        central += name.encode()
    cd_off = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd_off, len(comment))
    out += comment
    Path(path).write_bytes(bytes(out))


def _stored(name, data):
    return (name, False, zlib.crc32(data), data, len(data))


def huge_shape_record(path):
    """0.7 KB: a0.npy's header declares (10**12,) float64 (7.3 TiB) over 8 bytes of data."""
    body = json.dumps({"format": store._FORMAT.decode(), "kind": "cell",
                       "data": {"key": "x", "result": {"__array__": 0}}}).encode()
    _zip(path, [_stored("record.npy", _npy(np.frombuffer(body, np.uint8))),
                _stored("a0.npy", _npy_header((10 ** 12,)) + bytes(8)),
                _stored("mac.npy", _npy(np.zeros(32, np.uint8)))])


def deflate_bomb_record(path, n=250_000_000):
    """About 2 MB on disk: a0.npy deflates to ``n`` float64 zeros (2 GB), with a correct CRC."""
    head = _npy_header((n,))
    chunk = bytes(1 << 24)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)  # the state is reset after a full flush: repeatable
    total, crc = n * 8, zlib.crc32(head)
    k, rest = divmod(total, len(chunk))
    parts = [stream] + [block] * k
    for _ in range(k):
        crc = zlib.crc32(chunk, crc)
    tail = bytes(rest)
    parts.append(c.compress(tail) + c.flush())
    crc = zlib.crc32(tail, crc)
    data = b"".join(parts)
    body = b'{"format":"x","kind":"cell","data":null}'
    _zip(path, [_stored("record.npy", _npy(np.frombuffer(body, np.uint8))),
                ("a0.npy", True, crc, data, len(head) + total),
                _stored("mac.npy", _npy(np.zeros(32, np.uint8)))])


_MEASURE = """
import json, resource, sys, time
sys.path[:0] = {paths!r}
# a safety net for the code before the fix (it inflated the whole archive): fail with MemoryError instead of
# taking the shared machine's memory; far above the 1 GB the fixed code is held to
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
from genesel._core.store import RecordError, read_record
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
# the gigabyte itself: the address space after the imports plus 1 GB, so a read that allocates more ends in
# MemoryError (ru_maxrss alone cannot show it: Linux keeps the high-water mark of the forked parent across exec, and
# under pytest-xdist that parent, a test worker, already holds about 1.9 GB)
import os
vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), vm + (1 << 30)))
t0 = time.perf_counter()
try:
    read_record({path!r}, kind="cell")
    outcome = "served"
except RecordError as exc:
    outcome = "RecordError: " + str(exc)
except BaseException as exc:
    outcome = type(exc).__name__ + ": " + str(exc)[:200]
print(json.dumps({{"outcome": outcome, "seconds": time.perf_counter() - t0,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "before_mb": before / 1024}}))
"""


def _measure(path):
    code = _MEASURE.format(paths=[str(ROOT / "lib"), str(ROOT)], path=str(path))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", GENESEL_CACHE_KEY="a key of the test, 0123")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("craft", [huge_shape_record, deflate_bomb_record], ids=["huge-shape", "deflate-bomb"])
def test_a_crafted_record_is_refused_within_a_gigabyte(tmp_path, craft):
    """Measured in a fresh process (peak RSS from getrusage, seconds printed): refused as a RecordError, peak memory
    below 1 GB. Before the fix: MemoryError (7.28 TiB asked) and 5.9 GB / 51 s for the bomb."""
    p = tmp_path / "crafted.rec"
    craft(p)
    got = _measure(p)
    print(f"{craft.__name__}: {p.stat().st_size / 1e6:.2f} MB file -> {got['outcome'][:120]!r}, "
          f"{got['seconds']:.2f} s, peak RSS {got['peak_mb']:.0f} MB (after imports {got['before_mb']:.0f} MB)")
    assert got["outcome"].startswith("RecordError"), got  # a MemoryError here: more than 1 GB was allocated
    assert got["peak_mb"] - got["before_mb"] < 1024, got


def poly_cell(a, b):
    return {"value": a * a + b}


@pytest.mark.parametrize("craft", [huge_shape_record, deflate_bomb_record], ids=["huge-shape", "deflate-bomb"])
def test_a_crafted_cell_record_is_named_removed_and_recomputed(tmp_path, craft):
    cells = [{"a": 1.5, "b": 0.1}, {"a": 2.5, "b": 0.2}]
    ref = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    victim = sorted(p for p in tmp_path.rglob("*.rec") if p.name != "costs.rec")[0]
    if craft is deflate_bomb_record:
        craft(victim, n=2_000_000)  # 16 MB inflated from 16 KB: the same refusal, cheap enough for this process
    else:
        craft(victim)
    with pytest.warns(CacheIntegrityWarning, match=victim.name):
        got = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(ref, got, check_exact=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheIntegrityWarning)
        run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)  # repaired


def test_a_crafted_parsed_data_set_is_named_removed_and_rebuilt(tmp_path, monkeypatch, mirror):
    from genesel import datasets

    monkeypatch.setenv("GENESEL_DATA_DIR", str(tmp_path / "data"))
    datasets._load.cache_clear()
    try:
        ref = datasets.load_dataset("golub")
        parsed = list((tmp_path / "data" / "parsed").glob("golub-*.rec"))
        assert len(parsed) == 1
        huge_shape_record(parsed[0])
        datasets._load.cache_clear()
        with pytest.warns(CacheIntegrityWarning, match=parsed[0].name):
            got = datasets.load_dataset("golub")
        np.testing.assert_array_equal(ref.X, got.X)
        assert read_record(parsed[0], kind="parsed")["name"] == "golub"  # rebuilt
    finally:
        datasets._load.cache_clear()


def test_declared_sizes_bound_what_a_record_may_allocate(tmp_path):
    """The rules one by one on small files: a member inflating to more than MAX_EXPANSION times the file, a
    member whose data is shorter than its header says, an object dtype, a record of the earlier format."""
    p = tmp_path / "r.rec"
    deflate_bomb_record(p, n=200_000)  # 1.6 MB from a file of a few KB
    with pytest.raises(RecordError, match="compression bomb"):
        read_record(p, kind="cell")
    body = _npy(np.frombuffer(b"{}", np.uint8))
    _zip(p, [_stored("record.npy", body), _stored("a0.npy", _npy_header((3,)) + bytes(16)),
             _stored("mac.npy", _npy(np.zeros(32, np.uint8)))])
    with pytest.raises(RecordError, match="declares shape"):
        read_record(p, kind="cell")
    _zip(p, [_stored("record.npy", body), _stored("a0.npy", _npy_header((1,), "|O") + bytes(8)),
             _stored("mac.npy", _npy(np.zeros(32, np.uint8)))])
    with pytest.raises(RecordError, match="pickle"):
        read_record(p, kind="cell")
    with open(p, "wb") as fh:  # the earlier format (np.savez, no marker): recomputed, not "another key"
        np.savez(fh, record=np.frombuffer(b"{}", np.uint8), mac=np.zeros(32, np.uint8))
    with pytest.raises(RecordError, match="another genesel format") as info:
        read_record(p, kind="cell")
    assert "this cache's key" not in str(info.value)
    write_record(p, {"x": np.arange(5.0), "s": np.array(["a", "bb"]), "e": np.zeros((0, 3))}, kind="cell")
    back = read_record(p, kind="cell")
    assert back["x"].flags.writeable and back["e"].shape == (0, 3) and back["s"].tolist() == ["a", "bb"]


# ------------------------------------------------------------------------------------------------ the key file


def _key_in_child(config, barrier, out):
    os.environ.pop(store.ENV_KEY, None)
    os.environ["XDG_CONFIG_HOME"] = config
    store._SECRET_CACHE.clear()
    real_fdopen = os.fdopen

    def slow_fdopen(*args, **kwargs):  # a slow file system (a loaded NFS home): 50 ms between open and write
        fh = real_fdopen(*args, **kwargs)
        time.sleep(0.05)
        return fh

    os.fdopen = slow_fdopen
    barrier.wait()
    try:
        out.put(("ok", store.cache_secret().decode()))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        out.put(("error", f"{type(exc).__name__}: {exc}"))


def test_twelve_processes_starting_at_once_agree_on_one_key(tmp_path):
    """A fresh machine, 12 processes released together by a barrier, ten times: every process gets a key, all get
    the same one, and the file holds it (before the fix, about half read an empty file and were told to delete it)."""
    ctx = mp.get_context("fork")
    outcomes = []
    for trial in range(10):
        config = tmp_path / f"config{trial}"
        barrier, out = ctx.Barrier(12), ctx.Queue()
        procs = [ctx.Process(target=_key_in_child, args=(str(config), barrier, out)) for _ in range(12)]
        for p in procs:
            p.start()
        got = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        errors = [m for k, m in got if k == "error"]
        keys = {m for k, m in got if k == "ok"}
        on_disk = (config / "genesel" / "cache-key").read_bytes().strip().decode()
        outcomes.append((len(errors), len(keys)))
        assert not errors, f"trial {trial}: {len(errors)} of 12 failed: {errors[:2]}"
        assert keys == {on_disk}, f"trial {trial}: {len(keys)} different keys"
        assert (config / "genesel" / "cache-key").stat().st_mode & 0o777 == 0o600
        assert not list((config / "genesel").glob(".*tmp"))
    print(f"12 processes x 10 trials: errors and distinct keys per trial {outcomes}")
