"""The claims reader on real press articles of the development set (../shared/data/articles).

Facts only (speaker, measure, value, span), checked by reading the articles; the texts are
never copied here. The held-out articles of benchmarks/claims_real/split_holdout.toml are
never read by tests.
"""

from __future__ import annotations

import pytest

from tests.conftest import shared_path

SANDY_HOOK = ["010_sandy-hook_nbcct-the-first-15-minutes.txt", "011_sandy-hook_courant-police-response-timeline.txt"]
SUTHERLAND = ["020_sutherland-springs_firehouse-27-killed.txt",
              "021_sutherland-springs_kens5-what-we-know-26-killed-20-wounded.txt",
              "022_sutherland-springs_callertimes-timeline-four-minutes.txt"]
CLUB_Q = ["039_club-q_cnn-fstdt-39-patrol-officers.txt", "040_club-q_9news-arrested-within-minutes.txt"]
AURORA = "009_aurora_9news-radio-timeline-eight-minutes.txt"
PARKLAND = "024_parkland_dailymail-four-deputies-failed-to-enter.txt"


def _read(names):
    return {n: shared_path("data", "articles", n).read_text(encoding="utf-8") for n in names}


@pytest.fixture(scope="module")
def analysed():
    from onrecord.claims.extract import analyse

    cache = {}

    def run(names):
        key = tuple(names)
        if key not in cache:
            texts = _read(names)
            cache[key] = (analyse(texts), texts)
        return cache[key]
    return run


def test_a_timeline_introduced_as_a_report_is_its_authors(analysed):
    a, texts = analysed(SANDY_HOOK)
    [call] = [c for c in a.claims if c.measure == "time_of_action" and c.lo == 575.65]
    assert call.time_ref["event"] == "call_911" and call.speaker.startswith("person:stephen-sedensky")
    assert texts[call.doc][call.start:call.end].startswith("9:35:39")


def test_a_delay_from_the_call_against_the_first_arrival(analysed):
    a, _ = analysed(SANDY_HOOK)
    crossed = [c for c in a.conflicts if "puts the arrival" in c.reason]
    assert len(crossed) == 1
    assert {s["lo"] for s in crossed[0].sides} == {0.0, 579.0}  # within two minutes / 9:39:00


def test_death_tolls_and_ages_that_cannot_both_hold(analysed):
    a, _ = analysed(SUTHERLAND)
    assert len(a.incidents) == 1
    deaths = [c for c in a.conflicts if c.measure == "count_deaths"]
    assert {frozenset(s["lo"] for s in c.sides) for c in deaths} == {frozenset({27.0, 26.0})}
    ages = [c for c in a.conflicts if c.measure == "age"]
    assert len(ages) >= 2  # 5-72 against 18 months-77, and against a youngest of 18 months


def test_two_outlets_one_incident_and_the_first_call(analysed):
    a, _ = analysed(CLUB_Q)
    assert [sorted(i["documents"]) for i in a.incidents] == [sorted(CLUB_Q)]
    calls = [c for c in a.conflicts if c.measure == "time_of_action"
             and {s["lo"] for s in c.sides} == {1436.0, 1437.0}]
    assert len(calls) == 1  # 11:56 p.m. against 11:57 p.m.


def test_an_offset_from_the_call_and_the_half_of_the_day(analysed):
    a, texts = analysed([AURORA])
    [offset] = [c for c in a.claims if c.measure == "time_of_action" and c.unit == "minute" and c.lo == 8]
    assert offset.time_ref["anchor"].endswith("911 call") and offset.speaker == f"author:{AURORA}"
    custody = [c for c in a.claims if c.measure == "time_of_action" and c.lo == 46.0]
    assert custody and custody[0].time_ref["event"] == "custody"  # 12:46 a.m., not p.m.


def test_not_one_of_the_four_deputies(analysed):
    a, texts = analysed([PARKLAND])
    [c] = [c for c in a.claims if c.measure == "count_officers_outside" and c.lo == 4]
    assert c.subject == "org:broward-county-sheriff-s-office" and c.speaker == "group:sources"
    assert "four" in texts[PARKLAND][c.start:c.end]
