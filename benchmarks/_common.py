"""What every benchmark shares: where the data come from, the papers' preprocessing, and a fair timer.

- Data: ``add_data_arguments(parser)`` adds ``--mirror DIR``; :func:`use_mirror` exports it as
  ``GENESEL_DATA_MIRROR`` (otherwise the variable from the environment is used, as ``make bench`` sets it from the
  Makefile's default; without either, data are downloaded from their pinned URLs). No machine path is built in.
- :func:`load_split`: a registered data set's training and test parts (its predefined split, a seeded
  stratified half/half split, or every sample), preprocessed as a paper did it, fitted on the training part only:
  ``"recommended"`` (:func:`genesel.datasets.recommended_preprocessing`), ``"guyon"``
  (:func:`genesel.papers.guyon2002.guyon_preprocess`) or ``None`` (raw values).
- :func:`best_of`: run a function ``repeats`` times and keep the best wall and the best CPU time (the machine may
  be shared; CPU time is the steadier measure there), and :func:`report_ratio` prints both ratios side by side.
- What a benchmark measured goes on record: :func:`report_ratio` and :func:`record` keep each comparison (genesel's
  time, the alternative's, the ratio and its target), and a benchmark's ``main`` decorated with :func:`recorded`
  writes them when it returns to ``benchmarks/results/<bench>.json``, with the command line, the commit, machine,
  library versions and date (:func:`genesel.records.provenance.provenance`), the load average at the start and the
  end, and everything the benchmark printed. The documentation site's performance page is generated from those
  files (nothing there is typed by hand). ``--no-record`` (or ``GENESEL_BENCH_RECORD=0``) runs without writing, for
  a partial or exploratory run.
- Previous code against this code: :func:`load_previous` imports the modules of an earlier commit as a package of
  their own (their imports of each other redirected to it), and :func:`compare_previous_folds` runs whole leaderboard
  folds with the estimators of each and says whether the rows are identical, with the CPU ratio.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

__all__ = ["add_data_arguments", "use_mirror", "load_split", "best_of", "report_ratio", "record", "recorded",
           "load_previous", "compare_previous_folds", "RESULTS_DIR"]

#: where the benchmarks write what they measured (committed: the performance page is generated from it)
RESULTS_DIR = Path(__file__).resolve().parent / "results"
_ROWS: list[dict] = []


def add_data_arguments(parser):
    parser.add_argument("--mirror", metavar="DIR", default=None,
                        help="a folder holding the raw data files (default: $GENESEL_DATA_MIRROR, else download)")
    return parser


def use_mirror(args) -> None:
    if getattr(args, "mirror", None):
        os.environ["GENESEL_DATA_MIRROR"] = os.path.abspath(args.mirror)


def load_split(name: str, *, split: str = "predefined", preprocess: str | None = "recommended", seed: int = 0):
    """(X_train, y_train, X_test, y_test) of data set ``name``; see the module doc. ``split``: ``"predefined"``
    (falls back to a seeded stratified half/half split when the data set has none), ``"half"`` or ``"all"`` (no
    test part: X_test and y_test are empty)."""
    from genesel.datasets import load_dataset, recommended_preprocessing
    from genesel.experiments import random_splits

    ds = load_dataset(name)
    if split == "all":
        tr, te = np.arange(ds.y.size), np.array([], dtype=int)
    elif split == "predefined" and ds.train_idx is not None:
        tr, te = np.asarray(ds.train_idx), np.asarray(ds.test_idx)
    elif split in ("predefined", "half"):
        (tr, te), = random_splits(ds.y, ds.y.size // 2, 1, seed, stratified=True)
    else:
        raise ValueError(f"split must be 'predefined', 'half' or 'all', got {split!r}")
    Xtr, Xte = ds.X[tr], ds.X[te]
    if preprocess == "recommended":
        pp = recommended_preprocessing(name).fit(Xtr)
        Xtr, Xte = pp.transform(Xtr), (pp.transform(Xte) if te.size else Xte)
    elif preprocess == "guyon":
        from genesel.papers.guyon2002 import guyon_preprocess

        Xtr, Xte_, _ = guyon_preprocess(Xtr, Xte if te.size else None, name)
        Xte = Xte_ if te.size else np.empty((0, Xtr.shape[1]))
    elif preprocess is not None:
        raise ValueError(f"preprocess must be 'recommended', 'guyon' or None, got {preprocess!r}")
    return Xtr, ds.y[tr], Xte, ds.y[te]


def best_of(fn, repeats: int = 3):
    """(last result, best wall seconds, best CPU seconds) over ``repeats`` calls of ``fn()``."""
    out, wall, cpu = None, np.inf, np.inf
    for _ in range(max(1, int(repeats))):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return out, wall, cpu


def _seconds(s: float) -> str:
    return f"{s * 1e3:.3g} ms" if s < 0.1 else f"{s:.3g} s"


def record(case: str, *, genesel: str, alternative: str = "", ratio: str = "", target: str = "",
           met: bool | None = None, note: str = "", **numbers) -> dict:
    """Keep one comparison this run measured for its result file (see the module docstring): ``case`` what was
    timed on what data, ``genesel`` / ``alternative`` their measurements as text (the alternative named), ``ratio``
    the speed-up as text, ``target`` and ``met`` the benchmark's target and whether this run met it, ``note`` what
    else was compared (agreement of the results); ``numbers`` the measurements as numbers (seconds, ratios)."""
    row = {"case": case, "genesel": genesel, "alternative": alternative, "ratio": ratio, "target": target,
           "met": met, "note": note, "numbers": {k: (float(v) if isinstance(v, (int, float, np.number)) else v)
                                                  for k, v in numbers.items()}}
    _ROWS.append(row)
    return row


def record_change(label: str, base: tuple[float, float], now: tuple[float, float], note: str = "", **extra) -> dict:
    """Keep one case timed with the code of another commit (``base``) and today's (``now``), each (CPU s, wall s):
    both timings, the CPU ratio and ``note``, for the benchmarks that compare commits case by case."""
    (c_old, w_old), (c_new, w_new) = base, now
    return record(label, genesel=f"{c_new:.2f} s CPU ({w_new:.2f} s wall)",
                  alternative=f"base: {c_old:.2f} s CPU ({w_old:.2f} s wall)", ratio=f"{c_old / c_new:.2f}x CPU",
                  note=note, base_cpu_s=c_old, now_cpu_s=c_new, base_wall_s=w_old, now_wall_s=w_new,
                  ratio_cpu=c_old / c_new, **extra)


def record_total(totals) -> None:
    """Print and keep the sum over a run's cases of (base CPU s, now CPU s) pairs: the benchmarks that compare the
    code of another commit with today's, case by case."""
    c_old, c_new = (sum(t[i] for t in totals) for i in (0, 1))
    print(f"all cases: base {c_old:.1f} s CPU -> now {c_new:.1f} s CPU, {c_old / c_new:.2f}x")
    record("all cases", genesel=f"{c_new:.1f} s CPU", alternative=f"base: {c_old:.1f} s CPU",
           ratio=f"{c_old / c_new:.2f}x CPU", base_cpu_s=c_old, now_cpu_s=c_new)


def report_ratio(label: str, ours: tuple[float, float], theirs: tuple[float, float], name: str = "genesel", *,
                 other: str = "other", target: float | None = None, note: str = "") -> str:
    """One line: both timings and the speed-up by wall and by CPU time (``ours``/``theirs`` = (wall, cpu)), printed
    and kept (:func:`record`) with ``other`` naming the alternative and ``target`` the CPU speed-up aimed at."""
    wall_ratio, cpu_ratio = theirs[0] / ours[0], theirs[1] / max(ours[1], 1e-12)
    line = (f"{label}: {name} {ours[0]:.3f} s wall / {ours[1]:.3f} s CPU, {other} {theirs[0]:.3f} s wall / "
            f"{theirs[1]:.3f} s CPU -> {wall_ratio:.1f}x wall, {cpu_ratio:.1f}x CPU")
    print(line)
    record(label, genesel=f"{_seconds(ours[1])} CPU ({_seconds(ours[0])} wall)",
           alternative=f"{other}: {_seconds(theirs[1])} CPU ({_seconds(theirs[0])} wall)",
           ratio=f"{cpu_ratio:.1f}× CPU ({wall_ratio:.1f}× wall)",
           target=f"≥ {target:g}× CPU" if target else "", met=(cpu_ratio >= target) if target else None, note=note,
           genesel_wall_s=ours[0], genesel_cpu_s=ours[1], other_wall_s=theirs[0], other_cpu_s=theirs[1],
           ratio_wall=wall_ratio, ratio_cpu=cpu_ratio)
    return line


class _Tee(io.TextIOBase):
    def __init__(self, stream):
        self.stream, self.buffer_ = stream, io.StringIO()

    def write(self, text):
        self.buffer_.write(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def recorded(main):
    """Decorate a benchmark's ``main``: its printed output is kept, and when it returns, what it measured
    (:func:`record`, :func:`report_ratio`) and ``tables`` (``main`` may return ``{"tables": {name: [row dicts]}}``)
    go to ``benchmarks/results/<bench>.json`` (see the module docstring). ``--no-record`` on the command line (taken
    out before ``main`` parses it) or ``GENESEL_BENCH_RECORD=0`` writes nothing."""
    bench = Path(sys.modules[main.__module__].__file__).stem if main.__module__ != "__main__" \
        else Path(sys.argv[0]).stem

    @functools.wraps(main)
    def wrapper(argv=None, *args, **kwargs):
        argv = list(sys.argv[1:] if argv is None else argv)
        write = "--no-record" not in argv and os.environ.get("GENESEL_BENCH_RECORD", "1") != "0"
        argv = [a for a in argv if a != "--no-record"]
        _ROWS.clear()
        start, load0 = time.perf_counter(), _load()
        tee = _Tee(sys.stdout)
        with contextlib.redirect_stdout(tee):
            if "argv" in main.__code__.co_varnames[:main.__code__.co_argcount]:
                result = main(argv, *args, **kwargs)
            else:
                saved, sys.argv = sys.argv, [sys.argv[0], *argv]
                try:
                    result = main(*args, **kwargs)
                finally:
                    sys.argv = saved
        if write:
            from genesel._core.io import atomic_write
            from genesel.records.provenance import provenance

            out = {"benchmark": bench, "command": shlex.join(["python", f"benchmarks/{bench}.py",
                                                              *map(_portable, argv)]),
                   "provenance": provenance(), "load": {"start": load0, "end": _load()},
                   "wall_seconds": round(time.perf_counter() - start, 1), "rows": list(_ROWS),
                   "tables": (result or {}).get("tables", {}) if isinstance(result, dict) else {},
                   "output": tee.buffer_.getvalue()}
            RESULTS_DIR.mkdir(exist_ok=True)
            path = RESULTS_DIR / f"{bench}.json"
            text = json.dumps(out, indent=1, ensure_ascii=False, default=str) + "\n"
            atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
            print(f"results: {path.relative_to(RESULTS_DIR.parent.parent)}")
        return result

    return wrapper


def _portable(arg: str) -> str:
    """A command-line argument as the committed result shows it: an absolute path inside this checkout relative to
    it, one outside it (a cell cache, a data mirror) as ``DIR`` or ``FILE``, so no path of the machine that ran the
    benchmark is written into the repository (``--opt=/abs/path`` alike)."""
    opt, eq, value = arg.partition("=") if arg.startswith("--") and "=" in arg else ("", "", arg)
    if not os.path.isabs(value):
        return arg
    root, path = Path(__file__).resolve().parent.parent, Path(value).resolve()
    shown = str(path.relative_to(root)) if path.is_relative_to(root) else ("DIR" if path.is_dir() else "FILE")
    return opt + eq + shown


def load_previous(rev: str, modules: tuple[str, ...], package: str, where) -> object:
    """The modules ``lib/genesel/<name>.py`` of commit ``rev`` as the package ``package`` in folder ``where`` (their
    ``from genesel import <other>`` of each other redirected to it); returns the package, its modules imported."""
    root = Path(__file__).resolve().parent.parent
    pkg = Path(where) / package
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    for name in modules:
        src = subprocess.run(["git", "show", f"{rev}:lib/genesel/{name}.py"], cwd=root, capture_output=True,
                             text=True, check=True).stdout
        for other in modules:
            src = src.replace(f"from genesel import {other} ", f"from {package} import {other} ")
        (pkg / f"{name}.py").write_text(src)
    sys.path.insert(0, str(where))
    importlib.invalidate_caches()
    for name in modules:
        importlib.import_module(f"{package}.{name}")
    return importlib.import_module(package)


def compare_previous_folds(old, new, classes, sets, methods, keys, reset=lambda: None, label="  "):
    """Outer fold 0 of repeat 0 of the leaderboard (5 inner folds) of each of ``methods`` on each of ``sets``, once
    with the catalogue's estimator ``classes`` taken from module ``old`` and once from ``new``; ``reset()`` clears
    any memo before each. Prints and returns, per cell, whether the rows agree on ``keys`` and the CPU ratio."""
    from genesel.leaderboard import catalogue as CAT
    from genesel.leaderboard import cells as LC

    saved = {c: getattr(CAT, c) for c in classes}
    out = []
    try:
        for name in sets:
            LC.load(name)
            for meth in methods:
                rows = {}
                for tag, mod in (("previous", old), ("new", new)):
                    for c in classes:
                        setattr(CAT, c, getattr(mod, c))
                    reset()
                    rows[tag] = LC.cv_cell(name, meth, 0, 0, 5, 5, 0, False)
                o, n = rows["previous"], rows["new"]
                same = all(o.get(k) == n.get(k) for k in keys)
                print(f"{label}{name}, {meth}: identical rows {same}")
                line = report_ratio(f"{label}leaderboard fold, {meth}, {name}", (n["wall_seconds"], n["cpu_seconds"]),
                                    (o["wall_seconds"], o["cpu_seconds"]), other="previous genesel", target=4,
                                    note=f"identical rows: {same}")
                out.append(dict(dataset=name, method=meth, identical=same, cpu_new=n["cpu_seconds"],
                                cpu_old=o["cpu_seconds"], line=line))
    finally:
        for c, v in saved.items():
            setattr(CAT, c, v)
        reset()
    return out
