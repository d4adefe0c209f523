"""Plain-Python twins of the numba kernels in genesel.gp (slow, for comparison tests only)."""

import math


def norm_ratio(z):
    """N(z)/Φ(z) straight from the definitions (valid where Φ(z) does not underflow, z > −37)."""
    pdf = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    cdf = 0.5 * math.erfc(-z / math.sqrt(2.0))
    return pdf / cdf


def ep_sweep(Sigma, mu, nu_t, tau_t, y):
    """One sequential EP sweep (Rasmussen & Williams Alg. 3.5) on nested lists; returns new lists.

    The posterior is updated after each site as Σ ← Σ − s sᵀ / (1/Δτ̃ + Σ_ii), μ = Σ ν̃.  Also returns the
    largest relative site change max_i max(|Δτ̃_i| / (1 + τ̃_i), |Δν̃_i| / (1 + |ν̃_i|)).
    """
    n = len(y)
    Sigma = [list(row) for row in Sigma]
    mu = list(mu)
    nu_t = list(nu_t)
    tau_t = list(tau_t)
    delta = 0.0
    for i in range(n):
        tau_c = 1.0 / Sigma[i][i] - tau_t[i]
        nu_c = mu[i] / Sigma[i][i] - nu_t[i]
        var_c = 1.0 / tau_c
        mu_c = nu_c / tau_c
        z = y[i] * mu_c / math.sqrt(1.0 + var_c)
        r = norm_ratio(z)
        mu_hat = mu_c + y[i] * var_c * r / math.sqrt(1.0 + var_c)
        var_hat = var_c - var_c**2 * r / (1.0 + var_c) * (z + r)
        tau_new = max(1.0 / var_hat - tau_c, 0.0)
        dtau = tau_new - tau_t[i]
        tau_t[i] = tau_new
        nu_new = mu_hat / var_hat - nu_c
        delta = max(delta, abs(dtau) / (1.0 + tau_new), abs(nu_new - nu_t[i]) / (1.0 + abs(nu_new)))
        nu_t[i] = nu_new
        s = [Sigma[k][i] for k in range(n)]
        denom = 1.0 / dtau + s[i] if dtau != 0.0 else math.inf
        Sigma = [[Sigma[k][j] - s[k] * s[j] / denom for j in range(n)] for k in range(n)]
        mu = [sum(Sigma[k][j] * nu_t[j] for j in range(n)) for k in range(n)]
    return Sigma, mu, nu_t, tau_t, delta


def scaled_mirror(low, sd):
    """D½ A D½ of the symmetric A held in the lower triangle of ``low`` (nested lists), both triangles filled."""
    n = len(low)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            out[i][j] = out[j][i] = sd[i] * low[i][j] * sd[j]
    return out
