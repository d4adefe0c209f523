"""The performance page, generated from what the benchmarks measured.

Every benchmark (``benchmarks/bench_*.py``) writes its measurements to ``benchmarks/results/<bench>.json`` (see
``benchmarks/_common.py``: the comparisons it made, each with genesel's time, the alternative's, their ratio and the
target where one is set; the command line; the commit, machine, load and date; and the benchmark's printed output).
:func:`benchmarks_markdown` turns those files into MyST, one section per benchmark in file order, its docstring
(as ``help()`` shows it) folded under it; a benchmark without a result file is listed with the command that measures it. Nothing on the page
is typed by hand. The site writes it to ``_generated/benchmarks.md`` when it is built, and ``performance.md``
includes it.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

__all__ = ["benchmarks_markdown", "write_benchmarks_page", "RESULTS_DIR"]

#: where a benchmark writes its results, inside ``benchmarks/``
RESULTS_DIR = "results"


def _docstring(path: Path) -> str:
    try:
        return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError):
        return ""


def _myst(rst: str) -> str:
    """The few reST marks of a benchmark docstring as MyST: ``code`` and :role:`target` become `code`."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", rst)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    return re.sub(r"(?<![\\`])\$", r"\\$", text)


def _cell(value) -> str:
    if value is None or value == "":
        return "–"
    return " ".join(str(value).split()).replace("|", "\\|").replace("$", "\\$")


def _target(row: dict) -> str:
    target = row.get("target")
    if not target:
        return "–"
    met = row.get("met")
    return f"{_cell(target)}: " + ("met ✔" if met else "**not met**" if met is not None else "not judged")


def _when(result: dict) -> str:
    p = result.get("provenance") or {}
    machine = p.get("machine") or {}
    parts = [f"measured on {str(p.get('date', 'an unrecorded date'))[:10]}"]
    if p.get("commit"):
        parts.append(f"commit `{str(p['commit'])[:10]}`" + (" with uncommitted changes" if p.get("dirty") else ""))
    if machine.get("cpu"):
        parts.append(f"{machine['cpu']}, {machine.get('cores', '?')} logical cores")
    load = result.get("load") or {}
    if load.get("start") is not None and load.get("end") is not None:
        parts.append(f"load average {load['start']:.1f} at the start, {load['end']:.1f} at the end")
    if result.get("wall_seconds") is not None:
        w = float(result["wall_seconds"])
        parts.append(f"{w / 60:.0f} min" if w >= 90 else f"{w:.0f} s")
    return "; ".join(parts)


def _section(bench: Path, results_dir: Path) -> list[str]:
    doc = _docstring(bench)
    first, _, rest = doc.partition("\n")
    title = re.sub(r"^Benchmark:\s*", "", first).strip().rstrip(".") or bench.stem
    lines = [f"## {_myst(title)}", "", f"`benchmarks/{bench.name}`", ""]
    path = results_dir / f"{bench.stem}.json"
    if not path.exists():
        lines += [":::{note}", f"No result file yet: `python benchmarks/{bench.name}` measures it and writes "
                  f"`benchmarks/{RESULTS_DIR}/{bench.stem}.json`, which this page shows.", ":::", ""]
    else:
        result = json.loads(path.read_text(encoding="utf-8"))
        command = result.get("command") or f"python benchmarks/{bench.name}"
        lines += [f"{_when(result).capitalize()}, by `{command}`.", ""]
        rows = result.get("rows") or []
        if rows:
            lines += ["| comparison | genesel | alternative | ratio | target | notes |", "|---|---|---|---|---|---|"]
            lines += [f"| {_cell(r.get('case'))} | {_cell(r.get('genesel'))} | {_cell(r.get('alternative'))} | "
                      f"{_cell(r.get('ratio'))} | {_target(r)} | {_cell(r.get('note'))} |" for r in rows]
            lines.append("")
        for name, table in (result.get("tables") or {}).items():
            if not table:
                continue
            cols = list(table[0])
            lines += [f"**{_cell(name)}**", "", "| " + " | ".join(_cell(c) for c in cols) + " |",
                      "|" + "---|" * len(cols)]
            lines += ["| " + " | ".join(_cell(row.get(c)) for c in cols) + " |" for row in table]
            lines.append("")
        if result.get("output"):
            lines += ["::::{dropdown} What the benchmark printed", "```text", result["output"].rstrip(), "```",
                      "::::", ""]
    if rest.strip():  # as help() shows it: plain text, its maths included
        lines += ["::::{dropdown} What it measures (the benchmark's docstring)", "```text", rest.strip(), "```",
                  "::::", ""]
    return lines


def benchmarks_markdown(benchmarks_dir: Path) -> str:
    """The MyST text of every benchmark's section (see the module docstring)."""
    benchmarks_dir = Path(benchmarks_dir)
    results_dir = benchmarks_dir / RESULTS_DIR
    benches = sorted(benchmarks_dir.glob("bench_*.py"))
    measured = [b for b in benches if (results_dir / f"{b.stem}.json").exists()]
    lines = [f"{len(measured)} of the {len(benches)} benchmarks have a result file"
             + (f" ({', '.join(f'`{b.stem}`' for b in measured)})." if measured else "."), ""]
    if len(measured) < len(benches):
        lines += ["The others say so below; `make bench` runs them all (hours on a 2-core machine) and each writes "
                  "its file.", ""]
    for bench in benches:
        lines += _section(bench, results_dir)
    return "\n".join(lines)


def write_benchmarks_page(out: Path, benchmarks_dir: Path) -> None:
    """Write :func:`benchmarks_markdown` to ``out`` when its text changed."""
    out = Path(out)
    text = benchmarks_markdown(benchmarks_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        out.write_text(text, encoding="utf-8")


def setup(app) -> None:
    def _write(app, config):
        root = Path(config.genesel_root)
        bench = Path(config.genesel_benchmarks_dir) if config.genesel_benchmarks_dir else root / "benchmarks"
        write_benchmarks_page(Path(app.srcdir) / "_generated" / "benchmarks.md", bench)

    app.connect("config-inited", _write)
