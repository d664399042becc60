"""`onrecord verify`: re-hash every stored record and walk the chain, read through the
case's reader like every other read."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from onrecord.store.evidence import GENESIS


@dataclass
class VerifyResult:
    intact: bool
    records: int
    sources: int
    problem: str | None = None


def _where(source_names: dict[int, str], row) -> str:
    return f"raw record {row.id} ({source_names.get(row.source_id, '?')}, line {row.ordinal}, chain position {row.seq})"


# (file name, mapping text, [(raw, line, path)...]) -> a problem or None: checks that the paths
# records are cited by still lead to their bytes (sources/record_paths.py; the store knows no format)
PathCheck = Callable[[str, str, list], "str | None"]


def verify_records(reader, check_paths: PathCheck | None = None) -> VerifyResult:
    """Every stored record of the case `reader` reads (store/reader.py: open_reader)."""
    head, srcs = reader.chain_head(), reader.sources()
    names = {s["id"]: s["file_name"] for s in srcs}
    problem, count = _walk_chain(reader.raw_chain(), names, head)
    if problem is None:
        problem = _check_sources(reader, srcs, check_paths)
    return VerifyResult(intact=problem is None, records=count, sources=len(srcs), problem=problem)


def _walk_chain(rows, names: dict[int, str], head: dict) -> tuple[str | None, int]:
    previous, expected = GENESIS, 1
    sha = hashlib.sha256
    for row in rows:
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
    if count < head["record_count"]:
        return (f"record at chain position {count + 1} was deleted "
                f"(the case holds {head['record_count']} records, {count} remain)"), count
    if count > head["record_count"]:
        return (f"record at chain position {head['record_count'] + 1} was inserted "
                f"after the case's last import"), count
    if previous != bytes(head["chain_head"]):
        return "the case's chain head does not match its records: the chain was rewritten", count
    return None, count


def _check_sources(reader, srcs: list[dict], check_paths: PathCheck | None) -> str | None:
    """Each source's records, in file order, must still be exactly the imported file, and
    the paths its records are cited by must still lead to them."""
    for src in srcs:
        digest, n = hashlib.sha256(), 0
        cited: list = []
        for raw, line, path in reader.source_records(src["id"]):
            digest.update(raw)
            n += 1
            cited.append((bytes(raw), line, path))
        if n != src["record_count"] or digest.hexdigest() != src["file_sha256"]:
            return (f"source {src['id']} ({src['file_name']}): its records no longer add up to the "
                    f"imported file (SHA-256 {src['file_sha256'][:12]}...)")
        if check_paths is not None:
            problem = check_paths(src["file_name"], src.get("mapping_text") or "", cited)
            if problem:
                return f"source {src['id']}: {problem}"
    return None
