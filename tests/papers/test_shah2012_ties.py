"""Why notebook 04's PAC-Bayes cells moved between genesel 0.1.0 and 0.2.0: exact ties, broken another way.

0.1.0's tables (notebook 04 run at 1bb4457) and 0.2.0's differ only in the PAC-Bayes columns (Tables 2, 3 and 5;
e.g. Table 3's fixed-margin errors on Lung 6 -> 8, the final C_MD classifier 2 -> 3 stumps). A bisection of the C_MD
final cell over the commits since 1bb4457 names fa782c5 (issue 25): the soft greedy compares its utilities on a grid
of 2^-32, so that candidates whose utilities are equal in exact arithmetic are a tie, broken by gene order, instead
of by rounding, which depends on the units of X. Recorded along every path of the C_MD final cell and of Lung's five
Table 3 cells, the old and the new choice differ where they differ (637 choices along the inner CV's paths) by at
most 4.2e-12 in utility (the grid is 2.3e-10), and notebook 04 run at 0.2.0 with the grid switched off gives 0.1.0's
tables.

The test: the first choice that changed on Lung's Table 3 cell (outer fold 2 of permutation 0, its first inner
training part, conjunction, p = 0.5, gamma = 0.01). 0.1.0 took gene 667 (x below [1.652, 1.80094]), 0.2.0 takes
another gene. Both are shown to be exact optima, in exact rational arithmetic from the definition of the soft cover
(Shah et al. 2012, §6.2; fractions, not the kernel): C/N - p E/|P| is at most 1, and both stumps reach 1. The
margin term of the fixed-margin heuristic is ln(1/(2 gamma)) for every candidate, so the two are tied; the tie
rule (the smaller gene) makes the new choice.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from genesel import stumps as ST


#: 0.1.0's first stump on that inner part (gene, direction, interval ends), from its recorded path
OLD_CHOICE = (667, 1, 1.652, 1.80094)


def _exact_soft_utility(X, pos, gene, d, a, b, p):
    """C/N - p E/|P| of a soft stump in exact arithmetic: each value's coverage is 1 below a, (b - x)/(b - a)
    inside, 0 above b (d = +1; d = -1 mirrored); C sums it over the negatives, E over the positives."""
    a, b, p = Fraction(a), Fraction(b), Fraction(p)
    cov_neg, cov_pos = Fraction(0), Fraction(0)
    for x, is_pos in zip(X[:, gene], pos):
        x = Fraction(float(x))
        c = min(max((b - x) / (b - a), Fraction(0)), Fraction(1))
        c = c if d == 1 else 1 - c
        if is_pos:
            cov_pos += c
        else:
            cov_neg += c
    n_neg = int(np.sum(~pos))
    n_pos = int(np.sum(pos))
    return cov_neg / n_neg - p * cov_pos / n_pos


def test_the_lung_table3_choice_that_moved_is_an_exact_tie():
    from genesel.papers import shah2012 as S

    X, y, _, _, _ = S._task("garber")
    _, _, inner = S._fold("garber", 0, 2, 0, S.GRIDS["full"]["inner_k"])
    a = inner[0][0]
    est = ST.PACBayesStumps(p=0.5, eta=0.01, max_stumps=1, model="conjunction", margin="fixed", gamma=0.01)
    est.fit(X[a], y[a])
    Xa, pos = est._prepare(X[a], y[a])
    (gene, (lo, hi), d), = est.stumps_
    new = _exact_soft_utility(Xa, pos, gene, d, lo, hi, 0.5)
    old = _exact_soft_utility(Xa, pos, OLD_CHOICE[0], OLD_CHOICE[1], *OLD_CHOICE[2:], 0.5)
    assert gene != OLD_CHOICE[0], "the choice no longer differs from 0.1.0's: update this test and its docstring"
    assert new == old == 1, f"not a tie in exact arithmetic: {float(new)!r} against 0.1.0's {float(old)!r}"
    assert gene < OLD_CHOICE[0]  # the tie rule: the smaller gene
    # the two float utilities differ by rounding only, far inside the grid of 2^-32
    assert abs(est.utilities_[0] - (1 - 0.01 * np.log(1 / 0.02))) < 2.0**-40
