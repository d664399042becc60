"""Splitting a file's bytes into records, keeping every byte (line ends included).

This is the one place that decides where a CSV record starts. It follows the rules the
field parser (pyarrow's, csv_file.py) applies, so both see the same records:
- a record ends at a line end (CR, LF or CRLF) that is not inside a quoted field;
- a field is quoted only when its first character is the quote; a quote anywhere else
  (`SUSPECT 6'2" TALL`) is a plain character;
- inside a quoted field a doubled quote is one quote, and the field ends at a single quote;
  anything written after it up to the next delimiter still belongs to the field.
Counting quotes per line (what this module once did) gets the second rule wrong, and every
record after such a line would cite the line before its own.
"""

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
    # The record (position) whose quoted field is never closed: it runs to the end of the file.
    unclosed: int | None = None
    lines: list[int] = field(default_factory=list)  # how many lines each record spans (empty: one each)

    def last_line(self, i: int) -> int:
        return self.ordinals[i] + (self.lines[i] - 1 if self.lines else 0)


def ends_inside(line: bytes, quote: bytes, delimiter: bytes, inside: bool) -> bool:
    """Whether `line` (one physical line, its end included) ends inside a quoted field,
    given whether it starts inside one. Walks the quotes only: a line holds a few."""
    pieces = line.split(quote)
    last = len(pieces) - 1
    state = _QUOTED if inside else _START
    for i, piece in enumerate(pieces):
        if state == _CLOSING:  # the quote before this piece ended the field, or was the first of ""
            if not piece and i < last:
                state = _QUOTED  # "" : one quote inside the field; the next quote is a new question
                continue
            state = _TAIL
        if i == last:
            return state == _QUOTED
        # a quote follows this piece
        if state == _QUOTED:
            state = _CLOSING
        elif piece.endswith(delimiter) or (state == _START and not piece):
            state = _QUOTED  # the quote is the first character of a field: it opens it
        else:
            state = _TAIL  # a quote inside an unquoted field (6'2"): a plain character
    return False


_START, _TAIL, _QUOTED, _CLOSING = range(4)  # at a field's start; in a field; in quotes; at a quote in quotes


def split_records(data: bytes, quote: bytes = b'"', delimiter: bytes = b",") -> Records:
    """One record per line, except that a quoted field may span lines (RFC 4180)."""
    lines = data.splitlines(keepends=True)
    if not quote or quote not in data:  # the common export: nothing quoted, a record a line
        return Records(lines, list(range(1, len(lines) + 1)))
    raws, ordinals, spans = [], [], []
    parts: list[bytes] = []
    open_at = 0
    for number, line in enumerate(lines, start=1):
        if not parts:
            if quote not in line:  # most lines: no quote, not inside one
                raws.append(line)
                ordinals.append(number)
                spans.append(1)
                continue
            open_at = number
        still_open = ends_inside(line, quote, delimiter, bool(parts))
        parts.append(line)
        if not still_open:
            raws.append(b"".join(parts))
            ordinals.append(open_at)
            spans.append(len(parts))
            parts = []
    unclosed = None
    if parts:  # a quoted field never closed runs to the end: keep the bytes, the reader reports it
        unclosed = len(raws)
        raws.append(b"".join(parts))
        ordinals.append(open_at)
        spans.append(len(parts))
    return Records(raws, ordinals, unclosed=unclosed, lines=spans)


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
