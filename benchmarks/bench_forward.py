"""Benchmark: the leave-one-out forward selection (:func:`genesel.forward.forward_path`), today's code against
``--base``, in the same run.

The forward selection scores every prefix of a ranking by the leave-one-out errors of a linear SVM (Tan 2006, §4.2;
steps (3.1.3)-(3.1.5) of Figure 5.3, step 3 of Figure 5.7). It is most of what SVM-RFE's biomarker set by LOO costs
in the thesis' chapters 4 and 5 (and in their tests), and most of a GP-ARD-FS fit on a multi-class set (on Su, 84 of
87 s: the selector runs it in every fold for every one-vs-rest machine). Every prefix refits the SVM without each
support vector, warm-started from that fit at the previous prefix. The code before recomputed each such fit's dual
gradient twice per prefix (O(n^2) each, before and after the Newton step); today's carries it from prefix to prefix
(the added gene's rank-one term, O(n); an exact recomputation every 32 prefixes).

Cases, each run by :mod:`genesel.forward` of ``--base`` (read with ``git show``) and by today's, alternating, best
of ``--repeats``:

* Colon (62 x 2,000, the thesis' standardisation over all samples, Tan 2006 chapters 4-5): the training parts of
  the first ``--folds`` of a stratified 10-fold split (seed 0); the SVM-RFE ranking (one gene per step, C = 1) and
  the LOO path over all 2,000 prefixes, as ``tests/papers/test_tan2006_differences.py`` runs it;
* Su (the multi-class board's set, 4 classes): the board's first outer training part (its preprocessing), the
  genes ranked by the F statistic, the LOO path over the first ``--su-genes`` prefixes (four one-vs-rest machines).

Printed per case: CPU and wall seconds of both, the ratio, the prefixes whose LOO error counts differ, the largest
difference of a LOO decision value and the biomarker sizes (smallest prefix with the fewest LOO errors). The solves
stop at the same tolerance (1e-6), so decisions may differ within it; an error count can move only where a decision
sits within that tolerance of 0.

Measured 2026-12-02 against f724456 (idle 2-core machine, best of 2): Colon's three training parts 3.49 -> 2.61,
2.27 -> 1.92 and 2.97 -> 2.03 s CPU (1.18-1.46x), the same LOO errors at all 2,000 prefixes, decisions within 5e-3;
Su 11.0 -> 8.2 s (1.35x), one prefix of 2,000 with another LOO error count, the same biomarker size; all cases
18.3 -> 14.0 s (1.30x). A whole ``GPARDFS(n_folds=5, n_restarts=0)`` fit on Su's outer training part (81 x 5,563,
4 classes; one thread; not part of this script) 84.0 -> 62.7 s CPU, the same 8 genes. What remains of a refit
(profiled on Su's calls): SMO about 45 %, the Newton step about 25 %, copying the 63 x 63 block about 15 %.

``python benchmarks/bench_forward.py [--base REV] [--folds 3] [--su-genes 2000] [--repeats 2]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _common import add_data_arguments, best_of, load_previous, record, record_total, recorded, use_mirror  # noqa: E402


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
    record(label, genesel=f"{c_new:.2f} s CPU ({w_new:.2f} s wall)",
           alternative=f"base: {c_old:.2f} s CPU ({w_old:.2f} s wall)", ratio=f"{c_old / c_new:.2f}x CPU",
           note=f"prefixes with other LOO errors {moved} of {p_new.sizes.size}; largest LOO decision difference "
                f"{dmax:.1e}; biomarker size {b_old} / {b_new}",
           base_cpu_s=c_old, now_cpu_s=c_new, base_wall_s=w_old, now_wall_s=w_new, ratio_cpu=c_old / c_new,
           prefixes_moved=moved)
    return c_old, c_new


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="f724456", help="the code to compare with (default: before the change)")
    ap.add_argument("--folds", type=int, default=3, help="Colon training parts (of a stratified 10-fold split)")
    ap.add_argument("--su-genes", type=int, default=2000, help="prefixes of Su's LOO path")
    ap.add_argument("--repeats", type=int, default=2)
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
    record_total(totals)


if __name__ == "__main__":
    main()
