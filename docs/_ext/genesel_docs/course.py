"""The course chapters: the executed notebooks of one mode folder, prepared for MyST-NB, in course order.

:func:`write_course` writes, into the site's ``course/`` folder (generated, git-ignored):

- ``<notebook>.ipynb`` for each notebook's default run (``runs/<mode>/<notebook>.ipynb``), prepared by
  :func:`prepare_notebook`: under its title a box saying how it was run (mode, whether the parameters were the
  defaults, the commit, date and time it took, every parameter with its value, default and meaning, the command
  that repeats it) and its other runs; exercise solutions (cells tagged ``solution``) folded under *Solution*;
  papermill's injected-parameters cell left out (the box shows the parameters);
- ``<notebook>-<digest>.ipynb`` for each run with other parameters (``runs/<mode>/<notebook>-<digest>/``), titled
  with the parameters that differ and listed under its notebook;
- ``<notebook>.md`` for a notebook that has not run yet (its title, its summary, and the command that runs it);
- ``index.md``: the chapters in course order, each with one sentence on what it does (:func:`summary_markdown`), its
  mode and parameters and its other runs;
- ``_alt.json``: the alt text of every figure, by chapter and by the SHA-256 of its image, which :mod:`.alt` puts
  on the ``<img>`` (MyST-NB names each image file by that hash).

Files are rewritten only when their text changes, so an incremental ``sphinx-build`` rereads only what changed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from genesel.records.runs import Run, course_key, find_runs, format_value, read_run, rerun_command

__all__ = ["write_course", "prepare_notebook", "summary_markdown", "first_sentence", "notebook_title", "figure_alt",
           "IMAGE_TYPES", "ALT_FILE"]

#: the image types whose outputs get alt text
IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml", "image/gif")
#: the map of image hash -> alt text, beside the chapters
ALT_FILE = "_alt.json"
#: what nbconvert writes for an image without a description; never taken for one
_PLACEHOLDER = "no description has been provided for this image"

_MODE_TEXT = {
    "quick": "**Quick mode**: the reduced protocols (fewer splits, data sets and genes; minutes), so the numbers are "
             "a first look, not the papers' protocols (`make full` runs those, in hours).",
    "full": "**Full mode**: the papers' own protocols.",
}


# ----------------------------------------------------------------------------------------- titles and summaries
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
_LEAD = re.compile(r"^\*\*(?P<lead>[^*]+?)\*\*\s*(?P<rest>.*)$", re.S)
_PREFERRED = re.compile(r"^(what (this notebook|the paper) (shows|does)|the idea|in (short|brief)|summary)\b", re.I)
_GOALS = re.compile(r"^learning goals", re.I)
_REPRODUCED = re.compile(r"^what is reproduced", re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_MASK = re.compile(r"`[^`\n]*`|\$\$.+?\$\$|\$[^$\n]+\$|\[[^\]]*\]\([^)]*\)|<[^>]+>", re.S)
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|cf|vs|al|etc|Fig|Figs|Eq|Eqs|Ref|Sec|No|approx|resp|Dr|Prof|St|p|pp|ch|"
                     r"Vol|ed|eds)|\b[A-Z])\.$")
_END = re.compile(r"[.!?](?:\*{1,2}|_{1,2}|[)\"”’])*(?=\s+[\"“(\[*_`$A-Z0-9]|\s*$)")
_YEAR = re.compile(r"\b(1[89]|20)\d\d\b")


def notebook_title(nb) -> str:
    """The text of the notebook's first ``#`` heading (Markdown as written), or ``""``."""
    for c in nb.cells:
        if c.cell_type == "markdown":
            m = re.search(r"^#\s+(.+?)\s*#*\s*$", c.source, re.M)
            if m:
                return m.group(1).strip()
    return ""


def _opening(nb) -> list[str]:
    """The notebook's opening Markdown: every Markdown cell before its first code cell that is not its parameters
    cell, cut at the first ``##`` heading."""
    out = []
    for c in nb.cells:
        if c.cell_type == "code":
            if out:
                break
            continue
        if c.cell_type != "markdown":
            continue
        cut = re.search(r"^#{2,}\s", c.source, re.M)
        out.append(c.source[: cut.start()] if cut else c.source)
        if cut:
            break
    return out


def first_sentence(text: str) -> str:
    """The first sentence of a Markdown paragraph, never cut inside code, maths, a link or after an abbreviation."""
    text = " ".join(text.split())
    masked = _MASK.sub(lambda m: "x" * len(m.group(0)), text)
    for m in _END.finditer(masked):
        if not _ABBREV.search(masked[: m.start() + 1]):
            return text[: m.end()].strip()
    return text.strip()


def _paragraph_and_list(block: str) -> tuple[str, list[str]]:
    para, items = [], []
    for line in block.splitlines():
        if _LIST_ITEM.match(line):
            items.append(_LIST_ITEM.sub("", line).strip())
        elif items:
            items[-1] += " " + line.strip()
        else:
            para.append(line.strip())
    return " ".join(para), items


def _sentence_from_goals(rest: str, items: list[str]) -> str:
    lead = rest.strip().rstrip(":").strip() or "After this notebook you can"
    if not items:
        return ""
    goal = items[0].rstrip(" ;,.")
    if re.match(r"[A-Z][a-z]", goal):  # "Tell an optimal subset ..." continues "you can": "tell an ..."
        goal = goal[0].lower() + goal[1:]
    goal = re.sub(r"\s*(?:;|,)?\s*(?:and|or)$", "", goal)
    return f"{lead} {goal}."


def summary_markdown(nb) -> str:
    """One sentence on what the notebook does, as Markdown, from its opening: the paragraph led by **What this
    notebook shows.** / **What the paper does.** / **The idea.**, else the learning goals ("After this notebook you
    can ..."), else the first prose paragraph that is not the paper's reference, else **What is reproduced.**;
    ``""`` when none ends as a sentence."""
    blocks = [b.strip() for text in _opening(nb) for b in re.split(r"\n\s*\n", text)]
    blocks = [b for b in blocks if b and not b.startswith("#")]
    preferred, goals, prose, reproduced = [], [], [], []
    for i, block in enumerate(blocks):
        para, items = _paragraph_and_list(block)
        m = _LEAD.match(para)
        lead = m["lead"].strip() if m else ""
        rest = m["rest"] if m else para
        if lead and _PREFERRED.match(lead) and rest:
            preferred.append(first_sentence(rest))
        elif lead and _GOALS.match(lead):
            goals.append(_sentence_from_goals(rest, items))
        elif lead and _REPRODUCED.match(lead):
            reproduced.append(first_sentence(rest) if rest.strip() else (first_sentence(items[0]) if items else ""))
        elif not lead and para and not items:
            citation = i == 0 and _YEAR.search(para) and re.search(r"(?<!\*)\*[^*]+\*(?!\*)", para)
            if not citation:
                prose.append(first_sentence(para))
    for sentence in preferred + goals + prose + reproduced:
        if sentence and re.search(r"[.!?][*_)\"”’]*$", sentence):
            return sentence
    return ""


# ----------------------------------------------------------------------------------------------------- alt text
def _plain(markdown: str) -> str:
    """One line of Markdown as plain text (emphasis, code marks, links and ``$`` dropped)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    return " ".join(text.replace("`", "").replace("$", "").split())


def figure_alt(output, mime: str) -> str:
    """The alt text recorded with an image output: ``output.metadata[mime]["alt"]`` (what :mod:`genesel.plotting`
    writes), else ``output.metadata["alt"]``; ``""`` when there is none (empty, "figure", "image" and nbconvert's
    placeholder count as none)."""
    md = output.get("metadata") or {}
    per_type = md.get(mime) if isinstance(md.get(mime), dict) else {}
    for value in (per_type.get("alt"), md.get("alt")):
        text = " ".join(str(value).split()) if value is not None else ""
        if text and text.lower() not in ("figure", "image", _PLACEHOLDER):
            return text
    return ""


def _image_hash(data, mime: str) -> str:
    """The SHA-256 MyST-NB names an image output's file by (the decoded bytes for base64 types)."""
    content = "".join(data) if isinstance(data, list) else data
    if mime in ("image/png", "image/jpeg", "image/gif"):
        raw = base64.b64decode(content)
    else:
        import os

        raw = os.linesep.join(str(content).splitlines()).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()


# ------------------------------------------------------------------------------------------- the run-info box
def _md_code(text: str) -> str:
    """``text`` as inline code that survives any backticks and table pipes inside it."""
    text = str(text).replace("|", "\\|").replace("\n", " ")
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_text(text: str) -> str:
    """Plain text safe in a Markdown table cell: pipes, dollars and asterisks escaped, one line."""
    return re.sub(r"([|$*_<>\[\]])", r"\\\1", " ".join(str(text or "").split()))


def _provenance_line(run: Run) -> str:
    p = run.provenance or {}
    parts = []
    if p.get("date"):
        parts.append(f"executed on {str(p['date'])[:10]}")
    version = (p.get("versions") or {}).get("genesel")
    if version:
        parts.append(f"genesel {version}")
    if p.get("commit"):
        parts.append(f"commit `{str(p['commit'])[:10]}`" + (" with uncommitted changes" if p.get("dirty") else ""))
    machine = p.get("machine") or {}
    if machine.get("cpu"):
        parts.append(f"{machine['cpu']}, {machine.get('cores', '?')} cores")
    if run.wall_seconds is not None:
        w = float(run.wall_seconds)
        parts.append(f"{w / 60:.0f} min wall" if w >= 90 else f"{w:.0f} s wall")
    return ("Run record: " + "; ".join(parts) + ".") if parts else ""


def _errors(nb) -> int:
    return sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
               if o.get("output_type") == "error")


def _run_info(run: Run, siblings: list[Run], errors: int, default_name: str | None) -> str:
    """The MyST text of the box under a chapter's title (see the module docstring)."""
    if not run.recorded:
        head = ("**Parameters not recorded**: this notebook was executed before genesel recorded them; run it again "
                "to see them here.")
    elif run.overrides:
        changed = ", ".join(f"{_md_code(f'{k} = {format_value(v, 80)}')} (default "
                            f"{_md_code(format_value(run.defaults.get(k), 80))})" for k, v in run.overrides.items())
        head = f"**Parameters changed**: this run used {changed}; everything else as by default."
    else:
        head = "**Default parameters**."
    lines = ["::::{admonition} How this chapter was run", ":class: genesel-run-info", "",
             f"{_MODE_TEXT.get(run.mode, 'Mode not recorded.')} {head}", ""]
    prov = _provenance_line(run)
    if prov:
        lines += [prov, ""]
    if errors:
        lines += [f"**{errors} cell(s) of this run failed**: their errors are shown where they happened.", ""]
    links = []
    if run.digest and default_name:
        links.append(f"[the run with the default parameters]({default_name}.ipynb)")
    links += [f"[{_md_code(s.label())}]({s.name}.ipynb)" for s in siblings if s is not run and s.digest]
    if links:
        lines += ["Other runs of this notebook: " + ", ".join(links) + ".", ""]
    if run.recorded and run.parameters:
        rows = ["| parameter | value | default | meaning |", "|---|---|---|---|"]
        for name, value in run.parameters.items():
            shown = (run.mode == "quick") if name == "quick" and run.mode else value
            mark = " (changed)" if name in run.overrides else ""
            rows.append(f"| {_md_code(name)}{mark} | {_md_code(format_value(shown))} | "
                        f"{_md_code(format_value(run.defaults.get(name)))} | {_md_text(run.help.get(name))} |")
        lines += [":::{dropdown} All parameters of this run", *rows, "",
                  f"Run it again: {_md_code(rerun_command(run))}", ":::"]
    lines.append("::::")
    return "\n".join(lines)


def _title_cell_index(nb) -> int:
    for i, c in enumerate(nb.cells):
        if c.cell_type == "markdown" and re.search(r"^#\s", c.source, re.M):
            return i
    return -1


def prepare_notebook(nb, run: Run, siblings: list[Run], default_name: str | None = None) -> tuple[object, dict]:
    """The executed notebook ``nb`` (a run, :class:`~genesel.records.runs.Run`) as a chapter, and the alt text of
    its figures by image hash. ``siblings``: every run of the same notebook (for the links and, on the default run's
    chapter, a hidden table of contents that puts the other runs in the site). ``nb`` is changed in place."""
    from nbformat.v4 import new_markdown_cell

    title = notebook_title(nb) or run.stem
    alts: dict[str, str] = {}
    heading, count = _plain(title), 0
    for cell in nb.cells:
        tags = list(cell.get("metadata", {}).get("tags") or [])
        if cell.cell_type == "markdown":
            for m in _HEADING.finditer(cell.source):
                heading, count = _plain(m.group(2)), 0
            continue
        if cell.cell_type != "code":
            continue
        if "injected-parameters" in tags:
            tags.append("remove-cell")
        if "solution" in tags:
            tags.append("hide-cell")
            cell.metadata["mystnb"] = {"code_prompt_show": "Solution", "code_prompt_hide": "Hide the solution"}
        if tags:
            cell.metadata["tags"] = tags
        for o in cell.get("outputs", []):
            data = o.get("data") or {}
            md = data.get("text/markdown")
            if md:
                for m in _HEADING.finditer("".join(md) if isinstance(md, list) else md):
                    heading, count = _plain(m.group(2)), 0
            images = [mime for mime in IMAGE_TYPES if mime in data]
            if images:
                count += 1
            for mime in images:
                alt = figure_alt(o, mime) or f"Figure {count} under “{heading}”, chapter “{_plain(title)}”"
                alts[_image_hash(data[mime], mime)] = alt
    i = _title_cell_index(nb)
    if run.digest:  # a run with other parameters: its own title
        cell = nb.cells[i] if i >= 0 else None
        if cell is not None:
            cell.source = re.sub(r"^(#\s+.+?)\s*$", lambda m: f"{m.group(1)} (run with {_md_code(run.label(60))})",
                                 cell.source, count=1, flags=re.M)
    info = _run_info(run, siblings, _errors(nb), default_name)
    others = [s.name for s in siblings if s.digest] if not run.digest else []
    if others:
        info += "\n\n```{toctree}\n:hidden:\n\n" + "\n".join(others) + "\n```"
    if i >= 0:  # the box right under the title: the title cell is cut after its heading
        source = nb.cells[i].source
        m = re.search(r"^#\s.*$", source, re.M)
        rest = source[m.end():].strip("\n")
        if rest.strip():
            nb.cells[i].source = source[: m.end()]
            nb.cells.insert(i + 1, new_markdown_cell(rest))
    nb.cells.insert(i + 1, new_markdown_cell(info, metadata={"tags": ["genesel-run-info"]}))
    return nb, alts


# ------------------------------------------------------------------------------------------------- the chapters
def _not_run_page(src_nb, stem: str, runs_dir: Path, others: list[Run]) -> str:
    title = notebook_title(src_nb) or stem
    prefix = re.match(r"\d+[a-z]*", stem)
    nb_arg = prefix.group(0) if prefix else stem
    lines = [f"# {title}", "", ":::{note}",
             f"This chapter has not been run yet in `{_shown(runs_dir)}`: `make run NB={nb_arg}` executes it "
             "(`make docs` runs every notebook that has no run, then builds the site).", ":::", ""]
    summary = summary_markdown(src_nb)
    if summary:
        lines += [summary, ""]
    if others:
        lines += ["Runs with other parameters: " +
                  ", ".join(f"[{_md_code(o.label())}]({o.name}.ipynb)" for o in others) + ".", "",
                  "```{toctree}", ":hidden:", "", *[o.name for o in others], "```", ""]
    return "\n".join(lines)


def _shown(runs_dir: Path) -> str:
    runs_dir = Path(runs_dir)
    return f"runs/{runs_dir.name}" if runs_dir.parent.name == "runs" else runs_dir.name


def _index_page(entries: list[dict], runs_dir: Path, modes: set[str]) -> str:
    from genesel._version import __version__

    mode = next(iter(modes)) if len(modes) == 1 else ""
    n_other = sum(len(e["others"]) for e in entries)
    lines = ["# The course", "",
             "The notebooks re-run each paper's experiments on the public data, in course order: the data sets "
             "(00), Guyon 2002 (01), Gentile 2003 (02), Helleputte 2009 (03), Shah 2012 (04), Tan 2006's three "
             "chapters (05a–05c) and the leaderboard of every method (06). Each opens with learning goals and "
             "what cannot be reproduced, ends with a paper-vs-genesel table, what differs and why, and exercises "
             "whose solutions are folded away.", "",
             f"{_MODE_TEXT.get(mode, 'Modes: ' + ', '.join(sorted(modes)) + '.' if modes else '')} These pages "
             f"show the notebooks executed in `{_shown(runs_dir)}` (genesel {__version__}); each chapter says at "
             "its top how it was run and how to run it again."
             + (f" {n_other} run{'s' if n_other != 1 else ''} with other parameters "
                f"{'are' if n_other != 1 else 'is'} listed under {'their' if n_other != 1 else 'its'} notebook."
                if n_other else ""), "",
             "```{toctree}", ":hidden:", ":maxdepth: 1", "", *[e["name"] for e in entries], "```", ""]
    for k, e in enumerate(entries, 1):
        status = "not run yet" if not e["run"] else (
            f"{e['run'].mode or 'mode not recorded'} mode, " + ("default parameters" if e["run"].is_default
                                                                else e["run"].label()))
        if e.get("errors"):
            status += f", {e['errors']} cell(s) failed"
        line = f"{k}. **[{e['title']}]({e['name']}{e['ext']})**"
        if e["summary"]:
            line += f": {e['summary']}"
        lines.append(f"{line} *({status})*")
        for o in e["others"]:
            lines.append(f"   - run with [{_md_code(o.label())}]({o.name}.ipynb)")
    lines.append("")
    return "\n".join(lines)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)


def write_course(out: Path, runs_dir: Path, notebooks_dir: Path) -> dict[str, str]:
    """Write the course chapters for the notebooks in ``notebooks_dir`` from the runs in ``runs_dir`` into ``out``
    (see the module docstring); files of an earlier build that are no longer wanted are removed. Returns
    ``{file name: text}`` of what the folder now holds (the chapters as JSON)."""
    import nbformat

    out, runs_dir = Path(out), Path(runs_dir)
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted(Path(notebooks_dir).glob("[0-9]*.ipynb"), key=lambda p: course_key(p.stem))
    runs: dict[str, list[tuple[Run, object]]] = {}
    for path, digest in (find_runs(runs_dir) if runs_dir.is_dir() else []):
        nb = nbformat.read(str(path), as_version=4)
        runs.setdefault(path.stem, []).append((read_run(path, nb, digest), nb))
    files: dict[str, str] = {}
    alts: dict[str, dict[str, str]] = {}  # chapter (document name) -> image hash -> alt text
    entries, modes = [], set()
    for src in sources:
        stem = src.stem
        found = runs.get(stem, [])
        default = next(((r, nb) for r, nb in found if r.digest is None), None)
        siblings = [r for r, _ in found]
        others = [r for r in siblings if r.digest]
        src_nb = nbformat.read(str(src), as_version=4)
        entry = {"name": stem, "title": notebook_title(src_nb) or stem, "summary": summary_markdown(src_nb),
                 "others": others, "run": default[0] if default else None, "ext": ".ipynb" if default else ".md"}
        if default:
            run, nb = default
            modes.add(run.mode)
            entry["errors"] = _errors(nb)
            prepared, a = prepare_notebook(nb, run, siblings)
            files[f"{stem}.ipynb"] = nbformat.writes(prepared)
            alts[f"course/{stem}"] = a
        else:
            files[f"{stem}.md"] = _not_run_page(src_nb, stem, runs_dir, others)
        for run, nb in found:
            if run.digest:
                modes.add(run.mode)
                prepared, a = prepare_notebook(nb, run, siblings, default_name=stem if default else None)
                files[f"{run.name}.ipynb"] = nbformat.writes(prepared)
                alts[f"course/{run.name}"] = a
        entries.append(entry)
    files["index.md"] = _index_page(entries, runs_dir, {m for m in modes if m})
    files[ALT_FILE] = json.dumps(alts, indent=0, sort_keys=True, ensure_ascii=False)
    for name, text in files.items():
        _write_if_changed(out / name, text)
    for old in out.iterdir():
        if old.is_file() and old.name not in files and old.suffix in (".ipynb", ".md", ".json"):
            old.unlink()
    return files
