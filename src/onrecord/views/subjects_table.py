"""What `onrecord link` and `onrecord subjects` print: the people linked across agencies,
their contacts and the warnings nobody joined, as lines and as the documented JSON."""

from __future__ import annotations

import typer


def link_json(result) -> dict:
    from onrecord.warnings.case_linkage import flag

    return {"records": result.records, "rejects": result.rejects, "notes": result.notes,
            "people": [{**p, "flag": flag(p)} for p in result.people]}


def print_link(result) -> None:
    typer.echo(f"{result.records} prior-contact records; {len(result.people)} people with more than one contact; "
               f"{len(result.rejects)} values not used (see --json)")
    for p in result.people[:20]:
        typer.echo(f"  {p['name']}: {len(p['contacts'])} contacts, agencies {', '.join(p['agencies'])}")
    for note in result.notes:
        typer.echo(f"  note: {note}")


def subjects_json(reader) -> dict:
    """Each linked person with their contacts, the warning's sentence first; flagged people first."""
    from onrecord.findings.render import sentence

    people = [e for e in reader.entities("person") if e["attrs"].get("subject")]
    warnings = {f["subject"]: f for f in reader.findings(kind="warning")}
    out = []
    for p in people:
        contacts = reader.events_detail(p["evidence"].get("linked_records", []))
        out.append({"name": p["name"], "aliases": p["aliases"], "agencies": p["attrs"].get("agencies"),
                    "flag": sentence(warnings[p["name"]]) if p["name"] in warnings else None,
                    "contacts": [{"event": d["id"], "agency": d.get("agency"), "kind": d.get("kind"),
                                  "file": d.get("file_name"), "line": d.get("ordinal"), "text": d.get("text")}
                                 for d in contacts]})
    out.sort(key=lambda p: (p["flag"] is None, -len(p["contacts"])))
    return {"case": reader.case.name, "subjects": out}


def print_subjects(doc: dict) -> None:
    out = doc["subjects"]
    for p in out:
        if p["flag"] is None:
            continue
        typer.echo(f"! {p['flag']}")
        for c in p["contacts"]:
            typer.echo(f"    {c['agency']:6} {c['kind']:14} {c['file']}:{c['line']}  {(c['text'] or '')[:90]}")
    typer.echo(f"{sum(1 for p in out if p['flag'])} flagged of {len(out)} people with more than one contact")
