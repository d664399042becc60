"""Digests of stored rows, kept in receipts, so a changed row is found and named.

A digest is the SHA-256 of the rows' canonical values in key order, and of blocks of
them: at most MAX_BLOCKS blocks, so a table of up to that many rows is named row by row
("finding 12 was altered") and a larger one by the range of keys of the block that
changed, while a receipt stays small (a few hundred kB at the most).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

MAX_BLOCKS = 1024
SHORT = 16  # hex characters of a block's SHA-256 kept: a chance change is missed one time in 2**64


def digest_rows(count: int, rows: Iterable[tuple[int, list]]) -> dict:
    """{"rows", "block", "sha256", "blocks": [[first key, short digest], ...]} of rows
    given as (key, canonical values) in key order; `count`: how many there are."""
    block = max(1, -(-count // MAX_BLOCKS))
    whole, part, blocks, n = hashlib.sha256(), None, [], 0
    for key, values in rows:
        line = json.dumps(values, separators=(",", ":")).encode() + b"\n"
        if n % block == 0:
            if part is not None:
                blocks[-1].append(part.hexdigest()[:SHORT])
            part = hashlib.sha256()
            blocks.append([key])
        part.update(line)
        whole.update(line)
        n += 1
    if part is not None:
        blocks[-1].append(part.hexdigest()[:SHORT])
    return {"rows": n, "block": block, "sha256": whole.hexdigest(), "blocks": blocks}


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
