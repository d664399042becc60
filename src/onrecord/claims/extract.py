"""Free text -> attributed claims.

For every sentence: find numbers (numbers.py) and times (times.py), decide what each
measures (measures.py), who it is about (subjects.py) and who says it (speakers.py).
A number that measures nothing known ("in 2016", "one way") is left out on purpose:
a claim must be something an after-action review can weigh.
"""

from __future__ import annotations

import hashlib
import re

from onrecord.claims import provenance
from onrecord.claims.ages import find_ages
from onrecord.claims.assertions import Said, during_shots, find_assertions, first_minutes
from onrecord.claims.conflicts import find_conflicts, group_claims
from onrecord.claims.incidents import group_documents
from onrecord.claims.measures import (
    DURATION_RE,
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
from onrecord.claims.revisions import (
    AS_SAID,
    FIRST_REPORTED,
    denied_at,
    denied_plainly,
    denied_times,
    revised_at,
    revision_claim,
)
from onrecord.claims.speakers import Speakers, find_speakers
from onrecord.claims.subjects import (
    GROUP_RE,
    INCIDENT,
    _candidates,
    agency_kind_of,
    group_id,
    group_subject,
    near_person,
    org_subject,
    person_subject,
    recent_agency,
)
from onrecord.claims.text import Document, Sentence, read_document
from onrecord.claims.time_claims import (
    APPROXIMATE,
    approximate_time,
    day_part,
    nearest_half,
    share_apposed_moment,
    stay_before,
    time_claim,
)
from onrecord.claims.times_in_text import calendar_dates, clock_times, offsets, with_day_half
from onrecord.claims.voices import Voice
from onrecord.model import Claim


def extract_claims(text: str, doc_id: str) -> list[Claim]:
    """Claims of one document, its people resolved within it alone."""
    return analyse({doc_id: text}).claims


def analyse(texts: dict[str, str], one_incident: bool = False, parse: bool | str = False,
            parse_speakers: bool | None = None) -> Analysis:
    """Claims, entities and conflicts across several documents (doc id -> text). The
    documents are grouped by incident and compared only within each, unless the caller
    knows they are all about one (a case: `one_incident=True`). `parse=True` reads the
    measure of a number the rules leave unread from the dependency parse of its sentence
    (structure.py; needs the `parse` extra, and says so when it is missing), and lets it decide
    an amount of time before the rules do. `parse="first"` lets the parse decide every number
    it can read, the rules only the rest (a measurement mode of benchmarks/claims_real.py
    --parse-first, not adopted: see docs/claims.md).

    Who says each claim is decided from the sentence's structure (attribution.py) whenever the
    English pipeline is installed, with or without `parse`: `parse_speakers=None` (the default)
    uses it when present and the rules alone otherwise; True requires it, False keeps to the rules
    (a measurement: benchmarks/claims_real.py --rule-speakers)."""
    from onrecord.claims.grammar import available, require

    if parse or parse_speakers:
        require()
    by_structure = bool(parse) or (available() if parse_speakers is None else parse_speakers)
    docs = [read_document(doc_id, text) for doc_id, text in texts.items()]
    res = resolve_entities(docs)
    claims: list[Claim] = []
    for doc in docs:
        claims.extend(claims_in(doc, res, find_speakers(doc, res, by_structure), parse))
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


def claims_in(doc: Document, res: Resolution, speakers: Speakers, parse: bool | str = False) -> list[Claim]:
    out: list[Claim] = []
    halves = [(sent.start + t.start, t.ampm, t.lo if t.lo is not None else t.hi) for sent in doc.sentences
              for t in clock_times(sent.text) if t.ampm in {"am", "pm"}]
    approximate = APPROXIMATE.search(doc.text) is not None
    for sent in doc.sentences:
        dates = calendar_dates(sent.text)
        clocks = [approximate_time(t) if approximate else t for t in clock_times(sent.text)]
        clocks = [with_day_half(t, day_part(sent.text, t)
                                or nearest_half(halves, sent.start + t.start, (t.ref or {}).get("clock")))
                  for t in clocks]
        # "shortly after 10," in a piece that never says a.m. or p.m.: no time can be told
        clocks = [t for t in clocks if not (t.bare and t.ampm is None)]
        times = clocks + [t for t in offsets(sent.text) if not stay_before(sent.text, t)]
        timed = [(c, t) for t in times if (c := time_claim(doc, res, speakers, sent, t, times))]
        found = [c for c, _ in timed]
        made = {id(c): f"time_claims/{t.kind}" for c, t in timed}  # which rule made each claim (provenance.py)
        share_apposed_moment(found, sent.start, sent.text)
        for c in found:
            _told_when(doc, speakers, c)
        found += [c for p in find_places(sent.text) if (c := _place_claim(doc, res, speakers, sent, p))]
        made.update((id(c), "places") for c in found if id(c) not in made)
        found += [c for s in find_assertions(sent.text) if (c := _said_claim(doc, res, speakers, sent, s))]
        made.update((id(c), f"assertions/{c.measure}") for c in found if id(c) not in made)
        ages = find_ages(sent.text)
        found += [_age_claim(doc, speakers, sent, a) for a in ages]
        made.update((id(c), "ages") for c in found if id(c) not in made)
        previous: Reading | None = None
        for q in find_quantities(sent.text):
            if any(t.start <= q.start < t.end and (t.kind == "clock" or q.start == t.start) for t in times):
                continue
            if any(a.start <= q.start < a.end for a in ages):
                continue
            if denied_plainly(sent.text, q.start, _unit_end(sent.text, q.end)):
                continue  # "not four minutes but 48 minutes": the four is no one's account
            if revised_at(sent.text, q.start) or denied_at(sent.text, q.start):
                since = (doc.paragraphs[max(0, sent.paragraph - 1)].start if revised_at(sent.text, q.start)
                         else sent.start)  # "19, not 11": the value just given in this sentence
                revised = revision_claim(q, sent.text, [c for c in out + found if c.start >= since],
                                         _revision_maker(doc, speakers, sent, q))
                if revised is not None:
                    found.append(revised)
                    made[id(revised)] = "revisions"
                    continue
            reading = _read(sent, q, doc.paragraphs[sent.paragraph].text, previous, parse)
            if reading is None:
                continue
            previous = reading
            found.append(_claim(doc, res, speakers, sent, q, reading))
            made[id(found[-1])] = reading.rule
        denied_times(found, sent.text, sent.start, lambda at: _as_said(speakers, sent, at))
        for c in found:
            if dates and c.time_ref is None:
                c.time_ref = {"dates": [{"text": d["text"], "date": d["date"]} for d in dates]}
        found = [c for c in found if not TALLY.search(sent.text[:c.start - sent.start])]
        _limit_to_window(sent.text, found)
        _mark_other_incident(sent, found)
        kept = _dedupe(found)
        if provenance.TRACING:
            provenance.note(kept, made, speakers)
        out.extend(kept)
    for i, c in enumerate(out, 1):
        c.id = f"{doc.id}#c{i}"
        _name_anchor(c)
    return out


def _unit_end(sentence: str, end: int) -> int:
    """Where a number's unit word ends ("four minutes"), for what follows it."""
    m = re.match(r"\s*(?:seconds?|minutes?|hours?|officers?|deputies|people|calls|shots|rounds)\b", sentence[end:])
    return end + (m.end() if m else 0)


def _as_said(speakers: Speakers, sent: Sentence, at: int):
    """The voice of the reporting clause just after `at` ("..., not 11:40 as officials had said")."""
    near = [a for a in speakers.attributions if at <= a.start <= min(at + 60, sent.end) and a.voice.speaker]
    return near[0].voice if near else None


def _revision_maker(doc, speakers, sent: Sentence, q):
    """Builds the claim of a revised figure (revisions.py) with the number's own span,
    hedge and speaker, its value converted to the unit of the claim it revises."""
    def make(measure, unit, end, subject, subject_text, qualifier, ref, noun):
        start = sent.start + q.start
        voice, quoted = speakers.who_said(start)
        if FIRST_REPORTED.match(sent.text[end:]):
            voice = Voice(None, FIRST_REPORTED.match(sent.text[end:]).group(0).strip())
        elif AS_SAID.match(sent.text[end:]) and (said := _as_said(speakers, sent, sent.start + end)) is not None:
            voice = said  # "19, not 11 as he had said on Tuesday": the denied value is his earlier one
        lo, hi = to_unit(Reading(measure, unit, end, "incident", noun.group(0).strip() if noun else None), q)
        return Claim(
            id="", doc=doc.id, start=start, end=sent.start + end, text=doc.text[start:sent.start + end],
            sentence=sent.text, sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text,
            subject=subject, subject_text=subject_text, measure=measure, lo=lo, hi=hi, unit=unit,
            hedge=q.hedge, quoted=quoted, of_total=q.of_total, qualifier=qualifier,
            time_ref={**(ref or {}), "revises": True},
        )
    return make


def _name_anchor(c: Claim) -> None:
    """'10 minutes after the shooting began' and '12 minutes after the first shots' count from
    one moment: the anchor's moment (verbs.py's events) goes in time_ref.anchor_event, which
    grouping keys on, so the two are compared."""
    from onrecord.claims.same_fact import anchor_event

    anchor = (c.time_ref or {}).get("anchor")
    if anchor and c.measure != "shots_after_arrival" and (kind := anchor_event(anchor)) is not None:
        c.time_ref["anchor_event"] = kind


MONTH_WORDS = "January|February|March|April|May|June|July|August|September|October|November|December"
# "the 2016 attack at an LGBTQ nightclub in Orlando ... killed 49", "the May attack in Uvalde,
# Texas, left 21 dead": figures of another incident, quoted for comparison.
OTHER_INCIDENT = re.compile(
    rf"\b(?:the|a|last year's)\s+(?:(?:19|20)\d{{2}}|{MONTH_WORDS}|previous|earlier)\s+(?:[\w-]+\s+){{0,3}}?"
    rf"(?:attack|shooting|massacre|rampage|mass shooting)\s+(?:at|in|on)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,3}}?[A-Z]"
    r"|\breminiscent of\b|\bdeadliest since\b", re.IGNORECASE)
# "the 19th shooting at a school this year in which at least one person was wounded": a tally of
# incidents, a general statistic whose figures are of all of them, not a claim about this one
TALLY = re.compile(r"\bthe\s+\d+(?:st|nd|rd|th)\s+(?:[\w-]+\s+){0,2}(?:shooting|attack|incident)\b"
                   r"[^.;]{0,80}?\b(?:in which|where|with)\s+$", re.IGNORECASE)


def _mark_other_incident(sent: Sentence, found: list[Claim]) -> None:
    """A claim after a mention of another incident in its sentence is about that one: kept,
    but grouped apart and never compared with this incident's claims."""
    m = OTHER_INCIDENT.search(sent.text)
    if m is None:
        return
    for c in found:
        if c.start - sent.start >= m.start():
            c.time_ref = {**(c.time_ref or {}), "other_incident": m.group(0)}


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
    if s.measure == "camera_view_live" or (s.measure == "order_given" and s.who_start is None):
        who, who_text = INCIDENT, None  # a camera's view; an order no one is named as giving
    elif s.who_start is not None:
        who, who_text = person_subject(doc, res, sent.start + s.who_start, sent.start + s.who_end, sent.start,
                                       voice.speaker, quoted)
        if who is None and s.measure == "shots_after_arrival":
            # "by the time police arrived": the officers whose arrival it is (their agency if named)
            who, who_text = group_subject(doc, res, sent, s.who_start, s.who_end, voice.speaker)
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


def _read(sent: Sentence, q, context: str, previous: Reading | None, parse: bool | str = False) -> Reading | None:
    if q.money:
        return read_money(sent.text, q.start, q.end)
    # With the parse, the structure decides an amount of time first: the rules' duration branches
    # are the least general of the reader (most are right in one development incident only,
    # benchmarks/claims_real.py --rules), and on the development articles the parse reads every
    # duration they read, as they read it. Counts stay with the rules first: the parse deciding
    # them lost recall there. `parse="first"` (a measurement) lets it decide counts too.
    if parse and read_age(sent.text, q.start, q.end) is None \
            and (parse == "first" or q.unit or DURATION_RE.match(sent.text[q.end:])):
        from onrecord.claims.structure import structural_reading

        if (found := structural_reading(sent.text, q.start, q.end, context, q.unit)) is not None:
            return found
    if q.unit:
        found = read_duration(sent.text, q.start, q.end, context, q.unit)
    else:
        found = (read_age(sent.text, q.start, q.end) or read_duration(sent.text, q.start, q.end, context)
                 or read_count(sent.text, q.start, q.end, previous))
    if found is None and parse:
        from onrecord.claims.structure import structural_reading

        found = structural_reading(sent.text, q.start, q.end, context, q.unit)
    return found


def _claim(doc, res, speakers, sent: Sentence, q, reading: Reading) -> Claim:
    start, end = sent.start + q.start, sent.start + reading.end
    voice, quoted = speakers.who_said(start)
    if reading.measure == "age" and not quoted:
        said = speakers.attribution_at(start)
        if said is not None and not said.whole and not re.search(r"\bidentif", sent.text):
            voice = speakers.author  # "X said the suspect, a 21-year-old man, ...": the reporter's identification
    if reading.unit == "people" and not quoted and TOLL_CLAUSE.search(sent.text[:q.start]):
        said = speakers.attribution_at(start)
        if said is not None and not said.whole:
            # "X said ... the rampage that resulted in 17 deaths": the toll is the reporter's
            # description of the incident, not part of what X said
            voice = speakers.author
    # "He said the commander waited 77 minutes": who waited is named after the reporting verb
    said = [a.end - sent.start for a in speakers.attributions if sent.start <= a.start and a.end <= start]
    subject, subject_text = _subject(doc, res, sent, q.start, reading, voice.speaker, quoted,
                                     max(said) if said and not quoted else 0)
    lo, hi = to_unit(reading, q)
    ref = None
    if reading.measure in {"duration_to_arrival", "duration_to_entry", "duration_elapsed"}:
        # "arrive at the scene within two minutes of the initial call": the delay's start
        a = DELAY_ANCHOR.match(sent.text[reading.end:])
        ref = {"anchor": a.group("anchor").strip(), "relation": "after"} if a else None
    qualifier = reading.qualifier
    if reading.measure == "duration_to_entry" and qualifier is None and ROOM_ENTERED.search(sent.text):
        # going into the building and into the room the gunman held are two delays, never one
        qualifier = "into the room"
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text,
        subject=subject, subject_text=subject_text, measure=reading.measure, lo=lo, hi=hi,
        unit=reading.unit, hedge=q.hedge, quoted=quoted, of_total=q.of_total, qualifier=qualifier,
        time_ref=ref,
    )


ROOM_ENTERED = re.compile(r"\b(?:(?:class)?rooms?|suite|apartment|bathroom|office|closet|stairwell|library)\b",
                          re.IGNORECASE)


# An incident noun with a relative clause that gives its toll: "the massacre that left", "the shooting,
# which killed"
TOLL_CLAUSE = re.compile(r"\b(?:shooting|massacre|rampage|attack|shootings|tragedy)\b[^;:“”\"]{0,60}?"
                         r"\b(?:that|which)\s+(?:has\s+|had\s+)?(?:left|killed|claimed|resulted in|took|ended)\b"
                         r"[^;:“”\"]{0,30}$",
                         re.IGNORECASE)
# '"...," an officer said at 12:47 a.m.': when something was said is told by the narrator
SAID_AT = re.compile(r"\b(?:said|says|told|added|radioed|reported|wrote|asked|yelled|shouted)\s+"
                     r"(?:(?:at|around|about|shortly after|just after|just before|by)\s+)?$", re.IGNORECASE)


def _told_when(doc: Document, speakers: Speakers, c: Claim) -> None:
    if c.measure == "time_of_action" and not c.quoted and SAID_AT.search(doc.text[c.sentence_start:c.start]):
        c.speaker, c.speaker_text = speakers.author.speaker, speakers.author.text


DELAY_ANCHOR = re.compile(r"^\s*(?:of|after|from|since)\s+"
                          r"(?P<anchor>(?:the|a|an|this|that|his|her|their)\s+[^,.;:—–\"“”]+"
                          r"|[a-z]+ing\b[^,.;:—–\"“”]*)",
                          re.IGNORECASE)


def _subject(doc, res, sent, rel_start, reading, speaker, quoted, floor: int = 0):
    """Who a number is about; `floor` (sentence-relative) is where the words after the last
    reporting verb before the number begin: its subject is never the speaker before them."""
    if reading.subject_kind == "incident":
        return INCIDENT, None
    abs_q = sent.start + rel_start
    if reading.subject_kind == "org":
        found = org_subject(doc, res, abs_q, sent.start + reading.end, sent.start, sent.end, speaker,
                            agency_kind_of(sent.text[rel_start:reading.end]))
        if found[0] is None and reading.noun:
            recent = recent_agency(doc, res, abs_q, agency_kind_of(sent.text[rel_start:reading.end]) or "police")
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
    cs = max(cs, floor)
    if reading.subject_kind == "actor_after":
        m = GROUP_RE.search(sent.text, reading.end, ce)
        if m:
            return group_subject(doc, res, sent, cs, m.end(), speaker)
        return person_subject(doc, res, sent.start + reading.end, sent.start + ce, sent.start + reading.end,
                              speaker, quoted)
    group = GROUP_RE.search(sent.text, cs, rel_start) and list(GROUP_RE.finditer(sent.text, cs, rel_start))[-1]
    people = _candidates(doc, res, sent.start + cs, abs_q)
    if group and group.group(0).lower() != "we" and (not people or sent.start + group.start() > people[-1][0]):
        return group_subject(doc, res, sent, cs, rel_start, speaker)  # "nearly 20 officers waited ..."
    found = person_subject(doc, res, sent.start + cs, abs_q, sent.start + floor, speaker, quoted)
    if found[0] is None:
        found = group_subject(doc, res, sent, cs, rel_start, speaker)
    if found[0] is None and reading.measure in {"duration_waiting", "duration_outside", "duration_to_arrival",
                                                "duration_to_entry"}:
        # "he said the wait was actually 77 minutes": the response's wait, named by no actor,
        # is that of the police named just before (so it meets the first account of it)
        recent = recent_agency(doc, res, abs_q, "police")
        if recent is not None:
            return recent.entity, recent.text
    return found


def _place_claim(doc, res, speakers, sent: Sentence, p: Place) -> Claim | None:
    start, end = sent.start + p.start, sent.start + p.end
    voice, quoted = speakers.who_said(start)
    cs, _ = clause_bounds(sent.text, p.verb_start, p.end)
    # "Renner ..., saying the gunman entered through a door": who went there is named after the
    # reporting verb, never the speaker before it
    said = [min(a.end - sent.start, p.start) for a in speakers.attributions
            if sent.start <= a.start <= sent.start + p.verb_start] if not quoted else []
    floor = max(said) if said else 0
    verb = max(p.verb_start, floor)
    who, who_text = person_subject(doc, res, sent.start + max(cs, floor), sent.start + verb,
                                   sent.start + floor, voice.speaker, quoted)
    # "Police said they arrived ... and took him into custody inside the nightclub": the group
    # that "they" stands for, named earlier in the clause
    lo = max(cs, p.verb_start - (100 if re.search(r"\bthey\b", sent.text[cs:p.verb_start], re.I) else 40))
    if who is None and GROUP_RE.search(sent.text, lo, p.verb_start):
        who, who_text = group_subject(doc, res, sent, lo, p.verb_start, voice.speaker)
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


def _dedupe(claims: list[Claim]) -> list[Claim]:
    """'for five minutes, for five minutes' is one claim said twice."""
    seen, out = set(), []
    for c in claims:
        key = (c.speaker, c.subject, c.measure, c.qualifier, c.lo, c.hi, c.unit, c.value_text)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
