"""Per-method cache keys of the leaderboard (genesel.leaderboard.keys) and the reuse of fitted selection steps
(catalogue.FittedSteps): editing one method's code moves the keys of the methods that run it and of no other; the
protocol moves them all; a key covers every estimator class the method builds; reusing a fitted selector changes
no number and no warning count."""

import shutil
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

from genesel.leaderboard import catalogue as K
from genesel.leaderboard import keys

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "lib" / "genesel"


def _copy_sources(dest):
    lib = dest / "lib"
    shutil.copytree(PKG, lib / "genesel", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data_fetch", dest / "data_fetch", ignore=shutil.ignore_patterns("__pycache__"))
    return {"genesel": lib, "data_fetch": dest}


@pytest.fixture
def source_copy(tmp_path):
    return _copy_sources(tmp_path)


def _codes(roots):
    """{method: keys.method_code(method, roots)} for every method of the catalogue. keys.method_fingerprints adds
    keys.protocol_fingerprints(roots) to each method's own code; that takes no method, and the sources do not change
    during this call, so it is computed once here (by the real function, memoised for the call) rather than once per
    method: the same inputs, the same digests, a fraction of the work."""
    memo = {}
    real = keys.protocol_fingerprints

    def protocol_once(roots=None):
        k = repr(roots)
        if k not in memo:
            memo[k] = real(roots)
        return dict(memo[k])

    with mock.patch.object(keys, "protocol_fingerprints", protocol_once):
        return {m: keys.method_code(m, roots) for m in K.method_names()}


def _append(roots, rel, text):
    p = roots["genesel"] / "genesel" / rel
    p.write_text(p.read_text() + text)


def _edit(roots, rel, old, new):
    p = roots["genesel"] / "genesel" / rel
    src = p.read_text()
    assert old in src, f"{rel} no longer holds {old!r}: update the test"
    p.write_text(src.replace(old, new, 1))


@pytest.fixture(scope="module")
def pristine_codes(tmp_path_factory):
    """The codes of an unedited copy of the sources, computed once for the tests that start from one: each test's
    own ``source_copy`` is the same files in another folder, and a key does not depend on where the sources live
    (codekey hashes code, never paths; the tests below that edit only docstrings or unused names check that their
    copy still gives these codes)."""
    return _codes(_copy_sources(tmp_path_factory.mktemp("pristine")))


def _moved(before, after):
    return {m for m in before if before[m] != after[m]}


@pytest.mark.registration("leaderboard method", "CATALOGUE")
def test_every_method_of_the_catalogue_has_its_own_key():
    codes = _codes(None)
    assert set(codes) == set(K.method_names()) == set(keys.entry_nodes())
    assert len(set(codes.values())) == len(codes)
    from genesel.experiments.grid import cell_key
    from genesel.leaderboard.cells import boot_cell, cv_cell

    cell = dict(dataset="alon", method="SMLR (all genes)", repeat=0, fold=0, n_folds=3, inner_k=3, seed=0, quick=True)
    assert cell_key(cv_cell, cell) == cell_key(cv_cell, cell, code=keys.cell_code(cell))
    assert keys.cell_code(cell) != keys.cell_code({**cell, "dataset": "golub"})  # each data set its own
    assert cv_cell.cache_code is boot_cell.cache_code is keys.cell_code


def test_editing_an_algorithm_module_moves_only_the_methods_that_run_it(source_copy, pristine_codes):
    before = dict(pristine_codes)
    _append(source_copy, "smlr.py", "\n_EXTRA_CONSTANT = 1\n")
    moved = _moved(before, _codes(source_copy))
    assert moved == {"SMLR (all genes)", "SMLR selector + SVM", "RVM selector + SVM"}  # sparse_select imports smlr
    _append(source_copy, "forest.py", "\n_EXTRA_CONSTANT = 1\n")
    after = _codes(source_copy)
    assert _moved(before, after) - moved == {"RF var. sel. (s.e. 0)", "RF var. sel. (s.e. 1)"}
    # scikit-learn's forest and kNN do not run genesel's forest
    assert after["random forest (all genes)"] == before["random forest (all genes)"]
    assert after["kNN (all genes)"] == before["kNN (all genes)"]


def test_editing_one_entry_or_a_helper_moves_only_its_users(source_copy, pristine_codes):
    before = dict(pristine_codes)
    _edit(source_copy, "leaderboard/catalogue.py", 'grid={"lam": (0.5, 0.1, 0.01, 0.001)}',
          'grid={"lam": (0.5, 0.1, 0.01)}')
    assert _moved(before, _codes(source_copy)) == {"SMLR (all genes)"}
    before = _codes(source_copy)
    _edit(source_copy, "leaderboard/catalogue.py", 'self.svm_ = LinearSVM(C=float(self.C) / X.shape[1]).fit(X, y)',
          'self.svm_ = LinearSVM(C=1.0 * float(self.C) / X.shape[1]).fit(X, y)')
    moved = _moved(before, _codes(source_copy))
    users = {m.name for m in K.CATALOGUE.values() if K.SignatureSVM in K.estimator_classes(m)}
    assert moved == users and "SVM (all genes)" in moved and "kNN on Fisher genes" not in moved


def test_editing_the_protocol_moves_every_key_and_a_docstring_none(source_copy, pristine_codes):
    before = dict(pristine_codes)
    _edit(source_copy, "leaderboard/protocol.py", '"""(fitted estimator, local gene indices',
          '"""The fitted estimator, local gene indices')
    _append(source_copy, "leaderboard/catalogue.py", "\n# a comment\n")
    assert _codes(source_copy) == before
    _append(source_copy, "leaderboard/protocol.py", "\n_EXTRA_CONSTANT = 1\n")
    assert _moved(before, _codes(source_copy)) == set(before)
    before = _codes(source_copy)
    _edit(source_copy, "leaderboard/catalogue.py", "SIZES = (2, 4, 8, 16, 32, 64, 128, 256)",
          "SIZES = (2, 4, 8, 16, 32, 64, 128)")  # used by the protocol itself
    assert _moved(before, _codes(source_copy)) == set(before)


def test_editing_the_report_or_the_status_moves_no_key(source_copy, pristine_codes):
    """Tables, figures, statistics and prose live in the report modules (and the progress report in status.py) so
    that mending them never discards a cached cell of a run of many hours."""
    before = dict(pristine_codes)
    for module in ("summary", "tables", "ranking", "figures", "labels", "du2006", "published", "cost", "exercises"):
        _append(source_copy, f"leaderboard/{module}.py", "\n_EXTRA_CONSTANT = 1\n")
    _append(source_copy, "leaderboard/status.py", "\n_EXTRA_CONSTANT = 1\n")
    _append(source_copy, "plotting.py", "\n_EXTRA_CONSTANT = 1\n")
    assert _codes(source_copy) == before
    _append(source_copy, "leaderboard/cells.py", "\n_EXTRA_CONSTANT = 1\n")  # the check can fail
    assert _moved(before, _codes(source_copy)) == set(before)


def test_a_method_key_covers_every_estimator_class_it_builds():
    for m in K.CATALOGUE.values():
        fp = keys.method_fingerprints(m.name)
        for cls in K.estimator_classes(m):
            mod = cls.__module__
            if mod.split(".")[0] in ("genesel", "data_fetch") and mod != keys.CATALOGUE_MODULE:
                assert mod in fp, f"{m.name}: {cls.__name__} ({mod}) not in its key"


def test_an_entry_that_cannot_be_read_from_the_source_is_refused(source_copy):
    _edit(source_copy, "leaderboard/catalogue.py", 'Method("SMLR (all genes)"', 'Method(f"SMLR (all genes)"')
    with pytest.raises(ValueError, match="string literal"):
        keys.entry_nodes(source_copy)


def test_fitted_steps_reuse_changes_no_number_and_no_warning(mirror):
    from genesel.leaderboard.cells import cv_cell

    args = ("alon", "SMLR selector + SVM", 0, 1, 3, 3)
    K.SELECTIONS.maxsize, hits = 0, K.SELECTIONS.hits
    try:
        plain = cv_cell(*args, seed=0, quick=True, max_genes=80)
        assert K.SELECTIONS.hits == hits
        K.SELECTIONS.maxsize = 8
        reused = cv_cell(*args, seed=0, quick=True, max_genes=80)
    finally:
        K.SELECTIONS.maxsize = 8
    assert K.SELECTIONS.hits > hits  # the quick grid: 2 lambdas x 2 C per inner fold, one selector fit per lambda
    for k in plain:
        if k not in ("cpu_seconds", "wall_seconds"):
            assert plain[k] == reused[k], k


def test_fitted_steps_key_on_parameters_and_data():
    from genesel import SMLRSelector

    X = np.random.default_rng(0).normal(size=(30, 12))
    y = np.where(np.arange(30) < 15, -1, 1)
    X[y > 0, :2] += 2.0
    memo = K.FittedSteps(maxsize=4)
    fits = []

    def fit(est, X, y):
        fits.append(est.get_params()["lam"])
        return est.fit(X, y).support_.copy()

    cached = memo.cache(fit)
    a = cached(SMLRSelector(lam=0.3, lam_scale="max"), X, y)
    cached(SMLRSelector(lam=0.3, lam_scale="max"), X, y)
    cached(SMLRSelector(lam=0.1, lam_scale="max"), X, y)
    X2 = X.copy()
    X2[0, 0] += 1e-9
    cached(SMLRSelector(lam=0.3, lam_scale="max"), X2, y)
    assert fits == [0.3, 0.1, 0.3] and memo.hits == 1 and memo.misses == 3
    assert np.array_equal(a, SMLRSelector(lam=0.3, lam_scale="max").fit(X, y).support_)


@pytest.mark.parametrize("name,plain", [
    ("PAC-Bayes stumps", lambda p, s, seed: __import__("genesel").PACBayesStumps(
        p=p["p"], eta=p["eta"], max_stumps=p["max_stumps"], model=p["model"])),
    ("SC stumps", lambda p, s, seed: __import__("genesel").SampleCompressionStumps(
        p=p["p"], max_stumps=p["max_stumps"], model=p["model"])),
    ("shrunken centroids (SC.l)", lambda p, s, seed: __import__("genesel").ShrunkenCentroids(
        threshold=p["threshold"], threshold_scale="max", priors="empirical")),
])
def test_shared_grid_fits_give_the_cells_of_one_fit_per_setting(mirror, monkeypatch, name, plain):
    """A stump entry's cells with its grid fitted at once (SharedGrid), and PAM's with its thresholds shrinking one
    computation of their statistics (SharedStatistics), against the same entry fitting each setting on its own:
    every number of the cell the same, the warnings' counts included; the shared fits are reused (hits)."""
    import dataclasses

    from genesel.leaderboard.cells import cv_cell

    args = ("alon", name, 0, 2, 3, 3)
    hits = K.GRID_FITS.hits
    shared = cv_cell(*args, seed=0, quick=True, max_genes=80)
    assert K.GRID_FITS.hits > hits
    assert "centroids" not in name or shared["inner_warnings"]  # thresholds that shrink every gene out warn
    monkeypatch.setitem(K.CATALOGUE, name, dataclasses.replace(K.CATALOGUE[name], estimator=plain))
    alone = cv_cell(*args, seed=0, quick=True, max_genes=80)
    for k in shared:
        if k not in ("cpu_seconds", "wall_seconds"):
            assert shared[k] == alone[k], k


def test_grid_fits_compare_the_data_by_value():
    memo = K.GridFits(maxsize=2)
    X = np.arange(12.0).reshape(3, 4)
    y = np.array([1, -1, 1])
    calls = []
    get = lambda X: memo.get("p", X, y, lambda: calls.append(1) or len(calls))  # noqa: E731
    assert get(X) == 1 and get(X.copy()) == 1  # an equal array is a hit
    X[0, 0] = 99.0  # changed in place: not the data fitted before
    assert get(X) == 2 and memo.hits == 1 and memo.misses == 2


def test_an_import_statement_counts_name_by_name(source_copy, pristine_codes):
    """Adding a name to an import statement of the catalogue moves no key: only the names a method uses count."""
    before = dict(pristine_codes)
    _edit(source_copy, "leaderboard/catalogue.py", "from sklearn.base import BaseEstimator, ClassifierMixin, clone",
          "from sklearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier")
    _edit(source_copy, "leaderboard/catalogue.py", "from genesel.svm import KernelSVM, LinearSVM",
          "from genesel.svm import KernelSVM, LinearSVM, SVC_KERNELS")
    assert _codes(source_copy) == before
    _edit(source_copy, "leaderboard/catalogue.py", "from genesel.svm import KernelSVM, LinearSVM, SVC_KERNELS",
          "from genesel.svm import KernelSVM as KSVM, LinearSVM, SVC_KERNELS\nKernelSVM = KSVM")
    moved = _moved(before, _codes(source_copy))
    assert moved == {"RBF SVM (all genes)"}


def _registry_edit(roots, old, new):
    p = roots["data_fetch"] / "data_fetch" / "registry.py"
    src = p.read_text()
    assert old in src, f"the registry no longer holds {old!r}: update the test"
    p.write_text(src.replace(old, new, 1))


def _cell_codes(roots, datasets=("alon", "golub", "gordon")):
    return {(m, d): keys.cell_code({"method": m, "dataset": d}, roots)
            for m in ("SMLR (all genes)", "kNN (all genes)") for d in datasets}


def test_a_registry_edit_for_readers_or_a_new_data_set_moves_no_key(source_copy):
    """A full run's cache survives a title, a description or a citation edited and a data set added."""
    before = _cell_codes(source_copy)
    _registry_edit(source_copy, 'title="Lung adenocarcinoma vs mesothelioma (Gordon 2002)"',
                   'title="Lung adenocarcinoma against mesothelioma (Gordon et al. 2002)"')
    _registry_edit(source_copy, '"Lung adenocarcinoma vs malignant pleural mesothelioma; HG-U95Av2, 12533 probes, raw',
                   '"Lung adenocarcinomas vs malignant pleural mesotheliomas; HG-U95Av2, 12533 probes, raw')
    _registry_edit(source_copy, "Cancer Res 62:4963, 2002.", "Cancer Research 62:4963-4967, 2002.")
    _registry_edit(source_copy, "\n]\n", """
    DatasetSpec("newset", ("newset.RData",), P.datamicroarray("newset.RData"), ("a", "b"), (10, 20),
                {"a": 5, "b": 5}, "a new data set", "Someone 2026."),
]
""")
    assert _cell_codes(source_copy) == before


def test_editing_one_data_sets_entry_moves_only_its_cells_and_the_registrys_code_moves_all(source_copy):
    before = _cell_codes(source_copy)
    _registry_edit(source_copy, '("adenocarcinoma", "mesothelioma"),\n        (181, 12533)',
                   '("adenocarcinoma", "mesothelioma"),\n        (181, 12532)')
    after = _cell_codes(source_copy)
    assert {k for k in before if before[k] != after[k]} == {k for k in before if k[1] == "gordon"}
    _registry_edit(source_copy, "key = name.strip().lower()", "key = name.strip().casefold()")
    moved = _cell_codes(source_copy)
    assert all(moved[k] != after[k] for k in after)  # resolve() reads every data set
