"""The alert engine over hand-made incidents: each bundled rule fires once when it has held
long enough, is updated while it holds, and clears with the reason it stopped."""

from __future__ import annotations

from tests.live.helpers import T0, engine, ev, run

HOLD = ["armed_unit_holding_outside"]


def shots(start: float, end: float, every: float = 20.0):
    t, out = start, []
    while t <= end:
        out.append(ev("shots_detected", t, agency="SCHOOL", attrs={"device": "GD-1"}))
        t += every
    return out


def test_armed_unit_outside_while_shots_fires_once_at_its_threshold_and_clears_when_shots_stop():
    e = engine(HOLD)
    changes = run(e, [ev("unit_arrived", 10, "12A4")] + shots(0, 200), until_s=400)
    fired = [c for c in changes if c.action == "fire"]
    assert len(fired) == 1 and fired[0].alert.subject == "12A4"
    assert fired[0].at == T0 + 70_000  # 60 s after it arrived (shots began before)
    assert any(c.action == "update" for c in changes)  # later shots join its evidence
    cleared = [c for c in changes if c.action == "clear"]
    assert len(cleared) == 1 and cleared[0].alert.clear_reason == "shots_stopped"
    assert cleared[0].at == T0 + 320_000  # the last shot (200 s) + 120 s without another
    finding = fired[0].alert.finding()
    assert finding.kind == "alert" and finding.evidence and finding.payload["held_since"] == T0 + 10_000


def test_a_unit_that_enters_first_or_comes_after_the_last_shot_raises_nothing():
    e = engine(HOLD)
    events = [ev("unit_arrived", 10, "12A4"), ev("entry", 40, "12A4"),
              ev("unit_arrived", 230, "12A9")] + shots(0, 200)
    assert [c for c in run(e, events, until_s=600) if c.action == "fire"] == []


def test_entering_clears_the_alert_with_its_reason():
    e = engine(HOLD)
    changes = run(e, [ev("unit_arrived", 0, "12A4"), ev("entry", 100, "12A4")] + shots(0, 300), until_s=300)
    clear = [c for c in changes if c.action == "clear"]
    assert clear and clear[0].alert.clear_reason == "unit_entered"


def test_fire_and_ems_apparatus_and_units_on_other_calls_do_not_count():
    e = engine(HOLD)
    events = [ev("unit_arrived", 0, "E31", agency="NCFR"),
              ev("unit_dispatched", -500, "12A7", call="OTHER-1", source_kind="cad"),
              ev("unit_arrived", -400, "12A7", call="OTHER-1", source_kind="cad"),
              ev("unit_dispatched", 5, "12A8", call="INC-9", source_kind="cad"),
              ev("unit_dispatched", 6, "12A5", call="INC-9", source_kind="cad")] + shots(0, 200)
    assert [c.alert.subject for c in run(e, events, until_s=300) if c.action == "fire"] == []


def test_a_unit_hearing_shots_on_the_radio_is_on_scene():
    e = engine(HOLD)
    said = ev("radio_transmission", 5, "David-4", text="David-4, possible shots fired, Building 2")
    assert "unit_hears_shots" in said.whats and "shots" in said.whats
    fired = [c for c in run(e, [said] + shots(0, 200), until_s=300) if c.action == "fire"]
    assert fired and fired[0].at == T0 + 60_000  # there at the shot it reports (0 s), not at its words (5 s)


def test_a_unit_reporting_shots_no_sensor_recorded_is_on_scene_from_its_report():
    e = engine(HOLD)
    said = ev("radio_transmission", 75, "David-4", text="David-4, possible shots fired, Building 2")
    # the shot before it (40 s) is more than 20 s earlier: not the one it reports
    fired = [c for c in run(e, [said] + shots(40, 240, every=100), until_s=400) if c.action == "fire"]
    assert fired and fired[0].at == T0 + 135_000  # from its report (75 s, itself a report of shots) + 60 s


def test_a_unit_only_at_staging_is_not_on_scene_outside():
    """Staging (a CAD's "staged" status, a radio "staged at the lot") is kept apart: an armed
    unit there while shots continue raises nothing, even when it reports hearing them."""
    e = engine(HOLD)
    staged = [ev("staging", 5, "12A4"), ev("radio_transmission", 8, "12A9", text="12A9 staged at the north lot"),
              ev("radio_transmission", 30, "12A9", text="12A9, we are hearing gunfire")]
    assert [x.whats[0] for x in staged[:2]] == ["unit_staging", "unit_staging"]
    assert {"unit_hears_shots", "shots"} <= set(staged[2].whats)
    changes = run(e, staged + shots(0, 300), until_s=500)
    assert [c for c in changes if c.action == "fire"] == []
    assert {u.name: u.status for u in e.incident.units.values()} == {"12A4": "staging", "12A9": "staging"}
    moved_up = run(e, [ev("unit_arrived", 320, "12A4")] + shots(320, 450), until_s=700)
    fired = [c for c in moved_up if c.action == "fire"]
    assert [c.alert.subject for c in fired] == ["12A4"] and fired[0].alert.held_since == T0 + 320_000


def test_agencies_at_staging_only_are_not_on_scene():
    e = engine(["agencies_without_shared_channel"])
    events = [ev("unit_arrived", 0, "12A4", agency="NCSO"), ev("staging", 10, "E21", agency="NCFD"),
              ev("radio_transmission", 11, "12A4", agency="NCSO", channel="NCSO-1", text="12A4 copy"),
              ev("radio_transmission", 12, "E21", agency="NCFD", channel="FIRE-2", text="E21 copy")]
    assert [c for c in run(e, events, until_s=300) if c.action == "fire"] == []


def test_a_transferred_call_waiting_and_then_answered():
    e = engine(["call_waiting_after_transfer"])
    events = [ev("call_received", 0, attrs={"ani": "5550101"}),
              ev("call_transferred", 20, attrs={"ani": "5550101"}),
              ev("call_received", 95, attrs={"ani": "5550101", "transfer_from": "PSAP-1"})]
    changes = run(e, events, until_s=200)
    assert [(c.action, c.at - T0) for c in changes] == [("fire", 50_000), ("clear", 95_000)]
    assert changes[1].alert.clear_reason == "answered_after_transfer"


def test_a_camera_view_called_live_that_lags():
    e = engine(["camera_view_behind"])
    changes = run(e, [ev("camera_observation", 0, attrs={"lag_s": 5.0, "camera": "C1"}),
                      ev("camera_observation", 30, attrs={"lag_s": 600.0, "camera": "C1"})])
    assert [c.action for c in changes] == ["fire"] and changes[0].alert.values["lag_s"] == 600.0


def test_agencies_on_scene_without_a_shared_channel_until_patched():
    e = engine(["agencies_without_shared_channel"])
    events = [ev("unit_arrived", 0, "12A4", agency="NCSO"), ev("unit_arrived", 10, "3-11", agency="OPD"),
              ev("radio_transmission", 11, "12A4", agency="NCSO", channel="NCSO-1", text="12A4 copy"),
              ev("radio_transmission", 12, "3-11", agency="OPD", channel="OPD-MAIN", text="3-11 copy"),
              ev("radio_transmission", 200, None, agency="OPD", channel="OPD-MAIN",
                 text="Be advised, NCSO-1 now patched with OPD-MAIN")]
    changes = run(e, events, until_s=300)
    assert [c.action for c in changes] == ["fire", "clear"]
    assert changes[0].alert.subject == "NCSO / OPD" and changes[1].alert.clear_reason == "channel_shared"


def test_a_report_that_the_threat_ended_contradicted_by_later_shots():
    e = engine(["threat_ended_contradicted"])
    events = [ev("radio_transmission", 50, "3-11", text="3-11, suspect in custody")] + shots(0, 120)
    fired = [c for c in run(e, events) if c.action == "fire"]
    assert len(fired) == 1 and fired[0].at == T0 + 60_000


def test_a_unit_dispatched_and_not_on_scene():
    e = engine(["unit_not_on_scene"])
    changes = run(e, [ev("unit_dispatched", 0, "12A4"), ev("unit_enroute", 30, "12A4"),
                      ev("unit_arrived", 900, "12A4")])
    assert [(c.action, c.at - T0) for c in changes] == [("fire", 600_000), ("clear", 900_000)]


def test_who_saw_an_alert_when_it_fired_stays_through_its_updates():
    e = engine(HOLD)
    fired = None
    for c in run(e, [ev("unit_arrived", 10, "12A4")] + shots(0, 60), until_s=70):
        if c.action == "fire":
            fired = c.alert
            fired.values["seen_by"] = ["NCSO"]  # as the replay and the live node record it at firing
    assert fired is not None
    updates = [c for c in run(e, shots(80, 200), until_s=200) if c.action == "update"]
    assert updates and updates[-1].alert.values["seen_by"] == ["NCSO"] and updates[-1].alert.values["held_s"] > 60
