"""What was said on the radio, on which channel, by whom.

Each agency talks on its own channel; they are not patched together until well into the
incident, so city officers asking where to go are not heard by the deputies outside.
After the patch a transmission is logged by both agencies' loggers: two records of one
true event. A unit's "on scene" call is the record of its arrival: same true event.
"""

from __future__ import annotations

import random

from onrecord.scenario.story import Story, Transmission


def plan_radio(story: Story, rng: random.Random) -> None:
    w = story.world
    story.channels = {w.sheriff: f"{w.sheriff}-DISP1", w.police: f"{w.police}-MAIN",
                      w.fire: f"{w.fire}-OPS2"}
    story.patched = round(story.t0 + rng.uniform(1100, 2400), 3)
    _sheriff_talk(story, rng)
    _city_talk(story, rng)
    _fire_talk(story, rng)
    story.add("channels-patched", "channels_patched", story.patched,
              note=f"{story.channels[w.sheriff]} patched with {story.channels[w.police]}")
    _say(story, rng, "channels-patched", story.patched, w.sheriff, None,
         f"Be advised, {story.channels[w.sheriff]} now patched with {story.channels[w.police]}")
    story.radio.sort(key=lambda x: (x.t, x.channel))


def _say(story: Story, rng, eid: str, t: float, agency: str, uid: str | None, text: str,
         new_event: str | None = None, names: list[tuple[str, str]] | None = None) -> None:
    if new_event:
        story.add(eid, new_event, t, unit=uid, note=text)
    story.radio.append(Transmission(eid, round(t, 3), story.channels[agency], uid, text,
                                    round(rng.uniform(2, 9), 1), names or []))


def _sheriff_talk(story: Story, rng: random.Random) -> None:
    w, so, b = story.world, story.world.sheriff, story.world.target.name
    sro = w.units_of(so, "sro")[0]
    run = story.runs[sro.uid]
    _say(story, rng, "radio-sro-shots", run.arrived + rng.uniform(3, 15), so, sro.uid,
         f"{sro.call_sign}, possible shots fired, {b}", "radio_transmission")
    _say(story, rng, "radio-sro-stay-away", run.arrived + rng.uniform(150, 230), so, sro.uid,
         f"Stay away from {b}, stay at least 500 feet away", "radio_transmission")
    first = story.at(story.first_dispatch)
    _say(story, rng, "radio-county-dispatch", first + rng.uniform(0, 4), so, None,
         f"All units, shots fired at {w.school}, {b}", "radio_transmission")
    for u in w.units_of(so):
        r = story.runs[u.uid]
        if u.role != "sro":
            _say(story, rng, f"arrive-{u.uid}", r.arrived + rng.uniform(2, 12), so, u.uid,
                 f"{u.call_sign} on scene, {r.stage}")
        later = [x for x in story.bursts if x.t > r.arrived]
        if u.role == "deputy" and later and rng.random() < 0.8:
            last = w.people[u.crew[0]].last
            _say(story, rng, f"radio-{u.uid}-shots", later[0].t + rng.uniform(2, 8), so, u.uid,
                 f"{u.call_sign}, {last} here, I hear shots, by {b}", "radio_transmission",
                 [(last, u.crew[0])])
    sgt = _lookalike_sergeant(story)
    said = f"Sergeant {w.people[sgt.crew[0]].last}"
    _say(story, rng, "radio-hold-order", story.runs[sgt.uid].arrived + rng.uniform(20, 60), so,
         sgt.uid, f"{said} to all units, hold the perimeter, nobody goes in until SWAT is here",
         "radio_transmission", [(said, sgt.crew[0])])
    cap = w.units_of(so, "captain")[0]
    for k, v in enumerate(story.views):
        _say(story, rng, f"radio-camera-{k + 1:02d}", v.t + rng.uniform(5, 20), so, cap.uid,
             f"Camera room says {v.shows}", "radio_transmission")


def _lookalike_sergeant(story: Story):
    pid = story.world.lookalikes[1]
    return next(u for u in story.world.units if u.crew[0] == pid)


def _city_talk(story: Story, rng: random.Random) -> None:
    w, pd, b = story.world, story.world.police, story.world.target.name
    first = min(story.runs[u.uid].dispatched for u in w.units_of(pd))
    _say(story, rng, "radio-city-dispatch", first + rng.uniform(0, 4), pd, None,
         f"Units respond {w.school}, multiple calls, shots fired", "radio_transmission")
    units = sorted(w.units_of(pd), key=lambda u: story.runs[u.uid].arrived)
    for u in units:
        r = story.runs[u.uid]
        _say(story, rng, f"arrive-{u.uid}", r.arrived + rng.uniform(2, 12), pd, u.uid,
             f"{u.call_sign} on scene, {r.stage}")
    lead = units[0]
    _say(story, rng, "radio-city-which-building", story.runs[lead.uid].arrived + rng.uniform(15, 40),
         pd, lead.uid, "Which building? Can anyone raise county on this channel?",
         "radio_transmission")
    for eid in story.entries:
        e = story.events[eid]
        _say(story, rng, eid, e.t + rng.uniform(-4, 3), pd, e.unit,
             f"{w.unit(e.unit).call_sign}, we're going in, {b} east stair door")
    _say(story, rng, "radio-city-victims", story.at(story.entries[0]) + rng.uniform(30, 90), pd,
         lead.uid, f"Victims on the first floor of {b}, need rescue at the east door",
         "radio_transmission")
    _clearing(story, rng)
    end = story.events[story.threat_ended if story.fate == "stopped" else "attacker-detained"]
    words = "Suspect in custody" if story.fate == "stopped" else "Detained a subject matching the description"
    _say(story, rng, "radio-custody", end.t + rng.uniform(5, 20), pd, end.unit,
         f"{w.unit(end.unit).call_sign}, {words}", "radio_transmission")


def _clearing(story: Story, rng: random.Random) -> None:
    """Entry teams clearing the building room by room, well into the patched period."""
    w, pd, b = story.world, story.world.police, story.world.target
    team = [u for u in w.units_of(pd) if story.runs[u.uid].entered]
    t = story.at(story.entries[0]) + rng.uniform(60, 120)
    k = 0
    while t < story.t0 + 3600:
        k += 1
        u = rng.choice(team)
        floor = 1 + (k - 1) % b.floors
        _say(story, rng, f"radio-city-clearing-{k:02d}", t, pd, u.uid,
             f"{u.call_sign}, {b.name} floor {floor} {rng.choice(['west wing', 'east wing', 'stairwell'])} clear",
             "radio_transmission")
        t += rng.uniform(90, 300)


def _fire_talk(story: Story, rng: random.Random) -> None:
    w, fr = story.world, story.world.fire
    first = min(story.runs[u.uid].dispatched for u in w.units_of(fr))
    _say(story, rng, "radio-fire-dispatch", first + rng.uniform(0, 4), fr, None,
         f"Rescues and engines respond {w.school}, stage at the bus loop", "radio_transmission")
    for u in w.units_of(fr):
        r = story.runs[u.uid]
        _say(story, rng, f"arrive-{u.uid}", r.arrived + rng.uniform(2, 12), fr, u.uid,
             f"{u.call_sign} staged")
    for c in story.casualties:
        cs = w.unit(c.rescue).call_sign
        _say(story, rng, f"casualty-{c.n:02d}-handoff", c.handoff + rng.uniform(0, 10), fr,
             c.rescue, f"{cs} receiving one patient at the east lot")
        _say(story, rng, f"casualty-{c.n:02d}-transport", c.transported + rng.uniform(0, 10), fr,
             c.rescue, f"{cs} transporting one {c.triage} to {c.hospital}")
