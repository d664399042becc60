"""What a search query means, the same on both stores and in Python.

A query is words (every one must be found), "quoted phrases" (their words next to each
other, in order) and prefixes (`disp*`: any word starting so). Text is cut into words the
same way everywhere: Unicode letters and digits, lower case, accents dropped
("Côté" -> "cote"). The index stores text already cut this way (search_index.py), so
SQLite's FTS5, PostgreSQL's tsvector and `Query.matches` (run on what a reader is shown,
after redaction) agree on every match: a row is a hit only if the words are in the text
as this reader sees it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_TERMS = 12
MAX_WORD = 100
WORD = re.compile(r"[^\W_]+")
PIECE = re.compile(r'"([^"]*)"?|(\S+)')  # a quoted phrase (closing quote optional), or a bare word
MIN_PREFIX = 2  # `a*` would match most of a case: a prefix needs two letters


def words(text: str | None) -> list[str]:
    """`text` cut into its searchable words (a run of over MAX_WORD letters is no word: an
    encoded blob, and longer than PostgreSQL keeps)."""
    if not text:
        return []
    # ASCII is its own NFKD form, with no combining marks: most records' text, cut at once
    plain = text if text.isascii() else "".join(c for c in unicodedata.normalize("NFKD", text)
                                                if not unicodedata.combining(c))
    return [w for w in WORD.findall(plain.casefold()) if len(w) <= MAX_WORD]


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]  # one word, or a phrase's words in order
    prefix: bool = False  # the last word is a prefix

    def fts5(self) -> str:
        # every word is letters and digits only (WORD): quoting it leaves no FTS5 syntax to inject
        return '"' + " ".join(self.words) + '"' + ("*" if self.prefix else "")

    def tsquery(self, weight: str = "") -> str:
        parts = [f"'{w}':{'*' if self.prefix and i == len(self.words) - 1 else ''}{weight}".rstrip(":")
                 for i, w in enumerate(self.words)]
        return parts[0] if len(parts) == 1 else "(" + " <-> ".join(parts) + ")"

    def found_in(self, seen: list[str]) -> bool:
        n = len(self.words)
        for i in range(len(seen) - n + 1):
            if seen[i:i + n - 1] == list(self.words[:-1]) and (
                    seen[i + n - 1].startswith(self.words[-1]) if self.prefix else seen[i + n - 1] == self.words[-1]):
                return True
        return False


@dataclass(frozen=True)
class Query:
    text: str
    terms: tuple[Term, ...]
    # (a term's words, other words that find the same rows): a pseudonym and the written
    # forms of the name behind it (read_search.py); the rows are then checked as shown
    alternatives: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.terms)

    def _each(self, term: Term, write) -> str:
        others = [Term(w) for k, w in self.alternatives if k == term.words and not term.prefix and w]
        if not others:
            return write(term)
        return "(" + " OR ".join(write(t) for t in (term, *others)) + ")"

    def fts5(self, column: str | None = None) -> str:
        """The FTS5 MATCH expression; `column`: search only that column (raw lines withheld)."""
        expr = " AND ".join(self._each(t, Term.fts5) for t in self.terms)
        return f"{{{column}}} : ({expr})" if column else expr

    def tsquery(self, weight: str = "") -> str:
        """The tsquery text (cast, not parsed: its words are already the index's); `weight`
        "A": only the fields part of an event (raw lines withheld)."""
        return " & ".join(self._each(t, lambda x: x.tsquery(weight)).replace(" OR ", " | ") for t in self.terms)

    def shown_in(self, *parts: list[str]) -> bool:
        """Every term found within one of `parts` (the words of each searched part of a row,
        as the reader is shown it: a phrase does not run from one part into the next)."""
        return all(any(t.found_in(p) for p in parts) for t in self.terms)

    def hit_words(self, seen: list[str]) -> set[str]:
        """The words of `seen` that a term matched (for marking the hits in what is shown)."""
        out = set()
        for t in self.terms:
            for w in seen:
                if w in t.words or (t.prefix and w.startswith(t.words[-1])):
                    out.add(w)
        return out


def parse(text: str) -> Query:
    """`text` as a Query: words, "phrases" and prefix* terms, at most MAX_TERMS of them.
    Punctuation is no syntax (it separates words), so no input is a syntax error."""
    terms: list[Term] = []
    for phrase, bare in PIECE.findall(text or ""):
        piece = phrase if phrase or bare == "" else bare
        prefix = piece.rstrip().endswith("*")
        found = words(piece)
        if not found:
            continue
        if prefix and len(found[-1]) < MIN_PREFIX:
            prefix = False
        if bare and len(found) > 1:
            # "E-12" or "o'brien": written as one word, searched as its words side by side
            terms.append(Term(tuple(found), prefix))
        elif bare:
            terms.append(Term((found[0],), prefix))
        else:
            terms.append(Term(tuple(found), prefix))
    unique = list(dict.fromkeys(terms))
    return Query(text, tuple(unique[:MAX_TERMS]))
