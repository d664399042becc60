"""Field values for every row at once: columns, code tables, templates, points."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.mapping import OTHER_CODE, REFUSE_CODE, TEMPLATE_COLUMN, FieldSpec

NULL_STR = pa.scalar(None, pa.string())
POINT = r"^\s*\(?\s*(?P<lat>-?\d+(?:\.\d+)?)\s*,\s*(?P<lon>-?\d+(?:\.\d+)?)\s*\)?\s*$"


def template(text: str, table: dict[str, pa.Array], rows: int) -> pa.Array:
    """Fill `{Column}` placeholders row by row; a blank column becomes empty text."""
    pieces, at = [], 0
    for m in TEMPLATE_COLUMN.finditer(text):
        if m.start() > at:
            pieces.append(pa.scalar(text[at:m.start()]))
        pieces.append(pc.fill_null(table[m.group(1)], ""))
        at = m.end()
    if at < len(text):
        pieces.append(pa.scalar(text[at:]))
    if not any(isinstance(p, (pa.Array, pa.ChunkedArray)) for p in pieces):
        return pa.array([text] * rows, pa.string())
    joined = pc.binary_join_element_wise(*pieces, "")
    return pc.if_else(pc.equal(pc.utf8_trim_whitespace(joined), ""), NULL_STR, joined)


def matched(values: pa.Array, pattern: str) -> pa.Array:
    """What a regular expression finds in each value: its first group, or the whole match
    (the day out of "10/21/2024 14:03:22" with "^(\\S+)"); blank where it finds nothing."""
    import re

    inner = pattern if re.compile(pattern).groups else f"({pattern})"  # Python and RE2 agree on groups
    found = pc.replace_substring_regex(values, f"^(?s:.*?)(?:{inner})(?s:.*)$", r"\1")
    hit = pc.fill_null(pc.match_substring_regex(values, pattern), False)
    return pc.if_else(pc.and_(hit, pc.not_equal(found, "")), found, NULL_STR)


# A code table's own settings, beside its codes (docs/mappings.md, [codes.NAME]): what a
# value it does not list reads as (`default = "..."`), or that such a value is refused
# (`unlisted = "refuse"`). Stored under keys no written value can be.
OTHER, REFUSE = OTHER_CODE, REFUSE_CODE


class Unlisted(Exception):
    """A value a code table that refuses unlisted values does not list: the reader names
    the file, line and column (rows.py)."""

    def __init__(self, table: str, value: str, index: int):
        super().__init__(value)
        self.table, self.value, self.index = table, value, index


def translate(values: pa.Array, table: dict[str, str], name: str, uncoded: dict) -> pa.Array:
    """Look values up in a code table. A value with no entry reads as the table's `default`;
    without one it is kept as written and counted (the import summary lists it), or, where
    the table says `unlisted = "refuse"`, it is an error."""
    codes = {k: v for k, v in table.items() if k not in (OTHER, REFUSE)}
    keys = pa.array(list(codes.keys()), pa.string())
    found = pc.index_in(values, value_set=keys)
    mapped = pc.take(pa.array(list(codes.values()), pa.string()), found)
    missing = pc.and_(pc.is_null(found), pc.is_valid(values))
    if OTHER in table:
        return _blank_as_null(pc.if_else(missing, pa.scalar(table[OTHER], pa.string()), mapped))
    if REFUSE in table and pc.any(missing).as_py():
        at = pc.index(missing, True).as_py()
        raise Unlisted(name, values[at].as_py(), at)
    for v in pc.filter(values, missing).to_pylist():
        uncoded[(name, v)] = uncoded.get((name, v), 0) + 1
    return _blank_as_null(pc.coalesce(mapped, values))


def _blank_as_null(values: pa.Array) -> pa.Array:
    """A code that reads as "" blanks the value (`DISPATCH = ""`: a console is no unit)."""
    return pc.if_else(pc.fill_null(pc.equal(values, ""), False), NULL_STR, values)


def field_values(spec: FieldSpec, table: dict[str, pa.Array], rows: int, codes: dict, uncoded: dict) -> pa.Array:
    if spec.value is not None:  # the same for every row ("typed by the dispatcher")
        values = pa.array([spec.value] * rows, pa.string())
    elif spec.template is not None:
        values = template(spec.template, table, rows)
    else:
        values = table[spec.column]
    if spec.pattern is not None:
        values = matched(values, spec.pattern)
    if spec.codes:
        values = translate(values, codes[spec.codes], spec.codes, uncoded)
    if spec.pick:
        values = pc.struct_field(pc.extract_regex(values, POINT), spec.pick)
    if spec.default is not None:
        blank = pc.fill_null(pc.equal(pc.utf8_trim_whitespace(values), ""), True)
        values = pc.if_else(blank, spec.default, values)
    return values


def as_float(values: pa.Array) -> pa.Array:
    ok = pc.fill_null(pc.match_substring_regex(values, r"^\s*-?\d+(\.\d+)?\s*$"), False)
    return pc.cast(pc.if_else(ok, pc.utf8_trim_whitespace(values), NULL_STR), pa.float64())


def json_object(names: list[str], arrays: list[pa.Array], rows: int) -> pa.Array:
    """One JSON object per row, built column-wise (a Python dict per row is too slow)."""
    if not names:
        return pa.nulls(rows, pa.string())
    parts: list = []
    for i, (name, values) in enumerate(zip(names, arrays)):
        parts.append(pa.scalar(("{" if i == 0 else ",") + _json_str(name) + ":"))
        parts.append(pc.fill_null(pc.binary_join_element_wise('"', _escape(values), '"', ""), "null"))
    parts.append(pa.scalar("}"))
    return pc.binary_join_element_wise(*parts, "")


def _json_str(s: str) -> str:
    import json

    return json.dumps(s)


def _escape(values: pa.Array) -> pa.Array:
    values = pc.cast(values, pa.string())
    values = pc.replace_substring(values, "\\", "\\\\")
    values = pc.replace_substring(values, '"', '\\"')
    values = pc.replace_substring(values, "\n", "\\n")
    values = pc.replace_substring(values, "\r", "\\r")
    values = pc.replace_substring(values, "\t", "\\t")
    # Other control characters cannot stand in JSON text; the raw record keeps them.
    return pc.replace_substring_regex(values, r"[\x00-\x1f]", "\ufffd")
