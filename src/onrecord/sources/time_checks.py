"""Checks on written times that the column-wise reading (times.py) would otherwise let
through changed: a day the month does not have (pyarrow's strptime moves 02/30 to 03/02),
a year no record of an incident can carry, and a local time that a daylight-saving change
skipped or repeated. See docs/mappings.md ("Values that are refused").
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.strptime import _tokens, normalise  # the pattern read the one way strptime.py reads it

DEFAULT_YEARS = (1900, 2100)
DST_GAP_RULES = ("refuse", "old_offset", "new_offset")
DST_OVERLAP_RULES = ("earlier", "later", "refuse")

@dataclass(frozen=True)
class TimeRules:
    """How a mapping wants the doubtful times read (its [mapping] keys; defaults here)."""
    years: tuple[int, int] = DEFAULT_YEARS
    dst_gap: str = "refuse"
    dst_overlap: str = "earlier"


def time_rules(head: dict, fail) -> TimeRules:
    """The [mapping] keys `years`, `dst_gap` and `dst_overlap`; `fail(key, message, value)` raises."""
    years = head.get("years", list(DEFAULT_YEARS))
    if not (isinstance(years, list) and len(years) == 2 and all(isinstance(y, int) for y in years)
            and 2 <= years[0] <= years[1] <= 9998):
        # a year apart from the ends of the calendar: a time near them cannot be shown in every zone
        fail("mapping.years", "must be [first, last], two years from 2 to 9998", years)
    gap = head.get("dst_gap", "refuse")
    if gap not in DST_GAP_RULES:
        fail("mapping.dst_gap", f"must be one of {', '.join(DST_GAP_RULES)}", gap)
    overlap = head.get("dst_overlap", "earlier")
    if overlap not in DST_OVERLAP_RULES:
        fail("mapping.dst_overlap", f"must be one of {', '.join(DST_OVERLAP_RULES)}", overlap)
    return TimeRules(years=(years[0], years[1]), dst_gap=gap, dst_overlap=overlap)


def day_pattern(fmt: str) -> str | None:
    """A regular expression for values written as `fmt`, with the written day as group
    `day` (built from the tokens strptime.py reads the pattern by, glued digits included);
    None when the pattern writes no day of the month, or writes it twice."""
    tokens = _tokens(normalise(fmt))
    if sum(d in ("d", "e", "D") for d, _, _ in tokens) != 1:
        return None
    out = []
    for d, _, regex in tokens:
        if d in ("d", "e"):
            regex = f"(?P<day>{regex})"
        elif d == "D":  # %m/%d/%y
            regex = r"\d{1,2}/(?P<day>\d{1,2})/\d{2}"
        out.append(regex)
    return "^" + "".join(out) + "$"


def impossible_dates(texts: pa.Array, naive: pa.Array, fmt: str) -> np.ndarray:
    """Rows whose written day is not the day read: the date does not exist (02/30, 04/31)."""
    n = len(texts)
    bad = np.zeros(n, dtype=bool)
    pattern = day_pattern(fmt)
    if pattern is None:
        return bad
    # A day past the month's end comes out as day 1, 2 or 3 of the next month (31 February
    # is 3 March): only those rows need their written day read, a tenth of a column.
    days = pc.day(naive)
    rows = np.flatnonzero(_np(pc.less_equal(days, 3)))
    if not len(rows):
        return bad
    picked = pa.array(rows)
    values = pc.utf8_trim_whitespace(pc.take(texts, picked))
    written = pc.struct_field(pc.extract_regex(values, pattern), "day")
    written = pc.cast(pc.utf8_trim_whitespace(written), pa.int64())
    differs = _np(pc.not_equal(written, pc.cast(pc.take(days, picked), pa.int64())))
    bad[rows[differs]] = True
    # Rows the pattern does not describe (it is a guess at strptime's leniency): ask Python,
    # which does check the day against the month, one value at a time; they are few.
    for i in np.flatnonzero(_np(pc.is_null(written))):
        try:
            datetime.strptime(values[int(i)].as_py(), normalise(fmt))
        except ValueError as exc:
            bad[rows[i]] = "day is out of range" in str(exc)
    return bad


def offset_dates_impossible(texts: pa.Array, aware: pa.Array, fmt: str) -> np.ndarray:
    """As impossible_dates, for a pattern with %z: the day read is in UTC, a day either side
    of the one written, so the rows near a month's turn are asked of Python one by one."""
    bad = np.zeros(len(texts), dtype=bool)
    days = pc.day(aware)
    near = pc.or_(pc.less_equal(days, 4), pc.greater_equal(days, 28))
    values = pc.utf8_trim_whitespace(texts)
    for row in np.flatnonzero(_np(near)):
        try:
            datetime.strptime(values[int(row)].as_py(), normalise(fmt))
        except ValueError as exc:
            bad[row] = "day is out of range" in str(exc)
    return bad


def years_outside(lo: pa.Array, years: tuple[int, int]) -> np.ndarray:
    """Rows read (UTC ms) before 1 January of the first year or after 31 December of the last."""
    first = int(datetime(years[0], 1, 1, tzinfo=timezone.utc).timestamp() * 1000)
    after = int(datetime(years[1] + 1, 1, 1, tzinfo=timezone.utc).timestamp() * 1000)
    return _np(pc.or_(pc.less(lo, first), pc.greater_equal(lo, after)))


@dataclass
class Localised:
    utc_ms: pa.Array  # int64, as the mapping's rules read each time
    gap: np.ndarray  # the local time was skipped (clocks went forward)
    overlap: np.ndarray  # the local time happened twice (clocks went back)


def localise(naive: pa.Array, tz: str, rules: TimeRules) -> Localised:
    """Local wall times (timestamps without a zone) to UTC ms, finding DST gaps and overlaps."""
    if tz == "UTC":
        zero = np.zeros(len(naive), dtype=bool)
        return Localised(pc.cast(naive, pa.int64()), zero, zero)
    first = _assume(naive, tz, "earliest", "earliest")
    other = _assume(naive, tz, "latest", "latest")
    doubtful = np.flatnonzero(_np(pc.not_equal(first, other)))
    gap = np.zeros(len(naive), dtype=bool)
    overlap = np.zeros(len(naive), dtype=bool)
    if not len(doubtful):
        return Localised(first, gap, overlap)
    # The few doubtful rows, read one by one: zoneinfo says both readings (fold 0 and 1).
    zone = zoneinfo.ZoneInfo(tz)
    valid = _np(pc.is_valid(first))
    values = pc.fill_null(first, 0).to_numpy(zero_copy_only=False).copy()
    walls = pc.cast(naive, pa.int64())
    for row in doubtful:
        wall = datetime.fromtimestamp(walls[int(row)].as_py() / 1000, tz=timezone.utc).replace(tzinfo=None)
        a, b = (int(wall.replace(tzinfo=zone, fold=f).timestamp() * 1000) for f in (0, 1))
        if a > b:  # in a gap fold 0 reads with the offset before the change, which is the later instant
            gap[row] = True
            values[row] = a if rules.dst_gap == "old_offset" else b
        else:
            overlap[row] = True
            values[row] = b if rules.dst_overlap == "later" else a
    return Localised(pa.array(values, pa.int64(), mask=~valid), gap, overlap)


def _assume(naive: pa.Array, tz: str, ambiguous: str, nonexistent: str) -> pa.Array:
    aware = pc.assume_timezone(naive, timezone=tz, ambiguous=ambiguous, nonexistent=nonexistent)
    return pc.cast(pc.cast(aware, pa.timestamp("ms")), pa.int64())


def _np(mask) -> np.ndarray:
    return pc.fill_null(mask, False).to_numpy(zero_copy_only=False).astype(bool)
