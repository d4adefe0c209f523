"""The first fit after an install: what compiling genesel's numba kernels costs, against another commit's code.

numba compiles a kernel at its first call for each new tuple of argument types and keeps the machine code on disk
(``cache=True``), so a fresh install, a new machine or a CI run pays the compilation once per signature. A kernel
called inside another kernel with a bare constant (``f(x, 0)``: ``Literal[int](0)``), with an argument left to its
default (``omitted``) or from Python with a read-only array compiles once more for each such variant, the whole
kernel again. ``tests/test_jit_signatures.py`` checks the code for the first two; this benchmark counts what actually
compiles.

Workload (the same for both codes, each in a fresh process with an empty numba cache): every public estimator of
``tests/estimators.py`` at its ``small`` settings and in each of its variants, fitted on 16 x 30 (two classes) and
24 x 30 (three classes) Gaussian data, writeable and read-only, and its ``predict`` (or ``transform``) on the same
data. A numba event listener adds up each compilation's time without the compilations nested in it (exclusive), per
kernel and signature. Printed: the compile time, the number of compiled signatures and how many of them are variants
(a literal, an omitted argument or a read-only array among their types), and the process's CPU time, for the
code of ``--base`` (a temporary git worktree) and for this checkout.

``python benchmarks/bench_jit_compile.py [--base 19bdd66]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import record, recorded  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

WORKLOAD = r'''
import json, resource, sys, time, warnings
import numpy as np
from numba.core import event, types
from numba.core.registry import CPUDispatcher

stack, compiled = [], []


class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        t0, nested = stack.pop()
        dt = time.perf_counter() - t0
        if stack:
            stack[-1][1] += dt
        d = ev.data.get("dispatcher")
        f = getattr(d, "py_func", None)
        name = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
        args = ev.data.get("args") or ()
        variant = any(isinstance(t, (types.Literal, types.Omitted)) or (isinstance(t, types.Array) and not t.mutable)
                      for t in args)
        compiled.append((name, dt - nested, variant, str(args) if variant else ""))


event.register("numba:compile", Listener())
import estimators as E  # noqa: E402  (tests/estimators.py of the code measured)

rng = np.random.default_rng(0)
failed = []
for name in E.NAMES:
    for kw in [{}] + [v for v, _ in E.SETTINGS[name].variants]:
        for k in (2, 3):
            for read_only in (False, True):
                X = rng.normal(size=(8 * k, 30))
                y = np.repeat(np.arange(k), 8)
                X[:, :3] += y[:, None]
                if name == "CountNormalizer":
                    X = np.round(np.abs(X) * 10) + 1
                if k == 2:
                    y = np.where(y == 1, 1, -1)
                if read_only:
                    X.setflags(write=False)
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        est = E.build(name, small=True, **kw).fit(X, y)
                        (est.predict if hasattr(est, "predict") else est.transform)(X)
                except Exception as e:  # an estimator that refuses this data (e.g. binary only): not a compile cost
                    failed.append(f"{name} {kw} k={k}: {type(e).__name__}")
ru = resource.getrusage(resource.RUSAGE_SELF)
json.dump({"compiled": compiled, "cpu_s": ru.ru_utime + ru.ru_stime, "failed": failed}, open(sys.argv[1], "w"))
'''


def measure(tree: Path, work: Path, label: str) -> dict:
    """Run the workload on the code of ``tree`` in a fresh process and an empty numba cache."""
    out = work / f"{label}.json"
    env = dict(os.environ, PYTHONPATH=f"{tree / 'lib'}{os.pathsep}{tree / 'tests'}",
               XDG_CACHE_HOME=str(work / f"cache-{label}"), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env.pop("NUMBA_CACHE_DIR", None)
    subprocess.run([sys.executable, "-c", WORKLOAD, str(out)], env=env, cwd=work, check=True)
    r = json.loads(out.read_text())
    comp = r["compiled"]
    genesel = [c for c in comp if c[0].startswith("genesel")]
    res = {"compile_s": sum(c[1] for c in comp), "signatures": len(genesel),
           "variants": sum(c[2] for c in genesel), "variant_s": sum(c[1] for c in genesel if c[2]),
           "cpu_s": r["cpu_s"], "failed": len(r["failed"])}
    top = {}
    res["variant_kernels"] = sorted({c[0] for c in genesel if c[2]})
    for name, s, v, _ in genesel:
        t = top.setdefault(name, [0.0, 0, 0])
        t[0] += s
        t[1] += 1
        t[2] += v
    res["kernels"] = len(top)
    res["most"] = sorted(((round(s, 2), n, name) for name, (s, n, v) in top.items() if n > 1), reverse=True)[:8]
    print(f"{label}: compiling {res['compile_s']:.1f} s, {res['signatures']} signatures of {len(top)} genesel "
          f"kernels, {res['variants']} of them variants ({res['variant_s']:.1f} s); process CPU {res['cpu_s']:.1f} s; "
          f"{res['failed']} fits refused")
    for s, n, name in res["most"]:
        print(f"    {name}: {n} signatures, {s} s")
    print(f"    kernels compiled in a variant: {', '.join(res['variant_kernels']) or 'none'}")
    return res


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="19bdd66", help="the code to compare with (default: before the change)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base_tree = work / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base_tree), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            old = measure(base_tree, work, f"base {args.base}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, capture_output=True)
        new = measure(ROOT, work, "now")
    record("compiling the kernels of every estimator's first fit and prediction (empty numba cache)",
           genesel=f"{new['compile_s']:.1f} s ({new['signatures']} signatures, {new['variants']} variants)",
           alternative=f"base {args.base}: {old['compile_s']:.1f} s ({old['signatures']} signatures, "
                       f"{old['variants']} variants)",
           ratio=f"{old['compile_s'] / new['compile_s']:.2f}x",
           note=f"process CPU {old['cpu_s']:.1f} -> {new['cpu_s']:.1f} s",
           base_compile_s=old["compile_s"], now_compile_s=new["compile_s"], base_signatures=old["signatures"],
           now_signatures=new["signatures"], base_variants=old["variants"], now_variants=new["variants"],
           base_cpu_s=old["cpu_s"], now_cpu_s=new["cpu_s"])
    print(f"compiling: {old['compile_s']:.1f} s -> {new['compile_s']:.1f} s "
          f"({old['compile_s'] / new['compile_s']:.2f}x); process CPU {old['cpu_s']:.1f} -> {new['cpu_s']:.1f} s")


if __name__ == "__main__":
    main()
