"""Who is who across documents: mentions become entities.

Rules, in order (docs/claims.md explains them for users):
- Two full names are one person when the surnames match (exactly, or as a close
  misspelling: rapidfuzz ratio >= 88) AND the first names are compatible (equal, a close
  spelling such as Scot/Scott, or a known short form such as Mike/Michael). A shared
  first name alone never merges: "Scot Peterson" and "Scott Israel" stay apart.
- A surname alone ("Israel", "Putstizzi") joins the person with that surname; titles do
  not block it, so a wrong title for the same person still resolves.
- A bare description ("the deputy", "Broward's top cop") is resolved to the nearest person
  of the same role family in the document (and place, when it names one).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from onrecord.claims.mentions import (
    agencies,
    all_people,
    certain_people,
    descriptions,
    known_name_parts,
)
from onrecord.claims.records import Entity, Mention
from onrecord.claims.roles import agency_of, family_of
from onrecord.claims.text import Document

SHORT_FORMS = [
    {"michael", "mike", "mick"}, {"robert", "rob", "bob", "bobby"}, {"william", "bill", "will"},
    {"james", "jim", "jimmy"}, {"thomas", "tom"}, {"nicholas", "nikolas", "nick", "nik"},
    {"anthony", "tony"}, {"david", "dave"}, {"joseph", "joe"}, {"christopher", "chris"},
    {"daniel", "dan", "danny"}, {"matthew", "matt"}, {"steven", "stephen", "steve"},
    {"katherine", "catherine", "kate", "kathy", "cathy"}, {"elizabeth", "liz", "beth"},
    {"richard", "rick", "dick", "rich"}, {"edward", "ed", "eddie"}, {"jennifer", "jen"},
]
AGENCY_LABEL = {"police": "Police Department", "sheriff": "Sheriff's Office",
                "fire": "Fire Department", "school": "School District", "state": "State Police",
                "coroner": "Coroner's Office", "examiner": "Medical Examiner's Office"}


@dataclass
class Resolution:
    entities: dict[str, Entity]
    mentions: dict[str, list[Mention]] = field(default_factory=dict)  # per doc, by start
    _families: dict[str, set[str]] = field(default_factory=dict)
    _starts: dict[str, list[int]] = field(default_factory=dict)

    def families(self, entity_id: str) -> set[str]:
        if entity_id not in self._families:  # roles are fixed once people are clustered
            self._families[entity_id] = {family_of(r) for r in self.entities[entity_id].roles} - {None}
        return self._families[entity_id]

    def between(self, doc_id: str, lo: int, hi: int) -> list[Mention]:
        """Mentions of a document that start in [lo, hi), by position."""
        ms = self.mentions.get(doc_id, [])
        starts = self._starts.get(doc_id)
        if starts is None or len(starts) != len(ms):
            starts = self._starts[doc_id] = [m.start for m in ms]
        return ms[bisect_left(starts, lo):bisect_left(starts, hi)]


def same_surname(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    return a == b or (a[0] == b[0] and min(len(a), len(b)) >= 5 and fuzz.ratio(a, b) >= 88)


def near_surname(a: str, b: str) -> bool:
    """One letter apart (Vance/Vanse): only trusted when the first names agree too."""
    from rapidfuzz.distance import Levenshtein

    return min(len(a), len(b)) >= 4 and a[0].lower() == b[0].lower() and Levenshtein.distance(a.lower(), b.lower()) <= 1


def compatible_first(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return True
    a, b = a.lower(), b.lower()
    if a == b or any(a in s and b in s for s in SHORT_FORMS):
        return True
    # Scot/Scott, Nicolas/Nikolas: one letter apart, same start.
    return a[0] == b[0] and fuzz.ratio(a, b) >= 80


def place_key(place: str | None) -> str | None:
    if not place:
        return None
    words = [w for w in re.findall(r"[A-Za-z]+", place.lower()) if w not in {"county", "city", "of", "fl"}]
    return " ".join(words) or None


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def resolve_entities(docs: list[Document] | dict[str, str]) -> Resolution:
    """Find every mention in every document and group them into entities.
    `docs` is a list of read documents, or a dict of document id -> text."""
    if isinstance(docs, dict):
        from onrecord.claims.text import read_document

        docs = [read_document(doc_id, text) for doc_id, text in docs.items()]
    firsts_pass = [m for d in docs for m in certain_people(d)]
    firsts_pass = _trim_overlong(firsts_pass)
    lasts, firsts = known_name_parts(firsts_pass)
    res = Resolution({})
    orgs_all = {d.id: agencies(d) for d in docs}
    org_places = {m.text for ms in orgs_all.values() for m in ms} | {m.place for ms in orgs_all.values() for m in ms}
    people = {d.id: [m for m in all_people(d, lasts, firsts) if m.text not in org_places] for d in docs}
    people = {k: _trim_overlong(v, firsts_pass) for k, v in people.items()}
    descs = {d.id: descriptions(d) for d in docs}
    for d in docs:
        descs[d.id] = _absorb_appositives(d, people[d.id], descs[d.id])
    _cluster_people([m for d in docs for m in people[d.id]], res)
    place_state_agencies(orgs_all)
    _cluster_orgs([m for d in docs for m in orgs_all[d.id]], res)
    _resolve_acronyms(docs, res, orgs_all)
    _link_people_to_orgs(res, [m for d in docs for m in people[d.id]])
    for d in docs:
        res.mentions[d.id] = sorted(people[d.id] + orgs_all[d.id] + descs[d.id], key=lambda m: m.start)
        for m in descs[d.id]:
            m.entity = resolve_description(m, res)
    for ms in res.mentions.values():
        for m in ms:
            if m.entity:
                res.entities[m.entity].mentions.append(
                    {"doc": m.doc, "start": m.start, "end": m.end, "text": m.text})
    return res


def place_state_agencies(orgs_all: dict[str, list[Mention]]) -> None:
    """'the state Department of Public Safety' is the '<State> Department of Public Safety' named
    before it in its document, else the one such agency named in the run; else it stays an agency
    of no named state (two states' agencies of those words: none is guessed)."""
    def words(m: Mention) -> str:
        return re.sub(r"^state\s+", "", m.text).lower()

    named = [m for ms in orgs_all.values() for m in ms if m.agency == "state" and m.place != "state"]
    for doc_id, ms in orgs_all.items():
        for m in ms:
            if m.place != "state" or m.agency != "state":
                continue
            same = [n for n in named if n.text.lower().endswith(" " + words(m))]
            before = [n for n in same if n.doc == doc_id and n.start < m.start]
            places = {place_key(n.place) for n in same}
            pick = before[-1] if before else (same[0] if len(places) == 1 else None)
            if pick is not None:
                m.place = pick.place


def _trim_overlong(ms: list[Mention], known: list[Mention] | None = None) -> list[Mention]:
    """'Scot Peterson Suspended' (a headline) is 'Scot Peterson' when that name is seen."""
    pairs = {(m.first, m.last) for m in (known or ms) if m.first and len(m.text.split()) == 2}
    for m in ms:
        words = m.text.split()
        if len(words) == 3 and (words[0], words[1]) in pairs:
            m.text, m.last, m.end = " ".join(words[:2]), words[1], m.start + len(" ".join(words[:2]))
    return ms


def _absorb_appositives(doc: Document, people: list[Mention], descs: list[Mention]) -> list[Mention]:
    """'the Coral Springs Chief of Police, Anthony X' gives X a title and place; it is
    not a second person. Returns the descriptions that stand on their own."""
    kept = []
    for d in descs:
        host = None
        for p in people:
            if not (-2 <= p.start - d.end <= 40 or -2 <= d.start - p.end <= 4):
                continue  # an apposition sits right beside its name
            before = doc.text[d.end:p.start]
            after = doc.text[p.end:d.start]
            if p.start >= d.end and re.fullmatch(r",?\s*(?:\d+[\s-]+years?[\s-]+old\s+)?", before):
                host = p
            elif d.start >= p.end and re.fullmatch(r",\s*", after):
                host = p
        if host is None:
            kept.append(d)
            continue
        host.title = host.title or d.title
        host.family = host.family or d.family
        host.place = host.place or d.place
        host.agency = host.agency or d.agency
        host.__dict__.setdefault("extra_roles", []).append(d.title)
    return kept


def _cluster_people(ms: list[Mention], res: Resolution) -> None:
    clusters: list[list[Mention]] = []
    for m in sorted(ms, key=lambda m: (m.first is None, m.doc, m.start)):
        home = _find_cluster(m, clusters)
        if home is None:
            clusters.append([m])
        else:
            home.append(m)
    for c in clusters:
        names = Counter(m.text for m in c if m.first) or Counter(m.text for m in c)
        name = max(names, key=lambda n: (names[n], len(n)))
        eid = _unique(res, "person:" + slug(name))
        roles = sorted({r for m in c for r in [m.title, *m.__dict__.get("extra_roles", [])] if r},
                       key=str.lower)
        aliases = sorted(({m.text for m in c} | {f"{m.title} {m.text}" for m in c if m.title}) - {name})
        res.entities[eid] = Entity(eid, "person", name, aliases, roles)
        for m in c:
            m.entity = eid


def _find_cluster(m: Mention, clusters: list[list[Mention]]) -> list[Mention] | None:
    exact = [c for c in clusters if any(o.last == m.last for o in c) and _compatible(m, c, exact=True)]
    # A spelling seen exactly wins over a near one: "Field" is not "Fields" when both exist.
    candidates = exact or [c for c in clusters if _compatible(m, c, exact=False) and any(
        o.last and (same_surname(o.last, m.last) or (
            m.first and o.first and compatible_first(o.first, m.first) and near_surname(o.last, m.last)))
        for o in c)]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    # Two people share the surname: the one named nearest before, in the same document.
    same_doc = [(max((o.start for o in c if o.doc == m.doc and o.start <= m.start), default=-1), i)
                for i, c in enumerate(candidates)]
    best = max(same_doc)
    return candidates[best[1]]


RANKS = {"sgt": "sergeant", "lt": "lieutenant", "capt": "captain", "det": "detective",
         "cpl": "corporal", "sergeant": "sergeant", "lieutenant": "lieutenant", "captain": "captain",
         "detective": "detective", "corporal": "corporal", "major": "major", "commander": "commander",
         "chief": "chief", "sheriff": "sheriff", "undersheriff": "undersheriff",
         # the working rank: an SRO is a deputy or an officer, not a rank of its own
         "officer": "base", "deputy": "base", "trooper": "base", "sro": "base", "ofc": "base",
         "dep": "base", "patrolman": "base", "patrolwoman": "base", "agent": "base"}


def _rank(title: str | None) -> str | None:
    if not title:
        return None
    return RANKS.get(title.lower().replace(".", "").split()[-1])


def _compatible(m: Mention, cluster: list[Mention], exact: bool) -> bool:
    """Different middle initials are different people. Near spellings must also agree on
    rank: "Deputy Curtis Field" and "Sergeant Curtis Fields" are two people; an exact
    surname keeps a wrong title from splitting one person."""
    for o in cluster:
        if not compatible_first(o.first, m.first):
            return False
        if o.middle and m.middle and o.middle != m.middle and o.first and m.first:
            return False
        if not exact and o.last != m.last and _rank(o.title) and _rank(m.title) and _rank(o.title) != _rank(m.title):
            return False
    return True


def _unique(res: Resolution, eid: str) -> str:
    out, n = eid, 2
    while out in res.entities:
        out, n = f"{eid}-{n}", n + 1
    return out


def _cluster_orgs(ms: list[Mention], res: Resolution) -> None:
    # Named agencies first, then "Broward County officers" joins the Broward agency.
    for m in sorted(ms, key=lambda m: m.agency is None):
        key = place_key(m.place)
        match = [e for e in res.entities.values() if e.kind == "org" and e.__dict__["_key"][0] == key
                 and (m.agency is None or e.__dict__["_key"][1] == m.agency)]
        if match:
            m.entity = match[0].id
            if m.text not in match[0].aliases and m.text != match[0].name:
                match[0].aliases.append(m.text)
            continue
        agency = m.agency or "police"
        label = AGENCY_LABEL.get(agency, "")
        # Federal and state agencies keep their own name ("Texas Department of Public Safety").
        name = m.place if agency in {"federal", "company", "body"} else m.text if agency == "state" \
            else f"{m.place} {label}".strip()
        eid = _unique(res, "org:" + slug(name))
        e = Entity(eid, "org", name, [m.text] if m.text != name else [])
        e.__dict__["_key"] = (key, agency)
        res.entities[eid] = e
        m.entity = eid


ACRONYM_TOKEN = re.compile(r"\b(?:[A-Z]{2,6}|Metro)\b")
SKIP_IN_INITIALS = {"of", "the", "and", "for", "&"}


def initials(name: str) -> set[str]:
    """The acronyms an agency's name is written as: every word ("BCSO" for Broward County
    Sheriff's Office), without County ("BSO"), and without the place before the agency
    words ("DPS" for Texas Department of Public Safety)."""
    words = [w for w in re.findall(r"[A-Za-z]+(?:[’']s)?", name) if w.lower() not in SKIP_IN_INITIALS]
    out = set()
    for ws in (words, [w for w in words if w.lower() not in {"county", "city"}]):
        if len(ws) >= 2:
            out.add("".join(w[0].upper() for w in ws))
    agency_words = {"department", "bureau", "office"}
    agency_at = next((i for i, w in enumerate(words) if w.lower().rstrip("’'s") in agency_words), None)
    if agency_at:
        tail = words[agency_at:]
        if len(tail) >= 2:
            out.add("".join(w[0].upper() for w in tail))
    return out


def _resolve_acronyms(docs: list[Document], res: Resolution, orgs_all: dict[str, list[Mention]]) -> None:
    """'BSO' and 'Broward Sheriff's Office' are one agency; 'GBI' is the Georgia Bureau of
    Investigation named in full elsewhere in the run. An acronym that fits two agencies
    is left alone."""
    named = [e for e in res.entities.values() if e.kind == "org" and not re.fullmatch(r"[A-Z]{2,6}", e.name)]
    by_acronym: dict[str, set[str]] = {}
    for e in named:
        for n in [e.name, *e.aliases]:
            for a in initials(n):
                by_acronym.setdefault(a, set()).add(e.id)
            first = n.split()[0] if n.split() else ""
            if e.__dict__.get("_key", (None, None))[1] == "company" and re.fullmatch(r"[A-Z]{2,6}", first):
                by_acronym.setdefault(first, set()).add(e.id)  # "MGM said" after "MGM Resorts International"
            if re.search(r"\bMetropolitan\b", n):
                # "Metro", "Metro police", "a Metro spokesman": how the press names a metropolitan
                # police department once it has named it in full
                by_acronym.setdefault("Metro", set()).add(e.id)
    for d in docs:
        taken = {(m.start, m.end): m for m in orgs_all[d.id]}
        starting = {m.start: m for m in orgs_all[d.id] if m.text.startswith("Metro ")}
        for tok in ACRONYM_TOKEN.finditer(d.text):
            owners = by_acronym.get(tok.group(0), set())
            if len(owners) != 1:
                continue
            owner = next(iter(owners))
            m = taken.get((tok.start(), tok.end()))
            if m is None and tok.group(0) == "Metro":
                m = starting.get(tok.start())  # "Metro police": the mention is the whole phrase
            if m is None:
                m = Mention(d.id, tok.start(), tok.end(), tok.group(0), "org")
                orgs_all[d.id].append(m)
            old = m.entity
            m.entity = owner
            if tok.group(0) not in res.entities[owner].aliases:
                res.entities[owner].aliases.append(tok.group(0))
            if old and old != owner and old in res.entities and (
                    re.fullmatch(r"[A-Z]{2,6}", res.entities[old].name) or res.entities[old].name.startswith("Metro ")):
                if not any(x.entity == old for ms in orgs_all.values() for x in ms):
                    del res.entities[old]


def _link_people_to_orgs(res: Resolution, people: list[Mention]) -> None:
    for m in people:
        if not m.entity or not m.place:
            continue
        person = res.entities[m.entity]
        person.__dict__.setdefault("places", set()).add(place_key(m.place))
        agency = m.agency or agency_of(m.title)
        for e in list(res.entities.values()):
            if e.kind == "org" and e.__dict__.get("_key") == (place_key(m.place), agency):
                person.org = person.org or e.id
        if person.org is None and m.family == "head" and agency in AGENCY_LABEL:
            # "Marlow County Sheriff Dana Whitlock" names the agency she runs.
            org = Mention(m.doc, m.start, m.start, f"{m.place} {AGENCY_LABEL[agency]}", "org",
                          place=m.place, agency=agency)
            _cluster_orgs([org], res)
            person.org = org.entity


# Abbreviated titles as news writes them before a name, to the word a later description uses
# ("Lt. Col. Ada Brisk ... the colonel", "Sgt. X ... the sergeant")
TITLE_WORDS = {"col": "colonel", "lt": "lieutenant", "sgt": "sergeant", "capt": "captain", "cpt": "captain",
               "det": "detective", "gov": "governor", "sen": "senator", "rep": "representative",
               "supt": "superintendent", "insp": "inspector", "cmdr": "commander", "cmdr.": "commander",
               "gen": "general", "maj": "major", "cpl": "corporal", "dep": "deputy", "atty": "attorney",
               "asst": "assistant", "dir": "director", "comm": "commissioner", "ofc": "officer", "tpr": "trooper"}
# "the first deputy", "another officer", "the second trooper": whoever it was, not a person named
# ("a police officer" stays a description of the person it stands beside)
ANONYMOUS = re.compile(r"^(?:the\s+)?(?:first|second|third|fourth|other|another|lone)\b", re.IGNORECASE)


def _head_title(words: str) -> list[str]:
    last = words.lower().split()[-1:]
    return [TITLE_WORDS.get(w.rstrip("."), w.rstrip(".")) for w in last]


def resolve_description(d: Mention, res: Resolution) -> str | None:
    """The person a bare description means, or None when no one fits."""
    if ANONYMOUS.match(d.text):
        return None
    fitting = {e for e in res.entities if e.startswith("person:") and _fits(d, res, e)}
    fits = [m for m in res.mentions.get(d.doc, []) if m.kind == "person" and m.entity in fitting]
    if d.place:
        key = place_key(d.place)
        fits = [m for m in fits if key in res.entities[m.entity].__dict__.get("places", set())]
        if not fits:
            fits = [m for ms in res.mentions.values() for m in ms if m.kind == "person"
                    and m.entity in fitting and key in res.entities[m.entity].__dict__.get("places", set())]
    # "the sheriff" beside Sheriff Whitlock and Chief Brisk: the one whose own title is the word
    # wins over a nearer person of the same family (a wrong title still resolves when no one has it)
    head = _head_title(d.title or "")
    exact = [m for m in fits if any(_head_title(r) == head for r in res.entities[m.entity].roles)]
    fits = exact or fits
    before = [m for m in fits if m.start < d.start and m.doc == d.doc]
    if before:
        return before[-1].entity
    after = [m for m in fits if m.doc == d.doc]
    if after:
        return after[0].entity
    # No one in this document: a unique fit in the other documents still counts.
    if not d.place and len(fitting) == 1:
        return next(iter(fitting))
    return fits[0].entity if fits else None


# Families wide enough that the word itself must match: "the student" is not the coach.
LOOSE_FAMILIES = {"official", "civilian", "responder", "courtesy", "rank", None}


def _fits(d: Mention, res: Resolution, entity_id: str) -> bool:
    if d.family not in LOOSE_FAMILIES:
        return d.family in res.families(entity_id)
    head = _head_title(d.title or "")
    return any(_head_title(r) == head for r in res.entities[entity_id].roles)
