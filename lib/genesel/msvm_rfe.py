"""Multiple SVM-RFE (MSVM-RFE) gene ranking and its biomarker set.

K.-B. Duan, J. C. Rajapakse, H. Wang, F. Azuaje, *Multiple SVM-RFE for gene selection in cancer classification with
expression data*, IEEE Trans. NanoBioscience 4(3), 2005; as presented in M. Tan, *Comparative Study of Kernel Based
Classification and Feature Selection Methods With Gene Expression Data*, MSc thesis, UBC 2006, §5.2, Figure 5.1:

    R = [], S = all genes
    repeat until every gene is ranked:
      a) train t linear SVMs on subsets of the training data, genes S as inputs
      b) normalise each weight vector: w_j <- w_j / ||w_j||                                   (Eq. 5.2)
      c) v_ji = w_ji^2;  c_i = mean_j(v_ji) / sd_j(v_ji)  (sd with t - 1 in the denominator)   (Eq. 5.3)
      d) e = argmin_i c_i;   e) R = [e, R],  S = S - {e}

The t subsets are the training parts of a stratified ``n_folds``-fold split of the training data (each SVM leaves
one fold out), repeated ``n_repeats`` times with fresh seeded folds (t = n_folds x n_repeats). Following the thesis'
use of ranked lists (§4.2, §5.5), the biomarker set (``support_``) is the smallest prefix of the ranking with the
highest leave-one-out accuracy of a linear SVM on the training data (:func:`genesel.forward.forward_path`), unless
``n_features_to_select`` asks for a fixed number of genes.

Implementation. All t SVMs live on the same samples and the same genes, so removing a gene g changes every SVM's
Gram block by the rank-one term -x_g x_g^T. Each SVM keeps its block, its multipliers, its gradient and the
Cholesky factor of its free block from one step to the next and downdates all of them with the removed genes
(O(t n^2) per gene); its previous solution stays feasible, so every solve is a warm start: a Newton step on the free
set with the carried factor (:func:`genesel._core.newton.newton_smo`, which lands on the new optimum when the free
set did not change), certified by SMO (:mod:`genesel._core.smo`). Blocks, gradients and factors are recomputed
exactly whenever the survivors halve, so rounding does not accumulate. The elimination loop is one numba function
(:func:`_msvm_path`; plain-Python twin in ``tests/naive/msvm_rfe.py``). Where the survivors halve in one step (a
chunk), the removed genes are only compacted out and everything is recomputed from the survivors (the same numbers).

The argmin of a one-gene step (issue 41). Computing every weight of every step, d x n x t multiply-adds over the
survivors, was 85 % of a fit with ``step=1`` (29 of 35 s on a Chowdary training part, 83 x 22,283). The gene with
the smallest criterion is now found exactly but lazily while at least ``_LAZY_GENES`` (2048) genes survive. The
normaliser of Eq. 5.2, N_r = sum_m ||w_rm||^2 = sum_m c^T K c (c = alpha * y), comes from the SVMs' Gram blocks, and
each gene keeps the summaries of its last evaluation. Its normalised weights a_r = x_g^T C_r / sqrt(N_r) move by at
most rho = min(|x_g| |dC|, sqrt(x_g^T M^-1 x_g) |dC|_M) since then (Cauchy-Schwarz, in the Euclidean norm and in the
metric M = K + mu I of the survivors' Gram matrix, where the coefficients' moves are small; dC the exact distance
to the coefficients of that step for the last 32 steps, else the summed step lengths), and :func:`_lower_bound`
turns rho into a lower bound of its criterion (mean / sd of the V_r = ||a_r||^2). Only genes whose bound could
reach the smallest exact criterion found so far (the previous runner-up first) are looked at: first in single
precision (half the memory traffic; its rounding, at most (n + 4) 2^-24 |x| |C_r|, widens the bound), then, if still
possible, exactly in double precision. Every comparison that decides the argmin is between exact criteria of this
step (ties by the lower gene index), so the removed gene is the one evaluating every gene would remove. What
differs from the previous code is rounding: N_r comes from the Gram blocks instead of the summed squared weights and
each weight from a vectorised dot product instead of the BLAS product (relative differences near 1e-15), which
decides only between genes whose criteria are equal to the last bits. Such ties occur: a gene whose weight vanishes
(up to rounding) in all but one resampling has the smallest possible criterion, 1/sqrt(t) for every such gene, and
which of them rounding puts first was arbitrary in the previous code too; after such a step the two paths go on
with different survivors. Below 2048 survivors every step computes every weight (one BLAS product: the previous
code's numbers). Measured (``benchmarks/bench_rfe_speed.py``: the leaderboard's C = 100 / d on standardised genes,
one BLAS thread, old and new code in one process, a machine with a load near 12 on 2 cores): Chowdary training parts
(83 x 22,283) 36.6 s -> 7.5 s of CPU (4.9x), the same ranking of all genes; Gordon (145 x 12,340) 19 s -> 6 s (3.1x);
Borovecki (25 x 22,283) 9.4 s -> 4.6 s (2.0x); Golub (57 x 6,790) 1.5 s -> 1.1 s; Alon (49 x 2,000) the same; 133 s
-> 38 s over two training parts of each (3.5x). The top 256 genes were the same, in the same order, in 8 of these 10
fits. In the two others the paths part at a step that rounding decides in either code: on Gordon a tie at 1/sqrt(5)
(evaluating every gene exactly in the new arithmetic removes the same gene as the lazy path, so no bound skipped
it); on Golub a gene constant but for one sample that is a support vector in no resampling, whose weights are 0 in
exact arithmetic (criterion 0 by Eq. 5.3's convention) but rounding noise of 1e-17 in both codes, giving it the
criterion 0.4667 in the old code (removed) and 0.4758 in the new one (kept).

Wide data. Figure 5.1 removes one gene per step: d steps of t SVMs and t weight vectors over the survivors, O(d^2 n t)
in all, hours on today's 55,000-probe arrays. The default ``step="auto"`` (:func:`auto_schedule`) removes chunks
while more than 256 genes survive, in Guyon's rule (first down to the largest power of two below d, then halving;
Guyon et al. 2002 as given in Tan 2006 §5.4, where SVM-RFE "can also be generalized to remove more than one feature
per iteration for speed reasons", §4.2, and GP-ARD-RFE eliminates "chunks of features at a time"), then one gene per
step: the ranking of the top 256 genes, where the biomarker set is chosen, is Figure 5.1's, and on up to 256 genes
the default is ``step=1``. The forward selection scores the top 256 prefixes by default (``max_forward_genes``).
With these defaults 100 samples x 55,000 genes take about 7 s of CPU (``benchmarks/bench_wide.py``); ``step=1,
max_forward_genes=None`` is the thesis' protocol on any size.

Threads. Below 2048 survivors each step's weights are one product of the survivors' rows with t columns, a few
milliseconds of memory traffic: OpenBLAS's threads cost more than they save there, and on a machine whose cores are
busy they spin (a fit on 81 x 12,600 took 38.5 s instead of 5.3 s with one thread, before the lazy argmin). The
path runs with one BLAS thread on up to 512 samples (:func:`genesel._core.threads.blas_threads_for`).
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from genesel._core.gram import gram_rows
from genesel._core.linalg import cholesky, forward_solve
from genesel._core.newton import chol_downdate, newton_smo
from genesel._core.params import N_FEATURES, POSITIVE, POSITIVE_INT, POSITIVE_OR_INF, STEP, StrOptions, integer
from genesel._core.resampling import check_groups, resampling_masks, resolve_folds
from genesel._core.selector import SelectorBase
from genesel._core.smo import UNBOUNDED_DUAL
from genesel._core.threads import blas_threads_for
from genesel._core.units import in_x_units, log_scale_str, negligible_C_message, scale_pow2, unit_row_exponent
from genesel._core.multiclass import check_classifier_fit, ovr_signs
from genesel.forward import forward_path
from genesel.rfe import elimination_schedule

__all__ = ["MSVMRFE", "msvm_criterion", "auto_schedule", "linear_svm_units", "svm_forward_path",
           "resampling_masks"]  # resampling_masks: re-exported from genesel._core


def msvm_criterion(W):
    """Ranking score of MSVM-RFE (thesis Eqs. 5.2-5.3) for weight vectors ``W`` (t SVMs x genes), or (t, K, genes):
    the K one-vs-rest machines of each of t resamplings (K > 2 classes).

    Each row is normalised to unit length, squared, and c_i = mean / sd over the t rows (sd with ddof = 1). A gene
    whose squared weights do not vary gets +inf when its mean is positive and 0 when it is zero everywhere. With K
    machines per resampling, v_ri = sum_k w_rki^2 / sum_k ||w_rk||^2 (the multi-class SVM-RFE criterion of resampling
    r, normalised to sum 1 over the genes as Eq. 5.2 normalises w_r^2) takes the place of (w_ri / ||w_r||)^2.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim not in (2, 3) or W.shape[0] < 2:
        raise ValueError(f"W must be (t, n_genes) or (t, K, n_genes) with t >= 2 resamplings (the criterion needs a "
                         f"standard deviation), got shape {W.shape}")
    if W.ndim == 3:
        S = np.sum(W * W, axis=1)
        tot = np.sum(S, axis=1, keepdims=True)
        V = S / np.where(tot > 0, tot, 1.0)
    else:
        norms = np.sqrt(np.sum(W * W, axis=1, keepdims=True))
        V = (W / np.where(norms > 0, norms, 1.0)) ** 2
    mean = V.mean(axis=0)
    sd = V.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = mean / sd
    return np.where(sd > 0, c, np.where(mean > 0, np.inf, 0.0))


# ----------------------------------------------------------------------------------------------------------------
# numba kernels (plain-Python twins in tests/naive/msvm_rfe.py)
# ----------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def _downdate_gene(x, Kbuf, sizes, idx, alphas, grads, ys_all, chol, F, m_fac, v):
    """Remove gene x (its row of the compacted data) from every SVM: its Gram block K <- K - x x^T, its gradient and
    its carried Cholesky factor downdated with it (a factor that stops being positive definite is dropped)."""
    n = x.shape[0]
    xs = np.empty(n)
    for j in range(sizes.shape[0]):
        m = sizes[j]
        s = 0.0
        for p in range(m):
            xs[p] = x[idx[j, p]]
            s += ys_all[j, p] * alphas[j, p] * xs[p]
        K = Kbuf[j, : m * m].reshape((m, m))
        for p in range(m):
            xp = xs[p]
            if xp != 0.0:
                for q in range(m):
                    K[p, q] -= xp * xs[q]
        if s != 0.0:
            for p in range(m):
                grads[j, p] -= ys_all[j, p] * xs[p] * s
        mf = m_fac[j]
        if mf > 0:
            for p in range(mf):
                q = F[j, p]
                v[p] = ys_all[j, q] * xs[q]
            if not chol_downdate(chol[j], mf, v):
                m_fac[j] = -1


@njit(cache=True)
def _drop_slot(Xc, X32, rows, slot_of, st, u, n_rem):
    """Move the last surviving slot (its row of the data, its gene and its stored evaluation) into slot u; returns
    the new number of survivors."""
    last = n_rem - 1
    if u != last:
        g = rows[last]
        rows[u] = g
        slot_of[g] = u
        for i in range(Xc.shape[1]):
            Xc[u, i] = Xc[last, i]
        for i in range(X32.shape[1]):
            X32[u, i] = X32[last, i]
        for q in range(st.shape[1]):
            st[u, q] = st[last, q]
    return last


@njit(cache=True)
def _exact_blocks(Xc, n_rem, sizes, idx, ys_all, alphas, Kbuf, grads, m_fac):
    """Each SVM's Gram block and gradient computed afresh from the surviving genes; carried factors dropped."""
    K = gram_rows(Xc, np.arange(n_rem))
    for j in range(sizes.shape[0]):
        m = sizes[j]
        Kj = Kbuf[j, : m * m].reshape((m, m))
        for p in range(m):
            for q in range(m):
                Kj[p, q] = K[idx[j, p], idx[j, q]]
        for p in range(m):
            acc = 0.0
            for q in range(m):
                acc += ys_all[j, q] * alphas[j, q] * Kj[p, q]
            grads[j, p] = ys_all[j, p] * acc - 1.0
        m_fac[j] = -1
    return K


@njit(cache=True)
def _metric(K, Xc, n_rem, st, L):
    """The metric of the sharper bound: L (lower) the Cholesky factor of M = K + mu I, K the Gram matrix of all
    samples on the surviving genes and mu = 1e-3 trace(K) / n (M positive definite, condition below 1000 n + 1), and
    for each slot the leverage factor sqrt(x_u^T M^-1 x_u), raised by 1e-6 against the rounding of the solve. By
    Cauchy-Schwarz in the inner product of M, |x_u . delta| <= sqrt(x_u^T M^-1 x_u) sqrt(delta^T M delta): the
    coefficients move mostly along directions where K is small (delta^T K delta is the squared change of the whole
    weight vector), where |x_u| |delta| overstates x_u . delta many times. Returns False (no such bound) if the
    factorisation fails."""
    n = K.shape[0]
    tr = 0.0
    for i in range(n):
        tr += K[i, i]
    mu = 1e-3 * tr / n if tr > 0.0 else 1.0
    A = K.copy()
    for i in range(n):
        A[i, i] += mu
    if not cholesky(A, n, L, 0.0):
        return False
    z = np.empty(n)
    for u in range(n_rem):
        forward_solve(L, n, Xc[u], z)
        acc = 0.0
        for i in range(n):
            acc += z[i] * z[i]
        st[u, _LEV] = np.sqrt(acc) * (1.0 + 1e-6)
    return True


@njit(cache=True)
def _to_metric(L, x, out):
    """out = L^T x, so that |out| is the M-norm of x (M = L L^T)."""
    n = x.shape[0]
    for i in range(n):
        acc = 0.0
        for p in range(i, n):
            acc += L[p, i] * x[p]
        out[i] = acc


@njit(cache=True)
def _largest_block_sq_dist(a, b, t_res, M):
    """max over the t_res resamplings r of the squared distance between rows r M .. r M + M - 1 of a and of b (the
    M machines of one resampling together): how far one resampling's coefficients moved between two steps."""
    n = a.shape[1]
    big = 0.0
    for r in range(t_res):
        acc = 0.0
        for mm in range(M):
            j = r * M + mm
            for i in range(n):
                acc += (a[j, i] - b[j, i]) ** 2
        if acc > big:
            big = acc
    return big


# columns of the per-slot state ``st`` of _msvm_kernel: the criterion at the last exact evaluation, the summaries the
# lower bound needs (mean_r V_r, 2 mean_r sqrt(V_r), 2 sqrt(sum_r V_r) / sqrt(t - 1), sd_r V_r), the cumulated drift
# and the step at that evaluation, and the gene's Euclidean norm
_CRIT, _MEAN, _Q1, _Q2, _SD, _DRIFT, _STEP, _XNORM, _R0, _LEV, _DRIFTM, _EPOCH = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
#: Below this many surviving genes every step computes every weight (one BLAS product, the previous code's numbers):
#: on a few thousand genes that is cheaper than the bookkeeping of the lazy argmin
_LAZY_GENES = 2048
#: steps whose coefficients are kept, so that a gene evaluated within them is bounded by the exact distance
_RING = 32


@njit(cache=True, fastmath={"reassoc", "contract"})
def _dot(a, b):
    """a . b, summed in whatever order vectorises (the rounding bound n eps |a| |b| holds for any order; the same
    inputs give the same result, so genes with equal rows keep equal criteria)."""
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    return acc


@njit(cache=True)
def _eval_slot(Xr, u, coef, scale, M, st, step, drift, w, r0, driftm, epoch):
    """Criterion of the gene in slot u (Eqs. 5.2-5.3) from its weights ``Xr[u] . coef[j]`` in every SVM j, with
    V_r = sum_m w_rm^2 / scale_r (0 if scale_r = 0); stores it with the summaries of :func:`_lower_bound`, the drift
    and step of this evaluation and ``r0``, the radius within which its normalised weights are known (0: exact)."""
    for j in range(coef.shape[0]):
        w[j] = _dot(Xr[u], coef[j])
    return _summarise(w, coef.shape[0], scale, M, st, u, step, drift, r0, driftm, epoch)


@njit(cache=True)
def _summarise(w, t, scale, M, st, u, step, drift, r0, driftm, epoch):
    """The criterion and the summaries of :func:`_eval_slot` from the weights w[:t] of slot u."""
    t_res = t // M
    mean = 0.0
    s1 = 0.0
    for r in range(t_res):
        acc = 0.0
        for mm in range(M):
            acc += w[r * M + mm] * w[r * M + mm]
        v = acc / scale[r] if scale[r] > 0.0 else 0.0
        w[t + r] = v
        mean += v
        s1 += np.sqrt(v)
    tot = mean
    mean /= t_res
    var = 0.0
    for r in range(t_res):
        var += (w[t + r] - mean) ** 2
    sd = np.sqrt(var / (t_res - 1))
    if sd > 0.0:
        crit = mean / sd
    elif mean > 0.0:
        crit = np.inf
    else:
        crit = 0.0
    st[u, _CRIT] = crit
    st[u, _MEAN] = mean
    st[u, _Q1] = 2.0 * s1 / t_res
    st[u, _Q2] = 2.0 * np.sqrt(tot) / np.sqrt(t_res - 1.0)
    st[u, _SD] = sd
    st[u, _DRIFT] = drift
    st[u, _STEP] = step
    st[u, _R0] = r0
    st[u, _DRIFTM] = driftm
    st[u, _EPOCH] = epoch
    return crit


@njit(cache=True)
def _criteria(W, n_rem, Nr, M, st):
    """The criterion (Eqs. 5.2-5.3) of every survivor from its weights W[u] into st[u, _CRIT]."""
    t = W.shape[1]
    t_res = t // M
    V = np.empty((n_rem, t_res))
    for r in range(t_res):  # Eq. 5.2 per resampling, over its M machines
        nrm = Nr[r]
        for u in range(n_rem):
            acc = 0.0
            for mm in range(M):
                j = r * M + mm
                acc += W[u, j] * W[u, j]
            V[u, r] = acc / nrm if nrm > 0.0 else 0.0
    for u in range(n_rem):
        mean = 0.0
        for r in range(t_res):
            mean += V[u, r]
        mean /= t_res
        var = 0.0
        for r in range(t_res):
            var += (V[u, r] - mean) ** 2
        sd = np.sqrt(var / (t_res - 1))
        if sd > 0.0:
            st[u, _CRIT] = mean / sd
        elif mean > 0.0:
            st[u, _CRIT] = np.inf
        else:
            st[u, _CRIT] = 0.0


@njit(cache=True)
def _lower_bound(st, u, rho, q3):
    """(num, den): the criterion of slot u is at least num / den (den >= 0) while every normalised weight vector
    a_r = x_u^T C_r / sqrt(N_r) of its resamplings r is within rho of the one of its last evaluation, a0_r. From
    V_r = ||a_r||^2 and ||a_r|| - ||a0_r|| <= rho: the mean of the V_r is at least mean(V0) - 2 rho mean_r ||a0_r||,
    and |V_r - V0_r| <= rho (2 ||a0_r|| + rho), so by the triangle inequality of the centred norm the sd is at most
    sd(V0) + rho (2 ||a0|| + rho sqrt(t)) / sqrt(t - 1) (``q3`` = sqrt(t / (t - 1)))."""
    num = st[u, _MEAN] - rho * st[u, _Q1]
    den = st[u, _SD] + rho * (st[u, _Q2] + rho * q3)
    return num, den


@njit(cache=True)
def _msvm_kernel(Xt, Y, masks, C, tol, max_iter, n_remove, lazy):
    """Run MSVM-RFE. Xt: genes x samples (C order); Y (M, n): the labels in {-1, +1} of the M machines trained on
    every resampling (M = 1: the binary SVM; M = K: the one-vs-rest machines of K classes); masks: t x n training
    masks; n_remove: schedule; ``lazy``: find one-gene steps' argmin by the bounds below (False: evaluate every gene
    at every step, the reference). SVM j = r M + m is machine m on resampling r.

    The criterion (Eqs. 5.2-5.3) is computed over the t resamplings from v_ri = sum_m w_rmi^2 / sum_m ||w_rm||^2, the
    squared weights of resampling r normalised to sum 1 over the genes (M = 1: Eq. 5.2's (w_ri / ||w_r||)^2).

    Returns (eliminated, final_rows, final_crit, worst_gap, n_evals): genes in elimination order (within a stage by
    increasing criterion, ties by lower index), the survivors (ascending) with their last criterion, the largest SMO
    gap, and the number of exact gene evaluations (t products x_g . c_j each).

    Each SVM carries its Gram block, multipliers, gradient and the Cholesky factor of its free block across steps;
    all are downdated with the removed genes and recomputed exactly whenever the survivors halve, so rounding does
    not accumulate. Full steps (the first, chunks, the last, every step below ``_LAZY_GENES`` survivors or with
    ``lazy=False``) compute every weight by one BLAS product and N_r from them. The other one-gene steps take
    N_r = sum_m c_rm^T K_rm c_rm from the Gram blocks and find the argmin lazily (module docstring): a gene is
    looked at only if :func:`_lower_bound`, at the radius its normalised weights can have moved since its last
    evaluation, could reach the smallest exact criterion found so far; then in single precision, and exactly if
    that still could.
    """
    d, n = Xt.shape
    M = Y.shape[0]
    t_res = masks.shape[0]
    t = t_res * M  # SVMs
    n_stages = n_remove.shape[0]
    n_elim = 0
    for s in range(n_stages):
        n_elim += n_remove[s]
    Xc = Xt.copy()
    rows = np.arange(d)
    slot_of = np.arange(d)
    n_rem = d
    last_refresh = d
    sizes = np.zeros(t, dtype=np.int64)
    idx = np.zeros((t, n), dtype=np.int64)
    ys_all = np.zeros((t, n))
    for j in range(t):
        r = j // M
        mm = j - r * M
        u = 0
        for i in range(n):
            if masks[r, i]:
                idx[j, u] = i
                ys_all[j, u] = Y[mm, i]
                u += 1
        sizes[j] = u
    alphas = np.zeros((t, n))
    grads = np.empty((t, n))
    Kbuf = np.empty((t, n * n))  # SVM j's Gram block: Kbuf[j, :m*m] as an m x m matrix
    chol = np.zeros((t, n, n))
    F = np.zeros((t, n), dtype=np.int64)
    m_fac = -np.ones(t, dtype=np.int64)
    v = np.empty(n)
    coef = np.zeros((t, n))  # alpha_i y_i of SVM j in row j, full sample indexing
    prev = np.zeros((t, n))  # the same divided by sqrt(N_r), at the previous step
    Nr = np.zeros(t_res)  # Eq. 5.2's normaliser of each resampling
    ring = np.zeros((_RING, t, n))  # the normalised coefficients of the last _RING steps (step s in s % _RING)
    dist = np.full(_RING, np.inf)  # their distance to the current ones (largest over r of the Frobenius norms)
    ringm = np.zeros((_RING, t, n))  # the same in the metric of _metric, L^T c
    distm = np.full(_RING, np.inf)
    Lm = np.zeros((n, n))
    cur_m = np.zeros((t, n))  # L^T of the current normalised coefficients
    prev_m = np.zeros((t, n))
    driftm = 0.0
    epoch = np.int64(0)  # typed: a bare 0 would compile _summarise once more (tests/test_jit_signatures.py)
    epoch_start = 0  # first step measured in the current metric
    tr_m = 0.0
    eliminated = np.empty(n_elim, dtype=np.int64)
    st = np.zeros((d, 12))
    for u in range(d):
        acc = 0.0
        for i in range(n):
            acc += Xc[u, i] * Xc[u, i]
        st[u, _XNORM] = np.sqrt(acc)
    w = np.empty(t + t_res)
    # single-precision copies for screening (only where single precision holds the data with its relative rounding)
    xabs = 0.0
    for u in range(d):
        for i in range(n):
            if abs(Xc[u, i]) > xabs:
                xabs = abs(Xc[u, i])
    use32 = lazy and xabs < 1e30
    X32 = Xc.astype(np.float32) if use32 else np.zeros((d, 0), dtype=np.float32)
    c32 = np.zeros((t, n), dtype=np.float32)
    ones = np.ones(t_res)  # the screening's weights are normalised already
    n_screens = 0
    q3 = np.sqrt(t_res / (t_res - 1.0))
    drift = 0.0
    cmax = 0.0
    hint = -1  # gene evaluated first in a lazy step: the runner-up of the step before
    n_evals = 0
    trace = np.zeros((n_stages + 1, 3))
    pos = 0
    worst = 0.0
    final_crit = np.zeros(0)
    Kfull = _exact_blocks(Xc, n_rem, sizes, idx, ys_all, alphas, Kbuf, grads, m_fac)
    has_m = lazy and _metric(Kfull, Xc, n_rem, st, Lm)
    if has_m:
        for i in range(n):
            for p in range(i + 1):
                tr_m += Lm[i, p] * Lm[i, p]
    for s in range(n_stages + 1):
        for j in range(t):
            m = sizes[j]
            sub = Kbuf[j, : m * m].reshape((m, m))
            a = alphas[j, :m]
            G = grads[j, :m]
            it, gap, mf = newton_smo(sub, ys_all[j, :m], C, a, G, tol, max_iter, F[j], chol[j], m_fac[j],
                                     max(10, m // 4))
            m_fac[j] = mf
            if gap > worst:
                worst = gap
            for p in range(m):
                coef[j, idx[j, p]] = a[p] * ys_all[j, p]
        k = n_remove[s] if s < n_stages else 0
        full = s == n_stages or k > 1 or s == 0 or not lazy or n_rem < _LAZY_GENES
        if full:  # every weight: one BLAS product, and Eq. 5.2's normaliser N_r = sum_m ||w_rm||^2 from them
            W = np.dot(Xc[:n_rem], np.ascontiguousarray(coef.T))  # n_rem x t weights
            for r in range(t_res):
                nrm = 0.0
                for mm in range(M):
                    j = r * M + mm
                    for u in range(n_rem):
                        nrm += W[u, j] * W[u, j]
                Nr[r] = nrm
        else:  # N_r = sum_m c_rm^T K_rm c_rm from the Gram blocks, so no step needs every weight
            for r in range(t_res):
                nrm = 0.0
                for mm in range(M):
                    j = r * M + mm
                    m = sizes[j]
                    K = Kbuf[j, : m * m].reshape((m, m))
                    for p in range(m):
                        cp = alphas[j, p] * ys_all[j, p]
                        if cp != 0.0:
                            acc = 0.0
                            for q in range(m):
                                acc += K[p, q] * (alphas[j, q] * ys_all[j, q])
                            nrm += cp * acc
                Nr[r] = nrm
        track = lazy and n_rem - k >= _LAZY_GENES  # a lazy step may follow: keep the drifts
        slack = 0.0
        slack_m = 0.0
        screen = False
        gam32 = 0.0
        if track:
            # drift of the normalised coefficients C_r / sqrt(N_r) since the previous step (largest over r)
            step_len = 0.0
            for r in range(t_res):
                sc = 1.0 / np.sqrt(Nr[r]) if Nr[r] > 0.0 else 0.0
                acc = 0.0
                cn = 0.0
                for mm in range(M):
                    j = r * M + mm
                    for i in range(n):
                        z = coef[j, i] * sc
                        acc += (z - prev[j, i]) ** 2
                        cn += z * z
                        prev[j, i] = z
                if acc > step_len:
                    step_len = acc
                if cn > cmax:
                    cmax = cn
            drift += np.sqrt(step_len)
            # exact distances to the coefficients of the last _RING steps: tighter than the summed drift (the path of
            # the coefficients is not straight)
            for q in range(1, _RING):
                if s - q >= 0:
                    dist[(s - q) % _RING] = np.sqrt(_largest_block_sq_dist(prev, ring[(s - q) % _RING], t_res, M))
            ring[s % _RING] = prev
            dist[s % _RING] = 0.0
            slack_m = 0.0
            if has_m:  # the same distances in the metric M (see _metric)
                for j in range(t):
                    _to_metric(Lm, prev[j], cur_m[j])
                driftm += np.sqrt(_largest_block_sq_dist(cur_m, prev_m, t_res, M))
                prev_m[:] = cur_m
                for q in range(1, _RING):
                    if s - q >= 0:
                        distm[(s - q) % _RING] = np.sqrt(_largest_block_sq_dist(cur_m, ringm[(s - q) % _RING], t_res,
                                                                                M))
                ringm[s % _RING] = cur_m
                distm[s % _RING] = 0.0
                # rounding of two products L^T c: (n + 2) eps |L|_F |c| each
                slack_m = 4.0 * (n + 4) * 2.220446049250313e-16 * np.sqrt(tr_m) * np.sqrt(cmax)
            trace[s, 0] = np.sqrt(step_len)
            trace[s, 1] = np.sqrt(cmax)
            # rounding of the products x . c_j (at most n eps |x| |c| each), as a radius per unit |x|
            slack = 4.0 * (n + 4) * 2.220446049250313e-16 * np.sqrt(cmax)
            # single precision: |a - a32| <= (n + 4) 2^-24 |x| |C_r|_F (conversions and products; any summation order),
            # plus the subnormal spacing of each term
            screen = use32 and np.sqrt(cmax) < 1e30
            if screen:
                for j in range(t):
                    for i in range(n):
                        c32[j, i] = prev[j, i]
            gam32 = (n + 4) * 2.0**-24 * 1.01 * np.sqrt(cmax)
        if full:
            if track:  # with the summaries a lazy step will bound from
                for u in range(n_rem):
                    for j in range(t):
                        w[j] = W[u, j]
                    _summarise(w, t, Nr, M, st, u, s, drift, 0.0, driftm, epoch)
            else:
                _criteria(W, n_rem, Nr, M, st)
            n_evals += n_rem
        if s == n_stages:
            order = np.argsort(rows[:n_rem])
            final_crit = st[:n_rem, _CRIT][order].copy()
            rows[:n_rem] = rows[:n_rem][order]
            break
        # when the survivors will have halved after this step, the blocks, gradients and factors are recomputed
        # exactly from the survivors below, so the removed genes are only compacted out (the downdates would be
        # overwritten: same numbers, and a chunk of half the genes costs n^2 per survivor instead of t n^2 per gene)
        refresh = 2 * (n_rem - k) <= last_refresh
        if k == 1:
            best = np.inf
            best_g = -1
            if hint >= 0 and not full:
                h = slot_of[hint]
                if st[h, _STEP] != s or st[h, _R0] != 0.0:
                    _eval_slot(Xc, h, coef, Nr, M, st, s, drift, w, 0.0, driftm, epoch)
                    n_evals += 1
                best = st[h, _CRIT]
                best_g = hint
            second = np.inf
            second_g = -1
            best_u = np.int64(-1)  # typed: a bare -1 would compile _drop_slot once more
            for u in range(n_rem):
                e = st[u, _STEP]
                if not full and (e != s or st[u, _R0] != 0.0):
                    bm = best * (1.0 + 1e-10)
                    if e != s:
                        inring = s - e < _RING
                        far = dist[int(e) % _RING] if inring else drift - st[u, _DRIFT]
                        rho = st[u, _XNORM] * far * (1.0 + 1e-9)
                        if has_m:
                            if inring and s - e <= s - epoch_start:
                                farm = distm[int(e) % _RING]
                            elif st[u, _EPOCH] == epoch:
                                farm = driftm - st[u, _DRIFTM]
                            else:
                                farm = np.inf
                            rhom = st[u, _LEV] * (farm * (1.0 + 1e-9) + slack_m)
                            if rhom < rho:
                                rho = rhom
                        rho += st[u, _XNORM] * slack + st[u, _R0]
                        num, den = _lower_bound(st, u, rho, q3)
                        if num > bm * den:
                            continue
                        if screen:  # single precision first: half the memory traffic of the exact products
                            r0 = st[u, _XNORM] * gam32 + np.sqrt(M) * n * 2.0**-140 * (1.0 + np.sqrt(cmax) + xabs)
                            _eval_slot(X32, u, c32, ones, M, st, s, drift, w, r0, driftm, epoch)
                            n_screens += 1
                            num, den = _lower_bound(st, u, r0 + st[u, _XNORM] * slack, q3)
                            if num > bm * den:
                                continue
                    _eval_slot(Xc, u, coef, Nr, M, st, s, drift, w, 0.0, driftm, epoch)
                    n_evals += 1
                val = st[u, _CRIT]
                g = rows[u]
                if val < best or (val == best and g <= best_g):
                    if g != best_g:
                        second = best
                        second_g = best_g
                    best = val
                    best_g = g
                    best_u = u
                elif g != best_g and (val < second or (val == second and g < second_g)):
                    second = val
                    second_g = g
            hint = second_g
            trace[s, 2] = best
            eliminated[pos] = best_g
            pos += 1
            if not refresh:
                _downdate_gene(Xc[best_u], Kbuf, sizes, idx, alphas, grads, ys_all, chol, F, m_fac, v)
            n_rem = _drop_slot(Xc, X32, rows, slot_of, st, best_u, n_rem)
        else:
            by_gene = np.argsort(rows[:n_rem])
            order = by_gene[np.argsort(st[:n_rem, _CRIT][by_gene], kind="mergesort")]
            for q in range(k):
                eliminated[pos] = rows[order[q]]
                pos += 1
            hint = rows[order[k]] if k < n_rem else -1
            for u in np.sort(order[:k])[::-1]:  # descending slots: the row moved in is never one still to remove
                if not refresh:
                    _downdate_gene(Xc[u], Kbuf, sizes, idx, alphas, grads, ys_all, chol, F, m_fac, v)
                n_rem = _drop_slot(Xc, X32, rows, slot_of, st, u, n_rem)
        if refresh:  # exact Gram blocks, gradients and factors again
            last_refresh = n_rem
            Kfull = _exact_blocks(Xc, n_rem, sizes, idx, ys_all, alphas, Kbuf, grads, m_fac)
            if has_m:  # a new metric from the survivors: the distances of the old one no longer apply
                has_m = _metric(Kfull, Xc, n_rem, st, Lm)
                epoch += 1
                epoch_start = s + 1
                tr_m = 0.0
                for i in range(n):
                    for p in range(i + 1):
                        tr_m += Lm[i, p] * Lm[i, p]
                for j in range(t):
                    _to_metric(Lm, prev[j], prev_m[j])
    return eliminated, rows[:n_rem].copy(), final_crit, worst, n_evals, trace, n_screens


def _msvm_path(Xt, y, masks, C, tol, max_iter, n_remove, lazy=True, n_evals=False):
    """Run MSVM-RFE (:func:`_msvm_kernel`, the numba loop): ``y`` the binary labels (n,) in {-1, +1}, or (M, n) label
    rows of M machines per resampling (the one-vs-rest problems of K classes). Returns the kernel's
    (eliminated, final_rows, final_crit, worst_gap), and its number of gene evaluations if ``n_evals``."""
    y = np.asarray(y, dtype=np.float64)
    Y = np.ascontiguousarray(y[None, :] if y.ndim == 1 else y)
    n_remove = np.asarray(n_remove, dtype=np.int64)
    # the lazy argmin's bookkeeping only where a one-gene step meets at least _LAZY_GENES survivors (not for
    # step="auto", whose one-gene steps start at 256)
    before = Xt.shape[0] - np.concatenate([[0], np.cumsum(n_remove)[:-1]])
    lazy = bool(lazy) and bool(np.any((n_remove == 1) & (before >= _LAZY_GENES)))
    out = _msvm_kernel(Xt, Y, masks, C, tol, max_iter, n_remove, lazy)
    return out if n_evals else out[:4]


#: Where ``step="auto"`` stops removing chunks and ``max_forward_genes="auto"`` stops scoring prefixes: 2^8 genes, the
#: size at which GP-ARD-RFE ends its chunked elimination and runs its forward selection (Tan 2006, §5.4: "empirically,
#: p = 8 is a good choice").
AUTO_GENES = 256

#: A linear SVM's decision values f_i + rho = sum_j a_j y_j <x_i, x_j> (0 <= a_j <= C) vary by at most
#: 2 C n max_i <x_i, x_i>; below this they are rounding noise next to the unit margin (genesel.svm refuses such fits)
_NEGLIGIBLE_SPREAD = 1e-12

#: Centre the samples when their largest squared norm exceeds this many times the largest centred one (an offset of
#: about 1000 times the spread: six of the sixteen digits of the Gram entries would go to the offset)
_CENTRE_RATIO = 2.0**20


def auto_schedule(n_features):
    """Genes removed per step by ``step="auto"``: Guyon's chunks while more than :data:`AUTO_GENES` genes survive
    (first down to the largest power of two below ``n_features``, then halving: Guyon et al. 2002 as given in Tan
    2006 §5.4, who also eliminates "chunks of features at a time" in GP-ARD-RFE), then one gene per step (Figure
    5.1) for the last ``AUTO_GENES``. Removing one gene per step on 55,000 genes costs O(d^2 n t) (hours); the chunks
    leave the fine, one-at-a-time ranking where the biomarker set is chosen.

    >>> auto_schedule(600).tolist()[:3], auto_schedule(600).size
    ([88, 256, 1], 257)
    """
    d = int(n_features)
    keep = min(d, AUTO_GENES)
    chunks = elimination_schedule(d, keep, "halving") if d > keep else np.zeros(0, dtype=np.int64)
    return np.concatenate([chunks, np.ones(keep - 1, dtype=np.int64)]).astype(np.int64)


def linear_svm_units(who, C, X):
    """The data-relative units of a linear SVM with box ``C`` in the units of X (see :mod:`genesel.svm`):
    ``(Xs, C_s, e, kmax)`` with ``Xs = 2^e X`` (exact; e = 0 on data of ordinary scale), ``C_s = C / 4^e`` (the same
    SVMs) and ``kmax`` the largest squared norm of a centred sample of Xs (the scale of the decision values: an SVM
    with bias does not depend on where the data sit).

    Offsets. The SVM with bias is translation invariant (its dual objective does not change when every sample moves
    by the same vector, because sum_i a_i y_i = 0), but its Gram matrix is not: for genes whose common offset is
    10^k times their spread the class information sits 2k digits below the Gram entries and drowns in rounding.
    When the largest squared sample norm exceeds ``_CENTRE_RATIO`` times the largest centred one, ``Xs`` is centred
    (the training mean subtracted: the same SVMs, computed without that cancellation); data with smaller offsets,
    such as raw intensities, are used as given, bit for bit.

    Raises ``ValueError`` naming C and the remedy when C is negligible at the scale of X: when ``C_s`` underflows,
    or when 2 C_s n kmax <= 1e-12, the bound on how much any such SVM's decision values can vary across the samples
    (they would be rounding noise next to the unit margin, the case :class:`genesel.svm.LinearSVM` refuses). A C
    that overflows in these units (C * max k(x, x) beyond the double range) is infinite: the hard margin.
    """
    e = unit_row_exponent(X)
    Xs = scale_pow2(X, e)
    Xc = Xs - Xs.mean(axis=0) if Xs.size else Xs
    kmax = float(np.max(np.einsum("ij,ij->i", Xc, Xc))) if Xs.size else 0.0
    kraw = float(np.max(np.einsum("ij,ij->i", Xs, Xs))) if Xs.size else 0.0
    if kraw > _CENTRE_RATIO * kmax:
        Xs = Xc
    del Xc
    C_s = float(in_x_units(float(C), -2 * e))
    K = np.array([[kmax]])
    if not C_s > 0:
        raise ValueError(negligible_C_message(who, C, K, 2 * e))
    if 2.0 * C_s * Xs.shape[0] * kmax <= _NEGLIGIBLE_SPREAD:
        raise ValueError(
            f"{who}: C={C:g} is negligible at the scale of X: C * max k(x, x) = {log_scale_str(C, K, 2 * e)} (samples "
            f"centred), so the decision values of its SVMs cannot vary across the {Xs.shape[0]} samples by more than "
            f"{2.0 * C_s * Xs.shape[0] * kmax:.2g} and would be rounding noise next to the unit margin; raise C or "
            "standardise the genes (genesel.preprocessing.GeneStandardizer)")
    return Xs, C_s, e, kmax


def _hard_margin_cause(C, C_s, kmax, e, where="the training data of some elimination step",
                       consequence="the ranking of the last genes rests on unfinished solves"):
    """The cause of an SMO solve that stopped at max_iter when C is effectively infinite at the scale of X (C * max
    k(x, x) above 1e12, centred samples), with the remedy; "" otherwise."""
    if not C_s * kmax > 1e12:
        return ""
    what = ("C=inf: the SVMs are hard-margin" if np.isinf(C) else
            f"C={C:g} is effectively infinite at the scale of X (C * max k(x, x) = "
            f"{log_scale_str(C, np.array([[kmax]]), 2 * e)}): the SVMs are hard-margin")
    return (f". {what} and {where} are not linearly separable, so {consequence}; lower C (C * max k(x, x) near 1 "
            "to 1000) or standardise the genes (genesel.preprocessing.GeneStandardizer)")


def svm_forward_path(who, C, units, y, order, *, max_genes=None, tol=1e-6, groups=None):
    """:func:`genesel.forward.forward_path` with the linear SVM in data-relative units (``units``: the return value of
    :func:`linear_svm_units`). Where C is effectively infinite at the scale of X, a ``ConvergenceWarning`` of the
    forward selection names that cause and the remedy (its own "raise max_iter" is not a parameter of ``who``)."""
    Xs, C_s, e, kmax = units
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        path = forward_path(Xs, y, order, max_genes=max_genes, C=C_s, tol=tol,
                            **({} if groups is None else {"groups": groups}))
    cause = _hard_margin_cause(C, C_s, kmax, e, where="some prefixes of the ranking",
                               consequence="their leave-one-out decisions rest on unfinished solves")
    for w in caught:
        msg = str(w.message)
        if cause and issubclass(w.category, ConvergenceWarning):  # no max_iter helps a hard margin that cannot separate
            msg = f"{who} (forward selection): some SMO solves stopped unfinished{cause}"
        warnings.warn_explicit(msg, w.category, w.filename, w.lineno)
    return path


class MSVMRFE(SelectorBase):
    """MSVM-RFE gene ranking (Duan et al. 2005; Tan 2006 Figure 5.1) with a forward-selected biomarker set; any number
    of classes.

    More than two classes (K > 2). Figure 5.1 stays as it is over the resamplings, and each resampling's linear SVM
    becomes the one-vs-rest SVM of :mod:`genesel.svm` (K machines on the same training part, machine k separating
    class k from the rest): step (b)-(c) take v_ri = sum_k w_rki^2 / sum_k ||w_rk||^2, the multi-class SVM-RFE
    criterion of resampling r (:class:`genesel.rfe.SVMRFE`: the change of the summed cost sum_k ||w_k||^2 / 2 when
    gene i goes) normalised to sum 1 over the genes, as Eq. 5.2 normalises the binary w_r^2; and c_i = mean_r / sd_r
    of v_ri as in Eq. 5.3. So the ranking still rewards genes whose weight is large *and stable* over the
    resamplings (Duan et al.'s point), now summed over the classes. The folds are stratified by class (every class in
    every training part; ``n_folds="auto"`` is bounded by the smallest class), and the biomarker set is chosen by the
    leave-one-out accuracy of the one-vs-rest linear SVM (:func:`genesel.forward.forward_path`). Why one-vs-rest
    rather than a joint multi-class SVM: see :mod:`genesel.rfe` (the same reasons). Cost: K times the SVMs of the
    binary procedure (t K per step), and K forward paths. Two classes: the binary procedure, bit for bit as before.

    Grouped samples (``fit(X, y, groups=...)``, one label per sample: a patient whose tumour and normal tissue are
    both in the data, the replicates of a cell line). The t SVMs then leave out whole groups (folds of groups,
    :mod:`genesel._core.resampling`; ``n_folds`` is bounded by the number of groups of the smallest class) and the
    forward selection leaves one group out instead of one sample (:func:`genesel.forward.forward_path`), so no SVM
    is scored on, or ranks genes by, a sample whose partner it was trained on. Without groups: as before, bit for bit.

    Parameters
    ----------
    n_folds : int or "auto", default "auto"
        The t SVMs of each step leave out one of ``n_folds`` stratified folds of the training data. ``"auto"``: 10
        (the thesis' choice), or the size of the smallest class when that is smaller, so the default works on small
        data (the number used is ``n_folds_``); an explicit number larger than the smallest class raises.
    n_repeats : int, default 1
        Repeats of the fold split with new seeded folds (t = n_folds x n_repeats).
    step : "auto", int, float in (0, 1) or "halving", default "auto"
        Genes removed per step; an int, a fraction or ``"halving"`` as in :class:`genesel.rfe.SVMRFE`. ``"auto"``:
        Guyon's chunks while more than 256 genes survive (first down to the largest power of two below the number
        of genes, then halving), then one gene per step as in Figure 5.1 (see :func:`auto_schedule`); on up to 256
        genes that is ``step=1``. ``step=1`` is Figure 5.1 throughout, at O(d^2 n t) for d genes: hours on 55,000.
    C : float, default 1.0
        Box constraint of the linear SVMs (and of the forward-selection SVM), in the units of X as
        :class:`genesel.svm.LinearSVM`'s (scaling X by a acts like scaling C by a^2). The SVMs are computed in
        data-relative units (X times a power of two, exact), so data near 1e-300 or 1e200 neither under- nor
        overflow; a C negligible at the scale of X raises ``ValueError``, and one effectively infinite (e.g. C = 1
        on data near 1e200) gives the hard-margin MSVM-RFE, whose SMO solves stop at ``max_iter`` with a warning
        naming the cause where the data of an elimination step are not separable.
    n_features_to_select : int, float in (0, 1) or None, default None
        None: ``support_`` is the biomarker set (smallest prefix of the ranking with the best training LOO accuracy
        of a linear SVM); an int: the top genes.
    max_forward_genes : "auto", int or None, default "auto"
        Longest prefix scored by the forward selection. ``"auto"``: the top 256 genes (all of them on up to 256),
        the genes ``step="auto"`` ranks one at a time and as many as GP-ARD-RFE's forward selection scores
        (thesis §5.4, p = 8); None: every gene (a LOO forward selection over 55,000 prefixes takes about 8 minutes).
    tol, max_iter : SMO stopping tolerance and iteration cap.
    random_state : int, RandomState or None
        Seeds the folds.

    Attributes
    ----------
    feature_order_ : all genes, best first.  ranking_ : 1 = best, all distinct.
    support_ : the biomarker set (or the top ``n_features_to_select``).  n_features_ : its size.
    forward_path_ : :class:`genesel.forward.ForwardPath` of the LOO forward selection (None with a fixed size).
    train_masks_ : (t, n_samples) training mask of each SVM.
    n_iter_ : number of elimination steps + 1 (rounds of t SVM fits).

    Examples
    --------
    >>> import numpy as np
    >>> from genesel import MSVMRFE
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 100)), np.repeat([-1, 1], 20)   # 40 samples x 100 genes
    >>> X[:, :4] += np.outer(y, [1.0, 1.0, -1.0, -1.0])             # genes 0-1 up, 2-3 down in class +1
    >>> msvm = MSVMRFE(n_folds=5, random_state=0).fit(X, y)       # 5 SVMs per step, each leaving out a fold
    >>> msvm.feature_order_[:6].tolist(), msvm.train_masks_.shape   # the ranking, best first
    ([0, 20, 1, 77, 74, 82], (5, 40))
    >>> np.flatnonzero(msvm.support_).tolist()      # the biomarker set: shortest prefix with the best LOO accuracy
    [0, 1, 20, 74, 77, 82]
    >>> msvm.forward_path_.summary()["accuracy"]                    # that LOO accuracy, in %
    100.0
    """

    _parameter_constraints = {
        "n_folds": [StrOptions({"auto"}), integer(2, None, "left")], "n_repeats": [POSITIVE_INT],
        "step": [*STEP[:2], StrOptions({"halving", "auto"})], "C": [POSITIVE_OR_INF],
        "n_features_to_select": N_FEATURES, "max_forward_genes": [StrOptions({"auto"}), POSITIVE_INT, None],
        "tol": [POSITIVE], "max_iter": [POSITIVE_INT, None], "random_state": ["random_state"],
    }
    _multi_class = True  # K > 2 classes: one-vs-rest machines per resampling (class docstring)

    def __init__(self, *, n_folds="auto", n_repeats=1, step="auto", C=1.0, n_features_to_select=None,
                 max_forward_genes="auto", tol=1e-6, max_iter=None, random_state=None):
        self.n_folds = n_folds
        self.n_repeats = n_repeats
        self.step = step
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.max_forward_genes = max_forward_genes
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Rank the genes and choose the biomarker set; ``groups`` (one label per sample, e.g. a patient): every
        resampling and the leave-one-out of the forward selection keep a group together (class docstring)."""
        # y_enc: {-1, +1} for two classes, the class index 0..K-1 for K > 2
        X, y_enc, self.classes_ = check_classifier_fit(self, X, y, min_samples=4)
        multi = self.classes_.size > 2
        n, d = X.shape
        groups = check_groups("MSVMRFE", groups, n)
        self.n_folds_ = resolve_folds("MSVMRFE", self.n_folds, y_enc, extra="; some SVMs would see all of it",
                                      groups=groups)
        # data-relative units (exact): X' = 2^e X, C' = C / 4^e, the same SVMs (see genesel.svm)
        Xs, C_s, e, kmax = linear_svm_units("MSVMRFE", self.C, X)
        rng = check_random_state(self.random_state)
        masks = resampling_masks(y_enc, self.n_folds_, self.n_repeats, rng, groups)  # stratified by class
        schedule = auto_schedule(d) if self.step == "auto" else elimination_schedule(d, 1, self.step)
        max_iter = self.max_iter if self.max_iter is not None else max(10_000_000, 100 * n)
        Xt = np.ascontiguousarray(Xs.T)
        # binary: one SVM per resampling; K > 2 classes: the K one-vs-rest machines per resampling (class docstring)
        yf = ovr_signs(y_enc, self.classes_.size) if multi else y_enc.astype(np.float64)
        with blas_threads_for(n):  # one small product per step: OpenBLAS threads only add overhead (see Threads)
            eliminated, final_rows, final_crit, worst = _msvm_path(Xt, yf, masks, C_s, float(self.tol),
                                                                   int(max_iter), schedule)
        del Xt
        if worst >= self.tol:
            # with C effectively infinite (hard margin) on data that are not separable, no max_iter converges: the
            # message names that cause and its remedy instead of "raise max_iter"
            cause = _hard_margin_cause(self.C, C_s, kmax, e)
            what = (f"MSVMRFE: in an SMO solve {UNBOUNDED_DUAL}" if np.isinf(worst) else
                    f"MSVMRFE: an SMO solve stopped at max_iter (KKT gap {worst:.3g} > tol={self.tol})")
            warnings.warn(what + (cause if cause else "; raise max_iter or lower C"), ConvergenceWarning, stacklevel=2)
        surv = final_rows[np.argsort(-final_crit, kind="stable")]
        self.feature_order_ = np.concatenate([surv, eliminated[::-1]]).astype(np.int64)
        self.ranking_ = np.empty(d, dtype=np.int64)
        self.ranking_[self.feature_order_] = np.arange(1, d + 1)
        self.train_masks_ = masks
        self.n_iter_ = int(schedule.size + 1)
        k = self._n_select(d, None)
        if k is None:  # the biomarker set: forward selection with leave-one-out
            if self.max_forward_genes == "auto":
                kmax_fwd = min(AUTO_GENES, d)
            else:
                kmax_fwd = self.max_forward_genes and min(self.max_forward_genes, d)
            self.forward_path_ = svm_forward_path("MSVMRFE", self.C, (Xs, C_s, e, kmax), y_enc, self.feature_order_,
                                                  max_genes=kmax_fwd, tol=self.tol, groups=groups)
            k = self.forward_path_.biomarker_size("loo")
        else:
            self.forward_path_ = None
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[self.feature_order_[:k]] = True
        self.n_features_ = k
        return self
