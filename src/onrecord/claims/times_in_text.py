"""Times in free text: clock times ("about 2:21 p.m."), offsets from an event ("two days
after the shooting", "four minutes later"), and calendar dates ("February 15").

A clock time becomes minutes after midnight with an interval for its hedge; an offset
keeps its anchor event in words, because only a case can say when "the shooting" was.
Calendar dates go through dateparser (offline) and keep an unknown year unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from onrecord.claims.numbers import HEDGES, NUMBER, VAGUE, interval, parse_number

CLOCK_HEDGES = {
    "about": (-5, 5), "around": (-5, 5), "approximately": (-5, 5), "roughly": (-5, 5),
    "shortly after": (0, 15), "just after": (0, 5), "just before": (-5, 0),
    "shortly before": (-15, 0), "before": (None, 0), "after": (0, None), "by": (None, 0),
    "until": (None, 0), "at": (0, 0),
}
_CH = "|".join(sorted(CLOCK_HEDGES, key=len, reverse=True))
CLOCK_RE = re.compile(
    rf"(?:\b(?P<hedge>{_CH})\s+)?\b(?P<h>\d{{1,2}})(?::(?P<m>\d{{2}}))?\s*"
    rf"(?P<ampm>a\.?\s?m\.?|p\.?\s?m\.?)?(?(m)|(?(ampm)|(?!)))"
    rf"|(?:\b(?P<hedge2>{_CH})\s+)?\b(?P<word>noon|midnight)\b"
    # police reports: "at approximately 1421 hours", "14:21 hrs"
    rf"|(?:\b(?P<hedge3>{_CH})\s+)?\b(?P<mil>[01]\d|2[0-3]):?(?P<milm>[0-5]\d)\s*(?:hours|hrs)\b",
    re.IGNORECASE,
)
_VAGUE = "|".join(re.escape(v) for v in VAGUE)
_HEDGE = "|".join(re.escape(h) for h in sorted(HEDGES, key=len, reverse=True))
RELATIVE_RE = re.compile(
    rf"(?:\b(?P<hedge>{_HEDGE})\s+)?\b(?P<n>{NUMBER}|{_VAGUE})\s+(?:[a-z]+\s+)?(?P<unit>seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+"
    rf"(?P<rel>after|before|later|earlier|ago|prior to)\b(?:\s+(?P<anchor>[^,.;:—–]+))?",
    re.IGNORECASE,
)
MONTHS = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
          r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
DATE_RE = re.compile(rf"\b{MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b")


@dataclass
class TimeExpr:
    start: int
    end: int
    text: str
    kind: str  # clock | offset
    lo: float | None
    hi: float | None
    unit: str  # minute_of_day | second | minute | hour | day | week | month | year
    hedge: str | None
    ref: dict[str, Any]


def clock_times(text: str) -> list[TimeExpr]:
    out = []
    for m in CLOCK_RE.finditer(text):
        if m.group("word"):
            minute = 720 if m.group("word").lower() == "noon" else 0
            hedge = (m.group("hedge2") or "").lower() or None
        elif m.group("mil"):
            minute = int(m.group("mil")) * 60 + int(m.group("milm"))
            hedge = (m.group("hedge3") or "").lower() or None
        else:
            hour, minute_part = int(m.group("h")), int(m.group("m") or 0)
            if hour > 23 or minute_part > 59:
                continue
            ampm = (m.group("ampm") or "").lower().replace(".", "").replace(" ", "")
            if ampm == "pm" and hour < 12:
                hour += 12
            if ampm == "am" and hour == 12:
                hour = 0
            minute, hedge = hour * 60 + minute_part, (m.group("hedge") or "").lower() or None
        dlo, dhi = CLOCK_HEDGES.get(hedge or "at", (0, 0))
        lo = None if dlo is None else minute + dlo
        hi = None if dhi is None else minute + dhi
        out.append(TimeExpr(m.start(), m.end(), m.group(0), "clock", lo, hi, "minute_of_day", hedge,
                            {"clock": f"{minute // 60:02d}:{minute % 60:02d}"}))
    return out


def offsets(text: str) -> list[TimeExpr]:
    out = []
    for m in RELATIVE_RE.finditer(text):
        n = m.group("n").lower()
        lo, hi = VAGUE.get(n, (None, None))
        if lo is None:
            value = parse_number(n)
            if value is None:
                continue
            hedge = (m.group("hedge") or "").lower() or None
            lo, hi = interval(value, HEDGES.get(hedge) if hedge else None)
        rel = m.group("rel").lower()
        sign = "before" if rel in {"before", "earlier", "ago", "prior to"} else "after"
        anchor = (m.group("anchor") or "").strip() or None
        unit = m.group("unit").lower().rstrip("s")
        if rel not in {"after", "before", "prior to"}:
            anchor = None  # "four minutes later": the anchor is whatever came just before
        end = m.end() if anchor else m.end("rel")
        out.append(TimeExpr(m.start(), end, text[m.start():end], "offset", lo, hi, unit,
                            (m.group("hedge") or "").lower() or None,
                            {"relation": sign, "anchor": anchor}))
    return out


def calendar_dates(text: str) -> list[dict[str, Any]]:
    """'the night of February 15' -> {'text': 'February 15', 'date': '--02-15'}."""
    import dateparser

    out = []
    for m in DATE_RE.finditer(text):
        parsed = dateparser.parse(m.group(0), languages=["en"],
                                  settings={"REQUIRE_PARTS": ["month", "day"]})
        if parsed is None:
            continue
        has_year = re.search(r"\d{4}", m.group(0)) is not None
        iso = parsed.date().isoformat() if has_year else f"--{parsed.month:02d}-{parsed.day:02d}"
        out.append({"text": m.group(0), "date": iso, "start": m.start(), "end": m.end()})
    return out
