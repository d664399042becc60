"""Reading a batch of a feed's frames in one pass (live/ingest.py's group commit): a tailed
CSV's lines through the CSV reader at once, and the rows of a batch's table that are the
events of the frames kept. The onrecord event JSON's own pass is native.py's."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.parsed import Reject
from onrecord.sources.registry import ADAPTERS


def csv_lines_together(feed, frames: list[bytes]):
    """A tailed CSV's new lines read in one pass, behind the header line: (events with
    `record_index` the frame's position, the first rejection of each position, positions that
    are no record — the header line, taken as the names of the columns and kept in
    `feed.header`), or None when the reader split the lines elsewhere than the tail did
    (then they are read one by one). Record k+1 after the header is frame k."""
    spec = feed.spec
    m, skipped, offset = spec.mapping, set(), 0
    if m.header and feed.header is None:
        feed.header, skipped, offset = frames[0], {0}, 1
    lead = [feed.header] if m.header else []
    rows = frames[offset:]
    if not rows:
        return pa.Table.from_pylist([]), {}, skipped
    parsed = ADAPTERS["csv"](b"".join(lead + rows), m, spec.file_name, spec.tz, spec.agency)
    rec = parsed.records
    if rec.raws != lead + rows:
        return None
    shift = offset - len(lead)  # record r is frame r + shift
    line_of = {}
    for r in range(len(rec.raws)):
        for line in range(rec.ordinals[r], rec.last_line(r) + 1):
            line_of[line] = r
    rejects: dict[int, Reject] = {}
    for j in parsed.rejects:
        r = line_of.get(j.line)
        if r is not None and r >= len(lead):
            rejects.setdefault(r + shift, j)
    if not parsed.events.num_rows:
        return parsed.events, rejects, skipped
    idx = pc.add(parsed.events.column("record_index"), shift)
    return parsed.events.set_column(0, "record_index", idx), rejects, skipped


def frame_rows(table: pa.Table, frames: list[tuple[int | None, int]]) -> pa.Table:
    """The rows of `table` that are the events of `frames` — each (its rows' record_index in
    the table, or None: all of the table; its place in the batch) — their `record_index`
    made that place."""
    if len(frames) == 1 and frames[0][0] is None:
        return table.set_column(0, "record_index", pa.array([frames[0][1]] * table.num_rows, pa.int64()))
    positions = pa.array([f[0] for f in frames], pa.int64())
    offsets = pa.array([f[1] for f in frames], pa.int64())
    picked = table.filter(pc.is_in(table.column("record_index").cast(pa.int64()), value_set=positions))
    where = pc.index_in(picked.column("record_index").cast(pa.int64()), value_set=positions)
    return picked.set_column(0, "record_index", pc.take(offsets, where))
