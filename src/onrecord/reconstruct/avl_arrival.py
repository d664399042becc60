"""An arrival seen in AVL: the car's GPS fixes bound when it got there.

CAD marks a car on scene when an AVL fix puts it inside the incident's geofence, and keeps
its copy of that fix (fusion joins the copy to the AVL log's own record of the fix). The
car was there by that fix, and not yet at the fix before it: its arrival lies between the
two, whatever the radio and the dispatcher's typing say later. The unit's arrival moment
keeps its reports as members and gains the two fixes as evidence.
"""

from __future__ import annotations

from collections import defaultdict

from onrecord.reconstruct.moments import MomentRow


def tighten_arrivals(moments: list[MomentRow], t_lo: dict, t_hi: dict, source_kind: dict,
                     copies: set | frozenset = frozenset()) -> None:
    """`t_lo`/`t_hi`: each event's aligned interval (UTC ms); `source_kind`: its source's
    kind; `copies`: CAD arrivals found to be copies of fixes (avl_copies.py)."""
    fixes: dict[object, list[int]] = defaultdict(list)   # unit -> its AVL fixes, every one
    geofenced: dict[object, int] = {}                    # unit -> the fix CAD took as on scene

    def took(unit, fix: int) -> None:
        if unit not in geofenced or t_lo[fix] < t_lo[geofenced[unit]]:
            geofenced[unit] = fix

    for m in moments:
        if m.family != "unit_position" or m.who is None:
            continue
        avl = [i for i in m.members if source_kind.get(i) == "avl"]
        fixes[m.who] += avl
        if avl and any(source_kind.get(i) == "cad" for i in m.members):
            took(m.who, min(avl, key=lambda i: t_lo[i]))
    for m in moments:  # an arrival mapped as unit_arrived that copies a fix: that fix
        if m.located:
            continue
        for c in (i for i in m.members if i in copies) if m.family == "unit_arrived" and m.who in fixes else ():
            mid = (t_lo[c] + t_hi[c]) / 2
            took(m.who, min(fixes[m.who], key=lambda i: abs((t_lo[i] + t_hi[i]) / 2 - mid)))
    for m in moments:
        if m.located:
            continue  # located already by its geofence crossing (geofence.py)
        fix = geofenced.get(m.who) if m.family == "unit_arrived" else None
        if fix is None or m.lo > t_hi[fix]:
            continue  # no fix, or an arrival after it (another call)
        before = [i for i in fixes[m.who] if t_hi[i] < t_lo[fix]]
        prev = max(before, key=lambda i: t_lo[i]) if before else None
        lo = max(m.lo, t_lo[prev]) if prev is not None else m.lo
        hi = min(m.hi, t_hi[fix])
        if lo > hi:
            continue  # the clocks disagree more than their uncertainty: keep what the reports say
        m.lo, m.hi, m.best = lo, hi, min(max(m.best, lo), hi)
        m.located = [i for i in (prev, fix) if i is not None]
