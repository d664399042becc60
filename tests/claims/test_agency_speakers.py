"""Agencies and outlets as speakers in the forms press writes them (issue 15, round 10):
invented sentences, fictional agencies."""

import pytest

from onrecord.claims.extract import analyse


def _speakers(text):
    a = analyse({"a.txt": text})
    return [(c.text, c.speaker) for c in a.claims]


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
    # an outlet by its kind
    ("The Tribune spoke to witnesses. According to the newspaper, 14 officers waited in the hallway.",
     "outlet:tribune"),
])
def test_the_agency_or_outlet_speaks(text, speaker):
    said = _speakers(text)
    assert said and said[-1][1] == speaker


def test_the_department_with_no_agency_named_is_an_unnamed_speaker_not_the_author():
    [(_, speaker)] = _speakers("According to the department's timeline, officers reached the floor at 10:17 p.m.")
    assert speaker is None
