"""XML exports (one file per call, or many calls in one file) read through a mapping.

`[file] records` is an XPath as ElementTree reads it (`call`, `.//Call`, `/calls/call`,
`cap:info`), prefixes declared in `[file.namespaces]`. The mapping's columns are paths
relative to each record: `Unit/Id` (the element's text; several matches are joined with
"; "), `@id` or `Unit/@id` (an attribute), `.` (the record's own text), and a path
starting with `/` is read from the document's root (a CAP alert's `sent` for each
`info`). Every record is the exact bytes of its element, cited by line and XPath.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pyarrow as pa

from onrecord.errors import InputError
from onrecord.sources.lines import slice_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed
from onrecord.sources.rows import RowReader
from onrecord.sources.xml_tree import Document, parse_xml


def read_xml(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    if not data.strip():
        raise InputError("the file is empty", file=file)
    doc = parse_xml(data, file, mapping.namespaces)
    return read_document(doc, data, mapping, file, tz, agency)


def read_document(doc: Document, data: bytes, mapping: Mapping, file: str, tz, agency) -> Parsed:
    elems = select(doc, mapping.records or ".", mapping, "file.records")
    elems.sort(key=lambda e: doc.span(e)[0])
    records, wanted = slice_records(data, [(*doc.span(e), doc.xpath(e)) for e in elems])
    parsed = Parsed(records=records)
    if not elems:
        return parsed
    table = columns_table(doc, elems, mapping)
    RowReader(mapping, table, wanted, [records.ordinals[i] for i in wanted], file, tz, agency, parsed,
              cites=[records.paths[i] for i in wanted]).read()
    return parsed


def select(doc: Document, path: str, mapping: Mapping, key: str) -> list[ET.Element]:
    """The elements an XPath selects; an absolute path (`/calls/call`) starts at the root."""
    ns = mapping.namespaces
    try:
        if path.startswith("//"):
            found = doc.root.findall("." + path, ns)
            return ([doc.root] if _matches(doc.root, path[2:], ns) else []) + found
        if path.startswith("/"):
            first, _, rest = path[1:].partition("/")
            if not _matches(doc.root, first, ns):
                return []
            return [doc.root] if not rest else doc.root.findall(rest, ns)
        return doc.root.findall(path, ns)
    except (SyntaxError, KeyError) as exc:
        raise InputError(f"cannot read the XPath: {exc}", file=mapping.origin, field=key, value=path) from exc


def _matches(elem: ET.Element, step: str, ns: dict) -> bool:
    if step == "*":
        return True
    if ":" in step:
        prefix, local = step.split(":", 1)
        return prefix in ns and elem.tag == f"{{{ns[prefix]}}}{local}"
    return elem.tag == step


def columns_table(doc: Document, elems: list[ET.Element], mapping: Mapping) -> pa.Table:
    nulls = set(mapping.null_values)
    cols = {}
    for col in mapping.columns_used():
        texts = [value_at(doc, e, col, mapping) for e in elems]
        cols[col] = pa.array([None if t in nulls else t for t in texts], pa.string())
    return pa.table(cols)


def value_at(doc: Document, elem: ET.Element, path: str, mapping: Mapping) -> str | None:
    ns = mapping.namespaces
    if path.startswith("/"):
        elem, path = doc.root, path[1:].partition("/")[2] or "."
    where, _, attr = path.partition("@")
    where = where.rstrip("/") or "."
    try:
        found = [elem] if where == "." else elem.findall(where, ns)
    except (SyntaxError, KeyError) as exc:
        raise InputError(f"cannot read the path: {exc}", file=mapping.origin, field="fields", value=path) from exc
    if attr:
        texts = [e.get(_attr_name(attr, ns)) for e in found]
    else:
        texts = ["".join(e.itertext()).strip() if len(e) == 0 else (e.text or "").strip() for e in found]
    texts = [t for t in texts if t]
    return "; ".join(texts) if texts else None


def _attr_name(attr: str, ns: dict) -> str:
    if ":" in attr:
        prefix, local = attr.split(":", 1)
        if prefix in ns:
            return f"{{{ns[prefix]}}}{local}"
    return attr
