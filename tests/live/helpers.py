"""Live events and incidents made in the tests (fictional units and agencies)."""

from __future__ import annotations

import itertools

from onrecord.live.engine import AlertEngine
from onrecord.live.events import LiveEvent, interpret
from onrecord.live.rules import load_rules
from onrecord.live.state import Incident
from onrecord.live.units import UnitDirectory

T0 = 1_800_000_000_000
_ids = itertools.count(1)


def ev(kind: str, s: float, unit: str | None = None, agency: str | None = "NCSO", **kw) -> LiveEvent:
    d = UnitDirectory()
    return interpret(LiveEvent(id=next(_ids), source_id=kw.pop("source_id", 1), kind=kind, t_lo=int(T0 + s * 1000),
                               t_hi=int(T0 + s * 1000), unit=d.key(unit, agency), unit_name=unit, agency=agency,
                               **kw))


def engine(names: list[str] | None = None) -> AlertEngine:
    rules = [r for r in load_rules() if names is None or r.name in names]
    return AlertEngine(rules, Incident(UnitDirectory()))


def run(e: AlertEngine, events: list[LiveEvent], until_s: float | None = None):
    changes = []
    for x in sorted(events, key=lambda x: x.t):
        changes += e.apply(x)
    if until_s is not None:
        changes += e.advance(T0 + until_s * 1000)
    return changes
