"""genesel's numba kernels compile one machine code per kind of input, not one per call site.

numba compiles a kernel afresh for every new tuple of argument *types*, and a call written inside another kernel
types a bare constant as a literal: ``f(x, 0)`` and ``f(x, k)`` are two compilations of ``f`` (``Literal[int](0)``
and ``int64``), ``f(x, True)`` a third (``Literal[bool](True)``), and a call that leaves an argument to its default
(``omitted(default=...)``) a fourth, and a read-only array from Python (a memory map) a fifth. Each costs the whole
compilation of the kernel again on the first fit after an install, in every fresh machine and CI run: with an empty
numba cache, every estimator's first fit and prediction compiled 140 signatures of 107 kernels, 31 of them such
variants (31 of 180 s of compiling; none since: ``benchmarks/bench_jit_compile.py``). So inside a kernel a
constant argument of another kernel is typed on purpose (``np.int64(0)``, ``np.bool_(True)``, or a named module
constant, which numba types as its plain type), no call of a kernel leaves an argument to its default, and the
wrappers hand the kernels writeable arrays.

The check reads the code (every call of a kernel in genesel's modules, resolved through the calling module's names),
so that it does not depend on what happens to be compiled in the test process. It cannot see everything: a variable
set to a bare constant before a loop that reassigns it (``cur = 0``) is typed as the literal in numba's first pass
over the loop and compiles the callee once more too; the benchmark, which compiles from an empty cache, counts those.
"""

import ast
import importlib
import inspect
import pkgutil
import textwrap

from numba.core.registry import CPUDispatcher

import genesel


def _modules():
    out = []
    for info in pkgutil.walk_packages(genesel.__path__, "genesel."):
        if info.name.endswith("__main__"):  # runs the command line
            continue
        try:
            out.append(importlib.import_module(info.name))
        except Exception:  # noqa: BLE001 - optional extras (dask, anndata) may be missing
            continue
    return out


def _resolve(node, module):
    """The object a call's callee names in ``module`` (``f`` or ``alias.f``), or None."""
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        base = getattr(module, node.value.id, None)
        return getattr(base, node.attr, None) if inspect.ismodule(base) else None
    return None


def _literal(arg) -> bool:
    """A bare int or bool constant (numba types it as a literal); floats and strings are not literal-typed."""
    return isinstance(arg, ast.Constant) and isinstance(arg.value, (bool, int))


def kernel_call_problems(modules=None) -> list:
    """Every call of a genesel kernel that compiles a variant of its own: ``(where, callee, why)``."""
    problems = []
    for module in modules if modules is not None else _modules():
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(module)))
        except (OSError, TypeError):
            continue
        for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            in_kernel = isinstance(getattr(module, fn.name, None), CPUDispatcher)
            for call in [n for n in ast.walk(fn) if isinstance(n, ast.Call)]:
                callee = _resolve(call.func, module)
                if not isinstance(callee, CPUDispatcher) or callee.targetoptions.get("inline") == "always":
                    continue  # not a kernel, or one numba inlines into its caller's code (no compilation of its own)
                where = f"{module.__name__}.{fn.name} (line {call.lineno})"
                name = f"{callee.py_func.__module__}.{callee.py_func.__name__}"
                params = inspect.signature(callee.py_func).parameters
                if in_kernel:
                    for i, arg in enumerate(call.args):
                        if _literal(arg):
                            problems.append((where, name, f"argument {i} is the bare constant {arg.value!r}"))
                    for kw in call.keywords:
                        if _literal(kw.value):
                            problems.append((where, name, f"argument {kw.arg} is the bare constant {kw.value.value!r}"))
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    continue
                given = len(call.args) + len(call.keywords)
                if given < len(params):
                    left = [p for p in list(params)[len(call.args):] if p not in {k.arg for k in call.keywords}]
                    problems.append((where, name, f"leaves {', '.join(left)} to the default"))
    return problems


def test_no_kernel_call_compiles_a_variant_of_its_own():
    problems = kernel_call_problems()
    assert not problems, "\n".join(f"{w}: {c}: {why}" for w, c, why in problems)


def test_the_check_finds_a_literal_and_an_omitted_argument(tmp_path, monkeypatch):
    src = textwrap.dedent('''
        import numpy as np
        from numba import njit

        @njit(cache=False)
        def f(x, k, flag=True):
            return x[k] if flag else 0.0

        @njit(cache=False)
        def bad(x):
            return f(x, 0, True) + f(x, np.int64(0))

        @njit(cache=False)
        def good(x, k):
            return f(x, k, np.bool_(True)) + f(x, np.int64(0), FLAG)

        FLAG = True

        def python_side(x):
            return f(x, 1, True)        # from Python a constant is typed by its value: int64
    ''')
    (tmp_path / "probe_kernels.py").write_text(src)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("probe_kernels")
    found = {(w.split(" ")[0], why) for w, _, why in kernel_call_problems([module])}
    assert found == {("probe_kernels.bad", "argument 1 is the bare constant 0"),
                     ("probe_kernels.bad", "argument 2 is the bare constant True"),
                     ("probe_kernels.bad", "leaves flag to the default")}
