"""What a count of people counts, from the predicate the number hangs on.

A small grammar, not a bag of nearby words. The counted phrase is the number, its
modifiers and its noun (or no noun: "killing 12 and wounding 58"). Its predicate is, in
this order:

1. the phrase itself when its head says it ("10 dead", "17 deaths", "18 injured");
2. the verb group right after it ("six people died", "24 were wounded", "10 people being
   shot dead", "three are dead", "at least seven were in critical condition");
3. the verb right before it, taking it as object ("killed 12", "wounding 17 more",
   "the deaths of 17 people", "the death toll reaches 7");
4. the whole of a partitive ("of the 13 shot, 11 were ...": the 11 were shot too);
5. the count before it in the sentence, when the two are coordinated ("17 people dead
   and 14 injured" reads 14 by rule 1; "killed five people and two others" shares
   "killed").

A count whose predicate none of these finds measures nothing and is left out. Who was
counted, when it is a part of the whole (a kind of person, a place, a degree of harm, "N
more"), goes in the qualifier, so that parts never conflict with totals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# measure -> predicate words (longest first inside each, "shot dead" before "shot")
PREDICATES = [
    ("count_deaths", r"shot dead|shot and killed|fatally (?:shot|wounded|injured|stabbed)|killed|killing|kills|kill|"
                     r"claimed|claiming|took the lives of|taking the lives of|"
                     r"dead|died|dies|die|murdered|murdering|slain|perished|lost their lives|deaths?|fatalities|"
                     r"lives|death toll|toll|lost|losing"),
    ("count_injured", r"injured|injuring|injures|injure|wounded|wounding|wounds|hurt|injuries|"
                      r"critically|seriously|in (?:critical|serious|stable|fair|good|grave) condition|"
                      r"suffered (?:\w+ )?(?:wounds|injuries)"),
    ("count_transported", r"taken to (?:area |local |nearby |the |a |two |three |several )?(?:\w+ )?hospitals?|"
                          r"transported|transporting|airlifted|rushed to (?:the |a )?(?:\w+ )?hospitals?|"
                          r"taken to (?:the |a )?(?:trauma|medical)|hospitali[sz]ed|treated at (?:\w+ ){0,3}hospitals?|"
                          r"(?:taken|transported|rushed|flown) to (?-i:(?:[A-Z][\w.’'-]*\s*){1,5})"),
    ("count_victims_carried_out", r"carried out|carried|rescued|evacuated|brought out|pulled out"),
    ("count_survivors", r"survived|survivors?"),
    ("count_shot", r"shot|shooting|shoots|shoot|gunshot victims|picking off|picked off|picks off"),
]
_ALL = "|".join(f"(?P<{m}>{p})" for m, p in PREDICATES)
PRED_RE = re.compile(rf"\b(?:{_ALL})\b", re.IGNORECASE)
# Between a counted phrase and its verb: "were", "have been", "later", "all".
_AUX = r"(?:(?:who|that|were|was|are|is|have|has|had|been|being|got|later|also|all|reportedly|now|were later|" \
       r"each|then|ultimately|eventually|initially)\s+){0,3}(?:(?!fatally\b)\w+ly\s+)?"
# "Five adults and four children were taken to ...": a coordinated count shares the verb.
# (the words of the second count never run over another "and": "killed 12 students and one teacher
# and wounded 21 others" leaves the 12 killed)
_COORD = (r"(?:(?:and|or)\s+(?:\w+\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|[a-z]+teen"
          r"|[a-z]+ty)\s+(?:(?!(?:and|or)\b)[\w’'-]+\s+){0,2}?)?")
AFTER_RE = re.compile(rf"^\s*(?:,\s*)?{_COORD}{_AUX}(?:{_ALL})\b", re.IGNORECASE)
BEFORE_RE = re.compile(rf"\b(?:{_ALL})\s+(?:[a-z]+\s+and\s+)?(?:(?:of|to|at|the|a total of|another|a further|an "
                       rf"additional|"
                       r"more than|at least|about|nearly|some|reaches|reached|rose to|rises to|climbed to|"
                       r"climbs to|stands at|is|was|now)\s+){0,3}$", re.IGNORECASE)
TOLL_TO = re.compile(r"\b(?:death|fatality)\s+(?:toll|count)(?:\s+(?:from|in|of|at|for)\s+[^,;.:]{1,60}?)?\s+"
                     r"(?:to|at|reaches|reached|rose to|rises to|climbed to|climbs to|stands at|is|was|now|of)\s+"
                     r"(?:(?:more than|at least|about|nearly|some)\s+)?$", re.IGNORECASE)
PARTITIVE_WHOLE = re.compile(rf"\bof\s+(?:the|those|these)\s+[\w,]+\s+(?:people\s+"
                             rf"|victims\s+)?(?:{_ALL})\b[^.;]*?,\s*$",
                             re.IGNORECASE)
COORDINATED = re.compile(r"^[^.;:]*?(?:\band\b|,|\bincluding\b)\s*(?:another|more|other|an additional|a further)?\s*$",
                         re.IGNORECASE)

GENERIC = {"people", "persons", "person", "victims", "victim", "individuals", "others", "other", "casualties",
           "dead", "wounded", "injured", "lives", "deaths", "fatalities", "bodies"}
PART_AFTER = re.compile(r"^\s*(?:were|was|are|is|had been|have been)?\s*(?P<q>(?:inside|outside|in|at|on)\s+the\s+"
                        r"(?:[\w’'-]+\s+){0,2}?(?:parking lot|store|building|club|school|church|bathroom|hallway|"
                        r"classroom|theater|street|sanctuary|restaurant|room|dorm|dormitory|floor|stage|lobby|patio))\b",
                        re.IGNORECASE)


@dataclass
class PeopleCount:
    measure: str
    qualifier: str | None


ASIDE = re.compile(r"^\s*(?:[—–]|--|\s-\s)[^—–()]{1,100}?(?:[—–]|--|\s-\s)|^\s*\([^()]{1,100}\)"
                   # "21 people, including 19 children, were fatally shot"
                   r"|^\s*,\s*(?:including|among them)\s+[^,;()—–]{1,80},")


def _past_aside(rest: str) -> str:
    """'21 people — 19 students and two teachers — were killed': the predicate after the
    aside between dashes (or in parentheses) is the count's."""
    m = ASIDE.match(rest)
    return rest[m.end():] if m else rest


def _measure_of(m: re.Match) -> str:
    return next(name for name, _ in PREDICATES if m.group(name))


def people_count(sentence: str, start: int, end: int, noun: str | None, mods: str, previous: str | None,
                 previous_end: int | None) -> PeopleCount | None:
    """The measure of a count of people at sentence[start:end] (the number with its
    noun), by the rules above; None when no predicate is found."""
    measure = None
    words = f"{mods} {noun or ''}".strip()
    head = PRED_RE.fullmatch(noun or "") if noun else None
    if head:
        measure = _measure_of(head)
        after = AFTER_RE.match(_past_aside(sentence[end:]))
        if after and re.search(r"\bof\s+(?:the|those|these)\s+", sentence[start:end], re.IGNORECASE) \
                and _measure_of(after) != measure:
            # "two of the wounded later died": the verb says what happened to the part
            return PeopleCount(_measure_of(after), f"of the {noun.lower()}")
    if measure is None and (m := AFTER_RE.match(_past_aside(sentence[end:]))) is not None:
        measure = _measure_of(m)
    if measure is None and TOLL_TO.search(sentence[:start]):
        measure = "count_deaths"  # "bringing the death toll from the mass shooting to seven"
    if measure is None and (m := BEFORE_RE.search(sentence[:start])) is not None:
        measure = _measure_of(m)
        if measure == "count_shot" and re.search(r"\btimes\b", noun or ""):
            measure = None
    if measure is None and (m := PARTITIVE_WHOLE.search(sentence[:start])) is not None:
        whole = PRED_RE.search(m.group(0))
        measure = _measure_of(whole) if whole else None
    if measure is None and previous and previous_end is not None and COORDINATED.match(sentence[previous_end:start]):
        measure = previous
    if measure is None:
        return None
    part = _part(sentence, start, end, words, measure, previous == measure)
    if noun is None and previous == "count_shot" and measure in {"count_deaths", "count_injured"} and part is None:
        part = "of those shot"  # "shot four people in the parking lot and three are dead": three of the four
    return PeopleCount(measure, part)


def _part(sentence: str, start: int, end: int, words: str, measure: str, after_same: bool) -> str | None:
    """Who was counted when it is a part: "children", "Tops employees", "in the parking
    lot", "critically", "more"; None for a total."""
    kept = [w for w in re.findall(r"[\w’'-]+", words) if w.lower() not in GENERIC
            and not PRED_RE.fullmatch(w)]
    if after_same and (re.match(r"\s*(?:another|an additional|a further)\b", sentence[start:end], re.IGNORECASE)
                       or re.search(r"\b(?:more|other|others|additional)\b", words, re.IGNORECASE)):
        # "two people were killed ... another 30 victims": more than the deaths counted just
        # before; "killing 17 and wounding another 17" is the whole count of the wounded.
        kept.append("more")
    after = sentence[end:end + 60]
    degree = re.match(r"^\s*(?:were|was|are|is)?\s*(critically|seriously|in (?:critical|serious|stable|grave) "
                      r"condition)",
                      after, re.IGNORECASE)
    place = PART_AFTER.match(after) or PART_AFTER.match(re.sub(rf"^\s*{_AUX}(?:{_ALL})", "", after, flags=re.I))
    bits = kept + ([degree.group(1).lower()] if degree else []) + ([place.group("q").lower()] if place else [])
    return " ".join(bits) or None
