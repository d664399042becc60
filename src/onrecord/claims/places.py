"""Where someone was: "the deputy taking a position outside the west side of Building 12",
"I was near Building 2", "Deputy X pulled up near the north driveway".

A place is words, not a number: the claim keeps the phrase in `value_text`. Places are
grouped with the other claims about the same person but never called a conflict, since
two wordings of one place ("the east doors", "the east side of Building 6") are common.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

POSITION_VERBS = (r"(?:was|were|stood|stands|waited|remained|stayed|hid|sat|parked|pulled up|arrived|"
                  r"(?:took|taking|take|takes) (?:up )?(?:a |his |her |their )?position|positioned|"
                  r"stationed|was standing|were standing)")
PREPOSITIONS = r"(?:outside|inside|near|behind|at|by|beside|next to|in front of|on the \w+ side of|across from)"
_STOP = (r"(?:while|when|as|and|but|where|until|after|before|during|despite|with|for|about|around|roughly|"
         r"at the time|at that (?:point|time|moment)|by then|at first|"
         r"I|he|she|we|they|you|it|under|from|last|this|"
         r"never|not|did|didn[’']t|had|has|was|were|is|are|who|which|that|to|so|then|because|"
         r"approximately|nearly|some|upwards|at least|"
         # "inside the school within three minutes", "at the bar at 7:08 p.m.": a second phrase
         # (a time, a delay) is not part of the place
         r"within|in|at|on|by|since|into|upon|"
         r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a)\s+(?:seconds?|minutes?|hours?))")
PLACE_RE = re.compile(
    rf"\b{POSITION_VERBS}\s+(?:\w+ly\s+)?(?P<place>{PREPOSITIONS}\s+(?:(?!{_STOP}\b)[\w’'-]+\s*){{1,8}}?)"
    rf"(?=[,.;:—–)]|\s+{_STOP}\b|$)",
    re.IGNORECASE,
)
# "was at 2:20", "was at least", "was by then": not places.
NOT_A_PLACE = re.compile(r"^(?:at|by|near|in|inside|outside)\s+(?:\d|around|about|approximately|least|most|first|"
                         r"once|then|that|the time|all|midnight|noon|dawn|night|the scene\b|"
                         r"risk|work|home time|fault|odds|a loss|ease|peace|shock|pain|danger)", re.IGNORECASE)


@dataclass
class Place:
    start: int  # sentence-relative span of the place phrase
    end: int
    text: str
    verb_start: int


# A place is a locative phrase whose head is a place noun, hung on a verb of where someone
# was or went ("arrives behind the school", "park next to nearby ballfield", "enter the
# school through boiler room door", "took him into custody inside the nightclub", "was on
# campus", "staying outside the building", "cowering behind their vehicles").
PLACE_NOUN = (r"(?:building|buildings|school|door|doors|doorway|entrance|exit|vehicles?|cars?|cruisers?|"
              r"(?:parking )?lot|campus|field|ballfield|room|bathrooms?|restroom|club|nightclub|windows?|rear|"
              r"hallways?|hall|stairwell|stairs|classrooms?|foyer|lobby|office|store|church|theater|theatre|"
              r"street|yard|perimeter|side|wall|pillar|gate|patio|stage|floor|corridor|driveway|sidewalk|"
              r"roof|rooftop|trailer|tree|truck|wing|gym|gymnasium|cafeteria|library|sanctuary|"
              r"staircase|stairway|landing|elevators?|suite|hotel|venue|area|corner|garage|"
              r"courtyard|lawn|porch|steps|atrium|commons|command post|post)")
# Not "into"/"in": "ran into the building" is where the incident is, not a position taken.
LOCATIVE = r"(?:outside|inside|behind|near|at|beside|next to|through|in front of|on|across from|by)"
PLACE2_RE = re.compile(
    rf"\b(?P<verb>(?:[a-z]+ing|was|were|is|are|stood|stands|sat|hid|parked|parks|park|arrived|arrives|arrive|"
    rf"entered|enters|enter|ran|runs|run|went|goes|came|comes|pulled|pull|pulls|stayed|stays|remained|remains|"
    rf"waited|waits|took|takes|met|meets|encountered|confronted|detained|detains|arrested|found|crouched|"
    rf"gathered|staged|hunkered|positioned|stationed))\b"
    rf"\s+(?:[\w’'-]+\s+){{0,3}}?(?P<place>{LOCATIVE}\s+(?:(?:the|their|his|her|its|a|an|nearby)\s+)?"
    rf"(?:[\w’'-]+\s+){{0,4}}?{PLACE_NOUN}(?:\s+of\s+(?:the\s+)?(?:[\w’'-]+\s+){{0,2}}?{PLACE_NOUN})?)\b",
)
# Being in a place, not going into it ("was in the stairwell", "remained in the cafeteria",
# "staged in the parking lot", "took up positions in the hallway"): only after a verb of staying
# or of taking a position, and only with a place noun, so "was in custody" is none.
_THE = r"(?:the|a|an|their|his|her|its|nearby)\s+"
_NOUN_PHRASE = (rf"(?:[\w’'-]+\s+){{0,4}}?{PLACE_NOUN}(?:\s+of\s+(?:the\s+)?(?:[\w’'-]+\s+){{0,2}}?{PLACE_NOUN})?")
STAY_IN_RE = re.compile(
    rf"\b(?P<verb>was|were|remained|remain|remains|stayed|stay|stays|waited|waits|wait|staged|stage|stages|"
    rf"gathered|gather|gathers|stood|hid|sat|positioned|stationed|crouched|hunkered|huddled|massed|assembled|"
    rf"(?:took|take|takes|taking) up positions?|set up (?:a |their |his |her )?(?:perimeter|command post|positions?))"
    rf"\s+(?:\w+ly\s+)?(?:down\s+)?"
    rf"(?P<place>(?:in|on|inside|outside|at|near|behind|across from)\s+{_THE}{_NOUN_PHRASE})\b")
# Getting to a place named as the object ("reached the 32nd floor", "made their way to the second
# floor of the library", "went up the stairs to the 32nd floor")
REACH_RE = re.compile(
    rf"\b(?P<verb>reached|reach|reaches|made (?:their|his|her|its) way (?:up |back )?to|got (?:up )?to|"
    rf"went up (?:the (?:stairs|stairwell|stairway) )?to|climbed (?:the stairs )?to|ran up (?:the stairs )?to|"
    rf"(?:pull|pulls|pulled|pulling|drive|drives|drove|driving) (?:into|up to)|rushed to|headed to)"
    rf"\s+(?P<place>{_THE}{_NOUN_PHRASE})\b")
WITHIN_AFTER = re.compile(r"\s+(?:within|in\s+(?:under|less than|about|just|\d|one|two|three|four|five|a\b))",
                          re.IGNORECASE)
NOT_PLACE_WORDS = re.compile(r"\b(?:custody|time|least|most|once|all|risk|fault|danger|order|charge|hand|fire)\b", re.I)


def find_places(sentence: str) -> list[Place]:
    out = []
    for m in PLACE_RE.finditer(sentence):
        text = re.sub(r"(?:\s+[a-z]+ed)+$", "", m.group("place").strip())  # "... school rushed to"
        if NOT_A_PLACE.match(text) or len(text.split()) < 2:
            continue
        out.append(Place(m.start("place"), m.start("place") + len(text), text, m.start()))
    for m in PLACE2_RE.finditer(sentence):
        text = m.group("place")
        if any(p.start < m.end("place") and m.start("place") < p.end for p in out) or NOT_PLACE_WORDS.search(text):
            continue
        if m.group("verb").lower() in {"during", "morning", "evening", "building", "shooting", "being"}:
            continue  # -ing words that are no verb of position
        out.append(Place(m.start("place"), m.end("place"), text, m.start()))
    for rx in (STAY_IN_RE, REACH_RE):
        for m in rx.finditer(sentence):
            text = m.group("place")
            if any(p.start < m.end("place") and m.start("place") < p.end for p in out) \
                    or NOT_PLACE_WORDS.search(text):
                continue
            if WITHIN_AFTER.match(sentence, m.end("place")):
                continue  # "officers were in the theater within a minute": an arrival, read as its delay
            out.append(Place(m.start("place"), m.end("place"), text, m.start()))
    return sorted(out, key=lambda p: p.start)
