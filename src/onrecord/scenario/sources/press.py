"""Press pieces published in the days after, with figures that are wrong or that
conflict with each other: the figures the public heard first."""

from __future__ import annotations

import random

from onrecord.scenario import wording
from onrecord.scenario.sources.textdoc import TextDoc
from onrecord.scenario.story import Story
from onrecord.scenario.written_times import iso_true, local

OUTLETS = ["{county} Courier", "Channel 9 {city} News", "Coastal Wire Service"]


def _piece(story: Story, rng: random.Random, n: int, title: str) -> TextDoc:
    w = story.world
    published = story.t0 + 3600 * rng.uniform(6, 30) + 86400 * (n - 1)
    eid = f"press-{n:02d}"
    story.add(eid, "press_published", published, note=title)
    outlet = OUTLETS[(n - 1) % len(OUTLETS)].format(county=w.county, city=w.city)
    header = {"Title": title, "Outlet": outlet, "Author": f"{outlet} staff", "Rid": f"PR-{n:02d}",
              "Published": local(published, w.tz, "%Y-%m-%d %H:%M")}
    return TextDoc(f"press_{n:02d}.txt", "press", "PRESS", header)


def _wrong(doc: TextDoc, sentence: str, measure: str, claimed, true) -> None:
    doc.say(sentence, type="press_error", measure=measure, claimed=claimed, true=true)


def all_press(story: Story, rng: random.Random) -> list[TextDoc]:
    w = story.world
    sro = w.units_of(w.sheriff, "sro")[0]
    held = min(story.last_shot, story.events[story.threat_ended].t) - story.runs[sro.uid].arrived
    first_call = min(c.city_presented if c.mobile else c.county_presented for c in story.calls if c.related)
    cas = len(story.casualties)
    one = _piece(story, rng, 1, f"Gunman opens fire at {w.school}")
    wrong_held = max(round(held / 60) + rng.randint(3, 8), 2)
    _wrong(one, f"Deputies waited outside for {wrong_held} minutes while shots were fired.",
           "sro_outside_while_shots_min", wrong_held, round(held / 60, 2))
    wrong_call = first_call + rng.choice([-1, 1]) * rng.uniform(150, 300)
    _wrong(one, f"The first 911 call came in at {wording.exact_clock(wrong_call, w.tz)}", "first_911_call",
           iso_true(wrong_call), iso_true(first_call))
    n1 = cas + rng.randint(2, 5)
    _wrong(one, f"{wording.number(n1).capitalize()} people were taken to hospitals.", "patients_transported", n1, cas)
    two = _piece(story, rng, 2, "Questions over police response at school shooting")
    early = [r for r in story.runs.values() if w.unit(r.uid).agency == w.sheriff and r.arrived < story.last_shot]
    claimed = max(0, len(early) - rng.randint(1, 2))
    _wrong(two, f"Only {wording.number(claimed)} deputies were on the campus while the gunman was still firing.",
           "sheriff_units_on_scene_during_shots", claimed, len(early))
    gap = story.at(story.entries[0]) - story.first_shot
    wrong_gap = round(gap / 60) - rng.randint(3, 5)
    _wrong(two, f"Officers entered the building {wording.number(max(wrong_gap, 1))} minutes after the first shot.",
           "first_shot_to_first_entry_min", max(wrong_gap, 1), round(gap / 60, 2))
    n2 = max(1, cas - rng.randint(1, 3))  # conflicts with the first piece too
    _wrong(two, f"{wording.number(n2).capitalize()} people were taken to hospitals.", "patients_transported", n2, cas)
    three = _piece(story, rng, 3, "Timeline of the school attack")
    calls = sum(1 for c in story.calls if c.related)
    n3 = calls + rng.randint(5, 12)
    _wrong(three, f"Dispatchers fielded {n3} calls to 911 in the first ten minutes.", "incident_911_calls", n3, calls)
    _wrong(three, "Commanders watched the gunman live on the school's cameras as officers moved in.",
           "camera_feed_was_live", True, {"live": False, "lag_s": story.camera_lag})
    return [one, two, three]
