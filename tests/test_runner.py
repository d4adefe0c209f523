"""The notebook runner's command line and where figures go (quick runs never touch the committed figures/)."""

import stat
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from genesel import plotting  # noqa: E402
from genesel.experiments.runner import main, notebook_paths, parse_parameters  # noqa: E402

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
