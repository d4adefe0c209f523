"""Shah, Marchand & Corbeil 2012 on Leukemia: why the paper's errors are near chance and genesel's are small.

The paper's Table 1-2 errors on Leukemia (of 72, nested 5-fold CV) are 14-28 for every learner, a linear SVM on all
7129 genes included (21.3), although these data are almost separable (genesel: 1.6-9.6; one gene, e.g. zyxin or
CD33, splits them with 3 errors). 25 is what predicting "ALL" for everyone costs.

The cause shown here: **labels paired by sample number with columns in file order.** Golub's public files list
their samples out of numeric order (the training file 1-27, 34-38, 28-33; the independent file 39, 40, 42, 47, 48,
49, 41, 43, ..., 62: grouped by class), while a list of the classes by sample number (ALL 1-27, AML 28-38, ALL
39-49, AML 50-54, ...) reads like the matching label vector. Giving the k-th column of the files the class of sample k
mislabels 14 of the 72 samples (7 ALL as AML, 7 AML as ALL) and keeps the class counts at 47 / 25, so the paper's
description of the data cannot reveal it. genesel's ``golub`` data set keeps each sample's own label (from the
``golub_train`` / ``golub_test`` objects, sample names and labels side by side).

Three pieces of evidence, each a test below:

1. The mistake, constructed from genesel's own copy of the data (its rows are the files' columns, in the files'
   order, with their sample numbers): 14 labels flip.
2. A fingerprint in the paper's Table 5. Its final PAC-Bayes classifier on Leukemia is a conjunction of three
   stumps on adipsin (M84526_at), LAF-4 (U34360_at) and HOXC1 (M16937_at). With the mistaken labels these three
   genes are a near-perfect conjunction (13 -> 5 -> 2 training errors of 72 for 1, 2, 3 stumps; LAF-4 is one of
   the 3 best second stumps after adipsin out of 7129 genes), and genesel's own final PAC-Bayes classifier
   (``final_cell``) picks adipsin first. With the correct labels LAF-4 and HOXC1 add nothing to adipsin (4 errors
   with 1, 2 or 3 stumps): no greedy conjunction learner would pick them there.
3. genesel's protocol cells of Tables 1-2 (``cv_cell``: the same functions notebook 04 runs, 2 permutations here
   instead of 20, seed 0) on the mistaken labels give 15-22 errors for SVM, SVM+gs, SVM+rfe, L0, Occam and SC
   (correct labels: 1-7). Over 6 permutations (a run outside this test) all eight learners, paper in brackets:
   SVM 14.0 (21.3), SVM+gs 16.2 (14), SVM+rfe 15.8 (21), AdaBoost 14.3 (17.8), L0 15.0 (25.0), Occam 23.3 (27.8),
   SC 24.5 (27.3), PAC-Bayes Bayes 20.0 (23.6). The paper's errors stay a few higher, but by no more than on
   correctly labelled Colon, where genesel is also 0-11 errors below the paper (full run). The test checks that, on
   average over the six methods, the Leukemia gap to the paper with the mistaken labels is no larger than the
   Colon gap (within the paper's smallest Leukemia sd), while with the correct labels it is 13 errors larger
   (2 permutations: gaps 5.2 mistaken, 18.7 correct, 5.7 Colon).

Other stacking mistakes, with the merged ``golub`` R object (the 34 independent samples first), fit the paper's
Table 5 worse (checked below: the three genes reach no better than 17 training errors of 72). Their cross-validated
errors (outside the test; 6 and 2 permutations): with the training-then-independent label list (14 other flips)
20-26, on average over the eight learners 23.2, closer to the paper's 22.2 than the by-sample-number pairing's
17.9; with labels by sample number (26 flips) 26-35, above the paper. So the error levels alone say "about 14 of
72 labels wrong"; Table 5 says which 14. Unnormalised intensities (hypothesis b) cannot be the cause: genesel's
stump learners already see the raw intensities and make 9-10 errors, against the paper's 24-28.

What stays unexplained: the residual offset, the same size as on Colon (the paper's own implementations and grids,
Weka's AdaBoost), and which file the authors read: the paper does not name its copy of the data, so the mistake is
inferred from its numbers and its Table 5, not documented. The paper's SVM+gs (14) is the one learner below what the
mistaken labels give here (16).

Each data set is written as a CSV file and run through the public path for a user's file
(:func:`genesel.expression_io.make_reference`), so the cells and their cache keys are untouched; the correct
pairing goes through the same path, so both use the same preprocessing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from genesel.datasets import load_dataset
from genesel.expression_io import make_reference
from genesel.papers import shah2012 as SH

# the paper's Table 5 genes for Leukemia (final PAC-Bayes classifier), in the printed order
TABLE5_LEUK = ("M84526_at", "U34360_at", "M16937_at")  # adipsin, LAF-4, HOXC1
CHEAP = ("SVM", "SVM+gs", "SVM+rfe", "L0", "Occam", "SC")
N_PERM = 2


def class_names(ds) -> np.ndarray:
    """Each sample's own class name ("ALL" / "AML")."""
    return np.asarray(ds.classes)[(np.asarray(ds.y) > 0).astype(int)]


def labels_by_sample_number(ds) -> np.ndarray:
    """The mistake: row k of the files (in their column order) gets the class of sample number k+1."""
    numbers = ds.sample_ids.astype(int)
    by_number = dict(zip(numbers, class_names(ds)))
    return np.array([by_number[k] for k in range(1, numbers.size + 1)])


@pytest.fixture(scope="module")
def leuk(mirror):
    ds = load_dataset("golub")
    return ds, labels_by_sample_number(ds)


@pytest.fixture(scope="module")
def leuk_files(leuk, tmp_path_factory):
    """References to two CSV files with genesel's Golub matrix: the correct labels and the mistaken ones."""
    ds, wrong = leuk
    d = tmp_path_factory.mktemp("golub_pairings")
    refs = {}
    for name, labels in (("correct", class_names(ds)), ("by_sample_number", wrong)):
        frame = pd.DataFrame(ds.X, index=[f"s{s}" for s in ds.sample_ids], columns=ds.gene_ids)
        frame.insert(0, "class", labels)
        frame.to_csv(d / f"golub_{name}.csv")
        refs[name] = make_reference(d / f"golub_{name}.csv", label="class")
    return refs


def test_files_column_order_with_labels_by_sample_number_flips_14_labels(leuk):
    ds, wrong = leuk
    right = class_names(ds)
    numbers = ds.sample_ids.astype(int)
    # genesel's rows are the files' columns: training file, then the independent file, each out of numeric order
    assert list(numbers[:38]) == list(range(1, 28)) + list(range(34, 39)) + list(range(28, 34))
    assert list(numbers[38:44]) == [39, 40, 42, 47, 48, 49]
    assert sorted(numbers) == list(range(1, 73))
    # genesel keeps each sample's own label: ALL 1-27, AML 28-38 as Golub's table lists them
    by_number = dict(zip(numbers, right))
    assert all(by_number[k] == "ALL" for k in range(1, 28)) and all(by_number[k] == "AML" for k in range(28, 39))
    flipped = wrong != right
    assert flipped.sum() == 14
    assert np.sum(flipped & (right == "ALL")) == 7 and np.sum(flipped & (right == "AML")) == 7
    # the class counts the paper prints (47 ALL, 25 AML) cannot reveal it
    assert np.sum(wrong == "ALL") == 47 and np.sum(wrong == "AML") == 25
    assert not flipped[:38].any()  # only the independent set's order matters


def _stump_sides(x):
    """Every one-sided stump on one gene as boolean rows (x > t and x <= t for every cut between sorted values)."""
    v = np.unique(x)
    t = np.concatenate([[v[0] - 1.0], (v[:-1] + v[1:]) / 2])
    return np.vstack([x[None, :] > t[:, None], x[None, :] <= t[:, None]])


def _greedy_conjunction_errors(X, positive, genes):
    """Training errors of the best conjunction of stumps on ``genes`` taken in order (best stump on the first, then
    the best second stump given the first, ...), predicting ``positive``; one count per prefix."""
    out, current = [], np.ones(positive.size, dtype=bool)
    for g in genes:
        cand = current[None, :] & _stump_sides(X[:, g])
        err = np.sum(cand != positive[None, :], axis=1)
        current = cand[int(np.argmin(err))]
        out.append(int(err.min()))
    return out


def test_table5_genes_fit_the_mistaken_labels_and_not_the_correct_ones(leuk, leuk_files):
    ds, wrong = leuk
    X = np.asarray(ds.X, dtype=float)
    idx = [int(np.flatnonzero(ds.gene_ids == g)[0]) for g in TABLE5_LEUK]
    on_wrong = _greedy_conjunction_errors(X, wrong == "AML", idx)
    on_right = _greedy_conjunction_errors(X, class_names(ds) == "AML", idx)
    # mistaken labels: each of the paper's three stumps pays for itself, ending near-perfect
    assert on_wrong[0] > on_wrong[1] > on_wrong[2] and on_wrong[2] <= 3
    # correct labels: adipsin alone is as good as the three together; LAF-4 and HOXC1 would never be picked
    assert on_right[0] == on_right[1] == on_right[2]
    # LAF-4 is among the very best second stumps after adipsin for the mistaken labels (out of 7129 genes)
    first = _stump_sides(X[:, idx[0]])
    a = first[int(np.argmin(np.sum(first != (wrong == "AML")[None, :], axis=1)))]
    second = np.array([np.min(np.sum((a[None, :] & _stump_sides(X[:, j])) != (wrong == "AML")[None, :], axis=1))
                       for j in range(X.shape[1])])
    assert np.sum(second < second[idx[1]]) <= 5
    # the other stacking mistakes (rows as in the merged golub object: independent samples first) do not fit them
    merged = np.r_[38:72, 0:38]
    right = class_names(ds)
    numbers = ds.sample_ids.astype(int)
    by_number = dict(zip(numbers, right))
    for labels_of_merged_rows in (np.array([by_number[k] for k in range(1, 73)]), right):
        other = np.empty(72, dtype=object)
        other[merged] = labels_of_merged_rows
        assert np.sum(other != right) >= 14
        for positive in ("AML", "ALL"):
            assert _greedy_conjunction_errors(X, other == positive, idx)[2] >= 14
    # genesel's own final PAC-Bayes classifier (Table 5 cell) starts with adipsin on the mistaken labels
    final = SH.final_cell(leuk_files["by_sample_number"])
    assert final["probe_ids"][0] == TABLE5_LEUK[0]


def _mean_errors(dataset, methods, n_perm):
    """Errors (of all samples) per method, averaged over ``n_perm`` permutations of the nested 5-fold CV."""
    return {m: np.mean([sum(SH.cv_cell(dataset, m, p, f)["errors"] for f in range(5)) for p in range(n_perm)])
            for m in methods}


def test_protocol_on_mistaken_labels_closes_the_leukemia_gap(leuk_files):
    t1 = SH.paper_table1().set_index("dataset")
    t2 = SH.paper_table2().set_index("dataset")

    def paper(name, m, stat="mean"):
        return (t2 if m in ("Occam", "SC") else t1).loc[name, f"{m}_{stat}"]

    def paper_sd(name, m):
        return paper(name, m, "sd")

    wrong = _mean_errors(leuk_files["by_sample_number"], CHEAP, N_PERM)
    right = _mean_errors(leuk_files["correct"], CHEAP, 1)
    colon = _mean_errors("alon", CHEAP, N_PERM)
    gap_wrong = np.mean([paper("Leuk", m) - wrong[m] for m in CHEAP])
    gap_right = np.mean([paper("Leuk", m) - right[m] for m in CHEAP])
    gap_colon = np.mean([paper("Colon", m) - colon[m] for m in CHEAP])
    print(f"\nLeukemia errors, mistaken labels: {wrong}\ncorrect labels: {right}\nColon: {colon}\n"
          f"mean gap to the paper: Leukemia mistaken {gap_wrong:.1f}, correct {gap_right:.1f}; Colon {gap_colon:.1f}")
    # the range of the paper's Leukemia errors for these learners (mean - sd, lowest: SVM+gs 14 - 2.8) and its
    # smallest sd there (SVM 1.4), from the table as printed
    low = min(paper("Leuk", m) - paper_sd("Leuk", m) for m in CHEAP)
    tol = min(paper_sd("Leuk", m) for m in CHEAP)
    # correct labels: every learner below that range, the gap to the paper far larger than on Colon
    assert all(right[m] < low for m in CHEAP)
    assert gap_right > gap_colon + 5 * tol
    # mistaken labels: every learner inside it, and the gap no larger than the one genesel has on Colon
    assert all(wrong[m] >= low for m in CHEAP)
    assert gap_wrong <= gap_colon + tol
