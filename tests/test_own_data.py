"""Your own data, end to end (issue 22): the log transform recognises values already on a log scale, the first
pipeline a user writes composes on every kind of registered set and on a file, missing values are imputed inside the
training folds only, and the README's commands run."""

import logging
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score, cross_validate
from sklearn.pipeline import make_pipeline

from data_fetch.registry import DATASETS, MEASURES, SCALES
from genesel import GeneStandardizer, LinearSVM, LogTransform, SVMRFE
from genesel.preprocessing import GEO2R_QUANTILES, needs_log

ROOT = Path(__file__).resolve().parents[1]

#: Registered sets of raw intensities (their registry entries' ``scale``; ``log`` their customary transform).
RAW = tuple(n for n, s in DATASETS.items() if s.scale == "raw")
#: Registered sets published already on a log or standardised scale, or of fractions: "LogTransform(floor=20)" made
#: them constant ("SVMRFE: every one of the N gene(s) is constant").
LOGGED = tuple(n for n, s in DATASETS.items() if s.scale != "raw")
#: Raw HG-U133A sets whose recommended preprocessing has no log step yet: the committed leaderboard run standardised
#: their raw values (a log changes its numbers on chowdary and borovecki; nakayama is multi-class, not in it)
RAW_WITHOUT_LOG = {"chowdary", "borovecki", "nakayama"}


@pytest.mark.registration("dataset", "scale", "log")
def test_every_registered_set_declares_the_facts_of_its_values():
    """Each DatasetSpec says what its values are (``scale``), what they measure, and, for raw intensities, the log
    transform its recommended preprocessing applies (LogTransform's own arguments)."""
    params = set(LogTransform._get_param_names())
    for name, spec in DATASETS.items():
        assert spec.scale in SCALES, f"data_fetch/registry.py: {name} needs scale= one of {SCALES}"
        assert spec.measures in MEASURES, f"data_fetch/registry.py: {name} needs measures= one of {MEASURES}"
        if spec.log is not None:
            assert spec.scale == "raw", f"{name}: a log transform for values on a {spec.scale} scale"
            assert set(spec.log) <= params, f"{name}: log={spec.log} names no LogTransform parameter"
    assert {n for n in RAW if DATASETS[n].log is None} == RAW_WITHOUT_LOG


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_the_declared_scale_is_the_scale_of_the_values(mirror, name):
    """The registry's ``scale`` against the values, by GEO2R's rule: raw intensities need a log, nothing else does."""
    from genesel.datasets import load_dataset

    assert needs_log(load_dataset(name).X)[0] == (DATASETS[name].scale == "raw"), \
        f"{name}: scale={DATASETS[name].scale!r} in data_fetch/registry.py, but GEO2R's rule says otherwise"


def _r_quantile(values, p):
    """R's default quantile (type 7), written out: h = (n - 1) p, interpolate between the order statistics."""
    x = np.sort(np.asarray(values, dtype=float).ravel())
    h = (x.size - 1) * p
    lo = int(np.floor(h))
    hi = min(lo + 1, x.size - 1)
    return x[lo] + (h - lo) * (x[hi] - x[lo])


def _geo2r(values):
    """GEO2R's LogC, transcribed from its R script with the R quantiles above (qx[1..6] in R's 1-based indexing)."""
    qx = [None] + [_r_quantile(values, p) for p in (0.0, 0.25, 0.5, 0.75, 0.99, 1.0)]
    return (qx[5] > 100) or (qx[6] - qx[1] > 50 and qx[2] > 0) or (qx[2] > 0 and qx[2] < 1 and qx[4] > 1 and qx[4] < 2)


# ------------------------------------------------------------------------------------------------ the log decision


@pytest.mark.parametrize("seed", range(40))
def test_the_decision_is_geo2rs_rule(seed):
    """Against a transcription of GEO2R's R code on matrices of every kind: raw intensities (with MAS negatives),
    log2 values, z-scores, unlogged ratios, small counts."""
    rng = np.random.default_rng(seed)
    kind = seed % 5
    n, d = rng.integers(3, 30), rng.integers(2, 40)
    if kind == 0:
        X = rng.lognormal(rng.uniform(2, 7), rng.uniform(0.5, 2), (n, d)) - rng.uniform(0, 200)
    elif kind == 1:
        X = rng.normal(rng.uniform(4, 10), rng.uniform(0.5, 3), (n, d))
    elif kind == 2:
        X = rng.normal(size=(n, d)) * rng.uniform(0.1, 20)
    elif kind == 3:
        X = rng.lognormal(0, rng.uniform(0.2, 0.8), (n, d))
    else:
        X = rng.poisson(rng.uniform(1, 60), (n, d)).astype(float)
    raw, q = needs_log(X)
    assert raw == _geo2r(X)
    np.testing.assert_allclose(q, [_r_quantile(X, p) for p in GEO2R_QUANTILES], rtol=1e-12, atol=1e-12)
    assert LogTransform().fit(X).already_log_ == (not raw)


def test_the_decision_is_learned_on_the_training_part_only():
    rng = np.random.default_rng(0)
    logged = rng.normal(8, 2, (20, 30))
    raw = 2.0 ** logged
    t = LogTransform().fit(logged)
    assert t.already_log_ and np.array_equal(t.transform(raw), raw)  # the test part's scale decides nothing
    t = LogTransform(floor=1).fit(raw)
    assert not t.already_log_
    np.testing.assert_array_equal(t.transform(logged), np.log(np.clip(logged, 1, np.inf)) / np.log(10))


def test_either_behaviour_can_be_forced():
    rng = np.random.default_rng(1)
    logged = rng.normal(8, 2, (20, 30))
    raw = 2.0 ** logged
    assert np.array_equal(LogTransform(already_log=True).fit(raw).transform(raw), raw)
    forced = LogTransform(floor=1, already_log=False).fit(logged)
    assert not forced.already_log_
    np.testing.assert_array_equal(forced.transform(logged), np.log(np.clip(logged, 1, np.inf)) / np.log(10))
    with pytest.raises(ValueError, match="'already_log' parameter of LogTransform must be"):
        LogTransform(already_log="yes").fit(raw)


def test_the_floor_can_be_a_training_quantile():
    rng = np.random.default_rng(2)
    raw = rng.lognormal(5, 2, (30, 20))
    t = LogTransform(floor=1.0, floor_quantile=0.05).fit(raw[:20])
    assert t.floor_ == max(1.0, _r_quantile(raw[:20], 0.05))
    np.testing.assert_array_equal(t.transform(raw), np.log(np.clip(raw, t.floor_, np.inf)) / np.log(10))


def test_a_pass_through_is_said_once_not_warned_per_fit(caplog):
    import warnings

    rng = np.random.default_rng(3)
    logged = rng.normal(7, 1, (12, 17))
    with caplog.at_level(logging.INFO, logger="genesel"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            LogTransform().fit(logged)
        LogTransform().fit(2.0 ** (logged + 3))  # raw: nothing to say
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("LogTransform")]
    assert len(said) == 1 and "passed through unchanged (already_log_=True)" in said[0], said
    assert "12 samples x 17 genes" in said[0] and "already_log=False" in said[0]


@pytest.mark.parametrize("name", RAW)
def test_registered_raw_sets_are_logged_bit_for_bit_as_before(mirror, name):
    """The old LogTransform was np.log(np.clip(X, floor, ceiling)) / np.log(base), on every input: on every
    registered set of raw intensities the new one decides to log and gives those numbers to the bit, with the
    default parameters and with the data set's recommended ones."""
    from genesel.datasets import load_dataset, recommended_preprocessing

    X = load_dataset(name).X
    log = DATASETS[name].log
    for params in ({}, log or {}):
        floor, ceiling = params.get("floor", 20.0), params.get("ceiling", None)
        t = LogTransform(**params).fit(X)
        assert not t.already_log_, (name, t.quantiles_)
        expected = np.log(np.clip(X, floor, ceiling if ceiling is not None else np.inf)) / np.log(10.0)
        assert np.array_equal(t.transform(X), expected), params
    if log is not None:
        step = recommended_preprocessing(name).named_steps["log"]
        assert np.array_equal(step.fit_transform(X), np.log(np.clip(
            X, log["floor"], log.get("ceiling", np.inf))) / np.log(10.0))
    else:
        assert "log" not in recommended_preprocessing(name).named_steps


@pytest.mark.parametrize("name", LOGGED)
def test_registered_log_scale_sets_pass_through(mirror, name):
    from genesel.datasets import load_dataset

    X = load_dataset(name).X
    t = LogTransform().fit(X)
    assert t.already_log_ and np.array_equal(t.transform(X), X)
    assert not needs_log(X)[0]


# ------------------------------------------------------------------------------------------------ the first pipeline


def _pipeline():
    return make_pipeline(LogTransform(), GeneStandardizer(), SVMRFE(n_features_to_select=16), LinearSVM())


def _majority(y):
    return max(np.mean(y == 1), np.mean(y == -1))


@pytest.mark.parametrize("name", ["alon", "armstrong", "chiaretti"])
def test_the_first_pipeline_beats_the_majority_rate(mirror, name):
    """Raw intensities (Alon), log2 values (Armstrong, Chiaretti) in 5-fold stratified CV. Before, the log-scale
    sets failed: "SVMRFE: every one of the N gene(s) is constant". benchmarks/own_data_pipeline.py runs every
    registered binary set."""
    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    acc = cross_val_score(_pipeline(), ds.X, ds.y, cv=StratifiedKFold(5, shuffle=True, random_state=0))
    assert acc.mean() > _majority(ds.y) + 0.1, (name, acc)


def test_the_first_pipeline_on_a_file_gives_the_registered_sets_numbers(mirror, tmp_path):
    """Alon written out as a genes x samples TSV with a sample sheet, read back, in the same pipeline and folds:
    the same fold accuracies to the bit."""
    from genesel.datasets import load_dataset

    ds = load_dataset("alon")
    labels = np.asarray(ds.classes)[(ds.y > 0).astype(int)]
    pd.DataFrame(ds.X.T, index=pd.Index(ds.gene_ids, name="probe"), columns=ds.sample_ids).to_csv(
        tmp_path / "colon.tsv", sep="\t")
    pd.DataFrame({"sample": ds.sample_ids, "tissue": labels}).to_csv(tmp_path / "sheet.csv", index=False)
    mine = load_dataset(tmp_path / "colon.tsv", label=str(tmp_path / "sheet.csv"))
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    a = cross_val_score(_pipeline(), ds.X, ds.y, cv=cv)
    b = cross_val_score(_pipeline(), mine.X, mine.y, cv=cv)
    assert np.array_equal(a, b) and a.mean() > _majority(ds.y)


# ------------------------------------------------------------------------------------------------ missing values


def _file_with_missing(ds, folder, name, poison_rows=None, seed=0):
    """A samples x genes CSV of ``ds`` with 3 % of its values missing; ``poison_rows``: those samples' values
    replaced by garbage (huge, and other values missing)."""
    rng = np.random.default_rng(seed)
    X = np.array(ds.X, dtype=float)
    X[rng.random(X.shape) < 0.03] = np.nan
    if poison_rows is not None:
        bad = np.random.default_rng(99).lognormal(12, 3, (len(poison_rows), X.shape[1]))
        bad[np.random.default_rng(98).random(bad.shape) < 0.2] = np.nan
        X[poison_rows] = bad
    frame = pd.DataFrame(X, index=pd.Index(ds.sample_ids, name="sample"), columns=ds.gene_ids)
    frame.insert(0, "class", np.asarray(ds.classes)[(ds.y > 0).astype(int)])
    path = folder / name
    frame.to_csv(path)
    return f"{path}?label=class"


def test_missing_values_stay_missing_and_are_imputed_inside_training_folds(mirror, tmp_path):
    """The training part's imputed (and logged, standardised) values are the same whatever the test samples hold:
    the same file with its test rows replaced by garbage gives the same fitted preprocessing to the bit. Imputing
    over the whole file when it is read (impute='knn', the old default) lets the test rows in: the training
    values change."""
    from genesel.datasets import load_dataset, recommended_preprocessing

    alon = load_dataset("alon").subset(genes=np.arange(300))
    (tr, te), = list(StratifiedKFold(4, shuffle=True, random_state=0).split(alon.X, alon.y))[:1]
    clean = _file_with_missing(alon, tmp_path, "clean.csv")
    dirty = _file_with_missing(alon, tmp_path, "dirty.csv", poison_rows=te)
    a, b = load_dataset(clean), load_dataset(dirty)
    assert np.isnan(a.X).any() and a.extra["missing_values"] == int(np.isnan(a.X).sum())
    prep_a, prep_b = recommended_preprocessing(clean), recommended_preprocessing(dirty)
    assert [s for s, _ in prep_a.steps] == ["log", "impute", "standardize"]
    out_a = prep_a.fit(a.X[tr]).transform(a.X[tr])
    out_b = prep_b.fit(b.X[tr]).transform(b.X[tr])
    assert np.isfinite(out_a).all() and np.array_equal(out_a, out_b)
    assert prep_a["log"].floor_ == prep_b["log"].floor_  # learned on the training rows too
    # the contrast: imputed once over the whole file, the training rows' filled values depend on the test rows
    whole_a = load_dataset(clean, impute="knn").X[tr]
    whole_b = load_dataset(dirty, impute="knn").X[tr]
    assert not np.array_equal(whole_a, whole_b)
    with pytest.raises(ValueError, match="impute must be 'auto', 'knn' or None, got 'mean'"):
        load_dataset(clean, impute="mean")


def test_a_file_with_missing_values_in_cross_validation(mirror, tmp_path):
    from genesel.datasets import load_dataset, recommended_preprocessing

    alon = load_dataset("alon").subset(genes=np.arange(500))
    ref = _file_with_missing(alon, tmp_path, "colon_na.csv")
    ds = load_dataset(ref)
    pipe = make_pipeline(recommended_preprocessing(ref), SVMRFE(n_features_to_select=16, step=0.1), LinearSVM())
    res = cross_validate(pipe, ds.X, ds.y, cv=StratifiedKFold(5, shuffle=True, random_state=0))
    assert res["test_score"].mean() > _majority(ds.y)
    # the pipeline without the imputer says what to add
    with pytest.raises(ValueError, match=r"GeneStandardizer: X contains \d+ missing value\(s\).*MissingValueImputer"):
        _pipeline().fit(ds.X, ds.y)


# ------------------------------------------------------------------------------------------------ the README section

#: The README's "Your own data" example (section "Your own data"); test_readme_example runs it on a file written
#: from a registered set, and test_the_readme_holds_the_tested_example checks the README holds the same lines.
README_EXAMPLE = """\
from sklearn.model_selection import StratifiedGroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from genesel import SVMRFE, LinearSVM
from genesel.datasets import load_dataset, preprocessing_note, recommended_preprocessing

# the file, the column holding the classes, and the one naming each sample's patient (kept together in every split)
ds = load_dataset("my_study.csv", label="class", groups="patient")
print(preprocessing_note(ds))  # raw intensities are logged, counts normalised by library size: inside each fold
model = make_pipeline(recommended_preprocessing(ds), SVMRFE(n_features_to_select=16, step=0.1), LinearSVM())
cv = StratifiedGroupKFold(5, shuffle=True, random_state=0)  # no patient on both sides of a split
print(cross_val_score(model, ds.X, ds.y, groups=ds.groups, cv=cv).mean())
print(ds.gene_ids[model.fit(ds.X, ds.y)[1].get_support()])  # the 16-gene signature, fit on all samples
"""


def test_readme_example(mirror, tmp_path, monkeypatch, capsys):
    """The example on a paired count study (tests/study_files.pairs: Alon's normal samples each with a tumour sample
    of one patient, turned into Poisson counts at library sizes varying four-fold): it states the count decision,
    its folds keep every patient together, and it beats the larger class."""
    from study_files import pairs

    assert len([ln for ln in README_EXAMPLE.splitlines() if ln.strip()]) <= 12
    frame = pd.read_csv(pairs(tmp_path, strength=0.3), index_col=0)
    X = frame.drop(columns=["tissue", "patient"]).to_numpy()
    rng = np.random.default_rng(0)
    counts = rng.poisson(X / X.sum(axis=1, keepdims=True) * rng.uniform(5e5, 2e6, (len(X), 1)))
    study = pd.DataFrame(counts, index=frame.index, columns=frame.columns[2:])
    study.insert(0, "patient", frame["patient"])
    study.insert(0, "class", frame["tissue"])
    study.to_csv(tmp_path / "my_study.csv")
    monkeypatch.chdir(tmp_path)
    exec(compile(README_EXAMPLE, "README", "exec"), {})
    note, acc, genes = capsys.readouterr().out.split("\n", 2)
    assert "counts normalised by library size" in note
    assert float(acc) > 0.6
    assert len(re.findall(r"'[^']+'", genes)) == 16
    from sklearn.model_selection import StratifiedGroupKFold

    g = study["patient"].to_numpy()
    for tr, te in StratifiedGroupKFold(5, shuffle=True, random_state=0).split(counts, study["class"], g):
        assert not set(g[tr]) & set(g[te])


def test_the_readme_holds_the_tested_example():
    text = (ROOT / "README.md").read_text()
    assert "## Your own data" in text, "the README lost its 'Your own data' section"
    section = text.split("Your own data", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert block == README_EXAMPLE


#: The README's command that runs a paper's protocol (notebook 05a, Tan 2006 ch. 3) on a user's file.
README_COMMAND = """make run NB=05a ARGS="-y 'datasets: [$PWD/my_study.csv]' -p label class\""""


def test_readme_notebook_command_parameters(mirror, tmp_path):
    """The command's ARGS, split as the shell splits them (with $PWD expanded), parsed by the notebook runner as
    `make run` passes them, are parameters notebook 05a has, and its data-set parameter resolves them to a
    two-class file reference that loads."""
    from genesel.records.runner import check_parameters, notebook_paths, parse_parameters
    from genesel.papers.presentation import dataset_list

    make_args = shlex.split(README_COMMAND)
    assert make_args[:3] == ["make", "run", "NB=05a"]
    args = shlex.split(make_args[3].split("=", 1)[1].replace("$PWD", str(tmp_path)))
    ys = [args[i + 1] for i, a in enumerate(args) if a == "-y"]
    ps = [(args[i + 1], args[i + 2]) for i, a in enumerate(args) if a == "-p"]
    params = parse_parameters(ps, ys)
    assert params == {"datasets": [f"{tmp_path}/my_study.csv"], "label": "class"}
    nb, = notebook_paths(["05a"])
    check_parameters(nb, params)
    from genesel.datasets import load_dataset

    alon = load_dataset("alon")
    frame = pd.DataFrame(alon.X[:, :40], index=pd.Index(alon.sample_ids, name="sample"), columns=alon.gene_ids[:40])
    frame.insert(0, "class", np.asarray(alon.classes)[(alon.y > 0).astype(int)])
    frame.to_csv(tmp_path / "my_study.csv")
    refs = dataset_list(params["datasets"], ["alon"], label=params["label"], rows=None, classes=None)
    ds = load_dataset(refs[0])
    assert len(refs) == 1 and ds.classes == ("normal", "tumour") and ds.X.shape == (62, 40)


@pytest.mark.parametrize("module", ["genesel.preprocessing", "genesel.expression_io", "genesel.datasets"])
def test_the_examples_in_the_docstrings_run(module):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 0 and res.failed == 0, res


def test_the_annotation_note_of_a_file_says_where_its_symbols_come_from(tmp_path):
    from geo_files import write_gds_soft

    from genesel.datasets import annotation_note, gene_labels, read_expression

    X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    write_gds_soft(tmp_path / "GDS1.soft", X, ["p1", "p2"], ["GSM1", "GSM2", "GSM3"], ["a", "b", "a"],
                   symbols=["TP53", "MYC"])
    ds = read_expression(tmp_path / "GDS1.soft", label="disease state")
    assert annotation_note(ds) == "GDS1.soft: gene symbols for 2 of 2 genes, as the file names them."
    assert gene_labels(ds, [1]) == ["MYC (p2)"]
    (tmp_path / "t.csv").write_text("id,g1,g2,class\ns1,1,2,a\ns2,3,4,b\n")
    plain = read_expression(tmp_path / "t.csv", label="class")
    assert annotation_note(plain, symbols=np.array(["", ""])).startswith("t.csv: no gene symbols: the file names none")


def test_a_file_with_missing_values_in_the_leaderboard_and_the_paper_notebooks(mirror, tmp_path):
    """The leaderboard imputes inside every training part; the paper notebooks, whose protocols impute nothing,
    refuse the file naming the ways out, and take it with ?impute=knn."""
    from genesel.datasets import load_dataset
    from genesel.leaderboard.cells import load
    from genesel.papers.presentation import dataset_list

    alon = load_dataset("alon").subset(genes=np.arange(100))
    ref = _file_with_missing(alon, tmp_path, "study_na.csv")
    task = load(ref, None, 40)
    assert np.isnan(task.X).any()
    out = task.prep.fit(task.X[:40]).transform(task.X[40:])
    assert np.isfinite(out).all() and out.shape == (22, 40)
    path = ref.split("?")[0]
    with pytest.raises(ValueError, match=r"has \d+ missing value\(s\).*impute=knn.*notebook 06"):
        dataset_list([path], ["alon"], label="class")
    got, = dataset_list([path + "?impute=knn"], ["alon"], label="class")
    assert not np.isnan(load_dataset(got).X).any()
