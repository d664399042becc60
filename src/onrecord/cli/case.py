"""`onrecord init`, `verify` and `timeline`: the case store."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from onrecord.cli.options import CaseArg, DatabaseUrl, print_json, say_if_stale


def init(case: Annotated[Path, typer.Argument(help="case folder to create")], database_url: DatabaseUrl = None) -> None:
    """Create a case: a folder with its store."""
    from onrecord.store.case import init_case
    from onrecord.store.signing import key_path, load_key, public_hex

    c = init_case(case, database_url)
    typer.echo(f"created case {c.name} in {c.path} ({c.engine.url.render_as_string(hide_password=True)})")
    typer.echo(f"signing key {key_path(c.uid)} (keep it; receipts are signed with it); "
               f"public key {public_hex(load_key(c.uid))}")


def verify(case: CaseArg,
           receipts: Annotated[Optional[Path], typer.Option(
               "--receipts", help="a folder of the case's receipts kept elsewhere (default: the case's own)")] = None,
           receipt: Annotated[Optional[Path], typer.Option(
               "--receipt", help="check against this one receipt only")] = None,
           database_url: DatabaseUrl = None) -> None:
    """Re-hash every record, walk the chain, check the store against its signed receipts:
    exit 0 if all hold, 1 naming each thing that changed."""
    from onrecord.errors import UsageError
    from onrecord.pipeline import verify_case
    from onrecord.store.case import open_case

    if receipts is not None and receipt is not None:
        raise UsageError("give --receipts or --receipt, not both")
    for given in (receipts, receipt):
        if given is not None and not given.exists():
            raise UsageError(f"{given}: no such file or folder")
    result = verify_case(open_case(case, database_url), receipts, receipt)
    for note in result.notes:
        typer.echo(f"note: {note}")
    if result.intact:
        typer.echo(f"intact: {result.records} records in {result.sources} sources, chain and files match"
                   + (f"; the store matches {result.receipts} signed receipts ({result.against})"
                      if result.receipts else ""))
        return
    for line in result.problems[:25]:
        print(f"BROKEN: {line}", file=sys.stderr)
    if len(result.problems) > 25:
        print(f"BROKEN: ... and {len(result.problems) - 25} more", file=sys.stderr)
    raise typer.Exit(1)


def timeline(
    case: CaseArg,
    json_out: Annotated[bool, typer.Option("--json", help="print the documented JSON (docs/json.md)")] = False,
    t_from: Annotated[Optional[str], typer.Option(
        "--from", help="from this time (case local time, or ISO with offset)")] = None,
    t_to: Annotated[Optional[str], typer.Option("--to", help="up to this time")] = None,
    agency: Annotated[Optional[str], typer.Option(help="only this agency")] = None,
    unit: Annotated[Optional[str], typer.Option(help="only this unit")] = None,
    kind: Annotated[Optional[str], typer.Option(help="only this event kind")] = None,
    limit: Annotated[int, typer.Option(help="at most this many events (0: all)")] = 500,
    database_url: DatabaseUrl = None,
) -> None:
    """The events of a case in time order, each with its source file and line."""
    from onrecord.store.read_timeline import TimelineQuery
    from onrecord.store.reader import open_reader
    from onrecord.timetext import parse_user_time
    from onrecord.views.console import data_console_for
    from onrecord.views.text_reading import read_as
    from onrecord.views.timeline_table import print_timeline, timeline_json

    reader = open_reader(case, database_url=database_url)
    say_if_stale(reader)
    zone = reader.display_zone()
    q = TimelineQuery(t_from=parse_user_time(t_from, zone, "--from"), t_to=parse_user_time(t_to, zone, "--to"),
                      agency=agency, unit=unit, kind=kind, limit=limit or None, order="middle", count=True)
    page = reader.timeline(q)
    rows, total = page.events, page.total
    read = read_as(rows, {s["id"]: s["mapping_text"] for s in reader.sources()})
    if json_out:
        print_json(timeline_json(reader.case.name, zone, rows, total, read))
        if total is not None and len(rows) < total:
            # the JSON says "total", but a script reading "events" alone would not know it was cut
            print(f"onrecord timeline: {len(rows):,} of {total:,} events; --limit 0 for all", file=sys.stderr)
    else:
        # Piped into a file or a pager there is no width to fit: keep rows whole.
        print_timeline(data_console_for(200), zone, rows, total, read)
