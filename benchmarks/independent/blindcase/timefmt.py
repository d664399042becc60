"""Ways agencies' systems write a time, and the words their documentation uses for it.

A style renders a moment *on the source's own clock* (already offset) into one or two
column values. Systems truncate, never round: 13:02:11.9 written to the second is
13:02:11, written to the minute 13:02.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Style:
    key: str
    parts: tuple[str, ...]  # strftime patterns (or epoch_s / epoch_ms / iso...), one per column
    zone: str  # "local" or "utc"
    precision: float  # seconds: 0.001, 1, 60
    words: str  # how the documentation describes it

    @property
    def columns(self) -> int:
        return len(self.parts)


STYLES = {
    s.key: s
    for s in [
        Style(
            "iso_offset",
            ("iso_offset",),
            "local",
            1,
            "ISO 8601 local time with UTC offset, e.g. 2021-03-04T13:02:11-06:00",
        ),
        Style(
            "iso_offset_ms",
            ("iso_offset_ms",),
            "local",
            0.001,
            "ISO 8601 local time with milliseconds and UTC offset, e.g. 2021-03-04T13:02:11.347-06:00",
        ),
        Style(
            "offset_compact",
            ("%Y-%m-%d %H:%M:%S %z",),
            "local",
            1,
            "YYYY-MM-DD HH:MM:SS followed by the UTC offset as +HHMM",
        ),
        Style("iso_z_ms", ("iso_z_ms",), "utc", 0.001, "ISO 8601 in UTC with milliseconds, 'Z' suffix"),
        Style("iso_z", ("iso_z",), "utc", 1, "ISO 8601 in UTC, 'Z' suffix"),
        Style(
            "local_frac",
            ("%Y-%m-%d %H:%M:%S.%f3",),
            "local",
            0.001,
            "YYYY-MM-DD HH:MM:SS.fff (milliseconds), local time, no offset",
        ),
        Style(
            "local_micro",
            ("%Y-%m-%d %H:%M:%S.%f",),
            "local",
            0.000001,
            "YYYY-MM-DD HH:MM:SS.ffffff (microseconds), local time, no offset",
        ),
        Style("epoch_s", ("epoch_s",), "utc", 1, "Unix time: whole seconds since 1970-01-01 00:00:00 UTC"),
        Style("epoch_s_frac", ("epoch_s_frac",), "utc", 0.01, "Unix time in seconds with two decimals"),
        Style("epoch_ms", ("epoch_ms",), "utc", 0.001, "Unix time in milliseconds"),
        Style("us24", ("%m/%d/%Y %H:%M:%S",), "local", 1, "MM/DD/YYYY HH:MM:SS, 24-hour clock"),
        Style("us12", ("%m/%d/%Y %I:%M:%S %p",), "local", 1, "MM/DD/YYYY hh:mm:ss AM/PM"),
        Style("us12_nopad", ("%-m/%-d/%Y %-I:%M:%S %p",), "local", 1, "M/D/YYYY h:mm:ss AM/PM (no leading zeros)"),
        Style("dayfirst", ("%d/%m/%Y %H:%M:%S",), "local", 1, "DD/MM/YYYY HH:MM:SS (day first), 24-hour"),
        Style("dayfirst_dots", ("%d.%m.%Y %H:%M:%S",), "local", 1, "DD.MM.YYYY HH:MM:SS (day first), 24-hour"),
        Style("monname", ("%d-%b-%Y %H:%M:%S",), "local", 1, "DD-Mon-YYYY HH:MM:SS, month as a three-letter name"),
        Style("utc_plain", ("%Y-%m-%d %H:%M:%S",), "utc", 1, "YYYY-MM-DD HH:MM:SS"),
        Style("local_plain", ("%Y-%m-%d %H:%M:%S",), "local", 1, "YYYY-MM-DD HH:MM:SS"),
        Style("compact", ("%Y%m%d%H%M%S",), "local", 1, "YYYYMMDDHHMMSS"),
        Style("split_iso", ("%Y-%m-%d", "%H:%M:%S"), "local", 1, "date YYYY-MM-DD and time HH:MM:SS in two columns"),
        Style("split_us", ("%m/%d/%y", "%H%M%S"), "local", 1, "date MM/DD/YY and time HHMMSS in two columns"),
        Style(
            "split_us12",
            ("%m/%d/%Y", "%I:%M:%S %p"),
            "local",
            1,
            "date MM/DD/YYYY and time hh:mm:ss AM/PM in two columns",
        ),
        Style("split_compact", ("%Y%m%d", "%H:%M:%S"), "local", 1, "date YYYYMMDD and time HH:MM:SS in two columns"),
        Style(
            "split_dayfirst",
            ("%d/%m/%Y", "%H:%M:%S"),
            "local",
            1,
            "date DD/MM/YYYY (day first) and time HH:MM:SS in two columns",
        ),
        Style("split_utc", ("%Y%m%d", "%H:%M:%S"), "utc", 1, "date YYYYMMDD and time HH:MM:SS in two columns"),
        Style("minute_us", ("%m/%d/%Y %H:%M",), "local", 60, "MM/DD/YYYY HH:MM (to the minute)"),
        Style(
            "minute_split",
            ("%Y%m%d", "%H%M"),
            "local",
            60,
            "date YYYYMMDD and time HHMM (to the minute) in two columns",
        ),
        Style("minute_12", ("%m/%d/%Y %I:%M %p",), "local", 60, "MM/DD/YYYY hh:mm AM/PM (to the minute)"),
    ]
}


def _fmt(dt: datetime, pattern: str) -> str:
    if "%-" in pattern:  # glibc-style no-padding flags, done by hand for portability
        pattern = (
            pattern.replace("%-m", str(dt.month))
            .replace("%-d", str(dt.day))
            .replace("%-I", str(int(dt.strftime("%I"))))
        )
    if "%f3" in pattern:
        pattern = pattern.replace("%f3", f"{dt.microsecond // 1000:03d}")
    return dt.strftime(pattern)


def render(style: Style, written_epoch: float, zone: str) -> list[str]:
    """The column values for a moment read on the source's clock (UTC epoch seconds)."""
    t = math.floor(written_epoch / style.precision + 1e-9) * style.precision
    if style.precision >= 1:
        t = float(int(round(t)))
    tz = timezone.utc if style.zone == "utc" else ZoneInfo(zone)
    whole = math.floor(t)
    micro = int(round((t - whole) * 1_000_000))
    if micro >= 1_000_000:
        whole, micro = whole + 1, micro - 1_000_000
    dt = datetime.fromtimestamp(whole, tz).replace(microsecond=micro)
    out = []
    for part in style.parts:
        if part == "epoch_s":
            out.append(str(int(whole)))
        elif part == "epoch_s_frac":
            out.append(f"{whole}.{micro // 10000:02d}")
        elif part == "epoch_ms":
            out.append(str(int(whole) * 1000 + micro // 1000))
        elif part == "iso_offset":
            out.append(dt.isoformat(timespec="seconds"))
        elif part == "iso_offset_ms":
            out.append(dt.isoformat(timespec="milliseconds"))
        elif part == "iso_z":
            out.append(dt.strftime("%Y-%m-%dT%H:%M:%SZ"))
        elif part == "iso_z_ms":
            out.append(dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{micro // 1000:03d}Z")
        else:
            out.append(_fmt(dt, part))
    return out


def time_only(written_epoch: float, zone: str, pattern: str = "%H:%M:%S") -> str:
    dt = datetime.fromtimestamp(math.floor(written_epoch), ZoneInfo(zone))
    return _fmt(dt, pattern)


ZONE_WORDS = {
    "America/Chicago": ["Central Time (CST/CDT)", "local time (US Central)", "Central"],
    "America/New_York": ["Eastern Time (EST/EDT)", "local time (US Eastern)", "Eastern"],
    "America/Denver": ["Mountain Time (MST/MDT)", "local time (US Mountain)", "Mountain"],
    "America/Los_Angeles": ["Pacific Time (PST/PDT)", "local time (US Pacific)", "Pacific"],
    "America/Phoenix": [
        "Arizona time (MST all year, no daylight saving)",
        "local time (MST)",
        "Mountain Standard Time",
    ],
}
UTC_WORDS = ["UTC", "UTC (GMT)", "Coordinated Universal Time (UTC)", "GMT / Zulu"]
