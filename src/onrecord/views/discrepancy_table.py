"""`onrecord discrepancies`: both sides quoted, with where each comes from — the claim's
sentence and span in its document, and each record it is set against as its source file,
line and exact text."""

from __future__ import annotations

from rich.table import Table

from onrecord.findings.render import says, sentence
from onrecord.views.console import data_console_for


def _records(reader, found: list[dict]) -> dict[int, dict]:
    ids = {int(i) for f in found for i in f["evidence"].get("events", [])}
    return {d["id"]: {"id": d["id"], "file": d["file_name"], "line": d["ordinal"], "kind": d["kind"],
                      "raw": d["raw"]}
            for d in reader.events_detail(ids)} if ids else {}


def discrepancies_json(reader, found: list[dict]) -> dict:
    zone = reader.display_zone()
    claims = {c["id"]: c for c in reader.claims()}
    records = _records(reader, found)
    return {
        "case": reader.case.name,
        "discrepancies": [
            {"name": f["name"], "subject": f["subject"], "summary": sentence(f, zone),
             "details": f["payload"] | ({"says_text": says(f["payload"]["says"], zone)}
                                        if "says" in f["payload"] else {}),
             "claims": [{"id": i, "speaker": claims[i]["speaker"], "sentence": claims[i]["sentence"],
                         "file": claims[i]["file_name"], "span": [claims[i]["span_lo"], claims[i]["span_hi"]],
                         "measure": claims[i]["measure"], "value": [claims[i]["value_lo"], claims[i]["value_hi"]],
                         "unit": claims[i]["unit"]}
                        for i in f["evidence"].get("claims", []) if i in claims],
             "events": f["evidence"].get("events", []),
             "records": [records[int(i)] for i in f["evidence"].get("events", []) if int(i) in records]}
            for f in found
        ],
    }


def print_discrepancies(reader, found: list[dict]) -> None:
    console = data_console_for(200)
    if not found:
        console.print("no discrepancies found between the accounts read and the records")
        return
    records = _records(reader, found)
    zone = reader.display_zone()
    table = Table(title="Where accounts disagree")
    table.add_column("what", no_wrap=True)
    table.add_column("both sides", overflow="fold")
    table.add_column("records (file:line)", overflow="fold")
    for f in found:
        where = [records[int(i)] for i in f["evidence"].get("events", []) if int(i) in records]
        more = f" (+{len(where) - 6})" if len(where) > 6 else ""
        shown = ", ".join(f"{r['file']}:{r['line']}" for r in where[:6]) + more
        table.add_row(f["name"].replace("_", " "), sentence(f, zone), shown)
    console.print(table)
