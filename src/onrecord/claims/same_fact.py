"""One fact told as different measures: a delay, an offset and a clock time set on one
scale, so accounts that tell it differently can still be found to disagree.

Three checks, each within one incident, each naming the claims it rests on:

- **A delay or an offset against a clock time.** "Officers arrived within two minutes of
  the initial call" is a first arrival between the call's clock time (another claim of the
  incident: "9:35:39 a.m. — initial 911 call") and two minutes after it. Set against the
  earliest clock time another document gives for that moment ("9:39:00 — Officer X
  arrives"), the two cannot both hold when the intervals do not overlap. A delay that
  names no start ("deputies arrived within four minutes") is tried from every start the
  incident's clocks give, and conflicts only when none fits.
- **A part larger than its whole.** Officers who stayed outside, went in or waited are
  officers on the scene: "four deputies stayed outside" cannot hold beside "only one
  deputy was on the scene" (same agency, same window).
- **Shots after the stated end of the shooting.** "The gunman stopped shooting at 2:18
  a.m." cannot hold beside "gunfire started again at 2:28 a.m." or "shots were heard up to
  16 minutes later".
"""

from __future__ import annotations

import re

from onrecord.claims.conflicts import exhaustive
from onrecord.claims.records import Conflict
from onrecord.claims.verbs import event_kind
from onrecord.model import Claim

TARGET = {"duration_to_arrival": "arrival", "duration_to_entry": "entry"}
# Words that name an incident's moment in an anchor when its verb is missing ("the call").
ANCHOR_WORDS = [("call_911", re.compile(r"\bcalls?\b", re.I)),
                ("shooting_start", re.compile(r"\b(?:shooting|attack|gunfire|shots|rampage|spree)\b", re.I))]
PARTS = {"count_officers_outside", "count_officers_entered", "count_officers_waiting"}
SHOTS_ON = re.compile(r"\b(?:gunfire|shooting|shots?|firing)\s+(?:\w+\s+){0,2}(?:started|resumed|continued"
                      r"|began)\s+again"
                      r"|\b(?:shots?|gunfire|gunshots?)\s+(?:were|was)\s+(?:still\s+)?(?:heard|fired)"
                      r"|\bheard\s+(?:more\s+)?(?:gun)?(?:shots|gunfire)|\bstill\s+(?:shooting|firing)", re.I)


def anchor_event(anchor: str | None) -> str | None:
    if not anchor:
        return None
    kind = event_kind(anchor)
    if kind:
        return kind
    return next((k for k, rx in ANCHOR_WORDS if rx.search(anchor)), None)


def _other_account(a: Claim, b: Claim) -> bool:
    """Two accounts: another document, or in one article another speaker ("the chief said
    within two minutes; the colonel said about eight minutes after the call")."""
    return a.doc != b.doc or (a.speaker is not None and b.speaker is not None and a.speaker != b.speaker)


def _same_actor(a: Claim, b: Claim) -> bool:
    """One person's arrival is set only against that person's; an arrival of officers in
    general ("the first swarm of officers") against the first arrival of anyone."""
    pa, pb = (a.subject or "").startswith("person:"), (b.subject or "").startswith("person:")
    return a.subject == b.subject if pa and pb else not pa


def _clock(c: Claim) -> bool:
    return c.measure == "time_of_action" and c.unit == "minute_of_day"


def _event(c: Claim) -> str | None:
    return (c.time_ref or {}).get("event")


def _to_minutes(c: Claim) -> tuple[float | None, float | None] | None:
    """An offset or a delay in minutes ([lo, hi] after its anchor; before is negative)."""
    f = {"minute": 1, "second": 1 / 60, "hour": 60}.get(c.unit)
    if f is None:
        return None
    lo, hi = (None if c.lo is None else c.lo * f), (None if c.hi is None else c.hi * f)
    if (c.time_ref or {}).get("relation") == "before":
        lo, hi = (None if hi is None else -hi), (None if lo is None else -lo)
    return lo, hi


def _add(a, b):
    return None if a is None or b is None else a + b


def _apart(lo1, hi1, lo2, hi2) -> bool:
    inf = float("inf")
    return max(-inf if lo1 is None else lo1, -inf if lo2 is None else lo2) > \
        min(inf if hi1 is None else hi1, inf if hi2 is None else hi2)


EARLIEST: set[str] = set()  # set by cross_measure_conflicts for the claims it is given


def _as_first(c: Claim) -> tuple[float | None, float | None] | None:
    """What a clock time says of the first such moment (occurrences.py): a first one as it
    is, an unmarked call or arrival no more than that the first came no later, a second
    or a last one nothing."""
    from onrecord.claims.occurrences import occurrence

    kind = occurrence(c, EARLIEST)
    return None if kind == "later" else (None, c.hi) if kind == "unmarked" else (c.lo, c.hi)


def _fmt(v: float | None) -> str:
    return "…" if v is None else f"{int(v) // 60 % 24:02d}:{int(v) % 60:02d}"


def cross_measure_conflicts(claims: list[Claim], incident_of: dict[str, str],
                            side) -> list[Conflict]:
    """The three checks above; `side(claim)` renders one side as find_conflicts does."""
    from onrecord.claims.occurrences import earliest_in_documents

    EARLIEST.clear()
    EARLIEST.update(earliest_in_documents(claims))
    out: list[Conflict] = []
    by_incident: dict[str, list[Claim]] = {}
    for c in claims:
        by_incident.setdefault(incident_of.get(c.doc, ""), []).append(c)
    for incident, cs in by_incident.items():
        out += _delays_against_clocks(cs, incident, side)
        out += _delays_against_offsets(cs, incident, side)
        out += _parts_larger_than_whole(cs, incident, side)
        out += _shots_after_end(cs, incident, side)
        out += _entry_before_arrival(cs, incident, side)
        out += _age_ranges(cs, incident, side)
    return out


def _age_ranges(cs: list[Claim], incident: str, side) -> list[Conflict]:
    """Two ranges of the ages of one group (the dead) that disagree on the youngest or the
    oldest, though they overlap; a youngest ("as young as 18 months") outside the range."""
    ranges = [c for c in cs if c.measure == "age" and (c.time_ref or {}).get("ages") == "range"]
    ends = [c for c in cs if c.measure == "age" and (c.time_ref or {}).get("ages") in {"youngest", "oldest"}]
    out = []
    for i, a in enumerate(ranges):
        for b in ranges[i + 1:]:
            if a.doc != b.doc and a.qualifier == b.qualifier and (abs(a.lo - b.lo) > 0.01 or abs(a.hi - b.hi) > 0.01):
                out.append(Conflict("incident", "age", "year", [side(a), side(b)],
                                    f"the ages {a.qualifier} run {a.lo:g}–{a.hi:g} in one and {b.lo:g}–{b.hi:g} "
                                    f"in the other: the youngest and the oldest cannot both be", incident))
        for e in ends:
            if e.doc == a.doc or e.qualifier not in {a.qualifier, "of the victims"}:
                continue
            edge = a.lo if (e.time_ref or {}).get("ages") == "youngest" else a.hi
            if abs(e.lo - edge) > 0.01:
                out.append(Conflict("incident", "age", "year", [side(a), side(e)],
                                    f"the {(e.time_ref or {})['ages']} {a.qualifier} is {edge:g} in one and "
                                    f"{e.lo:g} in the other", incident))
    return out


def _delays_against_clocks(cs: list[Claim], incident: str, side) -> list[Conflict]:
    out = []
    clocks = [c for c in cs if _clock(c) and _event(c)]
    for d in cs:
        target = TARGET.get(d.measure) or (_event(d) if d.measure == "time_of_action" and not _clock(d) else None)
        start_event = anchor_event((d.time_ref or {}).get("anchor"))
        if target and start_event is None and d.measure in TARGET:
            out += _unanchored_delay(d, target, clocks, incident, side)
            continue
        offset = _to_minutes(d) if target and start_event and start_event != target else None
        if offset is None:
            continue
        for a in (c for c in clocks if _event(c) == start_event and _as_first(c) is not None):
            start = _as_first(a)
            lo, hi = _add(start[0], offset[0]), _add(start[1], offset[1])
            if lo is None and offset[0] is None and start[0] is not None:
                lo = start[0]  # a delay is never before its start
            # each document's first time for the moment, of any voice; set against the delay
            # only when it is another account's
            stated = [c for c in clocks if _event(c) == target and c is not a
                      and _same_actor(d, c) and _as_first(c) is not None]
            for doc in sorted({c.doc for c in stated}):
                first = min((c for c in stated if c.doc == doc), key=lambda c: (c.lo is None, c.lo or 0))
                if _other_account(d, first) and _apart(lo, hi, *_as_first(first)):
                    out.append(Conflict(
                        "incident", "time_of_action", "minute_of_day", [side(d), side(first)],
                        f"{d.text!r} after {a.text!r} ({_fmt(a.lo)}, claim {a.id}) puts the {target} at "
                        f"{_fmt(lo)}–{_fmt(hi)}; {first.doc} gives the first {target} at {_fmt(first.lo)}",
                        incident))
    return out


# Where a delay that names no start may count from: the first call, the first shots, the gunman's entry
STARTS = ("call_911", "shooting_start", "shooter_entry")


def _unanchored_delay(d: Claim, target: str, clocks: list[Claim], incident: str, side) -> list[Conflict]:
    """'Deputies arrived within four minutes' names no start: it cannot hold beside another
    document's first arrival only if it cannot from any start the incident's clocks give
    (each call, shot or entry of the gunman timed; for going in, each arrival too), so no
    reading of the start is forced."""
    delay = _to_minutes(d)
    # time to go in is as often counted from the officers' own arrival
    kinds = STARTS + (("arrival",) if target == "entry" else ())
    starts = [c for c in clocks if _event(c) in kinds and c.lo is not None and _as_first(c) is not None]
    if delay is None or not starts:
        return []
    out = []
    stated = [c for c in clocks if _event(c) == target and _same_actor(d, c) and _as_first(c) is not None]
    for doc in sorted({c.doc for c in stated}):
        first = min((c for c in stated if c.doc == doc), key=lambda c: (c.lo is None, c.lo or 0))
        if not _other_account(d, first):
            continue  # the document's first time is the delay's own account
        spans = [(_add(st[0], delay[0]) if delay[0] is not None else st[0], _add(st[1], delay[1]))
                 for st in map(_as_first, starts)]
        if all(_apart(lo, hi, *_as_first(first)) for lo, hi in spans):
            a = min(starts, key=lambda c: c.lo)
            out.append(Conflict(
                "incident", "time_of_action", "minute_of_day", [side(d), side(first)],
                f"{d.text!r} from any start the accounts time (the earliest {a.text!r}, {_fmt(a.lo)}, claim "
                f"{a.id}) cannot reach {doc}'s first {target} at {_fmt(first.lo)}", incident))
    return out


def _delays_against_offsets(cs: list[Claim], incident: str, side) -> list[Conflict]:
    """'Deputies arrived within seven minutes' against 'deputies arrived about 10 minutes
    after the shooting began': two offsets of one moment from one start. A delay that names
    no start is counted from the first call or the first shots (whichever the other names)."""
    out = []
    offsets = [c for c in cs if c.measure == "time_of_action" and not _clock(c) and _event(c)
               and anchor_event((c.time_ref or {}).get("anchor"))]
    for d in cs:
        target = TARGET.get(d.measure)
        if target is None or _to_minutes(d) is None:
            continue
        start = anchor_event((d.time_ref or {}).get("anchor"))
        starts = {start} if start else {"call_911", "shooting_start"}
        for o in offsets:
            if not _other_account(d, o) or _event(o) != target or anchor_event(o.time_ref["anchor"]) not in starts \
                    or not (_same_actor(d, o) and _same_actor(o, d)):
                continue
            (dlo, dhi), (olo, ohi) = _to_minutes(d), _to_minutes(o)
            if _apart(dlo, dhi, olo, ohi):
                out.append(Conflict(incident and "incident", "duration_to_" + target, "minute", [side(d), side(o)],
                                    f"{d.text!r} and {o.text!r} are two offsets of the {target} from "
                                    f"{o.time_ref['anchor']!r} that do not overlap", incident))
    return out


def _parts_larger_than_whole(cs: list[Claim], incident: str, side) -> list[Conflict]:
    """One conflict per document of parts and whole: of one article's counts ("three deputies
    ...", then "with Peterson, four") the largest is set against the whole."""
    best: dict[tuple[str, str], tuple[Claim, Claim]] = {}
    wholes = [c for c in cs if c.measure == "count_officers_on_scene" and c.subject]
    for p in cs:
        if p.measure not in PARTS or p.lo is None:
            continue
        for w in wholes:
            same_window = (p.time_ref or {}).get("during") == (w.time_ref or {}).get("during")
            if w.subject == p.subject and same_window and w.hi is not None and p.lo > w.hi and p.doc != w.doc \
                    and exhaustive(w):  # "only one deputy was on the scene": all there were
                key = (p.doc, w.id)
                if key not in best or p.lo > best[key][0].lo:
                    best[key] = (p, w)
    return [Conflict(p.subject, p.measure, "officers", [side(p), side(w)],
                     f"{p.lo:g} officers said to be {p.measure.removeprefix('count_officers_')} "
                     f"are more than the {w.hi:g} said to be on the scene", incident) for p, w in best.values()]


def _shots_after_end(cs: list[Claim], incident: str, side) -> list[Conflict]:
    out = []
    ends = [c for c in cs if _clock(c) and _event(c) == "shooting_end" and c.hi is not None]
    for s in cs:
        if s.measure != "time_of_action" or not SHOTS_ON.search(s.sentence) or _event(s) == "shooting_end":
            continue
        for e in ends:
            if e is s:
                continue
            if _clock(s):
                after = s.lo is not None and s.lo > e.hi
            else:
                ref = s.time_ref or {}
                # "up to 16 minutes later": later than the time said just before it
                after = ref.get("relation") == "after" and ref.get("anchor") is None and s.doc == e.doc \
                    and 0 < s.sentence_start - e.sentence_start < 600
            if after:
                out.append(Conflict("incident", "time_of_action", "minute_of_day", [side(e), side(s)],
                                    f"the shooting is said to have ended at {_fmt(e.hi)}, and shots after it",
                                    incident))
    return out


def _entry_before_arrival(cs: list[Claim], incident: str, side) -> list[Conflict]:
    """'By 10:45 the first officers had gone in' cannot hold beside another account's 'police
    arrived at 10:46': an agency's officers go in only after they arrive. Each document's
    first entry of one agency (or of officers unnamed) against another account's first
    arrival of the same; a first time as occurrences.py reads it, never an unmarked one."""
    from onrecord.claims.occurrences import occurrence

    def firsts(event: str) -> dict[tuple[str, str], Claim]:
        best: dict[tuple[str, str], Claim] = {}
        for c in cs:
            if _clock(c) and _event(c) == event and occurrence(c, EARLIEST) == "first" and c.subject \
                    and c.subject.startswith(("org:", "group:officers")):
                key = (c.doc, c.subject)
                if key not in best or (c.hi or 0) < (best[key].hi or 0):
                    best[key] = c
        return best
    out = []
    arrivals = firsts("arrival")
    for (doc, subject), e in firsts("entry").items():
        for (adoc, asubject), a in arrivals.items():
            if asubject == subject and _other_account(e, a) and e.hi is not None and a.lo is not None \
                    and e.hi < a.lo:
                out.append(Conflict(subject, "time_of_action", "minute_of_day", [side(e), side(a)],
                                    f"officers are said to have gone in by {_fmt(e.hi)}, before {adoc} has them "
                                    f"arrive at {_fmt(a.lo)}", incident))
    return out

