"""Plain-Python twin of genesel.smlr._smlr_sweep (one pass of component-wise bound-optimisation updates)."""

import math


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
            for i in range(n):
                p = 1.0 / (1.0 + math.exp(-eta[i, 0])) if K == 1 else math.exp(eta[i, j] - lse[i])
                x = 1.0 if k == -1 else X[i, k]
                g += x * (Y[i, j] - p)
            if k == -1:
                delta = g / c
                b[j] += delta
            else:
                z = W[k, j] + g / c
                new = math.copysign(max(abs(z) - lam / c, 0.0), z)
                delta = new - W[k, j]
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
