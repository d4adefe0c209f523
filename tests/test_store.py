"""genesel._core.store and the caches built on it: plain data only (no code runs on reading), authenticated by a
key kept outside the cache (nothing forged is served), exact round trips."""

import hashlib
import io
import json
import pickle
import stat
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest

from genesel._core import store
from genesel._core.io import CacheIntegrityWarning
from genesel._core.store import RecordError, read_record, write_record
from genesel.experiments import cell_key, run_grid

from test_grid import _files, list_cell, poly_cell


class _Evil:
    """Unpickling this creates the marker file: proof that code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.fixture()
def own_key(tmp_path, monkeypatch):
    """A private key folder: tests never touch the user's key."""
    monkeypatch.delenv(store.ENV_KEY, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    store._SECRET_CACHE.clear()
    yield tmp_path / "config" / "genesel" / "cache-key"
    store._SECRET_CACHE.clear()


def _members(path):
    """(body bytes, arrays) of a record, read the plain way (the test knows the file is sane)."""
    with zipfile.ZipFile(path) as zf:
        raw = {n: zf.read(n) for n in zf.namelist()}
    body = np.load(io.BytesIO(raw["record.npy"])).tobytes()
    arrays = [np.load(io.BytesIO(raw[f"a{i}.npy"])) for i in range(len(raw) - 2)]
    return body, arrays


def _write_members(path, body, arrays, mac_secret, kind, comment=None):
    members = [("record.npy", store._npy(np.frombuffer(body, np.uint8)))]
    members += [(f"a{i}.npy", store._npy(a)) for i, a in enumerate(arrays)]
    members.append(("mac.npy", store._npy(np.frombuffer(store._mac(mac_secret, kind, members), np.uint8))))
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
        zf.comment = store._FORMAT if comment is None else comment


def _forge(path, change, secret=b"an attacker's own key, not the cache's"):
    """Rewrite a record the way someone without the cache's key can: change its content, recompute the MAC with
    another key, keep the layout."""
    body, arrays = change(*_members(path))
    kind = "cell" if b'"kind":"cell"' in body else "parsed"
    _write_members(path, body, arrays, secret, kind)


# ------------------------------------------------------------------------------------------------ round trips


def test_plain_data_round_trips_exactly(tmp_path, own_key):
    value = {"int": 2 ** 70, "neg_zero": -0.0, "nan": float("nan"), "inf": float("-inf"), "tiny": 5e-324,
             "s": "äöü ✓", "none": None, "flag": True, "tuple": (1, (2.5, "x"), []), "list": [1, [2, [3]]],
             "int_keys": {3: "a", (1, 2): "b"}, "tag_like": {"__array__": 1},
             "np_scalars": [np.float64(0.1), np.int32(-7), np.bool_(True), np.float32(1.5)],
             "arrays": [np.arange(6.0).reshape(2, 3), np.array(["ALL", "AML"]), np.zeros((0, 4)),
                        np.array(3.0), np.array([True, False]), np.arange(10)[::3]]}
    p = tmp_path / "r.rec"
    write_record(p, value, kind="cell")
    back = read_record(p, kind="cell")
    assert back.keys() == value.keys() and list(back) == list(value)  # order kept
    for k in ("int", "s", "none", "flag", "tuple", "list", "int_keys", "tag_like", "tiny"):
        assert back[k] == value[k] and type(back[k]) is type(value[k]), k
    assert np.isnan(back["nan"]) and back["inf"] == float("-inf")
    assert str(back["neg_zero"]) == "-0.0"
    for a, b in zip(back["np_scalars"], value["np_scalars"]):
        assert type(a) is type(b) and a == b
    for a, b in zip(back["arrays"], value["arrays"]):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", [object(), {1, 2}, np.array([object()]), pd.DataFrame({"a": [1]})],
                         ids=["object", "set", "object-array", "dataframe"])
def test_anything_but_plain_data_is_refused_on_writing(tmp_path, own_key, bad):
    with pytest.raises(TypeError, match="cache record"):
        write_record(tmp_path / "r.rec", {"x": [bad]}, kind="cell")
    assert not (tmp_path / "r.rec").exists()


# ------------------------------------------------------------------------------------------------ trust


def test_a_record_written_with_another_key_is_refused(tmp_path, own_key, monkeypatch):
    p = tmp_path / "r.rec"
    write_record(p, {"x": np.arange(3)}, kind="cell")
    assert read_record(p, kind="cell")["x"].tolist() == [0, 1, 2]
    monkeypatch.setenv(store.ENV_KEY, "another machine's secret, 0123456789")
    with pytest.raises(RecordError, match="not written with this cache's key"):
        read_record(p, kind="cell")


def test_a_record_of_another_kind_is_refused(tmp_path, own_key):
    p = tmp_path / "r.rec"
    write_record(p, {"x": 1}, kind="cell")
    with pytest.raises(RecordError):
        read_record(p, kind="parsed")


def test_key_file_is_created_once_with_owner_only_permissions(own_key, monkeypatch):
    a = store.cache_secret()
    assert own_key.exists() and stat.S_IMODE(own_key.stat().st_mode) == 0o600
    store._SECRET_CACHE.clear()
    assert store.cache_secret() == a  # read back, not replaced
    monkeypatch.setenv(store.ENV_KEY, "shared cluster secret 42")
    assert store.cache_secret() == b"shared cluster secret 42"
    monkeypatch.setenv(store.ENV_KEY, "short")
    with pytest.raises(ValueError, match="at least 16"):
        store.cache_secret()


# ------------------------------------------------------------------------------------------------ grid cells

def _poly_cells():
    return [{"a": 1.5, "b": 0.1}, {"a": 2.5, "b": 0.2}]


def test_forged_cell_record_is_reported_and_recomputed_never_served(tmp_path, own_key):
    cells = _poly_cells()
    ref = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    f1 = _files(tmp_path)[0]

    def change(body, arrays):  # the result's value changed, the MAC recomputed by a writer without the key
        rec = json.loads(body)
        rec["data"]["result"]["value"] = 666.0
        return json.dumps(rec, separators=(",", ":")).encode(), arrays

    _forge(f1, change)
    with pytest.warns(CacheIntegrityWarning, match="not written with this cache's key"):
        got = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(ref, got, check_exact=True)
    assert 666.0 not in got["value"].tolist()


def test_crafted_pickles_run_no_code(tmp_path, own_key, monkeypatch):
    """An old-format cell file (the pickle the cache used to unpickle before checking anything) and a record
    holding a pickled object array: both are deleted unread, reported, recomputed; the payload never runs."""
    import genesel._core.io as gio

    monkeypatch.setattr(gio, "_LEGACY_SEEN", {"told": False})
    cells = _poly_cells()
    ref = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    folder = _files(tmp_path)[0].parent
    marker = tmp_path / "pwned"
    k0 = cell_key(poly_cell, cells[0])
    payload = pickle.dumps({"key": k0, "result": _Evil(marker)})
    (folder / f"{k0}.pkl").write_bytes(b"GENESEL-CELL-1\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n"
                                        + payload)
    rec = _files(tmp_path)[1]
    buf = io.BytesIO()
    np.save(buf, np.array([_Evil(marker)], dtype=object), allow_pickle=True)
    with zipfile.ZipFile(rec, "a") as zf:
        zf.writestr("a0.npy", buf.getvalue())
    with pytest.warns(CacheIntegrityWarning) as caught:
        got = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    assert not marker.exists(), "code in a cache file ran"
    text = " ".join(str(w.message) for w in caught)
    assert "older genesel format (pickles" in text and rec.name in text
    pd.testing.assert_frame_equal(ref, got, check_exact=True)
    assert not list(folder.glob("*.pkl"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheIntegrityWarning)
        run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)  # repaired: no message any more


def test_unreadable_member_layout_is_refused(tmp_path, own_key):
    p = tmp_path / "r.rec"
    write_record(p, {"x": 1}, kind="cell")
    with zipfile.ZipFile(p, "a") as zf:
        zf.writestr("extra.npy", b"whatever")
    with pytest.raises(RecordError, match="unexpected members"):
        read_record(p, kind="cell")
    p.write_bytes(pickle.dumps({"x": 1}))
    with pytest.raises(RecordError, match="not a genesel record"):
        read_record(p, kind="cell")


def test_an_old_cache_costs_one_message_per_process(tmp_path, own_key, monkeypatch):
    """Old-format files in several grid folders (and in parsed data) are all dropped and recomputed, with one
    message in the process, not one per folder."""
    import genesel._core.io as gio

    monkeypatch.setattr(gio, "_LEGACY_SEEN", {"told": False})
    cells = _poly_cells()
    run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
    lists = [{"a": 1}, {"a": 2}]
    run_grid(lists, list_cell, cache_dir=tmp_path, progress=False)
    folders = sorted({p.parent for p in tmp_path.rglob("*.rec") if p.name != "costs.rec"})
    assert len(folders) == 2
    for f in folders:
        (f / "deadbeef.pkl").write_bytes(b"GENESEL-CELL-1\n0\nnot a pickle")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
        run_grid(lists, list_cell, cache_dir=tmp_path, progress=False)
    msgs = [w for w in caught if issubclass(w.category, CacheIntegrityWarning)]
    assert len(msgs) == 1 and "older genesel format" in str(msgs[0].message)
    assert not list(tmp_path.rglob("*.pkl"))
