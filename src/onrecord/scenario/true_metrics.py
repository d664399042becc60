"""The true response measures, computed from the true story (never from the records).

Definitions are in docs/scenario.md; the reconstruction's metrics are scored against
these by name.
"""

from __future__ import annotations

from onrecord.scenario.story import Story
from onrecord.scenario.written_times import iso_true


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def unit_measures(story: Story) -> dict[str, dict]:
    w, out = story.world, {}
    for uid, r in sorted(story.runs.items()):
        u = w.unit(uid)
        outside_until = r.entered if r.entered else story.events[story.threat_ended].t
        out[uid] = {
            "agency": u.agency, "cad_id": u.cad_id, "call_sign": u.call_sign, "armed": u.armed,
            "dispatched": iso_true(r.dispatched), "arrived": iso_true(r.arrived),
            "entered": iso_true(r.entered) if r.entered else None, "entered_building": bool(r.entered),
            "outside_while_shots_s": round(overlap(r.arrived, outside_until, story.first_shot, story.last_shot), 3)
            if u.armed else None,
            "held_outside_during_shots": bool(u.armed and r.arrived < story.last_shot and
                                              (not r.entered or r.entered > story.last_shot)),
        }
    return out


def agency_measures(story: Story) -> dict[str, dict]:
    w, units = story.world, unit_measures(story)
    return {code: {"units_on_scene": sum(1 for m in units.values() if m["agency"] == code),
                   "units_entered": sum(1 for m in units.values() if m["agency"] == code and m["entered_building"])}
            for code in (w.sheriff, w.police, w.fire)}


def call_measures(story: Story) -> dict[str, dict]:
    out = {}
    for c in story.calls:
        first_ring = c.city_presented if c.mobile else c.county_presented
        out[c.cid] = {
            "related": c.related, "mobile": c.mobile, "placed": iso_true(c.placed),
            "transfer_delay_s": round(c.county_answered - c.city_presented, 3) if c.mobile else 0.0,
            "city_hold_s": round(c.transferred - c.city_presented, 3) if c.mobile else None,
            "ring_to_answer_s": round(c.county_answered - first_ring, 3)}
    return out


def scored_metrics(story: Story) -> dict[str, float]:
    """Headline figures as UTC epoch seconds (times) or seconds (durations)."""
    w = story.world
    related = [c for c in story.calls if c.related]
    armed = [r for r in story.runs.values() if w.unit(r.uid).armed]
    first_armed = min(r.arrived for r in armed)
    first_entry = story.at(story.entries[0])
    out = {"first_shot": story.first_shot, "last_shot": story.last_shot,
           "first_911_call": min(c.city_presented if c.mobile else c.county_presented for c in related),
           # the first unit of any agency dispatched to it (the city may beat the county)
           "first_dispatch": min(r.dispatched for r in story.runs.values() if r.dispatched is not None),
           "first_armed_unit_on_scene": first_armed, "first_entry": first_entry,
           "threat_ended": story.events[story.threat_ended].t,
           "first_shot_to_first_entry_s": first_entry - story.first_shot,
           "first_armed_arrival_to_entry_s": first_entry - first_armed,
           "camera_live_lag_s": story.camera_lag,
           "mean_transfer_delay_s": sum(c.county_answered - c.city_presented for c in related if c.mobile)
           / max(1, sum(1 for c in related if c.mobile))}
    return {k: round(v, 3) for k, v in out.items()}


TIME_METRICS = ("first_shot", "last_shot", "first_911_call", "first_dispatch", "first_armed_unit_on_scene",
                "first_entry", "threat_ended")


def detail_metrics(story: Story) -> dict[str, float]:
    """Per unit (keyed by CAD unit id) and per call (keyed by the caller's number, which
    both answering points log): when each unit arrived, how long each armed unit was
    outside while shots were still being fired, how long each mobile caller waited."""
    w, out = story.world, {}
    for uid, m in unit_measures(story).items():
        cad = w.unit(uid).cad_id
        out[f"arrived:{cad}"] = round(story.runs[uid].arrived, 3)
        if m["outside_while_shots_s"] is not None:
            out[f"outside_while_shots_s:{cad}"] = m["outside_while_shots_s"]
    for c in story.calls:
        if c.mobile and c.related:
            out[f"transfer_delay_s:{c.phone}"] = round(c.county_answered - c.city_presented, 3)
    return out


def count_metrics(story: Story) -> dict[str, int]:
    return {f"{name}:{code}": n for code, m in agency_measures(story).items() for name, n in m.items()}


def metrics_section(story: Story) -> dict:
    scored = scored_metrics(story)
    return {"scored": scored, "scored_detail": detail_metrics(story), "scored_counts": count_metrics(story),
            "times_utc": {k: iso_true(scored[k]) for k in TIME_METRICS},
            "units": unit_measures(story), "agencies": agency_measures(story), "calls": call_measures(story)}
