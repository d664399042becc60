"""Reading people's names and units' ids the many ways records write them."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

RANKS = {
    "deputy": "Deputy", "dep": "Deputy", "officer": "Officer", "ofc": "Officer", "po": "Officer",
    "sergeant": "Sergeant", "sgt": "Sergeant", "corporal": "Corporal", "cpl": "Corporal",
    "lieutenant": "Lieutenant", "lt": "Lieutenant", "captain": "Captain", "capt": "Captain",
    "cpt": "Captain", "major": "Major", "chief": "Chief", "sheriff": "Sheriff",
    "detective": "Detective", "det": "Detective", "ff": "Firefighter", "firefighter": "Firefighter",
    "paramedic": "Paramedic", "emt": "EMT", "engineer": "Engineer", "trooper": "Trooper",
}
# Apparatus and unit-type words radio uses where CAD writes a letter: "Engine 31" = E31.
UNIT_WORDS = {"engine": "E", "rescue": "R", "ladder": "L", "truck": "T", "medic": "M",
              "battalion": "B", "squad": "SQ", "tower": "TW", "brush": "BR", "tanker": "TK"}


def fold(text: str) -> str:
    """Upper case letters and digits only, accents removed: the form ids are compared in."""
    text = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def compact_unit(text: str) -> str:
    """'Engine 31' -> 'E31', 'Rescue-47' -> 'R47', '13D29' -> '13D29'."""
    words = re.findall(r"[A-Za-z]+|\d+", text)
    if len(words) >= 2 and words[0].lower() in UNIT_WORDS and words[1].isdigit():
        return UNIT_WORDS[words[0].lower()] + "".join(words[1:])
    return fold(text)


@dataclass(frozen=True)
class PersonName:
    first: str  # folded, may be "" or one initial
    middle: str
    last: str
    rank: str | None

    def compatible(self, other: "PersonName", *, fuzzy_last: bool = False) -> bool:
        """Could these be the same person? Surnames must agree exactly unless other
        evidence (same unit, same badge) lets a one-letter slip through."""
        if not self.last or not other.last:
            return False
        if self.last != other.last and not (fuzzy_last and one_edit_apart(self.last, other.last)):
            return False
        return _given_compatible(self.first, other.first) and _given_compatible(self.middle, other.middle)


    def same_with_evidence(self, other: "PersonName") -> bool:
        """With a shared unit or badge, a surname one slip away and a given name that
        only shares its initial (a nickname: Tom for Thomas) are enough."""
        if not self.last or not other.last:
            return False
        if self.last != other.last and not one_edit_apart(self.last, other.last, shortest=3):
            return False
        return not self.first or not other.first or self.first[0] == other.first[0]


def _given_compatible(a: str, b: str) -> bool:
    if not a or not b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return a == b or a.startswith(b) or b.startswith(a)


def one_edit_apart(a: str, b: str, shortest: int = 4) -> bool:
    """A letter doubled, dropped, changed or two swapped: a clerk's slip."""
    from rapidfuzz.distance import DamerauLevenshtein

    return DamerauLevenshtein.distance(a, b) <= 1 and min(len(a), len(b)) >= shortest


def parse_person(text: str) -> PersonName | None:
    """'Deputy Thomas R. Okafor', 'OKAFOR, THOMAS R', 'SCHAEFER R', 'TREMBLAY, A.'."""
    if not text or not text.strip():
        return None
    words = re.findall(r"[A-Za-z][A-Za-z'\-]*\.?|,", text)
    rank = None
    while words and words[0] != "," and words[0].rstrip(".").lower() in RANKS:
        rank = RANKS[words.pop(0).rstrip(".").lower()]
    words = [w.rstrip(".") for w in words]
    if not [w for w in words if w != ","]:
        return None
    if "," in words:  # LAST, FIRST M
        i = words.index(",")
        last, given = words[:i], [w for w in words[i + 1:] if w != ","]
    elif len(words) >= 2 and all(len(w) == 1 for w in words[1:]) and len(words[0]) > 1:
        last, given = words[:1], words[1:]  # SCHAEFER R
    else:
        last, given = words[-1:], words[:-1]
    first = fold(given[0]) if given else ""
    middle = fold(given[1]) if len(given) > 1 else ""
    return PersonName(first=first, middle=middle, last=fold("".join(last)), rank=rank)
