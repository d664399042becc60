"""Which call a unit is on when the radio has it arriving somewhere.

A radio line names a unit, never the call it is on: "Medic 455 10-97 229 Underhill Ln" is
an arrival, but at another call's address. CAD knows which call the unit is on: each of
its statuses (dispatched, en route, on scene, clear) is filed under a call number. A radio
arrival is an arrival on the incident's scene only if the unit's CAD statuses put it on an
incident call at that time; a unit CAD has on another call then, or on no call of the
incident at all, was somewhere else: where the agency's own CAD files its units' statuses
under the incident's call, a unit of that agency it never files there was not sent to it (the case's CAD
export holds the incident's calls, not the afternoon's other business, so its other calls
may be missing altogether). Where the agency's own CAD files none of its units under an
incident call (an agency without a CAD export, or whose export is a calls table; a few of
its units filed as mutual aid by another agency's CAD), the radio line stands: nothing
says otherwise.

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


def statuses_by_unit(moments, cad_ids=frozenset()) -> dict:
    """unit -> [(best, lo, hi, calls)] of its CAD statuses (moments with a CAD call), in time
    order; `cad_ids`: the ids of CAD records, whose statuses with no call number (a unit
    status log beside the calls table) put the unit in CAD on a call not named: calls None."""
    out: dict = {}
    for m in moments:
        if m.family in STATUS_FAMILIES and not m.calls and m.who is not None \
                and any(i in cad_ids for i in m.members):
            out.setdefault(m.who, []).append((m.best, m.lo, m.hi, None))
            continue
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
    if mine and any(c is None for *_, c in mine):
        return ON  # CAD has the unit's statuses but not which call they are on: nothing says elsewhere
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


def own_cad_agencies(statuses: dict, incident_calls, units: dict, events) -> frozenset:
    """The agencies whose own CAD (a CAD source imported for that agency) files one of
    their units' statuses under an incident call."""
    if not incident_calls or events is None or "agency" not in events or "source_kind" not in events:
        return frozenset()
    cad = events[events["source_kind"] == "cad"]
    agency_of = dict(zip(cad["source_id"].astype(str), cad["agency"]))
    out = set()
    for unit, st in statuses.items():
        agency = units.get(unit, {}).get("agency")
        if agency is not None and any(agency_of.get(c.split("#", 1)[0]) == agency
                                      for *_, calls in st for c in (calls or frozenset()) & incident_calls):
            out.add(agency)
    return frozenset(out)
