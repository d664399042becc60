"""Digests of stored rows, kept in receipts, so a changed row is found and named.

A digest is the SHA-256 of the rows' canonical values in key order, and of blocks of
them: at most MAX_BLOCKS blocks, so a table of up to that many rows is named row by row
("finding 12 was altered") and a larger one by the range of keys of the block that
changed, while a receipt stays small (a few hundred kB at the most).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

MAX_BLOCKS = 1024
SHORT = 16  # hex characters of a block's SHA-256 kept: a chance change is missed one time in 2**64
NULL = "\\N"  # no escaped value reads so: a backslash in a value is doubled first
FIELD, ROW = "\x1f", "\n"


def _hex(values: pa.Array) -> pa.Array:
    """Bytes as lower-case hex, column-wise where every value has one length (hashes)."""
    lengths = pc.binary_length(values)
    width = pc.max(lengths).as_py()
    if values.null_count or not width or pc.min(lengths).as_py() != width:
        return pa.array([None if v is None else v.hex() for v in values.to_pylist()], pa.string())
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset:values.offset + len(values) + 1]
    data = np.frombuffer(values.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
    digits = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
    pairs = np.stack([digits[data >> 4], digits[data & 15]], axis=1).reshape(len(values), width * 2)
    return pa.array(pairs.view(f"S{width * 2}").ravel().astype(str), pa.string())


def _text(values: pa.Array, kind: pa.DataType) -> pa.Array:
    """One canonical text per value: numbers as Arrow writes them, bytes as hex, text with
    the backslash, field and row separators escaped, NULL as \\N."""
    values = values.cast(kind)
    if pa.types.is_binary(kind):
        out = _hex(values)
    elif pa.types.is_string(kind):
        out = pc.replace_substring(values, "\\", "\\\\")
        out = pc.replace_substring(pc.replace_substring(out, FIELD, "\\u"), ROW, "\\n")
    else:
        out = values.cast(pa.string())
    return out.fill_null(NULL)


def _regrouped(batches: Iterable[pa.RecordBatch], rows: int = 65_536) -> Iterable[pa.RecordBatch]:
    """Batches of at least `rows` rows (the last may be fewer): a driver's batches of a
    thousand rows would spend the time on the calls, not on the rows."""
    held, n = [], 0
    for batch in batches:
        held.append(batch)
        n += batch.num_rows
        if n >= rows:
            yield from pa.Table.from_batches(held).combine_chunks().to_batches()
            held, n = [], 0
    if held:
        yield from pa.Table.from_batches(held).combine_chunks().to_batches()


class Digester:
    """A digest made as rows come, a batch at a time (several at once in one pass over a
    table: one per source)."""

    def __init__(self, count: int, schema: pa.Schema, key: str):
        self.block = max(1, -(-count // MAX_BLOCKS))
        self.schema, self.at = schema, schema.get_field_index(key)
        self.whole, self.part, self.blocks, self.n = hashlib.sha256(), None, [], 0

    def feed(self, batch: pa.RecordBatch) -> None:
        if not batch.num_rows:
            return
        schema, block = self.schema, self.block
        texts = [_text(batch.column(i), schema.field(i).type) for i in range(len(schema))]
        lines = pc.binary_join_element_wise(*texts, FIELD)
        lines = pc.binary_join_element_wise(lines, pa.array([""] * batch.num_rows), ROW).cast(pa.large_string())
        offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
        data = memoryview(lines.buffers()[2])
        keys = batch.column(self.at).cast(pa.int64()).to_numpy(zero_copy_only=False)
        i = 0
        while i < batch.num_rows:
            if self.n % block == 0:
                self._close_block()
                self.part = hashlib.sha256()
                self.blocks.append([int(keys[i])])
            take = min(block - self.n % block, batch.num_rows - i)
            piece = data[offsets[i]:offsets[i + take]]
            self.part.update(piece)
            self.whole.update(piece)
            i, self.n = i + take, self.n + take

    def _close_block(self) -> None:
        if self.part is not None:
            self.blocks[-1].append(self.part.hexdigest()[:SHORT])
            self.part = None

    def result(self) -> dict:
        self._close_block()
        return {"rows": self.n, "block": self.block, "sha256": self.whole.hexdigest(), "blocks": self.blocks}


def digest_batches(count: int, batches: Iterable[pa.RecordBatch], schema: pa.Schema, key: str) -> dict:
    """{"rows", "block", "sha256", "blocks": [[first key, short digest], ...]} of rows given
    as Arrow batches in key order, their columns those of `schema`; `count`: how many
    there are (it sets the block size). Each row is its columns' canonical texts joined by
    \\x1f, ended by \\n; a block is the SHA-256 of its rows' texts one after the other, the
    whole the SHA-256 of all of them."""
    d = Digester(count, schema, key)
    for batch in _regrouped(batches):
        d.feed(batch)
    return d.result()


def digest_by_source(batches: Iterable[pa.RecordBatch], digesters: dict[int, Digester],
                     upto: dict[int, int | None]) -> None:
    """One pass over a table's rows of many sources, in key order: each source's rows (up to
    its `upto` key, where one is given) fed to its digester, in their order."""
    for batch in _regrouped(batches):
        sids = batch.column(batch.schema.get_field_index("source_id")).cast(pa.int64()).to_numpy(zero_copy_only=False)
        for sid in np.unique(sids):
            d = digesters.get(int(sid))
            if d is None:
                continue
            mask = sids == sid
            limit = upto.get(int(sid))
            if limit is not None:
                keys = batch.column(d.at).cast(pa.int64()).to_numpy(zero_copy_only=False)
                mask &= keys <= limit
            d.feed(batch.filter(pa.array(mask)))


@dataclass
class Difference:
    """Where stored rows part from the receipt's digest of them."""

    rows_then: int
    rows_now: int
    key: int | None  # the one row that changed, when blocks are single rows
    key_lo: int | None  # ... else the range of keys of the first block that changed
    key_hi: int | None

    @property
    def verb(self) -> str:
        """What happened to the row (or to one of the block's rows)."""
        if self.rows_now > self.rows_then:
            return "was added"
        return "was removed" if self.rows_now < self.rows_then else "was altered"

    def where(self, label: str) -> str:
        if self.key is not None:
            return f"{label} {self.key}"
        if self.key_lo is not None:
            upto = f"{self.key_hi}" if self.key_hi is not None else "the last"
            return f"one of {label} {self.key_lo} to {upto}"
        return f"{label}s"


def difference(then: dict, now: dict) -> Difference | None:
    """None when the rows are as the receipt says; else the first place they differ."""
    if then["sha256"] == now["sha256"] and then["rows"] == now["rows"]:
        return None
    b_then, b_now = then["blocks"], now["blocks"]
    for j, block in enumerate(b_then):
        other = b_now[j] if j < len(b_now) else None
        if other == block:
            continue
        single = then["block"] == 1 and then["block"] == now["block"]
        if single:
            key = block[0] if other is None or other[0] == block[0] else min(block[0], other[0])
            return Difference(then["rows"], now["rows"], key, None, None)
        hi = b_then[j + 1][0] - 1 if j + 1 < len(b_then) else None
        return Difference(then["rows"], now["rows"], None, block[0], hi)
    if len(b_now) > len(b_then):  # rows added after the last the receipt knew
        extra = b_now[len(b_then)][0]
        single = now["block"] == 1
        return Difference(then["rows"], now["rows"], extra if single else None, None if single else extra, None)
    return Difference(then["rows"], now["rows"], None, None, None)
