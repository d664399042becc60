"""Acceptance on two real press pieces kept outside the repository (../shared/seeds).

The expected facts below were verified by reading both texts; the texts themselves are
never copied here. Each assertion checks the speaker entity, the measure, the value
interval and hedge, and that the claim's span in the document holds the number.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SEEDS = Path(os.environ.get("ONRECORD_SHARED", Path(__file__).resolve().parents[2].parent / "shared")) / "seeds"
FIRST = "000_4b97fe461e8f52af.txt"   # the piece quoting the sheriff, the chief, the president
SECOND = "002_f6161a529cd7b9c2.txt"  # the blog piece with the misspelled "Scott Peterson"


def _seeds_or_skip() -> dict[str, str]:
    paths = [SEEDS / FIRST, SEEDS / SECOND]
    if not all(p.exists() for p in paths):
        if os.environ.get("CI") == "true":
            pytest.fail(f"seed articles missing at {SEEDS} (CI must have them)")
        pytest.skip(f"seed articles not present at {SEEDS}")
    return {p.name: p.read_text(encoding="utf-8") for p in paths}


@pytest.fixture(scope="module")
def result():
    from onrecord.claims.extract import analyse

    texts = _seeds_or_skip()
    return analyse(texts), texts


def _find(analysis, measure, doc=None, **where):
    out = [c for c in analysis.claims if c.measure == measure and (doc is None or c.doc == doc)
           and all(getattr(c, k) == v for k, v in where.items())]
    assert out, f"no {measure} claim with {where} in {doc}"
    return out


def _span_has(texts, claim, *numbers):
    span = texts[claim.doc][claim.start:claim.end].lower()
    assert any(n in span for n in numbers), (span, numbers)


def test_people_resolved(result):
    analysis, _ = result
    people = {e.id: e for e in analysis.entities if e.kind == "person"}
    for pid in ["person:scot-peterson", "person:scott-israel", "person:anthony-pustizzi",
                "person:robert-runcie", "person:mike-goodrum", "person:michael-udine",
                "person:aaron-feis", "person:nikolas-cruz"]:
        assert pid in people, sorted(people)
    # One Peterson, with the misspelled first name among his names; Israel stays apart.
    assert "Scott Peterson" in people["person:scot-peterson"].aliases
    israel = people["person:scott-israel"]
    assert not any("Peterson" in a for a in israel.aliases + [israel.name])
    assert "Putstizzi" in people["person:anthony-pustizzi"].aliases
    docs_of_peterson = {m["doc"] for m in people["person:scot-peterson"].mentions}
    assert docs_of_peterson == {FIRST, SECOND}
    # "the Coral Springs Sheriff" (a wrong title) means the Coral Springs chief.
    assert any("Sheriff" in m["text"] for m in people["person:anthony-pustizzi"].mentions)
    assert not [pid for pid in people if "peterson" in pid and pid != "person:scot-peterson"]


def test_time_outside_grouped_and_attributed(result):
    analysis, texts = result
    outside = _find(analysis, "duration_outside")
    assert {c.subject for c in outside} == {"person:scot-peterson"}
    sheriff = [c for c in outside if c.speaker == "person:scott-israel"]
    assert len(sheriff) == 1 and sheriff[0].lo == 4 and sheriff[0].hi is None
    assert sheriff[0].hedge == "upwards of" and sheriff[0].quoted
    president = [c for c in outside if c.speaker == "person:trump"]
    assert len(president) == 1 and president[0].lo == president[0].hi == 5
    narrator = [c for c in outside if c.speaker == f"author:{SECOND}"]
    assert len(narrator) == 1 and narrator[0].lo == narrator[0].hi == 4
    for c in sheriff + president + narrator:
        _span_has(texts, c, "four", "five")
        assert c.unit == "minute"
    group = [g for g in analysis.groups if g["measure"] == "duration_outside"]
    assert len(group) == 1 and len(group[0]["claims"]) == 3
    assert set(group[0]["documents"]) == {FIRST, SECOND}


def test_five_versus_four_minutes_is_a_conflict(result):
    analysis, _ = result
    outside = [c for c in analysis.conflicts if c.measure == "duration_outside"]
    assert len(outside) == 1
    speakers = {s["speaker"] for s in outside[0].sides}
    assert speakers == {"person:trump", f"author:{SECOND}"}
    assert all(s["sentence"] for s in outside[0].sides)


def test_officer_counts(result):
    analysis, texts = result
    cspd, bso = "org:coral-springs-police-department", "org:broward-county-sheriff-s-office"
    sent = _find(analysis, "count_officers_sent", FIRST, subject=cspd)
    assert [(c.lo, c.hi) for c in sent] == [(130, 130)]
    entered = _find(analysis, "count_officers_entered", FIRST, subject=cspd)
    assert len(entered) == 1
    c = entered[0]
    assert c.speaker == "person:anthony-pustizzi" and c.hedge == "roughly"
    assert c.lo < 40 < c.hi and c.of_total == 130
    _span_has(texts, c, "40")
    outside = _find(analysis, "count_officers_outside", FIRST, subject=bso)
    # Four places say the four deputies stayed out: three on the word of Coral Springs
    # police sources, one in the writer's own voice.
    assert {(c.lo, c.hi) for c in outside} == {(4, 4)} and len(outside) == 4
    assert sorted(c.speaker for c in outside) == [f"author:{FIRST}", cspd, cspd, cspd]
    # "not one of them had gone into the school": none of the deputies entered.
    none_in = _find(analysis, "count_officers_entered", FIRST, subject=bso)
    assert [(c.lo, c.hi, c.speaker, c.quoted) for c in none_in] == [(0, 0, cspd, True)]
    for c in outside:
        _span_has(texts, c, "four")


def test_victims_and_deaths_and_calls(result):
    analysis, texts = result
    carried = _find(analysis, "count_victims_carried_out", FIRST)
    assert [(c.lo, c.hi, c.speaker) for c in carried] == [(23, 23, "person:anthony-pustizzi")]
    survived = _find(analysis, "count_survivors", FIRST)
    assert [(c.lo, c.hi, c.speaker) for c in survived] == [(20, 20, "person:anthony-pustizzi")]
    deaths = _find(analysis, "count_deaths", SECOND)
    assert {(c.lo, c.hi) for c in deaths} == {(17, 17)} and len(deaths) == 2
    home = _find(analysis, "count_calls_to_home", SECOND)
    assert [(c.lo, c.hi) for c in home] == [(39, 39)]
    for c in carried + survived + deaths + home:
        _span_has(texts, c, "23", "20", "17", "39")
        assert c.subject == "incident"


def test_other_facts(result):
    analysis, _ = result
    ages = _find(analysis, "age", SECOND)
    assert {(c.subject, c.lo) for c in ages} == {("person:scot-peterson", 54)}
    service = _find(analysis, "duration_of_service", FIRST)
    assert [(c.subject, c.lo, c.unit) for c in service] == [("person:anthony-pustizzi", 30, "year")]
    email = _find(analysis, "time_of_action", FIRST, qualifier="sent")
    assert email[0].subject == "person:anthony-pustizzi" and email[0].time_ref["anchor"] == "the shooting"
    assert (email[0].lo, email[0].unit) == (2, "day")


def test_nothing_from_noise(result):
    analysis, _ = result
    # "1 minute into the clip", "Building 12", years and the salary year are not claims.
    assert not [c for c in analysis.claims if c.lo in (1, 12, 2014, 2016) and c.measure != "time_of_action"]
