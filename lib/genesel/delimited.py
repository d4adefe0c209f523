"""Text files read strictly and within bounds: the layer under every text format of
:mod:`genesel.expression_io` (CSV/TSV, GEO SOFT and Series Matrix, sample sheets).

- **Strict decoding.** UTF-8 (a UTF-8 byte-order mark is skipped) or the ``encoding`` given; a byte that does not
  decode is an error naming the file, the line and the byte offset, never a replacement character (two latin-1
  labels that differ by an accent would merge into one class).
- **Bounds.** :class:`Limits`: the decompressed size (``max_bytes``, and ``max_ratio`` times the size of a gzip
  file once more than 64 MiB came out of it: a 2 MB gzip expanding to 1 GB is refused after reading 200 MB), and a
  line's length (``max_line_bytes``: a 1 GB line is refused after reading 64 MiB of it, and the separator is
  sniffed on the first 64 KiB of the first two lines, never on whole lines). Each message names the cap and the
  keyword that raises it.
- **Gzip** is read transparently; a truncated or corrupt stream is an error naming the file.
- **Tables in bounded memory** (:func:`parse_table`): lines are checked (same number of fields on every line) and
  their numbers parsed by numpy's C reader (``numpy.loadtxt``) a chunk of about 2 MB at a time into one float64
  array allocated once from a line count, so the peak is about the matrix plus a few chunks, whatever the file's
  size (and a wide table costs no per-column objects). A cell that is not a number is an
  error naming the line, the column and the cause where one can be told: a boolean (``TRUE``/``FALSE``, never read
  as 1/0), a decimal comma (``decimal=','``), a thousands separator (``thousands=','``), a column of text that looks
  like class labels (``label='class'``).

Written for genesel rather than taken from a library because the readers that exist (pandas, the csv module) decode
with replacement or fail without a line number, pad short rows silently, read booleans as numbers, and hold the
whole text in memory.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Limits", "DEFAULT_MISSING", "iter_lines", "count_lines", "sniff_separator", "parse_table", "Table",
           "split_fields", "check_encoding"]

#: Cells read as missing values in expression data unless ``missing=`` says otherwise. ``-`` and ``?`` are not
#: among them (a class or a value named so is not taken for a gap); labels and groups are missing only when empty.
DEFAULT_MISSING = ("", "NA", "NaN", "nan", "null", "NULL", "N/A", "n/a", "#N/A")
_RATIO_FLOOR = 64 * 2**20
_SNIFF_BYTES = 64 * 2**10
_CHUNK_BYTES = 2 * 2**20


@dataclass(frozen=True)
class Limits:
    """Caps on a reader: ``max_bytes`` of text (after decompression), ``max_ratio`` times the size of a gzip file
    (checked once ``_RATIO_FLOOR`` = 64 MiB came out of it), ``max_line_bytes`` per line. Raise one by passing the
    keyword of the same name to ``read_expression`` / ``load_dataset``."""

    max_bytes: int = 16 * 2**30
    max_line_bytes: int = 64 * 2**20
    max_ratio: float = 100.0

    @classmethod
    def of(cls, **kw) -> "Limits":
        kw = {k: v for k, v in kw.items() if v is not None}
        for k, v in kw.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"{k} must be a positive number, got {v!r}")
        return cls(**kw)


def _mib(n) -> str:
    return f"{n / 2**20:,.0f} MiB" if n >= 2**20 else f"{int(n):,} bytes"


def check_encoding(encoding) -> str | None:
    """The codec name of ``encoding`` (None: UTF-8 with an optional BOM), or a ValueError: an unknown name, or an
    encoding that is not ASCII-compatible (UTF-16/32: lines cannot be split on bytes)."""
    if encoding is None:
        return None
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r} (e.g. 'utf-8', 'latin-1', 'cp1252')") from None
    if "\n".encode(name) != b"\n":
        raise ValueError(f"encoding {encoding!r} is not ASCII-compatible; save the file as UTF-8")
    return name


class _Capped(io.RawIOBase):
    """The decompressed bytes of a file, counted against the limits; gzip errors named with the file."""

    def __init__(self, path: Path, limits: Limits):
        self.path, self.limits = path, limits
        self._raw = path.open("rb")
        self.gz = self._raw.read(2) == b"\x1f\x8b"
        self._raw.seek(0)
        self.size = path.stat().st_size
        self._inner = gzip.GzipFile(fileobj=self._raw) if self.gz else self._raw
        self.total = 0

    def readable(self):
        return True

    def readinto(self, b):
        try:
            n = self._inner.readinto(b)
        except EOFError:
            raise ValueError(f"{self.path}: the gzip stream ends early, after {self.total:,} bytes of text: a "
                             "truncated file (an interrupted download?); download it again") from None
        except (gzip.BadGzipFile, zlib.error, OSError) as exc:
            raise ValueError(f"{self.path}: not a readable gzip file ({exc}): a corrupt or truncated download?") \
                from None
        self.total += n
        lim = self.limits
        if self.total > lim.max_bytes:
            raise ValueError(f"{self.path}: more than {_mib(lim.max_bytes)} of text"
                             + (" after decompression" if self.gz else "")
                             + "; pass max_bytes= a larger number of bytes to read it")
        if self.gz and self.total > _RATIO_FLOOR and self.total > lim.max_ratio * max(self.size, 1):
            raise ValueError(f"{self.path}: {_mib(self.size)} of gzip expand to more than {_mib(self.total)} "
                             f"(over {lim.max_ratio:g} times the file; expression tables compress 3 to 20 times): a "
                             "decompression bomb or a damaged file. If it is a genuine table, pass max_ratio= a "
                             "larger factor")
        return n

    def close(self):
        try:
            if self.gz:
                self._inner.close()
            self._raw.close()
        finally:
            super().close()


def open_bytes(path: Path, limits: Limits):
    """A buffered binary stream of the file's text bytes (decompressed), within ``limits``."""
    return io.BufferedReader(_Capped(Path(path), limits), buffer_size=1 << 20)


def count_lines(path: Path, limits: Limits) -> int:
    """The number of lines of a file (newlines, plus a last line without one), read in blocks."""
    n, last = 0, b"\n"
    with open_bytes(path, limits) as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


def iter_lines(path: Path, *, encoding=None, limits: Limits = Limits(), max_lines=None, prefix=None, budget=None):
    """(line number from 1, text without its line end) of each line, decoded strictly.

    ``encoding`` None: UTF-8, a leading UTF-8 byte-order mark skipped. A byte that does not decode raises a
    ValueError naming the file, line and byte offset and suggesting ``encoding='latin-1'``. ``prefix``: yield only
    the first ``prefix`` characters of each line (a look at the start of a file, cheap on wide lines); ``budget``:
    stop after about that many bytes."""
    enc = check_encoding(encoding) or "utf-8"
    cap = limits.max_line_bytes
    path = Path(path)
    with open_bytes(path, limits) as fh:
        offset, lineno = 0, 0
        while (max_lines is None or lineno < max_lines) and (budget is None or offset < budget):
            raw = fh.readline(cap + 1)
            if not raw:
                return
            lineno += 1
            if len(raw) > cap and not raw.endswith(b"\n"):
                raise ValueError(f"{path}: line {lineno} is longer than {_mib(cap)} (max_line_bytes); an expression "
                                 "file's lines are far shorter: is it a text table? If it is, pass max_line_bytes= "
                                 "a larger number of bytes")
            start = 0
            if lineno == 1:
                if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                    raise ValueError(f"{path}: a UTF-16 text file (its byte-order mark); save it as UTF-8")
                if raw.startswith(codecs.BOM_UTF8) and enc in ("utf-8", "utf-8-sig"):
                    start = 3
            chunk = raw[start:] if prefix is None else raw[start:start + 4 * prefix]
            try:
                text = chunk.decode(enc)
            except UnicodeDecodeError as exc:
                if prefix is not None and exc.start >= len(chunk) - 4:  # a character cut by the prefix
                    text = chunk[:exc.start].decode(enc)
                else:
                    bad = chunk[exc.start]
                    raise ValueError(
                        f"{path}: line {lineno}, byte {offset + start + exc.start} (0x{bad:02x}) is not valid "
                        f"{'UTF-8' if enc == 'utf-8' else enc}: the file is in another encoding. If it was written "
                        "in latin-1 (e.g. by Excel on Windows), pass encoding='latin-1' (or the encoding it was "
                        "saved in)") from None
            offset += len(raw)
            text = text.rstrip("\r\n") if prefix is None else text[:prefix].rstrip("\r\n")
            if "\r" in text and prefix is None:  # old Mac line ends inside one "line"
                for k, piece in enumerate(text.split("\r")):
                    yield lineno + k, piece
                lineno += text.count("\r")
                continue
            yield lineno, text


_QUOTED = re.compile(r'"[^"]*"')


def split_fields(line: str, sep: str) -> list[str]:
    """The fields of one line (double quotes protect separators), stripped of spaces and quotes."""
    if '"' not in line:
        return [f.strip() for f in line.split(sep)]
    return [f.strip() for f in next(csv.reader([line], delimiter=sep, quotechar='"'))]


def _n_fields(line: str, sep: str) -> int:
    return (_QUOTED.sub("", line) if '"' in line else line).count(sep) + 1


def sniff_separator(lines: list[str]) -> str:
    """The separator of a table from (at most 64 KiB of) its first two lines: tab, comma or semicolon, the one
    that occurs on both lines as many times (the header may lack the identifier column's name), tab first."""
    head = [ln[:_SNIFF_BYTES] for ln in lines[:2]]
    if not head:
        return ","
    if len(head) == 1:
        head.append(head[0])
    best = None
    for sep in ("\t", ",", ";"):
        h, d = (_QUOTED.sub("", x).count(sep) for x in head)
        if h > 0 and d in (h, h + 1) and (best is None or h > best[1]):
            best = (sep, h)
            if sep == "\t":
                break
    if best is not None:
        return best[0]
    first = head[0]
    return "\t" if "\t" in first else ("," if "," in first else ";")


@dataclass
class Table:
    """A parsed table: ``values`` (rows x numeric columns, float64), the row identifiers, the numeric columns'
    names, the text columns (name -> list of strings), the text rows (identifier -> fields after the identifier),
    the identifier column's header, and the file line of the header."""

    values: np.ndarray
    row_ids: list
    columns: list
    text_columns: dict
    text_rows: dict
    index_name: str
    header_line: int


_BOOL = {"true", "false"}
_DEC_COMMA = re.compile(r"^[-+]?\d*,\d+(?:[eE][-+]?\d+)?$")
_THOUSANDS_COMMA = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_THOUSANDS_DOT = re.compile(r"^[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$")
_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")


#: Excel's error values (``#N/A`` is among the default missing markers): a formula that failed, not a measurement.
EXCEL_ERRORS = ("#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!", "#CALC!", "#GETTING_DATA")


def _cause(value: str, column_values, name: str, decimal, thousands, label_hint) -> str:
    """Why a cell is not a number, where that can be told."""
    v = value.strip()
    if v.upper() in EXCEL_ERRORS:
        return (f"{value!r}, Excel's error value of a formula that failed (not a measurement): correct the formula "
                f"in the workbook and export it again, or, to read such cells as missing values, add them to the "
                f"markers: missing=[..., {v!r}]")
    if v.lower() in _BOOL:
        return (f"a boolean value {value!r}: expression values must be numbers (TRUE/FALSE cells are refused, "
                "not read as 1 and 0)")
    if decimal == "." and _THOUSANDS_DOT.match(v) and "," in v:
        return (f"{value!r} is written with a decimal comma and '.' between thousands: pass decimal=',' and "
                "thousands='.'")
    if decimal == "." and _DEC_COMMA.match(v) and not _THOUSANDS_COMMA.match(v):
        return f"{value!r} is written with a decimal comma: pass decimal=','"
    if thousands is None and _THOUSANDS_COMMA.match(v):
        return (f"{value!r} holds a thousands separator (',' between groups of three digits): pass thousands=',' "
                "(or decimal=',' if the comma is a decimal comma)")
    if thousands is None and decimal == "." and _THOUSANDS_DOT.match(v) and v.count(".") > 1:
        return f"{value!r} holds '.' between thousands: pass thousands='.' (and decimal=',' if there is one)"
    if label_hint:
        texts = [str(x).strip() for x in column_values if str(x).strip() and not _NUMBER.match(str(x).strip())]
        distinct = sorted(set(texts))
        if len(texts) == len([x for x in column_values if str(x).strip()]) and 1 < len(distinct) <= max(10, len(
                texts) // 2):
            shown = ", ".join(repr(x) for x in distinct[:4]) + (", ..." if len(distinct) > 4 else "")
            return (f"a non-numeric value {value!r}; the column holds text ({shown}), like class labels: did you "
                    f"mean label={name!r}?")
    return f"a non-numeric value {value!r}"


def _token_re(tokens, sep: str, flags=0):
    """A regex of whole cells equal to one of ``tokens`` (spaces around them allowed) between separators."""
    s = re.escape(sep)
    pad = "[ ]*" if sep != " " else ""
    alts = "|".join(re.escape(t) for t in sorted({t for t in tokens if t}, key=len, reverse=True))
    parts = [f"(?:{alts})"] if alts else []
    if "" in tokens:
        parts.append("")
    if not parts:
        return None
    return re.compile(rf"(?:(?<={s})|^){pad}(?:{'|'.join(parts)}){pad}(?={s}|$)", re.M | flags)


class _Cells:
    """The numeric cells of one chunk of lines: the identifiers, the text columns, and the numbers' text (one line
    per row, only the numeric fields, unquoted) from which ``np.loadtxt`` reads them. In a wide line (over 256
    fields) text columns among the first or last 64 are cut off without splitting the whole line."""

    def __init__(self, chunk, sep, num_pos, text_pos, width):
        self.ids, self.text, lines = [], {j: [] for j in text_pos}, []
        n_cols = width - 1
        head = [j for j in text_pos if j < 64]
        tail = [j for j in text_pos if j >= n_cols - 64]
        cut = width > 256 and len(head) + len(tail) == len(text_pos)
        nh = max(head) + 1 if head else 0  # columns 0..nh-1 split off the front
        nt = n_cols - min(tail) if tail else 0  # columns n_cols-nt..n_cols-1 split off the back
        tset = set(text_pos)
        for _, t in chunk:
            if '"' not in t and not text_pos:
                ident, _, rest = t.partition(sep)
                self.ids.append(ident.strip())
                lines.append(rest)
            elif not text_pos and t.startswith('"') and t.count('"') == 2:  # a quoted identifier (Series Matrix)
                end = t.index('"', 1)
                self.ids.append(t[1:end].strip())
                lines.append(t[end + 1:].partition(sep)[2])
            elif cut and '"' not in t:
                left = t.split(sep, nh + 1)
                right = left.pop().rsplit(sep, nt) if nt else [left.pop()]
                middle = right[0]
                cols = {c: left[c + 1] for c in range(nh)}
                cols.update({n_cols - nt + k: right[k + 1] for k in range(nt)})
                self.ids.append(left[0].strip())
                for j in text_pos:
                    self.text[j].append(cols[j].strip())
                lines.append(sep.join([cols[c] for c in range(nh) if c not in tset] + [middle]
                                      + [cols[c] for c in range(n_cols - nt, n_cols) if c not in tset]))
            else:
                f = split_fields(t, sep) if '"' in t else t.split(sep)
                self.ids.append(f[0].strip())
                for j in text_pos:
                    self.text[j].append(f[j + 1].strip())
                lines.append(sep.join(f[j + 1] for j in num_pos))
        self.block = "\n".join(lines)


def _fill_missing(block: str, sep: str, missing) -> str:
    """``block`` with every whole cell equal to a missing-value marker replaced by ``nan`` (plain string
    replacements between sentinel separators: each pass is a C scan of the text)."""
    markers = [m for m in missing if m == "" or m in block]
    if not markers:
        return block
    b = sep + block.replace("\n", sep + "\n" + sep) + sep
    for m in markers:
        for _ in range(2):  # adjacent markers share a separator: a second pass catches every other one
            b = b.replace(sep + m + sep, sep + "nan" + sep)
    return b[len(sep):-len(sep)].replace(sep + "\n" + sep, "\n")


def parse_table(lines, where: str, *, sep: str | None = None, n_rows: int, decimal: str = ".",
                thousands: str | None = None, missing=DEFAULT_MISSING, text_columns=(), text_rows=(),
                stop: str | None = None, label_hint: bool = True, row_axis: str = "row") -> Table:
    """A delimited table from ``lines`` (an iterator of (line number, text) from :func:`iter_lines`, positioned at
    the header line), in bounded memory.

    The first field of every line is its identifier; the header names the columns (it may lack a name for the
    identifier column). ``text_columns`` (names) and ``text_rows`` (identifiers) are kept as text, every other
    cell must be a number (C syntax: ``1``, ``-2.5``, ``1e-3``; ``decimal`` and ``thousands`` change the marks)
    or one of ``missing``. ``n_rows`` bounds the number of data lines (a line count: the array is allocated once).
    ``stop``: a line that ends the table (GEO's end markers, case-insensitive). ``sep``: sniffed from the first two
    lines when None. The numbers are parsed by ``numpy.loadtxt`` a chunk of lines at a time."""
    if decimal not in (".", ","):
        raise ValueError(f"decimal must be '.' or ',', got {decimal!r}")
    if thousands is not None and (thousands == decimal or len(thousands) != 1):
        raise ValueError(f"thousands must be one character other than the decimal mark, got {thousands!r}")
    lines = iter(lines)
    try:
        hline, header = next(lines)
    except StopIteration:
        raise ValueError(f"{where}: empty (no header line)") from None
    pending = []
    for lineno, text in lines:
        if stop is not None and text.strip().lower() == stop.lower():
            stop = "<ended>"
            break
        pending.append((lineno, text))
        if text.strip():
            break
    if sep is None:
        sep = sniff_separator([header] + [t for _, t in pending[-1:]])
    if sep in (decimal, thousands):
        raise ValueError(f"{where}: the separator {sep!r} is also the {'decimal' if sep == decimal else 'thousands'} "
                         "mark; pass sep=")
    head = split_fields(header, sep)
    if not pending or not pending[-1][1].strip():
        raise ValueError(f"{where}: a header line (line {hline}) and at least one data line are needed")
    first_no, first = pending[-1]
    width = _n_fields(first, sep)
    if len(head) == width - 1:  # a header without a name for the identifier column
        head = [""] + head
    if len(head) != width:
        raise ValueError(f"{where}: the header (line {hline}) has {len(head)} fields but line {first_no} has {width} "
                         f"(separator {sep!r})")
    names = head[1:]
    text_set = set(text_columns)
    text_pos = [j for j, h in enumerate(names) if h in text_set]
    num_pos = [j for j, h in enumerate(names) if h not in text_set]
    trows = set(text_rows)
    values = np.empty((max(n_rows, 1), len(num_pos)), dtype=np.float64)
    row_ids: list = []
    tcols = {names[j]: [] for j in text_pos}
    trow_out: dict = {}
    miss = tuple(missing)
    missing_re = _token_re(miss, sep)
    filled = 0

    def fail(chunk, cells, r, c):
        """The ValueError for the cell at row ``r``, numeric column ``c`` of the chunk (0-based)."""
        raw_fields = split_fields(chunk[r][1], sep)
        raw = raw_fields[num_pos[c] + 1] if len(raw_fields) > num_pos[c] + 1 else ""
        column = [split_fields(t, sep)[num_pos[c] + 1] for _, t in chunk[:200]]
        cause = _cause(raw, column, names[num_pos[c]], decimal, thousands, label_hint) if raw.strip() else \
            "an empty cell"
        return ValueError(f"{where}: line {chunk[r][0]}, column {names[num_pos[c]]!r} (field {num_pos[c] + 2}; "
                          f"{row_axis} {cells.ids[r]!r}): {cause}; expression values must be numbers (missing "
                          f"values may be {', '.join(repr(m) for m in miss[:5])}{', ...' if len(miss) > 5 else ''}; "
                          "missing= sets them)")

    def flush(chunk):
        nonlocal filled, values
        if not chunk:
            return
        cells = _Cells(chunk, sep, num_pos, text_pos, width)
        block = cells.block
        if thousands:
            block = block.replace(thousands, "")
        if decimal != ".":
            block = block.replace(decimal, ".")
        block = _fill_missing(block, sep, miss)
        parsed = None
        for attempt in range(2):
            try:
                parsed = np.loadtxt(block.split("\n"), delimiter=sep, dtype=np.float64, ndmin=2, comments=None,
                                    quotechar=None) if num_pos else np.empty((len(chunk), 0))
                break
            except ValueError as exc:
                if attempt == 0 and missing_re is not None:  # markers padded with spaces: the slower regex
                    block = missing_re.sub("nan", block)
                    continue
                m = re.search(r"at row (\d+), column (\d+)", str(exc))
                if m:
                    raise fail(chunk, cells, int(m.group(1)), int(m.group(2)) - 1) from None
                raise ValueError(f"{where}: lines {chunk[0][0]}-{chunk[-1][0]} cannot be read as numbers ({exc})") \
                    from None
        block = parsed
        k = len(chunk)
        inf = np.isinf(block)
        if inf.any():
            r, c = np.argwhere(inf)[0]
            raise ValueError(f"{where}: an infinite value at line {chunk[r][0]}, column {names[num_pos[c]]!r}")
        if filled + k > values.shape[0]:  # more lines than counted (cannot happen for a file read twice)
            values = np.concatenate([values, np.empty((filled + k - values.shape[0], values.shape[1]))])
        values[filled:filled + k] = block
        filled += k
        row_ids.extend(cells.ids)
        for j in text_pos:
            tcols[names[j]].extend(cells.text[j])

    def rows_of(source):
        nonlocal stop
        for lineno, text in source:
            if stop is not None and stop != "<ended>" and text.strip().lower() == stop.lower():
                stop = "<ended>"
                return
            yield lineno, text

    chunk, size = [], 0
    for lineno, text in (x for src in (pending, rows_of(lines)) for x in src):
        if not text.strip():  # empty lines are skipped (as pandas does)
            continue
        n = _n_fields(text, sep)
        if n != width:
            raise ValueError(f"{where}: line {lineno} has {n} fields but line {first_no} has {width} (ragged rows; "
                             f"separator {sep!r})")
        if trows:
            ident = split_fields(text.split(sep, 1)[0], sep)[0] if '"' in text else text.split(sep, 1)[0].strip()
            if ident in trows:
                if ident in trow_out:
                    raise ValueError(f"{where}: the row {ident!r} occurs twice (lines {trow_out[ident][0]} and "
                                     f"{lineno})")
                fields_ = split_fields(text, sep)[1:]
                trow_out[ident] = (lineno, [fields_[j] for j in num_pos])
                continue
        chunk.append((lineno, text))
        size += len(text)
        if size >= _CHUNK_BYTES:
            flush(chunk)
            chunk, size = [], 0
    flush(chunk)
    if stop is not None and stop != "<ended>":
        raise ValueError(f"{where}: no {stop} line after line {hline}: the table is cut short (a truncated download?)")
    if filled < values.shape[0]:
        values = values[:filled].copy() if filled < 0.9 * values.shape[0] else values[:filled]
    return Table(values, row_ids, [names[j] for j in num_pos], tcols,
                 {k: v[1] for k, v in trow_out.items()}, head[0], hline)
