"""Receipts: what the case held after each act on it, signed, kept outside the database.

Every act that changes what a case holds — `init`, an import, a live feed (when it
opens, then every LIVE_EVERY_S while it runs), a build, a linkage, the removal of a
source — leaves a receipt (and a case from before receipts, at its first act, an
`adopt` receipt of all it held then): a small JSON file
in the case's `receipts/` folder, signed with the case's Ed25519 key (store/signing.py),
and the same line appended to `receipts.log`. A receipt holds the case's chain head and
record count after the act; an import's, the source's file SHA-256, its mapping text's
SHA-256, its counts and the digests of its raw records and events; a build's, the
digest of every derived table. Each names the one before it (`previous`: the SHA-256 of
its line), so a receipt taken out of the middle is missed. `onrecord verify` checks the
store against them (store/verify.py); docs/store.md says what that proves and what not.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from onrecord.errors import CaseError
from onrecord.store import signing

FORMAT = "onrecord-receipt/1"
LIVE_EVERY_S = 30.0  # a live feed's receipts, at most this often while frames come
FOLDER = "receipts"
LOG = "receipts.log"
PUBLIC_KEY_FILE = "signing-key.pub"


def folder(case_path: Path) -> Path:
    return Path(case_path) / FOLDER


def log_path(case_path: Path) -> Path:
    return Path(case_path) / LOG


def signed_bytes(receipt: dict) -> bytes:
    """What the signature covers: every field but the signature, in one canonical form."""
    body = {k: v for k, v in receipt.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def line_of(receipt: dict) -> bytes:
    return json.dumps(receipt, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def signing_key(case):
    """The case's private key; refused when the case has receipts but the key is not here.
    A case from before receipts (no key, no receipts) gets its key now, and a first
    receipt, `adopt`, of everything it holds as it stands."""
    key = signing.load_key(case.uid)
    if key is not None:
        return key
    if log_path(case.path).exists() or folder(case.path).exists():
        raise CaseError(f"{case.path}: this case's signing key is not at {signing.key_path(case.uid)} "
                        f"(set ${signing.KEY_DIR_ENV} to the folder that holds it): its receipts cannot be signed")
    key = signing.create_key(case.uid)
    issue_adoption(case, key)
    return key


def issue_adoption(case, key) -> dict:
    from onrecord.store.reader import open_reader

    reader = open_reader(case)
    body = {"sources": [source_section(reader, int(s["id"]), live=str(s["file_name"]).startswith("live:"))
                        for s in reader.sources()]}
    if reader.has_derived():
        body |= {"derived": derived_section(reader), "generation": reader.generation()}
    return issue(case, "adopt", body, key)


@contextmanager
def _locked(case_path: Path) -> Iterator[None]:
    """One receipt at a time per case (two imports may finish together)."""
    folder(case_path).mkdir(exist_ok=True)
    with open(folder(case_path) / ".lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _last_line(case_path: Path) -> bytes | None:
    path = log_path(case_path)
    if not path.exists():
        return None
    lines = [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]
    return lines[-1] if lines else None


def issue(case, kind: str, body: dict, key=None) -> dict:
    """Sign and keep a receipt of `kind` holding `body` and the case's head now."""
    from onrecord.store.reader import open_reader

    key = key or signing_key(case)
    with _locked(case.path):
        last = _last_line(case.path)
        number = json.loads(last)["number"] + 1 if last else 1
        head = open_reader(case).chain_head()
        receipt = {"format": FORMAT, "number": number, "kind": kind, "case": case.uid,
                   "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   "previous": hashlib.sha256(last).hexdigest() if last else None,
                   "chain": {"records": int(head["record_count"]), "head": bytes(head["chain_head"]).hex()},
                   **body, "public_key": signing.public_hex(key)}
        receipt["signature"] = signing.sign(key, signed_bytes(receipt))
        line = line_of(receipt)
        pub = folder(case.path) / PUBLIC_KEY_FILE
        if not pub.exists():
            pub.write_text(receipt["public_key"] + "\n", encoding="ascii")
        path = folder(case.path) / f"{number:06d}-{kind}.json"
        path.write_bytes(line + b"\n")
        with open(log_path(case.path), "ab") as fh:  # append-only: earlier lines are never rewritten
            fh.write(line + b"\n")
    receipt["file"] = str(path)
    return receipt


# ---- what each kind of receipt holds

def source_section(reader, source_id: int, *, live: bool = False, digests: bool = True) -> dict:
    """A source as it was stored: its file, mapping, counts, and digests of its raw records
    and events. `live`: a feed that goes on growing; its digests are of the rows so far
    (`upto`: the last chain position and event id they cover). `digests` False: all but
    them (LiveReceipt makes them a slice at a time)."""
    from onrecord.store.read_evidence import EVENTS, RAW_LAYOUT

    src = next(s for s in reader.sources() if s["id"] == source_id)
    out = {"id": source_id, "file_name": src["file_name"], "file_sha256": src["file_sha256"], "kind": src["kind"],
           "agency": src["agency"], "timezone": src["timezone"], "mapping_name": src["mapping_name"],
           "mapping_sha256": hashlib.sha256(src["mapping_text"].encode("utf-8")).hexdigest(),
           "records": int(src["record_count"]), "events": int(src["event_count"]),
           "rejected": int(src["rejected_count"]), "imported_at": src["imported_at"]}
    upto = reader.source_upto(source_id) if live else {}
    if live:
        out["upto"] = upto
    if not digests:
        return out
    out["digests"] = {name: reader.covered_digest(covered, source_id, upto.get(name))
                      for name, covered in (("raw records", RAW_LAYOUT), ("events", EVENTS))}
    return out


def derived_section(reader) -> dict:
    """Digests of every derived table of the case, and the evidence they were built on."""
    from onrecord.store.read_evidence import DERIVED

    return {name: reader.covered_digest(c) for name, c in DERIVED.items()}


def issue_import(case, source_id: int, key=None) -> dict:
    from onrecord.store.reader import open_reader

    return issue(case, "import", {"source": source_section(open_reader(case), source_id)}, key)


def issue_live(case, source_id: int, key=None) -> dict:
    """A live feed's source as far as it goes now: when it opens, and every LIVE_EVERY_S
    seconds while frames come (live/ingest.py); frames after the newest are proven by the
    chain inside the database only (docs/store.md)."""
    from onrecord.store.reader import open_reader

    return issue(case, "live", {"source": source_section(open_reader(case), source_id, live=True)}, key)


class LiveReceipt:
    """A live feed's receipt made a slice of rows at a time, between the feed's batches
    (live/ingest.py): its digests cover every row of the source so far, and a source of
    millions of frames would hold the writer for seconds were they made at once. What it
    says — counts, `upto` — is what the source held when it began; its digests are of
    exactly those rows, made by the same Digester as `issue_live`'s, so verify reads the
    one like the other. Signed when its last slice is in."""

    def __init__(self, case, source_id: int):
        from onrecord.store.digests import Digester
        from onrecord.store.read_evidence import EVENTS, RAW_LAYOUT
        from onrecord.store.reader import open_reader

        reader = open_reader(case)
        self.case, self.source_id = case, source_id
        self.section = source_section(reader, source_id, live=True, digests=False)
        upto = self.section["upto"]
        self.parts = [(name, covered, upto.get(name),
                       Digester(reader.covered_count(covered, source_id, upto.get(name)), covered.schema, covered.key))
                      for name, covered in (("raw records", RAW_LAYOUT), ("events", EVENTS))]
        self._part, self._after = 0, None

    @property
    def done(self) -> bool:
        return self._part >= len(self.parts)

    def step(self, rows: int, key=None) -> dict | None:
        """Up to `rows` more rows digested; the signed receipt once the last are in, else None."""
        from onrecord.store.digests import _regrouped
        from onrecord.store.reader import open_reader

        reader = open_reader(self.case)
        while rows > 0 and not self.done:
            name, covered, upto, digester = self.parts[self._part]
            got = 0
            for batch in _regrouped(reader.covered_batches(covered, self.source_id, upto, self._after, rows)):
                if batch.num_rows:
                    digester.feed(batch)
                    got += batch.num_rows
                    self._after = int(batch.column(digester.at)[-1].as_py())
            if got < rows:  # this table's rows are all in
                self._part, self._after = self._part + 1, None
            rows -= got
        if not self.done:
            return None
        self.section["digests"] = {name: d.result() for name, _, _, d in self.parts}
        return issue(self.case, "live", {"source": self.section}, key)


def issue_derived(case, kind: str, key=None) -> dict:
    """After a build or a linkage: the digest of every derived table as written."""
    from onrecord.store.reader import open_reader

    reader = open_reader(case)
    return issue(case, kind, {"derived": derived_section(reader), "generation": reader.generation()}, key)


# ---- reading them back

@dataclass
class Kept:
    receipts: list[dict]  # in number order, signatures not yet checked
    problems: list[str]
    where: str


def load(case_path: Path, receipts_dir: Path | None = None, one: Path | None = None) -> Kept:
    """The receipts to check a case against: one given file, the files of a folder kept
    elsewhere, or the case's own folder and log (which must agree)."""
    if one is not None:
        return Kept([_read(Path(one))], [], str(one))
    if receipts_dir is not None:
        files = sorted(Path(receipts_dir).glob("*.json"))
        return Kept([_read(f) for f in files], [], str(receipts_dir))
    problems = []
    files = {}
    for f in sorted(folder(case_path).glob("*.json")):
        r = _read(f)
        files[r.get("number")] = (f, r)
    logged = {}
    path = log_path(case_path)
    if path.exists():
        for i, ln in enumerate(path.read_bytes().split(b"\n"), 1):
            if ln.strip():
                r = _parse(ln, f"{path}, line {i}")
                logged[r.get("number")] = r
    for n in sorted(set(files) | set(logged)):
        if n not in logged:
            problems.append(f"receipt #{n} ({files[n][0].name}) is not in {LOG}: the log was cut short or rewritten")
        elif n not in files:
            problems.append(f"receipt #{n} ({logged[n]['kind']}, {logged[n]['at']}) is in {LOG} "
                            f"but its file in {FOLDER}/ was deleted")
        elif line_of(files[n][1]) != line_of(logged[n]):
            problems.append(f"receipt #{n}: its file {files[n][0].name} and its line in {LOG} differ")
    merged = {**logged, **{n: r for n, (_, r) in files.items()}}
    return Kept([merged[n] for n in sorted(merged, key=lambda x: (x is None, x or 0))], problems, str(path))


def _read(path: Path) -> dict:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CaseError(f"{path}: cannot be read: {exc.strerror}") from exc
    return _parse(data.strip(), str(path))


def _parse(data: bytes, where: str) -> dict:
    try:
        r = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CaseError(f"{where}: not a receipt (not JSON: {exc})") from exc
    if not isinstance(r, dict) or r.get("format") != FORMAT:
        raise CaseError(f"{where}: not an onrecord receipt (no \"format\": \"{FORMAT}\")")
    return r
