"""The 911 calls. Mobile phones route to the city's answering point, which must ask where
the caller is and then transfer the call to the county; landlines ring at the county.
The transfer costs the caller time: that delay is one of the measured figures.
"""

from __future__ import annotations

import random

from onrecord.scenario.story import Call, Story

REPORTS = [
    "shots fired in {b}, students hiding in classroom",
    "hearing gunshots from {b}, second floor",
    "someone is shooting in {b}",
    "teacher reports shots and fire alarm going off in {b}",
    "parent: daughter texted shooter in {b}",
    "student hiding in closet, hears shots upstairs in {b}",
    "caller outside {b} hears loud bangs",
    "shooter in hallway of {b}, people down",
]


def _placements(story: Story, rng: random.Random) -> list[float]:
    n = rng.randint(10, 16)
    first = story.t0 + rng.uniform(12, 40)
    later = sorted(story.t0 + rng.uniform(25, 660) for _ in range(n - 1))
    return [first] + later


def _kinds(n: int, rng: random.Random) -> list[bool]:
    mobile = [rng.random() < 0.7 for _ in range(n)]
    mobile[0] = True  # the first caller is a student's phone: the transfer delay matters
    mobile[rng.randrange(1, 4)] = False
    mobile[rng.randrange(4, n)] = False
    return mobile


def plan_calls(story: Story, rng: random.Random) -> None:
    b = story.world.target.name
    placed = _placements(story, rng)
    for i, (t, mobile) in enumerate(zip(placed, _kinds(len(placed), rng))):
        call = _mobile(i, t, rng) if mobile else _landline(i, t, rng)
        call.report = rng.choice(REPORTS).format(b=b)
        call.caller_place = rng.choice([b, b, f"{b} floor {rng.randint(1, 3)}", "parking lot"])
        story.calls.append(call)
        _events(story, call)
    _other_calls(story, rng)


OTHER = ["traffic crash, no injuries", "loud music complaint", "lift assist", "burglar alarm",
         "lost dog", "suspicious vehicle", "chest pain", "neighbor dispute"]


def _other_calls(story: Story, rng: random.Random) -> None:
    """Ordinary calls the same afternoon: transfers that have nothing to do with the school."""
    for k in range(rng.randint(3, 6)):
        t = story.t0 - rng.uniform(120, 3600)
        make = _mobile if k % 2 == 0 else _landline
        call = make(0, t, rng)
        call.cid, call.related = f"other-call-{k + 1:02d}", False
        call.report, call.caller_place = rng.choice(OTHER), "elsewhere in the county"
        story.calls.append(call)
        _events(story, call)
    story.calls.sort(key=lambda c: c.placed)


def _phone(rng: random.Random) -> str:
    return f"{rng.randint(200, 989)}555{rng.randint(1000, 9999)}"


def _mobile(i: int, placed: float, rng: random.Random) -> Call:
    presented = placed + rng.uniform(1, 4)
    answered = presented + rng.uniform(2, 12)
    transferred = answered + rng.uniform(15, 75)
    county_presented = transferred + rng.uniform(1, 3)
    county_answered = county_presented + rng.uniform(3, 25)
    return Call(f"call-{i + 1:02d}", True, placed, presented, answered, transferred,
                county_presented, county_answered, county_answered + rng.uniform(60, 400),
                _phone(rng), "", "")


def _landline(i: int, placed: float, rng: random.Random) -> Call:
    presented = placed + rng.uniform(1, 4)
    answered = presented + rng.uniform(3, 20)
    return Call(f"call-{i + 1:02d}", False, placed, None, None, None, presented, answered,
                answered + rng.uniform(60, 400), _phone(rng), "", "")


def _events(story: Story, c: Call) -> None:
    if c.mobile:
        story.add(f"{c.cid}-presented-city", "call_presented", c.city_presented,
                  note=f"mobile call rings at city answering point: {c.report}")
        story.add(f"{c.cid}-answered-city", "call_answered", c.city_answered)
        # The city's transfer and the county's ring are one happening, seen from two ends.
        story.add(f"{c.cid}-transferred", "call_transferred", c.transferred,
                  note="city transfers the call to the county")
    else:
        story.add(f"{c.cid}-presented-county", "call_presented", c.county_presented,
                  note=f"landline call rings at county: {c.report}")
    story.add(f"{c.cid}-answered-county", "call_answered", c.county_answered)
