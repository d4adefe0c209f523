"""``python -m genesel.experiments.agreement [--rows]``: kept as a path to ``genesel agreement``, whose home is
:mod:`genesel.records.agreement` (the tally moved out of the grid engine's package)."""

import sys

from genesel.records.agreement import main

if __name__ == "__main__":
    sys.exit(main())
