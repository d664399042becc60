"""`onrecord metrics`: the findings as a table with their evidence, and as JSON."""

from __future__ import annotations

from rich.table import Table

from onrecord.findings.render import sentence
from onrecord.timetext import to_utc_iso
from onrecord.views.console import data_console_for


def _value(f: dict):
    if f["value_lo"] is None:
        return None
    if f["unit"] == "utc_ms":
        return {"lo": to_utc_iso(int(f["value_lo"])), "hi": to_utc_iso(int(f["value_hi"]))}
    return {"lo": f["value_lo"], "hi": f["value_hi"]}


def _evidence_lines(reader, ids: list[int], limit: int = 3) -> list[str]:
    details = reader.events_detail(ids[:limit]) if ids else []
    return [f"{d['file_name']}:{d['ordinal']}" for d in details]


def metrics_json(reader, found: list[dict]) -> dict:
    """The metric findings, each worded in the case's zone beside its values and evidence."""
    zone = reader.display_zone()
    return {
        "case": reader.case.name,
        "timezone": zone.key,
        "metrics": [
            {"name": f["name"], "subject": f["subject"], "status": f["status"], "summary": sentence(f, zone),
             "unit": f["unit"], "value": _value(f), "details": f["payload"],
             "evidence": {"events": f["evidence"].get("events", []),
                          "sources": _evidence_lines(reader, f["evidence"].get("events", []), limit=50)}}
            for f in found
        ],
    }


def print_metrics(reader, found: list[dict]) -> None:
    console = data_console_for(200)
    zone = reader.display_zone()
    table = Table(title=f"Response metrics — times in {zone.key}; intervals hold every value the records allow")
    for col, wrap in (("metric", False), ("finding", True), ("evidence (source:line)", True)):
        table.add_column(col, no_wrap=not wrap, overflow="fold")
    for f in found:
        ids = f["evidence"].get("events", [])
        lines = _evidence_lines(reader, ids)
        more = f" +{len(ids) - len(lines)} more" if len(ids) > len(lines) else ""
        style = None if f["status"] == "established" else "yellow"
        table.add_row(f["name"], sentence(f, zone), ", ".join(lines) + more, style=style)
    console.print(table)
