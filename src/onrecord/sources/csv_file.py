"""CSV exports (with or without a header line) read through a mapping."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from onrecord.errors import InputError, shorten
from onrecord.model import EVENT_SCHEMA
from onrecord.sources import columns as colfn
from onrecord.sources.lines import Records, non_blank, split_records
from onrecord.sources.mapping import EventSpec, Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.time_checks import years_outside
from onrecord.sources.times import blank_mask, interval, read_times

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
    _RowReader(m, table, records, data_rows, file, tz, agency, parsed).read()
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


class _RowReader:
    """Turns the parsed columns into events, collecting the rows it cannot read."""

    def __init__(self, m: Mapping, table: pa.Table, records: Records, data_rows, file, tz, agency, out: Parsed):
        # Plain arrays, one per column: compute kernels then return arrays, not chunked ones.
        self.table = {name: table[name].combine_chunks() for name in table.column_names}
        self.m, self.records, self.rows = m, records, data_rows
        self.file, self.tz, self.agency, self.out = file, tz or m.timezone, agency, out
        self.n = table.num_rows
        self.bad = np.zeros(self.n, dtype=bool)
        self.noted: list[tuple[np.ndarray, str, str]] = []  # (rows, column, what was done)

    def line(self, row: int) -> int:
        return self.records.ordinals[self.rows[row]]

    def reject(self, mask: np.ndarray, column: str | None, values: pa.Array | None, reason: str,
               into: list | None = None) -> None:
        for row in np.flatnonzero(mask & ~self.bad):
            value = None if values is None else values[int(row)].as_py()
            value = None if value is None else shorten(value)
            (self.out.rejects if into is None else into).append(Reject(self.line(int(row)), column, value, reason))
        if into is None:
            self.bad |= mask

    def read(self) -> None:
        for col in self.m.required:
            self.reject(_np(blank_mask(self.table[col])), col, self.table[col], "required value is blank")
        for col, values in self.table.items():
            # PostgreSQL text cannot hold U+0000 and SQLite would: refused alike on both stores
            # (the raw record keeps the byte).
            self.reject(_np(pc.match_substring(values, "\x00")), col, values,
                        "the value holds a NUL byte (U+0000), which no event field may hold")
        fields = self._fields()
        specs = [(spec, *self._times(i, spec)) for i, spec in enumerate(self.m.events)]
        self.out.rejects.sort(key=lambda r: r.line)
        self.out.notes.sort(key=lambda r: r.line)
        fields["attrs"] = self._with_notes(fields["attrs"])
        self._merge(specs, fields)

    def _with_notes(self, attrs: pa.Array) -> pa.Array:
        """A time read by a DST rule says so on its record's events (attribute `time_note`),
        as well as in the import's notes: the note travels with the event to every view."""
        rows: dict[int, list[str]] = {}
        for mask, col, what in self.noted:
            for row in np.flatnonzero(mask & ~self.bad):
                rows.setdefault(int(row), []).append(f"{col}: {what}")
        if not rows:
            return attrs
        values = attrs.to_pylist()
        for row, notes in rows.items():
            obj = json.loads(values[row]) if values[row] else {}
            obj["time_note"] = "; ".join(notes)
            values[row] = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        return pa.array(values, pa.string())

    def _fields(self) -> dict[str, pa.Array]:
        m, t, out = self.m, self.table, {}
        for name, spec in m.fields.items():
            out[name] = colfn.field_values(spec, t, self.n, m.codes, self.out.uncoded)
        for name, limit in (("lat", 90.0), ("lon", 180.0)):
            if name in out:
                out[name] = self._coordinate(name, limit, m.fields[name], out[name])
        # --agency wins over everything; the mapping's constant only where no column is mapped.
        agency = self.agency or (None if "agency" in m.fields else m.agency)
        if agency is not None:
            out["agency"] = pa.repeat(pa.scalar(agency, pa.string()), self.n)
        names = list(m.attributes)
        out["attrs"] = colfn.json_object(names, [t[m.attributes[k]] for k in names], self.n)
        return out

    def _coordinate(self, name: str, limit: float, spec, values: pa.Array) -> pa.Array:
        """Degrees as numbers; a written value that is not one, or not on the globe, is refused."""
        if values.type != pa.string():
            return values
        written = self.table[spec.column] if spec.column else values
        numbers = colfn.as_float(values)
        outside = pc.or_kleene(pc.is_null(numbers), pc.greater(pc.abs(numbers), limit))
        self.reject(~_np(blank_mask(written)) & _np(outside), spec.column or name, written,
                    f"{'latitude' if name == 'lat' else 'longitude'} is not a number from -{limit:g} to {limit:g}")
        return numbers

    def _times(self, i: int, spec: EventSpec):
        t, rules = self.table, self.m.time_rules
        if spec.time:
            texts = t[spec.time[0]] if len(spec.time) == 1 else pc.binary_join_element_wise(
                *[t[c] for c in spec.time], " ")
            blank = _np(blank_mask(texts))
            key = f"events[{i + 1}].format"
            try:
                read = read_times(texts, spec.format, self.tz, rules)
            except LookupError as exc:
                raise InputError(f"{exc}: give --tz or set [mapping] timezone", file=self.m.origin,
                                 field="mapping.timezone") from exc
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                raise InputError(f"the time format cannot be used: {shorten(str(exc))}", file=self.m.origin,
                                 field=key, value=spec.format) from exc
            lo = read.utc_ms
            unread = ~blank & _np(pc.is_null(lo))
            col = "+".join(spec.time)
            self._format_reads_nothing(unread, blank, texts, spec, col, key)
            self.reject(unread, col, texts, f"time does not read as {spec.format}")
            self.reject(read.impossible, col, texts, "the date does not exist (the month has no such day)")
            y0, y1 = rules.years
            self.reject(years_outside(lo, rules.years), col, texts,
                        f"the year is outside {y0}-{y1} (set [mapping] years if it is right)")
            self._dst(read, col, texts)
            if not spec.optional:
                self.reject(blank, col, texts, "time is blank")
            hi = interval(lo, spec.precision)
        else:  # an untimed event (a roster line)
            lo = hi = pa.nulls(self.n, pa.int64())
            texts = pa.nulls(self.n, pa.string())
        kinds = self._kinds(spec)
        return lo, hi, texts, kinds

    def _format_reads_nothing(self, unread, blank, texts, spec: EventSpec, col: str, key: str) -> None:
        """A format that reads none of several written times is the mapping's error, not every row's."""
        written = int((~blank).sum())
        if written >= 2 and int(unread.sum()) == written:
            row = int(np.flatnonzero(unread)[0])
            raise InputError(f"the format reads none of the {written:,} times in column {col!r} "
                             f"(line {self.line(row)}: {shorten(repr(texts[row].as_py()))}); is the format right?",
                             file=self.m.origin, field=key, value=spec.format)

    def _dst(self, read, col: str, texts: pa.Array) -> None:
        rules = self.m.time_rules
        gap = "the local time does not exist: clocks skipped it at a daylight-saving change"
        if rules.dst_gap == "refuse":
            self.reject(read.gap, col, texts, gap + " (set [mapping] dst_gap to read it)")
        else:
            offset = "before" if rules.dst_gap == "old_offset" else "after"
            self.reject(read.gap, col, texts, f"{gap}; read with the UTC offset of {offset} the change "
                        "(mapping dst_gap)", into=self.out.notes)
            self.noted.append((read.gap, col, f"skipped by the DST change; read with the offset of {offset} it"))
        twice = "the local time happened twice: clocks went back over it at a daylight-saving change"
        if rules.dst_overlap == "refuse":
            self.reject(read.overlap, col, texts, twice + " (set [mapping] dst_overlap to read it)")
        else:
            self.reject(read.overlap, col, texts, f"{twice}; read as the {rules.dst_overlap} of the two "
                        "(mapping dst_overlap)", into=self.out.notes)
            self.noted.append((read.overlap, col, f"repeated by the DST change; read as the {rules.dst_overlap}"))

    def _kinds(self, spec: EventSpec) -> pa.Array:
        if spec.kind:
            return pa.repeat(pa.scalar(spec.kind, pa.string()), self.n)
        values = pc.utf8_trim_whitespace(self.table[spec.kind_from])
        table = {k: v for k, v in spec.kinds.items() if k != "default"}
        found = pc.take(pa.array(list(table.values()), pa.string()),
                        pc.index_in(values, value_set=pa.array(list(table.keys()), pa.string())))
        if "default" in spec.kinds:
            return pc.fill_null(found, spec.kinds["default"])
        self.reject(_np(pc.is_null(found)), spec.kind_from, values, "value has no entry in the mapping's kinds")
        return found

    def _keep(self, spec, lo, kinds, fields) -> np.ndarray:
        """The rows that yield this event: readable, of a known kind, timed when a time is due."""
        keep = ~self.bad & _np(pc.is_valid(kinds))
        if spec.time:
            keep &= _np(pc.is_valid(lo))
        if spec.once_per_call and "call" in fields:
            keep &= _first_per_call(fields["call"], keep)
        return keep

    def _values(self, spec, lo, hi, texts, kinds, fields) -> dict[str, pa.Array]:
        """Each event column over all rows, for one event of the mapping."""
        cols = {"kind": kinds, "time_text": texts, "t_src_lo": lo, "t_src_hi": hi}
        cols.update({name: values for name, values in fields.items() if name in EVENT_SCHEMA.names})
        if spec.text is not None:
            cols["text"] = colfn.template(spec.text, self.table, self.n)
        if not spec.unit:
            cols.pop("unit", None)
        return cols

    def _merge(self, specs, fields) -> None:
        """Events in file order, and within a row in the mapping's order.

        One gather per column: the row-major positions of the (row, event) pairs kept
        index straight into the columns (stacked event after event where they differ)."""
        if not specs:
            return
        keep = np.stack([self._keep(spec, lo, kinds, fields) for spec, lo, hi, texts, kinds in specs], axis=1)
        rows, which = np.nonzero(keep)  # C order: by row, then by the mapping's order
        values = [self._values(*s, fields) for s in specs]
        columns = {"record_index": pa.array(np.asarray(self.rows, dtype=np.int64)[rows])}
        by_row, by_pair = pa.array(rows), None
        for f in EVENT_SCHEMA:
            if f.name == "record_index":
                continue
            arrays = [v.get(f.name) for v in values]
            if all(a is arrays[0] for a in arrays):  # the same for every event of a row
                columns[f.name] = pa.nulls(len(rows), f.type) if arrays[0] is None else \
                    arrays[0].cast(f.type).take(by_row)
                continue
            if by_pair is None:
                by_pair = pa.array(which.astype(np.int64) * self.n + rows)
            stacked = pa.concat_arrays([pa.nulls(self.n, f.type) if a is None else a.cast(f.type) for a in arrays])
            columns[f.name] = stacked.take(by_pair)
        self.out.events = events_table(columns)


def _np(mask) -> np.ndarray:
    return pc.fill_null(mask, False).to_numpy(zero_copy_only=False).astype(bool)


def _first_per_call(calls: pa.Array, keep: np.ndarray) -> np.ndarray:
    """Only the first kept row of each call number (row-per-unit exports repeat the call)."""
    codes = pc.dictionary_encode(pc.fill_null(calls, "")).indices.to_numpy(zero_copy_only=False)
    first = np.zeros(len(keep), dtype=bool)
    kept = np.flatnonzero(keep)
    _, where = np.unique(codes[kept], return_index=True)
    first[kept[where]] = True
    return first
