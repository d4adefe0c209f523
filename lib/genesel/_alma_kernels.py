"""The numba kernels of :mod:`genesel.alma`: ALMA_p (Gentile 2003, Figure 1) in the primal on p-normalised rows
(:func:`alma_core`, with the active-block bookkeeping of :func:`axpy_detect`, :func:`active_update` and
:func:`link_block`) and ALMA_2 in the dual on the Gram matrix of the normalised rows (:func:`alma2_dual_core`).

C. Gentile, *Fast Feature Selection from Microarray Expression Data via Multiplicative Large Margin Algorithms*,
NIPS 16, 2003, section 3, Figure 1: with ``theta_k = T(w_k)`` the update is ``theta' = theta_k + eta_k y_t x^_t``,
``theta_{k+1} = theta' / ||theta'||_p``, ``w_{k+1} = T^-1(theta_{k+1})``, ``gamma_k = sqrt(8 (p-1)) / (alpha
sqrt(k))``, ``eta_k = sqrt(2 / (p-1)) / sqrt(k)``. The implementation notes (lazy normalisation, the active block,
the early stop after a sweep without update) are in :mod:`genesel.alma`, which holds the estimators and the
functional API. The order of the examples is drawn outside (an array), so every kernel is deterministic.

Plain-Python twins (Figure 1 word for word) in ``tests/naive/alma.py``. Not public API.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from genesel._core.fastmath import dot, pow_pos

__all__ = ["axpy_detect", "active_update", "link_block", "alma_core", "alma2_dual_core"]


@njit(cache=True, inline="always")
def _schedule(e, alpha):
    """Figure 1's schedule for e = p - 1: (cg, ce, thr) with gamma_k = cg / sqrt(k), eta_k = ce / sqrt(k), and an
    update when y_t w_k . x^_t <= thr * gamma_k (thr = 1 - alpha)."""
    return math.sqrt(8.0 * e) / alpha, math.sqrt(2.0 / e), 1.0 - alpha


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _swap_columns(Xn, theta, perm, i, j):
    """Exchange columns i and j of Xn (and of theta, perm)."""
    if i == j:
        return
    for r in range(Xn.shape[0]):
        v = Xn[r, i]
        Xn[r, i] = Xn[r, j]
        Xn[r, j] = v
    v = theta[i]
    theta[i] = theta[j]
    theta[j] = v
    pi = perm[i]
    perm[i] = perm[j]
    perm[j] = pi


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def axpy_detect(theta, xt, sc, c, lo, hi, tha):
    """theta[lo:hi] = sc theta + c x; returns how many |theta_i| now exceed ``tha``."""
    cnt = 0
    for i in range(lo, hi):
        v = theta[i] * sc + c * xt[i]
        theta[i] = v
        cnt += abs(v) > tha
    return cnt


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def active_update(theta, xt, wr, sc, c, n, e, is2):
    """On the active block [0, n): theta = sc theta + c x, wr = sign(theta) |theta|^e (e = p - 1)."""
    if is2:
        for i in range(n):
            v = theta[i] * sc + c * xt[i]
            theta[i] = v
            wr[i] = v
    else:
        for i in range(n):
            v = theta[i] * sc + c * xt[i]
            theta[i] = v
            ap = pow_pos(abs(v), e)
            wr[i] = ap if v >= 0.0 else -ap


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def link_block(theta, wr, lo, hi, e, is2):
    """wr[lo:hi] = sign(theta) |theta|^e (theta unchanged)."""
    for i in range(lo, hi):
        v = theta[i]
        ap = abs(v) if is2 else pow_pos(abs(v), e)
        wr[i] = ap if v >= 0.0 else -ap


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def alma_core(Xn, y, order, p, alpha, n_cycles, truncate):
    """ALMA_p (Figure 1) on p-normalised rows ``Xn``, sweeping ``order`` up to ``n_cycles`` times.

    ``Xn`` is permuted in place (columns; ``perm`` maps positions back to columns). Returns
    ``(w, k, n_updates, cycles_run, converged)`` with w in the original column order; the final margin is
    gamma_k with this k. See the module docstring (implementation notes) for the bookkeeping.
    """
    m, f = Xn.shape
    theta = np.zeros(f)  # T(w_k) before the pending scale ``sc``: T(w_k) = sc * theta
    wr = np.zeros(f)  # w_k = wsc * wr on the active block [0, n_act)
    perm = np.arange(f)
    is2 = p == 2.0
    e = p - 1.0
    # active block: columns whose |theta_i|^p may exceed 2^-53 / f of ||theta||_p^p (see the notes)
    c_f = (2.0**-53 / f) ** (1.0 / p) if truncate and not is2 else 0.0
    n_act = f if c_f == 0.0 else 0
    sc = 1.0
    wsc = 0.0
    fresh = True  # theta = 0 (start, or after an update cancelled w exactly)
    k = 1
    n_updates = 0
    cycles_run = 0
    converged = False
    cg, ce, thr = _schedule(e, alpha)
    for _c in range(n_cycles):
        cycles_run += 1
        updated = False
        for j in range(order.shape[0]):
            t = order[j]
            xt = Xn[t]
            sqk = math.sqrt(k)
            marg = y[t] * (wsc * dot(wr, xt, n_act)) if not fresh else 0.0
            if marg > thr * (cg / sqk):
                continue
            c = y[t] * ce / sqk
            n_old = n_act
            if n_act < f:
                # lower bound on ||T(w_k) + c x||_p (= |c| from theta = 0; else >= 1 - |c|)
                nlb = abs(c) if fresh else 1.0 - abs(c)
                tha = c_f * nlb if nlb > 0.0 else 0.0
                if axpy_detect(theta, xt, sc, c, n_act, f, tha) > 0:
                    for i in range(n_act, f):
                        if abs(theta[i]) > tha:
                            _swap_columns(Xn, theta, perm, i, n_act)
                            n_act += 1
            active_update(theta, xt, wr, sc, c, n_old, e, is2)
            link_block(theta, wr, n_old, n_act, e, is2)  # columns that just entered: theta is up to date
            s = dot(wr, theta, n_act)  # ||theta'||_p^p  (sum |theta_i|^(p-1) |theta_i|)
            k += 1
            n_updates += 1
            updated = True
            if s == 0.0:  # w' = 0 exactly (possible with one feature): restart from w = 0
                for i in range(f):
                    theta[i] = 0.0
                    wr[i] = 0.0
                sc = 1.0
                wsc = 0.0
                fresh = True
                continue
            nrm = s ** (1.0 / p)
            sc = 1.0 / nrm  # theta_{k+1} = theta' / ||theta'||_p, applied lazily in the next update
            wsc = nrm / s  # w_{k+1} = T^-1(theta_{k+1}) = wr / nrm^(p-1)
            fresh = False
        if not updated:
            converged = True
            break
    w = np.zeros(f)
    if not fresh:
        for i in range(f):
            v = theta[i] * sc
            a = abs(v)
            wi = a if is2 else pow_pos(a, e)
            w[perm[i]] = wi if v >= 0.0 else -wi
    return w, k, n_updates, cycles_run, converged, n_act


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def alma2_dual_core(K, y, order, alpha, n_cycles):
    """ALMA_2 (Figure 1 with p = 2) in the dual: ``w_k = sum_t a_t x^_t`` with K the Gram matrix of the
    normalised rows ``x^_t``. Keeps ``g = K a`` (``g_s = w_k . x^_s``), so a check costs O(1) and an update
    O(m): ``a_t += eta_k y_t``, ``g += eta_k y_t K[t]``, then both are divided by ``||w'||_2 = sqrt(a . g)``; g is
    recomputed from a every 64 updates so rounding cannot drift. Same steps as :func:`alma_core` with p = 2.

    Returns ``(a, k, n_updates, cycles_run, converged)``.
    """
    m = K.shape[0]
    a = np.zeros(m)
    g = np.zeros(m)
    k = 1
    n_updates = 0
    cycles_run = 0
    converged = False
    cg, ce, thr = _schedule(1.0, alpha)  # p = 2
    for _c in range(n_cycles):
        cycles_run += 1
        updated = False
        for j in range(order.shape[0]):
            t = order[j]
            sqk = math.sqrt(k)
            if y[t] * g[t] > thr * (cg / sqk):
                continue
            c = y[t] * ce / sqk
            a[t] += c
            k += 1
            n_updates += 1
            updated = True
            if n_updates % 64 == 0:
                for s in range(m):
                    g[s] = dot(K[s], a, m)
            else:
                Kt = K[t]
                for s in range(m):
                    g[s] += c * Kt[s]
            n2 = dot(a, g, m)
            if n2 <= 0.0:  # w' = 0 exactly: restart from w = 0
                for s in range(m):
                    a[s] = 0.0
                    g[s] = 0.0
                continue
            inv = 1.0 / math.sqrt(n2)
            for s in range(m):
                a[s] *= inv
                g[s] *= inv
        if not updated:
            converged = True
            break
    return a, k, n_updates, cycles_run, converged
