"""Command-line entry point ``python -m genesel.notebooks``: see :mod:`genesel.experiments.runner`."""

import sys

from genesel.experiments.runner import main

if __name__ == "__main__":
    sys.exit(main())
