"""A researcher's own study through the leaderboard and the paper notebooks (issue 37): small studies adapt by one
rule or say "not applicable at this size", grouped samples stay together in the cells' splits, counts take the
count route in every load function, and parameter values are checked against each notebook's declarations before
anything runs."""

import numpy as np
import pandas as pd
import pytest

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _subset_csv(folder, name, n_per_class, n_genes=150, seed=0, groups=None):
    """Samples of Alon's colon (``n_per_class``: {class: count}) on its ``n_genes`` most variable genes, as a CSV with
    a column ``class``; returns its reference string."""
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    lab = np.asarray(ds.classes)[(ds.y > 0).astype(int)]
    rng = np.random.default_rng(seed)
    idx = np.sort(np.concatenate([rng.choice(np.flatnonzero(lab == c), k, replace=False)
                                  for c, k in n_per_class.items()]))
    genes = np.sort(np.argsort(-np.var(np.log(ds.X), axis=0))[:n_genes])
    frame = pd.DataFrame(ds.X[np.ix_(idx, genes)], index=[f"s{i}" for i in idx], columns=ds.gene_ids[genes])
    frame.insert(0, "class", lab[idx])
    path = folder / name
    frame.to_csv(path)
    return f"{path}?label=class"


# ------------------------------------------------------------------------------------------------ small studies


def test_a_17_sample_study_runs_msvm_rfe_and_knn_adapted(mirror, tmp_path):
    """The study of the issue (9 vs 8): MSVM-RFE refused its 5 internal folds ("n_folds=5 exceeds the size of the
    smallest class (3)") and k-NN its k = 9 ("n_neighbors = 9, n_samples_fit = 7"). Both now run, each saying what
    adapted: MSVM-RFE's folds to the smallest class of the part it is fitted on, k-NN's grid to k <= that class."""
    from genesel.experiments.protocols import smallest_class
    from genesel.leaderboard import cells as C

    ref = _subset_csv(tmp_path, "geo17.csv", {"tumour": 9, "normal": 8})
    assert C.outer_folds(ref, 3) == 3
    task = C.load(ref, None, None)
    for method in ("MSVM-RFE + SVM", "kNN (all genes)"):
        for fold in range(3):
            row = C.cv_cell(ref, method, 0, fold, 3, 3, 0, True)
            assert "not_applicable" not in row and row["n_test"] > 0, (method, row.get("not_applicable"))
            tr, _, inner = C.nested_cv(task.y, 3, 3, 0)[fold]
            small = min(smallest_class(task.y[a]) for a, _ in inner)
            if method == "MSVM-RFE + SVM":
                requested, lo, hi = row["adapted"]["MSVMRFE.n_folds"]
                assert requested == 5 and lo == small and hi <= smallest_class(task.y[tr])
            else:
                assert row["adapted"] == {"grid (estimator)": ['{"k": 9}']}  # quick grid: k in {1, 9}
                assert all(k <= small for k in [1])


def test_a_class_of_three_runs_or_says_not_applicable(mirror, tmp_path):
    """12 samples, a class of 3: the outer folds keep 2 of it in each training part, the inner folds 1. Methods whose
    internal folds or per-class spread need 2 (MSVM-RFE, the Fisher filter) are not applicable at this size, with
    the reason, in the league table; the others run."""
    from genesel.leaderboard import cells as C
    from genesel.leaderboard import summary as S
    from genesel.leaderboard import tables as T

    ref = _subset_csv(tmp_path, "nine_three.csv", {"tumour": 9, "normal": 3}, n_genes=60)
    methods = ["MSVM-RFE + SVM", "Fisher + SVM", "SVM (all genes)", "kNN (all genes)"]
    cells = C.cv_cells([ref], methods, n_repeats=1, n_folds=5, inner_k=3, seed=0, quick=True)
    assert {c["n_folds"] for c in cells} == {3}  # 5 requested, the smallest class has 3
    res = pd.DataFrame([{**c, **C.cv_cell(**c)} for c in cells])
    ran, na = S.applicable(res)
    assert set(na["method"]) == {"MSVM-RFE + SVM", "Fisher + SVM"}
    assert na.set_index("method").loc["MSVM-RFE + SVM", "reason"].startswith(
        "not applicable at this size: MSVMRFE.n_folds: its internal folds need 2 samples of each class")
    league = T.league_table(S.summarise(res), ref, na)
    assert list(league.index[-2:]) == ["MSVM-RFE + SVM", "Fisher + SVM"]
    assert league.loc["Fisher + SVM", "error % (± sd over folds)"].startswith("not applicable at this size")
    assert set(S.summarise(res)["method"]) == {"SVM (all genes)", "kNN (all genes)"}
    plan = T.plan_table([ref], methods, n_folds=5, inner_k=3, n_repeats=1, seed=0, quick=True)
    assert plan.iloc[0]["outer folds"].startswith("3 (5 requested; smallest class 3)")
    assert "MSVM-RFE + SVM: not applicable at this size" in plan.iloc[0]["what adapted"]


def test_guyons_curves_on_a_class_of_three_say_what_could_not_run(mirror, tmp_path):
    """Notebook 01 on 12 samples with a class of 3 stopped with "each class needs at least 2 sample(s) here": its
    half/half split keeps 2 of the class for training, and leaving one out leaves the baseline's signal-to-noise
    ratio a single sample. The curves now run: SVM-RFE everywhere, the baseline on the test set, its leave-one-out
    measures NaN with the reason; with 1 of the class in training the baseline is not applicable at all."""
    from genesel.papers import guyon2002 as G
    from genesel.papers import guyon2002_report as R

    ref = _subset_csv(tmp_path, "nine_three.csv", {"tumour": 9, "normal": 3}, n_genes=64)
    kw = dict(split="half", seed=0, max_size=8)
    svm = pd.DataFrame(G.guyon2002_curves(ref, "svm-rfe", C=100.0, step="halving", **kw))
    base = pd.DataFrame(G.guyon2002_curves(ref, "baseline", C=None, step=None, **kw))
    assert svm["V_suc"].notna().all() and svm["T_suc"].notna().all() and "not_applicable" not in svm
    assert base["V_suc"].isna().all() and base["T_suc"].notna().all()
    notes = R.not_applicable_notes(base)
    assert notes == ["leave-one-out not applicable at this size: the training part's smaller class has 2 sample(s), "
                     "the baseline (signal-to-noise, weighted voting) needs 3 (one left out)"]
    one = _subset_csv(tmp_path, "ten_two.csv", {"tumour": 10, "normal": 2}, n_genes=64)  # 1 normal in training
    rows = pd.DataFrame(G.guyon2002_curves(one, "baseline", C=None, step=None, **kw))
    assert rows["T_suc"].isna().all() and R.not_applicable_notes(rows)[0].startswith("not applicable at this size")


def test_a_class_of_two_is_refused_naming_it(mirror, tmp_path):
    """18 + 2 failed inside the cells with "y holds a single class ... use stratified splits" although the folds were
    stratified; it is refused before anything runs, naming the class and what the protocol needs."""
    from genesel.leaderboard import cells as C

    ref = _subset_csv(tmp_path, "eighteen_two.csv", {"tumour": 18, "normal": 2}, n_genes=30)
    with pytest.raises(ValueError, match=r"class 'normal' has 2 samples; the leaderboard's nested protocol needs at "
                                         r"least 3 in every class"):
        C.cv_cells([ref], ["SVM (all genes)"], n_repeats=1, n_folds=3, inner_k=3, seed=0, quick=True)


# ------------------------------------------------------------------------------------------------ grouped cells


def test_the_leaderboard_cells_keep_every_pair_together(mirror, tmp_path, monkeypatch):
    """Notebook 06's cells on a paired study (tests/study_files.pairs): the outer split, every inner split and every
    bootstrap sample with its inner folds, as the cells hand them to the protocol, keep each patient on one side;
    a row's test_idx counts the Dataset's own samples (their order in the file as read)."""
    from study_files import pairs

    from genesel.datasets import load_dataset
    from genesel.leaderboard import cells as C

    path = pairs(tmp_path)
    ref = f"{path}?label=tissue&groups=patient"
    ds = load_dataset(ref)
    g = np.asarray(ds.groups)
    seen = []
    monkeypatch.setattr(C, "run_split", lambda m, X, y, tr, te, inner, **kw: seen.append((tr, te, inner)) or
                        dict(test_idx=[int(i) for i in te]))
    rows = [C.cv_cell(ref, "SVM (all genes)", r, f, 3, 3, 0, True, 50) for r in range(2) for f in range(3)]
    rows += [C.boot_cell(ref, "SVM (all genes)", b, 3, 0, True, 50) for b in range(-1, 4)]
    assert len(seen) == 11
    for tr, te, inner in seen:
        if te is not tr:  # boot=-1 tests on its own training part (the apparent error)
            assert not set(g[tr]) & set(g[te])
        for a, b in inner:
            assert not set(g[a]) & set(g[b])
    for r in range(2):  # the test folds of a repeat: every sample once, whole patients
        idx = np.concatenate([rows[3 * r + f]["test_idx"] for f in range(3)])
        assert np.array_equal(np.sort(idx), np.arange(ds.n_samples))
    assert C.load(ref, None, 50).X.shape == (44, 50) and ds.sample_ids[0] == pd.read_csv(path).iloc[0, 0]


def test_the_grouped_splits_note_names_the_selectors_that_resample_by_group(mirror, tmp_path):
    """Notebook 06's note under a grouped study's league table says the splits keep groups together and names the
    selectors whose own resampling inside a training part now draws groups too (tests/test_selector_groups.py);
    each name is a method of the board."""
    from study_files import pairs

    from genesel.leaderboard.catalogue import method_names
    from genesel.leaderboard.tables import splits_note

    note = splits_note(f"{pairs(tmp_path)}?label=tissue&groups=patient", 50)
    assert note.startswith("Splits grouped by 'patient' (22 groups)")
    for name in ("MSVM-RFE", "GP-ARD-FS", "GP-ARD-RFE", "RF var. sel."):
        assert name in note and any(m.startswith(name) for m in method_names("binary"))
    assert "draw whole groups too" in note and "draws take samples" not in note
    assert splits_note("alon", 50).startswith("Splits sample by sample")


# ------------------------------------------------------------------------------------------------ the count route


def _count_files(folder, deeper=None):
    """Alon's intensities as Poisson counts (tests/study_files.counts), optionally with one sample's counts times 10
    (deeper sequencing), as a samples x genes CSV; returns its reference string."""
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    rng = np.random.default_rng(0)
    X = np.clip(np.asarray(ds.X, float), 5, None)[:, :400]
    C = rng.poisson(X / X.sum(axis=1, keepdims=True) * rng.uniform(2e5, 8e5, ds.n_samples)[:, None])
    if deeper is not None:
        C[deeper] *= 10
    frame = pd.DataFrame(C, index=[f"S{i}" for i in range(ds.n_samples)], columns=ds.gene_ids[:400])
    frame.insert(0, "tissue", np.asarray(ds.classes)[(ds.y > 0).astype(int)])
    path = folder / ("deeper.csv" if deeper is not None else "counts.csv")
    frame.to_csv(path)
    return f"{path}?label=tissue"


def test_counts_take_the_count_route_in_every_load_function(mirror, tmp_path):
    """A count matrix through notebook 06's load (genesel.leaderboard.cells.load) and the paper notebooks' (05a's
    pipeline, genesel.papers.common.paper_preprocessing, load_task's gene filter): normalised by library size inside
    each training part, so a sample sequenced 10 times deeper keeps its profile and the quick filter its genes.
    Before, notebook 06 z-scored the raw counts: the deeper sample's profile moved by several sd."""
    from genesel.datasets import load_dataset
    from genesel.leaderboard.cells import load
    from genesel.papers import tan2006_ch3
    from genesel.papers.common import load_task, paper_preprocessing
    from genesel.preprocessing import GeneStandardizer

    plain, deeper = _count_files(tmp_path), _count_files(tmp_path, deeper=50)
    assert load_dataset(plain).scale == "counts"
    a, b = load(plain, None, 100), load(deeper, None, 100)
    assert np.array_equal(a.gene_ids, b.gene_ids), "the quick filter ranks genes on normalised counts"
    assert "counts" in dict(a.prep.steps) and "counts normalised by library size" in a.note
    train = np.arange(40)
    pa, pb = a.prep.fit(a.X[train]), b.prep.fit(b.X[train])
    # the deeper sample (a test sample here): the same log2 CPM profile, up to one shift, its TMM factor's small move
    # with depth (precision weights grow with it; Robinson & Oshlack's factor is not exactly depth-invariant)
    shift = (pb.transform(b.X[50:51]) - pa.transform(a.X[50:51]))[0] * pa.named_steps["standardize"].scale_
    assert np.ptp(shift) < 1e-3 and abs(shift[0]) < 0.1, (np.ptp(shift), shift[0])  # (the prior count: not exact)
    # the old route (per-gene z-scores of the counts as given) moves the deeper sample far
    za, zb = GeneStandardizer().fit(a.X[train]), GeneStandardizer().fit(b.X[train])
    assert np.abs(za.transform(a.X[50:51]) - zb.transform(b.X[50:51])).max() > 1
    for route in (paper_preprocessing(deeper, GeneStandardizer()), tan2006_ch3._pipeline(deeper, None)[0]):
        names = [n for n, _ in route.steps] if hasattr(route, "steps") else []
        assert "scale" in names and "counts" in dict(route.named_steps["scale"].steps)
    assert np.array_equal(load_task(plain, 100).gene_ids, load_task(deeper, 100).gene_ids)
    assert paper_preprocessing("alon", GeneStandardizer()).__class__ is GeneStandardizer  # registered: the paper's own


# ------------------------------------------------------------------------------------------------ parameter values


def _notebooks():
    return sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("path", _notebooks(), ids=[p.stem for p in _notebooks()])
def test_every_declared_range_parses_and_every_default_is_within_it(path):
    from genesel.papers.presentation import check_value, parameter_spec
    from genesel.records.runner import notebook_parameters

    declared = notebook_parameters(path)
    assert "groups" in declared and declared["scale"]["default"] == "auto"
    ranged = 0
    for name, d in declared.items():
        spec = parameter_spec(d["default"], d["type"], d["help"])
        ranged += bool(spec["bounds"] or spec["choices"])
        check_value(name, d["default"], spec, d["default"])
    assert ranged >= 2, "declare the ranges of the numeric and choice parameters, e.g. '# type: int [≥ 2] ...'"


@pytest.mark.parametrize("params, message", [
    ({"n_folds": -3}, r"06_leaderboard: parameter 'n_folds' = -3 is out of its range \[≥ 2\]; papermill -p n_folds 2"),
    ({"n_boot": 0}, r"parameter 'n_boot' = 0 is out of its range \[≥ 1\]; papermill -p n_boot 1"),
    ({"n_folds": 2.5}, r"parameter 'n_folds' must be int \(or None: the mode decides\), got float 2.5"),
    ({"scale": "logged"}, r"parameter 'scale': 'logged' is not one of auto, log, raw-intensity, counts"),
    ({"seed": -1, "inner_k": 1},
     r"(?=.*'seed' = -1 is out of its range \[≥ 0\])(?=.*'inner_k' = 1 is out of its range)"),
])
def test_bad_values_are_refused_before_anything_runs(params, message):
    """`-p n_folds -3` ended in an AttributeError deep in the notebook, `-p n_boot 0` after every CV cell had run.
    The runner refuses them before papermill starts; the notebook's first cell does the same in JupyterLab."""
    from genesel.papers.presentation import check_parameter_values
    from genesel.records.runner import check_parameters

    nb = ROOT / "notebooks" / "06_leaderboard.ipynb"
    with pytest.raises(ValueError, match=message):
        check_parameters(nb, params)
    with pytest.raises(ValueError, match=message.split(": ", 1)[-1] if message.startswith("06") else message):
        check_parameter_values("06_leaderboard", {"quick": True, **params})
    check_parameters(nb, {"n_folds": 4, "n_boot": 10, "scale": "counts", "datasets": '["golub"]', "seed": 0})


def test_list_and_float_ranges_and_their_syntax():
    from genesel.papers.presentation import check_values

    declared = {"alphas": {"default": None, "type": "list", "help": "[> 0, ≤ 1] ALMA's alpha"},
                "test_fraction": {"default": 0.1, "type": "float", "help": "[> 0, < 1] held out"},
                "variants": {"default": None, "type": "list", "help": "[one of: merged, train-only] which"}}
    check_values({"alphas": "[0.5, 1]", "test_fraction": 0.25, "variants": ["merged"]}, declared)
    with pytest.raises(ValueError, match=r"'alphas' = 1.5 is out of its range \[> 0, ≤ 1\]; papermill -y "
                                         r"'alphas: \[0.5\]'"):
        check_values({"alphas": [0.6, 1.5]}, declared)
    with pytest.raises(ValueError, match=r"'test_fraction' = 1 is out of its range \[> 0, < 1\]; papermill -p "
                                         r"test_fraction 0.1"):
        check_values({"test_fraction": 1}, declared)
    with pytest.raises(ValueError, match=r"'variants': 'both' is not one of merged, train-only"):
        check_values({"variants": "[both]"}, declared)


def test_a_class_whose_samples_are_all_in_one_group_is_refused_by_name(tmp_path):
    """Two patients, each giving all the samples of one class: no split that keeps a patient together can put a class
    on both sides, so notebook 01 stopped in its time estimate with "could not draw whole groups making a training
    set of at most 10 samples holding every class". The parameter check names each class and its one group; a
    third patient holding both classes lets the file through (counted by hand)."""
    from genesel.papers.presentation import dataset_list

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(7, 1, (20, 30)), index=[f"s{i}" for i in range(20)],
                         columns=[f"g{j}" for j in range(30)])
    frame.insert(0, "class", ["tumour"] * 10 + ["normal"] * 10)
    frame.insert(1, "patient", ["A"] * 10 + ["B"] * 10)
    path = tmp_path / "two_patients.csv"
    frame.to_csv(path)
    with pytest.raises(ValueError, match=r"every sample of 'normal' \(10\) is in group 'B'; every sample of 'tumour' "
                                         r"\(10\) is in group 'A'.*at least two groups \(2 groups in all\)"):
        dataset_list(str(path), ["alon"], label="class", groups="patient")
    frame["patient"] = ["A"] * 7 + ["C"] * 6 + ["B"] * 7  # C: three tumours and three normals
    frame.to_csv(path)
    assert dataset_list(str(path), ["alon"], label="class", groups="patient")


def test_a_transfer_target_of_another_platform_is_told_the_sources_parameter(mirror, tmp_path):
    """Notebook 03 on a researcher's file (Alon's colon probes) against its default sources (the prostate studies,
    HG-U95Av2) stopped with "share 0 gene IDs", without saying that the sources can be chosen. Its message now names
    the sources parameter; a file of the prostate platform, with those sources, aligns."""
    from genesel.papers import helleputte2009_report as R

    colon = _subset_csv(tmp_path, "colon.csv", {"tumour": 6, "normal": 6})
    with pytest.raises(ValueError, match=r"share 0 gene IDs.*give them with the sources parameter, e.g. -y "
                                         r"'sources: \[/path/to/source_study.csv\]'"):
        R.transfer_studies([colon], ["welsh", "singh"])
    from genesel.datasets import load_dataset

    ds = load_dataset("welsh")
    frame = pd.DataFrame(ds.X[:, :400], index=ds.sample_ids, columns=ds.gene_ids[:400])
    frame.insert(0, "class", np.asarray(ds.classes)[(ds.y > 0).astype(int)])
    frame.to_csv(tmp_path / "prostate.csv")
    aligned = R.transfer_studies([f"{tmp_path / 'prostate.csv'}?label=class"], ["singh"])
    assert [d.n_genes for d in aligned.values()] == [400, 400]


def test_the_overview_takes_every_class_and_a_notebook_may_say_why_it_takes_two(tmp_path):
    """Notebook 00 has no methods; given a 3-class file it said "This notebook's methods are binary", later that its
    class bars and heatmap show two classes. It now shows every class (``classes="all"``, ``binary=False``: the
    file's three classes read, coded 0..2); a notebook that takes two may still give its own reason, and the paper
    notebooks keep their sentence."""
    from genesel.datasets import load_dataset
    from genesel.papers.presentation import dataset_list

    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(7, 1, (15, 20)), index=[f"s{i}" for i in range(15)],
                         columns=[f"g{j}" for j in range(20)])
    frame.insert(0, "tissue", ["a", "b", "c"] * 5)
    path = tmp_path / "three.csv"
    frame.to_csv(path)
    (ref,) = dataset_list(str(path), ["alon"], label="tissue", classes="all", binary=False)
    ds = load_dataset(ref)
    assert ds.classes == ("a", "b", "c") and sorted(set(ds.y.tolist())) == [0, 1, 2]
    reason = "This overview's class bars and signal-to-noise heatmap show two classes"
    with pytest.raises(ValueError, match=rf"has 3 classes: a \(5\), b \(5\), c \(5\)\. {reason}: choose two"):
        dataset_list(str(path), ["alon"], label="tissue", binary=reason)
    with pytest.raises(ValueError, match=r"\. This notebook's methods are binary: choose two"):
        dataset_list(str(path), ["alon"], label="tissue")
