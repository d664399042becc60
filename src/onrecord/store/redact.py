"""Redaction of what a reader shows, for actors without the right to see it (roles.py):

- protected people (victims, minors, witnesses, juvenile subjects: `onrecord protect`)
  are named by a stable pseudonym ("Victim 3") in every string read from the case: event
  text, actor, place, statement and claim text, findings' subjects and payloads, raw lines
  shown on screen. A name is found written as "First Last", "First M. Last", "Last, First"
  and "LAST FIRST", any case, on word boundaries; the original bytes stay untouched in the
  evidence (the record's SHA-256 shown is still that of the stored line).
- personal details of prior contacts: attribute values under keys naming a date of birth,
  an address, a phone number or an identity number become "(withheld)".
- raw lines: withheld whole for roles without "raw".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from pydantic_core import to_json

WITHHELD = "(withheld)"
PERSONAL_KEYS = re.compile(r"dob|birth|address|addr|phone|ssn|licen[cs]e|passport", re.I)
_ODD = ("\u0131", "\u017f", "\u0130")  # ı ſ İ: re.I takes them for i, s, i; lower() does not (_may_name)
# bytes.translate's table: ASCII letters and digits kept, every other byte a space (_may_name)
_WORD_BYTES = bytes(b if chr(b).isascii() and chr(b).isalnum() else 32 for b in range(256))


def _word_of(form: str) -> bytes | None:
    r"""A run of ASCII letters and digits of a (lower-cased) form that is a whole word in any
    text the form is found in: the first whose neighbours in the form are neither ı nor ſ
    (which re.I matches to ASCII i, s: the word would run on). A neighbour that is a space,
    a punctuation mark or another letter matches no ASCII letter or digit in the text, and
    the form's own start and end are word boundaries (the pattern's (?<!\w), (?!\w))."""
    for m in re.finditer(r"[a-z0-9]+", form):
        before = form[m.start() - 1] if m.start() else None
        after = form[m.end()] if m.end() < len(form) else None
        if before not in _ODD and after not in _ODD:
            return m.group(0).encode()
    return None


def name_forms(name: str) -> set[str]:
    """The ways a person's name is written in agency exports and statements."""
    parts = [p for p in re.split(r"[\s,]+", name.strip()) if p]
    if not parts:
        return set()
    forms = {" ".join(parts)}
    if len(parts) >= 2:
        first, last = parts[0], parts[-1]
        forms |= {f"{first} {last}", f"{last}, {first}", f"{last} {first}", f"{last},{first}"}
        forms |= {f"{last}, {' '.join(parts[:-1])}"}
    return {f for f in forms if len(f) >= 3}


class Redactor:
    """Replaces protected names by their pseudonyms; a no-op when nobody is protected."""

    def __init__(self, people: Iterable[tuple[str, str]]):
        self.pseudonym: dict[str, str] = {}
        for name, pseudonym in people:
            for form in name_forms(name):
                self.pseudonym[form.lower()] = pseudonym
        forms = sorted(self.pseudonym, key=len, reverse=True)  # the longest form wins
        self.pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in forms)
                                  + r")(?!\w)", re.I) if forms else None
        # A row of JSON text is tested for a name before it is parsed (json_row), by the words
        # it holds: each form's word (_word_of), a run of ASCII letters and digits that starts
        # and ends a word wherever `pattern` finds the form, so the row, lower-cased and cut at
        # every byte that is not an ASCII letter or digit, holds it as one of its words.
        # re.I also takes K (Kelvin: lower() gives "k"), ı, ſ and İ (lower() does not give
        # i, s, i) for ASCII letters: a row holding ı, ſ or İ is parsed (_ODD), as is one with
        # a JSON escape (a backslash: "\n" would glue its letter to the next word). A regex of
        # the names' first words cost 34-180 us a row (3-20 people); this, a few.
        words = {_word_of(f) for f in forms}
        self._words = None if not forms or None in words else frozenset(words)

    def __bool__(self) -> bool:
        return self.pattern is not None

    def text(self, value: str) -> str:
        if self.pattern is None or not value:
            return value
        return self.pattern.sub(lambda m: self.pseudonym.get(re.sub(r"\s+", " ", m.group(0)).lower(),
                                                             self._any(m.group(0))), value)

    def json_row(self, body: str, kept: frozenset[str] = frozenset()) -> str:
        """A row stored as JSON text (store/listing.py) as `value` would show its values: every
        string redacted but those under the keys `kept` (written by the renderer, not read
        from the case), encoded again as to_json encodes (the same text when nothing changed).
        A row that cannot name anyone (no form's first word in it) is given back untouched."""
        if self.pattern is None or (self._words is not None and not self._may_name(body)):
            return body
        return to_json(self._json_value(json.loads(body), kept)).decode()

    def _may_name(self, body: str) -> bool:
        if "\\" in body or any(c in body for c in _ODD):
            return True
        return not self._words.isdisjoint(body.lower().encode("utf-8").translate(_WORD_BYTES).split())

    def _json_value(self, value, kept: frozenset[str]):
        if isinstance(value, dict):
            return {k: v if k in kept else self._json_value(v, kept) for k, v in value.items()}
        if isinstance(value, list):
            return [self._json_value(v, kept) for v in value]
        return self.text(value) if isinstance(value, str) else value

    def _any(self, found: str) -> str:
        squeezed = re.sub(r"\s+", " ", found).lower()
        return next((p for f, p in self.pseudonym.items() if f == squeezed), WITHHELD)

    def value(self, value):
        """A column's value: strings redacted; bytes (raw lines) decoded, redacted and given back as bytes."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, (bytes, memoryview)) and self.pattern is not None:
            raw = bytes(value)
            text = raw.decode("utf-8", errors="replace")
            shown = self.text(text)
            return raw if shown == text else shown.encode("utf-8")
        return value


def personal_withheld(attrs: dict) -> dict:
    return {k: (WITHHELD if PERSONAL_KEYS.search(k) and v not in (None, "") else v) for k, v in attrs.items()}
