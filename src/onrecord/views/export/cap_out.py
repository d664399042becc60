"""Each alert finding of the case as an OASIS CAP 1.2 alert (live/cap_out.py writes them:
times with numeric offsets, the words from findings/render.py). The alerts are the
case's stored alert findings, or — for a case whose build kept none — the alerts a
replay of its events through the bundled rules raises (`onrecord live replay`)."""

from __future__ import annotations

from pathlib import Path

from onrecord.model import Finding
from onrecord.views.export.result import ExportResult


def alert_findings(reader) -> tuple[list[Finding], str]:
    stored = reader.findings(kind="alert")
    if stored:
        return [Finding(f["name"], f["status"], kind="alert", subject=f.get("subject"), value_lo=f.get("value_lo"),
                        value_hi=f.get("value_hi"), unit=f.get("unit"), payload=f["payload"],
                        evidence=_events(f.get("evidence"))) for f in stored], "the case's alert findings"
    from onrecord.live.replay import from_case, replay
    from onrecord.live.rules import load_rules

    return replay(from_case(reader), load_rules(None)), "a replay of the case's events through the bundled rules"


def write_cap(reader, out: Path) -> ExportResult:
    from onrecord.live.cap_out import cap_alert

    found, origin = alert_findings(reader)
    zone = reader.display_zone()
    result = ExportResult("cap", [], 0)
    alerts = [cap_alert(f, "fire", f.payload["fired_at"], reader.case.uid, zone) for f in found
              if f.payload.get("fired_at") is not None]
    if len(alerts) == 1 and out.suffix.lower() in (".xml", ".cap"):
        out.write_bytes(alerts[0])
        result.files = [out]
    else:  # one alert a file: CAP has one alert per message
        out.mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(alerts, start=1):
            path = out / f"alert-{i:03d}.xml"
            path.write_bytes(data)
            result.files.append(path)
    result.written = len(alerts)
    result.notes.append(f"alerts from {origin}")
    return result


def _events(evidence) -> list:
    if isinstance(evidence, dict):
        return list(evidence.get("events") or [])
    return list(evidence or [])
