"""What moment a record is of: a medic's patient contact and the radio report of it."""

from __future__ import annotations

from onrecord.reconstruct.moments import Moment, moment_of


def test_a_medic_taking_a_patient_over_is_its_own_moment_not_a_transport():
    said = "Rescue 7 receiving one patient at the east lot"
    assert moment_of("radio_transmission", said, 42, {}) == Moment("patient_contact", 42, 1)
    assert moment_of("radio_transmission", "Rescue 7 transporting one red to Mercy", 42, {}) == \
        Moment("patient_transported", 42, 1)
    # the patient care record is written by the crew that did it: as it happens
    assert moment_of("patient_contact", None, 42, {}) == Moment("patient_contact", 42, 0)
    assert moment_of("patient_contact", None, None, {}) is None  # whose patient, unknown


def test_an_entry_with_no_unit_is_the_place_moment_seen_or_typed():
    # a camera's "officers enter east stairwell": seen as it happens, shared with the door
    assert moment_of("entry", "officers enter east stairwell", None, {}, seen=True) == Moment("door", None, 0)
    # a CAD "entry made" with no unit: typed from a report, later than the door
    assert moment_of("entry", "entry made", None, {}) == Moment("door", None, 2)
    assert moment_of("entry", None, 42, {}) == Moment("entry", 42, 2)
    assert moment_of("entry", None, 42, {}, seen=True) == Moment("entry", 42, 0)


def test_a_callers_number_is_matched_on_its_digits_however_each_log_spells_it():
    from onrecord.reconstruct.moments import caller_number, moment_of

    spelt = ["(511) 300-2197", "511.300.2197", "511-300-2197", "+1 511 300 2197", "5113002197"]
    assert {caller_number(s) for s in spelt} == {"5113002197"}
    a = moment_of("call_answered", None, None, {"ani": "511.300.2197"})
    b = moment_of("call_answered", None, None, {"ani": "511-300-2197"})
    assert a == b and a.who == "5113002197"


def test_an_incident_opened_is_a_moment_of_its_number_stamped_as_it_happens():
    assert moment_of("incident_created", None, None, {}, call="I2300017") == Moment("incident_created", "I2300017", 0)
    assert moment_of("incident_created", None, None, {}) is None  # no number: nothing to share it by


def test_a_dispatch_or_a_unit_clearing_said_on_the_radio_ties_no_clock():
    # voiced again and again for one CAD assignment: a transmission, not the dispatch moment
    said = moment_of("radio_transmission", "Engine 255, respond to Hollin Community College", 12, {})
    assert said.what == "transmission"
    assert moment_of("radio_transmission", "2-90 back in service", 12, {}).what == "transmission"
    assert moment_of("radio_transmission", "2-90 on scene", 12, {}) == Moment("unit_arrived", 12, 1)


def test_a_door_closing_or_a_panel_trouble_is_no_opening_and_no_moment():
    assert moment_of("door_event", "FORCED OPEN", None, {"device": "D7"}) == Moment("door", None, 0)
    assert moment_of("device_status", "DOOR CLOSED", None, {"device": "D7"}) is None
    assert moment_of("device_status", "TROUBLE", None, {}) is None
