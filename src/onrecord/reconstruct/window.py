"""The incident's window: the hours a case is about, when an export holds more.

A gunshot-detection export, a door log or a CAD query often covers a week or a shift;
one stray alert two days before the incident would otherwise become the case's "first
shots" and every measure after it wrong. The window is declared in the case's
`onrecord.toml` (`[case] window = ["2025-08-18 09:00", "2025-08-18 12:00"]`, in the case's
zone unless an offset is written) and the build leaves out the events outside it; they
stay in the evidence, counted in the build's notes. Without a window, a source whose events
span more than a day is named, so the user sees there is something to decide.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pandas as pd

from onrecord.errors import CaseError

DAY_MS = 24 * 3600 * 1000
KEY = "[case] window"
# what is written about the incident or the people in it at other times, on purpose: a
# prior contact years before, a tip, a roster, a statement given the next day, an article
NOT_RECORDS_OF_IT = ("roster", "contact", "tip", "statement", "press")


def case_window(reader) -> tuple[int, int] | None:
    """The window of the case `reader` reads, or None."""
    case = getattr(reader, "case", None)
    if case is None or "window" not in case.settings.get("case", {}):
        return None
    return declared_window(case.settings, reader.display_zone())


def declared_window(settings: dict, zone: ZoneInfo) -> tuple[int, int] | None:
    """(from, to) in UTC ms from `[case] window`, or None where none is set."""
    given = settings.get("case", {}).get("window")
    if given is None:
        return None
    if not (isinstance(given, list) and len(given) == 2):
        raise CaseError(f"onrecord.toml: {KEY} must be two times, [from, to], not {given!r}")
    lo, hi = (_instant(v, zone) for v in given)
    if hi <= lo:
        raise CaseError(f"onrecord.toml: {KEY} ends ({given[1]}) before it begins ({given[0]})")
    return lo, hi


def _instant(value, zone: ZoneInfo) -> int:
    if isinstance(value, datetime):  # TOML's own date-times
        t = value
    else:
        try:
            t = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise CaseError(f"onrecord.toml: {KEY}: {value!r} is not a time like 2025-08-18 09:00 "
                            "or 2025-08-18T09:00:00-07:00") from None
    if t.tzinfo is None:
        t = t.replace(tzinfo=zone)
    return int(t.timestamp() * 1000)


def within_window(events: pd.DataFrame, window: tuple[int, int] | None) -> tuple[pd.DataFrame, list[str]]:
    """The events the build reads, and its notes. Untimed events (a roster's lines) are kept."""
    if events.empty:
        return events, []
    if window is None:
        return events, _long_spans(events)
    lo, hi = window
    t = events["t_src_lo"]
    outside = _of_the_incident(events) & t.notna() & ((events["t_src_hi"].fillna(t) < lo) | (t > hi))
    if not outside.any():
        return events, []
    counts = events.loc[outside, "file_name"].astype(str).value_counts()
    notes = [f"{name}: {n} event(s) outside the case's window ({KEY} in onrecord.toml) left out of the build; "
             "they stay in the evidence" for name, n in counts.items()]
    return events[~outside].reset_index(drop=True), notes


def _long_spans(events: pd.DataFrame) -> list[str]:
    timed = events[_of_the_incident(events) & events["t_src_lo"].notna()]
    if timed.empty:
        return []
    spans = timed.groupby(timed["file_name"].astype(str), observed=True)["t_src_lo"].agg(["min", "max"])
    long = spans[spans["max"] - spans["min"] > DAY_MS]
    return [f"{name}: its events span {(r['max'] - r['min']) / DAY_MS:.1f} days; if the incident is shorter, "
            f"set {KEY} in onrecord.toml so events of other days are not read as the incident's"
            for name, r in long.iterrows()]


def _of_the_incident(events: pd.DataFrame) -> pd.Series:
    return ~events["source_kind"].astype(str).isin(NOT_RECORDS_OF_IT)
