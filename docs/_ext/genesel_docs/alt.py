"""Alt text on every figure of the course chapters.

MyST-NB writes each image output to a file named by the SHA-256 of its bytes and gives the ``<img>`` only the
``width``/``height`` of the output's metadata, not its ``alt``. :mod:`.course` records the alt text of every figure
(the one the notebook stored in ``output.metadata["image/png"]["alt"]``, else "Figure k under <section>, <chapter>")
by chapter and hash in ``course/_alt.json``; the transform here puts it on the image node when a document is read. An image
that still has no alt text (one MyST-NB wrote that the course did not see) gets the document's title and a warning,
so no ``<img>`` of the site is without a description.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from .course import ALT_FILE

__all__ = ["set_alt_text", "setup"]

logger = logging.getLogger(__name__)
_CACHE: dict[str, tuple[float, dict]] = {}


def _alt_map(srcdir: str) -> dict:
    path = Path(srcdir) / "course" / ALT_FILE
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    cached = _CACHE.get(str(path))
    if cached is None or cached[0] != mtime:
        cached = (mtime, json.loads(path.read_text(encoding="utf-8")))
        _CACHE[str(path)] = cached
    return cached[1]


def set_alt_text(app, doctree) -> None:
    """``doctree-read``: the recorded alt text on every image that lacks one."""
    docname = app.env.docname
    alts = _alt_map(app.srcdir).get(docname, {})
    title = next(iter(doctree.findall(nodes.title)), None)
    title = title.astext() if title is not None else docname
    for image in doctree.findall(nodes.image):
        if image.get("alt"):
            continue
        alt = alts.get(Path(str(image.get("uri", ""))).stem)
        if not alt:
            alt = f"Figure in “{title}”"
            logger.warning(f"an image without alt text in {docname} ({image.get('uri')}); using {alt!r}",
                           location=image, type="genesel", subtype="alt")
        image["alt"] = alt


def setup(app) -> None:
    app.connect("doctree-read", set_alt_text)
