"""Warning indicators found in narrative text by documented word rules.

A tip or a contact report says "he said he would shoot up the school" or "kept posting
pictures of rifles". These rules find such phrases so a reader sees, per person, which
agencies' records mention weapons, threats to a school, violence or self-harm, with the
exact words that triggered each flag. They are leads for a human, not findings of fact:
rules read words, not meaning. Each rule is documented in docs/warnings.md.

A hit preceded closely by a negation ("denied owning a gun", "no weapons") is still
reported, marked `negated`, because a denial on record is itself worth seeing.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    import pandas as pd

# Words a school threat can aim at.
_SCHOOL = r"(?:school|schools|campus|classroom|class|students|teachers|cafeteria|gym)"
# Acts that, near a school word, make a threat.
_THREAT_ACT = (
    r"(?:shoot(?:s|ing)?(?:\s+up)?|shot\s+up|kill(?:s|ing)?|bomb(?:s|ing)?|blow(?:ing)?\s+up"
    r"|attack(?:s|ing)?|massacre|slaughter|murder)"
)
# At most this many words between the act and the school word ("shoot up the whole
# school"); wider windows start joining unrelated clauses.
_GAP = r"(?:\W+\w+){0,5}?\W+"
_SELF = r"(?:myself|himself|herself|themselves|themself|yourself)"

NEGATORS = ("no", "not", "never", "without", "denied", "denies", "deny", "none", "nor")
NEGATION_WINDOW = 3  # words before a hit searched for a negator


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    pattern: re.Pattern


@dataclass(frozen=True)
class Indicator:
    """One rule hit: which rule, where in the text, the words, and any negation."""

    rule: str
    start: int
    end: int
    matched: str
    negated: bool = False


def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


RULES: tuple[Rule, ...] = (
    Rule(
        "weapons",
        "names a firearm, ammunition, a bladed weapon or an explosive",
        _rx(r"\b(?:guns?|rifles?|shotguns?|pistols?|handguns?|revolvers?|firearms?"
            r"|weapons?|ar-?15s?|ak-?47s?|ammo|ammunition|magazines?\s+of\s+\w+"
            r"|bullets?|knife|knives|machetes?|bombs?|pipe\s+bombs?|explosives?"
            r"|grenades?)\b"),
    ),
    Rule(
        "threat_to_school",
        "a violent act with at most five words between it and a school word, "
        "either order, "
        "or 'school shooter'",
        _rx(rf"\b{_THREAT_ACT}{_GAP}{_SCHOOL}\b|\b{_SCHOOL}{_GAP}{_THREAT_ACT}\b"
            r"|\bschool\s+shoot(?:er|ers|ing)\b"),
    ),
    Rule(
        "violence",
        "an act of violence against another person (killing aimed at oneself is "
        "self-harm, not violence)",
        _rx(rf"\b(?:kill(?:s|ed|ing)?|murder(?:s|ed|ing)?)\b(?!\s+{_SELF})"
            r"|\b(?:stab(?:s|bed|bing)?|shoot(?:s|ing)?|shot|beat(?:s|en|ing)?\s+(?:up|him|her|them)"
            r"|assault(?:s|ed|ing)?|punch(?:es|ed|ing)?|chok(?:e|es|ed|ing)"
            r"|strangl(?:e|es|ed|ing)|threaten(?:s|ed|ing)?\s+to\s+hurt)\b"),
    ),
    Rule(
        "self_harm",
        "suicide, self-harm or wishing to die",
        _rx(rf"\b(?:kill(?:s|ed|ing)?\s+{_SELF}|suicid(?:e|al)|self[-\s]?harm(?:ing)?"
            rf"|cut(?:s|ting)?\s+{_SELF}|hurt(?:s|ing)?\s+{_SELF}|end\s+(?:my|his|her|their)\s+life"
            r"|(?:do|does)\s*n[o']?t\s+want\s+to\s+(?:live|be\s+alive)|overdos(?:e|ed|ing))\b"),
    ),
)


def find_indicators(text: str | None, rules: tuple[Rule, ...] = RULES) -> list[Indicator]:
    """Every rule hit in `text`, in reading order."""
    if not text:
        return []
    hits = []
    for rule in rules:
        for match in rule.pattern.finditer(text):
            negated = _is_negated(text, match.start())
            hits.append(Indicator(rule.name, match.start(), match.end(), match.group(0), negated))
    return sorted(hits, key=lambda h: (h.start, h.rule))


def flags(text: str | None) -> set[str]:
    """The rule names that fire without negation: the flags shown beside a person."""
    return {hit.rule for hit in find_indicators(text) if not hit.negated}


def _is_negated(text: str, start: int) -> bool:
    before = re.findall(r"[\w']+", text[:start].lower())[-NEGATION_WINDOW:]
    return any(word in NEGATORS or word.endswith("n't") for word in before)


def indicators_by_person(clusters: "pd.DataFrame", texts: Mapping[str, str | None]) -> "pd.DataFrame":
    """Every hit in each record's narrative, beside the person the record belongs to.

    `clusters` is `LinkResult.clusters` (record_id, person_id); `texts` maps a
    record_id to its narrative. Records without text contribute nothing.
    """
    import pandas as pd

    person_of = dict(zip(clusters["record_id"], clusters["person_id"]))
    rows = []
    for record_id, text in texts.items():
        for hit in find_indicators(text):
            rows.append({"person_id": person_of.get(record_id, record_id),
                         "record_id": record_id, **asdict(hit)})
    columns = ["person_id", "record_id", "rule", "start", "end", "matched", "negated"]
    return pd.DataFrame(rows, columns=columns)
