"""Reading a time a user typed on the command line or in a query."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from onrecord.errors import UsageError


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
