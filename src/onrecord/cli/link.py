"""CLI commands for prior warnings: link, subjects."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from onrecord.store.command import DatabaseUrl


def link(case: Annotated[Path, typer.Argument(help="case folder")],
         backend: Annotated[str, typer.Option(help="duckdb (embedded) or spark (statewide scale)")] = "duckdb",
         json_out: Annotated[bool, typer.Option("--json", help="the documented JSON (docs/json.md)")] = False,
         database_url: DatabaseUrl = None) -> None:
    """Link the people named in prior-contact records across agencies (Splink)."""
    from onrecord.errors import UsageError
    from onrecord.store.case import open_case
    from onrecord.warnings.case import flag, link_case, write_subjects

    if backend not in ("duckdb", "spark"):
        raise UsageError(f"--backend {backend!r}: choose duckdb or spark")
    c = open_case(case, database_url)
    result = link_case(c, backend)
    write_subjects(c, result)
    if json_out:
        doc = {"records": result.records, "rejects": result.rejects, "notes": result.notes,
               "people": [{**p, "flag": flag(p)} for p in result.people]}
        json.dump(doc, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
        return
    typer.echo(f"{result.records} prior-contact records; {len(result.people)} people with more than one contact; "
               f"{len(result.rejects)} values not used (see --json)")
    for p in result.people[:20]:
        typer.echo(f"  {p['name']}: {len(p['contacts'])} contacts, agencies {', '.join(p['agencies'])}")
    for note in result.notes:
        typer.echo(f"  note: {note}")


def subjects(case: Annotated[Path, typer.Argument(help="case folder")],
             json_out: Annotated[bool, typer.Option("--json", help="the documented JSON (docs/json.md)")] = False,
             database_url: DatabaseUrl = None) -> None:
    """Prior warnings per person, with flags: each contact, its agency, and what it said."""
    from onrecord.errors import UsageError
    from onrecord.store.case import open_case
    from onrecord.store.read import CaseReader

    reader = CaseReader(open_case(case, database_url))
    people = [e for e in reader.entities("person") if e["attrs"].get("subject")]
    if not people:
        raise UsageError(f"{case}: no linked people yet: run `onrecord link {case}` first")
    warnings = {f["subject"]: f for f in reader.findings(kind="warning")}
    out = []
    for p in people:
        contacts = reader.events_detail(p["evidence"].get("linked_records", []))
        out.append({"name": p["name"], "aliases": p["aliases"], "agencies": p["attrs"].get("agencies"),
                    "flag": warnings.get(p["name"], {}).get("summary"),
                    "contacts": [{"event": d["id"], "agency": d.get("agency"), "kind": d.get("kind"),
                                  "file": d.get("file_name"), "line": d.get("ordinal"), "text": d.get("text")}
                                 for d in contacts]})
    out.sort(key=lambda p: (p["flag"] is None, -len(p["contacts"])))
    if json_out:
        json.dump({"case": reader.case.name, "subjects": out}, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
        return
    for p in out:
        if p["flag"] is None:
            continue
        typer.echo(f"! {p['flag']}")
        for c in p["contacts"]:
            typer.echo(f"    {c['agency']:6} {c['kind']:14} {c['file']}:{c['line']}  {(c['text'] or '')[:90]}")
    typer.echo(f"{sum(1 for p in out if p['flag'])} flagged of {len(out)} people with more than one contact")
