"""The dependency parse of a number's sentence (invented sentences). Needs the `parse`
extra, which the test extra installs; without it the parse path must say how to get it."""

import pytest

from onrecord.claims import grammar
from onrecord.errors import UsageError

needs_model = pytest.mark.skipif(not grammar.available(),
                                 reason="the 'parse' extra (English pipeline) is not installed")


@needs_model
def test_what_a_duration_hangs_on():
    s = "Deputy Ilse Marrow, an officer for 32 years, stayed outside for 48 minutes when the gunman arrived."
    service = grammar.hanger(s, s.index("32"), s.index("years") + 5)
    wait = grammar.hanger(s, s.index("48"), s.index("minutes") + 7)
    assert (service.head, service.prep) == ("officer", "for")
    assert (wait.head, wait.prep, wait.negated) == ("stay", "for", False)


@needs_model
def test_a_negated_verb_and_its_subject():
    s = "Four deputies did not enter the school."
    h = grammar.hanger(s, 0, s.index("deputies") + 8)
    assert (h.role, h.head, h.negated) == ("nsubj", "enter", True)


def test_without_the_pipeline_the_rules_still_read_and_the_parse_says_what_to_install(monkeypatch):
    from onrecord.claims.extract import analyse

    monkeypatch.setattr(grammar, "_load", lambda: None)
    text = "Deputy Ilse Marrow said she arrived within seven minutes."
    assert [c.measure for c in analyse({"a.txt": text}).claims] == ["duration_to_arrival"]
    with pytest.raises(UsageError, match="parse"):
        analyse({"a.txt": text}, parse=True)
