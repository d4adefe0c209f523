"""Plain-Python twins of the numba kernels in genesel._alma_kernels (slow, literal, for tests only).

``alma_kernel`` follows Gentile (2003) Figure 1 word for word: it keeps w_k itself and computes
``T(w_k)``, adds ``eta_k y_t x^_t``, maps back with ``T^-1`` and divides by the q-norm, whereas the numba kernel
keeps ``theta_k = T(w_k)`` (see the module docstring of genesel.alma). Agreement of the two checks that
rewriting.
"""

import math


def _norm(v, r):
    m = max((abs(a) for a in v), default=0.0)
    if m == 0.0:
        return 0.0
    return m * sum((abs(a) / m) ** r for a in v) ** (1.0 / r)


def grad_half_sq_norm(v, r):
    """sign(v_i) |v_i|^(r-1) / ||v||_r^(r-2)."""
    n = _norm(v, r)
    if n == 0.0:
        return [0.0] * len(v)
    return [math.copysign(abs(a) ** (r - 1.0), a) / n ** (r - 2.0) if a != 0.0 else 0.0 for a in v]


def link_T(w, p):
    return grad_half_sq_norm(list(w), p / (p - 1.0))


def link_T_inv(theta, p):
    return grad_half_sq_norm(list(theta), p)


def alma_kernel(Xn, y, order, p, alpha, n_cycles):
    """Figure 1 of Gentile (2003), literally. Returns (w, k, n_updates, cycles_run, converged)."""
    Xn = [[float(a) for a in row] for row in Xn]
    f = len(Xn[0])
    q = p / (p - 1.0)
    w = [0.0] * f
    k = 1
    n_updates = 0
    cycles_run = 0
    converged = False
    for _ in range(n_cycles):
        cycles_run += 1
        updated = False
        for t in order:
            x = Xn[t]
            gamma_k = math.sqrt(8.0 * (p - 1.0)) / (alpha * math.sqrt(k))
            eta_k = math.sqrt(2.0 / (p - 1.0)) / math.sqrt(k)
            margin = float(y[t]) * sum(wi * xi for wi, xi in zip(w, x))
            if margin <= (1.0 - alpha) * gamma_k:
                Tw = link_T(w, p)
                wp = link_T_inv([a + eta_k * float(y[t]) * b for a, b in zip(Tw, x)], p)
                nq = _norm(wp, q)
                w = [a / nq for a in wp] if nq > 0 else [0.0] * f
                k += 1
                n_updates += 1
                updated = True
        if not updated:
            converged = True
            break
    return w, k, n_updates, cycles_run, converged


def axpy_detect(theta, x, sc, c, lo, hi, tha):
    """Twin of genesel.alma._axpy_detect (in place): theta[lo:hi] = sc theta + c x; count of |theta_i| > tha."""
    cnt = 0
    for i in range(lo, hi):
        theta[i] = theta[i] * sc + c * x[i]
        cnt += abs(theta[i]) > tha
    return cnt


def active_update(theta, x, wr, sc, c, n, e):
    """Twin of genesel.alma._active_update (p != 2, in place): theta[:n] = sc theta + c x, wr = sign |theta|^e."""
    for i in range(n):
        theta[i] = theta[i] * sc + c * x[i]
        wr[i] = math.copysign(abs(theta[i]) ** e, theta[i]) if theta[i] != 0.0 else 0.0


def link_block(theta, wr, lo, hi, e):
    """Twin of genesel.alma._link_block (p != 2, in place): wr[lo:hi] = sign(theta) |theta|^e."""
    for i in range(lo, hi):
        wr[i] = math.copysign(abs(theta[i]) ** e, theta[i]) if theta[i] != 0.0 else 0.0


def alma2_dual(K, y, order, alpha, n_cycles):
    """Twin of genesel.alma._alma2_dual_core, the plainest way: w = sum_t a_t x^_t, and every margin and norm
    recomputed from the Gram matrix K (no running g). Returns (a, k, n_updates, cycles_run, converged)."""
    m = len(K)
    a = [0.0] * m
    k, n_updates, cycles_run, converged = 1, 0, 0, False
    for _ in range(n_cycles):
        cycles_run += 1
        updated = False
        for t in order:
            margin = float(y[t]) * sum(a[s] * K[s][t] for s in range(m))
            if margin <= (1.0 - alpha) * math.sqrt(8.0) / (alpha * math.sqrt(k)):
                a[t] += float(y[t]) * math.sqrt(2.0) / math.sqrt(k)
                n2 = sum(a[s] * K[s][r] * a[r] for s in range(m) for r in range(m))
                a = [v / math.sqrt(n2) for v in a] if n2 > 0 else [0.0] * m
                k += 1
                n_updates += 1
                updated = True
        if not updated:
            converged = True
            break
    return a, k, n_updates, cycles_run, converged
