"""CSV exports (with or without a header line) read through a mapping."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from onrecord.errors import InputError
from onrecord.model import EVENT_SCHEMA
from onrecord.sources import columns as colfn
from onrecord.sources.explode import explode
from onrecord.sources.lines import Records, non_blank, split_records
from onrecord.sources.mapping import EventSpec, Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.times import blank_mask, interval, parse_times

SPLIT_PIECE = "\x00piece"  # a packed column's piece as written, kept beside its parts for messages


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


@dataclass
class _Frame:
    """Rows to read events from: the file's rows, or the pieces of a packed column."""

    table: dict[str, pa.Array]
    n: int
    fields: dict[str, pa.Array]
    parent: np.ndarray | None = None  # the file row each piece came from (None: the rows themselves)
    unread: np.ndarray | None = None  # pieces a split pattern does not match


@dataclass
class _Block:
    """One [[events]] block read over its frame: times, kinds, and the rows it applies to."""

    spec: EventSpec
    frame: _Frame
    lo: pa.Array
    hi: pa.Array
    texts: pa.Array
    kinds: pa.Array
    applies: np.ndarray


class _RowReader:
    """Turns the parsed columns into events, collecting the rows it cannot read."""

    def __init__(self, m: Mapping, table: pa.Table, records: Records, data_rows, file, tz, agency, out: Parsed):
        # Plain arrays, one per column: compute kernels then return arrays, not chunked ones.
        self.table = {name: table[name].combine_chunks() for name in table.column_names}
        self.m, self.records, self.rows = m, records, data_rows
        self.file, self.tz, self.agency, self.out = file, tz or m.timezone, agency, out
        self.n = table.num_rows
        self.bad = np.zeros(self.n, dtype=bool)
        self.left_out = np.zeros(self.n, dtype=bool)

    def line(self, row: int) -> int:
        return self.records.ordinals[self.rows[row]]

    def reject(self, mask: np.ndarray, column: str | None, values: pa.Array | None, reason: str,
               frame: _Frame | None = None) -> None:
        """A row is read whole or not at all: its first problem is listed, once."""
        parent = None if frame is None else frame.parent
        if parent is None:
            at = np.flatnonzero(mask & ~self.bad)
            rows = at
        else:
            at = np.flatnonzero(mask & ~self.bad[parent])
            rows = parent[at]
        for i, row in zip(at.tolist(), rows.tolist()):
            if parent is not None and self.bad[row]:
                continue
            value = None if values is None else values[i].as_py()
            self.out.rejects.append(Reject(self.line(row), column, value, reason))
            self.bad[row] = True

    def read(self) -> None:
        for col, value in self.m.defaults.items():
            self.table[col] = pc.if_else(blank_mask(self.table[col]), value, self.table[col])
        if self.m.rows:  # rows left out ([rows] when / unless) yield nothing and are no error
            self.left_out = ~self.m.rows.keeps(self.table, self.n)
            self.bad = self.left_out.copy()
            self.out.left_out = int(self.left_out.sum())
        for col in self.m.required:
            self.reject(_np(blank_mask(self.table[col])), col, self.table[col], "required value is blank")
        rows = _Frame(self.table, self.n, self._fields())
        blocks = [self._block(spec, rows) for spec in self.m.events]
        self.out.rejects.sort(key=lambda r: r.line)
        self._merge(blocks)

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
        out["attrs"] = colfn.json_object(names, [t[m.attributes[k]] for k in names], self.n)
        return out

    def _block(self, spec: EventSpec, rows: _Frame) -> _Block:
        frame = rows if spec.split is None else self._pieces(spec, rows)
        applies = spec.rows.keeps(frame.table, frame.n) if spec.rows else np.ones(frame.n, dtype=bool)
        if spec.slot:  # a wide layout's slot with nothing written in it is no event
            applies &= ~np.logical_and.reduce([_np(blank_mask(frame.table[c])) for c in spec.slot])
        if spec.split is not None:
            self.reject(frame.unread & applies, spec.split.column, frame.table[SPLIT_PIECE],
                        f"the piece does not match {spec.key}.split.pattern", frame)
        lo, hi, texts = self._times(spec, frame, applies)
        return _Block(spec, frame, lo, hi, texts, self._kinds(spec, frame, applies), applies)

    def _pieces(self, spec: EventSpec, rows: _Frame) -> _Frame:
        pieces = explode(self.table[spec.split.column], spec.split)
        take = pa.array(pieces.parent)
        table = {name: values.take(take) for name, values in self.table.items()}
        table.update(pieces.parts)
        table[SPLIT_PIECE] = pieces.text
        return _Frame(table, len(pieces.parent), {k: v.take(take) for k, v in rows.fields.items()},
                      pieces.parent, pieces.unread)

    def _times(self, spec: EventSpec, frame: _Frame, applies: np.ndarray):
        t = frame.table
        if not spec.time:  # an untimed event (a roster line)
            lo = pa.nulls(frame.n, pa.int64())
            return lo, lo, pa.nulls(frame.n, pa.string())
        texts = t[spec.time[0]] if len(spec.time) == 1 else pc.binary_join_element_wise(
            *[t[c] for c in spec.time], " ")
        blank = _np(blank_mask(texts))
        read, fmt = texts, spec.format
        if spec.date:  # times of day alone: on the mapping's declared day
            read, fmt = pc.binary_join_element_wise(pa.scalar(spec.date), texts, " "), f"%Y-%m-%d {fmt}"
        try:
            lo = parse_times(read, fmt, self.tz)
        except LookupError as exc:
            raise InputError(f"{exc}: give --tz or set [mapping] timezone", file=self.m.origin,
                             field="mapping.timezone") from exc
        unread = ~blank & _np(pc.is_null(lo))
        # The pattern is the column's: judged on every row read, whichever block a row is for.
        # One value alone cannot tell a wrong pattern from a wrong row (a live feed's one line).
        written = ~blank & ~(self.left_out if frame.parent is None else self.left_out[frame.parent])
        if written.sum() > 1 and not (written & ~unread).any():
            self._format_reads_nothing(spec, frame, texts, written)
        unread &= applies
        col = "+".join(spec.time)
        self.reject(unread, col, texts, f"time does not read as {spec.format}", frame)
        if not spec.optional:
            self.reject(blank & applies, col, texts, "time is blank", frame)
        return lo, interval(lo, spec.precision), texts

    def _format_reads_nothing(self, spec: EventSpec, frame: _Frame, texts: pa.Array, written: np.ndarray):
        """Not one time reads: the pattern is wrong, not the rows. One error, naming the key."""
        first = int(np.flatnonzero(written)[0])
        row = first if frame.parent is None else int(frame.parent[first])
        raise InputError(
            f"none of the {int(written.sum())} times in {self.file} reads as {spec.format!r} "
            f"(line {self.line(row)}: {texts[first].as_py()!r}); is the pattern right?",
            file=self.m.origin, field=f"{spec.key}.format")

    def _bad(self, frame: _Frame) -> np.ndarray:
        return self.bad if frame.parent is None else self.bad[frame.parent]

    def _kinds(self, spec: EventSpec, frame: _Frame, applies: np.ndarray) -> pa.Array:
        if spec.kind:
            return pa.repeat(pa.scalar(spec.kind, pa.string()), frame.n)
        values = pc.utf8_trim_whitespace(frame.table[spec.kind_from])
        table = {k: v for k, v in spec.kinds.items() if k != "default"}
        found = pc.take(pa.array(list(table.values()), pa.string()),
                        pc.index_in(values, value_set=pa.array(list(table.keys()), pa.string())))
        if "default" in spec.kinds:
            return pc.fill_null(found, spec.kinds["default"])
        self.reject(_np(pc.is_null(found)) & applies, spec.kind_from, values,
                    "value has no entry in the mapping's kinds", frame)
        return found

    def _keep(self, b: _Block) -> np.ndarray:
        """The rows that yield this event: readable, of a known kind, timed when a time is due."""
        keep = ~self._bad(b.frame) & b.applies & _np(pc.is_valid(b.kinds))
        if b.spec.time:
            keep &= _np(pc.is_valid(b.lo))
        if b.spec.once_per_call and "call" in b.frame.fields:
            keep &= _first_per_call(b.frame.fields["call"], keep)
        return keep

    def _values(self, b: _Block) -> dict[str, pa.Array]:
        """Each event column over all the frame's rows, for one event block of the mapping."""
        spec, frame = b.spec, b.frame
        cols = {"kind": b.kinds, "time_text": b.texts, "t_src_lo": b.lo, "t_src_hi": b.hi}
        cols.update({name: values for name, values in frame.fields.items() if name in EVENT_SCHEMA.names})
        if spec.text is not None:
            cols["text"] = colfn.template(spec.text, frame.table, frame.n)
        if not spec.unit:
            cols.pop("unit", None)
        for name, fs in spec.fields.items():  # the block's own unit, agency, ... columns
            if name == "agency" and self.agency:
                continue  # --agency wins over everything
            values = colfn.field_values(fs, frame.table, frame.n, self.m.codes, self.out.uncoded)
            cols[name] = colfn.as_float(values) if name in ("lat", "lon") and values.type == pa.string() else values
        return cols

    def _merge(self, blocks: list[_Block]) -> None:
        """Events in file order, within a row in the mapping's order, within a packed column
        in the order written."""
        order = range(len(blocks))
        columns, rows, which = self._merge_rows([b for b in blocks if b.frame.parent is None],
                                                [i for i in order if blocks[i].frame.parent is None])
        packed = [i for i in order if blocks[i].frame.parent is not None]
        if packed:
            parts = [(columns, rows, which)] + [self._merge_pieces(blocks[i], i) for i in packed]
            rows = np.concatenate([p[1] for p in parts])
            by = pa.array(np.argsort(rows * len(blocks) + np.concatenate([p[2] for p in parts]), kind="stable"))
            columns = {f.name: pa.concat_arrays([p[0][f.name] for p in parts]).take(by) for f in EVENT_SCHEMA
                       if f.name != "record_index"}
            rows = rows[by.to_numpy()]
        columns["record_index"] = pa.array(np.asarray(self.rows, dtype=np.int64)[rows])
        self.out.events = events_table(columns)

    def _merge_pieces(self, b: _Block, index: int):
        kept = np.flatnonzero(self._keep(b))
        values, at = self._values(b), pa.array(kept)
        columns = {f.name: pa.nulls(len(kept), f.type) if values.get(f.name) is None else
                   values[f.name].cast(f.type).take(at) for f in EVENT_SCHEMA if f.name != "record_index"}
        return columns, b.frame.parent[kept], np.full(len(kept), index, dtype=np.int64)

    def _merge_rows(self, blocks: list[_Block], index: list[int]):
        """One gather per column: the row-major positions of the (row, event) pairs kept
        index straight into the columns (stacked event after event where they differ)."""
        if not blocks:
            return ({f.name: pa.nulls(0, f.type) for f in EVENT_SCHEMA}, np.zeros(0, dtype=np.int64),
                    np.zeros(0, dtype=np.int64))
        keep = np.stack([self._keep(b) for b in blocks], axis=1)
        rows, which = np.nonzero(keep)  # C order: by row, then by the mapping's order
        values = [self._values(b) for b in blocks]
        columns = {}
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
        return columns, rows.astype(np.int64), np.asarray(index, dtype=np.int64)[which]


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
