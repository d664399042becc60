"""Writing a moment the way a given clock and dialect would: the clock's error is added
first (a source's written time = true time + its offset), then the dialect's format."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo


@lru_cache(maxsize=8)
def _zone(tz: str) -> ZoneInfo:
    return ZoneInfo(tz)


def local(t: float, tz: str, pattern: str) -> str:
    return datetime.fromtimestamp(t, _zone(tz)).strftime(pattern)


def utc_iso(t: float, ms: bool = True) -> str:
    d = datetime.fromtimestamp(t, timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + (f".{d.microsecond // 1000:03d}" if ms else "") + "Z"


def local_iso(t: float, tz: str) -> str:
    """ISO 8601 with the zone's offset, e.g. 2025-02-13T14:21:07-05:00."""
    return datetime.fromtimestamp(int(t), _zone(tz)).isoformat()


def epoch(t: float) -> str:
    return str(int(t))


def epoch_ms(t: float) -> str:
    return str(int(round(t * 1000)))


def iso_true(t: float) -> str:
    """How truth.json writes a true moment: UTC, milliseconds."""
    return utc_iso(t)
