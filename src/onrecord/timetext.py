"""Times as a reader reads them, and as a reader types them: the one module every view
and the finding renderer take their times from, so a page, a report, the CLI and a
finding's sentence never write the same moment two ways.

Stored times are UTC milliseconds; a reader sees local time in the case's zone, with the
zone named. (How a generated source writes its times is the generator's own:
scenario/written_times.py.)
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

from onrecord.errors import UsageError


def to_local(ms: int | float | None, zone: ZoneInfo) -> datetime | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone)


def to_utc_iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def local_iso(ms: int | None, zone: ZoneInfo) -> str | None:
    t = to_local(ms, zone)
    return None if t is None else t.isoformat(timespec="milliseconds")


def _millis(ms: int) -> str:
    # Sensors write milliseconds and their order matters; whole seconds stay short.
    return f".{ms % 1000:03d}" if ms % 1000 and ms % 1000 != 999 else ""


def when(ms: int | None, zone: ZoneInfo, seconds: bool = True, millis: bool = True) -> str:
    """Local date and time with the zone shown: '2025-02-13 14:06:58 EST'."""
    t = to_local(ms, zone)
    if t is None:
        return "untimed"
    return t.strftime("%Y-%m-%d %H:%M" if not seconds else "%Y-%m-%d %H:%M:%S") + \
        (_millis(ms) if millis else "") + t.strftime(" %Z")


def clock_time(ms: int | None, zone: ZoneInfo) -> str:
    """Local time of day with the zone: '14:06:58 EST' (milliseconds where a sensor wrote them)."""
    t = to_local(ms, zone)
    return "untimed" if t is None else t.strftime("%H:%M:%S") + _millis(ms) + t.strftime(" %Z")


def interval(lo: int | None, hi: int | None, zone: ZoneInfo) -> str:
    """A span of time on a page: '2025-02-13 14:06:58 EST – 14:07:10 EST'."""
    if lo is None:
        return "untimed"
    if hi is None or hi == lo:
        return when(lo, zone)
    return f"{when(lo, zone)} – {clock_time(hi, zone)}"


def duration(seconds: float | None) -> str:
    """'42.0 s', '11 min 09 s', '2 h 05 min'."""
    if seconds is None:
        return "—"
    sign, s = ("−" if seconds < 0 else ""), abs(seconds)
    if s < 60:
        return f"{sign}{s:.1f} s"
    m, sec = divmod(round(s), 60)
    if m < 60:
        return f"{sign}{m} min {sec:02d} s"
    h, m = divmod(m, 60)
    return f"{sign}{h} h {m:02d} min"


def zone_label(zone: ZoneInfo, ms: int | None) -> str:
    """'America/New_York (EST)': the zone's name and its abbreviation at the case's time."""
    t = to_local(ms or 0, zone)
    return f"{zone.key} ({t.strftime('%Z')})"


# ---- in a finding's sentence (findings/render.py): to the second, the zone named once


def sentence_time(ms: float, zone: ZoneInfo) -> str:
    """'14:06:58 EST'."""
    return to_local(ms, zone).strftime("%H:%M:%S %Z")


def sentence_interval(lo: float, hi: float, zone: ZoneInfo) -> str:
    """A moment known to the second as one time; a wider one as its two ends and the day."""
    if abs(hi - lo) < 1000:
        return sentence_time((lo + hi) / 2, zone)
    return f"between {sentence_time(lo, zone)} and {sentence_time(hi, zone)} ({to_local(lo, zone):%Y-%m-%d})"


def sentence_seconds(lo: float, hi: float) -> str:
    """'42 s', '40–44 s'."""
    if abs(hi - lo) < 1.0:
        return f"{(lo + hi) / 2:.0f} s"
    return f"{lo:.0f}–{hi:.0f} s"


def sentence_offset(offset_s: float, unc_s: float | None) -> str:
    """A clock's error: '4.2 s fast (±0.5 s)'."""
    way = "fast" if offset_s > 0 else "slow"
    return f"{abs(offset_s):.1f} s {way} (±{unc_s or 0:.1f} s)"


def clock_minutes(minute: float) -> str:
    """Minutes after local midnight as a person writes the time of day: 850 -> '14:10'."""
    return f"{int(minute) // 60:02d}:{int(minute) % 60:02d}"


def minute_of_day(minute: float) -> str:
    """Minutes after local midnight as the clock reads: 850.5 -> '14:10:30'."""
    m = int(round(minute * 60)) // 60
    s = int(round(minute * 60)) % 60
    return f"{m // 60 % 24:02d}:{m % 60:02d}:{s:02d}"


# ---- a time a user typed on the command line or in a query


def parse_user_time(text: str | None, zone: ZoneInfo, option: str) -> int | None:
    """ISO 8601 (an offset wins; without one, the case's local zone) -> UTC ms."""
    if text is None:
        return None
    try:
        t = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise UsageError(f"{option} {text!r} is not a time like 2026-03-14T09:41:00 or 2026-03-14 09:41") from exc
    if t.tzinfo is None:
        t = t.replace(tzinfo=zone)
    return int(t.timestamp() * 1000)


class PageTimes:
    """The same texts as to_utc_iso, local_iso and interval, for the thousands of times of
    one page: the zone's offset and abbreviation are looked up once per hour, and the texts
    written from the time's parts (a datetime, astimezone and strftime per time made a
    500-event page spend more on its times than on its query). An hour in which the
    offset changes (a clock change not on the hour) is read time by time, as before."""

    HOURS_KEPT = 200_000  # about 23 years of hours

    def __init__(self, zone: ZoneInfo):
        self.zone, self._hours, self._days = zone, {}, {}

    def _hour(self, ms: int):
        h = ms // 3_600_000
        found = self._hours.get(h)
        if found is None:
            if len(self._hours) > self.HOURS_KEPT:
                self._hours.clear()
            start, end = to_local(h * 3_600_000, self.zone), to_local(h * 3_600_000 + 3_599_999, self.zone)
            if start.utcoffset() != end.utcoffset() or start.tzname() != end.tzname():
                found = False
            else:
                found = (int(start.utcoffset().total_seconds() * 1000), start.isoformat()[19:],
                         start.strftime("%Z"))
            self._hours[h] = found
        return found

    @staticmethod
    def _parts(ms: int) -> tuple:
        days, rest = divmod(ms, 86_400_000)
        d = date.fromordinal(_EPOCH_ORDINAL + days)
        s, milli = divmod(rest, 1000)
        return d.year, d.month, d.day, s // 3600, s // 60 % 60, s % 60, milli

    def utc_iso(self, ms: int | None) -> str | None:
        if ms is None:
            return None
        y, mo, d, h, mi, s, milli = self._parts(int(ms))
        return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{milli:03d}Z"

    def local_iso(self, ms: int | None) -> str | None:
        if ms is None:
            return None
        hour = self._hour(int(ms))
        if not hour:
            return local_iso(ms, self.zone)
        y, mo, d, h, mi, s, milli = self._parts(int(ms) + hour[0])
        return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{milli:03d}{hour[1]}"

    def _local_text(self, ms: int, date: bool) -> str | None:
        hour = self._hour(ms)
        if not hour:
            return None
        y, mo, d, h, mi, s, _ = self._parts(ms + hour[0])
        day = f"{y:04d}-{mo:02d}-{d:02d} " if date else ""
        return f"{day}{h:02d}:{mi:02d}:{s:02d}{_millis(ms)} {hour[2]}"

    def moment(self, ms: int) -> tuple[str, str, str]:
        """utc_iso(ms), local_iso(ms) and interval(ms, ms) at once, for the events that are a
        moment (most): the hour looked up once, the local parts worked out once, each day's
        date written once."""
        hour = self._hour(ms)
        if not hour:
            return self.utc_iso(ms), self.local_iso(ms), self.interval(ms, ms)
        utc_day, utc_clock, utc_milli = self._clock(ms)
        day, clock, milli = self._clock(ms + hour[0])
        return (f"{utc_day}T{utc_clock}.{utc_milli:03d}Z", f"{day}T{clock}.{milli:03d}{hour[1]}",
                f"{day} {clock}{_millis(ms)} {hour[2]}")

    def _clock(self, ms: int) -> tuple[str, str, int]:
        days, rest = divmod(ms, 86_400_000)
        day = self._days.get(days)
        if day is None:
            if len(self._days) > self.HOURS_KEPT:
                self._days.clear()
            d = date.fromordinal(_EPOCH_ORDINAL + days)
            day = self._days[days] = f"{d.year:04d}-{d.month:02d}-{d.day:02d}"
        s, milli = divmod(rest, 1000)
        return day, f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}", milli

    def interval(self, lo: int | None, hi: int | None) -> str:
        if lo is None:
            return "untimed"
        lo = int(lo)
        first = self._local_text(lo, True) or when(lo, self.zone)
        if hi is None or hi == lo:
            return first
        return f"{first} – {self._local_text(int(hi), False) or clock_time(int(hi), self.zone)}"


_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
