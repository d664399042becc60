"""Packed columns: several units (each with its own time) written in one field,
`E12@14:03:22;M7@14:05:10`. `split` cuts the field into pieces, and each piece into named
parts that the event block reads like columns; every piece becomes one event, citing the
row it came from."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.mapping_keys import SPLIT, unknown


@dataclass(frozen=True)
class SplitSpec:
    column: str
    by: str
    into: tuple[str, ...]  # the names of a piece's parts
    sep: str | None = None  # cuts a piece into its parts, or
    pattern: str | None = None  # a regular expression whose named groups are the parts


@dataclass
class Pieces:
    parent: np.ndarray  # the row each piece came from
    parts: dict[str, pa.Array]
    unread: np.ndarray  # pieces the pattern does not match
    text: pa.Array  # each piece as written


def split_spec(value, key: str, fail) -> SplitSpec:
    if not isinstance(value, dict):
        fail(key, 'must be a table like { column = "Units", by = ";", into = ["Unit", "At"], sep = "@" }')
    unknown(value, SPLIT, key, fail)
    column, by = value.get("column"), value.get("by")
    if not isinstance(column, str) or not column:
        fail(f"{key}.column", "is required: the column holding the packed values")
    if not isinstance(by, str) or not by:
        fail(f"{key}.by", "is required: the text between two pieces, e.g. \";\"", by)
    into, sep, pattern = value.get("into"), value.get("sep"), value.get("pattern")
    if (into is None) == (pattern is None):
        fail(key, "needs exactly one of into (names, with sep) or pattern (named groups)")
    if pattern is not None:
        if not isinstance(pattern, str):
            fail(f"{key}.pattern", "must be a regular expression", pattern)
        try:
            names = tuple(re.compile(pattern).groupindex)
            pc.extract_regex(pa.array([], pa.string()), pattern)
        except (re.error, pa.ArrowInvalid) as exc:
            fail(f"{key}.pattern", f"is not a regular expression with named groups this reads: {exc}", pattern)
        if not names:
            fail(f"{key}.pattern", "names no part: write groups like (?P<Unit>[^@]+)@(?P<At>.+)", pattern)
        if sep is not None:
            fail(f"{key}.sep", "is for into; a pattern names its own parts")
        return SplitSpec(column=column, by=by, into=names, pattern=pattern)
    into = (into,) if isinstance(into, str) else into
    if not isinstance(into, list | tuple) or not into or not all(isinstance(n, str) and n for n in into):
        fail(f"{key}.into", "must be a list of names for a piece's parts, e.g. [\"Unit\", \"At\"]", into)
    if len(into) > 1 and not (isinstance(sep, str) and sep):
        fail(f"{key}.sep", "is required when a piece has several parts: the text between them, e.g. \"@\"", sep)
    if len(into) == 1 and sep is not None:
        fail(f"{key}.sep", "cuts a piece into several parts: name them all in into", sep)
    return SplitSpec(column=column, by=by, into=tuple(into), sep=sep)


def explode(values: pa.Array, spec: SplitSpec) -> Pieces:
    lists = pc.split_pattern(values, pattern=spec.by)
    parent = pc.list_parent_indices(lists).to_numpy(zero_copy_only=False)
    pieces = pc.utf8_trim_whitespace(pc.list_flatten(lists))
    written = pc.fill_null(pc.not_equal(pieces, ""), False)  # "E12;;M7;" holds two pieces
    parent = parent[written.to_numpy(zero_copy_only=False)]
    pieces = pieces.filter(written)
    if spec.pattern is not None:
        found = pc.extract_regex(pieces, spec.pattern)
        parts = {n: _blank_as_null(pc.struct_field(found, n)) for n in spec.into}
        return Pieces(parent, parts, pc.is_null(found).to_numpy(zero_copy_only=False), pieces)
    if len(spec.into) == 1:
        return Pieces(parent, {spec.into[0]: pieces}, np.zeros(len(pieces), dtype=bool), pieces)
    cut = pc.split_pattern(pieces, pattern=spec.sep, max_splits=len(spec.into) - 1)
    flat = pc.utf8_trim_whitespace(pc.list_flatten(cut))
    starts = cut.offsets.to_numpy()[:-1]
    lengths = pc.list_value_length(cut).to_numpy(zero_copy_only=False)
    parts = {}
    for i, name in enumerate(spec.into):
        # A piece with fewer parts ("E12" where "E12@14:03" was expected) leaves the rest blank.
        has = lengths > i
        at = pa.array(np.where(has, starts + i, 0), mask=~has)
        parts[name] = _blank_as_null(flat.take(at)) if len(flat) else pa.nulls(len(pieces), pa.string())
    return Pieces(parent, parts, np.zeros(len(pieces), dtype=bool), pieces)


def _blank_as_null(values: pa.Array) -> pa.Array:
    values = pc.utf8_trim_whitespace(values)
    return pc.if_else(pc.equal(values, ""), pa.scalar(None, pa.string()), values)
