"""The response measured: each number a Finding with the events it rests on.

Definitions for users: docs/metrics.md. Times are intervals (UTC ms) on the common clock;
durations are intervals in seconds computed from the ends of those intervals, so a
metric's interval contains every value the records allow.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pandas as pd

from onrecord.attributes import yes_no
from onrecord.findings.same_clock import one_clock_span
from onrecord.findings.transports import leavings
from onrecord.findings.unit_calls import ELSEWHERE, UNSURE, call_standing, own_cad_agencies, statuses_by_unit
from onrecord.model import Finding
from onrecord.reconstruct.moments import MomentRow, caller_number

SHOT_BURST_MAX_S = 10.0  # a burst detected at its start may go on this long
# Reports of shots count toward the last shots while each comes within this long of the
# shots already known: a burst every minute or so; a "shots fired" said long after is
# about shots the records already hold, not new ones.
HEARD_CHAIN_S = 180.0
APPARATUS = re.compile(r"^(E|R|L|T|M|Q|BC|B|SQ|MED|RES|ENG|TRK|AMB)\d+$")


def not_established(name: str, reason: str, subject: str | None = None) -> Finding:
    """Not established, and why: `reason` is a code findings/render.py words (REASONS)."""
    return Finding(name, "not_established", subject=subject, payload={"reason": reason})


def _time(name: str, m: MomentRow) -> Finding:
    return Finding(name, "established", value_lo=m.lo, value_hi=m.hi, unit="utc_ms",
                   payload={"best": m.best, "fused_id": m.fused_id}, evidence=m.evidence)


def _span(a_lo, a_hi, b_lo, b_hi) -> tuple[float, float]:
    """Seconds from a to b, as an interval."""
    return (b_lo - a_hi) / 1000.0, (b_hi - a_lo) / 1000.0


def _outside(arr: MomentRow, entry: MomentRow | None, first: MomentRow, last_lo: float, last_hi: float):
    def dur(a, e, last, f):
        return max(0.0, (min(e, last) - max(a, f)) / 1000.0)

    e_lo = entry.lo if entry else float("inf")
    e_hi = entry.hi if entry else float("inf")
    return dur(arr.hi, e_lo, last_lo, first.hi), dur(arr.lo, e_hi, last_hi, first.lo)


# A moment (an arrival, an entry) whose interval is wider than this rests on a clock nobody
# could tie to true time
UNSURE_ARRIVAL_MS = 120_000


def _last_shots(shots: list[MomentRow], heard: list[MomentRow]) -> tuple[float, float, list[int], int]:
    """The last shots, as an interval, the records it rests on, and how many units' reports
    of shots heard moved it. A sensor or camera places a burst; a unit saying it hears shots
    places one too, within seconds before its words (its moment: fuse.py REPORT_LAG_S).
    Where that burst surely came after the last placed (upstairs, out of frame), it is the
    last so far, and it too may run SHOT_BURST_MAX_S on; a report that may be of a burst
    already placed says nothing more."""
    last = shots[-1]
    lo, hi, evidence = last.lo, last.hi + SHOT_BURST_MAX_S * 1000, list(last.members)
    placed_until, moved = last.hi, 0  # the latest burst placed so far lies before this
    # a report on a clock nobody could tie to true time says when only within minutes
    sure = (h for h in heard if h.who is not None and h.hi - h.lo <= UNSURE_ARRIVAL_MS)
    for h in sorted(sure, key=lambda h: h.lo):
        if h.lo > placed_until + HEARD_CHAIN_S * 1000:
            break  # long after every shot known: not a burst of this attack's
        if h.lo <= placed_until:
            continue  # it may be of a burst already placed: it says no more
        lo, hi, placed_until = h.lo, h.hi + SHOT_BURST_MAX_S * 1000, h.hi
        evidence = list(h.members)
        moved += 1
    return lo, hi, evidence, moved



class ResponseMetrics:
    def __init__(self, moments: list[MomentRow], units: dict[int, dict], events, clocks: dict | None = None,
                 shared: dict | None = None):
        self.moments, self.units, self.events = moments, units, events
        # the clocks, to tell a duration read off one clock (same_clock.py); shared: sources
        # declared to share a clock -> the source it is solved as
        self.clocks, self.shared = clocks, shared or {}
        self.source_of = dict(zip(events["id"], events["source_id"])) if clocks is not None and len(events) else {}
        self.out: list[Finding] = []
        self.unsure: set = set()  # radio arrivals (fused ids) CAD cannot put on or off the incident's call

    def of(self, family: str) -> list[MomentRow]:
        found = (m for m in self.moments if m.family == family and self._in_incident(m))
        return sorted(found, key=lambda m: m.best)

    def _in_incident(self, m: MomentRow) -> bool:
        """Units busy on other calls the same afternoon are not part of this response."""
        calls = getattr(self, "incident_calls", None)
        if calls is None:
            return True
        if m.calls:
            return bool(m.calls & calls)
        if m.family in ("unit_arrived", "staging") and m.who is not None:
            # a radio arrival names no call: CAD says which call the unit is on then (unit_calls.py)
            standing = call_standing(m, self.statuses, calls, self.units.get(m.who, {}).get("agency"),
                                     self.dispatched)
            if standing == UNSURE:
                self.unsure.add(m.fused_id)
            return standing != ELSEWHERE
        return True

    def _find_incident_calls(self) -> None:
        """The incident's call in each dispatch system, for each agency it dispatches: the
        one most of the agency's units were sent to in the hour after the first shots (a
        consolidated CAD numbers the police and the fire incident apart)."""
        lo, hi = self.first.lo - 300_000, self.first.hi + 3_600_000
        units_by_call: dict[str, set] = {}
        for m in self.moments:
            if m.family in ("unit_dispatched", "unit_arrived", "staging") and lo <= m.best <= hi:
                for call in m.calls:
                    units_by_call.setdefault(call, set()).add(m.who)
        best: dict[tuple, tuple[int, str]] = {}
        for call, units in units_by_call.items():
            system = call.split("#", 1)[0]
            agencies = Counter(self.units.get(u, {}).get("agency") for u in units)
            key = (system, agencies.most_common(1)[0][0])
            if len(units) > best.get(key, (0, ""))[0]:
                best[key] = (len(units), call)
        # another agency's call in one system counts only with two units or more: one
        # unit's call of the afternoon is not the incident's
        best = {k: v for k, v in best.items()
                if v[0] >= 2 or v[0] >= max((b[0] for kk, b in best.items() if kk[0] == k[0]), default=0)}
        self.incident_calls = frozenset(c for _, c in best.values()) or None
        ev = self.events
        cad = frozenset(ev["id"][ev["source_kind"] == "cad"]) if ev is not None and "source_kind" in ev else frozenset()
        self.statuses = statuses_by_unit(self.moments, cad)
        # the agencies whose own CAD files their units' statuses under an incident call (a
        # unit of theirs it never files there was not sent; another agency's CAD filing a
        # few mutual-aid units, or a calls table with no units, says nothing of the rest)
        self.dispatched = own_cad_agencies(self.statuses, self.incident_calls, self.units, self.events)

    def compute(self) -> list[Finding]:
        shots = self.of("shots")
        if not shots:
            self.out.append(not_established("first_shots", "no_shots"))
            return self.out
        first = shots[0]
        self.first = first
        self.last_lo, self.last_hi, last_evidence, heard = _last_shots(shots, self.of("shots_heard"))
        self._find_incident_calls()
        self.out.append(_time("first_shots", first))
        self.out.append(Finding("last_shots", "established", value_lo=self.last_lo, value_hi=self.last_hi,
                                unit="utc_ms", payload={"burst_s": SHOT_BURST_MAX_S, "heard": heard},
                                evidence=last_evidence))
        self._first_call()
        self._first_of("unit_dispatched", "first_dispatch")
        arrival = self._first_armed_arrival()
        entry = self._first_entry()
        self._first_of("threat_ended", "threat_ended")
        if entry:
            lo, hi, said = self._duration(first, entry)
            self.out.append(Finding("first_shot_to_first_entry", "established", value_lo=lo, value_hi=hi,
                                    unit="s", evidence=first.members + entry.members, **said))
            if arrival:
                lo, hi, said = self._duration(arrival, entry)
                self.out.append(Finding("first_armed_arrival_to_entry", "established", value_lo=lo, value_hi=hi,
                                        unit="s",
                                        evidence=arrival.evidence + entry.members, **said))
        self._per_unit()
        self._patients()
        return self.out

    def _duration(self, a: MomentRow, b: MomentRow) -> tuple[float, float, dict]:
        """Seconds from a to b as an interval; where both ends are on one clock (and each is
        the moment as the records put it, not widened by another first), that clock's
        offset cancels (same_clock.py), and the payload names the clock."""
        lo, hi = _span(a.lo, a.hi, b.lo, b.hi)
        own = {m.fused_id: m for m in self.moments}
        as_put = all(own.get(m.fused_id) is not None and (own[m.fused_id].lo, own[m.fused_id].hi) == (m.lo, m.hi)
                     for m in (a, b))
        if self.clocks is None or not as_put:
            return lo, hi, {}
        one = one_clock_span(a, b, self.source_of, self.clocks, self.shared)
        if one is None:
            return lo, hi, {}
        return one[0], one[1], {"payload": {"one_clock": one[2]}}

    def _patients(self) -> None:
        moved = self._after_first("patient_transported")
        if moved:
            # one per unit leaving with a patient: CAD, the ePCR and the radio each record
            # the same leaving (findings/transports.py)
            left = leavings(moved, dict(zip(self.events["id"], self.events["source_id"])))
            n = len(left)
            self.out.append(Finding("patients_transported", "established", value_lo=n, value_hi=n, unit="count",
                                    payload={"records": sum(len(m.members) for m in moved)},
                                    evidence=[i for m in moved for i in m.members]))

    def _after_first(self, family: str) -> list[MomentRow]:
        return [m for m in self.of(family) if m.hi >= self.first.lo]

    def _first_of(self, family: str, name: str) -> MomentRow | None:
        found = self._after_first(family)
        if not found:
            self.out.append(not_established(name, "none_after_first_shots"))
            return None
        self.out.append(_time(name, found[0]))
        return found[0]

    def _first_call(self) -> None:
        ev = self.events
        calls = ev[(ev["source_kind"] == "call911") & (ev["kind"] == "call_received") & ~ev["transferred_in"]
                   & ev["t_lo"].notna() & (ev["best"] >= self.first.lo)]
        calls = calls[~calls_of_other_incidents(calls, ev, getattr(self, "incident_calls", None))]
        every = calls
        if self.first.hi - self.first.lo > UNSURE_ARRIVAL_MS and len(calls):
            # the first shots known only within minutes: a call that came in "after" them
            # may be any of the afternoon's; the incident's own are those whose caller's
            # number is on an incident call in CAD
            numbers = self._incident_numbers()
            if numbers:
                said = [caller_number(json.loads(a).get("ani", "")) if isinstance(a, str) and '"ani"' in a else None
                        for a in calls["attrs"]]
                calls = calls[[n in numbers for n in said]]
        if calls.empty:
            self.out.append(not_established("first_911_call", "no_911_call"))
            return
        c = calls.sort_values("best").iloc[0]
        lo, payload = float(c.t_lo), {"best": float(c.best)}
        # CAD holds the number of the caller it opened the incident from, not always the
        # first caller's: a call left out above only for its number may still have been the
        # first, so the interval reaches back to the earliest of them (the call named stays)
        before = every[every["t_lo"] < lo]
        if len(before):
            lo, payload["may_be_earlier"] = float(before["t_lo"].min()), len(before)
        self.out.append(Finding("first_911_call", "established", value_lo=lo, value_hi=float(c.t_hi),
                                unit="utc_ms", payload=payload, evidence=[int(c.id)]))

    def _incident_numbers(self) -> set[str]:
        """The callers' numbers CAD holds on the incident's calls (its ANI/ALI records)."""
        calls = getattr(self, "incident_calls", None)
        ev = self.events
        if not calls or "attrs" not in ev or "call" not in ev:
            return set()
        on = ev[ev["call"].notna() & ev["attrs"].fillna("").str.contains('"ani"', regex=False)]
        on = on[(on["source_id"].astype(str) + "#" + on["call"].astype(str)).isin(calls)]
        return {caller_number(json.loads(a)["ani"]) for a in on["attrs"]}

    def _armed(self, unit_id) -> bool:
        u = self.units.get(unit_id, {})
        said = yes_no(u.get("armed"))  # checked at import: true/false (docs/attributes.md)
        return said if said is not None else not u.get("fire_ems", False)

    def _first_armed_arrival(self) -> MomentRow | None:
        found = [m for m in self.of("unit_arrived") if self._armed(m.who)]
        if not found:
            self.out.append(not_established("first_armed_unit_on_scene", "no_armed_arrival"))
            return None
        m = _first_sure(found)
        f = _time("first_armed_unit_on_scene", m)
        first, candidates = first_unit(found, self._surely_before)
        if first is not None:
            f.payload["unit"] = self.units.get(first, {}).get("name")  # a headline figure: no subject
        else:
            # the time stands (its interval holds whoever came first); which unit it was, the
            # records do not settle: said, with each candidate and why it cannot be put in order
            f.payload["unit_status"] = "not_established"
            f.payload["candidates"] = [self._candidate(who, x) for who, x in candidates]
        self.out.append(f)
        return m

    def _surely_before(self, a: MomentRow, b: MomentRow) -> bool:
        """Whether moment a surely came before b: their intervals on the common clock do not
        meet, or both are read off one clock and the written times put a first whatever that
        clock's offset (same_clock.py): two units on one CAD are in the CAD's order even where
        the CAD's clock is known only within minutes."""
        if a.hi <= b.lo:
            return True
        if self.clocks is None:
            return False
        one = one_clock_span(a, b, self.source_of, self.clocks, self.shared)
        return one is not None and one[0] > 0

    def _candidate(self, who, x: MomentRow) -> dict:
        """One unit that may have been first on scene, its arrival's interval and why it
        cannot be ordered: the clock its records are on, where that is tied to nothing
        trusted (unknown) or known only within minutes (loose); else the intervals overlap."""
        out = {"unit": self.units.get(who, {}).get("name") or str(who), "lo": x.lo, "hi": x.hi, "why": "overlaps"}
        names = dict(zip(self.events["id"], self.events["file_name"])) if "file_name" in self.events else {}
        for i in x.evidence:
            s = self.source_of.get(i)
            c = (self.clocks or {}).get(self.shared.get(int(s), int(s))) if s is not None else None
            if c is not None and c.status in ("unknown", "loose"):
                out.update(why=f"clock_{c.status}", source=names.get(i))
                break
        return out

    def _first_entry(self) -> MomentRow | None:
        found = [m for m in self._after_first("entry") if m.officers_seen]
        if not found:
            self.out.append(not_established("first_entry", "no_entry"))
            return None
        m = _first_sure(found)
        self.out.append(_time("first_entry", m))
        return m

    def _per_unit(self) -> None:
        # a unit's arrival on scene is its first (a staging point is not the scene: staging.py)
        arrivals: dict = {}
        sure: set = set()  # units with an arrival on the incident's call beyond doubt
        for m in self.of("unit_arrived"):
            arrivals.setdefault(m.who, m)
            if m.fused_id not in self.unsure:
                sure.add(m.who)
        entries: dict[int, MomentRow] = {}
        for m in self.of("entry"):
            for unit in m.unit_members:
                entries.setdefault(unit, m)
        by_agency: dict[str, dict[str, int]] = {}
        for unit, arr in arrivals.items():
            info = self.units.get(unit, {})
            name, agency = info.get("name", str(unit)), info.get("agency")
            entry = entries.get(unit)
            stats = by_agency.setdefault(agency or "?", {"on_scene": 0, "entered": 0, "arrived": [], "went_in": [],
                                                         "maybe": 0})
            stats["on_scene"] += 1
            stats["maybe"] += unit not in sure
            stats["entered"] += entry is not None
            stats["arrived"] += arr.evidence
            stats["went_in"] += entry.unit_members[unit] if entry else []
            self.out.append(Finding("unit_on_scene", "established", subject=name, value_lo=arr.lo, value_hi=arr.hi,
                                    unit="utc_ms", payload={"agency": agency, "armed": self._armed(unit)},
                                    evidence=arr.evidence))
            self.out.append(Finding("unit_entered", "established", subject=name,
                                    value_lo=1 if entry else 0, value_hi=1 if entry else 0, unit="count",
                                    payload={"agency": agency, "entered_at": list(entry.unit_spans.get(
                                        unit, (entry.lo, entry.hi))) if entry else None},
                                    evidence=arr.evidence + (entry.unit_members[unit] if entry else [])))
            if self._armed(unit):
                lo, hi = _outside(arr, entry, self.first, self.last_lo, self.last_hi)
                self.out.append(Finding("unit_outside_while_shots", "established", subject=name, value_lo=lo,
                                        value_hi=hi, unit="s",
                                        payload={"agency": agency, "held_outside": lo > 0},
                                        evidence=arr.evidence + (entry.members if entry else [])
                                        + self.first.members))
        for agency, stats in sorted(by_agency.items()):
            on_scene, entered = stats["on_scene"], stats["entered"]
            # a unit whose radio arrival CAD cannot place on or off the incident's call is
            # maybe on scene: the count is a range over it, no call picked (unit_calls.py)
            maybe = stats["maybe"]
            self.out.append(Finding("agency_units_on_scene", "established", subject=agency, value_lo=on_scene - maybe,
                                    value_hi=on_scene, unit="count", evidence=stats["arrived"],
                                    **({"payload": {"maybe_elsewhere": maybe, "best": on_scene}} if maybe else {})))
            # No record of a unit going in is not a record that it stayed out (a deputy
            # may go in with another agency's team, unrecorded): the count is a range,
            # from the entries recorded up to every unit on scene, and says so.
            self.out.append(Finding(
                "agency_units_entered", "established", subject=agency, value_lo=entered, value_hi=on_scene,
                # the best single figure is what the records say: units recorded going in
                unit="count", payload={"recorded": entered, "on_scene": on_scene, "best": entered},
                evidence=stats["went_in"] + stats["arrived"]))


# A CAD call opened from a 911 call stamps the caller's number within seconds of the pick-up;
# clocks a few minutes apart still put the two this close.
OPENED_FROM_S = 600.0


def _said_number(attrs) -> str | None:
    if not isinstance(attrs, str) or '"ani"' not in attrs:
        return None
    ani = json.loads(attrs).get("ani")
    return caller_number(ani) if ani else None


def calls_of_other_incidents(calls: pd.DataFrame, ev: pd.DataFrame, incident_calls) -> pd.Series:
    """Per 911 call (a boolean Series on `calls`): whether CAD opened another incident from
    it. A theft reported by phone twenty seconds after the first shots is the afternoon's
    other business: its caller's number is on that theft's CAD call, answered as the 911 call
    was, and on none of the incident's. What ties a call to the incident is its CAD call, not
    its being first in the log; without CAD numbers nothing is excluded."""
    none = pd.Series(False, index=calls.index)
    if not incident_calls or calls.empty or "attrs" not in ev or "call" not in ev:
        return none
    # CAD's records of the numbers it opened calls from (the phone system's own call ids are not CAD calls)
    held = ev[(ev["source_kind"] == "cad") & ev["call"].notna() & ev["best"].notna()
              & ev["attrs"].fillna("").str.contains('"ani"', regex=False)]
    if held.empty:
        return none
    mine = {c.split("#", 1)[1] for c in incident_calls}
    ours = (held["source_id"].astype(str) + "#" + held["call"].astype(str)).isin(incident_calls) \
        | held["call"].astype(str).isin(mine)  # a calls table beside the status export numbers alike
    numbers = [_said_number(a) for a in held["attrs"]]
    on_incident = {n for n, o in zip(numbers, ours) if n and o}
    elsewhere: dict[str, list[float]] = {}
    for n, o, t in zip(numbers, ours, held["best"]):
        if n and not o and n not in on_incident:
            elsewhere.setdefault(n, []).append(float(t))
    out = [any(abs(t - float(b)) <= OPENED_FROM_S * 1000 for t in elsewhere.get(_said_number(a) or "", ()))
           for a, b in zip(calls["attrs"] if "attrs" in calls else [None] * len(calls), calls["best"])]
    return pd.Series(out, index=calls.index)


def _first_sure(found: list[MomentRow]) -> MomentRow:
    """The first of these moments, bounded as the records allow: the earliest at its best
    time (a moment known to seconds, or the one most likely first), with the interval the
    first's whoever it was: from the earliest any of them can have been to the earliest any
    of them must have been by. Which of them it was is first_unit's question."""
    m = min(found, key=lambda x: x.best)
    lo, hi = min(x.lo for x in found), min(x.hi for x in found)
    if (lo, hi) != (m.lo, m.hi):
        m = replace(m, lo=lo, hi=hi, best=min(max(m.best, lo), hi))
    return m


def first_unit(found: list[MomentRow], surely_before=None) -> tuple[object | None, list[tuple[object, MomentRow]]]:
    """Which unit's moment came first, where the records settle it: the unit whose interval
    (the earliest of its moments) ends before every other unit's begins. Else None, and the
    units that may have been first (each beginning before the first any must have been by),
    in the order of their best times. An unaligned time sorting first is no ground to name
    its unit: a clock tied to nothing puts it anywhere in its interval."""
    own: dict = {}
    for x in found:
        if x.who is None:
            continue
        was = own.get(x.who)
        more = [i for i in x.members if was is not None and i not in was.members]
        own[x.who] = x if was is None else replace(was, lo=min(was.lo, x.lo), hi=min(was.hi, x.hi),
                                                     best=min(was.best, x.best), members=was.members + more)
    if not own:
        return None, []
    by = min(x.hi for x in own.values())
    could = sorted(((w, x) for w, x in own.items() if x.lo <= by), key=lambda wx: wx[1].best)
    if len(could) == 1:
        return could[0][0], []
    if surely_before is not None:
        # intervals that meet may still be in a known order (one clock's written times)
        for w, x in could:
            if all(surely_before(x, y) for v, y in could if v != w):
                return w, []
    return None, could


def is_fire_ems(unit_names: list[str]) -> bool:
    """An agency whose units are mostly apparatus (E31, R47, M12) is fire/EMS: unarmed."""
    from onrecord.reconstruct.names import fold

    if not unit_names:
        return False
    hits = sum(1 for n in unit_names if APPARATUS.match(fold(n)))
    return hits / len(unit_names) > 0.5


def unit_info(who) -> dict[int, dict]:
    """Per unit entity: its name, agency, and whether it is fire/EMS (unarmed) or armed."""
    by_agency: dict[str | None, list[str]] = {}
    for u in who.units():
        by_agency.setdefault(u.agency, []).append(u.name)
    fire = {a for a, names in by_agency.items() if is_fire_ems(names)}
    return {u.id: {"name": u.name, "agency": u.agency, "fire_ems": u.agency in fire,
                   **({"armed": u.attrs["armed"]} if "armed" in u.attrs else {})} for u in who.units()}


def response_metrics(r) -> list[Finding]:
    """The incident's own figures and each unit's and agency's (docs/metrics.md)."""
    return ResponseMetrics(r.moments, unit_info(r.who), r.events, r.clocks, r.shared_clocks).compute()
