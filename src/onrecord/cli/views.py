"""`onrecord serve` and `onrecord report`. Imports stay inside the functions so
`onrecord --help` does not load FastAPI or WeasyPrint."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from onrecord.cli.options import CaseArg


def serve(
    case: CaseArg,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
) -> None:
    """Serve the interactive timeline, metrics, discrepancies, subjects and sources, and /api/."""
    import uvicorn

    from onrecord.views.web.app import create_app

    app = create_app(Path(case))  # a missing case is one clear sentence before the server starts
    print(f"serving {case} at http://{host}:{port}/timeline (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def report(
    case: CaseArg,
    format: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    out: Annotated[Path, typer.Option("--out", help="file to write")] = Path("report.html"),
) -> None:
    """Write the after-action report: metrics, sourced timeline, units, discrepancies, warnings, clocks."""
    from onrecord.errors import UsageError
    from onrecord.pipeline import write_report

    if format not in ("html", "pdf"):
        raise UsageError(f"--format {format!r}: choose html or pdf")
    path = write_report(case, format, out)
    typer.echo(f"wrote {path}")
