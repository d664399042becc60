"""Attributes that are times (`shown_time`: when the footage a camera view showed was
recorded), read at import like the event's own time and stored as one instant.

Once, such a value was kept as written and read by the build with the block's own pattern;
written any other way (`13:42:42` beside a `10/04/2021 01:47:03 PM` screen clock, or ISO)
it was silently dropped and the camera lag went "not established" with no word why. Now
it is read with the pattern the mapping declares for it (`format` in its field table), or
else with the first of the patterns a user would write it in that reads every value: the
block's own, the mapping's other patterns, ISO 8601, and the time of day alone. A time of
day is on the day of the event's own time (the nearer of the days either side when that
is closer: a view just after midnight of footage just before it). Stored as the UTC
instant on the source's own clock (ISO 8601, `...Z`); the raw record keeps what was written.
A value no pattern reads rejects its row, naming the line and column; a column none of
whose values reads is an error naming the mapping key and what to write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.strptime import missing_date
from onrecord.sources.times import blank_mask, read_times

# A time of day as a user writes it when the screen clock beside it carries the date.
TIME_OF_DAY = ("%H:%M:%S.%f", "%H:%M:%S", "%I:%M:%S %p", "%H:%M")
DAY_MS = 86_400_000
HALF_DAY_MS = DAY_MS // 2
# where a pattern's time of day starts: "%m/%d/%Y %I:%M:%S %p" -> "%I:%M:%S %p"
CLOCK_PART = re.compile(r"%-?[HITR]")


@dataclass
class Read:
    """An attribute's values read as instants: `iso` (null where blank or unread), the rows
    written but not read, and the pattern that read them (None: none did)."""

    iso: pa.Array
    unread: np.ndarray
    pattern: str | None
    tried: tuple[str, ...]


def candidates(declared: str | None, own: str | None, others: list[str]) -> tuple[str, ...]:
    """The patterns tried, in order: the declared one alone; else the block's own, the
    mapping's others, ISO, and each of those patterns' time of day, then common ones."""
    if declared:
        return (declared,)
    patterns = [p for p in dict.fromkeys([own, *others]) if p]
    tails = []
    for p in patterns:
        at = CLOCK_PART.search(p) if p not in ("iso", "epoch", "epoch_s", "epoch_ms") else None
        if at and at.start() > 0:
            tails.append(p[at.start():].strip())
    return tuple(dict.fromkeys([*patterns, "iso", *tails, *TIME_OF_DAY]))


def read_instants(values: pa.Array, patterns: tuple[str, ...], event_ms: pa.Array, tz: str | None,
                  counted: np.ndarray) -> Read:
    """`values` read with the first of `patterns` that reads every written value of the
    `counted` rows (else the one that reads most); `event_ms`: the event's own time (UTC ms),
    which dates a time of day."""
    written = ~np.asarray(pc.fill_null(blank_mask(values), True), dtype=bool) & counted
    best: tuple[int, str | None, pa.Array | None] = (-1, None, None)
    for fmt in patterns:
        ms = _read(values, fmt, event_ms, tz)
        if ms is None:
            continue
        got = int((written & _valid(ms)).sum())
        if got > best[0]:
            best = (got, fmt, ms)
        if got == int(written.sum()):
            break
    got, fmt, ms = best
    if ms is None or got <= 0:
        nulls = pa.nulls(len(values), pa.string())
        return Read(nulls, written, None, patterns)
    iso = pc.strftime(pc.cast(ms, pa.timestamp("ms", tz="UTC")), "%Y-%m-%dT%H:%M:%SZ")
    return Read(iso, written & ~_valid(ms), fmt, patterns)


def _read(values: pa.Array, fmt: str, event_ms: pa.Array, tz: str | None) -> pa.Array | None:
    try:
        if fmt in ("iso", "epoch", "epoch_s", "epoch_ms") or len(missing_date(fmt)) < 3:
            return read_times(values, fmt, tz).utc_ms
        return _time_of_day(values, fmt, event_ms, tz)
    except (LookupError, pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # this pattern cannot be used here (no zone for naive times): the next is tried


def _time_of_day(values: pa.Array, fmt: str, event_ms: pa.Array, tz: str | None) -> pa.Array:
    """A time of day on the event's own local day, moved a day where that puts it nearer."""
    if tz is None:
        raise LookupError("no zone")
    day = pc.strftime(pc.cast(event_ms, pa.timestamp("ms", tz=tz)), "%Y-%m-%d")
    ms = read_times(pc.binary_join_element_wise(day, pc.utf8_trim_whitespace(values), " "),
                    f"%Y-%m-%d {fmt}", tz).utc_ms
    later = pc.greater(pc.subtract(ms, event_ms), HALF_DAY_MS)
    earlier = pc.less(pc.subtract(ms, event_ms), -HALF_DAY_MS)
    ms = pc.if_else(pc.fill_null(later, False), pc.subtract(ms, DAY_MS), ms)
    return pc.if_else(pc.fill_null(earlier, False), pc.add(ms, DAY_MS), ms)


def _valid(ms: pa.Array) -> np.ndarray:
    return np.asarray(pc.fill_null(pc.is_valid(ms), False), dtype=bool)
