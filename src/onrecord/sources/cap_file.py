"""The `cap` adapter: OASIS CAP 1.2 alerts in (docs/cap.md).

Parsed with defusedxml (no entities, no external references), validated against
`cap12.xsd` (xmlschema) where `ONRECORD_CAP_SCHEMA` or the mapping's `[cap] schema` names
it (OASIS's file: not shipped with onrecord). The records are the alert's `<sent>` element
and each `<info>` block, exactly their bytes and cited by XPath (`/cap:alert/cap:info[2]`);
the rest of the document is kept between them. Events: `alert_sent` at `sent`; for every
`<info>` (each language of an alert is one), `alert_effective` at `effective` (CAP: when
absent, the alert is effective when sent) and `alert_onset` at `onset` where given,
carrying `event`, `headline` and the areas.
"""

from __future__ import annotations

import functools
import json
import os
import re
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

from onrecord.errors import InputError
from onrecord.sources.lines import slice_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.sources.xml_tree import Document, parse_xml

CAP_NS = "urn:oasis:names:tc:emergency:cap:1.2"
NS = {"cap": CAP_NS}
SCHEMA_ENV = "ONRECORD_CAP_SCHEMA"
# CAP 1.2 times: a numeric offset, never Z (the XSD's own pattern)
CAP_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[-+]\d\d:\d\d$")
INFO_FIELDS = ("language", "category", "event", "urgency", "severity", "certainty", "senderName", "headline",
               "description", "instruction", "expires", "web", "contact")
ALERT_FIELDS = ("identifier", "sender", "status", "msgType", "scope", "source", "references", "incidents")


def read_cap(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    if not data.strip():
        raise InputError("the file is empty", file=file)
    doc = parse_xml(data, file, NS)
    if doc.root.tag != f"{{{CAP_NS}}}alert":
        raise InputError(f"not a CAP 1.2 alert: the root element is {doc.xpath(doc.root)!r}, not cap:alert "
                         f"in {CAP_NS}", file=file, line=1)
    parsed = Parsed(records=None)
    _validate(doc, data, mapping, file, parsed)
    sent = doc.root.find("cap:sent", NS)
    infos = doc.root.findall("cap:info", NS)
    parts = ([sent] if sent is not None else []) + infos
    records, wanted = slice_records(data, [(*doc.span(e), doc.xpath(e)) for e in parts])
    parsed.records = records
    line = {id(e): records.ordinals[i] for e, i in zip(parts, wanted)}
    index = {id(e): i for e, i in zip(parts, wanted)}
    alert = {k: _text(doc.root, k) for k in ALERT_FIELDS if _text(doc.root, k) is not None}
    who = agency or mapping.agency or alert.get("sender")
    rows: list[dict] = []

    def emit(elem, kind, time_elem, text, place, attrs, assumed=False):
        written = _text_of(time_elem)
        ms = _time(written)
        if ms is None:
            parsed.rejects.append(Reject(line[id(elem)], f"cap:{_local(time_elem)}", written,
                                         "time is not a CAP time (with a numeric offset)", doc.xpath(elem)))
            return
        rows.append({"record_index": index[id(elem)], "kind": kind, "time_text": written, "t_src_lo": ms,
                     "t_src_hi": ms, "agency": who, "call": alert.get("identifier"), "text": text, "place": place,
                     "attrs": json.dumps({**attrs, **({"effective_assumed": True} if assumed else {})},
                                         ensure_ascii=False, sort_keys=True),
                     # the time element inside the info, where the time is its own
                     "path": doc.xpath(time_elem) if time_elem is not sent else None})

    if sent is not None:
        first = infos[0] if infos else None
        text = _text(first, "headline") or _text(first, "event") if first is not None else None
        emit(sent, "alert_sent", sent, text or alert.get("msgType"), None, {**alert, "infos": len(infos)})
    for elem in infos:
        info = {k: _text(elem, k) for k in INFO_FIELDS if _text(elem, k) is not None}
        areas = [_area(a) for a in elem.findall("cap:area", NS)]
        place = "; ".join(a["areaDesc"] for a in areas if a.get("areaDesc")) or None
        attrs = {**{k: v for k, v in info.items() if k not in ("headline",)}, "areas": areas,
                 "identifier": alert.get("identifier"), "sender": alert.get("sender")}
        text = info.get("headline") or info.get("event")
        effective = elem.find("cap:effective", NS)
        if effective is not None:
            emit(elem, "alert_effective", effective, text, place, attrs)
        elif sent is not None:
            emit(elem, "alert_effective", sent, text, place, attrs, assumed=True)
        onset = elem.find("cap:onset", NS)
        if onset is not None:
            emit(elem, "alert_onset", onset, text, place, attrs)
    parsed.events = events_table({k: [r.get(k) for r in rows] for k in
                                  ("record_index", "kind", "time_text", "t_src_lo", "t_src_hi", "agency", "call",
                                   "text", "place", "attrs", "path")})
    return parsed


def _local(elem: ET.Element) -> str:
    return elem.tag.rsplit("}", 1)[-1]


def _text(elem: ET.Element, name: str) -> str | None:
    return _text_of(elem.find(f"cap:{name}", NS))


def _text_of(elem: ET.Element | None) -> str | None:
    if elem is None or elem.text is None:
        return None
    return elem.text.strip() or None


def _area(area: ET.Element) -> dict:
    out: dict = {"areaDesc": _text(area, "areaDesc")}
    for shape in ("polygon", "circle"):
        values = [_text_of(e) for e in area.findall(f"cap:{shape}", NS)]
        if values:
            out[shape] = values
    codes = [{"valueName": _text(g, "valueName"), "value": _text(g, "value")} for g in area.findall("cap:geocode", NS)]
    if codes:
        out["geocode"] = codes
    return out


def _time(text: str | None) -> int | None:
    if text is None or not CAP_TIME.match(text):
        return None
    return int(datetime.fromisoformat(text).timestamp() * 1000)


def schema_path(mapping: Mapping) -> Path | None:
    path = mapping.options.get("schema") or os.environ.get(SCHEMA_ENV)
    return Path(path) if path else None


@functools.lru_cache(maxsize=4)
def _schema(path: str):
    import xmlschema

    try:
        return xmlschema.XMLSchema(path)
    except (OSError, xmlschema.XMLSchemaException) as exc:
        raise InputError(f"cannot read the CAP schema: {exc}", file=path) from exc


def _validate(doc: Document, data: bytes, mapping: Mapping, file: str, parsed: Parsed) -> None:
    path = schema_path(mapping)
    if path is None:
        parsed.notes.append(f"not validated against cap12.xsd: set {SCHEMA_ENV} to it (times are still "
                            f"checked for CAP's numeric offset)")
        return
    for err in _schema(str(path)).iter_errors(doc.root):
        elem = err.elem if isinstance(getattr(err, "elem", None), ET.Element) else None
        where = doc.xpath(elem) if elem is not None and id(elem) in doc.starts else None
        line = data.count(b"\n", 0, doc.span(elem)[0]) + 1 if where else None
        field = _local(elem) if elem is not None else None
        raise InputError(f"does not follow cap12.xsd: {err.reason or err.message}", file=file, line=line,
                         path=where, field=field)
