"""The notebook runner's command line and where figures go (quick runs never touch the committed figures/)."""

import stat
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from genesel import plotting  # noqa: E402
from genesel.records.runner import (anchor_paths, check_parameters, main, notebook_parameters,  # noqa: E402
                                        notebook_paths, parse_parameters, run_folder, run_notebook, run_overrides)

ROOT = Path(__file__).resolve().parents[1]


def test_parameters_follow_papermill_cli():
    got = parse_parameters([("n_splits", "5"), ("alpha", "0.5"), ("quick_flag", "True"), ("x", "None"),
                            ("datasets", '["singh"]'), ("name", "golub")], ["datasets: [golub]\nseed: 3"])
    # -p values: bool/None/int/float converted, anything else stays a string (as papermill -p does); -p wins
    assert got == {"n_splits": 5, "alpha": 0.5, "quick_flag": True, "x": None, "datasets": '["singh"]',
                   "name": "golub", "seed": 3}
    assert parse_parameters([], ["datasets: [singh, golub]"]) == {"datasets": ["singh", "golub"]}
    with pytest.raises(ValueError, match="YAML mapping"):
        parse_parameters([], ["- a list"])


def test_notebook_selection_by_prefix():
    names = [p.stem for p in notebook_paths(["02", "05a"])]
    assert names and all(n.startswith(("02", "05a")) for n in names)
    with pytest.raises(ValueError, match="no notebook matches"):
        notebook_paths(["99"])


def test_mode_is_not_a_parameter(capsys):
    with pytest.raises(SystemExit):
        main(["-p", "quick", "False", "00"])
    assert "--mode" in capsys.readouterr().err


def test_an_unknown_notebook_gets_a_usage_line_not_a_traceback(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["99"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith("usage:") and "Traceback" not in err
    assert "no notebook matches 99" in err and "00_datasets" in err


def test_an_unknown_parameter_is_refused_before_anything_runs(capsys, monkeypatch):
    ran = []
    monkeypatch.setattr("genesel.records.runner.run_notebook", lambda *a, **k: ran.append(a))
    with pytest.raises(SystemExit) as exc:
        main(["-p", "dataset", "singh", "00", "02"])  # misspelt: the parameter is "datasets"
    err = capsys.readouterr().err
    assert exc.value.code != 0 and not ran
    assert "no parameter 'dataset'" in err and "datasets" in err and "00_datasets" in err and "02_gentile" in err
    with pytest.raises(SystemExit):
        main(["-p", "seed", "1", "00"])  # 00 has no seed; 02 has one
    assert "00_datasets has no parameter 'seed'" in capsys.readouterr().err and not ran


def test_a_parameter_name_is_never_turned_into_code(capsys, monkeypatch):
    """Issue 25: papermill pastes `name = value` into the notebook, so a name such as
    "x = __import__('os').getpid(); y" would run code. Only identifiers are accepted."""
    ran = []
    monkeypatch.setattr("genesel.records.runner.run_notebook", lambda *a, **k: ran.append(a))
    for name in ("x = __import__('os').getpid(); y", "import", "a.b", "1x"):
        with pytest.raises(SystemExit) as exc:
            main(["-p", name, "1", "00"])
        assert exc.value.code != 0 and "not Python identifiers" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not Python identifiers"):
        check_parameters(ROOT / "notebooks" / "00_datasets.ipynb", {"x; y": 1})
    with pytest.raises(SystemExit):
        main(["-y", "{'x = 1; y': 2}", "00"])
    assert not ran


def test_a_relative_path_names_the_file_beside_the_user_not_one_in_notebooks(tmp_path, monkeypatch):
    """The kernel runs in notebooks/ (papermill's cwd): `genesel run 01 -p datasets my_study.csv` typed beside the
    file stopped with "no such file 'my_study.csv'". Paths are made absolute from the folder the command runs in;
    names, columns and paths that name no file there are passed on as given."""
    (tmp_path / "sub").mkdir()
    for name in ("study.csv", "sheet.csv", "sub/other.csv", "sub/sheet.csv"):
        (tmp_path / name).write_text("x\n")
    monkeypatch.chdir(tmp_path)
    ran = []
    monkeypatch.setattr("genesel.records.runner.run_notebook", lambda p, mode, params, **k: ran.append(params))
    assert main(["-p", "datasets", "study.csv", "-p", "label", "sheet.csv", "01"]) == 0
    assert ran == [{"datasets": str(tmp_path / "study.csv"), "label": str(tmp_path / "sheet.csv")}]
    got = anchor_paths({"datasets": '[golub, "sub/other.csv?label=sub/sheet.csv&classes=a%2Cb,c", absent.csv]',
                        "boot_datasets": ["./study.csv"], "label": "class", "groups": "patient", "seed": 3})
    assert got == {"datasets": ["golub", f"{tmp_path / 'sub/other.csv'}?label={tmp_path / 'sub/sheet.csv'}"
                                         "&classes=a%2Cb,c", "absent.csv"],
                   "boot_datasets": [str(tmp_path / "study.csv")], "label": "class", "groups": "patient", "seed": 3}
    monkeypatch.chdir(tmp_path / "sub")  # a path that names no file from here is passed on as given
    assert anchor_paths({"datasets": "study.csv", "label": "patients.csv"}) == {"datasets": "study.csv",
                                                                                 "label": "patients.csv"}


def test_parameters_read_from_the_notebook_with_their_defaults():
    known = notebook_parameters(ROOT / "notebooks" / "01_guyon2002_svm_rfe.ipynb")
    assert known["C"]["default"] == 100.0 and known["step"]["default"] == "halving"
    assert known["datasets"]["default"] is None
    assert known["C"]["help"] and list(known)[0] == "quick"


def test_default_values_and_execution_parameters_keep_the_default_run():
    known = notebook_parameters(ROOT / "notebooks" / "02_gentile2003_alma.ipynb")
    assert run_overrides({"seed": 0, "n_jobs": 1}, known) == {}  # the defaults, and n_jobs changes no number
    assert run_overrides({"datasets": '["singh"]', "seed": 0}, known) == {"datasets": '["singh"]'}
    base = Path("runs/quick")
    nb = ROOT / "notebooks" / "02_gentile2003_alma.ipynb"
    assert run_folder(base, nb, {}) == base
    one = run_folder(base, nb, run_overrides({"datasets": '["singh"]'}, known))
    assert one.parent == base and one.name.startswith("02_gentile2003_alma-") and len(one.name.split("-")[-1]) == 8
    # papermill -p (a string) and -y (a list) name the same run; another value names another run
    assert one == run_folder(base, nb, run_overrides({"datasets": ["singh"]}, known))
    assert one != run_folder(base, nb, run_overrides({"datasets": ["golub"]}, known))


@pytest.mark.notebook
def test_a_parameterised_run_leaves_the_default_run_untouched(tmp_path, monkeypatch, mirror):
    """The default run stays where it is, byte for byte (its figures too); the run with other parameters goes to a
    folder of its own, with its own figures, and both record their parameters."""
    import json

    monkeypatch.delenv("GENESEL_FIGURES_DIR", raising=False)
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(tmp_path / "cache"))
    nb = ROOT / "notebooks" / "00_datasets.ipynb"
    default = run_notebook(nb, "quick", {}, root=tmp_path, timeout=600)
    assert default == tmp_path / "runs" / "quick" / nb.name
    before = {p: p.read_bytes() for p in (tmp_path / "runs" / "quick").rglob("*") if p.is_file()}
    figures = tmp_path / "runs" / "quick" / "figures"
    assert list(figures.glob("*.png")), "the default quick run saves its figures in runs/quick/figures"
    other = run_notebook(nb, "quick", {"datasets": '["west"]'}, root=tmp_path, timeout=600)
    assert other.parent.parent == default.parent and other.parent.name.startswith("00_datasets-")
    assert list((other.parent / "figures").glob("datasets_west_*.png"))
    after = {p: p.read_bytes() for p in before}
    assert after == before, "the run with other parameters changed the default run or its figures"
    assert not list(figures.glob("datasets_west_*")), "its figures went to the default run's folder"
    meta = json.loads(other.read_text())["metadata"]["genesel"]
    assert meta["mode"] == "quick" and meta["overrides"] == {"datasets": '["west"]'}
    assert meta["parameters"]["datasets"] == '["west"]' and meta["defaults"]["datasets"] is None
    assert json.loads(default.read_text())["metadata"]["genesel"]["overrides"] == {}
    # provenance: the commit and the machine, in the notebook and as <notebook>_run.json beside its figures
    prov = meta["provenance"]
    assert set(prov) >= {"commit", "dirty", "machine", "versions", "date"}
    assert prov["machine"]["cores"] >= 1 and prov["versions"]["numpy"]
    run = json.loads((figures / "00_datasets_run.json").read_text())
    assert run["mode"] == "quick" and run["parameters"]["quick"] is True and run["overrides"] == {}
    assert json.loads((other.parent / "figures" / "00_datasets_run.json").read_text())["overrides"] == \
        {"datasets": '["west"]'}


def test_provenance_names_the_commit_and_the_machine_not_a_path(tmp_path):
    import json
    import subprocess

    from genesel.records.provenance import git_commit, provenance

    p = provenance()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if head:
        assert p["commit"] == head
    text = json.dumps(p)
    assert str(ROOT) not in text and str(Path.home()) not in text
    assert git_commit(tmp_path) == {"commit": None, "dirty": None}  # not a checkout: said, not guessed


def test_figures_go_to_runs_quick_unless_full(monkeypatch):
    monkeypatch.delenv("GENESEL_FIGURES_DIR", raising=False)
    try:
        plotting.setup(quick=True)
        assert plotting.figures_dir() == ROOT / "runs" / "quick" / "figures"
        plotting.setup(quick=False)
        assert plotting.figures_dir() == ROOT / "figures"
        assert plotting.figures_dir(quick=True) == ROOT / "runs" / "quick" / "figures"
    finally:
        plotting.setup(quick=True)


def test_savefig_is_atomic_titled_and_world_readable(tmp_path, monkeypatch):
    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path))
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="no title"):
        plotting.savefig(fig, "test_untitled")
    ax.set_title("a title")
    path = plotting.savefig(fig, "test_titled")
    plt.close(fig)
    assert path == tmp_path / "test_titled.png" and path.stat().st_size > 0
    assert stat.S_IMODE(path.stat().st_mode) & stat.S_IROTH
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_a_run_from_the_cache_alone_says_so_beside_its_wall_time(tmp_path):
    """The papers' 0.2.0 tables were made with --cache-only: their run records gave 17 s of wall time as if that were
    the full run's; the record now says the cells were computed earlier, and the on-record line prints it."""
    import json

    import nbformat

    from genesel.records import onrecord
    from genesel.records.runner import CACHE_ONLY_NOTE, _record

    known = {"quick": {"default": True, "help": "a first look"}}
    for cache_only in (False, True):
        out = tmp_path / f"nb_{cache_only}.ipynb"
        nbformat.write(nbformat.v4.new_notebook(), str(out))
        figs = tmp_path / f"figs_{cache_only}"
        figs.mkdir()
        _record(out, "full", {}, known, figs, wall_seconds=17.4, cache_only=cache_only)
        run = json.loads((figs / f"nb_{cache_only}_run.json").read_text())
        line = onrecord._run_line(run)
        assert ("cache alone" in line) is cache_only, line
        assert (run.get("note") == CACHE_ONLY_NOTE) is cache_only
        assert nbformat.read(str(out), as_version=4).metadata["genesel"].get("cache_only", False) is cache_only
