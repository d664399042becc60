"""How `onrecord serve` builds the app it serves, in one process or in each of N
(`--workers N`). One process is one Python interpreter: under many readers its lock, not
the cores, bounds what it answers (benchmarks/web_load.py). N processes answer on one
listening socket (uvicorn's supervisor binds it, starts the workers and restarts any that
die); each builds its own app from the same ServeSpec, so whatever must hold across them
lives in the store, not in a process: accounts and lockout counters, sessions, TOTP steps
used, OIDC sign-ins under way (access/oidc_pending.py) and the audit chain (each commit
chains onto the head it locks: access/audit.py). What each process keeps to itself is a
cache that may be a little stale: its readers' answers and facts (until the case's version
changes), accounts for ACTOR_KEPT_S, "this store has no accounts yet" for
ACCOUNTS_RECHECK_S.

The spec travels to the workers in an environment variable as JSON: names and flags only.
The OIDC client secret is read by each worker from where the flags say (an environment
variable or a file), never written into it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

SPEC_ENV = "ONRECORD_SERVE_SPEC"


@dataclass(frozen=True)
class ServeSpec:
    """What `onrecord serve` was asked to serve, as plain values."""

    case: str | None = None  # a case folder; None: every case of database_url
    database_url: str | None = None
    host: str = "127.0.0.1"
    allowed_hosts: tuple[str, ...] = ()
    secure_cookies: bool = False
    oidc: dict = field(default_factory=dict)  # issuer, client_id, secret_env, secret_file: the flags given
    workers: int = 1

    def read_pool(self) -> int:
        """Worker threads (and store connections) of each process: the one-process number
        shared out, so N processes hold the connections, page caches and threads one did."""
        from onrecord.store.reader import READ_POOL

        return max(2, READ_POOL // self.workers)


def prepare(spec: ServeSpec):
    """(the opened case or None, the keyword arguments of its app): every setting checked,
    so a bad case folder or OIDC setting is one sentence before any worker starts."""
    from onrecord.access.oidc import load_settings

    opened = None
    if spec.case is not None:
        from onrecord.store.case import open_case

        opened = open_case(Path(spec.case), spec.database_url)
    settings = opened.settings if opened is not None else {}
    o = spec.oidc
    oidc = load_settings(settings.get("oidc"), issuer=o.get("issuer"), client_id=o.get("client_id"),
                         secret_env=o.get("secret_env"),
                         secret_file=Path(o["secret_file"]) if o.get("secret_file") else None,
                         where=f"{Path(spec.case) / 'onrecord.toml'} [oidc]" if spec.case is not None else "--oidc-*")
    return opened, {"host": spec.host, "allowed_hosts": tuple(spec.allowed_hosts),
                    "secure_cookies": spec.secure_cookies, "oidc": oidc, "read_pool": spec.read_pool()}


def has_accounts(spec: ServeSpec, opened) -> bool:
    """Whether the store holds accounts (else the server answers this machine only), asked
    without building an app (which would start reading the case)."""
    from onrecord.access.accounts import Accounts
    from onrecord.store import migrate
    from onrecord.store.engine import make_engine

    if opened is not None:
        return Accounts(opened.engine).any()
    engine = make_engine(spec.database_url)
    try:
        if migrate.current_revision(engine) != migrate.head_revision():
            migrate.upgrade(engine)
        return Accounts(engine).any()
    finally:
        engine.dispose()


def build(spec: ServeSpec, prepared=None):
    """The app for `spec`: one case's (app.py) or a server of many (server.py)."""
    opened, common = prepared or prepare(spec)
    if opened is None:
        from onrecord.views.web.server import create_server

        return create_server(spec.database_url, **common)
    from onrecord.views.web.app import create_app

    return create_app(opened, **common)


def to_environment(spec: ServeSpec) -> None:
    os.environ[SPEC_ENV] = json.dumps(asdict(spec))


def one_library() -> None:
    """A server process reaches SQLite through Python's sqlite3 alone (store/engine.py
    one_sqlite_library): its readers, sessions and audit hold the case file open in WAL
    mode the whole time, so any ADBC path it runs (an import or upload, an Arrow read) must
    not open the file through ADBC's own SQLite library beside them."""
    from onrecord.store.engine import one_sqlite_library

    one_sqlite_library()


def from_environment():
    """uvicorn's app factory in each worker process (`onrecord.views.web.workers:from_environment`)."""
    from onrecord.access import passwords

    one_library()
    found = json.loads(os.environ[SPEC_ENV])
    found["allowed_hosts"] = tuple(found["allowed_hosts"])
    spec = ServeSpec(**found)
    # each argon2 hash takes 64 MiB: N processes hash as many at once as one does, not N times as many
    passwords.share_hashing(spec.workers)
    return build(spec)
