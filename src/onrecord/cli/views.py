"""`onrecord serve` and `onrecord report`, and the two functions `onrecord demo` calls.
Imports stay inside the functions so `onrecord --help` does not load FastAPI or WeasyPrint."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer


def write_report(case: Path | str, fmt: Literal["html", "pdf"], out: Path | str) -> Path:
    """Write the after-action report of a case as HTML or PDF; returns the file written."""
    from onrecord.views.report.write import write_report as write

    return write(Path(case), fmt, Path(out))


def serve(
    case: Annotated[Path, typer.Argument(help="case folder")],
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
    case: Annotated[Path, typer.Argument(help="case folder")],
    format: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    out: Annotated[Path, typer.Option("--out", help="file to write")] = Path("report.html"),
) -> None:
    """Write the after-action report: metrics, sourced timeline, units, discrepancies, warnings, clocks."""
    from onrecord.errors import UsageError

    if format not in ("html", "pdf"):
        raise UsageError(f"--format {format!r}: choose html or pdf")
    path = write_report(case, format, out)
    typer.echo(f"wrote {path}")
