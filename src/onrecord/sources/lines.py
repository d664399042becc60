"""Splitting a file's bytes into records, keeping every byte (line ends included)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress


@dataclass
class Records:
    raws: list[bytes]  # concatenated, they are the file, byte for byte
    ordinals: list[int]  # the line each record starts on, from 1
    # Each record's JSON Pointer / XPath in the file (None: its line says where it is);
    # empty when no record of the file has one.
    paths: list[str | None] = field(default_factory=list)


def split_records(data: bytes, quote: bytes = b'"') -> Records:
    """One record per line, except that a quoted field may span lines (RFC 4180)."""
    lines = data.splitlines(keepends=True)
    if not quote or quote not in data:  # the common export: nothing quoted, a record a line
        return Records(lines, list(range(1, len(lines) + 1)))
    odd = [line.count(quote) & 1 for line in lines]
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


def non_blank(raws: list[bytes]) -> list[int]:
    """Positions of the records that hold more than white space (C-speed for big files)."""
    return list(compress(range(len(raws)), map(bytes.strip, raws)))


def slice_records(data: bytes, spans: list[tuple[int, int, str]]) -> tuple[Records, list[int]]:
    """The file cut at the byte spans of its records (start, end, path), in file order:
    each record is exactly its bytes; the bytes between records (brackets, commas, a
    document's other parts) are records of their own without a path, so the records
    still add up to the file. Returns the records and the positions of the spanned ones."""
    raws: list[bytes] = []
    ordinals: list[int] = []
    paths: list[str | None] = []
    wanted: list[int] = []
    at, line = 0, 1

    def add(start: int, end: int, path: str | None) -> None:
        nonlocal line
        raws.append(data[start:end])
        ordinals.append(line)
        paths.append(path)
        line += data.count(b"\n", start, end)

    for start, end, path in spans:
        if start > at:
            add(at, start, None)
        wanted.append(len(raws))
        add(start, end, path)
        at = end
    if at < len(data):
        add(at, len(data), None)
    return Records(raws, ordinals, paths), wanted
