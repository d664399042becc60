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

import re
from collections.abc import Iterable

WITHHELD = "(withheld)"
PERSONAL_KEYS = re.compile(r"dob|birth|address|addr|phone|ssn|licen[cs]e|passport", re.I)


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

    def __bool__(self) -> bool:
        return self.pattern is not None

    def text(self, value: str) -> str:
        if self.pattern is None or not value:
            return value
        return self.pattern.sub(lambda m: self.pseudonym.get(re.sub(r"\s+", " ", m.group(0)).lower(),
                                                             self._any(m.group(0))), value)

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
