"""`onrecord live CASE` (the live board and its feeds) and `onrecord live replay CASE`
(a built case's events through the same rules). Imports stay inside the functions."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer


def live(
    case: Annotated[str, typer.Argument(help="the case folder, or `replay` then the case folder")],
    replay_case: Annotated[str | None, typer.Argument(metavar="[CASE]", help="with `replay`: the case")] = None,
    host: Annotated[str, typer.Option(help="address the board and the webhooks listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8100,
    rules: Annotated[Path | None, typer.Option(help="a rule file (.toml) or a folder of them, beside the bundled")]
    = None,
    broker: Annotated[str | None, typer.Option(help="NATS JetStream URL (nats://127.0.0.1:4222): ingest and rules "
                                                    "on several machines; default: one process")] = None,
    role: Annotated[str, typer.Option(help="all, ingest or rules (with --broker)")] = "all",
    speed: Annotated[float, typer.Option(help="replay: seconds of the incident per second (0: at once)")] = 0.0,
    as_json: Annotated[bool, typer.Option("--json", help="replay: one JSON line per alert (docs/json.md)")] = False,
    allowed_host: Annotated[Optional[list[str]], typer.Option(
        "--allowed-host", help="a name browsers and feeds reach the board by (the Host header); repeatable")] = None,
    tls_cert: Annotated[Optional[Path], typer.Option("--tls-cert", help="TLS certificate (PEM) to serve HTTPS")] = None,
    tls_key: Annotated[Optional[Path], typer.Option("--tls-key", help="its private key (PEM)")] = None,
    plain_network: Annotated[bool, typer.Option(
        "--plain-http-on-network", help="serve a non-loopback address without TLS (only behind a TLS proxy)")] = False,
) -> None:
    """Run the live board and feeds of a case; `onrecord live replay CASE` replays a built case through the rules."""
    from onrecord.errors import UsageError

    if case == "replay":
        if replay_case is None:
            raise UsageError("onrecord live replay CASE: name the case to replay")
        return _replay(Path(replay_case), rules, speed, as_json)
    if replay_case is not None:
        raise UsageError(f"unexpected argument {replay_case!r}")
    if role not in ("all", "ingest", "rules"):
        raise UsageError("--role: choose all, ingest or rules")
    if role != "all" and not broker:
        raise UsageError("--role ingest or rules needs --broker (the nodes meet on NATS JetStream)")
    _serve(Path(case), host, port, rules, broker, role, tuple(allowed_host or ()), tls_cert, tls_key, plain_network)


def _serve(case: Path, host: str, port: int, rules: Path | None, broker: str | None, role: str,
           allowed_hosts: tuple[str, ...], cert: Path | None, key: Path | None, plain_network: bool) -> None:
    """The board behind the web's sign-in: a non-loopback --host as `onrecord serve` takes it
    (TLS, or a TLS proxy named with --plain-http-on-network); OIDC from onrecord.toml [oidc]."""
    import asyncio

    from onrecord.access.oidc import load_settings
    from onrecord.access.store import AccessStore
    from onrecord.live.service import run_live
    from onrecord.store.case import open_case
    from onrecord.views.web.exposure import check_exposure, no_accounts_note

    tls = check_exposure(host, cert, key, plain_network)
    opened = open_case(case)
    oidc = load_settings(opened.settings.get("oidc"), where=f"{case / 'onrecord.toml'} [oidc]")
    if not AccessStore(opened.engine).accounts.any() and (note := no_accounts_note(host)):
        print(note, file=sys.stderr, flush=True)
    opened.engine.dispose()
    scheme, shown = ("https" if tls else "http"), (f"[{host}]" if ":" in host else host)
    print(f"live: {case} at {scheme}://{shown}:{port}/board (Ctrl-C to stop)", flush=True)
    try:
        asyncio.run(run_live(case, host, port, rules, broker, role, allowed_hosts=allowed_hosts,
                             tls=(cert, key) if tls else None, secure_cookies=tls or plain_network, oidc=oidc))
    except KeyboardInterrupt:
        pass


def _replay(case: Path, rules: Path | None, speed: float, as_json: bool) -> None:
    from onrecord.errors import UsageError
    from onrecord.live.replay import alert_line, replay_case

    if speed < 0:
        raise UsageError("--speed must be 0 (as fast as possible) or more")
    printed = set()

    def show(change):
        a = change.alert
        if change.action == "update":
            return
        if as_json:
            if change.action == "clear":
                f = a.finding()
                f.payload["replayed"] = True
                print(json.dumps(alert_line(f)), flush=True)
                printed.add(a.id)
        else:
            from onrecord.timetext import to_utc_iso

            word = "FIRED  " if change.action == "fire" else "cleared"
            tail = f" ({a.clear_reason})" if change.action == "clear" else ""
            print(f"{to_utc_iso(int(change.at))} {word} {a.rule.name} {a.subject}{tail}", flush=True)

    found = replay_case(case, rules, speed, show)
    if as_json:
        for f in found:
            if f.payload["alert"] not in printed:
                print(json.dumps(alert_line(f)), flush=True)
    elif not found:
        print("no alert would have fired", file=sys.stderr)
