"""What one reader is shown of the board: the board's picture (service.py, Board.snapshot)
filtered as the reader door filters the case for them (store/read_access.py, redact.py).

- Sources withheld from the reader (restricted to an agency they are not of): their events
  are in no list (shots, calls, evidence), their feeds and rejected frames are not listed,
  a unit whose current status only they record is not shown, and an alert resting on any
  of their events keeps its rule, title and subject but says it is withheld — no values,
  no sentence of them, its evidence only what the reader may read (as a finding does on
  the web).
- Protected people's names are their pseudonyms in every string shown, for roles without
  the `personal` right.
"""

from __future__ import annotations

from onrecord.findings.render import WITHHELD
from onrecord.store.redact import Redactor

NOT_KNOWN = -1  # an event whose source the board no longer holds: withheld from anyone withheld any source


def shown(picture: dict, withheld: frozenset[int], redactor: Redactor) -> dict:
    """The picture as this reader may see it (a new dict; the board's own is not changed)."""
    if not withheld and not redactor:
        return picture
    out = dict(picture)
    if withheld:
        out |= _without(picture, withheld)
    return _redacted(out, redactor) if redactor else out


def shown_alerts(findings: list[dict], event_sources: dict[int, int], withheld: frozenset[int],
                 redactor: Redactor) -> list[dict]:
    """The alerts' findings (as dicts) for this reader: one resting on a withheld source's
    event says so, as a finding does on the web (store/read_records.py)."""
    out = []
    for f in findings:
        hidden = [e for e in f["evidence"] if event_sources.get(e, NOT_KNOWN) in withheld or
                  (withheld and e not in event_sources)]
        if hidden:
            f = f | {"status": "withheld", "withheld": True, "value_lo": None, "value_hi": None,
                     "payload": {"reason": "evidence_withheld", "alert": f["payload"].get("alert"),
                                 "title": f["payload"].get("title")},
                     "evidence": [e for e in f["evidence"] if e not in set(hidden)]}
        else:
            f = f | {"withheld": False}
        out.append(_redacted(f, redactor) if redactor else f)
    return out


def _without(p: dict, withheld: frozenset[int]) -> dict:
    def readable(item: dict) -> bool:
        return item.get("source", NOT_KNOWN) not in withheld and item.get("source") is not None

    feeds = [f for f in p["feeds"] if f.get("source") not in withheld]
    names = {f["feed"] for f in feeds}
    agencies = {}
    for agency, units in p["agencies"].items():
        keep = [u for u in units if any(s not in withheld and s != NOT_KNOWN for s in u.get("sources", ()))]
        if keep:
            agencies[agency] = keep
    last = p.get("last_event")
    return {"agencies": agencies, "alerts": [_alert(a, withheld) for a in p["alerts"]],
            "cleared": [_alert(c, withheld) for c in p["cleared"]],
            "shots": [s for s in p["shots"] if readable(s)], "calls": [c for c in p["calls"] if readable(c)],
            "feeds": feeds, "rejects": [r for r in p["rejects"] if r.get("feed") in names],
            "last_event": last if last is None or readable(last) else None}


def _alert(a: dict, withheld: frozenset[int]) -> dict:
    if not any(s in withheld or s == NOT_KNOWN for s in a.get("sources", ())):
        return a
    evidence = [e for e in a.get("evidence", ()) if e.get("source", NOT_KNOWN) not in withheld and "source" in e]
    keep = {k: a.get(k) for k in ("alert", "rule", "title", "subject", "severity", "held_since", "fired_at",
                                  "cleared_at", "logged", "acknowledged")}
    return keep | {"withheld": True, "values": None, "sentence": WITHHELD, "reason": "evidence withheld",
                   "evidence": evidence, "sources": []}


def _redacted(value, redactor: Redactor):
    if isinstance(value, str):
        return redactor.text(value)
    if isinstance(value, dict):
        return {k: _redacted(v, redactor) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(v, redactor) for v in value]
    return value
