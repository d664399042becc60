"""The column-to-event engine every mapped format shares (CSV, JSON, NDJSON, XML, workbooks).

An adapter reads its format into one string column per column (or relative path) the
mapping names, a row per record; this turns those columns into events, all rows at once:
row filters and defaults, fields, times, kinds, and the events of each [[events]] block —
one per row, per filled slot of a wide layout, or per piece of a packed column.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.attributes import CHECKED, ENTERED_BY, NO, TIME_ATTRIBUTES, YES, YES_NO_WORDS
from onrecord.errors import InputError, shorten
from onrecord.model import EVENT_SCHEMA
from onrecord.sources import columns as colfn
from onrecord.sources.attribute_times import candidates, read_instants
from onrecord.sources.explode import explode
from onrecord.sources.mapping import TEMPLATE_COLUMN, EventSpec, Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.time_checks import years_outside
from onrecord.sources.times import blank_mask, interval, read_times

SPLIT_PIECE = "\x00piece"  # a packed column's piece as written, kept beside its parts for messages
TIME_AS_WRITTEN = "\x00time:"  # a row's time attribute as written, read per block (attribute_times.py)


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
    times: dict[str, pa.Array] | None = None  # time attributes read as instants (ISO, UTC)


class RowReader:
    """Turns the parsed columns into events, collecting the rows it cannot read.

    `table` holds one string column per column (or relative path) the mapping names and
    one row per record read; `records[i]` is the raw record row i was read from,
    `lines[i]` the line it starts on, `paths[i]` (if given) where inside that record
    the row is (a worksheet row inside the one workbook record)."""

    def __init__(self, m: Mapping, table: pa.Table, records: list[int], lines: list[int], file, tz, agency,
                 out: Parsed, paths: list[str] | None = None, cites: list[str | None] | None = None):
        # Plain arrays, one per column: compute kernels then return arrays, not chunked ones.
        self.table = {name: table[name].combine_chunks() for name in table.column_names}
        self.m, self.rows, self.lines, self.paths = m, records, lines, paths
        self.cites = cites if cites is not None else paths  # where a reject says the row is
        self.file, self.tz, self.agency, self.out = file, tz or m.timezone, agency, out
        self.n = table.num_rows
        self.bad = np.zeros(self.n, dtype=bool)
        self.left_out = np.zeros(self.n, dtype=bool)
        self.noted: dict[int, list[str]] = {}  # file row -> what a DST rule did to its times

    def line(self, row: int) -> int:
        return self.lines[row]

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
            self.out.rejects.append(self._listed(i, row, column, values, reason))
            self.bad[row] = True

    def note(self, mask: np.ndarray, column: str, values: pa.Array, reason: str, on_event: str,
             frame: _Frame | None = None) -> None:
        """A value read by an explicit rule of the mapping: its row is kept, and the note is
        listed with the import and carried by the row's events (attribute `time_note`)."""
        parent = None if frame is None else frame.parent
        at = np.flatnonzero(mask & ~(self.bad if parent is None else self.bad[parent]))
        for i in at.tolist():
            row = i if parent is None else int(parent[i])
            self.out.notes.append(self._listed(i, row, column, values, reason))
            self.noted.setdefault(row, []).append(f"{column}: {on_event}")

    def _listed(self, i: int, row: int, column, values, reason: str) -> Reject:
        value = None if values is None else values[i].as_py()
        path = self.cites[row] if self.cites is not None else None
        # a message quotes at most a few hundred characters of what was written
        return Reject(self.line(row), column, None if value is None else shorten(str(value)), reason, path)

    def read(self) -> None:
        self._parent: np.ndarray | None = None  # the frame being read: a packed column's pieces, or the rows
        try:
            self._read()
        except colfn.Unlisted as u:  # a code table that refuses values it does not list
            row = u.index if self._parent is None else int(self._parent[u.index])
            raise InputError(f"code table {u.table} has no entry for {shorten(repr(u.value))} ({self.file} line "
                             f"{self.line(row)}) and says unlisted = \"refuse\": add the code, or give the table a "
                             "default (docs/mappings.md, [codes.NAME])", file=self.m.origin,
                             field=f"codes.{u.table}", value=shorten(str(u.value))) from None

    def _read(self) -> None:
        m = self.m
        read_from_file = set(self.table)
        for col, value in m.defaults.items():  # the file's columns first: derived ones are made of them
            if col not in m.derived:
                self.table[col] = pc.if_else(blank_mask(self.table[col]), value, self.table[col])
        for col, spec in m.derived.items():  # in order: one may be made of another made before it
            self.table[col] = colfn.field_values(spec, self.table, self.n, m.codes, self.out.uncoded)
            if col in m.defaults:
                self.table[col] = pc.if_else(blank_mask(self.table[col]), m.defaults[col], self.table[col])
        if self.m.rows:  # rows left out ([rows] when / unless) yield nothing and are no error
            self.left_out = ~self.m.rows.keeps(self.table, self.n)
            self.bad = self.left_out.copy()
            self.out.left_out = int(self.left_out.sum())
        for col in self.m.required:
            self.reject(_np(blank_mask(self.table[col])), col, self.table[col], "required value is blank")
        for col in [c for c in self.table if c in read_from_file]:
            # PostgreSQL text cannot hold U+0000 and SQLite would: refused alike on both stores
            # (the raw record keeps the byte).
            values = self.table[col]
            self.reject(_np(pc.match_substring(values, "\x00")), col, values,
                        "the value holds a NUL byte (U+0000), which no event field may hold")
        rows = _Frame(self.table, self.n, self._fields())
        blocks: list[_Block] = []
        for spec in self.m.events:
            blocks.append(self._block(spec, rows, blocks))
        self.out.rejects.sort(key=lambda r: r.line)
        self.out.notes.sort(key=lambda r: r.line)
        self._merge(blocks)

    def _fields(self) -> dict[str, pa.Array]:
        m, t, out = self.m, self.table, {}
        for name, spec in m.fields.items():
            out[name] = colfn.field_values(spec, t, self.n, m.codes, self.out.uncoded)
        for name, limit in (("lat", 90.0), ("lon", 180.0)):
            if name in out:
                out[name] = self._coordinate(name, limit, m.fields[name], out[name])
        # A mapped agency column says whose each row is (a recorder logs several agencies'
        # channels, a CAD its mutual-aid units); --agency, else the mapping's constant, is the
        # source's own agency: every row's where no column is mapped, a blank cell's otherwise.
        own = self.agency or m.agency
        if own is not None:
            mine = pa.repeat(pa.scalar(own, pa.string()), self.n)
            out["agency"] = _filled(out["agency"], mine) if "agency" in out else mine
        names = [k for k in m.attributes if k not in TIME_ATTRIBUTES]
        out["attrs"] = colfn.json_object(names, [self._attribute(k, t[m.attributes[k]]) for k in names], self.n)
        for k in m.attributes:  # a time is read with its event's time, block by block
            if k in TIME_ATTRIBUTES:
                out[TIME_AS_WRITTEN + k] = t[m.attributes[k]]
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

    def _attribute(self, name: str, values: pa.Array, frame: _Frame | None = None,
                   applies: np.ndarray | None = None, column: str | None = None) -> pa.Array:
        """An attribute's values as stored (the one place a row's and a block's own pass).
        One the build reads with a value set (attributes.CHECKED: `armed`) is checked: a
        value outside it rejects the row; the rest are stored in one spelling ("true" /
        "false")."""
        if CHECKED.get(name) == "entered_by":
            return self._entered_by(name, values, frame, applies, column)
        if CHECKED.get(name) != "yes_no":
            return values
        words = pc.utf8_lower(pc.utf8_trim_whitespace(values))
        yes = _np(pc.is_in(words, value_set=pa.array(sorted(YES))))
        no = _np(pc.is_in(words, value_set=pa.array(sorted(NO))))
        blank = _np(blank_mask(values))
        column = column or self.m.attributes.get(name, name)
        wrong = ~(yes | no | blank) & (True if applies is None else applies)
        self.reject(wrong, f"attributes.{name}" if column.startswith("\x00") else column, values,
                    f"attribute {name} must be one of {YES_NO_WORDS}", frame)
        return pa.array(np.where(yes, "true", np.where(no, "false", None)), pa.string())

    def _entered_by(self, name: str, values: pa.Array, frame: _Frame | None, applies: np.ndarray | None,
                    column: str | None) -> pa.Array:
        """How a status was entered, stored in one word (attributes.ENTERED_BY); another
        word rejects the row."""
        words = pc.utf8_lower(pc.utf8_trim_whitespace(values))
        known = pa.array(list(ENTERED_BY), pa.string())
        found = pc.index_in(words, value_set=known)
        column = column or self.m.attributes.get(name, name)
        self.reject(_np(pc.is_null(found)) & ~_np(blank_mask(values)) & (True if applies is None else applies),
                    f"attributes.{name}" if column.startswith("\x00") else column, values,
                    f"attribute {name} must be one of {', '.join(ENTERED_BY)}", frame)
        return pc.take(pa.array(list(ENTERED_BY.values()), pa.string()), found)

    def _own_attributes(self, spec: EventSpec, frame: _Frame, applies: np.ndarray) -> pa.Array:
        """The row's attributes with the block's own beside them (its own win on a name). The
        block's own are checked only on the rows it reads (its `when`): another row's value
        in that column is another event's business."""
        m = self.m
        names = [k for k in m.attributes if k not in spec.attributes and k not in TIME_ATTRIBUTES]
        arrays = [self._attribute(k, frame.table[m.attributes[k]], frame) for k in names]
        for k, fs in spec.attributes.items():
            if k in TIME_ATTRIBUTES:
                continue  # read with the block's times (_attribute_times)
            names.append(k)
            arrays.append(self._attribute(k, colfn.field_values(fs, frame.table, frame.n, m.codes, self.out.uncoded),
                                          frame, applies, getattr(fs, "column", None)))
        return colfn.json_object(names, arrays, frame.n)

    def _block(self, spec: EventSpec, rows: _Frame, before: list[_Block]) -> _Block:
        frame = rows if spec.split is None else self._pieces(spec, rows)
        self._parent = frame.parent
        applies = spec.rows.keeps(frame.table, frame.n) if spec.rows else np.ones(frame.n, dtype=bool)
        if spec.slot:  # a wide layout's slot with nothing written in it is no event
            applies &= ~np.logical_and.reduce([_np(blank_mask(frame.table[c])) for c in spec.slot])
        if spec.split is not None:
            self.reject(frame.unread & applies, spec.split.column, frame.table[SPLIT_PIECE],
                        f"the piece does not match {spec.key}.split.pattern", frame)
        lo, hi, texts = self._times(spec, frame, applies)
        if spec.after is not None:
            lo, hi = _next_day_where_before(lo, hi, next(b for b in before if b.spec.key == spec.after), frame)
        return _Block(spec, frame, lo, hi, texts, self._kinds(spec, frame, applies), applies,
                      self._attribute_times(spec, frame, applies, lo))

    def _attribute_times(self, spec: EventSpec, frame: _Frame, applies: np.ndarray, lo: pa.Array):
        """The block's time attributes (shown_time) read as instants: with the pattern declared
        for it, else the first a user would write it in that reads them all (attribute_times.py).
        A value none reads rejects its row; a column none of whose values reads is an error."""
        m, out = self.m, {}
        for name in sorted(TIME_ATTRIBUTES):
            if name in spec.attributes:
                fs = spec.attributes[name]
                values = colfn.field_values(fs, frame.table, frame.n, m.codes, self.out.uncoded)
                declared, key, column = fs.format, f"{spec.key}.attributes.{name}", fs.column
            elif name in m.attributes:
                values = frame.fields[TIME_AS_WRITTEN + name]
                made = m.derived.get(m.attributes[name])
                declared, key = (made.format if made else None), f"attributes.{name}"
                column = (made.column if made else m.attributes[name])
            else:
                continue
            counted = applies & ~self._bad(frame) & ~(self.left_out if frame.parent is None
                                                      else self.left_out[frame.parent])
            read = read_instants(values, candidates(declared, spec.format, [e.format for e in m.events if e.format]),
                                 lo, self.tz, counted)
            column = column or key
            if read.pattern is None and read.unread.sum() > 1:
                self._time_attribute_reads_nothing(name, key, read, values, frame)
            how = f"as {read.pattern!r}" if read.pattern else f"as any of {', '.join(map(repr, read.tried))}"
            self.reject(read.unread, column, values,
                        f"attribute {name} does not read as a time ({how}); give its pattern: "
                        f"{name} = {{ column = \"...\", format = \"...\" }} (docs/mappings.md, [attributes])", frame)
            out[name] = read.iso
        return out

    def _time_attribute_reads_nothing(self, name: str, key: str, read, values: pa.Array, frame: _Frame):
        first = int(np.flatnonzero(read.unread)[0])
        row = first if frame.parent is None else int(frame.parent[first])
        raise InputError(
            f"none of the {int(read.unread.sum())} {name} values in {self.file} reads as a time (line "
            f"{self.line(row)}: {shorten(repr(values[first].as_py()))}; tried {', '.join(map(repr, read.tried))}): "
            f"give its pattern, e.g. {name} = {{ column = \"Frame Time\", format = \"%H:%M:%S\" }} (a time of day "
            "is on the day of the event's own time; docs/mappings.md, [attributes])",
            file=self.m.origin, field=key)

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
        rules = self.m.time_rules
        try:
            reading = read_times(read, fmt, self.tz, rules)
        except LookupError as exc:
            raise InputError(f"{exc}: give --tz or set [mapping] timezone", file=self.m.origin,
                             field="mapping.timezone") from exc
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise InputError(f"the time format cannot be used: {shorten(str(exc))}", file=self.m.origin,
                             field=f"{spec.key}.format", value=spec.format) from exc
        lo = reading.utc_ms
        unread = ~blank & _np(pc.is_null(lo))
        # The pattern is the column's: judged on every row read, whichever block a row is for.
        # One value alone cannot tell a wrong pattern from a wrong row (a live feed's one line).
        read_at = ~(self.left_out if frame.parent is None else self.left_out[frame.parent])
        written = ~blank & read_at
        if written.sum() > 1 and not (written & ~unread).any():
            self._format_reads_nothing(spec, frame, texts, written)
        unread &= applies
        if spec.date:
            lo = _days_go_on(lo, read_at & applies)
        col = "+".join(spec.time)
        self.reject(unread, col, texts, f"time does not read as {spec.format}", frame)
        self.reject(reading.impossible & applies, col, texts, "the date does not exist (the month has no such day)",
                    frame)
        y0, y1 = rules.years
        self.reject(years_outside(lo, rules.years) & applies, col, texts,
                    f"the year is outside {y0}-{y1} (set [mapping] years if it is right)", frame)
        self._dst(reading, applies, col, texts, frame)
        if not spec.optional:
            self.reject(blank & applies, col, texts, "time is blank", frame)
        return lo, interval(lo, spec.precision), texts

    def _dst(self, reading, applies: np.ndarray, col: str, texts: pa.Array, frame: _Frame) -> None:
        """Local times a daylight-saving change skipped or repeated: refused, or read by the
        mapping's rule and noted (docs/mappings.md)."""
        rules = self.m.time_rules
        gap = "the local time does not exist: clocks skipped it at a daylight-saving change"
        if rules.dst_gap == "refuse":
            self.reject(reading.gap & applies, col, texts, gap + " (set [mapping] dst_gap to read it)", frame)
        else:
            offset = "before" if rules.dst_gap == "old_offset" else "after"
            self.note(reading.gap & applies, col, texts, f"{gap}; read with the UTC offset of {offset} the change "
                      "(mapping dst_gap)", f"skipped by the DST change; read with the offset of {offset} it", frame)
        twice = "the local time happened twice: clocks went back over it at a daylight-saving change"
        if rules.dst_overlap == "refuse":
            self.reject(reading.overlap & applies, col, texts, twice + " (set [mapping] dst_overlap to read it)",
                        frame)
        else:
            self.note(reading.overlap & applies, col, texts, f"{twice}; read as the {rules.dst_overlap} of the two "
                      "(mapping dst_overlap)", f"repeated by the DST change; read as the {rules.dst_overlap}", frame)

    def _format_reads_nothing(self, spec: EventSpec, frame: _Frame, texts: pa.Array, written: np.ndarray):
        """Not one time reads: the pattern is wrong, not the rows. One error, naming the key."""
        first = int(np.flatnonzero(written)[0])
        row = first if frame.parent is None else int(frame.parent[first])
        raise InputError(
            f"none of the {int(written.sum())} times in {self.file} reads as {spec.format!r} "
            f"(line {self.line(row)}: {shorten(repr(texts[first].as_py()))}); is the pattern right?",
            file=self.m.origin, field=f"{spec.key}.format")

    def _bad(self, frame: _Frame) -> np.ndarray:
        return self.bad if frame.parent is None else self.bad[frame.parent]

    def _kinds(self, spec: EventSpec, frame: _Frame, applies: np.ndarray) -> pa.Array:
        if spec.kind:
            return pa.repeat(pa.scalar(spec.kind, pa.string()), frame.n)
        chosen_by = colfn.template(spec.kind_from, frame.table, frame.n) if TEMPLATE_COLUMN.search(spec.kind_from) \
            else frame.table[spec.kind_from]
        values = pc.utf8_trim_whitespace(chosen_by)
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
        self._parent = frame.parent
        cols = {"kind": b.kinds, "time_text": b.texts, "t_src_lo": b.lo, "t_src_hi": b.hi}
        cols.update({name: values for name, values in frame.fields.items() if name in EVENT_SCHEMA.names})
        if spec.text is not None:
            cols["text"] = colfn.template(spec.text, frame.table, frame.n)
        if not spec.unit:
            cols.pop("unit", None)
        if spec.attributes:
            cols["attrs"] = self._own_attributes(spec, frame, b.applies)
        if b.times:
            extra = colfn.json_object(list(b.times), list(b.times.values()), frame.n)
            cols["attrs"] = _joined_objects(cols.get("attrs"), extra)
        if self.paths is not None:  # where in its record each event's row is
            cols["path"] = self._paths if frame.parent is None else self._paths.take(pa.array(frame.parent))
        for name, fs in spec.fields.items():  # the block's own unit, agency, ... columns
            values = colfn.field_values(fs, frame.table, frame.n, self.m.codes, self.out.uncoded)
            if name == "agency" and "agency" in cols:
                values = _filled(values, cols["agency"])  # a blank cell: the row's agency
            cols[name] = colfn.as_float(values) if name in ("lat", "lon") and values.type == pa.string() else values
        return cols

    def _merge(self, blocks: list[_Block]) -> None:
        """Events in file order, within a row in the mapping's order, within a packed column
        in the order written."""
        self._paths = pa.array(self.paths, pa.string()) if self.paths is not None else None
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
        if self.noted:
            columns["attrs"] = self._with_notes(columns["attrs"], rows)
        self.out.events = events_table(columns)

    def _with_notes(self, attrs: pa.Array, rows: np.ndarray) -> pa.Array:
        """A time read by a DST rule says so on its row's events (attribute `time_note`), as
        well as in the import's notes: the note travels with the event to every view."""
        values = attrs.to_pylist()
        for event in np.flatnonzero(np.isin(rows, list(self.noted))).tolist():
            obj = json.loads(values[event]) if values[event] else {}
            obj["time_note"] = "; ".join(self.noted[int(rows[event])])
            values[event] = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        return pa.array(values, pa.string())

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


DAY_MS = 86_400_000


def _days_go_on(lo: pa.Array, counted: np.ndarray) -> pa.Array:
    """Times of day on the mapping's `date`, in file order: where one is more than 12 h
    before the one above it, midnight has passed and the day moves on (a log past 00:00).
    Only the rows the block reads count (a comment row's stray time moves no day)."""
    valid = pc.is_valid(lo).to_numpy(zero_copy_only=False) & counted
    at = np.flatnonzero(valid)
    if len(at) < 2:
        return lo
    t = pc.fill_null(lo, 0).to_numpy(zero_copy_only=False)[at]
    days = np.concatenate([[0], np.cumsum(np.diff(t) < -DAY_MS // 2)])
    out = pc.fill_null(lo, 0).to_numpy(zero_copy_only=False).copy()
    out[at] = t + days * DAY_MS
    return pa.array(out, pa.int64(), mask=~valid)  # rows not counted are not events of this block


def _next_day_where_before(lo: pa.Array, hi: pa.Array, ref: _Block, frame: _Frame) -> tuple[pa.Array, pa.Array]:
    """A time of day dated by the row's day that falls more than 12 h before the time it
    follows (`after`) is on the next day: a unit sent at 00:03 on a call made at 23:58."""
    ref_lo = ref.lo if frame.parent is None else ref.lo.take(pa.array(frame.parent))
    early = pc.fill_null(pc.less(lo, pc.subtract(ref_lo, DAY_MS // 2)), False)
    return pc.if_else(early, pc.add(lo, DAY_MS), lo), pc.if_else(early, pc.add(hi, DAY_MS), hi)


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


def _joined_objects(attrs: pa.Array | None, extra: pa.Array) -> pa.Array:
    """Two columns of JSON objects (json_object's: never `{}`) as one: `{a}` + `{b}` -> `{a,b}`."""
    if attrs is None:
        return extra
    joined = pc.binary_join_element_wise(pc.utf8_slice_codeunits(attrs, 0, -1), ",",
                                         pc.utf8_slice_codeunits(extra, 1), "")
    return pc.if_else(pc.is_null(attrs), extra, joined)


def _filled(values: pa.Array, fallback: pa.Array) -> pa.Array:
    """`values`, with `fallback`'s value where a cell is blank."""
    return pc.if_else(blank_mask(values), fallback, values)
