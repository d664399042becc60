"""One case from one seed: the story, every agency's sources with their mappings, and
truth.json. Deterministic: the same seed writes the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

from onrecord.scenario import incident, true_metrics
from onrecord.scenario import world as world_mod
from onrecord.scenario.calls import plan_calls
from onrecord.scenario.camera import plan_camera
from onrecord.scenario.radio_plan import plan_radio
from onrecord.scenario.response import plan_response
from onrecord.scenario.rng import stream
from onrecord.scenario.staff import staff_agencies
from onrecord.scenario.story import Story
from onrecord.scenario.tones import plan_tone_outs
from onrecord.scenario.truth import TruthBook
from onrecord.scenario.written_times import iso_true

GENERATOR = "onrecord-scenario 1"


def tell_story(seed: int) -> Story:
    w = world_mod.build_world(stream(seed, "world"))
    staff_agencies(w, stream(seed, "staff"))
    rng = stream(seed, "incident")
    t0 = incident.school_afternoon(w, rng)
    story = Story(w, t0, incident.make_attacker(w, stream(seed, "attacker"), t0))
    incident.plan_attack(story, rng)
    plan_calls(story, stream(seed, "calls"))
    plan_response(story, stream(seed, "response"))
    plan_camera(story, stream(seed, "camera"))
    plan_radio(story, stream(seed, "radio"))
    plan_tone_outs(story, stream(seed, "tones"))
    return story


def write_sources(story: Story, book: TruthBook, root: Path, seed: int) -> list:
    from onrecord.scenario.sources import cad, calls911, devices, radio, rosters
    from onrecord.scenario.sources.common import write_table
    w, s = story.world, lambda label: stream(seed, f"source:{label}")
    city_clock = s("city-clock").uniform(-45, 45)  # both city CAD exports share one server clock
    city_911, seqs = calls911.city_911(story, book, s("city-911"))
    avl = devices.avl(story, book, s("avl"))  # first: county CAD relays some of its pings
    tables = [cad.county_cad(story, book, s("county-cad"), s("county-cad-feeds")),
              cad.city_cad(story, book, s("city-cad"), round(city_clock, 3), s("city-cad-feeds")),
              cad.city_unit_log(story, book, s("city-units"), round(city_clock, 3)),
              cad.fire_cad(story, book, s("fire-cad")),
              cad.fire_patients(story, book, s("fire-patients"), 0.0),
              city_911, calls911.county_911(story, book, s("county-911"), seqs),
              radio.radio_log(story, book, s("radio-so"), w.sheriff, round(s("radio-so-clock").uniform(-8, 8), 3),
                              s("radio-so-phones")),
              radio.radio_log(story, book, s("radio-pd"), w.police, round(s("radio-pd-clock").uniform(-30, 30), 3),
                              s("radio-pd-phones")),
              radio.radio_log(story, book, s("radio-fr"), w.fire, round(s("radio-fr-clock").uniform(-15, 15), 3)),
              devices.sensors(story, book, s("sensors")), avl,
              devices.camera(story, book, s("camera")),
              rosters.sheriff_roster(story, book, s("roster-so")), rosters.city_roster(story, book, s("roster-pd")),
              rosters.fire_roster(story, book, s("roster-fr"))]
    from onrecord.scenario.sources.texts import write_texts
    return [write_table(root, t, book) for t in tables] + write_texts(story, book, root, s("texts"))


def write_priors(story: Story, book: TruthBook, root: Path, seed: int) -> list:
    from onrecord.scenario.priors import plan_priors
    from onrecord.scenario.sources.common import write_table
    from onrecord.scenario.sources.prior_sources import EXTRA_AGENCIES, prior_tables
    priors = plan_priors(story, stream(seed, "priors"))
    paths = [write_table(root, t, book) for t in prior_tables(story, priors, book, stream(seed, "prior-ids"))]
    people = {pid: {"name": f"{p.first} {p.middle}. {p.last}", "dob": p.dob.isoformat(), "address": p.address,
                    "phone": p.phone, "role": priors.roles[pid]} for pid, p in priors.people.items()}
    agencies = {c.agency for c in priors.contacts if c.person == priors.attacker}
    book.sections["priors"] = {
        "attacker": priors.attacker, "attacker_agencies": sorted(agencies),
        "attacker_records": sorted(k for k, v in book.prior_records.items() if v["person"] == priors.attacker),
        "agencies": {code: name for code, name in EXTRA_AGENCIES.values()}, "people": people}
    return paths


def generate_case(seed: int, out: Path, background: int = 0, incident_feed: int = 0) -> dict:
    """A generated incident's sources, mappings and truth in `out`; for scale runs,
    `background` unrelated calls over the year before and `incident_feed` location fixes
    of the responding vehicles during it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    story, book = tell_story(seed), TruthBook()
    paths = write_sources(story, book, out, seed) + write_priors(story, book, out, seed)
    manifest = {"seed": seed, "sources": [{"file": f"{p.parent.name}/{p.name}",
                                           "mapping": f"{p.parent.name}/{p.with_suffix('.toml').name}",
                                           "kind": book.sources[p.name]["kind"]} for p in paths]}
    if background:
        from onrecord.scenario.background import write_background
        bg = write_background(story, out, seed, background, book)
        manifest["background"] = bg
        manifest["sources"].append({"file": bg["file"], "mapping": bg["mapping"], "kind": "cad"})
    if incident_feed:
        from onrecord.scenario.incident_feed import write_incident_feed
        feed = write_incident_feed(story, out, seed, incident_feed, book)
        manifest["incident_feed"] = feed
        manifest["sources"].append({"file": feed["file"], "mapping": feed["mapping"], "kind": "avl"})
    book.sections.update(_sections(story))
    book.write(out / "truth.json", _head(story, seed))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def _head(story: Story, seed: int) -> dict:
    w = story.world
    return {"seed": seed, "generator": GENERATOR, "timezone": w.tz,
            "world": {"county": f"{w.county} County", "city": w.city, "school": w.school,
                      "campus_address": w.campus_address, "lat": w.lat, "lon": w.lon,
                      "target_building": w.target.name,
                      "buildings": [{"name": b.name, "floors": b.floors, "lat": b.lat, "lon": b.lon}
                                    for b in w.buildings],
                      "agencies": {a.code: {"name": a.name, "kind": a.kind} for a in w.agencies.values()},
                      "hospitals": w.hospitals}}


def _sections(story: Story) -> dict:
    from onrecord.scenario.true_entities import entities_section
    return {"incident": {"first_shot": iso_true(story.first_shot), "fate": story.fate,
                         "threat_ended_event": story.threat_ended, "shots_total": sum(b.shots for b in story.bursts),
                         "bursts": [{"event": b.eid, "start": iso_true(b.t), "end": iso_true(b.end),
                                     "floor": b.floor, "shots": b.shots} for b in story.bursts],
                         "entries": story.entries, "casualties": len(story.casualties)},
            "camera": {"source": "campus_cameras.csv", "clock_offset_s": story.camera_offset,
                       "live_lag_s": story.camera_lag,
                       "views": [{"event": v.eid, "shown_at": iso_true(v.t), "footage_of": iso_true(v.footage),
                                  "shows": v.shows} for v in story.views]},
            "radio": {"channels": story.channels, "patched_at": iso_true(story.patched),
                      "patched_channels": [story.channels[story.world.sheriff], story.channels[story.world.police]]},
            "metrics": true_metrics.metrics_section(story),
            "entities": entities_section(story),
            "events": {e.eid: {"kind": e.kind, "time": iso_true(e.t), "t_rel_s": round(e.t - story.first_shot, 3),
                               "unit": e.unit, "people": e.people, "place": e.place, "note": e.note}
                       for e in sorted(story.events.values(), key=lambda e: (e.t, e.eid))}}
