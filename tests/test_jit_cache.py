"""genesel._core.jit_cache: numba's compiled kernels are cached per module and per version of the code the module can
reach, so a kernel that calls a kernel of another module never runs stale machine code after that other module
changes, and an edit recompiles only the modules that reach the edited one."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import numpy as np
from genesel._core import smo
L = np.zeros((2, 2))
u = np.array([2.0, 0.0]); w = np.array([0.0, 3.0]); y = np.array([1.0, 1.0]); F = np.array([0, 1])
L[0, 0] = L[1, 1] = 1.0
print(smo.kkt_solve(L, 2, y, F, u, w))  # a kernel of smo.py calling linalg.chol_solve of another file
"""


def _copy(tmp_path):
    lib = tmp_path / "lib"
    shutil.copytree(ROOT / "lib" / "genesel", lib / "genesel", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data_fetch", lib / "data_fetch", ignore=shutil.ignore_patterns("__pycache__"))
    return lib


def _run(lib, cache):
    env = dict(os.environ, PYTHONPATH=str(lib), XDG_CACHE_HOME=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_digest_follows_the_code_a_module_can_reach_only(tmp_path):
    from genesel._core.jit_cache import module_closure, module_digest

    lib = _copy(tmp_path)
    pkg = lib / "genesel"
    names = ("genesel._core.smo", "genesel.msvm_rfe", "genesel.stumps", "genesel._stumps_kernels")
    before = {m: module_digest(m, pkg) for m in names}
    assert "genesel._core.linalg" in module_closure("genesel._core.smo", pkg)  # smo's kernels call linalg's
    (pkg / "papers" / "shah2012_report.py").write_text("# a figure edit\n", encoding="utf-8")
    assert {m: module_digest(m, pkg) for m in names} == before  # no kernel module imports a report
    linalg = pkg / "_core" / "linalg.py"
    src = linalg.read_text()
    linalg.write_text(src.replace('"""', '"""An edited docstring. ', 1) + "\n# an edited comment\n")
    assert {m: module_digest(m, pkg) for m in names} == before  # documentation only: nothing recompiles
    linalg.write_text(src + "\n_EDITED = 1\n")
    assert module_digest("genesel._core.smo", pkg) != before["genesel._core.smo"]  # a callee's code changed
    assert module_digest("genesel._stumps_kernels", pkg) == before["genesel._stumps_kernels"]  # not in its closure
    msvm = pkg / "msvm_rfe.py"
    msvm.write_text(msvm.read_text() + "\n_EDITED = 1\n")
    assert module_digest("genesel.msvm_rfe", pkg) != before["genesel.msvm_rfe"]
    assert module_digest("genesel.stumps", pkg) == module_digest("genesel.stumps", pkg)
    assert "genesel.msvm_rfe" not in module_closure("genesel.stumps", pkg)


def test_imports_resolve_to_the_modules_they_load(tmp_path):
    """``from genesel import x`` is the submodule x, relative imports resolve against the package, and an import of
    a name from the package (which imports everything) counts as the package."""
    from genesel._core.jit_cache import module_closure

    lib = _copy(tmp_path)
    pkg = lib / "genesel"
    (pkg / "probe_a.py").write_text("from genesel import bounds as _b\nfrom ._core import linalg\n")
    (pkg / "probe_b.py").write_text("def f():\n    from genesel import LinearSVM\n    return LinearSVM\n")
    closure_a = module_closure("genesel.probe_a", pkg)
    assert {"genesel.bounds", "genesel._core.linalg"} <= set(closure_a) and "genesel" not in closure_a
    assert "genesel" in module_closure("genesel.probe_b", pkg)


def test_a_changed_callee_in_another_module_is_compiled_afresh(tmp_path):
    """kkt_solve (in smo.py) calls chol_solve (in linalg.py). numba's own cache checks only smo.py's timestamp, so
    after an edit of linalg.py it would load the old machine code; with the cache folder keyed by the sources the
    edit is compiled. The edit doubles forward_solve's result: the solve must change."""
    lib = _copy(tmp_path)
    cache = tmp_path / "cache"
    first = _run(lib, cache)
    assert _run(lib, cache) == first  # the cache serves the same code
    linalg = lib / "genesel" / "_core" / "linalg.py"
    src = linalg.read_text()
    edited = src.replace("        out[i] = s / L[i, i]", "        out[i] = 2.0 * s / L[i, i]", 1)
    assert edited != src, "the probe's edit no longer applies: update the test"
    linalg.write_text(edited)
    assert _run(lib, cache) != first, "stale compiled code ran after the callee changed"
    folders = [p.name for p in (cache / "genesel" / "numba").iterdir()]
    assert sum(f.startswith("genesel._core.smo-") for f in folders) == 2  # smo: one folder per version of its code
    assert sum(f.startswith("genesel._core.linalg-") for f in folders) == 2
    assert sum(f.startswith("genesel._core.gram-") for f in folders) == 1  # gram reaches no linalg: kept


def test_an_edit_recompiles_only_the_modules_that_reach_it(tmp_path):
    """The stumps' compiled kernels survive an edit of MSVM-RFE: their folder keeps its index files. One kernel of
    the stumps' module is compiled (not all of them, as ``warm_up`` would): what is checked is the module's folder
    and that its index files stay, which one kernel shows as well as thirty, at a fraction of the compile time."""
    lib = _copy(tmp_path)
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(lib), XDG_CACHE_HOME=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    probe = ("import numpy as np; import genesel.stumps; from genesel import _stumps_kernels as K; "
             "K.utility_grid(np.zeros(3)); from genesel._core.jit_cache import loaded_folders; "
             "print(loaded_folders()['genesel._stumps_kernels'])")
    run = lambda: subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,  # noqa: E731
                                 timeout=600)
    first = run()
    assert first.returncode == 0, first.stderr[-2000:]
    folder = Path(first.stdout.strip())
    compiled = sorted(p.name for p in folder.rglob("*.nbi"))
    assert compiled, "utility_grid compiled nothing into the stumps' folder"
    msvm = lib / "genesel" / "msvm_rfe.py"
    msvm.write_text(msvm.read_text() + "\n_EDITED = 1\n")
    again = run()
    assert again.returncode == 0, again.stderr[-2000:]
    assert Path(again.stdout.strip()) == folder
    assert sorted(p.name for p in folder.rglob("*.nbi")) == compiled
