"""News organisations as speakers (outlets.py; invented names)."""

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
