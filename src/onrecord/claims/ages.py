"""Ages of a group of victims: "those killed ranged in age from 18 months to 77 years old",
"the dead ranging in age from 5 to 72", "children as young as 18 months old".

A range is one claim [youngest, oldest] in years (months are twelfths), hedge "range";
"as young as N" is the youngest alone, "as old as N" the oldest. Whose ages they are (the
dead, the wounded, the victims) is the qualifier, read from the words before the range
in its clause, so the ages of the dead are never set against those of the wounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from onrecord.claims.numbers import NUMBER, parse_number

_AGE = r"(?P<@>" + NUMBER + r")[\s-]*(?:(?P<u@>months?|years?)(?:[\s-]+old)?)?"
RANGE_RE = re.compile(
    rf"\b(?:ranged?|ranging|ages?)\s+(?:in\s+age\s+)?(?:of\s+|were\s+|are\s+)?(?:from\s+(?=between))?(?P<span>(?:from|between)\s+"
    rf"{_AGE.replace('@', 'a')}\s+(?:to|and|-)\s+{_AGE.replace('@', 'b')})",
    re.IGNORECASE)
EXTREME_RE = re.compile(rf"\bas\s+(?P<kind>young|old)\s+as\s+(?P<span>{_AGE.replace('@', 'a')})", re.IGNORECASE)
WHOSE = [("of the dead", re.compile(r"\b(?:killed|dead|died|deaths?|slain|lives)\b", re.I)),
         ("of the wounded", re.compile(r"\b(?:wounded|injured|hurt)\b", re.I))]


@dataclass
class AgeClaim:
    start: int
    end: int
    lo: float
    hi: float
    hedge: str
    qualifier: str


def _years(value: str, unit: str | None, other_unit: str | None = None) -> float | None:
    v = parse_number(value)
    if v is None:
        return None
    unit = (unit or other_unit or "year").lower()
    return round(v / 12, 4) if unit.startswith("month") else v


def _whose(before: str) -> str:
    hits = [(m.end(), label) for label, rx in WHOSE for m in rx.finditer(before)]
    return max(hits)[1] if hits else "of the victims"


def find_ages(sentence: str) -> list[AgeClaim]:
    out = []
    for m in RANGE_RE.finditer(sentence):
        a = _years(m.group("a"), m.group("ua"), m.group("ub"))
        b = _years(m.group("b"), m.group("ub"))
        if a is None or b is None or a > b:
            continue
        clause = re.split(r"[;:]|,\s+and\b", sentence[:m.start()])[-1]
        out.append(AgeClaim(m.start("span"), m.end("span"), a, b, "range", _whose(clause)))
    for m in EXTREME_RE.finditer(sentence):
        a = _years(m.group("a"), m.group("ua"))
        if a is None or not (m.group("ua") or re.match(r"[\s-]*years?", sentence[m.end():])):
            continue
        kind = "youngest" if m.group("kind").lower() == "young" else "oldest"
        clause = re.split(r"[;:]|,\s+and\b", sentence[:m.start()])[-1]
        out.append(AgeClaim(m.start("a"), m.end("span"), a, a, kind, _whose(sentence[:m.start()]) if clause else
                            "of the victims"))
    return out
