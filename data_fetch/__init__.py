"""Registry and downloader of the public microarray data sets genesel uses.

``python -m data_fetch --list`` lists them; ``python -m data_fetch NAME... [--mirror DIR]`` or ``--all`` fetches
their files into the cache (``data/``), from a local mirror folder when one is given (``--mirror`` or the
``GENESEL_DATA_MIRROR`` environment variable), else from the pinned public URLs, always checked by sha256.
"""

from .fetch import ENV_CACHE, ENV_MIRROR, CacheWriteError, FetchError, cache_dir, fetch_file, mirror_dir
from .files import FILES
from .registry import ALIASES, DATASETS, FAMILIES, DatasetSpec, resolve

__all__ = ["FILES", "DATASETS", "ALIASES", "FAMILIES", "DatasetSpec", "resolve", "fetch_file", "fetch_dataset",
           "FetchError", "CacheWriteError", "cache_dir", "mirror_dir", "ENV_MIRROR", "ENV_CACHE"]


def fetch_dataset(name: str, *, mirror=None, cache=None, download: bool = True) -> dict:
    """Fetch every file of data set ``name``; returns {file name: local path}."""
    spec = resolve(name)
    return {f: fetch_file(f, mirror=mirror, cache=cache, download=download) for f in spec.files}
