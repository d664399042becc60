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

from onrecord.claims.numbers import HEDGES, NUMBER, VAGUE

CLOCK_HEDGES = {
    "about": (-5, 5), "around": (-5, 5), "approximately": (-5, 5), "roughly": (-5, 5),
    "approx.": (-5, 5), "circa": (-5, 5), "sometime around": (-5, 5),
    "shortly after": (0, 15), "just after": (0, 5), "soon after": (0, 15), "just before": (-5, 0),
    "shortly before": (-15, 0), "nearly": (-5, 0), "almost": (-5, 0), "just past": (0, 5),
    "before": (None, 0), "after": (0, None), "by": (None, 0), "no later than": (None, 0),
    "until": (None, 0), "at": (0, 0), "as late as": (0, 0), "as early as": (0, 0),
}
_CH = "|".join(re.escape(h) for h in sorted(CLOCK_HEDGES, key=len, reverse=True) if h != "at")
_AMPM = r"(?:a\.?\s?m\b\.?|p\.?\s?m\b\.?)"
# One written time of day: "2:21 p.m.", "9:35:52 a.m.", "2.32pm" (a dot only with am/pm,
# so "2.5 minutes" is no time), "11 a.m.", "noon", "12 noon", "midnight", and the police
# reports' 24-hour "1421 hours" / "14:21 hrs".
_ONE = (rf"(?P<mil{{n}}>[01]\d|2[0-3]):?(?P<milm{{n}}>[0-5]\d)\s*(?:hours|hrs)\b"
        rf"|(?:12\s+)?(?P<word{{n}}>noon|midnight)\b"
        rf"|(?P<h{{n}}>\d{{{{1,2}}}})(?:(?P<sep{{n}}>[:.])(?P<m{{n}}>[0-5]\d)(?::(?P<s{{n}}>[0-5]\d))?)?\s*"
        rf"(?:(?P<ampm{{n}}>{_AMPM})|(?P<oclock{{n}}>o[’']clock\b))?(?![\w:])")
CLOCK_RE = re.compile(
    rf"(?:\b(?P<hedge>{_CH})\s+)?(?:(?P<between>between|from)\s+)?\b(?:{_ONE.format(n=1)})"
    rf"(?:\s*(?:-|–|to|and|until|till)\s*(?:{_ONE.format(n=2)}))?",
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
    # the half of the day a clock time says: "am"/"pm", None when written without one
    # ("12:39"), "set" when its words leave no doubt (noon, 24-hour "1421 hours")
    ampm: str | None = "set"
    # a bare hour ("shortly after 10,") whose half of the day only the document can say
    bare: bool = False


def _minute_of_day(m: re.Match, n: int, ampm_hint: str | None = None,
                   bare_ok: bool = False) -> tuple[float | None, str | None]:
    """Minutes after midnight of the n-th time in a match (seconds as a fraction), and the
    am/pm it says; None when the words are no time ("12 minutes", "2.5"). `bare_ok`: the
    words around a bare hour make it a time of day ("shortly after 10,", "at 10 that night")."""
    g = lambda name: m.group(f"{name}{n}")  # noqa: E731
    if g("h") is None and g("word") is None and g("mil") is None:
        return None, None
    if g("word"):
        return (720.0 if g("word").lower() == "noon" else 0.0), None
    if g("mil"):
        return float(int(g("mil")) * 60 + int(g("milm"))), None
    hour, minute = int(g("h")), int(g("m") or 0)
    ampm = (g("ampm") or "").lower().replace(".", "").replace(" ", "") or None
    if (g("m") is None or g("sep") == ".") and ampm is None and ampm_hint is None \
            and not (bare_ok and g("m") is None and 1 <= hour <= 12):
        return None, None  # "11" alone or "2.5" is a number, not a time of day
    if hour > 23 or (ampm and hour > 12):
        return None, None
    ampm = ampm or (ampm_hint if hour <= 12 else None)
    if ampm == "pm" and hour < 12:
        hour += 12
    if ampm == "am" and hour == 12:
        hour = 0
    return hour * 60 + minute + int(g("s") or 0) / 60, ampm


def clock_times(text: str) -> list[TimeExpr]:
    """Times of day, each an interval of minutes after midnight: its hedge widens it
    ("about" ±5, "nearly" 5 before), a range ("between noon and 12:10 p.m.", "from 9:30 to
    9:45 a.m.") spans both ends, and "not ... until 5:02 a.m." is the moment it happened."""
    out, pos = [], 0
    while (m := CLOCK_RE.search(text, pos)) is not None:
        pos = max(m.start() + 1, _end_of_first(m))
        second_ampm = (m.group("ampm2") or "").lower().replace(".", "").replace(" ", "") or None
        bare = m.group("h1") is not None and m.group("m1") is None and m.group("ampm1") is None
        hour_day = _bare_hour_time(text, m) if bare and second_ampm is None else None
        first, ampm = _minute_of_day(m, 1, second_ampm, bare_ok=hour_day is not None)
        if first is None:
            continue
        if hour_day is not None:
            ampm = _half_for_hour(int(m.group("h1")), hour_day)
            if ampm == "pm" and first < 720:
                first += 720
            if ampm == "am" and first >= 720:
                first -= 720
        second, _ = _minute_of_day(m, 2, ampm)
        joint = re.search(r"(?:-|–|to|and|until|till)", text[_end_of_first(m):m.end()] or "")
        if second is not None and (second < first or (joint and joint.group(0) in {"and"} and not m.group("between"))):
            second = None  # "at 2.32pm and 11.34am": two times, not a range
        hedge = (m.group("hedge") or "").lower() or None
        if hedge == "until" and NOT_UNTIL.search(text[:m.start()]):
            hedge = None  # "did not breach until 5:02": it happened at 5:02
        if second is not None:
            pos = m.end()
            dlo = CLOCK_HEDGES.get(hedge, (0, 0))[0] if hedge else 0
            lo, hi, hedge = (None if dlo is None else first + dlo), second, hedge or "range"
            end = m.end()
        else:
            dlo, dhi = CLOCK_HEDGES.get(hedge or "at", (0, 0))
            lo = None if dlo is None else first + dlo
            hi = None if dhi is None else first + dhi
            end = _end_of_first(m)
        start = m.start()
        if m.group("between") and second is None:
            start = m.start("between") + len(m.group("between")) + 1
            if m.group("hedge"):
                start = m.start()
        lo, hi = (None if lo is None else round(lo, 4)), (None if hi is None else round(hi, 4))
        t = TimeExpr(start, end, text[start:end], "clock", lo, hi, "minute_of_day", hedge,
                     {"clock": f"{int(first) // 60:02d}:{int(first) % 60:02d}"})
        t.ampm = ampm if m.group("h1") else "set"
        t.bare = hour_day is not None
        out.append(t)
    more = report_clock_times(text, out)
    return sorted(out + more, key=lambda t: t.start)


# A bare hour is a time of day only where its words say so: "10 o'clock", an hour with a part
# of the day after it ("at 10 that night", "around 11 in the morning", "at 9 Sunday night",
# "at 10 local time"), or an hour after a hedge that only times take, closed by punctuation
# ("shortly after 10, gunfire erupted"; "shortly after 10 minutes" is a duration).
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
BARE_DAY_PART = re.compile(
    rf"^\s*(?:(?:on\s+)?{_WEEKDAY}\s+|(?:that|this|last|the same|one|on\s+{_WEEKDAY})\s+|in\s+the\s+|at\s+)?"
    r"(?P<part>morning|afternoon|evening|night|tonight|local time)\b", re.IGNORECASE)
TIME_ONLY_HEDGE = {"shortly after", "just after", "soon after", "shortly before", "just before", "just past",
                   "sometime around", "sometime after", "a little after", "a few minutes after",
                   "a few minutes before", "sometime before"}


def _bare_hour_time(text: str, m: re.Match) -> str | None:
    """The part of the day that makes a bare hour a time ("local time" and a time-only hedge
    name none: "" then), or None when the hour is a number."""
    if m.group("oclock1"):
        part = BARE_DAY_PART.match(text[m.end("oclock1"):])
        return part.group("part").lower() if part else ""
    if not (m.group("hedge") or re.search(r"\bat\s+$", text[:m.start()], re.IGNORECASE)):
        return None  # "killed 10 that night": a count; a time takes "at", "by", "around" ...
    part = BARE_DAY_PART.match(text[m.end("h1"):])
    if part:
        return part.group("part").lower()
    if (m.group("hedge") or "").lower() in TIME_ONLY_HEDGE and re.match(r"\s*(?:[,.;)—–]|$)", text[m.end("h1"):]):
        return ""
    return None


def _half_for_hour(hour: int, part: str) -> str | None:
    """'10 that night' is p.m., '1 that night' a.m.; 'in the morning' a.m.; no part, no half."""
    if part == "morning":
        return "am"
    if part in {"afternoon", "evening"}:
        return "pm"
    if part in {"night", "tonight"}:
        return "am" if hour == 12 or hour < 6 else "pm"
    return None


# The 24-hour clock of reports without its "hours" ("at 2205,", "about 0440 GMT"), only after a
# word that times take and before punctuation or a zone; 19xx and 20xx are years unless a zone says
# otherwise ("by 2015," is a year).
MILITARY = re.compile(r"\b(?P<pre>at|around|about|approximately|by|until|before|after)\s+"
                      r"(?P<hh>[01]\d|2[0-3])(?P<mm>[0-5]\d)\b(?P<zone>\s*(?:GMT|UTC|Zulu|local time|[ECMP][SD]?T)\b)?"
                      r"(?=\s*(?:[,;)—–]|\.(?!\d)|$|on\b|(?-i:[A-Z])))", re.IGNORECASE)
# "a quarter past 10", "half past nine": the half of the day only the words around it can say
_HOUR_WORDS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
PAST_HOUR = re.compile(rf"\b(?P<frac>(?:a\s+)?quarter|half)\s+(?P<rel>past|after|to|before|till)\s+"
                       rf"(?P<h>1[0-2]|[1-9]|{'|'.join(_HOUR_WORDS)})\b(?:\s*(?P<ampm>{_AMPM}))?", re.IGNORECASE)


def report_clock_times(text: str, taken: list[TimeExpr]) -> list[TimeExpr]:
    """The 24-hour times without "hours" and the quarter and half hours `clock_times` leaves."""
    out = []
    for m in MILITARY.finditer(text):
        hh, mm = int(m.group("hh")), int(m.group("mm"))
        if 19 <= hh <= 20 and not m.group("zone"):
            continue
        start = m.start("hh")
        if any(t.start <= start < t.end for t in taken):
            continue
        minute = float(hh * 60 + mm)
        pre = m.group("pre").lower()
        dlo, dhi = CLOCK_HEDGES.get(pre, (0, 0))
        hedge = None if pre == "at" else pre
        start = start if hedge is None else m.start("pre")
        out.append(TimeExpr(start, m.end("mm"), text[start:m.end("mm")], "clock",
                            None if dlo is None else minute + dlo, None if dhi is None else minute + dhi,
                            "minute_of_day", hedge, {"clock": f"{hh:02d}:{mm:02d}"}))
    for m in PAST_HOUR.finditer(text):
        # "a quarter past 10 p.m." is 22:15, not the "10 p.m." inside it
        taken[:] = [t for t in taken if not (m.start() <= t.start < m.end())]
        h = m.group("h").lower()
        hour = int(h) if h.isdigit() else _HOUR_WORDS[h]
        part = 30 if m.group("frac").lower() == "half" else 15
        minute = hour * 60 + (part if m.group("rel").lower() in {"past", "after"} else -part)
        ampm = (m.group("ampm") or "").lower().replace(".", "").replace(" ", "") or None
        if ampm == "pm" and hour < 12:
            minute += 720
        if ampm == "am" and hour == 12:
            minute -= 720
        minute %= 1440
        t = TimeExpr(m.start(), m.end(), m.group(0), "clock", float(minute), float(minute), "minute_of_day", None,
                     {"clock": f"{minute // 60:02d}:{minute % 60:02d}"})
        t.ampm, t.bare = ampm, ampm is None
        out.append(t)
    return out


def with_day_half(t: TimeExpr, hint: str | None) -> TimeExpr:
    """'exactly 12:39' in a piece that says '12:45 a.m.' a line later is 00:39: a time
    written without a.m./p.m. takes the half of the day of the nearest time that has one."""
    if t.ampm is not None or hint not in {"am", "pm"}:
        return t
    minute = int(t.ref["clock"][:2]) * 60 + int(t.ref["clock"][3:])
    shift = -720 if hint == "am" and 720 <= minute < 780 else 720 if hint == "pm" and 60 <= minute < 720 else 0
    if shift:
        t.lo = None if t.lo is None else t.lo + shift
        t.hi = None if t.hi is None else t.hi + shift
        m = minute + shift
        t.ref = {**t.ref, "clock": f"{m // 60:02d}:{m % 60:02d}"}
    t.ampm = hint
    return t


# "did not breach until", "no one went in until": the negation is the verb's own, a few words
# before; "it is not accurate to say there was shooting until 2:30" denies the claim instead
# (the shooting ended by then), so a negation behind a verb of saying does not count.
NOT_UNTIL = re.compile(r"\b(?:not|never|n[’']t|no one|nobody|none)\b(?:\s+(?!(?:say|said|accurate|true|correct|"
                       r"claim|claimed|testified|suggest)\b)[\w’'-]+){0,6}\s+$", re.IGNORECASE)


def _end_of_first(m: re.Match) -> int:
    """Where the first time ends when the second part of the match is no time."""
    if m.group("milm1"):
        return m.start("milm1") + re.match(r"[0-5]\d\s*(?:hours|hrs)", m.string[m.start("milm1"):]).end()
    for name in ("ampm1", "oclock1", "s1", "m1", "h1", "word1"):
        if m.group(name):
            return m.end(name)
    return m.end()


OFFSET_AFTER = re.compile(
    r"^[\s-]*(?P<unit>seconds?|minutes?|hours?|days?|weeks?|months?|years?)?\s*"
    # the anchor runs to the clause's end; a clock time inside it ("after he went in at 11:33 a.m.") stays whole
    r"(?P<rel>after|before|later|earlier|ago|prior to|into|past|since|in(?=\s*(?:[,;:—–)]|\.(?!\d)|$)))\b"
    r"(?:\s+(?P<anchor>(?:[^,.;:—–\"“”]|(?<=\d)[:.](?=\d)|(?<=\b[ap])\.(?=m\.)|(?<=\b[ap]\.m)\.)+))?",
    re.IGNORECASE,
)


def _in_minutes(q, unit: str) -> tuple[float | None, float | None, str]:
    """An offset in seconds or hours in minutes, its hedge applied after converting ("about
    an hour after" is [54, 66] minutes, not [0, 2] hours), so offsets of one moment compare."""
    from onrecord.claims.numbers import HEDGES, TRAILING_HEDGES, interval

    f = {"second": 1 / 60, "sec": 1 / 60, "hour": 60.0, "hr": 60.0}.get(unit)
    if f is None:
        return q.lo, q.hi, unit
    rule = HEDGES.get(q.hedge or "") or TRAILING_HEDGES.get(q.hedge or "")
    if q.lo == q.hi or rule is None or q.hedge == "range":
        return (None if q.lo is None else q.lo * f), (None if q.hi is None else q.hi * f), "minute"
    lo, hi = interval(q.value * f, rule)
    return lo, hi, "minute"


# "shortly before Colt Gray began shooting", "just after the first shots": an offset with no
# number, its interval that of the same words before a clock time (the documented hedges only:
# "soon after", "moments after" give no interval)
NEAR_OFFSET = re.compile(
    r"\b(?P<hedge>shortly|just)\s+(?P<rel>before|after)\s+"
    r"(?!(?:\d|noon\b|midnight\b|dawn\b|that\b|then\b|this\b))"
    r"(?P<anchor>(?:[^,.;:—–\"“”]|(?<=\d)[:.](?=\d))+)", re.IGNORECASE)
NEAR_MINUTES = {"shortly": 15, "just": 5}


def near_offsets(text: str) -> list[TimeExpr]:
    out = []
    for m in NEAR_OFFSET.finditer(text):
        rel = m.group("rel").lower()
        hi = float(NEAR_MINUTES[m.group("hedge").lower()])
        ref = {"relation": rel, "anchor": m.group("anchor").strip()}
        out.append(TimeExpr(m.start(), m.end(), m.group(0), "offset", 0.0, hi, "minute",
                            f"{m.group('hedge').lower()} {rel}", ref))
    return out


def offsets(text: str) -> list[TimeExpr]:
    """'two days after the vigil', 'about a half hour into the ordeal', 'one minute and 39
    seconds after the first shot', 'four minutes later': an amount of time (numbers.py, so
    compound and vague amounts are read once) and the event it counts from, in words."""
    from onrecord.claims.numbers import find_quantities, taken_as_delay

    out = []
    for q in find_quantities(text):
        m = OFFSET_AFTER.match(text[q.end:])
        if m is None or (q.unit is None) == (m.group("unit") is None) or q.money:
            continue
        rel = m.group("rel").lower()
        lead = text[:q.start]
        if taken_as_delay(lead, q.hedge):
            continue  # "responded in less than two minutes after ...": a delay, read as a duration
        if re.search(r"\b(?:were|was|been|are|is|remained|stayed)\s+(?:[\w’'-]+\s+){1,4}?for\s*$", lead,
                     re.IGNORECASE):
            continue  # "were on the scene for 3 hours before they entered": how long, not when
        if (q.unit or m.group("unit") or "").lower().rstrip("s") in {"week", "month", "year"}:
            continue  # "three weeks later", "a year after the shooting": when the piece is written, not the response
        if rel == "since" or (rel == "past" and not m.group("anchor")):
            continue  # "three days since": a duration; "minutes past": a clock reading
        sign = "before" if rel in {"before", "earlier", "ago", "prior to"} else "after"
        anchor = (m.group("anchor") or "").strip() or None
        if rel in {"later", "earlier", "ago", "in"}:  # "Nine minutes in, officers entered": into what just began
            anchor = None  # "four minutes later": the anchor is whatever came just before
        unit = q.unit or m.group("unit").lower().rstrip("s")
        end = q.end + (m.end() if anchor else m.end("rel"))
        lo, hi, unit = _in_minutes(q, unit)
        out.append(TimeExpr(q.start, end, text[q.start:end], "offset", lo, hi, unit, q.hedge,
                            {"relation": sign, "anchor": anchor}))
    return out + [n for n in near_offsets(text) if not any(o.start <= n.start < o.end for o in out)]


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
