"""What a clock tied to nothing would need, said per source.

A clock no shared moment ties is left unknown (clocks.py), never guessed; the user is told
why and what would tie it, in the words of the mapping: the units it names that no other
export names, entries that name no door, moments it records that no other source records,
and the pin that always works (`onrecord pin-clock`).
"""

from __future__ import annotations

import pandas as pd

# moments keyed by what is not a unit: a caller's number, an incident number
NOT_UNITS = ("call_answered", "call_transfer", "incident_created")
PIN = "or pin it (onrecord pin-clock CASE FILE -- OFFSET --uncertainty S, docs/mappings.md)"


def needs(source: int, anchored: pd.DataFrame, unit_names: dict, kinds: frozenset = frozenset()) -> str:
    """One sentence: what source `source`'s records (event `kinds`) lack to share a moment
    with a tied clock."""
    mine = anchored[anchored["source_id"] == source] if len(anchored) else anchored
    if (mine is None or mine.empty) and "camera_observation" in kinds:
        return ("its camera views name no unit and no door, so none can be matched: map the door the camera "
                "watches ([fields] place, as the door log or radio names it) or the unit seen; " + PIN)
    if mine is None or mine.empty:
        return ("it records no moment another source could share (a unit's status, a call with its "
                "caller's number, a door, shots): map one of them, " + PIN)
    others = anchored[anchored["source_id"] != source]
    said = []
    unit_rows = ~mine["family"].isin(NOT_UNITS)
    units = set(mine.loc[unit_rows, "who"].dropna()) - set(others["who"].dropna())
    if units:
        names = sorted(str(unit_names.get(u, u)) for u in units)
        said.append(f"another export naming unit {', '.join(names[:4])}" + (" ..." if len(names) > 4 else "")
                    + " (its radio log or AVL, or a roster alias: call_sign, vehicle, radio_id)")
    created = set(mine.loc[mine["family"] == "incident_created", "who"].dropna()) - set(others["who"].dropna())
    if created:
        numbers = sorted(str(c).split("|", 1)[-1] for c in created)
        said.append(f"another export of its agency's CAD holding the creation of incident {', '.join(numbers[:3])}"
                    + (" ..." if len(numbers) > 3 else "") + " (its chronology or calls table, mapped as "
                    "incident_created with the incident number as call)")
    entries = mine[mine["family"] == "entry"]
    if len(entries) and entries["place"].isna().all() and entries["who"].isna().all():
        said.append("the door its entries happened at (map [fields] place, the door's name as the door log "
                    "or radio writes it)")
    families = set(mine["family"]) - set(others["family"])
    if families:
        said.append(f"another source recording its {', '.join(sorted(families))} moments")
    if not said:
        said.append("a moment it shares with a tied source that names it unmistakably (only doors or units "
                    "seen elsewhere at other times, or names that disagree, were found)")
    return "it would need " + "; or ".join(said) + "; " + PIN
