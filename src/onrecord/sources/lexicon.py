"""Lexicons: the phrases and codes that say what a line of radio or camera text records.

Vocabulary is data, not code: bundled TOML files in `sources/lexicons/` (plain English,
APCO ten-codes, common agency variants), and whatever a mapping adds. A mapping names the
lexicons its text is read with (`lexicon = [...]`: bundled names, "default" for all the
bundled ones, or inline tables of its own phrases); without the key, the bundled ones.
docs/lexicons.md documents the format and every kind.

A phrase two kinds claim (in the lexicons one source reads with) is an error naming the
lexicon and key: a line must never mean two things depending on which list came first.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from onrecord.errors import InputError

BUNDLED_DIR = Path(__file__).parent / "lexicons"
DEFAULT = "default"  # in a lexicon list: every bundled lexicon

# What each section's text can say. A line holding phrases of two kinds is read as the first
# kind in this order (an arrival said with a staging point is an arrival; "going in" beats a
# passing "door"), except where two phrases overlap in the line: there the longer, in words,
# is what was said ("10-97 staging" holds "10-97", and is staging, not an arrival).
KINDS = {
    "radio": ("unit_arrived", "staging", "unit_enroute", "entry", "patient_transported", "patient_contact",
              "channels_patched", "threat_ended", "shots_reported",
              # read and shown, no moment of their own (reconstruct/moments.py): SAID_AFTER
              "unit_dispatched", "unit_available"),
    "camera": ("threat_ended", "shots_detected", "entry"),
}
# Kinds a line is read as only where it says none of the others, whatever the lengths: they
# record no moment (a dispatch is voiced several times for one CAD row), so their phrases
# never take a line from a kind that does ("Engine 4, respond to staging at ..." holds
# "staging at": what moment it records is decided as if they were not there).
SAID_AFTER = frozenset({"unit_dispatched", "unit_available"})
# In a section, beside its kinds: phrases that hold a kind's words and say none of them
# ("parents arriving", "media on scene"); a line is read without them.
IGNORE = "ignore"
NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)"


@dataclass
class Lexicon:
    """The phrases one source's text is read with: section -> kind -> phrases, and where
    each phrase came from (for messages)."""

    phrases: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    origin: dict[tuple[str, str], str] = field(default_factory=dict)  # (section, phrase) -> "file, key"
    ignore: dict[str, list[str]] = field(default_factory=dict)  # section -> phrases that say no kind

    def add(self, table: dict, where: str) -> None:
        for section, kinds in table.items():
            if section == "lexicon":
                continue  # the file's own name and description
            if section not in KINDS:
                raise InputError(f"is not a lexicon section ({', '.join(KINDS)})", file=where, field=section)
            if not isinstance(kinds, dict):
                raise InputError("must be a table of kind = [phrases]", file=where, field=section)
            for kind, said in kinds.items():
                key = f"{section}.{kind}"
                if kind == IGNORE:
                    self._ignored(section, said, where, key)
                    continue
                if kind not in KINDS[section]:
                    raise InputError(f"is not a kind {section} text can say ({', '.join(KINDS[section])}) nor {IGNORE}",
                                     file=where, field=key)
                if isinstance(said, str) or not all(isinstance(p, str) and p.strip() for p in said):
                    raise InputError("must be a list of phrases", file=where, field=key)
                for phrase in said:
                    self._claim(section, kind, phrase, where, key)

    def _ignored(self, section: str, said, where: str, key: str) -> None:
        if isinstance(said, str) or not all(isinstance(p, str) and p.strip() for p in said):
            raise InputError("must be a list of phrases", file=where, field=key)
        mine = self.ignore.setdefault(section, [])
        mine.extend(n for p in said if (n := " ".join(p.lower().split())) not in mine)

    def _claim(self, section: str, kind: str, phrase: str, where: str, key: str) -> None:
        norm = " ".join(phrase.lower().split())
        mine = self.phrases.setdefault(section, {})
        for other, listed in mine.items():
            if norm in listed and other != kind:
                raise InputError(f"phrase {phrase!r} is claimed by two kinds: {other} "
                                 f"({self.origin[(section, norm)]}) and {kind}", file=where, field=key)
        if norm not in mine.setdefault(kind, []):
            mine[kind].append(norm)
            self.origin[(section, norm)] = f"{where}, {key}"

    def reader(self) -> TextReader:
        every = {s: [p for ps in kinds.values() for p in ps] for s, kinds in self.phrases.items()}
        return TextReader({s: _by_kind(s, self.phrases.get(s, {})) for s in KINDS},
                          {s: _pattern(ps) for s, ps in self.ignore.items() if ps},
                          {s: _pattern(ps) for s, ps in every.items() if ps})


@dataclass
class TextReader:
    """Compiled: section -> [(kind, pattern)] in KINDS order; section -> the phrases that say
    no kind, taken out of a line before it is read."""

    patterns: dict[str, list[tuple[str, re.Pattern]]]
    ignored: dict[str, re.Pattern] = field(default_factory=dict)
    # section -> every phrase of every kind at once: most lines hold none, and one search
    # says so where each kind's pattern would be tried
    any_of: dict[str, re.Pattern] = field(default_factory=dict)

    def kind_of(self, section: str, text: str | None) -> str | None:
        found = self.match_of(section, text)
        return found[0] if found else None

    def match_of(self, section: str, text: str | None) -> tuple[str, str] | None:
        """The kind a line is read as and the words that decided it (for a user checking
        a phrase: `onrecord timeline`), or None."""
        if not text:
            return None
        if section in self.ignored:  # "parents arriving at the church": no unit arrived
            text = self.ignored[section].sub(" | ", text)
        if section in self.any_of and not self.any_of[section].search(text):
            return None
        found = [_Found(rank, kind, m.start(1), m.end(1), _words(m.group(1)))
                 for rank, (kind, pattern) in enumerate(self.patterns.get(section, ()))
                 for m in pattern.finditer(text)]
        for tier in ([f for f in found if f.kind not in SAID_AFTER], [f for f in found if f.kind in SAID_AFTER]):
            # a phrase inside or across a longer one of another kind is part of what that says
            standing = [f for f in tier if not any(o.words > f.words and o.start < f.end and f.start < o.end
                                                   for o in tier)]
            if standing:
                best = min(standing, key=lambda f: (f.rank, -f.words, f.start))
                return best.kind, " ".join(text[best.start:best.end].split())
        return None


@dataclass(frozen=True)
class _Found:
    rank: int  # the kind's place in KINDS
    kind: str
    start: int
    end: int
    words: int


def _words(said: str) -> int:
    return len(said.split())


def _by_kind(section: str, kinds: dict[str, list[str]]) -> list[tuple[str, re.Pattern]]:
    """One pattern per kind, in KINDS order, finding its phrases wherever they start (one
    phrase may begin inside another: every occurrence is seen, not only those a first
    match leaves)."""
    return [(kind, _pattern(kinds[kind], every_start=True)) for kind in KINDS[section] if kinds.get(kind)]


def _pattern(phrases: list[str], every_start: bool = False) -> re.Pattern:
    """Whole words, any case, any spacing between words; {number} for a count. With
    `every_start`, group 1 is the longest phrase starting at each place a phrase starts."""
    parts = []
    for p in sorted(phrases, key=len, reverse=True):
        words = [NUMBER if w == "{number}" else re.escape(w) for w in p.split()]
        parts.append(r"\s+".join(words))
    body = r"(?<![\w-])(?:" + "|".join(parts) + r")(?![\w-])"
    return re.compile(f"(?=({body}))" if every_start else body, re.I)


def bundled_lexicons() -> list[str]:
    """The names of the bundled lexicons (the lexicon extension point's registry)."""
    return sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))


@lru_cache(maxsize=None)
def _bundled(name: str) -> dict:
    path = BUNDLED_DIR / f"{name}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def declared(doc: dict, origin: str):
    """A mapping's lexicon declaration: `lexicon = [...]` in [mapping], or a top-level
    `[lexicon.radio]` table of its own phrases (not both)."""
    head = doc.get("mapping") if isinstance(doc.get("mapping"), dict) else {}
    if "lexicon" in head and "lexicon" in doc:
        raise InputError("is given twice: as mapping.lexicon and as a [lexicon] table; give one",
                         file=origin, field="lexicon")
    return head.get("lexicon", doc.get("lexicon"))


def lexicon_for(spec, origin: str) -> Lexicon:
    """The lexicon a mapping's `lexicon` value declares (None: the bundled ones). `origin`
    names the mapping in messages."""
    # one table of its own adds to the bundled ones; a list says exactly which are read
    items = [DEFAULT] if spec is None else [DEFAULT, spec] if isinstance(spec, dict) else \
        [spec] if isinstance(spec, str) else spec
    if not isinstance(items, list):
        raise InputError("must be a list of lexicon names or tables", file=origin, field="lexicon")
    lex = Lexicon()
    for i, item in enumerate(items):
        if isinstance(item, dict):
            lex.add(item, origin if isinstance(spec, dict) else f"{origin}, lexicon[{i + 1}]")
            continue
        names = bundled_lexicons() if item == DEFAULT else [item]
        for name in names:
            if name not in bundled_lexicons():
                raise InputError(f"names no lexicon: give one of {', '.join([DEFAULT, *bundled_lexicons()])} "
                                 "or a table of your own", file=origin, field="lexicon", value=str(name))
            lex.add(_bundled(name), f"lexicons/{name}.toml")
    return lex


@lru_cache(maxsize=64)
def _reader_cached(text: str | None) -> TextReader:
    return lexicon_for(None, "bundled").reader() if text is None else _from_text(text)


def _from_text(text: str) -> TextReader:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        doc = {}
    try:
        return lexicon_for(declared(doc, "mapping"), "mapping").reader()
    except InputError:
        # Checked when the source was imported: only a lexicon renamed or changed since can
        # fail here. It reads with the bundled ones, and the build's "not understood" table
        # shows what that leaves unread.
        return lexicon_for(None, "bundled").reader()


def reader_for(mapping_text: str | None) -> TextReader:
    """How one source's text is read: its stored mapping's lexicons (or the bundled ones)."""
    return _reader_cached(mapping_text or None)
