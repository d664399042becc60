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
    r"delay|wait|gap|response\s+time|"
    r"number\s+of\s+[^,;:“”\"]{1,60}?)\s+)?"
    r"(?:up\s+|down\s+|upward\s+|downward\s+)?(?:to|at)\s+$",
    re.IGNORECASE)
# "19, not 11 as he had said": the value set against the one just given, the same fact
NOT_BEFORE = re.compile(r"(?:,|\band|\bbut)\s+not\s+(?:the\s+|an?\s+)?$", re.IGNORECASE)
# "... as officials had said", "as first reported": whose the denied value was
AS_SAID = re.compile(r"^[^,;.]{0,25}?(?:\bas\s+(?:[\w’'.-]+\s+){0,4}?|\b(?:that\s+)?(?:he|she|they|it|officials|"
                     r"police|authorities)\s+)(?:had\s+|have\s+|has\s+|was\s+|were\s+)?"
                     r"(?:(?:first|initially|earlier|previously|originally|widely)\s+)?"
                     # "not 11 as he had said", "not the 40 minutes he had cited earlier"
                     r"(?:said|reported|stated|claimed|announced|believed|thought|cited|given|gave)\b",
                     re.IGNORECASE)
# "not the 19 minutes originally reported": a figure given earlier by no one named
FIRST_REPORTED = re.compile(r"^\s*(?:[a-z]+\s+)?(?:first|initially|originally|previously|earlier|widely)\s+"
                            r"(?:reported|said|stated|given|announced|claimed)\b", re.IGNORECASE)
# "not four minutes but 48": a value denied in favour of the one after it, said by no one
NOT_BUT = re.compile(r"\bnot\s+(?:the\s+|an?\s+)?$")
TIME_NOUN = re.compile(r"^\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b", re.IGNORECASE)
TIME_UNITS = {"minute", "second", "hour"}


def revised_at(sentence: str, start: int) -> bool:
    """Whether the number at `start` is the new value of a revision."""
    return REVISED.search(sentence[max(0, start - 120):start]) is not None


def denied_at(sentence: str, start: int) -> bool:
    """Whether the number at `start` is a value denied beside the one given ("19, not 11")."""
    return NOT_BEFORE.search(sentence[max(0, start - 20):start]) is not None


def earlier_account(sentence: str, end: int) -> bool:
    """A denied value is someone's earlier account only when the sentence says whose
    ("as officials had said", "originally reported"); "two wounded, not three" claims no three."""
    return AS_SAID.match(sentence[end:]) is not None or FIRST_REPORTED.match(sentence[end:]) is not None


def denied_plainly(sentence: str, start: int, end: int) -> bool:
    """'not four minutes but 48', 'two wounded, not three': a value no one is said to hold."""
    return (NOT_BUT.search(sentence[max(0, start - 12):start]) is not None
            and re.match(r"^[^,;.]{0,20}?\bbut\b", sentence[end:]) is not None) \
        or (denied_at(sentence, start) and not earlier_account(sentence, end))


def denied_times(found: list[Claim], sentence: str, sentence_start: int, as_said) -> None:
    """'The gunman entered at 11:33 a.m., not 11:40 a.m. as officials had said': the second time
    is the same moment told otherwise, so it takes the first one's action, subject and moment;
    it is said by whoever 'as ... said' names (`as_said(offset)` gives that voice, or None)."""
    times = [c for c in found if c.measure == "time_of_action"]
    for first, second in zip(times, times[1:]):
        if first.unit != second.unit or not denied_at(sentence, second.start - sentence_start):
            continue
        if not earlier_account(sentence, second.end - sentence_start):
            found.remove(second)  # "at 11:33, not 11:40": no one is said to have given 11:40
            continue
        second.qualifier, second.subject, second.subject_text = first.qualifier, first.subject, first.subject_text
        ref = {**(second.time_ref or {}), "revises": True}
        if (first.time_ref or {}).get("event"):
            ref["event"] = first.time_ref["event"]
        else:
            ref.pop("event", None)
        second.time_ref = ref
        voice = as_said(second.end) if AS_SAID.match(sentence[second.end - sentence_start:]) else None
        if voice is not None:
            second.speaker, second.speaker_text = voice.speaker, voice.text


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
