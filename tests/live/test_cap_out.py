"""Each alert goes out as CAP 1.2, valid against the OASIS schema: fired, updated, cleared."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import xmlschema

from tests.conftest import shared_path
from tests.live.helpers import engine, ev, run


def test_alert_update_and_cancel_are_valid_cap(tmp_path):
    from onrecord.live.cap_out import cap_alert

    schema = xmlschema.XMLSchema(str(shared_path("data", "interchange", "cap12.xsd")))
    e = engine(["armed_unit_holding_outside"])
    shots = [ev("shots_detected", t, agency="SCHOOL") for t in range(0, 200, 20)]
    changes = run(e, [ev("unit_arrived", 10, "12A4 <b>&")] + shots, until_s=400)
    assert {c.action for c in changes} == {"fire", "update", "clear"}
    for c in changes:
        xml = cap_alert(c.alert.finding(), c.action, c.at, "case-uid", ZoneInfo("America/New_York"))
        schema.validate(xml.decode())
        assert b"<b>" not in xml  # a unit written with markup stays text
    assert b"<msgType>Cancel</msgType>" in cap_alert(changes[-1].alert.finding(), "clear", changes[-1].at, "u")
