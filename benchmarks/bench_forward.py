"""Benchmark: the leave-one-out forward selection (:func:`genesel.forward.forward_path`), today's code against
``--base``, in the same run.

The forward selection scores every prefix of a ranking by the leave-one-out errors of a linear SVM (Tan 2006, §4.2;
steps (3.1.3)-(3.1.5) of Figure 5.3, step 3 of Figure 5.7). It is most of what SVM-RFE's biomarker set by LOO costs
in the thesis' chapters 4 and 5 (and in their tests), and most of a GP-ARD-FS fit on a multi-class set (on Su, 84 of
87 s: the selector runs it in every fold for every one-vs-rest machine). Every prefix refits the SVM without each
support vector, warm-started from that fit at the previous prefix. The code before recomputed each such fit's dual
gradient twice per prefix (O(n^2) each, before and after the Newton step); today's carries it from prefix to prefix
(the added gene's rank-one term, O(n); an exact recomputation every 32 prefixes).

Cases, each run by :mod:`genesel.forward` of ``--base`` (read with ``git show``), then by today's, best of
``--repeats`` (the ``--cells`` case once):

* Colon (62 x 2,000, the thesis' standardisation over all samples, Tan 2006 chapters 4-5): the training parts of
  the first ``--folds`` of a stratified 10-fold split (seed 0); the SVM-RFE ranking (one gene per step, C = 1) and
  the LOO path over all 2,000 prefixes, as ``tests/papers/test_tan2006_differences.py`` runs it;
* Su (the multi-class board's set, 4 classes): the board's first outer training part (its preprocessing), the
  genes ranked by the F statistic, the LOO path over the first ``--su-genes`` prefixes (four one-vs-rest machines);
* with ``--cells``, the GP-ARD-FS selector of the leaderboard's "GP-ARD-FS + GP" cells (``GPARDFS(n_folds=5,
  n_restarts=0)``, the cell's seed; one BLAS thread) on the first outer training part of each set named (default
  Gordon and Su): its forward selections run over every gene that passes its prefilter, in every fold (and per
  one-vs-rest machine). The base code's kernel (``genesel.forward._svm_forward``) is put in place of today's for
  the base run; everything else is today's. Printed: CPU seconds and the selected genes of both.

Printed per case: CPU and wall seconds of both, the ratio, the prefixes whose LOO error counts differ, the largest
difference of a LOO decision value and the biomarker sizes (smallest prefix with the fewest LOO errors). The solves
stop at the same tolerance (1e-6), so decisions may differ within it; an error count can move only where a decision
sits within that tolerance of 0.

Measured 2026-12-02 against f724456 (2-core machine, nothing else running; best of 2). The recorded run (``--cells``):
Colon's three training parts 2.51 -> 2.73, 1.91 -> 1.53 and 2.18 -> 1.88 s CPU (0.92x, 1.24x, 1.16x), the same LOO
errors at all 2,000 prefixes, decisions within 5e-3; Su's path 8.8 -> 5.9 s (1.48x), one prefix of 2,000 with
another LOO error count, the same biomarker size; the GP-ARD-FS selectors on Gordon 22.6 -> 15.5 s (1.46x) and Su
75.5 -> 55.3 s (1.36x), the same genes; all cases 113.4 -> 82.9 s (1.37x). This machine's clock varies from run to
run: the base's first Colon path took 3.21-3.49 s in the two other runs of the day (1.34x and, best of 3, 1.43x;
the other two parts 1.18-1.46x). What remains of a refit (profiled on Su's calls): SMO about 45 %, the Newton step
about 25 %, copying the sub-problem's Gram block about 15 %.

``python benchmarks/bench_forward.py [--base REV] [--folds 3] [--su-genes 2000] [--repeats 2] [--cells [SET ...]]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, best_of, load_previous, record_change, record_total, recorded, use_mirror  # noqa: E402


def _compare(label, old_fwd, new_fwd, X, y, order, max_genes, repeats):
    runs = {}
    for name, mod in (("base", old_fwd), ("now", new_fwd)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod.forward_path(X, y, order[:3])  # compiled or loaded from numba's cache outside the clock
            runs[name] = best_of(lambda m=mod: m.forward_path(X, y, order, max_genes=max_genes), repeats)
    (p_old, w_old, c_old), (p_new, w_new, c_new) = runs["base"], runs["now"]
    moved = int(np.sum(p_old.loo_errors != p_new.loo_errors))
    dmax = float(np.max(np.abs(p_old.loo_decision - p_new.loo_decision)))
    b_old, b_new = p_old.biomarker_size("loo"), p_new.biomarker_size("loo")
    print(f"{label}: base {c_old:.2f} s CPU ({w_old:.2f} s wall) -> now {c_new:.2f} s CPU ({w_new:.2f} s wall), "
          f"{c_old / c_new:.2f}x CPU; prefixes with other LOO errors {moved} of {p_new.sizes.size}, largest LOO "
          f"decision difference {dmax:.1e}, biomarker size {b_old} / {b_new}")
    record_change(label, (c_old, w_old), (c_new, w_new),
                  note=f"prefixes with other LOO errors {moved} of {p_new.sizes.size}; largest LOO decision "
                       f"difference {dmax:.1e}; biomarker size {b_old} / {b_new}", prefixes_moved=moved)
    return c_old, c_new


def _gp_ard_fs(name, old_fwd, new_fwd):
    """The GP-ARD-FS selector of the board's cell on outer part 0 of ``name``, with the base kernel, then today's."""
    from threadpoolctl import threadpool_limits

    from bench_gp_ard_speed import outer_part
    from genesel import GPARDFS

    Xa, ya, _, _, seed = outer_part(name)
    k = min(5, int(np.unique(ya, return_counts=True)[1].min()))
    today = new_fwd._svm_forward
    out = {}
    try:
        for which, kernel in (("base", old_fwd._svm_forward), ("now", today)):
            new_fwd._svm_forward = kernel
            with threadpool_limits(1), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sel, wall, cpu = best_of(lambda: GPARDFS(n_folds=k, n_restarts=0, random_state=seed).fit(Xa, ya), 1)
            out[which] = (cpu, wall, np.flatnonzero(sel.support_).tolist())
    finally:
        new_fwd._svm_forward = today
    (c_old, w_old, g_old), (c_new, w_new, g_new) = out["base"], out["now"]
    label = (f"GPARDFS(n_folds={k}, n_restarts=0), {name} outer part 0 ({Xa.shape[0]} x {Xa.shape[1]}, "
             f"{np.unique(ya).size} classes)")
    genes = "the same genes" if g_old == g_new else f"genes {g_old} / {g_new}"
    print(f"{label}: base {c_old:.1f} s CPU ({w_old:.1f} s wall) -> now {c_new:.1f} s CPU ({w_new:.1f} s wall), "
          f"{c_old / c_new:.2f}x CPU; {genes} ({len(g_new)})")
    record_change(label, (c_old, w_old), (c_new, w_new), note=genes)
    return c_old, c_new


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="f724456", help="the code to compare with (default: before the change)")
    ap.add_argument("--folds", type=int, default=3, help="Colon training parts (of a stratified 10-fold split)")
    ap.add_argument("--su-genes", type=int, default=2000, help="prefixes of Su's LOO path")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--cells", nargs="*", default=None, help="GP-ARD-FS selectors on these sets (default gordon su)")
    add_data_arguments(ap)
    args = ap.parse_args(argv)
    use_mirror(args)
    from sklearn.feature_selection import f_classif
    from sklearn.model_selection import StratifiedKFold

    import genesel.forward as new_fwd
    from genesel.papers import tan2006_ch45 as T
    from genesel.rfe import SVMRFE

    old_fwd = load_previous(args.base, ("forward",), "_bench_forward_base", tempfile.mkdtemp()).forward
    totals = []
    ds = T.thesis_data("alon")
    A, y = T.standardise(ds.X), ds.y
    splits = StratifiedKFold(10, shuffle=True, random_state=0).split(A, y)
    for f, (tr, _) in zip(range(args.folds), splits):
        order = SVMRFE(n_features_to_select=1, step=1, C=1.0).fit(A[tr], y[tr]).feature_order_
        totals.append(_compare(f"Colon, training part {f} ({tr.size} x {A.shape[1]}), SVM-RFE order, LOO path "
                               f"over all {A.shape[1]} prefixes", old_fwd, new_fwd, A[tr], y[tr], order, None,
                               args.repeats))
    if args.su_genes:
        from bench_gp_ard_speed import outer_part

        Xa, ya, _, _, _ = outer_part("su")
        order = np.argsort(-np.nan_to_num(f_classif(Xa, ya)[0]), kind="stable")
        totals.append(_compare(f"Su, outer training part 0 ({Xa.shape[0]} x {Xa.shape[1]}, {np.unique(ya).size} "
                               f"classes), F-statistic order, LOO path over {args.su_genes} prefixes",
                               old_fwd, new_fwd, Xa, ya, order, args.su_genes, args.repeats))
    if args.cells is not None:
        totals.extend(_gp_ard_fs(name, old_fwd, new_fwd) for name in (args.cells or ["gordon", "su"]))
    record_total(totals)


if __name__ == "__main__":
    main()
