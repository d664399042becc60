"""Numbers as people write them, turned into intervals.

"four", "twenty-three", "130", "a dozen", "four or five", "between 20 and 30",
"roughly 40 of the 130", and the hedge in front ("upwards of", "nearly") or behind
("or so", "or more"). A hedge widens the value into an interval; the rules are listed
in HEDGES and documented in docs/claims.md so a reader can check any result by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}
SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

_WORD = "|".join(sorted([*UNITS, *TENS, *SCALES, "dozen"], key=len, reverse=True))
_WORDS = rf"(?:(?:a|one)\s+)?(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# A lone number: digits (not part of a clock time like 2:21) or number words.
_A_UNIT = r"\ban?(?=\s+(?:second|minute|hour|day|week|month|year)\b)"  # "about a minute"
NUMBER = rf"(?:\$\s?)?(?:(?<![\d:.,])(?:{_DIGITS})(?:\s?[kK]\b)?(?![\d:]|,\d)|\b{_WORDS}\b|{_A_UNIT})"

# Vague amounts that still bound a count: (lo, hi); hi None = open.
VAGUE = {
    "a couple of": (2, 3), "a couple": (2, 3), "a few": (2, 5), "several": (3, 9),
    "dozens of": (24, None), "dozens": (24, None), "hundreds of": (200, None), "scores of": (40, None),
    "hundreds": (200, None),
}

# Hedge in front of a number -> how it bends the value (see interval()).
HEDGES = {
    "upwards of": "at_least", "upward of": "at_least", "at least": "at_least",
    "no less than": "at_least", "no fewer than": "at_least", "a minimum of": "at_least",
    "more than": "at_least", "over": "at_least", "in excess of": "at_least",
    "north of": "at_least", "just over": "just_over", "just under": "nearly",
    "up to": "at_most", "within": "at_most", "as long as": "at_most", "within about": "within_about",
    "within roughly": "within_about", "within approximately": "within_about", "in about": "about",
    "as many as": "at_most", "at most": "at_most",
    "no more than": "at_most", "fewer than": "at_most", "less than": "at_most",
    "under": "at_most", "nearly": "nearly", "almost": "nearly", "close to": "nearly",
    "not quite": "nearly", "about": "about", "around": "about", "roughly": "about",
    "approximately": "about", "some": "about", "an estimated": "about",
    "estimated": "about", "maybe": "about", "perhaps": "about", "probably": "about",
    "exactly": "exact", "precisely": "exact", "a full": "exact",
}
TRAILING_HEDGES = {
    "or so": "about", "or more": "at_least", "or longer": "at_least",
    "or less": "at_most", "or fewer": "at_most", "plus": "at_least", "+": "at_least",
}

_HEDGE = "|".join(re.escape(h) for h in sorted(HEDGES, key=len, reverse=True))
_TRAIL = "|".join(re.escape(h) for h in sorted(TRAILING_HEDGES, key=len, reverse=True))
_VAGUE = "|".join(re.escape(v) for v in sorted(VAGUE, key=len, reverse=True))

QUANTITY = re.compile(
    rf"(?:\b(?P<hedge>{_HEDGE})\s+)?"
    rf"(?:\b(?:another|an additional|a further)\s+)?"
    rf"(?:(?P<between>between|from)\s+)?"
    rf"(?P<n1>{NUMBER})"
    rf"(?:\s*(?P<joint>-|–|to|or|and)\s*(?P<n2>{NUMBER}))?"
    rf"(?P<trail>\s*-?\s*(?:{_TRAIL})(?![\w]))?"
    rf"(?:\s+of\s+(?:the|those|these|its|their)\s+(?P<whole>{NUMBER}))?",
    re.IGNORECASE,
)
VAGUE_RE = re.compile(rf"\b(?P<vague>{_VAGUE})\b", re.IGNORECASE)


NOT_ONE_OF = re.compile(rf"(?:not (?:one|a single)|none) of (?:the|those|these) (?P<n>{NUMBER})", re.IGNORECASE)
NONE_RE = re.compile(r"\b(?:not (?:one|a single)|none)(?= of\b)", re.IGNORECASE)
DETERMINER_BEFORE = re.compile(r"\b(?:the|this|that|every|any|each|no|not|only|at|which|just)\s+$", re.I)


def _not_a_count(text: str, q: "Quantity") -> bool:
    """'the one officer', 'one of them', 'Building 12', '1421 hours' (a 24-hour clock):
    a number, but not an amount."""
    if re.fullmatch(r"(?:[01]\d|2[0-3])[0-5]\d", q.text) and re.match(r"\s*(?:hours|hrs)\b", text[q.end:]):
        return True
    if q.text == "911" or (re.fullmatch(r"(?:19|20)\d\d", q.text) and q.hedge is None):
        return True  # "911" names a number to call; "2018" is a year
    if q.text.lower() in {"one", "a dozen"} and q.text.lower() == "one":
        det = DETERMINER_BEFORE.search(text[:q.start])
        # "the only one who ..." is no amount; "only one deputy was there" is one
        if det and det.group(0).strip().lower() == "only" and not re.search(r"\bthe\s+only\s+$", text[:q.start], re.I):
            det = None
        if det or re.match(r"\s+(?:of|another|way|day)\b", text[q.end:]):
            return True
    # An identifier: a capitalised name right before a bare number ("Building 12", "Engine 5").
    return q.hedge is None and re.search(r"[a-z,]\s+[A-Z][a-z]+\s+$", text[:q.start]) is not None \
        and q.text[:1].isdigit()


@dataclass
class Quantity:
    start: int
    end: int
    text: str
    value: float
    lo: float | None
    hi: float | None
    hedge: str | None
    of_total: float | None = None
    money: bool = False
    unit: str | None = None  # set when the words already name the unit ("an hour and a half")


def parse_number(text: str) -> float | None:
    """'twenty-three' -> 23, '1,200' -> 1200, 'a dozen' -> 12, '$100K' -> 100000."""
    t = text.strip().lower().replace("$", "").strip()
    if t in {"a", "an"}:
        return 1.0
    mult = 1000 if re.fullmatch(r".*\d\s?k", t) else 1
    t = re.sub(r"\s?k$", "", t)
    if re.fullmatch(_DIGITS, t):
        return float(t.replace(",", "")) * mult
    total, current = 0, 0
    words = re.split(r"[\s-]+", t)
    if len(words) > 1 and words[0] in {"a", "an"} and words[1] not in {*SCALES, "dozen"}:
        words = words[1:]  # "a four-man team": an article, not one more
    for word in words:
        if word in ("a", "and"):
            current = current or (1 if word == "a" else current)
            continue
        if word == "dozen":
            current = (current or 1) * 12
        elif word in UNITS:
            current += UNITS[word]
        elif word in TENS:
            current += TENS[word]
        elif word in SCALES:
            current = (current or 1) * SCALES[word]
            if SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
    return float(total + current)


def interval(value: float, rule: str | None) -> tuple[float | None, float | None]:
    """How a hedge bends a value. 'more than' counts as 'at least' on purpose: a
    conservative bound never invents a conflict that the speaker did not make."""
    tol = max(0.1 * value, 1.0) if value >= 1 else 0.1 * value
    if rule == "at_least":
        return value, None
    if rule == "at_most":
        return 0.0, value
    if rule == "within_about":
        return 0.0, value + tol
    if rule == "nearly":
        return max(0.0, value - tol), value
    if rule == "just_over":
        return value, value + tol
    if rule == "about":
        return max(0.0, value - tol), value + tol
    return value, value


# "fired 1,100 rounds over 10 minutes", "the attack unfolded over nine minutes": "over" is the
# span an action took, not "more than"
OVER_A_SPAN = re.compile(r"\b(?:fired|firing|fires|shot|shooting|rounds|shots|bullets|gunfire|unfolded|spanned|"
                         r"stretched|spread|played out|took place|happened|occurred)\s+$", re.IGNORECASE)


def _over_a_span(text: str, q: Quantity) -> Quantity:
    if (q.hedge or "").lower() != "over" or not OVER_A_SPAN.search(text[:q.start]) \
            or not re.match(r"\s*(?:seconds?|minutes?|hours?)\b", text[q.end:], re.IGNORECASE):
        return q
    start = q.start + len(re.match(r"over\s+", text[q.start:], re.IGNORECASE).group(0))
    return Quantity(start, q.end, text[start:q.end], q.value, q.value, q.value, None, q.of_total, q.money, q.unit)


def find_quantities(text: str) -> list[Quantity]:
    """Every number or vague amount in `text`, with its hedge, as an interval."""
    found: list[Quantity] = []
    pos = 0
    while (m := QUANTITY.search(text, pos)) is not None:
        q = _from_match(m)
        if q is not None:
            found.append(q)
        # Resume after what was used, so "$100K and $75,673.72" yields both amounts.
        pos = max(q.end if q else m.end(), m.start() + 1)
    found = [q for q in found if not _not_a_count(text, q)]
    found = [_over_a_span(text, q) for q in found]
    for m in NONE_RE.finditer(text):
        whole = NOT_ONE_OF.match(text, m.start())
        if whole:
            # "Not one of the four deputies had entered": one fact about four, not a 0 and a 4.
            value = parse_number(whole.group("n"))
            found = [q for q in found if not (m.start() <= q.start < whole.end())]
            if value is not None:
                found.append(Quantity(m.start(), whole.end(), whole.group(0), value, value, value, None))
                continue
        found.append(Quantity(m.start(), m.end(), m.group(0), 0.0, 0.0, 0.0, None))
    taken = [(q.start, q.end) for q in found]
    for m in VAGUE_RE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        lo, hi = VAGUE[m.group("vague").lower()]
        found.append(Quantity(m.start(), m.end(), m.group(0), float(lo), float(lo),
                              None if hi is None else float(hi), m.group("vague").lower()))
    return _amounts_of_time(text, sorted(found, key=lambda q: q.start))


_TIME_UNIT = r"(?P<u{n}>hours?|hrs?|minutes?|mins?|seconds?|secs?)"
UNIT_SECONDS = {"hour": 3600, "hr": 3600, "minute": 60, "min": 60, "second": 1, "sec": 1}
# "one minute and 39 seconds", "2 hours, 15 minutes", "an hour and a half", "half an hour",
# "two and a half hours": one amount of time, not two numbers.
COMPOUND_RE = re.compile(
    # "between 40 minutes and an hour": a range of two amounts of time (only after "between",
    # since "one minute and 39 seconds" is one amount)
    rf"(?<=between\s)(?P<b1>{NUMBER})[\s-]+{_TIME_UNIT.format(n=8)}\s+and\s+(?P<b2>{NUMBER})[\s-]+"
    rf"{_TIME_UNIT.format(n=9)}\b|"
    rf"(?P<r1>{NUMBER})[\s-]+{_TIME_UNIT.format(n=5)}\s+(?:to|or|-|–)\s+(?P<r2>{NUMBER})[\s-]+{_TIME_UNIT.format(n=6)}\b"
    rf"|(?P<n1>{NUMBER})[\s-]+{_TIME_UNIT.format(n=1)}(?:\s*,\s*|\s+)(?:and\s+)?(?P<n2>{NUMBER})[\s-]+{_TIME_UNIT.format(n=2)}\b"
    # "1 hour, 14 minutes and 8 seconds": a third, smaller unit
    rf"(?:(?:\s*,\s*|\s+)(?:and\s+)?(?P<n7>{NUMBER})[\s-]+{_TIME_UNIT.format(n=7)}\b)?"
    rf"|(?P<n3>{NUMBER}|an?)[\s-]+{_TIME_UNIT.format(n=3)}\s+and\s+a\s+half\b"
    rf"|(?:(?P<n4>{NUMBER})\s+and\s+)?(?:an?\s+|one\s+)?half(?:\s+an?|-an?)?[\s-]+{_TIME_UNIT.format(n=4)}\b",
    re.IGNORECASE,
)


def _unit_name(word: str) -> str:
    w = word.lower().rstrip("s")
    return {"hr": "hour", "min": "minute", "sec": "second"}.get(w, w)


def _amounts_of_time(text: str, found: list[Quantity]) -> list[Quantity]:
    """Merge the numbers of one compound amount of time into one quantity in minutes,
    keeping the hedge of the first ("nearly an hour and a half")."""
    out = list(found)
    for m in COMPOUND_RE.finditer(text):
        upper = None
        if m.group("b1"):
            a, b = parse_number(m.group("b1")), parse_number(m.group("b2"))
            if a is None or b is None:
                continue
            seconds = a * UNIT_SECONDS[_unit_name(m.group("u8"))]
            upper = b * UNIT_SECONDS[_unit_name(m.group("u9"))]
            if upper <= seconds:
                continue
        elif m.group("r1"):
            # "within a minute to 90 seconds": a range of two amounts of time
            a, b = parse_number(m.group("r1")), parse_number(m.group("r2"))
            if a is None or b is None:
                continue
            seconds = a * UNIT_SECONDS[_unit_name(m.group("u5"))]
            upper = b * UNIT_SECONDS[_unit_name(m.group("u6"))]
            if upper < seconds:
                continue
        elif m.group("n1"):
            u1, u2 = _unit_name(m.group("u1")), _unit_name(m.group("u2"))
            if UNIT_SECONDS[u1] <= UNIT_SECONDS[u2]:
                continue  # "two minutes, 30 minutes" is a list, not one amount
            a, b = parse_number(m.group("n1")), parse_number(m.group("n2"))
            if a is None or b is None:
                continue
            seconds = a * UNIT_SECONDS[u1] + b * UNIT_SECONDS[u2]
            if m.group("n7"):
                u3, c = _unit_name(m.group("u7")), parse_number(m.group("n7"))
                if c is None or UNIT_SECONDS[u2] <= UNIT_SECONDS[u3]:
                    continue  # not one amount in falling units
                seconds += c * UNIT_SECONDS[u3]
        elif m.group("u3"):
            a = parse_number(m.group("n3"))
            if a is None:
                continue
            seconds = (a + 0.5) * UNIT_SECONDS[_unit_name(m.group("u3"))]
        else:
            a = parse_number(m.group("n4")) if m.group("n4") else 0.0
            if a is None:
                continue
            seconds = (a + 0.5) * UNIT_SECONDS[_unit_name(m.group("u4"))]
        inside = [q for q in out if m.start() <= q.start < m.end()]
        lead = [q for q in out if q.start < m.start() < q.end]
        start = min([m.start()] + [q.start for q in inside + lead])
        hedge = re.search(rf"\b({_HEDGE})\s+$", text[:start], re.IGNORECASE)
        if hedge:
            start = hedge.start(1)
        hedge_text = next((q.hedge for q in inside + lead if q.hedge and q.start < m.start()), None)
        hedge_text = hedge.group(1).lower() if hedge else hedge_text
        value = seconds / 60
        lo, hi = interval(value, HEDGES.get(hedge_text) if hedge_text else None)
        if upper is not None:
            rule = HEDGES.get(hedge_text) if hedge_text else None
            lo = 0.0 if rule == "at_most" else (value if rule != "at_least" else value)
            hi = None if rule == "at_least" else upper / 60
            hedge_text = hedge_text or "range"
        out = [q for q in out if q not in inside and q not in lead]
        out.append(Quantity(start, m.end(), text[start:m.end()], value, lo, hi, hedge_text, unit="minute"))
    return sorted(out, key=lambda q: q.start)


def _from_match(m: re.Match) -> Quantity | None:
    v1 = parse_number(m.group("n1"))
    if v1 is None:
        return None
    hedge_text = (m.group("hedge") or "").lower() or None
    rule = HEDGES.get(hedge_text) if hedge_text else None
    trail = (m.group("trail") or "").strip(" -").lower()
    if trail:
        rule, hedge_text = TRAILING_HEDGES[trail], trail
    n2 = parse_number(m.group("n2")) if m.group("n2") else None
    if n2 is not None and (n2 <= v1 or (m.group("joint") == "and" and not m.group("between"))):
        # "$100K and $75,673.72" is two amounts, not a range: keep the first alone.
        return _single(m, v1, rule, hedge_text)
    if n2 is not None:
        # A range already says how unsure it is: "maybe two or three" stays [2, 3];
        # only a bound ("at least 20 to 30", "up to 20 or 30") opens one side.
        soft = rule in (None, "about", "exact", "nearly", "just_over")
        lo, hi = (v1, n2) if soft else (interval(v1, rule)[0], interval(n2, rule)[1])
        hedge_text = hedge_text or "range"
    else:
        lo, hi = interval(v1, rule)
    whole = parse_number(m.group("whole")) if m.group("whole") else None
    return Quantity(m.start(), m.end(), m.group(0), v1, lo, hi, hedge_text,
                    of_total=whole, money=m.group("n1").lstrip().startswith("$"))


def _single(m: re.Match, value: float, rule: str | None, hedge: str | None) -> Quantity:
    lo, hi = interval(value, rule)
    start = m.start() if not m.group("between") else m.start("n1")
    end = m.end("n1")
    text = m.string[start:end]
    return Quantity(start, end, text, value, lo, hi, hedge,
                    money=m.group("n1").lstrip().startswith("$"))


# "went in", "rushed in": a particle of the verb, not the preposition of a delay
_PARTICLE_IN = re.compile(r"\b(?:went|go|goes|going|gone|rushed|rush|ran|run|runs|came|come|comes|moved|move|walked|"
                          r"stormed|headed|sent|burst|barged|charged|broke|got|get|gets|poured|filed)\s+in\s*$",
                          re.IGNORECASE)


def taken_as_delay(lead: str, hedge: str | None) -> bool:
    """Whether an amount of time is the object of 'within' / 'in' / 'took' ("responded in
    less than two minutes after the call", "were on hand within 90 seconds after the
    alarms"): a delay until something, even with the event it counts from after it, and
    not a time relative to that event. `lead` is the sentence before the amount."""
    if not (hedge or "").startswith("within") and (not re.search(r"\b(?:in|took|takes|within)\s*$", lead, re.I)
                                                   or _PARTICLE_IN.search(lead)):
        return False
    # "Within two minutes of the call, ...": opening its sentence, the amount dates what follows
    return re.search(r"[a-z]{3,}", re.split(r"[,;:—–]", lead)[-1]) is not None
