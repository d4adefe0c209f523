"""Cache keys from content alone (issue 41): a module's name and place are no part of a cell's key, so moving or
renaming a module recomputes nothing, while any change to the code a cell runs still recomputes it."""

import shutil
import textwrap
from pathlib import Path

import pytest

from genesel.experiments.codekey import closure_digest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "lib" / "genesel"
PAPER_CELL_MODULES = ["genesel.papers.guyon2002", "genesel.papers.gentile2003", "genesel.papers.helleputte2009",
                      "genesel.papers.shah2012", "genesel.papers.tan2006_ch3", "genesel.papers.tan2006_ch45",
                      "genesel.papers.datasets_overview"]
LEADERBOARD_CELLS = [{"method": "MSVM-RFE + SVM", "dataset": "golub"}, {"method": "SVM (all genes)", "dataset": "alon"},
                     {"method": "GP-ARD-RFE + GP", "dataset": "singh"}]


@pytest.fixture()
def source_copy(tmp_path):
    lib = tmp_path / "lib"
    shutil.copytree(PKG, lib / "genesel", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data_fetch", tmp_path / "data_fetch", ignore=shutil.ignore_patterns("__pycache__"))
    return {"genesel": lib, "data_fetch": tmp_path}


def _move(roots, old: str, new: str):
    """Move the module ``old`` to ``new`` (dotted names) in a copy of the sources and update every import of it,
    as a developer (or an IDE) would."""
    base = Path(roots["genesel"])
    src = base.joinpath(*old.split(".")).with_suffix(".py")
    dst = base.joinpath(*new.split(".")).with_suffix(".py")
    dst.parent.mkdir(parents=True, exist_ok=True)
    init = dst.parent / "__init__.py"
    if not init.exists():
        init.write_text('"""A package made by the move."""\n')
    shutil.move(src, dst)
    for path in list(base.rglob("*.py")) + list(Path(roots["data_fetch"]).joinpath("data_fetch").rglob("*.py")):
        text = path.read_text()
        if old in text:
            path.write_text(text.replace(old, new))


def _keys(roots):
    from genesel.leaderboard import keys

    out = {m: closure_digest(m, roots) for m in PAPER_CELL_MODULES}
    out.update({f"{c['method']} / {c['dataset']}": keys.cell_code(c, roots) for c in LEADERBOARD_CELLS})
    return out


def test_moving_modules_moves_no_cell_key(source_copy):
    before = _keys(source_copy)
    _move(source_copy, "genesel.msvm_rfe", "genesel.selection.msvm_rfe")  # an algorithm into a new package
    _move(source_copy, "genesel._core.gram", "genesel._core.kernels.gram")  # a shared kernel, one floor down
    _move(source_copy, "genesel.papers.common", "genesel.papers.shared")  # a module that cells import
    assert _keys(source_copy) == before


def test_a_code_change_after_a_move_still_moves_the_keys_of_what_runs_it(source_copy):
    before = _keys(source_copy)
    _move(source_copy, "genesel.msvm_rfe", "genesel.selection.msvm_rfe")
    moved = Path(source_copy["genesel"]) / "genesel" / "selection" / "msvm_rfe.py"
    text = moved.read_text()
    assert "import warnings" in text
    moved.write_text(text.replace("import warnings", "import warnings\n_CHANGED = 1", 1))
    after = _keys(source_copy)
    changed = sorted(k for k in before if before[k] != after[k])
    assert "MSVM-RFE + SVM / golub" in changed and "genesel.papers.tan2006_ch45" in changed
    assert "SVM (all genes) / alon" not in changed and "genesel.papers.gentile2003" not in changed


def _package(tmp_path, files):
    lib = tmp_path / "lib"
    for name, text in files.items():
        p = lib.joinpath(*name.split(".")).with_suffix(".py")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    (lib / "genesel" / "__init__.py").write_text("")
    (tmp_path / "data_fetch").mkdir(exist_ok=True)
    return {"genesel": lib, "data_fetch": tmp_path}


def test_pointing_an_import_at_another_module_moves_the_key(tmp_path):
    """Module names do not count, but what an import binds to does: `from a import f` and `from b import f` run
    different code, so they key differently even though the set of modules reached is the same."""
    files = {"genesel.a": "def f(x):\n    return x + 1\n", "genesel.b": "def f(x):\n    return x - 1\n",
             "genesel.c": "from genesel.a import f\nfrom genesel import b\n\ndef cell(x):\n    return f(x)\n"}
    roots = _package(tmp_path, files)
    first = closure_digest("genesel.c", roots)
    (tmp_path / "lib" / "genesel" / "c.py").write_text(
        "from genesel.b import f\nfrom genesel import a\n\ndef cell(x):\n    return f(x)\n")
    assert closure_digest("genesel.c", roots) != first


def test_renaming_a_module_in_a_small_package_keeps_the_key(tmp_path):
    files = {"genesel.a": "def f(x):\n    return x + 1\n",
             "genesel.c": "from genesel.a import f\n\ndef cell(x):\n    return f(x)\n"}
    roots = _package(tmp_path, files)
    first = closure_digest("genesel.c", roots)
    (tmp_path / "lib" / "genesel" / "a.py").rename(tmp_path / "lib" / "genesel" / "renamed.py")
    (tmp_path / "lib" / "genesel" / "c.py").write_text(
        "from genesel.renamed import f\n\ndef cell(x):\n    return f(x)\n")
    assert closure_digest("genesel.c", roots) == first
    (tmp_path / "lib" / "genesel" / "renamed.py").write_text("def f(x):\n    return x + 2\n")
    assert closure_digest("genesel.c", roots) != first


def test_a_grid_finds_its_cells_after_its_module_moved(tmp_path, monkeypatch):
    """The same cell function in a module of another name (the module moved): its cells come from the cache, found
    in the old module's folder and moved into the new one; nothing is recomputed."""
    import importlib
    import sys

    from genesel.experiments import run_grid

    body = textwrap.dedent("""
        import os

        def cell(x):
            with open(os.environ["GENESEL_TEST_CALLS"], "a") as fh:
                fh.write(f"{x}\\n")
            return {"y": x * x}
    """)
    src = tmp_path / "src"
    src.mkdir()
    (src / "old_place.py").write_text(body)
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("GENESEL_TEST_CALLS", str(calls))
    monkeypatch.syspath_prepend(str(src))
    cache = tmp_path / "cache"
    old = importlib.import_module("old_place")
    first = run_grid([{"x": i} for i in range(4)], old.cell, cache_dir=cache)
    assert calls.read_text().split() == ["0", "1", "2", "3"]
    (src / "old_place.py").rename(src / "new_place.py")
    sys.modules.pop("old_place", None)
    new = importlib.import_module("new_place")
    again = run_grid([{"x": i} for i in range(4)], new.cell, cache_dir=cache)
    assert calls.read_text().split() == ["0", "1", "2", "3"], "a moved module's cells were recomputed"
    assert again["y"].tolist() == first["y"].tolist()
    assert sorted(p.name for p in (cache / "new_place.cell").glob("*.rec")) != []
