"""Which call a unit is on when the radio has it arriving somewhere.

A radio line names a unit, never the call it is on: "Medic 455 10-97 229 Underhill Ln" is
an arrival, but at another call's address. CAD knows which call the unit is on: each of
its statuses (dispatched, en route, on scene, clear) is filed under a call number. A radio
arrival is an arrival on the incident's scene only if the unit's CAD statuses put it on an
incident call at that time; a unit CAD has on another call then, or on no call of the
incident at all, was somewhere else: where CAD files the incident's call for the unit's
agency, a unit of that agency it never files there was not sent to it (the case's CAD
export holds the incident's calls, not the afternoon's other business, so its other calls
may be missing altogether). Where no CAD of the case files an incident call for the unit's
agency (an agency without a CAD export), the radio line stands: nothing says otherwise.

"At that time" is read with the slack of typed records: CAD's status for the arrival
itself is typed from the same radio report, up to TYPED_LAG_MS after it; the status
before it says which call the unit was sent to. The statuses in reach of the radio line
(the latest at or before it, and those typed within the lag after it) are the candidate
calls. All on incident calls: on scene. None: elsewhere. Both (a unit cleared from a call
and sent to the incident within the same minute): the records cannot tell, so the unit is
counted as maybe on scene, which widens the count's range, and no call is picked.
"""

from __future__ import annotations

from onrecord.reconstruct.fuse import REPORT_LAG_S

TYPED_LAG_MS = REPORT_LAG_S["unit_arrived"][2] * 1000  # a typed status trails its report by at most this
ON, ELSEWHERE, UNSURE = "on", "elsewhere", "unsure"
STATUS_FAMILIES = ("unit_dispatched", "unit_enroute", "unit_arrived", "unit_available", "staging", "entry")


def statuses_by_unit(moments) -> dict:
    """unit -> [(time, calls)] of its CAD statuses (moments with a CAD call), in time order."""
    out: dict = {}
    for m in moments:
        if m.family in STATUS_FAMILIES and m.calls and m.who is not None:
            # a unit cleared from a call is on none: its "available" says which call it left, not one it is on
            calls = frozenset() if m.family == "unit_available" else m.calls
            out.setdefault(m.who, []).append((m.best, m.lo, m.hi, calls))
    return {u: sorted(v, key=lambda x: x[0]) for u, v in out.items()}


def call_standing(m, statuses: dict, incident_calls, agency: str | None = None,
                  dispatched: frozenset = frozenset()) -> str:
    """Whether radio arrival `m` (no CAD call of its own) is on an incident call: ON,
    ELSEWHERE or UNSURE (see the module's note). `agency`: the unit's; `dispatched`: the
    agencies a CAD of the case files an incident call for."""
    if m.calls or not incident_calls:
        return ON  # CAD's own record says (the incident rule reads it), or no call to compare with
    mine = statuses.get(m.who)
    if not mine:
        # CAD files the incident for the unit's agency, never with this unit: not sent to it
        return ELSEWHERE if agency is not None and agency in dispatched else ON
    if not any(c & incident_calls for *_, c in mine):
        return ELSEWHERE  # CAD has it only on other calls
    before = [s for s in mine if s[1] <= m.hi]
    reach = ([before[-1]] if before else []) + [s for s in mine if m.hi < s[1] <= m.hi + TYPED_LAG_MS]
    # cleared (on no call): says nothing against the incident; the statuses after it do
    reach = [s for s in reach if s[3]]
    if not reach:
        return ON  # no call in reach of it; the unit is on the incident in CAD
    ours = [bool(c & incident_calls) for *_, c in reach]
    if all(ours):
        return ON
    if not any(ours):
        return ELSEWHERE
    return UNSURE
