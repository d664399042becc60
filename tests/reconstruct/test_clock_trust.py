"""Clock trust is declared (mapping or onrecord.toml), never taken from a source's kind,
and a declared reference the other clocks contradict is not held."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from onrecord.errors import InputError
from onrecord.findings.clock_offsets import clock_offsets
from onrecord.findings.render import sentence
from onrecord.reconstruct.clock_trust import declared_trust
from onrecord.reconstruct.clocks import pair_estimates, solve
from onrecord.sources.mapping import parse_mapping

T0 = 1_700_000_000_000

SENSOR = """
[mapping]
name = "door-log"
source_kind = "sensor"
timezone = "UTC"
{clock}
[[events]]
kind = "door_event"
time = "At"
format = "iso"
"""


def _moments(rows):
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def _sources(kinds, texts=None):
    ids = list(kinds)
    return pd.DataFrame({"id": ids, "kind": list(kinds.values()), "file_name": [f"s{i}.csv" for i in ids],
                         "mapping_text": [(texts or {}).get(i, "") for i in ids]})


def _three_see_each_burst(offsets: dict[int, float], bursts: int = 6):
    """Sources (id -> true clock error, s) that each record every burst of shots as it happens."""
    rows, n = [], 0
    for k in range(bursts):
        t = T0 + k * 37_000
        for s, off in offsets.items():
            rows.append((n := n + 1, s, t + off * 1000 + (k % 3) * 100, 0, "shots", None, 0, "SCH"))
    return pair_estimates(_moments(rows))


def test_a_sensor_is_not_a_reference_unless_declared():
    pairs = _three_see_each_burst({1: 0.0, 2: 40.0})
    clocks = solve(_sources({1: "sensor", 2: "camera"}), pairs, {})
    assert {c.status for c in clocks.values()} == {"unknown"}
    assert clocks[2].relative_s == pytest.approx(40.0, abs=1.0)  # still lined up with each other
    declared = solve(_sources({1: "sensor", 2: "camera"}), pairs, {}, {2: 1.0})  # the camera, declared
    assert declared[2].status == "reference" and declared[1].offset_s == pytest.approx(-40.0, abs=1.5)


def test_trust_comes_from_the_mapping_and_the_case_file_wins():
    texts = {1: SENSOR.format(clock='[clock]\ntrust = "reference"\nuncertainty_s = 1.5'),
             2: SENSOR.format(clock=""), 3: SENSOR.format(clock='[clock]\ntrust = "reference"\nuncertainty_s = 2')}
    case = SimpleNamespace(settings={"clocks": {"s2.csv": {"trust": "reference", "uncertainty_s": 0.2},
                                                "s3.csv": {"trust": "estimated"}}})
    trusted, problems = declared_trust(case, _sources({1: "sensor", 2: "sensor", 3: "sensor"}, texts))
    assert trusted == {1: 1.5, 2: 0.2} and problems == []


def test_a_bad_declaration_names_the_file_and_key():
    case = SimpleNamespace(settings={"clocks": {"s1.csv": {"trust": "gps"}}})
    trusted, problems = declared_trust(case, _sources({1: "sensor"}))
    assert trusted == {} and "onrecord.toml" in problems[0] and "clocks.\"s1.csv\".trust" in problems[0]
    with pytest.raises(InputError) as err:
        parse_mapping(SENSOR.format(clock='[clock]\ntrust = "reference"'), "door.toml")
    assert err.value.file == "door.toml" and err.value.field == "clock.uncertainty_s"
    with pytest.raises(InputError) as err:
        parse_mapping(SENSOR.format(clock='[clock]\ntrust = "reference"\nuncertainty = 1'), "door.toml")
    assert err.value.field == "clock.uncertainty"
    m = parse_mapping(SENSOR.format(clock='[clock]\ntrust = "reference"\nuncertainty_s = 0.5'), "door.toml")
    assert (m.clock_trust, m.clock_uncertainty_s) == ("reference", 0.5)
    assert parse_mapping(SENSOR.format(clock=""), "door.toml").clock_trust == "estimated"


def test_a_reference_minutes_off_is_contradicted_and_estimated_instead():
    # GPS-timed AVL-like clock 1, a sensor network 2 within a second, and a door log 3
    # declared reference but 212 s fast: the two others say so
    pairs = _three_see_each_burst({1: 0.0, 2: 0.6, 3: 212.0})
    src = _sources({1: "avl", 2: "sensor", 3: "sensor"})
    clocks = solve(src, pairs, {}, {1: 0.1, 2: 1.5, 3: 1.5})
    assert clocks[1].status == "reference" and clocks[2].status == "reference"
    door = clocks[3]
    assert door.status == "estimated" and door.offset_s == pytest.approx(212.0, abs=1.0)
    assert door.contradicted["by"] == [1, 2]
    r = SimpleNamespace(sources=src, clocks=clocks)
    found = [f for f in clock_offsets(r, []) if f.name == "clock_reference_contradicted"]
    assert len(found) == 1 and found[0].subject == "s3.csv"
    assert found[0].payload["contradicted_by"] == ["s1.csv", "s2.csv"]
    assert "s1.csv and s2.csv" in sentence(found[0]) and "212" in sentence(found[0])


def test_references_that_agree_within_their_bounds_are_all_held():
    pairs = _three_see_each_burst({1: 0.0, 2: 1.2, 3: -0.9})
    clocks = solve(_sources({1: "avl", 2: "sensor", 3: "sensor"}), pairs, {}, {1: 0.1, 2: 1.5, 3: 1.5})
    assert all(c.status == "reference" and not c.contradicted for c in clocks.values())


def test_one_other_clock_is_not_enough_to_overrule_a_reference():
    # two references that disagree: nothing says which is wrong, so neither is overruled
    pairs = _three_see_each_burst({1: 0.0, 2: 90.0})
    clocks = solve(_sources({1: "avl", 2: "sensor"}), pairs, {}, {1: 0.1, 2: 1.5})
    assert not any(c.contradicted for c in clocks.values())
