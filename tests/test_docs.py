"""The documentation site (docs/, `make docs`): its extension's parts on their own (course chapters from executed
notebooks, alt text, the API docstring escapes, the performance and contributing pages), what every page must hold
(every public name in the API reference, every notebook's results page), and one build of the site, checked on its
HTML and in headless Chromium: alt text on every <img>, no raw TeX outside rendered mathematics, every internal link
and anchor resolves, nothing is requested from the network, the mathematics is typeset, the search finds pages.

The build uses the real guide, results, performance and API pages and, as the course, every notebook of notebooks/
as a chapter (its Markdown as written, code without outputs, plus synthetic figures and a run with other parameters):
the notebooks' mathematics is checked without executing them. `make docs` builds the same sources from runs/quick/."""

from __future__ import annotations

import base64
import io
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_output

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from genesel_docs import copy_project_files  # noqa: E402
from genesel_docs.apidoc import escape_prose  # noqa: E402
from genesel_docs.course import ALT_FILE, first_sentence, summary_markdown, write_course  # noqa: E402
from genesel_docs.performance import benchmarks_markdown  # noqa: E402

# the course order as the issue states it, not as the code computes it
COURSE = ["00", "01", "02", "03", "04", "05a", "05b", "05c", "06"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


# ------------------------------------------------------------------------------------------ synthetic runs
def _png(color: str = "C0") -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1.5), dpi=40)
    ax.plot([0, 1], [0, 1], color=color)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _image(png: str, alt: str | None = None):
    md = {"image/png": {"alt": alt, "width": 300}} if alt else {}
    return new_output("display_data", data={"image/png": png, "text/plain": "<Figure>"}, metadata=md)


def _record(nb, mode="quick", overrides=None, defaults=None):
    defaults = defaults or {"quick": True, "datasets": None, "seed": 0}
    overrides = overrides or {}
    nb.metadata["genesel"] = {
        "mode": mode, "defaults": defaults, "overrides": overrides,
        "parameters": {**defaults, **overrides, "quick": mode == "quick"},
        "help": {"quick": "True: the reduced protocol", "datasets": "data sets | or files", "seed": "the seed"},
        "provenance": {"commit": "0123456789abcdef", "dirty": False, "date": "2026-01-02T03:04:05+00:00",
                       "machine": {"cpu": "Some CPU", "cores": 2}, "versions": {"genesel": "0.1.0"}},
        "wall_seconds": 12.0}
    return nb


def _run_of(source: Path, png: str, k: int):
    """A source notebook as if executed: its cells as written, the parameters injected, and two figures after the
    first code cell (one with recorded alt text, one without)."""
    nb = nbformat.read(str(source), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and "parameters" not in c.metadata.get("tags", [])]
    if code:
        code[0].outputs = [_image(png, alt=f"Recorded alt text of figure {k}"), _image(_png("C3"))]
    params = next((i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])), 0)
    nb.cells.insert(params + 1, new_code_cell("quick = True\n", metadata={"tags": ["injected-parameters"]}))
    return _record(nb)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """runs/quick as `genesel run` leaves it: a default run of every notebook, and notebook 02 once more with
    other parameters in a folder of its own."""
    folder = tmp_path_factory.mktemp("runs") / "quick"
    folder.mkdir()
    png = _png()
    sources = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    for k, src in enumerate(sources):
        nbformat.write(_run_of(src, png, k), str(folder / src.name))
    other = _run_of(ROOT / "notebooks" / "02_gentile2003_alma.ipynb", png, 99)
    _record(other, overrides={"datasets": ["alon"], "seed": 3})
    (folder / "02_gentile2003_alma-0a1b2c3d").mkdir()
    nbformat.write(other, str(folder / "02_gentile2003_alma-0a1b2c3d" / "02_gentile2003_alma.ipynb"))
    return folder


# --------------------------------------------------------------------------------------- the extension's parts
def test_course_order():
    stems = [re.match(r"\d+[a-z]*", p.stem).group(0) for p in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))]
    assert stems == COURSE


def test_first_sentence_is_never_cut_mid_way():
    assert first_sentence("As in Golub et al. (1999) and Fig. 2, e.g. here. Then more.") == \
        "As in Golub et al. (1999) and Fig. 2, e.g. here."
    assert first_sentence("Weights $w. B$ and `x. Y` stay. Next.") == "Weights $w. B$ and `x. Y` stay."
    assert first_sentence("It ends with **bold.** Then the next.") == "It ends with **bold.**"


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")), ids=lambda p: p.stem)
def test_each_notebook_has_a_one_sentence_summary(path):
    md = summary_markdown(nbformat.read(str(path), as_version=4))
    assert re.search(r"[.!?][*_)\"”’]*$", md) and len(md) > 40, md
    assert not md.startswith(("What this notebook", "Learning goals", "What the paper")), md


def test_course_chapters_from_the_runs(runs, tmp_path):
    out = tmp_path / "course"
    (out).mkdir()
    (out / "stale.ipynb").write_text("{}")  # a chapter of a run that no longer exists
    files = write_course(out, runs, ROOT / "notebooks")
    assert not (out / "stale.ipynb").exists()
    index = files["index.md"]
    stems = [p.stem for p in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))]
    # the toctree and the list give the chapters in course order
    toc = index[index.index("```{toctree}"):].split("```")[1]
    assert [ln for ln in toc.splitlines() if ln and not ln.startswith(":") and ln != "{toctree}"] == stems
    assert index.index("(02_gentile2003_alma.ipynb)") < index.index("(02_gentile2003_alma-0a1b2c3d.ipynb)") \
        < index.index("(03_helleputte2009_transfer.ipynb)")
    assert "`datasets = [\"alon\"], seed = 3`" in index

    chapter = nbformat.reads(files["02_gentile2003_alma.ipynb"], as_version=4)
    title, box = chapter.cells[0].source, chapter.cells[1].source
    assert title.startswith("# 02") and "\n" not in title.strip(), "the run box goes right under the title"
    assert "How this chapter was run" in box and "**Quick mode**" in box and "**Default parameters**" in box
    assert "commit `0123456789`" in box and "12 s wall" in box
    assert "| `seed` | `0` | `0` | the seed |" in box and "data sets \\| or files" in box  # a pipe in help is escaped
    assert "Run it again: `genesel run --mode quick 02`" in box
    assert "(02_gentile2003_alma-0a1b2c3d.ipynb)" in box and ":hidden:\n\n02_gentile2003_alma-0a1b2c3d" in box
    solutions = [c for c in chapter.cells if "solution" in c.metadata.get("tags", [])]
    assert solutions and all("hide-cell" in c.metadata.tags and c.metadata.mystnb["code_prompt_show"] == "Solution"
                             for c in solutions)
    injected = [c for c in chapter.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert injected and all("remove-cell" in c.metadata.tags for c in injected)

    other = nbformat.reads(files["02_gentile2003_alma-0a1b2c3d.ipynb"], as_version=4)
    assert other.cells[0].source.endswith('(run with `datasets = ["alon"], seed = 3`)')
    assert "**Parameters changed**" in other.cells[1].source and "(02_gentile2003_alma.ipynb)" in other.cells[1].source
    assert "genesel run --mode quick -y '{\"datasets\": [\"alon\"], \"seed\": 3}' 02" in other.cells[1].source

    alts = json.loads(files[ALT_FILE])["course/02_gentile2003_alma"]
    assert "Recorded alt text of figure 2" in alts.values()
    built = [a for a in alts.values() if a.startswith("Figure 2 under")]
    assert built and all("chapter “" in a for a in built), "a figure without alt text gets one built for it"


def test_a_notebook_not_run_yet_says_so(tmp_path):
    runs = tmp_path / "runs" / "quick"
    runs.mkdir(parents=True)
    files = write_course(tmp_path / "course", runs, ROOT / "notebooks")
    assert "05c_tan2006_stability.md" in files and "05c_tan2006_stability.ipynb" not in files
    assert "has not been run yet in `runs/quick`: `make run NB=05c`" in files["05c_tan2006_stability.md"]
    assert "*(not run yet)*" in files["index.md"]


def test_docstring_prose_escapes():
    assert escape_prose("sum of |w_i| over genes") == r"sum of \|w_i\| over genes"
    assert escape_prose("the attribute ranking_ holds it.") == r"the attribute ranking\_ holds it."
    kept = "``ranking_`` and :attr:`support_` and `a link <http://x>`_ and **ranking_**"
    assert escape_prose(kept) == kept
    assert escape_prose("| a line block") == "| a line block"


def test_the_performance_page_shows_results_and_says_what_is_missing(tmp_path):
    (tmp_path / "bench_fast.py").write_text('"""Benchmark: a fast thing, genesel vs numpy.\n\nIt times ``x``."""\n')
    (tmp_path / "bench_slow.py").write_text('"""Benchmark: a slow thing."""\n')
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "bench_fast.json").write_text(json.dumps({
        "command": "python benchmarks/bench_fast.py --quick", "wall_seconds": 3.0,
        "provenance": {"date": "2026-01-02T00:00:00+00:00", "commit": "abcdef1234567", "machine": {"cpu": "C",
                                                                                                  "cores": 2}},
        "load": {"start": 1.5, "end": 2.5},
        "rows": [{"case": "one fit", "genesel": "0.1 s CPU", "alternative": "numpy: 1.3 s CPU", "ratio": "13× CPU",
                  "target": "≥ 10×", "met": True, "note": "same | result"}],
        "output": "one fit: 13x\n"}))
    text = benchmarks_markdown(tmp_path)
    assert text.startswith("1 of the 2 benchmarks have a result file (`bench_fast`).")
    assert "| one fit | 0.1 s CPU | numpy: 1.3 s CPU | 13× CPU | ≥ 10×: met ✔ | same \\| result |" in text
    assert "commit `abcdef1234`" in text and "load average 1.5 at the start, 2.5 at the end" in text
    assert "`python benchmarks/bench_fast.py --quick`" in text and "It times ``x``." in text
    slow = text[text.index("## a slow thing"):]
    assert "No result file yet: `python benchmarks/bench_slow.py`" in slow


def test_every_benchmark_writes_a_result_file():
    """Each benchmark ends by writing what it measured (benchmarks/_common.py: @recorded): the performance page is
    generated from those files."""
    for bench in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        assert "@recorded" in bench.read_text(), f"{bench.name}: its main() is not @recorded (benchmarks/_common.py)"


def test_contributing_and_changelog_pages(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS / "_fallback", docs / "_fallback")
    copy_project_files(docs, tmp_path)  # a checkout without the files: the fallback says so
    assert "no `CONTRIBUTING.md` yet" in (docs / "_generated" / "contributing.md").read_text()
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n\nSee [the layout](docs/architecture.md) and "
                                           "[an issue](https://example.org/1).\n")
    copy_project_files(docs, tmp_path)
    text = (docs / "_generated" / "changelog.md").read_text()
    assert "the layout (`docs/architecture.md`)" in text and "[an issue](https://example.org/1)" in text


# -------------------------------------------------------------------------------- what the pages must hold
def _autosummary_names(text: str) -> set[str]:
    names, current = set(), ""
    for block in re.findall(r"```\{eval-rst\}\n(.*?)```", text, re.S):
        for line in block.splitlines():
            m = re.match(r"\.\. currentmodule:: (\S+)", line)
            if m:
                current = m.group(1)
            elif re.match(r"   [A-Za-z_][\w.]*$", line):
                names.add(f"{current}.{line.strip()}" if current else line.strip())
    return names


def test_every_public_name_is_in_the_api_reference():
    import genesel

    listed = _autosummary_names((DOCS / "api" / "index.md").read_text())
    missing = {f"genesel.{n}" for n in genesel.__all__ if n != "__version__"} - listed
    assert not missing, f"add these to docs/api/index.md (an autosummary under their paper): {sorted(missing)}"


def test_every_public_module_is_in_the_api_reference():
    import data_fetch
    import genesel

    listed = _autosummary_names((DOCS / "api" / "modules.md").read_text())
    public = [m.name for pkg in (genesel, data_fetch)
              for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
              if not any(part.startswith("_") for part in m.name.split("."))]
    # a module is documented when it or a package above it is listed (the list is :recursive:)
    missing = [m for m in public if not any(m == n or m.startswith(n + ".") for n in listed)]
    assert not missing, f"add these to docs/api/modules.md: {missing}"


def test_every_notebook_has_its_results_page():
    from genesel.records.onrecord import NOTEBOOK_TABLES

    index = (DOCS / "results" / "index.md").read_text()
    for nb in NOTEBOOK_TABLES:
        page = DOCS / "results" / f"{nb}.md"
        assert page.is_file() and f"```{{genesel-onrecord}} {nb}\n" in page.read_text(), f"docs/results/{nb}.md"
        assert f"\n{nb}\n" in index, f"docs/results/index.md's toctree lists {nb}"


def test_the_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    first = text.split("\n\n", 2)[1]
    assert "gene selection" in first and "papers" in first, "what genesel is, in the first paragraph"
    for link in re.findall(r"\]\((docs/[^)#]+)\)", text):
        assert (ROOT / link).is_file(), f"the README links {link}, which does not exist"


# ------------------------------------------------------------------------------------------------- the build
@pytest.fixture(scope="module")
def site(runs, tmp_path_factory):
    """The site built by Sphinx from a copy of docs/ (so the build's generated files stay out of the checkout),
    with the synthetic runs as its course."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    base = tmp_path_factory.mktemp("site")
    src = base / "docs"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "_generated", "course", "generated"))
    shutil.copy(ROOT / "README.md", base / "README.md")
    out = base / "html"
    env = {**os.environ, "GENESEL_DOCS_ROOT": str(ROOT), "GENESEL_DOCS_RUNS": str(runs), "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "lib"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "1", str(src), str(out)],
                          env=env, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out, proc.stderr


def _pages(out: Path):
    return sorted(p for p in out.rglob("*.html") if "_static" not in p.parts)


def test_the_build_warns_about_nothing_of_ours(site):
    _, log = site
    ours = [ln for ln in log.splitlines() if "WARNING" in ln or "ERROR" in ln]
    assert not ours, "\n".join(ours[:30])


def test_the_site_has_every_page(site):
    out, _ = site
    for page in ["index", "getting-started", "own-data", "course/index", "results/index", "performance", "cluster",
                 "architecture", "api/index", "api/modules", "contributing", "changelog", "search",
                 "api/generated/genesel.SVMRFE", "results/06_leaderboard"]:
        assert (out / f"{page}.html").is_file(), page
    for stem in (p.stem for p in (ROOT / "notebooks").glob("[0-9]*.ipynb")):
        assert (out / "course" / f"{stem}.html").is_file(), stem
    assert (out / "course" / "02_gentile2003_alma-0a1b2c3d.html").is_file()


def _soup(path: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_every_image_has_alt_text(site):
    out, _ = site
    seen = 0
    for page in _pages(out):
        for img in _soup(page).find_all("img"):
            seen += 1
            assert img.get("alt", "").strip(), f"{page.relative_to(out)}: <img src={img.get('src')}> has no alt text"
            assert "No description has been provided" not in img["alt"]
    assert seen >= 18
    chapter = _soup(out / "course" / "02_gentile2003_alma.html")
    alts = [i["alt"] for i in chapter.find_all("img")]
    assert "Recorded alt text of figure 2" in alts, alts  # the notebook's own alt text reaches the <img>


# raw TeX: a dollar, a backslash command, _{ or ^{; in a notebook's prose also a sub- or superscript written as
# plain text (w_i, s_0, ‖w‖_q^q, ALMA_p)
_TEX = re.compile(r"\$|\\[A-Za-z]+|[_^]\{")
_PLAIN_SCRIPT = re.compile(r"(?<![\w/.-])[A-Za-zα-ωΑ-Ω‖|)\]²]+(?:_[A-Za-z0-9](?![A-Za-z])|\^[A-Za-z0-9(])")


def _visible_text(node) -> list[str]:
    """The text a reader sees outside code, rendered maths and scripts."""
    skip = {"script", "style", "code", "pre", "kbd", "samp", "math", "textarea"}
    out = []
    for s in node.find_all(string=True):
        parents = {p.name for p in s.parents}
        classes = {c for p in s.parents for c in (p.get("class") or [])}
        if parents & skip or classes & {"math", "highlight", "cell_output", "output", "sig", "copybtn", "autosummary"}:
            continue
        if s.strip():
            out.append(str(s))
    return out


def test_no_page_shows_raw_tex(site):
    out, _ = site
    bad = []
    for page in _pages(out):
        rel = page.relative_to(out).as_posix()
        if rel.startswith(("api/generated/", "_modules/")) or rel in ("genindex.html", "search.html",
                                                                     "py-modindex.html"):
            continue  # docstrings are plain text written for help() (so are the API tables); the indices list names
        main = _soup(page).find("main") or _soup(page)
        for text in _visible_text(main):
            strict = _TEX.search(text)
            loose = rel.startswith("course/") and _PLAIN_SCRIPT.search(text)
            if strict or loose:
                bad.append(f"{rel}: {text.strip()[:120]!r}")
    assert not bad, "raw TeX or plain-text maths outside $...$:\n" + "\n".join(bad[:40])


def test_maths_in_headings_and_text_is_mathematics(site):
    out, _ = site
    guyon = _soup(out / "course" / "01_guyon2002_svm_rfe.html")
    heading = next(h for h in guyon.find_all(["h2"]) if "subset size" in h.get_text())
    assert heading.find(class_="math"), "the maths in a heading is rendered as maths"
    gentile = _soup(out / "course" / "02_gentile2003_alma.html")
    maths = [m.get_text() for m in gentile.find_all(class_="math")]
    assert any(r"\lVert w\rVert_q^q" in m for m in maths) and any(r"\mathrm{ALMA}_{\ln f}" in m for m in maths)


def test_internal_links_and_anchors_resolve(site):
    """Every link between pages of the site reaches a page, and every #anchor an id of it. Each page is parsed once,
    its links and its ids read from the one tree (a page that is only a link target is parsed when first met)."""
    out, _ = site
    ids: dict[Path, set] = {}
    links: list[tuple[Path, str]] = []
    for page in _pages(out):
        soup = _soup(page)
        ids[page.resolve()] = {t["id"] for t in soup.find_all(id=True)}
        links += [(page, a["href"]) for a in soup.find_all("a", href=True)]
    broken = []
    for page, href in links:
        parts = urlsplit(href)
        if parts.scheme or href.startswith(("mailto:", "javascript:", "//")):
            continue  # external links are not fetched
        target = page.resolve() if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            broken.append(f"{page.relative_to(out)} -> {href}")
            continue
        if parts.fragment and target.suffix == ".html":
            if target not in ids:
                ids[target] = {t["id"] for t in _soup(target).find_all(id=True)}
            if unquote(parts.fragment) not in ids[target]:
                broken.append(f"{page.relative_to(out)} -> {href} (no such anchor)")
    assert not broken, "\n".join(broken[:40])


def test_offline_in_headless_chromium(site, tmp_path):
    """Pages open from the file system with the network cut: nothing is requested from outside, MathJax (bundled)
    typesets the maths, and the search (Sphinx's index, a script beside the pages) finds a word of a chapter."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no /usr/bin/chromium (.ci/run installs it)")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    out, _ = site
    external = []

    def route(r):
        if r.request.url.startswith(("file://", "data:", "blob:")):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": 1300, "height": 900}, offline=True)
            ctx.route("**/*", route)
            page = ctx.new_page()
            for rel in ["index.html", "api/generated/genesel.SVMRFE.html", "results/index.html"]:
                page.goto((out / rel).as_uri())
                page.wait_for_load_state("load")
            page.goto((out / "course" / "02_gentile2003_alma.html").as_uri())
            page.wait_for_function("document.querySelectorAll('mjx-container').length > 5", timeout=60_000)
            errors = page.evaluate("document.querySelectorAll('mjx-merror, [data-mjx-error]').length")
            assert errors == 0, "MathJax could not typeset some of the maths"
            page.screenshot(path=str(tmp_path / "chapter.png"))
            page.goto((out / "search.html").as_uri() + "?q=Winnow")
            page.wait_for_function("document.querySelectorAll('#search-results li').length > 0", timeout=60_000)
            found = page.evaluate("[...document.querySelectorAll('#search-results li a')].map(a => a.href)")
            assert any("02_gentile2003_alma" in h for h in found), found
        finally:
            browser.close()
    assert not external, f"requests that left the machine: {external}"


def test_solutions_are_folded_and_chapters_link_in_course_order(site):
    out, _ = site
    chapter = _soup(out / "course" / "00_datasets.html")
    shown = [d.summary.find(class_="collapsed") for d in chapter.find_all("details") if d.summary]
    folds = [t.find_parent("details") for t in shown if t is not None and t.get_text(strip=True) == "Solution"]
    n_solutions = sum("solution" in c.metadata.get("tags", []) for c in
                      nbformat.read(str(ROOT / "notebooks" / "00_datasets.ipynb"), as_version=4).cells)
    assert len(folds) == n_solutions >= 2 and not any(d.has_attr("open") for d in folds)
    nxt = chapter.find("a", class_="right-next")
    assert nxt is not None and nxt["href"].startswith("01_guyon2002_svm_rfe")


def test_a_benchmarks_command_line_names_no_path_of_the_machine_that_ran_it(tmp_path):
    """A committed result file shows its command line (benchmarks/_common.py: @recorded); a cell cache or a data
    mirror outside the checkout is shown as DIR or FILE, a path inside it relative to it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from _common import _portable
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    outside = tmp_path
    assert _portable(str(outside)) == "DIR" and _portable(f"--cache={outside}") == "--cache=DIR"
    assert _portable(str(outside / "x.csv")) == "FILE" and _portable("alon") == "alon"
    assert _portable(str(ROOT / "figures" / "README.md")) == "figures/README.md"
    for path in sorted((ROOT / "benchmarks" / "results").glob("*.json")):
        command = json.loads(path.read_text(encoding="utf-8"))["command"]
        assert str(ROOT.parent) not in command and "/var/" not in command, (path.name, command)
