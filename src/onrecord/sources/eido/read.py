"""The `eido` adapter: EIDO snapshots in, events out.

What it reads (docs/eido.md): one EIDO document; a JSON array of them; an NDJSON stream
(one EIDO, or one NENA-STA-024 `event` message, a line); a folder of EIDO files (the
importer hands the files in name order); an `event` message's `notification` EIDOs. Each
document, array item, line or file is one raw record, exactly its bytes.

An EIDO is the state of the incident when it was sent, not a history: events come from
comparing each snapshot with the one before, component by component (`$id`), and are
stamped with the changed component's `lastUpdateTimeStamp` (a call's own times where it
has them). Each event cites its record's line and the component's JSON Pointer.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from onrecord.errors import InputError
from onrecord.sources.csv_file import decode
from onrecord.sources.eido import registry
from onrecord.sources.eido.schema import EidoSchema, schema_path
from onrecord.sources.json_spans import ByteOffsets, find_records, parse_path
from onrecord.sources.lines import Records, non_blank, slice_records, split_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table


@dataclass
class Snapshot:
    record: int  # index of the raw record it is in
    pointer: str  # where the EIDO is inside that record ("" for the whole record)
    eido: dict


@dataclass
class Part:
    """One file of what is imported (a folder gives several): its name and bytes."""
    name: str
    data: bytes


def read_eido(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    return read_eido_parts([Part(file, data)], mapping, file, tz, agency)


def read_eido_parts(parts: list[Part], mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    # Every snapshot stays in memory until diffed: the cyclic collector would rescan them all
    # over and over (nearly half the time at 100,000 snapshots); JSON makes no cycles.
    with no_cycle_collection():
        return _read_parts(parts, mapping, file, tz, agency)


@contextmanager
def no_cycle_collection():
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _read_parts(parts: list[Part], mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    folder = len(parts) > 1
    raws, ordinals, paths, snapshots = [], [], [], []
    for part in parts:
        records, snaps = _records(part, mapping)
        base = len(raws)
        raws += records.raws
        ordinals += records.ordinals
        own = records.paths or [None] * len(records.raws)
        if folder:  # a folder's records are cited by file name first: `snapshot-02.json`, `all.json#/3`
            own = [part.name if p == "" else f"{part.name}#{p}" if p is not None else None for p in own]
        paths += own
        snapshots += [Snapshot(s.record + base, s.pointer, s.eido) for s in snaps]
    parsed = Parsed(records=Records(raws, ordinals, paths))
    where = Where(parts, parsed.records, file, folder)
    check = Checker(mapping, where, parsed)
    for snap in snapshots:
        check.snapshot(snap)
    parsed.events = events_table(Differ(where, agency, parsed).run(snapshots))
    return parsed


# ---- bytes -> records and the EIDOs in them

def _records(part: Part, mapping: Mapping) -> tuple[Records, list[Snapshot]]:
    decode(part.data, mapping.encoding, part.name)
    text = part.data.decode(mapping.encoding)
    if not text.strip():
        raise InputError("the file is empty", file=part.name)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as whole:
        return _ndjson(part, mapping, whole)
    if isinstance(doc, list):  # an array of EIDOs or messages: each item a record
        spans = find_records(text, parse_path("$[*]", part.name, "file"), 1 if text.startswith("\ufeff") else 0)
        at = ByteOffsets(text, part.data)
        records, wanted = slice_records(part.data, [(at(s.start), at(s.end), s.pointer) for s in spans])
        snaps = [s for i, span in zip(wanted, spans) for s in _eidos(span.value, i, "", part.name,
                                                                       records.ordinals[i])]
        return records, snaps
    return Records([part.data], [1], [""]), _eidos(doc, 0, "", part.name, 1)


def _ndjson(part: Part, mapping: Mapping, whole: json.JSONDecodeError) -> tuple[Records, list[Snapshot]]:
    records = split_records(part.data, b"")
    lines = non_blank(records.raws)
    values = []
    for i in lines:
        try:
            values.append(json.loads(records.raws[i].decode(mapping.encoding)))
        except json.JSONDecodeError as exc:
            if i == lines[0]:  # not NDJSON at all: one document spread over lines, broken where it says
                raise InputError(f"not valid JSON: {whole.msg} (column {whole.colno})", file=part.name,
                                 line=whole.lineno) from whole
            raise InputError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=part.name,
                             line=records.ordinals[i]) from exc
    paths: list[str | None] = [None] * len(records.raws)
    snaps = []
    for i, value in zip(lines, values):
        paths[i] = ""
        snaps += _eidos(value, i, "", part.name, records.ordinals[i])
    return Records(records.raws, records.ordinals, paths), snaps


def _eidos(value, record: int, pointer: str, file: str, line: int) -> list[Snapshot]:
    """The EIDOs in one record: the record itself, or a NENA-STA-024 event's notification."""
    if isinstance(value, dict) and isinstance(value.get("event"), dict):
        note = value["event"].get("notification")
        if not isinstance(note, list):
            raise InputError("a NENA-STA-024 event message without a notification list", file=file, line=line,
                             path=f"{pointer}/event", field="notification")
        return [s for i, item in enumerate(note)
                for s in _eidos(item, record, f"{pointer}/event/notification/{i}", file, line)]
    if isinstance(value, dict) and ("eidoVersion" in value or "$id" in value):
        return [Snapshot(record, pointer, value)]
    raise InputError("neither an EIDO (no eidoVersion) nor a NENA-STA-024 event message", file=file, line=line,
                     path=pointer or "/")


# ---- where things are, for messages and citations

class Where:
    def __init__(self, parts: list[Part], records: Records, file: str, folder: bool):
        self.records, self.file, self.folder = records, file, folder

    def line(self, snap: Snapshot) -> int:
        return self.records.ordinals[snap.record]

    def path(self, snap: Snapshot, inner: str) -> str:
        """The citation inside the record: `file.json#/pointer` for a folder's file."""
        pointer = snap.pointer + inner
        record_path = self.records.paths[snap.record] if self.records.paths else None
        if not (self.folder and record_path):
            return pointer
        return f"{record_path}{pointer}" if "#" in record_path else f"{record_path}#{pointer}"

    def error(self, snap: Snapshot, inner: str, field: str | None, message: str) -> InputError:
        return InputError(message, file=self.file, line=self.line(snap), path=self.path(snap, inner) or "/",
                          field=field)


# ---- checks: casing (tolerant), the schema, $ref

class Checker:
    def __init__(self, m: Mapping, where: Where, parsed: Parsed):
        self.where, self.parsed, self.tolerant = where, parsed, bool(m.options.get("tolerant", False))
        path = schema_path(m.options.get("schema"))
        self.schema = EidoSchema(path) if path else None
        if self.schema is None:
            parsed.notes.append("not validated against the NENA EIDO schema: set ONRECORD_EIDO_SCHEMA to its "
                                "openapi.yaml (components and $ref are still checked)")
        else:
            parsed.notes += [f"EIDO schema {path.name}: patched in memory: {p}" for p in self.schema.patches]

    def snapshot(self, snap: Snapshot) -> None:
        if self.schema is not None:
            self._casing(snap)
            for pointer, fld, message in self.schema.violations(snap.eido):
                if not self.tolerant:
                    raise self.where.error(snap, pointer, fld, f"does not follow the EIDO schema: {message}")
                self._deviation(snap, pointer, fld, f"does not follow the EIDO schema: {message}")
        self._refs(snap)

    def _casing(self, snap: Snapshot) -> None:
        """A key the schema names in another casing (EidoLib's lastUpdateTimestamp)."""
        known = {n.casefold(): n for n in self.schema.names}
        stack = [(snap.eido, "")]
        while stack:
            node, at = stack.pop()
            if isinstance(node, dict):
                for key in list(node):
                    right = known.get(key.casefold()) if key not in self.schema.names else None
                    if right and right not in node:
                        if not self.tolerant:
                            raise self.where.error(snap, at, key, f"is not a name in the EIDO schema; it is "
                                                   f"written {right!r} there (the mapping eido-tolerant reads it)")
                        node[right] = node.pop(key)
                        self._deviation(snap, at, key, f"read as {right!r} (the schema's casing)")
                        key = right
                    stack.append((node[key], f"{at}/{key}"))
            elif isinstance(node, list):
                stack.extend((v, f"{at}/{i}") for i, v in enumerate(node))

    def _deviation(self, snap: Snapshot, pointer: str, fld: str, message: str) -> None:
        self.parsed.notes.append(f"deviation: {self.where.file}, line {self.where.line(snap)}, at "
                                 f"{self.where.path(snap, pointer) or '/'}, field {fld!r}: {message}")

    def _refs(self, snap: Snapshot) -> None:
        ids: set = set()
        targets: set = set()
        _ids_and_refs(snap.eido, ids, targets)
        if targets <= ids:  # the common case, found without building a pointer for every node
            return
        self._dangling(snap)

    def _dangling(self, snap: Snapshot) -> None:
        ids = set()
        refs = []
        stack = [(snap.eido, "", None)]
        while stack:
            node, at, key = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("$id"), str):
                    ids.add(node["$id"])
                if set(node) == {"$ref"}:
                    refs.append((node["$ref"], at, key))
                    continue
                stack.extend((v, f"{at}/{k}", k) for k, v in node.items())
            elif isinstance(node, list):
                stack.extend((v, f"{at}/{i}", key) for i, v in enumerate(node))
        for target, at, key in sorted(refs, key=lambda r: r[1]):
            if target not in ids:
                raise self.where.error(snap, at, key, f"$ref {target!r} names no component of this EIDO "
                                       f"(a dangling reference)")


def _ids_and_refs(node, ids: set, targets: set) -> None:
    """Every $id and every $ref target under `node` (exact types: JSON gives only dict and list)."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        if type(n) is dict:
            ref = n.get("$ref")
            if ref is not None and len(n) == 1:
                targets.add(ref)
                continue
            cid = n.get("$id")
            if type(cid) is str:
                ids.add(cid)
            for v in n.values():
                if type(v) is dict or type(v) is list:
                    push(v)
        else:
            for v in n:
                if type(v) is dict or type(v) is list:
                    push(v)


# ---- snapshots -> events

CONTAINERS_READ = ("incidentComponent", "callComponent", "agencyComponent", "dispatchComponent",
                   "emergencyResourceComponent", "notesComponent")


def components(eido: dict, container: str) -> list[tuple[str, dict]]:
    """(pointer, component) of one container (incidentComponent is one object in the schema)."""
    value = eido.get(container)
    if isinstance(value, dict):
        return [(f"/{container}", value)]
    if isinstance(value, list):
        return [(f"/{container}/{i}", c) for i, c in enumerate(value) if isinstance(c, dict)]
    return []


def ref(value) -> str | None:
    return value.get("$ref") if isinstance(value, dict) else None


def refs(value) -> list[str]:
    return [r for r in (ref(v) for v in value or ()) if r] if isinstance(value, list) else []


def as_list(value) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value is not None else []


def read_time(text) -> int | None:
    if not isinstance(text, str):
        return None
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return None if t.tzinfo is None else int(t.timestamp() * 1000)


@dataclass
class Differ:
    where: Where
    agency: str | None
    parsed: Parsed
    seen: dict = field(default_factory=dict)  # $id -> the component as last seen
    cols: dict = field(default_factory=lambda: {"record_index": []})
    dispatched: set = field(default_factory=set)  # units whose dispatch is an event already

    def run(self, snapshots: list[Snapshot]) -> dict:
        for snap in snapshots:
            self.snapshot(snap)
        return self.cols

    def emit(self, snap: Snapshot, inner: str, kind: str, time_text, **values) -> None:
        ms = read_time(time_text)
        if ms is None:
            self.parsed.rejects.append(Reject(self.where.line(snap), values.pop("time_field", "lastUpdateTimeStamp"),
                                              None if time_text is None else str(time_text),
                                              "time is not an RFC 3339 time with an offset",
                                              self.where.path(snap, inner)))
            return
        values.pop("time_field", None)
        row = {"record_index": snap.record, "kind": kind, "time_text": time_text, "t_src_lo": ms, "t_src_hi": ms,
               "path": self.where.path(snap, inner), **values}
        row["agency"] = row.get("agency") or self.agency
        row["attrs"] = json.dumps(row.get("attrs") or {}, ensure_ascii=False, sort_keys=True)
        n = len(self.cols["record_index"])
        for k in row:
            if k not in self.cols:  # a column first seen now: null for the events before
                self.cols[k] = [None] * n
        for k, values in self.cols.items():
            values.append(row.get(k))

    def snapshot(self, snap: Snapshot) -> None:
        e = snap.eido
        incident = e.get("$id")
        self.names = {c.get("$id"): c.get("emergencyResourceName") or c.get("$id")
                      for _, c in components(e, "emergencyResourceComponent")}
        self.calls = [c.get("$id") for _, c in components(e, "callComponent")]
        ctx = {"call": incident}
        for p, c in components(e, "incidentComponent"):
            self._incident(snap, p, c, ctx)
        for p, c in components(e, "callComponent"):
            self._call(snap, p, c, ctx)
        for p, c in components(e, "agencyComponent"):
            self._agency(snap, p, c, ctx)
        for p, c in components(e, "emergencyResourceComponent"):
            self._unit(snap, p, c, ctx)
        for p, c in components(e, "dispatchComponent"):
            self._dispatch(snap, p, c, ctx)
        for p, c in components(e, "notesComponent"):
            self._note(snap, p, c, ctx)
        for container in CONTAINERS_READ:
            for _, c in components(e, container):
                if c.get("$id") is not None:
                    self.seen[(container, c["$id"])] = c

    def _before(self, container: str, c: dict) -> dict | None:
        return self.seen.get((container, c.get("$id")))

    def _incident(self, snap, p, c, ctx) -> None:
        before = self._before("incidentComponent", c)
        kind_of = c.get("incidentTypeCommonRegistryText")
        attrs = {"incident_type": kind_of, "incident_id": c.get("$id"), "eido_id": c.get("$id")}
        agency = ref(c.get("updatedByAgencyReference"))
        if before is None:
            self.emit(snap, p, "incident_created", c.get("lastUpdateTimeStamp"), agency=agency, call=ctx["call"],
                      text=c.get("incidentTypeInternalText") or kind_of, attrs=attrs)
        old = set(as_list((before or {}).get("incidentStatusCommonRegistryText")))
        for status in as_list(c.get("incidentStatusCommonRegistryText")):
            if status in old:
                continue
            kind, _ = registry.lookup(registry.INCIDENT_STATUS, status)
            self.emit(snap, p, kind or registry.OTHER_INCIDENT_STATUS, c.get("lastUpdateTimeStamp"), agency=agency,
                      call=ctx["call"], text=status, attrs={**attrs, "status": status})

    def _call(self, snap, p, c, ctx) -> None:
        before = self._before("callComponent", c)
        agency = ref(c.get("updatedByAgencyReference"))
        attrs = {"call_id": c.get("$id"), "eido_id": c.get("$id"), "direction": c.get("direction"),
                 "call_type": c.get("standardPrimaryCallType"), "queue": c.get("queueIdentifier")}
        attrs = {k: v for k, v in attrs.items() if v is not None}
        if before is None:
            self.emit(snap, p, "call_received", c.get("callStartTimestamp") or c.get("lastUpdateTimeStamp"),
                      agency=agency, call=ctx["call"], text=c.get("standardPrimaryCallType"), attrs=attrs,
                      time_field="callStartTimestamp")
        if c.get("answerDate") and not (before or {}).get("answerDate"):
            self.emit(snap, p, "call_answered", c["answerDate"], agency=agency, call=ctx["call"],
                      actor=next(iter(refs(c.get("agentReference"))), None), attrs=attrs, time_field="answerDate")

    def _agency(self, snap, p, c, ctx) -> None:
        before = self._before("agencyComponent", c)
        roles = as_list(c.get("agencyRoleDescriptionRegistryText"))
        had = as_list((before or {}).get("agencyRoleDescriptionRegistryText"))
        if registry.TRANSFERRED_TO in roles and registry.TRANSFERRED_TO not in had:
            by = ref(c.get("updatedByAgencyReference"))
            self.emit(snap, p, "call_transferred", c.get("lastUpdateTimeStamp"),
                      agency=by if by != c.get("$id") else self._receiving(snap) or by, call=ctx["call"],
                      text=f"transferred to {c.get('$id')}",
                      attrs={"to": c.get("$id"), "call_id": self.calls[0] if self.calls else None,
                             "eido_id": c.get("$id")})

    def _receiving(self, snap) -> str | None:
        """The agency that took the call first (CallReceiving): who a transfer comes from."""
        for _, a in components(snap.eido, "agencyComponent"):
            if "CallReceiving" in as_list(a.get("agencyRoleDescriptionRegistryText")):
                return a.get("$id")
        return None

    def _unit(self, snap, p, c, ctx) -> None:
        before = self._before("emergencyResourceComponent", c)
        old = set(as_list((before or {}).get("secondaryUnitStatusRegistryText")))
        unit = c.get("emergencyResourceName") or c.get("$id")
        agency = ref(c.get("updatedByAgencyReference"))
        for status in as_list(c.get("secondaryUnitStatusRegistryText")):
            if status in old:
                continue
            kind, spelled = registry.lookup(registry.UNIT_STATUS, status)
            if spelled:
                self.parsed.notes.append(f"deviation: {self.where.file}, line {self.where.line(snap)}, at "
                                         f"{self.where.path(snap, p)}, field 'secondaryUnitStatusRegistryText': "
                                         f"{status!r} read as the registry's {spelled!r}")
            kind = kind or registry.UNKNOWN_UNIT_STATUS
            if kind == "unit_dispatched":
                if unit in self.dispatched:
                    continue
                self.dispatched.add(unit)
            self.emit(snap, p, kind, c.get("lastUpdateTimeStamp"), agency=agency, unit=unit, call=ctx["call"],
                      text=spelled or status,
                      attrs={"status": spelled or status, "eido_id": c.get("$id"),
                             "resource_type": c.get("emergencyResourceTypeCommonRegistryText"),
                             "primary_status": c.get("primaryUnitStatusRegistryText")})

    def _dispatch(self, snap, p, c, ctx) -> None:
        if self._before("dispatchComponent", c) is not None:
            return
        agency = ref(c.get("agencyReference")) or ref(c.get("updatedByAgencyReference"))
        for unit_id in refs(c.get("emergencyResourceReference")):
            unit = self.names.get(unit_id, unit_id)
            if unit in self.dispatched:
                continue
            self.dispatched.add(unit)
            self.emit(snap, p, "unit_dispatched", c.get("lastUpdateTimeStamp"), agency=agency, unit=unit,
                      call=ctx["call"], actor=ref(c.get("agentReference")),
                      attrs={"dispatch_id": c.get("$id"), "eido_id": unit_id})

    def _note(self, snap, p, c, ctx) -> None:
        before = self._before("notesComponent", c)
        if before is not None and before.get("notesActionComments") == c.get("notesActionComments"):
            return
        self.emit(snap, p, "note", c.get("lastUpdateTimeStamp"), agency=ref(c.get("updatedByAgencyReference")),
                  call=ctx["call"], actor=ref(c.get("agentReference")), text=c.get("notesActionComments"),
                  attrs={"eido_id": c.get("$id"), "revised": before is not None})
