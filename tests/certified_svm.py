"""An exact reference for the soft-margin linear SVM on tiny problems: its weight vector with a proof of optimality,
and the whole interval of optimal biases.

Why not libsvm: at the tight tolerances such a reference needs (1e-8..1e-10) it took 3 to 11 minutes on 17 x 5
problems, and where the bias is not unique (no support vector strictly inside the box) it returns one value of an
interval, so its leave-one-out predictions may differ from another solver's without either being wrong.

How (Vapnik's soft-margin SVM, primal min_{w,b} ||w||^2 / 2 + C sum_j max(0, 1 - y_j (w.x_j + b)), dual
max_a sum_j a_j - ||sum_j a_j y_j x_j||^2 / 2 with 0 <= a_j <= C and sum_j a_j y_j = 0):

1. the dual is solved by a primal-dual interior-point method (Newton steps on the perturbed KKT conditions, a
   fraction-to-the-boundary step rule), then made exactly feasible (clipped into the box, the side of the larger
   sum scaled down so that sum_j a_j y_j = 0);
2. w = sum_j a_j y_j x_j; given w the primal is C h(b) + const with h(b) = sum_j max(0, 1 - y_j (w.x_j + b)) convex
   and piecewise linear with breakpoints t_j = y_j - w.x_j and integer slopes, so its minimisers are the interval
   between the smallest and the largest breakpoint where h is minimal;
3. the duality gap P(w, b) - D(a) bounds the error: the primal is 1-strongly convex in w, so
   ||w - w*|| <= sqrt(2 gap) (w* the unique optimal weight vector), and every decision value w.x + b is known to
   within ||x|| sqrt(2 gap); the interval of optimal b is widened by the same bound.

The decision value of a new sample is therefore an interval that contains the exact one for *every* optimal bias;
a solver's value outside it (beyond the solver's own tolerance) is wrong. An assertion stops a reference whose gap
is not negligible (above 1e-10).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def _dual_interior_point(Q, y, C, iters=100):
    """min a'Qa/2 - sum(a) subject to y'a = 0 and 0 <= a <= C, by a primal-dual interior-point method."""
    n = y.size
    yf = y.astype(float)
    a, z_low, z_up, nu = np.full(n, C / 2), np.ones(n), np.ones(n), 0.0
    for _ in range(iters):
        s = C - a
        mu = (a @ z_low + s @ z_up) / (2 * n)
        if mu < 1e-15 * C or np.any(a <= 0) or np.any(s <= 0):  # converged, or a bound reached in rounding
            break
        r_dual = Q @ a - 1.0 + nu * yf - z_low + z_up
        rhs_low, rhs_up = 0.1 * mu - a * z_low, 0.1 * mu - s * z_up
        K = np.zeros((n + 1, n + 1))
        K[:n, :n] = Q + np.diag(z_low / a + z_up / s)
        K[:n, n] = K[n, :n] = yf
        step_dir = np.linalg.solve(K, np.r_[-r_dual + rhs_low / a - rhs_up / s, -(yf @ a)])
        da, dnu = step_dir[:n], step_dir[n]
        dz_low, dz_up = (rhs_low - z_low * da) / a, (rhs_up + z_up * da) / s
        step = 1.0
        for v, dv in ((a, da), (s, -da), (z_low, dz_low), (z_up, dz_up)):
            if np.any(dv < 0):
                step = min(step, 0.99 * float(np.min(-v[dv < 0] / dv[dv < 0])))
        nxt = a + step * da, nu + step * dnu, z_low + step * dz_low, z_up + step * dz_up
        if not all(np.all(np.isfinite(v)) for v in nxt):
            break
        a, nu, z_low, z_up = nxt
    return a


class CertifiedSVM(NamedTuple):
    w: np.ndarray
    b_low: float  # every optimal bias lies in [b_low, b_high] (widened by the error bound)
    b_high: float
    w_error: float  # ||w - w*|| <= w_error
    gap: float

    def decision_interval(self, x):
        """[low, high] holding the exact decision value at x for every optimal bias."""
        f, err = float(x @ self.w), float(np.linalg.norm(x)) * self.w_error
        return f + self.b_low - err, f + self.b_high + err


def certified_linear_svm(X, y, C) -> CertifiedSVM:
    """The soft-margin linear SVM of ``X`` and labels ``y`` in {-1, +1}, with its error bound (module docstring)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    assert set(np.unique(y)) == {-1, 1}, "labels must be -1 and +1, both present"
    n = y.size
    Q = (y[:, None] * y[None, :]) * (X @ X.T)
    a = np.clip(_dual_interior_point(Q, y, C), 0.0, C)
    excess = a @ y
    side = y > 0 if excess > 0 else y < 0
    a[side] *= 1.0 - abs(excess) / a[side].sum()  # exactly feasible: sum a y = 0, still inside the box
    w = X.T @ (a * y)
    dual = a.sum() - 0.5 * w @ w
    t = y - X @ w
    h = np.array([np.maximum(0.0, 1.0 - y * (X @ w + b)).sum() for b in t])
    gap = max(0.5 * w @ w + C * h.min() - dual, 0.0)
    assert gap < 1e-10, f"the interior-point solve did not converge (duality gap {gap:.1e})"
    w_error = float(np.sqrt(2.0 * gap))
    R = float(np.linalg.norm(X, axis=1).max())
    on = t[h <= h.min() + 2.0 * n * R * w_error + 1e-12]  # the minimal breakpoints, allowing for the error of w
    return CertifiedSVM(w, float(on.min()) - R * w_error, float(on.max()) + R * w_error, w_error, float(gap))
