"""CONTRIBUTING.md's checklists against the repository and against the tests that enforce a registration.

A checklist is the block between ``<!-- checklist: KIND -->`` and ``<!-- /checklist -->``, one numbered step per
item. Every file a step names (in backticks, a path under a top-level entry of the repository; ``<name>`` and
``NN`` are placeholders) exists, every dotted ``genesel.`` / ``data_fetch.`` name resolves, and every identifier
a step names occurs in a file the step names: a renamed file or registry makes its step fail here. Every test that
fails when a contribution misses a registration carries ``@pytest.mark.registration(KIND, WHERE, ...)``; each
WHERE must be named by a step of KIND's checklist, so an enforced step missing from the checklist fails here too.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
KINDS = ("estimator", "paper", "dataset", "leaderboard method")

_BLOCK = re.compile(r"<!-- checklist: (?P<kind>[^>]+?) -->\n(?P<body>.*?)<!-- /checklist -->", re.S)
_STEP = re.compile(r"^\d+\. ", re.M)
_TICKS = re.compile(r"`([^`\n]+)`")
_IDENT = re.compile(r"^_*[A-Za-z][A-Za-z0-9_]*$")


def checklists(text: str) -> dict[str, list[str]]:
    """{kind: [step text, ...]} of every checklist block of ``text``."""
    out = {}
    for m in _BLOCK.finditer(text):
        body = m["body"]
        starts = [s.start() for s in _STEP.finditer(body)]
        out[m["kind"].strip()] = [body[a:b].strip() for a, b in zip(starts, starts[1:] + [len(body)])]
    return out


def tokens(step: str) -> list[str]:
    return _TICKS.findall(step)


def _glob(token: str) -> list[Path]:
    pattern = re.sub(r"<[^>]+>", "*", token).replace("NN", "*").rstrip("/")
    return sorted(ROOT.glob(pattern))


def _is_repo_path(token: str) -> bool:
    if " " in token or token.startswith(("$", ".", "-")):
        return False
    first = token.split("/")[0]
    return ("/" in token and (ROOT / first).exists()) or (ROOT / token).is_file()


def _resolve(dotted: str):
    """(the object a dotted name names, the module that holds it)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            module = obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj, module
    raise ImportError(dotted)


def step_problems(step: str) -> list[str]:
    """What a step names that does not exist (an empty list: the step is true of the repository)."""
    problems, files = [], []
    for tok in tokens(step):
        if _is_repo_path(tok):
            found = _glob(tok)
            if not found:
                problems.append(f"no file matches `{tok}`")
            files += [p for p in found if p.is_file()] + [q for p in found if p.is_dir() for q in p.rglob("*.py")]
        elif re.match(r"^(genesel|data_fetch)\.[\w.]+$", tok):
            try:
                _, module = _resolve(tok)
            except (ImportError, AttributeError):
                problems.append(f"`{tok}` does not resolve")
                continue
            files.append(Path(module.__file__))
    texts = [p.read_text(errors="replace") for p in files if p.suffix in (".py", ".ipynb", ".md", ".cff", ".toml")]
    if texts:
        for tok in tokens(step):
            if _IDENT.match(tok) and not any(re.search(rf"\b{re.escape(tok)}\b", t) for t in texts):
                problems.append(f"`{tok}` occurs in none of the files the step names")
    return problems


def registrations(tests_dir: Path = TESTS) -> list[tuple[str, tuple[str, ...], str]]:
    """Every ``@pytest.mark.registration(kind, where, ...)`` of the test files: (kind, wheres, test)."""
    out = []
    for path in sorted(tests_dir.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
                        and dec.func.attr == "registration"):
                    args = tuple(a.value for a in dec.args if isinstance(a, ast.Constant))
                    out.append((args[0], args[1:], f"{path.relative_to(tests_dir.parent)}::{node.name}"))
    return out


def missing_from_checklists(lists: dict[str, list[str]], regs) -> list[str]:
    """The enforced registrations that no step of their kind's checklist names."""
    out = []
    for kind, wheres, test in regs:
        named = {t for step in lists.get(kind, []) for t in tokens(step)}
        for where in wheres:
            if where not in named:
                out.append(f"{test} enforces `{where}` for a new {kind}, which the {kind} checklist does not name")
    return out


LISTS = checklists(CONTRIBUTING.read_text())
REGISTRATIONS = registrations()


def test_contributing_has_a_checklist_for_each_kind_of_extension():
    assert set(LISTS) == set(KINDS), f"CONTRIBUTING.md's checklists: {sorted(LISTS)}, expected {KINDS}"
    for kind, steps in LISTS.items():
        assert len(steps) >= 2, f"the {kind} checklist has {len(steps)} step(s)"
        for i, step in enumerate(steps, 1):
            assert tokens(step), f"{kind} step {i} names no file or registry (in backticks): {step[:80]!r}"


@pytest.mark.parametrize("kind,i", [(k, i) for k in KINDS for i in range(len(LISTS.get(k, [])))])
def test_every_step_names_what_exists(kind, i):
    problems = step_problems(LISTS[kind][i])
    assert not problems, f"CONTRIBUTING.md, {kind} step {i + 1}: {problems}"


def test_every_enforced_registration_is_a_step_of_its_checklist():
    assert REGISTRATIONS, "no test carries @pytest.mark.registration"
    assert {k for k, _, _ in REGISTRATIONS} <= set(KINDS), {k for k, _, _ in REGISTRATIONS}
    assert {k for k, _, _ in REGISTRATIONS} == set(KINDS), "every kind has at least one enforcing test"
    missing = missing_from_checklists(LISTS, REGISTRATIONS)
    assert not missing, "\n".join(missing)


def test_every_registration_test_declares_what_it_enforces():
    """tests/test_registrations.py is where registrations are enforced: each of its tests says which."""
    marked = {t.split("::")[1] for _, _, t in REGISTRATIONS if t.startswith("tests/test_registrations.py")}
    tree = ast.parse((TESTS / "test_registrations.py").read_text())
    tests = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    assert tests == marked, f"without @pytest.mark.registration: {sorted(tests - marked)}"


# ---------------------------------------------------------------------------------------------------------------
# the checks above can fail
# ---------------------------------------------------------------------------------------------------------------


def test_a_step_dropped_from_a_checklist_fails():
    text = CONTRIBUTING.read_text()
    step = next(s for s in LISTS["estimator"] if "`tests/estimators.py`" in s)
    lists = checklists(text.replace(step, "4. Its entry in the table of test settings."))
    missing = missing_from_checklists(lists, REGISTRATIONS)
    assert any("`tests/estimators.py`" in m for m in missing), missing
    assert not missing_from_checklists(LISTS, REGISTRATIONS)


def test_a_step_naming_what_does_not_exist_fails():
    assert step_problems("1. Its entry in `lib/genesel/no_such_module.py`.") == \
        ["no file matches `lib/genesel/no_such_module.py`"]
    assert step_problems("1. Its name in `genesel.datasets.NO_SUCH_TABLE`.") == \
        ["`genesel.datasets.NO_SUCH_TABLE` does not resolve"]
    assert step_problems("1. One entry in `NO_SUCH_NAME` of `data_fetch/registry.py`.") == \
        ["`NO_SUCH_NAME` occurs in none of the files the step names"]
    assert step_problems("1. One entry in `DATASETS` of `data_fetch/registry.py`, see `lib/genesel/<module>.py`.") \
        == []


def test_an_enforcing_test_is_found_by_its_marker(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n\n\n@pytest.mark.registration('dataset', 'data_fetch/registry.py', 'NEW_TABLE')\n"
        "def test_x():\n    pass\n")
    regs = registrations(tmp_path / "tests")
    assert regs == [("dataset", ("data_fetch/registry.py", "NEW_TABLE"), "tests/test_x.py::test_x")]
    assert missing_from_checklists(LISTS, regs) == [
        "tests/test_x.py::test_x enforces `NEW_TABLE` for a new dataset, which the dataset checklist does not name"]
