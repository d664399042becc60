"""`onrecord import`: read a file through its mapping and store it, all or nothing."""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from onrecord.errors import InputError
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Reject
from onrecord.sources.registry import ADAPTERS, FOLDER_ADAPTERS, PART
from onrecord.store import listing
from onrecord.store.case import Case
from onrecord.store.evidence import record_hashes
from onrecord.store.reader import open_reader
from onrecord.store.receipts import issue_import, signing_key
from onrecord.store.write_lock import case_write_lock, wait_limit
from onrecord.store.writer import AlreadyImported, Batch, Progress, SourceMeta, write_source


@dataclass
class ImportResult:
    file: str
    source_id: int | None
    records: int = 0
    events: int = 0
    rejects: list[Reject] = field(default_factory=list)
    rejects_file: Path | None = None
    notes: list[Reject] = field(default_factory=list)
    notes_file: Path | None = None
    already: bool = False
    uncoded: dict = field(default_factory=dict)
    remarks: list[str] = field(default_factory=list)  # what an adapter says besides counts
    receipt: dict | None = None  # signed, outside the database (store/receipts.py): the chain head after it
    left_out: int = 0


def read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise InputError("no such file", file=str(path)) from exc
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a file", file=str(path)) from exc
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror}", file=str(path)) from exc


def read_folder(path: Path) -> list:
    """A folder's files in name order (one incident's snapshots, one file each): the source
    is their bytes one after the other, each file one record named by its file name."""
    files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError("the folder holds no files", file=str(path))
    return [PART(p.name, read_file(p)) for p in files]


def import_file(case: Case, path: Path, mapping: Mapping, *, tz: str | None = None,
                agency: str | None = None, skip_bad_rows: bool = False,
                progress: Progress = lambda stage, n: None) -> ImportResult:
    if path.is_dir() and mapping.format in FOLDER_ADAPTERS:
        parts = read_folder(path)
        digest = hashlib.sha256(b"".join(p.data for p in parts)).hexdigest()
    else:
        parts = None
        data = read_file(path)
        digest = hashlib.sha256(data).hexdigest()
    name = path.name
    found = open_reader(case).source_with_sha256(digest)
    if found:
        return ImportResult(file=name, source_id=found["id"], already=True)
    if parts is not None:
        parsed = FOLDER_ADAPTERS[mapping.format](parts, mapping, str(path), tz, agency)
    else:
        parsed = ADAPTERS[mapping.format](data, mapping, str(path), tz, agency)
    if parsed.rejects and not skip_bad_rows:
        first = parsed.rejects[0]
        extra = f" ({len(parsed.rejects)} rows cannot be read; --skip-bad-rows imports the rest)" \
            if len(parsed.rejects) > 1 else ""
        raise InputError(first.reason + extra, file=str(path), line=first.line, field=first.column,
                         value=first.value, path=first.path)
    key = signing_key(case)  # before writing: a case whose key is elsewhere is refused unchanged
    progress("hashing", 0)
    hashes = record_hashes(parsed.records.raws)
    meta = SourceMeta(kind=mapping.source_kind, agency=agency or mapping.agency, file_name=name,
                      file_sha256=digest, mapping_name=mapping.name, mapping_text=mapping.raw_text,
                      timezone=tz or mapping.timezone, rejected_count=len(parsed.rejects))
    # the write and its receipt under one hold of the case's write lock: the receipt's chain
    # head is this import's, not that of another import that committed just after it
    with case_write_lock(case.path, wait_limit(case.settings)):
        try:
            source_id = write_source(case, Batch(meta, parsed.records.raws, parsed.records.ordinals, hashes,
                                                 parsed.events, parsed.records.paths), progress)
        except AlreadyImported as exc:  # another import of the same file won the race
            return ImportResult(file=name, source_id=exc.source_id, already=True)
        receipt = issue_import(case, source_id, key)
    listing.refresh(case)  # the new events' rows of the timeline's list (store/listing.py)
    result = ImportResult(file=name, source_id=source_id, records=len(parsed.records.raws),
                          events=parsed.event_count, rejects=parsed.rejects, uncoded=parsed.uncoded,
                          notes=parsed.notes, remarks=parsed.remarks, left_out=parsed.left_out,
                          receipt=receipt)
    if parsed.rejects:
        result.rejects_file = write_rejects(case.path, source_id, name, parsed.rejects)
    if parsed.notes:
        result.notes_file = write_rejects(case.path, source_id, name, parsed.notes, "import-notes")
    return result


def write_rejects(case_dir: Path, source_id: int, name: str, rows: list[Reject], stem: str = "import-rejects") -> Path:
    out = case_dir / f"{stem}-{source_id}.csv"
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["file", "line", "path", "column", "value", "reason"])
        for r in rows:
            w.writerow([name, r.line, r.path or "", r.column or "", "" if r.value is None else r.value, r.reason])
    return out
