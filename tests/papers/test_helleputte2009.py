"""genesel.papers.helleputte2009 (+ helleputte2009_report) and genesel.datasets.align_studies: alignment by probe ID,
shared-sample detection, the transfer design and prior, the grid cell against the public estimators, and the summaries
against brute force."""

import numpy as np
import pandas as pd
import pytest

from genesel.arom import L2AROM
from genesel.datasets import Dataset, align_studies
from genesel.papers import helleputte2009 as H
from genesel.papers import helleputte2009_report as R
from genesel.preprocessing import GeneStandardizer
from genesel.stability import kuncheva_index
from genesel.svm import LinearSVM
from problems import sparse_problem


def _ds(name, X, genes, y=None):
    X = np.asarray(X, dtype=float)
    y = np.where(np.arange(X.shape[0]) % 2 == 0, 1, -1) if y is None else y
    return Dataset(name, X, y, ("a", "b"), np.asarray(genes), np.array([f"{name}{i}" for i in range(X.shape[0])]),
                   "", "")


# ---------------------------------------------------------------- aligning studies (genesel.datasets)


def test_align_studies_matches_probe_ids_not_positions():
    rng = np.random.default_rng(0)
    a = _ds("a", rng.normal(size=(4, 5)), ["p1", "p2", "p3", "p4", "p5"])
    perm = [3, 0, 4, 2]  # b holds p4, p1, p5, p3 and one probe of its own
    b = _ds("b", np.c_[a.X[:, perm] * 10, rng.normal(size=4)], ["p4", "p1", "p5", "p3", "q9"])
    a2, b2 = align_studies([a, b])
    assert a2.gene_ids.tolist() == b2.gene_ids.tolist() == ["p1", "p3", "p4", "p5"]
    np.testing.assert_array_equal(b2.X, a2.X * 10)  # the same probe in the same column
    np.testing.assert_array_equal(a2.X, a.X[:, [0, 2, 3, 4]])


def test_align_studies_refuses_ambiguous_or_unrelated_studies():
    a = _ds("a", np.ones((3, 3)), ["p1", "p2", "p2"])
    b = _ds("b", np.ones((3, 2)), ["p1", "p2"])
    with pytest.raises(ValueError, match="duplicated gene IDs"):
        align_studies([a, b])
    c = _ds("c", np.ones((3, 2)), ["x1", "x2"])
    with pytest.raises(ValueError, match="share 0 gene IDs"):
        align_studies([b, c])
    with pytest.raises(ValueError, match="at least one"):
        align_studies([])


@pytest.fixture(scope="module")
def prostate(mirror):
    return H.aligned_studies(H.PROSTATE)


def test_the_prostate_studies_share_their_named_probes(prostate):
    from genesel.datasets import load_dataset

    ids = {n: ds.gene_ids.tolist() for n, ds in prostate.items()}
    assert len(set(map(tuple, ids.values()))) == 1
    assert len(ids["singh"]) == 12533
    # by ID: a Chandran probe's aligned column is the column of that ID in the raw file
    raw = load_dataset("chandran_primary")
    j = 1234
    probe = prostate["chandran_primary"].gene_ids[j]
    np.testing.assert_array_equal(prostate["chandran_primary"].X[:, j], raw.X[:, raw.gene_ids.tolist().index(probe)])


def test_unrelated_platforms_are_refused_with_a_clear_message(mirror):
    with pytest.raises(ValueError, match="cannot be aligned|share only"):
        H.aligned_studies(["golub", "singh"])


# ---------------------------------------------------------------- which transfers the data allow


def test_shared_samples_are_detected(prostate):
    assert H.shared_samples(prostate["chandran_primary"], prostate["chandran_metastasis"]) == 18
    assert H.shared_samples(prostate["singh"], prostate["welsh"]) == 0
    assert H.shared_samples(prostate["welsh"], prostate["welsh"]) == 34


def test_transfer_design_excludes_studies_sharing_samples(prostate):
    dirs, excl = H.transfer_design(list(H.PROSTATE), list(H.PROSTATE), prostate)
    single = {(t, s[0]) for t, k, s in dirs if k == "single"}
    assert ("chandran_primary", "chandran_metastasis") not in single
    assert ("chandran_metastasis", "chandran_primary") not in single
    assert len(single) == 10
    multi = {t: s for t, k, s in dirs if k == "multiple"}
    assert multi == {"singh": ("welsh", "chandran_primary"), "welsh": ("singh", "chandran_primary"),
                     "chandran_primary": ("singh", "welsh"), "chandran_metastasis": ("singh", "welsh")}
    assert len(excl) == 4  # two single directions, and Chandran metastasis left out of two multiple transfers
    with pytest.raises(ValueError, match="no transfer is possible"):
        H.transfer_design(["chandran_primary"], ["chandran_metastasis"], prostate)


# ---------------------------------------------------------------- the prior


def test_transfer_prior_single_and_multiple():
    o1 = np.array([4, 2, 0, 1, 3])
    o2 = np.array([2, 3, 4, 0, 1])
    beta = H.transfer_prior([o1], 2, 3.0, 5)
    np.testing.assert_array_equal(beta, [1, 1, 3, 1, 3])
    beta = H.transfer_prior([o1, o2], 2, 3.0, 5)
    np.testing.assert_array_equal(beta, [1, 1, 3, 2, 2])  # gene 2 in both top-2 lists, genes 3 and 4 in one
    with pytest.raises(ValueError, match="align"):
        H.transfer_prior([o1], 2, 3.0, 6)
    with pytest.raises(ValueError, match="B"):
        H.transfer_prior([o1], 0, 3.0, 5)
    with pytest.raises(ValueError, match="strength"):
        H.transfer_prior([o1], 2, 0.0, 5)


# ---------------------------------------------------------------- the grid cell


def test_svm_on_the_gram_matrices_predicts_as_linear_svm():
    X, y = sparse_problem(m=50, f=40, seed=3)
    got = H._svm_predict(X[:40], y[:40], X[40:])
    np.testing.assert_array_equal(got, LinearSVM(C=H.SVM_C, tol=1e-6).fit(X[:40], y[:40]).predict(X[40:]))


def test_cell_selects_on_the_training_part_only_and_is_seeded(prostate):
    kw = dict(studies=list(H.PROSTATE), sizes=[5, 50], test_fraction=0.1, seed=3)
    rows = H.transfer_cell("welsh", 2, "multiple", ["singh", "chandran_primary"], 50, 2.0, **kw)
    again = H.transfer_cell("welsh", 2, "multiple", ["singh", "chandran_primary"], 50, 2.0, **kw)
    assert rows == again  # bit-identical
    # the same signature from the public pieces: split, log, standardisation fitted on the training part, prior
    ds = prostate["welsh"]
    tr, te = H._split(ds.y, 2, 0.1, 3)
    assert np.intersect1d(tr, te).size == 0 and te.size == 3
    L = H._logged("welsh", tuple(H.PROSTATE))
    Xtr = GeneStandardizer(on_constant="zero").fit_transform(L[tr])
    beta = H.transfer_prior([H.source_order(s, H.PROSTATE) for s in ("singh", "chandran_primary")], 50, 2.0,
                            ds.n_genes)
    order = L2AROM(prior=beta, C=H.AROM_C).fit(Xtr, ds.y[tr]).feature_order_
    for r in rows:
        assert r["genes"] == sorted(order[: r["size"]].tolist())
        assert r["n_test"] == 3 and 0 <= r["bcr"] <= 1


def test_source_order_uses_only_the_source(prostate):
    o = H.source_order("singh", H.PROSTATE)
    L = H._logged("singh", tuple(H.PROSTATE))
    ref = L2AROM(C=H.AROM_C).fit(GeneStandardizer(on_constant="zero").fit_transform(L), prostate["singh"].y)
    np.testing.assert_array_equal(o, ref.feature_order_)


# ---------------------------------------------------------------- summaries against brute force


def test_kuncheva_pairs_agree_with_genesel_stability():
    rng = np.random.default_rng(5)
    sigs = [rng.choice(300, 12, replace=False) for _ in range(7)]
    P = R.kuncheva_pairs(sigs, 300)
    iu = np.triu_indices(7, 1)
    assert P[iu].mean() == pytest.approx(kuncheva_index(sigs, 300), abs=1e-12)


def test_bootstrap_pair_means_are_brute_force_means():
    rng = np.random.default_rng(6)
    P = rng.uniform(size=(6, 6))
    P = (P + P.T) / 2
    cnt = R._boot_counts(rng, 6, 40)
    got = R._boot_means(P, cnt)
    for b in range(40):
        idx = np.repeat(np.arange(6), cnt[b].astype(int))
        pairs = [P[i, j] for a, i in enumerate(idx) for j in idx[a + 1:] if i != j]
        assert got[b] == pytest.approx(np.mean(pairs) if pairs else np.nan, nan_ok=True)


def test_verdicts():
    assert R._verdict(4, 0, 4) == "holds"
    assert R._verdict(3, 0, 4) == "holds"
    assert R._verdict(3, 1, 4) == "holds partly"
    assert R._verdict(1, 0, 4) == "holds partly"
    assert R._verdict(0, 2, 4) == "does not hold here"


def test_small_protocol_end_to_end(prostate):
    targets, studies = ["welsh"], list(H.PROSTATE)
    dirs, _ = H.transfer_design(targets, studies, prostate)
    cells = H.protocol_cells(dirs, targets, studies, n_splits=3, B=50, B_grid=[20, 50], sizes=[5, 20])
    assert len(cells) == 3 * (2 + 4 + 1)  # none, rfe, 3 single + 1 multiple, one extra B for the multiple
    rows = []
    for c in cells:
        for r in H.transfer_cell(**c):
            rows.append({**c, **r})
    res = pd.DataFrame(rows)
    stab = R.stability_summary(res, 12533, n_boot=20)
    bcr = R.bcr_summary(res)
    assert set(stab["method"]) == {"none", "rfe", "single", "multiple"}
    assert ((stab["lo"] <= stab["kuncheva"] + 1e-12) & (stab["kuncheva"] <= stab["hi"] + 1e-12)).all()
    eff = R.transfer_effects(res, 12533, B=50, n_boot=20)
    assert len(eff) == 4 * 2
    sens = R.b_sensitivity(stab, bcr)
    assert sens.empty  # two values of B only: no sensitivity row (needs three or more)
    tests, claims = R.claims(res, 12533, B=50, n_boot=20)
    assert len(tests) == 4
    assert {c["genesel"] for c in claims} <= {"holds", "holds partly", "does not hold here"}


def test_gains_are_never_printed_with_a_negative_zero():
    """Beside Gordon a transfer gain of -0.0002 printed "-0.000" (a sign the number does not have): the sentence and
    the table round first, then print."""
    idx = pd.MultiIndex.from_tuples([("r", "t", "x"), ("r", "u", "x")], names=["run", "target", "transfer"])
    g = pd.DataFrame({"Kuncheva gain": [-0.0002, 0.0001], "BCR gain": [-0.0003, -0.0001]}, index=idx)
    text = R.gains_sentence(g)
    assert "-0.000" not in text and "Kuncheva +0.000, BCR +0.000" in text
    assert R.gains_sentence(g.assign(**{"BCR gain": [-0.004, -0.002]})).endswith("BCR -0.003.")
