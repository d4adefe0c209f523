"""genesel: reproducible gene selection on DNA-microarray data.

Five papers re-run end to end on the real public data (see README.md). Each algorithm family lives in its own
module whose docstring names the paper, section and equations it implements.
"""

__version__ = "0.1.0"
