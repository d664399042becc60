"""Claims from fictional sentences: measure, subject, speaker, value, hedge, span."""

import pytest

from onrecord.claims.extract import analyse, extract_claims


def _one(text, measure, doc="f.txt"):
    found = [c for c in extract_claims(text, doc) if c.measure == measure]
    assert len(found) == 1, [(c.measure, c.text) for c in extract_claims(text, doc)]
    c = found[0]
    assert text[c.start:c.end] == c.text
    return c


def test_an_officer_statement_measures_the_stay_at_the_door():
    text = "Author: Officer Tess Marlowe\nAgency: Linden Ridge Police Department\n\n" \
           "I stayed at the east door about four minutes before I went in."
    c = _one(text, "duration_outside")
    assert (c.lo, c.hi, c.hedge, c.unit) == (3, 5, "about", "minute")
    assert c.speaker == c.subject == "person:tess-marlowe"


def test_he_means_the_person_talked_about_not_the_speaker():
    text = ("Sheriff Dana Whitlock watched the video of Deputy Rory Vance at the west stairs.\n\n"
            "\u201cI think he remained outside upwards of six minutes,\u201d Whitlock said.")
    c = _one(text, "duration_outside")
    assert (c.speaker, c.subject, c.lo, c.hi, c.hedge) == (
        "person:dana-whitlock", "person:rory-vance", 6, None, "upwards of")


@pytest.mark.parametrize("sentence,measure,lo,hi", [
    ("The Linden Ridge Police Department sent 85 officers to the school.", "count_officers_sent", 85, 85),
    ("Nearly 30 of the 85 officers went into the building.", "count_officers_entered", 27, 30),
    ("Three Marlow County Sheriff's deputies stayed outside.", "count_officers_outside", 3, 3),
    ("Only three deputies were on the campus while the gunman fired.", "count_officers_on_scene", 3, 3),
    ("Nine people were killed and 14 injured.", "count_deaths", 9, 9),
    ("Medics carried 12 victims out of the gym.", "count_victims_carried_out", 12, 12),
    ("Seven people were taken to hospitals.", "count_transported", 7, 7),
    ("Police went to the home 21 times before the attack.", "count_calls_to_home", 21, 21),
    ("The 21 times police went to the home were logged.", "count_calls_to_home", 21, 21),
    ("Dispatchers fielded 31 911 calls in the first ten minutes.", "count_calls_911", 31, 31),
    ("The shooting lasted six minutes.", "duration_of_incident", 6, 6),
    ("We went in within a minute of getting there.", "duration_to_entry", 0, 1),
    ("I have been a police officer for 22 years.", "duration_of_service", 22, 22),
])
def test_measures_from_words(sentence, measure, lo, hi):
    claims = extract_claims(sentence, "m.txt")
    found = [c for c in claims if c.measure == measure]
    assert found, [(c.measure, c.text) for c in claims]
    assert (found[0].lo, found[0].hi) == (lo, hi)


def test_partitive_of_whom_keeps_counting_the_same_people():
    claims = extract_claims("Officers carried 23 victims out, 20 of whom survived.", "p.txt")
    assert [(c.measure, c.lo) for c in claims] == [("count_victims_carried_out", 23), ("count_survivors", 20)]


def test_counts_of_officers_are_about_their_agency():
    c = _one("Marlow County Sheriff's deputies numbered four at the door, and four Marlow County "
             "Sheriff's deputies stayed outside.", "count_officers_outside")
    assert c.subject == "org:marlow-county-sheriff-s-office"


def test_age_goes_to_the_named_person():
    c = _one("The resource officer, Rory Vance, 48, was suspended.", "age")
    assert (c.subject, c.lo) == ("person:rory-vance", 48)


def test_time_of_action_with_relative_anchor():
    text = "Two days after the vigil, Chief Mara Quill sent an email to her officers."
    c = _one(text, "time_of_action")
    assert (c.qualifier, c.subject, c.lo, c.unit) == ("sent", "person:mara-quill", 2, "day")
    assert c.time_ref == {"relation": "after", "anchor": "the vigil"}


def test_clock_time_about_a_thing():
    c = _one("The first 911 call came in at 2:14 p.m.", "time_of_action")
    assert (c.subject, c.lo, c.unit) == ("thing:first-911-call", 854, "minute_of_day")


def test_numbers_that_measure_nothing_are_left_out():
    text = "In 2029 the school opened Building 7. Watch 1 minute into the clip. He won best officer in 2027."
    assert extract_claims(text, "n.txt") == []


def test_analyse_groups_across_documents_and_flags_conflicts():
    a = ("Sheriff Dana Whitlock said Deputy Rory Vance never went in.\n\n"
         "\u201cHe was outside for five minutes,\u201d Whitlock said.")
    b = "Deputy Rory Vanse waited outside for another eight agonizing minutes, the Courier found."
    analysis = analyse({"a.txt": a, "b.txt": b})
    [group] = [g for g in analysis.groups if g["measure"] == "duration_outside"]
    assert group["subject"] == "person:rory-vance" and len(group["claims"]) == 2
    [conflict] = analysis.conflicts
    assert {s["doc"] for s in conflict.sides} == {"a.txt", "b.txt"}
    assert {s["speaker"] for s in conflict.sides} == {"person:dana-whitlock", "author:b.txt"}


@pytest.mark.parametrize("sentence,verb,subject", [
    ("I arrived at around 2:20 p.m.", "arrived", "author:t.txt"),
    ("At around 2:10 p.m. I was near the gym when I heard what I thought were firecrackers.", "heard", "author:t.txt"),
    ("The live camera feed showed the suspect still inside at 2:29 p.m., so we waited.", "showed",
     "thing:live-camera-feed"),
    ("The channels were patched around 2:40 p.m.", "patched", "thing:channels"),
    ("About three minutes after I got there Deputy Ray Okafor pulled up near the north driveway.", "pulled",
     "person:ray-okafor"),
])
def test_a_time_belongs_to_the_verb_of_its_clause(sentence, verb, subject):
    [c] = [c for c in extract_claims(sentence, "t.txt") if c.measure == "time_of_action"]
    assert (c.qualifier, c.subject) == (verb, subject)


def test_places_of_action():
    text = ("Sheriff Dana Whitlock said the video shows Deputy Rory Vance taking a position outside the "
            "west side of Building 3 while shots rang out. I was near the gym at the time.")
    places = [c for c in extract_claims(text, "p.txt") if c.measure == "place_of_action"]
    assert [(c.subject, c.value_text, c.speaker) for c in places] == [
        ("person:rory-vance", "outside the west side of Building 3", "person:dana-whitlock"),
        ("author:p.txt", "near the gym", "author:p.txt")]
    assert all(text[c.start:c.end] == c.value_text for c in places)


def test_who_was_counted_keeps_children_and_teachers_apart():
    a = analyse({"a.txt": "The gunman killed 11 children and two teachers at Alder Creek Elementary.",
                 "b.txt": "Eleven children and two teachers were killed, officials said."})
    deaths = [c for c in a.claims if c.measure == "count_deaths"]
    assert sorted((c.qualifier, c.lo) for c in deaths) == [
        ("children", 11), ("children", 11), ("teachers", 2), ("teachers", 2)]
    assert a.conflicts == []


def test_officers_waiting_in_a_hallway():
    text = "Nearly 20 officers waited in a hallway for more than 45 minutes before going in."
    claims = extract_claims(text, "h.txt")
    got = {c.measure: (c.lo, c.hi, c.subject) for c in claims}
    assert got["count_officers_waiting"] == (18, 20, "group:officers")
    assert got["duration_waiting"] == (45, None, "group:officers")


def test_hedge_applies_after_converting_to_minutes():
    c = _one("Officers waited outside for nearly an hour.", "duration_outside")
    assert (c.lo, c.hi) == (54, 60)


def test_time_that_passed_and_a_state_that_is_not_a_stay():
    c = _one("Sixty-two minutes passed between the first shot and the moment police went in.", "duration_elapsed")
    assert (c.lo, c.subject) == (62, "incident")
    assert [c.measure for c in extract_claims("Nine students remained alive during the 40-minute delay.", "s.txt")
            ] == ["duration_elapsed"]


def test_minutes_in_which_officers_waited_are_about_the_officers():
    text = ("The gunfire was sporadic for much of the 41 minutes in which officers waited in the hallway, "
            "Chief Mara Quill said.")
    c = _one(text, "duration_waiting")
    assert (c.subject, c.speaker, c.lo) == ("group:officers", "person:mara-quill", 41)


def test_he_said_is_the_last_speaker_and_calling_911_is_not_speech():
    text = ("A student called 911 at 12:10 p.m., Director Ivo Penn of the Harlow County Sheriff's Office said.\n\n"
            "\u201cOfficers waited outside for 30 minutes,\u201d he said.")
    c = _one(text, "duration_outside")
    assert c.speaker == "person:ivo-penn" and c.subject == "group:officers"


@pytest.mark.parametrize("sentence,measure,lo,hi", [
    ("A deputy was killed and four officers were injured when a gunman fired more than 90 rounds.",
     "count_officers_injured", 4, 4),
    ("The three wounded deputies are hospitalized in stable condition.", "count_officers_injured", 3, 3),
    ("The attack took the lives of 8 people and injured six others.", "count_deaths", 8, 8),
    ("The attack took the lives of 8 people and injured six others.", "count_injured", 6, 6),
    ("The gunman fired more than 90 rounds.", "count_shots", 90, None),
    ("Rook had been at the department about seven months, the sheriff said.", "duration_of_service", 0.5, 0.667),
])
def test_more_measures(sentence, measure, lo, hi):
    found = [c for c in extract_claims(sentence, "x.txt") if c.measure == measure]
    assert [(c.lo, c.hi) for c in found] == [(lo, hi)]
    assert not [c for c in extract_claims(sentence, "x.txt") if c.measure == "count_officers_disciplined"]


def test_not_one_of_them_went_in():
    text = ("The three Marlow County Sheriff's deputies, including Deputy Rory Vance, stayed behind their cars, "
            "and not one of them had gone into the gym, witnesses said.")
    got = sorted((c.measure, c.lo) for c in extract_claims(text, "n.txt") if c.measure.startswith("count_"))
    assert got == [("count_officers_entered", 0), ("count_officers_outside", 3)]


def test_unnamed_sources_outlets_and_appositions():
    text = ("Three other Harlow County deputies stayed outside behind their cars, sources said. "
            "Two of the new deputies went in, the Harlow Ledger reported. "
            "Omar Reyes, the 24-year-old suspect, is in custody. "
            "The case is among 23 calls made to the Harlow County Sheriff's Office.")
    a = analyse({"r.txt": text})
    got = {c.measure: c for c in a.claims}
    assert got["count_officers_outside"].speaker == "group:sources"
    assert got["count_officers_entered"].lo == 2
    assert (got["age"].subject, got["age"].lo) == ("person:omar-reyes", 24)
    assert got["count_calls_for_service"].lo == 23
    # a newspaper is an outlet speaking, never a person or an agency
    assert [e.kind for e in a.entities if "ledger" in e.id] == ["outlet"]
    assert got["count_officers_entered"].speaker == "outlet:harlow-ledger"


def test_a_report_time_is_not_a_duration():
    text = "Author: Officer Tess Marlowe\nAgency: Linden Ridge Police Department\n\n" \
           "At approximately 1421 hours, I was dispatched to Linden Ridge High."
    claims = extract_claims(text, "r.txt")
    assert [(c.measure, c.qualifier, c.lo, c.subject) for c in claims] == [
        ("time_of_action", "dispatched", 856, "person:tess-marlowe")]


@pytest.mark.parametrize("sentence,measure,lo,hi", [
    ("It took us about three minutes to get to the second floor.", "duration_to_arrival", 2, 4),
    ("It took officers 44 minutes to breach the door.", "duration_to_entry", 44, 44),
    ("It took 77 minutes before anyone confronted the gunman.", "duration_elapsed", 77, 77),
])
def test_it_took(sentence, measure, lo, hi):
    found = [c for c in extract_claims(sentence, "t.txt") if c.measure == measure]
    assert [(c.lo, c.hi) for c in found] == [(lo, hi)]


def test_they_of_a_group_takes_a_position():
    text = "Halden police said they arrived at midnight and took Vance into custody inside the nightclub."
    [place] = [c for c in extract_claims(text, "p.txt") if c.measure == "place_of_action"]
    assert (place.value_text, place.subject.split(":")[0]) == ("inside the nightclub", "org")


def test_someone_unnamed_is_not_the_person_named_beside():
    text = ("Halden Police Chief Ada Brisk said the chief was in charge. Someone whom Brisk did not identify "
            "called 911 at 12:16 p.m. from the classroom.")
    [c] = [c for c in extract_claims(text, "u.txt") if c.measure == "time_of_action"]
    assert (c.subject, c.time_ref["event"]) == ("incident", "call_911")


def test_an_unnamed_first_officer_is_the_subject_not_the_teller():
    text = "Sheriff Dana Whitlock said the first deputy arrived at 10:06 a.m."
    [c] = [c for c in extract_claims(text, "f.txt") if c.measure == "time_of_action"]
    assert (c.speaker, c.subject) == ("person:dana-whitlock", "thing:first-deputy")


def test_who_acted_at_a_time_is_named_after_the_reporting_verb():
    text = ("Sheriff Dana Whitlock said the first officers reached the floor at 10:17 p.m. "
            "Whitlock said on Friday that the gunman fired his last shots at 10:15 p.m.")
    got = [(c.text, c.subject, c.speaker) for c in extract_claims(text, "w.txt") if c.measure == "time_of_action"]
    assert got == [("10:17 p.m.", "group:officers", "person:dana-whitlock"),
                   ("10:15 p.m.", "thing:gunman", "person:dana-whitlock")]


def test_two_timelines_disagree_on_the_arrival_and_the_entry():
    a = ("10:12 p.m. — The first officers reach the 31st floor.\n\n"
         "11:20 p.m. — Officers breach the suite and find the gunman dead.")
    b = "Whitlock said the first officers reached the floor at 10:17 p.m. Officers entered the suite at 11:27 p.m."
    got = analyse({"a.txt": a, "b.txt": b}, one_incident=True)
    assert sorted(c.sides[0]["text"] + " / " + c.sides[1]["text"] for c in got.conflicts) == [
        "10:12 p.m. / 10:17 p.m.", "11:20 p.m. / 11:27 p.m."]


def test_a_tally_of_incidents_is_no_claim_about_this_one():
    assert extract_claims("It was the 19th shooting at a school this year in which at least one person was "
                          "wounded.", "t.txt") == []
    [c] = extract_claims("The shooting, in which 21 people were killed, was the worst this year.", "t.txt")
    assert c.measure == "count_deaths"


def test_a_timelines_time_of_a_later_report_of_figures_is_no_time_of_action():
    got = [c.measure for c in extract_claims("12:43 p.m. — Penbury Hospital reports a total of 31 people were "
                                             "hospitalized.", "t.txt")]
    assert got == ["count_transported"]
    kept = extract_claims("12:10 p.m. — Police post on social media urging residents to shelter in place.", "t.txt")
    assert [c.measure for c in kept] == ["time_of_action"]  # a timed instruction to the public
    said = extract_claims('"We need a car behind the theater," he said at 12:45 a.m.', "t.txt")
    assert [c.text for c in said] == ["12:45 a.m."]


def test_who_a_number_is_about_is_never_the_speaker_before_the_reporting_verb():
    text = "Colonel Steven Marsh spoke on Friday. He said the commander waited 77 minutes."
    [c] = extract_claims(text, "s.txt")
    assert c.speaker == "person:steven-marsh" and c.subject != "person:steven-marsh"
    [c] = extract_claims("Sheriff Dana Whitlock said she waited 40 minutes.", "s.txt")
    assert c.subject == "person:dana-whitlock"  # "she": the speaker herself, named before


def test_a_police_spokesman_telling_the_gunmans_shots_is_not_police_fire():
    [c] = extract_claims("State police spokesman Travis Cole said the gunman fired 100 rounds.", "s.txt")
    assert (c.measure, c.qualifier) == ("count_shots", None)


# Writing of accounts that changed over time (round 4), each class in invented sentences.
@pytest.mark.parametrize("sentence,measure,lo,hi", [
    ("The gunman was inside the school for about 40 minutes.", "duration_of_incident", 36, 44),
    ("There were at least 19 officers in the hallway.", "count_officers_waiting", 19, None),
    ("Eleven officers were inside the school by then.", "count_officers_entered", 11, 11),
    ("\u201cNineteen officers were in that hallway,\u201d the chief said.", "count_officers_waiting", 19, 19),
    ("The true delay was more than an hour.", "duration_elapsed", 60, None),
    ("The department reported a response time of eight minutes.", "duration_to_arrival", 8, 8),
    ("It was not four minutes but 48 minutes before officers went in.", "duration_to_entry", 48, 48),
])
def test_measures_of_changing_accounts(sentence, measure, lo, hi):
    found = [c for c in extract_claims(sentence, "r4.txt") if c.measure == measure]
    assert [(c.lo, c.hi) for c in found] == [(lo, hi)], [(c.measure, c.text)
                                                        for c in extract_claims(sentence, "r4.txt")]


def test_a_described_persons_age_in_commas_is_no_toll():
    claims = extract_claims("The gunman, 18, killed 19 children and two teachers, officials said.", "a.txt")
    assert sorted((c.measure, c.lo) for c in claims) == [("age", 18), ("count_deaths", 2), ("count_deaths", 19)]


def test_an_offset_beside_a_clock_time_is_of_its_action():
    claims = extract_claims("Officers killed the gunman at 12:50 p.m. \u2014 77 minutes after he entered the school.",
                            "o.txt")
    assert [(c.lo, c.qualifier, c.time_ref["event"]) for c in claims] == [
        (770, "killed", "shooter_down"), (77, "killed", "shooter_down")]


def test_the_time_an_account_was_given_is_no_claim():
    assert extract_claims("Three days after the shooting, Chief Dale Renner gave a different account.", "t.txt") == []
    claims = extract_claims("The chief said officers went in within 60 seconds; a day later, he said that was wrong.",
                            "t.txt")
    assert [(c.measure, c.hi) for c in claims] == [("duration_to_entry", 1)]


@pytest.mark.parametrize("sentence,measure,lo,hi", [
    ("Within two minutes, three officers followed the gunman into the building.", "count_officers_entered", 3, 3),
    ("Within the next half hour, up to 19 officers crowded into the hallway.", "count_officers_waiting", 0, 19),
    ("It took another 47 minutes for the tactical team to get through the door.", "duration_to_entry", 47, 47),
    ("The chief said the agonizing wait to storm the classroom was one hour and 15 minutes.",
     "duration_waiting", 75, 75),
    ("The gunman was holed up in the classroom for 74 minutes.", "duration_of_incident", 74, 74),
])
def test_more_measures_of_changing_accounts(sentence, measure, lo, hi):
    found = [c for c in extract_claims(sentence, "r4.txt") if c.measure == measure]
    assert [(c.lo, c.hi) for c in found] == [(lo, hi)]


def test_a_previous_timeline_is_an_unnamed_earlier_account_of_the_gunmans_moment():
    text = ("Chief Dale Renner spoke on Monday.\n\n"
            "11:33 a.m. The gunman enters the school \u2014 a previous timeline stated he entered at 11:40 a.m.")
    a = analyse({"t.txt": text})
    times = [c for c in a.claims if c.measure == "time_of_action"]
    assert [(c.lo, c.speaker, c.time_ref["event"]) for c in times] == [
        (693, "author:t.txt", "shooter_entry"), (700, None, "shooter_entry")]
    assert len(a.conflicts) == 1


def test_a_time_is_never_of_the_verb_that_reports_it():
    text = ("Chief Dale Renner spoke on Monday.\n\n"
            "Renner confirmed that officers were on the scene two minutes after the gunman started firing.")
    [c] = analyse({"t.txt": text}).claims
    assert (c.lo, c.qualifier, c.time_ref["event"], c.speaker) == (2, None, "arrival", "person:dale-renner")
    assert c.subject != "person:dale-renner"


def test_a_clock_time_and_the_offset_beside_it_are_one_moment():
    claims = extract_claims("The 911 call came at 11:30 a.m., some three minutes before the gunman entered.", "m.txt")
    assert [(c.unit, c.time_ref["event"]) for c in claims] == [("minute_of_day", "call_911"), ("minute", "call_911")]


def test_a_moment_named_as_a_noun_and_placed_at_a_time():
    [c] = extract_claims("The initial timeline put the first officer's arrival at 11:44 a.m.", "n.txt")
    assert (c.lo, c.time_ref["event"]) == (704, "arrival")


@pytest.mark.parametrize("sentence", [
    "Published 11:02 AM ET Friday",
    "Updated 3:45 p.m. EDT, May 27, 2022",
    "The revised account came 72 hours after the shooting.",
    "Officials have offered at least four versions of the timeline in five days.",
    "Chief Dale Renner held a news conference at 4 p.m. Friday.",
])
def test_numbers_about_the_telling_are_no_claims(sentence):
    assert extract_claims(sentence, "p.txt") == []
