"""`onrecord serve` and `onrecord report`. Imports stay inside the functions so
`onrecord --help` does not load FastAPI or WeasyPrint."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from onrecord.cli.options import CaseArg


def serve(
    case: CaseArg,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    allowed_host: Annotated[Optional[list[str]], typer.Option(
        "--allowed-host", help="a name browsers reach this server by (the Host header); repeatable")] = None,
    tls_cert: Annotated[Optional[Path], typer.Option("--tls-cert", help="TLS certificate (PEM) to serve HTTPS")] = None,
    tls_key: Annotated[Optional[Path], typer.Option("--tls-key", help="its private key (PEM)")] = None,
    plain_network: Annotated[bool, typer.Option(
        "--plain-http-on-network", help="serve a non-loopback address without TLS (only behind a TLS proxy)")] = False,
) -> None:
    """Serve the interactive timeline, metrics, discrepancies, subjects and sources, and /api/."""
    import uvicorn

    from onrecord.views.web.app import create_app
    from onrecord.views.web.exposure import check_exposure, no_accounts_note

    tls = check_exposure(host, tls_cert, tls_key, plain_network)
    # behind TLS, or behind the TLS proxy --plain-http-on-network names: cookies go over HTTPS only
    app = create_app(Path(case), host=host, allowed_hosts=tuple(allowed_host or ()),
                     secure_cookies=tls or plain_network)
    if not app.state.access.accounts.any() and (note := no_accounts_note(host)):
        print(note, file=sys.stderr, flush=True)
    scheme = "https" if tls else "http"
    print(f"serving {case} at {scheme}://{_url_host(host)}:{port}/timeline (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False,
                ssl_certfile=str(tls_cert) if tls else None, ssl_keyfile=str(tls_key) if tls else None)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


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
