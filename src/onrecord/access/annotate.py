"""Annotations: an analyst's tag, comment, star or dispute (with its reason) on an event or
a finding, or a saved search (target "search", kind "saved_search", the query its text).
Each is attributed and timed, written to its own table and audited; the
evidence is never touched. Who may annotate is the role's `annotate` right."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine, insert

from onrecord.access.clock import wall_ms
from onrecord.errors import AccessDenied, UsageError
from onrecord.store.engine import write_transaction
from onrecord.store.reader import Actor
from onrecord.store.schema_access import annotations

TARGETS = ("event", "finding", "search")
KINDS = ("tag", "comment", "star", "disputed", "saved_search")
MAX_TEXT = 4000


def check(actor: Actor, target: str, kind: str, text: str | None) -> str | None:
    """The annotation's text, cleaned; or one sentence saying what is wrong with it."""
    if not actor.may("annotate"):
        raise AccessDenied(f"{actor.name} ({actor.role}) may not annotate")
    if target not in TARGETS:
        raise UsageError(f"target {target!r}: choose {' or '.join(TARGETS)}")
    if kind not in KINDS:
        raise UsageError(f"kind {kind!r}: choose one of {', '.join(KINDS)}")
    text = (text or "").strip() or None
    if (target == "search") != (kind == "saved_search"):
        raise UsageError("a saved search is kind saved_search on target search (and only that)")
    if kind == "saved_search":
        from onrecord.store.search_query import parse

        if not text or not parse(text):
            raise UsageError("a saved search needs its query: words, \"a phrase\" or prefix*")
    if kind in ("tag", "comment", "disputed") and not text:
        raise UsageError(f"a {kind} needs its text" + (" (the reason it is disputed)" if kind == "disputed" else ""))
    if text and len(text) > MAX_TEXT:
        raise UsageError(f"the text has more than {MAX_TEXT} characters")
    if kind == "tag" and text and (len(text) > 60 or any(c.isspace() for c in text.strip())):
        raise UsageError("a tag is one word of at most 60 characters (a comment says more)")
    return text


def add(engine: Engine, case_id: int, reader, actor: Actor, target: str, target_id: int, kind: str,
        text: str | None, now_ms: Callable[[], int] = wall_ms) -> dict:
    """Write the annotation, once the actor may see what it is on (through their reader).
    `engine`: one that may write (a server reads the case on a read-only one)."""
    text = check(actor, target, kind, text)
    if target == "event" and reader.event_detail(target_id) is None:
        raise UsageError(f"no event {target_id} in this case")
    if target == "search":
        target_id = None  # a search is on the case, not on one record
    if target == "finding" and target_id not in {f["id"] for f in reader.findings()}:
        raise UsageError(f"no finding {target_id} in this case")
    row = {"case_id": case_id, "target": target, "target_id": target_id, "kind": kind, "text": text,
           "author": actor.name, "at_ms": now_ms()}
    with write_transaction(engine) as conn:
        row["id"] = conn.execute(insert(annotations).values(**row)).inserted_primary_key[0]
    return row
