"""Every notebook runs under papermill in quick mode (with its defaults, with another data set passed as the
papermill command line passes it, and, one per paper, on a CSV file of one's own), writes its figures, shows each
with its title as alt text, says nothing that cannot be true of the run (the output scan of tests/notebook_text.py),
documents every parameter for `papermill --help-notebook`, and holds no algorithm code."""

import ast
import json
import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))

#: Per notebook, parameters as `papermill -p NAME VALUE` passes them (strings), naming a data set that is not the
#: notebook's default (an alias where possible), to show it runs beyond its defaults.
OTHER_DATA = {
    "00_datasets": {"datasets": '["singh", "khan"]'},  # khan: four classes
    "01_guyon2002_svm_rfe": {"datasets": '["west"]'},
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


@pytest.mark.registration("paper", "notebooks/NN_<paper>.ipynb", "parameters")
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
            assert hidden.get("source_hidden") and hidden.get("outputs_hidden"), \
                f"{title!r}: the solution is not folded"


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


def _outputs(nb):
    """Every output of every code cell of an executed notebook."""
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]


def _run(path, tmp_path, monkeypatch, parameters=None, *, cache):
    """Run ``path`` in quick mode under the inline backend (as `make run` and JupyterLab run it), and check what
    every run must hold: figures saved, nothing on stderr, every figure shown with its title as alt text, and no
    text that cannot be true of the run (:func:`notebook_text.scan_notebook`). ``cache``: the grid cache, the
    session's notebook cache (conftest.notebook_cell_cache), so a cell two runs share is computed once."""
    from genesel.records.runner import execute_notebook
    from notebook_text import scan_notebook

    figs = tmp_path / "figures"
    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(figs))
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(cache))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend: plt.show() displays figures
    out = execute_notebook(path, tmp_path / "runs", quick=True, parameters=parameters, timeout=900)
    assert out.exists()
    assert list(figs.glob("*.png")), "the notebook saved no figure"
    nb = json.loads(out.read_text())
    stderr = ["".join(o.get("text", "")) for o in _outputs(nb) if o.get("name") == "stderr"]
    assert not stderr, f"the notebook wrote to stderr (warnings or progress bars): {stderr[:2]}"
    images = [o for o in _outputs(nb) if "image/png" in o.get("data", {})]
    assert images, "the notebook showed no figure"
    no_alt = [o["data"].get("text/plain") for o in images
              if not (o.get("metadata") or {}).get("image/png", {}).get("alt")]
    assert not no_alt, f"{len(no_alt)} of {len(images)} figures have no alt text (genesel.plotting.show): {no_alt[:3]}"
    problems = scan_notebook(nb, path.stem)
    assert not problems, f"{len(problems)} output(s) cannot be true of the run:\n" + "\n".join(problems[:20])
    tables = list(figs.glob("*_paper_vs_genesel.csv"))
    assert tables, "the run left no paper-vs-genesel table on record (genesel.papers.presentation.record)"
    assert all(len(pd.read_csv(t)) for t in tables), f"an empty table on record: {tables}"
    return nb


@pytest.mark.registration("paper", "genesel.papers.presentation.record")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_notebook_keeps_its_tables_on_record(path):
    """Issue 27: a full run's tables are committed as CSV beside its figures (``figures/<paper>_<table>.csv``), so
    the paper-vs-genesel table of every notebook goes through :func:`genesel.papers.presentation.record`."""
    _, code = _sources(path)
    assert any("record(paper_vs_genesel(" in c for c in code), f"{path.name}: record its paper-vs-genesel table"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_quick(path, tmp_path, monkeypatch, mirror, notebook_cell_cache):
    if path.stem != "06_leaderboard":
        _run(path, tmp_path, monkeypatch, cache=notebook_cell_cache)
        return
    # the leaderboard in a cache of its own: afterwards it holds exactly the cells `genesel status` and `genesel
    # shards compute` count for this run (genesel.leaderboard.status.run_cells), grid by grid, so a full run computed
    # in pieces by those commands leaves nothing for the notebook's last pass to compute (before, Exercise 3's
    # "another seed" grid was missing from them: the --cache-only pass stopped on it)
    from genesel.experiments.cache import func_folder
    from genesel.experiments.grid import cell_key
    from genesel.leaderboard.status import grid_functions, run_cells

    cache = tmp_path / "cache"
    _run(path, tmp_path, monkeypatch, cache=cache)
    grids = run_cells("quick")
    for func in {f for _, f in grid_functions()}:
        want = {cell_key(func, c) for g, f in grid_functions() if f is func for c in grids[g]}
        have = {p.stem for p in func_folder(cache, func).glob("*.rec") if len(p.stem) == 32}  # not costs.rec
        assert have == want, (func.__name__, f"{len(have - want)} computed but not counted, {len(want - have)} "
                                             "counted but not computed")


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
@pytest.mark.registration("paper", "OTHER_DATA", "tests/test_notebooks.py")
def test_notebook_runs_on_another_data_set(path, tmp_path, monkeypatch, mirror, notebook_cell_cache):
    """The notebook runs on a non-default data set (OTHER_DATA, as the papermill command line passes it) and, for a
    paper's first notebook (USER_FILES), in the same run on a user's file beside it (issue 22,
    :func:`_check_users_file`): one execution holds both, and every check of both runs is made on it."""
    params = OTHER_DATA.get(path.stem)
    if params is None:
        pytest.fail(f"add {path.stem} to OTHER_DATA: every notebook must run on a non-default data set")
    params = dict(params)
    user = None
    if path.stem in USER_FILES:
        name, n_genes, orientation, extra = USER_FILES[path.stem]
        folder = tmp_path / "my data"
        file, label = _user_file(name, n_genes, orientation, folder)
        user = (folder, file)
        params["datasets"] = json.dumps(json.loads(params["datasets"]) + [str(file)])
        params["label"] = label
        for key, value in extra.items():  # lists (the methods): the union, the other data set's first
            if key in params:
                mine = json.loads(params[key])
                value = json.dumps(mine + [v for v in json.loads(value) if v not in mine])
            params[key] = value
        if path.stem == "06_leaderboard":
            params["boot_datasets"] = json.dumps(json.loads(params["boot_datasets"]) + [str(file)])
    nb = _run(path, tmp_path, monkeypatch, parameters=params, cache=notebook_cell_cache)
    if user is not None:
        _check_users_file(nb, *user)


#: Per paper, the notebook run on a user's file (issue 22): the registered set written out, how many of its most
#: variable genes (None: all), the file's orientation ("samples": samples x genes with a label column; "genes": genes x
#: samples with a sample sheet) and further parameters. Small sets keep the CPU cost modest; notebook 03 transfers
#: between studies that share probe IDs, so its file is a prostate study (Welsh's, on 300 probes every prostate study
#: has) and the other prostate studies are its sources (Welsh's own copy is left out as sharing its samples).
USER_FILES = {
    "01_guyon2002_svm_rfe": ("alon", 300, "samples", {}),
    "02_gentile2003_alma": ("alon", 300, "genes", {}),
    "03_helleputte2009_transfer": ("welsh", 300, "genes", {}),
    "04_shah2012_stumps": ("alon", 300, "samples", {}),
    "05a_tan2006_classifiers": ("alon", None, "genes", {}),
    "05b_tan2006_feature_ranking": ("alon", None, "samples", {}),
    "05c_tan2006_stability": ("alon", None, "genes", {}),
    "06_leaderboard": ("alon", None, "samples", {"methods": '["SVM-RFE (halving) + SVM", "t-test + SVM", '
                                                  '"PAC-Bayes stumps", "shrunken centroids (SC.s)", '
                                                  '"SVM (all genes)"]'}),
}




def _user_file(name: str, n_genes, orientation: str, folder: Path):
    """Write registered set ``name`` as a user would hold it: ``<folder>/<name>_study.csv`` (samples x genes with a
    column "class", or genes x samples beside a sample sheet ``samples.csv``). Returns (file, label parameter)."""
    import numpy as np
    import pandas as pd

    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    X, genes = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.gene_ids).astype(str)
    if name == "welsh":  # probes every prostate study of notebook 03 has
        from genesel.papers import helleputte2009 as H

        shared = set(np.asarray(next(iter(H.aligned_studies(H.PROSTATE).values())).gene_ids).astype(str))
        keep = np.flatnonzero(np.isin(genes, list(shared)))
        X, genes = X[:, keep], genes[keep]
    if n_genes is not None:
        keep = np.sort(np.argsort(-np.var(X, axis=0), kind="stable")[:n_genes])
        X, genes = X[:, keep], genes[keep]
    labels = np.asarray(ds.classes, dtype=object)[(np.asarray(ds.y) > 0).astype(int)]
    samples = np.asarray(ds.sample_ids).astype(str)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}_study.csv"
    if orientation == "samples":
        frame = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
        frame.insert(0, "class", labels)
        frame.to_csv(path)
        return path, "class"
    pd.DataFrame(X.T, index=pd.Index(genes, name="probe"), columns=samples).to_csv(path)
    sheet = folder / "samples.csv"
    pd.DataFrame({"sample": samples, "class": labels}).to_csv(sheet, index=False)
    return path, str(sheet)


def _texts(nb) -> list:
    """The text of every output: streams, Markdown, HTML, plain text and figures' alt text."""
    out = []
    for o in _outputs(nb):
        out.append("".join(o.get("text", "")))
        out += ["".join(v) for k, v in o.get("data", {}).items() if k.startswith("text/")]
        out.append(str((o.get("metadata") or {}).get("image/png", {}).get("alt", "")))
    return out


def _check_users_file(nb, folder: Path, path: Path):
    """Issue 22: a registered set written to a CSV of one's own (:func:`_user_file`), passed in the notebook's
    data-set parameter with ``label``, runs in quick mode without a warning (:func:`_run`), shows the file by its
    name in its tables and figure titles, never by its path, and says nothing that cannot be true of the run
    (:func:`_run`). Checked on the run that holds the file, :func:`test_notebook_runs_on_another_data_set`'s (the
    file beside the other data set; 03, 05a and 06 printed text that could not be true there until their
    presentation was fixed: a negative zero, an empty class-count cell, a range whose ends agree)."""
    texts = _texts(nb)
    assert not [t for t in texts if str(folder) in t], "an output shows the file's path; show its name"
    tables = [t for o in _outputs(nb) for t in ["".join(o.get("data", {}).get("text/html", ""))] if "<table" in t]
    titles = [str((o.get("metadata") or {}).get("image/png", {}).get("alt", "")) for o in _outputs(nb)]
    assert any(path.name in t for t in tables + titles), f"no table or figure title names {path.name}"


# ----------------------------------------------------------------------------------------------------------------
# the output scan (tests/notebook_text.py) on tiny synthetic notebooks: every pattern caught, clean text passes
# ----------------------------------------------------------------------------------------------------------------

def _synthetic(*outputs):
    """A notebook of one code cell holding ``outputs`` (nbformat output nodes)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = list(outputs)
    nb.cells = [nbformat.v4.new_markdown_cell("prose is not scanned: 0.5–0.5"), cell]
    return nb


def _stream(text):
    import nbformat

    return nbformat.v4.new_output("stream", name="stdout", text=text)


def _display(mime, text, metadata=None):
    import nbformat

    return nbformat.v4.new_output("display_data", data={mime: text, "text/plain": "<object>"},
                                  metadata=metadata or {})


def _html_table(index, cells):
    import html

    rows = "".join(f"<tr><th>{i}</th><td>{html.escape(c)}</td></tr>" for i, c in zip(index, cells))
    return f'<table class="dataframe"><thead><tr><th></th><th>error</th></tr></thead><tbody>{rows}</tbody></table>'


BAD_TEXT = {
    "a range whose ends agree": ["the RVM 0.01–0.01 s", "(1–1 genes hold 90 %)", "top-50 Jaccard 0.52–0.52",
                                 "5–5 splits per data set", "97 %–97 %"],
    "a name said twice": ["Singh: Singh: gene symbols from the file", "Colon (Alon 1999): Colon (Alon 1999): x"],
    "nan% or nan as a value": ["GP-ARD-RFE top 256/128: nan%", "accuracy nan %", "NaN"],
    "an impossible spread": ["22.2±-*", "error 12.0 ± nan"],
    "a missing value shown as None/NaT/<NA>": ["C = None", "size (None)", "<NA>", "NaT"],
    "a negative zero": ["a change of -0.00 points", "−0.0 %"],
}
CLEAN_TEXT = ["the RVM 0.01–0.02 s", "2–22 genes", "12–2", "5 splits per data set", "Singh: gene symbols",
              "None of the settings reproduces it", "nanometre", "22.2 ± 1.3", "-0.07", "2006-07-01", "AFFX-0.0",
              "0.52 (all folds agree)", "a 0–1 scale"]


@pytest.mark.parametrize("what", list(BAD_TEXT))
def test_the_output_scan_catches_each_pattern_in_streams_markdown_tables_and_alt_text(what):
    from notebook_text import scan_notebook

    for text in BAD_TEXT[what]:
        for output in (_stream(text + "\n"), _display("text/markdown", f"**Result.** {text}."),
                       _display("text/html", _html_table(["golub"], [text])),
                       _display("image/png", "iVBORw0KGgo=", {"image/png": {"alt": f"Figure: {text}"}})):
            found = scan_notebook(_synthetic(output), "nb")
            assert any(what in f for f in found), (text, output.get("output_type"), found)


def test_the_output_scan_catches_a_bare_index_and_passes_a_meaningful_one():
    from notebook_text import scan_notebook

    bare = _display("text/html", _html_table(["0", "1", "2"], ["1.0", "2.0", "3.0"]))
    found = scan_notebook(_synthetic(bare), "nb")
    assert len(found) == 1 and "bare 0..2 index" in found[0]
    named = _display("text/html", _html_table(["golub", "alon", "singh"], ["1.0", "2.0", "3.0"]))
    assert scan_notebook(_synthetic(named), "nb") == []
    sizes = _display("text/html", _html_table(["2", "4", "8"], ["1.0", "2.0", "3.0"]))  # genes: an index that means
    assert scan_notebook(_synthetic(sizes), "nb") == []


def test_the_output_scan_passes_clean_text():
    from notebook_text import scan_notebook, scan_text

    for text in CLEAN_TEXT:
        assert scan_text(text) == [], text
    outputs = [_stream("\n".join(CLEAN_TEXT)), _display("text/markdown", " ".join(CLEAN_TEXT)),
               _display("text/html", _html_table([f"set {i}" for i in range(len(CLEAN_TEXT))], CLEAN_TEXT)),
               _display("image/png", "iVBORw0KGgo=", {"image/png": {"alt": "Colon: error against genes"}})]
    assert scan_notebook(_synthetic(*outputs), "nb") == []


# ----------------------------------------------------------------------------------------------------------------
# figures' alt text, read from a small notebook executed by a real kernel
# ----------------------------------------------------------------------------------------------------------------

ALT_NOTEBOOK = [
    "from genesel import plotting\nplotting.setup(quick=True)",
    # plt.show() on the first use of pyplot
    "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\nax.set_title('shown by plt.show')\n"
    "plt.show()",
    # a figure left open: the inline backend shows it at the end of the cell
    "fig, ax = plt.subplots()\nax.set_title('left open')\nfig.suptitle('the suptitle wins')",
    # %matplotlib inline again re-registers the backend's printer
    "%matplotlib inline\nfig, ax = plt.subplots()\nax.set_title('after %matplotlib inline')\nplt.show()",
    "fig, axes = plt.subplots(1, 2)\naxes[0].set_title('left')\naxes[1].set_title('right')\nplotting.show(fig)",
    "from IPython.display import display\nfig, ax = plt.subplots()\nax.set_title('displayed')\ndisplay(fig)\n"
    "plt.close(fig)",
]


@pytest.mark.notebook
def test_every_figure_shown_in_a_notebook_carries_its_title_as_alt_text(tmp_path, monkeypatch):
    """Under the inline backend (as `make run` and JupyterLab run notebooks), a figure shown by ``plt.show()``, at
    the end of a cell, after ``%matplotlib inline``, by ``genesel.plotting.show`` or by ``display(fig)`` has its title
    in ``output.metadata["image/png"]["alt"]`` (the key the course site reads)."""
    import nbformat
    import papermill as pm

    from genesel.plotting import ALT_KEY

    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel chooses the inline backend, as in a real run
    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path / "figures"))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in ALT_NOTEBOOK]
    path = tmp_path / "alt.ipynb"
    nbformat.write(nb, str(path))
    pm.execute_notebook(str(path), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                        cwd=str(tmp_path))
    out = json.loads((tmp_path / "out.ipynb").read_text())
    alts = [(o.get("metadata") or {}).get("image/png", {}).get(ALT_KEY) for c in out["cells"]
            for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert alts == ["shown by plt.show", "the suptitle wins", "after %matplotlib inline", "left; right", "displayed"]


@pytest.mark.notebook
def test_the_leaderboard_on_a_grouped_count_study(tmp_path, monkeypatch, mirror, notebook_cell_cache):
    """Issue 37: notebook 06 on a paired count study (Alon's colon as patients' tumour and normal pairs, Poisson
    counts at library sizes varying four-fold; tests/study_files.py) with ``groups``: it runs, states its decisions
    (counts normalised by library size, the folds and what adapted, the splits grouped), runs no .632+ bootstrap
    (the file has no published reference), and the per-fold table's test_idx, in the file's sample order, never
    separates a patient from their other sample."""
    import numpy as np

    from study_files import pairs

    frame = pd.read_csv(pairs(tmp_path, strength=0.3), index_col=0)
    X = frame.drop(columns=["tissue", "patient"]).to_numpy()[:, :200]
    rng = np.random.default_rng(0)
    counts = rng.poisson(X / X.sum(axis=1, keepdims=True) * rng.uniform(5e5, 2e6, (len(X), 1)))
    study = pd.DataFrame(counts, index=frame.index, columns=frame.columns[2:202])
    study.insert(0, "patient", frame["patient"].to_numpy())
    study.insert(0, "tissue", frame["tissue"].to_numpy())
    path = tmp_path / "paired_counts.csv"
    study.to_csv(path)
    monkeypatch.setenv("GENESEL_RUNS_DIR", str(tmp_path / "tables"))
    params = {"datasets": str(path), "label": "tissue", "groups": "patient",
              "methods": '["SVM (all genes)", "kNN (all genes)", "MSVM-RFE + SVM"]'}
    nb = _run(ROOT / "notebooks" / "06_leaderboard.ipynb", tmp_path, monkeypatch, parameters=params,
              cache=notebook_cell_cache)
    text = "\n".join(_texts(nb))
    assert "counts normalised by library size" in text and "Splits grouped by 'patient' (22 groups)" in text
    assert "smallest class: outer / inner training part" in text and "no .632+ comparison" in text
    folds = pd.read_csv(next((tmp_path / "tables").rglob("folds.csv")))
    g = study["patient"].to_numpy()
    for _, rep in folds[folds["method"] == "SVM (all genes)"].groupby("repeat"):
        tests = [np.asarray(json.loads(t)) for t in rep["test_idx"]]
        assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(len(g)))
        assert all(set(g[a]).isdisjoint(g[b]) for i, a in enumerate(tests) for b in tests[i + 1:])


@pytest.mark.notebook
def test_the_leaderboard_on_a_users_multiclass_file(tmp_path, monkeypatch, mirror, notebook_cell_cache):
    """Issue 38: a K-class study of one's own (Khan's SRBCT written as a CSV, its Burkitt lymphomas cut to 3 so that
    one class is too small for the folds) runs through notebook 06 in quick mode without ``classes``: the multi-class
    board is chosen from the data, the class of 3 is left out with a line saying so, a binary-only method gives its
    "not applicable: binary only" row, the per-class recall and the confusion matrix are shown, and the results go
    to the multi-class board's own files (leaderboard_multiclass_*), never to the binary board's."""
    import numpy as np

    from genesel.datasets import load_dataset

    ds = load_dataset("khan")
    labels = np.asarray(ds.classes, dtype=object)[np.asarray(ds.y)]
    keep = np.ones(labels.size, dtype=bool)
    keep[np.flatnonzero(labels == "BL")[3:]] = False
    study = pd.DataFrame(np.asarray(ds.X)[keep], index=pd.Index(np.asarray(ds.sample_ids)[keep], name="sample"),
                         columns=np.asarray(ds.gene_ids).astype(str))
    study.insert(0, "subtype", labels[keep])
    path = tmp_path / "srbct_subtypes.csv"
    study.to_csv(path)
    monkeypatch.setenv("GENESEL_RUNS_DIR", str(tmp_path / "tables"))
    params = {"datasets": str(path), "label": "subtype",
              "methods": '["t-test + SVM", "ANOVA F + SVM", "t-test one-vs-rest + SVM", "DLDA (all genes)", '
                         '"shrunken centroids (SC.s)", "multinomial L1 logistic regression"]'}
    nb = _run(ROOT / "notebooks" / "06_leaderboard.ipynb", tmp_path, monkeypatch, parameters=params,
              cache=notebook_cell_cache)
    text = "\n".join(_texts(nb))
    assert "3 samples, fewer than 5" in text and "EWS (23) / NB (12) / RMS (20)" in text
    assert "not applicable: binary only" in text
    assert "row % of each true class" in text  # the confusion matrix's title, as alt text
    figs = tmp_path / "figures"
    assert (figs / "leaderboard_multiclass_results.csv").is_file()
    assert (figs / "leaderboard_multiclass_confusion_srbct_subtypes.png").is_file()
    assert not list(figs.glob("leaderboard_results*")) and not (figs / "leaderboard_critical_difference.png").exists()
    summary = pd.read_csv(figs / "leaderboard_multiclass_results.csv")
    assert set(summary["method"]) == set(json.loads(params["methods"])) - {"t-test + SVM"}
    assert (summary["n_classes"] == 3).all() and summary["auc"].between(0.5, 1.0).all()
