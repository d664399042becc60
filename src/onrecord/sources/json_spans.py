"""Where the records of a JSON document are, byte for byte: a path of names, indexes and
wildcards (`$.calls[*]`, `$.data.*.units[0]`) walked over the text, so each record is the
exact slice of the file that holds it, with its JSON Pointer (RFC 6901).

The standard library's C scanner decodes each value; this only walks the structure
between them. Filters and recursive descent are not JSONPath this reads (docs/mappings.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from onrecord.errors import InputError

WS = re.compile(r"[ \t\n\r]*")
STEP = re.compile(r"""\.(?P<name>[A-Za-z_$@][\w$@-]*)|\.\*|\[\*\]|\[(?P<index>\d+)\]"""
                  r"""|\[(?P<q>['"])(?P<key>.*?)(?P=q)\]""")
ANY = object()  # a wildcard step
_decoder = json.JSONDecoder()
_scanstring = json.decoder.scanstring


@dataclass
class Span:
    start: int  # character offsets in the text
    end: int
    pointer: str  # RFC 6901
    value: object


def parse_path(path: str, origin: str, key: str) -> list:
    """`$.a.b[*]` -> ["a", "b", ANY]; a step is a name, an index or ANY."""
    text = path.strip()
    if not text.startswith("$"):
        raise InputError("a record path starts with $ (JSONPath)", file=origin, field=key, value=path)
    steps, at = [], 1
    while at < len(text):
        m = STEP.match(text, at)
        if not m:
            raise InputError(f"cannot read the path from character {at + 1}: names (.name, ['name']), "
                             f"indexes ([0]) and wildcards (.*, [*]) only", file=origin, field=key, value=path)
        if m.group("name") is not None:
            steps.append(m.group("name"))
        elif m.group("key") is not None:
            steps.append(m.group("key"))
        elif m.group("index") is not None:
            steps.append(int(m.group("index")))
        else:
            steps.append(ANY)
        at = m.end()
    return steps


def pointer_token(key) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def find_records(text: str, steps: list, start: int = 0) -> list[Span]:
    """The values the path selects, in document order. The text must be valid JSON."""
    out: list[Span] = []
    _walk(text, WS.match(text, start).end(), steps, "", out)
    return out


def _walk(text: str, at: int, steps: list, pointer: str, out: list[Span]) -> int:
    """Walk the value starting at `at`; returns the offset just past it."""
    if not steps:
        value, end = _decoder.raw_decode(text, at)
        out.append(Span(at, end, pointer, value))
        return end
    step, rest = steps[0], steps[1:]
    opener = text[at:at + 1]
    if opener == "{" and not isinstance(step, int):
        return _members(text, at, step, rest, pointer, out)
    if opener == "[" and (step is ANY or isinstance(step, int)):
        return _items(text, at, step, rest, pointer, out)
    return _decoder.raw_decode(text, at)[1]  # a value the path does not go into


def _members(text, at, step, rest, pointer, out) -> int:
    at = WS.match(text, at + 1).end()
    if text[at] == "}":
        return at + 1
    while True:
        key, at = _scanstring(text, at + 1)  # past the opening quote
        at = WS.match(text, at).end() + 1  # past the colon
        at = WS.match(text, at).end()
        if step is ANY or key == step:
            at = _walk(text, at, rest, f"{pointer}/{pointer_token(key)}", out)
        else:
            at = _decoder.raw_decode(text, at)[1]
        at = WS.match(text, at).end()
        if text[at] == "}":
            return at + 1
        at = WS.match(text, at + 1).end()  # past the comma


def _items(text, at, step, rest, pointer, out) -> int:
    at = WS.match(text, at + 1).end()
    if text[at] == "]":
        return at + 1
    i = 0
    while True:
        if step is ANY or i == step:
            at = _walk(text, at, rest, f"{pointer}/{i}", out)
        else:
            at = _decoder.raw_decode(text, at)[1]
        at = WS.match(text, at).end()
        if text[at] == "]":
            return at + 1
        at = WS.match(text, at + 1).end()
        i += 1


def check_json(text: str, file: str, line_offset: int = 0) -> object:
    """The parsed document, or one error naming the line and column where it stops being JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file,
                         line=exc.lineno + line_offset) from exc


class ByteOffsets:
    """Character offsets -> byte offsets of the UTF-8 text, for offsets asked in increasing order."""

    def __init__(self, text: str, data: bytes):
        self.text, self.ascii = text, len(text) == len(data)
        self.char, self.byte = 0, 0

    def __call__(self, char: int) -> int:
        if self.ascii:
            return char
        if char < self.char:  # asked out of order: count again from the start
            self.char, self.byte = 0, 0
        self.byte += len(self.text[self.char:char].encode("utf-8"))
        self.char = char
        return self.byte
