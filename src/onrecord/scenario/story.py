"""The true story: what really happened and when, before any agency wrote it down.

Writers derive every source from a `Story`; truth.json is the story plus the link from
each written record back to the true event and the true people and units behind it.
Times are UTC seconds since the epoch (floats).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from onrecord.scenario.world import Person, World


@dataclass
class TrueEvent:
    eid: str
    kind: str
    t: float
    unit: str | None = None          # unit entity id
    people: list[str] = field(default_factory=list)
    place: str = ""
    note: str = ""


@dataclass
class Burst:
    eid: str
    t: float
    end: float
    floor: int
    shots: int


@dataclass
class Call:
    """One 911 call. Mobile calls ring at the city and are transferred to the county."""

    cid: str
    mobile: bool
    placed: float
    city_presented: float | None
    city_answered: float | None
    transferred: float | None
    county_presented: float
    county_answered: float
    ended: float
    phone: str
    caller_place: str
    report: str
    related: bool = True     # False: an ordinary call the same afternoon


@dataclass
class Run:
    """One unit's part in the response."""

    uid: str
    dispatched: float
    enroute: float | None
    arrived: float
    entered: float | None = None
    entry_eid: str | None = None
    cleared: float | None = None
    start_lat: float = 0.0
    start_lon: float = 0.0
    stage_lat: float = 0.0
    stage_lon: float = 0.0
    stage: str = ""


@dataclass
class Transmission:
    eid: str                 # the true event it records (a report of an arrival shares its id)
    t: float
    channel: str
    uid: str | None          # speaking unit; None for a dispatcher
    text: str
    seconds: float
    names: list[tuple[str, str]] = field(default_factory=list)  # (name as said, person id)


@dataclass
class Casualty:
    n: int
    handoff: float
    rescue: str              # unit entity id
    transported: float
    hospital: str
    triage: str


@dataclass
class CameraView:
    eid: str
    t: float                 # true moment the view was on screen
    footage: float           # true moment the footage shows
    camera: str
    shows: str


@dataclass
class Story:
    world: World
    t0: float                                  # the first shot
    attacker: Person
    events: dict[str, TrueEvent] = field(default_factory=dict)
    bursts: list[Burst] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    runs: dict[str, Run] = field(default_factory=dict)
    radio: list[Transmission] = field(default_factory=list)
    casualties: list[Casualty] = field(default_factory=list)
    views: list[CameraView] = field(default_factory=list)
    fate: str = "left"                         # "left" the building or "stopped" inside
    threat_ended: str = ""                     # eid of the event that ended the threat
    county_incident: str = ""
    city_incident: str = ""
    first_dispatch: str = ""
    entries: list[str] = field(default_factory=list)
    patched: float = 0.0
    camera_offset: float = 0.0
    camera_lag: float = 0.0
    channels: dict[str, str] = field(default_factory=dict)  # agency -> talkgroup
    # the fire dispatch talkgroup, hosted on the county's system: fire tone-outs go out on it
    fire_dispatch_channel: str = ""
    # unit -> (time, true event) of the first AVL ping that has it stopped at its stage
    avl_on_scene: dict[str, tuple[float, str]] = field(default_factory=dict)

    def add(self, eid: str, kind: str, t: float, **kw) -> TrueEvent:
        if eid in self.events:
            raise ValueError(f"duplicate true event {eid}")
        ev = TrueEvent(eid, kind, round(t, 3), **kw)
        self.events[eid] = ev
        return ev

    def at(self, eid: str) -> float:
        return self.events[eid].t

    @property
    def first_shot(self) -> float:
        return self.bursts[0].t

    @property
    def last_shot(self) -> float:
        return self.bursts[-1].end

    def floor_at(self, t: float) -> int | None:
        """Where the attacker was firing at time t (the last burst begun), if inside."""
        begun = [b for b in self.bursts if b.t <= t]
        return begun[-1].floor if begun else None
