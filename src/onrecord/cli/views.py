"""`onrecord serve` and `onrecord report`. Imports stay inside the functions so
`onrecord --help` does not load FastAPI or WeasyPrint."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from onrecord.cli.options import CaseArg


def serve(
    case: Annotated[Optional[Path], typer.Argument(
        help="case folder; leave out, with --database-url, to serve every case of that store")] = None,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    allowed_host: Annotated[Optional[list[str]], typer.Option(
        "--allowed-host", help="a name browsers reach this server by (the Host header); repeatable")] = None,
    tls_cert: Annotated[Optional[Path], typer.Option("--tls-cert", help="TLS certificate (PEM) to serve HTTPS")] = None,
    tls_key: Annotated[Optional[Path], typer.Option("--tls-key", help="its private key (PEM)")] = None,
    plain_network: Annotated[bool, typer.Option(
        "--plain-http-on-network", help="serve a non-loopback address without TLS (only behind a TLS proxy)")] = False,
    database_url: Annotated[Optional[str], typer.Option(
        "--database-url", help="with CASE: the store of that case; without: serve every case of this store "
        "under /cases/<uid>/")] = None,
    oidc_issuer: Annotated[Optional[str], typer.Option(
        "--oidc-issuer", help="offer sign-in through this OpenID Connect provider (its issuer URL)")] = None,
    oidc_client_id: Annotated[Optional[str], typer.Option(
        "--oidc-client-id", help="the client id this server is registered under at the provider")] = None,
    oidc_secret_env: Annotated[Optional[str], typer.Option(
        "--oidc-secret-env", help="the environment variable holding the client secret")] = None,
    oidc_secret_file: Annotated[Optional[Path], typer.Option(
        "--oidc-secret-file", help="a file holding the client secret")] = None,
) -> None:
    """Serve the interactive timeline, metrics, discrepancies, subjects and sources, and /api/
    (of one case, or of every case of a store with --database-url)."""
    import uvicorn

    from onrecord.access.oidc import load_settings
    from onrecord.errors import UsageError
    from onrecord.views.web.exposure import check_exposure, no_accounts_note

    if case is None and not database_url:
        raise UsageError("serve: give a case folder, or --database-url to serve every case of that store")
    tls = check_exposure(host, tls_cert, tls_key, plain_network)
    opened = None
    if case is not None:
        from onrecord.store.case import open_case

        opened = open_case(case, database_url)
    settings = opened.settings if opened is not None else {}
    oidc = load_settings(settings.get("oidc"), issuer=oidc_issuer, client_id=oidc_client_id,
                         secret_env=oidc_secret_env, secret_file=oidc_secret_file,
                         where=f"{case / 'onrecord.toml'} [oidc]" if case is not None else "--oidc-*")
    # behind TLS, or behind the TLS proxy --plain-http-on-network names: cookies go over HTTPS only
    common = {"host": host, "allowed_hosts": tuple(allowed_host or ()), "secure_cookies": tls or plain_network,
              "oidc": oidc}
    if case is None:
        from onrecord.views.web.server import create_server

        app, what, path = create_server(database_url, **common), "every case of the store", "/cases"
    else:
        from onrecord.views.web.app import create_app

        app = create_app(opened, **common)
        what, path = str(case), "/timeline"
    if not app.state.access.accounts.any() and (note := no_accounts_note(host)):
        print(note, file=sys.stderr, flush=True)
    scheme = "https" if tls else "http"
    print(f"serving {what} at {scheme}://{_url_host(host)}:{port}{path} (Ctrl-C to stop)", flush=True)
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
