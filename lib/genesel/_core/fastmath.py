"""Branch-free numba building blocks that LLVM can vectorise: a power function and a dot product.

numba's ``math.pow`` / ``x ** e`` call the C library one element at a time, and the LLVM that ships with pip's
llvmlite has no vector math library (SVML), so a loop over ``|theta_i| ** (p - 1)`` (ALMA_p's link function,
:mod:`genesel.alma`) cannot be vectorised. :func:`pow_pos` computes ``a ** e`` for ``a >= 0`` from the IEEE-754
bits instead (``a = 2^k m``; ``ln m`` by the atanh series; ``exp`` by Cody-Waite reduction and a Taylor
polynomial), with no calls and no branches, so loops over it vectorise (AVX2 / AVX-512).

Accuracy: relative error below ``4e-16 * (1 + |e ln a|)`` against a correctly rounded power (the unavoidable
error of rounding ``e ln a`` once); checked against ``numpy.power`` in ``tests/test_fastmath.py``. Results
below the smallest normal double are flushed to 0; ``pow_pos(0, e) = 0`` for ``e >= 1`` (ALMA's
exponent p - 1 >= 1; below 1 it returns a tiny positive number instead).

:func:`dot` lets LLVM reorder the sum into vector lanes: bit-for-bit reproducible on one machine; the last bits
may differ between CPUs with different vector widths.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["pow_pos", "dot"]


@intrinsic
def _f2i(typingctx, x):
    """Reinterpret the bits of a float64 as an int64 (an LLVM bitcast: free, and vectorisable)."""
    if not isinstance(x, types.Float):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def _i2f(typingctx, x):
    """Reinterpret the bits of an int64 as a float64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


_LN2_HI = 6.93147180369123816490e-01  # ln 2 split so that k * _LN2_HI is exact for |k| < 2^11
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
_SQRT2 = 1.41421356237309514547e00
_MANT = 0x000FFFFFFFFFFFFF
_ONE_BITS = 0x3FF0000000000000


@njit(cache=True, inline="always", error_model="numpy", fastmath={"contract"})
def pow_pos(a, e):
    """``a ** e`` for ``a >= 0`` (finite) and ``e > 0``: branch-free, vectorisable; see the module docstring."""
    b = _f2i(a)
    k = (b >> 52) - 1023
    m = _i2f((b & _MANT) | _ONE_BITS)  # a = 2^k m, m in [1, 2)  (a = 0: k = -1023, m = 1)
    big = m > _SQRT2
    m = m * 0.5 if big else m  # m in [sqrt(1/2), sqrt(2)]
    k = k + 1 if big else k
    s = (m - 1.0) / (m + 1.0)  # |s| <= 0.1716, ln m = 2 atanh(s)
    z = s * s
    q = 1.0 / 23.0
    q = q * z + 1.0 / 21.0
    q = q * z + 1.0 / 19.0
    q = q * z + 1.0 / 17.0
    q = q * z + 1.0 / 15.0
    q = q * z + 1.0 / 13.0
    q = q * z + 1.0 / 11.0
    q = q * z + 1.0 / 9.0
    q = q * z + 1.0 / 7.0
    q = q * z + 1.0 / 5.0
    q = q * z + 1.0 / 3.0
    ln_m = 2.0 * s + 2.0 * s * z * q
    fk = float(k)
    y = e * (fk * _LN2_HI + (fk * _LN2_LO + ln_m))  # e ln a
    # exp(y) = 2^n exp(r), |r| <= ln(2)/2
    y = max(y, -745.0)
    y = min(y, 709.0)
    n = float(int(y * _INV_LN2 + 1074.5) - 1074)  # round to nearest (argument positive, so int() floors)
    r = (y - n * _LN2_HI) - n * _LN2_LO
    t = 1.0 / 6227020800.0  # Taylor series of exp to r^13
    t = t * r + 1.0 / 479001600.0
    t = t * r + 1.0 / 39916800.0
    t = t * r + 1.0 / 3628800.0
    t = t * r + 1.0 / 362880.0
    t = t * r + 1.0 / 40320.0
    t = t * r + 1.0 / 5040.0
    t = t * r + 1.0 / 720.0
    t = t * r + 1.0 / 120.0
    t = t * r + 1.0 / 24.0
    t = t * r + 1.0 / 6.0
    t = t * r + 0.5
    t = t * r + 1.0
    t = t * r + 1.0
    ni = int(n)
    ni = max(ni, -1023)  # 2^-1023 and below: flush to 0 (bits 0)
    return t * _i2f((ni + 1023) << 52)


@njit(cache=True, error_model="numpy", fastmath={"reassoc", "contract"})
def dot(a, b, n):
    """``sum(a[:n] * b[:n])`` vectorised (LLVM may reorder the sum: the result is reproducible on one machine, and
    may differ in the last bits between CPUs with different vector widths)."""
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s
