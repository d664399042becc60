"""The column-to-event engine every mapped format shares (CSV, JSON, NDJSON, XML, workbooks).

An adapter reads its format into one string column per column (or relative path) the
mapping names, a row per record; this turns those columns into events, all rows at once.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.errors import InputError
from onrecord.model import EVENT_SCHEMA
from onrecord.sources import columns as colfn
from onrecord.sources.mapping import EventSpec, Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.times import blank_mask, interval, parse_times


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

    def line(self, row: int) -> int:
        return self.lines[row]

    def reject(self, mask: np.ndarray, column: str | None, values: pa.Array | None, reason: str) -> None:
        for row in np.flatnonzero(mask & ~self.bad):
            value = None if values is None else values[int(row)].as_py()
            path = self.cites[int(row)] if self.cites is not None else None
            self.out.rejects.append(Reject(self.line(int(row)), column, value, reason, path))
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
        out["attrs"] = colfn.json_object(names, [t[m.attributes[k]] for k in names], self.n)
        return out

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
        if self.paths is not None:
            cols["path"] = self._path_array
        return cols

    def _merge(self, specs, fields) -> None:
        """Events in file order, and within a row in the mapping's order.

        One gather per column: the row-major positions of the (row, event) pairs kept
        index straight into the columns (stacked event after event where they differ)."""
        if not specs:
            return
        self._path_array = pa.array(self.paths, pa.string()) if self.paths is not None else None
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
