"""`onrecord verify` for records cited by path: each record of a JSON or XML source must
still be exactly the value its JSON Pointer or XPath names in the file its records add
up to. The hash chain proves the bytes unchanged; this proves the path each event cites
still leads to those bytes (a path rewritten in the store would otherwise go unseen)."""

from __future__ import annotations

import json
import tomllib

from onrecord.errors import InputError
from onrecord.sources.xml_tree import parse_xml


def check_source_paths(file_name: str, mapping_text: str, records: list[tuple[bytes, int, str | None]]) -> str | None:
    """records: (raw, line, path) in file order; the mapping as stored says the XML prefixes
    its paths use. None when every path holds; else the first problem."""
    if not any(path is not None for _, _, path in records):
        return None
    data = b"".join(raw for raw, _, _ in records)
    offsets, at = [], 0
    for raw, _, _ in records:
        offsets.append(at)
        at += len(raw)
    if data.lstrip()[:1] == b"<":
        return _check_xml(file_name, data, records, offsets, _namespaces(mapping_text))
    return _check_json(file_name, data, records)


def _problem(file_name: str, line: int, path: str, why: str) -> str:
    return f"{file_name}, line {line}, at {path!r}: {why}"


def _check_json(file_name: str, data: bytes, records) -> str | None:
    doc = None
    for raw, line, path in records:
        if path is None:
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            return _problem(file_name, line, path, "the record is no longer one JSON value")
        if not path.startswith("/"):  # a line of NDJSON, a whole document, a folder's file: its own root
            continue
        if doc is None:
            try:
                doc = json.loads(data)
            except ValueError:
                return f"{file_name}: its records no longer add up to a JSON document"
        try:
            held = resolve_pointer(doc, path)
        except LookupError:
            return _problem(file_name, line, path, "the path names nothing in the file")
        if held != value:
            return _problem(file_name, line, path, "the path no longer leads to this record's bytes")
    return None


def resolve_pointer(doc, pointer: str):
    """RFC 6901."""
    value = doc
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                raise LookupError(pointer)
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            value = value[token]
        else:
            raise LookupError(pointer)
    return value


def _namespaces(mapping_text: str) -> dict[str, str]:
    try:
        ns = tomllib.loads(mapping_text).get("file", {}).get("namespaces", {})
    except tomllib.TOMLDecodeError:
        return {}
    return ns if isinstance(ns, dict) else {}


def _check_xml(file_name: str, data: bytes, records, offsets, namespaces) -> str | None:
    try:
        doc = parse_xml(data, file_name, namespaces)
    except InputError:
        return f"{file_name}: its records no longer add up to an XML document"
    spans = {doc.xpath(e): doc.span(e) for e in doc.root.iter()}
    for (raw, line, path), at in zip(records, offsets):
        if path is None:
            continue
        if spans.get(path) != (at, at + len(raw)):
            return _problem(file_name, line, path, "the path no longer leads to this record's bytes")
    return None
