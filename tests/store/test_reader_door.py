"""Every read of case data passes one door (store/reader.py: open_reader). This test lists
the modules that touch the case tables — import a table object of store/schema.py, run
raw SQL, open a connection on an engine, or take the store's bulk cursors — and fails
when one outside the store's own rooms starts to, or when a listed one no longer does."""

from __future__ import annotations

import ast
import re

from sqlalchemy import Table

from onrecord.store import schema
from tests.source_tree import modules

TABLES = {name for name, value in vars(schema).items() if isinstance(value, Table)}
# Modules that open raw access to the store's bytes: ADBC cursors, Arrow reads, write sessions.
RAW_ACCESS = {"onrecord.store.adbc", "onrecord.store.arrow_read", "onrecord.store.session", "onrecord.store.bulk",
              "onrecord.store.python_sqlite"}

STORE_INTERNALS = {
    "onrecord.store.schema": "the tables themselves",
    "onrecord.store.case": "creates and opens a case (its row in `cases`)",
    "onrecord.store.engine": "the connection settings (SQLite's BEGIN)",
    "onrecord.store.migrate": "Alembic, run on open",
    "onrecord.store.session": "the write session imports and builds write through",
    "onrecord.store.writer": "an import's write",
    "onrecord.store.live_writer": "a live batch's write: frames on the chain, then their events (a savepoint)",
    "onrecord.store.removal": "a source's withdrawal: its tombstone on the chain, its events out",
    "onrecord.store.bulk": "the write session's next ids and index rebuilds",
    "onrecord.store.adbc": "the ADBC connections under the bulk paths",
    "onrecord.store.python_sqlite": "ADBC's cursor over sqlite3, for a process that must use one SQLite library",
    "onrecord.store.arrow_read": "the Arrow read under the reader's event table",
    "onrecord.store.schema_search": "the full-text index's tables (FTS5 on SQLite)",
    "onrecord.store.search_index": "the full-text index, written by the writers in their own transaction",
    "onrecord.store.listing": "the timeline list's stored rows, rendered from the door's reads or in a live batch",
}
DOOR = {
    "onrecord.store.reader": "open_reader and CaseReader: the only module that runs a read",
    "onrecord.store.read_timeline": "statements of the timeline reads",
    "onrecord.store.read_records": "statements of the record reads",
    "onrecord.store.read_search": "statements of full-text search",
    "onrecord.store.read_bulk": "statements of the bulk reads",
    "onrecord.store.read_evidence": "statements of the evidence reads (the rows receipts digest)",
    "onrecord.store.read_access": "the door's own check: sources withheld from an actor, protected people",
}
# Who may read, and the record of what they read (issue 16): the access tables, not case data.
ACCESS = {
    "onrecord.access.accounts": "accounts and failed sign-ins",
    "onrecord.access.sessions": "server-side sessions",
    "onrecord.access.tokens": "API tokens",
    "onrecord.access.audit": "the audit log: appended by every read, read by auditors",
    "onrecord.access.audit_spool": "how far each server process's audit spool is in the chain",
    "onrecord.access.oidc_pending": "OIDC sign-ins under way, shared by a server's processes",
    "onrecord.access.marks": "an admin's marks (restricted sources, protected people), checked against the case",
    "onrecord.access.alert_acks": "who acknowledged which alert on the live board, and when",
}
# Writers of derived data: they write through the store's write session and never read.
WRITERS = {
    "onrecord.reconstruct.write": "the build's derived tables, replaced in one write session",
    "onrecord.warnings.write": "the linkage's people and warnings, replaced in one write session",
}
ALLOWED = STORE_INTERNALS | DOOR | WRITERS | ACCESS
SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|DROP|CREATE|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK|LOCK)\b")


def _touches(name: str, tree: ast.Module) -> list[str]:
    """What in a module touches the case store, one line each (empty: nothing)."""
    why = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {a.name for a in node.names}
            if node.module == "onrecord.store.schema" and names & TABLES:
                why.append(f"imports tables {sorted(names & TABLES)}")
            if node.module == "onrecord.store" and "schema" in names:
                why.append("imports store.schema")
            if node.module in RAW_ACCESS:
                why.append(f"imports {node.module}")
            if node.module == "sqlalchemy" and "text" in names:
                why.append("raw SQL (sqlalchemy.text)")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "onrecord.store.schema" or a.name in RAW_ACCESS:
                    why.append(f"imports {a.name}")
        elif isinstance(node, ast.Attribute):
            if node.attr in ("connect", "begin", "raw_connection") and "engine" in ast.unparse(node.value):
                why.append(f"{ast.unparse(node)}")
            if node.attr in ("exec_driver_sql", "read_sql", "read_sql_query", "read_sql_table"):
                why.append(f"raw SQL ({node.attr})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
            why.append(f"raw SQL ({node.value[:30]!r})")
    return why


def test_only_the_store_the_door_and_the_writers_touch_the_case_tables():
    touching = {name: why for name, m in modules().items() if (why := _touches(name, m.tree))}
    outside = {name: why for name, why in touching.items()
               if name not in ALLOWED and not name.startswith("onrecord.store.migrations")}
    assert not outside, ("read case data through store/reader.py's open_reader, not directly: "
                         f"{outside}")
    stale = sorted(set(ALLOWED) - set(touching))
    assert not stale, f"listed as touching the tables but no longer do (drop them from the list): {stale}"


def test_writers_only_write():
    """The writers reach the store through a write session alone: no connection of their
    own, no raw SQL, no read of the tables outside the transaction they write in."""
    for name in WRITERS:
        tree = modules()[name].tree
        why = [w for w in _touches(name, tree)
               if not w.startswith(("imports tables", "imports onrecord.store.session"))]
        assert not why, (name, why)
        assert "write_session" in ast.unparse(tree), name


def test_a_case_reader_is_opened_only_by_the_door():
    made = [name for name, m in modules().items() for node in ast.walk(m.tree)
            if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "CaseReader"
            and name != "onrecord.store.reader"]
    assert not made, f"open a reader with store/reader.py's open_reader(case, actor): {made}"


def test_the_check_sees_a_module_that_reads_for_itself():
    tree = ast.parse("from onrecord.store.schema import events\n"
                     "def f(case):\n    with case.engine.connect() as c:\n        return c.execute(select(events))\n")
    assert len(_touches("x", tree)) == 2
