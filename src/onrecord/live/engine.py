"""The alert engine: every rule, for every subject it can be about, evaluated as events
are applied and as time passes. An alert fires once when its rule has held for `hold_s`,
is updated while it holds (new evidence, how long it has held), and is cleared with the
reason its rule stopped holding. Each is a `model.Finding` of kind `alert`: values, times
(UTC ms) and evidence ids, never a sentence (findings/render.py words it).

Time is given from outside (`advance(now)`): the wall clock live, the events' own times
in a replay, so one engine answers both "what is happening" and "when would it have fired".
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field

from onrecord.live.events import LiveEvent, interpret
from onrecord.live.rules import Rule
from onrecord.live.rules.tests import TESTS, Truth
from onrecord.live.state import Incident
from onrecord.model import Finding

# What an event of each kind of subject touches: a shot changes every unit's rules.
SUBJECT_OF_TOUCH = {"unit": "unit", "call": "call", "source": "source", "agency": "agency_pair",
                    "report": "report", "incident": "incident"}
EVIDENCE_KEPT = 60


@dataclass
class Alert:
    rule: Rule
    subject: str
    subject_key: object
    episode: int  # the n-th time this rule fired for this subject
    held_since: float
    fired_at: float
    evidence: list[int] = field(default_factory=list)
    values: dict = field(default_factory=dict)
    updated_at: float | None = None
    cleared_at: float | None = None
    clear_reason: str | None = None

    @property
    def id(self) -> str:
        return f"{self.rule.name}:{self.subject}:{self.episode}"

    def finding(self) -> Finding:
        r = self.rule
        return Finding(r.name, "established", kind="alert", subject=self.subject, value_lo=self.fired_at,
                       value_hi=self.cleared_at, unit="utc_ms",
                       payload={"alert": self.id, "title": r.title, "subject_kind": r.subject,
                                "hold_s": r.hold_s, "held_since": self.held_since, "fired_at": self.fired_at,
                                "updated_at": self.updated_at, "cleared_at": self.cleared_at,
                                "clear_reason": self.clear_reason, "episode": self.episode,
                                "severity": r.severity, "urgency": r.urgency, "certainty": r.certainty,
                                "values": self.values},
                       evidence=list(self.evidence))


@dataclass
class Change:
    action: str  # fire, update, clear
    alert: Alert
    at: float


class AlertEngine:
    def __init__(self, rules: list[Rule], incident: Incident):
        self.rules, self.incident = rules, incident
        self.now = -math.inf
        self.active: dict[tuple[str, object], Alert] = {}
        self.episodes: dict[tuple[str, object], int] = {}
        self.history: list[Alert] = []  # every alert fired, in order
        self._timers: list = []
        self._next: dict[tuple[str, object], float] = {}
        self._seq = itertools.count()
        self._by_subject: dict[str, list[Rule]] = {}
        self._rule = {r.name: r for r in rules}
        # each rule's tests with their parameters, looked up once (asked for every unit at every shot)
        self._tests = {r.name: [(TESTS[w.test].run, dict(w.params)) for w in r.when] for r in rules}
        for r in rules:
            self._by_subject.setdefault(r.subject, []).append(r)

    # ---- the two inputs: an event, time passing

    def apply(self, ev: LiveEvent, now: float | None = None) -> list[Change]:
        """Apply one event at `now` (default: the event's own time, a replay), after every
        timer due before it."""
        now = ev.t if now is None else now
        changes = self.advance(now) if now is not None else []
        if not ev.whats:
            interpret(ev)
        touched = self.incident.apply(ev)
        if not touched:
            return changes
        for kind in touched:
            subject_kind = SUBJECT_OF_TOUCH[kind]
            keys = self._touched_subjects(subject_kind, kind, ev)
            for rule in self._by_subject.get(subject_kind, []):
                for key in keys:
                    changes += self._evaluate(rule, key)
        if "unit" in touched or "incident" in touched:  # rules of any subject may ask about shots
            for rule in self._by_subject.get("incident", []):
                changes += self._evaluate(rule, "incident")
        return changes

    def advance(self, now: float) -> list[Change]:
        """Run every timer due up to `now`, each at its own time, and move the clock."""
        changes: list[Change] = []
        while self._timers and self._timers[0][0] <= now:
            at, _, rule_name, key = heapq.heappop(self._timers)
            rk = (rule_name, key)
            if self._next.get(rk) != at:
                continue  # superseded
            del self._next[rk]
            self.now = max(self.now, at)
            changes += self._evaluate(self._rule[rule_name], key)
        self.now = max(self.now, now)
        return changes

    def next_timer(self) -> float | None:
        while self._timers and self._next.get((self._timers[0][2], self._timers[0][3])) != self._timers[0][0]:
            heapq.heappop(self._timers)
        return self._timers[0][0] if self._timers else None

    # ---- subjects

    def _touched_subjects(self, subject_kind: str, touch: str, ev: LiveEvent) -> list:
        inc = self.incident
        if subject_kind == "unit":
            return list(inc.units) if "shots" in ev.whats else [ev.unit] if ev.unit in inc.units else []
        if subject_kind == "call":
            return [str(ev.attrs.get("ani") or ev.call or ev.id)]
        if subject_kind == "source":
            return [ev.source_id]
        if subject_kind == "report":
            return [ev.id] if "threat_ended" in ev.whats else list(inc.threat_reports)
        if subject_kind == "agency_pair":
            agencies = sorted(set(inc.agencies_on_scene()) | set(inc.channels))
            return [(a, b) for a, b in itertools.combinations(agencies, 2)]
        return ["incident"]

    def _subject(self, rule: Rule, key):
        inc = self.incident
        return {"unit": inc.units.get, "call": inc.calls.get, "source": inc.cameras.get,
                "report": inc.threat_reports.get, "agency_pair": lambda k: k,
                "incident": lambda k: inc}[rule.subject](key)

    def _name(self, rule: Rule, key, subject) -> str:
        if rule.subject == "unit":
            return subject.name
        if rule.subject == "call":
            return f"caller {key}"
        if rule.subject == "source":
            return subject.name
        if rule.subject == "agency_pair":
            return " / ".join(key)
        if rule.subject == "report":
            return f"report {key}"
        return "incident"

    # ---- one rule for one subject, now

    def _evaluate(self, rule: Rule, key) -> list[Change]:
        subject = self._subject(rule, key)
        if subject is None:
            return []
        now, rk = self.now, (rule.name, key)
        truths: list[Truth] = []
        for run, params in self._tests[rule.name]:
            t = run(self.incident, subject, now, **params)
            truths.append(t)
            if not t.ok:
                break
        alert = self.active.get(rk)
        if not truths[-1].ok:
            if alert is None:
                return []
            return [self._clear(rk, alert, truths[-1].reason, now)]
        since = max(t.since for t in truths)
        since = now if since == -math.inf else since
        until = min(t.until for t in truths)
        evidence = list(dict.fromkeys(e for t in truths for e in t.evidence))[:EVIDENCE_KEPT]
        values = {k: v for t in truths for k, v in t.values.items()}
        if until != math.inf:
            self._schedule(rk, until)
        due = since + rule.hold_s * 1000
        if alert is None:
            if now < due:
                self._schedule(rk, due)
                return []
            n = self.episodes[rk] = self.episodes.get(rk, 0) + 1
            alert = Alert(rule, self._name(rule, key, subject), key, n, since, now, evidence,
                          values | {"held_s": (now - since) / 1000})
            self.active[rk] = alert
            self.history.append(alert)
            return [Change("fire", alert, now)]
        grown = set(evidence) - set(alert.evidence)
        # who it was in front of when it fired stays what it was
        kept = {k: alert.values[k] for k in ("seen_by",) if k in alert.values}
        alert.values = values | {"held_s": (now - since) / 1000} | kept
        if grown:
            alert.evidence = (alert.evidence + [e for e in evidence if e in grown])[-EVIDENCE_KEPT:]
            alert.updated_at = now
            return [Change("update", alert, now)]
        return []

    def _clear(self, rk, alert: Alert, reason: str | None, now: float) -> Change:
        del self.active[rk]
        alert.cleared_at, alert.clear_reason = now, reason or "no_longer_holds"
        return Change("clear", alert, now)

    def _schedule(self, rk, at: float) -> None:
        # never at the present moment itself: a test holding until `now` is re-asked just after
        at = max(at, self.now + 1)
        if self._next.get(rk) is not None and self._next[rk] <= at:
            if self._next[rk] > self.now:
                return  # an earlier evaluation is already due; it schedules the next
        self._next[rk] = at
        heapq.heappush(self._timers, (at, next(self._seq), rk[0], rk[1]))
