"""What interval a claim stands for when it is set against another one.

A claim's own interval is what its words say. Set against another account, some claims
say less than that:

- **Moments that happen more than once.** An incident has many 911 calls, many officers
  arriving, several alerts, several dispatches. "The first call came at 8:05" times one
  moment; "a call came in at 9:40" times some call, which says only that the first one
  came no later than 9:40. So a time of a recurring moment is marked first (first,
  initial, earliest, "was reported": the first report) or a later one (second, another,
  final...), or left unmarked. Two first times are one moment and compared as they are;
  an unmarked time stands for [.., its end] of the first one (it conflicts with a first
  time only by coming before it); a later one is compared with nothing. Two unmarked
  times ("officers arrived at 8:10", "officers arrived at 8:14") are never one fact: they
  may be different officers.
- **A toll that counts the attacker.** "Five dead, including the gunman" is four or five
  victims as another account counts them, so its low end drops by one; "four people and
  the gunman died" is four or five as another counts the dead, so its high end rises by one.
- **A vague multiple.** "Dozens of people" is read as two dozen or more; set against a
  count it says no more than "more than a dozen".
"""

from __future__ import annotations

import re

from onrecord.model import Claim

# Moments of a response that recur: each call, each officer's arrival, each alert.
RECURRING = {"call_911", "arrival", "entry", "dispatch", "alert"}
# ...of which these are one actor's (an agency's officers arriving), the rest the incident's
ACTORS_OWN = {"arrival", "entry", "dispatch"}
FIRST = re.compile(r"\b(?:first|initial|initially|earliest|original|originally|starting|started|began|begin|"
                   r"beginning)\b|\bwas\s+(?:first\s+)?reported\b", re.IGNORECASE)
LATER = re.compile(r"\b(?:second|third|fourth|another|subsequent|final|finally|last|lastly|follow-up|again|"
                   r"more\s+officers|additional)\b", re.IGNORECASE)
# How far either side of the number the mark of an occurrence is looked for: its clause,
# up to the time of day before or after it ("reported at 10:39 and police responded at
# 10:46": "reported" marks the first time, not the second).
WINDOW_BEFORE, WINDOW_AFTER = 90, 90
A_TIME = re.compile(r"\b\d{1,2}(?::\d{2})+|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)|\b(?:noon|midnight)\b", re.IGNORECASE)

ATTACKER = r"(?:the\s+|a\s+)?(?:suspected\s+)?(?:suspect|gunman|shooter|attacker|assailant)\b"
INCLUDING_ATTACKER = re.compile(r"\b(?:including|counting|among\s+them)\s+" + ATTACKER, re.IGNORECASE)
# "four people and the gunman died": the count leaves him out, another may count him in
BESIDE_ATTACKER = re.compile(r"^[^,;.]{0,20}?\b(?:and|plus|as\s+well\s+as)\s+" + ATTACKER, re.IGNORECASE)
VAGUE_MULTIPLE = re.compile(r"^(?:dozens|scores|hundreds|thousands)\b", re.IGNORECASE)
VAGUE_FLOOR = {"dozens": 13, "scores": 21, "hundreds": 101, "thousands": 1001}

# "in a 2017 mass shooting", "the 1999 Columbine massacre": an event named by its year
YEAR_EVENT = re.compile(r"\b(?:a|an|another|the)\s+(?:[\w-]+\s+){0,2}?((?:19|20)\d{2})\s+(?:[\w-]+\s+){0,2}?"
                        r"(?:shooting|massacre|attack|rampage|bombing)s?\b", re.IGNORECASE)
YEAR = re.compile(r"\b((?:19|20)\d{2})\b")


def _clause(c: Claim) -> str:
    """The words about this number: back to the time of day before it, on to the next one."""
    s = c.sentence
    a, b = c.start - c.sentence_start, c.end - c.sentence_start
    before = s[max(0, a - WINDOW_BEFORE):a]
    times = list(A_TIME.finditer(before))
    if times:
        before = before[times[-1].end():]
    after = s[b:b + WINDOW_AFTER]
    nxt = A_TIME.search(after)
    if nxt:
        after = after[:nxt.start()]
    return before + " " + after


def occurrence(c: Claim, earliest: set[str] | None = None) -> str | None:
    """'first', 'later' or 'unmarked' for a time of a recurring moment; None otherwise.
    `earliest`: ids of the earliest time each document gives for each recurring moment
    (earliest_in_documents): one account's first such time is its account of the first,
    unless its words mark it a later one ("finally", "a second call")."""
    event = (c.time_ref or {}).get("event")
    if c.measure != "time_of_action" or event not in RECURRING:
        return None
    clause = _clause(c)
    if FIRST.search(clause):
        return "first"
    if LATER.search(clause):
        return "later"
    return "first" if earliest is not None and c.id in earliest else "unmarked"


def earliest_in_documents(claims: list[Claim]) -> set[str]:
    """Ids of each document's earliest time of each recurring moment (not marked later): its
    earliest clock time, or its smallest offset from one anchor ("went in 40 minutes after the
    shooting began" is that account's first entry, unless it gives an earlier one)."""
    best: dict[tuple, Claim] = {}
    for c in claims:
        if c.hi is None or occurrence(c) not in {"first", "unmarked"} \
                or (c.time_ref or {}).get("relation") == "before":
            continue
        # an arrival, entry or dispatch is someone's: each document's earliest of each actor
        actor = c.subject if c.time_ref["event"] in ACTORS_OWN else None
        key = (c.doc, c.time_ref["event"], actor, c.unit, c.time_ref.get("anchor_event") or c.time_ref.get("anchor"))
        if key not in best or c.hi < best[key].hi:
            best[key] = c
    return {c.id for c in best.values()}


def comparison_interval(c: Claim, earliest: set[str] | None = None) -> tuple[float | None, float | None] | None:
    """The interval `c` stands for against another account, or None when it is compared
    with nothing (a later occurrence of a recurring moment)."""
    lo, hi = c.lo, c.hi
    kind = occurrence(c, earliest)
    if kind == "later":
        return None
    if kind == "unmarked":
        return None, hi
    if c.measure == "count_deaths" and lo is not None:
        tail = c.sentence[c.end - c.sentence_start:c.end - c.sentence_start + 40]
        if INCLUDING_ATTACKER.match(tail.lstrip(" ,(")) or INCLUDING_ATTACKER.search(tail[:30]):
            lo = lo - 1
        elif BESIDE_ATTACKER.match(tail) and hi is not None:
            hi = hi + 1
    vague = VAGUE_MULTIPLE.match(c.text or "")
    if vague and lo is not None:
        lo = min(lo, VAGUE_FLOOR[vague.group(0).lower()])
    return lo, hi


def both_first(a: Claim, b: Claim, earliest: set[str] | None = None) -> bool:
    """Not both unmarked times of a recurring moment: two such are never one fact."""
    return not (occurrence(a, earliest) == "unmarked" and occurrence(b, earliest) == "unmarked")


def other_year_event(c: Claim, incident_years: set[str]) -> bool:
    """The claim's sentence names another incident by its year ("the deaths of 60 people in
    a 2017 mass shooting"): its figures are that incident's. `incident_years`: the years the
    incident's own accounts give; a year among them is this incident's."""
    return any(m.group(1) not in incident_years for m in YEAR_EVENT.finditer(c.sentence))


def incident_years(claims: list[Claim]) -> set[str]:
    """Years the accounts of one incident date it by: each year named in their sentences
    outside a mention of an event by its year, or, where none is, nothing."""
    out: set[str] = set()
    for c in claims:
        named = {m.group(1) for m in YEAR_EVENT.finditer(c.sentence)}
        out |= {y for y in YEAR.findall(c.sentence) if y not in named}
        for d in (c.time_ref or {}).get("dates") or []:
            m = YEAR.search(str(d))
            if m:
                out.add(m.group(1))
    return out
