"""RNA-seq counts at the data layer (issue 37): recognised by one documented rule, normalised by library size and
logged inside each training part (genesel.preprocessing.CountNormalizer, rnanorm's TMM underneath), the factors
checked against a hand computation of Robinson & Oshlack (2010), and recommended_preprocessing deciding from the
Dataset without reading the file again."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline

from genesel import LinearSVM
from genesel.preprocessing import CountNormalizer, decide_scale, looks_like_counts


def _counts(n=24, d=300, seed=0, de=20):
    """Negative-binomial counts of two classes (the first ``de`` genes 4-fold up in class +1), library sizes
    varying 4-fold between samples, as an RNA-seq study gives them."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2, 1, -1)
    mu = rng.lognormal(3, 1.5, d)
    lib = rng.uniform(0.5, 2.0, n)
    mean = np.outer(lib, mu)
    mean[y == 1, :de] *= 4
    disp = 0.1
    X = rng.negative_binomial(1 / disp, 1 / (1 + disp * mean)).astype(float)
    return X, y


# ------------------------------------------------------------------------------------------------ recognised


def test_counts_are_recognised_by_the_documented_rule():
    X, _ = _counts()
    assert looks_like_counts(X)[0] and decide_scale(X)[0] == "counts"
    assert not looks_like_counts(X + 0.5)[0]  # not whole numbers
    assert not looks_like_counts(np.log2(X + 1))[0]
    equal_depth = np.tile(X[0], (5, 1))  # whole numbers, but one library size: not recognised (give scale=)
    assert not looks_like_counts(equal_depth)[0] and "do not vary" in looks_like_counts(equal_depth)[1]
    neg = X.copy()
    neg[0, 0] = -3
    assert not looks_like_counts(neg)[0]
    rng = np.random.default_rng(1)
    assert decide_scale(rng.lognormal(6, 1.5, (10, 50)))[0] == "raw-intensity"
    assert decide_scale(rng.normal(8, 2, (10, 50)))[0] == "log"
    assert decide_scale(X, "raw-intensity") == ("raw-intensity", "scale='raw-intensity' given")
    with pytest.raises(ValueError, match="scale must be 'auto' or one of log, raw-intensity, counts"):
        decide_scale(X, "tpm")


@pytest.mark.parametrize("name", ["golub", "alon", "chowdary", "west"])
def test_no_registered_set_is_taken_for_counts(mirror, name):
    from genesel.datasets import load_dataset

    ds = load_dataset(name)
    assert ds.scale in ("raw-intensity", "log") and not looks_like_counts(ds.X)[0]


def test_a_count_file_reads_as_counts_and_the_scale_can_be_forced(tmp_path):
    from genesel.datasets import load_dataset, preprocessing_note, recommended_preprocessing

    X, y = _counts()
    frame = pd.DataFrame(X.astype(int), index=[f"s{i}" for i in range(len(y))],
                         columns=[f"ENSG{j:011d}" for j in range(X.shape[1])])
    frame.insert(0, "class", np.where(y > 0, "tumour", "normal"))
    frame.to_csv(tmp_path / "counts.csv")
    ds = load_dataset(tmp_path / "counts.csv", label="class")
    assert ds.scale == "counts" and ds.extra["scale_reason"].startswith("counts: non-negative whole numbers")
    assert [s for s, _ in recommended_preprocessing(ds).steps] == ["counts", "standardize"]
    assert "TMM" in preprocessing_note(ds) and "counts" in preprocessing_note(ds)
    forced = load_dataset(tmp_path / "counts.csv", label="class", scale="raw-intensity")
    assert forced.scale == "raw-intensity" and forced.extra["scale_reason"] == "scale='raw-intensity' given"
    step = recommended_preprocessing(forced).named_steps["log"]
    assert step.already_log is False  # forced: always logged
    assert f"{tmp_path / 'counts.csv'}?label=class&scale=raw-intensity" == str(forced.ref)


def test_recommended_preprocessing_takes_the_dataset_without_reading_or_hashing_again(tmp_path, monkeypatch):
    import genesel.dataref
    import genesel.expression_io
    from genesel.datasets import read_expression, recommended_preprocessing

    X, y = _counts(n=10, d=40)
    X[0, 0] = np.nan
    frame = pd.DataFrame(X, index=[f"s{i}" for i in range(10)], columns=[f"g{j}" for j in range(40)])
    frame.insert(0, "class", np.where(y > 0, "b", "a"))
    frame.to_csv(tmp_path / "c.csv")
    ds = read_expression(tmp_path / "c.csv", label="class")

    def refuse(*a, **k):
        raise AssertionError("the file was read or hashed again")

    monkeypatch.setattr(genesel.dataref, "file_sha256", refuse)
    monkeypatch.setattr(genesel.expression_io, "read_expression", refuse)
    monkeypatch.setattr(genesel.expression_io, "iter_lines", refuse)
    pipe = recommended_preprocessing(ds)
    assert [s for s, _ in pipe.steps] == ["impute", "counts", "standardize"]
    assert np.isfinite(pipe.fit_transform(ds.X)).all()


# ------------------------------------------------------------------------------------------------ the factors


def _tmm_by_hand(X, m_trim=0.3, a_trim=0.05):
    """TMM normalisation factors written out from Robinson & Oshlack (2010, Genome Biology 11:R25, Methods): for
    sample k against the reference r, over the genes counted in both, M_g = log2((Y_gk/N_k) / (Y_gr/N_r)),
    A_g = log2((Y_gk/N_k)(Y_gr/N_r)) / 2, weights w_g = [(N_k - Y_gk)/(N_k Y_gk) + (N_r - Y_gr)/(N_r Y_gr)]^-1;
    genes trimmed by the rank of M (30 % each end) and of A (5 % each end); log2 TMM_k = sum w M / sum w.
    Reference: edgeR's rule, the sample whose upper-quartile factor (75th percentile of counts / library size) is
    closest to their mean. Factors scaled to geometric mean 1."""
    X = X[:, X.sum(axis=0) > 0]
    N = X.sum(axis=1)
    uq = np.array([np.percentile(x, 75) / n for x, n in zip(X, N)])
    uq = uq / np.exp(np.mean(np.log(uq)))
    r = int(np.argmin(np.abs(uq - uq.mean())))
    f = []
    for k in range(X.shape[0]):
        both = (X[k] > 0) & (X[r] > 0)
        yk, yr = X[k, both], X[r, both]
        M = np.log2((yk / N[k]) / (yr / N[r]))
        A = np.log2((yk / N[k]) * (yr / N[r])) / 2
        w = 1 / ((N[k] - yk) / (N[k] * yk) + (N[r] - yr) / (N[r] * yr))
        n = M.size
        lo_m, lo_a = np.floor(n * m_trim) + 1, np.floor(n * a_trim) + 1
        rm, ra = rankdata(M), rankdata(A)
        keep = (rm >= lo_m) & (rm <= n - lo_m + 1) & (ra >= lo_a) & (ra <= n - lo_a + 1)
        if k == r:
            f.append(1.0)
            continue
        f.append(2 ** (np.sum(w[keep] * M[keep]) / np.sum(w[keep])))
    f = np.asarray(f)
    return f / np.exp(np.mean(np.log(f)))


def test_tmm_factors_agree_with_a_hand_computation_of_the_published_formula():
    rng = np.random.default_rng(3)
    X = rng.poisson(rng.lognormal(4, 1, (5, 40))).astype(float)
    X[2, :6] *= 8  # a composition shift: a few genes much higher in one sample
    X[4, 7] = 0
    got = CountNormalizer().fit(X).factors_
    np.testing.assert_allclose(got, _tmm_by_hand(X), rtol=1e-10)
    assert np.abs(np.log(got)).max() > 0.05  # the case is not trivial (factors away from 1)
    cpm = CountNormalizer(method="cpm").fit_transform(X)
    np.testing.assert_allclose(cpm, np.log2(X / X.sum(axis=1, keepdims=True) * 1e6 + 1), rtol=1e-12)
    tmm = CountNormalizer(log=False).fit_transform(X)
    np.testing.assert_allclose(tmm, X / (X.sum(axis=1) * got)[:, None] * 1e6, rtol=1e-12)


# ------------------------------------------------------------------------------------------------ inside a protocol


@pytest.mark.parametrize("method", ["tmm", "upper_quartile", "cpm"])
def test_ten_times_the_counts_of_one_sample_leave_its_profile_and_the_predictions(method):
    """A test sample sequenced 10 times deeper: its library-size normalised profile is the same (exactly for the
    upper quartile and the library size; for TMM up to one factor for the whole sample, within 5 %: its precision
    weights grow with depth), and so is every prediction of the fitted pipeline. The same holds for a training
    sample sequenced deeper."""
    X, y = _counts(n=30, d=300, seed=1)
    tr, te = np.arange(20), np.arange(20, 30)
    norm = CountNormalizer(method=method, log=False).fit(X[tr])
    deep = X.copy()
    deep[te[0]] *= 10
    a, b = norm.transform(X[te]), norm.transform(deep[te])
    counted = a[0] > 0
    assert np.array_equal(b[0] > 0, counted)
    ratio = b[0, counted] / a[0, counted]
    if method == "tmm":
        np.testing.assert_allclose(ratio, ratio[0], rtol=1e-12)  # one factor for the whole profile
        assert abs(ratio[0] - 1) < 0.05
    else:
        np.testing.assert_allclose(b[0], a[0], rtol=1e-12)
    np.testing.assert_array_equal(a[1:], b[1:])  # the other test samples untouched
    pipe = make_pipeline(CountNormalizer(method=method), LinearSVM())
    before = pipe.fit(X[tr], y[tr]).predict(X[te])
    assert (before == y[te]).mean() >= 0.8  # the task is learnable: the comparison below can fail
    assert np.array_equal(pipe.predict(deep[te]), before)
    deep_train = X.copy()
    deep_train[tr[3]] *= 10
    assert np.array_equal(pipe.fit(deep_train[tr], y[tr]).predict(X[te]), before)


def test_a_test_sample_is_normalised_on_its_own_and_genes_absent_from_the_test_part_are_kept():
    """rnanorm's own transform drops the genes zero in every sample it is given, so a test part without a gene the
    training part counts failed on a shape mismatch; and a sample's value must not depend on the other test
    samples."""
    from rnanorm import TMM

    X, y = _counts(n=20, d=100, seed=2)
    X[15:, 5] = 0  # absent from every test sample
    tr, te = np.arange(15), np.arange(15, 20)
    with pytest.raises(ValueError):
        TMM().fit(X[tr]).transform(X[te])
    norm = CountNormalizer().fit(X[tr])
    together = norm.transform(X[te])
    alone = np.vstack([norm.transform(X[[i]]) for i in te])
    np.testing.assert_allclose(together, alone, rtol=1e-13)


def test_changing_the_test_part_changes_nothing_fitted_on_the_training_part(tmp_path):
    """The same count file with its test samples of one fold replaced by other counts: in cross-validation every
    fitted quantity of that fold (normalisation reference and factors, standardisation, the classifier) is the
    same to the bit; the Dataset's recommended preprocessing is what is fitted."""
    from genesel.datasets import read_expression, recommended_preprocessing

    X, y = _counts(n=24, d=200, seed=4)
    (tr, te), = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))[:1]
    other = X.copy()
    other[te] = np.random.default_rng(9).negative_binomial(2, 0.01, (len(te), X.shape[1]))
    sets = []
    for name, M in (("a.csv", X), ("b.csv", other)):
        f = pd.DataFrame(M.astype(int), index=[f"s{i}" for i in range(len(y))], columns=[f"g{j}" for j in range(200)])
        f.insert(0, "class", np.where(y > 0, "b", "a"))
        f.to_csv(tmp_path / name)
        sets.append(read_expression(tmp_path / name, label="class"))
    fitted = []
    for ds in sets:
        assert ds.scale == "counts"
        pipe = make_pipeline(recommended_preprocessing(ds), LinearSVM())
        res = cross_validate(pipe, ds.X, ds.y, cv=[(tr, te)], return_estimator=True)
        fitted.append(res["estimator"][0])
    p, q = fitted
    counts_p, counts_q = p[0].named_steps["counts"], q[0].named_steps["counts"]
    np.testing.assert_array_equal(counts_p.factors_, counts_q.factors_)
    np.testing.assert_array_equal(counts_p.norm_.ref_, counts_q.norm_.ref_)
    np.testing.assert_array_equal(p[0].named_steps["standardize"].mean_, q[0].named_steps["standardize"].mean_)
    np.testing.assert_array_equal(p[-1].coef_, q[-1].coef_)
    assert not np.array_equal(sets[0].X[te], sets[1].X[te])  # the test parts differ


def test_sparse_counts_get_edgers_reference_sample_without_a_warning():
    """Single-cell-like counts where most samples' upper quartile is 0: rnanorm divided the upper-quartile factors by
    their geometric mean (0), warned "divide by zero" and chose its reference from NaN. The reference is edgeR's
    (calcNormFactors: the largest sum of square-root counts when the median upper-quartile factor is 0; otherwise
    the factor closest to their mean, which is rnanorm's choice, checked on dense counts)."""
    import warnings

    from rnanorm import TMM

    rng = np.random.default_rng(4)
    sparse = rng.negative_binomial(1, 0.8, (30, 200)).astype(float)
    sparse[:, :5] += rng.poisson(20, (30, 5))  # a few expressed genes, so no library is empty
    assert np.median(np.percentile(sparse, 75, axis=1)) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cn = CountNormalizer().fit(sparse)
    keep = sparse.sum(axis=0) > 0
    assert np.array_equal(cn.norm_.ref_, sparse[int(np.argmax(np.sqrt(sparse[:, keep]).sum(axis=1)))][keep])
    assert np.isfinite(cn.factors_).all() and np.isclose(np.exp(np.mean(np.log(cn.factors_))), 1.0)
    dense = rng.poisson(rng.gamma(2, 40, 300)[None, :] * rng.uniform(0.5, 2, (12, 1))).astype(float)
    own, theirs = CountNormalizer(log=False).fit(dense), TMM().fit(dense[:, dense.sum(axis=0) > 0])
    assert np.array_equal(own.norm_.ref_, theirs.ref_)
    np.testing.assert_allclose(own.factors_, theirs.get_norm_factors(dense[:, dense.sum(axis=0) > 0]), rtol=1e-12)
