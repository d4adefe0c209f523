"""The one command: ``genesel <subcommand> [options]`` (also ``python -m genesel``).

================  =================================================================  ===================================
subcommand        what it does                                                       module
================  =================================================================  ===================================
``run``           execute notebooks headless with papermill (``--mode quick|full``)  :mod:`genesel.records.runner`
``data``          fetch and checksum registered data (``--all``, ``--mirror DIR``)   :mod:`data_fetch.__main__`
``status``        how far the leaderboard's grid has got, from its cell cache        :mod:`genesel.leaderboard.status`
``agreement``     the tally of the papers' cells genesel reproduces (``--rows``)     :mod:`genesel.records.agreement`
``onrecord``      rewrite the generated blocks from committed tables (``--check``)   :mod:`genesel.records.onrecord`
``compare-runs``  compare two runs' tables cell by cell                              :mod:`genesel.records.compare_runs`
``cluster``       write a SLURM (dask-jobqueue) recipe for running the grids         :mod:`genesel.experiments.cluster`
``shards``        compute the leaderboard's cells; carry them to another machine     :mod:`genesel.leaderboard.shards`
================  =================================================================  ===================================

Each subcommand is the ``main(argv)`` of its module, imported only when it is asked for, so ``genesel data --list``
starts without loading the estimators.
"""

from __future__ import annotations

import importlib
import sys

__all__ = ["COMMANDS", "main"]

#: subcommand -> (module, one line of help)
COMMANDS = {
    "run": ("genesel.records.runner", "execute notebooks headless (papermill), quick or full mode"),
    "data": ("data_fetch.__main__", "fetch and checksum registered data sets"),
    "status": ("genesel.leaderboard.status", "progress of the leaderboard's grid, read from its cache"),
    "agreement": ("genesel.records.agreement", "tally of the papers' cells that genesel reproduces"),
    "onrecord": ("genesel.records.onrecord", "rewrite the generated on-record text from the committed tables"),
    "compare-runs": ("genesel.records.compare_runs", "compare two runs' tables cell by cell"),
    "cluster": ("genesel.experiments.cluster", "a SLURM recipe (dask-jobqueue) for the grids"),
    "shards": ("genesel.leaderboard.shards",
               "compute the leaderboard's cells; carry finished cells (its and the papers') between machines"),
}


def _usage() -> str:
    width = max(map(len, COMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items())
    return f"usage: genesel <subcommand> [options]\n\nsubcommands:\n{rows}\n\n" \
           "`genesel <subcommand> --help` shows a subcommand's options."


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"genesel: unknown subcommand {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    from genesel.extras import MissingExtra

    try:
        module = importlib.import_module(COMMANDS[name][0])
        return int(module.main(rest) or 0)
    except MissingExtra as exc:  # an optional package is not installed: say which extra brings it, no traceback
        print(f"genesel {name}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
