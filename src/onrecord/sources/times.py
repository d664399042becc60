"""Reading written times into UTC milliseconds, a whole column at a time (pyarrow)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.mapping import PRECISION_MS
from onrecord.sources.strptime import strptime_ms

OFFSET_SUFFIX = r"(Z|z|[+-]\d\d:?\d\d)$"


def blank_mask(values: pa.Array) -> pa.Array:
    """True where nothing is written (null or only spaces)."""
    stripped = pc.utf8_trim_whitespace(values)
    return pc.fill_null(pc.equal(stripped, ""), True)


def parse_times(values: pa.Array, fmt: str, tz: str | None) -> pa.Array:
    """UTC epoch milliseconds (int64), null where the text does not read as `fmt`.

    `tz` is the zone the times are written in; times that carry their own offset
    (ISO with Z or +hh:mm, a pattern with %z) ignore it. Raises LookupError when naive times have no zone.
    """
    values = pc.utf8_trim_whitespace(values)
    if fmt in ("epoch", "epoch_s"):
        return _numeric(values, 1000)
    if fmt == "epoch_ms":
        return _numeric(values, 1)
    if fmt == "iso":
        return _iso(values, tz)
    read = strptime_ms(values, fmt)
    if read.type.tz is not None:  # %z: each value carries its own offset
        return pc.cast(pc.cast(read, pa.timestamp("ms")), pa.int64())
    return _localise(read, tz)


def _numeric(values: pa.Array, scale: int) -> pa.Array:
    ok = pc.match_substring_regex(values, r"^-?\d+(\.\d+)?$")
    safe = pc.if_else(ok, values, pa.scalar(None, pa.string()))
    return pc.cast(pc.round(pc.multiply(pc.cast(safe, pa.float64()), scale)), pa.int64())


def _iso(values: pa.Array, tz: str | None) -> pa.Array:
    has_offset = pc.fill_null(pc.match_substring_regex(values, OFFSET_SUFFIX), False)
    with_offset = pc.if_else(has_offset, values, pa.scalar(None, pa.string()))
    without = pc.if_else(has_offset, pa.scalar(None, pa.string()), values)
    aware = _cast_or_null(with_offset, pa.timestamp("ms", tz="UTC"))
    naive = _cast_or_null(pc.replace_substring(without, " ", "T", max_replacements=1), pa.timestamp("ms"))
    local = _localise(naive, tz) if pc.any(pc.is_valid(naive)).as_py() else pc.cast(naive, pa.int64())
    return pc.if_else(has_offset, pc.cast(pc.cast(aware, pa.timestamp("ms")), pa.int64()), local)


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


def _localise(naive: pa.Array, tz: str | None) -> pa.Array:
    if tz is None:
        raise LookupError("times are written without a zone and the mapping names none")
    if tz == "UTC":
        return pc.cast(naive, pa.int64())
    # A time that falls in the repeated hour of a DST change is read as the earlier one.
    aware = pc.assume_timezone(naive, timezone=tz, ambiguous="earliest", nonexistent="earliest")
    return pc.cast(pc.cast(aware, pa.timestamp("ms")), pa.int64())


def interval(lo: pa.Array, precision: str) -> pa.Array:
    """Upper end of the interval a written time stands for, given its precision."""
    return pc.add(lo, PRECISION_MS[precision])
