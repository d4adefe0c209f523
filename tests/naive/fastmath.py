"""Plain-Python twins of genesel._core.fastmath (slow, for tests only)."""

import math


def pow_pos(a, e):
    """Twin of genesel._core.fastmath.pow_pos: a ** e for a >= 0 (C library pow; 0 below the normal range)."""
    r = math.pow(a, e)
    return r if r >= 2.2250738585072014e-308 else 0.0


def dot(a, b, n):
    """Twin of genesel._core.fastmath.dot: sum(a[:n] * b[:n]), correctly rounded (math.fsum)."""
    return math.fsum(float(a[i]) * float(b[i]) for i in range(n))
