"""Who a unit written in a live record is: its key (the build's who-is-who entity when
the case has been built, else the id as written, folded), its name, its agency, and
whether it is armed (the roster's or the build's word; else fire and EMS apparatus —
`E31`, `Rescue 75`, an agency whose units are mostly those — are unarmed)."""

from __future__ import annotations

from onrecord.attributes import yes_no
from onrecord.findings.metrics import APPARATUS, is_fire_ems
from onrecord.reconstruct.names import compact_unit, fold

# Who talks on a channel without being a unit in the field.
NOT_UNITS = {"DISPATCH", "DISP", "DISPATCHER", "CONSOLE", "COMM", "COMMS", "RADIO", "CAD", "SYSTEM", "UNKNOWN"}


class UnitDirectory:
    def __init__(self, entities: list[dict] | None = None):
        self.entities = {e["id"]: e for e in entities or []}
        self.alias: dict[str, int] = {}
        for e in self.entities.values():
            for name in [e["name"], *(e.get("aliases") or [])]:
                self.alias.setdefault(compact_unit(str(name)), e["id"])
        self.by_agency: dict[str | None, set[str]] = {}
        for e in self.entities.values():
            self.by_agency.setdefault(e.get("agency"), set()).add(e["name"])
        self.names: dict[object, str] = {}

    def key(self, written: str | None, agency: str | None = None):
        """The unit a record's unit field names (None: it names none)."""
        if not written or not written.strip():
            return None
        folded = compact_unit(written)
        if not folded or folded in NOT_UNITS:
            return None
        key = self.alias.get(folded, folded)
        self.names.setdefault(key, written.strip())
        if key not in self.entities:
            self.by_agency.setdefault(agency, set()).add(written.strip())
        return key

    def describe(self, ev) -> tuple[str, str | None, bool]:
        e = self.entities.get(ev.unit)
        if e is not None:
            attrs = e.get("attrs") or {}
            agency = e.get("agency") or ev.agency
            armed = yes_no(attrs.get("armed"))  # checked at import (docs/attributes.md)
            return e["name"], agency, armed if armed is not None else not self._fire_ems(agency, e["name"])
        name = ev.unit_name or self.names.get(ev.unit) or str(ev.unit)
        return name, ev.agency, not self._fire_ems(ev.agency, name)

    def _fire_ems(self, agency: str | None, name: str) -> bool:
        if APPARATUS.match(fold(compact_unit(name))):
            return True
        return is_fire_ems(sorted(self.by_agency.get(agency, ())))
