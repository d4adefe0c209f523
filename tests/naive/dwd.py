"""Direct reference for genesel.dwd: the original constrained DWD problem solved by scipy's SLSQP.

    min Σ 1/r_i + C Σ ξ_i  s.t.  r_i = y_i(x_iᵀw + b) + ξ_i > 0,  ξ ≥ 0,  ‖w‖² ≤ 1

in the variables (w, b, ξ) — no elimination of ξ, no kernel/span trick. Only for tiny problems.
"""

import numpy as np
from scipy.optimize import minimize


def dwd_direct(X, y, C, n_starts=3, seed=0):
    """Return (w, b, xi, objective) of the best of a few SLSQP runs from feasible starts."""
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    n, d = X.shape
    rng = np.random.default_rng(seed)

    def unpack(v):
        return v[:d], v[d], v[d + 1 :]

    def obj(v):
        w, b, xi = unpack(v)
        r = y * (X @ w + b) + xi
        return np.sum(1.0 / r) + C * np.sum(xi)

    def grad(v):
        w, b, xi = unpack(v)
        r = y * (X @ w + b) + xi
        g_r = -1.0 / r**2
        return np.concatenate([X.T @ (g_r * y), [np.sum(g_r * y)], g_r + C])

    cons = [
        {"type": "ineq", "fun": lambda v: 1.0 - v[:d] @ v[:d],
         "jac": lambda v: np.concatenate([-2 * v[:d], np.zeros(n + 1)])},
        {"type": "ineq", "fun": lambda v: y * (X @ v[:d] + v[d]) + v[d + 1 :] - 1e-9,
         "jac": lambda v: np.column_stack([y[:, None] * X, y, np.eye(n)])},
    ]
    bounds = [(None, None)] * (d + 1) + [(0.0, None)] * n
    best = None
    for s in range(n_starts):
        w0 = X[y > 0].mean(0) - X[y < 0].mean(0) + (0.1 * rng.normal(size=d) if s else 0.0)
        w0 = 0.9 * w0 / np.linalg.norm(w0)
        b0 = -np.median(X @ w0)
        xi0 = np.maximum(0.0, 1.0 - y * (X @ w0 + b0))
        res = minimize(obj, np.concatenate([w0, [b0], xi0]), jac=grad, constraints=cons, bounds=bounds,
                       method="SLSQP", options={"maxiter": 2000, "ftol": 1e-14})
        if best is None or res.fun < best.fun:
            best = res
    w, b, xi = unpack(best.x)
    return w, b, xi, float(best.fun)
