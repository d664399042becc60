"""One claim against the records: supports, contradicts, or cannot tell.

Each measure a statement can make has one check here, reading what record_facts.py
establishes. The rules are an analyst's, written down so each verdict can be redone by
hand (docs/claims.md, "Claims against the records"):

- a person's words are widened before comparing: an unhedged "eight minutes" is read
  as "about eight minutes" (± 1 minute or 10 %), an unhedged "at 2:10 p.m." as 2:09 to
  2:12; a hedge the speaker gave is taken as given;
- the record's interval is the build's (clock uncertainty included);
- contradicts = the two intervals do not overlap; supports = the record lies inside
  the claim; anything else cannot be told, and is not reported as a discrepancy;
- a bound the records give only one side of (shots counted by a sensor are at least
  that many; an order found on the radio is at least one) can only contradict a claim
  on that side. An order not found on the radio proves nothing: channels were not all
  recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from onrecord.claims.assertions import ORDER_KINDS
from onrecord.claims.numbers import interval
from onrecord.findings.record_facts import RecordFacts
from onrecord.model import Claim, Finding

LIVE_MAX_S = 60.0  # a view more than a minute behind is a replay, not live
MINUTE_MS = 60_000.0
ME = {"I", "me", "Me", "we", "We", "us"}
ENTRY = re.compile(r"^(?:entered|enter|went in(?:side|to)?|go in(?:side)?|got in(?:side)?|breached|made entry|"
                   r"moved in|rushed in(?:side|to)?|stormed)\b", re.IGNORECASE)
ARRIVAL = re.compile(r"^(?:arrived|arrive|got there|got to|got on scene|pulled up|reached|came on scene|showed up|"
                     r"responded to)\b", re.IGNORECASE)
FIRST_SHOT = re.compile(r"\b(?:first (?:shots?|gunfire|rounds?)|shooting (?:began|started)|"
                        r"(?:gunman|shooter|he) (?:opened fire|began (?:shooting|firing)))\b", re.IGNORECASE)
MY_ARRIVAL = re.compile(r"^(?:(?:I|we)\s+(?:got there|arrived|got to (?:the )?\w+|reached|pulled up)|"
                        r"(?:getting|arriving|pulling up) (?:there|on scene)|arriving)\b", re.IGNORECASE)
DISPATCH = re.compile(r"\b(?:call came out|calls? went out|(?:was|were) dispatched|dispatch(?:ed)?)\b", re.I)
TO_CLAIM = {"second": 1 / 60, "minute": 1.0, "hour": 60.0}
HEARD_SHOTS = re.compile(r"\b(?:heard|hear|hearing)\b.*\b(?:shots?|gunfire|gunshots?|firecrackers|pops|popping|"
                         r"bangs|shooting)\b", re.IGNORECASE)
ORDERED = re.compile(r"^(?:told|ordered|instructed|directed|commanded|radioed)\b", re.IGNORECASE)
# Milestones the radio itself announces: the verb of the claim, the words on the air.
ON_THE_AIR = {"patched": re.compile(r"\bpatched\b", re.IGNORECASE)}


@dataclass
class Check:
    verdict: str  # supports | contradicts | cannot_tell
    claim: tuple  # the claim's interval as compared (after widening)
    record: tuple  # the record's interval in the claim's unit
    says: dict  # what the records say, as data: {"say": <what>, ...} (findings/render.py words it)
    metric: str
    evidence: list[int] = field(default_factory=list)


def check(c: Claim, facts: RecordFacts, names: dict[str, str], doc_event: int | None,
          previous: Claim | None = None) -> Check | None:
    fn = CHECKS.get(c.measure)
    return fn(c, facts, _Ctx(names, doc_event, previous)) if fn else None


@dataclass
class _Ctx:
    names: dict[str, str]
    doc_event: int | None
    previous: Claim | None = None  # the time claim before this one in its document ("... later")

    def unit(self, c: Claim, facts: RecordFacts) -> str | None:
        is_me = (c.subject_text or "").split(" ")[0] in ME
        return facts.unit_of(self.names.get(c.subject or "", c.subject_text), self.doc_event, is_me)


def verdict(claim: tuple, record: tuple) -> str:
    inf = float("inf")
    clo, chi = (-inf if claim[0] is None else claim[0]), (inf if claim[1] is None else claim[1])
    rlo, rhi = (-inf if record[0] is None else record[0]), (inf if record[1] is None else record[1])
    if max(clo, rlo) > min(chi, rhi):
        return "contradicts"
    return "supports" if clo <= rlo and rhi <= chi else "cannot_tell"


def widened(c: Claim) -> tuple:
    """An unhedged figure in minutes is as good as 'about' it; a clock minute is ± 1."""
    if c.hedge or c.lo is None or c.lo != c.hi:
        return c.lo, c.hi
    if c.unit == "minute_of_day":
        return c.lo - 1, c.hi + 2
    if c.unit in TO_CLAIM:
        return interval(c.lo, "about")
    return c.lo, c.hi


def finding_ref(f: Finding) -> dict:
    """A finding a verdict rests on, as the data its sentence is made from."""
    return {"name": f.name, "kind": f.kind, "status": f.status, "subject": f.subject, "value_lo": f.value_lo,
            "value_hi": f.value_hi, "unit": f.unit, "payload": f.payload}


# --- shots -----------------------------------------------------------------------------

def _shots_since_arrival(c: Claim, facts: RecordFacts, ctx: _Ctx):
    unit = ctx.unit(c, facts)
    arr = facts.arrival(unit) if unit else None
    if arr is None:
        return None, None, None
    return unit, arr, facts.shots_after(arr.value_hi)


def shots_heard(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'I heard two or three shots': the sensors counted more after the hearer was there."""
    unit, arr, fact = _shots_since_arrival(c, facts, ctx)
    if fact is None or c.hi is None or fact.lo <= c.hi:
        return None if fact is None else Check("cannot_tell", (c.lo, c.hi), (fact.lo, None), fact.says,
                                               "shots_after_arrival", fact.evidence)
    return Check("contradicts", (c.lo, c.hi), (fact.lo, None),
                 {"say": "on_scene_by", "unit": unit, "at": arr.value_hi, "then": fact.says}, "shots_after_arrival",
                 list(arr.evidence) + fact.evidence)


def shots_after_arrival(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'Once I was at the building I did not hear any more shots.'"""
    unit, arr, fact = _shots_since_arrival(c, facts, ctx)
    if fact is None:
        return None
    if fact.lo >= 1 and c.hi is not None and fact.lo > c.hi:
        return Check("contradicts", (c.lo, c.hi), (fact.lo, None),
                     {"say": "on_scene_by", "unit": unit, "at": arr.value_hi, "then": fact.says},
                     "shots_after_arrival", list(arr.evidence) + fact.evidence)
    before = facts.shots_after(arr.value_lo)
    if before is not None and before.lo == 0:
        return Check("supports", (c.lo, c.hi), (0, 0), {"say": "no_shots_after_arrival", "unit": unit},
                     "shots_after_arrival", list(arr.evidence))
    return Check("cannot_tell", (c.lo, c.hi), (fact.lo, None), fact.says, "shots_after_arrival", fact.evidence)


# --- orders ----------------------------------------------------------------------------

def order_given(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'I never told anyone to stay away': the unit's own radio traffic gives that order."""
    pattern = ORDER_KINDS.get(c.qualifier or "")
    unit = ctx.unit(c, facts)
    if pattern is None or unit is None:
        return None
    found = facts.orders_by(unit, pattern)
    if not found:
        return None  # not on the radio proves nothing
    v = "contradicts" if c.hi is not None and c.hi < len(found) else "supports"
    return Check(v, (c.lo, c.hi), (len(found), None),
                 {"say": "on_the_radio", "unit": unit, "words": [t for _, t in found[:3]]},
                 f"radio orders ({c.qualifier})", [i for i, _ in found])


# --- durations -------------------------------------------------------------------------

def duration_to_entry(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'We went in within a minute of getting there': the unit's arrival to its entry."""
    unit = ctx.unit(c, facts)
    arr = facts.arrival(unit) if unit else None
    entry = facts.entry(unit) if unit else None
    if arr is None or entry is None or c.unit != "minute":
        return None
    lo, hi = (entry[0] - arr.value_hi) / MINUTE_MS, (entry[1] - arr.value_lo) / MINUTE_MS
    claim = widened(c)
    return Check(verdict(claim, (lo, hi)), claim, (lo, hi),
                 {"say": "arrived_and_entered", "unit": unit, "arrived": [arr.value_lo, arr.value_hi],
                  "entered": [entry[0], entry[1]], "minutes": [lo, hi]}, "unit_arrival_to_entry",
                 list(arr.evidence) + entry[2])


def duration_outside(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """Time outside while shots were fired. A group ("deputies waited 11 minutes") is
    checked against its longest-waiting unit; without 'while shots were fired' a claim
    can only be too short (a unit outside 5 minutes during the shots was outside at
    least that long)."""
    during = (c.time_ref or {}).get("during") == "shots"
    if c.unit != "minute":
        return None
    claim = widened(c)
    if (c.subject or "").startswith("group:"):
        found = _group_findings(c, facts, "unit_outside_while_shots")
        if not found or not during:
            return None
        top = max(found, key=lambda f: f.value_hi)
        rec = (0.0, top.value_hi / 60)
        if claim[0] is not None and claim[0] > rec[1]:
            return Check("contradicts", claim, rec, {"say": "no_unit_outside_longer", "minutes": rec[1],
                                                     "finding": finding_ref(top)},
                         "unit_outside_while_shots", list(top.evidence))
        return Check("cannot_tell", claim, rec, {"say": "finding", "finding": finding_ref(top)},
                     "unit_outside_while_shots", list(top.evidence))
    unit = ctx.unit(c, facts)
    f = facts.metric("unit_outside_while_shots", unit) if unit else None
    if f is None:
        return None
    rec = (f.value_lo / 60, f.value_hi / 60)
    v = verdict(claim, rec) if during else (
        "contradicts" if claim[1] is not None and claim[1] < rec[0] else "cannot_tell")
    return Check(v, claim, rec, {"say": "finding", "finding": finding_ref(f)}, "unit_outside_while_shots",
                 list(f.evidence))


def _group_findings(c: Claim, facts: RecordFacts, name: str) -> list:
    word = (c.subject or "").split(":", 1)[1]
    agencies = facts.agencies_of("deputy") if word.startswith("deput") else None
    if agencies is not None and not agencies:
        return []
    return [f for (n, _), f in facts.by_name.items() if n == name
            and (agencies is None or f.payload.get("agency") in agencies)]


# --- counts ----------------------------------------------------------------------------

def officers_on_scene(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'Only two deputies were on the campus while the gunman was still firing': at least
    as many armed units of theirs are on the records by the last shots (one officer or
    more each), so a smaller count is contradicted; a larger one cannot be told."""
    if not (c.subject or "").startswith("group:") or c.hi is None:
        return None
    during = (c.time_ref or {}).get("during") == "shots"
    last = facts.metric("last_shots")
    if during and last is None:
        return None
    cutoff = last.value_lo if during else float("inf")
    there = [f for f in _group_findings(c, facts, "unit_on_scene") if f.payload.get("armed", True)
             and f.value_hi < cutoff]
    if not there:
        return None
    n = len(there)
    says = {"say": "armed_units_recorded", "units": sorted(f.subject for f in there),
            "before_last_shots": cutoff if during else None}
    v = "contradicts" if c.hi < n else "cannot_tell"
    return Check(v, (c.lo, c.hi), (n, None), says, "units_on_scene",
                 [e for f in there for e in f.evidence] + (list(last.evidence) if during else []))


def calls_911(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'Dispatchers fielded 22 calls to 911 in the first ten minutes': more than the logs
    could hold in that window."""
    first = facts.metric("first_shots")
    if first is None or c.lo is None:
        return None
    window = (c.time_ref or {}).get("within_first_min")
    fact = facts.calls_presented(first.value_lo, first.value_hi + window * MINUTE_MS if window else None)
    v = "contradicts" if c.lo > fact.hi else "cannot_tell"
    return Check(v, (c.lo, c.hi), (0, fact.hi), fact.says | {"within_min": window or None},
                 "calls_911", fact.evidence + list(first.evidence))


def transported(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    f = facts.metric("patients_transported")
    if f is None:
        return None
    rec = (f.value_lo, f.value_hi)
    return Check(verdict((c.lo, c.hi), rec), (c.lo, c.hi), rec, {"say": "finding", "finding": finding_ref(f)},
                 "patients_transported", list(f.evidence))


def camera_live(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'The live camera feed showed ...': the view commanders were shown ran behind."""
    f = facts.metric("camera_live_lag")
    if f is None:
        return None
    live = (1, 1) if f.value_hi <= LIVE_MAX_S else (0, 0) if f.value_lo > LIVE_MAX_S else (0, 1)
    return Check(verdict((c.lo, c.hi), live), (c.lo, c.hi), live,
                 {"say": "not_live", "finding": finding_ref(f), "live_max_s": LIVE_MAX_S}, "camera_live_lag",
                 list(f.evidence))


# --- places ----------------------------------------------------------------------------

PLACE_STOP = {"the", "a", "an", "of", "at", "near", "by", "behind", "outside", "inside", "in", "on", "side", "to",
              "next", "front", "across", "from", "beside", "scene"}


def _pairs(text: str) -> set[tuple[str, str]]:
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in PLACE_STOP]
    return set(zip(words, words[1:]))


def place(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'Deputy X pulled up near the north driveway': the unit's own radio names the same
    place ('David-15 on scene, north driveway'). Two wordings of a place can differ and
    both be right, so places are only ever supported, never contradicted."""
    unit = ctx.unit(c, facts)
    if unit is None or not c.value_text:
        return None
    want = _pairs(c.value_text)
    same = [(i, t) for i, t in facts.said_by(unit) if want & _pairs(t)]
    if not same:
        return None
    return Check("supports", (None, None), (None, None), {"say": "on_the_radio", "unit": unit, "words": [same[0][1]]},
                 "radio place", [i for i, _ in same[:3]])


# --- times -----------------------------------------------------------------------------

def time_of_action(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    ref = c.time_ref or {}
    if c.unit == "minute_of_day":
        return _clock_check(c, facts, ctx)
    if c.unit not in TO_CLAIM or ref.get("relation") != "after":
        return None
    if ref.get("anchor"):
        start = _anchor_time(ref["anchor"], c, facts, ctx)
    elif re.search(r"\blater\b", c.text, re.IGNORECASE) and ctx.previous is not None:
        start = _action_time(ctx.previous, facts, ctx)  # "... about a minute later": after the last time told
    else:
        return None
    end = _action_time(c, facts, ctx)
    if start is None or end is None:
        return None
    k = TO_CLAIM[c.unit] * 60_000.0
    rec = ((end[0] - start[1]) / k, (end[1] - start[0]) / k)
    claim = widened(c)
    return Check(verdict(claim, rec), claim, rec,
                 {"say": "came_after", "what": end[2], "after": start[2], "between": list(rec), "unit": c.unit},
                 "time_between", start[3] + end[3])


def _anchor_time(anchor: str, c: Claim, facts: RecordFacts, ctx: _Ctx):
    if FIRST_SHOT.search(anchor):
        return _finding_time(facts.metric("first_shots"), {"what": "first_shots"})
    if DISPATCH.search(anchor):
        # "the call came out" for the speaker: the first dispatch on the call they were sent to
        unit = facts.unit_of(ctx.names.get(c.speaker or ""), ctx.doc_event, is_author=True)
        return facts.call_came_out(unit) if unit else None
    if MY_ARRIVAL.match(anchor):
        # "after I got there": the speaker's arrival; "after getting there": the actor's own
        mine = re.match(r"(?:I|we)\b", anchor, re.IGNORECASE)
        unit = facts.unit_of(ctx.names.get(c.speaker or ""), ctx.doc_event, is_author=True) if mine \
            else ctx.unit(c, facts)
        return _finding_time(facts.arrival(unit) if unit else None, {"what": "unit_arrived", "unit": unit})
    return None


def _action_phrase(c: Claim) -> str:
    """The action a time belongs to, as the sentence words it: the verb the extractor
    named (qualifier) and what follows it ("went in", "got to", "pulled up")."""
    verb = c.qualifier or ""
    m = re.search(rf"\b{re.escape(verb)}\b(?:\s+[\w']+){{0,1}}", c.sentence) if verb else None
    return m.group(0) if m else verb


def _action_time(c: Claim, facts: RecordFacts, ctx: _Ctx):
    verb = _action_phrase(c)
    group = (c.subject or "").startswith("group:")
    if HEARD_SHOTS.search(c.sentence) and re.match(r"^hear", verb, re.IGNORECASE):
        return _finding_time(facts.metric("first_shots"), {"what": "first_shots"})
    if ORDERED.match(verb):
        kind = next((k for k, rx in ORDER_KINDS.items() if rx.search(c.sentence[c.sentence.find(verb):])), None)
        unit = ctx.unit(c, facts)
        return facts.first_said(ORDER_KINDS[kind], unit) if kind and unit else None
    if (c.subject or "").startswith("thing:") and verb.split(" ")[0].lower() in ON_THE_AIR:
        return facts.first_said(ON_THE_AIR[verb.split(" ")[0].lower()])
    if ENTRY.match(verb):
        if group:
            return _finding_time(facts.metric("first_entry"), {"what": "first_entry"})
        unit = ctx.unit(c, facts)
        e = facts.entry(unit) if unit else None
        return (e[0], e[1], {"what": "unit_entered", "unit": unit}, e[2]) if e else None
    if ARRIVAL.match(verb) and not group:
        unit = ctx.unit(c, facts)
        return _finding_time(facts.arrival(unit) if unit else None, {"what": "unit_arrived", "unit": unit})
    return None


def _finding_time(f, what: dict):
    return None if f is None else (f.value_lo, f.value_hi, what, list(f.evidence))


def _clock_check(c: Claim, facts: RecordFacts, ctx: _Ctx) -> Check | None:
    """'I arrived at around 2:20 p.m.', 'the first 911 call came in at 2:10 p.m.': the
    record's time in the document's own zone, as minutes of the day."""
    subject = c.subject or ""
    heard = HEARD_SHOTS.search(c.sentence) and re.match(r"^hear", c.qualifier or "", re.IGNORECASE)
    if subject.startswith("thing:") and "911" in subject and "first" in subject:
        when = _finding_time(facts.metric("first_911_call"), {"what": "first_911_call"})
    elif heard or (ARRIVAL.match(_action_phrase(c)) and not subject.startswith(("group:", "thing:"))) \
            or (subject.startswith("thing:") and (c.qualifier or "").lower() in ON_THE_AIR):
        when = _action_time(c, facts, ctx)
    else:
        return None
    offset = facts.local_offset_ms(when[0]) if when is not None else None
    if offset is None:
        return None
    day = lambda ms: ((ms + offset) / MINUTE_MS) % 1440
    rec = (day(when[0]), day(when[0]) + (when[1] - when[0]) / MINUTE_MS)
    claim = widened(c)
    v = verdict(claim, rec)
    if heard:
        # Shots heard then: wrong only if no shot was fired then; the first shots inside
        # the claim support it. (Someone may have heard later shots, not the first.)
        last = facts.metric("last_shots")
        window = (rec[0], rec[1] + ((last.value_hi - when[1]) / MINUTE_MS if last else 0))
        v = "contradicts" if verdict(claim, window) == "contradicts" else (
            "supports" if v == "supports" else "cannot_tell")
    return Check(v, claim, rec, {"say": "local_time_between", "what": when[2], "minutes": list(rec)},
                 "time_of_day", when[3])


CHECKS = {
    "count_shots_heard": shots_heard,
    "shots_after_arrival": shots_after_arrival,
    "order_given": order_given,
    "duration_to_entry": duration_to_entry,
    "duration_outside": duration_outside,
    "count_officers_on_scene": officers_on_scene,
    "count_calls_911": calls_911,
    "count_transported": transported,
    "camera_view_live": camera_live,
    "time_of_action": time_of_action,
    "place_of_action": place,
}
