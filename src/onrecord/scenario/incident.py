"""The attack itself: when the attacker came, where and when the shots were fired, the
fire alarm, and how it ended (left with the fleeing students, or stopped inside).
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from onrecord.scenario import invented_names
from onrecord.scenario.story import Burst, Story
from onrecord.scenario.world import Person, World, street_address


def school_afternoon(world: World, rng: random.Random) -> float:
    """A weekday afternoon in the spring term, as UTC epoch seconds."""
    day = date(rng.choice([2023, 2024, 2025]), 1, 15) + timedelta(days=rng.randint(0, 120))
    while day.weekday() >= 5:
        day += timedelta(days=1)
    local = datetime(day.year, day.month, day.day, 14, rng.randint(5, 35), rng.randint(0, 59),
                     rng.randint(0, 999) * 1000, tzinfo=ZoneInfo(world.tz))
    return local.timestamp()


def make_attacker(world: World, rng: random.Random, t0: float) -> Person:
    first, middle, last, _ = invented_names.pick_person_name(rng, "M")
    year = datetime.fromtimestamp(t0).year - 19
    born = date(year, rng.randint(1, 12), rng.randint(1, 28))
    phone = f"({rng.randint(200, 989)}) 555-{rng.randint(1000, 9999)}"
    return Person("P900", first, middle, last, "M", born, address=street_address(rng),
                  phone=phone)


def plan_attack(story: Story, rng: random.Random) -> None:
    w, t0 = story.world, story.t0
    door_in, door_out = "east stair door", rng.choice(["west stair door", "north door"])
    story.add("attacker-on-campus", "attacker_arrived", t0 - rng.uniform(100, 200),
              people=["P900"], place=f"{w.school} main gate")
    story.add("attacker-entered", "attacker_entered", t0 - rng.uniform(30, 80),
              people=["P900"], place=f"{w.target.name} {door_in}")
    _bursts(story, rng)
    story.add("fire-alarm", "fire_alarm", t0 + rng.uniform(40, 90), place=w.target.name,
              note="smoke from gunfire set off the fire alarm")
    if rng.random() < 0.6:
        story.fate = "left"
        left = story.last_shot + rng.uniform(60, 160)
        story.add("attacker-left", "attacker_left", left, people=["P900"],
                  place=f"{w.target.name} {door_out}", note="left among fleeing students")
        story.threat_ended = "attacker-left"
    else:
        story.fate = "stopped"  # the stop itself is timed once the entry teams exist


MIN_PAUSE_S = 3.0


def _bursts(story: Story, rng: random.Random) -> None:
    """Bursts spread over five to seven minutes, moving up through the floors."""
    floors = story.world.target.floors
    n = rng.randint(6, 10)
    span = rng.uniform(280, 400)
    starts = [0.0] + sorted(rng.uniform(8, span - 8) for _ in range(n - 2)) + [span]
    free = 0.0
    for k, start in enumerate(starts):
        # one shooter: a burst begins only after the last one ended and a pause to move or reload
        start = max(start, free)
        t = story.t0 + start
        floor = 1 + min(floors - 1, k * floors // n)
        length = rng.uniform(2, 7)
        free = start + length + MIN_PAUSE_S
        shots = rng.randint(3, 16)
        eid = f"shots-{k + 1:02d}"
        story.bursts.append(Burst(eid, round(t, 3), round(t + length, 3), floor, shots))
        story.add(eid, "shots_fired", t, people=["P900"],
                  place=f"{story.world.target.name} floor {floor}",
                  note=f"{shots} shots over {length:.0f} s")
