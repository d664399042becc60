"""Find who and what a document names: people, agencies, and bare descriptions.

Rule-based on spaCy's blank English tokenizer (Matcher), in two passes over all
documents: first, names that a title, an age or a reporting verb makes certain
("Sheriff Scott Israel", "Scot Peterson, 54,", "Robert Runcie said"); then every other
place those names occur, surname alone or misspelled ("Putstizzi"), in any document.
A capitalised word alone is never taken for a person: "Israel" is a person only because
"Sheriff Scott Israel" was seen first.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from onrecord.claims.records import Mention
from onrecord.claims.roles import FAMILIES, agency_of, family_of
from onrecord.claims.text import Document

REPORTING = [
    "said", "says", "say", "told", "tells", "added", "adding", "explained", "stated",
    "wrote", "writes", "testified", "admitted", "acknowledged", "claimed", "noted",
    "recalled", "revealed", "confirmed", "announced", "reported", "insisted", "argued",
    "called", "asked", "described", "estimated",
]
TITLE_TOKENS = sorted({w.split()[-1] for ws in FAMILIES.values() for w in ws})
# Words that are capitalised in news text but are never part of a person's name.
NOT_NAME = set(TITLE_TOKENS) | {
    "the", "a", "an", "i", "he", "she", "it", "we", "they", "this", "that", "these",
    "county", "city", "police", "department", "office", "school", "high", "fire",
    "state", "federal", "district", "university", "college", "street", "avenue",
    "building", "hall", "center", "centre", "day", "news", "press", "video", "and",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december", "meanwhile", "according",
    "speaking", "but", "so", "if", "when", "what", "there", "you", "his", "her",
    "resource", "internal", "affairs", "sheriff", "deputies", "officers", "sources",
    "north", "south", "east", "west", "western", "eastern", "northern",
    # a preposition that opens a sentence is capitalised too: "By Farrant's account", "Per Farrant"
    "by", "per", "in", "at", "on", "for", "from", "with", "after", "before", "during", "under", "within",
    "southern", "on", "in", "at", "of", "for", "after", "before", "as", "just",
    "suspended", "resigned", "fired", "killed", "video",
    # words of agencies and news organisations: "Public Safety said" is no person
    "public", "safety", "bureau", "investigation", "agency", "service", "services", "patrol",
    "command", "unit", "team", "force", "administration", "commission", "council", "board",
    "committee", "panel", "general", "grand", "jury", "authority", "association", "union", "tribune",
    "times", "post", "herald", "monthly", "mail", "project", "hospital", "healthsystem",
    "journal", "sentinel", "gazette", "network", "radio", "television", "security", "task",
    "justice", "homeland", "marshals", "troopers", "rangers", "emergency", "management",
    # words of companies: "MGM Resorts International said" is no person
    "resorts", "resort", "international", "inc", "corp", "corporation", "company", "holdings", "hotel",
    "hotels", "casino", "entertainment", "enterprises", "industries", "airlines", "group", "llc",
    "coroner", "examiner", "medical",
    # headline words that open a title-case run ("While Dying Children Called")
    "while", "dying", "children", "waited", "waiting", "students", "victims", "gunman", "shooter",
    "shooting", "massacre", "attack", "hours", "minutes", "why", "how", "who", "where", "report",
    "timeline", "update", "breaking", "exclusive", "watch", "live", "photos",
}
NAME_RE = r"^(?:[A-Z][a-z]+(?:[-'’][A-Z][a-z]+)?|Mc[A-Z][a-z]+|O['’][A-Z][a-z]+|[A-Z]\.)$"
INITIAL_RE = r"^[A-Z]\.$"
TITLE_PARTS = set(TITLE_TOKENS) | {t + "." for t in TITLE_TOKENS} | {"high", "school", "resource", "city", "county",
                                   "police", "fire", "of", "vice", "assistant", "chief",
                                   "football", "mass", "campus", "top", "former"}


@lru_cache(maxsize=1)
def _person_matcher():
    from spacy.matcher import Matcher

    from onrecord.claims.text import blank_english

    name = {"TEXT": {"REGEX": NAME_RE}, "LOWER": {"NOT_IN": sorted(NOT_NAME)}}
    title = {"LOWER": {"IN": TITLE_TOKENS + [t + "." for t in TITLE_TOKENS]}}
    m = Matcher(blank_english().vocab)
    m.add("TITLE_NAME", [[title, {"ORTH": ".", "OP": "?"}, {**name, "OP": "{1,3}"}]],
          greedy="LONGEST")
    m.add("ROLE_COMMA_NAME", [[{"LOWER": {"IN": TITLE_TOKENS + ["police"]}}, {"ORTH": ","},
                               {"LIKE_NUM": True, "OP": "?"},
                               {"LOWER": {"IN": ["-", "year", "years", "old"]}, "OP": "*"},
                               {**name, "OP": "{2,3}"}]], greedy="LONGEST")
    m.add("NAME_AGE", [[{**name, "OP": "{2,3}"}, {"ORTH": ","}, {"LIKE_NUM": True},
                        {"ORTH": ","}]], greedy="LONGEST")
    # "Steven McCraw, the head of ...", "Dana Roe, a former mayor": a person's apposition.
    m.add("NAME_COMMA_ROLE", [[{**name, "OP": "{2,3}"}, {"ORTH": ","},
                               {"LOWER": {"IN": ["the", "a", "an"]}},
                               {"TEXT": {"NOT_IN": [",", ".", ";", ":", "“", "”", '"']}, "OP": "{0,5}"},
                               {"LOWER": {"IN": TITLE_TOKENS + ["head", "director", "spokesman", "spokeswoman"]}}]],
          greedy="LONGEST")
    # The reporting verb in lower case: a title-case headline ("... Children Called") has no speaker.
    m.add("NAME_SAID", [[{**name, "OP": "{2,3}"}, {"TEXT": {"IN": REPORTING}}]],
          greedy="LONGEST")
    m.add("SAID_NAME", [[{"TEXT": {"IN": REPORTING}}, {**name, "OP": "{2,3}"}]],
          greedy="LONGEST")
    # "Mara Quell, who ...": a name before a relative clause; _relative_then_said checks the verb
    m.add("NAME_WHO", [[{**name, "OP": "{2,3}"}, {"ORTH": ","}, {"LOWER": {"IN": ["who", "whose"]}}]],
          greedy="LONGEST")
    return m


def _is_name(tok) -> bool:
    return bool(re.match(NAME_RE, tok.text)) and tok.lower_ not in NOT_NAME


def _name_run(span) -> tuple[int, int]:
    """The last run of name tokens inside a matched span (token indices)."""
    end = span.end
    while end > span.start and not _is_name(span.doc[end - 1]):
        end -= 1
    start = end
    while start > span.start and _is_name(span.doc[start - 1]):
        start -= 1
    return start, end


def _first_name_run(span) -> tuple[int, int]:
    end = span.start
    while end < span.end and _is_name(span.doc[end]):
        end += 1
    return span.start, end


def _title_and_place(sp, start: int) -> tuple[str | None, str | None, int]:
    """Title words right before a name, and the capitalised place before them."""
    i = start
    while i > 0 and sp[i - 1].lower_ in TITLE_PARTS | {"’s", "'s", ",", "."} and not (
        sp[i - 1].lower_ in {"’s", "'s", ",", "."} and i - 2 >= 0 and sp[i - 2].lower_ not in TITLE_PARTS):
        if sp[i - 1].lower_ in {"county", "city"} and i > 1 and sp[i - 2].text[:1].isupper():
            break  # "Broward County Sheriff": County belongs to the place
        i -= 1
    while i < start and sp[i].lower_ in {",", "of", "’s", "'s", "."}:
        i += 1
    title = sp[i:start].text.strip(" ,") or None
    if title and not family_of(title):
        title, i = None, start
    j = i
    while j > 0 and sp[j - 1].text[:1].isupper() and sp[j - 1].lower_ not in NOT_NAME - {"county", "city"}:
        j -= 1
    place = sp[j:i].text.strip(" ,").removesuffix(" City").strip(" ,") or None
    if place and not re.match(r"^[A-Z]", place):
        place = None
    return title, place, i


def _person(doc_id: str, para, s: int, e: int) -> Mention:
    sp = para.doc
    title, place, _ = _title_and_place(sp, s)
    names = [t.text for t in sp[s:e] if not re.match(INITIAL_RE, t.text)]
    initials = [t.text[0] for t in sp[s:e] if re.match(INITIAL_RE, t.text)]
    if not names:
        names = [sp[e - 1].text]
    first = names[0] if len(names) > 1 else None
    return Mention(doc_id, para.start + sp[s].idx, para.start + sp[e - 1].idx + len(sp[e - 1]),
                   " ".join(names), "person", first=first, last=names[-1], title=title,
                   family=family_of(title), place=place, agency=agency_of(title),
                   middle=initials[0] if initials and first else None)


def certain_people(doc: Document) -> list[Mention]:
    """Pass 1: names a title, an age or a reporting verb makes certain."""
    found: dict[tuple[int, int, int], Mention] = {(m.start, m.end, 0): m for m in header_people(doc)}
    matcher = _person_matcher()
    for para in doc.paragraphs:
        sp = para.doc
        for key, ms, me in matcher(sp):
            label = sp.vocab.strings[key]
            if label == "NAME_WHO" and not _relative_then_said(sp, me):
                continue
            s, e = _name_run(sp[ms:me]) if label != "NAME_COMMA_ROLE" else _first_name_run(sp[ms:me])
            if e <= s or (label == "TITLE_NAME" and sp[ms].text.islower() and e - s < 2):
                continue  # "coach Smith" is too weak; "coach Aaron Feis" is not
            if label in {"NAME_SAID", "SAID_NAME", "NAME_WHO"} and s > 0 and sp[s - 1].lower_ == "the":
                continue  # "the Washington Examiner reported": an outlet, not a person
            found[(para.start, s, e)] = _person(doc.id, para, s, e)  # keyed by paragraph and tokens
    return _longest(list(found.values()))


CLAUSE_STOP = {".", ";", "“", "”", '"', "!", "?", "who", "whose"}


def _relative_then_said(sp, i: int, reach: int = 40) -> bool:
    """'Mara Quell, who led the office for 11 years, said': the relative clause that starts at
    token `i` is set off by a comma that a reporting verb follows, within the sentence."""
    for j in range(i, min(len(sp) - 1, i + reach)):
        if sp[j].text in CLAUSE_STOP:
            return False
        if sp[j].text == "," and sp[j + 1].text in REPORTING:
            return True
    return False


def _longest(mentions: list[Mention]) -> list[Mention]:
    out: list[Mention] = []
    for m in sorted(mentions, key=lambda m: (m.start, -(m.end - m.start))):
        if out and m.start < out[-1].end and m.doc == out[-1].doc:
            continue
        out.append(m)
    return out


def known_name_parts(people: list[Mention]) -> tuple[set[str], set[str]]:
    lasts = {m.last for m in people if m.last}
    firsts = {m.first for m in people if m.first}
    return lasts, firsts


def _surname_like(word: str, lasts: set[str], firsts: set[str]) -> bool:
    if word in lasts:
        return True
    if len(word) < 5 or word in firsts or word.lower() in NOT_NAME:
        return False
    return any(w[0] == word[0] and fuzz.ratio(w.lower(), word.lower()) >= 88 for w in lasts)


def all_people(doc: Document, lasts: set[str], firsts: set[str]) -> list[Mention]:
    """Pass 2: every occurrence of a known surname (or a close misspelling of one)."""
    found = list(certain_people(doc))
    for para in doc.paragraphs:
        sp = para.doc
        for tok in sp:
            if not re.match(NAME_RE, tok.text) or not _surname_like(tok.text, lasts, firsts):
                continue
            s = tok.i
            if s > 0 and _is_name(sp[s - 1]):
                s -= 1
            found.append(_person(doc.id, para, s, tok.i + 1))
    return _longest(found)


# --- agencies and bare descriptions (regular expressions over the paragraph text) ---

_PLACE = r"(?P<place>(?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+)(?:,\s*[A-Z]{2})?"
_AGENCY = (r"(?P<agency>Police\s+Department|police\s+department|Police\s+Dept\.?|"
           r"Sheriff[’']s\s+Office|Sheriff[’']s\s+Department|Sheriff[’']s|"
           # "Harlan County sheriff's officials", "the Harlan County sheriff's office"
           r"sheriff[’']s\s+office|sheriff[’']s\s+department|sheriff[’']s(?=\s+(?:officials|deputies|investigators|"
           r"spokes(?:man|woman|person)|office|department|detectives))|"
           r"Fire\s+Department|Fire\s+Rescue|Police|police|School\s+District|school\s+district|"
           r"[Cc]oroner[’']s\s+[Oo]ffice|[Cc]oroner|[Mm]edical\s+[Ee]xaminer[’']s\s+[Oo]ffice|[Mm]edical\s+[Ee]xaminer|"
           r"Department\s+of\s+Public\s+Safety|Bureau\s+of\s+Investigation|Highway\s+Patrol|State\s+Police|State\s+Patrol|"
           r"officers|deputies|sources|cops)")
ORG_RE = re.compile(rf"\b{_PLACE}\s+{_AGENCY}(?![\w])")
ACRONYM_RE = re.compile(r"\b(?P<acr>FBI|ATF|DEA|DHS|FEMA|CBP|USMS|DPS|Border Patrol|"
                        r"[A-Z]{2,4}PD|[A-Z]{1,3}SO|[A-Z]{2,3}FD)\b")
_HEADS = "|".join(sorted((re.escape(w) for ws in FAMILIES.values() for w in ws
                          if ws is not FAMILIES["courtesy"]), key=len, reverse=True))
# National agencies written several ways, each to one name so that its mentions are one agency.
NATIONAL = [(re.compile(r"\b(?:(?:U\.S\.\s+|US\s+|federal\s+)?Justice\s+Department|(?:U\.S\.\s+)?Department\s+of\s+"
                        r"Justice|DOJ)\b"), "Department of Justice"),
            (re.compile(r"\b(?:U\.S\.\s+)?Secret\s+Service\b"), "Secret Service"),
            (re.compile(r"\bFederal\s+Bureau\s+of\s+Investigation\b"), "FBI"),
            (re.compile(r"\b(?:Department\s+of\s+Homeland\s+Security|Homeland\s+Security\s+Department)\b"), "DHS"),
            # a state's investigators known by their own name
            (re.compile(r"\bTexas\s+Rangers\b"), "Texas Rangers")]
DESCRIPTION_RE = re.compile(
    rf"\b(?P<det>the|an?|this|that|his|her|their|(?-i:(?P<poss>[A-Z][a-z]+))[’']s)\s+"
    rf"(?P<mods>(?:[\w’'-]+\s+){{0,4}}?)(?P<head>{_HEADS})\b(?![’']s)(?-i:(?!\s+[A-Z][a-z]))",
    re.IGNORECASE,
)
DETERMINER = r"\b(?:the|an?|this|that|his|her|their)\s+"
NOUN_AFTER_RE = re.compile(
    r"\s+(?:warnings?|tips?|reports?|threats?|calls?|programs?|positions?|cars?|vehicles?|"
    r"union|training|office|department|situation|drills?|cases?|incidents?|academy)\b",
    re.IGNORECASE)
SKIP_PLACE = {"The", "A", "An", "Some", "Multiple", "Numerous", "Additional", "Those", "These", "Nearby",
              "Neighboring", "Neighbouring", "Armed", "Responding", "Uniformed", "Veteran",
              "Meanwhile", "According", "Speaking", "And", "But", "Two",
              "Three", "Four", "Five", "Many", "Several", "Other", "Local", "All", "Both"}


# A company that speaks for itself ("MGM Resorts International said in a statement"): capitalised
# words ending in a word of companies; an organisation, never a person
_COMPANY_WORD = (r"(?:Resorts?|International|Inc\.?|Corp\.?|Corporation|Company|Holdings|LLC|Hotels?|Casino|"
                 r"Entertainment|Enterprises|Industries|Airlines|"
                 # hospitals speak for their patients' count ("Carvell Memorial Hospital said")
                 r"Hospital|Medical\s+Center|HealthSystem|Health\s+System|Health|Healthcare)")
COMPANY_RE = re.compile(rf"\b(?P<name>(?:(?:[A-Z][\w&’'-]*|[A-Z]{{2,}})\s+){{1,3}}{_COMPANY_WORD}"
                        rf"(?:\s+(?:International|Inc\.?|Corp\.?|LLC|Group))?)(?![\w’'])")


# A body of review or oversight that speaks through its findings ("the Marlow Review Commission
# concluded", "a Texas House committee's report"): capitalised words ending in a word of such
# bodies; an organisation of its own kind ("body"), never a person nor a police force of the place
_BODY_WORD = r"(?:[Cc]ommission|[Cc]ommittee|[Pp]anel|Board|Task\s+Force|[Cc]ouncil|Grand\s+Jury)"
BODY_RE = re.compile(rf"\b(?P<name>(?:(?:[A-Z][\w’'-]*|[A-Z]{{2,}}|U\.S\.)\s+){{1,4}}{_BODY_WORD})(?![\w’'])")
# Words of a body's kind that name none: "House committee", "Special Review Commission"
BODY_GENERIC = {"House", "Senate", "Review", "Special", "Select", "Investigative", "Joint", "Legislative",
                "Oversight", "Independent", "Advisory", "Blue", "Ribbon", "Citizens", "Civilian", "Police",
                "School", "State", "County", "City", "Federal", "Task", "Grand"}
# "Office of the Inspector General", "the state inspector general": one officer's office
INSPECTOR_RE = re.compile(r"\b(?P<name>(?:Office\s+of\s+(?:the\s+)?)?(?:[A-Z][a-z]+\s+)?Inspector\s+General)\b")


# A state's agency named by "state" in lower case: its words as a state writes them
STATE_RE = re.compile(r"(?<![A-Z][a-z] )\bstate\s+(?P<agency>Department\s+of\s+Public\s+Safety|Bureau\s+of\s+"
                      r"Investigation|Highway\s+Patrol|Police|Patrol)\b")


def agency_kind(word: str) -> str | None:
    w = word.lower()
    if "coroner" in w:
        return "coroner"
    if "medical examiner" in w:
        return "examiner"
    if "public safety" in w or "state" in w or "highway" in w or "bureau" in w:
        return "state"
    if "sheriff" in w or w in {"deputies"}:
        return "sheriff"
    if "fire" in w:
        return "fire"
    if "school" in w:
        return "school"
    if "police" in w:
        return "police"
    return None  # officers, cops, sources: whichever agency of that place is known


def _number_word(word: str) -> bool:
    from onrecord.claims.numbers import parse_number

    return word.lower() not in {"a", "an"} and parse_number(word) is not None


def agencies(doc: Document) -> list[Mention]:
    out = []
    for para in doc.paragraphs:
        for m in ORG_RE.finditer(para.text):
            words = m.group("place").split()
            agency_words = m.group("agency")
            if len(words) > 1 and f"{words[-1]} {agency_words}" in {"State Police", "State Patrol", "Highway Patrol"}:
                # "Oregon State Police": the greedy place took the agency's first word
                agency_words = f"{words.pop()} {agency_words}"
            while words and (words[0] in SKIP_PLACE or _number_word(words[0])):
                words = words[1:]  # "Fourteen officers", "Twenty-one deputies": a count, not a place
            if not words or words[-1].lower() in NOT_NAME - {"county", "city"}:
                continue
            place = " ".join(words)
            start = para.start + m.start("place") + m.group("place").index(words[0])
            kind = "group" if m.group("agency") == "sources" else "org"
            agency = agency_kind(agency_words)
            if m.group("agency") in {"police", "officers", "cops"} and words[-1] == "County":
                # "Broward County police officers": the county's force, whichever it is (its sheriff's
                # office where one is named), not a county police department nobody named
                agency = None
            out.append(Mention(doc.id, start, para.start + m.end(), doc.text[start:para.start + m.end()],
                               kind, place=place, agency=agency))
        for m in ACRONYM_RE.finditer(para.text):
            out.append(Mention(doc.id, para.start + m.start(), para.start + m.end(), m.group(0),
                               "org", place=m.group(0), agency="federal"))
        for m in COMPANY_RE.finditer(para.text):
            words = m.group("name").split()
            while words and words[0] in SKIP_PLACE:
                words = words[1:]
            if len(words) < 2:
                continue
            name = " ".join(words)
            start = para.start + m.end("name") - len(name)
            out.append(Mention(doc.id, start, para.start + m.end("name"), name, "org", place=name, agency="company"))
        for m in STATE_RE.finditer(para.text):
            # "the state Department of Public Safety": a state agency whose state the article named
            # elsewhere (named_entities.place_state_agencies gives it that place)
            out.append(Mention(doc.id, para.start + m.start(), para.start + m.end(), m.group(0), "org",
                               place="state", agency="state"))
        for rx in (BODY_RE, INSPECTOR_RE):
            for m in rx.finditer(para.text):
                words = m.group("name").split()
                while words and (words[0] in SKIP_PLACE or words[0] in {"In", "At", "On", "By", "From", "Of"}):
                    words = words[1:]  # "The Marlow Review Commission", "In its report, ...": not the name
                if not words or (rx is BODY_RE and all(w in BODY_GENERIC for w in words[:-1])):
                    continue  # "a state House committee", "the Review Board": which one is not said
                name = " ".join(words)
                start = para.start + m.end("name") - len(name)
                out.append(Mention(doc.id, start, para.start + m.end("name"), name, "org", place=name,
                                   agency="body"))
        for rx, name in NATIONAL:
            for m in rx.finditer(para.text):
                out.append(Mention(doc.id, para.start + m.start(), para.start + m.end(), m.group(0),
                                   "org", place=name, agency="federal"))
    return out


def descriptions(doc: Document) -> list[Mention]:
    """'the deputy', 'A school campus cop', "Broward's top cop", 'the Coral Springs Sheriff'."""
    out = []
    for para in doc.paragraphs:
        for m in DESCRIPTION_RE.finditer(para.text):
            mods, head = m.group("mods"), m.group("head")
            if any(ch in mods for ch in ",.;:") or re.search(r"\b(?:and|or|who|was|were)\b", mods):
                continue
            if NOUN_AFTER_RE.match(para.text, m.end()):
                continue  # "the shooter warnings": the role word only modifies a noun
            start = m.start()
            # A regex match starts at the first determiner; the phrase starts at the last.
            for d in re.finditer(DETERMINER, mods, re.IGNORECASE):
                start = m.start("mods") + d.start()
                mods = mods[d.end():]
            text = para.text[start:m.end()]
            caps = [w for w in mods.split() if w[:1].isupper() and w.lower() not in NOT_NAME]
            place = m.group("poss") if m.start("det") >= start else None
            place = place or (" ".join(caps) if caps else None)
            title = head if head.lower() != "top cop" else "sheriff"
            out.append(Mention(doc.id, para.start + start, para.start + m.end(), text,
                               "description", title=title, family=family_of(title),
                               place=place, agency=agency_of(title)))
    return out


AUTHOR_KEYS = ("author", "by", "written by", "name", "officer", "reporting officer")


def header_people(doc: Document) -> list[Mention]:
    """'Author: Sgt. Dana R. Roe' in a statement's header: the person who writes 'I'."""
    for key in AUTHOR_KEYS:
        if key not in doc.header:
            continue
        start, end, value = doc.header[key]
        words = value.split()
        titles = []
        while words and family_of(words[0].strip(".")) and len(words) > 2:
            titles.append(words.pop(0))
        names = [w for w in words if re.match(NAME_RE, w) and not re.fullmatch(r"[A-Z]\.?", w)]
        if len(names) < 2 or len(names) != len([w for w in words if not re.fullmatch(r"[A-Z]\.?", w)]):
            return []  # "Courier staff" is not a person
        title = " ".join(titles) or None
        initials = [w[0] for w in words if re.fullmatch(r"[A-Z]\.?", w)]
        return [Mention(doc.id, start, end, " ".join(names), "person", first=names[0], last=names[-1],
                        title=title, family=family_of(title), agency=agency_of(title),
                        middle=initials[0] if initials else None)]
    return []
