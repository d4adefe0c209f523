"""The static report (make report): rendered from executed notebooks, opened in headless Chromium, checked for
typeset mathematics, embedded figures with alt text, no failed cell, and nothing fetched from the network."""

import shutil
from pathlib import Path

import pytest

from genesel.experiments.report import build_report, latex_to_mathml

ROOT = Path(__file__).resolve().parents[1]


def test_latex_becomes_mathml_outside_code():
    out = latex_to_mathml(r"Golub's $P(g) = \frac{\mu_+ - \mu_-}{\sigma_+ + \sigma_-}$ and `$x$` and $$w_i^2$$ cost $5")
    assert out.count("<math") == 2 and 'display="block"' in out
    assert "`$x$`" in out and "cost $5" in out  # code spans and lone dollars are left alone
    assert "<mfrac>" in out


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.notebook
def test_report_in_headless_chromium(tmp_path, monkeypatch, mirror):
    browser_path = _chromium()
    if browser_path is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it")
    sync_api = pytest.importorskip("playwright.sync_api")
    from genesel.experiments.runner import execute_notebook

    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path / "figures"))
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(tmp_path / "cache"))
    runs = tmp_path / "runs"
    execute_notebook(ROOT / "notebooks" / "00_datasets.ipynb", runs, quick=True, timeout=600)
    index = build_report(runs, tmp_path / "report")
    page_path = index.parent / "00_datasets.html"
    html = page_path.read_text()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://cdn" not in html
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(index.as_uri())
        assert "00_datasets.html" in page.content() and "failed" not in page.inner_text("body")
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        info = page.evaluate("""() => ({
            maths: [...document.querySelectorAll('math')].map(m => {
                const r = m.getBoundingClientRect();
                return {w: r.width, h: r.height, display: getComputedStyle(m).display};
            }),
            dollars: (document.body.innerText.match(/\\$[^$\\n]{1,40}\\$/g) || []).length,
            errors: document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]').length,
            tracebacks: [...document.querySelectorAll('pre')].filter(e => /Traceback|Error:/.test(e.innerText)).length,
            images: [...document.querySelectorAll('img')].map(i => ({src: i.src.slice(0, 22), alt: i.alt,
                                                                    w: i.naturalWidth})),
        })""")
        page.screenshot(path=str(tmp_path / "report_top.png"))
        page.locator("math").first.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "report_math.png"))
        browser.close()
    assert info["maths"], "no MathML in the rendered page"
    assert all(m["w"] > 0 and m["h"] > 0 and "math" in m["display"] for m in info["maths"]), info["maths"]
    assert info["dollars"] == 0, "raw $...$ left in the page text"
    assert info["errors"] == 0 and info["tracebacks"] == 0, "a cell shows an error or writes to stderr"
    assert info["images"] and all(i["src"].startswith("data:image/png") and i["w"] > 0 for i in info["images"])
    assert all(i["alt"] and "No description" not in i["alt"] for i in info["images"])
    assert all(u.startswith(("file:", "data:")) for u in requests), [u for u in requests if not u.startswith("file:")]
