"""What is known of the incident so far, as the events come: each unit's status and
since when, the shots reported, the calls in transfer, the camera views called live, the
radio channels each agency's units talk on, the reports that the threat has ended.

Events may come out of their order on the common clock (a CAD typed late, a feed behind):
each fact keeps the time the records give it, never the time it was heard of.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from onrecord.live.events import LiveEvent

# A unit's status only moves forward (a CAD arrival typed after the radio's is the same
# arrival); "exited" takes an entered unit back outside, "available" ends its part.
ORDER = {"dispatched": 1, "enroute": 2, "staging": 3, "on_scene": 4, "entered": 5, "available": 6}
STATUS_OF = {"unit_dispatched": "dispatched", "unit_enroute": "enroute", "unit_staging": "staging",
             "unit_arrived": "on_scene", "entry": "entered", "unit_exited": "on_scene",
             "unit_available": "available"}
# on scene: outside or entered; staging (a point away from the scene, where units wait to
# be sent in) is not on scene, on the board or for the rules (reconstruct/staging.py)
ON_SCENE = ("on_scene", "entered")
DETECTED_KINDS = ("shots_detected", "camera_observation")
HEARD_WITHIN_S = 20  # a unit's "I hear shots" is about a shot recorded no more than this before it
# A dispatch system's own position record of a unit on a call is the AVL fix it marked the car
# on scene by (its geofence; reconstruct/avl_arrival.py reads it the same way)
DISPATCH_KINDS = (None, "cad", "eido")


@dataclass
class Unit:
    key: object
    name: str
    agency: str | None
    armed: bool
    status: str | None = None
    since: int | None = None  # when the records put it in this status
    call: str | None = None  # the dispatch system's call it was last recorded on ("source#call")
    evidence: dict[str, list[int]] = field(default_factory=dict)  # status -> the events that say so
    first: dict[str, int] = field(default_factory=dict)  # status -> the earliest time recorded

    def set(self, status: str, t: int, event_id: int, backwards: bool = False) -> bool:
        """Apply a status the records give at time t; True when the unit's status changed."""
        self.evidence.setdefault(status, []).append(event_id)
        self.first[status] = min(self.first.get(status, t), t)
        if status == self.status:
            if t < (self.since or t):
                self.since = t
                return True
            return False
        if self.status is not None and not backwards and ORDER[status] < ORDER[self.status]:
            return False
        self.status, self.since = status, t
        return True


@dataclass
class Call:
    key: str  # the caller's number (or the call number where no number is kept)
    rings: list[tuple[int, int]] = field(default_factory=list)  # (t, event) at the first answering point
    transferred: tuple[int, int] | None = None
    after_transfer: tuple[int, int] | None = None  # presented or answered at the next point


@dataclass
class Camera:
    source_id: int
    name: str
    views: list[tuple[int, float, int]] = field(default_factory=list)  # (t, lag s, event) of views called live


@dataclass
class Shot:
    t: int
    event: int
    detected: bool  # by a sensor or a camera, not a person's report


class Incident:
    """Everything the rules ask about, kept up as events are applied."""

    def __init__(self, directory):
        self.directory = directory  # live/units.py: who a written unit id is, and whether armed
        self.units: dict[object, Unit] = {}
        self.calls: dict[str, Call] = {}
        self.cameras: dict[int, Camera] = {}
        self.shots: list[Shot] = []  # in time order
        self._runs: dict[tuple[float, bool], Runs] = {}  # runs of shots, by the gap a rule allows
        self.threat_reports: dict[int, tuple[int, LiveEvent]] = {}  # event id -> (t, event)
        self.channels: dict[str, dict[str, int]] = {}  # agency -> channel -> a radio event on it
        self.patched: list[tuple[frozenset, int, int]] = []  # (channels, t, event)
        self.sources: dict[int, dict] = {}  # source id -> lag and last frame (the board's feed list)
        self.sent_to: dict[str, dict[object, int]] = {}  # "source#call" -> unit -> when sent or arrived
        self.geofenced: dict[tuple[object, str], tuple[int, int]] = {}  # (unit, "source#call") -> (t, event)
        self._incident_calls: tuple[int, frozenset] | None = None
        self.version = 0

    # ---- applying one event: returns the kinds of subject it touched

    def apply(self, ev: LiveEvent) -> set[str]:
        touched: set[str] = set()
        t = ev.t
        if t is None:
            return touched
        self.version += 1
        for what in ev.whats:
            if what in STATUS_OF and ev.unit is not None:
                u = self.unit(ev)
                if ev.call and ev.source_kind in (None, "cad", "eido"):
                    u.call = f"{ev.source_id}#{ev.call}"
                    if what in ("unit_dispatched", "unit_arrived"):
                        self.sent_to.setdefault(u.call, {}).setdefault(u.key, t)
                if u.set(STATUS_OF[what], t, ev.id, backwards=what == "unit_exited"):
                    touched |= {"unit", "agency"}
                if what == "unit_arrived" and self._arrived_by_fence(u):
                    touched |= {"unit", "agency"}
            elif what == "unit_position" and ev.unit is not None and ev.call and ev.source_kind in DISPATCH_KINDS:
                # the car inside the call's geofence: an arrival, once a record puts it on scene
                key = (ev.unit, f"{ev.source_id}#{ev.call}")
                self.geofenced[key] = min(self.geofenced.get(key, (t, ev.id)), (t, ev.id))
                u = self.units.get(ev.unit)
                if u is not None and self._arrived_by_fence(u):
                    touched |= {"unit", "agency"}
            elif what == "unit_hears_shots" and ev.unit is not None:
                # hearing them, it is there: on scene, unless already further — or at staging,
                # which is within earshot of the scene, not on it (a staged unit reporting
                # gunfire has not arrived)
                u = self.unit(ev)
                if u.status != "staging" and ORDER.get(u.status, 0) <= ORDER["on_scene"] and \
                        u.set("on_scene", self.heard_at(ev), ev.id):
                    touched |= {"unit", "agency"}
                if self._arrived_by_fence(u):
                    touched |= {"unit", "agency"}
            elif what == "shots":
                shot = Shot(t, ev.id, ev.kind in DETECTED_KINDS)
                if not self.shots or self.shots[-1].t <= t:
                    self.shots.append(shot)  # the usual case, in time order: no search
                else:
                    bisect.insort(self.shots, shot, key=_shot_t)
                for (gap, detected_only), runs in self._runs.items():
                    if shot.detected or not detected_only:
                        runs.add(shot)
                touched |= {"unit", "incident", "report"}
            elif what.startswith("call_"):
                self._call(what, ev, t)
                touched.add("call")
            elif what == "camera_view":
                cam = self.cameras.setdefault(ev.source_id, Camera(ev.source_id, ev.attrs.get("camera") or
                                                                  f"source {ev.source_id}"))
                bisect.insort(cam.views, (t, float(ev.attrs["lag_s"]), ev.id))
                touched.add("source")
            elif what == "threat_ended":
                self.threat_reports[ev.id] = (t, ev)
                touched.add("report")
            elif what == "channels_patched":
                self.patched.append((self._channels_named(ev), t, ev.id))
                touched.add("agency")
        if ev.kind == "radio_transmission" and ev.channel and ev.unit is not None:
            u = self.unit(ev)
            if u.agency and ev.channel not in self.channels.setdefault(u.agency, {}):
                self.channels[u.agency][ev.channel] = ev.id
                touched.add("agency")
        return touched

    def _arrived_by_fence(self, u: Unit) -> bool:
        """A unit on scene (outside, never gone in) whose dispatch system recorded it inside
        its call's geofence before the record that put it on scene: it was there from that
        fix (a radio "on scene" or a typed arrival comes seconds later). Not a fix from before
        it was at staging (a staging point inside the fence), nor one of another call."""
        if u.status != "on_scene" or u.call is None or "entered" in u.first:
            return False
        fix = self.geofenced.get((u.key, u.call))
        if fix is None or fix[0] >= (u.since or fix[0]) or fix[0] < u.first.get("staging", fix[0]):
            return False
        return u.set("on_scene", fix[0], fix[1])

    def heard_at(self, ev: LiveEvent) -> int:
        """When a unit reporting gunfire was there: at the latest shot recorded in the
        HEARD_WITHIN_S before its report (the one it is reporting; a radio call comes after
        the shots, measured over the generated seeds at 10-14 s), else at its report."""
        t = ev.t
        i = bisect.bisect_right(self.shots, t, key=lambda s: s.t)
        while i > 0:
            s = self.shots[i - 1]
            if t - s.t > HEARD_WITHIN_S * 1000:
                break
            if s.event != ev.id:
                return s.t
            i -= 1
        return t

    def first_shot_at_or_after(self, t: float) -> Shot | None:
        """The earliest shot recorded at `t` or later (asked of every unit at every shot: a
        search, not a scan)."""
        i = bisect.bisect_left(self.shots, t, key=_shot_t)
        return self.shots[i] if i < len(self.shots) else None

    def unit(self, ev: LiveEvent) -> Unit:
        u = self.units.get(ev.unit)
        if u is None:
            name, agency, armed = self.directory.describe(ev)
            u = self.units[ev.unit] = Unit(ev.unit, name, agency, armed)
        return u

    def _call(self, what: str, ev: LiveEvent, t: int) -> None:
        key = str(ev.attrs.get("ani") or ev.call or ev.id)
        c = self.calls.setdefault(key, Call(key))
        if what == "call_ring":
            c.rings.append((t, ev.id))
        elif what == "call_transferred":
            c.transferred = min(c.transferred or (t, ev.id), (t, ev.id))
        elif what in ("call_after_transfer", "call_answered") and c.transferred is not None:
            if what == "call_answered" and t < c.transferred[0]:
                return  # the first answering point picking up, before it transferred
            c.after_transfer = min(c.after_transfer or (t, ev.id), (t, ev.id))

    def _channels_named(self, ev: LiveEvent) -> frozenset:
        known = {ch for chans in self.channels.values() for ch in chans}
        said = {ch for ch in known if re.search(rf"\b{re.escape(ch)}\b", ev.text or "", re.I)}
        return frozenset(said | ({ev.channel} if ev.channel else set()))

    # ---- questions the rules ask

    def shots_run(self, now: int, within_s: float, detected_only: bool = False) -> Run | None:
        """The run of shots still going at `now`: its last shot no more than `within_s`
        before it, each no more than `within_s` after the one before."""
        key = (within_s, detected_only)
        runs = self._runs.get(key)
        if runs is None:
            runs = self._runs[key] = Runs(within_s * 1000)
            for s in self.shots:
                if s.detected or not detected_only:
                    runs.add(s)
        return runs.at(now)

    def incident_calls(self) -> frozenset:
        """The incident's call in each dispatch system: the one most units were sent to from
        5 minutes before the first shots to an hour after (other calls of the same afternoon
        are not this incident's)."""
        if self._incident_calls and self._incident_calls[0] == self.version:
            return self._incident_calls[1]
        found: frozenset = frozenset()
        if self.shots:
            lo, hi = self.shots[0].t - 300_000, self.shots[0].t + 3_600_000
            best: dict[str, tuple[int, str]] = {}
            for call, units in self.sent_to.items():
                n = sum(1 for t in units.values() if lo <= t <= hi)
                system = call.split("#", 1)[0]
                if n and n > best.get(system, (0, ""))[0]:
                    best[system] = (n, call)
            found = frozenset(c for _, c in best.values())
        self._incident_calls = (self.version, found)
        return found

    def agencies_on_scene(self) -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        for u in self.units.values():
            if u.status in ON_SCENE and u.agency:
                out.setdefault(u.agency, []).append(u)
        return out

    def share_a_channel(self, a: str, b: str, now: int) -> tuple[bool, list[int]]:
        """Whether two agencies' units talk on one channel, by their own traffic or a patch."""
        ca, cb = self.channels.get(a, {}), self.channels.get(b, {})
        common = set(ca) & set(cb)
        if common:
            ch = sorted(common)[0]
            return True, [ca[ch], cb[ch]]
        for chans, t, event in self.patched:
            if t <= now and chans & set(ca) and chans & set(cb):
                return True, [event]
        return False, []


@dataclass
class Run:
    start: int
    end: int
    shots: list[Shot]  # the first few and the latest: what an alert cites (a flood stays bounded)
    count: int


class Runs:
    """Shots grouped in runs: a shot within `gap` ms of the run's ends joins it (and may join
    two runs into one). Shots mostly come in time order: the last run is the one that grows."""

    KEEP_FIRST, KEEP_LAST = 3, 12

    def __init__(self, gap: float):
        self.gap = gap
        self.runs: list[Run] = []  # in time order, never within `gap` of each other

    def add(self, shot: Shot) -> None:
        starts = [r.start for r in self.runs] if len(self.runs) < 64 or shot.t < self.runs[-1].start else None
        i = len(self.runs) - 1 if starts is None else bisect.bisect_right(starts, shot.t) - 1
        near = [j for j in (i, i + 1) if 0 <= j < len(self.runs)
                and self.runs[j].start - self.gap <= shot.t <= self.runs[j].end + self.gap]
        if not near:
            self.runs.insert(i + 1, Run(shot.t, shot.t, [shot], 1))
            return
        run = self.runs[near[0]]
        if len(near) == 2:  # the shot bridges two runs
            other = self.runs.pop(near[1])
            run.shots, run.count, run.end = _bounded(run.shots + other.shots), run.count + other.count, other.end
        run.start, run.end = min(run.start, shot.t), max(run.end, shot.t)
        if run.shots and run.shots[-1].t <= shot.t:  # in time order: appended, kept sorted
            run.shots.append(shot)
            shots = run.shots
        else:
            shots = sorted(run.shots + [shot], key=_shot_t)
        run.shots, run.count = _bounded(shots), run.count + 1

    def at(self, now: int) -> Run | None:
        """The run going on at `now` (its latest shot up to `now` within the gap), as of `now`."""
        for run in reversed(self.runs):
            if run.start > now:
                continue
            if now - min(run.end, now) >= self.gap:
                return None
            if run.end <= now:
                return run
            shots = [s for s in run.shots if s.t <= now]
            last = max(s.t for s in shots) if shots else run.start
            return Run(run.start, last, shots, len(shots)) if now - last < self.gap else None
        return None


def _shot_t(s: Shot) -> int:
    return s.t


def _bounded(shots: list[Shot]) -> list[Shot]:
    if len(shots) <= Runs.KEEP_FIRST + Runs.KEEP_LAST:
        return shots
    return shots[:Runs.KEEP_FIRST] + shots[-Runs.KEEP_LAST:]
