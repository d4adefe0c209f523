"""genesel.papers.guyon2002 (+ guyon2002_report): subset sizes, the preprocessing options of 2002 against hand
computations and the published gene counts, the hard-margin separability test against closed forms, the in-fold
shortcut against refits, the aggregation of in-fold outputs, and the claim checks."""

import math

import numpy as np
import pandas as pd
import pytest

from genesel.metrics import quality_metrics
from genesel.papers import guyon2002 as G
from genesel.papers.guyon2002 import guyon_preprocess, guyon_sizes, linearly_separable, loo_metrics_from_outputs
from genesel.rfe import SVMRFE
from genesel.svm import LinearSVM
from problems import golub_like


def test_guyon_sizes_and_loo_aggregation():
    assert guyon_sizes(7129) == [7129] + [2**k for k in range(12, -1, -1)]
    assert guyon_sizes(2048) == [2048] + [2**k for k in range(10, -1, -1)]
    df = pd.DataFrame({"dataset": "d", "method": "m", "n_genes": [4] * 5, "y": [1, 1, 1, -1, -1],
                       "output": [2.0, 0.5, -0.2, -1.0, 0.3]})
    out = loo_metrics_from_outputs(df).iloc[0]
    ref = quality_metrics(df.y, df.output)
    assert out.V_suc == ref["suc"] and out.V_acc == ref["acc"] and out.V_ext == ref["ext"] and out.n_folds == 5
    assert out.V_errors == 2


def test_loo_aggregation_pools_all_gene_rows_and_propagates_missing_outputs():
    # fold 0 kept 100 genes, fold 1 kept 98 (a constant gene dropped): one "all genes" group of 2 folds
    df = pd.DataFrame({"dataset": "d", "method": "m", "fold": [0, 0, 1, 1], "n_genes": [100, 2, 98, 2],
                       "all_genes": [True, False, True, False], "y": [1, 1, -1, -1],
                       "output": [1.0, np.nan, -2.0, -1.0]})
    out = loo_metrics_from_outputs(df).set_index("n_genes")
    assert sorted(out.index) == [2, 100]
    assert out.loc[100, "n_folds"] == 2 and out.loc[100, "V_errors"] == 0 and out.loc[100, "all_genes"]
    assert np.isnan(out.loc[2, "V_errors"]) and np.isnan(out.loc[2, "V_suc"])


# ----------------------------------------------------------------------------------------------------------------
# preprocessing
# ----------------------------------------------------------------------------------------------------------------


def _by_hand(L, Lt, standardize):
    if "sample" in standardize:
        L = (L - L.mean(1, keepdims=True)) / L.std(1, keepdims=True)
        Lt = (Lt - Lt.mean(1, keepdims=True)) / Lt.std(1, keepdims=True)
    if "gene" in standardize:
        Lt = (Lt - L.mean(0)) / L.std(0)
        L = (L - L.mean(0)) / L.std(0)
    return L, Lt


@pytest.mark.parametrize("standardize", G.STANDARDIZE)
def test_guyon_preprocess_uses_training_statistics(standardize):
    rng = np.random.default_rng(0)
    Xtr = rng.uniform(50, 5000, size=(12, 30))
    Xte = rng.uniform(50, 5000, size=(5, 30))
    A, B, kept = guyon_preprocess(Xtr, Xte, "alon", standardize=standardize)  # alon: log with floor 1
    assert kept.size == 30
    R, Rt = _by_hand(np.log10(Xtr), np.log10(Xte), standardize)
    np.testing.assert_allclose(A, R, atol=1e-12)
    np.testing.assert_allclose(B, Rt, atol=1e-12)
    if "gene" in standardize:
        np.testing.assert_allclose(A.mean(0), 0, atol=1e-12)
        np.testing.assert_allclose(A.std(0), 1)


@pytest.mark.parametrize("standardize", G.STANDARDIZE)
def test_log_base_does_not_matter(standardize):
    """Changing the log base multiplies every log value by one constant; each standardisation divides it out.
    (x ** k has log_b(x ** k) = k log_b x: the same as changing the base.)"""
    rng = np.random.default_rng(1)
    Xtr, Xte = rng.uniform(50, 400, size=(10, 25)), rng.uniform(50, 400, size=(4, 25))
    A, B, _ = guyon_preprocess(Xtr, Xte, "alon", standardize=standardize)
    k = 1.0 / np.log10(np.e)  # log10(x ** k) = ln x
    A2, B2, _ = guyon_preprocess(Xtr**k, Xte**k, "alon", standardize=standardize)
    np.testing.assert_allclose(A2, A, atol=1e-10)
    np.testing.assert_allclose(B2, B, atol=1e-10)


@pytest.mark.parametrize("squash,f", [("tanh", np.tanh), ("arctan", np.arctan)])
def test_squashing_is_applied_last(squash, f):
    rng = np.random.default_rng(2)
    Xtr, Xte = rng.lognormal(5, 1, size=(9, 20)), rng.lognormal(5, 1, size=(3, 20))
    A, B, _ = guyon_preprocess(Xtr, Xte, "alon")
    As, Bs, _ = guyon_preprocess(Xtr, Xte, "alon", squash=squash)
    np.testing.assert_allclose(As, f(A))
    np.testing.assert_allclose(Bs, f(B))
    assert np.abs(As).max() < (1.0 if squash == "tanh" else np.pi / 2)


def test_dudoit_options_are_refused_on_log_scale_data_and_bad_values():
    X = np.random.default_rng(3).normal(size=(6, 10))
    with pytest.raises(ValueError, match="raw intensities"):
        guyon_preprocess(X, None, "west", gene_filter="dudoit")
    with pytest.raises(ValueError, match="Dudoit"):
        guyon_preprocess(X, None, "west", thresholds="dudoit")
    with pytest.raises(ValueError, match="standardize must be one of"):
        guyon_preprocess(X, None, "west", standardize="both")
    with pytest.raises(ValueError, match="squash must be one of"):
        guyon_preprocess(X, None, "west", squash="sigmoid")


def test_dudoit_preprocessing_gives_the_published_gene_counts(golub):
    """Dudoit, Fridlyand & Speed 2002: floor 100, ceiling 16000, keep max/min > 5 and max - min > 500: 3571 of
    7129 genes on all 72 samples; on the 38 training samples the 3051 genes of Bioconductor multtest's golub."""
    for idx, n in ((golub.train_idx, 3051), (np.arange(72), 3571)):
        A, _, kept = guyon_preprocess(golub.X[idx], None, "golub", thresholds="dudoit", gene_filter="dudoit",
                                      standardize="gene")
        assert kept.size == n and A.shape == (len(idx), n)
        T = np.clip(golub.X[idx][:, kept], 100, 16000)
        np.testing.assert_allclose(A, (np.log10(T) - np.log10(T).mean(0)) / np.log10(T).std(0), atol=1e-10)


# ----------------------------------------------------------------------------------------------------------------
# the hard margin
# ----------------------------------------------------------------------------------------------------------------


def test_linear_separability_against_closed_forms():
    rng = np.random.default_rng(4)
    for _ in range(200):  # one gene: separable iff the two classes' value ranges do not overlap
        n = int(rng.integers(3, 12))
        x = rng.integers(0, 8, size=n).astype(float)
        y = np.where(rng.random(n) < 0.5, 1, -1)
        if np.unique(y).size < 2:
            continue
        p, m = x[y > 0], x[y < 0]
        assert linearly_separable(x[:, None], y) == bool(p.min() > m.max() or m.min() > p.max())
    xor = np.array([[0.0, 0], [1, 1], [0, 1], [1, 0]])
    assert not linearly_separable(xor, [1, 1, -1, -1])
    assert linearly_separable(xor, [1, -1, -1, -1])
    assert linearly_separable(rng.normal(size=(5, 9)), [1, -1, 1, -1, 1])  # more genes than samples


@pytest.mark.parametrize("seed", range(3))
def test_separability_of_the_nested_sizes_equals_one_program_per_size(seed):
    """The cells decide separability from the smallest size up and take every larger size as separable: the same
    verdicts as a linear program (or rank test) for every size, on rankings whose small sizes are not separable."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(40) % 2 == 0, 1, -1)
    X = rng.normal(size=(40, 300))
    X[:, :4] += 0.7 * y[:, None]
    sel = SVMRFE(n_features_to_select=1, step="halving", C=1.0).fit(X, y)
    sizes = G._sizes(X.shape[1], None)
    got = G._hard_margin_statuses(math.inf, X, y, sel, sizes, converged_from=3)
    brute = {int(k): (linearly_separable(X[:, sel.subset(int(k))], y), int(k) >= 3) for k in sizes}
    assert got == brute
    assert not brute[1][0] and brute[sizes[0]][0]  # both verdicts occur
    assert G._hard_margin_statuses(1.0, X, y, sel, sizes, 3) == {int(k): (True, True) for k in sizes}


# ----------------------------------------------------------------------------------------------------------------
# the protocol cells on a synthetic problem
# ----------------------------------------------------------------------------------------------------------------


def test_stage_outputs_equal_refits_on_each_subset():
    X, y = golub_like(n=30, d=40, seed=5)
    Xa, ya, Xb = X[:27], y[:27], X[27:]
    sel = SVMRFE(n_features_to_select=1, step="halving", C=10.0).fit(Xa, ya)
    outs = G._stage_outputs(sel, Xa, ya, Xb, {32, 8, 2})
    assert sorted(outs) == [2, 8, 32]
    for size, out in outs.items():
        g = sel.subset(size)
        ref = LinearSVM(C=10.0, tol=1e-10).fit(Xa[:, g], ya).decision_function(Xb[:, g])
        np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_cells_refuse_bad_C_and_ignore_it_for_the_baseline():
    with pytest.raises(ValueError, match="C must be a positive number"):
        G._check_C("svm-rfe", 0.0, "halving")
    with pytest.raises(ValueError, match="C must be a positive number"):
        G._check_C("svm-rfe", True, "halving")
    assert G._check_C("baseline", 5.0, 1) == (None, None)
    assert G._check_C("svm-rfe", math.inf, 1) == (math.inf, 1)


def test_protocol_refuses_multiclass_and_large_sets(mirror, monkeypatch):
    assert G.guyon_protocol("leukemia") == dict(curve_split="predefined", loo_split="predefined", n_loo=38)
    assert G.guyon_protocol("colon") == dict(curve_split="half", loo_split="all", n_loo=62)
    with pytest.raises(ValueError, match="binary"):
        G.guyon_protocol("khan")
    monkeypatch.setattr(G, "MAX_LOO_SAMPLES", 50)
    with pytest.raises(ValueError, match="at most 50"):
        G.guyon_protocol("alon")


def test_curves_and_folds_on_leukemia_agree_with_the_estimators(golub):
    """The as-printed cell equals SVM-RFE + an SVM refit by hand; the hard margin is reported only where the
    training samples are separable."""
    rows = {r["n_genes"]: r for r in G.guyon2002_curves("golub", "svm-rfe", C=1.0, max_size=4)}
    assert sorted(rows) == [1, 2, 4, 7129] and rows[7129]["all_genes"]
    Xtr, Xte, kept = guyon_preprocess(golub.X[golub.train_idx], golub.X[golub.test_idx], "golub")
    ytr, yte = golub.y[golub.train_idx], golub.y[golub.test_idx]
    sel = SVMRFE(n_features_to_select=1, step="halving", C=1.0).fit(Xtr, ytr)
    for size in (1, 2, 4):
        g = sel.subset(size)
        pred = LinearSVM(C=1.0).fit(Xtr[:, g], ytr).predict(Xte[:, g])
        assert rows[size]["T_errors"] == int(np.sum(pred != yte))
        assert rows[size]["genes"].split(";") == [str(golub.gene_ids[kept[i]]) for i in sel.feature_order_[:size]]
    index = {p: i for i, p in enumerate(golub.gene_ids[kept].astype(str))}
    hard = G.guyon2002_curves("golub", "svm-rfe", C=math.inf, max_size=2)
    assert any(not r["separable"] for r in hard) and any(r["separable"] for r in hard)
    for r in hard:
        if "genes" in r:
            genes = [index[p] for p in r["genes"].split(";")]
            assert r["separable"] == linearly_separable(Xtr[:, genes], ytr)
        assert np.isnan(r["V_errors"]) == (not (r["separable"] and r["converged"]))
    assert all(r["converged"] for r in hard if r["separable"])  # where the hard margin exists, SMO reaches it


def test_baseline_votes_without_genes_constant_in_a_fold():
    """Without sample standardisation a gene at the floor in all training samples but one is constant once that
    sample is left out; the baseline then ignores it (its signal-to-noise ratio is 0/0) instead of failing."""
    X, y = golub_like(n=12, d=6, seed=6)
    X[:, 5] = 0.0
    X[0, 5] = 3.0
    sel, make_clf = G._rank_genes("baseline", X, y, None, None)
    clf = make_clf().fit(X[1:], y[1:])
    np.testing.assert_allclose(clf.decision_function(X[:1]),
                               make_clf().fit(X[1:, :5], y[1:]).decision_function(X[:1, :5]))


# ----------------------------------------------------------------------------------------------------------------
# the claims (genesel.papers.guyon2002_report)
# ----------------------------------------------------------------------------------------------------------------


def test_claim_targets_and_evaluation():
    from genesel.papers.guyon2002_report import CLAIMS

    c = {cl.key: cl for cl in CLAIMS}
    assert c["colon_svm"].target_errors(62) == 1  # 61/62 = 98.4 % -> "98 %"
    assert c["colon_baseline"].target_errors(62) == 9  # 53/62 = 85.5 %, the count nearest to 86 %
    assert c["leukemia_svm"].evaluate({1: 3.0, 2: 0.0, 4: 0.0}, 38)[0]
    assert not c["leukemia_svm"].evaluate({1: 3.0, 2: 1.0}, 38)[0]
    assert c["leukemia_svm"].evaluate({1: np.nan, 2: np.nan}, 38)[1] == "not separable"
    base = c["leukemia_baseline"]
    assert base.evaluate({1: 4.0, 32: 2.0, 64: 1.0, 128: 1.0, 7129: 3.0}, 38)[0]
    assert not base.evaluate({32: 1.0, 64: 1.0}, 38)[0]  # the best result is reached with fewer genes
    assert not base.evaluate({64: 1.0, 128: 0.0}, 38)[0]  # the best result is 0 errors
    met, value, _ = base.evaluate({16: 2.0, 64: 0.0}, 38)
    assert not met and value == "0 errors, first with 64 genes"


def test_joint_settings_count_claims_and_let_the_baseline_ignore_C():
    from genesel.papers.guyon2002_report import joint_settings

    common = dict(thresholds="genesel", gene_filter="none", squash="none")
    rows = []
    for std in ("sample+gene", "gene"):
        for C in (1.0, 100.0):
            rows.append(dict(claim="leukemia_svm", **common, standardize=std, C=C, step="halving",
                             reproduced=(std == "gene" and C == 1.0), value="", distance=0.0, in_fold=""))
        rows.append(dict(claim="leukemia_baseline", **common, standardize=std, C=np.nan, step=None,
                         reproduced=(std == "gene"), value="", distance=0.0, in_fold=""))
    j = joint_settings(pd.DataFrame(rows))
    assert len(j) == 4
    top = j.iloc[0]
    assert (top.standardize, top.C, top["claims reproduced"]) == ("gene", 1.0, 2)
    counts = {(r.standardize, r.C): r["claims reproduced"] for _, r in j.iterrows()}
    assert counts == {("gene", 1.0): 2, ("gene", 100.0): 1, ("sample+gene", 1.0): 0, ("sample+gene", 100.0): 0}


def test_notebook_parameters_are_checked():
    from genesel.papers.guyon2002_report import notebook_setting

    ok = dict(C="inf", step="1", standardize="gene", thresholds="dudoit", gene_filter="none", squash="tanh")
    s = notebook_setting(**ok)
    assert s["C"] == math.inf and s["step"] == 1 and s["thresholds"] == "dudoit"
    assert notebook_setting(**{**ok, "step": 2.0})["step"] == 2
    for bad, match in ((dict(C=0), "positive"), (dict(C="big"), "positive number or inf"),
                       (dict(step="chunks"), "'halving' or a number"), (dict(step=0), "'halving' or a number"),
                       (dict(standardize="both"), "'standardize' must be one of"),
                       (dict(squash="sigmoid"), "'squash' must be one of")):
        with pytest.raises(ValueError, match=match):
            notebook_setting(**{**ok, **bad})


@pytest.mark.notebook
def test_notebook_runs_on_an_alias_passed_as_a_papermill_string(tmp_path, monkeypatch, mirror, notebook_cell_cache):
    """papermill -p datasets '["leukemia"]' (a string holding a list, and an alias) and -p step 1. The grid cache is
    the session's notebook cache (conftest.notebook_cell_cache): Leukemia cells another run computed are read."""
    from pathlib import Path

    from genesel.records.runner import execute_notebook

    monkeypatch.setenv("GENESEL_FIGURES_DIR", str(tmp_path / "figures"))
    monkeypatch.setenv("GENESEL_CACHE_DIR", str(notebook_cell_cache))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = Path(__file__).resolve().parents[2] / "notebooks" / "01_guyon2002_svm_rfe.ipynb"
    out = execute_notebook(nb, tmp_path / "runs", quick=True, parameters={"datasets": '["leukemia"]'}, timeout=900)
    import json

    outputs = json.dumps([c.get("outputs", []) for c in json.loads(out.read_text())["cells"]])
    assert "Leukemia (ALL vs AML)" in outputs and "Colon (normal" not in outputs
    assert sorted(p.name for p in (tmp_path / "figures").glob("*.png")) == [
        "guyon2002_metrics_golub.png", "guyon2002_selection_bias.png", "guyon2002_sensitivity_golub.png"]


def test_paired_study_leaves_a_patient_out_in_the_papers_protocol(mirror, tmp_path):
    """On a paired study (``groups``), the as-printed leave-one-out of section 1 leaves a whole patient out, as
    section 2's in-fold leave-one-out does: the V measures equal scikit-learn's ``LeaveOneGroupOut`` predictions of
    an SVC on the same genes, and differ from plain leave-one-out, where a patient's other tissue stays in
    training (so the test can fail if the groups are ignored)."""
    from sklearn.model_selection import LeaveOneGroupOut, LeaveOneOut, cross_val_predict
    from sklearn.svm import SVC
    from study_files import pairs

    from genesel.papers.common import load_task
    from genesel.papers.guyon2002_report import loo_words

    ref = f"{pairs(tmp_path, strength=1.0)}?label=tissue&groups=patient"
    ds = load_task(ref)
    rows = {r["n_genes"]: r for r in G.guyon2002_curves(ref, "svm-rfe", C=1.0, split="all", max_size=8)}
    X, _, kept = guyon_preprocess(ds.X, None, ref)
    index = {p: i for i, p in enumerate(ds.gene_ids[kept].astype(str))}
    differs = 0
    for size in (4, 8):
        g = [index[p] for p in rows[size]["genes"].split(";")]
        svc = SVC(kernel="linear", C=1.0, tol=1e-8)
        logo = cross_val_predict(svc, X[:, g], ds.y, groups=ds.groups, cv=LeaveOneGroupOut(),
                                 method="decision_function")
        loo = cross_val_predict(svc, X[:, g], ds.y, cv=LeaveOneOut(), method="decision_function")
        ref_v, plain = quality_metrics(ds.y, logo), quality_metrics(ds.y, loo)
        assert rows[size]["V_suc"] == pytest.approx(ref_v["suc"])
        assert rows[size]["V_errors"] == int(np.sum(np.sign(logo) != ds.y))
        assert rows[size]["V_med"] == pytest.approx(ref_v["med"], abs=2e-3)
        differs += not np.isclose(rows[size]["V_med"], plain["med"], atol=2e-3)
    assert differs  # the grouping changes the numbers, so this test sees whether it is used
    assert loo_words(ref, "all") == "leave-one-group-out (44 samples in 22 groups)"
    assert loo_words("golub", "predefined") == "leave-one-out (38 samples)"
