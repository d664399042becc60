"""`onrecord verify`: re-hash every stored record and walk the chain, then check the store
against the signed receipts kept outside it (store/receipts.py), read through the case's
reader like every other read. docs/store.md says what this proves and what it cannot."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from onrecord.store import receipts as kept_receipts
from onrecord.store import signing
from onrecord.store.digests import difference
from onrecord.store.evidence import GENESIS

SHOWN = 25  # problems listed at the most; the count says how many more


@dataclass
class VerifyResult:
    intact: bool
    records: int
    sources: int
    problem: str | None = None  # the first problem
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # true, and worth saying: what was not covered
    receipts: int = 0  # receipts the store was checked against
    against: str | None = None  # where they were read


def _where(source_names: dict[int, str], row) -> str:
    return f"raw record {row.id} ({source_names.get(row.source_id, '?')}, line {row.ordinal}, chain position {row.seq})"


# (file name, mapping text, [(raw, line, path)...]) -> a problem or None: checks that the paths
# records are cited by still lead to their bytes (sources/record_paths.py; the store knows no format)
PathCheck = Callable[[str, str, list], "str | None"]


def verify_records(reader, check_paths: PathCheck | None = None, receipts_dir: Path | None = None,
                   receipt_file: Path | None = None) -> VerifyResult:
    """Every stored record of the case `reader` reads (store/reader.py: open_reader), and the
    store against its receipts: the case's own (folder and log), a copy kept elsewhere
    (`receipts_dir`), or one receipt (`receipt_file`)."""
    head, srcs = reader.chain_head(), reader.sources()
    names = {s["id"]: s["file_name"] for s in srcs}
    problems, notes = [], []
    problem, count = _walk_chain(reader.raw_chain(), names, head)
    if problem:
        problems.append(problem)
    problems += _check_sources(reader, srcs, check_paths)
    kept = kept_receipts.load(reader.case.path, receipts_dir, receipt_file)
    problems += kept.problems
    problems += _listing(reader)
    good = _signed(reader.case, kept.receipts, problems, notes, receipts_dir is None and receipt_file is None)
    if good:
        Against(reader, srcs, head, good, whole=receipt_file is None, problems=problems, notes=notes).check()
    return VerifyResult(intact=not problems, records=count, sources=len(srcs),
                        problem=problems[0] if problems else None, problems=problems, notes=notes,
                        receipts=len(good), against=kept.where)


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


def _listing(reader) -> list[str]:
    """The web list's stored rows (store/listing.py) against the events they show: not
    evidence, but the web answers with them, so one changed by hand would misstate it."""
    from onrecord.store import listing

    checked, wrong = listing.altered(reader)
    if not wrong:
        return []
    shown = ", ".join(map(str, wrong[:SHOWN])) + (f" and {len(wrong) - SHOWN:,} more" if len(wrong) > SHOWN else "")
    return [f"the web's list row of {len(wrong):,} of {checked:,} events is not what the event shows (event "
            f"{shown}): event_listings was changed outside onrecord; the events themselves are checked apart"]


def _check_sources(reader, srcs: list[dict], check_paths: PathCheck | None) -> list[str]:
    """Each source's records, in file order, must still be exactly the imported file, and
    the paths its records are cited by must still lead to them."""
    out = []
    for src in srcs:
        digest, n = hashlib.sha256(), 0
        cited: list = []
        for raw, line, path in reader.source_records(src["id"]):
            digest.update(raw)
            n += 1
            cited.append((bytes(raw), line, path))
        if n != src["record_count"] or digest.hexdigest() != src["file_sha256"]:
            out.append(f"source {src['id']} ({src['file_name']}): its records no longer add up to the "
                       f"imported file (SHA-256 {src['file_sha256'][:12]}...)")
            continue
        if check_paths is not None:
            problem = check_paths(src["file_name"], src.get("mapping_text") or "", cited)
            if problem:
                out.append(f"source {src['id']}: {problem}")
    return out


def _name(r: dict) -> str:
    what = r.get("source", {}).get("file_name") if r.get("kind") in ("import", "live", "removal") else None
    return f"receipt #{r.get('number')} ({r.get('kind')}{' of ' + what if what else ''}, {r.get('at')})"


def _signed(case, receipts: list[dict], problems: list[str], notes: list[str], own: bool) -> list[dict]:
    """The receipts whose signature holds under the case's key, in number order; the others named."""
    key = signing.load_key(case.uid)
    pub_file = kept_receipts.folder(case.path) / kept_receipts.PUBLIC_KEY_FILE
    expected = signing.public_hex(key) if key else None
    if pub_file.exists():
        in_folder = pub_file.read_text(encoding="ascii", errors="replace").strip()
        if expected and in_folder != expected:
            problems.append(f"{pub_file} is not this case's public key (the key at {signing.key_path(case.uid)}): "
                            "it was replaced")
        expected = expected or in_folder
    if not receipts:
        if key is not None or pub_file.exists():
            problems.append("this case has a signing key, but no receipt was found: its receipts were deleted")
        elif own:
            notes.append("no receipts: the case was made before receipts; only the chain inside the database "
                         "was checked (the next import signs one)")
        return []
    expected = expected or receipts[0].get("public_key")
    good = []
    for r in receipts:
        if r.get("case") != case.uid:
            problems.append(f"{_name(r)} is a receipt of another case ({r.get('case')})")
        elif r.get("public_key") != expected:
            problems.append(f"{_name(r)} is signed by another key than this case's")
        elif not signing.signature_holds(expected, kept_receipts.signed_bytes(r), str(r.get("signature", ""))):
            problems.append(f"{_name(r)}: its signature does not hold: the receipt was altered")
        else:
            good.append(r)
    if own or len(receipts) > 1:
        _in_sequence(good, problems)
    if key is None:
        notes.append(f"the signing key is not at {signing.key_path(case.uid)}: receipts were checked against "
                     f"the public key in them and in {pub_file.name}")
    return good


def _in_sequence(good: list[dict], problems: list[str]) -> None:
    """Numbered 1, 2, 3 ..., each naming the line of the one before: none taken out or put in."""
    previous = None
    for expected, r in enumerate(good, 1):
        if r["number"] != expected:
            problems.append(f"receipt #{expected} is missing (the receipts go on at {_name(r)})")
            return
        want = hashlib.sha256(kept_receipts.line_of(previous)).hexdigest() if previous else None
        if r.get("previous") != want:
            problems.append(f"{_name(r)} does not follow receipt #{expected - 1}: a receipt was replaced")
            return
        previous = r


SOURCE_FIELDS = ("file_name", "file_sha256", "kind", "agency", "timezone", "mapping_name", "mapping_sha256",
                 "records", "events", "rejected", "imported_at")
LIVE_FIELDS = ("file_name", "kind", "agency", "timezone", "mapping_name", "mapping_sha256", "imported_at")
FIELD_WORDS = {"file_sha256": "file SHA-256", "mapping_sha256": "mapping text", "records": "record count",
               "events": "event count", "rejected": "rejected-row count", "imported_at": "import time",
               "file_name": "file name", "mapping_name": "mapping name"}


@dataclass
class Against:
    """The store checked against a list of good receipts."""

    reader: object
    srcs: list[dict]
    head: dict
    receipts: list[dict]
    whole: bool  # the case's full list (else: one given receipt)
    problems: list[str]
    notes: list[str]

    def check(self) -> None:
        self._chain()
        self._sources()
        self._derived()

    # ---- the chain: at each receipt's position, the value it signed

    def _chain(self) -> None:
        count = int(self.head["record_count"])
        for r in self.receipts:
            n, want = int(r["chain"]["records"]), r["chain"]["head"]
            have = GENESIS if n == 0 else self.reader.chain_at(n)
            if have is None:
                self.problems.append(f"the chain ends at position {count}, but {_name(r)} signed {n} records: "
                                     f"records {count + 1} to {n} were deleted and the head rolled back")
            elif have.hex() != want:
                self.problems.append(f"the chain at position {n} is not the one {_name(r)} signed: records at or "
                                     "before it were rewritten, their hashes recomputed")
        latest = max(int(r["chain"]["records"]) for r in self.receipts)
        if self.whole and count > latest:
            live = {r["source"]["id"] for r in self.receipts if r["kind"] == "live"}
            live |= {x["id"] for r in self.receipts for x in r.get("sources", []) if "upto" in x}
            for s in self.reader.sources_after(latest):
                if s["source_id"] in live:
                    self.notes.append(f"{s['records']:,} frames of live feed {s['file_name']} came after the latest "
                                      "receipt: they are proven by the chain inside the database only")
                else:
                    self.problems.append(f"{_records(s['records'])} of source {s['source_id']} ({s['file_name']}) "
                                         f"from chain position {s['first']} on are on no receipt: they were added "
                                         "outside onrecord (or an import was killed before its receipt)")

    # ---- each source as its receipt saw it

    def _sources(self) -> None:
        seen: dict[int, dict] = {}
        removed: dict[int, dict] = {}
        for r in self.receipts:
            for section in ([r["source"]] if "source" in r else []) + r.get("sources", []):
                seen[int(section["id"])] = {**r, "source": section}
            if r["kind"] == "adopt":
                self.notes.append(f"receipts begin at {_name(r)}: what the case held then is on it as it stood, "
                                  "proven from then on, not before")
            if "removal" in r:
                removed[int(r["removal"]["source"])] = r
        by_id = {int(s["id"]): s for s in self.srcs}
        if self.whole:
            for sid, s in by_id.items():
                if sid not in seen:
                    self.problems.append(f"source {sid} ({s['file_name']}) is on no receipt: it was added to the "
                                         "store outside onrecord")
        present = {sid: r for sid, r in seen.items() if sid in by_id}
        for sid, r in seen.items():
            if sid not in by_id:
                self.problems.append(f"source {sid} ({r['source']['file_name']}) of {_name(r)} is gone from the store")
        got = self._digests_now(present, removed)
        for sid, r in present.items():
            self._source(by_id[sid], r, removed.get(sid), got)

    def _digests_now(self, present: dict[int, dict], removed: dict[int, dict]) -> dict:
        """(table name, source id) -> the digest of the source's rows as stored now: one pass
        over each table for all the sources, in the block sizes their receipts used."""
        from onrecord.store.read_evidence import EVENTS, RAW_LAYOUT

        out = {}
        for covered, name in ((RAW_LAYOUT, "raw records"), (EVENTS, "events")):
            wanted = {sid: (r["source"]["digests"][name]["rows"], r["source"].get("upto", {}).get(name))
                      for sid, r in present.items() if r["source"].get("digests")
                      and not (name == "events" and sid in removed)}
            if wanted:
                for sid, d in self.reader.covered_digests_by_source(covered, wanted).items():
                    out[(name, sid)] = d
        return out

    def _source(self, src: dict, r: dict, removal: dict | None, got: dict) -> None:
        from onrecord.store.read_evidence import EVENTS, RAW_LAYOUT

        then = r["source"]
        now = self._now(int(src["id"]))
        label = f"source {src['id']} ({src['file_name']})"
        withdrawn = src.get("withdrawn_at") is not None
        if removal is None and withdrawn:
            self.problems.append(f"{label} is marked withdrawn, but no removal receipt says so")
        if removal is not None and not withdrawn:
            self.problems.append(f"{label} was removed ({_name(removal)}), but the store holds it as not withdrawn")
        fields = LIVE_FIELDS if "upto" in then else SOURCE_FIELDS
        for f in fields:
            if f == "events" and removal is not None:
                if now["events"] != 0:
                    self.problems.append(f"{label} was removed ({_name(removal)}), but holds {now['events']} events")
                continue
            if then.get(f) != now.get(f):
                self.problems.append(f"{label}: its {FIELD_WORDS.get(f, f)} was changed since {_name(r)} "
                                     f"({_short(then.get(f))} then, {_short(now.get(f))} now)")
        digests = then.get("digests")
        if not digests:
            return
        for covered, name in ((RAW_LAYOUT, "raw records"), (EVENTS, "events")):
            if name == "events" and removal is not None:
                continue
            diff = difference(digests[name], got[(name, int(src["id"]))])
            if diff is not None:
                self.problems.append(f"{self._located(covered, diff)} of {src['file_name']} {diff.verb} since "
                                     f"{_name(r)}{_counts(diff)}")

    def _now(self, source_id: int) -> dict:
        """The source's stored fields as a receipt words them (without reading its rows)."""
        s = next(x for x in self.srcs if int(x["id"]) == source_id)
        return {"file_name": s["file_name"], "file_sha256": s["file_sha256"], "kind": s["kind"], "agency": s["agency"],
                "timezone": s["timezone"], "mapping_name": s["mapping_name"],
                "mapping_sha256": hashlib.sha256(s["mapping_text"].encode("utf-8")).hexdigest(),
                "records": int(s["record_count"]), "events": int(s["event_count"]),
                "rejected": int(s["rejected_count"]), "imported_at": s["imported_at"]}

    def _located(self, covered, diff) -> str:
        where = diff.where(covered.label)
        if diff.key is None:
            return where
        if covered.table.name == "raw_records":
            rec = self.reader.record_at(diff.key)
            return f"{where} ({'now line ' + str(rec['ordinal']) if rec else 'no longer there'})"
        if covered.table.name == "events":
            line = self.reader.event_line(diff.key)
            return f"{where} ({'citing line ' + str(line['ordinal']) if line else 'no longer there'})"
        return where

    # ---- the derived tables as the last build (or linkage, or removal) wrote them

    def _derived(self) -> None:
        from onrecord.store.read_evidence import DERIVED

        made = [r for r in self.receipts if "derived" in r]
        if not made:
            if self.whole and self.reader.has_derived():
                self.problems.append("the derived tables hold rows, but no build receipt covers them: they were "
                                     "written outside onrecord")
            return
        r = made[-1]
        for name, covered in DERIVED.items():
            then = r["derived"].get(name)
            if then is None:
                continue
            got = self.reader.covered_digest(covered)
            diff = difference(then, got)
            if diff is not None:
                self.problems.append(f"{self._located(covered, diff)} {diff.verb} since {_name(r)}{_counts(diff)}")


def _records(n: int) -> str:
    return f"{n:,} record" + ("" if n == 1 else "s")


def _counts(diff) -> str:
    if diff.rows_then == diff.rows_now:
        return ""
    return f" ({diff.rows_then:,} rows then, {diff.rows_now:,} now)"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
