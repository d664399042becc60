"""Titles and role nouns, grouped into families.

A family says which people a bare description can mean: "the deputy" can be the school
resource officer (both `officer`), "the Coral Springs Sheriff" can be the Coral Springs
chief of police (both `head`: the person who runs an agency), but "the deputy" is never
the sheriff. Families are what let a wrong title still resolve without merging people.
"""

from __future__ import annotations

FAMILIES = {
    "officer": [
        "school resource officer", "resource officer", "police officer", "deputy",
        "officer", "cop", "sro", "trooper", "patrolman", "patrolwoman", "detective",
        "sergeant", "sgt", "corporal", "cpl", "lieutenant", "lt", "captain", "capt", "agent",
    ],
    "head": [
        "top cop", "chief of police", "police chief", "fire chief", "sheriff", "chief",
        "commissioner of police", "undersheriff", "marshal",
    ],
    "perpetrator": [
        "mass shooter", "shooter", "gunman", "killer", "suspect", "assailant", "attacker",
        "murderer",
    ],
    "official": [
        "city manager", "manager", "superintendent", "commissioner", "mayor", "governor",
        "gov", "senator", "sen", "representative", "rep", "president", "principal",
        "director", "councilman", "councilwoman", "councilmember", "secretary", "judge",
        "prosecutor", "attorney", "spokesman", "spokeswoman", "spokesperson", "chairman",
    ],
    "responder": ["firefighter", "paramedic", "medic", "emt", "dispatcher"],
    "civilian": ["coach", "teacher", "student", "witness", "resident", "parent", "nurse"],
    "courtesy": ["mr", "mrs", "ms", "dr", "miss"],
    # ranks above the working officer: matched by the word itself, never by family
    "rank": ["colonel", "col", "major", "commander", "inspector", "lieutenant colonel"],
}

FAMILY_OF = {word: fam for fam, words in FAMILIES.items() for word in words}

# Which kind of agency a title belongs to, so "Broward Sheriff X" links to the
# Broward sheriff's office and "Coral Springs Chief of Police X" to its police.
AGENCY_OF_TITLE = {
    "sheriff": "sheriff", "deputy": "sheriff", "undersheriff": "sheriff",
    "chief of police": "police", "police chief": "police", "chief": "police",
    "officer": "police", "police officer": "police", "sergeant": "police",
    "detective": "police", "trooper": "police", "fire chief": "fire",
    "firefighter": "fire", "paramedic": "fire", "city manager": "city",
    "manager": "city", "mayor": "city", "superintendent": "school",
    "principal": "school", "resource officer": "sheriff", "school resource officer": "sheriff",
}

# Role words that may precede a name ("Deputy Scot Peterson", "football coach Aaron Feis").
TITLE_WORDS = sorted(FAMILY_OF, key=len, reverse=True)


def family_of(title: str | None) -> str | None:
    if not title:
        return None
    t = title.lower().replace(".", "").strip()
    if t in FAMILY_OF:
        return FAMILY_OF[t]
    # "High School Resource Officer" -> the longest known ending decides.
    for word in TITLE_WORDS:
        if t.endswith(" " + word):
            return FAMILY_OF[word]
    return None


def agency_of(title: str | None) -> str | None:
    if not title:
        return None
    t = title.lower().replace(".", "").strip()
    for word in sorted(AGENCY_OF_TITLE, key=len, reverse=True):
        if t == word or t.endswith(" " + word):
            return AGENCY_OF_TITLE[word]
    return None
