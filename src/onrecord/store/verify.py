"""`onrecord verify`: re-hash every stored record and walk the chain."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select

from onrecord.store.case import Case
from onrecord.store.evidence import GENESIS
from onrecord.store.schema import cases, raw_records, sources

BATCH = 50_000


@dataclass
class VerifyResult:
    intact: bool
    records: int
    sources: int
    problem: str | None = None


def _where(source_names: dict[int, str], row) -> str:
    return f"raw record {row.id} ({source_names.get(row.source_id, '?')}, line {row.ordinal}, chain position {row.seq})"


def verify_case(case: Case) -> VerifyResult:
    with case.engine.connect() as conn:
        head = conn.execute(select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == case.id)).one()
        srcs = conn.execute(
            select(sources.c.id, sources.c.file_name, sources.c.file_sha256, sources.c.record_count).where(
                sources.c.case_id == case.id
            )
        ).all()
        names = {s.id: s.file_name for s in srcs}
        problem, count = _walk_chain(conn, case.id, names, head)
        if problem is None:
            problem = _check_sources(conn, srcs)
    return VerifyResult(intact=problem is None, records=count, sources=len(srcs), problem=problem)


def _walk_chain(conn, case_id: int, names: dict[int, str], head) -> tuple[str | None, int]:
    previous, expected = GENESIS, 1
    query = (
        select(raw_records.c.id, raw_records.c.source_id, raw_records.c.seq, raw_records.c.ordinal,
               raw_records.c.raw, raw_records.c.sha256, raw_records.c.chain)
        .where(raw_records.c.case_id == case_id)
        .order_by(raw_records.c.seq)
        .execution_options(yield_per=BATCH)
    )
    sha = hashlib.sha256
    for row in conn.execute(query):
        if row.seq != expected:
            return (f"record at chain position {expected} was deleted "
                    f"(the chain jumps to {row.seq}: {_where(names, row)})"), expected - 1
        if sha(bytes(row.raw)).digest() != bytes(row.sha256):
            return f"{_where(names, row)} was altered: its bytes no longer match its SHA-256", expected - 1
        previous = sha(previous + bytes(row.sha256)).digest()
        if previous != bytes(row.chain):
            return (f"{_where(names, row)} breaks the chain: it was inserted or its hashes "
                    f"were rewritten"), expected - 1
        expected += 1
    count = expected - 1
    if count < head.record_count:
        return (f"record at chain position {count + 1} was deleted "
                f"(the case holds {head.record_count} records, {count} remain)"), count
    if count > head.record_count:
        return (f"record at chain position {head.record_count + 1} was inserted "
                f"after the case's last import"), count
    if previous != bytes(head.chain_head):
        return "the case's chain head does not match its records: the chain was rewritten", count
    return None, count


def _check_sources(conn, srcs) -> str | None:
    """Each source's records, in file order, must still be exactly the imported file."""
    for src in srcs:
        digest, n = hashlib.sha256(), 0
        query = (
            select(raw_records.c.raw)
            .where(raw_records.c.source_id == src.id)
            .order_by(raw_records.c.ordinal)
            .execution_options(yield_per=BATCH)
        )
        for (raw,) in conn.execute(query):
            digest.update(raw)
            n += 1
        if n != src.record_count or digest.hexdigest() != src.file_sha256:
            return (f"source {src.id} ({src.file_name}): its records no longer add up to the "
                    f"imported file (SHA-256 {src.file_sha256[:12]}...)")
    return None
