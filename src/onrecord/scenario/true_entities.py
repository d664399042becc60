"""The true entities: every officer, unit and agency, and the people in prior records."""

from __future__ import annotations

from onrecord.scenario.story import Story


def entities_section(story: Story) -> dict:
    w, out = story.world, {}
    for code, a in w.agencies.items():
        out[code] = {"kind": "agency", "name": a.name}
    for u in w.units:
        out[u.uid] = {"kind": "unit", "agency": u.agency, "role": u.role, "cad_id": u.cad_id,
                      "call_sign": u.call_sign, "vehicle": u.vehicle, "crew": u.crew, "armed": u.armed}
    for p in w.people.values():
        out[p.pid] = {"kind": "person", "name": f"{p.first} {p.middle}. {p.last}", "agency": p.agency,
                      "rank": p.rank, "badge": p.badge, "dob": p.dob.isoformat()}
    a = story.attacker
    out[a.pid] = {"kind": "person", "name": f"{a.first} {a.middle}. {a.last}", "role": "attacker",
                  "dob": a.dob.isoformat(), "address": a.address, "phone": a.phone}
    out["lookalike_officers"] = list(w.lookalikes)
    return out
