"""CSV exports (with or without a header line) read through a mapping."""

from __future__ import annotations

import csv
import io

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from onrecord.attributes import CHECKED, NO, YES, YES_NO_WORDS
from onrecord.errors import InputError
from onrecord.model import EVENT_SCHEMA
from onrecord.sources import columns as colfn
from onrecord.sources.lines import Records, non_blank, split_records
from onrecord.sources.mapping import EventSpec, Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.times import blank_mask, interval, parse_times


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
    _RowReader(mapping, table, records, data_rows, file, tz, agency, parsed).read()
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


class _RowReader:
    """Turns the parsed columns into events, collecting the rows it cannot read."""

    def __init__(self, m: Mapping, table: pa.Table, records: Records, data_rows, file, tz, agency, out: Parsed):
        # Plain arrays, one per column: compute kernels then return arrays, not chunked ones.
        self.table = {name: table[name].combine_chunks() for name in table.column_names}
        self.m, self.records, self.rows = m, records, data_rows
        self.file, self.tz, self.agency, self.out = file, tz or m.timezone, agency, out
        self.n = table.num_rows
        self.bad = np.zeros(self.n, dtype=bool)

    def line(self, row: int) -> int:
        return self.records.ordinals[self.rows[row]]

    def reject(self, mask: np.ndarray, column: str | None, values: pa.Array | None, reason: str) -> None:
        for row in np.flatnonzero(mask & ~self.bad):
            value = None if values is None else values[int(row)].as_py()
            self.out.rejects.append(Reject(self.line(int(row)), column, value, reason))
        self.bad |= mask

    def read(self) -> None:
        for col in self.m.required:
            self.reject(_np(blank_mask(self.table[col])), col, self.table[col], "required value is blank")
        fields = self._fields()
        specs = [(spec, *self._times(spec)) for spec in self.m.events]
        self.out.rejects.sort(key=lambda r: r.line)
        self._merge(specs, fields)

    def _fields(self) -> dict[str, pa.Array]:
        m, t, out = self.m, self.table, {}
        for name, spec in m.fields.items():
            out[name] = colfn.field_values(spec, t, self.n, m.codes, self.out.uncoded)
        for name in ("lat", "lon"):
            if name in out:
                out[name] = colfn.as_float(out[name]) if out[name].type == pa.string() else out[name]
        # --agency wins over everything; the mapping's constant only where no column is mapped.
        agency = self.agency or (None if "agency" in m.fields else m.agency)
        if agency is not None:
            out["agency"] = pa.repeat(pa.scalar(agency, pa.string()), self.n)
        names = list(m.attributes)
        out["attrs"] = colfn.json_object(names, [self._checked(k, t[m.attributes[k]]) for k in names], self.n)
        return out

    def _checked(self, name: str, values: pa.Array) -> pa.Array:
        """An attribute the build reads with a value set (attributes.CHECKED): a value outside
        it rejects the row; the rest are stored in one spelling ("true" / "false")."""
        if CHECKED.get(name) != "yes_no":
            return values
        words = pc.utf8_lower(pc.utf8_trim_whitespace(values))
        yes = _np(pc.is_in(words, value_set=pa.array(sorted(YES))))
        no = _np(pc.is_in(words, value_set=pa.array(sorted(NO))))
        blank = _np(blank_mask(values))
        self.reject(~(yes | no | blank), self.m.attributes[name], values,
                    f"attribute {name} must be one of {YES_NO_WORDS}")
        return pa.array(np.where(yes, "true", np.where(no, "false", None)), pa.string())

    def _times(self, spec: EventSpec):
        t = self.table
        if spec.time:
            texts = t[spec.time[0]] if len(spec.time) == 1 else pc.binary_join_element_wise(
                *[t[c] for c in spec.time], " ")
            blank = _np(blank_mask(texts))
            try:
                lo = parse_times(texts, spec.format, self.tz)
            except LookupError as exc:
                raise InputError(f"{exc}: give --tz or set [mapping] timezone", file=self.m.origin,
                                 field="mapping.timezone") from exc
            unread = ~blank & _np(pc.is_null(lo))
            col = "+".join(spec.time)
            self.reject(unread, col, texts, f"time does not read as {spec.format}")
            if not spec.optional:
                self.reject(blank, col, texts, "time is blank")
            hi = interval(lo, spec.precision)
        else:  # an untimed event (a roster line)
            lo = hi = pa.nulls(self.n, pa.int64())
            texts = pa.nulls(self.n, pa.string())
        kinds = self._kinds(spec)
        return lo, hi, texts, kinds

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
