"""Sources declared to share one clock are solved as one: a source with no moment of its
own gets the offset its clock-mates' moments establish."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from onrecord.errors import InputError
from onrecord.reconstruct.shared_clock import clock_leaders, clock_names, solve_shared
from onrecord.sources.mapping import parse_mapping
from tests.reconstruct.test_clock_trust import SENSOR, T0, _moments, _sources


def _bursts(offsets: dict[int, float], bursts: int = 6) -> pd.DataFrame:
    rows, n = [], 0
    for k in range(bursts):
        t = T0 + k * 37_000
        for s, off in offsets.items():
            rows.append((n := n + 1, s, t + off * 1000 + (k % 3) * 100, 0, "shots", None, 0, "SCH"))
    return _moments(rows)


def test_a_source_sharing_no_moment_takes_its_shared_clock_s_offset():
    # 1: the reference; 2 sees the bursts on a clock 40 s fast; 3 is 2's other export (one
    # row, no moment anyone else records): declared to share 2's clock
    texts = {2: SENSOR.format(clock='[clock]\nname = "Campus  recorder"'),
             3: SENSOR.format(clock='[clock]\nname = "campus recorder"')}
    sources = _sources({1: "sensor", 2: "camera", 3: "camera"}, texts)
    lead = clock_leaders(clock_names(SimpleNamespace(settings={}), sources))
    assert lead == {2: 2, 3: 2}  # names compared without case or extra spaces
    clocks, _ = solve_shared(sources, _bursts({1: 0.0, 2: 40.0}), {}, {1: 0.5}, lead)
    assert clocks[2].status == clocks[3].status == "estimated"
    assert clocks[3].offset_s == pytest.approx(40.0, abs=1.0) == clocks[2].offset_s
    assert clocks[3].source_id == 3 and "shared" in clocks[3].note
    alone, _ = solve_shared(sources, _bursts({1: 0.0, 2: 40.0}), {}, {1: 0.5}, {})
    assert alone[3].offset_s is None  # not declared: nothing ties it to any clock


def test_the_case_file_names_a_clock_and_wins_over_the_mapping():
    texts = {1: SENSOR.format(clock='[clock]\nname = "a"'), 2: SENSOR.format(clock='[clock]\nname = "b"')}
    case = SimpleNamespace(settings={"clocks": {"s2.csv": {"name": "a"}}})
    assert clock_leaders(clock_names(case, _sources({1: "sensor", 2: "sensor"}, texts))) == {1: 1, 2: 1}


def test_a_blank_clock_name_is_an_error_naming_the_key():
    with pytest.raises(InputError) as err:
        parse_mapping(SENSOR.format(clock='[clock]\nname = " "'), "door.toml")
    assert (err.value.file, err.value.field) == ("door.toml", "clock.name")
