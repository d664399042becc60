"""A case: a folder holding `onrecord.toml` and, by default, the SQLite store."""

from __future__ import annotations

import re
import tomllib
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import Engine, insert, select

from onrecord.errors import CaseError
from onrecord.store import engine as engines
from onrecord.store import migrate
from onrecord.store.evidence import GENESIS
from onrecord.store.schema import cases
from onrecord.store.write_lock import case_write_lock, wait_limit

CASE_FILE = "onrecord.toml"


@dataclass
class Case:
    path: Path
    uid: str
    name: str
    id: int
    engine: Engine
    settings: dict


def _write_case_file(path: Path, uid: str, name: str, url: str | None) -> None:
    lines = ["[case]", f'uid = "{uid}"', f"name = {_toml_str(name)}", ""]
    if url:
        lines += ["[store]", f"database_url = {_toml_str(url)}", ""]
    (path / CASE_FILE).write_text("\n".join(lines), encoding="utf-8")


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def init_case(path: Path, database_url: str | None = None) -> Case:
    """Create the case folder and its store; refuse to overwrite an existing case."""
    path = Path(path)
    if (path / CASE_FILE).exists():
        raise CaseError(f"{path}: already a case (it has {CASE_FILE})")
    if path.exists() and not path.is_dir():
        raise CaseError(f"{path}: exists and is not a folder")
    path.mkdir(parents=True, exist_ok=True)
    url = database_url or engines.url_from_environment()
    uid = str(uuid.uuid4())
    _write_case_file(path, uid, path.resolve().name, url)
    engine = engines.make_engine(url or engines.sqlite_url(path))
    migrate.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(cases).values(
                uid=uid,
                name=path.resolve().name,
                created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                record_count=0,
                chain_head=GENESIS,
            )
        )
    case = open_case(path, database_url)
    from onrecord.store.receipts import issue
    from onrecord.store.signing import create_key

    issue(case, "init", {}, create_key(uid))  # the key is made here, kept outside the store
    return case


def _twice_hint(exc: Exception) -> str:
    """A user who appends a `[case]` block from the docs to the file `init` wrote declares the
    table twice (a blind mapper hit this); TOML's own words do not say what to do instead."""
    m = re.search(r"Cannot declare \('([^']+)',?\) twice", str(exc))
    if not m:
        return ""
    return f"; a table is declared once: put these keys under the [{m.group(1)}] table already in the file"


def open_case(path: Path, database_url: str | None = None) -> Case:
    path = Path(path)
    case_file = path / CASE_FILE
    if not case_file.exists():
        raise CaseError(f"{path}: not a case folder (no {CASE_FILE}); run `onrecord init {path}` first")
    try:
        settings = tomllib.loads(case_file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CaseError(f"{case_file}: cannot be read: {exc}{_twice_hint(exc)}") from exc
    uid = settings.get("case", {}).get("uid")
    if not uid:
        raise CaseError(f"{case_file}: has no [case] uid")
    url = (
        database_url
        or engines.url_from_environment()
        or settings.get("store", {}).get("database_url")
        or engines.sqlite_url(path)
    )
    engine = engines.make_engine(url, wait_limit(settings))
    if migrate.current_revision(engine) != migrate.head_revision():
        # two commands opening an old case at once: one upgrades it, the other waits and finds it done
        with case_write_lock(path, wait_limit(settings)):
            migrate.upgrade(engine)
    with engine.connect() as conn:
        row = conn.execute(select(cases.c.id, cases.c.name).where(cases.c.uid == uid)).first()
    if row is None:
        raise CaseError(f"{path}: case {uid} is not in its store ({engine.url.render_as_string(hide_password=True)})")
    return Case(path=path, uid=uid, name=row.name, id=row.id, engine=engine, settings=settings)


def store_cases(engine) -> list[dict]:
    """Every case a store holds (id, uid, name), by name: what a server of many cases lists."""
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(
            select(cases.c.id, cases.c.uid, cases.c.name).order_by(cases.c.name, cases.c.id)).mappings()]


def case_of_uid(engine, uid: str) -> dict | None:
    """The case of that uid in the store (id, name), or None."""
    with engine.connect() as conn:
        row = conn.execute(select(cases.c.id, cases.c.name).where(cases.c.uid == uid)).mappings().first()
    return dict(row) if row else None
