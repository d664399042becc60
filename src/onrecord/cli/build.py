"""CLI commands for reconstruction: build, metrics, pin-clock."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from onrecord.store.command import DatabaseUrl

CaseArg = Annotated[Path, typer.Argument(help="case folder")]


def build(case: CaseArg, database_url: DatabaseUrl = None) -> None:
    """Align clocks, resolve who is who, fuse reports, and measure the response."""
    from onrecord.reconstruct.build import reconstruct
    from onrecord.reconstruct.write import write_reconstruction
    from onrecord.store.case import open_case
    from onrecord.views.build_summary import print_build

    c = open_case(case, database_url)
    r = reconstruct(c)
    write_reconstruction(c, r)
    print_build(r)


JsonOut = Annotated[bool, typer.Option("--json", help="the documented JSON (docs/json.md)")]


def _findings_of_built_case(case: Path, database_url, kind: str):
    from onrecord.errors import UsageError
    from onrecord.store.case import open_case
    from onrecord.store.read import CaseReader

    reader = CaseReader(open_case(case, database_url))
    if not reader.is_built():
        raise UsageError(f"{case}: not built yet: run `onrecord build {case}` first")
    return reader, reader.findings(kind=kind)


def _print_json(doc: dict) -> None:
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


def metrics(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """The response metrics, each with the events it rests on."""
    from onrecord.views.metrics_table import metrics_json, print_metrics

    reader, found = _findings_of_built_case(case, database_url, "metric")
    if json_out:
        _print_json(metrics_json(reader, found))
    else:
        print_metrics(reader, found)


def discrepancies(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """Where accounts disagree: claims against claims, and claims against the records."""
    from onrecord.views.discrepancy_table import discrepancies_json, print_discrepancies

    reader, found = _findings_of_built_case(case, database_url, "discrepancy")
    if json_out:
        _print_json(discrepancies_json(reader, found))
    else:
        print_discrepancies(reader, found)


def pin_clock(case: CaseArg,
              source: Annotated[str, typer.Argument(help="the source's file name, as `onrecord timeline` shows it")],
              offset_s: Annotated[float, typer.Argument(help="seconds the clock runs ahead; behind: -- -4.5")],
              uncertainty_s: Annotated[float, typer.Option("--uncertainty", help="± seconds")] = 0.0) -> None:
    """Pin a source's clock offset you know; it wins over the estimate at the next build."""
    from onrecord.reconstruct.pins import write_pin

    write_pin(Path(case), source, offset_s, uncertainty_s)
    typer.echo(f"pinned {source}: {offset_s:+.3f} s (±{uncertainty_s} s); run `onrecord build {case}`")
