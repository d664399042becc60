"""`onrecord user ...`, `onrecord token ...` and `onrecord audit ...`: accounts, API tokens
and the audit log of a case's store. Every change is an audit entry of its own."""

from __future__ import annotations

import getpass
import os
import socket
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Optional

import typer

from onrecord.cli.options import CaseArg, DatabaseUrl, JsonOut, print_json

RoleOpt = Annotated[str, typer.Option(
    "--role", help="viewer, analyst, auditor, admin, or feed (an API token for live feeds only; docs/access.md)")]
PasswordStdin = Annotated[bool, typer.Option("--password-stdin", help="read the password from standard input")]
Totp = Annotated[bool, typer.Option("--totp", help="enrol a TOTP second factor; prints its secret once")]


def operator() -> str:
    """Who runs this command: the login at this machine (the CLI's actor in the audit)."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        login = f"uid {os.getuid()}"
    return f"{login}@{socket.gethostname()}"


def _open(case: Path, database_url: str | None):
    from onrecord.access.audit import AuditLog
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case

    c = open_case(case, database_url)
    access = AccessStore(c.engine)
    return c, access, AuditLog(c.engine)


def _password(from_stdin: bool, name: str) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return typer.prompt(f"password for {name}", hide_input=True, confirmation_prompt=True)


def _show_totp(name: str, secret: str | None) -> None:
    if secret:
        import pyotp

        typer.echo(f"TOTP secret for {name} (shown once; enter it in an authenticator app): {secret}")
        typer.echo(pyotp.TOTP(secret).provisioning_uri(name=name, issuer_name="onrecord"))


def user_add(case: CaseArg, name: Annotated[str, typer.Argument(help="the account's name")], role: RoleOpt,
             agency: Annotated[Optional[list[str]], typer.Option(
                 "--agency", help="an agency whose restricted sources the account may read; repeatable")] = None,
             password_stdin: PasswordStdin = False, totp: Totp = False,
             oidc_subject: Annotated[Optional[str], typer.Option(
                 "--oidc-subject", help="link the account to this OIDC subject (the provider's `sub`); without "
                 "--password-stdin the account then has no password and signs in through the provider only")] = None,
             database_url: DatabaseUrl = None) -> None:
    """Add an account with access to CASE (or grant an existing account CASE)."""
    c, access, audit = _open(case, database_url)
    existing = access.accounts.find(name.strip().lower())
    if existing or ((oidc_subject or role == "feed") and not password_stdin):
        password = None  # signs in through the provider only, or (a feed's account) by API token only
    else:
        password = _password(password_stdin, name)
    secret = access.accounts.add(name, role, password, c.id, tuple(agency or ()), totp, oidc_subject)
    what = f"user add {name} --role {role}" + "".join(f" --agency {a}" for a in agency or ())
    what += " --oidc-subject (linked)" if oidc_subject else ""
    audit.event(operator(), "cli", "user_change", what + (" (granted the case)" if existing else ""), None,
                "allowed", c.id)
    typer.echo(f"{'granted' if existing else 'added'} {name.strip().lower()} ({role}) on case {c.name}")
    _show_totp(name, secret)


def user_list(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """The accounts of this store: role, agencies, cases, disabled or locked, second factor."""
    c, access, audit = _open(case, database_url)
    rows = access.accounts.list()
    audit.event(operator(), "cli", "read", "user list", None, "allowed", c.id)
    if json_out:
        print_json({"users": [{"name": a.name, "role": a.role, "agencies": sorted(a.agencies),
                               "cases": sorted(a.cases), "disabled": a.disabled, "locked": a.locked,
                               "totp": a.totp, "oidc_subject": a.oidc_subject} for a in rows]})
        return
    for a in rows:
        state = "disabled" if a.disabled else "locked" if a.locked else "active"
        typer.echo(f"{a.name}\t{a.role}\t{','.join(sorted(a.agencies)) or '-'}\t{state}\t"
                   f"{'totp' if a.totp else 'oidc' if a.oidc_subject else 'password only'}\t"
                   f"{'this case' if c.id in a.cases else 'other cases'}")


def user_disable(case: CaseArg, name: Annotated[str, typer.Argument()], database_url: DatabaseUrl = None) -> None:
    """Disable an account: its sessions and tokens stop working at once."""
    c, access, audit = _open(case, database_url)
    account = access.accounts.disable(name)
    access.sessions.end_all(account.id)
    audit.event(operator(), "cli", "user_change", f"user disable {account.name}", None, "allowed", c.id)
    typer.echo(f"disabled {account.name}")


def user_reset(case: CaseArg, name: Annotated[str, typer.Argument()], password_stdin: PasswordStdin = False,
               totp: Annotated[Optional[bool], typer.Option("--totp/--no-totp", help="enrol a new second factor, "
                                                            "or remove it; default: keep it")] = None,
               database_url: DatabaseUrl = None) -> None:
    """A new password; unlocks and re-enables the account and ends its sessions."""
    c, access, audit = _open(case, database_url)
    secret = access.accounts.reset(name, _password(password_stdin, name), totp)
    account = access.accounts.find(name.strip().lower())
    access.sessions.end_all(account.id)
    audit.event(operator(), "cli", "user_change", f"user reset {account.name}", None, "allowed", c.id)
    typer.echo(f"reset {account.name}")
    _show_totp(account.name, secret)


def token_create(case: CaseArg, name: Annotated[str, typer.Argument(help="the account the token acts as")],
                 database_url: DatabaseUrl = None) -> None:
    """An API token for scripts (Authorization: Bearer ...), printed once."""
    from onrecord.errors import UsageError

    c, access, audit = _open(case, database_url)
    account = access.accounts.find(name.strip().lower())
    if account is None or account.disabled:
        raise UsageError(f"no active user {name!r} in this store")
    tid, token = access.tokens.create(account.id)
    audit.event(operator(), "cli", "user_change", f"token create {account.name} (token {tid})", None, "allowed",
                c.id)
    typer.echo(token)
    print(f"token {tid} for {account.name}: send it as 'Authorization: Bearer <token>'; "
          f"revoke with `onrecord token revoke {case} {tid}`", file=sys.stderr)


def token_revoke(case: CaseArg, token_id: Annotated[int, typer.Argument(help="the token's number")],
                 database_url: DatabaseUrl = None) -> None:
    """Revoke an API token: refused from the next request on."""
    c, access, audit = _open(case, database_url)
    access.tokens.revoke(token_id)
    audit.event(operator(), "cli", "user_change", f"token revoke {token_id}", None, "allowed", c.id)
    typer.echo(f"revoked token {token_id}")


def token_list(case: CaseArg, database_url: DatabaseUrl = None) -> None:
    """The API tokens of this store (never the tokens themselves)."""
    _, access, _ = _open(case, database_url)
    for t in access.tokens.list():
        typer.echo(f"{t['id']}\t{t['user']}\t{_when(t['created_ms'])}\t"
                   f"{'revoked ' + _when(t['revoked_ms']) if t['revoked_ms'] else 'live'}")


def _when(ms: int | None) -> str:
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ms(text: str | None, flag: str) -> int | None:
    """An audit bound as typed: the audit keeps UTC, so a time without an offset is UTC."""
    from zoneinfo import ZoneInfo

    from onrecord.timetext import parse_user_time

    return parse_user_time(text, ZoneInfo("UTC"), flag)


def audit(
    case: Annotated[Path, typer.Argument(help="case folder, or `verify` followed by the case folder")],
    verify_case: Annotated[Optional[Path], typer.Argument(help="with `verify`: the case folder", show_default=False)]
    = None,
    user: Annotated[Optional[str], typer.Option("--user", help="only this account's entries")] = None,
    t_from: Annotated[Optional[str], typer.Option("--from", help="from this time (ISO; UTC unless an offset)")] = None,
    t_to: Annotated[Optional[str], typer.Option("--to", help="up to this time")] = None,
    json_out: JsonOut = False, database_url: DatabaseUrl = None,
) -> None:
    """The audit log: who read or changed what, when, from where, with what outcome.
    `onrecord audit verify CASE` checks its hash chain (exit 1 naming the first break)."""
    if str(case) == "verify" and verify_case is not None:
        c, _, log = _open(verify_case, database_url)
        n, problem = log.verify()
        log.event(operator(), "cli", "audit_verify", "audit verify", None, "allowed" if problem is None else "error",
                  c.id)
        if problem is None:
            typer.echo(f"intact: {n} audit entries, chain and head match")
            return
        print(f"BROKEN: {problem}", file=sys.stderr)
        raise typer.Exit(1)
    c, _, log = _open(case, database_url)
    rows = log.entries(user, _ms(t_from, "--from"), _ms(t_to, "--to"))
    log.event(operator(), "cli", "read", "audit" + (f" --user {user}" if user else ""), None, "allowed", c.id)
    if json_out:
        print_json({"entries": [{k: (_when(v) if k == "at_ms" else v) for k, v in r.items() if k != "entry_sha256"}
                                | {"entry_sha256": bytes(r["entry_sha256"]).hex()} for r in rows]})
        return
    for r in rows:
        typer.echo(f"{_when(r['at_ms'])}\t{r['actor']}\t{r['via']}\t{r['action']}\t{r['outcome']}\t"
                   f"{r['from_addr'] or '-'}\t{r['what']}")


def restrict(case: CaseArg, source: Annotated[int, typer.Argument(help="the source's id (see /sources)")],
             lift: Annotated[bool, typer.Option("--lift", help="lift the restriction")] = False,
             database_url: DatabaseUrl = None) -> None:
    """Restrict a source to the users of its agency: others do not see it, and findings
    resting on it say that evidence is withheld."""
    from onrecord.access.marks import restrict_source

    c, _, log = _open(case, database_url)
    src = restrict_source(c.engine, c.id, source, operator(), lift)
    log.event(operator(), "cli", "permission_change", f"{'unrestrict' if lift else 'restrict'} source {source}",
              None, "allowed", c.id)
    typer.echo(f"{'lifted the restriction on' if lift else 'restricted'} source {source} ({src['file_name']})"
               + ("" if lift else f" to {src['agency']}"))


def protect(case: CaseArg, who: Annotated[str, typer.Argument(help="the person's name, or an entity id")],
            reason: Annotated[str, typer.Option("--reason", help="victim, minor, witness or juvenile")],
            database_url: DatabaseUrl = None) -> None:
    """Mark a person protected: roles without the right see a pseudonym ("Victim 3") instead."""
    from onrecord.access.marks import protect as mark

    c, _, log = _open(case, database_url)
    name, pseudonym = mark(c.engine, c.id, who, reason, operator())
    log.event(operator(), "cli", "permission_change", f"protect entity as {pseudonym} ({reason})", None,
              "allowed", c.id)
    typer.echo(f"protected: shown as {pseudonym} to roles without the right to see who it is")


def search(case: CaseArg, query: Annotated[str, typer.Argument(
               help='words (every one must be found, any case), "a phrase", or a prefix*')],
           limit: Annotated[int, typer.Option(min=1, max=10000, help="at most this many of each")] = 200,
           save: Annotated[bool, typer.Option("--save", help="also save the search (an annotation of the case)")]
           = False,
           json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """Events and claims holding every term of QUERY, best first, from the case's full-text
    index: their time, agency, text and source line."""
    from onrecord.store.reader import open_reader
    from onrecord.timetext import to_utc_iso

    reader = open_reader(case, database_url=database_url)
    found = reader.search(query, limit)
    if save:
        _save_search(reader, query)
    if found["behind"]:
        print("note: the search index is behind the case's latest change; the next import or build brings it "
              "up to date", file=sys.stderr)
    if json_out:
        print_json({"query": query, "terms": found["terms"], "more": found["more"], "events": [
            {"id": e["id"], "kind": e["kind"], "t_src": to_utc_iso(e["t_src_lo"]), "agency": e["agency"],
             "unit": e["unit"], "text": e["text"], "matched": e["matched"],
             "source": {"file": e["file_name"], "line": e["ordinal"]}}
            for e in found["events"]], "claims": [
            {"id": c["id"], "sentence": c["sentence"], "speaker": c["speaker"], "matched": c["matched"],
             "source": {"file": c["file_name"]}} for c in found["claims"]]})
        return
    for e in found["events"]:
        typer.echo(f"event {e['id']}\t{to_utc_iso(e['t_src_lo']) or '(untimed)'}\t{e['agency'] or '-'}\t"
                   f"{e['kind']}\t{(e['text'] or '')[:80]}\t{e['file_name']}:{e['ordinal']}")
    for c in found["claims"]:
        typer.echo(f"claim {c['id']}\t{c['speaker'] or '-'}\t{c['sentence'][:100]}\t{c['file_name']}")
    if not found["terms"]:
        typer.echo(f"{query!r} holds no word to search for")
    elif not found["events"] and not found["claims"]:
        typer.echo(f"nothing holds every term of {query!r}")
    elif found["more"]:
        typer.echo(f"(more than {limit} of them: --limit shows more)")


def _save_search(reader, query: str) -> None:
    from dataclasses import replace

    from onrecord.access import annotate
    from onrecord.access.audit import AuditLog

    who = replace(reader.actor, name=operator())
    row = annotate.add(reader.case.engine, reader.case.id, reader, who, "search", None, "saved_search", query)
    AuditLog(reader.case.engine).event(operator(), "cli", "annotate", f"saved search {row['id']}: {query}",
                                       None, "allowed", reader.case.id)
    print(f"saved as search {row['id']}", file=sys.stderr)
