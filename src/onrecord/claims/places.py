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
         r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a)\s+(?:seconds?|minutes?|hours?))")
PLACE_RE = re.compile(
    rf"\b{POSITION_VERBS}\s+(?:\w+ly\s+)?(?P<place>{PREPOSITIONS}\s+(?:(?!{_STOP}\b)[\w’'-]+\s*){{1,8}}?)"
    rf"(?=[,.;:—–)]|\s+{_STOP}\b|$)",
    re.IGNORECASE,
)
# "was at 2:20", "was at least", "was by then": not places.
NOT_A_PLACE = re.compile(r"^(?:at|by|near|in|inside|outside)\s+(?:\d|around|about|approximately|least|most|first|"
                         r"once|then|that|the time|all|"
                         r"risk|work|home time|fault|odds|a loss|ease|peace|shock|pain|danger)", re.IGNORECASE)


@dataclass
class Place:
    start: int  # sentence-relative span of the place phrase
    end: int
    text: str
    verb_start: int


def find_places(sentence: str) -> list[Place]:
    out = []
    for m in PLACE_RE.finditer(sentence):
        text = re.sub(r"(?:\s+[a-z]+ed)+$", "", m.group("place").strip())  # "... school rushed to"
        if NOT_A_PLACE.match(text) or len(text.split()) < 2:
            continue
        out.append(Place(m.start("place"), m.start("place") + len(text), text, m.start()))
    return out
