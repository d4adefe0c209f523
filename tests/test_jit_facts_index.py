"""The on-disk index of the modules' facts (genesel._core.jit_cache, ``module-facts.json``): a process reads each
file's genesel imports and code digest from it instead of parsing the file, and the digests are the ones parsing
gives; a changed file, a damaged index or another Python version's index are parsed afresh."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from genesel._core import jit_cache as J

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("genesel._core.smo", "genesel.msvm_rfe", "genesel._stumps_kernels")


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A copy of the package and an empty cache root; this process's index forgotten (restored after)."""
    pkg = tmp_path / "lib" / "genesel"
    shutil.copytree(ROOT / "lib" / "genesel", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(J, "_index", None)
    monkeypatch.setattr(J, "_index_dirty", False)
    return pkg


def _forget():
    J._index = None
    J._index_dirty = False


def _no_parsing(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a file was parsed although the index holds its facts")

    monkeypatch.setattr(J, "_facts", refuse)


def test_digests_read_from_the_index_equal_the_parsed_ones(fresh, monkeypatch):
    parsed = {m: J.module_digest(m, fresh) for m in NAMES}
    J._write_index()
    index = json.loads(J._index_file().read_text())
    assert index["version"] == J._INDEX_VERSION and str(fresh / "_core" / "smo.py") in index["files"]
    _forget()
    with monkeypatch.context() as m:
        _no_parsing(m)
        assert {n: J.module_digest(n, fresh) for n in NAMES} == parsed
        assert "genesel._core.linalg" in J.module_closure("genesel._core.smo", fresh)


def test_a_changed_file_is_parsed_again(fresh):
    before = {m: J.module_digest(m, fresh) for m in NAMES}
    J._write_index()
    linalg = fresh / "_core" / "linalg.py"
    linalg.write_text(linalg.read_text() + "\n_EDITED = 1\n")
    _forget()
    after = {m: J.module_digest(m, fresh) for m in NAMES}
    assert after["genesel._core.smo"] != before["genesel._core.smo"]  # a callee's code changed: not the old entry
    assert after["genesel._stumps_kernels"] == before["genesel._stumps_kernels"]
    _forget()
    assert J.module_digest("genesel._core.smo", fresh) == after["genesel._core.smo"]


@pytest.mark.parametrize("damage", ["not json {", '{"version": "0-py2.7", "files": {}}', '{"files": [1, 2]}',
                                    "[]"])
def test_a_damaged_or_foreign_index_is_ignored_and_rewritten(fresh, damage):
    parsed = J.module_digest("genesel.msvm_rfe", fresh)
    J._write_index()
    good = json.loads(J._index_file().read_text())
    J._index_file().write_text(damage)
    _forget()
    assert J.module_digest("genesel.msvm_rfe", fresh) == parsed
    J._write_index()
    assert json.loads(J._index_file().read_text()) == good


def test_a_stale_entry_for_the_same_stamp_but_another_module_name_is_not_used(fresh, monkeypatch):
    """The stamp holds the module name and the package root too: the same file read as another module (a copy
    imported under another root) resolves its relative imports differently."""
    J.module_digest("genesel.msvm_rfe", fresh)
    entry = J._index[str(fresh / "msvm_rfe.py")]
    J._index[str(fresh / "msvm_rfe.py")] = [entry[0], entry[1], "genesel.other", entry[3], [], "00" * 32]
    assert J._facts_of("genesel.msvm_rfe", fresh)[1] != bytes(32)
