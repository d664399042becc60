"""The tests a rule's `[[when]]` blocks name: small building blocks a rule composes (as
Splink composes comparisons). Each asks one thing of the incident about one subject at a
moment `now` and answers with a Truth: whether it holds, since when the records say it
has held, until when it holds unless something new happens, and the events it rests on.

TESTS is the registry (listed in extensions.py); docs/live.md describes each, with its
parameters. A test names the subjects it can be asked about.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from onrecord.live.state import ON_SCENE, Incident

NEVER = math.inf


@dataclass
class Truth:
    ok: bool
    since: float = -NEVER  # the records say it has held since (UTC ms)
    until: float = NEVER  # it stops holding then unless an event changes it (time passing)
    evidence: list[int] = field(default_factory=list)
    values: dict = field(default_factory=dict)
    reason: str | None = None  # why it does not hold: the clear reason of an alert it held up


def no(reason: str, **values) -> Truth:
    return Truth(False, reason=reason, values=values)


@dataclass(frozen=True)
class Test:
    run: Callable[..., Truth]  # (incident, subject, now, **params) -> Truth
    subjects: frozenset[str]  # the subject kinds it can be asked about
    params: dict  # name -> (type, default or REQUIRED)
    doc: str


REQUIRED = object()
TESTS: dict[str, Test] = {}
ANY = frozenset({"unit", "call", "source", "agency_pair", "report", "incident"})


def test(name: str, subjects, **params):
    def register(fn):
        TESTS[name] = Test(fn, frozenset(subjects), params, (fn.__doc__ or "").strip().splitlines()[0])
        return fn
    return register


# ---- units

@test("unit_armed", {"unit"})
def unit_armed(inc: Incident, u, now):
    """The unit is armed (law enforcement; not fire or EMS apparatus)."""
    return Truth(True) if u.armed else no("unit_not_armed")


@test("unit_status", {"unit"}, is_=(list, REQUIRED), since=(str, None))
def unit_status(inc: Incident, u, now, is_, since=None):
    """The unit's status is one of `is` (dispatched, enroute, staging, on_scene, entered,
    available), counted from when it took it (or from the first time it was `since`)."""
    if u.status not in is_ or u.since is None or u.since > now:
        return no(f"unit_{u.status or 'unknown'}", status=u.status)
    start = u.first.get(since, u.since) if since else u.since
    ev = u.evidence.get(since or u.status, [])[:5]
    return Truth(True, since=start, evidence=ev, values={"status": u.status, "status_since": u.since})


@test("unit_at_incident", {"unit"})
def unit_at_incident(inc: Incident, u, now):
    """The unit is on the incident's call (the call most units were sent to once shots were
    recorded), or on no call a dispatch system recorded."""
    if u.call is None or u.call in inc.incident_calls():
        return Truth(True)
    return no("unit_on_other_call", call=u.call)


@test("shots_since_status", {"unit"}, grace_s=(float, 0.0), after_s=(float, 0.0))
def shots_since_status(inc: Incident, u, now, grace_s=0.0, after_s=0.0):
    """A shot recorded after the unit took its status (or no more than `grace_s` before;
    with `after_s`, at least that long after): the unit was there while shots continued,
    not only after the last one. `after_s` equal to the rule's hold fires only once a shot
    shows the shooting went on past the threshold (never on a unit the shots stopped for
    first), at the price of waiting through a lull for the next shot."""
    if u.since is None:
        return no("unit_unknown")
    lo = u.since - grace_s * 1000 if not after_s else u.since + after_s * 1000
    first = inc.first_shot_at_or_after(lo)
    if first is None or first.t > now:
        return no("no_shots_since_status")
    return Truth(True, evidence=[first.event])


# ---- shots (asked of any subject: "while shots are still being reported")

@test("shots_within", ANY, seconds=(float, REQUIRED), detected_only=(bool, False), shooting_gap_s=(float, None))
def shots_within(inc: Incident, subject, now, seconds, detected_only=False, shooting_gap_s=None):
    """Shots recorded (with detected_only: by a sensor or a camera only) in the last
    `seconds`; held since the first shot of the shooting (shots no more than
    `shooting_gap_s` apart, default `seconds`: a lull between bursts is one shooting)."""
    run = inc.shots_run(now, seconds, detected_only)
    if run is None:
        return no("shots_stopped")
    whole = inc.shots_run(now, max(shooting_gap_s or seconds, seconds), detected_only) or run
    return Truth(True, since=whole.start, until=run.end + seconds * 1000, evidence=[s.event for s in run.shots],
                 values={"shots": run.count, "first_shot": whole.start, "last_shot": run.end})


@test("shots_after_report", {"report"}, grace_s=(float, 0.0))
def shots_after_report(inc: Incident, report, now, grace_s=0.0):
    """Shots recorded more than `grace_s` after a report that the threat has ended."""
    t, ev = report
    after = [s for s in inc.shots if t + grace_s * 1000 < s.t <= now]
    if not after:
        return no("no_shots_after_report")
    return Truth(True, since=after[0].t, evidence=[ev.id] + [s.event for s in after[:10]],
                 values={"reported_at": t, "shots_after": len(after), "first_after": after[0].t,
                         "report_text": ev.text})


# ---- calls

@test("call_waiting_after_transfer", {"call"})
def call_waiting_after_transfer(inc: Incident, c, now):
    """A 911 call transferred to another answering point and not yet presented or answered there."""
    if c.transferred is None or c.transferred[0] > now:
        return no("not_transferred")
    if c.after_transfer is not None and c.after_transfer[0] <= now:
        return no("answered_after_transfer", answered_at=c.after_transfer[0])
    first = c.rings[0][0] if c.rings else c.transferred[0]
    return Truth(True, since=c.transferred[0], evidence=[e for _, e in c.rings[:1]] + [c.transferred[1]],
                 values={"first_ring": first, "transferred_at": c.transferred[0]})


# ---- sources

@test("camera_lag_over", {"source"}, seconds=(float, REQUIRED))
def camera_lag_over(inc: Incident, cam, now, seconds):
    """The latest camera view called live shows footage more than `seconds` old."""
    views = [v for v in cam.views if v[0] <= now]
    if not views or views[-1][1] <= seconds:
        return no("camera_lag_within", lag_s=views[-1][1] if views else None)
    i = len(views) - 1
    while i > 0 and views[i - 1][1] > seconds:
        i -= 1
    streak = views[i:]
    return Truth(True, since=streak[0][0], evidence=[v[2] for v in streak[:3] + streak[-5:]],
                 values={"lag_s": views[-1][1], "camera": cam.name, "views": len(streak)})


# ---- agencies

@test("agencies_on_scene", {"agency_pair"})
def agencies_on_scene(inc: Incident, pair, now):
    """Both agencies of the pair have units on scene (outside or entered; staging is not on scene)."""
    on = inc.agencies_on_scene()
    since, ev = [], []
    for agency in pair:
        units = [u for u in on.get(agency, []) if u.since is not None and u.since <= now]
        if not units:
            return no("agency_left_scene", agency=agency)
        first = min(units, key=lambda u: u.first.get("on_scene", u.since))
        since.append(min(u.first.get(s, u.since) for u in units for s in ON_SCENE if s in u.first))
        ev += [e for s in ON_SCENE for e in first.evidence.get(s, [])[:1]]
    return Truth(True, since=max(since), evidence=ev)


@test("no_shared_channel", {"agency_pair"})
def no_shared_channel(inc: Incident, pair, now):
    """The two agencies' units talk on no common radio channel, and no patch joins theirs."""
    shared, ev = inc.share_a_channel(*pair, now)
    if shared:
        return no("channel_shared", evidence=ev)
    chans = {a: sorted(inc.channels.get(a, {})) for a in pair}
    return Truth(True, evidence=[e for a in pair for e in list(inc.channels.get(a, {}).values())[:2]],
                 values={"channels": chans})
