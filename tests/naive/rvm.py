"""Direct n × n reference for genesel.rvm: Tipping (2001) RVM classification written plainly.

- ``laplace_evidence(Phi, t, alpha)``: posterior mode by plain Newton over the given basis, then the Laplace
  approximation of log p(t | alpha) computed with explicit inverses and determinants.
- ``sparsity_quality(Phi_all, t, active, alpha)``: S_m and Q_m of Tipping & Faul (2003) from the explicit n × n
  matrix C = B⁻¹ + Φ_A A⁻¹ Φ_Aᵀ and its inverse (no Woodbury).
- ``rvm_tipping2001(Phi, t)``: the original algorithm — all basis functions start in the model, α_i ← γ_i / μ_i²
  with γ_i = 1 − α_i Σ_ii, IRLS for the mode, pruning of α_i > 1e12.

Plain-Python twins of the numba kernels of genesel.rvm (in genesel._rvm_kernels; the vectorised implementation
genesel.rvm had before its loop moved to numba, plus the oscillation safeguard):

- ``irls_mode(Phi_A, t, alpha, w0)``: twin of ``genesel._rvm_kernels.posterior_mode`` (damped Newton, Cholesky
  rebuilt every step).
- ``fast_marginal(PhiT, t, usable, ...)``: twin of ``genesel._rvm_kernels.fast_rvm`` — Tipping & Faul's add /
  re-estimate / delete loop with S_m, Q_m by the Woodbury identity from scratch at every iteration (no carried
  Cholesky factor).
"""

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular


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
    loglik = -np.sum(t * np.logaddexp(0, -f) + (1 - t) * np.logaddexp(0, f))
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


# ------------------------------------------------------------------------------------------- twins of the numba kernels
def _loglik(t, f):
    return float(-(np.logaddexp(0.0, -f) * t + np.logaddexp(0.0, f) * (1.0 - t)).sum())


def _expit(f):
    return 0.5 * (1.0 + np.tanh(0.5 * f))


def irls_mode(Phi, t, alpha, w0=None, max_iter=100):
    """(w, lower Cholesky factor L of ΦᵀBΦ + A at the mode, f = Φw, log p(t|w) − ½wᵀAw)."""
    M = Phi.shape[1]
    w = np.zeros(M) if w0 is None else np.array(w0, dtype=float)
    f = Phi @ w
    obj = _loglik(t, f) - 0.5 * np.sum(alpha * w * w)
    if M == 0:
        return w, np.zeros((0, 0)), f, obj
    for _ in range(max_iter):
        s = _expit(f)
        g = Phi.T @ (t - s) - alpha * w
        H = (Phi.T * (s * (1.0 - s))) @ Phi + np.diag(alpha)
        step = cho_solve(cho_factor(H, lower=True), g)
        dec = g @ step
        if dec < 1e-14 * max(1.0, abs(obj)):
            w = w + step
            f = Phi @ w
            obj = _loglik(t, f) - 0.5 * np.sum(alpha * w * w)
            break
        lr = 1.0
        while lr > 1e-10:
            wn = w + lr * step
            fn = Phi @ wn
            on = _loglik(t, fn) - 0.5 * np.sum(alpha * wn * wn)
            if on >= obj + 1e-4 * lr * dec:
                break
            lr *= 0.5
        if on < obj:
            break
        w, f, obj = wn, fn, on
    s = _expit(f)
    H = (Phi.T * (s * (1.0 - s))) @ Phi + np.diag(alpha)
    return w, np.linalg.cholesky(H), f, obj


def fast_marginal(PhiT, t, usable, max_iter=2000, tol=1e-3, damp_ratio=0.9, damp_after=3, trace=None):
    """Twin of genesel._rvm_kernels.fast_rvm: (active, alpha, w, Sigma, f, log evidence, n_iter, status).

    ``trace``: a list that receives (action, basis index, predicted gain, log evidence before the step) for every
    step taken.
    """
    Phi = np.asarray(PhiT, dtype=float).T
    n, M = Phi.shape
    active = np.zeros(0, dtype=np.int64)
    alpha = np.zeros(0)
    w = np.zeros(0)
    last_dlog, damp, nflip = np.zeros(M), np.ones(M), np.zeros(M, dtype=np.int64)
    history = []  # (basis set, log evidence) before each addition / deletion
    blocked = []  # (basis set, kind, basis index): steps blocked in that model
    status, it = 1, 0
    for it in range(1, max_iter + 1):  # noqa: B007 (the count of iterations is returned after the loop)
        PA = Phi[:, active]
        if active.size:
            w, L, f, obj = irls_mode(PA, t, alpha, w0=w)
            ev = obj + 0.5 * np.sum(np.log(alpha)) - np.sum(np.log(np.diag(L)))
        else:
            f = np.zeros(n)
            ev = _loglik(t, f)
        s = _expit(f)
        beta = np.maximum(s * (1.0 - s), 1e-12)
        that = f + (t - s) / beta
        S = beta @ (Phi * Phi)
        Q = (beta * that) @ Phi
        if active.size:
            Z = solve_triangular(L, (PA * beta[:, None]).T @ Phi, lower=True)  # L⁻¹ Φ_AᵀBΦ
            zt = solve_triangular(L, PA.T @ (beta * that), lower=True)
            S = S - np.einsum("ij,ij->j", Z, Z)
            Q = Q - Z.T @ zt
        in_model = np.zeros(M, dtype=bool)
        in_model[active] = True
        a_full = np.full(M, np.inf)
        a_full[active] = alpha
        s_, q_ = S.copy(), Q.copy()
        den = alpha - S[active]
        s_[active] = alpha * S[active] / den
        q_[active] = alpha * Q[active] / den
        theta = q_**2 - s_
        gain = np.full(M, -np.inf)
        here = frozenset(active.tolist())
        no_add = np.zeros(M, dtype=bool)
        no_del = np.zeros(M, dtype=bool)
        for state, kind, j in blocked:
            if state == here:
                (no_add if kind == "add" else no_del)[j] = True
        add = (~in_model) & (theta > 0) & usable & ~no_add
        gain[add] = 0.5 * ((Q[add] ** 2 - S[add]) / S[add] + np.log(S[add] / Q[add] ** 2))
        re = in_model & (theta > 0)
        new_alpha = np.where(theta > 0, s_**2 / np.where(theta > 0, theta, 1.0), np.inf)
        dinv = 1.0 / new_alpha[re] - 1.0 / a_full[re]
        with np.errstate(divide="ignore", invalid="ignore"):
            gre = 0.5 * (Q[re] ** 2 / (S[re] + 1.0 / dinv) - np.log1p(S[re] * dinv))
        gain[re] = np.where(dinv == 0, 0.0, gre)
        dele = in_model & (theta <= 0) & ~no_del
        if active.size > 1:
            gain[dele] = 0.5 * (Q[dele] ** 2 / (S[dele] - a_full[dele]) - np.log1p(-S[dele] / a_full[dele]))
        dlog = np.abs(np.log(new_alpha[re] / a_full[re])) if re.any() else np.zeros(0)
        if not add.any() and not (dele.any() and active.size > 1) and (dlog.size == 0 or dlog.max() < tol):
            status = 0
            break
        m = int(np.argmax(gain))
        if not np.isfinite(gain[m]):
            status = 0
            break
        kind = "add" if add[m] else "re" if re[m] else "delete"
        if kind != "re":
            # back in a model visited before (same basis set, same evidence): stay in the best model of the cycle
            tol_ev = 1e-9 * (1.0 + abs(ev))
            recent = history[-64:]
            for back in range(1, len(recent) + 1):
                state, ev_then = recent[-back]
                if state == here and abs(ev_then - ev) <= tol_ev:
                    if ev >= max([ev] + [e for _, e in recent[-back:]]) - tol_ev:
                        blocked.append((here, kind, m))
                        blocked = blocked[-64:]
                        m = -1
                    break
            if m < 0:
                continue
            history.append((here, ev))
        if trace is not None:
            trace.append((kind, m, float(gain[m]), float(ev)))
        if add[m]:
            active = np.append(active, m)
            alpha = np.append(alpha, s_[m] ** 2 / theta[m])
            w = np.append(w, 0.0)
            last_dlog[m], damp[m], nflip[m] = 0.0, 1.0, 0
        elif re[m]:
            j = np.flatnonzero(active == m)[0]
            dl = np.log(new_alpha[m] / alpha[j])
            if last_dlog[m] * dl < 0 and abs(dl) >= damp_ratio * abs(last_dlog[m]):
                nflip[m] += 1
                if nflip[m] >= damp_after:
                    damp[m] *= 0.5
            else:
                nflip[m] = 0
            dl *= damp[m]
            alpha[j] = new_alpha[m] if damp[m] == 1.0 else alpha[j] * np.exp(dl)
            last_dlog[m] = dl
        else:
            j = np.flatnonzero(active == m)[0]
            active, alpha, w = np.delete(active, j), np.delete(alpha, j), np.delete(w, j)
    order = np.argsort(active)
    active, alpha, w = active[order], alpha[order], w[order]
    PA = Phi[:, active]
    w, L, f, obj = irls_mode(PA, t, alpha, w0=w)
    Linv = solve_triangular(L, np.eye(L.shape[0]), lower=True)
    logev = obj + 0.5 * np.sum(np.log(alpha)) - np.sum(np.log(np.diag(L)))
    return active, alpha, w, Linv.T @ Linv, f, float(logev), it, status
