"""Bodies of review as speakers, and documents that find (issue 15, round 12): invented
sentences, fictional bodies and agencies."""

import pytest

from onrecord.claims.extract import analyse


def _speakers(text):
    a = analyse({"a.txt": text})
    return [(c.text, c.speaker) for c in a.claims if c.measure != "place_of_action"]


@pytest.mark.parametrize("text, speaker", [
    # a named body of review or oversight is an organisation, whatever verb it speaks with
    ("The Marlow Review Commission concluded in its report that 376 officers responded to the school.",
     "org:marlow-review-commission"),
    ("In its report, the Harlan Review Commission said 14 officers responded.", "org:harlan-review-commission"),
    ("A Tamsin House committee found that 376 officers responded.", "org:tamsin-house-committee"),
    ("Fourteen officers responded, the Tamsin County Grand Jury said.", "org:tamsin-county-grand-jury"),
    # "the commission", "its report" after the body is named: that body, not the police named last
    ("The Marlow Review Commission met on Friday. The commission said officers waited 77 minutes.",
     "org:marlow-review-commission"),
    ("The Carvell Police Department responded. The Harlan County Committee on Public Safety investigated. "
     "The committee's report said officers waited 77 minutes.", "org:harlan-county-committee"),
    # a document that finds: its author, named in the phrase
    ("The report by the Harlan Review Commission found 14 officers responded.", "org:harlan-review-commission"),
    ("A report from the Carvell Police Department found 14 officers responded.", "org:carvell-police-department"),
    ("The Carvell Police Department responded. The review by the Office of the Inspector General found 14 "
     "officers entered the building.", "org:office-of-the-inspector-general"),
])
def test_body_speaks(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}


@pytest.mark.parametrize("text", [
    # a body nobody named is an unnamed speaker, never the author nor the police named before
    "A review commission found that officers waited 77 minutes before entering the classroom.",
    "The Carvell Police Department responded. A state panel found that officers waited 77 minutes.",
])
def test_unnamed_body_is_no_one_named(text):
    assert {s for _, s in _speakers(text)} == {None}


@pytest.mark.parametrize("text", [
    # finding by people is an act, and the writer's
    "Officers found two people wounded after 14 minutes.",
    "Police found the gunman dead at 10:41 a.m.",
])
def test_finding_by_people_is_no_report(text):
    assert {s for _, s in _speakers(text)} == {"author:a.txt"}


def test_a_board_that_acts_speaks_for_no_one():
    # a body named as the subject of an act says nothing: no claim is given to it
    assert all(s != "org:harlan-county-board" for _, s in
               _speakers("The Harlan County Board of Supervisors voted on Tuesday to fund 14 officers."))


@pytest.mark.parametrize("text, speaker", [
    # "the state Department of Public Safety" is the state's agency named before it
    ("The Tamsin Department of Public Safety responded. The state Department of Public Safety later said the "
     "gunman fired more than 100 rounds.", "org:tamsin-department-of-public-safety"),
    # and with no state named, a state agency all the same: never the author
    ("The Carvell Police Department responded. The state Department of Public Safety said the gunman fired "
     "more than 100 rounds.", "org:state-department-of-public-safety"),
])
def test_state_agency_in_lower_case(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}


def test_state_agency_of_two_states_is_not_guessed():
    texts = {"a.txt": "The Tamsin Department of Public Safety responded.",
             "b.txt": "The Orrin Department of Public Safety responded.",
             "c.txt": "The state Department of Public Safety said the gunman fired more than 100 rounds."}
    a = analyse(texts)
    assert {c.speaker for c in a.claims if c.doc == "c.txt"} == {"org:state-department-of-public-safety"}


@pytest.mark.parametrize("text", [
    "Officers waited 77 minutes, as first reported by the Carvell Tribune.",
    "An analysis by the Carvell Tribune found officers entered at 10:41 a.m.",
])
def test_outlet_as_agent_and_author_of_work(text):
    assert {s for _, s in _speakers(text)} == {"outlet:carvell-tribune"}


@pytest.mark.parametrize("text, speaker", [
    # a document described by its size or kind still speaks for the agency that put it out
    ("The Carvell Police Department released its review on Friday. The 80-page document found 14 officers "
     "entered the building.", "org:carvell-police-department"),
    ("The Carvell Police Department released its review on Friday. The document says 14 officers entered the "
     "building.", "org:carvell-police-department"),
    # a document's relative clause: whoever released it
    ("The Carvell Police Department on Friday released a review that found 14 officers entered the building.",
     "org:carvell-police-department"),
    ("The Carvell Police Department released its review on Friday, which found that 14 officers entered the "
     "building.", "org:carvell-police-department"),
    # a statement put out "saying": the one who put it out
    ("The Carvell Police Department issued a statement saying 14 officers entered the building.",
     "org:carvell-police-department"),
    ("Chief Dana Roe released a letter stating that 14 officers entered the building.", "person:dana-roe"),
    # an agency's spokesperson or official named by the agency's kind: that agency
    ("The Harlan County Sheriff's Office responded.\n\nA sheriff's spokesman said 14 deputies entered the "
     "building.", "org:harlan-county-sheriff-s-office"),
    ("The Harlan County Sheriff's Office and the Carvell Police Department responded. A police spokeswoman "
     "said 14 officers entered the building.", "org:carvell-police-department"),
])
def test_documents_and_spokespeople_of_an_agency(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}


@pytest.mark.parametrize("text, speaker", [
    # a record released is read by the writer ("the video shows" is the author's reading)
    ("The Carvell Police Department released a video showing 14 officers entering the building.",
     "author:a.txt"),
    # one officer is no spokesperson of his agency
    ("The Carvell Police Department responded. A police officer said 14 officers entered the building.", None),
])
def test_records_and_single_officers_are_not_the_agency(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}


@pytest.mark.parametrize("text, speaker", [
    # a school district in lower case, a hospital, a state's investigators by their own name
    ("The Carvell school district said officers waited 77 minutes.", "org:carvell-school-district"),
    ("Carvell Memorial Hospital said 14 people were taken to hospitals.", "org:carvell-memorial-hospital"),
    ("Fourteen people were taken to hospitals, a spokesperson for Carvell Health said.", "org:carvell-health"),
    ("The Texas Rangers said officers waited 77 minutes.", "org:texas-rangers"),
])
def test_more_organisations_speak(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}


@pytest.mark.parametrize("text, speaker", [
    # "law enforcement" as a crowd that speaks, as "authorities" does
    ("Officers waited 77 minutes, according to law enforcement.", "group:law-enforcement"),
    ("Officers waited 77 minutes, law enforcement said.", "group:law-enforcement"),
    # a body's document after the body is named: the body
    ("The Marlow Review Commission met on Friday. Officers waited 77 minutes, according to the commission's "
     "report.", "org:marlow-review-commission"),
    # "law enforcement officers" who act are no speakers
    ("Law enforcement officers waited 77 minutes.", "author:a.txt"),
])
def test_law_enforcement_and_a_bodys_document(text, speaker):
    assert {s for _, s in _speakers(text)} == {speaker}
