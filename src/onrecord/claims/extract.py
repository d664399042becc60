"""Free text -> attributed claims.

For every sentence: find numbers (numbers.py) and times (times.py), decide what each
measures (measures.py), who it is about (subjects.py) and who says it (speakers.py).
A number that measures nothing known ("in 2016", "one way") is left out on purpose:
a claim must be something an after-action review can weigh.
"""

from __future__ import annotations

import hashlib
import re

from onrecord.claims.ages import find_ages
from onrecord.claims.assertions import Said, during_shots, find_assertions, first_minutes
from onrecord.claims.conflicts import find_conflicts, group_claims
from onrecord.claims.incidents import group_documents
from onrecord.claims.measures import (
    STAY,
    TOOK,
    Reading,
    clause_bounds,
    read_age,
    read_count,
    read_duration,
    read_money,
    to_unit,
)
from onrecord.claims.named_entities import Resolution, resolve_entities
from onrecord.claims.numbers import find_quantities
from onrecord.claims.places import Place, find_places
from onrecord.claims.records import Analysis, Entity
from onrecord.claims.speakers import Speakers, find_speakers
from onrecord.claims.subjects import INCIDENT, _candidates, near_person, org_subject, person_subject
from onrecord.claims.text import Document, Sentence, read_document
from onrecord.claims.times_in_text import TimeExpr, calendar_dates, clock_times, offsets, with_day_half
from onrecord.claims.verbs import event_kind, verbs_in
from onrecord.model import Claim

ACTION_RE = re.compile(r"\b(?:(?!(?:feed|need|speed|indeed|seed|bed|red|shed|hundred|tired|scared)\b)[a-z]{2,}ed|"
                       r"sent|went|ran|came|fled|left|shot|heard|saw|made|got|began|"
                       r"told|said|gave|took|fired|drove|stood|sat|held|met|found|hit|fell|go|enter|arrive|breach|open|"
                       r"reach|call|shoot|leave|come)\b")


def extract_claims(text: str, doc_id: str) -> list[Claim]:
    """Claims of one document, its people resolved within it alone."""
    return analyse({doc_id: text}).claims


def analyse(texts: dict[str, str], one_incident: bool = False) -> Analysis:
    """Claims, entities and conflicts across several documents (doc id -> text). The
    documents are grouped by incident and compared only within each, unless the caller
    knows they are all about one (a case: `one_incident=True`)."""
    docs = [read_document(doc_id, text) for doc_id, text in texts.items()]
    res = resolve_entities(docs)
    claims: list[Claim] = []
    for doc in docs:
        claims.extend(claims_in(doc, res, find_speakers(doc, res)))
    _add_fixed_entities(res, docs, claims)
    documents = [{"id": d.id, "chars": len(d.text),
                  "sha256": hashlib.sha256(d.text.encode()).hexdigest()} for d in docs]
    entities = sorted(res.entities.values(), key=lambda e: (e.kind, e.id))
    incidents = ([{"id": "incident-1", "documents": [d.id for d in docs], "named_by": []}]
                 if one_incident else group_documents(docs, res))
    incident_of = {doc_id: i["id"] for i in incidents for doc_id in i["documents"]}
    return Analysis(documents, entities, claims, group_claims(claims, res.entities, incident_of),
                    find_conflicts(claims, res.entities, incident_of), incidents)


def _add_fixed_entities(res: Resolution, docs: list[Document], claims: list[Claim]) -> None:
    for d in docs:
        res.entities[f"author:{d.id}"] = Entity(f"author:{d.id}", "author", f"author of {d.id}")
    if any(c.subject == INCIDENT for c in claims):
        res.entities[INCIDENT] = Entity(INCIDENT, "incident", "the incident")


def claims_in(doc: Document, res: Resolution, speakers: Speakers) -> list[Claim]:
    out: list[Claim] = []
    halves = [(sent.start + t.start, t.ampm) for sent in doc.sentences for t in clock_times(sent.text)
              if t.ampm in {"am", "pm"}]
    approximate = APPROXIMATE.search(doc.text) is not None
    for sent in doc.sentences:
        dates = calendar_dates(sent.text)
        clocks = [_approximate(t) if approximate else t for t in clock_times(sent.text)]
        clocks = [with_day_half(t, _day_part(sent.text, t) or _nearest_half(halves, sent.start + t.start))
                  for t in clocks]
        times = clocks + [t for t in offsets(sent.text) if not _stay_before(sent.text, t)]
        found = [c for t in times if (c := _time_claim(doc, res, speakers, sent, t, times))]
        found += [c for p in find_places(sent.text) if (c := _place_claim(doc, res, speakers, sent, p))]
        found += [c for s in find_assertions(sent.text) if (c := _said_claim(doc, res, speakers, sent, s))]
        ages = find_ages(sent.text)
        found += [_age_claim(doc, speakers, sent, a) for a in ages]
        previous: Reading | None = None
        for q in find_quantities(sent.text):
            if any(t.start <= q.start < t.end and (t.kind == "clock" or q.start == t.start) for t in times):
                continue
            if any(a.start <= q.start < a.end for a in ages):
                continue
            reading = _read(sent, q, doc.paragraphs[sent.paragraph].text, previous)
            if reading is None:
                continue
            previous = reading
            found.append(_claim(doc, res, speakers, sent, q, reading))
        for c in found:
            if dates and c.time_ref is None:
                c.time_ref = {"dates": [{"text": d["text"], "date": d["date"]} for d in dates]}
        _limit_to_window(sent.text, found)
        _mark_other_incident(sent, found)
        out.extend(_dedupe(found))
    for i, c in enumerate(out, 1):
        c.id = f"{doc.id}#c{i}"
    return out


# A timeline that says "Times are approximate." has each unhedged time read as "about".
APPROXIMATE = re.compile(r"\b(?:all\s+)?times\s+(?:are|were|listed are)\s+(?:approximate|estimates)\b", re.I)


def _approximate(t: TimeExpr) -> TimeExpr:
    if t.hedge is None and t.lo is not None and t.lo == t.hi:
        t.lo, t.hi, t.hedge = t.lo - 5, t.hi + 5, "about"
    return t


DAY_PART = re.compile(r"\b(?:(?P<am>morning|overnight|night|dawn)|(?P<pm>afternoon|evening))\b", re.IGNORECASE)


def _day_part(sentence: str, t: TimeExpr) -> str | None:
    """'12:39 Friday morning' is a.m., '4:10 that afternoon' p.m.: a part of the day named
    within a few words of the time."""
    m = DAY_PART.search(sentence[t.end:t.end + 25]) or DAY_PART.search(sentence[max(0, t.start - 25):t.start])
    if m is None:
        return None
    return "am" if m.group("am") else "pm"


MONTH_WORDS = "January|February|March|April|May|June|July|August|September|October|November|December"
# "the 2016 attack at an LGBTQ nightclub in Orlando ... killed 49", "the May attack in Uvalde,
# Texas, left 21 dead": figures of another incident, quoted for comparison.
OTHER_INCIDENT = re.compile(
    rf"\b(?:the|a|last year's)\s+(?:(?:19|20)\d{{2}}|{MONTH_WORDS}|previous|earlier)\s+(?:[\w-]+\s+){{0,3}}?"
    rf"(?:attack|shooting|massacre|rampage|mass shooting)\s+(?:at|in|on)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,3}}?[A-Z]"
    r"|\breminiscent of\b|\bdeadliest since\b", re.IGNORECASE)


def _mark_other_incident(sent: Sentence, found: list[Claim]) -> None:
    """A claim after a mention of another incident in its sentence is about that one: kept,
    but grouped apart and never compared with this incident's claims."""
    m = OTHER_INCIDENT.search(sent.text)
    if m is None:
        return
    for c in found:
        if c.start - sent.start >= m.start():
            c.time_ref = {**(c.time_ref or {}), "other_incident": m.group(0)}


def _nearest_half(halves: list[tuple[int, str]], pos: int) -> str | None:
    return min(halves, key=lambda h: abs(h[0] - pos))[1] if halves else None


def _limit_to_window(sentence: str, found: list[Claim]) -> None:
    """'Only two deputies were on campus while the gunman was still firing': a count or a
    duration limited to the shooting is another measure than the whole day's; 'in the
    first ten minutes' likewise. Both go in time_ref, which grouping keys on."""
    shots, window = during_shots(sentence), first_minutes(sentence)
    for c in found:
        if shots and c.measure.startswith(("count_officers", "duration_")):
            c.time_ref = {**(c.time_ref or {}), "during": "shots"}
        if window is not None and c.measure.startswith("count_calls"):
            c.time_ref = {**(c.time_ref or {}), "within_first_min": window}


def _age_claim(doc, speakers, sent: Sentence, a) -> Claim:
    """The ages of a group of victims (ages.py): about the incident, whose ages in the qualifier."""
    start, end = sent.start + a.start, sent.start + a.end
    voice, quoted = speakers.who_said(start)
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text, subject=INCIDENT,
        subject_text=None, measure="age", lo=a.lo, hi=a.hi, unit="year",
        hedge=a.hedge if a.hedge == "range" else None, quoted=quoted,
        qualifier=a.qualifier, time_ref={"ages": a.hedge},
    )


def _said_claim(doc, res, speakers, sent: Sentence, s: Said) -> Claim | None:
    """A claim from assertions.py: about the incident (a camera view), the person its
    anchor names ("once I was at the building"), or whoever gives the order."""
    start, end = sent.start + s.start, sent.start + s.end
    voice, quoted = speakers.who_said(start)
    if s.measure == "camera_view_live":
        who, who_text = INCIDENT, None
    elif s.who_start is not None:
        who, who_text = person_subject(doc, res, sent.start + s.who_start, sent.start + s.who_end, sent.start,
                                       voice.speaker, quoted)
    else:
        cs, _ = clause_bounds(sent.text, s.start, s.end)
        who, who_text = person_subject(doc, res, sent.start + cs, start, sent.start, voice.speaker, quoted)
    if who is None:
        return None
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text, subject=who,
        subject_text=who_text, measure=s.measure, lo=s.lo, hi=s.hi, unit=s.unit, hedge=None, quoted=quoted,
        qualifier=s.qualifier, time_ref={"anchor": s.anchor, "relation": "after"} if s.anchor else None,
    )


def _stay_before(sentence: str, t: TimeExpr) -> bool:
    """'I stayed at the door four minutes before I went in' measures the stay, and 'it took
    77 minutes before anyone went in' the time taken: neither is an offset."""
    cs, _ = clause_bounds(sentence, t.start, t.end)
    return STAY.search(sentence[cs:t.start]) is not None or TOOK.search(sentence[cs:t.start]) is not None


def _read(sent: Sentence, q, context: str, previous: Reading | None) -> Reading | None:
    if q.money:
        return read_money(sent.text, q.start, q.end)
    if q.unit:
        return read_duration(sent.text, q.start, q.end, context, q.unit)
    return (read_age(sent.text, q.start, q.end) or read_duration(sent.text, q.start, q.end, context)
            or read_count(sent.text, q.start, q.end, previous))


def _claim(doc, res, speakers, sent: Sentence, q, reading: Reading) -> Claim:
    start, end = sent.start + q.start, sent.start + reading.end
    voice, quoted = speakers.who_said(start)
    if reading.measure == "age" and not quoted:
        said = speakers.attribution_at(start)
        if said is not None and not said.whole and not re.search(r"\bidentif", sent.text):
            voice = speakers.author  # "X said the suspect, a 21-year-old man, ...": the reporter's identification
    subject, subject_text = _subject(doc, res, sent, q.start, reading, voice.speaker, quoted)
    lo, hi = to_unit(reading, q)
    ref = None
    if reading.measure in {"duration_to_arrival", "duration_to_entry", "duration_elapsed"}:
        # "arrive at the scene within two minutes of the initial call": the delay's start
        a = DELAY_ANCHOR.match(sent.text[reading.end:])
        ref = {"anchor": a.group("anchor").strip(), "relation": "after"} if a else None
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text,
        subject=subject, subject_text=subject_text, measure=reading.measure, lo=lo, hi=hi,
        unit=reading.unit, hedge=q.hedge, quoted=quoted, of_total=q.of_total, qualifier=reading.qualifier,
        time_ref=ref,
    )


DELAY_ANCHOR = re.compile(r"^\s*(?:of|after|from|since)\s+(?P<anchor>(?:the|a|an|this|that|his|her)\s+[^,.;:—–\"“”]+)",
                          re.IGNORECASE)


def _subject(doc, res, sent, rel_start, reading, speaker, quoted):
    if reading.subject_kind == "incident":
        return INCIDENT, None
    abs_q = sent.start + rel_start
    if reading.subject_kind == "org":
        found = org_subject(doc, res, abs_q, sent.start + reading.end, sent.start, sent.end, speaker,
                            _agency_kind_of(sent.text[rel_start:reading.end]))
        if found[0] is None and reading.noun:
            recent = _recent_agency(doc, res, abs_q, _agency_kind_of(sent.text[rel_start:reading.end]) or "police")
            if recent is not None:
                return recent.entity, f"{reading.noun} ({recent.text})"
            # "Only three deputies were on the campus": no agency named, the group itself.
            gid = group_id(reading.noun)
            res.entities.setdefault(gid, Entity(gid, "group", gid.split(":")[1]))
            found = (gid, reading.noun)
        return found
    if reading.subject_kind == "person_after":
        found = near_person(doc, res, sent.start + reading.end, sent.start + reading.end + 40, last=False)
        if found[0] is None and re.search(r",\s*(?:the|a|an)\s*$", sent.text[:rel_start]):
            # "Nikolas X, the 19-year-old suspect": the person the apposition describes
            found = near_person(doc, res, sent.start, abs_q, last=True)
        return found
    if reading.subject_kind == "person_before":
        return near_person(doc, res, sent.start, abs_q, last=True)
    cs, ce = clause_bounds(sent.text, rel_start, reading.end)
    if reading.subject_kind == "actor_after":
        m = GROUP_RE.search(sent.text, reading.end, ce)
        if m:
            return _group_subject(doc, res, sent, cs, m.end(), speaker)
        return person_subject(doc, res, sent.start + reading.end, sent.start + ce, sent.start + reading.end,
                              speaker, quoted)
    group = GROUP_RE.search(sent.text, cs, rel_start) and list(GROUP_RE.finditer(sent.text, cs, rel_start))[-1]
    people = _candidates(doc, res, sent.start + cs, abs_q)
    if group and group.group(0).lower() != "we" and (not people or sent.start + group.start() > people[-1][0]):
        return _group_subject(doc, res, sent, cs, rel_start, speaker)  # "nearly 20 officers waited ..."
    found = person_subject(doc, res, sent.start + cs, abs_q, sent.start, speaker, quoted)
    if found[0] is None:
        found = _group_subject(doc, res, sent, cs, rel_start, speaker)
    return found


GROUP_RE = re.compile(r"\b(?:officers|deputies|cops|troopers|units|we|(?:police|law enforcement)"
                      r"(?!\s+(?:officers?|department|chief|station|cars?|force|reports?|lines?|tape|academy|"
                      r"response|radio|union|agency|agencies)\b))\b", re.IGNORECASE)


def _group_subject(doc, res, sent, cs, rel_start, speaker):
    """'Deputies waited outside for nine minutes': about a group, named by its agency
    when its own phrase names one, else by the word itself."""
    found = list(GROUP_RE.finditer(sent.text, cs, rel_start)) or list(GROUP_RE.finditer(sent.text, 0, rel_start))
    if not found:
        return None, None
    m = found[-1]  # the group nearest before the verb is the one acting
    if m.group(0).lower() == "we":
        return speaker, "we"
    # Only an agency named in the same phrase ("Marlow County Sheriff's deputies") owns the group.
    for o in res.mentions.get(doc.id, []):
        if o.kind in {"org", "group"} and o.entity and 0 <= sent.start + m.start() - o.end <= 3:
            return o.entity, o.text
        if o.kind in {"org", "group"} and o.entity and o.start <= sent.start + m.start() < o.end:
            return o.entity, o.text
    gid = group_id(m.group(0))
    recent = _recent_agency(doc, res, sent.start + m.start(), "sheriff" if gid == "group:deputies" else "police")
    if recent is not None:
        return recent.entity, f"{m.group(0)} ({recent.text})"
    res.entities.setdefault(gid, Entity(gid, "group", gid.split(":")[1]))
    return gid, m.group(0)


def _agency_kind_of(phrase: str) -> str | None:
    """'three sheriff's deputies' are a sheriff's office's; 'police officers' a police department's."""
    if re.search(r"\b(?:sheriff|deput)", phrase, re.IGNORECASE):
        return "sheriff"
    if re.search(r"\b(?:police|officers?|cops?|patrol)", phrase, re.IGNORECASE):
        return "police"
    return None


def _recent_agency(doc, res, pos: int, kind: str):
    """'Not one of the four deputies had entered', a sentence after 'Broward County
    Sheriff's deputies': the agency of that kind named last within the few sentences before."""
    before = [o for o in res.between(doc.id, max(0, pos - 600), pos) if o.kind == "org" and o.entity
              and (o.agency or "") == kind]
    return before[-1] if before else None


def group_id(word: str) -> str:
    """'police', 'cops' and 'officers' are one group; 'deputies' another."""
    w = word.lower()
    if w.startswith("deput"):
        return "group:deputies"
    if re.search(r"\b(?:police|cops?|officers?|units?|law enforcement)\b", w):
        return "group:officers"
    return f"group:{re.sub(r'[^a-z]+', '-', w)}"


THING_RE = re.compile(r"^\s*(?:the|a|an)\s+((?:[\w’'-]+\s+){0,5}?[\w’'-]+)\s*$", re.IGNORECASE)


def _thing_subject(res: Resolution, words: str) -> tuple[str | None, str | None]:
    """'The first 911 call came in at 2:17': the time is about the call."""
    words = re.sub(r"\s+(?:was|were|is|are|had|has|have|been|being|be)(?:\s+\w+ly)?\s*$", "", words)
    m = THING_RE.match(words)
    if m is None:
        return None, None
    tid = "thing:" + re.sub(r"[^a-z0-9]+", "-", m.group(1).lower()).strip("-")
    res.entities.setdefault(tid, Entity(tid, "thing", m.group(1)))
    return tid, words.strip()


def _time_claim(doc, res, speakers, sent: Sentence, t: TimeExpr, others=()) -> Claim | None:
    """A time is about an action: the verb before it in its clause ("I arrived at 2:20"),
    else the verb after it ("Two days after the vigil, Chief X sent ..."; a timeline's
    "9:39:00 — Officer X arrives"). A time of day with no verb near ("At 12:46 a.m., the
    suspect was in custody") is still a claim, about the moment its clause names."""
    skip = [(o.start, o.end) for o in others if o is not t]
    found = _action(sent, t, skip)
    if found is None and t.ref.get("anchor"):
        shorter = _shorter_anchor(t)  # "after I got there Deputy X pulled up": no comma to end the anchor
        found = _action(sent, shorter, skip) if shorter else None
        t = shorter if found else t
    cs, ce = clause_bounds(sent.text, t.start, t.end)
    start, end = sent.start + t.start, sent.start + t.end
    voice, quoted = speakers.who_said(start)
    if found is None:
        if t.kind != "clock" and not _names_event(t.ref.get("anchor")):
            return None  # "1 minute into the clip": an offset from no event says nothing
        who, who_text = person_subject(doc, res, sent.start + cs, sent.start + ce, sent.start, voice.speaker, quoted)
        qualifier, action_start, verb_before = None, ce, False
    else:
        action, verb_before = found
        qualifier, action_start = action.group(0), action.start()
        if verb_before:
            who, who_text = person_subject(doc, res, sent.start + cs, sent.start + action_start, sent.start,
                                           voice.speaker, quoted)
        else:
            who, who_text = person_subject(doc, res, end, sent.start + action_start, end, voice.speaker, quoted)
    if who is None:
        who, who_text = _group_subject(doc, res, sent, cs, t.start if verb_before else action_start,
                                       voice.speaker)
    if who is None:
        head = sent.text[cs:action_start] if verb_before else sent.text[t.end:action_start]
        who, who_text = _thing_subject(res, head.strip(" ,—–-*"))
    if who is None:
        who, who_text = INCIDENT, None  # a timeline's moment with no actor named: the incident's
    ref = dict(t.ref)
    if t.kind == "clock" and (NOT_RESPONSE.search(_near_words(sent.text, t, others))
                              or SCHEDULE_AFTER.match(sent.text[t.end:])):
        return None  # "held a press conference at 1:13 p.m.", "9 a.m. classes": not the response
    event = _moment(sent.text, t, cs, _clause_end(sent.text, t, ce), others)
    if event:
        ref["event"] = event
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text, subject=who,
        subject_text=who_text, measure="time_of_action", lo=t.lo, hi=t.hi, unit=t.unit,
        hedge=t.hedge, quoted=quoted, qualifier=qualifier, time_ref=ref,
    )


EVENT_NOUN = re.compile(r"\b(?:call|calls|shooting|shots?|gunfire|attack|ordeal|siege|rampage|spree|standoff|"
                        r"massacre|incident|alarm|arrival|opening|explosion|blast|breach|began|started|"
                        r"first|initial|fired|opened fire)\b", re.IGNORECASE)


def _names_event(anchor: str | None) -> bool:
    """'eight minutes after the initial 911 call' counts from a moment of the incident;
    'one minute into the clip' from none."""
    return bool(anchor) and (EVENT_NOUN.search(anchor) is not None or event_kind(anchor) is not None)


# What a time of day is of when it is no moment of the response (docs: not claims).
NOT_RESPONSE = re.compile(r"\b(?:press conference|news conference|news briefing|briefing|"
                          r"lineup|dance party|reports a total|released (?:a|the|its)|posted|tweeted|"
                          r"updated|update)\b", re.IGNORECASE)
SCHEDULE_AFTER = re.compile(r"^\s*(?:classes|class|show|shows|screening|service|services|meeting|lecture)\b", re.I)


def _near_words(sentence: str, t: TimeExpr, others) -> str:
    """The few words on either side of a time, up to the neighbouring times."""
    starts = [o.start for o in others if o is not t and o.start >= t.end]
    ends = [o.end for o in others if o is not t and o.end <= t.start]
    lo = max([max(0, t.start - 40)] + ends)
    hi = min([t.end + 40] + starts)
    return sentence[lo:t.start] + " " + sentence[t.end:hi]


def _moment(sentence: str, t: TimeExpr, cs: int, ce: int, others) -> str | None:
    """The moment a time is of: the words between it and the time before it in its clause
    ("officers were dispatched at 11:57 p.m."), else those up to the next time (a
    timeline's "9:39:00 — Officer X arrives"), else the rest of its clause."""
    starts = sorted(o.start for o in others if o is not t and o.start >= t.end)
    ends = sorted(o.end for o in others if o is not t and o.end <= t.start)
    before = sentence[max([cs] + ends):t.start]
    after = sentence[t.end:min([ce] + starts)]
    # else the rest of the clause after it, other times blanked ("At 12:46 a.m., eight
    # minutes after the initial 911 call, the suspect was in custody"): never words before
    # an earlier time, which are that time's.
    spans = [(o.start - t.end, o.end - t.end) for o in others if o is not t and o.start >= t.end]
    return event_kind(before) or event_kind(after) or event_kind(_without(sentence[t.end:ce], spans))


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    for s, e in spans:
        if 0 <= s < e <= len(text):
            text = text[:s] + " " * (e - s) + text[e:]
    return text


def _clause_end(sentence: str, t: TimeExpr, ce: int) -> int:
    """A timeline's "9:39:00 — Officer X arrives": the clause of the time is the one after
    its dash when nothing but the dash follows the time."""
    if sentence[t.end:ce].strip(" ,*") == "" and ce < len(sentence):
        return clause_bounds(sentence, ce + 1, ce + 1)[1]
    return ce


def _place_claim(doc, res, speakers, sent: Sentence, p: Place) -> Claim | None:
    start, end = sent.start + p.start, sent.start + p.end
    voice, quoted = speakers.who_said(start)
    cs, _ = clause_bounds(sent.text, p.verb_start, p.end)
    who, who_text = person_subject(doc, res, sent.start + cs, sent.start + p.verb_start, sent.start,
                                   voice.speaker, quoted)
    if who is None and GROUP_RE.search(sent.text, max(cs, p.verb_start - 40), p.verb_start):
        who, who_text = _group_subject(doc, res, sent, max(cs, p.verb_start - 40), p.verb_start, voice.speaker)
    if who is None:
        return None  # a place of no one in particular is no claim
    if not _responder(res, who, voice.speaker):
        return None  # where the responders were is weighed; the gunman's path or a victim's is not
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=p.text, sentence=sent.text, sentence_start=sent.start,
        speaker=voice.speaker, speaker_text=voice.text, subject=who, subject_text=who_text,
        measure="place_of_action", lo=None, hi=None, unit="place", hedge=None, quoted=quoted,
        value_text=p.text,
    )


def _responder(res, who: str, speaker: str | None) -> bool:
    """An officer, a head of agency, an agency or a group of officers; "I" of a statement."""
    if who.startswith("author:"):
        return True  # "I was near the gym": the writer of a statement
    if who.startswith(("org:", "group:")):
        return who not in {"group:sources", "group:reports", "group:witnesses", "group:survivors"}
    if who.startswith("person:"):
        fams = res.families(who)
        return bool(fams & {"officer", "head"}) or (who == speaker and not fams - {"officer", "head"})
    return False


def _action(sent: Sentence, t: TimeExpr, skip=()):
    """The verb a time belongs to; verbs inside another time phrase ("about an hour after
    the shooting began") belong to that phrase."""
    cs, ce = clause_bounds(sent.text, t.start, t.end)
    seen = {m.start(): m for m in ACTION_RE.finditer(sent.text)}
    for m in verbs_in(sent.text):
        seen.setdefault(m.start(), m)
    free = [m for _, m in sorted(seen.items()) if not any(s <= m.start() < e for s, e in skip)
            and not (t.start <= m.start() < t.end)]
    before = [m for m in free if cs <= m.start() and m.end() <= t.start]
    if before:
        return before[-1], True
    end = _clause_end(sent.text, t, ce)
    end = end if t.end < end else len(sent.text)
    after = [m for m in free if t.end <= m.start() < end]
    return (after[0], False) if after else None


def _shorter_anchor(t: TimeExpr) -> TimeExpr | None:
    anchor = t.ref["anchor"]
    cut = re.search(r"\s(?=(?!I\b)[A-Z][a-z])", anchor)
    if cut is None:
        return None
    new = anchor[:cut.start()]
    drop = len(anchor) - len(new)
    return TimeExpr(t.start, t.end - drop, t.text[:len(t.text) - drop], t.kind, t.lo, t.hi, t.unit, t.hedge,
                    {**t.ref, "anchor": new})


def _dedupe(claims: list[Claim]) -> list[Claim]:
    """'for five minutes, for five minutes' is one claim said twice."""
    seen, out = set(), []
    for c in claims:
        key = (c.speaker, c.subject, c.measure, c.qualifier, c.lo, c.hi, c.unit, c.value_text)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
