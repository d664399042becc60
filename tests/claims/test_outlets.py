"""News organisations as speakers (outlets.py; invented names)."""

import pytest

from onrecord.claims.outlets import OUTLET_DOC, OUTLET_DOC_LEFT, outlet_voice


def test_an_outlet_by_its_newspaper_word_call_sign_or_network():
    assert outlet_voice("the Marlow Ledger reported", None).speaker == "outlet:marlow-ledger"
    assert outlet_voice("The Marlow Ledger reported", None).speaker == "outlet:marlow-ledger"
    assert outlet_voice("KHLD-TV said", None).speaker == "outlet:khld-tv"
    assert outlet_voice("CNN", None).speaker == "outlet:cnn"
    assert outlet_voice("a county tally", None) is None


def test_an_outlets_own_work():
    assert OUTLET_DOC_LEFT.search("An Associated Press review of records ").group(1) == "Associated Press"
    assert OUTLET_DOC.match(" a CNN tally, and").group(1) == "CNN"
    assert OUTLET_DOC.match(" a county tally") is None


@pytest.mark.parametrize("text, outlet", [
    # a newspaper whose name joins two words, broadcasters and sites by name (invented titles)
    ("Officers waited 77 minutes, the Carvell American-Statesman reported.", "outlet:carvell-american-statesman"),
    ("Officers waited 77 minutes, according to the Tamsin Express-News.", "outlet:tamsin-express-news"),
    ("Officers waited 77 minutes, Univision reported.", "outlet:univision"),
    ("Officers waited 77 minutes, Tamsin Monthly reported.", "outlet:tamsin-monthly"),
    ("Officers waited 77 minutes, the Hill reported.", "outlet:hill"),
    ("Officers waited 77 minutes, the Carvell Daily Mail reported.", "outlet:carvell-daily-mail"),
])
def test_more_outlet_names(text, outlet):
    from onrecord.claims.extract import analyse

    assert {c.speaker for c in analyse({"a.txt": text}).claims} == {outlet}


def test_hill_the_person_is_no_outlet():
    from onrecord.claims.extract import analyse

    claims = analyse({"a.txt": "Sgt. Dana Hill arrived. Officers waited 77 minutes, Hill said."}).claims
    assert {c.speaker for c in claims} == {"person:dana-hill"}
