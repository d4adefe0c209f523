"""Point labels that do not overlap: one label per point, placed by a greedy search over candidate offsets with the
renderer's own bounding boxes (a report module: no cell imports it).

For each point in turn, the label is tried at offsets around it (right, left, above, below and the diagonals, then
the same farther out, up to ``max_distance`` points away, joined to its point by a thin leader line once it is
away from it); the first offset at which its bounding box, widened by ``gap`` points on every side (the label's
white box and some space beyond it), lies inside the axes and overlaps neither a label placed before nor any
point's marker is kept. Points are labelled in order of their crowding (the most crowded first, so that they get
the near places). A label with no free place keeps the candidate of least overlap (covering another label weighs
100 times covering a marker), so every point keeps its one label; :func:`overlaps` counts what is left, on the
boxes as drawn (a label's white box included) and with the space between them.

Written here rather than taking ``adjustText`` (a well-kept package, but a new dependency for 40 lines): the
fronts label a handful of points per panel, a greedy search over fixed candidates suffices there, is deterministic
and needs no iteration.
"""

from __future__ import annotations

import numpy as np

__all__ = ["place_labels", "overlaps", "text_boxes"]

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
               (1, 0.5), (-1, 0.5), (1, -0.5), (-1, -0.5))


def _box_overlap(a, b) -> float:
    """Area of the intersection of two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def place_labels(ax, x, y, texts, *, fontsize: float = 12, marker_points: float = 10, max_distance: float = 150,
                 others=None, avoid=(), gap: float = 3.5, **text_kw) -> list:
    """Label the points (``x``, ``y``) in data coordinates of ``ax`` with ``texts`` (module docstring); ``others``:
    more points (an (m, 2) array in data coordinates) whose markers the labels keep clear of; ``avoid``: artists
    (a note in the panel, say) the labels keep clear of; ``gap``: points kept free around each label (two labels'
    texts stay at least twice that apart, their white boxes about 3 points at the default). The axes' limits must
    be final (set them first). Returns the annotations, in the order of ``texts``."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()  # the layout must be final: text extents and transforms are read from it
    to_px = fig.dpi / 72.0
    pts = ax.transData.transform(np.column_stack([np.asarray(x, float), np.asarray(y, float)]))
    every = pts if others is None or len(others) == 0 else np.vstack(
        [pts, ax.transData.transform(np.asarray(others, float))])
    r = marker_points * to_px / 2.0
    markers = [(px - r, py - r, px + r, py + r) for px, py in every]
    g = gap * to_px
    frame = ax.get_window_extent(renderer)
    frame = (frame.x0, frame.y0, frame.x1, frame.y1)
    crowd = [int(np.sum(np.hypot(*(every - p).T) < 60 * to_px)) for p in pts]
    order = sorted(range(len(pts)), key=lambda i: (-crowd[i], pts[i][0]))
    placed, out = [], [None] * len(pts)
    for a in avoid:
        bb = a.get_window_extent(renderer)
        placed.append((bb.x0, bb.y0, bb.x1, bb.y1))
    steps = [d for d in (8, 16, 28, 42, 60, 75, 90, 110, 130, 150) if d <= max_distance] or [8]
    for i in order:
        best, best_cost = None, np.inf
        for dist in steps:
            for dx, dy in _DIRECTIONS:
                off = (dx * dist, dy * dist * (0.7 if dx else 1.0))
                ha = "left" if dx > 0 else ("right" if dx < 0 else "center")
                va = "bottom" if dy > 0 else ("top" if dy < 0 else "center")
                t = ax.annotate(texts[i], (x[i], y[i]), xytext=off, textcoords="offset points", ha=ha, va=va,
                                fontsize=fontsize, **text_kw)
                bb = t.get_window_extent(renderer)
                box = (bb.x0 - g, bb.y0 - g, bb.x1 + g, bb.y1 + g)
                t.remove()
                outside = (max(frame[0] - box[0], 0) + max(box[2] - frame[2], 0)
                           + max(frame[1] - box[1], 0) + max(box[3] - frame[3], 0))
                # another label is never to be covered, a marker rather not, the axes' edge not crossed
                cost = (100 * sum(_box_overlap(box, b) for b in placed) + sum(_box_overlap(box, m) for m in markers)
                        + 1e4 * outside)
                if cost < best_cost:
                    best, best_cost = (off, ha, va, box, dist), cost
                if cost == 0:
                    break
            if best_cost == 0:
                break
        off, ha, va, box, dist = best
        arrow = dict(arrowstyle="-", color="0.35", lw=0.8, shrinkA=0, shrinkB=4) if dist > 16 else None
        out[i] = ax.annotate(texts[i], (x[i], y[i]), xytext=off, textcoords="offset points", ha=ha, va=va,
                             fontsize=fontsize, arrowprops=arrow, **text_kw)
        placed.append(box)
    return out


def text_boxes(texts) -> list:
    """Display-space bounding boxes (x0, y0, x1, y1) of the given text artists as drawn: the text and its white box
    where it has one (``bbox=``), without an annotation's leader line; from their figure's renderer."""
    from matplotlib.text import Text

    out, drawn = [], set()
    for t in texts:
        fig = t.figure
        if id(fig) not in drawn:
            fig.canvas.draw()
            drawn.add(id(fig))
        renderer = fig.canvas.get_renderer()
        patch = t.get_bbox_patch()  # the white box drawn behind the text holds it, and reaches beyond it
        bb = patch.get_window_extent(renderer) if patch is not None else Text.get_window_extent(t, renderer)
        out.append((bb.x0, bb.y0, bb.x1, bb.y1))  # the text's own box, without a leader line
    return out


def overlaps(texts, gap: float = 0.0) -> list:
    """Pairs (i, j) of the given text artists whose boxes as drawn (:func:`text_boxes`) intersect or come closer
    than ``gap`` points to each other."""
    boxes = text_boxes(texts)
    if boxes and gap:
        g = gap * texts[0].figure.dpi / 72.0 / 2.0
        boxes = [(b[0] - g, b[1] - g, b[2] + g, b[3] + g) for b in boxes]
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
            if _box_overlap(boxes[i], boxes[j]) > 0]
