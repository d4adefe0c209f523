"""``python -m genesel.experiments.report``: build the course site (see :mod:`genesel.experiments.report`)."""

import sys

from .build import main

sys.exit(main())
