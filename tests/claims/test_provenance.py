"""Tracing which rule read each claim (provenance.py) must change no reading."""

from dataclasses import asdict

from onrecord.claims import provenance
from onrecord.claims.extract import analyse
from onrecord.claims.measures import Reading
from onrecord.claims.voices import Voice

TEXT = ("Sheriff Dana Whitlock leads the Marlow County Sheriff's Office.\n\n"
        "Four deputies waited outside for 40 minutes, Whitlock said.\n\n"
        "\u201cWe were inside by 9:52 a.m.,\u201d Whitlock said.")


def _run(trace: bool):
    provenance.enable(trace)
    provenance.RULES.clear()
    try:
        return analyse({"p.txt": TEXT})
    finally:
        provenance.enable(False)


def test_tracing_changes_no_claim():
    plain, traced = _run(False), _run(True)
    assert [asdict(c) for c in plain.claims] == [asdict(c) for c in traced.claims]
    assert plain.claims


def test_each_claim_names_the_rules_behind_its_measure_and_speaker():
    traced = _run(True)
    rules = dict(provenance.RULES)
    for c in traced.claims:
        measure_rule, speaker_rule = rules[(c.doc, c.start, c.end, c.measure)]
        assert measure_rule != "?" and speaker_rule
    wait = next(c for c in traced.claims if c.measure == "duration_outside")
    assert rules[(wait.doc, wait.start, wait.end, wait.measure)][0].startswith("measures.read_duration:")
    # a reporting clause's speaker: by the rules, or by the parse where the pipeline is installed
    assert rules[(wait.doc, wait.start, wait.end, wait.measure)][1].startswith(
        ("clause speakers.", "clause attribution."))
    timed = next(c for c in traced.claims if c.measure == "time_of_action")
    assert rules[(timed.doc, timed.start, timed.end, timed.measure)][1].startswith("quote/after")


def test_the_rule_is_no_part_of_a_records_identity():
    provenance.enable(True)
    try:
        traced = Voice("person:x", "X")
        reading = Reading("count_deaths", "people", 3, "incident")
    finally:
        provenance.enable(False)
    assert traced.rule.startswith("test_provenance.") and traced == Voice("person:x", "X")
    assert reading == Reading("count_deaths", "people", 3, "incident")
    assert Voice("a", "b").rule == ""
