"""The installed project as a user meets it: imports from any folder, the data command line without optional
packages (issue 26's rough edges)."""

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


def test_import_from_a_folder_holding_a_clone(tmp_path):
    """Run from the folder that contains a clone called ``genesel`` (no ``__init__.py`` at its top), the installed
    package is imported, not the clone's folder as an empty namespace package: ``make install`` puts ``lib/`` on
    ``sys.path`` (``genesel-lib.pth``), ahead of setuptools' editable finder."""
    clone = tmp_path / "genesel"
    (clone / "lib").mkdir(parents=True)
    (clone / "README.md").write_text("a clone\n")
    code = "import genesel; from genesel import SVMRFE; print(genesel.__file__)"
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, (f"`from genesel import SVMRFE` fails when run beside a folder named genesel; "
                                 f"reinstall with `make install`:\n{res.stderr}")
    assert Path(res.stdout.strip()).resolve() == (ROOT / "lib" / "genesel" / "__init__.py").resolve()


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
    res = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    listed = {line.split()[0] for line in res.stdout.splitlines() if line.strip()}
    assert res.returncode == 0 and listed == documented and {"run", "test", "lint", "lab", "help"} <= listed
