"""A dispatch system's own position record of a unit on its call (the AVL fix it marked the
car on scene by) dates the unit's arrival, once a record puts it on scene: the radio's "on
scene" and the typed arrival come seconds after the car was there (fictional units)."""

from __future__ import annotations

from tests.live.helpers import T0, engine, ev, run

HOLD = ["armed_unit_holding_outside"]
CAD, RADIO = 2, 3


def shots(start: float, end: float, every: float = 20.0):
    return [ev("shots_detected", float(t), agency="SCHOOL") for t in range(int(start), int(end) + 1, int(every))]


def dispatched(unit: str = "14C3", call: str = "INC-7"):
    return ev("unit_dispatched", 0, unit, call=call, source_kind="cad", source_id=CAD)


def fix(s: float, unit: str = "14C3", call: str = "INC-7", source_kind: str = "cad"):
    return ev("unit_position", s, unit, call=call, source_kind=source_kind, source_id=CAD)


def on_scene(s: float, unit: str = "14C3"):
    return ev("radio_transmission", s, unit, text=f"{unit} on scene, north lot", source_kind="radio", source_id=RADIO)


def fired(changes):
    return [(c.alert.subject, c.at - T0, c.alert.held_since - T0) for c in changes if c.action == "fire"]


def test_the_dispatch_systems_geofence_fix_dates_the_arrival_the_radio_confirms():
    assert "unit_arrived" in on_scene(49).whats and fix(40).whats == ("unit_position",)
    e = engine(HOLD)
    assert fired(run(e, [dispatched(), fix(40), on_scene(49)] + shots(0, 300), until_s=400)) == \
        [("14C3", 100_000, 40_000)]


def test_a_fix_heard_of_after_the_radio_still_dates_the_arrival():
    e = engine(HOLD)
    changes = []
    for x in [dispatched()] + shots(0, 40):
        changes += e.apply(x)
    changes += e.apply(on_scene(49))
    changes += e.apply(fix(40), now=T0 + 52_000)  # the CAD's record comes in late, with its own time
    changes += run(e, shots(60, 300), until_s=400)
    assert fired(changes) == [("14C3", 100_000, 40_000)]


def test_a_fix_alone_an_avl_fix_or_another_calls_fix_dates_nothing():
    e = engine(HOLD)
    alone = [dispatched("14C4"), fix(40, "14C4")]  # no record puts it on scene: not there yet
    avl = [dispatched("14C5"), fix(40, "14C5", source_kind="avl"), on_scene(49, "14C5")]
    other = [dispatched("14C6"), fix(40, "14C6", call="OTHER-2"), on_scene(49, "14C6")]
    got = fired(run(e, alone + avl + other + shots(0, 300), until_s=400))
    assert sorted(got) == [("14C5", 109_000, 49_000), ("14C6", 109_000, 49_000)]


def test_a_fix_from_before_staging_or_a_unit_that_went_in_keeps_the_arrival_it_has():
    e = engine(HOLD)
    staged = [dispatched("14C7"), fix(30, "14C7"), ev("staging", 35, "14C7"), on_scene(49, "14C7")]
    went_in = [dispatched("14C8"), on_scene(10, "14C8"), ev("entry", 20, "14C8"), ev("exit", 100, "14C8"),
               fix(5, "14C8")]
    got = fired(run(e, staged + went_in + shots(0, 300), until_s=400))
    assert sorted(got) == [("14C7", 109_000, 49_000), ("14C8", 160_000, 100_000)]
