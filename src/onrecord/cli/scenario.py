"""`onrecord scenario generate` and `onrecord scenario score`. Imports stay inside the
functions so `onrecord --help` does not load the generator."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def generate(
    seed: Annotated[int, typer.Option("--seed", help="same seed, same case, byte for byte")],
    out: Annotated[Path, typer.Option("--out", help="folder to write the case into")],
    background: Annotated[int, typer.Option("--background", min=0,
                                            help="unrelated county calls for service to add (scale runs)")] = 0,
    incident_feed: Annotated[int, typer.Option("--incident-feed", min=0,
                                               help="location fixes of the responding city and fire vehicles "
                                                    "to add (scale runs)")] = 0,
) -> None:
    """Write a fictional incident's sources, a mapping beside each, and truth.json."""
    from onrecord.errors import UsageError
    from onrecord.scenario.generate import generate_case

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a folder to write the case into")
    manifest = generate_case(seed, out, background, incident_feed)
    typer.echo(f"seed {seed}: {len(manifest['sources'])} sources, truth in {out / 'truth.json'}")
    if background:
        bg = manifest["background"]
        typer.echo(f"background: {bg['rows']:,} calls in {bg['file']} ({bg['seconds']:.1f} s)")
    if incident_feed:
        feed = manifest["incident_feed"]
        typer.echo(f"incident feed: {feed['rows']:,} fixes of {feed['units']} vehicles in {feed['file']} "
                   f"({feed['seconds']:.1f} s)")


def score(
    case: Annotated[Path, typer.Argument(help="a built case folder")],
    truth: Annotated[Path, typer.Argument(help="the truth.json the case was generated with")],
    json_out: Annotated[bool, typer.Option("--json", help="print the scores as JSON")] = False,
) -> None:
    """How close the built case came to the truth: clocks, fusion, who-is-who, metrics, linkage."""
    import json

    from onrecord.pipeline import score_case

    report = score_case(case, truth)
    if json_out:
        typer.echo(json.dumps(report, indent=1))
        return
    from onrecord.scenario.score_table import print_scores

    print_scores(report)
