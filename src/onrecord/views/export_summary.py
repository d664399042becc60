"""What an export prints: what it wrote, and what it left out and why."""

from __future__ import annotations

import typer


def print_export(result) -> None:
    what = "alerts" if result.format == "cap" else "events"
    files = ", ".join(str(f) for f in result.files) or "nothing"
    typer.echo(f"wrote {result.written:,} {what} as {result.format} to {files}")
    if result.left_out:
        for reason, n in sorted(result.left_out.items()):
            typer.echo(f"  left out {n:,} event{'' if n == 1 else 's'}: {reason}")
    else:
        typer.echo("  left out no events")
    for note in result.notes:
        typer.echo(f"  {note}")
