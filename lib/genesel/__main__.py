"""``python -m genesel``: the same as the ``genesel`` command (:mod:`genesel.cli`)."""

import sys

from genesel.cli import main

sys.exit(main())
