"""pyproject.toml and environment.yml carry the same dependency bounds; the README starts with the two commands."""

import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject_deps():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(meta["dependencies"]) + [d for ds in meta["optional-dependencies"].values() for d in ds]
    out = {}
    for d in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*(.*)", d.strip())
        if _norm(m.group(1)) == _norm(meta["name"]):  # an extra that pulls in other extras (dev)
            continue
        out[_norm(m.group(1))] = m.group(2).replace(" ", "")
    out["python"] = meta["requires-python"].replace(" ", "")
    return out


def _conda_deps():
    out = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text[text.index("dependencies:"):].splitlines():
        m = re.fullmatch(r"\s*-\s+([A-Za-z0-9_.\-]+)\s*(\S*)\s*", line)
        if m and m.group(1) != "pip":
            out[_norm(m.group(1))] = m.group(2)
    return out


def test_environment_yml_matches_pyproject():
    py, conda = _pyproject_deps(), _conda_deps()
    assert py, "no dependencies parsed from pyproject.toml"
    assert set(py) == set(conda), \
        f"only in pyproject: {set(py) - set(conda)}; only in environment.yml: {set(conda) - set(py)}"
    drift = {k: (py[k], conda[k]) for k in py if py[k] != conda[k]}
    assert not drift, f"version bounds drift (pyproject, environment.yml): {drift}"


def test_dev_extra_installs_every_extra():
    """`make install` installs ``.[dev]``, which must bring every other extra (the tests run the notebooks, build the
    site, read .h5ad files and start a dask cluster); conda users get them all from environment.yml."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    pulled = set()
    for d in extras["dev"]:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)\[([^\]]*)\]", d.strip())
        if m and _norm(m.group(1)) == _norm(meta["name"]):
            pulled |= {e.strip() for e in m.group(2).split(",")}
    assert pulled == set(extras) - {"dev"}, f"dev misses {set(extras) - {'dev'} - pulled}"
    assert re.search(r'pip install[^\n]*-e "\.\[dev\]"', (ROOT / "Makefile").read_text()), \
        "make install must install .[dev]"


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no command block"
    first = [ln.split("#")[0].strip() for ln in blocks[0].splitlines() if ln.split("#")[0].strip()]
    assert first[:2] == ["make run", "make test"], first
    assert text.index("make run") < 600, "the two commands must come first in the README"


def test_the_tests_run_on_one_openblas_kernel_whatever_the_cpu():
    """conftest pins OpenBLAS's AVX2 kernels before numpy loads (docs/architecture.md, "Reproducibility across
    machines"): the GP-ARD examples are exact to the BLAS's last bits, and AVX-512 kernels round differently."""
    import numpy  # noqa: F401  (loads OpenBLAS)
    from threadpoolctl import threadpool_info

    kernels = {d.get("architecture") for d in threadpool_info() if d.get("internal_api") == "openblas"}
    if not kernels:
        pytest.skip("numpy is not linked to OpenBLAS here")
    assert kernels == {os.environ["OPENBLAS_CORETYPE"]} == {"Haswell"}
