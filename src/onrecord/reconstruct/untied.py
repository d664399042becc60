"""What a clock tied to nothing would need, said per source.

A clock no shared moment ties is left unknown (clocks.py), never guessed; the user is told
why and what would tie it, in the words of the mapping: the units it names that no other
export names, entries that name no door, moments it records that no other source records,
and the pin that always works (`onrecord pin-clock`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from onrecord.reconstruct.lone_ties import TYPED_RANK, is_unit
from onrecord.reconstruct.moments import PLACELESS

# moments keyed by what is not a unit: a caller's number, an incident number, a radio line's
# own words (moments.py: two recorders logging one channel meet on the same words)
NOT_UNITS = ("call_answered", "call_transfer", "incident_created", "transmission")
PIN = "or pin it (onrecord pin-clock CASE FILE -- OFFSET --uncertainty S, docs/mappings.md)"
# the one declaration that needs no other source, for a clock its owner vouches for
TRUST = ("or, only if its owner states the clock is disciplined (GPS, NTP), declare it: [clock] trust = "
         "\"reference\" with uncertainty_s = S (docs/mappings.md, [clock])")


# One system writing two exports: what a [clock] name joins (docs/mappings.md, `[clock]`).
# Sensors are left out: a campus's door controller and its gunshot sensors are one agency's
# and one kind, and two machines; AVL is GPS-timed.
ONE_SYSTEM = {"cad": "CAD server", "camera": "video recorder", "call911": "phone system", "radio": "recorder",
              "patient": "ePCR server"}


@dataclass(frozen=True)
class Siblings:
    """What the build knows of a source beyond its moments, for the hint: the other
    exports of its agency and kind (the same system may have written them), whether it
    declares a clock name, and whether its camera views are replays or name a place."""

    kind: str | None = None
    same_system: tuple[str, ...] = ()  # file names of the agency's other exports of this kind
    named_clock: bool = False
    replays: bool = False  # every camera view carries shown_time
    places: bool = False  # its events name a place


def needs(source: int, anchored: pd.DataFrame, unit_names: dict, kinds: frozenset = frozenset(),
          siblings: Siblings = Siblings()) -> str:
    """One sentence: what source `source`'s records (event `kinds`) lack to share a moment
    with a tied clock. The declaration most likely to help comes first: a [clock] name
    where the agency has another export of its kind (one CAD's calls table and
    chronology, one recorder's review log and monitor log), whatever its records hold."""
    said = _same_clock(siblings)
    said += _what_to_map(source, anchored, unit_names, kinds, siblings)
    return "it would need " + "; or ".join(said) + "; " + TRUST + "; " + PIN


def _same_clock(siblings: Siblings) -> list[str]:
    if siblings.named_clock or not siblings.same_system or siblings.kind not in ONE_SYSTEM:
        return []
    files = ", ".join(siblings.same_system[:3]) + (" ..." if len(siblings.same_system) > 3 else "")
    system = ONE_SYSTEM[siblings.kind]
    return [f"if the same {system} wrote it as {files}: one clock for both, declared with the same "
            f"[clock] name = \"...\" in each mapping (or [clocks.\"FILE\"] name in onrecord.toml; "
            "docs/mappings.md, [clock])"]


def _what_to_map(source: int, anchored: pd.DataFrame, unit_names: dict, kinds: frozenset,
                 siblings: Siblings) -> list[str]:
    mine = anchored[anchored["source_id"] == source] if len(anchored) else anchored
    if (mine is None or mine.empty) and "camera_observation" in kinds:
        if siblings.replays:
            return ["its camera views are replays (each carries shown_time), and a replay shows the past, so "
                    "none is matched: map the footage's own moment too, a second [[events]] block with "
                    "time = the shown-time column and no shown_time (docs/mappings.md, [attributes])"]
        if siblings.places:
            return ["its camera views name a door, but no view's words say a moment the camera lexicon reads "
                    "(entry, shots, threat ended): add the phrases ([lexicon.camera], docs/lexicons.md)"]
        return ["the door the camera watches ([fields] place, as the door log or radio names it; "
                "docs/mappings.md, [clock]) or the unit seen"]
    if mine is None or mine.empty:
        return ["a moment another source could share (a unit's status, a call with its caller's number, a "
                "door, shots): map one of them (docs/mappings.md, [fields] and [attributes])"]
    others = anchored[anchored["source_id"] != source]
    said = []
    # a threat ended or a patch is keyed by its own name, not a unit's (moments.PLACELESS)
    unit_rows = ~mine["family"].isin(NOT_UNITS) & ~mine["family"].isin(PLACELESS)
    units = set(mine.loc[unit_rows, "who"].dropna()) - set(others["who"].dropna())
    if units:
        names = sorted(str(unit_names.get(u, u)) for u in units)
        said.append(f"another export naming unit {', '.join(names[:4])}" + (" ..." if len(names) > 4 else "")
                    + " (its radio log or AVL, or a roster alias: call_sign, vehicle, radio_id; docs/attributes.md)")
    created = set(mine.loc[mine["family"] == "incident_created", "who"].dropna()) - set(others["who"].dropna())
    if created:
        numbers = sorted(str(c).split("|", 1)[-1] for c in created)
        said.append(f"another export of its agency's CAD holding the creation of incident {', '.join(numbers[:3])}"
                    + (" ..." if len(numbers) > 3 else "") + " (its chronology or calls table, mapped as "
                    "incident_created with the incident number as call; docs/events.md, incident_created)")
    entries = mine[mine["family"] == "entry"]
    if len(entries) and entries["place"].isna().all() and entries["who"].isna().all():
        said.append("the door its entries happened at (map [fields] place, the door's name as the door log "
                    "or radio writes it; docs/mappings.md, [clock])")
    if (mine["family"] == "transmission").any():
        said.append("another recorder logging one of its channels (the same words at the same moment, as "
                    "when a talkgroup is patched or monitored: docs/metrics.md, \"The same words logged by two "
                    "radio recorders\"), or its radio lines' words read as moments other sources record "
                    "(arrivals, entries, shots: [lexicon.radio], docs/lexicons.md)")
    families = set(mine["family"]) - set(others["family"]) - {"transmission"}
    if families:
        said.append(f"another source recording its {', '.join(sorted(families))} moments")
    relayed = _relayed_families(mine, others)
    if relayed:
        said.append(f"a record it makes itself as it happens: its typed {', '.join(relayed)} "
                    "moments are other agencies' moments, told to its typist second-hand by a delay "
                    "nobody recorded, and tie nothing (docs/metrics.md, \"One named moment\")")
    if not said:
        said.append("a moment it shares with a tied source that names it unmistakably (only doors or units "
                    "seen elsewhere at other times, or names that disagree, were found)")
    return said


def _relayed_families(mine: pd.DataFrame, others: pd.DataFrame) -> list[str]:
    """The moments `mine` typed (rank 2), naming no unit, that only other agencies' records
    hold too: relayed to its typist (lone_ties.py, RELAYED_LAG_S)."""
    typed = mine[(mine["rank"] >= TYPED_RANK) & ~mine["who"].map(is_unit)]
    out = []
    for family, g in typed.groupby("family"):
        theirs = others[others["family"] == family]
        own = set(g["agency"].dropna().astype(str).str.strip().str.lower())
        if len(theirs) and own and not own & set(theirs["agency"].dropna().astype(str).str.strip().str.lower()):
            out.append(str(family))
    return sorted(out)


def siblings_of(source: int, sources: pd.DataFrame, events: pd.DataFrame, named: dict[int, str]) -> Siblings:
    """The hint's context for one source: its agency's other exports of its kind, whether its
    clock is named, and what its camera views carry."""
    me = sources[sources["id"] == source]
    if me.empty:
        return Siblings()
    row = me.iloc[0]
    agency = row.get("agency")
    same = sources[(sources["id"] != source) & (sources["kind"] == row["kind"])
                   & (sources["agency"].fillna("") == ("" if pd.isna(agency) else agency))]
    mine = events[events["source_id"] == source] if len(events) else events
    views = mine[mine["kind"].astype(str) == "camera_observation"] if len(mine) else mine
    attrs = views["attrs"].fillna("") if len(views) and "attrs" in views else pd.Series([], dtype=str)
    return Siblings(kind=str(row["kind"]), same_system=tuple(sorted(map(str, same["file_name"]))),
                    named_clock=int(source) in named,
                    replays=bool(len(attrs)) and bool(attrs.str.contains('"shown_time":"', regex=False).all()),
                    places=bool(len(mine)) and "place" in mine and bool(mine["place"].notna().any()))
