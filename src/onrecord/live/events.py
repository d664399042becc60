"""A live event: one stored event as the rules read it — its time on the common clock
(an interval, with how well its source's clock is known), who it is about, and what it
means for the incident (`whats`), read with the build's own lexicon (reconstruct/moments.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from onrecord.reconstruct.moments import moment_of, transferred_in

# A spoken or typed report of gunfire ("possible shots fired", "I hear shots"); the build
# reads shots from sensors and cameras only, a live board needs the reports too.
SHOTS_SAID = re.compile(r"\b(shots? (fired|heard)|hear(d)? (shots?|gunfire)|gunfire|gun ?shots?|shooting)\b", re.I)
NO_SHOTS = re.compile(r"\bno (more )?(shots?|gunfire)\b|\bshots? (stopped|ceased)\b", re.I)
# A unit's own report of gunfire where it is ("I hear shots", "possible shots fired, 1200
# building"): it is there, whatever CAD has typed yet.
HEARS_SHOTS = re.compile(r"\b((i|we)('m| am| are)? hear(ing)? (shots?|gunfire)|possible shots fired|"
                         r"shots fired (at|in|by|near) (my|our) (location|position))\b", re.I)
STAGING = re.compile(r"\bstag(ed|ing)\b", re.I)

CALL_KINDS = ("call_received", "call_transferred", "call_answered")


@dataclass
class LiveEvent:
    id: int  # the stored event's id: the evidence an alert cites
    source_id: int
    kind: str
    t_lo: int | None  # on the common clock (UTC ms), the clock's uncertainty included
    t_hi: int | None
    unit: object = None  # the unit's key: a who-is-who entity, or its id as written, folded
    unit_name: str | None = None
    agency: str | None = None
    call: str | None = None
    channel: str | None = None
    text: str | None = None
    attrs: dict = field(default_factory=dict)
    source_kind: str | None = None
    clock: str = "unknown"  # reference / pinned / estimated / unknown: how its time was aligned
    frame: int | None = None  # the raw record (frame) it was read from
    whats: tuple[str, ...] = ()

    @property
    def t(self) -> int | None:
        if self.t_lo is None or self.t_hi is None:
            return self.t_lo if self.t_hi is None else self.t_hi
        return (self.t_lo + self.t_hi) // 2


def interpret(ev: LiveEvent) -> LiveEvent:
    """Fill in what the event means; an event may mean two things (a unit's "on scene,
    possible shots fired")."""
    ev.whats = tuple(dict.fromkeys(_whats(ev)))
    return ev


def _whats(ev: LiveEvent):
    kind, text, attrs = ev.kind, ev.text or "", ev.attrs
    if kind in ("shots_detected", "shots_reported"):
        yield "shots"
        return
    if kind == "camera_observation" and attrs.get("lag_s") is not None:
        yield "camera_view"
        return
    if kind in CALL_KINDS:
        yield {"call_received": "call_after_transfer" if transferred_in(attrs) else "call_ring",
               "call_transferred": "call_transferred", "call_answered": "call_answered"}[kind]
        return
    # staging is kept apart from on scene (reconstruct/staging.py): the build's lexicon files a
    # "staged" under the arrival's family (one moment for the clocks), the board and the
    # rules about units on scene must not
    if kind == "staging" and ev.unit is not None:
        yield "unit_staging"
    elif kind in ("unit_status", "unit_arrived", "radio_transmission") and ev.unit is not None and \
            STAGING.search(text):
        yield "unit_staging"
    elif kind == "exit" and ev.unit is not None:
        yield "unit_exited"
    elif kind == "incident_closed":
        yield "incident_closed"
    else:
        m = moment_of(kind, text, ev.unit, attrs if kind == "camera_observation" else {})
        if m is not None and m.what not in ("transmission", "first_arrival", "door", "call_answered"):
            yield m.what
    if kind in ("radio_transmission", "statement", "tip_received") or kind == "camera_observation":
        if SHOTS_SAID.search(text) and not NO_SHOTS.search(text):
            yield "shots"
            if kind == "radio_transmission" and ev.unit is not None and HEARS_SHOTS.search(text):
                yield "unit_hears_shots"
