"""Plain-Python twins of genesel.arom (slow, obvious, for tests only).

``arom_path``: the (PS-)l2-AROM iteration exactly as on the slides, on the full rescaled data matrix, with every SVM
solved from scratch by the plain SMO of ``naive.svm`` (no warm start, no Newton step, no Gram shortcut), one gene at
a time for the update and the underflow test.

``arom_path_svc``: the implementation a user would write with scikit-learn, a loop of ``SVC(kernel="linear")`` fits
on ``X * w_k`` (an independent solver, LIBSVM).

Both take more than two classes as genesel.arom does: K one-vs-rest SVMs on the same rescaled data, and the update
with the root mean square of their weights, rms_k(w_bar_k).
"""

from __future__ import annotations

import numpy as np

from naive import svm as naive_svm


def _update(z, wbar, beta, xnorm, alive, underflow, normalize=True, unit=1.0):
    """w_{k+1} = w_k * w_bar * beta / min(unit, m) gene by gene (m = max |w_bar_j beta_j|; unit = 1 in the units of
    X; no division without normalisation), then drop the genes whose rescaled column underflowed."""
    d = z.shape[0]
    m = 1.0
    if normalize:
        m = min(unit, max(abs(wbar[j] * beta[j]) for j in range(d) if alive[j]))
    znew = np.zeros(d)
    v = np.zeros(d)
    ratio = np.zeros(d)
    for j in range(d):
        if alive[j]:
            v[j] = z[j] * wbar[j]
            ratio[j] = wbar[j] * beta[j] / m
            znew[j] = z[j] * ratio[j]
    top = max(abs(znew[j]) * xnorm[j] for j in range(d) if alive[j])
    gone = []
    change = 0.0
    for j in range(d):
        if alive[j]:
            if abs(znew[j]) * xnorm[j] < underflow * top:
                gone.append(j)
            else:
                change = max(change, abs(ratio[j] - 1.0))
    return znew, v, gone, change


def arom_path(X, y, beta=None, C=1e3, tol=1e-6, max_iter=500, underflow=1e-8, smo_tol=1e-9, normalize=True):
    """The iteration with genesel's normalisation, or (``normalize=False``) literally as on the slides.

    Returns dict(scalings=[w_0, w_1, ...], n_active=[...], exit_iteration, exit_weight, coef, n_iter, converged).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    beta = np.ones(d) if beta is None else np.asarray(beta, dtype=float)
    xnorm = np.sqrt((X**2).sum(0))
    z = beta.copy()
    alive = np.ones(d, bool)
    exit_it = np.full(d, -1)
    exit_w = np.zeros(d)
    scalings = [z.copy()]
    n_active = []
    converged = False
    coef = np.zeros(d)
    k = 0
    while k < max_iter:
        n_active.append(int(alive.sum()))
        Xs = X[:, alive] * z[alive]
        K = Xs @ Xs.T
        Y = y[None, :] if y.ndim == 1 else y
        Wb, V = np.zeros((Y.shape[0], d)), np.zeros((Y.shape[0], d))
        for c, yc in enumerate(Y):
            alpha, _, _, _ = naive_svm.smo(K, yc, C, np.zeros(n), smo_tol, 10_000_000)
            Wb[c, alive] = Xs.T @ (alpha * yc)
            V[c] = z * Wb[c]
        wbar = Wb[0] if y.ndim == 1 else np.sqrt(np.mean(Wb**2, axis=0))
        znew, v, gone, change = _update(z, wbar, beta, xnorm, alive, underflow, normalize)
        if y.ndim == 2:
            v = V
        k += 1
        coef = v.copy()
        for j in gone:
            exit_it[j] = k
            exit_w[j] = abs(znew[j])
            alive[j] = False
            znew[j] = 0.0
            coef[..., j] = 0.0
        z = znew
        scalings.append(z.copy())
        if not gone and change < tol:
            converged = True
            break
    return dict(scalings=scalings, n_active=n_active, exit_iteration=exit_it, exit_weight=exit_w, coef=coef,
                n_iter=k, converged=converged)


def feature_order(scaling, exit_iteration, exit_weight):
    """Best first: active genes by decreasing |w|, then later exits first, by decreasing exit weight, lower index."""
    d = len(scaling)
    last = max(int(np.max(exit_iteration)), 0) + 1
    key = []
    for j in range(d):
        if exit_iteration[j] < 0:
            key.append((-last, -abs(scaling[j]), j))
        else:
            key.append((-exit_iteration[j], -exit_weight[j], j))
    return np.array([j for *_, j in sorted(key)], dtype=np.int64)


def arom_path_svc(X, y, beta=None, C=1e3, tol=1e-6, max_iter=500, underflow=1e-8, svc_tol=1e-9):
    """The loop a user would write: SVC(kernel="linear") on X * w_k, w_{k+1} = w_k * coef * beta / min(1, m), same
    normalisation, stopping and underflow rules (genes that underflow are set to exactly 0 and stay in the matrix)."""
    from sklearn.svm import SVC

    X = np.asarray(X, dtype=float)
    n, d = X.shape
    beta = np.ones(d) if beta is None else np.asarray(beta, dtype=float)
    xnorm = np.sqrt((X**2).sum(0))
    z = beta.copy()
    exit_it = np.full(d, -1)
    exit_w = np.zeros(d)
    k = 0
    converged = False
    labels = np.unique(y)
    while k < max_iter:
        if labels.size > 2:  # one-vs-rest machines, the root mean square of their weights
            W = [SVC(kernel="linear", C=C, tol=svc_tol, max_iter=-1).fit(X * z, (y == c).astype(int)).coef_[0]
                 for c in labels]
            wbar = np.sqrt(np.mean(np.square(W), axis=0))
        else:
            svc = SVC(kernel="linear", C=C, tol=svc_tol, max_iter=-1).fit(X * z, y)
            wbar = svc.coef_[0]
        alive = exit_it < 0
        ratio = wbar * beta
        ratio /= min(1.0, np.max(np.abs(ratio[alive])))
        znew = z * ratio
        k += 1
        mag = np.abs(znew) * xnorm
        gone = alive & (mag < underflow * mag[alive].max())
        keep = alive & ~gone
        change = np.max(np.abs(ratio[keep] - 1.0))
        exit_it[gone] = k
        exit_w[gone] = np.abs(znew[gone])
        znew[~keep] = 0.0
        z = znew
        if not gone.any() and change < tol:
            converged = True
            break
    return dict(scaling=z, exit_iteration=exit_it, exit_weight=exit_w, n_iter=k, converged=converged,
                order=feature_order(z, exit_it, exit_w))
