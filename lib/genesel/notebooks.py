"""Execute the project's notebooks headless with papermill: ``python -m genesel.notebooks --mode quick``.

Every notebook in ``notebooks/`` has a cell tagged ``parameters`` with ``quick=True`` by default. ``--mode quick``
runs them as they are (seconds to a minute each, for CI and a first look); ``--mode full`` passes
``quick=False`` (the papers' protocols, hours). Executed copies go to ``runs/<mode>/``; figures go where the
notebooks save them (``figures/``, or ``$GENESEL_FIGURES_DIR``). Nothing here computes anything: it only runs
the notebooks.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

__all__ = ["notebook_paths", "execute_notebook", "main"]


def _root() -> Path:
    return Path(__file__).resolve().parents[2]


def notebook_paths(names=None, folder: Path | None = None) -> list[Path]:
    folder = folder or _root() / "notebooks"
    paths = sorted(folder.glob("[0-9]*.ipynb"))
    if names:
        chosen = [p for p in paths if any(p.stem.startswith(n) or p.stem == n for n in names)]
        missing = [n for n in names if not any(p.stem.startswith(n) for p in paths)]
        if missing:
            raise ValueError(f"no notebook matches {missing}; have: {[p.stem for p in paths]}")
        return chosen
    return paths


def execute_notebook(path: Path, out_dir: Path, quick: bool = True, parameters: dict | None = None,
                     timeout: int = 3600, progress: bool = False) -> Path:
    """Run one notebook with papermill (parameters injected after its ``parameters`` cell)."""
    import papermill as pm

    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / path.name
    params = {"quick": quick, **(parameters or {})}
    pm.execute_notebook(str(path), str(out), parameters=params, cwd=str(path.parent), kernel_name="python3",
                        progress_bar=progress, execution_timeout=timeout, log_output=False)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m genesel.notebooks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick")
    ap.add_argument("names", nargs="*", help="notebook name prefixes (default: all), e.g. 00 01_guyon")
    args = ap.parse_args(argv)
    out_dir = _root() / "runs" / args.mode
    paths = notebook_paths(args.names)
    failed = []
    for p in paths:
        t0 = time.perf_counter()
        print(f"[{args.mode}] {p.name} ...", flush=True)
        try:
            execute_notebook(p, out_dir, quick=args.mode == "quick", timeout=600 if args.mode == "quick" else 86400)
            print(f"[{args.mode}] {p.name} done in {time.perf_counter() - t0:.0f} s -> {out_dir / p.name}", flush=True)
        except Exception as exc:  # report every notebook, then fail
            failed.append(p.name)
            print(f"[{args.mode}] {p.name} FAILED after {time.perf_counter() - t0:.0f} s: {exc}", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"all {len(paths)} notebook(s) ran; executed copies in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
