"""genesel._core.jit_cache: numba's compiled kernels are cached per version of the kernel sources, so a kernel that
calls a kernel of another module never runs stale machine code after that other module changes."""

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


def test_digest_follows_the_kernel_sources_only(tmp_path):
    from genesel._core.jit_cache import kernel_source_digest

    lib = _copy(tmp_path)
    pkg = lib / "genesel"
    before = kernel_source_digest(pkg)
    (pkg / "papers" / "shah2012_report.py").write_text("# a figure edit\n", encoding="utf-8")
    assert kernel_source_digest(pkg) == before  # papers hold no kernel
    linalg = pkg / "_core" / "linalg.py"
    src = linalg.read_text()
    linalg.write_text(src.replace('"""', '"""An edited docstring. ', 1) + "\n# an edited comment\n")
    assert kernel_source_digest(pkg) == before  # documentation only: no recompilation of every kernel
    linalg.write_text(src + "\n_EDITED = 1\n")
    assert kernel_source_digest(pkg) != before


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
    assert len(list((cache / "genesel" / "numba").iterdir())) == 2  # one folder per source version
