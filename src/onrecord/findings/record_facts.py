"""What the records establish that a statement or a press piece can be checked against:
a unit's arrival and entry, shots the gunshot sensors counted after a moment, orders a
unit gave on the radio, 911 calls presented, and the response metrics.

Everything is an interval on the common clock (UTC ms) or a bound: a count of shots from
the sensors is a lower bound (a sensor may miss shots, never invent a burst), a count of
911 calls presented in a window an upper bound when the answering points' clocks are
uncertain. Each fact keeps the ids of the events it rests on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pandas as pd

from onrecord.model import Finding
from onrecord.reconstruct.names import parse_person

ROUNDS = re.compile(r"\b(\d{1,3})\s*(?:rounds?|shots?|impulses?)\b", re.IGNORECASE)


@dataclass
class Fact:
    lo: float | None
    hi: float | None
    unit: str  # utc_ms, s, count
    says: dict  # what the records say, as data: {"say": <what>, ...} (findings/render.py words it)
    evidence: list[int] = field(default_factory=list)
    metric: str | None = None


@dataclass
class RecordFacts:
    events: pd.DataFrame
    findings: list[Finding]
    who: object
    by_name: dict = field(default_factory=dict)  # (finding name, subject) -> Finding

    def __post_init__(self) -> None:
        self.by_name = {(f.name, f.subject): f for f in self.findings
                        if f.kind == "metric" and f.status == "established"}
        self._crew_units = _units_of_people(self.who)

    def metric(self, name: str, subject: str | None = None) -> Finding | None:
        return self.by_name.get((name, subject))

    # --- who: a person named in a text -> the unit the records know them by
    def unit_of(self, person_name: str | None, doc_event: int | None = None, is_author: bool = False) -> str | None:
        """The unit of the person a claim is about: the statement's own unit when the
        author speaks of themself, else the one unit an officer of that surname crews."""
        if is_author and doc_event is not None:
            uid = self.who.unit_of_event.get(int(doc_event))
            if uid is not None:
                return self.who.entities[uid].name
        p = parse_person(person_name or "")
        return self._crew_units.get(p.last) if p else None

    def arrival(self, unit: str) -> Finding | None:
        return self.metric("unit_on_scene", unit)

    def entry(self, unit: str) -> tuple[float, float, list[int]] | None:
        f = self.metric("unit_entered", unit)
        if f is None or not f.payload.get("entered_at"):
            return None
        lo, hi = f.payload["entered_at"]
        return lo, hi, list(f.evidence)

    def call_came_out(self, unit: str):
        """(lo, hi, what, evidence) of the first dispatch on the call this unit was sent
        to after the first shots: when "the call came out" for its officer. Keyed on the
        call, so a unit sent to another call the same afternoon does not count."""
        first = self.metric("first_shots")
        if first is None:
            return None
        ev = self.events
        sent = ev[(ev["kind"] == "unit_dispatched") & ev["t_lo"].notna() & ev["call"].notna()
                  & (ev["t_hi"] >= first.value_lo)]
        mine = [r for r in sent.itertuples(index=False)
                if (uid := self.who.unit_of_event.get(int(r.id))) is not None and self.who.entities[uid].name == unit]
        if not mine:
            return None
        call = min(mine, key=lambda x: x.best).call
        same = sent[sent["call"] == call].sort_values("best")
        r = same.iloc[0]
        return float(r.t_lo), float(r.t_hi), {"what": "first_dispatch_on_call", "call": call}, [int(r.id)]

    def agencies_of(self, rank_word: str) -> set[str]:
        """'deputies' -> the agencies whose rostered officers mostly hold that rank."""
        counts: dict[str, list[int]] = {}
        for e in self.who.entities.values():
            if e.kind == "person" and e.agency:
                c = counts.setdefault(e.agency, [0, 0])
                c[0] += str(e.attrs.get("rank", "")).lower().startswith(rank_word.lower()[:5])
                c[1] += 1
        return {a for a, (hit, n) in counts.items() if n and hit / n > 0.5}

    # --- shots
    def shots_after(self, t_ms: float) -> Fact | None:
        """At least this many shots were fired after t: the largest per-sensor total of
        the bursts each sensor detected wholly after t (one sensor reports one burst once,
        so its reports add up; two sensors may hear the same burst, so they do not)."""
        ev = self.events
        shots = ev[(ev["kind"] == "shots_detected") & ev["t_lo"].notna()]
        if shots.empty:
            return None
        later = shots[shots["t_lo"] > t_ms]
        per_device: dict[str, tuple[int, list[int]]] = {}
        for r in later.itertuples(index=False):
            device = _attr(r.attrs, "device") or str(r.source_id)
            m = ROUNDS.search(str(r.text or ""))
            n, ids = per_device.get(device, (0, []))
            per_device[device] = (n + (int(m.group(1)) if m else 1), ids + [int(r.id)])
        if not per_device:
            return Fact(0, None, "count", {"say": "no_shots_after"}, [])
        device, (n, ids) = max(per_device.items(), key=lambda kv: kv[1][0])
        return Fact(n, None, "count", {"say": "sensor_counted", "device": device, "shots": n, "bursts": len(ids)},
                    ids)

    # --- the radio
    def orders_by(self, unit: str, pattern: re.Pattern) -> list[tuple[int, str]]:
        """Transmissions by this unit whose words give an order of this kind."""
        ev = self.events
        radio = ev[(ev["kind"] == "radio_transmission") & ev["text"].notna()]
        out = []
        for r in radio.itertuples(index=False):
            uid = self.who.unit_of_event.get(int(r.id))
            if uid is None or self.who.entities[uid].name != unit:
                continue
            if _gives_order(pattern, str(r.text)):
                out.append((int(r.id), str(r.text)))
        return out

    def first_said(self, pattern: re.Pattern, unit: str | None = None):
        """(lo, hi, what, evidence) of the first radio transmission (by this unit, if
        given) whose words match: when an order was given, when "now patched" was said."""
        ev = self.events
        radio = ev[(ev["kind"] == "radio_transmission") & ev["text"].notna() & ev["t_lo"].notna()].sort_values("best")
        for r in radio.itertuples(index=False):
            if unit is not None:
                uid = self.who.unit_of_event.get(int(r.id))
                if uid is None or self.who.entities[uid].name != unit:
                    continue
            if _gives_order(pattern, str(r.text)):
                return float(r.t_lo), float(r.t_hi), {"what": "said_on_radio", "words": str(r.text)}, [int(r.id)]
        return None

    def said_by(self, unit: str) -> list[tuple[int, str]]:
        """Every radio transmission of this unit: (event id, words)."""
        ev = self.events
        radio = ev[(ev["kind"] == "radio_transmission") & ev["text"].notna()]
        return [(int(r.id), str(r.text)) for r in radio.itertuples(index=False)
                if (uid := self.who.unit_of_event.get(int(r.id))) is not None and self.who.entities[uid].name == unit]

    # --- 911 calls
    def calls_presented(self, lo_ms: float, hi_ms: float | None) -> Fact:
        """How many 911 calls could have been presented in [lo, hi]: every call whose
        time interval touches the window counts (an upper bound); a transferred call is
        counted once, at the answering point it rang first."""
        ev = self.events
        calls = ev[(ev["source_kind"] == "call911") & (ev["kind"] == "call_received") & ~ev["transferred_in"]
                   & ev["t_lo"].notna()]
        inside = calls[(calls["t_hi"] >= lo_ms) & ((calls["t_lo"] <= hi_ms) if hi_ms is not None else True)]
        return Fact(0, len(inside), "count", {"say": "calls_presented", "calls": len(inside)},
                    [int(i) for i in inside["id"]])

    # --- clocks in texts
    def local_offset_ms(self, at_ms: float) -> float | None:
        """The texts' local time zone offset (local - UTC) at a moment of the incident.

        A text import reads 'Written: 2025-02-17 11:39' in the zone its mapping names and
        stores the UTC instant; each document thus shows the zone's offset on its own day.
        The zones that agree with every document are the candidates; if they all give one
        offset at the moment asked (days earlier, maybe across a daylight-saving change),
        that is it, else the clock claim is not checked."""
        import datetime as dt

        zones = self._text_zones()
        at = dt.datetime.fromtimestamp(at_ms / 1000, dt.timezone.utc)
        offsets = {at.astimezone(z).utcoffset() for z in zones}
        return next(iter(offsets)).total_seconds() * 1000 if len(offsets) == 1 else None

    def _text_zones(self) -> list:
        if hasattr(self, "_zones"):
            return self._zones
        import datetime as dt
        from zoneinfo import ZoneInfo, available_timezones

        seen = []
        docs = self.events[self.events["kind"].isin(("statement", "report_filed")) & self.events["t_src_lo"].notna()]
        for r in docs.itertuples(index=False):
            written = _attr(r.attrs, "written") or _attr(r.attrs, "published")
            try:
                local = pd.Timestamp(written).to_pydatetime() if written else None
            except ValueError:
                local = None
            if local is not None:
                utc = dt.datetime.fromtimestamp(float(r.t_src_lo) / 1000, dt.timezone.utc)
                seen.append((utc, local - utc.replace(tzinfo=None)))
        zones = []
        if seen:
            for name in sorted(available_timezones()):
                z = ZoneInfo(name)
                if all(utc.astimezone(z).utcoffset() == off for utc, off in seen):
                    zones.append(z)
        self._zones = zones
        return zones


FIRST_PERSON = re.compile(r"\b(?:we|we[’']re|we are|i|i[’']m|i am)\b", re.IGNORECASE)


def _gives_order(pattern: re.Pattern, text: str) -> bool:
    """'hold the perimeter, nobody goes in' gives an order; '2-22, we're going in' reports
    what the speaker does: words matched after 'we'/'I' in their clause are no order."""
    for m in pattern.finditer(text):
        clause = re.split(r"[,;:.]", text[:m.start()])[-1]
        if not FIRST_PERSON.search(clause):
            return True
    return False


def _attr(attrs, key: str):
    if not isinstance(attrs, str) or key not in attrs:
        return None
    try:
        return json.loads(attrs).get(key)
    except ValueError:
        return None


def _units_of_people(who) -> dict[str, str]:
    """Surname -> the unit an officer of that name crews (only when the surname is unique)."""
    seen: dict[str, set[str]] = {}
    for u in who.units():
        for pid in u.attrs.get("crew", []):
            person = who.entities.get(pid)
            p = parse_person(person.name) if person else None
            if p:
                seen.setdefault(p.last, set()).add(u.name)
    return {last: next(iter(units)) for last, units in seen.items() if len(units) == 1}
