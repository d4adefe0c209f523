"""Real public microarray data sets as one uniform :class:`Dataset`.

``load_dataset("golub")`` fetches the raw public files through :mod:`data_fetch` (cache, local mirror or pinned
URL, always sha256-checked), parses them, checks the shape and class counts against the registry, and returns a
:class:`Dataset` whose ``y`` is coded -1/+1 (``classes`` names the two) for binary tasks, or 0..K-1 for the few
multi-class sets. The parsed arrays are cached next to the raw files (``data/parsed/``), keyed by the files'
checksums, so later loads take milliseconds. A parsed file is an authenticated record of plain data
(:mod:`genesel._core.store`: arrays and JSON, never a pickle, with an HMAC made with a key kept outside the data
folder) that names its data set and the raw files it was parsed from; on reading, the record, that identity and
the registered shape are checked: a file that fails (bit rot, a hand-edited, truncated or forged file, one copied
from another data set) is deleted, reported once with its path (``CacheIntegrityWarning``) and rebuilt from the
sha256-checked raw files, so a damaged or tampered cache can neither serve wrong numbers nor fail every load.
A data folder that cannot take the parsed copy (a full disk, a read-only folder holding the raw files) does not fail
the load either: the data are parsed from the raw files and used, with a :class:`CacheWriteWarning` naming the path
(once per process and data set), and parsed again next time.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from data_fetch import DATASETS, FAMILIES, FILES, cache_dir, fetch_file, resolve
from data_fetch.fetch import cache_write_remedy
from data_fetch.parsers import Raw
from genesel._core.io import CacheIntegrityWarning, drop_legacy_files
from genesel._core.store import RecordError, read_record, write_record
from genesel.dataref import DataRef
from genesel.dataset import Dataset
from genesel.expression_io import read_expression
from genesel.imputation import knn_impute_genes

__all__ = ["Dataset", "DataRef", "load_dataset", "read_expression", "list_datasets", "display_name",
           "recommended_preprocessing", "preprocessing_note", "gene_symbols", "gene_labels", "annotation_note",
           "CacheWriteWarning"]


class CacheWriteWarning(UserWarning):
    """The parsed copy of a data set could not be written (full disk, read-only data folder): the data were parsed
    from the checked raw files and used, but will be parsed again on the next load. The message names the path."""

_PARSE_VERSION = "1"  # bump when a parser changes what it returns


def _source_digest(spec) -> str:
    """What a parsed file is parsed from: the raw files' sha256 and the parser version."""
    return hashlib.sha256(("|".join(FILES[f].sha256 for f in spec.files) + _PARSE_VERSION).encode()).hexdigest()


def _parsed_path(spec, cdir: Path) -> Path:
    return cdir / "parsed" / f"{spec.name}-{_source_digest(spec)[:16]}.rec"


_ARRAYS = ("X", "labels", "gene_ids", "sample_ids")


def _read_parsed(pp: Path, spec):
    """The arrays of a parsed-data record, or None after deleting a file that fails its checks (reported once)."""
    try:
        rec = read_record(pp, kind="parsed")
    except FileNotFoundError:
        return None
    except RecordError as exc:
        problem = str(exc)
    except Exception as exc:  # noqa: BLE001 - any failure to read the cache: named, removed, rebuilt
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        if not isinstance(rec, dict) or rec.get("name") != spec.name or rec.get("source") != _source_digest(spec):
            problem = "the record of another data set or of other raw files (copied or renamed)"
        elif not all(isinstance(rec.get(k), np.ndarray) for k in _ARRAYS):
            problem = "missing arrays"
        elif rec["X"].shape != tuple(spec.shape):
            problem = f"of the wrong shape {rec['X'].shape} (expected {tuple(spec.shape)})"
        else:
            return rec
    try:
        pp.unlink(missing_ok=True)
        done = "deleted"
    except OSError as exc:  # a read-only data folder: never served all the same
        done = f"not deleted ({cache_write_remedy(exc, pp)}), not used"
    warnings.warn(f"parsed data cache {pp} was {problem}; {done}, rebuilding it from the checked raw files",
                  CacheIntegrityWarning, stacklevel=4)
    return None


def _drop_legacy_parsed(pp: Path, spec) -> None:
    """Parsed files of the earlier format (``.npz`` with a plain checksum) are deleted unread when the record
    replacing them is written; the first old-format file of the process (cells or parsed data) is said once
    (:func:`genesel._core.io.drop_legacy_files`)."""
    drop_legacy_files(list(pp.parent.glob(f"{spec.name}-*.npz")), pp.parent, stacklevel=5)


def _raw(spec, mirror, cache) -> Raw:
    cdir = cache_dir(cache)
    pp = _parsed_path(spec, cdir)
    z = _read_parsed(pp, spec)
    if z is not None:
        return Raw(z["X"], z["labels"], z["gene_ids"], z["sample_ids"], z.get("train_idx"), z.get("test_idx"))
    raw = spec.parser(lambda f: fetch_file(f, mirror=mirror, cache=cdir))
    arrays = dict(X=np.ascontiguousarray(raw.X, dtype=np.float64), labels=raw.labels.astype(str),
                  gene_ids=raw.gene_ids.astype(str), sample_ids=raw.sample_ids.astype(str))
    if arrays["X"].shape != tuple(spec.shape):  # checked raw files, wrong result: the parser, not the cache
        raise ValueError(f"data set {spec.name}: parsing {spec.files} gives shape {arrays['X'].shape}, expected "
                         f"{tuple(spec.shape)}; the files passed their sha256 check, so the parser does not match them")
    if raw.train_idx is not None:
        arrays.update(train_idx=raw.train_idx, test_idx=raw.test_idx)
    try:
        write_record(pp, {"name": spec.name, "source": _source_digest(spec), **arrays}, kind="parsed")
        _drop_legacy_parsed(pp, spec)
    except OSError as exc:  # a full disk, a read-only data folder: use the parse, do not cache it
        warnings.warn(f"data set {spec.name}: parsed from the checked raw files without caching the result; "
                      f"{cache_write_remedy(exc, pp)} (until then every new process parses the raw files again)",
                      CacheWriteWarning, stacklevel=4)
    return Raw(arrays["X"], arrays["labels"], arrays["gene_ids"], arrays["sample_ids"], raw.train_idx,
               raw.test_idx)


@lru_cache(maxsize=16)
def _load(name: str, mirror, cache, impute) -> Dataset:
    spec = resolve(name)
    raw = _raw(spec, mirror, cache)
    if raw.X.shape != spec.shape:
        raise ValueError(f"data set {spec.name}: parsed shape {raw.X.shape} differs from the expected "
                         f"{spec.shape}; the raw files {spec.files} may have changed")
    X = raw.X.copy()
    if np.isnan(X).any():
        if impute == "knn":
            X = knn_impute_genes(X)
        elif impute is not None:
            raise ValueError(f"impute must be 'knn' or None, got {impute!r}")
    labels = raw.labels
    grouped = labels
    if spec.merge:  # several raw classes form the positive class; all the others the negative one
        grouped = np.where(np.isin(labels, list(spec.merge)), spec.classes[1], spec.classes[0])
    if spec.counts is not None:
        got = {str(k): int(v) for k, v in zip(*np.unique(grouped, return_counts=True))}
        if got != spec.counts:
            raise ValueError(f"data set {spec.name}: class counts {got} differ from the expected {spec.counts}")
    if spec.classes is not None:
        y = np.where(grouped == spec.classes[1], 1, -1).astype(np.int64)
        if not np.all(np.isin(grouped, spec.classes)):
            raise ValueError(f"data set {spec.name}: labels outside {spec.classes}: {set(grouped) - set(spec.classes)}")
        classes = tuple(spec.classes)
    else:
        names = np.unique(labels)
        y = np.searchsorted(names, labels).astype(np.int64)
        classes = tuple(str(c) for c in names)
    for arr in (X, y):
        arr.setflags(write=False)
    from genesel.preprocessing import decide_scale

    scale, reason = decide_scale(X)
    return Dataset(spec.name, X, y, classes, raw.gene_ids, raw.sample_ids, spec.description, spec.citation,
                   raw.train_idx, raw.test_idx, labels, {"scale_reason": reason}, None, scale,
                   DataRef(spec.name, False, impute=impute))


def load_dataset(name, *, label=None, mirror: str | os.PathLike | None = None,
                 cache: str | os.PathLike | None = None, impute: str | None = "auto", **read_options) -> Dataset:
    """Load a registered data set by name or alias (see :func:`list_datasets`), or a user's file.

    Parameters
    ----------
    name : a registered name, e.g. ``"golub"`` (alias ``"leukemia"``), ``"alon"`` (``"colon"``), ``"singh"``
        (``"prostate"``), ``"west"`` (``"breast_er"``), ``"pomeroy"`` (``"cmd"``), ``"alizadeh"`` (``"lymphoma"``),
        ``"mnist_0v8"``; or the path of a file of one's own (CSV/TSV, GEO SOFT or Series Matrix, ``.h5ad``), read by
        :func:`read_expression`; or a :class:`genesel.dataref.DataRef`, or its string form with the reading options
        after a ``?`` (``"study.csv?label=class&classes=ER+,ER-"``, the quoting rule of :mod:`genesel.dataref`):
        the form notebook parameters and grid cells pass around.
    label : for a file: where its class labels are (see :func:`read_expression`); ``read_options`` (``classes`` as a
        list, ``groups``, ``rows``, ``name``, ``sep``, ``encoding``, ``decimal``, ``thousands``, ``missing``,
        ``layer``, ``scale`` and the limits ``max_bytes``, ``max_line_bytes``, ``max_ratio``) go there too, on top of
        those a reference string holds. A file with more than two classes is refused unless ``classes`` chooses
        (or is ``"all"``).
    mirror : a local folder holding the raw files (default ``$GENESEL_DATA_MIRROR``); used before downloading.
    cache : download cache (default ``$GENESEL_DATA_DIR`` or the repository's ``data/``).
    impute : ``"auto"`` (default): a registered set with missing values (Alizadeh's lymphoma, 5 % missing) is
        imputed as published with it, gene-wise KNNimpute (Troyanskaya et al. 2001) over the whole matrix, label-free;
        a file keeps its missing values as NaN, to be imputed inside each training part
        (:class:`genesel.preprocessing.MissingValueImputer`, a step of :func:`recommended_preprocessing` for such a
        file). ``"knn"`` or ``None`` choose one of the two for either kind (a file's reference may say
        ``?impute=knn``).

    The arrays of the returned Dataset are read-only; copy them before changing them in place. A file is read once
    per process for each content (sha256) and reading options.

    Examples
    --------
    >>> from genesel.datasets import load_dataset
    >>> ds = load_dataset("golub")                  # from $GENESEL_DATA_MIRROR, else downloaded and sha256-checked
    >>> ds
    Dataset('golub', 72 x 7129, {'ALL': 47, 'AML': 25}, split 38/34)
    >>> ds.X.shape, ds.classes, ds.y[:3].tolist(), ds.gene_ids[:2].tolist()
    ((72, 7129), ('ALL', 'AML'), [-1, -1, -1], ['AFFX-BioB-5_at', 'AFFX-BioB-M_at'])

    A file of one's own loads the same way (here the first 50 genes of Golub's set, written out as a CSV with a
    column of labels):

    >>> import tempfile, pathlib, numpy as np, pandas as pd
    >>> frame = pd.DataFrame(ds.X[:, :50], index=ds.sample_ids, columns=ds.gene_ids[:50])
    >>> frame.insert(0, "class", np.where(ds.y > 0, "AML", "ALL"))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     frame.to_csv(pathlib.Path(tmp, "my_study.csv"))
    ...     mine = load_dataset(pathlib.Path(tmp, "my_study.csv"), label="class")
    >>> mine, np.array_equal(mine.X, ds.X[:, :50])
    (Dataset('my_study.csv', 72 x 50, {'ALL': 47, 'AML': 25}), True)
    """
    if impute not in ("auto", "knn", None):
        raise ValueError(f"impute must be 'auto', 'knn' or None, got {impute!r}")
    explicit = {} if impute == "auto" else {"impute": "none" if impute is None else impute}
    ref = DataRef.of(name, label=label, **read_options, **explicit)  # an explicit argument beats the string's
    if ref.is_file:
        return _read_file(ref, ref.digest, ref.sheet_digests, ref.limits)
    mirror = str(mirror) if mirror is not None else os.environ.get("GENESEL_DATA_MIRROR") or None
    cache = str(cache) if cache is not None else None
    return _load(ref.source, mirror, cache, ref.impute)


@lru_cache(maxsize=8)
def _read_file(ref: DataRef, digest, sheets, limits) -> Dataset:
    """The file's Dataset, read once per process for each content (sha256) and reading options."""
    return read_expression(ref)


def list_datasets() -> pd.DataFrame:
    """One row per registered data set: name, aliases, shape, classes (-1, +1), class counts, papers, files, the
    scale of its published values and what they measure (:mod:`data_fetch.registry`).

    Examples
    --------
    >>> from genesel.datasets import list_datasets
    >>> table = list_datasets().set_index("name")
    >>> print(table.loc[["golub", "alon"], ["n_samples", "n_genes", "classes"]].to_string(index_names=False))
           n_samples  n_genes           classes
    golub         72     7129        ALL vs AML
    alon          62     2000  normal vs tumour
    >>> table.loc["alon", "aliases"], table.loc["alon", "counts"]
    ('colon', {'tumour': 40, 'normal': 22})
    """
    rows = []
    for spec in DATASETS.values():
        rows.append(dict(name=spec.name, aliases=", ".join(spec.aliases), n_samples=spec.shape[0],
                         n_genes=spec.shape[1], classes=" vs ".join(spec.classes) if spec.classes else "multi-class",
                         counts=spec.counts, papers=", ".join(spec.papers), files=", ".join(spec.files),
                         scale=spec.scale, measures=spec.measures))
    for fam, members in FAMILIES.items():
        rows.append(dict(name=fam, aliases="", n_samples=None, n_genes=None, classes="family",
                         counts=None, papers="", files=", ".join(members), scale="", measures=""))
    out = pd.DataFrame(rows)
    return out.astype({"n_samples": "Int64", "n_genes": "Int64"})


def display_name(name: str, spelling=None, *, fallback: str = "title") -> str:
    """The name of data set ``name`` (registry name or alias) in titles and tables: the one lookup of every notebook.

    ``spelling`` is a paper's own name for its data sets ({registry name: name}, e.g. Shah et al.'s ``{"golub":
    "Leuk"}``), a fact of that paper kept beside its printed numbers; it is used first. A data set it does not name
    gets its registry ``title`` ("Leukemia (Golub 1999)") with ``fallback="title"``, or its registry name ("golub")
    with ``fallback="name"``; a data set without a title, or not registered (e.g. one read from a user's file), is
    called by the name given."""
    if fallback not in ("title", "name"):
        raise ValueError(f"fallback must be 'title' or 'name', got {fallback!r}")
    from genesel.dataref import display_name_of, is_file_reference

    if is_file_reference(name):  # a user's file: its reading name, else its file name
        return (spelling or {}).get(str(name)) or display_name_of(name)
    name = name.source if isinstance(name, DataRef) else name
    try:
        spec = resolve(name)
    except ValueError:
        spec = None
    key = spec.name if spec is not None else name
    if spelling:
        for k in (key, name):
            if k in spelling:
                return spelling[k]
    if spec is None:
        return name
    return (spec.title or spec.name) if fallback == "title" else spec.name


def _as_dataset_or_name(data):
    """(Dataset or None, registry name or None) of what recommended_preprocessing is given."""
    if isinstance(data, Dataset):
        ref = data.ref
        registered = isinstance(ref, DataRef) and not ref.is_file
        return data, (ref.source if registered else None)
    ref = DataRef.of(data)
    if not ref.is_file:
        return None, ref.source
    return load_dataset(ref), None


def _file_steps(ds: Dataset) -> tuple[list, str]:
    """The steps for a file's Dataset and the sentence that states the decision."""
    from genesel.preprocessing import CountNormalizer, LogTransform, MissingValueImputer

    forced = ds.extra.get("scale_reason", "").startswith("scale=")
    scale = ds.scale or "log"
    missing = bool(np.isnan(ds.X).any())
    steps, words = [], []
    if scale == "counts":
        if missing:
            steps.append(("impute", MissingValueImputer(strategy="knn")))
            words.append("missing counts imputed from the k nearest training samples")
        steps.append(("counts", CountNormalizer(method="tmm", log=True)))
        words.append("counts normalised by library size (TMM factors against a training reference, Robinson & "
                     "Oshlack 2010) and taken as log2(CPM + 1)")
    else:
        if scale == "raw-intensity":
            steps.append(("log", LogTransform(floor=1.0, floor_quantile=0.05,
                                              already_log=False if forced else "auto")))
            words.append("raw intensities floored at the training part's 5th percentile (at least 1) and logged"
                         + ("" if forced else ", the log decided again on each training part (LogTransform's rule)"))
        else:
            words.append("values already on a log scale, used as they are")
        if missing:
            steps.append(("impute", MissingValueImputer(strategy="knn")))
            words.append("missing values imputed from the k nearest training samples")
    return steps, "; ".join(words)


def preprocessing_note(data) -> str:
    """One sentence: the preprocessing :func:`recommended_preprocessing` decides for ``data`` and why (the scale
    the values were found on), for a notebook to state."""
    ds, name = _as_dataset_or_name(data)
    if name is not None:
        log = resolve(name).log
        how = (f"floored at {log['floor']:g}" + (f", capped at {log['ceiling']:g}" if log.get("ceiling") else "")
               + " and logged (the customary treatment of its platform)") if log else "used as published"
        return f"{display_name(name)}: values {how}, then each gene standardised on the training part."
    steps, words = _file_steps(ds)
    return (f"{ds.name}: {words}, then each gene standardised on the training part; all fitted inside each training "
            f"part. Scale: {ds.extra.get('scale_reason', ds.scale)}.")


def recommended_preprocessing(data, standardize: bool = True):
    """The preprocessing of a data set as an (unfitted) ``Pipeline``, every step fitted inside each training part:
    the one decision for that data set, the same in every route.

    ``data``: a :class:`Dataset` (the way for a user's file: nothing is read or hashed again), or a registered
    name, a path or a :class:`~genesel.dataref.DataRef` (a file is then loaded, once per process).

    - A registered set: the customary transform of its platform (below: raw MAS intensities floored, capped and
      logged; sets published on a log scale as they are), then per-gene standardisation (``standardize``).
    - A file, by its ``Dataset.scale`` (decided when read, :func:`genesel.preprocessing.decide_scale`, or given as
      ``scale=``): raw intensities are logged (:class:`~genesel.preprocessing.LogTransform`: floored at the training
      part's 5th percentile, at least 1, and its rule decides again on each training part whether to log); counts
      are normalised by library size and logged (:class:`~genesel.preprocessing.CountNormalizer`, TMM); values on a
      log scale are used as they are. A file with missing values gets a
      :class:`~genesel.preprocessing.MissingValueImputer` (k nearest training samples). Then per-gene
      standardisation. A label-free gene filter (quick modes' most variable genes) ranks genes on this decided
      scale: ``recommended_preprocessing(ds, standardize=False).fit_transform(ds.X)``.

    :func:`preprocessing_note` states the decision in a sentence.

    Examples
    --------
    >>> from genesel.datasets import recommended_preprocessing
    >>> [name for name, _ in recommended_preprocessing("golub").steps]
    ['log', 'standardize']
    >>> recommended_preprocessing("golub").named_steps["log"]
    LogTransform(ceiling=16000.0)
    """
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    from genesel.preprocessing import GeneStandardizer, LogTransform

    ds, name = _as_dataset_or_name(data)
    if name is not None:
        log = resolve(name).log
        steps = [("log", LogTransform(**log))] if log is not None else []
    else:
        steps = _file_steps(ds)[0]
    if standardize:
        steps.append(("standardize", GeneStandardizer(on_constant="zero")))
    if not steps:
        steps.append(("identity", FunctionTransformer()))
    return Pipeline(steps)


# ----------------------------------------------------------------------------------------------------------------
# Gene symbols: the HG-U95Av2 annotation (GEO platform GPL8300) that ships with the data mirror
# ----------------------------------------------------------------------------------------------------------------

_ANNOTATION_FILE = "GPL8300_limpo.txt.gz"
_AFFY_SUFFIX = ("_at", "-at")


@lru_cache(maxsize=2)
def _gpl8300(mirror, cache):
    """(probe ID -> symbol, GenBank accession -> symbol) from GPL8300; symbols with '///' keep the first one."""
    path = fetch_file(_ANNOTATION_FILE, mirror=mirror, cache=cache_dir(cache))
    tab = pd.read_csv(path, sep="\t", dtype=str, usecols=["ID", "GB_ACC", "Gene Symbol"]).fillna("")
    sym = tab["Gene Symbol"].str.split("///").str[0].str.strip()
    by_probe = dict(zip(tab["ID"], sym))
    by_acc: dict[str, str] = {}
    for acc, s_ in zip(tab["GB_ACC"], sym):
        if acc and s_:
            by_acc.setdefault(acc.split(".")[0], s_)
    return by_probe, by_acc


def _accession(probe: str) -> str:
    """GenBank accession of an Hu6800 / Hum6000 probe ID: 'M27891_at' -> 'M27891', 'X03934_cds1_at' -> 'X03934'."""
    p = probe.replace("-", "_")
    for suf in ("_s_at", "_f_at", "_i_at", "_r_at", "_g_at", "_at"):
        if p.endswith(suf):
            p = p[: -len(suf)]
            break
    return p.split("_")[0]


_U133 = re.compile(r"^2\d{5}(?:_[a-z])?_at$")  # HG-U133A/B probe sets: 200000_s_at ... 222384_at, 1007_s_at


def _is_u133(ids) -> bool:
    """Probe IDs of the HG-U133 family (more than a quarter of them of the 2xxxxx_at form): another platform than
    GPL8300 describes, whose probe set names coincide with U95Av2's only by accident."""
    ids = np.asarray(ids).astype(str)
    return ids.size > 0 and float(np.mean([bool(_U133.match(g)) for g in ids])) > 0.25


def gene_symbols(ds: Dataset, *, mirror=None, cache=None) -> np.ndarray:
    """Gene symbols for the genes of ``ds`` ('' where none is known), from GEO's GPL8300 table (the Affymetrix
    HG-U95Av2 annotation in the data mirror): HG-U95A(v2) probe IDs (Singh, Welsh, Chandran, Gordon) are looked up
    directly; Hu6800 / Hum6000 probe IDs (Golub, Pomeroy) through the GenBank accession they are named after, which
    covers most but not all of them. Data sets whose genes are unnamed in the public files (Alon, West, Shipp,
    Alizadeh, ...) get no symbols; :func:`annotation_note` says which case applies. A data set read from a file
    that names its genes' symbols (a GEO DataSet's IDENTIFIER column, an AnnData symbol column) has those."""
    own = ds.extra.get("symbols") if isinstance(ds.extra, dict) else None
    if own is not None:
        return np.asarray([str(v) if v is not None and str(v) not in ("nan", "None") else "" for v in own],
                          dtype=object)
    if _is_u133(ds.gene_ids):  # HG-U133 sets (chowdary, borovecki, nakayama): no annotation of their platform
        return np.full(ds.n_genes, "", dtype=object)
    mirror = str(mirror) if mirror is not None else os.environ.get("GENESEL_DATA_MIRROR") or None
    by_probe, by_acc = _gpl8300(mirror, None if cache is None else str(cache))
    out = []
    for g in np.asarray(ds.gene_ids).astype(str):
        s_ = by_probe.get(g, "")
        if not s_ and g.endswith(_AFFY_SUFFIX) and not g.startswith("AFFX"):
            s_ = by_acc.get(_accession(g), "")
        out.append(s_)
    return np.asarray(out, dtype=object)


def gene_labels(ds: Dataset, idx=None, symbols=None) -> list[str]:
    """Readable labels for genes ``idx`` of ``ds``: "SYMBOL (probe)" where a symbol is known, else the probe ID."""
    idx = np.arange(ds.n_genes) if idx is None else np.asarray(idx)
    symbols = gene_symbols(ds) if symbols is None else symbols
    ids = np.asarray(ds.gene_ids).astype(str)
    return [f"{symbols[i]} ({ids[i]})" if symbols[i] else ids[i] for i in idx]


def annotation_note(ds: Dataset, symbols=None) -> str:
    """One sentence: where the gene symbols of ``ds`` come from and how many genes have one."""
    symbols = gene_symbols(ds) if symbols is None else symbols
    n = int(np.sum(symbols != ""))
    extra = ds.extra if isinstance(ds.extra, dict) else {}
    if extra.get("symbols") is not None:  # a user's file that names them (GEO DataSet IDENTIFIER, AnnData var)
        return f"{ds.name}: gene symbols for {n} of {ds.n_genes} genes, as the file names them."
    if n == 0 and extra.get("source"):
        return (f"{ds.name}: no gene symbols: the file names none, and its gene IDs ({ds.gene_ids[0]}, ...) are not "
                "probe IDs of the one annotation in the data mirror (HG-U95Av2 / Hu6800, GEO's GPL8300).")
    if n == 0 and _is_u133(ds.gene_ids):
        return (f"{ds.name}: HG-U133 probe sets ({ds.gene_ids[0]}, ...); the data mirror holds only the HG-U95Av2 "
                "annotation (GPL8300), not this platform's (GPL96), so no gene symbols are available.")
    if n == 0:
        return (f"{ds.name}: the public files name its genes only by position ({ds.gene_ids[0]}, ...); no gene "
                "symbols are available.")
    return (f"{ds.name}: gene symbols for {n} of {ds.n_genes} genes from GEO's HG-U95Av2 annotation (GPL8300), "
            "matched by probe ID or, for the older Hu6800 chip, by the GenBank accession in the probe ID.")


# ----------------------------------------------------------------------------------------------------------------
# Several studies of one platform on their shared probe IDs (transfer between studies, Helleputte & Dupont 2009)
# ----------------------------------------------------------------------------------------------------------------


def align_studies(datasets, *, min_shared: int = 1) -> list[Dataset]:
    """The given studies restricted to the gene (probe) IDs they all share, in one column order.

    Matching is by ID, never by position: columns are reordered to the order of the first study. Each study keeps
    its own values and labels; nothing is normalised here (normalise each study on its own training part, later,
    inside the protocol). Refuses studies with duplicated IDs (ambiguous) and fewer than ``min_shared`` shared
    IDs, naming the studies and what they hold.
    """
    datasets = list(datasets)
    if not datasets:
        raise ValueError("align_studies needs at least one data set")
    for ds in datasets:
        ids = np.asarray(ds.gene_ids).astype(str)
        uniq, counts = np.unique(ids, return_counts=True)
        if uniq.size != ids.size:
            raise ValueError(f"data set {ds.name!r} has {ids.size - uniq.size} duplicated gene IDs (e.g. "
                             f"{uniq[counts > 1][:3].tolist()}); they cannot be matched across studies")
    shared = set(np.asarray(datasets[0].gene_ids).astype(str))
    for ds in datasets[1:]:
        shared &= set(np.asarray(ds.gene_ids).astype(str))
    if len(shared) < max(1, int(min_shared)):
        sizes = ", ".join(f"{ds.name} ({ds.n_genes} genes, e.g. {ds.gene_ids[0]})" for ds in datasets)
        raise ValueError(f"the studies {sizes} share {len(shared)} gene IDs (at least {min_shared} needed): studies "
                         "can only be aligned when they were measured on the same platform and name their probes the "
                         "same way")
    first = np.asarray(datasets[0].gene_ids).astype(str)
    order = [g for g in first if g in shared]
    out = []
    for ds in datasets:
        pos = {g: i for i, g in enumerate(np.asarray(ds.gene_ids).astype(str))}
        out.append(ds.subset(genes=np.array([pos[g] for g in order], dtype=np.int64)))
    return out


__all__.append("align_studies")
