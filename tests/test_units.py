"""genesel._core.units: exact power-of-two rescaling and the SVM's unit helpers, against numpy and closed forms."""

import math

import numpy as np
import pytest

from genesel._core import units


@pytest.mark.parametrize("scale", [1.0, 1e-300, 1e200, 3.7e4])
def test_pow2_exponent_puts_the_largest_value_in_half_to_one(scale):
    X = np.random.default_rng(0).normal(size=(5, 8)) * scale
    k = units.pow2_exponent(X)
    assert 0.5 <= np.abs(np.ldexp(X, k)).max() < 1.0
    kc = units.pow2_exponent(X, axis=0)
    assert kc.shape == (8,)
    m = np.abs(np.ldexp(X, kc[None, :])).max(0)
    assert np.all((m >= 0.5) & (m < 1.0))
    assert units.pow2_exponent(np.zeros((2, 3))) == 0
    np.testing.assert_array_equal(units.pow2_exponent(np.zeros((2, 3)), axis=1), [0, 0])


def test_scaling_is_exact_and_skipped_where_safe():
    X = np.random.default_rng(1).normal(size=(4, 6))
    k = units.pow2_exponent(X, axis=0)
    Y = units.scale_pow2(X, k, axis=0)
    np.testing.assert_array_equal(units.scale_pow2(Y, -k, axis=0), X)  # exact both ways
    assert units.safe_pow2_exponent(X) == 0 and units.scale_pow2(X, 0) is X
    np.testing.assert_array_equal(units.safe_pow2_exponent(X, axis=1), 0)
    big = X * 1e200
    assert units.safe_pow2_exponent(big) == units.pow2_exponent(big) != 0


@pytest.mark.parametrize("scale", [1.0, 1e-300, 1e250])
def test_unit_row_exponent(scale):
    X = np.random.default_rng(2).normal(size=(6, 40)) * scale
    k = units.unit_row_exponent(X)
    if scale == 1.0:
        assert k == 0  # ordinary data: no copy, no change
    else:
        n = np.linalg.norm(np.ldexp(X, k), axis=1).max()
        assert 0.5 <= n < 1.0


def test_in_x_units_and_the_scale_of_C_never_overflow():
    with np.errstate(all="raise"):
        assert units.in_x_units(1.0, 5000) == np.inf and units.in_x_units(1.0, -5000) == 0.0
        assert units.in_x_units(3.0, 2) == 12.0
    K = np.diag([4.0, 2.0])
    assert units.log10_scale(0.5, K, 0) == pytest.approx(math.log10(2.0))
    assert units.log10_scale(0.5, K, 10) == pytest.approx(math.log10(2.0) - 10 * math.log10(2.0))
    assert units.log10_scale(0.0, K, 0) == -np.inf
    assert units.log_scale_str(0.5, K, 0) == "2e+0"
    e10 = math.log10(4e-300) + 2000 * math.log10(2.0)  # C * max k = 4e-300 in units 2^-2000: about 4.59e302
    assert units.log_scale_str(1e-300, K, -2000) == f"{10 ** (e10 - math.floor(e10)):.3g}e+{math.floor(e10)}"
    assert units.log_scale_str(1e-300, K, -2000).startswith("4.59e+302")
    msg = units.negligible_C_message("LinearSVM", 1e-300, K * 1e-300, 0)
    assert "LinearSVM" in msg and "C=1e-300" in msg and "4e-600" in msg and "raise C" in msg
