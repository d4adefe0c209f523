"""Direct n × n reference for genesel.rvm: Tipping (2001) RVM classification written plainly.

- ``laplace_evidence(Phi, t, alpha)``: posterior mode by plain Newton over the given basis, then the Laplace
  approximation of log p(t | alpha) computed with explicit inverses and determinants.
- ``sparsity_quality(Phi_all, t, active, alpha)``: S_m and Q_m of Tipping & Faul (2003) from the explicit n × n
  matrix C = B⁻¹ + Φ_A A⁻¹ Φ_Aᵀ and its inverse (no Woodbury).
- ``rvm_tipping2001(Phi, t)``: the original algorithm — all basis functions start in the model, α_i ← γ_i / μ_i²
  with γ_i = 1 − α_i Σ_ii, IRLS for the mode, pruning of α_i > 1e12.
"""

import numpy as np


def sigmoid(f):
    return 1.0 / (1.0 + np.exp(-f))


def posterior_mode(Phi, t, alpha, iters=200):
    w = np.zeros(Phi.shape[1])
    for _ in range(iters):
        s = sigmoid(Phi @ w)
        g = Phi.T @ (t - s) - alpha * w
        H = Phi.T @ np.diag(s * (1 - s)) @ Phi + np.diag(alpha)
        step = np.linalg.solve(H, g)
        w = w + step
        if np.max(np.abs(step)) < 1e-13:
            break
    return w


def laplace_evidence(Phi, t, alpha):
    w = posterior_mode(Phi, t, alpha)
    f = Phi @ w
    s = sigmoid(f)
    loglik = np.sum(t * np.log(s) + (1 - t) * np.log(1 - s))
    H = Phi.T @ np.diag(s * (1 - s)) @ Phi + np.diag(alpha)
    return loglik - 0.5 * np.sum(alpha * w**2) + 0.5 * np.sum(np.log(alpha)) - 0.5 * np.linalg.slogdet(H)[1]


def sparsity_quality(Phi, t, active, alpha):
    """(S, Q) for every column of Phi, from the explicit n × n C at the mode of the active model."""
    PA = Phi[:, active]
    w = posterior_mode(PA, t, alpha)
    f = PA @ w
    s = sigmoid(f)
    beta = s * (1 - s)
    that = f + (t - s) / beta
    C = np.diag(1.0 / beta) + PA @ np.diag(1.0 / alpha) @ PA.T
    Ci = np.linalg.inv(C)
    S = np.array([Phi[:, m] @ Ci @ Phi[:, m] for m in range(Phi.shape[1])])
    Q = np.array([Phi[:, m] @ Ci @ that for m in range(Phi.shape[1])])
    return S, Q


def rvm_tipping2001(Phi, t, max_iter=5000, prune=1e12, tol=1e-9):
    M = Phi.shape[1]
    alpha = np.full(M, 1.0 / M**2)
    keep = np.arange(M)
    w = np.zeros(M)
    for _ in range(max_iter):
        P = Phi[:, keep]
        w = posterior_mode(P, t, alpha)
        s = sigmoid(P @ w)
        H = P.T @ np.diag(s * (1 - s)) @ P + np.diag(alpha)
        Sigma = np.linalg.inv(H)
        gamma = 1.0 - alpha * np.diag(Sigma)
        new = gamma / np.maximum(w**2, 1e-300)
        done = np.max(np.abs(np.log(new / alpha))) < tol
        alpha = new
        ok = alpha < prune
        keep, alpha = keep[ok], alpha[ok]
        if done and ok.all():
            break
    w = posterior_mode(Phi[:, keep], t, alpha)
    return keep, alpha, w
