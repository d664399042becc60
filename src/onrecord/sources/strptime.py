"""strptime patterns as a mapping writes them: checked once when the mapping is read, then
read a whole column at a time (pyarrow). pyarrow's own strptime knows no `%f`; a fraction
of a second is cut out of each value by a regular expression built from the pattern and
added back in milliseconds."""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

# Directive -> what it may match, for the ones pyarrow reads (plus %f, read here).
DIRECTIVES = {
    "Y": r"\d{4}", "y": r"\d{2}", "m": r"\d{1,2}", "d": r"\d{1,2}", "e": r"\s?\d{1,2}",
    "H": r"\d{1,2}", "I": r"\d{1,2}", "M": r"\d{1,2}", "S": r"\d{1,2}", "j": r"\d{1,3}",
    "p": r"[AaPp][Mm]", "b": r"[A-Za-z]+", "h": r"[A-Za-z]+", "B": r"[A-Za-z]+",
    "a": r"[A-Za-z]+", "A": r"[A-Za-z]+", "z": r"(?:[Zz]|[+-]\d\d(?::?\d\d)?)",
    "T": r"\d{1,2}:\d{1,2}:\d{1,2}", "R": r"\d{1,2}:\d{1,2}", "D": r"\d{1,2}/\d{1,2}/\d{2}",
    "%": "%", "n": r"\s*", "t": r"\s*", "f": r"\d{1,9}",
}
DIRECTIVE = re.compile(r"%-?(.)|%$")


def format_problem(fmt: str) -> str | None:
    """Why a pattern cannot be read, or None. (Said once, naming the mapping key.)"""
    if "%" not in fmt:
        return "has no % directive: write the pattern the times follow, e.g. %m/%d/%Y %H:%M:%S"
    seen = []
    for m in DIRECTIVE.finditer(fmt):
        d = m.group(1)
        if d is None:
            return "ends with a lone %"
        if d not in DIRECTIVES:
            return f"uses %{d}, which is not a strptime directive read here ({_known()})"
        seen.append(d)
    if seen.count("f") > 1:
        return "uses %f twice"
    return None


DATE_PARTS = {"year": "YyD", "month": "mbBhDj", "day": "dejD"}


def missing_date(fmt: str) -> list[str]:
    """The parts of a date the pattern does not read (a time of day alone lacks all three:
    read as is, every time would fall on 1 January 1900)."""
    seen = {m.group(1) for m in DIRECTIVE.finditer(fmt)}
    return [part for part, ds in DATE_PARTS.items() if not seen & set(ds)]


def _known() -> str:
    return " ".join(f"%{d}" for d in DIRECTIVES if d != "%")


def normalise(fmt: str) -> str:
    """`%-d` (GNU 'no padding') reads as `%d`: one or two digits are read either way."""
    return re.sub(r"%-(.)", r"%\1", fmt)


def strptime_ms(values: pa.Array, fmt: str) -> pa.Array:
    """Timestamps in ms (UTC-aware when the pattern has %z, else naive), null where a value
    does not read as `fmt`."""
    fmt = normalise(fmt)
    if "%f" not in fmt:
        return pc.strptime(values, format=fmt, unit="ms", error_is_null=True)
    tokens = _tokens(fmt)
    at = next(i for i, (d, _, _) in enumerate(tokens) if d == "f")
    before, after = tokens[:at], tokens[at + 1:]
    fraction = r"(?P<f>\d{1,9})"
    if before and before[-1][0] is None and before[-1][1][-1:] in (".", ","):
        # Exports drop a zero fraction ("14:03:22" beside "14:03:22.5"): the point and its
        # digits may be absent, and the time is then the whole second.
        point = before[-1][1][-1]
        fraction = f"(?:{re.escape(point)}{fraction})?"
        before = before[:-1] + [(None, before[-1][1][:-1], _literal(before[-1][1][:-1]))]
    parts = pc.extract_regex(values, f"^(?P<a>{_regex(before)}){fraction}(?P<b>{_regex(after)})$")
    whole = pc.binary_join_element_wise(pc.struct_field(parts, "a"), pc.struct_field(parts, "b"), "")
    read = pc.strptime(whole, format=_text(before) + _text(after), unit="ms", error_is_null=True)
    # Digits after the point are tenths, hundredths, ...: "5" is 500 ms, "123456" 123 ms, none 0.
    millis = pc.cast(pc.utf8_rpad(pc.utf8_slice_codeunits(pc.struct_field(parts, "f"), 0, 3), 3, "0"), pa.int64())
    as_int = pc.add(pc.cast(read, pa.int64()), millis)
    return pc.cast(as_int, read.type)


# Digits a number directive takes when another number follows with nothing between
# (%H%M%S reads 093005 as 09:30:05, as strptime does, not 0:9:3005).
FIXED = {"Y": r"\d{4}", "y": r"\d{2}", "m": r"\d{2}", "d": r"\d{2}", "H": r"\d{2}", "I": r"\d{2}",
         "M": r"\d{2}", "S": r"\d{2}", "j": r"\d{3}"}
NUMBER = set(FIXED) | {"f", "e"}


def _tokens(fmt: str) -> list[tuple[str | None, str, str]]:
    """(directive or None for literal text, its text in the pattern, the regex it reads)."""
    parts, at = [], 0
    for m in DIRECTIVE.finditer(fmt):
        if m.start() > at:
            parts.append((None, fmt[at:m.start()]))
        parts.append((m.group(1), m.group(0)))
        at = m.end()
    if at < len(fmt):
        parts.append((None, fmt[at:]))
    out = []
    for i, (d, text) in enumerate(parts):
        glued = i + 1 < len(parts) and parts[i + 1][0] in NUMBER
        regex = _literal(text) if d is None else FIXED[d] if glued and d in FIXED else DIRECTIVES[d]
        out.append((d, text, regex))
    return out


def _regex(tokens) -> str:
    return "".join(regex for _, _, regex in tokens)


def _text(tokens) -> str:
    return "".join(text for _, text, _ in tokens)


def _literal(text: str) -> str:
    # White space in a pattern matches any run of white space, none included (as strptime).
    return "".join(r"\s*" if c.isspace() else re.escape(c) for c in text)
