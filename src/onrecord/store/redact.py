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
# what JSON text writes escaped (to_json: the quote, the backslash, control characters): a
# name's word holding one is not found verbatim in a row's JSON text (json_row)
_ESCAPED_IN_JSON = re.compile(r'["\\\x00-\x1f]')
_ODD = ("\u0131", "\u017f", "\u0130")  # ı ſ İ: re.I takes them for i, s, i; lower() does not (_may_name)


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
        # The first word of every form, matched as `pattern` matches (re.I, character by
        # character): a text the pattern finds a name in holds one of these words. In a row's
        # JSON text every string value stands verbatim but for its escaped characters, so when
        # no word holds one, a row without any of them names nobody and is passed as stored.
        # Matched on the text lower-cased, without re.I (which made the search the page's
        # main cost: 34 against 3 us a row), when every word is ASCII: then re.I matches a
        # word's letter with its ASCII capital, with K (Kelvin, lower-cased to "k") and with
        # ı, ſ and İ, which lower() does not turn into the letter, so a text holding one of
        # these three is redacted in full (_ODD). Words of other letters keep re.I.
        firsts = {f.split(" ")[0] for f in forms}
        self._hint, self._hint_lowered = None, all(w.isascii() for w in firsts)
        if forms and not any(_ESCAPED_IN_JSON.search(w) for w in firsts):
            self._hint = re.compile("|".join(re.escape(w) for w in sorted(firsts, key=len, reverse=True)),
                                    0 if self._hint_lowered else re.I)

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
        if self.pattern is None or (self._hint is not None and not self._may_name(body)):
            return body
        return to_json(self._json_value(json.loads(body), kept)).decode()

    def _may_name(self, body: str) -> bool:
        if not self._hint_lowered:
            return self._hint.search(body) is not None
        return any(c in body for c in _ODD) or self._hint.search(body.lower()) is not None

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
