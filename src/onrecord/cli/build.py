"""`onrecord build`, `metrics`, `discrepancies` and `pin-clock`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from onrecord.cli.options import CaseArg, DatabaseUrl, JsonOut, print_json, say_if_stale


def build(case: CaseArg, database_url: DatabaseUrl = None) -> None:
    """Align clocks, resolve who is who, fuse reports, and measure the response."""
    from onrecord.pipeline import build_case
    from onrecord.store.case import open_case
    from onrecord.store.reader import open_reader
    from onrecord.views.build_summary import print_build

    c = open_case(case, database_url)
    print_build(build_case(c), open_reader(c).display_zone())


def _built_reader(case: Path, database_url):
    from onrecord.errors import UsageError
    from onrecord.store.reader import open_reader

    reader = open_reader(case, database_url=database_url)
    if not reader.is_built():
        raise UsageError(f"{case}: not built yet: run `onrecord build {case}` first")
    say_if_stale(reader)
    return reader


def metrics(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """The response metrics, each with the events it rests on."""
    from onrecord.views.metrics_table import metrics_json, print_metrics

    reader = _built_reader(case, database_url)
    if json_out:
        print_json(metrics_json(reader, reader.findings(kind="metric")))
    else:
        print_metrics(reader, reader.findings(kind="metric"))


def discrepancies(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """Where accounts disagree: claims against claims, and claims against the records."""
    from onrecord.views.discrepancy_table import discrepancies_json, print_discrepancies

    reader = _built_reader(case, database_url)
    if json_out:
        print_json(discrepancies_json(reader, reader.findings(kind="discrepancy")))
    else:
        print_discrepancies(reader, reader.findings(kind="discrepancy"))


def pin_clock(case: CaseArg,
              source: Annotated[str, typer.Argument(help="the source's file name, as `onrecord timeline` shows it")],
              offset_s: Annotated[float, typer.Argument(help="seconds the clock runs ahead; behind: -- -4.5")],
              uncertainty_s: Annotated[float, typer.Option("--uncertainty", help="± seconds")] = 0.0) -> None:
    """Pin a source's clock offset you know; it wins over the estimate at the next build."""
    from onrecord.errors import UsageError
    from onrecord.reconstruct.pins import write_pin

    if not uncertainty_s >= 0:
        raise UsageError(f"--uncertainty {uncertainty_s} must be 0 or more seconds (it is a ± width)")
    write_pin(Path(case), source, offset_s, uncertainty_s)
    typer.echo(f"pinned {source}: {offset_s:+.3f} s (±{uncertainty_s} s); run `onrecord build {case}`")
