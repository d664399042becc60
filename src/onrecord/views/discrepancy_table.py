"""`onrecord discrepancies`: both sides quoted, with where each comes from."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table


def discrepancies_json(reader, found: list[dict]) -> dict:
    claims = {c["id"]: c for c in reader.claims()}
    return {
        "case": reader.case.name,
        "discrepancies": [
            {"name": f["name"], "subject": f["subject"], "summary": f["summary"], "details": f["payload"],
             "claims": [{"id": i, "speaker": claims[i]["speaker"], "sentence": claims[i]["sentence"],
                         "file": claims[i]["file_name"], "span": [claims[i]["span_lo"], claims[i]["span_hi"]],
                         "measure": claims[i]["measure"], "value": [claims[i]["value_lo"], claims[i]["value_hi"]],
                         "unit": claims[i]["unit"]}
                        for i in f["evidence"].get("claims", []) if i in claims],
             "events": f["evidence"].get("events", [])}
            for f in found
        ],
    }


def print_discrepancies(reader, found: list[dict]) -> None:
    console = Console()
    console = console if console.is_terminal else Console(width=200)
    if not found:
        console.print("no discrepancies found between the accounts read and the records")
        return
    table = Table(title="Where accounts disagree")
    table.add_column("what", no_wrap=True)
    table.add_column("both sides", overflow="fold")
    for f in found:
        table.add_row(f["name"].replace("_", " "), f["summary"])
    console.print(table)
