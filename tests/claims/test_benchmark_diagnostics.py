"""The real-article benchmark's diagnostics (--why, --rules) on invented records: a miss is
put down to the stage that missed it, and a rule right in one incident only is told apart."""

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "claims_real.py"


@pytest.fixture()
def bench():
    spec = importlib.util.spec_from_file_location("claims_real_bench", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


TEXT = "Deputies waited 40 minutes. Four deputies went in. The gunman was alone."


def _key(bench, start, end, measure, tool=None, full=False):
    return bench.KeyClaim("a.txt", "k", start, end, measure, 1.0, 1.0, "minute", "author", "author", None, "",
                          tool, full)


def _tool(start, end, measure, speaker="author:a.txt"):
    return SimpleNamespace(doc="a.txt", id=f"t{start}", start=start, end=end, measure=measure, speaker=speaker,
                           speaker_text=None, unit="minute", lo=1.0, hi=1.0, time_ref=None)


def test_a_miss_is_put_down_to_its_stage(bench):
    forty = (TEXT.index("40"), TEXT.index("40") + len("40 minutes"))
    four = (TEXT.index("Four"), TEXT.index("Four") + len("Four deputies"))
    alone = (TEXT.index("alone"), TEXT.index("alone") + 5)
    other = _tool(*four, "count_officers_on_scene")
    keys = [_key(bench, *forty, "duration_waiting"),  # an amount read, no claim at all
            _key(bench, *four, "count_officers_entered"),  # read as another measure
            _key(bench, *alone, "count_shots"),  # no amount there
            _key(bench, *forty, "duration_waiting", _tool(*forty, "duration_waiting"), False)]  # value wrong
    bench._why("dev-train", keys, {"a.txt": TEXT}, {}, [other])
    reasons = dict(bench.WHY["dev-train"])
    assert reasons == {"miss: duration_waiting, amount read, no measure": 1,
                       "miss: count_officers_entered, read as count_officers_on_scene": 1,
                       "miss: count_shots, no amount read": 1,
                       "miss: duration_waiting, value wrong": 1}


def test_rules_right_in_one_incident_only_are_marked(bench):
    bench.RULE_LOG.extend([
        ("dev-train", "a", "key", "", True), ("dev-train", "b", "key", "", True), ("dev-train", "b", "key", "", True),
        ("dev-train", "a", "measure", "general", True), ("dev-train", "b", "measure", "general", True),
        ("dev-train", "b", "measure", "narrow", True),
    ])
    text = "\n".join(bench.rule_report(["dev-train"]))
    assert "2 rules right at least once, 3 right claims; 1 rules right in one incident only, carrying 1" in text
    assert "recall 1.000; without one-incident rules 0.667" in text
    assert any(line.split()[0] == "ONE" and "narrow" in line for line in text.splitlines())


def test_no_amount_read_is_also_told_by_the_shape_of_the_keys_words(bench):
    alone = (TEXT.index("alone"), TEXT.index("alone") + 5)
    key = _key(bench, *alone, "time_of_action")
    key.as_written = "alone"
    bench._why("holdout", [key], {"a.txt": TEXT}, {}, [])
    assert dict(bench.WHY_SHAPES["holdout"]) == {"time_of_action, written as words only, 1 word": 1}
    assert sum(bench.WHY["holdout"].values()) == 1  # the shapes are no further misses
    assert bench._shape("10:05 p.m.") == "clock h:mm with am/pm, 2 words"
    assert bench._shape("2205") == "digits, no clock, 1 word"
    text = "\n".join(bench.why_report(["holdout"]))
    assert "by the shape of the key's words" in text and "alone" not in text
