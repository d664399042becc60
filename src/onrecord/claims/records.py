"""The plain records the claims module hands to the rest of onrecord.

Every record is a dataclass of JSON-ready values so `--json`, the case store and the
report can all take them as they are (`asdict`). Values are intervals because what
people say is: "upwards of four minutes" is [4, open), not 4.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from onrecord.model import Claim


@dataclass
class Mention:
    """One place in one document where a person, agency or description is named."""

    doc: str
    start: int
    end: int
    text: str
    kind: str  # person | org | group | description | pronoun
    first: str | None = None
    last: str | None = None
    title: str | None = None
    family: str | None = None  # role family: officer, head, perpetrator, official, ...
    place: str | None = None  # "Coral Springs" in "Coral Springs Chief of Police"
    agency: str | None = None  # police | sheriff | fire | city | county | school | federal
    entity: str | None = None  # filled by entity resolution
    middle: str | None = None  # a middle initial, "F" in "Curtis F. Field"


@dataclass
class Entity:
    id: str
    kind: str  # person | org | author | incident | group
    name: str
    aliases: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    org: str | None = None
    mentions: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Conflict:
    subject: str | None
    measure: str
    unit: str
    sides: list[dict[str, Any]]  # two sides: claim id, speaker, sentence, lo, hi
    reason: str
    incident: str | None = None  # the incident both sides are about (incidents.py)


@dataclass
class Comparison:
    claim: str
    verdict: str  # supports | contradicts | cannot_tell
    reason: str


@dataclass
class Analysis:
    """Everything `onrecord claims` prints: the three parts of the --json schema."""

    documents: list[dict[str, Any]]
    entities: list[Entity]
    claims: list[Claim]
    groups: list[dict[str, Any]]
    conflicts: list[Conflict]
    incidents: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "onrecord.claims/1",
            "documents": self.documents,
            "incidents": self.incidents,
            "entities": [asdict(e) for e in self.entities],
            "claims": [asdict(c) for c in self.claims],
            "groups": self.groups,
            "conflicts": [asdict(c) for c in self.conflicts],
        }
