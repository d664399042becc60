"""CSV exports (with or without a header line) read through a mapping."""

from __future__ import annotations

import csv
import io

import pyarrow as pa
import pyarrow.csv as pcsv

from onrecord.errors import InputError, shorten
from onrecord.sources.lines import Records, non_blank, split_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed, Reject
from onrecord.sources.rows import RowReader

# A record longer than this is not a dispatch row (a field of megabytes is a broken export
# or a hostile one); it is refused with its line. Well under pyarrow's block, so a record
# never straddles two blocks.
MAX_RECORD_BYTES = 8 << 20
BLOCK_BYTES = 1 << 24


def read_csv(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    text = decode(data, mapping.encoding, file)
    m = mapping
    records = split_records(data, m.quote.encode(m.encoding), m.delimiter.encode(m.encoding))
    data_rows = non_blank(records.raws)
    if not data_rows:
        raise InputError("the file is empty", file=file)
    names = _column_names(records, data_rows, m, file)
    if m.header:
        data_rows = data_rows[1:]
    parsed = Parsed(records=records)
    data_rows = _readable_records(records, data_rows, file, parsed)
    if not data_rows:
        return parsed
    table, data_rows = _parse_rows(records, data_rows, names, m, file, text is not data, parsed)
    if not data_rows:
        return parsed
    lines = [records.ordinals[i] for i in data_rows]
    RowReader(m, table, data_rows, lines, file, tz, agency, parsed).read()
    return parsed


def decode(data: bytes, encoding: str, file: str) -> str | bytes:
    """Check every byte decodes; return utf-8 bytes to parse (the input itself if utf-8)."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"byte 0x{data[exc.start]:02x} cannot be read as {encoding}; is the file in another "
            f"encoding? (set [file] encoding in the mapping)", file=file, line=line) from exc
    if encoding.replace("-", "").lower() in ("utf8", "ascii"):
        return data
    return text.encode("utf-8")


def _column_names(records: Records, data_rows: list[int], m: Mapping, file: str) -> list[str]:
    if not m.header:
        names = list(m.columns)
        missing = [c for c in m.columns_used() if c not in names]
        if missing:
            raise InputError(f"mapping {m.name} uses columns not named in [file] columns: "
                             f"{', '.join(missing)}", file=m.origin, field="file.columns")
        return names
    first = data_rows[0]
    raw, line = records.raws[first], records.ordinals[first]
    if len(raw) > MAX_RECORD_BYTES:
        raise InputError(f"the header is {len(raw):,} bytes long; a header over {MAX_RECORD_BYTES >> 20} MiB "
                         "cannot be a CSV header (is this the file the mapping is for?)", file=file, line=line)
    if records.unclosed == first:
        raise InputError("a quoted name in the header is never closed", file=file, line=line)
    names = [n.strip().lstrip("\ufeff") for n in split_fields(raw.decode(m.encoding), m)]
    seen: set[str] = set()
    for name in names:
        if name and name in seen:
            raise InputError(f"the header names column {shorten(repr(name))} twice: which one the mapping "
                             "means cannot be known", file=file, line=line, field=name)
        seen.add(name)
    missing = [c for c in m.columns_used() if c not in names]
    if missing:
        listed = shorten(", ".join(repr(n) for n in names))
        raise InputError(
            f"the header does not match mapping {m.name}: it lacks {', '.join(repr(c) for c in missing)} "
            f"(the header has {listed})", file=file, line=line)
    return names


def split_fields(record: str, m: Mapping) -> list[str]:
    """The fields of one record (already split by lines.py), by the same quoting rules."""
    csv.field_size_limit(max(csv.field_size_limit(), MAX_RECORD_BYTES + 1))
    return next(csv.reader([record], delimiter=m.delimiter, quotechar=m.quote), [])


def _readable_records(records: Records, rows: list[int], file: str, out: Parsed) -> list[int]:
    """The rows left once records that cannot be rows at all are refused: one whose quoted
    field never closes (a file cut short), one too long to be a row."""
    bad = set()
    if records.unclosed is not None and records.unclosed in rows:
        i = records.unclosed
        out.rejects.append(Reject(records.ordinals[i], None, None,
                                  f"a quoted field opens on this line and is never closed: it runs to the end "
                                  f"of the file (line {records.last_line(i)}); is the file cut short?"))
        bad.add(i)
    for i in rows:
        if len(records.raws[i]) > MAX_RECORD_BYTES:
            out.rejects.append(Reject(records.ordinals[i], None, None,
                                      f"the record is {len(records.raws[i]):,} bytes long, over the "
                                      f"{MAX_RECORD_BYTES >> 20} MiB a record may hold"))
            bad.add(i)
    return [i for i in rows if i not in bad] if bad else rows


def _parse_rows(records, data_rows, names, m: Mapping, file: str, transcode: bool, out: Parsed):
    """(the used columns of every row, the rows they are): rows with the wrong number of
    fields are refused with their line, and the rest read again."""
    try:
        table = _arrow_read(records, data_rows, names, m, transcode)
    except _WrongFieldCount as exc:
        expected = len(names)
        wrong = [(i, n) for i, n in zip(data_rows, _field_counts(records, data_rows, m)) if n != expected]
        if not wrong:  # the two readers disagree: refuse rather than guess which row it was
            raise InputError(f"the rows cannot be read as CSV: {shorten(str(exc.error))}", file=file,
                             line=_bad_row_line(exc.row, records, data_rows) if exc.row else None) from exc.error
        for i, n in wrong:
            out.rejects.append(Reject(records.ordinals[i], None, None,
                                      f"the row has {n} fields where {expected} are expected"))
        dropped = {i for i, _ in wrong}
        data_rows = [i for i in data_rows if i not in dropped]
        if not data_rows:
            return None, data_rows
        try:
            table = _arrow_read(records, data_rows, names, m, transcode)
        except _WrongFieldCount as again:
            line = _bad_row_line(again.row, records, data_rows) if again.row else None
            raise InputError(f"the rows cannot be read as CSV: {shorten(str(again.error))}", file=file,
                             line=line) from again.error
    except pa.ArrowInvalid as exc:
        raise InputError(f"the rows cannot be read as CSV: {shorten(str(exc))}", file=file) from exc
    if table.num_rows != len(data_rows):
        raise InputError("the CSV reader and the record splitter disagree on where a row starts: refusing "
                         "rather than citing wrong lines", file=file,
                         line=_first_disagreement(records, data_rows, names, m, transcode))
    return table, data_rows


class _WrongFieldCount(Exception):
    def __init__(self, error: Exception, row):
        super().__init__(str(error))
        self.error, self.row = error, row


def _arrow_read(records, rows, names, m: Mapping, transcode: bool) -> pa.Table:
    body = b"".join(map(records.raws.__getitem__, rows))
    if transcode:
        body = body.decode(m.encoding).encode("utf-8")
    bad: list = []

    def on_bad_row(row):
        bad.append(row)
        return "error"

    try:
        return pcsv.read_csv(
            io.BytesIO(body),
            read_options=pcsv.ReadOptions(column_names=names, use_threads=True, block_size=BLOCK_BYTES),
            parse_options=pcsv.ParseOptions(delimiter=m.delimiter, quote_char=m.quote,
                                            newlines_in_values=True, invalid_row_handler=on_bad_row),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, include_columns=m.columns_used(),
                null_values=list(m.null_values), strings_can_be_null=True, quoted_strings_can_be_null=True),
        )
    except pa.ArrowInvalid as exc:
        if bad:
            raise _WrongFieldCount(exc, bad[0]) from exc
        raise


def _field_counts(records: Records, rows: list[int], m: Mapping) -> list[int]:
    """How many fields each row has (only when some row has the wrong number: slower)."""
    return [len(split_fields(records.raws[i].decode(m.encoding), m)) for i in rows]


def _first_disagreement(records, rows, names, m: Mapping, transcode: bool) -> int | None:
    for i in rows:
        try:
            n = _arrow_read(records, [i], names, m, transcode).num_rows
        except (pa.ArrowInvalid, _WrongFieldCount):
            n = -1
        if n != 1:
            return records.ordinals[i]
    return None


def _bad_row_line(row, records: Records, data_rows: list[int]) -> int | None:
    """The file line of a row pyarrow refused (its row number is unknown when reading in threads)."""
    if row.number is not None:
        return records.ordinals[data_rows[row.number - 1]]
    wanted = row.text.encode("utf-8", "replace")
    for i in data_rows:
        if records.raws[i].rstrip(b"\r\n") == wanted:
            return records.ordinals[i]
    return None
