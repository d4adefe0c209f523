"""Every notebook runs under papermill in quick mode (with its defaults, and with another data set passed as the
papermill command line passes it), writes its figures, documents every parameter for `papermill --help-notebook`,
and holds no algorithm code."""

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))

#: Per notebook, parameters as `papermill -p NAME VALUE` passes them (strings), naming a data set that is not the
#: notebook's default (an alias where possible), to show it runs beyond its defaults.
OTHER_DATA = {
    "00_datasets": {"datasets": '["singh", "west"]'},
    "01_guyon2002_svm_rfe": {"datasets": '["singh"]'},
    "02_gentile2003_alma": {"datasets": '["colon"]'},
    "03_helleputte2009_transfer": {"datasets": '["gordon"]'},
    "04_shah2012_stumps": {"datasets": '["leukemia"]'},
    "05a_tan2006_classifiers": {"datasets": '["prostate"]'},
    "05b_tan2006_feature_ranking": {"datasets": '["west"]'},
    "05c_tan2006_stability": {"datasets": '["prostate"]'},
    "06_leaderboard": {"datasets": '["leukemia"]', "methods": '["SVM-RFE (halving) + SVM", "PAC-Bayes stumps", '
                       '"shrunken centroids (SC.s)", "kNN on Fisher genes", "SVM (all genes)"]',
                       "boot_datasets": '["leukemia"]'},
}


def _sources(path):
    nb = json.loads(path.read_text())
    return nb, ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_structure(path):
    nb, code = _sources(path)
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    assert re.search(r"^quick(\s*:\s*bool)?\s*=\s*True", "".join(tagged[0]["source"]), re.M), "quick=True by default"
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), "commit notebooks stripped"
    src = "\n".join(code)
    assert "paper_vs_genesel" in src, "ends with a paper-vs-genesel table"
    assert not re.search(r"^\s*(def|class)\s", src, re.M), "no algorithm code in notebooks: put it in genesel"
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert re.search(r"learning goals", text, re.I), "the notebook opens with learning goals"
    assert re.search(r"^#+\s*Exercises", text, re.M | re.I), "the notebook ends with exercises"


def _exercises(nb):
    """(exercise cell, the cells up to the next exercise) for every cell that starts with **Exercise N.**"""
    cells = nb["cells"]
    starts = [i for i, c in enumerate(cells)
              if c["cell_type"] == "markdown" and re.match(r"\*\*Exercise \d+\.", "".join(c["source"]))]
    return [(cells[i], cells[i + 1:(starts + [len(cells)])[k + 1]]) for k, i in enumerate(starts)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_exercise_has_a_folded_solution_the_notebook_runs(path):
    """Exercises are **Exercise N.** cells, each followed by its solution: code cells tagged ``solution`` (so the
    notebook test executes them) whose source and outputs JupyterLab shows folded, and the course site behind a
    *Solution* fold."""
    nb, _ = _sources(path)
    exercises = _exercises(nb)
    assert len(exercises) >= 2, "at least two exercises, each a cell starting with **Exercise N.**"
    for ex, after in exercises:
        title = "".join(ex["source"])[:60]
        solutions = [c for c in after if "solution" in c.get("metadata", {}).get("tags", [])]
        assert solutions and all(c["cell_type"] == "code" for c in solutions), f"{title!r}: no solution code cell"
        for c in solutions:
            hidden = c.get("metadata", {}).get("jupyter", {})
            assert hidden.get("source_hidden") and hidden.get("outputs_hidden"), f"{title!r}: the solution is not folded"


#: The budget of a notebook's code (non-blank lines that are not only a comment). Notebooks call, display and narrate;
#: tables and summaries are built in the paper modules. 100 lines in all leaves room for a parameters cell (~10), the
#: imports and parameter checks (~20), and some 15 analysis cells of 3-7 lines (run a grid, show a table, save and
#: show a figure); the thinned notebooks need 28-89. No analysis cell above 15 lines (a grid, its table and a figure
#: take about 10; more is logic that belongs in a module), except the first after the parameters (imports and
#: parameter checks: 30). A loop body of at most 3 lines: a figure is drawn, saved and shown, a table captioned and
#: shown; a longer body builds something.
BUDGET_NOTEBOOK, BUDGET_CELL, BUDGET_SETUP_CELL, BUDGET_LOOP_BODY = 100, 15, 30, 3
#: An exercise's solution (cells tagged ``solution``) is code a student writes: outside the notebook's budget, at most
#: this many lines per cell, loops as above.
BUDGET_SOLUTION = 10


def _code_lines(src: str) -> set:
    """Line numbers (1-based) of ``src`` that hold code: not blank, not only a comment."""
    return {i for i, line in enumerate(src.splitlines(), 1) if line.strip() and not line.strip().startswith("#")}


def _loop_bodies(src: str) -> list:
    """(first line, code lines) of the body of every for / while loop in ``src``."""
    code = _code_lines(src)
    out = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            first, last = node.body[0].lineno, max(n.end_lineno for n in node.body)
            out.append((node.lineno, len([i for i in range(first, last + 1) if i in code])))
    return out


def test_the_budget_counts_code_lines_and_loop_bodies():
    src = "x = 1  # a comment\n\n# only a comment\nfor i in range(3):\n    a = i\n    for j in (1, 2):\n" \
          "        b = (j,\n             i)\n"
    assert len(_code_lines(src)) == 6
    assert sorted(_loop_bodies(src)) == [(4, 4), (6, 2)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_code_stays_within_its_budget(path):
    nb, code = _sources(path)
    tags = [c.get("metadata", {}).get("tags", []) for c in nb["cells"] if c["cell_type"] == "code"]
    cells = [("".join(c["source"]), "parameters" in t, "solution" in t)
             for c, t in zip([c for c in nb["cells"] if c["cell_type"] == "code"], tags)]
    total = sum(len(_code_lines(src)) for src, _, solution in cells if not solution)
    assert total <= BUDGET_NOTEBOOK, (f"{path.name} holds {total} lines of code (budget {BUDGET_NOTEBOOK}): build "
                                      "tables and summaries in its paper module and call them")
    analysis = [(src, solution) for src, is_param, solution in cells if not is_param]
    for k, (src, solution) in enumerate(analysis):
        n = len(_code_lines(src))
        cap = BUDGET_SOLUTION if solution else BUDGET_SETUP_CELL if k == 0 else BUDGET_CELL
        assert n <= cap, f"{path.name}: a cell of {n} lines (budget {cap}) starting {src.splitlines()[0]!r}"
        for line, body in _loop_bodies(src):
            assert body <= BUDGET_LOOP_BODY, (f"{path.name}: the loop at line {line} of the cell starting "
                                              f"{src.splitlines()[0]!r} has a body of {body} lines (budget "
                                              f"{BUDGET_LOOP_BODY}): move what it builds into the paper module")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_parameter_is_documented_for_papermill(path):
    """papermill --help-notebook lists every parameter with a type and a help text (an apostrophe in a comment, for
    one, makes papermill drop the line)."""
    import papermill as pm

    nb, _ = _sources(path)
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    names = [t.id if isinstance(node, ast.Assign) else node.target.id
             for node in ast.parse("".join(cell["source"])).body if isinstance(node, (ast.Assign, ast.AnnAssign))
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
    info = pm.inspect_notebook(str(path))
    assert set(names) == set(info), f"papermill cannot read {set(names) - set(info)}"
    for name, v in info.items():
        assert v["help"], f"parameter {name!r} has no help text"
        assert v["inferred_type_name"] not in ("None", None), f"parameter {name!r} has no type annotation"


def _run(path, tmp_path, monkeypatch, parameters=None):
    from genesel.experiments.runner import execute_notebook

    figs = tmp_path / "figures"
    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(figs))
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = execute_notebook(path, tmp_path / "runs", quick=True, parameters=parameters, timeout=900)
    assert out.exists()
    assert list(figs.glob("*.png")), "the notebook saved no figure"
    nb = json.loads(out.read_text())
    stderr = ["".join(o.get("text", "")) for c in nb["cells"] if c["cell_type"] == "code"
              for o in c.get("outputs", []) if o.get("name") == "stderr"]
    assert not stderr, f"the notebook wrote to stderr (warnings or progress bars): {stderr[:2]}"
    return nb


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_quick(path, tmp_path, monkeypatch, mirror):
    _run(path, tmp_path, monkeypatch)


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_on_another_data_set(path, tmp_path, monkeypatch, mirror):
    params = OTHER_DATA.get(path.stem)
    if params is None:
        pytest.fail(f"add {path.stem} to OTHER_DATA: every notebook must run on a non-default data set")
    _run(path, tmp_path, monkeypatch, parameters=params)
