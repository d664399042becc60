"""Agencies and outlets as speakers in the forms press writes them (issue 15, round 10):
invented sentences, fictional agencies."""

import pytest

from onrecord.claims.extract import analyse


def _speakers(text):
    a = analyse({"a.txt": text})
    return [(c.text, c.speaker) for c in a.claims if c.measure != "place_of_action"]


@pytest.mark.parametrize("text, speaker", [
    # an agency named only by the words of its kind, before it is named in full or never
    ("The sheriff's office said the first deputy arrived at 10:12 p.m.", "org:sheriff-s-office"),
    ("The sheriff's department said the gunman fired for 10 minutes.", "org:sheriff-s-office"),
    ("The sheriff's office said the first deputy arrived at 10:12 p.m. The Harlan County Sheriff's Office "
     "runs the jail.", "org:harlan-county-sheriff-s-office"),
    # the office, the bureau, the agency after it is named
    ("The Harlan County Sheriff's Office said deputies arrived at 11:24 a.m. The office said six deputies "
     "waited outside for 47 minutes.", "org:harlan-county-sheriff-s-office"),
    ("The Federal Bureau of Investigation opened a case. The bureau said 58 people were killed.", "org:fbi"),
    # "It said" after a sentence whose subject is the agency
    ("The Carvell Police Department gave a timeline. It said officers reached the 32nd floor at 10:17 p.m.",
     "org:carvell-police-department"),
    ("The Carvell Police Department released a timeline on Friday. Officers arrived at 10:12 p.m., it said.",
     "org:carvell-police-department"),
    # a kind of agency's document
    ("Officers with the Carvell Police Department went to the mall. Two officers entered the store at 9:41 p.m., "
     "according to a police timeline.", "org:carvell-police-department"),
    # "Metro" for a metropolitan police department named in full
    ("The Carvell Metropolitan Police Department responded. Metro said 58 people were killed.",
     "org:carvell-metropolitan-police-department"),
    ("The Carvell Metropolitan Police Department responded. A Metro spokesman said 58 people were killed.",
     "org:carvell-metropolitan-police-department"),
    ("The Carvell Metropolitan Police Department responded. Metro police said 58 people were killed.",
     "org:carvell-metropolitan-police-department"),
    ("The Harlan County Sheriff's Office responded. A sheriff's office report said six deputies waited outside "
     "for 47 minutes.", "org:harlan-county-sheriff-s-office"),
    ("The Carvell Police Department responded. Six officers waited outside for 47 minutes, per the department.",
     "org:carvell-police-department"),
    ("The Carvell Police Department responded. \u201cOfficers arrived at 10:12 p.m.,\u201d the department said.",
     "org:carvell-police-department"),
    ("The sheriff's office, in a statement, said the guard was shot at 9:59 p.m.", "org:sheriff-s-office"),
    ("The Harlan County School District closed the school. The district said in a statement that 13 people "
     "were killed.", "org:harlan-county-school-district"),
    # a company speaks for itself, by its full name, its short name or as "the company"
    ("Carvell Resorts International said in a statement that the guard was shot at 9:59 p.m.",
     "org:carvell-resorts-international"),
    ("Carvell Resorts International owns the Halcyon hotel. The company said the guard was shot at 9:59 p.m.",
     "org:carvell-resorts-international"),
    ("CRX Resorts International owns the Halcyon hotel. The guard was shot at 9:59 p.m., CRX said in a "
     "statement.", "org:crx-resorts-international"),
    # an outlet by its kind, its work, or after the verb
    ("The Carvell Police Department responded. Officers arrived at 10:12 p.m., reported the Carvell "
     "Review-Journal.", "outlet:carvell-review-journal"),
    ("The Carvell Police Department responded. Officers arrived at 10:12 p.m., according to reporting by the "
     "Ledger.", "outlet:ledger"),
    ("Officers arrived at 10:12 p.m., USA TODAY reported.", "outlet:usa-today"),
    ("The Tribune spoke to witnesses. According to the newspaper, 14 officers waited in the hallway.",
     "outlet:tribune"),
])
def test_the_agency_or_outlet_speaks(text, speaker):
    said = _speakers(text)
    assert said and said[-1][1] == speaker


def test_the_department_with_no_agency_named_is_an_unnamed_speaker_not_the_author():
    [(_, speaker)] = _speakers("According to the department's timeline, officers reached the floor at 10:17 p.m.")
    assert speaker is None


@pytest.mark.parametrize("text", [
    "Police released this timeline of the shooting on Tuesday:\n\n10:05 p.m.: The gunman opens fire.\n\n"
    "10:12 p.m.: Officers arrive at the hotel.",
    "The Carvell Police Department released a timeline on Tuesday. Here is how the night unfolded, according to "
    "police:\n\n10:05 p.m. The gunman opens fire.\n\n10:12 p.m. Officers arrive at the hotel.",
    "The Carvell Police Department released a timeline on Tuesday.\n\n10:05 p.m.: The gunman opens fire.\n\n"
    "10:12 p.m.: Officers arrive at the hotel.",
    "The sheriff's office timeline:\n\n11:19 a.m. \u2014 Two gunmen open fire.\n\n11:24 a.m. \u2014 A deputy arrives.",
])
def test_a_timeline_given_by_an_agency_is_its_own_entry_by_entry(text):
    said = _speakers(text)
    assert len(said) == 2 and all(s is not None and not s.startswith("author:") for _, s in said)


def test_a_company_is_never_a_person():
    a = analyse({"a.txt": "Carvell Resorts International said in a statement that the guard was shot at 9:59 p.m."})
    assert not [e for e in a.entities if e.kind == "person"]


def test_a_lower_case_sheriffs_office_is_the_agency():
    said = _speakers("Harlan County sheriff's officials said the guard was shot at 9:59 p.m.")
    assert said[-1][1] == "org:harlan-county-sheriff-s-office"


@pytest.mark.parametrize("text, speaker", [
    ("According to the Harlan County coroner, 58 people were killed.", "org:harlan-county-coroner-s-office"),
    ("According to the coroner's office, 58 people were killed.", "org:coroner-s-office"),
    ("The Harlan County Medical Examiner's Office identified the dead. The medical examiner said 58 people were "
     "killed.", "org:harlan-county-medical-examiner-s-office"),
    ("Harlan County Coroner Jon Fadden said 58 people were killed.", "person:jon-fadden"),
])
def test_coroners_and_medical_examiners(text, speaker):
    assert _speakers(text)[-1][1] == speaker


@pytest.mark.parametrize("text, speaker", [
    ("The Carvell Police Department responded. In its report, officers arrived at 10:12 p.m.",
     "org:carvell-police-department"),
    ("The Carvell Police Department released a timeline Friday. In the new timeline, officers arrived at 10:12 p.m.",
     "org:carvell-police-department"),
    ("In the sheriff's office's timeline, deputies arrived at 10:12 p.m.", "org:sheriff-s-office"),
])
def test_in_an_agencys_document_the_sentence_is_the_agencys(text, speaker):
    assert _speakers(text)[-1][1] == speaker


def test_a_timeline_of_24_hour_entries_is_the_agencys():
    said = _speakers("The Carvell Police Department released this timeline:\n\n2205 hours: The gunman opens fire."
                     "\n\n2217 hours: Officers reach the 32nd floor.")
    assert [s for _, s in said] == ["org:carvell-police-department"] * 2


@pytest.mark.parametrize("text, speaker", [
    ("The Ledger obtained the records. The newspaper's analysis found that 376 officers responded.", "outlet:ledger"),
    ("376 officers responded, KHOU 11 reported.", "outlet:khou-11"),
    ("Local media reported that 376 officers responded.", "group:media"),
])
def test_outlets_by_their_work_call_sign_and_channel(text, speaker):
    assert _speakers(text)[-1][1] == speaker
