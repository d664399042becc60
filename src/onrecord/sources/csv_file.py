"""CSV exports (with or without a header line) read through a mapping."""

from __future__ import annotations

import csv
import io

import pyarrow as pa
import pyarrow.csv as pcsv

from onrecord.errors import InputError
from onrecord.sources.lines import Records, non_blank, split_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed
from onrecord.sources.rows import RowReader


def read_csv(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    text = decode(data, mapping.encoding, file)
    records = split_records(data, mapping.quote.encode(mapping.encoding))
    data_rows = non_blank(records.raws)
    if not data_rows:
        raise InputError("the file is empty", file=file)
    names = _column_names(records, data_rows, mapping, file)
    if mapping.header:
        data_rows = data_rows[1:]
    parsed = Parsed(records=records)
    if not data_rows:
        return parsed
    table = _parse_rows(records, data_rows, names, mapping, file, text is not data)
    lines = [records.ordinals[i] for i in data_rows]
    RowReader(mapping, table, data_rows, lines, file, tz, agency, parsed).read()
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
    line = records.raws[first].decode(m.encoding)
    names = next(csv.reader(io.StringIO(line), delimiter=m.delimiter, quotechar=m.quote), [])
    names = [n.strip().lstrip("\ufeff") for n in names]
    missing = [c for c in m.columns_used() if c not in names]
    if missing:
        raise InputError(
            f"the header does not match mapping {m.name}: it lacks {', '.join(repr(c) for c in missing)} "
            f"(the header has {', '.join(repr(n) for n in names)})",
            file=file, line=records.ordinals[first])
    return names


def _parse_rows(records, data_rows, names, m: Mapping, file: str, transcode: bool) -> pa.Table:
    body = b"".join(map(records.raws.__getitem__, data_rows))
    if transcode:
        body = body.decode(m.encoding).encode("utf-8")
    used = m.columns_used()
    bad: list = []

    def on_bad_row(row):
        bad.append(row)
        return "error"

    try:
        return pcsv.read_csv(
            io.BytesIO(body),
            read_options=pcsv.ReadOptions(column_names=names, use_threads=True, block_size=1 << 24),
            parse_options=pcsv.ParseOptions(delimiter=m.delimiter, quote_char=m.quote,
                                            newlines_in_values=True, invalid_row_handler=on_bad_row),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, include_columns=used,
                null_values=list(m.null_values), strings_can_be_null=True, quoted_strings_can_be_null=True),
        )
    except pa.ArrowInvalid as exc:
        raise _row_error(exc, bad, records, data_rows, names, file) from exc


def _row_error(exc, bad, records, data_rows, names, file) -> InputError:
    line = _bad_row_line(bad[0], records, data_rows) if bad else None
    if line is not None:
        row = bad[0]
        return InputError(f"the row has {row.actual_columns} fields where {row.expected_columns} "
                          f"are expected ({', '.join(names)})", file=file, line=line)
    return InputError(f"the rows cannot be read as CSV: {exc}", file=file)


def _bad_row_line(row, records: Records, data_rows: list[int]) -> int | None:
    """The file line of a row pyarrow refused (its row number is unknown when reading in threads)."""
    if row.number is not None:
        return records.ordinals[data_rows[row.number - 1]]
    wanted = row.text.encode("utf-8", "replace")
    for i in data_rows:
        if records.raws[i].rstrip(b"\r\n") == wanted:
            return records.ordinals[i]
    return None
