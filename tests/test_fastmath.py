"""Tests for genesel._core.fastmath: the branch-free power and the dot products, against numpy."""

import math

import numpy as np
import pytest
from numba import njit

from genesel._core.fastmath import dot, pow_pos
from naive import fastmath as naive_fastmath


@njit(cache=True)
def _pow_array(a, e):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = pow_pos(a[i], e)
    return out


@njit(cache=True)
def _dot(a, b, n):
    return dot(a, b, n)


@pytest.mark.parametrize("e", [1.0, 1.5, 2.0, 3.17, 8.44, 12.0, 40.0])
def test_pow_pos_matches_numpy(e):
    rng = np.random.default_rng(int(e * 100))
    a = np.concatenate([np.exp(rng.uniform(-60, 5, 20000)), [1.0, 2.0, 0.5, 3.0, 1e-5, 0.999999, 1.000001]])
    got = _pow_array(a, e)
    ref = np.power(a, e)
    normal = ref > np.finfo(float).tiny
    rel = np.abs(got[normal] - ref[normal]) / ref[normal]
    # the documented bound: 4e-16 (1 + |e ln a|)
    assert np.all(rel <= 4e-16 * (1.0 + np.abs(e * np.log(a[normal]))))
    assert np.all(got[~normal] <= np.finfo(float).tiny)  # flushed to 0 (or a tiny normal) below the normal range


def test_pow_pos_special_values():
    a = np.array([0.0, 1.0, 4.0, 1e-300, 2.0 ** -1022])
    got = _pow_array(a, 2.0)
    assert got[0] == 0.0
    assert got[1] == 1.0
    assert got[2] == pytest.approx(16.0, rel=1e-15)
    assert got[3] == 0.0  # 1e-600 underflows
    assert got[4] == 0.0
    assert _pow_array(np.array([2.0]), 0.5)[0] == pytest.approx(math.sqrt(2.0), rel=1e-15)
    assert _pow_array(np.array([0.0]), 1.0)[0] == 0.0


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 100, 1001])
def test_dot_matches_numpy(n):
    rng = np.random.default_rng(n)
    a, b = rng.normal(size=n + 3), rng.normal(size=n + 3)  # only the first n entries count
    d = _dot(a, b, n)
    ref = float(np.dot(a[:n], b[:n]))
    scale = float(np.dot(np.abs(a[:n]), np.abs(b[:n]))) + 1e-300
    assert abs(d - ref) <= 1e-14 * scale


def test_against_plain_python_twins():
    rng = np.random.default_rng(5)
    a = np.exp(rng.uniform(-20, 2, 300))
    for e in (1.0, 2.7, 9.4):
        np.testing.assert_allclose(_pow_array(a, e), [naive_fastmath.pow_pos(v, e) for v in a], rtol=1e-13)
    b = rng.normal(size=300)
    assert _dot(a, b, 300) == pytest.approx(naive_fastmath.dot(a, b, 300), rel=1e-13)
