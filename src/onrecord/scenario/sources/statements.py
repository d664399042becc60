"""Officers' written statements, days later, from memory.

Times are approximate ("about four minutes after I arrived", "around 2:20 p.m.") and
some recollections contradict the records: the resource officer "heard two or three
shots" and "no shots after I got there"; the sergeant "never ordered anyone to hold".
Each such sentence is in truth with its span, what it claims and what is true.
"""

from __future__ import annotations

import random

from onrecord.scenario import wording
from onrecord.scenario.invented_names import misspell
from onrecord.scenario.sources.textdoc import TextDoc
from onrecord.scenario.story import Story
from onrecord.scenario.written_times import iso_true, local


def _doc(story: Story, rng: random.Random, n: int, uid: str, title: str) -> TextDoc:
    w = story.world
    u = w.unit(uid)
    p = w.people[u.crew[0]]
    written = story.t0 + 86400 * rng.randint(1, 9) + rng.uniform(-3, 3) * 3600
    eid = f"statement-{n:02d}"
    story.add(eid, "statement_written", written, unit=uid, people=[p.pid], note=title)
    header = {"Author": f"{p.rank} {p.first} {p.middle}. {p.last}", "Agency": u.agency, "Unit": u.cad_id,
              "Rid": f"ST-{n:02d}", "Written": local(written, w.tz, "%Y-%m-%d %H:%M"), "Title": title}
    return TextDoc(f"statement_{n:02d}_{p.last.lower()}.txt", "statement", u.agency, header)


def _mention(doc: TextDoc, text: str, pid: str, name: str) -> None:
    doc.say(text, type="mention", entity=pid, name=name)


def _contradiction(doc: TextDoc, sentence: str, measure: str, claimed, true, evidence: list[str]) -> None:
    doc.say(sentence, type="contradiction", measure=measure, claimed=claimed, true=true, evidence=evidence)


def _approx(doc: TextDoc, sentence: str, measure: str, true, evidence: list[str]) -> None:
    doc.say(sentence, type="approximate", measure=measure, true=true, evidence=evidence)


def sro_statement(story: Story, rng: random.Random, n: int) -> TextDoc:
    w = story.world
    sro = w.units_of(w.sheriff, "sro")[0]
    run = story.runs[sro.uid]
    doc = _doc(story, rng, n, sro.uid, "Statement of the school resource officer")
    b = w.target.name
    _approx(doc, f"At {wording.clock(story.first_shot, w.tz)} I was near {rng.choice(w.buildings).name} "
                 f"when I heard what I thought were firecrackers.", "first_shot_time",
            iso_true(story.first_shot), [story.bursts[0].eid])
    _contradiction(doc, "I heard maybe two or three shots.", "shots_heard", [2, 3],
                   sum(x.shots for x in story.bursts if x.t < run.arrived + 60), [x.eid for x in story.bursts[:3]])
    _approx(doc, f"I got to {b} {wording.minutes(run.arrived - story.first_shot)} later.",
            "sro_arrival_after_first_shot_s", round(run.arrived - story.first_shot, 3), [f"arrive-{sro.uid}"])
    after = [x for x in story.bursts if x.t > run.arrived]
    _contradiction(doc, "Once I was at the building I did not hear any more shots.", "shots_after_arrival", 0,
                   sum(x.shots for x in after), [x.eid for x in after])
    doc.paragraph()
    _contradiction(doc, "I never told anyone to stay away from the building.", "stay_away_order", False, True,
                   ["radio-sro-stay-away"])
    deputy = w.people[w.lookalikes[0]]
    d_unit = next(u for u in w.units if u.crew[0] == deputy.pid)
    gap = story.runs[d_unit.uid].arrived - run.arrived
    _approx(doc, f"{wording.minutes(gap).capitalize()} after I got there", "deputy_arrival_after_sro_s",
            round(gap, 3), [f"arrive-{d_unit.uid}"])
    _mention(doc, f"Deputy {deputy.last} pulled up near the {story.runs[d_unit.uid].stage}.", deputy.pid,
             f"Deputy {deputy.last}")
    doc.say("We stayed in position and watched the doors.")
    return doc


def deputy_statement(story: Story, rng: random.Random, n: int) -> TextDoc:
    w = story.world
    deputy = w.people[w.lookalikes[0]]
    unit = next(u for u in w.units if u.crew[0] == deputy.pid)
    run = story.runs[unit.uid]
    sgt = w.people[w.lookalikes[1]]
    doc = _doc(story, rng, n, unit.uid, "Deputy's statement")
    dispatch = story.at(story.first_dispatch)
    _approx(doc, f"I arrived {wording.minutes(run.arrived - dispatch)} after the call came out.",
            "arrival_after_dispatch_s", round(run.arrived - dispatch, 3), [f"arrive-{unit.uid}", story.first_dispatch])
    after = [x for x in story.bursts if x.t > run.arrived]
    if after:
        _contradiction(doc, "When I got there the shooting had already stopped.", "shots_after_arrival", 0,
                       sum(x.shots for x in after), [x.eid for x in after])
    sro = w.people[w.units_of(w.sheriff, "sro")[0].crew[0]]
    _mention(doc, f"Deputy {sro.last} was at the east side of {w.target.name}.", sro.pid, f"Deputy {sro.last}")
    hold = story.at("radio-hold-order")
    _approx(doc, f"{wording.minutes(hold - run.arrived).capitalize()} after I arrived,", "hold_order_after_arrival_s",
            round(hold - run.arrived, 3), ["radio-hold-order"])
    _mention(doc, f"Sgt. {sgt.last} told us to hold the perimeter.", sgt.pid, f"Sgt. {sgt.last}")
    return doc


def sergeant_statement(story: Story, rng: random.Random, n: int) -> TextDoc:
    w = story.world
    sgt = w.people[w.lookalikes[1]]
    unit = next(u for u in w.units if u.crew[0] == sgt.pid)
    doc = _doc(story, rng, n, unit.uid, "Sergeant's statement")
    run = story.runs[unit.uid]
    _approx(doc, wording.sentence(f"I arrived at {wording.clock(run.arrived, w.tz)}"), "arrival_time",
            iso_true(run.arrived), [f"arrive-{unit.uid}"])
    _contradiction(doc, "I never ordered anyone to hold back; I told units to go in.", "hold_order", False, True,
                   ["radio-hold-order"])
    deputy = w.people[w.lookalikes[0]]
    _mention(doc, f"Deputy {deputy.first} {deputy.last} was already there with the resource officer.", deputy.pid,
             f"Deputy {deputy.first} {deputy.last}")
    return doc


def city_statement(story: Story, rng: random.Random, n: int) -> TextDoc:
    w = story.world
    entry = story.events[story.entries[0]]
    unit = w.unit(entry.unit)
    run = story.runs[unit.uid]
    doc = _doc(story, rng, n, unit.uid, "Officer's narrative")
    _approx(doc, wording.sentence(f"We got to the school {wording.clock(run.arrived, w.tz)}"), "arrival_time",
            iso_true(run.arrived), [f"arrive-{unit.uid}"])
    waited = entry.t - run.arrived
    if waited > 120:
        _contradiction(doc, "We went in within a minute of getting there.", "entry_after_arrival_s", [0, 60],
                       round(waited, 3), [f"arrive-{unit.uid}", entry.eid])
    else:
        _approx(doc, f"We went in {wording.minutes(waited)} after getting there.", "entry_after_arrival_s",
                round(waited, 3), [f"arrive-{unit.uid}", entry.eid])
    sro = w.people[w.units_of(w.sheriff, "sro")[0].crew[0]]
    spelled = misspell(sro.last, rng)
    _mention(doc, f"A deputy I later learned was {spelled} was behind a pillar outside.", sro.pid, spelled)
    doc.say("Nobody on our channel could tell us which building.")
    return doc


def captain_statement(story: Story, rng: random.Random, n: int) -> TextDoc:
    w = story.world
    cap = w.units_of(w.sheriff, "captain")[0]
    doc = _doc(story, rng, n, cap.uid, "Incident commander's statement")
    v = story.views[0]
    _contradiction(doc, f"The live camera feed showed the suspect still inside at {wording.exact_clock(v.t, w.tz)}, "
                        "so we treated it as an active shooter.", "camera_feed_was_live", True,
                   {"live": False, "lag_s": story.camera_lag, "footage_of": iso_true(v.footage),
                    "threat_ended": iso_true(story.events[story.threat_ended].t)}, [v.eid, story.threat_ended])
    _approx(doc, wording.sentence(f"The channels were patched {wording.clock(story.patched, w.tz, 10)}"), "patch_time",
            iso_true(story.patched), ["channels-patched"])
    return doc


def all_statements(story: Story, rng: random.Random) -> list[TextDoc]:
    makers = [sro_statement, deputy_statement, sergeant_statement, city_statement, captain_statement]
    return [make(story, rng, i + 1) for i, make in enumerate(makers)]
