"""Rows read from the case, shaped for JSON and for templates. Times: UTC ISO plus local
ISO in the case's zone, always side by side."""

from __future__ import annotations

from collections import defaultdict
from zoneinfo import ZoneInfo

from onrecord.findings.render import says, sentence, understood_parts
from onrecord.store.listing import event_row  # noqa: F401 (the list's row: stored once, store/listing.py)
from onrecord.store.reader import CaseReader
from onrecord.timetext import local_iso
from onrecord.views.web import present


def clock_json(clock: dict | None) -> dict | None:
    if not clock:
        return None
    keep = ("status", "offset_s", "uncertainty_s", "drift_ppm", "drift_ref_ms", "anchors", "note")
    return {k: clock.get(k) for k in keep} | {"applied": present.offset_text(clock)}


def report_json(d: dict, zone: ZoneInfo) -> dict:
    """One event as reported by one source: the line it came from and what was done to its time."""
    aligned = d["t_aligned_lo"] is not None
    return {
        "id": d["id"], "kind": d["kind"], "agency": d["agency"], "unit": d["unit"], "call": d["call"],
        "actor": d["actor"], "channel": d["channel"], "place": d["place"], "lat": d["lat"], "lon": d["lon"],
        "text": d["text"], "attributes": d["attrs"], "time_text": d["time_text"],
        # a built case's event whose source's clock nothing tied: as written, widened (docs/json.md)
        "clock": ("unknown" if d["clock"] and d["clock"].get("offset_s") is None else "aligned") if aligned
        else "source",
        "source_clock": present.times_json(d["t_src_lo"], d["t_src_hi"], zone),
        "aligned": present.times_json(d["t_aligned_lo"], d["t_aligned_hi"], zone) if aligned else None,
        "clock_estimate": clock_json(d["clock"]),
        "source": {"id": d["source_id"], "file": d["file_name"], "kind": d["source_kind"],
                   "agency": d["source_agency"], "timezone": d["timezone"], "file_sha256": d["file_sha256"]},
        "record": {"id": d["record_id"], "line": d["ordinal"], "path": d.get("path"), "seq": d["seq"],
                   "sha256": d["sha256"], "raw": d["raw"]},
        "fused_id": d["fused_id"],
    }


def fused_json(f: dict, zone: ZoneInfo) -> dict:
    return {"id": f["id"], "kind": f["kind"], **present.times_json(f["t_lo"], f["t_hi"], zone),
            "best": present.times_json(f["t_best"], f["t_best"], zone)["t_lo"], "agency": f["agency"],
            "place": f["place"], "label": f["label"], "report_count": f["reports"], "source_count": f["sources"],
            "withheld": bool(f.get("withheld")), "reports": [report_json(d, zone) for d in f["events"]]}


def event_detail(reader: CaseReader, event_id: int, zone: ZoneInfo) -> dict | None:
    d = reader.event_detail(event_id)
    if d is None:
        return None
    out = report_json(d, zone)
    fused = reader.fused_event(d["fused_id"]) if d["fused_id"] is not None else None
    out["fused"] = fused_json(fused, zone) if fused else None
    from onrecord.views.web.notes import annotation_json

    out["annotations"] = [annotation_json(a) for a in reader.annotations("event", [event_id])]
    return out


def finding_json(f: dict, zone: ZoneInfo) -> dict:
    return {"id": f["id"], "kind": f["kind"], "name": f["name"], "subject": f["subject"], "status": f["status"],
            "value_lo": f["value_lo"], "value_hi": f["value_hi"], "unit": f["unit"],
            "value_text": present.finding_value(f, zone), "summary": sentence(f, zone), "payload": f["payload"],
            "evidence": f["evidence"], "withheld": bool(f.get("withheld"))}


def claim_json(c: dict, zone: ZoneInfo) -> dict:
    """A claim and, where the records could speak to it, their verdict, worded in `zone`."""
    keep = ("id", "source_id", "event_id", "span_lo", "span_hi", "sentence", "speaker", "speaker_entity_id",
            "subject", "subject_entity_id", "measure", "value_lo", "value_hi", "unit", "hedge", "time_ref",
            "payload")
    out = {k: c.get(k) for k in keep}
    check = (out["payload"] or {}).get("record_check") if isinstance(out["payload"], dict) else None
    if isinstance(check, dict) and "says" in check:
        out["payload"] = out["payload"] | {"record_check": check | {"says_text": says(check["says"], zone)}}
    return out | {"source": {"id": c["source_id"], "file": c["file_name"],
                                                    "kind": c["source_kind"], "agency": c["source_agency"]}}


def evidence_ids(evidence, key: str) -> list[int]:
    """The ids a finding's evidence lists under `key` (events, claims, fused), skipping malformed ones."""
    vals = evidence.get(key, []) if isinstance(evidence, dict) else []
    return [int(v) for v in vals if isinstance(v, (int, str)) and str(v).isdigit()]


def discrepancies(reader: CaseReader, zone: ZoneInfo) -> list[dict]:
    """Each discrepancy with both sides quoted: the claims in their own words, the record's lines."""
    found = reader.findings("discrepancy")
    claims = {c["id"]: c for c in reader.claims({i for f in found for i in evidence_ids(f["evidence"], "claims")})}
    wanted = {i for f in found for i in evidence_ids(f["evidence"], "events")}
    evs = {d["id"]: d for d in reader.events_detail(wanted)}
    return [finding_json(f, zone) | {
        "claims": [claim_json(claims[i], zone) for i in evidence_ids(f["evidence"], "claims") if i in claims],
        "events": [report_json(evs[i], zone) for i in evidence_ids(f["evidence"], "events") if i in evs]}
        for f in found]


def subjects(reader: CaseReader, zone: ZoneInfo) -> list[dict]:
    """Prior warnings per person: each warning finding with the records it rests on, and the flags."""
    found = reader.findings("warning")
    wanted = {i for f in found for i in evidence_ids(f["evidence"], "events")}
    evs = {d["id"]: d for d in reader.events_detail(wanted)}
    people: dict[str, list] = defaultdict(list)
    for f in found:
        people[f["subject"] or "(no subject named)"].append(finding_json(f, zone) | {
            "events": [report_json(evs[i], zone) for i in evidence_ids(f["evidence"], "events") if i in evs]})
    out = []
    for name, warnings in sorted(people.items()):
        flags = sorted({str(x) for w in warnings for x in (w["payload"].get("flags") or [])
                        if isinstance(w["payload"], dict)} | {w["name"] for w in warnings})
        agencies = sorted({e["agency"] for w in warnings for e in w["events"] if e["agency"]})
        out.append({"subject": name, "flags": flags, "agencies": agencies, "warnings": warnings})
    # the history that most agencies held pieces of comes first: that is what nobody joined
    out.sort(key=lambda p: (-len(p["agencies"]), -sum(len(w["events"]) for w in p["warnings"]), p["subject"]))
    return out


def anchor_pairs(evidence) -> list[dict]:
    """The shared moments a clock estimate rests on, one pair of events each. Reads both the
    nested shape the build writes ([{other_source, difference_s, sigma_s, anchors: [{event,
    other_event, residual_s}]}]) and the flat one ([{event, reference_event, residual_s}])."""
    out = []
    for item in evidence if isinstance(evidence, list) else []:
        if not isinstance(item, dict):
            continue
        group = {k: item.get(k) for k in ("other_source", "difference_s", "sigma_s")}
        for a in item.get("anchors") or [item]:
            if not isinstance(a, dict):
                continue
            other = a.get("other_event", a.get("reference_event"))
            ids = [int(v) for v in (a.get("event"), other) if str(v).isdigit()]
            out.append(group | {"residual_s": a.get("residual_s"), "event_ids": ids})
    return out


def sources(reader: CaseReader, zone: ZoneInfo) -> list[dict]:
    """Each source with its clock estimate and the shared events that estimate rests on."""
    clocks = reader.clock_estimates()
    pairs = {sid: anchor_pairs(c["evidence"]) for sid, c in clocks.items()}
    evs = {d["id"]: d for d in reader.events_detail({i for ps in pairs.values() for p in ps for i in p["event_ids"]})}
    checks = {f["subject"]: f for f in reader.findings("source_check")}
    out = []
    for s in reader.sources():
        anchors = [{"residual_s": p["residual_s"], "other_source": p["other_source"],
                    "difference_s": p["difference_s"], "sigma_s": p["sigma_s"],
                    "events": [report_json(evs[i], zone) for i in p["event_ids"] if i in evs]}
                   for p in pairs.get(s["id"], [])]
        out.append({k: s[k] for k in ("id", "kind", "agency", "file_name", "file_sha256", "mapping_name",
                                      "timezone", "record_count", "event_count", "rejected_count", "imported_at",
                                      "withdrawn_at", "withdrawn_reason")}
                   | {"clock_estimate": clock_json(clocks.get(s["id"])), "anchors": anchors,
                      "understood": _understood(checks.get(s["file_name"]))})
    return out


def _understood(check: dict | None) -> dict | None:
    """A source's check (findings/understood.py) for the sources page and /api/sources: the
    payload, and its parts as phrases."""
    if check is None:
        return None
    return {**check["payload"], "said": understood_parts(check["payload"])}


def timeline_alerts(reader: CaseReader, zone: ZoneInfo) -> list[dict]:
    """The alerts the live rules raised or would have raised (replayed by the build), for the
    timeline: each worded, with its times in the reader's zone (the chart's axis) and its
    evidence events (a click shows each record)."""
    out = []
    for f in reader.findings("alert"):
        p = f["payload"] or {}
        fired, cleared = p.get("fired_at"), p.get("cleared_at")
        if fired is None:
            continue
        out.append({"id": f["id"], "rule": f["name"], "subject": f["subject"], "title": p.get("title"),
                    "summary": sentence(f, zone), "replayed": bool(p.get("replayed")),
                    "fired": local_iso(int(fired), zone), "cleared": local_iso(int(cleared), zone) if cleared else None,
                    "evidence": evidence_ids(f["evidence"], "events")[:12]})
    return out
