"""Plain-Python twin of genesel.smlr._smlr_sweep (one pass of component-wise updates: the better of the
bound-optimisation step and the coordinate's proximal Newton step)."""

import math


def coordinate_objective(X, Y, eta, k, j, delta, K):
    """Twin of genesel.smlr._coordinate_objective: the negative log-likelihood with class j's linear predictor
    moved by delta times gene k (k = -1: the bias)."""
    total = 0.0
    for i in range(eta.shape[0]):
        x = 1.0 if k < 0 else X[i, k]
        if K == 1:
            e = eta[i, 0] + delta * x
            sp = e + math.log1p(math.exp(-e)) if e > 0.0 else math.log1p(math.exp(e))
            total += sp - Y[i, 0] * e
        else:
            es = [eta[i, jj] + (delta * x if jj == j else 0.0) for jj in range(K)]
            mx = max(es)
            s = 0.0
            for e in es:
                s += math.exp(e - mx)
            ey = 0.0
            for jj in range(K):
                ey += Y[i, jj] * es[jj]
            total += mx + math.log(s) - ey
    return total


def _soft(z, t):
    return z - t if z > t else (z + t if z < -t else 0.0)


def smlr_sweep(X, Y, W, b, eta, lse, lam, curv, order, fit_intercept):
    """Same contract as the numba kernel: updates W, b, eta, lse in place, returns the largest step."""
    n, K = Y.shape
    coords = [int(k) for k in order] + ([-1] if fit_intercept else [])
    biggest = 0.0
    for k in coords:
        c = 0.25 * n if k == -1 else float(curv[k])
        if c <= 0.0:
            continue
        for j in range(K):
            g = 0.0
            h = 0.0
            for i in range(n):
                p = 1.0 / (1.0 + math.exp(-eta[i, 0])) if K == 1 else math.exp(eta[i, j] - lse[i])
                x = 1.0 if k == -1 else X[i, k]
                g += x * (Y[i, j] - p)
                h += p * (1.0 - p) * x * x
            old = b[j] if k == -1 else W[k, j]
            pen = 0.0 if k == -1 else lam
            new = _soft(old + g / c, pen / c)
            if 0.0 < h < c:
                newton = _soft(old + g / h, pen / h)
                if newton != new:
                    f_bound = coordinate_objective(X, Y, eta, k, j, new - old, K) + pen * abs(new)
                    f_newton = coordinate_objective(X, Y, eta, k, j, newton - old, K) + pen * abs(newton)
                    if f_newton < f_bound:
                        new = newton
            delta = new - old
            if k == -1:
                b[j] = new
            else:
                W[k, j] = new
            if delta != 0.0:
                biggest = max(biggest, abs(delta) * math.sqrt(4.0 * c))
                for i in range(n):
                    eta[i, j] += delta * (1.0 if k == -1 else X[i, k])
                if K > 1:
                    for i in range(n):
                        mx = max(eta[i, jj] for jj in range(K))
                        lse[i] = mx + math.log(sum(math.exp(eta[i, jj] - mx) for jj in range(K)))
    return biggest


def smlr_active_sweeps(X, Y, W, b, eta, lse, lam, curv, active, fit_intercept, max_sweeps, stop):
    """Twin of genesel.smlr._smlr_active_sweeps: sweeps over ``active`` until a step is below ``stop``."""
    done = 0
    while done < max_sweeps:
        step = smlr_sweep(X, Y, W, b, eta, lse, lam, curv, active, fit_intercept)
        done += 1
        if step < stop:
            break
    return done
