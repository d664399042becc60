"""Figures an account revises: "It later corrected that figure to 77 minutes", "she raised it
to 25", "The revised report puts the number at 142", "then revised the count to three".

The new number names no measure of its own: it is the same fact as the figure it replaces,
told again with another value. So it takes the measure, subject, qualifier, unit and
anchor of the claim it revises (the last claim before it in its paragraph, or in the one
before, whose unit kind fits: a time of a time, a count of a count), and the two then
meet in one group, where values that cannot both hold are a conflict whose two sides are
the first account and the revised one.
"""

from __future__ import annotations

import re
from onrecord.model import Claim

# The verb of revising, what it revises ("that figure", "the count", "it", "the number of
# deputies who responded") and the preposition before the new value
REVISED = re.compile(
    r"\b(?:revised|revising|revise|revises|corrected|correcting|corrects|changed|changes|updated|updates|"
    r"raised|raises|raising|lowered|lowers|increased|increases|reduced|reduces|cut|adjusted|amended|upped|"
    r"put|puts|putting|placed|places|set|sets|pegged|pegs|moved|pushed|revised\s+upward|revised\s+downward)\s+"
    r"(?:(?:the|that|this|its|their|his|her|it|those|these)\s+)?"
    r"(?:(?:earlier|initial|first|original|previous|new|official|revised)\s+)?"
    r"(?:(?:number|count|toll|figure|figures|estimate|total|tally|time|times|timeline|account|death\s+toll|"
    r"number\s+of\s+[^,;:“”\"]{1,60}?)\s+)?"
    r"(?:up\s+|down\s+|upward\s+|downward\s+)?(?:to|at)\s+$",
    re.IGNORECASE)
TIME_NOUN = re.compile(r"^\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b", re.IGNORECASE)
TIME_UNITS = {"minute", "second", "hour"}


def revised_at(sentence: str, start: int) -> bool:
    """Whether the number at `start` is the new value of a revision."""
    return REVISED.search(sentence[max(0, start - 120):start]) is not None


def revision_claim(q, sentence: str, earlier: list[Claim], make) -> Claim | None:
    """The revised figure as a claim of the same fact as the last earlier claim that fits.
    `make(measure, unit, end, subject, subject_text, qualifier, time_ref, noun)` builds it
    in place (speaker, span and hedge come from the number's own sentence)."""
    timed = q.unit is not None or TIME_NOUN.match(sentence[q.end:]) is not None
    for c in reversed(earlier):
        if c.measure in {"place_of_action", "age", "annual_salary", "pay"} or c.lo is None and c.hi is None:
            continue
        if timed != (c.unit in TIME_UNITS):
            continue
        if c.measure == "time_of_action" and c.unit != "minute":
            continue  # a clock time is revised as a clock time, read by the times reader
        noun = TIME_NOUN.match(sentence[q.end:])
        end = q.end + (noun.end() if noun else 0)
        ref = {k: v for k, v in (c.time_ref or {}).items() if k != "dates"} or None
        return make(c.measure, c.unit, end, c.subject, c.subject_text, c.qualifier, ref, noun)
    return None
