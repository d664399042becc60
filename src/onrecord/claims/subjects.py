"""Who or what a claim is about.

A count of officers is about an agency ("four Broward County Sheriff's deputies"); a
count of victims or calls is about the incident itself; a duration, an age or a time is
about a person, found as the nearest person, description or pronoun before the number in
its clause. "he" goes to the person most talked about in the last few paragraphs, never
to the one speaking (who would say "I").
"""

from __future__ import annotations

import re

from onrecord.claims.named_entities import ANONYMOUS, Resolution
from onrecord.claims.records import Entity, Mention
from onrecord.claims.text import Document

INCIDENT = "incident"
PRONOUN_RE = re.compile(r"\b(I|[Mm]e|[Ww]e|[Hh]e|[Ss]he|[Hh]im|[Hh]er)\b")
COPULA_RE = re.compile(r"\b(?:be|been|is|was|are|were|am|as|become|became|being)\s*$", re.IGNORECASE)
LOOKBACK_SENTENCES = 8


def antecedent(doc: Document, res: Resolution, before: int, exclude: str | None) -> Mention | None:
    """Who "he" is: walking back sentence by sentence, the first person named in the
    nearest sentence that names anyone (the speaker excluded). Sentence subjects come
    first in English, and the subject of the last sentence is what "he" most often means."""
    sentences = [s for s in doc.sentences if s.start < before][-LOOKBACK_SENTENCES:]
    if not sentences:
        return None
    people = [m for m in res.between(doc.id, sentences[0].start, before) if m.entity
              and m.entity.startswith("person:") and m.entity != exclude]
    for sent in reversed(sentences):
        here = [m for m in people if sent.start <= m.start < min(sent.end, before)]
        if here:
            return here[0]
    return None


def person_subject(doc: Document, res: Resolution, lo: int, hi: int, sentence_start: int,
                   speaker: str | None, quoted: bool) -> tuple[str | None, str | None]:
    """Nearest person-like words in doc.text[lo:hi] (clause, then the whole sentence)."""
    for start in (lo, sentence_start):
        found = _candidates(doc, res, start, hi)
        if found:
            pos, entity, text = found[-1]
            if text in {"I", "me", "Me", "we", "We"}:
                return speaker, text  # the quoted speaker, or the author of the document
            if entity is None:  # he / she / him / her
                m = antecedent(doc, res, pos, speaker if quoted else None) or _named_later(
                    doc, res, pos, speaker)
                return (m.entity, f"{text} ({m.text})") if m else (None, text)
            return entity, text
    return None, None


def _candidates(doc, res, lo, hi):
    out = []
    for m in res.between(doc.id, lo, hi):
        if m.kind == "description" and not m.entity and ANONYMOUS.match(m.text):
            # "the first deputy arrived": someone not named, who still stands nearer the verb
            # than the person who tells it
            words = re.sub(r"^the\s+", "", m.text.strip(), flags=re.IGNORECASE)
            tid = "thing:" + re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")
            res.entities.setdefault(tid, Entity(tid, "thing", words))
            out.append((m.start, tid, m.text))
            continue
        if m.kind in {"person", "description"} and m.entity:
            if m.kind == "description" and COPULA_RE.search(doc.text[max(0, m.start - 12):m.start]):
                continue  # "I've been a police officer": says what, not who
            out.append((m.start, m.entity, m.text))
    for p in PRONOUN_RE.finditer(doc.text, lo, hi):
        if not any(s <= p.start() < s + len(t) for s, _, t in out):
            out.append((p.start(), None, p.group(1)))
    return sorted(out)


def near_person(doc: Document, res: Resolution, lo: int, hi: int, last: bool) -> tuple[str | None, str | None]:
    found = [m for m in res.between(doc.id, lo, hi) if m.kind == "person" and m.entity]
    if not found:
        return None, None
    m = found[-1] if last else found[0]
    return m.entity, m.text


def org_subject(doc: Document, res: Resolution, q_start: int, noun_end: int, sent_start: int,
                sent_end: int, speaker: str | None, kind: str | None = None) -> tuple[str | None, str | None]:
    """The agency officers counted belong to: named in their phrase, else the nearest in the
    sentence of the kind their words say ("sheriff's deputies" are never a police
    department's), else the speaker's."""
    ms = [m for m in res.between(doc.id, sent_start, sent_end) if m.entity]
    if kind is not None and not any(q_start <= m.start < noun_end for m in ms):
        ms = [m for m in ms if m.kind != "org" or (m.agency or kind) == kind]
    inside = [m for m in ms if q_start <= m.start < noun_end and m.kind in {"org", "group"}]
    if inside:
        return inside[0].entity, inside[0].text
    before = [m for m in ms if m.end <= q_start]
    after = [m for m in ms if m.start >= noun_end]
    for m in [*reversed(before), *after]:
        org = _org_of(res, m.entity)
        if org:
            return org, m.text
    org = _org_of(res, speaker) if speaker else None
    return (org, res.entities[org].name) if org else (None, None)


def _org_of(res: Resolution, entity_id: str | None) -> str | None:
    e = res.entities.get(entity_id or "")
    if e is None:
        return None
    return e.id if e.kind == "org" else e.org


def _named_later(doc: Document, res: Resolution, pos: int, speaker: str | None) -> Mention | None:
    """'"He stayed at that door," said Brandt, referring to Sgt. Dana Hale': named after."""
    sent = doc.sentence_at(pos)
    later = [m for m in res.between(doc.id, pos + 1, sent.end) if m.entity
             and m.entity.startswith("person:") and m.entity != speaker]
    return later[0] if later else None


GROUP_RE = re.compile(r"\b(?:officers|deputies|cops|troopers|units|we|(?:police|law enforcement)"
                      r"(?!\s+(?:officers?|department|chief|station|cars?|force|reports?|lines?|tape|academy|"
                      r"response|radio|union|agency|agencies)\b))\b", re.IGNORECASE)


def group_subject(doc, res, sent, cs, rel_start, speaker):
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
    recent = recent_agency(doc, res, sent.start + m.start(), "sheriff" if gid == "group:deputies" else "police")
    if recent is not None:
        return recent.entity, f"{m.group(0)} ({recent.text})"
    res.entities.setdefault(gid, Entity(gid, "group", gid.split(":")[1]))
    return gid, m.group(0)


def agency_kind_of(phrase: str) -> str | None:
    """'three sheriff's deputies' are a sheriff's office's; 'police officers' a police department's."""
    if re.search(r"\b(?:sheriff|deput)", phrase, re.IGNORECASE):
        return "sheriff"
    if re.search(r"\b(?:police|officers?|cops?|patrol)", phrase, re.IGNORECASE):
        return "police"
    return None


def recent_agency(doc, res, pos: int, kind: str):
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
