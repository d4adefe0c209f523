"""A data reference as a value: which data (a registered data set, or a researcher's file and how to read it),
built once at the edge (an API call, a notebook parameter) and carrying its identity.

:class:`DataRef` is what :func:`genesel.datasets.load_dataset` resolves every argument into, what a notebook turns a
parameter into, and what a grid cell's cache key asks for its identity (:meth:`DataRef.key`): the registry name of a
registered set; the sha256 of a file's content (and of its sample sheets), never its path, with the reading options
that change what is read. Moving or renaming a file keeps its cached results; editing it does not.

The reference travels between processes (grid cells take plain values) as one string, :meth:`DataRef.to_string`,
read back by :meth:`DataRef.of`. One quoting rule for that string:

- the path, as written, up to the first ``?`` (a path holding ``?`` cannot be written as a string: use the API);
- then ``key=value`` options separated by ``&``; the options that take a list (``classes``, ``missing``) separate
  their items by ``,``;
- in a value, ``%``, ``&`` and ``,`` are written ``%25``, ``%26`` and ``%2C``; every ``%XX`` is decoded (UTF-8
  percent-decoding, RFC 3986); nothing else is special: ``+`` is a plus, spaces and accents stay as they are.

So ``study.csv?label=subtype&classes=ER+,ER-`` reads the classes ``ER+`` and ``ER-``, ``classes=CD14+ Monocyte,B
cell`` two names with spaces, and a class named ``a,b`` or ``x&y`` is written ``a%2Cb`` or ``x%26y``.
:meth:`DataRef.to_string` applies the rule, so a string it makes always reads back to the same value; in Python,
pass real lists instead (``load_dataset(path, classes=["a,b", "x&y"])``).

The module imports nothing of the data layer (the readers import it), so the grid can recognise a user's file
without importing a reader.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from urllib.parse import unquote

__all__ = ["DataRef", "is_file_reference", "file_sha256", "READ_OPTIONS", "LIMIT_OPTIONS", "SCALES",
           "quote_value", "parse_string", "display_name_of", "is_sheet"]

#: Reading options a reference can hold (they change what is read, so they are part of its identity).
READ_OPTIONS = ("label", "label_column", "classes", "groups", "rows", "name", "impute", "sep", "encoding", "decimal",
                "thousands", "missing", "layer", "scale")
#: Caps on what a reader may spend (they change whether a file is read, never what is read: not in the identity).
LIMIT_OPTIONS = ("max_bytes", "max_line_bytes", "max_ratio")
#: The scales a file's values can be on (:attr:`genesel.dataset.Dataset.scale`); ``"auto"`` decides from the values.
SCALES = ("log", "raw-intensity", "counts")
_LIST_OPTIONS = ("classes", "missing")
_PATH_SUFFIXES = (".csv", ".tsv", ".txt", ".tab", ".gz", ".soft", ".h5ad")
_DEFAULTS = dict(label=None, label_column=None, classes=None, groups=None, rows="auto", name=None, impute=None,
                 sep=None, encoding=None, decimal=".", thousands=None, missing=None, layer=None, scale="auto")


def is_file_reference(value) -> bool:
    """True for a value that names a file rather than a registered data set: an ``os.PathLike``, a file
    :class:`DataRef`, or a string whose path part (before any ``?``) holds a path separator or ends in a data-file
    suffix (``.csv``, ``.tsv``, ``.txt``, ``.tab``, ``.gz``, ``.soft``, ``.h5ad``); registered names have neither."""
    if isinstance(value, DataRef):
        return value.is_file
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str) or value.startswith("<"):
        return False
    path = value.partition("?")[0]
    return os.sep in path or "/" in path or path.lower().endswith(_PATH_SUFFIXES)


_DIGESTS: dict = {}


def file_sha256(path) -> str:
    """The sha256 of a file's bytes, computed once per process for each (file, size, modification time)."""
    p = os.path.realpath(os.fspath(path))
    st = os.stat(p)
    sig = (p, st.st_size, st.st_mtime_ns, st.st_ino)
    if sig not in _DIGESTS:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        if len(_DIGESTS) > 256:
            _DIGESTS.clear()
        _DIGESTS[sig] = h.hexdigest()
    return _DIGESTS[sig]


def content_of(value):
    """What a file reference's data are, as a hashable value: the sha256 of the file and of its sample sheets (None
    for a registered name, whose files the registry pins). The key of the in-process caches that take a reference
    string (:func:`genesel.leaderboard.cells.load`, :func:`genesel.papers.common.load_task`): a file rewritten in
    place (a label corrected, then the notebook's cells run again in the same kernel) is read again, not served as
    it was, and so never computed under its new content's cache key from its old values."""
    if not is_file_reference(value):
        return None
    ref = value if isinstance(value, DataRef) else DataRef.of(value)
    return ref.digest, ref.sheet_digests


def cached_by_content(maxsize: int):
    """``functools.lru_cache(maxsize)`` whose key also holds :func:`content_of` of every file reference among the
    arguments (a reference string, a DataRef or a path, alone or in a tuple of them): a cache of what was read from
    a file serves it only while the file's bytes (and its sample sheets') are those it was read from. The cached
    function's arguments must be hashable, as for ``lru_cache``; ``cache_clear`` clears it."""
    def decorate(func):
        @functools.lru_cache(maxsize=maxsize)
        def cached(args, kwargs, contents):
            return func(*args, **dict(kwargs))

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            values = (*args, *kwargs.values())
            contents = tuple(tuple(content_of(x) for x in v) if isinstance(v, tuple) else content_of(v)
                             for v in values)
            return cached(args, tuple(sorted(kwargs.items())), contents)

        wrapper.cache_clear = cached.cache_clear
        return wrapper

    return decorate


def quote_value(text: str) -> str:
    """A value written by the reference string's one quoting rule: ``%``, ``&`` and ``,`` percent-encoded."""
    return str(text).replace("%", "%25").replace("&", "%26").replace(",", "%2C")


_SHEET_SUFFIXES = (".csv", ".tsv", ".txt", ".tab", ".gz")


def is_sheet(value) -> bool:
    """True when a ``label`` or ``groups`` value names a sample sheet rather than a column, row, subset or
    characteristic: an ``os.PathLike``, or a string that names an existing file or ends in a table suffix (``.csv``,
    ``.tsv``, ``.txt``, ``.tab``, ``.gz``). A column named ``"ER/PR status"`` stays a column."""
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str) or not value:
        return False
    return os.path.isfile(os.path.expanduser(value)) or value.lower().endswith(_SHEET_SUFFIXES)


@dataclass(frozen=True)
class DataRef:
    """Which data to load, and how: a registered data set (``source`` its registry name) or a file (``source`` its
    absolute path) with its reading options (those of :func:`genesel.expression_io.read_expression`).

    Build it with :meth:`DataRef.of` (from a registered name, a path, a reference string or another DataRef, with
    options as keyword arguments); it is immutable, hashable and compares by value. ``digest`` is the sha256 of a
    file's content, taken when the reference is built; ``sheet_digests`` those of the sample sheets its ``label``
    or ``groups`` name.

    Examples
    --------
    >>> from genesel.dataref import DataRef
    >>> DataRef.of("colon")                 # a registered set, by name or alias
    DataRef('alon')
    >>> DataRef.of("golub").key()           # a registered set's identity is its registry name
    'golub'
    """

    source: str
    is_file: bool
    label: str | None = None
    label_column: str | None = None
    classes: tuple | str | None = None
    groups: str | None = None
    rows: str = "auto"
    name: str | None = None
    impute: str | None = None
    sep: str | None = None
    encoding: str | None = None
    decimal: str = "."
    thousands: str | None = None
    missing: tuple | None = None
    layer: str | None = None
    scale: str = "auto"
    digest: str | None = field(default=None, compare=False)
    sheet_digests: tuple = field(default=(), compare=False)
    limits: tuple = field(default=(), compare=False)

    # ------------------------------------------------------------------------------------------------ building

    @classmethod
    def of(cls, value, **options) -> "DataRef":
        """The reference named by ``value`` (a registered name or alias, a path, a reference string, a DataRef),
        with ``options`` (reading options and limits, by keyword) set on top of those the string holds. Options
        given as None are ignored (a notebook's unset parameter). Refuses unknown names and options, options for
        a registered set other than ``impute``, and a file that does not exist."""
        options = {k: v for k, v in options.items() if v is not None}
        if isinstance(value, DataRef):
            return value.with_options(**options) if options else value
        if isinstance(value, os.PathLike):
            text, opts = os.fspath(value), {}
        elif isinstance(value, str):
            text, opts = parse_string(value)
        else:
            raise TypeError(f"a data set is a registered name, a path or a DataRef, got {type(value).__name__}")
        unknown = sorted(set(options) - set(READ_OPTIONS) - set(LIMIT_OPTIONS))
        if unknown:
            raise TypeError(f"unknown reading option(s) {unknown}; the options are {', '.join(READ_OPTIONS)} and the "
                            f"limits {', '.join(LIMIT_OPTIONS)}")
        opts.update(options)
        if not is_file_reference(value if isinstance(value, os.PathLike) else text):
            return cls._registered(text, opts)
        return cls._file(text, opts)

    @classmethod
    def _registered(cls, name: str, opts: dict) -> "DataRef":
        from data_fetch import DATASETS, resolve

        try:
            spec = resolve(name)
        except ValueError:
            raise ValueError(f"{name!r} is neither a registered data set ({', '.join(sorted(DATASETS))}) nor the path "
                             "of a file (a path holds a '/' or ends in .csv, .tsv, .txt, .tab, .gz, .soft or .h5ad; "
                             f"write ./{name} for a file in the working folder)") from None
        impute = opts.pop("impute", "knn")
        opts = {k: v for k, v in opts.items() if k not in LIMIT_OPTIONS}
        if opts:
            raise ValueError(f"{spec.name!r} is a registered data set: label= and reading options "
                             f"({', '.join(sorted(opts))}) apply to files only")
        if impute not in ("knn", None, "none", "auto"):
            raise ValueError(f"impute must be 'knn' or None, got {impute!r}")
        return cls(spec.name, False, impute="knn" if impute in ("knn", "auto") else None)

    @classmethod
    def _file(cls, path: str, opts: dict) -> "DataRef":
        p = Path(path).expanduser()
        if not p.is_file():
            from data_fetch import DATASETS

            raise FileNotFoundError(f"no such expression file: {p} (nor a registered data set: "
                                    f"{', '.join(sorted(DATASETS))})")
        limits = tuple(sorted((k, opts.pop(k)) for k in LIMIT_OPTIONS if k in opts))
        opts = _check_options(opts, str(p))
        sheets = []
        for k in ("label", "groups"):
            v = opts.get(k)
            if v is not None and is_sheet(v):
                sp = Path(v).expanduser()
                if not sp.is_file():
                    raise FileNotFoundError(f"no such sample sheet: {sp} (given as {k}=)")
                opts[k] = str(sp.resolve())
                sheets.append((k, file_sha256(sp)))
        return cls(str(p.resolve()), True, **opts, digest=file_sha256(p), sheet_digests=tuple(sheets), limits=limits)

    def with_options(self, **options) -> "DataRef":
        """A copy with some options changed (None: left as it is)."""
        options = {k: v for k, v in options.items() if v is not None}
        if not self.is_file:
            return DataRef._registered(self.source, {"impute": self.impute, **options})
        return DataRef._file(self.source, {**self.options(), **dict(self.limits), **options})

    # ------------------------------------------------------------------------------------------------ reading

    def options(self) -> dict:
        """The reading options that differ from the defaults (keywords of ``read_expression``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name in READ_OPTIONS and getattr(self, f.name) != _DEFAULTS[f.name]}

    def read_options(self) -> dict:
        """Every keyword :func:`genesel.expression_io.read_expression` needs for this file, limits included."""
        return {**self.options(), **dict(self.limits)}

    @property
    def path(self) -> Path | None:
        return Path(self.source) if self.is_file else None

    @property
    def display_name(self) -> str:
        """Its name in titles and tables: the ``name`` option, else the file name, else the registry name."""
        if self.name:
            return self.name
        return Path(self.source).name if self.is_file else self.source

    # ------------------------------------------------------------------------------------------------ identity

    def key(self):
        """Its identity for a cache key (plain JSON data): a registered set's name (with ``impute`` when it is not
        the default); for a file, the sha256 of its content and of its sample sheets with every reading option
        that is not the default (paths never enter: a moved file keeps its key)."""
        if not self.is_file:
            return self.source if self.impute == "knn" else {"registered": self.source, "impute": self.impute}
        out = {"sha256": self.digest}
        sheets = dict(self.sheet_digests)
        for k, v in self.options().items():
            if k in sheets:
                out[f"{k}_sheet_sha256"] = sheets[k]
            else:
                out[k] = list(v) if isinstance(v, tuple) else v
        return {"file": out}

    def to_string(self) -> str:
        """The reference as one string (the module's quoting rule), which :meth:`of` reads back to an equal
        DataRef: what grid cells and notebook tables carry."""
        if not self.is_file:
            return self.source if self.impute == "knn" else f"{self.source}?impute=none"
        if "?" in self.source:
            raise ValueError(f"{self.source}: a path holding '?' cannot be written as a reference string; pass a "
                             "DataRef (genesel.dataref.DataRef.of(path, ...)) instead")
        parts = []
        for k, v in self.options().items():
            if k in _LIST_OPTIONS and isinstance(v, tuple):
                parts.append(f"{k}=" + ",".join(quote_value(x) for x in v))
            else:
                parts.append(f"{k}={quote_value(v)}")
        parts += [f"{k}={v}" for k, v in self.limits]
        return self.source + ("?" + "&".join(parts) if parts else "")

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"DataRef({self.to_string()!r})"


def _check_options(opts: dict, where: str) -> dict:
    """Reading options in canonical form (tuples of strings for lists), or a ValueError naming the option."""
    out = {}
    for k, v in opts.items():
        if k == "classes":
            if isinstance(v, str):
                if v.strip() != "all":
                    raise ValueError(f"{where}: classes must be a list of class names (at least two) or 'all', got "
                                     f"{v!r}; pass a list, e.g. classes=[{v!r}, ...]")
                v = "all"
            else:
                v = tuple(str(c) for c in v)
                if len(v) < 2:
                    raise ValueError(f"{where}: classes must name at least two classes (or be 'all'), got {list(v)}")
                if len(set(v)) != len(v):
                    raise ValueError(f"{where}: classes names a class twice: {list(v)}")
        elif k == "missing":
            v = (v,) if isinstance(v, str) else tuple(str(m) for m in v)
        elif k == "rows":
            if v not in ("auto", "samples", "genes"):
                raise ValueError(f"{where}: rows must be 'auto', 'samples' or 'genes', got {v!r}")
        elif k == "impute":
            if v in ("none", "None", "", "auto"):
                v = None
            if v not in (None, "knn"):
                raise ValueError(f"{where}: impute must be 'knn' or None, got {v!r}")
        elif k == "scale":
            if v not in ("auto",) + SCALES:
                raise ValueError(f"{where}: scale must be 'auto' or one of {', '.join(SCALES)}, got {v!r}")
        elif k in ("label", "label_column", "groups", "layer", "name", "sep", "encoding", "decimal", "thousands"):
            v = os.fspath(v) if isinstance(v, os.PathLike) else v
            if not isinstance(v, str):
                raise ValueError(f"{where}: {k} must be a string, got {type(v).__name__} {v!r} (labels or groups "
                                 "given as arrays go to read_expression with a DataFrame or array source)")
        out[k] = v
    if out.get("label_column") is not None and not is_sheet(out.get("label")):
        raise ValueError(f"{where}: label_column={out['label_column']!r} names a column of a sample sheet, but "
                         + (f"label={out['label']!r} is not a sample sheet's path" if out.get("label") is not None
                            else "no sample sheet is given (label=<its path>)"))
    return out


_KEY = re.compile(r"^[a-z_]+$")


def display_name_of(value) -> str:
    """The name a reference shows in titles and tables (its ``name`` option, else the file name, else the name
    given), read from its string alone: the file need not exist (a table of an earlier run)."""
    if isinstance(value, DataRef):
        return value.display_name
    if isinstance(value, os.PathLike):
        return Path(value).name
    path, opts = parse_string(str(value))
    return opts.get("name") or (Path(path).name if is_file_reference(value) else path)


def parse_string(text: str) -> tuple[str, dict]:
    """(path or name, options) of a reference string, by the module's quoting rule (nothing is checked on disk)."""
    path, _, query = text.partition("?")
    opts: dict = {}
    if not query:
        return path, opts
    for part in query.split("&"):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if key not in READ_OPTIONS and key not in LIMIT_OPTIONS:
            hint = ""
            if not eq or not _KEY.match(key):
                hint = (f" ('{part}' follows an '&': a value holding '&' must be written %26 in a reference string, "
                        "',' as %2C and '%' as %25; or pass the values as a list in Python, e.g. "
                        "load_dataset(path, classes=['x&y', 'z']))")
            raise ValueError(f"{text}: unknown reading option {key!r}; the options are {', '.join(READ_OPTIONS)} "
                             f"(and the limits {', '.join(LIMIT_OPTIONS)}){hint}")
        if key in opts:
            raise ValueError(f"{text}: the option {key!r} is given twice")
        if key in _LIST_OPTIONS and value.strip() != "all":
            opts[key] = tuple(unquote(v) for v in value.split(","))
        elif key in LIMIT_OPTIONS:
            try:
                opts[key] = float(value) if key == "max_ratio" else int(value)
            except ValueError:
                raise ValueError(f"{text}: {key} must be a number, got {value!r}") from None
        else:
            opts[key] = unquote(value)
    return path, opts
