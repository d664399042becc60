"""What a number measures, for the classes issue 15 names (invented sentences)."""

from onrecord.claims.extract import analyse, extract_claims


def _read(text):
    return [(c.text, c.measure, c.lo, c.hi) for c in extract_claims(text, "m.txt")]


def test_a_years_long_career_is_no_arrival():
    got = _read("Deputy Ilse Marrow, a law enforcement officer for 32 years, said she arrived within seven minutes.")
    assert got == [("32 years", "duration_of_service", 32.0, 32.0),
                   ("within seven minutes", "duration_to_arrival", 0.0, 7.0)]


def test_what_officers_believed_is_not_what_happened_to_them():
    # where they stood is a place of action (round 10); no count of the dead comes from "believing"
    assert _read("Nearly 20 officers stood in a hallway, believing victims inside were already dead.") == [
        ("in a hallway", "place_of_action", None, None), ("Nearly 20 officers", "count_officers_waiting", 18.0, 20.0)]


def test_headline_durations():
    assert ("45 Minutes", "duration_waiting", 45.0, 45.0) in _read("For 45 Minutes, Police Waited at the "
                                                                   "Penbury School")
    assert _read("For 79 minutes, police failed to act.") == [("79 minutes", "duration_waiting", 79.0, 79.0)]
    assert _read("A 48-minute standstill followed.") == [("48-minute", "duration_elapsed", 48.0, 48.0)]


def test_a_trailing_clause_with_its_day_speaks_for_the_sentence():
    text = "Four officers arrived at 11:35 a.m., authorities said on Friday (May 27)."
    [c] = [c for c in extract_claims(text, "m.txt") if c.measure == "time_of_action"]
    assert c.speaker == "group:authorities"


def test_a_delay_against_an_offset_of_the_same_moment():
    a = analyse({"a.txt": "Penbury County Sheriff's deputies arrived within seven minutes at Thistlewood "
                          "School, Sheriff Ilse Marrow said.",
                 "b.txt": "At Thistlewood School, Penbury County Sheriff's deputies arrived about 10 minutes "
                          "after the shooting began."})
    assert any("two offsets of the arrival" in c.reason for c in a.conflicts)


def test_a_timeline_in_the_present_tense():
    # timeline entries are written in the present: the tense must not decide the measure
    got = _read("10:04 — Several Halden officers respond to the call. Three deputies enter the library.")
    assert ("Several Halden officers", "count_officers_sent", 3.0, 9.0) in got
    assert ("Three deputies", "count_officers_entered", 3.0, 3.0) in got
    assert ("six minutes", "duration_outside", 6.0, 6.0) in _read("Sgt. Oda Velm waits at the door for six minutes.")


def test_more_ways_to_tell_a_wait_an_arrival_and_a_wound():
    assert _read("Officers spent 74 minutes in the hallway.") == [("74 minutes", "duration_waiting", 74.0, 74.0)]
    assert _read("Officers were at the scene within 12 minutes of the first call.") == [
        ("within 12 minutes", "duration_to_arrival", 0.0, 12.0)]
    assert _read("Two officers were grazed by gunfire.") == [("Two officers", "count_officers_injured", 2.0, 2.0)]
    assert _read("Nearly 400 officers converged on the school.") == [
        ("Nearly 400 officers", "count_officers_on_scene", 360.0, 400.0)]


def test_time_spent_inside_is_no_delay_until_going_in():
    assert not [c for c in _read("The gunman was inside the school for about 80 minutes.")
                if c[1] == "duration_to_entry"]


def test_a_delay_told_with_its_start_after_it():
    text = "Halden officers were on hand within 90 seconds after the first alarms from the mall."
    assert _read(text) == [("within 90 seconds", "duration_to_arrival", 0.0, 1.5)]
    text = "“Police responded in less than two minutes after this began,” Mayor Ada Brisk said."
    assert [(m, lo, hi) for _, m, lo, hi in _read(text)] == [("duration_to_arrival", 0.0, 2.0)]


def test_went_in_is_a_particle_not_a_delay():
    [c] = extract_claims("Officers went in one minute and 39 seconds after the first shot.", "m.txt")
    assert (c.measure, c.lo, c.unit, c.time_ref["anchor"]) == ("time_of_action", 1.65, "minute", "the first shot")


def test_people_taken_to_hospitals_and_patients():
    assert _read("Police spirited scores of wounded to nearby hospitals.") == [
        ("scores of wounded", "count_transported", 40.0, None)]
    assert ("15 patients", "count_transported", 15.0, 15.0) in _read(
        "The review lists seven trips to two hospitals for 15 patients in police cars.")


def test_the_number_of_officers_raised_to_a_count():
    got = _read("That raises the number of Marlow County deputies on the scene who did not enter the school to four.")
    assert ("four", "count_officers_outside", 4.0, 4.0) in got


def test_a_team_counted_by_its_members_and_another_few():
    assert _read("A four-man team entered the classroom.") == [("A four-man team", "count_officers_entered", 4.0, 4.0)]
    [c] = [c for c in extract_claims("They found another three Marlow County deputies cowering behind their vehicles.",
                                     "m.txt") if c.measure.startswith("count_")]
    assert (c.measure, c.lo, c.qualifier) == ("count_officers_outside", 3.0, "more")


def test_a_standoff_is_not_the_time_the_gunman_fired():
    [fired] = extract_claims("The gunman kept opening fire sporadically for as long as 90 minutes.", "m.txt")
    [siege] = extract_claims("It ended a three-hour hostage situation.", "m.txt")
    assert (fired.measure, fired.qualifier, fired.hi) == ("duration_of_incident", None, 90.0)
    assert (siege.measure, siege.qualifier, siege.lo) == ("duration_of_incident", "standoff", 180.0)


def test_officers_hurt_and_there_told_more_ways():
    assert _read("Two officers suffered grazing wounds.") == [("Two officers", "count_officers_injured", 2.0, 2.0)]
    assert _read("More than 90 state police officers were there.") == [
        ("More than 90 state police officers", "count_officers_on_scene", 90.0, None)]


def test_people_taken_by_one_means_are_a_part():
    [c] = [c for c in extract_claims("The report lists trips to two hospitals for 15 patients in five different "
                                     "police cars.", "m.txt") if c.measure == "count_transported"]
    assert (c.lo, c.qualifier) == (15.0, "in five different police cars")


def test_a_count_before_an_aside_between_dashes():
    got = _read("21 people — 19 students and two teachers — were killed.")
    assert ("21 people", "count_deaths", 21.0, 21.0) in got


def test_calls_about_a_person_are_calls_for_service():
    assert _read("Deputies had received 45 calls about the family.") == [
        ("45 calls", "count_calls_for_service", 45.0, 45.0)]
    assert _read("Deputies had received 45 calls about Nikolai Vesk over the years.")[0][1] == "count_calls_for_service"


def _measures(text):
    return [(c.text, c.measure, c.lo, c.hi) for c in extract_claims(text, "m.txt") if c.unit != "place"]


def test_being_somewhere_within_a_time_is_getting_there():
    assert _measures("Officers were there within three minutes.") == [
        ("within three minutes", "duration_to_arrival", 0.0, 3.0)]
    assert _measures("Deputies were at the door in four minutes.") == [
        ("four minutes", "duration_to_arrival", 4.0, 4.0)]
    assert _measures("Deputies were there for 40 minutes.")[0][1] == "duration_waiting"


def test_it_was_a_time_before_an_event_is_a_delay_until_it():
    assert _measures("It was 72 minutes before officers entered the suite.") == [
        ("72 minutes", "duration_to_entry", 72.0, 72.0)]
    assert _measures("It was nearly four hours before SWAT teams reached the library.")[0][1] == "duration_to_arrival"


def test_a_difference_between_two_spans_is_no_span():
    assert _measures("Officers in Penbury entered six minutes faster than officers in Halden.") == []


def test_a_death_toll_brought_to_a_number_and_shots_told_as_times():
    got = _measures("A wounded man has died, bringing the death toll from the parade shooting to seven.")
    assert got == [("seven", "count_deaths", 7.0, 7.0)]
    assert _measures("The officer shot the gunman four times.") == [("four times", "count_shots", 4.0, 4.0)]


def test_emergency_calls_are_911_calls_and_a_schools_roll_is_no_toll():
    assert _measures("Police released recordings of three emergency calls.")[0][1] == "count_calls_911"
    assert _measures("Six people were killed at Penbury School, a private school educating about 200 "
                     "students.") == [("Six people", "count_deaths", 6.0, 6.0)]


def test_the_responses_shots_are_not_the_gunmans():
    text = {"a.txt": "The gunman fired more than 1,000 rounds.", "b.txt": "Police fired 200 rounds at the room."}
    got = analyse(text, one_incident=True)
    assert [c.qualifier for c in got.claims] == [None, "fired by police"]
    assert got.conflicts == []


def test_going_into_the_building_and_into_the_room_are_two_delays():
    text = {"a.txt": "Officers entered the building within three minutes.",
            "b.txt": "It took officers 77 minutes to enter the classroom."}
    assert analyse(text, one_incident=True).conflicts == []


def test_having_officers_on_the_scene_within_a_time_and_lives_lost():
    assert _measures("We had deputies on the scene in four minutes.") == [
        ("four minutes", "duration_to_arrival", 4.0, 4.0)]
    assert _measures("We lost two people.") == [("two people", "count_deaths", 2.0, 2.0)]


def test_officers_in_the_hallway_and_at_the_school():
    assert ("At least 19 officers", "count_officers_waiting", 19.0, None) in _measures(
        "At least 19 officers were in the hallway at 12:03 p.m.")
    assert _measures("More than 90 state troopers were at the school.") == [
        ("More than 90 state troopers", "count_officers_on_scene", 90.0, None)]


def test_a_lockdown_or_a_manhunt_is_another_span_than_the_shooting():
    text = {"a.txt": "The shooting lasted about four minutes.",
            "b.txt": "A lockdown that lasted nearly 48 hours was lifted on Friday. The manhunt lasted 40 hours."}
    got = analyse(text, one_incident=True)
    assert sorted(c.qualifier or "" for c in got.claims) == ["", "lockdown", "manhunt"]
    assert got.conflicts == []


def test_time_that_passed_before_an_event_is_the_delay_until_it():
    assert _measures("Seventy-nine minutes passed before officers entered the classroom.") == [
        ("Seventy-nine minutes", "duration_to_entry", 79.0, 79.0)]
    assert _measures("About 14 minutes passed.")[0][1] == "duration_elapsed"
