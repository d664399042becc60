"""What the report says, gathered through the CaseReader: every row keeps its source line."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from onrecord import timetext
from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.reader import CaseReader
from onrecord.views.web import present, shape

# The kinds a reader of the critical minutes needs; positions and rosters would drown them.
CRITICAL_KINDS = ("call_received", "call_transferred", "call_answered", "incident_created", "unit_dispatched",
                  "unit_enroute", "unit_arrived", "entry", "exit", "shots_reported", "shots_detected",
                  "radio_transmission", "door_event", "alarm", "patient_contact", "patient_transported",
                  "incident_closed")
STATUS_KINDS = ("unit_dispatched", "unit_enroute", "unit_arrived", "entry")
MAX_TIMELINE_ROWS = 400
CRITICAL_SPAN_MS = 30 * 60_000


def _rows(reader: CaseReader, q: TimelineQuery) -> list[dict]:
    out, after = [], None
    while True:
        page = reader.timeline(replace(q, after=after, limit=2000))
        out += page.events
        after = page.next
        if after is None or len(out) >= q.limit:
            return out[:q.limit]


def unit_table(reader: CaseReader, window: tuple[int, int]) -> list[dict]:
    """Per unit: its first dispatch, en route, arrival and entry, each with the line it rests on."""
    units: dict[tuple, dict] = {}
    for r in _rows(reader, TimelineQuery(t_from=window[0], t_to=window[1], kinds=STATUS_KINDS, limit=50_000)):
        if not r["unit"]:
            continue
        u = units.setdefault((r["agency"] or "", r["unit"]), {"agency": r["agency"], "unit": r["unit"]})
        u.setdefault(r["kind"], r)  # rows come in time order: the first one stays
    return sorted(units.values(), key=lambda u: min(u[k]["t_lo"] for k in STATUS_KINDS if k in u))


def critical_minutes(reader: CaseReader, window: tuple[int, int]) -> tuple[int, int]:
    """From five minutes before the first shot in the window (calls about it may be timed on
    unsure clocks), else two minutes before the first call; for half an hour."""
    start = window[0]
    for kinds, lead_ms in ((("shots_detected", "shots_reported"), 5 * 60_000), (("call_received",), 2 * 60_000)):
        first = reader.timeline(TimelineQuery(t_from=window[0], t_to=window[1], kinds=kinds, limit=1)).events
        if first:
            start = first[0]["t_lo"] - lead_ms
            break
    return max(window[0], start), min(window[1], start + CRITICAL_SPAN_MS)


def metrics_with_lines(reader: CaseReader, zone, kind: str = "metric") -> list[dict]:
    """Findings of a kind (metrics; alerts), each with its evidence as file:line (a PDF cannot
    link to the case)."""
    found = [shape.finding_json(f, zone) for f in reader.findings(kind)]
    ids = {i for f in found for i in shape.evidence_ids(f["evidence"], "events")[:6]}
    lines = {d["id"]: f"{d['file_name']}:{d['ordinal']}" for d in reader.events_detail(ids)}
    for f in found:
        evs = shape.evidence_ids(f["evidence"], "events")
        f["lines"] = [lines[i] for i in evs[:6] if i in lines]
        f["more_lines"] = max(0, len(evs) - 6)
    return found


def gather(reader: CaseReader) -> dict:
    zone = reader.display_zone()
    window = reader.busiest_window()
    facets = reader.facets(window)
    built = reader.is_built()
    timeline, units = [], []
    metrics = metrics_with_lines(reader, zone)
    critical = None
    if window:
        critical = critical_minutes(reader, window)
        timeline = _rows(reader, TimelineQuery(t_from=critical[0], t_to=critical[1], kinds=CRITICAL_KINDS,
                                             limit=MAX_TIMELINE_ROWS + 1))
        # Units busy on other calls before the incident began are not part of its response.
        units = [u for u in unit_table(reader, window)
                 if min(u[k]["t_lo"] for k in STATUS_KINDS if k in u) >= critical[0]]
    shots = _rows(reader, TimelineQuery(t_from=window[0], t_to=window[1], kinds=("shots_detected",), limit=500)) \
        if window else []
    return {
        "case": reader.case, "zone": zone, "zone_label": timetext.zone_label(zone, window[0] if window else None),
        "built": built, "not_built": present.NOT_BUILT, "stale_build": reader.stale_build(),
        "colours": present.agency_colours(facets["agencies"]),
        "generated": timetext.when(int(datetime.now(timezone.utc).timestamp() * 1000), zone, seconds=False,
                                   millis=False),
        "window": window, "window_text": timetext.interval(*critical, zone) if critical else "no timed events",
        "units_from": timetext.when(critical[0], zone) if critical else None,
        "event_count": facets["events"], "source_count": len(reader.sources()),
        "metrics": [f for f in metrics if not f["subject"] or f["name"].startswith("agency_")],
        "unit_metrics": {(f["name"], f["subject"]): f for f in metrics if f["subject"]},
        "timeline": timeline[:MAX_TIMELINE_ROWS], "timeline_cut": len(timeline) > MAX_TIMELINE_ROWS,
        "units": units, "shots": shots, "discrepancies": shape.discrepancies(reader, zone),
        "alerts": metrics_with_lines(reader, zone, "alert"),
        "subjects": shape.subjects(reader, zone), "sources": shape.sources(reader, zone),
        "clock": "aligned" if built else "source",
        "annotations": [a | {"when": timetext.when(a["at_ms"], zone)} for a in reader.annotations()],
    }
