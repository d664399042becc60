"""truth.json in the shape onrecord's docs/scenario.md documents
(schema onrecord-scenario-truth/1), plus what this generator knows beyond it."""

from __future__ import annotations

from datetime import datetime, timezone

SCHEMA = "onrecord-scenario-truth/1"


def _iso(t):
    if t is None:
        return None
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _r(x, nd=3):
    return None if x is None else round(x, nd)


def _row_unit(key: str, rec: dict, mentions: dict) -> str | None:
    """The unit a record's row names in its unit column (packed and wide rows: the unit
    of that part of the row)."""
    file, rid = key.split("#")[:2]
    if "unit_written" in rec:
        for k, v in mentions.items():
            if k.startswith(f"{file}#{rid}#") and k.endswith("#" + rec["unit_written"]):
                return v
        return None
    got = mentions.get(f"{file}#{rid}#unit")
    if got is None and f"{file}#{rid}#actor" in mentions:
        return crew_unit.get(mentions[f"{file}#{rid}#actor"])
    return got


crew_unit: dict = {}


def build_truth(world, inc, exports, metrics, seed, generator) -> dict:
    t0 = inc.t0
    units = world.units
    crew_unit.clear()
    crew_unit.update({p: uid for uid, u in units.items() for p in u.crew})
    sources = {}
    records, mentions, forms = {}, {}, {}
    for exp in exports:
        c = exp.clock
        sources[exp.name] = {
            "kind": exp.kind,
            "agency": exp.agency,
            "path": exp.path,
            "data_dictionary": f"data_dictionary/{exp.name.rsplit('.', 1)[0]}.md",
            "timezone": exp.zone if c else None,
            "timezone_stated": exp.zone_stated,
            "clock_offset_s": None if c is None else _r(c.offset),
            "clock_quality": None if c is None else c.quality,
            "clock_drift_ppm": None if c is None else c.drift_ppm,
            "clock_reference_time": None if c is None else _iso(c.ref),
            "clock_statement": None if c is None else c.statement,
            "rid_attribute": "rid",
            "rid_column": exp.rid_col,
            "rows": len(exp.rows),
            "dialect": exp.dialect,
            "format": exp.fmt,
            "header": exp.header,
            "delimiter": exp.delimiter,
            "columns": exp.columns,
            "time_style": exp.style_key,
        }
        for key, rec in exp.records.items():
            out = dict(rec)
            out["true_time"] = _iso(rec["true_time"])
            out["true_epoch"] = _r(rec["true_time"])
            if "shown_true" in out:
                out["shown_true"] = _iso(out["shown_true"])
            records[key] = out
        mentions.update(exp.mentions)
        forms.update(exp.forms)
    reg = inc.reg
    events = {}
    for eid, ev in sorted(reg.events.items()):
        events[eid] = {
            "kind": ev.kind,
            "time": _iso(ev.t),
            "t_rel_s": _r(ev.t - t0),
            "unit": ev.unit,
            "units": ev.units,
            "people": ev.people,
            "place": ev.place,
            "note": ev.note,
            "related": ev.related,
            **ev.attrs,
        }
    entities = {}
    for code, a in world.agencies.items():
        entities[code] = {"kind": "agency", "name": a.name, "agency_kind": a.kind}
    for uid, u in units.items():
        entities[uid] = {
            "kind": "unit",
            "agency": u.agency,
            "role": u.role,
            "cad_id": u.cad_id,
            "call_sign": u.call_sign,
            "vehicle": u.vehicle,
            "radio_id": u.radio_id,
            "crew": u.crew,
            "armed": u.armed,
            "responded": uid in inc.responses,
        }
    for pid, p in world.people.items():
        entities[pid] = {
            "kind": "person",
            "name": f"{p.first} {p.middle}. {p.last}",
            "agency": p.agency,
            "rank": p.rank,
            "badge": p.badge,
            "dob": p.dob,
            "armed": p.armed,
        }
    a = world.attacker
    entities["P900"] = {
        "kind": "person",
        "name": f"{a.first} {a.middle}. {a.last}",
        "agency": None,
        "rank": None,
        "badge": None,
        "dob": a.dob,
        "role": "attacker",
    }

    m = metrics
    units_out = {}
    for uid, r in m["units"].items():
        units_out[uid] = {k: (_r(v) if isinstance(v, float) and not isinstance(v, bool) else v) for k, v in r.items()}
        evs = {inc.responses[uid].arrived_ev} - {None}
        units_out[uid]["arrival_recorded_by"] = sorted(k for k, rec in records.items() if rec["event"] in evs)
        team_evs = set(r["entry_events"])
        units_out[uid]["entry_recorded_by"] = sorted(
            k for k, rec in records.items() if rec["event"] in team_evs and _row_unit(k, rec, mentions) == uid
        )
        units_out[uid]["entry_named_in_text_by"] = sorted(
            k for k, rec in records.items() if rec["event"] in team_evs and uid in rec.get("text_mentions", ())
        )
    scored = {k: _r(v) for k, v in m["scored"].items()}
    metrics_out = {
        "scored": scored,
        "scored_detail": {k: _r(v) for k, v in m["scored_detail"].items()},
        "scored_counts": m["scored_counts"],
        "times_utc": {k: _iso(v) for k, v in m["scored"].items() if not k.endswith("_s")},
        "first_armed_unit": m["first_armed_unit"],
        "units": units_out,
        "agencies": m["agencies"],
        "calls": {
            ani: {k: (_iso(v) if k == "placed" else (_r(v) if isinstance(v, float) else v)) for k, v in c.items()}
            for ani, c in m["calls"].items()
        },
        "definitions": {
            "outside_while_shots_s": "overlap of [true arrival, first entry (or threat ended if it never entered)] with [first shot, last shot]",  # noqa: E501 (prose)
            "transfer_delay_s": "first ring at the first answering point to the answer at the second, for transferred incident calls placed after the first shot",  # noqa: E501 (prose)
            "first_armed_unit_on_scene": "true arrival of the first unit with an armed crew member (a school resource officer: reaching the target building)",  # noqa: E501 (prose)
            "first_dispatch": "first unit dispatched after the first shot to an agency's shooting incident (not the fire alarm call)",  # noqa: E501 (prose)
            "arrived": "true arrival on scene: a car entering the campus geofence (250 m), an officer on foot reaching the target building; fire/EMS units staged off campus arrive when they move up to the casualty collection point",  # noqa: E501 (prose)
            "units_on_scene": "units of the agency that truly arrived on scene",
            "units_entered": "units of the agency that truly went into a building (any entry team, including a rescue task force)",  # noqa: E501 (prose)
        },
    }
    cam = next((e for e in exports if e.dialect == "camera/review"), None)
    mon = next((e for e in exports if e.dialect == "camera/monitor"), None)
    camera = None
    if cam or mon:
        src = mon or cam
        camera = {
            "source": cam.name if cam else None,
            "monitor_source": mon.name if mon else None,
            "clock_offset_s": _r(src.clock.offset),
            "live_lag_s": _r(inc.live_lag) if mon else None,
            "views": [
                {"event": v.event, "shown_at": _iso(v.shown), "footage_of": _iso(v.footage), "shows": v.what}
                for v in inc.live_views
            ]
            if mon
            else [],
        }
    truth = {
        "schema": SCHEMA,
        "seed": seed,
        "generator": generator,
        "timezone": world.zone,
        "world": {
            "county": f"{world.county} County",
            "city": world.city,
            "school": world.school,
            "campus_address": world.address,
            "lat": world.lat,
            "lon": world.lon,
            "target_building": world.target["name"],
            "buildings": world.buildings,
            "doors": world.doors,
            "police_staging": world.police_staging,
            "fire_staging": world.fire_staging,
            "casualty_collection_point": world.ccp,
            "agencies": {
                c: {"name": a.name, "kind": a.kind, "radio_vocabulary": a.vocab, "answers_911": a.answers_911}
                for c, a in world.agencies.items()
            },
            "primary_agency": world.primary,
            "wireless_answering_point": world.wireless_psap,
            "hospitals": world.hospitals,
        },
        "sources": sources,
        "incident": {
            "first_shot": _iso(t0),
            "fate": inc.fate,
            "threat_ended_event": inc.threat_end_ev,
            "threat_ended": _iso(inc.threat_end),
            "attacker_entry_event": inc.attacker_entry_ev,
            "shots_total": sum(len(b.shots) for b in inc.bursts),
            "bursts": [
                {"event": b.event, "start": _iso(b.start), "end": _iso(b.end), "floor": b.floor, "shots": len(b.shots)}
                for b in inc.bursts
            ],
            "entries": [t.event for t in inc.teams],
            "entry_teams": [
                {"event": t.event, "kind": t.kind, "units": t.units, "time": _iso(t.t), "door": t.door["name"]}
                for t in inc.teams
            ],
            "casualties": len(inc.patients),
            "incident_numbers": inc.notes["created"],
        },
        "camera": camera,
        "radio": {"channels": inc.talkgroups, "patched_at": _iso(inc.patch_t), "patched_channels": inc.patched},
        "metrics": metrics_out,
        "entities": entities,
        "events": events,
        "records": records,
        "mentions": mentions,
        "mention_forms": forms,
    }
    return truth
