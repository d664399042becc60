"""The register of everything that really happened, in true UTC time."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TrueEvent:
    id: str
    kind: str
    t: float
    unit: str | None = None
    units: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    place: str | None = None
    note: str = ""
    related: bool = True  # part of the incident (False: the same afternoon's other business)
    attrs: dict = field(default_factory=dict)


class Register:
    def __init__(self) -> None:
        self.events: dict[str, TrueEvent] = {}

    def add(self, kind: str, t: float, **kw) -> str:
        eid = f"T{len(self.events) + 1:04d}"
        if kw.get("unit") and not kw.get("units"):
            kw["units"] = [kw["unit"]]
        self.events[eid] = TrueEvent(eid, kind, float(t), **kw)
        return eid

    def __getitem__(self, eid: str) -> TrueEvent:
        return self.events[eid]
