"""`onrecord import` and `mappings`: getting agency exports into a case."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from onrecord.cli.options import CaseArg, DatabaseUrl


def import_files(
    case: CaseArg,
    files: Annotated[list[Path], typer.Argument(help="agency export files")],
    mapping: Annotated[str, typer.Option("--mapping", help="bundled mapping name or a .toml file")],
    agency: Annotated[Optional[str], typer.Option(help="agency code for every event (overrides the mapping)")] = None,
    tz: Annotated[Optional[str], typer.Option(
        "--tz", help="IANA zone the times are written in (overrides the mapping)")] = None,
    skip_bad_rows: Annotated[bool, typer.Option(
        "--skip-bad-rows", help="import good rows; list rejected ones")] = False,
    database_url: DatabaseUrl = None,
) -> None:
    """Import agency exports through a mapping. Each file is all or nothing."""
    from onrecord.pipeline import import_files as run
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import open_case
    from onrecord.views.import_summary import ImportProgress, print_result

    m = load_mapping(mapping)
    if tz is not None:
        _check_zone(tz)
    c = open_case(case, database_url)
    for result in run(c, files, m, tz=tz, agency=agency, skip_bad_rows=skip_bad_rows, progress=ImportProgress):
        print_result(result, m.name, str(case))


def remove_source(
    case: CaseArg,
    source: Annotated[str, typer.Argument(help="the source's file name (as `onrecord timeline` shows it) or id")],
    reason: Annotated[str, typer.Option("--reason", help="why it is removed (kept on the chain)")],
    database_url: DatabaseUrl = None,
) -> None:
    """Withdraw a source imported by mistake: its records stay on the chain beside a tombstone
    saying why; its events leave every view now, its findings at the next build."""
    from onrecord.pipeline import remove_source as run
    from onrecord.store.case import open_case

    done = run(open_case(case, database_url), source, reason)
    chain = done["receipt"]["chain"]
    typer.echo(f"removed source {done['source']} ({done['file_name']}): {done['events']:,} events withdrawn; its "
               f"records stay on the chain, with tombstone source {done['tombstone']}")
    typer.echo(f"  chain head {chain['head']} after {chain['records']:,} records; signed receipt "
               f"#{done['receipt']['number']}: {done['receipt']['file']}")
    typer.echo(f"  findings still rest on the last build: run `onrecord build {case}`")


def _check_zone(tz: str) -> None:
    import zoneinfo

    from onrecord.errors import UsageError

    try:
        zoneinfo.ZoneInfo(tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise UsageError(f"--tz {tz!r} is not a known IANA time zone (e.g. America/Chicago)") from exc


def mappings() -> None:
    """List the bundled mappings."""
    from onrecord.sources.mapping import bundled_names, load_mapping

    for name in bundled_names():
        m = load_mapping(name)
        typer.echo(f"{name:18} {m.source_kind:8} {m.description}")
