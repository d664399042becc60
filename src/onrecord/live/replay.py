"""`onrecord live replay`: a built case's events, in order of their time on the common
clock, through the same rules and engine as a live incident — "when would each alert
have fired, and who would have seen it".

The build runs it too (pipeline.build_case), so the replayed alerts are findings of the
case (kind `alert`, payload `replayed`) that the web timeline and the report show.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from onrecord.errors import CaseError
from onrecord.live.engine import AlertEngine, Change
from onrecord.live.events import LiveEvent, interpret
from onrecord.live.rules import Rule, load_rules
from onrecord.live.state import Incident
from onrecord.live.units import UnitDirectory
from onrecord.model import Finding

# Documents written after the fact say nothing of the moment they are stamped with.
NOT_LIVE_SOURCES = ("statement", "press", "tip", "contact", "roster")
IDLE_KINDS = ("roster_entry", "contact", "report_filed", "statement", "tip_received")


@dataclass
class ReplayInput:
    events: pd.DataFrame  # id, source_id, kind, t_lo, t_hi, agency, unit, call, channel, text, attrs
    unit_of_event: dict[int, int]
    entities: list[dict]  # unit entities: id, name, agency, aliases, attrs
    source_kinds: dict[int, str]
    camera_lags: dict[int, float]  # camera view event -> lag (s)
    clocks: dict[int, str]  # source -> reference / estimated / pinned / unknown


def from_build(r) -> ReplayInput:
    """What a replay needs, from a reconstruction just made (pipeline.build_case)."""
    from onrecord.findings.lags import camera_views

    ents = [{"id": e.id, "name": e.name, "agency": e.agency, "aliases": sorted(e.aliases), "attrs": e.attrs}
            for e in r.who.units()]
    kinds = dict(zip(r.sources["id"].astype(int), r.sources["kind"]))
    lags = {ev: (shown - footage) / 1000.0 for ev, shown, footage in camera_views(r.events, r.sources)}
    clocks = {int(s): (c.status if c is not None else "unknown") for s, c in r.clocks.items()}
    return ReplayInput(r.events, dict(r.who.unit_of_event), ents, kinds, lags, clocks)


def from_case(reader) -> ReplayInput:
    """What a replay needs, from a built case as stored (read through its reader)."""
    from onrecord.findings.lags import camera_views

    if not reader.is_built():
        raise CaseError(f"{reader.case.path}: the case has not been built: run `onrecord build` first")
    events = reader.event_frame()
    aligned = reader.aligned_frame().rename(columns={"event_id": "id"})
    events = events.merge(aligned, on="id", how="left")
    sources = reader.source_frame()
    units = dict((int(ev), int(ent)) for ent, ev, _ in reader.mentions("unit"))
    ents = reader.entities("unit")
    kinds = dict(zip(sources["id"].astype(int), sources["kind"]))
    lags = {ev: (shown - footage) / 1000.0 for ev, shown, footage in camera_views(events, sources)}
    clocks = {int(s): c["status"] for s, c in reader.clock_estimates().items()}
    return ReplayInput(events, units, ents, kinds, lags, clocks)


def live_events(inp: ReplayInput, directory: UnitDirectory) -> Iterator[LiveEvent]:
    """The case's events that can mean something live, in order of their time on the common clock."""
    ev = inp.events
    ev = ev[ev["t_lo"].notna() & ev["t_hi"].notna() & ~ev["kind"].astype(str).isin(IDLE_KINDS)]
    ev = ev[~ev["source_id"].map(inp.source_kinds).isin(NOT_LIVE_SOURCES)]
    mid = (ev["t_lo"].to_numpy(dtype="float64") + ev["t_hi"].to_numpy(dtype="float64")) / 2
    order = np.lexsort((ev["id"].to_numpy(), mid))
    cols = {c: ev[c].to_numpy() for c in ("id", "source_id", "kind", "t_lo", "t_hi", "agency", "unit", "call",
                                         "channel", "text", "attrs")}
    for i in order:
        eid = int(cols["id"][i])
        attrs = _attrs(cols["attrs"][i])
        if eid in inp.camera_lags:
            attrs["lag_s"] = inp.camera_lags[eid]
        unit = inp.unit_of_event.get(eid)
        written = _text(cols["unit"][i])
        if unit is None and written:
            unit = directory.key(written, _text(cols["agency"][i]))
        src = int(cols["source_id"][i])
        yield interpret(LiveEvent(
            id=eid, source_id=src, kind=str(cols["kind"][i]), t_lo=int(cols["t_lo"][i]), t_hi=int(cols["t_hi"][i]),
            unit=unit, unit_name=written, agency=_text(cols["agency"][i]), call=_text(cols["call"][i]),
            channel=_text(cols["channel"][i]), text=_text(cols["text"][i]), attrs=attrs,
            source_kind=inp.source_kinds.get(src), clock=inp.clocks.get(src, "unknown")))


def _text(v) -> str | None:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def _attrs(v) -> dict:
    if not isinstance(v, str) or not v:
        return {}
    try:
        found = json.loads(v)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def seen_by(incident: Incident) -> list[str]:
    """The agencies with units dispatched, on the way or on scene: who the board was in front of."""
    return sorted({u.agency for u in incident.units.values() if u.agency and u.status not in (None, "available")})


def replay(inp: ReplayInput, rules: list[Rule], speed: float = 0.0,
           on_change: Callable[[Change], None] = lambda c: None, sleep=time.sleep) -> list[Finding]:
    """Every alert the rules raise over the case's events; `speed` X plays X seconds of the
    incident per second (0: as fast as possible)."""
    directory = UnitDirectory(inp.entities)
    incident = Incident(directory)
    engine = AlertEngine(rules, incident)
    last_t = None
    started, first_t = time.monotonic(), None
    for ev in live_events(inp, directory):
        if speed > 0:
            first_t = ev.t if first_t is None else first_t
            wait = (ev.t - first_t) / 1000 / speed - (time.monotonic() - started)
            if wait > 0:
                sleep(wait)
        for change in engine.apply(ev):
            if change.action == "fire":
                change.alert.values["seen_by"] = seen_by(incident)
            on_change(change)
        last_t = ev.t
    if last_t is not None:
        for change in engine.advance(last_t):
            on_change(change)
    out = []
    for a in engine.history:
        f = a.finding()
        f.payload["replayed"] = True
        out.append(f)
    return out


def replay_case(case, rules_file=None, speed: float = 0.0, on_change=lambda c: None) -> list[Finding]:
    from onrecord.store.reader import open_reader

    return replay(from_case(open_reader(case)), load_rules(rules_file), speed, on_change)


def replay_build(r, rules_file=None) -> list[Finding]:
    return replay(from_build(r), load_rules(rules_file))


def alert_line(f: Finding) -> dict:
    """One replayed alert as `onrecord live replay --json` prints it (docs/json.md)."""
    from onrecord.timetext import to_utc_iso

    p = f.payload
    return {"rule": f.name, "subject": f.subject, "fired_at": to_utc_iso(_ms(p["fired_at"])),
            "cleared_at": to_utc_iso(_ms(p.get("cleared_at"))), "clear_reason": p.get("clear_reason"),
            "held_since": to_utc_iso(_ms(p["held_since"])), "title": p["title"], "severity": p["severity"],
            "seen_by": p["values"].get("seen_by", []), "evidence": f.evidence}


def _ms(v):
    return None if v is None else int(round(v))


def live_events_of_sources(reader, clocks, directory: UnitDirectory) -> Iterator[LiveEvent]:
    """The events the case's live feeds have stored, in the order they were stored, on the
    clocks known now: what a restarted live node goes through again."""
    live = {int(s["id"]): s for s in reader.sources() if str(s["file_name"]).startswith("live:")}
    if not live:
        return
    ev = reader.event_frame()
    ev = ev[ev["source_id"].isin(list(live))]
    for row in ev.itertuples(index=False):
        lo, hi, status = clocks.align(int(row.source_id), _int(row.t_src_lo), _int(row.t_src_hi))
        written = _text(row.unit)
        yield interpret(LiveEvent(
            id=int(row.id), source_id=int(row.source_id), kind=str(row.kind), t_lo=lo, t_hi=hi,
            unit=directory.key(written, _text(row.agency)), unit_name=written, agency=_text(row.agency),
            call=_text(row.call), channel=_text(row.channel), text=_text(row.text), attrs=_attrs(row.attrs),
            source_kind=live[int(row.source_id)]["kind"], clock=status))


def _int(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else int(v)
