"""Indicator rules over narrative text (all narratives invented)."""

from __future__ import annotations

from onrecord.warnings.indicators import RULES, find_indicators, flags


def _hits(text):
    return [(h.rule, h.matched, h.negated) for h in find_indicators(text)]


def test_every_rule_is_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "warnings.md").read_text()
    for rule in RULES:
        assert f"`{rule.name}`" in doc, rule.name


def test_school_shooter_phrase_and_nearby_threat():
    assert flags("Tip: user posted he will be a professional school shooter") == {"threat_to_school"}
    hits = _hits("He said he would shoot up the whole school on Friday.")
    assert ("threat_to_school", "shoot up the whole school", False) in hits


def test_school_word_far_from_the_act_is_not_a_school_threat():
    text = "He shot a deer last autumn with his uncle near the lake, then later went to school."
    assert "threat_to_school" not in flags(text)


def test_weapons_with_spans():
    text = "Mother reports a rifle and boxes of ammo in his room."
    hits = find_indicators(text)
    assert [(h.rule, text[h.start:h.end]) for h in hits] == [("weapons", "rifle"), ("weapons", "ammo")]


def test_self_harm_is_not_counted_as_violence():
    text = "She told the counselor she wants to kill herself."
    assert flags(text) == {"self_harm"}


def test_violence_against_others():
    assert flags("He threatened to kill his brother and stabbed a tyre.") == {"violence"}


def test_negated_mention_is_reported_but_not_a_flag():
    assert _hits("Subject denied owning a gun.") == [("weapons", "gun", True)]
    assert flags("Subject denied owning a gun.") == set()


def test_ordinary_school_text_raises_nothing():
    assert find_indicators("The school bus was late; students waited in the gym.") == []
    assert find_indicators(None) == []


def test_hits_grouped_by_the_person_each_record_belongs_to():
    import pandas as pd

    from onrecord.warnings.indicators import indicators_by_person

    clusters = pd.DataFrame({"record_id": ["tip-1", "school-2", "sheriff-3"],
                             "person_id": ["p1", "p1", "p2"]})
    texts = {"tip-1": "Posted that he would be a school shooter.",
             "school-2": "Brought a knife to class.",
             "sheriff-3": "Noise complaint, no action."}
    table = indicators_by_person(clusters, texts)
    assert set(zip(table.person_id, table.rule)) == {("p1", "threat_to_school"), ("p1", "weapons")}
    assert list(table.loc[table.rule == "weapons", "matched"]) == ["knife"]
