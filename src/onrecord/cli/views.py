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
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=64, help="server processes answering on the one address (each a Python "
        "interpreter of its own: more cores busy under many readers)")] = 1,
) -> None:
    """Serve the interactive timeline, metrics, discrepancies, subjects and sources, and /api/
    (of one case, or of every case of a store with --database-url)."""
    import uvicorn

    from onrecord.errors import UsageError
    from onrecord.views.web import workers as serving
    from onrecord.views.web.exposure import check_exposure, no_accounts_note

    if case is None and not database_url:
        raise UsageError("serve: give a case folder, or --database-url to serve every case of that store")
    serving.one_library()
    tls = check_exposure(host, tls_cert, tls_key, plain_network)
    # behind TLS, or behind the TLS proxy --plain-http-on-network names: cookies go over HTTPS only
    spec = serving.ServeSpec(
        case=str(case) if case is not None else None, database_url=database_url, host=host,
        allowed_hosts=tuple(allowed_host or ()), secure_cookies=tls or plain_network,
        oidc={k: v for k, v in (("issuer", oidc_issuer), ("client_id", oidc_client_id),
                                ("secret_env", oidc_secret_env),
                                ("secret_file", str(oidc_secret_file) if oidc_secret_file else None)) if v},
        workers=workers)
    # Checked here whatever the number of workers (a bad case or OIDC setting is one sentence,
    # not one per worker); with several, each worker then builds its own app from the spec.
    opened, common = serving.prepare(spec)
    if not serving.has_accounts(spec, opened) and (note := no_accounts_note(host)):
        print(note, file=sys.stderr, flush=True)
    what, path = (str(case), "/timeline") if case is not None else ("every case of the store", "/cases")
    scheme = "https" if tls else "http"
    print(f"serving {what} at {scheme}://{_url_host(host)}:{port}{path}"
          + (f" with {workers} worker processes" if workers > 1 else "") + " (Ctrl-C to stop)", flush=True)
    tls_files = {"ssl_certfile": str(tls_cert) if tls else None, "ssl_keyfile": str(tls_key) if tls else None}
    if workers == 1:
        uvicorn.run(serving.build(spec, (opened, common)), host=host, port=port, log_level="warning",
                    server_header=False, **tls_files)
        return
    if opened is not None:
        opened.engine.dispose()
    serving.to_environment(spec)
    uvicorn.run("onrecord.views.web.workers:from_environment", factory=True, workers=workers, host=host,
                port=port, log_level="warning", server_header=False, **tls_files)


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
