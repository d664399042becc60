"""APCO/NENA registry values onrecord reads, and the event kind each becomes (docs/eido.md
prints this table). Values are matched as the registries write them; a value in another
casing is read, and reported as a deviation (tolerant mode) or refused (strict)."""

from __future__ import annotations

# Secondary Unit Status registry -> event kind. Staging is not arrival on scene: it is a
# unit_status whose text says Staging (the live rules and the metrics read it so).
UNIT_STATUS = {
    "Dispatched": "unit_dispatched",
    "Assigned": "unit_dispatched",
    "EnRoute": "unit_enroute",
    "Responding": "unit_enroute",
    "Arrived": "unit_arrived",
    "OnScene": "unit_arrived",
    "Staging": "unit_status",
    "PatientContact": "patient_contact",
    "Transporting": "patient_transported",
    "AtHospital": "unit_status",
    "Cleared": "unit_available",
    "Available": "unit_available",
}
# A status not in the table is a unit_status with the value as its text.
UNKNOWN_UNIT_STATUS = "unit_status"

# Incident Status registry: Closed closes the incident; every other value is an incident_status.
INCIDENT_STATUS = {"Closed": "incident_closed", "Cleared": "incident_closed"}
OTHER_INCIDENT_STATUS = "incident_status"

# Agency Role registry: an agency that gains TransferredTo received the call by transfer.
TRANSFERRED_TO = "TransferredTo"

# Incident Type registry values the metrics single out (attrs.incident_type keeps every value).
ACTIVE_SHOOTER_TYPES = ("ACTSHOOT", "SHOOT")


def lookup(table: dict[str, str], value: str) -> tuple[str | None, str | None]:
    """(kind, the registry's spelling when `value` differs from it only in casing)."""
    if value in table:
        return table[value], None
    folded = {k.casefold(): k for k in table}
    key = folded.get(value.casefold())
    return (table[key], key) if key else (None, None)
