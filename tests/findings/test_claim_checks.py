"""The rules that turn a claim and a record interval into a verdict."""

from onrecord.findings.claim_checks import verdict, widened
from onrecord.model import Claim


def _claim(lo, hi, unit="minute", hedge=None):
    return Claim(id="c", doc="d", start=0, end=1, text="x", sentence="x", sentence_start=0, speaker=None,
                 speaker_text=None, subject=None, subject_text=None, measure="m", lo=lo, hi=hi, unit=unit,
                 hedge=hedge)


def test_verdicts():
    assert verdict((1, 3), (1.5, 2.5)) == "supports"
    assert verdict((0, 1), (3, 3.7)) == "contradicts"
    assert verdict((2, 3), (64, None)) == "contradicts"   # at least 64 against at most 3
    assert verdict((1, 3), (2.5, 3.5)) == "cannot_tell"  # the record straddles the claim's bound
    assert verdict((0, 0), (0, 0)) == "supports"


def test_an_unhedged_figure_is_read_as_about_it():
    assert widened(_claim(8, 8)) == (7, 9)
    assert widened(_claim(30, 30)) == (27, 33)
    assert widened(_claim(850, 850, unit="minute_of_day")) == (849, 852)  # "at 2:10 p.m."
    assert widened(_claim(0, 1, hedge="within")) == (0, 1)  # the speaker's own hedge stands
    assert widened(_claim(12, 12, unit="people")) == (12, 12)  # counts are exact


def test_an_order_on_the_radio_is_not_a_report_of_what_we_do():
    from onrecord.claims.assertions import ORDER_KINDS
    from onrecord.findings.record_facts import _gives_order

    hold, go = ORDER_KINDS["hold back"], ORDER_KINDS["go in"]
    assert _gives_order(hold, "Sergeant Marsh to all units, hold the perimeter, nobody goes in until SWAT is here")
    assert _gives_order(hold, "Stay away from Building 4, stay at least 500 feet away")
    assert _gives_order(go, "All units go in now")
    assert not _gives_order(go, "2-31, we're going in, Building 4 east stair door")
    assert not _gives_order(hold, "Engine 12 staged at the bus loop")
