"""Reading written times into UTC milliseconds, a whole column at a time (pyarrow)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.mapping import PRECISION_MS
from onrecord.sources.strptime import strptime_ms
from onrecord.sources.time_checks import TimeRules, impossible_dates, localise, offset_dates_impossible

OFFSET_SUFFIX = r"(Z|z|[+-]\d\d:?\d\d)$"


def blank_mask(values: pa.Array) -> pa.Array:
    """True where nothing is written (null or only spaces)."""
    stripped = pc.utf8_trim_whitespace(values)
    return pc.fill_null(pc.equal(stripped, ""), True)


@dataclass
class TimeReading:
    """Times read, and the rows whose reading is in doubt (time_checks.py)."""
    utc_ms: pa.Array  # int64, null where the text does not read as the format
    impossible: np.ndarray  # a date the calendar does not have (02/30)
    gap: np.ndarray  # a local time the DST change skipped
    overlap: np.ndarray  # a local time the DST change repeated


def parse_times(values: pa.Array, fmt: str, tz: str | None) -> pa.Array:
    """UTC epoch milliseconds (int64), null where the text does not read as `fmt`.

    `tz` is the zone the times are written in; times that carry their own offset
    (ISO with Z or +hh:mm, a pattern with %z) ignore it. Raises LookupError when naive times have no zone.
    """
    return read_times(values, fmt, tz).utc_ms


def read_times(values: pa.Array, fmt: str, tz: str | None, rules: TimeRules = TimeRules()) -> TimeReading:
    """As parse_times, with the rows whose date cannot exist or whose local time a DST
    change skipped or repeated (read as `rules` says; the caller refuses or notes them)."""
    values = pc.utf8_trim_whitespace(values)
    none = np.zeros(len(values), dtype=bool)
    if fmt in ("epoch", "epoch_s"):
        return TimeReading(_numeric(values, 1000), none, none, none)
    if fmt == "epoch_ms":
        return TimeReading(_numeric(values, 1), none, none, none)
    if fmt == "iso":
        return _iso(values, tz, rules)
    read = strptime_ms(values, fmt)
    if read.type.tz is not None:  # %z: each value carries its own offset, no DST to doubt
        utc = pc.cast(pc.cast(read, pa.timestamp("ms")), pa.int64())
        return TimeReading(utc, offset_dates_impossible(values, read, fmt), none, none)
    local = _localise(read, tz, rules)
    return TimeReading(local.utc_ms, impossible_dates(values, read, fmt), local.gap, local.overlap)


def _numeric(values: pa.Array, scale: int) -> pa.Array:
    ok = pc.match_substring_regex(values, r"^-?\d+(\.\d+)?$")
    safe = pc.if_else(ok, values, pa.scalar(None, pa.string()))
    ms = pc.round(pc.multiply(pc.cast(safe, pa.float64()), scale))
    # a number of more digits than any time has would overflow the cast: it does not read
    ms = pc.if_else(pc.less_equal(pc.abs(ms), 2.0 ** 62), ms, pa.scalar(None, pa.float64()))
    return pc.cast(ms, pa.int64())


def _iso(values: pa.Array, tz: str | None, rules: TimeRules) -> TimeReading:
    has_offset = pc.fill_null(pc.match_substring_regex(values, OFFSET_SUFFIX), False)
    with_offset = pc.if_else(has_offset, values, pa.scalar(None, pa.string()))
    without = pc.if_else(has_offset, pa.scalar(None, pa.string()), values)
    aware = _cast_or_null(with_offset, pa.timestamp("ms", tz="UTC"))
    naive = _cast_or_null(pc.replace_substring(without, " ", "T", max_replacements=1), pa.timestamp("ms"))
    none = np.zeros(len(values), dtype=bool)
    if pc.any(pc.is_valid(naive)).as_py():
        read = _localise(naive, tz, rules)
        local, gap, overlap = read.utc_ms, read.gap, read.overlap
    else:
        local, gap, overlap = pc.cast(naive, pa.int64()), none, none
    utc = pc.if_else(has_offset, pc.cast(pc.cast(aware, pa.timestamp("ms")), pa.int64()), local)
    # ISO text is cast, not strptime'd: the cast itself refuses 2019-02-30
    return TimeReading(utc, none, gap, overlap)


def _cast_or_null(values: pa.Array, target: pa.DataType) -> pa.Array:
    try:
        return pc.cast(values, target)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        # One bad value fails the whole cast; fall back to value by value.
        out = []
        for v in values.to_pylist():
            try:
                out.append(None if v is None else pc.cast(pa.array([v]), target)[0].as_py())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                out.append(None)
        return pa.array(out, type=target)


def _localise(naive: pa.Array, tz: str | None, rules: TimeRules):
    if tz is None:
        raise LookupError("times are written without a zone and the mapping names none")
    # A time in the hour a DST change repeats or skips is read as the mapping's rules say
    # (by default the earlier of a repeated hour); the caller notes or refuses it.
    return localise(naive, tz, rules)


def interval(lo: pa.Array, precision: str) -> pa.Array:
    """Upper end of the interval a written time stands for, given its precision."""
    return pc.add(lo, PRECISION_MS[precision])
