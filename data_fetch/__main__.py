"""Command line: ``python -m data_fetch --list | --all | NAME... [--mirror DIR] [--cache DIR] [--offline]``.

NAME is a data set (or alias, or family) or one registered file (e.g. ``alon.RData``). ``--list`` needs nothing
beyond the registry (no tqdm, no pooch), so it works with any Python that has numpy; tqdm is imported only when data
sets are fetched, to show progress (plain lines without it)."""

from __future__ import annotations

import argparse
import sys

from . import DATASETS, FAMILIES, FILES, FetchError, fetch_dataset, fetch_file, resolve


def _progress(items, **kw):
    """``(iterable, write)``: tqdm's progress bar and its ``write`` when tqdm is installed, else the items as they
    are and ``print`` (imported here, not at module level, so ``--list`` runs without tqdm)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return items, print
    return tqdm(items, **kw), tqdm.write


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m data_fetch", description=__doc__)
    ap.add_argument("names", nargs="*", help="data set names or aliases (see --list), or file names")
    ap.add_argument("--list", action="store_true", help="list the registered data sets")
    ap.add_argument("--all", action="store_true", help="fetch every registered data set")
    ap.add_argument("--mirror", metavar="DIR", help="local folder holding the raw files (no download needed)")
    ap.add_argument("--cache", metavar="DIR", help="download cache (default: data/ or $GENESEL_DATA_DIR)")
    ap.add_argument("--offline", action="store_true", help="never download; use cache or mirror only")
    args = ap.parse_args(argv)
    if args.list:
        for spec in DATASETS.values():
            alias = f" (aliases: {', '.join(spec.aliases)})" if spec.aliases else ""
            print(f"{spec.name:22s} {spec.shape[0]:5d} x {spec.shape[1]:<6d} {', '.join(spec.files)}{alias}")
        for fam, members in FAMILIES.items():
            print(f"{fam:22s} family: {', '.join(members)}")
        return 0
    names = list(DATASETS) if args.all else args.names
    if not names:
        ap.error("name at least one data set, or use --all / --list")
    expanded, files = [], []
    for n in names:
        if n in FILES:  # one registered file, e.g. the name a checksum error gave
            files.append(n)
        else:
            expanded.extend(FAMILIES.get(n.lower(), (n,)))
    try:
        specs = [resolve(n) for n in expanded]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for f in files:
        try:
            print(f"ok   {f}: {fetch_file(f, mirror=args.mirror, cache=args.cache, download=not args.offline)}")
        except FetchError as exc:
            failed += 1
            print(f"FAIL {f}: {exc}")
    bar, write = _progress(specs, desc="data sets", unit="set")
    for spec in bar:
        try:
            paths = fetch_dataset(spec.name, mirror=args.mirror, cache=args.cache, download=not args.offline)
            write(f"ok   {spec.name}: {', '.join(str(p) for p in paths.values())}")
        except FetchError as exc:
            failed += 1
            write(f"FAIL {spec.name}: {exc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
