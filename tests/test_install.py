"""The installed project as a user meets it: a plain ``pip install -e .`` or wheel that imports from any folder, the
data command line without optional packages (issue 26's rough edges), the core install without the extras."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run data_fetch's command line in a fresh interpreter in which `import tqdm` fails, as with a Python lacking it.
_WITHOUT_TQDM = textwrap.dedent("""
    import importlib.abc, runpy, sys

    class NoTqdm(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "tqdm" or name.startswith("tqdm."):
                raise ImportError(f"No module named {name!r} (blocked by the test)")

    sys.meta_path.insert(0, NoTqdm())
    sys.modules.pop("tqdm", None)
    sys.argv = ["data_fetch"] + sys.argv[1:]
    try:
        runpy.run_module("data_fetch", run_name="__main__", alter_sys=True)
    finally:
        assert "tqdm" not in sys.modules
""")


def _without_tqdm(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-c", _WITHOUT_TQDM, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_data_fetch_list_without_tqdm():
    # the blocker itself works: importing tqdm under it fails
    probe = subprocess.run([sys.executable, "-c", _WITHOUT_TQDM.replace('runpy.run_module("data_fetch"',
                                                                        'import tqdm; runpy.run_module("data_fetch"')],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert probe.returncode != 0 and "blocked by the test" in probe.stderr
    res = _without_tqdm("--list")
    assert res.returncode == 0, res.stderr
    from data_fetch import DATASETS

    listed = {line.split()[0] for line in res.stdout.splitlines() if line.strip()}
    assert set(DATASETS) <= listed, set(DATASETS) - listed


def test_data_fetch_fetches_without_tqdm(tmp_path, mirror):
    """Without tqdm a fetch prints plain lines instead of a progress bar."""
    res = _without_tqdm("alon", "--mirror", str(mirror), "--cache", str(tmp_path), "--offline")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("ok   alon: ") and (tmp_path / "alon.RData").is_file()


def _fresh_venv(where: Path, wheel: Path) -> Path:
    """A new virtual environment at ``where`` with ``wheel`` installed by pip (no dependencies, nothing else
    installed there), whose Python then also sees this environment's packages (numpy, scikit-learn, ...) as a plain
    path entry, so the test needs neither the network nor a download: only genesel's own install is new. Returns its
    Python."""
    import sysconfig
    import venv

    venv.EnvBuilder(with_pip=False, symlinks=True).create(where)
    python = where / "bin" / "python"
    res = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check",
                          "install", "--no-deps", "--no-index", "-q", str(wheel)], capture_output=True, text=True,
                         timeout=300, env=_clean_env())
    assert res.returncode == 0, f"pip install {wheel.name} failed:\n{res.stdout}\n{res.stderr}"
    purelib = _purelib(python)
    # added after the install (pip saw an empty environment), and as a path entry rather than a site dir: this
    # environment's .pth files (its own genesel install) do not run there, and its entries come after genesel's
    Path(purelib, "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _purelib(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, env=_clean_env()).stdout.strip()


def _build(kind: str, project: Path, out: Path) -> Path:
    """The wheel pip builds for ``pip install .`` (``kind="wheel"``) or ``pip install -e .`` (``"editable"``): the
    build backend's PEP 517 / PEP 660 hook, called as pip calls it (here without build isolation: the backend of
    pyproject.toml is installed with the dev extra)."""
    import tomllib

    backend = tomllib.loads((project / "pyproject.toml").read_text())["build-system"]["build-backend"]
    code = f"import sys, {backend} as b; print(b.build_{kind}(sys.argv[1]))"
    res = subprocess.run([sys.executable, "-c", code, str(out)], cwd=project, capture_output=True, text=True,
                         timeout=300, env=_clean_env())
    assert res.returncode == 0, f"build_{kind} failed:\n{res.stderr}"
    return out / res.stdout.strip().splitlines()[-1]


def _imported_from(python: Path, cwd: Path, full: bool = True, also: str = "") -> dict:
    """Where ``genesel`` and ``data_fetch`` come from when Python runs in ``cwd``: imported, with an estimator
    (``full``), or only found as an import would find them (no package code runs: quicker)."""
    if full:
        code = ("import json, genesel, data_fetch; from genesel import SVMRFE" + also + "; "
                "print(json.dumps({'genesel': genesel.__file__, 'data_fetch': data_fetch.__file__}))")
    else:
        code = ("import json, importlib.util as u; "
                "print(json.dumps({m: u.find_spec(m).origin for m in ('genesel', 'data_fetch')}))")
    res = subprocess.run([str(python), "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                         env={**_clean_env(), "NUMBA_DISABLE_JIT": "1"})
    assert res.returncode == 0, (f"`from genesel import SVMRFE` fails when Python runs in {cwd} "
                                 f"(holding {sorted(p.name for p in cwd.iterdir())}):\n{res.stderr}")
    import json

    return {k: Path(v or "namespace package").resolve() for k, v in
            json.loads(res.stdout.strip().splitlines()[-1]).items()}


def _clean_env():
    """This process's environment without what puts other folders on Python's path (a developer's PYTHONPATH)."""
    import os

    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}


def test_editable_install_from_a_folder_holding_a_clone(tmp_path):
    """A plain ``pip install -e .`` of a clone named ``genesel`` works from any folder, with no hand-written
    ``.pth``: run from the folder that holds the clone (whose top has no ``__init__.py``, so Python's path finder
    takes it for an empty namespace package ``genesel``), or from a folder holding empty ``genesel/`` and
    ``data_fetch/`` folders, ``import genesel`` and ``import data_fetch`` give the clone's packages, and the
    ``genesel`` command and ``python -m data_fetch`` run. The build backend (hatchling) writes static path entries
    (``lib/`` and the clone's root), which the path finder searches before it settles for a namespace package;
    setuptools' editable finder for this layout ran only after it, so the clone's folder won."""
    import shutil

    clone = tmp_path / "genesel"
    clone.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for name in ("lib", "data_fetch"):
        shutil.copytree(ROOT / name, clone / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE", ".gitignore"):
        shutil.copy2(ROOT / name, clone / name)
    (tmp_path / "dist").mkdir()
    python = _fresh_venv(tmp_path / "venv", _build("editable", clone, tmp_path / "dist"))
    want = {"genesel": (clone / "lib" / "genesel" / "__init__.py").resolve(),
            "data_fetch": (clone / "data_fetch" / "__init__.py").resolve()}

    # an edit or a new module in the clone is live without reinstalling (path entries, not a list of files)
    (clone / "lib" / "genesel" / "_probe_new_module.py").write_text("VALUE = 7\n")
    probe = "; from genesel._probe_new_module import VALUE; assert VALUE == 7"
    assert _imported_from(python, tmp_path, also=probe) == want  # beside the clone: what the hand-made .pth was for
    decoys = tmp_path / "decoys"
    (decoys / "genesel").mkdir(parents=True)
    (decoys / "data_fetch").mkdir()
    assert _imported_from(python, decoys, full=False) == want

    cli = subprocess.run([str(tmp_path / "venv" / "bin" / "genesel"), "--help"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300, env=_clean_env())
    assert cli.returncode == 0 and cli.stdout.startswith("usage: genesel"), cli.stderr
    listed = subprocess.run([str(python), "-m", "data_fetch", "--list"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300, env=_clean_env())
    assert listed.returncode == 0 and listed.stdout.split()[0] == "alon", listed.stderr


def _core_and_extras():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return meta["dependencies"], meta["optional-dependencies"]


def test_wheel_holds_both_packages_and_installs(tmp_path):
    """``pip wheel .`` gives a wheel with ``genesel`` (from ``lib/``) and ``data_fetch`` at its top, every source
    file of both, the ``genesel`` command, the core dependencies unconditional and each extra's behind its marker;
    installed (not editable) into a fresh environment, it imports from a folder that holds a ``genesel`` folder."""
    import zipfile

    (tmp_path / "dist").mkdir()
    wheel = _build("wheel", ROOT, tmp_path / "dist")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta_dir = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(f"{meta_dir}/METADATA").decode()
        entry_points = z.read(f"{meta_dir}/entry_points.txt").decode()
    sources = {p.relative_to(ROOT / "lib").as_posix() for p in (ROOT / "lib" / "genesel").rglob("*.py")} | \
              {p.relative_to(ROOT).as_posix() for p in (ROOT / "data_fetch").rglob("*.py")}
    assert sources <= names, f"missing from the wheel: {sorted(sources - names)[:10]}"
    tops = {n.split("/")[0] for n in names}
    assert tops == {"genesel", "data_fetch", meta_dir}, tops  # no lib/, tests/, docs/ or figures/
    assert "genesel = genesel.cli:main" in entry_points

    requires = [ln.split(":", 1)[1].strip() for ln in metadata.splitlines() if ln.startswith("Requires-Dist:")]
    core, extras = _core_and_extras()

    def norm(req):
        from packaging.requirements import Requirement

        r = Requirement(req)
        return r.name.lower(), str(r.specifier), str(r.marker or "")

    assert {norm(r) for r in requires if ";" not in r} == {norm(c) for c in core}
    provides = {ln.split(":", 1)[1].strip() for ln in metadata.splitlines() if ln.startswith("Provides-Extra:")}
    assert provides == set(extras)

    python = _fresh_venv(tmp_path / "venv", wheel)
    (tmp_path / "genesel").mkdir()
    site = Path(_purelib(python)).resolve()
    got = _imported_from(python, tmp_path)
    assert got == {"genesel": site / "genesel" / "__init__.py", "data_fetch": site / "data_fetch" / "__init__.py"}


def _make_dry_run(target, *assignments):
    """The commands ``make -n target`` would run (nothing runs; the install prerequisite is satisfied by a stamp
    assignment so the recipe of the target itself is shown)."""
    res = subprocess.run(["make", "-n", "-o", "install", target, *assignments], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_make_lab_allows_root_only_as_root():
    """JupyterLab refuses to start as root without --allow-root (containers run as root): the Makefile passes it
    exactly when the user is root."""
    import os

    cmd = _make_dry_run("lab")
    assert "jupyter lab" in cmd
    assert ("--allow-root" in cmd) == (os.geteuid() == 0)


def test_make_help_lists_every_documented_target():
    """`make help` lists each target that carries a ``## what it does`` comment, and nothing else."""
    text = (ROOT / "Makefile").read_text()
    documented = {line.split(":")[0] for line in text.splitlines()
                  if "## " in line and not line.startswith(("#", "\t"))}
    res = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    listed = {line.split()[0] for line in res.stdout.splitlines() if line.strip()}
    assert res.returncode == 0 and listed == documented and {"run", "test", "lint", "lab", "help"} <= listed
