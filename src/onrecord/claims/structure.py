"""A number's measure from the structure of its sentence (the dependency parse, grammar.py).

Used where the rules of measures.py find no measure for a number that counts officers or
people or is an amount of time: the verb the number's phrase hangs on, by lemma (so every
tense and form is one verb), with its voice, its negation and the preposition that takes
the phrase, decides. "Officers were on hand within 90 seconds": the 90 seconds hang on
"were on hand" through "within", a delay until an arrival. A number whose phrase hangs on
no verb of the response measures nothing and stays out.
"""

from __future__ import annotations

import re

from onrecord.claims.grammar import Hanger, hanger
from onrecord.claims.measures import DURATION_RE, NOUN_RE, OUTSIDE, Reading

ARRIVE = {"arrive", "respond", "reach", "show", "converge", "pull"}
ENTER = {"enter", "breach", "storm"}
GO_IN = {"go", "rush", "run", "get", "move", "push", "make"}  # with a particle "in"/"inside" or "entry"
STAY = {"wait", "stay", "remain", "stand", "sit", "hide", "linger", "hunker", "stage", "hold", "spend", "crouch",
        "huddle", "idle"}
LAST = {"last", "continue", "unfold", "span", "rampage", "fire", "shoot", "roam", "stalk"}
PASS = {"pass", "elapse"}
SEND = {"send", "dispatch", "deploy", "mobilize", "mobilise", "assign", "respond"}
GATHER = {"arrive", "gather", "assemble", "converge", "show"}
KILL = {"kill", "slay", "murder"}
DIE = {"die", "perish"}
HURT = {"injure", "wound", "hurt", "hospitalize", "hospitalise", "graze"}
CARRY = {"rescue", "evacuate", "carry", "pull"}
TRANSPORT = {"transport", "airlift", "hospitalize", "hospitalise"}
ROLE_NOUNS = {"officer", "deputy", "cop", "trooper", "agent", "firefighter", "paramedic", "dispatcher", "sheriff",
              "chief", "sergeant", "detective", "veteran", "member", "career"}
SERVE = {"serve", "work"}
PASSIVE = {"nsubjpass"}
OFFICER_NOUN = re.compile(r"^(?:police officers?|officers?|deputies|deputy|cops?|troopers?|agents?|police|units?|"
                          r"patrolmen|lawmen)$", re.IGNORECASE)


def _goes_in(h: Hanger, sentence: str = "") -> bool:
    # "went in", and "went into the library": the preposition right after the verb says in
    into = h.head_end is not None and re.match(r"\s+(?:into|inside)\b", sentence[h.head_end:]) is not None
    return h.head in ENTER or (h.head in GO_IN and (h.particle in {"in", "inside"} or into))


# "a delay of 77 minutes", "the wait of 31 minutes": a span named by a noun, the number taken by "of"
SPAN_NOUNS = {"delay", "wait", "lag", "gap", "standstill", "lull", "pause"}
# "30 officers were at the school", "a dozen troopers were on the scene": present at the place
AT_SCENE = re.compile(r"^\s+(?:[\w’'-]+\s+){0,2}?(?:were|was|had been|are|is)\s+(?:already\s+)?"
                      r"(?:at|on|outside|near)\s+(?:the\s+)?(?:[\w’'-]+\s+){0,3}?(?:scene|site|campus|school|"
                      r"building|store|club|church|mall|plaza|hotel|theater|theatre|gym|library|clinic)\b", re.I)


def _duration(h: Hanger, unit: str, sentence: str, context: str, end: int) -> Reading | None:
    unit = unit.lower()
    if re.match(r"(?:day|week|month|year)", unit):
        if h.head in SERVE or (h.head_pos in {"NOUN", "PROPN"} and h.head in ROLE_NOUNS and h.prep == "for"):
            return Reading("duration_of_service", "year", end, "person", unit)
        return None  # no arrival, entry or wait of the response lasts days or years
    head = h.complement if h.head == "take" and h.complement else h.head
    if head is None:
        return None
    if h.head_pos == "NOUN" and h.prep == "of" and head in SPAN_NOUNS:
        return Reading("duration_elapsed", "minute", end, "incident", unit)
    place = "duration_outside" if OUTSIDE.search(sentence) or OUTSIDE.search(context) else "duration_waiting"
    if h.negated and h.prep == "for":
        return Reading(place, "minute", end, "person", unit)  # "for 79 minutes, police did not go in"
    if h.prep in {None, "within", "in", "under", "after"} and (head in ARRIVE or h.head == "be" and re.search(
            r"\b(?:on (?:hand|(?:the )?scene|site)|at the scene|there)\b", sentence)):
        return Reading("duration_to_arrival", "minute", end, "person", unit)
    if h.prep in {None, "within", "in", "under", "after"} and head in ENTER | GO_IN \
            and (head in ENTER or h.particle in {"in", "inside"} or head == "make"):
        return Reading("duration_to_entry", "minute", end, "person", unit)
    if h.prep in {"for", None} and head in STAY:
        return Reading(place, "minute", end, "person", unit)
    if h.prep in {"for", "over", None} and head in LAST:
        return Reading("duration_of_incident", "minute", end, "incident", unit)
    went_by = head == "go" and h.role == "nsubj" and h.head_end is not None \
        and re.match(r"\s+by\b", sentence[h.head_end:]) is not None  # "Seventy minutes went by"
    if head in PASS or went_by:
        return Reading("duration_elapsed", "minute", end, "incident", unit)
    return None


def _lost_lives(h: Hanger, sentence: str) -> bool:
    """'lost their lives': a death told with 'lose' and its object."""
    return h.head == "lose" and h.head_end is not None and re.match(
        r"\s+(?:their|his|her)\s+lives?\b", sentence[h.head_end:]) is not None


def _officers(h: Hanger, noun: str, end: int, sentence: str) -> Reading | None:
    if h.role not in {"nsubj", "nsubjpass", "dobj", "pobj"} or h.head is None:
        return None
    measure = None
    if h.head in KILL and (h.role in PASSIVE or h.role == "dobj") or h.head in DIE and h.role == "nsubj" \
            or _lost_lives(h, sentence) and h.role == "nsubj":
        measure = "count_officers_killed"
    elif h.head in HURT | {"shoot"} and (h.role in PASSIVE or h.role == "dobj"):
        measure = "count_officers_injured"
    elif _goes_in(h, sentence) and h.role == "nsubj":
        measure = "count_officers_outside" if h.negated else "count_officers_entered"
    elif h.head in SEND and (h.role in PASSIVE or h.role == "dobj" or h.head == "respond"):
        measure = "count_officers_sent"
    elif h.head in STAY and h.role == "nsubj":
        measure = "count_officers_waiting"
    elif h.head in GATHER and h.role == "nsubj" and not h.negated:
        measure = "count_officers_on_scene"
    elif h.head == "be" and h.role == "nsubj" and not h.negated and AT_SCENE.match(sentence[end:]):
        measure = "count_officers_on_scene"
    return Reading(measure, "officers", end, "org", noun) if measure else None


def _people(h: Hanger, noun: str | None, end: int, sentence: str) -> Reading | None:
    if h.head is None or h.negated:
        return None
    object_ = h.role in PASSIVE or h.role == "dobj"
    measure = None
    if h.head in KILL and object_ or h.head in DIE | {"lose"} and h.role == "nsubj" and (
            h.head != "lose" or _lost_lives(h, sentence)):
        measure = "count_deaths"
    elif h.head in HURT and object_:
        measure = "count_injured"
    elif h.head == "shoot" and object_:
        measure = "count_shot"
    elif h.head in TRANSPORT and object_:
        measure = "count_transported"
    elif h.head in CARRY and object_:
        measure = "count_victims_carried_out"
    elif h.head == "survive" and h.role == "nsubj":
        measure = "count_survivors"
    return Reading(measure, "people", end, "incident", noun) if measure else None


def structural_reading(sentence: str, start: int, end: int, context: str, unit: str | None = None) -> Reading | None:
    """The measure of the quantity at sentence[start:end] from the parse, or None. `unit`
    is given when the amount's own words name it ("one minute and 39 seconds")."""
    if unit is not None:
        h = hanger(sentence, start, end)
        return _duration(h, unit, sentence, context, end) if h else None
    if (m := DURATION_RE.match(sentence[end:])) is not None:
        unit_end = end + m.end()
        h = hanger(sentence, start, unit_end)
        return _duration(h, m.group("unit"), sentence, context, unit_end) if h else None
    if (m := NOUN_RE.match(sentence[end:])) is None:
        return None
    noun_end = end + m.end()
    h = hanger(sentence, start, noun_end)
    if h is None:
        return None
    if m.group("officer") and OFFICER_NOUN.match(m.group("officer")):
        return _officers(h, m.group("officer"), noun_end, sentence)
    if m.group("people"):
        return _people(h, m.group("people"), noun_end, sentence)
    return None
