"""The true response measures, computed from the simulated incident by the definitions
in onrecord's docs/metrics.md and docs/scenario.md."""

from __future__ import annotations

from .timeline import Incident, outside_while_shots


def compute(inc: Incident, camera_exported: bool) -> dict:
    world = inc.world
    first, last = inc.bursts[0].start, inc.bursts[-1].end
    units = {}
    for uid, r in inc.responses.items():
        u = world.units[uid]
        teams = [t for t in inc.teams if uid in t.units]
        entered = min((t.t for t in teams), default=None)
        rec = {
            "agency": u.agency,
            "cad_id": u.cad_id,
            "call_sign": u.call_sign,
            "armed": u.armed,
            "role": u.role,
            "dispatched": r.dispatched,
            "enroute": r.enroute,
            "staged": r.staged,
            "arrived": r.arrived,
            "entered": entered,
            "entered_building": world.target["name"] if entered is not None else None,
            "entry_events": [t.event for t in teams],
        }
        if u.armed and r.arrived is not None:
            rec["outside_while_shots_s"] = round(
                outside_while_shots(r.arrived, entered, inc.threat_end, first, last), 3
            )
            rec["held_outside_during_shots"] = r.arrived < last and (entered is None or entered > last)
        units[uid] = rec
    armed_arrivals = sorted((r["arrived"], uid) for uid, r in units.items() if r["armed"] and r["arrived"] is not None)
    first_entry = min(t.t for t in inc.teams)
    calls = {}
    delays = {}
    for call in inc.calls:
        first_leg = call.legs[0]
        rec = {
            "related": call.related,
            "mobile": call.cos == "wireless",
            "placed": first_leg.ring,
            "first_answering_point": first_leg.psap,
            "ring_to_answer_s": (first_leg.answer - first_leg.ring) if first_leg.answer else None,
            "transfer_delay_s": None,
            "first_point_hold_s": None,
            "abandoned": first_leg.answer is None,
        }
        if len(call.legs) > 1 and call.legs[1].answer is not None:
            rec["transfer_delay_s"] = round(call.legs[1].answer - first_leg.ring, 3)
            rec["first_point_hold_s"] = round(first_leg.transfer - first_leg.ring, 3)
            if call.related and first_leg.ring >= first:
                delays[call.ani] = rec["transfer_delay_s"]
        calls[call.ani] = rec
    related_rings = [c.legs[0].ring for c in inc.calls if c.related]
    dispatches = [r["dispatched"] for r in units.values() if r["dispatched"] is not None and r["dispatched"] >= first]
    scored = {
        "first_shot": first,
        "last_shot": last,
        "first_911_call": min(related_rings),
        "first_dispatch": min(dispatches),
        "first_armed_unit_on_scene": armed_arrivals[0][0],
        "first_entry": first_entry,
        "threat_ended": inc.threat_end,
        "first_shot_to_first_entry_s": round(first_entry - first, 3),
        "first_armed_arrival_to_entry_s": round(first_entry - armed_arrivals[0][0], 3),
    }
    if camera_exported and inc.live_lag is not None and inc.live_views:
        scored["camera_live_lag_s"] = round(inc.live_lag, 3)
    if delays:
        scored["mean_transfer_delay_s"] = round(sum(delays.values()) / len(delays), 3)
    detail = {}
    for uid, r in units.items():
        if r["arrived"] is not None:
            detail[f"arrived:{r['cad_id']}"] = r["arrived"]
        if "outside_while_shots_s" in r:
            detail[f"outside_while_shots_s:{r['cad_id']}"] = r["outside_while_shots_s"]
    for ani, d in delays.items():
        detail[f"transfer_delay_s:{ani}"] = d
    agencies = {}
    for uid, r in units.items():
        if r["arrived"] is None:
            continue
        a = agencies.setdefault(r["agency"], {"units_on_scene": 0, "units_entered": 0})
        a["units_on_scene"] += 1
        a["units_entered"] += r["entered"] is not None
    counts = {}
    for code, a in agencies.items():
        counts[f"units_on_scene:{code}"] = a["units_on_scene"]
        counts[f"units_entered:{code}"] = a["units_entered"]
    return {
        "scored": scored,
        "scored_detail": detail,
        "scored_counts": counts,
        "units": units,
        "agencies": agencies,
        "calls": calls,
        "first_armed_unit": armed_arrivals[0][1],
    }
