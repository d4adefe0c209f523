"""Data layer: checksums and shapes against the mirror's manifest, the Golub split, and clear errors for corrupt,
truncated and missing files."""

import csv
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import data_fetch
from data_fetch import FILES, DATASETS, FetchError, fetch_file, resolve
from genesel.datasets import load_dataset, list_datasets

from conftest import mirror_path

# the manifest sits beside the mirror's raw/ folder (CI: ../shared/data/MANIFEST.csv)
MANIFEST = (mirror_path().parent if mirror_path()
            else Path(__file__).resolve().parents[2] / "shared" / "data") / "MANIFEST.csv"


def _manifest():
    if not MANIFEST.exists():
        pytest.skip("shared/data/MANIFEST.csv not beside the checkout")
    return {r["file"].split("/")[-1]: r for r in csv.DictReader(open(MANIFEST))}


@pytest.mark.registration("dataset", "data_fetch/files.py", "MANIFEST.csv")
def test_registry_checksums_match_manifest():
    man = _manifest()
    assert set(FILES) == set(man), set(FILES) ^ set(man)
    for name, entry in FILES.items():
        assert entry.sha256 == man[name]["sha256"], name
        assert entry.size == int(man[name]["bytes"]), name
        assert entry.url == man[name]["public_url"], name


@pytest.mark.registration("dataset", "$GENESEL_DATA_MIRROR")
def test_mirror_files_pass_checksums(mirror, tmp_path):
    for name in FILES:
        assert fetch_file(name, mirror=mirror, cache=tmp_path, download=False).exists()


MANIFEST_SHAPES = {  # data set -> manifest row name whose parsed shape must match
    "alon": "alon1999_colon", "golub": "golub1999_leukemia", "singh": "singh2002_prostate",
    "west": "west2001_breast_er", "pomeroy": "pomeroy2002_cns_outcome_C_MD", "gordon": "gordon2002_lung_meso",
    "shipp": "shipp2002_dlbcl_fl", "chowdary": "chowdary2006_breast_colon", "khan": "khan2001_srbct",
    "gravier": "gravier2010_breast_cgh", "subramanian": "subramanian2005_p53",
    "alizadeh": "alizadeh2000_lymphoma_matrix",
    "welsh": "welsh2001_prostate_singh_testset", "chandran_metastasis": "chandran2007_prostate_metastasis_vs_normal",
}


@pytest.mark.parametrize("name", sorted(MANIFEST_SHAPES))
def test_shapes_and_counts_match_manifest(name, mirror):
    rows = {r["name"]: r for r in csv.DictReader(open(MANIFEST))} if MANIFEST.exists() else pytest.skip("no manifest")
    row = rows[MANIFEST_SHAPES[name]]
    ds = load_dataset(name)
    assert ds.X.shape == (int(row["n_samples"]), int(row["n_genes"]))
    assert ds.X.dtype == np.float64 and np.isfinite(ds.X).all()
    if name == "alizadeh":
        return  # labels come from a second file; grouped task checked below
    counts = row["class_counts"].split(" | ")[0]
    if ":" in counts and "(n=" in counts:
        counts = counts.split(": ", 1)[1]
    # label spellings differ between manifest rows ("0 (tumour)", "t"); the class sizes must agree
    expected = sorted(int(kv.rsplit(":", 1)[1]) for kv in counts.split(";"))
    got = sorted(int(v) for v in np.unique(ds.labels, return_counts=True)[1])
    assert got == expected


def test_golub_split(golub):
    assert golub.classes == ("ALL", "AML")
    tr, te = golub.train_idx, golub.test_idx
    assert len(tr) == 38 and len(te) == 34 and not set(tr) & set(te)
    ytr, yte = golub.y[tr], golub.y[te]
    assert (np.sum(ytr == -1), np.sum(ytr == 1)) == (27, 11)
    assert (np.sum(yte == -1), np.sum(yte == 1)) == (20, 14)
    # Golub's sample numbers: 1-38 train, 39-72 test
    assert set(golub.sample_ids[tr].astype(int)) == set(range(1, 39))
    assert set(golub.sample_ids[te].astype(int)) == set(range(39, 73))


def test_golub_split_equals_csv_copies(golub, mirror):
    import pandas as pd

    tr = pd.read_csv(mirror / "golub-train.csv")
    te = pd.read_csv(mirror / "golub-test.csv")
    np.testing.assert_array_equal(golub.X[golub.train_idx], tr.drop(columns="labels").to_numpy(float))
    np.testing.assert_array_equal(golub.X[golub.test_idx], te.drop(columns="labels").to_numpy(float))
    assert list(golub.labels[golub.train_idx]) == list(tr["labels"])


def test_singh_probe_ids_match_orange_tab(mirror):
    import pandas as pd

    ds = load_dataset("singh")
    tab = pd.read_csv(mirror / "05_prostata.tab", sep="\t", header=0, skiprows=[1, 2])
    # the .tab lists 50 normal then 52 tumour; singh.RData 52 tumour then 50 normal
    np.testing.assert_array_equal(tab.iloc[:, 1:].to_numpy(float), ds.X[np.r_[52:102, 0:52], 67:])
    assert list(ds.gene_ids[68:]) == list(tab.columns[2:])
    assert ds.gene_ids[67] == "31307_at"


def test_binary_coding_and_aliases(mirror):
    ds = load_dataset("leukemia")
    assert ds.name == "golub" and set(np.unique(ds.y)) == {-1, 1}
    assert ds.class_counts == {"ALL": 47, "AML": 25}
    lym = load_dataset("lymphoma")
    assert lym.class_counts == {"other": 30, "malignant": 66}
    assert np.isfinite(lym.X).all()
    raw = load_dataset("lymphoma", impute=None)
    assert np.isnan(raw.X).mean() == pytest.approx(19667 / (96 * 4026))
    observed = ~np.isnan(raw.X)
    np.testing.assert_array_equal(lym.X[observed], raw.X[observed])  # imputation only fills the gaps


def test_list_datasets_names_every_set():
    df = list_datasets()
    assert set(DATASETS) <= set(df["name"])
    assert "mnist_pairs" in set(df["name"])


def test_unknown_and_family_names_give_clear_errors():
    with pytest.raises(ValueError, match="unknown data set 'nope'"):
        resolve("nope")
    with pytest.raises(ValueError, match="mnist_0v8"):
        resolve("mnist_pairs")


def _copy_to(tmp_path, name, mirror, mutate=None):
    m = tmp_path / "mirror"
    m.mkdir(exist_ok=True)
    shutil.copyfile(mirror / name, m / name)
    if mutate:
        mutate(m / name)
    return m


def test_corrupt_mirror_file_is_refused(mirror, tmp_path):
    def flip(p):
        b = bytearray(p.read_bytes())
        b[1000] ^= 0xFF
        p.write_bytes(bytes(b))

    m = _copy_to(tmp_path, "alon.RData", mirror, flip)
    with pytest.raises(FetchError, match=r"alon\.RData .* is corrupt.*fetch it again") as err:
        fetch_file("alon.RData", mirror=m, cache=tmp_path / "cache", download=False)
    assert not (tmp_path / "cache" / "alon.RData").exists()  # never copied into the cache
    # the suggested command works (it used to say "python -m data_fetch alon.RData", an unknown data set)
    assert "python -m data_fetch alon --mirror DIR" in str(err.value)
    from data_fetch.__main__ import main

    cmd = str(err.value).split("(python -m data_fetch ")[1].split(",")[0].split()
    assert main([cmd[0], "--mirror", str(mirror), "--cache", str(tmp_path / "c2"), "--offline"]) == 0
    assert main(["alon.RData", "--mirror", str(mirror), "--cache", str(tmp_path / "c3"), "--offline"]) == 0
    assert (tmp_path / "c3" / "alon.RData").exists()


def test_truncated_mirror_file_is_refused(mirror, tmp_path):
    m = _copy_to(tmp_path, "alon.RData", mirror, lambda p: p.write_bytes(p.read_bytes()[:5000]))
    with pytest.raises(FetchError, match=r"alon\.RData .* is truncated: 5000 bytes"):
        fetch_file("alon.RData", mirror=m, cache=tmp_path / "cache", download=False)


def test_corrupt_cache_copy_is_replaced_from_mirror(mirror, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "alon.RData").write_bytes(b"garbage")
    p = fetch_file("alon.RData", mirror=mirror, cache=cache, download=False)
    assert data_fetch.fetch.sha256_of(p) == FILES["alon.RData"].sha256


class _SwapAfterReading:
    """A file opened for reading that, once read to its end (or after its first block), replaces the file on disk
    by other bytes: a mirror file that changes between a check and a copy, or while it is read."""

    def __init__(self, fh, path, swap, after_first_block):
        self._fh, self._path, self._swap, self._after_first = fh, path, swap, after_first_block
        self.swapped = False

    def read(self, *a):
        block = self._fh.read(*a)
        if not self.swapped and (not block or self._after_first):
            self._swap(self._path)
            self.swapped = True
        return block

    def __getattr__(self, k):
        return getattr(self._fh, k)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()


def _swapping_open(monkeypatch, victim, swap, after_first_block=False):
    """Make data_fetch.fetch's own open() of ``victim`` swap its bytes (see above); other opens are untouched."""
    real_open = open

    def fake_open(path, mode="r", *a, **k):
        fh = real_open(path, mode, *a, **k)
        if Path(path) == victim and "r" in mode:
            return _SwapAfterReading(fh, Path(path), swap, after_first_block)
        return fh

    monkeypatch.setattr(data_fetch.fetch, "open", fake_open, raising=False)


def _corrupt_in_place(p):
    """Overwrite bytes in the same file (same inode: an open reader sees them)."""
    with open(p, "r+b") as fh:
        fh.seek(len(p.read_bytes()) // 2)
        fh.write(b"\0" * 4096)


def test_a_mirror_file_swapped_after_its_check_is_never_cached(mirror, tmp_path, monkeypatch):
    """Issue 25: fetch_file checked the mirror file's sha256, then copied the file again: a file that changed in
    between was cached (and parsed) unchecked. Now the bytes that are hashed are the bytes written: the cache holds
    the checked bytes, whatever the file on disk became after they were read."""
    m = _copy_to(tmp_path, "alon.RData", mirror)
    _swapping_open(monkeypatch, m / "alon.RData", _corrupt_in_place)
    cache = tmp_path / "cache"
    got = fetch_file("alon.RData", mirror=m, cache=cache, download=False)
    assert data_fetch.fetch.sha256_of(m / "alon.RData") != FILES["alon.RData"].sha256  # the swap did happen
    assert data_fetch.fetch.sha256_of(got) == FILES["alon.RData"].sha256  # what was cached is what was checked
    assert sorted(q.name for q in cache.iterdir()) == ["alon.RData"]


def test_a_mirror_file_changed_while_it_is_read_is_refused(mirror, tmp_path, monkeypatch):
    m = _copy_to(tmp_path, "alon.RData", mirror)
    monkeypatch.setattr(data_fetch.fetch, "_CHUNK", 1 << 14)
    _swapping_open(monkeypatch, m / "alon.RData", _corrupt_in_place, after_first_block=True)
    cache = tmp_path / "cache"
    with pytest.raises(FetchError, match=r"alon\.RData from the mirror .* is corrupt"):
        fetch_file("alon.RData", mirror=m, cache=cache, download=False)
    assert list(cache.iterdir()) == []  # neither the file nor a temporary one


@pytest.mark.parametrize("code", ["ENOSPC", "EROFS"])
def test_a_cache_folder_that_cannot_take_the_raw_file_names_it(mirror, tmp_path, monkeypatch, code):
    """A full disk (or a read-only cache folder) used to give a bare "OSError: [Errno 28] No space left on device"."""
    import errno

    err = getattr(errno, code)

    class Full:
        def write(self, b):
            raise OSError(err, "simulated")

        def close(self):
            raise OSError(err, "simulated")

    def writer(dst):
        if code == "EROFS":
            raise OSError(err, "Read-only file system")
        tmp = dst.parent / f".{dst.name}.x.tmp"
        tmp.write_bytes(b"")
        return str(tmp), Full()

    monkeypatch.setattr(data_fetch.fetch, "_new_cache_file", writer)
    cache = tmp_path / "cache"
    with pytest.raises(data_fetch.CacheWriteError) as exc:
        fetch_file("alon.RData", mirror=mirror, cache=cache, download=False)
    target = cache / "alon.RData"
    assert isinstance(exc.value, OSError) and isinstance(exc.value, FetchError) and exc.value.errno == err
    assert f"cannot write {target}" in str(exc.value) and "GENESEL_DATA_DIR" in str(exc.value)
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("code", ["ENOSPC", "EROFS"])
def test_a_data_folder_that_cannot_take_the_parse_falls_back_to_the_raw_file(mirror, tmp_path, monkeypatch, code):
    """A read-only data folder holding the raw file but no parsed copy (or a full disk): the load parses the raw
    file and returns the data, warning once with the parsed copy's path; it used to fail on every retry."""
    import errno

    from genesel import datasets as D

    fetch_file("alon.RData", mirror=mirror, cache=tmp_path, download=False)  # the raw file is there

    def writer(path, obj, *, kind):
        raise OSError(getattr(errno, code), "simulated")

    monkeypatch.setattr(D, "write_record", writer)
    D._load.cache_clear()
    with pytest.warns(D.CacheWriteWarning) as rec:
        got = load_dataset("alon", cache=tmp_path)
    msg = str(rec[0].message)
    assert re.search(rf"cannot write {re.escape(str(tmp_path / 'parsed'))}/alon-[0-9a-f]{{16}}\.rec", msg), msg
    assert "without caching" in msg and "GENESEL_DATA_DIR" in msg
    assert not (tmp_path / "parsed").exists() or not list((tmp_path / "parsed").glob("alon-*"))
    monkeypatch.undo()
    D._load.cache_clear()
    ref = load_dataset("alon", cache=tmp_path / "ok", mirror=mirror)
    assert np.array_equal(got.X, ref.X) and np.array_equal(got.y, ref.y)


def test_missing_file_without_network_or_mirror(tmp_path, monkeypatch):
    import pooch

    def no_network(*a, **k):
        raise ConnectionError("Failed to resolve host (no network)")

    monkeypatch.setattr(pooch, "retrieve", no_network)
    monkeypatch.delenv("GENESEL_DATA_MIRROR", raising=False)
    with pytest.raises(FetchError, match=r"could not download alon\.RData .*GENESEL_DATA_MIRROR=DIR"):
        fetch_file("alon.RData", cache=tmp_path)
    with pytest.raises(FetchError, match=r"alon\.RData is not in the cache"):
        fetch_file("alon.RData", cache=tmp_path, download=False)


def test_mirror_that_is_not_a_folder(tmp_path):
    with pytest.raises(FetchError, match="is not a folder"):
        fetch_file("alon.RData", mirror=tmp_path / "nowhere", cache=tmp_path)


def test_cli_list_and_fetch(mirror, tmp_path, capsys):
    from data_fetch.__main__ import main

    assert main(["--list"]) == 0
    assert "golub" in capsys.readouterr().out
    assert main(["colon", "--mirror", str(mirror), "--cache", str(tmp_path), "--offline"]) == 0
    assert (tmp_path / "alon.RData").exists()
    assert main(["nope"]) == 2


def _parsed_file(tmp_path, name="alon"):
    parsed = list((tmp_path / "parsed").glob(f"{name}-*.rec"))
    assert len(parsed) == 1
    return parsed[0]


def _reload(tmp_path, name="alon"):
    from genesel import datasets as D

    D._load.cache_clear()
    return load_dataset(name, cache=tmp_path)


@pytest.mark.parametrize("damage", ["garbage", "forged-value", "shape", "other-data-set", "pickle", "old-format"])
def test_damaged_or_forged_parse_cache_is_reported_deleted_and_rebuilt(mirror, tmp_path, damage, monkeypatch):
    """A parsed file with a changed value used to be served as long as its checksum was recomputed; one with the
    wrong shape failed every load. Now a parsed file is an authenticated record naming its data set and source: a
    file that fails (garbage, a value changed by someone without the cache's key, a genuine record of the wrong shape
    or of another data set, a pickled payload) is deleted, reported once with its path, and rebuilt; no code in it
    ever runs. Files of the earlier format are replaced with one message per process (cells and parsed data
    alike)."""
    import io
    import json
    import pickle
    import zipfile

    from genesel._core.io import CacheIntegrityWarning
    from genesel._core.store import write_record
    from test_store import _Evil, _forge

    a = _reload(tmp_path)
    path = _parsed_file(tmp_path)
    marker = tmp_path / "pwned"
    if damage == "garbage":
        path.write_bytes(b"broken")
    elif damage == "forged-value":  # one value changed in its 13th digit by a writer without the key
        def change(body, arrays):
            rec = json.loads(body)
            i = rec["data"]["X"]["__array__"]
            arrays[i] = arrays[i].copy()
            arrays[i][3, 7] *= 1 + 1e-12
            return body, arrays

        _forge(path, change)
    elif damage == "shape":  # a genuine record of the wrong shape (e.g. written by a broken parser)
        from genesel._core.store import read_record

        rec = read_record(path, kind="parsed")
        rec["X"] = rec["X"][:, :-1].copy()
        write_record(path, rec, kind="parsed")
    elif damage == "other-data-set":  # a genuine record of another data set copied under this name
        _reload(tmp_path, "golub")
        path.write_bytes(_parsed_file(tmp_path, "golub").read_bytes())
    elif damage == "pickle":
        buf = io.BytesIO()
        np.save(buf, np.array([_Evil(marker)], dtype=object), allow_pickle=True)
        with zipfile.ZipFile(path, "a") as zf:
            zf.writestr(f"a{len(zf.namelist()) - 2}.npy", buf.getvalue())
    else:  # the earlier format: an .npz beside, no record
        path.unlink()
        (tmp_path / "parsed" / "alon-0123456789abcdef.npz").write_bytes(pickle.dumps("old"))
    if damage == "old-format":
        import genesel._core.io as gio

        monkeypatch.setattr(gio, "_LEGACY_SEEN", {"told": False})
        with pytest.warns(CacheIntegrityWarning, match="older genesel format") as caught:
            b = _reload(tmp_path)
        assert len(caught) == 1
        assert not list((tmp_path / "parsed").glob("alon-*.npz"))
        (tmp_path / "parsed" / "alon-0123456789abcdef.npz").write_bytes(b"old again")
        for p in (tmp_path / "parsed").glob("alon-*.rec"):
            p.unlink()
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheIntegrityWarning)  # said once per process: the second is silent
            b = _reload(tmp_path)
        assert not list((tmp_path / "parsed").glob("alon-*.npz"))
    else:
        with pytest.warns(CacheIntegrityWarning, match=re.escape(str(path))):
            b = _reload(tmp_path)
    assert not marker.exists(), "code in a parsed file ran"
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheIntegrityWarning)
        c = _reload(tmp_path)  # repaired: read from the new file, no warning
    np.testing.assert_array_equal(a.X, c.X)
    assert _parsed_file(tmp_path).stat().st_size > 1000


def test_gene_symbols_from_the_mirror_annotation(mirror):
    from genesel.datasets import annotation_note, gene_labels, gene_symbols

    golub, singh, alon = load_dataset("golub"), load_dataset("singh"), load_dataset("alon")
    g = gene_symbols(golub)
    ids = list(golub.gene_ids)
    # Golub's AML markers, named by the GenBank accession in their Hu6800 probe IDs
    assert g[ids.index("M23197_at")] == "CD33" and g[ids.index("X95735_at")] == "ZYX"
    assert all(s == "" for s in g[:10])  # AFFX control probes have no gene
    s = gene_symbols(singh)
    assert 0.9 < np.mean(s != "") < 1.0  # HG-U95Av2 probe IDs looked up directly
    assert "symbols for" in annotation_note(singh, s)
    assert not np.any(gene_symbols(alon) != "") and "no gene symbols" in annotation_note(alon)
    assert gene_labels(golub, [ids.index("M23197_at"), 0]) == ["CD33 (M23197_at)", "AFFX-BioB-5_at"]


def test_display_name_reads_the_registry_and_a_paper_spelling():
    from genesel.datasets import display_name

    assert display_name("golub") == "Leukemia (Golub 1999)"
    assert display_name("leukemia") == "Leukemia (Golub 1999)"  # aliases resolve
    assert display_name("chandran_primary") == "Prostate, primary (Chandran 2007)"
    assert display_name("gordon") == "Lung adenocarcinoma vs mesothelioma (Gordon 2002)"
    assert display_name("khan") == "Small round blue cell tumours (Khan 2001)"
    assert display_name("mnist_0v8") == "mnist_0v8"  # no title in the registry: the name
    assert display_name("my_own_file") == "my_own_file"  # not registered (a user's data set)
    spelling = {"golub": "Leuk", "pomeroy": "C_MD"}
    assert display_name("golub", spelling) == "Leuk" and display_name("cmd", spelling) == "C_MD"
    assert display_name("alon", spelling) == "Colon (Alon 1999)"
    assert display_name("alon", spelling, fallback="name") == "alon"
    with pytest.raises(ValueError, match="fallback must be 'title' or 'name'"):
        display_name("golub", fallback="short")


def test_every_paper_names_its_data_sets_through_the_one_lookup(mirror):
    """Each paper's spelling, as its tables printed them before the names moved to the registry."""
    from genesel.papers import gentile2003, guyon2002_report, helleputte2009, shah2012_report, tan2006

    assert [shah2012_report.paper_name(d) for d in ("alon", "golub", "pomeroy", "west", "garber", "mnist_1v7")] == \
        ["Colon", "Leuk", "C_MD", "BreastER", "Lung", "MNIST-1vs7"]
    assert [gentile2003.paper_name(d) for d in ("golub", "alon", "west", "singh", "alizadeh", "gordon")] == \
        ["Leukemia", "Colon", "Breast", "Prostate", "Lymphoma", "gordon"]
    assert [helleputte2009.study_name(d) for d in ("singh", "chandran_metastasis", "gordon")] == \
        ["Singh", "Chandran (metastasis)", "gordon"]
    assert [tan2006.thesis_name(d) for d in ("alon", "golub", "singh", "west")] == \
        ["Colon", "Leukemia", "Prostate (Singh)", "Breast ER (West 2001)"]
    assert guyon2002_report.dataset_title("golub") == "Leukemia (ALL vs AML)"
    assert guyon2002_report.dataset_title("alon") == "Colon (normal vs tumour)"
    assert guyon2002_report.dataset_title("singh") == "singh (Normal vs Tumor)"
