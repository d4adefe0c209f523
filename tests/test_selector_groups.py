"""Group-aware draws inside the selectors that resample their training part (MSVM-RFE, GP-ARD-FS, GP-ARD-RFE) and
in the leaderboard's protocol, which hands them the groups of the rows they are fitted on (a data set's groups, or
the copies of a sample in a bootstrap part). A paired study (a patient's samples) must never put one member of a
group in an internal fit and the other in the part that fit is scored on."""

import warnings

import numpy as np
import pytest
from sklearn.pipeline import Pipeline

from genesel import GPARDFS, GPARDRFE, MSVMRFE
from genesel._core.resampling import resampling_masks, resolve_folds
from genesel.leaderboard import protocol as P
from genesel.svm import LinearSVM


def _replicates(seed, n_patients=16, reps=2, d=60, noise=0.05):
    """``n_patients`` patients (half of each class) with ``reps`` near-identical samples each (a patient's profile
    plus small noise) and genes that carry no class signal: a sample's replicate predicts its class, nothing else
    does."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(n_patients, d))
    X = np.repeat(base, reps, axis=0) + noise * rng.normal(size=(n_patients * reps, d))
    y = np.repeat(np.where(np.arange(n_patients) % 2 == 0, -1, 1), reps)
    groups = np.repeat([f"patient {i}" for i in range(n_patients)], reps)
    return X, y, groups


def _kept_together(masks, groups):
    return all(np.unique(m[groups == g]).size == 1 for m in masks for g in np.unique(groups))


def test_grouped_masks_keep_every_group_on_one_side():
    X, y, groups = _replicates(0)
    masks = resampling_masks(y, 4, 2, np.random.RandomState(0), groups)
    assert masks.shape == (8, y.size)
    assert _kept_together(masks, groups)
    np.testing.assert_array_equal((~masks[:4]).sum(0), 1)  # each sample left out once per repeat
    assert not _kept_together(resampling_masks(y, 4, 2, np.random.RandomState(0)), groups)  # the test can fail
    # pairs across the classes (a patient's tumour and normal tissue): every training part keeps both classes
    tissue = np.tile([-1, 1], 16)
    pair_masks = resampling_masks(tissue, 5, 1, np.random.RandomState(1), groups)
    assert _kept_together(pair_masks, groups)
    assert all(np.unique(tissue[m]).size == 2 for m in pair_masks)


def test_folds_are_counted_in_groups():
    y = np.repeat([-1, 1], 8)
    groups = np.repeat(np.arange(8), 2)  # 4 groups per class
    assert resolve_folds("S", "auto", y) == 8
    assert resolve_folds("S", "auto", y, groups=groups) == 4
    with pytest.raises(ValueError, match=r"exceeds the number of groups of the smallest class \(4\)"):
        resolve_folds("S", 5, y, groups=groups)


@pytest.mark.parametrize("bad, match", [(np.arange(5), "one label per sample"),
                                        (np.array([1.0, np.nan] * 16), "no label for sample")])
def test_bad_groups_are_refused_by_name(bad, match):
    X, y, _ = _replicates(0)
    with pytest.raises(ValueError, match=f"MSVMRFE: groups .*{match}|MSVMRFE: groups has {match}"):
        MSVMRFE(n_folds=3, random_state=0).fit(X, y, groups=bad)


def test_msvm_rfe_with_groups_leaves_whole_groups_out():
    X, y, groups = _replicates(1, n_patients=20, d=20)
    kw = dict(n_folds=4, random_state=0, max_forward_genes=20, C=100.0)
    plain = MSVMRFE(**kw).fit(X, y)
    grouped = MSVMRFE(**kw).fit(X, y, groups=groups)
    assert _kept_together(grouped.train_masks_, groups)
    assert not _kept_together(plain.train_masks_, groups)
    # the forward selection leaves a patient out (what forward_path does with these groups, on this ranking) ...
    from genesel.forward import forward_path

    ref = forward_path(X, y, grouped.feature_order_, max_genes=20, C=100.0, groups=groups)
    np.testing.assert_array_equal(grouped.forward_path_.loo_errors, ref.loo_errors)
    assert grouped.forward_path_.n_groups == 20
    # ... where a sample's replicate answered for it: on the longest prefixes (nearly all 20 genes, so the ranking
    # hardly matters) the plain leave-one-out finds classes in genes that hold none (0 errors on seeds 1-7 of
    # _replicates), leaving a patient out does not (0.35-0.58)
    plain_err = plain.forward_path_.loo_errors[-5:].mean() / y.size
    grouped_err = grouped.forward_path_.loo_errors[-5:].mean() / y.size
    assert plain_err < 0.05 and grouped_err > 0.25, (plain_err, grouped_err)


def test_msvm_rfe_identity_groups_change_only_the_folds():
    """Every sample its own group: the forward selection is the plain leave-one-out (the same decisions)."""
    X, y, _ = _replicates(2)
    plain = MSVMRFE(n_folds=4, random_state=0, n_features_to_select=None, max_forward_genes=10).fit(X, y)
    ident = MSVMRFE(n_folds=4, random_state=0, max_forward_genes=10).fit(X, y, groups=np.arange(y.size))
    assert (~ident.train_masks_).sum(0).tolist() == [1] * y.size
    from genesel.forward import forward_path

    ref = forward_path(X, y, ident.feature_order_, max_genes=10)
    np.testing.assert_allclose(ident.forward_path_.loo_decision, ref.loo_decision, atol=1e-9)
    assert plain.forward_path_.loo_errors.shape == ident.forward_path_.loo_errors.shape


@pytest.mark.parametrize("Sel", [GPARDRFE, GPARDFS])
def test_gp_ard_selectors_fold_by_group(Sel):
    X, y, groups = _replicates(3, n_patients=12, d=16)
    kw = dict(n_folds=3, n_restarts=0, random_state=0, max_iter=300)
    if Sel is GPARDRFE:
        kw["p"] = 2
    else:
        kw["alpha"] = 1.0
    sel = Sel(**kw).fit(X, y, groups=groups)
    assert sel.n_folds_ == 3
    assert _kept_together(sel.train_masks_, groups)
    assert not hasattr(sel, "_groups")  # nothing of the fit's data is kept beyond its attributes
    with pytest.raises(ValueError, match=r"exceeds the number of groups of the smallest class \(6\)"):
        Sel(**{**kw, "n_folds": 7}).fit(X, y, groups=groups)


def test_the_protocol_hands_groups_to_the_selector_steps():
    g = np.arange(6)
    pipe = Pipeline([("select", MSVMRFE()), ("clf", LinearSVM())])
    assert P._group_params(pipe, g) == {"select__groups": g}
    assert P._group_params(MSVMRFE(), g) == {"groups": g}
    assert P._group_params(LinearSVM(), g) == {}
    assert P._group_params(pipe, None) == {}
    # the units of a part's rows: the data set's groups, else the copies of a bootstrap part, else none
    assert P._units(None, np.array([3, 1, 2])) is None
    np.testing.assert_array_equal(P._units(None, np.array([3, 1, 3])), [3, 1, 3])
    np.testing.assert_array_equal(P._units(np.array(list("aabbcc")), np.array([0, 2, 5])), ["a", "b", "c"])


def test_adaptation_counts_folds_in_groups_and_fits_by_group():
    X, y, groups = _replicates(4, n_patients=8)  # 4 patients per class, 2 samples each
    adapt = P.Adaptation()
    est = adapt.fit(MSVMRFE(n_folds=5, random_state=0, max_forward_genes=5), X, y, groups)
    assert est.n_folds_ == 4 and _kept_together(est.train_masks_, groups)
    assert adapt.changes["MSVMRFE.n_folds"] == (5, 4, 4)
    # a bootstrap part: the copies of a sample are one unit
    idx = np.r_[np.arange(16), np.arange(8)]
    units = P._units(None, idx)
    est = P.Adaptation().fit(MSVMRFE(n_folds=4, random_state=0, max_forward_genes=5), X[idx], y[idx], units)
    assert _kept_together(est.train_masks_, units)


@pytest.mark.parametrize("method, cls", [("MSVM-RFE + SVM", "MSVMRFE"),
                                         ("RF var. sel. (s.e. 1)", "RFBackwardSelector")])
def test_a_paired_study_cell_fits_its_selectors_by_patient(mirror, tmp_path, monkeypatch, method, cls):
    """A leaderboard cell on a paired study (22 patients, each a tumour and a normal sample): every fit of the
    method's selector, in the inner folds and the refit, is given the patients of its rows (the spy records them),
    so its own resampling keeps a patient's two samples together."""
    import genesel
    import study_files
    from genesel.leaderboard import cells as C

    ref = f"{study_files.pairs(tmp_path)}?label=tissue&groups=patient"
    Sel = getattr(genesel, cls)
    seen = []
    fit = Sel.fit

    def spy(self, X, y, groups=None):
        seen.append(None if groups is None else np.asarray(groups))
        return fit(self, X, y, groups=groups)

    monkeypatch.setattr(Sel, "fit", spy)
    row = C.cv_cell(ref, method, 0, 0, 3, 3, 0, True, 200)
    assert "not_applicable" not in row
    assert seen and all(g is not None for g in seen)
    assert all(np.all(np.unique(g, return_counts=True)[1] <= 2) for g in seen)
    assert any(np.any(np.unique(g, return_counts=True)[1] == 2) for g in seen)  # pairs among the rows


def test_the_plan_counts_a_selectors_internal_folds_in_groups(tmp_path):
    """Notebook 06's plan says what will adapt before anything runs: on a grouped study the selectors' internal
    folds are counted in groups (as :class:`~genesel.leaderboard.protocol.Adaptation` does when the cells run), so
    the plan's "internal folds 5 → k" is the k the cells use."""
    import pandas as pd

    from genesel.leaderboard import cells as C
    from genesel.leaderboard.tables import plan_table

    X, y, groups = _replicates(5, n_patients=12, d=40)  # 6 patients per class, 2 samples each
    frame = pd.DataFrame(np.exp(X), index=[f"s{i}" for i in range(y.size)], columns=[f"g{j}" for j in range(40)])
    frame.insert(0, "patient", groups)
    frame.insert(0, "class", np.where(y > 0, "tumour", "normal"))
    path = tmp_path / "replicates.csv"
    frame.to_csv(path)
    ref = f"{path}?label=class&groups=patient"
    plan = plan_table([ref], ["MSVM-RFE + SVM"], n_folds=3, inner_k=3, n_repeats=1, seed=0, quick=True)
    note = plan.iloc[0]["what adapted"]
    used = set()
    for fold in range(3):
        row = C.cv_cell(ref, "MSVM-RFE + SVM", 0, fold, 3, 3, 0, True)
        assert "not_applicable" not in row, row.get("not_applicable")
        used.add(row["adapted"]["MSVMRFE.n_folds"][1])  # (requested, smallest used, largest used)
    assert f"MSVM-RFE + SVM: internal folds 5 → {min(used)}" in note, (note, used)


def test_groups_that_cannot_be_kept_together_make_the_method_not_applicable():
    """A study mixing paired and unpaired patients: whole groups dealt to GP-ARD-FS's 3 folds leave a fold's
    training part with one group holding class -1, where its leave-one-group-out forward selection has no sample of
    that class left. The leaderboard then shows the method as not applicable, naming the cause, rather than a cell
    that stops the notebook (found by drawing such studies: about 1 in 20 of the small mixed designs)."""
    from genesel.experiments import NotApplicable

    groups = np.array([0, 0, 1, 2, 3, 4])  # patient 0 paired, the others one sample each
    y = np.array([1, -1, -1, -1, 1, 1])
    X = np.random.default_rng(0).normal(size=(6, 12))
    sel = GPARDFS(n_folds=5, n_restarts=0, random_state=23, alpha=1.0, max_iter=200)
    with pytest.raises(NotApplicable, match=r"GP-ARD-FS \+ GP cannot keep the groups .* leave-one-group-out"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            P.Adaptation(who="GP-ARD-FS + GP").fit(sel, X, y, groups)
