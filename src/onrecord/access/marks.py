"""What an admin marks on a case: sources restricted to their agency, people protected
(victims, minors, witnesses, juvenile subjects) with a stable pseudonym. Both are read by
every reader of the case (store/read_access.py)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine, delete, func, insert, select

from onrecord.access.clock import wall_ms
from onrecord.errors import UsageError
from onrecord.store.engine import write_transaction
from onrecord.store.schema import entities, sources
from onrecord.store.schema_access import protected_people, restricted_sources

REASONS = {"victim": "Victim", "minor": "Minor", "witness": "Witness", "juvenile": "Juvenile"}


def restrict_source(engine: Engine, case_id: int, source_id: int, by: str, lift: bool = False,
                    now_ms: Callable[[], int] = wall_ms) -> dict:
    """Restrict a source to the users of its agency (or lift that); the source's row."""
    with write_transaction(engine) as conn:
        src = conn.execute(select(sources.c.id, sources.c.agency, sources.c.file_name).where(
            sources.c.id == source_id, sources.c.case_id == case_id)).first()
        if src is None:
            raise UsageError(f"no source {source_id} in this case (`onrecord serve` lists them on /sources)")
        if not src.agency and not lift:
            raise UsageError(f"source {source_id} ({src.file_name}) names no agency to restrict it to")
        conn.execute(delete(restricted_sources).where(restricted_sources.c.source_id == source_id))
        if not lift:
            conn.execute(insert(restricted_sources).values(source_id=source_id, restricted_by=by,
                                                           restricted_at_ms=now_ms()))
    return dict(src._mapping)


def protect(engine: Engine, case_id: int, who: str, reason: str, by: str,
            now_ms: Callable[[], int] = wall_ms) -> tuple[str, str]:
    """Mark a person protected: (their name as written, their pseudonym). `who` is a name,
    or the id of an entity the build resolved (its name then)."""
    if reason not in REASONS:
        raise UsageError(f"--reason {reason!r}: choose one of {', '.join(REASONS)}")
    who = who.strip()
    with write_transaction(engine) as conn:
        if who.isdigit():
            found = conn.execute(select(entities.c.name).where(entities.c.id == int(who),
                                                               entities.c.case_id == case_id)).scalar()
            if found is None:
                raise UsageError(f"no entity {who} in this case")
            who = found
        if len(who) < 3:
            raise UsageError("a protected name needs at least 3 characters")
        same = conn.execute(select(protected_people.c.pseudonym).where(
            protected_people.c.case_id == case_id, func.lower(protected_people.c.name) == who.lower())).scalar()
        if same:
            return who, same
        n = conn.execute(select(func.count()).select_from(protected_people).where(
            protected_people.c.case_id == case_id, protected_people.c.reason == reason)).scalar()
        pseudonym = f"{REASONS[reason]} {n + 1}"
        conn.execute(insert(protected_people).values(case_id=case_id, name=who, reason=reason, pseudonym=pseudonym,
                                                     marked_by=by, marked_at_ms=now_ms()))
    return who, pseudonym
