"""Which documents are about one incident, so a run over several compares only within each.

Two documents are about one incident when they name the same person (an official known
to the whole country, a president or a governor, does not count), or share two of: a local
agency (a county's sheriff, a town's police; not a federal or state one) and proper names
that are neither an agency's nor a news organisation's words ("Sutherland Springs",
"First Baptist"), or share one proper name and one surname, or one local agency and one
capitalised name word inside a sentence ("Century", of the Century 16 theater). Documents joined that way,
directly or through a third, form one incident; a document that shares nothing stands
alone. Words of any shooting's coverage, capitalised in a headline ("Mass Shooting", "Active
Shooter", "Gunman Killed"), are no name: two articles on two shootings share them; nor is a
word capitalised only because its line is a Title Case headline. The incident
is named by the names its documents share most.
"""

from __future__ import annotations

import re
from collections import Counter

from onrecord.claims.named_entities import Resolution
from onrecord.claims.text import Document

# Capitalised words that many unrelated articles share: not evidence of one incident.
COMMON = {"police", "department", "sheriff", "county", "office", "state", "news", "press", "associated",
          "united", "states", "city", "new", "york", "times", "post", "the", "a", "an", "in", "on", "at",
          "he", "she", "it", "they", "we", "i", "but", "and", "after", "before", "when", "federal", "bureau",
          "investigation", "fbi", "national", "school", "high", "elementary", "university", "public",
          "safety", "justice", "chief", "officer", "deputy", "mr", "mrs", "ms", "dr", "monday", "tuesday",
          "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april",
          "may", "june", "july", "august", "september", "october", "november", "december", "cnn", "abc",
          "nbc", "cbs", "fox", "usa", "today", "america", "american", "white", "house", "here", "what",
          "read", "more", "related", "photo", "video", "getty", "images", "ap", "reuters", "this", "that",
          # words of any shooting's coverage, capitalised in headlines ("Mass Shooting", "Gunman
          # Killed", "Breaking News"): every such article shares them, whatever its incident
          "mass", "shooting", "shootings", "shooter", "shooters", "active", "gunman", "gunmen", "gunfire",
          "suspect", "suspects", "attack", "attacks", "massacre", "rampage", "victim", "victims", "wounded",
          "injured", "killed", "dead", "deaths", "died", "shot", "shots", "fired", "gun", "guns", "violence",
          "breaking", "update", "updates", "live", "latest", "timeline", "emergency", "alert", "alerts",
          "responders", "first", "lockdown", "campus", "students", "student", "witnesses", "survivors"}
# People every outlet names whatever the incident: a president, a governor, a senator.
NATIONAL = {"official"}
# overlapping, so "At Thistlewood Mall" still yields "Thistlewood Mall"
PAIR_RE = re.compile(r"\b(?=([A-Z][a-z’'-]+)\s+([A-Z][a-z’'-]+|[A-Z]\b))")


# Words that make a pair no name at all ("At Thistlewood", "Chief Vale" is a name, "Police
# Chief" is not): function words, days, months, outlets' and titles' words.
FUNCTION = {"the", "a", "an", "in", "on", "at", "he", "she", "it", "they", "we", "i", "but", "and", "after",
            "before", "when", "this", "that", "here", "what", "read", "more", "related", "photo", "video",
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
            "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december", "cnn", "abc", "nbc", "cbs", "fox", "ap", "reuters", "getty", "images",
            "news", "press", "associated", "times", "post", "today", "mr", "mrs", "ms", "dr", "director",
            "president", "governor", "gov", "sen", "senator", "rep", "attorney", "general", "secretary",
            # agencies' words and titles: "County Sheriff's", "Springs Police", "Chief John"
            "sheriff's", "sheriff’s", "sheriff", "police", "department", "office", "fire", "chief", "officer",
            "deputy", "sergeant", "sgt", "lt", "lieutenant", "captain", "capt", "mayor", "commissioner",
            "medical", "center", "health", "hospital", "university", "system"}


def proper_pairs(text: str) -> set[str]:
    """Two capitalised words in a row that name something ("Sutherland Springs",
    "Thistlewood School"), not when both are everyday words ("Police Department") or one is
    a function word, a day, a month, an outlet's or a national title's word."""
    out = set()
    for m in PAIR_RE.finditer(text):
        a, b = m.group(1), m.group(2)
        if a.lower() in FUNCTION or b.lower() in FUNCTION or (a.lower() in COMMON and b.lower() in COMMON):
            continue
        out.add(f"{a} {b}")
    return out


WORD_RE = re.compile(r"(?<=[a-z,;:]\s)([A-Z][a-z]{3,})\b")


SEGMENT_RE = re.compile(r"[^\n.!?]+")
TITLE_WORD_RE = re.compile(r"\b[A-Za-z][a-z’'-]{3,}\b")


def _title_case(segment: str) -> bool:
    """A headline written in Title Case ("Gunman Leaves Three Wounded"): every word is
    capitalised there, so a capital says nothing of a name."""
    words = TITLE_WORD_RE.findall(segment)
    return len(words) >= 3 and sum(w[0].isupper() for w in words) >= 0.6 * len(words)


def name_words(text: str, places: set[str]) -> set[str]:
    """Capitalised words inside sentences ("at the Century 16 theater") that are neither
    everyday nor function words nor the place words of an agency: a name of the scene.
    Not from a Title Case headline, where every word is capitalised."""
    body = " ".join(seg for seg in SEGMENT_RE.findall(text) if not _title_case(seg))
    return {w for w in WORD_RE.findall(body) if w.lower() not in COMMON and w.lower() not in FUNCTION
            and w not in places}


def group_documents(docs: list[Document], res: Resolution) -> list[dict]:
    """[{"id": "incident-1", "documents": [...], "named_by": [...]}], in document order."""
    people = {d.id: {m.entity for m in res.mentions.get(d.id, []) if m.kind == "person" and m.entity
                     and not (res.families(m.entity) & NATIONAL)} for d in docs}
    # a local agency (a county's sheriff, a town's police) is where the incident happened
    local = {d.id: {m.entity for m in res.mentions.get(d.id, []) if m.kind == "org" and m.entity
                    and m.agency not in {"federal", "state"}} for d in docs}
    pairs = {d.id: proper_pairs(d.text) for d in docs}
    # a surname both name beside one shared proper name ("Colorado Springs" and "Aldrich")
    surnames = {d.id: {m.last for m in res.mentions.get(d.id, []) if m.kind == "person" and m.last
                       and len(m.last) >= 5} for d in docs}
    # a local agency's place ("Aurora" of the Aurora police) says nothing more than the agency
    places = {w for ms in res.mentions.values() for m in ms if m.kind == "org" and m.place for w in m.place.split()}
    words = {d.id: name_words(d.text, places) for d in docs}
    parent = {d.id: d.id for d in docs}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, a in enumerate(docs):
        for b in docs[i + 1:]:
            shared = len(pairs[a.id] & pairs[b.id]) + len(local[a.id] & local[b.id])
            if people[a.id] & people[b.id] or shared >= 2 \
                    or (pairs[a.id] & pairs[b.id] and surnames[a.id] & surnames[b.id]) \
                    or (local[a.id] & local[b.id] and words[a.id] & words[b.id]):
                # the last: one town's police and a name of the scene ("the Century 16 theater")
                parent[root(b.id)] = root(a.id)
    groups: dict[str, list[str]] = {}
    for d in docs:
        groups.setdefault(root(d.id), []).append(d.id)
    out = []
    for n, members in enumerate(groups.values(), 1):
        shared = Counter(p for doc_id in members for p in pairs[doc_id])
        named = [p for p, c in shared.most_common(3) if c > 1 or len(members) == 1]
        out.append({"id": f"incident-{n}", "documents": members, "named_by": named})
    return out
