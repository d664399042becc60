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

import re
from dataclasses import dataclass, field
from itertools import compress


@dataclass
class Records:
    raws: list[bytes]  # concatenated, they are the file, byte for byte
    ordinals: list[int]  # the line each record starts on, from 1
    # The record (position) whose quoted field is never closed: it runs to the end of the file.
    unclosed: int | None = None
    lines: list[int] = field(default_factory=list)  # how many lines each record spans (empty: one each)

    def last_line(self, i: int) -> int:
        return self.ordinals[i] + (self.lines[i] - 1 if self.lines else 0)


def _line_patterns(delimiter: bytes, quote: bytes) -> tuple[re.Pattern, re.Pattern]:
    """(a line read from a record's start, a line read from inside a quoted field): each
    matches the whole line, and its group `open` is set when the line ends inside quotes."""
    d, q = re.escape(delimiter), re.escape(quote)
    body = rb"(?:[^" + q + rb"]|" + q + q + rb")*+"  # possessive: a doubled quote never ends the field
    tail = rb"[^" + d + rb"\r\n]*"  # what follows a closing quote, up to the next delimiter
    unquoted = rb"(?:[^" + d + q + rb"\r\n]" + tail + rb")?"
    closed = q + body + q + tail
    fld = rb"(?:" + closed + rb"|" + unquoted + rb")"
    end = rb"(?:(?P<open>" + q + body + rb")|" + fld + rb"(?:\r\n|\r|\n)?)\Z"
    fresh = rb"(?:" + fld + d + rb")*" + end
    inside = rb"(?:" + body + rb"(?P<still>\Z)|" + body + q + tail + rb"(?:" + d + fresh + rb"|(?:\r\n|\r|\n)?\Z))"
    return re.compile(fresh, re.S), re.compile(inside, re.S)


def split_records(data: bytes, quote: bytes = b'"', delimiter: bytes = b",") -> Records:
    """One record per line, except that a quoted field may span lines (RFC 4180)."""
    lines = data.splitlines(keepends=True)
    if not quote or quote not in data:  # the common export: nothing quoted, a record a line
        return Records(lines, list(range(1, len(lines) + 1)))
    fresh, inside = _line_patterns(delimiter, quote)
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
            still_open = fresh.match(line).group("open") is not None
        else:
            m = inside.match(line)
            still_open = m.group("still") is not None or m.group("open") is not None
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
    return Records(raws, ordinals, unclosed, spans)


def non_blank(raws: list[bytes]) -> list[int]:
    """Positions of the records that hold more than white space (C-speed for big files)."""
    return list(compress(range(len(raws)), map(bytes.strip, raws)))
