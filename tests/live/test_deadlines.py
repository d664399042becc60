"""A duration rule fires at the moment its hold runs out, not at the next event: the
engine keeps a deadline for every rule and subject waiting to fire (or to stop holding),
run on the events' own clock in a replay and on the wall clock live (RuleNode.tick). Here
the live node's clock is a logical one set by the test (no timing)."""

from __future__ import annotations

import json

from onrecord.live.outbox import ALERTS_FILE
from onrecord.live.rules import load_rules
from onrecord.live.service import RuleNode
from onrecord.live.units import UnitDirectory
from onrecord.store.case import init_case
from tests.live.helpers import T0, engine, ev, run

HOLD = ["armed_unit_holding_outside"]


def test_the_holding_outside_alert_fires_in_a_lull_at_its_deadline_not_at_the_next_shot():
    # shots at 0 and 20 s, the unit on scene at 10 s, then silence until 110 s: the 60 s run
    # out at 70 s with no event then, and the last shot (20 s) no more than 120 s before it
    e = engine(HOLD)
    before = [ev("shots_detected", 0, agency="SCHOOL"), ev("unit_arrived", 10, "14B2"),
              ev("shots_detected", 20, agency="SCHOOL")]
    assert [c for c in run(e, before) if c.action == "fire"] == []
    assert e.next_timer() == T0 + 70_000
    assert e.advance(T0 + 69_999) == []
    fired = [c for c in e.advance(T0 + 70_000) if c.action == "fire"]
    assert [(c.alert.subject, c.at) for c in fired] == [("14B2", T0 + 70_000)]
    later = e.apply(ev("shots_detected", 110, agency="SCHOOL"))
    assert [c.action for c in later] == ["update"]  # the next shot adds evidence; it does not fire again


def test_a_replay_fires_at_the_deadline_between_two_events():
    # the same incident as one replay: the engine runs the timer due before the shot at 110 s
    e = engine(HOLD)
    events = [ev("shots_detected", 0, agency="SCHOOL"), ev("unit_arrived", 10, "14B2"),
              ev("shots_detected", 20, agency="SCHOOL"), ev("shots_detected", 110, agency="SCHOOL")]
    assert [c.at for c in run(e, events) if c.action == "fire"] == [T0 + 70_000]


class LogicalClockNode(RuleNode):
    """The live rule node on a clock the test moves."""

    clock = T0

    def now(self) -> float:
        return self.clock


def _logged(case) -> list[tuple[str, str, int]]:
    rows = [json.loads(x) for x in (case.path / ALERTS_FILE).read_text().splitlines()]
    return [(r["action"], r["alert"], r["at"]) for r in rows if r["action"] in ("fire", "clear")]


def test_the_live_node_fires_on_its_tick_when_the_deadline_passes_with_no_event(tmp_path):
    case = init_case(tmp_path / "case")
    node = LogicalClockNode(case, [r for r in load_rules() if r.name in HOLD], UnitDirectory(), "UTC")
    try:
        for s, e in [(0, ev("shots_detected", 0, agency="SCHOOL")), (10, ev("unit_arrived", 10, "14B2")),
                     (20, ev("shots_detected", 20, agency="SCHOOL"))]:
            node.clock = T0 + s * 1000
            node.apply(e)
        node.clock = T0 + 69_900
        node.tick()
        assert not (case.path / ALERTS_FILE).exists() or _logged(case) == []
        node.clock = T0 + 70_050  # the next tick after the deadline (ticks are 0.1 s apart)
        node.tick()
        assert _logged(case) == [("fire", "armed_unit_holding_outside:14B2:1", T0 + 70_000)]
        assert [a["subject"] for a in node.board.snapshot()["alerts"]] == ["14B2"]
    finally:
        node.outbox.close()
        case.engine.dispose()
