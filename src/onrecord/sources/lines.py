"""Splitting a file's bytes into records, keeping every byte (line ends included)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Records:
    raws: list[bytes]  # concatenated, they are the file, byte for byte
    ordinals: list[int]  # the line each record starts on, from 1


def split_records(data: bytes, quote: bytes = b'"') -> Records:
    """One record per line, except that a quoted field may span lines (RFC 4180)."""
    lines = data.splitlines(keepends=True)
    odd = [line.count(quote) & 1 for line in lines] if quote else []
    if not any(odd):
        return Records(lines, list(range(1, len(lines) + 1)))
    raws, ordinals, open_at, parts = [], [], 0, []
    inside = False
    for number, (line, flips) in enumerate(zip(lines, odd), start=1):
        if not parts:
            open_at = number
        parts.append(line)
        inside ^= bool(flips)
        if not inside:
            raws.append(b"".join(parts))
            ordinals.append(open_at)
            parts = []
    if parts:  # an unclosed quote runs to the end: keep the bytes, the parser will object
        raws.append(b"".join(parts))
        ordinals.append(open_at)
    return Records(raws, ordinals)


def is_blank(raw: bytes) -> bool:
    return not raw.strip()
